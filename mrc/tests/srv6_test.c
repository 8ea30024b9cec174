// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "mrc-srv6": SRv6 paths from mrc/srv6.c. Carrier packing
 * against byte-exact vectors and round trips of every length, GEN paths of
 * the test fabric's plan against literal addresses and a byte-level formula,
 * every template rule, every header field mrc_srv6_push() writes, and that
 * the receive path finds a CE mark in the outer header End.DT6 stripped,
 * in mrc's own header stacks only.
 */
#include <kunit/test.h>
#include <linux/if_ether.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/ip6_checksum.h>
#include "../compat.h"

#include "../srv6.h"

#define LOC	0xfc000000	/* fc00:0000, the test fabric's locator block */
#define SPINES	4
#define PLANES	8

static const u8 vec4_da[16] = {
	0xfc, 0x00, 0x00, 0x00, 0x10, 0x00, 0x20, 0x01,
	0x10, 0x01, 0x30, 0x01, 0x00, 0x00, 0x00, 0x00,
};

static const u8 vec8_da[16] = {
	0xfc, 0x00, 0x00, 0x00, 0x10, 0x00, 0x20, 0x01,
	0x10, 0x01, 0x30, 0x01, 0x10, 0x02, 0x20, 0x02,
};

static const u8 vec8_seg[16] = {
	0xfc, 0x00, 0x00, 0x00, 0x10, 0x03, 0x30, 0x03,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static const u8 zero16[16];

/*
 * memcmp() that shows both sides when they differ (6.1's KUnit has no
 * KUNIT_EXPECT_MEMEQ); the caller's EXPECT gives the line.
 */
static bool bytes_eq(struct kunit *test, const void *got, const void *want,
		     size_t len)
{
	if (!memcmp(got, want, len))
		return true;
	kunit_info(test, "got  %*ph\n", (int)len, got);
	kunit_info(test, "want %*ph\n", (int)len, want);
	return false;
}

static void carrier_vectors(struct kunit *test)
{
	static const u16 u4[] = { 0x1000, 0x2001, 0x1001, 0x3001 };
	static const u16 u8[] = { 0x1000, 0x2001, 0x1001, 0x3001,
				  0x1002, 0x2002, 0x1003, 0x3003 };
	struct mrc_srv6_path p;

	/* fc00:0:1000:2001:1001:3001:: */
	memset(&p, 0xa5, sizeof(p));
	KUNIT_ASSERT_EQ(test, mrc_srv6_encode(LOC, u4, 4, &p), 0);
	KUNIT_EXPECT_TRUE(test, bytes_eq(test, p.da.s6_addr, vec4_da, 16));
	KUNIT_EXPECT_FALSE(test, p.srh);
	KUNIT_EXPECT_TRUE(test, bytes_eq(test, p.seg.s6_addr, zero16, 16));

	/* fc00:0:1000:2001:1001:3001:1002:2002 + SRH fc00:0:1003:3003:: */
	memset(&p, 0xa5, sizeof(p));
	KUNIT_ASSERT_EQ(test, mrc_srv6_encode(LOC, u8, 8, &p), 0);
	KUNIT_EXPECT_TRUE(test, bytes_eq(test, p.da.s6_addr, vec8_da, 16));
	KUNIT_EXPECT_TRUE(test, p.srh);
	KUNIT_EXPECT_TRUE(test, bytes_eq(test, p.seg.s6_addr, vec8_seg, 16));
}

static void carrier_round_trip_1_to_12(struct kunit *test)
{
	u16 in[MRC_SRV6_USIDS_MAX], out[MRC_SRV6_USIDS_MAX];
	struct mrc_srv6_path p;
	u32 n, i, loc;

	for (n = 1; n <= MRC_SRV6_USIDS_MAX; n++) {
		for (i = 0; i < n; i++)
			in[i] = 0x8000 | n << 8 | (i * 17 + 1);
		KUNIT_ASSERT_EQ(test, mrc_srv6_encode(0x20010db8, in, n, &p), 0);
		KUNIT_EXPECT_EQ(test, p.srh, n > MRC_SRV6_CARRIER_USIDS);
		/* locator first, big endian, in each carrier */
		KUNIT_EXPECT_EQ(test, p.da.s6_addr[0], 0x20);
		KUNIT_EXPECT_EQ(test, p.da.s6_addr[3], 0xb8);
		for (i = 0; i < MRC_SRV6_CARRIER_USIDS; i++) {
			u16 want = i < n ? in[i] : 0;

			KUNIT_EXPECT_EQ(test, p.da.s6_addr[4 + 2 * i], want >> 8);
			KUNIT_EXPECT_EQ(test, p.da.s6_addr[5 + 2 * i], want & 0xff);
		}
		if (p.srh) {
			KUNIT_EXPECT_EQ(test, p.seg.s6_addr[1], 0x01);
			KUNIT_EXPECT_EQ(test, p.seg.s6_addr[2], 0x0d);
		} else {
			KUNIT_EXPECT_TRUE(test, bytes_eq(test, p.seg.s6_addr, zero16, 16));
		}

		memset(out, 0, sizeof(out));
		loc = 0;
		KUNIT_EXPECT_EQ(test, mrc_srv6_decode(&p, &loc, out), n);
		KUNIT_EXPECT_EQ(test, loc, 0x20010db8);
		KUNIT_EXPECT_TRUE(test, bytes_eq(test, out, in, n * sizeof(u16)));
	}
}

static void encode_rejects_bad_input(struct kunit *test)
{
	u16 u[MRC_SRV6_USIDS_MAX + 1];
	struct mrc_srv6_path p;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(u); i++)
		u[i] = 0x1000 + i;
	KUNIT_EXPECT_EQ(test, mrc_srv6_encode(LOC, u, 0, &p), -EINVAL);
	KUNIT_EXPECT_EQ(test, mrc_srv6_encode(LOC, u, 13, &p), -EINVAL);
	/* a zero uSID anywhere would end its carrier early */
	for (i = 0; i < MRC_SRV6_USIDS_MAX; i++) {
		u16 keep = u[i];

		u[i] = 0;
		KUNIT_EXPECT_EQ(test, mrc_srv6_encode(LOC, u, 12, &p), -EINVAL);
		u[i] = keep;
	}
	KUNIT_EXPECT_EQ(test, mrc_srv6_encode(LOC, u, 12, &p), 0);
}

/* The test fabric's template from host @a to host @b: T0, spine, T0, NIC. */
static void fabric_tmpl(struct mrc_srv6_tmpl *t, u8 a, u8 b)
{
	memset(t, 0, sizeof(*t));
	t->locator = LOC;
	t->nusids = 4;
	t->usid[0] = 0x1000 | a;
	t->usid[1] = 0x2000;
	t->usid[2] = 0x1000 | b;
	t->usid[3] = 0x3000 | b;
	t->plane_shift = 8;
	t->ntiers = 1;
	t->tier[0].usid = 1;
	t->tier[0].shift = 0;
	t->tier[0].count = SPINES;
}

static void gen_fabric_literals(struct kunit *test)
{
	static const struct {
		u8 plane;
		u32 k;
		u8 da[16];
	} lit[] = {
		/* fc00:0:1000:2000:1001:3001:: */
		{ 0, 0, { 0xfc, 0, 0, 0, 0x10, 0x00, 0x20, 0x00,
			  0x10, 0x01, 0x30, 0x01 } },
		/* fc00:0:1300:2302:1301:3301:: */
		{ 3, 2, { 0xfc, 0, 0, 0, 0x13, 0x00, 0x23, 0x02,
			  0x13, 0x01, 0x33, 0x01 } },
		/* fc00:0:1700:2703:1701:3701:: */
		{ 7, 3, { 0xfc, 0, 0, 0, 0x17, 0x00, 0x27, 0x03,
			  0x17, 0x01, 0x37, 0x01 } },
		/* k is taken modulo the 4 paths: k 6 is k 2 */
		{ 5, 6, { 0xfc, 0, 0, 0, 0x15, 0x00, 0x25, 0x02,
			  0x15, 0x01, 0x35, 0x01 } },
	};
	struct mrc_srv6_tmpl t;
	const char *why = NULL;
	struct mrc_srv6_path p;
	u16 u[MRC_SRV6_USIDS_MAX];
	u32 i;

	fabric_tmpl(&t, 0, 1);
	KUNIT_ASSERT_EQ(test, mrc_srv6_tmpl_check(&t, &why), 0);
	KUNIT_EXPECT_EQ(test, mrc_srv6_tmpl_paths(&t), SPINES);
	for (i = 0; i < ARRAY_SIZE(lit); i++) {
		mrc_srv6_gen(&t, lit[i].plane, lit[i].k, u);
		KUNIT_ASSERT_EQ(test, mrc_srv6_encode(t.locator, u, t.nusids, &p), 0);
		KUNIT_EXPECT_FALSE(test, p.srh);
		KUNIT_EXPECT_TRUE_MSG(test,
				      bytes_eq(test, p.da.s6_addr, lit[i].da, 16),
				      "plane %u k %u", lit[i].plane, lit[i].k);
	}
}

static void gen_fabric_every_plane_and_path(struct kunit *test)
{
	const u8 a = 0, b = 1;
	struct mrc_srv6_tmpl t;
	struct mrc_srv6_path p;
	u16 u[MRC_SRV6_USIDS_MAX];
	u8 want[16];
	u32 plane, k;

	fabric_tmpl(&t, a, b);
	for (plane = 0; plane < PLANES; plane++) {
		for (k = 0; k < SPINES; k++) {
			/* [0x1000|p<<8|a, 0x2000|p<<8|k, 0x1000|p<<8|b, 0x3000|p<<8|b] */
			memset(want, 0, sizeof(want));
			want[0] = 0xfc;
			want[4] = 0x10 | plane;
			want[5] = a;
			want[6] = 0x20 | plane;
			want[7] = k;
			want[8] = 0x10 | plane;
			want[9] = b;
			want[10] = 0x30 | plane;
			want[11] = b;

			mrc_srv6_gen(&t, plane, k, u);
			KUNIT_ASSERT_EQ(test,
					mrc_srv6_encode(t.locator, u, t.nusids, &p), 0);
			KUNIT_EXPECT_TRUE_MSG(test,
					      bytes_eq(test, p.da.s6_addr, want, 16),
					      "plane %u k %u", plane, k);
		}
	}
}

static void gen_mixed_radix_over_tiers(struct kunit *test)
{
	/* T0, T1 (4 uplinks), T2 (3 uplinks), T1, NIC; no plane field */
	struct mrc_srv6_tmpl t = {
		.locator = LOC,
		.nusids = 5,
		.usid = { 0x1000, 0x2000, 0x3000, 0x2100, 0x4001 },
		.plane_shift = MRC_SRV6_NO_PLANE,
		.ntiers = 2,
		.tier = { { .usid = 1, .shift = 4, .count = 4 },
			  { .usid = 2, .shift = 0, .count = 3 } },
	};
	const char *why = NULL;
	u16 u[MRC_SRV6_USIDS_MAX];
	u32 k, seen = 0;

	KUNIT_ASSERT_EQ(test, mrc_srv6_tmpl_check(&t, &why), 0);
	KUNIT_ASSERT_EQ(test, mrc_srv6_tmpl_paths(&t), 12);
	for (k = 0; k < 24; k++) {
		mrc_srv6_gen(&t, 6, k, u);
		/* tier 0 is the least significant digit */
		KUNIT_EXPECT_EQ(test, u[0], 0x1000);
		KUNIT_EXPECT_EQ(test, u[1], 0x2000 | (k % 12 % 4) << 4);
		KUNIT_EXPECT_EQ(test, u[2], 0x3000 | (k % 12 / 4));
		KUNIT_EXPECT_EQ(test, u[3], 0x2100);
		KUNIT_EXPECT_EQ(test, u[4], 0x4001);
		seen |= BIT((u[1] >> 4 & 0xf) * 3 + (u[2] & 0xf));
	}
	/* every one of the 12 paths appeared */
	KUNIT_EXPECT_EQ(test, seen, 0xfff);
}

/* A 12-uSID path spills into the SRH: the plane reaches both carriers. */
static void gen_twelve_usids_spill_into_srh(struct kunit *test)
{
	struct mrc_srv6_tmpl t = {
		.locator = LOC,
		.nusids = 12,
		.plane_shift = 8,
		.ntiers = 1,
		.tier = { { .usid = 1, .shift = 4, .count = 4 } },
	};
	u16 u[MRC_SRV6_USIDS_MAX], back[MRC_SRV6_USIDS_MAX];
	const char *why = NULL;
	struct mrc_srv6_path p;
	u32 i, loc;

	/* 1000 2001 3002 1003 ... 300b */
	for (i = 0; i < 12; i++)
		t.usid[i] = 0x1000 + 0x1000 * (i % 3) + i;
	KUNIT_ASSERT_EQ(test, mrc_srv6_tmpl_check(&t, &why), 0);
	mrc_srv6_gen(&t, 2, 3, u);
	KUNIT_ASSERT_EQ(test, mrc_srv6_encode(t.locator, u, 12, &p), 0);
	KUNIT_EXPECT_TRUE(test, p.srh);
	/* uSID 1 is 0x2001 | plane 2 << 8 | uplink 3 << 4 */
	KUNIT_EXPECT_EQ(test, p.da.s6_addr[6], 0x22);
	KUNIT_EXPECT_EQ(test, p.da.s6_addr[7], 0x31);
	/* uSID 11, the last of the SRH's carrier, is 0x300b | plane 2 << 8 */
	KUNIT_EXPECT_EQ(test, p.seg.s6_addr[14], 0x32);
	KUNIT_EXPECT_EQ(test, p.seg.s6_addr[15], 0x0b);
	KUNIT_EXPECT_EQ(test, mrc_srv6_decode(&p, &loc, back), 12);
	KUNIT_EXPECT_TRUE(test, bytes_eq(test, back, u, sizeof(back)));
}

static void expect_bad(struct kunit *test, const struct mrc_srv6_tmpl *t,
		       const char *want, const char *what)
{
	const char *why = NULL;

	KUNIT_EXPECT_EQ_MSG(test, mrc_srv6_tmpl_check(t, &why), -EINVAL, "%s", what);
	KUNIT_EXPECT_STREQ_MSG(test, why ?: "(none)", want, "%s", what);
}

static void tmpl_check_rejects_each_rule(struct kunit *test)
{
	struct mrc_srv6_tmpl t;

	fabric_tmpl(&t, 0, 1);
	t.nusids = 0;
	expect_bad(test, &t, "uSID count must be 1 to 12", "no uSIDs");
	t.nusids = 13;
	expect_bad(test, &t, "uSID count must be 1 to 12", "13 uSIDs");

	fabric_tmpl(&t, 0, 1);
	t.locator = 0;
	expect_bad(test, &t, "locator must not be zero", "locator 0");

	fabric_tmpl(&t, 0, 1);
	t.ntiers = 5;
	expect_bad(test, &t, "at most 4 tiers", "5 tiers");

	/* the plane field is 4 bits (MRC_MAX_PLANES 16) */
	fabric_tmpl(&t, 0, 1);
	t.plane_shift = 13;
	expect_bad(test, &t, "plane field does not fit in a uSID", "plane_shift 13");
	t.plane_shift = 16;
	expect_bad(test, &t, "plane field does not fit in a uSID", "plane_shift 16");

	fabric_tmpl(&t, 0, 1);
	t.tier[0].usid = 4;
	expect_bad(test, &t, "tier uSID index beyond the template's uSIDs",
		   "tier on uSID 4 of 4");

	fabric_tmpl(&t, 0, 1);
	t.tier[0].count = 0;
	expect_bad(test, &t, "tier count must be 1 to 256", "count 0");
	t.tier[0].count = 257;
	expect_bad(test, &t, "tier count must be 1 to 256", "count 257");

	/* 4 uplinks need 2 bits: 15 + 2 > 16 */
	fabric_tmpl(&t, 0, 1);
	t.tier[0].shift = 15;
	expect_bad(test, &t, "tier field does not fit in a uSID", "shift 15");

	/* bits 9..10 are inside the plane field 8..11 */
	fabric_tmpl(&t, 0, 1);
	t.tier[0].shift = 9;
	expect_bad(test, &t, "tier fields overlap each other or the plane field",
		   "tier over plane");

	fabric_tmpl(&t, 0, 1);
	t.ntiers = 2;
	t.tier[1].usid = 1;
	t.tier[1].shift = 1;
	t.tier[1].count = 2;
	expect_bad(test, &t, "tier fields overlap each other or the plane field",
		   "tier over tier");

	/* 256 * 32 paths */
	fabric_tmpl(&t, 0, 1);
	t.ntiers = 2;
	t.tier[0].count = 256;
	t.tier[1].usid = 3;
	t.tier[1].shift = 0;
	t.tier[1].count = 32;
	expect_bad(test, &t, "more than 4096 paths per plane", "8192 paths");

	fabric_tmpl(&t, 0, 1);
	t.usid[3] = 0;
	expect_bad(test, &t, "a uSID of path 0 is zero", "zero uSID");

	fabric_tmpl(&t, 0, 1);
	t.usid[1] = 0x2001;
	expect_bad(test, &t, "generated bits overlap the base uSID",
		   "base over tier");
	fabric_tmpl(&t, 0, 1);
	t.usid[0] = 0x1100;
	expect_bad(test, &t, "generated bits overlap the base uSID",
		   "base over plane");
}

static void tmpl_check_accepts_edges(struct kunit *test)
{
	struct mrc_srv6_tmpl t;
	const char *why = NULL;

	/* exactly 4096 paths: 256 spines times 16 */
	fabric_tmpl(&t, 0, 1);
	t.ntiers = 2;
	t.tier[0].count = 256;
	t.nusids = 5;
	t.usid[4] = 0x5000;
	t.tier[1].usid = 4;
	t.tier[1].shift = 0;
	t.tier[1].count = 16;
	KUNIT_EXPECT_EQ(test, mrc_srv6_tmpl_check(&t, &why), 0);
	KUNIT_EXPECT_EQ(test, mrc_srv6_tmpl_paths(&t), 4096);

	/* no tiers, no plane field, the base uses the plane bits */
	fabric_tmpl(&t, 0, 1);
	t.ntiers = 0;
	t.plane_shift = MRC_SRV6_NO_PLANE;
	t.usid[0] = 0x1f00;
	KUNIT_EXPECT_EQ(test, mrc_srv6_tmpl_check(&t, &why), 0);
	KUNIT_EXPECT_EQ(test, mrc_srv6_tmpl_paths(&t), 1);

	/* the highest plane field, a single-uplink tier of zero width at 16 */
	fabric_tmpl(&t, 0, 1);
	t.plane_shift = 12;
	t.usid[0] = 0x0100;
	t.usid[1] = 0x0200;
	t.usid[2] = 0x0101;
	t.usid[3] = 0x0301;
	t.tier[0].shift = 16;
	t.tier[0].count = 1;
	t.nusids = MRC_SRV6_USIDS_MAX;
	memset(&t.usid[4], 0x01, 8 * sizeof(u16));
	KUNIT_EXPECT_EQ(test, mrc_srv6_tmpl_check(&t, &why), 0);
}

/* Ones' complement sum of 16-bit big-endian words, the RFC 768 way. */
static u32 sum16(u32 s, const u8 *p, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		s += p[i] << 8 | p[i + 1];
	if (len & 1)
		s += p[len - 1] << 8;
	return s;
}

static const struct in6_addr host_a = {
	{ { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0a } } };
static const struct in6_addr host_b = {
	{ { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0b } } };

/* Up to 8 uSIDs of a path for the header-stack cases: 7 and 8 need the SRH. */
static const u16 stack_usids[] = { 0x1000, 0x2001, 0x1001, 0x3001, 0x1002,
				   0x2002, 0x1003, 0x3003 };

static void check_push(struct kunit *test, u32 nusids, u32 len)
{
	struct mrc_srv6_encap e = {
		.saddr = host_a,
		.daddr = host_b,
		.sport = htons(0xc123),
		.dport = htons(4793),
		.tclass = 0xb9,			/* DSCP 46, ECT(1) bit pattern */
		.flowlabel = htonl(0xabcde),
		.hop_limit = 17,
	};
	struct mrc_srv6_path p;
	u32 srh, ip6w0, i, s;
	const u8 *d, *in, *srhp;
	const struct udphdr *uh;
	struct sk_buff *skb;
	__sum16 csum;
	u8 *payload;

	KUNIT_ASSERT_EQ(test, mrc_srv6_encode(LOC, stack_usids, nusids, &p), 0);
	e.path = &p;
	srh = p.srh ? 24 : 0;
	KUNIT_EXPECT_EQ(test, MRC_SRV6_OVERHEAD(p.srh), 40 + srh);

	/* exactly the promised headroom: skb_push() would panic past it */
	skb = alloc_skb(MRC_SRV6_HEADROOM + len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, MRC_SRV6_HEADROOM);
	payload = skb_put(skb, len);
	for (i = 0; i < len; i++)
		payload[i] = i * 7 + 1;

	mrc_srv6_push(skb, &e);

	KUNIT_EXPECT_EQ(test, skb->len, len + 40 + 8 + 40 + srh);
	KUNIT_EXPECT_EQ(test, skb_headroom(skb), 24 - srh);
	KUNIT_EXPECT_PTR_EQ(test, (u8 *)skb_network_header(skb), skb->data);
	KUNIT_EXPECT_EQ(test, skb_transport_offset(skb), 40 + srh + 40);
	KUNIT_EXPECT_EQ(test, ntohs(skb->protocol), ETH_P_IPV6);
	KUNIT_EXPECT_TRUE(test, skb->ip_summed == CHECKSUM_NONE);

	d = skb->data;
	ip6w0 = 0x60000000 | 0xb9 << 20 | 0xabcde;
	/* outer IPv6 */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(d), ip6w0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(d + 4), srh + 40 + 8 + len);
	KUNIT_EXPECT_EQ(test, d[6], p.srh ? IPPROTO_ROUTING : IPPROTO_IPV6);
	KUNIT_EXPECT_EQ(test, d[7], 17);
	KUNIT_EXPECT_TRUE(test, bytes_eq(test, d + 8, host_a.s6_addr, 16));
	KUNIT_EXPECT_TRUE(test, bytes_eq(test, d + 24, p.da.s6_addr, 16));

	if (p.srh) {
		static const u8 srh_fixed[8] = { 41, 2, 4, 1, 0, 0, 0, 0 };

		srhp = d + 40;
		/* nexthdr, hdrlen, type, segments_left, last entry, flags, tag */
		KUNIT_EXPECT_TRUE(test, bytes_eq(test, srhp, srh_fixed, 8));
		KUNIT_EXPECT_TRUE(test, bytes_eq(test, srhp + 8, vec8_seg, 16));
	}

	/* inner IPv6 */
	in = d + 40 + srh;
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(in), ip6w0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(in + 4), 8 + len);
	KUNIT_EXPECT_EQ(test, in[6], IPPROTO_UDP);
	KUNIT_EXPECT_EQ(test, in[7], 64);
	KUNIT_EXPECT_TRUE(test, bytes_eq(test, in + 8, host_a.s6_addr, 16));
	KUNIT_EXPECT_TRUE(test, bytes_eq(test, in + 24, host_b.s6_addr, 16));

	/* UDP */
	uh = (const struct udphdr *)(in + 40);
	KUNIT_EXPECT_PTR_EQ(test, (const u8 *)uh, (const u8 *)udp_hdr(skb));
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&uh->source), 0xc123);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&uh->dest), 4793);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&uh->len), 8 + len);
	KUNIT_EXPECT_NE(test, (__force u16)uh->check, 0);
	csum = csum_ipv6_magic(&host_a, &host_b, 8 + len, IPPROTO_UDP,
			       csum_partial(uh, 8 + len, 0));
	KUNIT_EXPECT_EQ(test, (__force u16)csum, 0);
	/* and independently: pseudo header + UDP sum to 0xffff */
	s = sum16(0, host_a.s6_addr, 16);
	s = sum16(s, host_b.s6_addr, 16);
	s += 8 + len + IPPROTO_UDP;
	s = sum16(s, (const u8 *)uh, 8 + len);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	KUNIT_EXPECT_EQ(test, s, 0xffff);

	/* the MRC packet itself is untouched */
	for (i = 0; i < len; i++)
		if ((u8)(i * 7 + 1) != ((const u8 *)(uh + 1))[i])
			break;
	KUNIT_EXPECT_EQ(test, i, len);

	kfree_skb(skb);
}

static void overhead_values(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, MRC_SRV6_OVERHEAD(false), 40);
	KUNIT_EXPECT_EQ(test, MRC_SRV6_OVERHEAD(true), 64);
	KUNIT_EXPECT_EQ(test, MRC_SRV6_HEADROOM, 40 + 24 + 40 + 8);
	KUNIT_EXPECT_EQ(test, sizeof(struct ipv6_sr_hdr), 8);
}

static void push_without_srh(struct kunit *test)
{
	check_push(test, 4, 52);	/* a minimal BTH-only packet size */
	check_push(test, 6, 61);	/* odd: the checksum pads a zero byte */
}

static void push_with_srh(struct kunit *test)
{
	check_push(test, 8, 1076);
	check_push(test, 8, 1);
}

/*
 * A CE-marked packet as mrc's receive path sees it after End.DT6:
 * mrc_srv6_push()'s stack behind an Ethernet header, the outer headers
 * pulled and the network header reset to the inner IPv6 header, as 6.1's
 * decap_and_validate() leaves it. @outer points at the outer IPv6 header.
 */
static struct sk_buff *decapped(struct kunit *test, u32 nusids, u8 tclass,
				struct ipv6hdr **outer)
{
	struct mrc_srv6_encap e = {
		.saddr = host_a,
		.daddr = host_b,
		.sport = htons(0xc123),
		.dport = htons(4793),
		.tclass = tclass,
		.hop_limit = 64,
	};
	struct mrc_srv6_path p;
	struct sk_buff *skb;

	KUNIT_ASSERT_EQ(test, mrc_srv6_encode(LOC, stack_usids, nusids, &p), 0);
	e.path = &p;
	skb = alloc_skb(ETH_HLEN + MRC_SRV6_HEADROOM + 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, ETH_HLEN + MRC_SRV6_HEADROOM);
	memset(skb_put(skb, 64), 0x5a, 64);
	mrc_srv6_push(skb, &e);
	*outer = ipv6_hdr(skb);
	memset(skb_push(skb, ETH_HLEN), 0, ETH_HLEN);
	skb_reset_mac_header(skb);
	skb_pull(skb, ETH_HLEN);
	skb_reset_mac_len(skb);
	skb_pull(skb, MRC_SRV6_OVERHEAD(p.srh));
	skb_reset_network_header(skb);
	KUNIT_EXPECT_EQ(test, ipv6_hdr(skb)->nexthdr, IPPROTO_UDP);
	return skb;
}

static void outer_ce_read_after_decap(struct kunit *test)
{
	static const u32 nusids[] = { 4, 8 };	/* without and with SRH */
	struct ipv6hdr *outer;
	struct sk_buff *skb;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(nusids); i++) {
		skb = decapped(test, nusids[i], 0x03, &outer);
		/* the inner header says ECT(0): only the outer one has CE */
		ipv6_change_dsfield(ipv6_hdr(skb), (u8)~INET_ECN_MASK,
				    INET_ECN_ECT_0);
		KUNIT_EXPECT_TRUE(test, mrc_srv6_outer_ce(skb));
		kfree_skb(skb);

		/* DSCP 46 with ECT(1), and ECT(0): not CE */
		skb = decapped(test, nusids[i], 0xb9, &outer);
		KUNIT_EXPECT_FALSE(test, mrc_srv6_outer_ce(skb));
		kfree_skb(skb);
		skb = decapped(test, nusids[i], INET_ECN_ECT_0, &outer);
		KUNIT_EXPECT_FALSE(test, mrc_srv6_outer_ce(skb));
		kfree_skb(skb);
	}
}

static void outer_ce_only_mrc_stacks(struct kunit *test)
{
	struct ipv6_sr_hdr *srh;
	struct ipv6hdr *outer;
	struct sk_buff *skb;

	/* a plain packet: the network header follows the link layer */
	skb = decapped(test, 4, 0x03, &outer);
	skb->network_header = skb->mac_header + ETH_HLEN;
	KUNIT_EXPECT_FALSE(test, mrc_srv6_outer_ce(skb));
	/* less than an IPv6 header in the gap */
	skb->network_header += sizeof(*outer) - 8;
	KUNIT_EXPECT_FALSE(test, mrc_srv6_outer_ce(skb));
	skb->network_header += 8;
	KUNIT_EXPECT_TRUE(test, mrc_srv6_outer_ce(skb));
	/* reinjected: the link-layer length covers the old headers */
	skb_reset_mac_len(skb);
	KUNIT_EXPECT_FALSE(test, mrc_srv6_outer_ce(skb));
	skb->mac_len = ETH_HLEN;
	/* no link-layer header recorded */
	skb->mac_header = (typeof(skb->mac_header))~0U;
	KUNIT_EXPECT_FALSE(test, mrc_srv6_outer_ce(skb));
	skb_set_mac_header(skb, -(int)(ETH_HLEN + sizeof(*outer)));
	KUNIT_EXPECT_TRUE(test, mrc_srv6_outer_ce(skb));
	/* not IPv6, or not IPv6 in IPv6 */
	outer->version = 4;
	KUNIT_EXPECT_FALSE(test, mrc_srv6_outer_ce(skb));
	outer->version = 6;
	outer->nexthdr = IPPROTO_UDP;
	KUNIT_EXPECT_FALSE(test, mrc_srv6_outer_ce(skb));
	/* a routing header claimed where there is none */
	outer->nexthdr = IPPROTO_ROUTING;
	KUNIT_EXPECT_FALSE(test, mrc_srv6_outer_ce(skb));
	kfree_skb(skb);

	skb = decapped(test, 8, 0x03, &outer);
	srh = (struct ipv6_sr_hdr *)(outer + 1);
	KUNIT_EXPECT_TRUE(test, mrc_srv6_outer_ce(skb));
	/* the SRH must be type 4, lead to IPv6 and fill the gap exactly */
	srh->type = 0;
	KUNIT_EXPECT_FALSE(test, mrc_srv6_outer_ce(skb));
	srh->type = IPV6_SRCRT_TYPE_4;
	srh->nexthdr = IPPROTO_UDP;
	KUNIT_EXPECT_FALSE(test, mrc_srv6_outer_ce(skb));
	srh->nexthdr = IPPROTO_IPV6;
	srh->hdrlen = 4;
	KUNIT_EXPECT_FALSE(test, mrc_srv6_outer_ce(skb));
	srh->hdrlen = 0;
	KUNIT_EXPECT_FALSE(test, mrc_srv6_outer_ce(skb));
	srh->hdrlen = 2;
	KUNIT_EXPECT_TRUE(test, mrc_srv6_outer_ce(skb));
	/* an SRH-less outer header in front of an SRH-sized gap */
	outer->nexthdr = IPPROTO_IPV6;
	KUNIT_EXPECT_FALSE(test, mrc_srv6_outer_ce(skb));
	kfree_skb(skb);
}

static struct kunit_case mrc_srv6_cases[] = {
	KUNIT_CASE(carrier_vectors),
	KUNIT_CASE(carrier_round_trip_1_to_12),
	KUNIT_CASE(encode_rejects_bad_input),
	KUNIT_CASE(gen_fabric_literals),
	KUNIT_CASE(gen_fabric_every_plane_and_path),
	KUNIT_CASE(gen_mixed_radix_over_tiers),
	KUNIT_CASE(gen_twelve_usids_spill_into_srh),
	KUNIT_CASE(tmpl_check_rejects_each_rule),
	KUNIT_CASE(tmpl_check_accepts_edges),
	KUNIT_CASE(overhead_values),
	KUNIT_CASE(push_without_srh),
	KUNIT_CASE(push_with_srh),
	KUNIT_CASE(outer_ce_read_after_decap),
	KUNIT_CASE(outer_ce_only_mrc_stacks),
	{}
};

static struct kunit_suite mrc_srv6_suite = {
	.name = "mrc-srv6",
	.test_cases = mrc_srv6_cases,
};

kunit_test_suite(mrc_srv6_suite);
