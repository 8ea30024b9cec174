#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc over the SRv6 fabric with four hosts, each behind its own T0 in every plane:
# two source-routed transfers at once, host 3 to host 1 and host 4 to host 2, each
# QP's GEN paths naming its own hosts' T0 and NIC uSIDs. Both transfers must
# verify without a QP error; every spine of every plane must have carried traffic
# from host 3's T0 and from host 4's T0 (a uSID naming the wrong host would have
# taken the data elsewhere, and the transfer would not verify). The two-host
# data path (failures, ECN, probes) is mrc_srv6.sh's; this is the fabric's and the
# templates' host numbering past hosts 1 and 2.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fabric.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_xfer
mrc_require_cmds jq
mrc_backlog_deep
devs=()
# dev_del_all: the devices made so far, in their hosts
dev_del_all()
{
	local d
	for d in "${devs[@]}"; do
		"$MRCCTL" -n "${d%%:*}" dev del "${d#*:}" 2>/dev/null
	done
	devs=()
}
trap 'dev_del_all; fabric_destroy; mrc_backlog_restore' EXIT
mrc_unload
fabric_create -h 4 -p 4 -s 2 >/dev/null || { echo "# fabric setup failed"; exit $KSFT_FAIL; }
P=$FABRIC_PLANES S=$FABRIC_SPINES

# dev_on H: an mrc device over every plane of host H (1-4), named DEV[H], with
# GID[H] the RoCE v2 GID index of its plane-0 IPv6 address fd00:0::H.
declare -A DEV GID
dev_on()
{
	local ns
	ns=$(fabric_ns "h$1")
	DEV[$1]=mrc-h$1-$MRC_SUFFIX
	# shellcheck disable=SC2046
	run_rc "$MRCCTL" -n "$ns" dev add "${DEV[$1]}" $(topo_plane_args "$P")
	check "dev add on host $1 over $P planes" "0" "$rc"
	[ "$rc" = 0 ] || { echo "# $out"; return 1; }
	devs+=("$ns:${DEV[$1]}")
	wait_until 20 mrc_gid_index "$ns" "${DEV[$1]}" 1 "fd00:0::$1"
	GID[$1]=$(mrc_gid_index "$ns" "${DEV[$1]}" 1 "fd00:0::$1")
	check_match "host $1: RoCE v2 GID of fd00:0::$1 on port 1" '^[0-9]+$' "${GID[$1]}"
}
for h in 1 2 3 4; do
	dev_on "$h" || exit $KSFT_FAIL
done

# GEN paths between hosts 3 and 1 and between 4 and 2, both ways.
for ab in "3 1" "1 3" "4 2" "2 4"; do
	read -r a b <<<"$ab"
	fabric_srv6_gen "${DEV[$a]}" "$a" "$b"
done
# errors: qp_errors of the four devices, summed
errors()
{
	local h n=0
	for h in 1 2 3 4; do
		n=$((n + $(mrc_counter_sum "$(fabric_ns "h$h")" "${DEV[$h]}" qp_errors)))
	done
	echo $n
}

mib=$(mrc_scaled 8)
err0=$(errors)
read -r -a rx3a <<<"$(fabric_spine_rx 3 | paste -sd ' ')"
read -r -a rx4a <<<"$(fabric_spine_rx 4 | paste -sd ' ')"
tmp=$(mktemp -d)
# xfer SERVER CLIENT PORT: mrc-xfer write from host CLIENT to host SERVER, in the
# background, the output in $tmp/SERVER.srv and $tmp/CLIENT.cli
xfer()
{
	local a=(-t "$MRC_XFER_TIMEOUT" -p "$3" -o write -s 1m -n "$mib" -q 8 -S "$3")
	ip netns exec "$(fabric_ns "h$1")" timeout "$MRC_TOOL_TIMEOUT" "$MRC_XFER" \
		-d "${DEV[$1]}" -g "${GID[$1]}" "${a[@]}" >"$tmp/$1.srv" 2>&1 &
	wait_port "$!" "$3" || return 1
	ip netns exec "$(fabric_ns "h$2")" timeout "$MRC_TOOL_TIMEOUT" "$MRC_XFER" \
		-d "${DEV[$2]}" -g "${GID[$2]}" "${a[@]}" "fd00:0::$1" >"$tmp/$2.cli" 2>&1 &
}
xfer 1 3 18701 && xfer 2 4 18702
check "two transfers started (host 3 to 1, host 4 to 2)" "0" "$?"
wait
for pair in "1 3" "2 4"; do
	read -r s c <<<"$pair"
	check_match "host $c to host $s: mrc-xfer write $mib MiB verified" \
		'^ok bytes=[0-9]+ msgs=[0-9]+ digest=' "$(grep '^ok ' "$tmp/$c.cli")"
	check "host $c to host $s: both sides saw the same data" \
		"$(grep '^ok ' "$tmp/$c.cli")" "$(grep '^ok ' "$tmp/$s.srv")"
done
check "no QP errors on any host" "$err0" "$(errors)"

read -r -a rx3b <<<"$(fabric_spine_rx 3 | paste -sd ' ')"
read -r -a rx4b <<<"$(fabric_spine_rx 4 | paste -sd ' ')"
idle=""
for ((i = 0; i < P * S; i++)); do
	[ $((rx3b[i] - rx3a[i])) -gt 100 ] || idle+=" h3:p$((i / S))s$((i % S))=$((rx3b[i] - rx3a[i]))"
	[ $((rx4b[i] - rx4a[i])) -gt 100 ] || idle+=" h4:p$((i / S))s$((i % S))=$((rx4b[i] - rx4a[i]))"
done
check "every spine of every plane took over 100 packets from host 3's and host 4's T0" "" "$idle"
rm -rf "$tmp"
mrc_finish
