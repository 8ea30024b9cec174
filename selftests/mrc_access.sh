#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Memory protection on the responder: an RDMA WRITE with a wrong rkey, one that ends
# a byte past the MR and one that starts a byte before it must all complete with
# IBV_WC_REM_ACCESS_ERR at the requester, write nothing (the MR and the canaries
# around it in the same buffer stay intact) and count a NAK at the responder. The
# wrong rkey once more with the responder's answers held back 20 ms (netem): the
# requester is asleep in its CQ's completion channel when its QP fails, and wakes
# to the error completion and the QP's fatal event at once; the completion must
# still be there, with its status.
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_xfer
mrc_require_cmds ss tc
trap 'mrc_dev_pair_del; topo_destroy' EXIT
mrc_unload
topo_create 1 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
mrc_dev_pair 1 || exit $KSFT_FAIL

check_xfer "a good write first" -o write -s 8192 -n 4
for bad in rkey past_end before_start late_rkey; do
	kind=${bad#late_}
	case $kind in
	rkey) counter=nack_tx_rkey ;;
	*) counter=nack_tx_access ;;
	esac
	if [ "$kind" != "$bad" ]; then
		tc -n "$H1" qdisc add dev p0 root netem delay 20ms
		check "$bad: the responder's egress delayed 20 ms" "0" "$?"
	fi
	before=$(mrc_counter_sum "$H1" "$MRC_DEV1" "$counter")
	xfer_pair -o badwrite --bad "$kind" -s 8192
	[ "$kind" = "$bad" ] || tc -n "$H1" qdisc del dev p0 root
	want="ok badwrite=$kind status=remote access error memory=intact changed=0 canary_before=0 canary_after=0"
	check "$bad: requester's status and responder's memory (client)" "$want" \
		"$(grep -E '^(ok|fail) ' <<<"$cli_out")"
	check "$bad: the same verdict on the server" "$want" "$(grep -E '^(ok|fail) ' <<<"$srv_out")"
	check "$bad: exit status" "0 0" "$srv_rc $cli_rc"
	# a requester left without its error completion: what each side saw
	[ "$srv_rc$cli_rc" = 00 ] || for c in nack_rx nack_tx_rkey nack_tx_access retransmits \
		rto_timeouts retry_exceeded qp_errors rx_malformed rx_deferred_nacks \
		rx_acks_rejected rx_bad_src_addr; do
		echo "#   $c: server $(mrc_counter_sum "$H1" "$MRC_DEV1" $c)," \
			"client $(mrc_counter_sum "$H2" "$MRC_DEV2" $c)"
	done
	after=$(mrc_counter_sum "$H1" "$MRC_DEV1" "$counter")
	mrc_checks=$((mrc_checks + 1))
	if [[ $before =~ ^[0-9]+$ && $after =~ ^[0-9]+$ ]] && [ "$after" -gt "$before" ]; then
		mrc_ok "$bad: responder counted $counter ($before -> $after)"
	else
		mrc_fail "$bad: responder counted $counter"
		echo "#   before: $before, after: $after"
	fi
done
check_xfer "the device still works after the refused writes" -o write -s 8192 -n 4 -S 2
mrc_finish
