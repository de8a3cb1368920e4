#!/bin/sh
# Embeds themes/*.theme into a C header (the built-in themes), default first.
set -eu
echo "/* Generated from the themes folder by tui/gen-themes.sh: do not edit. */"
echo "static const struct { const char *name; const char *text; } builtin_themes[] = {"
for f in themes/default.theme $(ls themes/*.theme | grep -v '/default.theme$'); do
	name=$(basename "$f" .theme)
	printf '\t{ "%s",\n' "$name"
	sed 's/\\/\\\\/g; s/"/\\"/g; s/^/\t  "/; s/$/\\n"/' "$f"
	printf '\t},\n'
done
echo "};"
