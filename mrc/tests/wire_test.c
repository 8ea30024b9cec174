// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "mrc-wire": wire format v1 from mrc/wire.c. Byte-exact test
 * vectors, encode/decode round trips of every opcode, rejection of short,
 * corrupt and out-of-rule packets without reading past the buffer (every
 * decode runs on an exact-size allocation, so KASAN sees any overread).
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/string.h>
#include "../compat.h"

#include "../psn.h"
#include "../wire.h"

struct wire_vector {
	const char *name;
	const u8 *bytes;
	size_t len;
	struct mrc_hdrs hdrs;
};

/* WRITE_ONLY_IMM, ACK_REQ|SE|TSETH, payload "abcd" */
static const u8 vec_write_only_imm[] = {
	0xcb, 0x70, 0x01, 0x00,				/* op, flags, ver */
	0x00, 0x00, 0x00, 0x11,				/* dqpn */
	0x00, 0x00, 0x01, 0x00,				/* psn */
	0x0b, 0xad, 0xca, 0xfe,				/* ev */
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02,	/* msn, rq_msn */
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,	/* ts */
	0x00, 0x00, 0x7f, 0x00, 0x00, 0x00, 0x10, 0x00,	/* va */
	0x00, 0x00, 0x12, 0x34, 0x00, 0x00, 0x00, 0x04,	/* rkey, len */
	0xde, 0xad, 0xbe, 0xef,				/* imm */
	0x61, 0x62, 0x63, 0x64,				/* payload */
	0xf7, 0x18, 0x14, 0x3c,				/* icrc */
};

/* SEND_MIDDLE retransmitted, bytes 16..17 of a 40-byte message */
static const u8 vec_send_middle[] = {
	0xc1, 0x80, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x22,
	0x00, 0xff, 0xff, 0xff,
	0x00, 0x00, 0x00, 0x07,
	0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x05,	/* msn, rq_msn */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,	/* offset 16 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x28,	/* rkey 0, len 40 */
	0x5a, 0xa5,
	0x92, 0x8a, 0x66, 0x33,
};

/* READ_REQ for 64 KiB */
static const u8 vec_read_req[] = {
	0xcc, 0x00, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x33,
	0x00, 0x00, 0x00, 0x10,
	0x12, 0x34, 0x56, 0x78,
	0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x06,
	0xff, 0xff, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xca, 0xfe, 0xf0, 0x0d, 0x00, 0x01, 0x00, 0x00,
	0xa4, 0x34, 0xaf, 0xd1,
};

/* READ_RESP_LAST: the final 3 bytes of that read */
static const u8 vec_read_resp_last[] = {
	0xcf, 0x00, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x44,
	0x00, 0x00, 0x00, 0x12,
	0x9a, 0xbc, 0xde, 0xf0,
	0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xfd,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
	0x01, 0x02, 0x03,
	0x67, 0x0c, 0x40, 0xec,
};

/* SACK: ECN echo, timestamp reflected, triggered by a retransmission */
static const u8 vec_sack[] = {
	0xdc, 0x00, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x55,
	0x00, 0x00, 0x01, 0x05,
	0x00, 0x00, 0xab, 0xcd,
	0x15, 0xff, 0xff, 0xfe,				/* flags, cum_psn */
	0x00, 0xff, 0xff, 0xff,				/* sack_psn */
	0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05,	/* bitmap */
	0x0b, 0xad, 0xca, 0xfe,				/* ref_ev */
	0x00, 0x00, 0x04, 0x00,				/* window */
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,	/* ref_ts */
	0x7f, 0x31, 0xb1, 0x08,
};

/* NACK PSN_OOR_WINDOW, responder window 1024 */
static const u8 vec_nack[] = {
	0xdd, 0x00, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x66,
	0x00, 0x00, 0x05, 0x00,
	0x00, 0x00, 0x00, 0x01,
	0x03, 0x00, 0x00, 0x00,				/* reason, rsvd */
	0x00, 0x00, 0x01, 0x00,				/* cum_psn */
	0x0b, 0xad, 0xca, 0xfe,				/* ref_ev */
	0x00, 0x00, 0x04, 0x00,				/* info */
	0x16, 0x6d, 0xaa, 0xf1,
};

static const u8 vec_probe[] = {
	0xde, 0x00, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x77,
	0x00, 0x00, 0x02, 0x00,
	0x00, 0xc0, 0xff, 0xee,
	0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,	/* token */
	0xa7, 0x13, 0x42, 0xf9,
};

/* PORT_STATUS at PSN 0; planes 2 and 7 of the sender down. */
static const u8 vec_port_status[] = {
	0xdf, 0x00, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x88,
	0x00, 0x00, 0x00, 0x00,
	0x03, 0x00, 0x00, 0x2a,
	0xff, 0xff, 0xff, 0xfe,				/* seq */
	0x00, 0x00, 0x00, 0x84,				/* down */
	0xfc, 0x15, 0x99, 0x8c,
};

#define VEC(v)	.name = #v, .bytes = v, .len = sizeof(v)

static const struct wire_vector wire_vectors[] = {
	{ VEC(vec_write_only_imm), .hdrs = {
		.opcode = MRC_OP_WRITE_ONLY_IMM,
		.flags = MRC_BTH_F_ACK_REQ | MRC_BTH_F_SE | MRC_BTH_F_TSETH,
		.dqpn = 0x11, .psn = 0x100, .ev = 0x0badcafe,
		.msn = 1, .rq_msn = 2, .ts = 0x0102030405060708ULL,
		.va = 0x7f0000001000ULL, .rkey = 0x1234, .dma_len = 4,
		.imm = 0xdeadbeef, .hdr_len = 52, .payload_len = 4 } },
	{ VEC(vec_send_middle), .hdrs = {
		.opcode = MRC_OP_SEND_MIDDLE, .flags = MRC_BTH_F_RTX,
		.dqpn = 0x22, .psn = 0xffffff, .ev = 7,
		.msn = 0x10, .rq_msn = 5, .va = 16, .dma_len = 40,
		.hdr_len = 40, .payload_len = 2 } },
	{ VEC(vec_read_req), .hdrs = {
		.opcode = MRC_OP_READ_REQ,
		.dqpn = 0x33, .psn = 0x10, .ev = 0x12345678,
		.msn = 0x20, .rq_msn = 6, .va = 0xffff800000000000ULL,
		.rkey = 0xcafef00d, .dma_len = 0x10000, .hdr_len = 40 } },
	{ VEC(vec_read_resp_last), .hdrs = {
		.opcode = MRC_OP_READ_RESP_LAST,
		.dqpn = 0x44, .psn = 0x12, .ev = 0x9abcdef0,
		.msn = 0x20, .va = 0xfffd, .dma_len = 0x10000,
		.hdr_len = 40, .payload_len = 3 } },
	{ VEC(vec_sack), .hdrs = {
		.opcode = MRC_OP_SACK, .dqpn = 0x55, .psn = 0x105, .ev = 0xabcd,
		.sack = {
			.flags = MRC_SACK_M_SKIP_ONCE | MRC_SACK_F_TS_VALID |
				 MRC_SACK_F_RTX,
			.cum_psn = 0xfffffe, .sack_psn = 0xffffff,
			.bitmap = 0x8000000000000005ULL, .ref_ev = 0x0badcafe,
			.window = 1024, .ref_ts = 0x0102030405060708ULL },
		.hdr_len = 48 } },
	{ VEC(vec_nack), .hdrs = {
		.opcode = MRC_OP_NACK, .dqpn = 0x66, .psn = 0x500, .ev = 1,
		.nack = { .reason = MRC_NACK_PSN_OOR_WINDOW, .cum_psn = 0x100,
			  .ref_ev = 0x0badcafe, .info = 1024 },
		.hdr_len = 32 } },
	{ VEC(vec_probe), .hdrs = {
		.opcode = MRC_OP_PROBE, .dqpn = 0x77, .psn = 0x200,
		.ev = 0x00c0ffee, .probe = { .token = 0x1122334455667788ULL },
		.hdr_len = 24 } },
	{ VEC(vec_port_status), .hdrs = {
		.opcode = MRC_OP_PORT_STATUS, .dqpn = 0x88, .ev = 0x0300002a,
		.pstat = { .seq = 0xfffffffe, .down = 0x84 },
		.hdr_len = 24 } },
};

static const u8 all_opcodes[] = {
	MRC_OP_SEND_FIRST, MRC_OP_SEND_MIDDLE, MRC_OP_SEND_LAST,
	MRC_OP_SEND_LAST_IMM, MRC_OP_SEND_ONLY, MRC_OP_SEND_ONLY_IMM,
	MRC_OP_WRITE_FIRST, MRC_OP_WRITE_MIDDLE, MRC_OP_WRITE_LAST,
	MRC_OP_WRITE_LAST_IMM, MRC_OP_WRITE_ONLY, MRC_OP_WRITE_ONLY_IMM,
	MRC_OP_READ_REQ, MRC_OP_READ_RESP_FIRST, MRC_OP_READ_RESP_MIDDLE,
	MRC_OP_READ_RESP_LAST, MRC_OP_READ_RESP_ONLY,
	MRC_OP_SEND_LAST_INV, MRC_OP_SEND_ONLY_INV,
	MRC_OP_ATOMIC_ACK, MRC_OP_CMP_SWAP, MRC_OP_FETCH_ADD,
	MRC_OP_SACK, MRC_OP_NACK, MRC_OP_PROBE, MRC_OP_PORT_STATUS,
};

static bool op_is(u8 op, u8 a, u8 b, u8 c, u8 d)
{
	return op == a || op == b || op == c || op == d;
}

/*
 * A valid header set for @op: a 100-byte message in 40 + 40 + 20 byte
 * packets, near the PSN wrap.
 */
static void sample_hdrs(u8 op, struct mrc_hdrs *h)
{
	bool inv = op == MRC_OP_SEND_LAST_INV || op == MRC_OP_SEND_ONLY_INV;
	bool offset = op <= MRC_OP_SEND_ONLY_IMM || op >= MRC_OP_READ_RESP_FIRST;

	memset(h, 0, sizeof(*h));
	h->opcode = op;
	h->dqpn = 0xabcdef;
	h->psn = 0xfffffe;
	h->ev = 0xfeedf00d;

	switch (op) {
	case MRC_OP_SACK:
		h->sack.flags = MRC_SACK_M_ALWAYS_SKIP | MRC_SACK_F_DUP;
		h->sack.cum_psn = 0xfffff0;
		h->sack.sack_psn = 0xfffff1;
		h->sack.bitmap = ~0ULL;
		h->sack.ref_ev = 0x12345678;
		h->sack.window = MRC_PSN_WINDOW_MAX;
		h->sack.penalty = MRC_SACK_PENALTY_MAX;
		return;
	case MRC_OP_NACK:
		h->nack.reason = MRC_NACK_RNR;
		h->nack.cum_psn = MRC_PSN_MASK;
		h->nack.ref_ev = 0x12345678;
		h->nack.info = MRC_RNR_TIMER_MAX;
		return;
	case MRC_OP_PROBE:
		h->probe.token = ~0ULL;
		return;
	case MRC_OP_PORT_STATUS:
		h->pstat.seq = ~0U;
		h->pstat.down = ~0U;
		return;
	case MRC_OP_ATOMIC_ACK:
		h->msn = 0xffffffff;
		h->dma_len = MRC_ATOMIC_LEN;
		h->payload_len = MRC_ATOMIC_LEN;
		return;
	case MRC_OP_CMP_SWAP:
	case MRC_OP_FETCH_ADD:
		h->msn = 0xffffffff;
		h->rq_msn = 0x80000000;
		h->rkey = 0x55aa55aa;
		h->va = 0xffffffffffffff00ULL;
		h->dma_len = MRC_ATOMIC_LEN;
		h->swap_add = 0x8000000000000001ULL;
		if (op == MRC_OP_CMP_SWAP)
			h->compare = 0xfedcba9876543210ULL;
		return;
	}

	h->msn = 0xffffffff;
	h->rq_msn = op >= MRC_OP_READ_RESP_FIRST && !inv ? 0 : 0x80000000;
	h->rkey = offset ? 0 : 0x55aa55aa;
	h->dma_len = 100;
	h->va = offset ? 0 : 0xffffffffffffff00ULL;
	if (op == MRC_OP_READ_REQ) {
		h->va = 0xffffffffffffff00ULL - 100;
		return;
	}
	h->payload_len = 100;
	if (op_is(op, MRC_OP_SEND_FIRST, MRC_OP_WRITE_FIRST,
		  MRC_OP_READ_RESP_FIRST, 0)) {
		h->payload_len = 40;
	} else if (op_is(op, MRC_OP_SEND_MIDDLE, MRC_OP_WRITE_MIDDLE,
			 MRC_OP_READ_RESP_MIDDLE, 0)) {
		h->payload_len = 40;
		h->va += 40;
	} else if (op_is(op, MRC_OP_SEND_LAST, MRC_OP_SEND_LAST_IMM,
			 MRC_OP_WRITE_LAST, MRC_OP_WRITE_LAST_IMM) ||
		   op == MRC_OP_READ_RESP_LAST || op == MRC_OP_SEND_LAST_INV) {
		h->payload_len = 20;
		h->va += 80;
	}
	if (op_is(op, MRC_OP_SEND_LAST_IMM, MRC_OP_SEND_ONLY_IMM,
		  MRC_OP_WRITE_LAST_IMM, MRC_OP_WRITE_ONLY_IMM))
		h->imm = 0x01020304;
	if (inv)
		h->inv_rkey = 0xa1b2c3d4;
}

/* Build a sealed packet for @h in an exact-size test allocation. */
static u8 *build_pkt(struct kunit *test, const struct mrc_hdrs *h,
		     size_t *lenp)
{
	int hlen = mrc_wire_hdr_len(h->opcode, h->flags);
	size_t len, i;
	u8 *pkt;

	KUNIT_ASSERT_GT(test, hlen, 0);
	len = hlen + h->payload_len + MRC_ICRC_LEN;
	pkt = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pkt);
	KUNIT_ASSERT_EQ(test, mrc_wire_encode(h, pkt, len), hlen);
	for (i = hlen; i < len - MRC_ICRC_LEN; i++)
		pkt[i] = (u8)(i * 7);
	KUNIT_ASSERT_EQ(test, mrc_icrc_seal(pkt, len), 0);
	*lenp = len;
	return pkt;
}

/* Copy @len bytes into a fresh allocation of exactly @len bytes. */
static u8 *exact_copy(struct kunit *test, const void *src, size_t len)
{
	u8 *p = kunit_kmalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	memcpy(p, src, len);
	return p;
}

static void expect_hdrs_eq(struct kunit *test, const struct mrc_hdrs *a,
			   const struct mrc_hdrs *b, const char *what)
{
	KUNIT_EXPECT_EQ_MSG(test, a->opcode, b->opcode, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->flags, b->flags, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->dqpn, b->dqpn, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->psn, b->psn, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->ev, b->ev, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->msn, b->msn, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->rq_msn, b->rq_msn, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->ts, b->ts, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->va, b->va, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->rkey, b->rkey, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->dma_len, b->dma_len, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->imm, b->imm, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->inv_rkey, b->inv_rkey, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->swap_add, b->swap_add, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->compare, b->compare, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->hdr_len, b->hdr_len, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->payload_len, b->payload_len, "%s", what);
	if (a->opcode == MRC_OP_SACK) {
		KUNIT_EXPECT_EQ_MSG(test, a->sack.flags, b->sack.flags, "%s", what);
		KUNIT_EXPECT_EQ_MSG(test, a->sack.cum_psn, b->sack.cum_psn,
				    "%s", what);
		KUNIT_EXPECT_EQ_MSG(test, a->sack.sack_psn, b->sack.sack_psn,
				    "%s", what);
		KUNIT_EXPECT_EQ_MSG(test, a->sack.bitmap, b->sack.bitmap,
				    "%s", what);
		KUNIT_EXPECT_EQ_MSG(test, a->sack.ref_ev, b->sack.ref_ev,
				    "%s", what);
		KUNIT_EXPECT_EQ_MSG(test, a->sack.window, b->sack.window,
				    "%s", what);
		KUNIT_EXPECT_EQ_MSG(test, a->sack.penalty, b->sack.penalty,
				    "%s", what);
		KUNIT_EXPECT_EQ_MSG(test, a->sack.ref_ts, b->sack.ref_ts,
				    "%s", what);
	} else if (a->opcode == MRC_OP_NACK) {
		KUNIT_EXPECT_EQ_MSG(test, a->nack.reason, b->nack.reason,
				    "%s", what);
		KUNIT_EXPECT_EQ_MSG(test, a->nack.cum_psn, b->nack.cum_psn,
				    "%s", what);
		KUNIT_EXPECT_EQ_MSG(test, a->nack.ref_ev, b->nack.ref_ev,
				    "%s", what);
		KUNIT_EXPECT_EQ_MSG(test, a->nack.info, b->nack.info, "%s", what);
	} else if (a->opcode == MRC_OP_PROBE) {
		KUNIT_EXPECT_EQ_MSG(test, a->probe.token, b->probe.token,
				    "%s", what);
	} else if (a->opcode == MRC_OP_PORT_STATUS) {
		KUNIT_EXPECT_EQ_MSG(test, a->pstat.seq, b->pstat.seq,
				    "%s", what);
		KUNIT_EXPECT_EQ_MSG(test, a->pstat.down, b->pstat.down,
				    "%s", what);
	}
}

/* Change one byte of a copy of @pkt, re-seal it, decode it. */
static int decode_mutated(struct kunit *test, const u8 *pkt, size_t len,
			  size_t off, u8 val)
{
	struct mrc_hdrs h;
	u8 *p = exact_copy(test, pkt, len);

	p[off] = val;
	KUNIT_EXPECT_EQ(test, mrc_icrc_seal(p, len), 0);
	return mrc_wire_decode(p, len, &h);
}

static void icrc_is_crc32c(struct kunit *test)
{
	static const char check[] = "123456789";
	u8 *p = exact_copy(test, check, 9);

	KUNIT_EXPECT_EQ(test, mrc_icrc(p, 9), 0xe3069283U);
	KUNIT_EXPECT_EQ(test, mrc_icrc(p, 0), 0U);
	KUNIT_EXPECT_FALSE(test, mrc_icrc_check(p, 3));
	KUNIT_EXPECT_EQ(test, mrc_icrc_seal(p, 3), -EINVAL);
}

static void hdr_len_follows_opcode_and_tseth(struct kunit *test)
{
	static const struct { u8 op; int len; } want[] = {
		{ MRC_OP_SEND_FIRST, 40 },	{ MRC_OP_SEND_LAST_IMM, 44 },
		{ MRC_OP_SEND_ONLY, 40 },	{ MRC_OP_SEND_ONLY_IMM, 44 },
		{ MRC_OP_WRITE_MIDDLE, 40 },	{ MRC_OP_WRITE_LAST_IMM, 44 },
		{ MRC_OP_WRITE_ONLY_IMM, 44 },	{ MRC_OP_READ_REQ, 40 },
		{ MRC_OP_READ_RESP_ONLY, 40 },	{ MRC_OP_SACK, 48 },
		{ MRC_OP_NACK, 32 },		{ MRC_OP_PROBE, 24 },
		{ MRC_OP_PORT_STATUS, 24 },	{ MRC_OP_SEND_LAST_INV, 44 },
		{ MRC_OP_SEND_ONLY_INV, 44 },	{ MRC_OP_ATOMIC_ACK, 40 },
		{ MRC_OP_CMP_SWAP, 56 },	{ MRC_OP_FETCH_ADD, 56 },
	};
	static const u8 unknown[] = { 0x00, 0x06, 0xbf, 0xd1, 0xdb, 0xe0,
				      0xff };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		bool data = want[i].op < MRC_OP_SACK;

		KUNIT_EXPECT_EQ_MSG(test, mrc_wire_hdr_len(want[i].op, 0),
				    want[i].len, "op %#x", want[i].op);
		KUNIT_EXPECT_EQ_MSG(test,
				    mrc_wire_hdr_len(want[i].op, MRC_BTH_F_TSETH),
				    want[i].len + (data ? 8 : 0),
				    "op %#x", want[i].op);
	}
	KUNIT_EXPECT_EQ(test, mrc_wire_hdr_len(MRC_OP_CMP_SWAP,
					       MRC_BTH_F_TSETH),
			MRC_MAX_HDR_LEN);
	for (i = 0; i < ARRAY_SIZE(unknown); i++)
		KUNIT_EXPECT_EQ_MSG(test, mrc_wire_hdr_len(unknown[i], 0),
				    -EPROTO, "op %#x", unknown[i]);
}

static void encode_matches_test_vectors(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wire_vectors); i++) {
		const struct wire_vector *v = &wire_vectors[i];
		u8 *p = kunit_kzalloc(test, v->len, GFP_KERNEL);
		int hlen;

		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
		hlen = mrc_wire_encode(&v->hdrs, p, v->len);
		KUNIT_EXPECT_EQ_MSG(test, hlen, (int)v->hdrs.hdr_len, "%s",
				    v->name);
		if (hlen < 0)
			continue;
		memcpy(p + hlen, v->bytes + hlen, v->hdrs.payload_len);
		KUNIT_EXPECT_EQ(test, mrc_icrc_seal(p, v->len), 0);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(p, v->bytes, v->len), 0,
				    "%s", v->name);
	}
}

static void decode_matches_test_vectors(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wire_vectors); i++) {
		const struct wire_vector *v = &wire_vectors[i];
		u8 *p = exact_copy(test, v->bytes, v->len);
		struct mrc_hdrs h;

		KUNIT_EXPECT_EQ_MSG(test, mrc_wire_decode(p, v->len, &h), 0,
				    "%s", v->name);
		expect_hdrs_eq(test, &h, &v->hdrs, v->name);
	}
}

static void round_trip_every_opcode(struct kunit *test)
{
	static const u8 flag_sets[] = {
		0, MRC_BTH_F_TSETH, MRC_BTH_F_RTX | MRC_BTH_F_ACK_REQ,
		MRC_BTH_F_RTX | MRC_BTH_F_SE | MRC_BTH_F_TSETH,
	};
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(all_opcodes); i++) {
		for (j = 0; j < ARRAY_SIZE(flag_sets); j++) {
			struct mrc_hdrs h, out;
			size_t len;
			u8 *pkt;

			sample_hdrs(all_opcodes[i], &h);
			h.flags = flag_sets[j];
			if (h.flags & MRC_BTH_F_TSETH)
				h.ts = 0x8000000000000001ULL;
			if (mrc_wire_check(&h))
				continue;	/* flags not allowed here */
			pkt = build_pkt(test, &h, &len);
			h.hdr_len = mrc_wire_hdr_len(h.opcode, h.flags);
			KUNIT_EXPECT_EQ_MSG(test, mrc_wire_decode(pkt, len, &out),
					    0, "op %#x flags %#x", h.opcode,
					    h.flags);
			expect_hdrs_eq(test, &out, &h, "round trip");
		}
	}
}

/* Datagrams: the DETH, then the immediate data of UD_SEND_ONLY_IMM only. */
static void ud_round_trip(struct kunit *test)
{
	static const u8 ops[] = { MRC_OP_UD_SEND_ONLY,
				  MRC_OP_UD_SEND_ONLY_IMM };
	unsigned int i;

	KUNIT_EXPECT_EQ(test, mrc_wire_hdr_len(MRC_OP_UD_SEND_ONLY, 0), 24);
	KUNIT_EXPECT_EQ(test, mrc_wire_hdr_len(MRC_OP_UD_SEND_ONLY_IMM, 0), 28);
	KUNIT_EXPECT_EQ(test, mrc_wire_hdr_len(0xda, 0), -EPROTO);
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		struct mrc_hdrs h = {
			.opcode = ops[i],
			.dqpn = 0x123456,
			.ev = 0x77,
			.qkey = 0x80000011,
			.src_qpn = 0x654321,
			.imm = ops[i] == MRC_OP_UD_SEND_ONLY_IMM ? 0xfeedf00d : 0,
			.payload_len = 33,
		}, out;
		size_t len;
		u8 *pkt;

		KUNIT_ASSERT_EQ(test, mrc_wire_check(&h), 0);
		pkt = build_pkt(test, &h, &len);
		h.hdr_len = mrc_wire_hdr_len(h.opcode, 0);
		KUNIT_EXPECT_EQ(test, mrc_wire_decode(pkt, len, &out), 0);
		expect_hdrs_eq(test, &out, &h, "UD round trip");
	}
	/* Immediate data in a datagram without room for it. */
	{
		struct mrc_hdrs h = {
			.opcode = MRC_OP_UD_SEND_ONLY, .src_qpn = 1, .imm = 1,
		};

		KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), -EBADMSG);
	}
}

/* Every sample checks as valid, so the round trip above covers them all. */
static void samples_are_valid(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(all_opcodes); i++) {
		struct mrc_hdrs h;

		sample_hdrs(all_opcodes[i], &h);
		KUNIT_EXPECT_EQ_MSG(test, mrc_wire_check(&h), 0, "op %#x",
				    all_opcodes[i]);
	}
}

static void truncated_packets_rejected_at_every_length(struct kunit *test)
{
	unsigned int i;
	size_t full, n;

	for (i = 0; i < ARRAY_SIZE(all_opcodes); i++) {
		u8 op = all_opcodes[i];
		size_t hlen = mrc_wire_hdr_len(op, 0);
		struct mrc_hdrs h;
		u8 *pkt;

		sample_hdrs(op, &h);
		pkt = build_pkt(test, &h, &full);
		for (n = 0; n < full; n++) {
			u8 *p = exact_copy(test, pkt, n);

			KUNIT_EXPECT_LT_MSG(test, mrc_wire_decode(p, n, &h), 0,
					    "op %#x len %zu", op, n);
			if (n < hlen + MRC_ICRC_LEN)
				KUNIT_EXPECT_EQ_MSG(test,
						    mrc_wire_decode_hdrs(p, n, &h),
						    -EBADMSG, "op %#x len %zu",
						    op, n);
			kunit_kfree(test, p);
		}
	}
}

/* The RX path may have only the headers linear; decode must not look on. */
static void decode_hdrs_reads_only_header_bytes(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wire_vectors); i++) {
		const struct wire_vector *v = &wire_vectors[i];
		u8 *p = exact_copy(test, v->bytes, v->hdrs.hdr_len);
		struct mrc_hdrs h;

		KUNIT_EXPECT_EQ_MSG(test, mrc_wire_decode_hdrs(p, v->len, &h), 0,
				    "%s", v->name);
		KUNIT_EXPECT_EQ(test, h.payload_len, v->hdrs.payload_len);
	}
}

static void icrc_catches_every_single_bit_flip(struct kunit *test)
{
	const struct wire_vector *v = &wire_vectors[0];
	u8 *p = exact_copy(test, v->bytes, v->len);
	struct mrc_hdrs h;
	size_t bit;

	for (bit = 0; bit < v->len * 8; bit++) {
		p[bit / 8] ^= BIT(bit % 8);
		KUNIT_EXPECT_EQ_MSG(test, mrc_wire_decode(p, v->len, &h),
				    -EBADMSG, "bit %zu", bit);
		p[bit / 8] ^= BIT(bit % 8);
	}
	KUNIT_EXPECT_EQ(test, mrc_wire_decode(p, v->len, &h), 0);
}

static void unknown_version_or_opcode_is_eproto(struct kunit *test)
{
	static const u8 versions[] = { 0, 2, 0xf1, 0xff };
	static const u8 opcodes[] = { 0x00, 0x0a, 0xbf, 0xd1, 0xdb, 0xe0,
				      0xff };
	const struct wire_vector *v = &wire_vectors[0];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(versions); i++)
		KUNIT_EXPECT_EQ_MSG(test, decode_mutated(test, v->bytes, v->len,
							 2, versions[i]),
				    -EPROTO, "version %u", versions[i]);
	for (i = 0; i < ARRAY_SIZE(opcodes); i++)
		KUNIT_EXPECT_EQ_MSG(test, decode_mutated(test, v->bytes, v->len,
							 0, opcodes[i]),
				    -EPROTO, "opcode %#x", opcodes[i]);
}

static void reserved_bits_rejected(struct kunit *test)
{
	/* { vector, byte offset, value } — each breaks only a reserved field */
	static const struct { u8 vec; u8 off; u8 val; } bad[] = {
		{ 0, 1, 0x71 },	/* BTH flags bit 0 */
		{ 0, 1, 0x78 },	/* BTH flags bit 3 */
		{ 0, 3, 0x01 },	/* BTH reserved byte */
		{ 0, 4, 0x01 },	/* dqpn bits 31..24 */
		{ 0, 8, 0x80 },	/* psn bits 31..24 */
		{ 4, 16, 0x55 },	/* SACK flags bit 6 */
		{ 4, 16, 0x95 },	/* SACK flags bit 7 */
		{ 4, 20, 0x01 },	/* sack_psn bits 31..24 */
		{ 4, 36, 0x80 },	/* window bit 31 */
		{ 5, 17, 0x01 },	/* NACK rsvd */
		{ 5, 18, 0x01 },	/* NACK rsvd2 */
		{ 5, 20, 0x01 },	/* NACK cum_psn bits 31..24 */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const struct wire_vector *v = &wire_vectors[bad[i].vec];

		KUNIT_EXPECT_EQ_MSG(test, decode_mutated(test, v->bytes, v->len,
							 bad[i].off, bad[i].val),
				    -EBADMSG, "%s byte %u = %#x", v->name,
				    bad[i].off, bad[i].val);
	}
}

static void flags_outside_their_opcodes_rejected(struct kunit *test)
{
	static const struct { u8 op; u8 flags; } bad[] = {
		{ MRC_OP_WRITE_MIDDLE, MRC_BTH_F_SE },
		{ MRC_OP_WRITE_ONLY, MRC_BTH_F_SE },
		{ MRC_OP_SEND_FIRST, MRC_BTH_F_SE },
		{ MRC_OP_READ_REQ, MRC_BTH_F_SE },
		{ MRC_OP_READ_RESP_ONLY, MRC_BTH_F_ACK_REQ },
		{ MRC_OP_SACK, MRC_BTH_F_ACK_REQ },
		{ MRC_OP_SACK, MRC_BTH_F_RTX },
		{ MRC_OP_NACK, MRC_BTH_F_TSETH },
		{ MRC_OP_PROBE, MRC_BTH_F_TSETH },
		{ MRC_OP_PROBE, MRC_BTH_F_RTX },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct mrc_hdrs h, good;
		size_t len;
		u8 *pkt;

		sample_hdrs(bad[i].op, &good);
		pkt = build_pkt(test, &good, &len);
		h = good;
		h.flags = bad[i].flags;
		KUNIT_EXPECT_EQ_MSG(test, mrc_wire_encode(&h, pkt, len), -EINVAL,
				    "op %#x flags %#x", bad[i].op, bad[i].flags);
		/* TSETH changes the length, so only decode the others. */
		if (bad[i].flags & MRC_BTH_F_TSETH &&
		    bad[i].op < MRC_OP_SACK)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, decode_mutated(test, pkt, len, 1,
							 bad[i].flags),
				    -EBADMSG, "op %#x flags %#x", bad[i].op,
				    bad[i].flags);
	}
}

static void data_lengths_must_fit_the_opcode(struct kunit *test)
{
	struct mrc_hdrs h;

#define EXPECT_BAD(op, change) do {					\
		sample_hdrs(op, &h);					\
		change;							\
		KUNIT_EXPECT_EQ_MSG(test, mrc_wire_check(&h), -EBADMSG,	\
				    "%s", #change);			\
	} while (0)

	EXPECT_BAD(MRC_OP_WRITE_ONLY, h.payload_len = 99);
	EXPECT_BAD(MRC_OP_WRITE_ONLY, h.dma_len = 101);
	EXPECT_BAD(MRC_OP_WRITE_FIRST, h.payload_len = 100);
	EXPECT_BAD(MRC_OP_WRITE_MIDDLE, h.payload_len = 0);
	EXPECT_BAD(MRC_OP_WRITE_LAST, h.payload_len = 0);
	EXPECT_BAD(MRC_OP_WRITE_ONLY, h.va = ~0ULL - 98);
	EXPECT_BAD(MRC_OP_WRITE_ONLY, h.dma_len = MRC_MAX_MSG_LEN + 1;
		   h.payload_len = h.dma_len);
	EXPECT_BAD(MRC_OP_SEND_FIRST, h.va = 1);
	EXPECT_BAD(MRC_OP_SEND_MIDDLE, h.va = 0);
	EXPECT_BAD(MRC_OP_SEND_MIDDLE, h.va = 60);
	EXPECT_BAD(MRC_OP_SEND_LAST, h.va = 79);
	EXPECT_BAD(MRC_OP_SEND_LAST, h.va = 81);
	EXPECT_BAD(MRC_OP_SEND_ONLY, h.rkey = 1);
	EXPECT_BAD(MRC_OP_READ_RESP_MIDDLE, h.va = 101);
	EXPECT_BAD(MRC_OP_READ_RESP_LAST, h.rq_msn = 1);
	EXPECT_BAD(MRC_OP_READ_REQ, h.payload_len = 1);
	EXPECT_BAD(MRC_OP_READ_REQ, h.va = ~0ULL - 98);
	EXPECT_BAD(MRC_OP_WRITE_LAST, h.imm = 1);
	EXPECT_BAD(MRC_OP_SEND_LAST_IMM, h.inv_rkey = 1);
	EXPECT_BAD(MRC_OP_SEND_LAST_INV, h.imm = 1);
	EXPECT_BAD(MRC_OP_WRITE_LAST, h.ts = 1);
	EXPECT_BAD(MRC_OP_SACK, h.msn = 1);
	EXPECT_BAD(MRC_OP_PROBE, h.payload_len = 1);
	EXPECT_BAD(MRC_OP_PROBE, h.dqpn = MRC_PSN_MASK + 1);
	EXPECT_BAD(MRC_OP_PROBE, h.psn = ~0U);
	/* A port status carries a 24-bit PSN (its sender's next) and no data. */
	EXPECT_BAD(MRC_OP_PORT_STATUS, h.psn = ~0U);
	EXPECT_BAD(MRC_OP_PORT_STATUS, h.payload_len = 4);
	EXPECT_BAD(MRC_OP_PORT_STATUS, h.msn = 1);
#undef EXPECT_BAD

	/* Zero-length messages are legal. */
	sample_hdrs(MRC_OP_WRITE_ONLY, &h);
	h.dma_len = 0;
	h.payload_len = 0;
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), 0);
	sample_hdrs(MRC_OP_READ_REQ, &h);
	h.dma_len = 0;
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), 0);
	/* The exclusive end, va + length, must fit in 64 bits. */
	sample_hdrs(MRC_OP_WRITE_ONLY, &h);
	h.va = ~0ULL - 100;
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), 0);
	h.va++;
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), -EBADMSG);
}

static void sack_rules(struct kunit *test)
{
	struct mrc_hdrs h;

	sample_hdrs(MRC_OP_SACK, &h);
	h.sack.window = 0;
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), -EBADMSG);
	h.sack.window = MRC_PSN_WINDOW_MAX + 1;
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), -EBADMSG);
	sample_hdrs(MRC_OP_SACK, &h);
	h.sack.penalty = MRC_SACK_PENALTY_MAX + 1;
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), -EBADMSG);

	sample_hdrs(MRC_OP_SACK, &h);
	h.sack.flags = MRC_SACK_F_M_MASK;
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), -EBADMSG);
	h.sack.flags = 0;
	h.sack.ref_ts = 1;	/* neither TS_VALID nor PROBE */
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), -EBADMSG);
	h.sack.flags = MRC_SACK_F_PROBE;
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), 0);

	/* The bitmap may start at, but not before, the cumulative PSN. */
	sample_hdrs(MRC_OP_SACK, &h);
	h.sack.cum_psn = 0xfffffe;
	h.sack.sack_psn = 0xfffffd;
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), -EBADMSG);
	h.sack.sack_psn = 0x000001;	/* after, across the wrap */
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), 0);
	h.sack.sack_psn = 0xfffffe;
	h.sack.bitmap = 2;
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), 0);
	h.sack.bitmap = 3;	/* claims cum_psn itself arrived */
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), -EBADMSG);
	/* 2^23 ahead reads as before (psn.h), so it is refused. */
	h.sack.bitmap = 0;
	h.sack.sack_psn = mrc_psn_add(h.sack.cum_psn, MRC_PSN_HALF);
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), -EBADMSG);
}

/* The penalty shares the window's word: bits 30..24, the MPR below. */
static void sack_penalty_beside_window(struct kunit *test)
{
	struct mrc_hdrs h, out;
	size_t len;
	u8 *pkt;

	sample_hdrs(MRC_OP_SACK, &h);
	h.sack.penalty = 64;
	h.sack.window = 1024;
	pkt = build_pkt(test, &h, &len);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pkt + 36), 0x40000400U);
	KUNIT_ASSERT_EQ(test, mrc_wire_decode(pkt, len, &out), 0);
	KUNIT_EXPECT_EQ(test, out.sack.penalty, 64);
	KUNIT_EXPECT_EQ(test, out.sack.window, 1024U);
}

static void nack_reasons_and_info(struct kunit *test)
{
	static const u8 known[] = {
		MRC_NACK_TRIMMED, MRC_NACK_TRIMMED_LASTHOP,
		MRC_NACK_PSN_OOR_WINDOW, MRC_NACK_NO_RESOURCE, MRC_NACK_RNR,
		MRC_NACK_INVALID_REQUEST, MRC_NACK_RKEY_VIOLATION,
		MRC_NACK_ACCESS, MRC_NACK_REMOTE_OP, MRC_NACK_UNEXP_EVENT,
	};
	static const u8 unknown[] = { 0x00, 0x06, 0x0f, 0x15, 0x1f, 0xff };
	struct mrc_hdrs h;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(known); i++) {
		sample_hdrs(MRC_OP_NACK, &h);
		h.nack.reason = known[i];
		h.nack.info = known[i] == MRC_NACK_PSN_OOR_WINDOW ? 64 : 0;
		KUNIT_EXPECT_EQ_MSG(test, mrc_wire_check(&h), 0, "reason %#x",
				    known[i]);
		KUNIT_EXPECT_EQ(test, mrc_nack_is_fatal(known[i]),
				known[i] >= MRC_NACK_INVALID_REQUEST);
		h.nack.info = known[i] == MRC_NACK_PSN_OOR_WINDOW ?
			      MRC_PSN_WINDOW_MAX + 1 :
			      known[i] == MRC_NACK_RNR ? 32 : 1;
		KUNIT_EXPECT_EQ_MSG(test, mrc_wire_check(&h), -EBADMSG,
				    "reason %#x info %u", known[i], h.nack.info);
	}
	for (i = 0; i < ARRAY_SIZE(unknown); i++) {
		sample_hdrs(MRC_OP_NACK, &h);
		h.nack.reason = unknown[i];
		h.nack.info = 0;
		KUNIT_EXPECT_EQ_MSG(test, mrc_wire_check(&h), -EPROTO,
				    "reason %#x", unknown[i]);
	}
	/* The same through the wire: vector 5 is a NACK, reason at byte 16. */
	KUNIT_EXPECT_EQ(test, decode_mutated(test, wire_vectors[5].bytes,
					     wire_vectors[5].len, 16, 0x06),
			-EPROTO);
}

/*
 * Atomics and their answer carry 8 bytes exactly; FETCH_ADD compares
 * nothing; no other opcode carries atomic operands.
 */
static void atomic_rules(struct kunit *test)
{
	struct mrc_hdrs h;

	sample_hdrs(MRC_OP_CMP_SWAP, &h);
	h.dma_len = 16;
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), -EBADMSG);
	sample_hdrs(MRC_OP_FETCH_ADD, &h);
	h.compare = 1;
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), -EBADMSG);
	sample_hdrs(MRC_OP_ATOMIC_ACK, &h);
	h.dma_len = 4;
	h.payload_len = 4;
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), -EBADMSG);
	sample_hdrs(MRC_OP_ATOMIC_ACK, &h);
	h.swap_add = 1;
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), -EBADMSG);
	sample_hdrs(MRC_OP_READ_REQ, &h);
	h.compare = 1;
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), -EBADMSG);
	sample_hdrs(MRC_OP_CMP_SWAP, &h);
	h.payload_len = 8;
	KUNIT_EXPECT_EQ(test, mrc_wire_check(&h), -EBADMSG);
}

static void encode_refuses_short_buffer_and_bad_input(struct kunit *test)
{
	struct mrc_hdrs h;
	int hlen;
	u8 *p;

	sample_hdrs(MRC_OP_WRITE_ONLY_IMM, &h);
	hlen = mrc_wire_hdr_len(h.opcode, h.flags);
	p = kunit_kzalloc(test, hlen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	KUNIT_EXPECT_EQ(test, mrc_wire_encode(&h, p, hlen - 1), -ENOSPC);
	KUNIT_EXPECT_EQ(test, mrc_wire_encode(&h, p, hlen), hlen);
	h.opcode = 0xd1;
	KUNIT_EXPECT_EQ(test, mrc_wire_encode(&h, p, hlen), -EINVAL);
}

/*
 * Flip random bytes of valid packets (re-sealed so the ICRC passes): decode
 * must never read out of bounds, and whatever it accepts must re-encode to
 * the very same bytes: the encoding is canonical.
 */
static void mutated_packets_decode_canonically(struct kunit *test)
{
	struct rnd_state rnd;
	unsigned int i, accepted = 0;

	prandom_seed_state(&rnd, 0x77697265);
	for (i = 0; i < 4000; i++) {
		struct mrc_hdrs h;
		size_t len, off;
		u8 *pkt, *again;
		int n;

		sample_hdrs(all_opcodes[i % ARRAY_SIZE(all_opcodes)], &h);
		pkt = build_pkt(test, &h, &len);
		for (n = 1 + (i & 3); n; n--) {
			off = prandom_u32_state(&rnd) % (len - MRC_ICRC_LEN);
			pkt[off] ^= 1 + prandom_u32_state(&rnd) % 255;
		}
		mrc_icrc_seal(pkt, len);
		if (!mrc_wire_decode(pkt, len, &h)) {
			accepted++;
			again = kunit_kzalloc(test, len, GFP_KERNEL);
			KUNIT_ASSERT_NOT_ERR_OR_NULL(test, again);
			KUNIT_EXPECT_EQ(test, mrc_wire_encode(&h, again, len),
					(int)h.hdr_len);
			KUNIT_EXPECT_EQ_MSG(test, memcmp(again, pkt, h.hdr_len),
					    0, "iteration %u", i);
			kunit_kfree(test, again);
		}
		kunit_kfree(test, pkt);
	}
	/* Payload and most header bytes are free-form: many must pass. */
	KUNIT_EXPECT_GT(test, accepted, 100U);
}

static struct kunit_case mrc_wire_cases[] = {
	KUNIT_CASE(icrc_is_crc32c),
	KUNIT_CASE(hdr_len_follows_opcode_and_tseth),
	KUNIT_CASE(encode_matches_test_vectors),
	KUNIT_CASE(decode_matches_test_vectors),
	KUNIT_CASE(samples_are_valid),
	KUNIT_CASE(round_trip_every_opcode),
	KUNIT_CASE(ud_round_trip),
	KUNIT_CASE(truncated_packets_rejected_at_every_length),
	KUNIT_CASE(decode_hdrs_reads_only_header_bytes),
	KUNIT_CASE(icrc_catches_every_single_bit_flip),
	KUNIT_CASE(unknown_version_or_opcode_is_eproto),
	KUNIT_CASE(reserved_bits_rejected),
	KUNIT_CASE(atomic_rules),
	KUNIT_CASE(flags_outside_their_opcodes_rejected),
	KUNIT_CASE(data_lengths_must_fit_the_opcode),
	KUNIT_CASE(sack_rules),
	KUNIT_CASE(sack_penalty_beside_window),
	KUNIT_CASE(nack_reasons_and_info),
	KUNIT_CASE(encode_refuses_short_buffer_and_bad_input),
	KUNIT_CASE(mutated_packets_decode_canonically),
	{}
};

static struct kunit_suite mrc_wire_suite = {
	.name = "mrc-wire",
	.test_cases = mrc_wire_cases,
};

kunit_test_suite(mrc_wire_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for mrc: PSN arithmetic, wire format, profile validation");
MODULE_IMPORT_NS(MRC_KUNIT);
