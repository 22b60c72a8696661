#!/bin/sh
# Per-thread samples: the batch JSON's threads (names from COMM, inherited
# by new threads, ends from EXIT) add up to the event's samples exactly, and
# --tid restricts the functions to one thread.
. "$SRCDIR/tests/e2e/lib.sh"

THREADS="$WORKLOADS/threads" PLUGIN="$WORKLOADS/libplugin.so"
CY='' PID=''
trap 'kill $CY $PID 2>/dev/null; rm -rf "$TMP"' EXIT

# The main thread's row (a list of one) and the others, in json_last's python
MAIN='[t for t in o["threads"] if t["tid"] == TID]'
OTHERS='[t for t in o["threads"] if t["tid"] != TID]'
tjson() { # FILE TID EXPRESSION (TID stands for the main thread's tid)
	json_last "$1" "$(printf '%s' "$3" | sed "s/TID/$2/g")"
}

# Launched: the main thread (tid = pid) calls plugin_work while two threads
# run thread_work, for 2 s of wall time: about 1300 samples of cpu-clock per
# thread on two idle CPUs; the bounds below (20, 50, 100) leave room for a
# heavily loaded machine.  Sums are exact: every sample has one thread.
READY="$TMP/ready" GO="$TMP/go"
"$CYCTOP" -b -d 0.5 --format json -e cpu-clock -- "$THREADS" "$READY" "$GO" "$PLUGIN" 2 \
	>"$TMP/launch.json" 2>"$TMP/launch.err" &
CY=$!
wait_for '[ -s "$READY" ]' 30 "threads workload ready"
PID=$(cat "$READY")
touch "$GO"
wait_for '! kill -0 $CY 2>/dev/null' 60 "cyctop ends with its target"
RC=0
wait $CY || RC=$?
CY=''
expect_rc 0 "launch run"
J="$TMP/launch.json"
expect_true "$(tjson "$J" "$PID" 'sum(t["samples"]["cpu-clock"] for t in o["threads"]) == event("cpu-clock")["samples"] > 0')" \
	"threads sum $(tjson "$J" "$PID" 'sum(t["samples"]["cpu-clock"] for t in o["threads"])') vs samples $(json_last "$J" 'event("cpu-clock")["samples"]')"
expect_true "$(tjson "$J" "$PID" 'abs(sum(t["percent"]["cpu-clock"] for t in o["threads"]) - 100) < 0.01')" \
	"thread percents add up to 100"
expect_true "$(tjson "$J" "$PID" "len($MAIN) == 1 and $MAIN[0]['comm'] == 'threads' and $MAIN[0]['samples']['cpu-clock'] > 20")" \
	"main thread: $(tjson "$J" "$PID" "$MAIN")"
# (a sanitizer runtime may add a short-lived thread of its own: at least two)
expect_true "$(tjson "$J" "$PID" "len([t for t in $OTHERS if t['comm'] == 'threads' and t['samples']['cpu-clock'] > 50]) >= 2")" \
	"two worker threads named after their parent: $(tjson "$J" "$PID" "$OTHERS")"
expect_true "$(tjson "$J" "$PID" 'len(set(t["tid"] for t in o["threads"])) == len(o["threads"])')" \
	"one row per thread"
expect_true "$(tjson "$J" "$PID" 'all(t["ended"] for t in o["threads"])')" \
	"every thread ended: $(tjson "$J" "$PID" '[(t["tid"], t["ended"]) for t in o["threads"]]')"
expect_true "$(json_last "$J" '"tid" not in o and samples("thread_work","cpu-clock") > 100')" \
	"unfiltered table has every thread's functions"

# Attached with --tid PID: the table is the main thread's (plugin_work, never
# thread_work) while the threads list every thread; the main thread was
# named from /proc at the attach, the workers inherit its name.
rm -f "$READY" "$GO"
"$THREADS" "$READY" "$GO" "$PLUGIN" 2 &
PID=$!
wait_for '[ -s "$READY" ]' 30 "threads workload ready for the attach"
"$CYCTOP" -b -d 0.5 --format json -e cpu-clock --tid $PID -p $PID >"$TMP/tid.json" \
	2>"$TMP/tid.err" &
CY=$!
wait_for '[ -s "$TMP/tid.json" ]' 30 "first table after attach"
touch "$GO"
wait_for '! kill -0 $CY 2>/dev/null' 60 "cyctop ends with its attached target"
RC=0
wait $CY || RC=$?
CY=''
expect_rc 0 "attach --tid run"
wait $PID 2>/dev/null || true
J="$TMP/tid.json"
expect_true "$(json_last "$J" "o['tid'] == $PID")" "the JSON says which thread"
expect_true "$(json_last "$J" 'samples("plugin_work","cpu-clock") > 20 and samples("thread_work","cpu-clock") == 0')" \
	"main thread's functions only: $(json_last "$J" '[(f["name"], f["samples"]) for f in o["functions"]]')"
expect_true "$(tjson "$J" "$PID" "sum(f['samples']['cpu-clock'] for f in o['functions']) == $MAIN[0]['samples']['cpu-clock']")" \
	"the zoomed table holds exactly the main thread's samples"
expect_true "$(tjson "$J" "$PID" "$MAIN[0]['comm'] == 'threads' and len([t for t in $OTHERS if t['comm'] == 'threads' and t['samples']['cpu-clock'] > 50]) >= 2")" \
	"threads named at the attach and after: $(tjson "$J" "$PID" 'o["threads"]')"
expect_true "$(tjson "$J" "$PID" 'sum(t["samples"]["cpu-clock"] for t in o["threads"]) == event("cpu-clock")["samples"]')" \
	"threads still add up under --tid"
PID=''

run "$CYCTOP" -b --tid x -- "$THREADS"
expect_rc 2 "bad --tid"
expect_err "--tid 'x': want a whole number from 1 to 2147483647" "bad --tid said"

done_ok
