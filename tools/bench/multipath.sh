#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-multipath: what one mrc QP gets out of eight planes, as ratios against the
# capacity the planes are shaped to, and against MPTCP with a subflow on every plane,
# measured in one boot of the stock kernel:
# Goodput is the transfer's bytes per second, read from the frames leaving the sending
# host's shapers (whole sampling intervals), less the share of those bytes that were
# not the application's (headers, resends); the frames' own rate is printed beside it.
#   spray     one QP over 8 planes, each shaped to R: goodput / 8R
#   failover  plane 3 down a quarter into the transfer: goodput after / 7R
#   loss      1% random loss on every plane: goodput / 8R
#   single    the same transfer over a one-plane device: goodput / R (the peer)
#   retire    retirement time inside the call that saw the loss (mrc_ev_retire
#             tracepoint), median, p90 and max, during failover and loss
#   blackhole plane 3 silently drops everything the receiver gets on it (tc, its
#             carrier stays up) a quarter into the transfer: goodput after / 7R
#             then the same again in the same boot: its retirements run code TCG
#             has translated already (the first run's first ones are the slowest)
#   late      packets sprayed onto plane 3's EVs after each one's first loss signal,
#             during the blackhole (the same tracepoint): total and largest,
#             against one send window (256 packets)
#   counters  per mrc run, what the client's counters moved (packets, resends,
#             timeouts, retirements, window cuts) and the server's duplicates
#   mptcp-*   spray, failover and loss again over one MPTCP connection (8 subflows,
#             the in-kernel path manager, tools/bench/mptcp-xfer.py), and mrc/MPTCP
#             for each, both measured as frames leaving the sender's veths
# and PNGs of per-plane throughput over time through the plane failure (gnuplot), one
# for mrc and one for MPTCP.
# A benchmark, not a test: nothing passes or fails here; TCG makes absolute rates
# meaningless, the ratios are what to read.
#
#   BENCH_RATE_MBIT=R   per-plane shaping (default 10: below what TCG moves, so the
#                       shaping, not the emulator, is the bottleneck; run on an idle host)
#   BENCH_MB=N          MiB per transfer (default 32)
#   BENCH_MTU=N         mrc's path MTU, 256 to 4096 (default 4096, as RoCE fabrics
#                       run, on 9000-byte jumbo frames, for MPTCP too); 1024 and below
#                       keep the veths at 1500 bytes
#   BENCH_ONLY=mrc|mptcp  run only mrc's scenarios or only MPTCP's (no mrc/MPTCP lines)
#   BENCH_OUT=DIR       where the PNGs and data go (default .build/bench)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$here/../.." && pwd)
rate=${BENCH_RATE_MBIT:-10}
mb=${BENCH_MB:-32}
mtu=${BENCH_MTU:-4096}
only=${BENCH_ONLY:-}

# ---- guest half ---------------------------------------------------------------------
if [ "${1:-}" = --guest ]; then
	set +e
	export MRC_TREE=$tree
	# shellcheck source=SCRIPTDIR/../../selftests/lib.sh
	. "$tree/selftests/lib.sh"
	# shellcheck source=SCRIPTDIR/lib.sh
	. "$here/lib.sh"
	topo_create 8 >/dev/null || exit 1
	if [ "$mtu" -gt 1024 ]; then
		for i in 0 1 2 3 4 5 6 7; do
			ip -n "$H1" link set "p$i" mtu 9000
			ip -n "$H2" link set "p$i" mtu 9000
		done
	fi
	# a process in $H2 whose /proc/PID/net/dev is the veths' counters of $H2
	nsenter --net="/run/netns/$H2" sleep infinity &
	wire=/proc/$!/net/dev
	trap 'kill ${wire//[^0-9]/}; mrc_dev_pair_del; topo_destroy' EXIT
	tracing=/sys/kernel/debug/tracing
	bytes=$((mb * 1048576))

	# shape every plane of the sending host ($H2) to $rate, NETEM-ARGS added
	shape() { local i; for i in 0 1 2 3 4 5 6 7; do
		tc -n "$H2" qdisc replace dev "p$i" root netem "$@" rate "${rate}mbit" limit 10000
	done; }
	# wire_sent: bytes the veths of $H2 have sent, all planes
	wire_sent() { local v s=0; for v in $(bench_wire_read "$wire"); do s=$((s + v)); done; echo $s; }
	# fail_at NAME SENT [HOW]: plane 3 fails once SENT exceeds its start by a
	# quarter of the transfer: its link goes down on the receiving side (as a cable
	# pull looks to the sender: carrier lost), or HOW does it
	fail_at() {
		local start
		past() { [ "$("$1")" -gt "$2" ]; }
		start=$("$2")
		wait_until 600 past "$2" $((start + bytes / 4))
		echo "D $1 $(date +%s.%N)"
		if [ -n "${3:-}" ]; then "$3"; else ip -n "$H1" link set p3 down; fi
	}
	# plane 3 silently loses every packet the receiver gets on it: only the
	# transport's loss signals can tell; one exec (the clsact qdisc is added
	# beforehand): under TCG each exec takes a while, and the failure time is
	# printed before it
	blackhole3() {
		tc -n "$H1" filter add dev p3 ingress matchall action drop
	}
	plane3_up() {
		ip -n "$H1" link set p3 up
		wait_until 20 sh -c "ip -n $H2 link show p3 | grep -q LOWER_UP"
	}

	# counts: the client's counters that say how the bytes moved, then the
	# server's duplicates (copies it did not need)
	counted="tx_pkts retransmits fast_retransmits rto_timeouts ev_assumed_bad cc_decreases"
	counts() {
		local c
		for c in $counted; do mrc_counter_sum "$H2" "$MRC_DEV2" "$c"; done
		mrc_counter_sum "$H1" "$MRC_DEV1" rx_duplicates
	}
	# run NAME: one verified transfer of $mb MiB with the veths' sampler on, as
	# wire-NAME (frames after the shapers: mrc's own tx_bytes run ahead of them by
	# the packets queued in netem, and MPTCP is measured in the same unit below),
	# and a "C NAME k=v..." line of what the counters moved
	run() {
		local before after wpid
		before=$(counts)
		bench_wire_start "wire-$1" bench_wire_read "$wire"
		wpid=$!
		xfer_pair -o write -s 1m -n "$mb" -q 8 -S 11 -m "$mtu"
		bench_wire_stop "wire-$1" "$wpid" bench_wire_read "$wire"
		[ "$srv_rc$cli_rc" = 00 ] || echo "bench: $1: transfer failed ($srv_rc $cli_rc)"
		echo "R $1 bytes=$bytes ok=$([ "$srv_rc$cli_rc" = 00 ] && echo 1 || echo 0)"
		after=$(counts)
		echo "$counted rx_duplicates" |
			awk -v n="$1" -v b="${before//$'\n'/ }" -v a="${after//$'\n'/ }" '{
				split(b, x, " "); split(a, y, " "); printf "C %s", n
				for (i = 1; i <= NF; i++) printf " %s=%d", $i, y[i] - x[i]
				print "" }'
	}

	if [ "$only" != mptcp ]; then
		mrc_unload
		mrc_dev_pair 8 >/dev/null || { echo "bench: mrc devices did not come up"; exit 1; }
		mrc_sent() { mrc_counter_sum "$H2" "$MRC_DEV2" tx_bytes; }
		echo > "$tracing/trace"
		echo 1 > "$tracing/events/mrc/mrc_ev_retire/enable"
		shape delay 0ms
		run spray
		fail_at failover mrc_sent &
		fpid=$!
		run failover
		wait "$fpid"
		plane3_up
		grep -o 'in [0-9]* ns' "$tracing/trace" | awk '{ print "T failover", $2 }'
		# twice: the first run's retirements are the first pass through their
		# code, which TCG translates then; the second one's are not
		for bh in blackhole blackhole-again; do
			echo > "$tracing/trace"
			tc -n "$H1" qdisc add dev p3 clsact
			fail_at "$bh" mrc_sent blackhole3 &
			fpid=$!
			run "$bh"
			wait "$fpid"
			tc -n "$H1" qdisc del dev p3 clsact
			grep -o 'in [0-9]* ns' "$tracing/trace" | awk -v n="$bh" '{ print "T", n, $2 }'
			sed -nE "s/.* plane=3 .*, ([0-9]+) sent since the first loss signal\$/A $bh \\1/p" \
				"$tracing/trace"
		done
		echo > "$tracing/trace"
		shape loss 1%
		run loss
		grep -o 'in [0-9]* ns' "$tracing/trace" | awk '{ print "T loss", $2 }'
		echo 0 > "$tracing/events/mrc/mrc_ev_retire/enable"
		# the peer: one plane, one path, the same shaping
		mrc_dev_pair_del
		mrc_dev_pair 1 >/dev/null ||
			{ echo "bench: one-plane devices did not come up"; exit 1; }
		shape delay 0ms
		run single
	fi
	[ "$only" != mrc ] || exit 0

	# MPTCP between the same hosts: the client ($H2) connects over plane 0 and the
	# server announces its addresses on planes 1..7 (signal endpoints), to each of
	# which the client's in-kernel path manager opens a subflow, the source chosen by
	# routing: one subflow per plane. Segmentation offload off on the sender, so that
	# netem's rate and loss act on wire-sized packets as they do on mrc's.
	for ns in "$H1" "$H2"; do
		ip netns exec "$ns" sysctl -qw net.mptcp.enabled=1
		ip -n "$ns" mptcp limits set subflow 8 add_addr_accepted 8
	done
	for i in 1 2 3 4 5 6 7; do
		ip -n "$H1" mptcp endpoint add "10.$i.0.1" dev "p$i" signal
	done
	for i in 0 1 2 3 4 5 6 7; do
		ip netns exec "$H2" ethtool -K "p$i" tso off gso off >/dev/null
	done
	# mib NS COUNTER: one of the netns' MPTcpExt counters
	mib() { ip netns exec "$1" cat /proc/net/netstat |
		awk -v c="$2" '$1 == "MPTcpExt:" { if (!h) { for (i = 2; i <= NF; i++) k[i] = $i; h = 1 }
			else for (i = 2; i <= NF; i++) if (k[i] == c) print $i }'; }
	# mptcp_run NAME: one verified transfer of $mb MiB over one MPTCP connection
	# (mptcp-xfer.py), sampled as NAME; "M NAME joins=N": the subflows the server
	# accepted besides the first (7 when there is one on every plane; the samples
	# show which planes carried the data)
	mptcp_run() {
		local xfer=$here/mptcp-xfer.py srv spid wpid joins rc out
		srv=$(mktemp)
		joins=$(mib "$H1" MPJoinAckRx)
		ip netns exec "$H1" timeout "$MRC_TOOL_TIMEOUT" \
			python3 "$xfer" server 18701 >"$srv" 2>&1 &
		spid=$!
		wait_port "$H1" 18701
		bench_wire_start "$1" bench_wire_read "$wire"
		wpid=$!
		out=$(mktemp)
		ip netns exec "$H2" timeout "$MRC_TOOL_TIMEOUT" \
			python3 "$xfer" client 10.0.0.1 18701 "$bytes" >"$out" 2>&1
		rc=$?
		wait "$spid"
		bench_wire_stop "$1" "$wpid" bench_wire_read "$wire"
		echo "M $1 joins=$(($(mib "$H1" MPJoinAckRx) - joins))"
		[ "$rc" = 0 ] ||
			echo "bench: $1: transfer failed (rc $rc: $(cat "$out") / $(cat "$srv"))"
		rm -f "$srv" "$out"
		echo "R $1 bytes=$bytes ok=$([ "$rc" = 0 ] && echo 1 || echo 0)"
	}
	shape delay 0ms
	mptcp_run mptcp-spray
	fail_at mptcp-failover wire_sent &
	fpid=$!
	mptcp_run mptcp-failover
	wait "$fpid"
	plane3_up
	shape loss 1%
	mptcp_run mptcp-loss
	exit 0
fi

# ---- host half ----------------------------------------------------------------------
out=${BENCH_OUT:-$tree/.build/bench}
mkdir -p "$out"
. "$here/lib.sh"
bench_host_setup "$tree"
echo "bench: 8 planes shaped to $rate Mbit/s each, $mb MiB per transfer, path MTU $mtu, stock kernel under TCG" >&2
"$tree/tools/testing/vm/vm.sh" --kernel stock --quiet --timeout 2400 -- \
	BENCH_RATE_MBIT="$rate" BENCH_MB="$mb" BENCH_MTU="$mtu" BENCH_ONLY="$only" \
	"$here/multipath.sh" --guest \
	>"$out/multipath.raw" ||
	{ echo "bench: the VM run failed; see $out/multipath.raw" >&2; exit 1; }
grep '^bench:' "$out/multipath.raw" >&2 || true

raw=$out/multipath.raw
bytes=$((mb * 1048576))
ratio() { bench_ratio "$@"; }
down() { awk -v n="$1" '$1 == "D" && $2 == n { print $3; exit }' "$raw"; }
# report LABEL SAMPLES CAPACITY(Mbit/s) CAPNAME TARGET [FROM]: bench_report of this
# run's bytes; the samples are the veths' (the same unit for mrc and MPTCP: after
# the shaper, headers included). Sets $good to the goodput.
report() { bench_report "$raw" "$1" "$2" "$bytes" "${@:3}"; }
echo "(goodput: the $mb MiB over the time the transfer ran at the wire; frames: all bytes"
echo " leaving the sender's shapers, with Ethernet, IP, UDP and transport headers, resends)"
if [ "$only" != mptcp ]; then
	report spray wire-spray $((8 * rate)) 8R 0.95; spray=$good
	report failover wire-failover $((7 * rate)) 7R 0.90 "$(down failover)"; failover=$good
	# the drop is at the receiver: plane 3's frames count until its EVs retire
	report blackhole wire-blackhole $((7 * rate)) 7R "" "$(down blackhole)"
	report "blackhole again" wire-blackhole-again $((7 * rate)) 7R "" "$(down blackhole-again)"
	report "loss 1%" wire-loss $((8 * rate)) 8R 0.70; loss=$good
	report single wire-single "$rate" R ""
	bench_retire "$raw" failover
	bench_retire "$raw" blackhole
	bench_retire "$raw" blackhole-again
	bench_retire "$raw" loss
	bench_late "$raw" blackhole
	echo "what the counters moved per run (client; rx_duplicates: the server's):"
	sed -n 's/^C /  /p' "$raw"
	bench_plot "$raw" wire-failover "$(down failover)" "$out/multipath-failover.png" \
		"mrc: one QP over 8 planes shaped to $rate Mbit/s; plane 3 down at t = 0" \
		"seconds from the link failure"
fi
if [ "$only" != mrc ]; then
	# the joins, and the planes that carried more than 1% of the data
	awk -v min=$((mb * 1048576 / 100)) '
		$1 == "M" { sub(/^mptcp-/, "", $2); j[$2] = substr($3, 7); o[++k] = $2 }
		$1 == "S" && $2 ~ /^mptcp-/ { n = substr($2, 7)
			for (i = 4; i <= 11; i++) { if (!((n, i) in f)) f[n, i] = $i; l[n, i] = $i } }
		END { for (m = 1; m <= k; m++) { n = o[m]; c = 0
				for (i = 4; i <= 11; i++) c += l[n, i] - f[n, i] > min
				printf "mptcp %s: %s joins, %d planes carried data\n", n, j[n], c } }' "$raw"
	report "mptcp spray" mptcp-spray $((8 * rate)) 8R ""; m_spray=$good
	report "mptcp failover" mptcp-failover $((7 * rate)) 7R "" "$(down mptcp-failover)"
	m_failover=$good
	report "mptcp loss 1%" mptcp-loss $((8 * rate)) 8R ""; m_loss=$good
	bench_plot "$raw" mptcp-failover "$(down mptcp-failover)" "$out/multipath-failover-mptcp.png" \
		"MPTCP: 8 subflows over 8 planes shaped to $rate Mbit/s; plane 3 down at t = 0" \
		"seconds from the link failure"
fi
if [ -z "$only" ]; then
	echo "mrc/MPTCP goodput: spray $(ratio "$spray" "$m_spray"), failover $(ratio "$failover" "$m_failover"), loss 1% $(ratio "$loss" "$m_loss")"
fi
