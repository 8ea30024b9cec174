#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Scan a guest's logs (console.log, dmesg.txt, kmemleak.txt in DIR) for kernel reports
# that mean a bug even when the test command passed. Prints each report's first lines
# and exits 1 if any; exits 0 on a clean log.
#
#   splat-scan.sh [--boot|--after] DIR
# --boot: only the console lines before the guest started the command (guest.sh's
# "mrc-vm: ... running:" line), i.e. reports the kernel made while booting.
# --after: only what the kernel printed once the command had started.
set -u
boot=0 after=0
[ "$1" = --boot ] && { boot=1; shift; }
[ "$1" = --after ] && { after=1; shift; }
dir=$1
# The header line of each class of report, as the 6.1 kernel prints it.
pattern='BUG: |WARNING: |UBSAN: |Oops: |Oops\b|general protection fault|kernel BUG at|Kernel panic|'
pattern+='INFO: task .* blocked for more than|INFO: rcu_.* stall|detected stalls on CPUs|'
pattern+='unreferenced object 0x|Call Trace:|RIP: 0010:'
found=0
if [ $boot = 1 ]; then
	[ -s "$dir/console.log" ] || exit 0
	sed '/^mrc-vm: .* running: /q' "$dir/console.log" | grep -qE "$pattern" && exit 1
	exit 0
fi
for f in console.log dmesg.txt kmemleak.txt; do
	[ -s "$dir/$f" ] || continue
	if [ $after = 1 ] && grep -qE 'mrc-vm: .*running: |mrc-vm: command starts' "$dir/$f"; then
		hits=$(sed -n '/mrc-vm: .*running: \|mrc-vm: command starts/,$p' "$dir/$f" |
			grep -nE "$pattern" | head -n 20)
	else
		hits=$(grep -nE "$pattern" "$dir/$f" | head -n 20)
	fi
	if [ -n "$hits" ]; then
		echo "splat-scan: $dir/$f:"
		echo "$hits" | sed 's/^/    /'
		found=1
	fi
done
exit $found
