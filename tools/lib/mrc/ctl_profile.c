// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The controller's profiles: EV format, EV and CC profiles of the OCP API
 * on the family's EVFMT, EVPROF and CCPROF commands, in the namespace of
 * the context's device.  A modify of an id that does not exist creates
 * the profile (the API has no create call), then applies the rest.
 * Documentation/libmrc.md says how each attribute maps and what is refused.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MRC_CTL_NSCC "uet-1.0-nscc"

static int mrc_ctl_state(enum mrc_ctl_profile_state s, uint8_t *out)
{
	switch (s) {
	case MRC_CTL_PROFILE_INIT:
		*out = MRC_PROFILE_STATE_INIT;
		return 0;
	case MRC_CTL_PROFILE_OFFLINE:
		*out = MRC_PROFILE_STATE_OFFLINE;
		return 0;
	case MRC_CTL_PROFILE_ONLINE:
		*out = MRC_PROFILE_STATE_ONLINE;
		return 0;
	}
	return EINVAL;
}

/* The API's format bits and mrc's format numbers. */
static int mrc_ctl_fmt_to(enum mrc_ctl_ev_fmt_mode m, uint8_t *out)
{
	switch (m) {
	case MRC_CTL_EV_FMT_MODE_STEV:
		*out = MRC_EV_FORMAT_STEV;
		return 0;
	case MRC_CTL_EV_FMT_MODE_SRV6:
		*out = MRC_EV_FORMAT_SRV6;
		return 0;
	case MRC_CTL_EV_FMT_MODE_UDP:
		*out = MRC_EV_FORMAT_UDP;
		return 0;
	}
	return EINVAL;
}

static enum mrc_ctl_ev_fmt_mode mrc_ctl_fmt_from(uint8_t f)
{
	return f == MRC_EV_FORMAT_STEV ? MRC_CTL_EV_FMT_MODE_STEV :
	       f == MRC_EV_FORMAT_SRV6 ? MRC_CTL_EV_FMT_MODE_SRV6 :
	       MRC_CTL_EV_FMT_MODE_UDP;
}

/* ---- one profile, fetched: the kinds share the request and the reply ---- */

/* One kind of profile: its commands and attributes. */
struct mrc_ctl_kind {
	uint8_t get, new, set, del;
	uint16_t nest, id, state;
	unsigned int max;
	const enum mnl_attr_data_type *types;
};

/* A GET's answer: the profile's nest, copied out of the netlink buffer. */
struct mrc_ctl_prof {
	const struct mrc_ctl_kind *k;
	char buf[4096];
	const struct nlattr *tb[16];
	bool found;
};

static int mrc_ctl_prof_cb(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type top[MRC_A_MAX + 1] = {
		[MRC_A_EVPROF] = MNL_TYPE_NESTED,
		[MRC_A_CCPROF] = MNL_TYPE_NESTED,
		[MRC_A_EVFMT] = MNL_TYPE_NESTED,
	};
	const struct nlattr *tb[MRC_A_MAX + 1];
	struct mrc_ctl_prof *p = data;
	const struct nlattr *nest;

	if (mrc_nl_parse(nlh, NULL, tb, MRC_A_MAX, top) < 0 || !tb[p->k->nest])
		return MNL_CB_ERROR;
	/* nla_len counts the attribute's header too. */
	if (mnl_attr_get_len(tb[p->k->nest]) > sizeof(p->buf))
		return MNL_CB_ERROR;
	memcpy(p->buf, tb[p->k->nest], mnl_attr_get_len(tb[p->k->nest]));
	nest = (const struct nlattr *)p->buf;
	if (mrc_nl_parse(NULL, nest, p->tb, p->k->max, p->k->types) < 0)
		return MNL_CB_ERROR;
	p->found = true;
	return MNL_CB_OK;
}

static int mrc_ctl_prof_get(struct mrc_context *ctx, uint32_t id,
			    struct mrc_ctl_prof *p)
{
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int err;

	nlh = mrc_nl_msg(&ctx->nl, p->k->get);
	nest = mnl_attr_nest_start(nlh, p->k->nest);
	mnl_attr_put_u32(nlh, p->k->id, id);
	mnl_attr_nest_end(nlh, nest);
	err = mrc_nl_talk(&ctx->nl, nlh, mrc_ctl_prof_cb, p);
	if (!err && !p->found)
		err = EPROTO;
	return err;
}

/*
 * The start of a modify: NEW for an id that is not there (the API has no
 * create call), else SET, with the id put and the nest open; NULL and
 * *@err when the lookup failed.
 */
static struct nlmsghdr *mrc_ctl_prof_begin(struct mrc_context *ctx,
					   struct mrc_ctl_prof *p, uint32_t id,
					   bool *create, struct nlattr **nest,
					   int *err)
{
	struct nlmsghdr *nlh;

	*err = mrc_ctl_prof_get(ctx, id, p);
	if (*err && *err != ENOENT)
		return NULL;
	*create = *err == ENOENT;
	*err = 0;
	nlh = mrc_nl_msg(&ctx->nl, *create ? p->k->new : p->k->set);
	*nest = mnl_attr_nest_start(nlh, p->k->nest);
	mnl_attr_put_u32(nlh, p->k->id, id);
	return nlh;
}

/*
 * A new profile starts in INIT: the state it is asked for comes after.
 * When @created and that fails, the profile goes again, so that a refused
 * call leaves nothing behind.
 */
static int mrc_ctl_prof_state(struct mrc_context *ctx,
			      const struct mrc_ctl_kind *k, uint32_t id,
			      uint8_t state, bool created)
{
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int err;

	nlh = mrc_nl_msg(&ctx->nl, k->set);
	nest = mnl_attr_nest_start(nlh, k->nest);
	mnl_attr_put_u32(nlh, k->id, id);
	mnl_attr_put_u8(nlh, k->state, state);
	mnl_attr_nest_end(nlh, nest);
	err = mrc_nl_talk(&ctx->nl, nlh, NULL, NULL);
	if (!err || !created)
		return err;
	nlh = mrc_nl_msg(&ctx->nl, k->del);
	nest = mnl_attr_nest_start(nlh, k->nest);
	mnl_attr_put_u32(nlh, k->id, id);
	mnl_attr_nest_end(nlh, nest);
	mrc_nl_talk(&ctx->nl, nlh, NULL, NULL);
	return err;
}

/* The id the API gives, as the family's (1 to 65535). */
static int mrc_ctl_id(uint64_t id, uint32_t *out)
{
	if (!id || id > MRC_PROFILE_ID_MAX)
		return EINVAL;
	*out = (uint32_t)id;
	return 0;
}

/* ---- EV format profiles -------------------------------------------------- */

static const enum mnl_attr_data_type mrc_ctl_evfmt_types[MRC_A_EVFMT_MAX + 1] = {
	[MRC_A_EVFMT_ID] = MNL_TYPE_U32,
	[MRC_A_EVFMT_STATE] = MNL_TYPE_U8,
	[MRC_A_EVFMT_FORMAT] = MNL_TYPE_U8,
	[MRC_A_EVFMT_FIELDS] = MNL_TYPE_NESTED,
};

static const struct mrc_ctl_kind mrc_ctl_evfmt = {
	MRC_CMD_EVFMT_GET, MRC_CMD_EVFMT_NEW, MRC_CMD_EVFMT_SET,
	MRC_CMD_EVFMT_DEL,
	MRC_A_EVFMT, MRC_A_EVFMT_ID, MRC_A_EVFMT_STATE, MRC_A_EVFMT_MAX,
	mrc_ctl_evfmt_types,
};

#define MRC_CTL_EVFMT_ATTRS \
	(MRC_CTL_EV_FMT_PROFILE_STATE | MRC_CTL_EV_FMT_PROFILE_CUR_STATE | \
	 MRC_CTL_EV_FMT_PROFILE_MODE | MRC_CTL_EV_FMT_PROFILE_OP | \
	 MRC_CTL_EV_FMT_VENDOR_CFG)

static int mrc_ctl_evfmt_modify(struct mrc_context *ctx, uint64_t ev_fmt_id,
				struct mrc_ctl_ev_fmt_profile_attr *a, int mask)
{
	struct mrc_ctl_prof p = { .k = &mrc_ctl_evfmt };
	struct nlmsghdr *nlh;
	struct nlattr *nest, *fields;
	uint8_t state = 0, format = 0;
	uint32_t id;
	bool create;
	int err, i;

	if (!ctx || !a || ((unsigned int)mask & ~(unsigned int)MRC_CTL_EVFMT_ATTRS))
		return EINVAL;
	err = mrc_ctl_id(ev_fmt_id, &id);
	if (!err && (mask & MRC_CTL_EV_FMT_PROFILE_STATE))
		err = mrc_ctl_state(a->profile_state, &state);
	if (!err && (mask & MRC_CTL_EV_FMT_PROFILE_MODE))
		err = mrc_ctl_fmt_to(a->ev_fmt_mode, &format);
	if (!err && (mask & MRC_CTL_EV_FMT_PROFILE_OP) &&
	    (a->ev_fmt_op.op != MRC_CTL_EV_FMT_OP_MODIFY_FIELDS ||
	     a->ev_fmt_op.fmt_field_count < 0 ||
	     (a->ev_fmt_op.fmt_field_count && !a->ev_fmt_op.fmt_fields)))
		err = EINVAL;
	if (err)
		return err;
	if ((mask & MRC_CTL_EV_FMT_VENDOR_CFG) &&
	    !mrc_vendor_cfg_empty(a->vendor_cfg, sizeof(a->vendor_cfg)))
		return EOPNOTSUPP;

	nlh = mrc_ctl_prof_begin(ctx, &p, id, &create, &nest, &err);
	if (!nlh)
		return err;
	if (mask & MRC_CTL_EV_FMT_PROFILE_MODE)
		mnl_attr_put_u8(nlh, MRC_A_EVFMT_FORMAT, format);
	if (mask & MRC_CTL_EV_FMT_PROFILE_OP) {
		fields = mnl_attr_nest_start(nlh, MRC_A_EVFMT_FIELDS);
		for (i = 0; i < a->ev_fmt_op.fmt_field_count &&
		     i <= MRC_EVFMT_FIELDS_MAX; i++)
			mnl_attr_put_u8(nlh, MRC_A_EVFMT_FIELD,
					a->ev_fmt_op.fmt_fields[i].width);
		mnl_attr_nest_end(nlh, fields);
	}
	if (!create && (mask & MRC_CTL_EV_FMT_PROFILE_STATE))
		mnl_attr_put_u8(nlh, MRC_A_EVFMT_STATE, state);
	mnl_attr_nest_end(nlh, nest);
	err = mrc_nl_talk(&ctx->nl, nlh, NULL, NULL);
	if (err || !create || !(mask & MRC_CTL_EV_FMT_PROFILE_STATE) ||
	    state == MRC_PROFILE_STATE_INIT)
		return err;
	return mrc_ctl_prof_state(ctx, &mrc_ctl_evfmt, id, state, true);
}

MRC_EXPORT int
mrc_ctl_modify_ev_fmt_profile(struct mrc_context *mrc_ctx,
			      uint64_t ev_fmt_profile_id,
			      struct mrc_ctl_ev_fmt_profile_attr *attr,
			      int attr_mask)
{
	return mrc_fail(mrc_ctl_evfmt_modify(mrc_ctx, ev_fmt_profile_id, attr,
					     attr_mask));
}

MRC_EXPORT int
mrc_ctl_query_ev_fmt_profile(struct mrc_context *mrc_ctx,
			     uint64_t ev_fmt_profile_id,
			     struct mrc_ctl_ev_fmt_profile_attr *attr,
			     int attr_mask)
{
	struct mrc_ctl_prof p = { .k = &mrc_ctl_evfmt };
	const struct nlattr *f;
	uint32_t id;
	int err, n = 0;

	if (!mrc_ctx || !attr ||
	    ((unsigned int)attr_mask & ~(unsigned int)MRC_CTL_EVFMT_ATTRS) ||
	    ((attr_mask & MRC_CTL_EV_FMT_PROFILE_OP) &&
	     attr->ev_fmt_op.op != MRC_CTL_EV_FMT_OP_QUERY_FIELDS))
		return mrc_fail(EINVAL);
	err = mrc_ctl_id(ev_fmt_profile_id, &id);
	if (!err)
		err = mrc_ctl_prof_get(mrc_ctx, id, &p);
	if (!err && (!p.tb[MRC_A_EVFMT_STATE] || !p.tb[MRC_A_EVFMT_FORMAT] ||
		     !p.tb[MRC_A_EVFMT_FIELDS]))
		err = EPROTO;
	if (err)
		return mrc_fail(err);
	if (attr_mask & (MRC_CTL_EV_FMT_PROFILE_STATE |
			 MRC_CTL_EV_FMT_PROFILE_CUR_STATE))
		attr->cur_profile_state = mnl_attr_get_u8(p.tb[MRC_A_EVFMT_STATE]);
	if (attr_mask & MRC_CTL_EV_FMT_PROFILE_MODE)
		attr->ev_fmt_mode =
			mrc_ctl_fmt_from(mnl_attr_get_u8(p.tb[MRC_A_EVFMT_FORMAT]));
	if (attr_mask & MRC_CTL_EV_FMT_VENDOR_CFG)
		memset(attr->vendor_cfg, 0, sizeof(attr->vendor_cfg));
	if (!(attr_mask & MRC_CTL_EV_FMT_PROFILE_OP))
		return 0;
	mnl_attr_for_each_nested(f, p.tb[MRC_A_EVFMT_FIELDS]) {
		if (mnl_attr_get_type(f) != MRC_A_EVFMT_FIELD)
			continue;
		if (n < attr->ev_fmt_op.fmt_field_count && attr->ev_fmt_op.fmt_fields)
			attr->ev_fmt_op.fmt_fields[n].width = mnl_attr_get_u8(f);
		n++;
	}
	err = n > attr->ev_fmt_op.fmt_field_count ? ENOSPC : 0;
	attr->ev_fmt_op.fmt_field_count = n;
	return mrc_fail(err);
}

/* ---- EV profiles --------------------------------------------------------- */

static const enum mnl_attr_data_type mrc_ctl_evprof_types[MRC_A_EVPROF_MAX + 1] = {
	[MRC_A_EVPROF_ID] = MNL_TYPE_U32,
	[MRC_A_EVPROF_STATE] = MNL_TYPE_U8,
	[MRC_A_EVPROF_MODE] = MNL_TYPE_U8,
	[MRC_A_EVPROF_FORMAT] = MNL_TYPE_U8,
	[MRC_A_EVPROF_EV_COUNT] = MNL_TYPE_U32,
	[MRC_A_EVPROF_MIN_ACTIVE] = MNL_TYPE_U32,
	[MRC_A_EVPROF_EVENT_MASK] = MNL_TYPE_U32,
	[MRC_A_EVPROF_ENTRIES] = MNL_TYPE_NESTED,
	[MRC_A_EVPROF_FMT_ID] = MNL_TYPE_U32,
};

static const struct mrc_ctl_kind mrc_ctl_evprof = {
	MRC_CMD_EVPROF_GET, MRC_CMD_EVPROF_NEW, MRC_CMD_EVPROF_SET,
	MRC_CMD_EVPROF_DEL,
	MRC_A_EVPROF, MRC_A_EVPROF_ID, MRC_A_EVPROF_STATE, MRC_A_EVPROF_MAX,
	mrc_ctl_evprof_types,
};

#define MRC_CTL_EVPROF_ATTRS \
	(MRC_CTL_EV_PROFILE_STATE | MRC_CTL_EV_PROFILE_CUR_STATE | \
	 MRC_CTL_EV_PROFILE_MODE | MRC_CTL_EV_PROFILE_FMT_ID | \
	 MRC_CTL_EV_PROFILE_COUNT | MRC_CTL_EV_PROFILE_MIN_ACTIVE | \
	 MRC_CTL_EV_PROFILE_EVENT_MASK | MRC_CTL_EV_PROFILE_EV_OP | \
	 MRC_CTL_EV_PROFILE_EV_FIELDS_OP | MRC_CTL_EV_PROFILE_VENDOR_CFG)

/* What the family keeps of an EV profile, as a request builds it. */
struct mrc_ctl_evprof {
	uint32_t given;			/* BIT(MRC_A_EVPROF_*) */
	uint8_t state, mode;
	uint32_t fmt_id, ev_count, min_active, event_mask;
	uint32_t n_entries;
	uint64_t entries[MRC_MAX_EVS];
};

/*
 * An EV value: mrc's values are integers of at most 64 bits, kept in the
 * first eight bytes of the API's 32-byte value, least significant first
 * (as the OCP examples memcpy() a host integer into it on x86).  The port
 * is not kept: mrc spreads a profile's EVs over the planes itself.
 */
static int mrc_ctl_ev_get(const struct mrc_ctl_ev *ev, uint64_t *v)
{
	unsigned int i;

	for (i = 8; i < MRC_CTL_EV_MAX_BYTES; i++)
		if (ev->val[i])
			return ERANGE;
	*v = 0;
	for (i = 0; i < 8; i++)
		*v |= (uint64_t)ev->val[i] << (8 * i);
	return 0;
}

static void mrc_ctl_ev_put(uint64_t v, struct mrc_ctl_ev *ev)
{
	unsigned int i;

	memset(ev, 0, sizeof(*ev));
	for (i = 0; i < 8; i++)
		ev->val[i] = (uint8_t)(v >> (8 * i));
}

static bool mrc_ctl_ev_unpopulated(const struct mrc_ctl_ev *ev)
{
	struct mrc_ctl_ev none = MRC_CTL_EV_UNPOPULATED;

	return !memcmp(ev->val, none.val, sizeof(none.val)) && !ev->port;
}

static int mrc_ctl_evprof_load(const struct mrc_ctl_prof *p,
			       struct mrc_ctl_evprof *e)
{
	const struct nlattr *a;
	unsigned int i;

	for (i = MRC_A_EVPROF_STATE; i <= MRC_A_EVPROF_FMT_ID; i++)
		if (!p->tb[i] && i != MRC_A_EVPROF_BACKUPS &&
		    i != MRC_A_EVPROF_FORMAT)
			return EPROTO;
	e->state = mnl_attr_get_u8(p->tb[MRC_A_EVPROF_STATE]);
	e->mode = mnl_attr_get_u8(p->tb[MRC_A_EVPROF_MODE]);
	e->ev_count = mnl_attr_get_u32(p->tb[MRC_A_EVPROF_EV_COUNT]);
	e->min_active = mnl_attr_get_u32(p->tb[MRC_A_EVPROF_MIN_ACTIVE]);
	e->event_mask = mnl_attr_get_u32(p->tb[MRC_A_EVPROF_EVENT_MASK]);
	e->fmt_id = mnl_attr_get_u32(p->tb[MRC_A_EVPROF_FMT_ID]);
	e->n_entries = 0;
	mnl_attr_for_each_nested(a, p->tb[MRC_A_EVPROF_ENTRIES]) {
		if (mnl_attr_get_type(a) != MRC_A_EV_ENTRY)
			continue;
		if (mnl_attr_validate(a, MNL_TYPE_U64) < 0 ||
		    e->n_entries == MRC_MAX_EVS)
			return EPROTO;
		e->entries[e->n_entries++] = mnl_attr_get_u64(a);
	}
	return 0;
}

/* REPLACE_EV: the API's EV array of ev_count slots, mrc's list of the filled. */
static int mrc_ctl_evprof_replace(struct mrc_ctl_evprof *e,
				  const struct mrc_ctl_ev_op_entry *ops, int n)
{
	uint64_t from = 0, to = 0;
	uint32_t j, k;
	int i, err;

	for (i = 0; i < n; i++) {
		bool fill = mrc_ctl_ev_unpopulated(&ops[i].ev);
		bool clear = mrc_ctl_ev_unpopulated(&ops[i].ev_new);

		if (ops[i].flags & ~(uint32_t)MRC_CTL_EV_OP_F_ALL_COPIES)
			return EINVAL;
		err = fill ? 0 : mrc_ctl_ev_get(&ops[i].ev, &from);
		if (!err && !clear)
			err = mrc_ctl_ev_get(&ops[i].ev_new, &to);
		if (err)
			return err;
		if (fill && clear)
			continue;
		if (fill) {
			if (e->n_entries >= e->ev_count)
				return ENOSPC;
			e->entries[e->n_entries++] = to;
			continue;
		}
		for (j = 0; j < e->n_entries && e->entries[j] != from; j++)
			;
		if (j == e->n_entries)
			return ENOENT;
		if (!clear) {
			e->entries[j] = to;
			continue;
		}
		for (k = j + 1; k < e->n_entries; k++)
			e->entries[k - 1] = e->entries[k];
		e->n_entries--;
	}
	e->given |= 1u << MRC_A_EVPROF_ENTRIES;
	return 0;
}

/* The request's attributes, from the API's, into @e (current or default). */
static int mrc_ctl_evprof_take(struct mrc_ctl_evprof *e,
			       const struct mrc_ctl_ev_profile_attr *a,
			       int mask)
{
	int err;

	if (mask & MRC_CTL_EV_PROFILE_MODE) {
		switch (a->ev_mode) {
		case MRC_CTL_EV_MODE_AUTO:
			e->mode = MRC_EV_MODE_AUTO;
			break;
		case MRC_CTL_EV_MODE_EXP:
			e->mode = MRC_EV_MODE_EXP;
			break;
		case MRC_CTL_EV_MODE_GEN:
			return EOPNOTSUPP;	/* generated EVs: not yet */
		default:
			return EINVAL;
		}
		e->given |= 1u << MRC_A_EVPROF_MODE;
	}
	if (mask & MRC_CTL_EV_PROFILE_FMT_ID) {
		if (a->ev_fmt_profile_id > MRC_PROFILE_ID_MAX)
			return EINVAL;
		e->fmt_id = (uint32_t)a->ev_fmt_profile_id;
		e->given |= 1u << MRC_A_EVPROF_FMT_ID;
	}
	if (mask & MRC_CTL_EV_PROFILE_COUNT) {
		/* Bounds the array REPLACE_EV fills, before the kernel sees it. */
		if (!a->ev_count || a->ev_count > MRC_MAX_EVS)
			return EINVAL;
		e->ev_count = a->ev_count;
		e->given |= 1u << MRC_A_EVPROF_EV_COUNT;
	}
	if (mask & MRC_CTL_EV_PROFILE_MIN_ACTIVE) {
		e->min_active = a->ev_min_active;
		e->given |= 1u << MRC_A_EVPROF_MIN_ACTIVE;
	}
	if (mask & MRC_CTL_EV_PROFILE_EVENT_MASK) {
		if ((unsigned int)a->ev_event_mask &
		    ~(unsigned int)(MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD))
			return EINVAL;
		e->event_mask =
			(a->ev_event_mask & MRC_CTL_EV_GOOD ? MRC_EV_EVENT_GOOD : 0) |
			(a->ev_event_mask & MRC_CTL_EV_ASSUMED_BAD ?
			 MRC_EV_EVENT_ASSUMED_BAD : 0);
		e->given |= 1u << MRC_A_EVPROF_EVENT_MASK;
	}
	if (mask & MRC_CTL_EV_PROFILE_STATE) {
		err = mrc_ctl_state(a->profile_state, &e->state);
		if (err)
			return err;
		e->given |= 1u << MRC_A_EVPROF_STATE;
	}
	if (mask & MRC_CTL_EV_PROFILE_EV_OP) {
		if (a->ev_op.entry_count < 0 ||
		    (a->ev_op.entry_count && !a->ev_op.entries))
			return EINVAL;
		switch (a->ev_op.op) {
		case MRC_CTL_EV_OP_REPLACE_EV:
			return mrc_ctl_evprof_replace(e, a->ev_op.entries,
						      a->ev_op.entry_count);
		case MRC_CTL_EV_OP_MODIFY_EV_STATE:
			return EOPNOTSUPP;	/* profile-wide EV states: not yet */
		default:
			return EINVAL;		/* a query, in a modify */
		}
	}
	return 0;
}

static void mrc_ctl_evprof_put(struct nlmsghdr *nlh, uint32_t id,
			       const struct mrc_ctl_evprof *e, uint32_t which)
{
	struct nlattr *nest, *entries;
	uint32_t i;

	nest = mnl_attr_nest_start(nlh, MRC_A_EVPROF);
	mnl_attr_put_u32(nlh, MRC_A_EVPROF_ID, id);
	if (which & (1u << MRC_A_EVPROF_STATE))
		mnl_attr_put_u8(nlh, MRC_A_EVPROF_STATE, e->state);
	if (which & (1u << MRC_A_EVPROF_MODE))
		mnl_attr_put_u8(nlh, MRC_A_EVPROF_MODE, e->mode);
	if (which & (1u << MRC_A_EVPROF_FMT_ID))
		mnl_attr_put_u32(nlh, MRC_A_EVPROF_FMT_ID, e->fmt_id);
	if (which & (1u << MRC_A_EVPROF_EV_COUNT))
		mnl_attr_put_u32(nlh, MRC_A_EVPROF_EV_COUNT, e->ev_count);
	if (which & (1u << MRC_A_EVPROF_MIN_ACTIVE))
		mnl_attr_put_u32(nlh, MRC_A_EVPROF_MIN_ACTIVE, e->min_active);
	if (which & (1u << MRC_A_EVPROF_EVENT_MASK))
		mnl_attr_put_u32(nlh, MRC_A_EVPROF_EVENT_MASK, e->event_mask);
	if (which & (1u << MRC_A_EVPROF_ENTRIES)) {
		entries = mnl_attr_nest_start(nlh, MRC_A_EVPROF_ENTRIES);
		for (i = 0; i < e->n_entries; i++)
			mnl_attr_put_u64(nlh, MRC_A_EV_ENTRY, e->entries[i]);
		mnl_attr_nest_end(nlh, entries);
	}
	mnl_attr_nest_end(nlh, nest);
}

static int mrc_ctl_evprof_modify(struct mrc_context *ctx, uint64_t ev_id,
				 struct mrc_ctl_ev_profile_attr *a, int mask)
{
	struct mrc_ctl_prof p = { .k = &mrc_ctl_evprof };
	uint32_t id, state_bit = 1u << MRC_A_EVPROF_STATE, first;
	struct mrc_ctl_evprof *e;
	struct nlmsghdr *nlh;
	bool create;
	int err;

	if (!ctx || !a || ((unsigned int)mask & ~(unsigned int)MRC_CTL_EVPROF_ATTRS))
		return EINVAL;
	if (mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP)
		return EOPNOTSUPP;	/* generated EVs' fields: not yet */
	if ((mask & MRC_CTL_EV_PROFILE_VENDOR_CFG) &&
	    !mrc_vendor_cfg_empty(a->vendor_cfg, sizeof(a->vendor_cfg)))
		return EOPNOTSUPP;
	err = mrc_ctl_id(ev_id, &id);
	if (err)
		return err;
	e = calloc(1, sizeof(*e));
	if (!e)
		return ENOMEM;

	err = mrc_ctl_prof_get(ctx, id, &p);
	create = err == ENOENT;
	if (!err)
		err = mrc_ctl_evprof_load(&p, e);
	else if (create)
		err = 0;
	if (create)
		e->ev_count = MRC_MAX_EVS;	/* the array's room until given */
	if (!err)
		err = mrc_ctl_evprof_take(e, a, mask);
	if (err)
		goto out;

	/*
	 * A new profile is made in INIT from everything but its state, and
	 * moved in a second request; so is one whose new entries need it
	 * offline first: the family checks each request whole.
	 */
	first = e->given & ~state_bit;
	if (create || first) {
		nlh = mrc_nl_msg(&ctx->nl, create ? MRC_CMD_EVPROF_NEW :
						    MRC_CMD_EVPROF_SET);
		mrc_ctl_evprof_put(nlh, id, e,
				   create ? first : e->given);
		err = mrc_nl_talk(&ctx->nl, nlh, NULL, NULL);
		if (err || !create || !(e->given & state_bit))
			goto out;
	} else if (!(e->given & state_bit)) {
		goto out;
	}
	err = mrc_ctl_prof_state(ctx, &mrc_ctl_evprof, id, e->state, create);
out:
	free(e);
	return err;
}

MRC_EXPORT int mrc_ctl_modify_ev_profile(struct mrc_context *mrc_ctx,
					 uint64_t ev_profile_id,
					 struct mrc_ctl_ev_profile_attr *attr,
					 int attr_mask)
{
	return mrc_fail(mrc_ctl_evprof_modify(mrc_ctx, ev_profile_id, attr,
					      attr_mask));
}

static int mrc_ctl_evprof_query(struct mrc_context *ctx, uint64_t ev_id,
				struct mrc_ctl_ev_profile_attr *a, int mask)
{
	struct mrc_ctl_prof p = { .k = &mrc_ctl_evprof };
	struct mrc_ctl_evprof *e;
	uint32_t id, i;
	int err;

	if (!ctx || !a || ((unsigned int)mask & ~(unsigned int)MRC_CTL_EVPROF_ATTRS))
		return EINVAL;
	if (mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP)
		return EOPNOTSUPP;
	if ((mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	    a->ev_op.op == MRC_CTL_EV_OP_QUERY_EV_STATE)
		return EOPNOTSUPP;
	if ((mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	    (a->ev_op.op != MRC_CTL_EV_OP_QUERY_EV_ARRAY ||
	     a->ev_op.entry_count < 0 ||
	     (a->ev_op.entry_count && !a->ev_op.entries)))
		return EINVAL;
	err = mrc_ctl_id(ev_id, &id);
	if (err)
		return err;
	e = calloc(1, sizeof(*e));
	if (!e)
		return ENOMEM;
	err = mrc_ctl_prof_get(ctx, id, &p);
	if (!err)
		err = mrc_ctl_evprof_load(&p, e);
	if (err)
		goto out;
	if (mask & (MRC_CTL_EV_PROFILE_STATE | MRC_CTL_EV_PROFILE_CUR_STATE))
		a->cur_profile_state = e->state;
	if (mask & MRC_CTL_EV_PROFILE_MODE)
		a->ev_mode = e->mode == MRC_EV_MODE_EXP ? MRC_CTL_EV_MODE_EXP :
			     e->mode == MRC_EV_MODE_GEN ? MRC_CTL_EV_MODE_GEN :
			     MRC_CTL_EV_MODE_AUTO;
	if (mask & MRC_CTL_EV_PROFILE_FMT_ID)
		a->ev_fmt_profile_id = e->fmt_id;
	if (mask & MRC_CTL_EV_PROFILE_COUNT)
		a->ev_count = e->ev_count;
	if (mask & MRC_CTL_EV_PROFILE_MIN_ACTIVE)
		a->ev_min_active = e->min_active;
	if (mask & MRC_CTL_EV_PROFILE_EVENT_MASK)
		a->ev_event_mask =
			(e->event_mask & MRC_EV_EVENT_GOOD ? MRC_CTL_EV_GOOD : 0) |
			(e->event_mask & MRC_EV_EVENT_ASSUMED_BAD ?
			 MRC_CTL_EV_ASSUMED_BAD : 0);
	if (mask & MRC_CTL_EV_PROFILE_VENDOR_CFG)
		memset(a->vendor_cfg, 0, sizeof(a->vendor_cfg));
	if (!(mask & MRC_CTL_EV_PROFILE_EV_OP))
		goto out;
	/* The filled slots in order; their state is the QPs', not the profile's. */
	for (i = 0; i < e->n_entries && i < (uint32_t)a->ev_op.entry_count; i++) {
		memset(&a->ev_op.entries[i], 0, sizeof(a->ev_op.entries[i]));
		mrc_ctl_ev_put(e->entries[i], &a->ev_op.entries[i].ev);
		a->ev_op.entries[i].state = MRC_CTL_EV_UNKNOWN;
	}
	err = e->n_entries > (uint32_t)a->ev_op.entry_count ? ENOSPC : 0;
	a->ev_op.entry_count = (int)e->n_entries;
out:
	free(e);
	return err;
}

MRC_EXPORT int mrc_ctl_query_ev_profile(struct mrc_context *mrc_ctx,
					uint64_t ev_profile_id,
					struct mrc_ctl_ev_profile_attr *attr,
					int attr_mask)
{
	return mrc_fail(mrc_ctl_evprof_query(mrc_ctx, ev_profile_id, attr,
					     attr_mask));
}

/* ---- CC profiles ----------------------------------------------------------- */

static const enum mnl_attr_data_type mrc_ctl_ccprof_types[MRC_A_CCPROF_MAX + 1] = {
	[MRC_A_CCPROF_ID] = MNL_TYPE_U32,
	[MRC_A_CCPROF_STATE] = MNL_TYPE_U8,
	[MRC_A_CCPROF_ALGO] = MNL_TYPE_U8,
	[MRC_A_CCPROF_BASE_RTT_US] = MNL_TYPE_U32,
	[MRC_A_CCPROF_TARGET_DELAY_US] = MNL_TYPE_U32,
	[MRC_A_CCPROF_QA_THRESHOLD_US] = MNL_TYPE_U32,
	[MRC_A_CCPROF_MIN_CWND] = MNL_TYPE_U32,
	[MRC_A_CCPROF_MAX_CWND] = MNL_TYPE_U32,
	[MRC_A_CCPROF_GAMMA] = MNL_TYPE_U32,
	[MRC_A_CCPROF_MAX_MD_JUMP] = MNL_TYPE_U32,
	[MRC_A_CCPROF_ETA] = MNL_TYPE_U32,
	[MRC_A_CCPROF_FI] = MNL_TYPE_U32,
};

static const struct mrc_ctl_kind mrc_ctl_ccprof = {
	MRC_CMD_CCPROF_GET, MRC_CMD_CCPROF_NEW, MRC_CMD_CCPROF_SET,
	MRC_CMD_CCPROF_DEL,
	MRC_A_CCPROF, MRC_A_CCPROF_ID, MRC_A_CCPROF_STATE, MRC_A_CCPROF_MAX,
	mrc_ctl_ccprof_types,
};

#define MRC_CTL_CCPROF_ATTRS \
	(MRC_CTL_CC_PROFILE_STATE | MRC_CTL_CC_PROFILE_CUR_STATE | \
	 MRC_CTL_CC_PROFILE_ALGORITHM | MRC_CTL_CC_PROFILE_CONFIG | \
	 MRC_CTL_CC_PROFILE_VENDOR_CFG)

/* mrc keeps microseconds: a time in ns, rounded up so that 1 ns is not 0. */
static uint32_t mrc_ctl_us(uint32_t ns)
{
	return (uint32_t)(((uint64_t)ns + 999) / 1000);
}

/* A gain of the API (a fraction) as mrc's thousandths; 0 when out of (0, 1]. */
static uint32_t mrc_ctl_permille(float f)
{
	if (!(f > 0.0f) || f > 1.0f)
		return 0;
	return (uint32_t)lroundf(f * 1000.0f) ?: 1;
}

static int mrc_ctl_nscc_put(struct nlmsghdr *nlh,
			    const struct mrc_ctl_cc_nscc_cfg *c)
{
	uint32_t gamma = mrc_ctl_permille(c->gamma);
	uint32_t jump = mrc_ctl_permille(c->max_md_jump);

	if (!gamma || !jump || !(c->eta >= 0.0f) || !(c->fi >= 0.0f) ||
	    c->eta > (float)UINT32_MAX || c->fi > (float)UINT32_MAX)
		return EINVAL;
	mnl_attr_put_u32(nlh, MRC_A_CCPROF_BASE_RTT_US, mrc_ctl_us(c->base_rtt));
	mnl_attr_put_u32(nlh, MRC_A_CCPROF_TARGET_DELAY_US,
			 mrc_ctl_us(c->target_delay));
	mnl_attr_put_u32(nlh, MRC_A_CCPROF_QA_THRESHOLD_US,
			 c->disable_qa ? 0 : mrc_ctl_us(c->qa_threshold));
	mnl_attr_put_u32(nlh, MRC_A_CCPROF_MAX_CWND, c->max_cwnd);
	mnl_attr_put_u32(nlh, MRC_A_CCPROF_GAMMA, gamma);
	mnl_attr_put_u32(nlh, MRC_A_CCPROF_MAX_MD_JUMP, jump);
	mnl_attr_put_u32(nlh, MRC_A_CCPROF_ETA, (uint32_t)lroundf(c->eta));
	mnl_attr_put_u32(nlh, MRC_A_CCPROF_FI, (uint32_t)lroundf(c->fi));
	return 0;
}

static int mrc_ctl_ccprof_modify(struct mrc_context *ctx, uint64_t cc_id,
				 struct mrc_ctl_cc_profile_attr *a, int mask)
{
	struct mrc_ctl_prof p = { .k = &mrc_ctl_ccprof };
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	uint8_t state = 0;
	bool create;
	uint32_t id;
	int err;

	if (!ctx || !a || ((unsigned int)mask & ~(unsigned int)MRC_CTL_CCPROF_ATTRS))
		return EINVAL;
	err = mrc_ctl_id(cc_id, &id);
	if (!err && (mask & MRC_CTL_CC_PROFILE_STATE))
		err = mrc_ctl_state(a->profile_state, &state);
	if (!err && (mask & MRC_CTL_CC_PROFILE_CONFIG) && !a->cc_config)
		err = EINVAL;
	if (err)
		return err;
	/* NSCC is mrc's one algorithm; without CC is not offered. */
	if ((mask & MRC_CTL_CC_PROFILE_ALGORITHM) &&
	    (!a->algorithm || strcmp(a->algorithm, MRC_CTL_NSCC)))
		return EOPNOTSUPP;
	if ((mask & MRC_CTL_CC_PROFILE_VENDOR_CFG) &&
	    !mrc_vendor_cfg_empty(a->vendor_cfg, sizeof(a->vendor_cfg)))
		return EOPNOTSUPP;

	nlh = mrc_ctl_prof_begin(ctx, &p, id, &create, &nest, &err);
	if (!nlh)
		return err;
	if (mask & MRC_CTL_CC_PROFILE_ALGORITHM)
		mnl_attr_put_u8(nlh, MRC_A_CCPROF_ALGO, MRC_CC_ALGO_NSCC);
	if (mask & MRC_CTL_CC_PROFILE_CONFIG) {
		err = mrc_ctl_nscc_put(nlh, a->cc_config);
		if (err) {
			/* Nothing sent: the request is dropped, the lock freed. */
			mrc_nl_cancel(&ctx->nl);
			return err;
		}
	}
	if (!create && (mask & MRC_CTL_CC_PROFILE_STATE))
		mnl_attr_put_u8(nlh, MRC_A_CCPROF_STATE, state);
	mnl_attr_nest_end(nlh, nest);
	err = mrc_nl_talk(&ctx->nl, nlh, NULL, NULL);
	if (err || !create || !(mask & MRC_CTL_CC_PROFILE_STATE) ||
	    state == MRC_PROFILE_STATE_INIT)
		return err;
	return mrc_ctl_prof_state(ctx, &mrc_ctl_ccprof, id, state, true);
}

MRC_EXPORT int mrc_ctl_modify_cc_profile(struct mrc_context *mrc_ctx,
					 uint64_t cc_profile_id,
					 struct mrc_ctl_cc_profile_attr *attr,
					 int attr_mask)
{
	return mrc_fail(mrc_ctl_ccprof_modify(mrc_ctx, cc_profile_id, attr,
					      attr_mask));
}

MRC_EXPORT int mrc_ctl_query_cc_profile(struct mrc_context *mrc_ctx,
					uint64_t cc_profile_id,
					struct mrc_ctl_cc_profile_attr *attr,
					int attr_mask)
{
	struct mrc_ctl_prof p = { .k = &mrc_ctl_ccprof };
	struct mrc_ctl_cc_nscc_cfg *c;
	uint32_t id, i;
	int err;

	if (!mrc_ctx || !attr ||
	    ((unsigned int)attr_mask & ~(unsigned int)MRC_CTL_CCPROF_ATTRS) ||
	    ((attr_mask & MRC_CTL_CC_PROFILE_CONFIG) && !attr->cc_config))
		return mrc_fail(EINVAL);
	err = mrc_ctl_id(cc_profile_id, &id);
	if (!err)
		err = mrc_ctl_prof_get(mrc_ctx, id, &p);
	for (i = MRC_A_CCPROF_STATE; !err && i <= MRC_A_CCPROF_FI; i++)
		if (!p.tb[i])
			err = EPROTO;
	if (err)
		return mrc_fail(err);
	if (attr_mask & (MRC_CTL_CC_PROFILE_STATE | MRC_CTL_CC_PROFILE_CUR_STATE))
		attr->cur_profile_state = mnl_attr_get_u8(p.tb[MRC_A_CCPROF_STATE]);
	if (attr_mask & MRC_CTL_CC_PROFILE_ALGORITHM)
		attr->algorithm = MRC_CTL_NSCC;
	if (attr_mask & MRC_CTL_CC_PROFILE_VENDOR_CFG)
		memset(attr->vendor_cfg, 0, sizeof(attr->vendor_cfg));
	if (!(attr_mask & MRC_CTL_CC_PROFILE_CONFIG))
		return 0;
	/* The API's pointer is const; the caller lends it to be filled. */
	c = (struct mrc_ctl_cc_nscc_cfg *)attr->cc_config;
	memset(c, 0, sizeof(*c));
	c->base_rtt = mnl_attr_get_u32(p.tb[MRC_A_CCPROF_BASE_RTT_US]) * 1000u;
	c->target_delay =
		mnl_attr_get_u32(p.tb[MRC_A_CCPROF_TARGET_DELAY_US]) * 1000u;
	c->qa_threshold =
		mnl_attr_get_u32(p.tb[MRC_A_CCPROF_QA_THRESHOLD_US]) * 1000u;
	c->disable_qa = !c->qa_threshold;
	c->max_cwnd = mnl_attr_get_u32(p.tb[MRC_A_CCPROF_MAX_CWND]);
	c->gamma = mnl_attr_get_u32(p.tb[MRC_A_CCPROF_GAMMA]) / 1000.0f;
	c->max_md_jump = mnl_attr_get_u32(p.tb[MRC_A_CCPROF_MAX_MD_JUMP]) / 1000.0f;
	c->eta = (float)mnl_attr_get_u32(p.tb[MRC_A_CCPROF_ETA]);
	c->fi = (float)mnl_attr_get_u32(p.tb[MRC_A_CCPROF_FI]);
	return 0;
}
