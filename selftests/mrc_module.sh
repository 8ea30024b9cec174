#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc.ko loads and unloads 20 times (2 in the debug kernel), each time with an
# 8-plane device in each of two namespaces left in place for rmmod to clean up.
# Proves nothing is left behind: the module and its hold on ib_core go away every
# time, and the plane netdevs can be deleted at the end (a leaked netdev reference
# would hang their unregistration).
# RDMA device names are global, so the two devices get different names.
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
trap topo_destroy EXIT
mrc_unload
topo_create 8 || { echo "# topology setup failed"; exit $KSFT_FAIL; }

# Registering an RDMA device may pull in other ib_core users (the MAD and CM layers
# stay loaded), so count mrc's own hold: the holders directory names each module.
holds_core() { [ -e /sys/module/ib_core/holders/mrc ] && echo holds || echo free; }

# 20 cycles; 2 under the debug kernel, where one cycle (two 8-port RDMA devices
# registered and torn down) takes about 90 s, and kmemleak and lockdep report
# what a cycle leaves behind after the first one anyway.
cycles=20
mrc_debug_kernel && cycles=2

modprobe ib_core
for ((i = 1; i <= cycles; i++)); do
	run_rc mrc_load
	check "load $i" "0" "$rc"
	n=0
	for ns in "$H1" "$H2"; do
		# shellcheck disable=SC2046
		run_rc "$MRCCTL" -n "$ns" dev add "mrc$n" $(topo_plane_args)
		check "load $i: 8-plane device mrc$n in $ns" "0" "$rc"
		n=$((n + 1))
	done
	check "load $i: mrc holds ib_core" "holds" "$(holds_core)"
	refs=$(cat /sys/module/ib_core/refcnt)
	# rmmod, not modprobe -r, which would take the now unused ib_core along
	run_rc rmmod mrc
	check "unload $i with devices present" "0" "$rc"
	check "unload $i: module gone" "absent" "$([ -d /sys/module/mrc ] && echo present || echo absent)"
	check "unload $i: mrc's ib_core reference dropped" "free $((refs - 1))" \
		"$(holds_core) $(cat /sys/module/ib_core/refcnt)"
done

for ((i = 0; i < 8; i++)); do
	run_rc timeout 30 ip -n "$H1" link del "p$i"
	check "plane netdev p$i deletes after the last unload" "0" "$rc"
done
mrc_finish
