/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrc RDMA provider: the verbs objects (PD, MR, CQ, AH, QP with its
 * requester and responder state), the queues they share with user space,
 * and the per-plane counters.  The functions of the verbs and the data path
 * are in loc.h, the limits in param.h.  Documentation/design.md maps the
 * files; Documentation/verbs.md describes the semantics applications see.
 *
 * User ABI: rxe's (include/uapi/rdma/rdma_user_rxe.h), so that Debian's
 * unmodified librxe drives mrc devices.  Every field user space can write is
 * read once, masked or range checked, and copied before it is used.
 */
#ifndef _MRC_VERBS_H
#define _MRC_VERBS_H

#include <linux/atomic.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/xarray.h>
#include <net/dst_cache.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_user_rxe.h>
#include <rdma/uverbs_ioctl.h>
#include <linux/mrc.h>

#include "param.h"
#include "psn.h"

struct mrc_dev_prof;
struct mrc_device;
struct mrc_evset;

/* librxe accepts only this uverbs ABI version (rxe's, not in its uapi). */
#define MRC_UVERBS_ABI_VERSION	2

/* ---------------------------------------------------------------------
 * Queues shared with user space (rxe ABI: struct rxe_queue_buf)
 *
 * Producer and consumer indexes are stored masked.  One slot stays empty:
 * the queue is full when producer + 1 == consumer.  The kernel keeps its
 * own copy of the index it owns and never trusts the buffer's copy of it;
 * the index user space owns is read with acquire semantics and masked.
 */
struct mrc_queue {
	struct rxe_queue_buf *buf;	/* vmalloc_user'ed, maybe mmapped */
	size_t buf_size;
	struct rdma_user_mmap_entry *mmap;	/* NULL for kernel queues */
	u32 elem_size;			/* power of two */
	u32 log2_elem_size;
	u32 index_mask;			/* number of slots - 1 */
	u32 index;			/* the index the kernel owns */
};

static inline void *mrc_queue_elem(const struct mrc_queue *q, u32 index)
{
	return q->buf->data + ((size_t)(index & q->index_mask) <<
			       q->log2_elem_size);
}

static inline u32 mrc_queue_next(const struct mrc_queue *q, u32 index)
{
	return (index + 1) & q->index_mask;
}

/*
 * Kernel consumes (SQ, RQ): the producer index belongs to the poster.  The
 * acquire pairs with the poster's release of the index, so the elements
 * before it are complete when we read them.
 */
static inline u32 mrc_queue_load_producer(const struct mrc_queue *q)
{
	/* pairs with the poster's release of producer_index */
	return smp_load_acquire(&q->buf->producer_index) & q->index_mask;
}

/* Release: we are done reading the elements before the index we hand back. */
static inline void mrc_queue_store_consumer(struct mrc_queue *q, u32 index)
{
	q->index = index & q->index_mask;
	/* pairs with the poster's acquire before reusing slots */
	smp_store_release(&q->buf->consumer_index, q->index);
}

/*
 * Kernel produces (CQ): the consumer index belongs to the poller.  Acquire:
 * slots before it may only be rewritten once the poller has read them.
 */
static inline u32 mrc_queue_load_consumer(const struct mrc_queue *q)
{
	/* pairs with the poller's release of consumer_index */
	return smp_load_acquire(&q->buf->consumer_index) & q->index_mask;
}

/* Release: the CQEs are written before the poller can see the index. */
static inline void mrc_queue_store_producer(struct mrc_queue *q, u32 index)
{
	q->index = index & q->index_mask;
	/* pairs with the poller's acquire of producer_index */
	smp_store_release(&q->buf->producer_index, q->index);
}

/* Number of elements between two masked indexes. */
static inline u32 mrc_queue_count(const struct mrc_queue *q, u32 prod,
				  u32 cons)
{
	return (prod - cons) & q->index_mask;
}

/* ---------------------------------------------------------------------
 * Objects
 */

/* Objects a device counts against the limits it advertises (verbs.c). */
enum mrc_obj {
	MRC_OBJ_PD,
	MRC_OBJ_CQ,
	MRC_OBJ_QP,
	MRC_OBJ_AH,
	MRC_OBJ_SRQ,
	MRC_NOBJ
};

struct mrc_ucontext {
	struct ib_ucontext ibuc;
};

struct mrc_pd {
	struct ib_pd ibpd;
};

/* Where a QP's packets go: resolved from the address vector at RTR. */
struct mrc_av {
	u8 plane;			/* port - 1 */
	u8 family;			/* AF_INET or AF_INET6 */
	u8 tos;				/* traffic class */
	u8 hop_limit;
	u32 flow_label;
	union {
		__be32 v4;
		struct in6_addr v6;
	} saddr, daddr;
};

struct mrc_ah {
	struct ib_ah ibah;
	struct mrc_av av;
	u32 num;	/* in mrc_device.ahs; 0 for kernel AHs */
};

enum mrc_mr_type {
	MRC_MR_DMA,	/* kernel virtual addresses, local access only */
	MRC_MR_USER,	/* pinned user pages through an ib_umem */
	MRC_MR_FAST,	/* ib_alloc_mr(): registered by IB_WR_REG_MR */
	MRC_MR_FAST_MAP, /* one registration of an MRC_MR_FAST */
};

/**
 * struct mrc_mr - a memory region
 * @ibmr: core part; lkey == rkey
 * @rcu: the struct is freed after a grace period: the receive path looks
 *	MRs up under RCU
 * @type: enum mrc_mr_type
 * @access: IB_ACCESS_* flags
 * @iova: first address of the region as the application sees it
 * @length: bytes
 * @umem: the pinned user memory (MRC_MR_USER)
 * @pages: one entry per page of @umem, in address order
 * @npages: entries in @pages
 * @page_off: offset of @iova in @pages[0] (MRC_MR_USER), or in @fr_va[0]
 *	(MRC_MR_FAST_MAP)
 * @fr_live: MRC_MR_FAST: the registration in force, an MRC_MR_FAST_MAP
 *	that lookups return instead of the MR itself; NULL while invalid
 * @fr_stage: MRC_MR_FAST: the map ib_map_mr_sg() fills, never one that a
 *	lookup can still return (Documentation/verbs.md, "Fast registration")
 * @fr_spare: MRC_MR_FAST: the other map, live or retired
 * @fr_lock: MRC_MR_FAST: serializes registration and invalidation
 * @fr_va: MRC_MR_FAST_MAP: kernel virtual address of each page
 * @fr_max: MRC_MR_FAST_MAP: entries @fr_va holds (max_num_sg)
 * @fr_npages: MRC_MR_FAST_MAP: entries ib_map_mr_sg() filled
 * @fr_page_shift: MRC_MR_FAST_MAP: log2 of the page size it mapped with
 * @fr_fresh: MRC_MR_FAST_MAP: filled by ib_map_mr_sg() since it was last
 *	registered
 * @fr_retired: MRC_MR_FAST_MAP: invalidated once, at grace period @fr_rcu
 * @fr_rcu: MRC_MR_FAST_MAP: see @fr_retired
 * @num_mw: MRC_MR_USER: memory windows bound to it; -1 once it is being
 *	deregistered or reregistered, when no window may bind to it (mw.c)
 */
struct mrc_mr {
	struct ib_mr ibmr;
	struct rcu_head rcu;
	u8 type;
	u32 access;
	u64 iova;
	u64 length;
	struct ib_umem *umem;
	struct page **pages;
	unsigned long npages;
	unsigned int page_off;
	struct mrc_mr __rcu *fr_live;
	struct mrc_mr *fr_stage;
	struct mrc_mr *fr_spare;
	spinlock_t fr_lock; /* see above */
	u64 *fr_va;
	u32 fr_max;
	u32 fr_npages;
	u8 fr_page_shift;
	bool fr_fresh;
	bool fr_retired;
	unsigned long fr_rcu;
	atomic_t num_mw;
};

/**
 * struct mrc_mw - a memory window (Documentation/verbs.md, "Memory windows")
 * @ibmw: core part; ibmw.rkey is the key in force, its low byte the one
 *	the last bind gave it
 * @lock: serializes binds, invalidations and the lookups of remote
 *	accesses, which copy what they need under it; taken in softirq, and
 *	with bottom halves off elsewhere
 * @mr: the region it is bound to; NULL while unbound (a type 1 window
 *	before its first bind or after a bind of length 0, a type 2 window
 *	that is free)
 * @addr: first byte of the window, in @mr's address space
 * @length: bytes of the window
 * @access: IB_ACCESS_REMOTE_* rights it grants, and IB_ZERO_BASED
 * @qp_serial: type 2: the serial of the QP it is bound to
 */
struct mrc_mw {
	struct ib_mw ibmw;
	spinlock_t lock; /* see above */
	struct mrc_mr *mr;
	u64 addr;
	u64 length;
	u32 access;
	u64 qp_serial;
};

/* A key's index tells a window's from a region's. */
static inline bool mrc_key_is_mw(u32 key)
{
	return key >> 8 >= MRC_MW_INDEX_MIN;
}

enum mrc_copy_dir {
	MRC_TO_MR,	/* write into the region (receive placement) */
	MRC_FROM_MR,	/* read from the region (transmit) */
};

/**
 * struct mrc_cq - a completion queue
 * @ibcq: core part
 * @lock: protects @q and @notify (taken with irqsave: kernel consumers may
 *	poll from any context)
 * @q: CQEs; struct ib_uverbs_wc for user CQs, struct ib_wc for kernel ones
 * @is_user: created through uverbs
 * @notify: IB_CQ_* flags armed by req_notify_cq, 0 when disarmed
 * @overflowed: a CQE was lost for lack of room; the CQ is in error
 */
struct mrc_cq {
	struct ib_cq ibcq;
	spinlock_t lock; /* see above */
	struct mrc_queue q;
	bool is_user;
	u8 notify;
	bool overflowed;
};

/**
 * struct mrc_srq - a shared receive queue
 * @ibsrq: core part
 * @lock: the consumer side of @rq and @limit: QPs take WQEs in softirq
 *	under their own lock, and kernel posters produce under this one
 * @rq: receive WQEs in rxe's layout; user space posts into it itself
 * @max_sge: SGEs of a WQE at most
 * @limit: armed limit: fewer WQEs left than this raises
 *	IB_EVENT_SRQ_LIMIT_REACHED once and disarms it; 0 disarmed
 */
struct mrc_srq {
	struct ib_srq ibsrq;
	spinlock_t lock; /* see above */
	struct mrc_queue rq;
	u32 max_sge;
	u32 limit;
};

static inline struct mrc_srq *to_msrq(struct ib_srq *ibsrq)
{
	return ibsrq ? container_of(ibsrq, struct mrc_srq, ibsrq) : NULL;
}

/* ---------------------------------------------------------------------
 * QP: requester and responder state
 */

/* Per-PSN state of the requester, in a ring indexed by psn & (size - 1). */
#define MRC_SLOT_ACKED		BIT(0)	/* SACKed, or READ response here */
#define MRC_SLOT_READ		BIT(1)	/* a READ response PSN */
#define MRC_SLOT_FAST_RTX	BIT(2)	/* fast retransmit already done */
#define MRC_SLOT_RNR_WAIT	BIT(3)	/* NACK RNR: wait for the timer */
#define MRC_SLOT_REORDER	BIT(4)	/* resent on reordering distance alone */
#define MRC_SLOT_EV_LOST	BIT(5)	/* resent: later packets on its EV came */
#define MRC_SLOT_READ_FIRST	BIT(6)	/* first PSN of a READ chunk */
#define MRC_SLOT_REO_WAIT	BIT(7)	/* far enough, not yet out long enough */
#define MRC_SLOT_ATOMIC		BIT(8)	/* an atomic: READ-like, one PSN */

struct mrc_tx_slot {
	u32 wqe_idx;		/* SQ slot of the WQE */
	u32 offset;		/* byte offset of the packet in the message */
	u32 len;		/* payload bytes (READ: response payload) */
	u32 msn;		/* message (READ: the chunk's request) */
	u16 flags;		/* MRC_SLOT_* */
	u16 rtx;		/* times retransmitted */
	u16 chunk_left;		/* READ: PSNs from here to the chunk's end */
	u16 cpu;		/* CPU the last transmission left from */
	u32 ev;			/* EV of the last transmission */
	u32 ev_seq;		/* its order among that EV's packets */
	u64 sent_ns;		/* last transmission */
};

/* An IB_WR_BIND_MW, as the WQE gave it (struct rxe_send_wr's wr.mw). */
struct mrc_mw_bind {
	u64 addr;		/* first byte of the window, in the MR */
	u64 length;		/* bytes; 0 unbinds a type 1 window */
	u32 mr_lkey;		/* the MR */
	u32 mw_rkey;		/* the window, by the key it has now */
	u32 rkey;		/* its new key: only the low byte is taken */
	u32 access;		/* IB_ACCESS_REMOTE_*, IB_ZERO_BASED */
};

/* Kernel copy of one send WQE plus the progress the requester made. */
struct mrc_send_ctx {
	u64 wr_id;
	u32 opcode;		/* IB_WR_* */
	u32 send_flags;		/* IB_SEND_* */
	u32 length;		/* bytes of the message */
	u32 imm;		/* host order */
	u32 inv_rkey;		/* IB_WR_SEND_WITH_INV */
	u64 remote_addr;
	u32 rkey;
	u64 compare_add;	/* atomics: CMP_AND_SWP compare, FETCH_AND_ADD add */
	u64 swap;		/* IB_WR_ATOMIC_CMP_AND_SWP */
	u32 num_sge;		/* 0 for inline data */
	u32 first_psn;
	u32 npkts;		/* PSNs the message uses */
	u32 pkts_done;		/* PSNs ACKed (READ: responses received) */
	u32 msn;
	u32 rq_msn;
	struct ib_mr *reg_mr;	/* IB_WR_REG_MR (kernel QPs only) */
	u32 reg_access;		/* IB_WR_REG_MR: IB_ACCESS_* */
	struct mrc_mw_bind mw;	/* IB_WR_BIND_MW (user QPs only) */
	unsigned long inv_rcu;	/* LOCAL_INV, BIND_MW: the grace period it waits */
	u8 state;		/* enum mrc_wqe_state */
	u8 status;		/* enum ib_wc_status */
	/* struct rxe_sge sge[num_sge] or inline bytes follow */
	u8 data[] __aligned(8);
};

enum mrc_wqe_state {
	MRC_WQE_FREE,
	MRC_WQE_PENDING,	/* copied, not all packets built */
	MRC_WQE_INFLIGHT,	/* every packet sent at least once */
	MRC_WQE_DONE,		/* acknowledged; waits for in-order completion */
	MRC_WQE_INV_WAIT,	/* LOCAL_INV or rebind done; waits out RCU readers */
};

/*
 * The memory-management WRs, executed by the requester: REG_MR from kernel
 * QPs, BIND_MW from user QPs, LOCAL_INV from both.
 */
static inline bool mrc_wr_local(u32 opcode)
{
	return opcode == IB_WR_REG_MR || opcode == IB_WR_LOCAL_INV ||
	       opcode == IB_WR_BIND_MW;
}

/* The send opcodes an RC QP carries (kernel and user WQEs alike). */
static inline bool mrc_wr_opcode_ok(u32 opcode)
{
	switch (opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_SEND_WITH_INV:
	case IB_WR_RDMA_READ:
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return true;
	default:
		return false;
	}
}

static inline bool mrc_wr_atomic(u32 opcode)
{
	return opcode == IB_WR_ATOMIC_CMP_AND_SWP ||
	       opcode == IB_WR_ATOMIC_FETCH_AND_ADD;
}

static inline bool mrc_wr_is_send(u32 opcode)
{
	return opcode == IB_WR_SEND || opcode == IB_WR_SEND_WITH_IMM ||
	       opcode == IB_WR_SEND_WITH_INV;
}

/* The WRs whose message takes a receive WQE at the peer. */
static inline bool mrc_wr_consumes_rwqe(u32 opcode)
{
	return mrc_wr_is_send(opcode) || opcode == IB_WR_RDMA_WRITE_WITH_IMM;
}

/* Quadrants of the NSCC table (cc.c). */
enum mrc_cc_quadrant {
	MRC_CC_PROPORTIONAL,
	MRC_CC_FAIR,
	MRC_CC_DECREASE,
	MRC_CC_HOLD,
};

/**
 * struct mrc_cc - congestion window of a requester (cc.c), bytes
 * @cwnd: the window
 * @base_rtt_us: lowest RTT seen
 * @delay_us: the last RTT above it
 * @target_us: queueing delay the window aims at
 * @epoch_acked: bytes acknowledged in this window
 * @epoch_marked: of those, the ones whose SACK echoed CE
 * @decreased: this window has had its decrease
 * @decreases: decreases applied so far (for the counter)
 * @min_cwnd: from the CC profile
 * @max_cwnd: from the CC profile
 * @gamma: from the CC profile
 * @max_md_jump: from the CC profile
 * @eta: from the CC profile
 * @fi: from the CC profile
 */
struct mrc_cc {
	u32 cwnd;
	u32 base_rtt_us;
	u32 delay_us;
	u32 target_us;
	u32 epoch_acked;
	u32 epoch_marked;
	bool decreased;
	u32 decreases;
	u32 min_cwnd;
	u32 max_cwnd;
	u32 gamma;
	u32 max_md_jump;
	u32 eta;
	u32 fi;
};

/**
 * struct mrc_req - requester state of a QP, under mrc_qp.lock
 * @psn_next: PSN of the next new packet
 * @psn_una: oldest PSN not yet ACKed (every PSN before it is)
 * @psn_high: highest PSN SACKed so far (valid when @have_high)
 * @have_high: @psn_high is set
 * @plane_have: bit n: @plane_high[n] is set
 * @plane_high: per plane, the highest SACKed PSN sent on it
 * @sacked: PSNs of [@psn_una, @psn_next) acknowledged already, past a hole
 * @msn_next: MSN of the next new message
 * @rq_msn_next: receive-consuming messages sent so far
 * @send_idx: SQ slot of the WQE being packetised
 * @send_off: bytes of that WQE already packetised
 * @ring: per-PSN state of [@psn_una, @psn_next)
 * @ring_size: entries in @ring, a power of two >= @window
 * @window: PSNs the peer accepts (its MPR)
 * @cc: congestion window; the requester sends within both
 * @srtt_us: smoothed RTT from reflected timestamps (0: no sample yet)
 * @rttvar_us: its mean deviation
 * @plane_rtt_us: per plane, the longest round trip seen lately: a sample
 *	above it replaces it, one below pulls it down by 1/64 of the gap
 * @reo_thresh: PSNs below the highest SACKed one that make a hole lost
 * @reo_calm: packets acknowledged since reo_thresh last changed
 * @reo_mark: psn_next when reo_thresh last grew; older PSNs cannot grow it
 * @reo_marked: reo_mark is set
 * @ev_margin: later packets on one EV that may overtake an earlier one
 * @timeouts: consecutive retransmit timeouts without progress
 * @rnr_retries: RNR waits without progress
 * @rnr_pending: an RNR wait is under way (its NACKs count once)
 * @atomics_out: atomics sent and not answered, at most max_rd_atomic
 * @ctx: kernel copies of the SQ's WQEs, one per slot
 * @ctx_size: bytes of one @ctx entry
 * @ts_key: random, XORed into every timestamp and probe token the requester
 *	sends (mrc_req_stamp()); the peer reflects them, and an echo that does
 *	not decode to a time of the last few seconds is not of this QP's
 */
struct mrc_req {
	u32 psn_next;
	u32 psn_una;
	u32 psn_high;
	u32 sacked;
	bool have_high;
	u16 plane_have;
	u32 plane_high[MRC_MAX_PLANES];
	u32 msn_next;
	u32 rq_msn_next;
	u32 send_idx;
	u32 send_off;
	struct mrc_tx_slot *ring;
	u32 ring_size;
	u32 window;
	struct mrc_cc cc;
	u32 srtt_us;
	u32 rttvar_us;
	u32 plane_rtt_us[MRC_MAX_PLANES];
	u32 reo_thresh;
	u32 reo_calm;
	u32 reo_mark;
	bool reo_marked;
	u8 ev_margin;
	u8 timeouts;
	u8 rnr_retries;
	bool rnr_pending;
	u8 atomics_out;
	void *ctx;
	u32 ctx_size;
	u64 ts_key;
};

/*
 * One message the responder is receiving, by msn & (window - 1).  A READ's
 * request stays recorded after it completes, until message msn + window
 * takes the slot: only a request that repeats it (or the rest of it from
 * one of its PSNs) is served again.  An atomic's result stays the same way:
 * a repeat of the request gets it again, and the operation runs once.
 */
struct mrc_msg {
	u32 msn;
	bool used;
	bool has_imm;
	bool has_inv;		/* SEND_WITH_INV: invalidate @inv_rkey */
	bool consumes_rwqe;	/* SEND or WRITE_IMM */
	bool se;
	u8 kind;		/* enum mrc_msg_kind */
	u8 status;		/* enum ib_wc_status of the completion */
	bool replayed;		/* READ: served again at @replay_ns */
	bool executed;		/* ATOMIC: done, @orig is its result */
	u8 atomic_op;		/* ATOMIC: MRC_OP_CMP_SWAP or MRC_OP_FETCH_ADD */
	u16 npkts;		/* READ: PSNs from @psn, 0 until served */
	u32 psn;		/* READ, ATOMIC: its first PSN */
	u32 rkey;		/* READ, ATOMIC */
	u64 va;			/* READ, ATOMIC */
	u64 replay_ns;
	u64 swap_add;		/* ATOMIC: the operands */
	u64 compare;
	u64 orig;		/* ATOMIC: what the 8 bytes held */
	u32 len;		/* bytes of the whole message */
	u32 got;		/* bytes placed so far */
	u32 imm;
	u32 inv_rkey;
	u32 rq_msn;
};

enum mrc_msg_kind {
	MRC_MSG_WRITE,
	MRC_MSG_SEND,
	MRC_MSG_READ,
	MRC_MSG_ATOMIC,
};

/* Kernel copy of one receive WQE, claimed when its message first arrives. */
struct mrc_recv_ctx {
	u64 wr_id;
	u32 num_sge;
	u32 length;		/* sum of the SGE lengths */
	bool claimed;
	u8 status;		/* why the QP failed on it; 0: flushed */
	struct rxe_sge sge[];
};

/**
 * struct mrc_resp - responder state of a QP, under mrc_qp.lock
 * @cum_psn: every PSN before it has arrived, it has not
 * @bitmap: arrival of [@cum_psn, @cum_psn + @window), bit psn & (window-1)
 * @window: the MPR in PSNs, a power of two
 * @msgs: messages by msn & (window - 1)
 * @msn_done: next message to complete, in MSN order
 * @rq_msn_done: receive WQEs consumed so far
 * @rq_claim_end: one past the furthest receive WQE claimed, as an rq_msn
 * @since_sack: packets accepted since the last SACK
 * @rctx: kernel copies of claimed receive WQEs: one per RQ slot, or with
 *	an SRQ one per receive-consuming message ahead, by rq_msn
 * @rctx_size: bytes of one @rctx entry
 * @rctx_mask: entries of @rctx - 1
 */
struct mrc_resp {
	u32 cum_psn;
	unsigned long *bitmap;
	u32 window;
	struct mrc_msg *msgs;
	u32 msn_done;
	u32 rq_msn_done;
	u32 rq_claim_end;
	u32 since_sack;
	void *rctx;
	u32 rctx_size;
	u32 rctx_mask;
};

/* @psn, inside the window from cum_psn, has arrived. */
static inline bool mrc_resp_seen(const struct mrc_resp *r, u32 psn)
{
	return test_bit(psn & (r->window - 1), r->bitmap);
}

/*
 * An EV state change waiting for the events work: its value, new state,
 * whether the value has a flow label (STEV format), the EV profile of the
 * set (ids fit 16 bits), and how many changes the full ring lost just
 * before it (saturating: 12 bytes a note, 256 notes a QP).
 */
struct mrc_ev_note {
	u32 value;
	u8 state;
	bool stev;
	u16 evprof_id;
	u16 dropped;
};

/**
 * struct mrc_notes - events of a QP waiting to be sent (netlink_event.c)
 * @work: sends them from process context, outside mrc_qp.lock
 * @head: oldest entry of @ev
 * @len: entries of @ev in use; a change that finds it full is not reported
 *	but counted in @dropped, which the next note takes along
 * @qp_error: the QP went to the error state
 * @why: why it did (enum mrc_qp_error), when @qp_error
 * @dest_qpn: the peer's QP then
 * @dropped: changes lost since the last one recorded: to a full ring, or
 *	not sent for want of memory
 * @ev: ring of EV state changes, in the order they happened
 *
 * Filled under mrc_qp.lock, and only while the events group has listeners.
 */
struct mrc_notes {
	struct work_struct work;
	u16 head;
	u16 len;
	bool qp_error;
	u8 why;
	u32 dest_qpn;
	u16 dropped;
	struct mrc_ev_note ev[MRC_EV_NOTES];
};

/**
 * struct mrc_qp - an RC queue pair
 * @ibqp: core part
 * @mdev: the device
 * @lock: protects everything below that changes after creation; taken with
 *	_bh since the receive path and the timer run in softirq
 * @state: IB QP state
 * @is_user: created through uverbs (queues are shared with user space)
 * @owner: effective uid of the process that created it through uverbs:
 *	who may set its MRC attributes without CAP_NET_ADMIN
 * @dead: being destroyed; the timer must not re-arm
 * @sq: send queue
 * @rq: receive queue; without a buffer when the QP takes its receive
 *	WQEs from an SRQ (ibqp.srq)
 * @max_send_sge: SGEs of a send WQE at most
 * @max_recv_sge: SGEs of a receive WQE at most
 * @max_inline: inline bytes of a send WQE at most
 * @sq_sig_all: every send WQE generates a completion
 * @attr: the attributes modify_qp accepted (reported by query_qp)
 * @av: resolved destination
 * @mtu: payload bytes per packet (from attr.path_mtu)
 * @evs: the EV set and per-plane paths (ev.c, ev_probe.c, ev_path.c)
 * @rto_us: retransmit timeout from attr.timeout
 * @retry_exp: exponential retries after attr.retry_cnt linear ones
 *	(MRC_RETRY_EXP_INFINITE: never give up)
 * @send_cap: requester MPR, PSNs in flight at most
 * @own: profile settings the QP took itself (MRC_CMD_QP_SET), the parts
 *	@own_mask says (MRC_QP_OWN_*); NULL while it follows its device
 * @own_mask: see @own
 * @req: requester
 * @resp: responder
 * @rtx_timer: retransmit / RNR timer
 * @inv_timer: polls the grace period a LOCAL_INV's completion waits for
 * @dst_cache: route to @av.daddr, for packets sent before paths exist
 * @ud_txq: GSI QP: datagrams waiting for @ud_work to send them
 * @ud_work: GSI QP: sends @ud_txq from process context
 * @notes: EV and QP events for the controller, under @lock
 * @serial: unique among the device's QPs for the device's life: what a
 *	type 2 memory window is bound to, which no later QP can take over
 */
struct mrc_qp {
	struct ib_qp ibqp;
	struct mrc_device *mdev;
	spinlock_t lock; /* see above */
	enum ib_qp_state state;
	bool is_user;
	bool dead;
	kuid_t owner;
	struct mrc_queue sq;
	struct mrc_queue rq;
	u32 max_send_sge;
	u32 max_recv_sge;
	u32 max_inline;
	bool sq_sig_all;
	struct ib_qp_attr attr;
	struct mrc_av av;
	u32 mtu;
	struct mrc_evset *evs;
	u32 rto_us;
	u8 retry_exp;
	u32 send_cap;
	struct mrc_dev_prof *own;
	u8 own_mask;
	struct mrc_req req;
	struct mrc_resp resp;
	struct timer_list rtx_timer;
	struct timer_list inv_timer;
	struct dst_cache dst_cache;
	struct sk_buff_head ud_txq;
	struct work_struct ud_work;
	struct mrc_notes notes;
	u64 serial;
};

#define MRC_QP_OWN_EV	BIT(0)
#define MRC_QP_OWN_CC	BIT(1)

#define MRC_QP_SET_EVPROF	BIT(0)
#define MRC_QP_SET_CCPROF	BIT(1)
#define MRC_QP_SET_MPR		BIT(2)
#define MRC_QP_SET_MPR_DEST	BIT(3)
#define MRC_QP_SET_TIMEOUT	BIT(4)
#define MRC_QP_SET_RETRY_LINEAR	BIT(5)
#define MRC_QP_SET_RETRY_EXP	BIT(6)
/* What RTR builds from; the rest is first used at RTS. */
#define MRC_QP_SET_BEFORE_RTR	(MRC_QP_SET_EVPROF | MRC_QP_SET_CCPROF | \
				 MRC_QP_SET_MPR_DEST)

/**
 * struct mrc_qp_set - an MRC_CMD_QP_SET request, checked and ready to apply
 * @mask: what it sets (MRC_QP_SET_*)
 * @prof: the profiles it names, resolved (the EV and CC parts)
 * @mpr: requester MPR, PSNs
 * @timeout: as the verbs attribute
 * @retry_linear: as the verbs retry_cnt
 * @retry_exp: see struct mrc_qp
 * @own: allocated before the QP is looked up (mrc_qp_set_prepare()); the
 *	QP's replaced copy afterwards, for mrc_qp_set_release()
 * @mpr_dest: responder MPR, PSNs
 * @msgs: its message table, likewise swapped with the QP's
 * @bitmap: its PSN bitmap, likewise
 */
struct mrc_qp_set {
	u32 mask;
	struct mrc_dev_prof *prof;
	u32 mpr;
	u8 timeout;
	u8 retry_linear;
	u8 retry_exp;
	struct mrc_dev_prof *own;
	u32 mpr_dest;
	struct mrc_msg *msgs;
	unsigned long *bitmap;
};

static inline struct mrc_qp *to_mqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct mrc_qp, ibqp);
}

/* PSNs past psn_una in use: sent, whether acknowledged past a hole or not. */
static inline u32 mrc_req_used(const struct mrc_qp *qp)
{
	return mrc_psn_fwd(qp->req.psn_next, qp->req.psn_una);
}

/*
 * A time (ktime_get_ns()) as this requester puts it on the wire, and an
 * echo of one read back: the same XOR both ways.
 */
static inline u64 mrc_req_stamp(const struct mrc_qp *qp, u64 ns)
{
	return ns ^ qp->req.ts_key;
}

/*
 * Does an echoed timestamp decode to a time of the last MRC_ECHO_MAX_NS,
 * one this requester sent?  A forger who does not know the key lands one
 * with odds of about 2^-31.
 */
static inline bool mrc_req_echo_ok(const struct mrc_qp *qp, u64 echo, u64 now)
{
	u64 t = mrc_req_stamp(qp, echo);

	return t <= now && now - t <= MRC_ECHO_MAX_NS;
}

/*
 * The same for a probe's token: bit 63 marks the controller's probes
 * (ev_probe.c) and is no part of the time, and the controller may wait for
 * an answer up to MRC_PROBE_TIMEOUT_MS_MAX.
 */
static inline bool mrc_req_token_ok(const struct mrc_qp *qp, u64 token,
				    u64 now)
{
	u64 t = mrc_req_stamp(qp, token) & ~BIT_ULL(63);

	return t <= now &&
	       now - t <= (u64)MRC_PROBE_TIMEOUT_MS_MAX * NSEC_PER_MSEC;
}

/*
 * Does @psn lie in [psn_una - ring_size, psn_next], the PSNs this requester
 * sent lately?  What a peer acknowledges, or echoes, lies there.
 */
static inline bool mrc_req_psn_recent(const struct mrc_qp *qp, u32 psn)
{
	const struct mrc_req *req = &qp->req;
	u32 from = mrc_psn_add(req->psn_una, MRC_PSN_MASK + 1 - req->ring_size);

	return mrc_psn_fwd(psn, from) <= mrc_psn_fwd(req->psn_next, from);
}

static inline struct mrc_cq *to_mcq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct mrc_cq, ibcq);
}

static inline struct mrc_mw *to_mmw(struct ib_mw *ibmw)
{
	return container_of(ibmw, struct mrc_mw, ibmw);
}

static inline struct mrc_mr *to_mmr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct mrc_mr, ibmr);
}

static inline struct mrc_pd *to_mpd(struct ib_pd *ibpd)
{
	return container_of(ibpd, struct mrc_pd, ibpd);
}

static inline struct mrc_ah *to_mah(struct ib_ah *ibah)
{
	return container_of(ibah, struct mrc_ah, ibah);
}

static inline struct mrc_send_ctx *mrc_sctx(const struct mrc_qp *qp, u32 idx)
{
	return qp->req.ctx + (size_t)(idx & qp->sq.index_mask) *
			     qp->req.ctx_size;
}

/*
 * WQEs of the SQ the requester has taken from the poster: those before
 * send_idx, and the one at it once packetising began.  A producer index
 * with fewer WQEs posted has been moved backwards.
 */
static inline u32 mrc_req_taken(const struct mrc_qp *qp)
{
	u32 n = mrc_queue_count(&qp->sq, qp->req.send_idx, qp->sq.index);

	return n + (mrc_sctx(qp, qp->req.send_idx)->state != MRC_WQE_FREE);
}

static inline struct mrc_recv_ctx *mrc_rctx(const struct mrc_qp *qp, u32 idx)
{
	return qp->resp.rctx + (size_t)(idx & qp->resp.rctx_mask) *
			       qp->resp.rctx_size;
}

static inline struct mrc_tx_slot *mrc_slot(const struct mrc_qp *qp, u32 psn)
{
	return &qp->req.ring[psn & (qp->req.ring_size - 1)];
}

/* ---------------------------------------------------------------------
 * Counters: per plane (= per port), shown by `rdma statistic`
 */
enum mrc_counter {
	MRC_CNT_TX_PKTS,
	MRC_CNT_TX_BYTES,
	MRC_CNT_RX_PKTS,
	MRC_CNT_RX_BYTES,
	MRC_CNT_TX_DATA,
	MRC_CNT_RX_DATA,
	MRC_CNT_RETRANSMITS,
	MRC_CNT_FAST_RETRANSMITS,
	MRC_CNT_TIMEOUTS,
	MRC_CNT_DUPLICATES,
	MRC_CNT_OOO_PLACED,
	MRC_CNT_SACK_TX,
	MRC_CNT_SACK_RX,
	MRC_CNT_NACK_TX_OOR,
	MRC_CNT_NACK_TX_RNR,
	MRC_CNT_NACK_TX_RKEY,
	MRC_CNT_NACK_TX_ACCESS,
	MRC_CNT_NACK_TX_INVALID,
	MRC_CNT_NACK_RX,
	MRC_CNT_RX_BAD_ICRC,
	MRC_CNT_RX_MALFORMED,
	MRC_CNT_RX_NO_QP,
	MRC_CNT_RX_BAD_STATE,
	MRC_CNT_TX_DROPPED,
	MRC_CNT_RETRY_EXCEEDED,
	MRC_CNT_RNR_EXCEEDED,
	MRC_CNT_QP_ERRORS,
	MRC_CNT_UD_DROPPED,
	MRC_CNT_EV_ASSUMED_BAD,
	MRC_CNT_EV_SKIPS,
	MRC_CNT_EV_RECOVERED,
	MRC_CNT_EV_PROBES,
	MRC_CNT_EV_FLOOR,
	MRC_CNT_RX_ECN_CE,
	MRC_CNT_CC_DECREASES,
	MRC_CNT_CC_PENALTIES,
	MRC_CNT_PSTAT_TX,
	MRC_CNT_PSTAT_RX,
	MRC_CNT_RX_BAD_SRC,
	MRC_CNT_RX_DEFERRED_NACKS,
	MRC_CNT_RX_READ_REPLAY_REFUSED,
	MRC_CNT_RX_ACK_REJECTED,
	MRC_CNT_PSTAT_REJECTED,
	MRC_CNT_RX_LOOPBACK,
	MRC_CNT_MAX
};

struct mrc_counters {
	atomic64_t c[MRC_CNT_MAX];
};

#endif /* _MRC_VERBS_H */
