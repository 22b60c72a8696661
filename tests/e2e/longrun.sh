#!/bin/sh
# Long run: cyctop watches the thread storm (hundreds of short-lived threads
# a second, a dlopen/dlclose loop) with -g and --window for LONGRUN_SECONDS
# (default 60; bench/README.md's figure is a 10-minute run of the same driver,
# bench/longrun).  The windows must add up to the cumulative counts for
# every event, function, module and thread, and cyctop's RSS must stop
# growing once its tables are full (bench/longrun says how it judges both).
. "$SRCDIR/tests/e2e/lib.sh"

# 60.NNN1 seconds (NNN from our pid): a storm no other test runs, for the
# pgrep at the end (longrun-syswide.sh runs storm 60 at the same time)
SECS=${LONGRUN_SECONDS:-60.$(($$ % 900 + 100))1}
STORM="$WORKLOADS/storm" PLUGIN="$WORKLOADS/libplugin.so"
# Under ASan freed memory sits in the quarantine (up to 256 MB) and RSS
# says nothing about cyctop's tables: there only the counts are checked,
# over half the time (30.NNN1 s: the sanitizer finds what it finds in the
# storm's first seconds as in its last)
if ldd "$CYCTOP" 2>/dev/null | grep -q libasan; then
	LONGRUN_GROWTH_MB=1000000
	export LONGRUN_GROWTH_MB
	SECS=${LONGRUN_SECONDS:-30.$(($$ % 900 + 100))1}
fi
run python3 "$SRCDIR/bench/longrun" "$CYCTOP" "$STORM" "$PLUGIN" "$SECS" -g -e cpu-clock
cat "$TMP/out" >&2
expect_rc 0 "long run"
expect_out "counts: cumulative = sum of windows for every row" "windows add up"
expect_out "memory: peak" "RSS measured"
grep -q "memory: .*: bounded" "$TMP/out" || fail "memory growing: $(grep memory: "$TMP/out")"
ok
windows=$(awk '/ windows, / { print $1 }' "$TMP/out")
[ "$windows" -ge $((${SECS%.*} / 2)) ] || fail "only $windows windows in $SECS s"
ok
threads=$(sed -n 's/.* samples, \([0-9]*\) threads,.*/\1/p' "$TMP/out")
[ "$threads" -gt 100 ] || fail "only $threads threads sampled"
ok
pgrep -f "$STORM $(printf %g "$SECS") " >/dev/null && fail "storm left behind"
ok
done_ok
