#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The stock kernel the tests target: the newest Debian *-amd64 kernel that has both its
# image (what the VM boots) and its headers (what the module builds against).
for v in $(cd /boot && ls vmlinuz-*-amd64 2>/dev/null | sed 's/^vmlinuz-//' | sort -Vr); do
	if [ -d "/usr/src/linux-headers-$v" ] && [ -d "/lib/modules/$v" ]; then
		echo "$v"
		exit 0
	fi
done
echo "stock-kver.sh: no Debian kernel with image and headers installed" >&2
exit 1
