#!/bin/sh
# cyctop tree end to end: the papers' numbers, the contract ids, perf stat
# input, and one-line errors for bad input.
. "$SRCDIR/tests/lib.sh"

# AMD paper section 5.2 and 5.3/5.4, printed precision
run "$CYCTOP" tree --arch amd --clock-hz 2.2e9 --format csv "$EX/amd-matmul-bandwidth.counts"
expect_rc 0 "amd bandwidth"
expect_out "id,value,unit" "csv header"
expect_near seconds 11.4804 0.00001
expect_near bandwidth.read 352.8797 0.0001
expect_near bandwidth.write 5.8883 0.0001
expect_near bandwidth.dram 360.1268 0.0001
expect_out "ipc,not measured,ratio" "missing input prints as not measured"

run "$CYCTOP" tree --arch amd --format csv "$EX/amd-matmul-dc.counts"
expect_rc 0 "amd dc"
expect_near dc.request_rate 0.589 0.001
expect_near dc.miss_rate 0.085 0.006
expect_near dc.miss_ratio 0.144 0.004
run "$CYCTOP" tree --arch amd --format csv "$EX/amd-matmul-dtlb.counts"
expect_rc 0 "amd dtlb"
expect_near dtlb.l1_request_rate 0.5902 0.0001
expect_near dtlb.l1_miss_rate 0.3184 0.0002
expect_near dtlb.l2_miss_rate 0.2310 0.0003
expect_near dtlb.l1_miss_ratio 0.5394 0.0002
expect_near dtlb.l2_miss_ratio 0.7257 0.0002
expect_out "bandwidth.read,not measured,MB/s" "no time reference, no bandwidth"

# Without --arch the tree is guessed from the events.
run "$CYCTOP" tree "$EX/amd-matmul-dtlb.counts"
expect_rc 0 "guess amd"
expect_out "AMD basic measurements" "guessed amd tree"
run "$CYCTOP" tree "$EX/ia64-handmade.counts"
expect_out "IA-64 back-end bubbles" "guessed ia64 tree"

# Every contract id is printed, for each tree.
run "$CYCTOP" tree --arch core2 --clock-hz 2.4e9 --format csv "$EX/core2-handmade.counts"
expect_rc 0 "core2"
for id in cycles cycles.retired cycles.non_retired cycles.stalls cycles.stalls.l2_hit \
	cycles.stalls.l2_miss cycles.stalls.dtlb_miss cycles.stalls.br_miss_clear \
	cycles.stalls.unaccounted uop_dispatch_rate ilp.0 ilp.1 ilp.2 ilp.3 ilp.4 ilp.5 \
	ilp.6 ilp.mean fsb.utilization fsb.bandwidth; do
	[ -n "$(csv_value "$id")" ] || fail "core2 csv lacks $id"
	ok
done
expect_near cycles.stalls.l2_miss 247500000 1e-12
expect_near cycles.stalls.unaccounted 94500000 1e-12
expect_near ilp.mean 1.53 1e-9
expect_near fsb.bandwidth 1382.4 1e-9
run "$CYCTOP" tree --arch core2 --penalties server --format csv "$EX/core2-handmade.counts"
expect_near cycles.stalls.l2_miss 450000000 1e-12

run "$CYCTOP" tree --arch ia64 --format csv "$EX/ia64-handmade.counts"
for id in cycles cycles.unstalled cycles.stalls cycles.stalls.flush cycles.stalls.flush.xpn \
	cycles.stalls.flush.bru cycles.stalls.l1d_fpu cycles.stalls.exe \
	cycles.stalls.exe.grall cycles.stalls.exe.frall cycles.stalls.exe.grgr \
	cycles.stalls.rse cycles.stalls.fe cycles.stalls.residual; do
	[ -n "$(csv_value "$id")" ] || fail "ia64 csv lacks $id"
	ok
done
expect_near cycles.stalls.residual 0 0

run "$CYCTOP" tree --arch amd --format csv "$EX/amd-matmul-dtlb.counts"
for id in ipc cpi seconds bandwidth.read bandwidth.write bandwidth.dram dc.request_rate \
	dc.miss_rate dc.miss_ratio ic.miss_rate l2.miss_rate l3.miss_rate \
	dtlb.l1_request_rate dtlb.l1_miss_rate dtlb.l1_miss_ratio dtlb.l2_request_rate \
	dtlb.l2_miss_rate dtlb.l2_miss_ratio itlb.l1_miss_rate branch.mispred_ratio \
	ret.stack_mispred_ratio misalign.rate fp.fpu_op_rate; do
	[ -n "$(csv_value "$id")" ] || fail "amd csv lacks $id"
	ok
done

# JSON is valid and says what is missing.
run "$CYCTOP" tree --arch core2 --format json "$EX/core2-handmade.counts"
expect_rc 0 "json"
expect_out '"missing": ["LOAD_BLOCK.STA"]' "json names missing events"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/out" ||
		fail "tree json does not parse"
	ok
fi

# Nonsense is flagged, not hidden.
printf 'CPU_CYCLES,100\nBACK_END_BUBBLE.ALL,150\n' >"$TMP/bad-ia64.counts"
run "$CYCTOP" tree --arch ia64 "$TMP/bad-ia64.counts"
expect_rc 0 "nonsense still prints"
expect_err "warning: cycles.unstalled: negative" "negative flagged"

# perf stat -x, output is accepted as it is (software events count here).
if command -v perf >/dev/null 2>&1 &&
	perf stat -x, -o "$TMP/perf.stat" -e task-clock,page-faults,context-switches,cpu-migrations \
		-- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' 2>/dev/null; then
	run "$CYCTOP" tree --arch sw --format csv "$TMP/perf.stat"
	expect_rc 0 "perf stat input"
	cpu=$(csv_value cpu_seconds)
	awk -v c="$cpu" 'BEGIN { exit !(c > 0 && c < 60) }' || fail "cpu_seconds $cpu"
	ok
	[ "$(csv_value page_faults)" != "not measured" ] || fail "page faults from perf stat"
	ok
fi

# Bad input: one line naming the culprit, non-zero exit.
printf 'CPU_CLK_UNHALTED.CORE,100\nRS_UOPS_DISPATCHED,abc\n' >"$TMP/bad.counts"
run "$CYCTOP" tree "$TMP/bad.counts"
[ "$RC" -ne 0 ] || fail "malformed counts accepted"
expect_err "bad.counts:2: value 'abc' is not a number" "file:line error"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "error is not one line: $(cat "$TMP/err")"
ok
printf 'CPU_CLK_UNHALTED.CORE,-5\n' >"$TMP/neg.counts"
run "$CYCTOP" tree "$TMP/neg.counts"
expect_rc 1 "negative count"
expect_err "neg.counts:1: negative count" "negative count named"
printf 'X,1,0\n' >"$TMP/period.counts"
run "$CYCTOP" tree "$TMP/period.counts"
expect_err "period.counts:1: period '0'" "zero period"
printf '# only a comment\n' >"$TMP/empty.counts"
run "$CYCTOP" tree "$TMP/empty.counts"
expect_err "empty.counts: no event counts" "empty file"
run "$CYCTOP" tree "$TMP/does-not-exist"
expect_rc 1 "missing file"
expect_err "does-not-exist: No such file or directory" "missing file named"
run "$CYCTOP" tree --arch sparc "$EX/core2-handmade.counts"
expect_rc 2 "unknown arch"
expect_err "unknown --arch 'sparc'" "arch named"
run "$CYCTOP" tree --clock-hz fast "$EX/core2-handmade.counts"
expect_rc 2 "bad clock"
printf 'l2_miss,200\nl3_miss,40\n' >"$TMP/pen.txt"
run "$CYCTOP" tree --penalties "$TMP/pen.txt" "$EX/core2-handmade.counts"
expect_rc 1 "bad penalties file"
expect_err "pen.txt:2: unknown penalty 'l3_miss'" "penalty file line"
printf 'l2_miss,200\n' >"$TMP/pen.txt"
run "$CYCTOP" tree --arch core2 --penalties "$TMP/pen.txt" --format csv "$EX/core2-handmade.counts"
expect_near cycles.stalls.l2_miss 300000000 1e-12
run "$CYCTOP" tree
expect_rc 2 "no file"

done_ok
