// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libmrc's netlink channel to mrc.ko's "mrc" generic netlink family:
 * one socket per context, one request at a time, the kernel's error
 * message (extack) dropped since the API has nowhere to put it but errno.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "internal.h"

/* The "events" group's id, from one CTRL_ATTR_MCAST_GROUPS entry. */
static void mrc_nl_group(const struct nlattr *grp, uint32_t *events)
{
	const struct nlattr *a, *name = NULL, *id = NULL;

	mnl_attr_for_each_nested(a, grp) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_NAME &&
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
			name = a;
		else if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID &&
			 mnl_attr_validate(a, MNL_TYPE_U32) == 0)
			id = a;
	}
	if (name && id && !strcmp(mnl_attr_get_str(name), MRC_GENL_MCGRP_EVENTS))
		*events = mnl_attr_get_u32(id);
}

static int mrc_nl_family_cb(const struct nlattr *attr, void *data)
{
	struct mrc_nl *nl = data;
	const struct nlattr *grp;

	switch (mnl_attr_get_type(attr)) {
	case CTRL_ATTR_FAMILY_ID:
		if (mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
			nl->family = mnl_attr_get_u16(attr);
		break;
	case CTRL_ATTR_MCAST_GROUPS:
		mnl_attr_for_each_nested(grp, attr)
			mrc_nl_group(grp, &nl->events_group);
		break;
	}
	return MNL_CB_OK;
}

static int mrc_nl_family_msg(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr),
			      mrc_nl_family_cb, data);
}

static struct nlmsghdr *mrc_nl_put(struct mrc_nl *nl, uint16_t type,
				   uint8_t cmd, uint8_t version)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;

	pthread_mutex_lock(&nl->lock);
	nlh = mnl_nlmsg_put_header(nl->buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++nl->seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = version;
	return nlh;
}

int mrc_nl_open(struct mrc_nl *nl)
{
	struct nlmsghdr *nlh;
	int one = 1, err;

	memset(nl, 0, sizeof(*nl));
	pthread_mutex_init(&nl->lock, NULL);
	nl->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sock) {
		err = errno;
		pthread_mutex_destroy(&nl->lock);
		return err;
	}
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = errno;
		mrc_nl_close(nl);
		return err;
	}
	nl->portid = mnl_socket_get_portid(nl->sock);
	/* Errors without our whole request echoed back. */
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	nl->seq = (unsigned int)getpid();

	nlh = mrc_nl_put(nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, MRC_GENL_NAME);
	err = mrc_nl_talk(nl, nlh, mrc_nl_family_msg, nl);
	if (!err && !nl->family)
		err = EPROTO;
	if (err) {
		mrc_nl_close(nl);
		/* No family: mrc.ko is not loaded, so no device is an mrc one. */
		return err == ENOENT ? ENODEV : err;
	}
	return 0;
}

void mrc_nl_close(struct mrc_nl *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
	nl->sock = NULL;
	pthread_mutex_destroy(&nl->lock);
}

struct nlmsghdr *mrc_nl_msg(struct mrc_nl *nl, uint8_t cmd)
{
	return mrc_nl_put(nl, nl->family, cmd, MRC_GENL_VERSION);
}

static int mrc_nl_recv(struct mrc_nl *nl, unsigned int seq, mnl_cb_t cb,
		       void *data)
{
	for (;;) {
		ssize_t len = mnl_socket_recvfrom(nl->sock, nl->buf,
						  sizeof(nl->buf));
		struct nlmsghdr *nlh = (struct nlmsghdr *)nl->buf;
		int rem;

		if (len < 0)
			return errno;
		rem = (int)len;
		for (; mnl_nlmsg_ok(nlh, rem); nlh = mnl_nlmsg_next(nlh, &rem)) {
			const struct nlmsgerr *e;

			if (nlh->nlmsg_seq != seq || nlh->nlmsg_pid != nl->portid)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e)))
					return EPROTO;
				e = mnl_nlmsg_get_payload(nlh);
				return -e->error;
			}
			if (nlh->nlmsg_type == NLMSG_DONE)
				return 0;
			if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
				continue;
			if (cb && cb(nlh, data) < 0)
				return EPROTO;
		}
	}
}

void mrc_nl_cancel(struct mrc_nl *nl)
{
	pthread_mutex_unlock(&nl->lock);
}

int mrc_nl_talk(struct mrc_nl *nl, struct nlmsghdr *req, mnl_cb_t cb,
		void *data)
{
	int err = 0;

	if (mnl_socket_sendto(nl->sock, req, req->nlmsg_len) < 0)
		err = errno;
	else
		err = mrc_nl_recv(nl, req->nlmsg_seq, cb, data);
	pthread_mutex_unlock(&nl->lock);
	return err;
}

struct mrc_nl_parse_arg {
	const struct nlattr **tb;
	unsigned int max;
	const enum mnl_attr_data_type *types;
};

static int mrc_nl_attr_cb(const struct nlattr *attr, void *data)
{
	const struct mrc_nl_parse_arg *a = data;
	unsigned int type = mnl_attr_get_type(attr);

	if (type > a->max)
		return MNL_CB_OK;	/* newer than us: not ours to read */
	if (a->types[type] != MNL_TYPE_UNSPEC &&
	    mnl_attr_validate(attr, a->types[type]) < 0)
		return MNL_CB_ERROR;
	a->tb[type] = attr;
	return MNL_CB_OK;
}

int mrc_nl_parse(const struct nlmsghdr *nlh, const struct nlattr *nest,
		 const struct nlattr **tb, unsigned int max,
		 const enum mnl_attr_data_type *types)
{
	struct mrc_nl_parse_arg a = { tb, max, types };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	if (nest)
		return mnl_attr_parse_nested(nest, mrc_nl_attr_cb, &a);
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), mrc_nl_attr_cb,
			      &a);
}
