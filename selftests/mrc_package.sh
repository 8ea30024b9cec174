#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages as an administrator meets them (Documentation/admin-guide.md):
# mrc-dkms and mrcctl, built by tools/testing/pkg.sh into $MRC_PKG_DIR, installed
# with dpkg into a writable copy of the guest's root (an overlay on the read-only
# host root, entered with chroot). DKMS must build mrc.ko for every kernel that
# has headers there, the running one's module must load on demand through the
# generic netlink family's alias (the first mrcctl command), a transfer between
# two devices made by the packaged mrcctl must verify, and purging both packages
# must leave no file of theirs behind: every file the overlay still holds after
# the purge is dpkg's own bookkeeping, a log, or a copy identical to the host's.
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_xfer
mrc_require_cmds dpkg dkms chroot
[ -n "${MRC_PKG_DIR:-}" ] || mrc_skip "MRC_PKG_DIR not set: run it through tools/testing/pkg.sh"
debs=("$MRC_PKG_DIR"/mrc-dkms_*_all.deb "$MRC_PKG_DIR"/mrcctl_*_amd64.deb)
[ -f "${debs[0]}" ] && [ -f "${debs[1]}" ] || mrc_skip "no packages in $MRC_PKG_DIR"
version=$(dpkg-deb -f "${debs[0]}" Version)

pkg=/run/mrc-pkg
root=$pkg/root
kver=$(uname -r)
modprobe_saved=$(cat /proc/sys/kernel/modprobe)
cleanup()
{
	echo "$modprobe_saved" >/proc/sys/kernel/modprobe
	topo_destroy
	[ -d /sys/module/mrc ] && chroot "$root" modprobe -r mrc
	umount -R "$root" 2>/dev/null
	rm -rf "$pkg"
}
trap cleanup EXIT
mrc_unload

# The overlay: the host root below, a tmpfs above that receives every write.
mkdir -p "$pkg"/upper "$pkg"/work "$root"
run_rc mount -t overlay overlay -o "lowerdir=/,upperdir=$pkg/upper,workdir=$pkg/work" "$root"
check "overlay over the host root" "0" "$rc"
[ "$rc" = 0 ] || { echo "# $out"; mrc_finish; }
for m in proc sys dev; do
	mount --rbind "/$m" "$root/$m"
done
mount -t tmpfs tmpfs "$root/tmp"
mount -t tmpfs tmpfs "$root/run"
mkdir -p "$root$MRC_TREE"
mount --bind "$MRC_TREE" "$root$MRC_TREE"
# the lower layer as the overlay saw it, for the leftover check
mkdir -p "$pkg/lower"
mount --bind / "$pkg/lower"

in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	DEBIAN_FRONTEND=noninteractive "$@"; }

# guide_block WORD: the admin guide's "sh WORD" blocks (install, remove), which
# this test runs as an administrator would, from the packages' directory.
guide_block()
{
	awk -v w="$1" '/^```/ && inb { inb = 0; next } inb { print }
		/^```sh / { split(substr($0, 4), a, " "); inb = (a[2] == w) }' \
		"$MRC_TREE/Documentation/admin-guide.md"
}
guide_block install >"$root/tmp/install.sh"
guide_block remove >"$root/tmp/remove.sh"
check "the admin guide has install and remove blocks" "yes yes" \
	"$([ -s "$root/tmp/install.sh" ] && echo yes || echo no) $([ -s "$root/tmp/remove.sh" ] && echo yes || echo no)"

# Install, as the guide says: DKMS builds for every kernel with headers (the
# postinst's work).
t0=$SECONDS
run_rc in_root bash -e -c "cd '$MRC_PKG_DIR' && . /tmp/install.sh"
check "admin guide's install block" "0" "$rc"
[ "$rc" = 0 ] || echo "$out" | tail -n 30 | sed 's/^/#   /'
echo "# install and DKMS builds: $((SECONDS - t0)) s"
kernels=()
for d in "$root"/lib/modules/*; do
	k=${d##*/}
	[ -e "$d/build/Makefile" ] && kernels+=("$k")
done
check "the running kernel $kver has headers in the root" "yes" \
	"$([[ " ${kernels[*]} " == *" $kver "* ]] && echo yes || echo no)"
status=$(in_root dkms status mrc 2>&1)
for k in "${kernels[@]}"; do
	check "dkms status: mrc/$version installed for $k" \
		"mrc/$version, $k, x86_64: installed" "$(grep -F ", $k," <<<"$status")"
	# compressed as the kernel's own modules are (6.12's: xz)
	m=$(in_root modinfo -k "$k" -n mrc 2>&1)
	check "$k: modinfo finds mrc.ko under updates/dkms" "/lib/modules/$k/updates/dkms/mrc.ko" \
		"${m%.[gx]z}"
done
# DKMS signs what it builds with its own key (made on first use): the key an
# administrator enrols with mokutil (admin-guide.md, "Secure Boot")
for k in "${kernels[@]}"; do
	m=$(in_root modinfo -k "$k" -n mrc 2>&1)
	run_rc in_root sh -c "f=\$(mktemp); xz -dc '$m' >\$f 2>/dev/null || cp '$m' \$f;
		$MRC_TREE/tools/sign/mrc-sign.sh check \$f /var/lib/dkms/mok.pub; rm -f \$f"
	check "$k: the DKMS module is signed by DKMS's key" "0" "$rc"
	[ "$rc" = 0 ] || echo "# $out"
done
check "mrcctl and its completion installed" "yes yes" \
	"$([ -x "$root/usr/sbin/mrcctl" ] && echo yes || echo no) $([ -f "$root/usr/share/bash-completion/completions/mrcctl" ] && echo yes || echo no)"
check "mrcctl(8) installed" "yes" \
	"$([ -f "$root/usr/share/man/man8/mrcctl.8.gz" ] && echo yes || echo no)"

# Load on demand: the kernel's modprobe call for the family alias reaches the root
# the packages went into.
cat >"$pkg/modprobe" <<EOF
#!/bin/sh
exec chroot '$root' /sbin/modprobe "\$@"
EOF
chmod 0755 "$pkg/modprobe"
echo "$pkg/modprobe" >/proc/sys/kernel/modprobe
run_rc in_root mrcctl dev show
check "mrcctl dev show, mrc not loaded: answered" "0" "$rc"
check "the genl family alias loaded mrc" "live" "$(cat /sys/module/mrc/initstate 2>&1)"
check "the loaded mrc is the DKMS build" \
	"$(in_root modinfo -F srcversion mrc 2>&1)" "$(cat /sys/module/mrc/srcversion 2>&1)"
check "module version" "$version" "$(cat /sys/module/mrc/version 2>&1)"

# A transfer between two devices that the packaged mrcctl made.
cat >"$pkg/mrcctl" <<EOF
#!/bin/sh
# mrcctl -n NS ARGS: the packaged one, in NS, inside the root
[ "\$1" = -n ] || exit 2
ns=\$2
shift 2
exec ip netns exec "\$ns" chroot '$root' /usr/sbin/mrcctl "\$@"
EOF
chmod 0755 "$pkg/mrcctl"
MRCCTL=$pkg/mrcctl
topo_create 2
if mrc_dev_pair 2; then
	check_xfer "packaged mrcctl, DKMS mrc.ko: write 16 x 64 KiB" -o write -n 16 -s 65536
fi
"$MRCCTL" -n "$H1" dev del "$MRC_DEV1"
"$MRCCTL" -n "$H2" dev del "$MRC_DEV2"
topo_destroy

# Remove: unload, purge, and nothing of ours left.
run_rc in_root modprobe -r mrc
check "modprobe -r mrc" "0" "$rc"
run_rc in_root bash -e -c ". /tmp/remove.sh"
check "admin guide's remove block" "0" "$rc"
[ "$rc" = 0 ] || echo "$out" | tail -n 30 | sed 's/^/#   /'
check "dkms status after the purge" "" "$(in_root dkms status mrc 2>&1)"
umount -R "$root"
# What the overlay holds now: dpkg's and apt's databases and logs, dkms's signing key
# (its own, made once for every module it signs), depmod's indexes, directories
# the host has too, and copies of host files unchanged. Anything else was left.
left=$(cd "$pkg/upper" && find . -mindepth 1 \( -type d -o -print \) |
	while read -r f; do
		f=${f#./}
		case $f in
		var/lib/dpkg/* | var/lib/apt/* | var/log/* | var/cache/* | var/lib/dkms/mok.* | \
		lib/modules/*/modules.*) continue ;;
		esac
		if [ -c "$f" ]; then
			echo "$f (a host file deleted)"
		elif ! cmp -s "$f" "$pkg/lower/$f"; then
			echo "$f"
		fi
	done)
dirs=$(cd "$pkg/upper" && find . -mindepth 1 -type d | while read -r d; do
	d=${d#./}
	[ -d "$pkg/lower/$d" ] || echo "$d/"
done)
check "nothing left behind by the purge" "" "$(printf '%s\n%s' "$left" "$dirs" | grep . | head -n 20)"
umount "$pkg/lower"
mrc_finish
