#!/usr/bin/env bash
# Fetches the test kernels into tests/vm/cache (git-ignored), installing nothing on
# the host: Debian's packages are downloaded with `apt-get download` through a
# private apt sources list and unpacked with `dpkg -x`. A second run downloads nothing.
#   k61: bookworm's 6.1 (<= 6.16 scheduler tracepoints)
#   k7:  trixie-backports' 7.x (>= 6.17 scheduler tracepoints)
# It also makes the trixie chroot whose gcc-14 builds modules for 7.x.
set -euo pipefail
VM=$(cd "$(dirname "$0")" && pwd)
CACHE=$VM/cache
mkdir -p "$CACHE"
log() { echo "vm-fetch: $*"; }

# The Debian archive this machine already uses (never written into the project).
mirror() {
	local uri
	uri=$(awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
	[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $0 !~ /security/ { print ($2 ~ /^\[/ ? $3 : $2); exit }' \
		/etc/apt/sources.list 2>/dev/null)
	[ -n "$uri" ] || { echo "vm-fetch: no Debian archive in this machine's apt sources" >&2; exit 1; }
	echo "$uri"
}

APT_DIR=$CACHE/apt
apt_private() { # apt-get (or apt-cache, with APT_TOOL=apt-cache) with the private sources list
	${APT_TOOL:-apt-get} -q -o Dir::Etc::SourceList="$APT_DIR/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$APT_DIR/lists" -o Dir::Cache="$APT_DIR/cache" \
		-o Dir::State::Status="$APT_DIR/status" -o APT::Get::List-Cleanup=0 \
		-o Debug::NoLocking=1 -o APT::Sandbox::User=root "$@"
}

setup_apt() {
	local m
	m=$(mirror)
	mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
	touch "$APT_DIR/status"
	cat >"$APT_DIR/sources.list" <<EOS
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $m bookworm main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $m trixie main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $m trixie-backports main
EOS
	if [ ! -e "$APT_DIR/updated" ] || [ -n "$(find "$APT_DIR/updated" -mmin +1440)" ]; then
		log "updating the private package lists"
		apt_private update >/dev/null
		touch "$APT_DIR/updated"
	fi
}

# download DEST PACKAGE...: downloads into DEST/debs and unpacks into DEST/root.
download() {
	local dest=$1
	shift
	mkdir -p "$dest/debs" "$dest/root"
	for p in "$@"; do
		if ! ls "$dest/debs/${p}_"*.deb >/dev/null 2>&1; then
			log "downloading $p"
			(cd "$dest/debs" && apt_private download "$p" >/dev/null)
		fi
	done
	for deb in "$dest"/debs/*.deb; do
		[ -e "$deb.unpacked" ] && continue
		dpkg -x "$deb" "$dest/root"
		touch "$deb.unpacked"
	done
}

newest() { # newest version of a package name pattern in the private lists
	APT_TOOL=apt-cache apt_private pkgnames "$1" 2>/dev/null | grep -E "^$2\$" | sort -V | tail -1
}

fetch_k61() {
	local abi dir=$CACHE/k61
	[ -e "$dir/ready" ] && return
	abi=$(APT_TOOL=apt-cache apt_private show linux-image-amd64 2>/dev/null |
		awk '/^Depends: linux-image-6\.1\./ { sub(/.*linux-image-/, ""); sub(/-amd64.*/, ""); print; exit }')
	[ -n "$abi" ] || { echo "vm-fetch: cannot resolve bookworm's linux-image-amd64" >&2; exit 1; }
	log "6.1 ABI $abi"
	download "$dir" "linux-image-$abi-amd64" "linux-headers-$abi-amd64" "linux-headers-$abi-common" \
		linux-kbuild-6.1 linux-source-6.1
	echo "$abi-amd64" >"$dir/release"
	touch "$dir/ready"
}

fetch_k7() {
	local bin ver dir=$CACHE/k7 series
	[ -e "$dir/ready" ] && return
	bin=$(newest linux-binary-7 'linux-binary-7\.[0-9.]+\+deb[0-9]+-amd64')
	[ -n "$bin" ] || { echo "vm-fetch: no linux-binary-7.*-amd64 in trixie-backports" >&2; exit 1; }
	ver=${bin#linux-binary-}
	ver=${ver%-amd64}
	series=$(echo "$ver" | cut -d. -f1-2)
	log "7.x kernel $ver"
	download "$dir" "$bin" "linux-modules-$ver-amd64" "linux-headers-$ver-amd64" \
		"linux-headers-$ver-common" "linux-kbuild-$ver" "linux-source-$series"
	echo "$ver-amd64" >"$dir/release"
	touch "$dir/ready"
}

# A trixie chroot with gcc-14: the 7.x headers reject bookworm's gcc-12.
fetch_chroot() {
	local root=$CACHE/trixie-root
	[ -e "$root/.ready" ] && return
	log "making the trixie build chroot (debootstrap)"
	# twice: once here it found no Packages file ("Couldn't find these debs"), and the next run did
	local try
	for try in 1 2; do
		rm -rf "$root"
		debootstrap --variant=minbase --include=gcc-14,make,libc6-dev,bc,kmod,libelf1t64,dwarves,xz-utils \
			trixie "$root" "$(mirror)" >"$CACHE/debootstrap.log" 2>&1 && break
		tail -c 2000 "$CACHE/debootstrap.log"
		[ $try = 2 ] && exit 1
		log "debootstrap failed; once more"
	done
	touch "$root/.ready"
}

setup_apt
fetch_k61
fetch_k7
fetch_chroot
log "ready: $(cat "$CACHE/k61/release") and $(cat "$CACHE/k7/release")"
