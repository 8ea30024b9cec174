// SPDX-License-Identifier: GPL-2.0
/*
 * The EV state machine of a QP.  Each plane the QP can reach gets an equal
 * share of the active EV set (ev_path.c installs it); packets take the next
 * usable slot of a shuffled rotation, so the per-packet cost does not
 * depend on the set's size.  Losses and congestion signals change slot
 * states in the softirq that learns them: SKIP, retirement to a spare
 * entropy, suspicion, ASSUMED_BAD, and the controller's DENIED.  Retired
 * entropies are probed in the background (ev_probe.c) and come back to
 * their slots, or else as spares.  Everything here runs under qp->lock.
 */

#include <linux/jiffies.h>
#include <linux/moduleparam.h>

#include "mrc.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

/* The KUnit suites read a retirement's report where benchmarks do. */
#if IS_ENABLED(CONFIG_KUNIT)
EXPORT_TRACEPOINT_SYMBOL_GPL(mrc_ev_retire);
#endif

unsigned int mrc_ev_count = MRC_EV_DEFAULT;
module_param_named(ev_count, mrc_ev_count, uint, 0644);
MODULE_PARM_DESC(ev_count, "active EVs (paths) of each new connection, 1-256 (default 128)");

/* Up here, and the peer has not said it cannot receive on it. */
bool mrc_ev_plane_up(struct mrc_qp *qp, u8 pl)
{
	return pl < qp->mdev->nports && !(qp->evs->peer_down & BIT(pl)) &&
	       mrc_plane_up(qp->mdev, pl);
}

/*
 * Entering ASSUMED_BAD and coming back from it to GOOD are reported to the
 * controller; SKIP lasts one turn and DENIED is the controller's own doing.
 */
void mrc_ev_set_state(struct mrc_qp *qp, struct mrc_ev *ev, u8 state)
{
	bool report = state == MRC_EV_STATE_ASSUMED_BAD ?
		      ev->state != state :
		      state == MRC_EV_STATE_GOOD &&
		      ev->state == MRC_EV_STATE_ASSUMED_BAD;

	trace_mrc_ev_state(qp->ibqp.qp_num, ev->value, ev->state, state);
	ev->state = state;
	ev->changed = ktime_get();
	ev->probe_ok = 0;
	if (state == MRC_EV_STATE_ASSUMED_BAD) {
		ev->probe_ms = MRC_EV_PROBE_MIN_MS;
		ev->probe_at = jiffies + msecs_to_jiffies(ev->probe_ms);
	}
	if (report)
		mrc_event_ev(qp, ev);
}

/* Fisher-Yates over the active slots: a new rotation order. */
void mrc_ev_shuffle(struct mrc_evset *s)
{
	u32 i, j;
	u16 t;

	for (i = s->n - 1; i > 0; i--) {
		j = prandom_u32_state(&s->rnd) % (i + 1);
		t = s->order[i];
		s->order[i] = s->order[j];
		s->order[j] = t;
	}
}

/**
 * mrc_ev_pick() - the slot the next packet takes
 * @qp: the QP, locked
 * @avoid_plane: a plane to stay off when another one is usable (a
 *	retransmission leaves the plane that lost it), or -1
 *
 * Takes the next GOOD slot of the rotation.  A slot on a plane that went
 * down is marked ASSUMED_BAD on the way, so a dead plane costs one step per
 * slot once.  With no GOOD slot at all the packet still goes somewhere: the
 * next slot in the rotation the controller has not denied, and the
 * retransmit timer covers it.  A DENIED slot is never taken.
 *
 * Return: the slot, or -1 when the QP has no paths yet.
 */
int mrc_ev_pick(struct mrc_qp *qp, int avoid_plane)
{
	struct mrc_evset *s = qp->evs;
	int fallback = -1, avoided = -1, any = -1;
	u32 tries, limit, avoided_rot = 0;
	u16 avoided_cursor = 0, slot;
	struct mrc_ev *ev;

	if (!s || !s->n)
		return -1;
	limit = s->n;
	for (tries = 0; tries < limit; tries++) {
		if (s->cursor >= s->n) {
			s->cursor = 0;
			if (++s->rotation % MRC_EV_RESHUFFLE == 0) {
				mrc_ev_shuffle(s);
				/*
				 * The slots passed before now sit anywhere in
				 * the new order: a GOOD one is only missed for
				 * sure after a whole pass over it.
				 */
				limit = tries + s->n;
			}
		}
		slot = s->order[s->cursor++];
		ev = &s->ev[slot];
		if (ev->state == MRC_EV_STATE_DENIED)
			continue;
		if (any < 0)
			any = slot;
		/*
		 * Without a GOOD slot, a suspected path on a live plane other
		 * than the one to avoid beats one on a dead plane.
		 */
		if (ev->state == MRC_EV_STATE_ASSUMED_BAD) {
			if (fallback < 0 && ev->plane != avoid_plane &&
			    mrc_ev_plane_up(qp, ev->plane))
				fallback = slot;
			continue;
		}
		if (!mrc_ev_plane_up(qp, ev->plane)) {
			mrc_ev_set_state(qp, ev, MRC_EV_STATE_ASSUMED_BAD);
			mrc_count(qp->mdev, ev->plane, MRC_CNT_EV_ASSUMED_BAD, 1);
			mrc_ev_arm_probes(qp);
			continue;
		}
		/* A congested path sits out its next turn of the rotation. */
		if (ev->state == MRC_EV_STATE_SKIP) {
			mrc_ev_set_state(qp, ev, MRC_EV_STATE_GOOD);
			continue;
		}
		if (ev->plane == avoid_plane) {
			if (avoided < 0) {
				avoided = slot;
				avoided_cursor = s->cursor;
				avoided_rot = s->rotation;
			}
			continue;
		}
		return slot;
	}
	if (avoided >= 0) {
		/*
		 * Only the avoided plane works: take its first slot and carry
		 * on from there, so the next picks do not all land on it.
		 */
		s->cursor = avoided_cursor;
		s->rotation = avoided_rot;
		return avoided;
	}
	return fallback >= 0 ? fallback : any;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_pick);

/**
 * mrc_ev_sent() - a packet leaves on @slot
 * @qp: the QP, locked
 * @slot: from mrc_ev_pick(), or -1
 * @ev: set to the EV value the packet carries
 * @ev_seq: set to its order among the packets on that EV
 */
void mrc_ev_sent(struct mrc_qp *qp, int slot, u32 *ev, u32 *ev_seq)
{
	struct mrc_ev *e;

	if (slot < 0) {
		*ev = mrc_ev_untracked(qp->av.plane, 0);
		*ev_seq = 0;
		return;
	}
	e = &qp->evs->ev[slot];
	*ev = e->value;
	*ev_seq = e->tx_seq++;
	e->tx_pkts++;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_sent);

/* The EV of a packet that is not tracked per path: SACK, NACK, READ data. */
u32 mrc_ev_next(struct mrc_qp *qp)
{
	u32 ev, seq;

	mrc_ev_sent(qp, mrc_ev_pick(qp, -1), &ev, &seq);
	return ev;
}

/* The active slot @ev names, if it still carries that entropy. */
struct mrc_ev *mrc_ev_find(struct mrc_qp *qp, u32 ev)
{
	struct mrc_evset *s = qp->evs;
	u8 slot = mrc_ev_slot(ev);

	if (!s || (ev & MRC_EV_F_UNTRACKED) || slot >= s->n ||
	    s->ev[slot].value != ev)
		return NULL;
	return &s->ev[slot];
}

/* A packet sent as the @ev_seq-th on @ev, from @cpu, is acknowledged. */
void mrc_ev_acked(struct mrc_qp *qp, u32 ev, u32 ev_seq, u16 cpu)
{
	struct mrc_ev *e = mrc_ev_find(qp, ev);

	if (!e)
		return;
	e->suspect = 0;
	if ((s32)(ev_seq + 1 - e->acked_seq) > 0) {
		e->acked_seq = ev_seq + 1;
		e->acked_cpu = cpu;
	}
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_acked);

/*
 * An unacknowledged packet is lost on its path when later packets on the
 * same EV, sent from the same CPU (@cpu), were acknowledged: one EV is one
 * path, and a path keeps order.  Only from one CPU: each CPU hands its
 * packets to its own queue (a NIC's transmit queue under XPS, a veth's
 * backlog), and a CPU whose queue stalls, say a vCPU the hypervisor
 * preempted for milliseconds, holds back its packets of every EV while
 * another CPU's later packets on the same EVs arrive.  Judged across CPUs,
 * one such stall retired dozens of healthy EVs at once (mrc_srv6.sh on a
 * loaded CI host).  With qp->req.ev_margin packets of margin (1 to start
 * with), widened when such a judgement proves wrong all the same.
 */
bool mrc_ev_lost(struct mrc_qp *qp, u32 ev, u32 ev_seq, u16 cpu)
{
	struct mrc_ev *e = mrc_ev_find(qp, ev);
	u32 acked;
	u16 acked_cpu;

	if (ev & MRC_EV_F_UNTRACKED)
		return false;
	if (e) {
		acked = e->acked_seq;
		acked_cpu = e->acked_cpu;
	} else if (qp->evs && ev == qp->evs->gone_value) {
		acked = qp->evs->gone_acked;
		acked_cpu = qp->evs->gone_cpu;
	} else {
		return false;
	}
	return acked_cpu == cpu &&
	       (s32)(acked - (ev_seq + 1 + qp->req.ev_margin)) > 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_lost);

/*
 * The entropy of slot @slot goes to its plane's retired list, with the
 * slot as its home.  A slot has one home-comer at most: if the entropy
 * that replaced an earlier retired one fails too, the earlier one (the
 * slot's original share of the paths) keeps the claim.
 */
static void mrc_ev_remember(struct mrc_evset *s, const struct mrc_ev *e,
			    u8 slot)
{
	struct mrc_ev_spare *r = s->retired[e->plane], *victim = &r[0];
	u32 i;

	for (i = 0; i < MRC_EV_RETIRED; i++) {
		if (!r[i].used) {
			victim = &r[i];
			break;
		}
		/* Full: forget the one probed longest without an answer. */
		if (r[i].probe_ms > victim->probe_ms)
			victim = &r[i];
	}
	victim->home = slot;
	for (i = 0; i < MRC_EV_RETIRED; i++)
		if (&r[i] != victim && r[i].used && r[i].home == slot)
			victim->home = MRC_EV_NO_HOME;
	victim->used = 1;
	victim->entropy = mrc_ev_entropy(e->value);
	victim->tx_seq = e->tx_seq;
	victim->acked_seq = e->acked_seq;
	victim->acked_cpu = e->acked_cpu;
	victim->probe_ok = 0;
	victim->probe_ms = MRC_EV_PROBE_MIN_MS;
	victim->probe_at = jiffies + msecs_to_jiffies(victim->probe_ms);
}

/* @entropy joins its plane's spares, if there is room. */
void mrc_ev_spare_add(struct mrc_evset *s, u8 pl, u16 entropy)
{
	if (s->nbackup[pl] < s->max_backup)
		s->backup[pl][s->nbackup[pl]++] = entropy;
}

/*
 * The spare a retired slot of plane @pl takes: the last of the plane's
 * spares, except over SRv6, where the entropy picks the path (entropy mod
 * the plane's paths): there the last one that picks another path than
 * @dead, the entropy that just failed, so the slot does not land on the
 * failed path again.  If every spare picks that path, the last one still
 * beats no spare.  Without SRv6 nothing is known of paths.
 */
static u16 mrc_ev_spare_take(struct mrc_qp *qp, u8 pl, u16 dead)
{
	struct mrc_evset *s = qp->evs;
	const struct mrc_srv6_dst *d;
	u32 n = s->nbackup[pl], pick = n - 1, npaths = 0, i;
	u16 *b = s->backup[pl], spare;

	d = rcu_dereference_protected(s->srv6, lockdep_is_held(&qp->lock));
	if (d)
		npaths = d->count[pl];
	for (i = n; npaths > 1 && i > 0; i--) {
		if (b[i - 1] % npaths != dead % npaths) {
			pick = i - 1;
			break;
		}
	}
	spare = b[pick];
	/* The others keep their order: the last returned goes out first. */
	memmove(&b[pick], &b[pick + 1], (n - 1 - pick) * sizeof(*b));
	s->nbackup[pl] = n - 1;
	return spare;
}

u32 mrc_ev_count_state(const struct mrc_qp *qp, u8 state)
{
	const struct mrc_evset *s = qp->evs;
	u32 i, n = 0;

	for (i = 0; s && i < s->n; i++)
		n += s->ev[i].state == state;
	return n;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_count_state);

/**
 * mrc_ev_retire() - the path of @ev lost a packet silently
 * @qp: the QP, locked
 * @ev: the EV value the lost packet carried
 * @why: what showed the loss, for the tracepoint
 *
 * Runs in the call that learned of the loss.  The slot takes a spare
 * entropy of the same plane, so every plane keeps its share (over SRv6 one
 * off the failed path, if the plane has one); the lost one is probed until
 * it answers, then takes the slot back.  Without a spare the slot itself
 * goes ASSUMED_BAD, unless that would leave fewer than min_active GOOD
 * slots.
 * A stale value (the slot moved on already) changes nothing.
 */
void mrc_ev_retire(struct mrc_qp *qp, u32 ev, enum mrc_ev_why why)
{
	struct mrc_ev *e = mrc_ev_find(qp, ev);
	struct mrc_evset *s = qp->evs;
	u64 t0 = ktime_get_ns(), took_ns;
	u32 old = ev, after;
	bool replaced;
	u8 pl, slot;

	if (!e)
		return;
	e->losses++;
	if (e->state == MRC_EV_STATE_ASSUMED_BAD ||
	    e->state == MRC_EV_STATE_DENIED)
		return;
	pl = e->plane;
	slot = mrc_ev_slot(ev);
	after = e->suspect ? e->tx_seq - e->signal_seq : 0;
	e->suspect = 0;
	if (!s->nbackup[pl] &&
	    mrc_ev_count_state(qp, MRC_EV_STATE_GOOD) <= s->min_active) {
		mrc_count(qp->mdev, pl, MRC_CNT_EV_FLOOR, 1);
		return;
	}
	e->retired++;
	mrc_count(qp->mdev, pl, MRC_CNT_EV_ASSUMED_BAD, 1);
	/* Holes behind this one on the old value are still provably lost. */
	s->gone_value = ev;
	s->gone_acked = e->acked_seq;
	s->gone_cpu = e->acked_cpu;
	replaced = s->nbackup[pl];
	if (replaced) {
		mrc_ev_remember(s, e, slot);
		e->value = mrc_ev_value(pl, slot,
					mrc_ev_spare_take(qp, pl,
							  mrc_ev_entropy(ev)));
		e->tx_seq = 0;
		e->acked_seq = 0;
		mrc_ev_set_state(qp, e, MRC_EV_STATE_GOOD);
	} else {
		mrc_ev_set_state(qp, e, MRC_EV_STATE_ASSUMED_BAD);
	}
	/*
	 * Retired: the slot's next turn sends on the new entropy, or passes
	 * it by.  What follows tells others (the controller, the prober) and
	 * is not part of the time the retirement took, which only the
	 * tracepoint reports.
	 */
	took_ns = ktime_get_ns() - t0;
	/* A new EV in the slot: the controller hears of it as GOOD. */
	if (replaced)
		mrc_event_ev(qp, e);
	mrc_ev_arm_probes(qp);
	trace_mrc_ev_retire(qp->ibqp.qp_num, old, e->value, took_ns, after,
			    why);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_retire);

/**
 * mrc_ev_suspect() - a packet on @ev is overdue, by PSN distance or time
 * @qp: the QP, locked
 * @ev: its EV
 * @ev_seq: the packet's order on @ev
 * @sent_ns: when it left
 * @why: MRC_EV_WHY_SUSPECT (distance) or MRC_EV_WHY_TIMEOUT (the QP's timer)
 *
 * Neither is proof: planes differ in delay, and the QP's one timer fires
 * for a host that stalled or an answer lost on the way back as readily as
 * for a dead path.  But a path that loses every packet never has a later
 * one acknowledged either: a second overdue packet, sent after the first
 * was found overdue and with nothing heard from the path in between,
 * retires it.  Packets already in flight with the first prove nothing
 * more: a stall (a CPU's backlog, a slow plane) delays them together.
 * Nor does silence shorter than the longest round trip its plane showed
 * lately: within a plane, a path that queues behind a busier uplink falls
 * further behind its neighbours than the distance rule allows, for as long
 * as that queue takes to drain (bench-srv6 retired such paths beside a
 * dead spine's).  A dead path stays silent past it.
 */
void mrc_ev_suspect(struct mrc_qp *qp, u32 ev, u32 ev_seq, u64 sent_ns,
		    enum mrc_ev_why why)
{
	struct mrc_ev *e = mrc_ev_find(qp, ev);

	if (!e)
		return;
	if (!e->suspect) {
		e->signal_seq = e->tx_seq;
		e->signal_ns = sent_ns;
	} else if ((s32)(ev_seq - e->signal_seq) < 0) {
		return;
	}
	if (e->suspect < MRC_EV_SUSPECT_MAX)
		e->suspect++;
	if (e->suspect >= MRC_EV_SUSPECT_MAX &&
	    ktime_get_ns() - e->signal_ns >=
	    (u64)qp->req.plane_rtt_us[e->plane] * NSEC_PER_USEC)
		mrc_ev_retire(qp, ev, why);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_suspect);

/* Congestion on @ev's path: it sits out its next turn in the rotation. */
void mrc_ev_skip(struct mrc_qp *qp, u32 ev)
{
	struct mrc_ev *e = mrc_ev_find(qp, ev);

	if (!e)
		return;
	e->ecn++;
	if (e->state != MRC_EV_STATE_GOOD)
		return;
	mrc_ev_set_state(qp, e, MRC_EV_STATE_SKIP);
	mrc_count(qp->mdev, e->plane, MRC_CNT_EV_SKIPS, 1);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_skip);

/**
 * mrc_ev_verdict() - what a SACK says of the EV it echoes
 * @qp: the QP, locked
 * @ref_ev: the echoed EV
 * @m: MRC_SACK_M_*
 * @probe: the SACK answers a probe
 */
void mrc_ev_verdict(struct mrc_qp *qp, u32 ref_ev, u8 m, bool probe)
{
	struct mrc_ev *e = mrc_ev_find(qp, ref_ev);

	/* The packet this SACK answers made it: its path is alive. */
	if (e)
		e->suspect = 0;
	/* A CE-marked answer still proves the path works: count it. */
	if (probe && m != MRC_SACK_M_ALWAYS_SKIP)
		mrc_ev_probe_answered(qp, ref_ev);
	if (m == MRC_SACK_M_SKIP_ONCE)
		mrc_ev_skip(qp, ref_ev);
	else if (m == MRC_SACK_M_ALWAYS_SKIP)
		mrc_ev_retire(qp, ref_ev, MRC_EV_WHY_PEER);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_verdict);

/**
 * mrc_ev_set_states() - the controller denies or undenies slots
 * @qp: the QP, locked
 * @reqs: the slots and their new states, DENIED or GOOD
 * @n: entries of @reqs
 * @extack: where a refusal is explained
 *
 * All or nothing: every entry is checked before any slot changes.  A slot
 * must exist and be listed once; undeny needs a DENIED slot (it becomes
 * GOOD, and the rotation may take it at once); deny of a DENIED slot
 * changes nothing.  The QP must keep at least one slot that is not DENIED,
 * so that its packets always have a path the controller allows.  The data
 * path leaves DENIED slots alone: it neither picks, retires, skips nor
 * probes them, and min_active counts GOOD slots only.
 *
 * Return: 0, -ERANGE (no such slot), -EINVAL (listed twice, undeny of a slot
 * that is not DENIED) or -EBUSY (no usable slot would be left).
 */
int mrc_ev_set_states(struct mrc_qp *qp, const struct mrc_ev_req *reqs, u32 n,
		      struct netlink_ext_ack *extack)
{
	DECLARE_BITMAP(seen, MRC_EV_MAX);
	struct mrc_evset *s = qp->evs;
	u32 i, usable = 0;
	u8 cur;

	lockdep_assert_held(&qp->lock);
	bitmap_zero(seen, MRC_EV_MAX);
	for (i = 0; s && i < s->n; i++)
		usable += s->ev[i].state != MRC_EV_STATE_DENIED;
	for (i = 0; i < n; i++) {
		if (!s || reqs[i].slot >= s->n) {
			NL_SET_ERR_MSG_ATTR(extack, reqs[i].attr,
					    "EV slot is beyond the QP's EV count");
			return -ERANGE;
		}
		if (__test_and_set_bit(reqs[i].slot, seen)) {
			NL_SET_ERR_MSG_ATTR(extack, reqs[i].attr,
					    "EV slot listed twice");
			return -EINVAL;
		}
		cur = s->ev[reqs[i].slot].state;
		if (reqs[i].state == MRC_EV_STATE_GOOD) {
			if (cur != MRC_EV_STATE_DENIED) {
				NL_SET_ERR_MSG_ATTR(extack, reqs[i].attr,
						    "EV is not denied");
				return -EINVAL;
			}
			usable++;
		} else if (cur != MRC_EV_STATE_DENIED) {
			usable--;
		}
	}
	if (!usable) {
		NL_SET_ERR_MSG(extack,
			       "denying these EVs would leave the QP without an allowed EV");
		return -EBUSY;
	}
	for (i = 0; i < n; i++) {
		struct mrc_ev *e = &s->ev[reqs[i].slot];

		if (e->state != reqs[i].state)
			mrc_ev_set_state(qp, e, reqs[i].state);
	}
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_set_states);
