// SPDX-License-Identifier: GPL-2.0
/*
 * The requester: takes send WQEs from the SQ (copying each once, so user
 * space cannot change a WQE under us), cuts messages into packets that each
 * carry their own RETH, assigns PSNs inside the peer's window and an EV to
 * every packet, and builds them, first sends and resends alike; the
 * completer (completer.c) decides what is resent and completes WQEs.
 * Everything here runs under qp->lock; packets are collected on a list and
 * sent after unlock.
 */

#include <linux/ktime.h>
#include <rdma/ib_verbs.h>

#include "mrc.h"

static u8 mrc_data_opcode(u32 wr_op, bool first, bool last)
{
	bool only = first && last;

	switch (wr_op) {
	case IB_WR_SEND:
		return only ? MRC_OP_SEND_ONLY : first ? MRC_OP_SEND_FIRST :
		       last ? MRC_OP_SEND_LAST : MRC_OP_SEND_MIDDLE;
	case IB_WR_SEND_WITH_IMM:
		return only ? MRC_OP_SEND_ONLY_IMM : first ? MRC_OP_SEND_FIRST :
		       last ? MRC_OP_SEND_LAST_IMM : MRC_OP_SEND_MIDDLE;
	case IB_WR_SEND_WITH_INV:
		return only ? MRC_OP_SEND_ONLY_INV : first ? MRC_OP_SEND_FIRST :
		       last ? MRC_OP_SEND_LAST_INV : MRC_OP_SEND_MIDDLE;
	case IB_WR_RDMA_WRITE:
		return only ? MRC_OP_WRITE_ONLY : first ? MRC_OP_WRITE_FIRST :
		       last ? MRC_OP_WRITE_LAST : MRC_OP_WRITE_MIDDLE;
	default: /* IB_WR_RDMA_WRITE_WITH_IMM */
		return only ? MRC_OP_WRITE_ONLY_IMM :
		       first ? MRC_OP_WRITE_FIRST :
		       last ? MRC_OP_WRITE_LAST_IMM : MRC_OP_WRITE_MIDDLE;
	}
}

/* Copy and check one WQE the poster wrote; the copy is all we use later. */
static int mrc_req_fetch(struct mrc_qp *qp, u32 idx,
			 struct mrc_send_ctx *ctx)
{
	const struct rxe_send_wqe *w = mrc_queue_elem(&qp->sq, idx);
	const struct rxe_sge *sge = (const struct rxe_sge *)ctx->data;
	u64 length = 0;
	u32 i;

	ctx->wr_id = READ_ONCE(w->wr.wr_id);
	ctx->opcode = READ_ONCE(w->wr.opcode);
	ctx->send_flags = READ_ONCE(w->wr.send_flags);
	ctx->imm = be32_to_cpu((__force __be32)READ_ONCE(w->wr.ex.imm_data));
	ctx->inv_rkey = READ_ONCE(w->wr.ex.invalidate_rkey);
	ctx->remote_addr = READ_ONCE(w->wr.wr.rdma.remote_addr);
	ctx->rkey = READ_ONCE(w->wr.wr.rdma.rkey);
	ctx->compare_add = 0;
	ctx->swap = 0;
	ctx->status = IB_WC_SUCCESS;
	ctx->num_sge = 0;

	if (mrc_wr_local(ctx->opcode)) {
		/*
		 * A user WQE's MR pointer is user space's to write: user QPs
		 * have no REG_MR (mrc_post_one_send() writes the kernel's),
		 * and the kernel no memory windows to bind.
		 */
		if (ctx->opcode == IB_WR_REG_MR) {
			if (qp->is_user)
				return -EOPNOTSUPP;
			ctx->reg_mr = w->wr.wr.reg.mr;
			ctx->rkey = w->wr.wr.reg.key;
			ctx->reg_access = w->wr.wr.reg.access;
		} else if (ctx->opcode == IB_WR_BIND_MW) {
			if (!qp->is_user)
				return -EOPNOTSUPP;
			ctx->mw.addr = READ_ONCE(w->wr.wr.mw.addr);
			ctx->mw.length = READ_ONCE(w->wr.wr.mw.length);
			ctx->mw.mr_lkey = READ_ONCE(w->wr.wr.mw.mr_lkey);
			ctx->mw.mw_rkey = READ_ONCE(w->wr.wr.mw.mw_rkey);
			ctx->mw.rkey = READ_ONCE(w->wr.wr.mw.rkey);
			ctx->mw.access = READ_ONCE(w->wr.wr.mw.access);
		} else {
			ctx->rkey = ctx->inv_rkey;
		}
		ctx->length = 0;
		ctx->npkts = 0;
		return 0;
	}
	if (!mrc_wr_opcode_ok(ctx->opcode))
		return -EOPNOTSUPP;
	if (mrc_wr_atomic(ctx->opcode)) {
		ctx->remote_addr = READ_ONCE(w->wr.wr.atomic.remote_addr);
		ctx->rkey = READ_ONCE(w->wr.wr.atomic.rkey);
		ctx->compare_add = READ_ONCE(w->wr.wr.atomic.compare_add);
		ctx->swap = READ_ONCE(w->wr.wr.atomic.swap);
	}

	if (ctx->send_flags & IB_SEND_INLINE) {
		length = READ_ONCE(w->dma.length);
		if (length > qp->max_inline || ctx->opcode == IB_WR_RDMA_READ ||
		    mrc_wr_atomic(ctx->opcode))
			return -EINVAL;
		memcpy(ctx->data, w->dma.inline_data, length);
	} else {
		ctx->num_sge = READ_ONCE(w->dma.num_sge);
		if (ctx->num_sge > qp->max_send_sge)
			return -EINVAL;
		memcpy(ctx->data, w->dma.sge, ctx->num_sge * sizeof(*sge));
		for (i = 0; i < ctx->num_sge; i++)
			length += sge[i].length;
	}
	if (length > MRC_MAX_MSG_LEN)
		return -EINVAL;
	/*
	 * An atomic's result lands in the first 8 bytes of its SGEs; an
	 * unaligned target the peer would refuse, failing its QP for our
	 * mistake.
	 */
	if (mrc_wr_atomic(ctx->opcode) &&
	    (length < MRC_ATOMIC_LEN ||
	     !IS_ALIGNED(ctx->remote_addr, MRC_ATOMIC_LEN)))
		return -EINVAL;
	/*
	 * No remote range may wrap the address space (the wire rules refuse
	 * it, and the encoder would WARN): a WQE's error, found here.
	 */
	if ((ctx->opcode == IB_WR_RDMA_WRITE ||
	     ctx->opcode == IB_WR_RDMA_WRITE_WITH_IMM ||
	     ctx->opcode == IB_WR_RDMA_READ) &&
	    ctx->remote_addr > U64_MAX - length)
		return -EINVAL;
	ctx->length = length;
	ctx->npkts = mrc_wr_atomic(ctx->opcode) ? 1 :
		     max_t(u32, DIV_ROUND_UP(ctx->length, qp->mtu), 1);
	return 0;
}

/*
 * The EV a packet of @slot takes: the next of the rotation; a retransmission
 * leaves the plane that lost it when another one works.
 */
static void mrc_req_path(struct mrc_qp *qp, struct mrc_tx_slot *slot, bool rtx)
{
	int pick = mrc_ev_pick(qp, rtx ? mrc_ev_plane(slot->ev) : -1);

	mrc_ev_sent(qp, pick, &slot->ev, &slot->ev_seq);
	/* Built with bottom halves off, which stay off until it has left. */
	slot->cpu = smp_processor_id();
	if (rtx && pick >= 0)
		qp->evs->ev[pick].retx++;
}

/*
 * A READ request for the rest of the chunk that @psn's response is in, or
 * an atomic's request (one PSN, its response the original value).
 */
static struct sk_buff *mrc_req_read_request(struct mrc_qp *qp, u32 psn,
					    bool rtx)
{
	struct mrc_tx_slot *slot = mrc_slot(qp, psn), *last;
	struct mrc_send_ctx *ctx = mrc_sctx(qp, slot->wqe_idx);
	u64 now = ktime_get_ns();
	struct mrc_hdrs h = {};
	u32 i;

	last = mrc_slot(qp, mrc_psn_add(psn, slot->chunk_left - 1));
	h.opcode = MRC_OP_READ_REQ;
	if (slot->flags & MRC_SLOT_ATOMIC) {
		bool cas = ctx->opcode == IB_WR_ATOMIC_CMP_AND_SWP;

		h.opcode = cas ? MRC_OP_CMP_SWAP : MRC_OP_FETCH_ADD;
		h.swap_add = cas ? ctx->swap : ctx->compare_add;
		h.compare = cas ? ctx->compare_add : 0;
	}
	h.flags = MRC_BTH_F_TSETH | MRC_BTH_F_ACK_REQ |
		  (rtx ? MRC_BTH_F_RTX : 0);
	h.dqpn = qp->attr.dest_qp_num;
	h.psn = psn;
	mrc_req_path(qp, slot, rtx);
	h.ev = slot->ev;
	h.msn = slot->msn;
	h.rq_msn = ctx->rq_msn;
	h.ts = mrc_req_stamp(qp, now);
	h.va = ctx->remote_addr + slot->offset;
	h.rkey = ctx->rkey;
	h.dma_len = last->offset + last->len - slot->offset;

	/* One request answers for the whole rest of the chunk. */
	for (i = 0; i < slot->chunk_left; i++)
		mrc_slot(qp, mrc_psn_add(psn, i))->sent_ns = now;
	return mrc_net_ctl(&h);
}

/**
 * mrc_req_packet() - build the packet of one PSN the requester owns
 * @qp: the QP, locked
 * @psn: a PSN in [psn_una, psn_next)
 * @rtx: this is a retransmission
 *
 * Return: the packet, NULL when out of memory (the timer will retry), or an
 * ERR_PTR when the WQE's local memory cannot be read (the caller fails it).
 */
static struct sk_buff *mrc_req_packet(struct mrc_qp *qp, u32 psn, bool rtx)
{
	struct mrc_tx_slot *slot = mrc_slot(qp, psn);
	struct mrc_send_ctx *ctx = mrc_sctx(qp, slot->wqe_idx);
	struct mrc_device *mdev = qp->mdev;
	bool first, last, send;
	struct mrc_hdrs h = {};
	struct sk_buff *skb;
	void *dst;
	int err;

	if (rtx) {
		slot->rtx++;
		mrc_count(mdev, qp->av.plane, MRC_CNT_RETRANSMITS, 1);
	}
	if (slot->flags & MRC_SLOT_READ)
		return mrc_req_read_request(qp, psn, rtx);
	mrc_req_path(qp, slot, rtx);

	first = !slot->offset;
	last = slot->offset + slot->len >= ctx->length;
	send = mrc_wr_is_send(ctx->opcode);
	h.opcode = mrc_data_opcode(ctx->opcode, first, last);
	h.flags = MRC_BTH_F_TSETH | (rtx ? MRC_BTH_F_RTX : 0);
	/*
	 * The end of a message, or half the window in use, asks for a SACK:
	 * the window the requester sends within, which NSCC may have cut
	 * below the responder's MRC_SACK_EVERY coalescing, not the peer's;
	 * or half the span, so that packets sent after a hole filled, while
	 * the requester still counts PSNs SACKed past it, ask for news too.
	 */
	if (last || mrc_req_pipe(qp) >= max_t(u32, mrc_req_cap(qp) / 2, 1) ||
	    mrc_req_used(qp) >= max_t(u32, mrc_req_span(qp) / 2, 1))
		h.flags |= MRC_BTH_F_ACK_REQ;
	if (last && (ctx->send_flags & IB_SEND_SOLICITED) &&
	    (send || ctx->opcode == IB_WR_RDMA_WRITE_WITH_IMM))
		h.flags |= MRC_BTH_F_SE;
	h.dqpn = qp->attr.dest_qp_num;
	h.psn = psn;
	h.ev = slot->ev;
	h.msn = ctx->msn;
	h.rq_msn = ctx->rq_msn;
	h.ts = mrc_req_stamp(qp, ktime_get_ns());
	h.va = send ? slot->offset : ctx->remote_addr + slot->offset;
	h.rkey = send ? 0 : ctx->rkey;
	h.dma_len = ctx->length;
	if (last && (ctx->opcode == IB_WR_SEND_WITH_IMM ||
		     ctx->opcode == IB_WR_RDMA_WRITE_WITH_IMM))
		h.imm = ctx->imm;
	if (last && ctx->opcode == IB_WR_SEND_WITH_INV)
		h.inv_rkey = ctx->inv_rkey;
	h.payload_len = slot->len;

	skb = mrc_net_pkt(&h);
	if (!skb)
		return NULL;
	dst = skb_put(skb, slot->len);
	if (ctx->send_flags & IB_SEND_INLINE) {
		memcpy(dst, ctx->data + slot->offset, slot->len);
	} else {
		err = mrc_sge_copy(mdev, qp->ibqp.pd,
				   (const struct rxe_sge *)ctx->data,
				   ctx->num_sge, slot->offset, dst, slot->len,
				   MRC_FROM_MR);
		if (err) {
			kfree_skb(skb);
			return ERR_PTR(err);
		}
	}
	mrc_net_seal(skb);
	slot->sent_ns = ktime_get_ns();
	mrc_count(mdev, qp->av.plane, MRC_CNT_TX_DATA, 1);
	return skb;
}

/* Queue a built packet, or fail the QP if the WQE's memory was bad. */
static bool mrc_req_emit(struct mrc_qp *qp, struct mrc_send_ctx *ctx,
			 struct sk_buff *skb, struct sk_buff_head *out)
{
	if (IS_ERR(skb)) {
		ctx->status = PTR_ERR(skb) == -EINVAL ? IB_WC_LOC_LEN_ERR :
							IB_WC_LOC_PROT_ERR;
		mrc_qp_error(qp, MRC_QP_ERROR_LOCAL);
		return false;
	}
	if (skb)
		__skb_queue_tail(out, skb);
	return true;
}

static void mrc_req_slot_init(struct mrc_qp *qp, u32 psn, u32 off, u32 len,
			      u32 msn, u16 flags, u16 chunk_left)
{
	struct mrc_tx_slot *slot = mrc_slot(qp, psn);

	slot->wqe_idx = qp->req.send_idx;
	slot->offset = off;
	slot->len = len;
	slot->msn = msn;
	slot->flags = flags;
	slot->rtx = 0;
	slot->chunk_left = chunk_left;
	slot->sent_ns = 0;
}

/* PSNs past psn_una the requester may use: the peer's window, the ring. */
u32 mrc_req_span(const struct mrc_qp *qp)
{
	return min(qp->req.window, qp->req.ring_size);
}

/*
 * Packets the requester may have unacknowledged in the network: NSCC's
 * window, within the span.  A PSN SACKed past a hole has left the network
 * and makes room, as in TCP's SACK pipe (RFC 6675): the span alone would
 * let one packet queued behind a slower path hold every other path's
 * sending once the window's worth of PSNs had gone past it.
 */
u32 mrc_req_cap(const struct mrc_qp *qp)
{
	return min(mrc_req_span(qp), mrc_cc_window(&qp->req.cc, qp->mtu));
}

/* Packets sent and not yet acknowledged (resends count once). */
u32 mrc_req_pipe(const struct mrc_qp *qp)
{
	return mrc_req_used(qp) - qp->req.sacked;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_req_pipe);

/*
 * Packetise as much of the current WQE as the window allows.  Return true
 * when every packet of it has been built.
 */
static bool mrc_req_build(struct mrc_qp *qp, struct mrc_send_ctx *ctx,
			  struct sk_buff_head *out)
{
	struct mrc_req *req = &qp->req;

	for (;;) {
		u32 used = mrc_req_used(qp);
		u32 span = mrc_req_span(qp), cap = mrc_req_cap(qp);
		u32 pipe = mrc_req_pipe(qp);
		u32 psn = req->psn_next, off = req->send_off;
		struct sk_buff *skb;
		u32 room;

		if (used >= span || pipe >= cap)
			return false;
		room = min(span - used, cap - pipe);
		if (mrc_wr_atomic(ctx->opcode)) {
			/* The peer keeps no more than this many results. */
			if (req->atomics_out >=
			    max_t(u8, qp->attr.max_rd_atomic, 1))
				return false;
			mrc_req_slot_init(qp, psn, 0, MRC_ATOMIC_LEN, ctx->msn,
					  MRC_SLOT_READ | MRC_SLOT_READ_FIRST |
					  MRC_SLOT_ATOMIC, 1);
			req->psn_next = mrc_psn_add(psn, 1);
			req->send_off = MRC_ATOMIC_LEN;
			req->atomics_out++;
			skb = mrc_req_read_request(qp, psn, false);
			if (!mrc_req_emit(qp, ctx, skb, out))
				return false;
			break;
		}
		if (ctx->opcode == IB_WR_RDMA_READ) {
			u32 done = off / qp->mtu, n, i;

			n = min3(ctx->npkts - done, (u32)MRC_READ_CHUNK_PKTS,
				 room);
			for (i = 0; i < n; i++) {
				u32 o = off + i * qp->mtu;

				mrc_req_slot_init(qp, mrc_psn_add(psn, i), o,
						  min(qp->mtu, ctx->length - o),
						  req->msn_next,
						  MRC_SLOT_READ |
						  (i ? 0 : MRC_SLOT_READ_FIRST),
						  n - i);
			}
			req->msn_next++;
			req->psn_next = mrc_psn_add(psn, n);
			req->send_off = min_t(u64, (u64)off + n * qp->mtu,
					      ctx->length);
			skb = mrc_req_read_request(qp, psn, false);
			if (!mrc_req_emit(qp, ctx, skb, out))
				return false;
			if (done + n == ctx->npkts)
				break;
		} else {
			u32 len = min(qp->mtu, ctx->length - off);

			mrc_req_slot_init(qp, psn, off, len, ctx->msn, 0, 0);
			req->psn_next = mrc_psn_add(psn, 1);
			req->send_off = off + len;
			skb = mrc_req_packet(qp, psn, false);
			if (!mrc_req_emit(qp, ctx, skb, out))
				return false;
			if (req->send_off >= ctx->length)
				break;
		}
	}
	ctx->state = MRC_WQE_INFLIGHT;
	return true;
}

/*
 * Execute a memory-management WR (Documentation/verbs.md, "Fast
 * registration") when the requester reaches it: the WRs after it see its
 * effect.  One with IB_SEND_FENCE waits until every WR before it completed.
 * A LOCAL_INV completes only after an RCU grace period, when no lookup that
 * found the registration before can still be copying through it.
 * Return: 0, -EAGAIN to wait for the fence, or an error: the QP failed.
 */
static int mrc_req_local(struct mrc_qp *qp, struct mrc_send_ctx *ctx)
{
	int err;

	if ((ctx->send_flags & IB_SEND_FENCE) &&
	    qp->sq.index != qp->req.send_idx) {
		/* What this pass executed before it may be done: complete. */
		mrc_comp_local(qp);
		if (qp->state != IB_QPS_RTS)
			return -EIO;
		if (qp->sq.index != qp->req.send_idx)
			return -EAGAIN;
	}
	if (ctx->opcode == IB_WR_REG_MR)
		err = mrc_mr_fast_reg(qp->ibqp.pd, ctx->reg_mr, ctx->rkey,
				      ctx->reg_access);
	else if (ctx->opcode == IB_WR_BIND_MW)
		err = mrc_mw_bind(qp, &ctx->mw, &ctx->inv_rcu);
	else
		err = mrc_key_invalidate(qp, ctx->rkey, false, &ctx->inv_rcu);
	if (err < 0) {
		ctx->status = ctx->opcode == IB_WR_BIND_MW ? IB_WC_MW_BIND_ERR :
							     IB_WC_LOC_QP_OP_ERR;
		mrc_qp_error(qp, MRC_QP_ERROR_LOCAL);
		return err;
	}
	/* A LOCAL_INV, or a bind that replaced one, waits out the readers. */
	ctx->state = ctx->opcode == IB_WR_LOCAL_INV || err ?
		     MRC_WQE_INV_WAIT : MRC_WQE_DONE;
	return 0;
}

/**
 * mrc_req_run() - send what the SQ holds, as far as the window allows
 * @qp: the QP, locked
 * @out: built packets are appended here
 */
void mrc_req_run(struct mrc_qp *qp, struct sk_buff_head *out)
{
	struct mrc_req *req = &qp->req;
	bool local = false;
	u32 prod;
	int err;

	if (qp->dead || qp->state != IB_QPS_RTS)
		return;

	prod = mrc_queue_load_producer(&qp->sq);
	/*
	 * The producer index is the poster's to move, forward only: behind
	 * the WQEs already taken it would have them sent again or never
	 * completed.  The poster's error: fail the QP.
	 */
	if (mrc_queue_count(&qp->sq, prod, qp->sq.index) < mrc_req_taken(qp)) {
		mrc_qp_error(qp, MRC_QP_ERROR_LOCAL);
		return;
	}
	while (req->send_idx != prod) {
		struct mrc_send_ctx *ctx = mrc_sctx(qp, req->send_idx);

		if (ctx->state == MRC_WQE_FREE) {
			if (mrc_req_fetch(qp, req->send_idx, ctx)) {
				ctx->state = MRC_WQE_PENDING;
				ctx->status = IB_WC_LOC_QP_OP_ERR;
				mrc_qp_error(qp, MRC_QP_ERROR_LOCAL);
				return;
			}
			ctx->first_psn = req->psn_next;
			ctx->pkts_done = 0;
			ctx->msn = req->msn_next;
			ctx->rq_msn = req->rq_msn_next;
			if (mrc_wr_consumes_rwqe(ctx->opcode))
				req->rq_msn_next++;
			/*
			 * A READ takes one MSN per chunk, as it builds them;
			 * a memory-management WR none: it is not a message.
			 */
			if (ctx->opcode != IB_WR_RDMA_READ &&
			    !mrc_wr_local(ctx->opcode))
				req->msn_next++;
			req->send_off = 0;
			ctx->state = MRC_WQE_PENDING;
		}
		if (ctx->state == MRC_WQE_PENDING && mrc_wr_local(ctx->opcode)) {
			err = mrc_req_local(qp, ctx);
			if (err == -EAGAIN)
				break;
			if (err)
				return;
			local = true;
		} else if (ctx->state == MRC_WQE_PENDING &&
			   !mrc_req_build(qp, ctx, out)) {
			break;
		}
		req->send_idx = mrc_queue_next(&qp->sq, req->send_idx);
	}
	/* No acknowledgment completes a memory-management WR. */
	if (local)
		mrc_comp_local(qp);
	if (qp->state == IB_QPS_RTS && req->psn_una != req->psn_next)
		mrc_comp_arm(qp);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_req_run);

/**
 * mrc_req_resend() - send one in-flight PSN again
 * @qp: the QP, locked
 * @psn: the PSN (for a READ: the rest of its chunk is requested)
 * @out: the packet is appended here
 *
 * Return: false if the QP failed meanwhile (its WQE's memory went bad).
 */
bool mrc_req_resend(struct mrc_qp *qp, u32 psn, struct sk_buff_head *out)
{
	struct mrc_tx_slot *slot = mrc_slot(qp, psn);
	struct mrc_send_ctx *ctx = mrc_sctx(qp, slot->wqe_idx);

	/* The new copy waits out its plane's round trip afresh. */
	slot->flags &= ~MRC_SLOT_REO_WAIT;
	return mrc_req_emit(qp, ctx, mrc_req_packet(qp, psn, true), out);
}
