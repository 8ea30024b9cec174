/* SPDX-License-Identifier: GPL-2.0 */
/*
 * EV format, EV and CC profiles (profile.c): control objects of the namespace, created
 * and changed by the controller over netlink, in process context under
 * mrc_net.lock.  A device names an EV and a CC profile by id, and its QPs
 * follow them (struct mrc_dev_prof).  Documentation/netlink.md documents
 * every field, its range and default; param.h defines the defaults and
 * limits.  netlink_profile.c parses requests into the mrc_*prof_req below.
 */
#ifndef _MRC_PROFILE_H
#define _MRC_PROFILE_H

#include <linux/types.h>
#include <linux/mrc.h>

/**
 * struct mrc_evprof_cfg - settings of one EV profile
 * @state: enum mrc_profile_state
 * @mode: enum mrc_ev_mode
 * @format: enum mrc_ev_format
 * @min_active_set: @min_active was given by the controller; until then it
 *	follows @ev_count
 * @ev_count: EVs a QP sprays over
 * @min_active: floor on the EVs a QP keeps out of ASSUMED_BAD
 * @backups: backup EVs per plane
 * @event_mask: MRC_EV_EVENT_* transitions to report
 * @n_entries: number of values in @entries
 * @entries: explicit EVs (EXP mode), kmalloc'ed, NULL when @n_entries is 0
 * @fmt_id: the EV format profile it names, 0 for none; @format is then
 *	that profile's, and @entries fit its fields
 */
struct mrc_evprof_cfg {
	u8 state;
	u8 mode;
	u8 format;
	bool min_active_set;
	u32 ev_count;
	u32 min_active;
	u32 backups;
	u32 event_mask;
	u32 n_entries;
	u64 *entries;
	u32 fmt_id;
};

/* An EV profile, stored in mrc_net.evprofs at index @id. */
struct mrc_evprof {
	u32 id;
	struct mrc_evprof_cfg cfg;
};

/**
 * struct mrc_evfmt_cfg - settings of one EV format profile
 * @state: enum mrc_profile_state
 * @format: enum mrc_ev_format: where an EV sits in the packet
 * @n_fields: number of fields in @width
 * @width: the fields an EV value is made of, most significant first, in
 *	bits; together at most the format's EV (mrc_ev_format_bits())
 */
struct mrc_evfmt_cfg {
	u8 state;
	u8 format;
	u8 n_fields;
	u8 width[MRC_EVFMT_FIELDS_MAX];
};

/* An EV format profile, stored in mrc_net.evfmts at index @id. */
struct mrc_evfmt {
	u32 id;
	struct mrc_evfmt_cfg cfg;
};

/**
 * struct mrc_ccprof_cfg - settings of one CC profile (NSCC)
 * @state: enum mrc_profile_state
 * @algo: enum mrc_cc_algo
 * @base_rtt_us: RTT of an idle path
 * @target_delay_us: RTT above which the window stops growing fast
 * @qa_threshold_us: RTT that triggers quick adapt; 0 turns it off
 * @min_cwnd: smallest window, bytes
 * @max_cwnd: largest window, bytes
 * @gamma: multiplicative decrease gain, 1/1000
 * @max_md_jump: largest cut of one decrease, 1/1000 of the window
 * @eta: proportional increase gain, bytes per ACK
 * @fi: fair increase, bytes per window acknowledged
 */
struct mrc_ccprof_cfg {
	u8 state;
	u8 algo;
	u32 base_rtt_us;
	u32 target_delay_us;
	u32 qa_threshold_us;
	u32 min_cwnd;
	u32 max_cwnd;
	u32 gamma;
	u32 max_md_jump;
	u32 eta;
	u32 fi;
};

/* A CC profile, stored in mrc_net.ccprofs at index @id. */
struct mrc_ccprof {
	u32 id;
	struct mrc_ccprof_cfg cfg;
};

/**
 * struct mrc_dev_prof - what a device's QPs take from the profiles it names
 * @evprof_id: EV profile named by the device, 0 for none
 * @ccprof_id: CC profile, 0 for none
 * @ev_count: active EVs per QP, 0 for the ev_count module parameter
 * @min_active: GOOD floor per QP, 0 for a quarter of the set
 * @backups: spare entropies per plane
 * @event_mask: EV transitions the QPs report (MRC_EV_EVENT_*)
 * @ev_format: enum mrc_ev_format, UDP or STEV
 * @cc: congestion control settings
 *
 * A copy, so that QPs never take mrc_net.lock: it is refreshed under that
 * lock whenever the device names other profiles or a named profile changes.
 */
struct mrc_dev_prof {
	u32 evprof_id;
	u32 ccprof_id;
	u32 ev_count;
	u32 min_active;
	u32 backups;
	u32 event_mask;
	u8 ev_format;
	struct mrc_ccprof_cfg cc;
};

/**
 * struct mrc_evprof_req - an EVPROF_NEW or EVPROF_SET request, parsed
 * @id: the profile
 * @create: NEW (the id must be free), not SET
 * @given: BIT(MRC_A_EVPROF_*) of every setting the request gives
 * @set: the values of the settings in @given.  @set.entries is the
 *	caller's (kmalloc'ed, NULL for none), taken over by the profile only
 *	when the request succeeds; @set.n_entries may exceed MRC_MAX_EVS
 *	(then @set.entries is NULL and the request is refused)
 * @bad: set on a refusal about one setting: its MRC_A_EVPROF_* type,
 *	for the netlink layer to point the extended ack at; 0 for none
 */
struct mrc_evprof_req {
	u32 id;
	bool create;
	u32 given;
	struct mrc_evprof_cfg set;
	int bad;
};

/**
 * struct mrc_ccprof_req - a CCPROF_NEW or CCPROF_SET request, parsed
 * @id: the profile
 * @create: NEW (the id must be free), not SET
 * @given: BIT(MRC_A_CCPROF_*) of every setting the request gives
 * @set: the values of the settings in @given
 * @bad: set on a refusal about one setting: its MRC_A_CCPROF_* type, 0
 *	for none
 */
struct mrc_ccprof_req {
	u32 id;
	bool create;
	u32 given;
	struct mrc_ccprof_cfg set;
	int bad;
};

/**
 * struct mrc_evfmt_req - an EVFMT_NEW or EVFMT_SET request, parsed
 * @id: the profile
 * @create: NEW (the id must be free), not SET
 * @given: BIT(MRC_A_EVFMT_*) of every setting the request gives
 * @set: the values of the settings in @given; @set.n_fields may exceed
 *	MRC_EVFMT_FIELDS_MAX (then only that many widths are kept, and the
 *	request is refused)
 * @bad: set on a refusal about one setting: its MRC_A_EVFMT_* type, 0
 *	for none
 */
struct mrc_evfmt_req {
	u32 id;
	bool create;
	u32 given;
	struct mrc_evfmt_cfg set;
	int bad;
};

/**
 * struct mrc_dev_prof_req - the profiles a request names for a device
 * @ev: the request names an EV profile, @evprof_id (0: none)
 * @cc: the request names a CC profile, @ccprof_id (0: none)
 * @evprof_id: EV profile id
 * @ccprof_id: CC profile id
 * @bad: set on a refusal: MRC_A_DEV_EVPROF_ID or MRC_A_DEV_CCPROF_ID,
 *	whichever cannot be named
 */
struct mrc_dev_prof_req {
	bool ev;
	bool cc;
	u32 evprof_id;
	u32 ccprof_id;
	int bad;
};

#endif /* _MRC_PROFILE_H */
