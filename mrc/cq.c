// SPDX-License-Identifier: GPL-2.0
/*
 * Completion queues.  User CQs hold struct ib_uverbs_wc in a queue librxe
 * polls in place; kernel CQs hold struct ib_wc and are polled through
 * mrc_poll_cq().  The data path adds completions with mrc_cq_post().
 */

#include <linux/spinlock.h>

#include "mrc.h"

int mrc_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  mrc_cq_create_arg *arg)
{
	struct ib_udata *udata = mrc_cq_create_udata(arg);
	struct mrc_cq *cq = to_mcq(ibcq);
	struct rxe_create_cq_resp resp = {};
	u32 num = attr->cqe;
	int err;

	if (attr->flags)
		return -EOPNOTSUPP;
	if (attr->cqe < 1 || attr->cqe > MRC_MAX_CQE ||
	    attr->comp_vector >= ibcq->device->num_comp_vectors)
		return -EINVAL;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;

	spin_lock_init(&cq->lock);
	cq->is_user = !!udata;

	err = mrc_obj_get(to_mdev(ibcq->device), MRC_OBJ_CQ);
	if (err)
		return err;
	err = mrc_queue_alloc(&cq->q, udata, &num,
			      udata ? sizeof(struct ib_uverbs_wc) :
				      sizeof(struct ib_wc));
	if (err)
		goto err_put;

	if (udata) {
		err = mrc_queue_mminfo(&cq->q, udata, &resp.mi);
		if (!err)
			err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto err_free;
	}

	ibcq->cqe = num;
	return 0;

err_free:
	mrc_queue_free(&cq->q);
err_put:
	mrc_obj_put(to_mdev(ibcq->device), MRC_OBJ_CQ);
	return err;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_create_cq);

int mrc_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	mrc_queue_free(&to_mcq(ibcq)->q);
	mrc_obj_put(to_mdev(ibcq->device), MRC_OBJ_CQ);
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_destroy_cq);

/*
 * The flags of a user CQE, as libibverbs numbers them (enum ibv_wc_flags):
 * librxe hands them to the application as they are, and the uverbs ABI
 * defines no numbers of its own.  The kernel's differ from the invalidate
 * flag on; the kernel-only ones (network header type, SMAC, VLAN) mean
 * nothing there, and their bits mean other things.
 */
#define MRC_UWC_GRH		BIT(0)
#define MRC_UWC_WITH_IMM	BIT(1)
#define MRC_UWC_WITH_INV	BIT(3)

static u32 mrc_cq_uflags(int flags)
{
	return (flags & IB_WC_GRH ? MRC_UWC_GRH : 0) |
	       (flags & IB_WC_WITH_IMM ? MRC_UWC_WITH_IMM : 0) |
	       (flags & IB_WC_WITH_INVALIDATE ? MRC_UWC_WITH_INV : 0);
}

/* User space reads this: every byte of the slot is written, none leaks. */
static void mrc_cq_to_user(struct ib_uverbs_wc *uwc, const struct ib_wc *wc)
{
	*uwc = (struct ib_uverbs_wc) {
		.wr_id = wc->wr_id,
		.status = wc->status,
		.opcode = wc->opcode,
		.vendor_err = wc->vendor_err,
		.byte_len = wc->byte_len,
		.ex.imm_data = wc->ex.imm_data,
		.qp_num = wc->qp->qp_num,
		.src_qp = wc->src_qp,
		.wc_flags = mrc_cq_uflags(wc->wc_flags),
		.pkey_index = wc->pkey_index,
		.slid = wc->slid,
		.sl = wc->sl,
		.dlid_path_bits = wc->dlid_path_bits,
		.port_num = wc->port_num,
	};
}

/**
 * mrc_cq_post() - add a completion
 * @cq: the CQ
 * @wc: the completion; @wc->qp must be set
 * @solicited: the completion is for a message with the solicited event bit
 *
 * Any context.  A full CQ loses the completion and stays in error: the
 * consumer has lost track of its work requests.
 *
 * Return: 0, or -EOVERFLOW if the CQ is in error.
 */
int mrc_cq_post(struct mrc_cq *cq, const struct ib_wc *wc, bool solicited)
{
	struct ib_cq *ibcq = &cq->ibcq;
	bool first_overflow = false;
	bool notify = false;
	unsigned long flags;
	u32 prod, next;
	void *elem;

	spin_lock_irqsave(&cq->lock, flags);

	if (cq->overflowed) {
		spin_unlock_irqrestore(&cq->lock, flags);
		return -EOVERFLOW;
	}

	prod = cq->q.index;
	next = mrc_queue_next(&cq->q, prod);
	if (next == mrc_queue_load_consumer(&cq->q)) {
		cq->overflowed = true;
		first_overflow = true;
	} else {
		elem = mrc_queue_elem(&cq->q, prod);
		if (cq->is_user)
			mrc_cq_to_user(elem, wc);
		else
			memcpy(elem, wc, sizeof(*wc));
		mrc_queue_store_producer(&cq->q, next);

		/* Errors wake solicited-only waiters too, as the IBA asks. */
		if (cq->notify == IB_CQ_NEXT_COMP ||
		    (cq->notify == IB_CQ_SOLICITED &&
		     (solicited || wc->status != IB_WC_SUCCESS))) {
			cq->notify = 0;
			notify = true;
		}
	}

	spin_unlock_irqrestore(&cq->lock, flags);

	if (first_overflow) {
		if (ibcq->event_handler) {
			struct ib_event ev = {
				.device = ibcq->device,
				.element.cq = ibcq,
				.event = IB_EVENT_CQ_ERR,
			};

			ibcq->event_handler(&ev, ibcq->cq_context);
		}
		return -EOVERFLOW;
	}

	if (notify)
		ibcq->comp_handler(ibcq, ibcq->cq_context);
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_cq_post);

int mrc_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct mrc_cq *cq = to_mcq(ibcq);
	struct mrc_queue *q = &cq->q;
	unsigned long flags;
	u32 cons;
	int n;

	/* librxe polls user CQs in place; their slots are not struct ib_wc. */
	if (cq->is_user)
		return -EINVAL;

	spin_lock_irqsave(&cq->lock, flags);
	/* The kernel owns both indexes here; the lock orders them. */
	cons = q->buf->consumer_index & q->index_mask;
	for (n = 0; n < num_entries && cons != q->index; n++) {
		memcpy(&wc[n], mrc_queue_elem(q, cons), sizeof(*wc));
		cons = mrc_queue_next(q, cons);
	}
	q->buf->consumer_index = cons;
	spin_unlock_irqrestore(&cq->lock, flags);

	return n;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_poll_cq);

int mrc_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct mrc_cq *cq = to_mcq(ibcq);
	unsigned long irqflags;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	/* An armed "next completion" already covers solicited ones. */
	if (cq->notify != IB_CQ_NEXT_COMP)
		cq->notify = flags & IB_CQ_SOLICITED_MASK;

	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) &&
	    mrc_queue_count(&cq->q, cq->q.index,
			    mrc_queue_load_consumer(&cq->q)))
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);

	return ret;
}
