/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * libmrc, the application half: the OCP MRC application API 1.0.1 over
 * mrc's verbs device and its "mrc" generic netlink family.
 *
 * This header is mrc's own text.  Names, signatures, structure layouts and
 * enum values are those of the OCP API, so that a program written for it
 * compiles and runs against libmrc unchanged; the layout test
 * (tools/lib/mrc/tests/layout.c) holds them to that.  What each call does
 * on mrc, and which parts answer EOPNOTSUPP and why, is in
 * Documentation/libmrc.md and the section 3 man pages.
 */
#ifndef _MRC_API_H_
#define _MRC_API_H_

#include <stdint.h>
#include <infiniband/verbs.h>

#include <mrc_api_ver.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of opaque provider configuration in hints and QP attributes. */
#define MRC_MAX_VENDOR_CFG_SIZE 128

/* Wire protocol versions, one bit each; 0 asks for the provider's choice. */
enum mrc_protocol_version {
	MRC_PROTOCOL_VERSION_0	= 0,
	MRC_PROTOCOL_VERSION_1	= 1 << 0,
};

struct mrc_context;
struct mrc_qp_hint;
struct mrc_qp;
struct mrc_cq;
struct mrc_comp_channel;

/* Optional device features (mrc_device_attr.cap). */
enum mrc_device_cap {
	MRC_DEVICE_CAP_TRIM_NACK	= 1 << 0,
	MRC_DEVICE_CAP_DYNAMIC_MPR	= 1 << 1,
	MRC_DEVICE_CAP_SVC_TIME		= 1 << 2,
};

/* What mrc_query_device() reports. */
struct mrc_device_attr {
	uint32_t mrc_protocol_version;	/* bitmap of enum mrc_protocol_version */

	struct {
		uint16_t max_wimm;	/* WRITE_IMMs in flight, as requester */
		uint16_t max_wimm_dest;	/* the same, as responder */
	} wimm_attr;

	struct {
		uint8_t max_mpr;	/* largest MPR, units of 128 PSNs */
		uint8_t mpr_resolution;	/* MPR granularity, same units */
	} mpr_attr;

	struct {
		uint32_t max_qp_hint;
	} qp_attr;

	uint32_t cap;			/* enum mrc_device_cap bits */
};

#if MRC_API_VER_USED >= MRC_API_VER(1, 0, 1)
int mrc_query_device_ex(struct ibv_context *context,
			struct mrc_context *mcontext,
			struct mrc_device_attr *attr,
			int *supported);
#endif
int mrc_query_device(struct ibv_context *context,
		     struct mrc_device_attr *attr,
		     int *supported);

void mrc_query_version(uint32_t *current_version,
		       uint32_t *last_supported_version,
		       uint32_t *vendor_version,
		       uint32_t *last_supported_vendor_version);

/* The API versions a program says it uses; 0: not said. */
struct mrc_context_attr {
	uint32_t mrc_api_version_used;
	uint32_t mrc_vendor_api_version_used;
};

struct mrc_context *mrc_create_context(struct ibv_context *vcontext,
				       struct mrc_context_attr *context_attr);
int mrc_destroy_context(struct mrc_context *mrc_ctx);

int mrc_create_comp_channel(struct mrc_context *mrc_ctx,
			    struct mrc_comp_channel **channel);
int mrc_get_comp_channel_fd(struct mrc_comp_channel *channel, int *fd);
int mrc_destroy_comp_channel(struct mrc_comp_channel *channel);

struct mrc_cq *mrc_create_cq(struct mrc_context *mrc_ctx, int cqe,
			     void *cq_context,
			     struct mrc_comp_channel *channel,
			     int comp_vector);
int mrc_poll_cq(struct mrc_cq *cq, int num_entries, struct ibv_wc *wc);
int mrc_destroy_cq(struct mrc_cq *cq);

/* How a set of QPs is expected to be used; mrc keeps it and reports it. */
struct mrc_qp_hint_attr {
	int num_qps_per_peer;		/* QPs to one peer address at once */
	int num_send_peers;		/* peer addresses sent to at once */
	int num_remote_recv_peers;	/* remote QPs aiming at one peer */
	uint8_t vendor_cfg[MRC_MAX_VENDOR_CFG_SIZE];
};

enum mrc_qp_hint_attr_mask {
	MRC_QP_HINT_NUM_QPS_PER_PEER		= 1 << 0,
	MRC_QP_HINT_NUM_SEND_PEERS		= 1 << 1,
	MRC_QP_HINT_NUM_REMOTE_RECV_PEERS	= 1 << 2,
	MRC_QP_HINT_VENDOR_CFG			= 1 << 31
};

struct mrc_qp_hint_init_attr {
	struct mrc_qp_hint_attr attr;
};

struct mrc_qp_hint *mrc_create_qp_hint(struct mrc_context *mrc_ctx,
				       struct mrc_qp_hint_init_attr *init_attr);
int mrc_destroy_qp_hint(struct mrc_qp_hint *qp_hint);
int mrc_query_qp_hint(struct mrc_qp_hint *qp_hint,
		      struct mrc_qp_hint_attr *qp_hint_attr,
		      int qp_hint_attr_mask);
int mrc_modify_qp_hint(struct mrc_qp_hint *qp_hint,
		       struct mrc_qp_hint_attr *qp_hint_attr,
		       int qp_hint_attr_mask);

struct mrc_qp_init_attr {
	void			*qp_context;
	struct mrc_cq		*send_cq;
	struct mrc_cq		*recv_cq;
	struct ibv_qp_cap	cap;
	int			sq_sig_all;
	struct ibv_pd		*pd;
	uint64_t		send_ops_flags;	/* ibv_qp_create_send_ops_flags */
	enum mrc_protocol_version protocol_version;	/* one bit, or 0 */
};

struct mrc_qp *mrc_create_qp(struct mrc_context *mrc_ctx,
			     struct mrc_qp_init_attr *mrc_qp_attr);
int mrc_destroy_qp(struct mrc_qp *qp);

/*
 * The MRC attributes mrc_modify_qp() takes, and the transition each
 * belongs to: profiles and hint on RESET->INIT, the responder's on
 * INIT->RTR, the requester's on RTR->RTS.
 */
enum mrc_qp_attr_mask {
	MRC_QP_MAX_WIMM			= 1 << 0,
	MRC_QP_MAX_WIMM_DEST		= 1 << 1,
	MRC_QP_MPR			= 1 << 2,
	MRC_QP_MPR_DEST			= 1 << 3,
	MRC_QP_TIMEOUT			= 1 << 4,
	MRC_QP_EV_PROFILE_ID		= 1 << 5,
	MRC_QP_CC_PROFILE_ID		= 1 << 6,
	MRC_QP_HINT			= 1 << 7,
	MRC_QP_RETRY_CNT		= 1 << 8,
	MRC_QP_CAP			= 1 << 9,
	MRC_QP_VENDOR_CFG		= 1 << 31
};

/* mrc_qp_attr.cap bits. */
enum mrc_qp_cap {
	MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED	= 1 << 0,
	MRC_QP_CAP_DYNAMIC_MPR			= 1 << 1,
	MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED	= 1 << 2
};

struct mrc_qp_attr {
	struct {
		uint8_t mpr;		/* requester, units of 128 PSNs */
		uint8_t mpr_dest;	/* responder, same units */
	} mpr;

	struct {
		uint16_t max_wimm;
		uint16_t max_wimm_dest;
	} wimm;

	uint8_t timeout;		/* ACK timeout 1.024 us << timeout */

	struct {			/* ids a controller gave the profiles */
		uint64_t ev_profile_id;
		uint64_t cc_profile_id;
	} profile;

	struct {
		uint8_t linear_cnt;	/* retries at the timeout, 0..7 */
		uint8_t exp_cnt;	/* then doubling it, 0..25 (25: ever) */
	} retry;

	struct mrc_qp_hint *qp_hint;	/* NULL: none */

	uint32_t cap;			/* enum mrc_qp_cap bits */

	uint8_t vendor_cfg[MRC_MAX_VENDOR_CFG_SIZE];
};

int mrc_query_qp(struct mrc_qp *qp,
		 struct ibv_qp_attr *vattr, int vattr_mask,
		 struct mrc_qp_attr *mrc_attr, int mrc_attr_mask,
		 struct mrc_qp_init_attr *init_attr);
int mrc_modify_qp(struct mrc_qp *qp,
		  struct ibv_qp_attr *vattr, int vattr_mask,
		  struct mrc_qp_attr *mrc_attr, int mrc_attr_mask);
int mrc_get_qpn(struct mrc_qp *qp, uint32_t *qpn);

int mrc_post_recv(struct mrc_qp *qp, struct ibv_recv_wr *wr,
		  struct ibv_recv_wr **bad_wr);
/* RDMA WRITE and WRITE with immediate only. */
int mrc_post_send(struct mrc_qp *qp, struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad_wr);

struct mrc_async_event {
	union {
		struct mrc_cq *cq;
		struct mrc_qp *qp;
		int port_num;
	} element;
	enum ibv_event_type event_type;
};

int mrc_get_async_event(struct mrc_context *mrc_ctx,
			struct mrc_async_event *event);
void mrc_ack_async_event(struct mrc_async_event *event);

int mrc_req_notify_cq(struct mrc_cq *cq, int solicited_only);
int mrc_get_cq_event(struct mrc_comp_channel *channel,
		     struct mrc_cq **cq, void **cq_context);
void mrc_ack_cq_events(struct mrc_cq *cq, unsigned int nevents);

#ifdef __cplusplus
}
#endif

#endif /* _MRC_API_H_ */
