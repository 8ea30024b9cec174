#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A two-tier SRv6 test fabric in network namespaces, for tests that want real paths
# between the hosts instead of topo_create's back-to-back veths. Source it after
# lib.sh. Documentation/testing.md ("The SRv6 fabric") draws it; in short:
#
#   plane p (0-based, one independent network per plane netdev p<p>):
#     host h (1-based) --p<p>/h<h>--> T0 t0p<p>h<h> --s<s>/t<h>--> spine t1p<p>s<s>
#     (spines 0-based: a GEN template ORs the uplink number into the spine uSID)
#   every T0 of a plane is linked to every spine of that plane.
#
# Interfaces (each switch has its own namespace, so the names repeat): a host's plane
# netdev is p<p> (as in topo_create, so topo_plane_args, mrcctl dev add and the GID
# helpers work unchanged); on a T0, h<h> faces its host and s<s> spine s; on a spine,
# t<h> faces host h's T0. On every link the lower tier has fe80::2 and the upper tier
# fe80::1, set explicitly so that every static route names its next hop.
#
# Addresses: host h on plane p has fd00:<p>::<h>/64 and 10.<p>.0.<h>/24, both
# noprefixroute: all hosts of a plane share the /64 (the module derives a peer's
# address on plane k from plane k's prefix and the host part) but reach each other
# only through the fabric. IPv4 is routed over the IPv6 link-local next hops.
#
# uSIDs (16 bits each after the 32-bit locator fc00:0000::/32, the same in every
# plane): tier << 12 | plane << 8 | index, tier 1 = T0 (index = its host), 2 = spine
# (index = spine, 0-based), 3 = host NIC (index = host). The carrier from host a to
# host b over spine s of plane p is fc00:0:1pa:2ps:1pb:3pb:: with each uSID written
# as four hex digits, e.g. fc00:0:1001:2001:1002:3002:: (plane 0, spine 1, h1 -> h2;
# spine 0 is 2000).

H3=mrc-h3-$MRC_SUFFIX
H4=mrc-h4-$MRC_SUFFIX
export H1 H2 H3 H4

FABRIC_HOSTS=0
FABRIC_PLANES=0
FABRIC_SPINES=0
# every namespace fabric_create made (fabric_destroy removes exactly these)
FABRIC_NS=()

# fabric_ns NAME: the namespace of h<h> (a host), t0p<p>h<h> (a T0) or t1p<p>s<s>
# (a spine).
fabric_ns()
{
	case $1 in
	h[1-4]) local v=H${1#h}; echo "${!v}" ;;
	t0p*h* | t1p*s*) echo "mrc-$1-$MRC_SUFFIX" ;;
	*) echo "fabric_ns: no switch or host named $1" >&2; return 1 ;;
	esac
}

# fabric_usid TIER PLANE INDEX: the uSID as four hex digits.
fabric_usid()
{
	printf '%x\n' $(($1 << 12 | $2 << 8 | $3))
}

# fabric_mac P H S END: the MAC address of one end of a link, fixed so that every
# neighbour entry can be static: no neighbour discovery on the fabric (the paper's
# switches are configured once), and no solicitation or reachability probe shows up
# in the counters tests read. S = h: host H's link to its T0, else the spine; END 2
# is the lower tier's end (host or T0, fe80::2), 1 the upper's (T0 or spine, fe80::1).
fabric_mac()
{
	if [ "$3" = h ]; then
		printf '02:01:%02x:%02x:00:%02x\n' "$1" "$2" "$4"
	else
		printf '02:02:%02x:%02x:%02x:%02x\n' "$1" "$2" "$3" "$4"
	fi
}

# fabric_carrier PLANE A SPINE B: the uSID carrier (outer destination) that takes a
# packet from host A to host B's NIC over SPINE of PLANE.
fabric_carrier()
{
	printf 'fc00:0:%x:%x:%x:%x::\n' $((1 << 12 | $1 << 8 | $2)) \
		$((2 << 12 | $1 << 8 | $3)) $((1 << 12 | $1 << 8 | $4)) \
		$((3 << 12 | $1 << 8 | $4))
}

# fabric_paths A B: the path table from host A to host B, one line per plane and
# spine: plane, spine, carrier, the switches crossed.
fabric_paths()
{
	local a=$1 b=$2 p s
	echo "# plane spine carrier switches (h$a -> h$b)"
	for ((p = 0; p < FABRIC_PLANES; p++)); do
		for ((s = 0; s < FABRIC_SPINES; s++)); do
			printf '# %d %d fc00:0:%x:%x:%x:%x:: t0p%dh%d t1p%ds%d t0p%dh%d\n' \
				"$p" "$s" $((1 << 12 | p << 8 | a)) $((2 << 12 | p << 8 | s)) \
				$((1 << 12 | p << 8 | b)) $((3 << 12 | p << 8 | b)) \
				"$p" "$a" "$p" "$s" "$p" "$b"
		done
	done
}

# The uN switch behaviour: match the switch's own /48, shift the remaining uSIDs
# left by 16 bits (End with NEXT-C-SID, F3216) and forward on the result; once no
# uSID is left, plain End processes the SRH (the next segment). Not on lo: IPv6
# turns a non-local route through the loopback into a reject route.
fabric_un_route()
{
	printf 'route replace fc00:0:%x::/48 encap seg6local action End flavors next-csid lblen 32 nflen 16 dev %s\n' \
		"$1" "$2"
}

# fabric_host_cmds H: the ip -batch commands of host H. The plane is in every uSID,
# so one /40 per tier and plane sends a carrier out of the right plane netdev (the
# locator alone cannot: it is the same in every plane). A packet whose carrier ends
# at this host's NIC uSID is decapsulated (End.DT6) and the inner packet looked up in
# the local table (255), where the host's own addresses are: the main table would
# forward it. It is delivered with skb->dev still the plane netdev it arrived on.
fabric_host_cmds()
{
	local h=$1 p t
	echo "link set dev lo up"
	for ((p = 0; p < FABRIC_PLANES; p++)); do
		echo "link set dev p$p up"
		echo "address add fe80::2/64 dev p$p nodad"
		echo "neigh replace fe80::1 lladdr $(fabric_mac "$p" "$h" h 1) dev p$p nud permanent"
		echo "address add fd00:$p::$h/64 dev p$p noprefixroute nodad"
		echo "address add 10.$p.0.$h/24 dev p$p noprefixroute"
		echo "route add fd00:$p::/64 via fe80::1 dev p$p"
		echo "route add 10.$p.0.0/24 via inet6 fe80::1 dev p$p"
		for t in 1 2 3; do
			printf 'route add fc00:0:%x::/40 via fe80::1 dev p%d\n' \
				$((t << 12 | p << 8)) "$p"
		done
		printf 'route add fc00:0:%x::/48 encap seg6local action End.DT6 table 255 dev p%d\n' \
			$((3 << 12 | p << 8 | h)) "$p"
	done
}

# fabric_t0_cmds P H: T0 of host H in plane P. Down to its host: the host's NIC uSID
# and addresses; up: every spine's uSID on that spine's link, and the plane's other
# hosts over all spines (ECMP; the L4 hash policy spreads UDP source ports).
fabric_t0_cmds()
{
	local p=$1 h=$2 s nh6="" nh4=""
	echo "link set dev lo up"
	echo "link set dev h$h addrgenmode none"
	echo "link set dev h$h up"
	echo "address add fe80::1/64 dev h$h nodad"
	echo "neigh replace fe80::2 lladdr $(fabric_mac "$p" "$h" h 2) dev h$h nud permanent"
	fabric_un_route $((1 << 12 | p << 8 | h)) "h$h"
	printf 'route add fc00:0:%x::/48 via fe80::2 dev h%d\n' $((3 << 12 | p << 8 | h)) "$h"
	echo "route add fd00:$p::$h/128 via fe80::2 dev h$h"
	echo "route add 10.$p.0.$h/32 via inet6 fe80::2 dev h$h"
	for ((s = 0; s < FABRIC_SPINES; s++)); do
		echo "link set dev s$s addrgenmode none"
		echo "link set dev s$s up"
		echo "address add fe80::2/64 dev s$s nodad"
		echo "neigh replace fe80::1 lladdr $(fabric_mac "$p" "$h" "$s" 1) dev s$s nud permanent"
		printf 'route add fc00:0:%x::/48 via fe80::1 dev s%d\n' $((2 << 12 | p << 8 | s)) "$s"
		nh6+=" nexthop via fe80::1 dev s$s"
		nh4+=" nexthop via inet6 fe80::1 dev s$s"
	done
	echo "route add fd00:$p::/64$nh6"
	echo "route add 10.$p.0.0/24$nh4"
}

# fabric_t1_cmds P S: spine S of plane P, every T0's uSID and hosts' addresses on the
# T0's link. Idempotent (replace) so that fabric_spine_up can replay it: taking the
# links down removed their addresses and routes.
fabric_t1_cmds()
{
	local p=$1 s=$2 h
	echo "link set dev lo up"
	for ((h = 1; h <= FABRIC_HOSTS; h++)); do
		echo "link set dev t$h addrgenmode none"
		echo "link set dev t$h up"
		echo "address replace fe80::1/64 dev t$h nodad"
		echo "neigh replace fe80::2 lladdr $(fabric_mac "$p" "$h" "$s" 2) dev t$h nud permanent"
		printf 'route replace fc00:0:%x::/48 via fe80::2 dev t%d\n' \
			$((1 << 12 | p << 8 | h)) "$h"
		echo "route replace fd00:$p::$h/128 via fe80::2 dev t$h"
		echo "route replace 10.$p.0.$h/32 via inet6 fe80::2 dev t$h"
	done
	fabric_un_route $((2 << 12 | p << 8 | s)) t1
}

# Every exec costs 0.3 s in the stock VM (TCG) and about 1 s under the debug kernel,
# and a namespace's sysctls can only be written by a process inside it: one python
# enters each namespace in turn (setns) for all of them. "@NS" enters NS; KEY=VALUE
# writes /proc/sys/KEY (no newline: 6.1's ignore_routes_with_linkdown handler fails
# a second write); "rx" prints "NS IFNAME RX-PACKETS TX-PACKETS" for NS's links
# (/proc/self/net/dev is the calling thread's namespace; /sys would be the mount's).
FABRIC_PYTHON=${FABRIC_PYTHON:-/usr/bin/python3}
FABRIC_PY='
import ctypes, os, sys
setns = ctypes.CDLL(None, use_errno=True).setns
ns = None
for a in sys.argv[1:]:
    if a.startswith("@"):
        ns = a[1:]
        fd = os.open("/var/run/netns/" + ns, os.O_RDONLY)
        if setns(fd, 0x40000000):
            sys.exit("setns %s: %s" % (ns, os.strerror(ctypes.get_errno())))
        os.close(fd)
    elif a == "rx":
        with open("/proc/self/net/dev") as f:
            for line in f.readlines()[2:]:
                name, v = line.split(":", 1)
                v = v.split()
                if name.strip() != "lo":
                    print(ns, name.strip(), v[1], v[9])
    else:
        k, v = a.split("=", 1)
        try:
            with open("/proc/sys/" + k, "w") as f:
                f.write(v)
        except OSError as e:
            sys.exit("%s: sysctl %s: %s" % (ns, a, e.strerror))
'

fabric_py()
{
	"$FABRIC_PYTHON" -I -S -c "$FABRIC_PY" "$@"
}

# fabric_switch_sysctls DEV...: forwarding (IPv6 and IPv4), no reverse-path filter
# (the hosts' addresses are reachable over several links), ECMP on the L4 hash,
# nexthops whose link is down skipped, and the unsolicited MLD reports of new
# addresses sent at once instead of up to a second later: idle spines must not see
# packets that would blur the per-spine counters tests read.
fabric_switch_sysctls()
{
	local d
	echo net/ipv6/conf/all/forwarding=1 net/ipv4/ip_forward=1
	echo net/ipv6/fib_multipath_hash_policy=1 net/ipv4/fib_multipath_hash_policy=1
	echo net/ipv6/conf/all/ignore_routes_with_linkdown=1
	echo net/ipv4/conf/all/ignore_routes_with_linkdown=1
	echo net/ipv4/conf/all/rp_filter=0
	for d in "$@"; do
		echo "net/ipv4/conf/$d/rp_filter=0"
		echo "net/ipv6/conf/$d/mldv2_unsolicited_report_interval=0"
		echo "net/ipv6/conf/$d/mldv1_unsolicited_report_interval=0"
	done
}

# fabric_create [-h HOSTS] [-p PLANES] [-s SPINES] [-m MTU]: build the fabric
# (defaults 2 hosts, 8 planes, 4 spines; 2 planes and 2 spines under the debug
# kernel, whose every exec costs about a second; every veth at MTU, default 1500:
# a 4096-byte path MTU needs jumbo frames). Sets MRC_PLANES like topo_create and
# prints the path table from h1 to h2. Returns 1 when any step fails
# (fabric_destroy cleans up).
fabric_create()
{
	local hosts=2 planes=8 spines=4 mtu=1500 opt OPTIND=1 p h s ns d sc pids=() rc=0
	local start=$SECONDS
	if mrc_debug_kernel; then
		planes=2 spines=2
	fi
	while getopts h:p:s:m: opt; do
		case $opt in
		h) hosts=$OPTARG ;;
		p) planes=$OPTARG ;;
		s) spines=$OPTARG ;;
		m) mtu=$OPTARG ;;
		*) return 1 ;;
		esac
	done
	if ! [[ $hosts =~ ^[2-4]$ && $planes =~ ^[1-8]$ && $spines =~ ^([1-9]|1[0-6])$ &&
		$mtu =~ ^[0-9]{4}$ ]] || ((mtu < 1280 || mtu > 9000)); then
		echo "fabric_create: 2-4 hosts, 1-8 planes, 1-16 spines, MTU 1280-9000" >&2
		return 1
	fi
	FABRIC_HOSTS=$hosts FABRIC_PLANES=$planes FABRIC_SPINES=$spines
	# shellcheck disable=SC2034 # lib.sh's plane helpers read it
	MRC_PLANES=$planes
	FABRIC_NS=()
	for ((h = 1; h <= hosts; h++)); do
		FABRIC_NS+=("$(fabric_ns "h$h")")
	done
	for ((p = 0; p < planes; p++)); do
		for ((h = 1; h <= hosts; h++)); do
			FABRIC_NS+=("mrc-t0p${p}h$h-$MRC_SUFFIX")
		done
		for ((s = 0; s < spines; s++)); do
			FABRIC_NS+=("mrc-t1p${p}s$s-$MRC_SUFFIX")
		done
	done
	# One process creates every namespace and every veth, each end directly in its
	# namespace.
	{
		for ns in "${FABRIC_NS[@]}"; do
			echo "netns add $ns"
		done
		for ((p = 0; p < planes; p++)); do
			for ((h = 1; h <= hosts; h++)); do
				echo "link add name p$p mtu $mtu address $(fabric_mac "$p" "$h" h 2)" \
					"netns $(fabric_ns "h$h") type veth peer name h$h mtu $mtu" \
					"address $(fabric_mac "$p" "$h" h 1) netns mrc-t0p${p}h$h-$MRC_SUFFIX"
				for ((s = 0; s < spines; s++)); do
					echo "link add name s$s mtu $mtu address $(fabric_mac "$p" "$h" "$s" 2)" \
						"netns mrc-t0p${p}h$h-$MRC_SUFFIX type veth peer name t$h" \
						"mtu $mtu address $(fabric_mac "$p" "$h" "$s" 1)" \
						"netns mrc-t1p${p}s$s-$MRC_SUFFIX"
				done
			done
		done
	} | ip -batch - || return 1
	# Then the sysctls of all namespaces (one process) and one ip -batch per
	# namespace, all at once.
	sc=()
	for ((h = 1; h <= hosts; h++)); do
		sc+=("@$(fabric_ns "h$h")" net/ipv6/conf/all/accept_dad=0
			net/ipv6/conf/default/accept_dad=0)
		for ((p = 0; p < planes; p++)); do
			sc+=("net/ipv6/conf/p$p/accept_dad=0")
		done
	done
	for ((p = 0; p < planes; p++)); do
		for ((h = 1; h <= hosts; h++)); do
			d=("h$h")
			for ((s = 0; s < spines; s++)); do
				d+=("s$s")
			done
			# shellcheck disable=SC2207
			sc+=("@mrc-t0p${p}h$h-$MRC_SUFFIX" $(fabric_switch_sysctls "${d[@]}"))
		done
		d=()
		for ((h = 1; h <= hosts; h++)); do
			d+=("t$h")
		done
		for ((s = 0; s < spines; s++)); do
			# shellcheck disable=SC2207
			sc+=("@mrc-t1p${p}s$s-$MRC_SUFFIX" $(fabric_switch_sysctls "${d[@]}"))
		done
	done
	fabric_py "${sc[@]}" || return 1
	for ((h = 1; h <= hosts; h++)); do
		fabric_host_cmds "$h" | ip -n "$(fabric_ns "h$h")" -batch - &
		pids+=($!)
	done
	for ((p = 0; p < planes; p++)); do
		for ((h = 1; h <= hosts; h++)); do
			fabric_t0_cmds "$p" "$h" | ip -n "mrc-t0p${p}h$h-$MRC_SUFFIX" -batch - &
			pids+=($!)
		done
		for ((s = 0; s < spines; s++)); do
			fabric_t1_cmds "$p" "$s" | ip -n "mrc-t1p${p}s$s-$MRC_SUFFIX" -batch - &
			pids+=($!)
		done
	done
	for p in "${pids[@]}"; do
		wait "$p" || rc=1
	done
	[ $rc = 0 ] || return 1
	echo "# fabric: $hosts hosts, $planes planes, $spines spines," \
		"${#FABRIC_NS[@]} namespaces in $((SECONDS - start)) s"
	fabric_paths 1 2
}

# fabric_destroy: remove every namespace fabric_create made (their veths go with
# them); safe to call twice or after a failed fabric_create.
fabric_destroy()
{
	local ns
	if [ ${#FABRIC_NS[@]} -gt 0 ]; then
		for ns in "${FABRIC_NS[@]}"; do
			echo "netns delete $ns"
		done | ip -force -batch - 2>/dev/null
	fi
	FABRIC_NS=()
	true
}

# fabric_counters NAME...: "NAME IFNAME RX-PACKETS TX-PACKETS" for every link (but
# lo) of each switch or host NAME (t0p<p>h<h>, t1p<p>s<s>, h<h>), from one process.
fabric_counters()
{
	local n args=() ns ifn rx tx
	for n in "$@"; do
		args+=("@$(fabric_ns "$n")" rx) || return 1
	done
	fabric_py "${args[@]}" | while read -r ns ifn rx tx; do
		ns=${ns#mrc-}
		echo "${ns%-"$MRC_SUFFIX"} $ifn $rx $tx"
	done
}

# fabric_spine_rx H: the packets each spine took from host H's T0 (the spine's link
# tH), one line per spine in plane and spine order.
fabric_spine_rx()
{
	local p s names=()
	for ((p = 0; p < FABRIC_PLANES; p++)); do
		for ((s = 0; s < FABRIC_SPINES; s++)); do names+=("t1p${p}s$s"); done
	done
	fabric_counters "${names[@]}" | awk -v l="t$1" '$2 == l { print $3 }'
}

# fabric_srv6_gen DEV A B: mrc device DEV on host A reaches host B (fd00:0::B) over
# GEN paths: A's T0, one spine (the generated tier, one uSID per spine), B's T0, B's
# NIC, the plane in every uSID. One check (lib.sh).
fabric_srv6_gen()
{
	local b=$3
	run_rc "$MRCCTL" -n "$(fabric_ns "h$2")" srv6 set dev "$1" \
		peer "fd00:0::$b" locator fc00:0 \
		usids "$(fabric_usid 1 0 "$2"),$(fabric_usid 2 0 0),$(fabric_usid 1 0 "$b"),$(fabric_usid 3 0 "$b")" \
		plane-shift 8 tier usid 1 shift 0 count "$FABRIC_SPINES"
	check "srv6 set dev $1 peer fd00:0::$b: GEN template over $FABRIC_SPINES spines" "0" "$rc"
	[ "$rc" = 0 ] || echo "# $out"
}

# fabric_switch_rx SWITCH: "IFNAME RX-PACKETS TX-PACKETS" for each veth of SWITCH.
fabric_switch_rx()
{
	fabric_counters "$1" | while read -r _ ifn rx tx; do
		echo "$ifn $rx $tx"
	done
}

# fabric_spine_down P S: every link of spine S in plane P down (from the spine's
# side; its T0s see the carrier go and, with ignore_routes_with_linkdown, their ECMP
# leaves it). fabric_spine_up P S: links up again and the spine's addresses and
# routes, which went with the links, restored.
fabric_spine_down()
{
	local h
	for ((h = 1; h <= FABRIC_HOSTS; h++)); do
		echo "link set dev t$h down"
	done | ip -n "mrc-t1p$1s$2-$MRC_SUFFIX" -batch -
}

fabric_spine_up()
{
	fabric_t1_cmds "$1" "$2" | ip -n "mrc-t1p$1s$2-$MRC_SUFFIX" -batch -
}

# fabric_uplink_blackhole P HOST S: drop every packet, both ways, on the link between
# host HOST's T0 and spine S of plane P, with the carrier kept up: nothing but loss
# tells a sender, so only the traffic whose path crosses that link (EVs whose carrier
# names spine S, ECMP flows hashed onto it) is lost. A 100% netem loss on each end's
# egress; fabric_uplink_restore P HOST S removes both.
fabric_uplink_blackhole()
{
	tc -n "mrc-t0p$1h$2-$MRC_SUFFIX" qdisc replace dev "s$3" root netem loss 100% &&
		tc -n "mrc-t1p$1s$3-$MRC_SUFFIX" qdisc replace dev "t$2" root netem loss 100%
}

fabric_uplink_restore()
{
	tc -n "mrc-t0p$1h$2-$MRC_SUFFIX" qdisc del dev "s$3" root 2>/dev/null
	tc -n "mrc-t1p$1s$3-$MRC_SUFFIX" qdisc del dev "t$2" root 2>/dev/null
	true
}
