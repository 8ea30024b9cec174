#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel under QEMU (TCG) with the host root shared read-only over virtio-9p and
# run one command inside; the machine cannot load modules itself, so every module test
# goes through here.
#
#   vm.sh [--kernel stock|debug] [--modules DIR] [--out DIR] [--timeout SECONDS]
#         [--quiet] [--shell] [--] COMMAND...
#
# --kernel   stock: Debian's newest installed linux-image-*-amd64 (default);
#            debug: the KASAN/lockdep/kmemleak/UBSAN/KUnit kernel from debug-kernel.sh.
# --modules  a directory whose *.ko are made loadable by modprobe in the guest
#            (default: .build/<kernel>/mrc when it exists).
# --out      where the console log, output.log, dmesg.txt, kmemleak.txt and rc land
#            (default: a new directory under .build/vm/).
# --timeout  kill the guest after this many seconds (default 900).
# --quiet    do not stream the console; print the command's output at the end.
# --shell    interactive shell on the console instead of COMMAND (debugging).
#
# The guest runs COMMAND with bash in the current directory as root. Exit status:
# COMMAND's own, unless the guest log shows a kernel splat (KASAN, UBSAN, lockdep,
# WARNING, BUG, Oops, hung task, kmemleak report): then 125 if COMMAND had passed;
# 124 on timeout; 126 when the guest died before reporting a status.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$here/../../.." && pwd)
# The guest sees the host's root read-only but mounts its own tmpfs on these (init):
# a tree below one of them would be missing in the guest.
case $tree/ in
/tmp/* | /run/* | /var/tmp/* | /root/*)
	echo "vm.sh: $tree is hidden in the guest (its own tmpfs there); use a tree elsewhere" >&2
	exit 2 ;;
esac
flavour=stock
modules=
out=
timeout=900
quiet=0
shell=0
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) flavour=$2; shift 2 ;;
	--modules) modules=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--quiet) quiet=1; shift ;;
	--shell) shell=1; shift ;;
	--) shift; break ;;
	-*) echo "vm.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || [ $shell = 1 ] || { echo "vm.sh: no command given" >&2; exit 2; }

case "$flavour" in
stock)
	kver=$("$here/stock-kver.sh")
	bzimage=/boot/vmlinuz-$kver
	kmods=/lib/modules/$kver
	;;
debug)
	kdir=$("$here/debug-kernel.sh")
	kver=$(cat "$kdir/kernel.release")
	bzimage=$kdir/build/arch/x86/boot/bzImage
	kmods=$kdir/modroot/lib/modules/$kver
	;;
*) echo "vm.sh: --kernel must be stock or debug" >&2; exit 2 ;;
esac
[ -n "$modules" ] || { [ -d "$tree/.build/$flavour/mrc" ] && modules=$tree/.build/$flavour/mrc; } || true

if [ -z "$out" ]; then
	mkdir -p "$tree/.build/vm"
	out=$(mktemp -d "$tree/.build/vm/$flavour.XXXXXX")
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/rc" "$out/console.log" "$out/output.log" "$out/dmesg.txt" "$out/kmemleak.txt" \
	"$out/boot-splat"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Module root: the kernel's modules by symlink plus ours, indexed for modprobe -d.
modroot=$out/modroot
rm -rf "$modroot"
mdir=$modroot/lib/modules/$kver
mkdir -p "$mdir/extra"
ln -s "$kmods/kernel" "$mdir/kernel"
cp "$kmods"/modules.order "$kmods"/modules.builtin* "$mdir/"
if [ -n "$modules" ]; then
	for ko in "$modules"/*.ko; do
		[ -e "$ko" ] && ln -s "$(cd "$(dirname "$ko")" && pwd)/$(basename "$ko")" "$mdir/extra/"
	done
fi
depmod -b "$modroot" "$kver"

# Initramfs: busybox, the first-stage init, and the modules needed to reach the 9p root
# (built into the debug kernel, modules in Debian's).
mkdir -p "$work/ir"/{bin,dev,proc,sys,newroot,mods}
cp /bin/busybox "$work/ir/bin/busybox"
cp "$here/init" "$work/ir/init"
: >"$work/ir/mods/order"
for m in virtio_pci 9pnet_virtio 9p; do
	modprobe -d "$modroot" -S "$kver" --show-depends "$m"
done | awk '$1 == "insmod" { print $2 }' | while read -r ko; do
	name=$(basename "$ko")
	grep -qxF "$name" "$work/ir/mods/order" && continue
	cp "$ko" "$work/ir/mods/$name"
	echo "$name" >>"$work/ir/mods/order"
done
(cd "$work/ir" && find . | cpio -o -H newc --quiet) | gzip -1 >"$work/initrd.gz"

q() { printf '%q' "$1"; }
cmdtext="$*"
{
	echo "export MRC_TREE=$(q "$tree") MRC_KERNEL=$flavour MRC_KVER=$(q "$kver")"
	echo "export MRC_MODROOT=$(q "$modroot") MRC_CWD=$(q "$PWD") MRC_SHELL=$shell"
	echo "export MRC_OUT=/run/mrc/out MRC_CMD_TEXT=$(q "$cmdtext")"
} >"$out/env"
printf '%s\n' "$*" >"$out/cmd"

append="console=ttyS0,115200 panic=-1 log_buf_len=8M mitigations=off rdinit=/init"
append="$append hung_task_timeout_secs=120 loglevel=6"
mem=2G
[ "$flavour" = debug ] && mem=4G
qemu=(qemu-system-x86_64 -machine q35 -accel tcg,thread=multi -cpu max -smp 2 -m "$mem"
	-nodefaults -no-reboot -display none -kernel "$bzimage" -initrd "$work/initrd.gz"
	-append "$append"
	-fsdev "local,id=hostroot,path=/,readonly=on,security_model=none,multidevs=remap"
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot
	-fsdev "local,id=out,path=$out,security_model=none"
	-device virtio-9p-pci,fsdev=out,mount_tag=out
	-chardev "stdio,id=con,signal=off,logfile=$out/console.log"
	-serial chardev:con)

start=$(date +%s)
for attempt in 1 2; do
	echo "$attempt" >"$out/attempt"
	set +e
	if [ $shell = 1 ]; then
		"${qemu[@]}"
	elif [ $quiet = 1 ]; then
		timeout --signal=KILL "$timeout" "${qemu[@]}" </dev/null >/dev/null 2>"$work/qemu.err"
	else
		timeout --signal=KILL "$timeout" "${qemu[@]}" </dev/null 2>"$work/qemu.err"
	fi
	qrc=$?
	set -e
	# Under TCG on a loaded host the debug kernel has been seen to take a KASAN report
	# from an interrupt during early CPU identification, before our command or module
	# ran. Such a boot proves nothing about mrc: keep its log, say so, boot once more.
	# A report after the command started is never retried.
	[ $attempt = 1 ] && [ $shell = 0 ] && ! "$here/splat-scan.sh" --boot "$out" >/dev/null ||
		break
	mv "$out/console.log" "$out/console.boot-splat.log"
	rm -f "$out/rc" "$out/output.log" "$out/dmesg.txt" "$out/kmemleak.txt"
	echo "vm.sh: kernel report while booting, before the command ran" \
		"(kept in $out/console.boot-splat.log); booting again" >&2
done
elapsed=$(( $(date +%s) - start ))

[ $quiet = 1 ] && [ -f "$out/output.log" ] && cat "$out/output.log"
rc=126
if [ -f "$out/rc" ]; then
	rc=$(cat "$out/rc")
elif [ $qrc = 137 ]; then
	echo "vm.sh: guest killed after the ${timeout}s time limit" >&2
	rc=124
else
	echo "vm.sh: guest ended (qemu status $qrc) without reporting a status" >&2
	cat "$work/qemu.err" >&2 || true
fi

# A boot-time report that came back on the second boot is the kernel's or QEMU's
# (mrc is not loaded before the command runs): judge only what followed, and leave a
# mark so that make check reports the run as degraded, since the first KASAN report
# also switches lockdep off for the rest of the boot.
scan=()
if [ $shell = 0 ] && ! "$here/splat-scan.sh" --boot "$out" >/dev/null; then
	scan=(--after)
	touch "$out/boot-splat"
	echo "vm.sh: WARNING: kernel report while booting again, before the command ran;" \
		"judging only what followed (lockdep is off after a KASAN report)" >&2
fi
if ! "$here/splat-scan.sh" "${scan[@]}" "$out"; then
	echo "vm.sh: kernel splat in the guest log (see $out/console.log)" >&2
	[ "$rc" = 0 ] && rc=125
fi
echo "vm.sh: $flavour $kver, ${elapsed}s, status $rc, logs in $out" >&2
exit "$rc"
