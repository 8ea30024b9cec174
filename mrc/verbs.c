// SPDX-License-Identifier: GPL-2.0
/*
 * The RDMA device of an mrc device: its registration with the RDMA core,
 * the table of verbs, the small objects (user contexts, PDs, AHs), device
 * and port queries, and the per-port counters.
 */

#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/socket.h>
#include <linux/udp.h>
#include <linux/wait_bit.h>
#include <net/addrconf.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_mad.h>

#include "mrc.h"

/* Most a packet adds to its payload: IPv6, UDP, mrc headers and ICRC. */
#define MRC_PKT_OVERHEAD	(sizeof(struct ipv6hdr) + sizeof(struct udphdr) + \
				 MRC_MAX_DATA_HDR_LEN + MRC_ICRC_LEN)

static const struct rdma_stat_desc mrc_counter_descs[] = {
	[MRC_CNT_TX_PKTS].name		= "tx_pkts",
	[MRC_CNT_TX_BYTES].name		= "tx_bytes",
	[MRC_CNT_RX_PKTS].name		= "rx_pkts",
	[MRC_CNT_RX_BYTES].name		= "rx_bytes",
	[MRC_CNT_TX_DATA].name		= "tx_data_pkts",
	[MRC_CNT_RX_DATA].name		= "rx_data_pkts",
	[MRC_CNT_RETRANSMITS].name	= "retransmits",
	[MRC_CNT_FAST_RETRANSMITS].name	= "fast_retransmits",
	[MRC_CNT_TIMEOUTS].name		= "rto_timeouts",
	[MRC_CNT_DUPLICATES].name	= "rx_duplicates",
	[MRC_CNT_OOO_PLACED].name	= "rx_ooo_placed",
	[MRC_CNT_SACK_TX].name		= "sack_tx",
	[MRC_CNT_SACK_RX].name		= "sack_rx",
	[MRC_CNT_NACK_TX_OOR].name	= "nack_tx_psn_oor",
	[MRC_CNT_NACK_TX_RNR].name	= "nack_tx_rnr",
	[MRC_CNT_NACK_TX_RKEY].name	= "nack_tx_rkey",
	[MRC_CNT_NACK_TX_ACCESS].name	= "nack_tx_access",
	[MRC_CNT_NACK_TX_INVALID].name	= "nack_tx_invalid",
	[MRC_CNT_NACK_RX].name		= "nack_rx",
	[MRC_CNT_RX_BAD_ICRC].name	= "rx_bad_icrc",
	[MRC_CNT_RX_MALFORMED].name	= "rx_malformed",
	[MRC_CNT_RX_NO_QP].name		= "rx_no_qp",
	[MRC_CNT_RX_BAD_STATE].name	= "rx_bad_qp_state",
	[MRC_CNT_TX_DROPPED].name	= "tx_dropped",
	[MRC_CNT_RETRY_EXCEEDED].name	= "retry_exceeded",
	[MRC_CNT_RNR_EXCEEDED].name	= "rnr_retry_exceeded",
	[MRC_CNT_QP_ERRORS].name	= "qp_errors",
	[MRC_CNT_UD_DROPPED].name	= "ud_dropped",
	[MRC_CNT_EV_ASSUMED_BAD].name	= "ev_assumed_bad",
	[MRC_CNT_EV_SKIPS].name	= "ev_skips",
	[MRC_CNT_EV_RECOVERED].name	= "ev_recovered",
	[MRC_CNT_EV_PROBES].name	= "ev_probes_tx",
	[MRC_CNT_EV_FLOOR].name	= "ev_floor_held",
	[MRC_CNT_RX_ECN_CE].name	= "rx_ecn_ce",
	[MRC_CNT_CC_DECREASES].name	= "cc_decreases",
	[MRC_CNT_CC_PENALTIES].name	= "cc_rcv_penalties",
	[MRC_CNT_PSTAT_TX].name	= "port_status_tx",
	[MRC_CNT_PSTAT_RX].name	= "port_status_rx",
	[MRC_CNT_RX_BAD_SRC].name	= "rx_bad_src_addr",
	[MRC_CNT_RX_DEFERRED_NACKS].name	= "rx_deferred_nacks",
	[MRC_CNT_RX_READ_REPLAY_REFUSED].name	= "rx_read_replays_refused",
	[MRC_CNT_RX_ACK_REJECTED].name	= "rx_acks_rejected",
	[MRC_CNT_PSTAT_REJECTED].name	= "port_status_rx_rejected",
	[MRC_CNT_RX_LOOPBACK].name	= "rx_loopback",
};

static_assert(ARRAY_SIZE(mrc_counter_descs) == MRC_CNT_MAX);

void mrc_count(struct mrc_device *mdev, u32 plane, enum mrc_counter c, u64 n)
{
	if (plane < MRC_MAX_PLANES)
		atomic64_add(n, &mdev->cnt[plane].c[c]);
}

static struct rdma_hw_stats *mrc_alloc_hw_port_stats(struct ib_device *ibdev,
						     u32 port)
{
	return rdma_alloc_hw_stats_struct(mrc_counter_descs, MRC_CNT_MAX,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static int mrc_get_hw_stats(struct ib_device *ibdev,
			    struct rdma_hw_stats *stats, u32 port, int index)
{
	struct mrc_device *mdev = to_mdev(ibdev);
	int i;

	if (!port || port > MRC_MAX_PLANES)
		return -EINVAL;

	for (i = 0; i < MRC_CNT_MAX; i++)
		stats->value[i] = atomic64_read(&mdev->cnt[port - 1].c[i]);
	return MRC_CNT_MAX;
}

static int mrc_query_device(struct ib_device *ibdev,
			    struct ib_device_attr *attr, struct ib_udata *udata)
{
	if (udata->inlen && !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EINVAL;

	*attr = (struct ib_device_attr) {
		.sys_image_guid = ibdev->node_guid,
		.max_mr_size = MRC_MAX_MR_SIZE,
		.page_size_cap = PAGE_SIZE,
		.vendor_id = MRC_VENDOR_ID,
		.hw_ver = MRC_WIRE_VERSION,
		.max_qp = MRC_MAX_QP,
		.max_qp_wr = MRC_MAX_QP_WR,
		.device_cap_flags = IB_DEVICE_RC_RNR_NAK_GEN |
				    IB_DEVICE_SYS_IMAGE_GUID |
				    IB_DEVICE_MEM_MGT_EXTENSIONS |
				    IB_DEVICE_MEM_WINDOW |
				    IB_DEVICE_MEM_WINDOW_TYPE_2B |
				    IB_DEVICE_PORT_ACTIVE_EVENT,
		.max_send_sge = MRC_MAX_SGE,
		.max_recv_sge = MRC_MAX_SGE,
		.max_sge_rd = MRC_MAX_SGE,
		.max_cq = MRC_MAX_CQ,
		.max_cqe = MRC_MAX_CQE,
		.max_mr = MRC_MAX_MR,
		.max_mw = MRC_MAX_MW,
		.max_fast_reg_page_list_len = MRC_MAX_FR_PAGES,
		.max_pd = MRC_MAX_PD,
		.max_qp_rd_atom = MRC_MAX_RD_ATOM,
		.max_qp_init_rd_atom = MRC_MAX_RD_ATOM,
		.max_res_rd_atom = MRC_MAX_RD_ATOM * MRC_MAX_QP,
		.atomic_cap = IB_ATOMIC_HCA,
		.masked_atomic_cap = IB_ATOMIC_NONE,
		.max_ah = MRC_MAX_AH,
		.max_srq = MRC_MAX_SRQ,
		.max_srq_wr = MRC_MAX_SRQ_WR,
		.max_srq_sge = MRC_MAX_SGE,
		.max_pkeys = 1,
	};
	return 0;
}

static int mrc_modify_device(struct ib_device *ibdev, int mask,
			     struct ib_device_modify *modify)
{
	if (mask & ~IB_DEVICE_MODIFY_NODE_DESC)
		return -EOPNOTSUPP;

	memcpy(ibdev->node_desc, modify->node_desc, sizeof(ibdev->node_desc));
	return 0;
}

/*
 * The port's active MTU as an IB MTU: its plane netdev's, less what mrc's
 * headers take and, once the device source-routes, SRv6's (any QP may then
 * carry them, a two-carrier path's SRH included).  256 without a netdev.
 */
static enum ib_mtu mrc_port_active_mtu(struct mrc_device *mdev, u32 plane)
{
	struct mrc_plane *p;
	int mtu = -1;

	rcu_read_lock();
	p = plane < MRC_MAX_PLANES ? mrc_plane_get(mdev, plane) : NULL;
	if (p)
		mtu = READ_ONCE(p->ndev->mtu);
	rcu_read_unlock();
	if (mtu < 0)
		return IB_MTU_256;
	if (READ_ONCE(mdev->nsrv6))
		mtu -= MRC_SRV6_OVERHEAD(true);
	return ib_mtu_int_to_enum(mtu - (int)MRC_PKT_OVERHEAD);
}

/* Bytes of the largest datagram over @plane (UD is one packet). */
u32 mrc_port_mtu(struct mrc_device *mdev, u32 plane)
{
	return ib_mtu_enum_to_int(mrc_port_active_mtu(mdev, plane));
}

static int mrc_query_port(struct ib_device *ibdev, u32 port,
			  struct ib_port_attr *attr)
{
	struct mrc_device *mdev = to_mdev(ibdev);
	struct mrc_plane *plane;
	bool exists = false;
	bool up = false;

	/* The core zeroed *attr. */
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = IB_MTU_256;
	attr->gid_tbl_len = MRC_GID_TBL_LEN;
	attr->pkey_tbl_len = 1;
	attr->port_cap_flags = IB_PORT_CM_SUP;
	attr->ip_gids = true;
	attr->max_msg_sz = 1U << 31;
	attr->active_speed = IB_SPEED_SDR;
	attr->active_width = IB_WIDTH_1X;

	rcu_read_lock();
	plane = port && port <= MRC_MAX_PLANES ? mrc_plane_get(mdev, port - 1) :
						  NULL;
	if (plane) {
		exists = true;
		/* With the controller's admin state, as the data path sees it. */
		up = READ_ONCE(plane->up);
	}
	rcu_read_unlock();

	attr->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	attr->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP :
				IB_PORT_PHYS_STATE_DISABLED;
	if (exists) {
		attr->active_mtu = mrc_port_active_mtu(mdev, port - 1);
		/*
		 * Takes RTNL.  It fails only when the netdev is going away;
		 * the port then keeps the defaults above.
		 */
		ib_get_eth_speed(ibdev, port, &attr->active_speed,
				 &attr->active_width);
	}
	return 0;
}

static int mrc_get_port_immutable(struct ib_device *ibdev, u32 port,
				  struct ib_port_immutable *immutable)
{
	immutable->pkey_tbl_len = 1;
	immutable->gid_tbl_len = MRC_GID_TBL_LEN;
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer mrc_get_link_layer(struct ib_device *ibdev,
					       u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int mrc_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			  u16 *pkey)
{
	if (index)
		return -EINVAL;

	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

static int mrc_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	return 0;
}

static void mrc_dealloc_ucontext(struct ib_ucontext *ibuc)
{
}

/*
 * Nothing to do: no hardware to let go of.  Having the op at all lets
 * ib_unregister_device() and rmmod go ahead while processes still hold the
 * device open: the core destroys their objects through the usual verbs, and
 * the queue pages they mapped stay allocated until they unmap them.
 */
static void mrc_disassociate_ucontext(struct ib_ucontext *ibuc)
{
}

/* What mrc_query_device() advertises is what a device holds at most. */
static const u32 mrc_obj_max[MRC_NOBJ] = {
	[MRC_OBJ_PD] = MRC_MAX_PD,
	[MRC_OBJ_CQ] = MRC_MAX_CQ,
	[MRC_OBJ_QP] = MRC_MAX_QP,
	[MRC_OBJ_AH] = MRC_MAX_AH,
	[MRC_OBJ_SRQ] = MRC_MAX_SRQ,
};

/**
 * mrc_obj_get() - count one more object of a kind on a device
 * @mdev: the device
 * @obj: the kind
 *
 * Any user with the uverbs device may create objects; the count keeps them
 * to the limit the device advertises (MRs are kept to theirs by the key
 * space, mrc_mr_publish()).
 *
 * Return: 0, or -ENOMEM when the device holds its limit already.
 */
int mrc_obj_get(struct mrc_device *mdev, enum mrc_obj obj)
{
	if (atomic_inc_return(&mdev->nobj[obj]) <= mrc_obj_max[obj])
		return 0;
	atomic_dec(&mdev->nobj[obj]);
	return -ENOMEM;
}

void mrc_obj_put(struct mrc_device *mdev, enum mrc_obj obj)
{
	atomic_dec(&mdev->nobj[obj]);
}

static int mrc_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return mrc_obj_get(to_mdev(ibpd->device), MRC_OBJ_PD);
}

static int mrc_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	mrc_obj_put(to_mdev(ibpd->device), MRC_OBJ_PD);
	return 0;
}

int mrc_av_from_attr(struct mrc_device *mdev, struct mrc_av *av,
		     const struct rdma_ah_attr *attr)
{
	const struct ib_global_route *grh;
	const struct ib_gid_attr *sgid_attr;
	union {
		struct sockaddr sa;
		struct sockaddr_in in;
		struct sockaddr_in6 in6;
	} src, dst;
	u32 port = rdma_ah_get_port_num(attr);
	int family;

	if (!(rdma_ah_get_ah_flags(attr) & IB_AH_GRH))
		return -EINVAL;
	grh = rdma_ah_read_grh(attr);
	sgid_attr = grh->sgid_attr;
	if (!sgid_attr || port < 1 || port > mdev->nports ||
	    sgid_attr->port_num != port)
		return -EINVAL;

	switch (rdma_gid_attr_network_type(sgid_attr)) {
	case RDMA_NETWORK_IPV4:
		family = AF_INET;
		break;
	case RDMA_NETWORK_IPV6:
		family = AF_INET6;
		break;
	default:
		return -EINVAL;
	}

	rdma_gid2ip(&src.sa, &sgid_attr->gid);
	rdma_gid2ip(&dst.sa, &grh->dgid);
	/* An IPv4 source with an IPv6 destination, or the reverse. */
	if (dst.sa.sa_family != family)
		return -EINVAL;

	memset(av, 0, sizeof(*av));
	av->plane = port - 1;
	av->family = family;
	av->tos = grh->traffic_class;
	av->hop_limit = grh->hop_limit;
	av->flow_label = grh->flow_label;
	if (family == AF_INET) {
		av->saddr.v4 = src.in.sin_addr.s_addr;
		av->daddr.v4 = dst.in.sin_addr.s_addr;
	} else {
		av->saddr.v6 = src.in6.sin6_addr;
		av->daddr.v6 = dst.in6.sin6_addr;
	}
	return 0;
}

static int mrc_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
			 struct ib_udata *udata)
{
	struct mrc_device *mdev = to_mdev(ibah->device);
	struct mrc_ah *ah = to_mah(ibah);
	int err;

	err = mrc_av_from_attr(mdev, &ah->av, init->ah_attr);
	if (err)
		return err;
	err = mrc_obj_get(mdev, MRC_OBJ_AH);
	if (err)
		return err;

	if (!udata)
		return 0;
	/*
	 * librxe names the AH in each UD WQE by this number: the address
	 * vector the kernel resolved here is what a datagram uses, never one
	 * user space wrote into the WQE.  A librxe too old to read the number
	 * copies its own vector into WQEs; mrc refuses those (ud.c).
	 */
	/* Cyclic: a stale number in a WQE should not name the next AH. */
	err = xa_alloc_cyclic_bh(&mdev->ahs, &ah->num, ah,
				 XA_LIMIT(1, MRC_MAX_AH), &mdev->ah_next,
				 GFP_KERNEL_ACCOUNT);
	if (err > 0)
		err = 0;	/* wrapped */
	if (!err && udata->outlen >= sizeof(struct rxe_create_ah_resp)) {
		struct rxe_create_ah_resp resp = { .ah_num = ah->num };

		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			xa_erase_bh(&mdev->ahs, ah->num);
	}
	if (err) {
		ah->num = 0;
		mrc_obj_put(mdev, MRC_OBJ_AH);
	}
	return err;
}

/**
 * mrc_ah_av() - the address vector of user AH @num, for a QP of @pd
 * @mdev: the device
 * @num: the number create_ah gave it
 * @pd: the PD it must belong to
 * @av: filled in
 *
 * Return: 0, -EINVAL for no such AH or one of another PD.
 */
int mrc_ah_av(struct mrc_device *mdev, u32 num, const struct ib_pd *pd,
	      struct mrc_av *av)
{
	struct mrc_ah *ah;
	int err = -EINVAL;

	xa_lock_bh(&mdev->ahs);
	ah = xa_load(&mdev->ahs, num);
	if (ah && ah->ibah.pd == pd) {
		*av = ah->av;
		err = 0;
	}
	xa_unlock_bh(&mdev->ahs);
	return err;
}

static int mrc_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	const struct mrc_av *av = &to_mah(ibah)->av;
	union ib_gid dgid;

	if (av->family == AF_INET)
		ipv6_addr_set_v4mapped(av->daddr.v4,
				       (struct in6_addr *)dgid.raw);
	else
		memcpy(dgid.raw, &av->daddr.v6, sizeof(dgid.raw));

	memset(attr, 0, sizeof(*attr));
	attr->type = ibah->type;
	rdma_ah_set_port_num(attr, av->plane + 1);
	rdma_ah_set_grh(attr, &dgid, av->flow_label, ibah->sgid_attr->index,
			av->hop_limit, av->tos);
	return 0;
}

static int mrc_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	struct mrc_ah *ah = to_mah(ibah);

	/* Once out of the table, no reader holds it (mrc_ah_av()). */
	if (ah->num)
		xa_erase_bh(&to_mdev(ibah->device)->ahs, ah->num);
	mrc_obj_put(to_mdev(ibah->device), MRC_OBJ_AH);
	return 0;
}

/* The RDMA core frees the struct itself after this. */
static void mrc_dealloc_driver(struct ib_device *ibdev)
{
	struct mrc_device *mdev = to_mdev(ibdev);

	mrc_debugfs_del(mdev);
	xa_destroy(&mdev->qps);
	xa_destroy(&mdev->mrs);
	xa_destroy(&mdev->mws);
	xa_destroy(&mdev->ahs);
	mrc_srv6_dst_flush(mdev);
	mutex_destroy(&mdev->srv6_lock);
	if (mdev->queued) {
		atomic_t *n = &mrc_net(mdev->net)->unregistering;

		/* The namespace may go once this reads 0: only its address. */
		if (atomic_dec_and_test(n))
			wake_up_var(n);
	}
}

const struct ib_device_ops mrc_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_RXE,
	.uverbs_abi_ver = MRC_UVERBS_ABI_VERSION,

	.alloc_hw_port_stats = mrc_alloc_hw_port_stats,
	.alloc_mr = mrc_alloc_mr,
	.alloc_mw = mrc_alloc_mw,
	.alloc_pd = mrc_alloc_pd,
	.alloc_ucontext = mrc_alloc_ucontext,
	.create_ah = mrc_create_ah,
	.create_cq = mrc_create_cq,
	.create_qp = mrc_create_qp,
	.create_srq = mrc_create_srq,
	.create_user_ah = mrc_create_ah,
	.dealloc_driver = mrc_dealloc_driver,
	.dealloc_mw = mrc_dealloc_mw,
	.dealloc_pd = mrc_dealloc_pd,
	.dealloc_ucontext = mrc_dealloc_ucontext,
	.dereg_mr = mrc_dereg_mr,
	.destroy_ah = mrc_destroy_ah,
	.destroy_cq = mrc_destroy_cq,
	.destroy_qp = mrc_destroy_qp,
	.destroy_srq = mrc_destroy_srq,
	.disassociate_ucontext = mrc_disassociate_ucontext,
	.fill_res_qp_entry = mrc_fill_res_qp_entry,
	.get_dma_mr = mrc_get_dma_mr,
	.get_hw_stats = mrc_get_hw_stats,
	.get_link_layer = mrc_get_link_layer,
	.get_port_immutable = mrc_get_port_immutable,
	.map_mr_sg = mrc_map_mr_sg,
	.mmap = mrc_mmap,
	.mmap_free = mrc_mmap_free,
	.modify_device = mrc_modify_device,
	.modify_qp = mrc_modify_qp,
	.modify_srq = mrc_modify_srq,
	.poll_cq = mrc_poll_cq,
	.post_recv = mrc_post_recv,
	.post_send = mrc_post_send,
	.post_srq_recv = mrc_post_srq_recv,
	.query_ah = mrc_query_ah,
	.query_device = mrc_query_device,
	.query_pkey = mrc_query_pkey,
	.query_port = mrc_query_port,
	.query_qp = mrc_query_qp,
	.query_srq = mrc_query_srq,
	.reg_user_mr = mrc_reg_user_mr,
	.req_notify_cq = mrc_req_notify_cq,
	.rereg_user_mr = mrc_rereg_user_mr,

	INIT_RDMA_OBJ_SIZE(ib_ah, mrc_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, mrc_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_mw, mrc_mw, ibmw),
	INIT_RDMA_OBJ_SIZE(ib_pd, mrc_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, mrc_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, mrc_srq, ibsrq),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, mrc_ucontext, ibuc),
};

/*
 * Takes a reference so that ib_device_set_netdev(), which may sleep, is
 * called outside RCU even when the caller holds no lock over the planes.
 */
static struct net_device *mrc_plane_ndev_get(struct mrc_device *mdev,
					     unsigned int i)
{
	struct mrc_plane *plane;
	struct net_device *ndev = NULL;

	rcu_read_lock();
	plane = mrc_plane_get(mdev, i);
	if (plane) {
		ndev = plane->ndev;
		dev_hold(ndev);
	}
	rcu_read_unlock();
	return ndev;
}

/**
 * mrc_ib_register() - register the RDMA device of @mdev
 * @mdev: the device, with its planes
 *
 * Not under RTNL, nor mrc_net.lock: the RDMA core takes RTNL to fill the
 * GID tables, and the netdevice notifier takes the two in that order.
 *
 * Return: 0 or the error of ib_register_device().
 */
int mrc_ib_register(struct mrc_device *mdev)
{
	struct ib_device *ib = &mdev->ib;
	struct net_device *ndev;
	bool have_guid = false;
	unsigned int i;
	int err;

	snprintf(ib->node_desc, sizeof(ib->node_desc), "mrc %s", mdev->name);
	ib->node_type = RDMA_NODE_IB_CA;
	ib->phys_port_cnt = mdev->nports;
	ib->num_comp_vectors = num_possible_cpus();
	ib->local_dma_lkey = 0;
	/* Optional commands: librxe rings the SQ doorbell and arms CQs. */
	ib->uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_POST_SEND) |
			       BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);
	ib_set_device_ops(ib, &mrc_dev_ops);

	/*
	 * Under RTNL, like the notifier that clears a port when its plane
	 * goes: a plane seen here is still registered, and if it goes, its
	 * port is cleared after this, never before (which would leave the
	 * port holding a dying netdev).
	 */
	err = 0;
	rtnl_lock();
	for (i = 0; i < mdev->nports && i < MRC_MAX_PLANES && !err; i++) {
		ndev = mrc_plane_ndev_get(mdev, i);
		if (!ndev)
			continue;
		if (!have_guid) {
			addrconf_addr_eui48((u8 *)&ib->node_guid,
					    (const char *)ndev->dev_addr);
			have_guid = true;
		}
		err = ib_device_set_netdev(ib, ndev, i + 1);
		dev_put(ndev);
	}
	rtnl_unlock();
	if (err)
		return err;

	/* Without RTNL: filling the GID tables takes it. */
	return ib_register_device(ib, mdev->name, NULL);
}

void mrc_ib_port_event(struct mrc_device *mdev, u32 plane, bool up)
{
	struct ib_event ev = {
		.device = &mdev->ib,
		.element.port_num = plane + 1,
		.event = up ? IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR,
	};

	if (!mdev->registered || plane >= mdev->nports)
		return;
	ib_dispatch_event(&ev);
}
