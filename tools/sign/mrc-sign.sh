#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Sign mrc.ko for a Secure Boot host whose kernel accepts modules signed by an
# enrolled Machine Owner Key (Documentation/admin-guide.md, "Secure Boot").
# The key is DKMS's own by default, so that one enrolment covers the modules
# DKMS builds and those built from source with make.
#
#   mrc-sign.sh key [KEY CERT]            make the key pair if it does not exist
#   mrc-sign.sh sign MODULE [KVER [KEY CERT]]   sign MODULE (.ko) in place, sha256
#   mrc-sign.sh check MODULE [CERT]       the module is signed by CERT's key
#
# KEY and CERT default to DKMS's /var/lib/dkms/mok.key and mok.pub (DER), or to
# $MRC_SIGN_KEY and $MRC_SIGN_CERT when set; KVER to the running kernel, whose
# headers' sign-file signs. Then enrol the
# certificate once: mokutil --import CERT, reboot, and confirm in MokManager.
set -euo pipefail
key=${MRC_SIGN_KEY:-/var/lib/dkms/mok.key}
cert=${MRC_SIGN_CERT:-/var/lib/dkms/mok.pub}
die() { echo "mrc-sign.sh: $*" >&2; exit 1; }

# cert_serial CERT: the serial number as modinfo prints sig_key (colon-separated hex)
cert_serial()
{
	openssl x509 -inform DER -in "$1" -noout -serial | sed 's/^serial=//' |
		sed 's/../&:/g; s/:$//'
}

case "${1:-}" in
key)
	key=${2:-$key} cert=${3:-$cert}
	if [ -f "$key" ] && [ -f "$cert" ]; then
		echo "key exists: $key, certificate $cert"
		exit 0
	fi
	mkdir -p "$(dirname "$key")" "$(dirname "$cert")"
	(umask 077 && openssl req -new -x509 -nodes -days 36500 -subj "/CN=$(hostname) mrc module signing key/" \
		-newkey rsa:2048 -keyout "$key" -outform DER -out "$cert" 2>/dev/null) ||
		die "openssl could not make the key pair"
	echo "made $key and $cert; enrol it: mokutil --import $cert"
	;;
sign)
	mod=${2:?module}
	kver=${3:-$(uname -r)}
	key=${4:-$key} cert=${5:-$cert}
	[ -f "$mod" ] || die "no module $mod"
	[ -f "$key" ] && [ -f "$cert" ] || die "no key pair: mrc-sign.sh key"
	sf=/usr/src/linux-headers-$kver/scripts/sign-file
	[ -x "$sf" ] || sf=/lib/modules/$kver/build/scripts/sign-file
	[ -x "$sf" ] || die "no sign-file for $kver (install its headers)"
	"$sf" sha256 "$key" "$cert" "$mod"
	echo "signed $mod"
	;;
check)
	mod=${2:?module}
	cert=${3:-$cert}
	want=$(cert_serial "$cert")
	got=$(modinfo -F sig_key "$mod" | tr -d ' \t\n' | tr a-f A-F)
	[ -n "$got" ] || die "$mod carries no signature"
	[ "$got" = "$(tr a-f A-F <<<"$want")" ] || die "$mod is signed by key $got, not by $cert ($want)"
	echo "$mod: signed by $(modinfo -F signer "$mod"), key $got"
	;;
*)
	sed -n 's/^#   //p' "$0" >&2
	exit 2
	;;
esac
