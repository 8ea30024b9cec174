#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Hostile packets at a live QP and an idle one (tools/testing/mrc-inject). While a
# checksummed WRITE transfer runs between the pair, and beside a connected pair that
# is done and idle, the client's host fires at the server's device packets that must
# all be dropped: valid ones of every opcode from addresses that are not the QPs' peer
# on the plane (the peer's plane-1 address arriving on plane 0, an address no one
# uses, IPv6 for an IPv4 QP), damaged ones (ICRC), ones that each break a wire rule,
# ones for QPs that do not exist, a share of them fragmented, and replays of the
# client's own requests. Each class must show in its counter exactly; the transfer
# must verify on both sides with the canaries beside the server's MR intact; no QP
# may fail or leave RTS; and the kernel must not report anything (the harness).
# Then, the transfer still running, the src_check modes end to end: the client's
# own packets replayed from a stranger's address are counted and taken (as
# duplicates) under src_check=1, taken unseen under 0, and dropped under 1 when they
# come from a local user of the server's host (through lo); and the srv6 class: packets
# wrapped for an End.DT6 SID behind hostile outer stacks, each counted by mrc or by
# the SID's route.
# MRC_INJECT_COUNT packets per class (default 300), MRC_INJECT_SEED to repeat a run,
# MRC_INJECT_SECONDS to fire for that long instead (make fuzz).
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_xfer
mrc_require_cmds jq python3
INJECT=$MRC_TREE/tools/testing/mrc-inject
count=${MRC_INJECT_COUNT:-300}
seconds=${MRC_INJECT_SECONDS:-0}
MRC_HELD_DIR=$(mktemp -d)
live_srv='' live_cli=''
cleanup()
{
	touch "$MRC_HELD_DIR/release" "$MRC_HELD_DIR/live.stop"
	mrc_param_set src_check 2 2>/dev/null
	mrc_backlog_restore
	# shellcheck disable=SC2086
	[ -z "$live_srv$live_cli" ] || kill $live_srv $live_cli 2>/dev/null
	wait
	rm -rf "$MRC_HELD_DIR"
	mrc_dev_pair_del
	topo_destroy
}
trap cleanup EXIT
mrc_unload
topo_create 2 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
# Every packet fired must reach mrc to be counted: a stalled guest would overflow
# the default backlog (lib.sh, mrc_backlog_deep); the losses left are checked.
mrc_backlog_deep
mrc_dev_pair 2 || exit $KSFT_FAIL
# an address on the client's plane-0 netdev that is no QP's peer
ip -n "$H2" addr add 10.0.0.99/24 dev p0

# rts_qpns: the server device's QPs in RTS, one number per line
rts_qpns()
{
	"$MRCCTL" -n "$H1" -j qp show dev "$MRC_DEV1" | jq -r '.[] | select(.state == "rts") | .qpn'
}
two_rts() { [ "$(rts_qpns | wc -l)" = 2 ]; }

# reasm_fails: datagrams the server's host failed to reassemble (IPv4 and IPv6)
reasm_fails()
{
	ip netns exec "$H1" awk '
		/^Ip:/ && !h { for (i = 1; i <= NF; i++) if ($i == "ReasmFails") c = i; h = 1; next }
		/^Ip:/ { n += $c }
		/^Ip6ReasmFails/ { n += $2 }
		END { print n + 0 }' /proc/net/snmp /proc/net/snmp6
}

counters="rx_bad_src_addr rx_bad_icrc rx_malformed rx_no_qp qp_errors rx_pkts rx_duplicates"
snapshot()
{
	local c
	for c in $counters; do
		printf '%s=%s ' "$c" "$(mrc_counter_sum "$H1" "$MRC_DEV1" "$c")"
	done
	printf 'softnet_drops=%s reasm_fails=%s ' "$(mrc_softnet_drops)" "$(reasm_fails)"
}

# The idle pair: done, verified by held_release at the end, QPs kept.
held_start idle -o write -s 65536 -n 4
wait_until 120 held_done idle
check "the idle pair finished its transfer" "0" "$?"
idle_qpn=$(rts_qpns)
check_match "the idle pair's server QP is in RTS" '^[0-9]+$' "$idle_qpn"

# The live pair: SENDs of 64 KiB, four in flight, until the injector and the
# src_check phases are done (mrc-xfer --until; MRC_INJECT_MSGS at most), then both
# sides verify every message sent. Its length follows the firing's, whatever the
# kernel or the machine's load.
msgs=${MRC_INJECT_MSGS:-1000000}
ip netns exec "$H1" timeout "$held_limit" "$MRC_XFER" -d "$MRC_DEV1" -g "$MRC_GID1" \
	-t "$MRC_XFER_TIMEOUT" -p 18701 -o send -s 64k -n "$msgs" \
	--until "$MRC_HELD_DIR/live.stop" >"$MRC_HELD_DIR/live.srv" 2>&1 &
live_srv=$!
wait_port "$live_srv" 18701
ip netns exec "$H2" timeout "$held_limit" "$MRC_XFER" -d "$MRC_DEV2" -g "$MRC_GID2" \
	-t "$MRC_XFER_TIMEOUT" -p 18701 -o send -s 64k -n "$msgs" \
	--until "$MRC_HELD_DIR/live.stop" "$MRC_SERVER_ADDR" >"$MRC_HELD_DIR/live.cli" 2>&1 &
live_cli=$!
wait_until 60 two_rts
check "the live pair's server QP is in RTS" "0" "$?"
live_qpn=$(rts_qpns | grep -vx "$idle_qpn")

before=$(snapshot)
seed_arg=()
[ -z "${MRC_INJECT_SEED:-}" ] || seed_arg=(--seed "$MRC_INJECT_SEED")
t0=$SECONDS
out=$(ip netns exec "$H2" python3 "$INJECT" --to 10.0.0.1 --to6 fd00:0::1 --from 10.0.0.2 \
	--bad-from 10.1.0.2 --bad-from 10.0.0.99 --bad-from fd00:0::2 \
	--qpn "$idle_qpn" --qpn "$live_qpn" --iface p0 --count "$count" \
	--seconds "$seconds" "${seed_arg[@]}" 2>"$MRC_HELD_DIR/inject.err")
rc=$?
check "mrc-inject exit status" "0" "$rc"
if [ "$rc" = 0 ]; then
	grep '^# mrc-inject seed' "$MRC_HELD_DIR/inject.err"
else
	tail -n 8 "$MRC_HELD_DIR/inject.err" | sed 's/^/# mrc-inject: /'
fi
after=$(snapshot)
t_inject=$((SECONDS - t0))
rts_after=$(rts_qpns | sort -n | paste -sd ' ')
echo "# $out"
j() { jq -r "$1" <<<"$out"; }

# delta NAME: how much counter NAME grew across the injection
delta()
{
	local b a
	b=$(grep -o "$1=[0-9]*" <<<"$before") a=$(grep -o "$1=[0-9]*" <<<"$after")
	echo $((${a#*=} - ${b#*=}))
}
main_before=$before main_after=$after main_out=$out

# replay_from LABEL NETNS BAD_ADDR...: 100 replays of the client's packets on
# plane 0, sent from NETNS with the sources BAD_ADDR, between two snapshots
# of the counters (before, after); sets sent and reqs (the requests among them).
replay_from()
{
	local label=$1 ns=$2 bad=() rc a

	shift 2
	for a; do
		bad+=(--bad-from "$a")
	done
	before=$(snapshot)
	out=$(ip netns exec "$ns" python3 "$INJECT" --to 10.0.0.1 --from 10.0.0.2 \
		"${bad[@]}" --qpn "$live_qpn" --iface p0 --count 100 --classes srcreplay \
		"${seed_arg[@]}" 2>"$MRC_HELD_DIR/inject.err")
	rc=$?
	check "$label: mrc-inject exit status" "0" "$rc"
	[ "$rc" = 0 ] || tail -n 8 "$MRC_HELD_DIR/inject.err" | sed 's/^/# mrc-inject: /'
	after=$(snapshot)
	sent=$(jq -r .replayed <<<"$out")
	reqs=$(jq -r .replayed_requests <<<"$out")
	echo "# $label: $sent replays, $reqs of them requests"
	check "$label: 100 replays" "100" "$sent"
}

# src_check 1 and 0, while the transfer still runs: replays of the client's own
# packets from strangers' addresses on plane 0. Counted under 1, not under 0;
# taken under both, the requests among them as duplicates.
for mode in 1 0; do
	mrc_param_set src_check $mode
	replay_from "src_check=$mode" "$H2" 10.1.0.2 10.0.0.99
	check "src_check=$mode: counted in rx_bad_src_addr" \
		"$([ $mode = 1 ] && echo "$sent" || echo 0)" "$(delta rx_bad_src_addr)"
	check "src_check=$mode: taken, the requests as duplicates (rx_duplicates >= $reqs)" \
		yes "$([ "$(delta rx_duplicates)" -ge "$reqs" ] && [ "$reqs" -gt 0 ] && echo yes)"
done
# A local user of the server's host: the same replays from the host's own
# addresses arrive through the loopback device and are judged there by the
# source check (wire-format.md, threat model): every one counted. That they
# are dropped even under src_check=1 has no counter of its own to show it,
# and the live transfer's own duplicates hide it in rx_duplicates.
mrc_param_set src_check 1
counters="$counters rx_loopback"
replay_from "local sender" "$H1" 10.0.0.1 10.1.0.1
check "local sender: all came through the loopback device" "$sent" "$(delta rx_loopback)"
check "local sender: all counted in rx_bad_src_addr" "$sent" "$(delta rx_bad_src_addr)"
mrc_param_set src_check 2

# SRv6, the transfer still running: the QPs' packets in IPv6 from strangers,
# wrapped for an End.DT6 SID of the server's host on plane 0 and sent as raw
# frames, behind every outer stack mrc_srv6_outer_ce() judges in the headroom.
# What the SID's route delivers, mrc counts (an IPv6 source for an IPv4 QP); what
# it drops, the route counts; nothing is lost between them.
sid=fd00:99::1
ip -n "$H1" -6 route add $sid/128 encap seg6local action End.DT6 table 255 count dev p0
# seg6_counts: the SID's route's "packets errors" (its "count" attribute)
seg6_counts()
{
	local r
	r=$(ip -n "$H1" -s -6 route show $sid/128)
	if [[ $r =~ packets\ ([0-9]+).*errors\ ([0-9]+) ]]; then
		echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
	else
		echo "# the SID's route has no counters: $r" >&2
		echo "0 0"
	fi
}
read -r s6p0 s6e0 <<<"$(seg6_counts)"
before=$(snapshot)
out=$(ip netns exec "$H2" python3 "$INJECT" --to 10.0.0.1 --to6 fd00:0::1 --from 10.0.0.2 \
	--bad-from fd00:0::2 --bad-from fd00:0::99 --qpn "$idle_qpn" --qpn "$live_qpn" \
	--iface p0 --classes srv6 --count "$count" --srv6-sid $sid --from6 fd00:0::2 \
	--dst-mac "$(ip -n "$H1" -j link show p0 | jq -r '.[0].address')" \
	"${seed_arg[@]}" 2>"$MRC_HELD_DIR/inject.err")
rc=$?
check "srv6: mrc-inject exit status" "0" "$rc"
[ "$rc" = 0 ] || tail -n 8 "$MRC_HELD_DIR/inject.err" | sed 's/^/# mrc-inject: /'
after=$(snapshot)
read -r s6p1 s6e1 <<<"$(seg6_counts)"
sent=$(jq -r .sent <<<"$out")
echo "# srv6: $sent frames $(jq -c .srv6_kinds <<<"$out"); the SID's route:" \
	"$((s6p1 - s6p0)) delivered, $((s6e1 - s6e0)) dropped"
check "srv6: $count frames behind every outer stack" "$count true" \
	"$sent $(jq -r '.srv6_kinds | map(. > 0) | all' <<<"$out")"
check "srv6: every frame reached the SID's route (delivered + dropped)" "$sent" \
	"$((s6p1 - s6p0 + s6e1 - s6e0))"
check "srv6: the route dropped the SRHs with segments left or past the packet" \
	"$(jq -r '.srv6_kinds.srh_left + .srv6_kinds.srh_short' <<<"$out")" "$((s6e1 - s6e0))"
check "srv6: every packet the route delivered counted (rx_bad_src_addr)" \
	"$((s6p1 - s6p0))" "$(delta rx_bad_src_addr)"
check "srv6: no QP failed" "0" "$(delta qp_errors)"
ip -n "$H1" -6 route del $sid/128

before=$main_before after=$main_after out=$main_out

# The transfer was running from before the first packet to after the last.
check "the live transfer ran while the injector fired (peer packets before, during, at the end)" \
	"yes yes yes" \
	"$([ "$(j .peer_packets_before)" -gt 0 ] && echo yes) $([ "$(j .peer_packets_during)" -gt 0 ] && echo yes) $([ "$(j .peer_packets_at_end)" -gt 0 ] && echo yes)"

touch "$MRC_HELD_DIR/live.stop"
wait "$live_cli"
cli_rc=$?
echo "# injector ${t_inject} s; the live pair stopped $((SECONDS - t0)) s after its start"
wait "$live_srv"
srv_rc=$?
live_srv='' live_cli=''
check "live pair: exit status (server client)" "0 0" "$srv_rc $cli_rc"
cli_ok=$(ok_line "$(cat "$MRC_HELD_DIR/live.cli")")
check_match "live pair: the client verified" '^ok bytes=[0-9]+ msgs=[0-9]+ digest=' "$cli_ok"
check "live pair: the server saw the same data, canaries intact" "$cli_ok" \
	"$(ok_line "$(cat "$MRC_HELD_DIR/live.srv")")"
[ "$srv_rc$cli_rc" = 00 ] || tail -n 3 "$MRC_HELD_DIR/live.srv" "$MRC_HELD_DIR/live.cli" |
	sed 's/^/# /'

# Packets lost on the way would make every count below short.
check "nothing lost before mrc (backlog drops, reassembly failures)" "0 0" \
	"$(delta softnet_drops) $(delta reasm_fails)"
check "every packet from a stranger's address counted (rx_bad_src_addr)" \
	"$(j '.expect.rx_bad_src_addr')" "$(delta rx_bad_src_addr)"
check "every damaged packet counted (rx_bad_icrc)" "$(j '.expect.rx_bad_icrc')" "$(delta rx_bad_icrc)"
want=$(($(j '.expect.rx_malformed') + $(j '.expect["rx_no_qp|rx_malformed"]')))
got=$(($(delta rx_malformed) + $(delta rx_no_qp)))
check "every rule-breaking packet, and every one for no QP, counted (rx_malformed + rx_no_qp)" \
	"$want" "$got"
[ "$want" = "$got" ] || echo "# rx_malformed +$(delta rx_malformed), rx_no_qp" \
	"+$(delta rx_no_qp), rx_duplicates +$(delta rx_duplicates); sent: wire" \
	"$(j .expect.rx_malformed), noqp $(j '.expect["rx_no_qp|rx_malformed"]')" \
	"($(j .noqp_valid) valid), replays $(j .replayed)"
check "at least as many packets for no QP as were valid (rx_no_qp)" yes \
	"$([ "$(delta rx_no_qp)" -ge "$(j '.noqp_valid')" ] && echo yes)"
check "every class fired its share" \
	"$(j '[.per_class.src, .per_class.icrc, .per_class.wire, .per_class.noqp] | map(. >= '"$count"') | all')" true
check "fragmented packets among them" yes "$([ "$(j .fragmented)" -gt 0 ] && echo yes)"
check "replays of the peer's own packets among them" yes "$([ "$(j .replayed)" -gt 0 ] && echo yes)"
check "every rule of the wire format broken at least once" "16" "$(j '.wire_rules | length')"
check "no QP failed" "0" "$(delta qp_errors)"
check "both server QPs still in RTS after the injection" \
	"$(printf '%s\n' "$idle_qpn" "$live_qpn" | sort -n | paste -sd ' ')" "$rts_after"
held_release idle "idle pair after the injection"
mrc_finish
