#!/bin/sh
# A stream's order comes from its writer's FINISHED_ROUND records, not from
# the pipe running dry: tests/e2e/mk-perfdata.py stream writes one round in
# pieces with pauses, its MMAP (time 5) after samples of times 10 and 20.
# Read from the pipe, every sample is in work_60, as perf report reads the
# same stream saved to a file (a dry pipe ended a round: 2 of 3 samples
# were delivered before their mapping, [unknown]).
. "$SRCDIR/tests/e2e/lib.sh"

command -v perf >/dev/null 2>&1 || { echo "SKIP: no perf"; exit 77; }
command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }
MK="$SRCDIR/tests/e2e/mk-perfdata.py"
python3 "$MK" stream "$WORKLOADS/mix" >"$TMP/s.data" || fail "writing the stream"
want=$(perf report -i "$TMP/s.data" --stdio --sort sym 2>/dev/null |
	awk '$1 ~ /%$/ && $3 == "work_60" { sub("%", "", $1); print $1 }')
[ "$want" = "100.00" ] || fail "perf report: work_60 $want %"
ok
python3 "$MK" stream "$WORKLOADS/mix" | "$CYCTOP" -b --format json -i - >"$TMP/out" 2>"$TMP/err" ||
	fail "cyctop -i -: $(cat "$TMP/err")"
expect_true "$(json_last "$TMP/out" "pct('work_60', 'cpu-clock') == 100.0")" \
	"work_60's share from the pipe: $(json_last "$TMP/out" "pct('work_60', 'cpu-clock')"), perf report $want"
done_ok
