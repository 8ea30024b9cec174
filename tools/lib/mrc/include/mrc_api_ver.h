/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Versions of the OCP MRC application API (mrc.h) that libmrc implements.
 *
 * This header is mrc's own text.  It declares the same macro names and
 * values as the OCP MRC API 1.0.1 headers, so that a program written for
 * those compiles against libmrc unchanged; see Documentation/libmrc.md.
 *
 * A version is major.minor.subminor packed into 32 bits, major in the top
 * byte.  A program may define MRC_API_VER_USED (and
 * MRC_VENDOR_API_VER_USED) before including mrc.h to pin the API it was
 * written for; otherwise it gets the current one.
 */
#ifndef _MRC_API_VER_H_
#define _MRC_API_VER_H_

#define MRC_API_VER_MAJOR_OFFSET	24
#define MRC_API_VER_MINOR_OFFSET	16
#define MRC_API_VER_SUBMINOR_OFFSET	0

#define MRC_API_VER(_major, _minor, _sub_minor) \
	(((_major) << MRC_API_VER_MAJOR_OFFSET) | \
	 ((_minor) << MRC_API_VER_MINOR_OFFSET) | \
	 ((_sub_minor)) << MRC_API_VER_SUBMINOR_OFFSET)

/* "Whatever the library is": resolved to the current version below. */
#define MRC_API_VER_LATEST		MRC_API_VER(0xFF, 0xFF, 0xFFFF)

#define MRC_API_CURRENT_VERSION		MRC_API_VER(1, 0, 1)
#define MRC_API_LAST_SUPPORTED_VERSION	MRC_API_VER(0, 0, 0)

#ifndef MRC_API_VER_USED
#define MRC_API_VER_USED MRC_API_CURRENT_VERSION
#elif MRC_API_VER_USED == MRC_API_VER_LATEST
#undef MRC_API_VER_USED
#define MRC_API_VER_USED MRC_API_CURRENT_VERSION
#endif

#if MRC_API_VER_USED > MRC_API_CURRENT_VERSION
#error "MRC_API_VER_USED is greater than MRC_API_CURRENT_VERSION"
#elif MRC_API_VER_USED < MRC_API_LAST_SUPPORTED_VERSION
#error "MRC_API_VER_USED is less than MRC_API_LAST_SUPPORTED version"
#elif MRC_API_VER_USED == MRC_API_LAST_SUPPORTED_VERSION
#warning "MRC_API_VER_USED is the oldest version still supported"
#endif

/* The provider's own extensions, versioned apart; libmrc has none yet. */
#define MRC_VENDOR_API_CURRENT_VERSION		MRC_API_VER(1, 0, 0)
#define MRC_VENDOR_API_LAST_SUPPORTED_VERSION	MRC_API_VER(0, 0, 0)

#ifndef MRC_VENDOR_API_VER_USED
#define MRC_VENDOR_API_VER_USED MRC_VENDOR_API_CURRENT_VERSION
#elif MRC_VENDOR_API_VER_USED == MRC_API_VER_LATEST
#undef MRC_VENDOR_API_VER_USED
#define MRC_VENDOR_API_VER_USED MRC_VENDOR_API_CURRENT_VERSION
#endif

#if MRC_VENDOR_API_VER_USED > MRC_VENDOR_API_CURRENT_VERSION
#error "MRC_VENDOR_API_VER_USED is greater than MRC_VENDOR_API_CURRENT_VERSION"
#elif MRC_VENDOR_API_VER_USED < MRC_VENDOR_API_LAST_SUPPORTED_VERSION
#error "MRC_VENDOR_API_VER_USED is less than MRC_VENDOR_API_LAST_SUPPORTED_VERSION"
#elif MRC_VENDOR_API_VER_USED == MRC_VENDOR_API_LAST_SUPPORTED_VERSION
#warning "MRC_VENDOR_API_VER_USED is the oldest vendor version still supported"
#endif

#endif /* _MRC_API_VER_H_ */
