#!/bin/sh
# Zoomed into a thread, the user is told why the pure callers are gone:
# the call graph is the whole session's (its stacks carry no thread), so
# main's callers (__libc_start_call_main) have rows only unzoomed.  The
# journey: cyctop -i on a perf record -g file, sorted by children (>) the
# callers' rows on top and no note; H Enter zooms into the thread: its header, no pure caller's
# row, and the status line says "callers-only rows: not per thread"; q
# ends cyctop with status 0.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

callers_fp_recording

NOTE="callers-only rows: not per thread"
status_line() { screen | grep . | tail -1; }

start 160 40
type_line "'$CYCTOP' -i '$TMP/fp.data'; echo ZOOM-\$?"
wait_for 'screen | grep -Eq "^ +[0-9.]+% +[0-9.]+% \[\.\] leaf_work"' 20 "hotspot table"
ok
T send-keys -t main '>'
wait_screen ">children%" "> sorts by children: the callers on top"
wait_for 'screen | grep -q " __libc_start_call_main "' 10 \
	"unzoomed: the pure caller __libc_start_call_main has a row"
ok
status_line | grep -qF "$NOTE" && fail "unzoomed: the status line says '$NOTE'"
ok

T send-keys -t main H
wait_screen "Enter zoom" "H: the thread picker"
T send-keys -t main Enter
wait_for 'screen | head -1 | grep -q "thread [0-9]* (callfp)"' 10 "Enter: the thread's functions"
ok
wait_for 'status_line | grep -qF "$NOTE"' 10 "zoomed: the status line says '$NOTE'"
ok
wait_for 'screen | grep -Eq "\[\.\] leaf_work"' 10 "zoomed: leaf_work's row"
ok
screen | grep -q " __libc_start_call_main " &&
	fail "zoomed: a row for the pure caller __libc_start_call_main"
ok

T send-keys -t main q
wait_screen "ZOOM-0" "q: status 0"
done_ok
