// SPDX-License-Identifier: GPL-2.0
/*
 * The completer: what the requester makes of the SACKs and NACKs its
 * responder peer sends, of READ responses and of its retransmit timer;
 * and the completion of acknowledged WQEs in SQ order.  Loss is repaired
 * selectively: only PSNs the peer has not reported are sent again, marked
 * as retransmissions, through the requester.  All of it runs under
 * qp->lock.
 */

#include <linux/ktime.h>
#include <linux/timer.h>
#include "compat.h"

#include "mrc.h"

/*
 * Retransmit timeout now: the QP attribute's (1.024 us << timeout), raised
 * to srtt + 4 * rttvar when the path is slower than that, so a loaded host
 * does not count its own queueing as loss; doubling per timeout after the
 * linear retries.
 */
static u64 mrc_comp_rto_us(const struct mrc_qp *qp)
{
	u32 linear = qp->attr.retry_cnt, t = qp->req.timeouts;
	u64 rto = max_t(u64, qp->rto_us,
			(u64)qp->req.srtt_us + 4ULL * qp->req.rttvar_us);

	if (t > linear)
		rto <<= min(t - linear, 16U);
	return rto;
}

void mrc_comp_arm(struct mrc_qp *qp)
{
	u64 j;

	if (qp->dead || timer_pending(&qp->rtx_timer))
		return;
	/* In 64 bits: a doubled RTO outgrows usecs_to_jiffies()' 32. */
	j = nsecs_to_jiffies64(mrc_comp_rto_us(qp) * NSEC_PER_USEC);
	mod_timer(&qp->rtx_timer, jiffies + min_t(u64, j, MAX_JIFFY_OFFSET));
}

static bool mrc_comp_in_flight(const struct mrc_qp *qp, u32 psn)
{
	return mrc_psn_fwd(psn, qp->req.psn_una) < mrc_req_used(qp);
}

/*
 * An acknowledgment speaks of PSNs this requester sent: the PSN it
 * answers and its cumulative PSN lie in [psn_una - ring_size, psn_next].
 * Older ones are from a past the ring no longer holds, newer ones would
 * acknowledge what was never sent: not the peer's, or not of this flight.
 * Late ones inside the range are the peer's, overtaken by a newer one, and
 * harmless (they acknowledge nothing new).  A blind forger must land two
 * PSNs in that range (one for a probe's answer), each with odds of about
 * 2 ring_size / 2^24.
 */
static bool mrc_comp_ack_fresh(const struct mrc_qp *qp, u32 psn)
{
	return mrc_req_psn_recent(qp, psn);
}

/*
 * An RNR NACK of @psn: the responder answers only the PSN at its cum_psn
 * and drops, unanswered, every later packet that needs a receive WQE as
 * well (mrc_resp_in_order()).  Those wait out the RNR timer with it
 * instead of reading as losses of their paths.
 */
static void mrc_comp_rnr_mark(struct mrc_qp *qp, u32 psn)
{
	struct mrc_send_ctx *ctx;
	struct mrc_tx_slot *s;
	u32 p;

	mrc_slot(qp, psn)->flags |= MRC_SLOT_RNR_WAIT;
	for (p = mrc_psn_add(psn, 1); p != qp->req.psn_next;
	     p = mrc_psn_add(p, 1)) {
		s = mrc_slot(qp, p);
		if (s->flags & (MRC_SLOT_ACKED | MRC_SLOT_READ))
			continue;
		ctx = mrc_sctx(qp, s->wqe_idx);
		if (mrc_wr_consumes_rwqe(ctx->opcode))
			s->flags |= MRC_SLOT_RNR_WAIT;
	}
}

static void mrc_comp_slot_done(struct mrc_qp *qp, struct mrc_tx_slot *slot)
{
	struct mrc_send_ctx *ctx = mrc_sctx(qp, slot->wqe_idx);

	slot->flags |= MRC_SLOT_ACKED;
	qp->req.sacked++;
	if (++ctx->pkts_done == ctx->npkts)
		ctx->state = MRC_WQE_DONE;
}

/*
 * A SACK covers @psn.  READ PSNs wait for their responses instead.  Any
 * newly acknowledged PSN proves the path alive: the retry count restarts.
 * A resent PSN does not advance its EV's order: its first copy may be the
 * one that arrived, and even a SACK echoing the copy's EV does not prove
 * the EV's older packets lost, since resends leave from the CPU handling
 * SACKs and overtake packets of the same EV sent from another one.
 */
static u32 mrc_comp_ack(struct mrc_qp *qp, u32 psn)
{
	struct mrc_tx_slot *slot = mrc_slot(qp, psn);

	if (slot->flags & (MRC_SLOT_ACKED | MRC_SLOT_READ))
		return 0;
	if (!slot->rtx)
		mrc_ev_acked(qp, slot->ev, slot->ev_seq, slot->cpu);
	mrc_comp_slot_done(qp, slot);
	qp->req.timeouts = 0;
	return slot->len;
}

/*
 * The longest round trip of plane @pl lately, which the suspicion rule
 * waits out (mrc_ev_suspect()): a longer sample replaces it at once, a
 * shorter one pulls it down slowly, so that one quiet spell of a plane's
 * fast paths does not forget how long its queued ones take.
 */
static void mrc_comp_plane_rtt(struct mrc_req *req, u8 pl, u32 us)
{
	u32 *m;

	if (pl >= MRC_MAX_PLANES)
		return;
	m = &req->plane_rtt_us[pl];
	if (us >= *m)
		*m = us;
	else
		*m -= (*m - us) / 64;
}

/* RFC 6298's estimator, on the send times the peer reflects; the sample. */
static u32 mrc_comp_rtt_sample(struct mrc_qp *qp, const struct mrc_hdrs *h)
{
	struct mrc_req *req = &qp->req;
	u64 now = ktime_get_ns(), rtt;
	u32 us, dev;

	/* Karn: a retransmission's echo cannot tell which copy it was. */
	if (!(h->sack.flags & MRC_SACK_F_TS_VALID) ||
	    (h->sack.flags & MRC_SACK_F_RTX) ||
	    !mrc_req_echo_ok(qp, h->sack.ref_ts, now))
		return 0;
	rtt = now - mrc_req_stamp(qp, h->sack.ref_ts);
	us = max_t(u32, div_u64(rtt, NSEC_PER_USEC), 1);
	mrc_comp_plane_rtt(req, mrc_ev_plane(h->sack.ref_ev), us);
	if (!req->srtt_us) {
		req->srtt_us = us;
		req->rttvar_us = us / 2;
		return us;
	}
	dev = abs((s32)(req->srtt_us - us));
	req->rttvar_us = req->rttvar_us - req->rttvar_us / 4 + dev / 4;
	req->srtt_us = req->srtt_us - req->srtt_us / 8 + us / 8;
	return us;
}

/*
 * A fast retransmission was spurious: the peer answers DUP|RTX to a PSN it
 * had, resent because reordering went deeper than the threshold, or than
 * the margin on its EV (@una: the oldest PSN in flight before this SACK).
 * Wait longer before the next such resend, once per flight, as RACK (RFC
 * 8985) widens its reordering window on DSACKs; a long calm narrows both
 * again.  A peer that lies only slows its own repairs, within the limits.
 */
static void mrc_comp_reorder(struct mrc_qp *qp, const struct mrc_hdrs *h,
			     u32 una)
{
	struct mrc_req *req = &qp->req;
	u32 step = MRC_REORDER_THRESH / 2;
	struct mrc_tx_slot *slot;
	u16 why;

	if ((h->sack.flags & (MRC_SACK_F_DUP | MRC_SACK_F_RTX)) ==
	    (MRC_SACK_F_DUP | MRC_SACK_F_RTX) &&
	    mrc_psn_fwd(h->psn, una) < mrc_psn_fwd(req->psn_next, una)) {
		slot = mrc_slot(qp, h->psn);
		why = slot->flags & (MRC_SLOT_REORDER | MRC_SLOT_EV_LOST);
		slot->flags &= ~why;
		if (!why || (req->reo_marked &&
			     mrc_psn_after(req->reo_mark, h->psn)))
			return;
		if (why & MRC_SLOT_REORDER)
			req->reo_thresh = min_t(u32, req->reo_thresh + step,
						MRC_REORDER_MAX);
		else if (req->ev_margin < MRC_EV_MARGIN_MAX)
			req->ev_margin++;
		req->reo_mark = req->psn_next;
		req->reo_marked = true;
		req->reo_calm = 0;
		return;
	}
	req->reo_calm += mrc_psn_fwd(req->psn_una, una);
	if (req->reo_calm >= MRC_REORDER_CALM) {
		req->reo_thresh = max_t(u32, req->reo_thresh - step,
					MRC_REORDER_THRESH);
		if (req->ev_margin > MRC_EV_MARGIN)
			req->ev_margin--;
		req->reo_calm = 0;
	}
}

/*
 * Holes this far below the highest SACKed PSN are lost; at least three.
 * Within half the span, not half of NSCC's window: SACKed packets make
 * room past a hole (mrc_req_cap()), so later PSNs keep coming to reach it.
 */
static u32 mrc_comp_reorder_thresh(const struct mrc_qp *qp)
{
	return min(qp->req.reo_thresh, max_t(u32, mrc_req_span(qp) / 2, 3));
}

static enum ib_wc_opcode mrc_comp_wc_opcode(u32 wr_op)
{
	switch (wr_op) {
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_SEND_WITH_INV:
		return IB_WC_SEND;
	case IB_WR_RDMA_READ:
		return IB_WC_RDMA_READ;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		return IB_WC_COMP_SWAP;
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return IB_WC_FETCH_ADD;
	case IB_WR_REG_MR:
		return IB_WC_REG_MR;
	case IB_WR_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	case IB_WR_BIND_MW:
		return IB_WC_BIND_MW;
	default:
		return IB_WC_RDMA_WRITE;
	}
}

/* Complete acknowledged WQEs, in SQ order. */
static void mrc_comp_wqes(struct mrc_qp *qp)
{
	struct mrc_cq *cq = to_mcq(qp->ibqp.send_cq);
	u32 idx = qp->sq.index;

	while (idx != qp->req.send_idx) {
		struct mrc_send_ctx *ctx = mrc_sctx(qp, idx);

		if (ctx->state == MRC_WQE_INV_WAIT) {
			if (!poll_state_synchronize_rcu(ctx->inv_rcu)) {
				mod_timer(&qp->inv_timer, jiffies + 1);
				break;
			}
			ctx->state = MRC_WQE_DONE;
		}
		if (ctx->state != MRC_WQE_DONE)
			break;
		if (qp->sq_sig_all || (ctx->send_flags & IB_SEND_SIGNALED)) {
			struct ib_wc wc = {
				.wr_id = ctx->wr_id,
				.status = IB_WC_SUCCESS,
				.opcode = mrc_comp_wc_opcode(ctx->opcode),
				.byte_len = ctx->length,
				.qp = &qp->ibqp,
			};

			if (mrc_cq_post(cq, &wc, false)) {
				/*
				 * The CQ overran: the completion is lost,
				 * and the QP fails, as the IBA asks.
				 */
				ctx->state = MRC_WQE_FREE;
				mrc_queue_store_consumer(&qp->sq,
							 mrc_queue_next(&qp->sq,
									idx));
				mrc_qp_error(qp, MRC_QP_ERROR_LOCAL);
				return;
			}
		}
		ctx->state = MRC_WQE_FREE;
		idx = mrc_queue_next(&qp->sq, idx);
	}
	if (idx != qp->sq.index)
		mrc_queue_store_consumer(&qp->sq, idx);
}

/* Move psn_una past what is acknowledged and complete finished WQEs. */
static void mrc_comp_advance(struct mrc_qp *qp)
{
	struct mrc_req *req = &qp->req;
	bool progress = false;

	while (req->psn_una != req->psn_next &&
	       (mrc_slot(qp, req->psn_una)->flags & MRC_SLOT_ACKED)) {
		req->psn_una = mrc_psn_add(req->psn_una, 1);
		req->sacked--;
		progress = true;
	}
	/* Everything up to the highest SACKed PSN is acknowledged. */
	if (req->have_high && !mrc_comp_in_flight(qp, req->psn_high))
		req->have_high = false;
	if (progress) {
		req->timeouts = 0;
		req->rnr_retries = 0;
		/* Restart the clock: the oldest PSN changed. */
		del_timer(&qp->rtx_timer);
		if (req->psn_una != req->psn_next)
			mrc_comp_arm(qp);
	}
	mrc_comp_wqes(qp);
}

static bool mrc_comp_requester_active(const struct mrc_qp *qp)
{
	return qp->state == IB_QPS_RTS || qp->state == IB_QPS_SQD;
}

/* @h says @psn is missing: cum_psn, or a clear bit of its bitmap. */
static bool mrc_comp_sack_missing(const struct mrc_hdrs *h, u32 psn)
{
	u32 i = mrc_psn_fwd(psn, h->sack.sack_psn);

	if (psn == h->sack.cum_psn)
		return true;
	return i < 64 && !(h->sack.bitmap & BIT_ULL(i));
}

/* @p was SACKed: raise the highest SACKed PSN of all. */
static void mrc_comp_raise_high(struct mrc_req *req, u32 p)
{
	if (!req->have_high || mrc_psn_after(p, req->psn_high)) {
		req->psn_high = p;
		req->have_high = true;
	}
}

/* @p, sent on its slot's plane, was SACKed: raise that plane's highest. */
static void mrc_comp_plane_high(struct mrc_qp *qp, u32 p)
{
	struct mrc_req *req = &qp->req;
	u8 pl = mrc_ev_plane(mrc_slot(qp, p)->ev);

	if (pl >= MRC_MAX_PLANES)
		return;
	if (!(req->plane_have & BIT(pl)) ||
	    !mrc_comp_in_flight(qp, req->plane_high[pl]) ||
	    mrc_psn_after(p, req->plane_high[pl])) {
		req->plane_high[pl] = p;
		req->plane_have |= BIT(pl);
	}
}

/*
 * How far the highest SACKed PSN of @slot's plane is past @p, or 0 when
 * that plane has none in flight or it left after @p (then @p had longer).
 */
static u32 mrc_comp_plane_dist(struct mrc_qp *qp, u32 p,
			       const struct mrc_tx_slot *slot)
{
	struct mrc_req *req = &qp->req;
	u8 pl = mrc_ev_plane(slot->ev);
	u32 hp;

	if (pl >= MRC_MAX_PLANES || !(req->plane_have & BIT(pl)))
		return 0;
	hp = req->plane_high[pl];
	if (!mrc_comp_in_flight(qp, hp) || !mrc_psn_after(hp, p) ||
	    slot->sent_ns > mrc_slot(qp, hp)->sent_ns)
		return 0;
	return mrc_psn_fwd(hp, p);
}

/*
 * @slot has been out longer than the longest round trip its plane showed
 * lately: a path queued behind a busier uplink of the same plane is heard
 * within that, a dead one is not.
 */
static bool mrc_comp_plane_overdue(const struct mrc_qp *qp,
				   const struct mrc_tx_slot *slot, u64 now)
{
	u8 pl = mrc_ev_plane(slot->ev);

	if (pl >= MRC_MAX_PLANES)
		return true;
	return now - slot->sent_ns >=
	       (u64)qp->req.plane_rtt_us[pl] * NSEC_PER_USEC;
}

/*
 * The SACK loss rules: which holes below the highest SACKed PSN are lost,
 * after SACK @h has been applied.  Each PSN from psn_una up to that highest
 * one goes through these rules, in this order:
 *
 * 1. Only a hole still owed is judged: not acknowledged, not a READ PSN
 *    (its one request is marked when it arrives), not fast-retransmitted
 *    already (the timer clears that mark), not waiting out an RNR NACK
 *    (the retransmit timer resends those).
 * 2. Only a hole @h says is missing (cum_psn, or a clear bit of its
 *    bitmap): a SACK reporting far past cum_psn says nothing of the PSNs
 *    between, which earlier SACKs on other paths, maybe still on their
 *    way, did.  Except a hole marked REO_WAIT by rule 5: once the bitmaps
 *    have moved past it none may report it again until the older holes are
 *    repaired, so every later SACK judges it.
 * 3. EV loss order: a later packet on the hole's own EV, from its own CPU,
 *    was acknowledged, beyond ev_margin (mrc_ev_lost()): one EV is one
 *    ordered path from each CPU's queue, so the hole is lost on that path.
 *    Rules 4 and 5 do not apply to it.
 * 4. Reorder distance: the hole is the reordering threshold
 *    (mrc_comp_reorder_thresh()) or more below the highest SACKed PSN of
 *    its own plane (planes differ in delay: a stalled plane's holes
 *    measured against the others' progress would strike its healthy
 *    paths), or MRC_REORDER_PLANES times that below the highest of all (a
 *    plane that went silent altogether has none of its own); and it left
 *    before that highest PSN of all: a packet (re)sent after it has had
 *    less time, on another path, and judging it would strike the healthy
 *    EV a resend went out on.  Otherwise it is not judged yet.
 * 5. Plane round trip: a hole found by distance is lost only once it has
 *    been out longer than the longest round trip its plane showed lately
 *    (plane_rtt_us), RACK's rule with the plane's slowest path as the
 *    reordering window; until then it is marked REO_WAIT (rule 2).
 * 6. The verdict: a hole of rule 3 retires its EV here, in this softirq
 *    (MRC_EV_WHY_LOST); one of rules 4 and 5 only makes its path suspect
 *    (MRC_EV_WHY_SUSPECT).  Either is resent at once, marked FAST_RTX and
 *    with the rule that sent it (EV_LOST or REORDER), which a later DUP|RTX
 *    answer widens (mrc_comp_reorder()).
 *
 * Return: false when the QP failed meanwhile (a resend found its WQE's
 * memory bad), true otherwise.
 */
static bool mrc_comp_losses(struct mrc_qp *qp, const struct mrc_hdrs *h,
			    struct sk_buff_head *out)
{
	struct mrc_req *req = &qp->req;
	u32 thresh, p;
	u64 high_ns, now;

	if (!req->have_high || !mrc_comp_in_flight(qp, req->psn_high))
		return true;
	high_ns = mrc_slot(qp, req->psn_high)->sent_ns;
	thresh = mrc_comp_reorder_thresh(qp);
	now = ktime_get_ns();
	for (p = req->psn_una; p != req->psn_high; p = mrc_psn_add(p, 1)) {
		struct mrc_tx_slot *slot = mrc_slot(qp, p);
		bool path_lost;

		/* 1. */
		if (slot->flags & (MRC_SLOT_ACKED | MRC_SLOT_READ |
				   MRC_SLOT_FAST_RTX | MRC_SLOT_RNR_WAIT))
			continue;
		/* 2. */
		if (!(slot->flags & MRC_SLOT_REO_WAIT) &&
		    !mrc_comp_sack_missing(h, p))
			continue;
		/* 3. */
		path_lost = mrc_ev_lost(qp, slot->ev, slot->ev_seq, slot->cpu);
		if (!path_lost) {
			/* 4. */
			if ((mrc_comp_plane_dist(qp, p, slot) < thresh &&
			     mrc_psn_fwd(req->psn_high, p) <
			     MRC_REORDER_PLANES * thresh) ||
			    slot->sent_ns > high_ns)
				continue;
			/* 5. */
			if (!mrc_comp_plane_overdue(qp, slot, now)) {
				slot->flags |= MRC_SLOT_REO_WAIT;
				continue;
			}
		}
		/* 6. */
		if (path_lost) {
			mrc_ev_retire(qp, slot->ev, MRC_EV_WHY_LOST);
			slot->flags |= MRC_SLOT_EV_LOST;
		} else {
			mrc_ev_suspect(qp, slot->ev, slot->ev_seq,
				       slot->sent_ns, MRC_EV_WHY_SUSPECT);
			slot->flags |= MRC_SLOT_REORDER;
		}
		slot->flags |= MRC_SLOT_FAST_RTX;
		/* On the plane the overdue copy took: where paths lag. */
		mrc_count(qp->mdev, mrc_ev_plane(slot->ev),
			  MRC_CNT_FAST_RETRANSMITS, 1);
		if (!mrc_req_resend(qp, p, out))
			return false;
	}
	return true;
}

/**
 * mrc_comp_sack_rcv() - the requester learns what the responder has
 * @qp: the QP, locked
 * @h: the SACK
 * @out: retransmissions and new packets the opened window allows
 *
 * Acknowledges what @h reports, feeds NSCC, the EV verdicts and the
 * reordering adaptation, completes finished WQEs, then applies the loss
 * rules (mrc_comp_losses()) and sends what the window allows.
 */
void mrc_comp_sack_rcv(struct mrc_qp *qp, const struct mrc_hdrs *h,
		       struct sk_buff_head *out)
{
	struct mrc_req *req = &qp->req;
	u32 cum = h->sack.cum_psn, p, i, bytes = 0, cuts, una = req->psn_una;
	u8 m = h->sack.flags & MRC_SACK_F_M_MASK;

	if (!mrc_comp_requester_active(qp))
		return;
	mrc_count(qp->mdev, qp->av.plane, MRC_CNT_SACK_RX, 1);
	/*
	 * A probe's answer echoes the PSN the probe carried, psn_una when it
	 * left: on a path slow enough to be probed, psn_una may have moved
	 * more than a ring on since.  Its cumulative PSN must still fit, and
	 * its token must be one of ours (a forged PROBE sent to the peer gets
	 * a genuine answer with the forger's token, which would bring a dead
	 * EV back or feed a false RTT).
	 */
	if (!mrc_comp_ack_fresh(qp, cum) ||
	    ((h->sack.flags & MRC_SACK_F_PROBE) ?
	     !mrc_req_token_ok(qp, h->sack.ref_ts, ktime_get_ns()) :
	     !mrc_comp_ack_fresh(qp, h->psn))) {
		mrc_count(qp->mdev, qp->av.plane, MRC_CNT_RX_ACK_REJECTED, 1);
		return;
	}

	if (mrc_psn_after(cum, req->psn_una)) {
		for (p = req->psn_una; p != cum; p = mrc_psn_add(p, 1)) {
			bytes += mrc_comp_ack(qp, p);
			if (!(mrc_slot(qp, p)->flags & MRC_SLOT_READ))
				mrc_comp_plane_high(qp, p);
		}
		/* cum - 1 */
		mrc_comp_raise_high(req, mrc_psn_add(cum, MRC_PSN_MASK));
	}
	for (i = 0; i < 64; i++) {
		if (!(h->sack.bitmap & BIT_ULL(i)))
			continue;
		p = mrc_psn_add(h->sack.sack_psn, i);
		if (!mrc_comp_in_flight(qp, p))
			continue;
		bytes += mrc_comp_ack(qp, p);
		/*
		 * A READ's PSNs are marked when its one request arrives:
		 * they measure no reordering of the packets before them.
		 */
		if (mrc_slot(qp, p)->flags & MRC_SLOT_READ)
			continue;
		mrc_comp_plane_high(qp, p);
		mrc_comp_raise_high(req, p);
	}
	req->window = clamp_t(u32, h->sack.window, 1, qp->send_cap);
	cuts = req->cc.decreases;
	mrc_cc_ack(&req->cc, bytes, m == MRC_SACK_M_SKIP_ONCE,
		   mrc_comp_rtt_sample(qp, h));
	if (h->sack.penalty) {
		mrc_cc_penalty(&req->cc, bytes, h->sack.penalty);
		mrc_count(qp->mdev, qp->av.plane, MRC_CNT_CC_PENALTIES, 1);
	}
	if (req->cc.decreases != cuts)
		mrc_count(qp->mdev, qp->av.plane, MRC_CNT_CC_DECREASES, 1);
	if (h->sack.flags & MRC_SACK_F_PROBE)
		mrc_ev_probe_done(qp, h->sack.ref_ev, h->sack.ref_ts);
	mrc_ev_verdict(qp, h->sack.ref_ev, m, h->sack.flags & MRC_SACK_F_PROBE);
	mrc_comp_advance(qp);
	if (qp->state == IB_QPS_ERR)
		return;
	mrc_comp_reorder(qp, h, una);

	if (!mrc_comp_losses(qp, h, out))
		return;
	mrc_req_run(qp, out);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_comp_sack_rcv);

static enum ib_wc_status mrc_comp_nack_status(u8 reason)
{
	switch (reason) {
	case MRC_NACK_RKEY_VIOLATION:
	case MRC_NACK_ACCESS:
		return IB_WC_REM_ACCESS_ERR;
	case MRC_NACK_INVALID_REQUEST:
		return IB_WC_REM_INV_REQ_ERR;
	default:
		return IB_WC_REM_OP_ERR;
	}
}

/**
 * mrc_comp_nack_rcv() - the responder refused one packet
 * @qp: the QP, locked
 * @h: the NACK
 * @out: retransmissions
 */
void mrc_comp_nack_rcv(struct mrc_qp *qp, const struct mrc_hdrs *h,
		       struct sk_buff_head *out)
{
	struct mrc_req *req = &qp->req;
	struct mrc_tx_slot *slot;
	struct mrc_send_ctx *ctx;

	if (!mrc_comp_requester_active(qp))
		return;
	mrc_count(qp->mdev, qp->av.plane, MRC_CNT_NACK_RX, 1);
	/* Late, for a PSN acknowledged since: nothing to do. */
	if (!mrc_comp_in_flight(qp, h->psn))
		return;
	if (!mrc_comp_ack_fresh(qp, h->nack.cum_psn)) {
		mrc_count(qp->mdev, qp->av.plane, MRC_CNT_RX_ACK_REJECTED, 1);
		return;
	}
	slot = mrc_slot(qp, h->psn);
	ctx = mrc_sctx(qp, slot->wqe_idx);

	switch (h->nack.reason) {
	case MRC_NACK_PSN_OOR_WINDOW:
		/* Shrink to the responder's window; the timer resends. */
		req->window = clamp_t(u32, h->nack.info, 1, qp->send_cap);
		break;
	case MRC_NACK_RNR:
		/*
		 * Every packet the responder refused is NACKed; they make one
		 * wait, which counts once.  rnr_retry 7 means retry for ever,
		 * as in InfiniBand.
		 */
		if (!req->rnr_pending && qp->attr.rnr_retry != 7 &&
		    ++req->rnr_retries > qp->attr.rnr_retry) {
			ctx->status = IB_WC_RNR_RETRY_EXC_ERR;
			mrc_count(qp->mdev, qp->av.plane,
				  MRC_CNT_RNR_EXCEEDED, 1);
			mrc_qp_error(qp, MRC_QP_ERROR_RETRY_EXCEEDED);
			return;
		}
		req->rnr_pending = true;
		mrc_comp_rnr_mark(qp, h->psn);
		mrc_comp_arm(qp);
		break;
	case MRC_NACK_TRIMMED:
		/* Trimmed mid-fabric: that path is congested. */
		mrc_ev_skip(qp, h->nack.ref_ev);
		fallthrough;
	case MRC_NACK_TRIMMED_LASTHOP:
	case MRC_NACK_NO_RESOURCE:
		mrc_req_resend(qp, h->psn, out);
		break;
	default:
		ctx->status = mrc_comp_nack_status(h->nack.reason);
		mrc_qp_error(qp, ctx->status == IB_WC_REM_ACCESS_ERR ?
				 MRC_QP_ERROR_REMOTE_ACCESS :
				 MRC_QP_ERROR_REMOTE_OP);
		break;
	}
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_comp_nack_rcv);

/**
 * mrc_comp_read_resp_rcv() - place one READ response packet, or an atomic's
 * @qp: the QP, locked
 * @h: its headers
 * @payload: its payload, h->payload_len bytes
 * @out: packets the progress lets out
 *
 * Responses are placed at their own offset whatever their order; the PSN
 * slot records arrival, so duplicates are dropped.
 */
void mrc_comp_read_resp_rcv(struct mrc_qp *qp, const struct mrc_hdrs *h,
			    const void *payload, struct sk_buff_head *out)
{
	struct mrc_device *mdev = qp->mdev;
	struct mrc_tx_slot *slot;
	struct mrc_send_ctx *ctx;
	bool atomic, ack;
	u64 orig;

	if (!mrc_comp_requester_active(qp))
		return;
	if (!mrc_comp_in_flight(qp, h->psn)) {
		mrc_count(mdev, qp->av.plane, MRC_CNT_DUPLICATES, 1);
		return;
	}
	slot = mrc_slot(qp, h->psn);
	if (slot->flags & MRC_SLOT_ACKED) {
		mrc_count(mdev, qp->av.plane, MRC_CNT_DUPLICATES, 1);
		return;
	}
	/* An atomic's answer is an ATOMIC_ACK, a READ's never. */
	atomic = slot->flags & MRC_SLOT_ATOMIC;
	ack = h->opcode == MRC_OP_ATOMIC_ACK;
	if (!(slot->flags & MRC_SLOT_READ) || h->msn != slot->msn ||
	    h->payload_len != slot->len || atomic != ack) {
		mrc_count(mdev, qp->av.plane, MRC_CNT_RX_MALFORMED, 1);
		return;
	}
	ctx = mrc_sctx(qp, slot->wqe_idx);
	if (atomic) {
		/* The wire's big-endian original, as the 8 bytes held it. */
		orig = get_unaligned_be64(payload);
		payload = &orig;
		qp->req.atomics_out--;
	}
	if (mrc_sge_copy(mdev, qp->ibqp.pd, (const struct rxe_sge *)ctx->data,
			 ctx->num_sge, slot->offset, (void *)payload,
			 slot->len, MRC_TO_MR)) {
		ctx->status = IB_WC_LOC_PROT_ERR;
		mrc_qp_error(qp, MRC_QP_ERROR_LOCAL);
		return;
	}
	if (h->psn != qp->req.psn_una)
		mrc_count(mdev, qp->av.plane, MRC_CNT_OOO_PLACED, 1);
	mrc_count(mdev, qp->av.plane, MRC_CNT_RX_DATA, 1);
	mrc_comp_slot_done(qp, slot);
	qp->req.timeouts = 0;
	mrc_comp_advance(qp);
	mrc_req_run(qp, out);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_comp_read_resp_rcv);

/*
 * A READ PSN at psn_una whose chunk has had responses: its request got
 * through, and the loss was a response's, on the responder's path.
 */
static bool mrc_comp_read_answered(struct mrc_qp *qp, u32 psn)
{
	struct mrc_tx_slot *slot = mrc_slot(qp, psn);
	u32 i;

	if (!(slot->flags & MRC_SLOT_READ))
		return false;
	if (!(slot->flags & MRC_SLOT_READ_FIRST))
		return true;
	for (i = 1; i < slot->chunk_left; i++)
		if (mrc_slot(qp, mrc_psn_add(psn, i))->flags & MRC_SLOT_ACKED)
			return true;
	return false;
}

/**
 * mrc_comp_local() - complete what the requester executed itself
 * @qp: the QP, locked
 *
 * Memory-management WRs are done when the requester reaches them, or (a
 * LOCAL_INV, a bind that replaced one) after a grace period that
 * @qp->inv_timer polls for.
 */
void mrc_comp_local(struct mrc_qp *qp)
{
	mrc_comp_wqes(qp);
}

/**
 * mrc_comp_inv_timer() - complete a WR whose grace period is over
 * @t: the QP's inv_timer
 *
 * and start what a fenced WR behind it waited for.
 */
void mrc_comp_inv_timer(struct timer_list *t)
{
	struct mrc_qp *qp = from_timer(qp, t, inv_timer);
	struct sk_buff_head out;

	__skb_queue_head_init(&out);
	spin_lock_bh(&qp->lock);
	if (!qp->dead && mrc_comp_requester_active(qp)) {
		mrc_comp_wqes(qp);
		mrc_req_run(qp, &out);
	}
	spin_unlock_bh(&qp->lock);
	mrc_net_xmit(qp, &out);
}

/*
 * The retransmit timer: fires when the oldest PSN has waited a full timeout.
 * Every PSN that has waited that long goes again; each firing without
 * progress in between counts against retry_cnt, then MRC's exponential
 * retries, and exhausting them fails the QP with IB_WC_RETRY_EXC_ERR.
 */
void mrc_comp_timer(struct timer_list *t)
{
	struct mrc_qp *qp = from_timer(qp, t, rtx_timer);
	struct mrc_req *req = &qp->req;
	struct sk_buff_head out;
	u64 now, rto_ns;
	u32 p, n;

	__skb_queue_head_init(&out);
	spin_lock_bh(&qp->lock);
	if (qp->dead || !mrc_comp_requester_active(qp) ||
	    req->psn_una == req->psn_next)
		goto unlock;

	now = ktime_get_ns();
	rto_ns = mrc_comp_rto_us(qp) * NSEC_PER_USEC;
	if (now - mrc_slot(qp, req->psn_una)->sent_ns < rto_ns &&
	    !(mrc_slot(qp, req->psn_una)->flags & MRC_SLOT_RNR_WAIT)) {
		/* Resent lately (fast retransmit): not a timeout yet. */
		mrc_comp_arm(qp);
		goto unlock;
	}

	req->rnr_pending = false;
	/* Waiting out an RNR NACK is not a timeout: rnr_retry counts it. */
	if (!(mrc_slot(qp, req->psn_una)->flags & MRC_SLOT_RNR_WAIT)) {
		mrc_count(qp->mdev, qp->av.plane, MRC_CNT_TIMEOUTS, 1);
		req->timeouts++;
	}
	if (qp->retry_exp != MRC_RETRY_EXP_INFINITE &&
	    req->timeouts > qp->attr.retry_cnt + qp->retry_exp) {
		struct mrc_tx_slot *slot = mrc_slot(qp, req->psn_una);

		mrc_sctx(qp, slot->wqe_idx)->status = IB_WC_RETRY_EXC_ERR;
		mrc_count(qp->mdev, qp->av.plane, MRC_CNT_RETRY_EXCEEDED, 1);
		mrc_qp_error(qp, MRC_QP_ERROR_RETRY_EXCEEDED);
		goto unlock;
	}

	/*
	 * Resend the oldest few overdue PSNs, not the whole window: a burst
	 * that size would overrun the plane's queue and lose more.  Later
	 * SACKs may fast-retransmit the rest once again.
	 */
	for (p = req->psn_una, n = 0; p != req->psn_next;) {
		struct mrc_tx_slot *slot = mrc_slot(qp, p);

		if (slot->flags & MRC_SLOT_ACKED) {
			p = mrc_psn_add(p, 1);
			continue;
		}
		if (n < MRC_RTO_BURST &&
		    ((slot->flags & MRC_SLOT_RNR_WAIT) ||
		     now - slot->sent_ns >= rto_ns)) {
			/*
			 * Silence for a whole timeout makes the oldest
			 * packet's path suspect, as distance does: a stalled
			 * host or a lost answer fires the QP's one timer too,
			 * and retiring on it alone spread retirements over
			 * healthy paths.  The others overdue with it are more
			 * likely victims of the same stall; SACKs judge them.
			 */
			if (!n && !(slot->flags & MRC_SLOT_RNR_WAIT) &&
			    !mrc_comp_read_answered(qp, p))
				mrc_ev_suspect(qp, slot->ev, slot->ev_seq,
					       slot->sent_ns,
					       MRC_EV_WHY_TIMEOUT);
			slot->flags &= ~MRC_SLOT_RNR_WAIT;
			n++;
			if (!mrc_req_resend(qp, p, &out))
				goto unlock;
			/* One READ request asks for the rest of its chunk. */
			if (slot->flags & MRC_SLOT_READ) {
				p = mrc_psn_add(p, slot->chunk_left);
				continue;
			}
		} else {
			slot->flags &= ~MRC_SLOT_FAST_RTX;
		}
		p = mrc_psn_add(p, 1);
	}
	mrc_comp_arm(qp);
unlock:
	spin_unlock_bh(&qp->lock);
	mrc_net_xmit(qp, &out);
}
