/* The IA-64 back-end bubble tree.
 * Levinthal, "Black Belt Itanium Processor Performance, part 2" (seeds/001):
 * BACK_END_BUBBLE.ALL splits exactly (prioritized) into BE_FLUSH_BUBBLE.ALL,
 * BE_L1D_FPU_BUBBLE.ALL, BE_EXE_BUBBLE.ALL, BE_RSE_BUBBLE.ALL and
 * BACK_END_BUBBLE.FE; the flush part splits exactly into XPN + BRU; the EXE
 * sub-events GRALL, FRALL, GRGR are not prioritized and may overlap.  The
 * residual shows mismeasurement (it should be ~0). */
#include "arch/tree.h"

enum {
	I_NONE, I_CYCLES, I_BEB, I_FLUSH, I_XPN, I_BRU, I_L1D, I_EXE, I_GRALL, I_FRALL,
	I_GRGR, I_RSE, I_FE, I_COUNT
};

static const struct tree_input_def inputs[I_COUNT] = {
	[I_CYCLES] = { "CPU_CYCLES", false },
	[I_BEB] = { "BACK_END_BUBBLE.ALL", false },
	[I_FLUSH] = { "BE_FLUSH_BUBBLE.ALL", false },
	[I_XPN] = { "BE_FLUSH_BUBBLE.XPN", false },
	[I_BRU] = { "BE_FLUSH_BUBBLE.BRU", false },
	[I_L1D] = { "BE_L1D_FPU_BUBBLE.ALL", false },
	[I_EXE] = { "BE_EXE_BUBBLE.ALL", false },
	[I_GRALL] = { "BE_EXE_BUBBLE.GRALL", false },
	[I_FRALL] = { "BE_EXE_BUBBLE.FRALL", false },
	[I_GRGR] = { "BE_EXE_BUBBLE.GRGR", false },
	[I_RSE] = { "BE_RSE_BUBBLE.ALL", false },
	[I_FE] = { "BACK_END_BUBBLE.FE", false },
};

#define GET(fn, idx) \
	static double fn(const double *in, const struct tree_ctx *c) { (void)c; return in[idx]; }
GET(f_cycles, I_CYCLES)
GET(f_beb, I_BEB)
GET(f_flush, I_FLUSH)
GET(f_xpn, I_XPN)
GET(f_bru, I_BRU)
GET(f_l1d, I_L1D)
GET(f_exe, I_EXE)
GET(f_grall, I_GRALL)
GET(f_frall, I_FRALL)
GET(f_grgr, I_GRGR)
GET(f_rse, I_RSE)
GET(f_fe, I_FE)

static double f_unstalled(const double *in, const struct tree_ctx *c)
{
	(void)c;
	return in[I_CYCLES] - in[I_BEB];
}

#define SRC "IA-64 part 2"
#define PART TN_PART

static const struct tree_node_def nodes[] = {
	{ "cycles", "Total cycles", UNIT_CYCLES, 0, { I_CYCLES }, f_cycles, NULL,
	  SRC ", CPU_CYCLES" },
	{ "cycles.unstalled", "Unstalled", UNIT_CYCLES, PART | TN_USEFUL, { I_CYCLES, I_BEB }, f_unstalled,
	  NULL, SRC ", CPU_CYCLES - BACK_END_BUBBLE.ALL" },
	{ "cycles.stalls", "Back-end stalls", UNIT_CYCLES, PART, { I_BEB }, f_beb, NULL,
	  SRC ", BACK_END_BUBBLE.ALL" },
	{ "cycles.stalls.flush", "Pipeline flush (mispredict, exception)", UNIT_CYCLES,
	  PART | TN_EXACT, { I_FLUSH }, f_flush, NULL, SRC ", BE_FLUSH_BUBBLE.ALL (priority 1)" },
	{ "cycles.stalls.flush.xpn", "Exceptions", UNIT_CYCLES, PART, { I_XPN }, f_xpn, NULL,
	  SRC ", BE_FLUSH_BUBBLE.XPN" },
	{ "cycles.stalls.flush.bru", "Branch mispredicts", UNIT_CYCLES, PART, { I_BRU }, f_bru,
	  NULL, SRC ", BE_FLUSH_BUBBLE.BRU" },
	{ "cycles.stalls.l1d_fpu", "L1D / FPU micropipelines", UNIT_CYCLES, PART, { I_L1D },
	  f_l1d, NULL, SRC ", BE_L1D_FPU_BUBBLE.ALL (priority 2)" },
	{ "cycles.stalls.exe", "EXE stage waiting for inputs", UNIT_CYCLES, PART, { I_EXE },
	  f_exe, NULL, SRC ", BE_EXE_BUBBLE.ALL (priority 3)" },
	{ "cycles.stalls.exe.grall", "Integer register inputs (not prioritized)", UNIT_CYCLES,
	  PART | TN_OVERLAP, { I_GRALL }, f_grall, NULL, SRC ", BE_EXE_BUBBLE.GRALL" },
	{ "cycles.stalls.exe.frall", "FP register inputs (not prioritized)", UNIT_CYCLES,
	  PART | TN_OVERLAP, { I_FRALL }, f_frall, NULL, SRC ", BE_EXE_BUBBLE.FRALL" },
	{ "cycles.stalls.exe.grgr", "Chained long-latency integer ops (not prioritized)",
	  UNIT_CYCLES, PART | TN_OVERLAP, { I_GRGR }, f_grgr, NULL, SRC ", BE_EXE_BUBBLE.GRGR" },
	{ "cycles.stalls.rse", "Register stack engine", UNIT_CYCLES, PART, { I_RSE }, f_rse,
	  NULL, SRC ", BE_RSE_BUBBLE.ALL (priority 4)" },
	{ "cycles.stalls.fe", "Front end starved the back end", UNIT_CYCLES, PART, { I_FE },
	  f_fe, NULL, SRC ", BACK_END_BUBBLE.FE (priority 5)" },
	{ "cycles.stalls.residual", "Residual (mismeasurement, should be ~0)", UNIT_CYCLES,
	  PART | TN_REMAINDER | TN_STRICT | TN_SIGNED, { 0 }, NULL, NULL,
	  SRC ", BACK_END_BUBBLE.ALL - the five components" },
};

/* the CPU of the paper only (no models: a tree for every host) */
static const char *const models[] = { "ia64", NULL };

const struct tree_def tree_ia64 = {
	.id = TREE_IA64,
	.name = "ia64",
	.title = "IA-64 back-end bubbles",
	.inputs = inputs,
	.n_inputs = I_COUNT,
	.nodes = nodes,
	.n_nodes = (int)(sizeof(nodes) / sizeof(nodes[0])),
	.derive = NULL,
	.models = models,
};
