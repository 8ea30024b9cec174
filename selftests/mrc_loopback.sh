#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Loopback: QPs of one host connected to each other, as rdma_rxe allows and as
# MPI and NCCL use between the ranks of one host (Documentation/verbs.md,
# "Loopback"). Part 1: one mrc device over two planes, server and client QPs
# on it, over IPv4 and IPv6: every opcode verified end to end, every packet
# through the loopback device (rx_loopback), both planes carrying the spray,
# nothing lost, rping over rdma_cm, atomics from four QPs, two QPs on an SRQ,
# UD datagrams.
# Part 2: two devices of one namespace, each over two planes of its own (veth
# pairs with both ends in the namespace), the server on one, the client on the
# other: packets for the second device's addresses arrive on lo and reach that
# device, and only it.
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_xfer
mrc_require_cmds rping rdma
MRC_RCERR=${MRC_RCERR:-$MRC_TREE/tools/testing/mrc-rcerr/mrc-rcerr}
[ -x "$MRC_RCERR" ] || mrc_skip "$MRC_RCERR not built (make tools)"
H3=mrc-h3-$MRC_SUFFIX
trap 'mrc_backlog_restore; "$MRCCTL" -n "$H1" dev del "${DEVL:-x}" 2>/dev/null;
	"$MRCCTL" -n "$H3" dev del "${DEVA:-x}" 2>/dev/null;
	"$MRCCTL" -n "$H3" dev del "${DEVB:-x}" 2>/dev/null;
	ip netns del "$H3" 2>/dev/null; topo_destroy' EXIT
mrc_unload
modprobe -q rdma_ucm 2>/dev/null	# rping's rdma_cm
# lo hands every packet to a CPU's backlog like veth: the checks below count
# every packet, so no burst may overflow it (mrc_backlog_deep).
mrc_backlog_deep

# 64 KiB messages at MTU 1024: 64 data packets each.
iters=$(mrc_scaled 16)
data_pkts=$((iters * 64))

# snap DEV...: "tx rx rx_loopback rx_data tx_port2 bad_src" summed per device,
# one device after the other.
snap()
{
	local d
	for d in "$@"; do
		printf '%s %s %s %s %s %s ' "$(mrc_counter_sum "" "$d" tx_pkts)" \
			"$(mrc_counter_sum "" "$d" rx_pkts)" \
			"$(mrc_counter_sum "" "$d" rx_loopback)" \
			"$(mrc_counter_sum "" "$d" rx_data_pkts)" \
			"$(mrc_counter "" "$d" 2 tx_pkts)" \
			"$(mrc_counter_sum "" "$d" rx_bad_src_addr)"
	done
}

# delta BEFORE AFTER: the field-wise difference of two snaps.
delta()
{
	local a b i
	read -ra a <<<"$1"
	read -ra b <<<"$2"
	for ((i = 0; i < ${#a[@]}; i++)); do
		printf '%d ' $((b[i] - a[i]))
	done
}

in_range() { [ "$1" -ge "$2" ] && [ "$1" -le "$3" ] && echo yes || echo "no ($1)"; }

# settled BEFORE DEV...: every packet the devices sent since BEFORE was
# received by them (a last SACK may still be in the loopback backlog when the
# tools exit).
settled()
{
	local d tx=0 rx=0 i
	read -ra d <<<"$(delta "$1" "$(snap "${@:2}")")"
	for ((i = 0; i < ${#d[@]}; i += 6)); do
		tx=$((tx + d[i])) rx=$((rx + d[i + 1]))
	done
	[ "$tx" = "$rx" ]
}

# lo_xfer WHAT NS SDEV SGID CDEV CGID ADDR OP: an mrc-xfer pair, both ends in
# NS (server on SDEV, client on CDEV, to ADDR), verified, and the counters it
# moved on the devices (one device, or both) checked.
lo_xfer()
{
	local what=$1 ns=$2 sdev=$3 sgid=$4 cdev=$5 cgid=$6 addr=$7 op=$8
	local devs=("$sdev") before d i tx=0 rx=0 lo=0 data=0 p2=0 bad=0
	[ "$cdev" = "$sdev" ] || devs+=("$cdev")

	before=$(snap "${devs[@]}")
	H1=$ns H2=$ns run_pair 18700 "$MRC_XFER" -d "$sdev" -g "$sgid" \
		-t "$MRC_XFER_TIMEOUT" -o "$op" -n "$iters" -- \
		"$MRC_XFER" -d "$cdev" -g "$cgid" -t "$MRC_XFER_TIMEOUT" -o "$op" \
		-n "$iters" "$addr"
	check "$what: client and server exit status" "0 0" "$cli_rc $srv_rc"
	check_match "$what: client verified" '^ok bytes=[0-9]+ msgs=[0-9]+ digest=' \
		"$cli_out"
	check "$what: both sides saw the same data" "$(ok_line "$cli_out")" \
		"$(ok_line "$srv_out")"
	[ "$srv_rc$cli_rc" = 00 ] ||
		printf '# server: %s\n# client: %s\n' "$(tail -n 5 <<<"$srv_out" | paste -sd '|')" \
			"$(tail -n 5 <<<"$cli_out" | paste -sd '|')"

	wait_until 5 settled "$before" "${devs[@]}"
	read -ra d <<<"$(delta "$before" "$(snap "${devs[@]}")")"
	for ((i = 0; i < ${#d[@]}; i += 6)); do
		tx=$((tx + d[i])) rx=$((rx + d[i + 1])) lo=$((lo + d[i + 2]))
		data=$((data + d[i + 3])) p2=$((p2 + d[i + 4])) bad=$((bad + d[i + 5]))
	done
	check "$what: every packet sent was received" "$tx" "$rx"
	check "$what: every packet came in through the loopback device" "$rx" "$lo"
	# 64 data packets a message; a few retransmitted at most
	check "$what: data packets in [$data_pkts, $((data_pkts * 5 / 4))]" yes \
		"$(in_range "$data" "$data_pkts" $((data_pkts * 5 / 4)))"
	# EVs are drawn equally per plane: plane 2's share of what was sent
	check "$what: plane 2 carried 30% to 70% of the packets" yes \
		"$(in_range $((p2 * 100 / (tx ? tx : 1))) 30 70)"
	check "$what: nothing refused as not from the peer" 0 "$bad"
}

softnet0=$(mrc_softnet_drops)

# Part 1: one device, QPs connected to each other.
topo_create 2 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
DEVL=mrc-l$MRC_SUFFIX
run_rc "$MRCCTL" -n "$H1" dev add "$DEVL" plane p0 plane p1
check "dev add $DEVL over two planes" 0 "$rc"
[ "$rc" = 0 ] || { echo "# $out"; mrc_finish; }
wait_until 20 mrc_gid_index "$H1" "$DEVL" 1 10.0.0.1 &&
	wait_until 20 mrc_gid_index "$H1" "$DEVL" 1 fd00:0::1
gid4=$(mrc_gid_index "$H1" "$DEVL" 1 10.0.0.1)
gid6=$(mrc_gid_index "$H1" "$DEVL" 1 fd00:0::1)
check_match "GIDs of 10.0.0.1 and fd00:0::1 on port 1" '^[0-9]+ [0-9]+$' "$gid4 $gid6"

for op in write write_imm send read; do
	lo_xfer "one device, IPv4, $op" "$H1" "$DEVL" "$gid4" "$DEVL" "$gid4" 10.0.0.1 "$op"
done
for op in write read; do
	lo_xfer "one device, IPv6, $op" "$H1" "$DEVL" "$gid6" "$DEVL" "$gid6" fd00:0::1 "$op"
done

# rdma_cm resolves an address of this host to the device that owns it.
H2=$H1 run_pair cm:7174 rping -s -a 10.0.0.1 -p 7174 -C 10 -S 4096 -- \
	rping -c -a 10.0.0.1 -p 7174 -C 10 -S 4096 -V
check "rping -V to this host (rdma_cm): exit status" "0 0" "$srv_rc $cli_rc"
check "rping -V to this host: no data mismatch" "" "$(grep -i mismatch <<<"$cli_out")"

# Atomics between QPs of the device: four QPs' fetch-and-adds on one counter
# each run once, compare-and-swap swaps on a match only; two QPs on one SRQ,
# its limit event and RNR when it runs dry; memory windows of both types;
# datagrams between UD QPs, with immediate data, a wrong Q_Key dropped
# (mrc-rcerr's cases).
out=$(ip netns exec "$H1" timeout "$MRC_TOOL_TIMEOUT" "$MRC_RCERR" -a "$DEVL" -A "$gid4" \
	-b "$DEVL" -B "$gid4" atomic srq mw ud 2>&1)
rc=$?
check "one device: atomics from four QPs on one counter, SRQ, windows, UD (mrc-rcerr atomic srq mw ud)" \
	"0 ok 1 - atomic|ok 2 - srq|ok 3 - mw|ok 4 - ud" \
	"$rc $(grep -E '^(not )?ok ' <<<"$out" | sed 's/ (.*//' | paste -sd '|')"
[ "$rc" = 0 ] || printf '# %s\n' "$(tail -n 6 <<<"$out" | paste -sd '|')"
"$MRCCTL" -n "$H1" dev del "$DEVL"
topo_destroy

# Part 2: two devices of one namespace, back to back.
ip netns add "$H3" || { echo "# namespace setup failed"; exit $KSFT_FAIL; }
# The RDMA core resolves the peer's MAC (modify_qp to RTR) by ARP out the
# source GID's netdev, even to an address of this namespace: b0 asks a0 for
# 10.0.0.1 from 10.0.0.2, a source a0 takes only with accept_local
# (Documentation/verbs.md, "Loopback").
ip netns exec "$H3" sysctl -qw net.ipv6.conf.all.accept_dad=0 \
	net.ipv6.conf.default.accept_dad=0 net.ipv4.conf.all.accept_local=1
{
	echo "link set lo up"
	for i in 0 1; do
		echo "link add a$i type veth peer name b$i"
		echo "addr add 10.$i.0.1/24 dev a$i"
		echo "addr add 10.$i.0.2/24 dev b$i"
		echo "addr add fd00:$i::1/64 dev a$i nodad"
		echo "addr add fd00:$i::2/64 dev b$i nodad"
		echo "link set a$i up"
		echo "link set b$i up"
	done
} | ip -n "$H3" -b - || { echo "# topology setup failed"; exit $KSFT_FAIL; }
DEVA=mrc-la$MRC_SUFFIX
DEVB=mrc-lb$MRC_SUFFIX
run_rc "$MRCCTL" -n "$H3" dev add "$DEVA" plane a0 plane a1
check "dev add $DEVA over a0 a1" 0 "$rc"
[ "$rc" = 0 ] || echo "# $out"
run_rc "$MRCCTL" -n "$H3" dev add "$DEVB" plane b0 plane b1
check "dev add $DEVB over b0 b1" 0 "$rc"
[ "$rc" = 0 ] || { echo "# $out"; mrc_finish; }
wait_until 20 mrc_gid_index "$H3" "$DEVA" 1 10.0.0.1 &&
	wait_until 20 mrc_gid_index "$H3" "$DEVB" 1 10.0.0.2
gida=$(mrc_gid_index "$H3" "$DEVA" 1 10.0.0.1)
gidb=$(mrc_gid_index "$H3" "$DEVB" 1 10.0.0.2)
check_match "GIDs of 10.0.0.1 on $DEVA and 10.0.0.2 on $DEVB" '^[0-9]+ [0-9]+$' "$gida $gidb"
for op in write send read; do
	lo_xfer "two devices, $op" "$H3" "$DEVA" "$gida" "$DEVB" "$gidb" 10.0.0.1 "$op"
done

check "no packet dropped by a full backlog" "$softnet0" "$(mrc_softnet_drops)"
mrc_finish
