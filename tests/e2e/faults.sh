#!/bin/sh
# Faults on real processes, batch mode: a target that execs, forks, is
# stopped and continued, is killed, storms threads, dlopens in a loop; too
# few file descriptors; SIGHUP to cyctop; cyctop record killed; EACCES for an
# unprivileged user.  Each time cyctop stays correct,
# exits with the right status and leaves nothing stopped or orphaned.
. "$SRCDIR/tests/e2e/lib.sh"

MIX="$WORKLOADS/mix" STORM="$WORKLOADS/storm" PLUGIN="$WORKLOADS/libplugin.so"
# A per-run tag in the workloads' arguments (mix 1.00$TAG is 1 s of CPU),
# so that pgrep -f finds this run's processes and nobody else's.
TAG=$$
CY='' PID=''
# (a failing case may leave a tagged workload: pkill finds it)
# (its arguments exactly: "[0-9]$TAG\$" also matched tests beside this one,
# tui.sh's mix 60.1PID when PID ended in this one's: its watch ended)
LEFT="(mix|storm) (1\.0[012]|2\.0[56]|60\.(0[3-9]|1[01]))$TAG\$"
trap 'kill -CONT $PID 2>/dev/null; kill $CY $PID 2>/dev/null; pkill -f "$LEFT"; rm -rf "$TMP"' EXIT
JSON="-b --format json -e cpu-clock"

lines() { # FILE: complete (newline-terminated) JSON lines so far
	[ -e "$1" ] || { echo 0; return; }
	wc -l <"$1"
}

first_pid() { # FILE: the target pid in the first (complete) object
	head -n 1 "$1" | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["pid"])'
}

# gone PATTERN DESC: no process of this run matches PATTERN (polls: a dying
# process may need a moment to be reaped by init)
gone() {
	wait_for '! pgrep -f "$1" >/dev/null' 20 "$2: $(pgrep -af "$1")"
	ok
}

state() { # PID: the State letter in /proc/PID/status, empty when gone
	awk '/^State:/ { print $2 }' "/proc/$1/status" 2>/dev/null
}

# background CMD...: cyctop in the background, stdout $TMP/bg.json
background() {
	rm -f "$TMP/bg.json"
	"$@" >"$TMP/bg.json" 2>"$TMP/bg.err" &
	CY=$!
}

finish() { # TIMEOUT DESC: wait for the background cyctop, status in $RC
	wait_for '! kill -0 $CY 2>/dev/null' "$1" "$2"
	RC=0
	wait $CY || RC=$?
	CY=''
	cp "$TMP/bg.err" "$TMP/err"
}

# 1. The target execs another program: the new image's functions are found.
run "$CYCTOP" $JSON -d 0.5 -- sh -c "exec '$MIX' 1.00$TAG"
expect_rc 0 "exec run"
J="$TMP/out"
expect_true "$(json_last "$J" 'samples("work_60","cpu-clock") > 50 and any(f["name"] == "work_60" and f["module"].endswith("/mix") for f in o["functions"])')" \
	"exec'd program's functions: $(json_last "$J" '[(f["name"], f["module"], f["samples"]) for f in o["functions"]]')"
expect_true "$(json_last "$J" 'o["ended"] and o["exit_status"] == 0')" "exec'd program's exit reported"
gone "mix 1.00$TAG" "exec'd program left behind"

# 2. The target forks two children that exit: both are counted, cyctop ends
# with the shell.
run "$CYCTOP" $JSON -d 0.5 -- sh -c "'$MIX' 1.01$TAG & '$MIX' 1.02$TAG & wait"
expect_rc 0 "fork run"
# (not by name: a child's exec COMM may be overwritten by its FORK read
# later from another CPU's ring, leaving the row named "sh")
expect_true "$(json_last "$J" 'len([t for t in o["threads"] if t["tid"] != o["target"]["pid"] and t["samples"]["cpu-clock"] > 50]) == 2')" \
	"both children counted: $(json_last "$J" 'o["threads"]')"
expect_true "$(json_last "$J" 'sum(t["samples"]["cpu-clock"] for t in o["threads"]) == event("cpu-clock")["samples"] and samples("work_60","cpu-clock") > 100')" \
	"children's samples in the totals"
expect_true "$(json_last "$J" 'o["ended"] and o["exit_status"] == 0 and o["target"]["command"] == "sh"')" \
	"the shell's exit reported"
gone "mix 1.0[12]$TAG" "forked children left behind"

# 3. An attached target stopped and continued: tables keep coming while it
# is stopped, and -n leaves it running, not stopped.
"$MIX" 60.03$TAG &
PID=$!
background "$CYCTOP" $JSON -d 0.3 -n 12 -p $PID
wait_for '[ "$(lines "$TMP/bg.json")" -ge 1 ]' 20 "first table after attach"
kill -STOP $PID
wait_for '[ "$(state $PID)" = T ]' 20 "target stopped"
N=$(lines "$TMP/bg.json")
wait_for '[ "$(lines "$TMP/bg.json")" -ge $((N + 2)) ]' 20 "tables while the target is stopped"
ok
kill -CONT $PID
wait_for '[ "$(state $PID)" != T ]' 20 "target continued"
finish 30 "cyctop ends after -n 12"
expect_rc 0 "attach -n 12 across SIGSTOP"
expect_true "$(json_last "$TMP/bg.json" 'not o.get("ended") and samples("work_60","cpu-clock") > 0')" \
	"attached target not reported ended"
kill -0 $PID 2>/dev/null || fail "attached target did not survive"
case $(state $PID) in
R | S) ok ;;
*) fail "attached target left in state $(state $PID)" ;;
esac
kill $PID
wait $PID 2>/dev/null || true
PID=''

# 4. The launched target killed mid-watch: the last table covers the end and
# reports the shell-style status 128 + 9, which is cyctop's too (issue 19).
background "$CYCTOP" $JSON -d 0.3 -- "$MIX" 60.04$TAG
wait_for '[ "$(lines "$TMP/bg.json")" -ge 1 ]' 20 "first table"
PID=$(first_pid "$TMP/bg.json")
kill -KILL $PID
finish 20 "cyctop ends with its killed target"
PID=''
expect_rc 137 "killed target run: its status"
expect_true "$(json_last "$TMP/bg.json" 'o["ended"] and o["exit_status"] == 137')" \
	"status 137: $(tail -n 1 "$TMP/bg.json" | head -c 300)"
expect_true "$(json_last "$TMP/bg.json" 'samples("work_60","cpu-clock") > 0')" "final table has the samples"
run "$CYCTOP" -b -e cpu-clock -d 0.3 -- sh -c 'kill -KILL $$'
expect_rc 137 "text run of a killed target: its status"
expect_out "killed by SIGKILL (status 137)" "text says the signal and the status"
gone "mix 60.04$TAG" "killed target left behind"

# 5. A thread storm (hundreds of threads a second, each living a few ms):
# totals stay consistent.  Nothing is lost: the run writes some 830 KB of
# records (12,800 samples and 1,900 FORK and EXIT pairs on 2 CPUs; at most
# 2.05 s x 4000 Hz x 48 B + 3,800 x 56 B = 610 KB into any one CPU's
# ring, as perf report -D shows the sizes), and -m 256 gives each ring 1 MiB (cyctop's own size for -g
# dwarf): the kernel drops records only into a full ring, so the ring holds
# the whole run even if cyctop never read it, and any lost is miscounted.
run "$CYCTOP" $JSON -m 256 -d 0.5 -- "$STORM" 2.05$TAG
expect_rc 0 "storm run"
expect_true "$(json_last "$J" 'o["ended"] and o["exit_status"] == 0')" \
	"storm exited 0: $(tail -n 1 "$J" | head -c 300)"
expect_true "$(json_last "$J" 'event("cpu-clock")["samples"] > 0 and samples("storm_work","cpu-clock") > 0')" \
	"storm samples: $(json_last "$J" 'event("cpu-clock")')"
expect_true "$(json_last "$J" 'type(o["lost"]) is int and o["lost"] == 0')" "nothing lost: $(json_last "$J" 'o["lost"]')"
expect_true "$(json_last "$J" 'sum(t["samples"]["cpu-clock"] for t in o["threads"]) == event("cpu-clock")["samples"] == sum(f["samples"]["cpu-clock"] for f in o["functions"])')" \
	"threads and functions add up: $(json_last "$J" '(event("cpu-clock")["samples"], sum(t["samples"]["cpu-clock"] for t in o["threads"]), sum(f["samples"]["cpu-clock"] for f in o["functions"]), len(o["threads"]))')"
expect_true "$(json_last "$J" 'len(o["threads"]) > 50')" "many threads seen: $(json_last "$J" 'len(o["threads"])')"
gone "storm 2.05$TAG" "storm left behind"

# 6. dlopen/dlclose in a loop (with the storm): the plugin is found.
run "$CYCTOP" $JSON -d 0.5 -- "$STORM" 2.06$TAG "$PLUGIN"
expect_rc 0 "dlopen loop run"
expect_true "$(json_last "$J" 'o["ended"] and o["exit_status"] == 0')" "dlopen loop exited 0"
expect_true "$(json_last "$J" 'any(f["name"] == "plugin_work" and f["module"].endswith("libplugin.so") and f["samples"]["cpu-clock"] > 0 for f in o["functions"])')" \
	"plugin functions: $(json_last "$J" '[(f["name"], f["module"], f["samples"]) for f in o["functions"]]')"
expect_true "$(json_last "$J" 'sum(t["samples"]["cpu-clock"] for t in o["threads"]) == event("cpu-clock")["samples"] > 0')" \
	"dlopen loop totals"
gone "storm 2.06$TAG" "dlopen loop left behind"

# 7. Too few file descriptors for the events (several per CPU each): one
# line naming the problem, exit 1, no target left.
EVENTS=cpu-clock,task-clock,page-faults,minor-faults,major-faults,context-switches,cpu-migrations
RC=0
(ulimit -n 10 && exec "$CYCTOP" -b -e $EVENTS -- "$MIX" 60.07$TAG) >"$TMP/out" 2>"$TMP/err" || RC=$?
expect_rc 1 "EMFILE"
expect_err "too many open files" "EMFILE named"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "EMFILE: stderr is not one line: $(cat "$TMP/err")"
ok
gone "mix 60.07$TAG" "target left behind after EMFILE"

# 8. SIGHUP to cyctop: a last table, exit 128 + 1 (as perf record), the
# launched target terminated.
background "$CYCTOP" $JSON -d 0.3 -- "$MIX" 60.08$TAG
wait_for '[ "$(lines "$TMP/bg.json")" -ge 1 ]' 20 "first table"
PID=$(first_pid "$TMP/bg.json")
N=$(lines "$TMP/bg.json")
kill -HUP $CY
finish 20 "cyctop ends on SIGHUP"
expect_rc 129 "SIGHUP: 128 + 1"
[ "$(lines "$TMP/bg.json")" -gt "$N" ] || fail "no last table after SIGHUP"
ok
wait_for '! kill -0 $PID 2>/dev/null' 20 "target terminated"
ok
PID=''
gone "mix 60.08$TAG" "target left behind after SIGHUP"

# 9. cyctop record killed with SIGKILL mid-recording: what it flushed (once a
# poll, after the attrs written first) reads as an unfinished recording, by
# cyctop -i (with a notice) and by perf report.  The target outlives a
# SIGKILLed cyctop: the test ends it.
rm -f "$TMP/killed.data"
background "$CYCTOP" record -e cpu-clock -o "$TMP/killed.data" -- "$MIX" 60.09$TAG
wait_for '[ "$(stat -c %s "$TMP/killed.data" 2>/dev/null || echo 0)" -gt 30000 ]' 30 \
	"recording grows"
kill -KILL $CY
finish 20 "cyctop killed"
pkill -f "mix 60.09$TAG"
gone "mix 60.09$TAG" "target of the killed recording"
run "$CYCTOP" -b --format json -i "$TMP/killed.data"
expect_rc 0 "reading a killed recording"
expect_err "killed.data: an unfinished recording (no features: was it killed?): read to its last flush" "notice"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "notice not one line: $(cat "$TMP/err")"
ok
expect_true "$(json_last "$TMP/out" 'samples("work_60","cpu-clock") > 100 and o["functions"][0]["name"] == "work_60"')" \
	"work_60 leads the killed recording: $(json_last "$TMP/out" '[(f["name"], f["samples"]) for f in o["functions"][:3]]')"
if command -v perf >/dev/null; then
	run perf report -i "$TMP/killed.data" --stdio --sort sym
	expect_rc 0 "perf report on the killed recording"
	expect_out "work_60" "perf report finds work_60"
fi
# A write that fails (a file size limit, SIGXFSZ ignored: EFBIG, as a full
# disk gives ENOSPC): one line, exit 1, the target ended, and the file keeps
# what was flushed before.
rm -f "$TMP/big.data"
run sh -c "trap '' XFSZ; ulimit -f 128; exec '$CYCTOP' record -e cpu-clock -o '$TMP/big.data' -- '$MIX' 60.11$TAG"
expect_rc 1 "recording past the file size limit"
expect_err "writing $TMP/big.data: File too large (the file keeps the records up to the last flush)" \
	"write error"
gone "mix 60.11$TAG" "target of the failed recording"
run "$CYCTOP" -b --format json -i "$TMP/big.data"
expect_rc 0 "reading the cut recording"
expect_true "$(json_last "$TMP/out" 'samples("work_60","cpu-clock") > 100')" "work_60 in the cut recording"

# 10. EACCES from the real kernel: an unprivileged user (perf_event_paranoid
# 1 or 2 lets it watch its own processes: checked first) attaching to root's
# process gets one line naming the pid and exit 1; the target runs on.
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && [ "$paranoid" -ge 1 ] &&
	[ "$paranoid" -le 2 ]; then
	# a checkout nobody can read (a clone under /root, mode 0700): what
	# the unprivileged user runs is copied where it can
	CYCTOP_NB=$CYCTOP MIX_NB=$MIX
	if ! $NOBODY test -x "$CYCTOP" || ! $NOBODY test -x "$MIX"; then
		chmod 711 "$TMP"
		mkdir -m 755 "$TMP/nobody"
		cp "$CYCTOP" "$MIX" "$TMP/nobody/"
		CYCTOP_NB="$TMP/nobody/$(basename "$CYCTOP")" MIX_NB="$TMP/nobody/$(basename "$MIX")"
		$NOBODY test -x "$CYCTOP_NB" || fail "copies for the unprivileged user not runnable"
	fi
	run $NOBODY "$CYCTOP_NB" $JSON -- "$MIX_NB" 0.2
	expect_rc 0 "an unprivileged user watches its own process"
	if [ "$paranoid" -ge 2 ]; then  # the kernel is not its to watch: said, user space only
		expect_err "kernel samples not permitted (perf_event_paranoid $paranoid" \
			"the fallback to user space said"
	fi
	"$MIX" 60.10$TAG >/dev/null &
	PID=$!
	run $NOBODY "$CYCTOP_NB" $JSON -n 1 -p $PID
	expect_rc 1 "unprivileged attach"
	expect_err "cannot watch pid $PID: permission denied" "the refusal names the pid"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "EACCES: not one line: $(cat "$TMP/err")"
	ok
	[ "$(state $PID)" = R ] || [ "$(state $PID)" = S ] || fail "target state $(state $PID)"
	ok
	kill $PID
	wait $PID 2>/dev/null || true
	PID=''
	gone "mix 60.10$TAG" "target of the refused attach"
else
	skip_part "unprivileged attach (needs root, setpriv, perf_event_paranoid 1 or 2)"
fi

done_ok
