#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Second stage in the guest, PID 1 in the host's userland: finish the mounts, make
# module autoloading find both the kernel's modules and ours, run the requested
# command, then collect what the host scans for splats (dmesg, a final kmemleak scan)
# and power off. The exit status travels back through /run/mrc/out/rc.
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=${TERM:-dumb}
out=/run/mrc/out

mount -t debugfs debugfs /sys/kernel/debug
mkdir -p /dev/pts /dev/shm /run/netns
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
# what udev makes on a real system: bash's <(...) (dkms uses it) opens /dev/fd/N
ln -sfn /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
ip link set lo up
hostname mrc-guest
echo 1 >/proc/sys/kernel/sysrq

# request_module() runs the helper named here with a fixed environment, so the
# module root (kernel modules + ours, indexed by vm.sh's depmod) is baked in.
mkdir -p /run/mrc
cat >/run/mrc/modprobe <<EOT
#!/bin/sh
exec /sbin/modprobe -d '$MRC_MODROOT' "\$@"
EOT
chmod 0755 /run/mrc/modprobe
echo /run/mrc/modprobe >/proc/sys/kernel/modprobe
export MODPROBE_OPTIONS="-d $MRC_MODROOT"

# Boot-time kmemleak reports (if any) are the kernel's, not ours: forget them.
kmemleak=/sys/kernel/debug/kmemleak
[ -w $kmemleak ] && [ "${MRC_LEAK_SCAN:-1}" = 1 ] && echo clear >$kmemleak

# Marks in the kernel log where boot ends and the command begins (splat-scan.sh).
echo "mrc-vm: command starts" >/dev/kmsg
echo "mrc-vm: $(uname -r) up in $(cut -d' ' -f1 /proc/uptime) s; running: $MRC_CMD_TEXT"
cd "$MRC_CWD" || cd /
if [ "${MRC_SHELL:-0}" = 1 ]; then
	setsid -c /bin/bash -i </dev/ttyS0 >/dev/ttyS0 2>&1
	rc=$?
else
	/bin/bash "$out/cmd" </dev/null 2>&1 | tee "$out/output.log"
	rc=${PIPESTATUS[0]}
fi
echo "$rc" >"$out/rc"
echo "mrc-vm: command exited $rc"

# kmemleak only reports objects older than its minimum age (5 s, fixed in
# mm/kmemleak.c), so an object leaked late by the command must age before the scan.
# A stale copy of a leaked pointer on a cached kernel stack of an exited task counts
# as a reference; short-lived tasks on every CPU get those stacks handed out again,
# zeroed, so the second scan no longer sees the stale copies.
if [ -w $kmemleak ] && [ "${MRC_LEAK_SCAN:-1}" = 1 ]; then
	sleep 6
	for pass in 1 2; do
		for i in $(seq 40); do taskset -c $((i % $(nproc))) /bin/true; done
		echo scan >$kmemleak
	done
	cat $kmemleak >"$out/kmemleak.txt"
	[ -s "$out/kmemleak.txt" ] && cat "$out/kmemleak.txt"
fi
dmesg >"$out/dmesg.txt"
sync
/bin/busybox poweroff -f
