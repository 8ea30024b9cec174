// SPDX-License-Identifier: GPL-2.0
/*
 * mrc wire format v1: encode a header set into a buffer, decode and fully
 * validate one from a buffer, and the ICRC. Pure functions on flat buffers
 * (no skb, no allocation) so that KUnit can test every byte.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include "compat.h"

#include "kunit_export.h"
#include "psn.h"
#include "wire.h"

/* What each opcode carries and allows. */
#define A_VALID		BIT(0)
#define A_METH		BIT(1)	/* METH + RETH, may carry TSETH, RTX */
#define A_IMM		BIT(2)
#define A_DATA		BIT(3)	/* carries payload */
#define A_FIRST		BIT(4)	/* first packet of a message */
#define A_LAST		BIT(5)	/* last packet of a message */
#define A_OFFSET	BIT(6)	/* RETH va is an offset in the message */
#define A_SE		BIT(7)	/* MRC_BTH_F_SE allowed */
#define A_REQ		BIT(8)	/* a request: MRC_BTH_F_ACK_REQ allowed */
#define A_SACK		BIT(9)
#define A_NACK		BIT(10)
#define A_PROBE		BIT(11)
#define A_DETH		BIT(12)
#define A_PSTAT		BIT(13)
#define A_INV		BIT(14)	/* carries an IETH */
#define A_ATOMIC	BIT(15)	/* an atomic or its answer: dma_len is 8 */

#define A_SEND		(A_VALID | A_METH | A_DATA | A_OFFSET | A_REQ)
#define A_WRITE		(A_VALID | A_METH | A_DATA | A_REQ)
#define A_RRESP		(A_VALID | A_METH | A_DATA | A_OFFSET)

static const u16 mrc_op_attr[MRC_OP_COUNT] = {
	[MRC_OP_SEND_FIRST - MRC_OP_BASE]	= A_SEND | A_FIRST,
	[MRC_OP_SEND_MIDDLE - MRC_OP_BASE]	= A_SEND,
	[MRC_OP_SEND_LAST - MRC_OP_BASE]	= A_SEND | A_LAST | A_SE,
	[MRC_OP_SEND_LAST_IMM - MRC_OP_BASE]	= A_SEND | A_LAST | A_SE | A_IMM,
	[MRC_OP_SEND_ONLY - MRC_OP_BASE]	= A_SEND | A_FIRST | A_LAST | A_SE,
	[MRC_OP_SEND_ONLY_IMM - MRC_OP_BASE]	= A_SEND | A_FIRST | A_LAST |
						  A_SE | A_IMM,
	[MRC_OP_WRITE_FIRST - MRC_OP_BASE]	= A_WRITE | A_FIRST,
	[MRC_OP_WRITE_MIDDLE - MRC_OP_BASE]	= A_WRITE,
	[MRC_OP_WRITE_LAST - MRC_OP_BASE]	= A_WRITE | A_LAST,
	[MRC_OP_WRITE_LAST_IMM - MRC_OP_BASE]	= A_WRITE | A_LAST | A_SE | A_IMM,
	[MRC_OP_WRITE_ONLY - MRC_OP_BASE]	= A_WRITE | A_FIRST | A_LAST,
	[MRC_OP_WRITE_ONLY_IMM - MRC_OP_BASE]	= A_WRITE | A_FIRST | A_LAST |
						  A_SE | A_IMM,
	[MRC_OP_READ_REQ - MRC_OP_BASE]		= A_VALID | A_METH | A_REQ |
						  A_FIRST | A_LAST,
	[MRC_OP_READ_RESP_FIRST - MRC_OP_BASE]	= A_RRESP | A_FIRST,
	[MRC_OP_READ_RESP_MIDDLE - MRC_OP_BASE]	= A_RRESP,
	[MRC_OP_READ_RESP_LAST - MRC_OP_BASE]	= A_RRESP | A_LAST,
	[MRC_OP_READ_RESP_ONLY - MRC_OP_BASE]	= A_RRESP | A_FIRST | A_LAST,
	[MRC_OP_ATOMIC_ACK - MRC_OP_BASE]	= A_RRESP | A_FIRST | A_LAST |
						  A_ATOMIC,
	[MRC_OP_CMP_SWAP - MRC_OP_BASE]		= A_VALID | A_METH | A_REQ |
						  A_FIRST | A_LAST | A_ATOMIC,
	[MRC_OP_FETCH_ADD - MRC_OP_BASE]	= A_VALID | A_METH | A_REQ |
						  A_FIRST | A_LAST | A_ATOMIC,
	[MRC_OP_SEND_LAST_INV - MRC_OP_BASE]	= A_SEND | A_LAST | A_SE | A_INV,
	[MRC_OP_SEND_ONLY_INV - MRC_OP_BASE]	= A_SEND | A_FIRST | A_LAST |
						  A_SE | A_INV,
	[MRC_OP_SACK - MRC_OP_BASE]		= A_VALID | A_SACK,
	[MRC_OP_NACK - MRC_OP_BASE]		= A_VALID | A_NACK,
	[MRC_OP_PROBE - MRC_OP_BASE]		= A_VALID | A_PROBE,
	[MRC_OP_PORT_STATUS - MRC_OP_BASE]	= A_VALID | A_PSTAT,
	[MRC_OP_UD_SEND_ONLY - MRC_OP_BASE]	= A_VALID | A_DATA | A_DETH |
						  A_FIRST | A_LAST,
	[MRC_OP_UD_SEND_ONLY_IMM - MRC_OP_BASE]	= A_VALID | A_DATA | A_DETH |
						  A_FIRST | A_LAST | A_IMM,
};

static u16 mrc_attr(u8 opcode)
{
	u8 i = opcode - MRC_OP_BASE;

	return i < MRC_OP_COUNT ? mrc_op_attr[i] : 0;
}

static u32 mrc_hdr_len_attr(u16 attr, u8 flags)
{
	u32 len = sizeof(struct mrc_bth);

	if (attr & A_METH) {
		len += sizeof(struct mrc_meth) + sizeof(struct mrc_reth);
		if (flags & MRC_BTH_F_TSETH)
			len += sizeof(struct mrc_tseth);
	}
	if (attr & A_IMM)
		len += sizeof(struct mrc_immdt);
	if (attr & A_INV)
		len += sizeof(struct mrc_ieth);
	if ((attr & (A_ATOMIC | A_REQ)) == (A_ATOMIC | A_REQ))
		len += sizeof(struct mrc_atometh);
	if (attr & A_SACK)
		len += sizeof(struct mrc_sack);
	if (attr & A_NACK)
		len += sizeof(struct mrc_nack);
	if (attr & A_PROBE)
		len += sizeof(struct mrc_probe);
	if (attr & A_DETH)
		len += sizeof(struct mrc_deth);
	if (attr & A_PSTAT)
		len += sizeof(struct mrc_pstat);
	return len;
}

/**
 * mrc_wire_hdr_len() - length of the headers an opcode and flags imply
 * @opcode: enum mrc_opcode
 * @flags: MRC_BTH_F_* (only MRC_BTH_F_TSETH changes the length)
 *
 * Return: header length in bytes (BTH through the last header before the
 * payload), or -EPROTO for an unknown opcode.
 */
int mrc_wire_hdr_len(u8 opcode, u8 flags)
{
	u16 attr = mrc_attr(opcode);

	if (!attr)
		return -EPROTO;
	return mrc_hdr_len_attr(attr, flags);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_wire_hdr_len);

static bool mrc_psn_ok(u32 psn)
{
	return psn <= MRC_PSN_MASK;
}

static int mrc_check_sack(const struct mrc_hdrs *h)
{
	u8 f = h->sack.flags;

	if (f & ~MRC_SACK_F_ALL)
		return -EBADMSG;
	if ((f & MRC_SACK_F_M_MASK) == MRC_SACK_F_M_MASK)
		return -EBADMSG;
	if (!(f & (MRC_SACK_F_TS_VALID | MRC_SACK_F_PROBE)) && h->sack.ref_ts)
		return -EBADMSG;
	if (!mrc_psn_ok(h->sack.cum_psn) || !mrc_psn_ok(h->sack.sack_psn))
		return -EBADMSG;
	if (!h->sack.window || h->sack.window > MRC_PSN_WINDOW_MAX)
		return -EBADMSG;
	if (h->sack.penalty > MRC_SACK_PENALTY_MAX)
		return -EBADMSG;
	/* The bitmap may not describe PSNs the cumulative PSN already covers. */
	if (mrc_psn_before(h->sack.sack_psn, h->sack.cum_psn))
		return -EBADMSG;
	/* cum_psn is missing by definition; bit 0 may not claim it. */
	if (h->sack.sack_psn == h->sack.cum_psn && (h->sack.bitmap & 1))
		return -EBADMSG;
	return 0;
}

static int mrc_check_nack(const struct mrc_hdrs *h)
{
	u32 info = h->nack.info;

	if (!mrc_psn_ok(h->nack.cum_psn))
		return -EBADMSG;
	switch (h->nack.reason) {
	case MRC_NACK_PSN_OOR_WINDOW:
		/* info: the responder's current MPR, in PSNs */
		return info && info <= MRC_PSN_WINDOW_MAX ? 0 : -EBADMSG;
	case MRC_NACK_RNR:
		return info <= MRC_RNR_TIMER_MAX ? 0 : -EBADMSG;
	case MRC_NACK_TRIMMED:
	case MRC_NACK_TRIMMED_LASTHOP:
	case MRC_NACK_NO_RESOURCE:
	case MRC_NACK_INVALID_REQUEST:
	case MRC_NACK_RKEY_VIOLATION:
	case MRC_NACK_ACCESS:
	case MRC_NACK_REMOTE_OP:
	case MRC_NACK_UNEXP_EVENT:
		return info ? -EBADMSG : 0;
	default:
		return -EPROTO;
	}
}

/* Lengths and addresses of a data packet against its message. */
static int mrc_check_data(const struct mrc_hdrs *h, u16 attr)
{
	u64 va = h->va, len = h->dma_len, pay = h->payload_len;

	if (attr & A_OFFSET) {
		if (h->rkey || va > len || pay > len - va)
			return -EBADMSG;
		if ((attr & A_FIRST) && va)
			return -EBADMSG;
		if ((attr & A_LAST) && va + pay != len)
			return -EBADMSG;
		if (!(attr & A_FIRST) && !va)
			return -EBADMSG;
		if (!(attr & A_LAST) && va + pay == len)
			return -EBADMSG;
	} else if (pay > U64_MAX - va) {
		return -EBADMSG;
	}

	if ((attr & (A_FIRST | A_LAST)) == (A_FIRST | A_LAST))
		return pay == len ? 0 : -EBADMSG;
	/* Part of a multi-packet message: some, but not all, of it. */
	return pay && pay < len ? 0 : -EBADMSG;
}

/**
 * mrc_wire_check() - validate a host-endian header set
 * @h: headers, including payload_len
 *
 * The one set of rules both directions apply: encode refuses to build what
 * decode would refuse to accept. Fields an opcode does not carry must be 0.
 *
 * Return: 0, -EPROTO for an unknown opcode or NACK reason, else -EBADMSG.
 */
int mrc_wire_check(const struct mrc_hdrs *h)
{
	u16 attr = mrc_attr(h->opcode);
	u8 f = h->flags;

	if (!attr)
		return -EPROTO;
	if (f & ~MRC_BTH_F_ALL)
		return -EBADMSG;
	if ((f & MRC_BTH_F_SE) && !(attr & A_SE))
		return -EBADMSG;
	if ((f & MRC_BTH_F_ACK_REQ) && !(attr & A_REQ))
		return -EBADMSG;
	if ((f & (MRC_BTH_F_RTX | MRC_BTH_F_TSETH)) && !(attr & A_METH))
		return -EBADMSG;
	if (!mrc_psn_ok(h->dqpn) || !mrc_psn_ok(h->psn))
		return -EBADMSG;
	if (!(f & MRC_BTH_F_TSETH) && h->ts)
		return -EBADMSG;
	if (!(attr & A_IMM) && h->imm)
		return -EBADMSG;
	if (!(attr & A_INV) && h->inv_rkey)
		return -EBADMSG;
	if ((!(attr & A_ATOMIC) || !(attr & A_REQ)) &&
	    (h->swap_add || h->compare))
		return -EBADMSG;
	if (h->opcode == MRC_OP_FETCH_ADD && h->compare)
		return -EBADMSG;
	if ((attr & A_ATOMIC) && h->dma_len != MRC_ATOMIC_LEN)
		return -EBADMSG;
	if (!(attr & A_DATA) && h->payload_len)
		return -EBADMSG;
	if (!(attr & A_DETH) && (h->qkey || h->src_qpn))
		return -EBADMSG;
	if ((attr & A_DETH) && !mrc_psn_ok(h->src_qpn))
		return -EBADMSG;

	if (!(attr & A_METH)) {
		if (h->msn || h->rq_msn || h->va || h->rkey || h->dma_len)
			return -EBADMSG;
		if (attr & A_SACK)
			return mrc_check_sack(h);
		if (attr & A_NACK)
			return mrc_check_nack(h);
		return 0;
	}

	if (h->dma_len > MRC_MAX_MSG_LEN)
		return -EBADMSG;
	if (!(attr & A_REQ) && h->rq_msn)
		return -EBADMSG;
	if (attr & A_DATA)
		return mrc_check_data(h, attr);
	/* READ request: the remote range may not wrap the address space. */
	return h->va > U64_MAX - h->dma_len ? -EBADMSG : 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_wire_check);

/**
 * mrc_wire_encode() - write the headers of one packet
 * @h: what to write; h->payload_len must be the payload that will follow
 * @buf: start of the MRC packet (the UDP payload)
 * @size: bytes available at @buf
 *
 * Writes BTH through the last header; the caller appends the payload and
 * then seals the packet with mrc_icrc_seal().
 *
 * Return: header length, -EINVAL if @h breaks a rule of the wire format,
 * -ENOSPC if the headers do not fit in @size.
 */
int mrc_wire_encode(const struct mrc_hdrs *h, void *buf, size_t size)
{
	u16 attr = mrc_attr(h->opcode);
	struct mrc_bth *bth = buf;
	u8 *p = buf;
	u32 len;

	if (mrc_wire_check(h))
		return -EINVAL;
	len = mrc_hdr_len_attr(attr, h->flags);
	if (size < len)
		return -ENOSPC;

	bth->opcode = h->opcode;
	bth->flags = h->flags;
	bth->version = MRC_WIRE_VERSION;
	bth->rsvd = 0;
	bth->dqpn = cpu_to_be32(h->dqpn);
	bth->psn = cpu_to_be32(h->psn);
	bth->ev = cpu_to_be32(h->ev);
	p += sizeof(*bth);

	if (attr & A_DETH) {
		struct mrc_deth *deth = (struct mrc_deth *)p;

		deth->qkey = cpu_to_be32(h->qkey);
		deth->sqpn = cpu_to_be32(h->src_qpn);
		p += sizeof(*deth);
	}

	if (attr & A_METH) {
		struct mrc_meth *meth = (struct mrc_meth *)p;
		struct mrc_reth *reth;

		meth->msn = cpu_to_be32(h->msn);
		meth->rq_msn = cpu_to_be32(h->rq_msn);
		p += sizeof(*meth);
		if (h->flags & MRC_BTH_F_TSETH) {
			struct mrc_tseth *ts = (struct mrc_tseth *)p;

			ts->ts = cpu_to_be64(h->ts);
			p += sizeof(*ts);
		}
		reth = (struct mrc_reth *)p;
		reth->va = cpu_to_be64(h->va);
		reth->rkey = cpu_to_be32(h->rkey);
		reth->len = cpu_to_be32(h->dma_len);
		p += sizeof(*reth);
	}
	if (attr & A_IMM) {
		((struct mrc_immdt *)p)->imm = cpu_to_be32(h->imm);
		p += sizeof(struct mrc_immdt);
	}
	if (attr & A_INV) {
		((struct mrc_ieth *)p)->rkey = cpu_to_be32(h->inv_rkey);
		p += sizeof(struct mrc_ieth);
	}
	if ((attr & (A_ATOMIC | A_REQ)) == (A_ATOMIC | A_REQ)) {
		struct mrc_atometh *a = (struct mrc_atometh *)p;

		a->swap_add = cpu_to_be64(h->swap_add);
		a->compare = cpu_to_be64(h->compare);
		p += sizeof(*a);
	}
	if (attr & A_SACK) {
		struct mrc_sack *s = (struct mrc_sack *)p;

		s->cum_psn = cpu_to_be32((u32)h->sack.flags << 24 |
					 h->sack.cum_psn);
		s->sack_psn = cpu_to_be32(h->sack.sack_psn);
		s->bitmap = cpu_to_be64(h->sack.bitmap);
		s->ref_ev = cpu_to_be32(h->sack.ref_ev);
		s->window = cpu_to_be32((u32)h->sack.penalty <<
					MRC_SACK_PENALTY_SHIFT | h->sack.window);
		s->ref_ts = cpu_to_be64(h->sack.ref_ts);
	}
	if (attr & A_NACK) {
		struct mrc_nack *n = (struct mrc_nack *)p;

		n->reason = h->nack.reason;
		n->rsvd = 0;
		n->rsvd2 = 0;
		n->cum_psn = cpu_to_be32(h->nack.cum_psn);
		n->ref_ev = cpu_to_be32(h->nack.ref_ev);
		n->info = cpu_to_be32(h->nack.info);
	}
	if (attr & A_PROBE)
		((struct mrc_probe *)p)->token = cpu_to_be64(h->probe.token);
	if (attr & A_PSTAT) {
		struct mrc_pstat *ps = (struct mrc_pstat *)p;

		ps->seq = cpu_to_be32(h->pstat.seq);
		ps->down = cpu_to_be32(h->pstat.down);
	}
	return len;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_wire_encode);

/**
 * mrc_wire_decode_hdrs() - parse and validate the headers of one packet
 * @pkt: start of the MRC packet (the UDP payload)
 * @len: length of the whole packet, headers + payload + ICRC
 * @h: filled in on success, zeroed on failure
 *
 * Reads only header bytes, never more than min(@len, MRC_MAX_HDR_LEN), so
 * the caller need only have that much linear. Does not check the ICRC.
 *
 * Return: 0, -EPROTO for an unknown version, opcode or NACK reason,
 * -EBADMSG for a short packet or any other field out of rule.
 */
int mrc_wire_decode_hdrs(const void *pkt, size_t len, struct mrc_hdrs *h)
{
	const struct mrc_bth *bth = pkt;
	const u8 *p = pkt;
	u32 dqpn, psn, hlen;
	u16 attr;
	int err;

	memset(h, 0, sizeof(*h));
	if (len < sizeof(*bth) + MRC_ICRC_LEN || len > MRC_MAX_PKT_LEN)
		return -EBADMSG;
	if (bth->version != MRC_WIRE_VERSION)
		return -EPROTO;
	attr = mrc_attr(bth->opcode);
	if (!attr)
		return -EPROTO;
	dqpn = be32_to_cpu(bth->dqpn);
	psn = be32_to_cpu(bth->psn);
	if (bth->rsvd || !mrc_psn_ok(dqpn) || !mrc_psn_ok(psn))
		return -EBADMSG;
	hlen = mrc_hdr_len_attr(attr, bth->flags);
	if (len < hlen + MRC_ICRC_LEN)
		return -EBADMSG;

	h->opcode = bth->opcode;
	h->flags = bth->flags;
	h->dqpn = dqpn;
	h->psn = psn;
	h->ev = be32_to_cpu(bth->ev);
	p += sizeof(*bth);

	if (attr & A_DETH) {
		const struct mrc_deth *deth = (const struct mrc_deth *)p;

		h->qkey = be32_to_cpu(deth->qkey);
		h->src_qpn = be32_to_cpu(deth->sqpn);
		p += sizeof(*deth);
	}

	if (attr & A_METH) {
		const struct mrc_meth *meth = (const struct mrc_meth *)p;
		const struct mrc_reth *reth;

		h->msn = be32_to_cpu(meth->msn);
		h->rq_msn = be32_to_cpu(meth->rq_msn);
		p += sizeof(*meth);
		if (h->flags & MRC_BTH_F_TSETH) {
			h->ts = be64_to_cpu(((const struct mrc_tseth *)p)->ts);
			p += sizeof(struct mrc_tseth);
		}
		reth = (const struct mrc_reth *)p;
		h->va = be64_to_cpu(reth->va);
		h->rkey = be32_to_cpu(reth->rkey);
		h->dma_len = be32_to_cpu(reth->len);
		p += sizeof(*reth);
	}
	if (attr & A_IMM) {
		h->imm = be32_to_cpu(((const struct mrc_immdt *)p)->imm);
		p += sizeof(struct mrc_immdt);
	}
	if (attr & A_INV) {
		h->inv_rkey = be32_to_cpu(((const struct mrc_ieth *)p)->rkey);
		p += sizeof(struct mrc_ieth);
	}
	if ((attr & (A_ATOMIC | A_REQ)) == (A_ATOMIC | A_REQ)) {
		const struct mrc_atometh *a = (const struct mrc_atometh *)p;

		h->swap_add = be64_to_cpu(a->swap_add);
		h->compare = be64_to_cpu(a->compare);
		p += sizeof(*a);
	}
	if (attr & A_SACK) {
		const struct mrc_sack *s = (const struct mrc_sack *)p;
		u32 cum = be32_to_cpu(s->cum_psn);
		u32 w = be32_to_cpu(s->window);

		h->sack.flags = cum >> 24;
		h->sack.cum_psn = cum & MRC_PSN_MASK;
		h->sack.sack_psn = be32_to_cpu(s->sack_psn);
		h->sack.bitmap = be64_to_cpu(s->bitmap);
		h->sack.ref_ev = be32_to_cpu(s->ref_ev);
		/* Reserved bit 31 stays: it puts the window out of range. */
		h->sack.penalty = (w >> MRC_SACK_PENALTY_SHIFT) &
				  MRC_SACK_PENALTY_MAX;
		h->sack.window = w & ~((u32)MRC_SACK_PENALTY_MAX <<
				       MRC_SACK_PENALTY_SHIFT);
		h->sack.ref_ts = be64_to_cpu(s->ref_ts);
	}
	if (attr & A_NACK) {
		const struct mrc_nack *n = (const struct mrc_nack *)p;

		if (n->rsvd || n->rsvd2)
			goto bad;
		h->nack.reason = n->reason;
		h->nack.cum_psn = be32_to_cpu(n->cum_psn);
		h->nack.ref_ev = be32_to_cpu(n->ref_ev);
		h->nack.info = be32_to_cpu(n->info);
	}
	if (attr & A_PROBE)
		h->probe.token = be64_to_cpu(((const struct mrc_probe *)p)->token);
	if (attr & A_PSTAT) {
		const struct mrc_pstat *ps = (const struct mrc_pstat *)p;

		h->pstat.seq = be32_to_cpu(ps->seq);
		h->pstat.down = be32_to_cpu(ps->down);
	}

	h->hdr_len = hlen;
	h->payload_len = len - hlen - MRC_ICRC_LEN;
	err = mrc_wire_check(h);
	if (!err)
		return 0;
	memset(h, 0, sizeof(*h));
	return err;
bad:
	memset(h, 0, sizeof(*h));
	return -EBADMSG;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_wire_decode_hdrs);

/**
 * mrc_wire_decode() - verify the ICRC of a linear packet, then decode it
 * @pkt: the whole MRC packet
 * @len: its length, ICRC included
 * @h: filled in on success, zeroed on failure
 *
 * Return: as mrc_wire_decode_hdrs(); an ICRC mismatch is -EBADMSG.
 */
int mrc_wire_decode(const void *pkt, size_t len, struct mrc_hdrs *h)
{
	memset(h, 0, sizeof(*h));
	if (len < sizeof(struct mrc_bth) + MRC_ICRC_LEN)
		return -EBADMSG;
	if (!mrc_icrc_check(pkt, len))
		return -EBADMSG;
	return mrc_wire_decode_hdrs(pkt, len, h);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_wire_decode);

/**
 * mrc_icrc() - CRC32C of a buffer
 * @buf: data
 * @len: its length
 *
 * Return: the standard CRC-32C (Castagnoli) of @buf.
 */
u32 mrc_icrc(const void *buf, size_t len)
{
	return mrc_icrc_end(mrc_icrc_update(mrc_icrc_begin(), buf, len));
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_icrc);

/**
 * mrc_icrc_seal() - write the ICRC trailer of a linear packet
 * @pkt: the packet, its last MRC_ICRC_LEN bytes reserved for the ICRC
 * @len: its length, ICRC included
 *
 * Return: 0, or -EINVAL if @len cannot hold an ICRC.
 */
int mrc_icrc_seal(void *pkt, size_t len)
{
	if (len < MRC_ICRC_LEN || len > MRC_MAX_PKT_LEN)
		return -EINVAL;
	len -= MRC_ICRC_LEN;
	put_unaligned_be32(mrc_icrc(pkt, len), (u8 *)pkt + len);
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_icrc_seal);

/**
 * mrc_icrc_check() - does a linear packet's ICRC trailer match its bytes?
 * @pkt: the packet
 * @len: its length, ICRC included
 *
 * Return: true if it matches.
 */
bool mrc_icrc_check(const void *pkt, size_t len)
{
	if (len < MRC_ICRC_LEN || len > MRC_MAX_PKT_LEN)
		return false;
	len -= MRC_ICRC_LEN;
	return get_unaligned_be32((const u8 *)pkt + len) == mrc_icrc(pkt, len);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_icrc_check);
