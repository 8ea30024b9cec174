/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SRv6 source routing for mrc: the path template an EV's path is generated
 * from (GEN mode), the uSID carriers a path is packed into, the header
 * stack pushed in front of an MRC packet (srv6.c), and a device's table of
 * destinations (srv6_table.c). Documentation/wire-format.md, "SRv6
 * encapsulation", describes the bytes; keep the two in step.
 *
 * Header stack: outer IPv6 (DA = first carrier) | [SRH, one segment = second
 * carrier] | inner IPv6 (DA = the peer) | UDP | BTH ... ICRC.
 *
 * Why a single-segment "reduced" SRH works on Linux 6.1 switches configured
 * as "seg6local action End flavors next-csid lblen 32 nflen 16" and hosts as
 * End.DT6 (checked in linux-source-6.1):
 *  - net/ipv6/seg6.c: seg6_get_srh() validates with seg6_validate_srh(...,
 *    reduced = true), which skips the "segments_left > first_segment" test
 *    and only asks first_segment <= hdrlen / 2 - 1 and segments_left <=
 *    first_segment + 1: our hdrlen 2, first_segment 0, segments_left 1 passes.
 *  - net/ipv6/seg6_local.c: end_next_csid_core() shifts the carrier while its
 *    argument (the bits after locator + own uSID) is non-zero; once zero it
 *    runs input_action_end_core(), whose advance_nextseg() decrements
 *    segments_left to 0 and copies segments[0] (our second carrier) into DA.
 *  - input_action_end_dt6() -> decap_and_validate() refuses only an SRH with
 *    segments_left > 0; with 0 (or no SRH) it strips everything up to the
 *    inner IPv6 header.
 * So the last uSID of a path must be the host's End.DT6 SID, and a path
 * without SRH must not end at a plain End node (End finds no SRH and drops).
 */
#ifndef _MRC_SRV6_H
#define _MRC_SRV6_H

#include <linux/in6.h>
#include <linux/ipv6.h>
#include <linux/log2.h>
#include <linux/refcount.h>
#include <linux/seg6.h>
#include <linux/types.h>
#include <linux/udp.h>
#include <linux/mrc.h>

struct sk_buff;

#define MRC_SRV6_CARRIER_USIDS	6	/* uSIDs after a 32-bit locator */
#define MRC_SRV6_NO_PLANE	0xff	/* plane_shift: no plane field */
/* width of the plane field: every plane number of a device fits */
#define MRC_SRV6_PLANE_BITS	order_base_2(MRC_MAX_PLANES)
/* bytes the encapsulation adds in front of a plain IPv6/UDP MRC packet */
#define MRC_SRV6_OVERHEAD(srh)	(sizeof(struct ipv6hdr) + \
				 ((srh) ? sizeof(struct ipv6_sr_hdr) + \
					  sizeof(struct in6_addr) : 0))
/* headroom mrc_srv6_push() needs in front of the BTH (excluding link layer) */
#define MRC_SRV6_HEADROOM	(2 * sizeof(struct ipv6hdr) + sizeof(struct udphdr) + \
				 sizeof(struct ipv6_sr_hdr) + sizeof(struct in6_addr))

/*
 * One tier of the fabric: path index digit (count values) written at bit
 * @shift of uSID number @usid.
 */
struct mrc_srv6_tier {
	u8 usid;
	u8 shift;
	u16 count;
};

/*
 * GEN template of one destination. uSID i of path k on plane p is
 * usid[i] | p << plane_shift | (the digits of k of the tiers on uSID i),
 * k split mixed-radix over the tiers, tier 0 least significant.
 */
struct mrc_srv6_tmpl {
	u32 locator;		/* host order: the first 32 bits of every carrier */
	u8 nusids;		/* 1 .. MRC_SRV6_USIDS_MAX */
	u8 ntiers;		/* 0 .. MRC_SRV6_TIERS_MAX */
	u8 plane_shift;		/* plane << plane_shift ORed into every uSID */
	u16 usid[MRC_SRV6_USIDS_MAX];
	struct mrc_srv6_tier tier[MRC_SRV6_TIERS_MAX];
};

struct mrc_srv6_path {		/* one resolved path */
	struct in6_addr da;	/* outer destination */
	struct in6_addr seg;	/* the SRH's only segment, when @srh */
	bool srh;
};

struct mrc_srv6_encap {		/* what mrc_srv6_push() writes */
	const struct mrc_srv6_path *path;
	struct in6_addr saddr;	/* outer and inner source */
	struct in6_addr daddr;	/* inner destination: the peer */
	__be16 sport, dport;
	u8 tclass;		/* both headers (ECT set by the caller) */
	__be32 flowlabel;	/* both headers, already masked */
	u8 hop_limit;		/* outer; inner gets 64 */
};

/**
 * struct mrc_srv6_dst - a device's SRv6 paths towards one destination
 * @list: in mrc_device.srv6
 * @ref: the table's reference and one per QP using the paths
 * @rcu: freed after a grace period: the TX path reads it under RCU
 * @peer: the destination, as QPs' address vectors name it
 * @gen: GEN: the template; EXP: only @gen.locator is used
 * @count: paths of each plane
 * @first: EXP: index in @path of each plane's first path
 * @npaths: EXP: entries of @path; 0 for GEN
 * @path: EXP: the paths, grouped by plane in increasing plane order
 */
struct mrc_srv6_dst {
	struct list_head list;
	refcount_t ref;
	struct rcu_head rcu;
	struct in6_addr peer;
	struct mrc_srv6_tmpl gen;
	u32 count[MRC_MAX_PLANES];
	u32 first[MRC_MAX_PLANES];
	u32 npaths;
	struct mrc_srv6_path path[];
};

int mrc_srv6_tmpl_check(const struct mrc_srv6_tmpl *t, const char **why);
u32 mrc_srv6_tmpl_paths(const struct mrc_srv6_tmpl *t);
void mrc_srv6_gen(const struct mrc_srv6_tmpl *t, u8 plane, u32 k, u16 *usids);
int mrc_srv6_encode(u32 locator, const u16 *usids, u32 n,
		    struct mrc_srv6_path *p);
u32 mrc_srv6_decode(const struct mrc_srv6_path *p, u32 *locator, u16 *usids);
void mrc_srv6_push(struct sk_buff *skb, const struct mrc_srv6_encap *e);
bool mrc_srv6_outer_ce(const struct sk_buff *skb);

#endif /* _MRC_SRV6_H */
