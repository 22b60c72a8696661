#!/bin/sh
# Each self-test can fail: CYCTOP_SELFTEST_FAULT breaks one thing on
# purpose and the check that watches it must say FAILED! (exit 1).  Here the
# checks that run without a PMU: host (the kernel's PMU verdict inverted),
# sampling (the 2:1 program run 1:1; leader sampling's group without its
# last member), software, and without a PMU perf and mux on software
# events (time_running read 10% short: every count scaled 11% high, every
# coverage 0.9).  The hardware checks' faults are shown in the arm64 guest
# (tests/arm64/run.sh, checks.py).
. "$SRCDIR/tests/e2e/lib.sh"

fault() { # FAULT TEST LINE-PATTERN
	CYCTOP_SELFTEST_FAULT=$1 run "$CYCTOP" selftest "$2"
	[ "$RC" -eq 1 ] || fail "fault $1: selftest $2 exit $RC, want 1: $(cat "$TMP/out" "$TMP/err")"
	grep -q "$3" "$TMP/out" || fail "fault $1: $(cat "$TMP/out")"
	ok
}
fault host host ': FAILED! (model .* but the kernel has\|: FAILED! (the kernel has core PMU'
fault member sampling ': FAILED! (leader sampling: sample 1 carries 2 values, the group has 3'
fault split sampling ': FAILED! (st_loop_a has [45][0-9]\.[0-9]*% of the samples, not 66.67%'
if ! host_has_pmu; then
	fault scale mux ': FAILED! (cpu-clock: cyctop.s coverage 0.9000, the kernel.s'
	if perf --version >/dev/null 2>&1; then
		# some +11% whatever the faults' count (4,553 under a sanitizer)
		fault scale perf ': FAILED! (page-faults of faults:2000: cyctop counts [0-9]*, perf stat [0-9]* (+1[012]\.[0-9]*%'
	fi
fi
fault scale software ': FAILED! (page-faults: 22[0-9][0-9] more for faults:2000'
done_ok
