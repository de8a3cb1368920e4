#!/bin/sh
# CUPTI's headers for building the companion library (cupti/): Debian's libcupti-dev, from the
# non-free component, unpacked into DIR (default deps/cupti) without touching the system's apt
# sources, lists or packages: apt reads a sources file of its own and keeps its lists in DIR.
# Idempotent: nothing is fetched when DIR already holds cupti_activity.h.
#   fetch-cupti-headers.sh [DIR]
set -eu
DIR=${1:-deps/cupti}
if [ -f "$DIR/usr/include/cupti_activity.h" ]; then
	echo "deps: CUPTI headers in $DIR"
	exit 0
fi
mkdir -p "$DIR/apt/lists/partial" "$DIR/apt/archives"
DIR=$(cd "$DIR" && pwd)
# The suite and mirror the system's apt uses (deb822 or one-line sources), non-free added.
SUITE=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
MIRROR=$(sed -n 's/^URIs: *\([^ ]*\/debian\)$/\1/p; s/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\/debian\) .*/\2/p' \
	/etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null | head -n 1)
if [ -z "$MIRROR" ]; then
	echo "deps: no Debian mirror in the system's apt sources: CUPTI headers not fetched" >&2
	exit 1
fi
echo "deb $MIRROR $SUITE non-free" >"$DIR/apt/sources.list"
APT="-o Dir::Etc::SourceList=$DIR/apt/sources.list -o Dir::Etc::SourceParts=/dev/null
	-o Dir::State::Lists=$DIR/apt/lists -o Dir::Cache::Archives=$DIR/apt/archives -o Debug::NoLocking=1 -o APT::Sandbox::User=root"
echo "deps: fetching libcupti-dev ($SUITE non-free) into $DIR"
# shellcheck disable=SC2086
apt-get -qq $APT update
# shellcheck disable=SC2086
(cd "$DIR/apt/archives" && apt-get -qq $APT download libcupti-dev)
# Only the headers and the licence are kept (the package's libraries are not used: the library
# loads the program's own libcupti at run time).
mkdir -p "$DIR/x"
dpkg-deb -x "$DIR"/apt/archives/libcupti-dev_*.deb "$DIR/x"
rm -rf "$DIR/usr"
mkdir -p "$DIR/usr"
mv "$DIR/x/usr/include" "$DIR/usr/include"
cp "$DIR/x/usr/share/doc/libcupti-dev/copyright" "$DIR/copyright" 2>/dev/null || true
rm -rf "$DIR/x" "$DIR/apt"
test -f "$DIR/usr/include/cupti_activity.h"
echo "deps: CUPTI headers in $DIR/usr/include"
