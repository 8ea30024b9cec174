// SPDX-License-Identifier: GPL-2.0
/*
 * dev show, add, set and del: mrc devices, their planes and the profiles
 * they use.  The plane attribute table and admin state are shared with the
 * monitor, which prints the same plane nests in its plane events.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mrcctl.h"

struct dev_show {
	struct nl *nl;
	bool opened;		/* JSON array started */
};

const enum mnl_attr_data_type plane_types[MRC_A_PLANE_MAX + 1] = {
	[MRC_A_PLANE_INDEX] = MNL_TYPE_U32,
	[MRC_A_PLANE_IFINDEX] = MNL_TYPE_U32,
	[MRC_A_PLANE_IFNAME] = MNL_TYPE_NUL_STRING,
	[MRC_A_PLANE_STATE] = MNL_TYPE_U8,
	[MRC_A_PLANE_ADMIN] = MNL_TYPE_U8,
};

/* The admin state of a plane; "" from kernels that do not report it. */
const char *plane_admin(const struct nlattr **tb)
{
	if (!tb[MRC_A_PLANE_ADMIN])
		return "";
	return mnl_attr_get_u8(tb[MRC_A_PLANE_ADMIN]) == MRC_PLANE_ADMIN_UP ?
	       "up" : "down";
}

static int print_plane(struct nl *nl, const struct nlattr *nest)
{
	const struct nlattr *tb[MRC_A_PLANE_MAX + 1];
	const char *state;

	if (parse_nest(nl, nest, tb, MRC_A_PLANE_MAX, plane_types) < MNL_CB_OK)
		return -1;
	if (!tb[MRC_A_PLANE_INDEX] || !tb[MRC_A_PLANE_IFINDEX] ||
	    !tb[MRC_A_PLANE_IFNAME] || !tb[MRC_A_PLANE_STATE])
		return nl_fail(nl, EPROTO, "incomplete plane from the kernel");
	state = mnl_attr_get_u8(tb[MRC_A_PLANE_STATE]) == MRC_PLANE_STATE_UP ?
		"up" : "down";

	if (json) {
		j_open(NULL, '{');
		j_uint("index", mnl_attr_get_u32(tb[MRC_A_PLANE_INDEX]));
		j_str("netdev", mnl_attr_get_str(tb[MRC_A_PLANE_IFNAME]));
		j_uint("ifindex", mnl_attr_get_u32(tb[MRC_A_PLANE_IFINDEX]));
		j_str("state", state);
		if (*plane_admin(tb))
			j_str("admin", plane_admin(tb));
		j_close('}');
	} else {
		printf("    plane %u netdev %s ifindex %u state %s",
		       mnl_attr_get_u32(tb[MRC_A_PLANE_INDEX]),
		       mnl_attr_get_str(tb[MRC_A_PLANE_IFNAME]),
		       mnl_attr_get_u32(tb[MRC_A_PLANE_IFINDEX]), state);
		if (*plane_admin(tb))
			printf(" admin %s", plane_admin(tb));
		putchar('\n');
	}
	return 0;
}

static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type types[MRC_A_MAX + 1] = {
		[MRC_A_DEV_NAME] = MNL_TYPE_NUL_STRING,
		[MRC_A_DEV_INDEX] = MNL_TYPE_U32,
		[MRC_A_DEV_PLANES] = MNL_TYPE_NESTED,
		[MRC_A_DEV_EVPROF_ID] = MNL_TYPE_U32,
		[MRC_A_DEV_CCPROF_ID] = MNL_TYPE_U32,
	};
	const struct nlattr *tb[MRC_A_MAX + 1];
	struct dev_show *ds = data;
	__u32 evprof = 0, ccprof = 0;
	const struct nlattr *plane;
	const char *name;
	unsigned int n = 0;

	if (parse_msg(ds->nl, nlh, tb, MRC_A_MAX, types) < MNL_CB_OK)
		return MNL_CB_ERROR;
	if (!tb[MRC_A_DEV_NAME] || !tb[MRC_A_DEV_PLANES]) {
		nl_fail(ds->nl, EPROTO, "incomplete device from the kernel");
		return MNL_CB_ERROR;
	}
	name = mnl_attr_get_str(tb[MRC_A_DEV_NAME]);
	if (tb[MRC_A_DEV_EVPROF_ID])
		evprof = mnl_attr_get_u32(tb[MRC_A_DEV_EVPROF_ID]);
	if (tb[MRC_A_DEV_CCPROF_ID])
		ccprof = mnl_attr_get_u32(tb[MRC_A_DEV_CCPROF_ID]);
	mnl_attr_for_each_nested(plane, tb[MRC_A_DEV_PLANES])
		if (mnl_attr_get_type(plane) == MRC_A_PLANE)
			n++;

	if (json) {
		j_list_item(&ds->opened);
		j_open(NULL, '{');
		j_str("name", name);
		j_uint("evprofile", evprof);
		j_uint("ccprofile", ccprof);
		j_open("planes", '[');
	} else {
		/* Profiles only when named: 0 means the built-in settings. */
		printf("dev %s planes %u", name, n);
		if (evprof)
			printf(" evprofile %u", evprof);
		if (ccprof)
			printf(" ccprofile %u", ccprof);
		putchar('\n');
	}
	mnl_attr_for_each_nested(plane, tb[MRC_A_DEV_PLANES])
		if (mnl_attr_get_type(plane) == MRC_A_PLANE &&
		    print_plane(ds->nl, plane) < 0)
			return MNL_CB_ERROR;
	if (json) {
		j_close(']');
		j_close('}');
	}
	return MNL_CB_OK;
}

static int dev_show(struct nl *nl, int argc, char **argv)
{
	struct dev_show ds = { .nl = nl };
	struct nlmsghdr *nlh;
	int ret;

	if (argc > 1)
		usage_error("unexpected argument", argv[1]);
	if (argc) {
		nlh = mrc_msg(nl, MRC_CMD_DEV_GET, 0);
		mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, argv[0]);
	} else {
		nlh = mrc_msg(nl, MRC_CMD_DEV_GET, NLM_F_DUMP);
	}
	ret = nl_talk(nl, nlh, dev_cb, &ds);
	if (json)
		j_list_end(ds.opened, ret);
	return ret;
}

/*
 * "evprofile ID|none" or "ccprofile ID|none" at argv[0]: adds the attribute
 * and returns the words used (2), or 0 when argv[0] is neither keyword.
 */
static int put_dev_prof(struct nlmsghdr *nlh, int argc, char **argv)
{
	int type;

	if (!strcmp(argv[0], "evprofile"))
		type = MRC_A_DEV_EVPROF_ID;
	else if (!strcmp(argv[0], "ccprofile"))
		type = MRC_A_DEV_CCPROF_ID;
	else
		return 0;
	if (argc < 2)
		usage_error("missing profile id after", argv[0]);
	/* The kernel checks the range: its message is the one to show. */
	mnl_attr_put_u32(nlh, type, strcmp(argv[1], "none") ?
			 parse_u32_arg("invalid profile id", argv[1]) : 0);
	return 2;
}

static int dev_add(struct nl *nl, int argc, char **argv)
{
	struct nlattr *planes, *plane;
	struct nlmsghdr *nlh;
	int i, nplanes = 0;

	if (argc < 1)
		usage_error("dev add needs a device name", NULL);

	nlh = mrc_msg(nl, MRC_CMD_DEV_NEW, 0);
	mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, argv[0]);
	planes = mnl_attr_nest_start(nlh, MRC_A_DEV_PLANES);
	for (i = 1; i < argc; i += 2) {
		if (!strcmp(argv[i], "evprofile") ||
		    !strcmp(argv[i], "ccprofile"))
			continue;	/* after the nest, below */
		if (strcmp(argv[i], "plane"))
			usage_error("expected \"plane\", got", argv[i]);
		if (i + 1 >= argc)
			usage_error("plane needs a netdev name", NULL);
		/* The kernel checks the netdev; keep its messages for tests. */
		plane = mnl_attr_nest_start_check(nlh, sizeof(nl_buf),
						  MRC_A_PLANE);
		if (!plane ||
		    !mnl_attr_put_strz_check(nlh, sizeof(nl_buf),
					     MRC_A_PLANE_IFNAME, argv[i + 1]))
			usage_error("too many planes to fit in one request",
				    NULL);
		mnl_attr_nest_end(nlh, plane);
		nplanes++;
	}
	if (!nplanes)
		usage_error("dev add needs at least one \"plane DEV\"", NULL);
	mnl_attr_nest_end(nlh, planes);
	for (i = 1; i < argc; i += 2)
		put_dev_prof(nlh, argc - i, argv + i);
	return nl_talk(nl, nlh, NULL, NULL);
}

static int dev_set(struct nl *nl, int argc, char **argv)
{
	struct nlmsghdr *nlh;
	int i, used;

	if (argc < 3)
		usage_error("dev set needs a device name and a profile", NULL);
	nlh = mrc_msg(nl, MRC_CMD_DEV_SET, 0);
	mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, argv[0]);
	for (i = 1; i < argc; i += used) {
		used = put_dev_prof(nlh, argc - i, argv + i);
		if (!used)
			usage_error("unknown parameter", argv[i]);
	}
	return nl_talk(nl, nlh, NULL, NULL);
}

static int dev_del(struct nl *nl, int argc, char **argv)
{
	struct nlmsghdr *nlh;

	if (argc != 1)
		usage_error("dev del needs exactly one device name", NULL);
	nlh = mrc_msg(nl, MRC_CMD_DEV_DEL, 0);
	mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, argv[0]);
	return nl_talk(nl, nlh, NULL, NULL);
}

int cmd_dev(struct nl *nl, int argc, char **argv)
{
	if (!argc || !strcmp(argv[0], "show") || !strcmp(argv[0], "list"))
		return dev_show(nl, argc ? argc - 1 : 0, argv + 1);
	if (!strcmp(argv[0], "add"))
		return dev_add(nl, argc - 1, argv + 1);
	if (!strcmp(argv[0], "set"))
		return dev_set(nl, argc - 1, argv + 1);
	if (!strcmp(argv[0], "del") || !strcmp(argv[0], "delete"))
		return dev_del(nl, argc - 1, argv + 1);
	return usage_error("unknown dev command", argv[0]);
}
