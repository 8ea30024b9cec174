// SPDX-License-Identifier: GPL-2.0
/*
 * Congestion window of a QP, NSCC-style: every SACK feeds the bytes it
 * acknowledges, whether it echoes an ECN mark, and an RTT sample when it has
 * one, and the window moves by the quadrant of (ECN, queueing delay versus
 * target):
 *
 *   no ECN, delay below target   proportional increase (eta per packet,
 *                                scaled by how far below target)
 *   no ECN, delay above target   fair increase (fi per window acknowledged)
 *   ECN,    delay above target   multiplicative decrease, at most once per
 *                                window, scaled by the marked fraction
 *   ECN,    delay below target   hold
 *
 * The queueing delay is the RTT minus the lowest RTT the QP has seen; the
 * target is the CC profile's target_delay - base_rtt above that, so the
 * same profile works on a fabric and on a host that emulates one.  Scaling
 * the decrease by the marked fraction of the window (as DCTCP does) keeps
 * one marked plane of eight from halving the window of all of them: MRC
 * answers a single congested path by avoiding it (ev.c), the window by
 * the share of the traffic that met congestion.  Pure arithmetic on
 * struct mrc_cc, under qp->lock.
 */

#include <linux/math64.h>
#include <linux/minmax.h>

#include "mrc.h"

void mrc_cc_init(struct mrc_cc *cc, const struct mrc_ccprof_cfg *cfg)
{
	memset(cc, 0, sizeof(*cc));
	cc->target_us = max_t(u32, cfg->target_delay_us - cfg->base_rtt_us, 1);
	cc->min_cwnd = cfg->min_cwnd;
	cc->max_cwnd = cfg->max_cwnd;
	cc->gamma = cfg->gamma;
	cc->max_md_jump = cfg->max_md_jump;
	cc->eta = cfg->eta;
	cc->fi = cfg->fi;
	/* Start open: the peer's window bounds the first RTT. */
	cc->cwnd = cc->max_cwnd;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_cc_init);

/**
 * mrc_cc_ack() - one SACK's worth of news
 * @cc: the QP's state
 * @bytes: newly acknowledged payload bytes (0 for a SACK that adds none)
 * @ecn: the SACK echoes a CE mark
 * @rtt_us: an RTT sample, or 0
 *
 * Return: the quadrant applied, enum mrc_cc_quadrant.
 */
int mrc_cc_ack(struct mrc_cc *cc, u32 bytes, bool ecn, u32 rtt_us)
{
	int q;

	if (rtt_us) {
		if (!cc->base_rtt_us || rtt_us < cc->base_rtt_us)
			cc->base_rtt_us = rtt_us;
		cc->delay_us = rtt_us - cc->base_rtt_us;
	}
	cc->epoch_acked += bytes;
	if (ecn)
		cc->epoch_marked += max_t(u32, bytes, 1);

	if (!ecn && cc->delay_us < cc->target_us) {
		q = MRC_CC_PROPORTIONAL;
		cc->cwnd += div_u64((u64)cc->eta * bytes *
				    (cc->target_us - cc->delay_us),
				    (u64)cc->target_us * MRC_CC_UNIT);
	} else if (!ecn) {
		q = MRC_CC_FAIR;
		cc->cwnd += div_u64((u64)cc->fi * bytes, cc->cwnd);
	} else if (cc->delay_us >= cc->target_us) {
		q = MRC_CC_DECREASE;
		if (!cc->decreased) {
			u64 frac = min_t(u64, 1000, div_u64(cc->epoch_marked * 1000ULL,
				    max_t(u32, cc->epoch_acked, 1)));
			u64 cut = div_u64((u64)cc->gamma *
					  (cc->delay_us - cc->target_us) * frac,
					  (u64)max_t(u32, cc->delay_us, 1) * 1000);

			cut = min_t(u64, cut, cc->max_md_jump);
			cc->cwnd -= div_u64((u64)cc->cwnd * cut, 1000);
			cc->decreased = true;
			cc->decreases++;
		}
	} else {
		q = MRC_CC_HOLD;
	}
	cc->cwnd = clamp(cc->cwnd, cc->min_cwnd, cc->max_cwnd);

	/* A window's worth acknowledged ends the epoch. */
	if (cc->epoch_acked >= cc->cwnd) {
		cc->epoch_acked = 0;
		cc->epoch_marked = 0;
		cc->decreased = false;
	}
	return q;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_cc_ack);

/**
 * mrc_cc_penalty() - the responder is pressed (its CPU's backlog fills)
 * @cc: the QP's state
 * @bytes: what the SACK carrying the penalty newly acknowledged
 * @penalty: 1 .. MRC_SACK_PENALTY_MAX
 *
 * The window gives up penalty/128 of @bytes, on top of what the SACK's
 * quadrant did: a receiver that cannot keep up is not a congested path,
 * so neither skipping EVs nor the delay signal answers it, and a cut by
 * what is acknowledged shrinks the window for as long as the pressure
 * lasts and no longer.
 */
void mrc_cc_penalty(struct mrc_cc *cc, u32 bytes, u8 penalty)
{
	u32 cut = div_u64((u64)bytes * penalty, MRC_SACK_PENALTY_MAX + 1);

	cc->cwnd = max(cc->cwnd - min(cut, cc->cwnd), cc->min_cwnd);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_cc_penalty);

/* The window in packets of @mtu bytes, at least one. */
u32 mrc_cc_window(const struct mrc_cc *cc, u32 mtu)
{
	return max_t(u32, cc->cwnd / mtu, 1);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_cc_window);
