/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What each file of mrc.ko offers the others (as rxe's rxe_loc.h): every
 * cross-file function and variable, under the name of the file that
 * defines it, in the order of mrc-y in Kbuild.  The types are in the
 * headers of their subsystems; mrc.h includes them all, and this.
 *
 * wire.c and srv6.c declare theirs in wire.h and srv6.h: they include no
 * other header of the module (but kunit_export.h), so that they build on
 * their own.
 */
#ifndef _MRC_LOC_H
#define _MRC_LOC_H

#include <linux/types.h>

#include "ev.h"
#include "verbs.h"
#include "wire.h"

struct genl_info;
struct in6_addr;
struct mrc_ccprof_cfg;
struct mrc_ccprof_req;
struct mrc_dev_prof;
struct mrc_dev_prof_req;
struct mrc_dev_req;
struct mrc_device;
struct mrc_evprof_cfg;
struct mrc_evprof_req;
struct mrc_net;
struct mrc_plane;
struct mrc_rx_src;
struct mrc_srv6_dst;
struct mrc_srv6_path;
struct net;
struct netlink_callback;
struct netlink_ext_ack;
struct nla_policy;
struct nlattr;
struct sock;

/* main.c */
extern unsigned short mrc_udp_port;

/* device.c */
struct mrc_net *mrc_net(const struct net *net);
struct mrc_device *mrc_dev_find(struct mrc_net *mn, const char *name);
void mrc_plane_set_admin(struct mrc_plane *plane, bool up);
int mrc_dev_del(struct mrc_net *mn, const char *name,
		struct netlink_ext_ack *extack);
int mrc_dev_new(struct net *net, struct mrc_dev_req *req,
		struct mrc_device **out, struct netlink_ext_ack *extack);
int mrc_dev_register(struct mrc_device *mdev, struct netlink_ext_ack *extack);
int mrc_device_init(void);
void mrc_device_exit(void);

/* netlink.c: the family, its operations and groups, helpers */
int mrc_genl_init(void);
void mrc_genl_exit(void);
void mrc_nl_notify_plane(const struct mrc_device *mdev,
			 const struct mrc_plane *plane);
bool mrc_nl_has_listeners(struct net *net);
void *mrc_nl_event_put(struct sk_buff *msg, u8 cmd);
void mrc_nl_event_send(struct net *net, struct sk_buff *msg);
/* for the handlers of the other netlink_*.c files */

/**
 * struct mrc_nl_devs_ctx - the head of the cb->ctx of a dump over
 *	per-device objects (mrc_nl_dump_devices())
 * @index: the index of the device to go on at
 *
 * Each such dump overlays its own context on cb->ctx, this first: what
 * follows is its position inside the device.
 */
struct mrc_nl_devs_ctx {
	unsigned long index;
};

void *mrc_nl_hdr_put(struct sk_buff *skb, u32 portid, u32 seq, int flags,
		     u8 cmd);
int mrc_nl_dump_devices(struct sk_buff *skb, struct netlink_callback *cb,
			u32 (*genid)(struct mrc_net *mn),
			int (*dump_dev)(struct sk_buff *skb,
					struct netlink_callback *cb,
					struct mrc_device *mdev, void *arg),
			void *arg);

/* netlink_dev.c: devices and planes */
extern const struct nla_policy mrc_planes_policy[MRC_A_PLANES_MAX + 1];
int mrc_nl_put_plane(struct sk_buff *skb, const struct mrc_plane *plane);
int mrc_nl_dev_get(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_dev_dump(struct sk_buff *skb, struct netlink_callback *cb);
int mrc_nl_dev_new(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_dev_del(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_dev_set(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_plane_set(struct sk_buff *skb, struct genl_info *info);

/* netlink_profile.c: EV format, EV and CC profiles */
extern const struct nla_policy mrc_evprof_policy[MRC_A_EVPROF_MAX + 1];
extern const struct nla_policy mrc_ccprof_policy[MRC_A_CCPROF_MAX + 1];
extern const struct nla_policy mrc_evfmt_policy[MRC_A_EVFMT_MAX + 1];
int mrc_nl_prof_apply(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_prof_del(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_prof_get(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_prof_dump(struct sk_buff *skb, struct netlink_callback *cb);

/* profile.c: pure checks, usable without locks (and from KUnit) */
u32 mrc_evprof_min_active_default(u32 ev_count);
void mrc_evprof_defaults(struct mrc_evprof_cfg *cfg);
void mrc_ccprof_defaults(struct mrc_ccprof_cfg *cfg);
void mrc_evfmt_defaults(struct mrc_evfmt_cfg *cfg);
u32 mrc_ev_format_bits(u8 format);
u32 mrc_evfmt_bits(const struct mrc_evfmt_cfg *cfg);
int mrc_evfmt_check(const struct mrc_evfmt_cfg *cfg,
		    struct netlink_ext_ack *extack);
int mrc_evfmt_may_change(u8 old_state, u8 new_state, u32 changed,
			 struct netlink_ext_ack *extack);
u64 mrc_ev_format_max(u8 format);
int mrc_ev_entries_check(u8 format, const u64 *entries, u32 n,
			 struct netlink_ext_ack *extack);
int mrc_evprof_check(const struct mrc_evprof_cfg *cfg,
		     struct netlink_ext_ack *extack);
int mrc_ccprof_check(const struct mrc_ccprof_cfg *cfg,
		     struct netlink_ext_ack *extack);
int mrc_profile_state_check(u8 state, struct netlink_ext_ack *extack);
int mrc_evprof_may_change(u8 old_state, u8 new_state, u32 changed,
			  struct netlink_ext_ack *extack);
int mrc_ccprof_may_change(u8 old_state, u8 new_state, u32 changed,
			  struct netlink_ext_ack *extack);

/* profile.c: the objects, under mrc_net.lock */
int mrc_profile_init(void);
void mrc_profile_exit(void);
int mrc_evprof_apply(struct mrc_net *mn, struct mrc_evprof_req *req,
		     struct netlink_ext_ack *extack);
int mrc_ccprof_apply(struct mrc_net *mn, struct mrc_ccprof_req *req,
		     struct netlink_ext_ack *extack);
int mrc_evprof_del(struct mrc_net *mn, u32 id, struct netlink_ext_ack *extack);
int mrc_ccprof_del(struct mrc_net *mn, u32 id, struct netlink_ext_ack *extack);
int mrc_evfmt_apply(struct mrc_net *mn, struct mrc_evfmt_req *req,
		    struct netlink_ext_ack *extack);
int mrc_evfmt_del(struct mrc_net *mn, u32 id, struct netlink_ext_ack *extack);
void mrc_dev_prof_defaults(struct mrc_dev_prof *p);
int mrc_dev_prof_resolve(struct mrc_net *mn, struct mrc_dev_prof_req *req,
			 const struct mrc_dev_prof *cur,
			 struct mrc_dev_prof *next,
			 struct netlink_ext_ack *extack);
void mrc_dev_prof_take_ev(struct mrc_dev_prof *dst,
			  const struct mrc_dev_prof *src);
int mrc_dev_prof_ev_lookup(struct mrc_net *mn, u32 id,
			   struct mrc_dev_prof *next, bool for_qp,
			   struct netlink_ext_ack *extack);
int mrc_dev_prof_cc_lookup(struct mrc_net *mn, u32 id,
			   struct mrc_dev_prof *next,
			   struct netlink_ext_ack *extack);
void mrc_dev_prof_set(struct mrc_device *mdev,
		      const struct mrc_dev_prof *prof);
void mrc_dev_prof_get(struct mrc_device *mdev, struct mrc_dev_prof *prof);

/* verbs.c */
extern const struct ib_device_ops mrc_dev_ops;
int mrc_ib_register(struct mrc_device *mdev);
void mrc_ib_port_event(struct mrc_device *mdev, u32 plane, bool up);
void mrc_count(struct mrc_device *mdev, u32 plane, enum mrc_counter c,
	       u64 n);
int mrc_av_from_attr(struct mrc_device *mdev, struct mrc_av *av,
		     const struct rdma_ah_attr *attr);
int mrc_ah_av(struct mrc_device *mdev, u32 num, const struct ib_pd *pd,
	      struct mrc_av *av);
u32 mrc_port_mtu(struct mrc_device *mdev, u32 plane);
int mrc_obj_get(struct mrc_device *mdev, enum mrc_obj obj);
void mrc_obj_put(struct mrc_device *mdev, enum mrc_obj obj);

/* queue.c */
int mrc_queue_alloc(struct mrc_queue *q, struct ib_udata *udata,
		    u32 *num_elem, u32 elem_size);
int mrc_queue_mminfo(struct mrc_queue *q, struct ib_udata *udata,
		     struct mminfo *mi);
void mrc_queue_free(struct mrc_queue *q);
int mrc_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma);
void mrc_mmap_free(struct rdma_user_mmap_entry *entry);

/* mw.c */
int mrc_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata);
int mrc_dealloc_mw(struct ib_mw *ibmw);
int mrc_mw_bind(struct mrc_qp *qp, const struct mrc_mw_bind *b,
		unsigned long *gp);
int mrc_mw_invalidate(struct mrc_qp *qp, u32 key, bool remote,
		      unsigned long *gp);
/* Under rcu_read_lock(), the QP locked. */
bool mrc_mw_inv_ok(struct mrc_qp *qp, u32 key);
struct mrc_mr *mrc_mw_resolve(struct mrc_qp *qp, u32 key, u64 *iova, u64 len,
			      u32 access);

/* mr.c */
struct ib_mr *mrc_get_dma_mr(struct ib_pd *ibpd, int access);
struct ib_mr *mrc_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata);
struct ib_mr *mrc_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start,
				u64 length, u64 iova, int access,
				struct ib_pd *pd, struct ib_udata *udata);
int mrc_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
struct ib_mr *mrc_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type mr_type,
			   u32 max_num_sg);
int mrc_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset);
int mrc_mr_fast_reg(struct ib_pd *pd, struct ib_mr *ibmr, u32 key, u32 access);
int mrc_mr_invalidate(struct mrc_device *mdev, struct ib_pd *pd, u32 key,
		      unsigned long *gp);
/* Under rcu_read_lock(); no reference is taken. */
struct mrc_mr *mrc_mr_lookup(struct mrc_device *mdev, u32 key);
int mrc_mr_check(const struct mrc_mr *mr, const struct ib_pd *pd, u64 iova,
		 u64 len, u32 access);
void mrc_mr_copy(const struct mrc_mr *mr, u64 iova, void *buf, u32 len,
		 enum mrc_copy_dir dir);
struct mrc_mr *mrc_remote_mr(struct mrc_qp *qp, u32 rkey, u64 *iova, u64 len,
			     u32 access);
int mrc_key_invalidate(struct mrc_qp *qp, u32 key, bool remote,
		       unsigned long *gp);
bool mrc_mr_atomic_aligned(const struct mrc_mr *mr, u64 iova);
int mrc_mr_atomic(const struct mrc_mr *mr, u64 iova, bool cas, u64 swap_add,
		  u64 compare, u64 *orig);
int mrc_sge_copy(struct mrc_device *mdev, const struct ib_pd *pd,
		 const struct rxe_sge *sge, u32 num_sge, u64 offset,
		 void *buf, u32 len, enum mrc_copy_dir dir);

/* cq.c */
int mrc_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  mrc_cq_create_arg *arg);
int mrc_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int mrc_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc);
int mrc_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
int mrc_cq_post(struct mrc_cq *cq, const struct ib_wc *wc, bool solicited);

/* srq.c */
int mrc_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata);
int mrc_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata);
int mrc_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int mrc_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata);
int mrc_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr);
int mrc_srq_take(struct mrc_srq *srq, struct mrc_recv_ctx *rctx);

/* restrack.c */
int mrc_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp);

/* qp.c */
int mrc_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata);
int mrc_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata);
int mrc_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init);
int mrc_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
int mrc_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr);
int mrc_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr);
int mrc_post_one_recv(struct mrc_queue *rq, u32 max_sge,
		      const struct ib_recv_wr *wr);
struct mrc_qp *mrc_qp_lookup(struct mrc_device *mdev, u32 qpn);
struct mrc_qp *mrc_ud_qp_lookup(struct mrc_device *mdev, u32 qpn);
void mrc_qp_error(struct mrc_qp *qp, enum mrc_qp_error why);
void mrc_qp_flush(struct mrc_qp *qp);
void mrc_flush_sq(struct mrc_qp *qp);
int mrc_qp_set_prepare(struct mrc_qp_set *set);
int mrc_qp_set_apply(struct mrc_qp *qp, struct mrc_qp_set *set,
		     struct netlink_ext_ack *extack);
void mrc_qp_set_release(struct mrc_qp_set *set);

/* net.c: sockets and transmit */
int mrc_net_sockets_init(struct net *net);
void mrc_net_sockets_exit(struct net *net);
struct sk_buff *mrc_net_pkt(const struct mrc_hdrs *h);
void mrc_net_seal(struct sk_buff *skb);
struct sk_buff *mrc_net_ctl(const struct mrc_hdrs *h);
void mrc_net_send(struct mrc_device *mdev, const struct mrc_av *av,
		  struct dst_cache *dc, u32 ev, struct sk_buff_head *list);
void mrc_net_xmit(struct mrc_qp *qp, struct sk_buff_head *list);
struct net_device *mrc_net_owner6(struct net *net, const struct in6_addr *a);
void mrc_net_warm(struct mrc_device *mdev, const struct mrc_path *paths,
		  const struct mrc_srv6_dst *srv6);

/*
 * Process context that builds packets under qp->lock keeps bottom halves
 * off until they have left: a SACK handled on this CPU in between would
 * send later packets of the same EVs ahead of them, and the order of an
 * EV's packets is how its losses are told (ev.c).  Softirq and timer
 * callers run with bottom halves off already.
 */
static inline void mrc_qp_lock_tx(struct mrc_qp *qp)
{
	local_bh_disable();
	spin_lock(&qp->lock);
}

static inline void mrc_qp_unlock_xmit(struct mrc_qp *qp,
				      struct sk_buff_head *out)
{
	spin_unlock(&qp->lock);
	mrc_net_xmit(qp, out);
	local_bh_enable();
}

/* recv.c: the receive demultiplexer */
extern unsigned int mrc_src_check;
int mrc_recv_udp(struct sock *sk, struct sk_buff *skb);

/* requester.c: under qp->lock; packets go on @out, sent after unlock */
void mrc_req_run(struct mrc_qp *qp, struct sk_buff_head *out);
u32 mrc_req_span(const struct mrc_qp *qp);
u32 mrc_req_cap(const struct mrc_qp *qp);
u32 mrc_req_pipe(const struct mrc_qp *qp);
bool mrc_req_resend(struct mrc_qp *qp, u32 psn, struct sk_buff_head *out);

/* responder.c: requests in, their acknowledgements out */
void mrc_resp_rcv(struct mrc_qp *qp, const struct mrc_hdrs *h,
		  const void *payload, struct sk_buff_head *out);
void mrc_resp_reset(struct mrc_qp *qp);
u8 mrc_resp_penalty(u32 qlen, u32 max);

/* completer.c: SACK/NACK/READ response processing, retransmission, timer */
void mrc_comp_sack_rcv(struct mrc_qp *qp, const struct mrc_hdrs *h,
		       struct sk_buff_head *out);
void mrc_comp_nack_rcv(struct mrc_qp *qp, const struct mrc_hdrs *h,
		       struct sk_buff_head *out);
void mrc_comp_read_resp_rcv(struct mrc_qp *qp, const struct mrc_hdrs *h,
			    const void *payload, struct sk_buff_head *out);
void mrc_comp_arm(struct mrc_qp *qp);
void mrc_comp_timer(struct timer_list *t);
void mrc_comp_local(struct mrc_qp *qp);
void mrc_comp_inv_timer(struct timer_list *t);

/* ev.c: the EV state machine, under qp->lock */
extern unsigned int mrc_ev_count;
bool mrc_ev_plane_up(struct mrc_qp *qp, u8 pl);
void mrc_ev_set_state(struct mrc_qp *qp, struct mrc_ev *ev, u8 state);
void mrc_ev_shuffle(struct mrc_evset *s);
int mrc_ev_pick(struct mrc_qp *qp, int avoid_plane);
void mrc_ev_sent(struct mrc_qp *qp, int slot, u32 *ev, u32 *ev_seq);
u32 mrc_ev_next(struct mrc_qp *qp);
struct mrc_ev *mrc_ev_find(struct mrc_qp *qp, u32 ev);
void mrc_ev_acked(struct mrc_qp *qp, u32 ev, u32 ev_seq, u16 cpu);
bool mrc_ev_lost(struct mrc_qp *qp, u32 ev, u32 ev_seq, u16 cpu);
void mrc_ev_spare_add(struct mrc_evset *s, u8 pl, u16 entropy);
u32 mrc_ev_count_state(const struct mrc_qp *qp, u8 state);
void mrc_ev_retire(struct mrc_qp *qp, u32 ev, enum mrc_ev_why why);
void mrc_ev_suspect(struct mrc_qp *qp, u32 ev, u32 ev_seq, u64 sent_ns,
		    enum mrc_ev_why why);
void mrc_ev_skip(struct mrc_qp *qp, u32 ev);
void mrc_ev_verdict(struct mrc_qp *qp, u32 ref_ev, u8 m, bool probe);
int mrc_ev_set_states(struct mrc_qp *qp, const struct mrc_ev_req *reqs, u32 n,
		      struct netlink_ext_ack *extack);

/* ev_probe.c: probes and port status */
void mrc_ev_arm_probes(struct mrc_qp *qp);
void mrc_ev_port_status(struct mrc_qp *qp, u32 seq, u32 down,
			struct sk_buff_head *out);
void mrc_ev_planes_changed(struct mrc_qp *qp, u32 seq, u32 down,
			   struct sk_buff_head *out);
void mrc_ev_port_status_repeat(struct mrc_qp *qp, struct sk_buff_head *out);
bool mrc_ev_peer_status(struct mrc_qp *qp, const struct mrc_hdrs *h, u32 plane);
void mrc_ev_peer_status_expire(struct mrc_qp *qp);
void mrc_ev_probe_answered(struct mrc_qp *qp, u32 ref_ev);
int mrc_ev_probe_start(struct mrc_qp *qp, u32 slot,
		       struct mrc_ev_probe_wait *w, struct sk_buff_head *out);
void mrc_ev_probe_done(struct mrc_qp *qp, u32 ref_ev, u64 token);
struct mrc_ev_probe_wait *mrc_ev_probe_wait_new(void);
void mrc_ev_probe_wait_put(struct mrc_ev_probe_wait *w);
void mrc_ev_probe_forget(struct mrc_qp *qp, struct mrc_ev_probe_wait *w,
			 int err);
void mrc_ev_probe_init(struct mrc_evset *s);
void mrc_ev_stop(struct mrc_qp *qp);

/* ev_path.c: address derivation, path installation, the EV set's life */
void mrc_ev_resolve(struct mrc_qp *qp, const struct mrc_av *av,
		    struct mrc_path *paths);
void mrc_ev_install(struct mrc_qp *qp, struct mrc_path *paths, u32 n,
		    struct mrc_srv6_dst *srv6);
bool mrc_ev_peer_addr_ok(const struct mrc_qp *qp, u32 plane,
			 const struct mrc_rx_src *src);
bool mrc_ev_peer_addr_known(const struct mrc_qp *qp, u32 plane);
void mrc_ev_configure(struct mrc_qp *qp, u32 min_active, u32 backups,
		      u32 event_mask, u8 format);
int mrc_ev_init(struct mrc_qp *qp);
void mrc_ev_destroy(struct mrc_qp *qp);

/* cc.c */
void mrc_cc_init(struct mrc_cc *cc, const struct mrc_ccprof_cfg *cfg);
int mrc_cc_ack(struct mrc_cc *cc, u32 bytes, bool ecn, u32 rtt_us);
void mrc_cc_penalty(struct mrc_cc *cc, u32 bytes, u8 penalty);
u32 mrc_cc_window(const struct mrc_cc *cc, u32 mtu);

/* ud.c: UD QPs, and the GSI QP (QP1) that carries the CM's MADs */
int mrc_ud_post_send(struct mrc_qp *qp, const struct ib_send_wr *wr,
		     const struct ib_send_wr **bad_wr);
void mrc_ud_doorbell(struct mrc_qp *qp);
void mrc_ud_work(struct work_struct *work);
bool mrc_ud_rcv(struct mrc_device *mdev, unsigned int plane,
		struct sk_buff *skb, const struct mrc_hdrs *h);

/* debugfs.c */
void mrc_debugfs_init(void);
void mrc_debugfs_exit(void);
void mrc_debugfs_add(struct mrc_device *mdev);
void mrc_debugfs_del(struct mrc_device *mdev);

/* netlink_qp.c: the QP view, EV deny/undeny, QP attributes, EV probes */
extern const struct nla_policy mrc_qp_policy[MRC_A_QP_MAX + 1];
int mrc_nl_qp_get(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_qp_dump(struct sk_buff *skb, struct netlink_callback *cb);
int mrc_nl_ev_set(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_qp_set(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_probe(struct sk_buff *skb, struct genl_info *info);

/* netlink_event.c: EV and QP notifications from the data path */
void mrc_event_ev(struct mrc_qp *qp, const struct mrc_ev *ev);
void mrc_event_qp_error(struct mrc_qp *qp, u8 why);
void mrc_event_work(struct work_struct *work);

/* srv6_table.c: a device's SRv6 destinations */
struct mrc_srv6_dst *mrc_srv6_dst_alloc(u32 npaths);
void mrc_srv6_dst_put(struct mrc_srv6_dst *d);
int mrc_srv6_dst_set(struct mrc_device *mdev, struct mrc_srv6_dst *d);
int mrc_srv6_dst_del(struct mrc_device *mdev, const struct in6_addr *peer);
struct mrc_srv6_dst *mrc_srv6_dst_get(struct mrc_device *mdev,
				      const struct in6_addr *peer);
void mrc_srv6_dst_flush(struct mrc_device *mdev);
bool mrc_srv6_dst_path(const struct mrc_srv6_dst *d, u8 plane, u16 entropy,
		       struct mrc_srv6_path *p);

/* netlink_srv6.c: SRv6 path programming */
extern const struct nla_policy mrc_srv6_policy[MRC_A_SRV6_MAX + 1];
int mrc_nl_srv6_set(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_srv6_del(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_srv6_dump(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _MRC_LOC_H */
