/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 24-bit packet sequence number (PSN) arithmetic for mrc.
 *
 * PSNs live in a ring of 2^24 values. Ordering is serial-number arithmetic
 * (RFC 1982 with SERIAL_BITS = 24): a is "after" b when going forward from b
 * to a takes fewer than 2^23 steps. Exactly 2^23 apart is ambiguous in
 * RFC 1982; here it always reads as "before" in both directions, as the
 * kernel's TCP before() does at 2^31, so the answer is at least
 * deterministic. Windows are capped at MRC_PSN_WINDOW_MAX (2^23) so that no
 * in-window comparison ever meets the ambiguous distance.
 */
#ifndef _MRC_PSN_H
#define _MRC_PSN_H

#include <linux/types.h>

#define MRC_PSN_BITS		24
#define MRC_PSN_MASK		((1U << MRC_PSN_BITS) - 1)
#define MRC_PSN_HALF		(1U << (MRC_PSN_BITS - 1))
/* Largest window in which before()/after() agree with window offsets. */
#define MRC_PSN_WINDOW_MAX	MRC_PSN_HALF

static inline u32 mrc_psn_mask(u32 psn)
{
	return psn & MRC_PSN_MASK;
}

/* psn + n, wrapping at 2^24; n may be any u32 (it is taken modulo 2^24). */
static inline u32 mrc_psn_add(u32 psn, u32 n)
{
	return (psn + n) & MRC_PSN_MASK;
}

/* Steps forward from @from to @to, in [0, 2^24). Never ambiguous. */
static inline u32 mrc_psn_fwd(u32 to, u32 from)
{
	return (to - from) & MRC_PSN_MASK;
}

/*
 * Signed distance a - b in [-2^23, 2^23 - 1]. The one ambiguous distance,
 * 2^23, maps to -2^23 whichever way round the arguments are.
 */
static inline s32 mrc_psn_sub(u32 a, u32 b)
{
	u32 d = mrc_psn_fwd(a, b);

	return d >= MRC_PSN_HALF ? (s32)d - (s32)(1U << MRC_PSN_BITS) : (s32)d;
}

static inline bool mrc_psn_before(u32 a, u32 b)
{
	return mrc_psn_sub(a, b) < 0;
}

static inline bool mrc_psn_after(u32 a, u32 b)
{
	return mrc_psn_sub(a, b) > 0;
}

static inline bool mrc_psn_before_eq(u32 a, u32 b)
{
	return mrc_psn_sub(a, b) <= 0;
}

static inline bool mrc_psn_after_eq(u32 a, u32 b)
{
	return mrc_psn_sub(a, b) >= 0;
}

/*
 * Is @psn on the forward arc from @lo to @hi, both ends included? Pure ring
 * arithmetic, so it is exact for any arc, including ones >= 2^23 long.
 */
static inline bool mrc_psn_between(u32 psn, u32 lo, u32 hi)
{
	return mrc_psn_fwd(psn, lo) <= mrc_psn_fwd(hi, lo);
}

/*
 * Is @psn one of the @size PSNs base, base + 1, ..., base + size - 1?
 * A size of 0 holds nothing. Callers keep size <= MRC_PSN_WINDOW_MAX so
 * that anything outside the window is unambiguously before or after it.
 */
static inline bool mrc_psn_in_window(u32 psn, u32 base, u32 size)
{
	return mrc_psn_fwd(psn, base) < size;
}

#endif /* _MRC_PSN_H */
