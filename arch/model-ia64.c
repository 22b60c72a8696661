/* Itanium 2 (IA-64): 4 generic counters (PMC4-PMC7), no fixed counters.
 * libpfm4 4.13 has no IA-64 support, so the events live only here, under the
 * names of Levinthal, "Black Belt Itanium Processor Performance, part 2"
 * (seeds/001) and the Core2 slides' big-4 mapping (seeds/002).  No vendor
 * codes are kept: IA-64 data reaches cyctop only through counts files. */
#include "arch/model.h"

#define SAV 2000000 /* cycle events share the cycles SAV: sample ratios = cycle ratios */
#define E(name, desc) { name, NULL, { 0, 0, 0, false, false, false }, 0, -1, SAV, desc }

static const struct arch_event ia64_events[] = {
	E("CPU_CYCLES|CPU_OP_CYCLES_ALL", "CPU cycles"),
	E("IA64_INST_RETIRED", "retired IA-64 instructions"),
	E("BACK_END_BUBBLE.ALL", "back-end stall cycles, any reason"),
	E("BACK_END_BUBBLE.FE", "back-end stalls for lack of instructions from the front end"),
	E("BE_FLUSH_BUBBLE.ALL", "stalls flushing the pipeline (mispredicts, exceptions)"),
	E("BE_FLUSH_BUBBLE.XPN", "flush stalls from exceptions"),
	E("BE_FLUSH_BUBBLE.BRU", "flush stalls from branch mispredicts"),
	E("BE_L1D_FPU_BUBBLE.ALL", "stalls from the L1D and FPU micropipelines"),
	E("BE_EXE_BUBBLE.ALL", "stalls in the EXE stage waiting for inputs"),
	E("BE_EXE_BUBBLE.GRALL", "EXE stalls on integer registers"),
	E("BE_EXE_BUBBLE.FRALL", "EXE stalls on floating-point registers"),
	E("BE_EXE_BUBBLE.GRGR", "EXE stalls on chained long-latency integer ops"),
	E("BE_RSE_BUBBLE.ALL", "register stack engine stalls"),
	E("BUS_MEMORY.ALL.SELF", "bus memory transactions of this processor"),
	E("DEAR_LATENCY_GT_64", "data EAR: loads with latency above 64 cycles"),
	{ NULL, NULL, { 0, 0, 0, false, false, false }, 0, 0, 0, NULL },
};

static const struct arch_event *const ia64_tables[] = { ia64_events, NULL };

const struct arch_model model_ia64 = {
	.name = "ia64",
	.pmu_prefix = "ia64",
	.pfm_force = NULL,
	.desc = "Intel Itanium 2 (4 generic counters; counts files only)",
	.tree = TREE_IA64,
	.n_generic = 4,
	.n_fixed = 0,
	.write_bytes = 0,
	.cycles = "CPU_CYCLES",
	.ilp_event = NULL,
	/* IA-64 paper: stalls are BACK_END_BUBBLE.ALL cycles. */
	.stall_event = "BACK_END_BUBBLE.ALL",
	.inst_event = "IA64_INST_RETIRED",
	.dispatch_width = 6,
	.tables = ia64_tables,
};
