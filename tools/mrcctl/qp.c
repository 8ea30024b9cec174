// SPDX-License-Identifier: GPL-2.0
/*
 * qp show and set, ev set: the MRC state of QPs and of their EVs, and the
 * controller's deny and undeny of EV slots.  The QP and EV attribute tables
 * and state names are shared with the monitor and probe, which read the
 * same nests in their messages.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/if.h>

#include "mrcctl.h"

static const char *const qp_state_names[] = {
	"reset", "init", "rtr", "rts", "sqd", "sqe", "err",
};

const char *const ev_state_names[] = {
	"good", "skip", "assumed-bad", "denied",
};

/* A name from @names, or the number for values newer than this mrcctl. */
const char *value_name(const char *const *names, size_t n,
		       unsigned int v)
{
	static char buf[16];

	if (v < n)
		return names[v];
	snprintf(buf, sizeof(buf), "%u", v);
	return buf;
}

/*
 * A QP whose EVs do not fit one dump message comes in several, each
 * repeating its header: the EV lines of a continuation join the QP already
 * printed (and, in JSON, the "evs" array still open).
 */
struct qp_show {
	struct nl *nl;
	bool opened;		/* JSON: the outer array started */
	bool in_qp;		/* JSON: a QP object and its "evs" are open */
	char dev[IFNAMSIZ];	/* the QP printed last */
	__u32 qpn;
	bool have_last;
};

const enum mnl_attr_data_type qp_types[MRC_A_QP_MAX + 1] = {
	[MRC_A_QP_NUM] = MNL_TYPE_U32,
	[MRC_A_QP_STATE] = MNL_TYPE_U8,
	[MRC_A_QP_DEST_NUM] = MNL_TYPE_U32,
	[MRC_A_QP_EV_COUNT] = MNL_TYPE_U32,
	[MRC_A_QP_MIN_ACTIVE] = MNL_TYPE_U32,
	[MRC_A_QP_CWND] = MNL_TYPE_U32,
	[MRC_A_QP_SRTT_US] = MNL_TYPE_U32,
	[MRC_A_QP_ERROR] = MNL_TYPE_U32,
	[MRC_A_QP_EVS] = MNL_TYPE_NESTED,
	[MRC_A_QP_PEER_DOWN] = MNL_TYPE_U32,
	[MRC_A_QP_EVPROF_ID] = MNL_TYPE_U32,
	[MRC_A_QP_CCPROF_ID] = MNL_TYPE_U32,
	[MRC_A_QP_MPR] = MNL_TYPE_U32,
	[MRC_A_QP_MPR_DEST] = MNL_TYPE_U32,
	[MRC_A_QP_TIMEOUT] = MNL_TYPE_U8,
	[MRC_A_QP_RETRY_LINEAR] = MNL_TYPE_U8,
	[MRC_A_QP_RETRY_EXP] = MNL_TYPE_U8,
};

/*
 * The planes the QP's peer said are down, "peer-down 1,3" or "peer-down
 * none" and "peer_down": [1, 3]; nothing from a kernel that does not say.
 */
static void print_peer_down(const struct nlattr *attr, bool as_json)
{
	__u32 down, k;
	bool any = false;

	if (!attr)
		return;
	down = mnl_attr_get_u32(attr);
	if (as_json)
		j_open("peer_down", '[');
	else
		fputs(" peer-down ", stdout);
	for (k = 0; k < 32; k++) {
		if (!(down & (1U << k)))
			continue;
		if (as_json)
			j_uint(NULL, k);
		else
			printf("%s%u", any ? "," : "", k);
		any = true;
	}
	if (as_json)
		j_close(']');
	else if (!any)
		fputs("none", stdout);
}

const enum mnl_attr_data_type ev_types[MRC_A_EV_MAX + 1] = {
	[MRC_A_EV_SLOT] = MNL_TYPE_U32,
	[MRC_A_EV_VALUE] = MNL_TYPE_U32,
	[MRC_A_EV_PLANE] = MNL_TYPE_U32,
	[MRC_A_EV_ENTROPY] = MNL_TYPE_U32,
	[MRC_A_EV_STATE] = MNL_TYPE_U8,
	[MRC_A_EV_TX_PKTS] = MNL_TYPE_U64,
	[MRC_A_EV_RETX] = MNL_TYPE_U64,
	[MRC_A_EV_LOSSES] = MNL_TYPE_U64,
	[MRC_A_EV_ECN] = MNL_TYPE_U64,
	[MRC_A_EV_RETIRED] = MNL_TYPE_U64,
	[MRC_A_EV_SRV6_DA] = MNL_TYPE_BINARY,
	[MRC_A_EV_SRV6_SEG] = MNL_TYPE_BINARY,
	[MRC_A_EV_FLOW_LABEL] = MNL_TYPE_U32,
};

/* The peer's address: IPv4 for a v4-mapped one, else IPv6. */
static void format_peer(const struct nlattr *attr, char *buf, size_t len)
{
	static const unsigned char v4mapped[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
	};
	const unsigned char *a = mnl_attr_get_payload(attr);

	if (!memcmp(a, v4mapped, sizeof(v4mapped)))
		inet_ntop(AF_INET, a + 12, buf, len);
	else
		inet_ntop(AF_INET6, a, buf, len);
}

static int print_ev(struct nl *nl, const struct nlattr *nest)
{
	const struct nlattr *tb[MRC_A_EV_MAX + 1];
	static const __u16 u64s[] = {
		MRC_A_EV_TX_PKTS, MRC_A_EV_RETX, MRC_A_EV_LOSSES,
		MRC_A_EV_ECN, MRC_A_EV_RETIRED,
	};
	static const char *const keys[] = {
		"tx_pkts", "retx", "losses", "ecn", "retired",
	};
	static const __u16 srv6[] = { MRC_A_EV_SRV6_DA, MRC_A_EV_SRV6_SEG };
	static const char *const srv6_keys[] = { "srv6_da", "srv6_seg" };
	static const char *const srv6_words[] = { "via", "seg" };
	char srv6_addr[2][INET6_ADDRSTRLEN] = { "", "" };
	const char *state;
	size_t i;

	if (parse_nest(nl, nest, tb, MRC_A_EV_MAX, ev_types) < MNL_CB_OK)
		return -1;
	for (i = 0; i < ARRAY_SIZE(u64s); i++)
		if (!tb[u64s[i]])
			return nl_fail(nl, EPROTO, "incomplete EV from the kernel");
	if (!tb[MRC_A_EV_SLOT] || !tb[MRC_A_EV_VALUE] || !tb[MRC_A_EV_PLANE] ||
	    !tb[MRC_A_EV_ENTROPY] || !tb[MRC_A_EV_STATE])
		return nl_fail(nl, EPROTO, "incomplete EV from the kernel");
	state = value_name(ev_state_names, ARRAY_SIZE(ev_state_names),
			   mnl_attr_get_u8(tb[MRC_A_EV_STATE]));
	/* The EV's SRv6 outer destination and SRH segment, when it has them. */
	for (i = 0; i < ARRAY_SIZE(srv6); i++) {
		if (!tb[srv6[i]])
			continue;
		if (mnl_attr_get_payload_len(tb[srv6[i]]) != 16)
			return nl_fail(nl, EPROTO,
				       "malformed attribute from the kernel");
		inet_ntop(AF_INET6, mnl_attr_get_payload(tb[srv6[i]]),
			  srv6_addr[i], sizeof(srv6_addr[i]));
	}

	if (json) {
		j_open(NULL, '{');
		j_uint("slot", mnl_attr_get_u32(tb[MRC_A_EV_SLOT]));
		j_uint("plane", mnl_attr_get_u32(tb[MRC_A_EV_PLANE]));
		j_uint("value", mnl_attr_get_u32(tb[MRC_A_EV_VALUE]));
		j_uint("sport", mnl_attr_get_u32(tb[MRC_A_EV_ENTROPY]));
		if (tb[MRC_A_EV_FLOW_LABEL])
			j_uint("flow_label",
			       mnl_attr_get_u32(tb[MRC_A_EV_FLOW_LABEL]));
		j_str("state", state);
		for (i = 0; i < ARRAY_SIZE(u64s); i++)
			j_uint(keys[i], mnl_attr_get_u64(tb[u64s[i]]));
		for (i = 0; i < ARRAY_SIZE(srv6); i++)
			if (*srv6_addr[i])
				j_str(srv6_keys[i], srv6_addr[i]);
		j_close('}');
	} else {
		printf("    slot %u plane %u value 0x%08x sport %u",
		       mnl_attr_get_u32(tb[MRC_A_EV_SLOT]),
		       mnl_attr_get_u32(tb[MRC_A_EV_PLANE]),
		       mnl_attr_get_u32(tb[MRC_A_EV_VALUE]),
		       mnl_attr_get_u32(tb[MRC_A_EV_ENTROPY]));
		if (tb[MRC_A_EV_FLOW_LABEL])
			printf(" flowlabel 0x%05x",
			       mnl_attr_get_u32(tb[MRC_A_EV_FLOW_LABEL]));
		printf(" state %s", state);
		for (i = 0; i < ARRAY_SIZE(u64s); i++)
			printf(" %s %llu", keys[i],
			       (unsigned long long)mnl_attr_get_u64(tb[u64s[i]]));
		for (i = 0; i < ARRAY_SIZE(srv6); i++)
			if (*srv6_addr[i])
				printf(" %s %s", srv6_words[i], srv6_addr[i]);
		putchar('\n');
	}
	return 0;
}

/*
 * The MRC attributes of a QP (MRC_CMD_QP_SET), each when the kernel says
 * it: "evprofile 3 ... retry-exp 6", or JSON members of the same names.
 */
static const struct {
	int type;
	const char *word;
	const char *key;
} qp_attr_words[] = {
	{ MRC_A_QP_EVPROF_ID, "evprofile", "evprofile" },
	{ MRC_A_QP_CCPROF_ID, "ccprofile", "ccprofile" },
	{ MRC_A_QP_MPR, "mpr", "mpr" },
	{ MRC_A_QP_MPR_DEST, "mpr-dest", "mpr_dest" },
	{ MRC_A_QP_TIMEOUT, "timeout", "timeout" },
	{ MRC_A_QP_RETRY_LINEAR, "retry-linear", "retry_linear" },
	{ MRC_A_QP_RETRY_EXP, "retry-exp", "retry_exp" },
};

static void print_qp_attrs(const struct nlattr **qtb, bool as_json)
{
	unsigned int i;
	__u32 v;

	for (i = 0; i < ARRAY_SIZE(qp_attr_words); i++) {
		const struct nlattr *a = qtb[qp_attr_words[i].type];

		if (!a)
			continue;
		v = qp_types[qp_attr_words[i].type] == MNL_TYPE_U8 ?
		    mnl_attr_get_u8(a) : mnl_attr_get_u32(a);
		if (as_json)
			j_uint(qp_attr_words[i].key, v);
		else
			printf(" %s %u", qp_attr_words[i].word, v);
	}
}

static void qp_close_json(struct qp_show *qs)
{
	if (qs->in_qp) {
		j_close(']');
		j_close('}');
		qs->in_qp = false;
	}
}

static int qp_cb(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type types[MRC_A_MAX + 1] = {
		[MRC_A_DEV_NAME] = MNL_TYPE_NUL_STRING,
		[MRC_A_QP] = MNL_TYPE_NESTED,
	};
	const struct nlattr *qtb[MRC_A_QP_MAX + 1];
	const struct nlattr *tb[MRC_A_MAX + 1];
	struct qp_show *qs = data;
	char peer[INET6_ADDRSTRLEN] = "none";
	const struct nlattr *ev;
	const char *dev, *state;
	bool same;
	__u32 qpn;

	if (parse_msg(qs->nl, nlh, tb, MRC_A_MAX, types) < MNL_CB_OK ||
	    (tb[MRC_A_QP] && parse_nest(qs->nl, tb[MRC_A_QP], qtb, MRC_A_QP_MAX,
					qp_types) < MNL_CB_OK))
		return MNL_CB_ERROR;
	if (!tb[MRC_A_DEV_NAME] || !tb[MRC_A_QP] || !qtb[MRC_A_QP_NUM] ||
	    !qtb[MRC_A_QP_STATE] || !qtb[MRC_A_QP_DEST_NUM] ||
	    !qtb[MRC_A_QP_EV_COUNT] || !qtb[MRC_A_QP_MIN_ACTIVE] ||
	    !qtb[MRC_A_QP_CWND] || !qtb[MRC_A_QP_SRTT_US] ||
	    !qtb[MRC_A_QP_EVS]) {
		nl_fail(qs->nl, EPROTO, "incomplete QP from the kernel");
		return MNL_CB_ERROR;
	}
	if (qtb[MRC_A_QP_PEER]) {
		if (mnl_attr_get_payload_len(qtb[MRC_A_QP_PEER]) != 16) {
			nl_fail(qs->nl, EPROTO, "malformed attribute from the kernel");
			return MNL_CB_ERROR;
		}
		format_peer(qtb[MRC_A_QP_PEER], peer, sizeof(peer));
	}
	dev = mnl_attr_get_str(tb[MRC_A_DEV_NAME]);
	qpn = mnl_attr_get_u32(qtb[MRC_A_QP_NUM]);
	state = value_name(qp_state_names, ARRAY_SIZE(qp_state_names),
			   mnl_attr_get_u8(qtb[MRC_A_QP_STATE]));
	same = qs->have_last && qs->qpn == qpn && !strcmp(qs->dev, dev);

	if (json) {
		j_list_item(&qs->opened);
		if (!same) {
			qp_close_json(qs);
			j_open(NULL, '{');
			j_str("dev", dev);
			j_uint("qpn", qpn);
			j_str("state", state);
			j_uint("dest_qpn", mnl_attr_get_u32(qtb[MRC_A_QP_DEST_NUM]));
			j_str("peer", peer);
			j_uint("ev_count", mnl_attr_get_u32(qtb[MRC_A_QP_EV_COUNT]));
			j_uint("min_active",
			       mnl_attr_get_u32(qtb[MRC_A_QP_MIN_ACTIVE]));
			j_uint("cwnd", mnl_attr_get_u32(qtb[MRC_A_QP_CWND]));
			j_uint("srtt_us", mnl_attr_get_u32(qtb[MRC_A_QP_SRTT_US]));
			print_peer_down(qtb[MRC_A_QP_PEER_DOWN], true);
			print_qp_attrs(qtb, true);
			j_open("evs", '[');
			qs->in_qp = true;
		}
	} else if (!same) {
		printf("dev %s qpn %u state %s dest-qpn %u peer %s",
		       dev, qpn, state, mnl_attr_get_u32(qtb[MRC_A_QP_DEST_NUM]),
		       peer);
		printf(" evs %u min-active %u cwnd %u srtt-us %u",
		       mnl_attr_get_u32(qtb[MRC_A_QP_EV_COUNT]),
		       mnl_attr_get_u32(qtb[MRC_A_QP_MIN_ACTIVE]),
		       mnl_attr_get_u32(qtb[MRC_A_QP_CWND]),
		       mnl_attr_get_u32(qtb[MRC_A_QP_SRTT_US]));
		print_peer_down(qtb[MRC_A_QP_PEER_DOWN], false);
		print_qp_attrs(qtb, false);
		putchar('\n');
	}
	snprintf(qs->dev, sizeof(qs->dev), "%s", dev);
	qs->qpn = qpn;
	qs->have_last = true;

	mnl_attr_for_each_nested(ev, qtb[MRC_A_QP_EVS])
		if (mnl_attr_get_type(ev) == MRC_A_EV && print_ev(qs->nl, ev) < 0)
			return MNL_CB_ERROR;
	return MNL_CB_OK;
}

/* "dev DEV" and "qpn N" in any order; returns the index of the next word. */
static int parse_qp_args(int argc, char **argv, const char **dev,
			 bool *have_qpn, __u32 *qpn)
{
	int i;

	for (i = 0; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "dev")) {
			*dev = argv[i + 1];
		} else if (!strcmp(argv[i], "qpn")) {
			*qpn = parse_u32_arg("bad QP number", argv[i + 1]);
			*have_qpn = true;
		} else {
			break;
		}
	}
	return i;
}

/*
 * The start of a request about one QP (qp set, ev set): "dev DEV qpn N" from
 * argv, then the message with the device's name and the QP's nest holding its
 * number, left open for the caller's attributes. Returns the index of the
 * first word after the two.
 */
static int qp_request(struct nl *nl, __u8 cmd, const char *usage, int argc,
		      char **argv, struct nlmsghdr **nlh, struct nlattr **qp)
{
	const char *dev = NULL;
	bool have_qpn = false;
	__u32 qpn = 0;
	int i;

	i = parse_qp_args(argc, argv, &dev, &have_qpn, &qpn);
	if (!dev || !have_qpn)
		usage_error(usage, NULL);
	*nlh = mrc_msg(nl, cmd, 0);
	mnl_attr_put_strz(*nlh, MRC_A_DEV_NAME, dev);
	*qp = mnl_attr_nest_start(*nlh, MRC_A_QP);
	mnl_attr_put_u32(*nlh, MRC_A_QP_NUM, qpn);
	return i;
}

/* qp show [dev DEV] [qpn N]: a QPN names one QP, so it needs the device. */
static int qp_show(struct nl *nl, int argc, char **argv)
{
	struct qp_show qs = { .nl = nl };
	const char *dev = NULL;
	struct nlattr *nest;
	struct nlmsghdr *nlh;
	bool have_qpn = false;
	__u32 qpn = 0;
	int i, ret;

	i = parse_qp_args(argc, argv, &dev, &have_qpn, &qpn);
	if (i < argc)
		usage_error("unexpected argument", argv[i]);
	if (have_qpn && !dev)
		usage_error("qpn needs dev", NULL);

	nlh = mrc_msg(nl, MRC_CMD_QP_GET, have_qpn ? 0 : NLM_F_DUMP);
	if (dev)
		mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, dev);
	if (have_qpn) {
		nest = mnl_attr_nest_start(nlh, MRC_A_QP);
		mnl_attr_put_u32(nlh, MRC_A_QP_NUM, qpn);
		mnl_attr_nest_end(nlh, nest);
	}
	ret = nl_talk(nl, nlh, qp_cb, &qs);
	if (json) {
		qp_close_json(&qs);
		j_list_end(qs.opened, ret);
	}
	return ret;
}

/*
 * qp set dev DEV qpn N [evprofile ID|none] [ccprofile ID|none] [mpr N]
 * [mpr-dest N] [timeout N] [retry-linear N] [retry-exp N|infinite]: one
 * request; the kernel checks every range, and that something is set, and
 * says what is wrong.
 */
static int qp_set(struct nl *nl, int argc, char **argv)
{
	struct nlmsghdr *nlh;
	struct nlattr *qp;
	unsigned int k;
	int i;
	__u32 v;

	i = qp_request(nl, MRC_CMD_QP_SET, "qp set needs dev DEV and qpn N",
		       argc, argv, &nlh, &qp);
	for (; i < argc; i += 2) {
		for (k = 0; k < ARRAY_SIZE(qp_attr_words); k++)
			if (!strcmp(argv[i], qp_attr_words[k].word))
				break;
		if (k == ARRAY_SIZE(qp_attr_words))
			usage_error("unknown qp attribute", argv[i]);
		if (i + 1 >= argc)
			usage_error("missing value after", argv[i]);
		if (!strcmp(argv[i + 1], "none") &&
		    (qp_attr_words[k].type == MRC_A_QP_EVPROF_ID ||
		     qp_attr_words[k].type == MRC_A_QP_CCPROF_ID))
			v = 0;
		else if (!strcmp(argv[i + 1], "infinite") &&
			 qp_attr_words[k].type == MRC_A_QP_RETRY_EXP)
			v = MRC_RETRY_EXP_INFINITE;
		else
			v = parse_u32_arg("invalid value", argv[i + 1]);
		if (qp_types[qp_attr_words[k].type] == MNL_TYPE_U8) {
			if (v > 255)
				usage_error("value out of range", argv[i + 1]);
			mnl_attr_put_u8(nlh, qp_attr_words[k].type, v);
		} else {
			mnl_attr_put_u32(nlh, qp_attr_words[k].type, v);
		}
	}
	mnl_attr_nest_end(nlh, qp);
	return nl_talk(nl, nlh, NULL, NULL);
}

int cmd_qp(struct nl *nl, int argc, char **argv)
{
	if (!argc || !strcmp(argv[0], "show") || !strcmp(argv[0], "list"))
		return qp_show(nl, argc ? argc - 1 : 0, argv + 1);
	if (!strcmp(argv[0], "set"))
		return qp_set(nl, argc - 1, argv + 1);
	return usage_error("unknown qp command", argv[0]);
}

/*
 * ev set dev DEV qpn N slot S { deny | undeny } [slot S { deny | undeny } ...]:
 * one request, which the kernel applies whole or not at all.
 */
static int ev_set(struct nl *nl, int argc, char **argv)
{
	struct nlattr *qp, *evs, *ev;
	struct nlmsghdr *nlh;
	int i, nslots = 0;
	__u32 slot;
	__u8 state;

	i = qp_request(nl, MRC_CMD_EV_SET, "ev set needs dev DEV and qpn N",
		       argc, argv, &nlh, &qp);
	evs = mnl_attr_nest_start(nlh, MRC_A_QP_EVS);
	for (; i < argc; i += 3) {
		if (strcmp(argv[i], "slot"))
			usage_error("expected \"slot\", got", argv[i]);
		if (i + 2 >= argc)
			usage_error("slot needs a number and deny or undeny", NULL);
		slot = parse_u32_arg("bad slot", argv[i + 1]);
		if (!strcmp(argv[i + 2], "deny"))
			state = MRC_EV_STATE_DENIED;
		else if (!strcmp(argv[i + 2], "undeny"))
			state = MRC_EV_STATE_GOOD;
		else
			usage_error("expected deny or undeny, got", argv[i + 2]);
		ev = mnl_attr_nest_start_check(nlh, sizeof(nl_buf), MRC_A_EV);
		if (!ev ||
		    !mnl_attr_put_u32_check(nlh, sizeof(nl_buf), MRC_A_EV_SLOT,
					    slot) ||
		    !mnl_attr_put_u8_check(nlh, sizeof(nl_buf), MRC_A_EV_STATE,
					   state))
			usage_error("too many slots to fit in one request", NULL);
		mnl_attr_nest_end(nlh, ev);
		nslots++;
	}
	if (!nslots)
		usage_error("ev set needs at least one \"slot S deny|undeny\"",
			    NULL);
	mnl_attr_nest_end(nlh, evs);
	mnl_attr_nest_end(nlh, qp);
	return nl_talk(nl, nlh, NULL, NULL);
}

int cmd_ev(struct nl *nl, int argc, char **argv)
{
	if (argc && !strcmp(argv[0], "set"))
		return ev_set(nl, argc - 1, argv + 1);
	return usage_error("unknown ev command", argc ? argv[0] : "");
}
