// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "mrc-verbs": what any user of the uverbs device may create is
 * counted against the limits the device advertises (mrc_obj_get() in
 * mrc/verbs.c), through the provider's own create and destroy verbs on the
 * fixture's device: one past a limit is refused with -ENOMEM and changes no
 * count, a destroy gives its slot back.
 */
#include <kunit/test.h>

#include "qp_fixture.h"

static struct mrc_cq *cq_make(struct tf *f, int *err)
{
	struct ib_cq_init_attr attr = { .cqe = 8 };
	struct mrc_cq *cq;

	cq = kunit_kzalloc(f->test, sizeof(*cq), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(f->test, cq);
	cq->ibcq.device = &f->mdev->ib;
	*err = mrc_create_cq(&cq->ibcq, &attr, NULL);
	return cq;
}

static struct mrc_qp *qp_make(struct tf *f, int *err)
{
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.send_cq = &f->scq->ibcq,
		.recv_cq = &f->rcq->ibcq,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct mrc_qp *qp;

	qp = kunit_kzalloc(f->test, sizeof(*qp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(f->test, qp);
	qp->ibqp.device = &f->mdev->ib;
	qp->ibqp.pd = &f->pd->ibpd;
	qp->ibqp.send_cq = &f->scq->ibcq;
	qp->ibqp.recv_cq = &f->rcq->ibcq;
	qp->ibqp.qp_type = IB_QPT_RC;
	*err = mrc_create_qp(&qp->ibqp, &init, NULL);
	return qp;
}

static int nobj(struct tf *f, enum mrc_obj obj)
{
	return atomic_read(&f->mdev->nobj[obj]);
}

/* The fixture's two CQs and its QP are counted; a destroy gives back. */
static void verbs_counts_follow_create_and_destroy(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_cq *cq;
	int err;

	KUNIT_EXPECT_EQ(test, nobj(f, MRC_OBJ_CQ), 2);
	KUNIT_EXPECT_EQ(test, nobj(f, MRC_OBJ_QP), 1);
	cq = cq_make(f, &err);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, nobj(f, MRC_OBJ_CQ), 3);
	mrc_destroy_cq(&cq->ibcq, NULL);
	KUNIT_EXPECT_EQ(test, nobj(f, MRC_OBJ_CQ), 2);
}

/* The last CQ the limit allows is made; the one after it is refused. */
static void verbs_cq_past_limit_refused(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_cq *cq;
	int err;

	atomic_set(&f->mdev->nobj[MRC_OBJ_CQ], MRC_MAX_CQ - 1);
	cq = cq_make(f, &err);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, nobj(f, MRC_OBJ_CQ), MRC_MAX_CQ);
	cq_make(f, &err);
	KUNIT_EXPECT_EQ(test, err, -ENOMEM);
	KUNIT_EXPECT_EQ(test, nobj(f, MRC_OBJ_CQ), MRC_MAX_CQ);
	mrc_destroy_cq(&cq->ibcq, NULL);
	KUNIT_EXPECT_EQ(test, nobj(f, MRC_OBJ_CQ), MRC_MAX_CQ - 1);
	/* What tf_exit() gives back. */
	atomic_set(&f->mdev->nobj[MRC_OBJ_CQ], 2);
}

/* The same for QPs: refused before anything is allocated or numbered. */
static void verbs_qp_past_limit_refused(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_qp *qp;
	int err;

	atomic_set(&f->mdev->nobj[MRC_OBJ_QP], MRC_MAX_QP - 1);
	qp = qp_make(f, &err);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, nobj(f, MRC_OBJ_QP), MRC_MAX_QP);
	qp_make(f, &err);
	KUNIT_EXPECT_EQ(test, err, -ENOMEM);
	KUNIT_EXPECT_EQ(test, nobj(f, MRC_OBJ_QP), MRC_MAX_QP);
	KUNIT_EXPECT_TRUE(test, xa_load(&f->mdev->qps, qp->ibqp.qp_num) == qp);
	mrc_destroy_qp(&qp->ibqp, NULL);
	KUNIT_EXPECT_EQ(test, nobj(f, MRC_OBJ_QP), MRC_MAX_QP - 1);
	atomic_set(&f->mdev->nobj[MRC_OBJ_QP], 1);
}

static struct kunit_case mrc_verbs_cases[] = {
	KUNIT_CASE(verbs_counts_follow_create_and_destroy),
	KUNIT_CASE(verbs_cq_past_limit_refused),
	KUNIT_CASE(verbs_qp_past_limit_refused),
	{}
};

static struct kunit_suite mrc_verbs_suite = {
	.name = "mrc-verbs",
	.init = tf_init,
	.exit = tf_exit,
	.test_cases = mrc_verbs_cases,
};

kunit_test_suite(mrc_verbs_suite);
