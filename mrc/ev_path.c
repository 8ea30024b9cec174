// SPDX-License-Identifier: GPL-2.0
/*
 * The paths of a QP: the peer's address on every plane, derived from the
 * AV (process context, before the QP's lock), the active EV set installed
 * over them with random entropies per plane, and the EV set's life: the
 * profile's settings, allocation and destruction.  Installation runs under
 * qp->lock.
 */

#include <linux/inetdevice.h>
#include <linux/slab.h>
#include <net/addrconf.h>

#include "mrc.h"

static u16 mrc_ev_draw(struct mrc_evset *s)
{
	return prandom_u32_state(&s->rnd) & (BIT(MRC_EV_ENTROPY_BITS) - 1);
}

/*
 * A QP connected to a QP of its own host (loopback, Documentation/verbs.md)
 * names one of the host's own addresses as its peer: on every plane the
 * peer is then this host, at that plane's own address.
 */
static bool mrc_av_self(const struct mrc_av *av)
{
	if (av->family == AF_INET)
		return av->daddr.v4 == av->saddr.v4;
	return ipv6_addr_equal(&av->daddr.v6, &av->saddr.v6);
}

/* Derive the peer's address on plane @pl from the AV's: same host part. */
static bool mrc_ev_derive4(struct net_device *ndev, const struct mrc_av *av,
			   struct mrc_av *out)
{
	bool self = mrc_av_self(av), ok = false;
	const struct in_ifaddr *ifa;
	struct in_device *in_dev;

	rcu_read_lock();
	in_dev = __in_dev_get_rcu(ndev);
	if (in_dev) {
		in_dev_for_each_ifa_rcu(ifa, in_dev) {
			if (ifa->ifa_scope != RT_SCOPE_UNIVERSE ||
			    !ifa->ifa_mask || ifa->ifa_mask == htonl(~0U))
				continue;
			out->saddr.v4 = ifa->ifa_local;
			if (self) {
				out->daddr.v4 = ifa->ifa_local;
				ok = true;
				break;
			}
			out->daddr.v4 = (ifa->ifa_local & ifa->ifa_mask) |
					(av->daddr.v4 & ~ifa->ifa_mask);
			ok = out->daddr.v4 != out->saddr.v4;
			break;
		}
	}
	rcu_read_unlock();
	return ok;
}

static bool mrc_ev_derive6(struct net_device *ndev, const struct mrc_av *av,
			   struct mrc_av *out)
{
#if IS_ENABLED(CONFIG_IPV6)
	bool self = mrc_av_self(av), ok = false;
	struct inet6_ifaddr *ifp;
	struct inet6_dev *idev;
	u32 i, bits;

	rcu_read_lock();
	idev = __in6_dev_get(ndev);
	if (idev) {
		read_lock_bh(&idev->lock);
		list_for_each_entry(ifp, &idev->addr_list, if_list) {
			if ((ipv6_addr_type(&ifp->addr) &
			     (IPV6_ADDR_LINKLOCAL | IPV6_ADDR_LOOPBACK)) ||
			    !ifp->prefix_len || ifp->prefix_len >= 128)
				continue;
			out->saddr.v6 = ifp->addr;
			if (self) {
				out->daddr.v6 = ifp->addr;
				ok = true;
				break;
			}
			out->daddr.v6 = av->daddr.v6;
			/* The prefix from our address, the rest the AV's. */
			for (i = 0; i < 4; i++) {
				bits = clamp_t(int, ifp->prefix_len - 32 * i, 0, 32);
				if (!bits)
					break;
				out->daddr.v6.s6_addr32[i] &=
					~htonl(GENMASK_ULL(31, 32 - bits));
				out->daddr.v6.s6_addr32[i] |=
					ifp->addr.s6_addr32[i] &
					htonl(GENMASK_ULL(31, 32 - bits));
			}
			ok = !ipv6_addr_equal(&out->daddr.v6, &out->saddr.v6);
			break;
		}
		read_unlock_bh(&idev->lock);
	}
	rcu_read_unlock();
	return ok;
#else
	return false;
#endif
}

/**
 * mrc_ev_resolve() - the QP's route on every plane, from its AV
 * @qp: the QP (not locked: reads the planes' addresses)
 * @av: the AV modify_qp accepted, on plane av->plane
 * @paths: MRC_MAX_PLANES entries to fill; only .av and .valid
 *
 * Every plane is its own network with the same host numbering: the peer's
 * address on plane k is plane k's local prefix with the host part of the
 * AV's destination.  Planes without a usable address get no path.
 */
void mrc_ev_resolve(struct mrc_qp *qp, const struct mrc_av *av,
		    struct mrc_path *paths)
{
	struct mrc_device *mdev = qp->mdev;
	struct net_device *ndev;
	struct mrc_plane *plane;
	u32 i;

	for (i = 0; i < MRC_MAX_PLANES; i++) {
		paths[i].valid = false;
		if (i >= mdev->nports)
			continue;
		paths[i].av = *av;
		paths[i].av.plane = i;
		if (i == av->plane) {
			paths[i].valid = true;
			continue;
		}
		rcu_read_lock();
		plane = rcu_dereference(mdev->planes[i]);
		ndev = plane ? plane->ndev : NULL;
		if (ndev)
			dev_hold(ndev);
		rcu_read_unlock();
		if (!ndev)
			continue;
		if (av->family == AF_INET)
			paths[i].valid = mrc_ev_derive4(ndev, av, &paths[i].av);
		else
			paths[i].valid = mrc_ev_derive6(ndev, av, &paths[i].av);
		dev_put(ndev);
	}
}

/* Does the QP know its peer's address on @plane (a path there)? */
bool mrc_ev_peer_addr_known(const struct mrc_qp *qp, u32 plane)
{
	return qp->evs && plane < MRC_MAX_PLANES && qp->evs->path[plane].valid;
}

/**
 * mrc_ev_peer_addr_ok() - did a packet come from the QP's peer?
 * @qp: the QP, locked, at RTR or later (so its AV and paths are set)
 * @plane: the plane the packet arrived on
 * @src: its source address
 *
 * The peer sends on plane k from its address there, which is what
 * mrc_ev_resolve() derived as our destination on plane k; a plane without
 * a path has only the AV's address.  The family must match too: an IPv4
 * peer's address in an IPv6 packet (::ffff:a.b.c.d) is not the peer.
 *
 * Return: true when @src is the peer's address on @plane.
 */
bool mrc_ev_peer_addr_ok(const struct mrc_qp *qp, u32 plane,
			 const struct mrc_rx_src *src)
{
	const struct mrc_av *av = &qp->av;

	if (mrc_ev_peer_addr_known(qp, plane))
		av = &qp->evs->path[plane].av;
	if (src->family != av->family)
		return false;
	if (src->family == AF_INET)
		return src->v4 == av->daddr.v4;
	return ipv6_addr_equal(&src->v6, &av->daddr.v6);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_peer_addr_ok);

/*
 * Draw an entropy of plane @pl not used by slots [0, @upto) or spares.  With
 * @npaths SRv6 paths on the plane the entropy picks path (entropy mod
 * @npaths): then only entropies of path @k are drawn.
 */
static u16 mrc_ev_fresh(struct mrc_evset *s, u8 pl, u32 upto, u32 npaths,
			u32 k)
{
	u32 i, tries;
	u16 e;

	for (tries = 0; tries < 64; tries++) {
		e = mrc_ev_draw(s);
		if (npaths)
			e = k + npaths * (e % (BIT(MRC_EV_ENTROPY_BITS) / npaths));
		for (i = 0; i < upto; i++)
			if (s->ev[i].plane == pl &&
			    mrc_ev_entropy(s->ev[i].value) == e)
				break;
		if (i < upto)
			continue;
		for (i = 0; i < s->nbackup[pl]; i++)
			if (s->backup[pl][i] == e)
				break;
		if (i == s->nbackup[pl])
			break;
	}
	return e;
}

/**
 * mrc_ev_install() - a new AV: new paths, new active set
 * @qp: the QP, locked
 * @paths: from mrc_ev_resolve()
 * @n: active EVs wanted
 * @srv6: the destination's SRv6 paths or NULL; the QP takes the reference
 *
 * The set is split equally over the planes that have a path (the first
 * n % planes get one more), random entropies within each plane.  Over
 * SRv6 the slots of a plane go round its paths from a random one, so that
 * every path carries traffic as soon as a plane has as many slots as paths.
 */
void mrc_ev_install(struct mrc_qp *qp, struct mrc_path *paths, u32 n,
		    struct mrc_srv6_dst *srv6)
{
	u32 npaths[MRC_MAX_PLANES] = {}, next[MRC_MAX_PLANES] = {};
	struct mrc_evset *s = qp->evs;
	struct mrc_srv6_dst *old;
	u8 planes[MRC_MAX_PLANES];
	u32 np = 0, i, k;
	u16 spare;

	old = rcu_replace_pointer(s->srv6, srv6, lockdep_is_held(&qp->lock));
	mrc_srv6_dst_put(old);
	for (i = 0; srv6 && i < MRC_MAX_PLANES; i++) {
		npaths[i] = srv6->count[i];
		/* A plane without an SRv6 path carries nothing. */
		if (!npaths[i])
			paths[i].valid = false;
		else
			next[i] = prandom_u32_state(&s->rnd) % npaths[i];
	}

	for (i = 0; i < MRC_MAX_PLANES; i++) {
		s->path[i].valid = paths[i].valid;
		s->path[i].av = paths[i].av;
		if (i < qp->mdev->nports)
			dst_cache_reset(&s->path[i].dc);
		if (paths[i].valid)
			planes[np++] = i;
	}
	memset(s->ev, 0, sizeof(s->ev));
	memset(s->retired, 0, sizeof(s->retired));
	memset(s->nbackup, 0, sizeof(s->nbackup));
	s->n = np ? clamp_t(u32, n, np, MRC_EV_MAX) : 0;
	s->cursor = 0;
	s->rotation = 0;
	s->gone_value = MRC_EV_F_UNTRACKED;
	/* A new address may be another peer: it has said nothing yet. */
	s->peer_down = 0;
	s->peer_seq_valid = false;
	s->min_active = s->want_min_active ?
			min_t(u32, s->want_min_active, s->n) :
			max_t(u32, s->n / 4, 1);
	for (i = 0; i < s->n; i++) {
		struct mrc_ev *e = &s->ev[i];
		u8 pl = planes[i % np];

		e->plane = pl;
		e->value = mrc_ev_value(pl, i, mrc_ev_fresh(s, pl, i,
							    npaths[pl],
							    next[pl]));
		if (npaths[pl])
			next[pl] = (next[pl] + 1) % npaths[pl];
		e->state = MRC_EV_STATE_GOOD;
		e->changed = ktime_get();
		s->order[i] = i;
	}
	for (k = 0; k < np; k++) {
		/* One at a time: each draw keeps clear of those before. */
		for (i = 0; i < s->max_backup; i++) {
			spare = mrc_ev_fresh(s, planes[k], s->n, 0, 0);
			s->backup[planes[k]][i] = spare;
			s->nbackup[planes[k]] = i + 1;
		}
	}
	if (s->n)
		mrc_ev_shuffle(s);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_install);

/**
 * mrc_ev_configure() - what the next mrc_ev_install() takes from a profile
 * @qp: the QP, locked
 * @min_active: GOOD slots a loss may not break, 0 for a quarter of the set
 * @backups: spare entropies per plane, at most MRC_MAX_BACKUPS
 * @event_mask: MRC_EV_EVENT_* transitions the QP reports on the events group
 * @format: enum mrc_ev_format, how the EVs show on the wire
 */
void mrc_ev_configure(struct mrc_qp *qp, u32 min_active, u32 backups,
		      u32 event_mask, u8 format)
{
	qp->evs->want_min_active = min_t(u32, min_active, MRC_EV_MAX);
	qp->evs->max_backup = min_t(u32, backups, MRC_MAX_BACKUPS);
	qp->evs->event_mask = event_mask;
	WRITE_ONCE(qp->evs->format, format);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_configure);

int mrc_ev_init(struct mrc_qp *qp)
{
	struct mrc_evset *s;
	u32 i;
	int err;

	s = kvzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	if (!s)
		return -ENOMEM;
	s->qp = qp;
	s->max_backup = MRC_EV_BACKUP;
	s->event_mask = MRC_EV_EVENTS_ALL;
	prandom_seed_state(&s->rnd, get_random_u64());
	mrc_ev_probe_init(s);
	for (i = 0; i < qp->mdev->nports; i++) {
		err = dst_cache_init(&s->path[i].dc, GFP_KERNEL_ACCOUNT);
		if (err) {
			while (i--)
				dst_cache_destroy(&s->path[i].dc);
			kvfree(s);
			return err;
		}
	}
	qp->evs = s;
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_init);

void mrc_ev_destroy(struct mrc_qp *qp)
{
	struct mrc_evset *s = qp->evs;
	u32 i;

	if (!s)
		return;
	/* The TX path of a QP being destroyed has finished. */
	mrc_srv6_dst_put(rcu_dereference_protected(s->srv6, true));
	for (i = 0; i < qp->mdev->nports; i++)
		dst_cache_destroy(&s->path[i].dc);
	kvfree(s);
	qp->evs = NULL;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_destroy);
