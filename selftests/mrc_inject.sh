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
	touch "$MRC_HELD_DIR/release"
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
mrc_dev_pair 2 || exit $KSFT_FAIL
# an address on the client's plane-0 netdev that is no QP's peer
ip -n "$H2" addr add 10.0.0.99/24 dev p0

# rts_qpns: the server device's QPs in RTS, one number per line
rts_qpns()
{
	"$MRCCTL" -n "$H1" -j qp show dev "$MRC_DEV1" | jq -r '.[] | select(.state == "rts") | .qpn'
}
two_rts() { [ "$(rts_qpns | wc -l)" = 2 ]; }

counters="rx_bad_src_addr rx_bad_icrc rx_malformed rx_no_qp qp_errors rx_pkts"
snapshot()
{
	local c
	for c in $counters; do
		printf '%s=%s ' "$c" "$(mrc_counter_sum "$H1" "$MRC_DEV1" "$c")"
	done
}

# The idle pair: done, verified by held_release at the end, QPs kept.
held_start idle -o write -s 65536 -n 4
wait_until 120 held_done idle
check "the idle pair finished its transfer" "0" "$?"
idle_qpn=$(rts_qpns)
check_match "the idle pair's server QP is in RTS" '^[0-9]+$' "$idle_qpn"

# The live pair, long enough to outlast the injector (checked below): MRC_INJECT_MSGS
# SENDs of 64 KiB, four in flight. The injector (Python) runs about as fast under
# either kernel, the transfer four times slower under the debug kernel: 20 to 35 s,
# about three times the injector's time, in either.
if mrc_debug_kernel; then
	msgs=${MRC_INJECT_MSGS:-2000}
else
	msgs=${MRC_INJECT_MSGS:-8000}
fi
ip netns exec "$H1" timeout "$held_limit" "$MRC_XFER" -d "$MRC_DEV1" -g "$MRC_GID1" \
	-t "$MRC_XFER_TIMEOUT" -p 18701 -o send -s 64k -n "$msgs" \
	>"$MRC_HELD_DIR/live.srv" 2>&1 &
live_srv=$!
wait_port "$live_srv" 18701
ip netns exec "$H2" timeout "$held_limit" "$MRC_XFER" -d "$MRC_DEV2" -g "$MRC_GID2" \
	-t "$MRC_XFER_TIMEOUT" -p 18701 -o send -s 64k -n "$msgs" \
	"$MRC_SERVER_ADDR" >"$MRC_HELD_DIR/live.cli" 2>&1 &
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
check "mrc-inject exit status" "0" "$?"
grep '^# mrc-inject seed' "$MRC_HELD_DIR/inject.err"
after=$(snapshot)
t_inject=$((SECONDS - t0))
rts_after=$(rts_qpns | sort -n | paste -sd ' ')
echo "# $out"
j() { jq -r "$1" <<<"$out"; }

# The transfer was running from before the first packet to after the last.
check "the live transfer ran while the injector fired (peer packets before, during, at the end)" \
	"yes yes yes" \
	"$([ "$(j .peer_packets_before)" -gt 0 ] && echo yes) $([ "$(j .peer_packets_during)" -gt 0 ] && echo yes) $([ "$(j .peer_packets_at_end)" -gt 0 ] && echo yes)"

wait "$live_cli"
cli_rc=$?
echo "# injector ${t_inject} s, live transfer $((SECONDS - t0)) s from the injector's start"
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

# delta NAME: how much counter NAME grew across the injection
delta()
{
	local b a
	b=$(grep -o "$1=[0-9]*" <<<"$before") a=$(grep -o "$1=[0-9]*" <<<"$after")
	echo $((${a#*=} - ${b#*=}))
}
check "every packet from a stranger's address counted (rx_bad_src_addr)" \
	"$(j '.expect.rx_bad_src_addr')" "$(delta rx_bad_src_addr)"
check "every damaged packet counted (rx_bad_icrc)" "$(j '.expect.rx_bad_icrc')" "$(delta rx_bad_icrc)"
check "every rule-breaking packet, and every one for no QP, counted (rx_malformed + rx_no_qp)" \
	"$(($(j '.expect.rx_malformed') + $(j '.expect["rx_no_qp|rx_malformed"]')))" \
	"$(($(delta rx_malformed) + $(delta rx_no_qp)))"
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
