// SPDX-License-Identifier: GPL-2.0
/*
 * mrc.ko entry points: wire up devices, the generic netlink family and the
 * RDMA link type, and take them down again in reverse order.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <net/genetlink.h>
#include <rdma/rdma_netlink.h>

#include "mrc.h"

unsigned short mrc_udp_port = MRC_UDP_PORT_DEFAULT;
/* Read-only until the UDP socket can be rebound at run time. */
module_param_named(udp_port, mrc_udp_port, ushort, 0444);
MODULE_PARM_DESC(udp_port, "UDP destination port of MRC packets (default 4793)");

/*
 * mrc speaks rxe's user ABI, so its RDMA devices carry rxe's driver id, and
 * rdma_rxe finds devices by that id (ib_device_get_by_netdev) and takes them
 * for its own struct rxe_dev.  The two must never be loaded together: refuse
 * to load beside rdma_rxe, and refuse rdma_rxe's load while we are here.
 */
#define MRC_RXE_MODULE "rdma_rxe"

static int mrc_module_event(struct notifier_block *nb, unsigned long state,
			    void *data)
{
	struct module *mod = data;

	if (state != MODULE_STATE_COMING || strcmp(mod->name, MRC_RXE_MODULE))
		return NOTIFY_DONE;
	pr_warn("refusing to let %s load: it would take mrc devices for its own\n",
		MRC_RXE_MODULE);
	return notifier_from_errno(-EBUSY);
}

static struct notifier_block mrc_module_nb = {
	.notifier_call = mrc_module_event,
};

/* /sys/module/rdma_rxe exists while it is loaded; module_kset is ours too. */
static bool mrc_rxe_loaded(void)
{
	struct kobject *kobj;

	kobj = kset_find_obj(THIS_MODULE->mkobj.kobj.kset, MRC_RXE_MODULE);
	if (!kobj)
		return false;
	kobject_put(kobj);
	return true;
}

static int __init mrc_init(void)
{
	int err;

	if (!mrc_udp_port) {
		pr_err("udp_port must not be 0\n");
		return -EINVAL;
	}

	/* Before the check, so that no load can slip between the two. */
	err = register_module_notifier(&mrc_module_nb);
	if (err)
		return err;
	if (mrc_rxe_loaded()) {
		pr_err("%s is loaded; mrc shares its driver id and cannot load beside it\n",
		       MRC_RXE_MODULE);
		err = -EBUSY;
		goto err_notifier;
	}

	mrc_debugfs_init();
	err = mrc_device_init();
	if (err)
		goto err_debugfs;

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
err_debugfs:
	mrc_debugfs_exit();
err_notifier:
	unregister_module_notifier(&mrc_module_nb);
	return err;
}

static void __exit mrc_exit(void)
{
	/* No new requests first, then the objects they could have created. */
	mrc_genl_exit();
	mrc_profile_exit();
	mrc_device_exit();
	mrc_debugfs_exit();
	unregister_module_notifier(&mrc_module_nb);
	pr_info("unloaded\n");
}

module_init(mrc_init);
module_exit(mrc_exit);

MODULE_LICENSE("GPL");
MODULE_VERSION(MRC_VERSION);
MODULE_DESCRIPTION("Multipath Reliable Connection soft RDMA provider");
MODULE_ALIAS_GENL_FAMILY(MRC_GENL_NAME);
MODULE_ALIAS_RDMA_LINK("mrc");
