// SPDX-License-Identifier: GPL-2.0
/*
 * The fixture of the data-path suites: see qp_fixture.h.  Everything is
 * freed in tf_exit(), which KUnit runs even when a case or tf_init() failed
 * half way, so it copes with any subset of the objects existing.
 */
#include <linux/mm.h>
#include <linux/slab.h>

#include "qp_fixture.h"

static int tf_make_mr(struct tf *f)
{
	struct mrc_mr *mr;
	unsigned int i;

	for (i = 0; i < TF_NPAGES; i++) {
		f->pages[i] = alloc_page(GFP_KERNEL);
		if (!f->pages[i])
			return -ENOMEM;
		memset(page_address(f->pages[i]), TF_CANARY, PAGE_SIZE);
	}
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return -ENOMEM;
	f->mr = mr;
	mr->pages = kvcalloc(TF_NPAGES, sizeof(*mr->pages), GFP_KERNEL);
	if (!mr->pages)
		return -ENOMEM;
	memcpy(mr->pages, f->pages, sizeof(f->pages));
	mr->npages = TF_NPAGES;
	mr->page_off = 0;
	mr->type = MRC_MR_USER;
	mr->access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
		     IB_ACCESS_REMOTE_READ;
	mr->iova = TF_MR_IOVA;
	mr->length = TF_MR_LEN;
	mr->ibmr.device = &f->mdev->ib;
	mr->ibmr.pd = &f->pd->ibpd;
	mr->ibmr.lkey = TF_MR_KEY;
	mr->ibmr.rkey = TF_MR_KEY;
	return xa_insert(&f->mdev->mrs, TF_MR_KEY >> 8, mr, GFP_KERNEL);
}

static struct mrc_cq *tf_make_cq(struct tf *f, struct mrc_cq **slot)
{
	struct ib_cq_init_attr attr = { .cqe = TF_CQE };
	struct mrc_cq *cq;

	cq = kzalloc(sizeof(*cq), GFP_KERNEL);
	if (!cq)
		return NULL;
	cq->ibcq.device = &f->mdev->ib;
	if (mrc_create_cq(&cq->ibcq, &attr, NULL)) {
		kfree(cq);
		return NULL;
	}
	*slot = cq;
	return cq;
}

static int tf_make_qp(struct tf *f)
{
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.send_cq = &f->scq->ibcq,
		.recv_cq = &f->rcq->ibcq,
		.cap = {
			.max_send_wr = 32,
			.max_recv_wr = 16,
			.max_send_sge = 2,
			.max_recv_sge = 2,
		},
	};
	struct mrc_qp *qp;
	int err;

	qp = kzalloc(sizeof(*qp), GFP_KERNEL);
	if (!qp)
		return -ENOMEM;
	f->qp = qp;
	/* What the RDMA core sets before it calls the create verb. */
	qp->ibqp.device = &f->mdev->ib;
	qp->ibqp.pd = &f->pd->ibpd;
	qp->ibqp.send_cq = &f->scq->ibcq;
	qp->ibqp.recv_cq = &f->rcq->ibcq;
	qp->ibqp.qp_type = IB_QPT_RC;
	if (f->srq) {
		init.srq = &f->srq->ibsrq;
		qp->ibqp.srq = &f->srq->ibsrq;
	}
	err = mrc_create_qp(&qp->ibqp, &init, NULL);
	if (err)
		return err;
	f->qp_created = true;

	/* What modify_qp to RTR and RTS would have set. */
	qp->mtu = TF_MTU;
	qp->attr.path_mtu = IB_MTU_256;
	qp->attr.qp_access_flags = IB_ACCESS_LOCAL_WRITE |
				   IB_ACCESS_REMOTE_WRITE |
				   IB_ACCESS_REMOTE_READ;
	qp->attr.dest_qp_num = TF_DEST_QPN;
	qp->attr.min_rnr_timer = TF_RNR_TIMER;
	qp->attr.retry_cnt = 7;
	qp->attr.rnr_retry = 7;
	/* Far beyond any case: the timer must never fire during one. */
	qp->rto_us = 600 * USEC_PER_SEC;
	qp->state = IB_QPS_RTS;
	qp->attr.qp_state = IB_QPS_RTS;
	tf_set_psn(f, 100, 5000);
	return 0;
}

static int tf_make_srq(struct tf *f)
{
	struct ib_srq_init_attr init = {
		.srq_type = IB_SRQT_BASIC,
		.attr = { .max_wr = TF_SRQ_WR, .max_sge = 2 },
	};
	struct mrc_srq *srq;
	int err;

	srq = kzalloc(sizeof(*srq), GFP_KERNEL);
	if (!srq)
		return -ENOMEM;
	f->srq = srq;
	srq->ibsrq.device = &f->mdev->ib;
	srq->ibsrq.pd = &f->pd->ibpd;
	err = mrc_create_srq(&srq->ibsrq, &init, NULL);
	if (!err)
		f->srq_created = true;
	return err;
}

static int tf_setup(struct kunit *test, bool with_srq)
{
	struct tf *f;
	int err;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	test->priv = f;
	f->test = test;
	__skb_queue_head_init(&f->out);

	f->mdev = kzalloc(sizeof(*f->mdev), GFP_KERNEL);
	if (!f->mdev)
		return -ENOMEM;
	xa_init_flags(&f->mdev->qps, XA_FLAGS_ALLOC);
	xa_init_flags(&f->mdev->mrs, XA_FLAGS_ALLOC1);
	xa_init_flags(&f->mdev->mws, XA_FLAGS_ALLOC);
	f->mdev->ib.num_comp_vectors = 1;
	f->mdev->nports = 1;
	spin_lock_init(&f->mdev->prof_lock);
	mrc_dev_prof_defaults(&f->mdev->prof);

	f->pd = kzalloc(sizeof(*f->pd), GFP_KERNEL);
	if (!f->pd)
		return -ENOMEM;
	f->pd->ibpd.device = &f->mdev->ib;

	if (!tf_make_cq(f, &f->scq) || !tf_make_cq(f, &f->rcq))
		return -ENOMEM;
	if (with_srq) {
		err = tf_make_srq(f);
		if (err)
			return err;
	}
	err = tf_make_qp(f);
	if (err)
		return err;
	return tf_make_mr(f);
}

int tf_init(struct kunit *test)
{
	return tf_setup(test, false);
}

int tf_init_srq(struct kunit *test)
{
	return tf_setup(test, true);
}

void tf_exit(struct kunit *test)
{
	struct tf *f = test->priv;
	unsigned int i;

	if (!f)
		return;
	__skb_queue_purge(&f->out);
	if (f->qp) {
		if (f->qp_created)
			mrc_destroy_qp(&f->qp->ibqp, NULL);
		kfree(f->qp);
	}
	if (f->srq) {
		if (f->srq_created)
			mrc_destroy_srq(&f->srq->ibsrq, NULL);
		kfree(f->srq);
	}
	if (f->mr) {
		if (f->mdev)
			xa_erase(&f->mdev->mrs, TF_MR_KEY >> 8);
		kvfree(f->mr->pages);
		kfree(f->mr);
	}
	for (i = 0; i < TF_NPAGES; i++)
		if (f->pages[i])
			__free_page(f->pages[i]);
	if (f->rcq) {
		mrc_destroy_cq(&f->rcq->ibcq, NULL);
		kfree(f->rcq);
	}
	if (f->scq) {
		mrc_destroy_cq(&f->scq->ibcq, NULL);
		kfree(f->scq);
	}
	kfree(f->pd);
	if (f->mdev) {
		xa_destroy(&f->mdev->qps);
		xa_destroy(&f->mdev->mrs);
		xa_destroy(&f->mdev->mws);
		kfree(f->mdev);
	}
}

void tf_set_psn(struct tf *f, u32 rq_psn, u32 sq_psn)
{
	struct mrc_qp *qp = f->qp;

	spin_lock_bh(&qp->lock);
	qp->attr.rq_psn = rq_psn;
	qp->resp.cum_psn = rq_psn;
	qp->attr.sq_psn = sq_psn;
	qp->req.psn_next = sq_psn;
	qp->req.psn_una = sq_psn;
	qp->req.sacked = 0;
	spin_unlock_bh(&qp->lock);
}

void tf_resp_restart(struct tf *f, u32 rq_psn)
{
	struct mrc_qp *qp = f->qp;

	spin_lock_bh(&qp->lock);
	qp->attr.rq_psn = rq_psn;
	mrc_resp_reset(qp);
	spin_unlock_bh(&qp->lock);
}

u8 *tf_mr_byte(struct tf *f, size_t off)
{
	return (u8 *)page_address(f->pages[off >> PAGE_SHIFT]) +
	       (off & ~PAGE_MASK);
}

size_t tf_mr_dirty(struct tf *f, size_t from, size_t to)
{
	size_t n = 0;

	for (; from < to; from++)
		n += *tf_mr_byte(f, from) != TF_CANARY;
	return n;
}

void tf_mr_fill(struct tf *f, size_t off, const u8 *src, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		*tf_mr_byte(f, off + i) = src[i];
}

u64 tf_count(struct tf *f, enum mrc_counter c)
{
	return atomic64_read(&f->mdev->cnt[0].c[c]);
}

u64 tf_count_planes(struct tf *f, enum mrc_counter c)
{
	u64 n = 0;
	u32 i;

	for (i = 0; i < MRC_MAX_PLANES; i++)
		n += atomic64_read(&f->mdev->cnt[i].c[c]);
	return n;
}

void tf_pop_payload(struct tf *f, struct mrc_hdrs *h, u8 *payload,
		    size_t size)
{
	struct sk_buff *skb = __skb_dequeue(&f->out);
	int err;

	KUNIT_ASSERT_NOT_NULL_MSG(f->test, skb, "no packet on the out list");
	memset(h, 0, sizeof(*h));
	err = mrc_wire_decode(skb->data, skb->len, h);
	if (!err && payload)
		memcpy(payload, skb->data + h->hdr_len,
		       min_t(size_t, size, h->payload_len));
	kfree_skb(skb);
	KUNIT_ASSERT_EQ_MSG(f->test, err, 0, "a sent packet does not decode");
}

void tf_pop(struct tf *f, struct mrc_hdrs *h)
{
	tf_pop_payload(f, h, NULL, 0);
}

unsigned int tf_pop_all(struct tf *f, struct mrc_hdrs *h)
{
	unsigned int n = 0;

	while (!skb_queue_empty(&f->out)) {
		tf_pop(f, h);
		n++;
	}
	return n;
}

void tf_peer_write(struct tf *f, u32 psn, u32 msn, u32 rkey, u64 va,
		   const u8 *data, u32 len)
{
	struct mrc_hdrs h = {
		.opcode = MRC_OP_WRITE_ONLY,
		.flags = MRC_BTH_F_ACK_REQ,
		.dqpn = 0x10,
		.psn = psn,
		.ev = 0xbeef,
		.msn = msn,
		.va = va,
		.rkey = rkey,
		.dma_len = len,
		.payload_len = len,
	};

	tf_resp_rcv(f, &h, data);
}

void tf_expect_sack(struct tf *f, u32 cum)
{
	struct mrc_hdrs h;

	tf_pop(f, &h);
	KUNIT_EXPECT_EQ(f->test, h.opcode, MRC_OP_SACK);
	KUNIT_EXPECT_EQ(f->test, h.sack.cum_psn, cum);
}

void tf_expect_nack(struct tf *f, u8 reason)
{
	struct mrc_hdrs h;

	tf_pop(f, &h);
	KUNIT_EXPECT_EQ(f->test, h.opcode, MRC_OP_NACK);
	KUNIT_EXPECT_EQ(f->test, h.nack.reason, reason);
}

void tf_resp_rcv(struct tf *f, const struct mrc_hdrs *h, const void *payload)
{
	rcu_read_lock();
	spin_lock_bh(&f->qp->lock);
	mrc_resp_rcv(f->qp, h, payload, &f->out);
	spin_unlock_bh(&f->qp->lock);
	rcu_read_unlock();
}

void tf_sack_rcv(struct tf *f, const struct mrc_hdrs *h)
{
	rcu_read_lock();
	spin_lock_bh(&f->qp->lock);
	mrc_comp_sack_rcv(f->qp, h, &f->out);
	spin_unlock_bh(&f->qp->lock);
	rcu_read_unlock();
}

void tf_sack(struct tf *f, u32 psn, u8 flags, u32 cum, u64 bitmap)
{
	struct mrc_hdrs h = {
		.opcode = MRC_OP_SACK,
		.dqpn = f->qp->ibqp.qp_num,
		.psn = psn,
		.sack = {
			.flags = flags,
			.cum_psn = cum,
			.sack_psn = cum,
			.bitmap = bitmap,
			.window = MRC_WINDOW_DEFAULT,
		},
	};

	tf_sack_rcv(f, &h);
}

void tf_req_run(struct tf *f)
{
	spin_lock_bh(&f->qp->lock);
	mrc_req_run(f->qp, &f->out);
	spin_unlock_bh(&f->qp->lock);
}

/* A receive WQE of MR bytes [@off, +@len) to the QP's RQ or its SRQ. */
static int tf_post_rwqe(struct tf *f, bool srq, u64 wr_id, u64 off, u32 len)
{
	struct ib_sge sge = {
		.addr = TF_MR_IOVA + off,
		.length = len,
		.lkey = TF_MR_KEY,
	};
	struct ib_recv_wr wr = {
		.wr_id = wr_id,
		.sg_list = &sge,
		.num_sge = len ? 1 : 0,
	};
	const struct ib_recv_wr *bad = NULL;

	if (srq)
		return mrc_post_srq_recv(&f->srq->ibsrq, &wr, &bad);
	return mrc_post_recv(&f->qp->ibqp, &wr, &bad);
}

int tf_post_recv(struct tf *f, u64 wr_id, u64 off, u32 len)
{
	return tf_post_rwqe(f, false, wr_id, off, len);
}

int tf_post_srq_recv(struct tf *f, u64 wr_id, u64 off, u32 len)
{
	return tf_post_rwqe(f, true, wr_id, off, len);
}

int tf_poll(struct tf *f, struct mrc_cq *cq, struct ib_wc *wc, int n)
{
	return mrc_poll_cq(&cq->ibcq, n, wc);
}

struct rxe_send_wqe *tf_sq_next(struct tf *f)
{
	struct mrc_queue *sq = &f->qp->sq;
	u32 prod = sq->buf->producer_index & sq->index_mask;
	struct rxe_send_wqe *w = mrc_queue_elem(sq, prod);

	KUNIT_ASSERT_NE(f->test, mrc_queue_next(sq, prod), sq->index);
	memset(w, 0, sizeof(*w) + sizeof(w->dma.sge[0]));
	return w;
}

void tf_sq_publish(struct tf *f)
{
	struct mrc_queue *sq = &f->qp->sq;
	u32 prod = sq->buf->producer_index & sq->index_mask;

	/* The WQE must be complete before the requester can see the index. */
	smp_store_release(&sq->buf->producer_index, mrc_queue_next(sq, prod));
}

void tf_post_write(struct tf *f, u64 remote_va, u32 rkey, u64 wr_id, u32 off,
		   u32 len)
{
	struct rxe_send_wqe *w = tf_sq_next(f);

	w->wr.wr_id = wr_id;
	w->wr.opcode = IB_WR_RDMA_WRITE;
	w->wr.send_flags = IB_SEND_SIGNALED;
	w->wr.wr.rdma.remote_addr = remote_va + off;
	w->wr.wr.rdma.rkey = rkey;
	w->dma.length = len;
	w->dma.resid = len;
	w->dma.num_sge = 1;
	w->dma.sge[0].addr = TF_MR_IOVA + off;
	w->dma.sge[0].length = len;
	w->dma.sge[0].lkey = TF_MR_KEY;
	tf_sq_publish(f);
}
