#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel flavour N times in a row with nothing to run and fail at the first boot
# whose log holds a kernel report: the evidence that the kernel and QEMU options of the
# harness boot clean (Documentation/testing.md, "The debug kernel boots clean"). Run it
# after any change to debug.config, the QEMU command line or the kernel's cmdline.
#
#   boot-check.sh [--kernel stock|debug] [N]     (default: debug, 20)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
flavour=debug
[ "${1:-}" = --kernel ] && { flavour=$2; shift 2; }
n=${1:-20}
out=$(cd "$here/../../.." && pwd)/.build/boot-check
rm -rf "$out"
for i in $(seq "$n"); do
	if ! "$here/vm.sh" --kernel "$flavour" --quiet --no-leak-scan --timeout 600 \
		--out "$out/$i" -- true >"$out.log" 2>&1; then
		cat "$out.log"
		echo "boot-check: boot $i of $n: kernel report or no status (logs in $out/$i)"
		exit 1
	fi
	echo "boot-check: boot $i of $n clean ($(sed -n 's/.*up in \([0-9.]*\) s.*/\1/p' \
		"$out/$i/console.log") s to the command)"
done
echo "boot-check: $n of $n $flavour boots without a kernel report"
