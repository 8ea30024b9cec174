#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The stock kernel of a series the tests target: the newest Debian *-amd64 kernel of
# that series that has both its image (what the VM boots) and its headers (what the
# module builds against).
#
#   stock-kver.sh [SERIES]    SERIES: 6.1 (Debian 12's own, the default) or 6.12
#                             (Debian 12's linux-image-6.12-amd64)
#   stock-kver.sh --flavour FLAVOUR   the same for a build/VM flavour: stock or stock-6.12
series=${1:-6.1}
if [ "$series" = --flavour ]; then
	case "${2:-}" in
	stock) series=6.1 ;;
	stock-6.12) series=6.12 ;;
	*) echo "stock-kver.sh: no stock flavour ${2:-}" >&2; exit 2 ;;
	esac
fi
for v in $(cd /boot && ls "vmlinuz-$series".*-amd64 2>/dev/null | sed 's/^vmlinuz-//' | sort -Vr); do
	if [ -d "/usr/src/linux-headers-$v" ] && [ -d "/lib/modules/$v" ]; then
		echo "$v"
		exit 0
	fi
done
echo "stock-kver.sh: no Debian $series kernel with image and headers installed" >&2
exit 1
