// SPDX-License-Identifier: GPL-2.0
/*
 * EV format, EV and CC profiles over netlink (MRC_CMD_EVFMT_*,
 * MRC_CMD_EVPROF_*, MRC_CMD_CCPROF_*): the policies of their nests, the
 * parsing of a request into struct mrc_evfmt_req / mrc_evprof_req /
 * mrc_ccprof_req for profile.c, and the messages that show a profile.
 * Documentation/netlink.md documents the messages and lists every error.
 */

#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "mrc.h"

static const struct nla_policy mrc_ev_entries_policy[MRC_A_EV_ENTRIES_MAX + 1] = {
	[MRC_A_EV_ENTRY] = { .type = NLA_U64 },
};

static struct netlink_range_validation mrc_prof_id_range = {
	.min = 1,
	.max = MRC_PROFILE_ID_MAX,
};

/* An EV profile names an EV format profile by id, or none with 0. */
static struct netlink_range_validation mrc_prof_id_or_none_range = {
	.min = 0,
	.max = MRC_PROFILE_ID_MAX,
};

static struct netlink_range_validation mrc_ev_count_range = {
	.min = 1,
	.max = MRC_MAX_EVS,
};

/* Cross-field rules (min_active <= ev_count, ...) are checked in profile.c. */
const struct nla_policy mrc_evprof_policy[MRC_A_EVPROF_MAX + 1] = {
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
	[MRC_A_EVPROF_FMT_ID] = NLA_POLICY_FULL_RANGE(NLA_U32,
						      &mrc_prof_id_or_none_range),
};

static const struct nla_policy mrc_evfmt_fields_policy[MRC_A_EVFMT_FIELDS_MAX + 1] = {
	[MRC_A_EVFMT_FIELD] = NLA_POLICY_RANGE(NLA_U8, 1,
					       MRC_EVFMT_FIELD_BITS_MAX),
};

/* How many fields, and their sum against the format: profile.c. */
const struct nla_policy mrc_evfmt_policy[MRC_A_EVFMT_MAX + 1] = {
	[MRC_A_EVFMT_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &mrc_prof_id_range),
	[MRC_A_EVFMT_STATE] = NLA_POLICY_MAX(NLA_U8, MRC_PROFILE_STATE_ONLINE),
	[MRC_A_EVFMT_FORMAT] = NLA_POLICY_MAX(NLA_U8, MRC_EV_FORMAT_SRV6),
	[MRC_A_EVFMT_FIELDS] = NLA_POLICY_NESTED(mrc_evfmt_fields_policy),
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

const struct nla_policy mrc_ccprof_policy[MRC_A_CCPROF_MAX + 1] = {
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

/* ---- EV and CC profiles ------------------------------------------------ */

static size_t mrc_nl_evprof_size(const void *p)
{
	const struct mrc_evprof *prof = p;

	return nla_total_size(0) +			/* MRC_A_EVPROF */
	       6 * nla_total_size(sizeof(u32)) +	/* id .. event_mask, fmt */
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

	hdr = mrc_nl_hdr_put(skb, portid, seq, flags, MRC_CMD_EVPROF_GET);
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
	    nla_put_u32(skb, MRC_A_EVPROF_EVENT_MASK, cfg->event_mask) ||
	    nla_put_u32(skb, MRC_A_EVPROF_FMT_ID, cfg->fmt_id))
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

	hdr = mrc_nl_hdr_put(skb, portid, seq, flags, MRC_CMD_CCPROF_GET);
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

static size_t mrc_nl_evfmt_size(const void *p)
{
	return nla_total_size(0) +			/* MRC_A_EVFMT */
	       nla_total_size(sizeof(u32)) +		/* id */
	       2 * nla_total_size(sizeof(u8)) +	/* state, format */
	       nla_total_size(0) +			/* MRC_A_EVFMT_FIELDS */
	       MRC_EVFMT_FIELDS_MAX * nla_total_size(sizeof(u8));
}

/* Caller holds mrc_net.lock. */
static int mrc_nl_put_evfmt(struct sk_buff *skb, const void *p, u32 portid,
			    u32 seq, int flags, struct netlink_callback *cb)
{
	const struct mrc_evfmt *fmt = p;
	const struct mrc_evfmt_cfg *cfg = &fmt->cfg;
	struct nlattr *nest, *fields;
	void *hdr;
	u8 i;

	hdr = mrc_nl_hdr_put(skb, portid, seq, flags, MRC_CMD_EVFMT_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);

	nest = nla_nest_start(skb, MRC_A_EVFMT);
	if (!nest)
		goto cancel;
	if (nla_put_u32(skb, MRC_A_EVFMT_ID, fmt->id) ||
	    nla_put_u8(skb, MRC_A_EVFMT_STATE, cfg->state) ||
	    nla_put_u8(skb, MRC_A_EVFMT_FORMAT, cfg->format))
		goto cancel;
	fields = nla_nest_start(skb, MRC_A_EVFMT_FIELDS);
	if (!fields)
		goto cancel;
	for (i = 0; i < cfg->n_fields; i++)
		if (nla_put_u8(skb, MRC_A_EVFMT_FIELD, cfg->width[i]))
			goto cancel;
	nla_nest_end(skb, fields);
	nla_nest_end(skb, nest);

	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* BIT(type) of every attribute of a profile nest the request holds. */
static u32 mrc_nl_given(struct nlattr **tb, unsigned int max)
{
	u32 given = 0;
	unsigned int i;

	BUILD_BUG_ON(MRC_A_EVPROF_MAX >= 32 || MRC_A_CCPROF_MAX >= 32);
	for (i = 1; i <= max; i++)
		if (tb[i])
			given |= BIT(i);
	return given;
}

static void mrc_nl_get_u8(struct nlattr **tb, int type, u8 *val)
{
	if (tb[type])
		*val = nla_get_u8(tb[type]);
}

static void mrc_nl_get_u32(struct nlattr **tb, int type, u32 *val)
{
	if (tb[type])
		*val = nla_get_u32(tb[type]);
}

/*
 * Copies MRC_A_EVPROF_ENTRIES into a new array, NULL when empty.  More than
 * MRC_MAX_EVS are only counted: profile.c refuses them, after the checks
 * that come first.
 */
static int mrc_nl_ev_entries(const struct nlattr *nest,
			     struct mrc_evprof_cfg *set)
{
	const struct nlattr *nla;
	u32 count = 0;
	u64 *ev;
	int rem;

	nla_for_each_nested(nla, nest, rem)
		if (nla_type(nla) == MRC_A_EV_ENTRY)
			count++;
	set->n_entries = count;
	if (!count || count > MRC_MAX_EVS)
		return 0;

	ev = kcalloc(count, sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return -ENOMEM;
	count = 0;
	nla_for_each_nested(nla, nest, rem)
		if (nla_type(nla) == MRC_A_EV_ENTRY)
			ev[count++] = nla_get_u64(nla);
	set->entries = ev;
	return 0;
}

/* EVPROF_NEW (@create) or EVPROF_SET from the nest's attributes @tb. */
static int mrc_nl_evprof_apply(struct mrc_net *mn, struct nlattr **tb,
			       bool create, struct netlink_ext_ack *extack)
{
	struct mrc_evprof_req req = {
		.id = nla_get_u32(tb[MRC_A_EVPROF_ID]),
		.create = create,
		.given = mrc_nl_given(tb, MRC_A_EVPROF_MAX),
	};
	struct mrc_evprof_cfg *set = &req.set;
	int err;

	mrc_nl_get_u8(tb, MRC_A_EVPROF_STATE, &set->state);
	mrc_nl_get_u8(tb, MRC_A_EVPROF_MODE, &set->mode);
	mrc_nl_get_u8(tb, MRC_A_EVPROF_FORMAT, &set->format);
	mrc_nl_get_u32(tb, MRC_A_EVPROF_EV_COUNT, &set->ev_count);
	mrc_nl_get_u32(tb, MRC_A_EVPROF_MIN_ACTIVE, &set->min_active);
	mrc_nl_get_u32(tb, MRC_A_EVPROF_BACKUPS, &set->backups);
	mrc_nl_get_u32(tb, MRC_A_EVPROF_EVENT_MASK, &set->event_mask);
	mrc_nl_get_u32(tb, MRC_A_EVPROF_FMT_ID, &set->fmt_id);
	if (tb[MRC_A_EVPROF_ENTRIES]) {
		err = mrc_nl_ev_entries(tb[MRC_A_EVPROF_ENTRIES], set);
		if (err)
			return err;
	}

	err = mrc_evprof_apply(mn, &req, extack);
	if (err) {
		kfree(set->entries);
		if (req.bad)
			NL_SET_BAD_ATTR(extack, tb[req.bad]);
	}
	return err;
}

/* EVFMT_NEW (@create) or EVFMT_SET from the nest's attributes @tb. */
static int mrc_nl_evfmt_apply(struct mrc_net *mn, struct nlattr **tb,
			      bool create, struct netlink_ext_ack *extack)
{
	struct mrc_evfmt_req req = {
		.id = nla_get_u32(tb[MRC_A_EVFMT_ID]),
		.create = create,
		.given = mrc_nl_given(tb, MRC_A_EVFMT_MAX),
	};
	struct mrc_evfmt_cfg *set = &req.set;
	const struct nlattr *nla;
	int rem, err;

	mrc_nl_get_u8(tb, MRC_A_EVFMT_STATE, &set->state);
	mrc_nl_get_u8(tb, MRC_A_EVFMT_FORMAT, &set->format);
	if (tb[MRC_A_EVFMT_FIELDS]) {
		/* Counted past the maximum, which profile.c refuses. */
		nla_for_each_nested(nla, tb[MRC_A_EVFMT_FIELDS], rem) {
			if (nla_type(nla) != MRC_A_EVFMT_FIELD)
				continue;
			if (set->n_fields < MRC_EVFMT_FIELDS_MAX)
				set->width[set->n_fields] = nla_get_u8(nla);
			if (set->n_fields < U8_MAX)
				set->n_fields++;
		}
	}

	err = mrc_evfmt_apply(mn, &req, extack);
	if (err && req.bad)
		NL_SET_BAD_ATTR(extack, tb[req.bad]);
	return err;
}

/* CCPROF_NEW (@create) or CCPROF_SET from the nest's attributes @tb. */
static int mrc_nl_ccprof_apply(struct mrc_net *mn, struct nlattr **tb,
			       bool create, struct netlink_ext_ack *extack)
{
	struct mrc_ccprof_req req = {
		.id = nla_get_u32(tb[MRC_A_CCPROF_ID]),
		.create = create,
		.given = mrc_nl_given(tb, MRC_A_CCPROF_MAX),
	};
	struct mrc_ccprof_cfg *set = &req.set;
	int err;

	mrc_nl_get_u8(tb, MRC_A_CCPROF_STATE, &set->state);
	mrc_nl_get_u8(tb, MRC_A_CCPROF_ALGO, &set->algo);
	mrc_nl_get_u32(tb, MRC_A_CCPROF_BASE_RTT_US, &set->base_rtt_us);
	mrc_nl_get_u32(tb, MRC_A_CCPROF_TARGET_DELAY_US, &set->target_delay_us);
	mrc_nl_get_u32(tb, MRC_A_CCPROF_QA_THRESHOLD_US, &set->qa_threshold_us);
	mrc_nl_get_u32(tb, MRC_A_CCPROF_MIN_CWND, &set->min_cwnd);
	mrc_nl_get_u32(tb, MRC_A_CCPROF_MAX_CWND, &set->max_cwnd);
	mrc_nl_get_u32(tb, MRC_A_CCPROF_GAMMA, &set->gamma);
	mrc_nl_get_u32(tb, MRC_A_CCPROF_MAX_MD_JUMP, &set->max_md_jump);
	mrc_nl_get_u32(tb, MRC_A_CCPROF_ETA, &set->eta);
	mrc_nl_get_u32(tb, MRC_A_CCPROF_FI, &set->fi);

	err = mrc_ccprof_apply(mn, &req, extack);
	if (err && req.bad)
		NL_SET_BAD_ATTR(extack, tb[req.bad]);
	return err;
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
	.apply = mrc_nl_evprof_apply,
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
	.apply = mrc_nl_ccprof_apply,
	.del = mrc_ccprof_del,
	.size = mrc_nl_ccprof_size,
	.put = mrc_nl_put_ccprof,
};

static const struct mrc_nl_prof_kind mrc_nl_evfmt_kind = {
	.nest = MRC_A_EVFMT,
	.id = MRC_A_EVFMT_ID,
	.max = MRC_A_EVFMT_MAX,
	.policy = mrc_evfmt_policy,
	.cmd_new = MRC_CMD_EVFMT_NEW,
	.apply = mrc_nl_evfmt_apply,
	.del = mrc_evfmt_del,
	.size = mrc_nl_evfmt_size,
	.put = mrc_nl_put_evfmt,
};

static const struct mrc_nl_prof_kind *mrc_nl_prof_kind(u8 cmd)
{
	switch (cmd) {
	case MRC_CMD_EVPROF_NEW:
	case MRC_CMD_EVPROF_SET:
	case MRC_CMD_EVPROF_GET:
	case MRC_CMD_EVPROF_DEL:
		return &mrc_nl_evprof_kind;
	case MRC_CMD_EVFMT_NEW:
	case MRC_CMD_EVFMT_SET:
	case MRC_CMD_EVFMT_GET:
	case MRC_CMD_EVFMT_DEL:
		return &mrc_nl_evfmt_kind;
	default:
		return &mrc_nl_ccprof_kind;
	}
}

static struct xarray *mrc_nl_prof_store(struct mrc_net *mn,
					const struct mrc_nl_prof_kind *kind)
{
	if (kind == &mrc_nl_evprof_kind)
		return &mn->evprofs;
	if (kind == &mrc_nl_evfmt_kind)
		return &mn->evfmts;
	return &mn->ccprofs;
}

/* Fills @tb (MRC_NL_PROF_TB entries) from the request's nest; needs the id. */
static int mrc_nl_prof_parse(struct genl_info *info,
			     const struct mrc_nl_prof_kind *kind,
			     struct nlattr **tb)
{
	int err;

	BUILD_BUG_ON(MRC_A_EVPROF_MAX >= MRC_NL_PROF_TB);
	BUILD_BUG_ON(MRC_A_EVFMT_MAX >= MRC_NL_PROF_TB);
	if (GENL_REQ_ATTR_CHECK(info, kind->nest)) {
		/* NL_SET_ERR_MSG() takes a literal: one per kind. */
		if (kind == &mrc_nl_evprof_kind)
			NL_SET_ERR_MSG(info->extack,
				       "missing evprofile attributes");
		else if (kind == &mrc_nl_evfmt_kind)
			NL_SET_ERR_MSG(info->extack,
				       "missing evformat attributes");
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
		else if (kind == &mrc_nl_evfmt_kind)
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[kind->nest],
					    "missing evformat id");
		else
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[kind->nest],
					    "missing ccprofile id");
		return -EINVAL;
	}
	return 0;
}

/* EVPROF_NEW/SET, CCPROF_NEW/SET */
int mrc_nl_prof_apply(struct sk_buff *skb, struct genl_info *info)
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

int mrc_nl_prof_del(struct sk_buff *skb, struct genl_info *info)
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

int mrc_nl_prof_get(struct sk_buff *skb, struct genl_info *info)
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
		else if (kind == &mrc_nl_evfmt_kind)
			NL_SET_ERR_MSG_ATTR(info->extack, tb[kind->id],
					    "no such evformat");
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

/**
 * struct mrc_nl_prof_dump_ctx - where a profile dump goes on, in cb->ctx
 * @next_id: the id of the next profile to send
 */
struct mrc_nl_prof_dump_ctx {
	unsigned long next_id;
};

/*
 * The xarray walks ids in increasing order, so profiles deleted between
 * parts never make a dump skip or repeat one that stays.
 */
int mrc_nl_prof_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct mrc_nl_prof_dump_ctx *ctx = (void *)cb->ctx;
	const struct genlmsghdr *gh = nlmsg_data(cb->nlh);
	const struct mrc_nl_prof_kind *kind = mrc_nl_prof_kind(gh->cmd);
	struct mrc_net *mn = mrc_net(sock_net(skb->sk));
	unsigned long id;
	void *prof;
	int err = 0;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	mutex_lock(&mn->lock);
	cb->seq = mn->prof_genid;
	xa_for_each_start(mrc_nl_prof_store(mn, kind), id, prof, ctx->next_id) {
		err = kind->put(skb, prof, NETLINK_CB(cb->skb).portid,
				cb->nlh->nlmsg_seq, NLM_F_MULTI, cb);
		if (err)
			break;
		ctx->next_id = id + 1;
	}
	mutex_unlock(&mn->lock);

	/* A full EV profile (256 entries) fits an empty part of NLMSG_GOODSIZE. */
	if (err && !skb->len)
		return err;
	return skb->len;
}

