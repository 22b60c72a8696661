#!/bin/sh
# A user watching a machine by container: cyctop -a, c groups the processes
# view by cgroup (a workload in a cgroup v2 this test makes has its row),
# Enter shows that cgroup's processes, c goes back, q leaves with status 0
# and nothing on stdout.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

cgroup_v2_root
NAME="cyctop-journey.$$"
CG="$V2/$NAME"
make_cgroups "$CG"
in_cgroup "$CG" "$WORKLOADS/mix" 60
W=$!
ON_EXIT="kill $W 2>/dev/null; wait $W 2>/dev/null; rmdir '$CG' 2>/dev/null"
wait_for "grep -qx '0::/$NAME' /proc/$W/cgroup 2>/dev/null" 10 "the workload in its cgroup"

start 120 40
type_line "'$CYCTOP' -a -e cpu-clock -d 0.5 >'$TMP/table' 2>'$TMP/err'; echo EXIT-\$?"
wait_screen "all CPUs  processes" "the processes view first"
wait_for "screen | grep -qE '^ +[0-9.]+% +$W +[^ ]+ +mix'" 20 "mix's row"
ok
T send-keys -t main c
wait_screen " CGROUP" "c: the cgroup column"
wait_for "screen | grep -qE '^ +[0-9.]+% +/$NAME\$'" 20 "the test cgroup's row"
ok
screen | grep -qE '  cgroups [0-9]+' || { screen_dump >&2; fail "the header counts cgroups"; }
ok
# its share is at least mix's own (the cgroup holds mix alone)
T send-keys -t main s
wait_for "screen | grep -qE '^ +[0-9]+ +/$NAME\$'" 20 "s: the cgroup's samples"
ok
T send-keys -t main s
# move to the test cgroup's row, Enter: its processes
T send-keys -t main / "$NAME" Enter
wait_screen "filter: $NAME" "the filter on the cgroups"
wait_for "[ \$(screen | grep -cE '^ +[0-9.]+% +/') -eq 1 ]" 20 "one cgroup row left"
ok
T send-keys -t main Enter
wait_screen "PID  USER        COMMAND" "Enter: the processes again"
wait_screen "filter: /$NAME" "filtered by the cgroup"
wait_for "screen | grep -qE '^ +[0-9.]+% +$W +[^ ]+ +mix'" 20 "mix in its cgroup's processes"
ok
[ "$(screen | grep -cE '^ +[0-9.]+% +[0-9]+ ')" -eq 1 ] || { screen_dump >&2; fail "only mix's process"; }
ok
T send-keys -t main Escape c
wait_screen " CGROUP" "c again: the cgroups"
T send-keys -t main c
wait_screen "PID  USER        COMMAND" "c: back to the processes"
T send-keys -t main q
wait_screen "EXIT-0" "q: status 0"
[ -s "$TMP/table" ] && fail "the view wrote on stdout: $(head -5 "$TMP/table")"
ok
done_ok
