#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# SRv6 path programming through mrcctl, over two planes: GEN templates and
# explicit paths are set, shown exactly as set (an entry of 256 paths, split
# over dump messages, as one entry), replaced and deleted; every bad request
# gets its errno and message, unprivileged callers get EPERM; and a QP whose
# peer has a GEN entry shows, per EV, the outer destination its plane and
# entropy pick from the template, and its data reaches the peer along them
# (decapsulated there by an End.DT6 route for the locator block).
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_xfer
mrc_require_setpriv
mrc_require_cmds jq
dir=$(mktemp -d)
MRC_HELD_DIR=$dir
trap 'touch "$dir/release"; wait; mrc_params_restore; mrc_dev_pair_del; topo_destroy; rm -rf "$dir"' EXIT
mrc_unload
topo_create 2 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
mrc_dev_pair 2 || exit $KSFT_FAIL

c2() { "$MRCCTL" -n "$H2" "$@"; }
D=$MRC_DEV2
# The client's entry for the server: the QP of section (d) sends along it.
gen_args=(dev "$D" peer fd00:0::1 locator fc00:0 usids 1001,2000,1002,3002
	plane-shift 8 tier usid 1 shift 0 count 4)
gen_line="srv6 dev $D peer fd00::1 locator fc00:0 gen usids 1001,2000,1002,3002 plane-shift 8 tier usid 1 shift 0 count 4 paths-per-plane 4"

# (a) round trips
run_rc c2 -j srv6 show
check "srv6 show: nothing set yet" "0 []" "$rc $out"
run_rc c2 srv6 set "${gen_args[@]}"
check "srv6 set GEN" "0 " "$rc $out"
check "srv6 show: GEN entry" "$gen_line" "$(c2 srv6 show)"
check "srv6 show dev D: the same" "$gen_line" "$(c2 srv6 show dev "$D")"
check "srv6 show dev of another name: nothing" "" "$(c2 srv6 show dev nosuch)"
check "srv6 show -j: GEN entry" \
	"{\"dev\":\"$D\",\"peer\":\"fd00::1\",\"locator\":\"fc00:0\",\"mode\":\"gen\",\"usids\":[\"1001\",\"2000\",\"1002\",\"3002\"],\"plane_shift\":8,\"tiers\":[{\"usid\":1,\"shift\":0,\"count\":4}],\"paths_per_plane\":4}" \
	"$(c2 -j srv6 show | jq -c '.[0]')"

run_rc c2 srv6 set dev "$D" peer fd00:1::1 locator fc00:1 usids 10,20 \
	tier usid 0 shift 8 count 3 tier usid 1 shift 12 count 2
check "srv6 set GEN without plane shift, two tiers" "0" "$rc"
check "srv6 show: two entries in the order set" \
	"$gen_line
srv6 dev $D peer fd00:1::1 locator fc00:1 gen usids 10,20 tier usid 0 shift 8 count 3 tier usid 1 shift 12 count 2 paths-per-plane 6" \
	"$(c2 srv6 show)"

# Replace the second entry by explicit paths, 7 uSIDs (an SRH) on plane 1.
run_rc c2 srv6 set dev "$D" peer fd00:1::1 locator fc00:1 \
	path plane 1 usids 1,2,3,4,5,6,7 path plane 0 usids abcd path plane 1 usids ffff
check "srv6 set EXP replaces GEN" "0" "$rc"
check "srv6 show: EXP entry, paths grouped by plane" \
	"$gen_line
srv6 dev $D peer fd00:1::1 locator fc00:1 exp
    path plane 0 usids abcd
    path plane 1 usids 1,2,3,4,5,6,7
    path plane 1 usids ffff" \
	"$(c2 srv6 show)"
check "srv6 show -j: EXP entry" \
	'{"peer":"fd00:1::1","mode":"exp","paths":[{"plane":0,"usids":["abcd"]},{"plane":1,"usids":["1","2","3","4","5","6","7"]},{"plane":1,"usids":["ffff"]}]}' \
	"$(c2 -j srv6 show | jq -c '.[1] | {peer, mode, paths}')"

# 256 paths of six uSIDs: about 16 KiB, more than the first dump message
# holds, so the entry comes in several messages that print as one.
big=() want="srv6 dev $D peer fd00:2::1 locator fc00:2 exp"
for ((i = 0; i < 256; i++)); do
	u=$(printf '%x' $((i + 1)))
	big+=(path plane $((i % 2)) usids "$u,a,b,c,d,e")
done
for p in 0 1; do
	for ((i = p; i < 256; i += 2)); do
		want+=$'\n'"    path plane $p usids $(printf '%x' $((i + 1))),a,b,c,d,e"
	done
done
run_rc c2 srv6 set dev "$D" peer fd00:2::1 locator fc00:2 "${big[@]}"
check "srv6 set EXP with 256 paths" "0" "$rc"
check "srv6 show: the 256-path entry whole, once" "$want" \
	"$(c2 srv6 show | sed -n '/peer fd00:2::1/,$p')"
check "srv6 show -j: 256 paths in one entry, three entries" "3 256" \
	"$(c2 -j srv6 show | jq -r '"\(length) \(.[2].paths | length)"')"

run_rc c2 srv6 del dev "$D" peer fd00:2::1
check "srv6 del" "0 " "$rc $out"
run_rc c2 srv6 del dev "$D" peer fd00:1::1
check "srv6 del of the EXP entry" "0" "$rc"
check "srv6 show: the GEN entry is left" "$gen_line" "$(c2 srv6 show)"

# (b) refusals: errno and message; none changes the table.
bad()
{
	local what=$1 want=$2
	shift 2
	run_rc c2 srv6 "$@"
	check "refused: $what" "2 Error: $want" "$rc $out"
}
inv=EINVAL
rng="integer out of range (ERANGE)"
P=(dev "$D" peer fd00:9::1 locator fc00:9)
bad "missing peer" "missing destination or locator ($inv)" \
	set dev "$D" locator fc00:9 usids 1
bad "missing locator" "missing destination or locator ($inv)" \
	set dev "$D" peer fd00:9::1 usids 1
bad "missing device name" "missing device name ($inv)" \
	set peer fd00:9::1 locator fc00:9 usids 1
bad "template and paths" "give either a template or explicit paths ($inv)" \
	set "${P[@]}" usids 1 path plane 0 usids 2
bad "neither template nor paths" "give either a template or explicit paths ($inv)" \
	set "${P[@]}"
bad "zero locator (policy)" "$rng" set dev "$D" peer fd00:9::1 locator 0:0 usids 1
bad "zero uSID in a template (policy)" "$rng" set "${P[@]}" usids 1001,0
bad "zero uSID in a path (policy)" "$rng" set "${P[@]}" path plane 0 usids 0
bad "13 uSIDs in a template" "too many uSIDs ($inv)" \
	set "${P[@]}" usids 1,2,3,4,5,6,7,8,9,a,b,c,d
bad "13 uSIDs in a path" "too many uSIDs ($inv)" \
	set "${P[@]}" path plane 0 usids 1,2,3,4,5,6,7,8,9,a,b,c,d
bad "tier uSID index 12 (policy)" "$rng" \
	set "${P[@]}" usids 1000 tier usid 12 shift 0 count 2
bad "tier uSID index beyond the template" \
	"tier uSID index beyond the template's uSIDs ($inv)" \
	set "${P[@]}" usids 1000,2000 tier usid 2 shift 0 count 2
bad "tier count 0 (policy)" "$rng" \
	set "${P[@]}" usids 1000 tier usid 0 shift 0 count 0
bad "tier count 257 (policy)" "$rng" \
	set "${P[@]}" usids 1000 tier usid 0 shift 0 count 257
bad "tier without a count" "a tier needs a uSID, a shift and a count ($inv)" \
	set "${P[@]}" usids 1000 tier usid 0 shift 0
bad "overlapping tier fields" \
	"tier fields overlap each other or the plane field ($inv)" \
	set "${P[@]}" usids 1000 tier usid 0 shift 0 count 4 tier usid 0 shift 1 count 2
bad "tier field over the plane field" \
	"tier fields overlap each other or the plane field ($inv)" \
	set "${P[@]}" usids 1000 plane-shift 4 tier usid 0 shift 6 count 4
bad "tier field over the base uSID" "generated bits overlap the base uSID ($inv)" \
	set "${P[@]}" usids 1000 tier usid 0 shift 12 count 2
bad "plane field over the base uSID" "generated bits overlap the base uSID ($inv)" \
	set "${P[@]}" usids 1100 plane-shift 8
bad "tier field past bit 15" "tier field does not fit in a uSID ($inv)" \
	set "${P[@]}" usids 1 tier usid 0 shift 15 count 4
bad "more than 4096 paths per plane" "more than 4096 paths per plane ($inv)" \
	set "${P[@]}" usids 1000,2000 tier usid 0 shift 0 count 256 \
	tier usid 1 shift 0 count 17
bad "five tiers" "too many tiers ($inv)" \
	set "${P[@]}" usids 1000,2000,3000 tier usid 0 shift 0 count 2 \
	tier usid 0 shift 1 count 2 tier usid 1 shift 0 count 2 \
	tier usid 1 shift 1 count 2 tier usid 2 shift 0 count 2
bad "plane shift 13" "plane field does not fit in a uSID ($inv)" \
	set "${P[@]}" usids 1 plane-shift 13
bad "plane shift 16 (policy)" "$rng" set "${P[@]}" usids 1 plane-shift 16
bad "tiers with explicit paths" "tiers and plane shift belong to a template ($inv)" \
	set "${P[@]}" path plane 0 usids 1 tier usid 0 shift 0 count 2
bad "plane shift with explicit paths" \
	"tiers and plane shift belong to a template ($inv)" \
	set "${P[@]}" path plane 0 usids 1 plane-shift 4
bad "path plane 16 (policy)" "$rng" set "${P[@]}" path plane 16 usids 1
bad "path without uSIDs" "a path needs a plane and uSIDs ($inv)" \
	set "${P[@]}" path plane 0
many=()
for ((i = 0; i < 257; i++)); do many+=(path plane 0 usids 1); done
bad "257 explicit paths" "between 1 and 256 explicit paths ($inv)" \
	set "${P[@]}" "${many[@]}"
bad "unknown device" "no such mrc device (ENODEV)" \
	set dev nosuch peer fd00:9::1 locator fc00:9 usids 1
bad "del: unknown device" "no such mrc device (ENODEV)" \
	del dev nosuch peer fd00:0::1
bad "del: absent peer" "no SRv6 paths to this destination (ENOENT)" \
	del dev "$D" peer fd00:9::1
bad "del: missing peer" "missing destination ($inv)" del dev "$D"
for who in nocap nobody; do
	declare -n as=$who
	run_rc ip netns exec "$H2" "${as[@]}" "$MRCCTL" srv6 set "${P[@]}" usids 1
	check "$who: srv6 set refused" "2 Error: Operation not permitted (EPERM)" "$rc $out"
	run_rc ip netns exec "$H2" "${as[@]}" "$MRCCTL" srv6 del dev "$D" peer fd00:0::1
	check "$who: srv6 del refused" "2 Error: Operation not permitted (EPERM)" "$rc $out"
	run_rc ip netns exec "$H2" "${as[@]}" "$MRCCTL" srv6 show
	check "$who: srv6 show allowed" "0 $gen_line" "$rc $out"
done
check "the refused requests left the table as it was" "$gen_line" "$(c2 srv6 show)"

# (c) at most 1024 destinations per device: the 1025th is ENOSPC.
for ((i = 1; i <= 1024; i++)); do
	printf 'srv6 set dev %s peer fd01::%x locator fc00:0 usids 1\n' "$D" "$i"
done >"$dir/batch"
run_rc c2 -b "$dir/batch"
check "1024 more destinations (one was there): the last is refused" \
	"2 mrcctl: batch line 1024 failed
Error: too many SRv6 destinations (ENOSPC)" "$rc $out"
check "... and the table holds 1024" "1024" "$(c2 -j srv6 show | jq length)"
for ((i = 1; i < 1024; i++)); do
	printf 'srv6 del dev %s peer fd01::%x\n' "$D" "$i"
done >"$dir/batch"
run_rc c2 -b "$dir/batch"
check "deleting them again" "0 " "$rc $out"
check "the GEN entry is all that is left" "$gen_line" "$(c2 srv6 show)"

# (d) a QP to fd00:0::1 from $H2 takes the GEN entry when its AV is set.
# The held pair exchanges over TCP to 10.0.0.1 but names IPv6 GIDs, so the
# QPs' peer is fd00:0::1.  The client routes the locator block out of each
# plane (the module looks it up with the plane as output device) to the
# server, which decapsulates with End.DT6 and delivers the inner packet to
# itself.  Four EVs per plane, four paths per plane: the slots are installed
# one per path.  A slot that retired its entropy (after a loss) may have
# moved to any path, so only slots that never did are held to that.
for p in 0 1; do
	ip -n "$H2" -6 route add fc00::/32 via "fd00:$p::1" dev "p$p" table $((100 + p))
	ip -n "$H2" -6 rule add oif "p$p" table $((100 + p))
done
# The inner destination is local: look it up in table local.
ip -n "$H1" -6 route add fc00::/32 encap seg6local action End.DT6 table 255 count dev p0
MRC_GID1=$(mrc_gid_index "$H1" "$MRC_DEV1" 1 fd00:0::1)
MRC_GID2=$(mrc_gid_index "$H2" "$MRC_DEV2" 1 fd00:0::2)
check_match "IPv6 GIDs of fd00:0::1/fd00:0::2 on port 1" '^[0-9]+ [0-9]+$' \
	"$MRC_GID1 $MRC_GID2"
mrc_param_set ev_count 8
held_start d -o write -s 4096 -n 16 -q 4 -S 31 || exit $KSFT_FAIL
# The AV is set (and the entry taken) when the QP has its EVs.
qp_evs() { [ "$(c2 -j qp show dev "$D" | jq -r '.[0].evs | length')" = 8 ]; }
wait_until 120 qp_evs
check "the client's QP has its address vector and 8 EVs" "0" "$?"
j=$(c2 -j qp show dev "$D")
check "qp show: the QP's peer is fd00::1" "fd00::1" "$(jq -r '.[0].peer' <<<"$j")"
# uSID i of path k on plane p: base | p << 8, and k ORed into uSID 1.
check "every EV's via is its plane's path (entropy mod 4) of the template" "true" \
	"$(jq '[.[0].evs[] | (.value % 16384 % 4) as $k |
		"fc00:0:1\(.plane)01:2\(.plane)0\($k):1\(.plane)02:3\(.plane)02::" == .srv6_da]
		| all' <<<"$j")"
check "no EV has an SRH segment (four uSIDs fit the DA)" "0" \
	"$(jq '[.[0].evs[] | select(has("srv6_seg"))] | length' <<<"$j")"
for p in 0 1; do
	check "plane $p: slots never retired sit on distinct paths" "true" \
		"$(jq "[.[0].evs[] | select(.plane == $p and .retired == 0) | .srv6_da] |
			length == (unique | length)" <<<"$j")"
	check "plane $p: every DA is one of the plane's four paths" "true" \
		"$(jq "[.[0].evs[] | select(.plane == $p) | .srv6_da] - [range(4) |
			\"fc00:0:1${p}01:2${p}0\\(.):1${p}02:3${p}02::\"] | length == 0" <<<"$j")"
done
check_match "qp show: human EV line ends with via DA" \
	'^    slot 0 plane [01] value 0x[0-9a-f]{8} sport [0-9]+ state good tx_pkts [0-9]+ retx [0-9]+ losses [0-9]+ ecn [0-9]+ retired [0-9]+ via fc00:0:1[01]01:2[01]0[0-3]:1[01]02:3[01]02::$' \
	"$(c2 qp show dev "$D" | sed -n 2p)"
check "the server's QP (no entry for its peer) shows no via" "0" \
	"$("$MRCCTL" -n "$H1" -j qp show dev "$MRC_DEV1" |
		jq '[.[0].evs[] | select(has("srv6_da"))] | length')"
wait_until 120 held_done d
check "the transfer over SRv6 finished" "0" "$?"
held_release d "transfer over SRv6 paths"
# Every data packet the client sent went through the server's End.DT6.
dt6=$(ip -n "$H1" -s -6 route show fc00::/32 | sed -n 's/.* packets \([0-9]*\) .*/\1/p')
check_match "the server decapsulated packets (End.DT6 count $dt6)" '^[1-9][0-9]*$' "$dt6"
mrc_params_restore
mrc_finish
