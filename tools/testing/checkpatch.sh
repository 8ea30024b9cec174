#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.pl --strict over every C source and header of ours, with the script from
# Debian's linux-source-6.1 (extracted once into the cache). Any error, warning or
# check fails.
set -euo pipefail
tree=$(cd "$(dirname "$0")/../.." && pwd)
cache=${MRC_CACHE:-/var/cache/mrc}
srcver=$(dpkg-query -W -f '${Version}' linux-source-6.1)
cp_dir=$cache/checkpatch-$srcver
if [ ! -f "$cp_dir/.done" ]; then
	mkdir -p "$cp_dir"
	tar -C "$cp_dir" --strip-components=1 -xJf /usr/src/linux-source-6.1.tar.xz \
		linux-source-6.1/scripts/checkpatch.pl linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
	touch "$cp_dir/.done"
fi
cd "$tree"
# tools/testing/ocp holds the OCP repository's programs, vendored unmodified.
mapfile -t files < <(git ls-files -co --exclude-standard -- 'mrc/*.[ch]' 'include/*.h' \
	'tools/*.[ch]' ':!tools/testing/ocp')
[ ${#files[@]} -gt 0 ] || { echo "checkpatch.sh: no sources found" >&2; exit 1; }
cp=(perl "$cp_dir/scripts/checkpatch.pl" --strict --no-tree --quiet --show-types)
# mrc/compat.h exists to test the kernel's version (in one macro, MRC_KERNEL_SINCE),
# and names with a typedef the one parameter type that differs by kernel: checkpatch's
# advice to write for the version one merges into is the header's own rule for
# dropping a shim. Nothing else is excused, and no other file.
#
# libmrc implements the OCP MRC API, whose calls return positive errno values as
# the libibverbs calls they mirror do, and whose version tests compare two macros
# (tools/lib/mrc). Its layout test is a table of the OCP API's sizes and offsets,
# one line each, and a function pointer per entry point (tests/layout.c).
lib=tools/lib/mrc
rest=()
for f in "${files[@]}"; do
	case $f in mrc/compat.h|$lib/*) ;; *) rest+=("$f") ;; esac
done
report=$("${cp[@]}" -f "${rest[@]}" 2>&1) || true
report+=$("${cp[@]}" --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON,NEW_TYPEDEFS \
	-f mrc/compat.h 2>&1) || true
report+=$("${cp[@]}" --ignore USE_NEGATIVE_ERRNO,CONSTANT_COMPARISON,NEW_TYPEDEFS \
	-f $lib/*.[ch] $lib/include/*.h $lib/tests/mrc_api_test.c $lib/examples/*.c 2>&1) || true
report+=$("${cp[@]}" --ignore LONG_LINE,COMPLEX_MACRO,SPACING,PREFER_DEFINED_ATTRIBUTE_MACRO \
	--ignore MACRO_ARG_PRECEDENCE,ARRAY_SIZE -f $lib/tests/layout.c 2>&1) || true
if [ -n "$report" ]; then
	echo "$report"
	exit 1
fi
echo "checkpatch: ${#files[@]} files clean"
