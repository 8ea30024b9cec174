#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# NFS over RDMA over mrc between two kernels (tools/testing/vm/pair.sh). Guest a serves
# a tmpfs export with the kernel's nfsd, NFSv4.2 only, listening for RDMA on port 20049
# of its mrc device; guest b mounts it with -o rdma,port=20049 over its own, 8 planes,
# and copies a tree of files there, round after round, while the host cuts plane 3 at
# a's NIC and later restores it. Every file must read back with its digest on both
# sides (b after a fresh mount, a from its own tmpfs), with no RPC retransmission to
# an unresponsive server, no transport reconnect and no QP error; b's QP retires the
# plane's EVs and takes every one of them back. Then unmount, stop nfsd and unload.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_pair.sh"

mrc_require_root
mrc_require_mrcctl
for tool in rpc.nfsd rpc.mountd exportfs mount.nfs4 jq; do
	command -v "$tool" >/dev/null || { echo "# $tool is not installed"; exit "$KSFT_SKIP"; }
done
res=$MRC_PAIR_RES
export_dir=/tmp/nfs-export
mnt=/tmp/nfs-mnt
mrc_load
pair_dev_up

# nfs_serve: nfsd for NFSv4 only (no rpcbind, lockd or statd needed), state in a tmpfs
# over /var/lib/nfs (the guest's root is the host's, read-only), the grace period
# ended at once (no client has state to reclaim), RDMA on 20049 beside TCP on 2049.
nfs_serve()
{
	mkdir -p "$export_dir" &&
		mount -t tmpfs -o size=512m nfs-export "$export_dir" &&
		mount -t tmpfs nfs-state /var/lib/nfs &&
		mkdir -p /var/lib/nfs/v4recovery &&
		: >/var/lib/nfs/etab && : >/var/lib/nfs/rmtab &&
		modprobe nfsd && modprobe rpcrdma &&
		{ mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd; } &&
		exportfs -o rw,no_root_squash,no_subtree_check,insecure,fsid=0 "10.0.0.0/16:$export_dir" &&
		rpc.mountd -N 3 -u &&
		rpc.nfsd -N 3 -U --rdma=20049 -G 10 -L 10 4 &&
		echo Y >/proc/fs/nfsd/v4_end_grace
}

nfs_unserve()
{
	rpc.nfsd 0 &&
		exportfs -ua &&
		pkill -x rpc.mountd &&
		wait_until 10 sh -c '! pgrep -x rpc.mountd' &&
		umount /proc/fs/nfsd &&
		umount /var/lib/nfs &&
		umount "$export_dir"
}

# make_tree DIR: NFILES files of random sizes up to 512 KiB in a few directories.
make_tree()
{
	local i
	for ((i = 0; i < nfiles; i++)); do
		mkdir -p "$1/d$((i % 4))" &&
			head -c $(((i * 7919) % 524288 + 1)) /dev/urandom >"$1/d$((i % 4))/f$i" || return 1
	done
}

# digests DIR: one line per file, its SHA-256 and path relative to DIR, by path.
digests()
{
	(cd "$1" && find . -type f -print0 | xargs -0 sha256sum | sort -k2)
}

# summary FILE: how many files a digest list names, and the digest of the list.
summary()
{
	echo "$(wc -l <"$1") files, list $(sha256sum <"$1" | cut -c1-16)"
}

if [ "$MRC_PAIR_SIDE" = a ]; then
	nfs_serve
	check "a: nfsd serving $export_dir over NFSv4, RDMA on port 20049" "0" "$?"
	check_match "a: nfsd's listeners" '^rdma 20049$' "$(cat /proc/fs/nfsd/portlist)"
	pair_mark serving
	pair_wait copied 900
	check "b: copied" "0" "$?"
	digests "$export_dir" >"$res/a.sums"
	check "a: every file b wrote is here with b's digest" \
		"$(summary "$res/b.sums")" "$(summary "$res/a.sums")"
	pair_mark verified
	pair_wait unmounted 300
	nfs_unserve
	check "a: nfsd stopped, export and state unmounted" "0" "$?"
	modprobe -r nfsd rpcrdma
	check "a: nfsd and rpcrdma unloaded" "0" "$?"
else
	nfiles=$(mrc_scaled 64)
	src=/tmp/nfs-src
	mkdir -p "$src" "$mnt"
	make_tree "$src"
	check "b: a tree of $nfiles files to copy" "0" "$?"
	modprobe rpcrdma
	check "b: rpcrdma loaded" "0" "$?"
	pair_wait serving
	mount -t nfs4 -o vers=4.2,rdma,port=20049 10.0.0.1:/ "$mnt"
	rc=$?
	check "b: mount -o rdma,port=20049 a's export" "0" "$rc"
	if [ "$rc" != 0 ]; then
		pair_mark copied
		pair_mark unmounted
		"$MRCCTL" dev del "$dev"
		mrc_finish
	fi
	check_match "b: the mount runs over RDMA" "^10.0.0.1:/ $mnt nfs4 .*proto=rdma" \
		"$(grep " $mnt " /proc/mounts)"
	norsp0=$(dmesg | grep -c 'nfs: server 10.0.0.1 not responding')
	conn0=$(dmesg | grep -c 'rpcrdma: .*\(disconnect\|closed\|connection to .* on .* rejected\)')
	qp_err0=$(mrc_counter_sum "" "$dev" qp_errors)
	nqp=$("$MRCCTL" -j qp show dev "$dev" | jq length)
	check_match "b: the mount's QPs" '^[1-4]$' "$nqp"
	copy_round() { cp -r "$src" "$mnt/r$1" && sync -f "$mnt"; }
	pair_rounds_through_cut 12 copy_round
	rounds=$pair_rounds
	check "b: the host cut plane 3, b's QP retired its EVs, the plane came back" \
		"0" "$pair_cut_rc"
	check "b: every copy ($rounds) of the tree succeeded" "0" "$pair_rounds_failed"
	# What b reads back must come from a, not from b's page cache: mount afresh.
	umount "$mnt" && mount -t nfs4 -o vers=4.2,rdma,port=20049 10.0.0.1:/ "$mnt"
	check "b: unmounted and mounted again" "0" "$?"
	for ((r = 1; r <= rounds; r++)); do digests "$src" | sed "s| \./| ./r$r/|"; done |
		sort -k2 >"$res/b.sums"
	digests "$mnt" >"$res/b.read.sums"
	check "b: every file read back over NFS with its digest" \
		"$(summary "$res/b.sums")" "$(summary "$res/b.read.sums")"
	pair_mark copied
	pair_wait verified 300
	check "a: verified" "0" "$?"
	pair_check_cut_evs "$nqp"
	check "b: no QP went to error" "$qp_err0" "$(mrc_counter_sum "" "$dev" qp_errors)"
	check "b: the server never stopped responding" "$norsp0" \
		"$(dmesg | grep -c 'nfs: server 10.0.0.1 not responding')"
	check "b: the transport never reconnected" "$conn0" \
		"$(dmesg | grep -c 'rpcrdma: .*\(disconnect\|closed\|connection to .* on .* rejected\)')"
	umount "$mnt"
	check "b: unmounted" "0" "$?"
	pair_mark unmounted
	modprobe -r nfsv4 nfs rpcrdma
	check "b: nfsv4, nfs and rpcrdma unloaded" "0" "$?"
	echo "# copies: $rounds of $nfiles files; plane 3 EVs retired $(pair_cut_delta ev_assumed_bad) over $nqp QPs"
fi
"$MRCCTL" dev del "$dev"
check "$MRC_PAIR_SIDE: dev del" "0" "$?"
mrc_finish
