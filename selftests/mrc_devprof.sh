#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A device names an EV and a CC profile, and its QPs follow them: the EV count and
# min_active of the profile shape the EV set of the next connection and the CC
# profile its window (seen with "mrcctl qp show" on a held, checksummed transfer),
# a change of a named profile reaches the next connection, "none" returns to the
# module's settings. The controller's probe of one EV of such a connection answers
# with its RTT, or ETIMEDOUT on a blackholed plane. Every refused request gets its
# errno and message; a named profile cannot go offline; callers without
# CAP_NET_ADMIN get EPERM.
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_xfer
mrc_require_setpriv
mrc_require_cmds tc jq
MRC_HELD_DIR=$(mktemp -d)
trap 'touch "$MRC_HELD_DIR/release"; wait; mrc_dev_pair_del; topo_destroy; rm -rf "$MRC_HELD_DIR"' EXIT
topo_create 2 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
mrc_load || { echo "# modprobe mrc failed"; exit $KSFT_FAIL; }
c1() { "$MRCCTL" -n "$H1" "$@"; }
c2() { "$MRCCTL" -n "$H2" "$@"; }

# ---- naming profiles ---------------------------------------------------------------

for c in c1 c2; do
	$c evprofile add 7 evs 16 min-active 5 backups 2
	$c evprofile set 7 state online
	# A fixed window, so that the QPs' cwnd shows the profile took effect.
	$c ccprofile add 3 min-cwnd 300000 max-cwnd 300000
	$c ccprofile set 3 state online
done
check "profiles online on both hosts" "online online online online" \
	"$(for c in c1 c2; do $c -j evprofile show 7 | jq -r '.[0].state'
		$c -j ccprofile show 3 | jq -r '.[0].state'; done | paste -sd ' ')"
c1 evprofile add 8
c1 evprofile add 9 mode exp entries 1,2,3 min-active 1
c1 evprofile set 9 state online

expect_nlerr "dev add naming a missing evprofile" ENOENT "no such evprofile" \
	c1 dev add mrcx plane p0 evprofile 99
expect_nlerr "dev add naming an evprofile in state init" EINVAL "evprofile is not online" \
	c1 dev add mrcx plane p0 evprofile 8
expect_nlerr "dev add naming an exp-mode evprofile" EOPNOTSUPP \
	"only auto-mode udp or stev evprofiles can be named by a device so far" \
	c1 dev add mrcx plane p0 evprofile 9
expect_nlerr "dev add naming a missing ccprofile" ENOENT "no such ccprofile" \
	c1 dev add mrcx plane p0 ccprofile 98
expect_nlerr "dev add with a profile id out of range" ERANGE "integer out of range" \
	c1 dev add mrcx plane p0 evprofile 65536
check "refused dev add created nothing" "[]" "$(c1 -j dev show)"

mrc_dev_pair 2 || exit $KSFT_FAIL
check "a new device names no profile" "dev $MRC_DEV1 planes 2" "$(c1 dev show | head -n 1)"
check "a new device names no profile (JSON)" "0 0" \
	"$(c1 -j dev show | jq -r '.[0] | "\(.evprofile) \(.ccprofile)"')"
expect_nlerr "dev set on a missing device" ENODEV "no such mrc device" \
	c1 dev set nosuch evprofile 7
expect_nlerr "dev set naming a missing evprofile" ENOENT "no such evprofile" \
	c1 dev set "$MRC_DEV1" evprofile 99
for c in c1 c2; do
	dev=$MRC_DEV1
	[ $c = c2 ] && dev=$MRC_DEV2
	run_rc $c dev set "$dev" evprofile 7 ccprofile 3
	check "dev set $dev evprofile 7 ccprofile 3" "0" "$rc"
done
check "dev show names the profiles" "dev $MRC_DEV1 planes 2 evprofile 7 ccprofile 3" \
	"$(c1 dev show | head -n 1)"
check "dev show names the profiles (JSON)" "7 3" \
	"$(c1 -j dev show | jq -r '.[0] | "\(.evprofile) \(.ccprofile)"')"
expect_nlerr "a named evprofile cannot go offline" EBUSY \
	"evprofile is named by a device, it stays online" c1 evprofile set 7 state offline
expect_nlerr "a named ccprofile cannot go offline" EBUSY \
	"ccprofile is named by a device, it stays online" c1 ccprofile set 3 state offline
check "the refused requests left both profiles online" "online online" \
	"$(c1 -j evprofile show 7 | jq -r '.[0].state') $(c1 -j ccprofile show 3 | jq -r '.[0].state')"

# ---- the QPs follow ----------------------------------------------------------------

# held_qp WHAT: a checksummed transfer whose QPs stay connected afterwards; sets
# $seen to the client QP's "ev_count min_active cwnd" from mrcctl qp show, and
# $qpn, $slot1 (a slot on plane 1) and $nevs, then leaves the pair held.
held_qp()
{
	local js
	held_start "$1" -o write -s 64k -n 16 -q 4 || return 1
	wait_until "$held_limit" held_done "$1"
	js=$(c2 -j qp show dev "$MRC_DEV2")
	seen=$(echo "$js" | jq -r '.[0] | "\(.ev_count) \(.min_active) \(.cwnd)"')
	qpn=$(echo "$js" | jq -r '.[0].qpn')
	slot1=$(echo "$js" | jq -r '[.[0].evs[] | select(.plane == 1)][0].slot')
	nevs=$(echo "$js" | jq -r '.[0].ev_count')
}

held_qp a
check "the connection follows evprofile 7 and ccprofile 3" "16 5 300000" "$seen"
held_release a "evprofile 7, ccprofile 3"

c2 evprofile set 7 min-active 9
held_qp b
check "a named profile's change reaches the next connection" "16 9 300000" "$seen"
held_release b "evprofile 7 changed to min-active 9"

c2 dev set "$MRC_DEV2" evprofile none ccprofile none
check "dev set evprofile none ccprofile none" "dev $MRC_DEV2 planes 2" \
	"$(c2 dev show | head -n 1)"
ev_count=$(cat /sys/module/mrc/parameters/ev_count)
held_qp c
# (the default window moves with the path's delay: only the EV set is exact)
check "without profiles: the module's ev_count and a quarter of it" \
	"$ev_count $((ev_count / 4))" "${seen% *}"
run_rc c2 evprofile set 7 state offline
check "an evprofile no device names may go offline again" "0" "$rc"

# ---- probes ------------------------------------------------------------------------

# On the held connection c: it stays connected and idle, no race with traffic.
check_match "probe: the client's QP and a slot of it on plane 1" '^[0-9]+ [0-9]+$' \
	"$qpn $slot1"
run_rc c2 probe dev "$MRC_DEV2" qpn "$qpn" slot 0
check_match "probe of a live EV answers with its RTT" \
	"^probe dev $MRC_DEV2 qpn $qpn slot 0 plane [01] sport (49|5[0-9]|6[0-5])[0-9]{3} rtt [1-9][0-9]* ns$" \
	"$out"
run_rc c2 -j probe dev "$MRC_DEV2" qpn "$qpn" slot "$slot1"
check "probe of a live EV on plane 1 (JSON)" "0 1 $slot1 true" \
	"$rc $(echo "$out" | jq -r '"\(.plane) \(.slot) \(.rtt_ns > 0)"')"

# Plane 1 blackholed in the client's egress: nothing on it is answered.
tc -n "$H2" qdisc add dev p1 root handle 1: prio
tc -n "$H2" filter add dev p1 parent 1: protocol ip prio 1 u32 \
	match ip protocol 17 0xff action drop
expect_nlerr "probe of a dead EV" ETIMEDOUT "no answer within the timeout" \
	c2 probe dev "$MRC_DEV2" qpn "$qpn" slot "$slot1" timeout 300
tc -n "$H2" qdisc del dev p1 root

expect_nlerr "probe of a slot beyond the set" ERANGE "EV slot beyond the QP's active set" \
	c2 probe dev "$MRC_DEV2" qpn "$qpn" slot "$nevs"
expect_nlerr "probe of a slot beyond any set" ERANGE "integer out of range" \
	c2 probe dev "$MRC_DEV2" qpn "$qpn" slot 256
expect_nlerr "probe with timeout 0" ERANGE "integer out of range" \
	c2 probe dev "$MRC_DEV2" qpn "$qpn" slot 0 timeout 0
expect_nlerr "probe of a missing QP" ENOENT "no such QP" \
	c2 probe dev "$MRC_DEV2" qpn 999999 slot 0
expect_nlerr "probe on a missing device" ENODEV "no such mrc device" \
	c2 probe dev nosuch qpn "$qpn" slot 0
for who in nocap nobody; do
	declare -n as=$who
	run_rc ip netns exec "$H2" "${as[@]}" "$MRCCTL" probe dev "$MRC_DEV2" qpn "$qpn" slot 0
	check "$who: probe refused with EPERM" "2 Error: Operation not permitted (EPERM)" \
		"$rc $out"
done
held_release c "the connection under the probes"

# ---- permissions -------------------------------------------------------------------

for who in nocap nobody; do
	declare -n as=$who
	run_rc ip netns exec "$H1" "${as[@]}" "$MRCCTL" dev set "$MRC_DEV1" evprofile none
	check "$who: dev set refused with EPERM" "2 Error: Operation not permitted (EPERM)" \
		"$rc $out"
done
check "the refused dev set changed nothing" "7" "$(c1 -j dev show | jq -r '.[0].evprofile')"
mrc_finish
