#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the multipath benchmarks share: the guest's samplers of the bytes the sending
# host's frames put on each plane past its shapers (whoever sent them), and the
# host's readings of the raw file the guest writes ("S NAME t bytes(plane 0..7)"
# samples, "T NAME ns ..." retirement times) into goodput, ratios, retirement
# statistics and a per-plane plot. Sourced, never run.

# bench_wire_read DEV: the tx_bytes of the veths p0..p7 in the /proc/net/dev view DEV
# (/proc/PID/net/dev of a process in the netns), without forking: the sampler and
# the trigger of a failure poll it while TCG is busy moving the traffic
bench_wire_read()
{
	local dev v f tx=(0 0 0 0 0 0 0 0)
	while IFS=: read -r dev v; do
		dev=${dev// /}
		[[ $dev == p[0-7] ]] || continue
		read -r -a f <<<"$v"
		tx[${dev#p}]=${f[8]}
	done <"$1"
	echo "${tx[*]}"
}

# bench_uplink_read DEV0 .. DEV7: per plane, the tx_bytes of the uplinks s0, s1, ...
# in the /proc/net/dev view of plane p's switch (DEVp): frames leaving a T0 towards
# the spines. One awk for all eight: a shell loop over their lines took half a
# second per sample under TCG.
bench_uplink_read()
{
	awk 'FNR == 1 { p++ }
		{
			split($0, a, ":"); n = a[1]; gsub(/ /, "", n)
			if (n ~ /^s[0-9]+$/) { split(a[2], f, " "); tx[p] += f[9] }
		}
		END { for (i = 1; i <= 8; i++) printf "%d%s", tx[i], i < 8 ? " " : "\n" }' "$@"
}

# bench_wire_sampler NAME READER [ARG...]: every 0.1 s, "S NAME t bytes(plane 0..7)"
# from READER ARG... (bench_wire_read, bench_uplink_read): frames as they leave the
# sender's shapers, headers included, whoever sent them
bench_wire_sampler()
{
	while :; do
		echo "S $1 $EPOCHREALTIME $("${@:2}")"
		sleep 0.1
	done
}

# bench_wire_start NAME READER [ARG...]: one sample at once, then bench_wire_sampler
# with the same arguments in the background ($! is its pid). The first sample is
# the baseline a payload share is read against (bench_payload), so it is taken
# before the caller starts the transfer, not at the background loop's first turn,
# which under TCG can come after the first frames left.
bench_wire_start()
{
	echo "S $1 $EPOCHREALTIME $("${@:2}")"
	bench_wire_sampler "$@" &
}

# bench_wire_stop NAME PID READER [ARG...]: stop the sampler PID and take one last
# sample, after the transfer ended: the loop's last one can be up to an interval
# older, and the bytes sent since would be missing from the run's total
bench_wire_stop()
{
	kill "$2"
	wait "$2" 2>/dev/null
	echo "S $1 $EPOCHREALTIME $("${@:3}")"
}

# bench_host_setup: what the host half needs before it boots the guest
bench_host_setup()
{
	local tree=$1
	"$tree/tools/testing/deps.sh"
	command -v gnuplot >/dev/null || apt-get install -y -qq gnuplot-nox >/dev/null
	"$tree/tools/testing/build.sh" stock >/dev/null
	make -s -C "$tree/tools/mrcctl"
	make -s -C "$tree/tools/mrc-xfer"
}

# bench_goodput RAW NAME [FROM [TO]]: bytes sent over the time the samples of NAME
# show traffic (from FROM and up to TO, timestamps, when given), in Mbit/s. Traffic is
# a step of more than 16 KiB after the first sample, which is only the baseline: the
# counters an earlier run left, and the veths' handshakes and neighbour discovery
# before and after a transfer, are not this transfer's. Only whole intervals of
# traffic count: the rate runs from the first sample that shows traffic (its
# interval began idle) to the one before the last (the last interval ends idle).
# Counting the last interval too read up to one sampling interval of idle time as
# part of the transfer: several percent of a 3-second run sampled every 0.3 s.
bench_goodput()
{
	awk -v n="$2" -v from="${3:-0}" -v to="${4:-0}" '
		$1 == "S" && $2 == n && $3 >= from && (!to || $3 <= to) && NF == 11 {
			s = 0; for (i = 4; i <= 11; i++) s += $i
			if (seen && s - last > 16384) {
				if (!t0) { t0 = $3; b0 = s }
				pt = ct; pb = cb; ct = $3; cb = s
			}
			last = s; seen = 1
		}
		END {
			if (pt <= t0) { print "n/a"; exit }
			printf "%.1f\n", (pb - b0) * 8 / (pt - t0) / 1e6
		}' "$1"
}

# bench_payload RAW NAME BYTES [FROM]: goodput, the application's BYTES per second,
# from the samples of NAME taken at the wire: bench_goodput (whole intervals, from
# FROM) times the share of the run's bytes on the wire that were the application's
# (the rest: Ethernet, IP, UDP and transport headers, resends, probes, answers)
bench_payload()
{
	local rate
	rate=$(bench_goodput "$1" "$2" "${4:-0}")
	awk -v n="$2" -v b="$3" -v r="$rate" '
		$1 == "S" && $2 == n && NF == 11 {
			s = 0; for (i = 4; i <= 11; i++) s += $i
			if (!seen) first = s
			last = s; seen = 1
		}
		END {
			if (r + 0 <= 0 || last <= first) { print "n/a"; exit }
			printf "%.1f\n", r * b / (last - first)
		}' "$1"
}

# bench_ratio A B: A / B to two decimals, n/a when either is not a positive number
bench_ratio()
{
	awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else printf "n/a" }'
}

# bench_report RAW LABEL NAME BYTES CAPACITY CAPNAME [TARGET [FROM]]: one line of
# goodput (BYTES of the run NAME per second, bench_payload) and the rate of its
# frames (bench_goodput), both against CAPACITY Mbit/s (called CAPNAME), with the
# TARGET when there is one, from FROM on. Sets $good to the goodput.
bench_report()
{
	local w
	w=$(bench_goodput "$1" "$3" "${8:-0}")
	good=$(bench_payload "$1" "$3" "$4" "${8:-0}")
	printf '%-16s goodput %s Mbit/s, / %s = %s%s; frames %s Mbit/s, / %s = %s\n' "$2:" \
		"$good" "$6" "$(bench_ratio "$good" "$5")" "${7:+ (target >= $7)}" \
		"$w" "$6" "$(bench_ratio "$w" "$5")"
}

# bench_retire RAW NAME: count, median, 90th percentile and max of the "T NAME ns"
# retirement times, and where the max fell in the order they happened: under TCG the
# first pass through code not yet translated costs tens to hundreds of microseconds,
# which a tail made only of first retirements shows
bench_retire()
{
	awk -v s="$2" '$1 == "T" && $2 == s { print ++n, $3 }' "$1" | sort -k2,2n |
		awk -v s="$2" '{ v[NR] = $2; at[NR] = $1 } END {
			if (NR) printf "retire (%s): %d retirements, median %d ns, p90 %d ns, max %d ns (#%d of %d) (target <= 50000)\n",
				s, NR, v[int((NR + 1) / 2)], v[int((NR * 9 + 9) / 10)], v[NR], at[NR], NR
			else printf "retire (%s): none\n", s }'
}

# bench_late RAW NAME: the "A NAME packets" lines: what retired EVs were given after
# their first loss signal, in total and at most on one EV, against one send window
bench_late()
{
	awk -v s="$2" '$1 == "A" && $2 == s { n++; t += $3; if ($3 > m) m = $3 } END {
		if (n) printf "late (%s): %d packets sprayed onto %d dead EVs after their first loss signal, at most %d on one (target <= one window, 256)\n",
			s, t, n, m
		else printf "late (%s): no EV of the failed plane retired by a loss signal\n", s }' "$1"
}

# bench_plot RAW NAME FROM PNG TITLE XLABEL: per-plane Mbit/s of the samples of NAME
# over time from FROM (t = 0) as a PNG
bench_plot()
{
	local dat=${4%.png}.dat
	awk -v n="$2" -v d="${3:-0}" '$1 == "S" && $2 == n && NF == 11 {
			if (pt) { printf "%.2f", $3 - d; for (i = 4; i <= 11; i++) printf " %.2f", ($i - p[i]) * 8 / ($3 - pt) / 1e6; print "" }
			pt = $3; for (i = 4; i <= 11; i++) p[i] = $i
		}' "$1" >"$dat"
	gnuplot <<EOF
set terminal png size 900,500
set output "$4"
set title "$5"
set xlabel "$6"
set ylabel "Mbit/s sent per plane"
set key outside right
plot for [i=2:9] "$dat" using 1:i with lines title sprintf("plane %d", i - 2)
EOF
	echo "plot: $4"
}
