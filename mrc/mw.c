// SPDX-License-Identifier: GPL-2.0
/*
 * Memory windows, type 1 and type 2 (Documentation/verbs.md, "Memory
 * windows"): allocation, bind and invalidation by the requester, remote
 * invalidation by the responder, and the lookup a peer's access through a
 * window goes through.  Windows are for user space: the kernel has no verb
 * that allocates one.
 */

#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "mrc.h"

/* The rights a bind may give a window. */
#define MRC_MW_ACCESS	(IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_ATOMIC | IB_ZERO_BASED)

int mrc_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct mrc_device *mdev = to_mdev(ibmw->device);
	struct mrc_mw *mw = to_mmw(ibmw);
	u32 index;
	int err;

	spin_lock_init(&mw->lock);
	/* The key is set before the window is stored: lookups see it whole. */
	err = xa_alloc(&mdev->mws, &index, NULL,
		       XA_LIMIT(MRC_MW_INDEX_MIN, MRC_MW_INDEX_MAX),
		       GFP_KERNEL_ACCOUNT);
	if (err)
		return err == -EBUSY ? -ENOMEM : err;
	ibmw->rkey = index << 8 | ((u32)atomic_inc_return(&mdev->mr_key) & 0xff);
	err = xa_err(xa_store(&mdev->mws, index, mw, GFP_KERNEL_ACCOUNT));
	if (err)
		xa_erase(&mdev->mws, index);
	return err;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_alloc_mw);

/* Unbind @mw, under its lock; the caller releases the MR it returns. */
static struct mrc_mr *mrc_mw_unbind(struct mrc_mw *mw)
{
	struct mrc_mr *mr = mw->mr;

	mw->mr = NULL;
	mw->addr = 0;
	mw->length = 0;
	mw->access = 0;
	mw->qp_serial = 0;
	return mr;
}

/* A window no longer holds @mr: it may be deregistered once none does. */
static void mrc_mw_put_mr(struct mrc_mr *mr)
{
	if (mr)
		atomic_dec(&mr->num_mw);
}

int mrc_dealloc_mw(struct ib_mw *ibmw)
{
	struct mrc_device *mdev = to_mdev(ibmw->device);
	struct mrc_mw *mw = to_mmw(ibmw);
	struct mrc_mr *mr;

	xa_erase(&mdev->mws, ibmw->rkey >> 8);
	/*
	 * The core frees the window when this returns: wait for the binds
	 * and lookups that found it.  Only then is the binding final: a bind
	 * that found the window before it left the table may have bound it
	 * since.  The MR a lookup found stays until the lookup is done, since
	 * its deregistration waits for a grace period too.
	 */
	synchronize_rcu();
	spin_lock_bh(&mw->lock);
	mr = mrc_mw_unbind(mw);
	spin_unlock_bh(&mw->lock);
	mrc_mw_put_mr(mr);
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_dealloc_mw);

/* The window @key names, by its index only.  Under RCU. */
static struct mrc_mw *mrc_mw_find(struct mrc_device *mdev, u32 key)
{
	if (!mrc_key_is_mw(key))
		return NULL;
	return xa_load(&mdev->mws, key >> 8);
}

/*
 * May @b bind @mw of @qp's PD to @mr (NULL for a length of 0)?  The rules
 * are InfiniBand's (IBA 10.6.7), as rdma_rxe applies them.  Under the
 * window's lock.
 */
static int mrc_mw_bind_check(const struct mrc_qp *qp, const struct mrc_mw *mw,
			     const struct mrc_mr *mr,
			     const struct mrc_mw_bind *b)
{
	u32 need = IB_ACCESS_MW_BIND;

	if (mw->ibmw.rkey != b->mw_rkey)
		return -EINVAL;
	if (mw->ibmw.type == IB_MW_TYPE_1) {
		/* o10-36.2.2: a type 1 window is never zero based. */
		if (b->access & IB_ZERO_BASED)
			return -EINVAL;
	} else {
		/*
		 * o10-37.2.30: a type 2 window binds only while free, and
		 * o10-37.2.40: never to nothing (LOCAL_INV frees it).
		 */
		if (mw->mr || !b->length)
			return -EINVAL;
	}
	if (!b->length)
		return 0;
	/*
	 * C10-73: the MR allows binding; C10-74: a window others may write
	 * into needs an MR its owner may write into; C10-75: the window
	 * lies inside the MR.  The MR's PD is the window's (C10-72).
	 */
	if (b->access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC))
		need |= IB_ACCESS_LOCAL_WRITE;
	return mrc_mr_check(mr, qp->ibqp.pd, b->addr, b->length, need) ?
	       -EINVAL : 0;
}

/**
 * mrc_mw_bind() - execute an IB_WR_BIND_MW
 * @qp: the QP that posted it, locked
 * @b: the bind, as the WQE gave it
 * @gp: set, when the bind replaced a binding, to the RCU grace period
 *	after which no access through the old one can still be copying
 *
 * A type 1 window rebinds in place; a type 2 window must be free, and is
 * bound to @qp.  Either way the window takes the low byte of @b->rkey as
 * its key's, so that the key the peer had before no longer works.  A
 * type 1 window serves every QP of its PD: a rebind's completion waits
 * for @gp, as a LOCAL_INV's does, so that the memory the old binding
 * showed is out of reach when the application learns of it.
 *
 * Context: the QP's lock held (bottom halves off).
 * Return: 0; 1 when it replaced a binding (@gp set); -EINVAL: the WQE
 * completes with IB_WC_MW_BIND_ERR.
 */
int mrc_mw_bind(struct mrc_qp *qp, const struct mrc_mw_bind *b,
		unsigned long *gp)
{
	struct mrc_mr *mr = NULL, *old;
	struct mrc_mw *mw;
	int err = -EINVAL;

	if (b->access & ~MRC_MW_ACCESS)
		return -EINVAL;
	rcu_read_lock();
	mw = mrc_mw_find(qp->mdev, b->mw_rkey);
	if (!mw || mw->ibmw.pd != qp->ibqp.pd)
		goto unlock;
	if (b->length) {
		/* Windows are user space's: only its own regions take them. */
		mr = mrc_mr_lookup(qp->mdev, b->mr_lkey);
		if (!mr || mr->type != MRC_MR_USER)
			goto unlock;
	}
	spin_lock(&mw->lock);
	err = mrc_mw_bind_check(qp, mw, mr, b);
	/* An MR on its way out takes no new window. */
	if (!err && mr && !atomic_inc_unless_negative(&mr->num_mw))
		err = -EINVAL;
	if (err) {
		spin_unlock(&mw->lock);
		goto unlock;
	}
	old = mrc_mw_unbind(mw);
	mw->mr = mr;
	mw->addr = b->addr;
	mw->length = b->length;
	mw->access = b->access;
	if (mw->ibmw.type == IB_MW_TYPE_2)
		mw->qp_serial = qp->serial;
	mw->ibmw.rkey = (mw->ibmw.rkey & ~0xffU) | (b->rkey & 0xff);
	spin_unlock(&mw->lock);
	if (old) {
		mrc_mw_put_mr(old);
		*gp = start_poll_synchronize_rcu();
		err = 1;
	}
unlock:
	rcu_read_unlock();
	return err;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_mw_bind);

/*
 * The window @key names, if @qp may invalidate it at all: a type 2 window
 * (o10-37.2.26: type 1 windows are never invalidated) of the QP's PD.
 * Under RCU.
 */
static struct mrc_mw *mrc_mw_find_inv(struct mrc_qp *qp, u32 key)
{
	struct mrc_mw *mw = mrc_mw_find(qp->mdev, key);

	if (!mw || mw->ibmw.type != IB_MW_TYPE_2 ||
	    mw->ibmw.pd != qp->ibqp.pd)
		return NULL;
	return mw;
}

/**
 * mrc_mw_invalidate() - invalidate a type 2 window
 * @qp: the QP that asks: by a LOCAL_INV it posted, or by a SEND_WITH_INV
 *	its peer sent (@remote)
 * @key: the window's key
 * @remote: a peer asks; the window must be bound to @qp
 * @gp: set to the RCU grace period after which no access that found the
 *	window bound can still be copying; may be NULL
 *
 * A window already free under the same key is no error, as for a fast
 * registration (mrc_mr_invalidate()).
 *
 * Context: the QP's lock held (bottom halves off).
 * Return: 0 or -EINVAL (o10-37.2.26: a type 1 window is never invalidated).
 */
int mrc_mw_invalidate(struct mrc_qp *qp, u32 key, bool remote,
		      unsigned long *gp)
{
	struct mrc_mr *mr = NULL;
	struct mrc_mw *mw;
	int err = -EINVAL;

	rcu_read_lock();
	mw = mrc_mw_find_inv(qp, key);
	if (!mw)
		goto unlock;
	spin_lock(&mw->lock);
	if (mw->ibmw.rkey == key &&
	    (!remote || !mw->mr || mw->qp_serial == qp->serial)) {
		mr = mrc_mw_unbind(mw);
		err = 0;
	}
	spin_unlock(&mw->lock);
	if (!err && gp)
		*gp = start_poll_synchronize_rcu();
unlock:
	rcu_read_unlock();
	mrc_mw_put_mr(mr);
	return err;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_mw_invalidate);

/**
 * mrc_mw_inv_ok() - may a SEND_WITH_INV arriving on @qp invalidate @key?
 * @qp: the QP, locked
 * @key: the key the packet names
 *
 * Only a type 2 window bound to @qp, under that key.  Under RCU.
 */
bool mrc_mw_inv_ok(struct mrc_qp *qp, u32 key)
{
	struct mrc_mw *mw = mrc_mw_find_inv(qp, key);
	bool ok;

	if (!mw)
		return false;
	spin_lock(&mw->lock);
	ok = mw->mr && mw->ibmw.rkey == key && mw->qp_serial == qp->serial;
	spin_unlock(&mw->lock);
	return ok;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_mw_inv_ok);

/**
 * mrc_mw_resolve() - the region behind a peer's access through a window
 * @qp: the QP the access arrived on, locked
 * @key: the window's key, from the packet
 * @iova: in: the address the packet names, in the window's address space
 *	(from 0 for a zero-based window); out: the same byte in the region's
 * @len: bytes of the access
 * @access: the IB_ACCESS_REMOTE_* right it needs
 *
 * The window must be bound under @key, of @qp's PD and, type 2, bound to
 * @qp; it must grant @access and hold every byte.  The region must still
 * allow its owner what the access does to it (local write for a write or
 * an atomic).
 *
 * Context: under RCU, which keeps the region returned: its deregistration
 * waits for a grace period.
 * Return: the region, or ERR_PTR(-ENOENT) for no window bound under @key
 * for @qp, -EACCES for a right it lacks, -ERANGE for bytes outside it.
 */
struct mrc_mr *mrc_mw_resolve(struct mrc_qp *qp, u32 key, u64 *iova, u64 len,
			      u32 access)
{
	struct mrc_mw *mw = mrc_mw_find(qp->mdev, key);
	struct mrc_mr *mr;
	int err = 0;
	u64 base;

	if (!mw)
		return ERR_PTR(-ENOENT);
	spin_lock(&mw->lock);
	mr = mw->mr;
	base = mw->access & IB_ZERO_BASED ? 0 : mw->addr;
	if (!mr || mw->ibmw.rkey != key || mw->ibmw.pd != qp->ibqp.pd ||
	    (mw->ibmw.type == IB_MW_TYPE_2 && mw->qp_serial != qp->serial))
		err = -ENOENT;
	else if (access & ~mw->access)
		err = -EACCES;
	/* Never form *iova + len: it may wrap. */
	else if (*iova < base || *iova - base > mw->length ||
		 len > mw->length - (*iova - base))
		err = -ERANGE;
	else
		*iova = mw->addr + (*iova - base);
	spin_unlock(&mw->lock);
	if (err)
		return ERR_PTR(err);
	err = mrc_mr_check(mr, qp->ibqp.pd, *iova, len,
			   access & (IB_ACCESS_REMOTE_WRITE |
				     IB_ACCESS_REMOTE_ATOMIC) ?
			   IB_ACCESS_LOCAL_WRITE : 0);
	return err ? ERR_PTR(err) : mr;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_mw_resolve);
