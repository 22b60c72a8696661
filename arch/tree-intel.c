/* The Core2 master equation on Intel Sandy Bridge .. Sapphire Rapids, in
 * absolute cycles (Levinthal, seeds/000, eq. 1-3, carried to the modern
 * events as ../shared/MODERN-PMU.md section 1.1 sets out):
 *
 *   C = CPU_CLK_UNHALTED.THREAD
 *   S = UOPS_EXECUTED.THREAD:c=1:i=1 (0xB1, umask 1; UOPS_DISPATCHED.THREAD on
 *       SNB/IVB) or CYCLE_ACTIVITY.STALLS_TOTAL: cycles executing no uop
 *   E = C - S;  f = UOPS_RETIRED.RETIRE_SLOTS (.SLOTS) / UOPS_ISSUED.ANY
 *   C = E x f (retired) + E x (1 - f) (non-retired) + S (stalls)
 *
 * The stalls split by the direct stall-cycle events, nested as TopDown's
 * L1/L2/L3/DRAM Bound nests them (CYCLE_ACTIVITY.STALLS_* on SKL/ICL,
 * MEMORY_ACTIVITY.STALLS_* and EXE_ACTIVITY.BOUND_ON_LOADS on SPR as
 * spr-metrics.json uses them; the *_PENDING forms on SNB..BDW).  Store-bound
 * and recovery cycles overlap that partition and sit beside it.  The ILP
 * histogram sweeps UOPS_EXECUTED.THREAD:c=k (cycles executing >= k uops):
 * bin 0 = S, bin k = c=k minus c=k+1, bin N = c=N; N is the number of
 * execution ports: 6 snb/ivb, 8 hsw/bdw/skl, 10 icl/icx, 12 spr (perfmon
 * UOPS_DISPATCHED_PORT / UOPS_DISPATCHED.PORT_* lists). */
#include <math.h>

#include "arch/tree.h"

#define MAX_N 12

enum {
	I_NONE,
	I_CYCLES, I_STALLS, I_STALLS_TOTAL, I_ISSUED, I_RET_SLOTS,
	I_MEM_ANY, I_L1D_MISS, I_L2_MISS, I_L3_MISS, I_STORES, I_RECOVERY,
	I_G1, /* I_G1 + k - 1 = UOPS_EXECUTED.THREAD:cmask=k, k = 1..12 */
	I_DERIVED = I_G1 + MAX_N,
	I_SPLIT_TOTAL = I_DERIVED, I_ILP_UOPS,
	I_COUNT
};

#define G(k) in[I_G1 + (k) - 1]
#define SWEEP(k) "UOPS_EXECUTED.THREAD:cmask=" #k "|UOPS_DISPATCHED.THREAD:cmask=" #k

#define COMMON_INPUTS \
	[I_CYCLES] = { "CPU_CLK_UNHALTED.THREAD|CPU_CLK_UNHALTED.THREAD_P|cycles", false }, \
	[I_STALLS] = { "UOPS_EXECUTED.THREAD:cmask=1:inv=1|UOPS_EXECUTED.STALL_CYCLES|" \
		       "UOPS_EXECUTED.STALLS|UOPS_DISPATCHED.THREAD:cmask=1:inv=1|" \
		       "CYCLE_ACTIVITY.STALLS_TOTAL|CYCLE_ACTIVITY.CYCLES_NO_EXECUTE", false }, \
	[I_STALLS_TOTAL] = { "CYCLE_ACTIVITY.STALLS_TOTAL|CYCLE_ACTIVITY.CYCLES_NO_EXECUTE", \
			     false }, \
	[I_ISSUED] = { "UOPS_ISSUED.ANY", false }, \
	[I_RET_SLOTS] = { "UOPS_RETIRED.RETIRE_SLOTS|UOPS_RETIRED.SLOTS", false }, \
	[I_MEM_ANY] = { "CYCLE_ACTIVITY.STALLS_MEM_ANY|EXE_ACTIVITY.BOUND_ON_LOADS|" \
			"CYCLE_ACTIVITY.STALLS_LDM_PENDING", false }, \
	[I_L1D_MISS] = { "CYCLE_ACTIVITY.STALLS_L1D_MISS|MEMORY_ACTIVITY.STALLS_L1D_MISS|" \
			 "CYCLE_ACTIVITY.STALLS_L1D_PENDING", false }, \
	[I_L2_MISS] = { "CYCLE_ACTIVITY.STALLS_L2_MISS|MEMORY_ACTIVITY.STALLS_L2_MISS|" \
			"CYCLE_ACTIVITY.STALLS_L2_PENDING", false }, \
	[I_L3_MISS] = { "CYCLE_ACTIVITY.STALLS_L3_MISS|MEMORY_ACTIVITY.STALLS_L3_MISS", false }, \
	[I_STORES] = { "EXE_ACTIVITY.BOUND_ON_STORES", false }, \
	[I_RECOVERY] = { "INT_MISC.RECOVERY_CYCLES", false }, \
	[I_SPLIT_TOTAL] = { "CYCLE_ACTIVITY.STALLS_TOTAL (or the stall cycles)", true }, \
	[I_G1] = { SWEEP(1), false }, [I_G1 + 1] = { SWEEP(2), false }, \
	[I_G1 + 2] = { SWEEP(3), false }, [I_G1 + 3] = { SWEEP(4), false }, \
	[I_G1 + 4] = { SWEEP(5), false }, [I_G1 + 5] = { SWEEP(6), false }

static const struct tree_input_def inputs6[I_COUNT] = {
	COMMON_INPUTS,
	[I_ILP_UOPS] = { "UOPS_EXECUTED.THREAD:cmask=1..6", true },
};

static const struct tree_input_def inputs8[I_COUNT] = {
	COMMON_INPUTS,
	[I_G1 + 6] = { SWEEP(7), false }, [I_G1 + 7] = { SWEEP(8), false },
	[I_ILP_UOPS] = { "UOPS_EXECUTED.THREAD:cmask=1..8", true },
};

static const struct tree_input_def inputs10[I_COUNT] = {
	COMMON_INPUTS,
	[I_G1 + 6] = { SWEEP(7), false }, [I_G1 + 7] = { SWEEP(8), false },
	[I_G1 + 8] = { SWEEP(9), false }, [I_G1 + 9] = { SWEEP(10), false },
	[I_ILP_UOPS] = { "UOPS_EXECUTED.THREAD:cmask=1..10", true },
};

static const struct tree_input_def inputs12[I_COUNT] = {
	COMMON_INPUTS,
	[I_G1 + 6] = { SWEEP(7), false }, [I_G1 + 7] = { SWEEP(8), false },
	[I_G1 + 8] = { SWEEP(9), false }, [I_G1 + 9] = { SWEEP(10), false },
	[I_G1 + 10] = { SWEEP(11), false }, [I_G1 + 11] = { SWEEP(12), false },
	[I_ILP_UOPS] = { "UOPS_EXECUTED.THREAD:cmask=1..12", true },
};

/* Uops executed = sum over k >= 1 of k x bin_k = sum of G(k), k = 1..N. */
static void derive_width(double *in, int n)
{
	double uops = 0;

	in[I_SPLIT_TOTAL] = isnan(in[I_STALLS_TOTAL]) ? in[I_STALLS] : in[I_STALLS_TOTAL];
	for (int k = 1; k <= n; k++)
		uops += G(k);
	in[I_ILP_UOPS] = uops;
}

static void derive6(double *in, const struct tree_ctx *c) { (void)c; derive_width(in, 6); }
static void derive8(double *in, const struct tree_ctx *c) { (void)c; derive_width(in, 8); }
static void derive10(double *in, const struct tree_ctx *c) { (void)c; derive_width(in, 10); }
static void derive12(double *in, const struct tree_ctx *c) { (void)c; derive_width(in, 12); }

#define FN(name) static double name(const double *in, const struct tree_ctx *c)

FN(f_cycles) { (void)c; return in[I_CYCLES]; }
FN(f_stalls) { (void)c; return in[I_STALLS]; }

/* E = C - S, the cycles executing at least one uop */
static double executing(const double *in)
{
	return in[I_CYCLES] - in[I_STALLS];
}

/* f = retired slots / issued uops (both fused domain) */
static double retired_fraction(const double *in)
{
	return in[I_RET_SLOTS] / in[I_ISSUED];
}

FN(f_retired) { (void)c; return executing(in) * retired_fraction(in); }
FN(f_non_retired) { (void)c; return executing(in) * (1 - retired_fraction(in)); }
FN(f_memory) { (void)c; return in[I_MEM_ANY]; }
FN(f_l1) { (void)c; return in[I_MEM_ANY] - in[I_L1D_MISS]; }
FN(f_l2) { (void)c; return in[I_L1D_MISS] - in[I_L2_MISS]; }
FN(f_l3) { (void)c; return in[I_L2_MISS] - in[I_L3_MISS]; }
FN(f_dram) { (void)c; return in[I_L3_MISS]; }
FN(f_core) { (void)c; return in[I_SPLIT_TOTAL] - in[I_MEM_ANY]; }
FN(f_stores) { (void)c; return in[I_STORES]; }
FN(f_recovery) { (void)c; return in[I_RECOVERY]; }
/* every cycle falls in one bin: S + G(1) */
FN(f_ilp_total) { (void)c; return in[I_STALLS] + G(1); }
FN(f_ilp0) { (void)c; return in[I_STALLS]; }
FN(f_ilp_mean) { (void)c; return in[I_ILP_UOPS] / (in[I_STALLS] + G(1)); }

/* bin k = G(k) - G(k+1); the top bin N = G(N) */
#define MID_FN(k) FN(f_ilp_mid##k) { (void)c; return G(k) - G((k) + 1); }
#define TOP_FN(k) FN(f_ilp_top##k) { (void)c; return G(k); }
MID_FN(1) MID_FN(2) MID_FN(3) MID_FN(4) MID_FN(5) MID_FN(6)
MID_FN(7) MID_FN(8) MID_FN(9) MID_FN(10) MID_FN(11)
TOP_FN(6) TOP_FN(8) TOP_FN(10) TOP_FN(12)

#define SRC "Core2 cycle accounting (seeds/000) on MODERN-PMU.md 1.1"
#define P TN_PART
#define CY(id, label, flags, fn, src, ...) \
	{ id, label, UNIT_CYCLES, flags, { __VA_ARGS__ }, fn, NULL, src }
#define MID(k) CY("ilp." #k, #k " uops executed", P, f_ilp_mid##k, \
		  SRC ", UOPS_EXECUTED.THREAD:c=" #k " - :c=" #k "+1", I_G1 + (k) - 1, I_G1 + (k))
#define TOP(k) CY("ilp." #k, #k " uops executed (the most per cycle)", P, f_ilp_top##k, \
		  SRC ", UOPS_EXECUTED.THREAD:c=" #k, I_G1 + (k) - 1)
#define MEAN { "ilp.mean", "Mean uops executed per cycle", UNIT_UOPS_PER_CYCLE, 0, \
	       { I_ILP_UOPS, I_STALLS, I_G1 }, f_ilp_mean, NULL, \
	       SRC ", sum k x bin(k) / sum bin(k)" }

#define COMMON_NODES \
	CY("cycles", "Total cycles", TN_EXACT, f_cycles, SRC ", CPU_CLK_UNHALTED.THREAD, eq. 1", \
	   I_CYCLES), \
	CY("cycles.retired", "Retired (executing uops that retire)", P | TN_USEFUL, f_retired, \
	   SRC ", (C - S) x RETIRE_SLOTS / UOPS_ISSUED.ANY", I_CYCLES, I_STALLS, I_RET_SLOTS, \
	   I_ISSUED), \
	CY("cycles.non_retired", "Non-retired (speculative uops thrown away)", P, f_non_retired, \
	   SRC ", eq. 3: (C - S) x (1 - RETIRE_SLOTS / UOPS_ISSUED.ANY)", I_CYCLES, I_STALLS, \
	   I_RET_SLOTS, I_ISSUED), \
	CY("cycles.stalls", "Stalls (no uop executed)", P | TN_EXACT, f_stalls, \
	   SRC ", eq. 2: UOPS_EXECUTED.THREAD:c=1:i=1 or CYCLE_ACTIVITY.STALLS_TOTAL", \
	   I_STALLS), \
	CY("cycles.stalls.memory", "Memory (loads outstanding)", P | TN_EXACT, f_memory, \
	   "CYCLE_ACTIVITY.STALLS_MEM_ANY (SPR: EXE_ACTIVITY.BOUND_ON_LOADS)", I_MEM_ANY), \
	CY("cycles.stalls.memory.l1", "L1 hit", P, f_l1, "STALLS_MEM_ANY - STALLS_L1D_MISS", \
	   I_MEM_ANY, I_L1D_MISS), \
	CY("cycles.stalls.memory.l2", "L2 hit", P, f_l2, "STALLS_L1D_MISS - STALLS_L2_MISS", \
	   I_L1D_MISS, I_L2_MISS), \
	CY("cycles.stalls.memory.l3", "L3 hit", P, f_l3, "STALLS_L2_MISS - STALLS_L3_MISS", \
	   I_L2_MISS, I_L3_MISS), \
	CY("cycles.stalls.memory.dram", "L3 miss (DRAM)", P, f_dram, "STALLS_L3_MISS", \
	   I_L3_MISS), \
	CY("cycles.stalls.core", "Core (no load outstanding)", P, f_core, \
	   "CYCLE_ACTIVITY.STALLS_TOTAL - STALLS_MEM_ANY", I_SPLIT_TOTAL, I_MEM_ANY), \
	CY("store_bound", "Store-bound cycles (beside the split)", 0, f_stores, \
	   "EXE_ACTIVITY.BOUND_ON_STORES", I_STORES), \
	CY("recovery", "Mispredict/clear recovery cycles (beside)", 0, f_recovery, \
	   "INT_MISC.RECOVERY_CYCLES", I_RECOVERY), \
	{ "ilp", "Cycles in the ILP sweep", UNIT_CYCLES, TN_EXACT, { I_STALLS, I_G1 }, \
	  f_ilp_total, "cycles", SRC ", bins add up to the cycles" }, \
	CY("ilp.0", "0 uops executed (stalls)", P, f_ilp0, SRC ", S", I_STALLS)

static const struct tree_node_def nodes6[] = {
	COMMON_NODES, MID(1), MID(2), MID(3), MID(4), MID(5), TOP(6), MEAN,
};
static const struct tree_node_def nodes8[] = {
	COMMON_NODES, MID(1), MID(2), MID(3), MID(4), MID(5), MID(6), MID(7), TOP(8), MEAN,
};
static const struct tree_node_def nodes10[] = {
	COMMON_NODES, MID(1), MID(2), MID(3), MID(4), MID(5), MID(6), MID(7), MID(8), MID(9),
	TOP(10), MEAN,
};
static const struct tree_node_def nodes12[] = {
	COMMON_NODES, MID(1), MID(2), MID(3), MID(4), MID(5), MID(6), MID(7), MID(8), MID(9),
	MID(10), MID(11), TOP(12), MEAN,
};

/* --- Nehalem and Westmere: no stall-cycle events by memory level, so the
 * Core2 paper's count x penalty with a signed remainder.  The stall term is
 * core-scope: UOPS_EXECUTED.CORE_STALL_CYCLES (0xB1, umask 0x3F, any, c=1,
 * i=1; MODERN-PMU.md 1.5), the same as per thread when SMT is off.  The
 * penalties are the load latencies of Levinthal's "Performance Analysis
 * Guide for Intel Core i7 Processor and Intel Xeon 5500 processors" (2009),
 * table "Core i7 Xeon 5500 Series Data Source Latency": L2 hit ~10 cycles,
 * L3 hit unshared ~40, modified in another core ~75, local DRAM ~60 ns
 * (180 cycles at 3 GHz, or 60 ns x --clock-hz when given).  Latencies
 * over-count when misses overlap: the remainder may go negative (flagged,
 * as on Core2). */
#define NHM_L2_HIT 10.0
#define NHM_LLC_HIT 40.0
#define NHM_OTHER_CORE 75.0
#define NHM_DRAM_NS 60e-9
#define NHM_DRAM_CYCLES 180.0

enum {
	N_L2_HIT = I_G1, N_LLC_UNSHARED, N_OTHER_CORE, N_LLC_MISS, N_MEMORY,
	N_G1, /* N_G1 + k - 1 = UOPS_EXECUTED.CORE_ACTIVE_CYCLES:cmask=k, k = 1..6 */
	N_ILP_UOPS = N_G1 + 6,
	N_COUNT
};
#define NG(k) in[N_G1 + (k) - 1]
#define NHM_SWEEP(k) "UOPS_EXECUTED.CORE_ACTIVE_CYCLES:cmask=" #k

static const struct tree_input_def inputs_nhm[N_COUNT] = {
	[I_CYCLES] = { "CPU_CLK_UNHALTED.THREAD|CPU_CLK_UNHALTED.THREAD_P|cycles", false },
	[I_STALLS] = { "UOPS_EXECUTED.CORE_STALL_CYCLES", false },
	[I_ISSUED] = { "UOPS_ISSUED.ANY", false },
	[I_RET_SLOTS] = { "UOPS_RETIRED.RETIRE_SLOTS", false },
	[N_L2_HIT] = { "MEM_LOAD_RETIRED.L2_HIT", false },
	[N_LLC_UNSHARED] = { "MEM_LOAD_RETIRED.LLC_UNSHARED_HIT", false },
	[N_OTHER_CORE] = { "MEM_LOAD_RETIRED.OTHER_CORE_L2_HIT_HITM", false },
	[N_LLC_MISS] = { "MEM_LOAD_RETIRED.LLC_MISS", false },
	[N_MEMORY] = { "the MEM_LOAD_RETIRED loads by source", true },
	[N_G1] = { NHM_SWEEP(1), false }, [N_G1 + 1] = { NHM_SWEEP(2), false },
	[N_G1 + 2] = { NHM_SWEEP(3), false }, [N_G1 + 3] = { NHM_SWEEP(4), false },
	[N_G1 + 4] = { NHM_SWEEP(5), false }, [N_G1 + 5] = { NHM_SWEEP(6), false },
	[N_ILP_UOPS] = { "UOPS_EXECUTED.CORE_ACTIVE_CYCLES:cmask=1..6", true },
};

/* The core-scope sweep (the @ilp preset of nhm/wsm, MODERN-PMU.md 1.5):
 * uops executed on the core = sum of NG(k), k = 1..6. */
static void derive_nhm(double *in, const struct tree_ctx *c)
{
	double uops = 0;

	(void)c;
	for (int k = 1; k <= 6; k++)
		uops += NG(k);
	in[N_ILP_UOPS] = uops;
}

static double nhm_dram_penalty(const struct tree_ctx *c)
{
	return c->clock_hz > 0 ? NHM_DRAM_NS * c->clock_hz : NHM_DRAM_CYCLES;
}

FN(f_nhm_l2) { (void)c; return in[N_L2_HIT] * NHM_L2_HIT; }
FN(f_nhm_l3)
{
	(void)c;
	return in[N_LLC_UNSHARED] * NHM_LLC_HIT + in[N_OTHER_CORE] * NHM_OTHER_CORE;
}
FN(f_nhm_dram) { return in[N_LLC_MISS] * nhm_dram_penalty(c); }
FN(f_nhm_memory) { return f_nhm_l2(in, c) + f_nhm_l3(in, c) + f_nhm_dram(in, c); }
FN(f_nhm_ilp_total) { (void)c; return in[I_STALLS] + NG(1); }
FN(f_nhm_ilp_mean) { (void)c; return in[N_ILP_UOPS] / (in[I_STALLS] + NG(1)); }
#define NHM_MID_FN(k) FN(f_nhm_mid##k) { (void)c; return NG(k) - NG((k) + 1); }
NHM_MID_FN(1) NHM_MID_FN(2) NHM_MID_FN(3) NHM_MID_FN(4) NHM_MID_FN(5)
FN(f_nhm_top6) { (void)c; return NG(6); }

#define NHM "Core i7 performance analysis guide (Levinthal 2009) latencies"
static const struct tree_node_def nodes_nhm[] = {
	CY("cycles", "Total cycles", TN_EXACT, f_cycles, SRC ", CPU_CLK_UNHALTED.THREAD, eq. 1",
	   I_CYCLES),
	CY("cycles.retired", "Retired (executing uops that retire)", P | TN_USEFUL, f_retired,
	   SRC ", (C - S) x RETIRE_SLOTS / UOPS_ISSUED.ANY", I_CYCLES, I_STALLS, I_RET_SLOTS,
	   I_ISSUED),
	CY("cycles.non_retired", "Non-retired (speculative uops thrown away)", P, f_non_retired,
	   SRC ", eq. 3", I_CYCLES, I_STALLS, I_RET_SLOTS, I_ISSUED),
	CY("cycles.stalls", "Stalls (no uop executed on the core)", P | TN_EXACT, f_stalls,
	   SRC ", eq. 2: UOPS_EXECUTED.CORE_STALL_CYCLES", I_STALLS),
	CY("cycles.stalls.memory", "Memory (loads x latency)", P | TN_EXACT, f_nhm_memory,
	   NHM, N_L2_HIT, N_LLC_UNSHARED, N_OTHER_CORE, N_LLC_MISS),
	CY("cycles.stalls.memory.l2", "L2 hit", P, f_nhm_l2, NHM ", L2_HIT x ~10", N_L2_HIT),
	CY("cycles.stalls.memory.l3", "L3 hit", P, f_nhm_l3,
	   NHM ", LLC_UNSHARED_HIT x ~40 + OTHER_CORE_L2_HIT_HITM x ~75", N_LLC_UNSHARED,
	   N_OTHER_CORE),
	CY("cycles.stalls.memory.dram", "L3 miss (local DRAM)", P, f_nhm_dram,
	   NHM ", LLC_MISS x ~60 ns", N_LLC_MISS),
	{ "cycles.stalls.core", "Unaccounted (core, overlap)", UNIT_CYCLES,
	  P | TN_REMAINDER | TN_SIGNED, { 0 }, NULL, NULL, SRC ", stalls - sum(P_i x N_i)" },
	{ "ilp", "Cycles in the ILP sweep (core scope)", UNIT_CYCLES, TN_EXACT, { I_STALLS, N_G1 },
	  f_nhm_ilp_total, "cycles", SRC ", bins add up to the cycles" },
	CY("ilp.0", "0 uops executed on the core (stalls)", P, f_stalls,
	   SRC ", UOPS_EXECUTED.CORE_STALL_CYCLES", I_STALLS),
#define NHM_MID(k) CY("ilp." #k, #k " uops executed on the core", P, f_nhm_mid##k, \
		      SRC ", UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=" #k " - :c=" #k "+1", \
		      N_G1 + (k) - 1, N_G1 + (k))
	NHM_MID(1), NHM_MID(2), NHM_MID(3), NHM_MID(4), NHM_MID(5),
	CY("ilp.6", "6 uops executed on the core (the most per cycle)", P, f_nhm_top6,
	   SRC ", UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=6", N_G1 + 5),
	{ "ilp.mean", "Mean uops executed on the core per cycle", UNIT_UOPS_PER_CYCLE, 0,
	  { N_ILP_UOPS, I_STALLS, N_G1 }, f_nhm_ilp_mean, NULL,
	  SRC ", sum k x bin(k) / sum bin(k)" },
};

static const char *const models_nhm[] = { "nhm", "wsm", NULL };
static const char *const models6[] = { "snb", "ivb", NULL };
static const char *const models8[] = { "skl", "hsw", "bdw", "skx", "clx", NULL };
static const char *const models10[] = { "icl", "icx", NULL };
static const char *const models12[] = { "spr", "emr", "gnr", NULL };

#define N(a) ((int)(sizeof(a) / sizeof(a[0])))
#define TITLE "Core2 cycle accounting on Intel"

const struct tree_def tree_intel_nhm = {
	TREE_INTEL, "intel", TITLE " (Nehalem, loads x latency)", inputs_nhm, N_COUNT, nodes_nhm,
	N(nodes_nhm), derive_nhm, models_nhm,
};
const struct tree_def tree_intel6 = {
	TREE_INTEL, "intel", TITLE " (6 ports)", inputs6, I_COUNT, nodes6, N(nodes6),
	derive6, models6,
};
const struct tree_def tree_intel8 = {
	TREE_INTEL, "intel", TITLE " (8 ports)", inputs8, I_COUNT, nodes8, N(nodes8),
	derive8, models8,
};
const struct tree_def tree_intel10 = {
	TREE_INTEL, "intel", TITLE " (10 ports)", inputs10, I_COUNT, nodes10, N(nodes10),
	derive10, models10,
};
const struct tree_def tree_intel12 = {
	TREE_INTEL, "intel", TITLE " (12 ports)", inputs12, I_COUNT, nodes12, N(nodes12),
	derive12, models12,
};
