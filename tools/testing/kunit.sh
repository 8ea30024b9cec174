#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the debug VM: load mrc_test.ko, whose KUnit suites run at load time, and print each
# mrc suite's KTAP results from debugfs for the host to count. Loading the test module
# alone does not fail on a failed case (KUnit's module notifier cannot), so the
# verdict is the host's, from the KTAP. Optional arguments select suites by name.
set -u
modprobe mrc_test || { echo "kunit.sh: modprobe mrc_test failed"; exit 1; }
n=0
for d in /sys/kernel/debug/kunit/mrc-*; do
	[ -r "$d/results" ] || continue
	s=$(basename "$d")
	if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qxF "$s"; then
		continue
	fi
	cat "$d/results"
	n=$((n + 1))
done
modprobe -r mrc_test mrc
[ $n -gt 0 ] || { echo "kunit.sh: no mrc KUnit suite found"; exit 1; }
