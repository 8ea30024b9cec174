#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: mrc against rdma_rxe, the soft RoCE provider it is modelled on. Boots the
# stock kernel twice under QEMU: once with a one-plane mrc device per host (two
# namespaces), once with two rxe devices on the two ends of a veth pair in init_net
# (rxe has no namespace support in 6.1), and runs the same perftest pair in each:
# ib_write_bw -s 65536 and ib_write_lat -s 8. Prints both results and the ratios
# mrc/rxe. A benchmark, not a test: nothing here passes or fails on a number, and
# TCG makes the absolute values meaningless; only the ratio says something.
#
#   bench.sh                       both providers
#   BENCH_ONLY=rxe bench.sh        one of them (mrc or rxe)
#   BENCH_ITERS=N                  perftest iterations (default 1000)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$here/../.." && pwd)
iters=${BENCH_ITERS:-1000}

# ---- guest half: bench.sh --guest mrc|rxe, run by vm.sh as root in the VM ----------
if [ "${1:-}" = --guest ]; then
	set +e
	export MRC_TREE=$tree
	# shellcheck source=SCRIPTDIR/../../selftests/lib.sh
	. "$tree/selftests/lib.sh"
	trap 'mrc_dev_pair_del; topo_destroy' EXIT
	case $2 in
	mrc)
		topo_create 1 >/dev/null || exit 1
		mrc_dev_pair 1 >/dev/null || { echo "bench: mrc devices did not come up"; exit 1; }
		dev1=$MRC_DEV1 dev2=$MRC_DEV2 gid1=$MRC_GID1 gid2=$MRC_GID2 addr=10.0.0.1
		;;
	rxe)
		# Both ends in init_net: route each address out of the other end's veth, or
		# the kernel delivers over lo, where no rxe device listens.
		ip link add vethA type veth peer name vethB
		ip addr add 10.9.0.1/24 dev vethA
		ip addr add 10.9.0.2/24 dev vethB
		ip link set vethA up
		ip link set vethB up
		for d in all default vethA vethB; do
			sysctl -qw "net.ipv4.conf.$d.accept_local=1" "net.ipv4.conf.$d.rp_filter=0"
		done
		ip neigh replace 10.9.0.2 lladdr "$(cat /sys/class/net/vethB/address)" \
			dev vethA nud permanent
		ip neigh replace 10.9.0.1 lladdr "$(cat /sys/class/net/vethA/address)" \
			dev vethB nud permanent
		ip rule add pref 1000 lookup local
		ip rule del pref 0
		ip rule add pref 10 iif lo to 10.9.0.2 lookup 100
		ip rule add pref 11 iif lo to 10.9.0.1 lookup 101
		ip route add 10.9.0.2 dev vethA src 10.9.0.1 table 100
		ip route add 10.9.0.1 dev vethB src 10.9.0.2 table 101
		modprobe rdma_rxe
		rdma link add rxe0 type rxe netdev vethA
		rdma link add rxe1 type rxe netdev vethB
		# run_pair works on named namespaces: name init_net for both hosts
		H1=mrc-bench-init H2=mrc-bench-init
		mkdir -p /run/netns
		touch /run/netns/$H1
		mount --bind /proc/self/ns/net /run/netns/$H1
		trap 'umount /run/netns/$H1; rm -f /run/netns/$H1' EXIT
		wait_until 20 mrc_gid_index "" rxe0 1 10.9.0.1
		wait_until 20 mrc_gid_index "" rxe1 1 10.9.0.2
		dev1=rxe0 dev2=rxe1 addr=10.9.0.1
		gid1=$(mrc_gid_index "" rxe0 1 10.9.0.1)
		gid2=$(mrc_gid_index "" rxe1 1 10.9.0.2)
		;;
	esac
	# result TOOL SIZE COLUMN: the client's number in COLUMN of perftest's result line
	result()
	{
		run_pair 18515 "$1" -d "$dev1" -x "$gid1" -F -s "$2" -n "$iters" -- \
			"$1" -d "$dev2" -x "$gid2" -F -s "$2" -n "$iters" "$addr"
		if [ "$srv_rc$cli_rc" != 00 ]; then
			echo "bench: $1 failed (server $srv_rc, client $cli_rc):" >&2
			printf '%s\n' "$cli_out" | tail -n 5 >&2
			echo none
			return
		fi
		awk -v s="$2" -v c="$3" '$1 == s && $2 ~ /^[0-9]+$/ { print $c; exit }' \
			<<<"$cli_out"
	}
	echo "BENCH $2 bw_mbs=$(result ib_write_bw 65536 4) lat_us=$(result ib_write_lat 8 5)"
	exit 0
fi

# ---- host half ----------------------------------------------------------------------
only=${BENCH_ONLY:-mrc rxe}
"$tree/tools/testing/deps.sh"
if [[ " $only " == *" mrc "* ]]; then
	"$tree/tools/testing/build.sh" stock >/dev/null
	make -s -C "$tree/tools/mrcctl"
fi
declare -A bw lat
for p in $only; do
	echo "bench: $p, stock kernel under QEMU/TCG, $iters iterations" >&2
	out=$("$tree/tools/testing/vm/vm.sh" --kernel stock --quiet --timeout 900 -- \
		"$here/bench.sh" --guest "$p") || { echo "bench: the $p VM run failed" >&2; exit 1; }
	line=$(grep "^BENCH $p " <<<"$out") || { echo "$out" >&2; exit 1; }
	bw[$p]=$(sed -n 's/.*bw_mbs=\([^ ]*\).*/\1/p' <<<"$line")
	lat[$p]=$(sed -n 's/.*lat_us=\([^ ]*\).*/\1/p' <<<"$line")
	printf '%s: ib_write_bw -s 65536: %s MB/s, ib_write_lat -s 8: %s usec typical\n' \
		"$p" "${bw[$p]}" "${lat[$p]}"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f\n", a / b; else print "n/a" }'; }
if [ -n "${bw[mrc]:-}" ] && [ -n "${bw[rxe]:-}" ]; then
	echo "mrc/rxe bw ratio: $(ratio "${bw[mrc]}" "${bw[rxe]}") (higher is better)"
	echo "mrc/rxe lat ratio: $(ratio "${lat[mrc]}" "${lat[rxe]}") (lower is better)"
fi
