#!/bin/sh
# Journey: the whole machine, -a (issue 39).  Under tmux, on the real
# binary: the processes view first (the rate as Hz); a filter to our
# workload's pid; Enter on it: its functions; f there, as in the process
# list, shows every process's functions (without -g there is no flame
# graph to open, and f says so); Esc back to the processes; q: status 0
# and nothing on stdout (it once printed 4,247 lines).
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
if [ "$paranoid" -gt 0 ] && [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: -a needs perf_event_paranoid <= 0 or root (it is $paranoid)"
	exit 77
fi
head1() { screen | head -n 1; }

"$WORKLOADS/mix" 90 >/dev/null 2>&1 &
A=$!
ON_EXIT="kill $A 2>/dev/null"

start 120 40
type_line "'$CYCTOP' -a -e cpu-clock -d 0.5 >'$TMP/stdout'; echo SYS-\$?"
wait_screen "all CPUs  processes" "the processes view first"
wait_screen "cpu-clock              4000 Hz" "the clock's rate as Hz, as perf top"
wait_for "screen | grep -qE '^ +[0-9.]+% +$A +[^ ]+ +mix'" 30 "mix's row"
ok
T send-keys -t main / "$A"
wait_for "[ \$(screen | grep -cE '^ +[0-9.]+% +[0-9]+ ') -eq 1 ]" 20 "the filter narrows as it is typed"
ok
T send-keys -t main Enter Enter
wait_screen "process $A (mix)" "Enter: the process's functions"
wait_for 'screen | grep -q "\[\.\] work_60 "' 20 "mix's work_60, marked [.]"
ok
T send-keys -t main f
wait_for '! head1 | grep -q "process $A"' 10 "f after Enter: every process's functions"
ok
screen | grep -q "f: every process's functions" || { screen_dump >&2; fail "f says what it did"; }
ok
head1 | grep -q "processes" && { screen_dump >&2; fail "f went to the process list"; }
ok
T send-keys -t main Escape
wait_screen "all CPUs  processes" "Esc: the processes again"
T send-keys -t main q
wait_screen "SYS-0" "q: status 0"
[ -s "$TMP/stdout" ] && fail "the view wrote $(wc -l <"$TMP/stdout") lines on stdout"
ok
done_ok
