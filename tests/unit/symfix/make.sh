#!/bin/sh
# Builds the symbolizer's fixture programs into OUTDIR (make, before test_symbols_elf):
#   pie        -g, position-independent
#   nopie      -g, at a fixed address
#   cxx        C++, -g
#   stripped   -rdynamic, stripped of .symtab and debug info
#   debug/.build-id/xx/rest.debug: stripped's debug info, found by its build id
#   nodebug/   an empty debug folder
#   wrongdebug/  another program's debug file where stripped's would be
# Usage: tests/unit/symfix/make.sh OUTDIR
set -eu
out=$1
src=$(dirname "$0")
mkdir -p "$out/debug" "$out/nodebug"
flags="-O1 -g -fno-inline -Wl,--build-id=sha1"
gcc $flags -fPIE -pie -o "$out/pie" "$src/fixture.c"
gcc $flags -fno-pie -no-pie -o "$out/nopie" "$src/fixture.c"
g++ $flags -fPIE -pie -o "$out/cxx" "$src/fixture_cxx.cc"
gcc $flags -fPIE -pie -rdynamic -o "$out/stripped.full" "$src/fixture.c"
id=$(readelf -n "$out/stripped.full" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
[ -n "$id" ] || { echo "symfix: no build id in stripped.full" >&2; exit 1; }
dir=$out/debug/.build-id/$(echo "$id" | cut -c1-2)
mkdir -p "$dir"
objcopy --only-keep-debug "$out/stripped.full" "$dir/$(echo "$id" | cut -c3-).debug"
strip --strip-all -o "$out/stripped" "$out/stripped.full"
# another program's debug file where stripped's would be: to be refused (its build id differs)
wrong=$out/wrongdebug/.build-id/$(echo "$id" | cut -c1-2)
mkdir -p "$wrong"
objcopy --only-keep-debug "$out/nopie" "$wrong/$(echo "$id" | cut -c3-).debug"
if readelf -S "$out/stripped" | grep -q '\.symtab'; then
	echo "symfix: stripped still has .symtab" >&2
	exit 1
fi
touch "$out/.done"
