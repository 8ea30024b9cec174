// SPDX-License-Identifier: GPL-2.0
/*
 * The controller's view of the QPs of a device (MRC_CMD_QP_GET), its
 * deny/undeny of single EVs (MRC_CMD_EV_SET) and the MRC attributes of a QP
 * (MRC_CMD_QP_SET), and one probe of an EV (MRC_CMD_PROBE).
 * Documentation/netlink.md documents the messages and lists every error.
 *
 * Every RC QP of a device is in mdev->qps from creation to destruction; GSI
 * QPs are not and are never shown.  A QP is read under RCU (destroy waits a
 * grace period before freeing it and its EV set) and its lock, copied into a
 * snapshot, and the message is built from the copy once the lock is dropped:
 * the data path never waits for a netlink socket.  Devices are found under
 * mrc_net.lock, which keeps a device on the list from being destroyed.
 */

#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "mrc.h"

/*
 * Only the input attributes have entries; a state outside the enum is out
 * of range, GOOD and DENIED are the only ones EV_SET accepts (checked by the
 * handler).
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

/* A QP names a profile by id, or none with 0. */
static struct netlink_range_validation mrc_dev_prof_id_range = {
	.min = 0,
	.max = MRC_PROFILE_ID_MAX,
};

const struct nla_policy mrc_qp_policy[MRC_A_QP_MAX + 1] = {
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

struct mrc_nl_ev_snap {
	u32 value;
	u8 plane;
	u8 state;
	bool srv6;
	struct mrc_srv6_path path;
	u64 tx_pkts;
	u64 retx;
	u64 losses;
	u64 ecn;
	u64 retired;
};

/*
 * What one message says of a QP: its header and the EVs of slots @first to
 * @first + @nev - 1, the tail of the set a previous message did not hold.
 */
struct mrc_nl_qp_snap {
	u32 qpn;
	u8 state;
	bool has_peer;
	u32 dest_qpn;
	struct in6_addr peer;
	u32 ev_count;
	u32 min_active;
	u32 cwnd;
	u32 srtt_us;
	u32 peer_down;
	u32 evprof_id;
	u32 ccprof_id;
	u32 mpr;
	u32 mpr_dest;
	u8 timeout;
	u8 retry_linear;
	u8 retry_exp;
	bool stev;
	u32 first;
	u32 nev;
	struct mrc_nl_ev_snap ev[MRC_EV_MAX];
};

/*
 * Under RCU.  @qpn is the QP's index in mdev->qps: create publishes the QP
 * there before it writes ibqp.qp_num.  False when the QP is being destroyed.
 */
static bool mrc_nl_qp_snap(struct mrc_qp *qp, u32 qpn, u32 first,
			   struct mrc_nl_qp_snap *snap)
{
	const struct mrc_srv6_dst *d = NULL;
	const struct mrc_evset *s;
	u32 i;

	spin_lock_bh(&qp->lock);
	/* UD QPs share the numbers; they have no EV set to show. */
	if (qp->dead || !qp->evs) {
		spin_unlock_bh(&qp->lock);
		return false;
	}
	s = qp->evs;
	snap->qpn = qpn;
	snap->state = qp->state;
	snap->dest_qpn = qp->attr.dest_qp_num;
	/* No family yet: modify_qp has not given the QP an address vector. */
	snap->has_peer = qp->av.family == AF_INET ||
			 qp->av.family == AF_INET6;
	if (qp->av.family == AF_INET)
		ipv6_addr_set_v4mapped(qp->av.daddr.v4, &snap->peer);
	else if (qp->av.family == AF_INET6)
		snap->peer = qp->av.daddr.v6;
	snap->ev_count = s ? s->n : 0;
	snap->min_active = s ? s->min_active : 0;
	snap->cwnd = qp->req.cc.cwnd;
	snap->srtt_us = qp->req.srtt_us;
	snap->peer_down = s ? s->peer_down : 0;
	snap->stev = s && s->format == MRC_EV_FORMAT_STEV;
	snap->evprof_id = qp->own_mask & MRC_QP_OWN_EV ? qp->own->evprof_id : 0;
	snap->ccprof_id = qp->own_mask & MRC_QP_OWN_CC ? qp->own->ccprof_id : 0;
	snap->mpr = qp->send_cap / MRC_MPR_UNIT;
	snap->mpr_dest = qp->resp.window / MRC_MPR_UNIT;
	snap->timeout = qp->attr.timeout;
	snap->retry_linear = qp->attr.retry_cnt;
	snap->retry_exp = qp->retry_exp;
	snap->first = first;
	snap->nev = first < snap->ev_count ? snap->ev_count - first : 0;
	if (s)
		d = rcu_dereference_protected(s->srv6,
					      lockdep_is_held(&qp->lock));
	for (i = 0; i < snap->nev; i++) {
		const struct mrc_ev *e = &s->ev[first + i];
		struct mrc_nl_ev_snap *c = &snap->ev[i];

		c->value = e->value;
		c->plane = e->plane;
		c->state = e->state;
		c->tx_pkts = e->tx_pkts;
		c->retx = e->retx;
		c->losses = e->losses;
		c->ecn = e->ecn;
		c->retired = e->retired;
		c->srv6 = d && mrc_srv6_dst_path(d, e->plane,
						  mrc_ev_entropy(e->value),
						  &c->path);
	}
	spin_unlock_bh(&qp->lock);
	return true;
}

static size_t mrc_nl_ev_size(void)
{
	return nla_total_size(0) +			/* MRC_A_EV */
	       5 * nla_total_size(sizeof(u32)) +	/* slot .. entropy, label */
	       nla_total_size(sizeof(u8)) +		/* state */
	       5 * nla_total_size_64bit(sizeof(u64)) +	/* counters */
	       2 * nla_total_size(sizeof(struct in6_addr));	/* SRv6 */
}

static size_t mrc_nl_qp_size(u32 nev)
{
	return nla_total_size(IFNAMSIZ) +		/* MRC_A_DEV_NAME */
	       nla_total_size(0) +			/* MRC_A_QP */
	       11 * nla_total_size(sizeof(u32)) +	/* num .. mpr_dest */
	       4 * nla_total_size(sizeof(u8)) +		/* state .. retry_exp */
	       nla_total_size(sizeof(struct in6_addr)) +	/* peer */
	       nla_total_size(0) +			/* MRC_A_QP_EVS */
	       nev * mrc_nl_ev_size();
}

static int mrc_nl_put_ev(struct sk_buff *skb, u32 slot, bool stev,
			 const struct mrc_nl_ev_snap *e)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, MRC_A_EV);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_A_EV_SLOT, slot) ||
	    nla_put_u32(skb, MRC_A_EV_VALUE, e->value) ||
	    nla_put_u32(skb, MRC_A_EV_PLANE, e->plane) ||
	    nla_put_u32(skb, MRC_A_EV_ENTROPY, mrc_ev_sport(e->value)) ||
	    nla_put_u8(skb, MRC_A_EV_STATE, e->state) ||
	    nla_put_u64_64bit(skb, MRC_A_EV_TX_PKTS, e->tx_pkts,
			      MRC_A_EV_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_EV_RETX, e->retx, MRC_A_EV_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_EV_LOSSES, e->losses, MRC_A_EV_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_EV_ECN, e->ecn, MRC_A_EV_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_EV_RETIRED, e->retired,
			      MRC_A_EV_PAD) ||
	    (e->srv6 &&
	     nla_put_in6_addr(skb, MRC_A_EV_SRV6_DA, &e->path.da)) ||
	    (e->srv6 && e->path.srh &&
	     nla_put_in6_addr(skb, MRC_A_EV_SRV6_SEG, &e->path.seg)) ||
	    (stev && nla_put_u32(skb, MRC_A_EV_FLOW_LABEL,
				 mrc_ev_flow_label(e->value)))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * One message about the QP of @snap, with as many of its EVs as fit.
 * Return: the slot after the last EV put, or -EMSGSIZE when not even the
 * header and one EV fit (the caller retries in an empty message).
 */
static int mrc_nl_put_qp(struct sk_buff *skb, const char *dev_name,
			 const struct mrc_nl_qp_snap *snap, u32 portid,
			 u32 seq, int flags, struct netlink_callback *cb)
{
	struct nlattr *qp, *evs;
	void *hdr;
	u32 i;

	hdr = mrc_nl_hdr_put(skb, portid, seq, flags, MRC_CMD_QP_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);

	if (nla_put_string(skb, MRC_A_DEV_NAME, dev_name))
		goto cancel;
	qp = nla_nest_start(skb, MRC_A_QP);
	if (!qp)
		goto cancel;
	if (nla_put_u32(skb, MRC_A_QP_NUM, snap->qpn) ||
	    nla_put_u8(skb, MRC_A_QP_STATE, snap->state) ||
	    nla_put_u32(skb, MRC_A_QP_DEST_NUM, snap->dest_qpn) ||
	    (snap->has_peer &&
	     nla_put_in6_addr(skb, MRC_A_QP_PEER, &snap->peer)) ||
	    nla_put_u32(skb, MRC_A_QP_EV_COUNT, snap->ev_count) ||
	    nla_put_u32(skb, MRC_A_QP_MIN_ACTIVE, snap->min_active) ||
	    nla_put_u32(skb, MRC_A_QP_CWND, snap->cwnd) ||
	    nla_put_u32(skb, MRC_A_QP_SRTT_US, snap->srtt_us) ||
	    nla_put_u32(skb, MRC_A_QP_PEER_DOWN, snap->peer_down) ||
	    nla_put_u32(skb, MRC_A_QP_EVPROF_ID, snap->evprof_id) ||
	    nla_put_u32(skb, MRC_A_QP_CCPROF_ID, snap->ccprof_id) ||
	    nla_put_u32(skb, MRC_A_QP_MPR, snap->mpr) ||
	    nla_put_u32(skb, MRC_A_QP_MPR_DEST, snap->mpr_dest) ||
	    nla_put_u8(skb, MRC_A_QP_TIMEOUT, snap->timeout) ||
	    nla_put_u8(skb, MRC_A_QP_RETRY_LINEAR, snap->retry_linear) ||
	    nla_put_u8(skb, MRC_A_QP_RETRY_EXP, snap->retry_exp))
		goto cancel;
	evs = nla_nest_start(skb, MRC_A_QP_EVS);
	if (!evs)
		goto cancel;
	for (i = 0; i < snap->nev; i++)
		if (mrc_nl_put_ev(skb, snap->first + i, snap->stev,
				  &snap->ev[i]))
			break;
	if (!i && snap->nev)
		goto cancel;
	nla_nest_end(skb, evs);
	nla_nest_end(skb, qp);
	genlmsg_end(skb, hdr);
	return snap->first + i;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/**
 * mrc_nl_qp_req_parse() - the device and QP a request about one QP names
 * @info: the request; MRC_A_DEV_NAME and MRC_A_QP with MRC_A_QP_NUM needed
 * @tb: MRC_A_QP_MAX + 1 entries, filled from the MRC_A_QP nest
 *
 * The family policy validated the nest already; this checks presence.
 * Return: 0, or -EINVAL with the missing attribute named in the extack.
 */
static int mrc_nl_qp_req_parse(struct genl_info *info, struct nlattr **tb)
{
	int err;

	if (GENL_REQ_ATTR_CHECK(info, MRC_A_DEV_NAME)) {
		NL_SET_ERR_MSG(info->extack, "missing device name");
		return -EINVAL;
	}
	if (GENL_REQ_ATTR_CHECK(info, MRC_A_QP)) {
		NL_SET_ERR_MSG(info->extack, "missing QP attributes");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, MRC_A_QP_MAX, info->attrs[MRC_A_QP], NULL,
			       info->extack);
	if (err)
		return err;
	if (!tb[MRC_A_QP_NUM]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[MRC_A_QP],
				    "missing QP number");
		return -EINVAL;
	}
	return 0;
}

/*
 * The namespace holding device @name as the caller may reach it.  RDMA
 * device names are global: an application in one namespace may hold a QP
 * of a device made in another, where rdma_dev_access_netns() lets it see
 * that device (the shared mode, rdma's default).  Returns a reference: on
 * the device's namespace, or on the caller's when there is no such device
 * to reach, where the lookup under its lock then answers ENODEV.
 */
static struct net *mrc_nl_dev_net(struct genl_info *info, const char *name)
{
	struct net *net = genl_info_net(info), *found = NULL;
	struct ib_device *ibdev;

	ibdev = ib_device_get_by_name(name, RDMA_DRIVER_RXE);
	if (ibdev) {
		if (ibdev->ops.owner == THIS_MODULE &&
		    rdma_dev_access_netns(ibdev, net))
			found = maybe_get_net(to_mdev(ibdev)->net);
		ib_device_put(ibdev);
	}
	return found ?: get_net(net);
}

/*
 * The QP numbered @qpn on @mdev, under RCU, or NULL; *@owner: whether the
 * sender created it.  A genetlink doit runs in the sending process, whose
 * effective uid this is, as netlink_capable() takes the capability of a
 * message sent to an address.
 */
static struct mrc_qp *mrc_nl_qp_find(struct mrc_device *mdev, u32 qpn,
				     bool *owner)
{
	struct mrc_qp *qp = mrc_qp_lookup(mdev, qpn);

	*owner = qp && qp->is_user && uid_eq(qp->owner, current_euid());
	return qp;
}

int mrc_nl_qp_get(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *name_attr = info->attrs[MRC_A_DEV_NAME];
	struct nlattr *tb[MRC_A_QP_MAX + 1];
	struct mrc_nl_qp_snap *snap;
	struct mrc_device *mdev;
	struct sk_buff *msg;
	struct mrc_net *mn;
	struct mrc_qp *qp;
	bool live = false;
	struct net *net;
	int err;

	err = mrc_nl_qp_req_parse(info, tb);
	if (err)
		return err;

	snap = kvmalloc(sizeof(*snap), GFP_KERNEL);
	if (!snap)
		return -ENOMEM;

	net = mrc_nl_dev_net(info, nla_data(name_attr));
	mn = mrc_net(net);
	mutex_lock(&mn->lock);
	mdev = mrc_dev_find(mn, nla_data(name_attr));
	if (mdev) {
		u32 qpn = nla_get_u32(tb[MRC_A_QP_NUM]);

		rcu_read_lock();
		qp = mrc_qp_lookup(mdev, qpn);
		live = qp && mrc_nl_qp_snap(qp, qpn, 0, snap);
		rcu_read_unlock();
	}
	mutex_unlock(&mn->lock);
	put_net(net);

	if (!mdev) {
		NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
				    "no such mrc device");
		err = -ENODEV;
		goto out;
	}
	if (!live) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_A_QP_NUM],
				    "no such QP");
		err = -ENOENT;
		goto out;
	}

	msg = genlmsg_new(mrc_nl_qp_size(snap->nev), GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out;
	}
	err = mrc_nl_put_qp(msg, nla_data(name_attr), snap, info->snd_portid,
			    info->snd_seq, 0, NULL);
	if (err < 0 || (u32)err < snap->nev) {
		/* Sized for the whole set: cannot happen. */
		nlmsg_free(msg);
		err = -EMSGSIZE;
		goto out;
	}
	err = genlmsg_reply(msg, info);
out:
	kvfree(snap);
	return err;
}

/*
 * The generation of everything a QP dump walks: the device list and the QPs
 * of every device.  Each part only grows, so the sum changes whenever one of
 * them does.  Under mrc_net.lock.
 */
static u32 mrc_nl_qp_genid(struct mrc_net *mn)
{
	struct mrc_device *mdev;
	u32 genid = mn->genid;

	list_for_each_entry(mdev, &mn->devices, list)
		genid += atomic_read(&mdev->qp_genid);
	return genid;
}

/**
 * struct mrc_nl_qp_dump_ctx - where a QP dump goes on, in cb->ctx
 * @devs: the device being dumped
 * @qpn: the number of its next QP
 * @slot: that QP's next EV slot
 */
struct mrc_nl_qp_dump_ctx {
	struct mrc_nl_devs_ctx devs;
	unsigned long qpn;
	u32 slot;
};

/*
 * The QPs of @mdev from ctx->qpn and, for that QP, ctx->slot on.  Return: 0
 * when the device is done, -EMSGSIZE when the message is full (the context
 * says where to go on).
 */
static int mrc_nl_qp_dump_dev(struct sk_buff *skb, struct netlink_callback *cb,
			      struct mrc_device *mdev, void *arg)
{
	struct mrc_nl_qp_dump_ctx *ctx = (void *)cb->ctx;
	struct mrc_nl_qp_snap *snap = arg;
	unsigned long qpn = ctx->qpn;
	struct mrc_qp *qp;
	u32 first;
	bool live;
	int next;

	for (;;) {
		rcu_read_lock();
		qp = xa_find(&mdev->qps, &qpn, ULONG_MAX, XA_PRESENT);
		/* A QP continued from the last message goes on at its slot. */
		first = qpn == ctx->qpn ? ctx->slot : 0;
		live = qp && mrc_nl_qp_snap(qp, qpn, first, snap);
		rcu_read_unlock();
		if (!qp)
			return 0;

		/* A set that shrank under a continued QP has nothing left. */
		if (live && (!first || snap->nev)) {
			next = mrc_nl_put_qp(skb, mdev->name, snap,
					     NETLINK_CB(cb->skb).portid,
					     cb->nlh->nlmsg_seq, NLM_F_MULTI,
					     cb);
			if (next < 0 || (u32)next < snap->ev_count) {
				ctx->qpn = qpn;
				ctx->slot = next < 0 ? first : next;
				return -EMSGSIZE;
			}
		}
		ctx->qpn = ++qpn;
		ctx->slot = 0;
	}
}

/*
 * struct mrc_nl_qp_dump_ctx says where the dump goes on.  Indexes and QP
 * numbers are walked in increasing order, so objects deleted between parts
 * never make a dump skip or repeat another one; a QP whose EVs do not fit
 * one message goes on in the next with its header repeated.
 */
int mrc_nl_qp_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct mrc_nl_qp_snap *snap;
	int ret;

	BUILD_BUG_ON(sizeof(struct mrc_nl_qp_dump_ctx) > sizeof(cb->ctx));
	snap = kvmalloc(sizeof(*snap), GFP_KERNEL);
	if (!snap)
		return -ENOMEM;
	/* A header and one EV always fit an empty message. */
	ret = mrc_nl_dump_devices(skb, cb, mrc_nl_qp_genid, mrc_nl_qp_dump_dev,
				  snap);
	kvfree(snap);
	return ret;
}

/* Fills @reqs from the request's MRC_A_QP_EVS; the policy checked ranges. */
static int mrc_nl_parse_evs(const struct nlattr *evs, struct mrc_ev_req *reqs,
			    u32 *nreqs, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[MRC_A_EV_MAX + 1];
	const struct nlattr *nla;
	u32 n = 0;
	int rem, err;
	u8 state;

	nla_for_each_nested(nla, evs, rem) {
		if (n == MRC_EV_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, nla, "too many EVs");
			return -E2BIG;
		}
		err = nla_parse_nested(tb, MRC_A_EV_MAX, nla, NULL, extack);
		if (err)
			return err;
		if (!tb[MRC_A_EV_SLOT] || !tb[MRC_A_EV_STATE]) {
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "EV needs a slot and a state");
			return -EINVAL;
		}
		state = nla_get_u8(tb[MRC_A_EV_STATE]);
		if (state != MRC_EV_STATE_DENIED && state != MRC_EV_STATE_GOOD) {
			NL_SET_ERR_MSG_ATTR(extack, tb[MRC_A_EV_STATE],
					    "EV state can only be set to denied or good");
			return -EINVAL;
		}
		reqs[n].slot = nla_get_u32(tb[MRC_A_EV_SLOT]);
		reqs[n].state = state;
		reqs[n].attr = nla;
		n++;
	}
	if (!n) {
		NL_SET_ERR_MSG_ATTR(extack, evs, "at least one EV is required");
		return -EINVAL;
	}
	*nreqs = n;
	return 0;
}

int mrc_nl_ev_set(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct nlattr *name_attr = info->attrs[MRC_A_DEV_NAME];
	struct nlattr *tb[MRC_A_QP_MAX + 1];
	struct mrc_device *mdev;
	struct mrc_ev_req *reqs;
	bool live = false;
	struct mrc_qp *qp;
	u32 nreqs;
	int err;

	err = mrc_nl_qp_req_parse(info, tb);
	if (err)
		return err;
	if (!tb[MRC_A_QP_EVS]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[MRC_A_QP],
				    "missing EV list");
		return -EINVAL;
	}

	reqs = kcalloc(MRC_EV_MAX, sizeof(*reqs), GFP_KERNEL);
	if (!reqs)
		return -ENOMEM;
	err = mrc_nl_parse_evs(tb[MRC_A_QP_EVS], reqs, &nreqs, info->extack);
	if (err)
		goto out;

	mutex_lock(&mn->lock);
	mdev = mrc_dev_find(mn, nla_data(name_attr));
	if (mdev) {
		rcu_read_lock();
		qp = mrc_qp_lookup(mdev, nla_get_u32(tb[MRC_A_QP_NUM]));
		if (qp) {
			spin_lock_bh(&qp->lock);
			live = !qp->dead;
			if (live)
				err = mrc_ev_set_states(qp, reqs, nreqs,
							info->extack);
			spin_unlock_bh(&qp->lock);
		}
		rcu_read_unlock();
	}
	mutex_unlock(&mn->lock);

	if (!mdev) {
		NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
				    "no such mrc device");
		err = -ENODEV;
	} else if (!live) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_A_QP_NUM],
				    "no such QP");
		err = -ENOENT;
	}
out:
	kfree(reqs);
	return err;
}

/*
 * The MRC attributes MRC_CMD_QP_SET names, into @set; the policy checked
 * each range.  Profiles are looked up under mrc_net.lock, by the caller.
 */
static int mrc_nl_qp_set_parse(struct nlattr **tb, struct mrc_qp_set *set,
			       struct netlink_ext_ack *extack)
{
	if (tb[MRC_A_QP_EVPROF_ID])
		set->mask |= MRC_QP_SET_EVPROF;
	if (tb[MRC_A_QP_CCPROF_ID])
		set->mask |= MRC_QP_SET_CCPROF;
	if (tb[MRC_A_QP_MPR]) {
		set->mask |= MRC_QP_SET_MPR;
		set->mpr = nla_get_u32(tb[MRC_A_QP_MPR]) * MRC_MPR_UNIT;
	}
	if (tb[MRC_A_QP_MPR_DEST]) {
		u32 units = nla_get_u32(tb[MRC_A_QP_MPR_DEST]);

		/* PSNs index the responder's bitmap modulo its size. */
		if (!is_power_of_2(units)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[MRC_A_QP_MPR_DEST],
					    "the responder MPR must be a power of two");
			return -EINVAL;
		}
		set->mask |= MRC_QP_SET_MPR_DEST;
		set->mpr_dest = units * MRC_MPR_UNIT;
	}
	if (tb[MRC_A_QP_TIMEOUT]) {
		set->mask |= MRC_QP_SET_TIMEOUT;
		set->timeout = nla_get_u8(tb[MRC_A_QP_TIMEOUT]);
	}
	if (tb[MRC_A_QP_RETRY_LINEAR]) {
		set->mask |= MRC_QP_SET_RETRY_LINEAR;
		set->retry_linear = nla_get_u8(tb[MRC_A_QP_RETRY_LINEAR]);
	}
	if (tb[MRC_A_QP_RETRY_EXP]) {
		set->mask |= MRC_QP_SET_RETRY_EXP;
		set->retry_exp = nla_get_u8(tb[MRC_A_QP_RETRY_EXP]);
	}
	if (!set->mask) {
		NL_SET_ERR_MSG(extack, "no QP attribute to set");
		return -EINVAL;
	}
	return 0;
}

int mrc_nl_qp_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *name_attr = info->attrs[MRC_A_DEV_NAME];
	struct nlattr *tb[MRC_A_QP_MAX + 1];
	struct mrc_qp_set set = {};
	struct mrc_dev_prof prof;
	struct mrc_device *mdev;
	bool owner, admin;
	struct mrc_net *mn;
	struct mrc_qp *qp;
	struct net *net;
	u32 qpn;
	int err;

	err = mrc_nl_qp_req_parse(info, tb);
	if (err)
		return err;
	err = mrc_nl_qp_set_parse(tb, &set, info->extack);
	if (err)
		return err;
	err = mrc_qp_set_prepare(&set);
	if (err)
		goto out;

	qpn = nla_get_u32(tb[MRC_A_QP_NUM]);
	set.prof = &prof;
	/* Profiles are those of the device's namespace, not the caller's. */
	net = mrc_nl_dev_net(info, nla_data(name_attr));
	mn = mrc_net(net);
	mutex_lock(&mn->lock);
	mdev = mrc_dev_find(mn, nla_data(name_attr));
	if (!mdev) {
		NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
				    "no such mrc device");
		err = -ENODEV;
		goto unlock;
	}
	/*
	 * Who may: the QP's owner, else CAP_NET_ADMIN (asked only then, so
	 * that an application setting its own QP logs no capability denial).
	 * Checked before the profiles are looked up, so that nobody learns of
	 * profiles through a QP that is not theirs.
	 */
	rcu_read_lock();
	qp = mrc_nl_qp_find(mdev, qpn, &owner);
	rcu_read_unlock();
	admin = qp && !owner && netlink_capable(skb, CAP_NET_ADMIN);
	if (!qp) {
		err = -ENOENT;
		goto noqp;
	}
	if (!owner && !admin) {
		err = -EPERM;
		goto noqp;
	}
	if (tb[MRC_A_QP_EVPROF_ID]) {
		err = mrc_dev_prof_ev_lookup(mn,
					     nla_get_u32(tb[MRC_A_QP_EVPROF_ID]),
					     &prof, true, info->extack);
		if (err) {
			NL_SET_BAD_ATTR(info->extack, tb[MRC_A_QP_EVPROF_ID]);
			goto unlock;
		}
	}
	if (tb[MRC_A_QP_CCPROF_ID]) {
		err = mrc_dev_prof_cc_lookup(mn,
					     nla_get_u32(tb[MRC_A_QP_CCPROF_ID]),
					     &prof, info->extack);
		if (err) {
			NL_SET_BAD_ATTR(info->extack, tb[MRC_A_QP_CCPROF_ID]);
			goto unlock;
		}
	}
	/* The number may have passed to a new QP meanwhile: look again. */
	rcu_read_lock();
	qp = mrc_nl_qp_find(mdev, qpn, &owner);
	if (!qp)
		err = -ENOENT;
	else if (!owner && !admin)
		err = -EPERM;
	else
		err = mrc_qp_set_apply(qp, &set, info->extack);
	rcu_read_unlock();
noqp:
	if (err == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_A_QP_NUM],
				    "no such QP");
	else if (err == -EPERM)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_A_QP_NUM],
				    "the QP belongs to another user");
unlock:
	mutex_unlock(&mn->lock);
	put_net(net);
out:
	mrc_qp_set_release(&set);
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
 * hold @w, and mrc_ev_probe_forget() leaves it alone.  A QP that cannot be
 * found (its device left the registry first) may still hold @w: its
 * reference keeps @w alive until it lets go.
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
	hdr = mrc_nl_hdr_put(msg, info->snd_portid, info->snd_seq, 0,
			     MRC_CMD_PROBE);
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
int mrc_nl_probe(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_net *mn = mrc_net(genl_info_net(info));
	struct mrc_ev_probe_wait *w;
	struct mrc_nl_probe_req req;
	unsigned long timeout;
	long left;
	int err;

	err = mrc_nl_probe_parse(info, &req);
	if (err)
		return err;
	w = mrc_ev_probe_wait_new();
	if (!w)
		return -ENOMEM;
	err = mrc_nl_probe_qp(mn, &req, w, true, info->extack);
	if (err)
		goto out;

	timeout = msecs_to_jiffies(req.timeout_ms);
	left = wait_for_completion_interruptible_timeout(&w->done, timeout);
	if (left <= 0) {
		/* Not answered in time: make the QP forget @w if it can. */
		mrc_nl_probe_qp(mn, &req, w, false, NULL);
		if (!try_wait_for_completion(&w->done)) {
			err = left < 0 ? -EINTR : -ETIMEDOUT;
			if (err == -ETIMEDOUT)
				NL_SET_ERR_MSG(info->extack,
					       "no answer within the timeout");
			goto out;
		}
	}
	if (w->err) {
		NL_SET_ERR_MSG(info->extack, "QP destroyed before the answer");
		err = w->err;
		goto out;
	}
	err = mrc_nl_probe_reply(info, &req, w);
out:
	mrc_ev_probe_wait_put(w);
	return err;
}
