/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * libmrc, the controller half: the OCP MRC controller API 1.0.1 over mrc's
 * "mrc" generic netlink family.  Ports are mrc's planes; EV format, EV and
 * CC profiles are the family's profiles of the device's namespace.
 *
 * This header is mrc's own text, declaring the OCP API's names, layouts
 * and values (see mrc.h).  What each call does on mrc, and which parts
 * answer EOPNOTSUPP and why, is in Documentation/libmrc.md.
 */
#ifndef _MRC_CTL_API_H_
#define _MRC_CTL_API_H_

#include <stdint.h>
#include <infiniband/verbs.h>

#include <mrc.h>
#include <mrc_ctl_api_ver.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MRC_CTL_MAX_VENDOR_CFG_SIZE 128

/* An EV entry with nothing in it. */
#define MRC_CTL_EV_UNPOPULATED \
	((struct mrc_ctl_ev){ .val = { 0 }, .port = 0 })

#define MRC_CTL_EV_MAX_BYTES 32

enum mrc_ctl_protocol_version {
	MRC_CTL_PROTOCOL_VERSION_0	= 0,
	MRC_CTL_PROTOCOL_VERSION_1	= 1 << 0,
};

/* A profile is configured in INIT, then put ONLINE for QPs to use. */
enum mrc_ctl_profile_state {
	MRC_CTL_PROFILE_INIT,
	MRC_CTL_PROFILE_OFFLINE,
	MRC_CTL_PROFILE_ONLINE,
};

/* Optional controller features (mrc_ctl_device_attr.opt_attr). */
enum mrc_ctl_attr_opt {
	MRC_CTL_OPT_CAP_EV_PROFILE_MODIFY_ONLINE	= 1 << 0,
	MRC_CTL_OPT_CAP_CC_PROFILE_MODIFY_ONLINE	= 1 << 1,
	MRC_CTL_OPT_CAP_EV_EVENT			= 1 << 2,
	MRC_CTL_OPT_CAP_EV_EXPLICIT_RANGE		= 1 << 3,
	MRC_CTL_OPT_CAP_EV_EVENT_PRECISE_DROP_CNT	= 1 << 4,
	MRC_CTL_OPT_CAP_EP_OP_EV_PROBE			= 1 << 5
};

struct mrc_ctl_device_attr {
	uint32_t mrc_ctl_protocol_version;

	struct {
		uint32_t ev_max_fmt_profiles;
		uint32_t ev_max_profiles;
		uint32_t ev_max_count;		/* EVs across all profiles */
		uint32_t ev_free_count;		/* of those, not in use */
		uint32_t ev_max_count_profile;
		uint32_t ev_count_align;	/* explicit arrays: a multiple */
		uint32_t ev_max_width;		/* bits of an EV value */
		uint32_t ev_fmt_mode_mask;	/* enum mrc_ctl_ev_fmt_mode bits */
		uint32_t ev_mode_mask;		/* enum mrc_ctl_ev_mode bits */
		uint32_t ev_op_max_entries;	/* per EV_OP batch; 0: no cap */
	} ev;

	struct {
		uint32_t cc_max_profiles;
		/* NULL-terminated, owned by the library. */
		const char **algorithms;
	} cc;

	uint32_t phy_port_mask;		/* bit N: port N (1-based) */
	uint32_t opt_attr;		/* enum mrc_ctl_attr_opt bits */
};

#if MRC_CTL_API_VER_USED >= MRC_CTL_API_VER(1, 0, 1)
int mrc_ctl_query_device_ex(struct ibv_context *context,
			    struct mrc_context *mcontext,
			    struct mrc_ctl_device_attr *ctl_attr,
			    int *supported);
#endif
int mrc_ctl_query_device(struct ibv_context *context,
			 struct mrc_ctl_device_attr *ctl_attr);

void mrc_ctl_query_version(uint32_t *current_version,
			   uint32_t *last_supported_version,
			   uint32_t *vendor_version,
			   uint32_t *last_supported_vendor_version);

enum mrc_ctl_port_admin_state {
	MRC_CTL_PORT_ADMIN_DISABLED = 0,
	MRC_CTL_PORT_ADMIN_ENABLED  = 1,
};

enum mrc_ctl_port_attr_mask {
	MRC_CTL_PORT_ADMIN_STATE	= 1 << 0,
};

struct mrc_ctl_port_attr {
	enum mrc_ctl_port_admin_state port_admin_state;
};

int mrc_ctl_query_port(struct mrc_context *context, uint8_t port_num,
		       struct mrc_ctl_port_attr *attr, int attr_mask);
int mrc_ctl_modify_port(struct mrc_context *context, uint8_t port_num,
			struct mrc_ctl_port_attr *attr, int attr_mask);

/* Where the bits of an EV go in a packet. */
enum mrc_ctl_ev_fmt_mode {
	MRC_CTL_EV_FMT_MODE_STEV	= 1 << 0,
	MRC_CTL_EV_FMT_MODE_SRV6	= 1 << 1,
	MRC_CTL_EV_FMT_MODE_UDP		= 1 << 2,
};

enum mrc_ctl_ev_fmt_op {
	MRC_CTL_EV_FMT_OP_MODIFY_FIELDS,
	MRC_CTL_EV_FMT_OP_QUERY_FIELDS,
};

enum mrc_ctl_ev_fmt_profile_attr_mask {
	MRC_CTL_EV_FMT_PROFILE_STATE		= 1 << 0,
	MRC_CTL_EV_FMT_PROFILE_CUR_STATE	= 1 << 1,
	MRC_CTL_EV_FMT_PROFILE_MODE		= 1 << 2,
	MRC_CTL_EV_FMT_PROFILE_OP		= 1 << 3,
	MRC_CTL_EV_FMT_VENDOR_CFG		= 1 << 31,
};

struct mrc_ctl_ev_fmt_field {
	uint8_t width;			/* bits */
};

struct mrc_ctl_ev_fmt_profile_attr {
	enum mrc_ctl_profile_state profile_state;	/* go to */
	enum mrc_ctl_profile_state cur_profile_state;	/* is in */
	enum mrc_ctl_ev_fmt_mode ev_fmt_mode;

	struct {
		enum mrc_ctl_ev_fmt_op op;
		struct mrc_ctl_ev_fmt_field *fmt_fields;
		int fmt_field_count;	/* in: array room; out: used */
	} ev_fmt_op;

	uint8_t vendor_cfg[MRC_CTL_MAX_VENDOR_CFG_SIZE];
};

int mrc_ctl_modify_ev_fmt_profile(struct mrc_context *mrc_ctx,
				  uint64_t ev_fmt_profile_id,
				  struct mrc_ctl_ev_fmt_profile_attr *attr,
				  int attr_mask);
int mrc_ctl_query_ev_fmt_profile(struct mrc_context *mrc_ctx,
				 uint64_t ev_fmt_profile_id,
				 struct mrc_ctl_ev_fmt_profile_attr *attr,
				 int attr_mask);

typedef uint8_t mrc_ctl_ev_t[MRC_CTL_EV_MAX_BYTES];

/* One EV: its value, and the port (1-based) it leaves on. */
struct mrc_ctl_ev {
	mrc_ctl_ev_t val;
	uint8_t port;
};

enum mrc_ctl_ev_state {
	MRC_CTL_EV_GOOD		= 1 << 0,
	MRC_CTL_EV_ASSUMED_BAD	= 1 << 1,
	MRC_CTL_EV_DENIED	= 1 << 2,
	MRC_CTL_EV_UNKNOWN	= 1 << 31
};

/* Who chooses a profile's EVs: the device, the controller, or a rule. */
enum mrc_ctl_ev_mode {
	MRC_CTL_EV_MODE_AUTO	= 1 << 0,
	MRC_CTL_EV_MODE_EXP	= 1 << 1,
	MRC_CTL_EV_MODE_GEN	= 1 << 2,
};

enum mrc_ctl_ev_op {
	MRC_CTL_EV_OP_REPLACE_EV,
	MRC_CTL_EV_OP_MODIFY_EV_STATE,
	MRC_CTL_EV_OP_QUERY_EV_STATE,
	MRC_CTL_EV_OP_QUERY_EV_ARRAY,
};

enum mrc_ctl_ev_fields_op {
	MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS,
	MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS,
};

enum mrc_ctl_ev_profile_attr_mask {
	MRC_CTL_EV_PROFILE_STATE	= 1 << 0,
	MRC_CTL_EV_PROFILE_CUR_STATE	= 1 << 1,
	MRC_CTL_EV_PROFILE_MODE		= 1 << 2,
	MRC_CTL_EV_PROFILE_FMT_ID	= 1 << 3,
	MRC_CTL_EV_PROFILE_COUNT	= 1 << 4,
	MRC_CTL_EV_PROFILE_MIN_ACTIVE	= 1 << 5,
	MRC_CTL_EV_PROFILE_EVENT_MASK	= 1 << 6,
	MRC_CTL_EV_PROFILE_EV_OP	= 1 << 7,
	MRC_CTL_EV_PROFILE_EV_FIELDS_OP	= 1 << 8,
	MRC_CTL_EV_PROFILE_VENDOR_CFG	= 1 << 31,
};

/* One field of a generated EV: a range of values, EV bits laid over it. */
struct mrc_ctl_ev_field {
	uint32_t width;
	uint32_t init_val;
	uint32_t min_val;
	uint32_t max_val;
	uint32_t mask;
};

enum mrc_ctl_ev_op_flags {
	MRC_CTL_EV_OP_F_ALL_COPIES  = 1 << 0,	/* REPLACE_EV: every copy */
};

struct mrc_ctl_ev_op_entry {
	struct mrc_ctl_ev ev;
	struct mrc_ctl_ev ev_new;
	enum mrc_ctl_ev_state state;
	uint32_t flags;			/* enum mrc_ctl_ev_op_flags */
};

struct mrc_ctl_ev_profile_attr {
	enum mrc_ctl_profile_state profile_state;	/* go to */
	enum mrc_ctl_profile_state cur_profile_state;	/* is in */
	enum mrc_ctl_ev_mode ev_mode;
	uint64_t ev_fmt_profile_id;
	uint32_t ev_count;
	uint32_t ev_min_active;		/* at most ev_count */
	int ev_event_mask;		/* GOOD and ASSUMED_BAD events wanted */

	struct {
		enum mrc_ctl_ev_op op;
		struct mrc_ctl_ev_op_entry *entries;
		int entry_count;	/* in: array room; out: used */
	} ev_op;

	struct {
		enum mrc_ctl_ev_fields_op op;
		struct mrc_ctl_ev_field *fields;
		int field_count;	/* in: array room; out: used */
	} ev_fields_op;

	uint8_t vendor_cfg[MRC_CTL_MAX_VENDOR_CFG_SIZE];
};

int mrc_ctl_modify_ev_profile(struct mrc_context *mrc_ctx,
			      uint64_t ev_profile_id,
			      struct mrc_ctl_ev_profile_attr *attr,
			      int attr_mask);
int mrc_ctl_query_ev_profile(struct mrc_context *mrc_ctx,
			     uint64_t ev_profile_id,
			     struct mrc_ctl_ev_profile_attr *attr,
			     int attr_mask);

enum mrc_ctl_cc_profile_attr_mask {
	MRC_CTL_CC_PROFILE_STATE	= 1 << 0,
	MRC_CTL_CC_PROFILE_CUR_STATE	= 1 << 1,
	MRC_CTL_CC_PROFILE_ALGORITHM	= 1 << 2,
	MRC_CTL_CC_PROFILE_CONFIG	= 1 << 3,
	MRC_CTL_CC_PROFILE_VENDOR_CFG	= 1 << 31,
};

struct mrc_ctl_cc_profile_attr {
	enum mrc_ctl_profile_state profile_state;	/* go to */
	enum mrc_ctl_profile_state cur_profile_state;	/* is in */
	const char *algorithm;		/* one of cc.algorithms; NULL: no CC */
	const void *cc_config;		/* e.g. struct mrc_ctl_cc_nscc_cfg */
	uint8_t vendor_cfg[MRC_CTL_MAX_VENDOR_CFG_SIZE];
};

/* "uet-1.0-nscc"'s parameters; times in ns, sizes in bytes. */
struct mrc_ctl_cc_nscc_cfg {
	uint8_t disable_qa;
	uint32_t adjust_bytes_threshold;
	uint32_t adjust_period_threshold;
	uint32_t base_rtt;
	float eta;
	float fi;
	float fi_scale;
	float gamma;
	float max_md_jump;
	uint32_t max_cwnd;
	uint8_t qa_gate;
	uint32_t qa_threshold;
	uint32_t target_delay;
};

int mrc_ctl_modify_cc_profile(struct mrc_context *mrc_ctx,
			      uint64_t cc_profile_id,
			      struct mrc_ctl_cc_profile_attr *attr,
			      int attr_mask);
int mrc_ctl_query_cc_profile(struct mrc_context *mrc_ctx,
			     uint64_t cc_profile_id,
			     struct mrc_ctl_cc_profile_attr *attr,
			     int attr_mask);

/* One EV state change of a profile, as the event queue delivers it. */
struct mrc_ctl_ev_event {
	uint64_t profile_id;
	struct mrc_ctl_ev ev;
	uint32_t drop_count;	/* lost before this one (or 1: some were) */
#if MRC_CTL_API_VER_USED >= MRC_CTL_API_VER(1, 0, 1)
	enum mrc_ctl_ev_state state;
#endif
};

struct mrc_cq *mrc_ctl_create_ev_event_cq(struct mrc_context *mrc_ctx,
					  int cqe, void *cq_context,
					  struct mrc_comp_channel *channel,
					  int comp_vector);
int mrc_ctl_poll_ev_event(struct mrc_cq *ev_cq, int num_entries,
			  struct mrc_ctl_ev_event *ev_event);

/* Endpoint operations: connectionless, batched, answered by the peer. */
enum mrc_ctl_ep_op_type {
	MRC_CTL_EP_OP_EV_PROBE,
	MRC_CTL_EP_OP_PORT_STATUS_UPDATE
};

struct mrc_ctl_ep_req {
	uint16_t req_id;		/* unique among outstanding requests */
	union ibv_gid sgid;		/* RoCE v2 GIDs only */
	union ibv_gid dgid;
	enum mrc_ctl_ev_fmt_mode ev_fmt_mode;
	struct mrc_ctl_ev req_ev;
	union {
		struct {
			uint32_t port_status;	/* bit N: port N up */
		} port_status_update;
	} op;
};

struct mrc_ctl_ep_rsp {
	uint16_t req_id;
	uint8_t port;			/* answered on, 1-based */
	unsigned int rtt;		/* ns */
	uint8_t adj_svc_time;		/* rtt less the responder's time */
};

int mrc_ctl_ep_batch_send_wait(struct mrc_context *mrc_ctx,
			       uint8_t req_tc,
			       enum mrc_ctl_ep_op_type op_type,
			       struct mrc_ctl_ep_req *req,
			       int num_req,
			       uint32_t rsp_timeout,
			       struct mrc_ctl_ep_rsp *rsp,
			       int *num_rsp);

#ifdef __cplusplus
}
#endif

#endif /* _MRC_CTL_API_H_ */
