// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The controller half: the device's controller attributes and its ports
 * (mrc's planes, port N being plane N - 1); profiles are ctl_profile.c's,
 * EV event queues ctl_event.c's.  Endpoint operations answer EOPNOTSUPP
 * until their kernel backing lands (Documentation/libmrc.md says why).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *const mrc_ctl_algorithms[] = { "uet-1.0-nscc", NULL };

MRC_EXPORT void mrc_ctl_query_version(uint32_t *current_version,
				      uint32_t *last_supported_version,
				      uint32_t *vendor_version,
				      uint32_t *last_supported_vendor_version)
{
	static const uint32_t v[4] = {
		MRC_CTL_API_CURRENT_VERSION, MRC_CTL_API_LAST_SUPPORTED_VERSION,
		MRC_CTL_VENDOR_API_CURRENT_VERSION,
		MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION,
	};

	mrc_put_versions(v, current_version, last_supported_version,
			 vendor_version, last_supported_vendor_version);
}

static int mrc_ctl_query(struct ibv_context *context, struct mrc_nl *nl,
			 struct mrc_ctl_device_attr *a, int *supported)
{
	struct mrc_dev_info info;
	int err;

	if (!context || !a)
		return EINVAL;
	memset(a, 0, sizeof(*a));
	err = mrc_dev_info(nl, ibv_get_device_name(context->device), &info);
	if (err == ENODEV && supported) {
		*supported = 0;
		return 0;
	}
	if (err)
		return err;
	if (supported)
		*supported = 1;
	a->mrc_ctl_protocol_version = MRC_CTL_PROTOCOL_VERSION_1;
	a->ev.ev_max_fmt_profiles = MRC_PROFILE_ID_MAX;
	a->ev.ev_max_profiles = MRC_PROFILE_ID_MAX;
	a->ev.ev_max_count = MRC_MAX_EVS;
	a->ev.ev_free_count = MRC_MAX_EVS;
	a->ev.ev_max_count_profile = MRC_MAX_EVS;
	a->ev.ev_count_align = 1;
	a->ev.ev_max_width = 16;	/* an EV is a 16-bit entropy */
	a->ev.ev_fmt_mode_mask = MRC_CTL_EV_FMT_MODE_STEV |
				 MRC_CTL_EV_FMT_MODE_SRV6 |
				 MRC_CTL_EV_FMT_MODE_UDP;
	a->ev.ev_mode_mask = MRC_CTL_EV_MODE_AUTO | MRC_CTL_EV_MODE_EXP;
	a->ev.ev_op_max_entries = MRC_MAX_EVS;
	a->cc.cc_max_profiles = MRC_PROFILE_ID_MAX;
	/* The API's type is not const; the strings are ours all the same. */
	a->cc.algorithms = (const char **)mrc_ctl_algorithms;
	a->phy_port_mask = ((1u << info.nplanes) - 1) << 1;
	a->opt_attr = MRC_CTL_OPT_CAP_EV_PROFILE_MODIFY_ONLINE |
		      MRC_CTL_OPT_CAP_CC_PROFILE_MODIFY_ONLINE |
		      MRC_CTL_OPT_CAP_EV_EVENT;
	return 0;
}

MRC_EXPORT int mrc_ctl_query_device_ex(struct ibv_context *context,
				       struct mrc_context *mcontext,
				       struct mrc_ctl_device_attr *ctl_attr,
				       int *supported)
{
	struct mrc_nl nl;
	int err;

	if (mcontext) {
		if (mcontext->vctx != context)
			return mrc_fail(EINVAL);
		return mrc_fail(mrc_ctl_query(context, &mcontext->nl,
					      ctl_attr, supported));
	}
	err = mrc_nl_open(&nl);
	if (err == ENODEV && supported && context && ctl_attr) {
		memset(ctl_attr, 0, sizeof(*ctl_attr));
		*supported = 0;
		return 0;
	}
	if (err)
		return mrc_fail(err);
	err = mrc_ctl_query(context, &nl, ctl_attr, supported);
	mrc_nl_close(&nl);
	return mrc_fail(err);
}

MRC_EXPORT int mrc_ctl_query_device(struct ibv_context *context,
				    struct mrc_ctl_device_attr *ctl_attr)
{
	return mrc_ctl_query_device_ex(context, NULL, ctl_attr, NULL);
}

static int mrc_ctl_port_check(struct mrc_context *ctx, uint8_t port_num,
			      const void *attr, int attr_mask,
			      struct mrc_dev_info *info)
{
	int err;

	if (!ctx || !attr || ((unsigned int)attr_mask & ~MRC_CTL_PORT_ADMIN_STATE))
		return EINVAL;
	err = mrc_dev_info(&ctx->nl, ctx->name, info);
	if (err)
		return err;
	if (!port_num || port_num > info->nplanes)
		return EINVAL;
	return 0;
}

MRC_EXPORT int mrc_ctl_query_port(struct mrc_context *context,
				  uint8_t port_num,
				  struct mrc_ctl_port_attr *attr, int attr_mask)
{
	struct mrc_dev_info info;
	int err;

	err = mrc_ctl_port_check(context, port_num, attr, attr_mask, &info);
	if (err)
		return mrc_fail(err);
	if (attr_mask & MRC_CTL_PORT_ADMIN_STATE)
		attr->port_admin_state = info.port_up & (1u << port_num) ?
			MRC_CTL_PORT_ADMIN_ENABLED : MRC_CTL_PORT_ADMIN_DISABLED;
	return 0;
}

MRC_EXPORT int mrc_ctl_modify_port(struct mrc_context *context,
				   uint8_t port_num,
				   struct mrc_ctl_port_attr *attr, int attr_mask)
{
	struct nlattr *planes, *plane;
	struct mrc_dev_info info;
	struct nlmsghdr *nlh;
	int err;

	err = mrc_ctl_port_check(context, port_num, attr, attr_mask, &info);
	if (err)
		return mrc_fail(err);
	if (!(attr_mask & MRC_CTL_PORT_ADMIN_STATE))
		return 0;
	if (attr->port_admin_state != MRC_CTL_PORT_ADMIN_DISABLED &&
	    attr->port_admin_state != MRC_CTL_PORT_ADMIN_ENABLED)
		return mrc_fail(EINVAL);
	nlh = mrc_nl_msg(&context->nl, MRC_CMD_PLANE_SET);
	mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, context->name);
	planes = mnl_attr_nest_start(nlh, MRC_A_DEV_PLANES);
	plane = mnl_attr_nest_start(nlh, MRC_A_PLANE);
	mnl_attr_put_u32(nlh, MRC_A_PLANE_INDEX, port_num - 1u);
	mnl_attr_put_u8(nlh, MRC_A_PLANE_ADMIN,
			attr->port_admin_state == MRC_CTL_PORT_ADMIN_ENABLED ?
			MRC_PLANE_ADMIN_UP : MRC_PLANE_ADMIN_DOWN);
	mnl_attr_nest_end(nlh, plane);
	mnl_attr_nest_end(nlh, planes);
	return mrc_fail(mrc_nl_talk(&context->nl, nlh, NULL, NULL));
}

/* ---- not backed yet: EOPNOTSUPP, as Documentation/libmrc.md says ------- */

MRC_EXPORT int mrc_ctl_ep_batch_send_wait(struct mrc_context *mrc_ctx,
					  uint8_t req_tc,
					  enum mrc_ctl_ep_op_type op_type,
					  struct mrc_ctl_ep_req *req,
					  int num_req, uint32_t rsp_timeout,
					  struct mrc_ctl_ep_rsp *rsp,
					  int *num_rsp)
{
	(void)mrc_ctx; (void)req_tc; (void)op_type; (void)req; (void)num_req;
	(void)rsp_timeout; (void)rsp; (void)num_rsp;
	return mrc_fail(EOPNOTSUPP);
}
