#!/bin/sh
# Long run, system-wide: cyctop -a --window watches the thread storm and a
# storm of short processes for LONGRUN_SECONDS (default 60).  The windows
# must add up for every event, function, module, thread and process; RSS
# must not grow with the processes beyond their rows (the spaces of ended
# processes are freed, their files' function tables shared) and nothing of
# the load may be left (bench/longrun -a).
. "$SRCDIR/tests/e2e/lib.sh"

SECS=${LONGRUN_SECONDS:-60}
STORM="$WORKLOADS/storm" PLUGIN="$WORKLOADS/libplugin.so"
if ldd "$CYCTOP" 2>/dev/null | grep -q libasan; then  # see longrun.sh
	LONGRUN_KB_PER_PROCESS=1000000
	export LONGRUN_KB_PER_PROCESS
	SECS=${LONGRUN_SECONDS:-30}
fi
run python3 "$SRCDIR/bench/longrun" "$CYCTOP" "$STORM" "$PLUGIN" "$SECS" -a -e cpu-clock
cat "$TMP/out" >&2
expect_rc 0 "long run -a"
expect_out "counts: cumulative = sum of windows for every row" "windows add up"
grep -q "memory: .*: bounded" "$TMP/out" || fail "memory growing: $(grep memory: "$TMP/out")"
ok
expect_out "load: every process ended" "no process left"
procs=$(sed -n 's/^processes: \([0-9]*\) sampled, \([0-9]*\) ended$/\2/p' "$TMP/out")
[ "${procs:-0}" -gt 100 ] || fail "only ${procs:-0} ended processes seen"
ok
done_ok
