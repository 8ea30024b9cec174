#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Documentation/admin-guide.md, run: every fenced block whose info string starts
# with "sh", in the guide's order, on two hosts (network namespaces whose plane
# netdevs are eth0..eth7, veth pairs, nothing configured: the guide's blocks do
# that), with the tree's mrcctl first in PATH. The rest of the info string says
# where and how:
#   sh                  on host A, with bash -e; must exit 0
#   sh host-b           on host B
#   sh global           in the initial namespace: what is host-wide (sysctls of
#                       the core, tracing), which a namespace does not show
#   sh background=PORT  on host A, in the background; the next block starts once
#                       it listens on TCP PORT, and it must exit 0 by the end
#   sh install|remove   not here: selftests/mrc_package.sh runs them
# Blocks run from the tree's root; the signing block's key pair goes to a scratch
# directory (MRC_SIGN_KEY, MRC_SIGN_CERT) and signs a copy of the module the
# harness loads (MODULE).
# A guide that stops matching mrc fails here, block by block.
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_cmds ib_write_bw rdma ibv_devinfo
guide=$MRC_TREE/Documentation/admin-guide.md
[ -r "$guide" ] || mrc_skip "no $guide"
work=$(mktemp -d)
bg_pids=()
backlog=$(sysctl -n net.core.netdev_max_backlog)
trap 'for p in "${bg_pids[@]}"; do kill "$p" 2>/dev/null; done; wait;
	sysctl -qw net.core.netdev_max_backlog="$backlog";
	{ echo 0 >/sys/kernel/tracing/events/mrc/mrc_ev_retire/enable; } 2>/dev/null;
	"$MRCCTL" -n "$H2" dev del mrc1 2>/dev/null; "$MRCCTL" -n "$H1" dev del mrc0 2>/dev/null;
	topo_destroy; rm -rf "$work"' EXIT
mrc_unload
mkdir -p "$work/bin"
ln -s "$MRCCTL" "$work/bin/mrcctl"
export PATH=$work/bin:$PATH MRC_SIGN_KEY=$work/mok.key MRC_SIGN_CERT=$work/mok.pub
export MODULE=$work/mrc.ko

# The two hosts: eight planes, each a veth pair eth<i> in A and in B.
ip netns add "$H1" && ip netns add "$H2" || exit $KSFT_FAIL
for i in 0 1 2 3 4 5 6 7; do
	echo "link add eth$i netns $H1 type veth peer name eth$i netns $H2"
done | ip -b - || exit $KSFT_FAIL
for ns in "$H1" "$H2"; do
	ip -n "$ns" link set lo up
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 \
		net.ipv6.conf.default.accept_dad=0
done
# tracefs where a Debian host has it (the guide enables a tracepoint)
mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing
# The guide's ids are its own; nothing of another test may hold them.
modprobe mrc
cp "$(modprobe --show-depends mrc | awk '$2 ~ /\/mrc\.ko$/ { print $2 }')" "$MODULE"

# Split the guide into blocks: one file each, and a list of "N INFO".
awk -v dir="$work" '
	/^```/ && !inb { info = substr($0, 4); inb = 1; n++; f = dir "/block" n;
		print n " " info >(dir "/list"); printf "" >f; next }
	/^```/ && inb { inb = 0; close(f); next }
	inb { print >f }
' "$guide"
nrun=0
declare -A bg_block=()
while read -r n info; do
	read -r lang args <<<"$info"
	[ "$lang" = sh ] || continue
	where=$H1 host=A bgport=
	for a in $args; do
		case $a in
		host-b) where=$H2 host=B ;;
		global) where= host='A, host-wide' ;;
		background=*) bgport=${a#background=} ;;
		install | remove) continue 2 ;;
		*) mrc_fail "block $n: unknown info word $a"; continue 2 ;;
		esac
	done
	what="block $n (host $host): $(grep -m1 . "$work/block$n")"
	in_ns=()
	[ -z "$where" ] || in_ns=(ip netns exec "$where")
	nrun=$((nrun + 1))
	if [ -n "$bgport" ]; then
		# exec: $! must be the block's shell, in its namespace (wait_port)
		(cd "$MRC_TREE" && exec "${in_ns[@]}" bash -e "$work/block$n") \
			>"$work/out$n" 2>&1 &
		bg_pids+=($!)
		bg_block[$!]=$n
		wait_port "$!" "$bgport"
		check "$what: listens on port $bgport" "0" "$?"
		continue
	fi
	(cd "$MRC_TREE" && exec "${in_ns[@]}" bash -e "$work/block$n") >"$work/out$n" 2>&1
	rc=$?
	check "$what" "0" "$rc"
	[ "$rc" = 0 ] || sed 's/^/#   /' "$work/out$n" | tail -n 15
	# a background block's partner has run: the background one must have ended well
	for p in "${bg_pids[@]}"; do
		wait "$p"
		rc=$?
		check "block ${bg_block[$p]} (background): exit status" "0" "$rc"
		[ "$rc" = 0 ] || sed 's/^/#   /' "$work/out${bg_block[$p]}" | tail -n 15
	done
	bg_pids=()
done <"$work/list"
check "every sh block of the guide ran" \
	"$(grep -E '^```sh( |$)' "$guide" | grep -cvE '^```sh (install|remove)$')" "$nrun"

# What the guide's blocks should have left: nothing of mrc's on either host.
check "the guide took its devices down" "" "$(rdma dev show 2>/dev/null | grep -E ' mrc[01]: ')"
check "and its profiles" "" "$("$MRCCTL" -n "$H1" evprofile show; "$MRCCTL" -n "$H1" ccprofile show)"
topo_destroy
mrc_unload
mrc_finish
