// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "mrc-mr": mrc_mr_check() from mrc/mr.c, the one gate every
 * local and remote access to a memory region passes.  Bounds at and around
 * both ends, lengths that wrap the 64-bit address space, PD and rights
 * mismatches, and the DMA MR that a peer must never reach.  -EACCES for a
 * PD or rights mismatch, -ERANGE for bytes outside the region.  And
 * reregistration in place, which changes what those checks see.
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <rdma/ib_umem.h>

#include "../mrc.h"

#define MR_IOVA		0x10000ULL
#define MR_LEN		0x3000ULL

#define RW		(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_READ)

static struct ib_pd pd_a, pd_b;

static void user_mr(struct mrc_mr *mr, u64 iova, u64 len, u32 access)
{
	memset(mr, 0, sizeof(*mr));
	mr->type = MRC_MR_USER;
	mr->iova = iova;
	mr->length = len;
	mr->access = access;
	mr->ibmr.pd = &pd_a;
}

static void mr_check_bounds(struct kunit *test)
{
	const u32 w = IB_ACCESS_REMOTE_WRITE;
	struct mrc_mr mr;

	user_mr(&mr, MR_IOVA, MR_LEN, RW);
	/* First byte, last byte, the whole region. */
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA, 1, w), 0);
	KUNIT_EXPECT_EQ(test,
			mrc_mr_check(&mr, &pd_a, MR_IOVA + MR_LEN - 1, 1, w),
			0);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA, MR_LEN, w), 0);
	/* One byte too many, from the start and from the middle. */
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA, MR_LEN + 1, w),
			-ERANGE);
	KUNIT_EXPECT_EQ(test,
			mrc_mr_check(&mr, &pd_a, MR_IOVA + 0x100,
				     MR_LEN - 0x100 + 1, w),
			-ERANGE);
	/* One byte past the end, one byte before the start. */
	KUNIT_EXPECT_EQ(test,
			mrc_mr_check(&mr, &pd_a, MR_IOVA + MR_LEN, 1, w),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA - 1, 1, w),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA - 1, 2, w),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, 0, 1, w), -ERANGE);
}

static void mr_check_zero_length(struct kunit *test)
{
	struct mrc_mr mr;

	user_mr(&mr, MR_IOVA, MR_LEN, RW);
	/* Anywhere inside and exactly at the end: allowed. */
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA, 0, 0), 0);
	KUNIT_EXPECT_EQ(test,
			mrc_mr_check(&mr, &pd_a, MR_IOVA + MR_LEN, 0,
				     IB_ACCESS_REMOTE_WRITE),
			0);
	/* Past the end or before the start: not even zero bytes. */
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA + MR_LEN + 1,
					   0, 0),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA - 1, 0, 0),
			-ERANGE);
}

static void mr_check_wrapping_u64(struct kunit *test)
{
	const u32 r = IB_ACCESS_REMOTE_READ;
	struct mrc_mr mr;

	/* iova + len would wrap to a small number inside a low region. */
	user_mr(&mr, MR_IOVA, MR_LEN, RW);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA + 0x10,
					   U64_MAX, r),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA + 0x10,
					   U64_MAX - 0x10 - MR_IOVA + 2, r),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, U64_MAX, 2, r),
			-ERANGE);

	/* A region whose last byte is the last address there is. */
	user_mr(&mr, U64_MAX - 0xfff, 0x1000, RW);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, U64_MAX, 1, r), 0);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, U64_MAX - 0xfff,
					   0x1000, r),
			0);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, U64_MAX, 0, r), 0);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, U64_MAX, 2, r),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, U64_MAX - 0xfff,
					   0x1001, r),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, U64_MAX - 0x1000, 1,
					   r),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, 0, 1, r), -ERANGE);
}

static void mr_check_pd(struct kunit *test)
{
	struct mrc_mr mr;

	user_mr(&mr, MR_IOVA, MR_LEN, RW);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_b, MR_IOVA, 1, 0),
			-EACCES);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_b, MR_IOVA, 1,
					   IB_ACCESS_REMOTE_WRITE),
			-EACCES);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, NULL, MR_IOVA, 1, 0),
			-EACCES);
	/* The PD is checked before the range. */
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_b, MR_IOVA + MR_LEN, 1, 0),
			-EACCES);
}

static void mr_check_rights(struct kunit *test)
{
	struct mrc_mr mr;

	user_mr(&mr, MR_IOVA, MR_LEN,
		IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA, 1,
					   IB_ACCESS_REMOTE_WRITE),
			-EACCES);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA, 1,
					   IB_ACCESS_REMOTE_READ),
			0);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA, 1,
					   IB_ACCESS_LOCAL_WRITE),
			0);

	user_mr(&mr, MR_IOVA, MR_LEN,
		IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA, 1,
					   IB_ACCESS_REMOTE_READ),
			-EACCES);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA, 1,
					   IB_ACCESS_REMOTE_WRITE),
			0);
	/* Rights are checked before the range. */
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA + MR_LEN, 1,
					   IB_ACCESS_REMOTE_READ),
			-EACCES);

	/* A read-only region: local reads only. */
	user_mr(&mr, MR_IOVA, MR_LEN, 0);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA, MR_LEN, 0), 0);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA, 1,
					   IB_ACCESS_LOCAL_WRITE),
			-EACCES);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA, 1,
					   IB_ACCESS_REMOTE_READ |
					   IB_ACCESS_REMOTE_WRITE),
			-EACCES);
}

static void mr_check_dma_mr_local_only(struct kunit *test)
{
	struct mrc_mr mr;

	/* Even with remote rights in its flags, which get_dma_mr refuses. */
	user_mr(&mr, 0, U64_MAX, RW | IB_ACCESS_REMOTE_ATOMIC);
	mr.type = MRC_MR_DMA;
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, 0x1000, 8,
					   IB_ACCESS_REMOTE_WRITE),
			-EACCES);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, 0x1000, 8,
					   IB_ACCESS_REMOTE_READ),
			-EACCES);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, 0x1000, 8,
					   IB_ACCESS_REMOTE_ATOMIC),
			-EACCES);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, 0x1000, 8, 0), 0);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, 0x1000, 8,
					   IB_ACCESS_LOCAL_WRITE),
			0);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_b, 0x1000, 8, 0),
			-EACCES);
}

/*
 * rereg_user_mr in place: new rights take effect at the next check, a PD
 * change is the core's to make (it moves ibmr.pd), rights that need local
 * write without it are refused, and only user regions are reregistered.
 */
static void mr_rereg_in_place(struct kunit *test)
{
	static struct ib_device dev;
	/* Pinned for writing: new rights may take effect in place. */
	struct ib_umem umem = { .writable = 1 };
	struct mrc_mr mr;

	user_mr(&mr, MR_IOVA, MR_LEN, RW);
	mr.ibmr.device = &dev;
	mr.umem = &umem;
	KUNIT_EXPECT_NULL(test, mrc_rereg_user_mr(&mr.ibmr, IB_MR_REREG_ACCESS,
						  0, 0, 0,
						  IB_ACCESS_LOCAL_WRITE |
						  IB_ACCESS_REMOTE_READ,
						  NULL, NULL));
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA, 1,
					   IB_ACCESS_REMOTE_WRITE),
			-EACCES);
	KUNIT_EXPECT_EQ(test, mrc_mr_check(&mr, &pd_a, MR_IOVA, 1,
					   IB_ACCESS_REMOTE_READ),
			0);
	/* A PD alone keeps the rights. */
	KUNIT_EXPECT_NULL(test, mrc_rereg_user_mr(&mr.ibmr, IB_MR_REREG_PD,
						  0, 0, 0, RW, &pd_b, NULL));
	KUNIT_EXPECT_EQ(test, mr.access,
			IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mrc_rereg_user_mr(&mr.ibmr,
							IB_MR_REREG_ACCESS,
							0, 0, 0,
							IB_ACCESS_REMOTE_WRITE,
							NULL, NULL)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mrc_rereg_user_mr(&mr.ibmr, BIT(5), 0, 0,
							0, RW, NULL, NULL)),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mr.access,
			IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ);
	mr.type = MRC_MR_DMA;
	KUNIT_EXPECT_EQ(test, PTR_ERR(mrc_rereg_user_mr(&mr.ibmr,
							IB_MR_REREG_ACCESS,
							0, 0, 0, RW, NULL,
							NULL)),
			-EINVAL);
}

static struct kunit_case mrc_mr_cases[] = {
	KUNIT_CASE(mr_check_bounds),
	KUNIT_CASE(mr_check_zero_length),
	KUNIT_CASE(mr_check_wrapping_u64),
	KUNIT_CASE(mr_check_pd),
	KUNIT_CASE(mr_check_rights),
	KUNIT_CASE(mr_check_dma_mr_local_only),
	KUNIT_CASE(mr_rereg_in_place),
	{}
};

static struct kunit_suite mrc_mr_suite = {
	.name = "mrc-mr",
	.test_cases = mrc_mr_cases,
};

kunit_test_suite(mrc_mr_suite);
