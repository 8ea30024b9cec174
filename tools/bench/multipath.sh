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
	# sampler NAME: every 0.1 s, "S NAME t tx_bytes(port 1..8)" of the client's device,
	# one read and one write per line (a one-plane device reports zeros for 2..8)
	sampler() {
		local c=/sys/class/infiniband/$MRC_DEV2/ports v
		while :; do
			v=$(cat "$c"/*/hw_counters/tx_bytes 2>/dev/null | paste -sd' ')
			printf 'S %s %s %s 0 0 0 0 0 0 0 0\n' "$1" "$(date +%s.%N)" "$v" |
				cut -d' ' -f1-11
			sleep 0.1
		done
	}
	# run NAME: one verified transfer of $mb MiB with the sampler on
	run() {
		sampler "$1" &
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
"$tree/tools/testing/deps.sh"
command -v gnuplot >/dev/null || apt-get install -y -qq gnuplot-nox >/dev/null
"$tree/tools/testing/build.sh" stock >/dev/null
make -s -C "$tree/tools/mrcctl"
make -s -C "$tree/tools/mrc-xfer"
echo "bench: 8 planes shaped to $rate Mbit/s each, $mb MiB per transfer, stock kernel under TCG" >&2
"$tree/tools/testing/vm/vm.sh" --kernel stock --quiet --timeout 2400 -- \
	BENCH_RATE_MBIT="$rate" BENCH_MB="$mb" "$here/multipath.sh" --guest >"$out/multipath.raw" ||
	{ echo "bench: the VM run failed; see $out/multipath.raw" >&2; exit 1; }
grep '^bench:' "$out/multipath.raw" >&2 || true

# goodput NAME [FROM]: bytes sent over the time the samples of NAME show traffic (from
# FROM, a timestamp, when given: the failover's tail), in Mbit/s
goodput() {
	awk -v n="$1" -v from="${2:-0}" '
		$1 == "S" && $2 == n && $3 >= from && NF == 11 {
			s = 0; for (i = 4; i <= 11; i++) s += $i
			if (s != last) { if (!t0) { t0 = $3; b0 = s } t1 = $3; b1 = s }
			last = s
		}
		END {
			if (t1 <= t0) { print "n/a"; exit }
			printf "%.1f\n", (b1 - b0) * 8 / (t1 - t0) / 1e6
		}' "$out/multipath.raw"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else printf "n/a" }'; }
down=$(awk '$1 == "D" { print $2; exit }' "$out/multipath.raw")
spray=$(goodput spray) failover=$(goodput failover "${down:-0}") loss=$(goodput loss)
single=$(goodput single)
echo "spray:    $spray Mbit/s on the wire, / 8R = $(ratio "$spray" $((8 * rate))) (target >= 0.95)"
echo "failover: $failover Mbit/s after plane 3 went down, / 7R = $(ratio "$failover" $((7 * rate))) (target >= 0.90)"
echo "loss 1%:  $loss Mbit/s, / 8R = $(ratio "$loss" $((8 * rate))) (target >= 0.70)"
echo "single:   $single Mbit/s over one plane, / R = $(ratio "$single" "$rate")"
for s in failover loss; do
	awk -v s="$s" '$1 == "T" && $2 == s { print $3 }' "$out/multipath.raw" | sort -n |
		awk -v s="$s" '{ v[NR] = $1 } END {
			if (NR) printf "retire (%s): %d retirements, median %d ns, max %d ns (target <= 50000)\n",
				s, NR, v[int((NR + 1) / 2)], v[NR]
			else printf "retire (%s): none\n", s }'
done
echo "(rates are bytes on the wire, headers and retransmissions included)"

# per-plane throughput through the failure
awk -v d="${down:-0}" '$1 == "S" && $2 == "failover" && NF == 11 {
		if (pt) { printf "%.2f", $3 - d; for (i = 4; i <= 11; i++) printf " %.2f", ($i - p[i]) * 8 / ($3 - pt) / 1e6; print "" }
		pt = $3; for (i = 4; i <= 11; i++) p[i] = $i
	}' "$out/multipath.raw" >"$out/failover.dat"
gnuplot <<EOF
set terminal png size 900,500
set output "$out/multipath-failover.png"
set title "mrc: one QP over 8 planes shaped to $rate Mbit/s; plane 3 down at t = 0"
set xlabel "seconds from the link failure"
set ylabel "Mbit/s sent per plane"
set key outside right
plot for [i=2:9] "$out/failover.dat" using 1:i with lines title sprintf("plane %d", i - 2)
EOF
echo "plot: $out/multipath-failover.png"
