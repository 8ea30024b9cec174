/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device, PD, two kernel CQs, one RC QP and one MR built in kernel memory
 * without the RDMA core, for the KUnit suites that drive the real data path
 * (rx_test.c, sack_test.c).  The QP and CQs come from the provider's own
 * create verbs; the MR is hand-built over pages the fixture allocates.
 */
#ifndef _MRC_TESTS_QP_FIXTURE_H
#define _MRC_TESTS_QP_FIXTURE_H

#include <kunit/test.h>
#include <linux/skbuff.h>

#include "../mrc.h"

#define TF_NPAGES	4
#define TF_MR_IOVA	0x7f3400000000ULL
/* The MR ends this many bytes before its last page does: a canary zone. */
#define TF_MR_TAIL	128
#define TF_MR_LEN	(TF_NPAGES * PAGE_SIZE - TF_MR_TAIL)
#define TF_MR_KEY	((5U << 8) | 0x3c)
#define TF_CANARY	0xa5
#define TF_DEST_QPN	0x77
#define TF_MTU		256
#define TF_CQE		64
#define TF_RNR_TIMER	12

struct tf {
	struct kunit *test;
	struct mrc_device *mdev;
	struct mrc_pd *pd;
	struct mrc_cq *scq;
	struct mrc_cq *rcq;
	struct mrc_qp *qp;
	bool qp_created;
	struct mrc_srq *srq;
	bool srq_created;
	struct mrc_mr *mr;
	struct page *pages[TF_NPAGES];
	struct sk_buff_head out;
};

#define TF_SRQ_WR	8

int tf_init(struct kunit *test);
/* The same with an SRQ of TF_SRQ_WR WQEs, which the QP receives from. */
int tf_init_srq(struct kunit *test);
void tf_exit(struct kunit *test);

/* Set the PSNs both directions start at (as modify_qp to RTR/RTS does). */
void tf_set_psn(struct tf *f, u32 rq_psn, u32 sq_psn);
/* The responder as a reconnected QP finds it: empty, expecting @rq_psn. */
void tf_resp_restart(struct tf *f, u32 rq_psn);

/* Byte @off of the MR's pages (the region starts at offset 0). */
u8 *tf_mr_byte(struct tf *f, size_t off);
/* Number of bytes in [@from, @to) of the pages that are not the canary. */
size_t tf_mr_dirty(struct tf *f, size_t from, size_t to);
void tf_mr_fill(struct tf *f, size_t off, const u8 *src, size_t len);

u64 tf_count(struct tf *f, enum mrc_counter c);
/* Counter @c summed over every plane (for counters kept on a packet's plane). */
u64 tf_count_planes(struct tf *f, enum mrc_counter c);

/* Pop the next packet of @f->out and decode it; KUNIT_ASSERTs it exists. */
void tf_pop(struct tf *f, struct mrc_hdrs *h);
/* The same, copying up to @size bytes of its payload to @payload. */
void tf_pop_payload(struct tf *f, struct mrc_hdrs *h, u8 *payload,
		    size_t size);
/* Decode and drop every packet on @f->out, keeping the last one in @h. */
unsigned int tf_pop_all(struct tf *f, struct mrc_hdrs *h);

/*
 * A peer's one-packet WRITE of @len bytes of @data at @va under @rkey, with
 * PSN @psn and MSN @msn, asking to be answered at once (no SACK coalescing
 * in the way).
 */
void tf_peer_write(struct tf *f, u32 psn, u32 msn, u32 rkey, u64 va,
		   const u8 *data, u32 len);
/* The next packet sent is a SACK whose cum_psn is @cum. */
void tf_expect_sack(struct tf *f, u32 cum);
/* The next packet sent is a NACK for @reason. */
void tf_expect_nack(struct tf *f, u8 reason);

/* mrc_resp_rcv() and mrc_comp_sack_rcv() under the locks the RX path holds. */
void tf_resp_rcv(struct tf *f, const struct mrc_hdrs *h, const void *payload);
void tf_sack_rcv(struct tf *f, const struct mrc_hdrs *h);
/* A SACK of @cum and @bitmap with @flags, answering the packet of PSN @psn. */
void tf_sack(struct tf *f, u32 psn, u8 flags, u32 cum, u64 bitmap);
void tf_req_run(struct tf *f);

int tf_post_recv(struct tf *f, u64 wr_id, u64 off, u32 len);
int tf_post_srq_recv(struct tf *f, u64 wr_id, u64 off, u32 len);
/* The next free send WQE of the QP, zeroed (and its first SGE), to fill. */
struct rxe_send_wqe *tf_sq_next(struct tf *f);
/* Make the WQE tf_sq_next() gave visible to the requester. */
void tf_sq_publish(struct tf *f);
/*
 * Post a signaled RDMA WRITE of MR bytes [@off, +@len) to @remote_va + @off
 * under @rkey, into the QP's send queue as librxe would.
 */
void tf_post_write(struct tf *f, u64 remote_va, u32 rkey, u64 wr_id, u32 off,
		   u32 len);
int tf_poll(struct tf *f, struct mrc_cq *cq, struct ib_wc *wc, int n);

#endif /* _MRC_TESTS_QP_FIXTURE_H */
