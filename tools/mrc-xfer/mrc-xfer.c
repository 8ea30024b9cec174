// SPDX-License-Identifier: GPL-2.0
/*
 * mrc-xfer: a verifying RDMA transfer over one RC queue pair, libibverbs only.
 *
 * The two sides meet over TCP (the server listens, the client connects),
 * agree on the parameters, swap their QP numbers, GIDs and memory keys, run
 * the transfer and then swap one 64-bit digest per message: the sender's of
 * the pattern it sent, the receiver's of what arrived.  Both print one line
 * and exit 0 only when every message matched and every completion succeeded.
 *
 * Data flows from the client to the server for write, write_imm and send;
 * for read the client RDMA-READs the server's pattern.  badwrite is the
 * negative case: one RDMA WRITE outside the server's MR, which must fail with
 * IBV_WC_REM_ACCESS_ERR and leave the MR and the canaries around it intact.
 *
 * Exit status: 0 ok, 1 data mismatch, 2 usage, 3 verbs or completion error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <infiniband/verbs.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define EXIT_MISMATCH	1
#define EXIT_USAGE	2
#define EXIT_VERBS	3

#define XFER_MAGIC	0x6d72632d78666572ULL	/* "mrc-xfer" */
#define XFER_VERSION	1
#define CANARY		4096		/* bytes each side of the server's MR */
#define MAX_REGION	(1024ULL * 1024 * 1024)	/* write/read keep every message */
/* Formats use %llu: uint64_t is not unsigned long long everywhere. */
#define ULL(v)		((unsigned long long)(v))

enum op { OP_WRITE, OP_WRITE_IMM, OP_SEND, OP_READ, OP_BADWRITE };
static const char *const op_names[] = {
	"write", "write_imm", "send", "read", "badwrite"
};

enum bad { BAD_NONE, BAD_RKEY, BAD_PAST_END, BAD_BEFORE_START };
static const char *const bad_names[] = {
	"none", "rkey", "past_end", "before_start"
};

struct opts {
	const char *dev;
	const char *host;		/* NULL: server */
	const char *port;
	int gid_idx;
	int ib_port;
	enum op op;
	enum bad bad;
	uint64_t size;
	uint64_t iters;
	uint64_t depth;
	int mtu;
	uint64_t seed;
	int timeout_s;
	int64_t corrupt;		/* self-check: flip a byte of this message */
	const char *hold;		/* keep the QP until this file exists */
	const char *pause;		/* requester: pause twice on this file */
	const char *at_init;		/* wait in INIT until this file exists */
	const char *until;		/* send: the client ends when it exists */
};

struct xfer {
	struct opts o;
	int sock;
	struct ibv_context *ctx;
	struct ibv_comp_channel *chan;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;		/* whole allocation */
	uint8_t *mem;		/* registered part */
	uint64_t memlen;
	union ibv_gid gid;
	/* the peer's */
	uint32_t rqpn, rpsn, rrkey;
	uint64_t raddr, rlen;
	union ibv_gid rgid;
	/* one digest per message of the side that owns the data */
	uint64_t *dig;
	uint64_t ndig;
	uint64_t count;		/* messages of the transfer: -n, or fewer (--until) */
	int verbs_err;		/* a completion or verbs call failed */
};

static const char *prog = "mrc-xfer";

static void msg(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void die(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

static void help_exit(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: %s -d DEV -g GIDIDX [options] [SERVER]\n"
		"  without SERVER: listen for one client; with it: connect\n"
		"  -d DEV       RDMA device\n"
		"  -g GIDIDX    local GID table index (RoCE v2)\n"
		"  -i IBPORT    RDMA port (1)\n"
		"  -p PORT      TCP port for the exchange (18700)\n"
		"  -o OP        write|write_imm|send|read|badwrite (write)\n"
		"  -s SIZE      bytes per message, k/m suffix allowed (65536)\n"
		"  -n ITERS     messages (16)\n"
		"  -q DEPTH     messages in flight (4)\n"
		"  -m MTU       path MTU 256|512|1024|2048|4096 (1024)\n"
		"  -S SEED      pattern seed (1)\n"
		"  -t SECONDS   give up after this long without progress, verbs or TCP (60)\n"
		"  --bad KIND   badwrite: rkey|past_end|before_start\n"
		"  --corrupt N  self-check of the verifier: the receiving side flips\n"
		"               one byte of message N before taking its digest\n"
		"  --hold FILE  after the verdict, keep the QP (idle) until FILE\n"
		"               exists, at most -t seconds, for a look at its state\n"
		"  --at-init FILE  once the QP is in INIT, print \"init qpn N\" and\n"
		"               wait (at most -t seconds) until FILE exists, for a\n"
		"               controller to set its MRC attributes (mrcctl qp set)\n"
		"  --until FILE send: the client posts no new message once FILE\n"
		"               exists, and both sides verify the messages sent;\n"
		"               -n is then a most (both sides take the option)\n"
		"  --pause FILE client: after a third and after two thirds of the\n"
		"               messages, wait until they completed, print \"paused N\"\n"
		"               and wait (at most -t seconds) until FILE exists,\n"
		"               then remove it and go on\n"
		"Both sides must be given the same -o -s -n -q -m -S --bad.\n"
		"Exit: 0 ok, 1 data mismatch, 2 usage, 3 verbs/completion error.\n",
		prog);
	exit(status);
}

static uint64_t parse_num(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *s == '-')
		die(EXIT_USAGE, "bad %s: %s", what, s);
	switch (*end) {
	case 'k':
	case 'K':
		v <<= 10;
		end++;
		break;
	case 'm':
	case 'M':
		v <<= 20;
		end++;
		break;
	case 'g':
	case 'G':
		v <<= 30;
		end++;
		break;
	}
	if (*end)
		die(EXIT_USAGE, "bad %s: %s", what, s);
	return v;
}

static int parse_int(const char *s, const char *what, uint64_t max)
{
	uint64_t v = parse_num(s, what);

	if (v > max)
		die(EXIT_USAGE, "%s %s is above %llu", what, s, ULL(max));
	return (int)v;
}

static int lookup(const char *const *names, int n, const char *s,
		  const char *what)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	die(EXIT_USAGE, "unknown %s: %s", what, s);
	return -1;
}

static void parse_args(struct opts *o, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "bad", required_argument, NULL, 'B' },
		{ "corrupt", required_argument, NULL, 'C' },
		{ "hold", required_argument, NULL, 'H' },
		{ "pause", required_argument, NULL, 'P' },
		{ "at-init", required_argument, NULL, 'I' },
		{ "until", required_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	*o = (struct opts){ .port = "18700", .gid_idx = -1, .ib_port = 1,
			    .op = OP_WRITE, .size = 65536, .iters = 16,
			    .depth = 4, .mtu = 1024, .seed = 1,
			    .timeout_s = 60, .corrupt = -1 };
	while ((c = getopt_long(argc, argv, "d:g:i:p:o:s:n:q:m:S:t:h", lopts,
				NULL)) != -1) {
		switch (c) {
		case 'd':
			o->dev = optarg;
			break;
		case 'g':
			o->gid_idx = parse_int(optarg, "GID index", 65535);
			break;
		case 'i':
			o->ib_port = parse_int(optarg, "port", 255);
			break;
		case 'p':
			o->port = optarg;
			break;
		case 'o':
			o->op = lookup(op_names, 5, optarg, "op");
			break;
		case 's':
			o->size = parse_num(optarg, "size");
			break;
		case 'n':
			o->iters = parse_num(optarg, "iterations");
			break;
		case 'q':
			o->depth = parse_num(optarg, "depth");
			break;
		case 'm':
			o->mtu = parse_int(optarg, "MTU", 4096);
			break;
		case 'S':
			o->seed = parse_num(optarg, "seed");
			break;
		case 't':
			o->timeout_s = parse_int(optarg, "timeout", 86400);
			break;
		case 'B':
			o->bad = lookup(bad_names, 4, optarg, "--bad");
			break;
		case 'C':
			o->corrupt = parse_int(optarg, "--corrupt", INT32_MAX);
			break;
		case 'H':
			o->hold = optarg;
			break;
		case 'P':
			o->pause = optarg;
			break;
		case 'I':
			o->at_init = optarg;
			break;
		case 'U':
			o->until = optarg;
			break;
		case 'h':
			help_exit(0);
			break;
		default:
			help_exit(EXIT_USAGE);
		}
	}
	if (optind < argc)
		o->host = argv[optind++];
	if (optind < argc)
		help_exit(EXIT_USAGE);
	if (!o->dev || o->gid_idx < 0)
		die(EXIT_USAGE, "-d DEV and -g GIDIDX are required");
	if (o->until && o->op != OP_SEND)
		die(EXIT_USAGE, "--until needs -o send");
	if (o->mtu != 256 && o->mtu != 512 && o->mtu != 1024 &&
	    o->mtu != 2048 && o->mtu != 4096)
		die(EXIT_USAGE, "-m must be 256, 512, 1024, 2048 or 4096");
	if (o->size < 1 || o->size > (1U << 30))
		die(EXIT_USAGE, "-s must be 1..1G");
	if (o->iters < 1 || o->iters > (1U << 31))
		die(EXIT_USAGE, "-n must be 1..2^31");
	if (o->depth < 1 || o->depth > 4096)
		die(EXIT_USAGE, "-q must be 1..4096");
	if (o->ib_port < 1 || o->ib_port > 255 || o->timeout_s < 1)
		die(EXIT_USAGE, "bad -i or -t");
	if (o->op == OP_BADWRITE ? o->bad == BAD_NONE : o->bad != BAD_NONE)
		die(EXIT_USAGE, "--bad goes with -o badwrite, and only there");
	if (o->op == OP_BADWRITE && o->size < 2)
		die(EXIT_USAGE, "badwrite needs -s 2 or more");
	if ((o->op == OP_WRITE || o->op == OP_WRITE_IMM || o->op == OP_READ) &&
	    o->size * o->iters > MAX_REGION)
		die(EXIT_USAGE, "%s keeps every message: SIZE * ITERS must be <= 1G",
		    op_names[o->op]);
	if (o->depth > o->iters)
		o->depth = o->iters;
}

/* ---------------------------------------------------------------------
 * Pattern and digest
 */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* The bytes of message @n: a splitmix64 stream keyed by seed and number. */
static void fill(uint8_t *p, uint64_t len, uint64_t seed, uint64_t n)
{
	uint64_t s = mix64(seed ^ mix64(n + 0x9e3779b97f4a7c15ULL)), w;
	uint64_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		s += 0x9e3779b97f4a7c15ULL;
		w = htole64(mix64(s));
		memcpy(p + i, &w, 8);
	}
	if (i < len) {
		s += 0x9e3779b97f4a7c15ULL;
		w = htole64(mix64(s));
		memcpy(p + i, &w, len - i);
	}
}

/* FNV-1a over 64-bit little-endian words, then the tail bytes and length. */
static uint64_t digest(const uint8_t *p, uint64_t len)
{
	const uint64_t prime = 0x100000001b3ULL;
	uint64_t h = 0xcbf29ce484222325ULL, w, i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ le64toh(w)) * prime;
		h ^= h >> 29;
	}
	for (; i < len; i++)
		h = (h ^ p[i]) * prime;
	h = (h ^ len) * prime;
	return mix64(h);
}

/* ---------------------------------------------------------------------
 * TCP exchange: everything travels as big-endian 64-bit words
 */
static int tcp_listen_accept(const struct opts *o)
{
	struct addrinfo hints = { .ai_flags = AI_PASSIVE,
				  .ai_socktype = SOCK_STREAM }, *ai, *a;
	int fd = -1, one = 1, zero = 0, cfd, err;
	struct pollfd pfd;

	for (int fam = 0; fam < 2 && fd < 0; fam++) {
		hints.ai_family = fam ? AF_INET : AF_INET6;
		err = getaddrinfo(NULL, o->port, &hints, &ai);
		if (err)
			die(EXIT_USAGE, "port %s: %s", o->port, gai_strerror(err));
		for (a = ai; a && fd < 0; a = a->ai_next) {
			fd = socket(a->ai_family, a->ai_socktype, 0);
			if (fd < 0)
				continue;
			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
			if (a->ai_family == AF_INET6)
				setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero,
					   sizeof(zero));
			if (bind(fd, a->ai_addr, a->ai_addrlen) || listen(fd, 1)) {
				close(fd);
				fd = -1;
			}
		}
		freeaddrinfo(ai);
	}
	if (fd < 0)
		die(EXIT_VERBS, "cannot listen on TCP port %s: %m", o->port);
	msg("listening on port %s", o->port);
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	if (poll(&pfd, 1, o->timeout_s * 1000) != 1)
		die(EXIT_VERBS, "no client within %d s", o->timeout_s);
	cfd = accept(fd, NULL, NULL);
	if (cfd < 0)
		die(EXIT_VERBS, "accept: %m");
	close(fd);
	return cfd;
}

static int tcp_connect(const struct opts *o)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai, *a;
	int fd = -1, err;

	err = getaddrinfo(o->host, o->port, &hints, &ai);
	if (err)
		die(EXIT_USAGE, "%s port %s: %s", o->host, o->port,
		    gai_strerror(err));
	for (a = ai; a && fd < 0; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype, 0);
		if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen)) {
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(ai);
	if (fd < 0)
		die(EXIT_VERBS, "cannot connect to %s port %s: %m", o->host,
		    o->port);
	return fd;
}

/*
 * Once connected, -t bounds the waits on the peer's words too: the TCP
 * connection may share the plane that went away (a deleted netdev), and a
 * peer that can no longer be reached must end this side with a verbs
 * failure, not hold it for ever.  Set-up is left unbounded: a loaded debug
 * guest may take long to register a peer's memory, and nothing is lost yet.
 */
static void tcp_bound_waits(struct xfer *x)
{
	struct timeval tv = { .tv_sec = x->o.timeout_s };

	if (setsockopt(x->sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(x->sock, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		die(EXIT_VERBS, "TCP socket time-outs: %m");
}

static const char *tcp_err(struct xfer *x, ssize_t r, const char *eof)
{
	static char buf[64];

	if (!r)
		return eof;
	if (errno != EAGAIN && errno != EWOULDBLOCK)
		return strerror(errno);
	snprintf(buf, sizeof(buf), "no progress for %d s", x->o.timeout_s);
	return buf;
}

static void send_words(struct xfer *x, const uint64_t *v, uint64_t n)
{
	uint64_t chunk[512];
	uint64_t i = 0, k, j;
	size_t off;
	ssize_t r;

	while (i < n) {
		k = n - i < 512 ? n - i : 512;
		for (j = 0; j < k; j++)
			chunk[j] = htobe64(v[i + j]);
		for (off = 0; off < k * 8; off += r) {
			r = send(x->sock, (char *)chunk + off, k * 8 - off,
				 MSG_NOSIGNAL);
			if (r <= 0)
				die(EXIT_VERBS, "TCP send to peer: %s",
				    tcp_err(x, r, "closed"));
		}
		i += k;
	}
}

static void recv_words(struct xfer *x, uint64_t *v, uint64_t n)
{
	size_t off, len = n * 8;
	ssize_t r;
	uint64_t i;

	for (off = 0; off < len; off += r) {
		r = recv(x->sock, (char *)v + off, len - off, 0);
		if (r <= 0)
			die(EXIT_VERBS, "TCP receive from peer: %s",
			    tcp_err(x, r, "peer closed the connection"));
	}
	for (i = 0; i < n; i++)
		v[i] = be64toh(v[i]);
}

static uint64_t recv_word(struct xfer *x)
{
	uint64_t v;

	recv_words(x, &v, 1);
	return v;
}

static void exchange_params(struct xfer *x)
{
	const struct opts *o = &x->o;
	uint64_t mine[] = { XFER_MAGIC, XFER_VERSION, o->op, o->bad, o->size,
			    o->iters, o->depth, o->mtu, o->seed };
	uint64_t theirs[sizeof(mine) / 8];
	unsigned int i;

	send_words(x, mine, 9);
	recv_words(x, theirs, 9);
	if (theirs[0] != XFER_MAGIC || theirs[1] != XFER_VERSION)
		die(EXIT_USAGE, "peer is not mrc-xfer version %d", XFER_VERSION);
	for (i = 2; i < 9; i++)
		if (theirs[i] != mine[i])
			die(EXIT_USAGE, "peer runs with other -o/--bad/-s/-n/-q/-m/-S");
}

/* ---------------------------------------------------------------------
 * Verbs
 */
static void setup(struct xfer *x)
{
	const struct opts *o = &x->o;
	struct ibv_device **list;
	struct ibv_port_attr pattr;
	struct ibv_qp_init_attr qia = { 0 };
	int i, n, flags;
	uint64_t wr = o->depth + 1;

	list = ibv_get_device_list(&n);
	if (!list)
		die(EXIT_VERBS, "ibv_get_device_list: %m");
	for (i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), o->dev))
			break;
	if (i == n)
		die(EXIT_USAGE, "no RDMA device %s", o->dev);
	x->ctx = ibv_open_device(list[i]);
	if (!x->ctx)
		die(EXIT_VERBS, "ibv_open_device %s: %m", o->dev);
	ibv_free_device_list(list);
	flags = fcntl(x->ctx->async_fd, F_GETFL);
	fcntl(x->ctx->async_fd, F_SETFL, flags | O_NONBLOCK);

	if (ibv_query_port(x->ctx, o->ib_port, &pattr))
		die(EXIT_VERBS, "ibv_query_port %s/%d: %m", o->dev, o->ib_port);
	if (128 << pattr.active_mtu < o->mtu)
		msg("warning: -m %d is above the port's active MTU %d", o->mtu,
		    128 << pattr.active_mtu);
	if (pattr.state != IBV_PORT_ACTIVE)
		msg("warning: port %d is %s", o->ib_port,
		    ibv_port_state_str(pattr.state));
	if (ibv_query_gid(x->ctx, o->ib_port, o->gid_idx, &x->gid))
		die(EXIT_VERBS, "ibv_query_gid %s/%d index %d: %m", o->dev,
		    o->ib_port, o->gid_idx);

	x->pd = ibv_alloc_pd(x->ctx);
	x->chan = ibv_create_comp_channel(x->ctx);
	if (!x->pd || !x->chan)
		die(EXIT_VERBS, "ibv_alloc_pd/ibv_create_comp_channel: %m");
	x->cq = ibv_create_cq(x->ctx, 2 * wr, NULL, x->chan, 0);
	if (!x->cq)
		die(EXIT_VERBS, "ibv_create_cq: %m");
	qia.send_cq = x->cq;
	qia.recv_cq = x->cq;
	qia.qp_type = IBV_QPT_RC;
	qia.sq_sig_all = 1;
	qia.cap.max_send_wr = wr;
	qia.cap.max_recv_wr = wr;
	qia.cap.max_send_sge = 1;
	qia.cap.max_recv_sge = 1;
	x->qp = ibv_create_qp(x->pd, &qia);
	if (!x->qp)
		die(EXIT_VERBS, "ibv_create_qp: %m");
}

/*
 * The memory this side registers: the receiver of write/write_imm and the
 * source of read keep every message (message i at i * SIZE); senders and
 * readers use DEPTH slots; the badwrite target has canaries either side.
 */
static void setup_mem(struct xfer *x)
{
	const struct opts *o = &x->o;
	bool server = !o->host;
	uint64_t len, pad = 0;
	int access = IBV_ACCESS_LOCAL_WRITE;

	switch (o->op) {
	case OP_WRITE:
	case OP_WRITE_IMM:
	case OP_READ:
		len = o->size * (server ? o->iters : o->depth);
		break;
	case OP_SEND:
		len = o->size * o->depth;
		break;
	default:
		len = o->size;
		break;
	}
	/* What lies beside the MR must stay as it was, whatever arrives. */
	pad = server ? CANARY : 0;
	if (server)
		access |= IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	x->buf = aligned_alloc(4096, (len + 2 * pad + 4095) & ~4095ULL);
	if (!x->buf)
		die(EXIT_VERBS, "cannot allocate %llu bytes",
		    ULL(len + 2 * pad));
	memset(x->buf, 0, len + 2 * pad);
	x->mem = x->buf + pad;
	x->memlen = len;
	fill(x->buf, pad, o->seed, 1ULL << 62);
	fill(x->buf + pad + len, pad, o->seed, (1ULL << 62) + 1);
	if (o->op == OP_BADWRITE) {
		if (server)
			fill(x->mem, len, o->seed, 0);
		else
			fill(x->mem, len, ~o->seed, 1);
	}
	x->mr = ibv_reg_mr(x->pd, x->mem, len, access);
	if (!x->mr)
		die(EXIT_VERBS, "ibv_reg_mr %llu bytes: %m", ULL(len));
	x->dig = calloc(o->iters, sizeof(*x->dig));
	if (!x->dig)
		die(EXIT_VERBS, "out of memory");
}

static void exchange_qp(struct xfer *x)
{
	uint64_t mine[7], theirs[7];

	mine[0] = x->qp->qp_num;
	mine[1] = x->qp->qp_num * 7919u & 0xffffff;	/* initial PSN */
	mine[2] = (uintptr_t)x->mem;
	mine[3] = x->mr->rkey;
	mine[4] = x->memlen;
	memcpy(&mine[5], x->gid.raw, 16);
	mine[5] = be64toh(mine[5]);
	mine[6] = be64toh(mine[6]);
	send_words(x, mine, 7);
	recv_words(x, theirs, 7);
	x->rqpn = theirs[0];
	x->rpsn = theirs[1];
	x->raddr = theirs[2];
	x->rrkey = theirs[3];
	x->rlen = theirs[4];
	theirs[5] = htobe64(theirs[5]);
	theirs[6] = htobe64(theirs[6]);
	memcpy(x->rgid.raw, &theirs[5], 16);
}

static enum ibv_mtu mtu_enum(int mtu)
{
	switch (mtu) {
	case 256:
		return IBV_MTU_256;
	case 512:
		return IBV_MTU_512;
	case 1024:
		return IBV_MTU_1024;
	case 2048:
		return IBV_MTU_2048;
	default:
		return IBV_MTU_4096;
	}
}

static void wait_for_file(const char *path, int timeout_s)
{
	int waited;

	for (waited = 0; access(path, F_OK) && waited < timeout_s * 20; waited++)
		usleep(50000);
}

static void connect_qp(struct xfer *x)
{
	const struct opts *o = &x->o;
	struct ibv_device_attr dattr;
	struct ibv_qp_attr a = { 0 };
	int rd = 1;
	char gid[INET6_ADDRSTRLEN];

	if (!ibv_query_device(x->ctx, &dattr) && dattr.max_qp_rd_atom > 0)
		rd = dattr.max_qp_rd_atom < 16 ? dattr.max_qp_rd_atom : 16;

	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = o->ib_port;
	a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
			    IBV_ACCESS_LOCAL_WRITE;
	if (ibv_modify_qp(x->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		die(EXIT_VERBS, "modify QP to INIT: %m");
	if (o->at_init) {
		printf("init qpn %u\n", x->qp->qp_num);
		fflush(stdout);
		wait_for_file(o->at_init, o->timeout_s);
	}

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = mtu_enum(o->mtu);
	a.dest_qp_num = x->rqpn;
	a.rq_psn = x->rpsn;
	a.max_dest_rd_atomic = rd;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = x->rgid;
	a.ah_attr.grh.sgid_index = o->gid_idx;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = o->ib_port;
	if (ibv_modify_qp(x->qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		die(EXIT_VERBS, "modify QP to RTR (peer GID %s, QPN %u, MTU %d): %m",
		    inet_ntop(AF_INET6, x->rgid.raw, gid, sizeof(gid)) ?: "?",
		    x->rqpn, o->mtu);

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = x->qp->qp_num * 7919u & 0xffffff;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = rd;
	if (ibv_modify_qp(x->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN |
			  IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			  IBV_QP_MAX_QP_RD_ATOMIC))
		die(EXIT_VERBS, "modify QP to RTS: %m");
}

static int post_recv(struct xfer *x, uint64_t wr_id, void *addr, uint32_t len)
{
	struct ibv_sge sge = { .addr = (uintptr_t)addr, .length = len,
			       .lkey = x->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge,
				  .num_sge = len ? 1 : 0 }, *bad;
	int err = ibv_post_recv(x->qp, &wr, &bad);

	if (err)
		msg("ibv_post_recv: %s", strerror(err));
	return err;
}

static int post_send(struct xfer *x, uint64_t wr_id, enum ibv_wr_opcode opc,
		     void *addr, uint32_t len, uint64_t raddr, uint32_t rkey,
		     uint32_t imm)
{
	struct ibv_sge sge = { .addr = (uintptr_t)addr, .length = len,
			       .lkey = x->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1,
				  .opcode = opc, .send_flags = IBV_SEND_SIGNALED },
			   *bad;
	int err;

	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	wr.imm_data = htonl(imm);
	err = ibv_post_send(x->qp, &wr, &bad);
	if (err)
		msg("ibv_post_send: %s", strerror(err));
	return err;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Wait for completions without spinning (two busy pollers would starve a
 * two-CPU TCG guest).  Returns how many were polled; 0 when @watch_fd (the
 * TCP socket, -1 for none) became readable; -1 on @timeout_s (< 0: none)
 * without progress, a fatal async event or a verbs failure.  A QP that fails
 * posts its completions before its fatal event, and one wakeup may bring
 * both: the CQ is polled once more before the event ends the wait, or the
 * failed WQE's own status (a refused write's remote access error) is lost.
 */
static int poll_wcs(struct xfer *x, struct ibv_wc *wc, int max, int watch_fd,
		    int timeout_s)
{
	double deadline = now() + timeout_s;
	struct pollfd pfd[3];
	struct ibv_async_event ev;
	struct ibv_cq *ecq;
	void *ectx;
	int n, r, nfd;
	bool fatal = false;

	for (;;) {
		n = ibv_poll_cq(x->cq, max, wc);
		if (n || fatal)
			break;
		if (ibv_req_notify_cq(x->cq, 0)) {
			msg("ibv_req_notify_cq failed");
			return -1;
		}
		n = ibv_poll_cq(x->cq, max, wc);
		if (n)
			break;
		pfd[0] = (struct pollfd){ .fd = x->chan->fd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = x->ctx->async_fd, .events = POLLIN };
		pfd[2] = (struct pollfd){ .fd = watch_fd, .events = POLLIN };
		nfd = watch_fd >= 0 ? 3 : 2;
		r = timeout_s < 0 ? -1 : (int)((deadline - now()) * 1000);
		if (timeout_s < 0 || r > 0)
			r = poll(pfd, nfd, r);
		else
			r = 0;
		if (!r) {
			msg("no completion for %d s", timeout_s);
			return -1;
		}
		if (r < 0) {
			if (errno == EINTR)
				continue;
			msg("poll: %m");
			return -1;
		}
		if (pfd[0].revents & POLLIN) {
			if (!ibv_get_cq_event(x->chan, &ecq, &ectx))
				ibv_ack_cq_events(ecq, 1);
		} else if (pfd[0].revents) {
			msg("completion channel closed");
			return -1;
		}
		if (pfd[1].revents && !ibv_get_async_event(x->ctx, &ev)) {
			enum ibv_event_type t = ev.event_type;

			msg("async event: %s", ibv_event_type_str(t));
			ibv_ack_async_event(&ev);
			if (t == IBV_EVENT_DEVICE_FATAL || t == IBV_EVENT_QP_FATAL ||
			    t == IBV_EVENT_CQ_ERR || t == IBV_EVENT_QP_ACCESS_ERR ||
			    t == IBV_EVENT_QP_REQ_ERR)
				fatal = true;
		}
		if (nfd == 3 && pfd[2].revents && !fatal)
			return 0;
	}
	if (n < 0) {
		msg("ibv_poll_cq failed");
		return -1;
	}
	return n ?: -1;
}

/* The digest of a received message (honours --corrupt). */
static uint64_t rx_digest(struct xfer *x, uint8_t *p, uint64_t n)
{
	if ((int64_t)n == x->o.corrupt)
		p[x->o.size / 2] ^= 0x20;
	return digest(p, x->o.size);
}

static bool wc_ok(struct xfer *x, const struct ibv_wc *wc)
{
	if (wc->status == IBV_WC_SUCCESS)
		return true;
	msg("completion of wr_id %llu: %s (status %d, vendor_err 0x%x)",
	    ULL(wc->wr_id), ibv_wc_status_str(wc->status), wc->status,
	    wc->vendor_err);
	x->verbs_err = 1;
	return false;
}

static bool expect(struct xfer *x, bool cond, const char *fmt, ...)
{
	va_list ap;

	if (cond)
		return true;
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	x->verbs_err = 1;
	return false;
}

/* Client: write, write_imm, send and read, DEPTH messages in flight. */
/* Poll (at most @timeout_s seconds) until @path exists. */
static void run_requester(struct xfer *x)
{
	const struct opts *o = &x->o;
	uint64_t posted = 0, done = 0, slot;
	uint64_t pause_at = o->pause ? o->iters / 3 : UINT64_MAX;
	struct ibv_wc wc[16];
	enum ibv_wc_opcode want;
	int n, i, paused = 0;

	want = o->op == OP_SEND ? IBV_WC_SEND :
	       o->op == OP_READ ? IBV_WC_RDMA_READ : IBV_WC_RDMA_WRITE;
	x->count = o->iters;
	while (done < x->count && !x->verbs_err) {
		/* --until: what is posted is the whole transfer */
		if (o->until && x->count > posted && !access(o->until, F_OK))
			x->count = posted;
		/* --pause: the QP idles, its messages done, until told to go on. */
		if (posted == pause_at && done == posted && posted < x->count) {
			printf("paused %d\n", ++paused);
			fflush(stdout);
			wait_for_file(o->pause, o->timeout_s);
			unlink(o->pause);
			pause_at = paused < 2 ? o->iters * 2 / 3 : UINT64_MAX;
			continue;
		}
		while (posted < x->count && posted - done < o->depth &&
		       posted < pause_at) {
			uint8_t *p = x->mem + posted % o->depth * o->size;
			uint64_t ra = x->raddr + posted * o->size;
			int err;

			if (o->op != OP_READ) {
				fill(p, o->size, o->seed, posted);
				x->dig[posted] = digest(p, o->size);
				x->ndig = posted + 1;
			}
			err = o->op == OP_WRITE ?
				post_send(x, posted, IBV_WR_RDMA_WRITE, p, o->size,
					  ra, x->rrkey, 0) :
			      o->op == OP_WRITE_IMM ?
				post_send(x, posted, IBV_WR_RDMA_WRITE_WITH_IMM, p,
					  o->size, ra, x->rrkey, posted) :
			      o->op == OP_SEND ?
				post_send(x, posted, IBV_WR_SEND, p, o->size, 0, 0, 0) :
				post_send(x, posted, IBV_WR_RDMA_READ, p, o->size,
					  ra, x->rrkey, 0);
			if (err) {
				x->verbs_err = 1;
				return;
			}
			if (posted == 0)
				msg("transfer started");
			posted++;
		}
		if (done == x->count)
			break;
		n = poll_wcs(x, wc, 16, -1, o->timeout_s);
		if (n < 0) {
			x->verbs_err = 1;
			return;
		}
		for (i = 0; i < n && !x->verbs_err; i++) {
			if (!wc_ok(x, &wc[i]) ||
			    !expect(x, wc[i].wr_id == done,
				    "completion out of order: wr_id %llu, expected %llu",
				    ULL(wc[i].wr_id), ULL(done)) ||
			    !expect(x, wc[i].opcode == want,
				    "completion opcode %d, expected %d",
				    wc[i].opcode, want))
				return;
			if (o->op == OP_READ) {
				slot = done % o->depth;
				x->dig[done] = rx_digest(x, x->mem + slot * o->size, done);
				x->ndig = done + 1;
			}
			done++;
		}
	}
}

/* Final reports: [status, count, digests...]; the client sends first. */
static uint64_t *recv_report(struct xfer *x)
{
	uint64_t hdr[2], *r;

	recv_words(x, hdr, 2);
	if (hdr[1] > x->o.iters)
		die(EXIT_VERBS, "peer reports %llu messages",
		    ULL(hdr[1]));
	r = calloc(hdr[1] + 2, 8);
	if (!r)
		die(EXIT_VERBS, "out of memory");
	memcpy(r, hdr, sizeof(hdr));
	recv_words(x, r + 2, hdr[1]);
	return r;
}

/*
 * Server: the receive side of write_imm and send (write needs no work).
 * Reads the client's final report when it arrives (@peer: its words, the
 * caller frees them); stops early when the client failed.
 */
static void run_responder(struct xfer *x, uint64_t **peer)
{
	const struct opts *o = &x->o;
	uint64_t done = 0, slot, k;
	struct ibv_wc wc[16];
	int n, i, watch = x->sock;
	bool passive = o->op == OP_WRITE || o->op == OP_READ;

	for (k = 0; k < o->depth && !passive; k++)
		if (post_recv(x, k, o->op == OP_SEND ? x->mem + k * o->size : NULL,
			      o->op == OP_SEND ? o->size : 0)) {
			x->verbs_err = 1;
			return;
		}
	send_words(x, (uint64_t[]){ 1 }, 1);	/* ready: receives posted */
	x->count = o->iters;
	while ((passive ? watch >= 0 : done < x->count) && !x->verbs_err) {
		/* passive: only the client's report (or a fatal event) ends it */
		n = poll_wcs(x, wc, 16, watch, passive ? -1 : o->timeout_s);
		if (n < 0) {
			x->verbs_err = 1;
			return;
		}
		if (n == 0) {
			*peer = recv_report(x);
			watch = -1;
			if ((*peer)[0])	/* the client failed: nothing more comes */
				return;
			/* --until: the client sent this many; the rest are due */
			if (o->until && (*peer)[1] >= done)
				x->count = (*peer)[1];
			continue;
		}
		if (!expect(x, !passive,
			    "unexpected completion, wr_id %llu status %s",
			    ULL(wc[0].wr_id), ibv_wc_status_str(wc[0].status)))
			return;
		for (i = 0; i < n && !x->verbs_err; i++) {
			if (!wc_ok(x, &wc[i]))
				return;
			slot = done % o->depth;
			if (o->op == OP_WRITE_IMM) {
				uint32_t imm = ntohl(wc[i].imm_data);

				if (!expect(x, wc[i].opcode == IBV_WC_RECV_RDMA_WITH_IMM &&
					    (wc[i].wc_flags & IBV_WC_WITH_IMM),
					    "completion opcode %d flags 0x%x, expected RECV_RDMA_WITH_IMM",
					    wc[i].opcode,
					    wc[i].wc_flags) ||
				    !expect(x, imm == (uint32_t)done,
					    "immediate %u arrived, expected %llu (out of order)",
					    imm, ULL(done)))
					return;
				x->dig[done] = rx_digest(x, x->mem + done * o->size, done);
				if (done + o->depth < o->iters &&
				    post_recv(x, slot, NULL, 0)) {
					x->verbs_err = 1;
					return;
				}
			} else {
				if (!expect(x, wc[i].opcode == IBV_WC_RECV &&
					    wc[i].wr_id == slot &&
					    wc[i].byte_len == o->size,
					    "receive completion opcode %d wr_id %llu byte_len %u, expected RECV, %llu, %llu",
					    wc[i].opcode, ULL(wc[i].wr_id),
					    wc[i].byte_len, ULL(slot),
					    ULL(o->size)))
					return;
				x->dig[done] = rx_digest(x, x->mem + slot * o->size, done);
				if (done + o->depth < o->iters &&
				    post_recv(x, slot, x->mem + slot * o->size, o->size)) {
					x->verbs_err = 1;
					return;
				}
			}
			x->ndig = ++done;
		}
	}
}

static void send_report(struct xfer *x)
{
	send_words(x, (uint64_t[]){ x->verbs_err ? EXIT_VERBS : 0, x->ndig }, 2);
	send_words(x, x->dig, x->ndig);
}

/* Server: bytes of the canaries beside the MR that are not what was put there. */
static uint64_t canaries_changed(const struct xfer *x)
{
	uint8_t *ref = malloc(CANARY);
	uint64_t changed = 0, i;
	int side;

	if (x->o.host)
		return 0;
	if (!ref)
		die(EXIT_VERBS, "out of memory");
	for (side = 0; side < 2; side++) {
		const uint8_t *c = side ? x->mem + x->memlen : x->buf;

		fill(ref, CANARY, x->o.seed, (1ULL << 62) + side);
		for (i = 0; i < CANARY; i++)
			changed += c[i] != ref[i];
	}
	free(ref);
	return changed;
}

static int verdict(struct xfer *x, const uint64_t *peer)
{
	const struct opts *o = &x->o;
	uint64_t i, all = 0xcbf29ce484222325ULL, bad = 0;

	for (i = 0; i < x->ndig; i++)
		all = mix64(all ^ x->dig[i]);
	if (x->verbs_err || peer[0]) {
		printf("fail verbs: %s side error, bytes=%llu msgs=%llu\n",
		       x->verbs_err ? "local" : "peer",
		       ULL(x->ndig * o->size), ULL(x->ndig));
		return EXIT_VERBS;
	}
	if (!x->count) {
		printf("fail messages: none sent\n");
		return EXIT_MISMATCH;
	}
	if (x->ndig != x->count || peer[1] != x->count) {
		printf("fail messages: local %llu peer %llu expected %llu\n",
		       ULL(x->ndig), ULL(peer[1]), ULL(x->count));
		return EXIT_MISMATCH;
	}
	for (i = 0; i < x->count; i++) {
		if (x->dig[i] == peer[2 + i])
			continue;
		if (bad++ < 5)
			msg("message %llu: digest %016llx, peer's %016llx",
			    ULL(i), ULL(x->dig[i]), ULL(peer[2 + i]));
	}
	if (bad) {
		printf("fail mismatch=%llu of msgs=%llu\n", ULL(bad),
		       ULL(x->count));
		return EXIT_MISMATCH;
	}
	bad = canaries_changed(x);
	if (bad) {
		printf("fail canaries: %llu of the %d bytes beside the MR changed\n",
		       ULL(bad), 2 * CANARY);
		return EXIT_MISMATCH;
	}
	printf("ok bytes=%llu msgs=%llu digest=%016llx\n",
	       ULL(x->count * o->size), ULL(x->count), ULL(all));
	return 0;
}

/*
 * badwrite.  Client: one RDMA WRITE the server's MR does not allow; report
 * the completion status.  Server: check the MR and the canaries, report.
 */
static int run_badwrite(struct xfer *x)
{
	const struct opts *o = &x->o;
	uint64_t len = o->size, raddr = x->raddr, res[3];
	uint32_t rkey = x->rrkey;
	struct ibv_wc wc;
	int status = -1, rc;

	if (!o->host) {
		uint8_t *ref = malloc(o->size + 2 * CANARY);
		uint64_t changed = 0, i, pad[2] = { 0, 0 };

		if (!ref)
			die(EXIT_VERBS, "out of memory");
		send_words(x, (uint64_t[]){ 1 }, 1);
		status = recv_word(x);
		fill(ref, CANARY, o->seed, 1ULL << 62);
		fill(ref + CANARY, o->size, o->seed, 0);
		fill(ref + CANARY + o->size, CANARY, o->seed, (1ULL << 62) + 1);
		for (i = 0; i < o->size + 2 * CANARY; i++) {
			if (x->buf[i] == ref[i])
				continue;
			changed++;
			if (i < CANARY)
				pad[0]++;
			else if (i >= CANARY + o->size)
				pad[1]++;
		}
		free(ref);
		res[0] = changed;
		res[1] = pad[0];
		res[2] = pad[1];
		send_words(x, res, 3);
	} else {
		switch (o->bad) {
		case BAD_RKEY:
			rkey ^= 0xff;	/* the MR's index, another key */
			break;
		case BAD_PAST_END:
			raddr += 1;	/* last byte is one past the end */
			break;
		default:
			raddr -= 1;	/* first byte is one before the start */
			break;
		}
		recv_word(x);
		msg("writing %llu bytes at 0x%llx rkey 0x%x (MR 0x%llx+%llu rkey 0x%x)",
		    ULL(len), ULL(raddr), rkey, ULL(x->raddr), ULL(x->rlen),
		    x->rrkey);
		if (!post_send(x, 0, IBV_WR_RDMA_WRITE, x->mem, len, raddr, rkey,
			       0) &&
		    poll_wcs(x, &wc, 1, -1, o->timeout_s) == 1)
			status = wc.status;
		else
			x->verbs_err = 1;
		send_words(x, (uint64_t[]){ (uint64_t)status }, 1);
		recv_words(x, res, 3);
	}
	rc = 0;
	if (status != IBV_WC_REM_ACCESS_ERR)
		rc = EXIT_VERBS;
	if (res[0])
		rc = EXIT_MISMATCH;
	printf("%s badwrite=%s status=%s memory=%s ",
	       rc ? "fail" : "ok", bad_names[o->bad],
	       status < 0 ? "none" : ibv_wc_status_str(status),
	       res[0] ? "changed" : "intact");
	printf("changed=%llu canary_before=%llu canary_after=%llu\n",
	       ULL(res[0]), ULL(res[1]), ULL(res[2]));
	if (status != IBV_WC_REM_ACCESS_ERR)
		msg("expected %s, got %s", ibv_wc_status_str(IBV_WC_REM_ACCESS_ERR),
		    status < 0 ? "no completion" : ibv_wc_status_str(status));
	return rc;
}

int main(int argc, char **argv)
{
	struct xfer x = { 0 };
	uint64_t *peer = NULL;
	int rc;

	parse_args(&x.o, argc, argv);
	signal(SIGPIPE, SIG_IGN);
	x.sock = x.o.host ? tcp_connect(&x.o) : tcp_listen_accept(&x.o);
	setsockopt(x.sock, IPPROTO_TCP, TCP_NODELAY, &(int){ 1 }, sizeof(int));
	exchange_params(&x);
	setup(&x);
	setup_mem(&x);
	exchange_qp(&x);
	connect_qp(&x);
	tcp_bound_waits(&x);

	if (x.o.op == OP_BADWRITE) {
		rc = run_badwrite(&x);
	} else if (x.o.host) {
		recv_word(&x);		/* the server is ready */
		run_requester(&x);
		send_report(&x);
		peer = recv_report(&x);
		rc = verdict(&x, peer);
	} else {
		if (x.o.op == OP_READ) {
			for (uint64_t i = 0; i < x.o.iters; i++) {
				fill(x.mem + i * x.o.size, x.o.size, x.o.seed, i);
				x.dig[i] = digest(x.mem + i * x.o.size, x.o.size);
			}
			x.ndig = x.o.iters;
		}
		run_responder(&x, &peer);
		if (!peer)
			peer = recv_report(&x);
		if (x.o.op == OP_WRITE && !x.verbs_err && !peer[0]) {
			for (uint64_t i = 0; i < x.o.iters; i++)
				x.dig[i] = rx_digest(&x, x.mem + i * x.o.size, i);
			x.ndig = x.o.iters;
		}
		send_report(&x);
		rc = verdict(&x, peer);
	}
	fflush(stdout);
	if (x.o.hold)
		wait_for_file(x.o.hold, x.o.timeout_s);
	free(peer);
	ibv_destroy_qp(x.qp);
	ibv_dereg_mr(x.mr);
	ibv_destroy_cq(x.cq);
	ibv_destroy_comp_channel(x.chan);
	ibv_dealloc_pd(x.pd);
	ibv_close_device(x.ctx);
	free(x.dig);
	free(x.buf);
	close(x.sock);
	return rc;
}
