#!/bin/sh
# The verdict of one `make check` (./build.sh check runs it in build/ and
# build-san/): tests/summary.sh DIR LABEL RC prints, when make failed, the
# end of its output and the suite's log; then the parts of passing tests
# that did not run (a script's SKIP-PART line, tests/e2e/lib.sh's
# skip_part, or a cmocka case's skip(), its reason printed just before it
# in the test's log) and the whole tests skipped, also into
# DIR/skipped-parts.txt; each failed test's complaint into DIR/failed.txt
# (build.sh prints it last); then "LABEL: N passed, N failed, N skipped (...)";
# and last a line of three numbers, passed failed skipped, for the totals.
set -u
dir=$1 label=$2 rc=$3
log=$dir/test-suite.log
if [ -f "$log" ]; then
	pass=$(awk '/^# PASS:/ {print $3}' "$log")
	fail=$(awk '/^# (FAIL|ERROR|XPASS):/ {s += $3} END {print s + 0}' "$log")
	skip=$(awk '/^# SKIP:/ {print $3}' "$log")
else
	pass=0 fail=1 skip=0
fi
if [ "$rc" -ne 0 ]; then
	tail -n 60 "$dir/check.out"
	[ -f "$log" ] && cat "$log"
	[ "$fail" -gt 0 ] || fail=1
fi
list=$dir/skipped-parts.txt
: >"$list"
# the logs of tests/style-checks.sh and of tests/unit/, e2e/ and fuzz/
for t in "$dir"/tests/*.log "$dir"/tests/*/*.log; do
	if grep -q '^:test-result: SKIP' "${t%.log}.trs" 2>/dev/null; then
		printf '  skipped whole: %s: %s\n' "$(basename "${t%.log}")" "$(grep -m1 'SKIP' "$t")"
		continue
	fi
	grep -q '^:test-result: PASS' "${t%.log}.trs" 2>/dev/null || continue
	{
		grep -h '^SKIP-PART:' "$t"
		grep -h '^\[  SKIPPED \] [A-Za-z_]' "$t" | sort -u
	} | sed "s|^|  in $(basename "${t%.log}"): |" >>"$list"
done
cat "$list"
parts=$(wc -l <"$list")
# each failed test with its first lines of complaint, into DIR/failed.txt:
# build.sh prints them after the totals, where a cut log's reader looks
for t in "$dir"/tests/*.log "$dir"/tests/*/*.log; do
	grep -qE '^:test-result: (FAIL|ERROR|XPASS)' "${t%.log}.trs" 2>/dev/null || continue
	why=$(grep -m3 -E 'FAIL|ERROR|Assertion|runtime error|Sanitizer' "$t" | cut -c1-300)
	[ -n "$why" ] || why=$(tail -n 3 "$t" | cut -c1-300)
	printf '%s\n' "$why" | sed "s|^|  $label: $(basename "${t%.log}"): |"
done >"$dir/failed.txt"
printf '%s: %s passed, %s failed, %s skipped (%s whole tests, %s parts of passing ones: listed above)\n' \
	"$label" "${pass:-0}" "$fail" $((${skip:-0} + parts)) "${skip:-0}" "$parts"
echo "${pass:-0} $fail $((${skip:-0} + parts))"
