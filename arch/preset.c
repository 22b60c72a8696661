#include "arch/preset.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define CORE2 "Core2 cycle accounting (seeds/000)"
#define AMD "AMD basic measurements (seeds/004)"
#define HI 500000
#define LO 50000

static const struct preset presets[] = {
	{ "big4", TREE_CORE2, NULL, "cycles, stalls, bandwidth, long-latency loads (two collections)",
	  CORE2 ", BIG 4 table", {
		{ "CPU_CLK_UNHALTED.CORE", 2000000 },
		{ "RS_UOPS_DISPATCHED.CYCLES_NONE", 2000000 },
		{ "BUS_TRANS_ANY.SELF", 100000 },
		{ "MEM_LOAD_RETIRED.L2_LINE_MISS", 10000 } } },
	{ "first-pass", TREE_CORE2, NULL, "the master equation's terms plus L2 misses and instructions",
	  CORE2 ", FIRST PASS EVENTS table", {
		{ "CPU_CLK_UNHALTED.CORE", 2000000 },
		{ "RS_UOPS_DISPATCHED.CYCLES_NONE", 2000000 },
		{ "UOPS_RETIRED.ANY", 2000000 },
		{ "UOPS_RETIRED.FUSED", 2000000 },
		{ "RS_UOPS_DISPATCHED", 2000000 },
		{ "MEM_LOAD_RETIRED.L2_LINE_MISS", 10000 },
		{ "INST_RETIRED.ANY_P", 2000000 } } },
	{ "loops", TREE_CORE2, NULL, "bus traffic of loop-dominated code", CORE2 ", Loops table", {
		{ "BUS_TRANS_ANY.SELF", 100000 },
		{ "BUS_TRANS_ANY.ALL_AGENTS", 100000 } } },
	{ "branch", TREE_CORE2, NULL, "pipeline flushes of branch-dominated code",
	  CORE2 ", Branch Dominated table", {
		{ "RESOURCE_STALLS.BR_MISS_CLEAR", 2000000 } } },
	{ "second-level", TREE_CORE2, NULL, "DTLB, L1D, branch, decoder and load-block details",
	  CORE2 ", SECOND LEVEL EVENTS table", {
		{ "MEM_LOAD_RETIRED.DTLB_MISS", 20000 },
		{ "MEM_LOAD_RETIRED.L1D_LINE_MISS", 200000 },
		{ "BR_CND_EXEC", 2000000 },
		{ "BR_CND_MISSP_EXEC", 2000000 },
		{ "BR_CALL_EXEC", 200000 },
		{ "BR_CALL_MISSP_EXEC", 200000 },
		{ "ILD_STALL", 200000 },
		{ "LOAD_BLOCK.OVERLAP_STORE", 200000 } } },
	{ "divide", TREE_CORE2, NULL, "divides, square roots and FP software assists",
	  CORE2 ", Divides, Sqrts and FP SW Assists table", {
		{ "IDLE_DURING_DIV", 2000000 },
		{ "FP_ASSIST", 10000 } } },
	{ "ilp", TREE_CORE2, NULL, "the CMASK 1..7 inv=1 sweep of RS_UOPS_DISPATCHED (ILP histogram)",
	  CORE2 ", Instruction Level Parallelism", {
		{ "CPU_CLK_UNHALTED.CORE", 2000000 },
		{ "RS_UOPS_DISPATCHED.CYCLES_NONE", 2000000 },
		{ "RS_UOPS_DISPATCHED:cmask=2:inv=1", 2000000 },
		{ "RS_UOPS_DISPATCHED:cmask=3:inv=1", 2000000 },
		{ "RS_UOPS_DISPATCHED:cmask=4:inv=1", 2000000 },
		{ "RS_UOPS_DISPATCHED:cmask=5:inv=1", 2000000 },
		{ "RS_UOPS_DISPATCHED:cmask=6:inv=1", 2000000 },
		{ "RS_UOPS_DISPATCHED:cmask=7:inv=1", 2000000 } } },
	{ "ia64", TREE_IA64, NULL, "IA-64 back-end bubble accounting (cycle events share one SAV)",
	  "IA-64 part 2 (seeds/001)", {
		{ "CPU_CYCLES", 0 },
		{ "BACK_END_BUBBLE.ALL", 0 },
		{ "BE_FLUSH_BUBBLE.ALL", 0 },
		{ "BE_L1D_FPU_BUBBLE.ALL", 0 },
		{ "BE_EXE_BUBBLE.ALL", 0 },
		{ "BE_RSE_BUBBLE.ALL", 0 },
		{ "BACK_END_BUBBLE.FE", 0 } } },
	{ "ia64-detail", TREE_IA64, NULL, "IA-64 flush and EXE sub-events", "IA-64 part 2 (seeds/001)", {
		{ "CPU_CYCLES", 0 },
		{ "BE_FLUSH_BUBBLE.XPN", 0 },
		{ "BE_FLUSH_BUBBLE.BRU", 0 },
		{ "BE_EXE_BUBBLE.GRALL", 0 },
		{ "BE_EXE_BUBBLE.FRALL", 0 },
		{ "BE_EXE_BUBBLE.GRGR", 0 } } },
	{ "amd-ipc", TREE_AMD, NULL, "instructions per cycle", AMD " 4.2.1", {
		{ "CPU_clocks", HI }, { "Ret_instructions", HI } } },
	{ "amd-bandwidth", TREE_AMD, NULL, "read, write and DRAM bandwidth", AMD " 4.2.2", {
		{ "CPU_clocks", HI }, { "System_read", HI }, { "System_write", HI },
		{ "DRAM_accesses", HI } } },
	{ "amd-dc", TREE_AMD, NULL, "L1 data cache by refills", AMD " 4.3.1", {
		{ "Ret_instructions", HI }, { "DC_accesses", HI }, { "DC_refills_L2", LO },
		{ "DC_refills_sys", LO } } },
	{ "amd-ic", TREE_AMD, NULL, "L1 instruction cache by refills", AMD " 4.3.2", {
		{ "Ret_instructions", HI }, { "IC_fetches", HI }, { "IC_refills_L2", LO },
		{ "IC_refills_sys", LO } } },
	{ "amd-l2", TREE_AMD, NULL, "L2 cache, direct method", AMD " 4.3.3.1", {
		{ "Ret_instructions", HI }, { "L2_requests", LO }, { "L2_misses", LO },
		{ "L2_fill_write", LO } } },
	{ "amd-l2-indirect", TREE_AMD, NULL, "L2 cache, indirect method (several runs)", AMD " 4.3.3.2", {
		{ "Ret_instructions", HI }, { "DC_accesses", HI }, { "DC_refills_L2", LO },
		{ "DC_refills_sys", LO }, { "IC_fetches", HI }, { "IC_refills_L2", LO },
		{ "IC_refills_sys", LO }, { "L2_requests_TLB", LO }, { "L2_misses_TLB", LO } } },
	{ "amd-l3", TREE_AMD, NULL, "L3 cache (Fam10h)", AMD " 4.3.4", {
		{ "Ret_instructions", HI }, { "L3_requests", LO }, { "L3_misses", LO } } },
	{ "amd-dtlb", TREE_AMD, NULL, "data TLB", AMD " 4.4.1", {
		{ "Ret_instructions", HI }, { "DC_accesses", HI }, { "DTLB_L1M_L2H", LO },
		{ "DTLB_L1M_L2M", LO } } },
	{ "amd-itlb", TREE_AMD, NULL, "instruction TLB", AMD " 4.4.2", {
		{ "Ret_instructions", HI }, { "IC_fetches", HI }, { "ITLB_L1M_L2H", LO },
		{ "ITLB_L1M_L2M", LO } } },
	{ "amd-branch", TREE_AMD, NULL, "branch prediction", AMD " 4.5.1", {
		{ "Ret_instructions", HI }, { "Branches", 0 }, { "Mispred_branches", 0 },
		{ "Taken_branches", 0 } } },
	{ "amd-near-return", TREE_AMD, NULL, "return stack prediction", AMD " 4.5.2", {
		{ "Ret_instructions", HI }, { "Near_returns", 0 }, { "Mispred_near_ret", 0 } } },
	{ "amd-misalign", TREE_AMD, NULL, "misaligned accesses", AMD " 4.6.1", {
		{ "Ret_instructions", HI }, { "DC_accesses", HI }, { "Misalign_access", LO } } },
	{ "amd-fp", TREE_AMD, NULL, "floating-point operation density", AMD " 4.6.2.1", {
		{ "Ret_instructions", HI }, { "Dispatched_FP", 0 }, { "Ret_MMX_FP", 0 } } },
	{ "amd-flops", TREE_AMD, NULL, "FLOPS (Fam10h)", AMD " 4.6.2.2", {
		{ "CPU_clocks", HI }, { "SSE_SP_FLOPS", LO }, { "SSE_DP_FLOPS", LO } } },
	{ "amd-fp-exceptions", TREE_AMD, NULL, "floating-point exceptions", AMD " 4.6.2.3", {
		{ "Ret_instructions", HI }, { "Ret_MMX_FP", 0 }, { "FPU_exceptions", LO } } },
	/* --- Nehalem .. Sapphire Rapids, Zen 1-4 (../shared/MODERN-PMU.md) --- */
#define SNB_SPR "snb ivb hsw bdw skl skx clx icl icx spr emr gnr"
#define ZEN_ALL "amd64_fam17h_zen1 amd64_fam17h_zen2 amd64_fam19h_zen3 amd64_fam19h_zen4 " \
	"amd64_fam1ah_zen5"
#define EQ "master equation on modern cores (MODERN-PMU.md 1.1)"
	{ "cycles", TREE_INTEL, SNB_SPR, "the master equation: cycles, stalls, issued and retired uops",
	  EQ, {
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "INST_RETIRED.ANY", 0 },
		{ "UOPS_EXECUTED.THREAD:c=1:i=1", 0 }, { "UOPS_EXECUTED.THREAD", 0 },
		{ "UOPS_ISSUED.ANY", 0 }, { "UOPS_RETIRED.RETIRE_SLOTS", 0 },
		{ "CYCLE_ACTIVITY.STALLS_TOTAL", 0 } } },
	{ "cycles", TREE_INTEL, "nhm wsm", "the master equation with the core-scope stall term",
	  EQ " and 1.5 (Nehalem)", {
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "INST_RETIRED.ANY", 0 },
		{ "UOPS_EXECUTED.CORE_STALL_CYCLES", 0 }, { "UOPS_ISSUED.ANY", 0 },
		{ "UOPS_RETIRED.RETIRE_SLOTS", 0 }, { "UOPS_RETIRED.ANY", 0 } } },
	{ "cycles", TREE_ZEN, "amd64_fam17h_zen1 amd64_fam17h_zen2",
	  "the master equation, dispatch basis: cycles, no-dispatch and no-retire cycles", EQ, {
		{ "ls_not_halted_cyc", 0 }, { "ex_ret_instr", 0 }, { "ex_ret_ops", 0 },
		{ "ex_ret_ops:c=1:i=1", 0 }, { "UOPS_DISPATCHED", 0 },
		{ "UOPS_DISPATCHED:c=1:i=1", 0 } } },
	{ "cycles", TREE_ZEN, "amd64_fam19h_zen3",
	  "the master equation: cycles, no-retire cycles, ops dispatched (FP + integer)", EQ, {
		{ "ls_not_halted_cyc", 0 }, { "ex_ret_instr", 0 }, { "ex_ret_ops", 0 },
		{ "ex_ret_ops:c=1:i=1", 0 },
		{ "de_dis_cops_from_decoder.disp_op_type.any_fp_dispatch", 0 },
		{ "de_dis_cops_from_decoder.disp_op_type.any_integer_dispatch", 0 } } },
	{ "cycles", TREE_ZEN, "amd64_fam19h_zen4 amd64_fam1ah_zen5",
	  "the master equation, dispatch basis, with the no-retire split", EQ, {
		{ "ls_not_halted_cyc", 0 }, { "ex_ret_instr", 0 }, { "ex_ret_ops", 0 },
		{ "ex_ret_ops:c=1:i=1", 0 }, { "de_src_op_disp.all", 0 },
		{ "de_src_op_disp.all:c=1:i=1", 0 }, { "ex_no_retire.empty", 0 },
		{ "ex_no_retire.not_complete", 0 }, { "ex_no_retire.load_not_complete", 0 },
		{ "ex_no_retire.other", 0 }, { "ex_no_retire.thread_not_selected", 0 } } },
#define ILP "UOPS_EXECUTED.THREAD:c=1..N sweep (MODERN-PMU.md 1.1 Intel ILP histogram)"
	{ "ilp", TREE_INTEL, "snb ivb", "ILP histogram: cycles with >= k uops executed, k = 1..6",
	  ILP, {
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "UOPS_EXECUTED.THREAD:c=1:i=1", 0 },
		{ "UOPS_EXECUTED.THREAD:c=1", 0 },
		{ "UOPS_EXECUTED.THREAD:c=2", 0 },
		{ "UOPS_EXECUTED.THREAD:c=3", 0 },
		{ "UOPS_EXECUTED.THREAD:c=4", 0 },
		{ "UOPS_EXECUTED.THREAD:c=5", 0 },
		{ "UOPS_EXECUTED.THREAD:c=6", 0 } } },
	{ "ilp", TREE_INTEL, "hsw bdw skl skx clx",
	  "ILP histogram: cycles with >= k uops executed, k = 1..8", ILP, {
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "UOPS_EXECUTED.THREAD:c=1:i=1", 0 },
		{ "UOPS_EXECUTED.THREAD:c=1", 0 },
		{ "UOPS_EXECUTED.THREAD:c=2", 0 },
		{ "UOPS_EXECUTED.THREAD:c=3", 0 },
		{ "UOPS_EXECUTED.THREAD:c=4", 0 },
		{ "UOPS_EXECUTED.THREAD:c=5", 0 },
		{ "UOPS_EXECUTED.THREAD:c=6", 0 },
		{ "UOPS_EXECUTED.THREAD:c=7", 0 },
		{ "UOPS_EXECUTED.THREAD:c=8", 0 } } },
	{ "ilp", TREE_INTEL, "icl icx", "ILP histogram: cycles with >= k uops executed, k = 1..10",
	  ILP, {
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "UOPS_EXECUTED.THREAD:c=1:i=1", 0 },
		{ "UOPS_EXECUTED.THREAD:c=1", 0 },
		{ "UOPS_EXECUTED.THREAD:c=2", 0 },
		{ "UOPS_EXECUTED.THREAD:c=3", 0 },
		{ "UOPS_EXECUTED.THREAD:c=4", 0 },
		{ "UOPS_EXECUTED.THREAD:c=5", 0 },
		{ "UOPS_EXECUTED.THREAD:c=6", 0 },
		{ "UOPS_EXECUTED.THREAD:c=7", 0 },
		{ "UOPS_EXECUTED.THREAD:c=8", 0 },
		{ "UOPS_EXECUTED.THREAD:c=9", 0 },
		{ "UOPS_EXECUTED.THREAD:c=10", 0 } } },
	{ "ilp", TREE_INTEL, "spr emr gnr", "ILP histogram: cycles with >= k uops executed, k = 1..12", ILP, {
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "UOPS_EXECUTED.THREAD:c=1:i=1", 0 },
		{ "UOPS_EXECUTED.THREAD:c=1", 0 },
		{ "UOPS_EXECUTED.THREAD:c=2", 0 },
		{ "UOPS_EXECUTED.THREAD:c=3", 0 },
		{ "UOPS_EXECUTED.THREAD:c=4", 0 },
		{ "UOPS_EXECUTED.THREAD:c=5", 0 },
		{ "UOPS_EXECUTED.THREAD:c=6", 0 },
		{ "UOPS_EXECUTED.THREAD:c=7", 0 },
		{ "UOPS_EXECUTED.THREAD:c=8", 0 },
		{ "UOPS_EXECUTED.THREAD:c=9", 0 },
		{ "UOPS_EXECUTED.THREAD:c=10", 0 },
		{ "UOPS_EXECUTED.THREAD:c=11", 0 },
		{ "UOPS_EXECUTED.THREAD:c=12", 0 } } },
	{ "ilp", TREE_INTEL, "nhm wsm",
	  "ILP histogram, core scope: cycles with >= k uops executed on the core, k = 1..6",
	  "UOPS_EXECUTED.CORE_ACTIVE_CYCLES c=1..6 (MODERN-PMU.md 1.5)", {
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "UOPS_EXECUTED.CORE_STALL_CYCLES", 0 },
		{ "UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=1", 0 },
		{ "UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=2", 0 },
		{ "UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=3", 0 },
		{ "UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=4", 0 },
		{ "UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=5", 0 },
		{ "UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=6", 0 } } },
	{ "ilp", TREE_ZEN, ZEN_ALL, "ILP histogram, retire side: cycles with >= k ops retired, k = 1..8",
	  "ex_ret_ops c=1..8 (MODERN-PMU.md 1.1 AMD Zen)", {
		{ "ls_not_halted_cyc", 0 }, { "ex_ret_ops:c=1:i=1", 0 },
		{ "ex_ret_ops:c=1", 0 },
		{ "ex_ret_ops:c=2", 0 },
		{ "ex_ret_ops:c=3", 0 },
		{ "ex_ret_ops:c=4", 0 },
		{ "ex_ret_ops:c=5", 0 },
		{ "ex_ret_ops:c=6", 0 },
		{ "ex_ret_ops:c=7", 0 },
		{ "ex_ret_ops:c=8", 0 } } },
#define TMA_SKL "perf skylake/skl-metrics.json tma_* L1-L2 @1bbeaf83 (MODERN-PMU.md 2.2)"
	{ "topdown", TREE_TOPDOWN, "snb ivb hsw bdw", "TopDown level 1 from generic counters (4 slots)",
	  TMA_SKL " level 1 (the same events on SNB..BDW)", {
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "IDQ_UOPS_NOT_DELIVERED.CORE", 0 },
		{ "UOPS_ISSUED.ANY", 0 }, { "UOPS_RETIRED.RETIRE_SLOTS", 0 },
		{ "INT_MISC.RECOVERY_CYCLES", 0 }, { "INT_MISC.RECOVERY_CYCLES_ANY", 0 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 0 },
		{ "CPU_CLK_UNHALTED.THREAD_ANY", 0 } } },
	{ "topdown", TREE_TOPDOWN, "skl", "TopDown levels 1-2 from generic counters (4 slots)",
	  TMA_SKL, {
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "IDQ_UOPS_NOT_DELIVERED.CORE", 0 },
		{ "UOPS_ISSUED.ANY", 0 }, { "UOPS_RETIRED.RETIRE_SLOTS", 0 },
		{ "INT_MISC.RECOVERY_CYCLES", 0 }, { "INT_MISC.RECOVERY_CYCLES_ANY", 0 },
		{ "CPU_CLK_UNHALTED.THREAD_ANY", 0 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 0 },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", 0 }, { "MACHINE_CLEARS.COUNT", 0 },
		{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 0 }, { "EXE_ACTIVITY.BOUND_ON_STORES", 0 },
		{ "CYCLE_ACTIVITY.STALLS_TOTAL", 0 }, { "EXE_ACTIVITY.1_PORTS_UTIL", 0 },
		{ "EXE_ACTIVITY.2_PORTS_UTIL", 0 }, { "UOPS_RETIRED.MACRO_FUSED", 0 },
		{ "INST_RETIRED.ANY", 0 } } },
	{ "topdown", TREE_TOPDOWN, "skx clx", "TopDown levels 1-2 from generic counters (4 slots)",
	  TMA_SKL " (no UOPS_RETIRED.MACRO_FUSED row: heavy operations not split)", {
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "IDQ_UOPS_NOT_DELIVERED.CORE", 0 },
		{ "UOPS_ISSUED.ANY", 0 }, { "UOPS_RETIRED.RETIRE_SLOTS", 0 },
		{ "INT_MISC.RECOVERY_CYCLES", 0 }, { "INT_MISC.RECOVERY_CYCLES_ANY", 0 },
		{ "CPU_CLK_UNHALTED.THREAD_ANY", 0 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 0 },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", 0 }, { "MACHINE_CLEARS.COUNT", 0 },
		{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 0 }, { "EXE_ACTIVITY.BOUND_ON_STORES", 0 },
		{ "CYCLE_ACTIVITY.STALLS_TOTAL", 0 }, { "EXE_ACTIVITY.1_PORTS_UTIL", 0 },
		{ "EXE_ACTIVITY.2_PORTS_UTIL", 0 }, { "INST_RETIRED.ANY", 0 } } },
	{ "topdown", TREE_TOPDOWN, "icl icx",
	  "TopDown levels 1-2: slots and the 4 PERF_METRICS (one group) plus generic events",
	  "perf icelake/icl-metrics.json tma_* L1-L2 @6b93f350 (MODERN-PMU.md 2.2, 2.3)", {
		{ "TOPDOWN.SLOTS", 0 }, { "topdown-retiring", 0 }, { "topdown-bad-spec", 0 },
		{ "topdown-fe-bound", 0 }, { "topdown-be-bound", 0 },
		{ "INT_MISC.UOP_DROPPING", 0 }, { "INT_MISC.CLEARS_COUNT", 0 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 0 },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", 0 }, { "MACHINE_CLEARS.COUNT", 0 },
		{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 0 }, { "EXE_ACTIVITY.BOUND_ON_STORES", 0 },
		{ "CYCLE_ACTIVITY.STALLS_TOTAL", 0 }, { "EXE_ACTIVITY.1_PORTS_UTIL", 0 },
		{ "EXE_ACTIVITY.2_PORTS_UTIL", 0 }, { "UOPS_DECODED.DEC0", 0 },
		{ "UOPS_DECODED.DEC0:c=1", 0 }, { "IDQ.MITE_UOPS", 0 }, { "IDQ.MS_UOPS", 0 },
		{ "UOPS_ISSUED.ANY", 0 }, { "CPU_CLK_UNHALTED.THREAD", 0 },
		{ "CPU_CLK_UNHALTED.DISTRIBUTED", 0 } } },
	{ "topdown", TREE_TOPDOWN, "spr emr gnr",
	  "TopDown levels 1-2: slots and the 8 PERF_METRICS in one group",
	  "perf sapphirerapids/spr-metrics.json tma_* L1-L2 @26f4b26f (MODERN-PMU.md 2.2)", {
		{ "TOPDOWN.SLOTS", 0 }, { "topdown-retiring", 0 }, { "topdown-bad-spec", 0 },
		{ "topdown-fe-bound", 0 }, { "topdown-be-bound", 0 }, { "topdown-heavy-ops", 0 },
		{ "topdown-br-mispredict", 0 }, { "topdown-fetch-lat", 0 },
		{ "topdown-mem-bound", 0 }, { "INT_MISC.UOP_DROPPING", 0 },
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "INST_RETIRED.ANY", 0 } } },
	{ "topdown", TREE_TOPDOWN, "amd64_fam19h_zen4",
	  "pipeline utilization levels 1-2 (6 dispatch slots per cycle)",
	  "perf amdzen4/pipeline.json @037dd130 (MODERN-PMU.md 2.2)", {
		{ "ls_not_halted_cyc", 0 }, { "de_no_dispatch_per_slot.no_ops_from_frontend", 0 },
		{ "de_no_dispatch_per_slot.no_ops_from_frontend:c=6", 0 },
		{ "de_no_dispatch_per_slot.backend_stalls", 0 },
		{ "de_no_dispatch_per_slot.smt_contention", 0 }, { "de_src_op_disp.all", 0 },
		{ "ex_ret_ops", 0 }, { "ex_ret_brn_misp", 0 }, { "resyncs_or_nc_redirects", 0 },
		{ "ex_no_retire.load_not_complete", 0 }, { "ex_no_retire.not_complete", 0 },
		{ "ex_ret_ucode_ops", 0 } } },
	{ "topdown", TREE_TOPDOWN, "amd64_fam1ah_zen5",
	  "pipeline utilization levels 1-2 (8 dispatch slots per cycle)",
	  "perf amdzen5/pipeline.json (Linux 6.12, mapfile v1)", {
		{ "ls_not_halted_cyc", 0 }, { "de_no_dispatch_per_slot.no_ops_from_frontend", 0 },
		{ "de_no_dispatch_per_slot.no_ops_from_frontend:c=8", 0 },
		{ "de_no_dispatch_per_slot.backend_stalls", 0 },
		{ "de_no_dispatch_per_slot.smt_contention", 0 }, { "de_src_op_disp.all", 0 },
		{ "ex_ret_ops", 0 }, { "ex_ret_brn_misp", 0 }, { "bp_redirects.resync", 0 },
		{ "ex_no_retire.load_not_complete", 0 }, { "ex_no_retire.not_complete", 0 },
		{ "ex_ret_ucode_ops", 0 } } },
	{ "topdown", TREE_TOPDOWN, "srf",
	  "TopDown levels 1-2 on 6 issue slots a cycle (no PERF_METRICS)",
	  "perf sierraforest/srf-metrics.json (Linux 6.12, mapfile v1.04)", {
		{ "CPU_CLK_UNHALTED.CORE", 0 }, { "TOPDOWN_FE_BOUND.ALL_P", 0 },
		{ "TOPDOWN_BAD_SPECULATION.ALL_P", 0 }, { "TOPDOWN_BE_BOUND.ALL_P", 0 },
		{ "TOPDOWN_RETIRING.ALL_P", 0 }, { "TOPDOWN_FE_BOUND.FRONTEND_LATENCY", 0 },
		{ "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH", 0 },
		{ "TOPDOWN_BAD_SPECULATION.MISPREDICT", 0 },
		{ "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS", 0 },
		{ "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS", 0 }, { "INST_RETIRED.ANY", 0 } } },
	{ "topdown", TREE_TOPDOWN, "adl_grt",
	  "TopDown levels 1-2 on 5 issue slots a cycle (the E-cores' cpu_atom PMU)",
	  "perf alderlake/adl-metrics.json cpu_atom (Linux 6.12, mapfile v1.27)", {
		{ "CPU_CLK_UNHALTED.CORE", 0 }, { "TOPDOWN_FE_BOUND.ALL", 0 },
		{ "TOPDOWN_BE_BOUND.ALL", 0 }, { "TOPDOWN_RETIRING.ALL", 0 },
		{ "TOPDOWN_FE_BOUND.FRONTEND_LATENCY", 0 },
		{ "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH", 0 },
		{ "TOPDOWN_BAD_SPECULATION.MISPREDICT", 0 },
		{ "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS", 0 },
		{ "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS", 0 }, { "INST_RETIRED.ANY", 0 } } },
#define MEM "stall cycles by memory level, nested (MODERN-PMU.md 1.1 stall decomposition)"
	{ "memory", TREE_INTEL, "skl skx clx icl icx spr emr gnr",
	  "memory stall cycles: any, L1D, L2, L3 misses, stores, page walks", MEM, {
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "CYCLE_ACTIVITY.STALLS_TOTAL", 0 },
		{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 0 }, { "CYCLE_ACTIVITY.STALLS_L1D_MISS", 0 },
		{ "CYCLE_ACTIVITY.STALLS_L2_MISS", 0 }, { "CYCLE_ACTIVITY.STALLS_L3_MISS", 0 },
		{ "EXE_ACTIVITY.BOUND_ON_STORES", 0 }, { "DTLB_LOAD_MISSES.WALK_ACTIVE", 0 },
		{ "MEM_LOAD_RETIRED.L3_MISS", 0 } } },
	{ "memory", TREE_INTEL, "hsw bdw", "memory stall cycles: loads, L1D and L2 misses pending",
	  MEM " (the *_PENDING names)", {
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "CYCLE_ACTIVITY.STALLS_TOTAL", 0 },
		{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 0 }, { "CYCLE_ACTIVITY.STALLS_L1D_PENDING", 0 },
		{ "CYCLE_ACTIVITY.STALLS_L2_PENDING", 0 }, { "MEM_LOAD_RETIRED.L3_MISS", 0 },
		{ "DTLB_LOAD_MISSES.WALK_DURATION", 0 } } },
	{ "memory", TREE_INTEL, "snb ivb", "memory stall cycles: L1D and L2 misses pending",
	  MEM " (the *_PENDING names)", {
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "CYCLE_ACTIVITY.STALLS_TOTAL", 0 },
		{ "CYCLE_ACTIVITY.STALLS_L1D_PENDING", 0 },
		{ "CYCLE_ACTIVITY.STALLS_L2_PENDING", 0 }, { "L1D_PEND_MISS.PENDING", 0 } } },
	{ "memory", TREE_INTEL, "nhm wsm", "loads by source and DTLB walks, for penalty weighting",
	  "MODERN-PMU.md 1.5 (Nehalem: penalty-weighted loads)", {
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "UOPS_EXECUTED.CORE_STALL_CYCLES", 0 },
		{ "MEM_LOAD_RETIRED.L2_HIT", 0 }, { "MEM_LOAD_RETIRED.LLC_UNSHARED_HIT", 0 },
		{ "MEM_LOAD_RETIRED.OTHER_CORE_L2_HIT_HITM", 0 }, { "MEM_LOAD_RETIRED.LLC_MISS", 0 },
		{ "DTLB_LOAD_MISSES.WALK_COMPLETED", 0 } } },
	{ "memory", TREE_ZEN, "amd64_fam17h_zen1 amd64_fam17h_zen2 amd64_fam19h_zen3",
	  "data cache, L2 and DTLB misses, for penalty weighting",
	  "MODERN-PMU.md 1.9 (Drongowski's set on Zen)", {
		{ "ls_not_halted_cyc", 0 }, { "ex_ret_instr", 0 }, { "all_data_cache_accesses", 0 },
		{ "l2_cache_accesses_from_dc_misses", 0 },
		{ "l2_cache_req_stat.ic_dc_miss_in_l2", 0 }, { "l2_dtlb_misses", 0 } } },
	{ "memory", TREE_ZEN, "amd64_fam19h_zen4",
	  "data cache, L2 and DTLB misses; no-retire cycles waiting for loads",
	  "MODERN-PMU.md 1.8, 1.9", {
		{ "ls_not_halted_cyc", 0 }, { "ex_ret_instr", 0 }, { "all_data_cache_accesses", 0 },
		{ "l2_cache_accesses_from_dc_misses", 0 },
		{ "l2_cache_req_stat.ic_dc_miss_in_l2", 0 }, { "l2_dtlb_misses", 0 },
		{ "ex_no_retire.load_not_complete", 0 }, { "ex_no_retire.not_complete", 0 } } },
	{ "memory", TREE_ZEN, "amd64_fam1ah_zen5",
	  "load/store ops, L2 requests and misses, DTLB walks; no-retire cycles waiting for loads",
	  "MODERN-PMU.md 1.8, 1.9 on perf's amdzen5 names (Linux 6.12)", {
		{ "ls_not_halted_cyc", 0 }, { "ex_ret_instr", 0 }, { "ls_dispatch.all", 0 },
		{ "l2_request_g1.all_dc", 0 }, { "l2_cache_req_stat.ic_dc_miss_in_l2", 0 },
		{ "ls_l1_d_tlb_miss.all_l2_miss", 0 }, { "ex_no_retire.load_not_complete", 0 },
		{ "ex_no_retire.not_complete", 0 } } },
#define FE "front-end bound (MODERN-PMU.md 1.1, 2.2 fetch latency)"
	{ "frontend", TREE_INTEL, "skl skx clx icl icx spr emr gnr",
	  "front-end bubbles, fetch latency, I-cache and ITLB stalls, resteers", FE, {
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "IDQ_UOPS_NOT_DELIVERED.CORE", 0 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 0 },
		{ "ICACHE_16B.IFDATA_STALL", 0 }, { "ITLB_MISSES.WALK_ACTIVE", 0 },
		{ "INT_MISC.CLEAR_RESTEER_CYCLES", 0 } } },
	{ "frontend", TREE_INTEL, "snb ivb hsw bdw", "front-end bubbles and fetch latency", FE, {
		{ "CPU_CLK_UNHALTED.THREAD", 0 }, { "IDQ_UOPS_NOT_DELIVERED.CORE", 0 },
		{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 0 },
		{ "UOPS_ISSUED.ANY", 0 } } },
	{ "frontend", TREE_ZEN, "amd64_fam17h_zen2 amd64_fam19h_zen3",
	  "cycles the op queue is empty (front end starved)", FE, {
		{ "ls_not_halted_cyc", 0 }, { "ex_ret_instr", 0 },
		{ "de_dis_uop_queue_empty_di0", 0 } } },
	{ "frontend", TREE_ZEN, "amd64_fam19h_zen4",
	  "dispatch slots and cycles the front end left empty; I-cache misses", FE, {
		{ "ls_not_halted_cyc", 0 }, { "de_no_dispatch_per_slot.no_ops_from_frontend", 0 },
		{ "de_no_dispatch_per_slot.no_ops_from_frontend:c=6", 0 },
		{ "ic_tag_hit_miss.instruction_cache_miss", 0 },
		{ "ic_tag_hit_miss.all_instruction_cache_accesses", 0 } } },
	{ "frontend", TREE_ZEN, "amd64_fam1ah_zen5",
	  "dispatch slots and cycles the front end left empty; I-cache misses", FE, {
		{ "ls_not_halted_cyc", 0 }, { "de_no_dispatch_per_slot.no_ops_from_frontend", 0 },
		{ "de_no_dispatch_per_slot.no_ops_from_frontend:c=8", 0 },
		{ "ic_tag_hit_miss.instruction_cache_miss", 0 },
		{ "ic_tag_hit_miss.all_instruction_cache_accesses", 0 } } },
	/* --- Arm: each preset fits one group of the 6 event counters plus the
	 * cycle counter (arch/model-arm.c), so nothing is multiplexed --- */
#define ARM_OP "arm_v2 arm_n2 arm_v1"
#define ARM_EQ "master equation on Armv8 (arch/tree-arm.c, perf's arm64 JSON)"
	{ "cycles", TREE_ARM, ARM_OP,
	  "the master equation: cycles, stalls by side, micro-operations issued and retired", ARM_EQ, {
		{ "CPU_CYCLES", 0 }, { "INST_RETIRED", 0 }, { "OP_RETIRED", 0 }, { "OP_SPEC", 0 },
		{ "STALL_FRONTEND", 0 }, { "STALL_BACKEND", 0 }, { "STALL_BACKEND_MEM", 0 } } },
	{ "cycles", TREE_ARM, "arm_n1 arm_ac76",
	  "the master equation: cycles, stalls by side, instructions issued and retired", ARM_EQ, {
		{ "CPU_CYCLES", 0 }, { "INST_RETIRED", 0 }, { "INST_SPEC", 0 },
		{ "STALL_FRONTEND", 0 }, { "STALL_BACKEND", 0 } } },
	{ "cycles", TREE_ARM, "arm_ac72 arm_ac57",
	  "cycles, instructions issued and retired (no stall events on this core)", ARM_EQ, {
		{ "CPU_CYCLES", 0 }, { "INST_RETIRED", 0 }, { "INST_SPEC", 0 } } },
	{ "topdown", TREE_TOPDOWN, ARM_OP, "TopDown level 1 (#slots per cycle)",
	  "perf arm64 neoverse-n2-v2, neoverse-v1 metrics.json and sbsa.json", {
		{ "CPU_CYCLES", 0 }, { "STALL_SLOT_FRONTEND", 0 }, { "STALL_SLOT_BACKEND", 0 },
		{ "STALL_SLOT", 0 }, { "OP_RETIRED", 0 }, { "OP_SPEC", 0 }, { "BR_MIS_PRED", 0 } } },
	{ "memory", TREE_ARM, ARM_OP,
	  "back-end and memory stall cycles, cache refills by level", ARM_EQ, {
		{ "CPU_CYCLES", 0 }, { "STALL_BACKEND", 0 }, { "STALL_BACKEND_MEM", 0 },
		{ "L1D_CACHE_REFILL", 0 }, { "L2D_CACHE_REFILL", 0 }, { "LL_CACHE_MISS_RD", 0 },
		{ "MEM_ACCESS", 0 } } },
	{ "memory", TREE_ARM, "arm_n1",
	  "back-end stall cycles, cache refills by level", ARM_EQ, {
		{ "CPU_CYCLES", 0 }, { "STALL_BACKEND", 0 }, { "L1D_CACHE_REFILL", 0 },
		{ "L2D_CACHE_REFILL", 0 }, { "LL_CACHE_MISS_RD", 0 }, { "MEM_ACCESS", 0 },
		{ "INST_RETIRED", 0 } } },
	{ "sw", TREE_SW, NULL, "software events: CPU time, faults, switches (any host)",
	  "kernel software events", {
		{ "cpu-clock", 0 }, { "task-clock", 0 }, { "page-faults", 0 },
		{ "context-switches", 0 } } },
};

const struct preset *preset_at(size_t i)
{
	return i < sizeof(presets) / sizeof(presets[0]) ? &presets[i] : NULL;
}

const struct preset *preset_find(const char *name)
{
	const struct preset *p;

	if (name[0] == '@')
		name++;
	for (size_t i = 0; (p = preset_at(i)) != NULL; i++)
		if (strcasecmp(p->name, name) == 0)
			return p;
	return NULL;
}

size_t preset_size(const struct preset *p)
{
	size_t n = 0;

	while (n < PRESET_MAX_EVENTS && p->events[n].name)
		n++;
	return n;
}

bool preset_for_model(const struct preset *p, const struct arch_model *model)
{
	size_t n = strlen(model->name);

	if (p->tree != model->tree && !(p->tree == TREE_TOPDOWN && model->n_generic))
		return false;
	if (!p->models)
		return p->tree == model->tree;
	for (const char *w = p->models; (w = strstr(w, model->name)) != NULL; w += n)
		if ((w == p->models || w[-1] == ' ') && (w[n] == ' ' || w[n] == '\0'))
			return true;
	return false;
}

const struct preset *preset_find_for(const char *name, const struct arch_model *model)
{
	const struct preset *p, *first = NULL;

	if (name[0] == '@')
		name++;
	for (size_t i = 0; (p = preset_at(i)) != NULL; i++) {
		if (strcasecmp(p->name, name) != 0)
			continue;
		if (!first)
			first = p;
		if (model && preset_for_model(p, model))
			return p;
	}
	return first;
}

/* The first model of P's family that has every event of P (amd-l3 and
 * amd-flops exist only on Fam10h, not on the family's first model, K8). */
static const struct arch_model *model_for_preset(const struct preset *p)
{
	const struct arch_model *m;

	for (size_t i = 0; (m = model_at(i)) != NULL; i++) {
		size_t k, n = preset_size(p);
		if (!preset_for_model(p, m))
			continue;
		for (k = 0; k < n && model_lookup(m, p->events[k].name); k++)
			;
		if (k == n)
			return m;
	}
	return model_for_tree(p->tree);
}

int preset_resolve(const struct preset *p, const struct arch_model *model,
		   const struct arch_event **rows, uint32_t *savs, char *err, size_t errsz)
{
	size_t n = preset_size(p);

	if (!preset_for_model(p, model)) {
		const struct arch_model *want = model_for_preset(p);
		if (p->models)
			snprintf(err, errsz, "preset @%s is for %s, not for the %s model", p->name,
				 p->models, model->name);
		else
			snprintf(err, errsz, "preset @%s is for %s, not for the %s model", p->name,
				 want ? want->desc : tree_name(p->tree), model->name);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		rows[i] = model_lookup(model, p->events[i].name);
		if (!rows[i]) {
			snprintf(err, errsz, "preset @%s needs %s, which the %s model does not have",
				 p->name, p->events[i].name, model->name);
			return -1;
		}
		savs[i] = p->events[i].sav ? p->events[i].sav : rows[i]->sav;
	}
	return (int)n;
}
