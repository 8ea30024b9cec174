// SPDX-License-Identifier: GPL-2.0
/*
 * The "mrc" generic netlink family: its top-level policy, operations and
 * multicast group, the version query, and what the handlers of the other
 * netlink_*.c files share (message headers, notifications, the device walk
 * of dumps).  Each of those files owns the policies of its nests.
 * Documentation/netlink/specs/mrc.yaml describes the messages formally,
 * Documentation/netlink.md in prose, with every error and its extended ack
 * message.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "mrc.h"

/*
 * Error messages carry no "mrc: " prefix: the family already says who is
 * talking, and mrcctl prints them as they are.
 */

/* A device names a profile by id, or none with 0. */
static struct netlink_range_validation mrc_dev_prof_id_range = {
	.min = 0,
	.max = MRC_PROFILE_ID_MAX,
};

static struct netlink_range_validation mrc_probe_timeout_range = {
	.min = 1,
	.max = MRC_PROBE_TIMEOUT_MS_MAX,
};

/* Attributes that are only ever sent by the kernel have no entry: rejected. */
static const struct nla_policy mrc_policy[MRC_A_MAX + 1] = {
	[MRC_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[MRC_A_DEV_PLANES] = NLA_POLICY_NESTED(mrc_planes_policy),
	[MRC_A_EVPROF] = NLA_POLICY_NESTED(mrc_evprof_policy),
	[MRC_A_CCPROF] = NLA_POLICY_NESTED(mrc_ccprof_policy),
	[MRC_A_EVFMT] = NLA_POLICY_NESTED(mrc_evfmt_policy),
	[MRC_A_DEV_EVPROF_ID] = NLA_POLICY_FULL_RANGE(NLA_U32,
						      &mrc_dev_prof_id_range),
	[MRC_A_DEV_CCPROF_ID] = NLA_POLICY_FULL_RANGE(NLA_U32,
						      &mrc_dev_prof_id_range),
	[MRC_A_QP] = NLA_POLICY_NESTED(mrc_qp_policy),
	[MRC_A_PROBE_TIMEOUT_MS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							 &mrc_probe_timeout_range),
	[MRC_A_SRV6] = NLA_POLICY_NESTED(mrc_srv6_policy),
};

static struct genl_family mrc_genl_family;

static int mrc_nl_version_get(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	hdr = genlmsg_put_reply(msg, info, &mrc_genl_family, 0,
				MRC_CMD_VERSION_GET);
	if (!hdr)
		goto nla_put_failure;

	if (nla_put_string(msg, MRC_A_VERSION_MODULE, MRC_VERSION) ||
	    nla_put_u32(msg, MRC_A_VERSION_GENL, MRC_GENL_VERSION) ||
	    nla_put_u16(msg, MRC_A_UDP_PORT, mrc_udp_port) ||
	    nla_put_u32(msg, MRC_A_MAX_PLANES, MRC_MAX_PLANES) ||
	    nla_put_u32(msg, MRC_A_MAX_EVS, MRC_MAX_EVS))
		goto nla_put_failure;

	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

nla_put_failure:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/*
 * GENL_ADMIN_PERM, not GENL_UNS_ADMIN_PERM: an mrc device will register an
 * RDMA device, a system-wide object, and "rdma link add" itself requires
 * CAP_NET_ADMIN in the initial user namespace.  Queries are open to all.
 */
static const struct genl_small_ops mrc_genl_ops[] = {
	{
		.cmd = MRC_CMD_VERSION_GET,
		.doit = mrc_nl_version_get,
	},
	{
		.cmd = MRC_CMD_DEV_GET,
		.doit = mrc_nl_dev_get,
		.dumpit = mrc_nl_dev_dump,
	},
	{
		.cmd = MRC_CMD_DEV_NEW,
		.doit = mrc_nl_dev_new,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_DEV_DEL,
		.doit = mrc_nl_dev_del,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_DEV_SET,
		.doit = mrc_nl_dev_set,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_PROBE,
		.doit = mrc_nl_probe,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_SRV6_SET,
		.doit = mrc_nl_srv6_set,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_SRV6_DEL,
		.doit = mrc_nl_srv6_del,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_SRV6_GET,
		.dumpit = mrc_nl_srv6_dump,
	},
	{
		.cmd = MRC_CMD_EVPROF_NEW,
		.doit = mrc_nl_prof_apply,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_EVPROF_SET,
		.doit = mrc_nl_prof_apply,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_EVPROF_GET,
		.doit = mrc_nl_prof_get,
		.dumpit = mrc_nl_prof_dump,
	},
	{
		.cmd = MRC_CMD_EVPROF_DEL,
		.doit = mrc_nl_prof_del,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_CCPROF_NEW,
		.doit = mrc_nl_prof_apply,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_CCPROF_SET,
		.doit = mrc_nl_prof_apply,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_CCPROF_GET,
		.doit = mrc_nl_prof_get,
		.dumpit = mrc_nl_prof_dump,
	},
	{
		.cmd = MRC_CMD_CCPROF_DEL,
		.doit = mrc_nl_prof_del,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_EVFMT_NEW,
		.doit = mrc_nl_prof_apply,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_EVFMT_SET,
		.doit = mrc_nl_prof_apply,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_EVFMT_GET,
		.doit = mrc_nl_prof_get,
		.dumpit = mrc_nl_prof_dump,
	},
	{
		.cmd = MRC_CMD_EVFMT_DEL,
		.doit = mrc_nl_prof_del,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_QP_GET,
		.doit = mrc_nl_qp_get,
		.dumpit = mrc_nl_qp_dump,
	},
	{
		.cmd = MRC_CMD_EV_SET,
		.doit = mrc_nl_ev_set,
		.flags = GENL_ADMIN_PERM,
	},
	{
		/*
		 * Open: an application sets the MRC attributes of its own QPs
		 * (the OCP API's mrc_modify_qp()); mrc_nl_qp_set() lets the
		 * QP's owner or CAP_NET_ADMIN through.
		 */
		.cmd = MRC_CMD_QP_SET,
		.doit = mrc_nl_qp_set,
	},
	/* The controller's admin state of planes. */
	{
		.cmd = MRC_CMD_PLANE_SET,
		.doit = mrc_nl_plane_set,
		.flags = GENL_ADMIN_PERM,
	},
};

enum mrc_genl_mcgrp {
	MRC_MCGRP_EVENTS,
};

static const struct genl_multicast_group mrc_genl_mcgrps[] = {
	[MRC_MCGRP_EVENTS] = {
		.name = MRC_GENL_MCGRP_EVENTS,
		.flags = GENL_MCAST_CAP_NET_ADMIN,
	},
};

/*
 * resv_start_op stays 0, as a new family should: every command then gets
 * strict attribute validation and a checked genlmsghdr.
 */
static struct genl_family mrc_genl_family __ro_after_init = {
	.name = MRC_GENL_NAME,
	.version = MRC_GENL_VERSION,
	.maxattr = MRC_A_MAX,
	.policy = mrc_policy,
	.netnsok = true,
	/*
	 * Every handler takes the locks it needs (mrc_net.lock, RTNL), and
	 * PROBE sleeps for up to a minute: under the genetlink mutex that
	 * would stall every other family of the system meanwhile.
	 */
	.parallel_ops = true,
	.module = THIS_MODULE,
	.small_ops = mrc_genl_ops,
	.n_small_ops = ARRAY_SIZE(mrc_genl_ops),
	.mcgrps = mrc_genl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(mrc_genl_mcgrps),
};

/*
 * Events may only be sent while the family is registered: its multicast group
 * ids are not ours before or after.  Events come from the netdevice notifier,
 * which runs under RTNL, so flipping this under RTNL orders it against them.
 */
static bool mrc_events_on;

/*
 * A plane went up or down.  Called under RTNL and mrc_net.lock, in process
 * context; a listener that misses an event (no memory) can always re-read
 * the state with MRC_CMD_DEV_GET.
 */
void mrc_nl_notify_plane(const struct mrc_device *mdev,
			 const struct mrc_plane *plane)
{
	struct nlattr *planes;
	struct sk_buff *msg;
	void *hdr;

	ASSERT_RTNL();
	if (!mrc_events_on ||
	    !genl_has_listeners(&mrc_genl_family, mdev->net, MRC_MCGRP_EVENTS))
		return;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &mrc_genl_family, 0, MRC_CMD_PLANE_EVENT);
	if (!hdr)
		goto free;
	if (nla_put_string(msg, MRC_A_DEV_NAME, mdev->name))
		goto free;
	planes = nla_nest_start(msg, MRC_A_DEV_PLANES);
	if (!planes || mrc_nl_put_plane(msg, plane))
		goto free;
	nla_nest_end(msg, planes);
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&mrc_genl_family, mdev->net, msg, 0,
				MRC_MCGRP_EVENTS, GFP_KERNEL);
	return;
free:
	nlmsg_free(msg);
}

/* A message header of the family, for handlers that live in other files. */
void *mrc_nl_hdr_put(struct sk_buff *skb, u32 portid, u32 seq, int flags,
		     u8 cmd)
{
	return genlmsg_put(skb, portid, seq, &mrc_genl_family, flags, cmd);
}

/* Zeroes the position inside a device: what follows the head of cb->ctx. */
static void mrc_nl_dump_ctx_zero(struct netlink_callback *cb)
{
	memset(cb->ctx + sizeof(struct mrc_nl_devs_ctx), 0,
	       sizeof(cb->ctx) - sizeof(struct mrc_nl_devs_ctx));
}

/**
 * mrc_nl_dump_devices() - the device walk of a dump over per-device objects
 * @skb: the dump's message
 * @cb: cb->ctx starts with a struct mrc_nl_devs_ctx, the device to go on at;
 *	the rest is the position inside it, zeroed whenever the walk moves to
 *	another device
 * @genid: the generation of what the dump walks, under mrc_net.lock, for
 *	NLM_F_DUMP_INTR
 * @dump_dev: puts one device's objects from the position in cb->ctx on; 0 when
 *	the device is done, an error (the message is full) to stop
 * @arg: passed to @dump_dev
 *
 * Devices are walked under mrc_net.lock in index order, only the one named
 * by MRC_A_DEV_NAME when the request has it.
 *
 * Return: the dump's answer: the message length, or the error of a first
 * object that fits no message.
 */
int mrc_nl_dump_devices(struct sk_buff *skb, struct netlink_callback *cb,
			u32 (*genid)(struct mrc_net *mn),
			int (*dump_dev)(struct sk_buff *skb,
					struct netlink_callback *cb,
					struct mrc_device *mdev, void *arg),
			void *arg)
{
	struct nlattr *name_attr = mrc_genl_dump_attrs(cb)[MRC_A_DEV_NAME];
	struct mrc_nl_devs_ctx *ctx = (void *)cb->ctx;
	struct mrc_net *mn = mrc_net(sock_net(skb->sk));
	struct mrc_device *mdev;
	int err = 0;

	mutex_lock(&mn->lock);
	cb->seq = genid(mn);
	list_for_each_entry(mdev, &mn->devices, list) {
		if (mdev->index < ctx->index)
			continue;
		if (name_attr && strcmp(mdev->name, nla_data(name_attr)))
			continue;
		if (mdev->index != ctx->index) {
			ctx->index = mdev->index;
			mrc_nl_dump_ctx_zero(cb);
		}
		err = dump_dev(skb, cb, mdev, arg);
		if (err)
			break;
		ctx->index = (unsigned long)mdev->index + 1;
		mrc_nl_dump_ctx_zero(cb);
	}
	mutex_unlock(&mn->lock);

	if (err && !skb->len)
		return err;
	return skb->len;
}

/*
 * EV and QP events (netlink_event.c) come from the data path, not under
 * RTNL: they test mrc_events_on inside an RCU read section, and
 * mrc_genl_exit() waits for those sections before the family goes.
 */
bool mrc_nl_has_listeners(struct net *net)
{
	/* KUnit's devices live in no namespace. */
	return net && READ_ONCE(mrc_events_on) &&
	       genl_has_listeners(&mrc_genl_family, net, MRC_MCGRP_EVENTS);
}

/* The header of a notification; NULL when @msg has no room. */
void *mrc_nl_event_put(struct sk_buff *msg, u8 cmd)
{
	return genlmsg_put(msg, 0, 0, &mrc_genl_family, 0, cmd);
}

/* Sends (and consumes) a finished notification to @net's events group. */
void mrc_nl_event_send(struct net *net, struct sk_buff *msg)
{
	rcu_read_lock();
	if (READ_ONCE(mrc_events_on))
		genlmsg_multicast_netns(&mrc_genl_family, net, msg, 0,
					MRC_MCGRP_EVENTS, GFP_ATOMIC);
	else
		nlmsg_free(msg);
	rcu_read_unlock();
}

int __init mrc_genl_init(void)
{
	int err;

	err = genl_register_family(&mrc_genl_family);
	if (err)
		return err;
	rtnl_lock();
	WRITE_ONCE(mrc_events_on, true);
	rtnl_unlock();
	return 0;
}

void mrc_genl_exit(void)
{
	rtnl_lock();
	WRITE_ONCE(mrc_events_on, false);
	rtnl_unlock();
	/* No EV or QP event is being sent after this. */
	synchronize_rcu();
	genl_unregister_family(&mrc_genl_family);
}
