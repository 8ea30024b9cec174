// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "mrc-atomic": compare-and-swap and fetch-and-add end to end
 * on the fixture's QP (qp_fixture.c).  The responder side runs each atomic
 * once, in MSN order, and answers a repeat with the result it had; the
 * requester side builds the request from a librxe-layout WQE, limits what
 * is outstanding to max_rd_atomic and lands the original value in host
 * order.  Every case checks the 8 bytes in memory, the packets sent and
 * the QP's state.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include "../compat.h"

#include "qp_fixture.h"

/* Where the atomics land in the MR, and what is there first. */
#define AT_OFF		64
#define AT_INIT		0x1122334455667788ULL

static u64 *at_word(struct tf *f, size_t off)
{
	return (u64 *)tf_mr_byte(f, off);
}

static int at_init(struct kunit *test)
{
	struct tf *f;
	int err;

	err = tf_init(test);
	if (err)
		return err;
	f = test->priv;
	f->mr->access |= IB_ACCESS_REMOTE_ATOMIC;
	f->qp->attr.qp_access_flags |= IB_ACCESS_REMOTE_ATOMIC;
	f->qp->attr.max_dest_rd_atomic = 4;
	f->qp->attr.max_rd_atomic = 4;
	*at_word(f, AT_OFF) = AT_INIT;
	return 0;
}

/* An atomic request from the peer: @off is an offset in the MR. */
static struct mrc_hdrs at_req(u8 op, u32 psn, u32 msn, u64 off, u64 swap_add,
			      u64 compare)
{
	struct mrc_hdrs h = {
		.opcode = op,
		.dqpn = 0x10,
		.psn = psn,
		.ev = 0xbeef,
		.msn = msn,
		.va = TF_MR_IOVA + off,
		.rkey = TF_MR_KEY,
		.dma_len = MRC_ATOMIC_LEN,
		.swap_add = swap_add,
		.compare = op == MRC_OP_CMP_SWAP ? compare : 0,
	};

	return h;
}

/* The next packet is the ATOMIC_ACK of @psn and @msn, holding @orig. */
static void at_expect_ack(struct tf *f, u32 psn, u32 msn, u64 orig)
{
	struct kunit *test = f->test;
	struct mrc_hdrs a;
	u8 pay[MRC_ATOMIC_LEN];

	tf_pop_payload(f, &a, pay, sizeof(pay));
	KUNIT_EXPECT_EQ(test, a.opcode, MRC_OP_ATOMIC_ACK);
	KUNIT_EXPECT_EQ(test, a.dqpn, TF_DEST_QPN);
	KUNIT_EXPECT_EQ(test, a.psn, psn);
	KUNIT_EXPECT_EQ(test, a.msn, msn);
	KUNIT_EXPECT_EQ(test, a.payload_len, MRC_ATOMIC_LEN);
	KUNIT_EXPECT_EQ(test, get_unaligned_be64(pay), orig);
}

/* Every packet left is a SACK (the responder's coalescing may send some). */
static void at_expect_only_sacks(struct tf *f)
{
	struct mrc_hdrs h;

	while (!skb_queue_empty(&f->out)) {
		tf_pop(f, &h);
		KUNIT_EXPECT_EQ(f->test, h.opcode, MRC_OP_SACK);
	}
}

static void at_expect_nack(struct tf *f, u32 psn, u8 reason)
{
	struct mrc_hdrs n;

	tf_pop(f, &n);
	KUNIT_EXPECT_EQ(f->test, n.opcode, MRC_OP_NACK);
	KUNIT_EXPECT_EQ(f->test, n.psn, psn);
	KUNIT_EXPECT_EQ(f->test, n.nack.reason, reason);
	KUNIT_EXPECT_EQ(f->test, skb_queue_len(&f->out), 0U);
}

/* ---------------------------------------------------------------------
 * Responder
 */

/* Fetch-and-add runs once; its repeat gets the same original value. */
static void atomic_fetch_add_once(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h = at_req(MRC_OP_FETCH_ADD, 100, 0, AT_OFF, 5, 0);

	tf_resp_rcv(f, &h, NULL);
	at_expect_ack(f, 100, 0, AT_INIT);
	at_expect_only_sacks(f);
	KUNIT_EXPECT_EQ(test, *at_word(f, AT_OFF), AT_INIT + 5);

	/* The requester missed the answer and asks again, on another path. */
	h.flags |= MRC_BTH_F_RTX;
	h.ev = 0xbef0;
	tf_resp_rcv(f, &h, NULL);
	at_expect_ack(f, 100, 0, AT_INIT);
	at_expect_only_sacks(f);
	KUNIT_EXPECT_EQ(test, *at_word(f, AT_OFF), AT_INIT + 5);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_DUPLICATES), 1);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, TF_MR_LEN, TF_NPAGES * PAGE_SIZE),
			0);
}

/* Compare-and-swap swaps on a match only; both answer the original. */
static void atomic_cmp_swap(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;

	h = at_req(MRC_OP_CMP_SWAP, 100, 0, AT_OFF, 7, AT_INIT + 1);
	tf_resp_rcv(f, &h, NULL);
	at_expect_ack(f, 100, 0, AT_INIT);
	at_expect_only_sacks(f);
	KUNIT_EXPECT_EQ(test, *at_word(f, AT_OFF), AT_INIT);

	h = at_req(MRC_OP_CMP_SWAP, 101, 1, AT_OFF, 7, AT_INIT);
	tf_resp_rcv(f, &h, NULL);
	at_expect_ack(f, 101, 1, AT_INIT);
	at_expect_only_sacks(f);
	KUNIT_EXPECT_EQ(test, *at_word(f, AT_OFF), 7ULL);
}

/*
 * An atomic that overtakes a WRITE before it waits for it: it runs when its
 * turn comes, on the bytes the WRITE put there.  A repeat while it waits
 * gets nothing (the answer comes when it runs), and runs nothing.
 */
static void atomic_waits_for_earlier_requests(struct kunit *test)
{
	struct tf *f = test->priv;
	u64 written = 0x0102030405060708ULL;
	struct mrc_hdrs h, w = {
		.opcode = MRC_OP_WRITE_ONLY,
		.dqpn = 0x10,
		.psn = 100,
		.ev = 0xbeef,
		.msn = 0,
		.va = TF_MR_IOVA + AT_OFF,
		.rkey = TF_MR_KEY,
		.dma_len = sizeof(written),
		.payload_len = sizeof(written),
	};

	h = at_req(MRC_OP_FETCH_ADD, 101, 1, AT_OFF, 1, 0);
	tf_resp_rcv(f, &h, NULL);
	at_expect_only_sacks(f);
	tf_resp_rcv(f, &h, NULL);
	at_expect_only_sacks(f);
	KUNIT_EXPECT_EQ(test, *at_word(f, AT_OFF), AT_INIT);

	tf_resp_rcv(f, &w, &written);
	at_expect_ack(f, 101, 1, written);
	at_expect_only_sacks(f);
	KUNIT_EXPECT_EQ(test, *at_word(f, AT_OFF), written + 1);
	KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 102U);
}

/*
 * Refused atomics: fatal at cum_psn with the reason InfiniBand gives, and
 * dropped unrecorded ahead of it (a forger's guess cannot fail the QP).
 */
static void at_refused(struct kunit *test, struct mrc_hdrs *h, u8 reason)
{
	struct tf *f = test->priv;

	h->psn = 103;
	tf_resp_rcv(f, h, NULL);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_DEFERRED_NACKS), 1);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);

	h->psn = 100;
	tf_resp_rcv(f, h, NULL);
	at_expect_nack(f, 100, reason);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, *at_word(f, AT_OFF), AT_INIT);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, TF_MR_LEN, TF_NPAGES * PAGE_SIZE),
			0);
}

static void atomic_unaligned_refused(struct kunit *test)
{
	struct mrc_hdrs h = at_req(MRC_OP_FETCH_ADD, 0, 0, AT_OFF + 4, 1, 0);

	at_refused(test, &h, MRC_NACK_INVALID_REQUEST);
}

/* An aligned iova over memory that is not (a region at page offset 4). */
static void atomic_misaligned_memory_refused(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h = at_req(MRC_OP_FETCH_ADD, 0, 0, AT_OFF, 1, 0);

	f->mr->page_off = 4;
	at_refused(test, &h, MRC_NACK_INVALID_REQUEST);
}

static void atomic_without_resources_refused(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h = at_req(MRC_OP_CMP_SWAP, 0, 0, AT_OFF, 1, AT_INIT);

	f->qp->attr.max_dest_rd_atomic = 0;
	at_refused(test, &h, MRC_NACK_INVALID_REQUEST);
}

static void atomic_without_mr_right_refused(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h = at_req(MRC_OP_FETCH_ADD, 0, 0, AT_OFF, 1, 0);

	f->mr->access &= ~IB_ACCESS_REMOTE_ATOMIC;
	at_refused(test, &h, MRC_NACK_ACCESS);
}

static void atomic_without_qp_right_refused(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h = at_req(MRC_OP_FETCH_ADD, 0, 0, AT_OFF, 1, 0);

	f->qp->attr.qp_access_flags &= ~IB_ACCESS_REMOTE_ATOMIC;
	at_refused(test, &h, MRC_NACK_ACCESS);
}

static void atomic_past_mr_end_refused(struct kunit *test)
{
	struct mrc_hdrs h = at_req(MRC_OP_FETCH_ADD, 0, 0, TF_MR_LEN, 1, 0);

	at_refused(test, &h, MRC_NACK_ACCESS);
}

static void atomic_bad_rkey_refused(struct kunit *test)
{
	struct mrc_hdrs h = at_req(MRC_OP_FETCH_ADD, 0, 0, AT_OFF, 1, 0);

	h.rkey ^= 1;
	at_refused(test, &h, MRC_NACK_RKEY_VIOLATION);
}

/* A repeat that does not match the atomic that ran gets nothing. */
static void atomic_forged_repeat_ignored(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h = at_req(MRC_OP_FETCH_ADD, 100, 0, AT_OFF, 5, 0);
	struct mrc_hdrs g;

	tf_resp_rcv(f, &h, NULL);
	at_expect_ack(f, 100, 0, AT_INIT);
	at_expect_only_sacks(f);

	g = h;
	g.va += 8;
	tf_resp_rcv(f, &g, NULL);
	g = h;
	g.opcode = MRC_OP_CMP_SWAP;
	tf_resp_rcv(f, &g, NULL);
	g = h;
	g.msn = 1;
	tf_resp_rcv(f, &g, NULL);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, *at_word(f, AT_OFF), AT_INIT + 5);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
}

/* ---------------------------------------------------------------------
 * Requester
 */

/* An atomic WQE as librxe writes it; the result lands at MR offset @off. */
static void at_post(struct tf *f, u32 opcode, u64 remote_va, u64 compare_add,
		    u64 swap, u64 wr_id, u32 off)
{
	struct rxe_send_wqe *w = tf_sq_next(f);

	w->wr.wr_id = wr_id;
	w->wr.opcode = opcode;
	w->wr.send_flags = IB_SEND_SIGNALED;
	w->wr.wr.atomic.remote_addr = remote_va;
	w->wr.wr.atomic.compare_add = compare_add;
	w->wr.wr.atomic.swap = swap;
	w->wr.wr.atomic.rkey = 0x4242;
	w->dma.length = MRC_ATOMIC_LEN;
	w->dma.resid = MRC_ATOMIC_LEN;
	w->dma.num_sge = 1;
	w->dma.sge[0].addr = TF_MR_IOVA + off;
	w->dma.sge[0].length = MRC_ATOMIC_LEN;
	w->dma.sge[0].lkey = TF_MR_KEY;
	tf_sq_publish(f);
}

/* A READ response or ATOMIC_ACK into the completer, as the RX path holds it. */
static void at_resp_rcv(struct tf *f, const struct mrc_hdrs *h,
			const void *payload)
{
	rcu_read_lock();
	spin_lock_bh(&f->qp->lock);
	mrc_comp_read_resp_rcv(f->qp, h, payload, &f->out);
	spin_unlock_bh(&f->qp->lock);
	rcu_read_unlock();
}

/* The peer's answer to the request @req, holding @orig. */
static void at_answer(struct tf *f, const struct mrc_hdrs *req, u64 orig)
{
	__be64 pay = cpu_to_be64(orig);
	struct mrc_hdrs a = {
		.opcode = MRC_OP_ATOMIC_ACK,
		.dqpn = 0x10,
		.psn = req->psn,
		.ev = 0xbeef,
		.msn = req->msn,
		.dma_len = MRC_ATOMIC_LEN,
		.payload_len = MRC_ATOMIC_LEN,
	};

	at_resp_rcv(f, &a, &pay);
}

/*
 * The requester's side: one request packet per atomic with its operands,
 * no more outstanding than max_rd_atomic, and the original value in host
 * order in the local buffer when the answer comes.
 */
static void atomic_requester(struct kunit *test)
{
	struct tf *f = test->priv;
	u64 va = 0x5000000000ULL;
	struct mrc_hdrs r[3];
	struct ib_wc wc;

	f->qp->attr.max_rd_atomic = 2;
	at_post(f, IB_WR_ATOMIC_CMP_AND_SWP, va, 11, 22, 1, 0);
	at_post(f, IB_WR_ATOMIC_FETCH_AND_ADD, va + 8, 33, 0, 2, 8);
	at_post(f, IB_WR_ATOMIC_FETCH_AND_ADD, va + 16, 44, 0, 3, 16);
	tf_req_run(f);
	tf_pop(f, &r[0]);
	tf_pop(f, &r[1]);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);

	KUNIT_EXPECT_EQ(test, r[0].opcode, MRC_OP_CMP_SWAP);
	KUNIT_EXPECT_EQ(test, r[0].psn, 5000U);
	KUNIT_EXPECT_EQ(test, r[0].va, va);
	KUNIT_EXPECT_EQ(test, r[0].rkey, 0x4242U);
	KUNIT_EXPECT_EQ(test, r[0].dma_len, MRC_ATOMIC_LEN);
	KUNIT_EXPECT_EQ(test, r[0].compare, 11ULL);
	KUNIT_EXPECT_EQ(test, r[0].swap_add, 22ULL);
	KUNIT_EXPECT_EQ(test, r[1].opcode, MRC_OP_FETCH_ADD);
	KUNIT_EXPECT_EQ(test, r[1].psn, 5001U);
	KUNIT_EXPECT_EQ(test, r[1].msn, r[0].msn + 1);
	KUNIT_EXPECT_EQ(test, r[1].swap_add, 33ULL);
	KUNIT_EXPECT_EQ(test, r[1].compare, 0ULL);

	/* One answer makes room for the third. */
	at_answer(f, &r[0], 0xabcdef0123456789ULL);
	tf_pop(f, &r[2]);
	KUNIT_EXPECT_EQ(test, r[2].opcode, MRC_OP_FETCH_ADD);
	KUNIT_EXPECT_EQ(test, r[2].psn, 5002U);
	KUNIT_EXPECT_EQ(test, r[2].swap_add, 44ULL);
	KUNIT_EXPECT_EQ(test, *at_word(f, 0), 0xabcdef0123456789ULL);
	KUNIT_ASSERT_EQ(test, tf_poll(f, f->scq, &wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1ULL);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_COMP_SWAP);

	/* A second answer is a duplicate, and changes nothing. */
	at_answer(f, &r[1], 7);
	at_answer(f, &r[1], 8);
	KUNIT_EXPECT_EQ(test, *at_word(f, 8), 7ULL);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_DUPLICATES), 1);
	at_answer(f, &r[2], 9);
	KUNIT_ASSERT_EQ(test, tf_poll(f, f->scq, &wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2ULL);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_FETCH_ADD);
	KUNIT_ASSERT_EQ(test, tf_poll(f, f->scq, &wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 3ULL);
	KUNIT_EXPECT_EQ(test, *at_word(f, 16), 9ULL);
	KUNIT_EXPECT_EQ(test, f->qp->req.atomics_out, 0);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
}

/* A READ response where an atomic's answer belongs is malformed. */
static void atomic_answer_must_be_atomic_ack(struct kunit *test)
{
	struct tf *f = test->priv;
	__be64 pay = cpu_to_be64(1);
	struct mrc_hdrs r, a;

	at_post(f, IB_WR_ATOMIC_FETCH_AND_ADD, 0x5000000000ULL, 1, 0, 1, 0);
	tf_req_run(f);
	tf_pop(f, &r);
	a = (struct mrc_hdrs){
		.opcode = MRC_OP_READ_RESP_ONLY,
		.dqpn = 0x10,
		.psn = r.psn,
		.msn = r.msn,
		.dma_len = MRC_ATOMIC_LEN,
		.payload_len = MRC_ATOMIC_LEN,
	};
	at_resp_rcv(f, &a, &pay);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_MALFORMED), 1);
	KUNIT_EXPECT_EQ(test, f->qp->req.atomics_out, 1);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, 8), 0U);
}

/*
 * Atomic WQEs the requester refuses, as a local QP operation error: a
 * result buffer under 8 bytes, a remote address not 8-byte aligned (the
 * peer would refuse it and fail its own QP for this side's mistake).
 */
static void at_wqe_refused(struct kunit *test, u32 sge_len, u64 remote_va)
{
	struct tf *f = test->priv;
	struct mrc_queue *sq = &f->qp->sq;
	struct rxe_send_wqe *w;
	struct ib_wc wc;

	at_post(f, IB_WR_ATOMIC_FETCH_AND_ADD, remote_va, 1, 0, 1, 0);
	w = mrc_queue_elem(sq, 0);
	w->dma.sge[0].length = sge_len;
	tf_req_run(f);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
	KUNIT_ASSERT_EQ(test, tf_poll(f, f->scq, &wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_LOC_QP_OP_ERR);
}

static void atomic_short_local_buffer_refused(struct kunit *test)
{
	at_wqe_refused(test, 4, 0x5000000000ULL);
}

static void atomic_unaligned_remote_refused(struct kunit *test)
{
	at_wqe_refused(test, MRC_ATOMIC_LEN, 0x5000000004ULL);
}

static struct kunit_case mrc_atomic_cases[] = {
	KUNIT_CASE(atomic_fetch_add_once),
	KUNIT_CASE(atomic_cmp_swap),
	KUNIT_CASE(atomic_waits_for_earlier_requests),
	KUNIT_CASE(atomic_unaligned_refused),
	KUNIT_CASE(atomic_misaligned_memory_refused),
	KUNIT_CASE(atomic_without_resources_refused),
	KUNIT_CASE(atomic_without_mr_right_refused),
	KUNIT_CASE(atomic_without_qp_right_refused),
	KUNIT_CASE(atomic_past_mr_end_refused),
	KUNIT_CASE(atomic_bad_rkey_refused),
	KUNIT_CASE(atomic_forged_repeat_ignored),
	KUNIT_CASE(atomic_requester),
	KUNIT_CASE(atomic_answer_must_be_atomic_ack),
	KUNIT_CASE(atomic_short_local_buffer_refused),
	KUNIT_CASE(atomic_unaligned_remote_refused),
	{}
};

static struct kunit_suite mrc_atomic_suite = {
	.name = "mrc-atomic",
	.init = at_init,
	.exit = tf_exit,
	.test_cases = mrc_atomic_cases,
};

kunit_test_suite(mrc_atomic_suite);
