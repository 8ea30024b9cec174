// SPDX-License-Identifier: GPL-2.0
/*
 * layout: libmrc's headers against the OCP MRC API 1.0.1 they declare.
 *
 * The expected values below were taken from the OCP headers (mrc.h,
 * mrc_ctl.h and their *_api_ver.h, repository
 * opencomputeproject/OCP-Multipath-Reliable-Connection at 662a150) by
 * compiling offsetof()/sizeof() probes against them on x86_64 (LP64); they
 * are kept here so that our headers cannot drift without this test saying
 * so.  Every function's type is checked at compile time (a mismatch does
 * not build); sizes, offsets, field sizes, enum values and version macros at run time,
 * one TAP line each.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <mrc_ctl.h>

/* The signature of each entry point, as the OCP headers declare it. */
#define SIG(name, ret, args) \
	static ret (*const sig_##name) args __attribute__((unused)) = name
SIG(mrc_query_device_ex, int, (struct ibv_context *context, struct mrc_context *mcontext, struct mrc_device_attr *attr, int *supported));
SIG(mrc_query_device, int, (struct ibv_context *context, struct mrc_device_attr *attr, int *supported));
SIG(mrc_query_version, void, (uint32_t *current_version, uint32_t *last_supported_version, uint32_t *vendor_version, uint32_t *last_supported_vendor_version));
SIG(mrc_create_context, struct mrc_context *, (struct ibv_context *vcontext, struct mrc_context_attr *context_attr));
SIG(mrc_destroy_context, int, (struct mrc_context *mrc_ctx));
SIG(mrc_create_comp_channel, int, (struct mrc_context *mrc_ctx, struct mrc_comp_channel **channel));
SIG(mrc_get_comp_channel_fd, int, (struct mrc_comp_channel *channel, int *fd));
SIG(mrc_destroy_comp_channel, int, (struct mrc_comp_channel *channel));
SIG(mrc_create_cq, struct mrc_cq *, (struct mrc_context *mrc_ctx, int cqe, void *cq_context, struct mrc_comp_channel *channel, int comp_vector));
SIG(mrc_poll_cq, int, (struct mrc_cq *cq, int num_entries, struct ibv_wc *wc));
SIG(mrc_destroy_cq, int, (struct mrc_cq *cq));
SIG(mrc_create_qp_hint, struct mrc_qp_hint *, (struct mrc_context *mrc_ctx, struct mrc_qp_hint_init_attr *init_attr));
SIG(mrc_destroy_qp_hint, int, (struct mrc_qp_hint *qp_hint));
SIG(mrc_query_qp_hint, int, (struct mrc_qp_hint *qp_hint, struct mrc_qp_hint_attr *qp_hint_attr, int qp_hint_attr_mask));
SIG(mrc_modify_qp_hint, int, (struct mrc_qp_hint *qp_hint, struct mrc_qp_hint_attr *qp_hint_attr, int qp_hint_attr_mask));
SIG(mrc_create_qp, struct mrc_qp *, (struct mrc_context *mrc_ctx, struct mrc_qp_init_attr *mrc_qp_attr));
SIG(mrc_destroy_qp, int, (struct mrc_qp *qp));
SIG(mrc_query_qp, int, (struct mrc_qp *qp, struct ibv_qp_attr *vattr, int vattr_mask, struct mrc_qp_attr *mrc_attr, int mrc_attr_mask, struct mrc_qp_init_attr *init_attr));
SIG(mrc_modify_qp, int, (struct mrc_qp *qp, struct ibv_qp_attr *vattr, int vattr_mask, struct mrc_qp_attr *mrc_attr, int mrc_attr_mask));
SIG(mrc_get_qpn, int, (struct mrc_qp *qp, uint32_t *qpn));
SIG(mrc_post_recv, int, (struct mrc_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr));
SIG(mrc_post_send, int, (struct mrc_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr));
SIG(mrc_get_async_event, int, (struct mrc_context *mrc_ctx, struct mrc_async_event *event));
SIG(mrc_ack_async_event, void, (struct mrc_async_event *event));
SIG(mrc_req_notify_cq, int, (struct mrc_cq *cq, int solicited_only));
SIG(mrc_get_cq_event, int, (struct mrc_comp_channel *channel, struct mrc_cq **cq, void **cq_context));
SIG(mrc_ack_cq_events, void, (struct mrc_cq *cq, unsigned int nevents));
SIG(mrc_ctl_query_device_ex, int, (struct ibv_context *context, struct mrc_context *mcontext, struct mrc_ctl_device_attr *ctl_attr, int *supported));
SIG(mrc_ctl_query_device, int, (struct ibv_context *context, struct mrc_ctl_device_attr *ctl_attr));
SIG(mrc_ctl_query_version, void, (uint32_t *current_version, uint32_t *last_supported_version, uint32_t *vendor_version, uint32_t *last_supported_vendor_version));
SIG(mrc_ctl_query_port, int, (struct mrc_context *context, uint8_t port_num, struct mrc_ctl_port_attr *attr, int attr_mask));
SIG(mrc_ctl_modify_port, int, (struct mrc_context *context, uint8_t port_num, struct mrc_ctl_port_attr *attr, int attr_mask));
SIG(mrc_ctl_modify_ev_fmt_profile, int, (struct mrc_context *mrc_ctx, uint64_t ev_fmt_profile_id, struct mrc_ctl_ev_fmt_profile_attr *attr, int attr_mask));
SIG(mrc_ctl_query_ev_fmt_profile, int, (struct mrc_context *mrc_ctx, uint64_t ev_fmt_profile_id, struct mrc_ctl_ev_fmt_profile_attr *attr, int attr_mask));
SIG(mrc_ctl_modify_ev_profile, int, (struct mrc_context *mrc_ctx, uint64_t ev_profile_id, struct mrc_ctl_ev_profile_attr *attr, int attr_mask));
SIG(mrc_ctl_query_ev_profile, int, (struct mrc_context *mrc_ctx, uint64_t ev_profile_id, struct mrc_ctl_ev_profile_attr *attr, int attr_mask));
SIG(mrc_ctl_modify_cc_profile, int, (struct mrc_context *mrc_ctx, uint64_t cc_profile_id, struct mrc_ctl_cc_profile_attr *attr, int attr_mask));
SIG(mrc_ctl_query_cc_profile, int, (struct mrc_context *mrc_ctx, uint64_t cc_profile_id, struct mrc_ctl_cc_profile_attr *attr, int attr_mask));
SIG(mrc_ctl_create_ev_event_cq, struct mrc_cq *, (struct mrc_context *mrc_ctx, int cqe, void *cq_context, struct mrc_comp_channel *channel, int comp_vector));
SIG(mrc_ctl_poll_ev_event, int, (struct mrc_cq *ev_cq, int num_entries, struct mrc_ctl_ev_event *ev_event));
SIG(mrc_ctl_ep_batch_send_wait, int, (struct mrc_context *mrc_ctx, uint8_t req_tc, enum mrc_ctl_ep_op_type op_type, struct mrc_ctl_ep_req *req, int num_req, uint32_t rsp_timeout, struct mrc_ctl_ep_rsp *rsp, int *num_rsp));

struct expect {
	const char *what;
	long long got;
	long long want;
};

#define SIZE(type, n)	{ "sizeof(" #type ")", sizeof(type), n }
#define OFF(type, field, n) \
	{ "offsetof(" #type ", " #field ")", offsetof(type, field), n }
#define FSIZE(type, field, n) \
	{ "sizeof(((" #type " *)0)->" #field ")", sizeof(((type *)0)->field), n }
#define VAL(name, n)	{ #name, (long long)(name), n }

static const struct expect table[] = {
	SIZE(struct mrc_device_attr, 20),
	OFF(struct mrc_device_attr, mrc_protocol_version, 0),
	FSIZE(struct mrc_device_attr, mrc_protocol_version, 4),
	OFF(struct mrc_device_attr, wimm_attr.max_wimm, 4),
	FSIZE(struct mrc_device_attr, wimm_attr.max_wimm, 2),
	OFF(struct mrc_device_attr, wimm_attr.max_wimm_dest, 6),
	FSIZE(struct mrc_device_attr, wimm_attr.max_wimm_dest, 2),
	OFF(struct mrc_device_attr, mpr_attr.max_mpr, 8),
	FSIZE(struct mrc_device_attr, mpr_attr.max_mpr, 1),
	OFF(struct mrc_device_attr, mpr_attr.mpr_resolution, 9),
	FSIZE(struct mrc_device_attr, mpr_attr.mpr_resolution, 1),
	OFF(struct mrc_device_attr, qp_attr.max_qp_hint, 12),
	FSIZE(struct mrc_device_attr, qp_attr.max_qp_hint, 4),
	OFF(struct mrc_device_attr, cap, 16),
	FSIZE(struct mrc_device_attr, cap, 4),
	SIZE(struct mrc_context_attr, 8),
	OFF(struct mrc_context_attr, mrc_api_version_used, 0),
	FSIZE(struct mrc_context_attr, mrc_api_version_used, 4),
	OFF(struct mrc_context_attr, mrc_vendor_api_version_used, 4),
	FSIZE(struct mrc_context_attr, mrc_vendor_api_version_used, 4),
	SIZE(struct mrc_qp_hint_attr, 140),
	OFF(struct mrc_qp_hint_attr, num_qps_per_peer, 0),
	FSIZE(struct mrc_qp_hint_attr, num_qps_per_peer, 4),
	OFF(struct mrc_qp_hint_attr, num_send_peers, 4),
	FSIZE(struct mrc_qp_hint_attr, num_send_peers, 4),
	OFF(struct mrc_qp_hint_attr, num_remote_recv_peers, 8),
	FSIZE(struct mrc_qp_hint_attr, num_remote_recv_peers, 4),
	OFF(struct mrc_qp_hint_attr, vendor_cfg, 12),
	FSIZE(struct mrc_qp_hint_attr, vendor_cfg, 128),
	SIZE(struct mrc_qp_hint_init_attr, 140),
	OFF(struct mrc_qp_hint_init_attr, attr, 0),
	FSIZE(struct mrc_qp_hint_init_attr, attr, 140),
	SIZE(struct mrc_qp_init_attr, 72),
	OFF(struct mrc_qp_init_attr, qp_context, 0),
	FSIZE(struct mrc_qp_init_attr, qp_context, 8),
	OFF(struct mrc_qp_init_attr, send_cq, 8),
	FSIZE(struct mrc_qp_init_attr, send_cq, 8),
	OFF(struct mrc_qp_init_attr, recv_cq, 16),
	FSIZE(struct mrc_qp_init_attr, recv_cq, 8),
	OFF(struct mrc_qp_init_attr, cap, 24),
	FSIZE(struct mrc_qp_init_attr, cap, 20),
	OFF(struct mrc_qp_init_attr, sq_sig_all, 44),
	FSIZE(struct mrc_qp_init_attr, sq_sig_all, 4),
	OFF(struct mrc_qp_init_attr, pd, 48),
	FSIZE(struct mrc_qp_init_attr, pd, 8),
	OFF(struct mrc_qp_init_attr, send_ops_flags, 56),
	FSIZE(struct mrc_qp_init_attr, send_ops_flags, 8),
	OFF(struct mrc_qp_init_attr, protocol_version, 64),
	FSIZE(struct mrc_qp_init_attr, protocol_version, 4),
	SIZE(struct mrc_qp_attr, 176),
	OFF(struct mrc_qp_attr, mpr.mpr, 0),
	FSIZE(struct mrc_qp_attr, mpr.mpr, 1),
	OFF(struct mrc_qp_attr, mpr.mpr_dest, 1),
	FSIZE(struct mrc_qp_attr, mpr.mpr_dest, 1),
	OFF(struct mrc_qp_attr, wimm.max_wimm, 2),
	FSIZE(struct mrc_qp_attr, wimm.max_wimm, 2),
	OFF(struct mrc_qp_attr, wimm.max_wimm_dest, 4),
	FSIZE(struct mrc_qp_attr, wimm.max_wimm_dest, 2),
	OFF(struct mrc_qp_attr, timeout, 6),
	FSIZE(struct mrc_qp_attr, timeout, 1),
	OFF(struct mrc_qp_attr, profile.ev_profile_id, 8),
	FSIZE(struct mrc_qp_attr, profile.ev_profile_id, 8),
	OFF(struct mrc_qp_attr, profile.cc_profile_id, 16),
	FSIZE(struct mrc_qp_attr, profile.cc_profile_id, 8),
	OFF(struct mrc_qp_attr, retry.linear_cnt, 24),
	FSIZE(struct mrc_qp_attr, retry.linear_cnt, 1),
	OFF(struct mrc_qp_attr, retry.exp_cnt, 25),
	FSIZE(struct mrc_qp_attr, retry.exp_cnt, 1),
	OFF(struct mrc_qp_attr, qp_hint, 32),
	FSIZE(struct mrc_qp_attr, qp_hint, 8),
	OFF(struct mrc_qp_attr, cap, 40),
	FSIZE(struct mrc_qp_attr, cap, 4),
	OFF(struct mrc_qp_attr, vendor_cfg, 44),
	FSIZE(struct mrc_qp_attr, vendor_cfg, 128),
	SIZE(struct mrc_async_event, 16),
	OFF(struct mrc_async_event, element.cq, 0),
	FSIZE(struct mrc_async_event, element.cq, 8),
	OFF(struct mrc_async_event, element.qp, 0),
	FSIZE(struct mrc_async_event, element.qp, 8),
	OFF(struct mrc_async_event, element.port_num, 0),
	FSIZE(struct mrc_async_event, element.port_num, 4),
	OFF(struct mrc_async_event, event_type, 8),
	FSIZE(struct mrc_async_event, event_type, 4),
	SIZE(struct mrc_ctl_device_attr, 72),
	OFF(struct mrc_ctl_device_attr, mrc_ctl_protocol_version, 0),
	FSIZE(struct mrc_ctl_device_attr, mrc_ctl_protocol_version, 4),
	OFF(struct mrc_ctl_device_attr, ev.ev_max_fmt_profiles, 4),
	FSIZE(struct mrc_ctl_device_attr, ev.ev_max_fmt_profiles, 4),
	OFF(struct mrc_ctl_device_attr, ev.ev_max_profiles, 8),
	FSIZE(struct mrc_ctl_device_attr, ev.ev_max_profiles, 4),
	OFF(struct mrc_ctl_device_attr, ev.ev_max_count, 12),
	FSIZE(struct mrc_ctl_device_attr, ev.ev_max_count, 4),
	OFF(struct mrc_ctl_device_attr, ev.ev_free_count, 16),
	FSIZE(struct mrc_ctl_device_attr, ev.ev_free_count, 4),
	OFF(struct mrc_ctl_device_attr, ev.ev_max_count_profile, 20),
	FSIZE(struct mrc_ctl_device_attr, ev.ev_max_count_profile, 4),
	OFF(struct mrc_ctl_device_attr, ev.ev_count_align, 24),
	FSIZE(struct mrc_ctl_device_attr, ev.ev_count_align, 4),
	OFF(struct mrc_ctl_device_attr, ev.ev_max_width, 28),
	FSIZE(struct mrc_ctl_device_attr, ev.ev_max_width, 4),
	OFF(struct mrc_ctl_device_attr, ev.ev_fmt_mode_mask, 32),
	FSIZE(struct mrc_ctl_device_attr, ev.ev_fmt_mode_mask, 4),
	OFF(struct mrc_ctl_device_attr, ev.ev_mode_mask, 36),
	FSIZE(struct mrc_ctl_device_attr, ev.ev_mode_mask, 4),
	OFF(struct mrc_ctl_device_attr, ev.ev_op_max_entries, 40),
	FSIZE(struct mrc_ctl_device_attr, ev.ev_op_max_entries, 4),
	OFF(struct mrc_ctl_device_attr, cc.cc_max_profiles, 48),
	FSIZE(struct mrc_ctl_device_attr, cc.cc_max_profiles, 4),
	OFF(struct mrc_ctl_device_attr, cc.algorithms, 56),
	FSIZE(struct mrc_ctl_device_attr, cc.algorithms, 8),
	OFF(struct mrc_ctl_device_attr, phy_port_mask, 64),
	FSIZE(struct mrc_ctl_device_attr, phy_port_mask, 4),
	OFF(struct mrc_ctl_device_attr, opt_attr, 68),
	FSIZE(struct mrc_ctl_device_attr, opt_attr, 4),
	SIZE(struct mrc_ctl_port_attr, 4),
	OFF(struct mrc_ctl_port_attr, port_admin_state, 0),
	FSIZE(struct mrc_ctl_port_attr, port_admin_state, 4),
	SIZE(struct mrc_ctl_ev_fmt_field, 1),
	OFF(struct mrc_ctl_ev_fmt_field, width, 0),
	FSIZE(struct mrc_ctl_ev_fmt_field, width, 1),
	SIZE(struct mrc_ctl_ev_fmt_profile_attr, 168),
	OFF(struct mrc_ctl_ev_fmt_profile_attr, profile_state, 0),
	FSIZE(struct mrc_ctl_ev_fmt_profile_attr, profile_state, 4),
	OFF(struct mrc_ctl_ev_fmt_profile_attr, cur_profile_state, 4),
	FSIZE(struct mrc_ctl_ev_fmt_profile_attr, cur_profile_state, 4),
	OFF(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_mode, 8),
	FSIZE(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_mode, 4),
	OFF(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_op.op, 16),
	FSIZE(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_op.op, 4),
	OFF(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_op.fmt_fields, 24),
	FSIZE(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_op.fmt_fields, 8),
	OFF(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_op.fmt_field_count, 32),
	FSIZE(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_op.fmt_field_count, 4),
	OFF(struct mrc_ctl_ev_fmt_profile_attr, vendor_cfg, 40),
	FSIZE(struct mrc_ctl_ev_fmt_profile_attr, vendor_cfg, 128),
	SIZE(struct mrc_ctl_ev, 33),
	OFF(struct mrc_ctl_ev, val, 0),
	FSIZE(struct mrc_ctl_ev, val, 32),
	OFF(struct mrc_ctl_ev, port, 32),
	FSIZE(struct mrc_ctl_ev, port, 1),
	SIZE(struct mrc_ctl_ev_field, 20),
	OFF(struct mrc_ctl_ev_field, width, 0),
	FSIZE(struct mrc_ctl_ev_field, width, 4),
	OFF(struct mrc_ctl_ev_field, init_val, 4),
	FSIZE(struct mrc_ctl_ev_field, init_val, 4),
	OFF(struct mrc_ctl_ev_field, min_val, 8),
	FSIZE(struct mrc_ctl_ev_field, min_val, 4),
	OFF(struct mrc_ctl_ev_field, max_val, 12),
	FSIZE(struct mrc_ctl_ev_field, max_val, 4),
	OFF(struct mrc_ctl_ev_field, mask, 16),
	FSIZE(struct mrc_ctl_ev_field, mask, 4),
	SIZE(struct mrc_ctl_ev_op_entry, 76),
	OFF(struct mrc_ctl_ev_op_entry, ev, 0),
	FSIZE(struct mrc_ctl_ev_op_entry, ev, 33),
	OFF(struct mrc_ctl_ev_op_entry, ev_new, 33),
	FSIZE(struct mrc_ctl_ev_op_entry, ev_new, 33),
	OFF(struct mrc_ctl_ev_op_entry, state, 68),
	FSIZE(struct mrc_ctl_ev_op_entry, state, 4),
	OFF(struct mrc_ctl_ev_op_entry, flags, 72),
	FSIZE(struct mrc_ctl_ev_op_entry, flags, 4),
	SIZE(struct mrc_ctl_ev_profile_attr, 216),
	OFF(struct mrc_ctl_ev_profile_attr, profile_state, 0),
	FSIZE(struct mrc_ctl_ev_profile_attr, profile_state, 4),
	OFF(struct mrc_ctl_ev_profile_attr, cur_profile_state, 4),
	FSIZE(struct mrc_ctl_ev_profile_attr, cur_profile_state, 4),
	OFF(struct mrc_ctl_ev_profile_attr, ev_mode, 8),
	FSIZE(struct mrc_ctl_ev_profile_attr, ev_mode, 4),
	OFF(struct mrc_ctl_ev_profile_attr, ev_fmt_profile_id, 16),
	FSIZE(struct mrc_ctl_ev_profile_attr, ev_fmt_profile_id, 8),
	OFF(struct mrc_ctl_ev_profile_attr, ev_count, 24),
	FSIZE(struct mrc_ctl_ev_profile_attr, ev_count, 4),
	OFF(struct mrc_ctl_ev_profile_attr, ev_min_active, 28),
	FSIZE(struct mrc_ctl_ev_profile_attr, ev_min_active, 4),
	OFF(struct mrc_ctl_ev_profile_attr, ev_event_mask, 32),
	FSIZE(struct mrc_ctl_ev_profile_attr, ev_event_mask, 4),
	OFF(struct mrc_ctl_ev_profile_attr, ev_op.op, 40),
	FSIZE(struct mrc_ctl_ev_profile_attr, ev_op.op, 4),
	OFF(struct mrc_ctl_ev_profile_attr, ev_op.entries, 48),
	FSIZE(struct mrc_ctl_ev_profile_attr, ev_op.entries, 8),
	OFF(struct mrc_ctl_ev_profile_attr, ev_op.entry_count, 56),
	FSIZE(struct mrc_ctl_ev_profile_attr, ev_op.entry_count, 4),
	OFF(struct mrc_ctl_ev_profile_attr, ev_fields_op.op, 64),
	FSIZE(struct mrc_ctl_ev_profile_attr, ev_fields_op.op, 4),
	OFF(struct mrc_ctl_ev_profile_attr, ev_fields_op.fields, 72),
	FSIZE(struct mrc_ctl_ev_profile_attr, ev_fields_op.fields, 8),
	OFF(struct mrc_ctl_ev_profile_attr, ev_fields_op.field_count, 80),
	FSIZE(struct mrc_ctl_ev_profile_attr, ev_fields_op.field_count, 4),
	OFF(struct mrc_ctl_ev_profile_attr, vendor_cfg, 88),
	FSIZE(struct mrc_ctl_ev_profile_attr, vendor_cfg, 128),
	SIZE(struct mrc_ctl_cc_profile_attr, 152),
	OFF(struct mrc_ctl_cc_profile_attr, profile_state, 0),
	FSIZE(struct mrc_ctl_cc_profile_attr, profile_state, 4),
	OFF(struct mrc_ctl_cc_profile_attr, cur_profile_state, 4),
	FSIZE(struct mrc_ctl_cc_profile_attr, cur_profile_state, 4),
	OFF(struct mrc_ctl_cc_profile_attr, algorithm, 8),
	FSIZE(struct mrc_ctl_cc_profile_attr, algorithm, 8),
	OFF(struct mrc_ctl_cc_profile_attr, cc_config, 16),
	FSIZE(struct mrc_ctl_cc_profile_attr, cc_config, 8),
	OFF(struct mrc_ctl_cc_profile_attr, vendor_cfg, 24),
	FSIZE(struct mrc_ctl_cc_profile_attr, vendor_cfg, 128),
	SIZE(struct mrc_ctl_cc_nscc_cfg, 52),
	OFF(struct mrc_ctl_cc_nscc_cfg, disable_qa, 0),
	FSIZE(struct mrc_ctl_cc_nscc_cfg, disable_qa, 1),
	OFF(struct mrc_ctl_cc_nscc_cfg, adjust_bytes_threshold, 4),
	FSIZE(struct mrc_ctl_cc_nscc_cfg, adjust_bytes_threshold, 4),
	OFF(struct mrc_ctl_cc_nscc_cfg, adjust_period_threshold, 8),
	FSIZE(struct mrc_ctl_cc_nscc_cfg, adjust_period_threshold, 4),
	OFF(struct mrc_ctl_cc_nscc_cfg, base_rtt, 12),
	FSIZE(struct mrc_ctl_cc_nscc_cfg, base_rtt, 4),
	OFF(struct mrc_ctl_cc_nscc_cfg, eta, 16),
	FSIZE(struct mrc_ctl_cc_nscc_cfg, eta, 4),
	OFF(struct mrc_ctl_cc_nscc_cfg, fi, 20),
	FSIZE(struct mrc_ctl_cc_nscc_cfg, fi, 4),
	OFF(struct mrc_ctl_cc_nscc_cfg, fi_scale, 24),
	FSIZE(struct mrc_ctl_cc_nscc_cfg, fi_scale, 4),
	OFF(struct mrc_ctl_cc_nscc_cfg, gamma, 28),
	FSIZE(struct mrc_ctl_cc_nscc_cfg, gamma, 4),
	OFF(struct mrc_ctl_cc_nscc_cfg, max_md_jump, 32),
	FSIZE(struct mrc_ctl_cc_nscc_cfg, max_md_jump, 4),
	OFF(struct mrc_ctl_cc_nscc_cfg, max_cwnd, 36),
	FSIZE(struct mrc_ctl_cc_nscc_cfg, max_cwnd, 4),
	OFF(struct mrc_ctl_cc_nscc_cfg, qa_gate, 40),
	FSIZE(struct mrc_ctl_cc_nscc_cfg, qa_gate, 1),
	OFF(struct mrc_ctl_cc_nscc_cfg, qa_threshold, 44),
	FSIZE(struct mrc_ctl_cc_nscc_cfg, qa_threshold, 4),
	OFF(struct mrc_ctl_cc_nscc_cfg, target_delay, 48),
	FSIZE(struct mrc_ctl_cc_nscc_cfg, target_delay, 4),
	SIZE(struct mrc_ctl_ev_event, 56),
	OFF(struct mrc_ctl_ev_event, profile_id, 0),
	FSIZE(struct mrc_ctl_ev_event, profile_id, 8),
	OFF(struct mrc_ctl_ev_event, ev, 8),
	FSIZE(struct mrc_ctl_ev_event, ev, 33),
	OFF(struct mrc_ctl_ev_event, drop_count, 44),
	FSIZE(struct mrc_ctl_ev_event, drop_count, 4),
	OFF(struct mrc_ctl_ev_event, state, 48),
	FSIZE(struct mrc_ctl_ev_event, state, 4),
	SIZE(struct mrc_ctl_ep_req, 88),
	OFF(struct mrc_ctl_ep_req, req_id, 0),
	FSIZE(struct mrc_ctl_ep_req, req_id, 2),
	OFF(struct mrc_ctl_ep_req, sgid, 8),
	FSIZE(struct mrc_ctl_ep_req, sgid, 16),
	OFF(struct mrc_ctl_ep_req, dgid, 24),
	FSIZE(struct mrc_ctl_ep_req, dgid, 16),
	OFF(struct mrc_ctl_ep_req, ev_fmt_mode, 40),
	FSIZE(struct mrc_ctl_ep_req, ev_fmt_mode, 4),
	OFF(struct mrc_ctl_ep_req, req_ev, 44),
	FSIZE(struct mrc_ctl_ep_req, req_ev, 33),
	OFF(struct mrc_ctl_ep_req, op.port_status_update.port_status, 80),
	FSIZE(struct mrc_ctl_ep_req, op.port_status_update.port_status, 4),
	SIZE(struct mrc_ctl_ep_rsp, 12),
	OFF(struct mrc_ctl_ep_rsp, req_id, 0),
	FSIZE(struct mrc_ctl_ep_rsp, req_id, 2),
	OFF(struct mrc_ctl_ep_rsp, port, 2),
	FSIZE(struct mrc_ctl_ep_rsp, port, 1),
	OFF(struct mrc_ctl_ep_rsp, rtt, 4),
	FSIZE(struct mrc_ctl_ep_rsp, rtt, 4),
	OFF(struct mrc_ctl_ep_rsp, adj_svc_time, 8),
	FSIZE(struct mrc_ctl_ep_rsp, adj_svc_time, 1),
	VAL(MRC_PROTOCOL_VERSION_0, 0),
	VAL(MRC_PROTOCOL_VERSION_1, 1),
	VAL(MRC_DEVICE_CAP_TRIM_NACK, 1),
	VAL(MRC_DEVICE_CAP_DYNAMIC_MPR, 2),
	VAL(MRC_DEVICE_CAP_SVC_TIME, 4),
	VAL(MRC_QP_HINT_NUM_QPS_PER_PEER, 1),
	VAL(MRC_QP_HINT_NUM_SEND_PEERS, 2),
	VAL(MRC_QP_HINT_NUM_REMOTE_RECV_PEERS, 4),
	VAL(MRC_QP_HINT_VENDOR_CFG, -2147483648),
	VAL(MRC_QP_MAX_WIMM, 1),
	VAL(MRC_QP_MAX_WIMM_DEST, 2),
	VAL(MRC_QP_MPR, 4),
	VAL(MRC_QP_MPR_DEST, 8),
	VAL(MRC_QP_TIMEOUT, 16),
	VAL(MRC_QP_EV_PROFILE_ID, 32),
	VAL(MRC_QP_CC_PROFILE_ID, 64),
	VAL(MRC_QP_HINT, 128),
	VAL(MRC_QP_RETRY_CNT, 256),
	VAL(MRC_QP_CAP, 512),
	VAL(MRC_QP_VENDOR_CFG, -2147483648),
	VAL(MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED, 1),
	VAL(MRC_QP_CAP_DYNAMIC_MPR, 2),
	VAL(MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED, 4),
	VAL(MRC_CTL_PROTOCOL_VERSION_0, 0),
	VAL(MRC_CTL_PROTOCOL_VERSION_1, 1),
	VAL(MRC_CTL_OPT_CAP_EV_PROFILE_MODIFY_ONLINE, 1),
	VAL(MRC_CTL_OPT_CAP_CC_PROFILE_MODIFY_ONLINE, 2),
	VAL(MRC_CTL_OPT_CAP_EV_EVENT, 4),
	VAL(MRC_CTL_OPT_CAP_EV_EXPLICIT_RANGE, 8),
	VAL(MRC_CTL_OPT_CAP_EV_EVENT_PRECISE_DROP_CNT, 16),
	VAL(MRC_CTL_OPT_CAP_EP_OP_EV_PROBE, 32),
	VAL(MRC_CTL_PORT_ADMIN_DISABLED, 0),
	VAL(MRC_CTL_PORT_ADMIN_ENABLED, 1),
	VAL(MRC_CTL_PORT_ADMIN_STATE, 1),
	VAL(MRC_CTL_EV_FMT_MODE_STEV, 1),
	VAL(MRC_CTL_EV_FMT_MODE_SRV6, 2),
	VAL(MRC_CTL_EV_FMT_MODE_UDP, 4),
	VAL(MRC_CTL_EV_FMT_PROFILE_STATE, 1),
	VAL(MRC_CTL_EV_FMT_PROFILE_CUR_STATE, 2),
	VAL(MRC_CTL_EV_FMT_PROFILE_MODE, 4),
	VAL(MRC_CTL_EV_FMT_PROFILE_OP, 8),
	VAL(MRC_CTL_EV_FMT_VENDOR_CFG, -2147483648),
	VAL(MRC_CTL_EV_GOOD, 1),
	VAL(MRC_CTL_EV_ASSUMED_BAD, 2),
	VAL(MRC_CTL_EV_DENIED, 4),
	VAL(MRC_CTL_EV_UNKNOWN, -2147483648),
	VAL(MRC_CTL_EV_MODE_AUTO, 1),
	VAL(MRC_CTL_EV_MODE_EXP, 2),
	VAL(MRC_CTL_EV_MODE_GEN, 4),
	VAL(MRC_CTL_EV_PROFILE_STATE, 1),
	VAL(MRC_CTL_EV_PROFILE_CUR_STATE, 2),
	VAL(MRC_CTL_EV_PROFILE_MODE, 4),
	VAL(MRC_CTL_EV_PROFILE_FMT_ID, 8),
	VAL(MRC_CTL_EV_PROFILE_COUNT, 16),
	VAL(MRC_CTL_EV_PROFILE_MIN_ACTIVE, 32),
	VAL(MRC_CTL_EV_PROFILE_EVENT_MASK, 64),
	VAL(MRC_CTL_EV_PROFILE_EV_OP, 128),
	VAL(MRC_CTL_EV_PROFILE_EV_FIELDS_OP, 256),
	VAL(MRC_CTL_EV_PROFILE_VENDOR_CFG, -2147483648),
	VAL(MRC_CTL_EV_OP_F_ALL_COPIES, 1),
	VAL(MRC_CTL_CC_PROFILE_STATE, 1),
	VAL(MRC_CTL_CC_PROFILE_CUR_STATE, 2),
	VAL(MRC_CTL_CC_PROFILE_ALGORITHM, 4),
	VAL(MRC_CTL_CC_PROFILE_CONFIG, 8),
	VAL(MRC_CTL_CC_PROFILE_VENDOR_CFG, -2147483648),
	VAL(MRC_API_CURRENT_VERSION, 16777217),
	VAL(MRC_API_LAST_SUPPORTED_VERSION, 0),
	VAL(MRC_API_VER_LATEST, -1),
	VAL(MRC_VENDOR_API_CURRENT_VERSION, 16777216),
	VAL(MRC_VENDOR_API_LAST_SUPPORTED_VERSION, 0),
	VAL(MRC_CTL_API_CURRENT_VERSION, 16777217),
	VAL(MRC_CTL_API_LAST_SUPPORTED_VERSION, 0),
	VAL(MRC_CTL_API_VER_LATEST, -1),
	VAL(MRC_CTL_VENDOR_API_CURRENT_VERSION, 16777216),
	VAL(MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION, 0),
	VAL(MRC_API_VER_USED, 16777217),
	VAL(MRC_CTL_API_VER_USED, 16777217),
	VAL(MRC_MAX_VENDOR_CFG_SIZE, 128),
	VAL(MRC_CTL_MAX_VENDOR_CFG_SIZE, 128),
	VAL(MRC_CTL_EV_MAX_BYTES, 32),
	SIZE(mrc_ctl_ev_t, 32),
};

int main(void)
{
	unsigned int i, fail = 0, n = sizeof(table) / sizeof(table[0]);

	printf("TAP version 13\n1..%u\n", n);
	for (i = 0; i < n; i++) {
		const struct expect *e = &table[i];
		int ok = e->got == e->want;

		printf("%sok %u - %s = %lld", ok ? "" : "not ", i + 1,
		       e->what, e->got);
		if (!ok)
			printf(" (the OCP API says %lld)", e->want);
		printf("\n");
		fail += !ok;
	}
	return fail ? 1 : 0;
}
