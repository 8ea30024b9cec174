#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make fuzz [FUZZ_S=SECONDS] [FUZZ_SEED=N]: the packet injector's selftest
# (selftests/mrc_inject.sh) in the debug kernel (KASAN, lockdep, debug objects,
# refcount trackers, no kmemleak), firing every class of hostile packet at a live
# and an idle QP for FUZZ_S seconds (default 600) instead of make check's bounded
# slice. The live transfer runs until the firing ends (mrc-xfer --until). Exit
# status: the guest's, 125 for any kernel report (vm.sh); the injector's totals are
# printed.
set -euo pipefail
t=$(cd "$(dirname "$0")" && pwd)
secs=${FUZZ_S:-600}
cd "$t/../.."
out=$PWD/.build/fuzz
"$t/deps.sh"
"$t/vm/debug-kernel.sh" >/dev/null
"$t/build.sh" debug >/dev/null
make -s -C "$t/../mrcctl"
make -s -C "$t/../mrc-xfer"
env=(MRC_INJECT_SECONDS="$secs" MRC_XFER_TIMEOUT=60)
[ -z "${FUZZ_SEED:-}" ] || env+=(MRC_INJECT_SEED="$FUZZ_SEED")
rc=0
"$t/vm/vm.sh" --kernel debug --no-kmemleak --timeout $((secs * 3 + 900)) --out "$out" -- \
	env "${env[@]}" MRC_TOOL_TIMEOUT=$((secs * 3 + 600)) \
	MRC_SELFTEST_TIMEOUT=$((secs * 3 + 600)) selftests/run.sh mrc_inject.sh || rc=$?
grep -E '^# \{|seed|^(not )?ok' "$out/output.log" | grep -v '^ok - ' || true
echo "fuzz: exit status $rc (logs in $out)"
exit $rc
