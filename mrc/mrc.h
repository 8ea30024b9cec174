/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Objects shared by the files of mrc.ko: the per-namespace state, mrc devices
 * and their planes, and the entry points each file offers the others.
 */

#ifndef _MRC_MRC_H
#define _MRC_MRC_H

#include <linux/if.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/types.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <linux/mrc.h>

/* Reported by MODULE_VERSION() and MRC_A_VERSION_MODULE alike. */
#define MRC_VERSION "0.1.0"

/*
 * Locking
 * -------
 * Every field below that can change is protected by the owning namespace's
 * mrc_net.lock, a mutex taken in process context only.  Code that looks up or
 * inspects netdevs takes RTNL first and mrc_net.lock second; the netdevice
 * notifier already runs under RTNL and follows the same order.  Nothing on a
 * data path exists yet, so no RCU rule is needed for now.
 */

struct mrc_device;

/**
 * struct mrc_plane - one Ethernet netdev a device sprays over
 * @mdev: the device that owns this plane
 * @ndev: the netdev; a tracked reference is held for the plane's lifetime
 * @tracker: tracker of that reference
 * @index: position given at creation, stable until the plane goes away
 * @up: netdev running with carrier; written under RTNL and mrc_net.lock
 * @ifname: copy of @ndev's name, refreshed on NETDEV_CHANGENAME, so that
 *	readers holding only mrc_net.lock never race with a rename
 */
struct mrc_plane {
	struct mrc_device *mdev;
	struct net_device *ndev;
	netdevice_tracker tracker;
	u32 index;
	bool up;
	char ifname[IFNAMSIZ];
};

/**
 * struct mrc_device - an mrc device, the future home of an RDMA device
 * @list: entry in mrc_net.devices, kept in increasing @index order
 * @net: namespace the device and all its planes live in (not refcounted: the
 *	namespace's exit deletes the device first)
 * @index: per-namespace id, used to resume dumps
 * @name: unique name in the namespace
 * @nplanes: number of non-NULL entries in @planes
 * @planes: planes by index; an entry turns NULL when its netdev goes away
 */
struct mrc_device {
	struct list_head list;
	struct net *net;
	u32 index;
	char name[IFNAMSIZ];
	unsigned int nplanes;
	struct mrc_plane *planes[MRC_MAX_PLANES];
};

/**
 * struct mrc_net - mrc state of one network namespace
 * @lock: protects everything reachable from this structure
 * @devices: mrc devices of the namespace, in increasing index order
 * @next_index: index of the next device created
 * @genid: bumped on every change of @devices, to flag interrupted dumps
 */
struct mrc_net {
	struct mutex lock; /* see "Locking" above */
	struct list_head devices;
	u32 next_index;
	u32 genid;
};

/* One plane requested by DEV_NEW; @attr only locates errors for extack. */
struct mrc_plane_req {
	struct net_device *ndev;
	const struct nlattr *attr;
};

/* main.c */
extern unsigned short mrc_udp_port;

/* device.c */
int mrc_device_init(void);
void mrc_device_exit(void);
struct mrc_net *mrc_net(const struct net *net);
bool mrc_dev_name_valid(const char *name, struct netlink_ext_ack *extack,
			const struct nlattr *attr);
struct mrc_device *mrc_dev_find(struct mrc_net *mn, const char *name);
int mrc_dev_new(struct net *net, const char *name,
		const struct nlattr *name_attr,
		const struct mrc_plane_req *reqs, unsigned int nreqs,
		struct netlink_ext_ack *extack);
void mrc_dev_del(struct mrc_net *mn, struct mrc_device *mdev);

/* netlink.c */
int mrc_genl_init(void);
void mrc_genl_exit(void);

#endif /* _MRC_MRC_H */
