#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Between two kernels (run by tools/testing/vm/pair.sh, both guests running this file):
# an mrc device in each guest over its virtio-net planes, so that every packet crosses
# a NIC driver and QEMU's wire. A transfer from b to a, verified by digest on both
# sides; then SENDs during which the host cuts plane 3's link at a's NIC and restores
# it: they complete with the same data on both sides, b retired each EV of plane 3
# once and took each back once, and no QP failed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_pair.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_xfer
dev=mrc-$MRC_PAIR_SIDE
res=$MRC_PAIR_RES
planes=$MRC_PAIR_PLANES
mrc_load
pair_nics
check "$MRC_PAIR_SIDE: $planes plane NICs named and addressed" "0" "$?"
# shellcheck disable=SC2046
"$MRCCTL" dev add "$dev" $(topo_plane_args "$planes")
check "$MRC_PAIR_SIDE: dev add $dev over $planes planes" "0" "$?"
wait_until 20 mrc_gid_index "" "$dev" 1 "10.0.0.$MRC_PAIR_HOST"
gid=$(mrc_gid_index "" "$dev" 1 "10.0.0.$MRC_PAIR_HOST")
check_match "$MRC_PAIR_SIDE: the GID of 10.0.0.$MRC_PAIR_HOST" '^[0-9]+$' "$gid"
pair_mark dev
pair_wait dev
check "$MRC_PAIR_SIDE: the other guest's device is up" "0" "$?"

# xfer ROUND ARGS...: one mrc-xfer between the guests, a's the server; each side's
# exit status and verdict line land in the rendezvous as ROUND.SIDE.
xfer()
{
	local round=$1 rc pid
	shift
	if [ "$MRC_PAIR_SIDE" = a ]; then
		timeout "$MRC_TOOL_TIMEOUT" "$MRC_XFER" -d "$dev" -g "$gid" \
			-t "$MRC_TOOL_TIMEOUT" "$@" >"$res/$round.a.out" 2>&1 &
		pid=$!
		wait_port "$pid" 18700 && pair_mark "$round.listening"
		wait "$pid"
		rc=$?
	else
		pair_wait "$round.listening" 120
		timeout "$MRC_TOOL_TIMEOUT" "$MRC_XFER" -d "$dev" -g "$gid" \
			-t "$MRC_TOOL_TIMEOUT" "$@" 10.0.0.1 >"$res/$round.b.out" 2>&1
		rc=$?
	fi
	echo "$rc" >"$res/$round.$MRC_PAIR_SIDE.rc"
	pair_mark "$round.done"
	pair_wait "$round.done" "$MRC_TOOL_TIMEOUT"
}

# check_round ROUND WHAT: both sides exited 0 and saw the same data.
check_round()
{
	local a b
	check "$2: a's and b's exit status" "0 0" \
		"$(cat "$res/$1.a.rc" 2>/dev/null) $(cat "$res/$1.b.rc" 2>/dev/null)"
	a=$(grep -E '^ok ' "$res/$1.a.out" | sed 's/ secs=.*//')
	b=$(grep -E '^ok ' "$res/$1.b.out" | sed 's/ secs=.*//')
	check_match "$2: b verified" '^ok bytes=[0-9]+ msgs=[0-9]+ digest=' "$b"
	check "$2: both sides saw the same data" "$b" "$a"
	[ -n "$a" ] && [ -n "$b" ] ||
		printf '# a: %s\n# b: %s\n' "$(tail -n 4 "$res/$1.a.out" | paste -sd '|')" \
			"$(tail -n 4 "$res/$1.b.out" | paste -sd '|')"
}

xfer 1 -o write -s 1m -n 8
check_round 1 "write 8 MiB over $planes planes"

# Round 2: SENDs until b says stop. Once they flow, the host cuts plane 3 at a's NIC:
# b sees carrier but loses the plane's packets, and retires each of the plane's EVs
# (the default 128 EVs spread over the planes); then the host restores the link and
# b's probes take every one of them back; then b stops the transfer.
per_plane=$((128 / planes))
bad0=$(mrc_counter "" "$dev" 4 ev_assumed_bad)
rec0=$(mrc_counter "" "$dev" 4 ev_recovered)
qp_err0=$(mrc_counter_sum "" "$dev" qp_errors)
# counter_reached NAME FROM: port 4's NAME rose by per_plane EVs from FROM.
counter_reached()
{
	[ $(($(mrc_counter "" "$dev" 4 "$1") - $2)) -ge "$per_plane" ]
}
if [ "$MRC_PAIR_SIDE" = b ]; then
	(
		rc=1
		until grep -q 'transfer started' "$res/2.b.out" 2>/dev/null; do mrc_nap; done
		pair_link 3 off && wait_until 60 counter_reached ev_assumed_bad "$bad0" &&
			pair_link 3 on && wait_until 60 counter_reached ev_recovered "$rec0" && rc=0
		: >"$res/2.stop"
		echo "$rc" >"$res/2.cut.rc"
	) &
	cutter=$!
fi
xfer 2 -o send -s 64k -n 1000000 --until "$res/2.stop"
check_round 2 "SENDs while plane 3 is cut and restored"
if [ "$MRC_PAIR_SIDE" = b ]; then
	wait "$cutter"
	check "the host cut plane 3, b retired its EVs, the host restored it, b took them back" \
		"0" "$(cat "$res/2.cut.rc" 2>/dev/null)"
	check "b retired each of plane 3's $per_plane EVs once" "$per_plane" \
		"$(($(mrc_counter "" "$dev" 4 ev_assumed_bad) - bad0))"
	check "b took each of them back once" "$per_plane" \
		"$(($(mrc_counter "" "$dev" 4 ev_recovered) - rec0))"
fi
check "$MRC_PAIR_SIDE: no QP errors" "$qp_err0" "$(mrc_counter_sum "" "$dev" qp_errors)"
"$MRCCTL" dev del "$dev"
check "$MRC_PAIR_SIDE: dev del" "0" "$?"
mrc_finish
