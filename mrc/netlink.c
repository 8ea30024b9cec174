// SPDX-License-Identifier: GPL-2.0
/*
 * The "mrc" generic netlink family: version query and device management.
 * include/uapi/linux/mrc.h documents the messages; Documentation/netlink.md
 * lists every error with its extended ack message.
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

static struct netlink_range_validation mrc_ifindex_range = {
	.min = 1,
	.max = INT_MAX,
};

static const struct nla_policy mrc_plane_policy[MRC_A_PLANE_MAX + 1] = {
	[MRC_A_PLANE_INDEX] = NLA_POLICY_MAX(NLA_U32, MRC_MAX_PLANES - 1),
	[MRC_A_PLANE_IFINDEX] = NLA_POLICY_FULL_RANGE(NLA_U32,
						      &mrc_ifindex_range),
	[MRC_A_PLANE_IFNAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[MRC_A_PLANE_STATE] = NLA_POLICY_MAX(NLA_U8, MRC_PLANE_STATE_UP),
};

static const struct nla_policy mrc_planes_policy[MRC_A_PLANES_MAX + 1] = {
	[MRC_A_PLANE] = NLA_POLICY_NESTED(mrc_plane_policy),
};

/* Attributes that are only ever sent by the kernel have no entry: rejected. */
static const struct nla_policy mrc_policy[MRC_A_MAX + 1] = {
	[MRC_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[MRC_A_DEV_PLANES] = NLA_POLICY_NESTED(mrc_planes_policy),
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

static int mrc_nl_put_plane(struct sk_buff *skb, const struct mrc_plane *plane)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, MRC_A_PLANE);
	if (!nest)
		return -EMSGSIZE;

	/* ifindex cannot change while the netdev stays in this namespace. */
	if (nla_put_u32(skb, MRC_A_PLANE_INDEX, plane->index) ||
	    nla_put_u32(skb, MRC_A_PLANE_IFINDEX, plane->ndev->ifindex) ||
	    nla_put_string(skb, MRC_A_PLANE_IFNAME, plane->ifname) ||
	    nla_put_u8(skb, MRC_A_PLANE_STATE,
		       plane->up ? MRC_PLANE_STATE_UP : MRC_PLANE_STATE_DOWN)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}

	nla_nest_end(skb, nest);
	return 0;
}

/* Caller holds mrc_net.lock. */
static int mrc_nl_put_dev(struct sk_buff *skb, const struct mrc_device *mdev,
			  u32 portid, u32 seq, int flags,
			  struct netlink_callback *cb)
{
	struct nlattr *planes;
	unsigned int i;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &mrc_genl_family, flags,
			  MRC_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);

	if (nla_put_string(skb, MRC_A_DEV_NAME, mdev->name) ||
	    nla_put_u32(skb, MRC_A_DEV_INDEX, mdev->index))
		goto cancel;

	planes = nla_nest_start(skb, MRC_A_DEV_PLANES);
	if (!planes)
		goto cancel;
	for (i = 0; i < MRC_MAX_PLANES; i++)
		if (mdev->planes[i] && mrc_nl_put_plane(skb, mdev->planes[i]))
			goto cancel;
	nla_nest_end(skb, planes);

	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int mrc_nl_dev_get(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct nlattr *name_attr = info->attrs[MRC_A_DEV_NAME];
	struct mrc_device *mdev;
	struct sk_buff *msg;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, MRC_A_DEV_NAME)) {
		NL_SET_ERR_MSG(info->extack, "missing device name");
		return -EINVAL;
	}

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	mutex_lock(&mn->lock);
	mdev = mrc_dev_find(mn, nla_data(name_attr));
	if (!mdev) {
		NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
				    "no such mrc device");
		err = -ENODEV;
	} else {
		err = mrc_nl_put_dev(msg, mdev, info->snd_portid,
				     info->snd_seq, 0, NULL);
	}
	mutex_unlock(&mn->lock);

	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/*
 * cb->args[0] holds the index of the next device to send.  Indexes only grow
 * along the list, so deletions between two parts of a dump never make it
 * skip or repeat a device that stays.
 */
static int mrc_nl_dev_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct mrc_net *mn = mrc_net(sock_net(skb->sk));
	struct mrc_device *mdev;
	int err = 0;

	mutex_lock(&mn->lock);
	cb->seq = mn->genid;
	list_for_each_entry(mdev, &mn->devices, list) {
		if (mdev->index < cb->args[0])
			continue;
		err = mrc_nl_put_dev(skb, mdev, NETLINK_CB(cb->skb).portid,
				     cb->nlh->nlmsg_seq, NLM_F_MULTI, cb);
		if (err)
			break;
		cb->args[0] = (long)mdev->index + 1;
	}
	mutex_unlock(&mn->lock);

	/* Sixteen planes always fit; an empty part would end the dump. */
	if (err && !skb->len)
		return err;
	return skb->len;
}

/* Fills @reqs from MRC_A_DEV_PLANES; under RTNL for the netdev lookups. */
static int mrc_nl_parse_planes(struct net *net, const struct nlattr *planes,
			       struct mrc_plane_req *reqs, unsigned int *nreqs,
			       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[MRC_A_PLANE_MAX + 1];
	const struct nlattr *nla;
	unsigned int n = 0;
	int rem, err;

	ASSERT_RTNL();

	nla_for_each_nested(nla, planes, rem) {
		struct net_device *ndev = NULL;
		struct net_device *byname;

		if (n == MRC_MAX_PLANES) {
			NL_SET_ERR_MSG_ATTR(extack, nla, "too many planes");
			return -E2BIG;
		}

		err = nla_parse_nested(tb, MRC_A_PLANE_MAX, nla,
				       mrc_plane_policy, extack);
		if (err)
			return err;

		if (tb[MRC_A_PLANE_INDEX] || tb[MRC_A_PLANE_STATE]) {
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "plane index and state are set by the kernel");
			return -EINVAL;
		}
		if (!tb[MRC_A_PLANE_IFINDEX] && !tb[MRC_A_PLANE_IFNAME]) {
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "plane needs an ifindex or an ifname");
			return -EINVAL;
		}

		if (tb[MRC_A_PLANE_IFINDEX]) {
			ndev = __dev_get_by_index(net,
						  nla_get_u32(tb[MRC_A_PLANE_IFINDEX]));
			if (!ndev) {
				NL_SET_ERR_MSG_ATTR(extack,
						    tb[MRC_A_PLANE_IFINDEX],
						    "no netdev with this ifindex");
				return -ENODEV;
			}
		}
		if (tb[MRC_A_PLANE_IFNAME]) {
			byname = __dev_get_by_name(net,
						   nla_data(tb[MRC_A_PLANE_IFNAME]));
			if (!byname) {
				NL_SET_ERR_MSG_ATTR(extack,
						    tb[MRC_A_PLANE_IFNAME],
						    "no netdev with this name");
				return -ENODEV;
			}
			if (ndev && ndev != byname) {
				NL_SET_ERR_MSG_ATTR(extack, nla,
						    "plane ifindex and ifname name different netdevs");
				return -EINVAL;
			}
			ndev = byname;
		}

		reqs[n].ndev = ndev;
		reqs[n].attr = nla;
		n++;
	}

	if (!n) {
		NL_SET_ERR_MSG_ATTR(extack, planes,
				    "at least one plane is required");
		return -EINVAL;
	}
	*nreqs = n;
	return 0;
}

static int mrc_nl_dev_new(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *name_attr = info->attrs[MRC_A_DEV_NAME];
	struct mrc_plane_req reqs[MRC_MAX_PLANES];
	struct net *net = genl_info_net(info);
	unsigned int nreqs;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, MRC_A_DEV_NAME)) {
		NL_SET_ERR_MSG(info->extack, "missing device name");
		return -EINVAL;
	}
	if (GENL_REQ_ATTR_CHECK(info, MRC_A_DEV_PLANES)) {
		NL_SET_ERR_MSG(info->extack, "missing plane list");
		return -EINVAL;
	}

	/* RTNL before mrc_net.lock, the order the netdevice notifier imposes. */
	rtnl_lock();
	err = mrc_nl_parse_planes(net, info->attrs[MRC_A_DEV_PLANES], reqs,
				  &nreqs, info->extack);
	if (!err)
		err = mrc_dev_new(net, nla_data(name_attr), name_attr, reqs,
				  nreqs, info->extack);
	rtnl_unlock();
	return err;
}

static int mrc_nl_dev_del(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct nlattr *name_attr = info->attrs[MRC_A_DEV_NAME];
	struct mrc_device *mdev;
	int err = 0;

	if (GENL_REQ_ATTR_CHECK(info, MRC_A_DEV_NAME)) {
		NL_SET_ERR_MSG(info->extack, "missing device name");
		return -EINVAL;
	}

	/* Dropping netdev references needs no RTNL. */
	mutex_lock(&mn->lock);
	mdev = mrc_dev_find(mn, nla_data(name_attr));
	if (mdev) {
		mrc_dev_del(mn, mdev);
		mn->genid++;
	} else {
		NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
				    "no such mrc device");
		err = -ENODEV;
	}
	mutex_unlock(&mn->lock);
	return err;
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
};

static const struct genl_multicast_group mrc_genl_mcgrps[] = {
	{ .name = MRC_GENL_MCGRP_EVENTS, .flags = GENL_MCAST_CAP_NET_ADMIN },
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
	.module = THIS_MODULE,
	.small_ops = mrc_genl_ops,
	.n_small_ops = ARRAY_SIZE(mrc_genl_ops),
	.mcgrps = mrc_genl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(mrc_genl_mcgrps),
};

int __init mrc_genl_init(void)
{
	return genl_register_family(&mrc_genl_family);
}

void mrc_genl_exit(void)
{
	genl_unregister_family(&mrc_genl_family);
}
