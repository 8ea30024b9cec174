// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink side of mrcctl: the socket, the lookup of the "mrc"
 * family and its events group, building a request, sending it and reading
 * its ACK, error or dump, and checking attributes against a table of
 * expected types.  A failure is kept in struct nl and printed once, with the
 * kernel's extended ACK message and the errno's name, by report_error().
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <linux/mrc.h>

#include "nl.h"

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

void report_error(int err, const char *msg)
{
	fprintf(stderr, "Error: %s (%s)\n", msg && *msg ? msg : strerror(err),
		errno_name(err));
}

char nl_buf[NL_BUF_SIZE];

int nl_fail(struct nl *nl, int err, const char *msg)
{
	nl->err = err;
	snprintf(nl->msg, sizeof(nl->msg), "%s", msg ? msg : "");
	return -1;
}

int nl_open(struct nl *nl)
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

void nl_close(struct nl *nl)
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

struct nlmsghdr *mrc_msg(struct nl *nl, __u8 cmd, __u16 flags)
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
int nl_talk(struct nl *nl, struct nlmsghdr *req, mnl_cb_t cb,
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
					       "objects changed during the dump, try again");
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

int parse_msg(struct nl *nl, const struct nlmsghdr *nlh,
	      const struct nlattr **tb, unsigned int max,
	      const enum mnl_attr_data_type *types)
{
	struct attr_table t = { tb, types, max, nl };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), attr_table_cb,
			      &t);
}

int parse_nest(struct nl *nl, const struct nlattr *nest,
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
		[CTRL_ATTR_MCAST_GROUPS] = MNL_TYPE_NESTED,
	};
	static const enum mnl_attr_data_type grp_types[CTRL_ATTR_MCAST_GRP_MAX + 1] = {
		[CTRL_ATTR_MCAST_GRP_NAME] = MNL_TYPE_NUL_STRING,
		[CTRL_ATTR_MCAST_GRP_ID] = MNL_TYPE_U32,
	};
	const struct nlattr *gtb[CTRL_ATTR_MCAST_GRP_MAX + 1];
	const struct nlattr *tb[CTRL_ATTR_MAX + 1];
	const struct nlattr *grp;
	struct nl *nl = data;

	if (parse_msg(nl, nlh, tb, CTRL_ATTR_MAX, types) < MNL_CB_OK)
		return MNL_CB_ERROR;
	if (!tb[CTRL_ATTR_FAMILY_ID]) {
		nl_fail(nl, EPROTO, "no family id in the controller's answer");
		return MNL_CB_ERROR;
	}
	nl->family = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (!tb[CTRL_ATTR_MCAST_GROUPS])
		return MNL_CB_OK;
	mnl_attr_for_each_nested(grp, tb[CTRL_ATTR_MCAST_GROUPS]) {
		if (parse_nest(nl, grp, gtb, CTRL_ATTR_MCAST_GRP_MAX,
			       grp_types) < MNL_CB_OK)
			return MNL_CB_ERROR;
		if (gtb[CTRL_ATTR_MCAST_GRP_NAME] && gtb[CTRL_ATTR_MCAST_GRP_ID] &&
		    !strcmp(mnl_attr_get_str(gtb[CTRL_ATTR_MCAST_GRP_NAME]),
			    MRC_GENL_MCGRP_EVENTS))
			nl->events_group = mnl_attr_get_u32(gtb[CTRL_ATTR_MCAST_GRP_ID]);
	}
	return MNL_CB_OK;
}

/* Asking the controller for "mrc" also makes the kernel load mrc.ko. */
int resolve_family(struct nl *nl)
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
