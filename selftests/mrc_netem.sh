#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc's reliability under a bad network: the same verified transfers (mrc-xfer in
# every mode, one perftest run, and ibv_rc_pingpong -c where the network loses
# nothing) with netem reordering, duplicating, losing and corrupting packets on
# every plane of both hosts, one condition at a time, and the counters that prove
# the mechanism did the work.
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_xfer
mrc_require_cmds ibv_rc_pingpong ib_write_bw tc ss
trap 'mrc_backlog_restore; mrc_dev_pair_del; topo_destroy' EXIT
mrc_unload
topo_create 4 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
mrc_dev_pair 4 || exit $KSFT_FAIL

# both DEVICE counters summed over all ports of both devices
both() { echo $(($(mrc_counter_sum "$H1" "$MRC_DEV1" "$1") + $(mrc_counter_sum "$H2" "$MRC_DEV2" "$1"))); }
# UDP datagrams the kernel dropped for a bad checksum in both hosts (a corrupted
# packet may die there, before mrc's own ICRC check sees it)
udp_csum_errors()
{
	local ns sum=0 v
	for ns in "$H1" "$H2"; do
		for v in $(ip netns exec "$ns" nstat -asz UdpInCsumErrors Udp6InCsumErrors |
			awk '/CsumErrors/ { print $2 }'); do
			sum=$((sum + v))
		done
	done
	echo $sum
}

# check_delta DESCRIPTION BEFORE AFTER: the counter moved.
check_delta()
{
	mrc_checks=$((mrc_checks + 1))
	if [[ $2 =~ ^[0-9]+$ && $3 =~ ^[0-9]+$ ]] && [ "$3" -gt "$2" ]; then
		mrc_ok "$1 ($2 -> $3)"
	else
		mrc_fail "$1"
		echo "#   before: $2, after: $3"
	fi
}

# run_all CONDITION LOSSY OPS: the transfers under CONDITION, mrc-xfer in each of OPS. ibv_rc_pingpong runs only
# where no packet is lost (LOSSY 0): its server destroys its QP once its own last
# send is acknowledged, so when the acknowledgment of the client's last send is lost
# the client's retransmissions find no QP and it fails with "transport retry counter
# exceeded" (Documentation/testing.md), an end race of the tool on any lossy RC link.
# mrc-xfer ends with a handshake after both sides' completions and has no such race.
run_all()
{
	local c=$1 op
	for op in $3; do
		check_xfer "$c: mrc-xfer $op" -o "$op" -s 65536 -n "$(mrc_scaled 32)" -q 8 -S 7
	done
	if [ "$2" = 0 ]; then
		run_pair 18516 ibv_rc_pingpong -d "$MRC_DEV1" -g "$MRC_GID1" -p 18516 -c \
			-s 16384 -n 20 -- \
			ibv_rc_pingpong -d "$MRC_DEV2" -g "$MRC_GID2" -p 18516 -c -s 16384 -n 20 \
			10.0.0.1
		check "$c: ibv_rc_pingpong -c: exit status" "0 0" "$srv_rc $cli_rc"
		check "$c: ibv_rc_pingpong -c: content valid" "" \
			"$(grep -iE 'invalid|failed|error' <<<"$srv_out$cli_out")"
	fi
	run_pair 18515 ib_write_bw -d "$MRC_DEV1" -x "$MRC_GID1" -F -s 65536 -n 50 -- \
		ib_write_bw -d "$MRC_DEV2" -x "$MRC_GID2" -F -s 65536 -n 50 10.0.0.1
	check "$c: ib_write_bw: exit status" "0 0" "$srv_rc $cli_rc"
	check_perf_line "$c: ib_write_bw moved 50 messages of 64 KiB" "$cli_out" 65536 50
}

# condition COUNTER DEBUG-OPS NETEM-ARGS...: mrc-xfer in every mode, or in the debug
# VM only in DEBUG-OPS. There an mrc-xfer run under loss costs 15-20 s; each mode
# still meets two of the conditions, and the stock VM checks them all.
condition()
{
	local counter=$1 ops="write write_imm send read" c before after retx
	mrc_debug_kernel && ops=$2
	shift 2
	c="netem $*"
	netem_all "$H1" "$@" && netem_all "$H2" "$@"
	check "$c: applied on every plane of both hosts" "0" "$?"
	if [ "$counter" = bad_packets ]; then
		before=$(($(both rx_bad_icrc) + $(udp_csum_errors)))
	else
		before=$(both "$counter")
	fi
	retx=$(both retransmits)
	run_all "$c" "$([[ $* == *loss* || $* == *corrupt* ]] && echo 1 || echo 0)" "$ops"
	if [ "$counter" = bad_packets ]; then
		after=$(($(both rx_bad_icrc) + $(udp_csum_errors)))
		check_delta "$c: corrupted packets detected (rx_bad_icrc + UDP checksum errors)" \
			"$before" "$after"
		check_delta "$c: corrupted packets retransmitted (retransmits)" \
			"$retx" "$(both retransmits)"
	else
		after=$(both "$counter")
		check_delta "$c: $counter moved" "$before" "$after"
	fi
	netem_clear "$H1"
	netem_clear "$H2"
}

condition rx_ooo_placed "write send" delay 1ms reorder 50%
condition rx_duplicates "write_imm read" duplicate 5%
condition retransmits "send read" loss 2%
condition bad_packets "write write_imm" corrupt 1%

# A receiver that cannot keep up: veth leaves every packet in the sending CPU's
# backlog until the softirq runs, and a backlog 64 deep overflows with one send
# window's burst. The responder's SACKs then carry a penalty (its backlog over half
# full), the requester's window gives up part of every acknowledgment, and the
# transfer still completes.
MRC_BACKLOG=$(sysctl -n net.core.netdev_max_backlog) &&
	sysctl -qw net.core.netdev_max_backlog=64
check "backlog 64 deep: netdev_max_backlog set" "0" "$?"
before=$(both cc_rcv_penalties)
check_xfer "backlog 64 deep: mrc-xfer write" -o write -s 65536 -n "$(mrc_scaled 32)" -q 8 -S 7
check_delta "backlog 64 deep: the requester's window paid the receiver penalty (cc_rcv_penalties)" \
	"$before" "$(both cc_rcv_penalties)"
mrc_backlog_restore
mrc_finish
