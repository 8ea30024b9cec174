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
mrc_require_cmds ping tc paste "$FABRIC_PYTHON"
trap fabric_destroy EXIT

# the full 2 x 8 x 4 fabric; 2 planes and 2 spines under the debug kernel
fabric_create
rc=$?
check "fabric_create" "0" "$rc"
[ "$rc" = 0 ] || exit $KSFT_FAIL
P=$FABRIC_PLANES S=$FABRIC_SPINES

# snap ARRAY PLANE...: ARRAY[t1p<p>s<s>] = what spine s of each PLANE received from
# host 1's T0 (its link t1), read in one process
# shellcheck disable=SC2034 # into is a nameref to the caller's array
snap()
{
	local -n into=$1
	local p s n=() sw ifn rx
	shift
	for p in "$@"; do
		for ((s = 0; s < S; s++)); do
			n+=("t1p${p}s$s")
		done
	done
	while read -r sw ifn rx _; do
		[ "$ifn" = t1 ] && into["$sw"]=$rx
	done <<<"$(fabric_counters "${n[@]}")"
}

# moved P S: empty when, from snapshot b to snapshot a, spine S of plane P received
# at least one packet from host 1's T0 and no other spine of P any, else what moved
moved()
{
	local i k d bad=""
	for ((i = 1; i <= S; i++)); do
		k=t1p$1s$i
		d=$((${a[$k]} - ${b[$k]}))
		if [ "$i" = "$2" ]; then
			[ "$d" -ge 1 ] || bad+=" spine $i (the one named) +$d;"
		elif [ "$d" != 0 ]; then
			bad+=" spine $i +$d;"
		fi
	done
	echo "$bad"
}

# via_all S: h1 <-> h2 traffic of every plane source-routed over spine S both ways
# (the replies too: plain routing could send them through any spine).
via_all()
{
	local s=$1 p fwd=() rev=()
	for ((p = 0; p < P; p++)); do
		fwd+=("route replace fd00:$p::2/128 encap seg6 mode encap segs $(fabric_carrier "$p" 1 "$s" 2) dev p$p")
		rev+=("route replace fd00:$p::1/128 encap seg6 mode encap segs $(fabric_carrier "$p" 2 "$s" 1) dev p$p")
	done
	printf '%s\n' "${fwd[@]}" | ip -n "$H1" -batch - &&
		printf '%s\n' "${rev[@]}" | ip -n "$H2" -batch -
}

# via P S [SRH]: the same for plane P only; with SRH, as two segments: a carrier
# ending at the peer's T0, then the peer's NIC uSID.
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

# ping_all: the planes whose peer did not answer one ping (one shell for all)
ping_all()
{
	# shellcheck disable=SC2016
	ip netns exec "$H1" sh -c 'p=0; while [ $p -lt $1 ]; do
		ping -c 1 -W 2 "fd00:$p::2" >/dev/null 2>&1 || echo "$p"
		p=$((p + 1)); done' sh "$P"
}

declare -A a b bad
all=()
for ((p = 0; p < P; p++)); do
	all+=("$p")
done

# (a) every spine in turn, in all planes at once: the carrier picks the spine
snap b "${all[@]}"
for ((s = 0; s < S; s++)); do
	via_all "$s" || bad[route]+=" spine $s;"
	failed=" $(ping_all | paste -sd ' ') "
	snap a "${all[@]}"
	for ((p = 0; p < P; p++)); do
		[[ $failed == *" $p "* ]] && bad[$p]+=" spine $s: no reply;"
		bad[$p]+=$(moved "$p" "$s")
	done
	for k in "${!a[@]}"; do
		b["$k"]=${a[$k]}
	done
done
check "carriers installed on both hosts" "" "${bad[route]:-}"
for ((p = 0; p < P; p++)); do
	check "plane $p: the carrier over spine s reaches h2 through spine s only (s = 0..$((S - 1)))" \
		"" "${bad[$p]:-}"
done

# (b) a segment list of two carriers (an SRH the peer's T0 processes), over the
# last spine
last=$((S - 1))
snap b 0
via 0 "$last" srh && ping_peer 0 && got="" || got="no reply;"
snap a 0
got+=$(moved 0 "$last")
check "SRH path to h2's T0 then h2's NIC over spine $last: a reply, through spine $last only" "" "$got"

# (c) plain routing, no source routing: the peer is reachable over IPv6 and IPv4,
# and different UDP source ports are hashed onto more than one spine
ip -n "$H1" -6 route del fd00:0::2/128
ip -n "$H2" -6 route del fd00:0::1/128
ping_peer 0
rc6=$?
ip netns exec "$H1" ping -c 1 -W 2 10.0.0.2 >/dev/null 2>&1
check "plain routing: h1 reaches h2 over IPv6 and IPv4 (exit status)" "0 0" "$rc6 $?"

flows=$(mrc_scaled 200)
snap b 0
# bash's /dev/udp opens a new socket, so a new source port, for every datagram
# shellcheck disable=SC2016
ip netns exec "$H1" bash -c 'for ((i = 0; i < $1; i++)); do
	echo x >/dev/udp/fd00:0::2/9; done' bash "$flows" 2>/dev/null
snap a 0
used=0 sum=0 per=()
for ((s = 0; s < S; s++)); do
	k=t1p0s$s
	per+=("$((${a[$k]} - ${b[$k]}))")
	[ "${per[s]}" -gt 0 ] && used=$((used + 1))
	sum=$((sum + per[s]))
done
verdict="not spread"
[ "$used" -gt 1 ] && [ "$sum" -ge "$flows" ] && verdict=spread
check "ECMP: $flows UDP flows over $used of $S spines (per spine: ${per[*]})" spread "$verdict"

# (d) a spine down stops its carrier only; up again, the carrier works again.
# The same for a blackholed uplink (h1's T0 to that spine), whose carrier stays up.
other=0
path_state()
{
	local down up
	via 0 "$last" && ping_peer 0 && down=ok || down=fail
	via 0 "$other" && ping_peer 0 && up=ok || up=fail
	echo "$down $up"
}
fabric_spine_down 0 "$last"
got=$(path_state)
fabric_spine_up 0 "$last"
via 0 "$last" && wait_until 10 ping_peer 0 && got+=" ok" || got+=" fail"
check "spine $last of plane 0 down: its carrier fails, spine $other's works; up: it works" \
	"fail ok ok" "$got"

fabric_uplink_blackhole 0 1 "$last"
got=$(path_state)
fabric_uplink_restore 0 1 "$last"
via 0 "$last" && wait_until 10 ping_peer 0 && got+=" ok" || got+=" fail"
check "uplink t0p0h1 - t1p0s$last blackholed: its carrier fails, spine $other's works; restored: it works" \
	"fail ok ok" "$got"

# (e) nothing left behind, and a second fabric_destroy is harmless
fabric_destroy
rc1=$?
fabric_destroy
rc2=$?
left=$(ip netns list | grep -c -e "-$MRC_SUFFIX\( \|$\)")
check "fabric_destroy twice: exit status, namespaces left" "0 0 0" "$rc1 $rc2 $left"

mrc_finish
