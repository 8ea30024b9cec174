// SPDX-License-Identifier: GPL-2.0
/*
 * Queues in rxe's layout (struct rxe_queue_buf), which librxe maps into the
 * process through the uverbs file and drives without system calls.
 */

#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "mrc.h"

struct mrc_mmap_entry {
	struct rdma_user_mmap_entry rentry;
	void *buf;
};

static struct mrc_mmap_entry *to_mentry(struct rdma_user_mmap_entry *rentry)
{
	return container_of(rentry, struct mrc_mmap_entry, rentry);
}

/*
 * vmalloc_user() memory charged to the caller's memory cgroup: any user
 * may create queues, so what they cost is theirs.  The pages come
 * accounted and zeroed (user space must never see stale kernel memory),
 * are mapped VM_USERMAP for remap_vmalloc_range(), and are vfree()'s to
 * put (VM_MAP_PUT_PAGES), with the array that holds them.
 */
static void *mrc_queue_buf_alloc(size_t size)
{
	unsigned int i, n = PAGE_ALIGN(size) >> PAGE_SHIFT;
	struct page **pages;
	void *buf;

	pages = kvcalloc(n, sizeof(*pages), GFP_KERNEL_ACCOUNT);
	if (!pages)
		return NULL;
	for (i = 0; i < n; i++) {
		pages[i] = alloc_page(GFP_KERNEL_ACCOUNT | __GFP_ZERO);
		if (!pages[i])
			goto err;
	}
	buf = vmap(pages, n, VM_MAP | VM_USERMAP | VM_MAP_PUT_PAGES,
		   PAGE_KERNEL);
	if (buf)
		return buf;
err:
	while (i--)
		__free_page(pages[i]);
	kvfree(pages);
	return NULL;
}

/**
 * mrc_queue_alloc() - allocate an empty queue
 * @q: the queue to fill
 * @udata: the verb's user data for a queue user space maps, NULL otherwise
 * @num_elem: in: elements the caller asked for; out: elements that fit
 * @elem_size: bytes of one element, rounded up to a power of two
 *
 * Return: 0, -EINVAL for sizes out of range, -ENOMEM.
 */
int mrc_queue_alloc(struct mrc_queue *q, struct ib_udata *udata,
		    u32 *num_elem, u32 elem_size)
{
	struct mrc_mmap_entry *entry;
	struct rxe_queue_buf *buf;
	u32 slots;
	u64 size;
	int err;

	/* 0 is fine: a send-only QP has no receive queue to speak of. */
	if (*num_elem >= MRC_QUEUE_MAX_SLOTS ||
	    !elem_size || elem_size > MRC_QUEUE_MAX_ELEM)
		return -EINVAL;

	elem_size = roundup_pow_of_two(elem_size);
	/* The slot left empty tells a full queue from an empty one. */
	slots = roundup_pow_of_two(*num_elem + 1);
	size = sizeof(*buf) + (u64)slots * elem_size;
	if (size > U32_MAX)
		return -ENOMEM;

	buf = mrc_queue_buf_alloc(size);
	if (!buf)
		return -ENOMEM;

	buf->log2_elem_size = ilog2(elem_size);
	buf->index_mask = slots - 1;

	q->buf = buf;
	q->buf_size = size;
	q->mmap = NULL;
	q->elem_size = elem_size;
	q->log2_elem_size = ilog2(elem_size);
	q->index_mask = slots - 1;
	q->index = 0;

	if (udata) {
		struct ib_ucontext *uctx =
			container_of(udata, struct uverbs_attr_bundle,
				     driver_udata)->context;

		entry = kzalloc(sizeof(*entry), GFP_KERNEL_ACCOUNT);
		if (!entry) {
			err = -ENOMEM;
			goto err_free;
		}
		entry->buf = buf;
		err = rdma_user_mmap_entry_insert(uctx, &entry->rentry, size);
		if (err) {
			kfree(entry);
			goto err_free;
		}
		q->mmap = &entry->rentry;
	}

	*num_elem = slots - 1;
	return 0;

err_free:
	vfree(buf);
	q->buf = NULL;
	return err;
}

/* Where user space finds the queue: the offset to mmap() the uverbs fd at. */
int mrc_queue_mminfo(struct mrc_queue *q, struct ib_udata *udata,
		     struct mminfo *mi)
{
	if (!q->mmap)
		return -EINVAL;

	mi->offset = rdma_user_mmap_get_offset(q->mmap);
	mi->size = q->buf_size;
	mi->pad = 0;
	return 0;
}

void mrc_queue_free(struct mrc_queue *q)
{
	/*
	 * A mapped buffer is freed by mrc_mmap_free() once no mmap() that
	 * found the entry still uses it.  Pages already mapped into a process
	 * hold their own references and outlive the vfree().
	 */
	if (q->mmap)
		rdma_user_mmap_entry_remove(q->mmap);
	else
		vfree(q->buf);
	q->mmap = NULL;
	q->buf = NULL;
}

int mrc_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *rentry;
	int err;

	/* Also checks VM_SHARED and that the length is the entry's. */
	rentry = rdma_user_mmap_entry_get(uctx, vma);
	if (!rentry)
		return -EINVAL;

	err = remap_vmalloc_range(vma, to_mentry(rentry)->buf, 0);
	rdma_user_mmap_entry_put(rentry);
	return err;
}

void mrc_mmap_free(struct rdma_user_mmap_entry *rentry)
{
	struct mrc_mmap_entry *entry = to_mentry(rentry);

	vfree(entry->buf);
	kfree(entry);
}
