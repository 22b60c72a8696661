/* The group planner's tables (arch/plan.h): the formula partners, events
 * that are terms of one formula and so are best counted in one group, each
 * row with the formula and its source, and the formulas of the ILP sweeps'
 * adjacent steps.  Pure data; the planner (arch/plan.c) reads them. */
#include "arch/plan.h"

/* --- formula partners --------------------------------------------------- *
 * Terms of one formula that is not a ratio to the reference (those are exact
 * in every group already): differences, sums and ratios between events.  The
 * first event of a row is its hub: merges go hub to member, so a row too big
 * for one group still keeps its leading pair together. */
static const struct plan_partner_def partner_table[] = {
	/* Levinthal, Core2 cycle accounting (seeds/000); VTune slides (seeds/002) */
	{ TREE_CORE2, { "RS_UOPS_DISPATCHED", "UOPS_RETIRED.ANY", "UOPS_RETIRED.FUSED" },
	  "non-retired uops = RS_UOPS_DISPATCHED - (UOPS_RETIRED.ANY + UOPS_RETIRED.FUSED) "
	  "(seeds/000 eq. 3; seeds/002 non-retired fraction)" },
	{ TREE_CORE2, { "RS_UOPS_DISPATCHED", "RS_UOPS_DISPATCHED.CYCLES_ANY" },
	  "uop_dispatch_rate = RS_UOPS_DISPATCHED / RS_UOPS_DISPATCHED:C=1 (seeds/000)" },
	{ TREE_CORE2, { "MEM_LOAD_RETIRED.L1D_LINE_MISS", "MEM_LOAD_RETIRED.L2_LINE_MISS" },
	  "L2 hits = L1D_LINE_MISS - L2_LINE_MISS (seeds/000 penalty table; seeds/002 "
	  "stall classes)" },
	{ TREE_CORE2, { "CPU_CLK_UNHALTED.BUS", "BUS_DRDY_CLOCKS.ALL_AGENTS" },
	  "FSB utilization = BUS_DRDY_CLOCKS.ALL_AGENTS / CPU_CLK_UNHALTED.BUS (seeds/000)" },
	{ TREE_CORE2, { "BR_CND_EXEC", "BR_CND_MISSP_EXEC" },
	  "conditional branch misprediction ratio (seeds/000 SECOND LEVEL table, one row)" },
	/* Levinthal, Itanium part 2 (seeds/001) */
	{ TREE_IA64, { "BE_FLUSH_BUBBLE.ALL", "BE_FLUSH_BUBBLE.XPN", "BE_FLUSH_BUBBLE.BRU" },
	  "BE_FLUSH_BUBBLE.ALL = XPN + BRU, exact (seeds/001)" },
	{ TREE_IA64, { "BE_EXE_BUBBLE.ALL", "BE_EXE_BUBBLE.GRALL", "BE_EXE_BUBBLE.FRALL" },
	  "BE_EXE_BUBBLE.ALL split into GRALL and FRALL (seeds/001)" },
	{ TREE_IA64, { "BE_EXE_BUBBLE.GRALL", "BE_EXE_BUBBLE.GRGR" },
	  "GRGR as a part of GRALL (seeds/001)" },
	/* Drongowski, AMD basic measurements (seeds/004) */
	{ TREE_AMD, { "DC_accesses", "DC_refills_L2", "DC_refills_sys" },
	  "DC miss ratio = (DC_refills_L2 + DC_refills_sys) / DC_accesses (seeds/004 4.3.1)" },
	{ TREE_AMD, { "DC_accesses", "DC_misses" },
	  "DC miss ratio = DC_misses / DC_accesses (seeds/004 4.3.1, simplified)" },
	{ TREE_AMD, { "IC_fetches", "IC_refills_L2", "IC_refills_sys" },
	  "IC miss ratio = (IC_refills_L2 + IC_refills_sys) / IC_fetches (seeds/004 4.3.2)" },
	{ TREE_AMD, { "IC_fetches", "IC_misses" },
	  "IC miss ratio = IC_misses / IC_fetches (seeds/004 4.3.2)" },
	{ TREE_AMD, { "L2_requests", "L2_misses", "L2_fill_write" },
	  "L2 miss ratio = L2_misses / (L2_requests + L2_fill_write) (seeds/004 4.3.3.1)" },
	{ TREE_AMD, { "L2_requests_TLB", "L2_misses_TLB" },
	  "page walker's L2 requests and misses (seeds/004 4.3.3.2)" },
	{ TREE_AMD, { "L3_requests", "L3_misses" },
	  "L3 miss ratio = L3_misses / L3_requests (seeds/004 4.3.4)" },
	{ TREE_AMD, { "DC_accesses", "DTLB_L1M_L2H", "DTLB_L1M_L2M" },
	  "L1 DTLB miss ratio = (DTLB_L1M_L2H + DTLB_L1M_L2M) / DC_accesses (seeds/004 4.4.1)" },
	{ TREE_AMD, { "IC_fetches", "ITLB_L1M_L2H", "ITLB_L1M_L2M" },
	  "L1 ITLB miss ratio = (ITLB_L1M_L2H + ITLB_L1M_L2M) / IC_fetches (seeds/004 4.4.2)" },
	{ TREE_AMD, { "Branches", "Mispred_branches", "Taken_branches" },
	  "branch misprediction and taken ratios over Branches (seeds/004 4.5.1)" },
	{ TREE_AMD, { "Near_returns", "Mispred_near_ret" },
	  "return stack misprediction ratio (seeds/004 4.5.2)" },
	{ TREE_AMD, { "DC_accesses", "Misalign_access" },
	  "misaligned access ratio = Misalign_access / DC_accesses (seeds/004 4.6.1)" },
	{ TREE_AMD, { "Ret_MMX_FP", "FPU_exceptions" },
	  "FP exception rate = FPU_exceptions / Ret_MMX_FP (seeds/004 4.6.2.3)" },
	/* The master equation on modern cores (../shared/MODERN-PMU.md 1.1) */
	{ TREE_INTEL, { "UOPS_ISSUED.ANY", "UOPS_RETIRED.RETIRE_SLOTS" },
	  "f = UOPS_RETIRED.RETIRE_SLOTS / UOPS_ISSUED.ANY, retired share of the issued "
	  "uops (MODERN-PMU.md 1.1)" },
	{ TREE_INTEL, { "CYCLE_ACTIVITY.STALLS_MEM_ANY", "CYCLE_ACTIVITY.STALLS_L1D_MISS",
			"CYCLE_ACTIVITY.STALLS_L2_MISS", "CYCLE_ACTIVITY.STALLS_L3_MISS",
			"CYCLE_ACTIVITY.STALLS_TOTAL" },
	  "memory stalls by level = differences of nested stall counts (MODERN-PMU.md 1.1 "
	  "stall decomposition)" },
	{ TREE_ZEN, { "ex_ret_ops", "de_src_op_disp.all" },
	  "f = ex_ret_ops / ops dispatched (MODERN-PMU.md 1.1 AMD Zen)" },
	{ TREE_ZEN, { "ex_ret_ops", "UOPS_DISPATCHED" },
	  "f = ex_ret_ops / ops dispatched (MODERN-PMU.md 1.1 AMD Zen)" },
	{ TREE_ZEN, { "ex_no_retire.not_complete", "ex_no_retire.load_not_complete" },
	  "backend_bound_memory share = load_not_complete / not_complete (perf amdzen4 "
	  "pipeline.json)" },
	/* The master equation on Armv8 (arch/tree-arm.c) */
	{ TREE_ARM, { "OP_RETIRED", "OP_SPEC" },
	  "f = OP_RETIRED / OP_SPEC (perf arm64 neoverse-n2-v2 retired_rate)" },
	{ TREE_ARM, { "INST_RETIRED", "INST_SPEC" },
	  "f = INST_RETIRED / INST_SPEC on cores without OP_SPEC (perf arm64 JSON)" },
	{ TREE_ARM, { "STALL_BACKEND", "STALL_BACKEND_MEM" },
	  "unaccounted back-end stalls = STALL_BACKEND - STALL_BACKEND_MEM (perf arm64 "
	  "common-and-microarch.json: a subset of STALL_BACKEND)" },
};

/* Adjacent steps of the model's CMASK sweep: bin k = C(k+1) - C(k). */
const char plan_ilp_formula[] =
	"ILP bin = C(k+1) - C(k) of the CMASK sweep (seeds/000 Instruction Level "
	"Parallelism; seeds/002 subtract the N-1 value)";

/* The modern sweep: bin k = C(k) - C(k+1), cycles with at least k uops. */
const char plan_ilp_sweep_formula[] =
	"ILP bin k = C(k) - C(k+1) of the cmask sweep (MODERN-PMU.md 1.1 ILP histogram)";

/* Arm's threshold sweep (arch/ilp.h): bin k = th=k - th=k+1. */
const char plan_arm_th_formula[] =
	"ILP bin k = C(k) - C(k+1) of the counter-threshold sweep (Linux arm_pmuv3 "
	"threshold=k, threshold_compare=GE, threshold_count)";

const struct plan_partner_def *plan_partner_def_at(size_t i)
{
	return i < sizeof(partner_table) / sizeof(partner_table[0]) ? &partner_table[i] : NULL;
}
