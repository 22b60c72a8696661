#!/bin/sh
# Journey: a small and a large terminal, resized during the watch (issue
# 39).  Under tmux, on the real binary, at 80x24: the status line holds
# the method's views (t tree, i ILP) and ends on a whole key; the help
# wraps, no word of it cut, a key's lines one paragraph; htop's keys (F5 tree, F4 filter narrowing as it
# is typed, F6 sort, I reverse, F1 help and Esc back to the view it was
# opened from, F10 quit), perf top's percent floor
# (%) and P (the table to cyctop.hist.N, named in the status line); grown
# to 200x60 and shrunk back in the middle of it; at 50 columns the header
# lines end after a whole field with an ellipsis.  Then a counts file: Esc
# keeps its tree, and keys that do nothing there are not offered.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

head1() { screen | head -n 1; }
status() { screen | tail -n 1; }
rows() { screen | awk '$2 == "[.]" { print $3 }'; }   # user functions
# every word of the help text as the source has it, one a line
sed -n '/help_lines\[\] = {/,/^};/p' "$SRCDIR/tui/view-help.c" |
	sed -n 's/^[[:space:]]*"\(.*\)",[[:space:]]*$/\1/p' | tr -s ' ' '\n' | sort -u >"$TMP/words"
# help_cut: a word on the help screen that is no word of the help text
help_cut() {
	screen | sed '1d;$d' | tr -s ' ' '\n' | sed '/^$/d' | sort -u |
		comm -23 - "$TMP/words" | grep -v "^cyctop$" | head -n 1
}

start 80 24
type_line "cd '$TMP' && '$CYCTOP' -d 0.5 -e cpu-clock --child-output null -- '$WORKLOADS/mix' 60 >'$TMP/stdout'; echo SIZES-\$?"
wait_for 'screen | grep -q "\[\.\] work_60 "' 30 "the hotspots at 80x24"
ok
status | grep -q "  t tree  i ILP  " || { screen_dump >&2; fail "80 columns: t tree and i ILP in the status line"; }
ok
status | grep -Eq "  (q quit|\? help|Enter asm|t tree|i ILP|/ filter|< > sort|m module|H threads) *$" ||
	{ screen_dump >&2; fail "80 columns: the status line ends on a whole key"; }
ok

# the help at 80 columns: wrapped, every word whole, on its first, second
# and last page
check_help() { # WHICH
	cut=$(help_cut)
	[ -z "$cut" ] || { screen_dump >&2; fail "the help cuts a word at 80 columns ($1 page): '$cut'"; }
	ok
}
body() { screen | sed -n 2,3p; }
T send-keys -t main F1
wait_screen "cyctop keys" "F1: the help"
check_help first
# a key's description flows as one paragraph, not each source line wrapped
# on its own (which left "running;" alone on a row)
screen | grep -q "^ *running; after the program ended, cyctop exits with its" ||
	{ screen_dump >&2; fail "80 columns: q's description is not one paragraph"; }
ok
was=$(body)
T send-keys -t main PageDown
wait_for '[ "$(body)" != "$was" ]' 10 "PgDn: the help's second page"
check_help second
was=$(body)
T send-keys -t main End
wait_for '[ "$(body)" != "$was" ]' 10 "End: the help's last page"
check_help last
screen | grep -q "flagged value" || { screen_dump >&2; fail "the help's last line on its last page"; }
ok
T send-keys -t main Escape
wait_for 'head1 | grep -q "^cyctop  pid"' 10 "Esc: the hotspots"
ok

# F5: the tree; F4: the filter narrows while typed; Esc restores it
T send-keys -t main F5
wait_for '! head1 | grep -q "^cyctop  pid"' 10 "F5: the tree view"
ok
# the help from the tree, and Esc back to the tree (not home)
tree_head=$(head1)
T send-keys -t main F1
wait_screen "cyctop keys" "F1 over the tree: the help"
T send-keys -t main Escape
wait_for '[ "$(head1)" = "$tree_head" ]' 10 "Esc from the help: back to the tree"
ok
T send-keys -t main Escape F4 w o r k _ 3
wait_for '[ "$(rows | tr "\n" " ")" = "work_30 " ]' 10 "F4: work_30 alone while typing"
ok
status | grep -q "^filter: work_3_ .*function names" || { screen_dump >&2; fail "the filter prompt names what it matches"; }
ok
T send-keys -t main Escape
wait_for 'rows | grep -q work_60' 10 "Esc: the filter as before"
ok
T send-keys -t main F4 w o r k _ Enter
wait_for '[ "$(rows | tr "\n" " ")" = "work_60 work_30 work_10 " ]' 10 "work_ rows by share"
ok
n=$(screen | grep -c '^ *[0-9.]*% \[')
screen | grep -q "functions $n  filter: work_" || { screen_dump >&2; fail "the header counts the $n rows shown"; }
ok

# grown to 200x60 in the middle: more hints, the same rows
T resize-window -t main -x 200 -y 60
wait_for 'status | grep -q "s samples"' 10 "200 columns: more keys in the status line"
ok
wait_for '[ "$(rows | tr "\n" " ")" = "work_60 work_30 work_10 " ]' 10 "the rows at 200x60"
ok
T send-keys -t main F6
wait_for '[ "$(rows | tr "\n" " ")" = "work_10 work_30 work_60 " ]' 10 "F6: sorted by name"
ok
T send-keys -t main I
wait_for '[ "$(rows | tr "\n" " ")" = "work_60 work_30 work_10 " ]' 10 "I: the name sort reversed"
ok
T resize-window -t main -x 80 -y 24
wait_for 'status | grep -q "  t tree  i ILP  " && ! status | grep -q "s samples"' 10 "back at 80 columns"
ok

# narrowed to 50 columns: each header line that does not fit ends after
# a whole field with an ellipsis (the PMU's "none (software events only)"
# is no longer cut to "none (software")
T resize-window -t main -x 50 -y 24
wait_for 'head1 | grep -q "…$"' 10 "50 columns: the first header line ends with an ellipsis"
ok
screen | sed -n 1,3p >"$TMP/narrow"
grep -qE "^cyctop  pid [0-9]+ \(mix\)  [0-9.]+s …$" "$TMP/narrow" ||
	{ screen_dump >&2; fail "50 columns: the first line cut after a whole field"; }
ok
grep -qE "^  lost [0-9]+  throttled [0-9]+(  [a-z]+( [0-9]+)?)* …$" "$TMP/narrow" ||
	{ screen_dump >&2; fail "50 columns: the counters line cut after a whole field"; }
ok
T resize-window -t main -x 80 -y 24
wait_for 'status | grep -q "  t tree  i ILP  "' 10 "back at 80 columns"
ok

# the percent floor and P
T send-keys -t main I '<' '%' 2 0 Enter
wait_for '[ "$(rows | tr "\n" " ")" = "work_60 work_30 " ]' 10 "% 20: work_10 (10%) hidden"
ok
screen | grep -q "functions 2  floor 20%" || { screen_dump >&2; fail "the header says the floor"; }
ok
T send-keys -t main P
wait_screen "P: 2 functions written to cyctop.hist.0" "P names its file"
grep -q "\[\.\] work_30  .*/mix$" "$TMP/cyctop.hist.0" || fail "P's file: $(cat "$TMP/cyctop.hist.0")"
ok

# F10 quits from any view
T send-keys -t main t
wait_for '! head1 | grep -q "^cyctop  pid"' 10 "t: the tree"
ok
T send-keys -t main F10
wait_screen "SIZES-0" "F10 quits from the tree view"
[ -s "$TMP/stdout" ] && fail "the view wrote on stdout: $(head -c 300 "$TMP/stdout")"
ok

# a counts file at 80x24: its tree is home (Esc stays there, it has no
# hotspots to wait for), and pause and the live window are not offered
type_line "clear; '$CYCTOP' -i '$EX/core2-handmade.counts'; echo COUNTS-\$?"
wait_for 'head1 | grep -q "Core2"' 20 "the counts file's tree"
ok
T send-keys -t main Escape
wait_for 'status | grep -q "q quit"' 10 "Esc: still a view"
ok
screen | grep -q "waiting for the first samples" && { screen_dump >&2; fail "Esc from a counts file's tree: a hotspots view waiting for samples"; }
ok
status | grep -q "space pause\|w window\|Esc hotspots" && { screen_dump >&2; fail "a counts file offers keys that do nothing"; }
ok
T send-keys -t main ' '
wait_screen "nothing to pause" "space says why it does nothing"
T send-keys -t main q
wait_screen "COUNTS-0" "q quits from the counts file's tree"
done_ok
