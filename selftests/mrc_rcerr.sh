#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The RC error paths end to end (tools/testing/mrc-rcerr): one process drives both
# devices of a pair and, case by case, checks the exact work completion status on
# both sides, the QPs' states and the memory: the flush order after a failure, RNR
# and transport retries exhausted, a SEND longer than its receive buffer, remote
# and local access errors, opcodes mrc does not carry, every transition the verbs
# forbid, SQD and back, a QP reused after ERR, PSNs across 2^24, messages of 1 byte
# to 16 MiB, CQ overrun, a full send queue, an MR deregistered under WRs in flight,
# fork() and a killed process with WRs outstanding; atomics from four QPs on one
# counter (each runs once) and the atomics the responder refuses; two QPs on one
# SRQ (its limit event, RNR when it runs dry, the last-WQE event). Each case is one
# check; a tool that dies before its last case fails the count.
. "$(dirname "$0")/lib.sh"

MRC_RCERR=${MRC_RCERR:-$MRC_TREE/tools/testing/mrc-rcerr/mrc-rcerr}

mrc_require_root
mrc_require_mrcctl
[ -x "$MRC_RCERR" ] || mrc_skip "$MRC_RCERR not built (make tools)"
trap 'mrc_dev_pair_del; topo_destroy' EXIT
mrc_unload
topo_create 1 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
mrc_dev_pair 1 || exit $KSFT_FAIL

# The debug kernel moves a few MiB a second beside CI's other guests: messages
# up to 1 MiB + 1 there, and longer waits for a completion that must come.
args=(-a "$MRC_DEV1" -A "$MRC_GID1" -b "$MRC_DEV2" -B "$MRC_GID2" -m "$MRCCTL" -n "$H2")
if mrc_debug_kernel; then
	args+=(-s $((2 << 20)) -w 60)
fi
[ -z "${MRC_RCERR_LONG:-}" ] || args+=(-l)
ncases=$("$MRC_RCERR" -h | awk '/^cases:/ { print NF - 1 }')
out=$(timeout "$MRC_TOOL_TIMEOUT" "$MRC_RCERR" "${args[@]}" 2>&1)
rc=$?
ran=0
while IFS= read -r line; do
	case $line in
	"ok "*)
		ran=$((ran + 1))
		mrc_checks=$((mrc_checks + 1))
		mrc_ok "${line#ok * - }"
		;;
	"not ok "*)
		ran=$((ran + 1))
		mrc_checks=$((mrc_checks + 1))
		mrc_fail "${line#not ok * - }"
		;;
	*)
		echo "$line"
		;;
	esac
done <<<"$out"
check "every case ran ($ncases)" "$ncases" "$ran"
check "mrc-rcerr exit status" "0" "$rc"
check_xfer "the pair still transfers" -o write -s 65536 -n 8
mrc_finish
