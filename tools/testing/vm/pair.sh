#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two guests wired plane by plane, for tests between two kernels: guest a and guest b
# each get PLANES virtio-net NICs, NIC i of a joined to NIC i of b by a QEMU dgram
# netdev (UDP on the host's loopback: no root networking, no bridge). Both run the same
# COMMAND, with MRC_PAIR_SIDE=a or b; they meet in MRC_PAIR_DIR, a directory both mount
# writable, and ask the host to cut or restore a plane's link there (the QEMU monitor's
# set_link on guest a's NIC: b still sees carrier and loses the plane's packets
# silently, the failure MRC is built for). selftests/lib_pair.sh holds the guest side.
#
#   pair.sh [--kernel-a stock|debug] [--kernel-b stock|debug] [--planes N]
#           [--timeout SECONDS] [--out DIR] [--env NAME=VALUE]... [--] COMMAND...
#
# --env passes NAME=VALUE into both guests' environment (vm.sh --env).
#
# Exit status: 0 when both guests' COMMAND exited 0, else the first non-zero of a's and
# b's vm.sh status (125: a kernel report in that guest). Logs in DIR/a, DIR/b.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$here/../../.." && pwd)
ka=stock
kb=stock
planes=8
timeout=900
out=
envs=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel-a) ka=$2; shift 2 ;;
	--kernel-b) kb=$2; shift 2 ;;
	--planes) planes=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--env) envs+=(--env "$2"); shift 2 ;;
	--) shift; break ;;
	-*) echo "pair.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "pair.sh: no command given" >&2; exit 2; }
case "$planes" in [1-8]) ;; *) echo "pair.sh: --planes must be 1 to 8" >&2; exit 2 ;; esac
if [ -z "$out" ]; then
	mkdir -p "$tree/.build/vm"
	out=$(mktemp -d "$tree/.build/vm/pair.XXXXXX")
fi
mkdir -p "$out/a" "$out/b"
out=$(cd "$out" && pwd)
rdv=$out/rdv
rm -rf "$rdv"
mkdir -p "$rdv"
chmod 0777 "$rdv"

# Two UDP ports per plane on 127.0.0.1, from a base no other pair of this host uses:
# bind the first to find out, the rest follow it.
base=$(python3 - "$planes" <<'EOF'
import socket, sys
n = 2 * int(sys.argv[1])
for base in range(20000, 60000, 64):
    socks = []
    try:
        for p in range(base, base + n):
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.bind(("127.0.0.1", p))
            socks.append(s)
    except OSError:
        continue
    finally:
        for s in socks:
            s.close()
    print(base)
    break
EOF
)

# nics SIDE: the QEMU arguments of one guest's NICs, and its monitor socket.
nics() {
	local side=$1 i me peer args=()
	for ((i = 0; i < planes; i++)); do
		if [ "$side" = a ]; then
			me=$((base + 2 * i)) peer=$((base + 2 * i + 1))
		else
			me=$((base + 2 * i + 1)) peer=$((base + 2 * i))
		fi
		args+=(--qemu -netdev --qemu "dgram,id=pl$i,local.type=inet,local.host=127.0.0.1,local.port=$me,remote.type=inet,remote.host=127.0.0.1,remote.port=$peer"
			--qemu -device --qemu "virtio-net-pci,netdev=pl$i,mac=52:54:00:4d:$([ "$side" = a ] && echo 0a || echo 0b):0$i")
	done
	args+=(--qemu -monitor --qemu "unix:$out/$side.mon,server=on,wait=off")
	printf '%s\n' "${args[@]}"
}

# The host's half of a link request: guest files "link.N" holding "I on|off" in the
# rendezvous; the answer is "link.N.done" holding set_link's reply.
links() {
	local req n
	while :; do
		for req in "$rdv"/link.*; do
			[ -f "$req" ] || continue
			case $req in *.done | *.tmp | *.new) continue ;; esac
			n=${req##*/}
			[ -f "$rdv/$n.done" ] && continue
			read -r i state <"$req" || continue
			python3 - "$out/a.mon" "set_link pl$i $state" >"$rdv/$n.tmp" 2>&1 <<'EOF'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.settimeout(5)
time.sleep(0.1)
s.recv(4096)
s.sendall(sys.argv[2].encode() + b"\n")
time.sleep(0.2)
print(s.recv(4096).decode(errors="replace").replace("(qemu)", "").strip() or "ok")
EOF
			mv "$rdv/$n.tmp" "$rdv/$n.done"
		done
		sleep 0.2
	done
}

run() {
	local side=$1 kernel=$2
	local -a nic
	shift 2
	mapfile -t nic < <(nics "$side")
	"$here/vm.sh" --kernel "$kernel" --quiet --timeout "$timeout" --out "$out/$side" \
		--share-rw "$rdv" --env "MRC_PAIR_SIDE=$side" --env "MRC_PAIR_DIR=$rdv" \
		--env "MRC_PAIR_PLANES=$planes" "${envs[@]}" "${nic[@]}" -- "$@" >"$out/$side.log" 2>&1
}

links &
lpid=$!
trap 'kill $lpid 2>/dev/null || true' EXIT
start=$(date +%s)
set +e
run a "$ka" "$@" &
apid=$!
run b "$kb" "$@" &
bpid=$!
wait $apid
arc=$?
wait $bpid
brc=$?
set -e
for side in a b; do
	sed "s/^/$side: /" "$out/$side.log"
done
echo "pair.sh: a ($ka) status $arc, b ($kb) status $brc, $(( $(date +%s) - start ))s, logs in $out" >&2
[ $arc = 0 ] || exit $arc
exit $brc
