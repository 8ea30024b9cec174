#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of tools/testing/vm/pair.sh: two guests, each one host of the pair,
# whose NIC i is plane i; they meet in $MRC_PAIR_DIR and ask the host there to cut or
# restore a plane's link. Source it after lib.sh. Several pair tests run one after the
# other in the same boot: each one's marks, link requests and files carry its name.

MRC_PAIR_SIDE=${MRC_PAIR_SIDE:?run under tools/testing/vm/pair.sh}
MRC_PAIR_PLANES=${MRC_PAIR_PLANES:-8}
MRC_PAIR_PEER=b
[ "$MRC_PAIR_SIDE" = b ] && MRC_PAIR_PEER=a
# The host number of this side on every plane: a is 1 (the server), b is 2.
MRC_PAIR_HOST=1
[ "$MRC_PAIR_SIDE" = b ] && MRC_PAIR_HOST=2
# This test's name, and its directory in the rendezvous for files both sides read.
MRC_PAIR_TAG=$(basename "$0" .sh)
MRC_PAIR_RES=$MRC_PAIR_DIR/$MRC_PAIR_TAG
mkdir -p "$MRC_PAIR_RES"

# pair_nics: the plane NICs as p0..pN-1 (by the MAC pair.sh gave NIC i), with the
# addresses lib.sh's two-namespace topology uses, 10.i.0.H/24 and fd00:i::H/64.
pair_nics()
{
	local dev mac i
	modprobe virtio_net || return 1
	for dev in /sys/class/net/*; do
		mac=$(cat "$dev/address")
		case $mac in
		52:54:00:4d:0[ab]:0[0-7])
			i=${mac##*:0}
			ip link set dev "${dev##*/}" name "p$i" || return 1
			;;
		esac
	done
	for ((i = 0; i < MRC_PAIR_PLANES; i++)); do
		ip addr replace "10.$i.0.$MRC_PAIR_HOST/24" dev "p$i" &&
			ip addr replace "fd00:$i::$MRC_PAIR_HOST/64" dev "p$i" nodad &&
			ip link set "p$i" up || return 1
	done
}

# pair_mark NAME: tell the other guest that NAME happened here.
pair_mark()
{
	: >"$MRC_PAIR_RES/$MRC_PAIR_SIDE.$1"
}

# pair_wait NAME [SECONDS]: wait until the other guest marked NAME (default 300 s:
# the other guest may be the debug kernel, booting for a minute and more).
pair_wait()
{
	local deadline=$((SECONDS + ${2:-300}))
	until [ -e "$MRC_PAIR_RES/$MRC_PAIR_PEER.$1" ]; do
		[ $SECONDS -lt $deadline ] || return 1
		mrc_nap
	done
}

# pair_link I on|off: cut or restore plane I between the guests (the host sets guest
# a's NIC's link); returns once the host did it.
pair_link_n=0
pair_link()
{
	local req deadline=$((SECONDS + 30))
	pair_link_n=$((pair_link_n + 1))
	req=$MRC_PAIR_DIR/link.$MRC_PAIR_TAG.$MRC_PAIR_SIDE$pair_link_n
	echo "$1 $2" >"$req.new" && mv "$req.new" "$req"
	until [ -e "$req.done" ]; do
		[ $SECONDS -lt $deadline ] || return 1
		mrc_nap
	done
}
