// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output: the -j and -p flags, and the calls with which each object
 * prints the JSON form of what it shows, beside its human form, so that one
 * function per object prints both.
 */

#include <stdbool.h>
#include <stdio.h>

#include "mrcctl.h"

bool json;
bool pretty;

/*
 * Just enough JSON for our output: nested objects and arrays of strings and
 * unsigned numbers.  first[] tracks, per depth, whether a comma is due.
 */
#define JSON_MAX_DEPTH 8

static int j_depth;
static bool j_first[JSON_MAX_DEPTH] = { true };

static void j_indent(int depth)
{
	int i;

	putchar('\n');
	for (i = 0; i < depth; i++)
		fputs("    ", stdout);
}

void j_string(const char *s)
{
	const unsigned char *p;

	putchar('"');
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", stdout);
			break;
		case '\\':
			fputs("\\\\", stdout);
			break;
		case '\n':
			fputs("\\n", stdout);
			break;
		case '\t':
			fputs("\\t", stdout);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				printf("\\u%04x", *p);
			else
				putchar(*p);
		}
	}
	putchar('"');
}

/* Comma, line break and key that precede every value. */
static void j_key(const char *key)
{
	if (!j_first[j_depth])
		putchar(',');
	j_first[j_depth] = false;
	if (pretty && j_depth)
		j_indent(j_depth);
	if (key) {
		j_string(key);
		fputs(pretty ? ": " : ":", stdout);
	}
}

void j_open(const char *key, char c)
{
	j_key(key);
	putchar(c);
	j_depth++;
	j_first[j_depth] = true;
}

void j_close(char c)
{
	bool empty = j_first[j_depth];

	j_depth--;
	if (pretty && !empty)
		j_indent(j_depth);
	putchar(c);
	if (!j_depth)
		putchar('\n');
}

/* A dump prints one list of objects: the first object opens it. */
void j_list_item(bool *opened)
{
	if (!*opened)
		j_open(NULL, '[');
	*opened = true;
}

/*
 * After a dump: close its list, or print an empty one when the kernel sent
 * nothing, so that stdout is valid JSON even when the kernel stopped the
 * dump midway; nothing when the request failed before any object.
 */
void j_list_end(bool opened, int ret)
{
	if (!opened && ret)
		return;
	if (!opened)
		j_open(NULL, '[');
	j_close(']');
}

void j_str(const char *key, const char *val)
{
	j_key(key);
	j_string(val);
}

void j_uint(const char *key, __u64 val)
{
	j_key(key);
	printf("%llu", (unsigned long long)val);
}
