#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-doc -none over every C source and header of the module (mrc/tests too) and the
# uapi header, with the script from Debian's linux-source-6.1 (extracted once into the
# cache): every kernel-doc comment must parse and describe every member and parameter.
# Any output fails; a clean run prints nothing.
set -euo pipefail
tree=$(cd "$(dirname "$0")/../.." && pwd)
cache=${MRC_CACHE:-/var/cache/mrc}
srcver=$(dpkg-query -W -f '${Version}' linux-source-6.1)
kd_dir=$cache/kernel-doc-$srcver
if [ ! -f "$kd_dir/.done" ]; then
	mkdir -p "$kd_dir"
	tar -C "$kd_dir" --strip-components=1 -xJf /usr/src/linux-source-6.1.tar.xz \
		linux-source-6.1/scripts/kernel-doc
	touch "$kd_dir/.done"
fi
cd "$tree"
mapfile -t files < <(git ls-files -co --exclude-standard -- 'mrc/*.[ch]' include/uapi/linux/mrc.h)
[ ${#files[@]} -gt 0 ] || { echo "kernel-doc.sh: no sources found" >&2; exit 1; }
report=$(perl "$kd_dir/scripts/kernel-doc" -none "${files[@]}" 2>&1) || true
if [ -n "$report" ]; then
	echo "$report"
	exit 1
fi
