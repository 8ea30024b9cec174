// SPDX-License-Identifier: GPL-2.0
/*
 * srv6 set and del: the SRv6 paths a device takes towards a peer, given as a
 * uSID template or as explicit paths per plane; and the srv6 commands'
 * dispatch.  srv6_show.c prints the table back.
 */

#include <arpa/inet.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "mrcctl.h"

/*
 * srv6 set builds the request as written: what only the kernel can judge
 * (a missing peer, a template and paths together, a zero or a thirteenth
 * uSID, tier and plane fields) reaches it, so that its message is the one
 * shown.  A locator is the 32-bit block written as the first two groups of
 * an IPv6 address ("fc00:0"); a uSID is one such hex group.
 */

static int hex_digit(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* 1 to 4 hex digits at @s into *@val; the end, or NULL without a digit. */
static const char *parse_group(const char *s, __u16 *val)
{
	const char *p = s;

	*val = 0;
	while (p - s < 4 && isxdigit((unsigned char)*p))
		*val = *val << 4 | hex_digit((unsigned char)*p++);
	return p == s ? NULL : p;
}

static __u32 parse_locator(const char *s)
{
	const char *p;
	__u16 hi, lo;

	p = parse_group(s, &hi);
	if (!p || *p != ':')
		usage_error("locator must be two hex groups like fc00:0, got", s);
	p = parse_group(p + 1, &lo);
	if (!p || *p)
		usage_error("locator must be two hex groups like fc00:0, got", s);
	return (__u32)hi << 16 | lo;
}

static void srv6_fits(bool ok)
{
	if (!ok)
		usage_error("SRv6 request too large for one message", NULL);
}

/* "1001,2000,...": a nest of MRC_A_SRV6_USID, in the order written. */
static void put_usids(struct nlmsghdr *nlh, __u16 type, const char *arg)
{
	const char *p = arg;
	struct nlattr *nest;
	__u16 usid;

	nest = mnl_attr_nest_start_check(nlh, sizeof(nl_buf), type);
	srv6_fits(nest);
	for (;;) {
		p = parse_group(p, &usid);
		if (!p || (*p && *p != ','))
			usage_error("uSIDs must be hex groups separated by commas, got",
				    arg);
		srv6_fits(mnl_attr_put_u16_check(nlh, sizeof(nl_buf),
						 MRC_A_SRV6_USID, usid));
		if (!*p++)
			break;
	}
	mnl_attr_nest_end(nlh, nest);
}

/* A number in a tier or path clause, at most @max. */
static unsigned long long parse_max_arg(const char *what, const char *s,
					unsigned long long max)
{
	unsigned long long v;

	if (!parse_u64(s, max, &v))
		usage_error(what, s);
	return v;
}

static const char *const tier_keys[] = { "usid", "shift", "count", NULL };
static const char *const path_keys[] = { "plane", "usids", NULL };

static int key_index(const char *const *keys, const char *word)
{
	int k;

	for (k = 0; keys[k]; k++)
		if (!strcmp(keys[k], word))
			return k;
	return -1;
}

/*
 * The end of the tier or path clause at argv[@i]: its "KEY VALUE" pairs,
 * each key at most once.  What follows belongs to the command again.
 */
static int clause_end(int argc, char **argv, int i, const char *const *keys)
{
	unsigned int seen = 0;
	int k;

	for (i++; i + 1 < argc; i += 2) {
		k = key_index(keys, argv[i]);
		if (k < 0 || seen & 1U << k)
			break;
		seen |= 1U << k;
	}
	return i;
}

/* One "KEY VALUE" of a tier or path clause; clause_end() knew the key. */
static void put_clause_pair(struct nlmsghdr *nlh, const char *key,
			    const char *v)
{
	bool ok;

	if (!strcmp(key, "usids")) {
		put_usids(nlh, MRC_A_SRV6_PATH_USIDS, v);
		return;
	}
	if (!strcmp(key, "usid"))
		ok = mnl_attr_put_u8_check(nlh, sizeof(nl_buf),
					   MRC_A_SRV6_TIER_USID,
					   parse_max_arg("invalid tier uSID index",
							 v, UINT8_MAX));
	else if (!strcmp(key, "shift"))
		ok = mnl_attr_put_u8_check(nlh, sizeof(nl_buf),
					   MRC_A_SRV6_TIER_SHIFT,
					   parse_max_arg("invalid tier shift",
							 v, UINT8_MAX));
	else if (!strcmp(key, "count"))
		ok = mnl_attr_put_u16_check(nlh, sizeof(nl_buf),
					    MRC_A_SRV6_TIER_COUNT,
					    parse_max_arg("invalid tier count",
							  v, UINT16_MAX));
	else
		ok = mnl_attr_put_u32_check(nlh, sizeof(nl_buf),
					    MRC_A_SRV6_PATH_PLANE,
					    parse_max_arg("invalid plane", v,
							  UINT32_MAX));
	srv6_fits(ok);
}

static const char *const *clause_keys(const char *word)
{
	if (!strcmp(word, "tier"))
		return tier_keys;
	if (!strcmp(word, "path"))
		return path_keys;
	return NULL;
}

/* The "tier" clauses as MRC_A_SRV6_TIERS, or the "path" ones as _PATHS. */
static void put_clauses(struct nlmsghdr *nlh, int argc, char **argv,
			const char *word)
{
	bool tier = !strcmp(word, "tier");
	struct nlattr *list, *item;
	const char *const *keys;
	int i, j, end;

	list = mnl_attr_nest_start_check(nlh, sizeof(nl_buf),
					 tier ? MRC_A_SRV6_TIERS :
						MRC_A_SRV6_PATHS);
	srv6_fits(list);
	for (i = 0; i < argc; i = end) {
		keys = clause_keys(argv[i]);
		if (!keys) {
			end = i + 2;
			continue;
		}
		end = clause_end(argc, argv, i, keys);
		if (strcmp(argv[i], word))
			continue;
		item = mnl_attr_nest_start_check(nlh, sizeof(nl_buf),
						 tier ? MRC_A_SRV6_TIER :
							MRC_A_SRV6_PATH);
		srv6_fits(item);
		for (j = i + 1; j < end; j += 2)
			put_clause_pair(nlh, argv[j], argv[j + 1]);
		mnl_attr_nest_end(nlh, item);
	}
	mnl_attr_nest_end(nlh, list);
}

/* "peer ADDR": an IPv6 address, as QPs name their destination. */
static void put_peer(struct nlmsghdr *nlh, const char *s)
{
	struct in6_addr a;

	if (inet_pton(AF_INET6, s, &a) != 1)
		usage_error("peer must be an IPv6 address, got", s);
	mnl_attr_put(nlh, MRC_A_SRV6_PEER, sizeof(a), &a);
}

/*
 * srv6 set dev D peer ADDR locator LOC { usids LIST [plane-shift N]
 * [tier usid I shift S count C]... | path plane P usids LIST [path ...] }
 */
static int srv6_set(struct nl *nl, int argc, char **argv)
{
	const char *dev = NULL, *peer = NULL, *locator = NULL, *usids = NULL;
	const char *shift = NULL;
	bool tiers = false, paths = false;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	const char **dst;
	int i;

	for (i = 0; i < argc;) {
		if (clause_keys(argv[i])) {
			tiers |= !strcmp(argv[i], "tier");
			paths |= !strcmp(argv[i], "path");
			i = clause_end(argc, argv, i, clause_keys(argv[i]));
			continue;
		}
		if (!strcmp(argv[i], "dev"))
			dst = &dev;
		else if (!strcmp(argv[i], "peer"))
			dst = &peer;
		else if (!strcmp(argv[i], "locator"))
			dst = &locator;
		else if (!strcmp(argv[i], "usids"))
			dst = &usids;
		else if (!strcmp(argv[i], "plane-shift"))
			dst = &shift;
		else
			usage_error("unknown srv6 parameter", argv[i]);
		if (i + 1 >= argc)
			usage_error("missing value for", argv[i]);
		*dst = argv[i + 1];
		i += 2;
	}

	nlh = mrc_msg(nl, MRC_CMD_SRV6_SET, 0);
	if (dev)
		mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, dev);
	nest = mnl_attr_nest_start(nlh, MRC_A_SRV6);
	if (peer)
		put_peer(nlh, peer);
	if (locator)
		mnl_attr_put_u32(nlh, MRC_A_SRV6_LOCATOR,
				 parse_locator(locator));
	if (usids)
		put_usids(nlh, MRC_A_SRV6_USIDS, usids);
	if (shift)
		mnl_attr_put_u8(nlh, MRC_A_SRV6_PLANE_SHIFT,
				parse_max_arg("invalid plane shift", shift,
					      UINT8_MAX));
	if (tiers)
		put_clauses(nlh, argc, argv, "tier");
	if (paths)
		put_clauses(nlh, argc, argv, "path");
	mnl_attr_nest_end(nlh, nest);
	return nl_talk(nl, nlh, NULL, NULL);
}

/* srv6 del dev D peer ADDR */
static int srv6_del(struct nl *nl, int argc, char **argv)
{
	const char *dev = NULL, *peer = NULL;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int i;

	for (i = 0; i < argc; i += 2) {
		if (i + 1 >= argc)
			usage_error("missing value for", argv[i]);
		if (!strcmp(argv[i], "dev"))
			dev = argv[i + 1];
		else if (!strcmp(argv[i], "peer"))
			peer = argv[i + 1];
		else
			usage_error("unknown srv6 parameter", argv[i]);
	}
	nlh = mrc_msg(nl, MRC_CMD_SRV6_DEL, 0);
	if (dev)
		mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, dev);
	nest = mnl_attr_nest_start(nlh, MRC_A_SRV6);
	if (peer)
		put_peer(nlh, peer);
	mnl_attr_nest_end(nlh, nest);
	return nl_talk(nl, nlh, NULL, NULL);
}

int cmd_srv6(struct nl *nl, int argc, char **argv)
{
	if (!argc || !strcmp(argv[0], "show") || !strcmp(argv[0], "list"))
		return srv6_show(nl, argc ? argc - 1 : 0, argv + 1);
	if (!strcmp(argv[0], "set"))
		return srv6_set(nl, argc - 1, argv + 1);
	if (!strcmp(argv[0], "del") || !strcmp(argv[0], "delete"))
		return srv6_del(nl, argc - 1, argv + 1);
	return usage_error("unknown srv6 command", argv[0]);
}
