#!/usr/bin/env bash
# The rooms and what each may include (project headers, root-relative): a floor includes only
# floors below it and its own room; a collector nothing of another collector; src/ (main, the
# poller, the endpoint) is the top floor and nothing includes it.
set -u
cd "$(dirname "$0")/.." || exit 1
SUITE="layering"
. tests/lib.sh

# allowed ROOM: the rooms a file in ROOM may include
allowed() {
	case $1 in
	core) echo "core" ;;
	model) echo "core model" ;;
	format) echo "core model format" ;;
	symbols) echo "core symbols" ;;
	bpf) echo "core bpf" ;;
	collectors | collectors/kit) echo "core model bpf symbols collectors collectors/kit" ;;
	collectors/*) echo "core model bpf symbols collectors collectors/kit $1" ;;
	output) echo "core model format output" ;;
	recording) echo "core model format recording" ;;
	tui) echo "core model format tui" ;;
	src) echo "*" ;;
	*) echo "?" ;;
	esac
}

bad=0
files=0
for f in $(git ls-files 'core/*' 'model/*' 'format/*' 'symbols/*' 'bpf/*.h' 'collectors/*' 'output/*' 'recording/*' \
	'tui/*' 'src/*' | grep '\.[ch]$'); do
	room=$(dirname "$f")
	ok=$(allowed "$room")
	files=$((files + 1))
	while read -r inc; do
		[ -e "$inc" ] || continue # generated (skeletons, themes) or a system header
		target=$(dirname "$inc")
		[ "$ok" = "*" ] && continue
		if ! grep -qw -- "$target" <<<"$ok" || { [[ $target == collectors/* ]] && [ "$target" != collectors/kit ] &&
			! grep -qx -- "$target" <<<"$(tr ' ' '\n' <<<"$ok")"; }; then
			echo "    $f includes $inc ($room may include: $ok)"
			bad=$((bad + 1))
		fi
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done
check "$files files: every include goes to a floor below or the same room ($bad do not)" test "$bad" = 0
finish
