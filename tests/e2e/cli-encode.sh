#!/bin/sh
# cyctop encode end to end: the attr of each spelling, under forced models.
# Expected configs: intel/perfmon @6dadedf3 SPR/events/sapphirerapids_core.json
# v1.39, SKL/events/skylake_core.json v59, ICL/events/icelake_core.json v1.24,
# HSW/events/haswell_core.json v36, NHM-EP/events/NehalemEP_core.json v4;
# Linux tools/perf/pmu-events/arch/x86/amdzen4/*.json (ex_ret_ops 0xc1,
# de_no_dispatch_per_slot 0x1a0 umask 0x1, ex_no_retire.all 0xd6 umask 0x1b);
# topdown-* and slots: Linux arch/x86/events/intel/core.c EVENT_ATTR_STR.
# (../shared/MODERN-PMU.md sections 0.2 and 1 cross-check these.)
. "$SRCDIR/tests/e2e/lib.sh"

# row EVENT TYPE CONFIG: the CSV row of EVENT (quoted when it has commas)
row() {
	expect_out "$1,$2,$3,0x0" "$1"
}

# libpfm4 has the x86 models only where it was built for x86 (an arm64
# build has its arm tables): the rows of the x86 models run where it has
# them, after the rest
run "$CYCTOP" encode --model skl cycles
x86=1
if [ "$RC" -ne 0 ] && grep -q "libpfm4 does not know the PMU model 'skl'" "$TMP/err"; then
	x86=''
fi

# software events on this host, no model needed
run "$CYCTOP" encode cpu-clock page-faults
expect_rc 0 "software events"
row cpu-clock 1 0x0
row page-faults 1 0x2

run "$CYCTOP" encode --model nonesuch cycles
expect_rc 2 "unknown model"
expect_err "nonesuch" "unknown model named"
run "$CYCTOP" encode
expect_rc 2 "no events"


# Arm: the event number is attr.config, from cyctop's table (libpfm4 has no
# arm tables here); rNNNN is the event number as perf reads it.  Numbers:
# Linux tools/perf/pmu-events/arch/arm64/common-and-microarch.json.  The
# type is PERF_TYPE_RAW (4), or on an arm64 host the kernel's core PMU's own
# (dynamic) type, where raw codes go (the first armv8_*/armv9_* PMU's; 8 in
# the arm64 guest)
ARM_TYPE=4
for d in /sys/bus/event_source/devices/armv8_* /sys/bus/event_source/devices/armv9_*; do
	[ -r "$d/type" ] && ARM_TYPE=$(cat "$d/type") && break
done
run "$CYCTOP" encode --model arm_n1 CPU_CYCLES,inst_retired r11 stall_backend STALL_FRONTEND \
	INST_SPEC r1b cycles
expect_rc 0 "encode --model arm_n1"
row CPU_CYCLES "$ARM_TYPE" 0x11
row inst_retired "$ARM_TYPE" 0x8
row r11 "$ARM_TYPE" 0x11
row stall_backend "$ARM_TYPE" 0x24
row STALL_FRONTEND "$ARM_TYPE" 0x23
row INST_SPEC "$ARM_TYPE" 0x1b
row r1b "$ARM_TYPE" 0x1b
row cycles 0 0x0                             # the kernel's generic event, not cpu-clock
run "$CYCTOP" encode --model arm_v2 STALL_BACKEND_MEM r4005 op_retired OP_SPEC \
	STALL_SLOT_FRONTEND stall_slot_backend STALL_SLOT STALL
expect_rc 0 "encode --model arm_v2"
row STALL_BACKEND_MEM "$ARM_TYPE" 0x4005
row r4005 "$ARM_TYPE" 0x4005                 # 16 bits, not PERFEVTSEL's event/umask
row op_retired "$ARM_TYPE" 0x3a
row OP_SPEC "$ARM_TYPE" 0x3b
row STALL_SLOT_FRONTEND "$ARM_TYPE" 0x3e
row stall_slot_backend "$ARM_TYPE" 0x3d
row STALL_SLOT "$ARM_TYPE" 0x3f
row STALL "$ARM_TYPE" 0x3c
run "$CYCTOP" encode --model arm_n1 OP_RETIRED
expect_rc 1 "N1 has no OP_RETIRED"
expect_err "OP_RETIRED" "the event named"

[ -n "$x86" ] || {
	skip_part "libpfm4 here has no x86 models (an arm64 build): their rows"
	done_ok
}

run "$CYCTOP" encode --model spr TOPDOWN.BACKEND_BOUND_SLOTS TOPDOWN.BAD_SPEC_SLOTS \
	TOPDOWN.BR_MISPREDICT_SLOTS TOPDOWN.MEMORY_BOUND_SLOTS spr::TOPDOWN:BACKEND_BOUND_SLOTS \
	INST_RETIRED.ANY UOPS_RETIRED.MS slots topdown-retiring topdown-mem-bound \
	UOPS_ISSUED.ANY MEMORY_ACTIVITY.STALLS_L3_MISS 'UOPS_EXECUTED.THREAD:c=12'
expect_rc 0 "encode --model spr"
expect_out "event,type,config,config1" "CSV header"
row TOPDOWN.BACKEND_BOUND_SLOTS 4 0x2a4      # libpfm4 4.13: 0x200
row TOPDOWN.BAD_SPEC_SLOTS 4 0x4a4           # libpfm4 4.13: 0x400
row TOPDOWN.BR_MISPREDICT_SLOTS 4 0x8a4      # libpfm4 4.13: 0x800
row TOPDOWN.MEMORY_BOUND_SLOTS 4 0x10a4      # libpfm4 4.13: 0x1000
row spr::TOPDOWN:BACKEND_BOUND_SLOTS 4 0x2a4 # libpfm4's own string, corrected
row INST_RETIRED.ANY 4 0xc0                  # the kernel's FIXED0 form (libpfm4: 0x1c0)
expect_out "UOPS_RETIRED.MS,4,0x4c2,0x8" "frontend=0x8 in config1" # libpfm4 4.13: 0x8c2
row slots 4 0x400
row topdown-retiring 4 0x8000
row topdown-mem-bound 4 0x8700
row UOPS_ISSUED.ANY 4 0x1ae
row MEMORY_ACTIVITY.STALLS_L3_MISS 4 0x9000947
row 'UOPS_EXECUTED.THREAD:c=12' 4 0xc0001b1
# perf x86/sapphirerapids/pipeline.json v1.23: UMask 0x40, MSR 0x3F7 = 0x7 is
# perf's frontend= (config1); libpfm4 4.13 gives 0x7ad
run "$CYCTOP" encode --model spr INT_MISC.UNKNOWN_BRANCH_CYCLES spr::INT_MISC:UNKNOWN_BRANCH_CYCLES
expect_rc 0 "UNKNOWN_BRANCH_CYCLES"
expect_out "INT_MISC.UNKNOWN_BRANCH_CYCLES,4,0x40ad,0x7" "perf's name"
expect_out "spr::INT_MISC:UNKNOWN_BRANCH_CYCLES,4,0x40ad,0x7" "libpfm4's name, corrected"

# perf's spellings of one event: perfmon name, perf's lowercase name, the
# PMU syntax with fields or with a name, raw
run "$CYCTOP" encode --model skl UOPS_EXECUTED.THREAD:c=1:i=1 uops_executed.stall_cycles \
	'cpu/event=0xb1,umask=0x1,cmask=1,inv/' 'cpu/UOPS_EXECUTED.THREAD,cmask=0x6/' \
	r18001b1 UOPS_RETIRED.STALL_CYCLES UOPS_RETIRED.MACRO_FUSED CYCLE_ACTIVITY.STALLS_TOTAL \
	'cpu/event=0x3c/' cycles
expect_rc 0 "encode --model skl"
row UOPS_EXECUTED.THREAD:c=1:i=1 4 0x18001b1
row uops_executed.stall_cycles 4 0x18001b1
row '"cpu/event=0xb1,umask=0x1,cmask=1,inv/"' 4 0x18001b1
row '"cpu/UOPS_EXECUTED.THREAD,cmask=0x6/"' 4 0x60001b1
row r18001b1 4 0x18001b1
row UOPS_RETIRED.STALL_CYCLES 4 0x18002c2    # libpfm4 4.13: 0x18001c2
row UOPS_RETIRED.MACRO_FUSED 4 0x4c2          # not in libpfm4 4.13
row CYCLE_ACTIVITY.STALLS_TOTAL 4 0x40004a3
row cpu/event=0x3c/ 4 0x3c
row cycles 0 0x0                              # PERF_TYPE_HARDWARE cycles

run "$CYCTOP" encode --model icl TOPDOWN.BACKEND_BOUND_SLOTS topdown-be-bound \
	IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE INT_MISC.CLEARS_COUNT
row TOPDOWN.BACKEND_BOUND_SLOTS 4 0x2a4       # libpfm4 4.13: 0x200
row topdown-be-bound 4 0x8300
row IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE 4 0x500019c
row INT_MISC.CLEARS_COUNT 4 0x104010d

run "$CYCTOP" encode --model hsw UOPS_EXECUTED.THREAD:c=8 UOPS_EXECUTED.STALL_CYCLES
row UOPS_EXECUTED.THREAD:c=8 4 0x80001b1      # no UOPS_EXECUTED:THREAD in libpfm4's hsw
row UOPS_EXECUTED.STALL_CYCLES 4 0x18001b1

run "$CYCTOP" encode --model nhm UOPS_EXECUTED.CORE_STALL_CYCLES UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=6
row UOPS_EXECUTED.CORE_STALL_CYCLES 4 0x1a03fb1
row UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=6 4 0x6203fb1

run "$CYCTOP" encode --model zen4 ls_not_halted_cyc ex_ret_ops ex_ret_ops:c=1:i=1 \
	de_no_dispatch_per_slot.no_ops_from_frontend \
	'cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6/' ex_no_retire.all \
	ex_no_retire.load_not_complete de_src_op_disp.all
expect_rc 0 "encode --model zen4"
row ls_not_halted_cyc 4 0x76
row ex_ret_ops 4 0xc1
row ex_ret_ops:c=1:i=1 4 0x18000c1
row de_no_dispatch_per_slot.no_ops_from_frontend 4 0x1000001a0
row '"cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6/"' 4 0x1060001a0
row ex_no_retire.all 4 0x1bd6                 # libpfm4 4.13 refuses the OR of umasks
row ex_no_retire.load_not_complete 4 0xa2d6
row de_src_op_disp.all 4 0x7aa

# perf's name wins over a table alias: spr's MEMORY_ACTIVITY.STALLS_L1D_MISS row
# also answers to CYCLE_ACTIVITY.STALLS_L1D_MISS, which perf's sapphirerapids
# pipeline.json v1.23 defines as EventCode 0xa3 UMask 0xc CounterMask 12
run "$CYCTOP" encode --model spr CYCLE_ACTIVITY.STALLS_L1D_MISS MEMORY_ACTIVITY.STALLS_L1D_MISS
expect_rc 0 "perf's CYCLE_ACTIVITY on spr"
row CYCLE_ACTIVITY.STALLS_L1D_MISS 4 0xc000ca3
row MEMORY_ACTIVITY.STALLS_L1D_MISS 4 0x3000347

# perf's names libpfm4 4.13 lacks (perf x86/amdzen{2,4}/*.json, Linux 6.12):
# event select 0x28f puts 0x2 into config bits 32-35 ("event=config:0-7,32-35")
run "$CYCTOP" encode --model zen4 ls_l1_d_tlb_miss.all l2_pf_hit_l2.all \
	l2_request_g1.all_no_prefetch bp_l1_tlb_miss_l2_tlb_hit LS_L1_D_TLB_MISS.ALL \
	op_cache_hit_miss.all_op_cache_accesses 'cpu/op_cache_hit_miss.all_op_cache_accesses,cmask=2/'
expect_rc 0 "perf's zen4 names"
row ls_l1_d_tlb_miss.all 4 0xff45
row l2_pf_hit_l2.all 4 0xff70
row l2_request_g1.all_no_prefetch 4 0xf960
row bp_l1_tlb_miss_l2_tlb_hit 4 0x84
row LS_L1_D_TLB_MISS.ALL 4 0xff45
row op_cache_hit_miss.all_op_cache_accesses 4 0x20000078f
row '"cpu/op_cache_hit_miss.all_op_cache_accesses,cmask=2/"' 4 0x20200078f
run "$CYCTOP" encode --model zen2 all_dc_accesses l1_dtlb_misses l2_itlb_misses ic_cache_fill_l2
expect_rc 0 "perf's zen2 names"
row all_dc_accesses 4 0x729
row l1_dtlb_misses 4 0xff45
row l2_itlb_misses 4 0x785
row ic_cache_fill_l2 4 0x82
# Zen 3's perf calls it all_data_cache_accesses (amdzen3/recommended.json)
run "$CYCTOP" encode --model zen3 all_data_cache_accesses l1_dtlb_misses ic_cache_fill_l2
expect_rc 0 "perf's zen3 names"
row all_data_cache_accesses 4 0x729

# a preset expands to its rows; a comma list is several events
run "$CYCTOP" encode --model spr @topdown 'UOPS_EXECUTED.THREAD:c=1,cpu/event=0xb1,umask=0x1,cmask=2/'
expect_rc 0 "preset and list"
row TOPDOWN.SLOTS 4 0x400
row PERF_METRICS.FETCH_LATENCY 4 0x8600
row UOPS_EXECUTED.THREAD:c=1 4 0x10001b1
row '"cpu/event=0xb1,umask=0x1,cmask=2/"' 4 0x20001b1

# bad input: one line naming the culprit, non-zero exit
run "$CYCTOP" encode --model skl NO_SUCH_EVENT
expect_rc 1 "unknown event"
expect_err "NO_SUCH_EVENT" "unknown event named"
# every event is tried: a row for each one that encodes, one stderr line for
# each that does not, exit 1 (as libpfm4's check_events reports each event)
run "$CYCTOP" encode --model skl NO_SUCH_EVENT UOPS_ISSUED.ANY 'NOT_EITHER,INST_RETIRED.ANY' \
	cycles
expect_rc 1 "some events unknown"
row UOPS_ISSUED.ANY 4 0x10e
row INST_RETIRED.ANY 4 0xc0
row cycles 0 0x0
[ "$(grep -c . "$TMP/err")" -eq 2 ] || fail "one stderr line per failed event: $(cat "$TMP/err")"
ok
expect_err "NO_SUCH_EVENT" "first failure named"
expect_err "NOT_EITHER" "second failure named"
run "$CYCTOP" encode --model skl 'cpu_core/event=0x3c/'
expect_rc 1 "hybrid PMU absent"
expect_err "no PMU 'cpu_core'" "missing hybrid PMU named"
run "$CYCTOP" encode --model skl 'cpu/event=0x3c,bogus=1/'
expect_rc 1 "bad term"
expect_err "bogus" "bad term named"
# event= takes 16 bits for Arm, so x86's 12-bit limit is said where it applies
run "$CYCTOP" encode --model skl 'cpu/event=0x1234/'
expect_rc 1 "x86 event select wider than 12 bits"
expect_err "wider than x86's 12 bits" "the limit named"

done_ok
