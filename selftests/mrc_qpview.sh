#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The controller's view of QPs and its EV deny/undeny, over two planes:
# "mrcctl qp show" lists a connection's QPs with their peer QPN and address
# and one line per EV whose tx_pkts add up to the packets the ports sent; a
# denied EV carries nothing while the others go on, and carries again once
# undenied, with the transfer's data intact; every refusal of EV_SET and
# QP_GET comes with its errno and message; and a dump of 40 QPs of 256 EVs
# each returns every (QP, slot) once, across continuation messages.
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_xfer
mrc_require_setpriv
mrc_require_cmds jq ib_write_bw
dir=$(mktemp -d)
MRC_HELD_DIR=$dir
trap 'touch "$dir/release"; wait; mrc_params_restore; mrc_dev_pair_del; topo_destroy; rm -rf "$dir"' EXIT
mrc_unload
topo_create 2 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
mrc_dev_pair 2 || exit $KSFT_FAIL
ev_default=$(cat /sys/module/mrc/parameters/ev_count)

c1() { "$MRCCTL" -n "$H1" "$@"; }
c2() { "$MRCCTL" -n "$H2" "$@"; }

# qp_read QPN: the client's QP N (human output: one exec less than JSON and
# jq) into evl[], one line per slot; ev_of and others_tx read from it. A
# here-string, not a process substitution: the VM has no /dev/fd.
qp_read()
{
	local line
	evl=()
	while read -r line; do
		[[ $line =~ ^slot\ ([0-9]+)\  ]] && evl[BASH_REMATCH[1]]=$line
	done <<<"$(c2 qp show dev "$MRC_DEV2" qpn "$1")"
}
# ev_of SLOT FIELD: one field (state, tx_pkts, ...) of a slot.
ev_of() { [[ ${evl[$1]} =~ \ $2\ ([^ ]+) ]] && echo "${BASH_REMATCH[1]}"; }
# others_tx SLOT: tx_pkts of every other slot, summed.
others_tx()
{
	local i sum=0
	for i in "${!evl[@]}"; do
		[ "$i" != "$1" ] && [[ ${evl[i]} =~ \ tx_pkts\ ([0-9]+) ]] &&
			sum=$((sum + BASH_REMATCH[1]))
	done
	echo "$sum"
}
client_tx() { mrc_counter_sum "$H2" "$MRC_DEV2" "$1"; }

# (a) a finished transfer whose QPs are kept: what qp show says of them.
pkts0=$(client_tx tx_pkts)
probes0=$(client_tx ev_probes_tx)
held_start a -o write -s 65536 -n 64 -q 8 -S 21 || exit $KSFT_FAIL
wait_until 120 held_done a
check "held transfer: both sides finished" "0" "$?"
j2=$(c2 -j qp show dev "$MRC_DEV2")
j1=$(c1 -j qp show dev "$MRC_DEV1")
qpn2=$(jq '.[0].qpn' <<<"$j2")
qpn1=$(jq '.[0].qpn' <<<"$j1")
check "qp show: one QP on each device" "1 1" "$(jq length <<<"$j2") $(jq length <<<"$j1")"
check "qp show: each QP's dest_qpn is the other's number" "$qpn1 $qpn2" \
	"$(jq '.[0].dest_qpn' <<<"$j2") $(jq '.[0].dest_qpn' <<<"$j1")"
check "qp show: peer addresses (v4-mapped shown as IPv4)" "10.0.0.1 10.0.0.2" \
	"$(jq -r '.[0].peer' <<<"$j2") $(jq -r '.[0].peer' <<<"$j1")"
check "qp show: state rts, dev name" "rts $MRC_DEV2" \
	"$(jq -r '.[0] | "\(.state) \(.dev)"' <<<"$j2")"
check "qp show: no plane of either peer said down" "[] []" \
	"$(jq -c '.[0].peer_down' <<<"$j2") $(jq -c '.[0].peer_down' <<<"$j1")"
check "qp show: ev_count is the module's ev_count ($ev_default), one EV each" \
	"$ev_default $ev_default" "$(jq '.[0] | "\(.ev_count) \(.evs | length)"' -r <<<"$j2")"
check "qp show: slots 0..ev_count-1 in order" "true" \
	"$(jq '[.[0].evs[].slot] == [range(0; .[0].ev_count)]' <<<"$j2")"
check "qp show: sport is 0xc000 | the EV's 14-bit entropy" "true" \
	"$(jq '[.[0].evs[] | .sport == (49152 + (.value % 16384))] | all' <<<"$j2")"
check "qp show: the EVs are split over both planes" "$((ev_default / 2)) $((ev_default / 2))" \
	"$(jq -r '[.[0].evs[] | select(.plane == 0)] | length' <<<"$j2") $(jq -r '[.[0].evs[] | select(.plane == 1)] | length' <<<"$j2")"
# the same QP through the RDMA tool: restrack's driver attributes (mrc/restrack.c)
rj=$(rdma -j -dd resource show qp 2>&1)
r=$(jq -c --arg d "$MRC_DEV2" --argjson q "$qpn2" \
	'[.[] | select(.ifname == $d and .lqpn == $q)] | .[0] |
	 [.drv_evs, .drv_evs_good + .drv_evs_skip + .drv_evs_assumed_bad + .drv_evs_denied, .drv_mpr, .drv_mpr_dest]' \
	<<<"$rj" 2>&1)
want=$(jq -c '.[0] | [.ev_count, .ev_count, .mpr, .mpr_dest]' <<<"$j2")
check "rdma resource show qp -dd: EVs, EVs by state, MPRs as qp show has them" "$want" "$r"
[ "$r" = "$want" ] || echo "# rdma -j -dd resource show qp: $(head -c 1500 <<<"$rj")"
check "qp show: EV tx_pkts sum to the ports' tx_pkts less probes" \
	"$(($(client_tx tx_pkts) - pkts0 - ($(client_tx ev_probes_tx) - probes0)))" \
	"$(jq '[.[0].evs[].tx_pkts] | add' <<<"$j2")"
human=$(c2 qp show dev "$MRC_DEV2")
check_match "qp show: human QP line" \
	"^dev $MRC_DEV2 qpn $qpn2 state rts dest-qpn $qpn1 peer 10.0.0.1 evs $ev_default min-active [0-9]+ cwnd [0-9]+ srtt-us [0-9]+ peer-down none evprofile 0 ccprofile 0 mpr 2 mpr-dest 8 timeout 14 retry-linear 7 retry-exp 6$" \
	"$(head -n 1 <<<"$human")"
check_match "qp show: human EV line" \
	'^    slot 0 plane [01] value 0x[0-9a-f]{8} sport [0-9]+ state good tx_pkts [0-9]+ retx [0-9]+ losses [0-9]+ ecn [0-9]+ retired [0-9]+$' \
	"$(sed -n 2p <<<"$human")"
check "qp show: one QP line and one line per EV" "$((ev_default + 1))" "$(wc -l <<<"$human")"
check "qp show dev D qpn N (do) equals the dump" "$j2" "$(c2 -j qp show dev "$MRC_DEV2" qpn "$qpn2")"

# Refusals, on the live QP.
run_rc c2 qp show dev nosuch
check "qp show of an unknown device lists nothing" "0 " "$rc $out"
run_rc c2 qp show dev nosuch qpn "$qpn2"
check "qp show: unknown device" "Error: no such mrc device (ENODEV)" "$out"
run_rc c2 qp show dev "$MRC_DEV2" qpn 999999
check "qp show: unknown QP" "Error: no such QP (ENOENT)" "$out"
run_rc c2 ev set dev nosuch qpn "$qpn2" slot 0 deny
check "ev set: unknown device" "Error: no such mrc device (ENODEV)" "$out"
run_rc c2 ev set dev "$MRC_DEV2" qpn 999999 slot 0 deny
check "ev set: unknown QP" "Error: no such QP (ENOENT)" "$out"
run_rc c2 ev set dev "$MRC_DEV2" qpn "$qpn2" slot "$ev_default" deny
check "ev set: slot beyond the QP's EV count" \
	"Error: EV slot is beyond the QP's EV count (ERANGE)" "$out"
run_rc c2 ev set dev "$MRC_DEV2" qpn "$qpn2" slot 256 deny
check "ev set: slot above 255 (policy)" "Error: integer out of range (ERANGE)" "$out"
run_rc c2 ev set dev "$MRC_DEV2" qpn "$qpn2" slot 3 undeny
check "ev set: undeny of an EV that is not denied" "Error: EV is not denied (EINVAL)" "$out"
run_rc c2 ev set dev "$MRC_DEV2" qpn "$qpn2" slot 3 deny slot 3 deny
check "ev set: the same slot twice" "Error: EV slot listed twice (EINVAL)" "$out"
run_rc c2 ev set dev "$MRC_DEV2" qpn "$qpn2" slot 3 deny slot "$ev_default" deny
check "ev set: one bad slot refuses the whole request" \
	"2 Error: EV slot is beyond the QP's EV count (ERANGE) good" \
	"$rc $out $(qp_read "$qpn2"; ev_of 3 state)"
for who in nocap nobody; do
	declare -n as=$who
	run_rc ip netns exec "$H2" "${as[@]}" "$MRCCTL" ev set dev "$MRC_DEV2" qpn "$qpn2" slot 3 deny
	check "$who: ev set refused" "2 Error: Operation not permitted (EPERM)" "$rc $out"
	run_rc ip netns exec "$H2" "${as[@]}" "$MRCCTL" -j qp show dev "$MRC_DEV2" qpn "$qpn2"
	check "$who: qp show allowed" "0 $qpn2" "$rc $(jq '.[0].qpn' <<<"$out")"
done
check "the refused requests left slot 3 good" "good" "$(qp_read "$qpn2"; ev_of 3 state)"
run_rc c2 ev set dev "$MRC_DEV2" qpn "$qpn2" slot 3 deny
check "ev set: deny" "0 denied" "$rc $(qp_read "$qpn2"; ev_of 3 state)"
run_rc c2 ev set dev "$MRC_DEV2" qpn "$qpn2" slot 3 deny
check "ev set: deny of a denied EV changes nothing" "0 denied" "$rc $(qp_read "$qpn2"; ev_of 3 state)"
run_rc c2 ev set dev "$MRC_DEV2" qpn "$qpn2" slot 3 undeny
check "ev set: undeny" "0 good" "$rc $(qp_read "$qpn2"; ev_of 3 state)"
held_release a "held transfer"
check "qp show: the destroyed QPs are gone" "[] []" \
	"$(c2 -j qp show dev "$MRC_DEV2") $(c1 -j qp show dev "$MRC_DEV1")"

# (b) deny one EV of the sender during a transfer: it sends nothing more while
# the others go on; undenied, it carries again. The client pauses, its QP idle,
# after a third (deny) and two thirds (undeny) of the messages.
mib=$(mrc_scaled 24)
held_start b -o write -s 1m -n "$mib" -q 8 -S 22 --pause "$dir/go" || exit $KSFT_FAIL
wait_until 120 held_paused b 1
qpn=$(c2 -j qp show dev "$MRC_DEV2" | jq '.[0].qpn')
qp_read "$qpn"
t0=$(ev_of 0 tx_pkts)
run_rc c2 ev set dev "$MRC_DEV2" qpn "$qpn" slot 0 deny
check "mid-transfer: deny slot 0 after a third" "0" "$rc"
qp_read "$qpn"
o0=$(others_tx 0)
touch "$dir/go"
wait_until 120 held_paused b 2
check "mid-transfer: paused at two thirds" "0" "$?"
qp_read "$qpn"
t1=$(ev_of 0 tx_pkts) o1=$(others_tx 0)
check "mid-transfer: denied slot 0 shows state denied" "denied" "$(ev_of 0 state)"
check "mid-transfer: denied slot 0 sent nothing in the second third" "$t0" "$t1"
mrc_checks=$((mrc_checks + 1))
if [ "$t0" -gt 0 ] && [ "$o1" -gt "$o0" ]; then
	mrc_ok "mid-transfer: slot 0 had sent ($t0), the other EVs kept sending ($o0 -> $o1)"
else
	mrc_fail "mid-transfer: slot 0 had sent ($t0), the other EVs kept sending ($o0 -> $o1)"
fi
run_rc c2 ev set dev "$MRC_DEV2" qpn "$qpn" slot 0 undeny
check "mid-transfer: undeny slot 0 at two thirds" "0 good" "$rc $(qp_read "$qpn"; ev_of 0 state)"
touch "$dir/go"
wait_until 120 held_done b
qp_read "$qpn"
t2=$(ev_of 0 tx_pkts)
mrc_checks=$((mrc_checks + 1))
if [ "$t2" -gt "$t1" ]; then
	mrc_ok "mid-transfer: undenied slot 0 carried again ($t1 -> $t2)"
else
	mrc_fail "mid-transfer: undenied slot 0 carried again ($t1 -> $t2)"
fi
held_release b "deny and undeny mid-transfer"

# (c) two EVs (one per plane): the last one that is not denied cannot be.
mrc_param_set ev_count 2
held_start c -o write -s 65536 -n 16 -q 4 -S 23 || exit $KSFT_FAIL
wait_until 120 held_done c
qpn=$(c2 -j qp show dev "$MRC_DEV2" | jq '.[0].qpn')
qp_read "$qpn"
check "ev_count=2: the QP has two EVs" "2" "${#evl[@]}"
busy="Error: denying these EVs would leave the QP without an allowed EV (EBUSY)"
run_rc c2 ev set dev "$MRC_DEV2" qpn "$qpn" slot 0 deny slot 1 deny
check "ev_count=2: denying both at once" "$busy" "$out"
qp_read "$qpn"
check "ev_count=2: ... changed neither" "good good" "$(ev_of 0 state) $(ev_of 1 state)"
run_rc c2 ev set dev "$MRC_DEV2" qpn "$qpn" slot 0 deny
check "ev_count=2: deny slot 0" "0" "$rc"
run_rc c2 ev set dev "$MRC_DEV2" qpn "$qpn" slot 1 deny
check "ev_count=2: deny of the last allowed EV" "$busy" "$out"
check "ev_count=2: slot 1 stays good" "good" "$(qp_read "$qpn"; ev_of 1 state)"
run_rc c2 ev set dev "$MRC_DEV2" qpn "$qpn" slot 1 deny slot 0 undeny
qp_read "$qpn"
check "ev_count=2: deny 1 and undeny 0 in one request" "0 good denied" \
	"$rc $(ev_of 0 state) $(ev_of 1 state)"
held_release c "ev_count=2"

# (d) a dump of 40 QPs x 256 EVs: each (QP, slot) once, the QPs whole
# although each spans several messages.
mrc_param_set ev_count 256
# 40 QPs of 128 WRITEs each overload a debug guest beside two others for seconds
# at a time (check-long saw a QP's retries run out, 134 RTOs of perftest's
# default timeout 14): there, each RTO is 16 times longer (-u 18). The dump, not
# the overload, is what this part tests.
bw_opts=(-F -p 18515 -q 40 -s 4096 -D 20)
! mrc_debug_kernel || bw_opts+=(-u 18)
ip netns exec "$H1" timeout "$MRC_TOOL_TIMEOUT" ib_write_bw -d "$MRC_DEV1" -x "$MRC_GID1" \
	"${bw_opts[@]}" >"$dir/bw.srv" 2>&1 &
srv_pid=$!
if wait_port "$srv_pid" 18515; then
	ip netns exec "$H2" timeout "$MRC_TOOL_TIMEOUT" ib_write_bw -d "$MRC_DEV2" \
		-x "$MRC_GID2" "${bw_opts[@]}" 10.0.0.1 >"$dir/bw.cli" 2>&1 &
	cli_pid=$!
fi
forty_rts() { [ "$(c2 qp show dev "$MRC_DEV2" | grep -c '^dev .* state rts ')" = 40 ]; }
wait_until 120 forty_rts
dump=$(c2 -j qp show)
check "dump: 40 QPs" "40" "$(jq length <<<"$dump")"
check "dump: 256 EVs each" "true" "$(jq '[.[] | .ev_count == 256 and (.evs | length) == 256] | all' <<<"$dump")"
check "dump: 10240 distinct (qpn, slot) pairs" "10240 10240" \
	"$(jq '[.[] | .qpn as $q | .evs[] | [$q, .slot]] | (length|tostring) + " " + (unique | length | tostring)' -r <<<"$dump")"
check "dump: 40 distinct QPs" "40" "$(jq '[.[].qpn] | unique | length' <<<"$dump")"
wait "$cli_pid"
cli_rc=$?
wait "$srv_pid"
srv_rc=$?
check "ib_write_bw -q 40: client and server exit status" "0 0" "$cli_rc $srv_rc"
[ "$cli_rc$srv_rc" = 00 ] || grep -v -e "address:" -e "GID:" "$dir/bw.cli" "$dir/bw.srv" | tail -n 40 | sed 's/^/# /'
check_perf_line "ib_write_bw -q 40: a result for 4 KiB messages" "$(cat "$dir/bw.cli")" 4096
mrc_params_restore
mrc_finish
