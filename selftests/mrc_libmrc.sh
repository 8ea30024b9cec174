#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# libmrc (Documentation/libmrc.md), the OCP MRC API over mrc, on two hosts with
# an 8-plane device each:
# - the layout test: our headers against the OCP API's sizes, offsets, values;
# - the application group as an ordinary user (mrc_api_test app): two QPs of one
#   device joined by loopback, MRC attributes set on each transition and read
#   back, a WRITE_IMM whose data is checked, every refusal's errno;
# - the controller group as root (mrc_api_test ctl): a port taken down through
#   the API is down in mrcctl's view too, then up again; a format, an explicit EV
#   and an NSCC profile made through the API read back the same through mrcctl;
# - EV events (mrc_api_test events): a port taken down through the API wakes an
#   event queue's channel with an ASSUMED_BAD event for each EV mrcctl shows
#   assumed-bad on that plane, of the EV profile the QPs name, nothing lost;
# - ownership: a QP's owner sets its MRC attributes without CAP_NET_ADMIN,
#   another user gets EPERM and changes nothing;
# - our example, a WRITE_IMM ping-pong through the API, its data checked;
# - the OCP repository's own programs, compiled unmodified against our headers
#   and library: its test, and its benchmark in both directions with its data
#   validation passing at every message size.
. "$(dirname "$0")/lib.sh"

LIB=$MRC_TREE/tools/lib/mrc
API=$LIB/tests/mrc_api_test
OCP=$MRC_TREE/tools/testing/ocp
mrc_require_root
mrc_require_mrcctl
mrc_require_setpriv
mrc_require_cmds jq
for p in "$LIB/tests/layout" "$API" "$LIB/examples/mrc_pingpong" "$OCP/benchmark/mrc_example" \
	"$OCP/test/mrc_test"; do
	[ -x "$p" ] || mrc_skip "$p not built (make tools)"
done
# Another ordinary user than nobody, for the QP nobody owns.
other=(setpriv --reuid=65533 --regid=65533 --clear-groups --inh-caps=-all)
d=$(mktemp -d)
trap 'exec 9>&-; wait; mrc_dev_pair_del; topo_destroy; rm -rf "$d"' EXIT
topo_create 8 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
mrc_load || { echo "# modprobe mrc failed"; exit $KSFT_FAIL; }
mrc_dev_pair 8 || exit $KSFT_FAIL

# tap_ok WHAT OUT N: OUT is a TAP stream of exactly N passing checks.
tap_ok()
{
	local fails
	fails=$(grep -c '^not ok' <<<"$2")
	check "$1: $3 checks, none failed" "$3 0 1..$3" \
		"$(grep -c '^ok' <<<"$2") $fails $(grep '^1\.\.' <<<"$2")"
	[ "$fails" = 0 ] || grep '^not ok' <<<"$2" | sed 's/^/# /'
}

run_rc "$LIB/tests/layout"
check "layout: exit status" "0" "$rc"
tap_ok "layout" "$out" 339

run_rc ip netns exec "$H1" "${nobody[@]}" "$API" app "$MRC_DEV1" "$MRC_GID1"
check "app group as nobody: exit status" "0" "$rc"
tap_ok "app group" "$out" 79

# ---- controller: port 8 down through the API, seen by mrcctl ----------------------
mkfifo "$d/ctl_in" "$d/in"
ip netns exec "$H2" "$API" ctl "$MRC_DEV2" <"$d/ctl_in" >"$d/ctl" 2>&1 &
ctl_pid=$!
exec 9>"$d/ctl_in"
wait_until 60 grep -qx '# port 8 down' "$d/ctl"
check "ctl: mrcctl sees plane 7 (port 8) admin down" "down" \
	"$("$MRCCTL" -n "$H2" -j dev show "$MRC_DEV2" | jq -r '.[0].planes[7].admin')"
echo >&9
exec 9>&-
wait "$ctl_pid"
check "ctl group: exit status" "0" "$?"
tap_ok "ctl group" "$(cat "$d/ctl")" 67
check "ctl: mrcctl sees plane 7 admin up again" "up" \
	"$("$MRCCTL" -n "$H2" -j dev show "$MRC_DEV2" | jq -r '.[0].planes[7].admin')"
# The profiles the controller group made through the API, as mrcctl shows them.
c2() { "$MRCCTL" -n "$H2" "$@"; }
check "ctl: mrcctl shows the API's format profile" \
	'{"id":13,"state":"online","format":"stev","fields":[16,16]}' \
	"$(c2 -j evformat show 13 | jq -c '.[0]')"
check "ctl: mrcctl shows the API's EV profile, EV 5 replaced" \
	"evprofile 1 state online mode exp format stev evs 8 min-active 2 backups 4 events good,assumed-bad entries 0,65537,131074,196611,262148,153,393222,458759 evformat 13" \
	"$(c2 evprofile show 1)"
check "ctl: mrcctl shows the API's CC profile (30.5 us kept as 31)" "online 20 31 120 800 500" \
	"$(c2 -j ccprofile show 2 | jq -r '.[0] | "\(.state) \(.base_rtt_us) \(.target_delay_us) \(.qa_threshold_us) \(.gamma) \(.max_md_jump)"')"

# ---- EV events through the API: port 8 down, the EVs it carried ASSUMED_BAD ------------
mkfifo "$d/ev_in"
ip netns exec "$H2" "$API" events "$MRC_DEV2" "$MRC_GID2" <"$d/ev_in" >"$d/ev" 2>&1 &
ev_pid=$!
exec 9>"$d/ev_in"
wait_until 120 grep -q '^# port 8 down qpns ' "$d/ev"
read -r qa qb < <(sed -n 's/^# port 8 down qpns //p' "$d/ev")
# p7 FILTER: the plane-7 EVs of the two QPs, in mrcctl's view, through FILTER
p7()
{
	c2 -j qp show dev "$MRC_DEV2" | jq -r --argjson a "${qa:-0}" --argjson b "${qb:-0}" \
		"[.[] | select(.qpn == \$a or .qpn == \$b) | .evs[] | select(.plane == 7)] | $1"
}
p7_all_bad() { [ "$(p7 'length > 0 and all(.state == "assumed-bad")')" = true ]; }
wait_until 60 p7_all_bad
check "events: mrcctl shows every plane-7 EV of the two QPs assumed-bad" "0" "$?"
sports=$(p7 '[.[].sport] | sort | map(tostring) | join(" ")')
p7 length >&9
exec 9>&-
wait "$ev_pid"
check "events group: exit status" "0" "$?"
tap_ok "events group" "$(grep -v '^sport ' "$d/ev")" 22
check_match "events: four or more plane-7 EVs" '^[0-9]+( [0-9]+){3,}$' "$sports"
check "events: the events name the EVs mrcctl shows, by source port" "$sports" \
	"$(sed -n 's/^sport //p' "$d/ev" | sort -n | tr '\n' ' ' | sed 's/ $//')"

# ---- ownership ---------------------------------------------------------------------
ip netns exec "$H2" "${nobody[@]}" "$API" hold "$MRC_DEV2" <"$d/in" >"$d/hold" 2>&1 &
hold_pid=$!
exec 9>"$d/in"
wait_until 60 grep -q '^qpn ' "$d/hold"
qpn=$(sed -n 's/^qpn //p' "$d/hold")
check_match "hold: nobody's QP exists" '^[0-9]+$' "$qpn"
attrs() { "$MRCCTL" -n "$H2" -j qp show dev "$MRC_DEV2" qpn "$qpn" | jq -r '.[0] | "\(.mpr) \(.timeout)"'; }
check "hold: the owner's mrc_modify_qp took (mpr 4, timeout 16)" "4 16" "$(attrs)"
run_rc ip netns exec "$H2" "${other[@]}" "$MRCCTL" qp set dev "$MRC_DEV2" qpn "$qpn" mpr 1
check "another user: qp set on nobody's QP refused" \
	"2 Error: the QP belongs to another user (EPERM)" "$rc $out"
run_rc ip netns exec "$H2" "${nobody[@]}" "$MRCCTL" qp set dev "$MRC_DEV2" qpn "$qpn" mpr 2
check "nobody: qp set on its own QP without CAP_NET_ADMIN" "0" "$rc"
check "the refused request changed nothing, the owner's did" "2 16" "$(attrs)"
# RDMA device names are global: from H1, whose devices are others, nobody still
# finds H2's device by its name (rdma's shared netns mode) and sets its own QP.
run_rc ip netns exec "$H1" "${nobody[@]}" "$MRCCTL" qp set dev "$MRC_DEV2" qpn "$qpn" \
	timeout 15
check "nobody from another namespace: qp set by the device's global name" "0" "$rc"
check "... and qp show from there sees it" "2 15" \
	"$(ip netns exec "$H1" "$MRCCTL" -j qp show dev "$MRC_DEV2" qpn "$qpn" |
		jq -r '.[0] | "\(.mpr) \(.timeout)"')"
exec 9>&-
wait "$hold_pid"
check "hold: exit status" "0" "$?"
check "hold: the library reads back what mrcctl set" "mpr 2 timeout 15" \
	"$(grep '^mpr ' "$d/hold")"

# ---- the OCP repository's programs ---------------------------------------------------
run_rc ip netns exec "$H1" "$OCP/test/mrc_test" -d "$MRC_DEV1"
check "OCP test program: exit status and greeting" "0 Hello MRC!" "$rc $out"

# ocp_bench SRV_NS SRV_DEV SRV_GID SRV_IP CLI_NS CLI_DEV CLI_GID: the OCP benchmark,
# 4 KiB to 1 MiB in steps of 4, 8 writes each; the server validates every size.
sizes="4096 16384 65536 262144 1048576"
ocp_bench()
{
	local port=18515 spid what="$1 to $5" v
	ip netns exec "$1" env MRC_LOG_LEVEL=DEBUG "$OCP/benchmark/mrc_example" \
		-d "$2" -g "$3" -m 1024 -n 8 -s 1048576 --min-size=4096 \
		--step-factor=4 -p $port >"$d/srv" 2>&1 &
	spid=$!
	wait_port "$spid" $port
	run_rc ip netns exec "$5" env MRC_LOG_LEVEL=INFO "$OCP/benchmark/mrc_example" \
		"$4" -d "$6" -g "$7" -m 1024 -n 8 -s 1048576 --min-size=4096 \
		--step-factor=4 -p $port
	check "OCP benchmark $what: client exit status" "0" "$rc"
	wait "$spid"
	check "OCP benchmark $what: server exit status" "0" "$?"
	v=$(sed -n 's/.*Data validation passed: no errors in \([0-9]*\) bytes/\1/p' "$d/srv" |
		tr '\n' ' ')
	check "OCP benchmark $what: data valid at every size" "$sizes " "$v"
	check "OCP benchmark $what: no error logged" "0" \
		"$(cat "$d/srv" - <<<"$out" | grep -c 'MRC ERROR')"
	check "OCP benchmark $what: client completed" "1" \
		"$(grep -c 'MRC example completed successfully' <<<"$out")"
}
# ---- our example: a WRITE_IMM ping-pong through the API ----------------------------
ip netns exec "$H1" "$LIB/examples/mrc_pingpong" -d "$MRC_DEV1" -g "$MRC_GID1" -n 50 \
	-s 65536 -p 18520 >"$d/pp" 2>&1 &
pp_pid=$!
wait_port "$pp_pid" 18520
run_rc ip netns exec "$H2" "$LIB/examples/mrc_pingpong" -d "$MRC_DEV2" -g "$MRC_GID2" \
	-n 50 -s 65536 -p 18520 10.0.0.1
check "ping-pong client: 50 round trips of 64 KiB, every byte and immediate right" \
	"0 50 round trips of 65536 bytes 0 bad" "$rc $(sed 's/, [0-9.]* us each,//' <<<"$out")"
wait "$pp_pid"
check "ping-pong server: exit status and the same" "0 50 round trips of 65536 bytes 0 bad" \
	"$? $(sed 's/, [0-9.]* us each,//' "$d/pp")"

ocp_bench "$H1" "$MRC_DEV1" "$MRC_GID1" 10.0.0.1 "$H2" "$MRC_DEV2" "$MRC_GID2"
ocp_bench "$H2" "$MRC_DEV2" "$MRC_GID2" 10.0.0.2 "$H1" "$MRC_DEV1" "$MRC_GID1"

mrc_finish
