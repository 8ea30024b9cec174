/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrc wire format v1: on-wire header layouts, opcodes, flags, NACK reasons
 * and the pure encode/decode helpers the TX and RX paths build on.
 * Documentation/wire-format.md describes every byte; keep the two in step.
 */
#ifndef _MRC_WIRE_H
#define _MRC_WIRE_H

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/crc32c.h>
#include <linux/types.h>

#define MRC_WIRE_VERSION	1

/*
 * Opcodes. MRC has its own opcode range; ours is 0xc0-0xdf, and the low five
 * bits of every data opcode equal the InfiniBand RC opcode of the same
 * operation, so a packet dump reads like RC. SEND and READ are mrc's
 * extension (MRC itself carries only WRITE and WRITE_IMM).
 */
enum mrc_opcode {
	MRC_OP_SEND_FIRST		= 0xc0,
	MRC_OP_SEND_MIDDLE		= 0xc1,
	MRC_OP_SEND_LAST		= 0xc2,
	MRC_OP_SEND_LAST_IMM		= 0xc3,
	MRC_OP_SEND_ONLY		= 0xc4,
	MRC_OP_SEND_ONLY_IMM		= 0xc5,
	MRC_OP_WRITE_FIRST		= 0xc6,
	MRC_OP_WRITE_MIDDLE		= 0xc7,
	MRC_OP_WRITE_LAST		= 0xc8,
	MRC_OP_WRITE_LAST_IMM		= 0xc9,
	MRC_OP_WRITE_ONLY		= 0xca,
	MRC_OP_WRITE_ONLY_IMM		= 0xcb,
	MRC_OP_READ_REQ			= 0xcc,
	MRC_OP_READ_RESP_FIRST		= 0xcd,
	MRC_OP_READ_RESP_MIDDLE		= 0xce,
	MRC_OP_READ_RESP_LAST		= 0xcf,
	MRC_OP_READ_RESP_ONLY		= 0xd0,
	/* 0xd1 reserved */
	/* The original value an atomic found, as a one-packet response. */
	MRC_OP_ATOMIC_ACK		= 0xd2,
	/* Atomic requests: an ATOMETH follows the RETH (whose len is 8). */
	MRC_OP_CMP_SWAP			= 0xd3,
	MRC_OP_FETCH_ADD		= 0xd4,
	/* 0xd5 reserved */
	/* SEND_WITH_INV's last packet: an IETH names the rkey to invalidate */
	MRC_OP_SEND_LAST_INV		= 0xd6,
	MRC_OP_SEND_ONLY_INV		= 0xd7,
	/*
	 * Unreliable datagram, one packet, to a UD QP or the GSI QP (QP1):
	 * the connection manager behind rdma_cm talks MADs over the latter.
	 */
	MRC_OP_UD_SEND_ONLY		= 0xd8,
	MRC_OP_UD_SEND_ONLY_IMM		= 0xd9,
	/* 0xda-0xdb reserved */
	MRC_OP_SACK			= 0xdc,
	MRC_OP_NACK			= 0xdd,
	MRC_OP_PROBE			= 0xde,
	/* The sender's planes that are down, to one peer QP. */
	MRC_OP_PORT_STATUS		= 0xdf,
};

#define MRC_OP_BASE	0xc0
#define MRC_OP_COUNT	0x20

/* Base header flags (struct mrc_bth.flags); bits 3..0 are reserved, zero. */
#define MRC_BTH_F_RTX		0x80	/* retransmission of this PSN */
#define MRC_BTH_F_ACK_REQ	0x40	/* please SACK now, do not coalesce */
#define MRC_BTH_F_SE		0x20	/* solicited event (SEND/WRITE_IMM end) */
#define MRC_BTH_F_TSETH		0x10	/* a TSETH follows the METH */
#define MRC_BTH_F_ALL		0xf0

/* Base transport header: first in every packet. */
struct mrc_bth {
	u8	opcode;
	u8	flags;
	u8	version;	/* MRC_WIRE_VERSION */
	u8	rsvd;
	__be32	dqpn;		/* 31..24 reserved, 23..0 destination QPN */
	__be32	psn;		/* 31..24 reserved, 23..0 PSN */
	__be32	ev;		/* entropy value the sender chose */
} __packed;

/* MRC extended transport header: every request and READ response. */
struct mrc_meth {
	__be32	msn;		/* message sequence number, modulo 2^32 */
	__be32	rq_msn;		/* receive-consuming messages sent before */
} __packed;

/* Timestamp header: present iff MRC_BTH_F_TSETH; opaque to the receiver. */
struct mrc_tseth {
	__be64	ts;
} __packed;

/*
 * RDMA extended transport header, in every data packet and READ request.
 * WRITE/READ_REQ: va is the remote address of this packet's first byte.
 * SEND/READ_RESP: va is the byte offset of this packet in the message and
 * rkey is zero. len is always the length of the whole message.
 */
struct mrc_reth {
	__be64	va;
	__be32	rkey;
	__be32	len;
} __packed;

/* Immediate data: SEND/WRITE LAST_IMM and ONLY_IMM only. */
struct mrc_immdt {
	__be32	imm;
} __packed;

/* Invalidate header: SEND_LAST_INV and SEND_ONLY_INV only. */
struct mrc_ieth {
	__be32	rkey;
} __packed;

/*
 * Atomic operands: CMP_SWAP and FETCH_ADD only.  CMP_SWAP writes swap_add
 * where the 8 bytes equal compare; FETCH_ADD adds swap_add, compare is 0.
 */
struct mrc_atometh {
	__be64	swap_add;
	__be64	compare;
} __packed;

/* The size and alignment of every atomic operand and result. */
#define MRC_ATOMIC_LEN		8

/* SACK flags, bits 31..24 of mrc_sack.cum_psn; bits 7..6 reserved. */
#define MRC_SACK_F_M_MASK	0x03	/* multipath verdict on the carrier EV */
#define MRC_SACK_M_NONE		0x00
#define MRC_SACK_M_SKIP_ONCE	0x01	/* the packet arrived ECN-CE marked */
#define MRC_SACK_M_ALWAYS_SKIP	0x02	/* receiver asks: stop using this EV */
#define MRC_SACK_F_TS_VALID	0x04	/* ref_ts holds the packet's timestamp */
#define MRC_SACK_F_PROBE	0x08	/* answers a PROBE; ref_ts = its token */
#define MRC_SACK_F_RTX		0x10	/* the packet had MRC_BTH_F_RTX set */
#define MRC_SACK_F_DUP		0x20	/* the packet's PSN was already here */
#define MRC_SACK_F_ALL		0x3f

/*
 * Receiver penalty, bits 30..24 of mrc_sack.window: how hard the responder
 * is pressed, 0 (not) to MRC_SACK_PENALTY_MAX; the requester gives up
 * penalty/128 of the bytes the SACK acknowledges from its window.
 */
#define MRC_SACK_PENALTY_SHIFT	24
#define MRC_SACK_PENALTY_MAX	127

/*
 * Selective ACK. Every PSN before cum_psn has arrived, cum_psn itself has
 * not. Bit i (value 1 << i) of bitmap says sack_psn + i has arrived.
 */
struct mrc_sack {
	__be32	cum_psn;	/* 31..24 flags, 23..0 cumulative PSN */
	__be32	sack_psn;	/* 31..24 reserved, 23..0 PSN of bitmap bit 0 */
	__be64	bitmap;
	__be32	ref_ev;		/* EV of the packet that triggered this */
	__be32	window;		/* 31 reserved, 30..24 penalty, 23..0 MPR */
	__be64	ref_ts;		/* reflected TSETH or PROBE token, or 0 */
} __packed;

/*
 * NACK reasons. 0x01-0x0f: the sender may retry; 0x10-0x1f: fatal, the
 * requester's QP goes to the error state.
 */
enum mrc_nack_reason {
	MRC_NACK_TRIMMED		= 0x01,	/* payload cut in the fabric */
	MRC_NACK_TRIMMED_LASTHOP	= 0x02,	/* cut at the last hop (incast) */
	MRC_NACK_PSN_OOR_WINDOW		= 0x03,	/* PSN beyond cum_psn + MPR */
	MRC_NACK_NO_RESOURCE		= 0x04,	/* responder out of buffers */
	MRC_NACK_RNR			= 0x05,	/* no receive WQE posted */
	MRC_NACK_INVALID_REQUEST	= 0x10,	/* well formed, not acceptable */
	MRC_NACK_RKEY_VIOLATION		= 0x11,	/* no such rkey for this QP */
	MRC_NACK_ACCESS			= 0x12,	/* rights or range outside MR */
	MRC_NACK_REMOTE_OP		= 0x13,	/* responder failed the op */
	MRC_NACK_UNEXP_EVENT		= 0x14,	/* protocol state violated */
};

#define MRC_NACK_FATAL_MIN	0x10

static inline bool mrc_nack_is_fatal(u8 reason)
{
	return reason >= MRC_NACK_FATAL_MIN;
}

/* Negative acknowledgment of the PSN in the BTH. */
struct mrc_nack {
	u8	reason;		/* enum mrc_nack_reason */
	u8	rsvd;
	__be16	rsvd2;
	__be32	cum_psn;	/* 31..24 reserved, 23..0 as in SACK */
	__be32	ref_ev;		/* EV of the NACKed packet */
	__be32	info;		/* reason-specific, else 0 */
} __packed;

/* Datagram extended transport header: UD_SEND_ONLY(_IMM), after the BTH. */
struct mrc_deth {
	__be32	qkey;
	__be32	sqpn;		/* 31..24 reserved, 23..0 source QPN */
} __packed;

/* Probe: consumes no PSN, answered by a SACK with MRC_SACK_F_PROBE. */
struct mrc_probe {
	__be64	token;		/* opaque, reflected in the SACK's ref_ts */
} __packed;

/*
 * Port status: consumes no PSN (the BTH's is 0). Planes the sender cannot
 * receive on, so the receiver's QP stops sending on them. seq orders the
 * updates of one sending device (they may overtake each other on different
 * planes); the newest wins.
 */
struct mrc_pstat {
	__be32	seq;		/* the sender's update count, modulo 2^32 */
	__be32	down;		/* bit k: the sender's plane k is down */
} __packed;

static_assert(sizeof(struct mrc_bth) == 16);
static_assert(sizeof(struct mrc_meth) == 8);
static_assert(sizeof(struct mrc_tseth) == 8);
static_assert(sizeof(struct mrc_reth) == 16);
static_assert(sizeof(struct mrc_immdt) == 4);
static_assert(sizeof(struct mrc_atometh) == 16);
static_assert(sizeof(struct mrc_sack) == 32);
static_assert(sizeof(struct mrc_nack) == 16);
static_assert(sizeof(struct mrc_probe) == 8);
static_assert(sizeof(struct mrc_pstat) == 8);
static_assert(sizeof(struct mrc_deth) == 8);

/* Invariant CRC (CRC32C) trailer after the payload of every packet. */
#define MRC_ICRC_LEN		4
/* BTH + METH + TSETH + RETH + ATOMETH; the others are shorter. */
#define MRC_MAX_HDR_LEN		64
/* BTH + METH + TSETH + RETH + IMMDT: the most a packet with payload has. */
#define MRC_MAX_DATA_HDR_LEN	52
/* Largest MRC packet a UDP datagram can hold. */
#define MRC_MAX_PKT_LEN		(65535 - 8)
/* Largest message, as in InfiniBand. */
#define MRC_MAX_MSG_LEN		BIT(31)
/* NACK RNR info: an IB RNR timer code. */
#define MRC_RNR_TIMER_MAX	31

/* Host-endian view of one packet's header set. Unused fields are zero. */
struct mrc_hdrs {
	u8	opcode;
	u8	flags;		/* MRC_BTH_F_* */
	u32	dqpn;
	u32	psn;
	u32	ev;
	u32	msn;		/* METH */
	u32	rq_msn;
	u64	ts;		/* TSETH */
	u64	va;		/* RETH */
	u32	rkey;
	u32	dma_len;
	u32	imm;		/* IMMDT */
	u32	inv_rkey;	/* IETH */
	u64	swap_add;	/* ATOMETH */
	u64	compare;
	u32	qkey;		/* DETH */
	u32	src_qpn;
	union {
		struct {
			u8	flags;	/* MRC_SACK_F_* */
			u32	cum_psn;
			u32	sack_psn;
			u64	bitmap;
			u32	ref_ev;
			u32	window;
			u8	penalty;	/* 0..MRC_SACK_PENALTY_MAX */
			u64	ref_ts;
		} sack;
		struct {
			u8	reason;
			u32	cum_psn;
			u32	ref_ev;
			u32	info;
		} nack;
		struct {
			u64	token;
		} probe;
		struct {
			u32	seq;
			u32	down;
		} pstat;
	};
	u32	hdr_len;	/* decode output */
	bool	ce;		/* not wire: the outer IP header was CE-marked */
	u32	payload_len;	/* decode output, encode input */
};

/* CRC32C as iSCSI and ext4 use it: seed ~0, final complement. */
static inline u32 mrc_icrc_begin(void)
{
	return ~0U;
}

static inline u32 mrc_icrc_update(u32 crc, const void *p, unsigned int len)
{
	return crc32c(crc, p, len);
}

static inline u32 mrc_icrc_end(u32 crc)
{
	return ~crc;
}

u32 mrc_icrc(const void *buf, size_t len);
int mrc_icrc_seal(void *pkt, size_t len);
bool mrc_icrc_check(const void *pkt, size_t len);

int mrc_wire_hdr_len(u8 opcode, u8 flags);
int mrc_wire_check(const struct mrc_hdrs *h);
int mrc_wire_encode(const struct mrc_hdrs *h, void *buf, size_t size);
int mrc_wire_decode_hdrs(const void *pkt, size_t len, struct mrc_hdrs *h);
int mrc_wire_decode(const void *pkt, size_t len, struct mrc_hdrs *h);

#endif /* _MRC_WIRE_H */
