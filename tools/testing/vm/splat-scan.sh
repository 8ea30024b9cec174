#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Scan a guest's logs (console.log, dmesg.txt, kmemleak.txt in DIR), or one FILE, for
# kernel reports that mean a bug even when the test command passed. Prints each
# report's first lines and exits 1 if any; exits 0 on a clean log. The selftest runner
# uses it on each test's share of the kernel log, so that a report names its test.
#
#   splat-scan.sh DIR
#   splat-scan.sh --file FILE
#   splat-scan.sh --pattern      the pattern alone (for grep -E), for check.sh's digest
set -u
files=()
# The header line of each class of report, as the 6.1 kernel prints it; the refcount
# trackers' and debug objects' own lines, and the wait of a netdev or netns that
# somebody still holds (which has no splat of its own).
pattern='BUG: |WARNING: |UBSAN: |Oops: |Oops\b|general protection fault|kernel BUG at|Kernel panic|'
pattern+='INFO: task .* blocked for more than|INFO: rcu_.* stall|detected stalls on CPUs|'
pattern+='unreferenced object 0x|Call Trace:|RIP: 0010:|'
pattern+='unregister_netdevice: waiting for|ref_tracker: |ODEBUG: |leaked reference'
case ${1:-} in
--pattern) echo "$pattern"; exit 0 ;;
--file) files=("$2") ;;
*) for f in console.log dmesg.txt kmemleak.txt; do files+=("$1/$f"); done ;;
esac
found=0
for f in "${files[@]}"; do
	[ -s "$f" ] || continue
	hits=$(grep -nE "$pattern" "$f" | head -n 20)
	if [ -n "$hits" ]; then
		echo "splat-scan: $f:"
		echo "$hits" | sed 's/^/    /'
		found=1
	fi
done
exit $found
