// SPDX-License-Identifier: GPL-2.0
/*
 * The SRv6 paths of a device, one entry per destination: a GEN template the
 * paths of every plane are generated from, or the controller's explicit
 * list.  QPs take a reference to their destination's entry when their
 * address vector is set and map each EV's entropy to one of its paths, so
 * replacing an entry never changes a running QP under its feet.
 */

#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "mrc.h"

struct mrc_srv6_dst *mrc_srv6_dst_alloc(u32 npaths)
{
	struct mrc_srv6_dst *d;

	d = kvzalloc(struct_size(d, path, npaths), GFP_KERNEL);
	if (!d)
		return NULL;
	INIT_LIST_HEAD(&d->list);
	refcount_set(&d->ref, 1);
	d->npaths = npaths;
	return d;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_srv6_dst_alloc);

void mrc_srv6_dst_put(struct mrc_srv6_dst *d)
{
	if (d && refcount_dec_and_test(&d->ref))
		kvfree_rcu(d, rcu);
}

static struct mrc_srv6_dst *mrc_srv6_dst_find(struct mrc_device *mdev,
					      const struct in6_addr *peer)
{
	struct mrc_srv6_dst *d;

	lockdep_assert_held(&mdev->srv6_lock);
	list_for_each_entry(d, &mdev->srv6, list)
		if (ipv6_addr_equal(&d->peer, peer))
			return d;
	return NULL;
}

/**
 * mrc_srv6_dst_set() - add or replace the entry of d->peer
 * @mdev: the device
 * @d: the new entry, checked; the table takes the caller's reference
 *
 * Return: 0, or -ENOSPC when the device has MRC_SRV6_DSTS_MAX entries (@d
 * is then freed).
 */
int mrc_srv6_dst_set(struct mrc_device *mdev, struct mrc_srv6_dst *d)
{
	struct mrc_srv6_dst *old;

	mutex_lock(&mdev->srv6_lock);
	old = mrc_srv6_dst_find(mdev, &d->peer);
	if (!old && mdev->nsrv6 >= MRC_SRV6_DSTS_MAX) {
		mutex_unlock(&mdev->srv6_lock);
		mrc_srv6_dst_put(d);
		return -ENOSPC;
	}
	if (old) {
		list_replace(&old->list, &d->list);
	} else {
		list_add_tail(&d->list, &mdev->srv6);
		/* query_port reads it without the lock. */
		WRITE_ONCE(mdev->nsrv6, mdev->nsrv6 + 1);
	}
	mutex_unlock(&mdev->srv6_lock);
	mrc_srv6_dst_put(old);
	return 0;
}

int mrc_srv6_dst_del(struct mrc_device *mdev, const struct in6_addr *peer)
{
	struct mrc_srv6_dst *d;

	mutex_lock(&mdev->srv6_lock);
	d = mrc_srv6_dst_find(mdev, peer);
	if (d) {
		list_del(&d->list);
		WRITE_ONCE(mdev->nsrv6, mdev->nsrv6 - 1);
	}
	mutex_unlock(&mdev->srv6_lock);
	if (!d)
		return -ENOENT;
	mrc_srv6_dst_put(d);
	return 0;
}

/* The entry of @peer with a reference for the caller, or NULL. */
struct mrc_srv6_dst *mrc_srv6_dst_get(struct mrc_device *mdev,
				      const struct in6_addr *peer)
{
	struct mrc_srv6_dst *d;

	mutex_lock(&mdev->srv6_lock);
	d = mrc_srv6_dst_find(mdev, peer);
	if (d)
		refcount_inc(&d->ref);
	mutex_unlock(&mdev->srv6_lock);
	return d;
}

/* The device is going away: QPs keep their own references. */
void mrc_srv6_dst_flush(struct mrc_device *mdev)
{
	struct mrc_srv6_dst *d, *tmp;

	list_for_each_entry_safe(d, tmp, &mdev->srv6, list) {
		list_del(&d->list);
		mrc_srv6_dst_put(d);
	}
	mdev->nsrv6 = 0;
}

/**
 * mrc_srv6_dst_path() - the path an EV takes
 * @d: the destination's entry
 * @plane: the EV's plane
 * @entropy: the EV's entropy: path (entropy mod paths of the plane)
 * @p: filled in
 *
 * Return: false when the plane has no path.
 */
bool mrc_srv6_dst_path(const struct mrc_srv6_dst *d, u8 plane, u16 entropy,
		       struct mrc_srv6_path *p)
{
	u16 usids[MRC_SRV6_USIDS_MAX];
	u32 n;

	if (plane >= MRC_MAX_PLANES || !d->count[plane])
		return false;
	n = entropy % d->count[plane];
	if (d->npaths) {
		*p = d->path[d->first[plane] + n];
		return true;
	}
	mrc_srv6_gen(&d->gen, plane, n, usids);
	/* The template was checked: every path it generates encodes. */
	return !mrc_srv6_encode(d->gen.locator, usids, d->gen.nusids, p);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_srv6_dst_path);
