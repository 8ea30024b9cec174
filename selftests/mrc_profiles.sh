#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# EV format, EV and CC profiles through mrcctl: creation with defaults and with every
# parameter, exact human and JSON output, the rules of the profile life cycle (what
# may change while ONLINE, EXP entries, EV profiles naming format profiles), every
# refused request with its errno and message, EPERM
# for callers without CAP_NET_ADMIN, per-namespace isolation, dumps of more than a
# thousand profiles, and cleanup by namespace deletion and module unload.
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_setpriv
trap topo_destroy EXIT
topo_create 1 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
mrc_load || { echo "# modprobe mrc failed"; exit $KSFT_FAIL; }
c1() { "$MRCCTL" -n "$H1" "$@"; }
c2() { "$MRCCTL" -n "$H2" "$@"; }

# expect_usage WHAT CMD...: mrcctl refuses before asking the kernel.
expect_usage()
{
	local what=$1
	shift
	run_rc "$@"
	check "$what: usage error, exit status 1" "1" "$rc"
}

policy="integer out of range"

# ---- evprofile ------------------------------------------------------------------

check "no evprofile yet (JSON)" "[]" "$(c1 -j evprofile show)"
check "no evprofile yet (human)" "" "$(c1 evprofile show)"
run_rc c1 evprofile add 7
check "evprofile add with defaults" "0" "$rc"
check "evprofile add prints nothing" "" "$out"
check "evprofile defaults, human" \
	"evprofile 7 state init mode auto format udp evs 128 min-active 32 backups 4 events good,assumed-bad" \
	"$(c1 evprofile show 7)"
check "evprofile defaults, JSON" \
	'[{"id":7,"state":"init","mode":"auto","format":"udp","evs":128,"min_active":32,"backups":4,"events":["good","assumed-bad"],"entries":[],"evformat":0}]' \
	"$(c1 -j evprofile show 7 | jq -c .)"
check "evprofile -p is valid JSON with the same data" "7 32" \
	"$(c1 -p evprofile show 7 | jq -r '.[0] | "\(.id) \(.min_active)"')"

run_rc c1 evprofile add 8 mode exp format stev evs 16 min-active 2 backups 0 \
	events assumed-bad entries 0x10001,65536,68719476735
check "evprofile add with every parameter" "0" "$rc"
check "evprofile exp/stev, human" \
	"evprofile 8 state init mode exp format stev evs 16 min-active 2 backups 0 events assumed-bad entries 65537,65536,68719476735" \
	"$(c1 evprofile show 8)"
check "evprofile exp/stev, JSON" \
	'{"id":8,"state":"init","mode":"exp","format":"stev","evs":16,"min_active":2,"backups":0,"events":["assumed-bad"],"entries":[65537,65536,68719476735],"evformat":0}' \
	"$(c1 -j evprofile show 8 | jq -c '.[0]')"
expect_nlerr "format change re-checks the kept entries" ERANGE \
	"EV entry does not fit the format's entropy field" c1 evprofile set 8 format udp
check "refused request changed nothing" "stev [65537,65536,68719476735]" \
	"$(c1 -j evprofile show 8 | jq -r '.[0] | "\(.format) \(.entries|tojson)"')"
check "evprofile dump lists both, in id order" "7 8" \
	"$(c1 -j evprofile show | jq -r '[.[].id] | join(" ")')"
check "evprofile dump, human lines" "2" "$(c1 evprofile show | wc -l)"
check "evprofile with no command shows all" "2" "$(c1 -j evprofile | jq length)"

c1 evprofile set 7 evs 10
check "min-active follows evs until set" "10 3" \
	"$(c1 -j evprofile show 7 | jq -r '.[0] | "\(.evs) \(.min_active)"')"
c1 evprofile set 7 min-active 5
c1 evprofile set 7 evs 20
check "explicit min-active stays when evs changes" "20 5" \
	"$(c1 -j evprofile show 7 | jq -r '.[0] | "\(.evs) \(.min_active)"')"
c1 evprofile set 7 events none
check "events none, human" "events none" \
	"$(c1 evprofile show 7 | grep -oE 'events [^ ]+')"
check "events none, JSON" "[]" "$(c1 -j evprofile show 7 | jq -c '.[0].events')"
c1 evprofile set 7 events good
check "events good" '["good"]' "$(c1 -j evprofile show 7 | jq -c '.[0].events')"
c1 evprofile set 7 events all backups 32
check "events all, backups 32" '["good","assumed-bad"] 32' \
	"$(c1 -j evprofile show 7 | jq -r '.[0] | "\(.events|tojson) \(.backups)"')"

run_rc c1 evprofile set 7 state online
check "evprofile online" "0" "$rc"
check "evprofile state online shown" "online" \
	"$(c1 -j evprofile show 7 | jq -r '.[0].state')"
busy="evprofile is online: mode, format, ev_count, backups, entries and evformat need it offline"
expect_nlerr "online: evs fixed" EBUSY "$busy" c1 evprofile set 7 evs 64
expect_nlerr "online: mode fixed" EBUSY "$busy" c1 evprofile set 7 mode exp
expect_nlerr "online: format fixed" EBUSY "$busy" c1 evprofile set 7 format stev
expect_nlerr "online: backups fixed" EBUSY "$busy" c1 evprofile set 7 backups 1
expect_nlerr "online: entries fixed" EBUSY "$busy" c1 evprofile set 7 entries none
run_rc c1 evprofile set 7 min-active 6 events assumed-bad
check "online: min-active and events tunable" "0" "$rc"
check "online: tunables applied, shape kept" "20 6 online" \
	"$(c1 -j evprofile show 7 | jq -r '.[0] | "\(.evs) \(.min_active) \(.state)"')"
expect_nlerr "online: min-active still bounded by evs" ERANGE \
	"min_active must be 1 to ev_count" c1 evprofile set 7 min-active 21
expect_nlerr "delete an online evprofile" EBUSY \
	"evprofile is online, set it offline first" c1 evprofile del 7
run_rc c1 evprofile set 7 state offline evs 64
check "offline and reshape in one request" "0" "$rc"
check "reshaped while going offline" "offline 64" \
	"$(c1 -j evprofile show 7 | jq -r '.[0] | "\(.state) \(.evs)"')"
expect_nlerr "state init cannot be set" EINVAL \
	"state can only be set to online or offline" c1 evprofile set 7 state init
expect_nlerr "new profile with a state" EINVAL \
	"a new profile starts in state init" c1 evprofile add 9 state online

run_rc c1 evprofile set 8 state online
check "exp profile with min-active entries goes online" "0" "$rc"
c1 evprofile set 8 state offline
c1 evprofile set 8 entries none
check "entries none clears the list (human)" "entries none" \
	"$(c1 evprofile show 8 | grep -oE 'entries [^ ]+$')"
expect_nlerr "exp profile without entries cannot go online" EINVAL \
	"mode exp needs at least min_active EV entries online" \
	c1 evprofile set 8 state online
check "refused online left it offline" "offline" \
	"$(c1 -j evprofile show 8 | jq -r '.[0].state')"
expect_nlerr "duplicate EV entry" EINVAL "duplicate EV entry" \
	c1 evprofile set 8 entries 1,2,1
expect_nlerr "STEV entry wider than 36 bits" ERANGE \
	"EV entry does not fit the format's entropy field" \
	c1 evprofile set 8 entries 68719476736
expect_nlerr "UDP entry wider than 16 bits" ERANGE \
	"EV entry does not fit the format's entropy field" \
	c1 evprofile set 8 format udp entries 65536
c1 evprofile set 8 format udp entries 49152,49153,65535
check "udp entries replaced" "[49152,49153,65535]" \
	"$(c1 -j evprofile show 8 | jq -c '.[0].entries')"
expect_nlerr "more entries than evs" E2BIG "more EV entries than ev_count" \
	c1 evprofile set 8 entries "$(seq -s, 1 17)"
expect_nlerr "evs below the entry count" E2BIG "more EV entries than ev_count" \
	c1 evprofile set 8 evs 2
expect_nlerr "too many entries" E2BIG "too many EV entries" \
	c1 evprofile set 8 entries "$(seq -s, 1 257)"
expect_nlerr "entries outside exp mode" EINVAL "EV entries need mode exp" \
	c1 evprofile set 7 entries 1
c1 evprofile set 8 mode auto
check "leaving exp mode drops the entries" "auto []" \
	"$(c1 -j evprofile show 8 | jq -r '.[0] | "\(.mode) \(.entries|tojson)"')"
check "auto mode shows no entries in human form" "" \
	"$(c1 evprofile show 8 | grep -o entries)"
expect_nlerr "mode gen" EOPNOTSUPP "mode gen (generated EVs) is not supported yet" \
	c1 evprofile set 8 mode gen
expect_nlerr "explicit srv6 entries" EOPNOTSUPP \
	"explicit EV entries are not supported for this format yet" \
	c1 evprofile set 8 mode exp format srv6 entries 1
run_rc c1 evprofile set 8 mode exp format srv6
check "srv6 exp profile without entries is accepted" "0" "$rc"
expect_nlerr "evs 0" ERANGE "$policy" c1 evprofile set 7 evs 0
expect_nlerr "evs 257" ERANGE "$policy" c1 evprofile set 7 evs 257
expect_nlerr "min-active 0" ERANGE "$policy" c1 evprofile set 7 min-active 0
expect_nlerr "min-active above evs" ERANGE "min_active must be 1 to ev_count" \
	c1 evprofile add 9 evs 10 min-active 11
expect_nlerr "backups 33" ERANGE "$policy" c1 evprofile set 7 backups 33
expect_nlerr "evprofile id 0" ERANGE "$policy" c1 evprofile add 0
expect_nlerr "evprofile id 65536" ERANGE "$policy" c1 evprofile add 65536
run_rc c1 evprofile add 65535
check "evprofile id 65535 is valid" "0" "$rc"
c1 evprofile del 65535
expect_nlerr "duplicate evprofile id" EEXIST "an evprofile with this id already exists" \
	c1 evprofile add 8
expect_nlerr "show unknown evprofile" ENOENT "no such evprofile" c1 evprofile show 999
expect_nlerr "set unknown evprofile" ENOENT "no such evprofile" c1 evprofile set 999 evs 1
expect_nlerr "del unknown evprofile" ENOENT "no such evprofile" c1 evprofile del 999
check "failed requests created nothing" "7 8" \
	"$(c1 -j evprofile show | jq -r '[.[].id] | join(" ")')"

expect_usage "evprofile add without id" c1 evprofile add
expect_usage "evprofile set without parameter" c1 evprofile set 7
expect_usage "evprofile unknown parameter" c1 evprofile set 7 bogus 1
expect_usage "evprofile parameter without value" c1 evprofile set 7 evs
expect_usage "evprofile bad mode" c1 evprofile set 7 mode xyz
expect_usage "evprofile bad number" c1 evprofile set 7 evs 12x
expect_usage "evprofile negative number" c1 evprofile set 7 evs -1
expect_usage "evprofile bad event" c1 evprofile set 7 events good,bad
expect_usage "evprofile bad entry" c1 evprofile set 8 entries 1,,2
expect_usage "evprofile bad id" c1 evprofile show abc
expect_usage "evprofile del extra argument" c1 evprofile del 7 8
expect_usage "evprofile unknown command" c1 evprofile frob

run_rc c1 evprofile del 8
check "evprofile del" "0" "$rc"
expect_nlerr "deleted evprofile is gone" ENOENT "no such evprofile" c1 evprofile show 8

# ---- evformat: what an EV value is, and the EV profiles that name one -------------

check "no evformat yet" "[]" "$(c1 -j evformat show)"
run_rc c1 evformat add 4
check "evformat add with defaults" "0" "$rc"
check "evformat defaults: one 16-bit udp field" "evformat 4 state init format udp fields 16" \
	"$(c1 evformat show 4)"
run_rc c1 evformat add 3 format stev fields 20,16
check "evformat add stev 20,16" "0" "$rc"
check "evformat stev, JSON" '{"id":3,"state":"init","format":"stev","fields":[20,16]}' \
	"$(c1 -j evformat show 3 | jq -c '.[0]')"
check "evformat dump in id order" "3 4" "$(c1 -j evformat show | jq -r '[.[].id] | join(" ")')"
expect_nlerr "evformat id taken" EEXIST "an evformat with this id already exists" \
	c1 evformat add 3
expect_nlerr "evformat wider than its format's EV" ERANGE \
	"the fields are wider than the format's EV" c1 evformat add 5 format stev fields 20,17
expect_nlerr "evformat with 9 fields" EINVAL "an evformat has 1 to 8 fields" \
	c1 evformat add 5 format srv6 fields 1,1,1,1,1,1,1,1,1
expect_nlerr "evformat field of 0 bits" ERANGE "$policy" c1 evformat add 5 fields 0
expect_nlerr "evformat field of 65 bits" ERANGE "$policy" c1 evformat add 5 format srv6 fields 65
expect_nlerr "evformat add with a state" EINVAL "a new profile starts in state init" \
	c1 evformat add 5 state online
expect_nlerr "evformat set of a missing one" ENOENT "no such evformat" c1 evformat set 5 fields 8
check "refused evformat requests made nothing" "3 4" \
	"$(c1 -j evformat show | jq -r '[.[].id] | join(" ")')"

expect_nlerr "evprofile naming a missing evformat" ENOENT "no such evformat" \
	c1 evprofile add 20 evformat 99
expect_nlerr "evprofile format against its evformat's" EINVAL \
	"the format differs from the evformat's" c1 evprofile add 20 format udp evformat 3
run_rc c1 evprofile add 20 mode exp evformat 3 evs 4 min-active 1 entries 1,68719476735
check "evprofile naming evformat 3 (stev 20,16)" "0" "$rc"
check "it took the evformat's format; human output names the evformat" \
	"evprofile 20 state init mode exp format stev evs 4 min-active 1 backups 4 events good,assumed-bad entries 1,68719476735 evformat 3" \
	"$(c1 evprofile show 20)"
c1 evformat add 6 format stev fields 8,8
expect_nlerr "entries beyond the evformat's 16 bits" ERANGE \
	"EV entry does not fit the evformat's fields" \
	c1 evprofile add 21 mode exp evformat 6 evs 4 entries 65536
expect_nlerr "evprofile online before its evformat" EINVAL "evformat is not online" \
	c1 evprofile set 20 state online
run_rc c1 evformat set 3 state online
check "evformat online" "0" "$rc"
run_rc c1 evprofile set 20 state online
check "evprofile online with its evformat online" "0" "$rc"
expect_nlerr "fields of an online evformat" EBUSY \
	"evformat is online: format and fields need it offline" c1 evformat set 3 fields 16,16
expect_nlerr "evformat an online evprofile names goes offline" EBUSY \
	"evformat is named by an online evprofile, it stays online" c1 evformat set 3 state offline
expect_nlerr "online evformat deleted" EBUSY "evformat is online, set it offline first" \
	c1 evformat del 3
expect_nlerr "online evprofile names another evformat" EBUSY \
	"evprofile is online: mode, format, ev_count, backups, entries and evformat need it offline" \
	c1 evprofile set 20 evformat 4
c1 evprofile set 20 state offline
expect_nlerr "fields of an evformat an evprofile names" EBUSY \
	"evformat is named by an evprofile: its format and fields stay" \
	c1 evformat set 3 state offline fields 16,16
run_rc c1 evformat set 3 state offline
check "evformat offline once no online evprofile names it" "0" "$rc"
expect_nlerr "evformat an evprofile names deleted" EBUSY "evformat is named by an evprofile" \
	c1 evformat del 3
run_rc c1 evprofile set 20 evformat none
check "evprofile names no evformat" "0 0" "$rc $(c1 -j evprofile show 20 | jq '.[0].evformat')"
run_rc c1 evformat del 3
check "evformat del" "0" "$rc"
c1 evprofile del 20
c1 evformat del 4
c1 evformat del 6
check "evformats and the evprofile gone" "[] 7" \
	"$(c1 -j evformat show) $(c1 -j evprofile show | jq -r '[.[].id] | join(" ")')"

# ---- ccprofile ------------------------------------------------------------------

check "no ccprofile yet" "[]" "$(c1 -j ccprofile show)"
run_rc c1 ccprofile add 3
check "ccprofile add with defaults" "0" "$rc"
check "ccprofile defaults, human" \
	"ccprofile 3 state init algo nscc base-rtt-us 20 target-delay-us 30 qa-threshold-us 120 min-cwnd 4096 max-cwnd 1048576 gamma 800 max-md-jump 500 eta 512 fi 4096" \
	"$(c1 ccprofile show 3)"
check "ccprofile defaults, JSON" \
	'[{"id":3,"state":"init","algo":"nscc","base_rtt_us":20,"target_delay_us":30,"qa_threshold_us":120,"min_cwnd":4096,"max_cwnd":1048576,"gamma":800,"max_md_jump":500,"eta":512,"fi":4096}]' \
	"$(c1 -j ccprofile show 3 | jq -c .)"
run_rc c1 ccprofile add 4 algo nscc base-rtt-us 1 target-delay-us 1000000 \
	qa-threshold-us 0 min-cwnd 256 max-cwnd 1073741824 gamma 1 max-md-jump 1000 \
	eta 65536 fi 1048576
check "ccprofile add with every parameter at its edge" "0" "$rc"
check "ccprofile edges, human" \
	"ccprofile 4 state init algo nscc base-rtt-us 1 target-delay-us 1000000 qa-threshold-us 0 min-cwnd 256 max-cwnd 1073741824 gamma 1 max-md-jump 1000 eta 65536 fi 1048576" \
	"$(c1 ccprofile show 4)"
c1 ccprofile set 4 eta 0 fi 0
check "eta and fi may be 0" "0 0" \
	"$(c1 -j ccprofile show 4 | jq -r '.[0] | "\(.eta) \(.fi)"')"
check "ccprofile dump" "3 4" "$(c1 -j ccprofile show | jq -r '[.[].id] | join(" ")')"

expect_nlerr "algo none" ERANGE "$policy" c1 ccprofile set 3 algo none
expect_nlerr "base-rtt-us 0" ERANGE "$policy" c1 ccprofile set 3 base-rtt-us 0
expect_nlerr "target-delay-us above 1 s" ERANGE "$policy" \
	c1 ccprofile set 3 target-delay-us 1000001
expect_nlerr "qa-threshold-us above 1 s" ERANGE "$policy" \
	c1 ccprofile set 3 qa-threshold-us 1000001
expect_nlerr "min-cwnd 255" ERANGE "$policy" c1 ccprofile set 3 min-cwnd 255
expect_nlerr "max-cwnd above 2^30" ERANGE "$policy" c1 ccprofile set 3 max-cwnd 1073741825
expect_nlerr "gamma 0" ERANGE "$policy" c1 ccprofile set 3 gamma 0
expect_nlerr "gamma 1001" ERANGE "$policy" c1 ccprofile set 3 gamma 1001
expect_nlerr "max-md-jump 1001" ERANGE "$policy" c1 ccprofile set 3 max-md-jump 1001
expect_nlerr "eta 65537" ERANGE "$policy" c1 ccprofile set 3 eta 65537
expect_nlerr "fi above 2^20" ERANGE "$policy" c1 ccprofile set 3 fi 1048577
expect_nlerr "target below base rtt" EINVAL "target_delay_us is below base_rtt_us" \
	c1 ccprofile set 3 base-rtt-us 31
expect_nlerr "qa threshold below target" EINVAL \
	"qa_threshold_us is below target_delay_us" c1 ccprofile set 3 qa-threshold-us 29
expect_nlerr "min-cwnd above max-cwnd" EINVAL "min_cwnd is larger than max_cwnd" \
	c1 ccprofile add 5 min-cwnd 8192 max-cwnd 4096
c1 ccprofile set 3 base-rtt-us 25 target-delay-us 50 qa-threshold-us 0
check "ccprofile set several parameters" "25 50 0" \
	"$(c1 -j ccprofile show 3 | jq -r '.[0] | "\(.base_rtt_us) \(.target_delay_us) \(.qa_threshold_us)"')"

c1 ccprofile set 3 state online
check "ccprofile online" "online" "$(c1 -j ccprofile show 3 | jq -r '.[0].state')"
run_rc c1 ccprofile set 3 gamma 400 max-cwnd 65536
check "online: NSCC parameters tunable" "0" "$rc"
check "online: parameters applied" "400 65536" \
	"$(c1 -j ccprofile show 3 | jq -r '.[0] | "\(.gamma) \(.max_cwnd)"')"
expect_nlerr "online: algo fixed" EBUSY "ccprofile is online: the algorithm needs it offline" \
	c1 ccprofile set 3 algo nscc
expect_nlerr "delete an online ccprofile" EBUSY "ccprofile is online, set it offline first" \
	c1 ccprofile del 3
expect_nlerr "ccprofile state init" EINVAL "state can only be set to online or offline" \
	c1 ccprofile set 3 state init
expect_nlerr "new ccprofile with a state" EINVAL "a new profile starts in state init" \
	c1 ccprofile add 6 state offline
expect_nlerr "duplicate ccprofile id" EEXIST "a ccprofile with this id already exists" \
	c1 ccprofile add 4
expect_nlerr "ccprofile id 0" ERANGE "$policy" c1 ccprofile show 0
expect_nlerr "show unknown ccprofile" ENOENT "no such ccprofile" c1 ccprofile show 99
expect_nlerr "set unknown ccprofile" ENOENT "no such ccprofile" c1 ccprofile set 99 eta 1
expect_nlerr "del unknown ccprofile" ENOENT "no such ccprofile" c1 ccprofile del 99
expect_usage "ccprofile bad algo" c1 ccprofile set 3 algo reno
expect_usage "ccprofile evprofile-only parameter" c1 ccprofile set 3 evs 1
expect_usage "ccprofile del without id" c1 ccprofile del
c1 ccprofile set 3 state offline
run_rc c1 ccprofile del 3
check "ccprofile del after offline" "0" "$rc"
check "ccprofile left" "4" "$(c1 -j ccprofile show | jq -r '[.[].id] | join(" ")')"

# ---- permissions ------------------------------------------------------------------

eperm="Error: Operation not permitted (EPERM)"
for who in nocap nobody; do
	declare -n as=$who
	for req in "evprofile add 20" "evprofile set 7 evs 1" "evprofile del 7" \
		   "ccprofile add 20" "ccprofile set 4 eta 1" "ccprofile del 4" \
		   "evformat add 20"; do
		# shellcheck disable=SC2086
		run_rc ip netns exec "$H1" "${as[@]}" "$MRCCTL" $req
		check "$who: $req refused with EPERM" "2 $eperm" "$rc $out"
	done
	run_rc ip netns exec "$H1" "${as[@]}" "$MRCCTL" -j evprofile show
	check "$who: evprofile show allowed" "0 7" "$rc $(echo "$out" | jq -r '[.[].id] | join(" ")')"
	run_rc ip netns exec "$H1" "${as[@]}" "$MRCCTL" -j ccprofile show 4
	check "$who: ccprofile show allowed" "0 4" "$rc $(echo "$out" | jq -r '.[0].id')"
done
check "refused requests changed nothing" "7 64 4 0" \
	"$(c1 -j evprofile show | jq -r '.[] | "\(.id) \(.evs)"') $(c1 -j ccprofile show | jq -r '.[] | "\(.id) \(.eta)"')"

# ---- namespaces ----------------------------------------------------------------

check "evprofiles are per namespace" "[]" "$(c2 -j evprofile show)"
check "ccprofiles are per namespace" "[]" "$(c2 -j ccprofile show)"
expect_nlerr "other namespace's evprofile" ENOENT "no such evprofile" c2 evprofile show 7
expect_nlerr "other namespace's ccprofile cannot be deleted" ENOENT "no such ccprofile" \
	c2 ccprofile del 4
run_rc c2 evprofile add 7 evs 8
check "same id in another namespace" "0" "$rc"
check "namespaces keep their own settings" "64 8" \
	"$(c1 -j evprofile show 7 | jq -r '.[0].evs') $(c2 -j evprofile show 7 | jq -r '.[0].evs')"

# ---- batch ------------------------------------------------------------------------

run_rc c2 -b - <<'EOF2'
# a comment, then an empty line

evprofile add 50 evs 4
evprofile add 50
ccprofile add 51
EOF2
check "batch stops at the failing line" "2" "$rc"
check "batch names the failing line and the error" \
	"mrcctl: batch line 4 failed
Error: an evprofile with this id already exists (EEXIST)" "$out"
check "batch ran the lines before the failure only" "7 50 []" \
	"$(c2 -j evprofile show | jq -r '[.[].id] | join(" ")') $(c2 -j ccprofile show | jq -c .)"
c2 evprofile del 50

# ---- large dumps -----------------------------------------------------------------

# One mrcctl process and one socket for all 2400 requests (-b): a process per request
# is far too slow under TCG.
awk 'BEGIN {
	for (i = 100; i < 1300; i++) {
		e = i; for (j = 1; j < 16; j++) e = e "," i + j
		print "evprofile add " i " mode exp evs 16 entries " e
		print "ccprofile add " i " base-rtt-us " i % 100 + 1 " target-delay-us 200 qa-threshold-us 400"
	}
}' | c2 -b -
check "created 1200 evprofiles and 1200 ccprofiles in one batch" "0" "$?"
js=$(c2 -j evprofile show)
check "evprofile dump of 1201 is complete" "1201" "$(echo "$js" | jq length)"
check "evprofile dump ids unique and increasing" "true" \
	"$(echo "$js" | jq '[.[].id] == ([.[].id] | unique)')"
check "evprofile dump carries every entry" "19200" \
	"$(echo "$js" | jq '[.[].entries | length] | add')"
check "evprofile dump, last profile intact" "1299 [1299,1300,1301,1302,1303,1304,1305,1306,1307,1308,1309,1310,1311,1312,1313,1314]" \
	"$(echo "$js" | jq -r '.[-1] | "\(.id) \(.entries|tojson)"')"
check "evprofile human dump of 1201 lines" "1201" "$(c2 evprofile show | wc -l)"
js=$(c2 -j ccprofile show)
check "ccprofile dump of 1200 is complete" "1200" "$(echo "$js" | jq length)"
check "ccprofile dump ids" "100 1299 true" \
	"$(echo "$js" | jq -r '"\(.[0].id) \(.[-1].id) \([.[].id] == ([.[].id] | unique))"')"
check "ccprofile human dump of 1200 lines" "1200" "$(c2 ccprofile show | wc -l)"

# ---- teardown frees everything (kmemleak checks it in the debug VM) ---------------

ip netns del "$H2"
check "namespace with 2400 profiles deleted" "0" "$?"
c1 evprofile set 7 mode exp entries 1,2,3
run_rc modprobe -r mrc
check "module unloads with profiles left" "0" "$rc"
check "module gone" "absent" "$([ -d /sys/module/mrc ] && echo present || echo absent)"
mrc_finish
