#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/sign/mrc-sign.sh against the stock build's mrc.ko, on the host (signing
# needs no module load): a new key pair, a signed copy whose signature names
# that key, an unsigned copy refused, and a copy signed by another key refused.
set -euo pipefail
t=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$t/../.." && pwd)
sign=$tree/tools/sign/mrc-sign.sh
kver=$("$t/vm/stock-kver.sh")
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp "$tree/.build/stock/mrc/mrc.ko" "$w/signed.ko"
cp "$w/signed.ko" "$w/plain.ko"
cp "$w/signed.ko" "$w/other.ko"
"$sign" key "$w/a.key" "$w/a.der"
"$sign" key "$w/b.key" "$w/b.der"
"$sign" sign "$w/signed.ko" "$kver" "$w/a.key" "$w/a.der"
"$sign" sign "$w/other.ko" "$kver" "$w/b.key" "$w/b.der"
"$sign" check "$w/signed.ko" "$w/a.der"
if "$sign" check "$w/plain.ko" "$w/a.der" 2>/dev/null; then
	echo "sign-check: an unsigned module passed the check" >&2; exit 1
fi
if "$sign" check "$w/other.ko" "$w/a.der" 2>/dev/null; then
	echo "sign-check: another key's signature passed the check" >&2; exit 1
fi
[ "$(modinfo -F sig_hashalgo "$w/signed.ko")" = sha256 ] ||
	{ echo "sign-check: not sha256" >&2; exit 1; }
echo "sign-check: signed by its key; unsigned and another key's refused"
