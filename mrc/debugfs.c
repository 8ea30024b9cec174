// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs view of the paths of every QP: /sys/kernel/debug/mrc/<device>/evs
 * lists each RC QP's EV set, one line per slot with its state, counters and
 * the age of its last transition.  For people chasing a path problem now;
 * the stable interface is the generic netlink family.
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "mrc.h"

static struct dentry *mrc_dbg_root;

static const char *const mrc_dbg_state[] = {
	[MRC_EV_STATE_GOOD] = "GOOD",
	[MRC_EV_STATE_SKIP] = "SKIP",
	[MRC_EV_STATE_ASSUMED_BAD] = "ASSUMED_BAD",
	[MRC_EV_STATE_DENIED] = "DENIED",
};

static void mrc_dbg_qp(struct seq_file *m, struct mrc_qp *qp)
{
	struct mrc_evset *s = qp->evs;
	s64 now = ktime_to_us(ktime_get());
	u32 i;

	seq_printf(m, "qpn %u dest_qpn %u evs %u rotation %u min_active %u reorder %u\n",
		   qp->ibqp.qp_num, qp->attr.dest_qp_num, s->n, s->rotation,
		   s->min_active, qp->req.reo_thresh);
	/* What the window and the loss rules go by now (multipath.md §3). */
	seq_printf(m, "  srtt_us %u cwnd %u cap %u pipe %u used %u span %u\n",
		   qp->req.srtt_us, qp->req.cc.cwnd, mrc_req_cap(qp),
		   mrc_req_pipe(qp), mrc_req_used(qp), mrc_req_span(qp));
	/* What the suspicion rule waits out per plane (multipath.md §3). */
	seq_puts(m, "  plane_rtt_us");
	for (i = 0; i < MRC_MAX_PLANES; i++)
		seq_printf(m, " %u", qp->req.plane_rtt_us[i]);
	seq_putc(m, '\n');
	seq_puts(m, "  slot plane ev         state        tx_pkts    retx   losses  ecn      retired  age_us\n");
	for (i = 0; i < s->n; i++) {
		const struct mrc_ev *e = &s->ev[i];

		seq_printf(m, "  %4u %5u 0x%08x %-12s %-10llu %-6llu %-8llu %-8llu %-8llu %lld\n",
			   i, e->plane, e->value,
			   e->state < ARRAY_SIZE(mrc_dbg_state) ?
			   mrc_dbg_state[e->state] : "?",
			   e->tx_pkts, e->retx, e->losses, e->ecn, e->retired,
			   now - ktime_to_us(e->changed));
	}
}

static int mrc_dbg_evs_show(struct seq_file *m, void *unused)
{
	struct mrc_device *mdev = m->private;
	struct mrc_qp *qp;
	unsigned long qpn;

	/* QPs are freed only after a grace period (qp.c), locks are _bh. */
	rcu_read_lock();
	xa_for_each(&mdev->qps, qpn, qp) {
		spin_lock_bh(&qp->lock);
		if (!qp->dead && qp->evs)
			mrc_dbg_qp(m, qp);
		spin_unlock_bh(&qp->lock);
	}
	rcu_read_unlock();
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mrc_dbg_evs);

/* After registration, when the RDMA device has its final name. */
void mrc_debugfs_add(struct mrc_device *mdev)
{
	mdev->dbg = debugfs_create_dir(dev_name(&mdev->ib.dev), mrc_dbg_root);
	debugfs_create_file("evs", 0400, mdev->dbg, mdev, &mrc_dbg_evs_fops);
}

/* Waits for readers inside a show; the device is freed after this. */
void mrc_debugfs_del(struct mrc_device *mdev)
{
	debugfs_remove_recursive(mdev->dbg);
	mdev->dbg = NULL;
}

void mrc_debugfs_init(void)
{
	mrc_dbg_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
}

void mrc_debugfs_exit(void)
{
	debugfs_remove_recursive(mrc_dbg_root);
}
