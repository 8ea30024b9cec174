// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * QP hints and QPs.  A QP is a verbs RC QP of the mrc device; its MRC
 * attributes go to the kernel through MRC_CMD_QP_SET just before the verbs
 * transition they belong to, and come back through MRC_CMD_QP_GET.  The
 * verbs attributes the API leaves out (port, timeout, retries, RNR, atomics,
 * alternate paths) are dropped from the caller's mask, and the ones the
 * verbs state machine requires are filled in here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The verbs attributes mrc_modify_qp() ignores, as the API says. */
#define MRC_LIB_VATTR_IGNORED \
	(IBV_QP_PORT | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | \
	 IBV_QP_MIN_RNR_TIMER | IBV_QP_MAX_QP_RD_ATOMIC | \
	 IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_ALT_PATH | IBV_QP_PATH_MIG_STATE)

/* What the kernel keeps, per MRC attribute mask bit. */
#define MRC_LIB_KERNEL_ATTRS \
	(MRC_QP_MPR | MRC_QP_MPR_DEST | MRC_QP_TIMEOUT | \
	 MRC_QP_EV_PROFILE_ID | MRC_QP_CC_PROFILE_ID | MRC_QP_RETRY_CNT)

#define MRC_LIB_ATTRS \
	(MRC_LIB_KERNEL_ATTRS | MRC_QP_MAX_WIMM | MRC_QP_MAX_WIMM_DEST | \
	 MRC_QP_HINT | MRC_QP_CAP | MRC_QP_VENDOR_CFG)

/* RNR NAK delay of 0.64 ms (IBA table 45, code 12), as perftest uses. */
#define MRC_LIB_MIN_RNR_TIMER	12
/* RNR retries: 7 is "for ever", which WRITE_IMM into a busy peer needs. */
#define MRC_LIB_RNR_RETRY	7
/* The API's largest ACK timeout, 17.2 s. */
#define MRC_LIB_TIMEOUT_MAX	24

MRC_EXPORT struct mrc_qp_hint *
mrc_create_qp_hint(struct mrc_context *mrc_ctx,
		   struct mrc_qp_hint_init_attr *init_attr)
{
	struct mrc_qp_hint *hint;
	bool full;

	if (!mrc_ctx || !init_attr) {
		errno = EINVAL;
		return NULL;
	}
	if (!mrc_vendor_cfg_empty(init_attr->attr.vendor_cfg,
				  sizeof(init_attr->attr.vendor_cfg))) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (init_attr->attr.num_qps_per_peer < 0 ||
	    init_attr->attr.num_send_peers < 0 ||
	    init_attr->attr.num_remote_recv_peers < 0) {
		errno = EINVAL;
		return NULL;
	}
	hint = calloc(1, sizeof(*hint));
	if (!hint)
		return NULL;
	pthread_mutex_lock(&mrc_ctx->lock);
	full = mrc_ctx->nhints >= 4096;
	if (!full)
		mrc_ctx->nhints++;
	pthread_mutex_unlock(&mrc_ctx->lock);
	if (full) {
		free(hint);
		errno = ENOSPC;
		return NULL;
	}
	hint->ctx = mrc_ctx;
	hint->attr = init_attr->attr;
	return hint;
}

MRC_EXPORT int mrc_destroy_qp_hint(struct mrc_qp_hint *qp_hint)
{
	struct mrc_context *ctx;
	bool busy;

	if (!qp_hint) {
		errno = EINVAL;
		return -1;
	}
	ctx = qp_hint->ctx;
	pthread_mutex_lock(&ctx->lock);
	busy = qp_hint->users;
	if (!busy)
		ctx->nhints--;
	pthread_mutex_unlock(&ctx->lock);
	if (busy) {
		errno = EBUSY;
		return -1;
	}
	free(qp_hint);
	return 0;
}

#define MRC_LIB_HINT_ATTRS \
	(MRC_QP_HINT_NUM_QPS_PER_PEER | MRC_QP_HINT_NUM_SEND_PEERS | \
	 MRC_QP_HINT_NUM_REMOTE_RECV_PEERS | MRC_QP_HINT_VENDOR_CFG)

MRC_EXPORT int mrc_query_qp_hint(struct mrc_qp_hint *qp_hint,
				 struct mrc_qp_hint_attr *attr, int mask)
{
	if (!qp_hint || !attr || ((unsigned int)mask & ~MRC_LIB_HINT_ATTRS)) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&qp_hint->ctx->lock);
	if (mask & MRC_QP_HINT_NUM_QPS_PER_PEER)
		attr->num_qps_per_peer = qp_hint->attr.num_qps_per_peer;
	if (mask & MRC_QP_HINT_NUM_SEND_PEERS)
		attr->num_send_peers = qp_hint->attr.num_send_peers;
	if (mask & MRC_QP_HINT_NUM_REMOTE_RECV_PEERS)
		attr->num_remote_recv_peers =
			qp_hint->attr.num_remote_recv_peers;
	if (mask & MRC_QP_HINT_VENDOR_CFG)
		memset(attr->vendor_cfg, 0, sizeof(attr->vendor_cfg));
	pthread_mutex_unlock(&qp_hint->ctx->lock);
	return 0;
}

MRC_EXPORT int mrc_modify_qp_hint(struct mrc_qp_hint *qp_hint,
				  struct mrc_qp_hint_attr *attr, int mask)
{
	if (!qp_hint || !attr || ((unsigned int)mask & ~MRC_LIB_HINT_ATTRS) ||
	    ((mask & MRC_QP_HINT_NUM_QPS_PER_PEER) &&
	     attr->num_qps_per_peer < 0) ||
	    ((mask & MRC_QP_HINT_NUM_SEND_PEERS) && attr->num_send_peers < 0) ||
	    ((mask & MRC_QP_HINT_NUM_REMOTE_RECV_PEERS) &&
	     attr->num_remote_recv_peers < 0)) {
		errno = EINVAL;
		return -1;
	}
	if ((mask & MRC_QP_HINT_VENDOR_CFG) &&
	    !mrc_vendor_cfg_empty(attr->vendor_cfg, sizeof(attr->vendor_cfg))) {
		errno = EOPNOTSUPP;
		return -1;
	}
	pthread_mutex_lock(&qp_hint->ctx->lock);
	if (mask & MRC_QP_HINT_NUM_QPS_PER_PEER)
		qp_hint->attr.num_qps_per_peer = attr->num_qps_per_peer;
	if (mask & MRC_QP_HINT_NUM_SEND_PEERS)
		qp_hint->attr.num_send_peers = attr->num_send_peers;
	if (mask & MRC_QP_HINT_NUM_REMOTE_RECV_PEERS)
		qp_hint->attr.num_remote_recv_peers =
			attr->num_remote_recv_peers;
	pthread_mutex_unlock(&qp_hint->ctx->lock);
	return 0;
}

MRC_EXPORT struct mrc_qp *mrc_create_qp(struct mrc_context *mrc_ctx,
					struct mrc_qp_init_attr *mrc_qp_attr)
{
	struct ibv_qp_init_attr_ex init = {};
	struct mrc_qp *qp;
	int err;

	if (!mrc_ctx || !mrc_qp_attr || !mrc_qp_attr->pd ||
	    !mrc_qp_attr->send_cq || !mrc_qp_attr->recv_cq ||
	    mrc_qp_attr->send_cq->ctx != mrc_ctx ||
	    mrc_qp_attr->recv_cq->ctx != mrc_ctx ||
	    mrc_qp_attr->send_cq->evq || mrc_qp_attr->recv_cq->evq ||
	    mrc_qp_attr->pd->context != mrc_ctx->vctx) {
		errno = EINVAL;
		return NULL;
	}
	if (mrc_qp_attr->protocol_version != MRC_PROTOCOL_VERSION_0 &&
	    mrc_qp_attr->protocol_version != MRC_PROTOCOL_VERSION_1) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return NULL;
	init.qp_context = qp;
	init.send_cq = mrc_qp_attr->send_cq->cq;
	init.recv_cq = mrc_qp_attr->recv_cq->cq;
	init.cap = mrc_qp_attr->cap;
	init.sq_sig_all = mrc_qp_attr->sq_sig_all;
	init.qp_type = IBV_QPT_RC;
	init.pd = mrc_qp_attr->pd;
	init.comp_mask = IBV_QP_INIT_ATTR_PD;
	if (mrc_qp_attr->send_ops_flags) {
		init.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		init.send_ops_flags = mrc_qp_attr->send_ops_flags;
	}
	qp->qp = ibv_create_qp_ex(mrc_ctx->vctx, &init);
	if (!qp->qp) {
		err = errno ?: ENOMEM;
		free(qp);
		errno = err;
		return NULL;
	}
	qp->ctx = mrc_ctx;
	qp->init = *mrc_qp_attr;
	qp->init.cap = init.cap;	/* what the device gave */
	qp->init.protocol_version = MRC_PROTOCOL_VERSION_1;
	mrc_ctx_get(mrc_ctx);
	return qp;
}

MRC_EXPORT int mrc_destroy_qp(struct mrc_qp *qp)
{
	struct mrc_context *ctx;
	int ret;

	if (!qp)
		return mrc_err(EINVAL);
	ctx = qp->ctx;
	ret = ibv_destroy_qp(qp->qp);
	if (ret)
		return mrc_err(ret);
	pthread_mutex_lock(&ctx->lock);
	if (qp->attr.qp_hint)
		qp->attr.qp_hint->users--;
	pthread_mutex_unlock(&ctx->lock);
	mrc_ctx_put(ctx);
	free(qp);
	return 0;
}

MRC_EXPORT int mrc_get_qpn(struct mrc_qp *qp, uint32_t *qpn)
{
	if (!qp || !qpn) {
		errno = EINVAL;
		return -1;
	}
	*qpn = qp->qp->qp_num;
	return 0;
}

/* The MRC attributes the kernel keeps for @qp, from MRC_CMD_QP_GET. */
static int mrc_qp_get_cb(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type top[MRC_A_MAX + 1] = {
		[MRC_A_QP] = MNL_TYPE_NESTED,
	};
	static const enum mnl_attr_data_type types[MRC_A_QP_MAX + 1] = {
		[MRC_A_QP_EVPROF_ID] = MNL_TYPE_U32,
		[MRC_A_QP_CCPROF_ID] = MNL_TYPE_U32,
		[MRC_A_QP_MPR] = MNL_TYPE_U32,
		[MRC_A_QP_MPR_DEST] = MNL_TYPE_U32,
		[MRC_A_QP_TIMEOUT] = MNL_TYPE_U8,
		[MRC_A_QP_RETRY_LINEAR] = MNL_TYPE_U8,
		[MRC_A_QP_RETRY_EXP] = MNL_TYPE_U8,
	};
	const struct nlattr *tb[MRC_A_MAX + 1], *qtb[MRC_A_QP_MAX + 1];
	struct mrc_qp_attr *a = data;
	unsigned int i;

	if (mrc_nl_parse(nlh, NULL, tb, MRC_A_MAX, top) < 0 || !tb[MRC_A_QP] ||
	    mrc_nl_parse(NULL, tb[MRC_A_QP], qtb, MRC_A_QP_MAX, types) < 0)
		return MNL_CB_ERROR;
	for (i = MRC_A_QP_EVPROF_ID; i <= MRC_A_QP_RETRY_EXP; i++)
		if (!qtb[i])
			return MNL_CB_ERROR;
	a->profile.ev_profile_id = mnl_attr_get_u32(qtb[MRC_A_QP_EVPROF_ID]);
	a->profile.cc_profile_id = mnl_attr_get_u32(qtb[MRC_A_QP_CCPROF_ID]);
	a->mpr.mpr = mnl_attr_get_u32(qtb[MRC_A_QP_MPR]);
	a->mpr.mpr_dest = mnl_attr_get_u32(qtb[MRC_A_QP_MPR_DEST]);
	a->timeout = mnl_attr_get_u8(qtb[MRC_A_QP_TIMEOUT]);
	a->retry.linear_cnt = mnl_attr_get_u8(qtb[MRC_A_QP_RETRY_LINEAR]);
	a->retry.exp_cnt = mnl_attr_get_u8(qtb[MRC_A_QP_RETRY_EXP]);
	return MNL_CB_OK;
}

static int mrc_qp_kernel_get(struct mrc_qp *qp, struct mrc_qp_attr *a)
{
	struct mrc_nl *nl = &qp->ctx->nl;
	struct nlmsghdr *nlh;
	struct nlattr *nest;

	nlh = mrc_nl_msg(nl, MRC_CMD_QP_GET);
	mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, qp->ctx->name);
	nest = mnl_attr_nest_start(nlh, MRC_A_QP);
	mnl_attr_put_u32(nlh, MRC_A_QP_NUM, qp->qp->qp_num);
	mnl_attr_nest_end(nlh, nest);
	return mrc_nl_talk(nl, nlh, mrc_qp_get_cb, a);
}

static int mrc_qp_kernel_set(struct mrc_qp *qp, const struct mrc_qp_attr *a,
			     int mask)
{
	struct mrc_nl *nl = &qp->ctx->nl;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int err;

	nlh = mrc_nl_msg(nl, MRC_CMD_QP_SET);
	mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, qp->ctx->name);
	nest = mnl_attr_nest_start(nlh, MRC_A_QP);
	mnl_attr_put_u32(nlh, MRC_A_QP_NUM, qp->qp->qp_num);
	if (mask & MRC_QP_EV_PROFILE_ID)
		mnl_attr_put_u32(nlh, MRC_A_QP_EVPROF_ID,
				 (uint32_t)a->profile.ev_profile_id);
	if (mask & MRC_QP_CC_PROFILE_ID)
		mnl_attr_put_u32(nlh, MRC_A_QP_CCPROF_ID,
				 (uint32_t)a->profile.cc_profile_id);
	if (mask & MRC_QP_MPR)
		mnl_attr_put_u32(nlh, MRC_A_QP_MPR, a->mpr.mpr);
	if (mask & MRC_QP_MPR_DEST)
		mnl_attr_put_u32(nlh, MRC_A_QP_MPR_DEST, a->mpr.mpr_dest);
	if (mask & MRC_QP_TIMEOUT)
		mnl_attr_put_u8(nlh, MRC_A_QP_TIMEOUT, a->timeout);
	if (mask & MRC_QP_RETRY_CNT) {
		mnl_attr_put_u8(nlh, MRC_A_QP_RETRY_LINEAR, a->retry.linear_cnt);
		mnl_attr_put_u8(nlh, MRC_A_QP_RETRY_EXP, a->retry.exp_cnt);
	}
	mnl_attr_nest_end(nlh, nest);
	err = mrc_nl_talk(nl, nlh, NULL, NULL);
	/*
	 * The kernel refuses with EBUSY an attribute given at a transition
	 * it does not belong to; ibv_modify_qp() says EINVAL for that.
	 * ERANGE, a value out of the attribute's range, likewise.
	 */
	return err == EBUSY || err == ERANGE ? EINVAL : err;
}

/* The MRC attributes of a request, checked before anything changes. */
static int mrc_qp_attr_check(const struct mrc_qp *qp,
			     const struct mrc_qp_attr *a, int mask)
{
	if ((unsigned int)mask & ~(unsigned int)MRC_LIB_ATTRS)
		return EINVAL;
	if (!mask)
		return 0;
	if (!a)
		return EINVAL;
	if (((mask & MRC_QP_EV_PROFILE_ID) &&
	     a->profile.ev_profile_id > MRC_PROFILE_ID_MAX) ||
	    ((mask & MRC_QP_CC_PROFILE_ID) &&
	     a->profile.cc_profile_id > MRC_PROFILE_ID_MAX) ||
	    ((mask & MRC_QP_TIMEOUT) && a->timeout > MRC_LIB_TIMEOUT_MAX))
		return EINVAL;
	if ((mask & MRC_QP_HINT) && a->qp_hint && a->qp_hint->ctx != qp->ctx)
		return EINVAL;
	/* Features mrc does not have cannot be turned on. */
	if ((mask & MRC_QP_CAP) && (a->cap & MRC_QP_CAP_DYNAMIC_MPR))
		return EOPNOTSUPP;
	if ((mask & MRC_QP_CAP) &&
	    (a->cap & ~(uint32_t)(MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED |
				  MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED |
				  MRC_QP_CAP_DYNAMIC_MPR)))
		return EINVAL;
	if ((mask & MRC_QP_VENDOR_CFG) &&
	    !mrc_vendor_cfg_empty(a->vendor_cfg, sizeof(a->vendor_cfg)))
		return EOPNOTSUPP;
	return 0;
}

/* The library's part of the attributes, once the transition succeeded. */
static void mrc_qp_attr_keep(struct mrc_qp *qp, const struct mrc_qp_attr *a,
			     int mask)
{
	struct mrc_context *ctx = qp->ctx;

	pthread_mutex_lock(&ctx->lock);
	if (mask & MRC_QP_MAX_WIMM)
		qp->attr.wimm.max_wimm = a->wimm.max_wimm;
	if (mask & MRC_QP_MAX_WIMM_DEST)
		qp->attr.wimm.max_wimm_dest = a->wimm.max_wimm_dest;
	if (mask & MRC_QP_CAP)
		qp->attr.cap = a->cap;
	if ((mask & MRC_QP_HINT) && qp->attr.qp_hint != a->qp_hint) {
		if (qp->attr.qp_hint)
			qp->attr.qp_hint->users--;
		qp->attr.qp_hint = a->qp_hint;
		if (a->qp_hint)
			a->qp_hint->users++;
	}
	pthread_mutex_unlock(&ctx->lock);
}

MRC_EXPORT int mrc_modify_qp(struct mrc_qp *qp, struct ibv_qp_attr *vattr,
			     int vattr_mask, struct mrc_qp_attr *mrc_attr,
			     int mrc_attr_mask)
{
	int vmask = vattr_mask & ~MRC_LIB_VATTR_IGNORED;
	struct ibv_qp_attr v = {};
	struct mrc_qp_attr cur;
	int err;

	if (!qp || (vattr_mask && !vattr))
		return mrc_err(EINVAL);
	err = mrc_qp_attr_check(qp, mrc_attr, mrc_attr_mask);
	if (err)
		return mrc_err(err);

	if (mrc_attr_mask & MRC_LIB_KERNEL_ATTRS) {
		err = mrc_qp_kernel_set(qp, mrc_attr, mrc_attr_mask);
		if (err)
			return mrc_err(err);
	}
	if (!vmask) {
		mrc_qp_attr_keep(qp, mrc_attr, mrc_attr_mask);
		return 0;
	}

	v = *vattr;
	if (vmask & IBV_QP_STATE) {
		switch (v.qp_state) {
		case IBV_QPS_INIT:
			/* An MRC QP spans every port: verbs wants one named. */
			v.port_num = 1;
			vmask |= IBV_QP_PORT;
			if (!(vmask & IBV_QP_PKEY_INDEX)) {
				v.pkey_index = 0;
				vmask |= IBV_QP_PKEY_INDEX;
			}
			if (!(vmask & IBV_QP_ACCESS_FLAGS)) {
				v.qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
				vmask |= IBV_QP_ACCESS_FLAGS;
			}
			break;
		case IBV_QPS_RTR:
			v.max_dest_rd_atomic = 0;
			v.min_rnr_timer = MRC_LIB_MIN_RNR_TIMER;
			vmask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
			if ((vmask & IBV_QP_AV) && !v.ah_attr.port_num)
				v.ah_attr.port_num = 1;
			break;
		case IBV_QPS_RTS:
			/*
			 * verbs replaces the timeout and linear retries at
			 * RTS: hand it what the kernel holds, which is what
			 * the MRC attributes set.
			 */
			err = mrc_qp_kernel_get(qp, &cur);
			if (err)
				return mrc_err(err);
			v.timeout = cur.timeout;
			v.retry_cnt = cur.retry.linear_cnt;
			v.rnr_retry = MRC_LIB_RNR_RETRY;
			v.max_rd_atomic = 0;
			vmask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				 IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
			break;
		default:
			break;
		}
	}
	err = ibv_modify_qp(qp->qp, &v, vmask);
	if (err)
		return mrc_err(err);
	mrc_qp_attr_keep(qp, mrc_attr, mrc_attr_mask);
	return 0;
}

MRC_EXPORT int mrc_query_qp(struct mrc_qp *qp, struct ibv_qp_attr *vattr,
			    int vattr_mask, struct mrc_qp_attr *mrc_attr,
			    int mrc_attr_mask,
			    struct mrc_qp_init_attr *init_attr)
{
	struct ibv_qp_init_attr vinit;
	struct mrc_qp_attr cur = {};
	int err;

	if (!qp || (vattr_mask && !vattr) || (mrc_attr_mask && !mrc_attr) ||
	    ((unsigned int)mrc_attr_mask & ~(unsigned int)MRC_LIB_ATTRS))
		return mrc_err(EINVAL);
	if (vattr_mask) {
		err = ibv_query_qp(qp->qp, vattr, vattr_mask, &vinit);
		if (err)
			return mrc_err(err);
	}
	if (mrc_attr_mask & MRC_LIB_KERNEL_ATTRS) {
		err = mrc_qp_kernel_get(qp, &cur);
		if (err)
			return mrc_err(err);
	}
	if (mrc_attr_mask) {
		pthread_mutex_lock(&qp->ctx->lock);
		if (mrc_attr_mask & MRC_QP_MPR)
			mrc_attr->mpr.mpr = cur.mpr.mpr;
		if (mrc_attr_mask & MRC_QP_MPR_DEST)
			mrc_attr->mpr.mpr_dest = cur.mpr.mpr_dest;
		if (mrc_attr_mask & MRC_QP_TIMEOUT)
			mrc_attr->timeout = cur.timeout;
		if (mrc_attr_mask & MRC_QP_EV_PROFILE_ID)
			mrc_attr->profile.ev_profile_id =
				cur.profile.ev_profile_id;
		if (mrc_attr_mask & MRC_QP_CC_PROFILE_ID)
			mrc_attr->profile.cc_profile_id =
				cur.profile.cc_profile_id;
		if (mrc_attr_mask & MRC_QP_RETRY_CNT)
			mrc_attr->retry = cur.retry;
		if (mrc_attr_mask & MRC_QP_MAX_WIMM)
			mrc_attr->wimm.max_wimm = qp->attr.wimm.max_wimm;
		if (mrc_attr_mask & MRC_QP_MAX_WIMM_DEST)
			mrc_attr->wimm.max_wimm_dest =
				qp->attr.wimm.max_wimm_dest;
		if (mrc_attr_mask & MRC_QP_HINT)
			mrc_attr->qp_hint = qp->attr.qp_hint;
		if (mrc_attr_mask & MRC_QP_CAP)
			mrc_attr->cap = qp->attr.cap;
		if (mrc_attr_mask & MRC_QP_VENDOR_CFG)
			memset(mrc_attr->vendor_cfg, 0,
			       sizeof(mrc_attr->vendor_cfg));
		pthread_mutex_unlock(&qp->ctx->lock);
	}
	if (init_attr)
		*init_attr = qp->init;
	return 0;
}

MRC_EXPORT int mrc_post_recv(struct mrc_qp *qp, struct ibv_recv_wr *wr,
			     struct ibv_recv_wr **bad_wr)
{
	if (!qp || !wr || !bad_wr)
		return mrc_err(EINVAL);
	return ibv_post_recv(qp->qp, wr, bad_wr);
}

MRC_EXPORT int mrc_post_send(struct mrc_qp *qp, struct ibv_send_wr *wr,
			     struct ibv_send_wr **bad_wr)
{
	struct ibv_send_wr *w;

	if (!qp || !wr || !bad_wr)
		return mrc_err(EINVAL);
	/* MRC semantics: WRITE and WRITE_IMM; the rest is plain verbs'. */
	for (w = wr; w; w = w->next) {
		if (w->opcode != IBV_WR_RDMA_WRITE &&
		    w->opcode != IBV_WR_RDMA_WRITE_WITH_IMM) {
			*bad_wr = w;
			return mrc_err(EINVAL);
		}
	}
	return ibv_post_send(qp->qp, wr, bad_wr);
}
