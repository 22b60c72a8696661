#!/bin/sh
# The selection follows a function (the hotspots) or a process (-a's
# processes view), not a row: a re-sort between the user's look and the key
# (a refresh, a sort key) leaves Enter, c and m on what was selected.  A
# hand-made file (tests/e2e/mk-perfdata.py procs: alpha's work_60 40 samples,
# work_30 25, the idle task's [unknown] 20, beta's work_10 15) under tmux.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }
# the program under a path of some 200 characters, whatever the build's own
# (m's filter holds a module's whole path: it once kept 63 characters)
DEEP=$TMP/$(printf '%060d' 0)/$(printf '%060d' 1)/$(printf '%060d' 2)
mkdir -p "$DEEP" && cp "$WORKLOADS/mix" "$DEEP/mix" || fail "copying mix"
python3 "$SRCDIR/tests/e2e/mk-perfdata.py" procs "$TMP/p.data" "$DEEP/mix" ||
	fail "writing the file"
# wide enough for the module's whole path in the filter line
start 320 30

# hotspots: Down onto work_30 (the 2nd row), > sorts by name (work_30 goes
# to the 3rd row, work_10 comes to the 2nd): Enter opens work_30
type_line "'$CYCTOP' -i '$TMP/p.data' 2>/dev/null; echo EXIT-\$?"
wait_for 'screen | grep -Eq "^ +25\.00% \[\.\] work_30 "' 20 "hotspots: work_30's row"
ok
T send-keys -t main Down
T send-keys -t main '>'
wait_screen ">    FUNCTION" "> sorts by the function"
wait_for 'screen | grep -A2 ">    FUNCTION" | tail -1 | grep -q work_10' 10 "work_10 on the 2nd row"
ok
T send-keys -t main Enter
wait_for 'screen | grep -q "^work_30  .* insns"' 10 "Enter opens work_30, the function selected"
ok
T send-keys -t main Left
wait_screen ">    FUNCTION" "Left back to the hotspots"
# m on it: its module, the selection still on work_30 (Enter again)
T send-keys -t main '<' m
wait_screen "filter: m:$DEEP/mix" "m: the selected function's module, its whole path"
T send-keys -t main Enter
wait_for 'screen | grep -q "^work_30  .* insns"' 10 "the selection stayed on work_30"
ok
T send-keys -t main Left
wait_screen "filter:" "back"
T send-keys -t main q
wait_screen "EXIT-0" "q quits"

# processes: the top row (alpha) selected without a move; sort by pid
# (the idle task, pid 0, comes first) then by command: Enter opens alpha
type_line "'$CYCTOP' -i '$TMP/p.data' -a 2>/dev/null; echo EXIT2-\$?"
wait_for 'screen | grep -Eq "^ +65\.00% +300 .* alpha"' 20 "processes: alpha's row"
ok
T send-keys -t main '>'
wait_screen ">    PID" "> sorts by pid"
wait_for 'screen | grep -A1 ">    PID" | tail -1 | grep -q swapper' 10 "the idle task on top"
ok
T send-keys -t main Enter
wait_screen "process 300 (alpha)" "Enter opens alpha, the process selected"
T send-keys -t main Escape
wait_screen ">    PID" "Esc back to the processes"
# a move starts from alpha's row: Down is beta (pid 400), wherever alpha is
T send-keys -t main Down Enter
wait_screen "process 400 (beta)" "Down from alpha: beta"
T send-keys -t main Escape q
wait_screen "EXIT2-0" "q quits"
done_ok
