// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "mrc-rx": the responder of mrc/responder.c, driven packet by
 * packet through mrc_resp_rcv() on a QP made by the provider's own create
 * verbs (qp_fixture.c).  Each case checks the bytes that land in the MR's
 * pages, the SACKs and NACKs the responder sends (decoded from the sealed
 * packets themselves), the completions in the receive CQ and the counters.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "qp_fixture.h"

#define PAT_LEN		4096

/* A payload pattern without the canary byte: < 0x80 everywhere. */
static u8 pat[PAT_LEN];
/* A second one, to tell a second write from the first. */
static u8 pat2[PAT_LEN];

static void fill_patterns(void)
{
	size_t i;

	for (i = 0; i < PAT_LEN; i++) {
		pat[i] = (i * 13 + 1) & 0x7f;
		pat2[i] = (i * 7 + 0x40) & 0x7f;
	}
}

static int rx_init(struct kunit *test)
{
	fill_patterns();
	return tf_init(test);
}

/* A request packet: @va is an offset in the MR (WRITE) or message (SEND). */
static struct mrc_hdrs req(u8 op, u32 psn, u32 msn, u64 va, u32 len,
			   u32 dma_len)
{
	bool send = op <= MRC_OP_SEND_ONLY_IMM;
	struct mrc_hdrs h = {
		.opcode = op,
		.dqpn = 0x10,
		.psn = psn,
		.ev = 0xbeef,
		.msn = msn,
		.va = send ? va : TF_MR_IOVA + va,
		.rkey = send ? 0 : TF_MR_KEY,
		.dma_len = dma_len,
		.payload_len = len,
	};

	return h;
}

static struct mrc_hdrs write_only(u32 psn, u32 msn, u64 off, u32 len)
{
	return req(MRC_OP_WRITE_ONLY, psn, msn, off, len, len);
}

/* Bytes in [@off, @off + @len) of the MR that differ from @want. */
static size_t mr_diff(struct tf *f, size_t off, const u8 *want, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += *tf_mr_byte(f, off + i) != want[i];
	return n;
}

/* A SACK answering @psn whose bitmap starts at @base, advertising @window. */
static void expect_sack_win(struct tf *f, u32 psn, u32 cum, u32 base,
			    u64 bitmap, u8 flags, u32 window)
{
	struct kunit *test = f->test;
	struct mrc_hdrs s;

	tf_pop(f, &s);
	KUNIT_EXPECT_EQ(test, s.opcode, MRC_OP_SACK);
	KUNIT_EXPECT_EQ(test, s.dqpn, TF_DEST_QPN);
	KUNIT_EXPECT_EQ(test, s.psn, psn);
	KUNIT_EXPECT_EQ(test, s.sack.cum_psn, cum);
	KUNIT_EXPECT_EQ(test, s.sack.sack_psn, base);
	KUNIT_EXPECT_EQ(test, s.sack.bitmap, bitmap);
	KUNIT_EXPECT_EQ(test, s.sack.flags, flags);
	KUNIT_EXPECT_EQ(test, s.sack.window, window);
	KUNIT_EXPECT_EQ(test, s.sack.ref_ev, 0xbeef);
}

/* The same, with the default window. */
static void expect_sack_at(struct tf *f, u32 psn, u32 cum, u32 base,
			   u64 bitmap, u8 flags)
{
	expect_sack_win(f, psn, cum, base, bitmap, flags, MRC_WINDOW_DEFAULT);
}

static void expect_sack(struct tf *f, u32 psn, u32 cum, u64 bitmap, u8 flags)
{
	expect_sack_at(f, psn, cum, cum, bitmap, flags);
}

static void expect_nack(struct tf *f, u32 psn, u8 reason, u32 info, u32 cum)
{
	struct kunit *test = f->test;
	struct mrc_hdrs n;

	tf_pop(f, &n);
	KUNIT_EXPECT_EQ(test, n.opcode, MRC_OP_NACK);
	KUNIT_EXPECT_EQ(test, n.dqpn, TF_DEST_QPN);
	KUNIT_EXPECT_EQ(test, n.psn, psn);
	KUNIT_EXPECT_EQ(test, n.nack.reason, reason);
	KUNIT_EXPECT_EQ(test, n.nack.info, info);
	KUNIT_EXPECT_EQ(test, n.nack.cum_psn, cum);
}

static void expect_no_packet(struct tf *f)
{
	KUNIT_EXPECT_EQ(f->test, skb_queue_len(&f->out), 0U);
}

static void expect_no_cqe(struct tf *f)
{
	struct ib_wc wc;

	KUNIT_EXPECT_EQ(f->test, tf_poll(f, f->rcq, &wc, 1), 0);
}

/* ---------------------------------------------------------------------
 * PSN window
 */

static void rx_in_order_advances_cum(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;
	u32 i;

	for (i = 0; i < 3; i++) {
		h = write_only(100 + i, i, i * 64, 64);
		if (i == 2)
			h.flags = MRC_BTH_F_ACK_REQ;
		tf_resp_rcv(f, &h, pat + i * 64);
		KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 101 + i);
		/* In order and not asked for: the SACK is coalesced. */
		if (i < 2)
			expect_no_packet(f);
	}
	expect_sack(f, 102, 103, 0, 0);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 0, pat, 192), 0);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 192, TF_NPAGES * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_DATA), 3);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_OOO_PLACED), 0);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_DUPLICATES), 0);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_SACK_TX), 1);
	expect_no_cqe(f);
}

static void rx_gap_sets_sack_bits(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;

	h = write_only(100, 0, 0, 64);
	tf_resp_rcv(f, &h, pat);
	expect_no_packet(f);

	/* 101 is missing: every out-of-order arrival is SACKed at once. */
	h = write_only(102, 2, 128, 64);
	tf_resp_rcv(f, &h, pat + 128);
	expect_sack(f, 102, 101, BIT_ULL(1), 0);
	h = write_only(105, 5, 320, 64);
	tf_resp_rcv(f, &h, pat + 320);
	expect_sack(f, 105, 101, BIT_ULL(1) | BIT_ULL(4), 0);
	KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 101);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_OOO_PLACED), 2);
	/* Placed even though earlier PSNs are missing. */
	KUNIT_EXPECT_EQ(test, mr_diff(f, 128, pat + 128, 64), 0);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 320, pat + 320, 64), 0);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 64, 128), 0);

	/*
	 * The hole fills: cum slides over 102 and stops at 103.  No ACK_REQ:
	 * filling a hole is reason enough to SACK at once.
	 */
	h = write_only(101, 1, 64, 64);
	tf_resp_rcv(f, &h, pat + 64);
	expect_sack(f, 101, 103, BIT_ULL(2), 0);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 103);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_OOO_PLACED), 2);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 0, pat, 192), 0);
}

/*
 * A packet more than 63 PSNs past cum_psn is reported with the 63 before
 * it, so the requester hears of it while the oldest hole is repaired;
 * nearer ones keep the bitmap at cum_psn.
 */
/* PSN 100 + @i, one packet writing MR bytes [@off, +64) from pat. */
static void rcv_nth(struct tf *f, u32 i, u32 off)
{
	struct mrc_hdrs h = write_only(100 + i, i, off, 64);

	tf_resp_rcv(f, &h, pat + off);
}

static void rx_far_arrival_reported_with_neighbours(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;

	rcv_nth(f, 0, 0);
	rcv_nth(f, 10, 640);
	expect_sack(f, 110, 101, BIT_ULL(9), 0);

	/* cum + 64: the bitmap ends at it and starts 63 before. */
	rcv_nth(f, 65, 1024);
	expect_sack_at(f, 165, 101, 102, BIT_ULL(8) | BIT_ULL(63), 0);
	/* cum + 63 still fits a bitmap from cum_psn: 165 is past its end. */
	rcv_nth(f, 64, 1088);
	expect_sack(f, 164, 101, BIT_ULL(9) | BIT_ULL(63), 0);
	/* A copy of a far packet reports its neighbours again. */
	h = write_only(165, 65, 1024, 64);
	h.flags = MRC_BTH_F_RTX;
	tf_resp_rcv(f, &h, pat + 1024);
	expect_sack_at(f, 165, 101, 102, BIT_ULL(8) | BIT_ULL(62) | BIT_ULL(63),
		       MRC_SACK_F_DUP | MRC_SACK_F_RTX);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 101);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 1024, pat + 1024, 128), 0);
}

static void rx_duplicate_not_placed_twice(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;

	h = write_only(100, 0, 0, 64);
	tf_resp_rcv(f, &h, pat);
	h = write_only(102, 2, 128, 64);
	tf_resp_rcv(f, &h, pat + 128);
	expect_sack(f, 102, 101, BIT_ULL(1), 0);

	/* Below cum_psn, with other bytes: answered, not placed. */
	h = write_only(100, 0, 0, 64);
	tf_resp_rcv(f, &h, pat2);
	expect_sack(f, 100, 101, BIT_ULL(1), MRC_SACK_F_DUP);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_DUPLICATES), 1);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 0, pat, 64), 0);

	/* Inside the window and already seen; a retransmission at that. */
	h = write_only(102, 2, 128, 64);
	h.flags = MRC_BTH_F_RTX;
	tf_resp_rcv(f, &h, pat2);
	expect_sack(f, 102, 101, BIT_ULL(1), MRC_SACK_F_DUP | MRC_SACK_F_RTX);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_DUPLICATES), 2);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 128, pat + 128, 64), 0);
	KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 101);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_DATA), 4);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_OOO_PLACED), 1);
}

/*
 * With cum_psn 100 and window @w: the last PSN of the window is accepted and
 * placed, and reported at the end of a bitmap that starts 63 before it; the
 * one past it is NACKed with the window and nothing placed.
 */
static void expect_window_edge(struct tf *f, u32 w)
{
	struct kunit *test = f->test;
	struct mrc_hdrs h;

	h = write_only(100 + w - 1, w - 1, 256, 32);
	tf_resp_rcv(f, &h, pat);
	expect_sack_win(f, 100 + w - 1, 100, 100 + w - 64, BIT_ULL(63), 0, w);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 256, pat, 32), 0);

	h = write_only(100 + w, 0, 512, 32);
	tf_resp_rcv(f, &h, pat);
	expect_nack(f, 100 + w, MRC_NACK_PSN_OOR_WINDOW, w, 100);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_NACK_TX_OOR), 1);
}

static void rx_window_edges(struct kunit *test)
{
	struct tf *f = test->priv;
	u32 w = f->qp->resp.window;
	struct mrc_hdrs h;

	KUNIT_ASSERT_EQ(test, w, MRC_WINDOW_DEFAULT);

	expect_window_edge(f, w);

	/* As far ahead as serial arithmetic allows: the same. */
	h = write_only((100 + 0x7fffff) & MRC_PSN_MASK, 1, 512, 32);
	tf_resp_rcv(f, &h, pat);
	expect_nack(f, (100 + 0x7fffff) & MRC_PSN_MASK,
		    MRC_NACK_PSN_OOR_WINDOW, w, 100);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_NACK_TX_OOR), 2);

	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 512, TF_NPAGES * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, 256), 0);
	KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 100);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_DUPLICATES), 0);
}

/*
 * The responder MPR of MRC_CMD_QP_SET (mrc_qp_set_apply()): a connected QP
 * refuses it; in INIT it swaps in a window of 128 PSNs, which the SACKs then
 * carry, and the PSN one past it is NACKed with it, nothing placed.
 */
static void rx_mpr_dest_sets_window(struct kunit *test)
{
	struct tf *f = test->priv;
	const u32 w = MRC_MPR_UNIT;
	struct mrc_qp_set set = {
		.mask = MRC_QP_SET_MPR_DEST,
		.mpr_dest = w,
	};
	int err;

	KUNIT_ASSERT_EQ(test, mrc_qp_set_prepare(&set), 0);
	KUNIT_EXPECT_EQ(test, mrc_qp_set_apply(f->qp, &set, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, f->qp->resp.window, MRC_WINDOW_DEFAULT);
	f->qp->state = IB_QPS_INIT;
	err = mrc_qp_set_apply(f->qp, &set, NULL);
	f->qp->state = IB_QPS_RTS;
	mrc_qp_set_release(&set);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_ASSERT_EQ(test, f->qp->resp.window, w);
	KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 100);

	expect_window_edge(f, w);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 512, TF_NPAGES * PAGE_SIZE), 0);
}

/*
 * When MRC_CMD_QP_SET is taken: the requester's MPR still in RTR (the OCP
 * API sets it on RTR->RTS), the responder's MPR no longer; nothing in RTS.
 */
static void rx_qp_set_states(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_qp_set req = {
		.mask = MRC_QP_SET_MPR | MRC_QP_SET_TIMEOUT,
		.mpr = 4 * MRC_MPR_UNIT,
		.timeout = 12,
	};
	struct mrc_qp_set resp = {
		.mask = MRC_QP_SET_MPR_DEST,
		.mpr_dest = MRC_MPR_UNIT,
	};
	u32 cap = f->qp->send_cap;
	int err_rts, err_req, err_resp;

	KUNIT_ASSERT_EQ(test, mrc_qp_set_prepare(&req), 0);
	KUNIT_ASSERT_EQ(test, mrc_qp_set_prepare(&resp), 0);
	err_rts = mrc_qp_set_apply(f->qp, &req, NULL);
	KUNIT_EXPECT_EQ(test, f->qp->send_cap, cap);
	f->qp->state = IB_QPS_RTR;
	err_resp = mrc_qp_set_apply(f->qp, &resp, NULL);
	err_req = mrc_qp_set_apply(f->qp, &req, NULL);
	f->qp->state = IB_QPS_RTS;
	mrc_qp_set_release(&req);
	mrc_qp_set_release(&resp);
	KUNIT_EXPECT_EQ(test, err_rts, -EBUSY);
	KUNIT_EXPECT_EQ(test, err_resp, -EBUSY);
	KUNIT_EXPECT_EQ(test, f->qp->resp.window, MRC_WINDOW_DEFAULT);
	KUNIT_EXPECT_EQ(test, err_req, 0);
	KUNIT_EXPECT_EQ(test, f->qp->send_cap, 4 * MRC_MPR_UNIT);
	KUNIT_EXPECT_EQ(test, f->qp->attr.timeout, 12);
}

static void rx_psn_wraps_at_2_24(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;

	tf_set_psn(f, 0xfffffe, 5000);
	h = write_only(0xfffffe, 0, 0, 16);
	tf_resp_rcv(f, &h, pat);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 0xffffff);

	h = write_only(0x000000, 2, 32, 16);
	tf_resp_rcv(f, &h, pat + 32);
	expect_sack(f, 0, 0xffffff, BIT_ULL(1), 0);

	h = write_only(0xffffff, 1, 16, 16);
	h.flags = MRC_BTH_F_ACK_REQ;
	tf_resp_rcv(f, &h, pat + 16);
	expect_sack(f, 0xffffff, 0x000001, 0, 0);
	KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 1);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 0, pat, 48), 0);

	/* The PSN before the wrap is now behind cum_psn: a duplicate. */
	h = write_only(0xfffffe, 0, 0, 16);
	tf_resp_rcv(f, &h, pat2);
	expect_sack(f, 0xfffffe, 1, 0, MRC_SACK_F_DUP);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_DUPLICATES), 1);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_OOO_PLACED), 1);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 0, pat, 48), 0);
}

/* ---------------------------------------------------------------------
 * Placement
 */

static void rx_ooo_write_lands_byte_exact(struct kunit *test)
{
	static const u8 ops[] = {
		MRC_OP_WRITE_FIRST, MRC_OP_WRITE_MIDDLE,
		MRC_OP_WRITE_MIDDLE, MRC_OP_WRITE_LAST,
	};
	static const u32 order[] = { 3, 1, 0, 2 };
	/* Straddles the boundary of the MR's first two pages. */
	const size_t base = PAGE_SIZE - 300;
	struct tf *f = test->priv;
	struct mrc_hdrs h;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(order); i++) {
		u32 k = order[i];

		h = req(ops[k], 100 + k, 0, base + k * TF_MTU, TF_MTU,
			4 * TF_MTU);
		tf_resp_rcv(f, &h, pat + k * TF_MTU);
		if (i == 2) {
			/* Packet 2 has not arrived: its bytes are untouched. */
			KUNIT_EXPECT_EQ(test,
					tf_mr_dirty(f, base + 2 * TF_MTU,
						    base + 3 * TF_MTU),
					0);
			KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 102);
		}
	}
	KUNIT_EXPECT_EQ(test, mr_diff(f, base, pat, 4 * TF_MTU), 0);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, base), 0);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, base + 4 * TF_MTU,
					  TF_NPAGES * PAGE_SIZE),
			0);
	KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 104);
	/* 3 and 1 came ahead of cum_psn; 0 and 2 arrived at it. */
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_OOO_PLACED), 2);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_DUPLICATES), 0);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_DATA), 4);
	KUNIT_EXPECT_EQ(test, f->qp->resp.msn_done, 1);
	expect_no_cqe(f);
}

/* ---------------------------------------------------------------------
 * Completion in MSN order
 */

static void rx_write_imm_completes_in_msn_order(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs a, b, c;
	struct ib_wc wc[3];

	KUNIT_ASSERT_EQ(test, tf_post_recv(f, 0xa0, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, tf_post_recv(f, 0xa1, 0, 0), 0);

	/* Message 0: two packets, 300 bytes; message 1: one, 32 bytes. */
	a = req(MRC_OP_WRITE_FIRST, 100, 0, 0, TF_MTU, 300);
	b = req(MRC_OP_WRITE_LAST_IMM, 101, 0, TF_MTU, 300 - TF_MTU, 300);
	b.imm = 0x10;
	c = req(MRC_OP_WRITE_ONLY_IMM, 102, 1, 512, 32, 32);
	c.imm = 0x11;
	c.rq_msn = 1;

	tf_resp_rcv(f, &a, pat);
	tf_resp_rcv(f, &c, pat + 512);
	/* Message 1 is complete, but message 0 is not: nothing yet. */
	expect_no_cqe(f);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 512, pat + 512, 32), 0);

	tf_resp_rcv(f, &b, pat + TF_MTU);
	KUNIT_ASSERT_EQ(test, tf_poll(f, f->rcq, wc, 3), 2);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 0xa0);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc[0].opcode, IB_WC_RECV_RDMA_WITH_IMM);
	KUNIT_EXPECT_EQ(test, wc[0].byte_len, 300);
	KUNIT_EXPECT_TRUE(test, wc[0].wc_flags & IB_WC_WITH_IMM);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(wc[0].ex.imm_data), 0x10);
	KUNIT_EXPECT_PTR_EQ(test, wc[0].qp, &f->qp->ibqp);
	KUNIT_EXPECT_EQ(test, wc[0].src_qp, TF_DEST_QPN);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, 0xa1);
	KUNIT_EXPECT_EQ(test, wc[1].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc[1].opcode, IB_WC_RECV_RDMA_WITH_IMM);
	KUNIT_EXPECT_EQ(test, wc[1].byte_len, 32);
	KUNIT_EXPECT_TRUE(test, wc[1].wc_flags & IB_WC_WITH_IMM);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(wc[1].ex.imm_data), 0x11);

	KUNIT_EXPECT_EQ(test, mr_diff(f, 0, pat, 300), 0);
	KUNIT_EXPECT_EQ(test, f->qp->resp.msn_done, 2);
	KUNIT_EXPECT_EQ(test, f->qp->resp.rq_msn_done, 2);
	KUNIT_EXPECT_EQ(test, f->qp->rq.index, 2);
	KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 103);
	tf_pop_all(f, &a);
}

static void rx_send_into_posted_wqe(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;
	struct ib_wc wc[2];

	KUNIT_ASSERT_EQ(test, tf_post_recv(f, 0xb0, 1024, 600), 0);

	/* The last packet first: placed at its offset in the WQE's buffer. */
	h = req(MRC_OP_SEND_LAST, 101, 0, TF_MTU, 300 - TF_MTU, 300);
	tf_resp_rcv(f, &h, pat + TF_MTU);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 1024 + TF_MTU, pat + TF_MTU,
				      300 - TF_MTU),
			0);
	expect_no_cqe(f);

	h = req(MRC_OP_SEND_FIRST, 100, 0, 0, TF_MTU, 300);
	tf_resp_rcv(f, &h, pat);
	KUNIT_ASSERT_EQ(test, tf_poll(f, f->rcq, wc, 2), 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 0xb0);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc[0].opcode, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, wc[0].byte_len, 300);
	KUNIT_EXPECT_EQ(test, wc[0].wc_flags, 0);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 1024, pat, 300), 0);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, 1024), 0);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 1324, TF_NPAGES * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, f->qp->rq.index, 1);
	tf_pop_all(f, &h);
}

static void rx_send_without_wqe_is_rnr(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;
	struct ib_wc wc;

	h = req(MRC_OP_SEND_ONLY, 100, 0, 0, 64, 64);
	tf_resp_rcv(f, &h, pat);
	expect_nack(f, 100, MRC_NACK_RNR, TF_RNR_TIMER, 100);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_NACK_TX_RNR), 1);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, TF_NPAGES * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 100);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
	expect_no_cqe(f);

	/* Nothing was recorded: once a WQE is posted the resend is new. */
	KUNIT_ASSERT_EQ(test, tf_post_recv(f, 0xc0, 0, 64), 0);
	h.flags = MRC_BTH_F_RTX;
	tf_resp_rcv(f, &h, pat);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_DUPLICATES), 0);
	KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 101);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 0, pat, 64), 0);
	KUNIT_ASSERT_EQ(test, tf_poll(f, f->rcq, &wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 0xc0);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 64);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	tf_pop_all(f, &h);
}

/*
 * A SEND longer than its receive WQE: NACKed as an invalid request, the
 * QP fails, that WQE completes with a local length error and the next is
 * flushed; nothing is written.
 */
static void rx_send_longer_than_wqe(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;
	struct ib_wc wc[3];

	KUNIT_ASSERT_EQ(test, tf_post_recv(f, 0xd0, 0, 64), 0);
	KUNIT_ASSERT_EQ(test, tf_post_recv(f, 0xd1, 64, 64), 0);
	h = req(MRC_OP_SEND_ONLY, 100, 0, 0, 128, 128);
	tf_resp_rcv(f, &h, pat);
	expect_nack(f, 100, MRC_NACK_INVALID_REQUEST, 0, 100);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, TF_NPAGES * PAGE_SIZE), 0);
	KUNIT_ASSERT_EQ(test, tf_poll(f, f->rcq, wc, 3), 2);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 0xd0);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_LOC_LEN_ERR);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, 0xd1);
	KUNIT_EXPECT_EQ(test, wc[1].status, IB_WC_WR_FLUSH_ERR);
}

/*
 * The poster moves the RQ's producer index back over a WQE a message is
 * already being placed in: the QP fails here (no NACK blames the peer), the
 * claimed WQE completes flushed with the wr_id it had when claimed, and
 * nothing more is written.
 */
static void rx_rq_producer_moved_back_fails_qp(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_queue *rq = &f->qp->rq;
	struct rxe_recv_wqe *w;
	struct mrc_hdrs h;
	struct ib_wc wc[3];

	KUNIT_ASSERT_EQ(test, tf_post_recv(f, 0xf0, 1024, 600), 0);
	KUNIT_ASSERT_EQ(test, tf_post_recv(f, 0xf1, 2048, 600), 0);
	/* the last packet first: the first WQE is claimed, not completed */
	h = req(MRC_OP_SEND_LAST, 101, 0, TF_MTU, 300 - TF_MTU, 300);
	tf_resp_rcv(f, &h, pat + TF_MTU);
	expect_no_cqe(f);
	tf_pop_all(f, &h);

	w = mrc_queue_elem(rq, 0);
	w->wr_id = 0xbad;
	/* as a poster would publish it (mrc_queue_load_producer()) */
	smp_store_release(&rq->buf->producer_index, 0);
	h = req(MRC_OP_SEND_FIRST, 100, 0, 0, TF_MTU, 300);
	tf_resp_rcv(f, &h, pat);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_QP_ERRORS), 1);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, 1024 + TF_MTU), 0);
	KUNIT_ASSERT_EQ(test, tf_poll(f, f->rcq, wc, 3), 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 0xf0);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_WR_FLUSH_ERR);
}

/*
 * The same when the claimed WQE's message is already complete and waits
 * behind an earlier WRITE: the release that would complete it fails the QP
 * instead, so the consumer never passes the producer.
 */
static void rx_rq_taken_back_before_release_fails_qp(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_queue *rq = &f->qp->rq;
	struct mrc_hdrs h;
	struct ib_wc wc[3];

	KUNIT_ASSERT_EQ(test, tf_post_recv(f, 0xf2, 1024, 64), 0);
	/* message 1, a SEND, complete; message 0, a WRITE, still missing */
	h = req(MRC_OP_SEND_ONLY, 101, 1, 0, 64, 64);
	tf_resp_rcv(f, &h, pat);
	expect_no_cqe(f);
	tf_pop_all(f, &h);

	/* as a poster would publish it (mrc_queue_load_producer()) */
	smp_store_release(&rq->buf->producer_index, 0);
	h = write_only(100, 0, 0, 64);
	tf_resp_rcv(f, &h, pat);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_QP_ERRORS), 1);
	KUNIT_EXPECT_EQ(test, rq->index, 0);
	KUNIT_ASSERT_EQ(test, tf_poll(f, f->rcq, wc, 3), 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 0xf2);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_WR_FLUSH_ERR);
	tf_pop_all(f, &h);
}

/*
 * A receive WQE whose SGE ends past its MR: the SEND that fits its length
 * is NACKed as a remote operational error, the WQE completes with a local
 * protection error, and no byte past the MR is written.
 */
static void rx_send_into_sge_past_mr(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;
	struct ib_wc wc[2];

	KUNIT_ASSERT_EQ(test, tf_post_recv(f, 0xe0, TF_MR_LEN - 32, 64), 0);
	h = req(MRC_OP_SEND_ONLY, 100, 0, 0, 64, 64);
	tf_resp_rcv(f, &h, pat);
	expect_nack(f, 100, MRC_NACK_REMOTE_OP, 0, 100);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, TF_NPAGES * PAGE_SIZE), 0);
	KUNIT_ASSERT_EQ(test, tf_poll(f, f->rcq, wc, 2), 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 0xe0);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_LOC_PROT_ERR);
}

/* ---------------------------------------------------------------------
 * Access violations: answered, nothing written, the QP fails
 */

static void rx_unknown_rkey(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;

	/* The MR's index with a stale low byte. */
	h = write_only(100, 0, 0, 64);
	h.rkey = TF_MR_KEY ^ 0x01;
	tf_resp_rcv(f, &h, pat);
	expect_nack(f, 100, MRC_NACK_RKEY_VIOLATION, 0, 100);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, TF_NPAGES * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_NACK_TX_RKEY), 1);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_QP_ERRORS), 1);
	KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 100);
}

static void rx_unknown_mr_index(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;

	h = write_only(100, 0, 0, 64);
	h.rkey = TF_MR_KEY + (1 << 8);
	tf_resp_rcv(f, &h, pat);
	expect_nack(f, 100, MRC_NACK_RKEY_VIOLATION, 0, 100);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, TF_NPAGES * PAGE_SIZE), 0);
}

static void rx_write_past_mr_end(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;

	/* Exactly up to the last byte: fine. */
	h = write_only(100, 0, TF_MR_LEN - 16, 16);
	tf_resp_rcv(f, &h, pat);
	KUNIT_EXPECT_EQ(test, mr_diff(f, TF_MR_LEN - 16, pat, 16), 0);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
	expect_no_packet(f);

	/* One byte further: not one byte of it lands. */
	h = write_only(101, 1, TF_MR_LEN - 15, 16);
	tf_resp_rcv(f, &h, pat2);
	expect_nack(f, 101, MRC_NACK_ACCESS, 0, 101);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, mr_diff(f, TF_MR_LEN - 16, pat, 16), 0);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, TF_MR_LEN, TF_NPAGES * PAGE_SIZE),
			0);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, TF_MR_LEN - 16), 0);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_NACK_TX_ACCESS), 1);
}

static void rx_write_without_qp_remote_write(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;

	f->qp->attr.qp_access_flags = IB_ACCESS_LOCAL_WRITE |
				      IB_ACCESS_REMOTE_READ;
	h = write_only(100, 0, 0, 64);
	tf_resp_rcv(f, &h, pat);
	expect_nack(f, 100, MRC_NACK_ACCESS, 0, 100);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, TF_NPAGES * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_NACK_TX_ACCESS), 1);
}

/*
 * Old READ requests are easy to forge: one beyond the window, or one that
 * no longer names a valid MR, is dropped and counted, never fatal.
 */
static void rx_old_read_duplicate_is_harmless(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;

	h = write_only(100, 0, 0, 64);
	tf_resp_rcv(f, &h, pat);
	expect_no_packet(f);

	h = req(MRC_OP_READ_REQ, mrc_psn_add(100, MRC_PSN_MASK - 2047), 0, 0,
		0, 64);
	tf_resp_rcv(f, &h, NULL);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_READ_REPLAY_REFUSED), 1);

	h = req(MRC_OP_READ_REQ, 100, 0, 0, 0, 64);
	h.rkey = TF_MR_KEY + 1;
	tf_resp_rcv(f, &h, NULL);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_READ_REPLAY_REFUSED), 2);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_MALFORMED), 0);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_DUPLICATES), 2);
	KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 101);
}

/*
 * A READ longer than a chunk is a protocol violation: fatal at cum_psn,
 * refused with the window beyond the window, and dropped unanswered in
 * between, where a forged PSN lands with odds of one in 2^24 / window.
 */
static void rx_long_read_ahead_of_window_not_fatal(struct kunit *test)
{
	struct tf *f = test->priv;
	u32 len = (MRC_READ_CHUNK_PKTS + 1) * f->qp->mtu;
	u32 w = f->qp->resp.window, far = (100 + 0x7fffff) & MRC_PSN_MASK;
	struct mrc_hdrs h;

	h = req(MRC_OP_READ_REQ, 100 + w, 0, 0, 0, len);
	tf_resp_rcv(f, &h, NULL);
	expect_nack(f, 100 + w, MRC_NACK_PSN_OOR_WINDOW, w, 100);
	h = req(MRC_OP_READ_REQ, far, 0, 0, 0, len);
	tf_resp_rcv(f, &h, NULL);
	expect_nack(f, far, MRC_NACK_PSN_OOR_WINDOW, w, 100);
	h = req(MRC_OP_READ_REQ, 101, 0, 0, 0, len);
	tf_resp_rcv(f, &h, NULL);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_NACK_TX_OOR), 2);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_NACK_TX_INVALID), 0);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_DEFERRED_NACKS), 1);

	/* The same READ at cum_psn fails the QP. */
	h = req(MRC_OP_READ_REQ, 100, 0, 0, 0, len);
	tf_resp_rcv(f, &h, NULL);
	expect_nack(f, 100, MRC_NACK_INVALID_REQUEST, 0, 100);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_NACK_TX_INVALID), 1);
}

/*
 * Forged requests at guessed PSNs inside the window: a bad rkey, a READ
 * out of the MR, a SEND with no receive posted.  None fails the QP, draws
 * a NACK or marks its PSN; the real packets for those PSNs are then
 * placed, and the same violation at cum_psn is fatal as ever.
 */
static void rx_forged_in_window_cannot_fail_qp(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;

	h = write_only(105, 5, 0, 64);
	h.rkey = TF_MR_KEY ^ 0x01;
	tf_resp_rcv(f, &h, pat2);
	h = req(MRC_OP_READ_REQ, 107, 7, TF_MR_LEN - 8, 0, 64);
	tf_resp_rcv(f, &h, NULL);
	h = req(MRC_OP_SEND_ONLY, 103, 3, 0, 64, 64);
	tf_resp_rcv(f, &h, pat2);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_DEFERRED_NACKS), 3);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_NACK_TX_RKEY), 0);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_NACK_TX_ACCESS), 0);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_NACK_TX_RNR), 0);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, TF_NPAGES * PAGE_SIZE), 0);

	/* The real WRITE of PSN 105 is new, not a duplicate. */
	h = write_only(105, 5, 512, 64);
	tf_resp_rcv(f, &h, pat);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 512, pat, 64), 0);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_DUPLICATES), 0);
	tf_pop_all(f, &h);

	h = write_only(100, 0, 0, 64);
	h.rkey = TF_MR_KEY ^ 0x01;
	tf_resp_rcv(f, &h, pat2);
	expect_nack(f, 100, MRC_NACK_RKEY_VIOLATION, 0, 100);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
}

/*
 * A blind WRITE that guessed a PSN in the window but not the MSN: a
 * message cannot be further ahead than its PSN, so it is dropped, its PSN
 * stays unmarked, and the real packet for that PSN is placed.
 */
static void rx_blind_write_wrong_msn_dropped(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;

	h = write_only(110, 11, 0, 64);
	tf_resp_rcv(f, &h, pat2);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_MALFORMED), 1);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, TF_NPAGES * PAGE_SIZE), 0);

	h = write_only(110, 10, 0, 64);
	tf_resp_rcv(f, &h, pat);
	KUNIT_EXPECT_EQ(test, mr_diff(f, 0, pat, 64), 0);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_DUPLICATES), 0);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_OOO_PLACED), 1);
	tf_pop_all(f, &h);
}

/* @n READ responses of PSNs from @psn, the last one answering message @msn. */
static void expect_read_resps(struct tf *f, u32 psn, u32 msn, u32 n)
{
	struct mrc_hdrs r;
	u32 i;

	for (i = 0; i < n; i++) {
		tf_pop(f, &r);
		KUNIT_EXPECT_GE(f->test, r.opcode, MRC_OP_READ_RESP_FIRST);
		KUNIT_EXPECT_LE(f->test, r.opcode, MRC_OP_READ_RESP_ONLY);
		KUNIT_EXPECT_EQ(f->test, r.psn, mrc_psn_add(psn, i));
		KUNIT_EXPECT_EQ(f->test, r.msn, msn);
	}
}

/*
 * A seen READ PSN is served again only for a repeat of the READ served
 * there, whole or from one of its PSNs to its end, and not twice within
 * MRC_READ_REPLAY_GAP_US; a READ request at the PSN of a WRITE, or with
 * another address, length or rkey, gets nothing.
 */
static void rx_read_replay_only_of_a_served_read(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_msg *m = &f->qp->resp.msgs[0];
	u32 len = 3 * TF_MTU;
	struct mrc_hdrs h, w;

	h = req(MRC_OP_READ_REQ, 100, 0, 0, 0, len);
	tf_resp_rcv(f, &h, NULL);
	expect_read_resps(f, 100, 0, 3);
	w = write_only(103, 1, 2048, 64);
	tf_resp_rcv(f, &w, pat);
	tf_pop_all(f, &w);
	KUNIT_EXPECT_EQ(test, f->qp->resp.cum_psn, 104);

	/* Forged: another address, a longer read, another rkey, a WRITE's PSN. */
	h = req(MRC_OP_READ_REQ, 100, 0, 1024, 0, len);
	tf_resp_rcv(f, &h, NULL);
	h = req(MRC_OP_READ_REQ, 100, 0, 0, 0, len + 1);
	tf_resp_rcv(f, &h, NULL);
	h = req(MRC_OP_READ_REQ, 100, 0, 0, 0, len);
	h.rkey = TF_MR_KEY + (1 << 8);
	tf_resp_rcv(f, &h, NULL);
	h = req(MRC_OP_READ_REQ, 103, 1, 2048, 0, 64);
	tf_resp_rcv(f, &h, NULL);
	/* Not a suffix: the middle PSN alone. */
	h = req(MRC_OP_READ_REQ, 101, 0, TF_MTU, 0, TF_MTU);
	tf_resp_rcv(f, &h, NULL);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_READ_REPLAY_REFUSED), 5);
	expect_no_packet(f);

	/* The requester's own repeat of the rest from PSN 101: served. */
	h = req(MRC_OP_READ_REQ, 101, 0, TF_MTU, 0, len - TF_MTU);
	tf_resp_rcv(f, &h, NULL);
	expect_read_resps(f, 101, 0, 2);
	tf_pop_all(f, &w);
	KUNIT_EXPECT_TRUE(test, m->replayed);

	/*
	 * Again within the gap (the last replay's time set ahead, so no
	 * clock can make this late): refused; once the gap has passed, the
	 * whole READ is served again.
	 */
	m->replay_ns = ktime_get_ns() + NSEC_PER_SEC;
	tf_resp_rcv(f, &h, NULL);
	expect_no_packet(f);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_READ_REPLAY_REFUSED), 6);
	m->replay_ns = ktime_get_ns() - 2 * MRC_READ_REPLAY_GAP_US * NSEC_PER_USEC;
	h = req(MRC_OP_READ_REQ, 100, 0, 0, 0, len);
	tf_resp_rcv(f, &h, NULL);
	expect_read_resps(f, 100, 0, 3);
	tf_pop_all(f, &w);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_READ_REPLAY_REFUSED), 6);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_RTS);
}

static struct kunit_case mrc_rx_cases[] = {
	KUNIT_CASE(rx_old_read_duplicate_is_harmless),
	KUNIT_CASE(rx_long_read_ahead_of_window_not_fatal),
	KUNIT_CASE(rx_forged_in_window_cannot_fail_qp),
	KUNIT_CASE(rx_blind_write_wrong_msn_dropped),
	KUNIT_CASE(rx_read_replay_only_of_a_served_read),
	KUNIT_CASE(rx_in_order_advances_cum),
	KUNIT_CASE(rx_gap_sets_sack_bits),
	KUNIT_CASE(rx_far_arrival_reported_with_neighbours),
	KUNIT_CASE(rx_duplicate_not_placed_twice),
	KUNIT_CASE(rx_window_edges),
	KUNIT_CASE(rx_mpr_dest_sets_window),
	KUNIT_CASE(rx_qp_set_states),
	KUNIT_CASE(rx_psn_wraps_at_2_24),
	KUNIT_CASE(rx_ooo_write_lands_byte_exact),
	KUNIT_CASE(rx_write_imm_completes_in_msn_order),
	KUNIT_CASE(rx_send_into_posted_wqe),
	KUNIT_CASE(rx_send_without_wqe_is_rnr),
	KUNIT_CASE(rx_send_longer_than_wqe),
	KUNIT_CASE(rx_send_into_sge_past_mr),
	KUNIT_CASE(rx_unknown_rkey),
	KUNIT_CASE(rx_unknown_mr_index),
	KUNIT_CASE(rx_rq_producer_moved_back_fails_qp),
	KUNIT_CASE(rx_rq_taken_back_before_release_fails_qp),
	KUNIT_CASE(rx_write_past_mr_end),
	KUNIT_CASE(rx_write_without_qp_remote_write),
	{}
};

static struct kunit_suite mrc_rx_suite = {
	.name = "mrc-rx",
	.init = rx_init,
	.exit = tf_exit,
	.test_cases = mrc_rx_cases,
};

kunit_test_suite(mrc_rx_suite);
