#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kselftest-style runner: runs each TEST_PROGS entry (or the tests named as arguments)
# with a time limit and prints TAP 13. Exit status 4 from a test is a SKIP, printed as
# such and listed again at the end so that nobody mistakes it for a pass.
set -u
dir=$(cd "$(dirname "$0")" && pwd)
if [ $# -gt 0 ]; then
	tests=("$@")
else
	read -ra tests <<<"$(make -s -C "$dir" --no-print-directory print-tests)"
fi
limit=$(sed -n 's/^timeout=//p' "$dir/settings" 2>/dev/null)
limit=${limit:-300}

echo "TAP version 13"
echo "1..${#tests[@]}"
n=0 failed=0 skipped=()
for t in "${tests[@]}"; do
	n=$((n + 1))
	name=$(basename "$t")
	echo "# selftests: mrc: $name"
	start=$SECONDS
	timeout --kill-after=10 "$limit" "$dir/$name" 2>&1 | sed 's/^/# /'
	rc=${PIPESTATUS[0]}
	echo "# $name: $((SECONDS - start)) s"
	case $rc in
	0) echo "ok $n selftests: mrc: $name" ;;
	4) echo "ok $n selftests: mrc: $name # SKIP"; skipped+=("$name") ;;
	124|137) echo "not ok $n selftests: mrc: $name # TIMEOUT ${limit}s"; failed=$((failed + 1)) ;;
	*) echo "not ok $n selftests: mrc: $name # exit=$rc"; failed=$((failed + 1)) ;;
	esac
done
if [ ${#skipped[@]} -gt 0 ]; then
	echo "# SKIPPED (not passed): ${skipped[*]}"
fi
[ $failed -eq 0 ]
