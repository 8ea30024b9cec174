// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Versions, contexts, the device query and asynchronous events: the parts
 * of the application API that stand for the device as a whole.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* WRITE_IMMs in flight: mrc bounds them by the queues alone (libmrc.md). */
#define MRC_LIB_MAX_WIMM	UINT16_MAX
/* Hints are the library's own objects; a cap keeps a context bounded. */
#define MRC_LIB_MAX_QP_HINT	4096

int mrc_err(int err)
{
	errno = err;
	return err;
}

/* Provider bytes of hints, QPs and profiles: mrc takes none but zeros. */
bool mrc_vendor_cfg_empty(const uint8_t *cfg, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (cfg[i])
			return false;
	return true;
}

int mrc_fail(int err)
{
	if (!err)
		return 0;
	errno = err;
	return -1;
}

/* Both halves' version queries: each pointer may be NULL. */
void mrc_put_versions(const uint32_t v[4], uint32_t *cur, uint32_t *last,
		      uint32_t *vcur, uint32_t *vlast)
{
	uint32_t *out[4] = { cur, last, vcur, vlast };
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (out[i])
			*out[i] = v[i];
}

MRC_EXPORT void mrc_query_version(uint32_t *current_version,
				  uint32_t *last_supported_version,
				  uint32_t *vendor_version,
				  uint32_t *last_supported_vendor_version)
{
	static const uint32_t v[4] = {
		MRC_API_CURRENT_VERSION, MRC_API_LAST_SUPPORTED_VERSION,
		MRC_VENDOR_API_CURRENT_VERSION,
		MRC_VENDOR_API_LAST_SUPPORTED_VERSION,
	};

	mrc_put_versions(v, current_version, last_supported_version,
			 vendor_version, last_supported_vendor_version);
}

struct mrc_dev_info_arg {
	const char *name;
	struct mrc_dev_info *info;
};

static int mrc_dev_info_cb(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type dev_types[MRC_A_MAX + 1] = {
		[MRC_A_DEV_NAME] = MNL_TYPE_NUL_STRING,
		[MRC_A_DEV_PLANES] = MNL_TYPE_NESTED,
	};
	static const enum mnl_attr_data_type plane_types[MRC_A_PLANE_MAX + 1] = {
		[MRC_A_PLANE_INDEX] = MNL_TYPE_U32,
		[MRC_A_PLANE_ADMIN] = MNL_TYPE_U8,
	};
	const struct nlattr *tb[MRC_A_MAX + 1], *ptb[MRC_A_PLANE_MAX + 1];
	struct mrc_dev_info_arg *a = data;
	const struct nlattr *plane;

	if (mrc_nl_parse(nlh, NULL, tb, MRC_A_MAX, dev_types) < 0 ||
	    !tb[MRC_A_DEV_NAME] || !tb[MRC_A_DEV_PLANES])
		return MNL_CB_ERROR;
	mnl_attr_for_each_nested(plane, tb[MRC_A_DEV_PLANES]) {
		uint32_t i;

		if (mnl_attr_get_type(plane) != MRC_A_PLANE)
			continue;
		if (mrc_nl_parse(NULL, plane, ptb, MRC_A_PLANE_MAX,
				 plane_types) < 0 || !ptb[MRC_A_PLANE_INDEX])
			return MNL_CB_ERROR;
		i = mnl_attr_get_u32(ptb[MRC_A_PLANE_INDEX]);
		if (i >= MRC_MAX_PLANES)
			return MNL_CB_ERROR;
		a->info->nplanes++;
		if (ptb[MRC_A_PLANE_ADMIN] &&
		    mnl_attr_get_u8(ptb[MRC_A_PLANE_ADMIN]) == MRC_PLANE_ADMIN_UP)
			a->info->port_up |= 1u << (i + 1);
	}
	return MNL_CB_OK;
}

/* The device's planes, by its name; ENODEV when it is no mrc device. */
int mrc_dev_info(struct mrc_nl *nl, const char *name, struct mrc_dev_info *info)
{
	struct mrc_dev_info_arg a = { name, info };
	struct nlmsghdr *nlh;

	memset(info, 0, sizeof(*info));
	nlh = mrc_nl_msg(nl, MRC_CMD_DEV_GET);
	mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, name);
	return mrc_nl_talk(nl, nlh, mrc_dev_info_cb, &a);
}

/* Whether @vctx is an mrc device, and what its planes are. */
static int mrc_probe(struct ibv_context *vctx, struct mrc_nl *nl,
		     struct mrc_dev_info *info)
{
	struct ibv_device_attr dattr;
	int err;

	err = mrc_dev_info(nl, ibv_get_device_name(vctx->device), info);
	if (err)
		return err;
	err = ibv_query_device(vctx, &dattr);
	if (err)
		return err;
	info->max_qp_wr = dattr.max_qp_wr;
	return 0;
}

static void mrc_fill_device_attr(struct mrc_device_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->mrc_protocol_version = MRC_PROTOCOL_VERSION_1;
	attr->wimm_attr.max_wimm = MRC_LIB_MAX_WIMM;
	attr->wimm_attr.max_wimm_dest = MRC_LIB_MAX_WIMM;
	/* What both roles take: the requester's MPR stops at 8 units. */
	attr->mpr_attr.max_mpr = MRC_MPR_MAX;
	attr->mpr_attr.mpr_resolution = 1;
	attr->qp_attr.max_qp_hint = MRC_LIB_MAX_QP_HINT;
	attr->cap = 0;
}

static int mrc_query(struct ibv_context *context, struct mrc_nl *nl,
		     struct mrc_device_attr *attr, int *supported)
{
	struct mrc_dev_info info;
	int err;

	if (!context || !attr || !supported)
		return mrc_fail(EINVAL);
	err = mrc_probe(context, nl, &info);
	if (err && err != ENODEV)
		return mrc_fail(err);
	*supported = !err;
	if (err)
		memset(attr, 0, sizeof(*attr));
	else
		mrc_fill_device_attr(attr);
	return 0;
}

MRC_EXPORT int mrc_query_device_ex(struct ibv_context *context,
				   struct mrc_context *mcontext,
				   struct mrc_device_attr *attr,
				   int *supported)
{
	if (mcontext && mcontext->vctx != context)
		return mrc_fail(EINVAL);
	if (mcontext)
		return mrc_query(context, &mcontext->nl, attr, supported);
	return mrc_query_device(context, attr, supported);
}

MRC_EXPORT int mrc_query_device(struct ibv_context *context,
				struct mrc_device_attr *attr, int *supported)
{
	struct mrc_nl nl;
	int err;

	err = mrc_nl_open(&nl);
	if (err == ENODEV) {
		/* No mrc.ko: a query answers "not supported", not an error. */
		if (!context || !attr || !supported)
			return mrc_fail(EINVAL);
		memset(attr, 0, sizeof(*attr));
		*supported = 0;
		return 0;
	}
	if (err)
		return mrc_fail(err);
	err = mrc_query(context, &nl, attr, supported);
	mrc_nl_close(&nl);
	return err;
}

MRC_EXPORT struct mrc_context *
mrc_create_context(struct ibv_context *vcontext,
		   struct mrc_context_attr *context_attr)
{
	struct mrc_context *ctx;
	struct mrc_dev_info info;
	uint32_t used = MRC_API_CURRENT_VERSION;
	uint32_t vused = MRC_VENDOR_API_CURRENT_VERSION;
	int err;

	if (!vcontext) {
		errno = EINVAL;
		return NULL;
	}
	if (context_attr && context_attr->mrc_api_version_used)
		used = context_attr->mrc_api_version_used;
	if (context_attr && context_attr->mrc_vendor_api_version_used)
		vused = context_attr->mrc_vendor_api_version_used;
	if (used > MRC_API_CURRENT_VERSION ||
	    vused > MRC_VENDOR_API_CURRENT_VERSION) {
		errno = ENOTSUP;
		return NULL;
	}

	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return NULL;
	ctx->vctx = vcontext;
	ctx->api_version = used;
	ctx->vendor_api_version = vused;
	snprintf(ctx->name, sizeof(ctx->name), "%s",
		 ibv_get_device_name(vcontext->device));
	pthread_mutex_init(&ctx->lock, NULL);
	err = mrc_nl_open(&ctx->nl);
	if (!err) {
		err = mrc_probe(vcontext, &ctx->nl, &info);
		if (err)
			mrc_nl_close(&ctx->nl);
	}
	if (err) {
		pthread_mutex_destroy(&ctx->lock);
		free(ctx);
		/* Not an mrc device: the API's "MRC not supported". */
		errno = err == ENODEV ? EOPNOTSUPP : err;
		return NULL;
	}
	return ctx;
}

void mrc_ctx_get(struct mrc_context *ctx)
{
	pthread_mutex_lock(&ctx->lock);
	ctx->nobjs++;
	pthread_mutex_unlock(&ctx->lock);
}

void mrc_ctx_put(struct mrc_context *ctx)
{
	pthread_mutex_lock(&ctx->lock);
	ctx->nobjs--;
	pthread_mutex_unlock(&ctx->lock);
}

MRC_EXPORT int mrc_destroy_context(struct mrc_context *mrc_ctx)
{
	bool busy;

	if (!mrc_ctx) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&mrc_ctx->lock);
	busy = mrc_ctx->nobjs || mrc_ctx->nhints;
	pthread_mutex_unlock(&mrc_ctx->lock);
	if (busy) {
		errno = EBUSY;
		return -1;
	}
	mrc_nl_close(&mrc_ctx->nl);
	pthread_mutex_destroy(&mrc_ctx->lock);
	free(mrc_ctx);
	return 0;
}

MRC_EXPORT int mrc_get_async_event(struct mrc_context *mrc_ctx,
				   struct mrc_async_event *event)
{
	struct ibv_async_event ev;
	struct ibv_cq *cq;
	int ret;

	if (!mrc_ctx || !event)
		return mrc_fail(EINVAL);
	ret = ibv_get_async_event(mrc_ctx->vctx, &ev);
	if (ret)
		return ret;
	memset(event, 0, sizeof(*event));
	event->event_type = ev.event_type;
	switch (ev.event_type) {
	case IBV_EVENT_CQ_ERR:
		cq = ev.element.cq;
		event->element.cq = cq->cq_context;
		break;
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_COMM_EST:
	case IBV_EVENT_SQ_DRAINED:
	case IBV_EVENT_PATH_MIG:
	case IBV_EVENT_PATH_MIG_ERR:
	case IBV_EVENT_QP_LAST_WQE_REACHED:
		event->element.qp = ev.element.qp->qp_context;
		break;
	default:
		event->element.port_num = ev.element.port_num;
		break;
	}
	/* The verbs event is acknowledged here: ours carries no verbs object. */
	ibv_ack_async_event(&ev);
	return 0;
}

MRC_EXPORT void mrc_ack_async_event(struct mrc_async_event *event)
{
	(void)event;
}
