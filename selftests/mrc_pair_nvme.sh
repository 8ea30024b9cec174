#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# NVMe over Fabrics over mrc between two kernels (tools/testing/vm/pair.sh). Guest a
# exports a file-backed namespace through nvmet-rdma on its mrc device; guest b
# connects with nvme-cli over its own, 8 planes, and fio writes the namespace with
# verify headers and reads it back, round after round, while the host cuts plane 3
# at a's NIC and later restores it. The consumer must not notice: every fio round
# verifies, no I/O error, the controller never resets or reconnects, and b's QPs
# retire the plane's EVs and take every one of them back. Then disconnect and unload.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_pair.sh"

mrc_require_root
mrc_require_mrcctl
for tool in nvme fio jq; do
	command -v "$tool" >/dev/null || { echo "# $tool is not installed"; exit "$KSFT_SKIP"; }
done
res=$MRC_PAIR_RES
nqn=nqn.2026-12.org.mrc:pair
# Each fio round writes and verifies this much; rounds repeat until the cut is over.
size=$(mrc_scaled 32)M
mrc_load
pair_dev_up

# nvmet_export / nvmet_unexport: a's subsystem, one namespace backed by a file in
# tmpfs (buffered: tmpfs has no O_DIRECT), on port 4420 of 10.0.0.1 over RDMA.
c=/sys/kernel/config/nvmet
nvmet_export()
{
	local ns=$c/subsystems/$nqn/namespaces/1 port=$c/ports/1
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
	truncate -s 128M /tmp/ns.img &&
		mkdir "$c/subsystems/$nqn" &&
		echo 1 >"$c/subsystems/$nqn/attr_allow_any_host" &&
		mkdir "$ns" &&
		echo /tmp/ns.img >"$ns/device_path" &&
		echo 1 >"$ns/buffered_io" &&
		echo 1 >"$ns/enable" &&
		mkdir "$port" &&
		echo rdma >"$port/addr_trtype" &&
		echo ipv4 >"$port/addr_adrfam" &&
		echo 10.0.0.1 >"$port/addr_traddr" &&
		echo 4420 >"$port/addr_trsvcid" &&
		ln -s "$c/subsystems/$nqn" "$port/subsystems/$nqn"
}

nvmet_unexport()
{
	rm -f "$c/ports/1/subsystems/$nqn" &&
		rmdir "$c/ports/1" "$c/subsystems/$nqn/namespaces/1" "$c/subsystems/$nqn" &&
		rm -f /tmp/ns.img
}

# ctrl_of NQN: the name (nvmeN) of b's controller connected to NQN.
ctrl_of()
{
	local d
	for d in /sys/class/nvme/nvme*; do
		[ "$(cat "$d/subsysnqn" 2>/dev/null)" = "$1" ] && { echo "${d##*/}"; return 0; }
	done
	return 1
}

# fio_round N BLOCKDEV: write SIZE with crc32c verify headers at queue depth 16, then
# read all of it back and verify; the JSON report lands in the rendezvous.
fio_round()
{
	fio --name="round$1" --filename="$2" --size="$size" --bs=64k --rw=write \
		--ioengine=libaio --iodepth=16 --direct=1 --verify=crc32c --do_verify=1 \
		--verify_fatal=1 --output-format=json --output="$res/fio.$1.json" >/dev/null 2>&1
}

if [ "$MRC_PAIR_SIDE" = a ]; then
	modprobe nvmet-rdma
	check "a: nvmet-rdma loaded" "0" "$?"
	nvmet_export
	check "a: subsystem exported on 10.0.0.1:4420 over rdma" "0" "$?"
	pair_mark exported
	pair_wait finished 900
	check "b: finished" "0" "$?"
	nvmet_unexport
	check "a: subsystem taken down" "0" "$?"
	modprobe -r nvmet-rdma nvmet
	check "a: nvmet-rdma and nvmet unloaded" "0" "$?"
else
	modprobe nvme-rdma
	check "b: nvme-rdma loaded" "0" "$?"
	pair_wait exported
	nvme connect -t rdma -a 10.0.0.1 -s 4420 -n "$nqn" >"$res/connect.out" 2>&1
	check "b: nvme connect -t rdma to a's subsystem" "0" "$?"
	ctrl=$(ctrl_of "$nqn")
	check_match "b: the controller" '^nvme[0-9]+$' "$ctrl"
	wait_until 30 test -b "/dev/${ctrl}n1"
	check "b: /dev/${ctrl}n1 appeared" "0" "$?"
	blk=/dev/${ctrl}n1
	resets0=$(dmesg | grep -c "nvme $ctrl: .*\(reconnect\|resetting\|Reconnect\)")
	ioerr0=$(dmesg | grep -c "I/O error, dev ${ctrl}n1\|${ctrl}n1: .*error")
	qp_err0=$(mrc_counter_sum "" "$dev" qp_errors)
	# b's QPs: the admin queue and one I/O queue per CPU, each its own set of EVs.
	nqp=$("$MRCCTL" -j qp show dev "$dev" | jq length)
	check_match "b: the controller's QPs (admin + I/O queues)" '^[2-9]$' "$nqp"
	fio_cut_round() { fio_round "$1" "$blk"; }
	pair_rounds_through_cut 20 fio_cut_round
	rounds=$pair_rounds
	check "b: the host cut plane 3, b's QPs retired its EVs, the plane came back" \
		"0" "$pair_cut_rc"
	check "b: every fio round ($rounds) wrote and verified $size" "0" "$pair_rounds_failed"
	errs=0 wrote=0 read=0
	for ((r = 1; r <= rounds; r++)); do
		j=$res/fio.$r.json
		errs=$((errs + $(jq '.jobs[0].error' "$j" 2>/dev/null || echo 1)))
		wrote=$((wrote + $(jq '.jobs[0].write.io_bytes' "$j" 2>/dev/null || echo 0)))
		read=$((read + $(jq '.jobs[0].read.io_bytes' "$j" 2>/dev/null || echo 0)))
	done
	check "b: fio reported no error" "0" "$errs"
	want=$((rounds * ${size%M} * 1048576))
	check "b: bytes written, bytes read back and verified" "$want $want" "$wrote $read"
	pair_check_cut_evs "$nqp"
	check "b: no QP went to error" "$qp_err0" "$(mrc_counter_sum "" "$dev" qp_errors)"
	check "b: the controller never reset or reconnected" "$resets0" \
		"$(dmesg | grep -c "nvme $ctrl: .*\(reconnect\|resetting\|Reconnect\)")"
	check "b: no I/O error in the kernel log" "$ioerr0" \
		"$(dmesg | grep -c "I/O error, dev ${ctrl}n1\|${ctrl}n1: .*error")"
	check "b: the controller is live" "live" "$(cat "/sys/class/nvme/$ctrl/state")"
	nvme disconnect -n "$nqn" >"$res/disconnect.out" 2>&1
	check "b: nvme disconnect" "0" "$?"
	wait_until 30 test ! -e "/sys/class/nvme/$ctrl"
	check "b: the controller is gone" "0" "$?"
	pair_mark finished
	modprobe -r nvme-rdma nvme-fabrics
	check "b: nvme-rdma and nvme-fabrics unloaded" "0" "$?"
	echo "# fio rounds: $rounds; plane 3 EVs retired $(pair_cut_delta ev_assumed_bad) over $nqp QPs"
fi
"$MRCCTL" dev del "$dev"
check "$MRC_PAIR_SIDE: dev del" "0" "$?"
mrc_finish
