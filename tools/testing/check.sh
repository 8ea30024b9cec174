#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: install what is missing, build the module and tools against both kernels,
# run the static checkers, the KUnit suites in the debug VM and the selftests in the
# stock and the debug VM. Every KUnit case and every selftest counts on its own; the
# last line is "N passed, N failed[, N skipped]" and the exit status is non-zero when
# anything failed, including a kernel splat in either guest.
#
# Environment: MRC_CHECK_ONLY="stock debug kunit static" limits the stages (for a quick
# loop while developing; make check itself always runs them all).
set -uo pipefail
tree=$(cd "$(dirname "$0")/../.." && pwd)
cd "$tree" || exit 1
t=$tree/tools/testing
logs=$tree/.build/check
rm -rf "$logs"
mkdir -p "$logs"
only=${MRC_CHECK_ONLY:-static kunit stock debug}
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

# count_tap FILE PREFIX: count the selftest runner's top-level TAP lines.
count_tap()
{
	local line n=0
	while IFS= read -r line; do
		if [[ $line =~ ^ok\ [0-9]+\ selftests:\ mrc:\ ([^ ]+)\ \#\ SKIP ]]; then
			result skip "$2 ${BASH_REMATCH[1]}" "(exit 4)"
		elif [[ $line =~ ^ok\ [0-9]+\ selftests:\ mrc:\ ([^ ]+) ]]; then
			result pass "$2 ${BASH_REMATCH[1]}"
		elif [[ $line =~ ^not\ ok\ [0-9]+\ selftests:\ mrc:\ (.+) ]]; then
			result fail "$2 ${BASH_REMATCH[1]}"
		else
			continue
		fi
		n=$((n + 1))
	done <"$1"
	[ $n -gt 0 ] || result fail "$2 selftests reported no result"
}

# count_ktap FILE: KUnit cases are the 4-space-indented results inside each suite.
count_ktap()
{
	local line suite='' n=0
	while IFS= read -r line; do
		if [[ $line =~ ^\ {4}#\ Subtest:\ (.+)$ ]]; then
			suite=${BASH_REMATCH[1]}
		elif [[ $line =~ ^\ {4}ok\ [0-9]+\ (.+)\ \#\ SKIP(.*)$ ]]; then
			result skip "kunit $suite.${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
			n=$((n + 1))
		elif [[ $line =~ ^\ {4}ok\ [0-9]+\ (.+)$ ]]; then
			result pass "kunit $suite.${BASH_REMATCH[1]}"
			n=$((n + 1))
		elif [[ $line =~ ^\ {4}not\ ok\ [0-9]+\ (.+)$ ]]; then
			result fail "kunit $suite.${BASH_REMATCH[1]}"
			n=$((n + 1))
		elif [[ $line =~ ^not\ ok\ [0-9]+\ (.+)$ ]]; then
			# a suite can fail outside its cases (init/exit)
			result fail "kunit suite ${BASH_REMATCH[1]}"
		fi
	done <"$1"
	[ $n -gt 0 ] || result fail "kunit reported no case"
}

# vm_run NAME FLAVOUR LOG LIMIT CMD: boot, run, and count "guest log clean" on its own.
# LIMIT (seconds) is generous: TCG on a busy 2-core host runs several times slower
# than on an idle one, and a time-out must mean a hang, not a loaded machine.
vm_run()
{
	local name=$1 flavour=$2 log=$logs/$3.log out=$logs/$3-vm limit=$4 rc
	shift 4
	"$t/vm/vm.sh" --kernel "$flavour" --quiet --timeout "$limit" --out "$out" -- "$@" \
		>"$log" 2>&1
	rc=$?
	# the failures' own explanations, and the harness's verdict
	grep -E '^(# )*(not ok|#   |vm.sh:|splat-scan:)|FAILED at|^ {4}Expected|^ {4}[0-9]+:|^ {8}[^ ]' \
		"$log" | sed 's/^/# /' || true
	[ -e "$out/boot-splat" ] &&
		result skip "$name: boot without kernel reports" \
			"(kernel report during two boots before mrc loaded; lockdep was off)"
	case $rc in
	0) result pass "$name: guest log clean, status 0" ;;
	125) result fail "$name: kernel splat in the guest log" ;;
	124) result fail "$name: timed out" ;;
	*) if "$t/vm/splat-scan.sh" "$out" >/dev/null; then
		result pass "$name: guest log clean"
	else
		result fail "$name: kernel splat in the guest log"
	fi ;;
	esac
	return 0
}

start=$(date +%s)
step "packages installed" deps "$t/deps.sh" || { echo "0 passed, 1 failed"; exit 1; }
stock_ok=0 debug_ok=0
step "build mrc.ko against stock $("$t/vm/stock-kver.sh") (W=1, no warnings)" build-stock \
	"$t/build.sh" stock && stock_ok=1
step "build mrcctl and mrc-xfer" build-tools \
	sh -c 'make -s -C tools/mrcctl && make -s -C tools/mrc-xfer' || stock_ok=0
if wants static; then
	step "checkpatch --strict" checkpatch "$t/checkpatch.sh"
	step "sparse C=2 against stock headers" sparse "$t/build.sh" stock sparse
fi
if wants kunit || wants debug; then
	step "debug kernel built or cached" debug-kernel "$t/vm/debug-kernel.sh" &&
		step "build mrc.ko + mrc_test.ko against the debug kernel (W=1, no warnings)" \
			build-debug "$t/build.sh" debug && debug_ok=1
	# The KUnit suites only build against the debug kernel: check them there too.
	wants static && [ $debug_ok = 1 ] &&
		step "sparse C=2 against the debug kernel" sparse-debug "$t/build.sh" debug sparse
fi

if wants stock; then
	if [ $stock_ok = 1 ]; then
		vm_run "stock VM selftests" stock stock-selftests 2400 selftests/run.sh
		count_tap "$logs/stock-selftests.log" "stock:"
	else
		result skip "stock VM selftests" "(build failed)"
	fi
fi
if wants kunit; then
	if [ $debug_ok = 1 ]; then
		vm_run "debug VM KUnit" debug kunit 1200 tools/testing/kunit.sh
		count_ktap "$logs/kunit.log"
	else
		result skip "debug VM KUnit" "(build failed)"
	fi
fi
if wants debug; then
	if [ $debug_ok = 1 ] && [ $stock_ok = 1 ]; then
		# mrc_fabric.sh checks the test fabric itself (the kernel's seg6local, the
		# static routes), not mrc: the stock VM runs it. mrc_stev.sh's data path differs from
		# mrc_multipath.sh's only by the flow label, which KUnit checks here
		# (ev_stev_*); the stock VM runs it. mrc_srv6_hosts.sh runs the code of
		# mrc_srv6.sh with other host numbers in the templates, on a fabric of
		# four hosts whose 28 namespaces cost minutes to build under the debug
		# kernel; the stock VM runs it. mrc_srv6.sh (13 minutes here) asserts
		# which paths retire when spines fail, a question of timing the stock
		# VM answers; the debug kernel checks the same SRv6 data path in
		# mrc_srv6_ctl.sh and its retirement and probe code in mrc_multipath.sh.
		# That keeps the debug VM inside CI's time (stop 15's CI took 74 of
		# its 90 minutes). Its limit, 70 minutes, is what CI leaves it after the
		# other stages (about 18): a guest that hangs or livelocks ends here with
		# its results counted, not with CI's own kill.
		# shellcheck disable=SC2046
		vm_run "debug VM selftests" debug debug-selftests 4200 selftests/run.sh \
			$(make -s --no-print-directory -C "$t/../../selftests" print-tests | tr ' ' '\n' |
				grep -vx -e mrc_fabric.sh -e mrc_stev.sh -e mrc_srv6_hosts.sh \
					-e mrc_srv6.sh)
		count_tap "$logs/debug-selftests.log" "debug:"
	else
		result skip "debug VM selftests" "(build failed)"
	fi
fi

# One line per VM with each test's seconds: CI shows only the end of this output,
# and the time budget is what it most needs to see.
for f in stock-selftests debug-selftests; do
	[ -e "$logs/$f.log" ] || continue
	echo "# $f times (s): $(sed -n 's/^# \(mrc_[a-z0-9_]*\)\.sh: \([0-9]*\) s$/\1 \2/p' \
		"$logs/$f.log" | paste -sd ' ')"
done
echo "# make check took $(( $(date +%s) - start )) s; logs in $logs"
for f in "${failures[@]}"; do echo "# FAILED: $f"; done
line="$passed passed, $failed failed"
[ $skipped -gt 0 ] && line="$line, $skipped skipped"
echo "$line"
[ $failed -eq 0 ]
