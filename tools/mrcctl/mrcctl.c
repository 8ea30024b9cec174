// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl: show and configure mrc devices through the "mrc" generic netlink
 * family.  Human output is meant for reading and for exact matching in tests;
 * -j prints the same data as JSON.  Exit status: 0 success, 1 usage error,
 * 2 error reported by the kernel or the netlink socket.
 */

#define _GNU_SOURCE	/* setns() */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/if.h>
#include <linux/netlink.h>
#include <linux/types.h>

#include <linux/mrc.h>

#include "mrcctl.h"

#define EXIT_USAGE	1
#define EXIT_KERNEL	2

/* ---- errors ---------------------------------------------------------- */

static void usage(FILE *f)
{
	fputs("Usage: mrcctl [OPTIONS] OBJECT COMMAND [ARGS]\n"
	      "       mrcctl [OPTIONS] -b FILE\n"
	      "       mrcctl [OPTIONS] version\n"
	      "       mrcctl [OPTIONS] dev show [NAME]\n"
	      "       mrcctl [OPTIONS] dev add NAME plane DEV [plane DEV ...] [ DEVPROF ]\n"
	      "       mrcctl [OPTIONS] dev set NAME DEVPROF\n"
	      "       mrcctl [OPTIONS] dev del NAME\n"
	      "       mrcctl [OPTIONS] evprofile show [ID]\n"
	      "       mrcctl [OPTIONS] evprofile { add | set } ID [ EVPARAM VALUE ... ]\n"
	      "       mrcctl [OPTIONS] evprofile del ID\n"
	      "       mrcctl [OPTIONS] ccprofile show [ID]\n"
	      "       mrcctl [OPTIONS] ccprofile { add | set } ID [ CCPARAM VALUE ... ]\n"
	      "       mrcctl [OPTIONS] ccprofile del ID\n"
	      "       mrcctl [OPTIONS] monitor [count N]\n"
	      "       mrcctl [OPTIONS] qp show [dev DEV [qpn N]]\n"
	      "       mrcctl [OPTIONS] qp set dev DEV qpn N [evprofile ID|none]\n"
	      "              [ccprofile ID|none] [mpr N] [mpr-dest N] [timeout N]\n"
	      "              [retry-linear N] [retry-exp N|infinite]\n"
	      "       mrcctl [OPTIONS] ev set dev DEV qpn N slot S { deny | undeny }\n"
	      "                        [slot S { deny | undeny } ...]\n"
	      "       mrcctl [OPTIONS] probe dev DEV qpn N slot S [timeout MS]\n"
	      "       mrcctl [OPTIONS] plane set dev NAME plane N admin { up | down }\n"
	      "       mrcctl [OPTIONS] srv6 show [dev NAME]\n"
	      "       mrcctl [OPTIONS] srv6 set dev NAME peer ADDR locator LOC SRV6PATHS\n"
	      "       mrcctl [OPTIONS] srv6 del dev NAME peer ADDR\n"
	      "       mrcctl help\n"
	      "OPTIONS: -j, --json     print JSON\n"
	      "         -p, --pretty   print indented JSON (implies -j)\n"
	      "         -b, --batch FILE  run the commands in FILE (- for stdin),\n"
	      "                        one per line\n"
	      "         -n, --netns NAME  run in network namespace NAME (as ip -n)\n"
	      "         -h, --help     print this help\n"
	      "EVPARAM: state { online | offline } | mode { auto | exp | gen } |\n"
	      "         format { udp | stev | srv6 } | evs N | min-active N |\n"
	      "         backups N | events { EVENT[,EVENT...] | all | none } |\n"
	      "         entries { EV[,EV...] | none }\n"
	      "EVENT:   good | assumed-bad\n"
	      "DEVPROF: [ evprofile { ID | none } ] [ ccprofile { ID | none } ]\n"
	      "CCPARAM: state { online | offline } | algo nscc | base-rtt-us N |\n"
	      "         target-delay-us N | qa-threshold-us N | min-cwnd N |\n"
	      "         max-cwnd N | gamma N | max-md-jump N | eta N | fi N\n"
	      "SRV6PATHS: usids USIDS [plane-shift N] [tier usid I shift S count C]...\n"
	      "         | path plane P usids USIDS [path plane P usids USIDS]...\n"
	      "LOC:     the 32-bit locator block as two hex groups, e.g. fc00:0\n"
	      "USIDS:   hex uSIDs, first hop first, e.g. 1001,2000,1002\n", f);
}

/* Never returns; the int lets callers end a function with it. */
int usage_error(const char *msg, const char *arg)
{
	if (arg)
		fprintf(stderr, "mrcctl: %s \"%s\"\n", msg, arg);
	else
		fprintf(stderr, "mrcctl: %s\n", msg);
	usage(stderr);
	exit(EXIT_USAGE);
}

/* Whole-string unsigned number, decimal or 0x hex; range left to the kernel. */
bool parse_u64(const char *s, unsigned long long max,
	       unsigned long long *val)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	*val = strtoull(s, &end, 0);
	return !errno && !*end && *val <= max;
}

__u32 parse_u32_arg(const char *what, const char *s)
{
	unsigned long long v;

	if (!parse_u64(s, UINT32_MAX, &v))
		usage_error(what, s);
	return (__u32)v;
}

/* ---- version --------------------------------------------------------- */

static int version_cb(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type types[MRC_A_MAX + 1] = {
		[MRC_A_VERSION_MODULE] = MNL_TYPE_NUL_STRING,
		[MRC_A_VERSION_GENL] = MNL_TYPE_U32,
		[MRC_A_UDP_PORT] = MNL_TYPE_U16,
		[MRC_A_MAX_PLANES] = MNL_TYPE_U32,
		[MRC_A_MAX_EVS] = MNL_TYPE_U32,
	};
	const struct nlattr *tb[MRC_A_MAX + 1];
	struct nl *nl = data;
	const char *module;
	__u32 genl, planes, evs;
	__u16 port;

	if (parse_msg(nl, nlh, tb, MRC_A_MAX, types) < MNL_CB_OK)
		return MNL_CB_ERROR;
	if (!tb[MRC_A_VERSION_MODULE] || !tb[MRC_A_VERSION_GENL] ||
	    !tb[MRC_A_UDP_PORT] || !tb[MRC_A_MAX_PLANES] || !tb[MRC_A_MAX_EVS]) {
		nl_fail(nl, EPROTO, "incomplete version reply from the kernel");
		return MNL_CB_ERROR;
	}
	module = mnl_attr_get_str(tb[MRC_A_VERSION_MODULE]);
	genl = mnl_attr_get_u32(tb[MRC_A_VERSION_GENL]);
	port = mnl_attr_get_u16(tb[MRC_A_UDP_PORT]);
	planes = mnl_attr_get_u32(tb[MRC_A_MAX_PLANES]);
	evs = mnl_attr_get_u32(tb[MRC_A_MAX_EVS]);

	if (json) {
		j_open(NULL, '{');
		j_str("module_version", module);
		j_uint("genl_version", genl);
		j_uint("udp_port", port);
		j_uint("max_planes", planes);
		j_uint("max_evs", evs);
		j_close('}');
	} else {
		printf("mrc %s genl-version %u udp-port %u max-planes %u max-evs %u\n",
		       module, genl, port, planes, evs);
	}
	return MNL_CB_OK;
}

static int cmd_version(struct nl *nl, int argc, char **argv)
{
	(void)argv;
	if (argc)
		usage_error("version takes no arguments", NULL);
	return nl_talk(nl, mrc_msg(nl, MRC_CMD_VERSION_GET, 0), version_cb, nl);
}

/* ---- srv6 ------------------------------------------------------------ */

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
static int srv6_show(struct nl *nl, int argc, char **argv)
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

static int cmd_srv6(struct nl *nl, int argc, char **argv)
{
	if (!argc || !strcmp(argv[0], "show") || !strcmp(argv[0], "list"))
		return srv6_show(nl, argc ? argc - 1 : 0, argv + 1);
	if (!strcmp(argv[0], "set"))
		return srv6_set(nl, argc - 1, argv + 1);
	if (!strcmp(argv[0], "del") || !strcmp(argv[0], "delete"))
		return srv6_del(nl, argc - 1, argv + 1);
	return usage_error("unknown srv6 command", argv[0]);
}

/* ---- main ------------------------------------------------------------ */

static const struct {
	const char *name;
	int (*run)(struct nl *nl, int argc, char **argv);
} objects[] = {
	{ "version", cmd_version },
	{ "dev", cmd_dev },
	{ "evprofile", cmd_evprofile },
	{ "ccprofile", cmd_ccprofile },
	{ "monitor", cmd_monitor },
	{ "qp", cmd_qp },
	{ "ev", cmd_ev },
	{ "probe", cmd_probe },
	{ "plane", cmd_plane },
	{ "srv6", cmd_srv6 },
};

typedef int (*object_fn)(struct nl *nl, int argc, char **argv);

static object_fn find_object(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(objects); i++)
		if (!strcmp(name, objects[i].name))
			return objects[i].run;
	usage_error("unknown object", name);
	return NULL;
}

/*
 * -b FILE: one "OBJECT COMMAND [ARGS]" per line, words split on blanks, empty
 * lines and lines starting with '#' skipped, all over one netlink socket.
 * The first failing line ends the batch.
 */
#define BATCH_MAX_ARGS 64

static int run_batch(struct nl *nl, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	unsigned long lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	if (!f) {
		nl_fail(nl, errno, "cannot open the batch file");
		return -1;
	}
	while (!ret && getline(&line, &cap, f) >= 0) {
		char *args[BATCH_MAX_ARGS], *tok, *save;
		object_fn run;
		int n = 0;

		lineno++;
		for (tok = strtok_r(line, " \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save)) {
			if (n == BATCH_MAX_ARGS)
				usage_error("too many words on a batch line", NULL);
			args[n++] = tok;
		}
		if (!n || args[0][0] == '#')
			continue;
		run = find_object(args[0]);
		ret = run(nl, n - 1, args + 1);
		if (ret < 0)
			fprintf(stderr, "mrcctl: batch line %lu failed\n", lineno);
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return ret;
}

/*
 * -n NAME: the generic netlink socket belongs to the namespace it is opened in, so
 * entering NAME first is all "ip netns exec NAME mrcctl" did that mrcctl needs, without
 * the extra exec, mount namespace and sysfs remount (seconds per call under a debug
 * kernel in the tests). A NAME with a slash is a path (/proc/PID/ns/net).
 */
static int enter_netns(const char *name)
{
	char path[PATH_MAX];
	int fd, err;

	if (strchr(name, '/'))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET) < 0) {
		err = errno;
		fprintf(stderr, "mrcctl: cannot enter network namespace %s: %s\n",
			name, strerror(err));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "batch", required_argument, NULL, 'b' },
		{ "netns", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *batch = NULL, *netns = NULL;
	object_fn run = NULL;
	struct nl nl;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "+jpb:n:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'p':
			json = true;
			pretty = true;
			break;
		case 'b':
			batch = optarg;
			break;
		case 'n':
			netns = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;

	if (batch) {
		if (argc)
			usage_error("unexpected argument after -b", argv[0]);
	} else {
		if (!argc)
			usage_error("missing object", NULL);
		if (!strcmp(argv[0], "help")) {
			usage(stdout);
			return 0;
		}
		run = find_object(argv[0]);
	}

	if (netns && enter_netns(netns) < 0)
		return EXIT_KERNEL;
	if (nl_open(&nl) < 0 || resolve_family(&nl) < 0) {
		report_error(nl.err, nl.msg);
		nl_close(&nl);
		return EXIT_KERNEL;
	}
	ret = batch ? run_batch(&nl, batch) : run(&nl, argc - 1, argv + 1);
	if (ret < 0)
		report_error(nl.err, nl.msg);
	nl_close(&nl);
	return ret < 0 ? EXIT_KERNEL : 0;
}
