/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Limits, defaults and tunables of mrc.ko, all in one place (as rxe's
 * rxe_param.h): the device limits query_device reports, the requester's and
 * responder's windows and timers, the EV machinery's sizes and intervals,
 * and what the profiles take when the controller leaves a setting out.
 *
 * Not here: facts of the wire format (wire.h, psn.h; the EV value's layout
 * in ev.h), and values the controller sees (include/uapi/linux/mrc.h:
 * MRC_MAX_PLANES, MRC_MAX_BACKUPS, MRC_MPR_*, the SRv6 limits ...).
 */
#ifndef _MRC_PARAM_H
#define _MRC_PARAM_H

#include <linux/bits.h>
#include <linux/sizes.h>

/* ---------------------------------------------------------------------
 * Device limits, reported by query_device and enforced by the verbs.
 */
#define MRC_MAX_QP		0x10000
#define MRC_MIN_QPN		0x10		/* below: reserved (QP0/QP1) */
#define MRC_MAX_QPN		((1U << 24) - 1)
#define MRC_MAX_QP_WR		0x4000
#define MRC_MAX_SGE		32
#define MRC_MAX_INLINE		256
#define MRC_MAX_CQ		0x10000
#define MRC_MAX_CQE		0x8000
#define MRC_MAX_MR		0x40000
/*
 * Memory windows: their keys' indices follow the MRs', so that a key says
 * which of the two it names (mrc_key_is_mw()).
 */
#define MRC_MAX_MW		0x10000
#define MRC_MW_INDEX_MIN	(MRC_MAX_MR + 1)
#define MRC_MW_INDEX_MAX	(MRC_MW_INDEX_MIN + MRC_MAX_MW - 1)
#define MRC_MAX_MR_SIZE		BIT_ULL(40)
/* Pages of one fast registration (ib_alloc_mr()'s max_num_sg). */
#define MRC_MAX_FR_PAGES	512
#define MRC_MAX_PD		0x10000
#define MRC_MAX_AH		0x10000
#define MRC_MAX_SRQ		0x10000
#define MRC_MAX_SRQ_WR		MRC_MAX_QP_WR
/*
 * Receive WQEs a QP holds from its SRQ at most: one per receive-consuming
 * message that arrived before those ahead of it completed.  A message
 * further ahead waits for its retransmission, as one that finds no WQE.
 */
#define MRC_SRQ_CLAIMS		1024
/* Datagrams a user UD QP's doorbell builds before it sends them. */
#define MRC_UD_BATCH		64
#define MRC_MAX_RD_ATOM		128		/* outstanding READs per QP */
/* An echoed timestamp older than this is no RTT sample, nor a probe's answer. */
#define MRC_ECHO_MAX_NS		(10ULL * NSEC_PER_SEC)
/*
 * A port's GIDs are its plane netdev's addresses (RoCE v2 only), a handful.
 * ib_core makes three sysfs files per entry per port: 1024 entries cost an
 * eight-plane device 24576 files and most of its creation time.
 */
#define MRC_GID_TBL_LEN		128
#define MRC_VENDOR_ID		0xffffff	/* none assigned */

/*
 * Queues shared with user space (queue.c): larger than any limit above
 * needs; it also keeps the buffer size within the 32 bits struct mminfo
 * has for it.
 */
#define MRC_QUEUE_MAX_SLOTS	BIT(20)
#define MRC_QUEUE_MAX_ELEM	BIT(16)

/* ---------------------------------------------------------------------
 * Windows, acknowledgment and retransmission
 */

/*
 * Receive window (MPR) in PSNs: the responder accepts PSNs in
 * [cum_psn, cum_psn + window) and the requester never has more than the
 * peer's window outstanding.  MRC's example MPR is 8 units of 128 PSNs.
 */
#define MRC_WINDOW_DEFAULT	1024
#define MRC_WINDOW_MAX		4096
/*
 * PSNs past the oldest unacknowledged one a requester uses at most, below
 * the peer's window (NSCC's window bounds those unacknowledged, within
 * these): a fixed cap from before NSCC, small enough not to overrun a
 * plane's queue (netem's default holds 1000).  Under loss every hole holds
 * the left edge until it is repaired, so this cap, not NSCC, may be what
 * limits goodput at 1% loss; raising it is to be measured first.
 */
#define MRC_SEND_WINDOW		256
/* PSNs one retransmit timeout resends; SACKs then drive the rest. */
#define MRC_RTO_BURST		16

/* ACK coalescing: the responder SACKs at least every this many packets. */
#define MRC_SACK_EVERY		16
/*
 * Fast retransmit: a hole this many PSNs below the highest SACKed PSN of its
 * own plane, or MRC_REORDER_PLANES times as many below the highest of all
 * (planes are separate networks whose delays differ; a whole plane that went
 * silent has no highest of its own).
 */
#define MRC_REORDER_THRESH	32
#define MRC_REORDER_PLANES	4
/*
 * The reordering threshold grows by half its start value on every spurious
 * retransmission (the peer had the PSN already), up to this, and shrinks by
 * as much after MRC_REORDER_CALM acknowledged packets without one.
 */
#define MRC_REORDER_MAX		128
#define MRC_REORDER_CALM	4096
/* Later packets on one EV that may overtake a packet before it is lost. */
#define MRC_EV_MARGIN		1
#define MRC_EV_MARGIN_MAX	4
/* Floor of the retransmit timeout, microseconds (one jiffy at HZ=250). */
#define MRC_RTO_MIN_US		4000
/* QP attribute timeout 0 (IB: "infinite") is taken as this exponent. */
#define MRC_TIMEOUT_DEFAULT	14
/*
 * Retries after the linear ones, with doubling timeout (MRC's exp_cnt):
 * about 2 s more of patience at the default timeout, so a host that stalls
 * (a busy hypervisor, a debug kernel) does not fail healthy connections.
 */
#define MRC_RETRY_EXP_DEFAULT	6
/* Largest READ request, in response packets; longer READs are split. */
#define MRC_READ_CHUNK_PKTS	256
/*
 * Least time between two replays of one READ: a quarter of the shortest
 * retransmit time-out, so every time-out of the requester is served.
 */
#define MRC_READ_REPLAY_GAP_US	(MRC_RTO_MIN_US / 4)

/* ---------------------------------------------------------------------
 * Entropy values (ev.c)
 */
#define MRC_EV_DEFAULT		128	/* active EVs per QP */
#define MRC_EV_MAX		256
#define MRC_EV_BACKUP		8	/* spare entropies per plane, default */
#define MRC_EV_RETIRED		8	/* retired entropies per plane, probed */
#define MRC_EV_PROBE_OK		2	/* probe answers that bring an EV back */
#define MRC_EV_SUSPECT_MAX	2	/* overdue packets in a row that retire */
#define MRC_EV_PROBE_MIN_MS	2	/* first probe interval, doubled per miss */
#define MRC_EV_PROBE_MAX_MS	512
#define MRC_EV_RESHUFFLE	8	/* rotations between reshuffles */
/*
 * A port status goes again this often while a plane is down, and for a
 * while after the last change: the first may have been lost, or reached a
 * peer QP not yet ready to take it.
 */
#define MRC_PSTAT_REPEAT_MS	100
#define MRC_PSTAT_HOLD_MS	1000
/*
 * A peer's port status is taken only a bounded step ahead of the one
 * applied, and holds only while the peer keeps repeating it: one forged
 * far ahead can neither make the peer's own updates look old for long nor
 * hold a plane down once the peer stops saying it is.
 */
#define MRC_PSTAT_SEQ_STEP	256
#define MRC_PSTAT_EXPIRE_MS	2000

/*
 * EV state changes a QP keeps for the controller (netlink_event.c): one per
 * slot of the largest EV set, since a whole set can change at once.
 */
#define MRC_EV_NOTES		256

/* ---------------------------------------------------------------------
 * Profiles (profile.c): defaults of the settings the controller leaves
 * out, and limits of the CC parameters, shared by the netlink policy and
 * the checks.  include/uapi/linux/mrc.h documents them.
 */
#define MRC_EVPROF_EV_COUNT_DEFAULT	128
#define MRC_EVPROF_BACKUPS_DEFAULT	4
#define MRC_CCPROF_BASE_RTT_US_DEFAULT	20
#define MRC_CCPROF_TARGET_US_DEFAULT	30
#define MRC_CCPROF_QA_US_DEFAULT	120
#define MRC_CCPROF_MIN_CWND_DEFAULT	4096
#define MRC_CCPROF_MAX_CWND_DEFAULT	1048576
#define MRC_CCPROF_GAMMA_DEFAULT	800
#define MRC_CCPROF_MAX_MD_JUMP_DEFAULT	500
#define MRC_CCPROF_ETA_DEFAULT		512
#define MRC_CCPROF_FI_DEFAULT		4096

#define MRC_CCPROF_US_MAX		1000000
#define MRC_CCPROF_CWND_MIN		256
#define MRC_CCPROF_CWND_MAX		SZ_1G
#define MRC_CCPROF_PERMILLE_MAX		1000
#define MRC_CCPROF_ETA_MAX		65536
#define MRC_CCPROF_FI_MAX		SZ_1M

/* NSCC's proportional increase (cc.c): eta bytes per this many bytes acked. */
#define MRC_CC_UNIT		1024

#endif /* _MRC_PARAM_H */
