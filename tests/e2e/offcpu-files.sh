#!/bin/sh
# Off-CPU time from files: cyctop record -e off-cpu writes the switch
# records and the switch-out samples into a perf.data that perf script and
# perf report read (a SWITCH OUT record per off-cpu sample), and cyctop -i
# gives the wall time again; perf's own perf record -e context-switches -g
# --switch-events file reads with perf report's shares of its samples, and
# the wall time its switch records and stacks give; cyctop diff compares
# two recordings' off-cpu.  Against
# workloads/offcpu's own figure (its sleeping, within 10%).
. "$SRCDIR/tests/e2e/lib.sh"

offcpu_or_skip

# sleep_bucket FILE PROGRAM-STDERR: "PROGRAM-NS CYCTOP-SLEEP-NS"
sleep_bucket() {
	"$CYCTOP" -i "$1" -b --format json >"$TMP/in.json" 2>"$TMP/in.err" ||
		fail "cyctop -i $1: $(cat "$TMP/in.err")"
	prog=$(sed -n 's/.*waited_ns=\([0-9]*\).*/\1/p' "$2")
	got=$(json_last "$TMP/in.json" 'o["wall"]["off_cpu"]["sleep"]')
	echo "$prog $got"
}

within10() { # WHAT PROGRAM GOT
	echo "$1: program $2 ns, cyctop sleep $3 ns"
	awk -v p="$2" -v g="$3" 'BEGIN { d = g - p; if (d < 0) d = -d; exit !(p > 0 && d <= 0.10 * p) }' ||
		fail "$1: sleep $3 ns, the program slept $2 ns"
	ok
}

# --- cyctop record ---------------------------------------------------------
(cd "$TMP" && "$CYCTOP" record -e cpu-clock,off-cpu -o "$TMP/c.data" -- "$OFFCPU" sleep 1) \
	>"$TMP/rec.out" 2>"$TMP/rec.err" || fail "cyctop record: $(cat "$TMP/rec.err")"
set -- $(sleep_bucket "$TMP/c.data" "$TMP/rec.err")
within10 "cyctop record, cyctop -i" "$1" "$2"
perf script -i "$TMP/c.data" --show-switch-events >"$TMP/script" 2>"$TMP/script.err" ||
	fail "perf script: $(head -3 "$TMP/script.err")"
outs=$(grep -c 'PERF_RECORD_SWITCH OUT' "$TMP/script")
samples=$(grep -c ' off-cpu: *$' "$TMP/script")
echo "perf script: $outs SWITCH OUT records, $samples off-cpu samples"
[ "$outs" -gt 10 ] && [ "$samples" -eq "$outs" ] ||
	fail "perf script: $outs switch-outs, $samples off-cpu samples (one each)"
grep -q 'do_nanosleep' "$TMP/script" || fail "perf script: no do_nanosleep in the stacks"
ok
perf report -i "$TMP/c.data" --stdio --no-children >"$TMP/report" 2>"$TMP/report.err" ||
	fail "perf report: $(head -3 "$TMP/report.err")"
grep -q "of event 'off-cpu'" "$TMP/report" || fail "perf report: no off-cpu event"
ok

# cyctop diff compares off-cpu like any event: the pipe workload's waits in
# read are new against the sleep workload's recording
(cd "$TMP" && "$CYCTOP" record -e off-cpu -o "$TMP/pipe.data" -- "$OFFCPU" pipe 1) \
	>/dev/null 2>"$TMP/pipe.err" || fail "cyctop record pipe: $(cat "$TMP/pipe.err")"
"$CYCTOP" diff "$TMP/c.data" "$TMP/pipe.data" >"$TMP/diff" 2>"$TMP/diff.err" ||
	fail "cyctop diff: $(cat "$TMP/diff.err")"
grep -q '^# event off-cpu: total +' "$TMP/diff" || fail "diff: no off-cpu total: $(head -8 "$TMP/diff")"
grep -E ' read .*\(new only\)' "$TMP/diff" >/dev/null || fail "diff: read not new: $(cat "$TMP/diff")"
ok

# --- perf record -e context-switches -g --switch-events ---------------------
(cd "$TMP" && perf record -o "$TMP/p.data" -e context-switches -g --switch-events \
	-- "$OFFCPU" sleep 1) >"$TMP/perf.out" 2>"$TMP/perf.err" || fail "perf record: $(cat "$TMP/perf.err")"
set -- $(sleep_bucket "$TMP/p.data" "$TMP/perf.err")
within10 "perf record, cyctop -i" "$1" "$2"
# its samples as perf report counts them: the shares of each function
perf report -i "$TMP/p.data" --stdio --no-children --sort symbol 2>/dev/null |
	awk '$1 ~ /%$/ && $2 ~ /^\[/ { sub("%", "", $1); print $3, $1 }' >"$TMP/perf-shares"
[ -s "$TMP/perf-shares" ] || fail "perf report printed no shares"
while read -r sym pct; do
	got=$(json_last "$TMP/in.json" "round(pct('$sym', 'context-switches'), 2)")
	awk -v a="$got" -v b="$pct" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01) }' ||
		fail "$sym: cyctop $got%, perf report $pct%"
	ok
done <"$TMP/perf-shares"
done_ok
