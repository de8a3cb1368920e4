#!/bin/sh
# Runs each unit-test binary; fails if any fails. cmocka prints its own summary per binary.
set -u
failed=0
for t in "$@"; do
	echo "== $t"
	"$t" || failed=$((failed + 1))
done
[ "$failed" -eq 0 ] || { echo "unit tests: $failed binaries failed"; exit 1; }
