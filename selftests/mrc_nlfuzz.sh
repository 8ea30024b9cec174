#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Raw generic netlink at the mrc family (tools/testing/mrc-nlfuzz): random and boundary
# requests of every command the spec lists, with wrong types and lengths, missing,
# repeated and unknown attributes, deep and lying nests and dumps, sent at a namespace
# that holds two devices, 201 EV profiles, a CC profile, an SRv6 template and a connected,
# verified QP pair. As root: every request gets one answer, every refusal by policy
# names its reason (extack message or attribute offset). As an unprivileged user:
# every admin command is refused with EPERM, and the namespace's state is exactly what
# it was. Afterwards the QP pair still verifies and a new transfer does too; the
# harness fails the run on any kernel report. MRC_NLFUZZ_COUNT requests per caller
# (default 1500), MRC_NLFUZZ_SEED to repeat a run.
. "$(dirname "$0")/lib.sh"

mrc_require_root
mrc_require_mrcctl
mrc_require_xfer
mrc_require_setpriv
mrc_require_cmds jq python3
FUZZ=$MRC_TREE/tools/testing/mrc-nlfuzz
count=${MRC_NLFUZZ_COUNT:-1500}
MRC_HELD_DIR=$(mktemp -d)
cleanup()
{
	touch "$MRC_HELD_DIR/release"
	wait
	rm -rf "$MRC_HELD_DIR"
	mrc_dev_pair_del
	topo_destroy
}
trap cleanup EXIT
mrc_unload
topo_create 2 || { echo "# topology setup failed"; exit $KSFT_FAIL; }
mrc_dev_pair 2 || exit $KSFT_FAIL
# an SRv6 entry for a peer no QP has, so that the pair's QPs keep plain routing
"$MRCCTL" -n "$H1" evprofile add 7 evs 16 min-active 5 backups 2 &&
	"$MRCCTL" -n "$H1" ccprofile add 9 &&
	"$MRCCTL" -n "$H1" evformat add 5 format stev fields 20,16 &&
	"$MRCCTL" -n "$H1" srv6 set dev "$MRC_DEV1" peer fd00:7::1 locator fc00:7 usids 10,20 \
		tier usid 0 shift 8 count 3
check "profiles and an SRv6 template made" "0" "$?"
# 200 more EV profiles, in one batch: a dump of them spans several messages
for ((i = 100; i < 300; i++)); do echo "evprofile add $i evs 16"; done |
	"$MRCCTL" -n "$H1" -b -
check "200 EV profiles more, for dumps of several parts" "0" "$?"
held_start nl -o write -s 65536 -n 4
wait_until 120 held_done nl
check "the QP pair finished its transfer and holds its QPs" "0" "$?"

# state: what the namespace holds, as the control plane shows it
state()
{
	local what
	for what in "dev show" "evformat show" "evprofile show" "ccprofile show" "qp show" \
		"srv6 show"; do
		# shellcheck disable=SC2086
		"$MRCCTL" -n "$H1" -j $what
	done
}

seed_arg=()
[ -z "${MRC_NLFUZZ_SEED:-}" ] || seed_arg=(--seed "$MRC_NLFUZZ_SEED")
# fuzz WHO ARGS...: run the fuzzer in $H1 as WHO (root, or nobody without capabilities)
fuzz()
{
	local who=$1
	shift
	if [ "$who" = root ]; then
		out=$(ip netns exec "$H1" python3 "$FUZZ" --count "$count" "${seed_arg[@]}" "$@" \
			2>"$MRC_HELD_DIR/fuzz.err")
	else
		# nobody cannot read a tree under /root (mode 0700): a copy it can read
		mkdir -p "$MRC_HELD_DIR/pub" && chmod 755 "$MRC_HELD_DIR" "$MRC_HELD_DIR/pub" &&
			install -m 644 "$FUZZ" "$MRC_TREE/Documentation/netlink/specs/mrc.yaml" \
				"$MRC_HELD_DIR/pub/"
		out=$(ip netns exec "$H1" "${nobody[@]}" python3 "$MRC_HELD_DIR/pub/mrc-nlfuzz" \
			--spec "$MRC_HELD_DIR/pub/mrc.yaml" --count "$count" "${seed_arg[@]}" \
			--unprivileged "$@" 2>"$MRC_HELD_DIR/fuzz.err")
	fi
	rc=$?
	cat "$MRC_HELD_DIR/fuzz.err"
	echo "# $out"
	check "$who: every request answered (exit status)" "0" "$rc"
	check "$who: every refusal by policy says why (extack)" "0" \
		"$(jq -r .refusals_without_extack <<<"$out")"
	check "$who: requests sent" "yes" "$([ "$(jq -r .sent <<<"$out")" -ge "$count" ] && echo yes)"
}

# what one well-formed dump of each kind returns, before the random requests: $H1's
# device, its 201 EV profiles (a dump of many messages), the CC profile, the QP of the
# pair that has EVs (the server's) and the SRv6 entry
plain='{"ccprof-get":1,"dev-get":1,"evfmt-get":1,"evprof-get":201,"qp-get":1,"srv6-get":1}'
fuzz root
check "root: every plain dump returns every entry" "$plain" "$(jq -c .plain_dumps <<<"$out")"
before=$(state)
# root's random requests may have added or deleted objects: what root's dumps see now
plain=$(ip netns exec "$H1" python3 "$FUZZ" --count 0 2>/dev/null | jq -c .plain_dumps)
fuzz nobody
check "nobody: every plain dump returns what root's does" "$plain" \
	"$(jq -c .plain_dumps <<<"$out")"
check "nobody: every admin command refused with EPERM" "[]" \
	"$(jq -c .admin_commands_not_eperm <<<"$out")"
check "nobody: the namespace's state is unchanged" "$before" "$(state)"
held_release nl "the QP pair after the fuzzing"
check_xfer "a new transfer after the fuzzing" -o write -s 65536 -n 4
mrc_finish
