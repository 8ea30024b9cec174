// SPDX-License-Identifier: GPL-2.0
/*
 * The probes of a QP's EVs and the port status it exchanges with its peer.
 * A per-QP timer probes ASSUMED_BAD slots and retired entropies, backing
 * off per probe; answers bring them back (a retired entropy to its home
 * slot if it can).  The controller may probe one slot itself.  Planes going
 * down or coming back are told to the peer QP in PORT_STATUS packets, sent
 * twice and repeated from the probe timer.  Everything here runs under
 * qp->lock, but the timer, which takes it.
 */

#include <linux/jiffies.h>
#include <linux/slab.h>

#include "mrc.h"

/* The probe timer fires by @when, or earlier if it was due earlier. */
static void mrc_ev_arm_probes_by(struct mrc_qp *qp, unsigned long when)
{
	if (!qp->dead)
		timer_reduce(&qp->evs->probe_timer, when);
}

void mrc_ev_arm_probes(struct mrc_qp *qp)
{
	mrc_ev_arm_probes_by(qp, jiffies +
				 msecs_to_jiffies(MRC_EV_PROBE_MIN_MS));
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
		/*
		 * What the peer's responder expects next, give or take; before
		 * RTS (no sq_psn yet) what ours expects, which the peer's
		 * requester sent lately.
		 */
		.psn = qp->state >= IB_QPS_RTS ? qp->req.psn_next :
						 qp->resp.cum_psn,
		.pstat = { .seq = seq, .down = down },
	};
	int avoid = -1, slot, i;
	struct sk_buff *skb;
	u32 ev_seq;

	for (i = 0; i < 2; i++) {
		slot = mrc_ev_pick(qp, avoid);
		mrc_ev_sent(qp, slot, &c.ev, &ev_seq);
		avoid = mrc_ev_plane(c.ev);
		skb = mrc_net_ctl(&c);
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

/*
 * A port status is the peer's when it carries the sender's next PSN (within
 * a window of the PSNs this responder expects, either side: data may
 * overtake it), or, from a peer QP not yet in RTS, its responder's
 * cum_psn (a PSN this requester sent lately); and when it does not say down
 * the plane it came on, which no sender would use.  A forger who knows the
 * QPN must still guess a PSN.
 */
static bool mrc_ev_peer_status_ok(struct mrc_qp *qp, const struct mrc_hdrs *h,
				  u32 plane)
{
	s32 d = mrc_psn_sub(h->psn, qp->resp.cum_psn);

	return (abs(d) <= qp->resp.window || mrc_req_psn_recent(qp, h->psn)) &&
	       plane < MRC_MAX_PLANES && !(h->pstat.down & BIT(plane));
}

/**
 * mrc_ev_peer_status() - the peer's port status arrived
 * @qp: the QP, locked
 * @h: the PORT_STATUS packet
 * @plane: the plane it arrived on
 *
 * Its planes that are down are down for this QP: their slots go
 * ASSUMED_BAD at their next turn and are not probed, exactly as for a plane
 * down here.  A plane the peer has back is probed again and its EVs come
 * back as probes succeed.  An update older than one applied is ignored,
 * and so is one more than MRC_PSTAT_SEQ_STEP ahead of it, unless the one
 * applied is MRC_PSTAT_EXPIRE_MS old (not repeated since): then the peer's
 * next update resynchronises, whatever its sequence.  One that cannot be
 * the peer's, or too far ahead, is dropped and counted.
 *
 * Return: true when @h was applied.
 */
bool mrc_ev_peer_status(struct mrc_qp *qp, const struct mrc_hdrs *h, u32 plane)
{
	u32 down = h->pstat.down & GENMASK(qp->mdev->nports - 1, 0);
	struct mrc_evset *s = qp->evs;
	u64 now = ktime_get_ns();
	s32 d;
	u32 was;

	if (!s)
		return false;
	if (!mrc_ev_peer_status_ok(qp, h, plane)) {
		mrc_count(qp->mdev, plane, MRC_CNT_PSTAT_REJECTED, 1);
		return false;
	}
	d = h->pstat.seq - s->peer_seq;
	if (s->peer_seq_valid &&
	    now - s->peer_status_ns <= MRC_PSTAT_EXPIRE_MS * NSEC_PER_MSEC) {
		/* The peer's repeat of what holds: it still holds. */
		if (!d && down == s->peer_down)
			s->peer_status_ns = now;
		if (d <= 0)
			return false;
		if (d > MRC_PSTAT_SEQ_STEP) {
			mrc_count(qp->mdev, plane, MRC_CNT_PSTAT_REJECTED, 1);
			return false;
		}
	}
	s->peer_seq = h->pstat.seq;
	s->peer_seq_valid = true;
	s->peer_status_ns = now;
	was = s->peer_down;
	s->peer_down = down;
	if (was & ~s->peer_down)
		mrc_ev_arm_probes(qp);
	return true;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_peer_status);

/**
 * mrc_ev_peer_status_expire() - forget planes the peer stopped saying are down
 * @qp: the QP, locked
 *
 * A peer repeats its port status while a plane is down, at least every
 * MRC_EV_PROBE_MAX_MS (its probe timer sends the repeats); one not heard
 * for MRC_PSTAT_EXPIRE_MS no longer holds (it may have been forged, or the
 * peer is gone): its planes are probed again.
 */
void mrc_ev_peer_status_expire(struct mrc_qp *qp)
{
	struct mrc_evset *s = qp->evs;

	if (s && s->peer_down && ktime_get_ns() - s->peer_status_ns >
				 MRC_PSTAT_EXPIRE_MS * NSEC_PER_MSEC)
		s->peer_down = 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_peer_status_expire);

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

/*
 * A SACK answered a probe on @ref_ev (mrc_ev_verdict()): an ASSUMED_BAD
 * slot, or a retired entropy, counts one more answer towards its return.
 */
void mrc_ev_probe_answered(struct mrc_qp *qp, u32 ref_ev)
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
	skb = mrc_net_ctl(&c);
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
	mrc_ev_probe_queue(qp, value, mrc_req_stamp(qp, ktime_get_ns()), out);
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
 * Return: 0 (the QP holds a reference to @w); -EINVAL when the QP is not
 * connected or @slot is not active, -EBUSY when another probe of the
 * controller is in flight, -ENOMEM.
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
	w->token = mrc_req_stamp(qp, MRC_EV_PROBE_CTL | now);
	if (!mrc_ev_probe_queue(qp, w->value, w->token, out))
		return -ENOMEM;
	refcount_inc(&w->ref);
	s->waiter = w;
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_probe_start);

/**
 * mrc_ev_probe_wait_new() - a waiter for one controller's probe
 *
 * On the heap, not the controller's stack: the QP may hold it after the
 * controller stopped waiting, until it is answered or forgotten.
 *
 * Return: the waiter with the caller's reference, or NULL.
 */
struct mrc_ev_probe_wait *mrc_ev_probe_wait_new(void)
{
	struct mrc_ev_probe_wait *w;

	w = kzalloc(sizeof(*w), GFP_KERNEL_ACCOUNT);
	if (!w)
		return NULL;
	init_completion(&w->done);
	refcount_set(&w->ref, 1);
	return w;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_probe_wait_new);

/* Drop one reference (the controller's, or the QP's under its lock). */
void mrc_ev_probe_wait_put(struct mrc_ev_probe_wait *w)
{
	if (refcount_dec_and_test(&w->ref))
		kfree(w);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_ev_probe_wait_put);

/* A probe answer (SACK with the probe flag): the controller's, if it waits. */
void mrc_ev_probe_done(struct mrc_qp *qp, u32 ref_ev, u64 token)
{
	struct mrc_ev_probe_wait *w = qp->evs ? qp->evs->waiter : NULL;

	if (!w || w->token != token || w->value != ref_ev)
		return;
	w->rtt_ns = ktime_get_ns() -
		    (mrc_req_stamp(qp, token) & ~MRC_EV_PROBE_CTL);
	w->err = 0;
	qp->evs->waiter = NULL;
	complete(&w->done);
	mrc_ev_probe_wait_put(w);
}

/*
 * The waiter gives up (@err 0: no completion, the caller is leaving) or the
 * QP goes away (@err -ENOENT, from mrc_destroy_qp()): either way the QP
 * forgets @w under its lock and drops its reference.
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
	mrc_ev_probe_wait_put(w);
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
	mrc_ev_peer_status_expire(qp);
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

/* The probe timer of a new EV set, not running. */
void mrc_ev_probe_init(struct mrc_evset *s)
{
	timer_setup(&s->probe_timer, mrc_ev_probe_timer, 0);
}

/* No probe runs after this returns; the caller set qp->dead first. */
void mrc_ev_stop(struct mrc_qp *qp)
{
	if (qp->evs)
		del_timer_sync(&qp->evs->probe_timer);
}
