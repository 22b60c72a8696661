#!/bin/sh
# cyctop list end to end: models, encodings under forced models, presets,
# trees, metrics.
. "$SRCDIR/tests/e2e/lib.sh"

run "$CYCTOP" list models
expect_rc 0 "list models"
expect_out "core              2       3" "core2 inventory"
expect_out "amd64_fam10h      4       0" "fam10h inventory"
expect_out "skl               4/8     3" "skl inventory: 4 generic with SMT on, 8 off"
expect_out "spr               8       4" "spr inventory"
expect_out "(this host)" "host model marked"

run "$CYCTOP" list events --model core CYCLES_NONE
expect_rc 0 "list events core"
expect_out "RS_UOPS_DISPATCHED:c=1:i=1 -> type=4 config=0x18000a0" "cycles_none encoding"
run "$CYCTOP" list events --model amd64_fam10h_barcelona L3_requests
expect_out "config=0x40000f7e0" "L3 encoding with extended select"
run "$CYCTOP" list events --model core 'RS_UOPS_DISPATCHED:c=3:i=1'
expect_out "config=0x38000a0" "row by libpfm4 string"
run "$CYCTOP" list events --model core 'NO_SUCH_EVENT'
expect_rc 1 "unknown event"
expect_err "NO_SUCH_EVENT" "unknown event named"

run "$CYCTOP" list presets
expect_out "@big4" "big4 listed"
expect_out "MEM_LOAD_RETIRED.L2_LINE_MISS            sav 10000" "big4 SAV"
expect_out "@amd-dc" "amd presets listed"
run "$CYCTOP" list trees
expect_out "core2" "core2 tree listed"
expect_out "ia64" "ia64 tree listed"
expect_out "TopDown (perf tma_*, Ice Lake)" "topdown variants listed"
grep -qE "^intel .*(12 ports).* spr( |$)" "$TMP/out" || fail "intel spr variant: $(cat "$TMP/out")"
ok
run "$CYCTOP" list metrics --arch topdown --model spr
expect_out "spr-metrics.json" "the model's variant of the metrics"
run "$CYCTOP" list metrics --arch ia64
expect_out "cycles.stalls.residual" "ia64 metrics"
# a first word that is no kind is a pattern of events (perf list PATTERN);
# a typo of a kind gets a guess
run "$CYCTOP" list bogus
expect_rc 1 "a pattern nothing matches"
expect_err "event 'bogus'" "pattern named"
run "$CYCTOP" list modles
expect_rc 2 "a mistyped kind"
[ "$(cat "$TMP/err")" = "cyctop: list: unknown kind 'modles': did you mean 'models'? (see cyctop list --help)" ] ||
	fail "mistyped kind: $(cat "$TMP/err")"
ok
run "$CYCTOP" list --model perf 'cpu-*'
expect_out "cpu-clock                                -> type=1 config=0x0" "a glob of events"
expect_out "cpu-migrations|migrations                -> type=1 config=0x4" "a glob of an alias"
run "$CYCTOP" list models --model zen4
[ "$(wc -l <"$TMP/out")" -eq 2 ] || fail "list models --model zen4: $(cat "$TMP/out")"
expect_out "amd64_fam19h_zen4 6" "the model's row"
run "$CYCTOP" list events --model sparc
expect_rc 2 "unknown model"

# list groups: the group planner (arch/plan.c)
count_lines() { # FIXED-STRING: lines of $TMP/out containing it
	grep -cF -- "$1" "$TMP/out" || true
}
run "$CYCTOP" list groups -e @big4 --model core
expect_rc 0 "big4 plan"
expect_out "4 events in 2 groups on core (2 collections)" "big4 takes two collections (Core2 paper)"
[ "$(count_lines 'group ')" -eq 2 ] || fail "big4: not 2 groups: $(cat "$TMP/out")"
[ "$(count_lines 'FIXED1  CPU_CLK_UNHALTED.CORE  (reference, shared)')" -eq 2 ] ||
	fail "big4: cycles not on FIXED1 in both groups: $(cat "$TMP/out")"
ok
expect_out "PMC0    MEM_LOAD_RETIRED.L2_LINE_MISS" "PMC0-only event on PMC0"
run "$CYCTOP" list groups -e page-faults,context-switches,minor-faults --model perf --counters 1
expect_rc 0 "software plan with --counters 1"
expect_out "3 events in 3 groups on perf (3 collections)" "one software event per group"
[ "$(count_lines 'cpu-clock  (reference)')" -eq 3 ] ||
	fail "cpu-clock not added to every group: $(cat "$TMP/out")"
ok
run "$CYCTOP" list groups -e cpu-clock,page-faults,context-switches --model perf --counters 1
expect_out "3 events in 2 groups on perf" "the user's cpu-clock is the shared reference"
run "$CYCTOP" list groups -e page-faults,context-switches --model perf
expect_out "2 events in 1 group on perf (1 collection)" "no cap: one group"
run "$CYCTOP" list groups -e @amd-l2-indirect --model amd64_k8
expect_out "9 events in 3 groups on amd64_k8" "indirect L2 method: several runs"
expect_out "# partners together: DC_accesses + DC_refills_L2 + DC_refills_sys" "DC partners kept"
run "$CYCTOP" list groups -e @ia64 --model ia64
expect_rc 0 "IA-64 plan from the table (not in libpfm4)"
expect_out "7 events in 2 groups on ia64" "IA-64 back-end set"
run "$CYCTOP" list groups -e RS_UOPS_DISPATCHED,FP_ASSIST --model core --counters 1
expect_rc 1 "unplaceable event"
expect_err "FP_ASSIST" "unplaceable event named"
run "$CYCTOP" list groups --model core
expect_rc 2 "groups without -e"
run "$CYCTOP" list groups -e @big4 --model core --counters 0
expect_rc 2 "--counters 0"

# --- modern models (issue 15): presets per model, PERF_METRICS groups -----
run "$CYCTOP" list presets --model icl
expect_rc 0 "list presets --model icl"
for p in @cycles @topdown @ilp @memory @frontend; do
	expect_out "$p " "icl preset $p"
done
expect_out "UOPS_EXECUTED.THREAD:c=10 " "icl ILP sweep to c=10"
expect_out "topdown-be-bound" "icl topdown uses the PERF_METRICS events"
grep -q "@big4" "$TMP/out" && fail "Core2 presets shown for icl"
run "$CYCTOP" list presets --model spr ilp
expect_out "UOPS_EXECUTED.THREAD:c=12 " "spr ILP sweep to c=12"
run "$CYCTOP" list presets --model amd64_fam19h_zen4 ilp
expect_out "ex_ret_ops:c=8 " "Zen ILP sweep to c=8"

run "$CYCTOP" list groups --model spr -e @topdown
expect_rc 0 "spr topdown plan"
[ "$(sed -n '/^group 1:/{n;p;q}' "$TMP/out")" = "  FIXED3  TOPDOWN.SLOTS  (group leader: the PERF_METRICS events read through it)" ] ||
	fail "slots does not lead the first group: $(cat "$TMP/out")"
expect_out "  -       PERF_METRICS.MEMORY_BOUND" "topdown-mem-bound in the slots group, no counter"
expect_out "  FIXED0  INST_RETIRED.ANY" "instructions on the fixed counter"
expect_out "12 events in 1 group on spr" "spr topdown fits one group"
run "$CYCTOP" list groups --model icl -e topdown-retiring,cycles
expect_rc 1 "a metric without slots"
expect_err "needs TOPDOWN.SLOTS" "metric without slots named"
run "$CYCTOP" list groups --model icl -e slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound,UOPS_EXECUTED.THREAD:c=1,UOPS_EXECUTED.THREAD:c=2,UOPS_EXECUTED.THREAD:c=3,UOPS_EXECUTED.THREAD:c=4,UOPS_EXECUTED.THREAD:c=5,UOPS_EXECUTED.THREAD:c=6,UOPS_EXECUTED.THREAD:c=7,UOPS_EXECUTED.THREAD:c=8,UOPS_EXECUTED.THREAD:c=9
expect_rc 0 "icl slots group beside a sweep"
expect_out "14 events in 2 groups on icl" "8 generic counters: the sweep needs 2 groups"
run "$CYCTOP" list groups --model spr -e TOPDOWN.BAD_SPEC_SLOTS,TOPDOWN.BR_MISPREDICT_SLOTS
expect_rc 0 "spr counter-0 events"
expect_out "2 events in 2 groups on spr" "0x04a4 and 0x08a4 both need PMC0: apart"
run "$CYCTOP" list groups --model skl -e @ilp
expect_out "10 events in 3 groups on skl" "skl: 4 generic counters per thread (SMT on) for the 9-event sweep"
expect_out "# partners together: UOPS_EXECUTED.THREAD:c=1 + UOPS_EXECUTED.THREAD:c=2" "adjacent sweep steps together"
expect_out "# 4 generic counters per thread (SMT on" "SMT on by default"
run "$CYCTOP" list groups --model skl -e @ilp --smt off
expect_out "# 8 generic counters per thread (SMT off" "SMT off: the core's 8 counters"
expect_out "10 events in 2 groups on skl" "skl with SMT off: 8 generic counters"
run "$CYCTOP" list groups --model skl -e @ilp --smt maybe
expect_rc 2 "bad --smt"
run "$CYCTOP" list presets --smt off
expect_rc 2 "--smt outside list groups"
run "$CYCTOP" list groups --model spr -e @memory
expect_out "# partners together: EXE_ACTIVITY.BOUND_ON_LOADS + MEMORY_ACTIVITY.STALLS_L1D_MISS" "nested stall levels together"
run "$CYCTOP" list groups --model amd64_fam19h_zen4 -e @topdown
expect_rc 0 "zen4 topdown plan"
expect_out "on amd64_fam19h_zen4" "zen4 plan"
run "$CYCTOP" list presets --model skl topdown
expect_out "UOPS_RETIRED.MACRO_FUSED" "skl topdown heavy operations"
run "$CYCTOP" list groups --model core -e @topdown
expect_rc 1 "no @topdown on Core2"
expect_err "preset @topdown is for" "topdown refused on core"


# Arm models: 6 counters and the cycle counter, encodings from our table
run "$CYCTOP" list models arm_
expect_out "arm_n1            6       1     arm" "arm_n1 inventory"
expect_out "arm_v2            6       1     arm" "arm_v2 inventory"
run "$CYCTOP" list events --model arm_n1
expect_rc 0 "list events arm_n1"
expect_out "CPU_CYCLES                               event=0x0011 any        FIXED0 -> type=4 config=0x11" "cycles on the cycle counter"
expect_out "STALL_BACKEND                            event=0x0024 any               -> type=4 config=0x24" "stall_backend"
run "$CYCTOP" list events --model arm_v2 STALL_BACKEND_MEM
expect_out "event=0x4005" "16-bit event number"
for m in arm_n1 arm_n2 arm_v1 arm_v2 arm_ac57 arm_ac72 arm_ac76; do
	run "$CYCTOP" list groups -e @cycles --model $m
	expect_rc 0 "@cycles on $m"
	expect_out "in 1 group on $m" "@cycles one group on $m"
	expect_out "FIXED0  CPU_CYCLES  (reference)" "cycles on the cycle counter on $m"
done
run "$CYCTOP" list groups -e @topdown --model arm_n2
expect_out "7 events in 1 group on arm_n2" "arm topdown: 6 counters + the cycle counter"
run "$CYCTOP" list groups -e @topdown,@cycles --model arm_v1
expect_out "in 2 groups on arm_v1" "13 events do not fit 6 counters"
expect_out "# partners together: OP_RETIRED + OP_SPEC" "f's terms together"
run "$CYCTOP" list groups -e @topdown --model arm_n1
expect_rc 1 "no @topdown on N1"
run "$CYCTOP" list trees arm
expect_out "Core2 cycle accounting on Arm, micro-ops (V1, N2, V2)" "arm tree listed"
run "$CYCTOP" list metrics --arch topdown --model arm_v1
expect_out "neoverse-v1/metrics.json" "V1's topdown formulas"
# perf's names with their encodings and one-line descriptions (Linux 6.12
# tools/perf/pmu-events/arch/x86/amdzen4/load-store.json,
# sapphirerapids/pipeline.json v1.23, amdzen5/execution.json)
run "$CYCTOP" list events --model zen4 'ls_l1_d_tlb_miss.all'
expect_rc 0 "perf names on zen4"
expect_out "ls_l1_d_tlb_miss.all                     -> type=4 config=0xff45  L1 DTLB misses for all page sizes." "perf's zen4 event and description"
expect_out "# perf's events (x86/amdzen4 v1" "perf's source named"
run "$CYCTOP" list events --model spr 'INT_MISC.UNKNOWN_BRANCH_CYCLES'
expect_out "config=0x40ad config1=0x7" "frontend= MSR value in config1"
run "$CYCTOP" list events --model zen5 'ex_ret_ucode_ops'
expect_rc 0 "zen5 listed"
expect_out "ex_ret_ucode_ops" "zen5 row"
expect_out "config=0x1000000c2" "select 0x1c2 in config bits 32-35"
run "$CYCTOP" list groups --model zen5 -e ls_dispatch.ld_st_dispatch,ex_ret_ops
expect_rc 0 "groups of perf's zen5 names"
expect_out "ls_dispatch.ld_st_dispatch" "a perf name no row has"
n=$("$CYCTOP" list events --model srf | grep -c -- '-> type=4')
[ "$n" -ge 150 ] || fail "srf lists perf's events: $n rows"
ok
done_ok
