#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel under QEMU (TCG) with the host root shared read-only over virtio-9p and
# run one command inside; the machine cannot load modules itself, so every module test
# goes through here.
#
#   vm.sh [--kernel stock|stock-6.12|debug] [--modules DIR] [--out DIR] [--timeout SECONDS]
#         [--mem SIZE] [--quiet] [--shell] [--no-leak-scan] [--no-kmemleak]
#         [--share-rw DIR] [--env NAME=VALUE] [--qemu ARG] [--] COMMAND...
#
# --kernel   stock: Debian 12's newest installed 6.1 linux-image-*-amd64 (default);
#            stock-6.12: its newest linux-image-6.12*-amd64;
#            debug: the KASAN/lockdep/kmemleak/UBSAN/KUnit kernel from debug-kernel.sh.
# --modules  a directory whose *.ko are made loadable by modprobe in the guest
#            (default: .build/<kernel>/mrc when it exists).
# --out      where the console log, output.log, dmesg.txt, kmemleak.txt and rc land
#            (default: a new directory under .build/vm/).
# --timeout  kill the guest after this many seconds (default 900).
# --mem      the guest's memory, as QEMU's -m takes it (default 2G stock, 4G debug).
# --quiet    do not stream the console; print the command's output at the end.
# --shell    interactive shell on the console instead of COMMAND (debugging).
# --no-leak-scan  skip the final kmemleak scan (about a minute under the debug kernel):
#            for boots that test the kernel and the harness, not mrc (boot-check.sh).
# --no-kmemleak  boot the debug kernel with kmemleak=off (no scan either): every
#            allocation's tracking halves the guest's speed, so make check runs the
#            tests that move the most data without it (Documentation/testing.md).
# --share-rw a host directory the guest mounts writable at its own path, uncached,
#            so that what another guest writes there is seen (pair.sh's rendezvous).
# --env      exported to COMMAND (repeatable).
# --qemu     one more argument for QEMU (repeatable): NICs, a monitor socket.
#
# The guest runs COMMAND with bash in the current directory as root. Exit status:
# COMMAND's own, unless the guest log shows a kernel report (KASAN, UBSAN, lockdep,
# WARNING, BUG, Oops, hung task, refcount wait, kmemleak report, at any time from boot
# to power-off): then 125; 124 on timeout, or when a netdev unregistration has waited a
# minute for a reference (a leak: it would wait for ever); the console's last lines are printed;
# 126 when the guest died before reporting a status (triple fault, QEMU killed).
#
# MRC_VM_APPEND adds to the kernel command line (investigations: boot-check.sh with
# nokaslr, a tracing option, ...).
#
# The tree (and the debug kernel's cache) reach the guest on 9p shares of their own,
# mounted at their host paths, so a clone under /root, /tmp or /var/tmp (tmpfs in the
# guest) works like any other.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$here/../../.." && pwd)
flavour=stock
modules=
out=
timeout=900
mem_opt=
quiet=0
shell=0
leak_scan=1
kmemleak=1
share_rw=
envs=()
qemu_extra=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) flavour=$2; shift 2 ;;
	--modules) modules=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--mem) mem_opt=$2; shift 2 ;;
	--quiet) quiet=1; shift ;;
	--shell) shell=1; shift ;;
	--no-leak-scan) leak_scan=0; shift ;;
	--no-kmemleak) leak_scan=0 kmemleak=0; shift ;;
	--share-rw) share_rw=$(cd "$2" && pwd); shift 2 ;;
	--env) envs+=("$2"); shift 2 ;;
	--qemu) qemu_extra+=("$2"); shift 2 ;;
	--) shift; break ;;
	-*) echo "vm.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || [ $shell = 1 ] || { echo "vm.sh: no command given" >&2; exit 2; }

case "$flavour" in
stock | stock-6.12)
	kver=$("$here/stock-kver.sh" --flavour "$flavour")
	bzimage=/boot/vmlinuz-$kver
	kmods=/lib/modules/$kver
	;;
debug)
	kdir=$("$here/debug-kernel.sh")
	kver=$(cat "$kdir/kernel.release")
	bzimage=$kdir/build/arch/x86/boot/bzImage
	kmods=$kdir/modroot/lib/modules/$kver
	;;
*) echo "vm.sh: --kernel must be stock, stock-6.12 or debug" >&2; exit 2 ;;
esac
[ -n "$modules" ] || { [ -d "$tree/.build/$flavour/mrc" ] && modules=$tree/.build/$flavour/mrc; } || true

if [ -z "$out" ]; then
	mkdir -p "$tree/.build/vm"
	out=$(mktemp -d "$tree/.build/vm/$flavour.XXXXXX")
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/rc" "$out/console.log" "$out/output.log" "$out/dmesg.txt" "$out/kmemleak.txt" \
	"$out/check-times.tsv"
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
# Host directories the guest mounts at their own paths over its view of the host root:
# the tree always (the module root and the command live in it), the kernel's modules
# when they are below a path the guest covers with tmpfs.
shares=("$tree")
case $kmods/ in /tmp/* | /run/* | /var/tmp/* | /root/*) shares+=("$kmods") ;; esac
[ -z "$share_rw" ] || shares+=("$share_rw")
share_args=()
: >"$work/ir/shares"
for i in "${!shares[@]}"; do
	mode=ro ro=readonly=on,
	[ "${shares[$i]}" = "$share_rw" ] && mode=rw ro=
	share_args+=(-fsdev "local,id=share$i,path=${shares[$i]},${ro}security_model=none,multidevs=remap"
		-device "virtio-9p-pci,fsdev=share$i,mount_tag=share$i")
	printf 'share%s %s %s\n' "$i" "${shares[$i]}" "$mode" >>"$work/ir/shares"
done
(cd "$work/ir" && find . | cpio -o -H newc --quiet) | gzip -1 >"$work/initrd.gz"

q() { printf '%q' "$1"; }
cmdtext="$*"
{
	echo "export MRC_TREE=$(q "$tree") MRC_KERNEL=$flavour MRC_KVER=$(q "$kver")"
	echo "export MRC_MODROOT=$(q "$modroot") MRC_CWD=$(q "$PWD") MRC_SHELL=$shell"
	echo "export MRC_OUT=/run/mrc/out MRC_CMD_TEXT=$(q "$cmdtext") MRC_LEAK_SCAN=$leak_scan"
	for e in "${envs[@]}"; do
		echo "export $(q "$e")"
	done
} >"$out/env"
printf '%s\n' "$*" >"$out/cmd"

append="console=ttyS0,115200 panic=-1 log_buf_len=8M mitigations=off rdinit=/init"
append="$append hung_task_timeout_secs=120 loglevel=6"
# Every KASAN report, not only a boot's first: a report must never hide the next one.
[ "$flavour" = debug ] && append="$append kasan_multi_shot"
[ $kmemleak = 1 ] || append="$append kmemleak=off"
[ -z "${MRC_VM_APPEND:-}" ] || append="$append $MRC_VM_APPEND"
mem=2G
[ "$flavour" = debug ] && mem=4G
[ -z "${mem_opt:-}" ] || mem=$mem_opt
qemu=(qemu-system-x86_64 -machine q35 -accel tcg,thread=multi -cpu max -smp 2 -m "$mem"
	-nodefaults -no-reboot -display none -kernel "$bzimage" -initrd "$work/initrd.gz"
	-append "$append"
	-fsdev "local,id=hostroot,path=/,readonly=on,security_model=none,multidevs=remap"
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot
	-fsdev "local,id=out,path=$out,security_model=none"
	-device virtio-9p-pci,fsdev=out,mount_tag=out
	"${share_args[@]}"
	-chardev "stdio,id=con,signal=off,logfile=$out/console.log"
	-serial chardev:con "${qemu_extra[@]}")

# stuck_watch PID: a netdev whose last reference never goes makes its unregister wait
# for ever, printing every 10 s; after a minute of that the guest cannot finish, so
# stop it now instead of at the time limit (the splat scan names the netdev).
stuck_watch() {
	local n
	while sleep 5; do
		n=$(grep -c 'unregister_netdevice: waiting for' "$out/console.log" 2>/dev/null)
		if [ "${n:-0}" -ge 6 ]; then
			: >"$work/stuck"
			kill -TERM "$1" 2>/dev/null
			return
		fi
	done
}

start=$(date +%s)
set +e
if [ $shell = 1 ]; then
	"${qemu[@]}"
else
	if [ $quiet = 1 ]; then
		timeout --signal=KILL "$timeout" "${qemu[@]}" </dev/null >/dev/null 2>"$work/qemu.err" &
	else
		timeout --signal=KILL "$timeout" "${qemu[@]}" </dev/null 2>"$work/qemu.err" &
	fi
	qpid=$!
	stuck_watch $qpid &
	wpid=$!
	wait $qpid
fi
qrc=$?
[ $shell = 1 ] || { kill $wpid 2>/dev/null; wait $wpid 2>/dev/null; }
set -e
elapsed=$(( $(date +%s) - start ))

[ $quiet = 1 ] && [ -f "$out/output.log" ] && cat "$out/output.log"
rc=126
if [ -f "$out/rc" ]; then
	rc=$(cat "$out/rc")
elif [ -f "$work/stuck" ]; then
	echo "vm.sh: guest stopped after ${elapsed}s: a netdev unregistration waits for a reference that never goes; the console's last lines:" >&2
	tail -n 25 "$out/console.log" | sed 's/^/vm.sh:   /' >&2
	rc=124
elif [ $qrc = 137 ] && [ $elapsed -ge "$timeout" ]; then
	# (137 is also what a QEMU killed by someone else returns: that is a death)
	echo "vm.sh: guest killed after the ${timeout}s time limit; the console's last lines:" >&2
	tail -n 25 "$out/console.log" | sed 's/^/vm.sh:   /' >&2
	rc=124
else
	echo "vm.sh: guest ended (qemu status $qrc) without reporting a status; the console's last lines:" >&2
	cat "$work/qemu.err" >&2 || true
	tail -n 25 "$out/console.log" 2>/dev/null | sed 's/^/vm.sh:   /' >&2
fi

# Any report, during boot too: the debug kernel boots clean (Documentation/testing.md),
# so a boot-time report is a regression of the harness or the kernel to look at.
if ! "$here/splat-scan.sh" "$out"; then
	echo "vm.sh: kernel report in the guest log (see $out/console.log)" >&2
	case $rc in 124 | 126) ;; *) rc=125 ;; esac
fi
echo "vm.sh: $flavour $kver, ${elapsed}s, status $rc, logs in $out" >&2
exit "$rc"
