/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbols the KUnit suites (a separate module, mrc_test.ko) call are
 * exported only when KUnit is built, into a namespace that only mrc_test.ko
 * imports, so that the production module's symbol table does not grow.
 * 6.1 has no EXPORT_SYMBOL_IF_KUNIT; this is the same idea.
 *
 * A header of its own, so that the files with no other kernel dependency
 * (wire.c, srv6.c) take nothing more than this with it.
 */
#ifndef _MRC_KUNIT_EXPORT_H
#define _MRC_KUNIT_EXPORT_H

#include <linux/export.h>

#if IS_ENABLED(CONFIG_KUNIT)
#define EXPORT_SYMBOL_IF_MRC_KUNIT(sym)	EXPORT_SYMBOL_NS_GPL(sym, MRC_KUNIT)
#else
#define EXPORT_SYMBOL_IF_MRC_KUNIT(sym)
#endif

#endif /* _MRC_KUNIT_EXPORT_H */
