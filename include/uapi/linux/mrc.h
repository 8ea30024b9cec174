/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * mrc: Multipath Reliable Connection, a soft RDMA provider that sprays one
 * connection over several Ethernet "plane" netdevs.
 *
 * Documentation
 * =============
 *
 * This header is the control interface of mrc: a generic netlink family named
 * MRC_GENL_NAME, version MRC_GENL_VERSION.  Requesting the family id with
 * CTRL_CMD_GETFAMILY loads mrc.ko on demand.  Every object lives in a network
 * namespace: requests act on the namespace of the socket that sends them.
 * All commands are validated strictly: unknown attributes, attributes out of
 * range, nests without NLA_F_NESTED and a non-zero genlmsghdr.reserved are
 * rejected with EINVAL.  Errors carry an extended ack message (set
 * NETLINK_EXT_ACK on the socket to receive it).
 *
 * Commands marked "admin" need CAP_NET_ADMIN in the initial user namespace,
 * because an mrc device will back a system-wide RDMA device; the others are
 * open to everybody.
 *
 * MRC_CMD_VERSION_GET (do)
 * ------------------------
 *
 * Takes no attributes.  Replies with:
 *
 *    MRC_A_VERSION_MODULE: NLA_NUL_STRING, e.g. "0.1.0"
 *    MRC_A_VERSION_GENL: NLA_U32, MRC_GENL_VERSION
 *    MRC_A_UDP_PORT: NLA_U16, UDP port of the MRC encapsulation (host order)
 *    MRC_A_MAX_PLANES: NLA_U32, MRC_MAX_PLANES
 *    MRC_A_MAX_EVS: NLA_U32, MRC_MAX_EVS
 *
 * MRC_CMD_DEV_GET (do, dump)
 * --------------------------
 *
 * As a do request it needs MRC_A_DEV_NAME and answers with that device.  As a
 * dump (NLM_F_DUMP) it takes no attributes and answers with every device of
 * the namespace, one per message (NLM_F_MULTI).  Each device is:
 *
 *    MRC_A_DEV_NAME: NLA_NUL_STRING, 1 to 15 bytes (IFNAMSIZ - 1)
 *    MRC_A_DEV_INDEX: NLA_U32, unique in the namespace, never reused while
 *                     the module is loaded
 *    MRC_A_DEV_PLANES: NLA_NESTED
 *        MRC_A_PLANE: NLA_NESTED, one per remaining plane, by index
 *            MRC_A_PLANE_INDEX: NLA_U32, 0 .. MRC_MAX_PLANES - 1
 *            MRC_A_PLANE_IFINDEX: NLA_U32
 *            MRC_A_PLANE_IFNAME: NLA_NUL_STRING
 *            MRC_A_PLANE_STATE: NLA_U8, enum mrc_plane_state
 *        MRC_A_PLANE: NLA_NESTED
 *            ...
 *
 * A plane keeps the index it was given at creation even when a plane before
 * it disappears, so the indexes of a dump may have holes.
 *
 * MRC_CMD_DEV_NEW (do, admin)
 * ---------------------------
 *
 * Creates a device.  Needs:
 *
 *    MRC_A_DEV_NAME: NLA_NUL_STRING, 1 to 15 bytes of [a-zA-Z0-9_.-]
 *    MRC_A_DEV_PLANES: NLA_NESTED
 *        MRC_A_PLANE: NLA_NESTED, 1 to MRC_MAX_PLANES of them
 *            MRC_A_PLANE_IFINDEX: NLA_U32
 *            MRC_A_PLANE_IFNAME: NLA_NUL_STRING
 *
 * Each plane names an existing Ethernet netdev of the caller's namespace by
 * ifindex, by name or by both (they must then agree).  Planes are numbered in
 * the order they are listed; MRC_A_PLANE_INDEX and MRC_A_PLANE_STATE are
 * output only.  A netdev may be a plane of one device only, and only once.
 * When a plane's netdev is unregistered (deleted, or moved to another
 * namespace) the plane goes away; a device that loses its last plane is
 * deleted.
 *
 * MRC_CMD_DEV_DEL (do, admin)
 * ---------------------------
 *
 * Deletes the device named by MRC_A_DEV_NAME.
 *
 * Multicast group MRC_GENL_MCGRP_EVENTS
 * -------------------------------------
 *
 * Reserved for notifications (EV state changes, plane up/down, QP errors).
 * Joining it needs CAP_NET_ADMIN.  Nothing is sent on it yet.
 *
 * Errors
 * ------
 *
 * EINVAL bad or missing attribute, ERANGE attribute value out of range,
 * ENODEV no such device or netdev, EEXIST device name taken, EBUSY netdev
 * already a plane of another device, E2BIG too many planes, EPERM missing
 * capability.  Documentation/netlink.md in the mrc tree lists every case with
 * its message.
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

/* Default UDP destination port of MRC packets (mrc.ko parameter udp_port). */
#define MRC_UDP_PORT_DEFAULT	4793

/*
 * Numbers are ABI: new commands are only ever appended before __MRC_CMD_MAX.
 * Planned next (controller API): plane admin up/down, EV format profiles and
 * EV profiles (new/set/get), EV states (get/set: deny, undeny), CC profiles,
 * QP dump and EV probe.
 */
enum mrc_cmd {
	MRC_CMD_UNSPEC,
	MRC_CMD_VERSION_GET,
	MRC_CMD_DEV_GET,
	MRC_CMD_DEV_NEW,
	MRC_CMD_DEV_DEL,

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

	__MRC_A_PLANE_MAX
};

#define MRC_A_PLANE_MAX (__MRC_A_PLANE_MAX - 1)

/* Up means the netdev is running and has carrier. */
enum mrc_plane_state {
	MRC_PLANE_STATE_DOWN,
	MRC_PLANE_STATE_UP
};

/*
 * The definitions below belong to the controller API that the next commands
 * expose; they are fixed here so that their values never move.
 */

/* State of one entropy value (path); only GOOD EVs carry traffic. */
enum mrc_ev_state {
	MRC_EV_STATE_GOOD,
	MRC_EV_STATE_SKIP,		/* skipped for the current rotation */
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

#endif /* _UAPI_LINUX_MRC_H */
