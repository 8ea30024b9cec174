// SPDX-License-Identifier: GPL-2.0
/*
 * mrc.ko entry points: wire up devices, the generic netlink family and the
 * RDMA link type, and take them down again in reverse order.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <net/genetlink.h>
#include <rdma/rdma_netlink.h>

#include "mrc.h"

unsigned short mrc_udp_port = MRC_UDP_PORT_DEFAULT;
/* Read-only until the UDP socket can be rebound at run time. */
module_param_named(udp_port, mrc_udp_port, ushort, 0444);
MODULE_PARM_DESC(udp_port, "UDP destination port of MRC packets (default 4793)");

static int __init mrc_init(void)
{
	int err;

	if (!mrc_udp_port) {
		pr_err("udp_port must not be 0\n");
		return -EINVAL;
	}

	err = mrc_device_init();
	if (err)
		return err;

	err = mrc_profile_init();
	if (err)
		goto err_device;

	/* Last: requests may arrive as soon as the family is registered. */
	err = mrc_genl_init();
	if (err)
		goto err_profile;

	pr_info("version %s loaded, udp port %u\n", MRC_VERSION, mrc_udp_port);
	return 0;

err_profile:
	mrc_profile_exit();
err_device:
	mrc_device_exit();
	return err;
}

static void __exit mrc_exit(void)
{
	/* No new requests first, then the objects they could have created. */
	mrc_genl_exit();
	mrc_profile_exit();
	mrc_device_exit();
	pr_info("unloaded\n");
}

module_init(mrc_init);
module_exit(mrc_exit);

MODULE_LICENSE("GPL");
MODULE_VERSION(MRC_VERSION);
MODULE_DESCRIPTION("Multipath Reliable Connection soft RDMA provider");
MODULE_ALIAS_GENL_FAMILY(MRC_GENL_NAME);
MODULE_ALIAS_RDMA_LINK("mrc");
