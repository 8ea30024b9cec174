// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "mrc-fuzz": seeded random and mutated input through the wire
 * decoder, the responder and the completer, under KASAN in the debug kernel.
 * Each case prints its seed; loading mrc_test with fuzz_seed=N repeats a run
 * exactly, fuzz_iters=N changes its length (default: a few thousand inputs
 * per case, a few seconds under TCG).
 *
 * What must hold whatever arrives: a packet the decoder accepts encodes back
 * to the same header bytes and says its own length; no byte outside the MR
 * changes; a packet no peer sent (anything not exactly at cum_psn, or an
 * acknowledgment of a PSN never sent) never fails the QP; the requester's
 * oldest unacknowledged PSN never passes its next.
 */
#include <kunit/test.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "qp_fixture.h"

static ulong fuzz_seed;
module_param(fuzz_seed, ulong, 0444);
MODULE_PARM_DESC(fuzz_seed, "mrc-fuzz: seed of every case (0: a new one per case)");

static uint fuzz_iters = 3000;
module_param(fuzz_iters, uint, 0444);
MODULE_PARM_DESC(fuzz_iters, "mrc-fuzz: inputs per case");

static void fuzz_start(struct kunit *test, struct rnd_state *rnd)
{
	u64 seed = fuzz_seed ? fuzz_seed : get_random_u64();

	kunit_info(test, "seed %llu (modprobe mrc_test fuzz_seed=%llu repeats it)\n",
		   seed, seed);
	prandom_seed_state(rnd, seed);
}

static u32 rnd32(struct rnd_state *rnd)
{
	return prandom_u32_state(rnd);
}

/* One of @n, with the ends of ranges (0, 1, max) more often than chance. */
static u32 rnd_below(struct rnd_state *rnd, u32 n)
{
	switch (rnd32(rnd) % 8) {
	case 0:
		return 0;
	case 1:
		return n - 1;
	default:
		return rnd32(rnd) % n;
	}
}

/*
 * Requests first (FUZZ_REQ_OPS of them, for the responder), then responses
 * and the rest; the last ones (SEND_WITH_INV's, atomics) are decoded only:
 * their responder paths have KUnit suites of their own (mrc-fastreg,
 * mrc-atomic).
 */
static const u8 known_ops[] = {
	MRC_OP_SEND_FIRST, MRC_OP_SEND_MIDDLE, MRC_OP_SEND_LAST,
	MRC_OP_SEND_LAST_IMM, MRC_OP_SEND_ONLY, MRC_OP_SEND_ONLY_IMM,
	MRC_OP_WRITE_FIRST, MRC_OP_WRITE_MIDDLE, MRC_OP_WRITE_LAST,
	MRC_OP_WRITE_LAST_IMM, MRC_OP_WRITE_ONLY, MRC_OP_WRITE_ONLY_IMM,
	MRC_OP_READ_REQ, MRC_OP_READ_RESP_FIRST, MRC_OP_READ_RESP_MIDDLE,
	MRC_OP_READ_RESP_LAST, MRC_OP_READ_RESP_ONLY, MRC_OP_UD_SEND_ONLY,
	MRC_OP_UD_SEND_ONLY_IMM,
	MRC_OP_SACK, MRC_OP_NACK, MRC_OP_PROBE, MRC_OP_PORT_STATUS,
	MRC_OP_SEND_LAST_INV, MRC_OP_SEND_ONLY_INV, MRC_OP_ATOMIC_ACK,
	MRC_OP_CMP_SWAP, MRC_OP_FETCH_ADD,
};

#define FUZZ_REQ_OPS	(MRC_OP_READ_REQ - MRC_OP_SEND_FIRST + 1)

/* The retryable ones first: FUZZ_RETRY_REASONS of them. */
static const u8 nack_reasons[] = {
	MRC_NACK_TRIMMED, MRC_NACK_TRIMMED_LASTHOP, MRC_NACK_PSN_OOR_WINDOW,
	MRC_NACK_NO_RESOURCE, MRC_NACK_RNR, MRC_NACK_INVALID_REQUEST,
	MRC_NACK_RKEY_VIOLATION, MRC_NACK_ACCESS, MRC_NACK_REMOTE_OP,
	MRC_NACK_UNEXP_EVENT,
};

#define FUZZ_RETRY_REASONS	5

/*
 * Bytes that look like a packet: a known opcode and version, reserved bytes
 * mostly clear, the rest random, so that decoding gets past the first
 * checks; then a few bytes damaged; sealed with a correct ICRC.
 */
static void fuzz_fill(struct rnd_state *rnd, u8 *p, size_t len)
{
	size_t i;
	u32 n;

	prandom_bytes_state(rnd, p, len);
	if (len >= 16 && rnd32(rnd) % 4) {
		p[0] = known_ops[rnd32(rnd) % ARRAY_SIZE(known_ops)];
		p[1] &= 0xf0;
		p[2] = MRC_WIRE_VERSION;
		p[3] = 0;
		p[4] = 0;
		p[8] = 0;
		for (i = 16; i < len; i++)
			if (rnd32(rnd) % 2)
				p[i] = 0;
	}
	for (n = rnd32(rnd) % 3; n && len > MRC_ICRC_LEN; n--)
		p[rnd32(rnd) % (len - MRC_ICRC_LEN)] ^= BIT(rnd32(rnd) % 8);
	if (len >= MRC_ICRC_LEN)
		mrc_icrc_seal(p, len);
}

static bool rnd_op_is(u8 op, u8 first, u8 last)
{
	return op >= first && op <= last;
}

/*
 * Random headers of a random opcode that keep every rule of the wire format
 * (Documentation/wire-format.md section 4), with a payload of 1 to 256 bytes
 * where the opcode has one.
 */
static void fuzz_valid_hdrs(struct rnd_state *rnd, struct mrc_hdrs *h)
{
	u8 op = known_ops[rnd32(rnd) % ARRAY_SIZE(known_ops)];
	u32 pay = 1 + rnd_below(rnd, 256), more = 1 + rnd_below(rnd, 4096);
	bool first = op == MRC_OP_SEND_FIRST || op == MRC_OP_WRITE_FIRST ||
		     op == MRC_OP_READ_RESP_FIRST;
	bool only = op == MRC_OP_SEND_ONLY || op == MRC_OP_SEND_ONLY_IMM ||
		    op == MRC_OP_WRITE_ONLY || op == MRC_OP_WRITE_ONLY_IMM ||
		    op == MRC_OP_READ_RESP_ONLY;
	bool last = only || op == MRC_OP_SEND_LAST || op == MRC_OP_SEND_LAST_IMM ||
		    op == MRC_OP_WRITE_LAST || op == MRC_OP_WRITE_LAST_IMM ||
		    op == MRC_OP_READ_RESP_LAST;

	memset(h, 0, sizeof(*h));
	h->opcode = op;
	h->dqpn = rnd32(rnd) & MRC_PSN_MASK;
	h->psn = rnd32(rnd) & MRC_PSN_MASK;
	h->ev = rnd32(rnd);
	if (rnd_op_is(op, MRC_OP_SEND_FIRST, MRC_OP_READ_RESP_ONLY)) {
		h->msn = rnd32(rnd);
		if (rnd_op_is(op, MRC_OP_SEND_FIRST, MRC_OP_READ_REQ)) {
			h->rq_msn = rnd32(rnd);
			h->flags = rnd32(rnd) & (MRC_BTH_F_RTX | MRC_BTH_F_ACK_REQ |
						 MRC_BTH_F_TSETH);
			if (h->flags & MRC_BTH_F_TSETH)
				h->ts = ((u64)rnd32(rnd) << 32) | rnd32(rnd);
		}
	}
	if (op == MRC_OP_SEND_LAST_IMM || op == MRC_OP_SEND_ONLY_IMM ||
	    op == MRC_OP_WRITE_LAST_IMM || op == MRC_OP_WRITE_ONLY_IMM) {
		h->imm = rnd32(rnd);
		if (rnd32(rnd) % 2)
			h->flags |= MRC_BTH_F_SE;
	}
	if (op == MRC_OP_SEND_LAST_INV || op == MRC_OP_SEND_ONLY_INV) {
		h->msn = rnd32(rnd);
		h->rq_msn = rnd32(rnd);
		h->inv_rkey = rnd32(rnd);
		h->payload_len = pay;
		h->va = op == MRC_OP_SEND_ONLY_INV ? 0 : more;
		h->dma_len = h->va + pay;
	} else if (op == MRC_OP_CMP_SWAP || op == MRC_OP_FETCH_ADD) {
		h->msn = rnd32(rnd);
		h->rq_msn = rnd32(rnd);
		h->flags = rnd32(rnd) & (MRC_BTH_F_RTX | MRC_BTH_F_ACK_REQ);
		h->rkey = rnd32(rnd);
		h->va = (((u64)rnd32(rnd) << 31) | rnd32(rnd)) & ~7ULL;
		h->dma_len = MRC_ATOMIC_LEN;
		h->swap_add = ((u64)rnd32(rnd) << 32) | rnd32(rnd);
		if (op == MRC_OP_CMP_SWAP)
			h->compare = ((u64)rnd32(rnd) << 32) | rnd32(rnd);
	} else if (op == MRC_OP_ATOMIC_ACK) {
		h->msn = rnd32(rnd);
		h->dma_len = MRC_ATOMIC_LEN;
		h->payload_len = MRC_ATOMIC_LEN;
	} else if (op == MRC_OP_READ_REQ) {
		h->rkey = rnd32(rnd);
		h->dma_len = rnd_below(rnd, BIT(31));
		h->va = ((u64)rnd32(rnd) << 31) | rnd32(rnd);
	} else if (rnd_op_is(op, MRC_OP_WRITE_FIRST, MRC_OP_WRITE_ONLY_IMM)) {
		h->payload_len = pay;
		h->rkey = rnd32(rnd);
		h->va = ((u64)rnd32(rnd) << 31) | rnd32(rnd);
		h->dma_len = only ? pay : pay + more;
	} else if (rnd_op_is(op, MRC_OP_SEND_FIRST, MRC_OP_READ_RESP_ONLY)) {
		/* SEND and READ responses: va is the offset in the message */
		h->payload_len = pay;
		h->va = first || only ? 0 : more;
		h->dma_len = h->va + pay + (last ? 0 : more);
	} else if (op == MRC_OP_UD_SEND_ONLY ||
		   op == MRC_OP_UD_SEND_ONLY_IMM) {
		h->payload_len = pay;
		h->qkey = rnd32(rnd);
		h->src_qpn = rnd32(rnd) & MRC_PSN_MASK;
		if (op == MRC_OP_UD_SEND_ONLY_IMM)
			h->imm = rnd32(rnd);
	} else if (op == MRC_OP_SACK) {
		h->sack.cum_psn = rnd32(rnd) & MRC_PSN_MASK;
		h->sack.sack_psn = (h->sack.cum_psn + rnd_below(rnd, 128)) & MRC_PSN_MASK;
		h->sack.bitmap = ((u64)rnd32(rnd) << 32) | rnd32(rnd);
		if (h->sack.sack_psn == h->sack.cum_psn)
			h->sack.bitmap &= ~1ULL;
		h->sack.window = 1 + rnd_below(rnd, MRC_PSN_WINDOW_MAX);
		h->sack.penalty = rnd_below(rnd, MRC_SACK_PENALTY_MAX + 1);
		h->sack.flags = rnd32(rnd) % 3 |
				(rnd32(rnd) & (MRC_SACK_F_TS_VALID | MRC_SACK_F_PROBE |
					       MRC_SACK_F_RTX | MRC_SACK_F_DUP));
		if (h->sack.flags & (MRC_SACK_F_TS_VALID | MRC_SACK_F_PROBE))
			h->sack.ref_ts = ((u64)rnd32(rnd) << 32) | rnd32(rnd);
		h->sack.ref_ev = rnd32(rnd);
	} else if (op == MRC_OP_NACK) {
		h->nack.reason = nack_reasons[rnd32(rnd) % ARRAY_SIZE(nack_reasons)];
		h->nack.cum_psn = rnd32(rnd) & MRC_PSN_MASK;
		h->nack.ref_ev = rnd32(rnd);
		if (h->nack.reason == MRC_NACK_PSN_OOR_WINDOW)
			h->nack.info = 1 + rnd_below(rnd, MRC_PSN_WINDOW_MAX);
		else if (h->nack.reason == MRC_NACK_RNR)
			h->nack.info = rnd_below(rnd, MRC_RNR_TIMER_MAX + 1);
	} else if (op == MRC_OP_PROBE) {
		h->probe.token = ((u64)rnd32(rnd) << 32) | rnd32(rnd);
	} else {
		h->pstat.seq = rnd32(rnd);
		h->pstat.down = rnd32(rnd);
	}
}

/*
 * Half the inputs: valid packets (each must encode), damaged in one to
 * three bits and sealed again.  The other half: bytes shaped to look like
 * a packet (fuzz_fill()).
 */
static void fuzz_decode(struct kunit *test)
{
	u32 i, accepted = 0, iters = fuzz_iters;
	struct rnd_state rnd;

	fuzz_start(test, &rnd);
	for (i = 0; i < iters; i++) {
		/* Exact-size allocations: KASAN sees a read one byte past. */
		size_t len = rnd_below(&rnd, 2 * MRC_MAX_HDR_LEN + 64);
		u8 *p, *again;
		struct mrc_hdrs h;
		int n;

		if (i % 2) {
			fuzz_valid_hdrs(&rnd, &h);
			len = mrc_wire_hdr_len(h.opcode, h.flags) + h.payload_len +
			      MRC_ICRC_LEN;
		}
		p = kmalloc(len ?: 1, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p);
		if (i % 2) {
			KUNIT_ASSERT_EQ_MSG(test, mrc_wire_encode(&h, p, len),
					    (int)(len - h.payload_len - MRC_ICRC_LEN),
					    "input %u: opcode %#x", i, h.opcode);
			prandom_bytes_state(&rnd, p + len - h.payload_len - MRC_ICRC_LEN,
					    h.payload_len);
			for (n = 1 + rnd32(&rnd) % 3; n; n--)
				p[rnd32(&rnd) % (len - MRC_ICRC_LEN)] ^= BIT(rnd32(&rnd) % 8);
			mrc_icrc_seal(p, len);
		} else {
			fuzz_fill(&rnd, p, len);
		}
		if (!mrc_wire_decode(p, len, &h)) {
			accepted++;
			KUNIT_EXPECT_EQ_MSG(test, h.hdr_len + h.payload_len +
					    MRC_ICRC_LEN, (u32)len, "input %u", i);
			again = kmalloc(h.hdr_len, GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, again);
			KUNIT_EXPECT_EQ_MSG(test, mrc_wire_encode(&h, again, h.hdr_len),
					    (int)h.hdr_len, "input %u", i);
			KUNIT_EXPECT_EQ_MSG(test, memcmp(again, p, h.hdr_len), 0,
					    "input %u", i);
			kfree(again);
		}
		kfree(p);
	}
	kunit_info(test, "%u inputs, %u decoded\n", iters, accepted);
	/* Most damaged valid packets stay valid (payload bits, free fields). */
	KUNIT_EXPECT_GT(test, accepted, iters / 8);
}

/* PSN @d from @base, in 24 bits. */
static u32 psn_at(u32 base, s32 d)
{
	return (base + d) & MRC_PSN_MASK;
}

/*
 * Requests anywhere around the responder's window, with random MSNs, keys,
 * addresses and lengths, payloads from a buffer of random bytes; and at
 * cum_psn only what the peer would send there (a WRITE_ONLY into the MR, in
 * MSN order), so that the window moves.  The QP must stay in RTS, and the
 * canary zone after the MR must stay untouched.
 *
 * A forged packet that lands in the window with a low enough MSN holds that
 * message's slot with a message of its own (Documentation/wire-format.md,
 * "A blind spoofer's residue"): the peer's write there is refused, and a
 * real peer would retry until its QP failed and was connected again.  The
 * test checks that nothing else ever refuses the peer, and connects again
 * at once, so that the window keeps moving through the whole run.
 */
static void fuzz_responder(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_resp *r = &f->qp->resp;
	u32 i, iters = fuzz_iters, placed = 0, held = 0, w;
	struct rnd_state rnd;
	struct mrc_hdrs h, junk;
	struct mrc_msg *m;
	u8 *pay;

	fuzz_start(test, &rnd);
	pay = kunit_kmalloc(test, TF_MTU, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pay);
	prandom_bytes_state(&rnd, pay, TF_MTU);
	/* the sequence wraps while we fuzz */
	tf_set_psn(f, (0xffff00 + rnd32(&rnd) % 0x200) & MRC_PSN_MASK, 7);
	w = r->window;
	for (i = 0; i < iters; i++) {
		u32 cum = r->cum_psn, len = 1 + rnd_below(&rnd, TF_MTU);
		bool peer = !(rnd32(&rnd) % 4);
		s32 d;

		memset(&h, 0, sizeof(h));
		h.dqpn = f->qp->ibqp.qp_num;
		h.ev = rnd32(&rnd);
		if (peer) {
			h.opcode = MRC_OP_WRITE_ONLY;
			h.psn = cum;
			h.msn = r->msn_done;
			h.rkey = TF_MR_KEY;
			h.va = TF_MR_IOVA + rnd_below(&rnd, TF_MR_LEN - len + 1);
			h.dma_len = len;
			h.payload_len = len;
		} else {
			do {
				d = (s32)rnd_below(&rnd, 4 * w) - 2 * (s32)w;
			} while (!d);
			h.opcode = known_ops[rnd32(&rnd) % FUZZ_REQ_OPS];
			h.psn = psn_at(cum, d);
			h.msn = r->msn_done + (s32)rnd_below(&rnd, 8) - 2;
			h.rq_msn = rnd_below(&rnd, 4);
			h.rkey = rnd32(&rnd) % 2 ? TF_MR_KEY : rnd32(&rnd);
			h.va = rnd32(&rnd) % 2 ?
			       TF_MR_IOVA + rnd_below(&rnd, TF_MR_LEN + TF_MTU) :
			       ((u64)rnd32(&rnd) << 32) | rnd32(&rnd);
			h.dma_len = len + rnd_below(&rnd, 4 * TF_MTU);
			h.payload_len = len;
		}
		if (h.opcode == MRC_OP_READ_REQ) {
			h.payload_len = 0;
		} else if (h.opcode <= MRC_OP_SEND_ONLY_IMM) {
			/* SEND: va is the offset in the message, no key */
			h.rkey = 0;
			h.va = rnd_below(&rnd, h.dma_len);
		}
		/* Only what the wire rules let through reaches the responder. */
		if (mrc_wire_check(&h))
			continue;
		tf_resp_rcv(f, &h, pay);
		tf_pop_all(f, &junk);
		KUNIT_ASSERT_EQ_MSG(test, f->qp->state, IB_QPS_RTS,
				    "input %u: opcode %#x psn %u (cum %u) msn %u",
				    i, h.opcode, h.psn, cum, h.msn);
		if (!peer)
			continue;
		if (r->cum_psn != cum) {
			placed++;
			continue;
		}
		m = &r->msgs[h.msn & (w - 1)];
		KUNIT_ASSERT_TRUE_MSG(test, m->used && m->msn == h.msn &&
				      m->got < m->len,
				      "input %u: the peer's write at psn %u msn %u refused, its slot not held",
				      i, h.psn, h.msn);
		held++;
		tf_resp_restart(f, psn_at(cum, rnd32(&rnd)));
	}
	KUNIT_EXPECT_EQ(test, tf_mr_dirty(f, TF_MR_LEN, TF_NPAGES * PAGE_SIZE), 0U);
	kunit_info(test, "%u inputs, window moved %u times, %u slots held by forgeries\n",
		   iters, placed, held);
	/*
	 * A quarter of the inputs are the peer's; a held slot costs one of
	 * them.  Fewer than a tenth of the peer's writes placed means
	 * forgeries land far more often than the odds above.
	 */
	KUNIT_EXPECT_GE(test, placed, iters / 40);
}

#define FUZZ_SQ_PSN	0xfffff0	/* the sequence wraps while we fuzz */

/*
 * SACKs and NACKs with random PSNs, bitmaps, windows, flags and reasons
 * against a requester with writes in flight.  Acknowledgments of PSNs in
 * flight are the peer's to give (the completer takes them), and so is a
 * fatal NACK of one: only retryable NACKs go there.  Fatal NACKs of any
 * other PSN must change nothing: the QP stays in RTS throughout.
 */
static void fuzz_completer(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_req *req = &f->qp->req;
	u32 i, iters = fuzz_iters, posted = 0, done = 0;
	struct rnd_state rnd;
	struct mrc_hdrs h, junk;
	struct ib_wc wc[8];
	int n, k;

	fuzz_start(test, &rnd);
	tf_set_psn(f, 100, FUZZ_SQ_PSN);
	for (i = 0; i < iters; i++) {
		u32 una = req->psn_una, next = req->psn_next;
		u32 span = req->ring_size;
		s32 d = (s32)rnd_below(&rnd, 4 * span) - 2 * (s32)span;
		/* Half of them about the flight, as the peer's would be. */
		bool near = rnd32(&rnd) % 2;

		if (una == next) {
			/* All acknowledged: each write completed, and well. */
			while ((n = tf_poll(f, f->scq, wc, ARRAY_SIZE(wc))) > 0)
				for (k = 0; k < n; k++, done++)
					KUNIT_ASSERT_EQ_MSG(test, wc[k].status, IB_WC_SUCCESS,
							    "write %llu", wc[k].wr_id);
			tf_post_write(f, 0x5500000000ULL, 0x4321, posted,
				      0, 1 + rnd_below(&rnd, 4 * TF_MTU));
			posted++;
			tf_req_run(f);
			tf_pop_all(f, &junk);
			continue;
		}
		memset(&h, 0, sizeof(h));
		h.dqpn = f->qp->ibqp.qp_num;
		h.ev = rnd32(&rnd);
		if (near)
			d = rnd_below(&rnd, mrc_psn_fwd(next, una) + 1);
		h.psn = psn_at(una, d);
		if (rnd32(&rnd) % 3) {
			h.opcode = MRC_OP_SACK;
			h.sack.cum_psn = near ?
				psn_at(una, rnd_below(&rnd, mrc_psn_fwd(next, una) + 1)) :
				psn_at(una, (s32)rnd_below(&rnd, 2 * span) - (s32)span);
			h.sack.sack_psn = psn_at(h.sack.cum_psn, rnd_below(&rnd, 128));
			h.sack.bitmap = ((u64)rnd32(&rnd) << 32) | rnd32(&rnd);
			h.sack.window = 1 + rnd_below(&rnd, MRC_PSN_WINDOW_MAX);
			h.sack.penalty = rnd_below(&rnd, MRC_SACK_PENALTY_MAX + 1);
			h.sack.flags = rnd32(&rnd) & (MRC_SACK_F_ALL & ~MRC_SACK_F_PROBE);
			if (h.sack.flags & MRC_SACK_F_TS_VALID)
				h.sack.ref_ts = rnd32(&rnd);
			if (mrc_wire_check(&h))
				continue;
			tf_sack_rcv(f, &h);
		} else {
			h.opcode = MRC_OP_NACK;
			h.nack.reason = nack_reasons[rnd32(&rnd) % ARRAY_SIZE(nack_reasons)];
			if (mrc_psn_fwd(h.psn, una) < mrc_psn_fwd(next, una))
				h.nack.reason = nack_reasons[rnd32(&rnd) % FUZZ_RETRY_REASONS];
			h.nack.cum_psn = psn_at(una, (s32)rnd_below(&rnd, 2 * span) - (s32)span);
			if (h.nack.reason == MRC_NACK_PSN_OOR_WINDOW)
				h.nack.info = 1 + rnd_below(&rnd, MRC_PSN_WINDOW_MAX);
			if (mrc_wire_check(&h))
				continue;
			spin_lock_bh(&f->qp->lock);
			mrc_comp_nack_rcv(f->qp, &h, &f->out);
			spin_unlock_bh(&f->qp->lock);
		}
		tf_pop_all(f, &junk);
		KUNIT_ASSERT_LE_MSG(test, mrc_psn_fwd(req->psn_una, una),
				    mrc_psn_fwd(next, una),
				    "input %u: psn_una %u passed psn_next %u",
				    i, req->psn_una, next);
		KUNIT_ASSERT_EQ_MSG(test, f->qp->state, IB_QPS_RTS,
				    "input %u: opcode %#x psn %u, flight [%u, %u)",
				    i, h.opcode, h.psn, una, next);
	}
	kunit_info(test, "%u inputs, %u writes posted, %u completed\n", iters,
		   posted, done);
	/* About one write in ten inputs when half are about the flight. */
	KUNIT_EXPECT_GE(test, done, iters / 30);
}

static struct kunit_case mrc_fuzz_cases[] = {
	KUNIT_CASE(fuzz_decode),
	KUNIT_CASE(fuzz_responder),
	KUNIT_CASE(fuzz_completer),
	{}
};

static struct kunit_suite mrc_fuzz_suite = {
	.name = "mrc-fuzz",
	.init = tf_init,
	.exit = tf_exit,
	.test_cases = mrc_fuzz_cases,
};

/*
 * KUnit (before 6.6) runs the suites of kunit_test_suite() as the module is
 * COMING, before its parameters are parsed: fuzz_seed and fuzz_iters would
 * never hold.  This suite runs from the module's init instead, once they do.
 */
static struct kunit_suite *mrc_fuzz_suites[] = { &mrc_fuzz_suite };

static int __init mrc_fuzz_init(void)
{
	return __kunit_test_suites_init(mrc_fuzz_suites,
					ARRAY_SIZE(mrc_fuzz_suites));
}
module_init(mrc_fuzz_init);

static void __exit mrc_fuzz_exit(void)
{
	__kunit_test_suites_exit(mrc_fuzz_suites, ARRAY_SIZE(mrc_fuzz_suites));
}
module_exit(mrc_fuzz_exit);
