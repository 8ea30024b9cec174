/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The netlink layer of mrcctl (nl.c): the socket and family, requests and
 * their answers, attribute checks, and error reports.  It knows nothing of
 * the commands above it and includes none of mrcctl's other headers.
 */
#ifndef _MRCCTL_NL_H
#define _MRCCTL_NL_H

#include <libmnl/libmnl.h>
#include <linux/types.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct nl {
	struct mnl_socket *sock;
	unsigned int portid;
	unsigned int seq;
	__u16 family;
	__u32 events_group;	/* multicast group id of "events", 0 if none */
	int err;		/* positive errno of the last failure */
	char msg[256];		/* extack message of the last failure, or "" */
};

/* Large enough for any dump part the kernel builds for us. */
#define NL_BUF_SIZE	32768

/* Requests are built in it and answers read into it. */
extern char nl_buf[NL_BUF_SIZE];

void report_error(int err, const char *msg);
int nl_fail(struct nl *nl, int err, const char *msg);
int nl_open(struct nl *nl);
void nl_close(struct nl *nl);
struct nlmsghdr *mrc_msg(struct nl *nl, __u8 cmd, __u16 flags);
int nl_talk(struct nl *nl, struct nlmsghdr *req, mnl_cb_t cb, void *data);
int parse_msg(struct nl *nl, const struct nlmsghdr *nlh,
	      const struct nlattr **tb, unsigned int max,
	      const enum mnl_attr_data_type *types);
int parse_nest(struct nl *nl, const struct nlattr *nest,
	       const struct nlattr **tb, unsigned int max,
	       const enum mnl_attr_data_type *types);
int resolve_family(struct nl *nl);

#endif /* _MRCCTL_NL_H */
