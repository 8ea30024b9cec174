#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-srv6: one mrc QP on the SRv6 fabric (2 hosts, 8 planes, 4 spines) whose
# T0 uplinks from the sending host are shaped to R/4 each (tbf), so that every plane
# carries R through its spines and the fabric 8R, with ECN marking in front of each
# as a switch's queue has it (fq_codel with a CE threshold of two packet times, the
# step marking of DCTCP-style fabrics, beside its own slower AQM): after a
# spine dies, its plane has 3R/4 for an eighth of the traffic, and only marks tell the
# sender to move some of it to the other planes (equal spraying would stop at
# 6R / (8R - R/4) = 0.77). Measured in one boot of the stock kernel, as ratios against
# the capacity left, from the frames leaving the sending host's T0s towards the
# spines (past the shapers; goodput is their rate times the application's share of
# the run's bytes, headers, resends and probes being the rest):
#   srv6      source-routed (GEN paths both ways); spine 1 of plane 0 down a
#             quarter into the transfer: goodput after / (8R - R/4)
#   again     the same once more in the same boot (code already translated)
#   ecmp      the same without SRv6 paths: plain UDP hashed by the T0s over the
#             spines (static multipath routes; the T0 drops the dead next hop
#             when its link goes down): goodput after / (8R - R/4)
#   single    a one-plane device with one EV (an EV profile of 1), no failure:
#             goodput / (R/4), the one uplink its path crosses
#   retire    retirement time inside the call that saw the loss (mrc_ev_retire
#             tracepoint) in both srv6 runs, median, p90 and max, and which EVs
#             retired: those whose path crossed the dead spine, and any others
# and a PNG of per-plane throughput over time through the spine failure (gnuplot).
# A benchmark, not a test: nothing passes or fails; TCG makes absolute rates
# meaningless, the ratios are what to read. Run it on an idle host.
#
#   BENCH_RATE_MBIT=R   per-plane capacity (default 6: 1.5 Mbit/s per uplink; at 16
#                       TCG moved only half of 8R through the fabric's namespaces)
#   BENCH_MB=N          MiB per transfer (default 32; the one-path run takes an eighth)
#   BENCH_MTU=N         mrc's path MTU, 256 to 4096 (default 4096 on 9000-byte
#                       fabric links: at 1024 the headers alone take a tenth)
#   BENCH_OUT=DIR       where the PNG and data go (default .build/bench)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$here/../.." && pwd)
rate=${BENCH_RATE_MBIT:-6}
mb=${BENCH_MB:-32}
mtu=${BENCH_MTU:-4096}

# ---- guest half ---------------------------------------------------------------------
if [ "${1:-}" = --guest ]; then
	set +e
	export MRC_TREE=$tree
	# shellcheck source=SCRIPTDIR/../../selftests/lib.sh
	. "$tree/selftests/lib.sh"
	# shellcheck source=SCRIPTDIR/../../selftests/lib_fabric.sh
	. "$tree/selftests/lib_fabric.sh"
	# shellcheck source=SCRIPTDIR/lib.sh
	. "$here/lib.sh"
	mrc_unload
	link_mtu=1500
	[ "$mtu" -le 1024 ] || link_mtu=9000
	fabric_create -h 2 -p 8 -s 4 -m "$link_mtu" >/dev/null ||
		{ echo "bench: fabric setup failed"; exit 1; }
	# per plane, a process in the sending host's T0 whose /proc/PID/net/dev shows
	# the uplinks' counters
	uplinks=() pids=()
	for ((p = 0; p < 8; p++)); do
		nsenter --net="/run/netns/$(fabric_ns "t0p${p}h2")" sleep infinity &
		pids+=($!)
		uplinks+=("/proc/$!/net/dev")
	done
	trap 'kill "${pids[@]}"; mrc_dev_pair_del; fabric_destroy' EXIT
	tracing=/sys/kernel/debug/tracing
	bytes=$((mb * 1048576))
	c1() { ip netns exec "$H1" "$MRCCTL" "$@"; }
	c2() { ip netns exec "$H2" "$MRCCTL" "$@"; }

	# pair PLANES [EVPROFILE]: the device pair with IPv6 GIDs
	pair() {
		mrc_dev_pair_del
		mrc_dev_pair "$1" >/dev/null || { echo "bench: mrc devices did not come up"; exit 1; }
		if [ -n "${2:-}" ]; then
			c1 dev set "$MRC_DEV1" evprofile "$2" && c2 dev set "$MRC_DEV2" evprofile "$2"
		fi
		wait_until 20 mrc_gid_index "$H1" "$MRC_DEV1" 1 fd00:0::1
		wait_until 20 mrc_gid_index "$H2" "$MRC_DEV2" 1 fd00:0::2
		MRC_GID1=$(mrc_gid_index "$H1" "$MRC_DEV1" 1 fd00:0::1)
		MRC_GID2=$(mrc_gid_index "$H2" "$MRC_DEV2" 1 fd00:0::2)
		MRC_SERVER_ADDR=fd00:0::1
	}
	# Shape every uplink of the sending host's T0s to R/4, marking CE on every packet
	# that waited more than two packet times at that rate (a frame of the path MTU
	# and about 160 bytes of headers: 0.032 * frame / R ms each), and letting codel
	# act on a standing queue of five.
	frame=$((mtu + 160))
	ce=$((frame * 64 / (rate * 1000))) target=$((frame * 160 / (rate * 1000)))
	[ "$ce" -ge 1 ] || ce=1
	[ "$target" -ge 5 ] || target=5
	for ((p = 0; p < 8; p++)); do
		for ((s = 0; s < 4; s++)); do
			echo "qdisc replace dev s$s root handle 1: tbf rate $((rate * 1000 / 4))kbit burst 16k latency 2s"
			echo "qdisc replace dev s$s parent 1:1 handle 10: fq_codel ecn ce_threshold ${ce}ms target ${target}ms interval $((10 * target))ms limit 10000"
		done | tc -n "$(fabric_ns "t0p${p}h2")" -batch - || exit 1
	done
	# counters NAME: what moved the traffic in run NAME (client's, server's CE count)
	counters() {
		local c
		for c in tx_bytes retransmits fast_retransmits rto_timeouts ev_skips ev_assumed_bad cc_decreases \
			rx_acks_rejected; do
			printf ' %s=%s' "$c" "$(mrc_counter_sum "$H2" "$MRC_DEV2" "$c")"
		done | sed "s/^/C $1/"
		echo " rx_ecn_ce=$(mrc_counter_sum "$H1" "$MRC_DEV1" rx_ecn_ce)" \
			"rx_duplicates=$(mrc_counter_sum "$H1" "$MRC_DEV1" rx_duplicates)"
		# the fast retransmits by the plane of the overdue copy (since the
		# devices came up)
		echo "C $1 fast_retransmits by plane:" "$(for ((p = 1; p <= 8; p++)); do
			mrc_counter "$H2" "$MRC_DEV2" "$p" fast_retransmits; done | paste -sd' ')"
		tc -n "$(fabric_ns t0p0h2)" -s qdisc show | awk -v n="$1" '
			/^qdisc fq_codel/ { dev = $5 }
			/^ Sent/ && dev { sent = $2; drop = $7 + 0 }
			/ecn_mark/ && dev {
				m = ""
				for (i = 1; i < NF; i++)
					if ($i == "ecn_mark" || $i == "ce_mark")
						m = m ", " $i " " $(i + 1)
				print "Q " n " plane0 " dev ": sent " sent " bytes, dropped " drop m
				dev = ""
			}'
	}
	# run NAME FAIL [MIB]: one verified transfer of MIB (default $mb) MiB with the
	# uplinks' sampler on; with FAIL, spine 1 of plane 0 goes down when a quarter of
	# the data has left
	run() {
		local spid wpid=
		bench_wire_start "$1" bench_uplink_read "${uplinks[@]}"
		spid=$!
		if [ "$2" = 1 ]; then
			(
				past() { [ "$(mrc_counter_sum "$H2" "$MRC_DEV2" tx_bytes)" -gt "$1" ]; }
				start=$(mrc_counter_sum "$H2" "$MRC_DEV2" tx_bytes)
				wait_until 900 past $((start + bytes / 4))
				echo "D $1 $(date +%s.%N)"
				fabric_spine_down 0 1
			) &
			wpid=$!
		fi
		xfer_pair -o write -s 1m -n "${3:-$mb}" -q 8 -S 21 -m "$mtu"
		bench_wire_stop "$1" "$spid" bench_uplink_read "${uplinks[@]}"
		[ -n "$wpid" ] && wait "$wpid"
		fabric_spine_up 0 1
		counters "$1"
		[ "$srv_rc$cli_rc" = 00 ] || echo "bench: $1: transfer failed ($srv_rc $cli_rc)"
		# TCG now and then wedges a vCPU (seen in text_poke_bp, enabling the
		# tracepoint): the run then measures one CPU, not mrc
		dmesg | grep -qE 'self-detected stall|soft lockup' &&
			echo "bench: $1: the guest reported a CPU stall (dmesg); discard its figures"
		echo "R $1 bytes=$((${3:-$mb} * 1048576)) ok=$([ "$srv_rc$cli_rc" = 00 ] && echo 1 || echo 0)"
	}

	pair 8
	c2 srv6 set dev "$MRC_DEV2" peer fd00:0::1 locator fc00:0 usids 1002,2000,1001,3001 \
		plane-shift 8 tier usid 1 shift 0 count 4 || exit 1
	c1 srv6 set dev "$MRC_DEV1" peer fd00:0::2 locator fc00:0 usids 1001,2000,1002,3002 \
		plane-shift 8 tier usid 1 shift 0 count 4 || exit 1
	# retirements NAME: "T NAME ns why plane path" for each retirement the
	# tracepoint saw since the last call (the path is the entropy modulo the
	# plane's 4), then a clean trace
	retirements() {
		sed -n 's/.* plane=\([0-9]*\) ev=\(0x[0-9a-f]*\) .* in \([0-9]*\) ns (\([a-z]*\)).*/\3 \4 \1 \2/p' \
			"$tracing/trace" | while read -r ns why pl ev; do
			echo "T $1 $ns $why $pl $(((ev & 0x3fff) % 4))"
		done
		echo > "$tracing/trace"
	}
	echo > "$tracing/trace"
	echo 1 > "$tracing/events/mrc/mrc_ev_retire/enable"
	run srv6 1
	retirements srv6
	# The same failure again in this boot, on code TCG has translated by now: a
	# boot's first pass through the retirement took hundreds of microseconds
	run srv6-again 1
	retirements srv6-again
	# The tracepoint stays on (the other runs retire little): turning it off
	# text-patches the kernel again, which once wedged a vCPU under TCG.
	pair 8
	run ecmp 1
	# the peer: one plane, one EV and no spare, so that it stays on its one path
	# (with spares, a timeout under the deep queue retired the EV, and the
	# transfer went on over two uplinks)
	c1 evprofile add 1 evs 1 min-active 1 backups 0 && c1 evprofile set 1 state online &&
		c2 evprofile add 1 evs 1 min-active 1 backups 0 && c2 evprofile set 1 state online
	pair 1 1
	# an eighth of the data: it has a thirty-second of the capacity
	run single 0 $(((mb + 7) / 8))
	exit 0
fi

# ---- host half ----------------------------------------------------------------------
out=${BENCH_OUT:-$tree/.build/bench}
mkdir -p "$out"
. "$here/lib.sh"
bench_host_setup "$tree"
echo "bench: SRv6 fabric, 8 planes x 4 spines, $rate Mbit/s per plane, $mb MiB per transfer, path MTU $mtu, stock kernel under TCG" >&2
"$tree/tools/testing/vm/vm.sh" --kernel stock --quiet --timeout 2400 -- \
	BENCH_RATE_MBIT="$rate" BENCH_MB="$mb" BENCH_MTU="$mtu" "$here/srv6.sh" --guest >"$out/srv6.raw" ||
	{ echo "bench: the VM run failed; see $out/srv6.raw" >&2; exit 1; }
grep '^bench:' "$out/srv6.raw" >&2 || true

raw=$out/srv6.raw
bytes=$((mb * 1048576))
ratio() { bench_ratio "$@"; }
down() { awk -v n="$1" '$1 == "D" && $2 == n { print $3; exit }' "$raw"; }
# report LABEL NAME BYTES CAPACITY CAPNAME [TARGET [FROM]]: bench_report, the
# frames being those leaving the T0s' shapers
report() { bench_report "$raw" "$@"; }
left=$(awk -v r="$rate" 'BEGIN { print 8 * r - r / 4 }')
# Before the failure the uplinks should carry 8R of frames; much less means the
# VM's CPUs, not the shapers, set the pace, and the ratios measure the emulator.
before=$(bench_goodput "$raw" srv6 0 "$(down srv6)")
echo "(goodput: the application's bytes per second at the wire; frames: all bytes leaving"
echo " the sending host's T0s towards the spines, with Ethernet, IPv6, SRv6, UDP and"
echo " transport headers, resends and probes)"
echo "before: frames $before Mbit/s before the failure, / 8R = $(ratio "$before" $((8 * rate))) (below 0.9: CPU-bound, lower BENCH_RATE_MBIT)"
report srv6 srv6 "$bytes" "$left" "8R-R/4" 0.90 "$(down srv6)"
report again srv6-again "$bytes" "$left" "8R-R/4" 0.90 "$(down srv6-again)"
report ecmp ecmp "$bytes" "$left" "8R-R/4" "" "$(down ecmp)"
report single single "$(awk '$1 == "R" && $2 == "single" { sub(/bytes=/, "", $3); print $3 }' "$raw")" \
	"$(awk -v r="$rate" 'BEGIN { print r / 4 }')" "R/4"
for n in srv6 srv6-again; do
	bench_retire "$raw" "$n"
	# which EVs retired: on the dead spine (plane 0, path 1) or anywhere else, and why
	awk -v n="$n" '$1 == "T" && $2 == n {
			k = ($5 == 0 && $6 == 1) ? "on the dead spine" : "elsewhere (plane " $5 " path " $6 ")"
			c[k " " $4]++ }
		END { for (k in c) printf "  retired %s: %d\n", k, c[k] }' "$raw" | sort
done
echo "what moved the traffic (client counters, the server's CE count; plane 0's shaped uplinks):"
grep -E '^[CQ] ' "$raw" | sed 's/^[CQ] /  /'

bench_plot "$raw" srv6 "$(down srv6)" "$out/srv6-spine-failure.png" \
	"mrc over SRv6: one QP, 8 planes x 4 spines, $rate Mbit/s per plane; spine 1 of plane 0 down at t = 0" \
	"seconds from the spine failure"
