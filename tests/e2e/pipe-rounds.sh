#!/bin/sh
# A stream's order comes from its writer's FINISHED_ROUND records, not from
# the pipe running dry: tests/e2e/mk-perfdata.py stream writes one round in
# pieces with pauses, its MMAP (time 5) after samples of times 10 and 20.
# Read from the pipe, every sample is in work_60, as perf report reads the
# same stream saved to a file (a dry pipe ended a round: 2 of 3 samples
# were delivered before their mapping, [unknown]).
# A record older than what a round's end delivered (mk-perfdata.py late)
# is added late and said once, as perf report's "out of order events".
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

python3 "$MK" late "$TMP/late.data" "$WORKLOADS/mix" || fail "writing the late file"
perf report -i "$TMP/late.data" --stdio >/dev/null 2>"$TMP/perf-err"
grep -q '1 out of order events' "$TMP/perf-err" || fail "perf report: $(cat "$TMP/perf-err")"
"$CYCTOP" -b --format json -i "$TMP/late.data" >"$TMP/out" 2>"$TMP/err" ||
	fail "cyctop -i late.data: $(cat "$TMP/err")"
grep -q '1 record out of time order' "$TMP/err" || fail "no out-of-order notice: $(cat "$TMP/err")"
expect_true "$(json_last "$TMP/out" "pct('work_60', 'cpu-clock') == 100.0")" "the late sample not in work_60"
done_ok
