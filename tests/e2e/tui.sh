#!/bin/sh
# The interactive views under tmux: hotspots on a live workload matching the
# batch shares, filter and pause, the three trees on counts files matching
# `cyctop tree`, the ILP histogram, resize, themes, and the terminal restored
# after q, SIGTERM and the target's end; a terminal that hangs up.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

# Hotspots on a live workload, shares like the batch mode's (60/30/10).  The
# pid in mix's argument (60.5PID seconds) tells this test's runs from those
# of tests run beside it (faults.sh runs mix 1.0N, 60.0N and 60.1N, its pid after).
MIX60="60.5$$"
start 120 40
type_line "'$CYCTOP' -d 0.5 -- '$WORKLOADS/mix' $MIX60; echo EXIT-\$?"
wait_screen "work_60" "hotspot table"
wait_for 'screen | grep -q "samples [0-9][0-9][0-9][0-9]"' 30 "1000 samples"
# work_60's share of the three works: the start (ld.so, a sanitizer's
# runtime: work_60 had 51% of the first 1,000 under ASan) is in none
pct=$(screen | awk '$2 == "[.]" && $3 ~ /^work_[136]0$/ { sub("%", "", $1); w[$3] = $1; s += $1 }
	END { if (s > 0) printf "%.1f", 100 * w["work_60"] / s }')
awk -v p="$pct" 'BEGIN { exit !(p > 52 && p < 68) }' || { screen_dump >&2; fail "work_60 at $pct% of the works"; }
ok
# filter: only work_3* stays
T send-keys -t main / w o r k _ 3 Enter
wait_for '! screen | grep -q "work_60"' 10 "filter hides work_60"
ok
screen | grep -q "work_30" || fail "filter kept work_30"
ok
T send-keys -t main / C-u Enter
# sort by the function column: alphabetical
T send-keys -t main '>'
wait_screen ">    FUNCTION" "sort column moved"
first=$(screen | awk '/^ +[0-9.]+% \[\.\] work_/ { print $3; exit }')
[ "$first" = "work_10" ] || fail "sorted by name, first row $first"
ok
# pause: the elapsed time stops moving
T send-keys -t main ' '
wait_screen "[paused]" "paused"
a=$(screen | head -n 1)
b=$a
wait_for '[ "$(screen | head -n 1)" = "$a" ]' 5 "stable while paused"
ok
T send-keys -t main ' '
wait_for '[ "$(screen | head -n 1)" != "$b" ]' 10 "refreshing again"
ok
# help lists every key; on a short terminal its text scrolls to the last line
T send-keys -t main '?'
wait_screen "the next tree: the host's first" "help"
T resize-window -t main -x 120 -y 20
wait_for '! screen | grep -q "whose events are missing"' 10 "a 20-line help cut at the bottom"
T send-keys -t main End
wait_screen "whose events are missing" "End scrolls the help to its last line"
screen | grep -q "this help (" && fail "the help's top still shown after End"
ok
T send-keys -t main Up
wait_for '! screen | grep -q "whose events are missing"' 10 "Up scrolls the last line out"
T send-keys -t main Home
wait_screen "this help (" "Home: the top again"
T resize-window -t main -x 120 -y 40
T send-keys -t main Escape
wait_screen "FUNCTION" "back to hotspots"
# Enter: the asm view of work_60, its loop, the hottest instruction's line,
# source lines on 'l', live samples; Esc back
T send-keys -t main / w o r k _ 6 0 Enter
wait_for '! screen | grep -q "work_30"' 10 "filter to work_60"
T send-keys -t main Enter
wait_screen "insns" "asm view of work_60"
screen | grep -q "^work_60  .*mix" || fail "asm header names work_60"
ok
screen | grep -q -- "-- block .*loop (depth 1)" || fail "loop header row"
ok
screen | grep -q "↺ *[0-9a-f]*:  j" || fail "back-edge marked"
ok
wait_for 'screen | tail -n 1 | grep -Eq "mix\.c:[0-9]+  \|  Esc back"' 10 "status line gives file:line"
T send-keys -t main l
wait_screen "MIX_LOOP" "source text interleaved"
T send-keys -t main s
wait_for 'screen | grep -Eq "^ +[0-9]{2,} +[0-9a-f]+:  "' 10 "samples column"
T send-keys -t main Escape
wait_screen "FUNCTION" "Esc back to hotspots"
T send-keys -t main / C-u Enter
# resize to 40x10 and back: still drawing, no crash
T resize-window -t main -x 40 -y 10
wait_for 'screen | grep -q "cyctop"' 10 "draws at 40x10"
ok
T resize-window -t main -x 120 -y 40
wait_screen "MODULE" "draws again at 120x40"
# q restores the terminal: the shell runs the next command
T send-keys -t main q
wait_screen "EXIT-0" "exit after q"
type_line "echo AFTER-Q\$((6 * 7))"
wait_screen "AFTER-Q42" "shell usable after q"
pgrep -f "$WORKLOADS/mix $MIX60\$" >/dev/null && fail "launched command left running after q"
ok

# SIGTERM restores the terminal too.
type_line "clear; '$CYCTOP' -- '$WORKLOADS/mix' $MIX60; echo TERM-\$?"
wait_screen "work_60" "second watch"
# the watch drawing is its process running: poll for it (one loaded run of
# two checks side by side found none at once), and name what runs if not
wait_for 'pgrep -f "^$CYCTOP -- $WORKLOADS/mix $MIX60\$" >/dev/null' 10 \
	"the second watch's process: $(pgrep -af "cyctop|mix" | head -5)"
pkill -TERM -f "^$CYCTOP -- $WORKLOADS/mix $MIX60\$" || fail "no cyctop to signal: $(pgrep -af "cyctop|mix" | head -5)"
wait_screen "TERM-143" "exit after SIGTERM: 128 + 15"
type_line "echo AFTER-TERM\$((6 * 7))"
wait_screen "AFTER-TERM42" "shell usable after SIGTERM"

# The target's end ends the watch with --quit-at-end, printing nothing.
type_line "clear; '$CYCTOP' --quit-at-end -- '$WORKLOADS/mix' 1 >'$TMP/end.txt'; echo END-\$?"
wait_screen "END-0" "exit at the target's end"
[ -s "$TMP/end.txt" ] && fail "a table on stdout: $(head -3 "$TMP/end.txt")"
ok

# Thread zoom: H lists the threads, Enter zooms into the selected one (the
# header names it, the table holds its functions only), H or Esc shows every
# thread again.  Paused, so that the picker's rows stay where the keys go.
READY="$TMP/ready" GO="$TMP/go"
type_line "clear; '$CYCTOP' -d 0.5 -e cpu-clock -- '$WORKLOADS/threads' '$READY' '$GO' '$WORKLOADS/libplugin.so' 60; echo THREADS-\$?"
wait_for '[ -s "$READY" ]' 30 "threads workload ready"
PID=$(cat "$READY")
touch "$GO"
wait_screen "thread_work" "the workers' function"
wait_screen "plugin_work" "the main thread's function"
T send-keys -t main '?'
wait_screen "pick a thread and zoom into it" "help lists H"
T send-keys -t main Escape
wait_screen "FUNCTION" "back from help"
T send-keys -t main ' '
wait_screen "[paused]" "paused for the picker"
T send-keys -t main H
wait_screen "Enter: zoom" "thread picker"
tids=$(screen | awk '/Enter: zoom/ { on = 1; next } on && $1 ~ /%$/ { print $2 }')
idx=0 W=''
for tid in $tids; do
	[ "$tid" != "$PID" ] && { W=$tid; break; }
	idx=$((idx + 1))
done
[ -n "$W" ] || { screen_dump >&2; fail "no worker thread in the picker (main $PID)"; }
ok
T send-keys -t main g
while [ $idx -gt 0 ]; do T send-keys -t main j; idx=$((idx - 1)); done
T send-keys -t main Enter
wait_screen "thread $W (threads)" "header names the zoomed worker $W"
wait_screen "thread_work" "the worker's function"
screen | grep -q "plugin_work" && { screen_dump >&2; fail "main thread's function shown in a worker's zoom"; }
ok
T send-keys -t main H
wait_for '! screen | grep -qF "thread $W ("' 10 "H unzooms"
ok
wait_screen "plugin_work" "every thread's functions again"
T send-keys -t main H
wait_screen "Enter: zoom" "thread picker again"
T send-keys -t main Escape
wait_screen "FUNCTION" "Esc closes the picker"
T send-keys -t main H Enter
wait_for 'screen | grep -q "^cyctop .* thread [0-9]* (threads)"' 10 "zoomed into the first thread"
ok
T send-keys -t main Escape
wait_for '! screen | grep -q "^cyctop .* thread [0-9]"' 10 "Esc unzooms"
ok
T send-keys -t main q
wait_screen "THREADS-0" "exit after the thread zoom"

# Trees on counts files: the values of cyctop tree; t walks the trees of
# the file's model and comes back to the first.
start 130 45
type_line "'$CYCTOP' -i '$EX/ia64-handmade.counts'"
wait_screen "IA-64 back-end bubbles" "ia64 tree"
want=$("$CYCTOP" tree --format text "$EX/ia64-handmade.counts" | awk '$1 == "cycles.unstalled" { print $2 }')
wait_screen "$want" "unstalled value as cyctop tree prints it ($want)"
# an Itanium's file has one tree: t stays on it; A picks Core2's by name,
# which the model has no variant of: one line says so
T send-keys -t main t
wait_screen "IA-64 back-end bubbles" "t: the ia64 file's only tree"
T send-keys -t main A
wait_screen "Pick a tree (model ia64)" "A: the picker"
wait_screen "core2    (no variant for model ia64)" "the Core2 tree is not the ia64 file's"
T send-keys -t main c Enter
wait_screen "no core2 tree for model ia64" "picking core2 says why not"
wait_screen "IA-64 back-end bubbles" "and shows the model's own tree"
T send-keys -t main q
wait_screen 'READY$' "prompt after the tree view"

# a Skylake file: its trees, intel then topdown, then intel again
type_line "clear; '$CYCTOP' -i '$EX/skl-handmade.counts'"
wait_screen "Core2 cycle accounting on Intel (8 ports)" "intel tree of a skl file"
wait_screen "cycles.stalls.memory.dram" "intel nodes"
T send-keys -t main t
wait_screen "TopDown (perf tma_*, Skylake)" "t: topdown after intel"
wait_screen "topdown.backend_bound" "topdown nodes"
T send-keys -t main t
wait_screen "Core2 cycle accounting on Intel (8 ports)" "t: back to the intel tree"
T send-keys -t main q
wait_screen 'READY$' "prompt after the skl trees"

type_line "clear; '$CYCTOP' -i '$EX/amd-matmul-dtlb.counts'"
wait_screen "AMD basic measurements" "amd tree"
wait_screen "0.5394" "dtlb.l1_miss_ratio as in the paper"
T send-keys -t main q
# keys typed before the shell is back may go to cyctop on its way out
wait_screen 'READY$' "prompt after the amd tree"

# The ILP view shows the sweep's bins and mean.
type_line "clear; '$CYCTOP' -i '$EX/core2-handmade.counts'"
wait_screen "Core2 cycle accounting" "core2 tree"
wait_screen "cycles.stalls.l2_miss" "core2 nodes"
T send-keys -t main i
wait_screen "0 uops        420,000,000 cycles   42.0%" "ILP bin 0"
wait_screen "6 uops         10,000,000 cycles    1.0%" "ILP bin 6"
wait_screen "mean 1.530 uops/cycle" "ILP mean"
T send-keys -t main q
wait_screen 'READY$' "prompt after ILP"

# Themes: each loads; a broken file is reported with its line.
for th in default light mono high-contrast; do
	run "$CYCTOP" --theme "$SRCDIR/themes/$th.theme" -i "$EX/ia64-handmade.counts" </dev/null
	expect_rc 2 "theme $th (no terminal)"
	grep -q "theme\|line" "$TMP/err" && grep -q "unknown" "$TMP/err" && fail "theme $th: $(cat "$TMP/err")"
	ok
done
printf 'header = cyan default\nhot = purple default\n' >"$TMP/bad.theme"
type_line "clear; '$CYCTOP' --theme '$TMP/bad.theme' -i '$EX/ia64-handmade.counts' 2>'$TMP/theme.err'"
wait_screen "bad.theme:2: unknown colour 'purple'" "broken theme reported in the status line"
T send-keys -t main q
wait_screen 'READY$' "prompt after the bad theme"
grep -q "bad.theme:2: unknown colour 'purple' (using the default theme)" "$TMP/theme.err" ||
	fail "broken theme on stderr: $(cat "$TMP/theme.err")"
ok

# The terminal goes away (tmux killed: the pty hangs up) with cyctop as the
# pane's own command (it gets SIGHUP as the session leader) and under a
# shell (the shell gets it, then cyctop as the foreground job): each time
# cyctop ends and its launched target with it; nothing is left spinning on
# a dead terminal.  The tag in mix's argument finds this run's processes.
TAG=$$
ON_EXIT='pkill -f "mix 60.[89]$TAG\$"'
for how in leader shell; do
	T kill-server 2>/dev/null || true
	N=$((N + 1))
	SOCK="cyctop-test-$$-$N"
	secs="60.9$TAG"
	[ $how = shell ] && secs="60.8$TAG"
	if [ $how = leader ]; then
		T -f /dev/null new-session -d -s main -x 100 -y 30 -e LANG=C.UTF-8 \
			"'$CYCTOP' -d 0.3 -- '$WORKLOADS/mix' $secs"
	else
		T -f /dev/null new-session -d -s main -x 100 -y 30 -e LANG=C.UTF-8 \
			"sh -c \"'$CYCTOP' -d 0.3 -- '$WORKLOADS/mix' $secs; echo EXIT\""
	fi
	SOCKS="$SOCKS $(T display -p '#{socket_path}')"
	wait_screen "work_60" "hotspot table ($how)"
	pgrep -f "mix $secs" >/dev/null || fail "no target ($how)"
	ok
	T kill-server
	wait_for '! pgrep -f "mix $secs" >/dev/null' 20 \
		"hangup ($how): left behind: $(pgrep -af "mix $secs")"
	ok
done

done_ok
