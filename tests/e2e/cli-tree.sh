#!/bin/sh
# cyctop tree end to end: the papers' numbers, the contract ids, perf stat
# input, and one-line errors for bad input.
. "$SRCDIR/tests/e2e/lib.sh"

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

# The modern trees on hand-made perf stat -x, files (examples/*-handmade.counts;
# the expected numbers are perf's formulas worked out by hand, as in
# tests/unit/test-tree-topdown.c).
run "$CYCTOP" tree --arch topdown --format csv "$EX/skl-handmade.counts"
expect_rc 0 "topdown skl"
for id in slots topdown.frontend_bound topdown.frontend_bound.fetch_latency \
	topdown.frontend_bound.fetch_bandwidth topdown.bad_speculation \
	topdown.bad_speculation.branch_mispredicts topdown.bad_speculation.machine_clears \
	topdown.backend_bound topdown.backend_bound.memory_bound topdown.backend_bound.core_bound \
	topdown.retiring topdown.retiring.heavy_operations topdown.retiring.light_operations; do
	[ -n "$(csv_value "$id")" ] || fail "topdown csv lacks $id"
	ok
done
expect_near slots 4e9 1e-12
expect_near topdown.frontend_bound 0.2 1e-12
expect_near topdown.bad_speculation 0.07 1e-12
expect_near topdown.backend_bound 0.13 1e-12
expect_near topdown.retiring 0.6 1e-12
expect_near topdown.retiring.heavy_operations 0.075 1e-12
# --smt on: core clocks = THREAD / 2 x (1 + ONE_THREAD_ACTIVE / REF_XCLK)
run "$CYCTOP" tree --arch topdown --smt on --format csv "$EX/skl-handmade.counts"
expect_near slots 3.5e9 1e-12
expect_near topdown.retiring 0.685714285714286 1e-12
run "$CYCTOP" tree --arch topdown --smt off "$EX/skl-handmade.counts"
expect_out "Skylake" "skl formulas picked from the events"
expect_out "SMT off" "smt said"
run "$CYCTOP" tree --arch topdown --smt maybe "$EX/skl-handmade.counts"
expect_rc 2 "bad --smt"
expect_err "--smt 'maybe': want off or on" "--smt named"

run "$CYCTOP" tree --arch topdown --format csv "$EX/icl-topdown-handmade.counts"
expect_near topdown.frontend_bound 0.21 1e-12
expect_near topdown.backend_bound 0.404 1e-12
expect_near topdown.bad_speculation 0.086 1e-12
expect_near topdown.frontend_bound.fetch_latency 0.14 1e-12
expect_near topdown.retiring.heavy_operations 0.06 1e-12

run "$CYCTOP" tree --arch topdown --format csv "$EX/spr-hybrid-handmade.counts"
expect_rc 0 "topdown spr hybrid"
expect_near slots 6e9 1e-12
expect_near topdown.retiring 0.4 1e-12
expect_near topdown.backend_bound.memory_bound 0.25 1e-12
expect_near topdown.bad_speculation 0.06 1e-12
expect_err "5 cpu_atom (E-core) events kept apart" "hybrid rows kept apart"
run "$CYCTOP" tree --arch topdown --pmu cpu_atom --format csv "$EX/spr-hybrid-handmade.counts"
expect_rc 0 "the E-core tree"
expect_near slots 2e9 1e-12
expect_near topdown.frontend_bound 0.3 1e-12
expect_near topdown.bad_speculation 0.1 1e-12
[ ! -s "$TMP/err" ] || fail "E-core tree: $(cat "$TMP/err")"
ok
run "$CYCTOP" tree --arch topdown --pmu cpu_atom "$EX/skl-handmade.counts"
expect_rc 1 "--pmu cpu_atom without atom rows"
expect_err "no cpu_atom events" "said"
run "$CYCTOP" tree --pmu e-core "$EX/skl-handmade.counts"
expect_rc 2 "bad --pmu"

run "$CYCTOP" tree --arch topdown --format csv "$EX/zen4-handmade.counts"
expect_near slots 6e9 1e-12
expect_near topdown.frontend_bound 0.2 1e-12
expect_near topdown.backend_bound.memory_bound 0.25 1e-12
expect_near topdown.retiring.heavy_operations 0.015 1e-12
expect_near topdown.smt_contention 0.05 1e-12
run "$CYCTOP" tree --arch topdown --format json "$EX/zen4-handmade.counts"
python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); assert d["tree"] == "topdown"' \
	"$TMP/out" || fail "topdown json"
ok

# bins_sum MAX: ilp.0 + .. + ilp.MAX of the csv in $TMP/out
bins_sum() {
	awk -F, -v n="$1" '$1 ~ /^ilp\.[0-9]+$/ { k = substr($1, 5) + 0; if (k <= n) s += $2 }
		END { printf "%.0f", s }' "$TMP/out"
}

run "$CYCTOP" tree --arch intel --format csv "$EX/skl-handmade.counts"
expect_rc 0 "intel"
for id in cycles cycles.retired cycles.non_retired cycles.stalls cycles.stalls.memory \
	cycles.stalls.memory.l1 cycles.stalls.memory.l2 cycles.stalls.memory.l3 \
	cycles.stalls.memory.dram cycles.stalls.core store_bound ilp.0 ilp.1 ilp.8 ilp.mean; do
	[ -n "$(csv_value "$id")" ] || fail "intel csv lacks $id"
	ok
done
[ "$(bins_sum 8)" = "$(csv_value cycles)" ] || fail "intel ILP bins sum $(bins_sum 8)"
ok
[ -z "$(csv_value ilp.9)" ] || fail "skl has 8 ports, not 9"
ok
expect_near cycles.stalls.memory.dram 60000000 1e-12
expect_near ilp.mean 1.985 1e-12
[ ! -s "$TMP/err" ] || fail "intel warnings: $(cat "$TMP/err")"
ok

run "$CYCTOP" tree --arch zen --format csv "$EX/zen4-handmade.counts"
expect_rc 0 "zen"
for id in cycles cycles.retired cycles.non_retired cycles.stalls no_retire no_retire.empty \
	no_retire.load_not_complete no_retire.not_complete_other no_retire.other \
	no_retire.thread_not_selected ilp.0 ilp.8 ilp.mean; do
	[ -n "$(csv_value "$id")" ] || fail "zen csv lacks $id"
	ok
done
[ "$(bins_sum 8)" = "$(csv_value cycles)" ] || fail "zen ILP bins sum $(bins_sum 8)"
ok
expect_near cycles.stalls 350000000 1e-12
expect_near ilp.mean 1.8 1e-12
run "$CYCTOP" tree --arch amd --format csv "$EX/zen4-handmade.counts"
expect_near ipc 1.5 1e-12
expect_near dc.miss_ratio 0.0333333333333333 1e-9

# Without --arch: the tree most of whose events the file holds.
run "$CYCTOP" tree "$EX/skl-handmade.counts"
expect_out "Core2 cycle accounting on Intel (8 ports)" "guessed intel"
run "$CYCTOP" tree "$EX/icl-topdown-handmade.counts"
expect_out "TopDown (perf tma_*, Ice Lake)" "guessed topdown icl"

# --model names the formulas of cyctop's own tables (whatever the host).
"$CYCTOP" list models 2>/dev/null | grep -q '^skl ' || fail "no skl among cyctop's models"
ok
{
	run "$CYCTOP" tree --arch topdown --model skl --format csv "$EX/skl-handmade.counts"
	expect_rc 0 "--model skl"
	expect_near topdown.frontend_bound 0.2 1e-12
	run "$CYCTOP" tree --arch intel --model spr --format csv "$EX/skl-handmade.counts"
	expect_rc 0 "--model spr"
	[ "$(csv_value ilp.12)" = "not measured" ] || fail "spr has 12 ports"
	ok
	# perf's raw terms resolve through the model's rows: the same tree
	sed -e 's|cpu/uops_executed.thread,cmask=1,inv/|cpu/event=0xb1,umask=0x1,cmask=1,inv/|' \
		-e 's|cpu/uops_executed.thread,cmask=\([0-9]\)/|cpu/event=0xb1,umask=0x01,cmask=\1/|' \
		"$EX/skl-handmade.counts" >"$TMP/skl-raw.counts"
	[ "$(grep -c 'event=0xb1' "$TMP/skl-raw.counts")" -eq 9 ] || fail "raw file"
	run "$CYCTOP" tree --arch intel --model skl --format csv "$TMP/skl-raw.counts"
	cp "$TMP/out" "$TMP/raw.csv"
	run "$CYCTOP" tree --arch intel --model skl --format csv "$EX/skl-handmade.counts"
	cmp -s "$TMP/out" "$TMP/raw.csv" || fail "raw terms differ: $(diff "$TMP/out" "$TMP/raw.csv")"
	ok
}

# JSON is valid and says what is missing.
run "$CYCTOP" tree --arch core2 --format json "$EX/core2-handmade.counts"
expect_rc 0 "json"
expect_out '"missing": ["LOAD_BLOCK.STA"]' "json names missing events"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/out" ||
	fail "tree json does not parse"
ok

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
	# the tree's seconds are the file's task-clock (msec), its faults the file's
	ms=$(awk -F, '$3 == "task-clock" { print $1 }' "$TMP/perf.stat")
	pf=$(awk -F, '$3 == "page-faults" { print $1 }' "$TMP/perf.stat")
	expect_near cpu_seconds "$(awk -v m="$ms" 'BEGIN { print m / 1000 }')" 1e-9
	expect_near page_faults "$pf" 0
else
	skip_part "perf stat unavailable: its -x, output not read"
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


# Arm: the master equation and perf's TopDown level 1 on the hand-made
# Neoverse counts (values worked out in tests/unit/test-tree-arm.c)
run "$CYCTOP" tree --arch arm --model arm_n1 --format csv "$EX/neoverse-n1-handmade.counts"
expect_rc 0 "arm tree on N1"
for id in cycles cycles.retired cycles.non_retired cycles.stalls cycles.stalls.frontend \
	cycles.stalls.backend cycles.stalls.backend.unaccounted ipc retired_fraction; do
	v=$(csv_value "$id")
	[ -n "$v" ] && [ "$v" != "not measured" ] || fail "arm N1 csv: $id is '$v'"
	ok
done
expect_near cycles.retired 400000000 1e-12
expect_near cycles.non_retired 100000000 1e-12
run "$CYCTOP" tree --arch topdown --model arm_n2 "$EX/neoverse-v2-handmade.counts"
expect_rc 0 "topdown on N2"
expect_out "TopDown level 1 (perf, Neoverse N2/V2)" "N2/V2 formulas"
run "$CYCTOP" tree --arch topdown --model arm_v2 --format csv "$EX/neoverse-v2-handmade.counts"
expect_near topdown.frontend_bound 0.19 1e-9
expect_near topdown.bad_speculation 0.14 1e-9
expect_near topdown.backend_bound 0.27 1e-9
expect_near topdown.retiring 0.40 1e-9
run "$CYCTOP" tree --format csv "$EX/neoverse-v2-handmade.counts"
expect_near cycles.stalls.backend.memory 160000000 1e-12
expect_near cycles.stalls.backend.unaccounted 120000000 1e-12
run "$CYCTOP" tree --arch topdown --model arm_n1 "$EX/neoverse-n1-handmade.counts"
expect_rc 2 "no topdown on N1"
expect_err "no slot events" "why named"
run "$CYCTOP" tree --arch arm --model arm_n1 "$EX/neoverse-n1-handmade.counts"
expect_out "(no ILP histogram on this CPU: its PMU has no counter threshold (Armv8 before FEAT_PMUv3_TH))" "no ILP, said why"
# --slots: the recording machine's caps/slots in perf's #slots (N2 at 5 is
# the default; at 8 the V2 figures)
run "$CYCTOP" tree --arch topdown --model arm_n2 --slots 8 --format csv "$EX/neoverse-v2-handmade.counts"
expect_near topdown.frontend_bound 0.19 1e-9
expect_near slots 8000000000 1e-12
run "$CYCTOP" tree --arch topdown --model arm_n2 --format csv "$EX/neoverse-v2-handmade.counts"
expect_near slots 5000000000 1e-12
expect_near topdown.frontend_bound 0.31 1e-9
run "$CYCTOP" tree --slots 0 "$EX/neoverse-v2-handmade.counts"
expect_rc 2 "slots out of range"
# --measured (./build.sh demo's trees): every row printed has a value or
# is a folded line "(N rows not measured: needs ...)"; the printed and folded
# rows are the whole tree; the demo's four trees fit in about 80 lines.
lines=0
for f in core2-handmade ia64-handmade amd-matmul-dc icl-topdown-handmade; do
	run "$CYCTOP" tree --measured --clock-hz 2.2e9 "$EX/$f.counts"
	expect_rc 0 "--measured $f"
	grep -q "not measured: needs" "$TMP/out" && ! grep -q "^ *(" "$TMP/out" &&
		fail "$f: an unfolded unmeasured row"
	grep -v '^ *(' "$TMP/out" | grep -q ' - *not measured' && fail "$f: a row without a value"
	shown=$(($(grep -vc '^ *(' "$TMP/out") - 1))
	folded=$(sed -n 's/^ *(\([0-9]*\) rows* not measured.*/\1/p' "$TMP/out" | awk '{ s += $1 } END { print s + 0 }')
	cp "$TMP/out" "$TMP/measured"
	run "$CYCTOP" tree --clock-hz 2.2e9 "$EX/$f.counts"
	all=$(($(wc -l <"$TMP/out") - 1))
	[ $((shown + folded)) -eq "$all" ] || fail "$f: $shown shown + $folded folded, the tree has $all"
	ok
	lines=$((lines + $(wc -l <"$TMP/measured") + 2))
done
[ "$lines" -le 80 ] || fail "the demo's trees take $lines lines"
ok
# the models after libpfm4 4.13, picked by their files' events: Zen 5 (perf's
# amdzen5/pipeline.json: 8 slots, restarts by bp_redirects.resync), Sierra
# Forest (srf-metrics.json, 6 slots), Granite Rapids (spr's formulas)
run "$CYCTOP" tree --arch topdown --format csv "$EX/zen5-handmade.counts"
expect_rc 0 "zen5 topdown"
expect_near slots 8000000000 1e-12
expect_near topdown.bad_speculation.branch_mispredicts 0.035 1e-9
run "$CYCTOP" tree --arch topdown --format csv "$EX/srf-handmade.counts"
expect_rc 0 "srf topdown"
expect_near slots 6000000000 1e-12
expect_near topdown.backend_bound.resource_bound 0.25 1e-9
run "$CYCTOP" tree --arch topdown --model gnr --format csv "$EX/gnr-handmade.counts"
expect_rc 0 "gnr topdown"
expect_near topdown.retiring 0.45 1e-9
run "$CYCTOP" tree --arch zen --model zen5 --format csv "$EX/zen5-handmade.counts"
expect_rc 0 "zen5 master equation"
expect_near ilp 1000000000 1e-12
expect_near ilp.mean 2.2 1e-9
# Arm with a counter threshold (FEAT_PMUv3_TH, Linux 6.8+): the sweep
# OP_RETIRED:th=k (cycles retiring >= k ops) fills the ilp rows and the
# no-threshold line goes; hand-made steps 800e6, 700e6 ... 100e6 of 1e9
# cycles: bin 0 = 200e6, bins 1-8 = 100e6, mean 3600e6 / 1e9.
cp "$EX/neoverse-v2-handmade.counts" "$TMP/v2-th.counts"
for k in 1 2 3 4 5 6 7 8; do
	echo "$(( (9 - k) * 100000000 )),,OP_RETIRED:th=$k,1000000000,100.00,," >>"$TMP/v2-th.counts"
done
run "$CYCTOP" tree --arch arm "$TMP/v2-th.counts"
expect_rc 0 "arm threshold sweep"
grep -q "FEAT_PMUv3_TH" "$TMP/out" && fail "a sweep, yet the no-threshold line"
run "$CYCTOP" tree --arch arm --format csv "$TMP/v2-th.counts"
expect_near ilp 1000000000 1e-12
expect_near ilp.0 200000000 1e-12
expect_near ilp.5 100000000 1e-12
expect_near ilp.8 100000000 1e-12
expect_near ilp.mean 3.6 1e-9
expect_near retired_fraction 0.8 1e-9
# the steps before the plain OP_RETIRED: still two events (f = 2400e6 / 3000e6)
{ grep ':th=' "$TMP/v2-th.counts"; grep -v ':th=' "$TMP/v2-th.counts"; } >"$TMP/v2-th-first.counts"
run "$CYCTOP" tree --arch arm --format csv "$TMP/v2-th-first.counts"
expect_near retired_fraction 0.8 1e-9
expect_near ilp.0 200000000 1e-12
done_ok
