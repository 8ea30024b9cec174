// SPDX-License-Identifier: GPL-2.0
/*
 * The controller's SRv6 path programming (MRC_CMD_SRV6_SET, _DEL, _GET):
 * per device and destination, a GEN template or an explicit list of uSID
 * paths.  Documentation/netlink.md documents the messages and lists every
 * error.  The policies below check every range; the handlers check what
 * ranges cannot say: presence, list lengths, and the template as a whole
 * (mrc_srv6_tmpl_check()).
 */

#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "mrc.h"

/*
 * Each list nest takes one item type; a zero
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

const struct nla_policy mrc_srv6_policy[MRC_A_SRV6_MAX + 1] = {
	[MRC_A_SRV6_PEER] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[MRC_A_SRV6_LOCATOR] = NLA_POLICY_MIN(NLA_U32, 1),
	[MRC_A_SRV6_PLANE_SHIFT] = NLA_POLICY_MAX(NLA_U8, 15),
	[MRC_A_SRV6_USIDS] = NLA_POLICY_NESTED(mrc_srv6_usids_policy),
	[MRC_A_SRV6_TIERS] = NLA_POLICY_NESTED(mrc_srv6_tiers_policy),
	[MRC_A_SRV6_PATHS] = NLA_POLICY_NESTED(mrc_srv6_paths_policy),
};

/* A reason computed at run time, where NL_SET_ERR_MSG wants a literal. */
static void mrc_nl_srv6_why(struct netlink_ext_ack *extack,
			    const struct nlattr *attr, const char *why)
{
	if (!extack)
		return;
	extack->_msg = why;
	extack->bad_attr = attr;
}

/* The uSIDs of a MRC_A_SRV6_USIDS list; the policy refused zero ones. */
static int mrc_nl_srv6_usids(const struct nlattr *list, u16 *usids,
			     struct netlink_ext_ack *extack)
{
	const struct nlattr *nla;
	int rem, n = 0;

	nla_for_each_nested(nla, list, rem) {
		if (n == MRC_SRV6_USIDS_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, nla, "too many uSIDs");
			return -EINVAL;
		}
		usids[n++] = nla_get_u16(nla);
	}
	if (!n) {
		NL_SET_ERR_MSG_ATTR(extack, list, "a path needs a uSID");
		return -EINVAL;
	}
	return n;
}

static int mrc_nl_srv6_gen(struct nlattr **tb, struct mrc_srv6_tmpl *t,
			   struct netlink_ext_ack *extack)
{
	struct nlattr *ttb[MRC_A_SRV6_TIER_MAX + 1];
	const struct nlattr *nla;
	const char *why = NULL;
	int n, rem, err;

	n = mrc_nl_srv6_usids(tb[MRC_A_SRV6_USIDS], t->usid, extack);
	if (n < 0)
		return n;
	t->nusids = n;
	t->plane_shift = tb[MRC_A_SRV6_PLANE_SHIFT] ?
			 nla_get_u8(tb[MRC_A_SRV6_PLANE_SHIFT]) :
			 MRC_SRV6_NO_PLANE;
	if (tb[MRC_A_SRV6_TIERS]) {
		nla_for_each_nested(nla, tb[MRC_A_SRV6_TIERS], rem) {
			struct mrc_srv6_tier *tier = &t->tier[t->ntiers];

			if (t->ntiers == MRC_SRV6_TIERS_MAX) {
				NL_SET_ERR_MSG_ATTR(extack, nla,
						    "too many tiers");
				return -EINVAL;
			}
			err = nla_parse_nested(ttb, MRC_A_SRV6_TIER_MAX, nla,
					       NULL, extack);
			if (err)
				return err;
			if (!ttb[MRC_A_SRV6_TIER_USID] ||
			    !ttb[MRC_A_SRV6_TIER_SHIFT] ||
			    !ttb[MRC_A_SRV6_TIER_COUNT]) {
				NL_SET_ERR_MSG_ATTR(extack, nla,
						    "a tier needs a uSID, a shift and a count");
				return -EINVAL;
			}
			tier->usid = nla_get_u8(ttb[MRC_A_SRV6_TIER_USID]);
			tier->shift = nla_get_u8(ttb[MRC_A_SRV6_TIER_SHIFT]);
			tier->count = nla_get_u16(ttb[MRC_A_SRV6_TIER_COUNT]);
			t->ntiers++;
		}
	}
	err = mrc_srv6_tmpl_check(t, &why);
	if (err)
		mrc_nl_srv6_why(extack, tb[MRC_A_SRV6_USIDS], why);
	return err;
}

/*
 * The explicit paths of @list, grouped by plane into a new entry: a first
 * pass counts the paths of each plane, the second puts each in its place.
 */
static struct mrc_srv6_dst *mrc_nl_srv6_exp(const struct nlattr *list,
					    u32 locator,
					    struct netlink_ext_ack *extack)
{
	struct nlattr *ptb[MRC_A_SRV6_PATH_MAX + 1];
	u32 fill[MRC_MAX_PLANES] = {}, n = 0, i;
	u16 usids[MRC_SRV6_USIDS_MAX];
	struct mrc_srv6_dst *d;
	const struct nlattr *nla;
	int rem, err, nu;
	u32 pl;

	nla_for_each_nested(nla, list, rem)
		n++;
	if (!n || n > MRC_SRV6_EXP_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, list,
				    "between 1 and 256 explicit paths");
		return ERR_PTR(-EINVAL);
	}
	d = mrc_srv6_dst_alloc(n);
	if (!d)
		return ERR_PTR(-ENOMEM);
	d->gen.locator = locator;

	for (i = 0; i < 2; i++) {
		nla_for_each_nested(nla, list, rem) {
			err = nla_parse_nested(ptb, MRC_A_SRV6_PATH_MAX, nla,
					       NULL, extack);
			if (err)
				goto err;
			if (!ptb[MRC_A_SRV6_PATH_PLANE] ||
			    !ptb[MRC_A_SRV6_PATH_USIDS]) {
				NL_SET_ERR_MSG_ATTR(extack, nla,
						    "a path needs a plane and uSIDs");
				err = -EINVAL;
				goto err;
			}
			pl = nla_get_u32(ptb[MRC_A_SRV6_PATH_PLANE]);
			if (!i) {
				d->count[pl]++;
				continue;
			}
			nu = mrc_nl_srv6_usids(ptb[MRC_A_SRV6_PATH_USIDS],
					       usids, extack);
			if (nu < 0) {
				err = nu;
				goto err;
			}
			err = mrc_srv6_encode(locator, usids, nu,
					      &d->path[d->first[pl] +
						       fill[pl]++]);
			if (err) {
				NL_SET_ERR_MSG_ATTR(extack, nla,
						    "uSIDs do not form a path");
				goto err;
			}
		}
		for (pl = 1; !i && pl < MRC_MAX_PLANES; pl++)
			d->first[pl] = d->first[pl - 1] + d->count[pl - 1];
	}
	return d;

err:
	mrc_srv6_dst_put(d);
	return ERR_PTR(err);
}

/* A new entry from the request's MRC_A_SRV6 nest. */
static struct mrc_srv6_dst *mrc_nl_srv6_parse(struct nlattr **tb,
					      const struct nlattr *nest,
					      struct netlink_ext_ack *extack)
{
	struct mrc_srv6_tmpl t = {};
	struct mrc_srv6_dst *d;
	u32 pl, paths;
	int err;

	if (!tb[MRC_A_SRV6_PEER] || !tb[MRC_A_SRV6_LOCATOR]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "missing destination or locator");
		return ERR_PTR(-EINVAL);
	}
	if (!tb[MRC_A_SRV6_USIDS] == !tb[MRC_A_SRV6_PATHS]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "give either a template or explicit paths");
		return ERR_PTR(-EINVAL);
	}
	t.locator = nla_get_u32(tb[MRC_A_SRV6_LOCATOR]);
	if (tb[MRC_A_SRV6_PATHS]) {
		if (tb[MRC_A_SRV6_TIERS] || tb[MRC_A_SRV6_PLANE_SHIFT]) {
			NL_SET_ERR_MSG_ATTR(extack, nest,
					    "tiers and plane shift belong to a template");
			return ERR_PTR(-EINVAL);
		}
		d = mrc_nl_srv6_exp(tb[MRC_A_SRV6_PATHS], t.locator, extack);
	} else {
		err = mrc_nl_srv6_gen(tb, &t, extack);
		if (err)
			return ERR_PTR(err);
		d = mrc_srv6_dst_alloc(0);
		if (!d)
			return ERR_PTR(-ENOMEM);
		d->gen = t;
		paths = mrc_srv6_tmpl_paths(&t);
		for (pl = 0; pl < MRC_MAX_PLANES; pl++)
			d->count[pl] = paths;
	}
	if (!IS_ERR(d))
		d->peer = nla_get_in6_addr(tb[MRC_A_SRV6_PEER]);
	return d;
}

/* The request's device (under mrc_net.lock) and its MRC_A_SRV6 nest. */
static int mrc_nl_srv6_req(struct genl_info *info, struct nlattr **tb)
{
	if (GENL_REQ_ATTR_CHECK(info, MRC_A_DEV_NAME)) {
		NL_SET_ERR_MSG(info->extack, "missing device name");
		return -EINVAL;
	}
	if (GENL_REQ_ATTR_CHECK(info, MRC_A_SRV6)) {
		NL_SET_ERR_MSG(info->extack, "missing SRv6 attributes");
		return -EINVAL;
	}
	return nla_parse_nested(tb, MRC_A_SRV6_MAX, info->attrs[MRC_A_SRV6],
				NULL, info->extack);
}

int mrc_nl_srv6_set(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct nlattr *tb[MRC_A_SRV6_MAX + 1];
	struct mrc_device *mdev;
	struct mrc_srv6_dst *d;
	int err;

	err = mrc_nl_srv6_req(info, tb);
	if (err)
		return err;
	d = mrc_nl_srv6_parse(tb, info->attrs[MRC_A_SRV6], info->extack);
	if (IS_ERR(d))
		return PTR_ERR(d);

	mutex_lock(&mn->lock);
	mdev = mrc_dev_find(mn, nla_data(info->attrs[MRC_A_DEV_NAME]));
	if (!mdev) {
		mutex_unlock(&mn->lock);
		mrc_srv6_dst_put(d);
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[MRC_A_DEV_NAME],
				    "no such mrc device");
		return -ENODEV;
	}
	err = mrc_srv6_dst_set(mdev, d);
	if (!err)
		mn->srv6_genid++;
	mutex_unlock(&mn->lock);
	if (err)
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[MRC_A_SRV6],
				    "too many SRv6 destinations");
	return err;
}

int mrc_nl_srv6_del(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct nlattr *tb[MRC_A_SRV6_MAX + 1];
	struct mrc_device *mdev;
	struct in6_addr peer;
	int err;

	err = mrc_nl_srv6_req(info, tb);
	if (err)
		return err;
	if (!tb[MRC_A_SRV6_PEER]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[MRC_A_SRV6],
				    "missing destination");
		return -EINVAL;
	}
	peer = nla_get_in6_addr(tb[MRC_A_SRV6_PEER]);

	mutex_lock(&mn->lock);
	mdev = mrc_dev_find(mn, nla_data(info->attrs[MRC_A_DEV_NAME]));
	err = mdev ? mrc_srv6_dst_del(mdev, &peer) : -ENODEV;
	if (!err)
		mn->srv6_genid++;
	mutex_unlock(&mn->lock);
	if (err == -ENODEV)
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[MRC_A_DEV_NAME],
				    "no such mrc device");
	else if (err)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_A_SRV6_PEER],
				    "no SRv6 paths to this destination");
	return err;
}

static int mrc_nl_put_usids(struct sk_buff *skb, int type, const u16 *usids,
			    u32 n)
{
	struct nlattr *nest;
	u32 i;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < n; i++)
		if (nla_put_u16(skb, MRC_A_SRV6_USID, usids[i]))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int mrc_nl_put_gen(struct sk_buff *skb, const struct mrc_srv6_dst *d)
{
	const struct mrc_srv6_tmpl *t = &d->gen;
	struct nlattr *tiers, *tier;
	u32 i;

	if (mrc_nl_put_usids(skb, MRC_A_SRV6_USIDS, t->usid, t->nusids) ||
	    (t->plane_shift != MRC_SRV6_NO_PLANE &&
	     nla_put_u8(skb, MRC_A_SRV6_PLANE_SHIFT, t->plane_shift)) ||
	    nla_put_u32(skb, MRC_A_SRV6_PATH_COUNT, d->count[0]))
		return -EMSGSIZE;
	tiers = nla_nest_start(skb, MRC_A_SRV6_TIERS);
	if (!tiers)
		return -EMSGSIZE;
	for (i = 0; i < t->ntiers; i++) {
		tier = nla_nest_start(skb, MRC_A_SRV6_TIER);
		if (!tier ||
		    nla_put_u8(skb, MRC_A_SRV6_TIER_USID, t->tier[i].usid) ||
		    nla_put_u8(skb, MRC_A_SRV6_TIER_SHIFT, t->tier[i].shift) ||
		    nla_put_u16(skb, MRC_A_SRV6_TIER_COUNT, t->tier[i].count))
			return -EMSGSIZE;
		nla_nest_end(skb, tier);
	}
	nla_nest_end(skb, tiers);
	return 0;
}

/*
 * Explicit paths from @first on, as many as fit.  Return: the index after
 * the last path put; 0 when none fit.
 */
static u32 mrc_nl_put_exp(struct sk_buff *skb, const struct mrc_srv6_dst *d,
			  u32 first)
{
	u16 usids[MRC_SRV6_USIDS_MAX];
	struct nlattr *paths, *path;
	u32 i, n, loc, pl = 0;

	paths = nla_nest_start(skb, MRC_A_SRV6_PATHS);
	if (!paths)
		return 0;
	for (i = first; i < d->npaths; i++) {
		while (i >= d->first[pl] + d->count[pl])
			pl++;
		n = mrc_srv6_decode(&d->path[i], &loc, usids);
		path = nla_nest_start(skb, MRC_A_SRV6_PATH);
		if (!path || nla_put_u32(skb, MRC_A_SRV6_PATH_PLANE, pl) ||
		    mrc_nl_put_usids(skb, MRC_A_SRV6_PATH_USIDS, usids, n)) {
			if (path)
				nla_nest_cancel(skb, path);
			break;
		}
		nla_nest_end(skb, path);
	}
	nla_nest_end(skb, paths);
	return i;
}

/**
 * struct mrc_nl_srv6_dump_ctx - where an SRv6 dump goes on, in cb->ctx
 * @devs: the device being dumped
 * @pos: the position of its next entry in its table
 * @path: that entry's next explicit path
 */
struct mrc_nl_srv6_dump_ctx {
	struct mrc_nl_devs_ctx devs;
	long pos;
	u32 path;
};

/*
 * One message about entry @d of @mdev, explicit paths from ctx->path on.
 * Return: 0 when the entry is done, -EMSGSIZE when it goes on in the next
 * message (ctx->path says where).
 */
static int mrc_nl_put_srv6(struct sk_buff *skb, struct netlink_callback *cb,
			   const struct mrc_device *mdev,
			   const struct mrc_srv6_dst *d)
{
	struct mrc_nl_srv6_dump_ctx *ctx = (void *)cb->ctx;
	struct nlattr *nest;
	u32 next = 0;
	void *hdr;

	hdr = mrc_nl_hdr_put(skb, NETLINK_CB(cb->skb).portid,
			     cb->nlh->nlmsg_seq, NLM_F_MULTI,
			     MRC_CMD_SRV6_GET);
	if (!hdr)
		return -EMSGSIZE;
	genl_dump_check_consistent(cb, hdr);
	/*
	 * The entry at this position is not the one whose paths were being
	 * sent (the table changed, and this message says so): start over.
	 */
	if (ctx->path >= d->npaths)
		ctx->path = 0;
	if (nla_put_string(skb, MRC_A_DEV_NAME, mdev->name))
		goto cancel;
	nest = nla_nest_start(skb, MRC_A_SRV6);
	if (!nest || nla_put_in6_addr(skb, MRC_A_SRV6_PEER, &d->peer) ||
	    nla_put_u32(skb, MRC_A_SRV6_LOCATOR, d->gen.locator))
		goto cancel;
	if (d->npaths) {
		next = mrc_nl_put_exp(skb, d, ctx->path);
		if (next == ctx->path)
			goto cancel;
	} else if (mrc_nl_put_gen(skb, d)) {
		goto cancel;
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	if (next < d->npaths) {
		ctx->path = next;
		return -EMSGSIZE;
	}
	ctx->path = 0;
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* The entries of @mdev from position ctx->pos on, under its lock. */
static int mrc_nl_srv6_dump_dev(struct sk_buff *skb,
				struct netlink_callback *cb,
				struct mrc_device *mdev, void *arg)
{
	struct mrc_nl_srv6_dump_ctx *ctx = (void *)cb->ctx;
	const struct mrc_srv6_dst *d;
	long pos = 0;
	int err = 0;

	mutex_lock(&mdev->srv6_lock);
	list_for_each_entry(d, &mdev->srv6, list) {
		if (pos++ < ctx->pos)
			continue;
		err = mrc_nl_put_srv6(skb, cb, mdev, d);
		if (err)
			break;
		ctx->pos = pos;
	}
	mutex_unlock(&mdev->srv6_lock);
	return err;
}

/*
 * A dump resumes from (device index, entry position, path): changes of the
 * devices or of any SRv6 table between two parts may make it miss or
 * repeat an entry, so the parts after a change carry NLM_F_DUMP_INTR.  An
 * entry is never read after it is freed: the lock is held while it is put.
 */
static u32 mrc_nl_srv6_genid(struct mrc_net *mn)
{
	return mn->genid + mn->srv6_genid;
}

int mrc_nl_srv6_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct mrc_nl_srv6_dump_ctx) > sizeof(cb->ctx));
	/* One explicit path always fits an empty message. */
	return mrc_nl_dump_devices(skb, cb, mrc_nl_srv6_genid,
				   mrc_nl_srv6_dump_dev, NULL);
}
