// SPDX-License-Identifier: GPL-2.0
/*
 * Memory regions: registration of pinned user memory, of the kernel's DMA
 * region and of kernel pages by fast registration (IB_WR_REG_MR), key
 * lookup, the access and bounds checks every local and remote access goes
 * through, and copies in and out of regions.
 */

#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "mrc.h"

#define MRC_REMOTE_ACCESS	(IB_ACCESS_REMOTE_READ | \
				 IB_ACCESS_REMOTE_WRITE | \
				 IB_ACCESS_REMOTE_ATOMIC)

/*
 * Gives @mr its key and makes it visible to lookups.  The index is reserved
 * first and the MR stored only once its key is set, so that the receive
 * path never sees a half-built MR.
 */
static int mrc_mr_publish(struct mrc_device *mdev, struct mrc_mr *mr)
{
	u32 index;
	u32 key;
	int err;

	err = xa_alloc(&mdev->mrs, &index, NULL, XA_LIMIT(1, MRC_MAX_MR),
		       GFP_KERNEL_ACCOUNT);
	if (err)
		return err == -EBUSY ? -ENOMEM : err;

	/* A fresh low byte makes a stale key miss when its index is reused. */
	key = index << 8 | ((u32)atomic_inc_return(&mdev->mr_key) & 0xff);
	mr->ibmr.lkey = key;
	mr->ibmr.rkey = key;

	err = xa_err(xa_store(&mdev->mrs, index, mr, GFP_KERNEL_ACCOUNT));
	if (err)
		xa_erase(&mdev->mrs, index);
	return err;
}

/* A map and its page list in one allocation, which kfree_rcu() can free. */
static struct mrc_mr *mrc_mr_map_alloc(u32 max_num_sg, gfp_t gfp)
{
	struct mrc_mr *map;

	map = kzalloc(sizeof(*map) + max_num_sg * sizeof(*map->fr_va), gfp);
	if (!map)
		return NULL;
	map->type = MRC_MR_FAST_MAP;
	map->fr_max = max_num_sg;
	map->fr_va = (u64 *)(map + 1);
	return map;
}

/*
 * The map @*mapp, ready to be written: a map invalidated less than a grace
 * period ago may still be read by a lookup that found it before, so it is
 * replaced by a new one and freed after the grace period.
 */
static int mrc_mr_map_writable(struct mrc_mr **mapp)
{
	struct mrc_mr *old = *mapp, *map;

	if (!old->fr_retired || poll_state_synchronize_rcu(old->fr_rcu))
		return 0;
	map = mrc_mr_map_alloc(old->fr_max, GFP_ATOMIC | __GFP_ACCOUNT);
	if (!map)
		return -ENOMEM;
	*mapp = map;
	kfree_rcu(old, rcu);
	return 0;
}

/**
 * mrc_alloc_mr() - an MR for fast registration
 * @ibpd: its PD
 * @mr_type: IB_MR_TYPE_MEM_REG only
 * @max_num_sg: pages one registration may map, at most MRC_MAX_FR_PAGES
 *
 * The MR starts invalid: no key finds it until an IB_WR_REG_MR.  It holds
 * two maps, so that ib_map_mr_sg() never writes one a lookup may return.
 *
 * Return: the MR, or ERR_PTR(-EINVAL, -EOPNOTSUPP or -ENOMEM).
 */
struct ib_mr *mrc_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type mr_type,
			   u32 max_num_sg)
{
	struct mrc_device *mdev = to_mdev(ibpd->device);
	struct mrc_mr *mr;
	int err = -ENOMEM;

	if (mr_type != IB_MR_TYPE_MEM_REG)
		return ERR_PTR(-EOPNOTSUPP);
	if (!max_num_sg || max_num_sg > MRC_MAX_FR_PAGES)
		return ERR_PTR(-EINVAL);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL_ACCOUNT);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->type = MRC_MR_FAST;
	spin_lock_init(&mr->fr_lock);
	mr->fr_stage = mrc_mr_map_alloc(max_num_sg, GFP_KERNEL_ACCOUNT);
	mr->fr_spare = mrc_mr_map_alloc(max_num_sg, GFP_KERNEL_ACCOUNT);
	if (!mr->fr_stage || !mr->fr_spare)
		goto err_free;
	mr->ibmr.device = ibpd->device;
	mr->ibmr.pd = ibpd;

	err = mrc_mr_publish(mdev, mr);
	if (err)
		goto err_free;
	return &mr->ibmr;

err_free:
	kfree(mr->fr_stage);
	kfree(mr->fr_spare);
	kfree(mr);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_alloc_mr);

static int mrc_mr_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct mrc_mr *map = to_mmr(ibmr)->fr_stage;

	if (map->fr_npages == map->fr_max)
		return -ENOMEM;
	map->fr_va[map->fr_npages++] = addr;
	return 0;
}

/**
 * mrc_map_mr_sg() - the pages the next IB_WR_REG_MR of @ibmr registers
 * @ibmr: an MR of mrc_alloc_mr()
 * @sg: the scatterlist, mapped for the device: its DMA addresses are
 *	kernel virtual addresses (ib_uses_virt_dma())
 * @sg_nents: entries in @sg
 * @sg_offset: offset into the first entry, or NULL
 *
 * Fills the MR's staging map, which no lookup returns, so that it may be
 * called while the MR's previous registration is still in force.
 *
 * Return: the number of entries mapped (ib_sg_to_pages()).
 */
int mrc_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset)
{
	struct mrc_mr *mr = to_mmr(ibmr), *map;
	int n;

	if (!is_power_of_2(ibmr->page_size) || ibmr->page_size < SZ_4K)
		return -EINVAL;
	spin_lock_bh(&mr->fr_lock);
	n = mrc_mr_map_writable(&mr->fr_stage);
	map = mr->fr_stage;
	spin_unlock_bh(&mr->fr_lock);
	if (n)
		return n;
	map->fr_npages = 0;
	map->fr_fresh = true;
	n = ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, mrc_mr_set_page);
	map->fr_page_shift = ilog2(ibmr->page_size);
	/* ib_sg_to_pages() starts the first page at the page-aligned iova. */
	map->page_off = ibmr->iova & (ibmr->page_size - 1);
	return n;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_map_mr_sg);

/**
 * mrc_mr_fast_reg() - execute an IB_WR_REG_MR
 * @pd: the PD of the QP that posted it
 * @ibmr: the MR, from the WR
 * @key: the new lkey and rkey; only its low byte may differ from the MR's
 * @access: IB_ACCESS_* rights of the registration
 *
 * The staging map, with the iova and length of @ibmr, becomes the live
 * one.  The MR must be invalid (never registered, or invalidated).
 *
 * Context: any, the QP's lock held.
 * Return: 0, -EINVAL, or -ENOMEM (a map to replace, in atomic context).
 */
int mrc_mr_fast_reg(struct ib_pd *pd, struct ib_mr *ibmr, u32 key, u32 access)
{
	struct mrc_mr *mr = to_mmr(ibmr), *map;
	int err = -EINVAL;
	u64 span;

	if (mr->type != MRC_MR_FAST || ibmr->pd != pd ||
	    (key ^ ibmr->lkey) >> 8 || ib_check_mr_access(ibmr->device, access))
		return -EINVAL;

	spin_lock(&mr->fr_lock);
	if (rcu_access_pointer(mr->fr_live))
		goto unlock;
	if (mrc_mr_map_writable(&mr->fr_stage)) {
		err = -ENOMEM;
		goto unlock;
	}
	map = mr->fr_stage;
	/*
	 * Registered again without a new ib_map_mr_sg(): the pages of the
	 * last registration, copied, since lookups that found that map
	 * before its invalidation may still be reading it.
	 */
	if (!map->fr_fresh) {
		map->fr_npages = mr->fr_spare->fr_npages;
		map->fr_page_shift = mr->fr_spare->fr_page_shift;
		map->page_off = mr->fr_spare->page_off;
		memcpy(map->fr_va, mr->fr_spare->fr_va,
		       map->fr_npages * sizeof(*map->fr_va));
	}
	if (!map->fr_npages)
		goto unlock;
	/* Every byte of the region must lie in a mapped page. */
	span = (u64)map->fr_npages << map->fr_page_shift;
	if (!ibmr->length || ibmr->length > span - map->page_off)
		goto unlock;
	map->ibmr.pd = pd;
	map->ibmr.lkey = key;
	map->ibmr.rkey = key;
	map->access = access;
	map->iova = ibmr->iova;
	map->length = ibmr->length;
	map->fr_fresh = false;
	mr->fr_stage = mr->fr_spare;
	mr->fr_spare = map;
	/* Lookups see the map complete, or not at all. */
	rcu_assign_pointer(mr->fr_live, map);
	ibmr->lkey = key;
	ibmr->rkey = key;
	err = 0;
unlock:
	spin_unlock(&mr->fr_lock);
	return err;
}

/**
 * mrc_mr_invalidate() - execute an IB_WR_LOCAL_INV
 * @mdev: the device
 * @pd: the PD of the QP that posted it
 * @key: the key of a fast-registered MR of @pd, in force or the last one
 *	it had
 * @gp: set to the RCU grace period after which no lookup that found the
 *	registration can still be copying (a LOCAL_INV's completion waits
 *	for it, requester.c); may be NULL
 *
 * Context: any, with interrupts enabled; the QP's lock held.
 * Return: 0 or -EINVAL.
 */
int mrc_mr_invalidate(struct mrc_device *mdev, struct ib_pd *pd, u32 key,
		      unsigned long *gp)
{
	struct mrc_mr *mr, *map;
	int err = -EINVAL;

	rcu_read_lock();
	mr = xa_load(&mdev->mrs, key >> 8);
	if (!mr || mr->type != MRC_MR_FAST || mr->ibmr.pd != pd)
		goto unlock;
	spin_lock(&mr->fr_lock);
	map = rcu_dereference_protected(mr->fr_live,
					lockdep_is_held(&mr->fr_lock));
	if (map && map->ibmr.lkey == key) {
		RCU_INIT_POINTER(mr->fr_live, NULL);
		/* Not to be written again before then (mrc_mr_map_writable). */
		map->fr_rcu = start_poll_synchronize_rcu();
		map->fr_retired = true;
		if (gp)
			*gp = map->fr_rcu;
		err = 0;
	} else if (!map && mr->ibmr.lkey == key) {
		/* Invalid already (by SEND_WITH_INV): done, as on rdma_rxe. */
		if (gp)
			*gp = start_poll_synchronize_rcu();
		err = 0;
	}
	spin_unlock(&mr->fr_lock);
unlock:
	rcu_read_unlock();
	return err;
}

struct ib_mr *mrc_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct mrc_device *mdev = to_mdev(ibpd->device);
	struct mrc_mr *mr;
	int err;

	/*
	 * The region is all of the kernel's memory: a peer must never reach
	 * it, whatever a kernel ULP asks for (IB_PD_UNSAFE_GLOBAL_RKEY).
	 */
	if (access & MRC_REMOTE_ACCESS)
		return ERR_PTR(-EOPNOTSUPP);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL_ACCOUNT);
	if (!mr)
		return ERR_PTR(-ENOMEM);

	mr->type = MRC_MR_DMA;
	mr->access = access;
	mr->iova = 0;
	mr->length = U64_MAX;
	/* The core sets these too, but only after the MR is visible. */
	mr->ibmr.device = ibpd->device;
	mr->ibmr.pd = ibpd;

	err = mrc_mr_publish(mdev, mr);
	if (err) {
		kfree(mr);
		return ERR_PTR(err);
	}
	return &mr->ibmr;
}

static int mrc_mr_fill_pages(struct mrc_mr *mr)
{
	struct sg_page_iter iter;
	unsigned long i = 0;

	mr->npages = ib_umem_num_pages(mr->umem);
	mr->pages = kvcalloc(mr->npages, sizeof(*mr->pages),
			     GFP_KERNEL_ACCOUNT);
	if (!mr->pages)
		return -ENOMEM;

	for_each_sgtable_page(&mr->umem->sgt_append.sgt, &iter, 0) {
		if (i == mr->npages)
			break;
		mr->pages[i++] = sg_page_iter_page(&iter);
	}
	/* mrc_mr_copy() trusts every entry to be there. */
	if (WARN_ON_ONCE(i != mr->npages)) {
		kvfree(mr->pages);
		mr->pages = NULL;
		return -EFAULT;
	}
	return 0;
}

struct ib_mr *mrc_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata)
{
	struct mrc_device *mdev = to_mdev(ibpd->device);
	struct mrc_mr *mr;
	u64 end;
	int err;

	err = ib_check_mr_access(ibpd->device, access);
	if (err)
		return ERR_PTR(err);
	if (!length || length > MRC_MAX_MR_SIZE ||
	    check_add_overflow(iova, length, &end))
		return ERR_PTR(-EINVAL);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL_ACCOUNT);
	if (!mr)
		return ERR_PTR(-ENOMEM);

	mr->umem = ib_umem_get(ibpd->device, start, length, access);
	if (IS_ERR(mr->umem)) {
		err = PTR_ERR(mr->umem);
		goto err_free;
	}

	err = mrc_mr_fill_pages(mr);
	if (err)
		goto err_release;

	mr->type = MRC_MR_USER;
	mr->access = access;
	mr->iova = iova;
	mr->length = length;
	mr->page_off = start & ~PAGE_MASK;
	mr->ibmr.device = ibpd->device;
	mr->ibmr.pd = ibpd;

	err = mrc_mr_publish(mdev, mr);
	if (err)
		goto err_pages;
	return &mr->ibmr;

err_pages:
	kvfree(mr->pages);
err_release:
	ib_umem_release(mr->umem);
err_free:
	kfree(mr);
	return ERR_PTR(err);
}

/**
 * mrc_rereg_user_mr() - ibv_rereg_mr: change a user MR's PD, rights or pages
 * @ibmr: the region
 * @flags: IB_MR_REREG_TRANS, IB_MR_REREG_PD, IB_MR_REREG_ACCESS
 * @start: new user address (IB_MR_REREG_TRANS)
 * @length: new length (IB_MR_REREG_TRANS)
 * @iova: new I/O virtual address (IB_MR_REREG_TRANS)
 * @access: new rights (IB_MR_REREG_ACCESS)
 * @pd: new PD (IB_MR_REREG_PD)
 * @udata: the verb's user data
 *
 * A new PD or new rights take effect in place (the core moves ibmr.pd once
 * this returns) and keep the keys.  New pages, or write access to pages
 * pinned for reading, make a new region, with new keys, which the core
 * puts in the old one's place and destroys the old one: a packet in
 * flight uses either, never a mix.  Not while memory windows are bound to
 * the region (-EBUSY), which were checked against its PD and rights; no
 * window binds to it during the change.
 *
 * Return: NULL when changed in place, the new region, or an ERR_PTR().
 */
struct ib_mr *mrc_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start,
				u64 length, u64 iova, int access,
				struct ib_pd *pd, struct ib_udata *udata)
{
	struct mrc_mr *mr = to_mmr(ibmr);
	struct ib_mr *new;
	int err;

	if (mr->type != MRC_MR_USER)
		return ERR_PTR(-EINVAL);
	if (flags & ~(IB_MR_REREG_TRANS | IB_MR_REREG_PD | IB_MR_REREG_ACCESS))
		return ERR_PTR(-EOPNOTSUPP);
	if (!(flags & IB_MR_REREG_ACCESS))
		access = mr->access;
	err = ib_check_mr_access(ibmr->device, access);
	if (err)
		return ERR_PTR(err);
	if (atomic_cmpxchg(&mr->num_mw, 0, -1))
		return ERR_PTR(-EBUSY);
	/*
	 * Pages pinned for reading are not dirtied when they are released:
	 * writing to them needs a pin for writing, so a new registration.
	 */
	if (!(flags & IB_MR_REREG_TRANS) &&
	    ib_access_writable(access) && !mr->umem->writable) {
		flags |= IB_MR_REREG_TRANS;
		start = mr->umem->address;
		length = mr->umem->length;
		iova = mr->iova;
	}
	if (flags & IB_MR_REREG_TRANS) {
		new = mrc_reg_user_mr(flags & IB_MR_REREG_PD ? pd : ibmr->pd,
				      start, length, iova, access, udata);
		/* Replaced, the old region stays claimed until it goes. */
		if (IS_ERR(new))
			atomic_set(&mr->num_mw, 0);
		return new;
	}
	/*
	 * Checks in softirq read the rights once per access: an access
	 * sees the old ones or the new ones.
	 */
	WRITE_ONCE(mr->access, access);
	/* The core sets it too, once the claim is gone: a bind must see it. */
	if (flags & IB_MR_REREG_PD)
		WRITE_ONCE(ibmr->pd, pd);
	atomic_set(&mr->num_mw, 0);
	return NULL;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_rereg_user_mr);

int mrc_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct mrc_device *mdev = to_mdev(ibmr->device);
	struct mrc_mr *mr = to_mmr(ibmr);

	/* IBA 10.6.7.2.6: not while windows are bound to it (-1: claimed). */
	if (mr->type == MRC_MR_USER && atomic_cmpxchg(&mr->num_mw, 0, -1) > 0)
		return -EBUSY;
	xa_erase(&mdev->mrs, ibmr->lkey >> 8);
	/*
	 * The receive path and the requester may be copying through the MR
	 * under RCU; the pages stay pinned until they are done.
	 */
	synchronize_rcu();

	if (mr->type == MRC_MR_USER) {
		ib_umem_release(mr->umem);
		kvfree(mr->pages);
	}
	if (mr->type == MRC_MR_FAST) {
		kfree(mr->fr_stage);
		kfree(mr->fr_spare);
	}
	kfree(mr);
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_dereg_mr);

struct mrc_mr *mrc_mr_lookup(struct mrc_device *mdev, u32 key)
{
	struct mrc_mr *mr;

	RCU_LOCKDEP_WARN(!rcu_read_lock_any_held(),
			 "MR lookup outside an RCU read-side section");

	mr = xa_load(&mdev->mrs, key >> 8);
	/* A fast-registration MR is accessed through its registration. */
	if (mr && mr->type == MRC_MR_FAST)
		mr = rcu_dereference(mr->fr_live);
	if (!mr || mr->ibmr.lkey != key)
		return NULL;
	return mr;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_mr_lookup);

/**
 * mrc_mr_check() - may @len bytes at @iova of @mr be accessed?
 * @mr: the region
 * @pd: PD of the QP that accesses it
 * @iova: first byte, in the region's address space
 * @len: bytes; 0 is allowed anywhere in the region and just past its end
 * @access: IB_ACCESS_* rights needed; 0 for a local read
 *
 * @iova and @len may come straight from a peer's packet.
 *
 * Return: 0, -EACCES if the PD or the rights do not match, -ERANGE if the
 * bytes are not all inside the region.
 */
int mrc_mr_check(const struct mrc_mr *mr, const struct ib_pd *pd, u64 iova,
		 u64 len, u32 access)
{
	u64 off;

	if (READ_ONCE(mr->ibmr.pd) != pd)
		return -EACCES;
	if (access & ~READ_ONCE(mr->access))
		return -EACCES;
	if (mr->type == MRC_MR_DMA && (access & MRC_REMOTE_ACCESS))
		return -EACCES;

	/* Never form iova + len: it may wrap. */
	if (iova < mr->iova)
		return -ERANGE;
	off = iova - mr->iova;
	if (off > mr->length || len > mr->length - off)
		return -ERANGE;
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_mr_check);

/**
 * mrc_remote_mr() - the region a peer's rkey and address name, checked
 * @qp: the QP the access arrived on, locked
 * @rkey: the key from the packet: a region's, or a memory window's
 * @iova: in: the address from the packet; out: the same byte in the
 *	region's address space (they differ through a zero-based window)
 * @len: bytes of the access
 * @access: the IB_ACCESS_REMOTE_* right it needs
 *
 * Context: under RCU, which keeps the region returned.
 * Return: the region, or ERR_PTR(-ENOENT) when @rkey names nothing this
 * QP may use (an rkey violation), -EACCES or -ERANGE from the checks.
 */
struct mrc_mr *mrc_remote_mr(struct mrc_qp *qp, u32 rkey, u64 *iova, u64 len,
			     u32 access)
{
	struct mrc_mr *mr;
	int err;

	if (mrc_key_is_mw(rkey))
		return mrc_mw_resolve(qp, rkey, iova, len, access);
	mr = mrc_mr_lookup(qp->mdev, rkey);
	if (!mr)
		return ERR_PTR(-ENOENT);
	err = mrc_mr_check(mr, qp->ibqp.pd, *iova, len, access);
	return err ? ERR_PTR(err) : mr;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_remote_mr);

/**
 * mrc_key_invalidate() - invalidate what @key names, a region or a window
 * @qp: the QP asking: by a LOCAL_INV it posted, or by a SEND_WITH_INV its
 *	peer sent (@remote)
 * @key: the key
 * @remote: a peer asks (a window must then be bound to @qp)
 * @gp: see mrc_mr_invalidate(); may be NULL
 *
 * Context: the QP's lock held (bottom halves off).
 * Return: 0 or -EINVAL.
 */
int mrc_key_invalidate(struct mrc_qp *qp, u32 key, bool remote,
		       unsigned long *gp)
{
	if (mrc_key_is_mw(key))
		return mrc_mw_invalidate(qp, key, remote, gp);
	return mrc_mr_invalidate(qp->mdev, qp->ibqp.pd, key, gp);
}

/* mrc_mr_copy() for a registration: pages of kernel virtual addresses. */
static void mrc_mr_copy_fast(const struct mrc_mr *map, u64 iova, void *buf,
			     u32 len, enum mrc_copy_dir dir)
{
	u64 off = iova - map->iova + map->page_off;
	u64 mask = BIT_ULL(map->fr_page_shift) - 1;

	while (len) {
		void *va = (void *)(uintptr_t)map->fr_va[off >> map->fr_page_shift];
		u32 chunk = min_t(u64, len, mask + 1 - (off & mask));

		va += off & mask;
		if (dir == MRC_TO_MR)
			memcpy(va, buf, chunk);
		else
			memcpy(buf, va, chunk);
		buf += chunk;
		off += chunk;
		len -= chunk;
	}
}

/**
 * mrc_mr_copy() - copy between a buffer and a region
 * @mr: the region
 * @iova: first byte in the region; mrc_mr_check() accepted [@iova, +@len)
 * @buf: kernel buffer
 * @len: bytes
 * @dir: MRC_TO_MR or MRC_FROM_MR
 *
 * Does not sleep: the receive path calls it in softirq.
 */
void mrc_mr_copy(const struct mrc_mr *mr, u64 iova, void *buf, u32 len,
		 enum mrc_copy_dir dir)
{
	u64 off;

	if (mr->type == MRC_MR_DMA) {
		void *addr = (void *)(uintptr_t)iova;

		if (dir == MRC_TO_MR)
			memcpy(addr, buf, len);
		else
			memcpy(buf, addr, len);
		return;
	}

	if (mr->type == MRC_MR_FAST_MAP) {
		mrc_mr_copy_fast(mr, iova, buf, len, dir);
		return;
	}

	off = iova - mr->iova + mr->page_off;
	while (len) {
		struct page *page = mr->pages[off >> PAGE_SHIFT];
		unsigned int poff = off & ~PAGE_MASK;
		u32 chunk = min_t(u32, len, PAGE_SIZE - poff);
		void *va = kmap_local_page(page);

		if (dir == MRC_TO_MR) {
			memcpy(va + poff, buf, chunk);
			/* The process may see the page through another alias. */
			flush_dcache_page(page);
		} else {
			memcpy(buf, va + poff, chunk);
		}
		kunmap_local(va);

		buf += chunk;
		off += chunk;
		len -= chunk;
	}
}

/* One atomic on the 8 bytes at kernel address @p. */
static int mrc_mr_atomic_at(void *p, bool cas, u64 swap_add, u64 compare,
			    u64 *orig)
{
	atomic64_t *a = p;

	/*
	 * The iova was aligned, the kernel alias of its page need not be (a
	 * registration whose iova and buffer differ in their low bits).
	 */
	if (!IS_ALIGNED((uintptr_t)p, MRC_ATOMIC_LEN))
		return -EINVAL;
	if (cas)
		*orig = atomic64_cmpxchg(a, compare, swap_add);
	else
		*orig = atomic64_fetch_add(swap_add, a);
	return 0;
}

/**
 * mrc_mr_atomic_aligned() - are the 8 bytes at @iova aligned in memory?
 * @mr: the region
 * @iova: an 8-byte aligned address in it
 *
 * The iova's alignment is the peer's to get right; the memory's may differ
 * from it when the region's iova and buffer differ in their low bits
 * (ibv_reg_mr_iova(), or a fast registration's iova).  Every page of a
 * region starts aligned, so the offset in the region tells.
 */
bool mrc_mr_atomic_aligned(const struct mrc_mr *mr, u64 iova)
{
	if (mr->type == MRC_MR_DMA)
		return IS_ALIGNED(iova, MRC_ATOMIC_LEN);
	return IS_ALIGNED(iova - mr->iova + mr->page_off, MRC_ATOMIC_LEN);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_mr_atomic_aligned);

/**
 * mrc_mr_atomic() - compare-and-swap or fetch-and-add in a region
 * @mr: the region
 * @iova: the 8 bytes, 8-byte aligned; mrc_mr_check() accepted them
 * @cas: compare-and-swap, else fetch-and-add
 * @swap_add: the value swapped in, or added
 * @compare: compare-and-swap: swap only if the bytes hold this
 * @orig: what the bytes held before
 *
 * The operation is one atomic instruction on the memory: atomic with
 * respect to every other QP's atomics, and to the CPU's own.  Does not
 * sleep.
 *
 * Return: 0, or -EINVAL when the bytes are not 8-byte aligned in memory.
 */
int mrc_mr_atomic(const struct mrc_mr *mr, u64 iova, bool cas, u64 swap_add,
		  u64 compare, u64 *orig)
{
	struct page *page;
	u64 off;
	void *va;
	int err;

	if (mr->type == MRC_MR_DMA)
		return mrc_mr_atomic_at((void *)(uintptr_t)iova, cas, swap_add,
					compare, orig);
	if (mr->type == MRC_MR_FAST_MAP) {
		off = iova - mr->iova + mr->page_off;
		va = (void *)(uintptr_t)mr->fr_va[off >> mr->fr_page_shift];
		va += off & (BIT_ULL(mr->fr_page_shift) - 1);
		return mrc_mr_atomic_at(va, cas, swap_add, compare, orig);
	}
	off = iova - mr->iova + mr->page_off;
	page = mr->pages[off >> PAGE_SHIFT];
	va = kmap_local_page(page);
	err = mrc_mr_atomic_at(va + (off & ~PAGE_MASK), cas, swap_add, compare,
			       orig);
	if (!err)
		flush_dcache_page(page);
	kunmap_local(va);
	return err;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_mr_atomic);

/**
 * mrc_sge_copy() - copy to or from the buffer a list of SGEs describes
 * @mdev: the device
 * @pd: PD of the QP the SGEs belong to
 * @sge: the SGEs, already in kernel memory
 * @num_sge: entries in @sge
 * @offset: where to start, in bytes from the start of the first SGE
 * @buf: kernel buffer
 * @len: bytes to copy
 * @dir: MRC_TO_MR (needs local write access) or MRC_FROM_MR
 *
 * Only the SGEs the copy touches are looked up and checked.
 *
 * Return: 0, -EINVAL if the SGEs hold fewer than @offset + @len bytes,
 * -EACCES or -ERANGE from the lookup and checks of the MRs.
 */
int mrc_sge_copy(struct mrc_device *mdev, const struct ib_pd *pd,
		 const struct rxe_sge *sge, u32 num_sge, u64 offset,
		 void *buf, u32 len, enum mrc_copy_dir dir)
{
	u32 access = dir == MRC_TO_MR ? IB_ACCESS_LOCAL_WRITE : 0;
	u64 total = 0;
	int err = 0;
	u32 i;

	for (i = 0; i < num_sge; i++)
		total += sge[i].length;
	if (offset > total || len > total - offset)
		return -EINVAL;

	rcu_read_lock();
	for (i = 0; i < num_sge && len; i++) {
		struct mrc_mr *mr;
		u32 chunk;
		u64 addr;

		if (offset >= sge[i].length) {
			offset -= sge[i].length;
			continue;
		}
		chunk = min_t(u64, len, sge[i].length - offset);

		mr = mrc_mr_lookup(mdev, sge[i].lkey);
		if (!mr) {
			err = -EACCES;
			break;
		}
		if (check_add_overflow(sge[i].addr, offset, &addr)) {
			err = -ERANGE;
			break;
		}
		err = mrc_mr_check(mr, pd, addr, chunk, access);
		if (err)
			break;

		mrc_mr_copy(mr, addr, buf, chunk, dir);
		buf += chunk;
		len -= chunk;
		offset = 0;
	}
	rcu_read_unlock();
	return err;
}
