/* Arm cores with the Armv8 PMU (PMUv3): Neoverse N1, N2, V1, V2 and
 * Cortex-A53, A57, A72, A76.  The events the arm and topdown trees, the
 * presets and the asm view use, under the architecture's names (perf's
 * spelling; lower case, as perf's sysfs aliases cpu_cycles, inst_retired,
 * matches too: names match case-insensitively).
 *
 * Encoding (ENC_ARMV8): attr.config is the event number, attr.type the core
 * PMU's (PERF_TYPE_RAW on the raw path), as the kernel's armv8 PMU format
 * "event=config:0-15" says (drivers/perf/arm_pmuv3.c).  libpfm4 4.13 names
 * some of these cores (arm_ac53, arm_ac57, arm_n1, arm_n2, arm_v1, arm_v2;
 * not A72 or A76) but an x86 build of it has no arm tables, so the codes
 * below are cyctop's own, and the model names are libpfm4's where it has
 * one (an arm64 host whose libpfm4 detects arm_n1 maps to model arm_n1).
 *
 * Sources (every row): event numbers from Linux
 * tools/perf/pmu-events/arch/arm64/common-and-microarch.json (the Arm
 * architecture's common events: CPU_CYCLES 0x11, INST_RETIRED 0x08,
 * STALL_FRONTEND 0x23, STALL_BACKEND 0x24, OP_RETIRED 0x3A, OP_SPEC 0x3B,
 * STALL 0x3C, STALL_SLOT_BACKEND 0x3D, STALL_SLOT_FRONTEND 0x3E, STALL_SLOT
 * 0x3F, STALL_BACKEND_MEM 0x4005 ...); which core has which from perf's
 * per-core files, tools/perf/pmu-events/arch/arm64/arm/:
 *   cortex-a53 (A53), cortex-a57-a72 (A57, A72: instruction.json has
 *   INST_SPEC, no STALL_* events), cortex-a76-n1 (A76: pipeline.json
 *   STALL_FRONTEND, STALL_BACKEND), neoverse-n1 (stall.json: STALL_FRONTEND
 *   and STALL_BACKEND only; spec_operation.json INST_SPEC, no OP_SPEC;
 *   retired.json no OP_RETIRED), neoverse-v1 (stall.json: STALL,
 *   STALL_SLOT*, STALL_BACKEND_MEM; retired.json OP_RETIRED),
 *   neoverse-n2-v2 (N2 and V2: the same stall.json and OP_RETIRED).
 *
 * Inventory: PMCR_EL0.N = 6 event counters on these cores (their TRMs; the
 * kernel prints "enabled with armv8_pmuv3 PMU driver, 7 counters
 * available") plus the cycle counter PMCCNTR_EL0, which counts only
 * CPU_CYCLES: it is modelled as fixed counter 0, CPU_CYCLES alone may use
 * it (it may also use an event counter, as the kernel places it when the
 * cycle counter is taken: armv8pmu_get_event_idx).  cyctop opens every
 * event without attr.config1 bit 0 ("long"), so none is chained: each takes
 * one counter (a chained 64-bit event would take an adjacent pair on a PMU
 * with 32-bit counters, armv8pmu_event_is_chained; the kernel extends a
 * counter through its overflow interrupt, and PMUv3p5 counters are
 * 64-bit).  No counter threshold before FEAT_PMUv3_TH, so no CMASK-style ILP
 * sweep: no_ilp says so.  Where the host's PMU has one (Linux 6.8+, its
 * format/threshold; arch/ilp.h) the sweep is OP_RETIRED:th=k, built by
 * engine/events.c from the host, not from these static rows. */
#include "arch/model.h"

#define ANY 0
#define NOFIX -1
#define CYCLE_COUNTER 0
#define EV(n) { .sel = (n) }
#define ROW(name, num, sav, desc) { name, name, EV(num), ANY, NOFIX, sav, desc }
#define END { NULL, NULL, EV(0), 0, 0, 0, NULL }
#define SAV 2000003

/* The Armv8.0 common events every one of these cores counts (events
 * 0x01-0x1D; A53, A57 and A72 stop there). */
static const struct arch_event armv8_events[] = {
	{ "CPU_CYCLES", "CPU_CYCLES", EV(0x11), ANY, CYCLE_COUNTER, SAV, "core cycles" },
	ROW("INST_RETIRED", 0x08, SAV, "instructions architecturally executed"),
	ROW("BR_MIS_PRED", 0x10, 0, "branches mispredicted or not predicted (speculative)"),
	ROW("BR_PRED", 0x12, 0, "predictable branches (speculative)"),
	ROW("L1I_CACHE_REFILL", 0x01, 0, "L1 instruction cache refills"),
	ROW("L1I_TLB_REFILL", 0x02, 0, "L1 instruction TLB refills"),
	ROW("L1D_CACHE_REFILL", 0x03, 0, "L1 data cache refills"),
	ROW("L1D_CACHE", 0x04, 0, "L1 data cache accesses"),
	ROW("L1D_TLB_REFILL", 0x05, 0, "L1 data TLB refills"),
	ROW("EXC_TAKEN", 0x09, 0, "exceptions taken"),
	ROW("MEM_ACCESS", 0x13, 0, "data memory accesses"),
	ROW("L1I_CACHE", 0x14, 0, "L1 instruction cache accesses"),
	ROW("L2D_CACHE", 0x16, 0, "L2 data cache accesses"),
	ROW("L2D_CACHE_REFILL", 0x17, 0, "L2 data cache refills"),
	ROW("BUS_ACCESS", 0x19, 0, "bus accesses"),
	ROW("BUS_CYCLES", 0x1d, 0, "bus cycles"),
	END,
};

/* Out-of-order cores count speculatively executed operations (A57 on;
 * perf's cortex-a57-a72/instruction.json, neoverse-n1/spec_operation.json). */
static const struct arch_event spec_events[] = {
	ROW("INST_SPEC", 0x1b, 0, "operations speculatively executed"),
	END,
};

/* Armv8.1 and later common events on A76, N1, V1, N2, V2 (perf's
 * cortex-a76-n1/pipeline.json, neoverse-{n1,v1,n2-v2}/stall.json, retired.json, tlb.json). */
static const struct arch_event armv81_events[] = {
	ROW("BR_RETIRED", 0x21, 0, "branches architecturally executed"),
	ROW("BR_MIS_PRED_RETIRED", 0x22, 0, "mispredicted branches architecturally executed"),
	ROW("STALL_FRONTEND", 0x23, SAV, "cycles no operation issued: the front end had none"),
	ROW("STALL_BACKEND", 0x24, SAV, "cycles no operation issued: the back end took none"),
	ROW("L1D_TLB", 0x25, 0, "L1 data TLB accesses"),
	ROW("L1I_TLB", 0x26, 0, "L1 instruction TLB accesses"),
	ROW("L2D_TLB_REFILL", 0x2d, 0, "L2 TLB refills"),
	ROW("L2D_TLB", 0x2f, 0, "L2 TLB accesses"),
	ROW("DTLB_WALK", 0x34, 0, "data TLB accesses that walk the page table"),
	ROW("ITLB_WALK", 0x35, 0, "instruction TLB accesses that walk the page table"),
	END,
};

/* The last-level cache read events of the Neoverse cores (perf's
 * neoverse-n1/ll_cache.json, the ll_cache_read_mpki metric of N1, V1 and N2/V2). */
static const struct arch_event llc_events[] = {
	ROW("LL_CACHE_RD", 0x36, 0, "last-level cache reads"),
	ROW("LL_CACHE_MISS_RD", 0x37, 0, "last-level cache read misses"),
	END,
};

/* Armv8.4 (PMMIR_EL1, the slot events) on V1, N2, V2: the TopDown inputs and
 * the memory-bound stall cycles (perf's neoverse-v1/stall.json and
 * neoverse-n2-v2/stall.json, retired.json, spec_operation.json). */
static const struct arch_event armv84_events[] = {
	ROW("OP_RETIRED", 0x3a, SAV, "micro-operations architecturally executed"),
	ROW("OP_SPEC", 0x3b, SAV, "micro-operations speculatively executed"),
	ROW("STALL", 0x3c, SAV, "cycles no operation was sent for execution"),
	ROW("STALL_SLOT_BACKEND", 0x3d, 0, "slots with no operation sent: the back end took none"),
	ROW("STALL_SLOT_FRONTEND", 0x3e, 0, "slots with no operation sent: the front end had none"),
	ROW("STALL_SLOT", 0x3f, 0, "slots with no operation sent for execution"),
	ROW("STALL_BACKEND_MEM", 0x4005, SAV,
	    "back-end stall cycles with a demand load missing the last core cache"),
	END,
};

static const struct arch_event *const ac53_tables[] = { armv8_events, NULL };
static const struct arch_event *const ac57_tables[] = { armv8_events, spec_events, NULL };
static const struct arch_event *const ac76_tables[] = { armv8_events, spec_events,
							armv81_events, NULL };
static const struct arch_event *const n1_tables[] = { armv8_events, spec_events,
						      armv81_events, llc_events, NULL };
static const struct arch_event *const neoverse84_tables[] = { armv8_events, spec_events,
							      armv81_events, llc_events,
							      armv84_events, NULL };

#define NO_ILP "no ILP histogram on this CPU: its PMU has no counter threshold " \
	"(Armv8 before FEAT_PMUv3_TH)"

/* SLOTS: the TopDown slot width when the kernel gives no caps/slots
 * (PMMIR_EL1.SLOTS): 8 on V1 (perf's neoverse-v1/metrics.json writes
 * CPU_CYCLES * 8), 5 on N2 (the "#slots - 5" test of perf's first
 * neoverse-n2-v2 metrics), 8 on V2; 0 where the core has no slot events. */
#define ARM(id, nm, what, tabs, slots, stall, perf) \
	const struct arch_model model_##id = { \
		.name = nm, .pmu_prefix = nm, .pfm_force = NULL, .encoding = ENC_ARMV8, \
		.desc = what, .tree = TREE_ARM, .n_generic = 6, .n_fixed = 1, \
		.pipeline_width = slots, .cycles = "CPU_CYCLES", .no_ilp = NO_ILP, \
		.stall_event = stall, .inst_event = "INST_RETIRED", .tables = tabs, \
		.perf_events = perf, \
	}
ARM(arm_v2, "arm_v2", "Arm Neoverse V2 (6 counters + cycle counter; Graviton4, Grace)",
    neoverse84_tables, 8, "STALL", "neoverse-n2-v2");
ARM(arm_n2, "arm_n2", "Arm Neoverse N2 (6 counters + cycle counter; Cobalt 100)",
    neoverse84_tables, 5, "STALL", "neoverse-n2-v2");
ARM(arm_v1, "arm_v1", "Arm Neoverse V1 (6 counters + cycle counter; Graviton3)",
    neoverse84_tables, 8, "STALL", "neoverse-v1");
ARM(arm_n1, "arm_n1", "Arm Neoverse N1 (6 counters + cycle counter; Graviton2, Altra)",
    n1_tables, 0, "STALL_BACKEND", "neoverse-n1");
ARM(arm_ac76, "arm_ac76", "Arm Cortex-A76 (6 counters + cycle counter)", ac76_tables, 0,
    "STALL_BACKEND", "cortex-a76");
ARM(arm_ac72, "arm_ac72", "Arm Cortex-A72 (6 counters + cycle counter; Graviton1)",
    ac57_tables, 0, NULL, "cortex-a57-a72");
ARM(arm_ac57, "arm_ac57", "Arm Cortex-A57 (6 counters + cycle counter)", ac57_tables, 0,
    NULL, "cortex-a57-a72");
ARM(arm_ac53, "arm_ac53", "Arm Cortex-A53 (6 counters + cycle counter)", ac53_tables, 0,
    NULL, "cortex-a53");
