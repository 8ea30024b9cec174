// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl: show and configure mrc devices through the "mrc" generic netlink
 * family.  Human output is meant for reading and for exact matching in tests;
 * -j prints the same data as JSON.  Exit status: 0 success, 1 usage error,
 * 2 error reported by the kernel or the netlink socket.  This file holds
 * main(): the global options, batch mode, the table of objects and the usage
 * text, with the argument helpers all objects use; each object's commands
 * are in a file of their own, declared in mrcctl.h.
 */

#define _GNU_SOURCE	/* setns() */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mrcctl.h"

#define EXIT_USAGE	1
#define EXIT_KERNEL	2

static void usage(FILE *f)
{
	fputs("Usage: mrcctl [OPTIONS] OBJECT COMMAND [ARGS]\n"
	      "       mrcctl [OPTIONS] -b FILE\n"
	      "       mrcctl [OPTIONS] version\n"
	      "       mrcctl [OPTIONS] dev show [NAME]\n"
	      "       mrcctl [OPTIONS] dev add NAME plane DEV [plane DEV ...] [ DEVPROF ]\n"
	      "       mrcctl [OPTIONS] dev set NAME DEVPROF\n"
	      "       mrcctl [OPTIONS] dev del NAME\n"
	      "       mrcctl [OPTIONS] evformat show [ID]\n"
	      "       mrcctl [OPTIONS] evformat { add | set } ID [ FMTPARAM VALUE ... ]\n"
	      "       mrcctl [OPTIONS] evformat del ID\n"
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
	      "         entries { EV[,EV...] | none } | evformat { ID | none }\n"
	      "FMTPARAM: state { online | offline } | format { udp | stev | srv6 } |\n"
	      "         fields BITS[,BITS...]\n"
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

static const struct {
	const char *name;
	int (*run)(struct nl *nl, int argc, char **argv);
} objects[] = {
	{ "version", cmd_version },
	{ "dev", cmd_dev },
	{ "evformat", cmd_evformat },
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
