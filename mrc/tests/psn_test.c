// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "mrc-psn": 24-bit PSN arithmetic from mrc/psn.h, including
 * wrap at 2^24, window edges and the deterministic answer at distance 2^23.
 */
#include <kunit/test.h>
#include <linux/prandom.h>

#include "../psn.h"

static const u32 psn_bases[] = {
	0, 1, 0x7fffff, 0x800000, 0x800001, 0xfffff0, 0xfffffe, MRC_PSN_MASK,
};

static void psn_add_wraps_at_2_24(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mrc_psn_add(MRC_PSN_MASK, 1), 0U);
	KUNIT_EXPECT_EQ(test, mrc_psn_add(0xfffffe, 5), 3U);
	KUNIT_EXPECT_EQ(test, mrc_psn_add(5, 1U << 24), 5U);
	KUNIT_EXPECT_EQ(test, mrc_psn_add(0, MRC_PSN_MASK), MRC_PSN_MASK);
	/* Adding 2^24 - 1 is subtracting 1. */
	KUNIT_EXPECT_EQ(test, mrc_psn_add(0, 0xffffffff), MRC_PSN_MASK);
	KUNIT_EXPECT_EQ(test, mrc_psn_add(10, MRC_PSN_MASK), 9U);
}

static void psn_mask_keeps_low_24_bits(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mrc_psn_mask(0x12345678), 0x345678U);
	KUNIT_EXPECT_EQ(test, mrc_psn_mask(0x01000000), 0U);
	KUNIT_EXPECT_EQ(test, mrc_psn_mask(MRC_PSN_MASK), MRC_PSN_MASK);
}

static void psn_sub_is_signed_distance_across_wrap(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mrc_psn_sub(2, 0xfffffe), 4);
	KUNIT_EXPECT_EQ(test, mrc_psn_sub(0xfffffe, 2), -4);
	KUNIT_EXPECT_EQ(test, mrc_psn_sub(0, MRC_PSN_MASK), 1);
	KUNIT_EXPECT_EQ(test, mrc_psn_sub(MRC_PSN_MASK, 0), -1);
	KUNIT_EXPECT_EQ(test, mrc_psn_sub(77, 77), 0);
	/* The largest distances that still have a direction. */
	KUNIT_EXPECT_EQ(test, mrc_psn_sub(0x7fffff, 0), 0x7fffff);
	KUNIT_EXPECT_EQ(test, mrc_psn_sub(0, 0x7fffff), -0x7fffff);
	KUNIT_EXPECT_EQ(test, mrc_psn_sub(0x800005, 6), 0x7fffff);
	/* Bits above 24 in the inputs do not matter. */
	KUNIT_EXPECT_EQ(test, mrc_psn_sub(0xff000003, 1), 2);
}

static void psn_before_after_across_wrap(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, mrc_psn_before(MRC_PSN_MASK, 0));
	KUNIT_EXPECT_TRUE(test, mrc_psn_after(0, MRC_PSN_MASK));
	KUNIT_EXPECT_TRUE(test, mrc_psn_before(0xfffff0, 0x10));
	KUNIT_EXPECT_FALSE(test, mrc_psn_after(0xfffff0, 0x10));
	KUNIT_EXPECT_FALSE(test, mrc_psn_before(5, 5));
	KUNIT_EXPECT_FALSE(test, mrc_psn_after(5, 5));
	KUNIT_EXPECT_TRUE(test, mrc_psn_before_eq(5, 5));
	KUNIT_EXPECT_TRUE(test, mrc_psn_after_eq(5, 5));
	KUNIT_EXPECT_TRUE(test, mrc_psn_after_eq(1, MRC_PSN_MASK));
	KUNIT_EXPECT_FALSE(test, mrc_psn_before_eq(1, MRC_PSN_MASK));
	/* 2^23 - 1 ahead is after; the wrap does not change that. */
	KUNIT_EXPECT_TRUE(test, mrc_psn_after(mrc_psn_add(0xfffff0, 0x7fffff),
					      0xfffff0));
}

static void psn_half_space_reads_before_both_ways(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(psn_bases); i++) {
		u32 a = psn_bases[i], b = mrc_psn_add(a, MRC_PSN_HALF);

		KUNIT_EXPECT_EQ_MSG(test, mrc_psn_sub(b, a), -(s32)MRC_PSN_HALF,
				    "a=%#x", a);
		KUNIT_EXPECT_EQ_MSG(test, mrc_psn_sub(a, b), -(s32)MRC_PSN_HALF,
				    "a=%#x", a);
		KUNIT_EXPECT_TRUE_MSG(test, mrc_psn_before(a, b), "a=%#x", a);
		KUNIT_EXPECT_TRUE_MSG(test, mrc_psn_before(b, a), "a=%#x", a);
		KUNIT_EXPECT_FALSE_MSG(test, mrc_psn_after(a, b), "a=%#x", a);
		KUNIT_EXPECT_FALSE_MSG(test, mrc_psn_after(b, a), "a=%#x", a);
	}
}

static void psn_in_window_edges(struct kunit *test)
{
	static const u32 sizes[] = { 1, 64, 1024, MRC_PSN_WINDOW_MAX };
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(psn_bases); i++) {
		for (j = 0; j < ARRAY_SIZE(sizes); j++) {
			u32 base = psn_bases[i], size = sizes[j];
			u32 last = mrc_psn_add(base, size - 1);
			u32 beyond = mrc_psn_add(base, size);
			u32 prev = mrc_psn_add(base, MRC_PSN_MASK);

			KUNIT_EXPECT_TRUE_MSG(test,
					      mrc_psn_in_window(base, base, size),
					      "base=%#x size=%u", base, size);
			KUNIT_EXPECT_TRUE_MSG(test,
					      mrc_psn_in_window(last, base, size),
					      "base=%#x size=%u", base, size);
			KUNIT_EXPECT_FALSE_MSG(test,
					       mrc_psn_in_window(beyond, base, size),
					       "base=%#x size=%u", base, size);
			KUNIT_EXPECT_FALSE_MSG(test,
					       mrc_psn_in_window(prev, base, size),
					       "base=%#x size=%u", base, size);
		}
	}
}

static void psn_in_window_empty_and_whole_ring(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, mrc_psn_in_window(0, 0, 0));
	KUNIT_EXPECT_FALSE(test, mrc_psn_in_window(MRC_PSN_MASK, MRC_PSN_MASK, 0));
	KUNIT_EXPECT_TRUE(test, mrc_psn_in_window(0x123456, 0x654321, 1U << 24));
	KUNIT_EXPECT_FALSE(test, mrc_psn_in_window(0x654320, 0x654321,
						   MRC_PSN_MASK));
}

static void psn_between_inclusive_across_wrap(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, mrc_psn_between(0xfffffe, 0xfffffe, 3));
	KUNIT_EXPECT_TRUE(test, mrc_psn_between(0, 0xfffffe, 3));
	KUNIT_EXPECT_TRUE(test, mrc_psn_between(3, 0xfffffe, 3));
	KUNIT_EXPECT_FALSE(test, mrc_psn_between(4, 0xfffffe, 3));
	KUNIT_EXPECT_FALSE(test, mrc_psn_between(0xfffffd, 0xfffffe, 3));
	KUNIT_EXPECT_TRUE(test, mrc_psn_between(9, 9, 9));
	KUNIT_EXPECT_FALSE(test, mrc_psn_between(10, 9, 9));
	/* An arc longer than half the ring is still exact. */
	KUNIT_EXPECT_TRUE(test, mrc_psn_between(0xc00000, 0, 0xf00000));
	KUNIT_EXPECT_FALSE(test, mrc_psn_between(0xf00001, 0, 0xf00000));
}

/* Inside a window no larger than 2^23, offsets and ordering agree. */
static void psn_window_agrees_with_order(struct kunit *test)
{
	struct rnd_state rnd;
	unsigned int i;

	prandom_seed_state(&rnd, 0x6d7263);
	for (i = 0; i < 10000; i++) {
		u32 base = prandom_u32_state(&rnd) & MRC_PSN_MASK;
		u32 size = 1 + prandom_u32_state(&rnd) % MRC_PSN_WINDOW_MAX;
		u32 psn = prandom_u32_state(&rnd) & MRC_PSN_MASK;
		bool in;

		if (i & 1)	/* half the time, land on or just past the end */
			psn = mrc_psn_add(base, size - 1 + ((i >> 1) & 1));
		in = mrc_psn_after_eq(psn, base) &&
		     mrc_psn_sub(psn, base) < (s32)size;
		KUNIT_EXPECT_EQ_MSG(test, mrc_psn_in_window(psn, base, size), in,
				    "psn=%#x base=%#x size=%u", psn, base, size);
	}
}

static struct kunit_case mrc_psn_cases[] = {
	KUNIT_CASE(psn_add_wraps_at_2_24),
	KUNIT_CASE(psn_mask_keeps_low_24_bits),
	KUNIT_CASE(psn_sub_is_signed_distance_across_wrap),
	KUNIT_CASE(psn_before_after_across_wrap),
	KUNIT_CASE(psn_half_space_reads_before_both_ways),
	KUNIT_CASE(psn_in_window_edges),
	KUNIT_CASE(psn_in_window_empty_and_whole_ring),
	KUNIT_CASE(psn_between_inclusive_across_wrap),
	KUNIT_CASE(psn_window_agrees_with_order),
	{}
};

static struct kunit_suite mrc_psn_suite = {
	.name = "mrc-psn",
	.test_cases = mrc_psn_cases,
};

kunit_test_suite(mrc_psn_suite);
