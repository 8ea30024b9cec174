// SPDX-License-Identifier: GPL-2.0
/*
 * mrc devices and their planes: creation and deletion, the per-namespace
 * registry, tracking of the plane netdevs, and the "mrc" RDMA link type.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait_bit.h>
#include <net/netns/generic.h>
#include <rdma/rdma_netlink.h>

#include "mrc.h"

static unsigned int mrc_net_id __read_mostly;

/*
 * Set while the module goes away: unregistering the netdevice notifier replays
 * NETDEV_UNREGISTER for every netdev, which deletes every device through the
 * normal path, and that should not be logged as if the planes had vanished.
 */
static bool mrc_unloading;
/* The AH table's lock; see mrc_dev_new(). */
static struct lock_class_key mrc_ahs_lock_key;

struct mrc_net *mrc_net(const struct net *net)
{
	return net_generic(net, mrc_net_id);
}

static bool mrc_dev_name_valid(const char *name,
			       struct netlink_ext_ack *extack)
{
	size_t len = strnlen(name, IFNAMSIZ);
	size_t i;

	if (!len) {
		NL_SET_ERR_MSG(extack, "device name is empty");
		return false;
	}
	if (len >= IFNAMSIZ) {
		NL_SET_ERR_MSG(extack, "device name is too long");
		return false;
	}
	/*
	 * The name will also name the RDMA device and appear in sysfs paths
	 * and in tools' output, so keep to characters that need no quoting.
	 */
	for (i = 0; i < len; i++) {
		if (!isalnum(name[i]) && !strchr("_.-", name[i])) {
			NL_SET_ERR_MSG(extack,
				       "device name may only contain [a-zA-Z0-9_.-]");
			return false;
		}
	}
	return true;
}

struct mrc_device *mrc_dev_find(struct mrc_net *mn, const char *name)
{
	struct mrc_device *mdev;

	lockdep_assert_held(&mn->lock);

	list_for_each_entry(mdev, &mn->devices, list)
		if (!strcmp(mdev->name, name))
			return mdev;
	return NULL;
}

static struct mrc_plane *mrc_plane_find(struct mrc_net *mn,
					const struct net_device *ndev)
{
	struct mrc_device *mdev;
	struct mrc_plane *plane;
	unsigned int i;

	lockdep_assert_held(&mn->lock);

	list_for_each_entry(mdev, &mn->devices, list) {
		for (i = 0; i < MRC_MAX_PLANES; i++) {
			plane = mrc_plane_get(mdev, i);
			if (plane && plane->ndev == ndev)
				return plane;
		}
	}
	return NULL;
}

static void mrc_plane_update(struct mrc_plane *plane)
{
	WRITE_ONCE(plane->up, plane->admin_up && netif_running(plane->ndev) &&
		   netif_carrier_ok(plane->ndev));
}

/* Bit k set when plane k is missing or down, as a port status carries it. */
static u32 mrc_dev_down_mask(struct mrc_device *mdev)
{
	u32 i, down = 0;

	for (i = 0; i < mdev->nports; i++)
		if (!mrc_plane_up(mdev, i))
			down |= BIT(i);
	return down;
}

/*
 * A plane went down or came back: every connected RC QP tells its peer, so
 * that the peer's packets stop or start going to this port (MRC's Port
 * Status Update, mrc_ev_port_status()), and probes its paths at once.
 * RTNL and mrc_net.lock order the updates; one per QP, since each QP's
 * peer applies it to that QP alone.  The sequence and mask are stored
 * before any QP is told: a QP that connects or repeats the update reads
 * them from there, never a plane's state that no update has carried yet
 * (which would pair the old sequence with the new mask, and the peer would
 * apply the change twice).
 */
static void mrc_dev_port_status(struct mrc_device *mdev)
{
	u32 seq = upper_32_bits(atomic64_read(&mdev->pstat)) + 1;
	u32 down = mrc_dev_down_mask(mdev);
	struct sk_buff_head out;
	struct mrc_qp *qp;
	unsigned long qpn;

	atomic64_set(&mdev->pstat, (u64)seq << 32 | down);
	WRITE_ONCE(mdev->pstat_ns, ktime_get_ns());
	if (!mdev->registered || mdev->doomed)
		return;
	__skb_queue_head_init(&out);
	/* QPs are freed only after a grace period (qp.c). */
	rcu_read_lock();
	xa_for_each(&mdev->qps, qpn, qp) {
		mrc_qp_lock_tx(qp);
		if (!qp->dead && qp->evs && qp->state >= IB_QPS_RTR &&
		    qp->state != IB_QPS_ERR)
			mrc_ev_planes_changed(qp, seq, down, &out);
		mrc_qp_unlock_xmit(qp, &out);
	}
	rcu_read_unlock();
}

/*
 * Recompute the plane's state after its netdev or its admin state changed;
 * RDMA consumers, the events group and the QPs' peers hear of a real change
 * only.
 */
static void mrc_plane_refresh(struct mrc_plane *plane)
{
	bool up = plane->up;

	mrc_plane_update(plane);
	if (plane->up != up) {
		mrc_ib_port_event(plane->mdev, plane->index, plane->up);
		mrc_nl_notify_plane(plane->mdev, plane);
		mrc_dev_port_status(plane->mdev);
	}
}

/*
 * MRC_CMD_PLANE_SET.  Admin down is down for everything that reads
 * plane->up, exactly as a lost carrier: the QPs' EVs on the plane go
 * ASSUMED_BAD on their next turn and are not probed, nothing is sent on it,
 * and the QPs carry on over the other planes.  Under RTNL and mrc_net.lock.
 */
void mrc_plane_set_admin(struct mrc_plane *plane, bool up)
{
	ASSERT_RTNL();
	lockdep_assert_held(&mrc_net(plane->mdev->net)->lock);

	plane->admin_up = up;
	mrc_plane_refresh(plane);
}

/* Runs after a grace period: the data path reads planes under RCU. */
static void mrc_plane_free_rcu(struct rcu_head *head)
{
	struct mrc_plane *plane = container_of(head, struct mrc_plane, rcu);

	netdev_put(plane->ndev, &plane->tracker);
	kfree(plane);
}

static void mrc_plane_remove(struct mrc_plane *plane)
{
	struct mrc_device *mdev = plane->mdev;

	RCU_INIT_POINTER(mdev->planes[plane->index], NULL);
	mdev->nplanes--;
	call_rcu(&plane->rcu, mrc_plane_free_rcu);
}

/*
 * Takes the device out of its namespace's registry and drops its planes; the
 * caller then ends the RDMA device (mrc_dev_destroy(), or a queued
 * unregistration where it may not sleep on the RDMA core).
 */
static void mrc_dev_unlink(struct mrc_net *mn, struct mrc_device *mdev)
{
	unsigned int i;

	lockdep_assert_held(&mn->lock);

	list_del_init(&mdev->list);
	for (i = 0; i < MRC_MAX_PLANES; i++) {
		struct mrc_plane *plane = mrc_plane_get(mdev, i);

		if (plane)
			mrc_plane_remove(plane);
	}
	mn->genid++;
}

/* Without RTNL or mrc_net.lock: unregistering waits for the RDMA core. */
static void mrc_dev_destroy(struct mrc_device *mdev, bool registered)
{
	/* With dealloc_driver set, both end by freeing @mdev. */
	if (registered)
		ib_unregister_device(&mdev->ib);
	else
		ib_dealloc_device(&mdev->ib);
}

int mrc_dev_del(struct mrc_net *mn, const char *name,
		struct netlink_ext_ack *extack)
{
	struct mrc_device *mdev;
	bool registered;

	mutex_lock(&mn->lock);
	mdev = mrc_dev_find(mn, name);
	if (!mdev || !mdev->registered) {
		mutex_unlock(&mn->lock);
		NL_SET_ERR_MSG(extack, "no such mrc device");
		return -ENODEV;
	}
	registered = mdev->registered;
	mrc_dev_unlink(mn, mdev);
	mutex_unlock(&mn->lock);

	mrc_dev_destroy(mdev, registered);
	return 0;
}

static bool mrc_plane_ndev_valid(const struct mrc_plane_req *req,
				 const struct mrc_plane_req *prev,
				 unsigned int nprev,
				 struct netlink_ext_ack *extack)
{
	const struct net_device *ndev = req->ndev;
	unsigned int i;

	/* The data path will build Ethernet frames for every plane. */
	if (ndev->flags & IFF_LOOPBACK) {
		NL_SET_ERR_MSG(extack, "loopback device cannot be a plane");
		return false;
	}
	if (ndev->type != ARPHRD_ETHER) {
		NL_SET_ERR_MSG(extack, "plane netdev is not an Ethernet device");
		return false;
	}
	for (i = 0; i < nprev; i++) {
		if (prev[i].ndev == ndev) {
			NL_SET_ERR_MSG(extack, "netdev listed twice as a plane");
			return false;
		}
	}
	return true;
}

/*
 * First half of creating a device, under RTNL, which keeps the requested
 * netdevs registered until their references are taken and makes the checks
 * on them stable.  The device enters the registry (so that its name and
 * planes are taken) but is not usable until mrc_dev_register() succeeds.
 */
int mrc_dev_new(struct net *net, struct mrc_dev_req *req,
		struct mrc_device **out, struct netlink_ext_ack *extack)
{
	const struct mrc_plane_req *reqs = req->planes;
	struct mrc_plane *planes[MRC_MAX_PLANES] = {};
	unsigned int nreqs = req->nplanes;
	const char *name = req->name;
	struct mrc_net *mn = mrc_net(net);
	struct mrc_dev_prof prof;
	struct mrc_device *mdev;
	unsigned int i;
	int err;

	ASSERT_RTNL();

	if (!mrc_dev_name_valid(name, extack)) {
		req->bad = MRC_A_DEV_NAME;
		return -EINVAL;
	}
	if (!nreqs) {
		NL_SET_ERR_MSG(extack, "at least one plane is required");
		return -EINVAL;
	}
	if (nreqs > MRC_MAX_PLANES) {
		NL_SET_ERR_MSG(extack, "too many planes");
		return -E2BIG;
	}
	for (i = 0; i < nreqs; i++) {
		if (!mrc_plane_ndev_valid(&reqs[i], reqs, i, extack)) {
			req->bad = MRC_A_DEV_PLANES;
			req->bad_plane = i;
			return -EINVAL;
		}
	}

	/*
	 * Everything that can fail comes before ib_alloc_device(): undoing it
	 * means ib_dealloc_device(), which takes the RDMA core's devices_rwsem,
	 * an inversion under RTNL (the core takes RTNL inside that lock).
	 * The checks and the insertion share one hold of mrc_net.lock.
	 */
	for (i = 0; i < nreqs; i++) {
		planes[i] = kzalloc(sizeof(*planes[i]), GFP_KERNEL_ACCOUNT);
		if (!planes[i]) {
			err = -ENOMEM;
			goto err_free;
		}
	}
	mutex_lock(&mn->lock);
	if (mrc_dev_find(mn, name)) {
		NL_SET_ERR_MSG(extack, "an mrc device with this name already exists");
		req->bad = MRC_A_DEV_NAME;
		err = -EEXIST;
		goto err_unlock;
	}
	for (i = 0; i < nreqs; i++) {
		if (mrc_plane_find(mn, reqs[i].ndev)) {
			NL_SET_ERR_MSG(extack,
				       "plane already in use by another mrc device");
			req->bad = MRC_A_DEV_PLANES;
			req->bad_plane = i;
			err = -EBUSY;
			goto err_unlock;
		}
	}
	err = mrc_dev_prof_resolve(mn, &req->prof, NULL, &prof, extack);
	if (err) {
		req->bad = req->prof.bad;
		goto err_unlock;
	}
	/* Dumps resume by index, so an index must never come back. */
	if (mn->next_index == U32_MAX) {
		NL_SET_ERR_MSG(extack, "device index space exhausted");
		err = -ENOSPC;
		goto err_unlock;
	}
	mdev = ib_alloc_device(mrc_device, ib);
	if (!mdev) {
		err = -ENOMEM;
		goto err_unlock;
	}

	INIT_LIST_HEAD(&mdev->list);
	mdev->net = net;
	mdev->nports = nreqs;
	xa_init_flags(&mdev->qps, XA_FLAGS_ALLOC);
	xa_init_flags(&mdev->mrs, XA_FLAGS_ALLOC1);
	xa_init_flags(&mdev->mws, XA_FLAGS_ALLOC);
	/*
	 * Read under a QP's lock, which the receive path takes in softirq:
	 * bottom halves off wherever it is taken, and a class of its own
	 * (every xarray's lock is one class otherwise, the MRs' taken with
	 * bottom halves on).
	 */
	xa_init_flags(&mdev->ahs, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH);
	lockdep_set_class(&mdev->ahs.xa_lock, &mrc_ahs_lock_key);
	strscpy(mdev->name, name, sizeof(mdev->name));
	spin_lock_init(&mdev->prof_lock);
	mdev->prof = prof;
	mutex_init(&mdev->srv6_lock);
	INIT_LIST_HEAD(&mdev->srv6);
	for (i = 0; i < nreqs; i++) {
		struct mrc_plane *plane = planes[i];

		plane->mdev = mdev;
		plane->index = i;
		plane->ndev = reqs[i].ndev;
		netdev_hold(plane->ndev, &plane->tracker, GFP_KERNEL);
		strscpy(plane->ifname, plane->ndev->name, sizeof(plane->ifname));
		plane->admin_up = true;
		mrc_plane_update(plane);
		RCU_INIT_POINTER(mdev->planes[i], plane);
		mdev->nplanes++;
	}
	/* Sequence 0: a QP connecting now tells its peer of a plane down. */
	atomic64_set(&mdev->pstat, mrc_dev_down_mask(mdev));
	mdev->index = mn->next_index++;
	list_add_tail(&mdev->list, &mn->devices);
	mn->genid++;
	mutex_unlock(&mn->lock);
	*out = mdev;
	return 0;

err_unlock:
	mutex_unlock(&mn->lock);
err_free:
	for (i = 0; i < nreqs; i++)
		kfree(planes[i]);
	return err;
}

/*
 * Second half, without RTNL (the RDMA core takes it to fill the GID tables).
 * A plane may vanish meanwhile; if the last one did, the notifier left the
 * device "doomed" to us.
 */
int mrc_dev_register(struct mrc_device *mdev, struct netlink_ext_ack *extack)
{
	struct mrc_net *mn = mrc_net(mdev->net);
	int err;

	err = mrc_ib_register(mdev);
	if (err)
		NL_SET_ERR_MSG(extack,
			       "RDMA device registration failed (is the name taken by another RDMA device?)");

	mutex_lock(&mn->lock);
	if (!err && !mdev->doomed) {
		mdev->registered = true;
		/* Before anyone can find it registered and delete it. */
		mrc_debugfs_add(mdev);
		mutex_unlock(&mn->lock);
		return 0;
	}
	if (!err) {
		NL_SET_ERR_MSG(extack, "the planes went away during creation");
		err = -ENODEV;
	}
	if (!list_empty(&mdev->list))
		mrc_dev_unlink(mn, mdev);
	mutex_unlock(&mn->lock);

	mrc_dev_destroy(mdev, err == -ENODEV);
	return err;
}

static int mrc_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct mrc_plane *plane;
	struct mrc_device *mdev;
	struct mrc_net *mn;

	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
	case NETDEV_CHANGENAME:
	case NETDEV_UNREGISTER:
		break;
	default:
		return NOTIFY_DONE;
	}

	/*
	 * Namespaces set up before our pernet init ran for them have no
	 * state; they cannot have planes either.
	 */
	mn = mrc_net(dev_net(ndev));
	if (!mn)
		return NOTIFY_DONE;

	mutex_lock(&mn->lock);
	plane = mrc_plane_find(mn, ndev);
	if (!plane)
		goto out;
	mdev = plane->mdev;

	switch (event) {
	case NETDEV_CHANGENAME:
		strscpy(plane->ifname, ndev->name, sizeof(plane->ifname));
		break;
	case NETDEV_UNREGISTER:
		/*
		 * Also seen when the netdev moves to another namespace: a plane
		 * must stay in its device's namespace, so it goes either way.
		 */
		if (!READ_ONCE(mrc_unloading))
			pr_info("%s: plane %u lost, netdev %s unregistered\n",
				mdev->name, plane->index, plane->ifname);
		/* The RDMA core holds the netdev until its port lets go. */
		ib_device_set_netdev(&mdev->ib, NULL, plane->index + 1);
		mrc_ib_port_event(mdev, plane->index, false);
		mrc_plane_remove(plane);
		mn->genid++;
		if (mdev->nplanes) {
			mrc_dev_port_status(mdev);
			break;
		}
		if (!READ_ONCE(mrc_unloading))
			pr_info("%s: deleted, no plane left\n", mdev->name);
		mrc_dev_unlink(mn, mdev);
		/*
		 * Not under RTNL: the RDMA core's unregistration takes it.
		 * Counted, so that the namespace outlives it (mrc_net_exit()).
		 */
		if (mdev->registered) {
			atomic_inc(&mn->unregistering);
			mdev->queued = true;
			ib_unregister_device_queued(&mdev->ib);
		} else {
			mdev->doomed = true;
		}
		break;
	default:
		mrc_plane_refresh(plane);
		break;
	}
out:
	mutex_unlock(&mn->lock);
	return NOTIFY_DONE;
}

static struct notifier_block mrc_netdev_notifier = {
	.notifier_call = mrc_netdev_event,
};

static int __net_init mrc_net_init(struct net *net)
{
	struct mrc_net *mn = mrc_net(net);

	mutex_init(&mn->lock);
	INIT_LIST_HEAD(&mn->devices);
	return mrc_net_sockets_init(net);
}

/*
 * Registered as a pernet device, so this runs before the namespace's netdevs
 * are unregistered and the plane references are dropped here, early.  The
 * mutex is not destroyed: the notifier still takes it for the unregistrations
 * that follow, until the namespace's generic data is freed.
 */
static void __net_exit mrc_net_exit(struct net *net)
{
	struct mrc_net *mn = mrc_net(net);
	struct mrc_device *mdev;
	bool registered;

	for (;;) {
		mutex_lock(&mn->lock);
		mdev = list_first_entry_or_null(&mn->devices,
						struct mrc_device, list);
		if (!mdev) {
			mutex_unlock(&mn->lock);
			break;
		}
		/* One still being created is finished by its creator. */
		registered = mdev->registered;
		if (!registered)
			mdev->doomed = true;
		mrc_dev_unlink(mn, mdev);
		mutex_unlock(&mn->lock);
		if (registered)
			mrc_dev_destroy(mdev, true);
	}
	/* And those that lost their last plane, in the RDMA core's hands. */
	wait_var_event(&mn->unregistering, !atomic_read(&mn->unregistering));
	/* Every QP of the namespace is gone with its device. */
	mrc_net_sockets_exit(net);
}

static struct pernet_operations mrc_net_ops = {
	.init = mrc_net_init,
	.exit = mrc_net_exit,
	.id = &mrc_net_id,
	.size = sizeof(struct mrc_net),
};

/*
 * "rdma link add NAME type mrc netdev DEV": a one-plane device made by the
 * same code as MRC_CMD_DEV_NEW.  Called with the RDMA core's link_ops_rwsem
 * held for reading and a plain reference on @ndev, without RTNL.
 */
static int mrc_rdma_newlink(const char *ibdev_name, struct net_device *ndev)
{
	struct netlink_ext_ack extack = {};
	struct mrc_plane_req plane = { .ndev = ndev };
	struct mrc_dev_req req = {
		.name = ibdev_name,
		.planes = &plane,
		.nplanes = 1,
	};
	struct mrc_device *mdev;
	int err;

	rtnl_lock();
	/* Our reference does not stop an unregistration already under way. */
	if (ndev->reg_state != NETREG_REGISTERED) {
		NL_SET_ERR_MSG(&extack, "netdev is going away");
		err = -ENODEV;
	} else {
		err = mrc_dev_new(dev_net(ndev), &req, &mdev, &extack);
	}
	rtnl_unlock();
	if (!err)
		err = mrc_dev_register(mdev, &extack);

	if (err)
		pr_info("rdma link add %s on %s failed: %s (%d)\n", ibdev_name,
			ndev->name, extack._msg ?: "error", err);
	return err;
}

static struct rdma_link_ops mrc_link_ops = {
	.type = "mrc",
	.newlink = mrc_rdma_newlink,
};

int mrc_device_init(void)
{
	int err;

	err = register_pernet_device(&mrc_net_ops);
	if (err)
		return err;

	err = register_netdevice_notifier(&mrc_netdev_notifier);
	if (err) {
		unregister_pernet_device(&mrc_net_ops);
		return err;
	}

	rdma_link_register(&mrc_link_ops);
	return 0;
}

void mrc_device_exit(void)
{
	/* Waits for "rdma link add" calls in flight. */
	rdma_link_unregister(&mrc_link_ops);

	/*
	 * Before the pernet ops: the notifier may run for any namespace until
	 * it is gone and needs their mrc_net.  Its replay of NETDEV_UNREGISTER
	 * deletes every device; the pernet exits then find nothing left.
	 */
	WRITE_ONCE(mrc_unloading, true);
	unregister_netdevice_notifier(&mrc_netdev_notifier);
	/*
	 * Waits for the unregistrations the notifier queued.  The driver id
	 * is rxe's, but rdma_rxe cannot be loaded beside us (main.c).
	 */
	ib_unregister_driver(RDMA_DRIVER_RXE);
	unregister_pernet_device(&mrc_net_ops);
}
