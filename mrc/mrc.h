/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The header every file of mrc.ko includes (as rxe.h is rxe's): the headers
 * of the module in the order they depend on each other, then what is
 * device-wide: the per-namespace state, mrc devices and their planes.
 *
 *   compat.h        what differs between the kernels mrc builds against
 *   kunit_export.h  exports to the KUnit suites
 *   param.h         limits, defaults and tunables
 *   psn.h           PSN arithmetic
 *   wire.h          the wire format
 *   srv6.h          SRv6 templates, paths and destinations
 *   profile.h       EV and CC profiles
 *   verbs.h         the verbs objects: queues, PD, MR, CQ, AH, QP, counters
 *   ev.h            a QP's EVs and paths
 *   loc.h           what each file offers the others, by file
 */

#ifndef _MRC_MRC_H
#define _MRC_MRC_H

#include <linux/if.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/types.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <rdma/ib_verbs.h>
#include <linux/mrc.h>

#include "compat.h"
#include "kunit_export.h"
#include "param.h"
#include "psn.h"
#include "wire.h"
#include "srv6.h"
#include "profile.h"
#include "verbs.h"
#include "ev.h"
#include "loc.h"

/* Reported by MODULE_VERSION() and MRC_A_VERSION_MODULE alike. */
#define MRC_VERSION "0.1.0"

/*
 * Locking
 * -------
 * Every field below that can change is protected by the owning namespace's
 * mrc_net.lock, a mutex taken in process context only.  Code that looks up or
 * inspects netdevs takes RTNL first and mrc_net.lock second; the netdevice
 * notifier already runs under RTNL and follows the same order.
 *
 * The data path (softirq receive, timers, post_send) never takes those: it
 * reads mrc_device.planes under RCU, and a plane is freed, and its netdev
 * reference dropped, only after a grace period.  QPs and MRs are found by
 * number in xarrays read under RCU (see qp.c and mr.c for their lifetimes).
 */

/**
 * struct mrc_plane - one Ethernet netdev a device sprays over
 * @rcu: the plane is freed after a grace period: the data path reads it
 *	under RCU
 * @mdev: the device that owns this plane
 * @ndev: the netdev; a tracked reference is held for the plane's lifetime
 * @tracker: tracker of that reference
 * @index: position given at creation, stable until the plane goes away
 * @up: netdev running with carrier and @admin_up; written under RTNL and
 *	mrc_net.lock, read by the data path with READ_ONCE()
 * @admin_up: the controller's admin state (MRC_CMD_PLANE_SET), up at
 *	creation; under RTNL and mrc_net.lock
 * @ifname: copy of @ndev's name, refreshed on NETDEV_CHANGENAME, so that
 *	readers holding only mrc_net.lock never race with a rename
 */
struct mrc_plane {
	struct rcu_head rcu;
	struct mrc_device *mdev;
	struct net_device *ndev;
	netdevice_tracker tracker;
	u32 index;
	bool up;
	bool admin_up;
	char ifname[IFNAMSIZ];
};

/**
 * struct mrc_device - an mrc device: the RDMA device over a set of planes
 * @ib: the RDMA device; first, the struct comes from ib_alloc_device() and
 *	is freed by the RDMA core after ib_unregister_device()
 * @list: entry in mrc_net.devices, kept in increasing @index order; empty
 *	once the device has been taken out of the registry
 * @net: namespace the device and all its planes live in (not refcounted: the
 *	namespace's exit deletes the device first)
 * @index: per-namespace id, used to resume dumps
 * @name: unique name in the namespace, also the RDMA device's name
 * @nplanes: number of non-NULL entries in @planes
 * @nports: RDMA ports, one per plane given at creation (port = index + 1)
 * @registered: ib_register_device() succeeded (under mrc_net.lock)
 * @queued: its unregistration was queued, counted in
 *	mrc_net.unregistering until mrc_dealloc_driver()
 * @doomed: lost its last plane before it was registered; its creator
 *	unregisters it (under mrc_net.lock)
 * @planes: planes by index; an entry turns NULL when its netdev goes away
 * @gsi: the GSI QP (QP1) of each port, created by the MAD layer; under RCU
 * @qps: QPs by number, looked up under RCU by the receive path
 * @qpn_next: where the search for a free QP number starts (qp.c)
 * @mrs: MRs by key >> 8, looked up under RCU
 * @mws: memory windows by key >> 8, looked up under RCU (mw.c)
 * @ahs: user space's AHs by the number librxe puts in UD WQEs; read
 *	under the xarray's lock (the core frees an AH as destroy_ah returns)
 * @ah_next: where the search for a free AH number starts
 * @mr_key: low byte of the next MR or MW key, so a reused index gets a new
 *	key
 * @qp_serial: the last serial given to a QP (struct mrc_qp)
 * @cnt: data path counters by plane
 * @dbg: debugfs directory (debugfs.c), once registered
 * @qp_genid: bumped when an RC QP enters or leaves @qps, to flag
 *	interrupted QP dumps
 * @prof_lock: guards @prof for readers (QP creation and reset)
 * @prof: the settings of the profiles the device names (profile.c)
 * @srv6_lock: guards @srv6 and @nsrv6; taken after mrc_net.lock
 * @srv6: SRv6 destinations (struct mrc_srv6_dst), srv6_table.c
 * @nsrv6: entries of @srv6
 * @pstat: the device's port status: in the high half the number of updates
 *	sent, the sequence peers order them by, in the low half the mask of
 *	planes down it carried.  One atomic word (on 32-bit hosts too), so
 *	that no QP ever sends one update's sequence with another's mask;
 *	written under RTNL and mrc_net.lock, read by the QPs without
 *	(mrc_dev_pstat())
 * @pstat_ns: ktime_get_ns() of the last update
 * @nobj: objects of each kind (enum mrc_obj) the device holds, kept under
 *	the limits mrc_query_device() advertises (mrc_obj_get())
 */
struct mrc_device {
	struct ib_device ib;
	struct list_head list;
	struct net *net;
	u32 index;
	char name[IFNAMSIZ];
	unsigned int nplanes;
	unsigned int nports;
	bool registered;
	bool queued;
	bool doomed;
	struct mrc_plane __rcu *planes[MRC_MAX_PLANES];
	struct mrc_qp __rcu *gsi[MRC_MAX_PLANES];
	struct xarray qps;
	u32 qpn_next;
	struct xarray mrs;
	struct xarray mws;
	struct xarray ahs;
	u32 ah_next;
	atomic_t mr_key;
	atomic64_t qp_serial;
	struct mrc_counters cnt[MRC_MAX_PLANES];
	struct dentry *dbg;
	atomic_t qp_genid;
	spinlock_t prof_lock; /* @prof; writers hold mrc_net.lock too */
	struct mrc_dev_prof prof;
	struct mutex srv6_lock; /* @srv6, @nsrv6; after mrc_net.lock */
	struct list_head srv6;
	u32 nsrv6;
	atomic64_t pstat;
	u64 pstat_ns;
	atomic_t nobj[MRC_NOBJ];
};

/* Plane @i of @mdev is there and up (carrier, running, admin up). */
static inline bool mrc_plane_up(struct mrc_device *mdev, u32 i)
{
	struct mrc_plane *plane;
	bool up;

	rcu_read_lock();
	plane = rcu_dereference(mdev->planes[i]);
	up = plane && READ_ONCE(plane->up);
	rcu_read_unlock();
	return up;
}

/* The device's last port status update: its sequence, and in @down its mask. */
static inline u32 mrc_dev_pstat(const struct mrc_device *mdev, u32 *down)
{
	u64 v = atomic64_read(&mdev->pstat);

	*down = lower_32_bits(v);
	return upper_32_bits(v);
}

static inline struct mrc_device *to_mdev(struct ib_device *ib)
{
	return container_of(ib, struct mrc_device, ib);
}

/**
 * struct mrc_net - mrc state of one network namespace
 * @lock: protects everything reachable from this structure
 * @devices: mrc devices of the namespace, in increasing index order
 * @next_index: index of the next device created
 * @genid: bumped on every change of @devices, to flag interrupted dumps
 * @evprofs: EV profiles (struct mrc_evprof) by id; changed and walked only
 *	under @lock (the xarray's own spinlock adds nothing)
 * @ccprofs: CC profiles (struct mrc_ccprof) by id, the same way
 * @evfmts: EV format profiles (struct mrc_evfmt) by id, the same way
 * @prof_genid: bumped on every creation and deletion of a profile, to flag
 *	interrupted profile dumps
 * @srv6_genid: bumped on every change of a device's SRv6 entries, to flag
 *	interrupted SRv6 dumps
 * @sock4: UDP tunnel socket receiving MRC over IPv4 (net.c)
 * @sock6: the same for IPv6; NULL when IPv6 is disabled
 * @unregistering: devices of the namespace whose unregistration is queued
 *	(their last plane went away) and not yet done; the namespace's exit
 *	waits for none to be left, since their QPs use its sockets
 */
struct mrc_net {
	struct mutex lock; /* see "Locking" above */
	struct socket *sock4;
	struct socket *sock6;
	atomic_t unregistering;
	struct list_head devices;
	u32 next_index;
	u32 genid;
	struct xarray evprofs;
	struct xarray ccprofs;
	struct xarray evfmts;
	u32 prof_genid;
	u32 srv6_genid;
};

/* Under mrc_net.lock, or RCU (then only the plane's fields are stable). */
static inline struct mrc_plane *mrc_plane_get(const struct mrc_device *mdev,
					      unsigned int i)
{
	return rcu_dereference_check(mdev->planes[i],
				     lockdep_is_held(&mrc_net(mdev->net)->lock));
}

/* One plane requested by DEV_NEW (or "rdma link add"). */
struct mrc_plane_req {
	struct net_device *ndev;
};

/**
 * struct mrc_dev_req - a device to create (mrc_dev_new())
 * @name: its name, checked by mrc_dev_new()
 * @planes: its planes, in plane index order
 * @nplanes: number of @planes
 * @prof: the profiles it names; all zero for none
 * @bad: set on a refusal about one part of the request, for the netlink
 *	layer to point the extended ack at: MRC_A_DEV_NAME, MRC_A_DEV_PLANES
 *	(plane @bad_plane), MRC_A_DEV_EVPROF_ID or MRC_A_DEV_CCPROF_ID; 0 for
 *	none
 * @bad_plane: with @bad MRC_A_DEV_PLANES, the index in @planes
 */
struct mrc_dev_req {
	const char *name;
	const struct mrc_plane_req *planes;
	unsigned int nplanes;
	struct mrc_dev_prof_req prof;
	int bad;
	unsigned int bad_plane;
};

#endif /* _MRC_MRC_H */
