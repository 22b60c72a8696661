/* TopDown level 1 and 2 exactly as perf computes them: Intel's tma_*
 * metrics and AMD Zen 4's pipeline utilization, as fractions of the issue
 * (dispatch) slots.  One definition per formula set, all under the same
 * ids; the model picks it (tree_def_pick).
 *
 * Sources (torvalds/linux, tools/perf/pmu-events/arch/x86/, copied in
 * ../shared/MODERN-PMU.md section 2.2):
 *   skl  skylake/skl-metrics.json @1bbeaf83 (Linux v6.9 merge window)
 *   icl  icelake/icl-metrics.json @6b93f350 (v6.7/v6.8-era tree)
 *   spr  sapphirerapids/spr-metrics.json @26f4b26f (perf-tools-next, v6.18)
 *   zen4 amdzen4/pipeline.json @037dd130 (metrics added in v6.2)
 *   grt  (hybrid E-core) alderlake/adl-metrics.json cpu_atom (Linux 6.12), levels
 *        1-2 (level 1 the intel/perfmon-generated text)
 *   zen5 amdzen5/pipeline.json (Linux 6.12, mapfile.csv v1)
 *   srf  sierraforest/srf-metrics.json (Linux 6.12, mapfile.csv v1.04)
 *   emr, gnr: spr's formulas, the same text in emeraldrapids/emr-metrics.json
 *        (Linux 6.12, v1.09) and in intel/perfmon GNR/metrics/
 *        graniterapids_metrics.json v1.3 (TMA 5.2, @6dadedf3), from which
 *        perf's gnr-metrics.json is generated
 * perf's expression semantics (tools/perf/util/expr.c @06905723): a plain
 * division by zero is NaN (here: not measured); d_ratio(a, b) is 0 when
 * b == 0; #SMT_on is 1 when SMT is active; #core_wide is 1 when SMT is off
 * or whole cores are counted system-wide (counts per thread: !SMT_on).
 * PERF_METRICS.* are the kernel's topdown-* events, which the kernel reports
 * as slot counts (arch/x86/events/intel/core.c, icl_get_metrics_event_value). */
#include <math.h>

#include "arch/tree.h"

enum {
	I_NONE,
	/* skl */
	I_CLK, I_ONE_THREAD, I_REF_XCLK, I_THREAD_ANY, I_IDQ_CORE, I_ISSUED, I_RET_SLOTS,
	I_RECOVERY, I_RECOVERY_ANY, I_FE_LAT_CYC, I_BR_MISP, I_CLEARS, I_MEM_ANY, I_STORES,
	I_STALLS_TOTAL, I_PORTS1, I_PORTS2, I_MACRO_FUSED, I_INST,
	/* icl, spr */
	I_SLOTS, I_PM_FE, I_PM_BAD, I_PM_BE, I_PM_RET, I_UOP_DROPPING, I_CLEARS_COUNT,
	I_DEC0, I_DEC0_C1, I_MITE_UOPS, I_MS_UOPS,
	I_PM_HEAVY, I_PM_BR_MISP, I_PM_FETCH_LAT, I_PM_MEM,
	/* zen4 */
	I_ZCYC, I_Z_FE, I_Z_FE_C6, I_Z_BE, I_Z_SMT, I_Z_DISP, I_Z_RET, I_Z_BR_MISP, I_Z_RESYNC,
	I_Z_LOAD_NC, I_Z_NC, I_Z_UCODE,
	/* Gracemont (hybrid E-core, cpu_atom) */
	I_G_CLK, I_G_FE, I_G_BAD, I_G_BE, I_G_RET,
	/* Sierra Forest (Crestmont): level 2 */
	I_G_FE_LAT, I_G_FE_BW, I_G_MISP, I_G_CLEARS, I_G_ALLOC,
	/* derived */
	I_CORE_CLKS, I_RECOVERY_EFF, I_SKL_SLOTS, I_PM_SUM,
	I_COUNT
};

#define CLK_NAMES "CPU_CLK_UNHALTED.THREAD|CPU_CLK_UNHALTED.THREAD_P|cycles"

/* --- Skylake ------------------------------------------------------------- */

static const struct tree_input_def skl_inputs[I_COUNT] = {
	[I_CLK] = { CLK_NAMES, false },
	[I_ONE_THREAD] = { "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE", false },
	[I_REF_XCLK] = { "CPU_CLK_UNHALTED.REF_XCLK", false },
	[I_THREAD_ANY] = { "CPU_CLK_UNHALTED.THREAD_ANY", false },
	[I_IDQ_CORE] = { "IDQ_UOPS_NOT_DELIVERED.CORE", false },
	[I_ISSUED] = { "UOPS_ISSUED.ANY", false },
	[I_RET_SLOTS] = { "UOPS_RETIRED.RETIRE_SLOTS", false },
	[I_RECOVERY] = { "INT_MISC.RECOVERY_CYCLES", false },
	[I_RECOVERY_ANY] = { "INT_MISC.RECOVERY_CYCLES_ANY", false },
	[I_FE_LAT_CYC] = { "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", false },
	[I_BR_MISP] = { "BR_MISP_RETIRED.ALL_BRANCHES", false },
	[I_CLEARS] = { "MACHINE_CLEARS.COUNT", false },
	[I_MEM_ANY] = { "CYCLE_ACTIVITY.STALLS_MEM_ANY", false },
	[I_STORES] = { "EXE_ACTIVITY.BOUND_ON_STORES", false },
	[I_STALLS_TOTAL] = { "CYCLE_ACTIVITY.STALLS_TOTAL", false },
	[I_PORTS1] = { "EXE_ACTIVITY.1_PORTS_UTIL", false },
	[I_PORTS2] = { "EXE_ACTIVITY.2_PORTS_UTIL", false },
	[I_MACRO_FUSED] = { "UOPS_RETIRED.MACRO_FUSED", false },
	[I_INST] = { "INST_RETIRED.ANY|INST_RETIRED.ANY_P|instructions", false },
	[I_CORE_CLKS] = { "tma_info_core_core_clks: CPU_CLK_UNHALTED.THREAD (--smt on: and "
			  "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE, CPU_CLK_UNHALTED.REF_XCLK)", true },
	[I_RECOVERY_EFF] = { "INT_MISC.RECOVERY_CYCLES (--smt on: INT_MISC.RECOVERY_CYCLES_ANY)",
			     true },
	[I_SKL_SLOTS] = { "tma_info_thread_slots = 4 * tma_info_core_core_clks", true },
};

/* tma_info_core_core_clks = (CPU_CLK_UNHALTED.THREAD / 2 * (1 +
 * CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE / CPU_CLK_UNHALTED.REF_XCLK) if
 * #core_wide < 1 else (CPU_CLK_UNHALTED.THREAD_ANY / 2 if #SMT_on else
 * tma_info_thread_clks)); per thread #core_wide = !#SMT_on.
 * INT_MISC.RECOVERY_CYCLES_ANY / 2 if #SMT_on else INT_MISC.RECOVERY_CYCLES. */
static void skl_derive(double *in, const struct tree_ctx *ctx)
{
	if (ctx->smt) {
		in[I_CORE_CLKS] = in[I_CLK] / 2 * (1 + in[I_ONE_THREAD] / in[I_REF_XCLK]);
		in[I_RECOVERY_EFF] = in[I_RECOVERY_ANY] / 2;
	} else {
		in[I_CORE_CLKS] = in[I_CLK];
		in[I_RECOVERY_EFF] = in[I_RECOVERY];
	}
	in[I_SKL_SLOTS] = 4 * in[I_CORE_CLKS];
}

#define FN(name) static double name(const double *in, const struct tree_ctx *c)
#define SLOTS_SKL in[I_SKL_SLOTS]

static double whole(const double *in, const struct tree_ctx *c) { (void)in; (void)c; return 1.0; }

FN(skl_slots) { (void)c; return SLOTS_SKL; }
/* tma_frontend_bound = IDQ_UOPS_NOT_DELIVERED.CORE / tma_info_thread_slots */
FN(skl_fe) { (void)c; return in[I_IDQ_CORE] / SLOTS_SKL; }
/* tma_bad_speculation = (UOPS_ISSUED.ANY - UOPS_RETIRED.RETIRE_SLOTS + 4 *
 * recovery) / tma_info_thread_slots */
FN(skl_bad)
{
	(void)c;
	return (in[I_ISSUED] - in[I_RET_SLOTS] + 4 * in[I_RECOVERY_EFF]) / SLOTS_SKL;
}
/* tma_backend_bound = 1 - tma_frontend_bound - (UOPS_ISSUED.ANY + 4 *
 * recovery) / tma_info_thread_slots */
FN(skl_be) { return 1 - skl_fe(in, c) - (in[I_ISSUED] + 4 * in[I_RECOVERY_EFF]) / SLOTS_SKL; }
/* tma_retiring = UOPS_RETIRED.RETIRE_SLOTS / tma_info_thread_slots */
FN(skl_ret) { (void)c; return in[I_RET_SLOTS] / SLOTS_SKL; }
/* tma_fetch_latency = 4 * IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE /
 * tma_info_thread_slots */
FN(skl_fetch_lat) { (void)c; return 4 * in[I_FE_LAT_CYC] / SLOTS_SKL; }
/* tma_fetch_bandwidth = tma_frontend_bound - tma_fetch_latency */
FN(skl_fetch_bw) { return skl_fe(in, c) - skl_fetch_lat(in, c); }
/* tma_branch_mispredicts = BR_MISP_RETIRED.ALL_BRANCHES /
 * (BR_MISP_RETIRED.ALL_BRANCHES + MACHINE_CLEARS.COUNT) * tma_bad_speculation */
FN(skl_br_misp) { return in[I_BR_MISP] / (in[I_BR_MISP] + in[I_CLEARS]) * skl_bad(in, c); }
/* tma_machine_clears = tma_bad_speculation - tma_branch_mispredicts */
FN(skl_clears) { return skl_bad(in, c) - skl_br_misp(in, c); }

/* tma_memory_bound = (CYCLE_ACTIVITY.STALLS_MEM_ANY + EXE_ACTIVITY.BOUND_ON_STORES) /
 * (CYCLE_ACTIVITY.STALLS_TOTAL + (EXE_ACTIVITY.1_PORTS_UTIL + tma_retiring *
 * EXE_ACTIVITY.2_PORTS_UTIL) + EXE_ACTIVITY.BOUND_ON_STORES) * tma_backend_bound
 * (the same text in skl and icl) */
static double memory_share(const double *in, double retiring)
{
	return (in[I_MEM_ANY] + in[I_STORES]) /
	       (in[I_STALLS_TOTAL] + (in[I_PORTS1] + retiring * in[I_PORTS2]) + in[I_STORES]);
}

FN(skl_mem) { return memory_share(in, skl_ret(in, c)) * skl_be(in, c); }
/* tma_core_bound = tma_backend_bound - tma_memory_bound */
FN(skl_core) { return skl_be(in, c) - skl_mem(in, c); }
/* tma_heavy_operations = (UOPS_RETIRED.RETIRE_SLOTS + UOPS_RETIRED.MACRO_FUSED -
 * INST_RETIRED.ANY) / tma_info_thread_slots */
FN(skl_heavy)
{
	(void)c;
	return (in[I_RET_SLOTS] + in[I_MACRO_FUSED] - in[I_INST]) / SLOTS_SKL;
}
/* tma_light_operations = tma_retiring - tma_heavy_operations */
FN(skl_light) { return skl_ret(in, c) - skl_heavy(in, c); }

/* Node table shared by the variants: the ids are the contract (DESIGN.md,
 * "Tree output"); L1 parts must add up to the whole, L2 to their L1. */
#define PX (TN_PART | TN_EXACT)
#define P TN_PART
#define NODE(id, label, flags, fn, src, ...) \
	{ id, label, UNIT_RATIO, flags, { __VA_ARGS__ }, fn, NULL, src }

#define SKL "perf skl-metrics.json (v6.9) "
#define SKL_SLOTS_IN I_SKL_SLOTS
static const struct tree_node_def skl_nodes[] = {
	{ "slots", "Issue slots (4 per core clock)", UNIT_COUNT, 0, { SKL_SLOTS_IN }, skl_slots,
	  NULL, SKL "tma_info_thread_slots = 4 * tma_info_core_core_clks" },
	NODE("topdown", "All slots (level 1 adds up to 1)", TN_EXACT, whole, SKL "TmaL1",
	     SKL_SLOTS_IN),
	NODE("topdown.frontend_bound", "Frontend bound", PX, skl_fe, SKL "tma_frontend_bound",
	     I_IDQ_CORE, SKL_SLOTS_IN),
	NODE("topdown.frontend_bound.fetch_latency", "Fetch latency", P, skl_fetch_lat,
	     SKL "tma_fetch_latency", I_FE_LAT_CYC, SKL_SLOTS_IN),
	NODE("topdown.frontend_bound.fetch_bandwidth", "Fetch bandwidth", P, skl_fetch_bw,
	     SKL "tma_fetch_bandwidth", I_IDQ_CORE, I_FE_LAT_CYC, SKL_SLOTS_IN),
	NODE("topdown.bad_speculation", "Bad speculation", PX, skl_bad,
	     SKL "tma_bad_speculation", I_ISSUED, I_RET_SLOTS, I_RECOVERY_EFF, SKL_SLOTS_IN),
	NODE("topdown.bad_speculation.branch_mispredicts", "Branch mispredicts", P, skl_br_misp,
	     SKL "tma_branch_mispredicts", I_BR_MISP, I_CLEARS, I_ISSUED, I_RET_SLOTS,
	     I_RECOVERY_EFF, SKL_SLOTS_IN),
	NODE("topdown.bad_speculation.machine_clears", "Machine clears", P, skl_clears,
	     SKL "tma_machine_clears", I_BR_MISP, I_CLEARS, I_ISSUED, I_RET_SLOTS,
	     I_RECOVERY_EFF, SKL_SLOTS_IN),
	NODE("topdown.backend_bound", "Backend bound", PX, skl_be, SKL "tma_backend_bound",
	     I_IDQ_CORE, I_ISSUED, I_RECOVERY_EFF, SKL_SLOTS_IN),
	NODE("topdown.backend_bound.memory_bound", "Memory bound", P, skl_mem,
	     SKL "tma_memory_bound", I_MEM_ANY, I_STORES, I_STALLS_TOTAL, I_PORTS1, I_PORTS2,
	     I_RET_SLOTS, I_IDQ_CORE, I_ISSUED, I_RECOVERY_EFF, SKL_SLOTS_IN),
	NODE("topdown.backend_bound.core_bound", "Core bound", P, skl_core,
	     SKL "tma_core_bound", I_MEM_ANY, I_STORES, I_STALLS_TOTAL, I_PORTS1, I_PORTS2,
	     I_RET_SLOTS, I_IDQ_CORE, I_ISSUED, I_RECOVERY_EFF, SKL_SLOTS_IN),
	NODE("topdown.retiring", "Retiring", PX | TN_USEFUL, skl_ret, SKL "tma_retiring", I_RET_SLOTS,
	     SKL_SLOTS_IN),
	NODE("topdown.retiring.heavy_operations", "Heavy operations", P, skl_heavy,
	     SKL "tma_heavy_operations", I_RET_SLOTS, I_MACRO_FUSED, I_INST, SKL_SLOTS_IN),
	NODE("topdown.retiring.light_operations", "Light operations", P, skl_light,
	     SKL "tma_light_operations", I_RET_SLOTS, I_MACRO_FUSED, I_INST, SKL_SLOTS_IN),
};

/* --- Ice Lake and Sapphire Rapids: PERF_METRICS ---------------------------- */

#define PM_INPUTS \
	[I_SLOTS] = { "TOPDOWN.SLOTS", false }, \
	[I_PM_FE] = { "PERF_METRICS.FRONTEND_BOUND", false }, \
	[I_PM_BAD] = { "PERF_METRICS.BAD_SPECULATION", false }, \
	[I_PM_BE] = { "PERF_METRICS.BACKEND_BOUND", false }, \
	[I_PM_RET] = { "PERF_METRICS.RETIRING", false }, \
	[I_UOP_DROPPING] = { "INT_MISC.UOP_DROPPING", false }, \
	[I_PM_SUM] = { "topdown-fe-bound + topdown-bad-spec + topdown-retiring + " \
		       "topdown-be-bound", true }

static const struct tree_input_def icl_inputs[I_COUNT] = {
	PM_INPUTS,
	/* perf: cpu@INT_MISC.RECOVERY_CYCLES\,cmask\=1\,edge@ (= INT_MISC.CLEARS_COUNT) */
	[I_CLEARS_COUNT] = { "INT_MISC.CLEARS_COUNT|INT_MISC.RECOVERY_CYCLES:cmask=1:edge=1",
			     false },
	[I_FE_LAT_CYC] = { "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", false },
	[I_BR_MISP] = { "BR_MISP_RETIRED.ALL_BRANCHES", false },
	[I_CLEARS] = { "MACHINE_CLEARS.COUNT", false },
	[I_MEM_ANY] = { "CYCLE_ACTIVITY.STALLS_MEM_ANY", false },
	[I_STORES] = { "EXE_ACTIVITY.BOUND_ON_STORES", false },
	[I_STALLS_TOTAL] = { "CYCLE_ACTIVITY.STALLS_TOTAL", false },
	[I_PORTS1] = { "EXE_ACTIVITY.1_PORTS_UTIL", false },
	[I_PORTS2] = { "EXE_ACTIVITY.2_PORTS_UTIL", false },
	[I_ISSUED] = { "UOPS_ISSUED.ANY", false },
	[I_DEC0] = { "UOPS_DECODED.DEC0", false },
	[I_DEC0_C1] = { "UOPS_DECODED.DEC0:cmask=1", false },
	[I_MITE_UOPS] = { "IDQ.MITE_UOPS", false },
	[I_MS_UOPS] = { "IDQ.MS_UOPS", false },
};

static const struct tree_input_def spr_inputs[I_COUNT] = {
	PM_INPUTS,
	[I_PM_HEAVY] = { "PERF_METRICS.HEAVY_OPERATIONS", false },
	[I_PM_BR_MISP] = { "PERF_METRICS.BRANCH_MISPREDICTS", false },
	[I_PM_FETCH_LAT] = { "PERF_METRICS.FETCH_LATENCY", false },
	[I_PM_MEM] = { "PERF_METRICS.MEMORY_BOUND", false },
};

static void pm_derive(double *in, const struct tree_ctx *ctx)
{
	(void)ctx;
	in[I_PM_SUM] = in[I_PM_FE] + in[I_PM_BAD] + in[I_PM_RET] + in[I_PM_BE];
}

#define SLOTS in[I_SLOTS]
#define PM(i) (in[i] / in[I_PM_SUM])

FN(pm_slots) { (void)c; return SLOTS; }
/* icl, spr: tma_frontend_bound = topdown-fe-bound / (sum) -
 * INT_MISC.UOP_DROPPING / tma_info_thread_slots */
FN(pm_fe) { (void)c; return PM(I_PM_FE) - in[I_UOP_DROPPING] / SLOTS; }
/* icl: tma_backend_bound = topdown-be-bound / (sum) + 5 *
 * cpu@INT_MISC.RECOVERY_CYCLES,cmask=1,edge@ / tma_info_thread_slots */
FN(icl_be) { (void)c; return PM(I_PM_BE) + 5 * in[I_CLEARS_COUNT] / SLOTS; }
/* icl: tma_retiring = topdown-retiring / (sum) + 0 * tma_info_thread_slots */
FN(pm_ret) { (void)c; return PM(I_PM_RET) + 0 * SLOTS; }
/* icl, spr: tma_bad_speculation = max(1 - (tma_frontend_bound +
 * tma_backend_bound + tma_retiring), 0) */
static double bad_rest(double fe, double be, double ret)
{
	return fmax(1 - (fe + be + ret), 0);
}

FN(icl_bad) { return bad_rest(pm_fe(in, c), icl_be(in, c), pm_ret(in, c)); }
/* icl: tma_fetch_latency = (5 * IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE -
 * INT_MISC.UOP_DROPPING) / tma_info_thread_slots */
FN(icl_fetch_lat) { (void)c; return (5 * in[I_FE_LAT_CYC] - in[I_UOP_DROPPING]) / SLOTS; }
/* tma_fetch_bandwidth = max(0, tma_frontend_bound - tma_fetch_latency) */
FN(icl_fetch_bw) { return fmax(0, pm_fe(in, c) - icl_fetch_lat(in, c)); }
/* tma_branch_mispredicts = BR_MISP_RETIRED.ALL_BRANCHES /
 * (BR_MISP_RETIRED.ALL_BRANCHES + MACHINE_CLEARS.COUNT) * tma_bad_speculation */
FN(icl_br_misp) { return in[I_BR_MISP] / (in[I_BR_MISP] + in[I_CLEARS]) * icl_bad(in, c); }
/* tma_machine_clears = max(0, tma_bad_speculation - tma_branch_mispredicts) */
FN(icl_clears) { return fmax(0, icl_bad(in, c) - icl_br_misp(in, c)); }
FN(icl_mem) { return memory_share(in, pm_ret(in, c)) * icl_be(in, c); }
/* tma_core_bound = max(0, tma_backend_bound - tma_memory_bound) */
FN(icl_core) { return fmax(0, icl_be(in, c) - icl_mem(in, c)); }
/* tma_microcode_sequencer = tma_retiring * tma_info_thread_slots /
 * UOPS_ISSUED.ANY * IDQ.MS_UOPS / tma_info_thread_slots;
 * tma_heavy_operations = tma_microcode_sequencer + tma_retiring *
 * (UOPS_DECODED.DEC0 - cpu@UOPS_DECODED.DEC0,cmask=1@) / IDQ.MITE_UOPS */
FN(icl_heavy)
{
	double ret = pm_ret(in, c);
	double ms = ret * SLOTS / in[I_ISSUED] * in[I_MS_UOPS] / SLOTS;

	return ms + ret * (in[I_DEC0] - in[I_DEC0_C1]) / in[I_MITE_UOPS];
}
/* tma_light_operations = max(0, tma_retiring - tma_heavy_operations) */
FN(icl_light) { return fmax(0, pm_ret(in, c) - icl_heavy(in, c)); }

#define PM_L1 I_PM_FE, I_PM_BAD, I_PM_RET, I_PM_BE, I_SLOTS
#define ICL_MEM_IN I_MEM_ANY, I_STORES, I_STALLS_TOTAL, I_PORTS1, I_PORTS2
#define ICL "perf icl-metrics.json (v6.7) "
static const struct tree_node_def icl_nodes[] = {
	{ "slots", "Issue slots (TOPDOWN.SLOTS)", UNIT_COUNT, 0, { I_SLOTS }, pm_slots, NULL,
	  ICL "tma_info_thread_slots = TOPDOWN.SLOTS" },
	NODE("topdown", "All slots (level 1 adds up to 1)", TN_EXACT, whole, ICL "TmaL1",
	     I_SLOTS),
	NODE("topdown.frontend_bound", "Frontend bound", PX, pm_fe, ICL "tma_frontend_bound",
	     PM_L1, I_UOP_DROPPING),
	NODE("topdown.frontend_bound.fetch_latency", "Fetch latency", P, icl_fetch_lat,
	     ICL "tma_fetch_latency", I_FE_LAT_CYC, I_UOP_DROPPING, I_SLOTS),
	NODE("topdown.frontend_bound.fetch_bandwidth", "Fetch bandwidth", P, icl_fetch_bw,
	     ICL "tma_fetch_bandwidth", PM_L1, I_UOP_DROPPING, I_FE_LAT_CYC),
	NODE("topdown.bad_speculation", "Bad speculation", PX, icl_bad,
	     ICL "tma_bad_speculation", PM_L1, I_UOP_DROPPING, I_CLEARS_COUNT),
	NODE("topdown.bad_speculation.branch_mispredicts", "Branch mispredicts", P, icl_br_misp,
	     ICL "tma_branch_mispredicts", PM_L1, I_UOP_DROPPING, I_CLEARS_COUNT, I_BR_MISP,
	     I_CLEARS),
	NODE("topdown.bad_speculation.machine_clears", "Machine clears", P, icl_clears,
	     ICL "tma_machine_clears", PM_L1, I_UOP_DROPPING, I_CLEARS_COUNT, I_BR_MISP,
	     I_CLEARS),
	NODE("topdown.backend_bound", "Backend bound", PX, icl_be, ICL "tma_backend_bound",
	     PM_L1, I_CLEARS_COUNT),
	NODE("topdown.backend_bound.memory_bound", "Memory bound", P, icl_mem,
	     ICL "tma_memory_bound", PM_L1, I_CLEARS_COUNT, ICL_MEM_IN),
	NODE("topdown.backend_bound.core_bound", "Core bound", P, icl_core,
	     ICL "tma_core_bound", PM_L1, I_CLEARS_COUNT, ICL_MEM_IN),
	NODE("topdown.retiring", "Retiring", PX | TN_USEFUL, pm_ret, ICL "tma_retiring", PM_L1),
	NODE("topdown.retiring.heavy_operations", "Heavy operations", P, icl_heavy,
	     ICL "tma_heavy_operations", PM_L1, I_ISSUED, I_MS_UOPS, I_DEC0, I_DEC0_C1,
	     I_MITE_UOPS),
	NODE("topdown.retiring.light_operations", "Light operations", P, icl_light,
	     ICL "tma_light_operations", PM_L1, I_ISSUED, I_MS_UOPS, I_DEC0, I_DEC0_C1,
	     I_MITE_UOPS),
};

/* spr: tma_backend_bound = topdown-be-bound / (sum);
 * tma_retiring = topdown-retiring / (sum) */
FN(spr_be) { (void)c; return PM(I_PM_BE); }
FN(spr_ret) { (void)c; return PM(I_PM_RET); }
FN(spr_bad) { return bad_rest(pm_fe(in, c), spr_be(in, c), spr_ret(in, c)); }
/* tma_fetch_latency = topdown-fetch-lat / (sum) - INT_MISC.UOP_DROPPING /
 * tma_info_thread_slots */
FN(spr_fetch_lat) { (void)c; return PM(I_PM_FETCH_LAT) - in[I_UOP_DROPPING] / SLOTS; }
FN(spr_fetch_bw) { return fmax(0, pm_fe(in, c) - spr_fetch_lat(in, c)); }
/* tma_branch_mispredicts = topdown-br-mispredict / (sum) */
FN(spr_br_misp) { (void)c; return PM(I_PM_BR_MISP); }
FN(spr_clears) { return fmax(0, spr_bad(in, c) - spr_br_misp(in, c)); }
/* tma_memory_bound = topdown-mem-bound / (sum) */
FN(spr_mem) { (void)c; return PM(I_PM_MEM); }
FN(spr_core) { return fmax(0, spr_be(in, c) - spr_mem(in, c)); }
/* tma_heavy_operations = topdown-heavy-ops / (sum) */
FN(spr_heavy) { (void)c; return PM(I_PM_HEAVY); }
FN(spr_light) { return fmax(0, spr_ret(in, c) - spr_heavy(in, c)); }

#define SPR "perf spr-metrics.json (v6.18) "
static const struct tree_node_def spr_nodes[] = {
	{ "slots", "Issue slots (TOPDOWN.SLOTS)", UNIT_COUNT, 0, { I_SLOTS }, pm_slots, NULL,
	  SPR "tma_info_thread_slots = TOPDOWN.SLOTS" },
	NODE("topdown", "All slots (level 1 adds up to 1)", TN_EXACT, whole, SPR "TmaL1",
	     I_SLOTS),
	NODE("topdown.frontend_bound", "Frontend bound", PX, pm_fe, SPR "tma_frontend_bound",
	     PM_L1, I_UOP_DROPPING),
	NODE("topdown.frontend_bound.fetch_latency", "Fetch latency", P, spr_fetch_lat,
	     SPR "tma_fetch_latency", PM_L1, I_PM_FETCH_LAT, I_UOP_DROPPING),
	NODE("topdown.frontend_bound.fetch_bandwidth", "Fetch bandwidth", P, spr_fetch_bw,
	     SPR "tma_fetch_bandwidth", PM_L1, I_PM_FETCH_LAT, I_UOP_DROPPING),
	NODE("topdown.bad_speculation", "Bad speculation", PX, spr_bad,
	     SPR "tma_bad_speculation", PM_L1, I_UOP_DROPPING),
	NODE("topdown.bad_speculation.branch_mispredicts", "Branch mispredicts", P, spr_br_misp,
	     SPR "tma_branch_mispredicts", PM_L1, I_PM_BR_MISP),
	NODE("topdown.bad_speculation.machine_clears", "Machine clears", P, spr_clears,
	     SPR "tma_machine_clears", PM_L1, I_PM_BR_MISP, I_UOP_DROPPING),
	NODE("topdown.backend_bound", "Backend bound", PX, spr_be, SPR "tma_backend_bound",
	     PM_L1),
	NODE("topdown.backend_bound.memory_bound", "Memory bound", P, spr_mem,
	     SPR "tma_memory_bound", PM_L1, I_PM_MEM),
	NODE("topdown.backend_bound.core_bound", "Core bound", P, spr_core,
	     SPR "tma_core_bound", PM_L1, I_PM_MEM),
	NODE("topdown.retiring", "Retiring", PX | TN_USEFUL, spr_ret, SPR "tma_retiring", PM_L1),
	NODE("topdown.retiring.heavy_operations", "Heavy operations", P, spr_heavy,
	     SPR "tma_heavy_operations", PM_L1, I_PM_HEAVY),
	NODE("topdown.retiring.light_operations", "Light operations", P, spr_light,
	     SPR "tma_light_operations", PM_L1, I_PM_HEAVY),
};

/* --- AMD Zen 4 pipeline utilization ---------------------------------------- */

static const struct tree_input_def zen4_inputs[I_COUNT] = {
	[I_ZCYC] = { "ls_not_halted_cyc|cycles", false },
	[I_Z_FE] = { "de_no_dispatch_per_slot.no_ops_from_frontend", false },
	[I_Z_FE_C6] = { "de_no_dispatch_per_slot.no_ops_from_frontend:cmask=6", false },
	[I_Z_BE] = { "de_no_dispatch_per_slot.backend_stalls", false },
	[I_Z_SMT] = { "de_no_dispatch_per_slot.smt_contention", false },
	[I_Z_DISP] = { "de_src_op_disp.all", false },
	[I_Z_RET] = { "ex_ret_ops", false },
	[I_Z_BR_MISP] = { "ex_ret_brn_misp", false },
	[I_Z_RESYNC] = { "resyncs_or_nc_redirects", false },
	[I_Z_LOAD_NC] = { "ex_no_retire.load_not_complete", false },
	[I_Z_NC] = { "ex_no_retire.not_complete", false },
	[I_Z_UCODE] = { "ex_ret_ucode_ops", false },
};

/* perf's d_ratio: a / b, 0 when b is 0 */
static double d_ratio(double a, double b)
{
	return b == 0 ? 0 : a / b;
}

/* total_dispatch_slots = 6 * ls_not_halted_cyc */
#define TOTAL (6 * in[I_ZCYC])
FN(z_slots) { (void)c; return TOTAL; }
/* frontend_bound = d_ratio(de_no_dispatch_per_slot.no_ops_from_frontend,
 * total_dispatch_slots) */
FN(z_fe) { (void)c; return d_ratio(in[I_Z_FE], TOTAL); }
/* bad_speculation = d_ratio(de_src_op_disp.all - ex_ret_ops, total_dispatch_slots) */
FN(z_bad) { (void)c; return d_ratio(in[I_Z_DISP] - in[I_Z_RET], TOTAL); }
/* backend_bound = d_ratio(de_no_dispatch_per_slot.backend_stalls, total) */
FN(z_be) { (void)c; return d_ratio(in[I_Z_BE], TOTAL); }
/* smt_contention = d_ratio(de_no_dispatch_per_slot.smt_contention, total) */
FN(z_smt) { (void)c; return d_ratio(in[I_Z_SMT], TOTAL); }
/* retiring = d_ratio(ex_ret_ops, total_dispatch_slots) */
FN(z_ret) { (void)c; return d_ratio(in[I_Z_RET], TOTAL); }
/* frontend_bound_latency = d_ratio((6 * cpu@de_no_dispatch_per_slot.
 * no_ops_from_frontend,cmask=0x6@), total_dispatch_slots) */
FN(z_fe_lat) { (void)c; return d_ratio(6 * in[I_Z_FE_C6], TOTAL); }
/* frontend_bound_bandwidth = d_ratio(de_no_dispatch_per_slot.no_ops_from_frontend -
 * (6 * cpu@...,cmask=0x6@), total_dispatch_slots) */
FN(z_fe_bw) { (void)c; return d_ratio(in[I_Z_FE] - 6 * in[I_Z_FE_C6], TOTAL); }
/* bad_speculation_mispredicts = d_ratio(bad_speculation * ex_ret_brn_misp,
 * ex_ret_brn_misp + resyncs_or_nc_redirects) */
FN(z_misp) { return d_ratio(z_bad(in, c) * in[I_Z_BR_MISP], in[I_Z_BR_MISP] + in[I_Z_RESYNC]); }
/* bad_speculation_pipeline_restarts = d_ratio(bad_speculation *
 * resyncs_or_nc_redirects, ex_ret_brn_misp + resyncs_or_nc_redirects) */
FN(z_restarts) { return d_ratio(z_bad(in, c) * in[I_Z_RESYNC], in[I_Z_BR_MISP] + in[I_Z_RESYNC]); }
/* backend_bound_memory = backend_bound * d_ratio(ex_no_retire.load_not_complete,
 * ex_no_retire.not_complete) */
FN(z_mem) { return z_be(in, c) * d_ratio(in[I_Z_LOAD_NC], in[I_Z_NC]); }
/* backend_bound_cpu = backend_bound * (1 - d_ratio(load_not_complete, not_complete)) */
FN(z_cpu) { return z_be(in, c) * (1 - d_ratio(in[I_Z_LOAD_NC], in[I_Z_NC])); }
/* retiring_fastpath = retiring * (1 - d_ratio(ex_ret_ucode_ops, ex_ret_ops)) */
FN(z_fast) { return z_ret(in, c) * (1 - d_ratio(in[I_Z_UCODE], in[I_Z_RET])); }
/* retiring_microcode = retiring * d_ratio(ex_ret_ucode_ops, ex_ret_ops) */
FN(z_ucode) { return z_ret(in, c) * d_ratio(in[I_Z_UCODE], in[I_Z_RET]); }

#define ZEN4 "perf amdzen4/pipeline.json (v6.2) "
static const struct tree_node_def zen4_nodes[] = {
	{ "slots", "Dispatch slots (6 per cycle)", UNIT_COUNT, 0, { I_ZCYC }, z_slots, NULL,
	  ZEN4 "total_dispatch_slots = 6 * ls_not_halted_cyc" },
	NODE("topdown", "All slots (level 1 adds up to 1)", TN_EXACT, whole, ZEN4 "PipelineL1",
	     I_ZCYC),
	NODE("topdown.frontend_bound", "Frontend bound", PX, z_fe, ZEN4 "frontend_bound",
	     I_Z_FE, I_ZCYC),
	NODE("topdown.frontend_bound.fetch_latency", "Latency", P, z_fe_lat,
	     ZEN4 "frontend_bound_latency", I_Z_FE_C6, I_ZCYC),
	NODE("topdown.frontend_bound.fetch_bandwidth", "Bandwidth", P, z_fe_bw,
	     ZEN4 "frontend_bound_bandwidth", I_Z_FE, I_Z_FE_C6, I_ZCYC),
	NODE("topdown.bad_speculation", "Bad speculation", PX, z_bad, ZEN4 "bad_speculation",
	     I_Z_DISP, I_Z_RET, I_ZCYC),
	NODE("topdown.bad_speculation.branch_mispredicts", "Mispredicts", P, z_misp,
	     ZEN4 "bad_speculation_mispredicts", I_Z_DISP, I_Z_RET, I_ZCYC, I_Z_BR_MISP,
	     I_Z_RESYNC),
	NODE("topdown.bad_speculation.machine_clears", "Pipeline restarts", P, z_restarts,
	     ZEN4 "bad_speculation_pipeline_restarts", I_Z_DISP, I_Z_RET, I_ZCYC, I_Z_BR_MISP,
	     I_Z_RESYNC),
	NODE("topdown.backend_bound", "Backend bound", PX, z_be, ZEN4 "backend_bound",
	     I_Z_BE, I_ZCYC),
	NODE("topdown.backend_bound.memory_bound", "Memory", P, z_mem,
	     ZEN4 "backend_bound_memory", I_Z_BE, I_ZCYC, I_Z_LOAD_NC, I_Z_NC),
	NODE("topdown.backend_bound.core_bound", "CPU", P, z_cpu, ZEN4 "backend_bound_cpu",
	     I_Z_BE, I_ZCYC, I_Z_LOAD_NC, I_Z_NC),
	NODE("topdown.retiring", "Retiring", PX | TN_USEFUL, z_ret, ZEN4 "retiring", I_Z_RET, I_ZCYC),
	NODE("topdown.retiring.heavy_operations", "Microcode", P, z_ucode,
	     ZEN4 "retiring_microcode", I_Z_RET, I_ZCYC, I_Z_UCODE),
	NODE("topdown.retiring.light_operations", "Fastpath", P, z_fast,
	     ZEN4 "retiring_fastpath", I_Z_RET, I_ZCYC, I_Z_UCODE),
	NODE("topdown.smt_contention", "SMT contention (the other thread dispatched)", P, z_smt,
	     ZEN4 "smt_contention", I_Z_SMT, I_ZCYC),
};

/* --- AMD Zen 5 pipeline utilization ---------------------------------------- */

/* The same metrics as Zen 4's on 8 dispatch slots a cycle, the front-end
 * latency term at cmask 8, pipeline restarts counted by bp_redirects.resync
 * (amdzen5/pipeline.json, Linux 6.12). */
static const struct tree_input_def zen5_inputs[I_COUNT] = {
	[I_ZCYC] = { "ls_not_halted_cyc|cycles", false },
	[I_Z_FE] = { "de_no_dispatch_per_slot.no_ops_from_frontend", false },
	[I_Z_FE_C6] = { "de_no_dispatch_per_slot.no_ops_from_frontend:cmask=8", false },
	[I_Z_BE] = { "de_no_dispatch_per_slot.backend_stalls", false },
	[I_Z_SMT] = { "de_no_dispatch_per_slot.smt_contention", false },
	[I_Z_DISP] = { "de_src_op_disp.all", false },
	[I_Z_RET] = { "ex_ret_ops", false },
	[I_Z_BR_MISP] = { "ex_ret_brn_misp", false },
	[I_Z_RESYNC] = { "bp_redirects.resync", false },
	[I_Z_LOAD_NC] = { "ex_no_retire.load_not_complete", false },
	[I_Z_NC] = { "ex_no_retire.not_complete", false },
	[I_Z_UCODE] = { "ex_ret_ucode_ops", false },
};

/* total_dispatch_slots = 8 * ls_not_halted_cyc */
#define TOTAL5 (8 * in[I_ZCYC])
FN(z5_slots) { (void)c; return TOTAL5; }
/* frontend_bound = d_ratio(de_no_dispatch_per_slot.no_ops_from_frontend,
 * total_dispatch_slots) */
FN(z5_fe) { (void)c; return d_ratio(in[I_Z_FE], TOTAL5); }
/* bad_speculation = d_ratio(de_src_op_disp.all - ex_ret_ops, total_dispatch_slots) */
FN(z5_bad) { (void)c; return d_ratio(in[I_Z_DISP] - in[I_Z_RET], TOTAL5); }
/* backend_bound = d_ratio(de_no_dispatch_per_slot.backend_stalls, total) */
FN(z5_be) { (void)c; return d_ratio(in[I_Z_BE], TOTAL5); }
/* smt_contention = d_ratio(de_no_dispatch_per_slot.smt_contention, total) */
FN(z5_smt) { (void)c; return d_ratio(in[I_Z_SMT], TOTAL5); }
/* retiring = d_ratio(ex_ret_ops, total_dispatch_slots) */
FN(z5_ret) { (void)c; return d_ratio(in[I_Z_RET], TOTAL5); }
/* frontend_bound_by_latency = d_ratio((8 * cpu@de_no_dispatch_per_slot.
 * no_ops_from_frontend,cmask=0x8@), total_dispatch_slots) */
FN(z5_fe_lat) { (void)c; return d_ratio(8 * in[I_Z_FE_C6], TOTAL5); }
/* frontend_bound_by_bandwidth = d_ratio(no_ops_from_frontend - (8 * ...cmask=0x8@),
 * total_dispatch_slots) */
FN(z5_fe_bw) { (void)c; return d_ratio(in[I_Z_FE] - 8 * in[I_Z_FE_C6], TOTAL5); }
/* bad_speculation_from_mispredicts = d_ratio(bad_speculation * ex_ret_brn_misp,
 * ex_ret_brn_misp + bp_redirects.resync) */
FN(z5_misp)
{
	return d_ratio(z5_bad(in, c) * in[I_Z_BR_MISP], in[I_Z_BR_MISP] + in[I_Z_RESYNC]);
}
/* bad_speculation_from_pipeline_restarts = d_ratio(bad_speculation *
 * bp_redirects.resync, ex_ret_brn_misp + bp_redirects.resync) */
FN(z5_restarts)
{
	return d_ratio(z5_bad(in, c) * in[I_Z_RESYNC], in[I_Z_BR_MISP] + in[I_Z_RESYNC]);
}
/* backend_bound_by_memory = backend_bound * d_ratio(load_not_complete,
 * not_complete); backend_bound_by_cpu = backend_bound * (1 - the same) */
FN(z5_mem) { return z5_be(in, c) * d_ratio(in[I_Z_LOAD_NC], in[I_Z_NC]); }
FN(z5_cpu) { return z5_be(in, c) * (1 - d_ratio(in[I_Z_LOAD_NC], in[I_Z_NC])); }
/* retiring_from_fastpath = retiring * (1 - d_ratio(ex_ret_ucode_ops, ex_ret_ops));
 * retiring_from_microcode = retiring * d_ratio(ex_ret_ucode_ops, ex_ret_ops) */
FN(z5_fast) { return z5_ret(in, c) * (1 - d_ratio(in[I_Z_UCODE], in[I_Z_RET])); }
FN(z5_ucode) { return z5_ret(in, c) * d_ratio(in[I_Z_UCODE], in[I_Z_RET]); }

#define ZEN5 "perf amdzen5/pipeline.json (Linux 6.12) "
static const struct tree_node_def zen5_nodes[] = {
	{ "slots", "Dispatch slots (8 per cycle)", UNIT_COUNT, 0, { I_ZCYC }, z5_slots, NULL,
	  ZEN5 "total_dispatch_slots = 8 * ls_not_halted_cyc" },
	NODE("topdown", "All slots (level 1 adds up to 1)", TN_EXACT, whole, ZEN5 "PipelineL1",
	     I_ZCYC),
	NODE("topdown.frontend_bound", "Frontend bound", PX, z5_fe, ZEN5 "frontend_bound",
	     I_Z_FE, I_ZCYC),
	NODE("topdown.frontend_bound.fetch_latency", "Latency", P, z5_fe_lat,
	     ZEN5 "frontend_bound_by_latency", I_Z_FE_C6, I_ZCYC),
	NODE("topdown.frontend_bound.fetch_bandwidth", "Bandwidth", P, z5_fe_bw,
	     ZEN5 "frontend_bound_by_bandwidth", I_Z_FE, I_Z_FE_C6, I_ZCYC),
	NODE("topdown.bad_speculation", "Bad speculation", PX, z5_bad, ZEN5 "bad_speculation",
	     I_Z_DISP, I_Z_RET, I_ZCYC),
	NODE("topdown.bad_speculation.branch_mispredicts", "Mispredicts", P, z5_misp,
	     ZEN5 "bad_speculation_from_mispredicts", I_Z_DISP, I_Z_RET, I_ZCYC, I_Z_BR_MISP,
	     I_Z_RESYNC),
	NODE("topdown.bad_speculation.machine_clears", "Pipeline restarts", P, z5_restarts,
	     ZEN5 "bad_speculation_from_pipeline_restarts", I_Z_DISP, I_Z_RET, I_ZCYC,
	     I_Z_BR_MISP, I_Z_RESYNC),
	NODE("topdown.backend_bound", "Backend bound", PX, z5_be, ZEN5 "backend_bound",
	     I_Z_BE, I_ZCYC),
	NODE("topdown.backend_bound.memory_bound", "Memory", P, z5_mem,
	     ZEN5 "backend_bound_by_memory", I_Z_BE, I_ZCYC, I_Z_LOAD_NC, I_Z_NC),
	NODE("topdown.backend_bound.core_bound", "CPU", P, z5_cpu, ZEN5 "backend_bound_by_cpu",
	     I_Z_BE, I_ZCYC, I_Z_LOAD_NC, I_Z_NC),
	NODE("topdown.retiring", "Retiring", PX | TN_USEFUL, z5_ret, ZEN5 "retiring", I_Z_RET, I_ZCYC),
	NODE("topdown.retiring.heavy_operations", "Microcode", P, z5_ucode,
	     ZEN5 "retiring_from_microcode", I_Z_RET, I_ZCYC, I_Z_UCODE),
	NODE("topdown.retiring.light_operations", "Fastpath", P, z5_fast,
	     ZEN5 "retiring_from_fastpath", I_Z_RET, I_ZCYC, I_Z_UCODE),
	NODE("topdown.smt_contention", "SMT contention (the other thread dispatched)", P, z5_smt,
	     ZEN5 "smt_contention", I_Z_SMT, I_ZCYC),
};

/* --- Gracemont, the hybrid E-core (cpu_atom) ---------------------------- */

/* Levels 1 and 2 of perf's alderlake/adl-metrics.json for cpu_atom (Linux
 * 6.12, mapfile.csv v1.27; level 1 is the perfmon-generated text of intel/
 * perfmon @6dadedf3, MODERN-PMU.md section 2.4): slot events over a fixed 5
 * slots a cycle on generic counters, bad speculation the rest at level 1. */
static const struct tree_input_def grt_inputs[I_COUNT] = {
	[I_G_CLK] = { "CPU_CLK_UNHALTED.CORE|CPU_CLK_UNHALTED.CORE_P", false },
	[I_G_FE] = { "TOPDOWN_FE_BOUND.ALL", false },
	[I_G_BE] = { "TOPDOWN_BE_BOUND.ALL", false },
	[I_G_RET] = { "TOPDOWN_RETIRING.ALL", false },
	[I_G_FE_LAT] = { "TOPDOWN_FE_BOUND.FRONTEND_LATENCY", false },
	[I_G_FE_BW] = { "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH", false },
	[I_G_MISP] = { "TOPDOWN_BAD_SPECULATION.MISPREDICT", false },
	[I_G_CLEARS] = { "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS", false },
	[I_G_ALLOC] = { "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS", false },
};

#define GSLOTS (5 * in[I_G_CLK])
FN(g_slots) { (void)c; return GSLOTS; }
/* tma_frontend_bound = cpu_atom@TOPDOWN_FE_BOUND.ALL@ / (5 * cpu_atom@CPU_CLK_UNHALTED.CORE@) */
FN(g_fe) { (void)c; return in[I_G_FE] / GSLOTS; }
/* tma_backend_bound = cpu_atom@TOPDOWN_BE_BOUND.ALL@ / (5 * ...CORE@) */
FN(g_be) { (void)c; return in[I_G_BE] / GSLOTS; }
/* tma_retiring = cpu_atom@TOPDOWN_RETIRING.ALL@ / (5 * ...CORE@) */
FN(g_ret) { (void)c; return in[I_G_RET] / GSLOTS; }
/* tma_bad_speculation = (5 * CLK - (FE_BOUND + BE_BOUND + RETIRING)) / (5 * CLK) */
FN(g_bad) { (void)c; return (GSLOTS - (in[I_G_FE] + in[I_G_BE] + in[I_G_RET])) / GSLOTS; }
/* level 2: tma_ifetch_latency, tma_ifetch_bandwidth, tma_branch_mispredicts,
 * tma_machine_clears, tma_core_bound = their cpu_atom@EVENT@ / (5 * ...CORE@) */
FN(g_fe_lat) { (void)c; return in[I_G_FE_LAT] / GSLOTS; }
FN(g_fe_bw) { (void)c; return in[I_G_FE_BW] / GSLOTS; }
FN(g_misp) { (void)c; return in[I_G_MISP] / GSLOTS; }
FN(g_clears) { (void)c; return in[I_G_CLEARS] / GSLOTS; }
FN(g_core) { (void)c; return in[I_G_ALLOC] / GSLOTS; }
/* tma_resource_bound = tma_backend_bound - tma_core_bound */
FN(g_resource) { return g_be(in, c) - g_core(in, c); }

#define GRT "perf adl-metrics.json (cpu_atom, Linux 6.12) "
static const struct tree_node_def grt_nodes[] = {
	{ "slots", "Issue slots (5 per core clock)", UNIT_COUNT, 0, { I_G_CLK }, g_slots, NULL,
	  GRT "5 * CPU_CLK_UNHALTED.CORE" },
	NODE("topdown", "All slots (level 1 adds up to 1)", TN_EXACT, whole, GRT "TopdownL1",
	     I_G_CLK),
	NODE("topdown.frontend_bound", "Frontend bound", P, g_fe, GRT "tma_frontend_bound",
	     I_G_FE, I_G_CLK),
	NODE("topdown.frontend_bound.fetch_latency", "Fetch latency", P, g_fe_lat,
	     GRT "tma_ifetch_latency", I_G_FE_LAT, I_G_CLK),
	NODE("topdown.frontend_bound.fetch_bandwidth", "Fetch bandwidth", P, g_fe_bw,
	     GRT "tma_ifetch_bandwidth", I_G_FE_BW, I_G_CLK),
	NODE("topdown.bad_speculation", "Bad speculation", P, g_bad, GRT "tma_bad_speculation",
	     I_G_FE, I_G_BE, I_G_RET, I_G_CLK),
	NODE("topdown.bad_speculation.branch_mispredicts", "Branch mispredicts", P, g_misp,
	     GRT "tma_branch_mispredicts", I_G_MISP, I_G_CLK),
	NODE("topdown.bad_speculation.machine_clears", "Machine clears", P, g_clears,
	     GRT "tma_machine_clears", I_G_CLEARS, I_G_CLK),
	NODE("topdown.backend_bound", "Backend bound", P, g_be, GRT "tma_backend_bound",
	     I_G_BE, I_G_CLK),
	NODE("topdown.backend_bound.core_bound", "Core bound (allocation restrictions)", P,
	     g_core, GRT "tma_core_bound", I_G_ALLOC, I_G_CLK),
	NODE("topdown.backend_bound.resource_bound", "Resource bound", P, g_resource,
	     GRT "tma_resource_bound", I_G_BE, I_G_ALLOC, I_G_CLK),
	NODE("topdown.retiring", "Retiring", P | TN_USEFUL, g_ret, GRT "tma_retiring", I_G_RET, I_G_CLK),
};

/* --- Sierra Forest (Crestmont E-cores) ------------------------------------- */

/* srf-metrics.json (Linux 6.12): every level 1 and 2 node is its own slot
 * event over 6 * CPU_CLK_UNHALTED.CORE (bad speculation is measured, not the
 * rest); tma_resource_bound = tma_backend_bound - tma_core_bound. */
static const struct tree_input_def srf_inputs[I_COUNT] = {
	[I_G_CLK] = { "CPU_CLK_UNHALTED.CORE|CPU_CLK_UNHALTED.CORE_P", false },
	[I_G_FE] = { "TOPDOWN_FE_BOUND.ALL_P", false },
	[I_G_BAD] = { "TOPDOWN_BAD_SPECULATION.ALL_P", false },
	[I_G_BE] = { "TOPDOWN_BE_BOUND.ALL_P", false },
	[I_G_RET] = { "TOPDOWN_RETIRING.ALL_P", false },
	[I_G_FE_LAT] = { "TOPDOWN_FE_BOUND.FRONTEND_LATENCY", false },
	[I_G_FE_BW] = { "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH", false },
	[I_G_MISP] = { "TOPDOWN_BAD_SPECULATION.MISPREDICT", false },
	[I_G_CLEARS] = { "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS", false },
	[I_G_ALLOC] = { "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS", false },
};

#define SSLOTS (6 * in[I_G_CLK])
FN(s_slots) { (void)c; return SSLOTS; }
/* tma_X = EVENT / (6 * CPU_CLK_UNHALTED.CORE) for each of these */
FN(s_fe) { (void)c; return in[I_G_FE] / SSLOTS; }
FN(s_bad) { (void)c; return in[I_G_BAD] / SSLOTS; }
FN(s_be) { (void)c; return in[I_G_BE] / SSLOTS; }
FN(s_ret) { (void)c; return in[I_G_RET] / SSLOTS; }
FN(s_fe_lat) { (void)c; return in[I_G_FE_LAT] / SSLOTS; }
FN(s_fe_bw) { (void)c; return in[I_G_FE_BW] / SSLOTS; }
FN(s_misp) { (void)c; return in[I_G_MISP] / SSLOTS; }
FN(s_clears) { (void)c; return in[I_G_CLEARS] / SSLOTS; }
FN(s_core) { (void)c; return in[I_G_ALLOC] / SSLOTS; }
/* tma_resource_bound = tma_backend_bound - tma_core_bound */
FN(s_resource) { return s_be(in, c) - s_core(in, c); }

#define SRF "perf srf-metrics.json (Linux 6.12) "
static const struct tree_node_def srf_nodes[] = {
	{ "slots", "Issue slots (6 per core clock)", UNIT_COUNT, 0, { I_G_CLK }, s_slots, NULL,
	  SRF "6 * CPU_CLK_UNHALTED.CORE" },
	NODE("topdown", "All slots (level 1 adds up to 1)", TN_EXACT, whole, SRF "TopdownL1",
	     I_G_CLK),
	NODE("topdown.frontend_bound", "Frontend bound", PX, s_fe, SRF "tma_frontend_bound",
	     I_G_FE, I_G_CLK),
	NODE("topdown.frontend_bound.fetch_latency", "Fetch latency", P, s_fe_lat,
	     SRF "tma_ifetch_latency", I_G_FE_LAT, I_G_CLK),
	NODE("topdown.frontend_bound.fetch_bandwidth", "Fetch bandwidth", P, s_fe_bw,
	     SRF "tma_ifetch_bandwidth", I_G_FE_BW, I_G_CLK),
	NODE("topdown.bad_speculation", "Bad speculation", PX, s_bad, SRF "tma_bad_speculation",
	     I_G_BAD, I_G_CLK),
	NODE("topdown.bad_speculation.branch_mispredicts", "Branch mispredicts", P, s_misp,
	     SRF "tma_branch_mispredicts", I_G_MISP, I_G_CLK),
	NODE("topdown.bad_speculation.machine_clears", "Machine clears", P, s_clears,
	     SRF "tma_machine_clears", I_G_CLEARS, I_G_CLK),
	NODE("topdown.backend_bound", "Backend bound", PX, s_be, SRF "tma_backend_bound",
	     I_G_BE, I_G_CLK),
	NODE("topdown.backend_bound.core_bound", "Core bound (allocation restrictions)", P,
	     s_core, SRF "tma_core_bound", I_G_ALLOC, I_G_CLK),
	NODE("topdown.backend_bound.resource_bound", "Resource bound", P, s_resource,
	     SRF "tma_resource_bound", I_G_BE, I_G_ALLOC, I_G_CLK),
	NODE("topdown.retiring", "Retiring", PX | TN_USEFUL, s_ret, SRF "tma_retiring", I_G_RET, I_G_CLK),
};

static const char *const skl_models[] = { "skl", "skx", "clx", NULL };
static const char *const icl_models[] = { "icl", "icx", NULL };
static const char *const spr_models[] = { "spr", "emr", "gnr", NULL };
static const char *const zen4_models[] = { "amd64_fam19h_zen4", NULL };
static const char *const grt_models[] = { "adl_grt", NULL };
static const char *const zen5_models[] = { "amd64_fam1ah_zen5", NULL };
static const char *const srf_models[] = { "srf", NULL };

#define N(a) ((int)(sizeof(a) / sizeof(a[0])))

const struct tree_def tree_topdown_skl = {
	TREE_TOPDOWN, "topdown", "TopDown (perf tma_*, Skylake)", skl_inputs, I_COUNT,
	skl_nodes, N(skl_nodes), skl_derive, skl_models,
};

const struct tree_def tree_topdown_icl = {
	TREE_TOPDOWN, "topdown", "TopDown (perf tma_*, Ice Lake)", icl_inputs, I_COUNT,
	icl_nodes, N(icl_nodes), pm_derive, icl_models,
};

const struct tree_def tree_topdown_spr = {
	TREE_TOPDOWN, "topdown", "TopDown (perf tma_*, Sapphire Rapids; Emerald, Granite Rapids alike)", spr_inputs, I_COUNT,
	spr_nodes, N(spr_nodes), pm_derive, spr_models,
};

const struct tree_def tree_topdown_zen4 = {
	TREE_TOPDOWN, "topdown", "TopDown (perf pipeline utilization, AMD Zen 4)", zen4_inputs,
	I_COUNT, zen4_nodes, N(zen4_nodes), NULL, zen4_models,
};

const struct tree_def tree_topdown_grt = {
	TREE_TOPDOWN, "topdown", "TopDown levels 1-2 (perf, Gracemont E-core)", grt_inputs,
	I_COUNT, grt_nodes, N(grt_nodes), NULL, grt_models,
};

const struct tree_def tree_topdown_zen5 = {
	TREE_TOPDOWN, "topdown", "TopDown (perf pipeline utilization, AMD Zen 5)", zen5_inputs,
	I_COUNT, zen5_nodes, N(zen5_nodes), NULL, zen5_models,
};

const struct tree_def tree_topdown_srf = {
	TREE_TOPDOWN, "topdown", "TopDown levels 1-2 (perf, Sierra Forest E-cores)", srf_inputs,
	I_COUNT, srf_nodes, N(srf_nodes), NULL, srf_models,
};
