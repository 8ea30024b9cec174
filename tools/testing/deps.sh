#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages mrc's build, tests and demo need; does nothing when they
# are all present, so make check can call it every time.
set -euo pipefail
# Module and tools build and checkers; the VM (Debian's 6.1 kernel and its 6.12 one,
# QEMU, static busybox); what tests run inside the guest (the verbs tools, librxe,
# which drives mrc devices through the rxe ABI, perftest, rping, and the headers
# mrc-xfer builds against); the package test's dpkg-buildpackage, DKMS and lintian.
pkgs=(
	build-essential bc bison flex libelf-dev libssl-dev cpio kmod rsync xz-utils gzip
	pkg-config libmnl-dev sparse linux-source-6.1 linux-headers-amd64
	linux-image-amd64 linux-image-6.12-amd64 linux-headers-6.12-amd64
	qemu-system-x86 busybox-static
	iproute2 iputils-ping ethtool libcap2-bin util-linux jq python3 python3-yaml
	rdma-core ibverbs-utils ibverbs-providers rdmacm-utils perftest
	libibverbs-dev librdmacm-dev
	fio nvme-cli nfs-kernel-server
	dpkg-dev debhelper dh-dkms dkms lintian bash-completion
)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
