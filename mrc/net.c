// SPDX-License-Identifier: GPL-2.0
/*
 * The socket and transmit layer of mrc: one UDP tunnel socket pair per
 * namespace, whose receive side hands MRC packets to recv.c; the one
 * builder of MRC packets; and the transmission of built packets over the
 * plane netdev their QP addresses, routed and cached per path.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/dst.h>
#include <net/dst_cache.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/neighbour.h>
#include <net/route.h>
#include <net/udp_tunnel.h>

#include "mrc.h"

/*
 * Room for the outer headers: IPv6 and UDP pushed by udp_tunnel*_xmit_skb(),
 * or the SRv6 encapsulation, the larger.
 */
#define MRC_NET_HEADROOM	MRC_SRV6_HEADROOM

static int mrc_sock_create(struct net *net, bool ipv6, struct socket **sockp)
{
	struct udp_tunnel_sock_cfg tcfg = {
		.encap_type = 1,
		.encap_rcv = mrc_recv_udp,
	};
	struct udp_port_cfg cfg = {
		.local_udp_port = htons(mrc_udp_port),
	};
	int err;

	if (ipv6) {
		cfg.family = AF_INET6;
		cfg.local_ip6 = in6addr_any;
		cfg.ipv6_v6only = 1;
		cfg.use_udp6_tx_checksums = 1;
		cfg.use_udp6_rx_checksums = 1;
	} else {
		cfg.family = AF_INET;
		cfg.local_ip.s_addr = htonl(INADDR_ANY);
	}
	err = udp_sock_create(net, &cfg, sockp);
	if (err)
		return err;
	setup_udp_tunnel_sock(net, *sockp, &tcfg);
	return 0;
}

int mrc_net_sockets_init(struct net *net)
{
	struct mrc_net *mn = mrc_net(net);
	int err;

	err = mrc_sock_create(net, false, &mn->sock4);
	if (err) {
		pr_err("UDP port %u: IPv4 socket: %d\n", mrc_udp_port, err);
		return err;
	}
	/* A kernel booted with ipv6.disable=1 carries MRC over IPv4 only. */
	if (IS_ENABLED(CONFIG_IPV6) && ipv6_mod_enabled()) {
		err = mrc_sock_create(net, true, &mn->sock6);
		if (err) {
			pr_err("UDP port %u: IPv6 socket: %d\n", mrc_udp_port,
			       err);
			udp_tunnel_sock_release(mn->sock4);
			mn->sock4 = NULL;
			return err;
		}
	}
	return 0;
}

void mrc_net_sockets_exit(struct net *net)
{
	struct mrc_net *mn = mrc_net(net);

	if (mn->sock6)
		udp_tunnel_sock_release(mn->sock6);
	if (mn->sock4)
		udp_tunnel_sock_release(mn->sock4);
	mn->sock4 = NULL;
	mn->sock6 = NULL;
}

/**
 * mrc_net_pkt() - a new MRC packet with the headers of @h
 * @h: the headers; h->payload_len bytes of room follow them
 *
 * The caller puts the payload, then seals with mrc_net_seal().  Head room
 * is left for the link, IP and UDP headers of any plane.  The packet's EV
 * and plane go in its struct mrc_skb_cb for mrc_net_xmit().
 *
 * Return: the skb, data at the BTH, or NULL when out of memory.
 */
struct sk_buff *mrc_net_pkt(const struct mrc_hdrs *h)
{
	unsigned int head = LL_MAX_HEADER + MRC_NET_HEADROOM;
	struct sk_buff *skb;
	int hlen;

	hlen = mrc_wire_hdr_len(h->opcode, h->flags);
	if (WARN_ON_ONCE(hlen < 0))
		return NULL;
	skb = alloc_skb(head + hlen + h->payload_len + MRC_ICRC_LEN,
			GFP_ATOMIC | __GFP_NOWARN);
	if (!skb)
		return NULL;
	skb_reserve(skb, head);
	if (mrc_wire_encode(h, skb_put(skb, hlen), hlen) != hlen) {
		/* Our own headers broke a wire rule: a bug, not an input. */
		WARN_ON_ONCE(1);
		kfree_skb(skb);
		return NULL;
	}
	MRC_SKB_CB(skb)->ev = h->ev;
	MRC_SKB_CB(skb)->plane = mrc_ev_plane(h->ev);
	return skb;
}

/**
 * mrc_net_ctl() - a sealed MRC packet without payload
 * @h: the headers (SACK, NACK, PROBE, PORT_STATUS, READ request)
 *
 * Return: the packet with its ICRC, or NULL when out of memory.
 */
struct sk_buff *mrc_net_ctl(const struct mrc_hdrs *h)
{
	struct sk_buff *skb = mrc_net_pkt(h);

	if (skb)
		mrc_net_seal(skb);
	return skb;
}

/* The ICRC after the payload: the packet is complete. */
void mrc_net_seal(struct sk_buff *skb)
{
	skb_put(skb, MRC_ICRC_LEN);
	mrc_icrc_seal(skb->data, skb->len);
}

/* The UDP source port carries the EV's entropy: what ECMP hashes on. */
static __be16 mrc_net_sport(u32 ev)
{
	return htons(mrc_ev_sport(ev));
}

/* Every MRC packet is ECN-capable: CE marks steer the sender off a path. */
static u8 mrc_net_tos(const struct mrc_av *av)
{
	return (av->tos & ~INET_ECN_MASK) | INET_ECN_ECT_0;
}

/* The route of a packet of @av out of @ndev; *@saddr gets its source. */
static struct rtable *mrc_route4(const struct mrc_av *av,
				 struct net_device *ndev, struct sock *sk,
				 __be32 *saddr)
{
	struct flowi4 fl4 = {
		.flowi4_oif = ndev->ifindex,
		.flowi4_proto = IPPROTO_UDP,
		.flowi4_tos = RT_TOS(av->tos),
		.daddr = av->daddr.v4,
		.saddr = av->saddr.v4,
	};
	struct rtable *rt;

	/*
	 * To an address of this host (loopback, Documentation/verbs.md) the
	 * route leaves through the loopback device, which a lookup bound to
	 * the plane's netdev would refuse.
	 */
	if (inet_addr_type(sock_net(sk), av->daddr.v4) == RTN_LOCAL)
		fl4.flowi4_oif = 0;
	rt = ip_route_output_key(sock_net(sk), &fl4);
	if (!IS_ERR(rt))
		*saddr = fl4.saddr;
	return rt;
}

/**
 * mrc_net_owner6() - the netdev of @net that owns IPv6 address @a
 * @net: the namespace
 * @a: the address
 *
 * Context: rcu_read_lock() held, for the netdev returned.
 * Return: the netdev, or NULL (none, or IPv6 not loaded).
 */
struct net_device *mrc_net_owner6(struct net *net, const struct in6_addr *a)
{
#if IS_ENABLED(CONFIG_IPV6)
	struct net_device *ndev = ipv6_stub->ipv6_dev_find(net, a, NULL);

	return IS_ERR(ndev) ? NULL : ndev;
#else
	return NULL;
#endif
}

#if IS_ENABLED(CONFIG_IPV6)
/* Whether @da is an address of this host, as mrc_route4() asks for IPv4. */
static bool mrc_net_local6(struct net *net, const struct in6_addr *da)
{
	bool local;

	rcu_read_lock();
	local = mrc_net_owner6(net, da);
	rcu_read_unlock();
	return local;
}

/*
 * The route of a packet of @av to @da (the peer, or over SRv6 the path's
 * first carrier, @proto IPPROTO_IPV6) out of @ndev; *@saddr gets its source.
 */
static struct dst_entry *mrc_route6(const struct mrc_av *av,
				    const struct in6_addr *da, u8 proto,
				    struct net_device *ndev, struct sock *sk,
				    struct in6_addr *saddr)
{
	struct flowi6 fl6 = {
		.flowi6_oif = ndev->ifindex,
		.flowi6_proto = proto,
		.daddr = *da,
		.saddr = av->saddr.v6,
	};
	struct dst_entry *dst;

	if (mrc_net_local6(sock_net(sk), da))
		fl6.flowi6_oif = 0;
	dst = ipv6_stub->ipv6_dst_lookup_flow(sock_net(sk), sk, &fl6, NULL);
	if (!IS_ERR(dst))
		*saddr = fl6.saddr;
	return dst;
}
#endif

static int mrc_xmit4(const struct mrc_av *av, struct dst_cache *dc, u32 ev,
		     struct net_device *ndev, struct sock *sk,
		     struct sk_buff *skb)
{
	struct rtable *rt = NULL;
	__be32 saddr;

	if (dc)
		rt = dst_cache_get_ip4(dc, &saddr);
	if (!rt) {
		rt = mrc_route4(av, ndev, sk, &saddr);
		if (IS_ERR(rt))
			return PTR_ERR(rt);
		if (dc)
			dst_cache_set_ip4(dc, &rt->dst, saddr);
	}
	/* skb->dev is NULL (mrc_net_pkt()): no device's statistics, as below. */
	udp_tunnel_xmit_skb(rt, sk, skb, saddr, av->daddr.v4, mrc_net_tos(av),
			    av->hop_limit ?: ip4_dst_hoplimit(&rt->dst), 0,
			    mrc_net_sport(ev), htons(mrc_udp_port), false, true);
	return 0;
}

static int mrc_xmit6(const struct mrc_av *av, struct dst_cache *dc, u32 ev,
		     u32 label, struct net_device *ndev, struct sock *sk,
		     struct sk_buff *skb)
{
#if IS_ENABLED(CONFIG_IPV6)
	struct in6_addr saddr, daddr = av->daddr.v6;
	struct dst_entry *dst = NULL;

	if (dc)
		dst = dst_cache_get_ip6(dc, &saddr);
	if (!dst) {
		dst = mrc_route6(av, &daddr, IPPROTO_UDP, ndev, sk, &saddr);
		if (IS_ERR(dst))
			return PTR_ERR(dst);
		if (dc)
			dst_cache_set_ip6(dc, dst, &saddr);
	}
	/*
	 * No device for the tunnel's statistics: they go to a tunnel
	 * device's pcpu_sw_netstats, and the plane's netdev (veth, lo) keeps
	 * smaller per-CPU counters, past whose end they would be written.
	 * mrc counts its packets itself.
	 */
	udp_tunnel6_xmit_skb(dst, sk, skb, NULL, &saddr, &daddr,
			     mrc_net_tos(av),
			     av->hop_limit ?: ip6_dst_hoplimit(dst),
			     htonl(label), mrc_net_sport(ev),
			     htons(mrc_udp_port), false);
	return 0;
#else
	return -EAFNOSUPPORT;
#endif
}

/*
 * Source-routed: the MRC packet in UDP in IPv6 to the peer, all that inside
 * an IPv6 header to the path's uSID carrier (and an SRH when the path needs
 * two carriers).  A host reaches every path of a plane through the plane's
 * first switch, so the route found for one carrier, cached per plane,
 * serves all the others.
 */
static int mrc_xmit_srv6(const struct mrc_av *av, struct dst_cache *dc,
			 u32 ev, u32 label, const struct mrc_srv6_path *sp,
			 struct net_device *ndev, struct sock *sk,
			 struct sk_buff *skb)
{
#if IS_ENABLED(CONFIG_IPV6)
	struct mrc_srv6_encap e = {
		.path = sp,
		.daddr = av->daddr.v6,
		.sport = mrc_net_sport(ev),
		.dport = htons(mrc_udp_port),
		.tclass = mrc_net_tos(av),
		.flowlabel = htonl(label) & IPV6_FLOWLABEL_MASK,
	};
	struct dst_entry *dst = NULL;

	if (dc)
		dst = dst_cache_get_ip6(dc, &e.saddr);
	if (!dst) {
		dst = mrc_route6(av, &sp->da, IPPROTO_IPV6, ndev, sk,
				 &e.saddr);
		if (IS_ERR(dst))
			return PTR_ERR(dst);
		if (dc)
			dst_cache_set_ip6(dc, dst, &e.saddr);
	}
	e.hop_limit = av->hop_limit ?: ip6_dst_hoplimit(dst);
	mrc_srv6_push(skb, &e);
	memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));
	skb_dst_set(skb, dst);
	/* As for udp_tunnel6_xmit_skb(): a drop below here is a loss. */
	ip6_local_out(sock_net(sk), sk, skb);
	return 0;
#else
	return -EAFNOSUPPORT;
#endif
}

/*
 * Send @list to one destination, source-routed along @sp when it is not
 * NULL, with IPv6 flow label @label (in the outer header over SRv6).  A
 * packet that cannot leave (plane gone or down, no route) is dropped and
 * counted; the requester's timer recovers as from any loss.
 */
static void mrc_net_send_path(struct mrc_device *mdev, const struct mrc_av *av,
			      struct dst_cache *dc, u32 ev, u32 label,
			      const struct mrc_srv6_path *sp,
			      struct sk_buff_head *list)
{
	struct mrc_net *mn = mrc_net(mdev->net);
	unsigned int pl = av->plane;
	struct mrc_plane *plane;
	struct sk_buff *skb;
	struct socket *sock;
	int err;

	if (skb_queue_empty(list))
		return;

	rcu_read_lock();
	plane = pl < mdev->nports ? rcu_dereference(mdev->planes[pl]) : NULL;
	sock = av->family == AF_INET6 ? mn->sock6 : mn->sock4;
	while ((skb = __skb_dequeue(list))) {
		unsigned int len = skb->len;

		if (!plane || !READ_ONCE(plane->up) || !sock) {
			err = -ENETDOWN;
		} else {
			skb->protocol = av->family == AF_INET6 ?
					htons(ETH_P_IPV6) : htons(ETH_P_IP);
			/* dst_cache is per CPU. */
			local_bh_disable();
			if (sp)
				err = mrc_xmit_srv6(av, dc, ev, label, sp,
						    plane->ndev, sock->sk, skb);
			else if (av->family == AF_INET6)
				err = mrc_xmit6(av, dc, ev, label, plane->ndev,
						sock->sk, skb);
			else
				err = mrc_xmit4(av, dc, ev, plane->ndev,
						sock->sk, skb);
			local_bh_enable();
		}
		if (err) {
			kfree_skb(skb);
			mrc_count(mdev, pl, MRC_CNT_TX_DROPPED, 1);
			continue;
		}
		mrc_count(mdev, pl, MRC_CNT_TX_PKTS, 1);
		mrc_count(mdev, pl, MRC_CNT_TX_BYTES, len);
	}
	rcu_read_unlock();
}

/**
 * mrc_net_send() - send MRC packets to one destination
 * @mdev: the device
 * @av: where to, over which plane
 * @dc: route cache for @av, or NULL to look the route up every time
 * @ev: the EV, whose entropy becomes the UDP source port
 * @list: packets, each an MRC packet with its ICRC; emptied
 *
 * Over IPv6 the packets carry the AV's flow label.
 */
void mrc_net_send(struct mrc_device *mdev, const struct mrc_av *av,
		  struct dst_cache *dc, u32 ev, struct sk_buff_head *list)
{
	mrc_net_send_path(mdev, av, dc, ev, av->flow_label, NULL, list);
}

/*
 * Look the route up as a packet would and start resolving its next hop if
 * the neighbour is not known yet.  Nothing waits for the answer.
 */
static void mrc_net_warm_one(struct net_device *ndev, struct sock *sk,
			     const struct mrc_av *av, const struct in6_addr *da,
			     u8 proto)
{
	struct dst_entry *dst;
	struct neighbour *n;

	if (av->family == AF_INET) {
		struct rtable *rt;
		__be32 saddr;

		rt = mrc_route4(av, ndev, sk, &saddr);
		if (IS_ERR(rt))
			return;
		dst = &rt->dst;
		n = dst_neigh_lookup(dst, &av->daddr.v4);
	} else {
#if IS_ENABLED(CONFIG_IPV6)
		struct in6_addr saddr;

		dst = mrc_route6(av, da, proto, ndev, sk, &saddr);
		if (IS_ERR(dst))
			return;
		n = dst_neigh_lookup(dst, da);
#else
		return;
#endif
	}
	if (n) {
		neigh_event_send(n, NULL);
		neigh_release(n);
	}
	dst_release(dst);
}

/**
 * mrc_net_warm() - start resolving the first hop of every plane of a QP
 * @mdev: the device
 * @paths: MRC_MAX_PLANES entries from mrc_ev_resolve()
 * @srv6: the destination's SRv6 paths or NULL
 *
 * Whatever exchanged the QP's address resolved the neighbour of its own
 * plane, the others nobody.  A QP's first burst puts part of a send window
 * on every plane at once; on a plane whose neighbour is unresolved those
 * packets wait in the neighbour entry, which holds unres_qlen_bytes and
 * drops the oldest: the first packet of each of that plane's EVs is lost
 * silently, and the loss rules read healthy paths as broken.  Resolution
 * started when the path set is installed (modify_qp to RTR) takes one round
 * trip on the plane, done before the peer is ready to take data.
 *
 * Context: process, may not hold the QP's lock.
 */
void mrc_net_warm(struct mrc_device *mdev, const struct mrc_path *paths,
		  const struct mrc_srv6_dst *srv6)
{
	struct mrc_net *mn = mrc_net(mdev->net);
	struct mrc_srv6_path sp;
	struct mrc_plane *plane;
	struct socket *sock;
	unsigned int i;

	rcu_read_lock();
	for (i = 0; i < mdev->nports && i < MRC_MAX_PLANES; i++) {
		const struct mrc_av *av = &paths[i].av;

		plane = rcu_dereference(mdev->planes[i]);
		sock = av->family == AF_INET6 ? mn->sock6 : mn->sock4;
		if (!paths[i].valid || !plane || !READ_ONCE(plane->up) ||
		    !sock)
			continue;
		/* Over SRv6 all paths of a plane share the first switch. */
		if (!srv6 || av->family != AF_INET6)
			mrc_net_warm_one(plane->ndev, sock->sk, av,
					 &av->daddr.v6, IPPROTO_UDP);
		else if (mrc_srv6_dst_path(srv6, i, 0, &sp))
			mrc_net_warm_one(plane->ndev, sock->sk, av, &sp.da,
					 IPPROTO_IPV6);
	}
	rcu_read_unlock();
}

/*
 * The packets a QP built under its lock, sent after unlock, each on the
 * plane and with the entropy of the EV its header carries, as its
 * struct mrc_skb_cb recorded when it was built (STEV: and that EV's flow
 * label): over SRv6, along the path that entropy picks.
 */
void mrc_net_xmit(struct mrc_qp *qp, struct sk_buff_head *list)
{
	struct mrc_evset *s = qp->evs;
	const struct mrc_srv6_dst *d;
	struct mrc_srv6_path sp;
	struct sk_buff_head one;
	struct sk_buff *skb;
	u32 ev;
	u8 pl;

	__skb_queue_head_init(&one);
	rcu_read_lock();
	d = s ? rcu_dereference(s->srv6) : NULL;
	while ((skb = __skb_dequeue(list))) {
		ev = MRC_SKB_CB(skb)->ev;
		pl = MRC_SKB_CB(skb)->plane;
		__skb_queue_tail(&one, skb);
		if (s && pl < MRC_MAX_PLANES && s->path[pl].valid)
			mrc_net_send_path(qp->mdev, &s->path[pl].av,
					  &s->path[pl].dc, ev,
					  mrc_ev_label(s, &s->path[pl].av, ev),
					  d && mrc_srv6_dst_path(d, pl,
						mrc_ev_entropy(ev), &sp) ?
					  &sp : NULL, &one);
		else
			mrc_net_send(qp->mdev, &qp->av, &qp->dst_cache, ev,
				     &one);
	}
	rcu_read_unlock();
}
