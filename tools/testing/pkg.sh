#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The package test: build mrc-dkms and mrcctl with dpkg-buildpackage from a copy of
# the tracked files (a build never touches the work tree), run lintian on them (no
# error; the full output stays in .build/pkg/lintian.txt), then install, use and
# purge them in a guest (selftests/mrc_package.sh) on the stock kernel of FLAVOUR.
#
#   pkg.sh [stock-6.12|stock] [vm.sh option...]   build, lintian, then the guest
#   pkg.sh --build-only                            build and lintian (make check)
#
# make check-long runs the guest part in its 6.12 VM (MRC_PKG_DIR=.build/pkg).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$here/../.." && pwd)
flavour=${1:-stock-6.12}
shift || true
out=$tree/.build/pkg
rm -rf "$out"
mkdir -p "$out/src" "$out/nomods"
(cd "$tree" && git ls-files -z --cached --others --exclude-standard |
	rsync -a --from0 --files-from=- . "$out/src/")
(cd "$out/src" && dpkg-buildpackage -us -uc -b >"$out/build.log" 2>&1) || {
	tail -n 40 "$out/build.log"; echo "pkg.sh: dpkg-buildpackage failed" >&2; exit 1; }
lintian --pedantic -I "$out"/mrc_*_amd64.changes >"$out/lintian.txt" 2>&1 || true
sed -i '/running with root privileges is not recommended/d' "$out/lintian.txt"
if grep '^E:' "$out/lintian.txt"; then
	echo "pkg.sh: lintian reports errors (all of its output: $out/lintian.txt)" >&2
	exit 1
fi
echo "lintian: $(grep -c . "$out/lintian.txt") lines, no error (--pedantic -I)"
ls "$out"/*.deb
[ "$flavour" != --build-only ] || exit 0
exec "$here/vm/vm.sh" --kernel "$flavour" --modules "$out/nomods" --env "MRC_PKG_DIR=$out" \
	"$@" -- selftests/run.sh mrc_package.sh
