/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of mrcctl offer each other: the printer, the command-line
 * helpers, each object's entry point for the table in mrcctl.c, and the
 * attribute tables that more than one object reads.  Every command file
 * includes it; it brings in nl.h, the netlink layer below them all.
 */
#ifndef _MRCCTL_H
#define _MRCCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdnoreturn.h>

#include <libmnl/libmnl.h>
#include <linux/types.h>

#include <linux/mrc.h>

#include "nl.h"

/* json.c */
extern bool json;		/* -j: print JSON */
extern bool pretty;		/* -p: indent it */

void j_string(const char *s);
void j_open(const char *key, char c);
void j_close(char c);
void j_list_item(bool *opened);
void j_list_end(bool opened, int ret);
void j_str(const char *key, const char *val);
void j_uint(const char *key, __u64 val);

/* mrcctl.c */
/*
 * Says what is wrong with the command line and exits 1.  Callers rely on it
 * not returning, like the compiler, which must know it to see their
 * variables set on every path that goes on.
 */
noreturn int usage_error(const char *msg, const char *arg);
bool parse_u64(const char *s, unsigned long long max,
	       unsigned long long *val);
__u32 parse_u32_arg(const char *what, const char *s);

/* dev.c */
extern const enum mnl_attr_data_type plane_types[MRC_A_PLANE_MAX + 1];

const char *plane_admin(const struct nlattr **tb);
int cmd_dev(struct nl *nl, int argc, char **argv);

/* profile.c */
int cmd_evprofile(struct nl *nl, int argc, char **argv);
int cmd_ccprofile(struct nl *nl, int argc, char **argv);
int cmd_evformat(struct nl *nl, int argc, char **argv);

/* qp.c */
extern const enum mnl_attr_data_type qp_types[MRC_A_QP_MAX + 1];
extern const enum mnl_attr_data_type ev_types[MRC_A_EV_MAX + 1];
/* By value of MRC_A_EV_STATE; the bound lets others take ARRAY_SIZE(). */
extern const char *const ev_state_names[MRC_EV_STATE_DENIED + 1];

const char *value_name(const char *const *names, size_t n, unsigned int v);
int cmd_qp(struct nl *nl, int argc, char **argv);
int cmd_ev(struct nl *nl, int argc, char **argv);

/* monitor.c */
int cmd_monitor(struct nl *nl, int argc, char **argv);

/* probe.c */
int cmd_probe(struct nl *nl, int argc, char **argv);

/* plane.c */
int cmd_plane(struct nl *nl, int argc, char **argv);

/* srv6.c, srv6_show.c */
int cmd_srv6(struct nl *nl, int argc, char **argv);
int srv6_show(struct nl *nl, int argc, char **argv);

#endif /* _MRCCTL_H */
