#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of make demo: narrate each step and show the commands and their output.
set -euo pipefail
. "$(dirname "$0")/../../selftests/lib.sh"
MRC_SUFFIX=demo
H1=host1 H2=host2
trap topo_destroy EXIT

show() { echo; echo "\$ $*"; "$@"; }

echo "== mrc demo on $(uname -r) =="
show modprobe mrc
show "$MRCCTL" version
echo; echo "== two hosts, eight planes: one veth network per plane =="
topo_create 8
show ip -n "$H1" -br addr show
for ns in "$H1" "$H2"; do
	# shellcheck disable=SC2046
	show ip netns exec "$ns" "$MRCCTL" dev add mrc0 $(topo_plane_args 8)
done
show ip netns exec "$H1" "$MRCCTL" dev show
echo; echo "== plane 3 loses its link: the device sees it at once, a monitor hears it =="
mon=$(mktemp)
ip netns exec "$H1" "$MRCCTL" monitor count 2 2>"$mon" &
wait_for_line "$mon" "mrcctl: listening"
show ip -n "$H1" link set p3 down
show ip netns exec "$H1" "$MRCCTL" -j -p dev show mrc0
show ip -n "$H1" link set p3 up
wait
rm -f "$mon"
show ip netns exec "$H2" "$MRCCTL" dev show
echo; echo "== unload with devices present; the next mrcctl call autoloads mrc afresh =="
show modprobe -r mrc
show ip netns exec "$H1" "$MRCCTL" -j dev show
