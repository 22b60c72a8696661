#!/bin/sh
# cyctop's exit status is the launched command's (as perf record, time and
# strace: 128 + N for a signal), 128 + N when a signal stops cyctop, 0 when
# cyctop ends the watch itself (-n); a reader that leaves (| head -1) ends
# the watch at once, quietly, and the command with it.
. "$SRCDIR/tests/lib.sh"

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
pid=$(json_last "$TMP/term.json" 'o["target"]["pid"]')
kill -0 "$pid" 2>/dev/null && fail "mix $pid still runs after cyctop ended"
ok

# | head -1: the watch ends at once (mix would run a minute), exit status
# 141 (128 + SIGPIPE) and nothing on stderr but the no-PMU notice.
start=$(date +%s)
{ "$CYCTOP" -b -d 0.2 --format json -- "$MIX" 58 2>"$TMP/err"; echo $? >"$TMP/rc"; } |
	head -n 1 >"$TMP/first"
took=$(($(date +%s) - start))
[ "$took" -lt 20 ] || fail "| head -1 took ${took}s"
ok
[ "$(cat "$TMP/rc")" -eq 141 ] || fail "| head -1: exit $(cat "$TMP/rc"), want 141"
ok
grep -v "counting cpu-clock instead of cycles" "$TMP/err" | grep . &&
	fail "| head -1 is not quiet: $(cat "$TMP/err")"
ok
pid=$(json_last "$TMP/first" 'o["target"]["pid"]')
kill -0 "$pid" 2>/dev/null && fail "mix $pid still runs after | head -1"
ok

# the same with text output, the table's first line
{ "$CYCTOP" -b -d 0.2 -- "$MIX" 58 2>/dev/null; echo $? >"$TMP/rc"; } | head -n 1 >"$TMP/first"
grep -q "^cyctop " "$TMP/first" || fail "text | head -1: $(cat "$TMP/first")"
ok
[ "$(cat "$TMP/rc")" -eq 141 ] || fail "text | head -1: exit $(cat "$TMP/rc")"
ok
done_ok
