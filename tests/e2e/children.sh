#!/bin/sh
# Children mode as perf report --children: every function on a stack has a
# row, the pure callers (main, __libc_start_call_main, caller_a, caller_b)
# with no self share and their children share.  The file is perf record -g
# of workloads/callers built here with frame pointers (the installed one
# omits them for the DWARF tests), read by perf report and by cyctop -i:
# one file, two readers, so the shares agree to the printing's rounding
# (0.1 point).  The hotspot view shows the same rows, sorted by children,
# and c there opens the function selected before the sort.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

callers_fp_recording
perf report -i "$TMP/fp.data" --children -g none --stdio 2>/dev/null >"$TMP/perf.txt" ||
	fail "perf report --children"

# perf_children NAME: "CHILDREN SELF" of NAME's [.] row in perf report
perf_children() {
	awk -v n="$1" '$5 == "[.]" && $6 == n { sub("%", "", $1); sub("%", "", $2); print $1, $2; exit }' \
		"$TMP/perf.txt"
}
within() { # GOT WANT TOL DESC
	awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= t) }' ||
		fail "$4: $1, want $2 +- $3"
	ok
}

run "$CYCTOP" -b -i "$TMP/fp.data" --format json
expect_rc 0 "cyctop -i a perf record -g file"
cp "$TMP/out" "$TMP/fp.json"
for f in main __libc_start_call_main caller_a caller_b leaf_work; do
	set -- $(perf_children "$f")
	[ $# -eq 2 ] || fail "perf report --children has no row for $f: $(head -c 2000 "$TMP/perf.txt")"
	got=$(json_last "$TMP/fp.json" \
		"[(g['children']['cpu-clock'], g['percent']['cpu-clock']) for g in o['functions'] if g['name'] == '$f'][0]" 2>/dev/null) ||
		fail "no $f row in cyctop's hotspot JSON: $(head -c 3000 "$TMP/fp.json")"
	children=$(echo "$got" | tr -d '(),' | awk '{ print $1 }')
	self=$(echo "$got" | tr -d '(),' | awk '{ print $2 }')
	within "$children" "$1" 0.1 "$f's children share against perf report --children"
	within "$self" "$2" 0.1 "$f's self share against perf report --children"
done
# a pure caller has no samples of its own (main's loop may take one: its
# self share is perf's, above), and is in the text table
expect_true "$(json_last "$TMP/fp.json" "[g['samples']['cpu-clock'] for g in o['functions'] if g['name'] == '__libc_start_call_main'] == [0]")" \
	"__libc_start_call_main: zero self samples"
run "$CYCTOP" -b -i "$TMP/fp.data"
expect_rc 0 "cyctop -i text"
grep -Eq '^ +0\.00 +[0-9.]+ +__libc_start_call_main ' "$TMP/out" ||
	fail "text: no __libc_start_call_main row with 0 self: $(cat "$TMP/out")"
ok
grep -Eq '^ +[0-9.]+ +[0-9.]+ +main ' "$TMP/out" || fail "text: no main row: $(cat "$TMP/out")"
ok
# the modules are the sampled ones: no row for a module of pure callers
expect_true "$(json_last "$TMP/fp.json" "all(sum(m['samples'].values()) > 0 for m in o['modules'])")" \
	"modules: only sampled ones"

# the view: main's row, sorted by children (> then > past the event)
start 120 30
type_line "'$CYCTOP' -i '$TMP/fp.data'"
wait_for 'screen | grep -Eq "^ +[0-9.]+% +[0-9.]+% \[\.\] leaf_work"' 20 "hotspot table"
ok
T send-keys -t main '>'
wait_screen ">children%" "> sorts by children"
set -- $(perf_children main)
main_children=$1 main_self=$2
wait_for 'screen | grep -Eq "^ +$main_self% +$main_children% \[\.\] main "' 10 \
	"main's row: $main_self% self, $main_children% children"
ok
# the selection stayed on leaf_work (the top row before the sort): c opens
# its callers, not those of the row now on top
T send-keys -t main c
wait_screen "callers and callees of leaf_work" "c after the re-sort: leaf_work's callers"
T send-keys -t main q
wait_screen ">children%" "q back to the hotspots"
T send-keys -t main q
wait_screen 'READY$' "q quits"
echo "PASS: $CHECKS checks"
