// SPDX-License-Identifier: GPL-2.0
/*
 * The responder: validates every request packet completely before a byte
 * moves, places each one at the address or offset its RETH names whatever
 * the arrival order, records arrival in a PSN bitmap bounded by the window
 * (MRC's MPR), and releases completions strictly in MSN order, holding the
 * immediate data of early WRITE_IMMs until their turn.  It answers with
 * the acknowledgements it builds itself: SACKs of what it has, NACKs of
 * what it refuses, and READ responses.  Runs in softirq under qp->lock,
 * inside the receive path's RCU read section (MR lookups).
 */

#include "compat.h"
#include <rdma/ib_verbs.h>

#include "mrc.h"

void mrc_resp_reset(struct mrc_qp *qp)
{
	struct mrc_resp *r = &qp->resp;

	r->cum_psn = qp->attr.rq_psn;
	bitmap_zero(r->bitmap, r->window);
	memset(r->msgs, 0, r->window * sizeof(*r->msgs));
	r->msn_done = 0;
	r->rq_msn_done = 0;
	r->rq_claim_end = 0;
	r->since_sack = 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_resp_reset);

static void mrc_resp_mark(struct mrc_resp *r, u32 psn)
{
	__set_bit(psn & (r->window - 1), r->bitmap);
}

/* Slide cum_psn over what has arrived, freeing the bitmap behind it. */
static void mrc_resp_slide(struct mrc_resp *r)
{
	while (mrc_resp_seen(r, r->cum_psn)) {
		__clear_bit(r->cum_psn & (r->window - 1), r->bitmap);
		r->cum_psn = mrc_psn_add(r->cum_psn, 1);
	}
}

/*
 * The RQ's producer index is the poster's to move, forward only: behind a
 * claimed WQE it has taken back the buffer a message is placed in.
 */
static u32 mrc_resp_rq_posted(const struct mrc_qp *qp)
{
	return mrc_queue_count(&qp->rq, mrc_queue_load_producer(&qp->rq),
			       qp->rq.index);
}

static bool mrc_resp_rq_taken_back(const struct mrc_qp *qp, u32 posted)
{
	return posted < qp->resp.rq_claim_end - qp->resp.rq_msn_done;
}

/*
 * The same from an SRQ: the first packet of a message to arrive takes the
 * WQE at the SRQ's head, and the QP keeps it by rq_msn until the message
 * completes.  Messages further ahead than the QP has room for wait, as for
 * a WQE.
 */
static struct mrc_recv_ctx *mrc_resp_srq_rwqe(struct mrc_qp *qp, u32 rq_msn,
					      int *err)
{
	struct mrc_resp *r = &qp->resp;
	u32 ahead = rq_msn - r->rq_msn_done;
	struct mrc_recv_ctx *rctx;

	if (ahead > r->rctx_mask) {
		*err = -EAGAIN;
		return NULL;
	}
	rctx = mrc_rctx(qp, rq_msn);
	if (rctx->claimed)
		return rctx;
	*err = mrc_srq_take(to_msrq(qp->ibqp.srq), rctx);
	if (*err)
		return NULL;
	if (ahead >= r->rq_claim_end - r->rq_msn_done)
		r->rq_claim_end = rq_msn + 1;
	return rctx;
}

/*
 * The receive WQE of the @rq_msn-th receive-consuming message, copied out
 * of the queue the first time a packet of that message needs it.  -EAGAIN
 * when the consumer has not posted it yet (RNR), -EINVAL for a WQE no
 * legitimate poster writes, -EIO when the poster took back WQEs already
 * claimed.
 */
static struct mrc_recv_ctx *mrc_resp_rwqe(struct mrc_qp *qp, u32 rq_msn,
					  int *err)
{
	struct mrc_resp *r = &qp->resp;
	u32 ahead = rq_msn - r->rq_msn_done, posted, idx, n, i;
	const struct rxe_recv_wqe *w;
	struct mrc_recv_ctx *rctx;
	u64 len = 0;

	if (qp->ibqp.srq)
		return mrc_resp_srq_rwqe(qp, rq_msn, err);
	/* One read of the producer for both questions. */
	posted = mrc_resp_rq_posted(qp);
	if (mrc_resp_rq_taken_back(qp, posted)) {
		*err = -EIO;
		return NULL;
	}
	if (ahead >= posted) {
		*err = -EAGAIN;
		return NULL;
	}
	idx = (qp->rq.index + ahead) & qp->rq.index_mask;
	rctx = mrc_rctx(qp, idx);
	if (rctx->claimed)
		return rctx;

	w = mrc_queue_elem(&qp->rq, idx);
	n = READ_ONCE(w->dma.num_sge);
	if (n > qp->max_recv_sge) {
		*err = -EINVAL;
		return NULL;
	}
	rctx->wr_id = READ_ONCE(w->wr_id);
	rctx->num_sge = n;
	memcpy(rctx->sge, w->dma.sge, n * sizeof(rctx->sge[0]));
	for (i = 0; i < n; i++)
		len += rctx->sge[i].length;
	rctx->length = min_t(u64, len, U32_MAX);
	rctx->claimed = true;
	if (ahead >= r->rq_claim_end - r->rq_msn_done)
		r->rq_claim_end = rq_msn + 1;
	return rctx;
}

/**
 * mrc_resp_penalty() - the receiver penalty for a backlog this full
 * @qlen: packets waiting in the receiving CPU's backlog (both its queues)
 * @max: the backlog's limit (netdev_max_backlog)
 *
 * A soft provider's receiver is pressed when its CPU cannot keep up: the
 * packets it has not processed yet wait in the CPU's backlog (where veth
 * and netif_rx() put them), which drops once full.  Nothing below half
 * full; from there the penalty rises linearly to the maximum at full, so
 * three quarters full asks senders to give up half of what is acked.
 * (A NAPI NIC's packets never wait there: over one, the penalty stays 0.)
 *
 * Return: 0 .. MRC_SACK_PENALTY_MAX.
 */
u8 mrc_resp_penalty(u32 qlen, u32 max)
{
	u64 over;

	if (!max || (u64)qlen * 2 <= max)
		return 0;
	over = (u64)qlen * 2 - max;
	return min_t(u64, MRC_SACK_PENALTY_MAX,
		     div_u64(over * (MRC_SACK_PENALTY_MAX + 1), max));
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_resp_penalty);

/*
 * Queue on @out a SACK of the responder's state, answering @h (its EV,
 * timestamp, probe token echo), with @sack_flags (MRC_SACK_F_DUP and the
 * like).  Out of memory, none goes: the peer's timer covers.
 */
static void mrc_resp_sack(struct mrc_qp *qp, const struct mrc_hdrs *h,
			  u8 sack_flags, struct sk_buff_head *out)
{
	struct mrc_resp *r = &qp->resp;
	struct softnet_data *sd;
	struct mrc_hdrs c = {};
	u32 i, base, ahead, off, qlen;
	struct sk_buff *skb;

	c.opcode = MRC_OP_SACK;
	c.dqpn = qp->attr.dest_qp_num;
	c.psn = h->psn;
	c.ev = mrc_ev_next(qp);
	if (h->opcode == MRC_OP_PROBE) {
		sack_flags |= MRC_SACK_F_PROBE;
		c.sack.ref_ts = h->probe.token;
	} else if (h->flags & MRC_BTH_F_TSETH) {
		sack_flags |= MRC_SACK_F_TS_VALID;
		c.sack.ref_ts = h->ts;
	}
	if (h->flags & MRC_BTH_F_RTX)
		sack_flags |= MRC_SACK_F_RTX;
	/* The path is congested: the sender skips it for a rotation. */
	if (h->ce)
		sack_flags |= MRC_SACK_M_SKIP_ONCE;
	c.sack.flags = sack_flags;
	c.sack.cum_psn = r->cum_psn;
	/*
	 * The bitmap reports 64 PSNs from sack_psn.  A packet that arrived
	 * further than that past cum_psn is reported with the 63 before it:
	 * the sender hears of it, and finds the holes near it, while the
	 * oldest hole is still being repaired, instead of one round trip per
	 * hole.  Bit 0 is cum_psn itself when the bitmap starts there, missing
	 * by definition.
	 */
	base = r->cum_psn;
	ahead = mrc_psn_fwd(h->psn, r->cum_psn);
	if (h->opcode != MRC_OP_PROBE && ahead >= 64 && ahead < r->window)
		base = mrc_psn_fwd(h->psn, 63);
	c.sack.sack_psn = base;
	off = mrc_psn_fwd(base, r->cum_psn);
	for (i = base == r->cum_psn; i < 64 && off + i < r->window; i++)
		if (mrc_resp_seen(r, mrc_psn_add(base, i)))
			c.sack.bitmap |= BIT_ULL(i);
	c.sack.ref_ev = h->ev;
	c.sack.window = r->window;
	/*
	 * Under qp->lock, so still on the CPU whose backlog @h came through.
	 * process_backlog() moves the input queue whole to process_queue and
	 * works from there: what waits is in both.
	 */
	sd = this_cpu_ptr(&softnet_data);
	qlen = skb_queue_len_lockless(&sd->input_pkt_queue) +
	       skb_queue_len_lockless(&sd->process_queue);
	c.sack.penalty = mrc_resp_penalty(qlen, mrc_netdev_max_backlog());
	r->since_sack = 0;
	mrc_count(qp->mdev, qp->av.plane, MRC_CNT_SACK_TX, 1);
	skb = mrc_net_ctl(&c);
	if (skb)
		__skb_queue_tail(out, skb);
}

/*
 * Queue on @out a NACK of @h's PSN for @reason, @info as the wire format
 * defines, counted as @c.  Out of memory, none goes.
 */
static void mrc_resp_nack(struct mrc_qp *qp, const struct mrc_hdrs *h,
			  u8 reason, u32 info, enum mrc_counter c,
			  struct sk_buff_head *out)
{
	struct mrc_hdrs n = {};
	struct sk_buff *skb;

	mrc_count(qp->mdev, qp->av.plane, c, 1);
	n.opcode = MRC_OP_NACK;
	n.dqpn = qp->attr.dest_qp_num;
	n.psn = h->psn;
	n.ev = mrc_ev_next(qp);
	n.nack.reason = reason;
	n.nack.cum_psn = qp->resp.cum_psn;
	n.nack.ref_ev = h->ev;
	n.nack.info = info;
	skb = mrc_net_ctl(&n);
	if (skb)
		__skb_queue_tail(out, skb);
}

/*
 * RNR and fatal NACKs answer only the packet at cum_psn.  Anyone can forge
 * a packet with a guessed PSN somewhere in the window; to land on cum_psn
 * the PSN must be exact.  A packet ahead of it that would draw one is
 * dropped unrecorded instead: the requester resends the hole, and once
 * everything before it has arrived the resend meets the same verdict at
 * cum_psn, if the request really was bad (or the receive still missing).
 */
static bool mrc_resp_in_order(struct mrc_qp *qp, const struct mrc_hdrs *h)
{
	if (h->psn == qp->resp.cum_psn)
		return true;
	mrc_count(qp->mdev, qp->av.plane, MRC_CNT_RX_DEFERRED_NACKS, 1);
	return false;
}

/*
 * A request the verbs forbid: answer, never touch memory, fail the QP; or,
 * ahead of cum_psn, just drop it (mrc_resp_in_order()).
 */
static void mrc_resp_fatal(struct mrc_qp *qp, const struct mrc_hdrs *h,
			   u8 reason, struct sk_buff_head *out)
{
	static const u8 cnt[] = {
		[MRC_NACK_RKEY_VIOLATION - MRC_NACK_FATAL_MIN] =
			MRC_CNT_NACK_TX_RKEY,
		[MRC_NACK_ACCESS - MRC_NACK_FATAL_MIN] = MRC_CNT_NACK_TX_ACCESS,
	};
	u8 c = MRC_CNT_NACK_TX_INVALID;

	if (!mrc_resp_in_order(qp, h))
		return;
	if (reason - MRC_NACK_FATAL_MIN < ARRAY_SIZE(cnt) &&
	    cnt[reason - MRC_NACK_FATAL_MIN])
		c = cnt[reason - MRC_NACK_FATAL_MIN];
	mrc_resp_nack(qp, h, reason, 0, c, out);
	/* The peer's QP reports the cause; here it is just a failure. */
	mrc_qp_error(qp, MRC_QP_ERROR_OTHER);
}

/*
 * The same for a SEND the receive WQE cannot take (too short, or an SGE
 * outside its MR): that WQE completes with @status, the rest are flushed.
 * In order, every earlier message is complete: the WQE is the RQ's head.
 */
static void mrc_resp_fatal_rwqe(struct mrc_qp *qp, const struct mrc_hdrs *h,
				struct mrc_recv_ctx *rctx, u8 status,
				u8 reason, struct sk_buff_head *out)
{
	if (h->psn == qp->resp.cum_psn)
		rctx->status = status;
	mrc_resp_fatal(qp, h, reason, out);
}

/*
 * SEND_WITH_INV: the message is complete and in order, so its rkey is
 * invalidated now, as the completion that says so is posted.  Its arrival
 * checked the rkey (mrc_resp_inv_ok()); should this host have deregistered
 * or registered the MR again since, the completion says
 * IB_WC_REM_INV_REQ_ERR and the QP fails (IB class J), as on rdma_rxe.  An
 * MR invalidated since under the same key is no error (mrc_mr_invalidate()).
 * Packets of this QP cannot be copying into the MR (they run under its
 * lock); the RCU grace period of LOCAL_INV is not waited for.
 */
static bool mrc_resp_invalidate(struct mrc_qp *qp, const struct mrc_msg *m,
				struct ib_wc *wc)
{
	if (mrc_key_invalidate(qp, m->inv_rkey, true, NULL)) {
		wc->status = IB_WC_REM_INV_REQ_ERR;
		return false;
	}
	wc->wc_flags |= IB_WC_WITH_INVALIDATE;
	wc->ex.invalidate_rkey = m->inv_rkey;
	return true;
}

/*
 * The answer to an atomic that ran: the original value, as a one-packet
 * response on its PSN.  Out of memory, none goes: the requester asks again.
 */
static void mrc_resp_atomic_ack(struct mrc_qp *qp, const struct mrc_msg *m,
				struct sk_buff_head *out)
{
	struct mrc_hdrs c = {};
	struct sk_buff *skb;

	c.opcode = MRC_OP_ATOMIC_ACK;
	c.dqpn = qp->attr.dest_qp_num;
	c.psn = m->psn;
	c.ev = mrc_ev_next(qp);
	c.msn = m->msn;
	c.dma_len = MRC_ATOMIC_LEN;
	c.payload_len = MRC_ATOMIC_LEN;
	skb = mrc_net_pkt(&c);
	if (!skb)
		return;
	put_unaligned_be64(m->orig, skb_put(skb, MRC_ATOMIC_LEN));
	mrc_net_seal(skb);
	__skb_queue_tail(out, skb);
}

/*
 * Run atomic @m, its turn come: every request before it is complete.  Its
 * MR and rights were checked when it arrived; should this host have taken
 * them away since, the requester hears of an access error and both QPs
 * fail.
 * Return: false when the QP failed.
 */
static bool mrc_resp_atomic_run(struct mrc_qp *qp, struct mrc_msg *m,
				struct sk_buff_head *out)
{
	struct mrc_hdrs h = {
		.opcode = m->atomic_op,
		.psn = m->psn,
	};
	struct mrc_mr *mr;
	u64 va = m->va;

	if (m->executed)
		return true;
	mr = mrc_remote_mr(qp, m->rkey, &va, MRC_ATOMIC_LEN,
			   IB_ACCESS_REMOTE_ATOMIC);
	if (!(qp->attr.qp_access_flags & IB_ACCESS_REMOTE_ATOMIC) ||
	    IS_ERR(mr) ||
	    mrc_mr_atomic(mr, va, m->atomic_op == MRC_OP_CMP_SWAP,
			  m->swap_add, m->compare, &m->orig)) {
		mrc_resp_nack(qp, &h, MRC_NACK_ACCESS, 0,
			      MRC_CNT_NACK_TX_ACCESS, out);
		mrc_qp_error(qp, MRC_QP_ERROR_OTHER);
		return false;
	}
	m->executed = true;
	mrc_resp_atomic_ack(qp, m, out);
	return true;
}

/* Complete every finished message at the head of the MSN order. */
static void mrc_resp_release(struct mrc_qp *qp, struct sk_buff_head *out)
{
	struct mrc_cq *cq = to_mcq(qp->ibqp.recv_cq);
	struct mrc_resp *r = &qp->resp;
	int err = 0;

	for (;;) {
		struct mrc_msg *m = &r->msgs[r->msn_done & (r->window - 1)];

		if (!m->used || m->msn != r->msn_done || m->got < m->len)
			return;
		if (m->kind == MRC_MSG_ATOMIC && !mrc_resp_atomic_run(qp, m, out))
			return;
		if (m->consumes_rwqe) {
			struct mrc_srq *srq = to_msrq(qp->ibqp.srq);
			struct mrc_recv_ctx *rctx =
				mrc_rctx(qp, srq ? r->rq_msn_done :
						   qp->rq.index);
			struct ib_wc wc = {
				.status = m->status,
				.opcode = m->kind == MRC_MSG_SEND ? IB_WC_RECV :
					  IB_WC_RECV_RDMA_WITH_IMM,
				.byte_len = m->len,
				.qp = &qp->ibqp,
				.src_qp = qp->attr.dest_qp_num,
				.port_num = qp->av.plane + 1,
			};

			/* The sender numbered its receive-consuming messages
			 * out of step with its MSNs: nothing sane to complete.
			 */
			/* Taken back by the poster: its error, not the peer's. */
			if (!srq &&
			    mrc_resp_rq_taken_back(qp, mrc_resp_rq_posted(qp))) {
				mrc_qp_error(qp, MRC_QP_ERROR_LOCAL);
				return;
			}
			if (m->rq_msn != r->rq_msn_done || !rctx->claimed) {
				mrc_count(qp->mdev, qp->av.plane,
					  MRC_CNT_RX_MALFORMED, 1);
				mrc_qp_error(qp, MRC_QP_ERROR_OTHER);
				return;
			}
			wc.wr_id = rctx->wr_id;
			if (m->has_imm) {
				wc.wc_flags = IB_WC_WITH_IMM;
				wc.ex.imm_data = cpu_to_be32(m->imm);
			}
			if (m->has_inv && !mrc_resp_invalidate(qp, m, &wc))
				err = -EINVAL;
			if (mrc_cq_post(cq, &wc, m->se))
				err = -ENOSPC;
			rctx->claimed = false;
			if (!srq)
				mrc_queue_store_consumer(&qp->rq,
							 mrc_queue_next(&qp->rq,
									qp->rq.index));
			r->rq_msn_done++;
		}
		m->used = false;
		r->msn_done++;
		/*
		 * The CQ overran: the QP fails, as the IBA asks; or this
		 * host took away what a SEND_WITH_INV named.
		 */
		if (err) {
			mrc_qp_error(qp, MRC_QP_ERROR_LOCAL);
			return;
		}
	}
}

static u8 mrc_rresp_opcode(bool first, bool last)
{
	if (first && last)
		return MRC_OP_READ_RESP_ONLY;
	if (first)
		return MRC_OP_READ_RESP_FIRST;
	return last ? MRC_OP_READ_RESP_LAST : MRC_OP_READ_RESP_MIDDLE;
}

/*
 * The memory a READ names, checked, and in @va where it starts in the
 * region; NULL after answering a violation, or, without @out (a replay),
 * after just refusing it.
 */
static struct mrc_mr *mrc_resp_read_mr(struct mrc_qp *qp,
				       const struct mrc_hdrs *h, u64 *va,
				       struct sk_buff_head *out)
{
	struct mrc_mr *mr;
	u8 reason = MRC_NACK_ACCESS;

	if (!(qp->attr.qp_access_flags & IB_ACCESS_REMOTE_READ))
		goto refuse;
	*va = h->va;
	mr = mrc_remote_mr(qp, h->rkey, va, h->dma_len, IB_ACCESS_REMOTE_READ);
	if (PTR_ERR(mr) == -ENOENT)
		reason = MRC_NACK_RKEY_VIOLATION;
	if (IS_ERR(mr))
		goto refuse;
	return mr;

refuse:
	if (out)
		mrc_resp_fatal(qp, h, reason, out);
	else
		mrc_count(qp->mdev, qp->av.plane, MRC_CNT_RX_MALFORMED, 1);
	return NULL;
}

/*
 * Answer a READ request with its responses, one per PSN from the request's
 * own, from @va in @mr on.  A duplicate request (its responses were lost)
 * is served again: reading is idempotent.
 */
static void mrc_resp_read(struct mrc_qp *qp, const struct mrc_hdrs *h,
			  struct mrc_mr *mr, u64 va, u32 npkts,
			  struct sk_buff_head *out)
{
	u32 i;

	for (i = 0; i < npkts; i++) {
		u32 off = i * qp->mtu, pay = min(qp->mtu, h->dma_len - off);
		struct mrc_hdrs c = {};
		struct sk_buff *skb;

		c.opcode = mrc_rresp_opcode(!i, i == npkts - 1);
		c.dqpn = qp->attr.dest_qp_num;
		c.psn = mrc_psn_add(h->psn, i);
		c.ev = mrc_ev_next(qp);
		c.msn = h->msn;
		c.va = off;
		c.dma_len = h->dma_len;
		c.payload_len = pay;
		skb = mrc_net_pkt(&c);
		if (!skb)
			return;
		mrc_mr_copy(mr, va + off, skb_put(skb, pay), pay,
			    MRC_FROM_MR);
		mrc_net_seal(skb);
		__skb_queue_tail(out, skb);
	}
}

static u32 mrc_resp_read_npkts(const struct mrc_qp *qp,
			       const struct mrc_hdrs *h)
{
	return max_t(u32, DIV_ROUND_UP(h->dma_len, qp->mtu), 1);
}

/*
 * May the READ request @h, whose PSN has been seen, be served again?  Only
 * when it repeats a READ this responder served, whole or from one of its
 * PSNs to its end (the requester asks again for what it still misses, with
 * that PSN's address), and not twice within MRC_READ_REPLAY_GAP_US: a
 * requester asks again once per time-out, a forger that guessed a PSN does
 * not know the READ's rkey and address, and no one turns a stream of small
 * requests into a stream of responses.
 */
static bool mrc_resp_read_replay_ok(struct mrc_qp *qp,
				    const struct mrc_hdrs *h)
{
	struct mrc_resp *r = &qp->resp;
	struct mrc_msg *m = &r->msgs[h->msn & (r->window - 1)];
	u32 k = mrc_psn_fwd(h->psn, m->psn);
	u64 now = ktime_get_ns();

	if (m->kind != MRC_MSG_READ || m->msn != h->msn || k >= m->npkts ||
	    h->rkey != m->rkey || h->va != m->va + (u64)k * qp->mtu ||
	    h->va + h->dma_len != m->va + m->len ||
	    (m->replayed && (s64)(now - m->replay_ns) <
			    MRC_READ_REPLAY_GAP_US * NSEC_PER_USEC))
		return false;
	m->replayed = true;
	m->replay_ns = now;
	return true;
}

/*
 * May the new atomic @h run here?  Checked on arrival, as a READ is: a
 * fatal answer at cum_psn, nothing recorded ahead of it.  A QP that gave
 * its peer no atomic resources (max_dest_rd_atomic 0), or an address not
 * 8-byte aligned, is an invalid request, as in InfiniBand.
 */
static bool mrc_resp_atomic_ok(struct mrc_qp *qp, const struct mrc_hdrs *h,
			       struct sk_buff_head *out)
{
	u8 reason = MRC_NACK_INVALID_REQUEST;
	struct mrc_mr *mr;
	u64 va = h->va;

	if (!qp->attr.max_dest_rd_atomic ||
	    !IS_ALIGNED(h->va, MRC_ATOMIC_LEN))
		goto refuse;
	reason = MRC_NACK_ACCESS;
	if (!(qp->attr.qp_access_flags & IB_ACCESS_REMOTE_ATOMIC))
		goto refuse;
	mr = mrc_remote_mr(qp, h->rkey, &va, MRC_ATOMIC_LEN,
			   IB_ACCESS_REMOTE_ATOMIC);
	if (PTR_ERR(mr) == -ENOENT)
		reason = MRC_NACK_RKEY_VIOLATION;
	if (IS_ERR(mr))
		goto refuse;
	if (!mrc_mr_atomic_aligned(mr, va)) {
		reason = MRC_NACK_INVALID_REQUEST;
		goto refuse;
	}
	return true;

refuse:
	mrc_resp_fatal(qp, h, reason, out);
	return false;
}

static u8 mrc_msg_kind(u8 opcode)
{
	if (opcode == MRC_OP_READ_REQ)
		return MRC_MSG_READ;
	if (opcode == MRC_OP_CMP_SWAP || opcode == MRC_OP_FETCH_ADD)
		return MRC_MSG_ATOMIC;
	if (opcode >= MRC_OP_WRITE_FIRST && opcode <= MRC_OP_WRITE_ONLY_IMM)
		return MRC_MSG_WRITE;
	return MRC_MSG_SEND;
}

/*
 * A request whose PSN has been seen.  A READ is served again (reading is
 * idempotent), but only a repeat of one served and that still checks out;
 * an atomic that ran is answered with the result it had, never run again;
 * anything else is dropped, never fatal: an old PSN is easy to forge, and
 * a duplicate must not be able to fail a healthy QP.
 */
static void mrc_resp_dup(struct mrc_qp *qp, const struct mrc_hdrs *h,
			 struct sk_buff_head *out)
{
	struct mrc_mr *mr;
	u64 va;

	mrc_count(qp->mdev, qp->av.plane, MRC_CNT_DUPLICATES, 1);
	if (mrc_msg_kind(h->opcode) == MRC_MSG_ATOMIC) {
		/* Its answer comes when it runs, or ran: never run it twice. */
		const struct mrc_msg *m = &qp->resp.msgs[h->msn &
							 (qp->resp.window - 1)];

		if (m->kind != MRC_MSG_ATOMIC || m->msn != h->msn ||
		    m->psn != h->psn || m->atomic_op != h->opcode ||
		    m->rkey != h->rkey || m->va != h->va)
			return;
		if (m->executed)
			mrc_resp_atomic_ack(qp, m, out);
	}
	if (h->opcode == MRC_OP_READ_REQ) {
		if (!mrc_resp_read_replay_ok(qp, h)) {
			mrc_count(qp->mdev, qp->av.plane,
				  MRC_CNT_RX_READ_REPLAY_REFUSED, 1);
			return;
		}
		mr = mrc_resp_read_mr(qp, h, &va, NULL);
		if (!mr)
			return;
		mrc_resp_read(qp, h, mr, va, mrc_resp_read_npkts(qp, h), out);
	}
	/* The sender missed our SACK, or it resent early: tell it now. */
	mrc_resp_sack(qp, h, MRC_SACK_F_DUP, out);
}

static bool mrc_op_first(u8 opcode)
{
	return opcode == MRC_OP_WRITE_FIRST || opcode == MRC_OP_WRITE_ONLY ||
	       opcode == MRC_OP_WRITE_ONLY_IMM;
}

static bool mrc_op_has_imm(u8 opcode)
{
	return opcode == MRC_OP_SEND_LAST_IMM ||
	       opcode == MRC_OP_SEND_ONLY_IMM ||
	       opcode == MRC_OP_WRITE_LAST_IMM ||
	       opcode == MRC_OP_WRITE_ONLY_IMM;
}

static bool mrc_op_has_inv(u8 opcode)
{
	return opcode == MRC_OP_SEND_LAST_INV || opcode == MRC_OP_SEND_ONLY_INV;
}

/*
 * Is @rkey a fast registration of @qp's PD in force, or a type 2 window
 * bound to @qp?  Under RCU.
 */
static bool mrc_resp_inv_ok(struct mrc_qp *qp, u32 rkey)
{
	const struct mrc_mr *mr;

	if (mrc_key_is_mw(rkey))
		return mrc_mw_inv_ok(qp, rkey);
	mr = mrc_mr_lookup(qp->mdev, rkey);
	return mr && mr->type == MRC_MR_FAST_MAP && mr->ibmr.pd == qp->ibqp.pd;
}

/*
 * Place one new WRITE or SEND packet.  Return 0 when placed, -EAGAIN when
 * the packet was refused for now (RNR), another error when the QP failed.
 */
static int mrc_resp_place(struct mrc_qp *qp, struct mrc_msg *m,
			  const struct mrc_hdrs *h, const void *payload,
			  struct sk_buff_head *out)
{
	bool imm = mrc_op_has_imm(h->opcode);
	struct mrc_recv_ctx *rctx = NULL;
	struct mrc_mr *mr = NULL;
	u64 va = h->va;
	int err = 0;

	if (m->kind == MRC_MSG_WRITE) {
		if (!(qp->attr.qp_access_flags & IB_ACCESS_REMOTE_WRITE)) {
			mrc_resp_fatal(qp, h, MRC_NACK_ACCESS, out);
			return -EACCES;
		}
		/*
		 * A first packet knows where the message starts: check all
		 * of it, so a WRITE that overruns the MR is refused early.
		 */
		mr = mrc_remote_mr(qp, h->rkey, &va,
				   mrc_op_first(h->opcode) ? h->dma_len :
							     h->payload_len,
				   IB_ACCESS_REMOTE_WRITE);
		if (IS_ERR(mr)) {
			mrc_resp_fatal(qp, h, PTR_ERR(mr) == -ENOENT ?
					      MRC_NACK_RKEY_VIOLATION :
					      MRC_NACK_ACCESS, out);
			return -EACCES;
		}
	}
	if (m->kind == MRC_MSG_SEND || imm) {
		rctx = mrc_resp_rwqe(qp, h->rq_msn, &err);
		if (err == -EAGAIN) {
			if (mrc_resp_in_order(qp, h))
				mrc_resp_nack(qp, h, MRC_NACK_RNR,
					      qp->attr.min_rnr_timer,
					      MRC_CNT_NACK_TX_RNR, out);
			return err;
		}
		/* The poster's error, not the peer's: the QP fails here. */
		if (err == -EIO) {
			mrc_qp_error(qp, MRC_QP_ERROR_LOCAL);
			return err;
		}
		if (err) {
			mrc_resp_fatal(qp, h, MRC_NACK_INVALID_REQUEST, out);
			return err;
		}
	}

	if (m->kind == MRC_MSG_WRITE) {
		mrc_mr_copy(mr, va, (void *)payload, h->payload_len,
			    MRC_TO_MR);
	} else {
		/*
		 * SEND_WITH_INV naming no registration of this PD in force:
		 * the peer's error, judged like any fatal one (at cum_psn
		 * only), so that a forged one in the window cannot fail the
		 * QP when the message completes.
		 */
		if (mrc_op_has_inv(h->opcode) &&
		    !mrc_resp_inv_ok(qp, h->inv_rkey)) {
			mrc_resp_fatal_rwqe(qp, h, rctx, IB_WC_REM_INV_REQ_ERR,
					    MRC_NACK_INVALID_REQUEST, out);
			return -EINVAL;
		}
		/* h->va is the offset in the message: within the WQE? */
		if ((u64)h->va + h->payload_len > rctx->length) {
			mrc_resp_fatal_rwqe(qp, h, rctx, IB_WC_LOC_LEN_ERR,
					    MRC_NACK_INVALID_REQUEST, out);
			return -EMSGSIZE;
		}
		err = mrc_sge_copy(qp->mdev, qp->ibqp.pd, rctx->sge,
				   rctx->num_sge, h->va, (void *)payload,
				   h->payload_len, MRC_TO_MR);
		if (err) {
			mrc_resp_fatal_rwqe(qp, h, rctx, IB_WC_LOC_PROT_ERR,
					    MRC_NACK_REMOTE_OP, out);
			return err;
		}
	}
	if (imm) {
		m->has_imm = true;
		m->imm = h->imm;
		m->consumes_rwqe = true;
		m->rq_msn = h->rq_msn;
	}
	if (mrc_op_has_inv(h->opcode)) {
		m->has_inv = true;
		m->inv_rkey = h->inv_rkey;
	}
	return 0;
}

/**
 * mrc_resp_rcv() - a request packet (or a PROBE) for this QP
 * @qp: the QP, locked, in RTR or later
 * @h: its validated headers
 * @payload: h->payload_len bytes
 * @out: SACKs, NACKs and READ responses to send
 */
void mrc_resp_rcv(struct mrc_qp *qp, const struct mrc_hdrs *h,
		  const void *payload, struct sk_buff_head *out)
{
	struct mrc_resp *r = &qp->resp;
	u32 w = r->window, psn = h->psn, cum = r->cum_psn, npkts = 1, i;
	struct mrc_mr *mr = NULL;
	struct mrc_msg *m;
	u64 va;
	u8 kind;
	s32 d;

	if (h->opcode == MRC_OP_PROBE) {
		mrc_resp_sack(qp, h, 0, out);
		return;
	}
	mrc_count(qp->mdev, qp->av.plane, MRC_CNT_RX_DATA, 1);

	d = mrc_psn_sub(psn, cum);
	if (d < 0 || (d < w && mrc_resp_seen(r, psn))) {
		mrc_resp_dup(qp, h, out);
		return;
	}
	kind = mrc_msg_kind(h->opcode);
	if (kind == MRC_MSG_READ)
		npkts = mrc_resp_read_npkts(qp, h);
	/*
	 * Requesters cut READs into chunks; a longer one is not ours: fatal
	 * at cum_psn, refused with the window beyond it, dropped between.
	 */
	if (d == 0 && npkts > MRC_READ_CHUNK_PKTS) {
		mrc_resp_fatal(qp, h, MRC_NACK_INVALID_REQUEST, out);
		return;
	}
	if (d + npkts > w) {
		mrc_resp_nack(qp, h, MRC_NACK_PSN_OOR_WINDOW, w,
			      MRC_CNT_NACK_TX_OOR, out);
		return;
	}
	if (npkts > MRC_READ_CHUNK_PKTS) {
		mrc_resp_fatal(qp, h, MRC_NACK_INVALID_REQUEST, out);
		return;
	}
	/*
	 * A message is at most as far ahead as its PSN: every message from
	 * msn_done on is incomplete or waits for one that is, so each has a
	 * PSN of its own in [cum_psn, psn).  A forged packet that guessed a
	 * PSN must guess the MSN too, or it could claim a message's slot.
	 */
	if (h->msn - r->msn_done > (u32)d) {
		mrc_count(qp->mdev, qp->av.plane, MRC_CNT_RX_MALFORMED, 1);
		return;
	}

	m = &r->msgs[h->msn & (w - 1)];
	if (!m->used) {
		memset(m, 0, sizeof(*m));
		m->used = true;
		m->msn = h->msn;
		m->kind = kind;
		m->len = h->dma_len;
		m->rq_msn = h->rq_msn;
		m->consumes_rwqe = kind == MRC_MSG_SEND;
		m->status = IB_WC_SUCCESS;
	} else if (m->msn != h->msn || m->kind != kind ||
		   m->len != h->dma_len || m->rq_msn != h->rq_msn ||
		   kind == MRC_MSG_READ || kind == MRC_MSG_ATOMIC) {
		mrc_count(qp->mdev, qp->av.plane, MRC_CNT_RX_MALFORMED, 1);
		return;
	}

	if (kind == MRC_MSG_READ) {
		for (i = 1; i < npkts; i++) {
			if (mrc_resp_seen(r, mrc_psn_add(psn, i))) {
				m->used = false;
				mrc_count(qp->mdev, qp->av.plane,
					  MRC_CNT_RX_MALFORMED, 1);
				return;
			}
		}
		mr = mrc_resp_read_mr(qp, h, &va, out);
		if (!mr) {
			m->used = false;
			return;
		}
		for (i = 0; i < npkts; i++)
			mrc_resp_mark(r, mrc_psn_add(psn, i));
		m->got = m->len;
		m->psn = psn;
		m->npkts = npkts;
		m->rkey = h->rkey;
		m->va = h->va;
		mrc_resp_read(qp, h, mr, va, npkts, out);
	} else if (kind == MRC_MSG_ATOMIC) {
		if (!mrc_resp_atomic_ok(qp, h, out)) {
			m->used = false;
			return;
		}
		/* It runs in MSN order, after every request before it. */
		mrc_resp_mark(r, psn);
		m->got = m->len;
		m->psn = psn;
		m->rkey = h->rkey;
		m->va = h->va;
		m->atomic_op = h->opcode;
		m->swap_add = h->swap_add;
		m->compare = h->compare;
		m->executed = false;
	} else {
		if (mrc_resp_place(qp, m, h, payload, out)) {
			/* Nothing of this packet stays recorded. */
			if (!m->got)
				m->used = false;
			return;
		}
		mrc_resp_mark(r, psn);
		m->got += h->payload_len;
		if (h->flags & MRC_BTH_F_SE)
			m->se = true;
	}

	if (psn != cum)
		mrc_count(qp->mdev, qp->av.plane, MRC_CNT_OOO_PLACED, 1);
	mrc_resp_slide(r);
	mrc_resp_release(qp, out);
	if (qp->state == IB_QPS_ERR)
		return;

	/*
	 * Coalesce while packets arrive in order; answer at once when one
	 * arrives out of order, or fills a hole (cum_psn jumped past it), so
	 * the requester never waits a timeout for news it could have had.
	 */
	if (++r->since_sack >= MRC_SACK_EVERY || psn != cum || h->ce ||
	    r->cum_psn != mrc_psn_add(psn, npkts) ||
	    (h->flags & MRC_BTH_F_ACK_REQ)) {
		mrc_resp_sack(qp, h, 0, out);
	}
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_resp_rcv);
