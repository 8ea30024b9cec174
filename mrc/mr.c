// SPDX-License-Identifier: GPL-2.0
/*
 * Memory regions: registration of pinned user memory and of the kernel's
 * DMA region, key lookup, the access and bounds checks every local and
 * remote access goes through, and copies in and out of regions.
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

int mrc_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct mrc_device *mdev = to_mdev(ibmr->device);
	struct mrc_mr *mr = to_mmr(ibmr);

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
	kfree(mr);
	return 0;
}

struct mrc_mr *mrc_mr_lookup(struct mrc_device *mdev, u32 key)
{
	struct mrc_mr *mr;

	RCU_LOCKDEP_WARN(!rcu_read_lock_any_held(),
			 "MR lookup outside an RCU read-side section");

	mr = xa_load(&mdev->mrs, key >> 8);
	if (!mr || mr->ibmr.lkey != key)
		return NULL;
	return mr;
}

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

	if (mr->ibmr.pd != pd)
		return -EACCES;
	if (access & ~mr->access)
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
