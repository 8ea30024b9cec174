#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once) the debug kernel the mrc tests boot: Debian's linux-source-6.1, x86_64
# allnoconfig with debug.config forced in (KCONFIG_ALLCONFIG), so that only what the
# guest needs is built (a few minutes on 2 cores). The result is cached outside the tree under
# $MRC_CACHE/debug-kernel/<source version>-<config hash>/ and rebuilt only when the
# Debian source package or the fragment changes. Prints the cache directory on stdout.
#
#   debug-kernel.sh            build if needed, print the directory
#   debug-kernel.sh --path     print the directory it would use, build nothing
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${MRC_CACHE:-/var/cache/mrc}
tarball=/usr/src/linux-source-6.1.tar.xz
frag=$here/debug.config

srcver=$(dpkg-query -W -f '${Version}' linux-source-6.1 2>/dev/null) || {
	echo "debug-kernel: linux-source-6.1 is not installed" >&2; exit 1; }
cfghash=$(sha256sum "$frag" | cut -c1-12)
dir=$cache/debug-kernel/$srcver-$cfghash

if [ "${1:-}" = --path ]; then
	echo "$dir"
	exit 0
fi
if [ -f "$dir/.done" ]; then
	echo "$dir"
	exit 0
fi

mkdir -p "$cache/debug-kernel"
exec 9>"$cache/debug-kernel/.lock"
flock 9
if [ -f "$dir/.done" ]; then
	echo "$dir"
	exit 0
fi

log() { echo "debug-kernel: $*" >&2; }
rm -rf "$dir"
mkdir -p "$dir"
log "building $srcver with $(basename "$frag") ($cfghash) in $dir (about 10 min on 2 cores)"
start=$(date +%s)
tar -C "$dir" -xJf "$tarball"
src=$dir/linux-source-6.1
obj=$dir/build
mk() { make -s -C "$src" O="$obj" ARCH=x86_64 "$@"; }
mk KCONFIG_ALLCONFIG="$frag" allnoconfig >&2

# A line whose dependencies are missing is dropped by kconfig without a word:
# refuse to build a kernel that would quietly test less than the fragment promises.
bad=0
while IFS= read -r line; do
	case "$line" in CONFIG_*=*) ;; *) continue ;; esac
	key=${line%%=*}
	val=${line#*=}
	if [ "$val" = n ]; then
		grep -qx "$key=.*" "$obj/.config" && grep -qx "$key=[ym]" "$obj/.config" && {
			log "$key is set but the fragment says n"; bad=1; }
	else
		grep -qxF "$line" "$obj/.config" || { log "$line did not survive olddefconfig"; bad=1; }
	fi
done <"$frag"
[ "$bad" = 0 ] || exit 1

mk -j"$(nproc)" bzImage modules >&2
mk INSTALL_MOD_PATH="$dir/modroot" INSTALL_MOD_STRIP=1 modules_install >&2
kver=$(cat "$obj/include/config/kernel.release")
echo "$kver" >"$dir/kernel.release"
touch "$dir/.done"
log "built $kver in $(( $(date +%s) - start )) s"
echo "$dir"
