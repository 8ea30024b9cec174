#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A device names an EV and a CC profile, and its QPs follow them: the EV count and
# min_active of the profile shape the EV set of the next connection (seen in the
# client's debugfs EV table during a checksummed transfer), a change of a named
# profile reaches the next connection, "none" returns to the module's settings.
# Every refused request gets its errno and message; a named profile cannot go
# offline; callers without CAP_NET_ADMIN get EPERM.
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_xfer
mrc_require_setpriv
mrc_require_cmds ib_write_bw tc
trap 'mrc_dev_pair_del; topo_destroy' EXIT
topo_create 2 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
mrc_load || { echo "# modprobe mrc failed"; exit $KSFT_FAIL; }
c1() { ip netns exec "$H1" "$MRCCTL" "$@"; }
c2() { ip netns exec "$H2" "$MRCCTL" "$@"; }

# expect_err WHAT ERRNO MESSAGE CMD...: exit status 2 and the exact error line.
expect_err()
{
	local what=$1 errno=$2 msg=$3
	shift 3
	run_rc "$@"
	check "$what: exit status" "2" "$rc"
	check "$what: $errno" "Error: $msg ($errno)" "$out"
}

# ---- naming profiles ---------------------------------------------------------------

for c in c1 c2; do
	$c evprofile add 7 evs 16 min-active 5 backups 2
	$c evprofile set 7 state online
	$c ccprofile add 3
	$c ccprofile set 3 state online
done
check "profiles online on both hosts" "online online online online" \
	"$(for c in c1 c2; do $c -j evprofile show 7 | jq -r '.[0].state'
		$c -j ccprofile show 3 | jq -r '.[0].state'; done | paste -sd ' ')"
c1 evprofile add 8
c1 evprofile add 9 mode exp entries 1,2,3 min-active 1
c1 evprofile set 9 state online

expect_err "dev add naming a missing evprofile" ENOENT "no such evprofile" \
	c1 dev add mrcx plane p0 evprofile 99
expect_err "dev add naming an evprofile in state init" EINVAL "evprofile is not online" \
	c1 dev add mrcx plane p0 evprofile 8
expect_err "dev add naming an exp-mode evprofile" EOPNOTSUPP \
	"only auto-mode udp evprofiles can be named by a device so far" \
	c1 dev add mrcx plane p0 evprofile 9
expect_err "dev add naming a missing ccprofile" ENOENT "no such ccprofile" \
	c1 dev add mrcx plane p0 ccprofile 98
expect_err "dev add with a profile id out of range" ERANGE "integer out of range" \
	c1 dev add mrcx plane p0 evprofile 65536
check "refused dev add created nothing" "[]" "$(c1 -j dev show)"

mrc_dev_pair 2 || exit $KSFT_FAIL
check "a new device names no profile" "dev $MRC_DEV1 planes 2" "$(c1 dev show | head -n 1)"
check "a new device names no profile (JSON)" "0 0" \
	"$(c1 -j dev show | jq -r '.[0] | "\(.evprofile) \(.ccprofile)"')"
expect_err "dev set on a missing device" ENODEV "no such mrc device" \
	c1 dev set nosuch evprofile 7
expect_err "dev set naming a missing evprofile" ENOENT "no such evprofile" \
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
expect_err "a named evprofile cannot go offline" EBUSY \
	"evprofile is named by a device, it stays online" c1 evprofile set 7 state offline
expect_err "a named ccprofile cannot go offline" EBUSY \
	"ccprofile is named by a device, it stays online" c1 ccprofile set 3 state offline
check "the refused requests left both profiles online" "online online" \
	"$(c1 -j evprofile show 7 | jq -r '.[0].state') $(c1 -j ccprofile show 3 | jq -r '.[0].state')"

# ---- the QPs follow ----------------------------------------------------------------

evs=/sys/kernel/debug/mrc/$MRC_DEV2/evs
mib=$(mrc_scaled 8)

# qp_line_seen: the client's debugfs EV table lists a QP with paths (copied to $snap).
snap=$(mktemp)
qp_line_seen() { grep -E '^qpn .* evs [1-9]' "$evs" >"$snap"; }

# xfer_evset WHAT: a checksummed transfer; sets $seen to the "evs N ... min_active M"
# of the client QP's EV set as debugfs showed it during the transfer.
xfer_evset()
{
	local what=$1 watcher
	: >"$snap"
	( wait_until 120 qp_line_seen ) &
	watcher=$!
	check_xfer "$what: mrc-xfer write $mib MiB" -o write -s 1m -n "$mib" -q 4
	wait "$watcher"
	seen=$(awk 'NR == 1 { print "evs", $6, "min_active", $10 }' "$snap")
}

xfer_evset "evprofile 7 (16 EVs, min-active 5)"
check "the connection has the EV set of evprofile 7" "evs 16 min_active 5" "$seen"

c2 evprofile set 7 min-active 9
xfer_evset "evprofile 7 changed to min-active 9"
check "a named profile's change reaches the next connection" "evs 16 min_active 9" "$seen"

c2 dev set "$MRC_DEV2" evprofile none
check "dev set evprofile none" "dev $MRC_DEV2 planes 2 ccprofile 3" "$(c2 dev show | head -n 1)"
xfer_evset "no evprofile"
check "without an evprofile the module's ev_count rules" \
	"evs $(cat /sys/module/mrc/parameters/ev_count) min_active $(($(cat /sys/module/mrc/parameters/ev_count) / 4))" \
	"$seen"
run_rc c2 evprofile set 7 state offline
check "an evprofile no device names may go offline again" "0" "$rc"

# ---- probes ------------------------------------------------------------------------

# A 20-second ib_write_bw keeps one connected QP per side; the probes run meanwhile.
secs=20
(
	run_pair 18515 ib_write_bw -d "$MRC_DEV1" -x "$MRC_GID1" -F -p 18515 -D $secs -- \
		ib_write_bw -d "$MRC_DEV2" -x "$MRC_GID2" -F -p 18515 -D $secs 10.0.0.1
	echo "$srv_rc $cli_rc" >"$snap.rc"
) &
bw=$!
wait_until 60 qp_line_seen
qpn=$(awk 'NR == 1 { print $2 }' "$snap")
check_match "probe: the client's connected QP shows in debugfs" '^[0-9]+$' "$qpn"
slot1=$(awk '$2 == 1 && $3 ~ /^0x/ { print $1; exit }' "$evs")
check_match "probe: the client QP has a slot on plane 1" '^[0-9]+$' "$slot1"
nevs=$(awk 'NR == 1 { print $6 }' "$snap")

run_rc c2 probe dev "$MRC_DEV2" qpn "$qpn" slot 0
check_match "probe of a live EV answers with its RTT" \
	"^probe dev $MRC_DEV2 qpn $qpn slot 0 plane [01] entropy 0x[c-f][0-9a-f]{3} rtt [1-9][0-9]* ns$" "$out"
run_rc c2 -j probe dev "$MRC_DEV2" qpn "$qpn" slot "$slot1"
check "probe of a live EV on plane 1 (JSON)" "0 1 $slot1 true" \
	"$rc $(echo "$out" | jq -r '"\(.plane) \(.slot) \(.rtt_ns > 0)"')"

# Plane 1 blackholed in the client's egress: nothing on it is answered.
tc -n "$H2" qdisc add dev p1 root handle 1: prio
tc -n "$H2" filter add dev p1 parent 1: protocol ip prio 1 u32 \
	match ip protocol 17 0xff action drop
expect_err "probe of a dead EV" ETIMEDOUT "no answer within the timeout" \
	c2 probe dev "$MRC_DEV2" qpn "$qpn" slot "$slot1" timeout 300
tc -n "$H2" qdisc del dev p1 root

expect_err "probe of a slot beyond the set" ERANGE "EV slot beyond the qp's active set" \
	c2 probe dev "$MRC_DEV2" qpn "$qpn" slot "$nevs"
expect_err "probe of a slot beyond any set" ERANGE "integer out of range" \
	c2 probe dev "$MRC_DEV2" qpn "$qpn" slot 256
expect_err "probe with timeout 0" ERANGE "integer out of range" \
	c2 probe dev "$MRC_DEV2" qpn "$qpn" slot 0 timeout 0
expect_err "probe of a missing QP" ENOENT "no such qp" \
	c2 probe dev "$MRC_DEV2" qpn 999999 slot 0
expect_err "probe on a missing device" ENODEV "no such mrc device" \
	c2 probe dev nosuch qpn "$qpn" slot 0
for who in nocap nobody; do
	declare -n as=$who
	run_rc ip netns exec "$H2" "${as[@]}" "$MRCCTL" probe dev "$MRC_DEV2" qpn "$qpn" slot 0
	check "$who: probe refused with EPERM" "2 Error: Operation not permitted (EPERM)" \
		"$rc $out"
done
wait "$bw"
check "ib_write_bw under the probes: both sides exit 0" "0 0" "$(cat "$snap.rc")"
rm -f "$snap" "$snap.rc"

# ---- permissions -------------------------------------------------------------------

for who in nocap nobody; do
	declare -n as=$who
	run_rc ip netns exec "$H1" "${as[@]}" "$MRCCTL" dev set "$MRC_DEV1" evprofile none
	check "$who: dev set refused with EPERM" "2 Error: Operation not permitted (EPERM)" \
		"$rc $out"
done
check "the refused dev set changed nothing" "7" "$(c1 -j dev show | jq -r '.[0].evprofile')"
mrc_finish
