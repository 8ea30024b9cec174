#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The MRC attributes of one QP ("mrcctl qp set", MRC_CMD_QP_SET), given while
# its connection waits in INIT (mrc-xfer --at-init): qp show reports the defaults
# and then what was set; the client's QP takes an EV and a CC profile its device
# does not name, as they were when it named them (its EV count and window show
# it), and may keep 1024 PSNs in flight, while the server's QP accepts only 128
# past the oldest missing one; the transfer verifies with the data intact.
# A connected QP refuses (EBUSY), every bad request gets its errno and message
# and changes nothing, and a caller that neither created the QP nor has
# CAP_NET_ADMIN gets EPERM.
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_xfer
mrc_require_setpriv
mrc_require_cmds jq
MRC_HELD_DIR=$(mktemp -d)
d=$MRC_HELD_DIR
trap 'touch "$d/go" "$d/release"; wait; mrc_dev_pair_del; topo_destroy; rm -rf "$d"' EXIT
topo_create 2 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
mrc_load || { echo "# modprobe mrc failed"; exit $KSFT_FAIL; }
mrc_dev_pair 2 || exit $KSFT_FAIL
c1() { "$MRCCTL" -n "$H1" "$@"; }
c2() { "$MRCCTL" -n "$H2" "$@"; }

# attrs HOST-CMD DEV QPN: what qp show says of the QP's MRC attributes, state first.
attrs()
{
	$1 -j qp show dev "$2" qpn "$3" | jq -r '.[0] | [.state, .evprofile,
		.ccprofile, .mpr, .mpr_dest, .timeout, .retry_linear, .retry_exp] |
		map(tostring) | join(" ")'
}
# inited TAG: both sides of the held pair TAG are in INIT, waiting.
inited()
{
	grep -q '^init qpn ' "$d/$1.cli" && grep -q '^init qpn ' "$d/$1.srv"
}

# Profiles on the client's host only; its device names none of them.
c2 evprofile add 4 evs 16 min-active 3
c2 evprofile set 4 state online
c2 ccprofile add 5 min-cwnd 200000 max-cwnd 200000
c2 ccprofile set 5 state online
c2 evprofile add 6
check "the client's device names no profile" "0 0" \
	"$(c2 -j dev show | jq -r '.[0] | "\(.evprofile) \(.ccprofile)"')"

# ---- in INIT ---------------------------------------------------------------------

held_start a -o write -s 64k -n 32 -q 8 -S 31 --at-init "$d/go" || exit $KSFT_FAIL
wait_until 120 inited a
check "both QPs wait in INIT" "0" "$?"
qc=$(sed -n 's/^init qpn //p' "$d/a.cli")
qs=$(sed -n 's/^init qpn //p' "$d/a.srv")
check "defaults: init, device's profiles, MPRs 2 and 8, timeout and retries of verbs" \
	"init 0 0 2 8 0 0 6" "$(attrs c2 "$MRC_DEV2" "$qc")"

run_rc c2 qp set dev "$MRC_DEV2" qpn "$qc" evprofile 4 ccprofile 5 mpr 8 timeout 12 \
	retry-linear 3 retry-exp infinite
check "client: qp set evprofile 4 ccprofile 5 mpr 8 timeout 12 retry-linear 3 retry-exp infinite" \
	"0" "$rc"
run_rc c1 qp set dev "$MRC_DEV1" qpn "$qs" mpr-dest 1
check "server: qp set mpr-dest 1" "0" "$rc"
set_c="init 4 5 8 8 12 3 25"
check "client: qp show says what was set" "$set_c" "$(attrs c2 "$MRC_DEV2" "$qc")"
check "client: the CC profile's window at once" "200000" \
	"$(c2 -j qp show dev "$MRC_DEV2" qpn "$qc" | jq '.[0].cwnd')"
check "server: qp show says mpr-dest 1 (human)" "1" \
	"$(c1 qp show dev "$MRC_DEV1" qpn "$qs" | sed -nE '1s/.* mpr-dest ([0-9]+) .*/\1/p')"

expect_nlerr "mpr-dest not a power of two" EINVAL "the responder MPR must be a power of two" \
	c1 qp set dev "$MRC_DEV1" qpn "$qs" mpr-dest 3
expect_nlerr "mpr past MRC_MPR_MAX" ERANGE "integer out of range" \
	c2 qp set dev "$MRC_DEV2" qpn "$qc" mpr 9
expect_nlerr "mpr-dest past MRC_MPR_DEST_MAX" ERANGE "integer out of range" \
	c1 qp set dev "$MRC_DEV1" qpn "$qs" mpr-dest 64
expect_nlerr "retry-exp past infinite" ERANGE "integer out of range" \
	c2 qp set dev "$MRC_DEV2" qpn "$qc" retry-exp 26
expect_nlerr "timeout past 31" ERANGE "integer out of range" \
	c2 qp set dev "$MRC_DEV2" qpn "$qc" timeout 32
expect_nlerr "an evprofile in state init" EINVAL "evprofile is not online" \
	c2 qp set dev "$MRC_DEV2" qpn "$qc" evprofile 6
expect_nlerr "a missing evprofile" ENOENT "no such evprofile" \
	c2 qp set dev "$MRC_DEV2" qpn "$qc" evprofile 99
expect_nlerr "a missing ccprofile, beside a valid mpr" ENOENT "no such ccprofile" \
	c2 qp set dev "$MRC_DEV2" qpn "$qc" mpr 1 ccprofile 98
expect_nlerr "a missing QP" ENOENT "no such QP" \
	c2 qp set dev "$MRC_DEV2" qpn 999999 mpr 1
# The GSI QPs (QP1 of each port) carry MADs only and have no MRC attributes.
expect_nlerr "the GSI QP" ENOENT "no such QP" \
	c2 qp set dev "$MRC_DEV2" qpn 1 mpr 1
expect_nlerr "a missing device" ENODEV "no such mrc device" \
	c2 qp set dev nosuch qpn "$qc" mpr 1
# mrcctl sends a QP number alone as it is: the kernel is the one that refuses it.
expect_nlerr "a QP number and nothing to set" EINVAL "no QP attribute to set" \
	c2 qp set dev "$MRC_DEV2" qpn "$qc"
# The QP's owner is root (mrc-xfer ran as root): root without CAP_NET_ADMIN is
# still its owner, nobody is not.
run_rc ip netns exec "$H2" "${nocap[@]}" "$MRCCTL" qp set dev "$MRC_DEV2" qpn "$qc" mpr 8
check "nocap: the owner's uid sets its QP without CAP_NET_ADMIN" "0" "$rc"
run_rc ip netns exec "$H2" "${nobody[@]}" "$MRCCTL" qp set dev "$MRC_DEV2" qpn "$qc" mpr 1
check "nobody: qp set on root's QP refused with EPERM" \
	"2 Error: the QP belongs to another user (EPERM)" "$rc $out"
check "the refused requests changed nothing" "$set_c" "$(attrs c2 "$MRC_DEV2" "$qc")"

# The QP took the profiles as they were: a change now does not reach it.
c2 evprofile set 4 evs 32

# ---- connected -------------------------------------------------------------------

touch "$d/go"
wait_until "$held_limit" held_done a
check "the transfer finished" "0" "$?"
js=$(c2 -j qp show dev "$MRC_DEV2" qpn "$qc")
check "client: evprofile 4 as named (16 EVs, min-active 3), ccprofile 5's window" \
	"16 16 3 200000" "$(jq -r '.[0] | "\(.ev_count) \(.evs | length) \(.min_active) \(.cwnd)"' <<<"$js")"
# mrc-xfer gives RTS a timeout of 14 and retry_cnt 7, as verbs programs do: those
# replace what qp set gave; the rest stays.
check "client at RTS: verbs' timeout and retry_cnt, qp set's other attributes" \
	"rts 4 5 8 8 14 7 25" "$(attrs c2 "$MRC_DEV2" "$qc")"
check "server at RTS: mpr-dest 1" "1" \
	"$(c1 -j qp show dev "$MRC_DEV1" qpn "$qs" | jq '.[0].mpr_dest')"
expect_nlerr "a connected QP" EBUSY "the QP is past RTR: MRC attributes are set before RTS" \
	c2 qp set dev "$MRC_DEV2" qpn "$qc" mpr 1
held_release a "per-QP profiles, mpr 8 against mpr-dest 1"

mrc_finish
