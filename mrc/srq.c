// SPDX-License-Identifier: GPL-2.0
/*
 * Shared receive queues.  Posters fill one rxe-layout queue (user space
 * through its own mapping, kernel consumers through post_srq_recv); a QP
 * takes a WQE from it when the first packet of a receive-consuming
 * message arrives, in arrival order, and keeps its copy until the message
 * completes in MSN order (responder.c).  So messages that arrive out of
 * order take WQEs out of order too: which buffer a message lands in
 * follows arrival, as it does across the QPs sharing the queue.
 */

#include <rdma/ib_verbs.h>

#include "mrc.h"

static u32 mrc_srq_wqe_size(u32 max_sge)
{
	return sizeof(struct rxe_recv_wqe) + max_sge * sizeof(struct rxe_sge);
}

static int mrc_srq_check_limit(const struct mrc_srq *srq, u32 limit)
{
	/* A limit at or above the queue's size could never be crossed. */
	return limit > srq->rq.index_mask ? -EINVAL : 0;
}

int mrc_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata)
{
	struct mrc_device *mdev = to_mdev(ibsrq->device);
	struct mrc_srq *srq = to_msrq(ibsrq);
	struct rxe_create_srq_resp uresp = {};
	struct ib_srq_attr *attr = &init->attr;
	u32 nwqe;
	int err;

	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (!attr->max_wr || attr->max_wr > MRC_MAX_SRQ_WR ||
	    attr->max_sge > MRC_MAX_SGE)
		return -EINVAL;
	if (udata && udata->outlen < sizeof(uresp))
		return -EINVAL;

	err = mrc_obj_get(mdev, MRC_OBJ_SRQ);
	if (err)
		return err;
	spin_lock_init(&srq->lock);
	srq->max_sge = max_t(u32, attr->max_sge, 1);
	nwqe = attr->max_wr;
	err = mrc_queue_alloc(&srq->rq, udata, &nwqe,
			      mrc_srq_wqe_size(srq->max_sge));
	if (err)
		goto err_put;
	err = mrc_srq_check_limit(srq, attr->srq_limit);
	if (err)
		goto err_free;
	srq->limit = attr->srq_limit;

	if (udata) {
		err = mrc_queue_mminfo(&srq->rq, udata, &uresp.mi);
		/* Only XRC SRQs have a number anybody asks for. */
		if (!err)
			err = ib_copy_to_udata(udata, &uresp, sizeof(uresp));
		if (err)
			goto err_free;
	}
	attr->max_wr = nwqe;
	attr->max_sge = srq->max_sge;
	return 0;

err_free:
	mrc_queue_free(&srq->rq);
err_put:
	mrc_obj_put(mdev, MRC_OBJ_SRQ);
	return err;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_create_srq);

/*
 * Only the limit: mrc does not advertise IB_DEVICE_SRQ_RESIZE, since a
 * resize would move WQEs that QPs may be reading in softirq.
 */
int mrc_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct mrc_srq *srq = to_msrq(ibsrq);
	int err;

	if (mask & ~(IB_SRQ_MAX_WR | IB_SRQ_LIMIT))
		return -EINVAL;
	if (mask & IB_SRQ_MAX_WR)
		return -EOPNOTSUPP;
	if (!(mask & IB_SRQ_LIMIT))
		return 0;
	err = mrc_srq_check_limit(srq, attr->srq_limit);
	if (err)
		return err;
	spin_lock_bh(&srq->lock);
	srq->limit = attr->srq_limit;
	spin_unlock_bh(&srq->lock);
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_modify_srq);

int mrc_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct mrc_srq *srq = to_msrq(ibsrq);

	attr->max_wr = srq->rq.index_mask;
	attr->max_sge = srq->max_sge;
	attr->srq_limit = READ_ONCE(srq->limit);
	return 0;
}

/* The core refuses while a QP still uses the SRQ (ib_srq.usecnt). */
int mrc_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct mrc_srq *srq = to_msrq(ibsrq);

	mrc_queue_free(&srq->rq);
	mrc_obj_put(to_mdev(ibsrq->device), MRC_OBJ_SRQ);
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_destroy_srq);

int mrc_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr)
{
	struct mrc_srq *srq = to_msrq(ibsrq);
	int err = 0;

	spin_lock_bh(&srq->lock);
	for (; wr; wr = wr->next) {
		err = mrc_post_one_recv(&srq->rq, srq->max_sge, wr);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	spin_unlock_bh(&srq->lock);
	return err;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_post_srq_recv);

/**
 * mrc_srq_take() - take the WQE at the head of an SRQ for a QP
 * @srq: the SRQ
 * @rctx: where the WQE goes; it has room for @srq->max_sge SGEs
 *
 * Context: softirq, or bottom halves off (under the taking QP's lock).
 * Return: 0, -EAGAIN when the SRQ is empty, -EINVAL for a WQE no
 * legitimate poster writes (it stays in the queue).
 */
int mrc_srq_take(struct mrc_srq *srq, struct mrc_recv_ctx *rctx)
{
	const struct rxe_recv_wqe *w;
	bool limit_reached = false;
	u32 prod, n, i;
	u64 len = 0;

	spin_lock(&srq->lock);
	prod = mrc_queue_load_producer(&srq->rq);
	if (prod == srq->rq.index) {
		spin_unlock(&srq->lock);
		return -EAGAIN;
	}
	w = mrc_queue_elem(&srq->rq, srq->rq.index);
	n = READ_ONCE(w->dma.num_sge);
	if (n > srq->max_sge) {
		spin_unlock(&srq->lock);
		return -EINVAL;
	}
	rctx->wr_id = READ_ONCE(w->wr_id);
	rctx->num_sge = n;
	memcpy(rctx->sge, w->dma.sge, n * sizeof(rctx->sge[0]));
	mrc_queue_store_consumer(&srq->rq, mrc_queue_next(&srq->rq,
							  srq->rq.index));
	if (srq->limit &&
	    mrc_queue_count(&srq->rq, prod, srq->rq.index) < srq->limit) {
		srq->limit = 0;
		limit_reached = true;
	}
	spin_unlock(&srq->lock);

	for (i = 0; i < n; i++)
		len += rctx->sge[i].length;
	rctx->length = min_t(u64, len, U32_MAX);
	rctx->claimed = true;

	if (limit_reached && srq->ibsrq.event_handler) {
		struct ib_event ev = {
			.device = srq->ibsrq.device,
			.element.srq = &srq->ibsrq,
			.event = IB_EVENT_SRQ_LIMIT_REACHED,
		};

		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
	}
	return 0;
}
