// SPDX-License-Identifier: GPL-2.0
/*
 * srv6 show: dumps the SRv6 table of one device or of all, and prints each
 * entry with its uSID template or its explicit paths, joining up an entry
 * that the kernel split over several dump messages.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/if.h>

#include "mrcctl.h"

/*
 * An entry with more explicit paths than fit one dump message comes in
 * several, each repeating the device, peer and locator: the path lines of
 * a continuation join the entry already printed (in JSON, its "paths"
 * array still open).
 */
struct srv6_show {
	struct nl *nl;
	bool opened;		/* JSON: the outer array started */
	bool in_entry;		/* JSON: an entry object is open */
	bool in_paths;		/* JSON: and its "paths" array */
	char dev[IFNAMSIZ];	/* the entry printed last */
	unsigned char peer[16];
	bool have_last;
};

static const enum mnl_attr_data_type srv6_types[MRC_A_SRV6_MAX + 1] = {
	[MRC_A_SRV6_PEER] = MNL_TYPE_BINARY,
	[MRC_A_SRV6_LOCATOR] = MNL_TYPE_U32,
	[MRC_A_SRV6_PLANE_SHIFT] = MNL_TYPE_U8,
	[MRC_A_SRV6_USIDS] = MNL_TYPE_NESTED,
	[MRC_A_SRV6_TIERS] = MNL_TYPE_NESTED,
	[MRC_A_SRV6_PATHS] = MNL_TYPE_NESTED,
	[MRC_A_SRV6_PATH_COUNT] = MNL_TYPE_U32,
};

static const enum mnl_attr_data_type srv6_tier_types[MRC_A_SRV6_TIER_MAX + 1] = {
	[MRC_A_SRV6_TIER_USID] = MNL_TYPE_U8,
	[MRC_A_SRV6_TIER_SHIFT] = MNL_TYPE_U8,
	[MRC_A_SRV6_TIER_COUNT] = MNL_TYPE_U16,
};

static const enum mnl_attr_data_type srv6_path_types[MRC_A_SRV6_PATH_MAX + 1] = {
	[MRC_A_SRV6_PATH_PLANE] = MNL_TYPE_U32,
	[MRC_A_SRV6_PATH_USIDS] = MNL_TYPE_NESTED,
};

/* A uSID list: "1001,2000" for people, an array of such strings in JSON. */
static int print_usids(struct nl *nl, const char *key,
		       const struct nlattr *list)
{
	const struct nlattr *a;
	char hex[8];
	bool first = true;

	if (json)
		j_open(key, '[');
	else
		printf(" %s ", key);
	mnl_attr_for_each_nested(a, list) {
		if (mnl_attr_get_type(a) != MRC_A_SRV6_USID)
			continue;
		if (mnl_attr_validate(a, MNL_TYPE_U16) < 0)
			return nl_fail(nl, EPROTO,
				       "malformed attribute from the kernel");
		snprintf(hex, sizeof(hex), "%x", mnl_attr_get_u16(a));
		if (json)
			j_str(NULL, hex);
		else
			printf("%s%s", first ? "" : ",", hex);
		first = false;
	}
	if (json)
		j_close(']');
	return 0;
}

static int print_tiers(struct nl *nl, const struct nlattr *list)
{
	const struct nlattr *tb[MRC_A_SRV6_TIER_MAX + 1];
	const struct nlattr *a;

	if (json)
		j_open("tiers", '[');
	mnl_attr_for_each_nested(a, list) {
		if (mnl_attr_get_type(a) != MRC_A_SRV6_TIER)
			continue;
		if (parse_nest(nl, a, tb, MRC_A_SRV6_TIER_MAX,
			       srv6_tier_types) < MNL_CB_OK)
			return -1;
		if (!tb[MRC_A_SRV6_TIER_USID] || !tb[MRC_A_SRV6_TIER_SHIFT] ||
		    !tb[MRC_A_SRV6_TIER_COUNT])
			return nl_fail(nl, EPROTO,
				       "incomplete tier from the kernel");
		if (json) {
			j_open(NULL, '{');
			j_uint("usid", mnl_attr_get_u8(tb[MRC_A_SRV6_TIER_USID]));
			j_uint("shift",
			       mnl_attr_get_u8(tb[MRC_A_SRV6_TIER_SHIFT]));
			j_uint("count",
			       mnl_attr_get_u16(tb[MRC_A_SRV6_TIER_COUNT]));
			j_close('}');
		} else {
			printf(" tier usid %u shift %u count %u",
			       mnl_attr_get_u8(tb[MRC_A_SRV6_TIER_USID]),
			       mnl_attr_get_u8(tb[MRC_A_SRV6_TIER_SHIFT]),
			       mnl_attr_get_u16(tb[MRC_A_SRV6_TIER_COUNT]));
		}
	}
	if (json)
		j_close(']');
	return 0;
}

static int print_paths(struct nl *nl, const struct nlattr *list)
{
	const struct nlattr *tb[MRC_A_SRV6_PATH_MAX + 1];
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, list) {
		if (mnl_attr_get_type(a) != MRC_A_SRV6_PATH)
			continue;
		if (parse_nest(nl, a, tb, MRC_A_SRV6_PATH_MAX,
			       srv6_path_types) < MNL_CB_OK)
			return -1;
		if (!tb[MRC_A_SRV6_PATH_PLANE] || !tb[MRC_A_SRV6_PATH_USIDS])
			return nl_fail(nl, EPROTO,
				       "incomplete path from the kernel");
		if (json) {
			j_open(NULL, '{');
			j_uint("plane",
			       mnl_attr_get_u32(tb[MRC_A_SRV6_PATH_PLANE]));
		} else {
			printf("    path plane %u",
			       mnl_attr_get_u32(tb[MRC_A_SRV6_PATH_PLANE]));
		}
		if (print_usids(nl, "usids", tb[MRC_A_SRV6_PATH_USIDS]) < 0)
			return -1;
		if (json)
			j_close('}');
		else
			putchar('\n');
	}
	return 0;
}

static void srv6_close_json(struct srv6_show *ss)
{
	if (ss->in_paths)
		j_close(']');
	if (ss->in_entry)
		j_close('}');
	ss->in_paths = false;
	ss->in_entry = false;
}

/* The head of an entry: device, peer, locator and the template if GEN. */
static int print_srv6_head(struct srv6_show *ss, const char *dev,
			   const struct nlattr **tb)
{
	__u32 loc = mnl_attr_get_u32(tb[MRC_A_SRV6_LOCATOR]);
	char peer[INET6_ADDRSTRLEN], locator[16];
	bool gen = tb[MRC_A_SRV6_USIDS];

	inet_ntop(AF_INET6, mnl_attr_get_payload(tb[MRC_A_SRV6_PEER]), peer,
		  sizeof(peer));
	snprintf(locator, sizeof(locator), "%x:%x", loc >> 16, loc & 0xffff);
	if (json) {
		j_open(NULL, '{');
		ss->in_entry = true;
		j_str("dev", dev);
		j_str("peer", peer);
		j_str("locator", locator);
		j_str("mode", gen ? "gen" : "exp");
	} else {
		printf("srv6 dev %s peer %s locator %s %s", dev, peer, locator,
		       gen ? "gen" : "exp");
	}
	if (!gen) {
		if (json) {
			j_open("paths", '[');
			ss->in_paths = true;
		} else {
			putchar('\n');
		}
		return 0;
	}
	if (print_usids(ss->nl, "usids", tb[MRC_A_SRV6_USIDS]) < 0)
		return -1;
	if (tb[MRC_A_SRV6_PLANE_SHIFT]) {
		if (json)
			j_uint("plane_shift",
			       mnl_attr_get_u8(tb[MRC_A_SRV6_PLANE_SHIFT]));
		else
			printf(" plane-shift %u",
			       mnl_attr_get_u8(tb[MRC_A_SRV6_PLANE_SHIFT]));
	}
	if (tb[MRC_A_SRV6_TIERS] && print_tiers(ss->nl, tb[MRC_A_SRV6_TIERS]))
		return -1;
	if (tb[MRC_A_SRV6_PATH_COUNT]) {
		if (json)
			j_uint("paths_per_plane",
			       mnl_attr_get_u32(tb[MRC_A_SRV6_PATH_COUNT]));
		else
			printf(" paths-per-plane %u",
			       mnl_attr_get_u32(tb[MRC_A_SRV6_PATH_COUNT]));
	}
	if (!json)
		putchar('\n');
	return 0;
}

static int srv6_cb(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type types[MRC_A_MAX + 1] = {
		[MRC_A_DEV_NAME] = MNL_TYPE_NUL_STRING,
		[MRC_A_SRV6] = MNL_TYPE_NESTED,
	};
	const struct nlattr *stb[MRC_A_SRV6_MAX + 1];
	const struct nlattr *tb[MRC_A_MAX + 1];
	struct srv6_show *ss = data;
	const unsigned char *peer;
	const char *dev;
	bool same;

	if (parse_msg(ss->nl, nlh, tb, MRC_A_MAX, types) < MNL_CB_OK ||
	    (tb[MRC_A_SRV6] && parse_nest(ss->nl, tb[MRC_A_SRV6], stb,
					  MRC_A_SRV6_MAX,
					  srv6_types) < MNL_CB_OK))
		return MNL_CB_ERROR;
	if (!tb[MRC_A_DEV_NAME] || !tb[MRC_A_SRV6] || !stb[MRC_A_SRV6_PEER] ||
	    !stb[MRC_A_SRV6_LOCATOR] ||
	    (!stb[MRC_A_SRV6_USIDS] && !stb[MRC_A_SRV6_PATHS])) {
		nl_fail(ss->nl, EPROTO, "incomplete SRv6 entry from the kernel");
		return MNL_CB_ERROR;
	}
	if (mnl_attr_get_payload_len(stb[MRC_A_SRV6_PEER]) != 16) {
		nl_fail(ss->nl, EPROTO, "malformed attribute from the kernel");
		return MNL_CB_ERROR;
	}
	dev = mnl_attr_get_str(tb[MRC_A_DEV_NAME]);
	peer = mnl_attr_get_payload(stb[MRC_A_SRV6_PEER]);
	same = ss->have_last && !stb[MRC_A_SRV6_USIDS] &&
	       !strcmp(ss->dev, dev) && !memcmp(ss->peer, peer, 16);

	if (json)
		j_list_item(&ss->opened);
	if (!same) {
		srv6_close_json(ss);
		if (print_srv6_head(ss, dev, stb) < 0)
			return MNL_CB_ERROR;
	}
	snprintf(ss->dev, sizeof(ss->dev), "%s", dev);
	memcpy(ss->peer, peer, 16);
	ss->have_last = true;
	if (stb[MRC_A_SRV6_PATHS] &&
	    print_paths(ss->nl, stb[MRC_A_SRV6_PATHS]) < 0)
		return MNL_CB_ERROR;
	return MNL_CB_OK;
}

/* srv6 show [dev D] */
int srv6_show(struct nl *nl, int argc, char **argv)
{
	struct srv6_show ss = { .nl = nl };
	struct nlmsghdr *nlh;
	int ret;

	if (argc && (argc != 2 || strcmp(argv[0], "dev")))
		usage_error("srv6 show takes only \"dev DEV\", got", argv[0]);
	nlh = mrc_msg(nl, MRC_CMD_SRV6_GET, NLM_F_DUMP);
	if (argc)
		mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, argv[1]);
	ret = nl_talk(nl, nlh, srv6_cb, &ss);
	if (json) {
		srv6_close_json(&ss);
		j_list_end(ss.opened, ret);
	}
	return ret;
}
