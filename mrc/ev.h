/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Entropy values (EVs) and paths of one QP: the set a QP sprays over, their
 * states, and the per-plane routes they take.  Documentation/multipath.md
 * tells the whole story; ev.c (the state machine), ev_probe.c (probes,
 * port status) and ev_path.c (paths, installation) implement it.
 */
#ifndef _MRC_EV_H
#define _MRC_EV_H

#include <linux/bits.h>
#include <linux/completion.h>
#include <linux/ktime.h>
#include <linux/prandom.h>
#include <linux/refcount.h>
#include <linux/skbuff.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <net/dst_cache.h>
#include <linux/mrc.h>

#include "param.h"
#include "verbs.h"

struct mrc_srv6_dst;

#define MRC_EV_ENTROPY_BITS	14	/* UDP source port 0xc000 | entropy */

/*
 * EV value on the wire (BTH.ev, echoed in SACK/NACK ref_ev), opaque to the
 * peer: 31..24 plane, 23..16 slot in the QP's active set, 15 set when the
 * value names no slot (a retired entropy being probed, a packet sent before
 * the QP had paths, a GSI datagram), 13..0 the entropy.
 */
#define MRC_EV_F_UNTRACKED	BIT(15)

static inline u32 mrc_ev_value(u8 plane, u8 slot, u16 entropy)
{
	return (u32)plane << 24 | (u32)slot << 16 |
	       (entropy & (BIT(MRC_EV_ENTROPY_BITS) - 1));
}

static inline u32 mrc_ev_untracked(u8 plane, u16 entropy)
{
	return mrc_ev_value(plane, 0, entropy) | MRC_EV_F_UNTRACKED;
}

static inline u8 mrc_ev_plane(u32 value)
{
	return value >> 24;
}

static inline u8 mrc_ev_slot(u32 value)
{
	return value >> 16;
}

static inline u16 mrc_ev_entropy(u32 value)
{
	return value & (BIT(MRC_EV_ENTROPY_BITS) - 1);
}

/* The UDP source port (host order) a packet on @value leaves with. */
static inline u16 mrc_ev_sport(u32 value)
{
	return 0xc000 | mrc_ev_entropy(value);
}

/*
 * STEV: the outer IPv6 flow label of a packet on @value, a function of its
 * entropy alone, so an EV keeps its label wherever it is sent from (slot,
 * probe of a retired entropy, retransmission).  (entropy + 1) times an odd
 * constant modulo 2^20 is one-to-one on 20 bits and never 0, the value
 * that means "no label": distinct entropies of a plane get distinct
 * labels, spread over the whole field for switches that hash only a few
 * of its bits.  Computed per packet, so struct mrc_ev stays as it is.
 */
#define MRC_EV_LABEL_MULT	0x9e377		/* 2^20 / golden ratio, odd */
#define MRC_EV_LABEL_MASK	GENMASK(19, 0)

static inline u32 mrc_ev_flow_label(u32 value)
{
	return ((mrc_ev_entropy(value) + 1) * MRC_EV_LABEL_MULT) &
	       MRC_EV_LABEL_MASK;
}

/* Largest STEV entry: a 20-bit flow label above a 16-bit source port. */
#define MRC_EV_STEV_MAX		((1ULL << 36) - 1)

/**
 * struct mrc_ev - one slot of the active set
 * @value: the EV on the wire; a new entropy gets a new value
 * @plane: plane index
 * @state: enum mrc_ev_state
 * @probe_ok: probe answers since it went ASSUMED_BAD
 * @suspect: overdue packets (PSN distance or timeout) since the path was
 *	last heard, counting only packets sent after the first was found
 * @tx_seq: packets sent on @value, the sender's per-EV order
 * @signal_seq: @tx_seq when the first of those was found overdue (valid
 *	while @suspect): packets from here on were sprayed onto the path after
 *	its first loss signal, and only they count again
 * @signal_ns: when that first overdue packet left
 * @acked_seq: one past the highest @tx_seq acknowledged: a packet with a
 *	lower sequence still missing, sent from the same CPU, was lost on this
 *	path, since one EV is one FIFO path from each sending CPU
 * @acked_cpu: the CPU that packet left from
 * @changed: time of the last state change
 * @probe_at: ASSUMED_BAD: next probe (jiffies)
 * @probe_ms: ASSUMED_BAD: the interval of @probe_at
 * @tx_pkts: counter of the slot: packets sent on it
 * @retx: counter of the slot: retransmissions among them
 * @losses: counter of the slot: losses its path was blamed for
 * @ecn: counter of the slot: congestion signals (SKIP_ONCE verdicts,
 *	trimmed NACKs)
 * @retired: counter of the slot: entropies it replaced
 */
struct mrc_ev {
	u32 value;
	u8 plane;
	u8 state;
	u8 probe_ok;
	u8 suspect;
	u32 tx_seq;
	u32 signal_seq;
	u64 signal_ns;
	u32 acked_seq;
	u16 acked_cpu;
	ktime_t changed;
	unsigned long probe_at;
	u32 probe_ms;
	u64 tx_pkts;
	u64 retx;
	u64 losses;
	u64 ecn;
	u64 retired;
};

/* struct mrc_ev_spare.home of an entropy that goes back to the spares */
#define MRC_EV_NO_HOME		0xffff

/**
 * struct mrc_ev_spare - a retired entropy of one plane, probed until it answers
 * @entropy: the entropy
 * @home: the slot it was retired from, which it takes back once it answers
 *	(the slot's original share of the paths), or MRC_EV_NO_HOME when
 *	another retired entropy claims that slot already
 * @used: the entry holds an entropy
 * @probe_ok: probe answers so far
 * @probe_ms: the probe interval
 * @probe_at: the next probe (jiffies)
 * @tx_seq: with @acked_seq and @acked_cpu, the per-EV order of its value
 *	at retirement, resumed when it goes home: its old packets keep lower
 *	sequence numbers than the new ones, so a late acknowledgment of an
 *	old packet cannot make a new one look overtaken
 * @acked_seq: see @tx_seq
 * @acked_cpu: see @tx_seq
 */
struct mrc_ev_spare {
	u16 entropy;
	u16 home;
	u8 used;
	u8 probe_ok;
	u16 acked_cpu;
	u32 probe_ms;
	u32 tx_seq;
	u32 acked_seq;
	unsigned long probe_at;
};

/**
 * struct mrc_ev_probe_wait - a controller's probe of one EV (MRC_CMD_PROBE)
 * @token: sent in the probe, echoed by the SACK that answers it
 * @value: the EV probed; the answer must echo it too
 * @stev: the QP's EVs are in the STEV format: @value has a flow label
 * @rtt_ns: filled in with the answer
 * @err: 0 when answered, -ENOENT when the QP went away first
 * @done: completed with @err set, after the QP has forgotten the waiter
 * @ref: the controller's reference and, while it holds the waiter, the
 *	QP's: a controller that stops waiting (timeout, signal, its device
 *	gone from the registry) may leave before the QP forgets the waiter
 */
struct mrc_ev_probe_wait {
	u64 token;
	u32 value;
	bool stev;
	u64 rtt_ns;
	int err;
	struct completion done;
	refcount_t ref;
};

/**
 * struct mrc_rx_src - where a received packet says it came from
 * @family: AF_INET or AF_INET6, from the IP header's version
 * @v4: IPv4 source
 * @v6: IPv6 source (the inner header's, after SRv6 decapsulation)
 */
struct mrc_rx_src {
	u8 family;
	union {
		__be32 v4;
		struct in6_addr v6;
	};
};

/* The route of a QP on one plane: addresses derived from the QP's AV. */
struct mrc_path {
	struct mrc_av av;
	struct dst_cache dc;
	bool valid;
};

/**
 * struct mrc_evset - the paths of a QP, under mrc_qp.lock
 * @n: active slots in @ev
 * @cursor: next position in @order
 * @rotation: completed passes over @order
 * @min_active: floor of GOOD slots a loss may not break
 * @want_min_active: @min_active asked for by the EV profile, 0 for a
 *	quarter of the set
 * @max_backup: spare entropies kept per plane (EV profile)
 * @event_mask: MRC_EV_EVENT_* transitions reported (EV profile)
 * @format: enum mrc_ev_format of the EV profile: STEV puts each EV's flow
 *	label in the outer IPv6 header.  Set just before the paths it applies
 *	to are installed; the TX path reads it unlocked, as it reads @path
 * @evprof_id: the EV profile the set was built from (the QP's own or its
 *	device's), 0 for none: what its EV events name
 * @order: rotation order, a permutation of [0, @n)
 * @ev: the active set
 * @backup: spare entropies per plane, taken when a slot is retired
 * @nbackup: entries of @backup per plane
 * @retired: retired entropies per plane, probed in the background
 * @path: per plane
 * @rnd: rotation shuffles and entropy draws
 * @qp: owner
 * @probe_timer: sends probes to ASSUMED_BAD EVs
 * @gone_value: the value the last retirement replaced, so later holes of
 *	one SACK on it still count
 * @gone_acked: its acknowledged sequence
 * @gone_cpu: the CPU of that acknowledged packet
 * @waiter: the controller's probe in flight, at most one per QP
 * @srv6: the SRv6 paths of the QP's destination, NULL to send plain UDP;
 *	set under the QP lock, read by the TX path under RCU
 * @peer_down: planes the peer said it cannot receive on (port status):
 *	down for this QP as if they were down here
 * @peer_seq: sequence of the port status @peer_down came from
 * @peer_seq_valid: a port status has been applied since the last AV
 * @peer_status_ns: when the peer last applied or repeated it: a peer keeps
 *	saying a plane is down (MRC_PSTAT_REPEAT_MS), and what it stopped
 *	saying for MRC_PSTAT_EXPIRE_MS no longer holds
 * @pstat_ns: when this QP last sent its device's port status
 */
struct mrc_evset {
	u16 n;
	u16 cursor;
	u32 rotation;
	u16 min_active;
	u16 want_min_active;
	u8 max_backup;
	u32 event_mask;
	u8 format;
	u32 evprof_id;
	u16 order[MRC_EV_MAX];
	struct mrc_ev ev[MRC_EV_MAX];
	u16 backup[MRC_MAX_PLANES][MRC_MAX_BACKUPS];
	u8 nbackup[MRC_MAX_PLANES];
	struct mrc_ev_spare retired[MRC_MAX_PLANES][MRC_EV_RETIRED];
	struct mrc_path path[MRC_MAX_PLANES];
	struct rnd_state rnd;
	struct mrc_qp *qp;
	struct timer_list probe_timer;
	u32 gone_value;
	u32 gone_acked;
	u16 gone_cpu;
	struct mrc_ev_probe_wait *waiter;
	struct mrc_srv6_dst __rcu *srv6;
	u32 peer_down;
	u32 peer_seq;
	bool peer_seq_valid;
	u64 peer_status_ns;
	u64 pstat_ns;
};

/*
 * The IPv6 flow label of a packet of the QP of @s on @ev over path @av: the
 * EV's under STEV, else the AV's.  Lock-free, for the TX path.
 */
static inline u32 mrc_ev_label(const struct mrc_evset *s,
			       const struct mrc_av *av, u32 ev)
{
	return READ_ONCE(s->format) == MRC_EV_FORMAT_STEV ?
	       mrc_ev_flow_label(ev) : av->flow_label;
}

/* The GSI QP's datagrams have one path per AH and no EV set. */
#define MRC_UD_EV	mrc_ev_untracked(0, 0)

/**
 * struct mrc_ev_req - one slot of a controller's deny/undeny request
 * @slot: index in the active set
 * @state: MRC_EV_STATE_DENIED (deny) or MRC_EV_STATE_GOOD (undeny)
 * @attr: the request's MRC_A_EV nest, to point extack at
 */
struct mrc_ev_req {
	u32 slot;
	u8 state;
	const struct nlattr *attr;
};

/* What retired an EV: its tracepoint says, so stray retirements can be told apart. */
enum mrc_ev_why {
	MRC_EV_WHY_LOST,	/* a later packet on the same EV was acked */
	MRC_EV_WHY_SUSPECT,	/* overdue twice by PSN distance, path silent */
	MRC_EV_WHY_PEER,	/* the receiver's verdict: ALWAYS_SKIP */
	MRC_EV_WHY_TIMEOUT,	/* the oldest packet's timer fired */
};

/**
 * struct mrc_skb_cb - what the sender of an MRC packet knows, in skb->cb
 * @ev: the EV the packet's BTH carries
 * @plane: the plane it leaves on, mrc_ev_plane(@ev)
 *
 * Set by mrc_net_pkt() when the packet is built, read by mrc_net_xmit()
 * when it is sent after the QP's lock is dropped, so that nothing parses
 * a header it has just written.  Nothing in between touches skb->cb: the
 * packets wait on a local sk_buff_head.  (A GSI datagram, sent through
 * mrc_net_send() with its EV as an argument, keeps ud.c's own cb instead
 * while it waits for the UD worker.)
 */
struct mrc_skb_cb {
	u32 ev;
	u8 plane;
};

static inline struct mrc_skb_cb *MRC_SKB_CB(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct mrc_skb_cb) > sizeof(skb->cb));
	return (struct mrc_skb_cb *)skb->cb;
}

#endif /* _MRC_EV_H */
