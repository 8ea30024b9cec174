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

# mrc_skip REASON: skipping is loud and never counts as a pass.
mrc_skip()
{
	echo "# SKIP: $*"
	exit $KSFT_SKIP
}

mrc_fail()
{
	echo "not ok - $*"
	mrc_failed=$((mrc_failed + 1))
}

mrc_ok()
{
	echo "ok - $*"
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

# check_match DESCRIPTION EXTENDED-REGEX ACTUAL
check_match()
{
	mrc_checks=$((mrc_checks + 1))
	if printf '%s\n' "$3" | grep -qE -- "$2"; then
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
		sleep 0.05
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
		sleep 0.05
	done
}

# run_rc CMD...: run a command, capture its combined output in $out and status in $rc.
run_rc()
{
	out=$("$@" 2>&1)
	rc=$?
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
	local planes=${1:-8} i
	MRC_PLANES=$planes
	ip netns add "$H1" || return 1
	ip netns add "$H2" || return 1
	for ns in "$H1" "$H2"; do
		ip -n "$ns" link set lo up
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 \
			net.ipv6.conf.default.accept_dad=0
	done
	for ((i = 0; i < planes; i++)); do
		ip link add "p$i" netns "$H1" type veth peer name "p$i" netns "$H2" || return 1
		ip -n "$H1" addr add "10.$i.0.1/24" dev "p$i"
		ip -n "$H2" addr add "10.$i.0.2/24" dev "p$i"
		ip -n "$H1" addr add "fd00:$i::1/64" dev "p$i" nodad
		ip -n "$H2" addr add "fd00:$i::2/64" dev "p$i" nodad
		ip -n "$H1" link set "p$i" up
		ip -n "$H2" link set "p$i" up
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
