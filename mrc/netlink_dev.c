// SPDX-License-Identifier: GPL-2.0
/*
 * Devices and their planes over netlink (MRC_CMD_DEV_*, MRC_CMD_PLANE_SET):
 * the policies of the plane nests, the parsing of a request into the plain
 * requests of device.c and profile.c, and the messages that show a device.
 * Documentation/netlink.md documents the messages and lists every error.
 */

#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "mrc.h"

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
	[MRC_A_PLANE_ADMIN] = NLA_POLICY_MAX(NLA_U8, MRC_PLANE_ADMIN_UP),
};

const struct nla_policy mrc_planes_policy[MRC_A_PLANES_MAX + 1] = {
	[MRC_A_PLANE] = NLA_POLICY_NESTED(mrc_plane_policy),
};

int mrc_nl_put_plane(struct sk_buff *skb, const struct mrc_plane *plane)
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
		       plane->up ? MRC_PLANE_STATE_UP : MRC_PLANE_STATE_DOWN) ||
	    nla_put_u8(skb, MRC_A_PLANE_ADMIN,
		       plane->admin_up ? MRC_PLANE_ADMIN_UP :
					 MRC_PLANE_ADMIN_DOWN)) {
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

	hdr = mrc_nl_hdr_put(skb, portid, seq, flags, MRC_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);

	if (nla_put_string(skb, MRC_A_DEV_NAME, mdev->name) ||
	    nla_put_u32(skb, MRC_A_DEV_INDEX, mdev->index) ||
	    nla_put_u32(skb, MRC_A_DEV_EVPROF_ID, mdev->prof.evprof_id) ||
	    nla_put_u32(skb, MRC_A_DEV_CCPROF_ID, mdev->prof.ccprof_id))
		goto cancel;

	planes = nla_nest_start(skb, MRC_A_DEV_PLANES);
	if (!planes)
		goto cancel;
	for (i = 0; i < MRC_MAX_PLANES; i++) {
		struct mrc_plane *plane = mrc_plane_get(mdev, i);

		if (plane && mrc_nl_put_plane(skb, plane))
			goto cancel;
	}
	nla_nest_end(skb, planes);

	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

int mrc_nl_dev_get(struct sk_buff *skb, struct genl_info *info)
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

/**
 * struct mrc_nl_dev_dump_ctx - where a device dump goes on, in cb->ctx
 * @next_index: the index of the next device to send
 */
struct mrc_nl_dev_dump_ctx {
	unsigned long next_index;
};

/*
 * Indexes only grow along the list, so deletions between two parts of a
 * dump never make it skip or repeat a device that stays.
 */
int mrc_nl_dev_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct mrc_nl_dev_dump_ctx *ctx = (void *)cb->ctx;
	struct mrc_net *mn = mrc_net(sock_net(skb->sk));
	struct mrc_device *mdev;
	int err = 0;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	mutex_lock(&mn->lock);
	cb->seq = mn->genid;
	list_for_each_entry(mdev, &mn->devices, list) {
		if (mdev->index < ctx->next_index)
			continue;
		err = mrc_nl_put_dev(skb, mdev, NETLINK_CB(cb->skb).portid,
				     cb->nlh->nlmsg_seq, NLM_F_MULTI, cb);
		if (err)
			break;
		ctx->next_index = (unsigned long)mdev->index + 1;
	}
	mutex_unlock(&mn->lock);

	/* Sixteen planes always fit; an empty part would end the dump. */
	if (err && !skb->len)
		return err;
	return skb->len;
}

/*
 * Fills @reqs from MRC_A_DEV_PLANES, and @attrs with the nest of each, to
 * point the extended ack at; under RTNL for the netdev lookups.
 */
static int mrc_nl_parse_planes(struct net *net, const struct nlattr *planes,
			       struct mrc_plane_req *reqs,
			       const struct nlattr **attrs, unsigned int *nreqs,
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
		if (tb[MRC_A_PLANE_ADMIN]) {
			NL_SET_ERR_MSG_ATTR(extack, tb[MRC_A_PLANE_ADMIN],
					    "a new plane starts admin up; change it with PLANE_SET");
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
		attrs[n] = nla;
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

/* The profiles a DEV_NEW or DEV_SET request names, for profile.c. */
static void mrc_nl_dev_prof_req(struct genl_info *info,
				struct mrc_dev_prof_req *req)
{
	struct nlattr *ev = info->attrs[MRC_A_DEV_EVPROF_ID];
	struct nlattr *cc = info->attrs[MRC_A_DEV_CCPROF_ID];

	memset(req, 0, sizeof(*req));
	req->ev = ev;
	req->evprof_id = ev ? nla_get_u32(ev) : 0;
	req->cc = cc;
	req->ccprof_id = cc ? nla_get_u32(cc) : 0;
}

int mrc_nl_dev_new(struct sk_buff *skb, struct genl_info *info)
{
	const struct nlattr *plane_attrs[MRC_MAX_PLANES];
	struct nlattr *name_attr = info->attrs[MRC_A_DEV_NAME];
	struct mrc_plane_req reqs[MRC_MAX_PLANES];
	struct net *net = genl_info_net(info);
	struct mrc_dev_req req = {};
	struct mrc_device *mdev;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, MRC_A_DEV_NAME)) {
		NL_SET_ERR_MSG(info->extack, "missing device name");
		return -EINVAL;
	}
	if (GENL_REQ_ATTR_CHECK(info, MRC_A_DEV_PLANES)) {
		NL_SET_ERR_MSG(info->extack, "missing plane list");
		return -EINVAL;
	}
	req.name = nla_data(name_attr);
	req.planes = reqs;
	mrc_nl_dev_prof_req(info, &req.prof);

	/* RTNL before mrc_net.lock, the order the netdevice notifier imposes. */
	rtnl_lock();
	err = mrc_nl_parse_planes(net, info->attrs[MRC_A_DEV_PLANES], reqs,
				  plane_attrs, &req.nplanes, info->extack);
	if (!err) {
		err = mrc_dev_new(net, &req, &mdev, info->extack);
		if (req.bad == MRC_A_DEV_PLANES)
			NL_SET_BAD_ATTR(info->extack,
					plane_attrs[req.bad_plane]);
		else if (req.bad)
			NL_SET_BAD_ATTR(info->extack, info->attrs[req.bad]);
	}
	rtnl_unlock();
	if (err)
		return err;
	return mrc_dev_register(mdev, info->extack);
}

int mrc_nl_dev_del(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct nlattr *name_attr = info->attrs[MRC_A_DEV_NAME];
	int err;

	if (GENL_REQ_ATTR_CHECK(info, MRC_A_DEV_NAME)) {
		NL_SET_ERR_MSG(info->extack, "missing device name");
		return -EINVAL;
	}
	/* Dropping netdev references needs no RTNL; only the name can fail. */
	err = mrc_dev_del(mn, nla_data(name_attr), info->extack);
	if (err)
		NL_SET_BAD_ATTR(info->extack, name_attr);
	return err;
}

/*
 * Names other profiles: the device's QPs follow them from their next reset
 * (CC) or their next path set (EV), as when a named profile changes.
 */
int mrc_nl_dev_set(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct nlattr *name_attr = info->attrs[MRC_A_DEV_NAME];
	struct mrc_dev_prof_req req;
	struct mrc_device *mdev;
	struct mrc_dev_prof prof;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, MRC_A_DEV_NAME)) {
		NL_SET_ERR_MSG(info->extack, "missing device name");
		return -EINVAL;
	}
	if (!info->attrs[MRC_A_DEV_EVPROF_ID] &&
	    !info->attrs[MRC_A_DEV_CCPROF_ID]) {
		NL_SET_ERR_MSG(info->extack, "nothing to change");
		return -EINVAL;
	}

	mutex_lock(&mn->lock);
	mdev = mrc_dev_find(mn, nla_data(name_attr));
	if (!mdev || !mdev->registered) {
		NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
				    "no such mrc device");
		err = -ENODEV;
	} else {
		mrc_nl_dev_prof_req(info, &req);
		err = mrc_dev_prof_resolve(mn, &req, &mdev->prof, &prof,
					   info->extack);
		if (!err)
			mrc_dev_prof_set(mdev, &prof);
		else
			NL_SET_BAD_ATTR(info->extack, info->attrs[req.bad]);
	}
	mutex_unlock(&mn->lock);
	return err;
}

/* ---- plane admin state ------------------------------------------------ */

/* One plane of a PLANE_SET request, checked before any is applied. */
struct mrc_nl_plane_admin {
	struct mrc_plane *plane;
	bool up;
};

/*
 * Fills @set from MRC_A_DEV_PLANES; under RTNL and mrc_net.lock, so the
 * planes found stay until they are applied.  A plane listed twice takes the
 * last admin state given.
 */
static int mrc_nl_parse_plane_admin(struct mrc_device *mdev,
				    const struct nlattr *planes,
				    struct mrc_nl_plane_admin *set,
				    unsigned int *nset,
				    struct netlink_ext_ack *extack)
{
	struct nlattr *tb[MRC_A_PLANE_MAX + 1];
	const struct nlattr *nla;
	struct mrc_plane *plane;
	unsigned int n = 0;
	int rem, err;

	nla_for_each_nested(nla, planes, rem) {
		if (n == MRC_MAX_PLANES) {
			NL_SET_ERR_MSG_ATTR(extack, nla, "too many planes");
			return -E2BIG;
		}
		err = nla_parse_nested(tb, MRC_A_PLANE_MAX, nla,
				       mrc_plane_policy, extack);
		if (err)
			return err;
		if (tb[MRC_A_PLANE_IFINDEX] || tb[MRC_A_PLANE_IFNAME] ||
		    tb[MRC_A_PLANE_STATE]) {
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "only the plane admin state can be set");
			return -EINVAL;
		}
		if (!tb[MRC_A_PLANE_INDEX]) {
			NL_SET_ERR_MSG_ATTR(extack, nla, "missing plane index");
			return -EINVAL;
		}
		if (!tb[MRC_A_PLANE_ADMIN]) {
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "missing plane admin state");
			return -EINVAL;
		}
		plane = mrc_plane_get(mdev, nla_get_u32(tb[MRC_A_PLANE_INDEX]));
		if (!plane) {
			NL_SET_ERR_MSG_ATTR(extack, tb[MRC_A_PLANE_INDEX],
					    "no such plane");
			return -ENOENT;
		}
		set[n].plane = plane;
		set[n].up = nla_get_u8(tb[MRC_A_PLANE_ADMIN]) ==
			    MRC_PLANE_ADMIN_UP;
		n++;
	}
	if (!n) {
		NL_SET_ERR_MSG_ATTR(extack, planes,
				    "at least one plane is required");
		return -EINVAL;
	}
	*nset = n;
	return 0;
}

/*
 * All planes of the request or none: every one is checked first.  Setting
 * the admin state a plane already has changes nothing and succeeds.
 */
int mrc_nl_plane_set(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct nlattr *name_attr = info->attrs[MRC_A_DEV_NAME];
	struct mrc_nl_plane_admin set[MRC_MAX_PLANES];
	struct mrc_device *mdev;
	unsigned int i, n;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, MRC_A_DEV_NAME)) {
		NL_SET_ERR_MSG(info->extack, "missing device name");
		return -EINVAL;
	}
	if (GENL_REQ_ATTR_CHECK(info, MRC_A_DEV_PLANES)) {
		NL_SET_ERR_MSG(info->extack, "missing plane list");
		return -EINVAL;
	}

	/* The plane's state follows its netdev's, read under RTNL. */
	rtnl_lock();
	mutex_lock(&mn->lock);
	mdev = mrc_dev_find(mn, nla_data(name_attr));
	if (!mdev || !mdev->registered) {
		NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
				    "no such mrc device");
		err = -ENODEV;
		goto unlock;
	}
	err = mrc_nl_parse_plane_admin(mdev, info->attrs[MRC_A_DEV_PLANES],
				       set, &n, info->extack);
	if (err)
		goto unlock;
	for (i = 0; i < n; i++)
		mrc_plane_set_admin(set[i].plane, set[i].up);
unlock:
	mutex_unlock(&mn->lock);
	rtnl_unlock();
	return err;
}

