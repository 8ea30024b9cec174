// SPDX-License-Identifier: GPL-2.0
/*
 * plane set: takes one plane of a device administratively up or down, which
 * the kernel reports back in dev show and in plane events.
 */

#include <stdbool.h>
#include <string.h>

#include "mrcctl.h"

/* plane set dev NAME plane N admin { up | down } */
static int plane_set(struct nl *nl, int argc, char **argv)
{
	const char *dev = NULL, *admin = NULL;
	struct nlattr *planes, *plane;
	struct nlmsghdr *nlh;
	__u32 index = 0;
	bool have_index = false;
	int i;

	for (i = 0; i < argc; i += 2) {
		if (i + 1 >= argc)
			usage_error("missing value for", argv[i]);
		if (!strcmp(argv[i], "dev")) {
			dev = argv[i + 1];
		} else if (!strcmp(argv[i], "plane")) {
			index = parse_u32_arg("invalid plane index", argv[i + 1]);
			have_index = true;
		} else if (!strcmp(argv[i], "admin")) {
			admin = argv[i + 1];
			if (strcmp(admin, "up") && strcmp(admin, "down"))
				usage_error("admin must be up or down", admin);
		} else {
			usage_error("unknown parameter", argv[i]);
		}
	}
	if (!dev || !have_index || !admin)
		usage_error("plane set needs dev NAME, plane N and admin { up | down }",
			    NULL);

	nlh = mrc_msg(nl, MRC_CMD_PLANE_SET, 0);
	mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, dev);
	planes = mnl_attr_nest_start(nlh, MRC_A_DEV_PLANES);
	plane = mnl_attr_nest_start(nlh, MRC_A_PLANE);
	mnl_attr_put_u32(nlh, MRC_A_PLANE_INDEX, index);
	mnl_attr_put_u8(nlh, MRC_A_PLANE_ADMIN, strcmp(admin, "up") ?
			MRC_PLANE_ADMIN_DOWN : MRC_PLANE_ADMIN_UP);
	mnl_attr_nest_end(nlh, plane);
	mnl_attr_nest_end(nlh, planes);
	return nl_talk(nl, nlh, NULL, NULL);
}

int cmd_plane(struct nl *nl, int argc, char **argv)
{
	if (argc && !strcmp(argv[0], "set"))
		return plane_set(nl, argc - 1, argv + 1);
	return usage_error("unknown plane command", argc ? argv[0] : "");
}
