// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_api_test: libmrc's API groups, each call's result and errno exact,
 * one TAP line per check; selftests/mrc_libmrc.sh runs it.
 *
 *   mrc_api_test app DEV GIDX   versions, device query, context, channels,
 *                               CQs, hints, QPs (two QPs of DEV joined by
 *                               loopback: MRC attributes on each transition,
 *                               a WRITE_IMM whose data is checked), posts
 *   mrc_api_test ctl DEV        controller device query, ports (DEV's
 *                               last port taken down and back), format, EV
 *                               and CC profiles, the parts not backed yet
 *                               (EOPNOTSUPP)
 *   mrc_api_test events DEV GIDX  EV events: a port taken down through the
 *                               API, the ASSUMED_BAD events of the EVs it
 *                               carried, through an event queue and channel
 *   mrc_api_test hold DEV       a QP whose MRC attributes its owner sets;
 *                               prints "qpn N", holds it until stdin closes
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mrc_ctl.h>

static unsigned int ntest, nfail;

static void check(int ok, const char *what, long got, long want)
{
	ntest++;
	if (ok) {
		printf("ok %u - %s\n", ntest, what);
		return;
	}
	nfail++;
	printf("not ok %u - %s: got %ld, want %ld\n", ntest, what, got, want);
}

#define EQ(what, got, want) \
	do { long g_ = (long)(got), w_ = (long)(want); \
	     check(g_ == w_, what, g_, w_); } while (0)
/* Re-arming while waiting: a failure is reported, success is not counted. */
static void quiet(long got, long want, const char *what)
{
	if (got != want)
		check(0, what, got, want);
}

#define EQ_QUIET(got, want)	quiet((long)(got), (want), #got)

/* A call that fails: its return value and errno, both exact. */
static void check_fail(const char *what, long got, int got_errno,
		       long want, int want_errno, const char *ret_s,
		       const char *err_s)
{
	char name[256];

	snprintf(name, sizeof(name), "%s returns %s", what, ret_s);
	check(got == want, name, got, want);
	snprintf(name, sizeof(name), "%s sets errno %s", what, err_s);
	check(got_errno == want_errno, name, got_errno, want_errno);
}

#define FAILS(what, call, ret, err) \
	do { long r_; errno = 0; r_ = (long)(call); \
	     check_fail(what, r_, errno, ret, err, #ret, #err); } while (0)

static int fcntl_ok(int fd)
{
	return fd >= 0 && fcntl(fd, F_GETFD) >= 0;
}

static struct ibv_context *open_dev(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *vctx = NULL;
	int i;

	for (i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			vctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!vctx) {
		fprintf(stderr, "cannot open %s\n", name);
		exit(2);
	}
	return vctx;
}

struct end {
	struct mrc_cq *cq;
	struct mrc_qp *qp;
	uint32_t qpn;
};

static int connect_qp(struct mrc_qp *qp, uint32_t dest, int gidx,
		      union ibv_gid *gid, struct mrc_qp_hint *hint,
		      uint64_t evprof)
{
	struct ibv_qp_attr v = {};
	struct mrc_qp_attr m = {};
	int ret;

	v.qp_state = IBV_QPS_INIT;
	v.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	m.qp_hint = hint;
	m.profile.ev_profile_id = evprof;
	ret = mrc_modify_qp(qp, &v, IBV_QP_STATE | IBV_QP_ACCESS_FLAGS, &m,
			    (hint ? MRC_QP_HINT : 0) |
			    (evprof ? MRC_QP_EV_PROFILE_ID : 0));
	if (ret)
		return ret;
	memset(&v, 0, sizeof(v));
	v.qp_state = IBV_QPS_RTR;
	v.path_mtu = IBV_MTU_1024;
	v.dest_qp_num = dest;
	v.rq_psn = 0;
	v.ah_attr.is_global = 1;
	v.ah_attr.grh.dgid = *gid;
	v.ah_attr.grh.sgid_index = gidx;
	v.ah_attr.grh.hop_limit = 64;
	v.ah_attr.port_num = 1;
	m.mpr.mpr_dest = 4;
	ret = mrc_modify_qp(qp, &v, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			    IBV_QP_DEST_QPN | IBV_QP_RQ_PSN, &m, MRC_QP_MPR_DEST);
	if (ret)
		return ret;
	memset(&v, 0, sizeof(v));
	v.qp_state = IBV_QPS_RTS;
	v.sq_psn = 0;
	v.timeout = 3;		/* verbs' own: ignored, as the API says */
	m.mpr.mpr = 4;
	m.timeout = 12;
	m.retry.linear_cnt = 3;
	m.retry.exp_cnt = 10;
	m.wimm.max_wimm = 16;
	return mrc_modify_qp(qp, &v, IBV_QP_STATE | IBV_QP_SQ_PSN |
			     IBV_QP_TIMEOUT, &m, MRC_QP_MPR | MRC_QP_TIMEOUT |
			     MRC_QP_RETRY_CNT | MRC_QP_MAX_WIMM);
}

static void app(const char *name, int gidx)
{
	uint32_t cur, last, vcur, vlast;
	struct mrc_device_attr da;
	struct mrc_context_attr ca = {};
	struct mrc_context *ctx;
	struct mrc_comp_channel *ch;
	struct mrc_qp_hint_init_attr hi = {};
	struct mrc_qp_hint_attr ha = {};
	struct mrc_qp_hint *hint;
	struct mrc_qp_init_attr qi = {};
	struct mrc_qp_attr m = {};
	struct ibv_qp_attr v;
	struct ibv_send_wr wr = {}, *bad;
	struct ibv_recv_wr rwr = {}, *rbad;
	struct ibv_sge sge;
	struct ibv_wc wc;
	struct ibv_context *vctx = open_dev(name);
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	union ibv_gid gid;
	struct end a, b;
	unsigned char *buf;
	int supported = -1, fd = -1, i, n, bad_bytes = 0;

	mrc_query_version(&cur, &last, &vcur, &vlast);
	EQ("query_version: current 1.0.1", cur, MRC_API_VER(1, 0, 1));
	EQ("query_version: oldest 0.0.0", last, 0);
	EQ("query_version: vendor 1.0.0", vcur, MRC_API_VER(1, 0, 0));

	EQ("query_device returns 0", mrc_query_device(vctx, &da, &supported),
	   0);
	EQ("query_device: supported", supported, 1);
	EQ("query_device: protocol version 1", da.mrc_protocol_version, 1);
	EQ("query_device: max_mpr 8", da.mpr_attr.max_mpr, 8);
	EQ("query_device: max_qp_hint 4096", da.qp_attr.max_qp_hint, 4096);
	EQ("query_device: no optional caps", da.cap, 0);

	ca.mrc_api_version_used = MRC_API_VER(1, 1, 0);
	errno = 0;
	EQ("create_context for API 1.1.0 fails", mrc_create_context(vctx,
								    &ca) == NULL, 1);
	EQ("create_context for API 1.1.0: ENOTSUP", errno, ENOTSUP);
	ctx = mrc_create_context(vctx, NULL);
	EQ("create_context", !!ctx, 1);
	if (!ctx)
		exit(1);
	EQ("query_device_ex through the context", mrc_query_device_ex(vctx, ctx,
								      &da, &supported), 0);

	EQ("create_comp_channel", mrc_create_comp_channel(ctx, &ch), 0);
	EQ("get_comp_channel_fd", mrc_get_comp_channel_fd(ch, &fd), 0);
	EQ("channel fd is open", fcntl_ok(fd), 1);
	a.cq = mrc_create_cq(ctx, 64, &a, ch, 0);
	b.cq = mrc_create_cq(ctx, 64, &b, NULL, 0);
	EQ("create_cq x2", a.cq && b.cq, 1);
	EQ("req_notify_cq", mrc_req_notify_cq(a.cq, 0), 0);

	hi.attr.num_qps_per_peer = 2;
	hi.attr.num_send_peers = 7;
	hint = mrc_create_qp_hint(ctx, &hi);
	EQ("create_qp_hint", !!hint, 1);
	ha.num_send_peers = 15;
	EQ("modify_qp_hint", mrc_modify_qp_hint(hint, &ha,
						MRC_QP_HINT_NUM_SEND_PEERS), 0);
	memset(&ha, 0, sizeof(ha));
	EQ("query_qp_hint",
	   mrc_query_qp_hint(hint, &ha, MRC_QP_HINT_NUM_QPS_PER_PEER |
			     MRC_QP_HINT_NUM_SEND_PEERS), 0);
	EQ("query_qp_hint: num_qps_per_peer", ha.num_qps_per_peer, 2);
	EQ("query_qp_hint: num_send_peers as modified", ha.num_send_peers, 15);
	ha.num_send_peers = -1;
	FAILS("modify_qp_hint negative",
	      mrc_modify_qp_hint(hint, &ha, MRC_QP_HINT_NUM_SEND_PEERS),
	      -1, EINVAL);

	pd = ibv_alloc_pd(vctx);
	buf = calloc(1, 2 * 65536);
	mr = ibv_reg_mr(pd, buf, 2 * 65536, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	EQ("pd and mr", pd && buf && mr, 1);
	qi.send_cq = a.cq;
	qi.recv_cq = a.cq;
	qi.pd = pd;
	qi.cap.max_send_wr = 16;
	qi.cap.max_recv_wr = 16;
	qi.cap.max_send_sge = 1;
	qi.cap.max_recv_sge = 1;
	qi.protocol_version = 2;
	errno = 0;
	EQ("create_qp with protocol version 2 fails", mrc_create_qp(ctx,
								    &qi) == NULL, 1);
	EQ("create_qp with protocol version 2: EOPNOTSUPP", errno, EOPNOTSUPP);
	qi.protocol_version = MRC_PROTOCOL_VERSION_0;
	a.qp = mrc_create_qp(ctx, &qi);
	qi.send_cq = b.cq;
	qi.recv_cq = b.cq;
	b.qp = mrc_create_qp(ctx, &qi);
	EQ("create_qp x2", a.qp && b.qp, 1);
	EQ("get_qpn", mrc_get_qpn(a.qp, &a.qpn) || mrc_get_qpn(b.qp, &b.qpn),
	   0);

	m.profile.ev_profile_id = 70000;
	FAILS("modify_qp ev_profile_id 70000", mrc_modify_qp(a.qp, NULL, 0, &m,
							     MRC_QP_EV_PROFILE_ID), EINVAL, EINVAL);
	m.timeout = 25;
	FAILS("modify_qp timeout 25", mrc_modify_qp(a.qp, NULL, 0, &m,
						    MRC_QP_TIMEOUT), EINVAL, EINVAL);
	m.cap = MRC_QP_CAP_DYNAMIC_MPR;
	FAILS("modify_qp dynamic MPR", mrc_modify_qp(a.qp, NULL, 0, &m,
						     MRC_QP_CAP), EOPNOTSUPP, EOPNOTSUPP);
	m.vendor_cfg[5] = 1;
	FAILS("modify_qp vendor_cfg", mrc_modify_qp(a.qp, NULL, 0, &m,
						    MRC_QP_VENDOR_CFG), EOPNOTSUPP, EOPNOTSUPP);
	m.profile.ev_profile_id = 4242;
	FAILS("modify_qp naming a profile that does not exist",
	      mrc_modify_qp(a.qp, NULL, 0, &m,
			    MRC_QP_EV_PROFILE_ID), ENOENT, ENOENT);

	EQ("query_gid", ibv_query_gid(vctx, 1, gidx, &gid), 0);
	EQ("QP a: RESET to RTS with MRC attributes", connect_qp(a.qp, b.qpn, gidx,
								&gid, hint, 0), 0);
	EQ("QP b: RESET to RTS with MRC attributes", connect_qp(b.qp, a.qpn, gidx,
								&gid, NULL, 0), 0);
	FAILS("destroy_qp_hint while a QP names it", mrc_destroy_qp_hint(hint),
	      -1, EBUSY);

	memset(&m, 0, sizeof(m));
	memset(&v, 0, sizeof(v));
	EQ("query_qp",
	   mrc_query_qp(a.qp, &v,
			IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT, &m,
			MRC_QP_MPR | MRC_QP_MPR_DEST | MRC_QP_TIMEOUT |
			MRC_QP_RETRY_CNT | MRC_QP_MAX_WIMM | MRC_QP_HINT, NULL),
	   0);
	EQ("query_qp: RTS", v.qp_state, IBV_QPS_RTS);
	EQ("query_qp: mpr 4 (set on RTR->RTS)", m.mpr.mpr, 4);
	EQ("query_qp: mpr_dest 4 (set on INIT->RTR)", m.mpr.mpr_dest, 4);
	EQ("query_qp: timeout 12, not verbs' 3", m.timeout, 12);
	EQ("query_qp: verbs timeout is the MRC one", v.timeout, 12);
	EQ("query_qp: linear retries 3", m.retry.linear_cnt, 3);
	EQ("query_qp: verbs retry_cnt is the MRC one", v.retry_cnt, 3);
	EQ("query_qp: exponential retries 10", m.retry.exp_cnt, 10);
	EQ("query_qp: max_wimm 16", m.wimm.max_wimm, 16);
	EQ("query_qp: the hint", m.qp_hint == hint, 1);
	m.mpr.mpr = 2;
	FAILS("modify_qp mpr in RTS", mrc_modify_qp(a.qp, NULL, 0, &m,
						    MRC_QP_MPR), EINVAL, EINVAL);

	/* A WRITE_IMM of 64 KiB from a's half of buf to b's, checked. */
	for (i = 0; i < 65536; i++)
		buf[i] = (unsigned char)(i * 7 + 3);
	sge.addr = (uintptr_t)buf;
	sge.length = 65536;
	sge.lkey = mr->lkey;
	rwr.wr_id = 2;
	EQ("post_recv", mrc_post_recv(b.qp, &rwr, &rbad), 0);
	wr.wr_id = 1;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.opcode = IBV_WR_SEND;
	bad = NULL;
	FAILS("post_send SEND", mrc_post_send(a.qp, &wr, &bad), EINVAL, EINVAL);
	EQ("post_send SEND: bad_wr is it", bad == &wr, 1);
	wr.opcode = IBV_WR_RDMA_READ;
	FAILS("post_send RDMA_READ", mrc_post_send(a.qp, &wr, &bad), EINVAL,
	      EINVAL);
	wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
	wr.imm_data = htonl(0x4d5243);
	wr.wr.rdma.remote_addr = (uintptr_t)buf + 65536;
	wr.wr.rdma.rkey = mr->rkey;
	EQ("post_send WRITE_IMM", mrc_post_send(a.qp, &wr, &bad), 0);
	for (i = 0, n = 0; i < 2000000 && n < 2; i++) {
		int got = mrc_poll_cq(n ? b.cq : a.cq, 1, &wc);

		if (got < 0)
			break;
		if (got && !n) {
			EQ("requester completion: success", wc.status,
			   IBV_WC_SUCCESS);
			n++;
		} else if (got) {
			EQ("responder completion: success", wc.status,
			   IBV_WC_SUCCESS);
			EQ("responder completion: RECV_RDMA_WITH_IMM",
			   wc.opcode, IBV_WC_RECV_RDMA_WITH_IMM);
			EQ("responder completion: the immediate",
			   ntohl(wc.imm_data), 0x4d5243);
			EQ("responder completion: 65536 bytes", wc.byte_len,
			   65536);
			n++;
		} else {
			usleep(100);
		}
	}
	EQ("both completions came", n, 2);
	for (i = 0; i < 65536; i++)
		bad_bytes += buf[65536 + i] != buf[i];
	EQ("written data intact", bad_bytes, 0);

	FAILS("destroy_context with live objects", mrc_destroy_context(ctx), -1,
	      EBUSY);
	EQ("destroy_qp x2", mrc_destroy_qp(a.qp) || mrc_destroy_qp(b.qp), 0);
	EQ("destroy_qp_hint", mrc_destroy_qp_hint(hint), 0);
	EQ("destroy_cq x2", mrc_destroy_cq(a.cq) || mrc_destroy_cq(b.cq), 0);
	EQ("destroy_comp_channel", mrc_destroy_comp_channel(ch), 0);
	EQ("destroy_context", mrc_destroy_context(ctx), 0);
	ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
	free(buf);
	ibv_close_device(vctx);
}

/* A host integer as an EV value, as the OCP examples write one. */
static struct mrc_ctl_ev ev_of(uint32_t v)
{
	struct mrc_ctl_ev ev;

	memset(&ev, 0, sizeof(ev));
	memcpy(ev.val, &v, sizeof(v));
	ev.port = 1;
	return ev;
}

/*
 * Profiles through the API, as the OCP examples make them: an STEV format
 * profile of two 16-bit fields (13), an explicit EV profile of 8 EVs that
 * names it (1), filled by REPLACE_EV, and an NSCC profile (2).  They stay
 * for mrc_libmrc.sh to read back through mrcctl.
 */
static void profiles(struct mrc_context *ctx)
{
	struct mrc_ctl_ev_fmt_field fields[2] = { { 16 }, { 16 } }, got[2];
	struct mrc_ctl_ev_fmt_profile_attr fa = {};
	struct mrc_ctl_ev_profile_attr ea = {};
	struct mrc_ctl_ev_op_entry op = {}, q[10];
	struct mrc_ctl_cc_nscc_cfg nscc = {
		.base_rtt = 20000, .target_delay = 30500,
		.qa_threshold = 120000, .max_cwnd = 1048576, .gamma = 0.8f,
		.max_md_jump = 0.5f, .eta = 512, .fi = 4096,
	}, back;
	struct mrc_ctl_cc_profile_attr ca = {};
	uint32_t i;
	int bad;

	fa.profile_state = MRC_CTL_PROFILE_OFFLINE;
	fa.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_STEV;
	fa.ev_fmt_op.op = MRC_CTL_EV_FMT_OP_MODIFY_FIELDS;
	fa.ev_fmt_op.fmt_fields = fields;
	fa.ev_fmt_op.fmt_field_count = 2;
	EQ("fmt profile 13: new, offline, stev 16+16",
	   mrc_ctl_modify_ev_fmt_profile(ctx, 13, &fa,
					 MRC_CTL_EV_FMT_PROFILE_STATE |
					 MRC_CTL_EV_FMT_PROFILE_MODE |
					 MRC_CTL_EV_FMT_PROFILE_OP), 0);
	fa.profile_state = MRC_CTL_PROFILE_ONLINE;
	EQ("fmt profile 13: online",
	   mrc_ctl_modify_ev_fmt_profile(ctx, 13, &fa,
					 MRC_CTL_EV_FMT_PROFILE_STATE), 0);
	memset(&fa, 0, sizeof(fa));
	fa.ev_fmt_op.op = MRC_CTL_EV_FMT_OP_QUERY_FIELDS;
	fa.ev_fmt_op.fmt_fields = got;
	fa.ev_fmt_op.fmt_field_count = 1;
	FAILS("query fmt 13 with room for one field",
	      mrc_ctl_query_ev_fmt_profile(ctx, 13, &fa,
					   MRC_CTL_EV_FMT_PROFILE_OP),
	      -1, ENOSPC);
	EQ("... says how many there are", fa.ev_fmt_op.fmt_field_count, 2);
	EQ("query fmt 13",
	   mrc_ctl_query_ev_fmt_profile(ctx, 13, &fa,
					MRC_CTL_EV_FMT_PROFILE_CUR_STATE |
					MRC_CTL_EV_FMT_PROFILE_MODE |
					MRC_CTL_EV_FMT_PROFILE_OP), 0);
	EQ("fmt 13: online, stev, fields 16,16",
	   fa.cur_profile_state == MRC_CTL_PROFILE_ONLINE &&
	   fa.ev_fmt_mode == MRC_CTL_EV_FMT_MODE_STEV &&
	   fa.ev_fmt_op.fmt_field_count == 2 && got[0].width == 16 &&
	   got[1].width == 16, 1);
	fa.ev_fmt_op.op = MRC_CTL_EV_FMT_OP_MODIFY_FIELDS;
	fa.ev_fmt_op.fmt_fields = fields;
	FAILS("fields of an online fmt profile",
	      mrc_ctl_modify_ev_fmt_profile(ctx, 13, &fa,
					    MRC_CTL_EV_FMT_PROFILE_OP),
	      -1, EBUSY);

	ea.profile_state = MRC_CTL_PROFILE_OFFLINE;
	ea.ev_mode = MRC_CTL_EV_MODE_EXP;
	ea.ev_fmt_profile_id = 13;
	ea.ev_count = 8;
	ea.ev_min_active = 2;
	ea.ev_event_mask = MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD;
	EQ("EV profile 1: new, offline, exp, fmt 13, 8 EVs",
	   mrc_ctl_modify_ev_profile(ctx, 1, &ea, MRC_CTL_EV_PROFILE_STATE |
				     MRC_CTL_EV_PROFILE_MODE |
				     MRC_CTL_EV_PROFILE_FMT_ID |
				     MRC_CTL_EV_PROFILE_COUNT |
				     MRC_CTL_EV_PROFILE_MIN_ACTIVE |
				     MRC_CTL_EV_PROFILE_EVENT_MASK), 0);
	memset(&ea, 0, sizeof(ea));
	ea.ev_op.op = MRC_CTL_EV_OP_REPLACE_EV;
	ea.ev_op.entries = &op;
	ea.ev_op.entry_count = 1;
	for (i = 0, bad = 0; i < 8; i++) {
		op.ev = MRC_CTL_EV_UNPOPULATED;
		op.ev_new = ev_of(i << 16 | i);
		bad += !!mrc_ctl_modify_ev_profile(ctx, 1, &ea,
						   MRC_CTL_EV_PROFILE_EV_OP);
	}
	EQ("EV profile 1: 8 EVs filled one REPLACE_EV each", bad, 0);
	op.ev_new = ev_of(8 << 16 | 8);
	FAILS("a ninth EV", mrc_ctl_modify_ev_profile(ctx, 1, &ea,
						      MRC_CTL_EV_PROFILE_EV_OP),
	      -1, ENOSPC);
	op.ev = ev_of(5 << 16 | 5);
	op.ev_new = ev_of(0x99);
	EQ("REPLACE_EV of EV 5",
	   mrc_ctl_modify_ev_profile(ctx, 1, &ea, MRC_CTL_EV_PROFILE_EV_OP), 0);
	op.ev = ev_of(0x12345);
	FAILS("REPLACE_EV of an EV not there",
	      mrc_ctl_modify_ev_profile(ctx, 1, &ea, MRC_CTL_EV_PROFILE_EV_OP),
	      -1, ENOENT);
	ea.ev_op.op = MRC_CTL_EV_OP_MODIFY_EV_STATE;
	FAILS("MODIFY_EV_STATE (profile-wide EV states)",
	      mrc_ctl_modify_ev_profile(ctx, 1, &ea, MRC_CTL_EV_PROFILE_EV_OP),
	      -1, EOPNOTSUPP);
	ea.ev_mode = MRC_CTL_EV_MODE_GEN;
	FAILS("GEN mode", mrc_ctl_modify_ev_profile(ctx, 1, &ea,
						    MRC_CTL_EV_PROFILE_MODE),
	      -1, EOPNOTSUPP);
	ea.profile_state = MRC_CTL_PROFILE_ONLINE;
	EQ("EV profile 1: online",
	   mrc_ctl_modify_ev_profile(ctx, 1, &ea, MRC_CTL_EV_PROFILE_STATE), 0);

	memset(&ea, 0, sizeof(ea));
	ea.ev_op.op = MRC_CTL_EV_OP_QUERY_EV_ARRAY;
	ea.ev_op.entries = q;
	ea.ev_op.entry_count = 10;
	EQ("query EV profile 1",
	   mrc_ctl_query_ev_profile(ctx, 1, &ea, MRC_CTL_EV_PROFILE_CUR_STATE |
				    MRC_CTL_EV_PROFILE_MODE |
				    MRC_CTL_EV_PROFILE_FMT_ID |
				    MRC_CTL_EV_PROFILE_COUNT |
				    MRC_CTL_EV_PROFILE_MIN_ACTIVE |
				    MRC_CTL_EV_PROFILE_EVENT_MASK |
				    MRC_CTL_EV_PROFILE_EV_OP), 0);
	EQ("EV profile 1: online, exp, fmt 13, 8 EVs, floor 2, both events",
	   ea.cur_profile_state == MRC_CTL_PROFILE_ONLINE &&
	   ea.ev_mode == MRC_CTL_EV_MODE_EXP && ea.ev_fmt_profile_id == 13 &&
	   ea.ev_count == 8 && ea.ev_min_active == 2 &&
	   ea.ev_event_mask == (MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD), 1);
	EQ("EV profile 1: its array holds 8", ea.ev_op.entry_count, 8);
	for (i = 0, bad = 0; i < 8; i++) {
		struct mrc_ctl_ev want = ev_of(i == 5 ? 0x99 : i << 16 | i);

		bad += memcmp(q[i].ev.val, want.val, sizeof(want.val)) != 0;
	}
	EQ("EV profile 1: the EVs as written, EV 5 replaced", bad, 0);
	ea.ev_op.op = MRC_CTL_EV_OP_QUERY_EV_STATE;
	FAILS("QUERY_EV_STATE (profile-wide EV states)",
	      mrc_ctl_query_ev_profile(ctx, 1, &ea, MRC_CTL_EV_PROFILE_EV_OP),
	      -1, EOPNOTSUPP);

	/* A create whose state step is refused leaves nothing behind. */
	memset(&ea, 0, sizeof(ea));
	ea.profile_state = MRC_CTL_PROFILE_ONLINE;
	ea.ev_mode = MRC_CTL_EV_MODE_EXP;
	ea.ev_count = 4;
	FAILS("a new exp EV profile put online without entries",
	      mrc_ctl_modify_ev_profile(ctx, 9, &ea, MRC_CTL_EV_PROFILE_STATE |
					MRC_CTL_EV_PROFILE_MODE |
					MRC_CTL_EV_PROFILE_COUNT),
	      -1, EINVAL);
	FAILS("... and EV profile 9 is not left",
	      mrc_ctl_query_ev_profile(ctx, 9, &ea,
				       MRC_CTL_EV_PROFILE_CUR_STATE),
	      -1, ENOENT);
	ea.ev_count = 300;
	FAILS("an EV profile of 300 EVs",
	      mrc_ctl_modify_ev_profile(ctx, 9, &ea, MRC_CTL_EV_PROFILE_COUNT),
	      -1, EINVAL);

	ca.profile_state = MRC_CTL_PROFILE_ONLINE;
	ca.algorithm = "uet-1.0-nscc";
	ca.cc_config = &nscc;
	EQ("CC profile 2: new, nscc, online",
	   mrc_ctl_modify_cc_profile(ctx, 2, &ca, MRC_CTL_CC_PROFILE_STATE |
				     MRC_CTL_CC_PROFILE_ALGORITHM |
				     MRC_CTL_CC_PROFILE_CONFIG), 0);
	memset(&ca, 0, sizeof(ca));
	ca.cc_config = &back;
	EQ("query CC profile 2",
	   mrc_ctl_query_cc_profile(ctx, 2, &ca, MRC_CTL_CC_PROFILE_CUR_STATE |
				    MRC_CTL_CC_PROFILE_ALGORITHM |
				    MRC_CTL_CC_PROFILE_CONFIG), 0);
	EQ("CC profile 2: online, nscc", ca.cur_profile_state ==
	   MRC_CTL_PROFILE_ONLINE && !strcmp(ca.algorithm, "uet-1.0-nscc"), 1);
	EQ("CC profile 2: base RTT 20 us", back.base_rtt, 20000);
	EQ("CC profile 2: target 30.5 us kept as 31 us", back.target_delay,
	   31000);
	EQ("CC profile 2: gamma 0.8, eta 512, fi 4096",
	   back.gamma == 0.8f && back.eta == 512.0f && back.fi == 4096.0f, 1);
	ca.algorithm = NULL;
	FAILS("CC profile without an algorithm",
	      mrc_ctl_modify_cc_profile(ctx, 2, &ca,
					MRC_CTL_CC_PROFILE_ALGORITHM),
	      -1, EOPNOTSUPP);
	nscc.gamma = 1.5f;
	ca.cc_config = &nscc;
	FAILS("CC profile with gamma 1.5",
	      mrc_ctl_modify_cc_profile(ctx, 2, &ca, MRC_CTL_CC_PROFILE_CONFIG),
	      -1, EINVAL);
}

static void ctl(const char *name)
{
	struct ibv_context *vctx = open_dev(name);
	struct mrc_ctl_device_attr da;
	struct mrc_ctl_port_attr pa = {};
	struct mrc_context *ctx;
	uint32_t cur;
	int supported = -1, last, nrsp = 0;

	mrc_ctl_query_version(&cur, NULL, NULL, NULL);
	EQ("ctl_query_version: current 1.0.1", cur, MRC_CTL_API_VER(1, 0, 1));
	ctx = mrc_create_context(vctx, NULL);
	EQ("create_context", !!ctx, 1);
	if (!ctx)
		exit(1);
	EQ("ctl_query_device_ex", mrc_ctl_query_device_ex(vctx, ctx, &da,
							  &supported), 0);
	EQ("ctl_query_device_ex: supported", supported, 1);
	EQ("ctl_query_device: 8 planes are ports 1..8", da.phy_port_mask,
	   0x1fe);
	EQ("ctl_query_device: 256 EVs per profile", da.ev.ev_max_count_profile,
	   256);
	EQ("ctl_query_device: AUTO and EXP modes", da.ev.ev_mode_mask,
	   MRC_CTL_EV_MODE_AUTO | MRC_CTL_EV_MODE_EXP);
	EQ("ctl_query_device: NSCC is the algorithm",
	   da.cc.algorithms && da.cc.algorithms[0] &&
	   !strcmp(da.cc.algorithms[0], "uet-1.0-nscc") &&
	   !da.cc.algorithms[1], 1);
	EQ("ctl_query_device (1.0.0 form)", mrc_ctl_query_device(vctx, &da), 0);

	last = 8;
	EQ("query_port 8", mrc_ctl_query_port(ctx, last, &pa,
					      MRC_CTL_PORT_ADMIN_STATE), 0);
	EQ("port 8 starts enabled", pa.port_admin_state,
	   MRC_CTL_PORT_ADMIN_ENABLED);
	pa.port_admin_state = MRC_CTL_PORT_ADMIN_DISABLED;
	EQ("modify_port 8 disabled", mrc_ctl_modify_port(ctx, last, &pa,
							 MRC_CTL_PORT_ADMIN_STATE), 0);
	pa.port_admin_state = MRC_CTL_PORT_ADMIN_ENABLED;
	EQ("query_port 8 again", mrc_ctl_query_port(ctx, last, &pa,
						    MRC_CTL_PORT_ADMIN_STATE), 0);
	EQ("port 8 reads disabled", pa.port_admin_state,
	   MRC_CTL_PORT_ADMIN_DISABLED);
	/* The shell checks mrcctl's view here, then lets us go on. */
	printf("# port 8 down\n");
	fflush(stdout);
	if (getchar() == EOF)
		exit(3);
	pa.port_admin_state = MRC_CTL_PORT_ADMIN_ENABLED;
	EQ("modify_port 8 enabled", mrc_ctl_modify_port(ctx, last, &pa,
							MRC_CTL_PORT_ADMIN_STATE), 0);
	FAILS("query_port 0", mrc_ctl_query_port(ctx, 0, &pa,
						 MRC_CTL_PORT_ADMIN_STATE), -1, EINVAL);
	FAILS("query_port 9", mrc_ctl_query_port(ctx, 9, &pa,
						 MRC_CTL_PORT_ADMIN_STATE), -1, EINVAL);
	pa.port_admin_state = 7;
	FAILS("modify_port to state 7", mrc_ctl_modify_port(ctx, 1, &pa,
							    MRC_CTL_PORT_ADMIN_STATE), -1, EINVAL);

	profiles(ctx);
	FAILS("ep_batch_send_wait",
	      mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE, NULL, 0,
					 0, NULL, &nrsp), -1, EOPNOTSUPP);
	EQ("destroy_context", mrc_destroy_context(ctx), 0);
	ibv_close_device(vctx);
}

/* A 64 KiB WRITE from @qp to a buffer of its own PD, completed. */
static int write_64k(struct mrc_qp *qp, struct mrc_cq *cq, struct ibv_pd *pd)
{
	static unsigned char buf[2][65536];
	struct ibv_send_wr wr = {}, *bad;
	struct ibv_sge sge;
	struct ibv_mr *mr;
	struct ibv_wc wc;
	int n = 0, i;

	mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE);
	if (!mr)
		return -1;
	sge.addr = (uintptr_t)buf[0];
	sge.length = sizeof(buf[0]);
	sge.lkey = mr->lkey;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = (uintptr_t)buf[1];
	wr.wr.rdma.rkey = mr->rkey;
	if (mrc_post_send(qp, &wr, &bad))
		n = -1;
	for (i = 0; !n && i < 600000; i++) {
		n = mrc_poll_cq(cq, 1, &wc);
		if (!n)
			usleep(100);
	}
	ibv_dereg_mr(mr);
	return n == 1 && wc.status == IBV_WC_SUCCESS ? 0 : -1;
}

/*
 * EV events through the API: an AUTO EV profile (3) reporting both
 * transitions, two QPs of @name joined by loopback that name it, an event
 * queue bound to a channel; port 8 taken down through the API must wake
 * the channel and deliver an ASSUMED_BAD event for each EV of the QPs on
 * plane 7.  The shell, which counts those EVs in mrcctl's view, sends the
 * count on stdin; the EVs' source ports are printed for it to compare.
 */
static void event_group(const char *name, int gidx)
{
	struct ibv_context *vctx = open_dev(name);
	struct mrc_ctl_ev_profile_attr ea = {};
	struct mrc_ctl_port_attr pa = {};
	struct mrc_qp_init_attr qi = {};
	struct mrc_ctl_ev_event ev[64];
	struct mrc_comp_channel *ch;
	struct mrc_context *ctx;
	struct mrc_cq *evq, *got, *cq;
	struct pollfd pfd = {};
	union ibv_gid gid;
	struct mrc_qp *a, *b;
	uint32_t qa, qb;
	int want = -1, n = 0, i, bad = 0, tag = 7;
	void *gctx;

	ctx = mrc_create_context(vctx, NULL);
	EQ("events: context", !!ctx, 1);
	if (!ctx)
		exit(1);
	ea.profile_state = MRC_CTL_PROFILE_ONLINE;
	ea.ev_mode = MRC_CTL_EV_MODE_AUTO;
	ea.ev_count = 16;
	ea.ev_event_mask = MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD;
	EQ("events: EV profile 3, auto, 16 EVs, both events, online",
	   mrc_ctl_modify_ev_profile(ctx, 3, &ea, MRC_CTL_EV_PROFILE_STATE |
				     MRC_CTL_EV_PROFILE_MODE |
				     MRC_CTL_EV_PROFILE_COUNT |
				     MRC_CTL_EV_PROFILE_EVENT_MASK), 0);
	EQ("events: channel", mrc_create_comp_channel(ctx, &ch), 0);
	evq = mrc_ctl_create_ev_event_cq(ctx, 64, &tag, ch, 0);
	EQ("events: event queue bound to the channel", !!evq, 1);
	if (!evq)
		exit(1);
	EQ("events: poll_cq on an event queue: -1",
	   mrc_poll_cq(evq, 1, NULL), -1);
	EQ("events: poll_ev_event on an empty queue",
	   mrc_ctl_poll_ev_event(evq, 64, ev), 0);
	EQ("events: req_notify on the queue", mrc_req_notify_cq(evq, 0), 0);

	cq = mrc_create_cq(ctx, 16, NULL, NULL, 0);
	qi.send_cq = cq;
	qi.recv_cq = cq;
	qi.pd = ibv_alloc_pd(vctx);
	qi.cap.max_send_wr = 4;
	qi.cap.max_recv_wr = 4;
	qi.cap.max_send_sge = 1;
	qi.cap.max_recv_sge = 1;
	a = mrc_create_qp(ctx, &qi);
	b = mrc_create_qp(ctx, &qi);
	EQ("events: two QPs", a && b && !mrc_get_qpn(a, &qa) &&
	   !mrc_get_qpn(b, &qb), 1);
	if (!a || !b)
		exit(1);
	EQ("events: query_gid", ibv_query_gid(vctx, 1, gidx, &gid), 0);
	EQ("events: both QPs to RTS naming EV profile 3",
	   connect_qp(a, qb, gidx, &gid, NULL, 3) ||
	   connect_qp(b, qa, gidx, &gid, NULL, 3), 0);

	pa.port_admin_state = MRC_CTL_PORT_ADMIN_DISABLED;
	EQ("events: port 8 down through the API",
	   mrc_ctl_modify_port(ctx, 8, &pa, MRC_CTL_PORT_ADMIN_STATE), 0);
	/*
	 * A QP finds a slot's plane down when its rotation reaches the slot:
	 * 64 packets from each QP pass every slot of its 16.
	 */
	EQ("events: a 64 KiB WRITE from each QP after it",
	   write_64k(a, cq, qi.pd) || write_64k(b, cq, qi.pd), 0);
	EQ("events: channel fd", mrc_get_comp_channel_fd(ch, &pfd.fd), 0);
	pfd.events = POLLIN;
	EQ("events: the channel wakes", poll(&pfd, 1, 60000), 1);
	EQ("events: get_cq_event names the event queue",
	   !mrc_get_cq_event(ch, &got, &gctx) && got == evq && gctx == &tag, 1);
	printf("# port 8 down qpns %u %u\n", qa, qb);
	fflush(stdout);
	if (scanf("%d", &want) != 1 || want < 1 || want > 64)
		exit(3);
	/* Every one of them: the shell saw them all ASSUMED_BAD already. */
	for (i = 0; n < want && i < 600; i++) {
		int k = mrc_ctl_poll_ev_event(evq, 64 - n, ev + n);

		if (k < 0)
			break;
		n += k;
		if (n < want) {
			EQ_QUIET(mrc_req_notify_cq(evq, 0), 0);
			if (poll(&pfd, 1, 100) == 1)
				mrc_get_cq_event(ch, &got, &gctx);
		}
	}
	EQ("events: as many as mrcctl shows assumed-bad on plane 7", n, want);
	for (i = 0; i < n; i++) {
		uint32_t sport = ev[i].ev.val[0] | ev[i].ev.val[1] << 8;

		bad += ev[i].profile_id != 3 || ev[i].ev.port != 8 ||
		       ev[i].state != MRC_CTL_EV_ASSUMED_BAD ||
		       ev[i].drop_count;
		printf("sport %u\n", sport);
	}
	EQ("events: each of profile 3, port 8, assumed-bad, nothing lost", bad, 0);
	EQ("events: no more", mrc_ctl_poll_ev_event(evq, 64, ev), 0);

	pa.port_admin_state = MRC_CTL_PORT_ADMIN_ENABLED;
	EQ("events: port 8 up again",
	   mrc_ctl_modify_port(ctx, 8, &pa, MRC_CTL_PORT_ADMIN_STATE), 0);
	FAILS("events: destroy the channel while the queue is bound",
	      mrc_destroy_comp_channel(ch), EBUSY, EBUSY);
	EQ("events: destroy all",
	   mrc_destroy_qp(a) || mrc_destroy_qp(b) || mrc_destroy_cq(cq) ||
	   mrc_destroy_cq(evq) || mrc_destroy_comp_channel(ch) ||
	   mrc_destroy_context(ctx), 0);
	ibv_close_device(vctx);
}

/* A QP whose owner sets its MRC attributes; held until stdin closes. */
static void hold(const char *name)
{
	struct ibv_context *vctx = open_dev(name);
	struct mrc_qp_init_attr qi = {};
	struct mrc_qp_attr m = {};
	struct mrc_context *ctx;
	struct mrc_cq *cq;
	struct mrc_qp *qp;
	uint32_t qpn = 0;

	ctx = mrc_create_context(vctx, NULL);
	cq = ctx ? mrc_create_cq(ctx, 16, NULL, NULL, 0) : NULL;
	qi.send_cq = cq;
	qi.recv_cq = cq;
	qi.pd = ibv_alloc_pd(vctx);
	qi.cap.max_send_wr = 4;
	qi.cap.max_recv_wr = 4;
	qi.cap.max_send_sge = 1;
	qi.cap.max_recv_sge = 1;
	qp = cq ? mrc_create_qp(ctx, &qi) : NULL;
	EQ("holder: context, CQ and QP", !!qp, 1);
	if (!qp)
		exit(1);
	mrc_get_qpn(qp, &qpn);
	m.mpr.mpr = 4;
	m.timeout = 16;
	EQ("holder: the owner sets mpr 4 and timeout 16",
	   mrc_modify_qp(qp, NULL, 0, &m, MRC_QP_MPR | MRC_QP_TIMEOUT), 0);
	printf("qpn %u\n", qpn);
	fflush(stdout);
	while (getchar() != EOF)
		;
	memset(&m, 0, sizeof(m));
	EQ("holder: query_qp", mrc_query_qp(qp, NULL, 0, &m,
					    MRC_QP_MPR | MRC_QP_TIMEOUT, NULL), 0);
	printf("mpr %u timeout %u\n", m.mpr.mpr, m.timeout);
	mrc_destroy_qp(qp);
	mrc_destroy_cq(cq);
	mrc_destroy_context(ctx);
	ibv_close_device(vctx);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "app")) {
		app(argv[2], atoi(argv[3]));
	} else if (argc == 3 && !strcmp(argv[1], "ctl")) {
		ctl(argv[2]);
	} else if (argc == 4 && !strcmp(argv[1], "events")) {
		event_group(argv[2], atoi(argv[3]));
	} else if (argc == 3 && !strcmp(argv[1], "hold")) {
		hold(argv[2]);
	} else {
		fprintf(stderr, "usage: %s app DEV GIDX | ctl DEV | events DEV GIDX | hold DEV\n",
			argv[0]);
		return 2;
	}
	printf("1..%u\n", ntest);
	return nfail ? 1 : 0;
}
