// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "mrc-fastreg": fast registration (mrc_alloc_mr(),
 * mrc_map_mr_sg(), IB_WR_REG_MR and IB_WR_LOCAL_INV through the provider's
 * own post_send) and remote invalidation (SEND_WITH_INV) on the fixture's
 * kernel QP.  Each case checks where the
 * peer's WRITEs land, or that they are refused and write nothing, the
 * bytes the requester sends from a registration, and the completions of
 * the memory-management WRs with their exact status.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/scatterlist.h>

#include "qp_fixture.h"

#define FR_PAGES	3
#define FR_SG_OFF	100
#define FR_ACCESS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_READ)

struct fr {
	struct tf *f;
	struct ib_mr *mr;
	struct page *pages[FR_PAGES];
	struct scatterlist sg[FR_PAGES];
	u32 psn;	/* the responder's next expected PSN */
	u32 msn;
};

static u8 *fr_byte(struct fr *r, unsigned int page, size_t off)
{
	return (u8 *)page_address(r->pages[page]) + off;
}

/* An MR of @max pages and FR_PAGES canary-filled pages for it. */
static struct fr *fr_make(struct kunit *test, u32 max)
{
	struct tf *f = test->priv;
	struct fr *r;
	unsigned int i;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->f = f;
	r->psn = 100;
	for (i = 0; i < FR_PAGES; i++) {
		r->pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, r->pages[i]);
		memset(page_address(r->pages[i]), TF_CANARY, PAGE_SIZE);
	}
	r->mr = mrc_alloc_mr(&f->pd->ibpd, IB_MR_TYPE_MEM_REG, max);
	KUNIT_ASSERT_FALSE(test, IS_ERR(r->mr));
	return r;
}

static void fr_free(struct fr *r)
{
	unsigned int i;

	if (r->mr && !IS_ERR(r->mr))
		mrc_dereg_mr(r->mr, NULL);
	for (i = 0; i < FR_PAGES; i++)
		if (r->pages[i])
			__free_page(r->pages[i]);
}

/*
 * Map pages @first.. (@n of them, in that order: page 2 then 0 tells a
 * page table from address order) as a ULP's ib_map_mr_sg() would, the
 * first from FR_SG_OFF.  DMA addresses of a soft device are kernel
 * virtual addresses.  Return: what mrc_map_mr_sg() returned.
 */
static int fr_map(struct fr *r, const unsigned int *order, int n)
{
	unsigned int off = FR_SG_OFF;
	int i;

	sg_init_table(r->sg, n);
	for (i = 0; i < n; i++) {
		struct page *p = r->pages[order[i]];

		sg_set_page(&r->sg[i], p, PAGE_SIZE, 0);
		sg_dma_address(&r->sg[i]) = (u64)(uintptr_t)page_address(p);
		sg_dma_len(&r->sg[i]) = PAGE_SIZE;
	}
	r->mr->page_size = PAGE_SIZE;
	return mrc_map_mr_sg(r->mr, r->sg, n, &off);
}

static int fr_post(struct fr *r, struct ib_send_wr *wr)
{
	const struct ib_send_wr *bad = NULL;

	return mrc_post_send(&r->f->qp->ibqp, wr, &bad);
}

static int fr_reg(struct fr *r, u32 key, u32 access, u64 wr_id)
{
	struct ib_reg_wr rw = {
		.wr = {
			.opcode = IB_WR_REG_MR,
			.wr_id = wr_id,
			.send_flags = IB_SEND_SIGNALED,
		},
		.mr = r->mr,
		.key = key,
		.access = access,
	};

	return fr_post(r, &rw.wr);
}

static int fr_inv(struct fr *r, u32 key, u64 wr_id)
{
	struct ib_send_wr wr = {
		.opcode = IB_WR_LOCAL_INV,
		.wr_id = wr_id,
		.send_flags = IB_SEND_SIGNALED,
		.ex.invalidate_rkey = key,
	};

	return fr_post(r, &wr);
}

/* The next send completion, waiting at most 10 s (a grace period). */
static void fr_expect_scqe(struct fr *r, u64 wr_id, enum ib_wc_status status,
			   enum ib_wc_opcode opcode)
{
	struct kunit *test = r->f->test;
	struct ib_wc wc = {};
	int i, n = 0;

	for (i = 0; i < 2000 && !n; i++) {
		n = tf_poll(r->f, r->f->scq, &wc, 1);
		if (!n)
			usleep_range(5000, 6000);
	}
	KUNIT_ASSERT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, wr_id);
	KUNIT_EXPECT_EQ(test, wc.status, status);
	if (status == IB_WC_SUCCESS)
		KUNIT_EXPECT_EQ(test, wc.opcode, opcode);
}

static void fr_expect_no_scqe(struct fr *r)
{
	struct ib_wc wc;

	KUNIT_EXPECT_EQ(r->f->test, tf_poll(r->f, r->f->scq, &wc, 1), 0);
}

/* A WRITE_ONLY from the peer of @len pattern bytes at @va under @rkey. */
static void fr_write(struct fr *r, u32 rkey, u64 va, const u8 *pat, u32 len)
{
	tf_peer_write(r->f, r->psn, r->msn, rkey, va, pat, len);
}

static void fr_expect_sack(struct fr *r)
{
	tf_expect_sack(r->f, r->psn + 1);
	r->psn++;
	r->msn++;
}

static void fr_expect_nack(struct fr *r, u8 reason)
{
	tf_expect_nack(r->f, reason);
}

static size_t fr_dirty(struct fr *r)
{
	size_t n = 0, off;
	unsigned int i;

	for (i = 0; i < FR_PAGES; i++)
		for (off = 0; off < PAGE_SIZE; off++)
			n += *fr_byte(r, i, off) != TF_CANARY;
	return n;
}

static const unsigned int order_20[] = { 2, 0 };
static const unsigned int order_1[] = { 1 };
static u8 pat[64];

static void fill_pat(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(pat); i++)
		pat[i] = (i * 11 + 3) & 0x7f;
}

/*
 * An MR of 4 pages, registered (under a new key, put in @key) over pages
 * @order (@n of them) with @access; the pattern filled.
 */
static struct fr *fr_registered(struct kunit *test, const unsigned int *order,
				int n, u32 access, u32 *key)
{
	struct fr *r = fr_make(test, 4);

	fill_pat();
	*key = ib_inc_rkey(r->mr->rkey);
	KUNIT_ASSERT_EQ(test, fr_map(r, order, n), n);
	KUNIT_ASSERT_EQ(test, fr_reg(r, *key, access, 1), 0);
	fr_expect_scqe(r, 1, IB_WC_SUCCESS, IB_WC_REG_MR);
	return r;
}

/*
 * A registration of pages 2 and 0, from byte FR_SG_OFF of page 2: a WRITE
 * across the boundary lands at the end of page 2 and the start of page 0,
 * and nowhere else; the completion says REG_MR.
 */
static void fastreg_write_lands_across_pages(struct kunit *test)
{
	struct fr *r = fr_make(test, 4);
	u32 key = ib_inc_rkey(r->mr->rkey);
	u64 iova;

	fill_pat();
	KUNIT_ASSERT_EQ(test, fr_map(r, order_20, 2), 2);
	iova = r->mr->iova;
	KUNIT_EXPECT_EQ(test, r->mr->length, 2 * PAGE_SIZE - FR_SG_OFF);
	KUNIT_ASSERT_EQ(test, fr_reg(r, key, FR_ACCESS, 1), 0);
	fr_expect_scqe(r, 1, IB_WC_SUCCESS, IB_WC_REG_MR);
	KUNIT_EXPECT_EQ(test, r->mr->rkey, key);
	KUNIT_EXPECT_EQ(test, r->mr->lkey, key);

	/* 32 bytes before the end of page 2, 32 into page 0. */
	fr_write(r, key, iova + PAGE_SIZE - FR_SG_OFF - 32, pat, 64);
	fr_expect_sack(r);
	KUNIT_EXPECT_EQ(test, memcmp(fr_byte(r, 2, PAGE_SIZE - 32), pat, 32), 0);
	KUNIT_EXPECT_EQ(test, memcmp(fr_byte(r, 0, 0), pat + 32, 32), 0);
	KUNIT_EXPECT_EQ(test, fr_dirty(r), 64U);
	fr_free(r);
}

/* Mapped but not registered, the MR is no one's. */
static void fastreg_mapped_not_registered_refused(struct kunit *test)
{
	struct fr *r = fr_make(test, 4);

	fill_pat();
	KUNIT_ASSERT_EQ(test, fr_map(r, order_20, 2), 2);
	fr_write(r, r->mr->rkey, r->mr->iova, pat, 16);
	fr_expect_nack(r, MRC_NACK_RKEY_VIOLATION);
	KUNIT_EXPECT_EQ(test, fr_dirty(r), 0U);
	fr_free(r);
}

/* Registered under a new key, the MR's old key finds nothing. */
static void fastreg_old_key_refused(struct kunit *test)
{
	struct fr *r = fr_make(test, 4);
	u32 old = r->mr->rkey, key = ib_inc_rkey(old);

	fill_pat();
	KUNIT_ASSERT_EQ(test, fr_map(r, order_20, 2), 2);
	KUNIT_ASSERT_EQ(test, fr_reg(r, key, FR_ACCESS, 1), 0);
	fr_expect_scqe(r, 1, IB_WC_SUCCESS, IB_WC_REG_MR);
	fr_write(r, old, r->mr->iova, pat, 16);
	fr_expect_nack(r, MRC_NACK_RKEY_VIOLATION);
	KUNIT_EXPECT_EQ(test, fr_dirty(r), 0U);
	fr_free(r);
}

/*
 * LOCAL_INV: completes (after a grace period) with IB_WC_LOCAL_INV, and
 * from then on the key writes nothing; a second one changes nothing.
 */
static void fastreg_local_inv_then_refused(struct kunit *test)
{
	u32 key;
	struct fr *r = fr_registered(test, order_1, 1, FR_ACCESS, &key);

	fr_write(r, key, r->mr->iova, pat, 16);
	fr_expect_sack(r);
	KUNIT_EXPECT_EQ(test, fr_dirty(r), 16U);

	KUNIT_ASSERT_EQ(test, fr_inv(r, key, 2), 0);
	fr_expect_scqe(r, 2, IB_WC_SUCCESS, IB_WC_LOCAL_INV);
	/* Invalidating it again is no error, as on rdma_rxe. */
	KUNIT_ASSERT_EQ(test, fr_inv(r, key, 3), 0);
	fr_expect_scqe(r, 3, IB_WC_SUCCESS, IB_WC_LOCAL_INV);
	fr_write(r, key, r->mr->iova + 16, pat, 16);
	fr_expect_nack(r, MRC_NACK_RKEY_VIOLATION);
	KUNIT_EXPECT_EQ(test, fr_dirty(r), 16U);
	fr_free(r);
}

/*
 * Registered again after an invalidation without a new ib_map_mr_sg(), as
 * some ULPs do: the same pages, under the new key only.
 */
static void fastreg_reregister_keeps_pages(struct kunit *test)
{
	struct fr *r = fr_make(test, 4);
	u32 k1 = ib_inc_rkey(r->mr->rkey), k2 = ib_inc_rkey(k1);

	fill_pat();
	KUNIT_ASSERT_EQ(test, fr_map(r, order_1, 1), 1);
	KUNIT_ASSERT_EQ(test, fr_reg(r, k1, FR_ACCESS, 1), 0);
	KUNIT_ASSERT_EQ(test, fr_inv(r, k1, 2), 0);
	KUNIT_ASSERT_EQ(test, fr_reg(r, k2, FR_ACCESS, 3), 0);
	fr_expect_scqe(r, 1, IB_WC_SUCCESS, IB_WC_REG_MR);
	fr_expect_scqe(r, 2, IB_WC_SUCCESS, IB_WC_LOCAL_INV);
	fr_expect_scqe(r, 3, IB_WC_SUCCESS, IB_WC_REG_MR);

	fr_write(r, k2, r->mr->iova + 8, pat, 16);
	fr_expect_sack(r);
	KUNIT_EXPECT_EQ(test, memcmp(fr_byte(r, 1, FR_SG_OFF + 8), pat, 16), 0);
	KUNIT_EXPECT_EQ(test, fr_dirty(r), 16U);
	fr_write(r, k1, r->mr->iova, pat, 16);
	fr_expect_nack(r, MRC_NACK_RKEY_VIOLATION);
	KUNIT_EXPECT_EQ(test, fr_dirty(r), 16U);
	fr_free(r);
}

/* A WRITE one byte past the registration is refused and writes nothing. */
static void fastreg_write_past_end_refused(struct kunit *test)
{
	u32 key;
	struct fr *r = fr_registered(test, order_1, 1, FR_ACCESS, &key);

	fr_write(r, key, r->mr->iova + r->mr->length - 15, pat, 16);
	fr_expect_nack(r, MRC_NACK_ACCESS);
	KUNIT_EXPECT_EQ(test, fr_dirty(r), 0U);
	fr_free(r);
}

/* Without remote write in the registration, a WRITE is an access error. */
static void fastreg_rights_are_the_registrations(struct kunit *test)
{
	u32 key;
	struct fr *r = fr_registered(test, order_1, 1, IB_ACCESS_LOCAL_WRITE |
				     IB_ACCESS_REMOTE_READ, &key);

	fr_write(r, key, r->mr->iova, pat, 16);
	fr_expect_nack(r, MRC_NACK_ACCESS);
	KUNIT_EXPECT_EQ(test, fr_dirty(r), 0U);
	fr_free(r);
}

/*
 * REG_MR of a registered MR, with another MR's index in its key, or
 * before any mapping, and LOCAL_INV of a key not in force: each completes
 * with IB_WC_LOC_QP_OP_ERR and the QP fails (the WRs after it flush).
 */
static void fastreg_bad_wr_fails_qp(struct kunit *test)
{
	struct tf *f = test->priv;
	struct fr *r;
	u32 key;
	int kind;

	for (kind = 0; kind < 4; kind++) {
		r = fr_make(test, 4);
		key = ib_inc_rkey(r->mr->rkey);
		if (kind != 2)
			KUNIT_ASSERT_EQ(test, fr_map(r, order_1, 1), 1);
		switch (kind) {
		case 0:		/* registered twice */
			KUNIT_ASSERT_EQ(test, fr_reg(r, key, FR_ACCESS, 1), 0);
			fr_expect_scqe(r, 1, IB_WC_SUCCESS, IB_WC_REG_MR);
			KUNIT_ASSERT_EQ(test, fr_reg(r, ib_inc_rkey(key),
						     FR_ACCESS, 2), 0);
			break;
		case 1:		/* another index */
			KUNIT_ASSERT_EQ(test, fr_reg(r, key + 0x100,
						     FR_ACCESS, 2), 0);
			break;
		case 2:		/* never mapped */
			KUNIT_ASSERT_EQ(test, fr_reg(r, key, FR_ACCESS, 2), 0);
			break;
		default:	/* invalidating a key not in force */
			KUNIT_ASSERT_EQ(test, fr_inv(r, key, 2), 0);
			break;
		}
		fr_expect_scqe(r, 2, IB_WC_LOC_QP_OP_ERR, 0);
		KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
		fr_expect_no_scqe(r);
		fr_free(r);
		/* The next kind on a fresh QP. */
		tf_exit(test);
		KUNIT_ASSERT_EQ(test, tf_init(test), 0);
		f = test->priv;
	}
}

/*
 * The requester sends a WRITE's bytes from a registration (the local SGE
 * names the fast key): pages in the registration's order.
 */
static void fastreg_local_sge_sends_registered_bytes(struct kunit *test)
{
	struct tf *f = test->priv;
	struct fr *r = fr_make(test, 4);
	u32 key = ib_inc_rkey(r->mr->rkey);
	struct rxe_send_wqe *w;
	struct mrc_hdrs h;
	u8 got[64];

	fill_pat();
	KUNIT_ASSERT_EQ(test, fr_map(r, order_20, 2), 2);
	KUNIT_ASSERT_EQ(test, fr_reg(r, key, FR_ACCESS, 1), 0);
	fr_expect_scqe(r, 1, IB_WC_SUCCESS, IB_WC_REG_MR);
	memcpy(fr_byte(r, 2, PAGE_SIZE - 32), pat, 32);
	memcpy(fr_byte(r, 0, 0), pat + 32, 32);

	w = tf_sq_next(f);
	w->wr.wr_id = 7;
	w->wr.opcode = IB_WR_RDMA_WRITE;
	w->wr.send_flags = IB_SEND_SIGNALED;
	w->wr.wr.rdma.remote_addr = 0x1000;
	w->wr.wr.rdma.rkey = 0x4242;
	w->dma.length = 64;
	w->dma.resid = 64;
	w->dma.num_sge = 1;
	w->dma.sge[0].addr = r->mr->iova + PAGE_SIZE - FR_SG_OFF - 32;
	w->dma.sge[0].length = 64;
	w->dma.sge[0].lkey = key;
	tf_sq_publish(f);
	tf_req_run(f);

	tf_pop_payload(f, &h, got, sizeof(got));
	KUNIT_EXPECT_EQ(test, h.opcode, MRC_OP_WRITE_ONLY);
	KUNIT_ASSERT_EQ(test, h.payload_len, 64U);
	KUNIT_EXPECT_EQ(test, memcmp(got, pat, 64), 0);
	fr_free(r);
}

/*
 * A user QP's WQE names no kernel MR: REG_MR and LOCAL_INV there complete
 * with IB_WC_LOC_QP_OP_ERR without following the pointer in the WQE.
 */
static void fastreg_user_qp_refused(struct kunit *test)
{
	struct tf *f = test->priv;
	struct rxe_send_wqe *w;
	struct ib_wc wc = {};

	f->qp->is_user = true;
	w = tf_sq_next(f);
	w->wr.wr_id = 9;
	w->wr.opcode = IB_WR_REG_MR;
	w->wr.send_flags = IB_SEND_SIGNALED;
	/* What a hostile user would write: a kernel address of its choice. */
	w->wr.wr.reg.reserved = 0xffff888000000000ULL;
	tf_sq_publish(f);
	tf_req_run(f);
	f->qp->is_user = false;

	KUNIT_ASSERT_EQ(test, tf_poll(f, f->scq, &wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 9U);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_LOC_QP_OP_ERR);
	KUNIT_EXPECT_EQ(test, f->qp->state, IB_QPS_ERR);
}

/*
 * A reader that found a registration before its LOCAL_INV (here: this
 * case, inside rcu_read_lock()) sees it unchanged while the ULP registers
 * the MR again and maps the next I/O twice: the maps written are new ones.
 */
static void fastreg_reader_keeps_its_map(struct kunit *test)
{
	struct fr *r = fr_make(test, 4);
	struct mrc_mr *mr = to_mmr(r->mr), *seen;
	u32 k1 = ib_inc_rkey(r->mr->rkey), k2 = ib_inc_rkey(k1);
	u64 va0;

	KUNIT_ASSERT_EQ(test, fr_map(r, order_20, 2), 2);
	KUNIT_ASSERT_EQ(test, fr_reg(r, k1, FR_ACCESS, 1), 0);
	fr_expect_scqe(r, 1, IB_WC_SUCCESS, IB_WC_REG_MR);
	KUNIT_ASSERT_EQ(test, fr_map(r, order_1, 1), 1);

	rcu_read_lock();
	seen = mrc_mr_lookup(r->f->mdev, k1);
	KUNIT_EXPECT_NOT_NULL(test, seen);
	if (!seen) {
		rcu_read_unlock();
		fr_free(r);
		return;
	}
	va0 = seen->fr_va[0];
	KUNIT_EXPECT_EQ(test, fr_inv(r, k1, 2), 0);
	KUNIT_EXPECT_EQ(test, fr_reg(r, k2, FR_ACCESS, 3), 0);
	/*
	 * Both maps of the MR are now its live one and the one @seen is:
	 * other pages, written in place, would change what @seen says.
	 */
	KUNIT_EXPECT_EQ(test, fr_map(r, order_1, 1), 1);
	KUNIT_EXPECT_EQ(test, fr_map(r, order_1, 1), 1);
	KUNIT_EXPECT_EQ(test, seen->fr_va[0], va0);
	KUNIT_EXPECT_EQ(test, seen->fr_npages, 2U);
	KUNIT_EXPECT_EQ(test, seen->ibmr.lkey, k1);
	KUNIT_EXPECT_PTR_NE(test, mr->fr_stage, seen);
	KUNIT_EXPECT_NULL(test, mrc_mr_lookup(r->f->mdev, k1));
	KUNIT_EXPECT_NOT_NULL(test, mrc_mr_lookup(r->f->mdev, k2));
	rcu_read_unlock();

	fr_expect_scqe(r, 2, IB_WC_SUCCESS, IB_WC_LOCAL_INV);
	fr_expect_scqe(r, 3, IB_WC_SUCCESS, IB_WC_REG_MR);
	fr_free(r);
}

/*
 * A fenced WR behind one the same pass executed runs at once: nothing
 * else would start the requester again.
 */
static void fastreg_fence_behind_reg_runs(struct kunit *test)
{
	struct fr *a = fr_make(test, 4), *b = fr_make(test, 4);
	struct ib_reg_wr ra = {
		.wr = { .opcode = IB_WR_REG_MR, .wr_id = 1,
			.send_flags = IB_SEND_SIGNALED },
		.mr = a->mr, .key = ib_inc_rkey(a->mr->rkey), .access = FR_ACCESS,
	};
	struct ib_reg_wr rb = {
		.wr = { .opcode = IB_WR_REG_MR, .wr_id = 2,
			.send_flags = IB_SEND_SIGNALED | IB_SEND_FENCE },
		.mr = b->mr, .key = ib_inc_rkey(b->mr->rkey), .access = FR_ACCESS,
	};

	KUNIT_ASSERT_EQ(test, fr_map(a, order_1, 1), 1);
	KUNIT_ASSERT_EQ(test, fr_map(b, order_20, 2), 2);
	ra.wr.next = &rb.wr;
	KUNIT_ASSERT_EQ(test, fr_post(a, &ra.wr), 0);
	fr_expect_scqe(a, 1, IB_WC_SUCCESS, IB_WC_REG_MR);
	fr_expect_scqe(a, 2, IB_WC_SUCCESS, IB_WC_REG_MR);
	fr_free(b);
	fr_free(a);
}

/*
 * A SEND_ONLY_INV from the peer: @len bytes, invalidating @rkey, @ahead
 * PSNs and messages past the next expected ones.
 */
static void fr_send_inv_at(struct fr *r, u32 rkey, u32 len, u32 ahead)
{
	struct mrc_hdrs h = {
		.opcode = MRC_OP_SEND_ONLY_INV,
		.flags = MRC_BTH_F_ACK_REQ,
		.dqpn = 0x10,
		.psn = r->psn + ahead,
		.ev = 0xbeef,
		.msn = r->msn + ahead,
		.rq_msn = ahead,
		.dma_len = len,
		.payload_len = len,
		.inv_rkey = rkey,
	};

	tf_resp_rcv(r->f, &h, pat);
}

static void fr_send_inv(struct fr *r, u32 rkey, u32 len)
{
	fr_send_inv_at(r, rkey, len, 0);
}

/*
 * SEND_WITH_INV: the receive completion says which rkey it invalidated
 * (IB_WC_WITH_INVALIDATE), and from then on the key writes nothing.
 */
static void fastreg_send_with_inv_invalidates(struct kunit *test)
{
	u32 key;
	struct ib_wc wc = {};
	struct fr *r = fr_registered(test, order_1, 1, FR_ACCESS, &key);

	KUNIT_ASSERT_EQ(test, tf_post_recv(r->f, 0x51, 0, 64), 0);

	fr_send_inv(r, key, 32);
	fr_expect_sack(r);
	KUNIT_ASSERT_EQ(test, tf_poll(r->f, r->f->rcq, &wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 0x51U);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 32U);
	KUNIT_EXPECT_EQ(test, wc.wc_flags, IB_WC_WITH_INVALIDATE);
	KUNIT_EXPECT_EQ(test, wc.ex.invalidate_rkey, key);
	KUNIT_EXPECT_EQ(test, memcmp(tf_mr_byte(r->f, 0), pat, 32), 0);

	fr_write(r, key, r->mr->iova, pat, 16);
	fr_expect_nack(r, MRC_NACK_RKEY_VIOLATION);
	KUNIT_EXPECT_EQ(test, fr_dirty(r), 0U);
	fr_free(r);
}

/*
 * A SEND_WITH_INV naming a key not in force (here: the fixture's user-style
 * MR, which no one may invalidate): ahead of cum_psn (a blind forger's
 * odds) it is dropped unanswered and the QP lives; at cum_psn the receive
 * completes with IB_WC_REM_INV_REQ_ERR, the peer gets an invalid-request
 * NACK and the QP fails; the MR stays usable.
 */
static void fastreg_send_with_bad_inv_fails_qp(struct kunit *test)
{
	struct fr *r = fr_make(test, 4);
	struct ib_wc wc = {};
	int i;

	fill_pat();
	/* Receive WQEs for the forged one too: only its rkey is wrong. */
	for (i = 0; i < 6; i++)
		KUNIT_ASSERT_EQ(test, tf_post_recv(r->f, 0x52 + i, i * 64, 64),
				0);
	fr_send_inv_at(r, TF_MR_KEY, 32, 5);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&r->f->out), 0U);
	KUNIT_EXPECT_EQ(test, r->f->qp->state, IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, tf_count(r->f, MRC_CNT_RX_DEFERRED_NACKS), 1U);
	KUNIT_EXPECT_EQ(test, tf_count(r->f, MRC_CNT_NACK_TX_RNR), 0U);
	KUNIT_EXPECT_EQ(test, tf_poll(r->f, r->f->rcq, &wc, 1), 0);

	fr_send_inv(r, TF_MR_KEY, 32);
	fr_expect_nack(r, MRC_NACK_INVALID_REQUEST);
	KUNIT_ASSERT_EQ(test, tf_poll(r->f, r->f->rcq, &wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 0x52U);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_REM_INV_REQ_ERR);
	KUNIT_ASSERT_EQ(test, tf_poll(r->f, r->f->rcq, &wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 0x53U);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, r->f->qp->state, IB_QPS_ERR);
	rcu_read_lock();
	KUNIT_EXPECT_PTR_EQ(test, mrc_mr_lookup(r->f->mdev, TF_MR_KEY),
			    r->f->mr);
	rcu_read_unlock();
	fr_free(r);
}

/* The requester's SEND_WITH_INV: its only packet carries the rkey. */
static void fastreg_send_with_inv_on_the_wire(struct kunit *test)
{
	struct tf *f = test->priv;
	struct rxe_send_wqe *w;
	struct mrc_hdrs h;

	w = tf_sq_next(f);
	w->wr.wr_id = 8;
	w->wr.opcode = IB_WR_SEND_WITH_INV;
	w->wr.send_flags = IB_SEND_SIGNALED;
	w->wr.ex.invalidate_rkey = 0x12345678;
	w->dma.length = 16;
	w->dma.resid = 16;
	w->dma.num_sge = 1;
	w->dma.sge[0].addr = TF_MR_IOVA;
	w->dma.sge[0].length = 16;
	w->dma.sge[0].lkey = TF_MR_KEY;
	tf_sq_publish(f);
	tf_req_run(f);

	tf_pop(f, &h);
	KUNIT_EXPECT_EQ(test, h.opcode, MRC_OP_SEND_ONLY_INV);
	KUNIT_EXPECT_EQ(test, h.inv_rkey, 0x12345678U);
	KUNIT_EXPECT_EQ(test, h.payload_len, 16U);
	KUNIT_EXPECT_EQ(test, h.rq_msn, 0U);
}

/* What ib_alloc_mr() and ib_map_mr_sg() may ask. */
static void fastreg_alloc_and_map_limits(struct kunit *test)
{
	struct tf *f = test->priv;
	unsigned int order[] = { 0, 1, 2 };
	struct ib_mr *mr;
	struct fr *r;

	mr = mrc_alloc_mr(&f->pd->ibpd, IB_MR_TYPE_MEM_REG, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mr), -EINVAL);
	mr = mrc_alloc_mr(&f->pd->ibpd, IB_MR_TYPE_MEM_REG,
			  MRC_MAX_FR_PAGES + 1);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mr), -EINVAL);
	mr = mrc_alloc_mr(&f->pd->ibpd, IB_MR_TYPE_SG_GAPS, 4);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mr), -EOPNOTSUPP);
	mr = mrc_alloc_mr(&f->pd->ibpd, IB_MR_TYPE_MEM_REG, MRC_MAX_FR_PAGES);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	mrc_dereg_mr(mr, NULL);

	/* Three pages into an MR of two: two are mapped. */
	r = fr_make(test, 2);
	KUNIT_EXPECT_EQ(test, fr_map(r, order, 3), 2);
	fr_free(r);
}

static struct kunit_case mrc_fastreg_cases[] = {
	KUNIT_CASE(fastreg_write_lands_across_pages),
	KUNIT_CASE(fastreg_mapped_not_registered_refused),
	KUNIT_CASE(fastreg_old_key_refused),
	KUNIT_CASE(fastreg_local_inv_then_refused),
	KUNIT_CASE(fastreg_reregister_keeps_pages),
	KUNIT_CASE(fastreg_write_past_end_refused),
	KUNIT_CASE(fastreg_rights_are_the_registrations),
	KUNIT_CASE(fastreg_bad_wr_fails_qp),
	KUNIT_CASE(fastreg_local_sge_sends_registered_bytes),
	KUNIT_CASE(fastreg_user_qp_refused),
	KUNIT_CASE(fastreg_reader_keeps_its_map),
	KUNIT_CASE(fastreg_fence_behind_reg_runs),
	KUNIT_CASE(fastreg_send_with_inv_invalidates),
	KUNIT_CASE(fastreg_send_with_bad_inv_fails_qp),
	KUNIT_CASE(fastreg_send_with_inv_on_the_wire),
	KUNIT_CASE(fastreg_alloc_and_map_limits),
	{}
};

static struct kunit_suite mrc_fastreg_suite = {
	.name = "mrc-fastreg",
	.init = tf_init,
	.exit = tf_exit,
	.test_cases = mrc_fastreg_cases,
};

kunit_test_suite(mrc_fastreg_suite);
