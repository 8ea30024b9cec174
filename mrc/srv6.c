// SPDX-License-Identifier: GPL-2.0
/*
 * SRv6 paths for mrc: validate a GEN template, generate path k of a plane
 * from it, pack uSIDs into carriers (and back), and push the SRv6 header
 * stack in front of an MRC packet. The template and carrier helpers are pure
 * functions so that KUnit can check every bit; srv6.h explains the layout and
 * why a reduced single-segment SRH is what Linux 6.1 SRv6 nodes accept.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/if_ether.h>
#include <linux/kernel.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <net/ip6_checksum.h>
#include <net/inet_ecn.h>
#include <net/ipv6.h>

#include "kunit_export.h"
#include "srv6.h"
#include "wire.h"

/* Bits @count distinct values need: 0 for a tier with a single uplink. */
static u32 mrc_srv6_tier_mask(const struct mrc_srv6_tier *tr)
{
	return ((1U << fls(tr->count - 1)) - 1) << tr->shift;
}

static u32 mrc_srv6_plane_mask(const struct mrc_srv6_tmpl *t)
{
	if (t->plane_shift == MRC_SRV6_NO_PLANE)
		return 0;
	return (MRC_MAX_PLANES - 1) << t->plane_shift;
}

static int mrc_srv6_check_tiers(const struct mrc_srv6_tmpl *t, u32 *gen,
				const char **why)
{
	u32 paths = 1;
	int i;

	for (i = 0; i < t->ntiers; i++) {
		const struct mrc_srv6_tier *tr = &t->tier[i];
		u32 mask;

		if (tr->usid >= t->nusids) {
			*why = "tier uSID index beyond the template's uSIDs";
			return -EINVAL;
		}
		if (tr->count < 1 || tr->count > 256) {
			*why = "tier count must be 1 to 256";
			return -EINVAL;
		}
		if (tr->shift + fls(tr->count - 1) > 16) {
			*why = "tier field does not fit in a uSID";
			return -EINVAL;
		}
		/* count <= 256 and paths <= 4096 here: no overflow */
		paths *= tr->count;
		if (paths > MRC_SRV6_PATHS_MAX) {
			*why = "more than 4096 paths per plane";
			return -EINVAL;
		}
		mask = mrc_srv6_tier_mask(tr);
		if (gen[tr->usid] & mask) {
			*why = "tier fields overlap each other or the plane field";
			return -EINVAL;
		}
		gen[tr->usid] |= mask;
	}
	return 0;
}

/**
 * mrc_srv6_tmpl_check() - is a GEN template usable
 * @t: the template
 * @why: set to a short reason (for an extack) when it is not
 *
 * Besides the ranges, every path the template generates must be a valid
 * carrier: generated bits land only on bits the base uSID leaves clear (or
 * two paths could collide), and path 0 of plane 0, which is the base itself,
 * has no zero uSID (a zero uSID ends a carrier early).
 *
 * Return: 0, or -EINVAL with *why set.
 */
int mrc_srv6_tmpl_check(const struct mrc_srv6_tmpl *t, const char **why)
{
	u32 gen[MRC_SRV6_USIDS_MAX];
	int i, err;

	if (t->nusids < 1 || t->nusids > MRC_SRV6_USIDS_MAX) {
		*why = "uSID count must be 1 to 12";
		return -EINVAL;
	}
	if (!t->locator) {
		*why = "locator must not be zero";
		return -EINVAL;
	}
	if (t->ntiers > MRC_SRV6_TIERS_MAX) {
		*why = "at most 4 tiers";
		return -EINVAL;
	}
	if (t->plane_shift != MRC_SRV6_NO_PLANE &&
	    t->plane_shift + MRC_SRV6_PLANE_BITS > 16) {
		*why = "plane field does not fit in a uSID";
		return -EINVAL;
	}
	for (i = 0; i < t->nusids; i++)
		gen[i] = mrc_srv6_plane_mask(t);
	err = mrc_srv6_check_tiers(t, gen, why);
	if (err)
		return err;
	for (i = 0; i < t->nusids; i++) {
		if (!t->usid[i]) {
			*why = "a uSID of path 0 is zero";
			return -EINVAL;
		}
		if (t->usid[i] & gen[i]) {
			*why = "generated bits overlap the base uSID";
			return -EINVAL;
		}
	}
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_srv6_tmpl_check);

/**
 * mrc_srv6_tmpl_paths() - paths per plane of a checked template
 * @t: the template
 *
 * Return: the product of the tier counts (1 without tiers).
 */
u32 mrc_srv6_tmpl_paths(const struct mrc_srv6_tmpl *t)
{
	u32 paths = 1;
	int i;

	for (i = 0; i < t->ntiers; i++)
		paths *= t->tier[i].count;
	return paths;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_srv6_tmpl_paths);

/**
 * mrc_srv6_gen() - the uSIDs of one path of a checked template
 * @t: the template
 * @plane: plane number, below MRC_MAX_PLANES
 * @k: path index, taken modulo mrc_srv6_tmpl_paths()
 * @usids: t->nusids uSIDs out
 *
 * The plane is masked to its field so that it never spills into the tier
 * or base bits mrc_srv6_tmpl_check() kept clear of it.
 */
void mrc_srv6_gen(const struct mrc_srv6_tmpl *t, u8 plane, u32 k, u16 *usids)
{
	u16 pl = 0;
	int i;

	k %= mrc_srv6_tmpl_paths(t);
	if (t->plane_shift != MRC_SRV6_NO_PLANE)
		pl = (plane & (MRC_MAX_PLANES - 1)) << t->plane_shift;
	for (i = 0; i < t->nusids; i++)
		usids[i] = t->usid[i] | pl;
	for (i = 0; i < t->ntiers; i++) {
		const struct mrc_srv6_tier *tr = &t->tier[i];

		usids[tr->usid] |= (k % tr->count) << tr->shift;
		k /= tr->count;
	}
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_srv6_gen);

/* One carrier: locator, then @n uSIDs, the rest zero. */
static void mrc_srv6_carrier(struct in6_addr *a, u32 locator,
			     const u16 *usids, u32 n)
{
	u32 i;

	memset(a, 0, sizeof(*a));
	a->s6_addr32[0] = htonl(locator);
	for (i = 0; i < n; i++)
		a->s6_addr16[2 + i] = htons(usids[i]);
}

/**
 * mrc_srv6_encode() - pack uSIDs into the DA carrier and, past six, the SRH's
 * @locator: first 32 bits of each carrier, host order
 * @usids: the uSIDs in path order
 * @n: how many, 1 to MRC_SRV6_USIDS_MAX
 * @p: the path out (@p->seg zeroed when no SRH is needed)
 *
 * A zero uSID would end its carrier early (the End node sees a zero argument
 * and moves to the next segment), so it is refused.
 *
 * Return: 0 or -EINVAL.
 */
int mrc_srv6_encode(u32 locator, const u16 *usids, u32 n,
		    struct mrc_srv6_path *p)
{
	u32 first = min_t(u32, n, MRC_SRV6_CARRIER_USIDS);
	u32 i;

	if (n < 1 || n > MRC_SRV6_USIDS_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!usids[i])
			return -EINVAL;
	mrc_srv6_carrier(&p->da, locator, usids, first);
	p->srh = n > first;
	if (p->srh)
		mrc_srv6_carrier(&p->seg, locator, usids + first, n - first);
	else
		memset(&p->seg, 0, sizeof(p->seg));
	return 0;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_srv6_encode);

/* The uSIDs of one carrier up to its first zero one. */
static u32 mrc_srv6_carrier_usids(const struct in6_addr *a, u16 *usids)
{
	u32 n;

	for (n = 0; n < MRC_SRV6_CARRIER_USIDS; n++) {
		usids[n] = ntohs(a->s6_addr16[2 + n]);
		if (!usids[n])
			break;
	}
	return n;
}

/**
 * mrc_srv6_decode() - the locator and uSIDs of a path
 * @p: the path
 * @locator: the DA's locator out, host order
 * @usids: room for MRC_SRV6_USIDS_MAX uSIDs
 *
 * Return: the number of uSIDs, DA's then the segment's.
 */
u32 mrc_srv6_decode(const struct mrc_srv6_path *p, u32 *locator, u16 *usids)
{
	u32 n = mrc_srv6_carrier_usids(&p->da, usids);

	*locator = ntohl(p->da.s6_addr32[0]);
	if (p->srh)
		n += mrc_srv6_carrier_usids(&p->seg, usids + n);
	return n;
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_srv6_decode);

static void mrc_srv6_push_ip6(struct sk_buff *skb,
			      const struct mrc_srv6_encap *e, u8 nexthdr,
			      u8 hop_limit, const struct in6_addr *daddr)
{
	u16 plen = skb->len;
	struct ipv6hdr *ip6;

	ip6 = skb_push(skb, sizeof(*ip6));
	ip6_flow_hdr(ip6, e->tclass, e->flowlabel);
	ip6->payload_len = htons(plen);
	ip6->nexthdr = nexthdr;
	ip6->hop_limit = hop_limit;
	ip6->saddr = e->saddr;
	ip6->daddr = *daddr;
}

/**
 * mrc_srv6_push() - put the SRv6 header stack in front of an MRC packet
 * @skb: data at the BTH, the packet complete with ICRC; headroom at least
 *	MRC_SRV6_HEADROOM
 * @e: addresses, ports and header fields
 *
 * The inner UDP checksum is computed in full here: checksum offload of a
 * UDP header behind two IPv6 headers and an SRH cannot be assumed of a
 * plane's NIC. On return skb->data and the network header are at the outer
 * IPv6 header and the transport header at the inner UDP header.
 */
void mrc_srv6_push(struct sk_buff *skb, const struct mrc_srv6_encap *e)
{
	const struct mrc_srv6_path *p = e->path;
	struct udphdr *uh;
	u16 ulen;
	__wsum csum;

	uh = skb_push(skb, sizeof(*uh));
	ulen = skb->len;
	uh->source = e->sport;
	uh->dest = e->dport;
	uh->len = htons(ulen);
	uh->check = 0;
	csum = skb_checksum(skb, 0, ulen, 0);
	uh->check = csum_ipv6_magic(&e->saddr, &e->daddr, ulen, IPPROTO_UDP,
				    csum);
	if (!uh->check)
		uh->check = CSUM_MANGLED_0;
	skb->ip_summed = CHECKSUM_NONE;
	skb_reset_transport_header(skb);

	mrc_srv6_push_ip6(skb, e, IPPROTO_UDP, 64, &e->daddr);

	if (p->srh) {
		struct ipv6_sr_hdr *srh;

		srh = skb_push(skb, sizeof(*srh) + sizeof(struct in6_addr));
		srh->nexthdr = IPPROTO_IPV6;
		/* 8-octet units after the first 8 bytes: one segment */
		srh->hdrlen = sizeof(struct in6_addr) / 8;
		srh->type = IPV6_SRCRT_TYPE_4;
		srh->segments_left = 1;
		/* reduced: the DA's carrier is not repeated in the list */
		srh->first_segment = 0;
		srh->flags = 0;
		srh->tag = 0;
		srh->segments[0] = p->seg;
	}

	mrc_srv6_push_ip6(skb, e, p->srh ? IPPROTO_ROUTING : IPPROTO_IPV6,
			  e->hop_limit, &p->da);
	skb_reset_network_header(skb);
	skb->protocol = htons(ETH_P_IPV6);
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_srv6_push);

/**
 * mrc_srv6_outer_ce() - did the outer header the host stripped carry CE?
 * @skb: a received packet whose network header is the inner IPv6 header
 *
 * The receiving host decapsulates with seg6local End.DT6, which does not
 * copy the outer ECN field inward as RFC 6040 asks (6.1's
 * decap_and_validate() in net/ipv6/seg6_local.c only pulls the outer
 * headers), so a CE mark set by a switch is lost to the inner header. The
 * pulled bytes are still in the headroom, between the link-layer header and
 * the inner IPv6 header: read the mark there. Only the two stacks
 * mrc_srv6_push() writes are trusted, with nothing else in the gap: outer
 * IPv6 with next header IPv6, or outer IPv6 and an SRH whose next header is
 * IPv6. A packet that came unencapsulated (the gap is empty) or was
 * reinjected after another decapsulation (the link-layer length then covers
 * the old headers) is never looked at. Everything read lies in the linear
 * head, below the network header.
 *
 * Return: true if the outer IPv6 header of an mrc SRv6 packet said CE.
 */
bool mrc_srv6_outer_ce(const struct sk_buff *skb)
{
	const struct ipv6_sr_hdr *srh;
	const struct ipv6hdr *outer;
	unsigned int start, gap;

	if (!skb_mac_header_was_set(skb))
		return false;
	start = skb->mac_header + skb->mac_len;
	if (start > skb->network_header)
		return false;
	gap = skb->network_header - start;
	if (gap < sizeof(*outer))
		return false;
	outer = (const struct ipv6hdr *)(skb->head + start);
	if (outer->version != 6)
		return false;
	switch (outer->nexthdr) {
	case IPPROTO_IPV6:
		if (gap != sizeof(*outer))
			return false;
		break;
	case IPPROTO_ROUTING:
		srh = (const struct ipv6_sr_hdr *)(outer + 1);
		if (gap < sizeof(*outer) + sizeof(*srh) ||
		    gap != sizeof(*outer) + ipv6_optlen(srh) ||
		    srh->type != IPV6_SRCRT_TYPE_4 ||
		    srh->nexthdr != IPPROTO_IPV6)
			return false;
		break;
	default:
		return false;
	}
	return INET_ECN_is_ce(ipv6_get_dsfield(outer));
}
EXPORT_SYMBOL_IF_MRC_KUNIT(mrc_srv6_outer_ce);
