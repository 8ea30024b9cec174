#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tearing things down under a running transfer: a plane netdev deleted (one of two,
# then the only one) and the module removed. The tools may fail, but they must exit,
# never report corrupted data, and leave the device usable or cleanly gone; rmmod
# must succeed. The VM harness fails the run on any kernel report.
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_xfer
mrc_require_cmds ss rdma
trap 'kill $spid $cpid 2>/dev/null; mrc_dev_pair_del; topo_destroy' EXIT
mrc_unload
tmp=$(mktemp -d)
spid='' cpid=''

running() { kill -0 "$1" 2>/dev/null && echo running || echo gone; }
# bash reaps its children as they exit, so kill -0 fails once a tool is gone
# shellcheck disable=SC2317
both_gone() { ! kill -0 "$spid" 2>/dev/null && ! kill -0 "$cpid" 2>/dev/null; }
# shellcheck disable=SC2317
rx_above() { [ "$(mrc_counter "$H1" "$MRC_DEV1" 1 rx_pkts)" -gt "$1" ] 2>/dev/null; }

# start_xfer: a long send transfer (ring buffers, so -n costs no memory) in the
# background; returns when data is flowing. The tools get a held pair's time
# (held_limit), not one tool's: starting (up to 90 s of waits under a loaded debug
# kernel) and finish_xfer's 60 s must not reach their timeout, whose 124 means a hang.
start_xfer()
{
	local a=(-o send -s 65536 -n 1000000 -q 8 -t 15)
	: >"$tmp/s"
	: >"$tmp/c"
	ip netns exec "$H1" timeout "$held_limit" "$MRC_XFER" -d "$MRC_DEV1" \
		-g "$MRC_GID1" "${a[@]}" >"$tmp/s" 2>&1 &
	spid=$!
	wait_port "$spid" 18700
	ip netns exec "$H2" timeout "$held_limit" "$MRC_XFER" -d "$MRC_DEV2" \
		-g "$MRC_GID2" "${a[@]}" 10.0.0.1 >"$tmp/c" 2>&1 &
	cpid=$!
	wait_until 60 grep -q 'transfer started' "$tmp/c"
	local base
	base=$(mrc_counter "$H1" "$MRC_DEV1" 1 rx_pkts)
	wait_until 30 rx_above "$((base + 100))"
	check "$1: transfer running before the teardown" "running running" \
		"$(running "$spid") $(running "$cpid")"
}

# stop_xfer WHAT: the transfer goes on (a hundred more packets arrive), and both
# tools end on SIGTERM, not on an error of their own.
stop_xfer()
{
	local what=$1 base src crc
	base=$(mrc_counter "$H1" "$MRC_DEV1" 1 rx_pkts)
	if wait_until 30 rx_above "$((base + 100))"; then
		check "$what: the transfer goes on" "running running" \
			"$(running "$spid") $(running "$cpid")"
	else
		check "$what: the transfer goes on" "100 more packets" \
			"$(($(mrc_counter "$H1" "$MRC_DEV1" 1 rx_pkts) - base)) more packets"
	fi
	kill -TERM "$spid" "$cpid" 2>/dev/null
	wait "$spid"; src=$?
	wait "$cpid"; crc=$?
	spid='' cpid=''
	tool_tails "$what" "$src" "$crc"
	check "$what: both tools ended on SIGTERM" "143 143" "$src $crc"
}

# finish_xfer WHAT: both tools end by themselves with a verbs failure (exit 3)
# within their progress limit (-t 15, which bounds their TCP waits too): never
# 1 (bad data), never hung.
finish_xfer()
{
	local what=$1 src crc
	if ! wait_until 60 both_gone; then
		echo "# $what: the tools did not end, stopping them"
		kill -TERM "$spid" "$cpid" 2>/dev/null
	fi
	wait "$spid"; src=$?
	wait "$cpid"; crc=$?
	spid='' cpid=''
	tool_tails "$what" "$src" "$crc"
	check "$what: both tools ended by themselves with a verbs failure" "3 3" "$src $crc"
}

tool_tails()
{
	echo "# $1: server exit $2, client exit $3"
	sed 's/^/#   server: /' "$tmp/s" | tail -n 3
	sed 's/^/#   client: /' "$tmp/c" | tail -n 3
}

# 1. two planes, the second one goes away: the device keeps plane 0 and works.
topo_create 2 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
mrc_dev_pair 2 || exit $KSFT_FAIL
start_xfer "plane deleted"
ip -n "$H1" link del p1
check "plane deleted: ip link del p1 returns" "0" "$?"
stop_xfer "plane deleted"
check_eventually "plane deleted: $MRC_DEV1 keeps one plane" "1" \
	sh -c "$MRCCTL -n $H1 -j dev show $MRC_DEV1 | jq '.[0].planes | length'"
check_xfer "plane deleted: the device still transfers" -o write -s 65536 -n 16
mrc_dev_pair_del
topo_destroy

# 2. one plane, and it goes away: the device is usable or gone from both views.
topo_create 1 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
mrc_dev_pair 1 || exit $KSFT_FAIL
start_xfer "only plane deleted"
ip -n "$H1" link del p0
check "only plane deleted: ip link del p0 returns" "0" "$?"
finish_xfer "only plane deleted"
in_rdma=$(rdma dev show "$MRC_DEV1" >/dev/null 2>&1 && echo present || echo absent)
in_mrc=$("$MRCCTL" -n "$H1" -j dev show | jq -r --arg d "$MRC_DEV1" \
	'[.[] | select(.name == $d)] | if length > 0 then "present" else "absent" end')
check "only plane deleted: RDMA device and mrc device agree ($in_rdma)" "$in_rdma" "$in_mrc"
mrc_dev_pair_del
topo_destroy

# 3. rmmod under a running transfer
topo_create 1 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
mrc_dev_pair 1 || exit $KSFT_FAIL
start_xfer "rmmod"
run_rc timeout 120 rmmod mrc
check "rmmod mrc during a transfer succeeds" "0" "$rc"
[ "$rc" = 0 ] || echo "# $out"
finish_xfer "rmmod"
if [ -d /sys/module/mrc ]; then	# leave a clean machine for the next test
	timeout 60 rmmod mrc 2>/dev/null
fi
check "lsmod no longer lists mrc" "" "$(lsmod | awk '$1 == "mrc"')"
check "no mrc RDMA device left" "" "$(rdma dev show 2>/dev/null | grep -E "$MRC_DEV1|$MRC_DEV2")"
rm -rf "$tmp"
mrc_finish
