#!/usr/bin/env bash
# The man page and --help name the same long options.
set -u
SUITE="doc tests"
. "$(dirname "$0")/lib.sh"
BIN=$1
help=$("$BIN" --help)
opts=$(grep -o -- '--[a-z][a-z-]*' <<<"$help" | sort -u)
check "--help lists options" test -n "$opts"
for o in $opts; do
	check "man page documents $o" grep -q -- "${o//-/\\\\-}" man/gputop-bpf.8
done
for o in $(grep -oE -- '\\-\\-[a-z]([a-z]|\\-)*' man/gputop-bpf.8 | sed 's/\\//g' | sort -u); do
	check "--help lists $o (from the man page)" grep -q -- "$o" <<<"$help"
done
check "man page renders without warnings" bash -c "! groff -man -ww -z man/gputop-bpf.8 2>&1 | grep -q ."
finish
