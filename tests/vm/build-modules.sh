#!/usr/bin/env bash
# Builds the mock GPU driver (tests/kmod) and vkms (from the kernel's own Debian
# linux-source package, never committed) for one cached kernel.
#   build-modules.sh k61|k7   ->  cache/<k>/modules-built/{mockgpu,mockdrm,vkms}.ko
# 6.1 builds with the host's gcc-12; 7.x inside the trixie chroot (gcc-14).
set -euo pipefail
VM=$(cd "$(dirname "$0")" && pwd)
K=$1
DIR=$VM/cache/$K
REL=$(cat "$DIR/release")
OUT=$DIR/modules-built
KMOD=$VM/../kmod
mkdir -p "$OUT"

stamp=$(cat "$KMOD"/*.c "$KMOD"/*.h "$KMOD"/Kbuild | md5sum | cut -d' ' -f1)
if [ -e "$OUT/mockgpu.ko" ] && [ -e "$OUT/mockdrm.ko" ] && [ -e "$OUT/vkms.ko" ] && [ "$(cat "$OUT/stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi

# The vkms sources of this kernel, from its linux-source tarball.
src_tar=$(ls "$DIR"/root/usr/src/linux-source-*.tar.xz)
work=$DIR/src
rm -rf "$work"
mkdir -p "$work/mockgpu"
tar -xJf "$src_tar" -C "$work" --wildcards '*/drivers/gpu/drm/vkms/*'
mv "$work"/linux-source-*/drivers/gpu/drm/vkms "$work/vkms"
cp "$KMOD"/mockgpu.c "$KMOD"/mockdrm.c "$KMOD"/mockgpu_uapi.h "$KMOD"/mockdrm_uapi.h "$KMOD"/Kbuild "$work/mockgpu/"

if [ "$K" = k61 ]; then
	hdr=$DIR/root/usr/src/linux-headers-$REL
	common=$(sed -n 's|^include /usr/src/\(.*\)/Makefile|\1|p' "$hdr/Makefile")
	for m in mockgpu vkms; do
		make -s -C "$hdr" -f "$DIR/root/usr/src/$common/Makefile" M="$work/$m" \
			CONFIG_DRM_VKMS=m modules
	done
else
	root=$VM/cache/trixie-root
	# The headers' Makefiles name absolute /usr/src and /usr/lib paths: unpack them there.
	for deb in "$DIR"/debs/linux-headers-*.deb "$DIR"/debs/linux-kbuild-*.deb; do
		dpkg -x "$deb" "$root"
	done
	rm -rf "$root/build"
	cp -r "$work" "$root/build"
	mountpoint -q "$root/proc" || mount -t proc proc "$root/proc" # objtool reads /proc
	trap 'umount "$root/proc" 2>/dev/null' EXIT
	for m in mockgpu vkms; do
		chroot "$root" make -s -C "/usr/src/linux-headers-$REL" M="/build/$m" \
			CONFIG_DRM_VKMS=m CC=gcc-14 modules
	done
	rm -rf "$work"
	cp -r "$root/build" "$work"
fi
cp "$work/mockgpu/mockgpu.ko" "$work/mockgpu/mockdrm.ko" "$work/vkms/vkms.ko" "$OUT/"
echo "$stamp" >"$OUT/stamp"
echo "vm-build: mockgpu.ko, mockdrm.ko and vkms.ko for $REL"
