/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What libmrc's files share: the objects behind the API's opaque handles,
 * and the netlink channel (nl.c) to the "mrc" generic netlink family.
 */
#ifndef _LIBMRC_INTERNAL_H
#define _LIBMRC_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <libmnl/libmnl.h>

/*
 * The family's uapi header names its QP attribute enum mrc_qp_attr, the
 * OCP API a structure: the first is renamed here, where both are needed.
 */
#define mrc_qp_attr mrc_nl_qp_attr
#include <linux/mrc.h>
#undef mrc_qp_attr

#include <mrc_ctl.h>

#define MRC_EXPORT __attribute__((visibility("default")))

/* One request and its answers at a time; a context owns one. */
struct mrc_nl {
	pthread_mutex_t lock;
	struct mnl_socket *sock;
	unsigned int portid;
	unsigned int seq;
	uint16_t family;
	uint32_t events_group;		/* the family's "events" multicast group */
	char buf[32768];		/* as large as any answer of the family */
};

int mrc_nl_open(struct mrc_nl *nl);
void mrc_nl_close(struct mrc_nl *nl);
/* A request of @cmd on @nl->buf, under @nl->lock (mrc_nl_talk() drops it). */
struct nlmsghdr *mrc_nl_msg(struct mrc_nl *nl, uint8_t cmd);
/* Drops a request built by mrc_nl_msg() without sending it. */
void mrc_nl_cancel(struct mrc_nl *nl);
/* Sends it, hands each answer to @cb; returns 0 or a positive errno. */
int mrc_nl_talk(struct mrc_nl *nl, struct nlmsghdr *req, mnl_cb_t cb,
		void *data);
/* The attributes of an answer (or a nest), each checked against @types. */
int mrc_nl_parse(const struct nlmsghdr *nlh, const struct nlattr *nest,
		 const struct nlattr **tb, unsigned int max,
		 const enum mnl_attr_data_type *types);

struct mrc_context {
	struct ibv_context *vctx;
	char name[64];			/* the RDMA device's name */
	uint32_t api_version;
	uint32_t vendor_api_version;
	struct mrc_nl nl;
	pthread_mutex_t lock;		/* the counts below */
	unsigned int nhints;
	unsigned int nobjs;		/* CQs, channels and QPs still alive */
};

/*
 * The API's channel is an epoll set (its fd the one the API hands out): the
 * verbs channel, with a NULL tag, and the sockets of the EV event queues
 * bound to it, tagged with their mrc_cq, armed one-shot by req_notify.
 */
struct mrc_comp_channel {
	struct mrc_context *ctx;
	struct ibv_comp_channel *ch;
	int epfd;
	unsigned int nevq;		/* event queues bound, under ctx->lock */
	bool dying;			/* being destroyed, under ctx->lock */
};

/* An EV event queue: a socket in the family's "events" group. */
struct mrc_evq {
	struct mnl_socket *sock;
	struct mrc_comp_channel *channel;
	bool armed_once;		/* in the channel's epoll set */
	uint32_t drops_seen;		/* the socket's drop count, last read */
	char buf[8192];
};

struct mrc_cq {
	struct mrc_context *ctx;
	struct ibv_cq *cq;		/* NULL for an EV event queue */
	void *cq_context;
	struct mrc_evq *evq;		/* an EV event queue, else NULL */
};

struct mrc_qp_hint {
	struct mrc_context *ctx;
	struct mrc_qp_hint_attr attr;
	unsigned int users;		/* QPs naming it, under ctx->lock */
};

struct mrc_qp {
	struct mrc_context *ctx;
	struct ibv_qp *qp;
	struct mrc_qp_init_attr init;
	/* What the kernel does not keep: WIMM limits, hint, caps, vendor. */
	struct mrc_qp_attr attr;
};

/* What the device is, as the family and verbs report it. */
struct mrc_dev_info {
	unsigned int nplanes;
	uint32_t port_up;		/* bit N: port N (1-based) admin up */
	uint32_t max_qp_wr;
};

int mrc_dev_info(struct mrc_nl *nl, const char *name,
		 struct mrc_dev_info *info);
/* ctl_event.c: the EV event queues mrc_destroy_cq() and req_notify reach. */
void mrc_evq_destroy(struct mrc_cq *cq);
int mrc_evq_arm(struct mrc_cq *cq);
void mrc_put_versions(const uint32_t v[4], uint32_t *cur, uint32_t *last,
		      uint32_t *vcur, uint32_t *vlast);
void mrc_ctx_get(struct mrc_context *ctx);
void mrc_ctx_put(struct mrc_context *ctx);
/*
 * The API returns failures two ways, as the verbs call each entry point
 * mirrors does: mrc_err() gives the errno value back (and sets errno too),
 * mrc_fail() gives -1 with errno set.
 */
int mrc_err(int err);
int mrc_fail(int err);
bool mrc_vendor_cfg_empty(const uint8_t *cfg, size_t len);

#endif /* _LIBMRC_INTERNAL_H */
