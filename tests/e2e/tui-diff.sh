#!/bin/sh
# The interactive view against a baseline (issue 29) under tmux: the
# tree view of counts files against counts files (hand counts: exact
# deltas per node, D: delta %, absolute); cyctop -i NEW --baseline BASE on
# workloads/diffwork's two builds (copied to prog.old and prog: the
# program pairs whatever its name) shows each function's delta, the asm
# view of work_half its source lines' deltas (by file:line), D switches to
# delta % and back to absolute, and the values are cyctop diff's (-l) on
# the same files (same counts, so exactly, to the view's rounding); in a
# live watch, B marks the profile and the
# columns become each function's rate since the mark against its rate
# until it: work_a, the only hot function while its first round runs
# (diffwork 1000000: half a minute and more), keeps its rate, within 10% (its share
# of the CPU is above 95% both times; the rate is per second of CPU).
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"
W="$WORKLOADS"

record() { # OUT BINARY
	run "$CYCTOP" record -e cpu-clock -o "$1" -- "$2" 120
	if [ "$RC" -ne 0 ] && grep -q "perf_event_paranoid\|Permission" "$TMP/err"; then
		echo "SKIP: cannot record here: $(cat "$TMP/err")"
		exit 77
	fi
	expect_rc 0 "record $2"
}
# the tree view against counts files (hand counts, Core2): cycles 3e9 ->
# 2.5e9, stall cycles 1e9 -> 6e8, instructions 1e9 both: the delta column
# says -500M, -400M (cycles.stalls and its remainder, unaccounted), CPI
# -0.5; D: -16.7%, -40.0%, -16.7%; D: the bars again
printf 'CPU_CLK_UNHALTED.CORE,3000000000\nRS_UOPS_DISPATCHED.CYCLES_NONE,1000000000\nINST_RETIRED.ANY_P,1000000000\n' >"$TMP/tb.counts"
printf 'CPU_CLK_UNHALTED.CORE,2500000000\nRS_UOPS_DISPATCHED.CYCLES_NONE,600000000\nINST_RETIRED.ANY_P,1000000000\n' >"$TMP/tn.counts"
# node ID's last field (the delta, where the bar is drawn without one)
node() { screen | awk -v id="$1" '$1 == id || ($1 ~ /^[-+]$/ && $2 == id) { print $NF; exit }'; }
start 130 30
type_line "'$CYCTOP' -i '$TMP/tn.counts' --baseline '$TMP/tb.counts'; echo EXIT-\$?"
wait_screen "baseline $TMP/tb.counts: delta columns" "the tree against the baseline"
for want in cycles:-500M cycles.stalls:-400M cycles.stalls.unaccounted:-400M cpi:-0.5; do
	wait_for '[ "$(node ${want%%:*})" = "${want#*:}" ]' 20 "${want%%:*}'s delta ${want#*:}"
	ok
done
T send-keys -t main D
wait_screen "baseline $TMP/tb.counts: delta %" "D: delta %"
for want in cycles:-16.7% cycles.stalls:-40.0% cpi:-16.7%; do
	wait_for '[ "$(node ${want%%:*})" = "${want#*:}" ]' 20 "${want%%:*}'s delta % ${want#*:}"
	ok
done
T send-keys -t main D
wait_screen "baseline $TMP/tb.counts: absolute" "D: absolute"
! screen | grep -q -- "-400M" || { screen_dump >&2; fail "absolute: a delta still shown"; }
ok
T send-keys -t main q
wait_for 'screen | grep -q "^EXIT-0"' 20 "exit 0 after q"
ok

# the two builds under two names, as a user keeps them: the program is
# one module on both sides (cyctop diff's pairing), not new against gone
cp "$W/diffwork" "$TMP/prog.old"
cp "$W/half/diffwork" "$TMP/prog"
record "$TMP/base.data" "$TMP/prog.old"
record "$TMP/new.data" "$TMP/prog"
run "$CYCTOP" diff -l -f csv "$TMP/base.data" "$TMP/new.data"
expect_rc 0 "cyctop diff"
cp "$TMP/out" "$TMP/d.csv"

# the view's cell of FUNCTION: the first field of its row
cell() {
	screen | awk -v fn="$1" '$3 == fn { print $1; exit }'
}
# csv column COL of function FN
csv() {
	awk -F, -v fn="\"$1\"" -v col="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "function" && $2 == fn { print $c[col]; exit }' "$TMP/d.csv"
}
# COUNT as the view writes a delta: a sign, an SI suffix (tui/baseline.c)
compact() {
	awk -v v="$1" 'BEGIN { a = v < 0 ? -v : v; k = 0; s = " kMGTPE"
		while (a >= 999.5 && k < 6) { a /= 1000; k++ }
		if (k == 0) { printf "%+.0f\n", v; exit }
		d = a < 9.95 ? 2 : a < 99.5 ? 1 : 0
		printf "%s%.*f%s\n", v < 0 ? "-" : "+", d, a, substr(s, k + 1, 1) }'
}

start 140 30
type_line "'$CYCTOP' -i '$TMP/new.data' --baseline '$TMP/base.data'; echo EXIT-\$?"
wait_screen "d cpu-clock ns" "the delta columns, their unit"
for fn in work_half work_a work_b; do
	want=$(compact "$(csv $fn delta)")
	wait_for '[ "$(cell $fn)" = "$want" ]' 20 "$fn's delta $want"
	ok
done
# the asm view of work_half (the third row: work_a and work_b take twice
# its samples): its source lines' deltas, cyctop diff -l's by file:line
T send-keys -t main Down Down Enter
wait_screen "work_half  " "Enter: work_half's asm"
wait_screen "[source lines: delta of counts against the baseline]" "the lines' deltas shown"
# lcsv LINE COL: csv column COL of work_half's source line LINE
lcsv() {
	awk -F, -v ln="\"$1\"" -v col="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "line" && $2 == "\"work_half\"" && $NF == ln { print $c[col]; exit }' "$TMP/d.csv"
}
# the cell of source line LINE in the asm view
lcell() { screen | awk -v ln="$1" '$2 == ln { print $1; exit }'; }
for ln in diffwork.c:43 diffwork.c:44; do
	want=$(compact "$(lcsv $ln delta)")
	[ -n "$want" ] || fail "no line $ln in cyctop diff -l"
	wait_for '[ "$(lcell $ln)" = "$want" ]' 20 "line $ln's delta $want"
	ok
done
T send-keys -t main D
wait_screen "[source lines: delta % of counts against the baseline]" "D in the asm view: delta %"
for ln in diffwork.c:43 diffwork.c:44; do
	# a line the base never sampled (a rare one: 44 takes 0.2% of the
	# samples) has no delta % in csv: the view says "new", or 0 where
	# neither side sampled it (which of the three, a run's luck)
	want=$(awk -v p="$(lcsv $ln delta_percent)" -v d="$(lcsv $ln delta)" 'BEGIN {
		if (p == "") print d + 0 == 0 ? "0" : "new"; else printf "%+.1f%%\n", p }')
	wait_for '[ "$(lcell $ln)" = "$want" ]' 20 "line $ln's delta % $want"
	ok
done
T send-keys -t main Escape
wait_screen "d% cpu-clock" "back in the hotspots: delta %"
for fn in work_half work_a work_b; do
	want=$(awk -v p="$(csv $fn delta_percent)" 'BEGIN { printf "%+.1f%%\n", p }')
	wait_for '[ "$(cell $fn)" = "$want" ]' 20 "$fn's delta % $want"
	ok
done
T send-keys -t main D
wait_screen "cpu-clock%" "D: absolute again"
T send-keys -t main q
wait_for 'screen | grep -q "^EXIT-0"' 20 "exit 0 after q"
ok

# live: B marks the profile; rates since against rates until the mark
type_line "clear; '$CYCTOP' -e cpu-clock -- '$W/diffwork' 1000000; echo EXIT-\$?"
wait_for 'screen | grep -q " work_a "' 20 "work_a sampled"
T send-keys -t main B
wait_screen "baseline marked at" "B: the mark"
wait_screen "d% cpu-clock" "B: delta % columns, the event named whole"
# a second of CPU since the mark at least: the rate's noise is then small
wait_for 'v=$(cell work_a); [ -n "$v" ] && awk -v v="$v" "BEGIN { v += 0; exit !(v < 10 && v > -10) }" &&
	screen | awk "/^cyctop/ { exit !(\$5 + 0 >= 3) }"' 30 "work_a's rate within 10% of the mark's"
ok
# the tree against the mark: rates on both sides, each node's delta %
# (this VM's software tree: CPU seconds per CPU second, 1 on both sides
# up to the clocks' difference)
T send-keys -t main t
wait_screen "d% baseline marked at" "t: the tree against the mark"
if screen | grep -q "^Software events"; then
	wait_for 'node cpu_seconds | grep -Eq "^[-+][0-9]+[.][0-9]%$"' 10 "cpu_seconds' delta %"
	ok
else
	skip_part "the marked tree's cpu_seconds: this host's first tree is not the software tree"
fi
T send-keys -t main q
wait_for 'screen | grep -q "^EXIT-0"' 20 "exit 0 after q (the command terminated)"
ok
done_ok
