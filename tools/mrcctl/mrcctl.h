/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of mrcctl offer each other: the printer, the netlink
 * helpers, the command-line helpers, each object's entry point for the
 * table in mrcctl.c, and the attribute tables that more than one object
 * reads.  The only internal header: every file includes it, it includes
 * none of ours.
 */
#ifndef _MRCCTL_H
#define _MRCCTL_H

#include <stdbool.h>

#include <libmnl/libmnl.h>
#include <linux/types.h>

#include <linux/mrc.h>

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

#endif /* _MRCCTL_H */
