// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_pingpong: a WRITE_IMM ping-pong over the OCP MRC application API, as
 * an application written for MRC NICs would do it.
 *
 *   server: mrc_pingpong -d DEV -g GIDX [-p PORT] [-n ITERS] [-s SIZE]
 *   client: mrc_pingpong -d DEV -g GIDX [-p PORT] [-n ITERS] [-s SIZE] HOST
 *
 * The two sides swap QP number, GID, buffer address and rkey over TCP, then
 * take turns: each WRITE_IMM carries SIZE bytes whose every byte is the
 * iteration's number, and its immediate is that number; the receiver checks
 * both before it answers.  Prints the round trips' mean in microseconds.
 * Exit status 0 when every round trip came back intact.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mrc.h>

static const char usage[] =
	"usage: mrc_pingpong -d DEV [-g GIDX] [-p PORT] [-n ITERS] [-s SIZE] [HOST]\n";

struct peer {
	uint32_t qpn;
	uint32_t rkey;
	uint64_t addr;
	union ibv_gid gid;
};

static int die(const char *what)
{
	fprintf(stderr, "mrc_pingpong: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* One TCP connection to swap the peers' details: listen, or connect. */
static int tcp_swap(const char *host, const char *port, const struct peer *me,
		    struct peer *them)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	int fd, one = 1, lfd;

	hints.ai_flags = host ? 0 : AI_PASSIVE;
	if (getaddrinfo(host, port, &hints, &ai))
		die("getaddrinfo");
	fd = socket(ai->ai_family, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	if (host) {
		if (connect(fd, ai->ai_addr, ai->ai_addrlen))
			die("connect");
	} else {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 1))
			die("listen");
		lfd = fd;
		fd = accept(lfd, NULL, NULL);
		if (fd < 0)
			die("accept");
		close(lfd);
	}
	freeaddrinfo(ai);
	if (write(fd, me, sizeof(*me)) != sizeof(*me) ||
	    read(fd, them, sizeof(*them)) != sizeof(*them))
		die("exchange");
	return fd;
}

static void connect_qp(struct mrc_qp *qp, int gidx, const struct peer *them)
{
	struct ibv_qp_attr v = {};
	struct mrc_qp_attr m = {};

	v.qp_state = IBV_QPS_INIT;
	v.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	if (mrc_modify_qp(qp, &v, IBV_QP_STATE | IBV_QP_ACCESS_FLAGS, &m, 0))
		die("INIT");
	memset(&v, 0, sizeof(v));
	v.qp_state = IBV_QPS_RTR;
	v.path_mtu = IBV_MTU_1024;
	v.dest_qp_num = them->qpn;
	v.ah_attr.is_global = 1;
	v.ah_attr.grh.dgid = them->gid;
	v.ah_attr.grh.sgid_index = gidx;
	v.ah_attr.grh.hop_limit = 64;
	v.ah_attr.port_num = 1;
	if (mrc_modify_qp(qp, &v, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN, &m, 0))
		die("RTR");
	memset(&v, 0, sizeof(v));
	v.qp_state = IBV_QPS_RTS;
	m.timeout = 14;		/* 16.8 ms */
	m.retry.linear_cnt = 7;
	m.retry.exp_cnt = 6;
	if (mrc_modify_qp(qp, &v, IBV_QP_STATE | IBV_QP_SQ_PSN, &m,
			  MRC_QP_TIMEOUT | MRC_QP_RETRY_CNT))
		die("RTS");
}

static void post_recv(struct mrc_qp *qp)
{
	struct ibv_recv_wr wr = {}, *bad;

	if (mrc_post_recv(qp, &wr, &bad))
		die("post_recv");
}

/* Waits for one completion of @cq; exits on any but success. */
static void wait_wc(struct mrc_cq *cq, struct ibv_wc *wc)
{
	int n;

	do {
		n = mrc_poll_cq(cq, 1, wc);
	} while (!n);
	if (n < 0 || wc->status != IBV_WC_SUCCESS) {
		fprintf(stderr, "mrc_pingpong: completion: %s\n",
			n < 0 ? "poll failed" : ibv_wc_status_str(wc->status));
		exit(1);
	}
}

/* WRITE_IMM of @size bytes of @i, immediate @i, into the peer's half. */
static void give(struct mrc_cq *scq, struct mrc_qp *qp, unsigned char *buf,
		 int size, int i, uint32_t lkey, const struct peer *them)
{
	struct ibv_sge sge = { (uintptr_t)buf, (uint32_t)size, lkey };
	struct ibv_send_wr wr = {}, *bad;
	struct ibv_wc wc;

	memset(buf, i, size);
	wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.imm_data = htonl(i);
	wr.wr.rdma.remote_addr = them->addr;
	wr.wr.rdma.rkey = them->rkey;
	if (mrc_post_send(qp, &wr, &bad))
		die("post_send");
	wait_wc(scq, &wc);
}

/* The peer's WRITE_IMM @i: bytes and immediate checked; returns the bad. */
static int take(struct mrc_cq *rcq, struct mrc_qp *qp, unsigned char *in,
		int size, int i)
{
	struct ibv_wc wc;
	int j, bad = 0;

	wait_wc(rcq, &wc);
	for (j = 0; j < size; j++)
		bad += in[j] != (unsigned char)i;
	bad += wc.opcode != IBV_WC_RECV_RDMA_WITH_IMM ||
	       ntohl(wc.imm_data) != (uint32_t)i;
	post_recv(qp);
	return bad;
}

int main(int argc, char **argv)
{
	const char *dev = NULL, *port = "18516";
	int gidx = 0, iters = 100, size = 4096, opt, fd, i, bad = 0;
	struct mrc_qp_init_attr qi = {};
	struct ibv_device **list;
	struct ibv_context *vctx = NULL;
	struct mrc_context *ctx;
	struct peer me = {}, them;
	struct timespec t0, t1;
	struct mrc_cq *scq, *rcq;
	struct mrc_qp *qp;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	unsigned char *buf;
	bool client;

	while ((opt = getopt(argc, argv, "d:g:p:n:s:")) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'g':
			gidx = atoi(optarg);
			break;
		case 'p':
			port = optarg;
			break;
		case 'n':
			iters = atoi(optarg);
			break;
		case 's':
			size = atoi(optarg);
			break;
		default:
			return 2;
		}
	}
	client = optind < argc;
	list = ibv_get_device_list(NULL);
	for (i = 0; dev && list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), dev))
			vctx = ibv_open_device(list[i]);
	if (!vctx || iters < 1 || size < 1) {
		fputs(usage, stderr);
		return 2;
	}
	ctx = mrc_create_context(vctx, NULL);
	if (!ctx)
		die("mrc_create_context");
	scq = mrc_create_cq(ctx, 16, NULL, NULL, 0);
	rcq = mrc_create_cq(ctx, 16, NULL, NULL, 0);
	pd = ibv_alloc_pd(vctx);
	buf = calloc(2, size);
	mr = pd && buf ? ibv_reg_mr(pd, buf, 2 * size, IBV_ACCESS_LOCAL_WRITE |
				    IBV_ACCESS_REMOTE_WRITE) : NULL;
	if (!scq || !rcq || !mr)
		die("resources");
	qi.send_cq = scq;
	qi.recv_cq = rcq;
	qi.pd = pd;
	qi.cap.max_send_wr = 4;
	qi.cap.max_recv_wr = 4;
	qi.cap.max_send_sge = 1;
	qi.cap.max_recv_sge = 1;
	qp = mrc_create_qp(ctx, &qi);
	if (!qp || mrc_get_qpn(qp, &me.qpn) || ibv_query_gid(vctx, 1, gidx, &me.gid))
		die("QP");
	me.rkey = mr->rkey;
	me.addr = (uintptr_t)buf + size;	/* the peer writes the upper half */
	fd = tcp_swap(client ? argv[optind] : NULL, port, &me, &them);
	connect_qp(qp, gidx, &them);
	post_recv(qp);
	/* Both sides have a receive posted before the first write lands. */
	if (write(fd, "r", 1) != 1 || read(fd, &opt, 1) != 1)
		die("sync");

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < iters; i++) {
		if (!client)
			bad += take(rcq, qp, buf + size, size, i);
		give(scq, qp, buf, size, i, mr->lkey, &them);
		if (client)
			bad += take(rcq, qp, buf + size, size, i);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%d round trips of %d bytes, %.1f us each, %d bad\n", iters,
	       size, ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) /
	       iters / 1e3, bad);
	close(fd);
	mrc_destroy_qp(qp);
	mrc_destroy_cq(scq);
	mrc_destroy_cq(rcq);
	ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
	mrc_destroy_context(ctx);
	ibv_close_device(vctx);
	free(buf);
	ibv_free_device_list(list);
	return bad ? 1 : 0;
}
