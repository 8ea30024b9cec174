// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "mrc-mw": memory windows on the fixture's QP and MR.  A bind
 * posted as a user WQE, a peer's WRITEs through the window (inside it, at
 * its edges, past them, under old keys), zero-based translation, the rules
 * a bind must follow, the type 2 window's tie to its QP (no other QP uses
 * or invalidates it), and the MR a bound window holds.
 */
#include <kunit/test.h>
#include <linux/delay.h>

#include "qp_fixture.h"

#define MW_OFF		1000	/* the window starts here in the fixture's MR */
#define MW_LEN		512
#define MW_RW		(IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE)

struct mwt {
	struct tf *f;
	struct mrc_mw *mw;
	u32 psn;	/* the responder's next expected PSN */
	u32 msn;
	u64 va;		/* where the last resolve landed in the MR */
};

static u8 pat[64];

/* A window of @type of the fixture's PD; the fixture's MR may bind. */
static struct mwt *mwt_make(struct kunit *test, enum ib_mw_type type)
{
	struct tf *f = test->priv;
	struct mwt *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->f = f;
	t->psn = 100;
	t->mw = kunit_kzalloc(test, sizeof(*t->mw), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->mw);
	t->mw->ibmw.device = &f->mdev->ib;
	t->mw->ibmw.pd = &f->pd->ibpd;
	t->mw->ibmw.type = type;
	KUNIT_ASSERT_EQ(test, mrc_alloc_mw(&t->mw->ibmw, NULL), 0);
	KUNIT_EXPECT_TRUE(test, mrc_key_is_mw(t->mw->ibmw.rkey));
	f->mr->access |= IB_ACCESS_MW_BIND;
	memset(pat, 0x5a, sizeof(pat));
	return t;
}

static void mwt_free(struct mwt *t)
{
	KUNIT_EXPECT_EQ(t->f->test, mrc_dealloc_mw(&t->mw->ibmw), 0);
	KUNIT_EXPECT_EQ(t->f->test, atomic_read(&t->f->mr->num_mw), 0);
}

/* A bind of the window to MR bytes [@off, +@len), its next key's byte @k. */
static struct mrc_mw_bind mwt_bind_of(struct mwt *t, u64 off, u64 len,
				      u32 access, u8 k)
{
	return (struct mrc_mw_bind) {
		.addr = TF_MR_IOVA + off,
		.length = len,
		.mr_lkey = TF_MR_KEY,
		.mw_rkey = t->mw->ibmw.rkey,
		.rkey = (t->mw->ibmw.rkey & ~0xffU) | k,
		.access = access,
	};
}

static int mwt_bind(struct mwt *t, u64 off, u64 len, u32 access, u8 k)
{
	struct mrc_mw_bind b = mwt_bind_of(t, off, len, access, k);
	unsigned long gp;
	int err;

	spin_lock_bh(&t->f->qp->lock);
	err = mrc_mw_bind(t->f->qp, &b, &gp);
	spin_unlock_bh(&t->f->qp->lock);
	return err;
}

/* A peer's one-packet WRITE of @len pattern bytes at @va under @rkey. */
static void mwt_write(struct mwt *t, u32 rkey, u64 va, u32 len)
{
	tf_peer_write(t->f, t->psn, t->msn, rkey, va, pat, len);
}

static void mwt_expect_sack(struct mwt *t)
{
	tf_expect_sack(t->f, t->psn + 1);
	t->psn++;
	t->msn++;
}

/*
 * mrc_mw_resolve() of @len bytes at @va as the receive path calls it: the
 * error, or 0 and the MR address in @t->va.
 */
static int mwt_resolve(struct mwt *t, u32 key, u64 va, u64 len, u32 access)
{
	struct mrc_mr *mr;

	rcu_read_lock();
	spin_lock_bh(&t->f->qp->lock);
	mr = mrc_mw_resolve(t->f->qp, key, &va, len, access);
	spin_unlock_bh(&t->f->qp->lock);
	rcu_read_unlock();
	if (IS_ERR(mr))
		return PTR_ERR(mr);
	KUNIT_EXPECT_PTR_EQ(t->f->test, mr, t->f->mr);
	t->va = va;
	return 0;
}

/* Does a peer's SEND_WITH_INV of @key pass, and what does it, or LOCAL_INV, do? */
static bool mwt_inv_ok(struct mwt *t, u32 key)
{
	bool ok;

	rcu_read_lock();
	spin_lock_bh(&t->f->qp->lock);
	ok = mrc_mw_inv_ok(t->f->qp, key);
	spin_unlock_bh(&t->f->qp->lock);
	rcu_read_unlock();
	return ok;
}

static int mwt_invalidate(struct mwt *t, u32 key, bool remote)
{
	int err;

	spin_lock_bh(&t->f->qp->lock);
	err = mrc_mw_invalidate(t->f->qp, key, remote, NULL);
	spin_unlock_bh(&t->f->qp->lock);
	return err;
}

/*
 * A user QP's BIND_MW WQE binds a type 2 window and completes BIND_MW; a
 * peer's WRITEs land inside it, up to its last byte, and one that runs a
 * byte past it is refused and writes nothing.
 */
static void mw_bind_wqe_then_write(struct kunit *test)
{
	struct mwt *t = mwt_make(test, IB_MW_TYPE_2);
	struct tf *f = t->f;
	struct rxe_send_wqe *w;
	struct ib_wc wc = {};
	u32 key = ib_inc_rkey(t->mw->ibmw.rkey);

	f->qp->is_user = true;
	w = tf_sq_next(f);
	w->wr.wr_id = 3;
	w->wr.opcode = IB_WR_BIND_MW;
	w->wr.send_flags = IB_SEND_SIGNALED;
	w->wr.wr.mw.addr = TF_MR_IOVA + MW_OFF;
	w->wr.wr.mw.length = MW_LEN;
	w->wr.wr.mw.mr_lkey = TF_MR_KEY;
	w->wr.wr.mw.mw_rkey = t->mw->ibmw.rkey;
	w->wr.wr.mw.rkey = key;
	w->wr.wr.mw.access = MW_RW;
	tf_sq_publish(f);
	tf_req_run(f);
	f->qp->is_user = false;
	KUNIT_ASSERT_EQ(test, tf_poll(f, f->scq, &wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 3U);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_BIND_MW);
	KUNIT_EXPECT_EQ(test, t->mw->ibmw.rkey, key);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->mr->num_mw), 1);

	mwt_write(t, key, TF_MR_IOVA + MW_OFF, 16);
	mwt_expect_sack(t);
	mwt_write(t, key, TF_MR_IOVA + MW_OFF + MW_LEN - 16, 16);
	mwt_expect_sack(t);
	KUNIT_EXPECT_EQ(test, memcmp(tf_mr_byte(f, MW_OFF), pat, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(tf_mr_byte(f, MW_OFF + MW_LEN - 16), pat,
				     16), 0);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, TF_NPAGES * PAGE_SIZE), 32U);

	mwt_write(t, key, TF_MR_IOVA + MW_OFF + MW_LEN - 15, 16);
	tf_expect_nack(t->f, MRC_NACK_ACCESS);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, TF_NPAGES * PAGE_SIZE), 32U);
	mwt_free(t);
}

/*
 * A zero-based window: the peer's address counts from the window's start;
 * its edges hold, and an address near the top of the address space does
 * not wrap into it.
 */
static void mw_zero_based_translates(struct kunit *test)
{
	struct mwt *t = mwt_make(test, IB_MW_TYPE_2);
	u32 key;

	KUNIT_ASSERT_EQ(test, mwt_bind(t, MW_OFF, MW_LEN,
				       MW_RW | IB_ZERO_BASED, 7), 0);
	key = t->mw->ibmw.rkey;
	KUNIT_EXPECT_EQ(test, mwt_resolve(t, key, 0, MW_LEN,
					  IB_ACCESS_REMOTE_WRITE), 0);
	KUNIT_EXPECT_EQ(test, t->va, TF_MR_IOVA + MW_OFF);
	KUNIT_EXPECT_EQ(test, mwt_resolve(t, key, MW_LEN - 8, 8,
					  IB_ACCESS_REMOTE_READ), 0);
	KUNIT_EXPECT_EQ(test, t->va, TF_MR_IOVA + MW_OFF + MW_LEN - 8);
	KUNIT_EXPECT_EQ(test, mwt_resolve(t, key, MW_LEN - 7, 8,
					  IB_ACCESS_REMOTE_READ), -ERANGE);
	KUNIT_EXPECT_EQ(test, mwt_resolve(t, key, U64_MAX - 3, 8,
					  IB_ACCESS_REMOTE_READ), -ERANGE);
	KUNIT_EXPECT_EQ(test, mwt_resolve(t, key, 0, 8,
					  IB_ACCESS_REMOTE_ATOMIC), -EACCES);

	mwt_write(t, key, 16, 16);
	mwt_expect_sack(t);
	KUNIT_EXPECT_EQ(test, memcmp(tf_mr_byte(t->f, MW_OFF + 16), pat, 16),
			0);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(t->f, 0, TF_NPAGES * PAGE_SIZE), 16U);
	mwt_free(t);
}

/* Binds the InfiniBand rules forbid are refused and change nothing. */
static void mw_bind_rules(struct kunit *test)
{
	struct mwt *t1 = mwt_make(test, IB_MW_TYPE_1);
	struct mwt *t2 = mwt_make(test, IB_MW_TYPE_2);
	struct tf *f = t1->f;
	struct mrc_mw_bind b;
	unsigned long gp;
	u32 k1, old;

	/* type 1: never zero based; rights beyond remote ones refused */
	KUNIT_EXPECT_EQ(test, mwt_bind(t1, 0, 64, IB_ZERO_BASED | MW_RW, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mwt_bind(t1, 0, 64, IB_ACCESS_LOCAL_WRITE, 1),
			-EINVAL);
	/* outside the MR, by one byte at either end */
	KUNIT_EXPECT_EQ(test, mwt_bind(t1, TF_MR_LEN - 63, 64, MW_RW, 1),
			-EINVAL);
	b = mwt_bind_of(t1, 0, 64, MW_RW, 1);
	b.addr = TF_MR_IOVA - 1;
	spin_lock_bh(&f->qp->lock);
	KUNIT_EXPECT_EQ(test, mrc_mw_bind(f->qp, &b, &gp), -EINVAL);
	/* by a key the window does not have */
	b = mwt_bind_of(t1, 0, 64, MW_RW, 1);
	b.mw_rkey ^= 0x80;
	KUNIT_EXPECT_EQ(test, mrc_mw_bind(f->qp, &b, &gp), -EINVAL);
	/* to an MR it may not bind to, or not write through */
	f->mr->access &= ~IB_ACCESS_MW_BIND;
	b = mwt_bind_of(t1, 0, 64, IB_ACCESS_REMOTE_READ, 1);
	KUNIT_EXPECT_EQ(test, mrc_mw_bind(f->qp, &b, &gp), -EINVAL);
	f->mr->access = IB_ACCESS_REMOTE_READ | IB_ACCESS_MW_BIND;
	b = mwt_bind_of(t1, 0, 64, IB_ACCESS_REMOTE_WRITE, 1);
	KUNIT_EXPECT_EQ(test, mrc_mw_bind(f->qp, &b, &gp), -EINVAL);
	f->mr->access = IB_ACCESS_LOCAL_WRITE | MW_RW | IB_ACCESS_MW_BIND;
	spin_unlock_bh(&f->qp->lock);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->mr->num_mw), 0);

	/*
	 * type 1 rebinds in place (1: its completion waits a grace period):
	 * the old key finds nothing
	 */
	KUNIT_ASSERT_EQ(test, mwt_bind(t1, 0, 64, MW_RW, 1), 0);
	old = t1->mw->ibmw.rkey;
	KUNIT_ASSERT_EQ(test, mwt_bind(t1, 64, 64, MW_RW, 2), 1);
	k1 = t1->mw->ibmw.rkey;
	KUNIT_EXPECT_NE(test, k1, old);
	KUNIT_EXPECT_EQ(test, mwt_resolve(t1, old, TF_MR_IOVA, 8,
					  IB_ACCESS_REMOTE_READ), -ENOENT);
	KUNIT_EXPECT_EQ(test, mwt_resolve(t1, k1, TF_MR_IOVA + 64, 64,
					  IB_ACCESS_REMOTE_READ), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->mr->num_mw), 1);
	/* a bind of no bytes unbinds a type 1 window */
	KUNIT_ASSERT_EQ(test, mwt_bind(t1, 0, 0, 0, 3), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->mr->num_mw), 0);

	/* type 2: never to no bytes, never twice */
	KUNIT_EXPECT_EQ(test, mwt_bind(t2, 0, 0, MW_RW, 1), -EINVAL);
	KUNIT_ASSERT_EQ(test, mwt_bind(t2, 0, 64, MW_RW, 1), 0);
	KUNIT_EXPECT_EQ(test, mwt_bind(t2, 0, 64, MW_RW, 2), -EINVAL);
	/* and a type 1 window is never invalidated */
	KUNIT_EXPECT_EQ(test, mwt_invalidate(t1, t1->mw->ibmw.rkey, false),
			-EINVAL);
	mwt_free(t2);
	mwt_free(t1);
}

/*
 * A type 2 window belongs to the QP it was bound on: another QP of the
 * same PD (here: the fixture's QP under another serial) can neither use
 * nor remotely invalidate it, though its own QP's owner can by LOCAL_INV.
 */
static void mw_type2_tied_to_its_qp(struct kunit *test)
{
	struct mwt *t = mwt_make(test, IB_MW_TYPE_2);
	struct tf *f = t->f;
	u64 serial = f->qp->serial;
	u32 key;

	KUNIT_ASSERT_EQ(test, mwt_bind(t, 0, 64, MW_RW, 9), 0);
	key = t->mw->ibmw.rkey;

	f->qp->serial = serial + 1;
	KUNIT_EXPECT_EQ(test, mwt_resolve(t, key, TF_MR_IOVA, 8,
					  IB_ACCESS_REMOTE_READ), -ENOENT);
	KUNIT_EXPECT_FALSE(test, mwt_inv_ok(t, key));
	KUNIT_EXPECT_EQ(test, mwt_invalidate(t, key, true), -EINVAL);
	f->qp->serial = serial;

	KUNIT_EXPECT_EQ(test, mwt_resolve(t, key, TF_MR_IOVA, 8,
					  IB_ACCESS_REMOTE_READ), 0);
	KUNIT_EXPECT_TRUE(test, mwt_inv_ok(t, key));
	KUNIT_EXPECT_EQ(test, mwt_invalidate(t, key, true), 0);
	/* free under the same key: done already, no error */
	KUNIT_EXPECT_EQ(test, mwt_invalidate(t, key, false), 0);
	KUNIT_EXPECT_FALSE(test, mwt_inv_ok(t, key));
	KUNIT_EXPECT_EQ(test, mwt_resolve(t, key, TF_MR_IOVA, 8,
					  IB_ACCESS_REMOTE_READ), -ENOENT);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->mr->num_mw), 0);
	/* the peer's WRITE under the freed key: an rkey violation */
	mwt_write(t, key, TF_MR_IOVA, 16);
	tf_expect_nack(t->f, MRC_NACK_RKEY_VIOLATION);
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, 0, TF_NPAGES * PAGE_SIZE), 0U);
	mwt_free(t);
}

/*
 * An MR with a window bound to it can be neither deregistered nor
 * reregistered (-EBUSY), and is untouched by the attempt.
 */
static void mw_holds_its_mr(struct kunit *test)
{
	struct mwt *t = mwt_make(test, IB_MW_TYPE_1);
	struct tf *f = t->f;
	u32 access = f->mr->access;

	KUNIT_ASSERT_EQ(test, mwt_bind(t, 0, 64, MW_RW, 4), 0);
	KUNIT_EXPECT_EQ(test, mrc_dereg_mr(&f->mr->ibmr, NULL), -EBUSY);
	KUNIT_EXPECT_PTR_EQ(test,
			    mrc_rereg_user_mr(&f->mr->ibmr, IB_MR_REREG_ACCESS,
					      0, 0, 0, IB_ACCESS_LOCAL_WRITE,
					      NULL, NULL),
			    ERR_PTR(-EBUSY));
	KUNIT_EXPECT_EQ(test, f->mr->access, access);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->mr->num_mw), 1);
	KUNIT_EXPECT_EQ(test, mwt_resolve(t, t->mw->ibmw.rkey, TF_MR_IOVA, 64,
					  IB_ACCESS_REMOTE_WRITE), 0);
	mwt_free(t);
}

static struct kunit_case mrc_mw_cases[] = {
	KUNIT_CASE(mw_bind_wqe_then_write),
	KUNIT_CASE(mw_zero_based_translates),
	KUNIT_CASE(mw_bind_rules),
	KUNIT_CASE(mw_type2_tied_to_its_qp),
	KUNIT_CASE(mw_holds_its_mr),
	{}
};

static struct kunit_suite mrc_mw_suite = {
	.name = "mrc-mw",
	.init = tf_init,
	.exit = tf_exit,
	.test_cases = mrc_mw_cases,
};

kunit_test_suite(mrc_mw_suite);
