/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * mrc: Multipath Reliable Connection, a soft RDMA provider that sprays one
 * connection over several Ethernet "plane" netdevs.
 *
 * This header is the control interface of mrc: the generic netlink family
 * MRC_GENL_NAME, version MRC_GENL_VERSION.  It is not where the messages are
 * described, so that they are described once: in the mrc tree,
 * Documentation/netlink/specs/mrc.yaml (YNL) is the formal description of
 * every name, number, type and range, which make check holds this header
 * and the kernel's policies to (tools/testing/nl-spec-check.py), and
 * Documentation/netlink.md describes what every command does and lists
 * every error with its extended ack message.
 */

#ifndef _UAPI_LINUX_MRC_H
#define _UAPI_LINUX_MRC_H

#include <linux/types.h>

#define MRC_GENL_NAME		"mrc"
#define MRC_GENL_VERSION	1
#define MRC_GENL_MCGRP_EVENTS	"events"

/* Hard limits of this implementation, also reported by MRC_CMD_VERSION_GET. */
#define MRC_MAX_PLANES		16
#define MRC_MAX_EVS		256

/* Profile ids run from 1 to this; backup EVs per plane at most this. */
#define MRC_PROFILE_ID_MAX	65535
#define MRC_MAX_BACKUPS		32

/* MRC_CMD_QP_SET: MPRs count PSNs in these units; the retry that never ends. */
#define MRC_MPR_UNIT		128
#define MRC_MPR_MAX		8
#define MRC_MPR_DEST_MAX	32
#define MRC_RETRY_EXP_INFINITE	25

/* How long MRC_CMD_PROBE waits for its answer, milliseconds. */
#define MRC_PROBE_TIMEOUT_MS_DEFAULT	1000
#define MRC_PROBE_TIMEOUT_MS_MAX	60000

/* Default UDP destination port of MRC packets (mrc.ko parameter udp_port). */
#define MRC_UDP_PORT_DEFAULT	4793

/*
 * Numbers are ABI: new commands are only ever appended before __MRC_CMD_MAX.
 * Planned next (controller API): connectionless EV probes.
 */
enum mrc_cmd {
	MRC_CMD_UNSPEC,
	MRC_CMD_VERSION_GET,
	MRC_CMD_DEV_GET,
	MRC_CMD_DEV_NEW,
	MRC_CMD_DEV_DEL,
	MRC_CMD_EVPROF_NEW,
	MRC_CMD_EVPROF_SET,
	MRC_CMD_EVPROF_GET,
	MRC_CMD_EVPROF_DEL,
	MRC_CMD_CCPROF_NEW,
	MRC_CMD_CCPROF_SET,
	MRC_CMD_CCPROF_GET,
	MRC_CMD_CCPROF_DEL,
	MRC_CMD_PLANE_EVENT,
	MRC_CMD_PLANE_SET,
	MRC_CMD_QP_GET,
	MRC_CMD_EV_SET,
	MRC_CMD_EV_EVENT,
	MRC_CMD_QP_EVENT,
	MRC_CMD_DEV_SET,
	MRC_CMD_PROBE,
	MRC_CMD_SRV6_SET,
	MRC_CMD_SRV6_DEL,
	MRC_CMD_SRV6_GET,
	MRC_CMD_QP_SET,
	MRC_CMD_EVFMT_NEW,
	MRC_CMD_EVFMT_SET,
	MRC_CMD_EVFMT_GET,
	MRC_CMD_EVFMT_DEL,

	__MRC_CMD_MAX
};

#define MRC_CMD_MAX (__MRC_CMD_MAX - 1)

/* Top-level attributes of every command. */
enum mrc_attr {
	MRC_A_UNSPEC,
	MRC_A_VERSION_MODULE,	/* string */
	MRC_A_VERSION_GENL,	/* u32 */
	MRC_A_UDP_PORT,		/* u16 */
	MRC_A_MAX_PLANES,	/* u32 */
	MRC_A_MAX_EVS,		/* u32 */
	MRC_A_DEV_NAME,		/* string */
	MRC_A_DEV_INDEX,	/* u32 */
	MRC_A_DEV_PLANES,	/* nest of MRC_A_PLANE */
	MRC_A_EVPROF,		/* nest of enum mrc_evprof_attr */
	MRC_A_CCPROF,		/* nest of enum mrc_ccprof_attr */
	MRC_A_QP,		/* nest of enum mrc_qp_attr */
	MRC_A_PAD,		/* alignment padding, never parsed */
	MRC_A_DEV_EVPROF_ID,	/* u32, 0: none */
	MRC_A_DEV_CCPROF_ID,	/* u32, 0: none */
	MRC_A_PROBE_TIMEOUT_MS,	/* u32 */
	MRC_A_PROBE_RTT_NS,	/* u64 */
	MRC_A_SRV6,		/* nest of enum mrc_srv6_attr */
	MRC_A_EVFMT,		/* nest of enum mrc_evfmt_attr */

	__MRC_A_MAX
};

#define MRC_A_MAX (__MRC_A_MAX - 1)

/* Attributes inside MRC_A_DEV_PLANES. */
enum mrc_planes_attr {
	MRC_A_PLANES_UNSPEC,
	MRC_A_PLANE,		/* nest of enum mrc_plane_attr */

	__MRC_A_PLANES_MAX
};

#define MRC_A_PLANES_MAX (__MRC_A_PLANES_MAX - 1)

/* Attributes inside one MRC_A_PLANE. */
enum mrc_plane_attr {
	MRC_A_PLANE_UNSPEC,
	MRC_A_PLANE_INDEX,	/* u32 */
	MRC_A_PLANE_IFINDEX,	/* u32 */
	MRC_A_PLANE_IFNAME,	/* string */
	MRC_A_PLANE_STATE,	/* u8, enum mrc_plane_state */
	MRC_A_PLANE_ADMIN,	/* u8, enum mrc_plane_admin */

	__MRC_A_PLANE_MAX
};

#define MRC_A_PLANE_MAX (__MRC_A_PLANE_MAX - 1)

/* Up means the netdev is running and has carrier. */
enum mrc_plane_state {
	MRC_PLANE_STATE_DOWN,
	MRC_PLANE_STATE_UP
};

/* Set by the controller (MRC_CMD_PLANE_SET); a plane admin down is DOWN. */
enum mrc_plane_admin {
	MRC_PLANE_ADMIN_DOWN,
	MRC_PLANE_ADMIN_UP
};

/*
 * The definitions below belong to the controller API that the next commands
 * expose; they are fixed here so that their values never move.
 */

/* State of one entropy value (path); only GOOD EVs carry traffic. */
enum mrc_ev_state {
	MRC_EV_STATE_GOOD,
	MRC_EV_STATE_SKIP,		/* sits out its next turn (ECN, trim) */
	MRC_EV_STATE_ASSUMED_BAD,	/* loss seen; probed until it recovers */
	MRC_EV_STATE_DENIED		/* set and cleared by the controller */
};

/* Who chooses the EVs of a profile. */
enum mrc_ev_mode {
	MRC_EV_MODE_AUTO,	/* mrc picks them */
	MRC_EV_MODE_EXP,	/* the controller lists them explicitly */
	MRC_EV_MODE_GEN		/* generated from field width/min/max/mask */
};

/* Where an EV is carried in the packet. */
enum mrc_ev_format {
	MRC_EV_FORMAT_UDP,	/* UDP source port */
	MRC_EV_FORMAT_STEV,	/* structured EV */
	MRC_EV_FORMAT_SRV6	/* SRv6 segment list */
};

/* Life cycle of EV and CC profiles. */
enum mrc_profile_state {
	MRC_PROFILE_STATE_INIT,
	MRC_PROFILE_STATE_OFFLINE,
	MRC_PROFILE_STATE_ONLINE
};

/* Congestion control algorithm of a CC profile. */
enum mrc_cc_algo {
	MRC_CC_ALGO_NONE,
	MRC_CC_ALGO_NSCC	/* "uet-1.0-nscc" */
};

/* Attributes inside MRC_A_EVPROF. */
enum mrc_evprof_attr {
	MRC_A_EVPROF_UNSPEC,
	MRC_A_EVPROF_ID,		/* u32 */
	MRC_A_EVPROF_STATE,		/* u8, enum mrc_profile_state */
	MRC_A_EVPROF_MODE,		/* u8, enum mrc_ev_mode */
	MRC_A_EVPROF_FORMAT,		/* u8, enum mrc_ev_format */
	MRC_A_EVPROF_EV_COUNT,		/* u32 */
	MRC_A_EVPROF_MIN_ACTIVE,	/* u32 */
	MRC_A_EVPROF_BACKUPS,		/* u32, per plane */
	MRC_A_EVPROF_EVENT_MASK,	/* u32, MRC_EV_EVENT_* */
	MRC_A_EVPROF_ENTRIES,		/* nest of MRC_A_EV_ENTRY */
	MRC_A_EVPROF_FMT_ID,		/* u32, EV format profile, 0: none */

	__MRC_A_EVPROF_MAX
};

#define MRC_A_EVPROF_MAX (__MRC_A_EVPROF_MAX - 1)

/* Attributes inside MRC_A_EVPROF_ENTRIES. */
enum mrc_ev_entries_attr {
	MRC_A_EV_ENTRIES_UNSPEC,
	MRC_A_EV_ENTRY,			/* u64 */
	MRC_A_EV_ENTRIES_PAD,		/* alignment padding, never parsed */

	__MRC_A_EV_ENTRIES_MAX
};

#define MRC_A_EV_ENTRIES_MAX (__MRC_A_EV_ENTRIES_MAX - 1)

/*
 * EV transitions an EV profile reports on MRC_GENL_MCGRP_EVENTS, one bit per
 * target state.  As in the OCP controller API only GOOD and ASSUMED_BAD raise
 * events: SKIP lasts one rotation and DENIED is the controller's own doing.
 */
#define MRC_EV_EVENT_GOOD		(1U << MRC_EV_STATE_GOOD)
#define MRC_EV_EVENT_ASSUMED_BAD	(1U << MRC_EV_STATE_ASSUMED_BAD)
#define MRC_EV_EVENTS_ALL		(MRC_EV_EVENT_GOOD | \
					 MRC_EV_EVENT_ASSUMED_BAD)

/* Fields of an EV format profile at most; bits of one field at most. */
#define MRC_EVFMT_FIELDS_MAX		8
#define MRC_EVFMT_FIELD_BITS_MAX	64

/* Attributes inside MRC_A_EVFMT: an EV format profile. */
enum mrc_evfmt_attr {
	MRC_A_EVFMT_UNSPEC,
	MRC_A_EVFMT_ID,			/* u32 */
	MRC_A_EVFMT_STATE,		/* u8, enum mrc_profile_state */
	MRC_A_EVFMT_FORMAT,		/* u8, enum mrc_ev_format */
	MRC_A_EVFMT_FIELDS,		/* nest of MRC_A_EVFMT_FIELD */

	__MRC_A_EVFMT_MAX
};

#define MRC_A_EVFMT_MAX (__MRC_A_EVFMT_MAX - 1)

/* Attributes inside MRC_A_EVFMT_FIELDS, in field order. */
enum mrc_evfmt_fields_attr {
	MRC_A_EVFMT_FIELDS_UNSPEC,
	MRC_A_EVFMT_FIELD,		/* u8, the field's width in bits */

	__MRC_A_EVFMT_FIELDS_MAX
};

#define MRC_A_EVFMT_FIELDS_MAX (__MRC_A_EVFMT_FIELDS_MAX - 1)

/* Attributes inside MRC_A_CCPROF. */
enum mrc_ccprof_attr {
	MRC_A_CCPROF_UNSPEC,
	MRC_A_CCPROF_ID,		/* u32 */
	MRC_A_CCPROF_STATE,		/* u8, enum mrc_profile_state */
	MRC_A_CCPROF_ALGO,		/* u8, enum mrc_cc_algo */
	MRC_A_CCPROF_BASE_RTT_US,	/* u32 */
	MRC_A_CCPROF_TARGET_DELAY_US,	/* u32 */
	MRC_A_CCPROF_QA_THRESHOLD_US,	/* u32, 0: quick adapt off */
	MRC_A_CCPROF_MIN_CWND,		/* u32, bytes */
	MRC_A_CCPROF_MAX_CWND,		/* u32, bytes */
	MRC_A_CCPROF_GAMMA,		/* u32, 1/1000 */
	MRC_A_CCPROF_MAX_MD_JUMP,	/* u32, 1/1000 */
	MRC_A_CCPROF_ETA,		/* u32, bytes */
	MRC_A_CCPROF_FI,		/* u32, bytes */

	__MRC_A_CCPROF_MAX
};

#define MRC_A_CCPROF_MAX (__MRC_A_CCPROF_MAX - 1)

/* Attributes inside MRC_A_QP. */
enum mrc_qp_attr {
	MRC_A_QP_UNSPEC,
	MRC_A_QP_NUM,			/* u32, the QP number */
	MRC_A_QP_STATE,			/* u8, enum ib_qp_state numbering */
	MRC_A_QP_DEST_NUM,		/* u32, the peer's QP number */
	MRC_A_QP_PEER,			/* binary, 16 bytes: IPv6 or v4-mapped */
	MRC_A_QP_EV_COUNT,		/* u32, slots of the active EV set */
	MRC_A_QP_MIN_ACTIVE,		/* u32, GOOD slots a loss may not break */
	MRC_A_QP_CWND,			/* u32, bytes */
	MRC_A_QP_SRTT_US,		/* u32 */
	MRC_A_QP_ERROR,			/* u32, enum mrc_qp_error (QP_EVENT) */
	MRC_A_QP_EVS,			/* nest of MRC_A_EV */
	MRC_A_QP_PAD,			/* alignment padding, never parsed */
	MRC_A_QP_PEER_DOWN,		/* u32, the peer's planes down (bit k) */
	MRC_A_QP_EVPROF_ID,		/* u32, 0: the device's */
	MRC_A_QP_CCPROF_ID,		/* u32, 0: the device's */
	MRC_A_QP_MPR,			/* u32, MRC_MPR_UNIT PSNs */
	MRC_A_QP_MPR_DEST,		/* u32, MRC_MPR_UNIT PSNs */
	MRC_A_QP_TIMEOUT,		/* u8, 1.024 us << timeout */
	MRC_A_QP_RETRY_LINEAR,		/* u8 */
	MRC_A_QP_RETRY_EXP,		/* u8 */

	__MRC_A_QP_MAX
};

#define MRC_A_QP_MAX (__MRC_A_QP_MAX - 1)

/* Attributes inside MRC_A_QP_EVS. */
enum mrc_evs_attr {
	MRC_A_EVS_UNSPEC,
	MRC_A_EV,			/* nest of enum mrc_ev_attr */

	__MRC_A_EVS_MAX
};

#define MRC_A_EVS_MAX (__MRC_A_EVS_MAX - 1)

/* Attributes of one EV (slot of a QP's active set) inside MRC_A_EV. */
enum mrc_ev_attr {
	MRC_A_EV_UNSPEC,
	MRC_A_EV_SLOT,			/* u32, 0 .. EV_COUNT - 1 */
	MRC_A_EV_VALUE,			/* u32, the EV on the wire */
	MRC_A_EV_PLANE,			/* u32, plane index */
	MRC_A_EV_ENTROPY,		/* u32, UDP source port */
	MRC_A_EV_STATE,			/* u8, enum mrc_ev_state */
	MRC_A_EV_TX_PKTS,		/* u64 */
	MRC_A_EV_RETX,			/* u64 */
	MRC_A_EV_LOSSES,		/* u64 */
	MRC_A_EV_ECN,			/* u64 */
	MRC_A_EV_RETIRED,		/* u64, entropies this slot replaced */
	MRC_A_EV_PAD,			/* alignment padding, never parsed */
	MRC_A_EV_SRV6_DA,		/* binary, 16 bytes: outer destination */
	MRC_A_EV_SRV6_SEG,		/* binary, 16 bytes: the SRH's segment */
	MRC_A_EV_FLOW_LABEL,		/* u32, STEV: outer IPv6 flow label */
	MRC_A_EV_DROPPED,		/* u32, EV_EVENT: events lost before it */

	__MRC_A_EV_MAX
};

#define MRC_A_EV_MAX (__MRC_A_EV_MAX - 1)

/* Why a QP went to the error state (MRC_CMD_QP_EVENT). */
enum mrc_qp_error {
	MRC_QP_ERROR_OTHER,
	MRC_QP_ERROR_RETRY_EXCEEDED,	/* retransmissions exhausted */
	MRC_QP_ERROR_REMOTE_ACCESS,	/* the peer refused an access */
	MRC_QP_ERROR_REMOTE_OP,		/* the peer failed an operation */
	MRC_QP_ERROR_LOCAL,		/* bad work request or local failure */
	MRC_QP_ERROR_PLANE_GONE		/* the QP's planes went away */
};

/* Attributes inside MRC_A_SRV6: the SRv6 paths of one destination. */
enum mrc_srv6_attr {
	MRC_A_SRV6_UNSPEC,
	MRC_A_SRV6_PEER,		/* binary, 16 bytes: IPv6 address */
	MRC_A_SRV6_LOCATOR,		/* u32, the 32-bit locator block */
	MRC_A_SRV6_PLANE_SHIFT,		/* u8, GEN: plane bits in every uSID */
	MRC_A_SRV6_USIDS,		/* nest of MRC_A_SRV6_USID, GEN template */
	MRC_A_SRV6_TIERS,		/* nest of MRC_A_SRV6_TIER, GEN */
	MRC_A_SRV6_PATHS,		/* nest of MRC_A_SRV6_PATH, EXP */
	MRC_A_SRV6_PATH_COUNT,		/* u32, paths per plane (GEN, replies) */

	__MRC_A_SRV6_MAX
};

#define MRC_A_SRV6_MAX (__MRC_A_SRV6_MAX - 1)

/* Items of the lists inside MRC_A_SRV6 and MRC_A_SRV6_PATH. */
enum mrc_srv6_list_attr {
	MRC_A_SRV6_LIST_UNSPEC,
	MRC_A_SRV6_USID,		/* u16, one uSID */
	MRC_A_SRV6_TIER,		/* nest of enum mrc_srv6_tier_attr */
	MRC_A_SRV6_PATH,		/* nest of enum mrc_srv6_path_attr */

	__MRC_A_SRV6_LIST_MAX
};

#define MRC_A_SRV6_LIST_MAX (__MRC_A_SRV6_LIST_MAX - 1)

/* One generated field of a GEN template: a tier's uplink number. */
enum mrc_srv6_tier_attr {
	MRC_A_SRV6_TIER_UNSPEC,
	MRC_A_SRV6_TIER_USID,		/* u8, index in MRC_A_SRV6_USIDS */
	MRC_A_SRV6_TIER_SHIFT,		/* u8, bit position in that uSID */
	MRC_A_SRV6_TIER_COUNT,		/* u16, uplinks of the tier */

	__MRC_A_SRV6_TIER_MAX
};

#define MRC_A_SRV6_TIER_MAX (__MRC_A_SRV6_TIER_MAX - 1)

/* One explicit path (EXP). */
enum mrc_srv6_path_attr {
	MRC_A_SRV6_PATH_UNSPEC,
	MRC_A_SRV6_PATH_PLANE,		/* u32, plane index */
	MRC_A_SRV6_PATH_USIDS,		/* nest of MRC_A_SRV6_USID */

	__MRC_A_SRV6_PATH_MAX
};

#define MRC_A_SRV6_PATH_MAX (__MRC_A_SRV6_PATH_MAX - 1)

/* Plane numbers a GEN template writes take 4 bits; uSIDs are 16 bits. */
#define MRC_SRV6_USIDS_MAX	12	/* 6 in the destination, 6 in the SRH */
#define MRC_SRV6_TIERS_MAX	4
#define MRC_SRV6_PATHS_MAX	4096	/* per plane, generated */
#define MRC_SRV6_EXP_MAX	256	/* explicit paths of a destination */
#define MRC_SRV6_DSTS_MAX	1024	/* destinations per device */

#endif /* _UAPI_LINUX_MRC_H */
