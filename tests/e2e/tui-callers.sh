#!/bin/sh
# The call-stack views under tmux (tests/e2e/tui.sh's way: a tmux server per
# socket, capture-pane, polling): with -g the hotspot table's children
# column (C hides it, < > sort by it, P writes it), c on leaf_work opens its callers view
# with caller_a and caller_b at 2:1 (workloads/callers), Right / Left unfold
# and fold a caller, c follows a caller, q goes back, q in the hotspots
# quits and restores the terminal.  Without -g, c says to run with -g.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

CALLERS="$WORKLOADS/callers"
# the header's "stacks N" (samples with a stack), 0 before it shows
stacks_now() {
	screen | sed -n 's/.* stacks \([0-9][0-9]*\) .*/\1/p' | head -n 1 | grep . || echo 0
}
# row_field FILE NAME FIELD: field FIELD of the first row naming NAME (the
# name follows the "+ " / "- " fold mark, if any)
row_field() {
	awk -v n="$2" -v k="$3" '$3 == n || ($3 ~ /^[-+]$/ && $4 == n) { v = $k; sub("%", "", v); print v; exit }' "$1"
}
within() { # GOT WANT TOL DESC
	awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= t) }' ||
		{ screen_dump >&2; fail "$4: $1, want $2 +- $3"; }
	ok
}

start 120 40

# 4 kHz as tests/e2e/callgraph.sh: at 1 kHz sampling can alias with main's loop.
# 30.1PID seconds: an argument no other test's callers has, for the pgrep
# below (tests/e2e/tui-flame.sh runs callers 30 too, maybe at the same time)
SECS=30.1$$
type_line "cd '$TMP' && '$CYCTOP' -g -d 0.5 -e cpu-clock/250000 -- '$CALLERS' $SECS; echo EXIT-\$?"
wait_for 'screen | grep -Eq "^ +[0-9.]+% +[0-9.]+% \[\.\] leaf_work"' 20 "hotspot table, leaf_work's row"
ok
wait_screen "children%" "children column with -g"
wait_screen "c callers" "hints name c"
wait_for '[ "$(stacks_now)" -ge 6000 ]' 40 "6000 samples with a stack"
ok

# C hides the children column and shows it again; > sorts by it
T send-keys -t main C
wait_for '! screen | grep -q "children%"' 10 "C hides the children column"
ok
T send-keys -t main C
wait_screen "children%" "C shows it again"
T send-keys -t main '>'
wait_screen ">children%" "> sorts by children"
T send-keys -t main '<'
wait_screen ">cpu-clock%" "< back to the event"
# P writes the table as shown, the children column with it
T send-keys -t main P
wait_screen "written to cyctop.hist.0" "P names its file"
grep -q "cpu-clock% *children% *FUNCTION" "$TMP/cyctop.hist.0" &&
	grep -Eq "^ +[0-9.]+% +[0-9.]+% \[\.\] leaf_work " "$TMP/cyctop.hist.0" ||
	fail "P's file lacks the children column: $(head -n 4 "$TMP/cyctop.hist.0")"
ok

# c on leaf_work (the filter leaves it alone in the table)
T send-keys -t main / l e a f _ w o r k Enter
wait_for '! screen | grep -q "ld-linux\|vdso\|libc"' 10 "filter to leaf_work"
ok
T send-keys -t main g c
wait_screen "callers and callees of leaf_work" "callers view of leaf_work"
wait_screen "+ caller_a" "caller_a folded under leaf_work"
wait_screen "+ caller_b" "caller_b folded under leaf_work"
screen >"$TMP/view"
n=$(row_field "$TMP/view" leaf_work 2)
[ -n "$n" ] && [ "$n" -ge 4000 ] || { screen_dump >&2; fail "leaf_work's total samples: '$n'"; }
ok
# A share of N samples has sigma = 100 sqrt(p (1 - p) / N) points; 5 sigma
# plus a point for what systematic sampling leaves of aliasing.
tol=$(awk -v n="$n" 'BEGIN { printf "%.2f", 5 * 100 * sqrt(2 / 9 / n) + 1 }')
within "$(row_field "$TMP/view" caller_a 1)" 66.67 "$tol" "caller_a's share of leaf_work"
within "$(row_field "$TMP/view" caller_b 1)" 33.33 "$tol" "caller_b's share of leaf_work"
within "$(row_field "$TMP/view" leaf_work 1)" 100 0 "leaf_work's own row"
# leaf_work calls nothing: its callees are at most the kernel's (the
# interrupts the clock's samples are taken in, as perf shows them)
awk '/CALLEES/ { c = 1; next } !NF { c = 0 } c && $NF != "[kernel.kallsyms]" { bad = 1 }
	END { exit bad }' "$TMP/view" || { screen_dump >&2; fail "leaf_work has user callees"; }
ok
grep -q "self [0-9.]*%  total [0-9.]*% of [0-9]* samples with a stack  truncated [0-9]*  skipped [0-9]*" \
	"$TMP/view" || { screen_dump >&2; fail "header: self, total, truncated, skipped"; }
ok

# Right unfolds caller_a (main called it), Left folds it again
T send-keys -t main Down Right
wait_screen "- caller_a" "Right unfolds caller_a"
wait_screen "+ main" "main under caller_a"
T send-keys -t main Left
wait_screen "+ caller_a" "Left folds caller_a"
wait_for '! screen | grep -q " main "' 10 "main folded away"
ok

# c on caller_a: its own view, leaf_work its only callee; q back, q hotspots
T send-keys -t main c
wait_screen "callers and callees of caller_a" "callers view of caller_a"
wait_screen "(Esc: back)" "a way back"
wait_for 'screen | awk "/CALLEES/ { on = 1; next } on && \$3 == \"leaf_work\" { sub(\"%\", \"\", \$1); ok = \$1 + 0 > 95 } END { exit !ok }"' \
	10 "caller_a calls leaf_work"
ok
T send-keys -t main q
wait_screen "callers and callees of leaf_work" "q back to leaf_work"
T send-keys -t main q
wait_screen ">cpu-clock%" "q back to the hotspots"
T send-keys -t main '?'
wait_screen "callers and callees (needs -g)" "help lists c"
T send-keys -t main Escape
wait_screen "FUNCTION" "back from help"

# q in the hotspots quits; the terminal is restored
T send-keys -t main q
wait_screen "EXIT-0" "exit after q"
type_line "echo AFTER-Q\$((6 * 7))"
wait_screen "AFTER-Q42" "shell usable after q"
pgrep -f "$CALLERS $SECS\$" >/dev/null && fail "launched command left running after q"
ok

# Without -g: no children column, and c says how to get stacks.
type_line "clear; '$CYCTOP' -d 0.5 -e cpu-clock -- '$CALLERS' 28; echo NOG-\$?"
# the table's row, not the final table of the run before (no % there)
wait_for 'screen | grep -Eq "^ +[0-9.]+% \[\.\] leaf_work"' 20 "hotspots without -g"
ok
screen | grep -q "children" && { screen_dump >&2; fail "a children column without -g"; }
ok
T send-keys -t main c
wait_screen "run with -g" "c without stacks"
screen | grep -q "callers and callees of" && { screen_dump >&2; fail "callers view without -g"; }
ok
T send-keys -t main q
wait_screen "NOG-0" "exit without -g"

done_ok
