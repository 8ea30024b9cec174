// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "mrc-cc": the NSCC window of mrc/cc.c.  Each quadrant of the
 * (ECN, delay versus target) table moves the window the way its gain says,
 * a decrease happens at most once per window and is scaled by the marked
 * fraction, and the window stays inside the profile's bounds.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "../mrc.h"

#define MTU	1024

static void cc_setup(struct mrc_cc *cc)
{
	struct mrc_ccprof_cfg cfg;

	mrc_ccprof_defaults(&cfg);
	mrc_cc_init(cc, &cfg);
	/* Base RTT 100 us: every later sample's delay is measured from it. */
	mrc_cc_ack(cc, 0, false, 100);
}

static void cc_starts_open(struct kunit *test)
{
	struct mrc_cc cc;

	cc_setup(&cc);
	KUNIT_EXPECT_EQ(test, cc.cwnd, (u32)MRC_CCPROF_MAX_CWND_DEFAULT);
	KUNIT_EXPECT_EQ(test, mrc_cc_window(&cc, MTU),
			(u32)MRC_CCPROF_MAX_CWND_DEFAULT / MTU);
	KUNIT_EXPECT_EQ(test, cc.base_rtt_us, 100U);
	/* target_delay - base_rtt of the default profile */
	KUNIT_EXPECT_EQ(test, cc.target_us, 10U);
}

static void cc_proportional_increase(struct kunit *test)
{
	struct mrc_cc cc;

	cc_setup(&cc);
	cc.cwnd = 64 * MTU;
	/* No queueing at all: eta (512) per 1024 bytes acknowledged. */
	KUNIT_EXPECT_EQ(test, mrc_cc_ack(&cc, 4 * MTU, false, 100),
			MRC_CC_PROPORTIONAL);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 64U * MTU + 4 * 512);
	/* Half the target: half the gain. */
	KUNIT_EXPECT_EQ(test, mrc_cc_ack(&cc, 4 * MTU, false, 105),
			MRC_CC_PROPORTIONAL);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 64U * MTU + 4 * 512 + 4 * 256);
}

static void cc_fair_increase(struct kunit *test)
{
	struct mrc_cc cc;

	cc_setup(&cc);
	cc.cwnd = 64 * MTU;
	/* Above target, no ECN: fi (4096) per window acknowledged. */
	KUNIT_EXPECT_EQ(test, mrc_cc_ack(&cc, 32 * MTU, false, 500),
			MRC_CC_FAIR);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 64U * MTU + 2048);
}

static void cc_decrease_once_per_window(struct kunit *test)
{
	struct mrc_cc cc;
	u32 before;

	cc_setup(&cc);
	cc.cwnd = 64 * MTU;
	/* Everything marked, delay 400 over a target of 10: the cap (500). */
	KUNIT_EXPECT_EQ(test, mrc_cc_ack(&cc, MTU, true, 500), MRC_CC_DECREASE);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 32U * MTU);
	before = cc.cwnd;
	KUNIT_EXPECT_EQ(test, mrc_cc_ack(&cc, MTU, true, 500), MRC_CC_DECREASE);
	KUNIT_EXPECT_EQ(test, cc.cwnd, before);
}

static void cc_decrease_scaled_by_marked_share(struct kunit *test)
{
	struct mrc_cc cc;

	cc_setup(&cc);
	cc.cwnd = 640 * MTU;
	/* One eighth of the window's bytes marked: about a tenth off. */
	mrc_cc_ack(&cc, 70 * MTU, false, 500);
	KUNIT_EXPECT_EQ(test, mrc_cc_ack(&cc, 10 * MTU, true, 500),
			MRC_CC_DECREASE);
	KUNIT_EXPECT_GT(test, cc.cwnd, 560U * MTU);
	KUNIT_EXPECT_LT(test, cc.cwnd, 600U * MTU);
}

static void cc_hold_when_marked_below_target(struct kunit *test)
{
	struct mrc_cc cc;

	cc_setup(&cc);
	cc.cwnd = 64 * MTU;
	KUNIT_EXPECT_EQ(test, mrc_cc_ack(&cc, MTU, true, 102), MRC_CC_HOLD);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 64U * MTU);
}

static void cc_stays_in_bounds(struct kunit *test)
{
	struct mrc_cc cc;
	int i;

	cc_setup(&cc);
	/* Each decrease ends its window at once (everything acked). */
	for (i = 0; i < 64; i++)
		mrc_cc_ack(&cc, cc.cwnd, true, 5000);
	KUNIT_EXPECT_EQ(test, cc.cwnd, (u32)MRC_CCPROF_MIN_CWND_DEFAULT);
	KUNIT_EXPECT_EQ(test, mrc_cc_window(&cc, MTU), 4U);
	for (i = 0; i < 4096; i++)
		mrc_cc_ack(&cc, 64 * MTU, false, 100);
	KUNIT_EXPECT_EQ(test, cc.cwnd, (u32)MRC_CCPROF_MAX_CWND_DEFAULT);
}

/*
 * A pressed receiver's penalty takes penalty/128 of what its SACK
 * acknowledged off the window, down to the floor and no further.
 */
static void cc_receiver_penalty(struct kunit *test)
{
	struct mrc_cc cc;

	cc_setup(&cc);
	cc.cwnd = 100 * MTU;
	mrc_cc_penalty(&cc, 16 * MTU, 64);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 92U * MTU);
	mrc_cc_penalty(&cc, 16 * MTU, 1);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 92U * MTU - 128);
	/* A SACK that acknowledges nothing new costs nothing. */
	mrc_cc_penalty(&cc, 0, MRC_SACK_PENALTY_MAX);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 92U * MTU - 128);
	mrc_cc_penalty(&cc, 1000 * MTU, MRC_SACK_PENALTY_MAX);
	KUNIT_EXPECT_EQ(test, cc.cwnd, (u32)MRC_CCPROF_MIN_CWND_DEFAULT);
}

static struct kunit_case cc_cases[] = {
	KUNIT_CASE(cc_starts_open),
	KUNIT_CASE(cc_proportional_increase),
	KUNIT_CASE(cc_fair_increase),
	KUNIT_CASE(cc_decrease_once_per_window),
	KUNIT_CASE(cc_decrease_scaled_by_marked_share),
	KUNIT_CASE(cc_hold_when_marked_below_target),
	KUNIT_CASE(cc_stays_in_bounds),
	KUNIT_CASE(cc_receiver_penalty),
	{}
};

static struct kunit_suite cc_suite = {
	.name = "mrc-cc",
	.test_cases = cc_cases,
};

kunit_test_suite(cc_suite);
