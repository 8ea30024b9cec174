// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: a QP that takes its receive WQEs from an SRQ (srq.c and the
 * responder's use of it).  Messages take WQEs as their first packets
 * arrive and complete in MSN order; an empty SRQ is RNR; the limit event
 * fires once; a QP that fails flushes the WQEs it took and no others.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "qp_fixture.h"

static u8 pat[1024];

static struct {
	int srq_limit;
	int last_wqe;
	int other;
} events;

static void srq_event(struct ib_event *ev, void *ctx)
{
	if (ev->event == IB_EVENT_SRQ_LIMIT_REACHED)
		events.srq_limit++;
	else if (ev->event == IB_EVENT_QP_LAST_WQE_REACHED)
		events.last_wqe++;
	else
		events.other++;
}

static int srq_init(struct kunit *test)
{
	struct tf *f;
	size_t i;
	int err;

	for (i = 0; i < sizeof(pat); i++)
		pat[i] = (i * 11 + 3) & 0x7f;
	memset(&events, 0, sizeof(events));
	err = tf_init_srq(test);
	if (err)
		return err;
	f = test->priv;
	f->srq->ibsrq.event_handler = srq_event;
	f->qp->ibqp.event_handler = srq_event;
	return 0;
}

/* A SEND packet of message @msn (receive-consuming message @msn too). */
static struct mrc_hdrs send_pkt(u8 op, u32 psn, u32 msn, u32 off, u32 len,
				u32 msg_len)
{
	return (struct mrc_hdrs) {
		.opcode = op,
		.dqpn = 0x10,
		.psn = psn,
		.ev = 0xbeef,
		.msn = msn,
		.rq_msn = msn,
		.va = off,
		.dma_len = msg_len,
		.payload_len = len,
	};
}

static void send_only(struct tf *f, u32 psn, u32 msn, u32 len)
{
	struct mrc_hdrs h = send_pkt(MRC_OP_SEND_ONLY, psn, msn, 0, len, len);

	tf_resp_rcv(f, &h, pat);
}

/* WQEs still in the SRQ. */
static u32 srq_left(struct tf *f)
{
	struct mrc_queue *q = &f->srq->rq;

	return mrc_queue_count(q, mrc_queue_load_producer(q), q->index);
}

static size_t mr_diff(struct tf *f, size_t off, const u8 *want, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += *tf_mr_byte(f, off + i) != want[i];
	return n;
}

static void srq_qp_has_no_rq(struct kunit *test)
{
	struct tf *f = test->priv;

	KUNIT_EXPECT_NULL(test, f->qp->rq.buf);
	KUNIT_EXPECT_EQ(test, tf_post_recv(f, 1, 0, 64), -EINVAL);
	KUNIT_EXPECT_EQ(test, f->srq->rq.index_mask, TF_SRQ_WR * 2 - 1);
	KUNIT_EXPECT_EQ(test, f->qp->resp.rctx_mask, TF_SRQ_WR * 2 - 1);
}

static void srq_post_limits(struct kunit *test)
{
	struct tf *f = test->priv;
	struct ib_sge sge[3] = {};
	struct ib_recv_wr wr = { .sg_list = sge, .num_sge = 3 };
	const struct ib_recv_wr *bad = NULL;
	u32 i;

	KUNIT_EXPECT_EQ(test, mrc_post_srq_recv(&f->srq->ibsrq, &wr, &bad),
			-EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, &wr);
	for (i = 0; i < f->srq->rq.index_mask; i++)
		KUNIT_ASSERT_EQ(test, tf_post_srq_recv(f, i, 0, 64), 0);
	KUNIT_EXPECT_EQ(test, tf_post_srq_recv(f, i, 0, 64), -ENOMEM);
	KUNIT_EXPECT_EQ(test, srq_left(f), f->srq->rq.index_mask);
}

/*
 * Message 1 arrives before message 0: it takes the WQE at the head, 0
 * the next one; they complete in MSN order, each with its own WQE.
 */
static void srq_wqes_taken_in_arrival_order(struct kunit *test)
{
	struct tf *f = test->priv;
	struct ib_wc wc[3];
	struct mrc_hdrs h;

	KUNIT_ASSERT_EQ(test, tf_post_srq_recv(f, 0xc0, 0, 512), 0);
	KUNIT_ASSERT_EQ(test, tf_post_srq_recv(f, 0xc1, 1024, 512), 0);

	h = send_pkt(MRC_OP_SEND_ONLY, 101, 1, 0, 40, 40);
	tf_resp_rcv(f, &h, pat + 100);
	KUNIT_EXPECT_EQ(test, srq_left(f), 1);
	KUNIT_EXPECT_EQ(test, tf_poll(f, f->rcq, wc, 1), 0);
	send_only(f, 100, 0, 300);
	KUNIT_EXPECT_EQ(test, srq_left(f), 0);

	KUNIT_ASSERT_EQ(test, tf_poll(f, f->rcq, wc, 3), 2);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 0xc1);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc[0].byte_len, 300);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, 0xc0);
	KUNIT_EXPECT_EQ(test, wc[1].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc[1].byte_len, 40);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 1024, pat, 300), 0);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 0, pat + 100, 40), 0);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 40, 1024), 0);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 1324, TF_NPAGES * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, f->qp->resp.rq_msn_done, 2);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
	tf_pop_all(f, &h);
}

/* A message's later packets use the WQE its first one took. */
static void srq_one_wqe_per_message(struct kunit *test)
{
	struct tf *f = test->priv;
	struct ib_wc wc[2];
	struct mrc_hdrs h;

	KUNIT_ASSERT_EQ(test, tf_post_srq_recv(f, 0xd0, 0, 600), 0);
	KUNIT_ASSERT_EQ(test, tf_post_srq_recv(f, 0xd1, 2048, 600), 0);
	h = send_pkt(MRC_OP_SEND_LAST, 101, 0, TF_MTU, 300 - TF_MTU, 300);
	tf_resp_rcv(f, &h, pat + TF_MTU);
	h = send_pkt(MRC_OP_SEND_FIRST, 100, 0, 0, TF_MTU, 300);
	tf_resp_rcv(f, &h, pat);
	KUNIT_EXPECT_EQ(test, srq_left(f), 1);
	KUNIT_ASSERT_EQ(test, tf_poll(f, f->rcq, wc, 2), 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 0xd0);
	KUNIT_EXPECT_EQ(test, wc[0].byte_len, 300);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 0, pat, 300), 0);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 300, TF_NPAGES * PAGE_SIZE), 0);
	tf_pop_all(f, &h);
}

static void srq_empty_is_rnr(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;
	struct ib_wc wc;

	send_only(f, 100, 0, 64);
	tf_pop(f, &h);
	KUNIT_EXPECT_EQ(test, h.opcode, MRC_OP_NACK);
	KUNIT_EXPECT_EQ(test, h.nack.reason, MRC_NACK_RNR);
	KUNIT_EXPECT_EQ(test, h.nack.cum_psn, 100);
	KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 100);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);

	KUNIT_ASSERT_EQ(test, tf_post_srq_recv(f, 0xe0, 512, 64), 0);
	send_only(f, 100, 0, 64);
	KUNIT_ASSERT_EQ(test, tf_poll(f, f->rcq, &wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 0xe0);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 512, pat, 64), 0);
	tf_pop_all(f, &h);
}

static void srq_limit_event_once(struct kunit *test)
{
	struct tf *f = test->priv;
	struct ib_srq_attr attr = { .srq_limit = 2 };
	struct ib_wc wc[4];
	struct mrc_hdrs h;
	u32 i;

	attr.srq_limit = TF_SRQ_WR * 2;
	KUNIT_EXPECT_EQ(test, mrc_modify_srq(&f->srq->ibsrq, &attr,
					     IB_SRQ_LIMIT, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, mrc_modify_srq(&f->srq->ibsrq, &attr,
					     IB_SRQ_MAX_WR, NULL), -EOPNOTSUPP);
	attr.srq_limit = 2;
	KUNIT_ASSERT_EQ(test, mrc_modify_srq(&f->srq->ibsrq, &attr,
					     IB_SRQ_LIMIT, NULL), 0);
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, tf_post_srq_recv(f, i, i * 64, 64), 0);

	send_only(f, 100, 0, 8);
	send_only(f, 101, 1, 8);
	KUNIT_EXPECT_EQ(test, events.srq_limit, 0);	/* 2 left */
	send_only(f, 102, 2, 8);
	KUNIT_EXPECT_EQ(test, events.srq_limit, 1);	/* 1 left */
	KUNIT_EXPECT_EQ(test, f->srq->limit, 0);
	send_only(f, 103, 3, 8);
	KUNIT_EXPECT_EQ(test, events.srq_limit, 1);	/* disarmed */
	KUNIT_EXPECT_EQ(test, events.other + events.last_wqe, 0);
	KUNIT_EXPECT_EQ(test, tf_poll(f, f->rcq, wc, 4), 4);
	tf_pop_all(f, &h);
}

/*
 * The QP fails with message 1 half arrived: the WQE it took completes
 * flushed, the WQEs left in the SRQ stay there for other QPs, and the
 * consumer hears that nothing more comes from this QP.
 */
static void srq_error_flushes_only_taken(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;
	struct ib_wc wc[3];

	KUNIT_ASSERT_EQ(test, tf_post_srq_recv(f, 0xf0, 0, 600), 0);
	KUNIT_ASSERT_EQ(test, tf_post_srq_recv(f, 0xf1, 1024, 600), 0);
	KUNIT_ASSERT_EQ(test, tf_post_srq_recv(f, 0xf2, 2048, 600), 0);
	h = send_pkt(MRC_OP_SEND_FIRST, 101, 1, 0, TF_MTU, 300);
	tf_resp_rcv(f, &h, pat);
	KUNIT_EXPECT_EQ(test, srq_left(f), 2);

	spin_lock_bh(&f->qp->lock);
	mrc_qp_error(f->qp, MRC_QP_ERROR_LOCAL);
	spin_unlock_bh(&f->qp->lock);
	KUNIT_ASSERT_EQ(test, tf_poll(f, f->rcq, wc, 3), 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 0xf0);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, srq_left(f), 2);
	KUNIT_EXPECT_EQ(test, events.last_wqe, 1);
	tf_pop_all(f, &h);
}

/* No room to keep a WQE for a message this far ahead: it waits. */
static void srq_far_ahead_waits(struct kunit *test)
{
	struct tf *f = test->priv;
	u32 far = f->qp->resp.rctx_mask + 1;
	struct mrc_hdrs h;
	struct ib_wc wc;

	KUNIT_ASSERT_EQ(test, tf_post_srq_recv(f, 0x90, 0, 64), 0);
	h = send_pkt(MRC_OP_SEND_ONLY, 101, 1, 0, 64, 64);
	h.rq_msn = far;
	tf_resp_rcv(f, &h, pat);
	KUNIT_EXPECT_EQ(test, srq_left(f), 1);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, TF_NPAGES * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, tf_poll(f, f->rcq, &wc, 1), 0);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
	tf_pop_all(f, &h);
}

/* A WQE no legitimate poster writes stays where it is; the QP fails. */
static void srq_malformed_wqe(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_queue *q = &f->srq->rq;
	struct rxe_recv_wqe *w;
	struct mrc_hdrs h;
	struct ib_wc wc;

	KUNIT_ASSERT_EQ(test, tf_post_srq_recv(f, 0x80, 0, 64), 0);
	w = mrc_queue_elem(q, q->index);
	w->dma.num_sge = f->srq->max_sge + 1;
	send_only(f, 100, 0, 64);
	KUNIT_EXPECT_EQ(test, srq_left(f), 1);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, TF_NPAGES * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, tf_poll(f, f->rcq, &wc, 1), 0);
	tf_pop_all(f, &h);
}

static struct kunit_case mrc_srq_cases[] = {
	KUNIT_CASE(srq_qp_has_no_rq),
	KUNIT_CASE(srq_post_limits),
	KUNIT_CASE(srq_wqes_taken_in_arrival_order),
	KUNIT_CASE(srq_one_wqe_per_message),
	KUNIT_CASE(srq_empty_is_rnr),
	KUNIT_CASE(srq_limit_event_once),
	KUNIT_CASE(srq_error_flushes_only_taken),
	KUNIT_CASE(srq_far_ahead_waits),
	KUNIT_CASE(srq_malformed_wqe),
	{}
};

static struct kunit_suite mrc_srq_suite = {
	.name = "mrc-srq",
	.init = srq_init,
	.exit = tf_exit,
	.test_cases = mrc_srq_cases,
};

kunit_test_suite(mrc_srq_suite);
