#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every state-changing mrc netlink request (dev add/del, plane set) is refused with EPERM to a caller without
# CAP_NET_ADMIN (root with the capability dropped, and an ordinary user), and the
# refused request changes nothing. The read-only version query stays open to all.
# A controlled Q_Key on a UD QP needs CAP_NET_RAW (root without CAP_NET_ADMIN keeps
# it, the ordinary user has not).
. "$(dirname "$0")/lib.sh"

MRC_RCERR=${MRC_RCERR:-$MRC_TREE/tools/testing/mrc-rcerr/mrc-rcerr}

mrc_require_root
mrc_require_mrcctl
mrc_require_setpriv
[ -x "$MRC_RCERR" ] || mrc_skip "$MRC_RCERR not built (make tools)"
trap topo_destroy EXIT
topo_create 2 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
mrc_load || { echo "# modprobe mrc failed"; exit $KSFT_FAIL; }

for who in nocap nobody; do
	declare -n as=$who
	run_rc ip netns exec "$H1" "${as[@]}" "$MRCCTL" dev add mrc1 plane p0
	check "$who: dev add exits 2" "2" "$rc"
	check "$who: dev add refused with EPERM" \
		"Error: Operation not permitted (EPERM)" "$out"
	check "$who: refused dev add created nothing" "[]" \
		"$("$MRCCTL" -n "$H1" -j dev show)"
done

run_rc "$MRCCTL" -n "$H1" dev add mrc0 plane p0 plane p1
check "root: dev add succeeds" "0" "$rc"
for who in nocap nobody; do
	declare -n as=$who
	run_rc ip netns exec "$H1" "${as[@]}" "$MRCCTL" dev del mrc0
	check "$who: dev del refused with EPERM" \
		"Error: Operation not permitted (EPERM)" "$out"
	check "$who: device survives the refused dev del" "mrc0" \
		"$("$MRCCTL" -n "$H1" -j dev show | jq -r '.[0].name')"
	run_rc ip netns exec "$H1" "${as[@]}" "$MRCCTL" plane set dev mrc0 plane 1 admin down
	check "$who: plane set refused with EPERM" \
		"Error: Operation not permitted (EPERM)" "$out"
	check "$who: plane stays admin up after the refused plane set" "up" \
		"$("$MRCCTL" -n "$H1" -j dev show mrc0 | jq -r '.[0].planes[1].admin')"
	# timeout outside setpriv: like every call here, setpriv itself finds mrcctl,
	# so a tree under /root (mode 0700) works for nobody too
	run_rc ip netns exec "$H1" timeout 20 "${as[@]}" "$MRCCTL" monitor count 1
	check "$who: joining the events group refused with EPERM" \
		"Error: Operation not permitted (EPERM)" "$out"
	run_rc ip netns exec "$H1" "${as[@]}" "$MRCCTL" -j version
	check "$who: version query is allowed" "0" "$rc"
	check "$who: version query answers" "1" "$(echo "$out" | jq -r .genl_version)"
	# mrc-rcerr expects EPERM exactly when its own CapEff lacks CAP_NET_RAW.
	gid=$(mrc_gid_index "$H1" mrc0 1 10.0.0.1)
	run_rc ip netns exec "$H1" "${as[@]}" "$MRC_RCERR" -a mrc0 -A "$gid" -b mrc0 -B "$gid" \
		qkey_priv
	check "$who: controlled Q_Key (mrc-rcerr qkey_priv, $([ $who = nobody ] &&
		echo EPERM || echo allowed))" "0 ok 1 - qkey_priv" \
		"$rc $(grep -E '^(not )?ok ' <<<"$out" | sed 's/ (.*//')"
done
mrc_finish
