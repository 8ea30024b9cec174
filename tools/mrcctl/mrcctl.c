// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl: show and configure mrc devices through the "mrc" generic netlink
 * family.  Human output is meant for reading and for exact matching in tests;
 * -j prints the same data as JSON.  Exit status: 0 success, 1 usage error,
 * 2 error reported by the kernel or the netlink socket.
 */

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/types.h>

#include <linux/mrc.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define EXIT_USAGE	1
#define EXIT_KERNEL	2

/* Large enough for any dump part the kernel builds for us. */
#define NL_BUF_SIZE	32768

static bool json;
static bool pretty;

/* ---- errors ---------------------------------------------------------- */

static const struct {
	int err;
	const char *name;
} errno_names[] = {
	{ EPERM, "EPERM" },		{ ENOENT, "ENOENT" },
	{ ESRCH, "ESRCH" },		{ EINTR, "EINTR" },
	{ EIO, "EIO" },			{ ENXIO, "ENXIO" },
	{ E2BIG, "E2BIG" },		{ EAGAIN, "EAGAIN" },
	{ ENOMEM, "ENOMEM" },		{ EACCES, "EACCES" },
	{ EFAULT, "EFAULT" },		{ EBUSY, "EBUSY" },
	{ EEXIST, "EEXIST" },		{ ENODEV, "ENODEV" },
	{ EINVAL, "EINVAL" },		{ ENFILE, "ENFILE" },
	{ EMFILE, "EMFILE" },		{ ENOSPC, "ENOSPC" },
	{ ERANGE, "ERANGE" },
	{ EPROTO, "EPROTO" },		{ EMSGSIZE, "EMSGSIZE" },
	{ EPROTONOSUPPORT, "EPROTONOSUPPORT" },
	{ EOPNOTSUPP, "EOPNOTSUPP" },	{ EAFNOSUPPORT, "EAFNOSUPPORT" },
	{ EADDRINUSE, "EADDRINUSE" },	{ ENOBUFS, "ENOBUFS" },
	{ ENOTCONN, "ENOTCONN" },	{ ETIMEDOUT, "ETIMEDOUT" },
	{ ECONNREFUSED, "ECONNREFUSED" },
	{ EALREADY, "EALREADY" },	{ EINPROGRESS, "EINPROGRESS" },
	{ ENOTRECOVERABLE, "ENOTRECOVERABLE" },
};

static const char *errno_name(int err)
{
	static char buf[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errno_names); i++)
		if (errno_names[i].err == err)
			return errno_names[i].name;
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

static void report_error(int err, const char *msg)
{
	fprintf(stderr, "Error: %s (%s)\n", msg && *msg ? msg : strerror(err),
		errno_name(err));
}

static void usage(FILE *f)
{
	fputs("Usage: mrcctl [OPTIONS] OBJECT COMMAND [ARGS]\n"
	      "       mrcctl [OPTIONS] version\n"
	      "       mrcctl [OPTIONS] dev show [NAME]\n"
	      "       mrcctl [OPTIONS] dev add NAME plane DEV [plane DEV ...]\n"
	      "       mrcctl [OPTIONS] dev del NAME\n"
	      "       mrcctl help\n"
	      "OPTIONS: -j, --json     print JSON\n"
	      "         -p, --pretty   print indented JSON (implies -j)\n"
	      "         -h, --help     print this help\n", f);
}

/* Never returns; the int lets callers end a function with it. */
static int usage_error(const char *msg, const char *arg)
{
	if (arg)
		fprintf(stderr, "mrcctl: %s \"%s\"\n", msg, arg);
	else
		fprintf(stderr, "mrcctl: %s\n", msg);
	usage(stderr);
	exit(EXIT_USAGE);
}

/* ---- JSON printer ---------------------------------------------------- */

/*
 * Just enough JSON for our output: nested objects and arrays of strings and
 * unsigned numbers.  first[] tracks, per depth, whether a comma is due.
 */
#define JSON_MAX_DEPTH 8

static int j_depth;
static bool j_first[JSON_MAX_DEPTH] = { true };

static void j_indent(int depth)
{
	int i;

	putchar('\n');
	for (i = 0; i < depth; i++)
		fputs("    ", stdout);
}

static void j_string(const char *s)
{
	const unsigned char *p;

	putchar('"');
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", stdout);
			break;
		case '\\':
			fputs("\\\\", stdout);
			break;
		case '\n':
			fputs("\\n", stdout);
			break;
		case '\t':
			fputs("\\t", stdout);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				printf("\\u%04x", *p);
			else
				putchar(*p);
		}
	}
	putchar('"');
}

/* Comma, line break and key that precede every value. */
static void j_key(const char *key)
{
	if (!j_first[j_depth])
		putchar(',');
	j_first[j_depth] = false;
	if (pretty && j_depth)
		j_indent(j_depth);
	if (key) {
		j_string(key);
		fputs(pretty ? ": " : ":", stdout);
	}
}

static void j_open(const char *key, char c)
{
	j_key(key);
	putchar(c);
	j_depth++;
	j_first[j_depth] = true;
}

static void j_close(char c)
{
	bool empty = j_first[j_depth];

	j_depth--;
	if (pretty && !empty)
		j_indent(j_depth);
	putchar(c);
	if (!j_depth)
		putchar('\n');
}

static void j_str(const char *key, const char *val)
{
	j_key(key);
	j_string(val);
}

static void j_uint(const char *key, __u64 val)
{
	j_key(key);
	printf("%llu", (unsigned long long)val);
}

/* ---- netlink --------------------------------------------------------- */

struct nl {
	struct mnl_socket *sock;
	unsigned int portid;
	unsigned int seq;
	__u16 family;
	int err;		/* positive errno of the last failure */
	char msg[256];		/* extack message of the last failure, or "" */
};

static char nl_buf[NL_BUF_SIZE];

static int nl_fail(struct nl *nl, int err, const char *msg)
{
	nl->err = err;
	snprintf(nl->msg, sizeof(nl->msg), "%s", msg ? msg : "");
	return -1;
}

static int nl_open(struct nl *nl)
{
	int one = 1;

	memset(nl, 0, sizeof(*nl));
	nl->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sock)
		return nl_fail(nl, errno, NULL);
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0)
		return nl_fail(nl, errno, NULL);
	nl->portid = mnl_socket_get_portid(nl->sock);
	/*
	 * Without these the kernel neither sends its error messages nor stops
	 * echoing our whole request back in every error.  Old kernels lack
	 * them; errors then come without a message.
	 */
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	nl->seq = (unsigned int)getpid();
	return 0;
}

static void nl_close(struct nl *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
}

static struct nlmsghdr *nl_msg(struct nl *nl, __u16 type, __u16 flags,
			       __u8 cmd, __u8 version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl_buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++nl->seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = version;
	return nlh;
}

static struct nlmsghdr *mrc_msg(struct nl *nl, __u8 cmd, __u16 flags)
{
	return nl_msg(nl, nl->family, flags, cmd, MRC_GENL_VERSION);
}

static int ext_ack_cb(const struct nlattr *attr, void *data)
{
	const char **msg = data;

	if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
		*msg = mnl_attr_get_str(attr);
	return MNL_CB_OK;
}

/* Returns 0 for an ACK, -1 (with nl->err set) for an error. */
static int nl_parse_error(struct nl *nl, const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	const char *msg = NULL;
	unsigned int off;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e)))
		return nl_fail(nl, EPROTO, "truncated netlink error");
	if (!e->error)
		return 0;

	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		/* TLVs follow the echoed request, or just its header. */
		off = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
		    e->msg.nlmsg_len > sizeof(struct nlmsghdr))
			off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
		if (mnl_nlmsg_size(off) <= nlh->nlmsg_len)
			mnl_attr_parse(nlh, off, ext_ack_cb, &msg);
	}
	return nl_fail(nl, -e->error, msg);
}

/* A dump ends with NLMSG_DONE, which carries the dump's error, if any. */
static int nl_parse_done(struct nl *nl, const struct nlmsghdr *nlh)
{
	const char *msg = NULL;
	int err;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(err))
		return 0;
	memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	if (!err)
		return 0;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
		mnl_attr_parse(nlh, sizeof(err), ext_ack_cb, &msg);
	return nl_fail(nl, -err, msg);
}

/*
 * Sends the request in nl_buf and reads answers until the ACK, the error or,
 * for dumps, NLMSG_DONE.  Every data message goes to @cb.
 */
static int nl_talk(struct nl *nl, struct nlmsghdr *req, mnl_cb_t cb,
		   void *data)
{
	bool dump = (req->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	unsigned int seq = req->nlmsg_seq;

	if (!dump)
		req->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(nl->sock, req, req->nlmsg_len) < 0)
		return nl_fail(nl, errno, NULL);

	for (;;) {
		ssize_t len = mnl_socket_recvfrom(nl->sock, nl_buf,
						  sizeof(nl_buf));
		struct nlmsghdr *nlh = (struct nlmsghdr *)nl_buf;
		int rem;

		if (len < 0)
			return nl_fail(nl, errno, NULL);
		rem = (int)len;
		for (; mnl_nlmsg_ok(nlh, rem); nlh = mnl_nlmsg_next(nlh, &rem)) {
			if (nlh->nlmsg_seq != seq || nlh->nlmsg_pid != nl->portid)
				continue;
			switch (nlh->nlmsg_type) {
			case NLMSG_NOOP:
				continue;
			case NLMSG_ERROR:
				return nl_parse_error(nl, nlh);
			case NLMSG_DONE:
				return nl_parse_done(nl, nlh);
			}
			if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
				return nl_fail(nl, EINTR,
					       "devices changed during the dump, try again");
			if (cb && cb(nlh, data) < MNL_CB_OK)
				return -1;
		}
	}
}

/* Attribute tables: expected type per attribute; unknown ones are skipped. */
struct attr_table {
	const struct nlattr **tb;
	const enum mnl_attr_data_type *types;
	unsigned int max;
	struct nl *nl;
};

static int attr_table_cb(const struct nlattr *attr, void *data)
{
	struct attr_table *t = data;
	__u16 type = mnl_attr_get_type(attr);

	/* Newer kernels may send attributes this mrcctl does not know. */
	if (type > t->max)
		return MNL_CB_OK;
	if (t->types[type] != MNL_TYPE_UNSPEC &&
	    mnl_attr_validate(attr, t->types[type]) < 0) {
		nl_fail(t->nl, EPROTO, "malformed attribute from the kernel");
		return MNL_CB_ERROR;
	}
	t->tb[type] = attr;
	return MNL_CB_OK;
}

static int parse_msg(struct nl *nl, const struct nlmsghdr *nlh,
		     const struct nlattr **tb, unsigned int max,
		     const enum mnl_attr_data_type *types)
{
	struct attr_table t = { tb, types, max, nl };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), attr_table_cb,
			      &t);
}

static int parse_nest(struct nl *nl, const struct nlattr *nest,
		      const struct nlattr **tb, unsigned int max,
		      const enum mnl_attr_data_type *types)
{
	struct attr_table t = { tb, types, max, nl };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	return mnl_attr_parse_nested(nest, attr_table_cb, &t);
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type types[CTRL_ATTR_MAX + 1] = {
		[CTRL_ATTR_FAMILY_ID] = MNL_TYPE_U16,
	};
	const struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct nl *nl = data;

	if (parse_msg(nl, nlh, tb, CTRL_ATTR_MAX, types) < MNL_CB_OK)
		return MNL_CB_ERROR;
	if (!tb[CTRL_ATTR_FAMILY_ID]) {
		nl_fail(nl, EPROTO, "no family id in the controller's answer");
		return MNL_CB_ERROR;
	}
	nl->family = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	return MNL_CB_OK;
}

/* Asking the controller for "mrc" also makes the kernel load mrc.ko. */
static int resolve_family(struct nl *nl)
{
	struct nlmsghdr *nlh;

	nlh = nl_msg(nl, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, MRC_GENL_NAME);
	if (nl_talk(nl, nlh, family_cb, nl) < 0) {
		if (nl->err == ENOENT)
			nl_fail(nl, ENOENT,
				"mrc generic netlink family not found (is mrc.ko loaded?)");
		return -1;
	}
	if (!nl->family)
		return nl_fail(nl, EPROTO, "family id not received");
	return 0;
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

/* ---- dev ------------------------------------------------------------- */

struct dev_show {
	struct nl *nl;
	bool opened;		/* JSON array started */
};

static const enum mnl_attr_data_type plane_types[MRC_A_PLANE_MAX + 1] = {
	[MRC_A_PLANE_INDEX] = MNL_TYPE_U32,
	[MRC_A_PLANE_IFINDEX] = MNL_TYPE_U32,
	[MRC_A_PLANE_IFNAME] = MNL_TYPE_NUL_STRING,
	[MRC_A_PLANE_STATE] = MNL_TYPE_U8,
};

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
		j_close('}');
	} else {
		printf("    plane %u netdev %s ifindex %u state %s\n",
		       mnl_attr_get_u32(tb[MRC_A_PLANE_INDEX]),
		       mnl_attr_get_str(tb[MRC_A_PLANE_IFNAME]),
		       mnl_attr_get_u32(tb[MRC_A_PLANE_IFINDEX]), state);
	}
	return 0;
}

static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type types[MRC_A_MAX + 1] = {
		[MRC_A_DEV_NAME] = MNL_TYPE_NUL_STRING,
		[MRC_A_DEV_INDEX] = MNL_TYPE_U32,
		[MRC_A_DEV_PLANES] = MNL_TYPE_NESTED,
	};
	const struct nlattr *tb[MRC_A_MAX + 1];
	struct dev_show *ds = data;
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
	mnl_attr_for_each_nested(plane, tb[MRC_A_DEV_PLANES])
		if (mnl_attr_get_type(plane) == MRC_A_PLANE)
			n++;

	if (json) {
		if (!ds->opened)
			j_open(NULL, '[');
		ds->opened = true;
		j_open(NULL, '{');
		j_str("name", name);
		j_open("planes", '[');
	} else {
		printf("dev %s planes %u\n", name, n);
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
	/* Keep stdout valid JSON even when the kernel stopped us midway. */
	if (json && (ds.opened || !ret)) {
		if (!ds.opened)
			j_open(NULL, '[');
		j_close(']');
	}
	return ret;
}

static int dev_add(struct nl *nl, int argc, char **argv)
{
	struct nlattr *planes, *plane;
	struct nlmsghdr *nlh;
	int i;

	if (argc < 1)
		usage_error("dev add needs a device name", NULL);
	if (argc < 3)
		usage_error("dev add needs at least one \"plane DEV\"", NULL);

	nlh = mrc_msg(nl, MRC_CMD_DEV_NEW, 0);
	mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, argv[0]);
	planes = mnl_attr_nest_start(nlh, MRC_A_DEV_PLANES);
	for (i = 1; i < argc; i += 2) {
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
	}
	mnl_attr_nest_end(nlh, planes);
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

static int cmd_dev(struct nl *nl, int argc, char **argv)
{
	if (!argc || !strcmp(argv[0], "show") || !strcmp(argv[0], "list"))
		return dev_show(nl, argc ? argc - 1 : 0, argv + 1);
	if (!strcmp(argv[0], "add"))
		return dev_add(nl, argc - 1, argv + 1);
	if (!strcmp(argv[0], "del") || !strcmp(argv[0], "delete"))
		return dev_del(nl, argc - 1, argv + 1);
	return usage_error("unknown dev command", argv[0]);
}

/* ---- main ------------------------------------------------------------ */

static const struct {
	const char *name;
	int (*run)(struct nl *nl, int argc, char **argv);
} objects[] = {
	{ "version", cmd_version },
	{ "dev", cmd_dev },
};

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int (*run)(struct nl *nl, int argc, char **argv) = NULL;
	struct nl nl;
	size_t i;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "+jph", opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'p':
			json = true;
			pretty = true;
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

	if (!argc)
		usage_error("missing object", NULL);
	if (!strcmp(argv[0], "help")) {
		usage(stdout);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(objects); i++)
		if (!strcmp(argv[0], objects[i].name))
			run = objects[i].run;
	if (!run)
		usage_error("unknown object", argv[0]);

	if (nl_open(&nl) < 0 || resolve_family(&nl) < 0) {
		report_error(nl.err, nl.msg);
		nl_close(&nl);
		return EXIT_KERNEL;
	}
	ret = run(&nl, argc - 1, argv + 1);
	if (ret < 0)
		report_error(nl.err, nl.msg);
	nl_close(&nl);
	return ret < 0 ? EXIT_KERNEL : 0;
}
