#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the RDMA core around mrc decides, on each kernel mrc supports
# (Documentation/kernels.md): mrc and rdma_rxe refuse each other, whichever
# loads second, with EBUSY and a line in the kernel log (they share rxe's driver
# id, Documentation/verbs.md); and where an mrc device is seen in the RDMA
# core's two namespace modes: in "shared" (the default) from every network
# namespace, in "exclusive" only from the initial one, as rdma_rxe's devices
# made with "rdma link add" are (neither moves its device into the namespace
# of its netdevs).
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_cmds rdma
trap 'rdma system set netns shared 2>/dev/null; "$MRCCTL" -n "$H1" dev del "${dev:-x}" 2>/dev/null;
	topo_destroy; modprobe -r rdma_rxe 2>/dev/null' EXIT
mrc_unload
[ ! -d /sys/module/rdma_rxe ] || modprobe -r rdma_rxe

# klog_has TEXT: the kernel said TEXT since the mark.
klog_has() { dmesg | sed -n "/mrc-coexist: $mark\$/,\$p" | grep -qF "$1" && echo yes || echo no; }

# rdma_rxe after mrc
mrc_load
mark=rxe-second
echo "mrc-coexist: $mark" >/dev/kmsg
run_rc modprobe rdma_rxe
check "rdma_rxe beside mrc: modprobe refused" \
	"1 modprobe: ERROR: could not insert 'rdma_rxe': Device or resource busy" "$rc $out"
check "rdma_rxe beside mrc: not loaded" "no" "$([ -d /sys/module/rdma_rxe ] && echo yes || echo no)"
check "rdma_rxe beside mrc: mrc says why" "yes" \
	"$(klog_has "mrc: refusing to let rdma_rxe load: it would take mrc devices for its own")"
topo_create 1
run_rc ip netns exec "$H1" rdma link add "rxe-$MRC_SUFFIX" type rxe netdev p0
check "rdma link add type rxe beside mrc: refused" "1" "$rc"
check "rdma link add type rxe beside mrc: no device" "no" \
	"$([ -e "/sys/class/infiniband/rxe-$MRC_SUFFIX" ] && echo yes || echo no)"
topo_destroy

# mrc after rdma_rxe
mrc_unload
run_rc modprobe rdma_rxe
check "rdma_rxe alone: loads" "0" "$rc"
mark=mrc-second
echo "mrc-coexist: $mark" >/dev/kmsg
run_rc modprobe mrc
check "mrc beside rdma_rxe: modprobe refused" \
	"1 modprobe: ERROR: could not insert 'mrc': Device or resource busy" "$rc $out"
check "mrc beside rdma_rxe: not loaded" "no" "$([ -d /sys/module/mrc ] && echo yes || echo no)"
check "mrc beside rdma_rxe: says why" "yes" \
	"$(klog_has "mrc: rdma_rxe is loaded; mrc shares its driver id and cannot load beside it")"
run_rc modprobe -r rdma_rxe
check "rdma_rxe unloads" "0" "$rc"
run_rc modprobe mrc
check "mrc loads once rdma_rxe is gone" "0" "$rc"

# RDMA namespace modes. The mode changes only while no namespace but the initial
# one exists (the RDMA core's rule), so before the topology.
dev=mrc-x$MRC_SUFFIX
# seen_from NS: "yes" when "rdma dev" in NS (init: the initial one) lists $dev
seen_from()
{
	local list
	if [ "$1" = init ]; then
		list=$(rdma dev show 2>&1)
	else
		list=$(ip netns exec "$1" rdma dev show 2>&1)
	fi
	[[ $list == *" $dev: "* ]] && echo yes || echo no
}
check_match "the RDMA core starts shared" "^netns shared" "$(rdma system show)"
topo_create 1
"$MRCCTL" -n "$H1" dev add "$dev" plane p0 >/dev/null
check "shared: seen from its namespace, the other host's and the initial one" \
	"yes yes yes" "$(seen_from "$H1") $(seen_from "$H2") $(seen_from init)"
"$MRCCTL" -n "$H1" dev del "$dev"
topo_destroy

# namespaces leave the RDMA core's list in the kernel's cleanup work, after "ip
# netns del" returns: until then the change is refused (EBUSY)
run_rc wait_until 30 rdma system set netns exclusive
check "rdma system set netns exclusive" "0" "$rc"
[ "$rc" = 0 ] || { rdma system set netns exclusive; lsns -t net; ls -l /proc/*/ns/net 2>/dev/null | awk '{print $NF}' | sort | uniq -c; } 2>&1 | sed 's/^/# /' 
check_match "the RDMA core is exclusive" "^netns exclusive" "$(rdma system show)"
topo_create 1
run_rc "$MRCCTL" -n "$H1" dev add "$dev" plane p0
check "exclusive: dev add" "0" "$rc"
check "exclusive: seen from the initial namespace only" \
	"no no yes" "$(seen_from "$H1") $(seen_from "$H2") $(seen_from init)"
check "exclusive: mrcctl still finds it in its planes' namespace" "yes" \
	"$("$MRCCTL" -n "$H1" dev show "$dev" | grep -q "^dev $dev " && echo yes || echo no)"
"$MRCCTL" -n "$H1" dev del "$dev"
topo_destroy
run_rc wait_until 30 rdma system set netns shared
check "back to shared" "0" "$rc"
mrc_unload
mrc_finish
