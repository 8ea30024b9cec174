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
res=$MRC_PAIR_RES
planes=$MRC_PAIR_PLANES
mrc_load
pair_dev_up

pair_xfer 1 "$gid" -o write -s 1m -n 8
pair_check_xfer 1 "write 8 MiB over $planes planes"

# Round 2: SENDs until b says stop. Once they flow, the host cuts plane 3 at a's NIC:
# b sees carrier but loses the plane's packets, and retires each of the plane's EVs
# (the default 128 EVs spread over the planes); then the host restores the link and
# b's probes take every one of them back; then b stops the transfer.
per_plane=$((128 / planes))
qp_err0=$(mrc_counter_sum "" "$dev" qp_errors)
if [ "$MRC_PAIR_SIDE" = b ]; then
	(
		until grep -q 'transfer started' "$res/2.b.out" 2>/dev/null; do mrc_nap; done
		pair_cut_start 3
		pair_cut_wait
		echo "$?" >"$res/2.cut.rc"
		echo "$(pair_cut_delta ev_assumed_bad) $(pair_cut_delta ev_recovered)" >"$res/2.evs"
		: >"$res/2.stop"
	) &
	cutter=$!
fi
pair_xfer 2 "$gid" -o send -s 64k -n 1000000 --until "$res/2.stop"
pair_check_xfer 2 "SENDs while plane 3 is cut and restored"
if [ "$MRC_PAIR_SIDE" = b ]; then
	wait "$cutter"
	check "the host cut plane 3, b retired its EVs, the host restored it, b took them back" \
		"0" "$(cat "$res/2.cut.rc" 2>/dev/null)"
	check "b retired each of plane 3's $per_plane EVs once and took each back once" \
		"$per_plane $per_plane" "$(cat "$res/2.evs" 2>/dev/null)"
fi
check "$MRC_PAIR_SIDE: no QP errors" "$qp_err0" "$(mrc_counter_sum "" "$dev" qp_errors)"
"$MRCCTL" dev del "$dev"
check "$MRC_PAIR_SIDE: dev del" "0" "$?"
mrc_finish
