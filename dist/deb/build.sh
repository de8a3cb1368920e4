#!/usr/bin/env bash
# A Debian binary package of gputop-bpf, without a debian/ source tree:
#   build.sh BINARY VERSION OUTDIR CUPTI_LIB
# BINARY is the default dynamic build (build/default/gputop-bpf, from `make`), CUPTI_LIB the CUPTI
# companion library of the same build (build/default/cupti/libgputop-cupti.so); the package is
# OUTDIR/gputop-bpf_VERSION_ARCH.deb, made from the staging tree OUTDIR/gputop-bpf_VERSION_ARCH/.
set -euo pipefail

if [ $# -ne 4 ]; then
	echo "usage: $0 BINARY VERSION OUTDIR CUPTI_LIB" >&2
	exit 2
fi
BINARY=$1
VERSION=$2
OUTDIR=$3
CUPTI_LIB=$4
TOP=$(cd "$(dirname "$0")/../.." && pwd)
ARCH=$(dpkg --print-architecture)
MAINTAINER="gputop-bpf developers <gputop-bpf@example.org>"
umask 022

mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
ROOT=$OUTDIR/gputop-bpf_${VERSION}_${ARCH}
DEB=$ROOT.deb
rm -rf "$ROOT" "$DEB"
DOC=$ROOT/usr/share/doc/gputop-bpf
SHARE=$ROOT/usr/share/gputop-bpf
mkdir -p "$ROOT/DEBIAN" "$ROOT/usr/bin" "$ROOT/usr/lib/gputop-bpf" "$ROOT/usr/share/man/man8" "$ROOT/lib/systemd/system" \
	"$SHARE/themes" "$SHARE/grafana" "$SHARE/examples" "$DOC"

# The binary, stripped on the staged copy (the build's own keeps its symbols).
cp "$BINARY" "$ROOT/usr/bin/gputop-bpf"
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$ROOT/usr/bin/gputop-bpf"
# The library CUDA programs load with CUDA_INJECTION64_PATH (docs/gpu-time.md): its dynamic symbols
# (the probes the monitor attaches to, the semaphore) stay.
cp "$CUPTI_LIB" "$ROOT/usr/lib/gputop-bpf/libgputop-cupti.so"
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$ROOT/usr/lib/gputop-bpf/libgputop-cupti.so"

gzip -9n <"$TOP/man/gputop-bpf.8" >"$ROOT/usr/share/man/man8/gputop-bpf.8.gz"
cp "$TOP"/themes/*.theme "$SHARE/themes/"
cp "$TOP/dist/grafana/gputop-bpf.json" "$SHARE/grafana/"
cp "$TOP"/examples/*.jsonl "$SHARE/examples/" # what the interface names when there is no GPU
sed 's|@BINDIR@|/usr/bin|g' "$TOP/dist/systemd/gputop-bpf.service.in" \
	>"$ROOT/lib/systemd/system/gputop-bpf.service"
cp "$TOP/dist/deb/copyright" "$DOC/copyright"

# A version without a Debian revision (no '-') makes a native package, whose changelog
# lintian wants as changelog.gz; with one, changelog.Debian.gz.
changelog=changelog.Debian.gz
case $VERSION in *-*) ;; *) changelog=changelog.gz ;; esac
gzip -9n >"$DOC/$changelog" <<EOF
gputop-bpf ($VERSION) unstable; urgency=medium

  * Binary package of gputop-bpf $VERSION, built by dist/deb/build.sh.

 -- $MAINTAINER  $(date -R)
EOF

# Modes: directories 0755, files 0644, the binary 0755 (whatever the checkout's were).
find "$ROOT" -type d -exec chmod 0755 {} +
find "$ROOT" -type f -exec chmod 0644 {} +
chmod 0755 "$ROOT/usr/bin/gputop-bpf"

# The library dependencies, as dpkg-shlibdeps finds them: it wants a debian/control in its
# working folder, so it runs in a scratch one with a minimal one; -O prints the substvars.
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT
mkdir "$SCRATCH/debian"
printf 'Source: gputop-bpf\n\nPackage: gputop-bpf\nArchitecture: any\n' >"$SCRATCH/debian/control"
DEPENDS=$(cd "$SCRATCH" && dpkg-shlibdeps -O "$ROOT/usr/bin/gputop-bpf" "$ROOT/usr/lib/gputop-bpf/libgputop-cupti.so" | sed -n 's/^shlibs:Depends=//p')
if [ -z "$DEPENDS" ]; then
	echo "$0: dpkg-shlibdeps found no dependencies for $BINARY" >&2
	exit 1
fi

# Installed-Size is in KiB, of everything but the control files.
SIZE=$(du -sk --exclude=DEBIAN "$ROOT" | cut -f1)

cat >"$ROOT/DEBIAN/control" <<EOF
Package: gputop-bpf
Version: $VERSION
Architecture: $ARCH
Maintainer: $MAINTAINER
Installed-Size: $SIZE
Depends: $DEPENDS
Section: admin
Priority: optional
Description: top-like monitor of what Linux GPU drivers do, from eBPF
 gputop-bpf shows what the GPU drivers of a Linux machine do: per GPU
 scheduler ring the jobs queued, run and completed with their queue and
 execution latency, per process the jobs and GPU time, the drivers'
 interrupts, frame timing per display, and for NVIDIA GPUs the CUDA
 launches, device memory and Xid errors. It gathers them with eBPF
 programs on the kernel's tracepoints and on driver probes.
 .
 It has a top-like curses interface, batch text and JSON output,
 recording and replay, and a Prometheus metrics endpoint (a systemd unit
 and a Grafana dashboard come with it).
EOF

(cd "$ROOT" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) \
	>"$ROOT/DEBIAN/md5sums"
chmod 0644 "$ROOT/DEBIAN/control" "$ROOT/DEBIAN/md5sums"

dpkg-deb --build --root-owner-group "$ROOT" "$DEB"
