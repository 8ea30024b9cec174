/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where mrc differs by kernel: Debian 12 ships 6.1 and, through
 * its 6.12 packages, the kernel current GPU hosts run.  Each shim names the
 * release that changed the interface; the code elsewhere uses the shim and
 * reads as if written for the newer kernel.  Drop a shim when the oldest
 * kernel mrc supports has the change.
 */
#ifndef _MRC_COMPAT_H
#define _MRC_COMPAT_H

#include <linux/netdevice.h>
#include <linux/version.h>
#include <net/genetlink.h>
#include <rdma/uverbs_ioctl.h>

/* True when building against kernel MAJ.MIN or a later one. */
#define MRC_KERNEL_SINCE(maj, min) \
	(LINUX_VERSION_CODE >= KERNEL_VERSION(maj, min, 0))

/* 6.12 moved the unaligned accessors from <asm/> to <linux/>. */
#if MRC_KERNEL_SINCE(6, 12)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * 6.11 gives ->create_cq() the caller's whole uverbs attribute bundle (NULL
 * for a kernel CQ) where it gave the driver's udata.
 */
#if MRC_KERNEL_SINCE(6, 11)
typedef struct uverbs_attr_bundle mrc_cq_create_arg;

static inline struct ib_udata *mrc_cq_create_udata(mrc_cq_create_arg *arg)
{
	return arg ? &arg->driver_udata : NULL;
}
#else
typedef struct ib_udata mrc_cq_create_arg;

static inline struct ib_udata *mrc_cq_create_udata(mrc_cq_create_arg *arg)
{
	return arg;
}
#endif

/* 6.6 embeds a struct genl_info in a dump's info and keeps the attrs there. */
static inline struct nlattr **mrc_genl_dump_attrs(struct netlink_callback *cb)
{
#if MRC_KERNEL_SINCE(6, 6)
	return genl_dumpit_info(cb)->info.attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/* 6.9 moved netdev_max_backlog into net_hotdata. */
#if MRC_KERNEL_SINCE(6, 9)
#include <net/hotdata.h>
#endif

static inline int mrc_netdev_max_backlog(void)
{
#if MRC_KERNEL_SINCE(6, 9)
	return READ_ONCE(net_hotdata.max_backlog);
#else
	return READ_ONCE(netdev_max_backlog);
#endif
}

#endif /* _MRC_COMPAT_H */
