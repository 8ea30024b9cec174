#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The core verbs and reliability checks between two kernels (tools/testing/vm/pair.sh),
# each guest's mrc device over its 8 virtio-net planes: mrc-xfer READ and WRITE with
# immediate verified on both sides; perftest's WRITE, READ and SEND bandwidth tests
# with their exact message counts; rping's verified ping-pong through rdma_cm. Then
# each guest shapes its own egress on every plane with netem, as mrc_netem.sh does in
# one kernel: 2% loss, where every packet netem dropped must be retransmitted, and
# reordering, where the receiver places data out of order; the transfers still verify.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_pair.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_xfer
mrc_require_cmds ib_write_bw ib_read_bw ib_send_bw rping tc
planes=$MRC_PAIR_PLANES
res=$MRC_PAIR_RES
mrc_load
pair_dev_up
qp_err0=$(mrc_counter_sum "" "$dev" qp_errors)

pair_xfer read "$gid" -o read -s 256k -n 16 -q 4 -S 3
pair_check_xfer read "READ 4 MiB from a"
pair_xfer imm "$gid" -o write_imm -s 64k -n 64 -q 8 -S 4
pair_check_xfer imm "WRITE with immediate, 64 x 64 KiB"

# perf ROUND TOOL: one perftest bandwidth run, 50 messages of 64 KiB.
perf()
{
	pair_run "$1" 18515 "$2" -d "$dev" -x "$gid" -F -s 65536 -n 50 -- \
		"$2" -d "$dev" -x "$gid" -F -s 65536 -n 50 10.0.0.1
	check "$2: a's and b's exit status" "0 0" "$(pair_rcs "$1")"
	[ "$MRC_PAIR_SIDE" = b ] &&
		check_perf_line "$2: b moved 50 messages of 64 KiB" "$(cat "$res/$1.b.out")" 65536 50
	[ "$(pair_rcs "$1")" = "0 0" ] || pair_tails "$1"
}
perf wbw ib_write_bw
perf rbw ib_read_bw
perf sbw ib_send_bw

pair_run rping cm:18520 rping -s -a 10.0.0.1 -p 18520 -V -C 20 -S 4096 -- \
	rping -c -a 10.0.0.1 -p 18520 -V -C 20 -S 4096
check "rping -V -C 20 through rdma_cm: a's and b's exit status" "0 0" "$(pair_rcs rping)"
[ "$(pair_rcs rping)" = "0 0" ] || pair_tails rping

# netem_dropped: packets netem dropped on this guest's planes, summed.
netem_dropped()
{
	local i n=0 d
	for ((i = 0; i < planes; i++)); do
		d=$(tc -s qdisc show dev "p$i" | sed -n 's/.*(dropped \([0-9]*\),.*/\1/p' | head -n 1)
		n=$((n + ${d:-0}))
	done
	echo "$n"
}

# shape ARGS...: netem ARGS on every plane of this guest; both guests do it before
# the round that follows (a mark each), and undo it after.
shape()
{
	local i rc=0
	for ((i = 0; i < planes; i++)); do pair_shape "$i" "$@" || rc=1; done
	check "$MRC_PAIR_SIDE: netem $* on all $planes planes" "0" "$rc"
	pair_mark "shaped.$*"
	pair_wait "shaped.$*" 60
}

unshape()
{
	local i
	for ((i = 0; i < planes; i++)); do pair_unshape "$i"; done
}

# 2% loss each way: b sends the data, a the acknowledgments. Every data packet netem
# dropped on b's planes is sent again, so b's retransmissions are at least b's drops
# less the probes among them, and loss detection by SACK resends little else: at most
# twice the drops plus one window's worth (64) of spurious resends.
shape loss 2%
retx0=$(mrc_counter_sum "" "$dev" retransmits)
probes0=$(mrc_counter_sum "" "$dev" ev_probes_tx)
drop0=$(netem_dropped)
pair_xfer loss "$gid" -o send -s 64k -n 32 -q 8 -S 5
pair_check_xfer loss "netem loss 2%: SENDs"
if [ "$MRC_PAIR_SIDE" = b ]; then
	retx=$(($(mrc_counter_sum "" "$dev" retransmits) - retx0))
	probes=$(($(mrc_counter_sum "" "$dev" ev_probes_tx) - probes0))
	drops=$(($(netem_dropped) - drop0))
	check "netem loss 2%: b's retransmissions ($retx) cover its $drops drops ($probes probes) within 2 x + 64" \
		"1" "$([ "$drops" -gt 0 ] && [ "$retx" -ge $((drops - probes)) ] &&
			[ "$retx" -le $((2 * drops + 64)) ] && echo 1)"
fi
unshape

# Reordering: every other packet of b's held back 2 ms on its plane, so a receives
# later PSNs first and must place them out of order (rx_ooo_placed, on a).
shape delay 2ms reorder 50%
ooo0=$(mrc_counter_sum "" "$dev" rx_ooo_placed)
pair_xfer reorder "$gid" -o write -s 64k -n 32 -q 8 -S 6
pair_check_xfer reorder "netem reorder 50%: WRITEs"
if [ "$MRC_PAIR_SIDE" = a ]; then
	ooo=$(($(mrc_counter_sum "" "$dev" rx_ooo_placed) - ooo0))
	# 64 KiB messages of 1 KiB packets: the transfer's data packets bound the count.
	check "netem reorder 50%: a placed packets out of order ($ooo of at most 2048)" \
		"1" "$([ "$ooo" -gt 0 ] && [ "$ooo" -le 2048 ] && echo 1)"
fi
unshape

check "$MRC_PAIR_SIDE: no QP errors" "$qp_err0" "$(mrc_counter_sum "" "$dev" qp_errors)"
"$MRCCTL" dev del "$dev"
check "$MRC_PAIR_SIDE: dev del" "0" "$?"
mrc_finish
