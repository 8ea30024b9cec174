#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug VM's command (make check): the KUnit suites first, their KTAP into
# $MRC_OUT/kunit.tap for the host to count, then the selftests named as arguments
# through the selftest runner, in the same boot (one debug boot instead of two). With
# no argument only the KUnit suites run (MRC_CHECK_ONLY=kunit).
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
"$tree/tools/testing/kunit.sh" >"$MRC_OUT/kunit.tap" 2>&1
krc=$?
echo "# kunit.sh exited $krc"
src=0
if [ $# -gt 0 ]; then
	"$tree/selftests/run.sh" "$@"
	src=$?
fi
[ $krc = 0 ] && [ $src = 0 ]
