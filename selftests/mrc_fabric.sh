#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The SRv6 test fabric of lib_fabric.sh, checked with the kernel's own SRv6 (no mrc
# data path): a uSID carrier takes exactly the spine it names, in every plane; a
# two-segment SRH path works; plain routing reaches the peer and ECMP spreads UDP
# source ports over the spines; a spine taken down (or an uplink blackholed) stops
# its carriers only, and comes back; fabric_destroy leaves no namespace behind.
# The per-spine counters are the packets a spine received from host 1's T0.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fabric.sh"

mrc_require_root
mrc_require_cmds ping tc
trap fabric_destroy EXIT

# the full 2 x 8 x 4 fabric; 2 planes and 2 spines under the debug kernel
fabric_create
rc=$?
check "fabric_create" "0" "$rc"
[ "$rc" = 0 ] || exit $KSFT_FAIL
P=$FABRIC_PLANES S=$FABRIC_SPINES

# plane_rx P: what each spine of plane P received from host 1's T0, in spine order
plane_rx()
{
	local s
	for ((s = 1; s <= S; s++)); do
		fabric_spine_rx "$1" "$s" t1
	done
}

# via P S [SRH]: h1 <-> h2 traffic of plane P source-routed over spine S both ways
# (the replies too, so that no other spine sees even a neighbour solicitation);
# with SRH, as two segments: a carrier ending at the peer's T0, then the peer's NIC.
via()
{
	local p=$1 s=$2 fwd rev
	if [ -n "${3:-}" ]; then
		fwd=fc00:0:$(fabric_usid 1 "$p" 1):$(fabric_usid 2 "$p" "$s"):$(fabric_usid 1 "$p" 2)::
		fwd+=,fc00:0:$(fabric_usid 3 "$p" 2)::
		rev=fc00:0:$(fabric_usid 1 "$p" 2):$(fabric_usid 2 "$p" "$s"):$(fabric_usid 1 "$p" 1)::
		rev+=,fc00:0:$(fabric_usid 3 "$p" 1)::
	else
		fwd=$(fabric_carrier "$p" 1 "$s" 2)
		rev=$(fabric_carrier "$p" 2 "$s" 1)
	fi
	ip -n "$H1" -6 route replace "fd00:$p::2/128" encap seg6 mode encap segs "$fwd" dev "p$p" &&
		ip -n "$H2" -6 route replace "fd00:$p::1/128" encap seg6 mode encap segs "$rev" dev "p$p"
}

ping_peer()
{
	ip netns exec "$H1" ping -c 1 -W 2 "fd00:$1::2" >/dev/null 2>&1
}

# moved BEFORE AFTER S: empty when only spine S's counter went up (by at least
# one), else what went wrong.
moved()
{
	local -a b=($1) a=($2)
	local i d bad=""
	for ((i = 1; i <= S; i++)); do
		d=$((a[i - 1] - b[i - 1]))
		if [ "$i" = "$3" ]; then
			[ "$d" -ge 1 ] || bad+=" spine $i (the one named) +$d;"
		elif [ "$d" != 0 ]; then
			bad+=" spine $i +$d;"
		fi
	done
	echo "$bad"
}

# (a) every plane, every spine: the carrier picks the spine
for ((p = 0; p < P; p++)); do
	bad=""
	before=$(plane_rx "$p")
	for ((s = 1; s <= S; s++)); do
		via "$p" "$s" && ping_peer "$p" || bad+=" spine $s: no reply;"
		after=$(plane_rx "$p")
		bad+=$(moved "$before" "$after" "$s")
		before=$after
	done
	check "plane $p: the carrier over spine s reaches h2 through spine s only (s = 1..$S)" \
		"" "$bad"
done

# (b) a segment list of two carriers (an SRH the peer's T0 processes)
bad=""
before=$(plane_rx 0)
via 0 "$S" srh && ping_peer 0 || bad="no reply;"
bad+=$(moved "$before" "$(plane_rx 0)" "$S")
check "SRH path to h2's T0 then h2's NIC over spine $S: a reply, through spine $S only" "" "$bad"

# (c) plain routing, no source routing: the peer is reachable over IPv6 and IPv4,
# and different UDP source ports are hashed onto more than one spine
ip -n "$H1" -6 route del fd00:0::2/128
ip -n "$H2" -6 route del fd00:0::1/128
ping_peer 0
rc6=$?
ip netns exec "$H1" ping -c 1 -W 2 10.0.0.2 >/dev/null 2>&1
check "plain routing: h1 reaches h2 over IPv6 and IPv4 (exit status)" "0 0" "$rc6 $?"

n=$(mrc_scaled 200)
mapfile -t b < <(plane_rx 0)
# bash's /dev/udp opens a new socket, so a new source port, for every datagram
# shellcheck disable=SC2016
ip netns exec "$H1" bash -c 'for ((i = 0; i < $1; i++)); do
	echo x >/dev/udp/fd00:0::2/9; done' bash "$n" 2>/dev/null
mapfile -t a < <(plane_rx 0)
used=0 sum=0 d=()
for ((s = 1; s <= S; s++)); do
	d+=($((a[s - 1] - b[s - 1])))
	[ "${d[s - 1]}" -gt 0 ] && used=$((used + 1))
	sum=$((sum + d[s - 1]))
done
verdict="not spread"
[ "$used" -gt 1 ] && [ "$sum" -ge "$n" ] && verdict=spread
check "ECMP: $n UDP flows over $used of $S spines (per spine: ${d[*]})" spread "$verdict"

# (d) a spine down stops its carrier only; up again, the carrier works again.
# The same for a blackholed uplink (h1's T0 to that spine), whose carrier stays up.
other=$((S > 1 ? 1 : S))
path_state()
{
	local down up
	via 0 "$S" && ping_peer 0 && down=ok || down=fail
	via 0 "$other" && ping_peer 0 && up=ok || up=fail
	echo "$down $up"
}
fabric_spine_down 0 "$S"
got=$(path_state)
fabric_spine_up 0 "$S"
via 0 "$S" && wait_until 10 ping_peer 0 && got+=" ok" || got+=" fail"
check "spine $S of plane 0 down: its carrier fails, spine $other's works; up: it works" \
	"fail ok ok" "$got"

fabric_uplink_blackhole 0 1 "$S"
got=$(path_state)
fabric_uplink_restore 0 1 "$S"
via 0 "$S" && wait_until 10 ping_peer 0 && got+=" ok" || got+=" fail"
check "uplink t0p0h1 - t1p0s$S blackholed: its carrier fails, spine $other's works; restored: it works" \
	"fail ok ok" "$got"

# (e) nothing left behind, and a second fabric_destroy is harmless
fabric_destroy
rc1=$?
fabric_destroy
rc2=$?
left=$(ip netns list | grep -c -e "-$MRC_SUFFIX\( \|$\)")
check "fabric_destroy twice: exit status, namespaces left" "0 0 0" "$rc1 $rc2 $left"

mrc_finish
