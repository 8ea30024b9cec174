#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of make demo: narrate each step and show the commands and their output.
# Two hosts on the SRv6 fabric (8 planes × 4 spines): one QP sprays over every path,
# a spine dies mid-transfer and only its paths are retired, the transfer completes,
# and probes bring the spine's paths back once it returns.
set -euo pipefail
. "$(dirname "$0")/../../selftests/lib.sh"
. "$(dirname "$0")/../../selftests/lib_fabric.sh"
MRC_SUFFIX=demo
MRC_HELD_DIR=$(mktemp -d)
trap 'mrc_dev_pair_del >/dev/null; fabric_destroy; rm -rf "$MRC_HELD_DIR"' EXIT

show() { echo; echo "\$ $*"; "$@"; }
c1() { ip netns exec "$H1" "$MRCCTL" "$@"; }
c2() { ip netns exec "$H2" "$MRCCTL" "$@"; }
# evs_by_spine: the client QP's EVs per (plane, spine) and state, from qp show -j
evs_by_spine()
{
	c2 -j qp show dev "$MRC_DEV2" |
		jq -r '.[0].evs[] | "\(.plane) \(.srv6_da | split(":")[3]) \(.state)"' |
		sort | uniq -c |
		awk '{ printf "  plane %s spine-uSID %s %-11s %s EVs\n", $2, $3, $4, $1 }'
}
paused() { grep -qx "paused $1" "$MRC_HELD_DIR/demo.cli"; }
# dead_good: the client QP's GOOD EVs through spine 1 of plane 0 (spine-uSID 2001)
dead_good()
{
	c2 -j qp show dev "$MRC_DEV2" |
		jq '[.[0].evs[] | select(.plane == 0 and .state == "good" and
			(.srv6_da | split(":")[3]) == "2001")] | length'
}
home() { [ "$(dead_good)" -ge "$1" ]; }

echo "== mrc demo on $(uname -r) =="
show modprobe mrc
show "$MRCCTL" version

echo; echo "== the fabric: per plane a T0 per host and 4 spines, static routes only =="
echo "# switches forward with seg6local End next-csid (uN): shift the uSIDs, look up, send"
fabric_create -h 2 -p 8 -s 4
show ip -n "$(fabric_ns t0p0h2)" -6 route show root fc00::/16

echo; echo "== an mrc device per host over its 8 plane netdevs =="
mrc_dev_pair 8 >/dev/null
MRC_GID1=$(mrc_gid_index "$H1" "$MRC_DEV1" 1 fd00:0::1)
MRC_GID2=$(mrc_gid_index "$H2" "$MRC_DEV2" 1 fd00:0::2)
MRC_SERVER_ADDR=fd00:0::1
show c2 dev show

echo; echo "== the paths: a GEN template per destination, plane and spine generated =="
show c2 srv6 set dev "$MRC_DEV2" peer fd00:0::1 locator fc00:0 usids 1002,2000,1001,3001 \
	plane-shift 8 tier usid 1 shift 0 count 4
show c1 srv6 set dev "$MRC_DEV1" peer fd00:0::2 locator fc00:0 usids 1001,2000,1002,3002 \
	plane-shift 8 tier usid 1 shift 0 count 4
show c2 srv6 show

echo; echo "== one QP writes 96 MiB, checksummed; it pauses at a third and two thirds =="
held_start demo -o write -s 1m -n 96 -q 8 -S 42 --pause "$MRC_HELD_DIR/go"
wait_until 120 paused 1
echo "# a third done: 128 EVs spread over the 32 paths (plane, spine), all GOOD"
evs_by_spine
home0=$(dead_good)

echo; echo "== spine 1 of plane 0 dies =="
show fabric_spine_down 0 1
touch "$MRC_HELD_DIR/go"
wait_until 120 paused 2
echo "# two thirds done: the EVs whose path crossed spine 1 of plane 0 were retired in"
echo "# the softirq that saw them lose packets and replaced from the plane's spares"
evs_by_spine
echo "# EVs of plane 0 retired so far (ev_assumed_bad):" \
	"$(cat /sys/class/infiniband/"$MRC_DEV2"/ports/1/hw_counters/ev_assumed_bad)"
echo "# packets each spine of plane 0 took from h2's T0 so far:"
fabric_counters t1p0s0 t1p0s1 t1p0s2 t1p0s3 | awk '$2 == "t2" { print "  " $1, $3 " packets" }'

echo; echo "== the spine returns; the transfer finishes =="
show fabric_spine_up 0 1
touch "$MRC_HELD_DIR/go"
wait_until 120 held_done demo
cat "$MRC_HELD_DIR/demo.cli"
recovered() { [ "$(cat /sys/class/infiniband/"$MRC_DEV2"/ports/1/hw_counters/ev_recovered)" -gt 0 ]; }
wait_until 30 recovered
echo "# probes found the spine's paths again (ev_recovered on plane 0):"
echo "  ev_recovered $(cat /sys/class/infiniband/"$MRC_DEV2"/ports/1/hw_counters/ev_recovered)"
wait_until 30 home "$home0" || true
echo "# each recovered entropy took its slot back from its replacement: spine 1 of"
echo "# plane 0 had $home0 GOOD EVs before it died, $(dead_good) now"
evs_by_spine
held_release demo "demo transfer" >/dev/null
echo; echo "== what each spine carried from h2 in all: =="
fabric_counters $(for p in 0 1 2 3 4 5 6 7; do printf 't1p%ds%d ' $p 0 $p 1 $p 2 $p 3; done) |
	awk '$2 == "t2" { printf "  %s %s\n", $1, $3 }' | paste -d' ' - - - -
