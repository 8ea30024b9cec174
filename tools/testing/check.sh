#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: install what is missing, build the module and tools against both kernels,
# run the static checkers, the selftests in the stock VM, and the KUnit suites and the
# selftests in one debug VM boot. Every KUnit case and every selftest counts on its
# own, and so does every way a run can end short: a guest without a status, a suite or
# a test of the plan that never reported, a kernel report at any time. The output ends
# with a table of the stages (wall time, passed, failed, skipped) and the line
# "N passed, N failed[, N skipped]"; the exit status is non-zero when anything failed.
#
# Environment: MRC_CHECK_ONLY="static stock debug pair" limits the stages (for a quick
# loop while developing; make check itself always runs them all; "kunit" alone runs the
# debug boot with the KUnit suites and no selftest; "pair" the two-kernel test). MRC_CHECK_TESTS="mrc_a.sh ..."
# limits both VMs' selftests to those named. MRC_CHECK_FULL=1 (make check-long) runs
# every selftest in the stock VM and in a debug VM, as below.
set -uo pipefail
tree=$(cd "$(dirname "$0")/../.." && pwd)
cd "$tree" || exit 1
t=$tree/tools/testing
logs=$tree/.build/check
rm -rf "$logs"
mkdir -p "$logs"
only=${MRC_CHECK_ONLY:-static stock stock-6.12 debug pair}
passed=0 failed=0 skipped=0
failures=()

result()
{
	case $1 in
	pass) passed=$((passed + 1)); echo "ok - $2" ;;
	fail) failed=$((failed + 1)); failures+=("$2"); echo "not ok - $2" ;;
	skip) skipped=$((skipped + 1)); echo "ok - $2 # SKIP $3" ;;
	esac
}

# step NAME LOGNAME CMD...: one counted step whose output goes to a log, shown on failure.
step()
{
	local name=$1 log=$logs/$2.log
	shift 2
	if "$@" >"$log" 2>&1; then
		result pass "$name"
		return 0
	fi
	result fail "$name"
	sed 's/^/#   /' "$log" | tail -n 40
	return 1
}

wants() { [[ " $only " == *" $1 "* ]]; }

# stage_row NAME T0 P0 F0 S0 [sub]: one row of stages.tsv (which feeds
# tools/testing/ci-budget): the wall time since T0 and the counts added since P0/F0/S0.
stage_row()
{
	{
		printf '%s\t%s\t%s\t%s\t%s' "$1" $(($(date +%s) - $2)) \
			$((passed - $3)) $((failed - $4)) $((skipped - $5))
		[ -z "${6:-}" ] || printf '\t%s' "$6"
		echo
	} >>"$logs/stages.tsv"
}

# stage NAME: close the running stage and open NAME; "stage" alone closes the last one.
stage_name='' stage_t0=0 stage_p=0 stage_f=0 stage_s=0
stage()
{
	[ -z "$stage_name" ] ||
		stage_row "$stage_name" "$stage_t0" "$stage_p" "$stage_f" "$stage_s"
	stage_name=${1:-} stage_t0=$(date +%s) stage_p=$passed stage_f=$failed stage_s=$skipped
}

# count_tap FILE PREFIX TEST...: count the selftest runner's top-level TAP lines; every
# test of the plan must have reported, or it counts as failed.
count_tap()
{
	local file=$1 prefix=$2 line t
	shift 2
	local -A seen=()
	while IFS= read -r line; do
		if [[ $line =~ ^ok\ [0-9]+\ selftests:\ mrc:\ ([^ ]+)\ \#\ SKIP ]]; then
			result skip "$prefix ${BASH_REMATCH[1]}" "(exit 4)"
		elif [[ $line =~ ^ok\ [0-9]+\ selftests:\ mrc:\ ([^ ]+) ]]; then
			result pass "$prefix ${BASH_REMATCH[1]}"
		elif [[ $line =~ ^not\ ok\ [0-9]+\ selftests:\ mrc:\ ([^ ]+)(.*) ]]; then
			result fail "$prefix ${BASH_REMATCH[1]}${BASH_REMATCH[2]}"
		else
			continue
		fi
		seen[${BASH_REMATCH[1]}]=1
	done <"$file"
	for t in "$@"; do
		[ -n "${seen[$t]:-}" ] || result fail "$prefix $t (in the plan, never reported)"
	done
}

# count_ktap FILE SUITE...: KUnit cases are the 4-space-indented results inside each
# suite; each suite must print its "1..N" plan and N results, and every suite the
# sources define (mrc/tests/*.c) must be there, so that one dropped from Kbuild or
# ended by a crash counts as failed instead of vanishing from the count.
count_ktap()
{
	local file=$1 line suite='' plan=0 n=0 s
	local dmesg=${file%/*}/dmesg.txt c
	shift
	local -A seen=() got=()
	close_suite()
	{
		[ -n "$suite" ] || return 0
		seen[$suite]=1
		# 6.1 keeps 512 bytes of log per case in debugfs: a case that says
		# much loses its result line there, or the next case's; the console
		# has every line.
		if [ "$n" != "$plan" ] && [ -r "$dmesg" ]; then
			while read -r v c; do
				[ -z "${got[$suite.$c]:-}" ] || continue
				result "$v" "kunit $suite.$c (its result from the console)"
				n=$((n + 1))
			done < <(awk -v s="$suite" '
				$0 ~ "] +# Subtest: " s "$" { on = 1; next }
				on && $0 ~ "] (not )?ok [0-9]+ " s "$" { exit }
				on && sub(/^[^]]*]     not ok [0-9]+ /, "") { print "fail", $0 }
				on && sub(/^[^]]*]     ok [0-9]+ /, "") { print "pass", $0 }
			' "$dmesg")
		fi
		[ "$plan" -gt 0 ] && [ "$n" = "$plan" ] ||
			result fail "kunit $suite: $n results for a plan of $plan"
	}
	while IFS= read -r line; do
		if [[ $line =~ ^\ {4}#\ Subtest:\ (.+)$ ]]; then
			close_suite
			suite=${BASH_REMATCH[1]} plan=0 n=0
		elif [[ $line =~ ^\ {4}1\.\.([0-9]+)$ ]]; then
			plan=${BASH_REMATCH[1]}
		elif [[ $line =~ ^\ {4}ok\ [0-9]+\ (.+)\ \#\ SKIP(.*)$ ]]; then
			result skip "kunit $suite.${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
			got[$suite.${BASH_REMATCH[1]}]=1
			n=$((n + 1))
		elif [[ $line =~ ^\ {4}ok\ [0-9]+\ (.+)$ ]]; then
			result pass "kunit $suite.${BASH_REMATCH[1]}"
			got[$suite.${BASH_REMATCH[1]}]=1
			n=$((n + 1))
		elif [[ $line =~ ^\ {4}not\ ok\ [0-9]+\ (.+)$ ]]; then
			result fail "kunit $suite.${BASH_REMATCH[1]}"
			got[$suite.${BASH_REMATCH[1]}]=1
			n=$((n + 1))
		elif [[ $line =~ ^not\ ok\ [0-9]+\ (.+)$ ]]; then
			# a suite can fail outside its cases (init/exit)
			result fail "kunit suite ${BASH_REMATCH[1]}"
		fi
	done <"$file"
	close_suite
	for s in "$@"; do
		[ -n "${seen[$s]:-}" ] || result fail "kunit $s (defined in mrc/tests, never reported)"
	done
}

# Where each selftest runs. make check runs each once, in the kernel where it finds
# the most, to stay in CI's budget (Documentation/testing.md, "Where each selftest
# runs"); make check-long (MRC_CHECK_FULL=1) runs each in both kernels but the four
# that never run under the debug kernel.
#
# stock_tests: in make check, the stock VM's. mrc_fabric.sh checks the test fabric
# itself (the kernel's seg6local, the static routes), not mrc. mrc_stev.sh's data path
# differs from mrc_multipath.sh's only by the flow label, which KUnit checks
# (ev_stev_*). mrc_srv6_hosts.sh runs the code of mrc_srv6.sh with other host numbers,
# on a fabric of four hosts whose 28 namespaces cost minutes to build under the debug
# kernel. mrc_srv6.sh (13 minutes there) asserts which paths retire when spines fail,
# a question of timing the stock VM answers. Those four never run under the debug
# kernel. The others here assert rates, windows, event timing and perftest results at
# full volume, which the stock kernel measures and the debug kernel scales down; the
# debug VMs run their code paths through the tests below and KUnit.
# mrc_libmrc.sh is user-space code over paths the debug VMs already run (QP_SET in
# mrc_qpset.sh, loopback, WRITE_IMM): the stock VM runs it, check-long the debug one.
stock_only_tests=" mrc_fabric.sh mrc_stev.sh mrc_srv6_hosts.sh mrc_srv6.sh "
stock_tests="$stock_only_tests mrc_verbs.sh mrc_netem.sh mrc_qpview.sh mrc_events.sh \
mrc_profiles.sh mrc_devprof.sh mrc_coexist.sh mrc_guide.sh mrc_libmrc.sh "
# debug2_tests: the second debug boot's, without kmemleak, which halves the guest's
# speed: the tests that move the most data. In make check those that move it through
# loss, retransmission, hostile packets and every RC error, the teardowns under
# traffic, and loopback QPs (where one guest is both hosts): kmemleak frees its record of every kfree() through call_rcu(), and a guest
# that moves data while other guests take its CPU queues them faster than it runs
# them, so that rmmod's and netdev unregistration's RCU waits block for minutes (the
# hung-task detector's report; Documentation/testing.md). In make check-long also the
# stock VM's data tests. Every other test, and any new one, runs in the first.
debug2_tests=" mrc_multipath.sh mrc_inject.sh mrc_rcerr.sh mrc_teardown.sh mrc_loopback.sh "
if [ -n "${MRC_CHECK_FULL:-}" ]; then
	debug2_tests="$debug2_tests mrc_verbs.sh mrc_netem.sh mrc_qpview.sh mrc_events.sh "
fi

# stock612_tests: Debian's 6.12 kernel (Documentation/kernels.md), in make check the
# control plane (module life, netlink, permissions, per-QP attributes) and the data
# path (verbs, refused accesses, teardowns under traffic, multipath, loopback, every
# RC error): where the interfaces that changed since 6.1 are used. make check-long
# runs every selftest there, and the package test (selftests/mrc_package.sh), whose
# DKMS builds alone take a guest 12 minutes under TCG.
stock612_tests=" mrc_module.sh mrc_netlink.sh mrc_unpriv.sh mrc_qpset.sh mrc_verbs.sh \
mrc_access.sh mrc_teardown.sh mrc_multipath.sh mrc_loopback.sh mrc_rcerr.sh mrc_coexist.sh "

# selftest_plan [stock|stock-6.12|debug]: the selftests a VM runs, in TEST_PROGS order.
selftest_plan()
{
	local t
	for t in $(make -s --no-print-directory -C "$tree/selftests" print-tests); do
		if [ "$1" = stock-6.12 ]; then
			[ -n "${MRC_CHECK_FULL:-}" ] || [[ $stock612_tests == *" $t "* ]] || continue
		elif [ "$1" = debug ]; then
			[[ $stock_only_tests == *" $t "* ]] && continue
			[ -n "${MRC_CHECK_FULL:-}" ] || [[ $stock_tests != *" $t "* ]] || continue
		else
			[ -n "${MRC_CHECK_FULL:-}" ] || [[ $stock_tests == *" $t "* ]] || continue
		fi
		[ -z "${MRC_CHECK_TESTS:-}" ] || [[ " $MRC_CHECK_TESTS " == *" $t "* ]] || continue
		echo "$t"
	done
	[ "$1" != stock-6.12 ] || [ -z "${MRC_CHECK_FULL:-}" ] ||
		[ -n "${MRC_CHECK_TESTS:-}" ] || echo mrc_package.sh
}

# The KUnit suites the sources define, whether or not Kbuild builds them.
kunit_suites()
{
	sed -n 's/^[[:space:]]*\.name = "\(mrc-[a-z0-9-]*\)",$/\1/p' "$tree"/mrc/tests/*_test.c | sort
}

# vm_start ID FLAVOUR LIMIT [VM.SH-OPTION...] -- CMD...: boot a VM in the background
# (log $logs/ID.log, guest files in $logs/ID-vm); vm_judge ID NAME waits for it and judges how the guest
# ended, on its own: it must report a status (not die, not hang) and print no kernel
# report. LIMIT (seconds) is generous: TCG on a busy 2-core host runs several times
# slower than on an idle one, and a time-out must mean a hang, not a loaded machine.
declare -A vm_pid=() vm_limit=() vm_t0=()
vm_start()
{
	local id=$1 flavour=$2 limit=$3
	shift 3
	vm_limit[$id]=$limit
	vm_t0[$id]=$(date +%s)
	"$t/vm/vm.sh" --kernel "$flavour" --quiet --timeout "$limit" --out "$logs/$id-vm" "$@" \
		>"$logs/$id.log" 2>&1 &
	vm_pid[$id]=$!
}

# vm_judge ID NAME [COUNT-CMD...]: wait for VM ID, judge it, run COUNT-CMD (which
# counts what the guest reported) and add the VM's row to the stage table.
vm_judge()
{
	local id=$1 name=$2 log=$logs/$1.log rc p0=$passed f0=$failed s0=$skipped
	shift 2
	[ -n "${vm_pid[$id]:-}" ] || return 0
	wait "${vm_pid[$id]}"
	rc=$?
	# the failures' own explanations, and the harness's verdict
	grep -E '^(# )*(not ok|#   |vm.sh:|splat-scan:)|FAILED at|^ {4}Expected|^ {4}[0-9]+:|^ {8}[^ ]' \
		"$log" | sed 's/^/# /' || true
	case $rc in
	124) result fail "$name: guest reported its status (it hung: stuck, or at its ${vm_limit[$id]} s limit)" ;;
	126) result fail "$name: guest reported its status (it died)" ;;
	*) result pass "$name: guest reported its status" ;;
	esac
	if [ "$rc" = 125 ] || ! "$t/vm/splat-scan.sh" "$logs/$id-vm" >/dev/null; then
		result fail "$name: no kernel report from boot to power-off"
	else
		result pass "$name: no kernel report from boot to power-off"
	fi
	[ $# = 0 ] || "$@"
	# a VM ran beside the stages: ci-budget shows its row but leaves it out of the total
	stage_row "$name" "${vm_t0[$id]}" "$p0" "$f0" "$s0" sub
}

start=$(date +%s)
rm -f "$logs/stages.tsv"
stage "packages"
step "packages installed" deps "$t/deps.sh" || { echo "0 passed, 1 failed"; exit 1; }
stage "builds"
stock_ok=0 debug_ok=0
step "build mrc.ko against stock $("$t/vm/stock-kver.sh") (W=1, no warnings)" build-stock \
	"$t/build.sh" stock && stock_ok=1
step "build mrcctl, mrc-xfer, mrc-rcerr, libmrc and the OCP programs on it" build-tools \
	make -s tools || stock_ok=0 tools_ok=0

# The VMs run side by side, each in the background from the moment its build is done,
# with the static checks and the debug kernel's build beside them: under TCG a guest
# keeps about one host core busy (most of the time one vCPU runs the test's one
# process), so on two cores two guests finish in little more than the time of one.
# The guests' limits: what CI's 90 minutes leave, or for make check-long, which
# runs every selftest in each and has no such bound, an hour and a half each.
stock_limit=2400 debug_limit=3600
[ -z "${MRC_CHECK_FULL:-}" ] || stock_limit=5400 debug_limit=5400
stock_plan=()
if wants stock; then
	mapfile -t stock_plan < <(selftest_plan stock)
	if [ ${#stock_plan[@]} = 0 ]; then
		:	# MRC_CHECK_TESTS named none of them
	elif [ $stock_ok = 1 ]; then
		vm_start stock-selftests stock $stock_limit -- selftests/run.sh \
			"${stock_plan[@]}"
	else
		result fail "stock VM (not run: the build failed)"
	fi
fi
# Debian's 6.12 kernel, once the stock VM runs: its module, and the packages the
# package test installs (make check-long) and lintian judges (both).
stock612_ok=0
step "build mrc.ko against stock $("$t/vm/stock-kver.sh" 6.12) (W=1, no warnings)" \
	build-stock-6.12 "$t/build.sh" stock-6.12 && [ "${tools_ok:-1}" = 1 ] && stock612_ok=1
step "Debian packages build; lintian --pedantic: no error" pkg-build "$t/pkg.sh" --build-only ||
	stock612_ok=0
stock612_plan=()
if wants stock-6.12; then
	mapfile -t stock612_plan < <(selftest_plan stock-6.12)
	if [ ${#stock612_plan[@]} = 0 ]; then
		:
	elif [ $stock612_ok = 1 ]; then
		vm_start stock612-selftests stock-6.12 $stock_limit \
			--env "MRC_PKG_DIR=$tree/.build/pkg" -- selftests/run.sh "${stock612_plan[@]}"
	else
		result fail "stock 6.12 VM (not run: a build failed)"
	fi
fi
debug1_plan=() debug2_plan=()
if wants kunit || wants debug || wants pair; then
	# A cold cache builds the kernel here: its own stage, so that ci-budget can tell
	# a warm run from a cold one.
	if [ -f "$("$t/vm/debug-kernel.sh" --path)/.done" ]; then
		stage "debug kernel (cached)"
	else
		stage "debug kernel (built)"
	fi
	step "debug kernel built or cached" debug-kernel "$t/vm/debug-kernel.sh" &&
		stage "debug builds" &&
		step "build mrc.ko + mrc_test.ko against the debug kernel (W=1, no warnings)" \
			build-debug "$t/build.sh" debug && debug_ok=1
	if [ $debug_ok = 1 ] && [ $stock_ok = 1 ]; then
		# Two debug boots share the debug plan, both under KASAN, lockdep, debug
		# objects and the refcount trackers. kmemleak, which tracks every allocation
		# and halves the guest's speed, runs in the first: the KUnit suites
		# (debug-guest.sh) and every test of objects' lives and error paths, among
		# them the refused accesses, moving data through the same requester and
		# responder. The second boots without it
		# (vm.sh --no-kmemleak) for debug2_tests. The limit is what CI's 90 minutes
		# leave: a guest that hangs or livelocks ends here with its results
		# counted, not with CI's own kill.
		if wants debug; then
			while read -r tst; do
				if [[ $debug2_tests == *" $tst "* ]]; then
					debug2_plan+=("$tst")
				else
					debug1_plan+=("$tst")
				fi
			done < <(selftest_plan debug)
		fi
		if wants kunit || wants debug; then
			vm_start debug1-selftests debug $debug_limit -- \
				tools/testing/debug-guest.sh "${debug1_plan[@]}"
			[ ${#debug2_plan[@]} = 0 ] ||
				vm_start debug2-selftests debug $debug_limit --no-kmemleak -- \
					selftests/run.sh "${debug2_plan[@]}"
		fi
	else
		result fail "debug VM (not run: a build failed)"
	fi
fi

if wants static; then
	stage "static checks"
	step "checkpatch --strict" checkpatch "$t/checkpatch.sh"
	step "kernel-doc -none" kernel-doc "$t/kernel-doc.sh"
	step "netlink spec matches uapi and policies" nl-spec "$t/nl-spec-check.py"
	step "libmrc's headers match the OCP MRC API's layout" libmrc-layout \
		tools/lib/mrc/tests/layout
	step "sparse C=2 against stock headers" sparse "$t/build.sh" stock sparse
	step "sparse C=2 against stock 6.12 headers" sparse-6.12 "$t/build.sh" stock-6.12 sparse
	[ $stock_ok = 1 ] &&
		step "module signing: mrc-sign.sh signs, and refuses other keys" sign "$t/sign-check.sh"
	# The KUnit suites only build against the debug kernel: check them there too.
	[ $debug_ok = 1 ] &&
		step "sparse C=2 against the debug kernel" sparse-debug "$t/build.sh" debug sparse
fi

# count_debug1: the KUnit suites and the first debug boot's selftests.
count_debug1()
{
	local suites
	mapfile -t suites < <(kunit_suites)
	touch "$logs/debug1-selftests-vm/kunit.tap"
	count_ktap "$logs/debug1-selftests-vm/kunit.tap" "${suites[@]}"
	[ ${#debug1_plan[@]} = 0 ] ||
		count_tap "$logs/debug1-selftests.log" "debug:" "${debug1_plan[@]}"
}

# The two-kernel tests (selftests/mrc_pair*.sh through tools/testing/vm/pair.sh), one
# boot: guest a on the stock kernel, b on the debug one, wired plane by plane; mrc's
# own transfer, then NVMe over Fabrics and NFS over RDMA, each through a plane cut.
# They start once the stock VM is done, beside the debug VMs' last minutes, so that
# no more than three guests share the two cores. The cross-host verbs and netem checks
# (mrc_pair_verbs.sh) would take the stage past its 8 minutes: make check-long only.
pair_plan=(mrc_pair.sh mrc_pair_nvme.sh mrc_pair_nfs.sh)
[ -z "${MRC_CHECK_FULL:-}" ] || pair_plan=(mrc_pair.sh mrc_pair_verbs.sh mrc_pair_nvme.sh mrc_pair_nfs.sh)
pair_start()
{
	pair_t0=$(date +%s)
	"$t/vm/pair.sh" --kernel-a stock --kernel-b debug --timeout "$debug_limit" \
		--out "$logs/pair-vm" -- selftests/run.sh "${pair_plan[@]}" >"$logs/pair.log" 2>&1 &
	pair_pid=$!
}

# pair_judge: wait for the pair and judge each guest as vm_judge does one VM.
pair_judge()
{
	local side st p0=$passed f0=$failed s0=$skipped
	[ -n "${pair_pid:-}" ] || return 0
	wait "$pair_pid"
	grep -E '^[ab]: (# )*(not ok|#   |vm.sh:|splat-scan:)|^pair.sh:' "$logs/pair.log" |
		sed 's/^/# /' || true
	for side in a b; do
		st=$(sed -n "s/^pair.sh: .*$side ([a-z]*) status \([0-9]*\).*/\1/p" "$logs/pair.log")
		case $st in
		124) result fail "pair $side: guest reported its status (it hung)" ;;
		126 | '') result fail "pair $side: guest reported its status (it died)" ;;
		*) result pass "pair $side: guest reported its status" ;;
		esac
		if [ "$st" = 125 ] || ! "$t/vm/splat-scan.sh" "$logs/pair-vm/$side" >/dev/null; then
			result fail "pair $side: no kernel report from boot to power-off"
		else
			result pass "pair $side: no kernel report from boot to power-off"
		fi
		count_tap "$logs/pair-vm/$side.log" "pair $side:" "${pair_plan[@]}"
	done
	stage_row "two kernels (pair)" "$pair_t0" "$p0" "$f0" "$s0" sub
}

stage "VMs"
vm_judge stock-selftests "stock VM" count_tap "$logs/stock-selftests.log" "stock:" \
	"${stock_plan[@]}"
if wants pair; then
	if [ $stock_ok = 1 ] && [ $debug_ok = 1 ]; then
		pair_start
	else
		result fail "two kernels (not run: a build failed)"
	fi
fi
vm_judge stock612-selftests "stock 6.12 VM" count_tap "$logs/stock612-selftests.log" \
	"stock 6.12:" "${stock612_plan[@]}"
vm_judge debug1-selftests "debug VM 1" count_debug1
vm_judge debug2-selftests "debug VM 2" count_tap "$logs/debug2-selftests.log" "debug:" \
	"${debug2_plan[@]}"
pair_judge
stage

# One line per VM with each test's seconds: CI shows only the end of this output,
# and the time budget is what it most needs to see.
for f in stock-selftests stock612-selftests debug1-selftests debug2-selftests; do
	[ -e "$logs/$f.log" ] || continue
	times=$(sed -n 's/^# \(mrc_[a-z0-9_]*\)\.sh: \([0-9]*\) s$/\1 \2/p' "$logs/$f.log" |
		paste -sd ' ')
	[ -z "$times" ] || echo "# $f times (s): $times"
	# and the slowest checks, each with the work that led to it (lib.sh)
	[ ! -s "$logs/$f-vm/check-times.tsv" ] ||
		sort -t "$(printf '\t')" -k1,1nr "$logs/$f-vm/check-times.tsv" | head -n 5 |
		awk -F '\t' -v vm="$f" '{ printf "# %s slow: %.1f s %s: %s\n", vm, $1 / 1000, $2, $3 }'
done
# What failed, in few lines, where CI's tail shows it: each VM's first failed checks
# with what they expected and got, and its first kernel report with its call chain.
for f in stock-selftests stock612-selftests debug1-selftests debug2-selftests; do
	[ -e "$logs/$f.log" ] || continue
	grep -E -A2 '^# (# )?not ok ' "$logs/$f.log" | grep -v '^--$' | head -n 12 |
		sed "s/^/# $f: /"
	for g in console.log dmesg.txt; do
		[ -s "$logs/$f-vm/$g" ] || continue
		n=$(grep -nE "$("$t/vm/splat-scan.sh" --pattern)" "$logs/$f-vm/$g" |
			head -n 1 | cut -d: -f1)
		[ -n "$n" ] || continue
		sed -n "$n,$((n + 24))p" "$logs/$f-vm/$g" | sed "s/^/# $f: $g: /"
		break
	done
done
for f in "${failures[@]}"; do echo "# FAILED: $f"; done
"$t/ci-budget" --table "$logs/stages.tsv"
echo "# make check took $(( $(date +%s) - start )) s; logs in $logs"
line="$passed passed, $failed failed"
[ $skipped -gt 0 ] && line="$line, $skipped skipped"
echo "$line"
[ $failed -eq 0 ]
