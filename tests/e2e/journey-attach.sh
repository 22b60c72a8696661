#!/bin/sh
# Journey: attach to a running program and watch it end (issue 39).  Under
# tmux, on the real binary: -p PID shows its hotspots; Enter opens a
# function and Esc comes back; the program is killed while watched: the
# view stays on its final profile, the header says it exited, t and Enter
# still work; q ends cyctop with status 0 (an attached program's status is
# its parent's) and nothing on stdout.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

head1() { screen | head -n 1; }

"$WORKLOADS/mix" 60 &
victim=$!
ON_EXIT="kill $victim 2>/dev/null"

start 120 40
type_line "'$CYCTOP' -d 0.5 -p $victim >'$TMP/stdout'; echo ATTACH-\$?"
wait_for 'screen | grep -q "\[\.\] work_60 "' 30 "the attached program's work_60"
ok
head1 | grep -q "^cyctop  pid $victim (mix)  [0-9.]*s " || { screen_dump >&2; fail "the header names the process"; }
ok
T send-keys -t main F3 w o r k _ 6 0 Enter Enter
wait_for 'head1 | grep -q "^work_60 .*mix"' 10 "Enter: work_60's asm"
ok
T send-keys -t main Escape
wait_for 'head1 | grep -q "^cyctop  pid"' 10 "back in the hotspots"
ok

# the program ends while watched: the view stays
kill "$victim"
wait "$victim" 2>/dev/null
wait_for 'head1 | grep -q "killed by SIGTERM after [0-9.]* s\|exited after [0-9.]* s"' 30 \
	"the header says how the program ended"
ok
screen | grep -q "ATTACH-" && { screen_dump >&2; fail "cyctop left with the program"; }
ok
T send-keys -t main t
wait_for '! head1 | grep -q "^cyctop  pid"' 10 "t after the end: a tree"
ok
T send-keys -t main Escape Enter
wait_for 'head1 | grep -q "^work_60 .*mix"' 10 "Enter after the end: work_60's asm"
ok
T send-keys -t main Escape
wait_for 'head1 | grep -q "killed by\|exited"' 10 "back in the ended hotspots"
ok
T send-keys -t main q
wait_screen "ATTACH-0" "q: status 0 after attaching"
[ -s "$TMP/stdout" ] && fail "the view wrote on stdout: $(head -c 300 "$TMP/stdout")"
ok
done_ok
