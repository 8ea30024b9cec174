#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc.ko loads and unloads 20 times, each time with an 8-plane device in each of two
# namespaces left in place for rmmod to clean up. Proves nothing is left behind: the
# module and its ib_core reference go away every time, and the plane netdevs can be
# deleted at the end (a leaked netdev reference would hang their unregistration).
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
trap topo_destroy EXIT
mrc_unload
topo_create 8 || { echo "# topology setup failed"; exit $KSFT_FAIL; }

modprobe ib_core
core_refs=$(cat /sys/module/ib_core/refcnt)
for ((i = 1; i <= 20; i++)); do
	run_rc mrc_load
	check "load $i" "0" "$rc"
	for ns in "$H1" "$H2"; do
		# shellcheck disable=SC2046
		run_rc ip netns exec "$ns" "$MRCCTL" dev add mrc0 $(topo_plane_args)
		check "load $i: 8-plane device in $ns" "0" "$rc"
	done
	check "load $i: mrc holds one ib_core reference" "$((core_refs + 1))" \
		"$(cat /sys/module/ib_core/refcnt)"
	# rmmod, not modprobe -r, which would take the now unused ib_core along
	run_rc rmmod mrc
	check "unload $i with devices present" "0" "$rc"
	check "unload $i: module gone" "absent" "$([ -d /sys/module/mrc ] && echo present || echo absent)"
	check "unload $i: ib_core reference dropped" "$core_refs" "$(cat /sys/module/ib_core/refcnt)"
done

for ((i = 0; i < 8; i++)); do
	run_rc timeout 30 ip -n "$H1" link del "p$i"
	check "plane netdev p$i deletes after the last unload" "0" "$rc"
done
mrc_finish
