// SPDX-License-Identifier: GPL-2.0
/*
 * Datagrams for the GSI QP.  rdma_cm connects through the InfiniBand
 * connection manager, which talks MADs over QP1 of every port; the MAD
 * layer creates that QP on each port of every device.  mrc carries a MAD
 * as one UD_SEND_ONLY packet: no PSN, no acknowledgment (the MAD layer has
 * its own timeouts and retries), and delivers it behind the 40-byte GRH
 * area RoCE receivers expect, filled with the IP header it arrived with.
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
void mrc_ud_work(struct work_struct *work)
{
	struct mrc_qp *qp = container_of(work, struct mrc_qp, ud_work);
	struct sk_buff_head one;
	struct sk_buff *skb;

	__skb_queue_head_init(&one);
	while ((skb = skb_dequeue(&qp->ud_txq))) {
		struct mrc_av av = mrc_ud_cb(skb)->av;

		memset(skb->cb, 0, sizeof(skb->cb));
		__skb_queue_tail(&one, skb);
		mrc_net_send(qp->mdev, &av, NULL, MRC_UD_EV, &one);
	}
}

static int mrc_ud_post_one(struct mrc_qp *qp, const struct ib_send_wr *wr)
{
	const struct ib_ud_wr *ud = ud_wr(wr);
	struct mrc_hdrs h = {};
	struct sk_buff *skb;
	u64 len = 0, off = 0;
	int i, err;
	u8 *dst;

	if (wr->opcode != IB_WR_SEND || !ud->ah)
		return -EINVAL;
	if (wr->num_sge < 0 || wr->num_sge > qp->max_send_sge)
		return -EINVAL;
	for (i = 0; i < wr->num_sge; i++)
		len += wr->sg_list[i].length;
	if (len > qp->mtu)
		return -EMSGSIZE;

	h.opcode = MRC_OP_UD_SEND_ONLY;
	h.dqpn = ud->remote_qpn & MRC_PSN_MASK;
	h.ev = MRC_UD_EV;
	/* A Q_Key with the high bit set means "use the QP's own" (IBA). */
	h.qkey = (ud->remote_qkey & 0x80000000) ? qp->attr.qkey :
						   ud->remote_qkey;
	h.src_qpn = qp->ibqp.qp_num;
	h.payload_len = len;

	skb = mrc_net_pkt(&h);
	if (!skb)
		return -ENOMEM;
	dst = skb_put(skb, len);
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

	mrc_ud_cb(skb)->av = to_mah(ud->ah)->av;
	skb_queue_tail(&qp->ud_txq, skb);
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

/* Without qp->lock: this may run with interrupts disabled. */
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
 * mrc_ud_rcv() - deliver a datagram to the GSI QP of the plane it came on
 * @mdev: the device
 * @plane: the plane (port - 1)
 * @skb: the packet, data at the MRC headers, network header still set
 * @h: its decoded headers
 *
 * A datagram without a posted receive WQE is dropped, one too long for it
 * completes in error: the MAD layer above retries.  Softirq, under RCU.
 *
 * Return: true when the datagram was delivered (a completion posted),
 * false when it was dropped.
 */
bool mrc_ud_rcv(struct mrc_device *mdev, unsigned int plane,
		struct sk_buff *skb, const struct mrc_hdrs *h)
{
	struct mrc_qp *qp = NULL;
	struct rxe_sge sge[MRC_UD_MAX_SGE];
	const struct rxe_recv_wqe *w;
	u8 grh[MRC_GRH_LEN], net_type;
	struct ib_wc wc = {};
	bool done = false;
	u64 room = 0;
	u32 n, i;

	if (h->dqpn == 1)
		qp = rcu_dereference(mdev->gsi[plane]);
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
	w = mrc_queue_elem(&qp->rq, qp->rq.index);
	n = min_t(u32, READ_ONCE(w->dma.num_sge), MRC_UD_MAX_SGE);
	n = min(n, qp->max_recv_sge);
	memcpy(sge, w->dma.sge, n * sizeof(sge[0]));
	for (i = 0; i < n; i++)
		room += sge[i].length;

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
		if (mrc_sge_copy(mdev, qp->ibqp.pd, sge, n, 0, grh,
				 MRC_GRH_LEN, MRC_TO_MR) ||
		    mrc_sge_copy(mdev, qp->ibqp.pd, sge, n, MRC_GRH_LEN,
				 skb->data + h->hdr_len, h->payload_len,
				 MRC_TO_MR)) {
			wc.status = IB_WC_LOC_PROT_ERR;
		} else {
			wc.status = IB_WC_SUCCESS;
			wc.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
			wc.network_hdr_type = net_type;
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
