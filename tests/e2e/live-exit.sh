#!/bin/sh
# cyctop's exit status is the launched command's (as perf record, time and
# strace: 128 + N for a signal), 128 + N when a signal stops cyctop, 0 when
# cyctop ends the watch itself (-n); a reader that leaves (| head -1) ends
# the watch at once, quietly, and the command with it.
. "$SRCDIR/tests/e2e/lib.sh"

MIX="$WORKLOADS/mix"

run "$CYCTOP" -b -d 0.2 -- sh -c 'exit 3'
expect_rc 3 "-b: the command's exit code"
run "$CYCTOP" -b -d 0.2 --format json -- sh -c 'kill -USR1 $$'
expect_rc 138 "-b: a command killed by SIGUSR1 is 128 + 10"
# a shell that forks (a new address space per child: the spaces array
# grows while the parent's is in use) and fails
run "$CYCTOP" -b -d 0.2 -- sh -c 'i=0; while [ $i -lt 40 ]; do sleep 0.01; i=$((i + 1)); done; exit 4'
expect_rc 4 "-b: a forking script's exit code"
run "$CYCTOP" record -o "$TMP/r.data" -- sh -c 'exit 5'
expect_rc 5 "record: the command's exit code"
run "$CYCTOP" annotate work_60 -- sh -c "'$MIX' 0.3; exit 6"
expect_rc 6 "annotate: the command's exit code"
expect_out "# work_60 in " "annotate still prints"
run "$CYCTOP" record -o "$TMP/r.data" -- true
expect_rc 0 "record: a command that succeeds"
run "$CYCTOP" -b -d 0.2 -n 1 -- "$MIX" 29
expect_rc 0 "-n ends the watch: cyctop's choice, status 0"
run "$CYCTOP" -b -d 0.2 -- "$WORKLOADS/nonexistent-command"
[ "$RC" -ne 0 ] || fail "a command that cannot run: exit 0"
ok

# SIGTERM to cyctop: 128 + 15, the command terminated.
"$CYCTOP" -b -d 0.2 --format json -- "$MIX" 58 >"$TMP/term.json" 2>"$TMP/err" &
cy=$!
wait_for '[ -s "$TMP/term.json" ]' 30 "first table"
kill -TERM "$cy"
RC=0
wait "$cy" || RC=$?
expect_rc 143 "SIGTERM: 128 + 15"
# No poll: cyctop reaps what it launched (SIGTERM, 2 s, SIGKILL, waitpid:
# engine/target.c) before it exits, so once wait returns the pid is gone.
pid=$(json_last "$TMP/term.json" 'o["target"]["pid"]')
kill -0 "$pid" 2>/dev/null && fail "mix $pid still runs after cyctop ended"
ok

# | head -1: the watch ends at once (mix would run a minute), exit status
# 141 (128 + SIGPIPE) and nothing on stderr but the no-PMU notice.
start=$(date +%s)
{ "$CYCTOP" -b -d 0.2 --format json -- "$MIX" 58 2>"$TMP/err"; echo $? >"$TMP/rc"; } |
	head -n 1 >"$TMP/first"
took=$(($(date +%s) - start))
# The bound tells "ended at the first table" (0.2 s of watching plus start-up)
# from "ran mix to its end" (58 s): 20 s leaves a loaded machine 100 times
# the start-up it needs and still fails a watch that ignores SIGPIPE.
[ "$took" -lt 20 ] || fail "| head -1 took ${took}s"
ok
[ "$(cat "$TMP/rc")" -eq 141 ] || fail "| head -1: exit $(cat "$TMP/rc"), want 141"
ok
grep -v "counting cpu-clock instead of cycles" "$TMP/err" | grep . &&
	fail "| head -1 is not quiet: $(cat "$TMP/err")"
ok
# the pipeline waited for cyctop, which reaped mix first (as above)
pid=$(json_last "$TMP/first" 'o["target"]["pid"]')
kill -0 "$pid" 2>/dev/null && fail "mix $pid still runs after | head -1"
ok

# the same with text output, the table's first line
{ "$CYCTOP" -b -d 0.2 -- "$MIX" 58 2>/dev/null; echo $? >"$TMP/rc"; } | head -n 1 >"$TMP/first"
grep -q "^cyctop " "$TMP/first" || fail "text | head -1: $(cat "$TMP/first")"
ok
[ "$(cat "$TMP/rc")" -eq 141 ] || fail "text | head -1: exit $(cat "$TMP/rc")"
ok
# --child-output in batch: a FILE gets the command's stdout and stderr, null
# none; cyctop's table still goes to its stdout; a bad FILE or -p is refused.
run "$CYCTOP" -b -d 0.2 --child-output "$TMP/child.txt" -- sh -c 'echo TO-OUT; echo TO-ERR >&2'
expect_rc 0 "--child-output FILE"
grep -q TO-OUT "$TMP/child.txt" && grep -q TO-ERR "$TMP/child.txt" ||
	fail "the command's output not in the file: $(cat "$TMP/child.txt")"
ok
expect_out "exited with status 0" "the table on cyctop's stdout"
grep -q "TO-" "$TMP/out" "$TMP/err" && fail "the command's output reached cyctop's streams"
ok
run "$CYCTOP" -b -d 0.2 --child-output null -- sh -c 'echo TO-OUT; echo TO-ERR >&2'
expect_rc 0 "--child-output null"
grep -q "TO-" "$TMP/out" "$TMP/err" && fail "null kept the command's output"
ok
run "$CYCTOP" -b -d 0.2 -- sh -c 'echo TO-OUT'
expect_out "TO-OUT" "batch: the command's output where cyctop's goes, by default"
run "$CYCTOP" -b --child-output "$TMP/no/such/dir" -- true
expect_rc 1 "--child-output in a missing directory"
expect_err "--child-output $TMP/no/such/dir" "the file named"
run "$CYCTOP" -b --child-output null -p $$
expect_rc 2 "--child-output with -p"
# a program a signal ends: the shell's status (128 + 9), and which signal
run "$CYCTOP" -b -d 0.2 -- sh -c 'kill -KILL $$'
expect_rc 137 "a program killed by SIGKILL: cyctop's status is the shell's"
expect_out "killed by SIGKILL (status 137)" "the table says which signal ended it"
run "$CYCTOP" -b -d 0.2 --format json -- sh -c 'kill -TERM $$'
expect_rc 143 "SIGTERM"
expect_true "$(json_last "$TMP/out" 'o["exit_status"] == 143 and o["exit_signal"] == "SIGTERM"')" \
	"the JSON's exit_status and exit_signal"
run "$CYCTOP" -b -d 0.2 --format json -- sh -c 'exit 3'
expect_true "$(json_last "$TMP/out" 'o["exit_status"] == 3 and "exit_signal" not in o')" \
	"an exit has no exit_signal"
done_ok
