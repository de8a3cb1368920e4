#!/usr/bin/env bash
# The Debian package, end to end:
#   run.sh BINARY VERSION CUPTI_LIB [PRODUCT_BINARY...]
# Builds the .deb from BINARY (dist/deb/build.sh), runs lintian on it (no errors), reads its
# contents and checks that the binary holds no test hook. As root it also installs it, runs the
# installed binary, finds the man page and the unit, purges it and checks nothing is left.
# The other product binaries named (the static build) must hold no test hook either.
set -u
cd "$(dirname "$0")/../.." || exit 1
SUITE="package tests"
. tests/lib.sh
BIN=$1
VERSION=$2
CUPTI_LIB=$3
shift 3
TMP=$(mktemp -d)
INSTALLED=0
# Purges the package if the test installed it and stopped before purging it (a failed check).
cleanup() {
	[ "$INSTALLED" = 1 ] && dpkg --purge gputop-bpf >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT

# Checks, for `check` (lib.sh): each succeeds when what it names holds.
no_lintian_error() { [ "$lintian_rc" = 0 ] && ! grep -q '^E:' "$TMP/lintian.txt"; }
listed() { grep -qxF ".$1" "$TMP/paths.txt"; }
all_root() { [ -z "$(awk '$2 != "root/root"' "$TMP/contents.txt")" ]; }
stripped() { file "$SHIPPED" | grep -q ', stripped'; }
no_test_hooks() { ! strings "${1:-$SHIPPED}" | grep -q GPUTOP_TEST_; }
# The first line of --version is "gputop-bpf VERSION (libbpf ...)".
prints_version() {
	local out
	out=$(/usr/bin/gputop-bpf --version) || return 1
	[ "$(head -1 <<<"$out" | awk '{print $2}')" = "$VERSION" ]
}
# -a: every page of that name (one of `make install` in /usr/local may come first).
man_finds() { man -aw gputop-bpf | grep -qx /usr/share/man/man8/gputop-bpf.8.gz; }
not_installed() { ! dpkg -s gputop-bpf >/dev/null 2>&1; }

check "dist/deb/build.sh builds the package" dist/deb/build.sh "$BIN" "$VERSION" "$TMP" "$CUPTI_LIB"
DEB=$TMP/gputop-bpf_${VERSION}_$(dpkg --print-architecture).deb
if [ ! -f "$DEB" ]; then
	fail "no $(basename "$DEB") to test"
	finish
	exit
fi

# lintian exits 0 unless it reports an error (1) or fails itself (2); its warnings and
# informational tags are printed for the reader. It warns when run as root: not a tag.
echo "lintian $(basename "$DEB"):"
# TMPDIR: lintian leaves temporary files behind (mldbm-elf-*); they go with $TMP.
TMPDIR=$TMP lintian --display-info "$DEB" >"$TMP/lintian.txt" 2>&1
lintian_rc=$?
sed 's/^/    /' "$TMP/lintian.txt"
check "lintian runs and reports no error (E:)" no_lintian_error

# The package's paths, one a line, as ./usr/bin/gputop-bpf (directories end with /).
dpkg-deb -c "$DEB" >"$TMP/contents.txt"
awk '{print $6}' "$TMP/contents.txt" >"$TMP/paths.txt"
check "package holds /usr/bin/gputop-bpf" listed /usr/bin/gputop-bpf
check "package holds the CUPTI companion library" listed /usr/lib/gputop-bpf/libgputop-cupti.so
check "package holds the man page" listed /usr/share/man/man8/gputop-bpf.8.gz
check "package holds the systemd unit" listed /lib/systemd/system/gputop-bpf.service
check "package holds the Grafana dashboard" listed /usr/share/gputop-bpf/grafana/gputop-bpf.json
for t in themes/*.theme; do
	check "package holds the theme $(basename "$t")" listed "/usr/share/gputop-bpf/$t"
done
check "package holds the copyright file" listed /usr/share/doc/gputop-bpf/copyright
for e in examples/*.jsonl; do # the interface names them when there is no GPU
	check "package holds the example recording $(basename "$e")" listed "/usr/share/gputop-bpf/$e"
done
check "every entry is owned by root/root" all_root
check "the binary is mode 0755" grep -q '^-rwxr-xr-x .* ./usr/bin/gputop-bpf$' "$TMP/contents.txt"

# The shipped binary: stripped, and without the test hooks of a TEST_HOOKS=1 build.
dpkg-deb -x "$DEB" "$TMP/x"
SHIPPED=$TMP/x/usr/bin/gputop-bpf
check "the packaged binary is stripped" stripped
check "the packaged binary has no GPUTOP_TEST_ string" no_test_hooks
check "the packaged CUPTI library has no GPUTOP_TEST_ string" no_test_hooks "$TMP/x/usr/lib/gputop-bpf/libgputop-cupti.so"
check "the packaged CUPTI library keeps its 4 probe functions and 2 semaphores" sh -c \
	"test \"\$(nm -D --defined-only '$TMP/x/usr/lib/gputop-bpf/libgputop-cupti.so' | grep -o ' gputop_cupti_.*' | sort | tr -d '\n')\" = \
	' gputop_cupti_launch gputop_cupti_launch_semaphore gputop_cupti_name gputop_cupti_records gputop_cupti_semaphore gputop_cupti_status'"
for b in "$BIN" "$CUPTI_LIB" "$@"; do
	check "$b (and the BPF objects in it) has no GPUTOP_TEST_ string" no_test_hooks "$b"
done

# Installed: what dpkg knows of gputop-bpf ("" or not-installed when nothing is there).
state=$(dpkg-query -W -f='${db:Status-Status}' gputop-bpf 2>/dev/null)
ROOT_CHECKS=("dpkg -i" "--version" "--list" "man -w" "unit" "dpkg --purge" "no file left" "dpkg -s")
if [ "$(id -u)" != 0 ]; then
	echo "  *** NOT ROOT: the package is not installed, run or purged (run this suite as root) ***"
	for c in "${ROOT_CHECKS[@]}"; do skip "$c: needs root"; done
elif [ -n "$state" ] && [ "$state" != not-installed ]; then
	fail "a gputop-bpf package is already on this machine (dpkg state: $state); not overwriting" \
		"it: remove it (dpkg --purge gputop-bpf) to run the install checks"
else
	INSTALLED=1
	check "dpkg -i installs the package" dpkg -i "$DEB"
	check "/usr/bin/gputop-bpf --version exits 0 and prints $VERSION" prints_version
	check "/usr/bin/gputop-bpf --list exits 0" /usr/bin/gputop-bpf --list
	check "the installed example the interface names replays" \
		bash -c "/usr/bin/gputop-bpf --replay /usr/share/gputop-bpf/examples/sysfs-fixtures.jsonl -b -n 1 | grep -q 'GPU sensors'"
	if command -v man >/dev/null; then
		check "man -w finds the installed page" man_finds
	else
		skip "man -w: no man command"
	fi
	unit=/lib/systemd/system/gputop-bpf.service
	check "the unit is in /lib/systemd/system and starts /usr/bin/gputop-bpf" \
		grep -q '^ExecStart=/usr/bin/gputop-bpf ' "$unit"
	check "dpkg --purge removes the package" dpkg --purge gputop-bpf
	INSTALLED=0
	# Left over: any file of the package, or a directory of its own (named gputop-bpf);
	# shared ones (/usr/bin, /usr/share/man/man8 ...) stay.
	left=$(sed 's/^\.//' "$TMP/paths.txt" | while read -r p; do
		case $p in
		*/) [[ $p == *gputop-bpf* ]] && [ -d "$p" ] && echo "$p" ;;
		*) [ -e "$p" ] && echo "$p" ;;
		esac
	done)
	[ -n "$left" ] && echo "    left after purge: $left"
	check "no file of the package is left after the purge" test -z "$left"
	check "dpkg -s says gputop-bpf is not installed" not_installed
fi

finish
