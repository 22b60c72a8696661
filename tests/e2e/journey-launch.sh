#!/bin/sh
# Journey: a newcomer launches a program and explores it (issue 39).  Under
# tmux, on the real binary: the hotspots, Enter on a function (its asm) and
# back, t through the trees, i, f (the flame graph, with -g); the program
# ends (it waits for a file the test touches, so the end comes after the
# exploring however loaded the machine is); the view stays, its header says
# how the program ended, and Enter, t, f and c still work; q ends cyctop
# with the program's status and nothing on stdout.  Then a program that
# fails at once shows its error in the view, and --quit-at-end leaves with
# the program, as scripts want.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

MIX="$WORKLOADS/mix"
cat >"$TMP/prog.sh" <<PROG
"$MIX" 1
while [ ! -e "$TMP/go" ]; do sleep 0.05; done
exit 3
PROG
head1() { screen | head -n 1; }

start 120 40
type_line "'$CYCTOP' -g -d 0.5 -e cpu-clock -- sh '$TMP/prog.sh' >'$TMP/stdout'; echo EXIT-\$?"
wait_for 'screen | grep -q "\[\.\] work_60 "' 30 "work_60 in the hotspots, marked [.]"
ok

# Enter on a function: F3 finds it, Enter opens its instructions
T send-keys -t main F3
wait_screen "find function:" "F3's prompt"
T send-keys -t main w o r k _ 6 0 Enter
wait_for 'screen | tail -n 2 | head -n 1 | grep -q "^work_60  in .*mix$"' 10 "the detail line names work_60's module path"
ok
T send-keys -t main Enter
wait_for 'head1 | grep -q "^work_60 .*mix"' 10 "the asm view of work_60"
ok
T send-keys -t main Escape
wait_for 'head1 | grep -q "^cyctop  pid"' 10 "back in the hotspots"
ok

# t and more t: the trees; i the ILP view
T send-keys -t main t
wait_for '! head1 | grep -q "^cyctop  pid"' 10 "t: the tree view"
ok
T send-keys -t main t
T send-keys -t main t
wait_for 'screen | tail -n 1 | grep -q "q quit"' 10 "still a view after more t"
ok
T send-keys -t main i
wait_screen "ILP histogram" "i: the ILP view"
T send-keys -t main Escape
wait_for 'head1 | grep -q "^cyctop  pid"' 10 "Esc: the hotspots"
ok
T send-keys -t main f
wait_for 'screen | grep -q "arrows move" && screen | grep -q "work_60"' 10 "f: the flame graph"
ok
T send-keys -t main q
wait_for 'head1 | grep -q "^cyctop  pid"' 10 "q in the flame graph: back"
ok
head1 | grep -q "exited" && { screen_dump >&2; fail "the program ended before the test let it"; }
ok

# the program ends: the view stays on the final profile
touch "$TMP/go"
wait_for 'head1 | grep -q "exited (status 3) after [0-9.]* s"' 30 "the header says how the program ended"
ok
screen | grep -q "EXIT-" && { screen_dump >&2; fail "cyctop left with the program"; }
ok
screen | tail -n 1 | grep -q "space pause" && { screen_dump >&2; fail "pause offered after the end"; }
ok
T send-keys -t main F3 w o r k _ 3 0 Enter Enter
wait_for 'head1 | grep -q "^work_30 .*mix"' 10 "Enter after the end: work_30's asm"
ok
T send-keys -t main Escape t
wait_for '! head1 | grep -q "^cyctop  pid\|^work_30"' 10 "t after the end: a tree"
ok
T send-keys -t main Escape f
wait_for 'screen | grep -q "arrows move"' 10 "f after the end: the flame graph"
ok
T send-keys -t main q c
wait_screen "callers and callees of work_30" "c after the end: the callers view"
T send-keys -t main Escape
wait_for 'head1 | grep -q "exited (status 3)"' 10 "back in the ended hotspots"
ok
T send-keys -t main q
wait_screen "EXIT-3" "q: cyctop's status is the program's"
[ -s "$TMP/stdout" ] && fail "the view wrote on stdout: $(head -c 300 "$TMP/stdout")"
ok

# a program that fails at once: its error in the view, not a log's path
type_line "clear; '$CYCTOP' -- ls '$TMP/no-such-file' >'$TMP/stdout2'; echo FAILED-\$?"
wait_screen "output: ls: cannot access '$TMP/no-such-file'" "the program's error in the view"
wait_for 'head1 | grep -q "exited (status 2)"' 10 "the failed program's status in the header"
ok
T send-keys -t main q
wait_screen "FAILED-2" "q: ls's status"
[ -s "$TMP/stdout2" ] && fail "the view wrote on stdout: $(head -c 300 "$TMP/stdout2")"
ok

# --quit-at-end: the view leaves with the program, printing nothing
type_line "clear; '$CYCTOP' --quit-at-end -d 0.5 -- '$MIX' 0.3 >'$TMP/stdout3'; echo QUIT-\$?"
wait_screen "QUIT-0" "--quit-at-end: cyctop ends with the program"
[ -s "$TMP/stdout3" ] && fail "--quit-at-end wrote on stdout: $(head -c 300 "$TMP/stdout3")"
ok
done_ok
