// SPDX-License-Identifier: GPL-2.0
/*
 * The paths of a QP.  Each plane the QP can reach gets an equal share of the
 * active EV set, entropies drawn at random within the plane; packets take
 * the next usable slot of a shuffled rotation, so the per-packet cost does
 * not depend on the set's size.  Losses and congestion signals change slot
 * states in the softirq that learns them; retired entropies are probed in
 * the background and come back to their slots, or else as spares.
 * Everything here runs under qp->lock, except resolution (process context,
 * before the lock).
 */

#include <linux/inetdevice.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <net/addrconf.h>

#include "mrc.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

unsigned int mrc_ev_count = MRC_EV_DEFAULT;
module_param_named(ev_count, mrc_ev_count, uint, 0644);
MODULE_PARM_DESC(ev_count, "active EVs (paths) of each new connection, 1-256 (default 128)");

static u16 mrc_ev_draw(struct mrc_evset *s)
{
	return prandom_u32_state(&s->rnd) & (BIT(MRC_EV_ENTROPY_BITS) - 1);
}

/* Up here, and the peer has not said it cannot receive on it. */
static bool mrc_ev_plane_up(struct mrc_qp *qp, u8 pl)
{
	return pl < qp->mdev->nports && !(qp->evs->peer_down & BIT(pl)) &&
	       mrc_plane_up(qp->mdev, pl);
}

/*
 * Entering ASSUMED_BAD and coming back from it to GOOD are reported to the
 * controller; SKIP lasts one turn and DENIED is the controller's own doing.
 */
static void mrc_ev_set_state(struct mrc_qp *qp, struct mrc_ev *ev, u8 state)
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

/* The probe timer fires by @when, or earlier if it was due earlier. */
static void mrc_ev_arm_probes_by(struct mrc_qp *qp, unsigned long when)
{
	if (!qp->dead)
		timer_reduce(&qp->evs->probe_timer, when);
}

static void mrc_ev_arm_probes(struct mrc_qp *qp)
{
	mrc_ev_arm_probes_by(qp, jiffies +
				 msecs_to_jiffies(MRC_EV_PROBE_MIN_MS));
}

/* Fisher-Yates over the active slots: a new rotation order. */
static void mrc_ev_shuffle(struct mrc_evset *s)
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

/**
 * mrc_ev_port_status() - tell the peer QP which of our planes are down
 * @qp: the QP, locked, connected (RTR or later)
 * @seq: the device's update count (mrc_dev_port_status())
 * @down: bit k set: plane k is down here
 * @out: the packets, for the caller to send unlocked
 *
 * Our plane being down tells our own EVs, not the peer's: without word its
 * data or SACKs keep going out towards the dead port, and a responder never
 * learns that its SACKs are lost.  Two copies, on two planes when two are
 * usable, since either may be lost; a lost pair is no worse than no update,
 * the peer then finds the plane by its own losses.
 */
void mrc_ev_port_status(struct mrc_qp *qp, u32 seq, u32 down,
			struct sk_buff_head *out)
{
	struct mrc_hdrs c = {
		.opcode = MRC_OP_PORT_STATUS,
		.dqpn = qp->attr.dest_qp_num,
		.pstat = { .seq = seq, .down = down },
	};
	int avoid = -1, slot, i;
	struct sk_buff *skb;
	u32 ev_seq;

	for (i = 0; i < 2; i++) {
		slot = mrc_ev_pick(qp, avoid);
		mrc_ev_sent(qp, slot, &c.ev, &ev_seq);
		avoid = mrc_ev_plane(c.ev);
		skb = mrc_rel_ctl_skb(qp, &c);
		if (!skb)
			return;
		__skb_queue_tail(out, skb);
		mrc_count(qp->mdev, avoid, MRC_CNT_PSTAT_TX, 1);
	}
	qp->evs->pstat_ns = ktime_get_ns();
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_port_status);

/**
 * mrc_ev_planes_changed() - a plane of the QP's device went down or came back
 * @qp: the QP, locked, connected (RTR or later)
 * @seq: the device's update count
 * @down: its planes that are down now
 * @out: the port status packets, for the caller to send unlocked
 *
 * The peer hears of it, and the probes run now: while a plane was down its
 * slots' probes waited, and the timer slept up to MRC_EV_PROBE_MAX_MS; a
 * plane that came back should not wait that long to carry traffic again.
 */
void mrc_ev_planes_changed(struct mrc_qp *qp, u32 seq, u32 down,
			   struct sk_buff_head *out)
{
	mrc_ev_port_status(qp, seq, down, out);
	mrc_ev_arm_probes(qp);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_planes_changed);

/*
 * From the probe timer, which runs while any slot is ASSUMED_BAD, as those
 * of a plane that is down, or one that just came back, are: the device's
 * port status again, every MRC_PSTAT_REPEAT_MS while a plane is down and
 * for MRC_PSTAT_HOLD_MS after the last change.  The peer applies a
 * sequence once, so repeats only stand in for updates it never got; they
 * carry the update as the device stored it, not the planes' state now.
 */
void mrc_ev_port_status_repeat(struct mrc_qp *qp, struct sk_buff_head *out)
{
	struct mrc_device *mdev = qp->mdev;
	u64 now = ktime_get_ns();
	u32 seq, down;

	seq = mrc_dev_pstat(mdev, &down);

	if (!down && (!seq || now - READ_ONCE(mdev->pstat_ns) >
			      MRC_PSTAT_HOLD_MS * NSEC_PER_MSEC))
		return;
	if (now - qp->evs->pstat_ns < MRC_PSTAT_REPEAT_MS * NSEC_PER_MSEC)
		return;
	mrc_ev_port_status(qp, seq, down, out);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_port_status_repeat);

/**
 * mrc_ev_peer_status() - the peer's port status arrived
 * @qp: the QP, locked
 * @h: the PORT_STATUS packet
 *
 * Its planes that are down are down for this QP: their slots go
 * ASSUMED_BAD at their next turn and are not probed, exactly as for a plane
 * down here.  A plane the peer has back is probed again and its EVs come
 * back as probes succeed.  An update older than one applied is ignored.
 *
 * Return: true when @h was applied.
 */
bool mrc_ev_peer_status(struct mrc_qp *qp, const struct mrc_hdrs *h)
{
	struct mrc_evset *s = qp->evs;
	u32 was;

	if (!s || (s->peer_seq_valid &&
		   (s32)(h->pstat.seq - s->peer_seq) <= 0))
		return false;
	s->peer_seq = h->pstat.seq;
	s->peer_seq_valid = true;
	was = s->peer_down;
	s->peer_down = h->pstat.down & GENMASK(MRC_MAX_PLANES - 1, 0);
	if (was & ~s->peer_down)
		mrc_ev_arm_probes(qp);
	return true;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_peer_status);

/* The active slot @ev names, if it still carries that entropy. */
static struct mrc_ev *mrc_ev_find(struct mrc_qp *qp, u32 ev)
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
static void mrc_ev_spare_add(struct mrc_evset *s, u8 pl, u16 entropy)
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
	u64 t0 = ktime_get_ns();
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
	 * is not part of the time the retirement took.
	 */
	s->last_retire_ns = ktime_get_ns() - t0;
	s->last_sent_after = after;
	/* A new EV in the slot: the controller hears of it as GOOD. */
	if (replaced)
		mrc_event_ev(qp, e);
	mrc_ev_arm_probes(qp);
	trace_mrc_ev_retire(qp->ibqp.qp_num, old, e->value, s->last_retire_ns,
			    after, why);
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

/*
 * A retired entropy answered its probes: it takes its home slot back from
 * the spare that replaced it, which returns to the spares, so the path
 * that works again carries its share again (over SRv6 the slots were
 * spread evenly over the paths, and the spare was chosen off the failed
 * one).  Only a slot the data path uses, GOOD or sitting out a turn: a
 * DENIED slot is the controller's, an ASSUMED_BAD one is probed as it is.
 *
 * Packets in flight on the spare's value are then unknown to
 * mrc_ev_lost(), which judges none of them: the reordering threshold and
 * the timer cover them.  The home-comer resumes its value's own order, so
 * its old packets and its new ones never share a sequence number.
 */
static bool mrc_ev_go_home(struct mrc_qp *qp, u8 pl,
			   const struct mrc_ev_spare *r)
{
	struct mrc_evset *s = qp->evs;
	struct mrc_ev *e;
	u16 spare;

	if (r->home >= s->n)
		return false;
	e = &s->ev[r->home];
	if (e->plane != pl || (e->state != MRC_EV_STATE_GOOD &&
			       e->state != MRC_EV_STATE_SKIP))
		return false;
	spare = mrc_ev_entropy(e->value);
	e->value = mrc_ev_value(pl, r->home, r->entropy);
	e->tx_seq = r->tx_seq;
	e->acked_seq = r->acked_seq;
	e->acked_cpu = r->acked_cpu;
	e->suspect = 0;
	mrc_ev_set_state(qp, e, MRC_EV_STATE_GOOD);
	/* A new EV in the slot, as after a retirement: reported GOOD. */
	mrc_event_ev(qp, e);
	mrc_ev_spare_add(s, pl, spare);
	return true;
}

static void mrc_ev_probe_answered(struct mrc_qp *qp, u32 ref_ev)
{
	struct mrc_evset *s = qp->evs;
	u8 pl = mrc_ev_plane(ref_ev);
	struct mrc_ev_spare *r;
	struct mrc_ev *e;
	u32 i;

	if (pl >= MRC_MAX_PLANES)
		return;
	e = mrc_ev_find(qp, ref_ev);
	if (e) {
		if (e->state == MRC_EV_STATE_ASSUMED_BAD &&
		    ++e->probe_ok >= MRC_EV_PROBE_OK) {
			mrc_ev_set_state(qp, e, MRC_EV_STATE_GOOD);
			mrc_count(qp->mdev, pl, MRC_CNT_EV_RECOVERED, 1);
		}
		return;
	}
	if (!(ref_ev & MRC_EV_F_UNTRACKED))
		return;
	for (i = 0; i < MRC_EV_RETIRED; i++) {
		r = &s->retired[pl][i];
		if (!r->used || r->entropy != mrc_ev_entropy(ref_ev) ||
		    ++r->probe_ok < MRC_EV_PROBE_OK)
			continue;
		r->used = 0;
		if (!mrc_ev_go_home(qp, pl, r))
			mrc_ev_spare_add(s, pl, r->entropy);
		mrc_count(qp->mdev, pl, MRC_CNT_EV_RECOVERED, 1);
	}
}

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

/* A probe on @value carrying @token, counted; false when out of memory. */
static bool mrc_ev_probe_queue(struct mrc_qp *qp, u32 value, u64 token,
			       struct sk_buff_head *out)
{
	struct mrc_hdrs c = {};
	struct sk_buff *skb;

	c.opcode = MRC_OP_PROBE;
	c.dqpn = qp->attr.dest_qp_num;
	c.psn = qp->req.psn_una;
	c.ev = value;
	c.probe.token = token;
	skb = mrc_rel_ctl_skb(qp, &c);
	if (!skb)
		return false;
	__skb_queue_tail(out, skb);
	mrc_count(qp->mdev, mrc_ev_plane(value), MRC_CNT_EV_PROBES, 1);
	return true;
}

/* Queue one probe on @value, and back its interval off for the next. */
static void mrc_ev_probe_one(struct mrc_qp *qp, u32 value, u32 *probe_ms,
			     unsigned long *probe_at, struct sk_buff_head *out)
{
	mrc_ev_probe_queue(qp, value, ktime_get_ns(), out);
	*probe_ms = min(*probe_ms * 2, (u32)MRC_EV_PROBE_MAX_MS);
	*probe_at = jiffies + msecs_to_jiffies(*probe_ms);
}

/*
 * Tokens of the controller's probes have the top bit set, which the
 * background probes' (ktime_get_ns()) never have: an answer to one kind is
 * never taken for the other.
 */
#define MRC_EV_PROBE_CTL	BIT_ULL(63)

/**
 * mrc_ev_probe_start() - send the controller's probe on one slot
 * @qp: the QP, locked
 * @slot: the slot of the active set whose EV to probe, whatever its state
 * @w: the waiter, initialised; the QP keeps it until the answer, until
 *	mrc_ev_probe_forget() or until the QP is destroyed
 * @out: the probe packet is queued here, for the caller to send unlocked
 *
 * Return: 0; -EINVAL when the QP is not connected or @slot is not active,
 * -EBUSY when another probe of the controller is in flight, -ENOMEM.
 */
int mrc_ev_probe_start(struct mrc_qp *qp, u32 slot,
		       struct mrc_ev_probe_wait *w, struct sk_buff_head *out)
{
	struct mrc_evset *s = qp->evs;
	u64 now = ktime_get_ns();

	if (qp->dead || qp->state != IB_QPS_RTS || !s || slot >= s->n)
		return -EINVAL;
	if (s->waiter)
		return -EBUSY;
	w->value = s->ev[slot].value;
	w->stev = s->format == MRC_EV_FORMAT_STEV;
	w->token = MRC_EV_PROBE_CTL | now;
	if (!mrc_ev_probe_queue(qp, w->value, w->token, out))
		return -ENOMEM;
	s->waiter = w;
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_probe_start);

/* A probe answer (SACK with the probe flag): the controller's, if it waits. */
void mrc_ev_probe_done(struct mrc_qp *qp, u32 ref_ev, u64 token)
{
	struct mrc_ev_probe_wait *w = qp->evs ? qp->evs->waiter : NULL;

	if (!w || w->token != token || w->value != ref_ev)
		return;
	w->rtt_ns = ktime_get_ns() - (token & ~MRC_EV_PROBE_CTL);
	w->err = 0;
	qp->evs->waiter = NULL;
	complete(&w->done);
}

/*
 * The waiter gives up (@err 0: no completion, the caller is leaving) or the
 * QP goes away (@err -ENOENT, from mrc_destroy_qp()): either way the QP
 * forgets @w under its lock, so nothing touches @w afterwards.
 */
void mrc_ev_probe_forget(struct mrc_qp *qp, struct mrc_ev_probe_wait *w,
			 int err)
{
	struct mrc_evset *s = qp->evs;

	if (!s || !s->waiter || (w && s->waiter != w))
		return;
	w = s->waiter;
	s->waiter = NULL;
	if (err) {
		w->err = err;
		complete(&w->done);
	}
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_probe_forget);

/*
 * The probe timer: every ASSUMED_BAD slot and retired entropy whose time has
 * come is probed, and the timer sleeps until the next one is due.  A plane
 * that is down is not probed (its link state says enough) but looked at
 * every MRC_EV_PROBE_MAX_MS, as is a QP not yet sending (RTR): its slots are
 * probed soon after.
 */
static void mrc_ev_probe_timer(struct timer_list *t)
{
	struct mrc_evset *s = from_timer(s, t, probe_timer);
	unsigned long next = jiffies + msecs_to_jiffies(MRC_EV_PROBE_MAX_MS);
	struct mrc_qp *qp = s->qp;
	bool again = false, sending;
	struct sk_buff_head out;
	u32 i, pl;

	__skb_queue_head_init(&out);
	spin_lock_bh(&qp->lock);
	/* Answers are only heard once the requester runs (RTS, SQD). */
	sending = qp->state == IB_QPS_RTS || qp->state == IB_QPS_SQD;
	if (qp->dead || (!sending && qp->state != IB_QPS_RTR))
		goto unlock;
	for (i = 0; i < s->n; i++) {
		struct mrc_ev *e = &s->ev[i];

		if (e->state != MRC_EV_STATE_ASSUMED_BAD)
			continue;
		again = true;
		if (!sending || !mrc_ev_plane_up(qp, e->plane))
			continue;
		if (time_after_eq(jiffies, e->probe_at))
			mrc_ev_probe_one(qp, e->value, &e->probe_ms,
					 &e->probe_at, &out);
		if (time_before(e->probe_at, next))
			next = e->probe_at;
	}
	for (pl = 0; pl < MRC_MAX_PLANES; pl++) {
		for (i = 0; i < MRC_EV_RETIRED; i++) {
			struct mrc_ev_spare *r = &s->retired[pl][i];

			if (!r->used)
				continue;
			again = true;
			if (!sending || !mrc_ev_plane_up(qp, pl))
				continue;
			if (time_after_eq(jiffies, r->probe_at))
				mrc_ev_probe_one(qp,
						 mrc_ev_untracked(pl, r->entropy),
						 &r->probe_ms, &r->probe_at,
						 &out);
			if (time_before(r->probe_at, next))
				next = r->probe_at;
		}
	}
	if (sending)
		mrc_ev_port_status_repeat(qp, &out);
	if (again)
		mrc_ev_arm_probes_by(qp, next);
unlock:
	spin_unlock_bh(&qp->lock);
	mrc_net_xmit(qp, &out);
}

/* Derive the peer's address on plane @pl from the AV's: same host part. */
static bool mrc_ev_derive4(struct net_device *ndev, const struct mrc_av *av,
			   struct mrc_av *out)
{
	const struct in_ifaddr *ifa;
	struct in_device *in_dev;
	bool ok = false;

	rcu_read_lock();
	in_dev = __in_dev_get_rcu(ndev);
	if (in_dev) {
		in_dev_for_each_ifa_rcu(ifa, in_dev) {
			if (ifa->ifa_scope != RT_SCOPE_UNIVERSE ||
			    !ifa->ifa_mask || ifa->ifa_mask == htonl(~0U))
				continue;
			out->saddr.v4 = ifa->ifa_local;
			out->daddr.v4 = (ifa->ifa_local & ifa->ifa_mask) |
					(av->daddr.v4 & ~ifa->ifa_mask);
			ok = out->daddr.v4 != out->saddr.v4;
			break;
		}
	}
	rcu_read_unlock();
	return ok;
}

static bool mrc_ev_derive6(struct net_device *ndev, const struct mrc_av *av,
			   struct mrc_av *out)
{
#if IS_ENABLED(CONFIG_IPV6)
	struct inet6_ifaddr *ifp;
	struct inet6_dev *idev;
	bool ok = false;
	u32 i, bits;

	rcu_read_lock();
	idev = __in6_dev_get(ndev);
	if (idev) {
		read_lock_bh(&idev->lock);
		list_for_each_entry(ifp, &idev->addr_list, if_list) {
			if ((ipv6_addr_type(&ifp->addr) &
			     (IPV6_ADDR_LINKLOCAL | IPV6_ADDR_LOOPBACK)) ||
			    !ifp->prefix_len || ifp->prefix_len >= 128)
				continue;
			out->saddr.v6 = ifp->addr;
			out->daddr.v6 = av->daddr.v6;
			/* The prefix from our address, the rest the AV's. */
			for (i = 0; i < 4; i++) {
				bits = clamp_t(int, ifp->prefix_len - 32 * i, 0, 32);
				if (!bits)
					break;
				out->daddr.v6.s6_addr32[i] &=
					~htonl(GENMASK_ULL(31, 32 - bits));
				out->daddr.v6.s6_addr32[i] |=
					ifp->addr.s6_addr32[i] &
					htonl(GENMASK_ULL(31, 32 - bits));
			}
			ok = !ipv6_addr_equal(&out->daddr.v6, &out->saddr.v6);
			break;
		}
		read_unlock_bh(&idev->lock);
	}
	rcu_read_unlock();
	return ok;
#else
	return false;
#endif
}

/**
 * mrc_ev_resolve() - the QP's route on every plane, from its AV
 * @qp: the QP (not locked: reads the planes' addresses)
 * @av: the AV modify_qp accepted, on plane av->plane
 * @paths: MRC_MAX_PLANES entries to fill; only .av and .valid
 *
 * Every plane is its own network with the same host numbering: the peer's
 * address on plane k is plane k's local prefix with the host part of the
 * AV's destination.  Planes without a usable address get no path.
 */
void mrc_ev_resolve(struct mrc_qp *qp, const struct mrc_av *av,
		    struct mrc_path *paths)
{
	struct mrc_device *mdev = qp->mdev;
	struct net_device *ndev;
	struct mrc_plane *plane;
	u32 i;

	for (i = 0; i < MRC_MAX_PLANES; i++) {
		paths[i].valid = false;
		if (i >= mdev->nports)
			continue;
		paths[i].av = *av;
		paths[i].av.plane = i;
		if (i == av->plane) {
			paths[i].valid = true;
			continue;
		}
		rcu_read_lock();
		plane = rcu_dereference(mdev->planes[i]);
		ndev = plane ? plane->ndev : NULL;
		if (ndev)
			dev_hold(ndev);
		rcu_read_unlock();
		if (!ndev)
			continue;
		if (av->family == AF_INET)
			paths[i].valid = mrc_ev_derive4(ndev, av, &paths[i].av);
		else
			paths[i].valid = mrc_ev_derive6(ndev, av, &paths[i].av);
		dev_put(ndev);
	}
}

/*
 * Draw an entropy of plane @pl not used by slots [0, @upto) or spares.  With
 * @npaths SRv6 paths on the plane the entropy picks path (entropy mod
 * @npaths): then only entropies of path @k are drawn.
 */
static u16 mrc_ev_fresh(struct mrc_evset *s, u8 pl, u32 upto, u32 npaths,
			u32 k)
{
	u32 i, tries;
	u16 e;

	for (tries = 0; tries < 64; tries++) {
		e = mrc_ev_draw(s);
		if (npaths)
			e = k + npaths * (e % (BIT(MRC_EV_ENTROPY_BITS) / npaths));
		for (i = 0; i < upto; i++)
			if (s->ev[i].plane == pl &&
			    mrc_ev_entropy(s->ev[i].value) == e)
				break;
		if (i < upto)
			continue;
		for (i = 0; i < s->nbackup[pl]; i++)
			if (s->backup[pl][i] == e)
				break;
		if (i == s->nbackup[pl])
			break;
	}
	return e;
}

/**
 * mrc_ev_install() - a new AV: new paths, new active set
 * @qp: the QP, locked
 * @paths: from mrc_ev_resolve()
 * @n: active EVs wanted
 * @srv6: the destination's SRv6 paths or NULL; the QP takes the reference
 *
 * The set is split equally over the planes that have a path (the first
 * n % planes get one more), random entropies within each plane.  Over
 * SRv6 the slots of a plane go round its paths from a random one, so that
 * every path carries traffic as soon as a plane has as many slots as paths.
 */
void mrc_ev_install(struct mrc_qp *qp, struct mrc_path *paths, u32 n,
		    struct mrc_srv6_dst *srv6)
{
	u32 npaths[MRC_MAX_PLANES] = {}, next[MRC_MAX_PLANES] = {};
	struct mrc_evset *s = qp->evs;
	struct mrc_srv6_dst *old;
	u8 planes[MRC_MAX_PLANES];
	u32 np = 0, i, k;
	u16 spare;

	old = rcu_replace_pointer(s->srv6, srv6, lockdep_is_held(&qp->lock));
	mrc_srv6_dst_put(old);
	for (i = 0; srv6 && i < MRC_MAX_PLANES; i++) {
		npaths[i] = srv6->count[i];
		/* A plane without an SRv6 path carries nothing. */
		if (!npaths[i])
			paths[i].valid = false;
		else
			next[i] = prandom_u32_state(&s->rnd) % npaths[i];
	}

	for (i = 0; i < MRC_MAX_PLANES; i++) {
		s->path[i].valid = paths[i].valid;
		s->path[i].av = paths[i].av;
		if (i < qp->mdev->nports)
			dst_cache_reset(&s->path[i].dc);
		if (paths[i].valid)
			planes[np++] = i;
	}
	memset(s->ev, 0, sizeof(s->ev));
	memset(s->retired, 0, sizeof(s->retired));
	memset(s->nbackup, 0, sizeof(s->nbackup));
	s->n = np ? clamp_t(u32, n, np, MRC_EV_MAX) : 0;
	s->cursor = 0;
	s->rotation = 0;
	s->gone_value = MRC_EV_F_UNTRACKED;
	/* A new address may be another peer: it has said nothing yet. */
	s->peer_down = 0;
	s->peer_seq_valid = false;
	s->min_active = s->want_min_active ?
			min_t(u32, s->want_min_active, s->n) :
			max_t(u32, s->n / 4, 1);
	for (i = 0; i < s->n; i++) {
		struct mrc_ev *e = &s->ev[i];
		u8 pl = planes[i % np];

		e->plane = pl;
		e->value = mrc_ev_value(pl, i, mrc_ev_fresh(s, pl, i,
							    npaths[pl],
							    next[pl]));
		if (npaths[pl])
			next[pl] = (next[pl] + 1) % npaths[pl];
		e->state = MRC_EV_STATE_GOOD;
		e->changed = ktime_get();
		s->order[i] = i;
	}
	for (k = 0; k < np; k++) {
		/* One at a time: each draw keeps clear of those before. */
		for (i = 0; i < s->max_backup; i++) {
			spare = mrc_ev_fresh(s, planes[k], s->n, 0, 0);
			s->backup[planes[k]][i] = spare;
			s->nbackup[planes[k]] = i + 1;
		}
	}
	if (s->n)
		mrc_ev_shuffle(s);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_install);

/**
 * mrc_ev_configure() - what the next mrc_ev_install() takes from a profile
 * @qp: the QP, locked
 * @min_active: GOOD slots a loss may not break, 0 for a quarter of the set
 * @backups: spare entropies per plane, at most MRC_MAX_BACKUPS
 * @event_mask: MRC_EV_EVENT_* transitions the QP reports on the events group
 * @format: enum mrc_ev_format, how the EVs show on the wire
 */
void mrc_ev_configure(struct mrc_qp *qp, u32 min_active, u32 backups,
		      u32 event_mask, u8 format)
{
	qp->evs->want_min_active = min_t(u32, min_active, MRC_EV_MAX);
	qp->evs->max_backup = min_t(u32, backups, MRC_MAX_BACKUPS);
	qp->evs->event_mask = event_mask;
	WRITE_ONCE(qp->evs->format, format);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_configure);

int mrc_ev_init(struct mrc_qp *qp)
{
	struct mrc_evset *s;
	u32 i;
	int err;

	s = kvzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->qp = qp;
	s->max_backup = MRC_EV_BACKUP;
	s->event_mask = MRC_EV_EVENTS_ALL;
	prandom_seed_state(&s->rnd, get_random_u64());
	timer_setup(&s->probe_timer, mrc_ev_probe_timer, 0);
	for (i = 0; i < qp->mdev->nports; i++) {
		err = dst_cache_init(&s->path[i].dc, GFP_KERNEL);
		if (err) {
			while (i--)
				dst_cache_destroy(&s->path[i].dc);
			kvfree(s);
			return err;
		}
	}
	qp->evs = s;
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_init);

/* No probe runs after this returns; the caller set qp->dead first. */
void mrc_ev_stop(struct mrc_qp *qp)
{
	if (qp->evs)
		del_timer_sync(&qp->evs->probe_timer);
}

void mrc_ev_destroy(struct mrc_qp *qp)
{
	struct mrc_evset *s = qp->evs;
	u32 i;

	if (!s)
		return;
	/* The TX path of a QP being destroyed has finished. */
	mrc_srv6_dst_put(rcu_dereference_protected(s->srv6, true));
	for (i = 0; i < qp->mdev->nports; i++)
		dst_cache_destroy(&s->path[i].dc);
	kvfree(s);
	qp->evs = NULL;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_destroy);
