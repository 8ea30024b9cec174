#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Shared helpers for mrc selftests: kselftest exit codes, checks that print what they
# compared, module handling, and the two-host topology (two network namespaces joined
# by N veth "planes") that every data-path test builds on. Source it, do not run it.

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

MRC_SELFTESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MRC_TREE=${MRC_TREE:-$(cd "$MRC_SELFTESTS/.." && pwd)}
MRCCTL=${MRCCTL:-$MRC_TREE/tools/mrcctl/mrcctl}
# Unique per test run so that a failed teardown never collides with the next test.
MRC_SUFFIX=${MRC_SUFFIX:-$$}
H1=mrc-h1-$MRC_SUFFIX
H2=mrc-h2-$MRC_SUFFIX

mrc_checks=0
mrc_failed=0

# Where the time goes: when the VM harness provides $MRC_OUT, every check appends
# the milliseconds since the previous one (the work that led to it), the test and the
# check to check-times.tsv; make check prints the slowest, against CI's budget.
mrc_check_t0=${EPOCHREALTIME/[.,]/}
mrc_check_time()
{
	local now=${EPOCHREALTIME/[.,]/}

	[ -n "${MRC_OUT:-}" ] && printf '%d\t%s\t%s\n' $(((now - mrc_check_t0) / 1000)) \
		"${0##*/}" "$1" >>"$MRC_OUT/check-times.tsv"
	mrc_check_t0=$now
}

# mrc_skip REASON: skipping is loud and never counts as a pass.
mrc_skip()
{
	echo "# SKIP: $*"
	exit $KSFT_SKIP
}

mrc_fail()
{
	mrc_check_time "$*"
	echo "not ok - $*"
	mrc_failed=$((mrc_failed + 1))
}

mrc_ok()
{
	mrc_check_time "$*"
	echo "ok - $*"
}

# mrc_nap: the polls' 50 ms pause, without an exec (sleep(1) costs the debug kernel
# 0.1 s of CPU that the guests beside it need): read -t on a FIFO that the test's
# shell opened at both ends when it sourced this file, and no one writes; subshells
# and background jobs inherit it.
mrc_nap_fifo=$(mktemp -u) && mkfifo -m 0600 "$mrc_nap_fifo" &&
	exec {mrc_nap_fd}<>"$mrc_nap_fifo" && rm -f "$mrc_nap_fifo"
mrc_nap()
{
	# read's time-out status (142) must not end a caller running under set -e
	read -r -t 0.05 -u "$mrc_nap_fd" || true
}

# check DESCRIPTION EXPECTED ACTUAL
check()
{
	mrc_checks=$((mrc_checks + 1))
	if [ "$2" = "$3" ]; then
		mrc_ok "$1"
	else
		mrc_fail "$1"
		echo "#   expected: $2"
		echo "#   actual:   $3"
	fi
}

# check_counter_delta DESCRIPTION BEFORE AFTER: the counter moved up.
check_counter_delta()
{
	mrc_checks=$((mrc_checks + 1))
	if [[ $2 =~ ^[0-9]+$ && $3 =~ ^[0-9]+$ ]] && [ "$3" -gt "$2" ]; then
		mrc_ok "$1 ($2 -> $3)"
	else
		mrc_fail "$1 ($2 -> $3)"
	fi
}

# check_match DESCRIPTION EXTENDED-REGEX ACTUAL: some line of ACTUAL matches, as with
# grep -E; the shell's own matcher unless ACTUAL is long (an exec costs the debug
# kernel 0.1 s, a shell loop over a long dump more).
check_match()
{
	local line hit=1

	mrc_checks=$((mrc_checks + 1))
	if [ ${#3} -gt 4096 ]; then
		printf '%s\n' "$3" | grep -qE -- "$2"
		hit=$?
	else
		while IFS= read -r line; do
			[[ $line =~ $2 ]] && { hit=0; break; }
		done <<<"$3"
	fi
	if [ $hit = 0 ]; then
		mrc_ok "$1"
	else
		mrc_fail "$1"
		echo "#   expected to match: $2"
		echo "#   actual: $3"
	fi
}

# check_eventually DESCRIPTION EXPECTED CMD...: for state the kernel updates
# asynchronously (carrier changes reach notifiers through the linkwatch work): poll
# CMD until it prints EXPECTED, failing after 5 s.
check_eventually()
{
	local what=$1 want=$2 got deadline=$((SECONDS + 5))
	shift 2
	while got=$("$@" 2>&1); [ "$got" != "$want" ] && [ $SECONDS -lt $deadline ]; do
		mrc_nap
	done
	check "$what" "$want" "$got"
}

# wait_for_line FILE LINE: wait (at most 5 s) until FILE holds LINE, e.g. a
# background monitor announcing that it listens; returns 1 on timeout.
wait_for_line()
{
	local deadline=$((SECONDS + 5))

	until grep -qxF -- "$2" "$1" 2>/dev/null; do
		[ $SECONDS -lt $deadline ] || return 1
		mrc_nap
	done
}

# run_rc CMD...: run a command, capture its combined output in $out and status in $rc.
run_rc()
{
	out=$("$@" 2>&1)
	rc=$?
}

# expect_nlerr WHAT ERRNO MESSAGE CMD...: mrcctl refused: exit status 2 and
# exactly the kernel's message and errno.
expect_nlerr()
{
	local what=$1 errno=$2 msg=$3
	shift 3
	run_rc "$@"
	check "$what: exit status" "2" "$rc"
	check "$what: $errno" "Error: $msg ($errno)" "$out"
}

mrc_finish()
{
	if [ $mrc_checks -eq 0 ]; then
		echo "# no check ran"
		exit $KSFT_FAIL
	fi
	echo "# $((mrc_checks - mrc_failed)) of $mrc_checks checks passed"
	[ $mrc_failed -eq 0 ] && exit $KSFT_PASS
	exit $KSFT_FAIL
}

# The debug kernel (KASAN, lockdep, kmemleak; -mrcdebug) runs every test several
# times slower under TCG. Tests run all their checks there too, with fewer
# repetitions and smaller transfers, so that make check fits CI's time budget.
mrc_debug_kernel() { [[ $(uname -r) == *mrcdebug* ]]; }

# mrc_scaled N: N, or N / 2 under the debug kernel.
mrc_scaled()
{
	if mrc_debug_kernel; then
		echo $(($1 / 2))
	else
		echo "$1"
	fi
}

mrc_require_root()
{
	[ "$(id -u)" = 0 ] || mrc_skip "needs root"
}

mrc_require_mrcctl()
{
	[ -x "$MRCCTL" ] || mrc_skip "$MRCCTL not built (make tools)"
}

# mrc_require_setpriv: defines the two callers without CAP_NET_ADMIN that the
# permission tests run as, "nocap" (root with the capability dropped) and "nobody",
# as command prefixes; use them through a nameref: declare -n as=$who.
mrc_require_setpriv()
{
	command -v setpriv >/dev/null || mrc_skip "setpriv (util-linux) missing"
	nocap=(setpriv --inh-caps=-net_admin --bounding-set=-net_admin)
	nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)
}

# Load mrc through modprobe so that dependencies (ib_core) come along; the VM harness
# points modprobe at a module root holding the freshly built mrc.ko.
mrc_load()
{
	modprobe mrc
}

# mrc_backlog_deep: veth hands every packet to a CPU's backlog, netdev_max_backlog
# (1000) deep; a stalled guest overflows it and drops a burst, a real loss that
# retires the EVs it was on. A test that counts retirements makes the backlog deep
# enough that the only losses are the ones it makes; mrc_backlog_restore (in its
# EXIT trap) puts the old depth back, mrc_softnet_drops says if any other happened.
mrc_backlog_deep()
{
	MRC_BACKLOG=$(sysctl -n net.core.netdev_max_backlog) &&
		sysctl -qw net.core.netdev_max_backlog=100000
}

mrc_backlog_restore()
{
	[ -z "${MRC_BACKLOG:-}" ] || sysctl -qw net.core.netdev_max_backlog="$MRC_BACKLOG"
}

mrc_softnet_drops()
{
	local n=0 _ d rest
	while read -r _ d rest; do n=$((n + 16#$d)); done </proc/net/softnet_stat
	echo "$n"
}

# mrc_unres_discards: packets dropped while waiting for a neighbour (ARP or ND)
# to resolve, summed over the CPUs of both tables (global, not per namespace).
mrc_unres_discards()
{
	local t v n=0
	for t in /proc/net/stat/arp_cache /proc/net/stat/ndisc_cache; do
		[ -r "$t" ] || continue
		for v in $(awk 'NR == 1 { for (i = 1; i <= NF; i++)
					if ($i == "unresolved_discards") c = i; next }
				c { print $c }' "$t"); do
			n=$((n + 16#$v))
		done
	done
	echo "$n"
}

# mrc_param_set NAME VALUE: set one of mrc's module parameters, remembering the value it
# had first; mrc_params_restore (in the test's EXIT trap) puts every one back, so that a
# test that stops early leaves the next one the defaults.
declare -A MRC_PARAMS_SAVED=()
mrc_param_set()
{
	local f=/sys/module/mrc/parameters/$1

	[ -n "${MRC_PARAMS_SAVED[$1]+set}" ] || MRC_PARAMS_SAVED[$1]=$(cat "$f") || return 1
	echo "$2" >"$f"
}

mrc_params_restore()
{
	local p

	for p in "${!MRC_PARAMS_SAVED[@]}"; do
		[ -w "/sys/module/mrc/parameters/$p" ] &&
			echo "${MRC_PARAMS_SAVED[$p]}" >"/sys/module/mrc/parameters/$p"
	done
	MRC_PARAMS_SAVED=()
}

mrc_unload()
{
	if [ -d /sys/module/mrc ]; then
		modprobe -r mrc
	fi
}

# topo_create [PLANES]: hosts $H1 and $H2, plane i is veth p<i> in both, with
# 10.<i>.0.1/24 + fd00:<i>::1/64 on $H1 and .2/::2 on $H2. Torn down by topo_destroy,
# which tests register with trap ... EXIT.
topo_create()
{
	local planes=${1:-8} i ns
	MRC_PLANES=$planes
	ip netns add "$H1" || return 1
	ip netns add "$H2" || return 1
	# One ip per namespace, in batch mode: under the debug kernel each exec
	# costs 0.4 s, and eight planes took seven each.
	for ((i = 0; i < planes; i++)); do
		echo "link add p$i netns $H1 type veth peer name p$i netns $H2"
	done | ip -b - || return 1
	for ns in "$H1" "$H2"; do
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 \
			net.ipv6.conf.default.accept_dad=0
		{
			echo "link set lo up"
			for ((i = 0; i < planes; i++)); do
				if [ "$ns" = "$H1" ]; then
					echo "addr add 10.$i.0.1/24 dev p$i"
					echo "addr add fd00:$i::1/64 dev p$i nodad"
				else
					echo "addr add 10.$i.0.2/24 dev p$i"
					echo "addr add fd00:$i::2/64 dev p$i nodad"
				fi
				echo "link set p$i up"
			done
		} | ip -n "$ns" -b - || return 1
	done
}

topo_destroy()
{
	ip netns del "$H1" 2>/dev/null
	ip netns del "$H2" 2>/dev/null
	true
}

# The plane arguments for "mrcctl dev add": plane p0 plane p1 ...
topo_plane_args()
{
	local i
	for ((i = 0; i < ${1:-$MRC_PLANES}; i++)); do
		printf 'plane p%d ' "$i"
	done
}

# ---------------------------------------------------------------------------------------
# RDMA helpers for the data-path tests: devices over the topology, GIDs, counters,
# server/client pairs and netem. Every wait is bounded and polls for the event.

MRC_XFER=${MRC_XFER:-$MRC_TREE/tools/mrc-xfer/mrc-xfer}
# Seconds any one tool may run before it is killed (a hang must not eat the test limit).
# The debug kernel beside CI's other guests moves about 8 s per MiB, so a 16 MiB
# transfer through a blackhole can need more than 120 s; killed at 120 s, a server
# takes its MR down under the client's WRITEs and the run reads as a remote access
# error. There a tool gets twice that; a hang is still caught within the test's limit.
if mrc_debug_kernel; then
	MRC_TOOL_TIMEOUT=${MRC_TOOL_TIMEOUT:-240}
else
	MRC_TOOL_TIMEOUT=${MRC_TOOL_TIMEOUT:-120}
fi
# mrc-xfer's own limit without a completion (-t), far below a healthy run's gaps
MRC_XFER_TIMEOUT=${MRC_XFER_TIMEOUT:-30}

mrc_require_xfer()
{
	[ -x "$MRC_XFER" ] || mrc_skip "$MRC_XFER not built (make tools)"
}

# mrc_require_cmds CMD...: skip when a userspace tool (a Debian package) is missing.
mrc_require_cmds()
{
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null || mrc_skip "$c missing (tools/testing/deps.sh)"
	done
}

# nsx NS CMD...: run CMD in namespace NS, or in the caller's when NS is empty.
nsx()
{
	local ns=$1
	shift
	if [ -n "$ns" ]; then
		ip netns exec "$ns" "$@"
	else
		"$@"
	fi
}

# wait_until SECONDS CMD...: poll CMD until it succeeds; 1 when SECONDS pass first.
wait_until()
{
	local deadline=$((SECONDS + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ $SECONDS -lt $deadline ] || return 1
		mrc_nap
	done
}

# mrc_gid_string ADDR: the GID sysfs shows for an IPv4 (as ::ffff:a.b.c.d) or IPv6
# address, eight groups of four hex digits.
mrc_gid_string()
{
	local a=$1 head tail g=() i n
	if [[ $a != *:* ]]; then
		IFS=. read -r -a g <<<"$a"
		printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n' \
			"${g[0]}" "${g[1]}" "${g[2]}" "${g[3]}"
		return
	fi
	if [[ $a == *::* ]]; then
		head=${a%%::*} tail=${a#*::}
	else
		head=$a tail=
	fi
	local h=() t=()
	[ -n "$head" ] && IFS=: read -r -a h <<<"$head"
	[ -n "$tail" ] && IFS=: read -r -a t <<<"$tail"
	n=$((8 - ${#h[@]} - ${#t[@]}))
	g=("${h[@]}")
	for ((i = 0; i < n; i++)); do g+=(0); done
	g+=("${t[@]}")
	for ((i = 0; i < 8; i++)); do g[i]=$((16#${g[i]})); done
	printf '%04x:%04x:%04x:%04x:%04x:%04x:%04x:%04x\n' "${g[@]}"
}

# mrc_gid_index NS IBDEV PORT ADDR: the GID table index holding ADDR with type
# "RoCE v2"; prints nothing and returns 1 when there is none. Read by the shell in
# the initial namespace, which shows every RDMA device's table (mrc_counter): the
# table is polled while it fills, and one exec costs the debug kernel 0.1 s.
# NS is kept for the callers' symmetry.
mrc_gid_index()
{
	local d=/sys/class/infiniband/$2/ports/$3 want n g t

	want=$(mrc_gid_string "$4")
	for ((n = 0; ; n++)); do
		{ read -r g <"$d/gids/$n"; } 2>/dev/null || return 1
		[ "$g" = "$want" ] || continue
		{ read -r t <"$d/gid_attrs/types/$n"; } 2>/dev/null || t=
		if [ "$t" = "RoCE v2" ]; then
			echo "$n"
			return 0
		fi
	done
}

# mrc_dev_pair PLANES: one mrc device per host over planes p0..p<PLANES-1>; the RDMA
# device names are global, so they carry the test's suffix. Exports MRC_DEV1/MRC_DEV2
# (on $H1/$H2) and MRC_GID1/MRC_GID2, the RoCE v2 GID index of plane 0's IPv4 address
# on port 1 (10.0.0.1 and 10.0.0.2). Counts one check per device; returns 1 on failure.
mrc_dev_pair()
{
	local planes=$1 rc=0
	MRC_DEV1=mrc-a$MRC_SUFFIX
	MRC_DEV2=mrc-b$MRC_SUFFIX
	export MRC_DEV1 MRC_DEV2
	# shellcheck disable=SC2046
	run_rc "$MRCCTL" -n "$H1" dev add "$MRC_DEV1" $(topo_plane_args "$planes")
	check "dev add $MRC_DEV1 over $planes planes" "0" "$rc"
	[ "$rc" = 0 ] || { echo "# $out"; return 1; }
	# shellcheck disable=SC2046
	run_rc "$MRCCTL" -n "$H2" dev add "$MRC_DEV2" $(topo_plane_args "$planes")
	check "dev add $MRC_DEV2 over $planes planes" "0" "$rc"
	[ "$rc" = 0 ] || { echo "# $out"; return 1; }
	wait_until 20 mrc_gid_index "$H1" "$MRC_DEV1" 1 10.0.0.1 &&
		wait_until 20 mrc_gid_index "$H2" "$MRC_DEV2" 1 10.0.0.2 || rc=1
	MRC_GID1=$(mrc_gid_index "$H1" "$MRC_DEV1" 1 10.0.0.1)
	MRC_GID2=$(mrc_gid_index "$H2" "$MRC_DEV2" 1 10.0.0.2)
	export MRC_GID1 MRC_GID2
	check_match "RoCE v2 GIDs of 10.0.0.1/10.0.0.2 appear on port 1" \
		'^[0-9]+ [0-9]+$' "$MRC_GID1 $MRC_GID2"
	return $rc
}

# mrc_dev_pair_ipv6: from here on the pair's QPs use IPv6 address vectors, the
# GIDs of fd00:0::1 and fd00:0::2 (needed by source routing and by STEV labels).
mrc_dev_pair_ipv6()
{
	wait_until 20 mrc_gid_index "$H1" "$MRC_DEV1" 1 fd00:0::1 &&
		wait_until 20 mrc_gid_index "$H2" "$MRC_DEV2" 1 fd00:0::2
	MRC_GID1=$(mrc_gid_index "$H1" "$MRC_DEV1" 1 fd00:0::1)
	MRC_GID2=$(mrc_gid_index "$H2" "$MRC_DEV2" 1 fd00:0::2)
	MRC_SERVER_ADDR=fd00:0::1
	export MRC_GID1 MRC_GID2 MRC_SERVER_ADDR
	check_match "RoCE v2 GIDs of fd00:0::1/fd00:0::2 appear on port 1" \
		'^[0-9]+ [0-9]+$' "$MRC_GID1 $MRC_GID2"
}

# mrc_dev_pair_del: delete both devices (a test between two topologies), if made.
mrc_dev_pair_del()
{
	[ -n "${MRC_DEV1:-}" ] || return 0
	"$MRCCTL" -n "$H1" dev del "$MRC_DEV1" 2>/dev/null
	"$MRCCTL" -n "$H2" dev del "$MRC_DEV2" 2>/dev/null
	true
}

# port_listening PID PORT: a TCP listener on PORT in the network namespace of process
# PID, from /proc/PID/net/tcp and tcp6, read by the shell itself: under the debug
# kernel "ip netns exec NS ss" costs 0.6 s per poll, this nothing.
port_listening()
{
	local f sl laddr raddr st rest want

	printf -v want '%04X' "$2"
	for f in "/proc/$1/net/tcp" "/proc/$1/net/tcp6"; do
		while read -r sl laddr raddr st rest; do
			[ "${laddr##*:}" = "$want" ] && [ "$st" = 0A ] && return 0
		done <"$f"
	done 2>/dev/null
	return 1
}

# wait_port PID PORT: wait (at most 60 s: a server opens its device before it
# listens, slowly in the debug VM) until the server PID, started by "ip netns exec
# NS ...", listens on TCP port PORT; 1 at once when PID has exited.
wait_port()
{
	local deadline=$((SECONDS + 60))

	until port_listening "$1" "$2"; do
		[ -d "/proc/$1" ] && [ $SECONDS -lt $deadline ] || return 1
		mrc_nap
	done
}

# wait_cm_port NS PORT: the same for an rdma_cm listener (rping), which has no socket:
# poll the RDMA resource tracker for a LISTEN cm_id on PORT.
wait_cm_port()
{
	# shellcheck disable=SC2016
	wait_until 60 sh -c 'ip netns exec "$1" rdma resource show cm_id 2>/dev/null |
		grep -E "state LISTEN .*src-addr [^ ]*:$2( |$)"' sh "$1" "$2"
}

# netem_all NS ARGS...: tc qdisc replace dev p<i> root netem ARGS on every plane of NS.
netem_all()
{
	local ns=$1 i
	shift
	for ((i = 0; i < MRC_PLANES; i++)); do
		echo "qdisc replace dev p$i root netem $*"
	done | tc -n "$ns" -b -
}

# netem_clear NS: back to the default qdisc on every plane of NS (-force: a
# plane without a qdisc of its own is no error).
netem_clear()
{
	local ns=$1 i
	for ((i = 0; i < MRC_PLANES; i++)); do
		echo "qdisc del dev p$i root"
	done | tc -n "$ns" -force -b - 2>/dev/null
	true
}

# mrc_counter NS DEV PORT NAME: one hw counter of an RDMA port ("missing" when the
# device has no such counter). The names live here and in mrc_counter_sum only.
# Read in the initial namespace: the sysfs a namespace mounts lists the ports of an
# RDMA device but not their hw_counters. NS is kept for the callers' symmetry.
# The shell's own read, not cat: an exec costs the debug kernel 0.4 s.
mrc_counter()
{
	local v
	{ read -r v <"/sys/class/infiniband/$2/ports/$3/hw_counters/$4"; } 2>/dev/null &&
		echo "$v" || echo missing
}

# mrc_counter_sum NS DEV NAME: the counter summed over all ports (planes) of DEV,
# read as mrc_counter does, without a subshell per port.
mrc_counter_sum()
{
	local dev=$2 name=$3 p v sum=0 any=0

	for p in "/sys/class/infiniband/$dev/ports/"*; do
		{ read -r v <"$p/hw_counters/$name"; } 2>/dev/null || continue
		sum=$((sum + v)) any=1
	done
	[ $any = 1 ] && echo "$sum" || echo missing
}

# check_perf_line DESCRIPTION OUTPUT SIZE [ITERS]: a perftest client's result line (the
# first line of numbers) names SIZE bytes and, for a count-driven run, ITERS iterations.
check_perf_line()
{
	local want=$3${4:+ $4}
	check "$1" "$want" "$(awk -v n=$((${4:+1} + 1)) \
		'/^ *[0-9]+ +[0-9]+ +([0-9.]+|inf) / { print (n == 2 ? $1 " " $2 : $1); exit }' <<<"$2")"
}

# check_from_peers DESCRIPTION: on a healthy fabric every packet of the pair's
# devices passes the source check and every port status is the peer's: the
# rejection counters of both devices are exactly 0.
check_from_peers()
{
	local c got=""
	for c in rx_bad_src_addr port_status_rx_rejected; do
		got+="$c $(mrc_counter_sum "$H1" "$MRC_DEV1" $c) $(mrc_counter_sum "$H2" "$MRC_DEV2" $c) "
	done
	check "$1: nothing refused as not from the peer" \
		"rx_bad_src_addr 0 0 port_status_rx_rejected 0 0 " "$got"
}

# run_pair PORT SERVER-CMD... -- CLIENT-CMD...: SERVER-CMD in $H1 in the background
# and, once it listens on TCP port PORT (cm:PORT: an rdma_cm listener), CLIENT-CMD in
# $H2, each under a time limit. Sets srv_rc/cli_rc, srv_out/cli_out (combined
# output) and pair_secs (how long the pair ran).
run_pair()
{
	local port=$1 srv=() tmp pid pair_t0
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do srv+=("$1"); shift; done
	shift
	tmp=$(mktemp)
	pair_t0=$SECONDS
	ip netns exec "$H1" timeout "$MRC_TOOL_TIMEOUT" "${srv[@]}" >"$tmp" 2>&1 &
	pid=$!
	local listening=(wait_port "$pid")
	[[ $port == cm:* ]] && listening=(wait_cm_port "$H1")
	if "${listening[@]}" "${port#cm:}"; then
		cli_out=$(ip netns exec "$H2" timeout "$MRC_TOOL_TIMEOUT" "$@" 2>&1)
		cli_rc=$?
	else
		cli_out="(server never listened on port $port)" cli_rc=254
		kill "$pid" 2>/dev/null
	fi
	wait "$pid"
	srv_rc=$?
	pair_secs=$((SECONDS - pair_t0))
	srv_out=$(cat "$tmp")
	rm -f "$tmp"
}

# The address the client reaches the server at (TCP exchange), $H1's on plane 0; the
# GIDs MRC_GID1/MRC_GID2 must be of the same family.
MRC_SERVER_ADDR=${MRC_SERVER_ADDR:-10.0.0.1}

# xfer_pair ARGS...: mrc-xfer between the device pair (server $H1, client $H2 to
# $MRC_SERVER_ADDR) with ARGS on both sides.
xfer_pair()
{
	run_pair 18700 "$MRC_XFER" -d "$MRC_DEV1" -g "$MRC_GID1" -t "$MRC_XFER_TIMEOUT" "$@" -- \
		"$MRC_XFER" -d "$MRC_DEV2" -g "$MRC_GID2" -t "$MRC_XFER_TIMEOUT" "$@" \
		"$MRC_SERVER_ADDR"
}

# A held pair lives through a whole scenario's checks, each an exec or three
# (0.4 s per exec under the debug kernel): it gets more than one tool's time.
held_limit=$((3 * MRC_TOOL_TIMEOUT))

# held_start TAG ARGS...: an mrc-xfer pair in the background (server $H1, client
# $H2, files in the test's own directory $MRC_HELD_DIR) whose QPs stay, idle,
# after the verdict until held_release. ARGS after the common ones go to both
# sides, except --pause (client only).
held_start()
{
	local tag=$1 both=() d=$MRC_HELD_DIR
	shift
	while [ $# -gt 0 ] && [ "$1" != --pause ]; do both+=("$1"); shift; done
	rm -f "$d/release"
	ip netns exec "$H1" timeout "$held_limit" "$MRC_XFER" -d "$MRC_DEV1" \
		-g "$MRC_GID1" -t "$held_limit" --hold "$d/release" "${both[@]}" \
		>"$d/$tag.srv" 2>&1 &
	srv_pid=$!
	wait_port "$srv_pid" 18700 || return 1
	ip netns exec "$H2" timeout "$held_limit" "$MRC_XFER" -d "$MRC_DEV2" \
		-g "$MRC_GID2" -t "$held_limit" --hold "$d/release" "${both[@]}" "$@" \
		"$MRC_SERVER_ADDR" \
		>"$d/$tag.cli" 2>&1 &
	cli_pid=$!
}

# held_done TAG: both sides printed their verdict and hold their QPs.
held_done()
{
	grep -qE '^(ok|fail) ' "$MRC_HELD_DIR/$1.cli" &&
		grep -qE '^(ok|fail) ' "$MRC_HELD_DIR/$1.srv"
}

# held_paused TAG N: held pair TAG's client (--pause) paused for the Nth time.
held_paused() { grep -qx "paused $2" "$MRC_HELD_DIR/$1.cli"; }

# held_release TAG WHAT: let both sides go, and check the transfer verified.
held_release()
{
	touch "$MRC_HELD_DIR/release"
	wait "$cli_pid"
	cli_rc=$?
	wait "$srv_pid"
	srv_rc=$?
	check "$2: client and server exit status" "0 0" "$cli_rc $srv_rc"
	check_match "$2: client verified" '^ok bytes=[0-9]+ msgs=[0-9]+ digest=' \
		"$(cat "$MRC_HELD_DIR/$1.cli")"
	check "$2: both sides saw the same data" "$(grep '^ok ' "$MRC_HELD_DIR/$1.cli")" \
		"$(grep '^ok ' "$MRC_HELD_DIR/$1.srv")"
}

# ok_line TEXT: TEXT's first line that begins "ok " (mrc-xfer's verdict), found
# by the shell (a grep would be an exec).
ok_line()
{
	local line

	while IFS= read -r line; do
		[[ $line == "ok "* ]] && { echo "$line"; return; }
	done <<<"$1"
}

# check_xfer DESCRIPTION ARGS...: an mrc-xfer run that must verify on both sides, with
# the same digest line on both.
check_xfer()
{
	local what=$1
	shift
	xfer_pair "$@"
	check "$what: server exit status" "0" "$srv_rc"
	check "$what: client exit status" "0" "$cli_rc"
	check_match "$what: client verified" '^ok bytes=[0-9]+ msgs=[0-9]+ digest=' \
		"$cli_out"
	check "$what: both sides saw the same data" \
		"$(ok_line "$cli_out")" "$(ok_line "$srv_out")"
	[ "$srv_rc$cli_rc" = 00 ] || printf '# after %s s (limit %s s)\n# server: %s\n# client: %s\n' \
		"$pair_secs" "$MRC_TOOL_TIMEOUT" \
		"$(tail -n 5 <<<"$srv_out" | paste -sd '|')" "$(tail -n 5 <<<"$cli_out" | paste -sd '|')"
}
