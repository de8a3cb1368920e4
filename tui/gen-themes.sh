#!/bin/sh
# Embeds themes/*.theme into a C header (the built-in themes), default first.
set -eu
echo "/* Generated from the themes folder by tui/gen-themes.sh: do not edit. */"
echo "static const struct { const char *name; const char *text; } builtin_themes[] = {"
# The order t cycles through: the four shipped themes first, then any others.
first="default light high-contrast monochrome"
for f in $(for n in $first; do echo themes/$n.theme; done) \
	$(ls themes/*.theme | grep -v -E "/($(echo $first | tr ' ' '|'))\.theme$"); do
	name=$(basename "$f" .theme)
	printf '\t{ "%s",\n' "$name"
	sed 's/\\/\\\\/g; s/"/\\"/g; s/^/\t  "/; s/$/\\n"/' "$f"
	printf '\t},\n'
done
echo "};"
