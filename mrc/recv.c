// SPDX-License-Identifier: GPL-2.0
/*
 * The receive demultiplexer: what the UDP tunnel sockets of net.c take in,
 * in softirq, checked (ICRC, headers), decoded once, and handed to whoever
 * it is for: the GSI QP (ud.c), or a QP's responder (requests) or
 * completer (SACKs, NACKs, READ responses), or its EV set (port status).
 * A packet that was processed is consumed; one that was not is dropped,
 * and counted.
 */

#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/moduleparam.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ipv6.h>

#include "mrc.h"

/*
 * A QP hears only its peer: a packet whose source is not the peer's address
 * on its arrival plane is dropped (2), or only counted (1) where hosts are
 * numbered so that mrc_ev_resolve() cannot know the peer's address on every
 * plane, or let through uncounted (0).  Documentation/wire-format.md, the
 * threat model, says what this stops and what it cannot.
 */
enum { MRC_SRC_CHECK_OFF, MRC_SRC_CHECK_COUNT, MRC_SRC_CHECK_ENFORCE };
unsigned int mrc_src_check = MRC_SRC_CHECK_ENFORCE;

static int mrc_src_check_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, MRC_SRC_CHECK_OFF,
				     MRC_SRC_CHECK_ENFORCE);
}

static const struct kernel_param_ops mrc_src_check_ops = {
	.set = mrc_src_check_set,
	.get = param_get_uint,
};

module_param_cb(src_check, &mrc_src_check_ops, &mrc_src_check, 0644);
MODULE_PARM_DESC(src_check,
		 "packets not from the QP's peer: 0 accept, 1 count, 2 drop and count (default)");

static unsigned int mrc_recv_plane(struct mrc_device *mdev,
				   const struct net_device *ndev)
{
	struct mrc_plane *plane;
	unsigned int i;

	for (i = 0; i < mdev->nports; i++) {
		plane = rcu_dereference(mdev->planes[i]);
		if (plane && plane->ndev == ndev)
			return i;
	}
	return MRC_MAX_PLANES;
}

/* Requests to the responder, responses and control to the requester. */
static void mrc_recv_qp(struct mrc_qp *qp, unsigned int plane,
			const struct mrc_hdrs *h, const void *payload,
			struct sk_buff_head *out)
{
	switch (h->opcode) {
	case MRC_OP_SACK:
		mrc_comp_sack_rcv(qp, h, out);
		break;
	case MRC_OP_NACK:
		mrc_comp_nack_rcv(qp, h, out);
		break;
	case MRC_OP_PORT_STATUS:
		/* The second copy, or one overtaken, changes nothing. */
		if (mrc_ev_peer_status(qp, h, plane))
			mrc_count(qp->mdev, qp->av.plane, MRC_CNT_PSTAT_RX, 1);
		break;
	case MRC_OP_READ_RESP_FIRST:
	case MRC_OP_READ_RESP_MIDDLE:
	case MRC_OP_READ_RESP_LAST:
	case MRC_OP_READ_RESP_ONLY:
	case MRC_OP_ATOMIC_ACK:
		mrc_comp_read_resp_rcv(qp, h, payload, out);
		break;
	default:
		mrc_resp_rcv(qp, h, payload, out);
		break;
	}
}

/*
 * Under qp->lock (the AV and paths change under it).  A packet not from the
 * peer is counted, and dropped when enforcing, except on a plane without a
 * path: there the AV's address is only a guess at the peer's (the planes'
 * addresses gave no path), and dropping would cut the plane off.  Through
 * the loopback device (@local) only the peer's exact address passes, in
 * every mode but off: any local user can send there, and a QP whose peer
 * is remote never hears itself that way.
 */
static bool mrc_recv_from_peer(struct mrc_qp *qp, unsigned int plane,
			       const struct mrc_rx_src *src, bool local)
{
	unsigned int mode = READ_ONCE(mrc_src_check);

	if (mode == MRC_SRC_CHECK_OFF || mrc_ev_peer_addr_ok(qp, plane, src))
		return true;
	mrc_count(qp->mdev, plane, MRC_CNT_RX_BAD_SRC, 1);
	if (local)
		return false;
	return mode == MRC_SRC_CHECK_COUNT || !mrc_ev_peer_addr_known(qp, plane);
}

/*
 * One MRC packet, data at the BTH.  Return: true when it was processed
 * (whatever the protocol made of it: a duplicate is answered too), false
 * when it was dropped before anything could take it.
 */
static bool mrc_recv_pkt(struct mrc_device *mdev, unsigned int plane,
			 struct sk_buff *skb, bool ce,
			 const struct mrc_rx_src *src, bool local)
{
	struct sk_buff_head out;
	struct mrc_hdrs h;
	struct mrc_qp *qp;
	bool done;
	int err;

	mrc_count(mdev, plane, MRC_CNT_RX_PKTS, 1);
	mrc_count(mdev, plane, MRC_CNT_RX_BYTES, skb->len);

	if (!mrc_icrc_check(skb->data, skb->len)) {
		mrc_count(mdev, plane, MRC_CNT_RX_BAD_ICRC, 1);
		return false;
	}
	err = mrc_wire_decode_hdrs(skb->data, skb->len, &h);
	if (err) {
		mrc_count(mdev, plane, MRC_CNT_RX_MALFORMED, 1);
		return false;
	}
	if (ce) {
		h.ce = true;
		mrc_count(mdev, plane, MRC_CNT_RX_ECN_CE, 1);
	}
	if (h.opcode == MRC_OP_UD_SEND_ONLY ||
	    h.opcode == MRC_OP_UD_SEND_ONLY_IMM)
		return mrc_ud_rcv(mdev, plane, skb, &h);

	qp = mrc_qp_lookup(mdev, h.dqpn);
	if (!qp) {
		mrc_count(mdev, plane, MRC_CNT_RX_NO_QP, 1);
		return false;
	}

	__skb_queue_head_init(&out);
	spin_lock(&qp->lock);
	/* RTR and later receive; only RTS and later send or expect acks. */
	done = !qp->dead && qp->state >= IB_QPS_RTR && qp->state != IB_QPS_ERR;
	if (!done)
		mrc_count(mdev, plane, MRC_CNT_RX_BAD_STATE, 1);
	else
		done = mrc_recv_from_peer(qp, plane, src, local);
	if (done)
		mrc_recv_qp(qp, plane, &h, skb->data + h.hdr_len, &out);
	spin_unlock(&qp->lock);

	mrc_net_xmit(qp, &out);
	return done;
}

/*
 * The plane netdev a packet arrived for.  A packet mrc sent to an address of
 * its own host (loopback, Documentation/verbs.md) arrives on the loopback
 * device, which only this host can send on: it belongs to the netdev that
 * owns its destination address.  Under rcu_read_lock(); NULL when no netdev
 * of the namespace owns it.
 */
static struct net_device *mrc_recv_ndev(struct sk_buff *skb)
{
	struct net *net = dev_net(skb->dev);

	if (!(skb->dev->flags & IFF_LOOPBACK))
		return skb->dev;
	if (ip_hdr(skb)->version == 4)
		return __ip_dev_find(net, ip_hdr(skb)->daddr, false);
	if (ipv6_hdr(skb)->version == 6)
		return mrc_net_owner6(net, &ipv6_hdr(skb)->daddr);
	return NULL;
}

/**
 * mrc_recv_udp() - the encap_rcv of mrc's UDP tunnel sockets
 * @sk: the socket, IPv4 or IPv6
 * @skb: the packet, data at the UDP header
 *
 * A packet processed is consumed (consume_skb()); one dropped unprocessed
 * is freed as a drop (kfree_skb()), which drop monitors count.
 *
 * Context: softirq.
 * Return: 0: the packet was taken, whatever became of it.
 */
int mrc_recv_udp(struct sock *sk, struct sk_buff *skb)
{
	struct net_device *ndev;
	struct mrc_rx_src src;
	struct ib_device *ib;
	bool ce, done = false;
	unsigned int plane;

	/*
	 * The socket's family says which header the UDP layer came from. Over
	 * SRv6 a switch marks the outer header, which End.DT6 stripped without
	 * copying CE inward: mrc_srv6_outer_ce() finds it in the headroom.
	 */
	rcu_read_lock();
	if (sk->sk_family == AF_INET6 && ipv6_hdr(skb)->version == 6) {
		ce = INET_ECN_is_ce(ipv6_get_dsfield(ipv6_hdr(skb))) ||
		     mrc_srv6_outer_ce(skb);
		src.family = AF_INET6;
		src.v6 = ipv6_hdr(skb)->saddr;
	} else {
		ce = INET_ECN_is_ce(ip_hdr(skb)->tos);
		src.family = AF_INET;
		src.v4 = ip_hdr(skb)->saddr;
	}
	ndev = mrc_recv_ndev(skb);
	if (!ndev)
		goto unlock;
	ib = ib_device_get_by_netdev(ndev, RDMA_DRIVER_RXE);
	if (!ib)
		goto unlock;
	/* Belt and braces: main.c keeps rdma_rxe away. */
	if (ib->ops.owner != THIS_MODULE)
		goto put;

	plane = mrc_recv_plane(to_mdev(ib), ndev);
	if (plane < MRC_MAX_PLANES && !skb_linearize(skb) &&
	    pskb_may_pull(skb, sizeof(struct udphdr))) {
		if (ndev != skb->dev)
			mrc_count(to_mdev(ib), plane, MRC_CNT_RX_LOOPBACK, 1);
		__skb_pull(skb, sizeof(struct udphdr));
		done = mrc_recv_pkt(to_mdev(ib), plane, skb, ce, &src,
				    ndev != skb->dev);
	}
put:
	ib_device_put(ib);
unlock:
	rcu_read_unlock();
	if (done)
		consume_skb(skb);
	else
		kfree_skb(skb);
	return 0;
}
