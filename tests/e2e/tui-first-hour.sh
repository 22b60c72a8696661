#!/bin/sh
# What a user meets in the first hour (issue 19), under tmux: hostile names
# escaped on the screen, nothing on stdout after q (the terminal's title
# untouched); a chatty command's output in a log the status line names, not
# on the screen; the view on /dev/tty with stdout in a file; Ctrl-L; Left
# and Backspace out of the asm view; empty / prompts; the asm view's mode in
# its header; one delay range; T's themes from the build tree; the table
# re-fitted after a resize; columns that never run into each other; long
# messages wrapped at spaces.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

MIX="$WORKLOADS/mix"
HOSTILE="$WORKLOADS/hostile"
SHOWN='evil\x1b[2J\x07bel\r\xc2\x9b\xff'

# Hostile names and a chatty command: escaped names, output in the log.
start 120 40
T set-option -t main -g set-titles on
T select-pane -t main -T before
type_line "TMPDIR='$TMP' '$CYCTOP' -d 0.5 -- '$HOSTILE' 60 chatty >'$TMP/table' 2>'$TMP/err'; echo EXIT-\$?"
wait_screen "$SHOWN" "the symbol, escaped"
wait_screen "the command's output goes to $TMP/cyctop-output." "the status line names the log"
wait_for 'grep -q "chatty line" "$TMP"/cyctop-output.*' 20 "the command's output in the log"
ok
screen | grep -q "chatty" && { screen_dump >&2; fail "the command's output on the screen"; }
ok
# a long name is cut with an ellipsis before the module column
screen | grep -q "… \+hostile *$" || { screen_dump >&2; fail "ellipsis before the module"; }
ok
T send-keys -t main '?'
wait_screen "The command's output (stdout, stderr): $TMP/cyctop-output." "help names the log"
T send-keys -t main Escape
wait_screen "FUNCTION" "back from help"
T send-keys -t main H
wait_screen '\x1b]0;pwned\x07' "the thread picker's process name, escaped"
wait_screen '\x1b[2Jthr\x07' "the second thread's name, escaped"
T send-keys -t main Escape q
wait_screen "EXIT-0" "q: status 0"
[ "$(T display -p -t main '#{pane_title}')" = before ] ||
	fail "the pane's title changed: $(T display -p -t main '#{pane_title}')"
ok
[ -s "$TMP/table" ] && fail "the view wrote on stdout: $(head -c 300 "$TMP/table")"
ok
od -An -c "$TMP/table" "$TMP/err" | grep -E '033|\\a|233' && fail "control bytes after q"
ok
grep -q "the command's output is in $TMP/cyctop-output" "$TMP/err" ||
	fail "the log not said on exit: $(cat "$TMP/err")"
ok

# Attached to a process named ESC ]0;pwned BEL (the header names it, read
# from /proc): the pane's title survives q.  tmux takes OSC 0
# as a pane title, so a raw name would retitle it.
"$HOSTILE" 30 &
victim=$!
ON_EXIT="kill $victim 2>/dev/null"
wait_for "grep -q pwned /proc/$victim/comm" 20 "hostile renamed itself"
type_line "clear; '$CYCTOP' -d 0.5 -p $victim; echo ATTACH-\$?"
wait_screen '(\x1b]0;pwned\x07)' "the attached process's name, escaped"
T send-keys -t main q
wait_screen "ATTACH-0" "q after attaching"
[ "$(T display -p -t main '#{pane_title}')" = before ] ||
	fail "the pane's title changed after q: $(T display -p -t main '#{pane_title}')"
ok
kill "$victim"
wait "$victim" 2>/dev/null || true

# --child-output tty: the command writes over the view; Ctrl-L repaints.
# It writes its line until the test saw it: once, the view's next refresh
# could paint over it before a poll of a loaded machine's pane.
cat >"$TMP/chatty.sh" <<CHATTY
while [ ! -e "$TMP/go" ]; do sleep 0.05; done
while [ ! -e "$TMP/seen" ]; do printf '\\r\\nCHATTY-LINE\\r\\n'; sleep 0.2; done
exec "$MIX" 59
CHATTY
type_line "clear; '$CYCTOP' -d 0.5 --child-output tty -- sh '$TMP/chatty.sh'; echo TTY-\$?"
wait_screen "q quit  ? help" "the view is up"
touch "$TMP/go"
wait_screen "CHATTY-LINE" "the command wrote on the terminal"
touch "$TMP/seen"
# once the script is mix no line comes after the repaint
wait_for 'pgrep -f "$MIX 59" >/dev/null' 20 "the command went on to its work"
T send-keys -t main C-l
wait_for '! screen | grep -q CHATTY-LINE' 10 "Ctrl-L repaints the screen"
ok

# The asm view: Left and Backspace back to the hotspots; s and o named in
# its header; / prompts empty.
wait_screen "work_60" "hotspots"
T send-keys -t main / w o r k _ 6 0 Enter
wait_for '! screen | grep -q "work_30"' 10 "filtered to work_60"
T send-keys -t main /
wait_for 'screen | tail -n 1 | grep -q "^filter: _"' 10 "the filter prompt starts empty"
ok
T send-keys -t main Escape Enter
wait_screen "[% of function]" "asm header: percent of the function"
T send-keys -t main s
wait_screen "[samples]" "asm header: samples"
T send-keys -t main s
wait_screen "[counts: samples x SAV]" "asm header: counts"
T send-keys -t main s o
wait_screen "[% of total]" "asm header: percent of the whole profile"
T send-keys -t main / i m u l Enter
T send-keys -t main /
wait_for 'screen | tail -n 1 | grep -q "^search: _"' 10 "the search prompt starts empty"
ok
T send-keys -t main Escape Left
wait_screen ">$DEFAULT_EVENT%     FUNCTION" "Left: back to the hotspots"
T send-keys -t main Enter
wait_screen "address:  instruction" "asm again"
T send-keys -t main BSpace
wait_screen ">$DEFAULT_EVENT%     FUNCTION" "Backspace: back to the hotspots"
T send-keys -t main / C-u Enter

# One delay range: the d prompt says the range -d takes.
T send-keys -t main d 0 . 0 1 Enter
wait_screen "want a number from 0.05 to 3600" "the d prompt's range"
run "$CYCTOP" -b -d 0.01 -- true
expect_rc 2 "-d 0.01"
expect_err "want a number from 0.05 to 3600" "-d's range"

# T: the themes of the source tree, from the build tree's cyctop.
T send-keys -t main T
wait_screen "theme light" "T finds the light theme"
screen | grep -q "not found" && fail "T: $(screen | tail -n 2)"
ok

# Resize: row 2 selected, shrunk to 12x4 and grown back: the top row shows.
T send-keys -t main ' ' g j
wait_screen "[paused]" "paused"
T resize-window -t main -x 12 -y 4
wait_for '[ "$(screen | wc -L)" -le 12 ]' 10 "shrunk to 12x4"
T resize-window -t main -x 120 -y 40
wait_screen "MODULE" "grown back to 120x40"
row1=$(screen | awk '/FUNCTION/ { getline; print $3; exit }')
[ "$row1" = "work_60" ] || { screen_dump >&2; fail "first row after the resize: $row1"; }
ok
T send-keys -t main q
wait_screen "TTY-0" "q"

# stdout in a file: the view draws on the terminal and writes nothing there.
type_line "clear; '$CYCTOP' -d 0.5 -- '$MIX' 59 >'$TMP/out.txt'; echo FILE-\$?"
wait_for '! screen | grep -q "TTY-0"' 20 "the screen cleared"
wait_screen ">$DEFAULT_EVENT%     FUNCTION" "the view with stdout in a file"
wait_screen "work_60" "its hotspots"
T send-keys -t main q
wait_screen "FILE-0" "q"
[ -s "$TMP/out.txt" ] && { screen_dump >&2; fail "a table in the file: $(head -c 600 "$TMP/out.txt")"; }
ok

# 60 columns: the module column shows the file name, not the path's start.
start 60 20
type_line "'$CYCTOP' -d 0.5 -- '$MIX' 59; echo NARROW-\$?"
wait_screen "work_60" "hotspots at 60 columns"
screen | grep -Eq "work_60 +mix *$" || { screen_dump >&2; fail "module column at 60 columns"; }
ok
T send-keys -t main q
wait_screen "NARROW-0" "q"

# A long message wraps at spaces: every word of it on the screen.
start 120 40
type_line "'$CYCTOP' --theme no-such-theme-anywhere -i '$EX/core2-handmade.counts'; echo MSG-\$?"
# (where the lines break depends on the length of the build's path: the
# screen is read as one line of words)
wait_for 'screen | tr -s " \n" "  " | grep -qF "(using the default theme)"' 20 \
	"the message's end shows"
ok
screen | tr -s ' \n' '  ' | grep -q "theme 'no-such-theme-anywhere' not found (searched" ||
	{ screen_dump >&2; fail "the message cut"; }
ok
# the tree keeps a space before "not measured", whatever the depth
screen | grep -q "[^ ]not measured" && { screen_dump >&2; fail "no space before not measured"; }
ok
# The same re-fit in the tree (29 rows, more than a 12-row screen holds):
# row 2 selected, 12x4, then 120x12: the root row shows again.
T send-keys -t main j j
T resize-window -t main -x 12 -y 4
wait_for '[ "$(screen | wc -L)" -le 12 ]' 10 "shrunk to 12x4"
T resize-window -t main -x 120 -y 12
wait_for '[ "$(screen | wc -l)" -eq 12 ] && screen | grep -q "cycles.retired"' 10 "grown to 120x12"
screen | sed -n 2p | grep -q "^- cycles " || { screen_dump >&2; fail "the root row hidden after the resize"; }
ok
T send-keys -t main q
wait_screen "MSG-0" "q"
done_ok
