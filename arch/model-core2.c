/* Intel Core2 ("core" in libpfm4): 2 generic + 3 fixed counters.
 *
 * Names and sample-after values: Levinthal, "Cycle Accounting Analysis on
 * Intel Core2 Processors" (seeds/000) and the VTune course slides (seeds/002).
 * Event select / unit mask: Intel SDM vol. 3B, Core2 non-architectural events.
 * Counter constraints: Linux arch/x86/events/intel/core.c,
 * intel_core2_event_constraints (MEM_LOAD_RETIRED 0xcb, IDLE_DURING_DIV 0x18
 * on PMC0 only; FP_ASSIST 0x11 on PMC1 only); fixed counters 0 = INST_RETIRED.ANY,
 * 1 = CPU_CLK_UNHALTED.CORE, 2 = CPU_CLK_UNHALTED.REF. */
#include "arch/model.h"

#define ANY 0
#define PMC0 0x1
#define PMC1 0x2
#define NOFIX -1
#define C(s, u) { .sel = (s), .umask = (u) }
#define CI(s, u, c) { .sel = (s), .umask = (u), .cmask = (c), .inv = true }
#define CC(s, u, c) { .sel = (s), .umask = (u), .cmask = (c) }

static const struct arch_event core2_events[] = {
	{ "CPU_CLK_UNHALTED.CORE", "CPU_CLK_UNHALTED:CORE_P", C(0x3c, 0x00), ANY, 1, 2000000,
	  "core cycles while not halted" },
	{ "CPU_CLK_UNHALTED.BUS", "CPU_CLK_UNHALTED:BUS", C(0x3c, 0x01), ANY, NOFIX, 0,
	  "bus cycles while not halted" },
	{ "CPU_CLK_UNHALTED.NO_OTHER", "CPU_CLK_UNHALTED:NO_OTHER", C(0x3c, 0x02), ANY, NOFIX, 0,
	  "bus cycles while this core is active and the other halted" },
	{ "INST_RETIRED.ANY_P|INST_RETIRED.ANY|INST_RETIRED_ANY_P", "INST_RETIRED:ANY_P",
	  C(0xc0, 0x00), ANY, 0, 2000000, "instructions retired (PEBS precise)" },
	{ "INST_RETIRED.LOADS", "INST_RETIRED:LOADS", C(0xc0, 0x01), ANY, NOFIX, 0,
	  "retired loads" },
	{ "INST_RETIRED.STORES", "INST_RETIRED:STORES", C(0xc0, 0x02), ANY, NOFIX, 0,
	  "retired stores" },
	{ "RS_UOPS_DISPATCHED", "RS_UOPS_DISPATCHED", C(0xa0, 0x00), ANY, NOFIX, 2000000,
	  "uops dispatched from the reservation station" },
	{ "RS_UOPS_DISPATCHED.CYCLES_NONE|RS_UOPS_DISPATCH.CYCLES_NONE",
	  "RS_UOPS_DISPATCHED:c=1:i=1", CI(0xa0, 0x00, 1), ANY, NOFIX, 2000000,
	  "stall cycles: no uop dispatched (eq. 2)" },
	{ "RS_UOPS_DISPATCHED.CYCLES_ANY", "RS_UOPS_DISPATCHED:c=1", CC(0xa0, 0x00, 1), ANY,
	  NOFIX, 2000000, "cycles dispatching at least one uop" },
	/* The ILP sweep: cycles with fewer than k uops dispatched. */
	{ "RS_UOPS_DISPATCHED:cmask=2:inv=1", "RS_UOPS_DISPATCHED:c=2:i=1", CI(0xa0, 0, 2), ANY, NOFIX, 2000000, "cycles with < 2 uops dispatched" },
	{ "RS_UOPS_DISPATCHED:cmask=3:inv=1", "RS_UOPS_DISPATCHED:c=3:i=1", CI(0xa0, 0, 3), ANY, NOFIX, 2000000, "cycles with < 3 uops dispatched" },
	{ "RS_UOPS_DISPATCHED:cmask=4:inv=1", "RS_UOPS_DISPATCHED:c=4:i=1", CI(0xa0, 0, 4), ANY, NOFIX, 2000000, "cycles with < 4 uops dispatched" },
	{ "RS_UOPS_DISPATCHED:cmask=5:inv=1", "RS_UOPS_DISPATCHED:c=5:i=1", CI(0xa0, 0, 5), ANY, NOFIX, 2000000, "cycles with < 5 uops dispatched" },
	{ "RS_UOPS_DISPATCHED:cmask=6:inv=1", "RS_UOPS_DISPATCHED:c=6:i=1", CI(0xa0, 0, 6), ANY, NOFIX, 2000000, "cycles with < 6 uops dispatched" },
	{ "RS_UOPS_DISPATCHED:cmask=7:inv=1", "RS_UOPS_DISPATCHED:c=7:i=1", CI(0xa0, 0, 7), ANY, NOFIX, 2000000, "cycles with < 7 uops dispatched" },
	{ "UOPS_RETIRED.ANY", "UOPS_RETIRED:ANY", C(0xc2, 0x0f), ANY, NOFIX, 2000000,
	  "retired uops" },
	{ "UOPS_RETIRED.FUSED", "UOPS_RETIRED:FUSED", C(0xc2, 0x07), ANY, NOFIX, 2000000,
	  "retired fused uops" },
	{ "MEM_LOAD_RETIRED.L1D_MISS", "MEM_LOAD_RETIRED:L1D_MISS", C(0xcb, 0x01), PMC0, NOFIX,
	  200000, "retired loads missing L1D (PEBS)" },
	{ "MEM_LOAD_RETIRED.L1D_LINE_MISS|MEM_LOAD_RETIRED.L1_LINE_MISS",
	  "MEM_LOAD_RETIRED:L1D_LINE_MISS", C(0xcb, 0x02), PMC0, NOFIX, 200000,
	  "L1D line misses by retired loads (PEBS)" },
	{ "MEM_LOAD_RETIRED.L2_MISS", "MEM_LOAD_RETIRED:L2_MISS", C(0xcb, 0x04), PMC0, NOFIX,
	  10000, "retired loads missing L2 (PEBS)" },
	{ "MEM_LOAD_RETIRED.L2_LINE_MISS", "MEM_LOAD_RETIRED:L2_LINE_MISS", C(0xcb, 0x08),
	  PMC0, NOFIX, 10000, "L2 line demand misses (PEBS); penalty ~165 desktop, ~300 server" },
	{ "MEM_LOAD_RETIRED.DTLB_MISS", "MEM_LOAD_RETIRED:DTLB_MISS", C(0xcb, 0x10), PMC0,
	  NOFIX, 20000, "retired loads missing the DTLB (PEBS); penalty ~10" },
	{ "PAGE_WALKS.CYCLES", "PAGE_WALKS:CYCLES", C(0x0c, 0x02), ANY, NOFIX, 0,
	  "cycles spent in page walks" },
	{ "PAGE_WALKS.COUNT", "PAGE_WALKS:COUNT", C(0x0c, 0x01), ANY, NOFIX, 0,
	  "page walks" },
	{ "LOAD_BLOCK.STA|LOAD_BLOCKS.STA|LOAD_BLOCKS.ADR", "LOAD_BLOCK:STA", C(0x03, 0x02),
	  ANY, NOFIX, 200000, "loads blocked by a store to an unknown address; penalty ~5" },
	{ "LOAD_BLOCK.OVERLAP_STORE|LOAD_BLOCKS.OVERLAP_STORE|LOAD_BLOCK.STORE_OVERLAP",
	  "LOAD_BLOCK:OVERLAP_STORE", C(0x03, 0x08), ANY, NOFIX, 200000,
	  "loads blocked by an overlapping store; penalty ~6" },
	{ "LOAD_BLOCK.UNTIL_RETIRE|LOAD_BLOCKS.UNTIL_RETIRE", "LOAD_BLOCK:UNTIL_RETIRE",
	  C(0x03, 0x10), ANY, NOFIX, 200000, "loads blocked until retirement; penalty ~20" },
	{ "ILD_STALL|ILD_STALLS", "ILD_STALL", C(0x87, 0x00), ANY, NOFIX, 200000,
	  "length-changing prefix stalls; penalty 6" },
	{ "FP_ASSIST", "FP_ASSIST", C(0x11, 0x00), PMC1, NOFIX, 10000,
	  "floating-point software assists; penalty ~200" },
	{ "IDLE_DURING_DIV", "IDLE_DURING_DIV", C(0x18, 0x00), PMC0, NOFIX, 2000000,
	  "stall cycles while the divider is busy" },
	{ "RESOURCE_STALLS.BR_MISS_CLEAR", "RESOURCE_STALLS:BR_MISS_CLEAR", C(0xdc, 0x10), ANY,
	  NOFIX, 2000000, "cycles flushing the pipeline after a mispredict" },
	{ "RESOURCE_STALLS.ANY", "RESOURCE_STALLS:ANY", C(0xdc, 0x1f), ANY, NOFIX, 2000000,
	  "resource stall cycles" },
	{ "BUS_TRANS_ANY.SELF", "BUS_TRANS_ANY:SELF", C(0x70, 0x40), ANY, NOFIX, 100000,
	  "bus transactions of this core" },
	{ "BUS_TRANS_ANY.ALL_AGENTS", "BUS_TRANS_ANY:BOTH_CORES:ALL_AGENTS", C(0x70, 0xe0), ANY,
	  NOFIX, 100000, "bus transactions of all agents" },
	{ "BUS_TRANS_BURST.SELF", "BUS_TRANS_BURST:SELF", C(0x6e, 0x40), ANY, NOFIX, 100000,
	  "whole cache lines moved by this core" },
	{ "BUS_TRANS_BURST.ALL_AGENTS", "BUS_TRANS_BURST:BOTH_CORES:ALL_AGENTS", C(0x6e, 0xe0),
	  ANY, NOFIX, 100000, "whole cache lines moved on the bus" },
	{ "BUS_TRANS_MEM.SELF", "BUS_TRANS_MEM:SELF", C(0x6f, 0x40), ANY, NOFIX, 100000,
	  "memory transactions of this core" },
	{ "BUS_TRANS_MEM.ALL_AGENTS", "BUS_TRANS_MEM:BOTH_CORES:ALL_AGENTS", C(0x6f, 0xe0), ANY,
	  NOFIX, 100000, "memory transactions on the bus" },
	{ "BUS_DRDY_CLOCKS.ALL_AGENTS", "BUS_DRDY_CLOCKS:ALL_AGENTS", C(0x62, 0x20), ANY, NOFIX,
	  0, "bus cycles used for data transfer" },
	{ "BUS_DRDY_CLOCKS.THIS_AGENT", "BUS_DRDY_CLOCKS:THIS_AGENT", C(0x62, 0x00), ANY, NOFIX,
	  0, "bus cycles used for writes" },
	{ "BR_CND_EXEC", "BR_CND_EXEC", C(0x8b, 0x00), ANY, NOFIX, 2000000,
	  "conditional branches executed" },
	{ "BR_CND_MISSP_EXEC", "BR_CND_MISSP_EXEC", C(0x8c, 0x00), ANY, NOFIX, 2000000,
	  "mispredicted conditional branches executed" },
	{ "BR_CALL_EXEC", "BR_CALL_EXEC", C(0x92, 0x00), ANY, NOFIX, 200000, "calls executed" },
	{ "BR_CALL_MISSP_EXEC", "BR_CALL_MISSP_EXEC", C(0x93, 0x00), ANY, NOFIX, 200000,
	  "mispredicted calls executed" },
	{ "BR_INST_RETIRED.MISPRED", "BR_INST_RETIRED_MISPRED", C(0xc5, 0x00), ANY, NOFIX, 0,
	  "mispredicted branches retired (PEBS)" },
	{ "LOAD_HIT_PRE", "LOAD_HIT_PRE", C(0x4c, 0x00), ANY, NOFIX, 0,
	  "loads hitting a line still being software-prefetched" },
	{ NULL, NULL, C(0, 0), 0, 0, 0, NULL },
};

static const struct arch_event *const core2_tables[] = { core2_events, NULL };

const struct arch_model model_core2 = {
	.name = "core",
	.pmu_prefix = "core",
	.pfm_force = "core",
	.desc = "Intel Core2 (2 generic + 3 fixed counters)",
	.tree = TREE_CORE2,
	.n_generic = 2,
	.n_fixed = 3,
	.write_bytes = 0,
	.cycles = "CPU_CLK_UNHALTED.CORE",
	.ilp_event = "RS_UOPS_DISPATCHED",
	/* Core2 paper, "Estimating Penalties"; cache-line article (seeds/003). */
	.stall_event = "RS_UOPS_DISPATCHED.CYCLES_NONE",
	.inst_event = "INST_RETIRED.ANY_P",
	.bus_event = "BUS_TRANS_BURST.SELF",
	.dispatch_width = 6,
	.tables = core2_tables,
};
