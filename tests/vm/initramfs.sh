#!/usr/bin/env bash
# Makes the test VM's initramfs for one cached kernel:
#   initramfs.sh k61|k7 GPUTOP_STATIC_BINARY OUT.cpio.gz
# GPUTOP_HTTP (environment): a build with the metrics endpoint (make test-vm: the sanitizer one),
# as gputop-bpf-http.
# busybox, gputop-bpf, the mock client, modetest with its libraries, and the
# modules (decompressed, dependencies first) listed in modules.order.
set -euo pipefail
VM=$(cd "$(dirname "$0")" && pwd)
K=$1 GPUTOP=$2 OUT=$3
DIR=$VM/cache/$K
REL=$(cat "$DIR/release")
MODDIR=$DIR/root/lib/modules/$REL
if [ ! -d "$MODDIR" ]; then # merged /usr: depmod -b wants BASE/lib/modules
	[ -e "$DIR/root/lib" ] || ln -s usr/lib "$DIR/root/lib"
fi
[ -e "$MODDIR/modules.dep" ] || depmod -b "$DIR/root" "$REL"
STAGE=$DIR/initramfs
rm -rf "$STAGE"
mkdir -p "$STAGE"/{bin,sbin,lib/modules,proc,sys,dev,tmp,etc,lib64,usr/lib/x86_64-linux-gnu}

cp /bin/busybox "$STAGE/bin/"
for applet in $("$STAGE/bin/busybox" --list); do
	[ -e "$STAGE/bin/$applet" ] || ln -s busybox "$STAGE/bin/$applet"
done
cp "$GPUTOP" "$STAGE/bin/gputop-bpf"
gcc -static -O2 -Wall -Wextra -Werror -I"$VM/../kmod" -o "$STAGE/bin/mockgpu-submit" \
	"$VM/../kmod/mockgpu-submit.c"
gcc -static -O2 -Wall -Wextra -Werror $(pkg-config --cflags libdrm) -o "$STAGE/bin/vblank-client" \
	"$VM/../display/vblank-client.c" $(pkg-config --static --libs libdrm)
# bin_with_libs PROGRAM: into /bin, with the shared libraries it loads.
gcc -static -O2 -Wall -Wextra -Werror -o "$STAGE/bin/reread" "$VM/reread.c"
# --stacks' submitter: its call chains walked by frame pointers (stacks.sh)
gcc -static -O2 -fno-omit-frame-pointer -Wall -Wextra -Werror -I"$VM/../kmod" -o "$STAGE/bin/stack-submit" \
	"$VM/stack-submit.c"
# ... and its twin without frame pointers, through Debian's libdrm (drmIoctl, no frame pointers): DWARF
gcc -static -O2 -fomit-frame-pointer -DWITH_LIBDRM -Wall -Wextra -Werror -I"$VM/../kmod" \
	$(pkg-config --cflags libdrm) -o "$STAGE/bin/stack-drm" "$VM/stack-submit.c" $(pkg-config --static --libs libdrm)
gcc -static -O2 -Wall -Wextra -Werror $(pkg-config --cflags libdrm) -o "$STAGE/bin/drm-holder" "$VM/drm-holder.c"
gcc -static -O2 -Wall -Wextra -Werror $(pkg-config --cflags libdrm) -o "$STAGE/bin/drm-load" "$VM/drm-load.c"
bin_with_libs() {
	local lib
	rm -f "$STAGE/bin/$(basename "$1")" # a busybox applet's link of that name: cp would write through it
	cp "$1" "$STAGE/bin/"
	for lib in $(ldd "$1" 2>/dev/null | awk '$(NF-1) ~ /^\// { print $(NF-1) } $1 ~ /^\// { print $1 }'); do
		[ -e "$STAGE$lib" ] && continue
		mkdir -p "$STAGE$(dirname "$lib")"
		cp -L "$lib" "$STAGE$lib"
	done
}
bin_with_libs "$(command -v modetest)"
bin_with_libs "$(command -v setpriv)" # a non-root user with the README's capabilities
# The metrics endpoint needs the default (dynamic) build: libmicrohttpd has no static form.
if [ -n "${GPUTOP_HTTP:-}" ]; then
	mkdir -p "$STAGE/tmp/http"
	cp "$GPUTOP_HTTP" "$STAGE/tmp/http/gputop-bpf-http"
	bin_with_libs "$STAGE/tmp/http/gputop-bpf-http"
	rm -r "$STAGE/tmp/http"
fi
# The NVIDIA collector's CUDA test: the stand-in libcuda.so.1 where the loader looks, and its client.
gcc -O2 -fPIC -shared -fno-ipa-icf -fcf-protection=full -Wall -Wextra -Werror -Wl,-soname,libcuda.so.1 \
	-o "$STAGE/usr/lib/x86_64-linux-gnu/libcuda.so.1" "$VM/../cuda/fake_libcuda.c"
gcc -O2 -Wall -Wextra -Werror -o "$STAGE/tmp/cuda-client" "$VM/../cuda/cuda-client.c" \
	-L"$STAGE/usr/lib/x86_64-linux-gnu" -l:libcuda.so.1 -lpthread
bin_with_libs "$STAGE/tmp/cuda-client"
rm "$STAGE/tmp/cuda-client"
cp "$VM/init.sh" "$STAGE/init"
cp "$VM/scenario.sh" "$STAGE/scenario.sh"
cp "$VM/sched-exact.sh" "$STAGE/sched-exact.sh"
cp "$VM/stacks.sh" "$STAGE/stacks.sh"
# the systemd unit's capabilities, as setpriv spells them (+bpf,+perfmon,...)
sed -n 's/^AmbientCapabilities=//p' "$VM/../../dist/systemd/gputop-bpf.service.in" | tr 'A-Z' 'a-z' |
	sed 's/cap_//g; s/ /,+/g; s/^/+/' >"$STAGE/unit-caps"
cp "$VM/../../bench/scenario.sh" "$STAGE/bench.sh"
cp "$VM/../../bench/soak-vm.sh" "$STAGE/soak.sh"
cp "$VM/example.sh" "$STAGE/example.sh"
for extra in ${EXTRA_BINS:-}; do # the benchmark's bpf_cost and bpftrace
	bin_with_libs "$extra"
done
mkdir -p "$STAGE/bench"
cp "$VM/../../bench/seed-drm_scheduler.bt" "$STAGE/bench/"
chmod +x "$STAGE/init"

# Module load order: each module after its dependencies (from modules.dep).
declare -A seen
order=()
resolve() {
	local name=${1//-/_} path deps d pat
	[ -n "${seen[$name]:-}" ] && return
	seen[$name]=1
	pat=${name//_/[-_]}
	path=$(grep -E "(^|/)${pat}\.ko(\.xz|\.zst)?:" "$MODDIR/modules.dep" | head -1 || true)
	[ -n "$path" ] || { echo "vm-initramfs: module $name not in $REL" >&2; return; }
	deps=${path#*:}
	for d in $deps; do
		d=$(basename "$d")
		resolve "${d%%.ko*}"
	done
	order+=("${path%%:*}")
}
add_built() { # a module we built: its dependencies from modinfo
	local ko=$1 d
	for d in $(modinfo -F depends "$ko" | tr ',' ' '); do
		resolve "$d"
	done
	order+=("BUILT:$ko")
}
for m in gpu-sched drm vgem; do resolve "$m"; done
add_built "$DIR/modules-built/mockgpu.ko"
add_built "$DIR/modules-built/mockdrm.ko"
add_built "$DIR/modules-built/vkms.ko"
for m in amdgpu i915 xe; do resolve "$m"; done

: >"$STAGE/modules.order"
for entry in "${order[@]}"; do
	if [[ $entry == BUILT:* ]]; then
		src=${entry#BUILT:}
		name=$(basename "$src")
		cp "$src" "$STAGE/lib/modules/$name"
	else
		src=$MODDIR/$entry
		name=$(basename "$entry")
		case $name in
		*.xz) xz -dc "$src" >"$STAGE/lib/modules/${name%.xz}"; name=${name%.xz} ;;
		*.zst) zstd -qdc "$src" >"$STAGE/lib/modules/${name%.zst}"; name=${name%.zst} ;;
		*) cp "$src" "$STAGE/lib/modules/$name" ;;
		esac
	fi
	echo "$name" >>"$STAGE/modules.order"
done
(cd "$STAGE" && find . | cpio -o -H newc --quiet | gzip -1) >"$OUT"
echo "vm-initramfs: $K: ${#order[@]} modules, $(du -h "$OUT" | cut -f1)"
