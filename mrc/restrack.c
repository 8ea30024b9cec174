// SPDX-License-Identifier: GPL-2.0
/*
 * What "rdma resource show qp -dd" prints of an mrc QP beyond the RDMA core's
 * own fields: restrack's driver attributes, name/value pairs the core asks
 * the driver for.  A summary of "mrcctl qp show": the EV set by state, the
 * congestion window, the smoothed round trip and the MPRs, so that the usual
 * RDMA tool shows at a glance whether a QP sprays and over how many paths.
 */

#include <rdma/restrack.h>

#include "mrc.h"

struct mrc_res_qp {
	u32 evs;
	u32 state[MRC_EV_STATE_DENIED + 1];
	u32 cwnd;
	u32 srtt_us;
	u32 mpr;
	u32 mpr_dest;
};

/*
 * Called by the RDMA core in process context, with a reference on the QP's
 * restrack entry.  UD QPs have no EV set and add nothing.
 */
int mrc_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp)
{
	struct mrc_qp *qp = to_mqp(ibqp);
	struct mrc_res_qp r = {};
	const struct mrc_evset *s;
	struct nlattr *table;
	bool has_evs;
	u32 i;

	spin_lock_bh(&qp->lock);
	s = qp->evs;
	has_evs = s && !qp->dead;
	if (has_evs) {
		r.evs = s->n;
		for (i = 0; i < s->n; i++)
			if (s->ev[i].state < ARRAY_SIZE(r.state))
				r.state[s->ev[i].state]++;
		r.cwnd = qp->req.cc.cwnd;
		r.srtt_us = qp->req.srtt_us;
		r.mpr = qp->send_cap / MRC_MPR_UNIT;
		r.mpr_dest = qp->resp.window / MRC_MPR_UNIT;
	}
	spin_unlock_bh(&qp->lock);
	if (!has_evs)
		return 0;

	/* The driver's attributes go in a nest of their own, which we open. */
	table = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_DRIVER);
	if (!table)
		return -EMSGSIZE;
	if (rdma_nl_put_driver_u32(msg, "evs", r.evs) ||
	    rdma_nl_put_driver_u32(msg, "evs_good",
				   r.state[MRC_EV_STATE_GOOD]) ||
	    rdma_nl_put_driver_u32(msg, "evs_skip",
				   r.state[MRC_EV_STATE_SKIP]) ||
	    rdma_nl_put_driver_u32(msg, "evs_assumed_bad",
				   r.state[MRC_EV_STATE_ASSUMED_BAD]) ||
	    rdma_nl_put_driver_u32(msg, "evs_denied",
				   r.state[MRC_EV_STATE_DENIED]) ||
	    rdma_nl_put_driver_u32(msg, "cwnd", r.cwnd) ||
	    rdma_nl_put_driver_u32(msg, "srtt_us", r.srtt_us) ||
	    rdma_nl_put_driver_u32(msg, "mpr", r.mpr) ||
	    rdma_nl_put_driver_u32(msg, "mpr_dest", r.mpr_dest)) {
		nla_nest_cancel(msg, table);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, table);
	return 0;
}
