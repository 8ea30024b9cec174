#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What a controller sees of and does to the data path, over two planes: a plane set
# admin down mid-transfer is left as if it had lost its carrier (the transfer
# completes, the plane sends nothing more while the other carries on, dev show and a
# PLANE_EVENT say admin down) and is taken back once admin up, and the client's port
# status tells the server, whose QP then stops sending on that plane too (its SACKs
# would otherwise still go there); EV events report the
# EVs of a plane going ASSUMED_BAD (admin down, a blackhole) and probes bringing them
# back GOOD, and only the transitions the device's EV profile asks for; QP events
# say why a QP failed (remote access error, retries exhausted); bad PLANE_SET
# requests get their errno and message.
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_xfer
mrc_require_cmds tc jq
mon=$(mktemp -d)
monpids=()
# monitors_stop: end the background monitors started so far.
monitors_stop()
{
	local p
	for p in "${monpids[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	monpids=()
}
trap 'monitors_stop; rm -rf "$mon"; mrc_dev_pair_del; topo_destroy' EXIT
mrc_unload
topo_create 2 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
mrc_dev_pair 2 || exit $KSFT_FAIL
c2() { "$MRCCTL" -n "$H2" "$@"; }
udp_port=$(cat /sys/module/mrc/parameters/udp_port)

# monitor_start NS NAME [-j]: a monitor of NS's events writing to $mon/NAME,
# subscribed when this returns. The time limits only bound a hang: the debug VM,
# busy with the last transfer's aftermath, can take more than 5 s to start one.
monitor_start()
{
	# shellcheck disable=SC2086 # $3 is -j or nothing
	timeout 900 "$MRCCTL" -n "$1" $3 monitor >"$mon/$2" 2>"$mon/$2.err" &
	monpids+=($!)
	wait_until 60 grep -qxF "mrcctl: listening" "$mon/$2.err"
	check "monitor $2 subscribes" "0" "$?"
}

# events NAME JQ-EXPR: the events of JSON monitor NAME that match JQ-EXPR, one
# compact object per line (a line the monitor is still writing is skipped).
events() { jq -R -c "fromjson? | select($2)" "$mon/$1"; }
# has_event NAME JQ-EXPR: monitor NAME printed such an event (for wait_until).
has_event() { [ -n "$(events "$1" "$2")" ]; }
# recovered NAME: how many EVs of plane 1 monitor NAME saw go ASSUMED_BAD and
# later GOOD with the same value (probes brought them back)
recovered()
{
	events "$1" '.event == "ev" and .plane == 1' | jq -s '. as $e | [range(0; length) as $i |
		$e[$i] | select(.state == "assumed-bad") | . as $b |
		select(any($e[$i + 1:][]; .value == $b.value and .state == "good"))] | length'
}
recovered_some() { [ "$(recovered "$1")" -gt 0 ]; }
# check_recovered DESCRIPTION NAME: some EV of plane 1 came back GOOD
check_recovered()
{
	local n
	wait_until 10 recovered_some "$2"
	n=$(recovered "$2")
	mrc_checks=$((mrc_checks + 1))
	if [[ $n =~ ^[0-9]+$ ]] && [ "$n" -gt 0 ]; then
		mrc_ok "$1: $n EVs of plane 1 went ASSUMED_BAD and came back GOOD"
	else
		mrc_fail "$1: no EV of plane 1 came back GOOD after ASSUMED_BAD"
		echo "#   client port 2: ev_probes_tx $(mrc_counter "$H2" "$MRC_DEV2" 2 ev_probes_tx) ev_recovered $(mrc_counter "$H2" "$MRC_DEV2" 2 ev_recovered)"
		events "$2" '.event != "ev" or .state == "good"' | tail -n 5 | sed 's/^/#   /'
	fi
}

# Data flows from the client ($H2, $MRC_DEV2) to the server.
# plane_pkts NS DEV: tx_pkts of DEV's ports 1 and 2 (planes 0 and 1)
plane_pkts() { echo "$(mrc_counter "$1" "$2" 1 tx_pkts) $(mrc_counter "$1" "$2" 2 tx_pkts)"; }
client_pkts() { plane_pkts "$H2" "$MRC_DEV2"; }
server_pkts() { plane_pkts "$H1" "$MRC_DEV1"; }
plane1_admin() { c2 -j dev show "$MRC_DEV2" | jq -r '.[0].planes[1] | "\(.state) \(.admin)"'; }

# 8 MiB per transfer (4 in the debug VM), with the client's planes limited to
# 20 Mbit/s each. Plane changes land while the client's transfer is paused
# (mrc-xfer --pause: after a third and two thirds of the messages, all of them
# done), so they fall mid-transfer at any speed: a watcher racing the transfer's
# byte count lost that race in the debug VM, and then saw nothing of the QP.
mib=$(mrc_scaled 8)
netem_all "$H2" rate 20mbit
check "client planes limited to 20 Mbit/s" "0" "$?"
MRC_HELD_DIR=$mon/held
mkdir "$MRC_HELD_DIR"
go=$MRC_HELD_DIR/go
# wait_paused TAG N WHAT: wait for that pause, and check it came
wait_paused()
{
	wait_until "$held_limit" held_paused "$1" "$2"
	check "$3" "0" "$?"
}

# (a) plane 1 of the client goes admin down a third into a transfer; the client's
# packet counters are sampled at two thirds and at the end, still admin down. A
# second transfer starts with plane 1 still down (its new QP finds its EVs there
# unusable) and sets it admin up a third in; its QPs are held until the probes
# brought plane 1 back.
monitor_start "$H2" a -j
monitor_start "$H2" a_human
qp_err0=$(mrc_counter_sum "$H2" "$MRC_DEV2" qp_errors)
pstat_rx0=$(mrc_counter_sum "$H1" "$MRC_DEV1" port_status_rx)
pstat_tx0=$(mrc_counter_sum "$H2" "$MRC_DEV2" port_status_tx)
held_start a -o write -s 1m -n "$mib" -q 8 -S 11 --pause "$go" || exit $KSFT_FAIL
wait_paused a 1 "admin down mid-transfer: the client paused a third in"
c2 plane set dev "$MRC_DEV2" plane 1 admin down
check "admin down mid-transfer: plane set" "0" "$?"
touch "$go"
wait_paused a 2 "admin down mid-transfer: the client paused two thirds in"
client_pkts >"$mon/pkts_before"
server_pkts >"$mon/spkts_before"
c2 dev show "$MRC_DEV2" >"$mon/show_down"
touch "$go"
wait_until "$held_limit" held_done a
client_pkts >"$mon/pkts_after"
server_pkts >"$mon/spkts_after"
held_release a "admin down mid-transfer: mrc-xfer write $mib MiB"

held_start a2 -o write -s 1m -n "$mib" -q 8 -S 13 --pause "$go" || exit $KSFT_FAIL
wait_paused a2 1 "admin up mid-transfer: the client paused a third in"
c2 plane set dev "$MRC_DEV2" plane 1 admin up
check "admin up mid-transfer: plane set" "0" "$?"
touch "$go"
wait_paused a2 2 "admin up mid-transfer: the client paused two thirds in"
touch "$go"
wait_until "$held_limit" held_done a2
check_recovered "admin up: probes brought plane 1 back (EV events)" a
held_release a2 "admin up mid-transfer: mrc-xfer write $mib MiB"
check "admin down and up: no QP error" "$qp_err0" "$(mrc_counter_sum "$H2" "$MRC_DEV2" qp_errors)"
read -r b0 b1 <"$mon/pkts_before"
read -r a0 a1 <"$mon/pkts_after"
check "admin down: plane 1 sent nothing from two thirds of the transfer to its end" "$b1" "$a1"
mrc_checks=$((mrc_checks + 1))
if [[ $b0 =~ ^[0-9]+$ && $a0 =~ ^[0-9]+$ ]] && [ "$a0" -gt "$b0" ]; then
	mrc_ok "admin down: plane 0 carried on ($b0 -> $a0 packets)"
else
	mrc_fail "admin down: plane 0 carried on ($b0 -> $a0 packets)"
fi
# The server's SACKs took plane 1 until the client's port status said it was down.
read -r b0 b1 <"$mon/spkts_before"
read -r a0 a1 <"$mon/spkts_after"
check "port status: the server sent nothing on plane 1 from two thirds of the transfer to its end" "$b1" "$a1"
mrc_checks=$((mrc_checks + 1))
if [[ $b0 =~ ^[0-9]+$ && $a0 =~ ^[0-9]+$ ]] && [ "$a0" -gt "$b0" ]; then
	mrc_ok "port status: the server's plane 0 carried on ($b0 -> $a0 packets)"
else
	mrc_fail "port status: the server's plane 0 carried on ($b0 -> $a0 packets)"
fi
# Applied once per sequence and QP: down (first QP), down again (the second QP,
# connected while plane 1 was down), up (second QP). Copies and repeats count in
# the client's port_status_tx, two per update at least.
check "port status: the server applied 3 updates (down, down to the new QP, up)" "3" \
	"$(($(mrc_counter_sum "$H1" "$MRC_DEV1" port_status_rx) - pstat_rx0))"
check "port status: the client sent at least two copies of each" "yes" \
	"$([ $(($(mrc_counter_sum "$H2" "$MRC_DEV2" port_status_tx) - pstat_tx0)) -ge 6 ] && echo yes)"
check_from_peers "port status"
ifindex1=$(ip netns exec "$H2" cat /sys/class/net/p1/ifindex)
check "admin down: dev show" \
	"dev $MRC_DEV2 planes 2|    plane 0 netdev p0 ifindex $(ip netns exec "$H2" cat /sys/class/net/p0/ifindex) state up admin up|    plane 1 netdev p1 ifindex $ifindex1 state down admin down" \
	"$(paste -sd '|' "$mon/show_down")"
check "admin up: dev show JSON state and admin" "up up" "$(plane1_admin)"
check "admin down and up: PLANE_EVENTs" \
	"$MRC_DEV2 1 p1 $ifindex1 down down,$MRC_DEV2 1 p1 $ifindex1 up up" \
	"$(events a '.event == "plane"' | jq -r '"\(.dev) \(.index) \(.netdev) \(.ifindex) \(.state) \(.admin)"' | paste -sd,)"
# In each transfer every slot of plane 1 (64 of the 128) went ASSUMED_BAD on its
# next turn. (GOOD events may come first: a packet that lost the race with the
# admin down is lost, and its slot may take a fresh entropy before its turn.)
check "admin down: EV events put all 64 slots of plane 1 ASSUMED_BAD, in both QPs" "64 64" \
	"$(events a '.event == "ev" and .plane == 1 and .state == "assumed-bad"' |
		jq -s -r '[group_by(.qpn)[] | [.[].slot] | unique | length] | join(" ")')"
check "EV events: plane, slot and sport agree with the EV value" "true" \
	"$(events a '.event == "ev"' | jq -s 'length > 0 and all(.plane == (.value / 16777216 | floor) and .slot == ((.value / 65536 | floor) % 256) and .sport == 49152 + (.value % 16384))')"
check "EV events: of the client's two QPs, one per transfer" "2" \
	"$(events a '.event == "ev"' | jq -r .qpn | sort -u | wc -l)"
check "human monitor: the PLANE_EVENT" \
	"plane dev $MRC_DEV2 index 1 netdev p1 ifindex $ifindex1 state down admin down" \
	"$(grep -m1 '^plane ' "$mon/a_human")"
check_match "human monitor: an EV event" \
	"^ev dev $MRC_DEV2 qpn [0-9]+ slot [0-9]+ plane 1 sport [0-9]+ state assumed-bad$" \
	"$(grep -m1 '^ev .* plane 1 sport .* state assumed-bad$' "$mon/a_human")"
monitors_stop

# Setting the state a plane has is a no-op success, and sends no event.
monitor_start "$H2" noop -j
run_rc c2 plane set dev "$MRC_DEV2" plane 1 admin up
check "admin up on an up plane: success" "0 " "$rc $out"
run_rc c2 plane set dev "$MRC_DEV2" plane 1 admin down
run_rc c2 plane set dev "$MRC_DEV2" plane 1 admin down
check "admin down twice: success" "0 " "$rc $out"
c2 plane set dev "$MRC_DEV2" plane 1 admin up
wait_until 10 has_event noop '.event == "plane" and .state == "up"'
check "admin down twice, then up: exactly two PLANE_EVENTs" "1 down down,1 up up" \
	"$(events noop '.event == "plane"' | jq -r '"\(.index) \(.state) \(.admin)"' | paste -sd,)"
monitors_stop

# What the server's QP shows of the client's port status (qp show peer-down), on a
# held pair so that the QPs are there however slow the VM: plane 1 while the client
# has it admin down, none once it is back.
# server_peer_down: the peer_down of each of the server's QPs, as one JSON array
server_peer_down() { "$MRCCTL" -n "$H1" -j qp show dev "$MRC_DEV1" | jq -c '[.[].peer_down]'; }
peer_down_is() { [ "$(server_peer_down)" = "$1" ]; }
held_start pd -o write -s 65536 -n 4 -q 1 -S 5 || exit $KSFT_FAIL
wait_until "$held_limit" held_done pd
check "peer down: the held pair finished its transfer" "0" "$?"
check "peer down: nothing said before" "[[]]" "$(server_peer_down)"
c2 plane set dev "$MRC_DEV2" plane 1 admin down
wait_until 30 peer_down_is '[[1]]'
check "port status: the server's QP shows the client's plane 1 down (qp show)" "[[1]]" \
	"$(server_peer_down)"
c2 plane set dev "$MRC_DEV2" plane 1 admin up
wait_until 30 peer_down_is '[[]]'
check "port status: and none once it is back" "[[]]" "$(server_peer_down)"
held_release pd "peer down: mrc-xfer write 256 KiB"

# (b) plane 1 of the client blackholes MRC packets (tc drop at its egress) from the
# start; once the client reported an EV of plane 1 ASSUMED_BAD the filter goes, and
# probes must bring such an EV back GOOD with the same value. The QPs are held
# after the transfer, so that the probes may finish their work after the data.
tc -n "$H2" qdisc add dev p1 clsact &&
	tc -n "$H2" filter add dev p1 egress protocol ip prio 1 u32 \
		match ip protocol 17 0xff match ip dport "$udp_port" 0xffff action drop
check "blackhole on plane 1: filter installed" "0" "$?"
monitor_start "$H2" b -j
(
	wait_until 300 has_event b '.event == "ev" and .plane == 1 and .state == "assumed-bad"' ||
		exit 1
	# The filter goes, not the qdisc: deleting clsact flips a static key,
	# and text patching amid a transfer livelocked the debug kernel once.
	tc -n "$H2" filter del dev p1 egress prio 1 || exit 1
	touch "$mon/lifted"
) &
watcher=$!
held_start b -o write -s 1m -n "$mib" -q 8 -S 12 || exit $KSFT_FAIL
wait_until "$held_limit" held_done b
[ -e "$mon/lifted" ] || kill "$watcher" 2>/dev/null
wait "$watcher"
check "blackhole on plane 1: lifted after an ASSUMED_BAD event" "0 yes" \
	"$? $([ -e "$mon/lifted" ] && echo yes)"
check_recovered "blackhole lifted: probes brought plane 1 back (EV events)" b
held_release b "blackhole on plane 1: mrc-xfer write $mib MiB"
tc -n "$H2" qdisc del dev p1 clsact 2>/dev/null
monitors_stop

# (c) the client's device names an EV profile that reports GOOD transitions only:
# plane 1 goes admin down at the client's first pause and up at its second, and
# the monitor hears plane 1's EVs come back GOOD but never hears them go
# ASSUMED_BAD. The QPs are held after the transfer, for the probes.
c2 evprofile add 5 events good
c2 evprofile set 5 state online
c2 dev set "$MRC_DEV2" evprofile 5
check "evprofile 5 (events good) named by the client's device" "5 good" \
	"$(c2 -j dev show "$MRC_DEV2" | jq -r '.[0].evprofile') $(c2 -j evprofile show 5 | jq -r '.[0].events | join(",")')"
monitor_start "$H2" e -j
held_start e -o write -s 1m -n "$mib" -q 8 -S 14 --pause "$go" || exit $KSFT_FAIL
wait_paused e 1 "event mask good: the client paused a third in"
c2 plane set dev "$MRC_DEV2" plane 1 admin down
touch "$go"
wait_paused e 2 "event mask good: the client paused two thirds in"
c2 plane set dev "$MRC_DEV2" plane 1 admin up
touch "$go"
wait_until "$held_limit" held_done e
wait_until 60 has_event e '.event == "ev" and .plane == 1 and .state == "good"'
check "event mask good: EVs of plane 1 reported back GOOD" "true" \
	"$(events e '.event == "ev" and .plane == 1 and .state == "good"' | jq -s 'length > 0')"
held_release e "event mask good: mrc-xfer write $mib MiB"
check "event mask good: no ASSUMED_BAD event reported" "0" \
	"$(events e '.event == "ev" and .state == "assumed-bad"' | wc -l)"
monitors_stop
c2 dev set "$MRC_DEV2" evprofile none

netem_clear "$H2"

# (d) a write with a bad rkey: the client's QP fails with a remote access error,
# the server's, which refused it, with "other"; each names the other as its peer.
monitor_start "$H2" c -j
monitor_start "$H1" c_srv
xfer_pair -o badwrite --bad rkey -s 8192
check "bad rkey: both sides exit 0 (the error was expected)" "0 0" "$srv_rc $cli_rc"
wait_until 10 has_event c '.event == "qp"'
cli_qp=$(events c '.event == "qp"')
check "bad rkey: one QP_EVENT on the client" "1" "$(grep -c . <<<"$cli_qp")"
check "bad rkey: the client's QP failed with remote-access" "$MRC_DEV2 remote-access" \
	"$(jq -r '"\(.dev) \(.error)"' <<<"$cli_qp")"
wait_until 10 grep -q '^qp ' "$mon/c_srv"
check "bad rkey: the server's QP failed too (human form)" \
	"qp dev $MRC_DEV1 qpn $(jq -r .dest_qpn <<<"$cli_qp") dest-qpn $(jq -r .qpn <<<"$cli_qp") error other" \
	"$(grep '^qp ' "$mon/c_srv")"
monitors_stop

# (e) every MRC packet of the client dropped: the QP exhausts its retries, 7 linear
# and 6 doubling after a 16 ms timeout, about 2.3 s, and says so.
for p in p0 p1; do
	tc -n "$H2" qdisc add dev "$p" clsact &&
		tc -n "$H2" filter add dev "$p" egress protocol ip prio 1 u32 \
			match ip protocol 17 0xff match ip dport "$udp_port" 0xffff action drop
done
check "blackhole on both planes: filters installed" "0" "$?"
monitor_start "$H2" d
start=$SECONDS
xfer_pair -o write -s 64k -n 4
check "all planes blackholed: the client fails (exit 3, completion error)" "3" "$cli_rc"
wait_until 10 grep -q '^qp ' "$mon/d"
check_match "all planes blackholed: QP_EVENT retry-exceeded" \
	"^qp dev $MRC_DEV2 qpn [0-9]+ dest-qpn [0-9]+ error retry-exceeded$" "$(grep '^qp ' "$mon/d")"
echo "# retries exhausted in $((SECONDS - start)) s"
monitors_stop
for p in p0 p1; do tc -n "$H2" qdisc del dev "$p" clsact; done

# errors: exit status 2, errno and the kernel's message
expect_nlerr "plane set on an unknown device" ENODEV "no such mrc device" \
	c2 plane set dev nosuch plane 0 admin down
expect_nlerr "plane set on another namespace's device" ENODEV "no such mrc device" \
	c2 plane set dev "$MRC_DEV1" plane 0 admin down
expect_nlerr "plane set on a plane the device lacks" ENOENT "no such plane" \
	c2 plane set dev "$MRC_DEV2" plane 5 admin down
expect_nlerr "plane index beyond MRC_MAX_PLANES" ERANGE "integer out of range" \
	c2 plane set dev "$MRC_DEV2" plane 16 admin down
check "failed requests changed nothing" "up up" "$(plane1_admin)"
mrc_finish
