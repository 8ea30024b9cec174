#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The mrc generic netlink family through mrcctl: the family lookup autoloads the
# module, the version query answers in both output forms, devices are created, shown,
# followed through plane link changes and deleted per network namespace, and every
# bad request gets its errno and message.
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
trap topo_destroy EXIT
mrc_unload
topo_create 8 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
c1() { "$MRCCTL" -n "$H1" "$@"; }
c2() { "$MRCCTL" -n "$H2" "$@"; }

run_rc "$MRCCTL" version
check "version query on an unloaded module succeeds" "0" "$rc"
check "family lookup autoloaded mrc" "present" \
	"$([ -d /sys/module/mrc ] && echo present || echo absent)"
ver=$(cat /sys/module/mrc/version)
port=$(cat /sys/module/mrc/parameters/udp_port)
check "version, human form" \
	"mrc $ver genl-version 1 udp-port $port max-planes 16 max-evs 256" "$out"
run_rc "$MRCCTL" -j version
check "version, JSON module_version" "$ver" "$(echo "$out" | jq -r .module_version)"
check "version, JSON genl_version" "1" "$(echo "$out" | jq -r .genl_version)"
check "version, JSON udp_port" "$port" "$(echo "$out" | jq -r .udp_port)"
check "version, JSON max_planes/max_evs" "16 256" \
	"$(echo "$out" | jq -r '"\(.max_planes) \(.max_evs)"')"

check "no device yet (JSON)" "[]" "$(c1 -j dev show)"
# shellcheck disable=SC2046
run_rc c1 dev add mrc0 $(topo_plane_args 8)
check "dev add over 8 planes" "0" "$rc"
run_rc c1 dev show
check "dev show, device line" "dev mrc0 planes 8" "$(echo "$out" | head -n 1)"
check_match "dev show, plane line" \
	"^    plane 3 netdev p3 ifindex [0-9]+ state up admin up$" "$(echo "$out" | sed -n 5p)"
js=$(c1 -j dev show)
check "dev show JSON: plane netdevs in order" "p0 p1 p2 p3 p4 p5 p6 p7" \
	"$(echo "$js" | jq -r '[.[0].planes[].netdev] | join(" ")')"
check "dev show JSON: plane ifindex is the netdev's" \
	"$(ip netns exec "$H1" cat /sys/class/net/p5/ifindex)" \
	"$(echo "$js" | jq -r '.[0].planes[5].ifindex')"
check "dev show JSON: all planes up" "up" \
	"$(echo "$js" | jq -r '[.[0].planes[].state] | unique | join(" ")')"
check "dev show NAME is an array of one" "1" "$(c1 -j dev show mrc0 | jq length)"
check "device is local to its namespace" "[]" "$(c2 -j dev show)"

plane2() { c1 -j dev show mrc0 | jq -r '.[0].planes[2].state'; }
ip -n "$H1" link set p2 down
check "plane follows its netdev down" "down" "$(plane2)"
ip -n "$H1" link set p2 up
check_eventually "plane follows its netdev up" "up" plane2
ip -n "$H2" link set p2 down
check_eventually "plane follows lost carrier (peer down)" "down" plane2
ip -n "$H2" link set p2 up
check_eventually "plane follows regained carrier (peer up)" "up" plane2

# events: a monitor in the namespace sees exactly the two changes, in order. The
# monitors exit after their count; the time limit only bounds a hang, and must cover
# a device registration in the debug VM on a loaded host (20 s did not).
mon=$(mktemp -d)
timeout 300 "$MRCCTL" -n "$H1" -j monitor count 2 >"$mon/out" 2>"$mon/err" &
monpid=$!
wait_for_line "$mon/err" "mrcctl: listening"
check "monitor subscribes" "0" "$?"
ip -n "$H1" link set p4 down
ip -n "$H1" link set p4 up
wait $monpid
check "monitor exits after its 2 events" "0" "$?"
check "monitor reports plane 4 down then up" "mrc0 4 p4 down,mrc0 4 p4 up" \
	"$(jq -r '"\(.dev) \(.index) \(.netdev) \(.state)"' "$mon/out" | paste -sd,)"
check "monitor event ifindex" "$(ip netns exec "$H1" cat /sys/class/net/p4/ifindex)" \
	"$(jq -r .ifindex "$mon/out" | sort -u)"
timeout 300 "$MRCCTL" -n "$H2" monitor count 1 >"$mon/out2" 2>"$mon/err2" &
monpid=$!
wait_for_line "$mon/err2" "mrcctl: listening"
ip -n "$H1" link set p5 down
c2 dev add mrc9 plane p6 >/dev/null
ip -n "$H2" link set p6 down
wait $monpid
check "monitor sees only its own namespace" "plane dev mrc9 index 0 netdev p6 ifindex $(ip netns exec "$H2" cat /sys/class/net/p6/ifindex) state down admin up" \
	"$(cat "$mon/out2")"
ip -n "$H1" link set p5 up
ip -n "$H2" link set p6 up
c2 dev del mrc9
rm -rf "$mon"

# errors: exit status 2 and the errno name
expect_err()
{
	local what=$1 errno=$2
	shift 2
	run_rc "$@"
	check "$what: exit status" "2" "$rc"
	check_match "$what: $errno" "^Error: .+ \\($errno\\)$" "$out"
}
expect_err "duplicate device name" EEXIST c1 dev add mrc0 plane p0
expect_err "unknown plane netdev" ENODEV c1 dev add mrc1 plane nosuch0
expect_err "plane already in another device" EBUSY c1 dev add mrc1 plane p0
expect_err "same plane twice" EINVAL c2 dev add mrc1 plane p0 plane p0
expect_err "loopback as a plane" EINVAL c2 dev add mrc1 plane lo
expect_err "bad device name" EINVAL c2 dev add 'bad/name' plane p0
expect_err "delete an unknown device" ENODEV c1 dev del nosuch
expect_err "delete another namespace's device" ENODEV c2 dev del mrc0
expect_err "show an unknown device" ENODEV c1 dev show nosuch
for ((i = 0; i < 8; i++)); do ip -n "$H2" link add "x$i" type dummy; done
# shellcheck disable=SC2046
expect_err "17 planes" E2BIG c2 dev add mrc1 $(topo_plane_args 8) \
	$(for ((i = 0; i < 8; i++)); do printf 'plane x%d ' "$i"; done) plane lo
check "failed requests created nothing in $H2" "[]" "$(c2 -j dev show)"

ip -n "$H1" link del p7
check "deleted plane netdev leaves the device" "7" \
	"$(c1 -j dev show mrc0 | jq '.[0].planes | length')"
run_rc c1 dev del mrc0
check "dev del" "0" "$rc"
check "no device after dev del" "[]" "$(c1 -j dev show)"

# shellcheck disable=SC2046
c1 dev add mrc0 $(topo_plane_args 7) >/dev/null
for ((i = 0; i < 7; i++)); do ip -n "$H1" link del "p$i"; done
check "device whose last plane is deleted goes away" "[]" "$(c1 -j dev show)"
mrc_finish
