#!/usr/bin/env bash
# Functions past 80 lines (the house rule: under about 80), from the name's line to the closing
# brace. The tree is in the kernel's style (.clang-format): a definition starts at column 0 and its
# body is the lines from a "{" to a "}" at column 0, which is all this reads. Every one is listed;
# those of the product (all but tests/ and bench/) fail, the tests' own are only listed.
set -u
cd "$(dirname "$0")/.." || exit 1
SUITE="long functions"
. tests/lib.sh
LIMIT=${LIMIT:-80}

# file:line: name: N lines, for each function of the files given past LIMIT lines
long_functions() {
	awk -v limit="$LIMIT" '
	FNR == 1 { start = 0; body = 0 }
	!body && /^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ && !/^(typedef|struct [a-z_]+ \{)/ {
		s = $0; sub(/\(.*/, "", s); n = split(s, w, /[ *]+/); name = w[n]; start = FNR
	}
	!body && /^\{/ && start { body = 1; next }
	body && /^\}/ {
		body = 0
		if (FNR - start + 1 > limit)
			printf "%s:%d: %s: %d lines\n", FILENAME, start, name, FNR - start + 1
		start = 0
	}' "$@"
}

mapfile -t files < <(git ls-files '*.c' | grep -v '^build/')
all=$(long_functions "${files[@]}")
product=$(grep -v '^tests/\|^bench/' <<<"$all" | grep .)
tests=$(grep '^tests/\|^bench/' <<<"$all" | grep .)
[ -n "$tests" ] && sed 's/^/    (a test'"'"'s, listed) /' <<<"$tests"
[ -n "$product" ] && sed 's/^/    /' <<<"$product"
check "${#files[@]} C files: no function of the product past $LIMIT lines ($(grep -c . <<<"$product") are; the tests' own: $(grep -c . <<<"$tests"))" \
	test -z "$product"
finish
