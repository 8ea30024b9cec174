// SPDX-License-Identifier: GPL-2.0
/*
 * mrc-rcerr: the error paths of an RC queue pair over mrc, end to end, with
 * the exact work completion status on both sides, and the semantics of its
 * atomics (each runs once, from several QPs at once on one counter).
 *
 * One process opens two RDMA devices (in the selftests, mrc devices in two
 * network namespaces: RDMA devices are shared between namespaces) and, for
 * each case, connects fresh QPs between them directly, so that it sees both
 * ends of every failure: which completions each side gets, in what order and
 * with what status, which state each QP is left in, what memory changed.
 * Two cases fork: one checks that a forked child does not disturb transfers
 * in flight, one kills a process that owns a QP in the middle of traffic.
 *
 * Output: one "ok N - CASE" or "not ok N - CASE" line per case, with "#" lines
 * saying what differed.  Exit status: 0 when every case passed, 1 otherwise,
 * 2 for usage errors, 3 when the devices cannot be opened.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KiB		1024ULL
#define MiB		(1024 * KiB)
#define GiB		(1024 * MiB)
#define ULL(v)		((unsigned long long)(v))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ACCESS_ALL	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
			 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)
#define CANARY		4096	/* bytes either side of every MR */

struct dev {
	const char *name;
	int gid_idx;
	struct ibv_context *ctx;
	union ibv_gid gid;
};

/* What a pair is made of; cfg_default() gives the usual values. */
struct cfg {
	uint32_t sq_wr, rq_wr, cqe;
	uint64_t len;			/* bytes of each side's MR */
	enum ibv_mtu mtu;
	uint32_t a_psn, b_psn;		/* each side's first send PSN */
	uint8_t timeout, retry_cnt, rnr_retry, min_rnr_timer;
	uint8_t max_dest_rd_atomic;
	uint32_t b_srq_wr;		/* B's QP receives from an SRQ this deep */
	uint64_t a_send_ops;		/* A's QP from ibv_create_qp_ex with these */
};

/* One end: its own PD, CQs, QP and MR over buf + CANARY. */
struct end {
	struct dev *d;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *scq, *rcq;
	struct ibv_qp *qp;
	struct ibv_srq *srq;
	struct ibv_mr *mr;
	uint8_t *buf;			/* CANARY, the MR's bytes, CANARY */
	uint8_t *mem;			/* the MR's bytes */
	uint64_t len;
	uint32_t sq_cap;
	uint32_t psn;
};

struct pair {
	struct end a, b;
	struct cfg c;
};

/* The peer's coordinates, as a pipe carries them between processes. */
struct coord {
	uint32_t qpn, psn, rkey;
	uint64_t addr;
	union ibv_gid gid;
};

struct want {
	uint64_t wr_id;
	enum ibv_wc_status status;
};

static struct dev dev_a, dev_b;
static bool long_cases;
static uint64_t max_size = 16 * MiB;	/* -s */
static int wait_ms = 20000;		/* -w: for a completion that must come */
static const char *mrcctl;		/* -m: for attributes verbs lacks */
static const char *netns_b;		/* -n: device B's network namespace */
static int case_fails;

static void fail(const char *fmt, ...)
{
	va_list ap;

	case_fails++;
	fputs("#   ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void note(const char *fmt, ...)
{
	va_list ap;

	fputs("#   ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

static void fill(uint8_t *p, uint64_t len, uint64_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1, i;

	for (i = 0; i < len; i++) {
		if (!(i & 7)) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		p[i] = x >> ((i & 7) * 8);
	}
}

/* Bytes of [p, p + len) that differ from fill(seed); 0 when all match. */
static uint64_t differ(const uint8_t *p, uint64_t len, uint64_t seed)
{
	uint64_t n = 0, i, chunk = 64 * KiB;
	uint8_t *ref = malloc(chunk);

	if (!ref)
		return len;
	for (i = 0; i < len; i += chunk) {
		uint64_t c = len - i < chunk ? len - i : chunk, j;

		/* The pattern restarts per chunk: fill the chunk's own. */
		fill(ref, c, seed + i / chunk);
		for (j = 0; j < c; j++)
			n += p[i + j] != ref[j];
	}
	free(ref);
	return n;
}

/* fill() chunk by chunk, as differ() reads it. */
static void fill_msg(uint8_t *p, uint64_t len, uint64_t seed)
{
	uint64_t i, chunk = 64 * KiB;

	for (i = 0; i < len; i += chunk)
		fill(p + i, len - i < chunk ? len - i : chunk, seed + i / chunk);
}

/* Bytes of [p, p + len) that are not zero (never written: mmap()ed). */
static uint64_t nonzero(const uint8_t *p, uint64_t len)
{
	uint64_t n = 0, i;

	for (i = 0; i < len; i++)
		n += p[i] != 0;
	return n;
}

static uint64_t canary_changed(const struct end *e)
{
	uint64_t n = 0, i;

	for (i = 0; i < CANARY; i++) {
		n += e->buf[i] != 0xa5;
		n += e->mem[e->len + i] != 0xa5;
	}
	return n;
}

static struct cfg cfg_default(void)
{
	static uint32_t seq;

	seq++;
	return (struct cfg) {
		.sq_wr = 64, .rq_wr = 64, .cqe = 256,
		.len = 1 * MiB,
		.mtu = IBV_MTU_1024,
		.a_psn = (seq * 7919) & 0xffffff,
		.b_psn = (seq * 104729) & 0xffffff,
		.timeout = 14, .retry_cnt = 7, .rnr_retry = 7,
		.min_rnr_timer = 1, .max_dest_rd_atomic = 16,
	};
}

static int dev_open(struct dev *d)
{
	struct ibv_device **list;
	int i, n;

	list = ibv_get_device_list(&n);
	if (!list)
		return -1;
	for (i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), d->name))
			break;
	d->ctx = i < n ? ibv_open_device(list[i]) : NULL;
	ibv_free_device_list(list);
	if (!d->ctx) {
		fprintf(stderr, "mrc-rcerr: cannot open %s\n", d->name);
		return -1;
	}
	if (ibv_query_gid(d->ctx, 1, d->gid_idx, &d->gid)) {
		fprintf(stderr, "mrc-rcerr: %s has no GID %d\n", d->name,
			d->gid_idx);
		return -1;
	}
	fcntl(d->ctx->async_fd, F_SETFL,
	      fcntl(d->ctx->async_fd, F_GETFL) | O_NONBLOCK);
	return 0;
}

/* The next async event of @d within @ms, acknowledged; false if none. */
static bool async_next(struct dev *d, int ms, struct ibv_async_event *out)
{
	struct pollfd pfd = { .fd = d->ctx->async_fd, .events = POLLIN };
	struct ibv_async_event ev;

	if (poll(&pfd, 1, ms) <= 0 || ibv_get_async_event(d->ctx, &ev))
		return false;
	*out = ev;
	ibv_ack_async_event(&ev);
	return true;
}

static void async_drain(struct dev *d)
{
	struct ibv_async_event ev;

	while (async_next(d, 0, &ev))
		;
}

/* Wait up to @ms for an event of @type about @obj (a QP, CQ or SRQ) on @d. */
static bool async_wait(struct dev *d, enum ibv_event_type type,
		       const void *obj, int ms)
{
	uint64_t end = now_ms() + ms;
	struct ibv_async_event ev;

	while (now_ms() < end) {
		if (!async_next(d, (int)(end - now_ms()), &ev))
			continue;
		/* element is a union of the pointers. */
		if (ev.event_type == type && (const void *)ev.element.qp == obj)
			return true;
		note("async event %s seen", ibv_event_type_str(ev.event_type));
	}
	return false;
}

static int end_make(struct end *e, struct dev *d, struct ibv_context *ctx,
		    const struct cfg *c, uint32_t psn)
{
	struct ibv_qp_init_attr qia = { 0 };
	uint64_t size = c->len + 2 * CANARY;

	memset(e, 0, sizeof(*e));
	e->d = d;
	e->ctx = ctx;
	e->len = c->len;
	e->psn = psn;
	e->buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (e->buf == MAP_FAILED) {
		e->buf = NULL;
		fail("%s: mmap %llu bytes: %s", d->name, ULL(size),
		     strerror(errno));
		return -1;
	}
	memset(e->buf, 0xa5, CANARY);
	memset(e->buf + CANARY + c->len, 0xa5, CANARY);
	e->mem = e->buf + CANARY;
	e->pd = ibv_alloc_pd(ctx);
	e->scq = e->pd ? ibv_create_cq(ctx, c->cqe, NULL, NULL, 0) : NULL;
	e->rcq = e->scq ? ibv_create_cq(ctx, 256, NULL, NULL, 0) : NULL;
	e->mr = e->rcq ? ibv_reg_mr(e->pd, e->mem, c->len, ACCESS_ALL) : NULL;
	if (!e->mr) {
		fail("%s: PD, CQs or MR: %s", d->name, strerror(errno));
		return -1;
	}
	qia.send_cq = e->scq;
	qia.recv_cq = e->rcq;
	qia.qp_type = IBV_QPT_RC;
	qia.cap.max_send_wr = c->sq_wr;
	qia.cap.max_recv_wr = c->rq_wr;
	qia.cap.max_send_sge = 2;
	qia.cap.max_recv_sge = 2;
	if (d == &dev_b && c->b_srq_wr) {
		struct ibv_srq_init_attr sia = {
			.attr = { .max_wr = c->b_srq_wr, .max_sge = 2 },
		};

		e->srq = ibv_create_srq(e->pd, &sia);
		if (!e->srq) {
			fail("%s: ibv_create_srq: %s", d->name,
			     strerror(errno));
			return -1;
		}
		qia.srq = e->srq;
	}
	if (d == &dev_a && c->a_send_ops) {
		struct ibv_qp_init_attr_ex qx = {
			.send_cq = qia.send_cq, .recv_cq = qia.recv_cq,
			.cap = qia.cap, .qp_type = IBV_QPT_RC, .pd = e->pd,
			.comp_mask = IBV_QP_INIT_ATTR_PD |
				     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
			.send_ops_flags = c->a_send_ops,
		};

		qx.cap.max_inline_data = 64;
		e->qp = ibv_create_qp_ex(ctx, &qx);
	} else {
		e->qp = ibv_create_qp(e->pd, &qia);
	}
	if (!e->qp) {
		fail("%s: ibv_create_qp: %s", d->name, strerror(errno));
		return -1;
	}
	e->sq_cap = qia.cap.max_send_wr;
	return 0;
}

static void end_free(struct end *e)
{
	if (e->qp)
		ibv_destroy_qp(e->qp);
	if (e->srq)
		ibv_destroy_srq(e->srq);
	if (e->mr)
		ibv_dereg_mr(e->mr);
	if (e->rcq)
		ibv_destroy_cq(e->rcq);
	if (e->scq)
		ibv_destroy_cq(e->scq);
	if (e->pd)
		ibv_dealloc_pd(e->pd);
	if (e->buf)
		munmap(e->buf, e->len + 2 * CANARY);
	memset(e, 0, sizeof(*e));
}

static int to_init(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = ACCESS_ALL,
	};

	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			     IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
}

static struct ibv_qp_attr rtr_attr(const struct cfg *c, const struct coord *peer,
				   int gid_idx)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = c->mtu,
		.dest_qp_num = peer->qpn,
		.rq_psn = peer->psn,
		.max_dest_rd_atomic = c->max_dest_rd_atomic,
		.min_rnr_timer = c->min_rnr_timer,
	};

	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = peer->gid;
	a.ah_attr.grh.sgid_index = gid_idx;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = 1;
	return a;
}

#define RTR_MASK	(IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | \
			 IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | \
			 IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER)
#define RTS_MASK	(IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | \
			 IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | \
			 IBV_QP_MAX_QP_RD_ATOMIC)

static int to_rtr(struct end *e, const struct cfg *c, const struct coord *peer)
{
	struct ibv_qp_attr a = rtr_attr(c, peer, e->d->gid_idx);

	return ibv_modify_qp(e->qp, &a, RTR_MASK);
}

static int to_rts(struct end *e, const struct cfg *c)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTS,
		.sq_psn = e->psn,
		.timeout = c->timeout,
		.retry_cnt = c->retry_cnt,
		.rnr_retry = c->rnr_retry,
		.max_rd_atomic = 16,
	};

	return ibv_modify_qp(e->qp, &a, RTS_MASK);
}

static struct coord coord_of(const struct end *e)
{
	return (struct coord) {
		.qpn = e->qp->qp_num, .psn = e->psn, .rkey = e->mr->rkey,
		.addr = (uintptr_t)e->mem, .gid = e->d->gid,
	};
}

static int end_connect(struct end *e, const struct cfg *c,
		       const struct coord *peer)
{
	int err = to_init(e->qp);

	if (!err)
		err = to_rtr(e, c, peer);
	if (!err)
		err = to_rts(e, c);
	if (err)
		fail("%s: connecting QP %u: %s", e->d->name, e->qp->qp_num,
		     strerror(err));
	return err;
}

static int pair_connect(struct pair *p)
{
	struct coord ca = coord_of(&p->a), cb = coord_of(&p->b);

	if (end_connect(&p->a, &p->c, &cb) || end_connect(&p->b, &p->c, &ca))
		return -1;
	return 0;
}

static int pair_make(struct pair *p, const struct cfg *c)
{
	memset(p, 0, sizeof(*p));
	p->c = *c;
	if (end_make(&p->a, &dev_a, dev_a.ctx, c, c->a_psn) ||
	    end_make(&p->b, &dev_b, dev_b.ctx, c, c->b_psn))
		return -1;
	return pair_connect(p);
}

static void pair_free(struct pair *p)
{
	end_free(&p->a);
	end_free(&p->b);
}

static struct ibv_send_wr *send_wr(struct ibv_send_wr *wr, struct ibv_sge *sge,
				   uint64_t wr_id, enum ibv_wr_opcode op,
				   const struct end *e, uint64_t off,
				   uint32_t len, const struct end *peer,
				   uint64_t roff)
{
	memset(wr, 0, sizeof(*wr));
	*sge = (struct ibv_sge) {
		.addr = (uintptr_t)e->mem + off, .length = len,
		.lkey = e->mr ? e->mr->lkey : 0,
	};
	wr->wr_id = wr_id;
	wr->opcode = op;
	wr->sg_list = sge;
	wr->num_sge = 1;
	wr->send_flags = IBV_SEND_SIGNALED;
	if (peer) {
		wr->wr.rdma.remote_addr = (uintptr_t)peer->mem + roff;
		wr->wr.rdma.rkey = peer->mr ? peer->mr->rkey : 0;
	}
	return wr;
}

/* Post one signaled WR of @e's MR bytes [off, +len) to @peer's at @roff. */
static int post(struct end *e, uint64_t wr_id, enum ibv_wr_opcode op,
		uint64_t off, uint32_t len, const struct end *peer,
		uint64_t roff)
{
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sge;
	int err;

	err = ibv_post_send(e->qp, send_wr(&wr, &sge, wr_id, op, e, off, len,
					   peer, roff), &bad);
	if (err)
		fail("%s: ibv_post_send wr %llu: %s", e->d->name, ULL(wr_id),
		     strerror(err));
	return err;
}

static int post_recv(struct end *e, uint64_t wr_id, uint64_t off,
		     uint32_t len, uint32_t lkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)e->mem + off, .length = len, .lkey = lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge,
				  .num_sge = 1 }, *bad;
	int err = ibv_post_recv(e->qp, &wr, &bad);

	if (err)
		fail("%s: ibv_post_recv wr %llu: %s", e->d->name, ULL(wr_id),
		     strerror(err));
	return err;
}

/* Up to @n completions within @ms; returns how many came. */
static int poll_n(struct ibv_cq *cq, struct ibv_wc *wc, int n, int ms)
{
	uint64_t end = now_ms() + ms;
	int got = 0, r;

	while (got < n) {
		r = ibv_poll_cq(cq, n - got, wc + got);
		if (r < 0)
			return got;
		got += r;
		if (got < n && !r) {
			if (now_ms() >= end)
				break;
			usleep(100);
		}
	}
	return got;
}

/*
 * The completions of @cq are exactly @w, in order: they arrive within @ms
 * and none follows at once.
 */
static void expect_wcs_within(const char *what, struct ibv_cq *cq,
			      const struct want *w, int n, int ms)
{
	struct ibv_wc wc[64], extra;
	int got, i;

	got = poll_n(cq, wc, n, ms);
	for (i = 0; i < got; i++)
		if (wc[i].wr_id != w[i].wr_id || wc[i].status != w[i].status)
			fail("%s: completion %d is wr %llu \"%s\", want wr %llu \"%s\"",
			     what, i, ULL(wc[i].wr_id),
			     ibv_wc_status_str(wc[i].status), ULL(w[i].wr_id),
			     ibv_wc_status_str(w[i].status));
	if (got < n)
		fail("%s: %d of %d completions", what, got, n);
	if (poll_n(cq, &extra, 1, 0))
		fail("%s: one completion too many: wr %llu \"%s\"", what,
		     ULL(extra.wr_id), ibv_wc_status_str(extra.status));
}

static void expect_wcs(const char *what, struct ibv_cq *cq,
		       const struct want *w, int n)
{
	expect_wcs_within(what, cq, w, n, wait_ms);
}

static enum ibv_qp_state qp_state(struct ibv_qp *qp)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	if (ibv_query_qp(qp, &a, IBV_QP_STATE, &ia))
		return -1;
	return a.qp_state;
}

static const char *state_str(int s)
{
	static const char *const names[] = {
		"RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR"
	};

	return s >= 0 && s < (int)ARRAY_SIZE(names) ? names[s] : "?";
}

static void expect_state(const char *what, struct ibv_qp *qp,
			 enum ibv_qp_state want)
{
	enum ibv_qp_state s = qp_state(qp);

	if (s != want)
		fail("%s: QP %u is %s, want %s", what, qp->qp_num, state_str(s),
		     state_str(want));
}

static void expect_eq(const char *what, long long got, long long want)
{
	if (got != want)
		fail("%s: %lld, want %lld", what, got, want);
}

/* ------------------------------------------------------------------ */

/*
 * The cause completes first, then every WR behind it is flushed, on both
 * queues of both sides: a WRITE with a wrong rkey fails A with a remote
 * access error and B (whose rkey check refused it) too.
 */
static void c_flush_order(void)
{
	struct cfg c = cfg_default();
	struct ibv_send_wr wr[3], *bad;
	struct ibv_sge sge[3];
	struct pair p;

	if (pair_make(&p, &c))
		goto out;
	post_recv(&p.a, 100, 0, 64, p.a.mr->lkey);
	post_recv(&p.a, 101, 64, 64, p.a.mr->lkey);
	post_recv(&p.b, 200, 0, 64, p.b.mr->lkey);
	send_wr(&wr[0], &sge[0], 1, IBV_WR_RDMA_WRITE, &p.a, 0, 64, &p.b, 0);
	wr[0].wr.rdma.rkey ^= 0x80;
	send_wr(&wr[1], &sge[1], 2, IBV_WR_SEND, &p.a, 0, 64, NULL, 0);
	send_wr(&wr[2], &sge[2], 3, IBV_WR_RDMA_WRITE, &p.a, 0, 64, &p.b, 64);
	wr[0].next = &wr[1];
	wr[1].next = &wr[2];
	expect_eq("ibv_post_send of three", ibv_post_send(p.a.qp, wr, &bad), 0);
	expect_wcs("A send queue", p.a.scq, (struct want[]) {
		{ 1, IBV_WC_REM_ACCESS_ERR }, { 2, IBV_WC_WR_FLUSH_ERR },
		{ 3, IBV_WC_WR_FLUSH_ERR } }, 3);
	expect_wcs("A receive queue", p.a.rcq, (struct want[]) {
		{ 100, IBV_WC_WR_FLUSH_ERR }, { 101, IBV_WC_WR_FLUSH_ERR } }, 2);
	expect_wcs("B receive queue", p.b.rcq, (struct want[]) {
		{ 200, IBV_WC_WR_FLUSH_ERR } }, 1);
	expect_state("A", p.a.qp, IBV_QPS_ERR);
	expect_state("B", p.b.qp, IBV_QPS_ERR);
	expect_eq("bytes written at B", nonzero(p.b.mem, 128), 0);
out:
	pair_free(&p);
}

/* No receive WQE at B, one RNR retry allowed: A's SEND fails, B stays up. */
static void c_rnr_retry_exc(void)
{
	struct cfg c = cfg_default();
	struct pair p;

	c.rnr_retry = 1;
	if (pair_make(&p, &c))
		goto out;
	post(&p.a, 1, IBV_WR_SEND, 0, 64, NULL, 0);
	post(&p.a, 2, IBV_WR_RDMA_WRITE, 0, 64, &p.b, 0);
	expect_wcs("A send queue", p.a.scq, (struct want[]) {
		{ 1, IBV_WC_RNR_RETRY_EXC_ERR }, { 2, IBV_WC_WR_FLUSH_ERR } }, 2);
	expect_state("A", p.a.qp, IBV_QPS_ERR);
	expect_state("B", p.b.qp, IBV_QPS_RTS);
	expect_wcs("B receive queue", p.b.rcq, NULL, 0);
out:
	pair_free(&p);
}

/* B is gone to ERR and answers nothing: A retries, then gives up. */
static void c_retry_exc(void)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
	struct cfg c = cfg_default();
	uint64_t t;
	struct pair p;

	c.retry_cnt = 1;
	c.timeout = 10;
	if (pair_make(&p, &c))
		goto out;
	expect_eq("B to ERR", ibv_modify_qp(p.b.qp, &a, IBV_QP_STATE), 0);
	t = now_ms();
	post(&p.a, 1, IBV_WR_RDMA_WRITE, 0, 4096, &p.b, 0);
	post(&p.a, 2, IBV_WR_SEND, 0, 64, NULL, 0);
	expect_wcs("A send queue", p.a.scq, (struct want[]) {
		{ 1, IBV_WC_RETRY_EXC_ERR }, { 2, IBV_WC_WR_FLUSH_ERR } }, 2);
	note("retry exhausted after %llu ms", ULL(now_ms() - t));
	expect_state("A", p.a.qp, IBV_QPS_ERR);
	expect_eq("bytes written at B", nonzero(p.b.mem, 4096), 0);
out:
	pair_free(&p);
}

/*
 * A SEND longer than B's receive buffer: A sees an invalid request, B's WQE
 * a local length error, and the rest of B's receive queue is flushed.
 */
static void c_rem_inv_req(void)
{
	struct cfg c = cfg_default();
	struct pair p;

	if (pair_make(&p, &c))
		goto out;
	post_recv(&p.b, 200, 0, 64, p.b.mr->lkey);
	post_recv(&p.b, 201, 64, 64, p.b.mr->lkey);
	post(&p.a, 1, IBV_WR_SEND, 0, 128, NULL, 0);
	post(&p.a, 2, IBV_WR_SEND, 0, 16, NULL, 0);
	expect_wcs("A send queue", p.a.scq, (struct want[]) {
		{ 1, IBV_WC_REM_INV_REQ_ERR }, { 2, IBV_WC_WR_FLUSH_ERR } }, 2);
	expect_wcs("B receive queue", p.b.rcq, (struct want[]) {
		{ 200, IBV_WC_LOC_LEN_ERR }, { 201, IBV_WC_WR_FLUSH_ERR } }, 2);
	expect_state("A", p.a.qp, IBV_QPS_ERR);
	expect_state("B", p.b.qp, IBV_QPS_ERR);
	expect_eq("B's canaries changed", canary_changed(&p.b), 0);
out:
	pair_free(&p);
}

/*
 * A SEND_WITH_INV naming B's MR, which is no fast registration (a user's
 * never is): A sees an invalid request, B's receive WQE a remote invalid
 * request error with nothing placed, the rest of B's queue is flushed, and
 * the MR stays usable.
 */
static void c_send_inv(void)
{
	struct ibv_send_wr wr, *bad;
	struct cfg c = cfg_default();
	struct ibv_sge sge;
	struct pair p;

	if (pair_make(&p, &c))
		goto out;
	post_recv(&p.b, 300, 0, 64, p.b.mr->lkey);
	post_recv(&p.b, 301, 64, 64, p.b.mr->lkey);
	send_wr(&wr, &sge, 1, IBV_WR_SEND_WITH_INV, &p.a, 0, 32, NULL, 0);
	wr.invalidate_rkey = p.b.mr->rkey;
	expect_eq("posting SEND_WITH_INV", ibv_post_send(p.a.qp, &wr, &bad), 0);
	expect_wcs("A send queue", p.a.scq, (struct want[]) {
		{ 1, IBV_WC_REM_INV_REQ_ERR } }, 1);
	expect_wcs("B receive queue", p.b.rcq, (struct want[]) {
		{ 300, IBV_WC_REM_INV_REQ_ERR }, { 301, IBV_WC_WR_FLUSH_ERR } }, 2);
	expect_state("A", p.a.qp, IBV_QPS_ERR);
	expect_state("B", p.b.qp, IBV_QPS_ERR);
	expect_eq("bytes placed in B", nonzero(p.b.mem, 128), 0);
	expect_eq("B's canaries changed", canary_changed(&p.b), 0);
out:
	pair_free(&p);
}

/*
 * READs and WRITEs B's MR does not allow: a wrong rkey, one byte past its
 * end, one byte before its start.  A's WR fails with a remote access error,
 * nothing is read into A or written into B, both QPs end in ERR.
 */
static void c_rem_access(void)
{
	static const struct {
		const char *name;
		enum ibv_wr_opcode op;
		uint32_t rkey_xor;
		int64_t roff;
	} t[] = {
		{ "READ, wrong rkey", IBV_WR_RDMA_READ, 0x80, 0 },
		{ "READ, a byte past the end", IBV_WR_RDMA_READ, 0, -63 },
		{ "READ, a byte before the start", IBV_WR_RDMA_READ, 0, -1 },
		{ "WRITE, wrong rkey", IBV_WR_RDMA_WRITE, 0x80, 0 },
		{ "WRITE, a byte past the end", IBV_WR_RDMA_WRITE, 0, -63 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct cfg c = cfg_default();
		struct ibv_send_wr wr, *bad;
		struct ibv_sge sge;
		struct pair p;
		char what[96];
		int j;

		c.len = 64 * KiB;
		if (pair_make(&p, &c))
			goto next;
		memset(p.a.mem, 0x11, 64);
		fill(p.b.mem, c.len, 7);
		/* past the end: the last 63 bytes and one more */
		send_wr(&wr, &sge, 1, t[i].op, &p.a, 0, 64, &p.b,
			t[i].roff < -1 ? c.len + t[i].roff : 0);
		if (t[i].roff == -1)
			wr.wr.rdma.remote_addr -= 1;
		wr.wr.rdma.rkey ^= t[i].rkey_xor;
		expect_eq(t[i].name, ibv_post_send(p.a.qp, &wr, &bad), 0);
		snprintf(what, sizeof(what), "%s: A send queue", t[i].name);
		expect_wcs(what, p.a.scq, (struct want[]) {
			{ 1, IBV_WC_REM_ACCESS_ERR } }, 1);
		snprintf(what, sizeof(what), "%s: A", t[i].name);
		expect_state(what, p.a.qp, IBV_QPS_ERR);
		snprintf(what, sizeof(what), "%s: B", t[i].name);
		expect_state(what, p.b.qp, IBV_QPS_ERR);
		for (j = 0; j < 64; j++)
			if (p.a.mem[j] != 0x11) {
				fail("%s: A's byte %d changed", t[i].name, j);
				break;
			}
		snprintf(what, sizeof(what), "%s: bytes changed in B", t[i].name);
		expect_eq(what, differ(p.b.mem, c.len, 7), 0);
		snprintf(what, sizeof(what), "%s: canaries changed", t[i].name);
		expect_eq(what, canary_changed(&p.a) + canary_changed(&p.b), 0);
next:
		pair_free(&p);
	}
}

/*
 * B's receive WQE names memory it has no key for: A's SEND fails with a
 * remote operational error, B's WQE with a local protection error.
 */
static void c_rem_op(void)
{
	struct cfg c = cfg_default();
	struct pair p;

	if (pair_make(&p, &c))
		goto out;
	post_recv(&p.b, 200, 0, 64, p.b.mr->lkey ^ 0x80);
	post_recv(&p.b, 201, 64, 64, p.b.mr->lkey);
	post(&p.a, 1, IBV_WR_SEND, 0, 64, NULL, 0);
	expect_wcs("A send queue", p.a.scq, (struct want[]) {
		{ 1, IBV_WC_REM_OP_ERR } }, 1);
	expect_wcs("B receive queue", p.b.rcq, (struct want[]) {
		{ 200, IBV_WC_LOC_PROT_ERR }, { 201, IBV_WC_WR_FLUSH_ERR } }, 2);
	expect_state("A", p.a.qp, IBV_QPS_ERR);
	expect_state("B", p.b.qp, IBV_QPS_ERR);
out:
	pair_free(&p);
}

/*
 * A's own WQE names memory it has no key for, or runs past its MR: a local
 * protection error at A, nothing sent, B untouched and still connected.
 */
static void c_loc_prot(void)
{
	static const struct {
		const char *name;
		enum ibv_wr_opcode op;
		uint32_t lkey_xor;
		uint64_t off;
	} t[] = {
		{ "SEND, wrong lkey", IBV_WR_SEND, 0x80, 0 },
		{ "SEND, a byte past the MR", IBV_WR_SEND, 0, 64 * KiB - 63 },
		{ "WRITE, wrong lkey", IBV_WR_RDMA_WRITE, 0x80, 0 },
		{ "READ into a wrong lkey", IBV_WR_RDMA_READ, 0x80, 0 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct cfg c = cfg_default();
		struct ibv_send_wr wr, *bad;
		struct ibv_sge sge;
		struct pair p;
		char what[96];

		c.len = 64 * KiB;
		if (pair_make(&p, &c))
			goto next;
		post_recv(&p.b, 200, 0, 4096, p.b.mr->lkey);
		send_wr(&wr, &sge, 1, t[i].op, &p.a, t[i].off, 64, &p.b, 0);
		sge.lkey ^= t[i].lkey_xor;
		expect_eq(t[i].name, ibv_post_send(p.a.qp, &wr, &bad), 0);
		post(&p.a, 2, IBV_WR_SEND, 0, 16, NULL, 0);
		snprintf(what, sizeof(what), "%s: A send queue", t[i].name);
		expect_wcs(what, p.a.scq, (struct want[]) {
			{ 1, IBV_WC_LOC_PROT_ERR }, { 2, IBV_WC_WR_FLUSH_ERR } },
			2);
		snprintf(what, sizeof(what), "%s: A", t[i].name);
		expect_state(what, p.a.qp, IBV_QPS_ERR);
		if (t[i].op != IBV_WR_RDMA_READ) {
			snprintf(what, sizeof(what), "%s: B", t[i].name);
			expect_state(what, p.b.qp, IBV_QPS_RTS);
			snprintf(what, sizeof(what), "%s: B receive queue",
				 t[i].name);
			expect_wcs(what, p.b.rcq, NULL, 0);
		}
		snprintf(what, sizeof(what), "%s: canaries changed", t[i].name);
		expect_eq(what, canary_changed(&p.a) + canary_changed(&p.b), 0);
next:
		pair_free(&p);
	}
}

/* Opcodes mrc does not carry fail the QP as a local QP operation error. */
static void c_bad_opcode(void)
{
	static const enum ibv_wr_opcode ops[] = { IBV_WR_TSO };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		struct cfg c = cfg_default();
		struct ibv_send_wr wr, *bad;
		struct ibv_sge sge;
		struct pair p;
		char what[64];
		int err;

		if (pair_make(&p, &c))
			goto next;
		send_wr(&wr, &sge, 1, ops[i], &p.a, 0, 8, &p.b, 0);
		wr.wr.atomic.remote_addr = (uintptr_t)p.b.mem;
		wr.wr.atomic.rkey = p.b.mr->rkey;
		err = ibv_post_send(p.a.qp, &wr, &bad);
		snprintf(what, sizeof(what), "opcode %d", ops[i]);
		if (err) {
			/* Refused at posting: no completion, the QP is fine. */
			note("%s: refused at posting (%s)", what, strerror(err));
			expect_eq("posting error is EINVAL", err, EINVAL);
			expect_state(what, p.a.qp, IBV_QPS_RTS);
		} else {
			expect_wcs(what, p.a.scq, (struct want[]) {
				{ 1, IBV_WC_LOC_QP_OP_ERR } }, 1);
			expect_state(what, p.a.qp, IBV_QPS_ERR);
		}
		expect_state("B", p.b.qp, IBV_QPS_RTS);
		expect_eq("bytes changed in B", nonzero(p.b.mem, 64), 0);
next:
		pair_free(&p);
	}
}

/* Post one signaled atomic from @e's MR byte @off to @peer's byte @roff. */
static int post_atomic(struct end *e, uint64_t wr_id, enum ibv_wr_opcode op,
		       uint64_t off, const struct end *peer, uint64_t roff,
		       uint32_t rkey, uint64_t compare_add, uint64_t swap)
{
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sge;
	int err;

	send_wr(&wr, &sge, wr_id, op, e, off, 8, NULL, 0);
	wr.wr.atomic.remote_addr = (uintptr_t)peer->mem + roff;
	wr.wr.atomic.rkey = rkey;
	wr.wr.atomic.compare_add = compare_add;
	wr.wr.atomic.swap = swap;
	err = ibv_post_send(e->qp, &wr, &bad);
	if (err)
		fail("%s: ibv_post_send atomic %llu: %s", e->d->name,
		     ULL(wr_id), strerror(err));
	return err;
}

#define AT_QPS		4
#define AT_EACH		256

/*
 * Atomics from AT_QPS QPs at once on one counter of B: every fetch-and-add
 * runs exactly once, so the counter ends at the number of them and the
 * values they fetched are each number below it once; then compare-and-swap
 * swaps on a match only, and every QP and canary is as it should be.
 */
static void c_atomic(void)
{
	struct cfg c = cfg_default();
	struct end xa[AT_QPS], xb[AT_QPS];
	unsigned int k, n, posted[AT_QPS] = { 0 }, done = 0;
	uint64_t *counter, *seen = NULL, v;
	struct ibv_qp_init_attr qia = { 0 };
	struct coord ca, cb;
	struct ibv_wc wc[16];
	struct pair p;
	int got, i;

	memset(xa, 0, sizeof(xa));
	memset(xb, 0, sizeof(xb));
	c.len = 64 * KiB;
	if (pair_make(&p, &c))
		goto out;
	/* More QPs on the same PDs, CQs and MRs: all of them hit one MR. */
	qia.send_cq = p.a.scq;
	qia.recv_cq = p.a.rcq;
	qia.qp_type = IBV_QPT_RC;
	qia.cap.max_send_wr = c.sq_wr;
	qia.cap.max_recv_wr = 1;
	qia.cap.max_send_sge = 1;
	qia.cap.max_recv_sge = 1;
	for (k = 0; k < AT_QPS; k++) {
		xa[k] = p.a;
		xb[k] = p.b;
		if (!k)
			continue;
		xa[k].qp = ibv_create_qp(p.a.pd, &qia);
		qia.send_cq = p.b.scq;
		qia.recv_cq = p.b.rcq;
		xb[k].qp = ibv_create_qp(p.b.pd, &qia);
		qia.send_cq = p.a.scq;
		qia.recv_cq = p.a.rcq;
		if (!xa[k].qp || !xb[k].qp) {
			fail("more QPs: %s", strerror(errno));
			goto out;
		}
		ca = coord_of(&xa[k]);
		cb = coord_of(&xb[k]);
		if (end_connect(&xa[k], &c, &cb) ||
		    end_connect(&xb[k], &c, &ca))
			goto out;
	}
	counter = (uint64_t *)p.b.mem;
	*counter = 0;
	memset(p.a.mem, 0xff, AT_QPS * AT_EACH * 8);
	/* Round robin over the QPs, each at most 16 ahead of the average. */
	while (done < AT_QPS * AT_EACH) {
		for (k = 0; k < AT_QPS; k++)
			while (posted[k] < AT_EACH &&
			       posted[k] < done / AT_QPS + 16) {
				n = k * AT_EACH + posted[k];
				if (post_atomic(&xa[k], n,
						IBV_WR_ATOMIC_FETCH_AND_ADD,
						n * 8, &p.b, 0, p.b.mr->rkey,
						1, 0))
					goto out;
				posted[k]++;
			}
		got = poll_n(p.a.scq, wc, 1, wait_ms);
		if (got != 1) {
			fail("fetch-and-add: %u of %u completed", done,
			     AT_QPS * AT_EACH);
			goto out;
		}
		if (wc[0].status != IBV_WC_SUCCESS ||
		    wc[0].opcode != IBV_WC_FETCH_ADD) {
			fail("fetch-and-add %llu: \"%s\", opcode %d",
			     ULL(wc[0].wr_id), ibv_wc_status_str(wc[0].status),
			     wc[0].opcode);
			goto out;
		}
		done++;
	}
	expect_eq("the counter after every fetch-and-add", *counter,
		  AT_QPS * AT_EACH);
	seen = calloc(AT_QPS * AT_EACH, sizeof(*seen));
	if (!seen) {
		fail("calloc");
		goto out;
	}
	for (n = 0, i = 0; n < AT_QPS * AT_EACH; n++) {
		memcpy(&v, p.a.mem + n * 8, 8);
		if (v >= AT_QPS * AT_EACH || seen[v]++)
			i++;
	}
	expect_eq("values fetched that are not each below the count once",
		  i, 0);

	/* Compare-and-swap: one that matches swaps, one that does not, not. */
	if (post_atomic(&xa[1], 1, IBV_WR_ATOMIC_CMP_AND_SWP, 0, &p.b, 0,
			p.b.mr->rkey, AT_QPS * AT_EACH, 7))
		goto out;
	expect_wcs("compare-and-swap that matches", p.a.scq,
		   (struct want[]) { { 1, IBV_WC_SUCCESS } }, 1);
	memcpy(&v, p.a.mem, 8);
	expect_eq("its value fetched", v, AT_QPS * AT_EACH);
	if (post_atomic(&xa[2], 2, IBV_WR_ATOMIC_CMP_AND_SWP, 8, &p.b, 0,
			p.b.mr->rkey, AT_QPS * AT_EACH, 9))
		goto out;
	expect_wcs("compare-and-swap that does not", p.a.scq,
		   (struct want[]) { { 2, IBV_WC_SUCCESS } }, 1);
	memcpy(&v, p.a.mem + 8, 8);
	expect_eq("its value fetched", v, 7);
	expect_eq("the counter after both", *counter, 7);
	for (k = 0; k < AT_QPS; k++) {
		expect_state("A", xa[k].qp, IBV_QPS_RTS);
		expect_state("B", xb[k].qp, IBV_QPS_RTS);
	}
	expect_eq("B bytes changed past the counter", nonzero(p.b.mem + 8,
							      c.len - 8), 0);
	expect_eq("canaries changed", canary_changed(&p.a) +
		  canary_changed(&p.b), 0);
out:
	free(seen);
	for (k = 1; k < AT_QPS; k++) {
		if (xa[k].qp && xa[k].qp != p.a.qp)
			ibv_destroy_qp(xa[k].qp);
		if (xb[k].qp && xb[k].qp != p.b.qp)
			ibv_destroy_qp(xb[k].qp);
	}
	pair_free(&p);
}

/*
 * Atomics the responder refuses, with the IB status at the requester: a bad
 * rkey, an MR without the remote atomic right, a QP that gave its peer no
 * atomic resources; and one librxe refuses at posting, an unaligned address.
 */
static void c_atomic_errors(void)
{
	static const struct {
		const char *name;
		int why;	/* 0 rkey, 1 MR right, 2 no resources */
		enum ibv_wc_status status;
	} t[] = {
		{ "wrong rkey", 0, IBV_WC_REM_ACCESS_ERR },
		{ "MR without remote atomic", 1, IBV_WC_REM_ACCESS_ERR },
		{ "max_dest_rd_atomic 0", 2, IBV_WC_REM_INV_REQ_ERR },
	};
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sge;
	unsigned int i;
	char what[96];

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct cfg c = cfg_default();
		struct ibv_mr *mr = NULL;
		struct pair p;
		uint32_t rkey;

		c.len = 64 * KiB;
		if (t[i].why == 2)
			c.max_dest_rd_atomic = 0;
		if (pair_make(&p, &c))
			goto next;
		fill(p.b.mem, c.len, 5);
		rkey = p.b.mr->rkey ^ (t[i].why == 0 ? 0x80 : 0);
		if (t[i].why == 1) {
			mr = ibv_reg_mr(p.b.pd, p.b.mem, c.len,
					ACCESS_ALL & ~IBV_ACCESS_REMOTE_ATOMIC);
			if (!mr) {
				fail("ibv_reg_mr: %s", strerror(errno));
				goto next;
			}
			rkey = mr->rkey;
		}
		if (post_atomic(&p.a, 1, IBV_WR_ATOMIC_FETCH_AND_ADD, 0, &p.b,
				64, rkey, 1, 0))
			goto next;
		snprintf(what, sizeof(what), "%s: A send queue", t[i].name);
		expect_wcs(what, p.a.scq, (struct want[]) {
			{ 1, t[i].status } }, 1);
		snprintf(what, sizeof(what), "%s: A", t[i].name);
		expect_state(what, p.a.qp, IBV_QPS_ERR);
		snprintf(what, sizeof(what), "%s: B", t[i].name);
		expect_state(what, p.b.qp, IBV_QPS_ERR);
		snprintf(what, sizeof(what), "%s: bytes changed in B",
			 t[i].name);
		expect_eq(what, differ(p.b.mem, c.len, 5), 0);
next:
		if (mr)
			ibv_dereg_mr(mr);
		pair_free(&p);
	}

	{
		struct cfg c = cfg_default();
		struct pair p;

		if (pair_make(&p, &c))
			goto out;
		send_wr(&wr, &sge, 1, IBV_WR_ATOMIC_CMP_AND_SWP, &p.a, 0, 8,
			NULL, 0);
		wr.wr.atomic.remote_addr = (uintptr_t)p.b.mem + 4;
		wr.wr.atomic.rkey = p.b.mr->rkey;
		/* librxe returns the errno negated here. */
		expect_eq("unaligned: refused at posting (EINVAL)",
			  abs(ibv_post_send(p.a.qp, &wr, &bad)), EINVAL);
		expect_state("unaligned: A", p.a.qp, IBV_QPS_RTS);
out:
		pair_free(&p);
	}
}

static int post_srq_recv(struct end *e, uint64_t wr_id, uint64_t off,
			 uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)e->mem + off, .length = len,
		.lkey = e->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge,
				  .num_sge = 1 }, *bad;
	int err = ibv_post_srq_recv(e->srq, &wr, &bad);

	if (err)
		fail("%s: ibv_post_srq_recv wr %llu: %s", e->d->name,
		     ULL(wr_id), strerror(err));
	return err;
}

/*
 * A SEND of 1 KiB from @s to B, which places it in the SRQ WQE @wr_id
 * covers (4 KiB at (wr_id - 100) * 4 KiB of B's MR).
 */
static void srq_send(struct end *s, struct end *b, uint64_t wr_id)
{
	uint64_t n = wr_id - 100, seed = 7000 + n;
	char w[64];

	snprintf(w, sizeof(w), "SEND %llu", ULL(n));
	fill(s->mem + 64 * KiB + n * KiB, KiB, seed);
	post(s, n, IBV_WR_SEND, 64 * KiB + n * KiB, KiB, NULL, 0);
	expect_wcs(w, s->scq, (struct want[]) { { n, IBV_WC_SUCCESS } }, 1);
	expect_wcs(w, b->rcq, (struct want[]) { { wr_id, IBV_WC_SUCCESS } }, 1);
	expect_eq(w, differ(b->mem + n * 4 * KiB, KiB, seed), 0);
}

/*
 * Two QPs of B share one SRQ: each message takes the WQE at its head, in
 * turn across the QPs; the limit event comes once, when fewer WQEs than
 * the limit are left; a message that finds the SRQ empty waits (RNR)
 * until a WQE is posted; a QP taken to ERR reports its last WQE; the SRQ
 * cannot be destroyed under its QPs, nor resized (not advertised).
 */
static void c_srq(void)
{
	struct cfg c = cfg_default();
	struct ibv_qp_init_attr qia = { 0 };
	struct ibv_qp_attr err_attr = { .qp_state = IBV_QPS_ERR };
	struct ibv_recv_wr rwr = { .wr_id = 99 }, *bad_r;
	struct ibv_srq_attr sa = { .srq_limit = 4 };
	struct ibv_async_event ev;
	struct end a2 = { 0 }, b2;
	struct coord ca2, cb2;
	struct ibv_wc wc;
	struct pair p;
	uint64_t i;

	c.b_srq_wr = 16;
	b2.qp = NULL;
	if (pair_make(&p, &c))
		goto out;
	/* B's second QP: the first one's PD, CQs, MR and SRQ. */
	qia.send_cq = p.b.scq;
	qia.recv_cq = p.b.rcq;
	qia.srq = p.b.srq;
	qia.qp_type = IBV_QPT_RC;
	qia.cap.max_send_wr = c.sq_wr;
	qia.cap.max_send_sge = 2;
	b2 = p.b;
	b2.psn = c.b_psn ^ 0x5555;
	b2.qp = ibv_create_qp(p.b.pd, &qia);
	if (!b2.qp) {
		fail("second QP on the SRQ: %s", strerror(errno));
		goto out;
	}
	if (end_make(&a2, &dev_a, dev_a.ctx, &c, c.a_psn ^ 0x3333))
		goto out;
	ca2 = coord_of(&a2);
	cb2 = coord_of(&b2);
	if (end_connect(&a2, &c, &cb2) || end_connect(&b2, &c, &ca2))
		goto out;

	expect_eq("arming limit 4", ibv_modify_srq(p.b.srq, &sa, IBV_SRQ_LIMIT),
		  0);
	sa.max_wr = 64;
	expect_eq("resizing", ibv_modify_srq(p.b.srq, &sa, IBV_SRQ_MAX_WR),
		  EOPNOTSUPP);
	sa.srq_limit = 1000;
	expect_eq("a limit beyond the queue",
		  ibv_modify_srq(p.b.srq, &sa, IBV_SRQ_LIMIT), EINVAL);
	memset(&sa, 0, sizeof(sa));
	expect_eq("ibv_query_srq", ibv_query_srq(p.b.srq, &sa), 0);
	expect_eq("limit queried", sa.srq_limit, 4);
	expect_eq("max_wr queried >= 16", sa.max_wr >= 16, 1);
	expect_eq("ibv_post_recv on a QP with an SRQ",
		  ibv_post_recv(p.b.qp, &rwr, &bad_r), EINVAL);

	for (i = 0; i < 8; i++)
		post_srq_recv(&p.b, 100 + i, i * 4 * KiB, 4 * KiB);
	/* Two messages on each QP, then one more: 3 left, below 4. */
	for (i = 0; i < 4; i++)
		srq_send(i < 2 ? &p.a : &a2, &p.b, 100 + i);
	if (async_next(&dev_b, 0, &ev))
		fail("event %s with 4 WQEs left, limit 4",
		     ibv_event_type_str(ev.event_type));
	srq_send(&p.a, &p.b, 104);
	if (!async_wait(&dev_b, IBV_EVENT_SRQ_LIMIT_REACHED, p.b.srq, wait_ms))
		fail("no SRQ limit event with 3 WQEs left, limit 4");
	expect_eq("ibv_query_srq", ibv_query_srq(p.b.srq, &sa), 0);
	expect_eq("limit after its event (disarmed)", sa.srq_limit, 0);
	for (i = 5; i < 8; i++)
		srq_send(&a2, &p.b, 100 + i);
	if (async_next(&dev_b, 0, &ev))
		fail("event %s after the limit disarmed",
		     ibv_event_type_str(ev.event_type));

	/* Empty: the ninth SEND waits for its WQE, then lands in it. */
	fill(p.a.mem + 64 * KiB + 8 * KiB, KiB, 7008);
	post(&p.a, 8, IBV_WR_SEND, 64 * KiB + 8 * KiB, KiB, NULL, 0);
	if (poll_n(p.a.scq, &wc, 1, 300))
		fail("SEND completed with the SRQ empty: wr %llu \"%s\"",
		     ULL(wc.wr_id), ibv_wc_status_str(wc.status));
	post_srq_recv(&p.b, 108, 8 * 4 * KiB, 4 * KiB);
	expect_wcs("SEND 8 after RNR", p.a.scq,
		   (struct want[]) { { 8, IBV_WC_SUCCESS } }, 1);
	expect_wcs("SEND 8 after RNR", p.b.rcq,
		   (struct want[]) { { 108, IBV_WC_SUCCESS } }, 1);
	expect_eq("SEND 8 after RNR", differ(p.b.mem + 8 * 4 * KiB, KiB, 7008),
		  0);

	expect_eq("second QP to ERR", ibv_modify_qp(b2.qp, &err_attr,
						    IBV_QP_STATE), 0);
	if (!async_wait(&dev_b, IBV_EVENT_QP_LAST_WQE_REACHED, b2.qp, wait_ms))
		fail("no last-WQE event from a QP of the SRQ in ERR");
	expect_eq("destroying an SRQ in use", ibv_destroy_srq(p.b.srq), EBUSY);
	expect_eq("canaries changed", canary_changed(&p.a) +
		  canary_changed(&a2) + canary_changed(&p.b), 0);
out:
	if (b2.qp)
		ibv_destroy_qp(b2.qp);
	end_free(&a2);
	pair_free(&p);
}

/*
 * The extended QP API (ibv_create_qp_ex with send_ops_flags, ibv_wr_*):
 * librxe builds the same WQEs from it, so every operation mrc carries
 * works through it: a batch of WRITE, WRITE_WITH_IMM, SEND with inline
 * data, SEND_WITH_IMM, READ, fetch-and-add and compare-and-swap posted
 * in one ibv_wr_start/ibv_wr_complete, each checked; and a batch
 * abandoned with ibv_wr_abort posts nothing.
 */
static void c_wr_api(void)
{
	struct cfg c = cfg_default();
	char inl[48] = "inline bytes of the extended QP API, 48 of them";
	struct ibv_qp_ex *qx;
	uint64_t *ctr;
	struct ibv_wc wc;
	struct pair p;

	c.a_send_ops = IBV_QP_EX_WITH_RDMA_WRITE |
		       IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
		       IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |
		       IBV_QP_EX_WITH_RDMA_READ |
		       IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
		       IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD;
	if (pair_make(&p, &c))
		goto out;
	qx = ibv_qp_to_qp_ex(p.a.qp);
	if (!qx) {
		fail("ibv_qp_to_qp_ex: NULL");
		goto out;
	}
	/* B's receives: for WRITE_WITH_IMM, the SEND (516 KiB), SEND_WITH_IMM. */
	post_recv(&p.b, 20, 512 * KiB, 4 * KiB, p.b.mr->lkey);
	post_recv(&p.b, 21, 516 * KiB, 4 * KiB, p.b.mr->lkey);
	post_recv(&p.b, 22, 520 * KiB, 4 * KiB, p.b.mr->lkey);
	ctr = (uint64_t *)(p.b.mem + 600 * KiB);
	*ctr = 40;
	fill(p.a.mem, 64 * KiB, 9001);
	fill(p.b.mem + 256 * KiB, 16 * KiB, 9002);
	fill(p.a.mem + 128 * KiB, 4 * KiB, 9003);

	ibv_wr_start(qx);
	qx->wr_flags = IBV_SEND_SIGNALED;
	qx->wr_id = 1;
	ibv_wr_rdma_write(qx, p.b.mr->rkey, (uintptr_t)p.b.mem);
	ibv_wr_set_sge(qx, p.a.mr->lkey, (uintptr_t)p.a.mem, 64 * KiB);
	qx->wr_id = 2;
	ibv_wr_rdma_write_imm(qx, p.b.mr->rkey, (uintptr_t)p.b.mem + 64 * KiB,
			      htonl(0x1234));
	ibv_wr_set_sge(qx, p.a.mr->lkey, (uintptr_t)p.a.mem, 100);
	qx->wr_id = 3;
	qx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	ibv_wr_send(qx);
	ibv_wr_set_inline_data(qx, inl, sizeof(inl));
	qx->wr_id = 4;
	qx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send_imm(qx, htonl(0xabcd));
	ibv_wr_set_sge(qx, p.a.mr->lkey, (uintptr_t)p.a.mem + 128 * KiB,
		       4 * KiB);
	qx->wr_id = 5;
	ibv_wr_rdma_read(qx, p.b.mr->rkey, (uintptr_t)p.b.mem + 256 * KiB);
	ibv_wr_set_sge(qx, p.a.mr->lkey, (uintptr_t)p.a.mem + 256 * KiB,
		       16 * KiB);
	qx->wr_id = 6;
	ibv_wr_atomic_fetch_add(qx, p.b.mr->rkey, (uintptr_t)ctr, 2);
	ibv_wr_set_sge(qx, p.a.mr->lkey, (uintptr_t)p.a.mem + 300 * KiB, 8);
	qx->wr_id = 7;
	ibv_wr_atomic_cmp_swp(qx, p.b.mr->rkey, (uintptr_t)ctr, 42, 77);
	ibv_wr_set_sge(qx, p.a.mr->lkey, (uintptr_t)p.a.mem + 300 * KiB + 8,
		       8);
	expect_eq("ibv_wr_complete", ibv_wr_complete(qx), 0);

	expect_wcs("A's batch", p.a.scq, (struct want[]) {
		{ 1, IBV_WC_SUCCESS }, { 2, IBV_WC_SUCCESS },
		{ 3, IBV_WC_SUCCESS }, { 4, IBV_WC_SUCCESS },
		{ 5, IBV_WC_SUCCESS }, { 6, IBV_WC_SUCCESS },
		{ 7, IBV_WC_SUCCESS } }, 7);
	expect_wcs("B's receives", p.b.rcq, (struct want[]) {
		{ 20, IBV_WC_SUCCESS }, { 21, IBV_WC_SUCCESS },
		{ 22, IBV_WC_SUCCESS } }, 3);
	expect_eq("WRITE: bytes", differ(p.b.mem, 64 * KiB, 9001), 0);
	expect_eq("WRITE_WITH_IMM: bytes",
		  memcmp(p.b.mem + 64 * KiB, p.a.mem, 100), 0);
	expect_eq("SEND inline: bytes",
		  memcmp(p.b.mem + 516 * KiB, inl, sizeof(inl)), 0);
	expect_eq("SEND_WITH_IMM: bytes",
		  differ(p.b.mem + 520 * KiB, 4 * KiB, 9003), 0);
	expect_eq("READ: bytes", differ(p.a.mem + 256 * KiB, 16 * KiB, 9002),
		  0);
	expect_eq("fetch-and-add: original",
		  *(uint64_t *)(p.a.mem + 300 * KiB), 40);
	expect_eq("compare-and-swap: original",
		  *(uint64_t *)(p.a.mem + 300 * KiB + 8), 42);
	expect_eq("counter after both", *ctr, 77);

	/* Abandoned: nothing reaches the wire, nothing completes. */
	ibv_wr_start(qx);
	qx->wr_id = 8;
	ibv_wr_send(qx);
	ibv_wr_set_sge(qx, p.a.mr->lkey, (uintptr_t)p.a.mem, 64);
	ibv_wr_abort(qx);
	qx->wr_id = 9;
	ibv_wr_start(qx);
	ibv_wr_rdma_write(qx, p.b.mr->rkey, (uintptr_t)p.b.mem + 700 * KiB);
	ibv_wr_set_sge(qx, p.a.mr->lkey, (uintptr_t)p.a.mem, 64);
	expect_eq("ibv_wr_complete after an abort", ibv_wr_complete(qx), 0);
	expect_wcs("after the abort", p.a.scq,
		   (struct want[]) { { 9, IBV_WC_SUCCESS } }, 1);
	if (poll_n(p.b.rcq, &wc, 1, 0))
		fail("the aborted SEND arrived: wr %llu", ULL(wc.wr_id));
	expect_eq("canaries changed", canary_changed(&p.a) +
		  canary_changed(&p.b), 0);
out:
	pair_free(&p);
}

/*
 * The rereg_user_mr verb, through the uverbs command itself: librxe has
 * no rereg_mr, so ibv_rereg_mr() stops in libibverbs on any rxe-ABI
 * device.  Returns 0 or the errno, and the new keys in @mr.
 */
static int rereg_cmd(struct ibv_mr *mr, int flags, void *addr, uint64_t len,
		     uint64_t iova, struct ibv_pd *pd, int access)
{
	struct ib_uverbs_rereg_mr_resp resp = { 0 };
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_rereg_mr cmd;
	} req = {
		.hdr = {
			.command = IB_USER_VERBS_CMD_REREG_MR,
			.in_words = sizeof(req) / 4,
			.out_words = sizeof(resp) / 4,
		},
		.cmd = {
			.response = (uintptr_t)&resp,
			.mr_handle = mr->handle,
			.flags = flags,
			.start = (uintptr_t)addr,
			.length = len,
			.hca_va = iova,
			.pd_handle = pd ? pd->handle : 0,
			.access_flags = access,
		},
	};

	if (write(mr->context->cmd_fd, &req, sizeof(req)) != sizeof(req))
		return errno;
	mr->lkey = resp.lkey;
	mr->rkey = resp.rkey;
	return 0;
}

/*
 * One READ or WRITE of @len bytes between A's MR at @off and B at @raddr
 * under @rkey; the status of A's completion.
 */
static enum ibv_wc_status rdma_at(struct pair *p, uint64_t wr_id,
				  enum ibv_wr_opcode op, uint64_t off,
				  uint32_t len, uint64_t raddr, uint32_t rkey)
{
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sge;
	struct ibv_wc wc;

	send_wr(&wr, &sge, wr_id, op, &p->a, off, len, NULL, 0);
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	if (ibv_post_send(p->a.qp, &wr, &bad)) {
		fail("ibv_post_send of wr %llu failed", ULL(wr_id));
		return IBV_WC_GENERAL_ERR;
	}
	if (poll_n(p->a.scq, &wc, 1, wait_ms) != 1) {
		fail("no completion for wr %llu", ULL(wr_id));
		return IBV_WC_GENERAL_ERR;
	}
	return wc.status;
}

/* One WRITE of 4 KiB from A to B at @raddr under @rkey, its status. */
static enum ibv_wc_status rereg_write(struct pair *p, uint64_t wr_id,
				      uint64_t raddr, uint32_t rkey,
				      uint64_t seed)
{
	fill(p->a.mem, 4 * KiB, seed);
	return rdma_at(p, wr_id, IBV_WR_RDMA_WRITE, 0, 4 * KiB, raddr, rkey);
}

/*
 * Reregistration: new pages make a new region with new keys (the old rkey
 * is refused, the new one lands at the new iova); a new PD keeps the keys
 * but no longer serves the old PD's QPs; new rights take effect at once.
 * Each ends with a refused access, so each gets a fresh pair.
 */
static void c_rereg(void)
{
	const uint64_t iova = 0x10000000000ULL;
	struct ibv_pd *pd2 = NULL;
	uint32_t old_rkey;
	struct cfg c;
	struct pair p;

	c = cfg_default();
	if (pair_make(&p, &c))
		goto out;
	old_rkey = p.b.mr->rkey;
	expect_eq("rereg: translation with mismatched page offsets",
		  rereg_cmd(p.b.mr, IBV_REREG_MR_CHANGE_TRANSLATION, p.b.mem + 512 * KiB,
			    64 * KiB, iova + 8, NULL, 0), EINVAL);
	expect_eq("rereg: translation",
		  rereg_cmd(p.b.mr, IBV_REREG_MR_CHANGE_TRANSLATION, p.b.mem + 512 * KiB,
			    64 * KiB, iova, NULL, 0), 0);
	if (p.b.mr->rkey == old_rkey)
		fail("rereg: translation kept rkey %#x", old_rkey);
	expect_eq("rereg: WRITE at the new iova, new rkey",
		  rereg_write(&p, 1, iova + 4 * KiB, p.b.mr->rkey, 8101),
		  IBV_WC_SUCCESS);
	expect_eq("rereg: ... lands in the new pages",
		  differ(p.b.mem + 516 * KiB, 4 * KiB, 8101), 0);
	expect_eq("rereg: WRITE under the old rkey",
		  rereg_write(&p, 2, (uintptr_t)p.b.mem, old_rkey, 8102),
		  IBV_WC_REM_ACCESS_ERR);
	pair_free(&p);

	c = cfg_default();
	if (pair_make(&p, &c))
		goto out;
	pd2 = ibv_alloc_pd(dev_b.ctx);
	if (!pd2) {
		fail("rereg: second PD: %s", strerror(errno));
		goto out;
	}
	old_rkey = p.b.mr->rkey;
	expect_eq("rereg: PD", rereg_cmd(p.b.mr, IBV_REREG_MR_CHANGE_PD, NULL, 0, 0,
					 pd2, 0), 0);
	expect_eq("rereg: PD keeps the rkey", p.b.mr->rkey, old_rkey);
	expect_eq("rereg: WRITE from a QP of the old PD",
		  rereg_write(&p, 3, (uintptr_t)p.b.mem, p.b.mr->rkey, 8103),
		  IBV_WC_REM_ACCESS_ERR);
	expect_eq("rereg: ... placed nothing", nonzero(p.b.mem, 4 * KiB), 0);
	pair_free(&p);
	ibv_dealloc_pd(pd2);
	pd2 = NULL;

	c = cfg_default();
	if (pair_make(&p, &c))
		goto out;
	expect_eq("rereg: rights",
		  rereg_cmd(p.b.mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, 0, 0, NULL,
			    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ),
		  0);
	fill(p.b.mem, 4 * KiB, 8104);
	post(&p.a, 4, IBV_WR_RDMA_READ, 8 * KiB, 4 * KiB, &p.b, 0);
	expect_wcs("rereg: READ with remote read kept", p.a.scq,
		   (struct want[]) { { 4, IBV_WC_SUCCESS } }, 1);
	expect_eq("rereg: READ bytes", differ(p.a.mem + 8 * KiB, 4 * KiB, 8104),
		  0);
	expect_eq("rereg: WRITE without remote write",
		  rereg_write(&p, 5, (uintptr_t)p.b.mem, p.b.mr->rkey, 8105),
		  IBV_WC_REM_ACCESS_ERR);
	expect_eq("rereg: ... placed nothing",
		  differ(p.b.mem, 4 * KiB, 8104), 0);
	expect_eq("canaries changed", canary_changed(&p.a) +
		  canary_changed(&p.b), 0);
out:
	pair_free(&p);
	if (pd2)
		ibv_dealloc_pd(pd2);
}

/* B's MR over the same bytes as its own, with the right to bind windows. */
static struct ibv_mr *mw_mr(struct end *b, int access)
{
	struct ibv_mr *mr = ibv_reg_mr(b->pd, b->mem, b->len, access);

	if (!mr)
		fail("%s: ibv_reg_mr for windows: %s", b->d->name,
		     strerror(errno));
	return mr;
}

/*
 * Post a signaled bind of window @mw to @mr's bytes [off, +len) on @e's QP,
 * as a type 2 window is bound (a type 1 through ibv_bind_mw() is the same
 * WR, librxe builds it); the window's next key is @rkey.
 */
static int mw_bind_wr(struct end *e, uint64_t wr_id, struct ibv_mw *mw,
		      uint32_t rkey, struct ibv_mr *mr, uint64_t off,
		      uint64_t len, unsigned int access)
{
	struct ibv_send_wr wr = {
		.wr_id = wr_id, .opcode = IBV_WR_BIND_MW,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	int err;

	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = rkey;
	wr.bind_mw.bind_info = (struct ibv_mw_bind_info) {
		.mr = mr, .addr = (uintptr_t)e->mem + off, .length = len,
		.mw_access_flags = access,
	};
	err = ibv_post_send(e->qp, &wr, &bad);
	if (err)
		fail("%s: posting BIND_MW %llu: %s", e->d->name, ULL(wr_id),
		     strerror(err));
	return err;
}

/* The next completion of @cq is @wr_id with @status and @opcode. */
static void expect_wc_op(const char *what, struct ibv_cq *cq, uint64_t wr_id,
			 enum ibv_wc_status status, enum ibv_wc_opcode opcode)
{
	struct ibv_wc wc;

	if (poll_n(cq, &wc, 1, wait_ms) != 1) {
		fail("%s: no completion", what);
		return;
	}
	if (wc.wr_id != wr_id || wc.status != status ||
	    (status == IBV_WC_SUCCESS && wc.opcode != opcode))
		fail("%s: wr %llu \"%s\" opcode %d, want wr %llu \"%s\" opcode %d",
		     what, ULL(wc.wr_id), ibv_wc_status_str(wc.status),
		     wc.opcode, ULL(wr_id), ibv_wc_status_str(status), opcode);
}

/*
 * Memory windows, both types, on B's memory, used by A: a type 1 window
 * (ibv_bind_mw) takes WRITEs and READs inside it, and a rebind gives it a
 * new key and new rights; a type 2 window bound by a WR takes an atomic,
 * is freed by LOCAL_INV, bound again zero based (A's addresses count from
 * the window's start), and freed by A's SEND_WITH_INV, which B's receive
 * completion reports; B's MR cannot be deregistered while windows are
 * bound to it.  Nothing outside the windows changes.
 */
static void c_mw(void)
{
	const unsigned int rw = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
	struct ibv_mw *mw1 = NULL, *mw2 = NULL;
	struct ibv_mw_bind bind = { 0 };
	struct ibv_device_attr da;
	struct ibv_mr *mr = NULL;
	uint32_t k1, k2, k3;
	struct ibv_wc wc;
	struct cfg c;
	struct pair p;
	uint64_t v;

	c = cfg_default();
	if (pair_make(&p, &c))
		goto out;
	if (ibv_query_device(dev_b.ctx, &da)) {
		fail("ibv_query_device: %s", strerror(errno));
	} else {
		expect_eq("max_mw", da.max_mw, 65536);
		expect_eq("both kinds of windows advertised",
			  da.device_cap_flags & (IBV_DEVICE_MEM_WINDOW |
						 IBV_DEVICE_MEM_WINDOW_TYPE_2B),
			  IBV_DEVICE_MEM_WINDOW | IBV_DEVICE_MEM_WINDOW_TYPE_2B);
	}
	mr = mw_mr(&p.b, ACCESS_ALL | IBV_ACCESS_MW_BIND);
	mw1 = mr ? ibv_alloc_mw(p.b.pd, IBV_MW_TYPE_1) : NULL;
	mw2 = mw1 ? ibv_alloc_mw(p.b.pd, IBV_MW_TYPE_2) : NULL;
	if (!mw2) {
		fail("ibv_alloc_mw: %s", strerror(errno));
		goto out;
	}
	fill_msg(p.b.mem, c.len, 9001);

	/* type 1: bytes [64 KiB, 72 KiB) of B, read and write */
	k1 = mw1->rkey;
	bind.wr_id = 10;
	bind.send_flags = IBV_SEND_SIGNALED;
	bind.bind_info = (struct ibv_mw_bind_info) {
		.mr = mr, .addr = (uintptr_t)p.b.mem + 64 * KiB,
		.length = 8 * KiB, .mw_access_flags = rw,
	};
	expect_eq("type 1: ibv_bind_mw", ibv_bind_mw(p.b.qp, mw1, &bind), 0);
	expect_wc_op("type 1: bind completion", p.b.scq, 10, IBV_WC_SUCCESS,
		     IBV_WC_BIND_MW);
	if (mw1->rkey == k1)
		fail("type 1: the bind kept key %#x", k1);
	k1 = mw1->rkey;
	fill(p.a.mem, 8 * KiB, 9002);
	expect_eq("type 1: WRITE of the whole window",
		  rdma_at(&p, 11, IBV_WR_RDMA_WRITE, 0, 8 * KiB,
			  (uintptr_t)p.b.mem + 64 * KiB, k1), IBV_WC_SUCCESS);
	expect_eq("type 1: ... lands in it",
		  differ(p.b.mem + 64 * KiB, 8 * KiB, 9002), 0);
	expect_eq("type 1: READ of its last 4 KiB",
		  rdma_at(&p, 12, IBV_WR_RDMA_READ, 16 * KiB, 4 * KiB,
			  (uintptr_t)p.b.mem + 68 * KiB, k1), IBV_WC_SUCCESS);
	expect_eq("type 1: ... reads what was written",
		  memcmp(p.a.mem + 16 * KiB, p.b.mem + 68 * KiB, 4 * KiB), 0);

	/* rebind: read only, new key */
	bind.wr_id = 13;
	bind.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_READ;
	expect_eq("type 1: rebind read only", ibv_bind_mw(p.b.qp, mw1, &bind),
		  0);
	expect_wc_op("type 1: rebind completion", p.b.scq, 13, IBV_WC_SUCCESS,
		     IBV_WC_BIND_MW);
	if (mw1->rkey == k1)
		fail("type 1: the rebind kept key %#x", k1);
	expect_eq("type 1: READ under the new key",
		  rdma_at(&p, 14, IBV_WR_RDMA_READ, 24 * KiB, 64,
			  (uintptr_t)p.b.mem + 64 * KiB, mw1->rkey),
		  IBV_WC_SUCCESS);

	/* type 2: 8 bytes at 128 KiB, atomics */
	k2 = ibv_inc_rkey(mw2->rkey);
	mw_bind_wr(&p.b, 20, mw2, k2, mr, 128 * KiB, 4 * KiB,
		   rw | IBV_ACCESS_REMOTE_ATOMIC);
	expect_wc_op("type 2: bind completion", p.b.scq, 20, IBV_WC_SUCCESS,
		     IBV_WC_BIND_MW);
	/* The application keeps a type 2 window's key (librxe names it so). */
	mw2->rkey = k2;
	memcpy(&v, p.b.mem + 128 * KiB, 8);
	post_atomic(&p.a, 21, IBV_WR_ATOMIC_FETCH_AND_ADD, 32 * KiB, &p.b,
		    128 * KiB, k2, 5, 0);
	expect_wcs("type 2: FETCH_AND_ADD", p.a.scq, (struct want[]) {
		{ 21, IBV_WC_SUCCESS } }, 1);
	expect_eq("type 2: ... fetched the old value",
		  memcmp(p.a.mem + 32 * KiB, &v, 8), 0);
	v += 5;
	expect_eq("type 2: ... added", memcmp(p.b.mem + 128 * KiB, &v, 8), 0);
	expect_eq("dereg of the MR with windows bound", ibv_dereg_mr(mr),
		  EBUSY);

	/* LOCAL_INV frees it; bound again, zero based, at 192 KiB */
	{
		struct ibv_send_wr wr = {
			.wr_id = 22, .opcode = IBV_WR_LOCAL_INV,
			.send_flags = IBV_SEND_SIGNALED,
			.invalidate_rkey = k2,
		}, *bad;

		expect_eq("type 2: posting LOCAL_INV",
			  ibv_post_send(p.b.qp, &wr, &bad), 0);
	}
	expect_wc_op("type 2: LOCAL_INV completion", p.b.scq, 22,
		     IBV_WC_SUCCESS, IBV_WC_LOCAL_INV);
	k3 = ibv_inc_rkey(k2);
	mw_bind_wr(&p.b, 23, mw2, k3, mr, 192 * KiB, 4 * KiB,
		   rw | IBV_ACCESS_ZERO_BASED);
	expect_wc_op("type 2: zero-based bind completion", p.b.scq, 23,
		     IBV_WC_SUCCESS, IBV_WC_BIND_MW);
	mw2->rkey = k3;
	fill(p.a.mem, 4 * KiB, 9003);
	expect_eq("type 2: WRITE at window offset 1 KiB",
		  rdma_at(&p, 24, IBV_WR_RDMA_WRITE, 0, 3 * KiB, 1 * KiB, k3),
		  IBV_WC_SUCCESS);
	expect_eq("type 2: ... lands 1 KiB into the window",
		  memcmp(p.b.mem + 193 * KiB, p.a.mem, 3 * KiB), 0);

	/* A's SEND_WITH_INV frees it at B */
	post_recv(&p.b, 30, 256 * KiB, 64, p.b.mr->lkey);
	{
		struct ibv_send_wr wr, *bad;
		struct ibv_sge sge;

		send_wr(&wr, &sge, 25, IBV_WR_SEND_WITH_INV, &p.a, 0, 64, NULL,
			0);
		wr.invalidate_rkey = k3;
		expect_eq("posting SEND_WITH_INV",
			  ibv_post_send(p.a.qp, &wr, &bad), 0);
	}
	expect_wcs("SEND_WITH_INV at A", p.a.scq, (struct want[]) {
		{ 25, IBV_WC_SUCCESS } }, 1);
	if (poll_n(p.b.rcq, &wc, 1, wait_ms) != 1) {
		fail("SEND_WITH_INV: no receive completion at B");
	} else {
		expect_eq("SEND_WITH_INV: B's receive status", wc.status,
			  IBV_WC_SUCCESS);
		expect_eq("SEND_WITH_INV: B's completion flags (invalidated)",
			  wc.wc_flags, IBV_WC_WITH_INV);
		expect_eq("SEND_WITH_INV: ... which key",
			  wc.invalidated_rkey, k3);
	}
	/* free again: it binds */
	mw_bind_wr(&p.b, 26, mw2, ibv_inc_rkey(k3), mr, 0, 64,
		   IBV_ACCESS_REMOTE_READ);
	expect_wc_op("type 2: bind after remote invalidation", p.b.scq, 26,
		     IBV_WC_SUCCESS, IBV_WC_BIND_MW);

	/* bytes outside the windows: what B filled them with */
	expect_eq("bytes before the type 1 window changed",
		  differ(p.b.mem, 64 * KiB, 9001), 0);
	expect_eq("canaries changed", canary_changed(&p.a) +
		  canary_changed(&p.b), 0);
	expect_state("A", p.a.qp, IBV_QPS_RTS);
	expect_state("B", p.b.qp, IBV_QPS_RTS);
	expect_eq("dealloc type 1", ibv_dealloc_mw(mw1), 0);
	expect_eq("dealloc type 2", ibv_dealloc_mw(mw2), 0);
	mw1 = NULL;
	mw2 = NULL;
	expect_eq("dereg of the MR, its windows gone", ibv_dereg_mr(mr), 0);
	mr = NULL;
out:
	if (mw1)
		ibv_dealloc_mw(mw1);
	if (mw2)
		ibv_dealloc_mw(mw2);
	if (mr)
		ibv_dereg_mr(mr);
	pair_free(&p);
}

/*
 * What memory windows refuse.  Binds against the rules fail B's WR with a
 * bind error (B's QP in ERR, A's untouched); A's accesses outside what a
 * window allows fail A's WR with a remote access error (both QPs in ERR)
 * and change nothing.  A fresh pair for each.
 */
static void c_mw_errors(void)
{
	enum {
		T1_BOUND,	/* a type 1 window over [64 KiB, 72 KiB), read+write */
		T2_BOUND,	/* a type 2 window there */
	};
	static const struct {
		const char *name;
		int setup;
		/* B's bind (bind_access != 0), or A's access */
		unsigned int bind_type, bind_access, mr_access;
		uint64_t bind_off, bind_len;
		enum ibv_wr_opcode op;
		uint64_t roff;
		/*
		 * 0: the window's key; 1: its key before the bind; 2: after a
		 * LOCAL_INV; 3: of a read-only window; 4: B invalidates it
		 */
		int key;
		enum ibv_wc_status want;
	} t[] = {
		{ "bind to an MR without the bind right", -1, IBV_MW_TYPE_1,
		  IBV_ACCESS_REMOTE_READ, ACCESS_ALL, 0, 4 * KiB, 0, 0, 0,
		  IBV_WC_MW_BIND_ERR },
		{ "writable window on an MR without local write", -1,
		  IBV_MW_TYPE_1, IBV_ACCESS_REMOTE_WRITE,
		  IBV_ACCESS_REMOTE_READ | IBV_ACCESS_MW_BIND, 0, 4 * KiB, 0, 0,
		  0, IBV_WC_MW_BIND_ERR },
		{ "window one byte past the MR", -1, IBV_MW_TYPE_1,
		  IBV_ACCESS_REMOTE_READ, ACCESS_ALL | IBV_ACCESS_MW_BIND,
		  1 * MiB - 4 * KiB + 1, 4 * KiB, 0, 0, 0, IBV_WC_MW_BIND_ERR },
		{ "type 2 bound twice", T2_BOUND, IBV_MW_TYPE_2,
		  IBV_ACCESS_REMOTE_READ, 0, 0, 4 * KiB, 0, 0, 0,
		  IBV_WC_MW_BIND_ERR },
		{ "type 2 bound to zero bytes", -1, IBV_MW_TYPE_2,
		  IBV_ACCESS_REMOTE_READ, ACCESS_ALL | IBV_ACCESS_MW_BIND, 0, 0,
		  0, 0, 0, IBV_WC_MW_BIND_ERR },
		{ "WRITE a byte past the window", T1_BOUND, 0, 0, 0, 0, 0,
		  IBV_WR_RDMA_WRITE, 72 * KiB - 63, 0, IBV_WC_REM_ACCESS_ERR },
		{ "READ a byte before the window", T1_BOUND, 0, 0, 0, 0, 0,
		  IBV_WR_RDMA_READ, 64 * KiB - 1, 0, IBV_WC_REM_ACCESS_ERR },
		{ "WRITE under the key before the bind", T1_BOUND, 0, 0, 0, 0,
		  0, IBV_WR_RDMA_WRITE, 64 * KiB, 1, IBV_WC_REM_ACCESS_ERR },
		{ "WRITE through a read-only window", T1_BOUND, 0, 0, 0, 0, 0,
		  IBV_WR_RDMA_WRITE, 64 * KiB, 3, IBV_WC_REM_ACCESS_ERR },
		{ "WRITE after LOCAL_INV", T2_BOUND, 0, 0, 0, 0, 0,
		  IBV_WR_RDMA_WRITE, 64 * KiB, 2, IBV_WC_REM_ACCESS_ERR },
		{ "LOCAL_INV of a type 1 window", T1_BOUND, 0, 0, 0, 0, 0, 0,
		  0, 4, IBV_WC_LOC_QP_OP_ERR },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct cfg c = cfg_default();
		struct ibv_mr *mr = NULL;
		struct ibv_mw *mw = NULL;
		uint32_t key0, key;
		bool made = false;
		struct pair p;
		char what[128];

		if (pair_make(&p, &c))
			goto next;
		made = true;
		fill_msg(p.b.mem, c.len, 9100 + i);
		mr = mw_mr(&p.b, t[i].setup >= 0 ? ACCESS_ALL |
			   IBV_ACCESS_MW_BIND : (int)t[i].mr_access);
		mw = mr ? ibv_alloc_mw(p.b.pd, t[i].setup == T1_BOUND ?
				       IBV_MW_TYPE_1 : t[i].setup == T2_BOUND ?
				       IBV_MW_TYPE_2 : t[i].bind_type) : NULL;
		if (!mw) {
			fail("%s: MR or window: %s", t[i].name, strerror(errno));
			goto next;
		}
		key0 = mw->rkey;
		key = ibv_inc_rkey(key0);
		if (t[i].setup >= 0) {
			snprintf(what, sizeof(what), "%s: first bind", t[i].name);
			mw_bind_wr(&p.b, 1, mw, key, mr, 64 * KiB, 8 * KiB,
				   t[i].key == 3 ? IBV_ACCESS_REMOTE_READ :
				   IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_WRITE);
			expect_wc_op(what, p.b.scq, 1, IBV_WC_SUCCESS,
				     IBV_WC_BIND_MW);
			mw->rkey = key;
		}
		if (t[i].bind_access) {
			snprintf(what, sizeof(what), "%s: B's send queue",
				 t[i].name);
			mw_bind_wr(&p.b, 2, mw, ibv_inc_rkey(key), mr,
				   t[i].bind_off, t[i].bind_len,
				   t[i].bind_access);
			expect_wcs(what, p.b.scq, (struct want[]) {
				{ 2, t[i].want } }, 1);
			snprintf(what, sizeof(what), "%s: B", t[i].name);
			expect_state(what, p.b.qp, IBV_QPS_ERR);
			snprintf(what, sizeof(what), "%s: A", t[i].name);
			expect_state(what, p.a.qp, IBV_QPS_RTS);
			goto next;
		}
		if (t[i].key == 2 || t[i].key == 4) {
			struct ibv_send_wr wr = {
				.wr_id = 3, .opcode = IBV_WR_LOCAL_INV,
				.send_flags = IBV_SEND_SIGNALED,
				.invalidate_rkey = key,
			}, *bad;

			snprintf(what, sizeof(what), "%s: LOCAL_INV", t[i].name);
			expect_eq(what, ibv_post_send(p.b.qp, &wr, &bad), 0);
			expect_wc_op(what, p.b.scq, 3, t[i].key == 2 ?
				     IBV_WC_SUCCESS : t[i].want,
				     IBV_WC_LOCAL_INV);
			if (t[i].key == 4) {
				snprintf(what, sizeof(what), "%s: B", t[i].name);
				expect_state(what, p.b.qp, IBV_QPS_ERR);
				snprintf(what, sizeof(what), "%s: A", t[i].name);
				expect_state(what, p.a.qp, IBV_QPS_RTS);
				goto next;
			}
		}
		fill(p.a.mem, 64, 9200 + i);
		snprintf(what, sizeof(what), "%s: A's completion", t[i].name);
		expect_eq(what, rdma_at(&p, 4, t[i].op, 0, 64,
					(uintptr_t)p.b.mem + t[i].roff,
					t[i].key == 1 ? key0 : key), t[i].want);
		snprintf(what, sizeof(what), "%s: A", t[i].name);
		expect_state(what, p.a.qp, IBV_QPS_ERR);
		snprintf(what, sizeof(what), "%s: bytes changed in B", t[i].name);
		expect_eq(what, differ(p.b.mem, c.len, 9100 + i), 0);
		snprintf(what, sizeof(what), "%s: bytes read into A", t[i].name);
		expect_eq(what, differ(p.a.mem, 64, 9200 + i), 0);
next:
		if (mw)
			ibv_dealloc_mw(mw);
		if (mr)
			ibv_dereg_mr(mr);
		snprintf(what, sizeof(what), "%s: canaries changed", t[i].name);
		if (made)
			expect_eq(what, canary_changed(&p.a) +
				  canary_changed(&p.b), 0);
		pair_free(&p);
	}
}

#define UD_QKEY		0x11111111
#define UD_GRH		40

/* One side of the UD case: a UD QP on its own PD, CQs and 64 KiB MR. */
struct ud_end {
	struct dev *d;
	struct ibv_pd *pd;
	struct ibv_cq *scq, *rcq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *mem;
};

static int ud_make(struct ud_end *u, struct dev *d)
{
	struct ibv_qp_init_attr qia = {
		.qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = UD_QKEY,
	};

	memset(u, 0, sizeof(*u));
	u->d = d;
	u->mem = calloc(1, 64 * KiB);
	u->pd = u->mem ? ibv_alloc_pd(d->ctx) : NULL;
	u->scq = u->pd ? ibv_create_cq(d->ctx, 32, NULL, NULL, 0) : NULL;
	u->rcq = u->scq ? ibv_create_cq(d->ctx, 32, NULL, NULL, 0) : NULL;
	u->mr = u->rcq ? ibv_reg_mr(u->pd, u->mem, 64 * KiB,
				    IBV_ACCESS_LOCAL_WRITE) : NULL;
	qia.send_cq = u->scq;
	qia.recv_cq = u->rcq;
	u->qp = u->mr ? ibv_create_qp(u->pd, &qia) : NULL;
	if (!u->qp) {
		fail("%s: UD QP: %s", d->name, strerror(errno));
		return -1;
	}
	if (ibv_modify_qp(u->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_QKEY)) {
		fail("%s: UD QP to INIT", d->name);
		return -1;
	}
	a.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(u->qp, &a, IBV_QP_STATE)) {
		fail("%s: UD QP to RTR", d->name);
		return -1;
	}
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	if (ibv_modify_qp(u->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN)) {
		fail("%s: UD QP to RTS", d->name);
		return -1;
	}
	return 0;
}

static void ud_free(struct ud_end *u)
{
	if (u->qp)
		ibv_destroy_qp(u->qp);
	if (u->mr)
		ibv_dereg_mr(u->mr);
	if (u->rcq)
		ibv_destroy_cq(u->rcq);
	if (u->scq)
		ibv_destroy_cq(u->scq);
	if (u->pd)
		ibv_dealloc_pd(u->pd);
	free(u->mem);
	memset(u, 0, sizeof(*u));
}

static struct ibv_ah *ud_ah(struct ibv_pd *pd, const struct dev *from,
			    const struct dev *to)
{
	struct ibv_ah_attr a = { .is_global = 1, .port_num = 1 };

	a.grh.dgid = to->gid;
	a.grh.sgid_index = from->gid_idx;
	a.grh.hop_limit = 64;
	return ibv_create_ah(pd, &a);
}

/* A datagram of @len bytes of @u's MR at @off, seeded @seed; 0 or errno. */
static int ud_send(struct ud_end *u, struct ibv_ah *ah, uint32_t qpn,
		   uint32_t qkey, uint64_t wr_id, uint32_t off, uint32_t len,
		   uint64_t seed, bool imm)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)u->mem + off, .length = len,
		.lkey = u->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = wr_id, .sg_list = &sge, .num_sge = 1,
		.opcode = imm ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
		.imm_data = htonl(0xfeed),
	}, *bad;

	fill(u->mem + off, len, seed);
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = qpn;
	wr.wr.ud.remote_qkey = qkey;
	return ibv_post_send(u->qp, &wr, &bad);
}

/* The next completion of @cq, which must come; its status, or -1. */
static int ud_wc(struct ibv_cq *cq, struct ibv_wc *wc, const char *what)
{
	if (poll_n(cq, wc, 1, wait_ms) != 1) {
		fail("%s: no completion", what);
		return -1;
	}
	return wc->status;
}

/*
 * UD QPs of applications: a datagram, and one with immediate data, reach
 * the QP named behind a 40-byte GRH, with the sender's QPN; one under
 * another Q_Key is dropped (the next one is the next completion); one
 * longer than the port's MTU, or naming an AH of another PD, completes in
 * error at the sender, whose QP fails.
 */
static void c_ud(void)
{
	struct ud_end a, b;
	struct ibv_ah *ah = NULL, *ah_other = NULL;
	struct ibv_pd *pd_other = NULL;
	struct ibv_wc wc;
	int i;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	if (ud_make(&a, &dev_a) || ud_make(&b, &dev_b))
		goto out;
	ah = ud_ah(a.pd, &dev_a, &dev_b);
	if (!ah) {
		fail("ibv_create_ah: %s", strerror(errno));
		goto out;
	}
	for (i = 0; i < 4; i++) {
		struct ibv_sge sge = {
			.addr = (uintptr_t)b.mem + i * 2 * KiB,
			.length = UD_GRH + KiB, .lkey = b.mr->lkey,
		};
		struct ibv_recv_wr wr = { .wr_id = 10 + i, .sg_list = &sge,
					  .num_sge = 1 }, *bad;

		if (ibv_post_recv(b.qp, &wr, &bad))
			fail("UD ibv_post_recv %d", i);
	}

	expect_eq("UD SEND posted", ud_send(&a, ah, b.qp->qp_num, UD_QKEY, 1,
					    0, 512, 4001, false), 0);
	expect_eq("UD SEND: sender", ud_wc(a.scq, &wc, "UD SEND"),
		  IBV_WC_SUCCESS);
	expect_eq("UD SEND: receiver", ud_wc(b.rcq, &wc, "UD SEND"),
		  IBV_WC_SUCCESS);
	expect_eq("UD SEND: wr_id", wc.wr_id, 10);
	expect_eq("UD SEND: byte_len", wc.byte_len, UD_GRH + 512);
	expect_eq("UD SEND: src_qp", wc.src_qp, a.qp->qp_num);
	expect_eq("UD SEND: flags (GRH only)", wc.wc_flags, IBV_WC_GRH);
	expect_eq("UD SEND: bytes", differ(b.mem + UD_GRH, 512, 4001), 0);

	expect_eq("UD SEND_WITH_IMM posted",
		  ud_send(&a, ah, b.qp->qp_num, UD_QKEY, 2, KiB, 100, 4002,
			  true), 0);
	expect_eq("UD SEND_WITH_IMM: sender", ud_wc(a.scq, &wc, "UD IMM"),
		  IBV_WC_SUCCESS);
	expect_eq("UD SEND_WITH_IMM: receiver", ud_wc(b.rcq, &wc, "UD IMM"),
		  IBV_WC_SUCCESS);
	expect_eq("UD SEND_WITH_IMM: wr_id", wc.wr_id, 11);
	expect_eq("UD SEND_WITH_IMM: byte_len", wc.byte_len, UD_GRH + 100);
	expect_eq("UD SEND_WITH_IMM: flags", wc.wc_flags,
		  IBV_WC_GRH | IBV_WC_WITH_IMM);
	expect_eq("UD SEND_WITH_IMM: immediate", ntohl(wc.imm_data), 0xfeed);
	expect_eq("UD SEND_WITH_IMM: bytes",
		  differ(b.mem + 2 * KiB + UD_GRH, 100, 4002), 0);

	/* Another Q_Key: dropped, so the next datagram takes WQE 12. */
	ud_send(&a, ah, b.qp->qp_num, 0x2222, 3, 0, 64, 4003, false);
	expect_eq("UD wrong Q_Key: sender", ud_wc(a.scq, &wc, "UD Q_Key"),
		  IBV_WC_SUCCESS);
	ud_send(&a, ah, b.qp->qp_num, UD_QKEY, 4, 2 * KiB, 64, 4004, false);
	expect_eq("UD after a wrong Q_Key: sender",
		  ud_wc(a.scq, &wc, "UD after"), IBV_WC_SUCCESS);
	expect_eq("UD after a wrong Q_Key: receiver",
		  ud_wc(b.rcq, &wc, "UD after"), IBV_WC_SUCCESS);
	expect_eq("UD after a wrong Q_Key: the next WQE", wc.wr_id, 12);
	expect_eq("UD after a wrong Q_Key: its bytes",
		  differ(b.mem + 4 * KiB + UD_GRH, 64, 4004), 0);

	/* An AH of another PD: refused at the sender. */
	pd_other = ibv_alloc_pd(dev_a.ctx);
	ah_other = pd_other ? ud_ah(pd_other, &dev_a, &dev_b) : NULL;
	if (!ah_other) {
		fail("second PD and AH: %s", strerror(errno));
		goto out;
	}
	ud_send(&a, ah_other, b.qp->qp_num, UD_QKEY, 5, 0, 64, 4005, false);
	expect_eq("UD AH of another PD: sender",
		  ud_wc(a.scq, &wc, "UD other PD"), IBV_WC_LOC_QP_OP_ERR);
	expect_state("UD AH of another PD", a.qp, IBV_QPS_ERR);
	ibv_destroy_ah(ah);
	ah = NULL;
	ud_free(&a);

	/* Longer than the port MTU (1024 at most on these planes). */
	if (ud_make(&a, &dev_a))
		goto out;
	ah = ud_ah(a.pd, &dev_a, &dev_b);
	if (!ah) {
		fail("ibv_create_ah: %s", strerror(errno));
		goto out;
	}
	ud_send(&a, ah, b.qp->qp_num, UD_QKEY, 6, 0, 8 * KiB, 4006, false);
	expect_eq("UD longer than the MTU: sender",
		  ud_wc(a.scq, &wc, "UD long"), IBV_WC_LOC_LEN_ERR);
	expect_state("UD longer than the MTU", a.qp, IBV_QPS_ERR);
	if (poll_n(b.rcq, &wc, 1, 0))
		fail("UD: an unexpected datagram: wr %llu", ULL(wc.wr_id));
out:
	if (ah)
		ibv_destroy_ah(ah);
	if (ah_other)
		ibv_destroy_ah(ah_other);
	if (pd_other)
		ibv_dealloc_pd(pd_other);
	ud_free(&a);
	ud_free(&b);
}

/* Does this process have CAP_NET_RAW (bit 13 of CapEff)? */
static bool have_net_raw(void)
{
	char line[128];
	unsigned long long eff = 0;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	if (f)
		fclose(f);
	return eff & (1ULL << 13);
}

/*
 * A controlled Q_Key (high bit set, as QP1's 0x80010000) lets a UD QP send
 * to GSI QPs: only with CAP_NET_RAW (EPERM without, the Q_Key unchanged).
 */
static void c_qkey_priv(void)
{
	struct ibv_qp_attr a = { .qkey = 0x80010000 };
	struct ibv_qp_init_attr ia;
	bool raw = have_net_raw();
	struct ud_end u;

	if (ud_make(&u, &dev_a))
		goto out;
	expect_eq(raw ? "controlled Q_Key with CAP_NET_RAW" :
			"controlled Q_Key without CAP_NET_RAW",
		  ibv_modify_qp(u.qp, &a, IBV_QP_QKEY), raw ? 0 : EPERM);
	memset(&a, 0, sizeof(a));
	expect_eq("ibv_query_qp", ibv_query_qp(u.qp, &a, IBV_QP_QKEY, &ia), 0);
	expect_eq("Q_Key after", a.qkey, raw ? 0x80010000 : UD_QKEY);
out:
	ud_free(&u);
}

/* Each transition the verbs forbid is refused with EINVAL, state unchanged. */
static void c_transitions(void)
{
	struct cfg c = cfg_default();
	struct ibv_qp_attr a;
	struct coord peer;
	struct pair p;

	memset(&p, 0, sizeof(p));
	p.c = c;
	if (end_make(&p.a, &dev_a, dev_a.ctx, &c, c.a_psn) ||
	    end_make(&p.b, &dev_b, dev_b.ctx, &c, c.b_psn))
		goto out;
	peer = coord_of(&p.b);

#define REFUSE(what, st, mask) do {					\
		a.qp_state = (st);					\
		expect_eq(what, ibv_modify_qp(p.a.qp, &a, (mask)), EINVAL); \
	} while (0)

	a = rtr_attr(&c, &peer, p.a.d->gid_idx);
	REFUSE("RESET -> RTR", IBV_QPS_RTR, RTR_MASK);
	REFUSE("RESET -> RTS", IBV_QPS_RTS, IBV_QP_STATE);
	REFUSE("RESET -> SQD", IBV_QPS_SQD, IBV_QP_STATE);
	memset(&a, 0, sizeof(a));
	a.qp_access_flags = ACCESS_ALL;
	REFUSE("RESET -> INIT without a port", IBV_QPS_INIT,
	       IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_ACCESS_FLAGS);
	a.cur_qp_state = IBV_QPS_RTR;
	a.port_num = 1;
	REFUSE("RESET -> INIT claiming to be in RTR", IBV_QPS_INIT,
	       IBV_QP_STATE | IBV_QP_CUR_STATE | IBV_QP_PKEY_INDEX |
	       IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	expect_state("after the refusals", p.a.qp, IBV_QPS_RESET);
	expect_eq("RESET -> INIT", to_init(p.a.qp), 0);
	REFUSE("INIT -> RTS", IBV_QPS_RTS, RTS_MASK);
	a = rtr_attr(&c, &peer, p.a.d->gid_idx);
	REFUSE("INIT -> RTR without an address vector", IBV_QPS_RTR,
	       RTR_MASK & ~IBV_QP_AV);
	expect_state("after the refusals", p.a.qp, IBV_QPS_INIT);
	expect_eq("INIT -> RTR", to_rtr(&p.a, &c, &peer), 0);
	memset(&a, 0, sizeof(a));
	REFUSE("RTR -> RTS without its attributes", IBV_QPS_RTS, IBV_QP_STATE);
	REFUSE("RTR -> INIT", IBV_QPS_INIT, IBV_QP_STATE);
	expect_eq("RTR -> RTS", to_rts(&p.a, &c), 0);
	a = rtr_attr(&c, &peer, p.a.d->gid_idx);
	REFUSE("RTS -> RTR", IBV_QPS_RTR, RTR_MASK);
	memset(&a, 0, sizeof(a));
	REFUSE("RTS -> INIT", IBV_QPS_INIT, IBV_QP_STATE);
	expect_state("after the refusals", p.a.qp, IBV_QPS_RTS);
	a.qp_state = IBV_QPS_ERR;
	expect_eq("RTS -> ERR", ibv_modify_qp(p.a.qp, &a, IBV_QP_STATE), 0);
	REFUSE("ERR -> RTS", IBV_QPS_RTS, IBV_QP_STATE);
	REFUSE("ERR -> INIT", IBV_QPS_INIT, IBV_QP_STATE);
	expect_state("after the refusals", p.a.qp, IBV_QPS_ERR);
	a.qp_state = IBV_QPS_RESET;
	expect_eq("ERR -> RESET", ibv_modify_qp(p.a.qp, &a, IBV_QP_STATE), 0);
	expect_state("at the end", p.a.qp, IBV_QPS_RESET);
#undef REFUSE
out:
	pair_free(&p);
}

/*
 * RTS -> SQD -> RTS: a WR posted while drained waits (its completion does
 * not come and its bytes do not arrive within 200 ms), and goes once the
 * QP is back in RTS.
 */
static void c_sqd(void)
{
	struct ibv_qp_attr a = { 0 };
	struct cfg c = cfg_default();
	struct ibv_wc wc;
	struct pair p;

	if (pair_make(&p, &c))
		goto out;
	fill(p.a.mem, 4096, 3);
	a.qp_state = IBV_QPS_SQD;
	expect_eq("RTS -> SQD", ibv_modify_qp(p.a.qp, &a, IBV_QP_STATE), 0);
	expect_state("drained", p.a.qp, IBV_QPS_SQD);
	post(&p.a, 1, IBV_WR_RDMA_WRITE, 0, 4096, &p.b, 0);
	expect_eq("completions while drained", poll_n(p.a.scq, &wc, 1, 200), 0);
	expect_eq("bytes arrived while drained", nonzero(p.b.mem, 4096), 0);
	a.qp_state = IBV_QPS_RTS;
	expect_eq("SQD -> RTS", ibv_modify_qp(p.a.qp, &a, IBV_QP_STATE), 0);
	expect_wcs("A send queue", p.a.scq, (struct want[]) {
		{ 1, IBV_WC_SUCCESS } }, 1);
	expect_eq("bytes that differ at B", differ(p.b.mem, 4096, 3), 0);
out:
	pair_free(&p);
}

/* One WRITE, SEND and READ of @size each way it can go; data checked. */
static void transfer(struct pair *p, uint64_t size, uint64_t seed,
		     const char *what)
{
	uint64_t half = p->c.len / 2;
	/*
	 * The completion must come, but a loaded TCG guest is slow: the
	 * deadline allows 2 MiB/s (-w alone gave a 1 GiB WRITE 20 s, which
	 * a stock guest beside kernel builds did not make).
	 */
	int ms = wait_ms;

	if (size / 2048 > (uint64_t)wait_ms)
		ms = size / 2048;
	char w[96];

	fill_msg(p->a.mem, size, seed);
	post(&p->a, 1, IBV_WR_RDMA_WRITE, 0, size, &p->b, 0);
	snprintf(w, sizeof(w), "%s: WRITE of %llu", what, ULL(size));
	expect_wcs_within(w, p->a.scq,
			  (struct want[]) { { 1, IBV_WC_SUCCESS } }, 1, ms);
	expect_eq(w, differ(p->b.mem, size, seed), 0);

	fill_msg(p->a.mem + half, size, seed + 1);
	post_recv(&p->b, 2, half, size, p->b.mr->lkey);
	post(&p->a, 3, IBV_WR_SEND, half, size, NULL, 0);
	snprintf(w, sizeof(w), "%s: SEND of %llu", what, ULL(size));
	expect_wcs_within(w, p->a.scq,
			  (struct want[]) { { 3, IBV_WC_SUCCESS } }, 1, ms);
	expect_wcs_within(w, p->b.rcq,
			  (struct want[]) { { 2, IBV_WC_SUCCESS } }, 1, ms);
	expect_eq(w, differ(p->b.mem + half, size, seed + 1), 0);

	fill_msg(p->b.mem, size, seed + 2);
	post(&p->a, 4, IBV_WR_RDMA_READ, 0, size, &p->b, 0);
	snprintf(w, sizeof(w), "%s: READ of %llu", what, ULL(size));
	expect_wcs_within(w, p->a.scq,
			  (struct want[]) { { 4, IBV_WC_SUCCESS } }, 1, ms);
	expect_eq(w, differ(p->a.mem, size, seed + 2), 0);
	expect_eq("canaries changed", canary_changed(&p->a) +
		  canary_changed(&p->b), 0);
}

/* ERR -> RESET -> INIT -> RTR -> RTS on both sides, then it all works. */
static void c_reuse(void)
{
	struct ibv_qp_attr a = { 0 };
	struct cfg c = cfg_default();
	struct pair p;

	if (pair_make(&p, &c))
		goto out;
	transfer(&p, 8192, 11, "first life");
	a.qp_state = IBV_QPS_ERR;
	expect_eq("A to ERR", ibv_modify_qp(p.a.qp, &a, IBV_QP_STATE), 0);
	expect_eq("B to ERR", ibv_modify_qp(p.b.qp, &a, IBV_QP_STATE), 0);
	a.qp_state = IBV_QPS_RESET;
	expect_eq("A to RESET", ibv_modify_qp(p.a.qp, &a, IBV_QP_STATE), 0);
	expect_eq("B to RESET", ibv_modify_qp(p.b.qp, &a, IBV_QP_STATE), 0);
	p.a.psn = (p.a.psn + 100000) & 0xffffff;
	p.b.psn = (p.b.psn + 100000) & 0xffffff;
	if (pair_connect(&p))
		goto out;
	transfer(&p, 65536 + 3, 21, "second life");
out:
	pair_free(&p);
}

/* Both directions start just below 2^24: every message crosses the wrap. */
static void c_psn_wrap(void)
{
	struct cfg c = cfg_default();
	struct pair p;
	int i;

	c.a_psn = 0xfffff0;
	c.b_psn = 0xffffe8;
	c.len = 256 * KiB;
	if (pair_make(&p, &c))
		goto out;
	for (i = 0; i < 4; i++) {
		char what[32];

		snprintf(what, sizeof(what), "round %d", i);
		transfer(&p, 16 * KiB + i, 40 + 4 * i, what);
	}
	/* and B's requester across its own wrap */
	fill_msg(p.b.mem, 64 * KiB, 99);
	post(&p.b, 9, IBV_WR_RDMA_WRITE, 0, 64 * KiB, &p.a, 128 * KiB);
	expect_wcs("B's WRITE", p.b.scq, (struct want[]) {
		{ 9, IBV_WC_SUCCESS } }, 1);
	expect_eq("B's WRITE", differ(p.a.mem + 128 * KiB, 64 * KiB, 99), 0);
out:
	pair_free(&p);
}

/*
 * Messages of 1 byte up to 16 MiB (no larger than -s; 1 GiB with -l), at
 * the MTU's edges.
 */
static void c_sizes(void)
{
	static const uint64_t sizes[] = {
		1, 2, 1023, 1024, 1025, 4096, 65535, 65536, 1 * MiB + 1,
		16 * MiB,
	};
	struct cfg c = cfg_default();
	struct pair p;
	unsigned int i;

	c.len = 32 * MiB;
	if (pair_make(&p, &c))
		goto out;
	for (i = 0; i < ARRAY_SIZE(sizes) && !case_fails; i++)
		if (sizes[i] <= max_size)
			transfer(&p, sizes[i], 100 + i, "size");
	pair_free(&p);
	if (!long_cases || case_fails)
		return;
	c = cfg_default();
	c.len = 2 * GiB;
	if (pair_make(&p, &c))
		goto out;
	transfer(&p, 1 * GiB, 200, "size");
out:
	pair_free(&p);
}

/*
 * More signaled completions than A's send CQ holds, none polled: the CQ
 * reports an error, the QP that overran it fails, and exactly the
 * completions that fitted are there, in order.
 */
static void c_cq_overflow(void)
{
	struct cfg c = cfg_default();
	struct ibv_send_wr wr[64], *bad;
	struct ibv_sge sge[64];
	struct want w[64];
	struct pair p;
	int i, n, cap;

	c.cqe = 4;
	if (pair_make(&p, &c))
		goto out;
	cap = p.a.scq->cqe;
	n = cap + 3;
	if (n > 64) {
		fail("CQ of %d entries for 4 asked", cap);
		goto out;
	}
	async_drain(&dev_a);
	for (i = 0; i < n; i++) {
		send_wr(&wr[i], &sge[i], i, IBV_WR_RDMA_WRITE, &p.a, 0, 64,
			&p.b, 64 * i);
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
		w[i] = (struct want) { i, IBV_WC_SUCCESS };
	}
	expect_eq("ibv_post_send", ibv_post_send(p.a.qp, wr, &bad), 0);
	if (!async_wait(&dev_a, IBV_EVENT_CQ_ERR, p.a.scq, wait_ms))
		fail("no CQ error event");
	if (!async_wait(&dev_a, IBV_EVENT_QP_FATAL, p.a.qp, wait_ms))
		fail("no QP fatal event");
	expect_state("A", p.a.qp, IBV_QPS_ERR);
	expect_wcs("A send queue", p.a.scq, w, cap);
	expect_state("B", p.b.qp, IBV_QPS_RTS);
out:
	pair_free(&p);
}

/* One WR more than the send queue holds: ENOMEM there, the rest go. */
static void c_sq_full(void)
{
	struct cfg c = cfg_default();
	struct ibv_send_wr wr[64], *bad = NULL;
	struct ibv_sge sge[64];
	struct want w[64];
	struct pair p;
	uint32_t i, cap;

	c.sq_wr = 4;
	if (pair_make(&p, &c))
		goto out;
	cap = p.a.sq_cap;
	if (cap + 1 > 64) {
		fail("send queue of %u WRs for 4 asked", cap);
		goto out;
	}
	for (i = 0; i <= cap; i++) {
		send_wr(&wr[i], &sge[i], i, IBV_WR_RDMA_WRITE, &p.a, 64 * i, 64,
			&p.b, 64 * i);
		wr[i].next = i < cap ? &wr[i + 1] : NULL;
		w[i] = (struct want) { i, IBV_WC_SUCCESS };
	}
	fill(p.a.mem, 64 * (cap + 1), 5);
	expect_eq("posting one past the queue", ibv_post_send(p.a.qp, wr, &bad),
		  ENOMEM);
	expect_eq("the WR refused", bad ? bad - wr : -1, cap);
	expect_wcs("A send queue", p.a.scq, w, cap);
	expect_eq("bytes that differ at B", differ(p.b.mem, 64 * cap, 5), 0);
out:
	pair_free(&p);
}

/*
 * WRITEs in flight for the dereg and fork cases: more than a window, so
 * that most are built and placed after the call that races them.
 */
#define NWR	64
#define WR_LEN	(32 * KiB)

/*
 * An MR deregistered while WRs that use it are in flight: on A (the
 * source), on B (the target).  Every WR completes, in order: first those
 * that succeeded, with their bytes in place; of the rest, the one that
 * met the missing MR with a local protection (A) or remote access (B)
 * error, all others flushed.  No byte lands outside an MR.
 */
static void c_dereg_inflight(void)
{
	int side;

	for (side = 0; side < 2; side++) {
		struct cfg c = cfg_default();
		enum ibv_wc_status cause;
		struct ibv_wc wc[NWR];
		struct pair p;
		int i, got, ok, ncause;

		c.len = NWR * WR_LEN;
		if (pair_make(&p, &c))
			goto next;
		fill_msg(p.a.mem, c.len, 61);
		for (i = 0; i < NWR; i++)
			post(&p.a, i, IBV_WR_RDMA_WRITE, WR_LEN * i, WR_LEN,
			     &p.b, WR_LEN * i);
		if (side == 0) {
			expect_eq("A's dereg", ibv_dereg_mr(p.a.mr), 0);
			p.a.mr = NULL;
		} else {
			expect_eq("B's dereg", ibv_dereg_mr(p.b.mr), 0);
			p.b.mr = NULL;
		}
		got = poll_n(p.a.scq, wc, NWR, wait_ms);
		expect_eq("completions", got, NWR);
		for (ok = 0; ok < got && wc[ok].status == IBV_WC_SUCCESS; ok++)
			if (wc[ok].wr_id != (uint64_t)ok)
				fail("completion %d is wr %llu", ok,
				     ULL(wc[ok].wr_id));
		note("%s deregistered: %d of %d WRITEs completed first",
		     side ? "B" : "A", ok, NWR);
		/*
		 * After the successes: the WR that met the missing MR with
		 * the error, every other one flushed, WRs still in flight
		 * before it included.
		 */
		cause = side ? IBV_WC_REM_ACCESS_ERR : IBV_WC_LOC_PROT_ERR;
		for (i = ok, ncause = 0; i < got; i++) {
			if (wc[i].wr_id != (uint64_t)i)
				fail("completion %d is wr %llu", i,
				     ULL(wc[i].wr_id));
			if (wc[i].status == cause)
				ncause++;
			else if (wc[i].status != IBV_WC_WR_FLUSH_ERR)
				fail("completion %d: \"%s\"", i,
				     ibv_wc_status_str(wc[i].status));
		}
		if (ok < got && ncause != 1)
			fail("%d completions \"%s\", want 1", ncause,
			     ibv_wc_status_str(cause));
		/*
		 * What completed is in place; so is what a WQE completed
		 * with an error moved before it failed: no check of those.
		 */
		for (i = 0; i < ok; i++)
			if (memcmp(p.b.mem + WR_LEN * i, p.a.mem + WR_LEN * i,
				   WR_LEN))
				fail("WRITE %d completed, its bytes differ", i);
		expect_eq("canaries changed", canary_changed(&p.a) +
			  canary_changed(&p.b), 0);
next:
		pair_free(&p);
	}
}

/*
 * fork() with WRs in flight: the child writes over every buffer it
 * inherited and exits; the parent's transfers complete with its bytes.
 */
static void c_fork(void)
{
	struct cfg c = cfg_default();
	struct want w[NWR];
	struct pair p;
	int i, status;
	pid_t pid;

	c.len = NWR * WR_LEN;
	if (pair_make(&p, &c))
		goto out;
	fill_msg(p.a.mem, c.len, 71);
	for (i = 0; i < NWR; i++) {
		post(&p.a, i, IBV_WR_RDMA_WRITE, WR_LEN * i, WR_LEN, &p.b,
		     WR_LEN * i);
		w[i] = (struct want) { i, IBV_WC_SUCCESS };
	}
	pid = fork();
	if (pid == 0) {
		memset(p.a.mem, 0xff, c.len);
		memset(p.b.mem, 0xff, c.len);
		_exit(0);
	}
	if (pid < 0) {
		fail("fork: %s", strerror(errno));
		goto out;
	}
	expect_eq("child's exit", waitpid(pid, &status, 0) == pid &&
		  WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
	expect_wcs("A send queue", p.a.scq, w, NWR);
	expect_eq("bytes that differ at A", differ(p.a.mem, c.len, 71), 0);
	expect_eq("bytes that differ at B", differ(p.b.mem, c.len, 71), 0);
out:
	pair_free(&p);
}

static int read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t r;

	while (got < len) {
		r = read(fd, (char *)buf + got, len - got);
		if (r <= 0)
			return -1;
		got += r;
	}
	return 0;
}

/*
 * Give QP @e of device B the MRC attribute @name = @value through the
 * control plane (mrcctl qp set, before RTR), which finds the device in the
 * namespace of its netdevs.
 */
static int qp_set(const struct end *e, const char *name, const char *value)
{
	char qpn[16];
	int status;
	pid_t pid;

	if (!mrcctl) {
		fail("%s needs mrcctl (-m)", name);
		return -1;
	}
	snprintf(qpn, sizeof(qpn), "%u", e->qp->qp_num);
	pid = fork();
	if (pid == 0) {
		if (netns_b)
			execlp(mrcctl, mrcctl, "-n", netns_b, "qp", "set",
			       "dev", e->d->name, "qpn", qpn, name, value,
			       (char *)NULL);
		else
			execlp(mrcctl, mrcctl, "qp", "set", "dev", e->d->name,
			       "qpn", qpn, name, value, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status)) {
		fail("mrcctl qp set dev %s qpn %s %s %s failed", e->d->name,
		     qpn, name, value);
		return -1;
	}
	return 0;
}

/*
 * The child owns A (its own context), the parent B.  The child keeps
 * WRITEs in flight to B; killed, its QP goes with it.  B's SENDs to it
 * then run out of retries; a new pair on the same devices still works.
 */
static void child_writer(int rfd, int wfd)
{
	struct cfg c = cfg_default();
	struct ibv_context *ctx;
	struct ibv_device **list;
	struct coord me, peer;
	struct ibv_wc wc[16];
	struct end a;
	uint64_t i = 0;
	int n, k;

	list = ibv_get_device_list(&n);
	for (k = 0; list && k < n; k++)
		if (!strcmp(ibv_get_device_name(list[k]), dev_a.name))
			break;
	ctx = list && k < n ? ibv_open_device(list[k]) : NULL;
	if (!ctx || read_full(rfd, &c, sizeof(c)) ||
	    end_make(&a, &dev_a, ctx, &c, c.a_psn))
		_exit(3);
	me = coord_of(&a);
	if (write(wfd, &me, sizeof(me)) != sizeof(me) ||
	    read_full(rfd, &peer, sizeof(peer)) || end_connect(&a, &c, &peer))
		_exit(3);
	for (k = 0; k < 16; k++)
		post_recv(&a, 1000 + k, 0, 64, a.mr->lkey);
	/* Keep the send queue full of WRITEs to B, for ever. */
	for (;;) {
		while (i < 48 || ibv_poll_cq(a.scq, 16, wc) > 0) {
			struct ibv_send_wr wr, *bad;
			struct ibv_sge sge;

			send_wr(&wr, &sge, i, IBV_WR_RDMA_WRITE, &a,
				(i % 16) * 64 * KiB, 64 * KiB, NULL, 0);
			wr.wr.rdma.remote_addr = peer.addr + (i % 16) * 64 * KiB;
			wr.wr.rdma.rkey = peer.rkey;
			if (ibv_post_send(a.qp, &wr, &bad))
				break;
			if (++i == 48)
				(void)!write(wfd, "g", 1);
		}
		usleep(100);
	}
}

static void c_kill(void)
{
	struct cfg c = cfg_default();
	int to_child[2], to_parent[2], status;
	struct coord peer, me;
	struct ibv_wc wc[8];
	struct pair p;
	uint64_t t;
	char go;
	pid_t pid;
	int i, got;

	memset(&p, 0, sizeof(p));
	c.len = 1 * MiB;
	/* B's limits: see below. */
	c.retry_cnt = 7;
	c.timeout = 18;
	if (pipe(to_child) || pipe(to_parent)) {
		fail("pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(to_child[1]);
		close(to_parent[0]);
		child_writer(to_child[0], to_parent[1]);
	}
	close(to_child[0]);
	close(to_parent[1]);
	if (pid < 0) {
		fail("fork: %s", strerror(errno));
		goto out;
	}
	if (write(to_child[1], &c, sizeof(c)) != sizeof(c) ||
	    read_full(to_parent[0], &peer, sizeof(peer))) {
		fail("the child did not set up its QP");
		goto out;
	}
	p.c = c;
	/*
	 * No exponential retries: B gives up after retry_cnt + 1 = 8 RTOs.
	 * Its one SEND to the live child waits behind the child's 3 MiB of
	 * WRITEs, hundreds of milliseconds on a loaded guest: a 268 ms floor
	 * (timeout 18) lets it take 2 s.  Its RTO then follows the RTT that
	 * SEND measured, which the default six doublings (134 RTOs) made
	 * longer than a minute; 8 of them stay well inside the wait.
	 */
	if (end_make(&p.b, &dev_b, dev_b.ctx, &c, c.b_psn) ||
	    qp_set(&p.b, "retry-exp", "0"))
		goto out;
	me = coord_of(&p.b);
	if (write(to_child[1], &me, sizeof(me)) != sizeof(me) ||
	    end_connect(&p.b, &c, &peer))
		goto out;
	if (read_full(to_parent[0], &go, 1)) {
		fail("the child's WRITEs did not start");
		goto out;
	}
	/* A SEND it takes while alive, then the kill with WRITEs in flight. */
	post(&p.b, 1, IBV_WR_SEND, 0, 64, NULL, 0);
	expect_wcs("B's SEND to the live child", p.b.scq, (struct want[]) {
		{ 1, IBV_WC_SUCCESS } }, 1);
	kill(pid, SIGKILL);
	expect_eq("child killed", waitpid(pid, &status, 0) == pid &&
		  WIFSIGNALED(status) ? WTERMSIG(status) : -1, SIGKILL);
	pid = 0;
	t = now_ms();
	for (i = 0; i < 4; i++)
		post(&p.b, 10 + i, IBV_WR_SEND, 0, 64, NULL, 0);
	got = poll_n(p.b.scq, wc, 4, wait_ms);
	expect_eq("B's completions after the kill", got, 4);
	note("B gave up after %llu ms", ULL(now_ms() - t));
	for (i = 0; i < got; i++)
		if (wc[i].wr_id != 10ULL + i || wc[i].status !=
		    (i ? IBV_WC_WR_FLUSH_ERR : IBV_WC_RETRY_EXC_ERR))
			fail("completion %d: wr %llu \"%s\"", i,
			     ULL(wc[i].wr_id), ibv_wc_status_str(wc[i].status));
	expect_state("B", p.b.qp, IBV_QPS_ERR);
	end_free(&p.b);
	/* The devices themselves are fine. */
	c = cfg_default();
	if (!pair_make(&p, &c))
		transfer(&p, 65536, 81, "after the kill");
out:
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	close(to_child[1]);
	close(to_parent[0]);
	pair_free(&p);
}

static const struct {
	const char *name;
	void (*run)(void);
} cases[] = {
	{ "flush_order", c_flush_order },
	{ "rnr_retry_exc", c_rnr_retry_exc },
	{ "retry_exc", c_retry_exc },
	{ "rem_inv_req", c_rem_inv_req },
	{ "send_inv", c_send_inv },
	{ "rem_access", c_rem_access },
	{ "rem_op", c_rem_op },
	{ "loc_prot", c_loc_prot },
	{ "bad_opcode", c_bad_opcode },
	{ "atomic", c_atomic },
	{ "atomic_errors", c_atomic_errors },
	{ "srq", c_srq },
	{ "wr_api", c_wr_api },
	{ "rereg", c_rereg },
	{ "mw", c_mw },
	{ "mw_errors", c_mw_errors },
	{ "ud", c_ud },
	{ "qkey_priv", c_qkey_priv },
	{ "transitions", c_transitions },
	{ "sqd", c_sqd },
	{ "reuse", c_reuse },
	{ "psn_wrap", c_psn_wrap },
	{ "sizes", c_sizes },
	{ "cq_overflow", c_cq_overflow },
	{ "sq_full", c_sq_full },
	{ "dereg_inflight", c_dereg_inflight },
	{ "fork", c_fork },
	{ "kill", c_kill },
};

static void help_exit(int status)
{
	unsigned int i;

	fprintf(status ? stderr : stdout,
		"mrc-rcerr -a DEV -A GID_INDEX -b DEV -B GID_INDEX [-l] [-m MRCCTL [-n NETNS]]\n"
		"          [-s BYTES] [-w SECONDS] [CASE...]\n"
		"  -l  long cases too (a 1 GiB message)\n"
		"  -m  mrcctl, to set MRC attributes verbs has no field for (case kill)\n"
		"  -n  the network namespace of device B's netdevs, for mrcctl\n"
		"  -s  largest message of the sizes case (default 16 MiB)\n"
		"  -w  wait this long for a completion that must come (default 20)\n"
		"cases:");
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		fprintf(status ? stderr : stdout, " %s", cases[i].name);
	fputc('\n', status ? stderr : stdout);
	exit(status);
}

int main(int argc, char **argv)
{
	unsigned int i, n = 0, failed = 0;
	int opt, j;

	while ((opt = getopt(argc, argv, "a:A:b:B:lm:n:s:w:h")) != -1) {
		switch (opt) {
		case 'a':
			dev_a.name = optarg;
			break;
		case 'A':
			dev_a.gid_idx = atoi(optarg);
			break;
		case 'b':
			dev_b.name = optarg;
			break;
		case 'B':
			dev_b.gid_idx = atoi(optarg);
			break;
		case 'l':
			long_cases = true;
			break;
		case 'm':
			mrcctl = optarg;
			break;
		case 'n':
			netns_b = optarg;
			break;
		case 's':
			max_size = strtoull(optarg, NULL, 0);
			break;
		case 'w':
			wait_ms = atoi(optarg) * 1000;
			break;
		case 'h':
			help_exit(0);
			break;
		default:
			help_exit(2);
		}
	}
	if (!dev_a.name || !dev_b.name)
		help_exit(2);
	for (j = optind; j < argc; j++) {
		for (i = 0; i < ARRAY_SIZE(cases); i++)
			if (!strcmp(argv[j], cases[i].name))
				break;
		if (i == ARRAY_SIZE(cases)) {
			fprintf(stderr, "mrc-rcerr: no case %s\n", argv[j]);
			help_exit(2);
		}
	}
	if (dev_open(&dev_a) || dev_open(&dev_b))
		return 3;
	setvbuf(stdout, NULL, _IOLBF, 0);

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool wanted = optind == argc;
		uint64_t t;

		for (j = optind; j < argc; j++)
			wanted |= !strcmp(argv[j], cases[i].name);
		if (!wanted)
			continue;
		case_fails = 0;
		async_drain(&dev_a);
		async_drain(&dev_b);
		t = now_ms();
		cases[i].run();
		n++;
		failed += !!case_fails;
		if (case_fails)
			printf("not ");
		printf("ok %u - %s (%llu ms)\n", n, cases[i].name,
		       ULL(now_ms() - t));
	}
	printf("# %u of %u cases passed\n", n - failed, n);
	return failed ? 1 : 0;
}
