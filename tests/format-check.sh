#!/usr/bin/env bash
# The lines of C changed since a base commit follow .clang-format (the kernel's style at 120
# columns). The tree before the style file was not formatted by it: only what a change touches
# is held to it, so the formatted part grows with each change. The base is tests/format-base
# (a commit of this history; the lead moves it forward) or FORMAT_BASE=REV; uncommitted changes
# count as changed. A failure prints the diff that `git clang-format BASE` would apply.
set -u
cd "$(dirname "$0")/.." || exit 1
SUITE="format"
. tests/lib.sh

base=${FORMAT_BASE:-$(cat tests/format-base)}
if ! command -v clang-format >/dev/null || ! command -v git-clang-format >/dev/null; then
	skip "changed lines against .clang-format: clang-format or git-clang-format is missing (make deps)"
elif ! command -v python3 >/dev/null; then
	skip "changed lines against .clang-format: git-clang-format needs python3, missing"
elif ! git rev-parse -q --verify "$base^{commit}" >/dev/null && [ "$(git rev-parse --is-shallow-repository)" = true ]; then
	skip "changed lines against .clang-format: base $base is not in this shallow clone's history"
elif ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
	fail "changed lines against .clang-format: base $base (tests/format-base or FORMAT_BASE) is no commit of this history"
else
	out=$(git clang-format --diff --extensions c,h "$base" -- 2>&1)
	case $out in
	"no modified files to format" | "clang-format did not modify any files")
		pass "C lines changed since ${base:0:12} follow .clang-format ($(clang-format --version | grep -o 'version [0-9.]*'))"
		;;
	*)
		echo "$out" | sed 's/^/    /'
		fail "C lines changed since ${base:0:12} follow .clang-format: 'git clang-format ${base:0:12}' applies the diff above"
		;;
	esac
fi
finish
