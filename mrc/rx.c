// SPDX-License-Identifier: GPL-2.0
/*
 * The responder: validates every request packet completely before a byte
 * moves, places each one at the address or offset its RETH names whatever
 * the arrival order, records arrival in a PSN bitmap bounded by the window
 * (MRC's MPR), and releases completions strictly in MSN order, holding the
 * immediate data of early WRITE_IMMs until their turn.  Runs in softirq
 * under qp->lock, inside the receive path's RCU read section (MR lookups).
 */

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
	r->since_sack = 0;
}

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
 * The receive WQE of the @rq_msn-th receive-consuming message, copied out
 * of the queue the first time a packet of that message needs it.  -EAGAIN
 * when the consumer has not posted it yet (RNR), -EINVAL for a WQE no
 * legitimate poster writes.
 */
static struct mrc_recv_ctx *mrc_resp_rwqe(struct mrc_qp *qp, u32 rq_msn,
					  int *err)
{
	struct mrc_resp *r = &qp->resp;
	u32 ahead = rq_msn - r->rq_msn_done, posted, idx, n, i;
	const struct rxe_recv_wqe *w;
	struct mrc_recv_ctx *rctx;
	u64 len = 0;

	posted = mrc_queue_count(&qp->rq, mrc_queue_load_producer(&qp->rq),
				 qp->rq.index);
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
	return rctx;
}

/* Complete every finished message at the head of the MSN order. */
static void mrc_resp_release(struct mrc_qp *qp)
{
	struct mrc_cq *cq = to_mcq(qp->ibqp.recv_cq);
	struct mrc_resp *r = &qp->resp;

	for (;;) {
		struct mrc_msg *m = &r->msgs[r->msn_done & (r->window - 1)];

		if (!m->used || m->msn != r->msn_done || m->got < m->len)
			return;
		if (m->consumes_rwqe) {
			struct mrc_recv_ctx *rctx = mrc_rctx(qp, qp->rq.index);
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
			mrc_cq_post(cq, &wc, m->se);
			rctx->claimed = false;
			mrc_queue_store_consumer(&qp->rq,
						 mrc_queue_next(&qp->rq,
								qp->rq.index));
			r->rq_msn_done++;
		}
		m->used = false;
		r->msn_done++;
	}
}

/* A request the verbs forbid: answer, never touch memory, fail the QP. */
static void mrc_resp_fatal(struct mrc_qp *qp, const struct mrc_hdrs *h,
			   u8 reason, struct sk_buff_head *out)
{
	static const u8 cnt[] = {
		[MRC_NACK_RKEY_VIOLATION - MRC_NACK_FATAL_MIN] =
			MRC_CNT_NACK_TX_RKEY,
		[MRC_NACK_ACCESS - MRC_NACK_FATAL_MIN] = MRC_CNT_NACK_TX_ACCESS,
	};
	u8 c = MRC_CNT_NACK_TX_INVALID;
	struct sk_buff *skb;

	if (reason - MRC_NACK_FATAL_MIN < ARRAY_SIZE(cnt) &&
	    cnt[reason - MRC_NACK_FATAL_MIN])
		c = cnt[reason - MRC_NACK_FATAL_MIN];
	mrc_count(qp->mdev, qp->av.plane, c, 1);
	skb = mrc_rel_nack(qp, h, reason, 0);
	if (skb)
		__skb_queue_tail(out, skb);
	/* The peer's QP reports the cause; here it is just a failure. */
	mrc_qp_error(qp, MRC_QP_ERROR_OTHER);
}

static void mrc_resp_nack(struct mrc_qp *qp, const struct mrc_hdrs *h,
			  u8 reason, u32 info, enum mrc_counter c,
			  struct sk_buff_head *out)
{
	struct sk_buff *skb;

	mrc_count(qp->mdev, qp->av.plane, c, 1);
	skb = mrc_rel_nack(qp, h, reason, info);
	if (skb)
		__skb_queue_tail(out, skb);
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
 * The memory a READ names, checked; NULL after answering a violation, or,
 * without @out (a replay), after just refusing it.
 */
static struct mrc_mr *mrc_resp_read_mr(struct mrc_qp *qp,
				       const struct mrc_hdrs *h,
				       struct sk_buff_head *out)
{
	struct mrc_mr *mr;
	u8 reason = MRC_NACK_ACCESS;

	if (!(qp->attr.qp_access_flags & IB_ACCESS_REMOTE_READ))
		goto refuse;
	mr = mrc_mr_lookup(qp->mdev, h->rkey);
	if (!mr) {
		reason = MRC_NACK_RKEY_VIOLATION;
		goto refuse;
	}
	if (mrc_mr_check(mr, qp->ibqp.pd, h->va, h->dma_len,
			 IB_ACCESS_REMOTE_READ))
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
 * own.  A duplicate request (its responses were lost) is served again:
 * reading is idempotent.
 */
static void mrc_resp_read(struct mrc_qp *qp, const struct mrc_hdrs *h,
			  struct mrc_mr *mr, u32 npkts,
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
		mrc_mr_copy(mr, h->va + off, skb_put(skb, pay), pay,
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
 * A request whose PSN has been seen.  A READ is served again (reading is
 * idempotent), but only one the window still covers and that still checks
 * out; anything else is dropped, never fatal: an old PSN is easy to forge,
 * and a duplicate must not be able to fail a healthy QP.
 */
static void mrc_resp_dup(struct mrc_qp *qp, const struct mrc_hdrs *h,
			 bool recent, struct sk_buff_head *out)
{
	struct sk_buff *skb;
	struct mrc_mr *mr;

	mrc_count(qp->mdev, qp->av.plane, MRC_CNT_DUPLICATES, 1);
	if (h->opcode == MRC_OP_READ_REQ) {
		if (!recent ||
		    mrc_resp_read_npkts(qp, h) > MRC_READ_CHUNK_PKTS) {
			mrc_count(qp->mdev, qp->av.plane, MRC_CNT_RX_MALFORMED,
				  1);
			return;
		}
		mr = mrc_resp_read_mr(qp, h, NULL);
		if (!mr)
			return;
		mrc_resp_read(qp, h, mr, mrc_resp_read_npkts(qp, h), out);
	}
	/* The sender missed our SACK, or it resent early: tell it now. */
	skb = mrc_rel_sack(qp, h, MRC_SACK_F_DUP);
	if (skb)
		__skb_queue_tail(out, skb);
}

static u8 mrc_msg_kind(u8 opcode)
{
	if (opcode == MRC_OP_READ_REQ)
		return MRC_MSG_READ;
	if (opcode >= MRC_OP_WRITE_FIRST && opcode <= MRC_OP_WRITE_ONLY_IMM)
		return MRC_MSG_WRITE;
	return MRC_MSG_SEND;
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
	int err = 0;

	if (m->kind == MRC_MSG_WRITE) {
		if (!(qp->attr.qp_access_flags & IB_ACCESS_REMOTE_WRITE)) {
			mrc_resp_fatal(qp, h, MRC_NACK_ACCESS, out);
			return -EACCES;
		}
		mr = mrc_mr_lookup(qp->mdev, h->rkey);
		if (!mr) {
			mrc_resp_fatal(qp, h, MRC_NACK_RKEY_VIOLATION, out);
			return -EACCES;
		}
		/*
		 * A first packet knows where the message starts: check all
		 * of it, so a WRITE that overruns the MR is refused early.
		 */
		if (mrc_mr_check(mr, qp->ibqp.pd, h->va,
				 mrc_op_first(h->opcode) ? h->dma_len :
							   h->payload_len,
				 IB_ACCESS_REMOTE_WRITE)) {
			mrc_resp_fatal(qp, h, MRC_NACK_ACCESS, out);
			return -EACCES;
		}
	}
	if (m->kind == MRC_MSG_SEND || imm) {
		rctx = mrc_resp_rwqe(qp, h->rq_msn, &err);
		if (err == -EAGAIN) {
			mrc_resp_nack(qp, h, MRC_NACK_RNR,
				      qp->attr.min_rnr_timer,
				      MRC_CNT_NACK_TX_RNR, out);
			return err;
		}
		if (err) {
			mrc_resp_fatal(qp, h, MRC_NACK_INVALID_REQUEST, out);
			return err;
		}
	}

	if (m->kind == MRC_MSG_WRITE) {
		mrc_mr_copy(mr, h->va, (void *)payload, h->payload_len,
			    MRC_TO_MR);
	} else {
		/* h->va is the offset in the message: within the WQE? */
		if ((u64)h->va + h->payload_len > rctx->length) {
			mrc_resp_fatal(qp, h, MRC_NACK_INVALID_REQUEST, out);
			return -EMSGSIZE;
		}
		err = mrc_sge_copy(qp->mdev, qp->ibqp.pd, rctx->sge,
				   rctx->num_sge, h->va, (void *)payload,
				   h->payload_len, MRC_TO_MR);
		if (err) {
			mrc_resp_fatal(qp, h, MRC_NACK_REMOTE_OP, out);
			return err;
		}
	}
	if (imm) {
		m->has_imm = true;
		m->imm = h->imm;
		m->consumes_rwqe = true;
		m->rq_msn = h->rq_msn;
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
	struct sk_buff *skb;
	struct mrc_msg *m;
	u8 kind;
	s32 d;

	if (h->opcode == MRC_OP_PROBE) {
		skb = mrc_rel_sack(qp, h, 0);
		if (skb)
			__skb_queue_tail(out, skb);
		return;
	}
	mrc_count(qp->mdev, qp->av.plane, MRC_CNT_RX_DATA, 1);

	d = mrc_psn_sub(psn, cum);
	if (d < 0 || (d < w && mrc_resp_seen(r, psn))) {
		mrc_resp_dup(qp, h, d >= -(s32)w, out);
		return;
	}
	kind = mrc_msg_kind(h->opcode);
	if (kind == MRC_MSG_READ)
		npkts = mrc_resp_read_npkts(qp, h);
	/*
	 * Requesters cut READs into chunks; a longer one is not ours.  Only
	 * inside the window is that fatal: a PSN ahead of it is anyone's
	 * guess (half the PSN space lies there), and a forged one must not
	 * fail the QP.  Ahead of the window it is refused as any other.
	 */
	if (d < w && npkts > MRC_READ_CHUNK_PKTS) {
		mrc_resp_fatal(qp, h, MRC_NACK_INVALID_REQUEST, out);
		return;
	}
	if (d + npkts > w) {
		mrc_resp_nack(qp, h, MRC_NACK_PSN_OOR_WINDOW, w,
			      MRC_CNT_NACK_TX_OOR, out);
		return;
	}
	/* A message can only be as far ahead as its PSNs are. */
	if (h->msn - r->msn_done >= w) {
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
		   kind == MRC_MSG_READ) {
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
		mr = mrc_resp_read_mr(qp, h, out);
		if (!mr)
			return;
		for (i = 0; i < npkts; i++)
			mrc_resp_mark(r, mrc_psn_add(psn, i));
		m->got = m->len;
		mrc_resp_read(qp, h, mr, npkts, out);
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
	mrc_resp_release(qp);
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
		skb = mrc_rel_sack(qp, h, 0);
		if (skb)
			__skb_queue_tail(out, skb);
	}
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_resp_rcv);
