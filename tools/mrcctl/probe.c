// SPDX-License-Identifier: GPL-2.0
/*
 * probe: has the kernel time one round trip over one EV slot of a QP, and
 * prints the EV it used and the RTT it measured.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mrcctl.h"

static int probe_cb(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type types[MRC_A_MAX + 1] = {
		[MRC_A_DEV_NAME] = MNL_TYPE_NUL_STRING,
		[MRC_A_QP] = MNL_TYPE_NESTED,
		[MRC_A_PROBE_RTT_NS] = MNL_TYPE_U64,
	};
	const struct nlattr *tb[MRC_A_MAX + 1], *qtb[MRC_A_QP_MAX + 1];
	const struct nlattr *etb[MRC_A_EV_MAX + 1], *ev = NULL, *a;
	struct nl *nl = data;
	__u64 rtt;

	if (parse_msg(nl, nlh, tb, MRC_A_MAX, types) < MNL_CB_OK)
		return MNL_CB_ERROR;
	if (!tb[MRC_A_DEV_NAME] || !tb[MRC_A_QP] || !tb[MRC_A_PROBE_RTT_NS] ||
	    parse_nest(nl, tb[MRC_A_QP], qtb, MRC_A_QP_MAX, qp_types) < MNL_CB_OK ||
	    !qtb[MRC_A_QP_NUM] || !qtb[MRC_A_QP_EVS])
		goto incomplete;
	mnl_attr_for_each_nested(a, qtb[MRC_A_QP_EVS])
		if (mnl_attr_get_type(a) == MRC_A_EV)
			ev = a;
	if (!ev || parse_nest(nl, ev, etb, MRC_A_EV_MAX, ev_types) < MNL_CB_OK ||
	    !etb[MRC_A_EV_SLOT] || !etb[MRC_A_EV_VALUE] ||
	    !etb[MRC_A_EV_PLANE] || !etb[MRC_A_EV_ENTROPY])
		goto incomplete;
	rtt = mnl_attr_get_u64(tb[MRC_A_PROBE_RTT_NS]);

	if (json) {
		j_open(NULL, '{');
		j_str("dev", mnl_attr_get_str(tb[MRC_A_DEV_NAME]));
		j_uint("qpn", mnl_attr_get_u32(qtb[MRC_A_QP_NUM]));
		j_uint("slot", mnl_attr_get_u32(etb[MRC_A_EV_SLOT]));
		j_uint("plane", mnl_attr_get_u32(etb[MRC_A_EV_PLANE]));
		j_uint("sport", mnl_attr_get_u32(etb[MRC_A_EV_ENTROPY]));
		if (etb[MRC_A_EV_FLOW_LABEL])
			j_uint("flow_label",
			       mnl_attr_get_u32(etb[MRC_A_EV_FLOW_LABEL]));
		j_uint("value", mnl_attr_get_u32(etb[MRC_A_EV_VALUE]));
		j_uint("rtt_ns", rtt);
		j_close('}');
	} else {
		printf("probe dev %s qpn %u slot %u plane %u sport %u",
		       mnl_attr_get_str(tb[MRC_A_DEV_NAME]),
		       mnl_attr_get_u32(qtb[MRC_A_QP_NUM]),
		       mnl_attr_get_u32(etb[MRC_A_EV_SLOT]),
		       mnl_attr_get_u32(etb[MRC_A_EV_PLANE]),
		       mnl_attr_get_u32(etb[MRC_A_EV_ENTROPY]));
		if (etb[MRC_A_EV_FLOW_LABEL])
			printf(" flowlabel 0x%05x",
			       mnl_attr_get_u32(etb[MRC_A_EV_FLOW_LABEL]));
		printf(" rtt %llu ns\n", (unsigned long long)rtt);
	}
	return MNL_CB_OK;

incomplete:
	nl_fail(nl, EPROTO, "incomplete probe reply from the kernel");
	return MNL_CB_ERROR;
}

/* probe dev DEV qpn N slot S [timeout MS] */
int cmd_probe(struct nl *nl, int argc, char **argv)
{
	const char *dev = NULL, *qpn = NULL, *slot = NULL, *timeout = NULL;
	struct nlattr *qp, *evs, *ev;
	struct nlmsghdr *nlh;
	int i;

	for (i = 0; i < argc; i += 2) {
		const char **dst;

		if (!strcmp(argv[i], "dev"))
			dst = &dev;
		else if (!strcmp(argv[i], "qpn"))
			dst = &qpn;
		else if (!strcmp(argv[i], "slot"))
			dst = &slot;
		else if (!strcmp(argv[i], "timeout"))
			dst = &timeout;
		else
			usage_error("unknown probe parameter", argv[i]);
		if (i + 1 >= argc)
			usage_error("missing value for", argv[i]);
		*dst = argv[i + 1];
	}
	if (!dev || !qpn || !slot)
		usage_error("probe needs dev, qpn and slot", NULL);

	nlh = mrc_msg(nl, MRC_CMD_PROBE, 0);
	mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, dev);
	if (timeout)
		mnl_attr_put_u32(nlh, MRC_A_PROBE_TIMEOUT_MS,
				 parse_u32_arg("invalid timeout", timeout));
	qp = mnl_attr_nest_start(nlh, MRC_A_QP);
	mnl_attr_put_u32(nlh, MRC_A_QP_NUM, parse_u32_arg("invalid qpn", qpn));
	evs = mnl_attr_nest_start(nlh, MRC_A_QP_EVS);
	ev = mnl_attr_nest_start(nlh, MRC_A_EV);
	mnl_attr_put_u32(nlh, MRC_A_EV_SLOT, parse_u32_arg("invalid slot", slot));
	mnl_attr_nest_end(nlh, ev);
	mnl_attr_nest_end(nlh, evs);
	mnl_attr_nest_end(nlh, qp);
	return nl_talk(nl, nlh, probe_cb, nl);
}
