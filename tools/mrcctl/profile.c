// SPDX-License-Identifier: GPL-2.0
/*
 * evformat, evprofile and ccprofile: the EV format, EV and congestion
 * control profiles that EV profiles, devices and QPs name by id.  One
 * table-driven implementation serves all three kinds; each kind's table
 * lists its parameters, their keywords and their attributes.
 */

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mrcctl.h"

/*
 * Every kind of profile has one shape: a nest holding an id and settings.
 * A parameter maps a command-line keyword to an attribute; keywords are the
 * JSON keys with '-' for '_'.  P_REF is a profile id, "none" or 0 for none,
 * shown by the human output only when set.
 */
enum param_kind { P_U32, P_ENUM, P_EVENTS, P_ENTRIES, P_FIELDS, P_REF };

struct param {
	const char *key;	/* command line and human output */
	const char *json;	/* JSON key */
	__u16 type;		/* attribute in the profile's nest */
	enum param_kind kind;
	const char *const *names;	/* P_ENUM: names by value, NULL-ended */
};

struct prof_kind {
	const char *object;	/* "evprofile" */
	__u8 cmd_new, cmd_set, cmd_get, cmd_del;
	__u16 nest, id, state;
	unsigned int max;
	const struct param *params;	/* in output order */
	unsigned int n_params;
};

static const char *const state_names[] = { "init", "offline", "online", NULL };
static const char *const mode_names[] = { "auto", "exp", "gen", NULL };
static const char *const format_names[] = { "udp", "stev", "srv6", NULL };
static const char *const algo_names[] = { "none", "nscc", NULL };
static const char *const event_names[] = {
	[MRC_EV_STATE_GOOD] = "good",
	[MRC_EV_STATE_ASSUMED_BAD] = "assumed-bad",
};

#define ENUM_PARAM(k, j, t, n)	{ k, j, t, P_ENUM, n }
#define U32_PARAM(k, j, t)	{ k, j, t, P_U32, NULL }

static const struct param evprof_params[] = {
	ENUM_PARAM("state", "state", MRC_A_EVPROF_STATE, state_names),
	ENUM_PARAM("mode", "mode", MRC_A_EVPROF_MODE, mode_names),
	ENUM_PARAM("format", "format", MRC_A_EVPROF_FORMAT, format_names),
	U32_PARAM("evs", "evs", MRC_A_EVPROF_EV_COUNT),
	U32_PARAM("min-active", "min_active", MRC_A_EVPROF_MIN_ACTIVE),
	U32_PARAM("backups", "backups", MRC_A_EVPROF_BACKUPS),
	{ "events", "events", MRC_A_EVPROF_EVENT_MASK, P_EVENTS, NULL },
	{ "entries", "entries", MRC_A_EVPROF_ENTRIES, P_ENTRIES, NULL },
	{ "evformat", "evformat", MRC_A_EVPROF_FMT_ID, P_REF, NULL },
};

static const struct param evfmt_params[] = {
	ENUM_PARAM("state", "state", MRC_A_EVFMT_STATE, state_names),
	ENUM_PARAM("format", "format", MRC_A_EVFMT_FORMAT, format_names),
	{ "fields", "fields", MRC_A_EVFMT_FIELDS, P_FIELDS, NULL },
};

static const struct param ccprof_params[] = {
	ENUM_PARAM("state", "state", MRC_A_CCPROF_STATE, state_names),
	ENUM_PARAM("algo", "algo", MRC_A_CCPROF_ALGO, algo_names),
	U32_PARAM("base-rtt-us", "base_rtt_us", MRC_A_CCPROF_BASE_RTT_US),
	U32_PARAM("target-delay-us", "target_delay_us",
		  MRC_A_CCPROF_TARGET_DELAY_US),
	U32_PARAM("qa-threshold-us", "qa_threshold_us",
		  MRC_A_CCPROF_QA_THRESHOLD_US),
	U32_PARAM("min-cwnd", "min_cwnd", MRC_A_CCPROF_MIN_CWND),
	U32_PARAM("max-cwnd", "max_cwnd", MRC_A_CCPROF_MAX_CWND),
	U32_PARAM("gamma", "gamma", MRC_A_CCPROF_GAMMA),
	U32_PARAM("max-md-jump", "max_md_jump", MRC_A_CCPROF_MAX_MD_JUMP),
	U32_PARAM("eta", "eta", MRC_A_CCPROF_ETA),
	U32_PARAM("fi", "fi", MRC_A_CCPROF_FI),
};

static const struct prof_kind evprof_kind = {
	"evprofile", MRC_CMD_EVPROF_NEW, MRC_CMD_EVPROF_SET,
	MRC_CMD_EVPROF_GET, MRC_CMD_EVPROF_DEL,
	MRC_A_EVPROF, MRC_A_EVPROF_ID, MRC_A_EVPROF_STATE, MRC_A_EVPROF_MAX,
	evprof_params, ARRAY_SIZE(evprof_params),
};

static const struct prof_kind evfmt_kind = {
	"evformat", MRC_CMD_EVFMT_NEW, MRC_CMD_EVFMT_SET,
	MRC_CMD_EVFMT_GET, MRC_CMD_EVFMT_DEL,
	MRC_A_EVFMT, MRC_A_EVFMT_ID, MRC_A_EVFMT_STATE, MRC_A_EVFMT_MAX,
	evfmt_params, ARRAY_SIZE(evfmt_params),
};

static const struct prof_kind ccprof_kind = {
	"ccprofile", MRC_CMD_CCPROF_NEW, MRC_CMD_CCPROF_SET,
	MRC_CMD_CCPROF_GET, MRC_CMD_CCPROF_DEL,
	MRC_A_CCPROF, MRC_A_CCPROF_ID, MRC_A_CCPROF_STATE, MRC_A_CCPROF_MAX,
	ccprof_params, ARRAY_SIZE(ccprof_params),
};

static __u32 parse_events(const char *arg)
{
	char buf[128], *tok, *save;
	__u32 mask = 0;
	size_t i;

	if (!strcmp(arg, "none"))
		return 0;
	if (!strcmp(arg, "all"))
		return MRC_EV_EVENTS_ALL;
	if (strlen(arg) >= sizeof(buf))
		usage_error("invalid event list", arg);
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < ARRAY_SIZE(event_names); i++)
			if (event_names[i] && !strcmp(tok, event_names[i]))
				break;
		if (i == ARRAY_SIZE(event_names))
			usage_error("unknown event", tok);
		mask |= 1U << i;
	}
	return mask;
}

static void put_entries(struct nlmsghdr *nlh, const char *arg)
{
	const char *p = arg;
	struct nlattr *nest;

	nest = mnl_attr_nest_start(nlh, MRC_A_EVPROF_ENTRIES);
	if (strcmp(arg, "none")) {
		for (;;) {
			const char *comma = strchr(p, ',');
			size_t len = comma ? (size_t)(comma - p) : strlen(p);
			unsigned long long v;
			char num[32];

			if (!len || len >= sizeof(num))
				usage_error("invalid EV entry list", arg);
			memcpy(num, p, len);
			num[len] = '\0';
			if (!parse_u64(num, ULLONG_MAX, &v))
				usage_error("invalid EV entry", num);
			if (!mnl_attr_put_u64_check(nlh, sizeof(nl_buf),
						    MRC_A_EV_ENTRY, v))
				usage_error("too many EV entries for one request",
					    NULL);
			if (!comma)
				break;
			p = comma + 1;
		}
	}
	mnl_attr_nest_end(nlh, nest);
}

/* A comma list of field widths; the kernel checks their number and sum. */
static void put_fields(struct nlmsghdr *nlh, const char *arg)
{
	char buf[128], *tok, *save;
	struct nlattr *nest;

	if (strlen(arg) >= sizeof(buf))
		usage_error("invalid field list", arg);
	strcpy(buf, arg);
	nest = mnl_attr_nest_start(nlh, MRC_A_EVFMT_FIELDS);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned long long w;

		if (!parse_u64(tok, UCHAR_MAX, &w))
			usage_error("invalid field width", tok);
		mnl_attr_put_u8(nlh, MRC_A_EVFMT_FIELD, (__u8)w);
	}
	mnl_attr_nest_end(nlh, nest);
}

static void put_param(struct nlmsghdr *nlh, const struct param *p,
		      const char *arg)
{
	unsigned int i;

	switch (p->kind) {
	case P_U32:
		mnl_attr_put_u32(nlh, p->type, parse_u32_arg("invalid number", arg));
		break;
	case P_ENUM:
		for (i = 0; p->names[i]; i++)
			if (!strcmp(arg, p->names[i]))
				break;
		if (!p->names[i])
			usage_error("invalid value", arg);
		mnl_attr_put_u8(nlh, p->type, (__u8)i);
		break;
	case P_EVENTS:
		mnl_attr_put_u32(nlh, p->type, parse_events(arg));
		break;
	case P_ENTRIES:
		put_entries(nlh, arg);
		break;
	case P_FIELDS:
		put_fields(nlh, arg);
		break;
	case P_REF:
		mnl_attr_put_u32(nlh, p->type, strcmp(arg, "none") ?
				 parse_u32_arg("invalid profile id", arg) : 0);
		break;
	}
}

static __u32 parse_prof_id(const struct prof_kind *k, int argc, char **argv,
			   const char *cmd)
{
	char msg[64];

	if (argc < 1) {
		snprintf(msg, sizeof(msg), "%s %s needs a profile id", k->object,
			 cmd);
		usage_error(msg, NULL);
	}
	return parse_u32_arg("invalid profile id", argv[0]);
}

static int prof_add_set(struct nl *nl, const struct prof_kind *k, bool create,
			int argc, char **argv)
{
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	unsigned int j;
	__u32 id;
	int i;

	id = parse_prof_id(k, argc, argv, create ? "add" : "set");
	if (!create && argc < 3)
		usage_error("set needs at least one parameter", NULL);

	nlh = mrc_msg(nl, create ? k->cmd_new : k->cmd_set, 0);
	nest = mnl_attr_nest_start(nlh, k->nest);
	mnl_attr_put_u32(nlh, k->id, id);
	for (i = 1; i < argc; i += 2) {
		const struct param *p = NULL;

		for (j = 0; j < k->n_params; j++)
			if (!strcmp(argv[i], k->params[j].key))
				p = &k->params[j];
		if (!p)
			usage_error("unknown parameter", argv[i]);
		if (i + 1 >= argc)
			usage_error("missing value for", argv[i]);
		put_param(nlh, p, argv[i + 1]);
	}
	mnl_attr_nest_end(nlh, nest);
	return nl_talk(nl, nlh, NULL, NULL);
}

static int prof_del(struct nl *nl, const struct prof_kind *k, int argc,
		    char **argv)
{
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	__u32 id;

	id = parse_prof_id(k, argc, argv, "del");
	if (argc != 1)
		usage_error("unexpected argument", argv[1]);
	nlh = mrc_msg(nl, k->cmd_del, 0);
	nest = mnl_attr_nest_start(nlh, k->nest);
	mnl_attr_put_u32(nlh, k->id, id);
	mnl_attr_nest_end(nlh, nest);
	return nl_talk(nl, nlh, NULL, NULL);
}

struct prof_show {
	struct nl *nl;
	const struct prof_kind *k;
	bool opened;		/* JSON array started */
};

static const char *enum_name(const struct param *p, unsigned int v)
{
	unsigned int i;

	for (i = 0; p->names[i]; i++)
		if (i == v)
			return p->names[i];
	return "unknown";
}

static void print_events(const struct param *p, __u32 mask)
{
	bool first = true;
	size_t i;

	if (json) {
		j_open(p->json, '[');
		for (i = 0; i < ARRAY_SIZE(event_names); i++)
			if (event_names[i] && (mask & (1U << i)))
				j_str(NULL, event_names[i]);
		j_close(']');
		return;
	}
	printf(" %s ", p->key);
	for (i = 0; i < ARRAY_SIZE(event_names); i++) {
		if (!event_names[i] || !(mask & (1U << i)))
			continue;
		printf("%s%s", first ? "" : ",", event_names[i]);
		first = false;
	}
	if (first)
		fputs("none", stdout);
}

static int print_fields(struct nl *nl, const struct param *p,
			const struct nlattr *nest)
{
	const struct nlattr *f;
	bool first = true;

	mnl_attr_for_each_nested(f, nest) {
		if (mnl_attr_get_type(f) != MRC_A_EVFMT_FIELD)
			continue;
		if (mnl_attr_validate(f, MNL_TYPE_U8) < 0)
			return nl_fail(nl, EPROTO,
				       "malformed attribute from the kernel");
	}
	if (json)
		j_open(p->json, '[');
	else
		printf(" %s ", p->key);
	mnl_attr_for_each_nested(f, nest) {
		if (mnl_attr_get_type(f) != MRC_A_EVFMT_FIELD)
			continue;
		if (json)
			j_uint(NULL, mnl_attr_get_u8(f));
		else
			printf("%s%u", first ? "" : ",", mnl_attr_get_u8(f));
		first = false;
	}
	if (json)
		j_close(']');
	return 0;
}

/* Human output lists entries in EXP mode only; JSON always has the array. */
static int print_entries(struct nl *nl, const struct param *p,
			 const struct nlattr *nest, bool exp)
{
	const struct nlattr *e;
	bool first = true;

	mnl_attr_for_each_nested(e, nest) {
		if (mnl_attr_get_type(e) != MRC_A_EV_ENTRY)
			continue;
		if (mnl_attr_validate(e, MNL_TYPE_U64) < 0)
			return nl_fail(nl, EPROTO,
				       "malformed attribute from the kernel");
	}
	if (json)
		j_open(p->json, '[');
	else if (exp)
		printf(" %s ", p->key);
	else
		return 0;
	mnl_attr_for_each_nested(e, nest) {
		if (mnl_attr_get_type(e) != MRC_A_EV_ENTRY)
			continue;
		if (json)
			j_uint(NULL, mnl_attr_get_u64(e));
		else
			printf("%s%llu", first ? "" : ",",
			       (unsigned long long)mnl_attr_get_u64(e));
		first = false;
	}
	if (json)
		j_close(']');
	else if (first)
		fputs("none", stdout);
	return 0;
}

static int prof_cb(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type top_types[MRC_A_MAX + 1] = {
		[MRC_A_EVPROF] = MNL_TYPE_NESTED,
		[MRC_A_CCPROF] = MNL_TYPE_NESTED,
		[MRC_A_EVFMT] = MNL_TYPE_NESTED,
	};
	enum mnl_attr_data_type types[32] = { MNL_TYPE_UNSPEC };
	const struct nlattr *top[MRC_A_MAX + 1];
	const struct nlattr *tb[32];
	struct prof_show *ps = data;
	const struct prof_kind *k = ps->k;
	const struct param *p;
	bool exp = false;
	unsigned int i;

	if (parse_msg(ps->nl, nlh, top, MRC_A_MAX, top_types) < MNL_CB_OK)
		return MNL_CB_ERROR;
	if (!top[k->nest]) {
		nl_fail(ps->nl, EPROTO, "incomplete profile from the kernel");
		return MNL_CB_ERROR;
	}
	types[k->id] = MNL_TYPE_U32;
	for (i = 0; i < k->n_params; i++) {
		p = &k->params[i];
		types[p->type] = p->kind == P_ENUM ? MNL_TYPE_U8 :
				 p->kind == P_ENTRIES ? MNL_TYPE_NESTED :
				 p->kind == P_FIELDS ? MNL_TYPE_NESTED :
				 MNL_TYPE_U32;
	}
	if (parse_nest(ps->nl, top[k->nest], tb, k->max, types) < MNL_CB_OK)
		return MNL_CB_ERROR;
	for (i = 0; i < k->n_params; i++) {
		if (!tb[k->id] || !tb[k->params[i].type]) {
			nl_fail(ps->nl, EPROTO,
				"incomplete profile from the kernel");
			return MNL_CB_ERROR;
		}
	}
	if (k == &evprof_kind)
		exp = mnl_attr_get_u8(tb[MRC_A_EVPROF_MODE]) == MRC_EV_MODE_EXP;

	if (json) {
		j_list_item(&ps->opened);
		j_open(NULL, '{');
		j_uint("id", mnl_attr_get_u32(tb[k->id]));
	} else {
		printf("%s %u", k->object, mnl_attr_get_u32(tb[k->id]));
	}
	for (i = 0; i < k->n_params; i++) {
		const struct nlattr *a;

		p = &k->params[i];
		a = tb[p->type];
		switch (p->kind) {
		case P_U32:
			if (json)
				j_uint(p->json, mnl_attr_get_u32(a));
			else
				printf(" %s %u", p->key, mnl_attr_get_u32(a));
			break;
		case P_ENUM:
			if (json)
				j_str(p->json, enum_name(p, mnl_attr_get_u8(a)));
			else
				printf(" %s %s", p->key,
				       enum_name(p, mnl_attr_get_u8(a)));
			break;
		case P_EVENTS:
			print_events(p, mnl_attr_get_u32(a));
			break;
		case P_ENTRIES:
			if (print_entries(ps->nl, p, a, exp) < 0)
				return MNL_CB_ERROR;
			break;
		case P_FIELDS:
			if (print_fields(ps->nl, p, a) < 0)
				return MNL_CB_ERROR;
			break;
		case P_REF:
			if (json)
				j_uint(p->json, mnl_attr_get_u32(a));
			else if (mnl_attr_get_u32(a))
				printf(" %s %u", p->key, mnl_attr_get_u32(a));
			break;
		}
	}
	if (json)
		j_close('}');
	else
		putchar('\n');
	return MNL_CB_OK;
}

static int prof_show(struct nl *nl, const struct prof_kind *k, int argc,
		     char **argv)
{
	struct prof_show ps = { .nl = nl, .k = k };
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int ret;

	if (argc > 1)
		usage_error("unexpected argument", argv[1]);
	if (argc) {
		__u32 id = parse_u32_arg("invalid profile id", argv[0]);

		nlh = mrc_msg(nl, k->cmd_get, 0);
		nest = mnl_attr_nest_start(nlh, k->nest);
		mnl_attr_put_u32(nlh, k->id, id);
		mnl_attr_nest_end(nlh, nest);
	} else {
		nlh = mrc_msg(nl, k->cmd_get, NLM_F_DUMP);
	}
	ret = nl_talk(nl, nlh, prof_cb, &ps);
	if (json)
		j_list_end(ps.opened, ret);
	return ret;
}

static int cmd_prof(struct nl *nl, const struct prof_kind *k, int argc,
		    char **argv)
{
	if (!argc || !strcmp(argv[0], "show") || !strcmp(argv[0], "list"))
		return prof_show(nl, k, argc ? argc - 1 : 0, argv + 1);
	if (!strcmp(argv[0], "add"))
		return prof_add_set(nl, k, true, argc - 1, argv + 1);
	if (!strcmp(argv[0], "set"))
		return prof_add_set(nl, k, false, argc - 1, argv + 1);
	if (!strcmp(argv[0], "del") || !strcmp(argv[0], "delete"))
		return prof_del(nl, k, argc - 1, argv + 1);
	return usage_error("unknown command", argv[0]);
}

int cmd_evprofile(struct nl *nl, int argc, char **argv)
{
	return cmd_prof(nl, &evprof_kind, argc, argv);
}

int cmd_ccprofile(struct nl *nl, int argc, char **argv)
{
	return cmd_prof(nl, &ccprof_kind, argc, argv);
}

int cmd_evformat(struct nl *nl, int argc, char **argv)
{
	return cmd_prof(nl, &evfmt_kind, argc, argv);
}
