// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "mrc-profile": the pure checks of EV format, EV and CC
 * profiles from mrc/profile.c. Defaults, range edges, explicit EV entries
 * (width per format, duplicates), format profiles' fields, and what may
 * change while a profile is ONLINE.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "../mrc.h"

/* The extack message of the last failed check, "" when there is none. */
static const char *msg(const struct netlink_ext_ack *extack)
{
	return extack->_msg ? extack->_msg : "";
}

static void evprof_defaults_are_documented_values(struct kunit *test)
{
	struct netlink_ext_ack extack = {};
	struct mrc_evprof_cfg cfg;

	mrc_evprof_defaults(&cfg);
	KUNIT_EXPECT_EQ(test, cfg.state, MRC_PROFILE_STATE_INIT);
	KUNIT_EXPECT_EQ(test, cfg.mode, MRC_EV_MODE_AUTO);
	KUNIT_EXPECT_EQ(test, cfg.format, MRC_EV_FORMAT_UDP);
	KUNIT_EXPECT_EQ(test, cfg.ev_count, 128u);
	KUNIT_EXPECT_EQ(test, cfg.min_active, 32u);
	KUNIT_EXPECT_FALSE(test, cfg.min_active_set);
	KUNIT_EXPECT_EQ(test, cfg.backups, 4u);
	KUNIT_EXPECT_EQ(test, cfg.event_mask, MRC_EV_EVENTS_ALL);
	KUNIT_EXPECT_EQ(test, cfg.n_entries, 0u);
	KUNIT_EXPECT_PTR_EQ(test, cfg.entries, (u64 *)NULL);
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), 0);
}

static void min_active_default_is_a_quarter_rounded_up(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mrc_evprof_min_active_default(1), 1u);
	KUNIT_EXPECT_EQ(test, mrc_evprof_min_active_default(3), 1u);
	KUNIT_EXPECT_EQ(test, mrc_evprof_min_active_default(4), 1u);
	KUNIT_EXPECT_EQ(test, mrc_evprof_min_active_default(5), 2u);
	KUNIT_EXPECT_EQ(test, mrc_evprof_min_active_default(128), 32u);
	KUNIT_EXPECT_EQ(test, mrc_evprof_min_active_default(MRC_MAX_EVS), 64u);
}

static void evprof_count_and_min_active_edges(struct kunit *test)
{
	struct netlink_ext_ack extack = {};
	struct mrc_evprof_cfg cfg;

	mrc_evprof_defaults(&cfg);
	cfg.ev_count = 1;
	cfg.min_active = 1;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), 0);
	cfg.ev_count = MRC_MAX_EVS;
	cfg.min_active = MRC_MAX_EVS;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), 0);

	cfg.ev_count = 0;
	cfg.min_active = 1;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), -ERANGE);
	cfg.ev_count = MRC_MAX_EVS + 1;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), -ERANGE);

	cfg.ev_count = 16;
	cfg.min_active = 17;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), -ERANGE);
	KUNIT_EXPECT_STREQ(test, msg(&extack), "min_active must be 1 to ev_count");
	cfg.min_active = 0;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), -ERANGE);
	cfg.min_active = 16;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), 0);

	cfg.backups = MRC_MAX_BACKUPS;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), 0);
	cfg.backups = MRC_MAX_BACKUPS + 1;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), -ERANGE);
	cfg.backups = 0;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), 0);

	cfg.event_mask = 0;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), 0);
	cfg.event_mask = BIT(MRC_EV_STATE_SKIP);
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), -EINVAL);
}

static void gen_mode_is_not_supported_yet(struct kunit *test)
{
	struct netlink_ext_ack extack = {};
	struct mrc_evprof_cfg cfg;

	mrc_evprof_defaults(&cfg);
	cfg.mode = MRC_EV_MODE_GEN;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), -EOPNOTSUPP);
}

static void entry_width_follows_the_format(struct kunit *test)
{
	struct netlink_ext_ack extack = {};
	u64 ev;

	KUNIT_EXPECT_EQ(test, mrc_ev_format_max(MRC_EV_FORMAT_UDP), 0xffffull);
	KUNIT_EXPECT_EQ(test, mrc_ev_format_max(MRC_EV_FORMAT_STEV),
			0xfffffffffull);
	KUNIT_EXPECT_EQ(test, mrc_ev_format_max(MRC_EV_FORMAT_SRV6), 0ull);

	ev = 0xffff;
	KUNIT_EXPECT_EQ(test, mrc_ev_entries_check(MRC_EV_FORMAT_UDP, &ev, 1,
						   &extack), 0);
	ev = 0x10000;
	KUNIT_EXPECT_EQ(test, mrc_ev_entries_check(MRC_EV_FORMAT_UDP, &ev, 1,
						   &extack), -ERANGE);
	KUNIT_EXPECT_STREQ(test, msg(&extack),
			   "EV entry does not fit the format's entropy field");
	KUNIT_EXPECT_EQ(test, mrc_ev_entries_check(MRC_EV_FORMAT_STEV, &ev, 1,
						   &extack), 0);
	ev = MRC_EV_STEV_MAX;
	KUNIT_EXPECT_EQ(test, mrc_ev_entries_check(MRC_EV_FORMAT_STEV, &ev, 1,
						   &extack), 0);
	ev = MRC_EV_STEV_MAX + 1;
	KUNIT_EXPECT_EQ(test, mrc_ev_entries_check(MRC_EV_FORMAT_STEV, &ev, 1,
						   &extack), -ERANGE);
	ev = 1;
	KUNIT_EXPECT_EQ(test, mrc_ev_entries_check(MRC_EV_FORMAT_SRV6, &ev, 1,
						   &extack), -EOPNOTSUPP);
	/* An empty list is fine for any format: it clears the entries. */
	KUNIT_EXPECT_EQ(test, mrc_ev_entries_check(MRC_EV_FORMAT_SRV6, NULL, 0,
						   &extack), 0);
}

static void duplicate_entries_rejected_anywhere_in_the_list(struct kunit *test)
{
	struct netlink_ext_ack extack = {};
	u64 *ev;
	u32 i;

	ev = kunit_kcalloc(test, MRC_MAX_EVS + 1, sizeof(*ev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ev);
	for (i = 0; i < MRC_MAX_EVS; i++)
		ev[i] = 49152 + i;
	KUNIT_EXPECT_EQ(test, mrc_ev_entries_check(MRC_EV_FORMAT_UDP, ev,
						   MRC_MAX_EVS, &extack), 0);
	ev[MRC_MAX_EVS - 1] = ev[0];
	KUNIT_EXPECT_EQ(test, mrc_ev_entries_check(MRC_EV_FORMAT_UDP, ev,
						   MRC_MAX_EVS, &extack), -EINVAL);
	KUNIT_EXPECT_STREQ(test, msg(&extack), "duplicate EV entry");
	ev[MRC_MAX_EVS - 1] = 49152 + MRC_MAX_EVS - 1;
	ev[2] = ev[1];
	KUNIT_EXPECT_EQ(test, mrc_ev_entries_check(MRC_EV_FORMAT_UDP, ev,
						   MRC_MAX_EVS, &extack), -EINVAL);
	KUNIT_EXPECT_EQ(test, mrc_ev_entries_check(MRC_EV_FORMAT_UDP, ev,
						   MRC_MAX_EVS + 1, &extack), -E2BIG);
}

static void entries_need_exp_mode_and_fit_ev_count(struct kunit *test)
{
	struct netlink_ext_ack extack = {};
	struct mrc_evprof_cfg cfg;
	u64 ev[4] = { 1, 2, 3, 4 };

	mrc_evprof_defaults(&cfg);
	cfg.entries = ev;
	cfg.n_entries = 4;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), -EINVAL);
	KUNIT_EXPECT_STREQ(test, msg(&extack), "EV entries need mode exp");

	cfg.mode = MRC_EV_MODE_EXP;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), 0);
	cfg.ev_count = 3;
	cfg.min_active = 1;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), -E2BIG);
	cfg.ev_count = 4;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), 0);
}

static void exp_profile_online_needs_min_active_entries(struct kunit *test)
{
	struct netlink_ext_ack extack = {};
	struct mrc_evprof_cfg cfg;
	u64 ev[4] = { 10, 20, 30, 40 };

	mrc_evprof_defaults(&cfg);
	cfg.mode = MRC_EV_MODE_EXP;
	cfg.ev_count = 8;
	cfg.min_active = 4;
	cfg.state = MRC_PROFILE_STATE_ONLINE;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), -EINVAL);
	cfg.entries = ev;
	cfg.n_entries = 3;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), -EINVAL);
	cfg.n_entries = 4;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), 0);
	/* Offline, an incomplete list is fine: it is being built. */
	cfg.state = MRC_PROFILE_STATE_OFFLINE;
	cfg.n_entries = 1;
	KUNIT_EXPECT_EQ(test, mrc_evprof_check(&cfg, &extack), 0);
}

static void state_can_be_set_online_or_offline_only(struct kunit *test)
{
	struct netlink_ext_ack extack = {};

	KUNIT_EXPECT_EQ(test, mrc_profile_state_check(MRC_PROFILE_STATE_ONLINE,
						      &extack), 0);
	KUNIT_EXPECT_EQ(test, mrc_profile_state_check(MRC_PROFILE_STATE_OFFLINE,
						      &extack), 0);
	KUNIT_EXPECT_EQ(test, mrc_profile_state_check(MRC_PROFILE_STATE_INIT,
						      &extack), -EINVAL);
	KUNIT_EXPECT_EQ(test, mrc_profile_state_check(3, &extack), -EINVAL);
}

static void online_evprof_keeps_its_shape(struct kunit *test)
{
	static const int fixed[] = {
		MRC_A_EVPROF_MODE, MRC_A_EVPROF_FORMAT, MRC_A_EVPROF_EV_COUNT,
		MRC_A_EVPROF_BACKUPS, MRC_A_EVPROF_ENTRIES,
	};
	static const int tunable[] = {
		MRC_A_EVPROF_ID, MRC_A_EVPROF_STATE, MRC_A_EVPROF_MIN_ACTIVE,
		MRC_A_EVPROF_EVENT_MASK,
	};
	const u8 on = MRC_PROFILE_STATE_ONLINE, off = MRC_PROFILE_STATE_OFFLINE;
	const u8 init = MRC_PROFILE_STATE_INIT;
	struct netlink_ext_ack extack = {};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fixed); i++) {
		u32 c = BIT(fixed[i]);

		KUNIT_EXPECT_EQ(test, mrc_evprof_may_change(on, on, c, &extack),
				-EBUSY);
		KUNIT_EXPECT_EQ(test, mrc_evprof_may_change(on, off, c, &extack),
				0);
		KUNIT_EXPECT_EQ(test, mrc_evprof_may_change(off, on, c, &extack),
				0);
		KUNIT_EXPECT_EQ(test, mrc_evprof_may_change(init, on, c, &extack),
				0);
		KUNIT_EXPECT_EQ(test, mrc_evprof_may_change(off, off, c, &extack),
				0);
	}
	for (i = 0; i < ARRAY_SIZE(tunable); i++)
		KUNIT_EXPECT_EQ(test, mrc_evprof_may_change(on, on,
							    BIT(tunable[i]),
							    &extack), 0);
}

static void online_ccprof_keeps_its_algorithm_only(struct kunit *test)
{
	const u8 on = MRC_PROFILE_STATE_ONLINE, off = MRC_PROFILE_STATE_OFFLINE;
	struct netlink_ext_ack extack = {};
	u32 params = 0;
	int a;

	for (a = MRC_A_CCPROF_BASE_RTT_US; a <= MRC_A_CCPROF_MAX; a++)
		params |= BIT(a);
	KUNIT_EXPECT_EQ(test, mrc_ccprof_may_change(on, on, params, &extack), 0);
	KUNIT_EXPECT_EQ(test, mrc_ccprof_may_change(on, on,
						    BIT(MRC_A_CCPROF_ALGO),
						    &extack), -EBUSY);
	KUNIT_EXPECT_EQ(test, mrc_ccprof_may_change(on, off,
						    BIT(MRC_A_CCPROF_ALGO),
						    &extack), 0);
}

/* An EV format profile's fields: 1 to 8, 1 to 64 bits, within the format. */
static void evfmt_fields_fit_the_format(struct kunit *test)
{
	struct netlink_ext_ack extack = {};
	struct mrc_evfmt_cfg cfg;

	mrc_evfmt_defaults(&cfg);
	KUNIT_EXPECT_EQ(test, cfg.state, MRC_PROFILE_STATE_INIT);
	KUNIT_EXPECT_EQ(test, cfg.format, MRC_EV_FORMAT_UDP);
	KUNIT_EXPECT_EQ(test, mrc_evfmt_bits(&cfg), 16u);
	KUNIT_EXPECT_EQ(test, mrc_evfmt_check(&cfg, &extack), 0);

	cfg.width[0] = 17;
	KUNIT_EXPECT_EQ(test, mrc_evfmt_check(&cfg, &extack), -ERANGE);
	KUNIT_EXPECT_STREQ(test, msg(&extack),
			   "the fields are wider than the format's EV");

	cfg.format = MRC_EV_FORMAT_STEV;
	cfg.n_fields = 2;
	cfg.width[0] = 20;
	cfg.width[1] = 16;
	KUNIT_EXPECT_EQ(test, mrc_evfmt_check(&cfg, &extack), 0);
	cfg.width[1] = 17;
	KUNIT_EXPECT_EQ(test, mrc_evfmt_check(&cfg, &extack), -ERANGE);

	cfg.format = MRC_EV_FORMAT_SRV6;
	cfg.n_fields = 2;
	cfg.width[0] = 64;
	cfg.width[1] = 64;
	KUNIT_EXPECT_EQ(test, mrc_evfmt_bits(&cfg), 128u);
	KUNIT_EXPECT_EQ(test, mrc_evfmt_check(&cfg, &extack), 0);
	cfg.width[1] = 65;
	KUNIT_EXPECT_EQ(test, mrc_evfmt_check(&cfg, &extack), -ERANGE);
	KUNIT_EXPECT_STREQ(test, msg(&extack), "a field is 1 to 64 bits wide");

	cfg.n_fields = 0;
	KUNIT_EXPECT_EQ(test, mrc_evfmt_check(&cfg, &extack), -EINVAL);
	cfg.n_fields = MRC_EVFMT_FIELDS_MAX + 1;
	KUNIT_EXPECT_EQ(test, mrc_evfmt_check(&cfg, &extack), -EINVAL);
	KUNIT_EXPECT_STREQ(test, msg(&extack), "an evformat has 1 to 8 fields");

	/* Online, the format and fields stay; the state may go. */
	KUNIT_EXPECT_EQ(test, mrc_evfmt_may_change(MRC_PROFILE_STATE_ONLINE,
						   MRC_PROFILE_STATE_ONLINE,
						   BIT(MRC_A_EVFMT_FIELDS),
						   &extack), -EBUSY);
	KUNIT_EXPECT_EQ(test, mrc_evfmt_may_change(MRC_PROFILE_STATE_ONLINE,
						   MRC_PROFILE_STATE_OFFLINE,
						   BIT(MRC_A_EVFMT_FIELDS),
						   &extack), 0);
}

static void ccprof_defaults_are_documented_values(struct kunit *test)
{
	struct netlink_ext_ack extack = {};
	struct mrc_ccprof_cfg cfg;

	mrc_ccprof_defaults(&cfg);
	KUNIT_EXPECT_EQ(test, cfg.state, MRC_PROFILE_STATE_INIT);
	KUNIT_EXPECT_EQ(test, cfg.algo, MRC_CC_ALGO_NSCC);
	KUNIT_EXPECT_EQ(test, cfg.base_rtt_us, 20u);
	KUNIT_EXPECT_EQ(test, cfg.target_delay_us, 30u);
	KUNIT_EXPECT_EQ(test, cfg.qa_threshold_us, 120u);
	KUNIT_EXPECT_EQ(test, cfg.min_cwnd, 4096u);
	KUNIT_EXPECT_EQ(test, cfg.max_cwnd, 1048576u);
	KUNIT_EXPECT_EQ(test, cfg.gamma, 800u);
	KUNIT_EXPECT_EQ(test, cfg.max_md_jump, 500u);
	KUNIT_EXPECT_EQ(test, cfg.eta, 512u);
	KUNIT_EXPECT_EQ(test, cfg.fi, 4096u);
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), 0);
}

static void ccprof_cross_field_rules(struct kunit *test)
{
	struct netlink_ext_ack extack = {};
	struct mrc_ccprof_cfg cfg;

	mrc_ccprof_defaults(&cfg);
	cfg.target_delay_us = cfg.base_rtt_us;
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), 0);
	cfg.target_delay_us = cfg.base_rtt_us - 1;
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), -EINVAL);
	KUNIT_EXPECT_STREQ(test, msg(&extack),
			   "target_delay_us is below base_rtt_us");

	mrc_ccprof_defaults(&cfg);
	cfg.qa_threshold_us = cfg.target_delay_us;
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), 0);
	cfg.qa_threshold_us = cfg.target_delay_us - 1;
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), -EINVAL);
	cfg.qa_threshold_us = 0;	/* quick adapt off */
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), 0);

	mrc_ccprof_defaults(&cfg);
	cfg.min_cwnd = cfg.max_cwnd;
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), 0);
	cfg.min_cwnd = cfg.max_cwnd + 1;
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), -EINVAL);
	KUNIT_EXPECT_STREQ(test, msg(&extack), "min_cwnd is larger than max_cwnd");
}

static void ccprof_range_edges(struct kunit *test)
{
	struct netlink_ext_ack extack = {};
	struct mrc_ccprof_cfg cfg;

	mrc_ccprof_defaults(&cfg);
	cfg.algo = MRC_CC_ALGO_NONE;
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), -EOPNOTSUPP);

	mrc_ccprof_defaults(&cfg);
	cfg.base_rtt_us = 1;
	cfg.target_delay_us = MRC_CCPROF_US_MAX;
	cfg.qa_threshold_us = MRC_CCPROF_US_MAX;
	cfg.min_cwnd = MRC_CCPROF_CWND_MIN;
	cfg.max_cwnd = MRC_CCPROF_CWND_MAX;
	cfg.gamma = 1;
	cfg.max_md_jump = MRC_CCPROF_PERMILLE_MAX;
	cfg.eta = MRC_CCPROF_ETA_MAX;
	cfg.fi = MRC_CCPROF_FI_MAX;
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), 0);
	cfg.eta = 0;
	cfg.fi = 0;
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), 0);

	cfg.target_delay_us = MRC_CCPROF_US_MAX + 1;
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), -ERANGE);
	cfg.target_delay_us = MRC_CCPROF_US_MAX;
	cfg.base_rtt_us = 0;
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), -ERANGE);
	cfg.base_rtt_us = 1;
	cfg.min_cwnd = MRC_CCPROF_CWND_MIN - 1;
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), -ERANGE);
	cfg.min_cwnd = MRC_CCPROF_CWND_MIN;
	cfg.max_cwnd = MRC_CCPROF_CWND_MAX + 1;
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), -ERANGE);
	cfg.max_cwnd = MRC_CCPROF_CWND_MAX;
	cfg.gamma = 0;
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), -ERANGE);
	cfg.gamma = MRC_CCPROF_PERMILLE_MAX + 1;
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), -ERANGE);
	cfg.gamma = 1;
	cfg.fi = MRC_CCPROF_FI_MAX + 1;
	KUNIT_EXPECT_EQ(test, mrc_ccprof_check(&cfg, &extack), -ERANGE);
}

static struct kunit_case mrc_profile_cases[] = {
	KUNIT_CASE(evprof_defaults_are_documented_values),
	KUNIT_CASE(min_active_default_is_a_quarter_rounded_up),
	KUNIT_CASE(evprof_count_and_min_active_edges),
	KUNIT_CASE(gen_mode_is_not_supported_yet),
	KUNIT_CASE(entry_width_follows_the_format),
	KUNIT_CASE(duplicate_entries_rejected_anywhere_in_the_list),
	KUNIT_CASE(entries_need_exp_mode_and_fit_ev_count),
	KUNIT_CASE(exp_profile_online_needs_min_active_entries),
	KUNIT_CASE(state_can_be_set_online_or_offline_only),
	KUNIT_CASE(online_evprof_keeps_its_shape),
	KUNIT_CASE(online_ccprof_keeps_its_algorithm_only),
	KUNIT_CASE(evfmt_fields_fit_the_format),
	KUNIT_CASE(ccprof_defaults_are_documented_values),
	KUNIT_CASE(ccprof_cross_field_rules),
	KUNIT_CASE(ccprof_range_edges),
	{}
};

static struct kunit_suite mrc_profile_suite = {
	.name = "mrc-profile",
	.test_cases = mrc_profile_cases,
};

kunit_test_suite(mrc_profile_suite);
