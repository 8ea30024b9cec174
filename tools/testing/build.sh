#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build mrc.ko (and, where the kernel has KUnit, mrc_test.ko) against one kernel flavour
# into .build/<flavour>/, a copy of the sources, so that both kernels' objects can exist
# side by side. W=1; any compiler or modpost warning fails the build.
#
#   build.sh stock|stock-6.12|debug [sparse]
#
# stock is Debian 12's own 6.1 kernel, stock-6.12 its linux-image-6.12-amd64
# (Documentation/kernels.md); debug the kernel debug-kernel.sh builds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$here/../.." && pwd)
flavour=$1
case "$flavour" in
stock | stock-6.12) kdir=/usr/src/linux-headers-$("$here/vm/stock-kver.sh" --flavour "$flavour") ;;
debug) kdir=$("$here/vm/debug-kernel.sh")/build ;;
*) echo "build.sh: flavour must be stock, stock-6.12 or debug" >&2; exit 2 ;;
esac
dst=$tree/.build/$flavour
mkdir -p "$dst"
# Objects stay (excluded from --delete) so that rebuilds are incremental. A copy
# takes the time it is made, not the source's (no -t; --checksum finds what
# changed): a source edited while a build ran is older than the objects that
# build made from the copy before, and make would keep them.
rsync -rlD --checksum --delete --exclude '*.o' --exclude '.*.cmd' --exclude '*.ko' --exclude '*.mod' \
	--exclude '*.mod.c' --exclude modules.order --exclude Module.symvers \
	"$tree/Kbuild" "$tree/mrc" "$tree/include" "$dst/"
extra=()
[ "${2:-}" = sparse ] && extra=(C=2 CHECK=sparse)
log=$dst/build.log
make -C "$kdir" M="$dst" W=1 "${extra[@]}" modules >"$log" 2>&1 || {
	cat "$log"; echo "build.sh: build against $kdir failed" >&2; exit 1; }
if grep -E 'warning:|error:|WARNING:' "$log"; then
	echo "build.sh: warnings building against $kdir (full log: $log)" >&2
	exit 1
fi
ls "$dst"/mrc/*.ko
