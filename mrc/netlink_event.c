// SPDX-License-Identifier: GPL-2.0
/*
 * The data path's notifications on the "events" group: EV state changes
 * (MRC_CMD_EV_EVENT) and QPs failing (MRC_CMD_QP_EVENT).
 *
 * They happen in softirq under mrc_qp.lock, in the middle of sending and
 * receiving.  Building and multicasting a netlink message there would hold
 * the lock across an allocation and the netlink core's own locks, and one
 * lost path can change a hundred EVs in one pass.  So the data path only
 * writes a few bytes into the QP's ring (struct mrc_notes) and queues the
 * QP's work; the work copies the ring out under the lock in small batches
 * and builds and sends the messages with the lock dropped, allocating with
 * GFP_KERNEL.  With nobody in the group nothing is recorded at all.  A
 * change that finds the ring full is not reported: events are lossy, and a
 * controller that must know re-reads the state.
 */

#include <net/genetlink.h>

#include "mrc.h"

/* Notes copied out per hold of mrc_qp.lock, on the work's stack. */
#define MRC_EVENT_BATCH	32

/* A change of @qp is recorded only while someone listens; under its lock. */
static bool mrc_event_wanted(struct mrc_qp *qp)
{
	lockdep_assert_held(&qp->lock);

	return !qp->dead && mrc_nl_has_listeners(qp->mdev->net);
}

/**
 * mrc_event_ev() - report the state of one slot of @qp's EV set
 * @qp: the QP, locked
 * @ev: the slot, with its new state and value
 */
void mrc_event_ev(struct mrc_qp *qp, const struct mrc_ev *ev)
{
	struct mrc_notes *n = &qp->notes;
	struct mrc_ev_note *note;

	/* The EV profile's mask; MRC_EV_EVENT_* bits are by target state. */
	if (!mrc_event_wanted(qp) || !(qp->evs->event_mask & BIT(ev->state)))
		return;
	/* Lost, but counted: the next event says so (OCP's drop_count). */
	if (n->len == MRC_EV_NOTES) {
		if (n->dropped < U16_MAX)
			n->dropped++;
		return;
	}
	note = &n->ev[(n->head + n->len) % MRC_EV_NOTES];
	note->value = ev->value;
	note->state = ev->state;
	note->stev = qp->evs->format == MRC_EV_FORMAT_STEV;
	note->evprof_id = qp->evs->evprof_id;
	note->dropped = n->dropped;
	n->dropped = 0;
	n->len++;
	queue_work(system_unbound_wq, &n->work);
}

/**
 * mrc_event_qp_error() - report that @qp went to the error state
 * @qp: the QP, locked
 * @why: enum mrc_qp_error
 */
void mrc_event_qp_error(struct mrc_qp *qp, u8 why)
{
	struct mrc_notes *n = &qp->notes;

	if (!mrc_event_wanted(qp))
		return;
	n->qp_error = true;
	n->why = why;
	n->dest_qpn = qp->attr.dest_qp_num;
	queue_work(system_unbound_wq, &n->work);
}

static size_t mrc_event_ev_size(void)
{
	return nla_total_size(IFNAMSIZ) +		/* MRC_A_DEV_NAME */
	       3 * nla_total_size(0) +			/* QP, EVS, EV */
	       2 * nla_total_size(sizeof(u32)) +	/* QP_NUM, EVPROF_ID */
	       6 * nla_total_size(sizeof(u32)) +	/* slot .. label, dropped */
	       nla_total_size(sizeof(u8));		/* MRC_A_EV_STATE */
}

/* An event that could not be sent: counted, like those the ring lost. */
static void mrc_event_lost(struct mrc_qp *qp, const struct mrc_ev_note *note)
{
	struct mrc_notes *n = &qp->notes;

	spin_lock_bh(&qp->lock);
	n->dropped = min_t(u32, U16_MAX, n->dropped + note->dropped + 1);
	spin_unlock_bh(&qp->lock);
}

static void mrc_event_send_ev(struct mrc_qp *qp,
			      const struct mrc_ev_note *note)
{
	struct mrc_device *mdev = qp->mdev;
	struct nlattr *nqp, *evs, *ev;
	u32 v = note->value;
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(mrc_event_ev_size(), GFP_KERNEL);
	if (!msg) {
		mrc_event_lost(qp, note);
		return;
	}
	hdr = mrc_nl_event_put(msg, MRC_CMD_EV_EVENT);
	if (!hdr || nla_put_string(msg, MRC_A_DEV_NAME, mdev->name))
		goto free;
	nqp = nla_nest_start(msg, MRC_A_QP);
	if (!nqp || nla_put_u32(msg, MRC_A_QP_NUM, qp->ibqp.qp_num) ||
	    nla_put_u32(msg, MRC_A_QP_EVPROF_ID, note->evprof_id))
		goto free;
	evs = nla_nest_start(msg, MRC_A_QP_EVS);
	if (!evs)
		goto free;
	ev = nla_nest_start(msg, MRC_A_EV);
	/* ENTROPY is the UDP source port the EV's packets carry. */
	if (!ev || nla_put_u32(msg, MRC_A_EV_SLOT, mrc_ev_slot(v)) ||
	    nla_put_u32(msg, MRC_A_EV_VALUE, v) ||
	    nla_put_u32(msg, MRC_A_EV_PLANE, mrc_ev_plane(v)) ||
	    nla_put_u32(msg, MRC_A_EV_ENTROPY, 0xc000 | mrc_ev_entropy(v)) ||
	    nla_put_u8(msg, MRC_A_EV_STATE, note->state) ||
	    (note->stev && nla_put_u32(msg, MRC_A_EV_FLOW_LABEL,
				       mrc_ev_flow_label(v))) ||
	    (note->dropped && nla_put_u32(msg, MRC_A_EV_DROPPED,
					  note->dropped)))
		goto free;
	nla_nest_end(msg, ev);
	nla_nest_end(msg, evs);
	nla_nest_end(msg, nqp);
	genlmsg_end(msg, hdr);
	mrc_nl_event_send(mdev->net, msg);
	return;
free:
	nlmsg_free(msg);
	mrc_event_lost(qp, note);
}

static size_t mrc_event_qp_size(void)
{
	return nla_total_size(IFNAMSIZ) +		/* MRC_A_DEV_NAME */
	       nla_total_size(0) +			/* MRC_A_QP */
	       3 * nla_total_size(sizeof(u32)) +	/* num, dest, error */
	       nla_total_size(sizeof(u8));		/* MRC_A_QP_STATE */
}

static void mrc_event_send_qp(struct mrc_qp *qp, u8 why, u32 dest_qpn)
{
	struct mrc_device *mdev = qp->mdev;
	struct sk_buff *msg;
	struct nlattr *nqp;
	void *hdr;

	msg = genlmsg_new(mrc_event_qp_size(), GFP_KERNEL);
	if (!msg)
		return;
	hdr = mrc_nl_event_put(msg, MRC_CMD_QP_EVENT);
	if (!hdr || nla_put_string(msg, MRC_A_DEV_NAME, mdev->name))
		goto free;
	nqp = nla_nest_start(msg, MRC_A_QP);
	if (!nqp || nla_put_u32(msg, MRC_A_QP_NUM, qp->ibqp.qp_num) ||
	    nla_put_u8(msg, MRC_A_QP_STATE, IB_QPS_ERR) ||
	    nla_put_u32(msg, MRC_A_QP_DEST_NUM, dest_qpn) ||
	    nla_put_u32(msg, MRC_A_QP_ERROR, why))
		goto free;
	nla_nest_end(msg, nqp);
	genlmsg_end(msg, hdr);
	mrc_nl_event_send(mdev->net, msg);
	return;
free:
	nlmsg_free(msg);
}

/*
 * The QP's events work.  A note written while it runs queues it again, so
 * it stops at the first batch that empties the ring.  The QP error goes
 * last: it ends the QP's traffic, so no EV change can follow it.
 */
void mrc_event_work(struct work_struct *work)
{
	struct mrc_qp *qp = container_of(work, struct mrc_qp, notes.work);
	struct mrc_ev_note batch[MRC_EVENT_BATCH];
	struct mrc_notes *n = &qp->notes;
	u32 i, k, dest_qpn = 0;
	bool failed;
	u8 why = 0;

	do {
		spin_lock_bh(&qp->lock);
		for (k = 0; k < MRC_EVENT_BATCH && n->len; k++) {
			batch[k] = n->ev[n->head];
			n->head = (n->head + 1) % MRC_EV_NOTES;
			n->len--;
		}
		failed = !n->len && n->qp_error;
		if (failed) {
			n->qp_error = false;
			why = n->why;
			dest_qpn = n->dest_qpn;
		}
		spin_unlock_bh(&qp->lock);

		for (i = 0; i < k; i++)
			mrc_event_send_ev(qp, &batch[i]);
		if (failed)
			mrc_event_send_qp(qp, why, dest_qpn);
	} while (k == MRC_EVENT_BATCH);
}
