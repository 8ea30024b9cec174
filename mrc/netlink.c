// SPDX-License-Identifier: GPL-2.0
/*
 * The "mrc" generic netlink family: version query, device management, and
 * EV and CC profiles.
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
	[MRC_A_PLANE_ADMIN] = NLA_POLICY_MAX(NLA_U8, MRC_PLANE_ADMIN_UP),
};

static const struct nla_policy mrc_planes_policy[MRC_A_PLANES_MAX + 1] = {
	[MRC_A_PLANE] = NLA_POLICY_NESTED(mrc_plane_policy),
};

static const struct nla_policy mrc_ev_entries_policy[MRC_A_EV_ENTRIES_MAX + 1] = {
	[MRC_A_EV_ENTRY] = { .type = NLA_U64 },
};

static struct netlink_range_validation mrc_prof_id_range = {
	.min = 1,
	.max = MRC_PROFILE_ID_MAX,
};

static struct netlink_range_validation mrc_ev_count_range = {
	.min = 1,
	.max = MRC_MAX_EVS,
};

/* Cross-field rules (min_active <= ev_count, ...) are checked in profile.c. */
static const struct nla_policy mrc_evprof_policy[MRC_A_EVPROF_MAX + 1] = {
	[MRC_A_EVPROF_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &mrc_prof_id_range),
	[MRC_A_EVPROF_STATE] = NLA_POLICY_MAX(NLA_U8,
					      MRC_PROFILE_STATE_ONLINE),
	[MRC_A_EVPROF_MODE] = NLA_POLICY_MAX(NLA_U8, MRC_EV_MODE_GEN),
	[MRC_A_EVPROF_FORMAT] = NLA_POLICY_MAX(NLA_U8, MRC_EV_FORMAT_SRV6),
	[MRC_A_EVPROF_EV_COUNT] = NLA_POLICY_FULL_RANGE(NLA_U32,
							&mrc_ev_count_range),
	[MRC_A_EVPROF_MIN_ACTIVE] = NLA_POLICY_FULL_RANGE(NLA_U32,
							  &mrc_ev_count_range),
	[MRC_A_EVPROF_BACKUPS] = NLA_POLICY_MAX(NLA_U32, MRC_MAX_BACKUPS),
	[MRC_A_EVPROF_EVENT_MASK] = NLA_POLICY_MASK(NLA_U32, MRC_EV_EVENTS_ALL),
	[MRC_A_EVPROF_ENTRIES] = NLA_POLICY_NESTED(mrc_ev_entries_policy),
};

static struct netlink_range_validation mrc_cc_us_range = {
	.min = 1,
	.max = MRC_CCPROF_US_MAX,
};

static struct netlink_range_validation mrc_cc_qa_range = {
	.min = 0,
	.max = MRC_CCPROF_US_MAX,
};

static struct netlink_range_validation mrc_cc_cwnd_range = {
	.min = MRC_CCPROF_CWND_MIN,
	.max = MRC_CCPROF_CWND_MAX,
};

static struct netlink_range_validation mrc_cc_permille_range = {
	.min = 1,
	.max = MRC_CCPROF_PERMILLE_MAX,
};

/* NLA_POLICY_MAX() holds an s16: larger bounds need a range struct. */
static struct netlink_range_validation mrc_cc_eta_range = {
	.min = 0,
	.max = MRC_CCPROF_ETA_MAX,
};

static struct netlink_range_validation mrc_cc_fi_range = {
	.min = 0,
	.max = MRC_CCPROF_FI_MAX,
};

static const struct nla_policy mrc_ccprof_policy[MRC_A_CCPROF_MAX + 1] = {
	[MRC_A_CCPROF_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &mrc_prof_id_range),
	[MRC_A_CCPROF_STATE] = NLA_POLICY_MAX(NLA_U8,
					      MRC_PROFILE_STATE_ONLINE),
	[MRC_A_CCPROF_ALGO] = NLA_POLICY_RANGE(NLA_U8, MRC_CC_ALGO_NSCC,
					       MRC_CC_ALGO_NSCC),
	[MRC_A_CCPROF_BASE_RTT_US] = NLA_POLICY_FULL_RANGE(NLA_U32,
							   &mrc_cc_us_range),
	[MRC_A_CCPROF_TARGET_DELAY_US] = NLA_POLICY_FULL_RANGE(NLA_U32,
							       &mrc_cc_us_range),
	[MRC_A_CCPROF_QA_THRESHOLD_US] = NLA_POLICY_FULL_RANGE(NLA_U32,
							       &mrc_cc_qa_range),
	[MRC_A_CCPROF_MIN_CWND] = NLA_POLICY_FULL_RANGE(NLA_U32,
							&mrc_cc_cwnd_range),
	[MRC_A_CCPROF_MAX_CWND] = NLA_POLICY_FULL_RANGE(NLA_U32,
							&mrc_cc_cwnd_range),
	[MRC_A_CCPROF_GAMMA] = NLA_POLICY_FULL_RANGE(NLA_U32,
						     &mrc_cc_permille_range),
	[MRC_A_CCPROF_MAX_MD_JUMP] = NLA_POLICY_FULL_RANGE(NLA_U32,
							   &mrc_cc_permille_range),
	[MRC_A_CCPROF_ETA] = NLA_POLICY_FULL_RANGE(NLA_U32, &mrc_cc_eta_range),
	[MRC_A_CCPROF_FI] = NLA_POLICY_FULL_RANGE(NLA_U32, &mrc_cc_fi_range),
};

/*
 * QP view, EV deny/undeny and QP attributes (netlink_qp.c).  Only the input
 * attributes have entries; a state outside the enum is out of range, GOOD and DENIED are
 * the only ones EV_SET accepts (checked by the handler).
 */
static struct netlink_range_validation mrc_qpn_range = {
	.min = 0,
	.max = MRC_MAX_QPN,
};

static const struct nla_policy mrc_ev_policy[MRC_A_EV_MAX + 1] = {
	[MRC_A_EV_SLOT] = NLA_POLICY_MAX(NLA_U32, MRC_MAX_EVS - 1),
	[MRC_A_EV_STATE] = NLA_POLICY_MAX(NLA_U8, MRC_EV_STATE_DENIED),
};

static const struct nla_policy mrc_evs_policy[MRC_A_EVS_MAX + 1] = {
	[MRC_A_EV] = NLA_POLICY_NESTED(mrc_ev_policy),
};

/* A device or a QP names a profile by id, or none with 0. */
static struct netlink_range_validation mrc_dev_prof_id_range = {
	.min = 0,
	.max = MRC_PROFILE_ID_MAX,
};

static const struct nla_policy mrc_qp_policy[MRC_A_QP_MAX + 1] = {
	[MRC_A_QP_NUM] = NLA_POLICY_FULL_RANGE(NLA_U32, &mrc_qpn_range),
	[MRC_A_QP_EVS] = NLA_POLICY_NESTED(mrc_evs_policy),
	[MRC_A_QP_EVPROF_ID] = NLA_POLICY_FULL_RANGE(NLA_U32,
						     &mrc_dev_prof_id_range),
	[MRC_A_QP_CCPROF_ID] = NLA_POLICY_FULL_RANGE(NLA_U32,
						     &mrc_dev_prof_id_range),
	[MRC_A_QP_MPR] = NLA_POLICY_RANGE(NLA_U32, 1, MRC_MPR_MAX),
	[MRC_A_QP_MPR_DEST] = NLA_POLICY_RANGE(NLA_U32, 1, MRC_MPR_DEST_MAX),
	[MRC_A_QP_TIMEOUT] = NLA_POLICY_MAX(NLA_U8, 31),
	[MRC_A_QP_RETRY_LINEAR] = NLA_POLICY_MAX(NLA_U8, 7),
	[MRC_A_QP_RETRY_EXP] = NLA_POLICY_MAX(NLA_U8, MRC_RETRY_EXP_INFINITE),
};

static struct netlink_range_validation mrc_probe_timeout_range = {
	.min = 1,
	.max = MRC_PROBE_TIMEOUT_MS_MAX,
};

/*
 * SRv6 paths (netlink_srv6.c).  Each list nest takes one item type; a zero
 * uSID would end a carrier early.  Plane shift and tiers are checked as a
 * whole by mrc_srv6_tmpl_check().
 */
static const struct nla_policy mrc_srv6_usids_policy[MRC_A_SRV6_LIST_MAX + 1] = {
	[MRC_A_SRV6_USID] = NLA_POLICY_MIN(NLA_U16, 1),
};

static const struct nla_policy mrc_srv6_tier_policy[MRC_A_SRV6_TIER_MAX + 1] = {
	[MRC_A_SRV6_TIER_USID] = NLA_POLICY_MAX(NLA_U8, MRC_SRV6_USIDS_MAX - 1),
	[MRC_A_SRV6_TIER_SHIFT] = NLA_POLICY_MAX(NLA_U8, 15),
	[MRC_A_SRV6_TIER_COUNT] = NLA_POLICY_RANGE(NLA_U16, 1, 256),
};

static const struct nla_policy mrc_srv6_tiers_policy[MRC_A_SRV6_LIST_MAX + 1] = {
	[MRC_A_SRV6_TIER] = NLA_POLICY_NESTED(mrc_srv6_tier_policy),
};

static const struct nla_policy mrc_srv6_path_policy[MRC_A_SRV6_PATH_MAX + 1] = {
	[MRC_A_SRV6_PATH_PLANE] = NLA_POLICY_MAX(NLA_U32, MRC_MAX_PLANES - 1),
	[MRC_A_SRV6_PATH_USIDS] = NLA_POLICY_NESTED(mrc_srv6_usids_policy),
};

static const struct nla_policy mrc_srv6_paths_policy[MRC_A_SRV6_LIST_MAX + 1] = {
	[MRC_A_SRV6_PATH] = NLA_POLICY_NESTED(mrc_srv6_path_policy),
};

static const struct nla_policy mrc_srv6_policy[MRC_A_SRV6_MAX + 1] = {
	[MRC_A_SRV6_PEER] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[MRC_A_SRV6_LOCATOR] = NLA_POLICY_MIN(NLA_U32, 1),
	[MRC_A_SRV6_PLANE_SHIFT] = NLA_POLICY_MAX(NLA_U8, 15),
	[MRC_A_SRV6_USIDS] = NLA_POLICY_NESTED(mrc_srv6_usids_policy),
	[MRC_A_SRV6_TIERS] = NLA_POLICY_NESTED(mrc_srv6_tiers_policy),
	[MRC_A_SRV6_PATHS] = NLA_POLICY_NESTED(mrc_srv6_paths_policy),
};

/* Attributes that are only ever sent by the kernel have no entry: rejected. */
static const struct nla_policy mrc_policy[MRC_A_MAX + 1] = {
	[MRC_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[MRC_A_DEV_PLANES] = NLA_POLICY_NESTED(mrc_planes_policy),
	[MRC_A_EVPROF] = NLA_POLICY_NESTED(mrc_evprof_policy),
	[MRC_A_CCPROF] = NLA_POLICY_NESTED(mrc_ccprof_policy),
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

	hdr = genlmsg_put(skb, portid, seq, &mrc_genl_family, flags,
			  MRC_CMD_DEV_GET);
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
	struct mrc_device *mdev;
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
				  nreqs, info->attrs, &mdev, info->extack);
	rtnl_unlock();
	if (err)
		return err;
	return mrc_dev_register(mdev, info->extack);
}

static int mrc_nl_dev_del(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct nlattr *name_attr = info->attrs[MRC_A_DEV_NAME];

	if (GENL_REQ_ATTR_CHECK(info, MRC_A_DEV_NAME)) {
		NL_SET_ERR_MSG(info->extack, "missing device name");
		return -EINVAL;
	}
	/* Dropping netdev references needs no RTNL. */
	return mrc_dev_del(mn, nla_data(name_attr), name_attr, info->extack);
}

/*
 * Names other profiles: the device's QPs follow them from their next reset
 * (CC) or their next path set (EV), as when a named profile changes.
 */
static int mrc_nl_dev_set(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct nlattr *name_attr = info->attrs[MRC_A_DEV_NAME];
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
		err = mrc_dev_prof_resolve(mn, info->attrs, &mdev->prof, &prof,
					   info->extack);
		if (!err)
			mrc_dev_prof_set(mdev, &prof);
	}
	mutex_unlock(&mn->lock);
	return err;
}

/* ---- EV probes --------------------------------------------------------- */

/* What MRC_CMD_PROBE asks for, from its attributes. */
struct mrc_nl_probe_req {
	const struct nlattr *name_attr;
	u32 qpn;
	u32 slot;
	u32 timeout_ms;
};

static int mrc_nl_probe_parse(struct genl_info *info,
			      struct mrc_nl_probe_req *req)
{
	struct nlattr *qtb[MRC_A_QP_MAX + 1], *etb[MRC_A_EV_MAX + 1];
	struct netlink_ext_ack *extack = info->extack;
	const struct nlattr *ev = NULL, *nla;
	int rem, err;

	err = mrc_nl_qp_req_parse(info, qtb);
	if (err)
		return err;
	req->name_attr = info->attrs[MRC_A_DEV_NAME];
	req->qpn = nla_get_u32(qtb[MRC_A_QP_NUM]);
	if (qtb[MRC_A_QP_EVS]) {
		nla_for_each_nested(nla, qtb[MRC_A_QP_EVS], rem) {
			if (ev) {
				NL_SET_ERR_MSG_ATTR(extack, nla,
						    "one probe names one EV");
				return -EINVAL;
			}
			ev = nla;
		}
	}
	if (!ev) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[MRC_A_QP],
				    "missing EV to probe");
		return -EINVAL;
	}
	err = nla_parse_nested(etb, MRC_A_EV_MAX, ev, mrc_ev_policy, extack);
	if (err)
		return err;
	if (!etb[MRC_A_EV_SLOT]) {
		NL_SET_ERR_MSG_ATTR(extack, ev, "missing EV slot");
		return -EINVAL;
	}
	req->slot = nla_get_u32(etb[MRC_A_EV_SLOT]);
	req->timeout_ms = MRC_PROBE_TIMEOUT_MS_DEFAULT;
	if (info->attrs[MRC_A_PROBE_TIMEOUT_MS])
		req->timeout_ms = nla_get_u32(info->attrs[MRC_A_PROBE_TIMEOUT_MS]);
	return 0;
}

/*
 * Sends the probe, or forgets the waiter when @start is false.  QPs are only
 * safe under RCU, and a device only under mrc_net.lock: neither can be held
 * while the caller sleeps, so each step finds the QP again by name and
 * number.  A QP destroyed meanwhile has completed the waiter itself
 * (mrc_destroy_qp()); another QP found under the same number simply does not
 * hold @w, and mrc_ev_probe_forget() leaves it alone.
 */
static int mrc_nl_probe_qp(struct mrc_net *mn, const struct mrc_nl_probe_req *req,
			   struct mrc_ev_probe_wait *w, bool start,
			   struct netlink_ext_ack *extack)
{
	struct mrc_device *mdev;
	struct sk_buff_head out;
	struct mrc_qp *qp;
	int err = 0;

	__skb_queue_head_init(&out);
	mutex_lock(&mn->lock);
	mdev = mrc_dev_find(mn, nla_data(req->name_attr));
	if (!mdev || !mdev->registered) {
		mutex_unlock(&mn->lock);
		NL_SET_ERR_MSG_ATTR(extack, req->name_attr,
				    "no such mrc device");
		return -ENODEV;
	}
	rcu_read_lock();
	qp = mrc_qp_lookup(mdev, req->qpn);
	if (!qp) {
		err = -ENOENT;
		NL_SET_ERR_MSG(extack, "no such QP");
	} else if (!start) {
		spin_lock_bh(&qp->lock);
		mrc_ev_probe_forget(qp, w, 0);
		spin_unlock_bh(&qp->lock);
	} else {
		mrc_qp_lock_tx(qp);
		if (qp->evs && qp->evs->n && req->slot >= qp->evs->n)
			err = -ERANGE;
		else
			err = mrc_ev_probe_start(qp, req->slot, w, &out);
		mrc_qp_unlock_xmit(qp, &out);
		if (err == -ERANGE)
			NL_SET_ERR_MSG(extack, "EV slot beyond the QP's active set");
		else if (err == -EINVAL)
			NL_SET_ERR_MSG(extack, "QP is not connected (RTS)");
		else if (err == -EBUSY)
			NL_SET_ERR_MSG(extack, "another probe of this QP is in flight");
	}
	rcu_read_unlock();
	mutex_unlock(&mn->lock);
	return err;
}

static int mrc_nl_probe_reply(struct genl_info *info,
			      const struct mrc_nl_probe_req *req,
			      const struct mrc_ev_probe_wait *w)
{
	struct nlattr *qp, *evs, *ev;
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &mrc_genl_family, 0, MRC_CMD_PROBE);
	if (!hdr)
		goto nomem;
	if (nla_put_string(msg, MRC_A_DEV_NAME, nla_data(req->name_attr)) ||
	    nla_put_u64_64bit(msg, MRC_A_PROBE_RTT_NS, w->rtt_ns, MRC_A_PAD))
		goto nomem;
	qp = nla_nest_start(msg, MRC_A_QP);
	if (!qp || nla_put_u32(msg, MRC_A_QP_NUM, req->qpn))
		goto nomem;
	evs = nla_nest_start(msg, MRC_A_QP_EVS);
	if (!evs)
		goto nomem;
	ev = nla_nest_start(msg, MRC_A_EV);
	if (!ev || nla_put_u32(msg, MRC_A_EV_SLOT, req->slot) ||
	    nla_put_u32(msg, MRC_A_EV_VALUE, w->value) ||
	    nla_put_u32(msg, MRC_A_EV_PLANE, mrc_ev_plane(w->value)) ||
	    nla_put_u32(msg, MRC_A_EV_ENTROPY, mrc_ev_sport(w->value)) ||
	    (w->stev && nla_put_u32(msg, MRC_A_EV_FLOW_LABEL,
				    mrc_ev_flow_label(w->value))))
		goto nomem;
	nla_nest_end(msg, ev);
	nla_nest_end(msg, evs);
	nla_nest_end(msg, qp);
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

nomem:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/*
 * One probe on one EV of a connected QP, answered by the peer's SACK: the
 * controller learns whether that path works and its round trip now, without
 * data and whatever the EV's state.  Sleeps until the answer or the timeout.
 */
static int mrc_nl_probe(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct mrc_ev_probe_wait w = {};
	struct mrc_nl_probe_req req;
	unsigned long timeout;
	long left;
	int err;

	err = mrc_nl_probe_parse(info, &req);
	if (err)
		return err;
	init_completion(&w.done);
	err = mrc_nl_probe_qp(mn, &req, &w, true, info->extack);
	if (err)
		return err;

	timeout = msecs_to_jiffies(req.timeout_ms);
	left = wait_for_completion_interruptible_timeout(&w.done, timeout);
	if (left <= 0) {
		/* Not answered in time: make the QP forget @w first. */
		mrc_nl_probe_qp(mn, &req, &w, false, NULL);
		if (!try_wait_for_completion(&w.done)) {
			if (left < 0)
				return -EINTR;
			NL_SET_ERR_MSG(info->extack, "no answer within the timeout");
			return -ETIMEDOUT;
		}
	}
	if (w.err) {
		NL_SET_ERR_MSG(info->extack, "QP destroyed before the answer");
		return w.err;
	}
	return mrc_nl_probe_reply(info, &req, &w);
}

/* ---- EV and CC profiles ------------------------------------------------ */

static size_t mrc_nl_evprof_size(const void *p)
{
	const struct mrc_evprof *prof = p;

	return nla_total_size(0) +			/* MRC_A_EVPROF */
	       5 * nla_total_size(sizeof(u32)) +	/* id .. event_mask */
	       3 * nla_total_size(sizeof(u8)) +	/* state, mode, format */
	       nla_total_size(sizeof(u32)) +		/* backups */
	       nla_total_size(0) +			/* MRC_A_EVPROF_ENTRIES */
	       prof->cfg.n_entries * nla_total_size_64bit(sizeof(u64));
}

/* Caller holds mrc_net.lock. */
static int mrc_nl_put_evprof(struct sk_buff *skb, const void *p, u32 portid,
			     u32 seq, int flags, struct netlink_callback *cb)
{
	const struct mrc_evprof *prof = p;
	const struct mrc_evprof_cfg *cfg = &prof->cfg;
	struct nlattr *nest, *entries;
	void *hdr;
	u32 i;

	hdr = genlmsg_put(skb, portid, seq, &mrc_genl_family, flags,
			  MRC_CMD_EVPROF_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);

	nest = nla_nest_start(skb, MRC_A_EVPROF);
	if (!nest)
		goto cancel;
	if (nla_put_u32(skb, MRC_A_EVPROF_ID, prof->id) ||
	    nla_put_u8(skb, MRC_A_EVPROF_STATE, cfg->state) ||
	    nla_put_u8(skb, MRC_A_EVPROF_MODE, cfg->mode) ||
	    nla_put_u8(skb, MRC_A_EVPROF_FORMAT, cfg->format) ||
	    nla_put_u32(skb, MRC_A_EVPROF_EV_COUNT, cfg->ev_count) ||
	    nla_put_u32(skb, MRC_A_EVPROF_MIN_ACTIVE, cfg->min_active) ||
	    nla_put_u32(skb, MRC_A_EVPROF_BACKUPS, cfg->backups) ||
	    nla_put_u32(skb, MRC_A_EVPROF_EVENT_MASK, cfg->event_mask))
		goto cancel;
	entries = nla_nest_start(skb, MRC_A_EVPROF_ENTRIES);
	if (!entries)
		goto cancel;
	for (i = 0; i < cfg->n_entries; i++)
		if (nla_put_u64_64bit(skb, MRC_A_EV_ENTRY, cfg->entries[i],
				      MRC_A_EV_ENTRIES_PAD))
			goto cancel;
	nla_nest_end(skb, entries);
	nla_nest_end(skb, nest);

	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static size_t mrc_nl_ccprof_size(const void *p)
{
	return nla_total_size(0) +			/* MRC_A_CCPROF */
	       2 * nla_total_size(sizeof(u8)) +	/* state, algo */
	       10 * nla_total_size(sizeof(u32));	/* id, parameters */
}

/* Caller holds mrc_net.lock. */
static int mrc_nl_put_ccprof(struct sk_buff *skb, const void *p, u32 portid,
			     u32 seq, int flags, struct netlink_callback *cb)
{
	const struct mrc_ccprof *prof = p;
	const struct mrc_ccprof_cfg *cfg = &prof->cfg;
	struct nlattr *nest;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &mrc_genl_family, flags,
			  MRC_CMD_CCPROF_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);

	nest = nla_nest_start(skb, MRC_A_CCPROF);
	if (!nest)
		goto cancel;
	if (nla_put_u32(skb, MRC_A_CCPROF_ID, prof->id) ||
	    nla_put_u8(skb, MRC_A_CCPROF_STATE, cfg->state) ||
	    nla_put_u8(skb, MRC_A_CCPROF_ALGO, cfg->algo) ||
	    nla_put_u32(skb, MRC_A_CCPROF_BASE_RTT_US, cfg->base_rtt_us) ||
	    nla_put_u32(skb, MRC_A_CCPROF_TARGET_DELAY_US,
			cfg->target_delay_us) ||
	    nla_put_u32(skb, MRC_A_CCPROF_QA_THRESHOLD_US,
			cfg->qa_threshold_us) ||
	    nla_put_u32(skb, MRC_A_CCPROF_MIN_CWND, cfg->min_cwnd) ||
	    nla_put_u32(skb, MRC_A_CCPROF_MAX_CWND, cfg->max_cwnd) ||
	    nla_put_u32(skb, MRC_A_CCPROF_GAMMA, cfg->gamma) ||
	    nla_put_u32(skb, MRC_A_CCPROF_MAX_MD_JUMP, cfg->max_md_jump) ||
	    nla_put_u32(skb, MRC_A_CCPROF_ETA, cfg->eta) ||
	    nla_put_u32(skb, MRC_A_CCPROF_FI, cfg->fi))
		goto cancel;
	nla_nest_end(skb, nest);

	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * EV and CC profiles are requested alike: one nest holding the id and the
 * settings, one xarray by id, the same commands.  What differs is here
 * (and which xarray: mrc_nl_prof_store()).
 */
struct mrc_nl_prof_kind {
	int nest;
	int id;
	unsigned int max;
	const struct nla_policy *policy;
	u8 cmd_new;
	int (*apply)(struct mrc_net *mn, struct nlattr **tb, bool create,
		     struct netlink_ext_ack *extack);
	int (*del)(struct mrc_net *mn, u32 id, struct netlink_ext_ack *extack);
	size_t (*size)(const void *prof);
	int (*put)(struct sk_buff *skb, const void *prof, u32 portid, u32 seq,
		   int flags, struct netlink_callback *cb);
};

/* Attribute table of either kind; the CC profile has the most attributes. */
#define MRC_NL_PROF_TB	(MRC_A_CCPROF_MAX + 1)

static const struct mrc_nl_prof_kind mrc_nl_evprof_kind = {
	.nest = MRC_A_EVPROF,
	.id = MRC_A_EVPROF_ID,
	.max = MRC_A_EVPROF_MAX,
	.policy = mrc_evprof_policy,
	.cmd_new = MRC_CMD_EVPROF_NEW,
	.apply = mrc_evprof_apply,
	.del = mrc_evprof_del,
	.size = mrc_nl_evprof_size,
	.put = mrc_nl_put_evprof,
};

static const struct mrc_nl_prof_kind mrc_nl_ccprof_kind = {
	.nest = MRC_A_CCPROF,
	.id = MRC_A_CCPROF_ID,
	.max = MRC_A_CCPROF_MAX,
	.policy = mrc_ccprof_policy,
	.cmd_new = MRC_CMD_CCPROF_NEW,
	.apply = mrc_ccprof_apply,
	.del = mrc_ccprof_del,
	.size = mrc_nl_ccprof_size,
	.put = mrc_nl_put_ccprof,
};

static const struct mrc_nl_prof_kind *mrc_nl_prof_kind(u8 cmd)
{
	switch (cmd) {
	case MRC_CMD_EVPROF_NEW:
	case MRC_CMD_EVPROF_SET:
	case MRC_CMD_EVPROF_GET:
	case MRC_CMD_EVPROF_DEL:
		return &mrc_nl_evprof_kind;
	default:
		return &mrc_nl_ccprof_kind;
	}
}

static struct xarray *mrc_nl_prof_store(struct mrc_net *mn,
					const struct mrc_nl_prof_kind *kind)
{
	return kind == &mrc_nl_evprof_kind ? &mn->evprofs : &mn->ccprofs;
}

/* Fills @tb (MRC_NL_PROF_TB entries) from the request's nest; needs the id. */
static int mrc_nl_prof_parse(struct genl_info *info,
			     const struct mrc_nl_prof_kind *kind,
			     struct nlattr **tb)
{
	int err;

	BUILD_BUG_ON(MRC_A_EVPROF_MAX >= MRC_NL_PROF_TB);
	if (GENL_REQ_ATTR_CHECK(info, kind->nest)) {
		/* NL_SET_ERR_MSG() takes a literal: one per kind. */
		if (kind == &mrc_nl_evprof_kind)
			NL_SET_ERR_MSG(info->extack,
				       "missing evprofile attributes");
		else
			NL_SET_ERR_MSG(info->extack,
				       "missing ccprofile attributes");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, kind->max, info->attrs[kind->nest],
			       kind->policy, info->extack);
	if (err)
		return err;
	if (!tb[kind->id]) {
		if (kind == &mrc_nl_evprof_kind)
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[kind->nest],
					    "missing evprofile id");
		else
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[kind->nest],
					    "missing ccprofile id");
		return -EINVAL;
	}
	return 0;
}

/* EVPROF_NEW/SET, CCPROF_NEW/SET */
static int mrc_nl_prof_apply(struct sk_buff *skb, struct genl_info *info)
{
	const struct mrc_nl_prof_kind *kind =
		mrc_nl_prof_kind(info->genlhdr->cmd);
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct nlattr *tb[MRC_NL_PROF_TB];
	int err;

	err = mrc_nl_prof_parse(info, kind, tb);
	if (err)
		return err;

	mutex_lock(&mn->lock);
	err = kind->apply(mn, tb, info->genlhdr->cmd == kind->cmd_new,
			  info->extack);
	mutex_unlock(&mn->lock);
	return err;
}

static int mrc_nl_prof_del(struct sk_buff *skb, struct genl_info *info)
{
	const struct mrc_nl_prof_kind *kind =
		mrc_nl_prof_kind(info->genlhdr->cmd);
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct nlattr *tb[MRC_NL_PROF_TB];
	int err;

	err = mrc_nl_prof_parse(info, kind, tb);
	if (err)
		return err;

	mutex_lock(&mn->lock);
	err = kind->del(mn, nla_get_u32(tb[kind->id]), info->extack);
	mutex_unlock(&mn->lock);
	if (err)
		NL_SET_BAD_ATTR(info->extack, tb[kind->id]);
	return err;
}

static int mrc_nl_prof_get(struct sk_buff *skb, struct genl_info *info)
{
	const struct mrc_nl_prof_kind *kind =
		mrc_nl_prof_kind(info->genlhdr->cmd);
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct nlattr *tb[MRC_NL_PROF_TB];
	struct sk_buff *msg;
	void *prof;
	int err;

	err = mrc_nl_prof_parse(info, kind, tb);
	if (err)
		return err;

	mutex_lock(&mn->lock);
	prof = xa_load(mrc_nl_prof_store(mn, kind), nla_get_u32(tb[kind->id]));
	if (!prof) {
		if (kind == &mrc_nl_evprof_kind)
			NL_SET_ERR_MSG_ATTR(info->extack, tb[kind->id],
					    "no such evprofile");
		else
			NL_SET_ERR_MSG_ATTR(info->extack, tb[kind->id],
					    "no such ccprofile");
		mutex_unlock(&mn->lock);
		return -ENOENT;
	}
	/* An EV profile's size depends on its entries: sized under the lock. */
	msg = genlmsg_new(kind->size(prof), GFP_KERNEL);
	if (!msg) {
		mutex_unlock(&mn->lock);
		return -ENOMEM;
	}
	err = kind->put(msg, prof, info->snd_portid, info->snd_seq, 0, NULL);
	mutex_unlock(&mn->lock);

	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/*
 * cb->args[0] holds the id of the next profile to send; the xarray walks ids
 * in increasing order, so profiles deleted between parts never make a dump
 * skip or repeat one that stays.
 */
static int mrc_nl_prof_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genlmsghdr *gh = nlmsg_data(cb->nlh);
	const struct mrc_nl_prof_kind *kind = mrc_nl_prof_kind(gh->cmd);
	struct mrc_net *mn = mrc_net(sock_net(skb->sk));
	unsigned long id;
	void *prof;
	int err = 0;

	mutex_lock(&mn->lock);
	cb->seq = mn->prof_genid;
	xa_for_each_start(mrc_nl_prof_store(mn, kind), id, prof, cb->args[0]) {
		err = kind->put(skb, prof, NETLINK_CB(cb->skb).portid,
				cb->nlh->nlmsg_seq, NLM_F_MULTI, cb);
		if (err)
			break;
		cb->args[0] = id + 1;
	}
	mutex_unlock(&mn->lock);

	/* A full EV profile (256 entries) fits an empty part of NLMSG_GOODSIZE. */
	if (err && !skb->len)
		return err;
	return skb->len;
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
static int mrc_nl_plane_set(struct sk_buff *skb, struct genl_info *info)
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
		.cmd = MRC_CMD_QP_SET,
		.doit = mrc_nl_qp_set,
		.flags = GENL_ADMIN_PERM,
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

/**
 * mrc_nl_dump_devices() - the device walk of a dump over per-device objects
 * @skb: the dump's message
 * @cb: cb->args[0] is the device index to go on at; [1] and [2] are the
 *	position inside it, zeroed whenever the walk moves to another device
 * @genid: the generation of what the dump walks, under mrc_net.lock, for
 *	NLM_F_DUMP_INTR
 * @dump_dev: puts one device's objects from cb->args[1] and [2] on; 0 when
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
	struct nlattr *name_attr = genl_dumpit_info(cb)->attrs[MRC_A_DEV_NAME];
	struct mrc_net *mn = mrc_net(sock_net(skb->sk));
	struct mrc_device *mdev;
	int err = 0;

	mutex_lock(&mn->lock);
	cb->seq = genid(mn);
	list_for_each_entry(mdev, &mn->devices, list) {
		if (mdev->index < cb->args[0])
			continue;
		if (name_attr && strcmp(mdev->name, nla_data(name_attr)))
			continue;
		if (mdev->index != cb->args[0]) {
			cb->args[0] = mdev->index;
			cb->args[1] = 0;
			cb->args[2] = 0;
		}
		err = dump_dev(skb, cb, mdev, arg);
		if (err)
			break;
		cb->args[0] = (long)mdev->index + 1;
		cb->args[1] = 0;
		cb->args[2] = 0;
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
