#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc over the SRv6 fabric (lib_fabric.sh): both hosts give their device a GEN
# template for the other, so every packet carries its path. Checksummed transfers
# must cross every spine of every plane; a spine taken down mid-transfer, or one
# T0 uplink blackholed, must retire the EVs whose path crosses it and no other,
# and no QP may fail; the spine's EVs come back through probes once it returns,
# into their own slots; the EVs of an explicit path naming a switch that does not
# exist are retired the same way; and a transfer whose path on one plane is 8 uSIDs,
# two of them in the SRH, crosses every spine of that path.
#
# Which EVs a QP retired comes from the mrc_ev_retire and mrc_ev_state
# tracepoints: each names the EV, whose entropy picks the path (entropy mod the
# plane's paths), so the test knows the spine of every retirement.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fabric.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_xfer
mrc_require_cmds tc jq
# Every switch of the fabric forwards in softirq on the VM's two CPUs: the only
# losses must be the ones a scenario makes (lib.sh, mrc_backlog_deep).
mrc_backlog_deep
trap 'mrc_dev_pair_del; fabric_destroy; mrc_backlog_restore' EXIT
mrc_unload
fabric_create || { echo "# fabric setup failed"; exit $KSFT_FAIL; }
P=$FABRIC_PLANES S=$FABRIC_SPINES
mrc_dev_pair "$P" || exit $KSFT_FAIL

# Source routing needs IPv6 address vectors: the GIDs of fd00:0::1 and fd00:0::2.
mrc_dev_pair_ipv6

# Each device reaches the other over GEN paths.
fabric_srv6_gen "$MRC_DEV2" 2 1
fabric_srv6_gen "$MRC_DEV1" 1 2

sum_counter() { echo $(($(mrc_counter_sum "$H1" "$MRC_DEV1" "$1") + $(mrc_counter_sum "$H2" "$MRC_DEV2" "$1"))); }

tracing=/sys/kernel/debug/tracing
echo 1 >"$tracing/events/mrc/mrc_ev_retire/enable" &&
	echo 1 >"$tracing/events/mrc/mrc_ev_state/enable"
check "tracepoints mrc_ev_retire and mrc_ev_state enabled" "0" "$?"

# retired_paths N0 N: "COUNT plane path" for the EVs the trace saw leave GOOD for
# loss (replaced, or ASSUMED_BAD when no spare was left), path = entropy mod the
# plane's paths: N0 on plane 0, N on the others.
retired_paths()
{
	local pl ev
	sed -nE 's/.* plane=([0-9]+) ev=(0x[0-9a-f]+) (replaced by|GOOD -> ASSUMED_BAD).*/\1 \2/p' \
		"$tracing/trace" | while read -r pl ev; do
		echo "$pl $(((ev & 0x3fff) % (pl ? $2 : $1)))"
	done | sort | uniq -c | awk '{ print $1, $2, $3 }'
}

# scenario_start: a clean trace, and the backlog drops counted from here.
scenario_start()
{
	echo >"$tracing/trace"
	drops0=$(mrc_softnet_drops)
}

# check_retired_on WHAT N0 N PLANE PATH: EVs on PATH of PLANE were retired, and none
# on any other path (paths counted as retired_paths does). A packet the guest's own
# backlog dropped since scenario_start is a real loss on whatever path it took, and
# may retire that path as any loss does: one retirement elsewhere is allowed for
# each (a loaded host, CI's two VMs on two cores, dropped 15 in one run and retired
# one healthy path, "timeout"). Under the debug kernel up to one more for every
# eight on PATH may land elsewhere: there delays vary enough that the distance rule
# now and then strikes a healthy path twice in a row (the reasons printed say
# "suspect").
check_retired_on()
{
	local what=$1 plane=$4 path=$5 got mine other allowed drops
	got=$(retired_paths "$2" "$3")
	mine=$(awk -v p="$plane" -v k="$path" '$2 == p && $3 == k { print $1 }' <<<"$got")
	other=$(awk -v p="$plane" -v k="$path" '!($2 == p && $3 == k) { m += $1 }
		END { print m + 0 }' <<<"$got")
	drops=$(($(mrc_softnet_drops) - drops0))
	allowed=$drops
	mrc_debug_kernel && allowed=$((allowed + ${mine:-0} / 8))
	mrc_checks=$((mrc_checks + 1))
	if [ "${mine:-0}" -gt 0 ] && [ "$other" -le "$allowed" ]; then
		mrc_ok "$what: $mine EVs retired on plane $plane path $path, $other on any other (at most $allowed)"
	else
		mrc_fail "$what: retired (count plane path): $(paste -sd ' ' <<<"$got")"
	fi
	echo "# $what: retired (count plane path): $(paste -sd ' ' <<<"$got");" \
		"why: $(sed -nE 's/.* ns \(([a-z]+)\).*/\1/p' "$tracing/trace" |
			sort | uniq -c | paste -sd ' ');" \
		"backlog drops during it: $drops"
}

mib=$(mrc_scaled 16)

# (a) every spine of every plane carries the client's data.
qp_err0=$(sum_counter qp_errors)
read -r -a rx0 <<<"$(fabric_spine_rx 2 | paste -sd ' ')"
check_xfer "SRv6 spray: mrc-xfer write $mib MiB" -o write -s 1m -n "$mib" -q 8 -S 11
read -r -a rx1 <<<"$(fabric_spine_rx 2 | paste -sd ' ')"
idle=""
for ((i = 0; i < P * S; i++)); do
	[ $((rx1[i] - rx0[i])) -gt 100 ] || idle="$idle p$((i / S))s$((i % S))=$((rx1[i] - rx0[i]))"
done
check "SRv6 spray: all $((P * S)) spines took over 100 packets from the client's T0" "" "$idle"
check "SRv6 spray: no QP errors" "$qp_err0" "$(sum_counter qp_errors)"

# (f) spine 0 of plane 0 sets CE in the outer header of every packet it forwards
# to the server's T0 (a pedit on its egress turns ECT(0) into CE and keeps the
# DSCP). The server's End.DT6 strips that header without copying CE inward; mrc
# reads the mark from the stripped header (Documentation/srv6.md, section 3). The
# server must count the marks, the client's EVs on that path (and only those)
# must have had them echoed and carried less than the other EVs of plane 0, and
# the transfer must verify without a QP error. The QPs are held after the
# transfer so that the client's per-EV counters can be read.
ce_ns=$(fabric_ns t1p0s0)
tc -n "$ce_ns" qdisc replace dev t1 clsact &&
	tc -n "$ce_ns" filter add dev t1 egress protocol ipv6 matchall \
		action pedit munge offset 0 u16 set 0x0030 retain 0x0030
check "spine 0 of plane 0: sets CE towards h1" "0" "$?"
ce0=$(mrc_counter_sum "$H1" "$MRC_DEV1" rx_ecn_ce)
skips0=$(mrc_counter_sum "$H2" "$MRC_DEV2" ev_skips)
qp_err0=$(sum_counter qp_errors)
MRC_HELD_DIR=$(mktemp -d)
held_start e -o write -s 1m -n "$mib" -q 8 -S 15 || exit $KSFT_FAIL
wait_until 120 held_done e
check "CE on spine 0 of plane 0: transfer finished" "0" "$?"
ce=$(($(mrc_counter_sum "$H1" "$MRC_DEV1" rx_ecn_ce) - ce0))
skips=$(($(mrc_counter_sum "$H2" "$MRC_DEV2" ev_skips) - skips0))
# "EVS ECN TX" of the client's plane-0 EVs through spine 0 (uSID 2000, the
# carrier's fourth group), then the same of every other EV of plane 0, then the
# CE echoes counted on EVs of the other planes.
ev_split=$("$MRCCTL" -n "$H2" -j qp show dev "$MRC_DEV2" | jq -r '
	[.[].evs[]] as $e
	| ($e | map(select(.plane == 0))
	      | group_by((.srv6_da // "") | split(":")[3] != "2000")
	      | map("\(length) \(map(.ecn) | add) \(map(.tx_pkts) | add)")
	      | join(" ")),
	  ($e | map(select(.plane != 0) | .ecn) | add // 0)' | paste -sd ' ')
held_release e "CE on spine 0 of plane 0"
rm -rf "$MRC_HELD_DIR"
tc -n "$ce_ns" qdisc del dev t1 clsact
echo "# CE on spine 0 of plane 0: server rx_ecn_ce $ce, client ev_skips $skips;" \
	"plane 0 EVs through spine 0 / the rest (evs ecn tx_pkts), other planes' ecn: $ev_split"
read -r n_ce ecn_ce tx_ce n_rest ecn_rest tx_rest ecn_other <<<"$ev_split"
check_match "CE on spine 0 of plane 0: the server counted CE marks (rx_ecn_ce)" '^[1-9][0-9]*$' "$ce"
check_match "CE on spine 0 of plane 0: the client's EVs skipped turns (ev_skips)" '^[1-9][0-9]*$' "$skips"
check_match "CE on spine 0 of plane 0: its EVs had CE echoed, no other EV did" \
	'^[1-9][0-9]* 0 0$' "${ecn_ce:-0} ${ecn_rest:-x} ${ecn_other:-x}"
# Skipping one turn per echo leaves a marked EV about every other turn; below
# 3/4 of the unmarked EVs' mean is well clear of equal spraying.
mrc_checks=$((mrc_checks + 1))
if [ "${n_ce:-0}" -gt 0 ] && [ "${n_rest:-0}" -gt 0 ] &&
	[ $((4 * tx_ce * n_rest)) -lt $((3 * tx_rest * n_ce)) ]; then
	mrc_ok "CE on spine 0 of plane 0: its EVs carried $((tx_ce / n_ce)) packets each, the rest of plane 0 $((tx_rest / n_rest))"
else
	mrc_fail "CE on spine 0 of plane 0: EVs through it / the rest: ${ev_split:-none}"
fi
check "CE on spine 0 of plane 0: no QP errors" "$qp_err0" "$(sum_counter qp_errors)"

# (b) spine 1 of plane 0 goes down a third into a transfer and returns at two
# thirds (the client pauses there, idle): only its EVs are retired, the transfer
# completes, and once the spine is back probes recover its entropies while the QP
# is held after the verdict (plane 0's ev_recovered), and each takes its slot back
# from its replacement: the spine has as many GOOD EVs as before it went down.
dead=$((S > 1 ? 1 : 0))
MRC_HELD_DIR=$(mktemp -d)
recovered() { [ "$(mrc_counter "$H2" "$MRC_DEV2" 1 ev_recovered)" -gt "$1" ]; }
# dead_good: the client's GOOD EVs of plane 0 whose entropy picks path $dead
dead_good()
{
	"$MRCCTL" -n "$H2" -j qp show dev "$MRC_DEV2" |
		jq --argjson s "$S" --argjson k "$dead" '[.[] | .evs[]? |
			select(.plane == 0 and .state == "good" and
			       .value % 16384 % $s == $k)] | length'
}
home() { [ "$(dead_good)" -ge "$1" ]; }
rec0=$(mrc_counter "$H2" "$MRC_DEV2" 1 ev_recovered)
qp_err0=$(sum_counter qp_errors)
scenario_start
held_start b -o write -s 1m -n $((2 * mib)) -q 8 -S 12 --pause "$MRC_HELD_DIR/go" ||
	exit $KSFT_FAIL
wait_until 120 held_paused b 1 && good0=$(dead_good) && fabric_spine_down 0 "$dead"
check "spine $dead of plane 0: down a third into the transfer" "0" "$?"
touch "$MRC_HELD_DIR/go"
wait_until 120 held_paused b 2 && fabric_spine_up 0 "$dead"
check "spine $dead of plane 0: back at two thirds" "0" "$?"
touch "$MRC_HELD_DIR/go"
wait_until 120 held_done b
check_retired_on "spine $dead of plane 0 down" "$S" "$S" 0 "$dead"
wait_until 30 recovered "$rec0"
check "spine $dead of plane 0 back: probes recovered its entropies" "0" "$?"
[ "${good0:-0}" -gt 0 ] && wait_until 30 home "$good0"
rc=$?
echo "# GOOD EVs of plane 0 on path $dead: ${good0:-none} before it went down, $(dead_good) now"
check "spine $dead of plane 0 back: its EVs took their slots back" "0" "$rc"
held_release b "spine $dead of plane 0 down and up"
check "spine $dead of plane 0 down: no QP errors" "$qp_err0" "$(sum_counter qp_errors)"
rm -rf "$MRC_HELD_DIR"

# (c) the client's T0 loses its uplink to spine 0 of the last plane, silently
# (100% loss, carrier up): only the EVs through that uplink are retired.
pl=$((P - 1))
fabric_uplink_blackhole "$pl" 2 0
check "uplink h2-spine 0 of plane $pl: blackholed" "0" "$?"
scenario_start
qp_err0=$(sum_counter qp_errors)
check_xfer "uplink h2-spine 0 of plane $pl blackholed: mrc-xfer write $mib MiB" \
	-o write -s 1m -n "$mib" -q 8 -S 13
fabric_uplink_restore "$pl" 2 0
check_retired_on "uplink h2-spine 0 of plane $pl blackholed" "$S" "$S" "$pl" 0
check "uplink h2-spine 0 of plane $pl blackholed: no QP errors" "$qp_err0" \
	"$(sum_counter qp_errors)"

# direct_paths N: args holds, for planes 0..N-1, one explicit client path per spine,
# h2's T0 -> the spine -> h1's T0 -> h1's NIC.
direct_paths()
{
	local p s
	args=()
	for ((p = 0; p < $1; p++)); do
		for ((s = 0; s < S; s++)); do
			args+=(path plane "$p" usids "$(fabric_usid 1 "$p" 2),$(fabric_usid 2 "$p" "$s"),$(fabric_usid 1 "$p" 1),$(fabric_usid 3 "$p" 1)")
		done
	done
}

# (d) explicit paths: every spine of every plane, plus on plane 0 one more path
# through spine 15, which does not exist. That path is path S of plane 0
# (entropy mod S + 1); it alone is retired.
direct_paths "$P"
args+=(path plane 0 usids "$(fabric_usid 1 0 2),$(fabric_usid 2 0 15),$(fabric_usid 1 0 1),$(fabric_usid 3 0 1)")
run_rc "$MRCCTL" -n "$H2" srv6 set dev "$MRC_DEV2" peer fd00:0::1 locator fc00:0 \
	"${args[@]}"
check "srv6 set: $((P * S + 1)) explicit paths, one through a missing spine" "0" "$rc"
scenario_start
qp_err0=$(sum_counter qp_errors)
check_xfer "a path through a missing spine: mrc-xfer write $mib MiB" \
	-o write -s 1m -n "$mib" -q 8 -S 14
check_retired_on "a path through a missing spine" $((S + 1)) "$S" 0 "$S"
check "a path through a missing spine: no QP errors" "$qp_err0" "$(sum_counter qp_errors)"

# (e) a path too long for the outer destination: on the last plane the client's
# only path loops through the fabric, h2's T0, spine 0, h1's T0, spine 1, h2's T0,
# spine 2 (spine 0 again in a fabric of two spines), h1's T0, h1's NIC: 8 uSIDs,
# the first six in the DA and the last two in the reduced SRH's one segment, which
# the last spine's End (its uSID is the DA's last) makes the DA. Every hop has a
# static route: a T0 sends each spine's uSID up that spine's link and a spine sends
# each T0's uSID down its link, whichever way the packet came. The other planes
# keep one direct path per spine. The server's SACKs keep its GEN paths: the case
# is the sender's SRH, and a SACK needs no particular path to come back.
# Every packet the client sends on that plane must cross each spine of the loop
# (spine 0 twice when it is also the third) and arrive, checksummed, with no QP
# error; the EVs of that plane show the DA and the SRH segment.
lp=$((P - 1)) third=$((S > 2 ? 2 : 0))
loop=("$(fabric_usid 1 "$lp" 2)" "$(fabric_usid 2 "$lp" 0)" "$(fabric_usid 1 "$lp" 1)"
	"$(fabric_usid 2 "$lp" 1)" "$(fabric_usid 1 "$lp" 2)" "$(fabric_usid 2 "$lp" "$third")"
	"$(fabric_usid 1 "$lp" 1)" "$(fabric_usid 3 "$lp" 1)")
loop_da=$(printf 'fc00:0:%s:%s:%s:%s:%s:%s' "${loop[@]:0:6}")
loop_seg=$(printf 'fc00:0:%s:%s::' "${loop[@]:6:2}")
direct_paths "$lp"
args+=(path plane "$lp" usids "$(IFS=,; echo "${loop[*]}")")
run_rc "$MRCCTL" -n "$H2" srv6 set dev "$MRC_DEV2" peer fd00:0::1 locator fc00:0 \
	"${args[@]}"
check "srv6 set: plane $lp's only path is an 8-uSID loop ($loop_da seg $loop_seg)" "0" "$rc"
loop_spines=(0 1 "$third") nloop=$((S > 2 ? 3 : 2))
# loop_rx: packets each spine of the loop took, all its links together.
loop_rx()
{
	local s
	for ((s = 0; s < nloop; s++)); do
		fabric_counters "t1p${lp}s$s" | awk '{ n += $3 } END { print n + 0 }'
	done
}
read -r -a rx0 <<<"$(loop_rx | paste -sd ' ')"
tx0=$(mrc_counter "$H2" "$MRC_DEV2" $((lp + 1)) tx_pkts)
qp_err0=$(sum_counter qp_errors)
MRC_HELD_DIR=$(mktemp -d)
held_start e -o write -s 1m -n "$(mrc_scaled 8)" -q 8 -S 15 || exit $KSFT_FAIL
wait_until 120 held_done e
check "8-uSID loop on plane $lp: the transfer finished" "0" "$?"
tx=$(($(mrc_counter "$H2" "$MRC_DEV2" $((lp + 1)) tx_pkts) - tx0))
j=$("$MRCCTL" -n "$H2" -j qp show dev "$MRC_DEV2")
read -r -a rx1 <<<"$(loop_rx | paste -sd ' ')"
check_match "8-uSID loop: the client sent over 100 packets on plane $lp ($tx)" \
	'^[1-9][0-9]{2,}$' "$tx"
short=""
for ((s = 0; s < nloop; s++)); do
	visits=0
	for v in "${loop_spines[@]}"; do [ "$v" = "$s" ] && visits=$((visits + 1)); done
	got=$((rx1[s] - rx0[s]))
	[ "$got" -ge $((visits * tx)) ] || short="$short s$s=$got<$visits*$tx"
done
check "8-uSID loop: each spine took every packet once per visit" "" "$short"
echo "# 8-uSID loop: $tx packets sent on plane $lp; rx of spines 0..$((nloop - 1)):" \
	"$(for ((s = 0; s < nloop; s++)); do printf '%s ' $((rx1[s] - rx0[s])); done)"
check "8-uSID loop: every EV of plane $lp carries the loop's DA and SRH segment" \
	"true" "$(jq --argjson p "$lp" --arg da "$loop_da" --arg seg "$loop_seg" \
		'[.[].evs[] | select(.plane == $p)] |
		length > 0 and all(.srv6_da == $da and .srv6_seg == $seg)' <<<"$j")"
check "8-uSID loop: no EV of another plane has an SRH segment" "0" \
	"$(jq --argjson p "$lp" '[.[].evs[] | select(.plane != $p and has("srv6_seg"))] |
		length' <<<"$j")"
held_release e "8-uSID loop on plane $lp"
check "8-uSID loop: no QP errors" "$qp_err0" "$(sum_counter qp_errors)"
rm -rf "$MRC_HELD_DIR"

echo 0 >"$tracing/events/mrc/mrc_ev_retire/enable"
echo 0 >"$tracing/events/mrc/mrc_ev_state/enable"
check_from_peers "SRv6 fabric"
mrc_finish
