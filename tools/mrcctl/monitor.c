// SPDX-License-Identifier: GPL-2.0
/*
 * monitor: joins the family's events group and prints the plane, EV and QP
 * events of the caller's namespace as they come, one line or one JSON
 * object per event, so that a script can read them as a stream.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "mrcctl.h"

struct monitor {
	struct nl *nl;
	unsigned long left;	/* events still to print, 0 = no limit */
};

static int ev_event(struct monitor *mon, const struct nlattr **tb);
static int qp_event(struct monitor *mon, const struct nlattr **tb);

static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type types[MRC_A_MAX + 1] = {
		[MRC_A_DEV_NAME] = MNL_TYPE_NUL_STRING,
		[MRC_A_DEV_PLANES] = MNL_TYPE_NESTED,
		[MRC_A_QP] = MNL_TYPE_NESTED,
	};
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *ptb[MRC_A_PLANE_MAX + 1];
	const struct nlattr *tb[MRC_A_MAX + 1];
	struct monitor *mon = data;
	const struct nlattr *plane;
	const char *state;

	/* Commands this mrcctl does not know yet are someone else's news. */
	if (nlh->nlmsg_type != mon->nl->family ||
	    (genl->cmd != MRC_CMD_PLANE_EVENT &&
	     genl->cmd != MRC_CMD_EV_EVENT && genl->cmd != MRC_CMD_QP_EVENT))
		return MNL_CB_OK;
	if (parse_msg(mon->nl, nlh, tb, MRC_A_MAX, types) < MNL_CB_OK)
		return MNL_CB_ERROR;
	if (genl->cmd == MRC_CMD_EV_EVENT)
		return ev_event(mon, tb);
	if (genl->cmd == MRC_CMD_QP_EVENT)
		return qp_event(mon, tb);
	if (!tb[MRC_A_DEV_NAME] || !tb[MRC_A_DEV_PLANES]) {
		nl_fail(mon->nl, EPROTO, "incomplete plane event from the kernel");
		return MNL_CB_ERROR;
	}
	mnl_attr_for_each_nested(plane, tb[MRC_A_DEV_PLANES]) {
		if (parse_nest(mon->nl, plane, ptb, MRC_A_PLANE_MAX,
			       plane_types) < MNL_CB_OK)
			return MNL_CB_ERROR;
		if (!ptb[MRC_A_PLANE_INDEX] || !ptb[MRC_A_PLANE_IFINDEX] ||
		    !ptb[MRC_A_PLANE_IFNAME] || !ptb[MRC_A_PLANE_STATE]) {
			nl_fail(mon->nl, EPROTO, "incomplete plane event from the kernel");
			return MNL_CB_ERROR;
		}
		state = mnl_attr_get_u8(ptb[MRC_A_PLANE_STATE]) ==
			MRC_PLANE_STATE_UP ? "up" : "down";
		if (json) {
			/* One object per line, so that a reader can stream. */
			printf("{\"event\":\"plane\",\"dev\":");
			j_string(mnl_attr_get_str(tb[MRC_A_DEV_NAME]));
			printf(",\"index\":%u,\"netdev\":",
			       mnl_attr_get_u32(ptb[MRC_A_PLANE_INDEX]));
			j_string(mnl_attr_get_str(ptb[MRC_A_PLANE_IFNAME]));
			printf(",\"ifindex\":%u,\"state\":\"%s\"",
			       mnl_attr_get_u32(ptb[MRC_A_PLANE_IFINDEX]), state);
			if (*plane_admin(ptb))
				printf(",\"admin\":\"%s\"", plane_admin(ptb));
			printf("}\n");
		} else {
			printf("plane dev %s index %u netdev %s ifindex %u state %s",
			       mnl_attr_get_str(tb[MRC_A_DEV_NAME]),
			       mnl_attr_get_u32(ptb[MRC_A_PLANE_INDEX]),
			       mnl_attr_get_str(ptb[MRC_A_PLANE_IFNAME]),
			       mnl_attr_get_u32(ptb[MRC_A_PLANE_IFINDEX]), state);
			if (*plane_admin(ptb))
				printf(" admin %s", plane_admin(ptb));
			putchar('\n');
		}
		fflush(stdout);
		if (mon->left && !--mon->left)
			return MNL_CB_STOP;
	}
	return MNL_CB_OK;
}

/* By value of enum mrc_qp_error. */
static const char *const qp_error_names[] = {
	"other", "retry-exceeded", "remote-access", "remote-op", "local",
	"plane-gone",
};

/* Counts one printed event; MNL_CB_STOP once "count N" is reached. */
static int event_printed(struct monitor *mon)
{
	fflush(stdout);
	if (mon->left && !--mon->left)
		return MNL_CB_STOP;
	return MNL_CB_OK;
}

/* MRC_CMD_EV_EVENT: one line per EV of the message (the kernel sends one). */
static int ev_event(struct monitor *mon, const struct nlattr **tb)
{
	const struct nlattr *qtb[MRC_A_QP_MAX + 1];
	const struct nlattr *etb[MRC_A_EV_MAX + 1];
	const struct nlattr *ev;
	const char *state;
	int ret = MNL_CB_OK;

	if (!tb[MRC_A_DEV_NAME] || !tb[MRC_A_QP] ||
	    parse_nest(mon->nl, tb[MRC_A_QP], qtb, MRC_A_QP_MAX,
		       qp_types) < MNL_CB_OK ||
	    !qtb[MRC_A_QP_NUM] || !qtb[MRC_A_QP_EVS])
		return nl_fail(mon->nl, EPROTO, "incomplete EV event from the kernel");
	mnl_attr_for_each_nested(ev, qtb[MRC_A_QP_EVS]) {
		if (parse_nest(mon->nl, ev, etb, MRC_A_EV_MAX,
			       ev_types) < MNL_CB_OK)
			return MNL_CB_ERROR;
		if (!etb[MRC_A_EV_SLOT] || !etb[MRC_A_EV_VALUE] ||
		    !etb[MRC_A_EV_PLANE] || !etb[MRC_A_EV_ENTROPY] ||
		    !etb[MRC_A_EV_STATE])
			return nl_fail(mon->nl, EPROTO, "incomplete EV event from the kernel");
		state = value_name(ev_state_names, ARRAY_SIZE(ev_state_names),
				   mnl_attr_get_u8(etb[MRC_A_EV_STATE]));
		if (json) {
			printf("{\"event\":\"ev\",\"dev\":");
			j_string(mnl_attr_get_str(tb[MRC_A_DEV_NAME]));
			printf(",\"qpn\":%u,\"slot\":%u,\"value\":%u,",
			       mnl_attr_get_u32(qtb[MRC_A_QP_NUM]),
			       mnl_attr_get_u32(etb[MRC_A_EV_SLOT]),
			       mnl_attr_get_u32(etb[MRC_A_EV_VALUE]));
			printf("\"plane\":%u,\"sport\":%u,",
			       mnl_attr_get_u32(etb[MRC_A_EV_PLANE]),
			       mnl_attr_get_u32(etb[MRC_A_EV_ENTROPY]));
			if (etb[MRC_A_EV_FLOW_LABEL])
				printf("\"flow_label\":%u,",
				       mnl_attr_get_u32(etb[MRC_A_EV_FLOW_LABEL]));
			printf("\"state\":\"%s\"}\n", state);
		} else {
			printf("ev dev %s qpn %u slot %u plane %u sport %u",
			       mnl_attr_get_str(tb[MRC_A_DEV_NAME]),
			       mnl_attr_get_u32(qtb[MRC_A_QP_NUM]),
			       mnl_attr_get_u32(etb[MRC_A_EV_SLOT]),
			       mnl_attr_get_u32(etb[MRC_A_EV_PLANE]),
			       mnl_attr_get_u32(etb[MRC_A_EV_ENTROPY]));
			if (etb[MRC_A_EV_FLOW_LABEL])
				printf(" flowlabel 0x%05x",
				       mnl_attr_get_u32(etb[MRC_A_EV_FLOW_LABEL]));
			printf(" state %s\n", state);
		}
		ret = event_printed(mon);
		if (ret != MNL_CB_OK)
			break;
	}
	return ret;
}

/* MRC_CMD_QP_EVENT: a QP went to the error state. */
static int qp_event(struct monitor *mon, const struct nlattr **tb)
{
	const struct nlattr *qtb[MRC_A_QP_MAX + 1];
	const char *error;

	if (!tb[MRC_A_DEV_NAME] || !tb[MRC_A_QP] ||
	    parse_nest(mon->nl, tb[MRC_A_QP], qtb, MRC_A_QP_MAX,
		       qp_types) < MNL_CB_OK ||
	    !qtb[MRC_A_QP_NUM] || !qtb[MRC_A_QP_DEST_NUM] ||
	    !qtb[MRC_A_QP_ERROR])
		return nl_fail(mon->nl, EPROTO, "incomplete QP event from the kernel");
	error = value_name(qp_error_names, ARRAY_SIZE(qp_error_names),
			   mnl_attr_get_u32(qtb[MRC_A_QP_ERROR]));
	if (json) {
		printf("{\"event\":\"qp\",\"dev\":");
		j_string(mnl_attr_get_str(tb[MRC_A_DEV_NAME]));
		printf(",\"qpn\":%u,\"dest_qpn\":%u,\"error\":\"%s\"}\n",
		       mnl_attr_get_u32(qtb[MRC_A_QP_NUM]),
		       mnl_attr_get_u32(qtb[MRC_A_QP_DEST_NUM]), error);
	} else {
		printf("qp dev %s qpn %u dest-qpn %u error %s\n",
		       mnl_attr_get_str(tb[MRC_A_DEV_NAME]),
		       mnl_attr_get_u32(qtb[MRC_A_QP_NUM]),
		       mnl_attr_get_u32(qtb[MRC_A_QP_DEST_NUM]), error);
	}
	return event_printed(mon);
}

/*
 * monitor [count N]: print events of the caller's namespace as they come.
 * "listening" goes to stderr once the subscription is in place, so that a
 * script can start a monitor and know when events will no longer be missed.
 */
int cmd_monitor(struct nl *nl, int argc, char **argv)
{
	struct monitor mon = { .nl = nl };
	int ret;

	if (argc == 2 && !strcmp(argv[0], "count"))
		mon.left = parse_u32_arg("count", argv[1]);
	else if (argc)
		usage_error("unexpected argument", argv[0]);
	if (!mon.left && argc)
		usage_error("count must be at least 1", argv[1]);
	if (!nl->events_group)
		return nl_fail(nl, EPROTO, "the kernel offers no events group");
	if (mnl_socket_setsockopt(nl->sock, NETLINK_ADD_MEMBERSHIP,
				  &nl->events_group,
				  sizeof(nl->events_group)) < 0)
		return nl_fail(nl, errno, NULL);
	fprintf(stderr, "mrcctl: listening\n");

	do {
		ssize_t len = mnl_socket_recvfrom(nl->sock, nl_buf,
						  sizeof(nl_buf));

		/*
		 * EV events come in bursts and the kernel drops what does not
		 * fit our socket: say so and go on, the events are lossy.
		 */
		if (len < 0 && errno == ENOBUFS) {
			fprintf(stderr, "mrcctl: events lost (ENOBUFS)\n");
			ret = MNL_CB_OK;
			continue;
		}
		if (len < 0)
			return nl_fail(nl, errno, NULL);
		ret = mnl_cb_run(nl_buf, len, 0, 0, event_cb, &mon);
	} while (ret == MNL_CB_OK);
	return ret == MNL_CB_STOP ? 0 : -1;
}
