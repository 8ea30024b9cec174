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
 *    MRC_A_DEV_EVPROF_ID: NLA_U32, the EV profile named, 0 for none
 *    MRC_A_DEV_CCPROF_ID: NLA_U32, the CC profile named, 0 for none
 *    MRC_A_DEV_PLANES: NLA_NESTED
 *        MRC_A_PLANE: NLA_NESTED, one per remaining plane, by index
 *            MRC_A_PLANE_INDEX: NLA_U32, 0 .. MRC_MAX_PLANES - 1
 *            MRC_A_PLANE_IFINDEX: NLA_U32
 *            MRC_A_PLANE_IFNAME: NLA_NUL_STRING
 *            MRC_A_PLANE_STATE: NLA_U8, enum mrc_plane_state
 *            MRC_A_PLANE_ADMIN: NLA_U8, enum mrc_plane_admin
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
 * output only, and a new plane starts admin up (MRC_A_PLANE_ADMIN is
 * refused).  A netdev may be a plane of one device only, and only once.
 * When a plane's netdev is unregistered (deleted, or moved to another
 * namespace) the plane goes away; a device that loses its last plane is
 * deleted.  Optional:
 *
 *    MRC_A_DEV_EVPROF_ID: NLA_U32, 0 .. MRC_PROFILE_ID_MAX, 0 for none
 *    MRC_A_DEV_CCPROF_ID: NLA_U32, the same for a CC profile
 *
 * name the profiles the device's QPs follow: the EV profile's EV_COUNT,
 * MIN_ACTIVE and BACKUPS shape each EV set a QP installs (when it gets its
 * address vector), the CC profile initialises a QP's congestion control when
 * it is created or reset.  A profile must be ONLINE to be named and stays
 * ONLINE while named; only AUTO-mode UDP EV profiles can be named so far
 * (EOPNOTSUPP).  Without an EV profile the ev_count module parameter rules.
 *
 * MRC_CMD_DEV_SET (do, admin)
 * ---------------------------
 *
 * Names other profiles: MRC_A_DEV_NAME and MRC_A_DEV_EVPROF_ID and/or
 * MRC_A_DEV_CCPROF_ID as in DEV_NEW.  Running QPs keep their settings; the
 * next EV set and the next reset follow the new profiles.
 *
 * MRC_CMD_DEV_DEL (do, admin)
 * ---------------------------
 *
 * Deletes the device named by MRC_A_DEV_NAME.
 *
 * MRC_CMD_PLANE_SET (do, admin)
 * -----------------------------
 *
 * Sets the controller's admin state of planes of the device MRC_A_DEV_NAME:
 *
 *    MRC_A_DEV_PLANES: NLA_NESTED
 *        MRC_A_PLANE: NLA_NESTED, 1 to MRC_MAX_PLANES of them
 *            MRC_A_PLANE_INDEX: NLA_U32, an existing plane (else ENOENT)
 *            MRC_A_PLANE_ADMIN: NLA_U8, enum mrc_plane_admin
 *
 * and nothing else in the plane nests.  All planes are checked before any
 * changes.  A plane admin down is MRC_PLANE_STATE_DOWN and the data path
 * treats it exactly as a plane whose netdev lost its carrier: QPs stop
 * using its EVs (they go ASSUMED_BAD) and carry on over the other planes;
 * MRC_CMD_PLANE_EVENT reports the change.  Admin up makes the plane UP
 * again only if its netdev is running with carrier.  Setting the admin
 * state a plane already has succeeds and changes nothing.
 *
 * MRC_CMD_EVPROF_NEW, MRC_CMD_EVPROF_SET (do, admin)
 * ---------------------------------------------------
 *
 * An EV profile says how a QP picks its entropy values (EVs, i.e. paths).
 * Profiles are per namespace, named by an id the controller chooses; QPs will
 * name their EV and CC profiles by id.  Both commands take one nest:
 *
 *    MRC_A_EVPROF: NLA_NESTED
 *        MRC_A_EVPROF_ID: NLA_U32, 1 .. MRC_PROFILE_ID_MAX, required
 *        MRC_A_EVPROF_STATE: NLA_U8, enum mrc_profile_state (SET only)
 *        MRC_A_EVPROF_MODE: NLA_U8, enum mrc_ev_mode (default AUTO)
 *        MRC_A_EVPROF_FORMAT: NLA_U8, enum mrc_ev_format (default UDP)
 *        MRC_A_EVPROF_EV_COUNT: NLA_U32, 1 .. MRC_MAX_EVS (default 128)
 *        MRC_A_EVPROF_MIN_ACTIVE: NLA_U32, 1 .. EV_COUNT (default: EV_COUNT
 *                                 / 4 rounded up, following EV_COUNT until
 *                                 set explicitly)
 *        MRC_A_EVPROF_BACKUPS: NLA_U32, backup EVs per plane,
 *                              0 .. MRC_MAX_BACKUPS (default 4)
 *        MRC_A_EVPROF_EVENT_MASK: NLA_U32, MRC_EV_EVENT_* bits (default all)
 *        MRC_A_EVPROF_ENTRIES: NLA_NESTED, EXP mode only; replaces the list
 *            MRC_A_EV_ENTRY: NLA_U64, one EV, at most EV_COUNT of them
 *
 * NEW creates the profile in state INIT from the defaults and the attributes
 * given.  SET changes only the attributes given; an empty ENTRIES nest
 * clears the list.  A profile goes ONLINE or OFFLINE through SET; it never
 * returns to INIT.  While a profile is ONLINE (before and after the request)
 * MODE, FORMAT, EV_COUNT, BACKUPS and ENTRIES cannot change (EBUSY);
 * MIN_ACTIVE and EVENT_MASK can.  An EXP profile needs at least MIN_ACTIVE
 * entries to go ONLINE.  Switching a profile out of EXP mode drops its
 * entries.  An EV entry is, per format: UDP, the UDP source port (16 bits);
 * STEV, the IPv6 flow label shifted left by 16 bits, ORed with the UDP
 * source port (36 bits).  Entries must be distinct.  Explicit SRv6 EVs and
 * GEN mode are not supported yet (EOPNOTSUPP).
 *
 * MRC_CMD_EVPROF_GET (do, dump)
 * -----------------------------
 *
 * As a do request it needs MRC_A_EVPROF with MRC_A_EVPROF_ID; as a dump it
 * takes no attributes and answers with every EV profile of the namespace in
 * increasing id order.  Each reply is one MRC_A_EVPROF nest holding every
 * attribute above (ENTRIES in the order given, empty outside EXP mode).
 *
 * MRC_CMD_EVPROF_DEL (do, admin)
 * ------------------------------
 *
 * Deletes the EV profile MRC_A_EVPROF / MRC_A_EVPROF_ID.  An ONLINE profile
 * must be taken OFFLINE first (EBUSY), and a profile a device names cannot
 * go OFFLINE (EBUSY).
 *
 * MRC_CMD_CCPROF_NEW, _SET, _GET, _DEL
 * ------------------------------------
 *
 * The same life cycle and rules for congestion control profiles, in the
 * nest MRC_A_CCPROF:
 *
 *    MRC_A_CCPROF_ID: NLA_U32, 1 .. MRC_PROFILE_ID_MAX, required
 *    MRC_A_CCPROF_STATE: NLA_U8, enum mrc_profile_state (SET only)
 *    MRC_A_CCPROF_ALGO: NLA_U8, enum mrc_cc_algo, only NSCC (the default)
 *    MRC_A_CCPROF_BASE_RTT_US: NLA_U32, 1 .. 1000000 (default 20)
 *    MRC_A_CCPROF_TARGET_DELAY_US: NLA_U32, 1 .. 1000000, at least
 *                                  BASE_RTT_US (default 30)
 *    MRC_A_CCPROF_QA_THRESHOLD_US: NLA_U32, 0 (quick adapt off) or
 *                                  TARGET_DELAY_US .. 1000000 (default 120)
 *    MRC_A_CCPROF_MIN_CWND: NLA_U32, bytes, 256 .. 2^30 (default 4096)
 *    MRC_A_CCPROF_MAX_CWND: NLA_U32, bytes, 256 .. 2^30, at least MIN_CWND
 *                           (default 1048576)
 *    MRC_A_CCPROF_GAMMA: NLA_U32, multiplicative decrease gain in 1/1000,
 *                        1 .. 1000 (default 800)
 *    MRC_A_CCPROF_MAX_MD_JUMP: NLA_U32, largest cut of one decrease in
 *                              1/1000 of the window, 1 .. 1000 (default 500)
 *    MRC_A_CCPROF_ETA: NLA_U32, proportional increase gain, bytes per ACK,
 *                      0 .. 65536 (default 512)
 *    MRC_A_CCPROF_FI: NLA_U32, fair increase, bytes per window acknowledged,
 *                     0 .. 2^20 (default 4096)
 *
 * ALGO cannot change while the profile is ONLINE; the NSCC parameters can.
 *
 * MRC_CMD_QP_GET (do, dump)
 * -------------------------
 *
 * The RC QPs of a device and their EV sets (GSI QPs are not shown).  A do
 * request needs MRC_A_DEV_NAME and MRC_A_QP / MRC_A_QP_NUM and answers with
 * that QP; a dump takes an optional MRC_A_DEV_NAME to list one device only,
 * and answers with every QP in increasing device index and QP number.  Each
 * message is:
 *
 *    MRC_A_DEV_NAME: NLA_NUL_STRING
 *    MRC_A_QP: NLA_NESTED
 *        MRC_A_QP_NUM: NLA_U32
 *        MRC_A_QP_STATE: NLA_U8, enum ib_qp_state (0 RESET .. 3 RTS .. 6 ERR)
 *        MRC_A_QP_DEST_NUM: NLA_U32, the peer's QP number (0 before RTR)
 *        MRC_A_QP_PEER: 16 bytes, the peer's address, an IPv4 one
 *                       v4-mapped; absent before the QP has one
 *        MRC_A_QP_EV_COUNT: NLA_U32, slots of the EV set (0 before RTR)
 *        MRC_A_QP_MIN_ACTIVE: NLA_U32
 *        MRC_A_QP_CWND: NLA_U32, congestion window, bytes
 *        MRC_A_QP_SRTT_US: NLA_U32, smoothed RTT (0: none measured yet)
 *        MRC_A_QP_PEER_DOWN: NLA_U32, bit k set: the peer's last port
 *                            status said its plane k is down
 *        MRC_A_QP_EVPROF_ID, MRC_A_QP_CCPROF_ID: NLA_U32, the profiles
 *                            the QP took by MRC_CMD_QP_SET; 0 when it
 *                            follows its device's
 *        MRC_A_QP_MPR, MRC_A_QP_MPR_DEST: NLA_U32, in MRC_MPR_UNIT PSNs
 *        MRC_A_QP_TIMEOUT, MRC_A_QP_RETRY_LINEAR, MRC_A_QP_RETRY_EXP:
 *                            NLA_U8, as MRC_CMD_QP_SET takes them
 *        MRC_A_QP_EVS: NLA_NESTED
 *            MRC_A_EV: NLA_NESTED, one per slot, by increasing slot
 *                MRC_A_EV_SLOT: NLA_U32
 *                MRC_A_EV_VALUE: NLA_U32, the EV on the wire
 *                MRC_A_EV_PLANE: NLA_U32, plane index
 *                MRC_A_EV_ENTROPY: NLA_U32, the UDP source port it uses
 *                MRC_A_EV_STATE: NLA_U8, enum mrc_ev_state
 *                MRC_A_EV_TX_PKTS, _RETX, _LOSSES, _ECN, _RETIRED: NLA_U64
 *                MRC_A_EV_FLOW_LABEL: NLA_U32, the IPv6 flow label its
 *                                     packets carry; only when the QP's
 *                                     EVs are in the STEV format
 *
 * A QP's EVs that do not fit one dump message continue in the next, which
 * repeats MRC_A_DEV_NAME and the QP's attributes with the following slots:
 * readers merge messages about the same device and QP number.  A dump
 * whose device list or QPs changed while it ran carries NLM_F_DUMP_INTR.
 * Errors: ENODEV no such device, ENOENT no such QP.
 *
 * MRC_CMD_EV_SET (do, admin)
 * --------------------------
 *
 * The controller denies EVs of a QP (no packet leaves on them) and undenies
 * them.  Takes MRC_A_DEV_NAME and:
 *
 *    MRC_A_QP: NLA_NESTED
 *        MRC_A_QP_NUM: NLA_U32, required
 *        MRC_A_QP_EVS: NLA_NESTED, required
 *            MRC_A_EV: NLA_NESTED, 1 to MRC_MAX_EVS of them
 *                MRC_A_EV_SLOT: NLA_U32, 0 .. EV_COUNT - 1
 *                MRC_A_EV_STATE: NLA_U8, MRC_EV_STATE_DENIED (deny) or
 *                                MRC_EV_STATE_GOOD (undeny)
 *
 * The request applies whole or not at all.  Undeny needs a DENIED slot;
 * deny of a DENIED slot changes nothing.  A QP always keeps at least one
 * slot that is not DENIED (EBUSY).  A DENIED slot stays DENIED until the
 * controller undenies it or the QP gets a new address vector (modify_qp),
 * which builds a new EV set.  Errors: ENODEV no such device, ENOENT no such
 * QP, ERANGE slot beyond the QP's EV count (or state beyond the enum),
 * EINVAL slot listed twice, state SKIP or ASSUMED_BAD, undeny of a slot
 * that is not DENIED, EBUSY no slot left that is not DENIED, E2BIG more
 * than MRC_MAX_EVS entries.
 * MRC_CMD_QP_SET (do, admin)
 * --------------------------
 *
 * The MRC attributes of a QP that verbs has no field for, as the OCP
 * application API (mrc.h) sets them: a channel for a library that runs MRC
 * programs over mrc.  Takes MRC_A_DEV_NAME and:
 *
 *    MRC_A_QP: NLA_NESTED
 *        MRC_A_QP_NUM: NLA_U32, required
 *        MRC_A_QP_EVPROF_ID: NLA_U32, an ONLINE EV profile (AUTO mode, UDP
 *                            or STEV format) the QP takes instead of its
 *                            device's; 0: the device's again
 *        MRC_A_QP_CCPROF_ID: NLA_U32, the same for the CC profile
 *        MRC_A_QP_MPR: NLA_U32, requester MPR: PSNs the QP keeps in
 *                      flight at most, in units of MRC_MPR_UNIT,
 *                      1 .. MRC_MPR_MAX (default 2)
 *        MRC_A_QP_MPR_DEST: NLA_U32, responder MPR: PSNs accepted from the
 *                           oldest missing one on, in units of
 *                           MRC_MPR_UNIT, a power of two
 *                           1 .. MRC_MPR_DEST_MAX (default 8)
 *        MRC_A_QP_TIMEOUT: NLA_U8, ACK timeout 1.024 us << timeout,
 *                          0 .. 31, 0 for mrc's default (as the verbs
 *                          attribute, which it sets)
 *        MRC_A_QP_RETRY_LINEAR: NLA_U8, timeouts retried at that timeout,
 *                               0 .. 7 (the verbs retry_cnt)
 *        MRC_A_QP_RETRY_EXP: NLA_U8, timeouts retried after those, each
 *                            doubling it, 0 .. MRC_RETRY_EXP_INFINITE
 *                            (never give up; default 6)
 *
 * Only a QP in RESET or INIT takes them (EBUSY after): its paths, window
 * and congestion state are built at RTR.  A QP takes a profile's settings
 * as they are when it names it; later changes to the profile, or its
 * deletion, do not reach the QP, whose settings stay until the next
 * MRC_CMD_QP_SET (a reset to RESET keeps them).  The request applies whole
 * or not at all.  Errors: ENODEV no such device, ENOENT no such QP or
 * profile, EINVAL a profile not ONLINE, MPR_DEST not a power of two, an
 * attribute out of range, no attribute to set, EOPNOTSUPP an EV profile
 * of a mode or format QPs cannot take, EBUSY the QP is past INIT.
 *
 * MRC_CMD_PROBE (do, admin)
 * -------------------------
 *
 * Sends one probe on one EV of a connected (RTS) RC QP and waits for the
 * peer's answer, a SACK echoing the probe: the controller learns whether
 * that path works and its round trip now, whatever the EV's state.  Needs:
 *
 *    MRC_A_DEV_NAME: the device
 *    MRC_A_QP: NLA_NESTED
 *        MRC_A_QP_NUM: NLA_U32, the QP number
 *        MRC_A_QP_EVS: NLA_NESTED holding exactly one
 *            MRC_A_EV: NLA_NESTED
 *                MRC_A_EV_SLOT: NLA_U32, slot of the QP's active set
 *    MRC_A_PROBE_TIMEOUT_MS: NLA_U32, 1 .. MRC_PROBE_TIMEOUT_MS_MAX
 *                            (default MRC_PROBE_TIMEOUT_MS_DEFAULT)
 *
 * The reply repeats MRC_A_DEV_NAME and MRC_A_QP with the EV probed (SLOT,
 * VALUE, PLANE, ENTROPY, and FLOW_LABEL in the STEV format) and carries
 * MRC_A_PROBE_RTT_NS: NLA_U64.  No answer
 * within the timeout is ETIMEDOUT; one probe per QP at a time (EBUSY).
 *
 * MRC_CMD_SRV6_SET, MRC_CMD_SRV6_DEL (do, admin), MRC_CMD_SRV6_GET (dump)
 * ----------------------------------------------------------------------
 *
 * The SRv6 paths of a device towards one destination: with them a QP whose
 * address vector names that destination sends every packet source-routed,
 * IPv6-in-IPv6 with the path in the outer destination address (a uSID
 * carrier: the 32-bit locator block, then one 16-bit uSID per switch, at
 * most 6; a longer path puts the rest in a single-segment SRH).  The
 * EV's entropy picks the path: path (entropy mod paths of the plane) of
 * the EV's plane.  SET replaces the destination's entry:
 *
 *    MRC_A_DEV_NAME: the device
 *    MRC_A_SRV6: NLA_NESTED
 *        MRC_A_SRV6_PEER: 16 bytes, the IPv6 address QPs name in their AV
 *        MRC_A_SRV6_LOCATOR: NLA_U32, not 0
 *      and either a template (GEN: paths generated per plane)
 *        MRC_A_SRV6_USIDS: NLA_NESTED of 1 .. MRC_SRV6_USIDS_MAX
 *            MRC_A_SRV6_USID: NLA_U16, the path's uSIDs, first hop first
 *        MRC_A_SRV6_PLANE_SHIFT: NLA_U8, 0 .. 12, the plane number (4 bits)
 *                                is ORed into every uSID at this bit
 *                                (optional)
 *        MRC_A_SRV6_TIERS: NLA_NESTED of 0 .. MRC_SRV6_TIERS_MAX
 *            MRC_A_SRV6_TIER: NLA_NESTED
 *                MRC_A_SRV6_TIER_USID: NLA_U8, which uSID
 *                MRC_A_SRV6_TIER_SHIFT: NLA_U8, at which bit
 *                MRC_A_SRV6_TIER_COUNT: NLA_U16, 1 .. 256 uplinks
 *      or explicit paths (EXP)
 *        MRC_A_SRV6_PATHS: NLA_NESTED of 1 .. MRC_SRV6_EXP_MAX
 *            MRC_A_SRV6_PATH: NLA_NESTED
 *                MRC_A_SRV6_PATH_PLANE: NLA_U32, plane index
 *                MRC_A_SRV6_PATH_USIDS: as MRC_A_SRV6_USIDS
 *
 * Path k of a GEN template on plane p is the template's uSIDs with p ORed
 * in at PLANE_SHIFT and k, written in mixed radix over the tiers (the first
 * tier least significant), ORed in at each tier's uSID and shift.  No uSID
 * may be 0 (it would end the carrier), generated bits may not overlap each
 * other or the template's, and a plane needs a path to carry traffic.
 * Bad values are EINVAL with an extack message; more than
 * MRC_SRV6_DSTS_MAX destinations is ENOSPC.  QPs take the paths when their
 * address vector is set (running QPs keep theirs); the destination must be
 * IPv6.  DEL needs MRC_A_DEV_NAME and MRC_A_SRV6 with MRC_A_SRV6_PEER
 * (ENOENT if absent).  GET dumps the entries of the device MRC_A_DEV_NAME as
 * they were set, GEN entries with MRC_A_SRV6_PATH_COUNT.  MRC_CMD_QP_GET
 * shows each EV's path as MRC_A_EV_SRV6_DA (and MRC_A_EV_SRV6_SEG).
 *
 * Multicast group MRC_GENL_MCGRP_EVENTS
 * -------------------------------------
 *
 * Notifications, in the namespace of the object they are about.  Joining the
 * group needs CAP_NET_ADMIN.  Sent so far:
 *
 * MRC_CMD_PLANE_EVENT: a plane went up or down (its netdev's running state or
 * carrier changed).  Carries MRC_A_DEV_NAME and MRC_A_DEV_PLANES holding the
 * one plane, laid out as in MRC_CMD_DEV_GET, with its new state.  A plane
 * set admin down or up (MRC_CMD_PLANE_SET) raises it too.
 *
 * MRC_CMD_EV_EVENT: an EV of a QP went ASSUMED_BAD, or GOOD (probes brought
 * it back, its slot took a fresh entropy in place of a lossy one, or a
 * retired entropy that answers its probes took its slot back); the
 * states MRC_EV_EVENT_* name.  One EV per message:
 *
 *    MRC_A_DEV_NAME: NLA_NUL_STRING
 *    MRC_A_QP: NLA_NESTED
 *        MRC_A_QP_NUM: NLA_U32
 *        MRC_A_QP_EVS: NLA_NESTED
 *            MRC_A_EV: NLA_NESTED
 *                MRC_A_EV_SLOT, MRC_A_EV_VALUE, MRC_A_EV_PLANE: NLA_U32
 *                MRC_A_EV_ENTROPY: NLA_U32, the UDP source port
 *                MRC_A_EV_STATE: NLA_U8, enum mrc_ev_state
 *                MRC_A_EV_FLOW_LABEL: NLA_U32, STEV format only
 *
 * MRC_CMD_QP_EVENT: a QP failed and went to the error state:
 *
 *    MRC_A_DEV_NAME: NLA_NUL_STRING
 *    MRC_A_QP: NLA_NESTED
 *        MRC_A_QP_NUM: NLA_U32
 *        MRC_A_QP_STATE: NLA_U8, IB_QPS_ERR
 *        MRC_A_QP_DEST_NUM: NLA_U32, the peer's QP
 *        MRC_A_QP_ERROR: NLA_U32, enum mrc_qp_error
 *
 * EV and QP events are sent from process context shortly after the change,
 * in order per QP, and only while the group has listeners.  They are lossy:
 * a burst that overflows the QP's queue of changes or a listener's socket
 * is dropped (the socket then reports ENOBUFS).
 *
 * Errors
 * ------
 *
 * EINVAL bad or missing attribute, ERANGE attribute value out of range,
 * ENODEV no such device or netdev, EEXIST device name or profile id taken,
 * EBUSY netdev already a plane of another device or profile ONLINE, E2BIG too
 * many planes or EV entries, ENOENT no such profile or plane, EOPNOTSUPP
 * feature not implemented yet, EPERM missing capability.  Documentation/netlink.md in
 * the mrc tree lists every case with its message.
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
 * Planned next (controller API): EV format profiles, connectionless EV
 * probes.
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
