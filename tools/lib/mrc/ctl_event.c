// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * EV event queues: mrc_ctl_create_ev_event_cq() opens a socket in the mrc
 * family's "events" multicast group (CAP_NET_ADMIN, as the group asks);
 * mrc_ctl_poll_ev_event() takes the EV events of the context's device off
 * it, each naming the EV profile its QP's EV set was built from.  Losses
 * are counted: those of the QP's own ring (the kernel's dropped count) and
 * those of the socket (its drop counter, SO_MEMINFO), added to the next
 * event delivered.  Bound to a channel, the queue wakes it (cq.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/sock_diag.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "internal.h"

/*
 * The socket's drops since the last call (SK_MEMINFO_DROPS); 0 when the
 * counter cannot be read, which then leaves the last reading in place.
 */
static uint32_t mrc_evq_drops(struct mrc_evq *q)
{
	uint32_t mem[SK_MEMINFO_VARS] = { 0 }, d;
	socklen_t len = sizeof(mem);

	if (getsockopt(mnl_socket_get_fd(q->sock), SOL_SOCKET, SO_MEMINFO,
		       mem, &len) || len <= SK_MEMINFO_DROPS * sizeof(mem[0]))
		return 0;
	d = mem[SK_MEMINFO_DROPS] - q->drops_seen;
	q->drops_seen = mem[SK_MEMINFO_DROPS];
	return d;
}

MRC_EXPORT struct mrc_cq *
mrc_ctl_create_ev_event_cq(struct mrc_context *mrc_ctx, int cqe,
			   void *cq_context, struct mrc_comp_channel *channel,
			   int comp_vector)
{
	int group, size = 1 << 20, err;
	struct mrc_evq *q;
	struct mrc_cq *cq;

	(void)comp_vector;
	if (!mrc_ctx || cqe < 0 || (channel && channel->ctx != mrc_ctx)) {
		errno = EINVAL;
		return NULL;
	}
	if (!mrc_ctx->nl.events_group) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	q = calloc(1, sizeof(*q));
	if (!cq || !q)
		goto fail;
	q->sock = mnl_socket_open2(NETLINK_GENERIC, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (!q->sock || mnl_socket_bind(q->sock, 0, MNL_SOCKET_AUTOPID) < 0)
		goto fail;
	/* Room for bursts: a lost plane changes many EVs at once. */
	setsockopt(mnl_socket_get_fd(q->sock), SOL_SOCKET, SO_RCVBUF, &size,
		   sizeof(size));
	group = (int)mrc_ctx->nl.events_group;
	if (mnl_socket_setsockopt(q->sock, NETLINK_ADD_MEMBERSHIP, &group,
				  sizeof(group)) < 0)
		goto fail;		/* EPERM without CAP_NET_ADMIN */
	mrc_evq_drops(q);	/* from now on */
	if (channel) {
		/* Joins the epoll set at its first arm: unarmed, it wakes nobody. */
		pthread_mutex_lock(&mrc_ctx->lock);
		if (!channel->dying)
			channel->nevq++;
		else
			channel = NULL;
		pthread_mutex_unlock(&mrc_ctx->lock);
		if (!channel) {
			errno = EINVAL;
			goto fail;
		}
		q->channel = channel;
	}
	cq->ctx = mrc_ctx;
	cq->cq_context = cq_context;
	cq->evq = q;
	mrc_ctx_get(mrc_ctx);
	return cq;

fail:
	err = errno ?: ENOMEM;
	if (q && q->sock)
		mnl_socket_close(q->sock);
	free(q);
	free(cq);
	errno = err;
	return NULL;
}

void mrc_evq_destroy(struct mrc_cq *cq)
{
	struct mrc_evq *q = cq->evq;

	if (q->channel) {
		if (q->armed_once)
			epoll_ctl(q->channel->epfd, EPOLL_CTL_DEL,
				  mnl_socket_get_fd(q->sock), NULL);
		pthread_mutex_lock(&cq->ctx->lock);
		q->channel->nevq--;
		pthread_mutex_unlock(&cq->ctx->lock);
	}
	mnl_socket_close(q->sock);
	free(q);
}

/* One wake-up of the channel when events are there, as req_notify asks. */
int mrc_evq_arm(struct mrc_cq *cq)
{
	struct mrc_evq *q = cq->evq;
	struct epoll_event e = { .events = EPOLLIN | EPOLLONESHOT,
				 .data.ptr = cq };

	if (!q->channel)
		return EINVAL;
	if (epoll_ctl(q->channel->epfd, q->armed_once ? EPOLL_CTL_MOD :
		      EPOLL_CTL_ADD, mnl_socket_get_fd(q->sock), &e))
		return errno;
	q->armed_once = true;
	return 0;
}

/* Parses one EV_EVENT of @name's device into @ev; false for any other. */
static bool mrc_evq_parse(const struct nlmsghdr *nlh, const char *name,
			  struct mrc_ctl_ev_event *ev, uint32_t *dropped)
{
	static const enum mnl_attr_data_type top[MRC_A_MAX + 1] = {
		[MRC_A_DEV_NAME] = MNL_TYPE_NUL_STRING,
		[MRC_A_QP] = MNL_TYPE_NESTED,
	};
	static const enum mnl_attr_data_type qt[MRC_A_QP_MAX + 1] = {
		[MRC_A_QP_EVPROF_ID] = MNL_TYPE_U32,
		[MRC_A_QP_EVS] = MNL_TYPE_NESTED,
	};
	static const enum mnl_attr_data_type et[MRC_A_EV_MAX + 1] = {
		[MRC_A_EV_PLANE] = MNL_TYPE_U32,
		[MRC_A_EV_ENTROPY] = MNL_TYPE_U32,
		[MRC_A_EV_STATE] = MNL_TYPE_U8,
		[MRC_A_EV_FLOW_LABEL] = MNL_TYPE_U32,
		[MRC_A_EV_DROPPED] = MNL_TYPE_U32,
	};
	const struct nlattr *tb[MRC_A_MAX + 1], *qtb[MRC_A_QP_MAX + 1];
	const struct nlattr *etb[MRC_A_EV_MAX + 1], *e = NULL, *a;
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	uint64_t v;
	unsigned int i;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*g)) ||
	    g->cmd != MRC_CMD_EV_EVENT ||
	    mrc_nl_parse(nlh, NULL, tb, MRC_A_MAX, top) < 0 ||
	    !tb[MRC_A_DEV_NAME] || !tb[MRC_A_QP] ||
	    strcmp(mnl_attr_get_str(tb[MRC_A_DEV_NAME]), name) ||
	    mrc_nl_parse(NULL, tb[MRC_A_QP], qtb, MRC_A_QP_MAX, qt) < 0 ||
	    !qtb[MRC_A_QP_EVPROF_ID] || !qtb[MRC_A_QP_EVS])
		return false;
	mnl_attr_for_each_nested(a, qtb[MRC_A_QP_EVS])
		if (mnl_attr_get_type(a) == MRC_A_EV)
			e = a;
	if (!e || mrc_nl_parse(NULL, e, etb, MRC_A_EV_MAX, et) < 0 ||
	    !etb[MRC_A_EV_PLANE] || !etb[MRC_A_EV_ENTROPY] ||
	    !etb[MRC_A_EV_STATE])
		return false;

	*dropped += etb[MRC_A_EV_DROPPED] ?
		    mnl_attr_get_u32(etb[MRC_A_EV_DROPPED]) : 0;
	memset(ev, 0, sizeof(*ev));
	ev->profile_id = mnl_attr_get_u32(qtb[MRC_A_QP_EVPROF_ID]);
	/* The EV as an EXP entry of its format names it: see libmrc.md. */
	v = mnl_attr_get_u32(etb[MRC_A_EV_ENTROPY]);
	if (etb[MRC_A_EV_FLOW_LABEL])
		v |= (uint64_t)mnl_attr_get_u32(etb[MRC_A_EV_FLOW_LABEL]) << 16;
	for (i = 0; i < 8; i++)
		ev->ev.val[i] = (uint8_t)(v >> (8 * i));
	ev->ev.port = (uint8_t)(mnl_attr_get_u32(etb[MRC_A_EV_PLANE]) + 1);
	ev->state = mnl_attr_get_u8(etb[MRC_A_EV_STATE]) == MRC_EV_STATE_GOOD ?
		    MRC_CTL_EV_GOOD : MRC_CTL_EV_ASSUMED_BAD;
	return true;
}

MRC_EXPORT int mrc_ctl_poll_ev_event(struct mrc_cq *ev_cq, int num_entries,
				     struct mrc_ctl_ev_event *ev_event)
{
	struct mrc_evq *q;
	uint32_t dropped = 0;
	int n = 0;

	if (!ev_cq || !ev_cq->evq || num_entries < 0 ||
	    (num_entries && !ev_event))
		return -EINVAL;
	q = ev_cq->evq;
	while (n < num_entries) {
		ssize_t len = recv(mnl_socket_get_fd(q->sock), q->buf,
				   sizeof(q->buf), MSG_DONTWAIT);
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)q->buf;
		int rem;

		if (len < 0 && errno == EINTR)
			continue;
		if (len < 0 && errno == ENOBUFS)
			continue;	/* overrun: counted by the drop counter */
		if (len < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (len < 0)
			return n ? n : -errno;
		rem = (int)len;
		for (; mnl_nlmsg_ok(nlh, rem) && n < num_entries;
		     nlh = mnl_nlmsg_next(nlh, &rem)) {
			if (!mrc_evq_parse(nlh, ev_cq->ctx->name, &ev_event[n],
					   &dropped))
				continue;
			/* Losses since the last one delivered go with it. */
			ev_event[n].drop_count = dropped + mrc_evq_drops(q);
			dropped = 0;
			n++;
		}
	}
	return n;
}
