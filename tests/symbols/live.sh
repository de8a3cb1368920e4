#!/usr/bin/env bash
# The symbolizer on a live process's own stack: the fixture (symfix/fixture.c, "stack") prints the
# return addresses of main -> fix_outer -> fix_inner and waits; the helper resolves them in it, as a
# folded stack and frame by frame, for the PIE with its symbols and for the stripped build with its
# debug file found by build id.   Usage: tests/symbols/live.sh SYMBOLIZE FIXTURE_DIR
set -u
SUITE="symbols live"
. "$(dirname "$0")/../lib.sh"
BIN=$1 FIX=$2
work=$(mktemp -d)
trap 'exec 3>&- 2>/dev/null; rm -rf "$work"' EXIT

# live PROG DEBUG_DIR: runs PROG stack, symbolizes its stack, checks the frames
live() {
	local prog=$1 debug=$2 pid line folded frames
	mkfifo "$work/in"
	"$FIX/$prog" stack <"$work/in" >"$work/out" &
	pid=$!
	exec 3>"$work/in"
	for _ in $(seq 100); do grep -q '^ready' "$work/out" && break; sleep 0.05; done
	line=$(sed -n 's/^stack //p' "$work/out")
	# shellcheck disable=SC2086 # the addresses, one argument each
	folded=$("$BIN" -d "$FIX/$debug" -f "$pid" $line)
	# shellcheck disable=SC2086
	frames=$("$BIN" -d "$FIX/$debug" "$pid" $line)
	exec 3>&-
	wait "$pid"
	rm -f "$work/in"
	echo "       $prog: $folded"
	check "$prog: the folded stack ends main;fix_outer;fix_inner, weight 1" \
		grep -qE '(^|;)main;fix_outer;fix_inner 1$' <<<"$folded"
	check "$prog: the leaf is an address inside fix_inner" \
		grep -qE '^0x[0-9a-f]+ fix_inner\+0x[0-9a-f]+$' <<<"$(head -1 <<<"$frames")"
	check "$prog: every frame resolved to a name or a module" \
		test "$(grep -c '\[unknown\]' <<<"$frames")" = 0
}

live pie nodebug
live stripped debug
finish
