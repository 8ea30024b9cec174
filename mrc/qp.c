// SPDX-License-Identifier: GPL-2.0
/*
 * RC queue pairs: creation with rxe-layout queues, the verbs state machine,
 * posting work from kernel consumers (user space posts into the shared
 * queues itself and rings the POST_SEND doorbell), flushing on error, and
 * destruction that waits out the softirq users.
 */

#include <linux/log2.h>
#include <linux/random.h>
#include <linux/vmalloc.h>
#include <rdma/ib_verbs.h>

#include "mrc.h"

/*
 * The RC QP @qpn.  Under rcu_read_lock(); see mrc_destroy_qp() for why this
 * is safe.  UD QPs share the numbers but not the transport: RC packets and
 * the controller never find one.
 */
struct mrc_qp *mrc_qp_lookup(struct mrc_device *mdev, u32 qpn)
{
	struct mrc_qp *qp = xa_load(&mdev->qps, qpn);

	return qp && qp->ibqp.qp_type == IB_QPT_RC ? qp : NULL;
}

/* The same for the UD QP @qpn, which datagrams address. */
struct mrc_qp *mrc_ud_qp_lookup(struct mrc_device *mdev, u32 qpn)
{
	struct mrc_qp *qp = xa_load(&mdev->qps, qpn);

	return qp && qp->ibqp.qp_type == IB_QPT_UD ? qp : NULL;
}

static u32 mrc_send_wqe_size(u32 max_sge, u32 max_inline)
{
	return sizeof(struct rxe_send_wqe) +
	       max_t(u32, max_sge * sizeof(struct rxe_sge), max_inline);
}

static int mrc_qp_check_init(const struct ib_qp_init_attr *init)
{
	const struct ib_qp_cap *cap = &init->cap;

	if (init->create_flags)
		return -EOPNOTSUPP;
	if (init->qp_type != IB_QPT_RC && init->qp_type != IB_QPT_UD &&
	    init->qp_type != IB_QPT_GSI)
		return -EOPNOTSUPP;
	/* The MAD layer's receive path (ud.c) has no SRQ to take from. */
	if (init->srq && init->qp_type != IB_QPT_RC)
		return -EOPNOTSUPP;
	if (!init->send_cq || !init->recv_cq)
		return -EINVAL;
	if (cap->max_send_wr > MRC_MAX_QP_WR ||
	    cap->max_recv_wr > MRC_MAX_QP_WR ||
	    cap->max_send_sge > MRC_MAX_SGE ||
	    cap->max_recv_sge > MRC_MAX_SGE ||
	    cap->max_inline_data > MRC_MAX_INLINE)
		return -EINVAL;
	return 0;
}

/*
 * The profile settings @qp follows: its device's, but for the parts it took
 * itself (MRC_CMD_QP_SET).  Under qp->lock, or before the QP is published.
 */
static void mrc_qp_prof(struct mrc_qp *qp, struct mrc_dev_prof *prof)
{
	const struct mrc_dev_prof *own = qp->own;

	mrc_dev_prof_get(qp->mdev, prof);
	if (qp->own_mask & MRC_QP_OWN_EV) {
		prof->evprof_id = own->evprof_id;
		mrc_dev_prof_take_ev(prof, own);
	}
	if (qp->own_mask & MRC_QP_OWN_CC) {
		prof->ccprof_id = own->ccprof_id;
		prof->cc = own->cc;
	}
}

/* The CC profile, as it is when the QP is created, reset or given one. */
static void mrc_qp_cc_init(struct mrc_qp *qp)
{
	struct mrc_dev_prof prof;

	mrc_qp_prof(qp, &prof);
	mrc_cc_init(&qp->req.cc, &prof.cc);
}

static void mrc_qp_free(struct mrc_qp *qp)
{
	mrc_queue_free(&qp->sq);
	mrc_queue_free(&qp->rq);
	kvfree(qp->req.ctx);
	kvfree(qp->req.ring);
	kvfree(qp->resp.rctx);
	kvfree(qp->resp.msgs);
	bitmap_free(qp->resp.bitmap);
	kfree(qp->own);
	dst_cache_destroy(&qp->dst_cache);
	mrc_ev_destroy(qp);
}

/*
 * Kernel copies of receive WQEs: one per RQ slot, or, taken from an SRQ,
 * one per message ahead of those completed, as many as the SRQ holds.
 */
static u32 mrc_qp_rctx_count(const struct mrc_qp *qp)
{
	const struct mrc_srq *srq = to_msrq(qp->ibqp.srq);

	if (!srq)
		return qp->rq.index_mask + 1;
	return min_t(u32, srq->rq.index_mask + 1, MRC_SRQ_CLAIMS);
}

static int mrc_qp_alloc_state(struct mrc_qp *qp)
{
	u32 nsq = qp->sq.index_mask + 1, nrq = mrc_qp_rctx_count(qp);

	qp->req.ctx_size = ALIGN(sizeof(struct mrc_send_ctx) +
				 max_t(u32, qp->max_send_sge *
					    sizeof(struct rxe_sge),
				       qp->max_inline), 8);
	qp->req.ctx = kvcalloc(nsq, qp->req.ctx_size, GFP_KERNEL_ACCOUNT);
	qp->req.ts_key = get_random_u64();
	qp->req.ring_size = MRC_WINDOW_DEFAULT;
	qp->req.window = qp->send_cap;
	qp->req.reo_thresh = MRC_REORDER_THRESH;
	qp->req.ev_margin = MRC_EV_MARGIN;
	mrc_qp_cc_init(qp);
	qp->req.ring = kvcalloc(qp->req.ring_size, sizeof(*qp->req.ring),
				GFP_KERNEL_ACCOUNT);
	qp->resp.rctx_size = ALIGN(sizeof(struct mrc_recv_ctx) +
				   qp->max_recv_sge * sizeof(struct rxe_sge),
				   8);
	qp->resp.rctx = kvcalloc(nrq, qp->resp.rctx_size,
				 GFP_KERNEL_ACCOUNT);
	qp->resp.rctx_mask = nrq - 1;
	qp->resp.window = MRC_WINDOW_DEFAULT;
	qp->resp.msgs = kvcalloc(qp->resp.window, sizeof(*qp->resp.msgs),
				 GFP_KERNEL_ACCOUNT);
	qp->resp.bitmap = bitmap_zalloc(qp->resp.window, GFP_KERNEL_ACCOUNT);
	if (!qp->req.ctx || !qp->req.ring || !qp->resp.rctx ||
	    !qp->resp.msgs || !qp->resp.bitmap)
		return -ENOMEM;
	return dst_cache_init(&qp->dst_cache, GFP_KERNEL_ACCOUNT);
}

int mrc_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata)
{
	struct mrc_device *mdev = to_mdev(ibqp->device);
	struct mrc_qp *qp = to_mqp(ibqp);
	struct rxe_create_qp_resp uresp = {};
	u32 nsq, nrq, wqe;
	u32 qpn;
	int err;

	err = mrc_qp_check_init(init);
	if (err)
		return err;
	if (udata && udata->outlen < sizeof(uresp))
		return -EINVAL;
	/* The MAD layer makes one GSI QP per port; nobody else may. */
	if (init->qp_type == IB_QPT_GSI &&
	    (udata || !init->port_num || init->port_num > mdev->nports))
		return -EINVAL;

	err = mrc_obj_get(mdev, MRC_OBJ_QP);
	if (err)
		return err;
	qp->mdev = mdev;
	qp->is_user = !!udata;
	/* uverbs calls create_qp in the creating process's context. */
	qp->owner = udata ? current_euid() : INVALID_UID;
	qp->serial = atomic64_inc_return(&mdev->qp_serial);
	spin_lock_init(&qp->lock);
	timer_setup(&qp->rtx_timer, mrc_comp_timer, 0);
	timer_setup(&qp->inv_timer, mrc_comp_inv_timer, 0);
	skb_queue_head_init(&qp->ud_txq);
	INIT_WORK(&qp->ud_work, mrc_ud_work);
	INIT_WORK(&qp->notes.work, mrc_event_work);
	qp->state = IB_QPS_RESET;
	qp->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->mtu = 1024;
	qp->retry_exp = MRC_RETRY_EXP_DEFAULT;
	qp->send_cap = MRC_SEND_WINDOW;

	/* As rxe does: SGE and inline room share one element size. */
	wqe = mrc_send_wqe_size(init->cap.max_send_sge,
				init->cap.max_inline_data);
	qp->max_send_sge = (wqe - sizeof(struct rxe_send_wqe)) /
			   sizeof(struct rxe_sge);
	qp->max_send_sge = min_t(u32, qp->max_send_sge, MRC_MAX_SGE);
	qp->max_inline = min_t(u32, wqe - sizeof(struct rxe_send_wqe),
			       MRC_MAX_INLINE);
	if (init->srq)
		qp->max_recv_sge = to_msrq(init->srq)->max_sge;
	else
		qp->max_recv_sge = max_t(u32, init->cap.max_recv_sge, 1);

	nsq = init->cap.max_send_wr;
	err = mrc_queue_alloc(&qp->sq, udata, &nsq, wqe);
	if (err)
		goto err_free;
	/* With an SRQ, no RQ: librxe maps none when rq_mi is empty. */
	nrq = 0;
	if (!init->srq) {
		nrq = init->cap.max_recv_wr;
		err = mrc_queue_alloc(&qp->rq, udata, &nrq,
				      sizeof(struct rxe_recv_wqe) +
				      qp->max_recv_sge * sizeof(struct rxe_sge));
		if (err)
			goto err_free;
	}
	err = mrc_qp_alloc_state(qp);
	if (err)
		goto err_free;

	if (udata) {
		err = mrc_queue_mminfo(&qp->sq, udata, &uresp.sq_mi);
		if (!err && !init->srq)
			err = mrc_queue_mminfo(&qp->rq, udata, &uresp.rq_mi);
		if (!err)
			err = ib_copy_to_udata(udata, &uresp, sizeof(uresp));
		if (err)
			goto err_free;
	}

	init->cap.max_send_wr = nsq;
	init->cap.max_recv_wr = nrq;
	init->cap.max_send_sge = qp->max_send_sge;
	init->cap.max_recv_sge = init->srq ? 0 : qp->max_recv_sge;
	init->cap.max_inline_data = qp->max_inline;

	/* Published last: from here the receive path can find the QP. */
	if (init->qp_type == IB_QPT_GSI) {
		struct mrc_qp __rcu **slot = &mdev->gsi[init->port_num - 1];

		qp->attr.port_num = init->port_num;
		ibqp->qp_num = 1;
		if (cmpxchg((struct mrc_qp __force **)slot, NULL, qp)) {
			err = -EBUSY;
			goto err_free;
		}
		return 0;
	}
	/* Datagrams have no EV set: each goes the way its AH says. */
	if (init->qp_type == IB_QPT_RC) {
		err = mrc_ev_init(qp);
		if (err)
			goto err_free;
	}
	err = xa_alloc_cyclic(&mdev->qps, &qpn, qp,
			      XA_LIMIT(MRC_MIN_QPN, MRC_MAX_QPN),
			      &mdev->qpn_next, GFP_KERNEL_ACCOUNT);
	if (err < 0)
		goto err_free;
	ibqp->qp_num = qpn;
	atomic_inc(&mdev->qp_genid);
	return 0;

err_free:
	mrc_qp_free(qp);
	mrc_obj_put(mdev, MRC_OBJ_QP);
	return err;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_create_qp);

/*
 * The receive path finds QPs under RCU and does all its work on them inside
 * that read section, and the timer is the only other asynchronous user: once
 * the QP is out of the xarray, a grace period has passed and the timer is
 * stopped, nothing can touch it and the RDMA core may free it.
 */
int mrc_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct mrc_qp *qp = to_mqp(ibqp);

	spin_lock_bh(&qp->lock);
	qp->dead = true;
	/* A controller waiting for a probe answer hears that it never comes. */
	mrc_ev_probe_forget(qp, NULL, -ENOENT);
	spin_unlock_bh(&qp->lock);

	if (ibqp->qp_type == IB_QPT_GSI) {
		RCU_INIT_POINTER(qp->mdev->gsi[qp->attr.port_num - 1], NULL);
	} else {
		xa_erase(&qp->mdev->qps, ibqp->qp_num);
		atomic_inc(&qp->mdev->qp_genid);
	}
	synchronize_rcu();
	del_timer_sync(&qp->rtx_timer);
	del_timer_sync(&qp->inv_timer);
	mrc_ev_stop(qp);
	/* Flushed, not cancelled: the events of a QP's last moments count. */
	flush_work(&qp->notes.work);
	cancel_work_sync(&qp->ud_work);
	skb_queue_purge(&qp->ud_txq);
	mrc_qp_free(qp);
	mrc_obj_put(qp->mdev, MRC_OBJ_QP);
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_destroy_qp);

static u32 mrc_qp_rto_us(u8 timeout)
{
	u64 ns;

	if (!timeout)
		timeout = MRC_TIMEOUT_DEFAULT;
	/* MRC: 1.024 us * 2^timeout */
	ns = 1024ULL << timeout;
	return max_t(u64, div_u64(ns, NSEC_PER_USEC), MRC_RTO_MIN_US);
}

/* IB_QPS_RESET: forget everything but the queues' memory. */
static void mrc_qp_reset(struct mrc_qp *qp)
{
	u32 i;

	del_timer(&qp->rtx_timer);
	del_timer(&qp->inv_timer);
	qp->sq.index = 0;
	qp->sq.buf->producer_index = 0;
	qp->sq.buf->consumer_index = 0;
	qp->rq.index = 0;
	if (qp->rq.buf) {
		qp->rq.buf->producer_index = 0;
		qp->rq.buf->consumer_index = 0;
	}
	for (i = 0; i <= qp->sq.index_mask; i++)
		mrc_sctx(qp, i)->state = MRC_WQE_FREE;
	for (i = 0; i <= qp->resp.rctx_mask; i++) {
		mrc_rctx(qp, i)->claimed = false;
		mrc_rctx(qp, i)->status = 0;
	}
	memset(qp->req.ring, 0, qp->req.ring_size * sizeof(*qp->req.ring));
	qp->req.send_idx = 0;
	qp->req.send_off = 0;
	qp->req.msn_next = 0;
	qp->req.rq_msn_next = 0;
	qp->req.timeouts = 0;
	qp->req.rnr_retries = 0;
	qp->req.rnr_pending = false;
	qp->req.atomics_out = 0;
	qp->req.srtt_us = 0;
	qp->req.rttvar_us = 0;
	/* A new connection: the old one's echoes are not of this one. */
	qp->req.ts_key = get_random_u64();
	memset(qp->req.plane_rtt_us, 0, sizeof(qp->req.plane_rtt_us));
	qp->req.have_high = false;
	qp->req.sacked = 0;
	qp->req.plane_have = 0;
	qp->req.reo_thresh = MRC_REORDER_THRESH;
	qp->req.reo_calm = 0;
	qp->req.reo_marked = false;
	qp->req.ev_margin = MRC_EV_MARGIN;
	qp->req.window = qp->send_cap;
	mrc_qp_cc_init(qp);
	mrc_resp_reset(qp);
}

/*
 * A QP of an SRQ has just entered the error state: its consumer may take
 * it off the SRQ, nothing more comes from it (IBA 11.6.3.4, "Last WQE
 * Reached").  Once per entry, not per flush.
 */
static void mrc_qp_last_wqe(struct mrc_qp *qp)
{
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = IB_EVENT_QP_LAST_WQE_REACHED,
	};

	if (qp->ibqp.srq && qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

static int mrc_modify_check(struct mrc_qp *qp, const struct ib_qp_attr *attr,
			    int mask)
{
	if ((mask & IB_QP_PORT) &&
	    (!attr->port_num || attr->port_num > qp->mdev->nports))
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index)
		return -EINVAL;
	if ((mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		return -EINVAL;
	if ((mask & IB_QP_TIMEOUT) && attr->timeout > 31)
		return -EINVAL;
	if ((mask & IB_QP_RETRY_CNT) && attr->retry_cnt > 7)
		return -EINVAL;
	if ((mask & IB_QP_RNR_RETRY) && attr->rnr_retry > 7)
		return -EINVAL;
	if ((mask & IB_QP_MIN_RNR_TIMER) && attr->min_rnr_timer > 31)
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) && attr->max_rd_atomic > MRC_MAX_RD_ATOM)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) && attr->max_dest_rd_atomic > MRC_MAX_RD_ATOM)
		return -EINVAL;
	if ((mask & IB_QP_ACCESS_FLAGS) &&
	    (attr->qp_access_flags & ~(IB_ACCESS_LOCAL_WRITE |
				       IB_ACCESS_REMOTE_WRITE |
				       IB_ACCESS_REMOTE_READ |
				       IB_ACCESS_REMOTE_ATOMIC)))
		return -EINVAL;
	return 0;
}

int mrc_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata)
{
	struct mrc_qp *qp = to_mqp(ibqp);
	struct mrc_srv6_dst *srv6 = NULL;
	struct mrc_path *paths = NULL;
	struct mrc_av av = qp->av;
	struct mrc_dev_prof prof = {};
	enum ib_qp_state cur, next;
	struct sk_buff_head out;
	int err;

	__skb_queue_head_init(&out);

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	if (udata && udata->inlen)
		return -EOPNOTSUPP;
	if (mask & (IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE | IB_QP_RATE_LIMIT))
		return -EOPNOTSUPP;
	if ((mask & IB_QP_QKEY) && ibqp->qp_type == IB_QPT_RC)
		return -EOPNOTSUPP;
	/*
	 * A controlled Q_Key (high bit set; QP1's is one) lets a UD QP talk
	 * to GSI QPs: privileged, as Linux requires from 6.5 on.
	 */
	if ((mask & IB_QP_QKEY) && (attr->qkey & 0x80000000) && udata &&
	    !capable(CAP_NET_RAW))
		return -EPERM;

	err = mrc_modify_check(qp, attr, mask);
	if (err)
		return err;
	if (mask & IB_QP_AV) {
		err = mrc_av_from_attr(qp->mdev, &av, &attr->ah_attr);
		if (err)
			return err;
		if (qp->evs) {
			paths = kcalloc(MRC_MAX_PLANES, sizeof(*paths),
					GFP_KERNEL);
			if (!paths)
				return -ENOMEM;
			mrc_ev_resolve(qp, &av, paths);
			/* A new path set takes the EV profile as it is now. */
			spin_lock_bh(&qp->lock);
			mrc_qp_prof(qp, &prof);
			spin_unlock_bh(&qp->lock);
			/*
			 * STEV EVs live in the IPv6 flow label: over IPv4
			 * they would silently be plain UDP EVs, unlike what
			 * the controller asked for.
			 */
			if (prof.ev_format == MRC_EV_FORMAT_STEV &&
			    av.family != AF_INET6) {
				kfree(paths);
				return -EAFNOSUPPORT;
			}
			/* and the SRv6 paths of its destination, if any. */
			if (av.family == AF_INET6)
				srv6 = mrc_srv6_dst_get(qp->mdev,
							&av.daddr.v6);
			mrc_net_warm(qp->mdev, paths, srv6);
		}
	}

	mrc_qp_lock_tx(qp);
	cur = (mask & IB_QP_CUR_STATE) ? attr->cur_qp_state : qp->state;
	next = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	if (qp->dead || cur != qp->state ||
	    !ib_modify_qp_is_ok(cur, next, ibqp->qp_type, mask)) {
		spin_unlock(&qp->lock);
		local_bh_enable();
		mrc_srv6_dst_put(srv6);
		kfree(paths);
		return -EINVAL;
	}

	if (mask & IB_QP_ACCESS_FLAGS)
		qp->attr.qp_access_flags = attr->qp_access_flags;
	if (mask & IB_QP_QKEY)
		qp->attr.qkey = attr->qkey;
	if (mask & IB_QP_PORT)
		qp->attr.port_num = attr->port_num;
	if (mask & IB_QP_AV) {
		qp->attr.ah_attr = attr->ah_attr;
		qp->attr.ah_attr.grh.sgid_attr = NULL;
		qp->av = av;
		dst_cache_reset(&qp->dst_cache);
		if (paths) {
			mrc_ev_configure(qp, prof.min_active, prof.backups,
					 prof.event_mask, prof.ev_format);
			qp->evs->evprof_id = prof.evprof_id;
			mrc_ev_install(qp, paths, prof.ev_count ?: mrc_ev_count,
				       srv6);
		}
	}
	if (mask & IB_QP_PATH_MTU) {
		qp->attr.path_mtu = attr->path_mtu;
		qp->mtu = ib_mtu_enum_to_int(attr->path_mtu);
	}
	if (mask & IB_QP_DEST_QPN)
		qp->attr.dest_qp_num = attr->dest_qp_num & MRC_PSN_MASK;
	if (mask & IB_QP_RQ_PSN) {
		qp->attr.rq_psn = attr->rq_psn & MRC_PSN_MASK;
		qp->resp.cum_psn = qp->attr.rq_psn;
	}
	if (mask & IB_QP_SQ_PSN) {
		qp->attr.sq_psn = attr->sq_psn & MRC_PSN_MASK;
		qp->req.psn_next = qp->attr.sq_psn;
		qp->req.psn_una = qp->attr.sq_psn;
		qp->req.sacked = 0;
	}
	if (mask & IB_QP_TIMEOUT)
		qp->attr.timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		qp->attr.retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		qp->attr.rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_MIN_RNR_TIMER)
		qp->attr.min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		qp->attr.max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		qp->attr.max_dest_rd_atomic = attr->max_dest_rd_atomic;
	qp->rto_us = mrc_qp_rto_us(qp->attr.timeout);

	if (mask & IB_QP_STATE) {
		qp->state = next;
		qp->attr.qp_state = next;
		if (next == IB_QPS_RESET)
			mrc_qp_reset(qp);
		else if (next == IB_QPS_ERR)
			mrc_qp_flush(qp);
		/* WQEs user space queued before RTS go now, not at the next doorbell. */
		else if (next == IB_QPS_RTS && ibqp->qp_type == IB_QPT_RC)
			mrc_req_run(qp, &out);
		if (next == IB_QPS_ERR && cur != IB_QPS_ERR)
			mrc_qp_last_wqe(qp);
		/* The peer hears of planes that were down before it connected. */
		if (next == IB_QPS_RTS && cur != IB_QPS_RTS && qp->evs) {
			u32 down, seq = mrc_dev_pstat(qp->mdev, &down);

			if (down)
				mrc_ev_port_status(qp, seq, down, &out);
		}
	}
	mrc_qp_unlock_xmit(qp, &out);
	kfree(paths);
	return 0;
}

/**
 * mrc_qp_set_prepare() - allocate what an MRC_CMD_QP_SET request may need
 * @set: the request, checked
 *
 * Runs before the QP is looked up, outside RCU and every lock.
 * Return: 0 or -ENOMEM; mrc_qp_set_release() frees either way.
 */
int mrc_qp_set_prepare(struct mrc_qp_set *set)
{
	set->own = kzalloc(sizeof(*set->own), GFP_KERNEL_ACCOUNT);
	if (!set->own)
		return -ENOMEM;
	if (!(set->mask & MRC_QP_SET_MPR_DEST))
		return 0;
	set->msgs = kvcalloc(set->mpr_dest, sizeof(*set->msgs),
			     GFP_KERNEL_ACCOUNT);
	set->bitmap = bitmap_zalloc(set->mpr_dest, GFP_KERNEL_ACCOUNT);
	return set->msgs && set->bitmap ? 0 : -ENOMEM;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_qp_set_prepare);

/**
 * mrc_qp_set_apply() - give a QP the MRC attributes of a request
 * @qp: the QP, found under RCU
 * @set: from mrc_qp_set_prepare(); takes what the QP gives up in exchange
 * @extack: for the refusal
 *
 * The QP's paths, responder window and congestion state are built at RTR,
 * so the profiles and the responder MPR are taken in RESET or INIT only.
 * The requester's MPR, timeout and retries are first used at RTS, so a QP
 * in RTR takes them too: that is where the OCP API sets them, on the way
 * to RTS.  The request applies whole or not at all.  Does not sleep.
 * Return: 0, -ENOENT for a QP being destroyed, -EBUSY too late.
 */
int mrc_qp_set_apply(struct mrc_qp *qp, struct mrc_qp_set *set,
		     struct netlink_ext_ack *extack)
{
	struct mrc_dev_prof *own = set->own;
	u8 mask;

	spin_lock_bh(&qp->lock);
	if (qp->dead) {
		spin_unlock_bh(&qp->lock);
		return -ENOENT;
	}
	if (qp->state != IB_QPS_RESET && qp->state != IB_QPS_INIT &&
	    (qp->state != IB_QPS_RTR || (set->mask & MRC_QP_SET_BEFORE_RTR))) {
		bool rtr = qp->state == IB_QPS_RTR;

		spin_unlock_bh(&qp->lock);
		if (rtr)
			NL_SET_ERR_MSG(extack,
				       "the QP is past INIT: profiles and the responder MPR are set before RTR");
		else
			NL_SET_ERR_MSG(extack,
				       "the QP is past RTR: MRC attributes are set before RTS");
		return -EBUSY;
	}
	mask = qp->own_mask;
	if (qp->own)
		*own = *qp->own;
	if (set->mask & MRC_QP_SET_EVPROF) {
		own->evprof_id = set->prof->evprof_id;
		mrc_dev_prof_take_ev(own, set->prof);
		if (own->evprof_id)
			mask |= MRC_QP_OWN_EV;
		else
			mask &= ~MRC_QP_OWN_EV;
	}
	if (set->mask & MRC_QP_SET_CCPROF) {
		own->ccprof_id = set->prof->ccprof_id;
		own->cc = set->prof->cc;
		if (own->ccprof_id)
			mask |= MRC_QP_OWN_CC;
		else
			mask &= ~MRC_QP_OWN_CC;
	}
	set->own = qp->own;
	qp->own = own;
	qp->own_mask = mask;
	if (set->mask & MRC_QP_SET_CCPROF)
		mrc_qp_cc_init(qp);
	if (set->mask & MRC_QP_SET_MPR) {
		qp->send_cap = set->mpr;
		qp->req.window = set->mpr;
	}
	if (set->mask & MRC_QP_SET_MPR_DEST) {
		swap(qp->resp.msgs, set->msgs);
		swap(qp->resp.bitmap, set->bitmap);
		qp->resp.window = set->mpr_dest;
		mrc_resp_reset(qp);
	}
	if (set->mask & MRC_QP_SET_TIMEOUT) {
		qp->attr.timeout = set->timeout;
		qp->rto_us = mrc_qp_rto_us(set->timeout);
	}
	if (set->mask & MRC_QP_SET_RETRY_LINEAR)
		qp->attr.retry_cnt = set->retry_linear;
	if (set->mask & MRC_QP_SET_RETRY_EXP)
		qp->retry_exp = set->retry_exp;
	spin_unlock_bh(&qp->lock);
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_qp_set_apply);

void mrc_qp_set_release(struct mrc_qp_set *set)
{
	kfree(set->own);
	kvfree(set->msgs);
	bitmap_free(set->bitmap);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_qp_set_release);

int mrc_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init)
{
	struct mrc_qp *qp = to_mqp(ibqp);

	spin_lock_bh(&qp->lock);
	*attr = qp->attr;
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	spin_unlock_bh(&qp->lock);

	attr->path_mig_state = IB_MIG_MIGRATED;
	attr->cap.max_send_wr = qp->sq.index_mask;
	attr->cap.max_recv_wr = qp->rq.index_mask;
	attr->cap.max_send_sge = qp->max_send_sge;
	attr->cap.max_recv_sge = ibqp->srq ? 0 : qp->max_recv_sge;
	attr->cap.max_inline_data = qp->max_inline;

	memset(init, 0, sizeof(*init));
	init->qp_type = ibqp->qp_type;
	init->srq = ibqp->srq;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->cap = attr->cap;
	init->sq_sig_type = qp->sq_sig_all ? IB_SIGNAL_ALL_WR :
					     IB_SIGNAL_REQ_WR;
	return 0;
}

/*
 * Flushing: every WQE still queued completes with IB_WC_WR_FLUSH_ERR, as
 * verbs requires of a QP in the error state.  Under qp->lock.
 */
void mrc_flush_sq(struct mrc_qp *qp)
{
	u32 idx = qp->sq.index, prod = mrc_queue_load_producer(&qp->sq);
	struct mrc_cq *cq = to_mcq(qp->ibqp.send_cq);
	u32 taken = mrc_req_taken(qp);
	struct ib_wc wc = {};

	/* A producer moved back behind taken WQEs: those still complete. */
	if (mrc_queue_count(&qp->sq, prod, idx) < taken)
		prod = (idx + taken) & qp->sq.index_mask;
	while (idx != prod) {
		struct mrc_send_ctx *ctx = mrc_sctx(qp, idx);

		wc.wr_id = ctx->state == MRC_WQE_FREE ?
			   ((struct rxe_send_wqe *)mrc_queue_elem(&qp->sq,
								  idx))->wr.wr_id :
			   ctx->wr_id;
		wc.status = ctx->state == MRC_WQE_FREE ? IB_WC_WR_FLUSH_ERR :
			    ctx->status ?: IB_WC_WR_FLUSH_ERR;
		wc.qp = &qp->ibqp;
		mrc_cq_post(cq, &wc, false);
		ctx->state = MRC_WQE_FREE;
		idx = mrc_queue_next(&qp->sq, idx);
	}
	mrc_queue_store_consumer(&qp->sq, idx);
	qp->req.send_idx = idx;
	qp->req.send_off = 0;
	qp->req.psn_una = qp->req.psn_next;
	qp->req.sacked = 0;
}

static void mrc_flush_rwqe(struct mrc_qp *qp, u32 idx, u64 wr_id)
{
	struct mrc_recv_ctx *rctx = mrc_rctx(qp, idx);
	struct ib_wc wc = {
		.wr_id = wr_id,
		/* The WQE the QP failed on says why (mrc_resp_fatal_rwqe()). */
		.status = rctx->claimed && rctx->status ? rctx->status :
			  IB_WC_WR_FLUSH_ERR,
		.opcode = IB_WC_RECV,
		.qp = &qp->ibqp,
	};

	mrc_cq_post(to_mcq(qp->ibqp.recv_cq), &wc, false);
	rctx->claimed = false;
	rctx->status = 0;
}

/*
 * Every WQE posted completes once, and so does every one claimed that the
 * poster has since taken back by moving the producer over it
 * (mrc_resp_rwqe()), with the wr_id copied when it was claimed; the
 * consumer stops at the producer.
 */
static void mrc_flush_rq(struct mrc_qp *qp)
{
	u32 idx = qp->rq.index, posted, span, i;

	/* From an SRQ: the WQEs this QP took; the rest are the SRQ's. */
	if (qp->ibqp.srq) {
		span = qp->resp.rq_claim_end - qp->resp.rq_msn_done;
		idx = qp->resp.rq_msn_done;
		for (i = 0; i < span; i++, idx++)
			if (mrc_rctx(qp, idx)->claimed)
				mrc_flush_rwqe(qp, idx,
					       mrc_rctx(qp, idx)->wr_id);
		qp->resp.rq_claim_end = qp->resp.rq_msn_done;
		return;
	}

	posted = mrc_queue_count(&qp->rq, mrc_queue_load_producer(&qp->rq), idx);
	span = qp->resp.rq_claim_end - qp->resp.rq_msn_done;
	for (i = 0; i < posted; i++) {
		const struct rxe_recv_wqe *w = mrc_queue_elem(&qp->rq, idx);
		struct mrc_recv_ctx *rctx = mrc_rctx(qp, idx);

		mrc_flush_rwqe(qp, idx, rctx->claimed ? rctx->wr_id :
							READ_ONCE(w->wr_id));
		idx = mrc_queue_next(&qp->rq, idx);
	}
	mrc_queue_store_consumer(&qp->rq, idx);
	for (; i < span; i++) {
		if (mrc_rctx(qp, idx)->claimed)
			mrc_flush_rwqe(qp, idx, mrc_rctx(qp, idx)->wr_id);
		idx = mrc_queue_next(&qp->rq, idx);
	}
	qp->resp.rq_claim_end = qp->resp.rq_msn_done;
}

void mrc_qp_flush(struct mrc_qp *qp)
{
	lockdep_assert_held(&qp->lock);

	del_timer(&qp->rtx_timer);
	mrc_flush_sq(qp);
	mrc_flush_rq(qp);
}

/**
 * mrc_qp_error() - move a QP to the error state because of a failure
 * @qp: the QP, locked
 * @why: the cause, as the controller's MRC_CMD_QP_EVENT reports it; the
 *	caller has already set the failed WQE's completion status
 */
void mrc_qp_error(struct mrc_qp *qp, enum mrc_qp_error why)
{
	lockdep_assert_held(&qp->lock);

	if (qp->state == IB_QPS_ERR)
		return;
	qp->state = IB_QPS_ERR;
	qp->attr.qp_state = IB_QPS_ERR;
	mrc_count(qp->mdev, qp->av.plane, MRC_CNT_QP_ERRORS, 1);
	mrc_event_qp_error(qp, why);
	mrc_qp_flush(qp);
	if (qp->ibqp.event_handler) {
		struct ib_event ev = {
			.device = qp->ibqp.device,
			.element.qp = &qp->ibqp,
			.event = IB_EVENT_QP_FATAL,
		};

		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
	}
	mrc_qp_last_wqe(qp);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_qp_error);

/* Kernel consumers: turn an ib_send_wr into an rxe-layout WQE. */
static int mrc_post_one_send(struct mrc_qp *qp, const struct ib_send_wr *wr)
{
	u32 prod = qp->sq.buf->producer_index & qp->sq.index_mask;
	struct rxe_send_wqe *wqe;
	u64 length = 0;
	int i;

	if (mrc_queue_next(&qp->sq, prod) == qp->sq.index)
		return -ENOMEM;
	/* The kernel has no memory windows (and no bind WR to bind one). */
	if ((!mrc_wr_opcode_ok(wr->opcode) && !mrc_wr_local(wr->opcode)) ||
	    wr->opcode == IB_WR_BIND_MW)
		return -EOPNOTSUPP;
	if (wr->num_sge < 0 || wr->num_sge > MRC_MAX_SGE)
		return -EINVAL;

	wqe = mrc_queue_elem(&qp->sq, prod);
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr.wr_id = wr->wr_id;
	wqe->wr.opcode = wr->opcode;
	wqe->wr.send_flags = wr->send_flags;
	if (wr->opcode == IB_WR_REG_MR) {
		wqe->wr.wr.reg.mr = reg_wr(wr)->mr;
		wqe->wr.wr.reg.key = reg_wr(wr)->key;
		wqe->wr.wr.reg.access = reg_wr(wr)->access;
		goto publish;
	}
	if (wr->opcode == IB_WR_LOCAL_INV) {
		wqe->wr.ex.invalidate_rkey = wr->ex.invalidate_rkey;
		goto publish;
	}
	wqe->wr.ex.imm_data = wr->ex.imm_data;
	if (wr->opcode == IB_WR_RDMA_WRITE ||
	    wr->opcode == IB_WR_RDMA_WRITE_WITH_IMM ||
	    wr->opcode == IB_WR_RDMA_READ) {
		wqe->wr.wr.rdma.remote_addr = rdma_wr(wr)->remote_addr;
		wqe->wr.wr.rdma.rkey = rdma_wr(wr)->rkey;
	}
	if (mrc_wr_atomic(wr->opcode)) {
		wqe->wr.wr.atomic.remote_addr = atomic_wr(wr)->remote_addr;
		wqe->wr.wr.atomic.compare_add = atomic_wr(wr)->compare_add;
		wqe->wr.wr.atomic.swap = atomic_wr(wr)->swap;
		wqe->wr.wr.atomic.rkey = atomic_wr(wr)->rkey;
	}
	for (i = 0; i < wr->num_sge; i++)
		length += wr->sg_list[i].length;
	if (length > MRC_MAX_MSG_LEN)
		return -EINVAL;
	/* As rdma_rxe: the result needs 8 bytes, the target alignment. */
	if (mrc_wr_atomic(wr->opcode) &&
	    (length < MRC_ATOMIC_LEN ||
	     !IS_ALIGNED(atomic_wr(wr)->remote_addr, MRC_ATOMIC_LEN)))
		return -EINVAL;

	if (wr->send_flags & IB_SEND_INLINE) {
		u8 *p = wqe->dma.inline_data;

		if (length > qp->max_inline || wr->opcode == IB_WR_RDMA_READ ||
		    mrc_wr_atomic(wr->opcode))
			return -EINVAL;
		/* Soft RDMA: sge addresses are kernel virtual addresses. */
		for (i = 0; i < wr->num_sge; i++) {
			memcpy(p, (void *)(uintptr_t)wr->sg_list[i].addr,
			       wr->sg_list[i].length);
			p += wr->sg_list[i].length;
		}
	} else {
		if (wr->num_sge > qp->max_send_sge)
			return -EINVAL;
		wqe->dma.num_sge = wr->num_sge;
		for (i = 0; i < wr->num_sge; i++) {
			wqe->dma.sge[i].addr = wr->sg_list[i].addr;
			wqe->dma.sge[i].length = wr->sg_list[i].length;
			wqe->dma.sge[i].lkey = wr->sg_list[i].lkey;
		}
	}
	wqe->dma.length = length;
	wqe->dma.resid = length;
publish:
	/*
	 * The kernel is the producer here; q->index stays the consumer.  The
	 * release publishes the WQE before the index the requester reads.
	 */
	smp_store_release(&qp->sq.buf->producer_index,
			  mrc_queue_next(&qp->sq, prod));
	return 0;
}

int mrc_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr)
{
	struct mrc_qp *qp = to_mqp(ibqp);
	struct sk_buff_head out;
	int err = 0;

	if (ibqp->qp_type == IB_QPT_UD && qp->is_user) {
		mrc_ud_doorbell(qp);
		return 0;
	}
	if (ibqp->qp_type != IB_QPT_RC)
		return mrc_ud_post_send(qp, wr, bad_wr);

	__skb_queue_head_init(&out);
	mrc_qp_lock_tx(qp);
	if (!qp->is_user) {
		if (qp->state < IB_QPS_RTS) {
			err = -EINVAL;
			*bad_wr = wr;
		}
		for (; wr && !err; wr = wr->next) {
			err = mrc_post_one_send(qp, wr);
			if (err)
				*bad_wr = wr;
		}
	}
	/* For user QPs this is the doorbell: the WQEs are in the queue. */
	if (qp->state == IB_QPS_ERR)
		mrc_flush_sq(qp);
	else
		mrc_req_run(qp, &out);
	mrc_qp_unlock_xmit(qp, &out);
	return err;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_post_send);

/**
 * mrc_post_one_recv() - turn an ib_recv_wr into an rxe-layout WQE
 * @rq: a kernel consumer's RQ or SRQ, its poster's lock held
 * @max_sge: SGEs of a WQE at most
 * @wr: the work request
 *
 * Return: 0, -ENOMEM when the queue is full, -EINVAL for too many SGEs.
 */
int mrc_post_one_recv(struct mrc_queue *rq, u32 max_sge,
		      const struct ib_recv_wr *wr)
{
	u32 prod = rq->buf->producer_index & rq->index_mask;
	struct rxe_recv_wqe *wqe;
	u64 length = 0;
	int i;

	if (mrc_queue_next(rq, prod) == rq->index)
		return -ENOMEM;
	if (wr->num_sge < 0 || wr->num_sge > max_sge)
		return -EINVAL;
	wqe = mrc_queue_elem(rq, prod);
	wqe->wr_id = wr->wr_id;
	wqe->dma.num_sge = wr->num_sge;
	for (i = 0; i < wr->num_sge; i++) {
		wqe->dma.sge[i].addr = wr->sg_list[i].addr;
		wqe->dma.sge[i].length = wr->sg_list[i].length;
		wqe->dma.sge[i].lkey = wr->sg_list[i].lkey;
		length += wr->sg_list[i].length;
	}
	wqe->dma.length = min_t(u64, length, U32_MAX);
	/* Publish the WQE before the index the receive path reads. */
	smp_store_release(&rq->buf->producer_index, mrc_queue_next(rq, prod));
	return 0;
}

int mrc_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr)
{
	struct mrc_qp *qp = to_mqp(ibqp);
	int err = 0;

	/* Its receive WQEs go to the SRQ. */
	if (ibqp->srq) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_bh(&qp->lock);
	if (qp->state == IB_QPS_RESET) {
		err = -EINVAL;
		*bad_wr = wr;
	}
	for (; wr && !err; wr = wr->next) {
		err = mrc_post_one_recv(&qp->rq, qp->max_recv_sge, wr);
		if (err)
			*bad_wr = wr;
	}
	if (qp->state == IB_QPS_ERR)
		mrc_flush_rq(qp);
	spin_unlock_bh(&qp->lock);
	return err;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_post_recv);
