#!/bin/sh
# The default sampling rate is perf's (-F 4000), so that a program with a
# period of its own does not alias with it: `cyctop record -g -e cpu-clock`
# of the 2:1 callers workload (workloads/callers, -fomit-frame-pointer),
# as issue 24 reported it, five times; caller_a's share of leaf_work's
# callers within 2 points of 66.7 every time.  At the old fixed 1 ms the
# same runs gave 57-83 % (a round of main's loop lasts about one period and
# the sampling locked onto the same call round after round).
. "$SRCDIR/tests/e2e/lib.sh"

CALLERS="$WORKLOADS/callers"
PROBE="$(dirname "$CYCTOP")/tests/e2e/cg-probe"
SECS=3

# The share is a binomial proportion of leaf_work's N stacks with a caller:
# sigma = 100 sqrt(p (1 - p) / N) points, p = 2/3.  2 points are 4 sigma at
# N = 8900 (0.47 points at N = 10000): a false failure in five runs has a
# chance of about 3 in 10000, while aliasing (10-16 points off) fails.
# 4000 Hz for 3 s of CPU gives about 12000 samples; fewer than 8900 stacks
# would be a rate under 3 kHz (the old 1 kHz gave 3000), which fails too.
NMIN=8900
i=1
while [ $i -le 5 ]; do
	run "$CYCTOP" record -g -e cpu-clock -o "$TMP/c.data" -- "$CALLERS" $SECS
	expect_rc 0 "cyctop record -g -e cpu-clock, run $i"
	run "$PROBE" -i "$TMP/c.data" leaf_work
	expect_rc 0 "cg-probe -i, run $i"
	a=$(awk '$1 == "caller" && $2 == "caller_a" { print $4 }' "$TMP/out")
	b=$(awk '$1 == "caller" && $2 == "caller_b" { print $4 }' "$TMP/out")
	[ -n "$a" ] && [ -n "$b" ] || fail "run $i: no caller_a/caller_b split: $(cat "$TMP/out")"
	ok
	n=$((a + b))
	[ "$n" -ge $NMIN ] ||
		fail "run $i: $n stacks of leaf_work with a caller, want >= $NMIN (4 kHz x ${SECS} s)"
	ok
	pct=$(awk -v a="$a" -v n="$n" 'BEGIN { printf "%.2f", 100 * a / n }')
	awk -v p="$pct" 'BEGIN { d = p - 66.67; if (d < 0) d = -d; exit !(d <= 2) }' ||
		fail "run $i: caller_a has $pct % of leaf_work's $n stacks, want 66.7 +- 2"
	ok
	echo "run $i: caller_a $pct % of $n stacks"
	rm -f "$TMP/c.data"
	i=$((i + 1))
done
done_ok
