// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "mrc-rel": the requester of mrc/requester.c and the SACK
 * handling of mrc/completer.c.  WRITE WQEs are written into the QP's send
 * queue as a poster does, mrc_req_run() packetises them, and SACKs fed
 * back through mrc_comp_sack_rcv() must advance psn_una, complete WQEs in
 * SQ order, fast retransmit each hole once it lies MRC_REORDER_THRESH PSNs
 * below the highest SACKed PSN, and never acknowledge what was not sent.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "qp_fixture.h"

#define REMOTE_VA	0x5500000000ULL
#define REMOTE_RKEY	0x4321
#define SQ_PSN		5000

static u8 pat[TF_MR_LEN];

static int rel_init(struct kunit *test)
{
	struct tf *f;
	size_t i;
	int err;

	for (i = 0; i < sizeof(pat); i++)
		pat[i] = (i * 11 + 5) & 0x7f;
	err = tf_init(test);
	if (err)
		return err;
	f = test->priv;
	tf_mr_fill(f, 0, pat, sizeof(pat));
	tf_set_psn(f, 100, SQ_PSN);
	return 0;
}

/* The next packet must be WRITE data of MR bytes [@off, +@len). */
static void expect_write(struct tf *f, u8 op, u32 psn, u32 msn, u32 off,
			 u32 len, u32 msg_len, u8 flags)
{
	struct kunit *test = f->test;
	u8 payload[TF_MTU];
	struct mrc_hdrs h;

	tf_pop_payload(f, &h, payload, sizeof(payload));
	KUNIT_EXPECT_EQ(test, h.opcode, op);
	KUNIT_EXPECT_EQ(test, h.flags, MRC_BTH_F_TSETH | flags);
	KUNIT_EXPECT_EQ(test, h.dqpn, TF_DEST_QPN);
	KUNIT_EXPECT_EQ(test, h.psn, psn);
	KUNIT_EXPECT_EQ(test, h.msn, msn);
	KUNIT_EXPECT_EQ(test, h.va, REMOTE_VA + off);
	KUNIT_EXPECT_EQ(test, h.rkey, REMOTE_RKEY);
	KUNIT_EXPECT_EQ(test, h.dma_len, msg_len);
	KUNIT_ASSERT_EQ(test, h.payload_len, len);
	KUNIT_EXPECT_EQ(test, memcmp(payload, pat + off, len), 0);
}

static void sack(struct tf *f, u32 cum, u64 bitmap)
{
	tf_sack(f, cum, 0, cum, bitmap);
}

static void expect_cqe(struct tf *f, u64 wr_id, u32 byte_len)
{
	struct kunit *test = f->test;
	struct ib_wc wc;

	KUNIT_ASSERT_EQ(test, tf_poll(f, f->scq, &wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, wr_id);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, wc.byte_len, byte_len);
	KUNIT_EXPECT_PTR_EQ(test, wc.qp, &f->qp->ibqp);
}

static void expect_no_cqe(struct tf *f)
{
	struct ib_wc wc;

	KUNIT_EXPECT_EQ(f->test, tf_poll(f, f->scq, &wc, 1), 0);
}

static void rel_sack_completes_in_sq_order(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_req *req = &f->qp->req;

	tf_post_write(f, REMOTE_VA, REMOTE_RKEY, 10, 0, 2 * TF_MTU);
	tf_post_write(f, REMOTE_VA, REMOTE_RKEY, 11, 1024, 100);
	tf_post_write(f, REMOTE_VA, REMOTE_RKEY, 12, 2048, 300);
	tf_req_run(f);

	expect_write(f, MRC_OP_WRITE_FIRST, 5000, 0, 0, TF_MTU, 512, 0);
	expect_write(f, MRC_OP_WRITE_LAST, 5001, 0, TF_MTU, TF_MTU, 512,
		     MRC_BTH_F_ACK_REQ);
	expect_write(f, MRC_OP_WRITE_ONLY, 5002, 1, 1024, 100, 100,
		     MRC_BTH_F_ACK_REQ);
	expect_write(f, MRC_OP_WRITE_FIRST, 5003, 2, 2048, TF_MTU, 300, 0);
	expect_write(f, MRC_OP_WRITE_LAST, 5004, 2, 2048 + TF_MTU,
		     300 - TF_MTU, 300, MRC_BTH_F_ACK_REQ);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, req->psn_next, 5005);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_TX_DATA), 5);
	KUNIT_EXPECT_TRUE(test, timer_pending(&f->qp->rtx_timer));

	/* Only the second WQE's packet: it must wait for the first WQE. */
	sack(f, 5000, BIT_ULL(2));
	KUNIT_EXPECT_EQ(test, req->psn_una, 5000);
	expect_no_cqe(f);

	/* The first WQE's PSNs: both complete, in order; una skips 5002. */
	sack(f, 5002, 0);
	KUNIT_EXPECT_EQ(test, req->psn_una, 5003);
	expect_cqe(f, 10, 512);
	expect_cqe(f, 11, 100);
	expect_no_cqe(f);
	KUNIT_EXPECT_EQ(test, f->qp->sq.index, 2);

	/* The third WQE's last packet alone completes nothing. */
	sack(f, 5003, BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, req->psn_una, 5003);
	expect_no_cqe(f);

	sack(f, 5005, 0);
	KUNIT_EXPECT_EQ(test, req->psn_una, 5005);
	expect_cqe(f, 12, 300);
	expect_no_cqe(f);
	KUNIT_EXPECT_EQ(test, f->qp->sq.index, 3);
	KUNIT_EXPECT_FALSE(test, timer_pending(&f->qp->rtx_timer));

	/* Nothing was lost: nothing went out again. */
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RETRANSMITS), 0);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_SACK_RX), 4);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_MALFORMED), 0);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
}

static void rel_fast_retransmit_once(struct kunit *test)
{
	const u32 n = 40, len = n * TF_MTU;
	struct tf *f = test->priv;
	struct mrc_hdrs h;

	tf_post_write(f, REMOTE_VA, REMOTE_RKEY, 20, 0, len);
	tf_req_run(f);
	KUNIT_ASSERT_EQ(test, tf_pop_all(f, &h), n);
	KUNIT_EXPECT_EQ(test, h.psn, 5000 + n - 1);

	/* 5000 missing, the highest SACKed 31 above it: not yet lost. */
	sack(f, 5000, GENMASK_ULL(31, 1) & ~BIT_ULL(3));
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 0);

	/*
	 * 32 above it: 5000 goes again, once, marked.  5003 is missing too
	 * but only 29 below: it stays.
	 */
	sack(f, 5000, GENMASK_ULL(32, 1) & ~BIT_ULL(3));
	expect_write(f, MRC_OP_WRITE_FIRST, 5000, 0, 0, TF_MTU, len,
		     MRC_BTH_F_RTX);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 1);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RETRANSMITS), 1);

	/* The same news again: no second fast retransmit of 5000. */
	sack(f, 5000, GENMASK_ULL(32, 1) & ~BIT_ULL(3));
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 1);

	/* The highest SACKed PSN 5036 puts 5003 33 below it: only 5003. */
	sack(f, 5000, GENMASK_ULL(36, 33));
	expect_write(f, MRC_OP_WRITE_MIDDLE, 5003, 0, 3 * TF_MTU, TF_MTU, len,
		     MRC_BTH_F_RTX);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 2);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RETRANSMITS), 2);
	KUNIT_EXPECT_EQ(test, f->qp->req.psn_una, 5000);
	expect_no_cqe(f);

	sack(f, 5000 + n, 0);
	KUNIT_EXPECT_EQ(test, f->qp->req.psn_una, 5000 + n);
	expect_cqe(f, 20, len);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 2);
}

/*
 * A resend went out after every packet SACKed above it: however far below
 * the highest SACKed PSN it lies, distance cannot call it lost.  The QP's
 * timer clears the fast-retransmit mark of packets not yet overdue; the
 * resend must then still wait for its own EV's news or its timeout.
 */
static void rel_resend_not_judged_by_older_packets(struct kunit *test)
{
	const u32 n = 40, len = n * TF_MTU;
	struct tf *f = test->priv;
	struct mrc_hdrs h;

	tf_post_write(f, REMOTE_VA, REMOTE_RKEY, 21, 0, len);
	tf_req_run(f);
	KUNIT_ASSERT_EQ(test, tf_pop_all(f, &h), n);
	sack(f, 5000, GENMASK_ULL(32, 1));
	expect_write(f, MRC_OP_WRITE_FIRST, 5000, 0, 0, TF_MTU, len,
		     MRC_BTH_F_RTX);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 1);

	/* What the timer does to a resend that is not overdue yet. */
	mrc_slot(f->qp, 5000)->flags &= ~MRC_SLOT_FAST_RTX;
	sack(f, 5000, GENMASK_ULL(39, 1));
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 1);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_EV_ASSUMED_BAD), 0);

	sack(f, 5000 + n, 0);
	expect_cqe(f, 21, len);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
}

/*
 * A SACK whose bitmap starts far past cum_psn (the responder reports a
 * packet more than 63 past it with the 63 before it) acknowledges what it
 * shows and judges by distance only the PSNs it says are missing: cum_psn
 * and the clear bits.  The PSNs between say nothing: earlier SACKs did.
 */
static void rel_far_sack_judges_its_snapshot(struct kunit *test)
{
	const u32 n = 60, len = n * TF_MTU;
	struct tf *f = test->priv;
	struct mrc_hdrs h;

	tf_post_write(f, REMOTE_VA, REMOTE_RKEY, 30, 0, len);
	tf_post_write(f, REMOTE_VA, REMOTE_RKEY, 31, 0, len);
	tf_req_run(f);
	KUNIT_ASSERT_EQ(test, tf_pop_all(f, &h), 2 * n);
	KUNIT_EXPECT_EQ(test, h.psn, 5000 + 2 * n - 1);

	/* 5056..5119 but 5060: 5000 and 5060 go again, nothing between. */
	h = (struct mrc_hdrs) {
		.opcode = MRC_OP_SACK,
		.dqpn = f->qp->ibqp.qp_num,
		.psn = 5119,
		.sack = {
			.cum_psn = 5000,
			.sack_psn = 5056,
			.bitmap = ~BIT_ULL(4),
			.window = MRC_WINDOW_DEFAULT,
		},
	};
	tf_sack_rcv(f, &h);
	expect_write(f, MRC_OP_WRITE_FIRST, 5000, 0, 0, TF_MTU, len,
		     MRC_BTH_F_RTX);
	expect_write(f, MRC_OP_WRITE_FIRST, 5060, 1, 0, TF_MTU, len,
		     MRC_BTH_F_RTX);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 2);
	KUNIT_EXPECT_TRUE(test, mrc_slot(f->qp, 5119)->flags & MRC_SLOT_ACKED);
	KUNIT_EXPECT_FALSE(test, mrc_slot(f->qp, 5055)->flags & MRC_SLOT_ACKED);

	/* From cum_psn again, 5020 missing: judged against 5119. */
	sack(f, 5000, GENMASK_ULL(55, 1) & ~BIT_ULL(20));
	expect_write(f, MRC_OP_WRITE_MIDDLE, 5020, 0, 20 * TF_MTU, TF_MTU, len,
		     MRC_BTH_F_RTX);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 3);
	KUNIT_EXPECT_EQ(test, f->qp->req.psn_una, 5000);

	sack(f, 5000 + 2 * n, 0);
	expect_cqe(f, 30, len);
	expect_cqe(f, 31, len);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
}

/* The peer's answer to a retransmission of a PSN it already had. */
static void sack_dup(struct tf *f, u32 cum, u64 bitmap, u32 psn)
{
	tf_sack(f, psn, MRC_SACK_F_DUP | MRC_SACK_F_RTX, cum, bitmap);
}

/*
 * A retransmission on distance alone that the peer did not need widens the
 * reordering threshold by half its start value, once per flight: the same
 * hole 32 below the highest SACKed PSN is then no longer resent, one 48
 * below is, and news of the same flight widens it no further.
 */
static void rel_spurious_retransmit_widens_reordering(struct kunit *test)
{
	const u32 n = 60, len = n * TF_MTU;
	struct tf *f = test->priv;
	struct mrc_req *req = &f->qp->req;
	struct mrc_hdrs h;
	u32 i;

	tf_post_write(f, REMOTE_VA, REMOTE_RKEY, 21, 0, len);
	tf_req_run(f);
	KUNIT_ASSERT_EQ(test, tf_pop_all(f, &h), n);
	KUNIT_EXPECT_EQ(test, req->reo_thresh, MRC_REORDER_THRESH);

	/* 5000 looks lost at distance 32 (5001, at 31, not yet)... */
	sack(f, 5000, GENMASK_ULL(32, 2));
	expect_write(f, MRC_OP_WRITE_FIRST, 5000, 0, 0, TF_MTU, len,
		     MRC_BTH_F_RTX);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	/* ...but the peer had it: the original was only late. */
	sack_dup(f, 5001, GENMASK_ULL(31, 1), 5000);
	KUNIT_EXPECT_EQ(test, req->psn_una, 5001);
	KUNIT_EXPECT_EQ(test, req->reo_thresh, MRC_REORDER_THRESH * 3 / 2);

	/* 5001 missing, the highest SACKed 32 above it: not lost any more. */
	sack(f, 5001, GENMASK_ULL(32, 1));
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 1);
	/* 48 above it: lost now. */
	sack(f, 5001, GENMASK_ULL(48, 1));
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 2);
	expect_write(f, MRC_OP_WRITE_MIDDLE, 5001, 0, TF_MTU, TF_MTU, len,
		     MRC_BTH_F_RTX);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);

	/* 5001 was sent before the threshold grew: no second step. */
	sack_dup(f, 5001, GENMASK_ULL(48, 1), 5001);
	KUNIT_EXPECT_EQ(test, req->reo_thresh, MRC_REORDER_THRESH * 3 / 2);
	/* Nor do repeated answers for one PSN, nor ones for PSNs never resent. */
	for (i = 0; i < 4; i++) {
		sack_dup(f, 5001, GENMASK_ULL(48, 1), 5000);
		sack_dup(f, 5001, GENMASK_ULL(48, 1), 5010);
	}
	KUNIT_EXPECT_EQ(test, req->reo_thresh, MRC_REORDER_THRESH * 3 / 2);
	KUNIT_EXPECT_EQ(test, req->psn_una, 5001);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
}

static void rel_sack_beyond_psn_next_ignored(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_req *req = &f->qp->req;
	struct mrc_hdrs h;

	/* Across the wrap: the one packet is PSN 0xffffff. */
	tf_set_psn(f, 100, 0xffffff);
	tf_post_write(f, REMOTE_VA, REMOTE_RKEY, 30, 0, 64);
	tf_req_run(f);
	tf_pop(f, &h);
	KUNIT_EXPECT_EQ(test, h.psn, 0xffffff);
	KUNIT_EXPECT_EQ(test, req->psn_next, 0);

	/* Acknowledges PSN 0, never sent: dropped whole. */
	sack(f, 1, 0);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_ACK_REJECTED), 1);
	KUNIT_EXPECT_EQ(test, req->psn_una, 0xffffff);
	expect_no_cqe(f);

	/* Bitmap bits past psn_next acknowledge nothing either. */
	sack(f, 0xffffff, GENMASK_ULL(63, 1));
	KUNIT_EXPECT_EQ(test, req->psn_una, 0xffffff);
	expect_no_cqe(f);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);

	/* Exactly psn_next is the whole of what was sent. */
	sack(f, 0, 0);
	KUNIT_EXPECT_EQ(test, req->psn_una, 0);
	expect_cqe(f, 30, 64);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_ACK_REJECTED), 1);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_MALFORMED), 0);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_SACK_RX), 3);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
}

/*
 * A SACK from before what the ring remembers, or answering a PSN never
 * sent, is not the peer's SACK of this flight: it must not cut the send
 * window, feed NSCC or judge an EV.  One overtaken inside the range is
 * the peer's and harmless.  Likewise a NACK whose cumulative PSN is out
 * of the range cannot fail the QP.
 */
static void rel_stale_or_forged_ack_changes_nothing(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_req *req = &f->qp->req;
	u32 ring = req->ring_size, win, cwnd;
	struct mrc_hdrs junk, h = {
		.opcode = MRC_OP_SACK,
		.dqpn = f->qp->ibqp.qp_num,
		.sack = { .window = 1, .penalty = MRC_SACK_PENALTY_MAX,
			  .flags = MRC_SACK_M_SKIP_ONCE },
	};
	struct mrc_hdrs n = {
		.opcode = MRC_OP_NACK,
		.dqpn = f->qp->ibqp.qp_num,
		.psn = SQ_PSN + 1,
		.nack = { .reason = MRC_NACK_ACCESS },
	};

	tf_post_write(f, REMOTE_VA, REMOTE_RKEY, 40, 0, 4 * TF_MTU);
	tf_req_run(f);
	tf_pop_all(f, &junk);
	sack(f, SQ_PSN + 1, 0);
	KUNIT_ASSERT_EQ(test, req->psn_una, SQ_PSN + 1);
	win = req->window;
	cwnd = req->cc.cwnd;

	/* Stale: cum before psn_una - ring_size. */
	h.psn = SQ_PSN + 1;
	h.sack.cum_psn = SQ_PSN - ring;
	h.sack.sack_psn = h.sack.cum_psn;
	tf_sack_rcv(f, &h);
	/* Forged: cum in range, but answering a PSN never sent. */
	h.sack.cum_psn = SQ_PSN + 1;
	h.sack.sack_psn = h.sack.cum_psn;
	h.psn = SQ_PSN + 4 + 1;
	tf_sack_rcv(f, &h);
	h.psn = SQ_PSN - ring;
	tf_sack_rcv(f, &h);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_ACK_REJECTED), 3);
	KUNIT_EXPECT_EQ(test, req->window, win);
	KUNIT_EXPECT_EQ(test, req->cc.cwnd, cwnd);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_CC_PENALTIES), 0);
	KUNIT_EXPECT_EQ(test, req->psn_una, SQ_PSN + 1);

	/* A fatal NACK of an in-flight PSN, cum out of range: ignored. */
	n.nack.cum_psn = SQ_PSN + 4 + 1;
	spin_lock_bh(&f->qp->lock);
	mrc_comp_nack_rcv(f->qp, &n, &f->out);
	spin_unlock_bh(&f->qp->lock);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_ACK_REJECTED), 4);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);

	/*
	 * A probe's answer echoes the probe's PSN, psn_una when it left: on a
	 * slow path that may be more than a ring behind.  Only its cumulative
	 * PSN must fit.
	 */
	h.psn = SQ_PSN - 2 * ring;
	h.sack.cum_psn = SQ_PSN + 1;
	h.sack.sack_psn = h.sack.cum_psn;
	h.sack.flags = MRC_SACK_F_PROBE;
	h.sack.ref_ts = mrc_req_stamp(f->qp, ktime_get_ns());
	h.sack.window = MRC_WINDOW_DEFAULT;
	h.sack.penalty = 0;
	tf_sack_rcv(f, &h);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_ACK_REJECTED), 4);

	/* Overtaken, inside the range: the peer's, and it acks nothing new. */
	h.psn = SQ_PSN;
	h.sack.cum_psn = SQ_PSN;
	h.sack.sack_psn = h.sack.cum_psn;
	h.sack.window = MRC_WINDOW_DEFAULT;
	h.sack.penalty = 0;
	h.sack.flags = 0;
	tf_sack_rcv(f, &h);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_ACK_REJECTED), 4);
	KUNIT_EXPECT_EQ(test, req->psn_una, SQ_PSN + 1);
	tf_pop_all(f, &junk);
}

/*
 * A WRITE whose remote range wraps 2^64 is the poster's error: the QP
 * fails with a local QP operation error before a packet is built (the
 * wire rules refuse such a range, and building it would WARN).
 */
static void rel_wrapping_remote_range_is_local_error(struct kunit *test)
{
	struct tf *f = test->priv;
	struct ib_wc wc;

	tf_post_write(f, U64_MAX - 100, REMOTE_RKEY, 77, 0, 256);
	tf_req_run(f);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
	KUNIT_ASSERT_EQ(test, tf_poll(f, f->scq, &wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 77ULL);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_LOC_QP_OP_ERR);
}

/*
 * A retransmit timeout doubled past 2^32 us (71 minutes) is armed whole,
 * not cut to its low 32 bits: 2000 s doubled four times is 32000 s.
 */
static void rel_long_rto_not_truncated(struct kunit *test)
{
	struct tf *f = test->priv;
	unsigned long left;

	f->qp->rto_us = 2000U * USEC_PER_SEC;
	f->qp->attr.retry_cnt = 0;
	f->qp->req.timeouts = 4;
	tf_post_write(f, REMOTE_VA, REMOTE_RKEY, 1, 0, 64);
	tf_req_run(f);
	KUNIT_ASSERT_TRUE(test, timer_pending(&f->qp->rtx_timer));
	left = f->qp->rtx_timer.expires - jiffies;
	KUNIT_EXPECT_GE(test, left, 31999UL * HZ);
	KUNIT_EXPECT_LE(test, left, 32000UL * HZ + 1);
}

/*
 * The SQ's producer index moved back behind WQEs the requester took: the
 * poster's error, the QP fails; the taken WQEs still complete (flushed),
 * the ones the index no longer covers too.
 */
static void rel_producer_moved_back_fails_qp(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_queue *sq = &f->qp->sq;
	struct mrc_hdrs h;
	struct ib_wc wc[4];
	int i;

	for (i = 0; i < 3; i++)
		tf_post_write(f, REMOTE_VA, REMOTE_RKEY, 10 + i, 0, 64);
	tf_req_run(f);
	KUNIT_EXPECT_EQ(test, tf_pop_all(f, &h), 3U);
	/* as a poster would publish it (mrc_queue_load_producer()) */
	smp_store_release(&sq->buf->producer_index,
			  (sq->buf->producer_index - 2) & sq->index_mask);
	tf_req_run(f);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
	KUNIT_ASSERT_EQ(test, tf_poll(f, f->scq, wc, 4), 3);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, wc[i].wr_id, 10ULL + i);
		KUNIT_EXPECT_EQ(test, wc[i].status, IB_WC_WR_FLUSH_ERR);
	}
}

/*
 * A completion its CQ has no room for is lost, and the QP that had to
 * post it fails (the IBA's CQ overrun); the CQ takes nothing more.
 */
static void rel_cq_overrun_fails_qp(struct kunit *test)
{
	struct tf *f = test->priv;
	struct ib_wc wc = { .wr_id = 1, .qp = &f->qp->ibqp };
	struct mrc_hdrs h;
	int i;

	for (i = 0; i < f->scq->ibcq.cqe; i++)
		KUNIT_ASSERT_EQ(test, mrc_cq_post(f->scq, &wc, false), 0);
	tf_post_write(f, REMOTE_VA, REMOTE_RKEY, 9, 0, 64);
	tf_req_run(f);
	KUNIT_EXPECT_EQ(test, tf_pop_all(f, &h), 1U);
	sack(f, 5001, 0);
	KUNIT_EXPECT_TRUE(test, f->scq->overflowed);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_QP_ERRORS), 1);
	KUNIT_EXPECT_EQ(test, mrc_cq_post(f->scq, &wc, false), -EOVERFLOW);
}

/*
 * The receiver penalty: nothing up to a half-full backlog, then linear to
 * the maximum at full (and past it, where netif_rx() drops).
 */
static void rel_penalty_from_backlog(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mrc_resp_penalty(0, 1000), 0);
	KUNIT_EXPECT_EQ(test, mrc_resp_penalty(500, 1000), 0);
	KUNIT_EXPECT_EQ(test, mrc_resp_penalty(501, 1000), 0);
	KUNIT_EXPECT_EQ(test, mrc_resp_penalty(504, 1000), 1);
	KUNIT_EXPECT_EQ(test, mrc_resp_penalty(750, 1000), 64);
	KUNIT_EXPECT_EQ(test, mrc_resp_penalty(1000, 1000), MRC_SACK_PENALTY_MAX);
	KUNIT_EXPECT_EQ(test, mrc_resp_penalty(1001, 1000), MRC_SACK_PENALTY_MAX);
	KUNIT_EXPECT_EQ(test, mrc_resp_penalty(U32_MAX, 1000),
			MRC_SACK_PENALTY_MAX);
	KUNIT_EXPECT_EQ(test, mrc_resp_penalty(10, 0), 0);
}

/* A SACK carrying a penalty shrinks the window and is counted. */
static void rel_sack_penalty_shrinks_window(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_cc *cc = &f->qp->req.cc;
	struct mrc_hdrs h = {
		.opcode = MRC_OP_SACK,
		.dqpn = f->qp->ibqp.qp_num,
		.psn = SQ_PSN,
		.sack = { .cum_psn = SQ_PSN + 2, .sack_psn = SQ_PSN + 2,
			  .window = MRC_WINDOW_DEFAULT,
			  .penalty = MRC_SACK_PENALTY_MAX },
	};
	u32 before;

	tf_post_write(f, REMOTE_VA, REMOTE_RKEY, 10, 0, 4 * TF_MTU);
	tf_req_run(f);
	cc->cwnd = 100 * TF_MTU;
	before = cc->cwnd;
	tf_sack_rcv(f, &h);
	KUNIT_EXPECT_EQ(test, f->qp->req.psn_una, SQ_PSN + 2);
	KUNIT_EXPECT_LT(test, cc->cwnd, before);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_CC_PENALTIES), 1);

	/* Without one, the same kind of SACK lets the window grow. */
	before = cc->cwnd;
	sack(f, SQ_PSN + 4, 0);
	KUNIT_EXPECT_GE(test, cc->cwnd, before);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_CC_PENALTIES), 1);
}

/*
 * PSNs SACKed past a hole make room in NSCC's window: the hole holds one
 * packet's worth of it, not the whole window.  The peer's window of PSNs
 * still bounds how far past psn_una the requester goes.
 */
static void rel_sacked_past_hole_make_room(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_req *req = &f->qp->req;
	struct mrc_hdrs h;

	/* A window of four packets that acknowledgements cannot open. */
	req->cc.cwnd = 4 * TF_MTU;
	req->cc.min_cwnd = req->cc.cwnd;
	req->cc.max_cwnd = req->cc.cwnd;
	/* The peer takes two PSNs for now: two go, not four. */
	req->window = 2;
	tf_post_write(f, REMOTE_VA, REMOTE_RKEY, 30, 0, 12 * TF_MTU);
	tf_req_run(f);
	KUNIT_ASSERT_EQ(test, tf_pop_all(f, &h), 2);
	KUNIT_EXPECT_EQ(test, h.psn, 5001);

	/* 5001 arrived, 5000 not, the peer's window back: three more go. */
	sack(f, 5000, BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, req->psn_una, 5000);
	KUNIT_ASSERT_EQ(test, tf_pop_all(f, &h), 3);
	KUNIT_EXPECT_EQ(test, h.psn, 5004);
	KUNIT_EXPECT_EQ(test, mrc_req_pipe(f->qp), 4);

	/* 5002-5004 too: three more, past the hole that still counts. */
	sack(f, 5000, GENMASK_ULL(4, 1));
	KUNIT_EXPECT_EQ(test, req->sacked, 4);
	KUNIT_ASSERT_EQ(test, tf_pop_all(f, &h), 3);
	KUNIT_EXPECT_EQ(test, h.psn, 5007);
	KUNIT_EXPECT_EQ(test, mrc_req_pipe(f->qp), 4);

	/* The hole filled, and the rest: psn_una past every SACKed PSN. */
	sack(f, 5008, 0);
	KUNIT_EXPECT_EQ(test, req->psn_una, 5008);
	KUNIT_EXPECT_EQ(test, req->sacked, 0);
	KUNIT_EXPECT_EQ(test, tf_pop_all(f, &h), 4);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RETRANSMITS), 0);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
}

static struct kunit_case mrc_comp_cases[] = {
	KUNIT_CASE(rel_sack_completes_in_sq_order),
	KUNIT_CASE(rel_fast_retransmit_once),
	KUNIT_CASE(rel_resend_not_judged_by_older_packets),
	KUNIT_CASE(rel_far_sack_judges_its_snapshot),
	KUNIT_CASE(rel_spurious_retransmit_widens_reordering),
	KUNIT_CASE(rel_sack_beyond_psn_next_ignored),
	KUNIT_CASE(rel_stale_or_forged_ack_changes_nothing),
	KUNIT_CASE(rel_wrapping_remote_range_is_local_error),
	KUNIT_CASE(rel_long_rto_not_truncated),
	KUNIT_CASE(rel_producer_moved_back_fails_qp),
	KUNIT_CASE(rel_cq_overrun_fails_qp),
	KUNIT_CASE(rel_penalty_from_backlog),
	KUNIT_CASE(rel_sack_penalty_shrinks_window),
	KUNIT_CASE(rel_sacked_past_hole_make_room),
	{}
};

static struct kunit_suite mrc_comp_suite = {
	.name = "mrc-rel",
	.init = rel_init,
	.exit = tf_exit,
	.test_cases = mrc_comp_cases,
};

kunit_test_suite(mrc_comp_suite);
