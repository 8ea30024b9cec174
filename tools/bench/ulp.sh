#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-ulp: the kernel's own NVMe over Fabrics over mrc, between two guests of
# the stock kernel wired plane by plane (tools/testing/vm/pair.sh). Guest a exports
# a namespace through nvmet (a file in tmpfs); guest b connects and runs fio, in four
# configurations of the same two guests, one after the other:
#
#   mrc1  nvme-rdma over an mrc device on plane 0
#   mrc8  nvme-rdma over an mrc device on all 8 planes
#   rxe1  nvme-rdma over rdma_rxe on plane 0 (rxe has one netdev per device)
#   tcp8  nvme-tcp over all 8 planes: one path per plane to the same subsystem,
#         native NVMe multipath with the round-robin I/O policy
#
# Each runs 128 KiB sequential writes and reads (queue depth 16) and 4 KiB random reads
# at queue depth 1 (latency). mrc8 and tcp8 then run the sequential reads again while
# the host cuts plane 3 and restores it, logging the rate every 250 ms: the PNG shows
# both through the same failure. A benchmark, not a test: it prints figures and
# ratios to the peers measured in the same run, and fails only when a run did not.
#
#   BENCH_OUT=DIR      where the PNG, the data and the VM logs go (.build/bench)
#   BENCH_SECS=N       seconds per fio run (default 10)
#   BENCH_FAIL=A,B,C   the failure run: cut at A s, restore at B s, end at C s (10,25,45)
#   BENCH_ONLY="..."   a subset of the configurations, in this order
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$here/../.." && pwd)

# ---- guest half: ulp.sh --guest, run by pair.sh in both guests -------------------------
if [ "${1:-}" = --guest ]; then
	set +e
	export MRC_TREE=$tree
	# shellcheck source=SCRIPTDIR/../../selftests/lib.sh
	. "$tree/selftests/lib.sh"
	# shellcheck source=SCRIPTDIR/../../selftests/lib_pair.sh
	. "$tree/selftests/lib_pair.sh"
	secs=${BENCH_SECS:-10}
	IFS=, read -r t_cut t_restore t_end <<<"${BENCH_FAIL:-10,25,45}"
	nqn=nqn.2026-12.org.mrc:bench
	res=$MRC_PAIR_RES
	c=/sys/kernel/config/nvmet
	log() { echo "ulp $MRC_PAIR_SIDE: $*"; }

	pair_nics || { log "plane NICs failed"; exit 1; }
	modprobe nvme-rdma nvme-tcp
	modprobe nvmet-rdma nvmet-tcp
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config

	# provider_up CFG / provider_down CFG: this guest's RDMA device for CFG, if any.
	provider_up()
	{
		case $1 in
		mrc1 | mrc8)
			modprobe mrc || return 1
			# shellcheck disable=SC2046
			"$MRCCTL" dev add "mrc-$MRC_PAIR_SIDE" $(topo_plane_args "${1#mrc}") || return 1
			wait_until 20 mrc_gid_index "" "mrc-$MRC_PAIR_SIDE" 1 "10.0.0.$MRC_PAIR_HOST"
			;;
		rxe1)
			modprobe rdma_rxe && rdma link add "rxe-$MRC_PAIR_SIDE" type rxe netdev p0 &&
				wait_until 20 mrc_gid_index "" "rxe-$MRC_PAIR_SIDE" 1 "10.0.0.$MRC_PAIR_HOST"
			;;
		esac
	}

	provider_down()
	{
		case $1 in
		mrc1 | mrc8)
			# what the device did over the whole configuration, before it goes
			local n
			for n in tx_data_pkts retransmits rto_timeouts ev_assumed_bad; do
				echo "$n $(mrc_counter_sum "" "mrc-$MRC_PAIR_SIDE" $n)"
			done >"$res/$1.$MRC_PAIR_SIDE.counters"
			"$MRCCTL" dev del "mrc-$MRC_PAIR_SIDE" && modprobe -r mrc
			;;
		rxe1) rdma link delete "rxe-$MRC_PAIR_SIDE" && modprobe -r rdma_rxe ;;
		esac
	}

	# Guest a: one subsystem for every configuration, ports per configuration.
	if [ "$MRC_PAIR_SIDE" = a ]; then
		ns=$c/subsystems/$nqn/namespaces/1
		truncate -s 256M /tmp/ns.img
		mkdir "$c/subsystems/$nqn" && echo 1 >"$c/subsystems/$nqn/attr_allow_any_host" &&
			mkdir "$ns" && echo /tmp/ns.img >"$ns/device_path" &&
			echo 1 >"$ns/buffered_io" && echo 1 >"$ns/enable" || { log "nvmet failed"; exit 1; }
	fi
	# port_add ID TYPE ADDR: an nvmet port of a's on ADDR:4420 serving the subsystem.
	port_add()
	{
		local p=$c/ports/$1
		mkdir "$p" && echo "$2" >"$p/addr_trtype" && echo ipv4 >"$p/addr_adrfam" &&
			echo "$3" >"$p/addr_traddr" && echo 4420 >"$p/addr_trsvcid" &&
			ln -s "$c/subsystems/$nqn" "$p/subsystems/$nqn"
	}
	ports_del()
	{
		local p
		for p in "$c"/ports/*; do
			[ -d "$p" ] || continue
			rm -f "$p/subsystems/$nqn" && rmdir "$p"
		done
	}

	# fio_run NAME BLOCKDEV ARGS...: one time-based fio job, its JSON in the rendezvous.
	fio_run()
	{
		local name=$1 blk=$2
		shift 2
		fio --name="$name" --filename="$blk" --ioengine=libaio --direct=1 \
			--time_based --ramp_time=1 --size=256M --output-format=json \
			--output="$res/$name.json" "$@" >/dev/null 2>&1
	}

	# failure_run CFG BLOCKDEV: sequential reads for t_end s with the rate logged every
	# 250 ms; plane 3 cut at t_cut s and restored at t_restore s (as the host did them,
	# the times relative to fio's start land in CFG.fail.times).
	failure_run()
	{
		local cfg=$1 blk=$2 t0 pid
		t0=$EPOCHREALTIME
		fio --name="$cfg.fail" --filename="$blk" --ioengine=libaio --direct=1 \
			--time_based --runtime="$t_end" --size=256M --rw=read --bs=128k --iodepth=16 \
			--write_bw_log="$res/$cfg.fail" --log_avg_msec=250 --output-format=json \
			--output="$res/$cfg.fail.json" >/dev/null 2>&1 &
		pid=$!
		sleep "$t_cut"
		pair_link 3 off
		local cut=$EPOCHREALTIME
		sleep $((t_restore - t_cut))
		pair_link 3 on
		local restored=$EPOCHREALTIME
		wait "$pid"
		awk -v a="$t0" -v b="$cut" -v c="$restored" \
			'BEGIN { printf "%.2f %.2f\n", b - a, c - a }' >"$res/$cfg.fail.times"
	}

	for cfg in ${BENCH_ONLY:-mrc1 mrc8 rxe1 tcp8}; do
		provider_up "$cfg" || log "$cfg: provider failed"
		if [ "$MRC_PAIR_SIDE" = a ]; then
			case $cfg in
			tcp8) for ((i = 0; i < 8; i++)); do port_add $((i + 1)) tcp "10.$i.0.1"; done ;;
			*) port_add 1 rdma 10.0.0.1 ;;
			esac || log "$cfg: ports failed"
			pair_mark "$cfg.ready"
			pair_wait "$cfg.done" 1800
			ports_del
			provider_down "$cfg"
			pair_mark "$cfg.down"
			continue
		fi
		pair_wait "$cfg.ready" 300
		case $cfg in
		tcp8)
			for ((i = 0; i < 8; i++)); do
				nvme connect -t tcp -a "10.$i.0.1" -s 4420 -n "$nqn" >/dev/null ||
					log "$cfg: connect over p$i failed"
			done
			for s in /sys/class/nvme-subsystem/*; do
				[ "$(cat "$s/subsysnqn")" = "$nqn" ] && echo round-robin >"$s/iopolicy"
			done
			;;
		*) nvme connect -t rdma -a 10.0.0.1 -s 4420 -n "$nqn" >/dev/null ||
			log "$cfg: connect failed" ;;
		esac
		# the namespace: under its subsystem (native multipath, Debian's default)
		blk=
		for s in /sys/class/nvme-subsystem/*; do
			[ "$(cat "$s/subsysnqn" 2>/dev/null)" = "$nqn" ] || continue
			wait_until 30 sh -c 'ls -d "$1"/nvme*n1' sh "$s"
			for d in "$s"/nvme*n1; do blk=/dev/${d##*/}; done
		done
		wait_until 30 test -b "$blk"
		log "$cfg: $blk, $(ls -d /sys/class/nvme/nvme* | wc -l) controller(s)"
		bad0=$(mrc_counter_sum "" "mrc-b" ev_assumed_bad)
		fio_run "$cfg.write" "$blk" --runtime="$secs" --rw=write --bs=128k --iodepth=16
		fio_run "$cfg.read" "$blk" --runtime="$secs" --rw=read --bs=128k --iodepth=16
		fio_run "$cfg.lat" "$blk" --runtime="$secs" --rw=randread --bs=4k --iodepth=1
		case $cfg in
		mrc8 | tcp8)
			resets0=$(dmesg | grep -c 'nvme nvme[0-9]*: .*\(reconnect\|resetting\|Reconnect\)')
			failure_run "$cfg" "$blk"
			[ "$cfg" = mrc8 ] && echo "$(($(mrc_counter_sum "" mrc-b ev_assumed_bad) - bad0))" \
				>"$res/$cfg.fail.retired"
			echo $(($(dmesg | grep -c 'nvme nvme[0-9]*: .*\(reconnect\|resetting\|Reconnect\)') -
				resets0)) >"$res/$cfg.fail.resets"
			;;
		esac
		nvme disconnect -n "$nqn" >/dev/null
		wait_until 30 sh -c '! ls -d /sys/class/nvme/nvme* >/dev/null 2>&1'
		provider_down "$cfg"
		pair_mark "$cfg.done"
		pair_wait "$cfg.down" 300
	done
	if [ "$MRC_PAIR_SIDE" = a ]; then
		rmdir "$ns" "$c/subsystems/$nqn"
	fi
	exit 0
fi

# ---- host half ----------------------------------------------------------------------------
# shellcheck source=tools/bench/lib.sh
. "$here/lib.sh"
out=${BENCH_OUT:-$tree/.build/bench}
IFS=, read -r _ _ t_end <<<"${BENCH_FAIL:-10,25,45}"
mkdir -p "$out"
bench_host_setup "$tree"
command -v jq >/dev/null || apt-get install -y -qq jq >/dev/null
env_args=()
for v in BENCH_SECS BENCH_FAIL BENCH_ONLY; do
	[ -z "${!v:-}" ] || env_args+=(--env "$v=${!v}")
done
rm -rf "$out/ulp-vm"
"$tree/tools/testing/vm/pair.sh" --kernel-a stock --kernel-b stock --planes 8 \
	--timeout 3600 --out "$out/ulp-vm" "${env_args[@]}" -- tools/bench/ulp.sh --guest \
	>"$out/ulp-vm.log" 2>&1 || { tail -n 30 "$out/ulp-vm.log"; exit 1; }
grep '^[ab]: ulp' "$out/ulp-vm.log" || true
r=$out/ulp-vm/rdv/ulp

# fig FILE FILTER: one number from a fio JSON report (empty when the run is missing).
fig() { [ -s "$1" ] && jq -r "$2" "$1" 2>/dev/null || true; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a && b) printf "%.2f", a / b; else print "n/a" }'; }
declare -A wr rd lat p99 errs
printf '%-5s %12s %12s %14s %12s %7s\n' config "write MB/s" "read MB/s" "4K lat mean us" "p99 us" errors
for cfg in mrc1 mrc8 rxe1 tcp8; do
	wr[$cfg]=$(fig "$r/$cfg.write.json" '.jobs[0].write.bw_bytes / 1e6')
	rd[$cfg]=$(fig "$r/$cfg.read.json" '.jobs[0].read.bw_bytes / 1e6')
	lat[$cfg]=$(fig "$r/$cfg.lat.json" '.jobs[0].read.clat_ns.mean / 1e3')
	p99[$cfg]=$(fig "$r/$cfg.lat.json" '.jobs[0].read.clat_ns.percentile["99.000000"] / 1e3')
	errs[$cfg]=$(cat "$r/$cfg."{write,read,lat}.json 2>/dev/null | jq -s 'map(.jobs[0].error) | add' 2>/dev/null)
	[ -n "${wr[$cfg]}${rd[$cfg]}" ] || continue
	printf '%-5s %12.1f %12.1f %14.1f %12.1f %7s\n' "$cfg" "${wr[$cfg]:-0}" "${rd[$cfg]:-0}" \
		"${lat[$cfg]:-0}" "${p99[$cfg]:-0}" "${errs[$cfg]:-?}"
done
echo "ratios (throughput: higher is better for mrc; latency: lower is better):"
for peer in rxe1 tcp8; do
	for cfg in mrc1 mrc8; do
		echo "  $cfg/$peer: write $(ratio "${wr[$cfg]}" "${wr[$peer]}")," \
			"read $(ratio "${rd[$cfg]}" "${rd[$peer]}")," \
			"4K latency $(ratio "${lat[$cfg]}" "${lat[$peer]}")"
	done
done

# mrc's own account of each configuration (a requests the data of b's writes with
# RDMA READs, b those of its reads with WRITEs from a: each side's sends count).
for cfg in mrc1 mrc8; do
	for side in a b; do
		cnt=$r/$cfg.$side.counters
		[ -s "$cnt" ] && echo "$cfg $side: $(paste -sd ' ' "$cnt" | sed 's/ \([0-9]*\) / \1, /g')"
	done
done

# The failure runs: mean rate before the cut, while cut, after the restore, and the
# worst 250 ms interval, per configuration; then both on one plot.
plot_args=()
for cfg in mrc8 tcp8; do
	flog=$r/$cfg.fail_bw.1.log
	[ -s "$flog" ] || continue
	read -r tc tr <"$r/$cfg.fail.times"
	# fio logs no interval in which nothing completed: 250 ms bins, empty ones 0
	awk -F', *' -v end="$t_end" '
		{ b = int($1 / 250); v[b] = $2 * 1024 / 1e6 }
		END { for (i = 0; i < end * 4; i++) printf "%.2f %.2f\n", (i + 1) * 0.25, v[i] }' \
		"$flog" >"$out/ulp-$cfg-fail.dat"
	awk -v c="$tc" -v r="$tr" -v n="$cfg" '
		$1 <= c { b += $2; nb++ } $1 > c + 0.25 && $1 <= r { d += $2; nd++ }
		$1 > r + 5 { a += $2; na++ } $1 > c && (!m || $2 < min) { min = $2; m = 1 }
		$1 > c && $2 < 0.5 * b / nb { low += 0.25 }
		END { printf "%s through the cut of plane 3: before %.1f MB/s, during %.1f (%.2fx),"\
			" from 5 s after the restore %.1f; worst 250 ms %.1f, %.2f s below half the rate\n",
			n, b / nb, d / (nd ? nd : 1), d / (nd ? nd : 1) / (b / nb), a / (na ? na : 1), min, low }' \
		"$out/ulp-$cfg-fail.dat"
	[ "$cfg" = mrc8 ] && echo "  mrc8: EVs retired $(cat "$r/mrc8.fail.retired" 2>/dev/null)"
	echo "  $cfg: controller resets/reconnects in b's log: $(cat "$r/$cfg.fail.resets" 2>/dev/null)"
	plot_args+=("$cfg" "$tc" "$tr")
done
if [ ${#plot_args[@]} -gt 0 ]; then
	png=$out/ulp-failover.png
	{
		echo "set terminal png size 900,500"
		echo "set output '$png'"
		echo "set title 'NVMe-oF 128 KiB sequential reads through a plane cut (plane 3 of 8)'"
		echo "set xlabel 'seconds since fio started'"
		echo "set ylabel 'MB/s read'"
		echo "set key outside right"
		echo "set yrange [0:*]"
		echo "set arrow from ${plot_args[1]}, graph 0 to ${plot_args[1]}, graph 1 nohead dt 2"
		echo "set arrow from ${plot_args[2]}, graph 0 to ${plot_args[2]}, graph 1 nohead dt 2"
		echo "set label 'plane 3 cut' at ${plot_args[1]}, graph 0.97 offset 0.5,0"
		echo "set label 'restored' at ${plot_args[2]}, graph 0.97 offset 0.5,0"
		printf 'plot '
		sep=
		for ((i = 0; i < ${#plot_args[@]}; i += 3)); do
			cfg=${plot_args[i]}
			title="nvme-rdma over mrc, 8 planes"
			[ "$cfg" = tcp8 ] && title="nvme-tcp, 8 paths (native multipath)"
			printf "%s'%s' using 1:2 with lines title '%s'" "$sep" "$out/ulp-$cfg-fail.dat" "$title"
			sep=", "
		done
		echo
	} | gnuplot
	echo "plot: $png (the cut and the restore as timed in the first configuration's run)"
fi
