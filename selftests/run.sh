#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kselftest-style runner: runs each TEST_PROGS entry (or the tests named as arguments)
# with a time limit and prints TAP 13. Exit status 4 from a test is a SKIP, printed as
# such and listed again at the end so that nobody mistakes it for a pass.
#
# Each test is bracketed in the kernel log ("mrc-selftest: begin/end NAME"); a test
# fails when, during it, the kernel printed a report (tools/testing/vm/splat-scan.sh),
# the taint flags grew, or it left a network namespace or an mrc module behind, so that
# a report or a leak names the test that caused it instead of failing the whole boot.
# The limit per test is settings' timeout; MRC_SELFTEST_TIMEOUT overrides it (make fuzz).
set -u
dir=$(cd "$(dirname "$0")" && pwd)
scan=$dir/../tools/testing/vm/splat-scan.sh
if [ $# -gt 0 ]; then
	tests=("$@")
else
	read -ra tests <<<"$(make -s -C "$dir" --no-print-directory print-tests)"
fi
limit=$(sed -n 's/^timeout=//p' "$dir/settings" 2>/dev/null)
limit=${MRC_SELFTEST_TIMEOUT:-${limit:-300}}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Out-of-tree (O, 4096) and unsigned (E, 8192) modules taint by design; any other new
# flag (W after a WARN, B after a KASAN report, ...) is a finding.
taint_mask=$(( ~(4096 | 8192) ))

# after_test NAME: what the test left behind; prints a reason per finding.
after_test()
{
	local name=$1 ns
	dmesg | sed -n "/mrc-selftest: begin $name\$/,\$p" >"$scratch/dmesg"
	"$scan" --file "$scratch/dmesg" | sed 's/^/# /' | grep . &&
		echo "kernel report during $name"
	[ $(( $(cat /proc/sys/kernel/tainted) & taint_mask )) = $(( taint0 & taint_mask )) ] ||
		echo "kernel taint went from $taint0 to $(cat /proc/sys/kernel/tainted)"
	ns=$(ip netns list 2>/dev/null | awk '{ print $1 }' | paste -sd ' ')
	[ -z "$ns" ] || echo "left network namespaces behind: $ns"
	# an unnamed namespace kept by a process the test did not reap (it also
	# stops "rdma system set netns", which needs the initial namespace alone)
	ns=$(lsns -t net -n -o NS,PID,COMMAND 2>/dev/null |
		awk -v init="$(stat -Lc %i /proc/1/ns/net)" '$1 != init' | paste -sd ';')
	[ -z "$ns" ] || echo "left processes in other network namespaces: $ns"
	[ ! -d /sys/module/mrc ] || [ "$(cat /sys/module/mrc/refcnt)" = 0 ] ||
		echo "left mrc in use (refcnt $(cat /sys/module/mrc/refcnt))"
}

# kernel_tail: what the kernel said during the failed test (its last 30 lines),
# where a failure's cause often is (a plane lost, a QP's error): CI keeps only
# the console's excerpt of the failure, not the guest's log.
kernel_tail()
{
	grep -v 'mrc-selftest: ' "$scratch/dmesg" | tail -n 30 | sed 's/^/#   kernel: /'
}

echo "TAP version 13"
echo "1..${#tests[@]}"
n=0 failed=0 skipped=()
for t in "${tests[@]}"; do
	n=$((n + 1))
	name=$(basename "$t")
	echo "# selftests: mrc: $name"
	taint0=$(cat /proc/sys/kernel/tainted)
	echo "mrc-selftest: begin $name" >/dev/kmsg
	start=$SECONDS
	timeout --kill-after=10 "$limit" "$dir/$name" 2>&1 | sed 's/^/# /'
	rc=${PIPESTATUS[0]}
	echo "mrc-selftest: end $name" >/dev/kmsg
	echo "# $name: $((SECONDS - start)) s"
	findings=$(after_test "$name")
	if [ -n "$findings" ]; then
		echo "$findings" | grep '^# '
		why=$(echo "$findings" | grep -v '^# ' | paste -sd ';')
		kernel_tail
		echo "not ok $n selftests: mrc: $name # $why"
		failed=$((failed + 1))
		# Start the next test from a clean state, as far as that can be done.
		for ns in $(ip netns list 2>/dev/null | awk '{ print $1 }'); do ip netns del "$ns"; done
		continue
	fi
	[ "$rc" = 0 ] || [ "$rc" = 4 ] || kernel_tail
	case $rc in
	0) echo "ok $n selftests: mrc: $name" ;;
	4) echo "ok $n selftests: mrc: $name # SKIP"; skipped+=("$name") ;;
	124|137) echo "not ok $n selftests: mrc: $name # TIMEOUT ${limit}s"; failed=$((failed + 1)) ;;
	*) echo "not ok $n selftests: mrc: $name # exit=$rc"; failed=$((failed + 1)) ;;
	esac
done
if [ ${#skipped[@]} -gt 0 ]; then
	echo "# SKIPPED (not passed): ${skipped[*]}"
fi
[ $failed -eq 0 ]
