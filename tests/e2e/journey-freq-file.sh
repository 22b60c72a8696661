#!/bin/sh
# Journey: a new user's perf record -g file (frequency mode, the default:
# each sample weighs its period) read by cyctop -i.  Every header counts the
# samples as perf script does and names the unit of the weighed sums as the
# batch csv does (ns for the clocks): the hotspots' header, its columns
# after s, the asm view's cells, the callers' and the flame graph's totals.
# The event's name (cpu-clock:ppp) is never cut silently in a heading, and
# nothing about the weighing lands on stderr, in batch or in the view.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

command -v perf >/dev/null 2>&1 || { echo "SKIP: no perf"; exit 77; }
perf record -q -g -o "$TMP/a.data" -- "$WORKLOADS/mix" 1 >/dev/null 2>&1 ||
	{ echo "SKIP: perf record cannot sample here"; exit 77; }
# perf's own count of the samples, and their periods (ns apart: frequency mode)
n=$(perf script -i "$TMP/a.data" -F period -G 2>/dev/null | grep -c .)
[ "$n" -gt 100 ] || { echo "SKIP: perf recorded $n samples"; exit 77; }

# --- batch: the samples counted, the heading whole or marked, stderr quiet ---
run "$CYCTOP" -b -i "$TMP/a.data" --format json
expect_rc 0 "cyctop -b -i --format json"
ev=$(json_last "$TMP/out" 'o["events"][0]["name"]')
unit=$(json_last "$TMP/out" 'o["events"][0]["unit"]')
[ "$unit" = ns ] || { echo "SKIP: $ev's samples are not weighed in ns ($unit)"; exit 77; }
[ "$(json_last "$TMP/out" 'o["events"][0]["samples"]')" = "$n" ] ||
	fail "batch JSON: samples $(json_last "$TMP/out" 'o["events"][0]["samples"]'), perf script $n"
ok
run "$CYCTOP" -b -i "$TMP/a.data"
expect_rc 0 "cyctop -b -i (text)"
expect_out " samples $n " "the text header counts the samples"
# a window has the samples' weight only: named by its unit, never "samples"
run "$CYCTOP" -b -i "$TMP/a.data" --window
expect_rc 0 "cyctop -b -i --window (text)"
grep -q "^  $ev  *sav [0-9]*  *ns [0-9]" "$TMP/out" ||
	fail "--window: the weight not named ns: $(grep "sav" "$TMP/out" | head -n 1)"
ok
! grep -q "weighed" "$TMP/err" || fail "stderr speaks of the weighing: $(cat "$TMP/err")"
ok
# whole_or_marked HEADING WHERE: the event's column heading is its name
# whole, or a cut of it ending in ~ (then the %)
whole_or_marked() {
	case $1 in
	"$ev%") ;;
	*"~%") case $ev in "${1%~%}"*) ;; *) fail "$2: heading '$1' is no cut of $ev" ;; esac ;;
	*) fail "$2: heading '$1' cuts $ev silently" ;;
	esac
	ok
}
whole_or_marked "$(awk '$NF == "MODULE" { print $1; exit }' "$TMP/out")" "batch text"
stacks=$(sed -n 's/^  stacks \([0-9]*\) .*/\1/p' "$TMP/out")
[ -n "$stacks" ] || fail "batch text: no stacks line"

# --- the view: the header, s, the asm view, callers, flame graph, q ---
start 160 40
type_line "'$CYCTOP' -i '$TMP/a.data' 2>'$TMP/tui.err'; echo EXIT-\$?"
wait_screen "[.] work_60 " "the hotspots of the perf file"
screen | grep -Eq "^  $ev +.* samples $n +coverage" ||
	{ screen_dump >&2; fail "the header says samples $n (perf script's count)"; }
ok
whole_or_marked "$(screen | awk '$NF == "MODULE" { print substr($1, 2); exit }')" "the view"
T send-keys -t main s
wait_screen ":ns " "s: the column names its unit, ns"
T send-keys -t main /
T send-keys -t main -l work_60
T send-keys -t main Enter
wait_for 'screen | grep -q "^.*\[\.\] work_60 " && ! screen | grep -q "\[\.\] work_30 "' 20 "filter to work_60"
ok
T send-keys -t main Enter
wait_screen "-- block " "Enter: the asm view of work_60"
screen | grep -Eq -- "-- block [0-9]+  (${ev}|[^ ]*~) [0-9]+ ns" ||
	{ screen_dump >&2; fail "the asm view's blocks: the sum in ns, the name whole or marked"; }
ok
T send-keys -t main s
wait_screen "[periods summed: ns]" "the asm view's cells: the periods summed, in ns"
screen | grep -qF "[samples]" && { screen_dump >&2; fail "the asm view calls the sums samples"; }
ok
T send-keys -t main Escape
wait_screen "[.] work_60 " "Esc: back to the hotspots"
T send-keys -t main c
wait_screen "callers and callees of work_60" "c: the callers of work_60"
screen | grep -Eq "of [0-9]+ ns \($stacks samples\) with a stack  truncated [0-9]+ " ||
	{ screen_dump >&2; fail "callers: the sum in ns and $stacks samples with a stack"; }
ok
T send-keys -t main Escape
wait_screen "[.] work_60 " "Esc: back to the hotspots"
T send-keys -t main f
wait_screen "flame graph of $ev: " "f: the flame graph"
screen | grep -Eq "flame graph of $ev: [0-9]+ ns with a stack" ||
	{ screen_dump >&2; fail "the flame graph's total names its unit"; }
ok
T send-keys -t main Escape
wait_screen "[.] work_60 " "Esc: back to the hotspots"
T send-keys -t main q
wait_for 'screen | grep -q "^EXIT-[0-9]"' 20 "exit after q"
screen | grep -q "^EXIT-0" || { screen_dump >&2; fail "cyctop's exit status after q"; }
ok
! grep -q "weighed" "$TMP/tui.err" || fail "the view's stderr speaks of the weighing: $(cat "$TMP/tui.err")"
ok
done_ok
