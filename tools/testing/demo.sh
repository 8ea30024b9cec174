#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: build mrc for Debian's stock kernel, boot it under QEMU, load mrc, build
# the two-host SRv6 fabric (8 planes × 4 spines) and show what mrc makes of it. The guest half is
# demo-guest.sh; this half only builds and boots.
set -euo pipefail
t=$(cd "$(dirname "$0")" && pwd)
"$t/deps.sh"
"$t/build.sh" stock >/dev/null
make -s -C "$t/../mrcctl"
make -s -C "$t/../mrc-xfer"
exec "$t/vm/vm.sh" --kernel stock --timeout 600 -- "$t/demo-guest.sh"
