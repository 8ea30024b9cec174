// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completion channels and CQs: thin wrappers over their verbs objects, so
 * that a completion event hands back the API's CQ and its user context.
 * A channel is an epoll set holding the verbs channel and the EV event
 * queues bound to it (ctl_event.c), so that one fd wakes its owner for
 * both; a CQ that is an EV event queue has no verbs CQ.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/epoll.h>

#include "internal.h"

MRC_EXPORT int mrc_create_comp_channel(struct mrc_context *mrc_ctx,
				       struct mrc_comp_channel **channel)
{
	struct epoll_event e = { .events = EPOLLIN, .data.ptr = NULL };
	struct mrc_comp_channel *ch;
	int err;

	if (!mrc_ctx || !channel)
		return mrc_fail(EINVAL);
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return mrc_fail(ENOMEM);
	ch->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (ch->epfd < 0) {
		err = errno;
		free(ch);
		return mrc_fail(err);
	}
	ch->ch = ibv_create_comp_channel(mrc_ctx->vctx);
	if (!ch->ch || epoll_ctl(ch->epfd, EPOLL_CTL_ADD, ch->ch->fd, &e)) {
		err = errno ?: ENOMEM;
		if (ch->ch)
			ibv_destroy_comp_channel(ch->ch);
		close(ch->epfd);
		free(ch);
		return mrc_fail(err);
	}
	ch->ctx = mrc_ctx;
	mrc_ctx_get(mrc_ctx);
	*channel = ch;
	return 0;
}

MRC_EXPORT int mrc_get_comp_channel_fd(struct mrc_comp_channel *channel,
				       int *fd)
{
	if (!channel || !fd) {
		errno = EINVAL;
		return -1;
	}
	*fd = channel->epfd;
	return 0;
}

MRC_EXPORT int mrc_destroy_comp_channel(struct mrc_comp_channel *channel)
{
	bool busy;
	int ret;

	if (!channel)
		return mrc_err(EINVAL);
	/* No event queue may bind to it from here on (ctl_event.c). */
	pthread_mutex_lock(&channel->ctx->lock);
	busy = channel->nevq;
	channel->dying = !busy;
	pthread_mutex_unlock(&channel->ctx->lock);
	if (busy)
		return mrc_err(EBUSY);
	ret = ibv_destroy_comp_channel(channel->ch);
	if (ret) {
		pthread_mutex_lock(&channel->ctx->lock);
		channel->dying = false;
		pthread_mutex_unlock(&channel->ctx->lock);
		return mrc_err(ret);
	}
	close(channel->epfd);
	mrc_ctx_put(channel->ctx);
	free(channel);
	return 0;
}

MRC_EXPORT struct mrc_cq *mrc_create_cq(struct mrc_context *mrc_ctx, int cqe,
					void *cq_context,
					struct mrc_comp_channel *channel,
					int comp_vector)
{
	struct mrc_cq *cq;

	if (!mrc_ctx || (channel && channel->ctx != mrc_ctx)) {
		errno = EINVAL;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return NULL;
	/* The verbs CQ's context is ours: events and async errors name it. */
	cq->cq = ibv_create_cq(mrc_ctx->vctx, cqe, cq,
			       channel ? channel->ch : NULL, comp_vector);
	if (!cq->cq) {
		int err = errno ?: ENOMEM;

		free(cq);
		errno = err;
		return NULL;
	}
	cq->ctx = mrc_ctx;
	cq->cq_context = cq_context;
	mrc_ctx_get(mrc_ctx);
	return cq;
}

MRC_EXPORT int mrc_poll_cq(struct mrc_cq *cq, int num_entries,
			   struct ibv_wc *wc)
{
	if (!cq || cq->evq || num_entries < 0) {
		errno = EINVAL;
		return -1;
	}
	return ibv_poll_cq(cq->cq, num_entries, wc);
}

MRC_EXPORT int mrc_destroy_cq(struct mrc_cq *cq)
{
	int ret;

	if (!cq)
		return mrc_err(EINVAL);
	if (cq->evq) {
		mrc_evq_destroy(cq);
	} else {
		ret = ibv_destroy_cq(cq->cq);
		if (ret)
			return mrc_err(ret);
	}
	mrc_ctx_put(cq->ctx);
	free(cq);
	return 0;
}

MRC_EXPORT int mrc_req_notify_cq(struct mrc_cq *cq, int solicited_only)
{
	if (!cq)
		return mrc_err(EINVAL);
	if (cq->evq)
		return mrc_err(mrc_evq_arm(cq));
	return ibv_req_notify_cq(cq->cq, solicited_only);
}

MRC_EXPORT int mrc_get_cq_event(struct mrc_comp_channel *channel,
				struct mrc_cq **cq, void **cq_context)
{
	struct epoll_event e;
	struct ibv_cq *vcq;
	int n, flags;
	void *ours;

	if (!channel || !cq || !cq_context) {
		errno = EINVAL;
		return -1;
	}
	/* The fd the API handed out decides: O_NONBLOCK on it, no waiting. */
	flags = fcntl(channel->epfd, F_GETFL);
	do {
		n = epoll_wait(channel->epfd, &e, 1,
			       flags >= 0 && (flags & O_NONBLOCK) ? 0 : -1);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if (!n) {
		errno = EAGAIN;
		return -1;
	}
	if (e.data.ptr) {
		/* An event queue, disarmed until its next req_notify. */
		*cq = e.data.ptr;
		*cq_context = (*cq)->cq_context;
		return 0;
	}
	if (ibv_get_cq_event(channel->ch, &vcq, &ours))
		return -1;
	*cq = ours;
	*cq_context = (*cq)->cq_context;
	return 0;
}

MRC_EXPORT void mrc_ack_cq_events(struct mrc_cq *cq, unsigned int nevents)
{
	/* An event queue's events are not acknowledged. */
	if (cq && !cq->evq)
		ibv_ack_cq_events(cq->cq, nevents);
}
