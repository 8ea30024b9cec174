#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of tools/testing/vm/pair.sh: two guests, each one host of the pair,
# whose NIC i is plane i; they meet in $MRC_PAIR_DIR and ask the host there to cut or
# restore a plane's link. Source it after lib.sh. Several pair tests run one after the
# other in the same boot: each one's marks, link requests and files carry its name.

MRC_PAIR_SIDE=${MRC_PAIR_SIDE:?run under tools/testing/vm/pair.sh}
MRC_PAIR_PLANES=${MRC_PAIR_PLANES:-8}
MRC_PAIR_PEER=b
[ "$MRC_PAIR_SIDE" = b ] && MRC_PAIR_PEER=a
# The host number of this side on every plane: a is 1 (the server), b is 2.
MRC_PAIR_HOST=1
[ "$MRC_PAIR_SIDE" = b ] && MRC_PAIR_HOST=2
# This test's name, and its directory in the rendezvous for files both sides read.
MRC_PAIR_TAG=$(basename "$0" .sh)
MRC_PAIR_RES=$MRC_PAIR_DIR/$MRC_PAIR_TAG
mkdir -p "$MRC_PAIR_RES"

# pair_nics: the plane NICs as p0..pN-1 (by the MAC pair.sh gave NIC i), with the
# addresses lib.sh's two-namespace topology uses, 10.i.0.H/24 and fd00:i::H/64.
pair_nics()
{
	local dev mac i
	modprobe virtio_net || return 1
	for dev in /sys/class/net/*; do
		mac=$(cat "$dev/address")
		case $mac in
		52:54:00:4d:0[ab]:0[0-7])
			i=${mac##*:0}
			ip link set dev "${dev##*/}" name "p$i" || return 1
			;;
		esac
	done
	for ((i = 0; i < MRC_PAIR_PLANES; i++)); do
		ip addr replace "10.$i.0.$MRC_PAIR_HOST/24" dev "p$i" &&
			ip addr replace "fd00:$i::$MRC_PAIR_HOST/64" dev "p$i" nodad &&
			ip link set "p$i" up || return 1
	done
}

# pair_dev_up: this guest's mrc device, dev=mrc-a or mrc-b, over its plane NICs,
# with gid its GID index for 10.0.0.H; returns once the other guest's is up too.
pair_dev_up()
{
	dev=mrc-$MRC_PAIR_SIDE
	pair_nics
	check "$MRC_PAIR_SIDE: $MRC_PAIR_PLANES plane NICs named and addressed" "0" "$?"
	# shellcheck disable=SC2046
	"$MRCCTL" dev add "$dev" $(topo_plane_args "$MRC_PAIR_PLANES")
	check "$MRC_PAIR_SIDE: dev add $dev over $MRC_PAIR_PLANES planes" "0" "$?"
	wait_until 20 mrc_gid_index "" "$dev" 1 "10.0.0.$MRC_PAIR_HOST"
	gid=$(mrc_gid_index "" "$dev" 1 "10.0.0.$MRC_PAIR_HOST")
	check_match "$MRC_PAIR_SIDE: the GID of 10.0.0.$MRC_PAIR_HOST" '^[0-9]+$' "$gid"
	pair_mark dev
	pair_wait dev
	check "$MRC_PAIR_SIDE: the other guest's device is up" "0" "$?"
}

# pair_mark NAME: tell the other guest that NAME happened here.
pair_mark()
{
	: >"$MRC_PAIR_RES/$MRC_PAIR_SIDE.$1"
}

# pair_wait NAME [SECONDS]: wait until the other guest marked NAME (default 300 s:
# the other guest may be the debug kernel, booting for a minute and more).
pair_wait()
{
	local deadline=$((SECONDS + ${2:-300}))
	until [ -e "$MRC_PAIR_RES/$MRC_PAIR_PEER.$1" ]; do
		[ $SECONDS -lt $deadline ] || return 1
		mrc_nap
	done
}

# pair_link I on|off: cut or restore plane I between the guests (the host sets guest
# a's NIC's link); returns once the host did it.
pair_link_n=0
pair_link()
{
	local req deadline=$((SECONDS + 30))
	pair_link_n=$((pair_link_n + 1))
	# the shell's pid too: a subshell's count starts again from its parent's
	req=$MRC_PAIR_DIR/link.$MRC_PAIR_TAG.$MRC_PAIR_SIDE.$BASHPID.$pair_link_n
	echo "$1 $2" >"$req.new" && mv "$req.new" "$req"
	until [ -e "$req.done" ]; do
		[ $SECONDS -lt $deadline ] || return 1
		mrc_nap
	done
}

# pair_run ROUND PORT SERVER... -- CLIENT...: a tool with its server in a (listening
# on TCP PORT, or an rdma_cm PORT given as cm:PORT) and its client in b, which starts
# once a says the server listens; both return when both are done. Each side's exit
# status and output land in the test's directory as ROUND.SIDE.rc and ROUND.SIDE.out.
pair_run()
{
	local round=$1 port=$2 cmd=() rc pid out=$MRC_PAIR_RES/$1.$MRC_PAIR_SIDE
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		[ "$MRC_PAIR_SIDE" = a ] && cmd+=("$1")
		shift
	done
	shift
	[ "$MRC_PAIR_SIDE" = b ] && cmd=("$@")
	if [ "$MRC_PAIR_SIDE" = a ]; then
		timeout "$MRC_TOOL_TIMEOUT" "${cmd[@]}" >"$out.out" 2>&1 &
		pid=$!
		if [[ $port == cm:* ]]; then
			# shellcheck disable=SC2016 # $1 is sh's, not ours
			wait_until 60 sh -c 'rdma resource show cm_id 2>/dev/null |
				grep -E "state LISTEN .*src-addr [^ ]*:$1( |$)"' sh "${port#cm:}"
		else
			wait_port "$pid" "$port"
		fi && pair_mark "$round.listening"
		wait "$pid"
		rc=$?
	else
		if pair_wait "$round.listening" 120; then
			timeout "$MRC_TOOL_TIMEOUT" "${cmd[@]}" >"$out.out" 2>&1
			rc=$?
		else
			echo "a never listened" >"$out.out"
			rc=254
		fi
	fi
	echo "$rc" >"$out.rc"
	pair_mark "$round.done"
	pair_wait "$round.done" "$MRC_TOOL_TIMEOUT"
}

# pair_rcs ROUND: "A B", the exit statuses of a round on both sides.
pair_rcs()
{
	echo "$(cat "$MRC_PAIR_RES/$1.a.rc" 2>/dev/null) $(cat "$MRC_PAIR_RES/$1.b.rc" 2>/dev/null)"
}

# pair_tails ROUND: the last lines of both sides' output, for a failed round.
pair_tails()
{
	printf '# a: %s\n# b: %s\n' \
		"$(tail -n 4 "$MRC_PAIR_RES/$1.a.out" 2>/dev/null | paste -sd '|')" \
		"$(tail -n 4 "$MRC_PAIR_RES/$1.b.out" 2>/dev/null | paste -sd '|')"
}

# pair_xfer ROUND GIDIDX ARGS...: one mrc-xfer between the guests over $dev, a's the
# server (mrc-xfer's exchange port, 18700).
pair_xfer()
{
	local round=$1 gid=$2
	shift 2
	pair_run "$round" 18700 "$MRC_XFER" -d "$dev" -g "$gid" -t "$MRC_TOOL_TIMEOUT" "$@" -- \
		"$MRC_XFER" -d "$dev" -g "$gid" -t "$MRC_TOOL_TIMEOUT" "$@" 10.0.0.1
}

# pair_check_xfer ROUND WHAT: both sides of an mrc-xfer round exited 0 and saw the
# same data.
pair_check_xfer()
{
	local a b
	check "$2: a's and b's exit status" "0 0" "$(pair_rcs "$1")"
	a=$(grep -E '^ok ' "$MRC_PAIR_RES/$1.a.out" | sed 's/ secs=.*//')
	b=$(grep -E '^ok ' "$MRC_PAIR_RES/$1.b.out" | sed 's/ secs=.*//')
	check_match "$2: b verified" '^ok bytes=[0-9]+ msgs=[0-9]+ digest=' "$b"
	check "$2: both sides saw the same data" "$b" "$a"
	[ -n "$a" ] && [ -n "$b" ] || pair_tails "$1"
}

# pair_shape I ARGS...: this guest's egress on plane I through netem ARGS (loss,
# delay, reordering, rate); pair_unshape I: back to the default qdisc.
pair_shape()
{
	local i=$1
	shift
	tc qdisc replace dev "p$i" root netem "$@"
}

pair_unshape()
{
	tc qdisc del dev "p$1" root 2>/dev/null
	true
}

# pair_cut_start I: in the background, the host cuts plane I at a's NIC until this
# guest's QPs retired at least one QP's share of the plane's EVs (128 / planes), then
# restores it until every EV retired since the start came back. pair_cut_over: it
# ended; pair_cut_wait: wait for it, status 0 if both happened (120 s each at most).
# pair_cut_delta NAME: how far the plane's port counter NAME moved since the start.
pair_cut_start()
{
	pair_cut_port=$(($1 + 1))
	pair_cut_bad0=$(mrc_counter "" "$dev" "$pair_cut_port" ev_assumed_bad)
	pair_cut_rec0=$(mrc_counter "" "$dev" "$pair_cut_port" ev_recovered)
	rm -f "$MRC_PAIR_RES/cut.rc"
	(
		rc=1
		pair_link "$1" off && wait_until 120 pair_cut_retired &&
			pair_link "$1" on && wait_until 120 pair_cut_recovered && rc=0
		echo "$rc" >"$MRC_PAIR_RES/cut.rc"
	) &
	pair_cut_pid=$!
}

pair_cut_delta()
{
	local base=$pair_cut_bad0
	[ "$1" = ev_recovered ] && base=$pair_cut_rec0
	echo $(($(mrc_counter "" "$dev" "$pair_cut_port" "$1") - base))
}

pair_cut_retired()
{
	[ "$(pair_cut_delta ev_assumed_bad)" -ge $((128 / MRC_PAIR_PLANES)) ]
}

pair_cut_recovered()
{
	[ "$(pair_cut_delta ev_recovered)" -ge "$(pair_cut_delta ev_assumed_bad)" ]
}

pair_cut_over()
{
	[ -e "$MRC_PAIR_RES/cut.rc" ]
}

pair_cut_wait()
{
	wait "$pair_cut_pid"
	return "$(cat "$MRC_PAIR_RES/cut.rc" 2>/dev/null || echo 1)"
}

# pair_rounds_through_cut MAX FUNC: cut plane 3 (pair_cut_start) and call FUNC 1,
# FUNC 2, ... until the cut is over, at most MAX times; then wait for the cut.
# Sets pair_rounds (calls made), pair_rounds_failed (calls that returned non-zero)
# and pair_cut_rc (pair_cut_wait's status).
pair_rounds_through_cut()
{
	pair_rounds=0 pair_rounds_failed=0
	pair_cut_start 3
	while [ "$pair_rounds" -lt "$1" ]; do
		pair_rounds=$((pair_rounds + 1))
		"$2" "$pair_rounds" || pair_rounds_failed=$((pair_rounds_failed + 1))
		pair_cut_over && break
	done
	pair_cut_wait
	pair_cut_rc=$?
}

# pair_check_cut_evs NQP: after the cut, the plane's retirements lie between one
# QP's share of its EVs and NQP QPs' shares (each EV at most once per QP), and every
# retired EV came back.
pair_check_cut_evs()
{
	local share=$((128 / MRC_PAIR_PLANES)) bad rec
	bad=$(pair_cut_delta ev_assumed_bad)
	rec=$(pair_cut_delta ev_recovered)
	check "$MRC_PAIR_SIDE: plane 3's EVs retired at most once per QP ($bad, of $share to $((share * $1)))" \
		"1" "$([ "$bad" -ge "$share" ] && [ "$bad" -le $((share * $1)) ] && echo 1)"
	check "$MRC_PAIR_SIDE: every retired EV came back" "$bad" "$rec"
}
