#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-multipath: what one mrc QP gets out of eight planes, as ratios against the
# capacity the planes are shaped to, measured in one boot of the stock kernel:
#   spray     one QP over 8 planes, each shaped to R: goodput / 8R
#   failover  plane 3 down a quarter into the transfer: goodput after / 7R
#   loss      1% random loss on every plane: goodput / 8R
#   single    the same transfer over a one-plane device: goodput / R (the peer)
#   retire    retirement time inside the call that saw the loss (mrc_ev_retire
#             tracepoint), median and max, during failover and loss
# and a PNG of per-plane throughput over time through the plane failure (gnuplot).
# A benchmark, not a test: nothing passes or fails here; TCG makes absolute rates
# meaningless, the ratios are what to read. MPTCP over the same planes is not run yet.
#
#   BENCH_RATE_MBIT=R   per-plane shaping (default 10: below what TCG moves, so the
#                       shaping, not the emulator, is the bottleneck; run on an idle host)
#   BENCH_MB=N          MiB per transfer (default 32)
#   BENCH_OUT=DIR       where the PNG and data go (default .build/bench)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$here/../.." && pwd)
rate=${BENCH_RATE_MBIT:-10}
mb=${BENCH_MB:-32}

# ---- guest half ---------------------------------------------------------------------
if [ "${1:-}" = --guest ]; then
	set +e
	export MRC_TREE=$tree
	# shellcheck source=SCRIPTDIR/../../selftests/lib.sh
	. "$tree/selftests/lib.sh"
	# shellcheck source=SCRIPTDIR/lib.sh
	. "$here/lib.sh"
	trap 'mrc_dev_pair_del; topo_destroy' EXIT
	mrc_unload
	topo_create 8 >/dev/null || exit 1
	mrc_dev_pair 8 >/dev/null || { echo "bench: mrc devices did not come up"; exit 1; }
	tracing=/sys/kernel/debug/tracing
	bytes=$((mb * 1048576))

	# shape every plane of the sending host ($H2) to $rate, NETEM-ARGS added
	shape() { local i; for i in 0 1 2 3 4 5 6 7; do
		tc -n "$H2" qdisc replace dev "p$i" root netem "$@" rate "${rate}mbit" limit 10000
	done; }
	# run NAME: one verified transfer of $mb MiB with the sampler on
	run() {
		bench_sampler "$1" &
		local spid=$!
		xfer_pair -o write -s 1m -n "$mb" -q 8 -S 11
		kill "$spid"
		wait "$spid" 2>/dev/null
		[ "$srv_rc$cli_rc" = 00 ] || echo "bench: $1: transfer failed ($srv_rc $cli_rc)"
		echo "R $1 bytes=$bytes ok=$([ "$srv_rc$cli_rc" = 00 ] && echo 1 || echo 0)"
	}

	echo > "$tracing/trace"
	echo 1 > "$tracing/events/mrc/mrc_ev_retire/enable"
	shape delay 0ms
	run spray
	# plane 3 goes down when a quarter of the data has left
	(
		past() { [ "$(mrc_counter_sum "$H2" "$MRC_DEV2" tx_bytes)" -gt "$1" ]; }
		start=$(mrc_counter_sum "$H2" "$MRC_DEV2" tx_bytes)
		wait_until 600 past $((start + bytes / 4))
		echo "D $(date +%s.%N)"
		ip -n "$H1" link set p3 down
	) &
	run failover
	wait
	ip -n "$H1" link set p3 up
	wait_until 20 sh -c "ip -n $H2 link show p3 | grep -q LOWER_UP"
	grep -o 'in [0-9]* ns' "$tracing/trace" | awk '{ print "T failover", $2 }'
	echo > "$tracing/trace"
	shape loss 1%
	run loss
	grep -o 'in [0-9]* ns' "$tracing/trace" | awk '{ print "T loss", $2 }'
	echo 0 > "$tracing/events/mrc/mrc_ev_retire/enable"
	# the peer: one plane, one path, the same shaping
	mrc_dev_pair_del
	mrc_dev_pair 1 >/dev/null || { echo "bench: one-plane devices did not come up"; exit 1; }
	shape delay 0ms
	run single
	exit 0
fi

# ---- host half ----------------------------------------------------------------------
out=${BENCH_OUT:-$tree/.build/bench}
mkdir -p "$out"
. "$here/lib.sh"
bench_host_setup "$tree"
echo "bench: 8 planes shaped to $rate Mbit/s each, $mb MiB per transfer, stock kernel under TCG" >&2
"$tree/tools/testing/vm/vm.sh" --kernel stock --quiet --timeout 2400 -- \
	BENCH_RATE_MBIT="$rate" BENCH_MB="$mb" "$here/multipath.sh" --guest >"$out/multipath.raw" ||
	{ echo "bench: the VM run failed; see $out/multipath.raw" >&2; exit 1; }
grep '^bench:' "$out/multipath.raw" >&2 || true

raw=$out/multipath.raw
goodput() { bench_goodput "$raw" "$@"; }
ratio() { bench_ratio "$@"; }
down=$(awk '$1 == "D" { print $2; exit }' "$out/multipath.raw")
spray=$(goodput spray) failover=$(goodput failover "${down:-0}") loss=$(goodput loss)
single=$(goodput single)
echo "spray:    $spray Mbit/s on the wire, / 8R = $(ratio "$spray" $((8 * rate))) (target >= 0.95)"
echo "failover: $failover Mbit/s after plane 3 went down, / 7R = $(ratio "$failover" $((7 * rate))) (target >= 0.90)"
echo "loss 1%:  $loss Mbit/s, / 8R = $(ratio "$loss" $((8 * rate))) (target >= 0.70)"
echo "single:   $single Mbit/s over one plane, / R = $(ratio "$single" "$rate")"
bench_retire "$raw" failover
bench_retire "$raw" loss
echo "(rates are bytes on the wire, headers and retransmissions included)"

bench_plot "$raw" failover "${down:-0}" "$out/multipath-failover.png" \
	"mrc: one QP over 8 planes shaped to $rate Mbit/s; plane 3 down at t = 0" \
	"seconds from the link failure"
