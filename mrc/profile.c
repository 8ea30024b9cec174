// SPDX-License-Identifier: GPL-2.0
/*
 * EV and CC profiles: the per-namespace control objects QPs will name by id.
 * Pure checks of a profile's settings come first (KUnit suite "mrc-profile"),
 * then the objects themselves, which live under mrc_net.lock.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/math.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>
#include <linux/netlink.h>

#include "mrc.h"

/* Settings that shape a QP's EV set: fixed while the profile is ONLINE. */
#define MRC_EVPROF_FIXED_ONLINE	(BIT(MRC_A_EVPROF_MODE) |		\
				 BIT(MRC_A_EVPROF_FORMAT) |		\
				 BIT(MRC_A_EVPROF_EV_COUNT) |		\
				 BIT(MRC_A_EVPROF_BACKUPS) |		\
				 BIT(MRC_A_EVPROF_ENTRIES) |		\
				 BIT(MRC_A_EVPROF_FMT_ID))
#define MRC_CCPROF_FIXED_ONLINE	BIT(MRC_A_CCPROF_ALGO)
/* What an EV value is: fixed while ONLINE, and while an EV profile names it. */
#define MRC_EVFMT_FIXED		(BIT(MRC_A_EVFMT_FORMAT) |		\
				 BIT(MRC_A_EVFMT_FIELDS))

/* ---- pure checks ------------------------------------------------------ */

/* A quarter of the EVs, rounded up: one bad plane of four never hits it. */
u32 mrc_evprof_min_active_default(u32 ev_count)
{
	return max_t(u32, 1, DIV_ROUND_UP(ev_count, 4));
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_evprof_min_active_default);

void mrc_evprof_defaults(struct mrc_evprof_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->state = MRC_PROFILE_STATE_INIT;
	cfg->mode = MRC_EV_MODE_AUTO;
	cfg->format = MRC_EV_FORMAT_UDP;
	cfg->ev_count = MRC_EVPROF_EV_COUNT_DEFAULT;
	cfg->min_active = mrc_evprof_min_active_default(cfg->ev_count);
	cfg->backups = MRC_EVPROF_BACKUPS_DEFAULT;
	cfg->event_mask = MRC_EV_EVENTS_ALL;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_evprof_defaults);

void mrc_ccprof_defaults(struct mrc_ccprof_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->state = MRC_PROFILE_STATE_INIT;
	cfg->algo = MRC_CC_ALGO_NSCC;
	cfg->base_rtt_us = MRC_CCPROF_BASE_RTT_US_DEFAULT;
	cfg->target_delay_us = MRC_CCPROF_TARGET_US_DEFAULT;
	cfg->qa_threshold_us = MRC_CCPROF_QA_US_DEFAULT;
	cfg->min_cwnd = MRC_CCPROF_MIN_CWND_DEFAULT;
	cfg->max_cwnd = MRC_CCPROF_MAX_CWND_DEFAULT;
	cfg->gamma = MRC_CCPROF_GAMMA_DEFAULT;
	cfg->max_md_jump = MRC_CCPROF_MAX_MD_JUMP_DEFAULT;
	cfg->eta = MRC_CCPROF_ETA_DEFAULT;
	cfg->fi = MRC_CCPROF_FI_DEFAULT;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ccprof_defaults);

/* A new EV format profile: the UDP source port, one 16-bit field. */
void mrc_evfmt_defaults(struct mrc_evfmt_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->state = MRC_PROFILE_STATE_INIT;
	cfg->format = MRC_EV_FORMAT_UDP;
	cfg->n_fields = 1;
	cfg->width[0] = 16;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_evfmt_defaults);

/*
 * Bits of an EV of a format: the UDP source port; STEV's flow label and
 * port; SRV6's 128-bit uSID carrier, the most a path's EV can name.
 */
u32 mrc_ev_format_bits(u8 format)
{
	switch (format) {
	case MRC_EV_FORMAT_UDP:
		return 16;
	case MRC_EV_FORMAT_STEV:
		return 36;
	default:
		return 128;
	}
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_format_bits);

/* Bits of an EV value under an EV format profile: its fields together. */
u32 mrc_evfmt_bits(const struct mrc_evfmt_cfg *cfg)
{
	u32 bits = 0;
	u8 i;

	for (i = 0; i < cfg->n_fields && i < MRC_EVFMT_FIELDS_MAX; i++)
		bits += cfg->width[i];
	return bits;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_evfmt_bits);

int mrc_evfmt_check(const struct mrc_evfmt_cfg *cfg,
		    struct netlink_ext_ack *extack)
{
	u8 i;

	if (!cfg->n_fields || cfg->n_fields > MRC_EVFMT_FIELDS_MAX) {
		NL_SET_ERR_MSG(extack, "an evformat has 1 to 8 fields");
		return -EINVAL;
	}
	for (i = 0; i < cfg->n_fields; i++) {
		if (!cfg->width[i] ||
		    cfg->width[i] > MRC_EVFMT_FIELD_BITS_MAX) {
			NL_SET_ERR_MSG(extack, "a field is 1 to 64 bits wide");
			return -ERANGE;
		}
	}
	if (mrc_evfmt_bits(cfg) > mrc_ev_format_bits(cfg->format)) {
		NL_SET_ERR_MSG(extack,
			       "the fields are wider than the format's EV");
		return -ERANGE;
	}
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_evfmt_check);

int mrc_evfmt_may_change(u8 old_state, u8 new_state, u32 changed,
			 struct netlink_ext_ack *extack)
{
	if (old_state == MRC_PROFILE_STATE_ONLINE &&
	    new_state == MRC_PROFILE_STATE_ONLINE &&
	    (changed & MRC_EVFMT_FIXED)) {
		NL_SET_ERR_MSG(extack,
			       "evformat is online: format and fields need it offline");
		return -EBUSY;
	}
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_evfmt_may_change);

/*
 * Largest explicit EV of a format, 0 when explicit EVs of that format are
 * not supported.  UDP: the source port.  STEV: flow label << 16 | port.
 */
u64 mrc_ev_format_max(u8 format)
{
	switch (format) {
	case MRC_EV_FORMAT_UDP:
		return U16_MAX;
	case MRC_EV_FORMAT_STEV:
		return MRC_EV_STEV_MAX;
	default:
		return 0;
	}
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_format_max);

/* At most MRC_MAX_EVS entries, so the quadratic duplicate scan is cheap. */
int mrc_ev_entries_check(u8 format, const u64 *entries, u32 n,
			 struct netlink_ext_ack *extack)
{
	u64 max = mrc_ev_format_max(format);
	u32 i, j;

	if (!n)
		return 0;
	if (!max) {
		NL_SET_ERR_MSG(extack,
			       "explicit EV entries are not supported for this format yet");
		return -EOPNOTSUPP;
	}
	if (n > MRC_MAX_EVS) {
		NL_SET_ERR_MSG(extack, "too many EV entries");
		return -E2BIG;
	}
	for (i = 0; i < n; i++) {
		if (entries[i] > max) {
			NL_SET_ERR_MSG(extack,
				       "EV entry does not fit the format's entropy field");
			return -ERANGE;
		}
		for (j = 0; j < i; j++) {
			if (entries[j] == entries[i]) {
				NL_SET_ERR_MSG(extack, "duplicate EV entry");
				return -EINVAL;
			}
		}
	}
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_entries_check);

/* Consistency of a whole EV profile, as it would be after a request. */
int mrc_evprof_check(const struct mrc_evprof_cfg *cfg,
		     struct netlink_ext_ack *extack)
{
	int err;

	if (cfg->mode == MRC_EV_MODE_GEN) {
		NL_SET_ERR_MSG(extack,
			       "mode gen (generated EVs) is not supported yet");
		return -EOPNOTSUPP;
	}
	if (!cfg->ev_count || cfg->ev_count > MRC_MAX_EVS) {
		NL_SET_ERR_MSG(extack, "ev_count out of range");
		return -ERANGE;
	}
	if (!cfg->min_active || cfg->min_active > cfg->ev_count) {
		NL_SET_ERR_MSG(extack, "min_active must be 1 to ev_count");
		return -ERANGE;
	}
	if (cfg->backups > MRC_MAX_BACKUPS) {
		NL_SET_ERR_MSG(extack, "backups out of range");
		return -ERANGE;
	}
	if (cfg->event_mask & ~MRC_EV_EVENTS_ALL) {
		NL_SET_ERR_MSG(extack, "unknown bit in event_mask");
		return -EINVAL;
	}
	if (cfg->n_entries && cfg->mode != MRC_EV_MODE_EXP) {
		NL_SET_ERR_MSG(extack, "EV entries need mode exp");
		return -EINVAL;
	}
	if (cfg->n_entries > cfg->ev_count) {
		NL_SET_ERR_MSG(extack, "more EV entries than ev_count");
		return -E2BIG;
	}
	err = mrc_ev_entries_check(cfg->format, cfg->entries, cfg->n_entries,
				   extack);
	if (err)
		return err;
	if (cfg->state == MRC_PROFILE_STATE_ONLINE &&
	    cfg->mode == MRC_EV_MODE_EXP && cfg->n_entries < cfg->min_active) {
		NL_SET_ERR_MSG(extack,
			       "mode exp needs at least min_active EV entries online");
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_evprof_check);

int mrc_ccprof_check(const struct mrc_ccprof_cfg *cfg,
		     struct netlink_ext_ack *extack)
{
	if (cfg->algo != MRC_CC_ALGO_NSCC) {
		NL_SET_ERR_MSG(extack, "only the nscc algorithm is supported");
		return -EOPNOTSUPP;
	}
	if (!cfg->base_rtt_us || cfg->base_rtt_us > MRC_CCPROF_US_MAX ||
	    !cfg->target_delay_us || cfg->target_delay_us > MRC_CCPROF_US_MAX ||
	    cfg->qa_threshold_us > MRC_CCPROF_US_MAX) {
		NL_SET_ERR_MSG(extack, "delay out of range");
		return -ERANGE;
	}
	if (cfg->min_cwnd < MRC_CCPROF_CWND_MIN ||
	    cfg->max_cwnd > MRC_CCPROF_CWND_MAX) {
		NL_SET_ERR_MSG(extack, "window out of range");
		return -ERANGE;
	}
	if (!cfg->gamma || cfg->gamma > MRC_CCPROF_PERMILLE_MAX ||
	    !cfg->max_md_jump || cfg->max_md_jump > MRC_CCPROF_PERMILLE_MAX ||
	    cfg->eta > MRC_CCPROF_ETA_MAX || cfg->fi > MRC_CCPROF_FI_MAX) {
		NL_SET_ERR_MSG(extack, "gain out of range");
		return -ERANGE;
	}
	if (cfg->target_delay_us < cfg->base_rtt_us) {
		NL_SET_ERR_MSG(extack, "target_delay_us is below base_rtt_us");
		return -EINVAL;
	}
	if (cfg->qa_threshold_us && cfg->qa_threshold_us < cfg->target_delay_us) {
		NL_SET_ERR_MSG(extack,
			       "qa_threshold_us is below target_delay_us");
		return -EINVAL;
	}
	if (cfg->min_cwnd > cfg->max_cwnd) {
		NL_SET_ERR_MSG(extack, "min_cwnd is larger than max_cwnd");
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ccprof_check);

/* A state the controller asks for: ONLINE or OFFLINE, never back to INIT. */
int mrc_profile_state_check(u8 state, struct netlink_ext_ack *extack)
{
	if (state == MRC_PROFILE_STATE_ONLINE ||
	    state == MRC_PROFILE_STATE_OFFLINE)
		return 0;
	NL_SET_ERR_MSG(extack, "state can only be set to online or offline");
	return -EINVAL;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_profile_state_check);

/*
 * @changed has BIT(attribute type) for every attribute of the request.  A
 * request that keeps an ONLINE profile ONLINE may not touch the settings QPs
 * were built from; taking it OFFLINE in the same request is allowed.
 */
int mrc_evprof_may_change(u8 old_state, u8 new_state, u32 changed,
			  struct netlink_ext_ack *extack)
{
	if (old_state == MRC_PROFILE_STATE_ONLINE &&
	    new_state == MRC_PROFILE_STATE_ONLINE &&
	    (changed & MRC_EVPROF_FIXED_ONLINE)) {
		NL_SET_ERR_MSG(extack,
			       "evprofile is online: mode, format, ev_count, backups, entries and evformat need it offline");
		return -EBUSY;
	}
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_evprof_may_change);

int mrc_ccprof_may_change(u8 old_state, u8 new_state, u32 changed,
			  struct netlink_ext_ack *extack)
{
	if (old_state == MRC_PROFILE_STATE_ONLINE &&
	    new_state == MRC_PROFILE_STATE_ONLINE &&
	    (changed & MRC_CCPROF_FIXED_ONLINE)) {
		NL_SET_ERR_MSG(extack,
			       "ccprofile is online: the algorithm needs it offline");
		return -EBUSY;
	}
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ccprof_may_change);

/* ---- objects, under mrc_net.lock --------------------------------------- */

/* A setting a request gives (BIT(@type) in @given) replaces @val. */
static void mrc_take_u8(u32 given, int type, u8 *val, u8 set)
{
	if (given & BIT(type))
		*val = set;
}

static void mrc_take_u32(u32 given, int type, u32 *val, u32 set)
{
	if (given & BIT(type))
		*val = set;
}

/* ---- devices naming profiles ----------------------------------------- */

/* A device that names no profile: module parameters and CC defaults. */
void mrc_dev_prof_defaults(struct mrc_dev_prof *p)
{
	memset(p, 0, sizeof(*p));
	p->backups = MRC_EV_BACKUP;
	p->event_mask = MRC_EV_EVENTS_ALL;
	mrc_ccprof_defaults(&p->cc);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_dev_prof_defaults);

/* The EV settings of @src into @dst, all but the profile id. */
void mrc_dev_prof_take_ev(struct mrc_dev_prof *dst,
			  const struct mrc_dev_prof *src)
{
	dst->ev_count = src->ev_count;
	dst->min_active = src->min_active;
	dst->backups = src->backups;
	dst->event_mask = src->event_mask;
	dst->ev_format = src->ev_format;
}

/* The device that names profile @id of a kind, if any; under mrc_net.lock. */
static struct mrc_device *mrc_prof_user(struct mrc_net *mn, u32 id, bool ev)
{
	struct mrc_device *mdev;

	list_for_each_entry(mdev, &mn->devices, list)
		if ((ev ? mdev->prof.evprof_id : mdev->prof.ccprof_id) == id)
			return mdev;
	return NULL;
}

static void mrc_dev_prof_ev(struct mrc_dev_prof *p,
			    const struct mrc_evprof_cfg *cfg)
{
	p->ev_count = cfg->ev_count;
	p->min_active = cfg->min_active;
	p->backups = cfg->backups;
	p->event_mask = cfg->event_mask;
	p->ev_format = cfg->format;
}

/* A named profile changed: its devices' QPs see the change from now on. */
static void mrc_prof_refresh(struct mrc_net *mn, u32 id, bool ev,
			     const void *cfg)
{
	struct mrc_device *mdev;
	struct mrc_dev_prof p;

	list_for_each_entry(mdev, &mn->devices, list) {
		if ((ev ? mdev->prof.evprof_id : mdev->prof.ccprof_id) != id)
			continue;
		p = mdev->prof;
		if (ev)
			mrc_dev_prof_ev(&p, cfg);
		else
			p.cc = *(const struct mrc_ccprof_cfg *)cfg;
		mrc_dev_prof_set(mdev, &p);
	}
}

/*
 * A device may only name an ONLINE profile, and a named profile stays ONLINE
 * (the SET handlers refuse to take it offline), so that a QP always finds
 * settings that were checked whole.  A QP names one the same way
 * (MRC_CMD_QP_SET, @for_qp) but keeps a copy of its settings.  Only AUTO-mode EV profiles can shape
 * a QP's EV set so far, in the UDP or STEV format (drawn entropies, STEV
 * adding the flow label derived from each): explicit and generated EVs
 * need the per-QP EV programming of the SRv6 issue.
 */
int mrc_dev_prof_ev_lookup(struct mrc_net *mn, u32 id,
			   struct mrc_dev_prof *next, bool for_qp,
			   struct netlink_ext_ack *extack)
{
	struct mrc_evprof *prof;

	next->evprof_id = id;
	if (!id) {
		struct mrc_dev_prof none;

		mrc_dev_prof_defaults(&none);
		mrc_dev_prof_take_ev(next, &none);
		return 0;
	}
	prof = xa_load(&mn->evprofs, id);
	if (!prof) {
		NL_SET_ERR_MSG(extack, "no such evprofile");
		return -ENOENT;
	}
	if (prof->cfg.state != MRC_PROFILE_STATE_ONLINE) {
		NL_SET_ERR_MSG(extack, "evprofile is not online");
		return -EINVAL;
	}
	if (prof->cfg.mode != MRC_EV_MODE_AUTO ||
	    prof->cfg.format == MRC_EV_FORMAT_SRV6) {
		if (for_qp)
			NL_SET_ERR_MSG(extack,
				       "only auto-mode udp or stev evprofiles can be named by a QP so far");
		else
			NL_SET_ERR_MSG(extack,
				       "only auto-mode udp or stev evprofiles can be named by a device so far");
		return -EOPNOTSUPP;
	}
	mrc_dev_prof_ev(next, &prof->cfg);
	return 0;
}

int mrc_dev_prof_cc_lookup(struct mrc_net *mn, u32 id,
			   struct mrc_dev_prof *next,
			   struct netlink_ext_ack *extack)
{
	struct mrc_ccprof *prof;

	next->ccprof_id = id;
	if (!id) {
		mrc_ccprof_defaults(&next->cc);
		return 0;
	}
	prof = xa_load(&mn->ccprofs, id);
	if (!prof) {
		NL_SET_ERR_MSG(extack, "no such ccprofile");
		return -ENOENT;
	}
	if (prof->cfg.state != MRC_PROFILE_STATE_ONLINE) {
		NL_SET_ERR_MSG(extack, "ccprofile is not online");
		return -EINVAL;
	}
	next->cc = prof->cfg;
	return 0;
}

/**
 * mrc_dev_prof_resolve() - the settings a device takes from the profiles
 *	named in a request
 * @mn: the namespace, locked
 * @req: the profiles the request names, NULL for none at all; @req->bad
 *	says which one a refusal is about
 * @cur: the device's current settings, NULL for a new device (no profiles)
 * @next: filled in
 * @extack: the reason of a refusal
 *
 * Return: 0, or the errno of the first profile that cannot be named.
 */
int mrc_dev_prof_resolve(struct mrc_net *mn, struct mrc_dev_prof_req *req,
			 const struct mrc_dev_prof *cur,
			 struct mrc_dev_prof *next,
			 struct netlink_ext_ack *extack)
{
	int err;

	lockdep_assert_held(&mn->lock);

	if (cur)
		*next = *cur;
	else
		mrc_dev_prof_defaults(next);
	if (req && req->ev) {
		err = mrc_dev_prof_ev_lookup(mn, req->evprof_id, next, false,
					     extack);
		if (err) {
			req->bad = MRC_A_DEV_EVPROF_ID;
			return err;
		}
	}
	if (req && req->cc) {
		err = mrc_dev_prof_cc_lookup(mn, req->ccprof_id, next, extack);
		if (err) {
			req->bad = MRC_A_DEV_CCPROF_ID;
			return err;
		}
	}
	return 0;
}

/* Writers hold mrc_net.lock; readers may sit under a QP's lock. */
void mrc_dev_prof_set(struct mrc_device *mdev, const struct mrc_dev_prof *prof)
{
	spin_lock_bh(&mdev->prof_lock);
	mdev->prof = *prof;
	spin_unlock_bh(&mdev->prof_lock);
}

void mrc_dev_prof_get(struct mrc_device *mdev, struct mrc_dev_prof *prof)
{
	spin_lock_bh(&mdev->prof_lock);
	*prof = mdev->prof;
	spin_unlock_bh(&mdev->prof_lock);
}

/* ---- EV format profiles ------------------------------------------------ */

/* An EV profile that names EV format profile @id (an ONLINE one if @online). */
static bool mrc_evfmt_named(struct mrc_net *mn, u32 id, bool online)
{
	struct mrc_evprof *prof;
	unsigned long i;

	xa_for_each(&mn->evprofs, i, prof)
		if (prof->cfg.fmt_id == id &&
		    (!online || prof->cfg.state == MRC_PROFILE_STATE_ONLINE))
			return true;
	return false;
}

/*
 * An EV profile that names format profile @cfg->fmt_id takes its format; a
 * FORMAT given with it must agree.  Going ONLINE needs the format profile
 * ONLINE, so that what QPs are built from is fixed on both.
 */
static int mrc_evprof_fmt(struct mrc_net *mn, struct mrc_evprof_cfg *cfg,
			  struct mrc_evprof_req *req,
			  struct netlink_ext_ack *extack)
{
	struct mrc_evfmt *fmt = xa_load(&mn->evfmts, cfg->fmt_id);

	req->bad = MRC_A_EVPROF_FMT_ID;
	if (!fmt) {
		NL_SET_ERR_MSG(extack, "no such evformat");
		return -ENOENT;
	}
	if ((req->given & BIT(MRC_A_EVPROF_FORMAT)) &&
	    req->set.format != fmt->cfg.format) {
		NL_SET_ERR_MSG(extack, "the format differs from the evformat's");
		req->bad = MRC_A_EVPROF_FORMAT;
		return -EINVAL;
	}
	if (cfg->state == MRC_PROFILE_STATE_ONLINE &&
	    fmt->cfg.state != MRC_PROFILE_STATE_ONLINE) {
		NL_SET_ERR_MSG(extack, "evformat is not online");
		return -EINVAL;
	}
	req->bad = 0;
	cfg->format = fmt->cfg.format;
	return 0;
}

/* Explicit EVs are values of the format profile's fields: they fit them. */
static int mrc_evprof_fmt_fit(struct mrc_net *mn,
			      const struct mrc_evprof_cfg *cfg,
			      struct netlink_ext_ack *extack)
{
	struct mrc_evfmt *fmt = xa_load(&mn->evfmts, cfg->fmt_id);
	u32 bits = mrc_evfmt_bits(&fmt->cfg), i;

	for (i = 0; bits < 64 && i < cfg->n_entries; i++) {
		if (cfg->entries[i] >> bits) {
			NL_SET_ERR_MSG(extack,
				       "EV entry does not fit the evformat's fields");
			return -ERANGE;
		}
	}
	return 0;
}

/*
 * EVFMT_NEW (@req->create) or EVFMT_SET, checked whole before it commits.
 * A format profile an EV profile names keeps its format and fields, and
 * one an ONLINE EV profile names stays ONLINE: the EV profile took its
 * format, and its entries were checked against the fields.
 */
int mrc_evfmt_apply(struct mrc_net *mn, struct mrc_evfmt_req *req,
		    struct netlink_ext_ack *extack)
{
	const struct mrc_evfmt_cfg *set = &req->set;
	bool create = req->create;
	u32 given = req->given;
	struct mrc_evfmt_cfg cfg;
	struct mrc_evfmt *fmt;
	int err;

	lockdep_assert_held(&mn->lock);

	fmt = xa_load(&mn->evfmts, req->id);
	if (create && fmt) {
		NL_SET_ERR_MSG(extack, "an evformat with this id already exists");
		req->bad = MRC_A_EVFMT_ID;
		return -EEXIST;
	}
	if (!create && !fmt) {
		NL_SET_ERR_MSG(extack, "no such evformat");
		req->bad = MRC_A_EVFMT_ID;
		return -ENOENT;
	}
	if (create && (given & BIT(MRC_A_EVFMT_STATE))) {
		NL_SET_ERR_MSG(extack, "a new profile starts in state init");
		req->bad = MRC_A_EVFMT_STATE;
		return -EINVAL;
	}
	if (given & BIT(MRC_A_EVFMT_STATE)) {
		err = mrc_profile_state_check(set->state, extack);
		if (err)
			return err;
	}

	if (create)
		mrc_evfmt_defaults(&cfg);
	else
		cfg = fmt->cfg;
	mrc_take_u8(given, MRC_A_EVFMT_STATE, &cfg.state, set->state);
	mrc_take_u8(given, MRC_A_EVFMT_FORMAT, &cfg.format, set->format);
	if (given & BIT(MRC_A_EVFMT_FIELDS)) {
		cfg.n_fields = set->n_fields;
		memcpy(cfg.width, set->width, sizeof(cfg.width));
	}

	err = mrc_evfmt_may_change(create ? MRC_PROFILE_STATE_INIT :
				   fmt->cfg.state, cfg.state, given, extack);
	if (!err)
		err = mrc_evfmt_check(&cfg, extack);
	if (err) {
		if (err != -EBUSY)
			req->bad = (given & BIT(MRC_A_EVFMT_FIELDS)) ?
				   MRC_A_EVFMT_FIELDS : 0;
		return err;
	}
	if (!create && (given & MRC_EVFMT_FIXED) &&
	    (cfg.format != fmt->cfg.format ||
	     cfg.n_fields != fmt->cfg.n_fields ||
	     memcmp(cfg.width, fmt->cfg.width, sizeof(cfg.width))) &&
	    mrc_evfmt_named(mn, req->id, false)) {
		NL_SET_ERR_MSG(extack,
			       "evformat is named by an evprofile: its format and fields stay");
		req->bad = MRC_A_EVFMT_ID;
		return -EBUSY;
	}
	if (!create && cfg.state != MRC_PROFILE_STATE_ONLINE &&
	    mrc_evfmt_named(mn, req->id, true)) {
		NL_SET_ERR_MSG(extack,
			       "evformat is named by an online evprofile, it stays online");
		req->bad = MRC_A_EVFMT_ID;
		return -EBUSY;
	}

	if (!create) {
		fmt->cfg = cfg;
		return 0;
	}
	fmt = kzalloc(sizeof(*fmt), GFP_KERNEL);
	if (!fmt)
		return -ENOMEM;
	fmt->id = req->id;
	fmt->cfg = cfg;
	err = xa_insert(&mn->evfmts, req->id, fmt, GFP_KERNEL);
	if (err) {
		kfree(fmt);
		return err;
	}
	mn->prof_genid++;
	return 0;
}

int mrc_evfmt_del(struct mrc_net *mn, u32 id, struct netlink_ext_ack *extack)
{
	struct mrc_evfmt *fmt;

	lockdep_assert_held(&mn->lock);

	fmt = xa_load(&mn->evfmts, id);
	if (!fmt) {
		NL_SET_ERR_MSG(extack, "no such evformat");
		return -ENOENT;
	}
	if (fmt->cfg.state == MRC_PROFILE_STATE_ONLINE) {
		NL_SET_ERR_MSG(extack, "evformat is online, set it offline first");
		return -EBUSY;
	}
	if (mrc_evfmt_named(mn, id, false)) {
		NL_SET_ERR_MSG(extack, "evformat is named by an evprofile");
		return -EBUSY;
	}
	xa_erase(&mn->evfmts, id);
	mn->prof_genid++;
	kfree(fmt);
	return 0;
}

/* ---- EV and CC profiles ------------------------------------------------ */

/*
 * EVPROF_NEW (@req->create) or EVPROF_SET: builds the profile's next
 * settings from the current ones (or the defaults) and @req, checks them
 * whole, and only then commits, so a refused request changes nothing.
 */
int mrc_evprof_apply(struct mrc_net *mn, struct mrc_evprof_req *req,
		     struct netlink_ext_ack *extack)
{
	const struct mrc_evprof_cfg *set = &req->set;
	bool create = req->create;
	u32 given = req->given;
	u32 id = req->id;
	struct mrc_evprof_cfg cfg;
	struct mrc_evprof *prof;
	int err;

	lockdep_assert_held(&mn->lock);

	prof = xa_load(&mn->evprofs, id);
	if (create && prof) {
		NL_SET_ERR_MSG(extack, "an evprofile with this id already exists");
		req->bad = MRC_A_EVPROF_ID;
		return -EEXIST;
	}
	if (!create && !prof) {
		NL_SET_ERR_MSG(extack, "no such evprofile");
		req->bad = MRC_A_EVPROF_ID;
		return -ENOENT;
	}
	if (create && (given & BIT(MRC_A_EVPROF_STATE))) {
		NL_SET_ERR_MSG(extack, "a new profile starts in state init");
		req->bad = MRC_A_EVPROF_STATE;
		return -EINVAL;
	}
	if (given & BIT(MRC_A_EVPROF_STATE)) {
		err = mrc_profile_state_check(set->state, extack);
		if (err)
			return err;
	}

	if (create)
		mrc_evprof_defaults(&cfg);
	else
		cfg = prof->cfg;

	mrc_take_u8(given, MRC_A_EVPROF_STATE, &cfg.state, set->state);
	mrc_take_u8(given, MRC_A_EVPROF_MODE, &cfg.mode, set->mode);
	mrc_take_u8(given, MRC_A_EVPROF_FORMAT, &cfg.format, set->format);
	mrc_take_u32(given, MRC_A_EVPROF_EV_COUNT,
		     &cfg.ev_count, set->ev_count);
	mrc_take_u32(given, MRC_A_EVPROF_BACKUPS, &cfg.backups, set->backups);
	mrc_take_u32(given, MRC_A_EVPROF_EVENT_MASK,
		     &cfg.event_mask, set->event_mask);
	if (given & BIT(MRC_A_EVPROF_MIN_ACTIVE)) {
		cfg.min_active = set->min_active;
		cfg.min_active_set = true;
	} else if (!cfg.min_active_set) {
		cfg.min_active = mrc_evprof_min_active_default(cfg.ev_count);
	}

	mrc_take_u32(given, MRC_A_EVPROF_FMT_ID, &cfg.fmt_id, set->fmt_id);

	if (given & BIT(MRC_A_EVPROF_ENTRIES)) {
		if (set->n_entries > MRC_MAX_EVS) {
			NL_SET_ERR_MSG(extack, "too many EV entries");
			req->bad = MRC_A_EVPROF_ENTRIES;
			return -E2BIG;
		}
		cfg.entries = set->entries;
		cfg.n_entries = set->n_entries;
	} else if (cfg.mode != MRC_EV_MODE_EXP) {
		/* Leaving EXP mode drops the list. */
		cfg.entries = NULL;
		cfg.n_entries = 0;
	}

	err = mrc_evprof_may_change(create ? MRC_PROFILE_STATE_INIT :
				    prof->cfg.state, cfg.state, given, extack);
	if (!err && cfg.fmt_id)
		err = mrc_evprof_fmt(mn, &cfg, req, extack);
	if (!err)
		err = mrc_evprof_check(&cfg, extack);
	if (!err && cfg.fmt_id)
		err = mrc_evprof_fmt_fit(mn, &cfg, extack);
	if (!err && !create && cfg.state != MRC_PROFILE_STATE_ONLINE &&
	    mrc_prof_user(mn, id, true)) {
		NL_SET_ERR_MSG(extack,
			       "evprofile is named by a device, it stays online");
		req->bad = MRC_A_EVPROF_ID;
		err = -EBUSY;
	}
	if (err)
		return err;

	if (create) {
		prof = kzalloc(sizeof(*prof), GFP_KERNEL);
		if (!prof)
			return -ENOMEM;
		prof->id = id;
		prof->cfg = cfg;
		err = xa_insert(&mn->evprofs, id, prof, GFP_KERNEL);
		if (err) {
			kfree(prof);
			return err;
		}
		mn->prof_genid++;
		return 0;
	}

	if (prof->cfg.entries != cfg.entries)
		kfree(prof->cfg.entries);
	prof->cfg = cfg;
	mrc_prof_refresh(mn, id, true, &prof->cfg);
	return 0;
}

int mrc_ccprof_apply(struct mrc_net *mn, struct mrc_ccprof_req *req,
		     struct netlink_ext_ack *extack)
{
	const struct mrc_ccprof_cfg *set = &req->set;
	bool create = req->create;
	u32 given = req->given;
	u32 id = req->id;
	struct mrc_ccprof_cfg cfg;
	struct mrc_ccprof *prof;
	int err;

	lockdep_assert_held(&mn->lock);

	prof = xa_load(&mn->ccprofs, id);
	if (create && prof) {
		NL_SET_ERR_MSG(extack, "a ccprofile with this id already exists");
		req->bad = MRC_A_CCPROF_ID;
		return -EEXIST;
	}
	if (!create && !prof) {
		NL_SET_ERR_MSG(extack, "no such ccprofile");
		req->bad = MRC_A_CCPROF_ID;
		return -ENOENT;
	}
	if (create && (given & BIT(MRC_A_CCPROF_STATE))) {
		NL_SET_ERR_MSG(extack, "a new profile starts in state init");
		req->bad = MRC_A_CCPROF_STATE;
		return -EINVAL;
	}
	if (given & BIT(MRC_A_CCPROF_STATE)) {
		err = mrc_profile_state_check(set->state, extack);
		if (err)
			return err;
	}

	if (create)
		mrc_ccprof_defaults(&cfg);
	else
		cfg = prof->cfg;

	mrc_take_u8(given, MRC_A_CCPROF_STATE, &cfg.state, set->state);
	mrc_take_u8(given, MRC_A_CCPROF_ALGO, &cfg.algo, set->algo);
	mrc_take_u32(given, MRC_A_CCPROF_BASE_RTT_US,
		     &cfg.base_rtt_us, set->base_rtt_us);
	mrc_take_u32(given, MRC_A_CCPROF_TARGET_DELAY_US,
		     &cfg.target_delay_us, set->target_delay_us);
	mrc_take_u32(given, MRC_A_CCPROF_QA_THRESHOLD_US,
		     &cfg.qa_threshold_us, set->qa_threshold_us);
	mrc_take_u32(given, MRC_A_CCPROF_MIN_CWND,
		     &cfg.min_cwnd, set->min_cwnd);
	mrc_take_u32(given, MRC_A_CCPROF_MAX_CWND,
		     &cfg.max_cwnd, set->max_cwnd);
	mrc_take_u32(given, MRC_A_CCPROF_GAMMA, &cfg.gamma, set->gamma);
	mrc_take_u32(given, MRC_A_CCPROF_MAX_MD_JUMP,
		     &cfg.max_md_jump, set->max_md_jump);
	mrc_take_u32(given, MRC_A_CCPROF_ETA, &cfg.eta, set->eta);
	mrc_take_u32(given, MRC_A_CCPROF_FI, &cfg.fi, set->fi);

	err = mrc_ccprof_may_change(create ? MRC_PROFILE_STATE_INIT :
				    prof->cfg.state, cfg.state, given, extack);
	if (!err)
		err = mrc_ccprof_check(&cfg, extack);
	if (!err && !create && cfg.state != MRC_PROFILE_STATE_ONLINE &&
	    mrc_prof_user(mn, id, false)) {
		NL_SET_ERR_MSG(extack,
			       "ccprofile is named by a device, it stays online");
		req->bad = MRC_A_CCPROF_ID;
		err = -EBUSY;
	}
	if (err)
		return err;

	if (!create) {
		prof->cfg = cfg;
		mrc_prof_refresh(mn, id, false, &prof->cfg);
		return 0;
	}
	prof = kzalloc(sizeof(*prof), GFP_KERNEL);
	if (!prof)
		return -ENOMEM;
	prof->id = id;
	prof->cfg = cfg;
	err = xa_insert(&mn->ccprofs, id, prof, GFP_KERNEL);
	if (err) {
		kfree(prof);
		return err;
	}
	mn->prof_genid++;
	return 0;
}

static void mrc_evprof_free(struct mrc_evprof *prof)
{
	kfree(prof->cfg.entries);
	kfree(prof);
}

int mrc_evprof_del(struct mrc_net *mn, u32 id, struct netlink_ext_ack *extack)
{
	struct mrc_evprof *prof;

	lockdep_assert_held(&mn->lock);

	prof = xa_load(&mn->evprofs, id);
	if (!prof) {
		NL_SET_ERR_MSG(extack, "no such evprofile");
		return -ENOENT;
	}
	if (prof->cfg.state == MRC_PROFILE_STATE_ONLINE) {
		NL_SET_ERR_MSG(extack, "evprofile is online, set it offline first");
		return -EBUSY;
	}
	xa_erase(&mn->evprofs, id);
	mn->prof_genid++;
	mrc_evprof_free(prof);
	return 0;
}

int mrc_ccprof_del(struct mrc_net *mn, u32 id, struct netlink_ext_ack *extack)
{
	struct mrc_ccprof *prof;

	lockdep_assert_held(&mn->lock);

	prof = xa_load(&mn->ccprofs, id);
	if (!prof) {
		NL_SET_ERR_MSG(extack, "no such ccprofile");
		return -ENOENT;
	}
	if (prof->cfg.state == MRC_PROFILE_STATE_ONLINE) {
		NL_SET_ERR_MSG(extack, "ccprofile is online, set it offline first");
		return -EBUSY;
	}
	xa_erase(&mn->ccprofs, id);
	mn->prof_genid++;
	kfree(prof);
	return 0;
}

/*
 * Registered after device.c's pernet ops (from mrc_genl_init()), so that
 * mrc_net exists when this init runs and still exists when this exit runs:
 * exits run in the reverse order of registration.
 */
static int __net_init mrc_profile_net_init(struct net *net)
{
	struct mrc_net *mn = mrc_net(net);

	xa_init(&mn->evprofs);
	xa_init(&mn->ccprofs);
	xa_init(&mn->evfmts);
	return 0;
}

static void __net_exit mrc_profile_net_exit(struct net *net)
{
	struct mrc_net *mn = mrc_net(net);
	struct mrc_evprof *evp;
	struct mrc_ccprof *ccp;
	struct mrc_evfmt *fmt;
	unsigned long id;

	mutex_lock(&mn->lock);
	xa_for_each(&mn->evprofs, id, evp)
		mrc_evprof_free(evp);
	xa_destroy(&mn->evprofs);
	xa_for_each(&mn->ccprofs, id, ccp)
		kfree(ccp);
	xa_destroy(&mn->ccprofs);
	xa_for_each(&mn->evfmts, id, fmt)
		kfree(fmt);
	xa_destroy(&mn->evfmts);
	mutex_unlock(&mn->lock);
}

static struct pernet_operations mrc_profile_net_ops = {
	.init = mrc_profile_net_init,
	.exit = mrc_profile_net_exit,
};

int __init mrc_profile_init(void)
{
	return register_pernet_device(&mrc_profile_net_ops);
}

void mrc_profile_exit(void)
{
	unregister_pernet_device(&mrc_profile_net_ops);
}
