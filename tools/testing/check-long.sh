#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-long: what does not fit CI's budget, run before an issue is resolved
# (Documentation/testing.md). make check with every selftest in both kernels
# (MRC_CHECK_FULL=1, logs in .build/check), mrc-rcerr with its long cases (a 1 GiB
# WRITE, SEND and READ, so a guest of 6 GiB) in the stock kernel, and the packet
# injector for FUZZ_S seconds (default 600) in the debug kernel (make fuzz). Exit
# status: the first failure's, 0 when all three passed.
set -euo pipefail
t=$(cd "$(dirname "$0")" && pwd)
cd "$t/../.."
rc=0
MRC_CHECK_FULL=1 "$t/check.sh" || rc=$?
echo "check-long: make check, every selftest in both kernels: exit status $rc"
"$t/build.sh" stock >/dev/null
make -s tools
"$t/vm/vm.sh" --kernel stock --mem 6G --timeout 3600 --out "$PWD/.build/long-rcerr" -- \
	env MRC_RCERR_LONG=1 MRC_TOOL_TIMEOUT=3000 MRC_SELFTEST_TIMEOUT=3300 \
	selftests/run.sh mrc_rcerr.sh || lrc=$?
echo "check-long: mrc_rcerr.sh (long) exit status ${lrc:-0} (logs in .build/long-rcerr)"
[ $rc != 0 ] || rc=${lrc:-0}
frc=0
"$t/fuzz.sh" || frc=$?
[ $rc != 0 ] || rc=$frc
echo "check-long: exit status $rc"
exit $rc
