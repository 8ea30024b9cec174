// SPDX-License-Identifier: GPL-2.0
/*
 * Datagrams: UD QPs of applications and kernel consumers, and the GSI QP.
 * rdma_cm connects through the InfiniBand connection manager, which talks
 * MADs over QP1 of every port; the MAD layer creates that QP on each port
 * of every device.  mrc carries a datagram as one UD_SEND_ONLY(_IMM)
 * packet: no PSN, no acknowledgment (the MAD layer has its own timeouts
 * and retries, applications theirs), and delivers it behind the 40-byte
 * GRH area RoCE receivers expect, filled with the IP header it arrived
 * with.  A datagram takes the plane its AH names, with one entropy: the
 * EV set and spraying are the RC transport's.
 */

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include "mrc.h"

#define MRC_GRH_LEN	sizeof(struct ib_grh)

/* Where a queued datagram goes, kept in its skb while it waits. */
struct mrc_ud_cb {
	struct mrc_av av;
};

static_assert(sizeof(struct mrc_ud_cb) <= sizeof_field(struct sk_buff, cb));

static struct mrc_ud_cb *mrc_ud_cb(struct sk_buff *skb)
{
	return (struct mrc_ud_cb *)skb->cb;
}

/*
 * The MAD layer posts sends with interrupts disabled (under its send queue
 * lock), where the IP stack may not be entered; a work item sends them.
 */
/* Send one sealed datagram to the AV its cb holds.  BHs may be on. */
static void mrc_ud_send_one(struct mrc_device *mdev, struct sk_buff *skb)
{
	struct mrc_av av = mrc_ud_cb(skb)->av;
	struct sk_buff_head one;

	__skb_queue_head_init(&one);
	memset(skb->cb, 0, sizeof(skb->cb));
	__skb_queue_tail(&one, skb);
	mrc_net_send(mdev, &av, NULL, MRC_UD_EV, &one);
}

void mrc_ud_work(struct work_struct *work)
{
	struct mrc_qp *qp = container_of(work, struct mrc_qp, ud_work);
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&qp->ud_txq)))
		mrc_ud_send_one(qp->mdev, skb);
}

/*
 * A datagram of @len payload bytes to QP @dqpn under @qkey, headers
 * written; the caller fills *@data and seals it.  NULL without memory.
 */
static struct sk_buff *mrc_ud_pkt(struct mrc_qp *qp, u32 dqpn, u32 qkey,
				  bool has_imm, u32 imm, u32 len, u8 **data)
{
	struct mrc_hdrs h = {
		.opcode = has_imm ? MRC_OP_UD_SEND_ONLY_IMM :
				    MRC_OP_UD_SEND_ONLY,
		.dqpn = dqpn & MRC_PSN_MASK,
		.ev = MRC_UD_EV,
		/* A Q_Key with the high bit set means "use the QP's own". */
		.qkey = (qkey & 0x80000000) ? qp->attr.qkey : qkey,
		.src_qpn = qp->ibqp.qp_num,
		.imm = has_imm ? imm : 0,
		.payload_len = len,
	};
	struct sk_buff *skb = mrc_net_pkt(&h);

	if (skb)
		*data = skb_put(skb, len);
	return skb;
}

/* Hand a sealed datagram for @av to the work item (mrc_ud_work()). */
static void mrc_ud_queue(struct mrc_qp *qp, struct sk_buff *skb,
			 const struct mrc_av *av)
{
	mrc_ud_cb(skb)->av = *av;
	skb_queue_tail(&qp->ud_txq, skb);
}

static int mrc_ud_post_one(struct mrc_qp *qp, const struct ib_send_wr *wr)
{
	const struct ib_ud_wr *ud = ud_wr(wr);
	bool imm = wr->opcode == IB_WR_SEND_WITH_IMM;
	const struct mrc_av *av;
	struct sk_buff *skb;
	u64 len = 0, off = 0;
	int i, err;
	u8 *dst;

	if ((wr->opcode != IB_WR_SEND && !imm) || !ud->ah)
		return -EINVAL;
	if (wr->num_sge < 0 || wr->num_sge > qp->max_send_sge)
		return -EINVAL;
	av = &to_mah(ud->ah)->av;
	for (i = 0; i < wr->num_sge; i++)
		len += wr->sg_list[i].length;
	if (len > mrc_port_mtu(qp->mdev, av->plane))
		return -EMSGSIZE;

	skb = mrc_ud_pkt(qp, ud->remote_qpn, ud->remote_qkey, imm,
			 be32_to_cpu(wr->ex.imm_data), len, &dst);
	if (!skb)
		return -ENOMEM;
	for (i = 0; i < wr->num_sge; i++) {
		struct rxe_sge sge = {
			.addr = wr->sg_list[i].addr,
			.length = wr->sg_list[i].length,
			.lkey = wr->sg_list[i].lkey,
		};

		err = mrc_sge_copy(qp->mdev, qp->ibqp.pd, &sge, 1, 0,
				   dst + off, sge.length, MRC_FROM_MR);
		if (err) {
			kfree_skb(skb);
			return err;
		}
		off += sge.length;
	}
	mrc_net_seal(skb);
	mrc_ud_queue(qp, skb, av);
	queue_work(system_unbound_wq, &qp->ud_work);

	/* A datagram is complete once it is on its way. */
	if (qp->sq_sig_all || (wr->send_flags & IB_SEND_SIGNALED)) {
		struct ib_wc wc = {
			.wr_id = wr->wr_id,
			.status = IB_WC_SUCCESS,
			.opcode = IB_WC_SEND,
			.byte_len = len,
			.qp = &qp->ibqp,
		};

		mrc_cq_post(to_mcq(qp->ibqp.send_cq), &wc, false);
	}
	return 0;
}

/*
 * Kernel consumers' UD QPs and the GSI QP.  Without qp->lock: this may run
 * with interrupts disabled.
 */
int mrc_ud_post_send(struct mrc_qp *qp, const struct ib_send_wr *wr,
		     const struct ib_send_wr **bad_wr)
{
	int err = 0;

	if (READ_ONCE(qp->state) != IB_QPS_RTS) {
		*bad_wr = wr;
		return -EINVAL;
	}
	for (; wr; wr = wr->next) {
		err = mrc_ud_post_one(qp, wr);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	return err;
}

/*
 * One WQE of a user UD QP's send queue as a datagram (*@skbp, sealed),
 * to the AH the WQE names by number.  Every field is read once: user
 * space may rewrite the WQE meanwhile.  Return: the completion status.
 */
static enum ib_wc_status mrc_ud_wqe(struct mrc_qp *qp,
				    const struct rxe_send_wqe *w,
				    struct sk_buff **skbp, struct mrc_av *av,
				    u32 *byte_len)
{
	u32 op = READ_ONCE(w->wr.opcode), flags = READ_ONCE(w->wr.send_flags);
	u32 n = READ_ONCE(w->dma.num_sge), i, len = 0;
	struct rxe_sge sge;
	struct sk_buff *skb;
	u64 sum = 0;
	u8 *dst;

	if (op != IB_WR_SEND && op != IB_WR_SEND_WITH_IMM)
		return IB_WC_LOC_QP_OP_ERR;
	/* librxe too old to name the AH wrote its own vector: refused. */
	if (mrc_ah_av(qp->mdev, READ_ONCE(w->wr.wr.ud.ah_num), qp->ibqp.pd,
		      av))
		return IB_WC_LOC_QP_OP_ERR;
	if (flags & IB_SEND_INLINE) {
		sum = READ_ONCE(w->dma.length);
		if (sum > qp->max_inline)
			return IB_WC_LOC_LEN_ERR;
	} else {
		if (n > qp->max_send_sge)
			return IB_WC_LOC_QP_OP_ERR;
		for (i = 0; i < n; i++)
			sum += READ_ONCE(w->dma.sge[i].length);
	}
	if (sum > mrc_port_mtu(qp->mdev, av->plane))
		return IB_WC_LOC_LEN_ERR;
	len = sum;

	skb = mrc_ud_pkt(qp, READ_ONCE(w->wr.wr.ud.remote_qpn),
			 READ_ONCE(w->wr.wr.ud.remote_qkey),
			 op == IB_WR_SEND_WITH_IMM,
			 be32_to_cpu(READ_ONCE(w->wr.ex.imm_data)), len, &dst);
	if (!skb)
		return IB_WC_LOC_QP_OP_ERR;
	if (flags & IB_SEND_INLINE) {
		memcpy(dst, w->dma.inline_data, len);
	} else {
		/*
		 * Each SGE read once more, as it is copied: one that grew
		 * since it was summed gives no more than the room left.
		 */
		for (i = 0; i < n && len; i++) {
			memcpy(&sge, &w->dma.sge[i], sizeof(sge));
			sge.length = min(sge.length, len);
			if (mrc_sge_copy(qp->mdev, qp->ibqp.pd, &sge, 1, 0, dst,
					 sge.length, MRC_FROM_MR)) {
				kfree_skb(skb);
				return IB_WC_LOC_PROT_ERR;
			}
			dst += sge.length;
			len -= sge.length;
		}
		if (len) {
			kfree_skb(skb);
			return IB_WC_LOC_LEN_ERR;
		}
	}
	mrc_net_seal(skb);
	*skbp = skb;
	*byte_len = sum;
	return IB_WC_SUCCESS;
}

/*
 * Up to MRC_UD_BATCH WQEs of a user UD QP's send queue, each one datagram
 * onto @out, complete once it is on its way.  A WQE that cannot be sent
 * completes in error and fails the QP, which flushes the rest.  Return:
 * true when the batch ended with WQEs left.
 */
static bool mrc_ud_sq_run(struct mrc_qp *qp, struct sk_buff_head *out)
{
	u32 prod = mrc_queue_load_producer(&qp->sq), n = 0;

	lockdep_assert_held(&qp->lock);
	while (qp->state == IB_QPS_RTS && qp->sq.index != prod) {
		const struct rxe_send_wqe *w = mrc_queue_elem(&qp->sq,
							      qp->sq.index);
		struct ib_wc wc = {
			.wr_id = READ_ONCE(w->wr.wr_id),
			.opcode = IB_WC_SEND,
			.qp = &qp->ibqp,
		};
		u32 flags = READ_ONCE(w->wr.send_flags);
		struct sk_buff *skb = NULL;
		struct mrc_av av;

		if (n++ == MRC_UD_BATCH)
			return true;
		wc.status = mrc_ud_wqe(qp, w, &skb, &av, &wc.byte_len);
		if (skb) {
			mrc_ud_cb(skb)->av = av;
			__skb_queue_tail(out, skb);
		}
		mrc_queue_store_consumer(&qp->sq, mrc_queue_next(&qp->sq,
								 qp->sq.index));
		/* The requester's view of the queue: nothing in progress. */
		qp->req.send_idx = qp->sq.index;
		if ((wc.status != IB_WC_SUCCESS || qp->sq_sig_all ||
		     (flags & IB_SEND_SIGNALED)) &&
		    mrc_cq_post(to_mcq(qp->ibqp.send_cq), &wc, false))
			wc.status = IB_WC_GENERAL_ERR;	/* the CQ overran */
		if (wc.status != IB_WC_SUCCESS)
			mrc_qp_error(qp, MRC_QP_ERROR_LOCAL);
	}
	return false;
}

/**
 * mrc_ud_doorbell() - a user UD QP's doorbell: send what its queue holds
 * @qp: the QP
 *
 * In batches, each sent once the QP's lock is dropped, so that neither
 * the time spent with bottom halves off nor the memory held grows with
 * the queue.  Context: process (the POST_SEND command).
 */
void mrc_ud_doorbell(struct mrc_qp *qp)
{
	struct sk_buff_head out;
	struct sk_buff *skb;
	bool more = true;

	__skb_queue_head_init(&out);
	while (more) {
		spin_lock_bh(&qp->lock);
		if (qp->state == IB_QPS_ERR) {
			mrc_flush_sq(qp);
			more = false;
		} else {
			more = mrc_ud_sq_run(qp, &out);
		}
		spin_unlock_bh(&qp->lock);
		while ((skb = __skb_dequeue(&out)))
			mrc_ud_send_one(qp->mdev, skb);
		cond_resched();
	}
}

/* The 40 bytes before a datagram's payload: the IP header it came with. */
static void mrc_ud_grh(const struct sk_buff *skb, u8 *grh, u8 *net_type)
{
	memset(grh, 0, MRC_GRH_LEN);
	if (ip_hdr(skb)->version == 4) {
		/* RoCEv2 over IPv4 puts the header in the last 20 bytes. */
		memcpy(grh + MRC_GRH_LEN - sizeof(struct iphdr), ip_hdr(skb),
		       sizeof(struct iphdr));
		*net_type = RDMA_NETWORK_IPV4;
	} else {
		memcpy(grh, ipv6_hdr(skb), sizeof(struct ipv6hdr));
		*net_type = RDMA_NETWORK_IPV6;
	}
}

/**
 * mrc_ud_rcv() - deliver a datagram to the UD QP it names
 * @mdev: the device
 * @plane: the plane (port - 1)
 * @skb: the packet, data at the MRC headers, network header still set
 * @h: its decoded headers
 *
 * QP 1 is the GSI QP of the plane it came on; other QPs must be UD QPs of
 * that port.  A datagram without a posted receive WQE, or with another
 * Q_Key, is dropped; one too long for its WQE completes in error.
 * Softirq, under RCU.
 *
 * Return: true when the datagram was delivered (a completion posted),
 * false when it was dropped.
 */
bool mrc_ud_rcv(struct mrc_device *mdev, unsigned int plane,
		struct sk_buff *skb, const struct mrc_hdrs *h)
{
	struct mrc_qp *qp = NULL;
	const struct rxe_recv_wqe *w;
	u8 grh[MRC_GRH_LEN], net_type;
	struct mrc_recv_ctx *rctx;
	struct ib_wc wc = {};
	bool done = false;
	u64 room = 0;
	u32 i;

	if (h->dqpn == 1) {
		qp = rcu_dereference(mdev->gsi[plane]);
	} else {
		qp = mrc_ud_qp_lookup(mdev, h->dqpn);
		if (qp && READ_ONCE(qp->attr.port_num) != plane + 1)
			qp = NULL;
	}
	if (!qp) {
		mrc_count(mdev, plane, MRC_CNT_RX_NO_QP, 1);
		return false;
	}

	spin_lock(&qp->lock);
	if (qp->dead || qp->state < IB_QPS_RTR || qp->state == IB_QPS_ERR ||
	    h->qkey != qp->attr.qkey) {
		mrc_count(mdev, plane, MRC_CNT_RX_BAD_STATE, 1);
		goto unlock;
	}
	if (mrc_queue_load_producer(&qp->rq) == qp->rq.index) {
		mrc_count(mdev, plane, MRC_CNT_UD_DROPPED, 1);
		goto unlock;
	}
	/* A kernel copy of the WQE: the poster may rewrite the queue's. */
	w = mrc_queue_elem(&qp->rq, qp->rq.index);
	rctx = mrc_rctx(qp, qp->rq.index);
	rctx->num_sge = min(READ_ONCE(w->dma.num_sge), qp->max_recv_sge);
	memcpy(rctx->sge, w->dma.sge, rctx->num_sge * sizeof(rctx->sge[0]));
	for (i = 0; i < rctx->num_sge; i++)
		room += rctx->sge[i].length;

	wc.wr_id = READ_ONCE(w->wr_id);
	wc.opcode = IB_WC_RECV;
	wc.qp = &qp->ibqp;
	wc.byte_len = MRC_GRH_LEN + h->payload_len;
	wc.src_qp = h->src_qpn;
	wc.port_num = plane + 1;
	if (room < wc.byte_len) {
		wc.status = IB_WC_LOC_LEN_ERR;
	} else {
		mrc_ud_grh(skb, grh, &net_type);
		if (mrc_sge_copy(mdev, qp->ibqp.pd, rctx->sge, rctx->num_sge, 0,
				 grh, MRC_GRH_LEN, MRC_TO_MR) ||
		    mrc_sge_copy(mdev, qp->ibqp.pd, rctx->sge, rctx->num_sge,
				 MRC_GRH_LEN, skb->data + h->hdr_len,
				 h->payload_len, MRC_TO_MR)) {
			wc.status = IB_WC_LOC_PROT_ERR;
		} else {
			wc.status = IB_WC_SUCCESS;
			wc.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
			wc.network_hdr_type = net_type;
			if (h->opcode == MRC_OP_UD_SEND_ONLY_IMM) {
				wc.wc_flags |= IB_WC_WITH_IMM;
				wc.ex.imm_data = cpu_to_be32(h->imm);
			}
		}
	}
	mrc_queue_store_consumer(&qp->rq, mrc_queue_next(&qp->rq,
							 qp->rq.index));
	mrc_count(mdev, plane, MRC_CNT_RX_DATA, 1);
	mrc_cq_post(to_mcq(qp->ibqp.recv_cq), &wc, false);
	done = true;
unlock:
	spin_unlock(&qp->lock);
	return done;
}
