// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completion channels and CQs: thin wrappers over their verbs objects, so
 * that a completion event hands back the API's CQ and its user context.
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

MRC_EXPORT int mrc_create_comp_channel(struct mrc_context *mrc_ctx,
				       struct mrc_comp_channel **channel)
{
	struct mrc_comp_channel *ch;

	if (!mrc_ctx || !channel)
		return mrc_fail(EINVAL);
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return mrc_fail(ENOMEM);
	ch->ch = ibv_create_comp_channel(mrc_ctx->vctx);
	if (!ch->ch) {
		int err = errno ?: ENOMEM;

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
	*fd = channel->ch->fd;
	return 0;
}

MRC_EXPORT int mrc_destroy_comp_channel(struct mrc_comp_channel *channel)
{
	int ret;

	if (!channel)
		return mrc_err(EINVAL);
	ret = ibv_destroy_comp_channel(channel->ch);
	if (ret)
		return mrc_err(ret);
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
	if (!cq || cq->ev_queue || num_entries < 0) {
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
	ret = ibv_destroy_cq(cq->cq);
	if (ret)
		return mrc_err(ret);
	mrc_ctx_put(cq->ctx);
	free(cq);
	return 0;
}

MRC_EXPORT int mrc_req_notify_cq(struct mrc_cq *cq, int solicited_only)
{
	if (!cq)
		return mrc_err(EINVAL);
	return ibv_req_notify_cq(cq->cq, solicited_only);
}

MRC_EXPORT int mrc_get_cq_event(struct mrc_comp_channel *channel,
				struct mrc_cq **cq, void **cq_context)
{
	struct ibv_cq *vcq;
	void *ours;

	if (!channel || !cq || !cq_context) {
		errno = EINVAL;
		return -1;
	}
	if (ibv_get_cq_event(channel->ch, &vcq, &ours))
		return -1;
	*cq = ours;
	*cq_context = (*cq)->cq_context;
	return 0;
}

MRC_EXPORT void mrc_ack_cq_events(struct mrc_cq *cq, unsigned int nevents)
{
	if (cq)
		ibv_ack_cq_events(cq->cq, nevents);
}
