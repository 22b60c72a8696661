#!/bin/sh
# Attaching to a running process: threads it starts after attach, a library
# it dlopens after attach, its exit during the watch; detaching leaves an
# unfinished target running.
. "$SRCDIR/tests/e2e/lib.sh"

READY="$TMP/ready" GO="$TMP/go"
"$WORKLOADS/threads" "$READY" "$GO" "$WORKLOADS/libplugin.so" 2 &
PID=$!
trap 'kill $PID 2>/dev/null; rm -rf "$TMP"' EXIT
wait_for '[ -e "$READY" ]' 20 "threads workload ready"

"$CYCTOP" -b -d 0.5 --format json -e cpu-clock -p $PID >"$TMP/attach.json" 2>"$TMP/attach.err" &
CY=$!
wait_for '[ -s "$TMP/attach.json" ]' 30 "first table after attach"
touch "$GO"
wait_for '! kill -0 $CY 2>/dev/null' 60 "cyctop ends with its target"
RC=0
wait $CY || RC=$?
expect_rc 0 "attach run"
expect_true "$(json_last "$TMP/attach.json" 'samples("thread_work","cpu-clock") > 50')" \
	"samples of threads started after attach"
expect_true "$(json_last "$TMP/attach.json" 'samples("plugin_work","cpu-clock") > 20')" \
	"samples in a library dlopened after attach"
expect_true "$(json_last "$TMP/attach.json" 'any(f["name"] == "plugin_work" and f["module"].endswith("libplugin.so") for f in o["functions"])')" \
	"module of the dlopened function"
expect_true "$(json_last "$TMP/attach.json" 'o["ended"] and o["exit_status"] in (0, None)')" \
	"exit during the watch reported"

# Detach: -n ends the watch, the target keeps running unharmed.
"$WORKLOADS/mix" 30 &
MIXPID=$!
run "$CYCTOP" -b -n 1 -d 0.3 -p $MIXPID
expect_rc 0 "attach -n 1"
expect_out "work_" "mix functions while attached"
kill -0 $MIXPID 2>/dev/null || fail "attached target did not survive detach"
ok
grep -q '^State:.*[RS]' /proc/$MIXPID/status || fail "target left stopped: $(grep State /proc/$MIXPID/status)"
ok
kill $MIXPID
wait $MIXPID 2>/dev/null || true

done_ok
