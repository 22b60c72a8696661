#!/bin/sh
# The processes view of -a under tmux: rows with pid, user and command,
# sorting, a filter, Enter into a process's functions (H threads inside
# it), Esc back, f for every process's functions, a resize.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

"$WORKLOADS/mix" 90 >/dev/null 2>&1 &
A=$!
ON_EXIT="kill $A 2>/dev/null"

start 120 40
type_line "'$CYCTOP' -a -e cpu-clock -d 0.5 >'$TMP/table' 2>'$TMP/err'; echo EXIT-\$?"
wait_screen "all CPUs  processes" "the processes view first"
wait_screen ">cpu-clock%     PID  USER        COMMAND" "its columns, sorted by the event"
ME=$(id -un | cut -c1-10)  # the USER column's width
wait_for "screen | grep -qE '^ +[0-9.]+% +$A +$ME +mix'" 20 "mix's row: pid, user, command"
ok
# < > sort: PID, then USER, then COMMAND
T send-keys -t main '>'
wait_screen " cpu-clock%>    PID " "sorted by pid"
T send-keys -t main '>'
wait_screen ">USER" "sorted by user"
T send-keys -t main '<' '<'
wait_screen ">cpu-clock%" "back to the event"
# a filter (a pid matches its process only: other tests may run a mix),
# then Enter on the row it leaves
T send-keys -t main / "$A" Enter
wait_screen "filter: $A" "the filter"
wait_for "[ \$(screen | grep -cE '^ +[0-9.]+% +[0-9]+ ') -eq 1 ]" 20 "one row left"
ok
T send-keys -t main Enter
wait_screen "process $A (mix)" "Enter: the process's functions"
wait_screen "work_60" "mix's function"
wait_for "screen | grep -qE ' COMMAND +FUNCTION'" 20 "the command column"
ok
screen | awk '$1 ~ /^[0-9.]+%$/ && $2 != "mix" { bad = 1 } END { exit !bad }' &&
	{ screen_dump >&2; fail "another process's function"; }
ok
T send-keys -t main H
wait_for "screen | grep -qE '^ +[0-9.]+% +$A +mix'" 20 "H: mix's thread"
ok
T send-keys -t main Enter
wait_screen "thread $A (mix)" "zoomed into the thread"
T send-keys -t main Escape
wait_screen "process $A (mix)" "Esc: back to the process"
T send-keys -t main Escape
wait_screen "all CPUs  processes" "Esc: back to the processes"
# f: every process's functions with their command; Esc back
T send-keys -t main f
wait_for "screen | grep -qE 'mix( \+[0-9]+)? +\[\.\] work_60'" 20 "f: mix's function with its command (+N: other mixes)"
ok
T send-keys -t main Escape
wait_screen "all CPUs  processes" "Esc from the functions"
# resize: the view re-fits
T resize-window -t main -x 70 -y 15
wait_for "[ \"\$(screen | wc -L)\" -le 70 ] && screen | grep -q 'processes'" 20 "re-fitted at 70 columns"
ok
T resize-window -t main -x 120 -y 40
wait_screen "USER        COMMAND" "grown back"
T send-keys -t main q
wait_screen "EXIT-0" "q: status 0"
[ -s "$TMP/table" ] && fail "the view wrote on stdout: $(head -5 "$TMP/table")"
ok

# The active tree's derived columns per process, on hardware events: a
# hand-made Core2 session (tests/e2e/mk-session, one process) opened with -a.
# Its samples (SAV alike) give the process CPI 1000/800 = 1.25 and stall%
# 420/1000 = 42.00 (Core2 paper eq. 2).
printf 'CPU_CLK_UNHALTED.CORE,1000000000\nINST_RETIRED.ANY_P,800000000\nRS_UOPS_DISPATCHED.CYCLES_NONE,420000000\n' >"$TMP/c.counts"
printf '%s\n' 'CPU_CLK_UNHALTED.CORE,work_60+0x0,600' 'CPU_CLK_UNHALTED.CORE,work_30+0x0,400' \
	'INST_RETIRED.ANY_P,work_60+0x0,300' 'INST_RETIRED.ANY_P,work_30+0x0,500' \
	'RS_UOPS_DISPATCHED.CYCLES_NONE,work_60+0x0,300' \
	'RS_UOPS_DISPATCHED.CYCLES_NONE,work_30+0x0,120' >"$TMP/c.samples"
run "$(dirname "$CYCTOP")/tests/e2e/mk-session" -s "$TMP/c.samples" "$TMP/core2.data" core \
	"GenuineIntel,6,23,10" "$TMP/c.counts" "$WORKLOADS/mix"
expect_rc 0 "mk-session"
type_line "clear; '$CYCTOP' -a -i '$TMP/core2.data'; echo EXIT2-\$?"
wait_screen "processes" "the processes view of a recording"
wait_screen "stall%" "the Core2 tree's stall% column"
wait_screen "CPI" "the CPI column"
wait_for "screen | grep -qE '^ +[0-9.]+% +[0-9.]+% +[0-9.]+% +42\.00 +1\.25 '" 20 \
	"the process's stall% 42.00 and CPI 1.25"
ok
T send-keys -t main q
wait_screen "EXIT2-0" "q: status 0"
done_ok
