/* Intel cores from Nehalem to Sapphire Rapids: the events the intel and
 * topdown trees, the presets and the ILP sweeps use, under their Intel
 * perfmon names (perf's lowercase spellings match case-insensitively; the
 * generic names cycles/instructions are aliases), with libpfm4 4.13's string
 * and the PERFEVTSEL fields.
 *
 * Sources (every row):
 *   names, event codes, unit masks, cmask/inv/any: intel/perfmon @6dadedf3
 *     NHM-EP/events/NehalemEP_core.json v4, SNB/events/sandybridge_core.json v19,
 *     HSW/events/haswell_core.json v36, SKL/events/skylake_core.json v59,
 *     ICL/events/icelake_core.json v1.24, ICX/events/icelakex_core.json v1.30,
 *     SPR/events/sapphirerapids_core.json v1.39, as cross-checked with libpfm4 in
 *     ../shared/modern-pmu/encodings_*.csv; WSM, IVB, BDW, SKX and CLX rows use the
 *     same codes as their predecessor and are checked against libpfm4 only
 *     (tests/unit/test-pfm.c).  topdown-* and slots: Linux arch/x86/events/intel/core.c
 *     EVENT_ATTR_STR(topdown-retiring, "event=0x00,umask=0x80") ... and
 *     EVENT_ATTR_STR(slots, "event=0x00,umask=0x4").
 *   cycles/instructions: the 0x3c and 0xc0 forms (CPU_CLK_UNHALTED.THREAD_P,
 *     INST_RETIRED.ANY_P), which the kernel puts on FIXED1/FIXED0
 *     (FIXED_EVENT_CONSTRAINT(0x003c, 1), (0x00c0, 0)) and on a generic counter
 *     when those are taken; perfmon's 0x0200/0x0100 pseudo-encodings are not
 *     used (../shared/MODERN-PMU.md 4.3.1; libpfm4 4.13 gets spr's wrong).
 *   counter constraints: Linux arch/x86/events/intel/core.c
 *     intel_{snb,ivb,hsw,bdw,skl,icl,spr}_event_constraints (../shared/MODERN-PMU.md
 *     section 3.2): SNB 0x06a3/0x48 PMC2; IVB/HSW 0x0148, 0x0ca3 PMC2; BDW 0x148
 *     PMC2; 0xd0-0xd3 PMC0-3; ICL 0x03-0x0a, 0x48-0x54, 0x60-0x8b, 0xa3 (but
 *     0x04a3/0x10a3/0x14a3), 0xd0-0xe6 PMC0-3; SPR 0x01-0x8f (but 0x2e, 0x3c),
 *     0xd0-0xdf PMC0-3, 0x04a4/0x08a4 PMC0; TOPDOWN.SLOTS on FIXED3 only.
 *   perfmon's CounterHTOff adds PMC0-3 limits (SNB..BDW CYCLE_ACTIVITY,
 *     IDQ_UOPS_NOT_DELIVERED, UOPS_EXECUTED stall and GE_k steps; SKL..CLX
 *     STALLS_MEM_ANY) and BDW's 0x0ca3 on PMC2; tests/counters-ref.inc checks
 *     every row against perfmon's Counter/CounterHTOff.
 *   inventories: generic counters 4 per thread with SMT on, 8 with SMT off
 *     (SNB..CLX), 8 either way (ICL, SPR); 3 fixed counters (4 from ICL);
 *     PERF_METRICS 4 (ICL) and 8 (SPR) metrics (../shared/MODERN-PMU.md 3.2, from
 *     core.c and perfmon's Counter/CounterHTOff fields).
 *   sample-after values: perfmon's SampleAfterValue (2000003 cycles and
 *     instructions, 400009 branches, 100003 L3-miss loads).
 * libpfm4 4.13's wrong or missing encodings among these rows are corrected in
 * arch/pfm-fix.c. */
#include "arch/model.h"

#define ANY 0
#define PMC0 0x1
#define PMC2 0x4
#define PMC0_3 0xf
#define NOFIX -1
#define X(s, u, c, i, e, a) \
	{ .sel = (s), .umask = (u), .cmask = (c), .inv = (i), .edge = (e), .any = (a) }


/* Nehalem and Westmere: the same rows but for libpfm4's name of the
 * retired-instructions event (westmere has no INST_RETIRED:ANY_P); each
 * model's first table holds its fixed-counter rows, the second the rest. */
static const struct arch_event nhm_fixed_events[] = {
	{ "CPU_CLK_UNHALTED.THREAD|CPU_CLK_UNHALTED.THREAD_P", "UNHALTED_CORE_CYCLES",
	  X(0x3c, 0x00, 0, 0, 0, 0), ANY, 1, 2000003, "core cycles while not halted (FIXED1)" },
	{ "INST_RETIRED.ANY|INST_RETIRED.ANY_P", "INST_RETIRED:ANY_P",
	  X(0xc0, 0x00, 0, 0, 0, 0), ANY, 0, 2000003, "instructions retired (FIXED0)" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};

static const struct arch_event wsm_fixed_events[] = {
	{ "CPU_CLK_UNHALTED.THREAD|CPU_CLK_UNHALTED.THREAD_P", "UNHALTED_CORE_CYCLES",
	  X(0x3c, 0x00, 0, 0, 0, 0), ANY, 1, 2000003, "core cycles while not halted (FIXED1)" },
	{ "INST_RETIRED.ANY|INST_RETIRED.ANY_P", "INSTRUCTION_RETIRED",
	  X(0xc0, 0x00, 0, 0, 0, 0), ANY, 0, 2000003, "instructions retired (FIXED0)" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};

static const struct arch_event nhm_events[] = {
	{ "UOPS_ISSUED.ANY", "UOPS_ISSUED:ANY",
	  X(0xe, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "uops issued" },
	{ "UOPS_RETIRED.ANY", "UOPS_RETIRED:ANY",
	  X(0xc2, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "uops retired" },
	{ "UOPS_RETIRED.RETIRE_SLOTS", "UOPS_RETIRED:RETIRE_SLOTS",
	  X(0xc2, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "retirement slots used" },
	{ "UOPS_EXECUTED.CORE_STALL_CYCLES|UOPS_EXECUTED.THREAD:c=1:i=1", "UOPS_EXECUTED:CORE_STALL_CYCLES",
	  X(0xb1, 0x3f, 1, 1, 0, 1), ANY, NOFIX, 2000003, "stall cycles: no uop executed on any port of the core (any=1)" },
	{ "UOPS_EXECUTED.PORT015_STALL_CYCLES", "UOPS_EXECUTED:PORT015_STALL_CYCLES",
	  X(0xb1, 0x40, 1, 1, 0, 0), ANY, NOFIX, 0, "cycles with no uop on ALU ports 0, 1, 5 (thread)" },
	{ "RESOURCE_STALLS.ANY", "RESOURCE_STALLS:ANY",
	  X(0xa2, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "allocation stall cycles" },
	{ "MEM_LOAD_RETIRED.L2_HIT", "MEM_LOAD_RETIRED:L2_HIT",
	  X(0xcb, 0x02, 0, 0, 0, 0), ANY, NOFIX, 200003, "retired loads hitting L2 (penalty-weighted)" },
	{ "MEM_LOAD_RETIRED.LLC_UNSHARED_HIT", "MEM_LOAD_RETIRED:LLC_UNSHARED_HIT",
	  X(0xcb, 0x04, 0, 0, 0, 0), ANY, NOFIX, 40000, "retired loads hitting the LLC, unshared" },
	{ "MEM_LOAD_RETIRED.OTHER_CORE_L2_HIT_HITM", "MEM_LOAD_RETIRED:OTHER_CORE_L2_HIT_HITM",
	  X(0xcb, 0x08, 0, 0, 0, 0), ANY, NOFIX, 40000, "retired loads hitting another core's L2" },
	{ "MEM_LOAD_RETIRED.LLC_MISS", "MEM_LOAD_RETIRED:LLC_MISS",
	  X(0xcb, 0x10, 0, 0, 0, 0), ANY, NOFIX, 10000, "retired loads missing the LLC" },
	{ "DTLB_LOAD_MISSES.WALK_COMPLETED", "DTLB_LOAD_MISSES:WALK_COMPLETED",
	  X(0x8, 0x02, 0, 0, 0, 0), ANY, NOFIX, 200000, "DTLB load misses with a completed page walk" },
	{ "BR_INST_RETIRED.ALL_BRANCHES", "BR_INST_RETIRED:ALL_BRANCHES",
	  X(0xc4, 0x04, 0, 0, 0, 0), ANY, NOFIX, 200000, "branches retired" },
	{ "UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=1", "UOPS_EXECUTED:CORE_ACTIVE_CYCLES",
	  X(0xb1, 0x3f, 1, 0, 0, 1), ANY, NOFIX, 0, "cycles with >= 1 uops executed on the core (ILP sweep, core scope)" },
	{ "UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=2", "UOPS_EXECUTED:CORE_ACTIVE_CYCLES:c=2",
	  X(0xb1, 0x3f, 2, 0, 0, 1), ANY, NOFIX, 0, "cycles with >= 2 uops executed on the core (ILP sweep, core scope)" },
	{ "UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=3", "UOPS_EXECUTED:CORE_ACTIVE_CYCLES:c=3",
	  X(0xb1, 0x3f, 3, 0, 0, 1), ANY, NOFIX, 0, "cycles with >= 3 uops executed on the core (ILP sweep, core scope)" },
	{ "UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=4", "UOPS_EXECUTED:CORE_ACTIVE_CYCLES:c=4",
	  X(0xb1, 0x3f, 4, 0, 0, 1), ANY, NOFIX, 0, "cycles with >= 4 uops executed on the core (ILP sweep, core scope)" },
	{ "UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=5", "UOPS_EXECUTED:CORE_ACTIVE_CYCLES:c=5",
	  X(0xb1, 0x3f, 5, 0, 0, 1), ANY, NOFIX, 0, "cycles with >= 5 uops executed on the core (ILP sweep, core scope)" },
	{ "UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=6", "UOPS_EXECUTED:CORE_ACTIVE_CYCLES:c=6",
	  X(0xb1, 0x3f, 6, 0, 0, 1), ANY, NOFIX, 0, "cycles with >= 6 uops executed on the core (ILP sweep, core scope)" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};

static const struct arch_event snb_events[] = {
	{ "CPU_CLK_UNHALTED.THREAD|CPU_CLK_UNHALTED.THREAD_P", "UNHALTED_CORE_CYCLES",
	  X(0x3c, 0x00, 0, 0, 0, 0), ANY, 1, 2000003, "core cycles while not halted (FIXED1)" },
	{ "INST_RETIRED.ANY|INST_RETIRED.ANY_P", "INST_RETIRED:ANY_P",
	  X(0xc0, 0x00, 0, 0, 0, 0), ANY, 0, 2000003, "instructions retired (FIXED0)" },
	{ "UOPS_EXECUTED.THREAD|UOPS_DISPATCHED.THREAD", "UOPS_EXECUTED:THREAD",
	  X(0xb1, 0x01, 0, 0, 0, 0), ANY, NOFIX, 2000003, "uops executed by this thread" },
	{ "UOPS_DISPATCHED.STALL_CYCLES|UOPS_EXECUTED.STALL_CYCLES|UOPS_DISPATCHED.THREAD:c=1:i=1", "UOPS_EXECUTED:THREAD:c=1:i=1",
	  X(0xb1, 0x01, 1, 1, 0, 0), ANY, NOFIX, 2000003, "stall cycles: no uop executed (the Core2 RS_UOPS_DISPATCHED.CYCLES_NONE)" },
	{ "UOPS_RETIRED.RETIRE_SLOTS|UOPS_RETIRED.SLOTS", "UOPS_RETIRED:RETIRE_SLOTS",
	  X(0xc2, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "retirement slots used (fused domain)" },
	{ "INT_MISC.RECOVERY_CYCLES_ANY", "INT_MISC:RECOVERY_CYCLES_ANY",
	  X(0xd, 0x03, 1, 0, 0, 1), ANY, NOFIX, 0, "recovery cycles of the core (AnyThread)" },
	{ "CPU_CLK_UNHALTED.THREAD_ANY|CPU_CLK_UNHALTED.THREAD_P_ANY", "CPU_CLK_UNHALTED:THREAD_P:t=1",
	  X(0x3c, 0x00, 0, 0, 0, 1), ANY, NOFIX, 0, "core cycles, both threads (AnyThread)" },
	{ "L1D_PEND_MISS.PENDING", "L1D_PEND_MISS:PENDING",
	  X(0x48, 0x01, 0, 0, 0, 0), PMC2, NOFIX, 0, "L1D misses outstanding, per cycle (PMC2 only)" },
	{ "RESOURCE_STALLS.SB|EXE_ACTIVITY.BOUND_ON_STORES", "RESOURCE_STALLS:SB",
	  X(0xa2, 0x08, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles stalled for a full store buffer (perf hsw tma_memory_bound's store term)" },
	{ "CYCLE_ACTIVITY.CYCLES_NO_DISPATCH|CYCLE_ACTIVITY.STALLS_TOTAL", "CYCLE_ACTIVITY:CYCLES_NO_DISPATCH",
	  X(0xa3, 0x04, 4, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles with no uop dispatched" },
	{ "CYCLE_ACTIVITY.STALLS_L2_PENDING", "CYCLE_ACTIVITY:STALLS_L2_PENDING",
	  X(0xa3, 0x05, 5, 0, 0, 0), PMC0_3, NOFIX, 0, "stall cycles with an L2 miss pending" },
	{ "CYCLE_ACTIVITY.STALLS_L1D_PENDING", "CYCLE_ACTIVITY:STALLS_L1D_PENDING",
	  X(0xa3, 0x06, 6, 0, 0, 0), PMC2, NOFIX, 0, "stall cycles with an L1D miss pending (PMC2 only)" },
	{ "UOPS_ISSUED.ANY", "UOPS_ISSUED:ANY",
	  X(0xe, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "uops issued (fused domain)" },
	{ "BR_INST_RETIRED.ALL_BRANCHES", "BR_INST_RETIRED:ALL_BRANCHES",
	  X(0xc4, 0x00, 0, 0, 0, 0), ANY, NOFIX, 400009, "branches retired" },
	{ "BR_MISP_RETIRED.ALL_BRANCHES", "BR_MISP_RETIRED:ALL_BRANCHES",
	  X(0xc5, 0x00, 0, 0, 0, 0), ANY, NOFIX, 400009, "mispredicted branches retired" },
	{ "INT_MISC.RECOVERY_CYCLES", "INT_MISC:RECOVERY_CYCLES",
	  X(0xd, 0x03, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles the allocator waits after a mispredict or clear" },
	{ "IDQ_UOPS_NOT_DELIVERED.CORE", "IDQ_UOPS_NOT_DELIVERED:CORE",
	  X(0x9c, 0x01, 0, 0, 0, 0), PMC0_3, NOFIX, 0, "issue slots the front end left empty" },
	{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE|IDQ_BUBBLES.CYCLES_0_UOPS_DELIV.CORE", "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE",
	  X(0x9c, 0x01, 4, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles the front end delivered no uop" },
	{ "UOPS_EXECUTED.THREAD:c=1|UOPS_DISPATCHED.THREAD:c=1", "UOPS_EXECUTED:THREAD:c=1",
	  X(0xb1, 0x01, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 1 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=2|UOPS_DISPATCHED.THREAD:c=2", "UOPS_EXECUTED:THREAD:c=2",
	  X(0xb1, 0x01, 2, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 2 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=3|UOPS_DISPATCHED.THREAD:c=3", "UOPS_EXECUTED:THREAD:c=3",
	  X(0xb1, 0x01, 3, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 3 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=4|UOPS_DISPATCHED.THREAD:c=4", "UOPS_EXECUTED:THREAD:c=4",
	  X(0xb1, 0x01, 4, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 4 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=5|UOPS_DISPATCHED.THREAD:c=5", "UOPS_EXECUTED:THREAD:c=5",
	  X(0xb1, 0x01, 5, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 5 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=6|UOPS_DISPATCHED.THREAD:c=6", "UOPS_EXECUTED:THREAD:c=6",
	  X(0xb1, 0x01, 6, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 6 uops executed (ILP sweep)" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};

static const struct arch_event ivb_events[] = {
	{ "CPU_CLK_UNHALTED.THREAD|CPU_CLK_UNHALTED.THREAD_P", "UNHALTED_CORE_CYCLES",
	  X(0x3c, 0x00, 0, 0, 0, 0), ANY, 1, 2000003, "core cycles while not halted (FIXED1)" },
	{ "INST_RETIRED.ANY|INST_RETIRED.ANY_P", "INST_RETIRED:ANY_P",
	  X(0xc0, 0x00, 0, 0, 0, 0), ANY, 0, 2000003, "instructions retired (FIXED0)" },
	{ "UOPS_EXECUTED.THREAD|UOPS_DISPATCHED.THREAD", "UOPS_EXECUTED:THREAD",
	  X(0xb1, 0x01, 0, 0, 0, 0), ANY, NOFIX, 2000003, "uops executed by this thread" },
	{ "UOPS_DISPATCHED.STALL_CYCLES|UOPS_EXECUTED.STALL_CYCLES|UOPS_DISPATCHED.THREAD:c=1:i=1", "UOPS_EXECUTED:THREAD:c=1:i=1",
	  X(0xb1, 0x01, 1, 1, 0, 0), PMC0_3, NOFIX, 2000003, "stall cycles: no uop executed (the Core2 RS_UOPS_DISPATCHED.CYCLES_NONE)" },
	{ "UOPS_RETIRED.RETIRE_SLOTS|UOPS_RETIRED.SLOTS", "UOPS_RETIRED:RETIRE_SLOTS",
	  X(0xc2, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "retirement slots used (fused domain)" },
	{ "INT_MISC.RECOVERY_CYCLES_ANY", "INT_MISC:RECOVERY_CYCLES_ANY",
	  X(0xd, 0x03, 1, 0, 0, 1), ANY, NOFIX, 0, "recovery cycles of the core (AnyThread)" },
	{ "CPU_CLK_UNHALTED.THREAD_ANY|CPU_CLK_UNHALTED.THREAD_P_ANY", "CPU_CLK_UNHALTED:THREAD_P:t=1",
	  X(0x3c, 0x00, 0, 0, 0, 1), ANY, NOFIX, 0, "core cycles, both threads (AnyThread)" },
	{ "L1D_PEND_MISS.PENDING", "L1D_PEND_MISS:PENDING",
	  X(0x48, 0x01, 0, 0, 0, 0), PMC2, NOFIX, 0, "L1D misses outstanding, per cycle (PMC2 only)" },
	{ "RESOURCE_STALLS.SB|EXE_ACTIVITY.BOUND_ON_STORES", "RESOURCE_STALLS:SB",
	  X(0xa2, 0x08, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles stalled for a full store buffer (perf hsw tma_memory_bound's store term)" },
	{ "CYCLE_ACTIVITY.CYCLES_NO_EXECUTE|CYCLE_ACTIVITY.STALLS_TOTAL", "CYCLE_ACTIVITY:CYCLES_NO_EXECUTE",
	  X(0xa3, 0x04, 4, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles with no uop executed" },
	{ "CYCLE_ACTIVITY.STALLS_L2_PENDING", "CYCLE_ACTIVITY:STALLS_L2_PENDING",
	  X(0xa3, 0x05, 5, 0, 0, 0), PMC0_3, NOFIX, 0, "stall cycles with an L2 miss pending" },
	{ "CYCLE_ACTIVITY.STALLS_LDM_PENDING|CYCLE_ACTIVITY.STALLS_MEM_ANY", "CYCLE_ACTIVITY:STALLS_LDM_PENDING",
	  X(0xa3, 0x06, 6, 0, 0, 0), PMC0_3, NOFIX, 0, "stall cycles with a load pending" },
	{ "CYCLE_ACTIVITY.STALLS_L1D_PENDING", "CYCLE_ACTIVITY:STALLS_L1D_PENDING",
	  X(0xa3, 0x0c, 12, 0, 0, 0), PMC2, NOFIX, 0, "stall cycles with an L1D miss pending (PMC2 only)" },
	{ "UOPS_ISSUED.ANY", "UOPS_ISSUED:ANY",
	  X(0xe, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "uops issued (fused domain)" },
	{ "BR_INST_RETIRED.ALL_BRANCHES", "BR_INST_RETIRED:ALL_BRANCHES",
	  X(0xc4, 0x00, 0, 0, 0, 0), ANY, NOFIX, 400009, "branches retired" },
	{ "BR_MISP_RETIRED.ALL_BRANCHES", "BR_MISP_RETIRED:ALL_BRANCHES",
	  X(0xc5, 0x00, 0, 0, 0, 0), ANY, NOFIX, 400009, "mispredicted branches retired" },
	{ "INT_MISC.RECOVERY_CYCLES", "INT_MISC:RECOVERY_CYCLES",
	  X(0xd, 0x03, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles the allocator waits after a mispredict or clear" },
	{ "IDQ_UOPS_NOT_DELIVERED.CORE", "IDQ_UOPS_NOT_DELIVERED:CORE",
	  X(0x9c, 0x01, 0, 0, 0, 0), PMC0_3, NOFIX, 0, "issue slots the front end left empty" },
	{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE|IDQ_BUBBLES.CYCLES_0_UOPS_DELIV.CORE", "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE",
	  X(0x9c, 0x01, 4, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles the front end delivered no uop" },
	{ "UOPS_EXECUTED.THREAD:c=1|UOPS_DISPATCHED.THREAD:c=1", "UOPS_EXECUTED:THREAD:c=1",
	  X(0xb1, 0x01, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 1 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=2|UOPS_DISPATCHED.THREAD:c=2", "UOPS_EXECUTED:THREAD:c=2",
	  X(0xb1, 0x01, 2, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 2 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=3|UOPS_DISPATCHED.THREAD:c=3", "UOPS_EXECUTED:THREAD:c=3",
	  X(0xb1, 0x01, 3, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 3 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=4|UOPS_DISPATCHED.THREAD:c=4", "UOPS_EXECUTED:THREAD:c=4",
	  X(0xb1, 0x01, 4, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 4 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=5|UOPS_DISPATCHED.THREAD:c=5", "UOPS_EXECUTED:THREAD:c=5",
	  X(0xb1, 0x01, 5, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 5 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=6|UOPS_DISPATCHED.THREAD:c=6", "UOPS_EXECUTED:THREAD:c=6",
	  X(0xb1, 0x01, 6, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 6 uops executed (ILP sweep)" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};

static const struct arch_event hsw_events[] = {
	{ "CPU_CLK_UNHALTED.THREAD|CPU_CLK_UNHALTED.THREAD_P", "UNHALTED_CORE_CYCLES",
	  X(0x3c, 0x00, 0, 0, 0, 0), ANY, 1, 2000003, "core cycles while not halted (FIXED1)" },
	{ "INST_RETIRED.ANY|INST_RETIRED.ANY_P", "INST_RETIRED:ANY_P",
	  X(0xc0, 0x00, 0, 0, 0, 0), ANY, 0, 2000003, "instructions retired (FIXED0)" },
	{ "UOPS_EXECUTED.THREAD|UOPS_DISPATCHED.THREAD", "UOPS_EXECUTED:THREAD",
	  X(0xb1, 0x01, 0, 0, 0, 0), ANY, NOFIX, 2000003, "uops executed by this thread" },
	{ "UOPS_EXECUTED.STALL_CYCLES|UOPS_EXECUTED.STALLS", "UOPS_EXECUTED:STALL_CYCLES",
	  X(0xb1, 0x01, 1, 1, 0, 0), PMC0_3, NOFIX, 2000003, "stall cycles: no uop executed (the Core2 RS_UOPS_DISPATCHED.CYCLES_NONE)" },
	{ "UOPS_RETIRED.RETIRE_SLOTS|UOPS_RETIRED.SLOTS", "UOPS_RETIRED:RETIRE_SLOTS",
	  X(0xc2, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "retirement slots used (fused domain)" },
	{ "UOPS_RETIRED.ALL", "UOPS_RETIRED:ALL",
	  X(0xc2, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "uops retired (unfused)" },
	{ "UOPS_EXECUTED.CORE", "UOPS_EXECUTED:CORE",
	  X(0xb1, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "uops executed by the core (both threads)" },
	{ "INT_MISC.RECOVERY_CYCLES_ANY", "INT_MISC:RECOVERY_CYCLES_ANY",
	  X(0xd, 0x03, 1, 0, 0, 1), ANY, NOFIX, 0, "recovery cycles of the core (AnyThread)" },
	{ "CPU_CLK_UNHALTED.THREAD_ANY|CPU_CLK_UNHALTED.THREAD_P_ANY", "CPU_CLK_UNHALTED:THREAD_P:t=1",
	  X(0x3c, 0x00, 0, 0, 0, 1), ANY, NOFIX, 0, "core cycles, both threads (AnyThread)" },
	{ "MACHINE_CLEARS.COUNT", "MACHINE_CLEARS:COUNT",
	  X(0xc3, 0x01, 1, 0, 1, 0), ANY, NOFIX, 0, "machine clears" },
	{ "CYCLE_ACTIVITY.CYCLES_NO_EXECUTE|CYCLE_ACTIVITY.STALLS_TOTAL", "CYCLE_ACTIVITY:CYCLES_NO_EXECUTE",
	  X(0xa3, 0x04, 4, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles with no uop executed" },
	{ "CYCLE_ACTIVITY.STALLS_L2_PENDING", "CYCLE_ACTIVITY:STALLS_L2_PENDING",
	  X(0xa3, 0x05, 5, 0, 0, 0), PMC0_3, NOFIX, 0, "stall cycles with an L2 miss pending" },
	{ "CYCLE_ACTIVITY.STALLS_LDM_PENDING|CYCLE_ACTIVITY.STALLS_MEM_ANY", "CYCLE_ACTIVITY:STALLS_LDM_PENDING",
	  X(0xa3, 0x06, 6, 0, 0, 0), PMC0_3, NOFIX, 0, "stall cycles with a load pending" },
	{ "CYCLE_ACTIVITY.STALLS_L1D_PENDING", "CYCLE_ACTIVITY:STALLS_L1D_PENDING",
	  X(0xa3, 0x0c, 12, 0, 0, 0), PMC2, NOFIX, 0, "stall cycles with an L1D miss pending (PMC2 only)" },
	{ "L1D_PEND_MISS.PENDING", "L1D_PEND_MISS:PENDING",
	  X(0x48, 0x01, 0, 0, 0, 0), PMC2, NOFIX, 0, "L1D misses outstanding, per cycle (PMC2 only)" },
	{ "MEM_LOAD_UOPS_RETIRED.L3_MISS|MEM_LOAD_RETIRED.L3_MISS", "MEM_LOAD_UOPS_RETIRED:L3_MISS",
	  X(0xd1, 0x20, 0, 0, 0, 0), PMC0_3, NOFIX, 100003, "retired loads missing L3 (PMC0-3)" },
	{ "DTLB_LOAD_MISSES.WALK_DURATION", "DTLB_LOAD_MISSES:WALK_DURATION",
	  X(0x8, 0x10, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles of DTLB load page walks" },
	{ "ITLB_MISSES.WALK_DURATION", "ITLB_MISSES:WALK_DURATION",
	  X(0x85, 0x10, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles of ITLB page walks" },
	{ "RESOURCE_STALLS.SB|EXE_ACTIVITY.BOUND_ON_STORES", "RESOURCE_STALLS:SB",
	  X(0xa2, 0x08, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles stalled for a full store buffer (perf hsw tma_memory_bound's store term)" },
	{ "UOPS_ISSUED.ANY", "UOPS_ISSUED:ANY",
	  X(0xe, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "uops issued (fused domain)" },
	{ "BR_INST_RETIRED.ALL_BRANCHES", "BR_INST_RETIRED:ALL_BRANCHES",
	  X(0xc4, 0x00, 0, 0, 0, 0), ANY, NOFIX, 400009, "branches retired" },
	{ "BR_MISP_RETIRED.ALL_BRANCHES", "BR_MISP_RETIRED:ALL_BRANCHES",
	  X(0xc5, 0x00, 0, 0, 0, 0), ANY, NOFIX, 400009, "mispredicted branches retired" },
	{ "INT_MISC.RECOVERY_CYCLES", "INT_MISC:RECOVERY_CYCLES",
	  X(0xd, 0x03, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles the allocator waits after a mispredict or clear" },
	{ "IDQ_UOPS_NOT_DELIVERED.CORE", "IDQ_UOPS_NOT_DELIVERED:CORE",
	  X(0x9c, 0x01, 0, 0, 0, 0), PMC0_3, NOFIX, 0, "issue slots the front end left empty" },
	{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE|IDQ_BUBBLES.CYCLES_0_UOPS_DELIV.CORE", "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE",
	  X(0x9c, 0x01, 4, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles the front end delivered no uop" },
	{ "UOPS_EXECUTED.THREAD:c=1|UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC", "UOPS_EXECUTED:THREAD:c=1",
	  X(0xb1, 0x01, 1, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles with >= 1 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=2|UOPS_EXECUTED.CYCLES_GE_2_UOPS_EXEC", "UOPS_EXECUTED:THREAD:c=2",
	  X(0xb1, 0x01, 2, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles with >= 2 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=3|UOPS_EXECUTED.CYCLES_GE_3_UOPS_EXEC", "UOPS_EXECUTED:THREAD:c=3",
	  X(0xb1, 0x01, 3, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles with >= 3 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=4|UOPS_EXECUTED.CYCLES_GE_4_UOPS_EXEC", "UOPS_EXECUTED:THREAD:c=4",
	  X(0xb1, 0x01, 4, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles with >= 4 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=5", "UOPS_EXECUTED:THREAD:c=5",
	  X(0xb1, 0x01, 5, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 5 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=6", "UOPS_EXECUTED:THREAD:c=6",
	  X(0xb1, 0x01, 6, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 6 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=7", "UOPS_EXECUTED:THREAD:c=7",
	  X(0xb1, 0x01, 7, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 7 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=8", "UOPS_EXECUTED:THREAD:c=8",
	  X(0xb1, 0x01, 8, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 8 uops executed (ILP sweep)" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};

static const struct arch_event bdw_events[] = {
	{ "CPU_CLK_UNHALTED.THREAD|CPU_CLK_UNHALTED.THREAD_P", "UNHALTED_CORE_CYCLES",
	  X(0x3c, 0x00, 0, 0, 0, 0), ANY, 1, 2000003, "core cycles while not halted (FIXED1)" },
	{ "INST_RETIRED.ANY|INST_RETIRED.ANY_P", "INST_RETIRED:ANY_P",
	  X(0xc0, 0x00, 0, 0, 0, 0), ANY, 0, 2000003, "instructions retired (FIXED0)" },
	{ "UOPS_EXECUTED.THREAD|UOPS_DISPATCHED.THREAD", "UOPS_EXECUTED:THREAD",
	  X(0xb1, 0x01, 0, 0, 0, 0), ANY, NOFIX, 2000003, "uops executed by this thread" },
	{ "UOPS_EXECUTED.STALL_CYCLES|UOPS_EXECUTED.STALLS", "UOPS_EXECUTED:STALL_CYCLES",
	  X(0xb1, 0x01, 1, 1, 0, 0), PMC0_3, NOFIX, 2000003, "stall cycles: no uop executed (the Core2 RS_UOPS_DISPATCHED.CYCLES_NONE)" },
	{ "UOPS_RETIRED.RETIRE_SLOTS|UOPS_RETIRED.SLOTS", "UOPS_RETIRED:RETIRE_SLOTS",
	  X(0xc2, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "retirement slots used (fused domain)" },
	{ "UOPS_RETIRED.ALL", "UOPS_RETIRED:ALL",
	  X(0xc2, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "uops retired (unfused)" },
	{ "UOPS_EXECUTED.CORE", "UOPS_EXECUTED:CORE",
	  X(0xb1, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "uops executed by the core (both threads)" },
	{ "INT_MISC.RECOVERY_CYCLES_ANY", "INT_MISC:RECOVERY_CYCLES_ANY",
	  X(0xd, 0x03, 1, 0, 0, 1), ANY, NOFIX, 0, "recovery cycles of the core (AnyThread)" },
	{ "CPU_CLK_UNHALTED.THREAD_ANY|CPU_CLK_UNHALTED.THREAD_P_ANY", "CPU_CLK_UNHALTED:THREAD_P:t=1",
	  X(0x3c, 0x00, 0, 0, 0, 1), ANY, NOFIX, 0, "core cycles, both threads (AnyThread)" },
	{ "MACHINE_CLEARS.COUNT", "MACHINE_CLEARS:COUNT",
	  X(0xc3, 0x01, 1, 0, 1, 0), ANY, NOFIX, 0, "machine clears" },
	{ "CYCLE_ACTIVITY.CYCLES_NO_EXECUTE|CYCLE_ACTIVITY.STALLS_TOTAL", "CYCLE_ACTIVITY:CYCLES_NO_EXECUTE",
	  X(0xa3, 0x04, 4, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles with no uop executed" },
	{ "CYCLE_ACTIVITY.STALLS_L2_PENDING", "CYCLE_ACTIVITY:STALLS_L2_PENDING",
	  X(0xa3, 0x05, 5, 0, 0, 0), PMC0_3, NOFIX, 0, "stall cycles with an L2 miss pending" },
	{ "CYCLE_ACTIVITY.STALLS_LDM_PENDING|CYCLE_ACTIVITY.STALLS_MEM_ANY", "CYCLE_ACTIVITY:STALLS_LDM_PENDING",
	  X(0xa3, 0x06, 6, 0, 0, 0), PMC0_3, NOFIX, 0, "stall cycles with a load pending" },
	{ "CYCLE_ACTIVITY.STALLS_L1D_PENDING", "CYCLE_ACTIVITY:STALLS_L1D_PENDING",
	  X(0xa3, 0x0c, 12, 0, 0, 0), PMC2, NOFIX, 0, "stall cycles with an L1D miss pending" },
	{ "L1D_PEND_MISS.PENDING", "L1D_PEND_MISS:PENDING",
	  X(0x48, 0x01, 0, 0, 0, 0), PMC2, NOFIX, 0, "L1D misses outstanding, per cycle (PMC2 only)" },
	{ "MEM_LOAD_UOPS_RETIRED.L3_MISS|MEM_LOAD_RETIRED.L3_MISS", "MEM_LOAD_UOPS_RETIRED:L3_MISS",
	  X(0xd1, 0x20, 0, 0, 0, 0), PMC0_3, NOFIX, 100003, "retired loads missing L3 (PMC0-3)" },
	{ "DTLB_LOAD_MISSES.WALK_DURATION", "DTLB_LOAD_MISSES:WALK_DURATION",
	  X(0x8, 0x10, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles of DTLB load page walks" },
	{ "ITLB_MISSES.WALK_DURATION", "ITLB_MISSES:WALK_DURATION",
	  X(0x85, 0x10, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles of ITLB page walks" },
	{ "RESOURCE_STALLS.SB|EXE_ACTIVITY.BOUND_ON_STORES", "RESOURCE_STALLS:SB",
	  X(0xa2, 0x08, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles stalled for a full store buffer (perf hsw tma_memory_bound's store term)" },
	{ "UOPS_ISSUED.ANY", "UOPS_ISSUED:ANY",
	  X(0xe, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "uops issued (fused domain)" },
	{ "BR_INST_RETIRED.ALL_BRANCHES", "BR_INST_RETIRED:ALL_BRANCHES",
	  X(0xc4, 0x00, 0, 0, 0, 0), ANY, NOFIX, 400009, "branches retired" },
	{ "BR_MISP_RETIRED.ALL_BRANCHES", "BR_MISP_RETIRED:ALL_BRANCHES",
	  X(0xc5, 0x00, 0, 0, 0, 0), ANY, NOFIX, 400009, "mispredicted branches retired" },
	{ "INT_MISC.RECOVERY_CYCLES", "INT_MISC:RECOVERY_CYCLES",
	  X(0xd, 0x03, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles the allocator waits after a mispredict or clear" },
	{ "IDQ_UOPS_NOT_DELIVERED.CORE", "IDQ_UOPS_NOT_DELIVERED:CORE",
	  X(0x9c, 0x01, 0, 0, 0, 0), PMC0_3, NOFIX, 0, "issue slots the front end left empty" },
	{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE|IDQ_BUBBLES.CYCLES_0_UOPS_DELIV.CORE", "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE",
	  X(0x9c, 0x01, 4, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles the front end delivered no uop" },
	{ "UOPS_EXECUTED.THREAD:c=1", "UOPS_EXECUTED:THREAD:c=1",
	  X(0xb1, 0x01, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 1 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=2", "UOPS_EXECUTED:THREAD:c=2",
	  X(0xb1, 0x01, 2, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 2 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=3", "UOPS_EXECUTED:THREAD:c=3",
	  X(0xb1, 0x01, 3, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 3 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=4", "UOPS_EXECUTED:THREAD:c=4",
	  X(0xb1, 0x01, 4, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 4 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=5", "UOPS_EXECUTED:THREAD:c=5",
	  X(0xb1, 0x01, 5, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 5 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=6", "UOPS_EXECUTED:THREAD:c=6",
	  X(0xb1, 0x01, 6, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 6 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=7", "UOPS_EXECUTED:THREAD:c=7",
	  X(0xb1, 0x01, 7, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 7 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=8", "UOPS_EXECUTED:THREAD:c=8",
	  X(0xb1, 0x01, 8, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 8 uops executed (ILP sweep)" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};

/* Skylake client and server (and Cascade Lake): the same core events. */
static const struct arch_event skl_events[] = {
	{ "CPU_CLK_UNHALTED.THREAD|CPU_CLK_UNHALTED.THREAD_P", "UNHALTED_CORE_CYCLES",
	  X(0x3c, 0x00, 0, 0, 0, 0), ANY, 1, 2000003, "core cycles while not halted (FIXED1)" },
	{ "INST_RETIRED.ANY|INST_RETIRED.ANY_P", "INST_RETIRED:ANY_P",
	  X(0xc0, 0x00, 0, 0, 0, 0), ANY, 0, 2000003, "instructions retired (FIXED0)" },
	{ "UOPS_EXECUTED.THREAD|UOPS_DISPATCHED.THREAD", "UOPS_EXECUTED:THREAD",
	  X(0xb1, 0x01, 0, 0, 0, 0), ANY, NOFIX, 2000003, "uops executed by this thread" },
	{ "UOPS_EXECUTED.STALL_CYCLES|UOPS_EXECUTED.STALLS", "UOPS_EXECUTED:THREAD:c=1:i=1",
	  X(0xb1, 0x01, 1, 1, 0, 0), ANY, NOFIX, 2000003, "stall cycles: no uop executed (the Core2 RS_UOPS_DISPATCHED.CYCLES_NONE)" },
	{ "UOPS_RETIRED.RETIRE_SLOTS|UOPS_RETIRED.SLOTS", "UOPS_RETIRED:RETIRE_SLOTS",
	  X(0xc2, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "retirement slots used (fused domain)" },
	{ "INT_MISC.RECOVERY_CYCLES_ANY", "INT_MISC:RECOVERY_CYCLES_ANY",
	  X(0xd, 0x01, 0, 0, 0, 1), ANY, NOFIX, 0, "recovery cycles of the core (AnyThread)" },
	{ "INT_MISC.CLEAR_RESTEER_CYCLES", "INT_MISC:CLEAR_RESTEER_CYCLES",
	  X(0xd, 0x80, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles of front-end resteer after a clear" },
	{ "CPU_CLK_UNHALTED.THREAD_ANY|CPU_CLK_UNHALTED.THREAD_P_ANY", "CPU_CLK_UNHALTED:THREAD_P:t=1",
	  X(0x3c, 0x00, 0, 0, 0, 1), ANY, NOFIX, 0, "core cycles, both threads (AnyThread)" },
	{ "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE", "CPU_CLK_UNHALTED:ONE_THREAD_ACTIVE",
	  X(0x3c, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "reference cycles with one thread active" },
	{ "CPU_CLK_UNHALTED.REF_XCLK", "CPU_CLK_UNHALTED:REF_XCLK",
	  X(0x3c, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "reference cycles" },
	{ "MACHINE_CLEARS.COUNT", "MACHINE_CLEARS:COUNT",
	  X(0xc3, 0x01, 1, 0, 1, 0), ANY, NOFIX, 0, "machine clears" },
	{ "CYCLE_ACTIVITY.STALLS_TOTAL", "CYCLE_ACTIVITY:STALLS_TOTAL",
	  X(0xa3, 0x04, 4, 0, 0, 0), ANY, NOFIX, 0, "cycles with no uop executed (TMA form)" },
	{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", "CYCLE_ACTIVITY:STALLS_MEM_ANY",
	  X(0xa3, 0x14, 20, 0, 0, 0), PMC0_3, NOFIX, 0, "stall cycles with a memory load pending" },
	{ "CYCLE_ACTIVITY.STALLS_L1D_MISS", "CYCLE_ACTIVITY:STALLS_L1D_MISS",
	  X(0xa3, 0x0c, 12, 0, 0, 0), ANY, NOFIX, 0, "stall cycles with an L1D miss pending" },
	{ "CYCLE_ACTIVITY.STALLS_L2_MISS", "CYCLE_ACTIVITY:STALLS_L2_MISS",
	  X(0xa3, 0x05, 5, 0, 0, 0), ANY, NOFIX, 0, "stall cycles with an L2 miss pending" },
	{ "CYCLE_ACTIVITY.STALLS_L3_MISS", "CYCLE_ACTIVITY:STALLS_L3_MISS",
	  X(0xa3, 0x06, 6, 0, 0, 0), ANY, NOFIX, 0, "stall cycles with an L3 miss pending" },
	{ "EXE_ACTIVITY.BOUND_ON_STORES", "EXE_ACTIVITY:BOUND_ON_STORES",
	  X(0xa6, 0x40, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles the store buffer was full" },
	{ "EXE_ACTIVITY.1_PORTS_UTIL", "EXE_ACTIVITY:1_PORTS_UTIL",
	  X(0xa6, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles with 1 port busy" },
	{ "EXE_ACTIVITY.2_PORTS_UTIL", "EXE_ACTIVITY:2_PORTS_UTIL",
	  X(0xa6, 0x04, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles with 2 ports busy" },
	{ "MEM_LOAD_RETIRED.L3_MISS", "MEM_LOAD_RETIRED:L3_MISS",
	  X(0xd1, 0x20, 0, 0, 0, 0), PMC0_3, NOFIX, 100003, "retired loads missing L3 (PMC0-3)" },
	{ "DTLB_LOAD_MISSES.WALK_ACTIVE", "DTLB_LOAD_MISSES:WALK_ACTIVE",
	  X(0x8, 0x10, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles of DTLB load page walks" },
	{ "ITLB_MISSES.WALK_ACTIVE", "ITLB_MISSES:WALK_ACTIVE",
	  X(0x85, 0x10, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles of ITLB page walks" },
	{ "ICACHE_16B.IFDATA_STALL", "ICACHE_16B:IFDATA_STALL",
	  X(0x80, 0x04, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles stalled on an I-cache miss" },
	{ "ARITH.DIVIDER_ACTIVE", "ARITH:DIVIDER_ACTIVE",
	  X(0x14, 0x01, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles the divider is busy" },
	{ "UOPS_ISSUED.ANY", "UOPS_ISSUED:ANY",
	  X(0xe, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "uops issued (fused domain)" },
	{ "BR_INST_RETIRED.ALL_BRANCHES", "BR_INST_RETIRED:ALL_BRANCHES",
	  X(0xc4, 0x00, 0, 0, 0, 0), ANY, NOFIX, 400009, "branches retired" },
	{ "BR_MISP_RETIRED.ALL_BRANCHES", "BR_MISP_RETIRED:ALL_BRANCHES",
	  X(0xc5, 0x00, 0, 0, 0, 0), ANY, NOFIX, 400009, "mispredicted branches retired" },
	{ "INT_MISC.RECOVERY_CYCLES", "INT_MISC:RECOVERY_CYCLES",
	  X(0xd, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles the allocator waits after a mispredict or clear" },
	{ "IDQ_UOPS_NOT_DELIVERED.CORE", "IDQ_UOPS_NOT_DELIVERED:CORE",
	  X(0x9c, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "issue slots the front end left empty" },
	{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE|IDQ_BUBBLES.CYCLES_0_UOPS_DELIV.CORE", "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE",
	  X(0x9c, 0x01, 4, 0, 0, 0), ANY, NOFIX, 0, "cycles the front end delivered no uop" },
	{ "UOPS_EXECUTED.THREAD:c=1", "UOPS_EXECUTED:THREAD:c=1",
	  X(0xb1, 0x01, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 1 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=2", "UOPS_EXECUTED:THREAD:c=2",
	  X(0xb1, 0x01, 2, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 2 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=3", "UOPS_EXECUTED:THREAD:c=3",
	  X(0xb1, 0x01, 3, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 3 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=4", "UOPS_EXECUTED:THREAD:c=4",
	  X(0xb1, 0x01, 4, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 4 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=5", "UOPS_EXECUTED:THREAD:c=5",
	  X(0xb1, 0x01, 5, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 5 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=6", "UOPS_EXECUTED:THREAD:c=6",
	  X(0xb1, 0x01, 6, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 6 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=7", "UOPS_EXECUTED:THREAD:c=7",
	  X(0xb1, 0x01, 7, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 7 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=8", "UOPS_EXECUTED:THREAD:c=8",
	  X(0xb1, 0x01, 8, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 8 uops executed (ILP sweep)" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};

/* Rows only the client model carries (perfmon SKL; the tree's retire-slot
 * terms), searched after the shared table. */
static const struct arch_event skl_client_events[] = {
	{ "UOPS_RETIRED.MACRO_FUSED", "UOPS_RETIRED:MACRO_FUSED",
	  X(0xc2, 0x04, 0, 0, 0, 0), ANY, NOFIX, 0, "macro-fused uops retired" },
	{ "UOPS_RETIRED.STALL_CYCLES", "UOPS_RETIRED:STALL_CYCLES",
	  X(0xc2, 0x02, 1, 1, 0, 0), ANY, NOFIX, 0, "cycles with no uop retired" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};

static const struct arch_event icl_events[] = {
	{ "CPU_CLK_UNHALTED.THREAD|CPU_CLK_UNHALTED.THREAD_P", "UNHALTED_CORE_CYCLES",
	  X(0x3c, 0x00, 0, 0, 0, 0), ANY, 1, 2000003, "core cycles while not halted (FIXED1)" },
	{ "INST_RETIRED.ANY|INST_RETIRED.ANY_P", "INST_RETIRED:ANY_P",
	  X(0xc0, 0x00, 0, 0, 0, 0), ANY, 0, 2000003, "instructions retired (FIXED0)" },
	{ "UOPS_EXECUTED.THREAD|UOPS_DISPATCHED.THREAD", "UOPS_EXECUTED:THREAD",
	  X(0xb1, 0x01, 0, 0, 0, 0), ANY, NOFIX, 2000003, "uops executed by this thread" },
	{ "UOPS_EXECUTED.STALLS|UOPS_EXECUTED.STALL_CYCLES", "UOPS_EXECUTED:THREAD:c=1:i=1",
	  X(0xb1, 0x01, 1, 1, 0, 0), ANY, NOFIX, 2000003, "stall cycles: no uop executed (the Core2 RS_UOPS_DISPATCHED.CYCLES_NONE)" },
	{ "TOPDOWN.SLOTS|slots", "TOPDOWN:SLOTS",
	  X(0x0, 0x04, 0, 0, 0, 0), ANY, 3, 0, "issue slots (FIXED3 only; the PERF_METRICS leader)" },
	{ "TOPDOWN.SLOTS_P", "TOPDOWN:SLOTS_P",
	  X(0xa4, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "issue slots on a generic counter" },
	{ "TOPDOWN.BACKEND_BOUND_SLOTS", "TOPDOWN:BACKEND_BOUND_SLOTS",
	  X(0xa4, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "back-end bound slots (GP fallback)" },
	{ "UOPS_RETIRED.SLOTS|UOPS_RETIRED.RETIRE_SLOTS", "UOPS_RETIRED:SLOTS",
	  X(0xc2, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "retirement slots used" },
	{ "UOPS_RETIRED.STALLS|UOPS_RETIRED.STALL_CYCLES", "UOPS_RETIRED:STALL_CYCLES",
	  X(0xc2, 0x02, 1, 1, 0, 0), ANY, NOFIX, 0, "cycles with no uop retired" },
	{ "INT_MISC.UOP_DROPPING", "INT_MISC:UOP_DROPPING",
	  X(0xd, 0x10, 0, 0, 0, 0), ANY, NOFIX, 0, "uops dropped by the front end (TMA correction)" },
	{ "INT_MISC.CLEARS_COUNT", "INT_MISC:CLEARS_COUNT",
	  X(0xd, 0x01, 1, 0, 1, 0), ANY, NOFIX, 0, "clears (recovery starts)" },
	{ "INT_MISC.CLEAR_RESTEER_CYCLES", "INT_MISC:CLEAR_RESTEER_CYCLES",
	  X(0xd, 0x80, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles of front-end resteer after a clear" },
	{ "CPU_CLK_UNHALTED.DISTRIBUTED", "CPU_CLK_UNHALTED:DISTRIBUTED",
	  X(0xec, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "core cycles shared between SMT threads" },
	{ "MACHINE_CLEARS.COUNT", "MACHINE_CLEARS:COUNT",
	  X(0xc3, 0x01, 1, 0, 1, 0), ANY, NOFIX, 0, "machine clears" },
	{ "CYCLE_ACTIVITY.STALLS_TOTAL", "CYCLE_ACTIVITY:STALLS_TOTAL",
	  X(0xa3, 0x04, 4, 0, 0, 0), ANY, NOFIX, 0, "cycles with no uop executed (TMA form)" },
	{ "EXE_ACTIVITY.BOUND_ON_STORES", "EXE_ACTIVITY:BOUND_ON_STORES",
	  X(0xa6, 0x40, 2, 0, 0, 0), ANY, NOFIX, 0, "cycles the store buffer was full" },
	{ "EXE_ACTIVITY.1_PORTS_UTIL", "EXE_ACTIVITY:1_PORTS_UTIL",
	  X(0xa6, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles with 1 port busy" },
	{ "EXE_ACTIVITY.2_PORTS_UTIL", "EXE_ACTIVITY:2_PORTS_UTIL",
	  X(0xa6, 0x04, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles with 2 ports busy" },
	{ "MEM_LOAD_RETIRED.L3_MISS", "MEM_LOAD_RETIRED:L3_MISS",
	  X(0xd1, 0x20, 0, 0, 0, 0), PMC0_3, NOFIX, 100003, "retired loads missing L3 (PMC0-3)" },
	{ "L1D_PEND_MISS.PENDING", "L1D_PEND_MISS:PENDING",
	  X(0x48, 0x01, 0, 0, 0, 0), PMC0_3, NOFIX, 0, "L1D misses outstanding, per cycle (PMC0-3)" },
	{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", "CYCLE_ACTIVITY:STALLS_MEM_ANY",
	  X(0xa3, 0x14, 20, 0, 0, 0), ANY, NOFIX, 0, "stall cycles with a memory load pending (any counter)" },
	{ "CYCLE_ACTIVITY.STALLS_L1D_MISS", "CYCLE_ACTIVITY:STALLS_L1D_MISS",
	  X(0xa3, 0x0c, 12, 0, 0, 0), PMC0_3, NOFIX, 0, "stall cycles with an L1D miss pending (PMC0-3)" },
	{ "CYCLE_ACTIVITY.STALLS_L2_MISS", "CYCLE_ACTIVITY:STALLS_L2_MISS",
	  X(0xa3, 0x05, 5, 0, 0, 0), PMC0_3, NOFIX, 0, "stall cycles with an L2 miss pending (PMC0-3)" },
	{ "CYCLE_ACTIVITY.STALLS_L3_MISS", "CYCLE_ACTIVITY:STALLS_L3_MISS",
	  X(0xa3, 0x06, 6, 0, 0, 0), PMC0_3, NOFIX, 0, "stall cycles with an L3 miss pending (PMC0-3)" },
	{ "DTLB_LOAD_MISSES.WALK_ACTIVE", "DTLB_LOAD_MISSES:WALK_ACTIVE",
	  X(0x8, 0x10, 1, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles of DTLB load page walks (PMC0-3)" },
	{ "ITLB_MISSES.WALK_ACTIVE", "ITLB_MISSES:WALK_ACTIVE",
	  X(0x85, 0x10, 1, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles of ITLB page walks (PMC0-3)" },
	{ "ICACHE_16B.IFDATA_STALL", "ICACHE_16B:IFDATA_STALL",
	  X(0x80, 0x04, 0, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles stalled on an I-cache miss (PMC0-3)" },
	{ "ARITH.DIVIDER_ACTIVE", "ARITH:DIVIDER_ACTIVE",
	  X(0x14, 0x09, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles the divider is busy" },
	{ "UOPS_DECODED.DEC0", "UOPS_DECODED:DEC0",
	  X(0x56, 0x01, 0, 0, 0, 0), PMC0_3, NOFIX, 0, "uops decoded by decoder 0 (PMC0-3)" },
	{ "UOPS_DECODED.DEC0:c=1", "UOPS_DECODED:DEC0:c=1",
	  X(0x56, 0x01, 1, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles decoder 0 decoded (PMC0-3)" },
	{ "IDQ.MITE_UOPS", "IDQ:MITE_UOPS",
	  X(0x79, 0x04, 0, 0, 0, 0), PMC0_3, NOFIX, 0, "uops from the legacy decoders (PMC0-3)" },
	{ "IDQ.MS_UOPS", "IDQ:MS_UOPS",
	  X(0x79, 0x30, 0, 0, 0, 0), PMC0_3, NOFIX, 0, "uops from the microcode sequencer (PMC0-3)" },
	{ "UOPS_ISSUED.ANY", "UOPS_ISSUED:ANY",
	  X(0xe, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "uops issued (fused domain)" },
	{ "BR_INST_RETIRED.ALL_BRANCHES", "BR_INST_RETIRED:ALL_BRANCHES",
	  X(0xc4, 0x00, 0, 0, 0, 0), ANY, NOFIX, 400009, "branches retired" },
	{ "BR_MISP_RETIRED.ALL_BRANCHES", "BR_MISP_RETIRED:ALL_BRANCHES",
	  X(0xc5, 0x00, 0, 0, 0, 0), ANY, NOFIX, 400009, "mispredicted branches retired" },
	{ "INT_MISC.RECOVERY_CYCLES", "INT_MISC:RECOVERY_CYCLES",
	  X(0xd, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles the allocator waits after a mispredict or clear" },
	{ "IDQ_UOPS_NOT_DELIVERED.CORE", "IDQ_UOPS_NOT_DELIVERED:CORE",
	  X(0x9c, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "issue slots the front end left empty" },
	{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE|IDQ_BUBBLES.CYCLES_0_UOPS_DELIV.CORE", "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE",
	  X(0x9c, 0x01, 5, 0, 0, 0), ANY, NOFIX, 0, "cycles the front end delivered no uop" },
	{ "PERF_METRICS.RETIRING|topdown-retiring", "PERF_METRICS:RETIRING",
	  X(0x0, 0x80, 0, 0, 0, 0), ANY, NOFIX, 0, "slots: retiring (PERF_METRICS; in the slots group, no counter)" },
	{ "PERF_METRICS.BAD_SPECULATION|topdown-bad-spec", "PERF_METRICS:BAD_SPECULATION",
	  X(0x0, 0x81, 0, 0, 0, 0), ANY, NOFIX, 0, "slots: bad speculation (PERF_METRICS; in the slots group, no counter)" },
	{ "PERF_METRICS.FRONTEND_BOUND|topdown-fe-bound", "PERF_METRICS:FRONTEND_BOUND",
	  X(0x0, 0x82, 0, 0, 0, 0), ANY, NOFIX, 0, "slots: front-end bound (PERF_METRICS; in the slots group, no counter)" },
	{ "PERF_METRICS.BACKEND_BOUND|topdown-be-bound", "PERF_METRICS:BACKEND_BOUND",
	  X(0x0, 0x83, 0, 0, 0, 0), ANY, NOFIX, 0, "slots: back-end bound (PERF_METRICS; in the slots group, no counter)" },
	{ "UOPS_EXECUTED.THREAD:c=1", "UOPS_EXECUTED:THREAD:c=1",
	  X(0xb1, 0x01, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 1 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=2", "UOPS_EXECUTED:THREAD:c=2",
	  X(0xb1, 0x01, 2, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 2 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=3", "UOPS_EXECUTED:THREAD:c=3",
	  X(0xb1, 0x01, 3, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 3 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=4", "UOPS_EXECUTED:THREAD:c=4",
	  X(0xb1, 0x01, 4, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 4 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=5", "UOPS_EXECUTED:THREAD:c=5",
	  X(0xb1, 0x01, 5, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 5 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=6", "UOPS_EXECUTED:THREAD:c=6",
	  X(0xb1, 0x01, 6, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 6 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=7", "UOPS_EXECUTED:THREAD:c=7",
	  X(0xb1, 0x01, 7, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 7 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=8", "UOPS_EXECUTED:THREAD:c=8",
	  X(0xb1, 0x01, 8, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 8 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=9", "UOPS_EXECUTED:THREAD:c=9",
	  X(0xb1, 0x01, 9, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 9 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=10", "UOPS_EXECUTED:THREAD:c=10",
	  X(0xb1, 0x01, 10, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 10 uops executed (ILP sweep)" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};

static const struct arch_event spr_events[] = {
	{ "CPU_CLK_UNHALTED.THREAD|CPU_CLK_UNHALTED.THREAD_P", "UNHALTED_CORE_CYCLES",
	  X(0x3c, 0x00, 0, 0, 0, 0), ANY, 1, 2000003, "core cycles while not halted (FIXED1)" },
	{ "INST_RETIRED.ANY|INST_RETIRED.ANY_P", "INST_RETIRED:ANY_P",
	  X(0xc0, 0x00, 0, 0, 0, 0), ANY, 0, 2000003, "instructions retired (FIXED0)" },
	{ "UOPS_EXECUTED.THREAD|UOPS_DISPATCHED.THREAD", "UOPS_EXECUTED:THREAD",
	  X(0xb1, 0x01, 0, 0, 0, 0), ANY, NOFIX, 2000003, "uops executed by this thread" },
	{ "UOPS_EXECUTED.STALLS|UOPS_EXECUTED.STALL_CYCLES", "UOPS_EXECUTED:THREAD:c=1:i=1",
	  X(0xb1, 0x01, 1, 1, 0, 0), ANY, NOFIX, 2000003, "stall cycles: no uop executed (the Core2 RS_UOPS_DISPATCHED.CYCLES_NONE)" },
	{ "TOPDOWN.SLOTS|slots", "TOPDOWN:SLOTS",
	  X(0x0, 0x04, 0, 0, 0, 0), ANY, 3, 0, "issue slots (FIXED3 only; the PERF_METRICS leader)" },
	{ "TOPDOWN.SLOTS_P", "TOPDOWN:SLOTS_P",
	  X(0xa4, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "issue slots on a generic counter" },
	{ "TOPDOWN.BACKEND_BOUND_SLOTS", "TOPDOWN:BACKEND_BOUND_SLOTS",
	  X(0xa4, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "back-end bound slots (GP fallback)" },
	{ "UOPS_RETIRED.SLOTS|UOPS_RETIRED.RETIRE_SLOTS", "UOPS_RETIRED:SLOTS",
	  X(0xc2, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "retirement slots used" },
	{ "UOPS_RETIRED.STALLS|UOPS_RETIRED.STALL_CYCLES", "UOPS_RETIRED:STALLS",
	  X(0xc2, 0x02, 1, 1, 0, 0), ANY, NOFIX, 0, "cycles with no uop retired" },
	{ "INT_MISC.UOP_DROPPING", "INT_MISC:UOP_DROPPING",
	  X(0xad, 0x10, 0, 0, 0, 0), ANY, NOFIX, 0, "uops dropped by the front end (TMA correction)" },
	{ "INT_MISC.CLEARS_COUNT", "INT_MISC:CLEARS_COUNT",
	  X(0xad, 0x01, 1, 0, 1, 0), ANY, NOFIX, 0, "clears (recovery starts)" },
	{ "INT_MISC.CLEAR_RESTEER_CYCLES", "INT_MISC:CLEAR_RESTEER_CYCLES",
	  X(0xad, 0x80, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles of front-end resteer after a clear" },
	{ "CPU_CLK_UNHALTED.DISTRIBUTED", "CPU_CLK_UNHALTED:DISTRIBUTED",
	  X(0xec, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "core cycles shared between SMT threads" },
	{ "MACHINE_CLEARS.COUNT", "MACHINE_CLEARS:COUNT",
	  X(0xc3, 0x01, 1, 0, 1, 0), ANY, NOFIX, 0, "machine clears" },
	{ "CYCLE_ACTIVITY.STALLS_TOTAL", "CYCLE_ACTIVITY:STALLS_TOTAL",
	  X(0xa3, 0x04, 4, 0, 0, 0), ANY, NOFIX, 0, "cycles with no uop executed (TMA form)" },
	{ "EXE_ACTIVITY.BOUND_ON_STORES", "EXE_ACTIVITY:BOUND_ON_STORES",
	  X(0xa6, 0x40, 2, 0, 0, 0), ANY, NOFIX, 0, "cycles the store buffer was full" },
	{ "EXE_ACTIVITY.1_PORTS_UTIL", "EXE_ACTIVITY:1_PORTS_UTIL",
	  X(0xa6, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles with 1 port busy" },
	{ "EXE_ACTIVITY.2_PORTS_UTIL", "EXE_ACTIVITY:2_PORTS_UTIL",
	  X(0xa6, 0x04, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles with 2 ports busy" },
	{ "MEM_LOAD_RETIRED.L3_MISS", "MEM_LOAD_RETIRED:L3_MISS",
	  X(0xd1, 0x20, 0, 0, 0, 0), PMC0_3, NOFIX, 100003, "retired loads missing L3 (PMC0-3)" },
	{ "L1D_PEND_MISS.PENDING", "L1D_PEND_MISS:PENDING",
	  X(0x48, 0x01, 0, 0, 0, 0), PMC0_3, NOFIX, 0, "L1D misses outstanding, per cycle (PMC0-3)" },
	{ "UOPS_RETIRED.HEAVY", "UOPS_RETIRED:HEAVY",
	  X(0xc2, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "heavy (microcoded or multi-uop) instructions' uops retired" },
	{ "UOPS_RETIRED.MS", "UOPS_RETIRED:MS",
	  X(0xc2, 0x04, 0, 0, 0, 0), ANY, NOFIX, 0, "uops retired from the microcode sequencer" },
	{ "TOPDOWN.BAD_SPEC_SLOTS", "TOPDOWN:BAD_SPEC_SLOTS",
	  X(0xa4, 0x04, 0, 0, 0, 0), PMC0, NOFIX, 0, "bad-speculation slots (PMC0 only)" },
	{ "TOPDOWN.BR_MISPREDICT_SLOTS", "TOPDOWN:BR_MISPREDICT_SLOTS",
	  X(0xa4, 0x08, 0, 0, 0, 0), PMC0, NOFIX, 0, "branch-mispredict slots (PMC0 only)" },
	{ "TOPDOWN.MEMORY_BOUND_SLOTS", "TOPDOWN:MEMORY_BOUND_SLOTS",
	  X(0xa4, 0x10, 0, 0, 0, 0), ANY, NOFIX, 0, "memory-bound slots" },
	{ "MEMORY_ACTIVITY.STALLS_L1D_MISS|CYCLE_ACTIVITY.STALLS_L1D_MISS", "MEMORY_ACTIVITY:STALLS_L1D_MISS",
	  X(0x47, 0x03, 3, 0, 0, 0), PMC0_3, NOFIX, 0, "stall cycles with an L1D miss pending (PMC0-3)" },
	{ "MEMORY_ACTIVITY.STALLS_L2_MISS|CYCLE_ACTIVITY.STALLS_L2_MISS", "MEMORY_ACTIVITY:STALLS_L2_MISS",
	  X(0x47, 0x05, 5, 0, 0, 0), PMC0_3, NOFIX, 0, "stall cycles with an L2 miss pending (PMC0-3)" },
	{ "MEMORY_ACTIVITY.STALLS_L3_MISS|CYCLE_ACTIVITY.STALLS_L3_MISS", "MEMORY_ACTIVITY:STALLS_L3_MISS",
	  X(0x47, 0x09, 9, 0, 0, 0), PMC0_3, NOFIX, 0, "stall cycles with an L3 miss pending (PMC0-3)" },
	{ "EXE_ACTIVITY.BOUND_ON_LOADS|CYCLE_ACTIVITY.STALLS_MEM_ANY", "EXE_ACTIVITY:BOUND_ON_LOADS",
	  X(0xa6, 0x21, 5, 0, 0, 0), ANY, NOFIX, 0, "stall cycles with a load pending (SPR's STALLS_MEM_ANY)" },
	{ "DTLB_LOAD_MISSES.WALK_ACTIVE", "DTLB_LOAD_MISSES:WALK_ACTIVE",
	  X(0x12, 0x10, 1, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles of DTLB load page walks (PMC0-3)" },
	{ "ITLB_MISSES.WALK_ACTIVE", "ITLB_MISSES:WALK_ACTIVE",
	  X(0x11, 0x10, 1, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles of ITLB page walks (PMC0-3)" },
	{ "ICACHE_DATA.STALLS|ICACHE_16B.IFDATA_STALL", "ICACHE_DATA:STALLS",
	  X(0x80, 0x04, 0, 0, 0, 0), PMC0_3, NOFIX, 0, "cycles stalled on an I-cache miss (PMC0-3)" },
	{ "ARITH.DIV_ACTIVE|ARITH.DIVIDER_ACTIVE", "ARITH:DIV_ACTIVE",
	  X(0xb0, 0x09, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles the divider is busy" },
	{ "UOPS_ISSUED.ANY", "UOPS_ISSUED:ANY",
	  X(0xae, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "uops issued (fused domain)" },
	{ "BR_INST_RETIRED.ALL_BRANCHES", "BR_INST_RETIRED:ALL_BRANCHES",
	  X(0xc4, 0x00, 0, 0, 0, 0), ANY, NOFIX, 400009, "branches retired" },
	{ "BR_MISP_RETIRED.ALL_BRANCHES", "BR_MISP_RETIRED:ALL_BRANCHES",
	  X(0xc5, 0x00, 0, 0, 0, 0), ANY, NOFIX, 400009, "mispredicted branches retired" },
	{ "INT_MISC.RECOVERY_CYCLES", "INT_MISC:RECOVERY_CYCLES",
	  X(0xad, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles the allocator waits after a mispredict or clear" },
	{ "IDQ_UOPS_NOT_DELIVERED.CORE", "IDQ_UOPS_NOT_DELIVERED:CORE",
	  X(0x9c, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "issue slots the front end left empty" },
	{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE|IDQ_BUBBLES.CYCLES_0_UOPS_DELIV.CORE", "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE",
	  X(0x9c, 0x01, 6, 0, 0, 0), ANY, NOFIX, 0, "cycles the front end delivered no uop" },
	{ "PERF_METRICS.RETIRING|topdown-retiring", "PERF_METRICS:RETIRING",
	  X(0x0, 0x80, 0, 0, 0, 0), ANY, NOFIX, 0, "slots: retiring (PERF_METRICS; in the slots group, no counter)" },
	{ "PERF_METRICS.BAD_SPECULATION|topdown-bad-spec", "PERF_METRICS:BAD_SPECULATION",
	  X(0x0, 0x81, 0, 0, 0, 0), ANY, NOFIX, 0, "slots: bad speculation (PERF_METRICS; in the slots group, no counter)" },
	{ "PERF_METRICS.FRONTEND_BOUND|topdown-fe-bound", "PERF_METRICS:FRONTEND_BOUND",
	  X(0x0, 0x82, 0, 0, 0, 0), ANY, NOFIX, 0, "slots: front-end bound (PERF_METRICS; in the slots group, no counter)" },
	{ "PERF_METRICS.BACKEND_BOUND|topdown-be-bound", "PERF_METRICS:BACKEND_BOUND",
	  X(0x0, 0x83, 0, 0, 0, 0), ANY, NOFIX, 0, "slots: back-end bound (PERF_METRICS; in the slots group, no counter)" },
	{ "PERF_METRICS.HEAVY_OPERATIONS|topdown-heavy-ops", "PERF_METRICS:HEAVY_OPERATIONS",
	  X(0x0, 0x84, 0, 0, 0, 0), ANY, NOFIX, 0, "slots: heavy operations (PERF_METRICS; in the slots group, no counter)" },
	{ "PERF_METRICS.BRANCH_MISPREDICTS|topdown-br-mispredict", "PERF_METRICS:BRANCH_MISPREDICTS",
	  X(0x0, 0x85, 0, 0, 0, 0), ANY, NOFIX, 0, "slots: branch mispredicts (PERF_METRICS; in the slots group, no counter)" },
	{ "PERF_METRICS.FETCH_LATENCY|topdown-fetch-lat", "PERF_METRICS:FETCH_LATENCY",
	  X(0x0, 0x86, 0, 0, 0, 0), ANY, NOFIX, 0, "slots: fetch latency (PERF_METRICS; in the slots group, no counter)" },
	{ "PERF_METRICS.MEMORY_BOUND|topdown-mem-bound", "PERF_METRICS:MEMORY_BOUND",
	  X(0x0, 0x87, 0, 0, 0, 0), ANY, NOFIX, 0, "slots: memory bound (PERF_METRICS; in the slots group, no counter)" },
	{ "UOPS_EXECUTED.THREAD:c=1", "UOPS_EXECUTED:THREAD:c=1",
	  X(0xb1, 0x01, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 1 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=2", "UOPS_EXECUTED:THREAD:c=2",
	  X(0xb1, 0x01, 2, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 2 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=3", "UOPS_EXECUTED:THREAD:c=3",
	  X(0xb1, 0x01, 3, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 3 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=4", "UOPS_EXECUTED:THREAD:c=4",
	  X(0xb1, 0x01, 4, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 4 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=5", "UOPS_EXECUTED:THREAD:c=5",
	  X(0xb1, 0x01, 5, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 5 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=6", "UOPS_EXECUTED:THREAD:c=6",
	  X(0xb1, 0x01, 6, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 6 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=7", "UOPS_EXECUTED:THREAD:c=7",
	  X(0xb1, 0x01, 7, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 7 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=8", "UOPS_EXECUTED:THREAD:c=8",
	  X(0xb1, 0x01, 8, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 8 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=9", "UOPS_EXECUTED:THREAD:c=9",
	  X(0xb1, 0x01, 9, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 9 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=10", "UOPS_EXECUTED:THREAD:c=10",
	  X(0xb1, 0x01, 10, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 10 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=11", "UOPS_EXECUTED:THREAD:c=11",
	  X(0xb1, 0x01, 11, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 11 uops executed (ILP sweep)" },
	{ "UOPS_EXECUTED.THREAD:c=12", "UOPS_EXECUTED:THREAD:c=12",
	  X(0xb1, 0x01, 12, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 12 uops executed (ILP sweep)" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};
#define TABLES(m) static const struct arch_event *const m##_tables[] = { m##_events, NULL }
TABLES(snb); TABLES(ivb); TABLES(hsw); TABLES(bdw);
TABLES(icl); TABLES(spr);
static const struct arch_event *const nhm_tables[] = { nhm_fixed_events, nhm_events, NULL };
static const struct arch_event *const wsm_tables[] = { wsm_fixed_events, nhm_events, NULL };
static const struct arch_event *const skl_tables[] = { skl_events, skl_client_events, NULL };
static const struct arch_event *const skx_tables[] = { skl_events, NULL };
/* Cascade Lake's core events are Skylake-SP's, Ice Lake server's Ice Lake
 * client's, row for row (../shared/MODERN-PMU.md 1.3 and the encodings
 * tables: icx and icl identical; perfmon's CLX and SKX core files agree on
 * every event these rows name): one table each, forced under its own PMU. */
static const struct arch_event *const clx_tables[] = { skl_events, NULL };
static const struct arch_event *const icx_tables[] = { icl_events, NULL };

/* Nehalem/Westmere load penalties: load-to-use latencies by source, Levinthal,
 * "Performance Analysis Guide for Intel Core i7 Processor and Intel Xeon 5500
 * processors" (2009), the latency table of its memory section (L2 ~10 cycles,
 * unshared LLC hit ~35-40, a line modified in another core ~75, local DRAM
 * ~60 ns: 180 cycles at 3 GHz), as ../shared/MODERN-PMU.md 1.5 and 4.1
 * prescribe penalty weighting for these cores.  Approximate by nature, as the
 * Core2 paper's are. */
static const struct model_penalty nhm_penalties[] = {
	{ "MEM_LOAD_RETIRED.L2_HIT", 10, "Levinthal NHM guide: L2 hit ~10 cycles" },
	{ "MEM_LOAD_RETIRED.LLC_UNSHARED_HIT", 35, "Levinthal NHM guide: LLC hit ~35-40" },
	{ "MEM_LOAD_RETIRED.OTHER_CORE_L2_HIT_HITM", 75,
	  "Levinthal NHM guide: modified in another core ~75" },
	{ "MEM_LOAD_RETIRED.LLC_MISS", 180, "Levinthal NHM guide: local DRAM ~60 ns" },
	{ NULL, 0, NULL },
};

/* Nehalem/Westmere: no per-thread "no uop executed" event; the Core2 stall
 * term is core scope (UOPS_EXECUTED.CORE_STALL_CYCLES, any=1) and the memory
 * stalls are penalty-weighted load counts (../shared/MODERN-PMU.md 1.5). */
#define NHM_LIKE(id, pmu, what, perf) \
	const struct arch_model model_##id = { \
		.name = pmu, .pmu_prefix = pmu, .pfm_force = pmu, .desc = what, \
		.tree = TREE_INTEL, .n_generic = 4, .n_generic_nosmt = 4, .n_fixed = 3, \
		.pipeline_width = 4, .cycles = "CPU_CLK_UNHALTED.THREAD", \
		.dispatch_width = 6, .ilp_sweep = "UOPS_EXECUTED.CORE_ACTIVE_CYCLES", \
		.stall_event = "UOPS_EXECUTED.CORE_STALL_CYCLES", \
		.inst_event = "INST_RETIRED.ANY", .penalties = nhm_penalties, \
		.tables = id##_tables, .perf_events = perf, \
	}
NHM_LIKE(nhm, "nhm", "Intel Nehalem (4 generic + 3 fixed; core-scope stalls, penalties)",
	 "nehalemep");
NHM_LIKE(wsm, "wsm", "Intel Westmere (4 generic + 3 fixed; core-scope stalls, penalties)",
	 "westmereep-sp");

/* SNB..CLX: 4 generic counters per thread with SMT on, 8 with SMT off. */
#define CORE_LIKE(id, pmu, what, ilp, stall, perf) \
	const struct arch_model model_##id = { \
		.name = pmu, .pmu_prefix = pmu, .pfm_force = pmu, .desc = what, \
		.tree = TREE_INTEL, .n_generic = 4, .n_generic_nosmt = 8, .n_fixed = 3, \
		.pipeline_width = 4, .cycles = "CPU_CLK_UNHALTED.THREAD", \
		.dispatch_width = ilp, .ilp_sweep = "UOPS_EXECUTED.THREAD", .stall_event = stall, \
		.inst_event = "INST_RETIRED.ANY", .tables = id##_tables, \
		.perf_events = perf, \
	}
CORE_LIKE(snb, "snb", "Intel Sandy Bridge (4/8 generic + 3 fixed)", 6,
	  "UOPS_DISPATCHED.STALL_CYCLES", "sandybridge");
CORE_LIKE(ivb, "ivb", "Intel Ivy Bridge (4/8 generic + 3 fixed)", 6,
	  "UOPS_DISPATCHED.STALL_CYCLES", "ivybridge");
CORE_LIKE(hsw, "hsw", "Intel Haswell (4/8 generic + 3 fixed)", 8, "UOPS_EXECUTED.STALL_CYCLES",
	  "haswell");
CORE_LIKE(bdw, "bdw", "Intel Broadwell (4/8 generic + 3 fixed)", 8,
	  "UOPS_EXECUTED.STALL_CYCLES", "broadwell");
CORE_LIKE(skl, "skl", "Intel Skylake client (4/8 generic + 3 fixed)", 8,
	  "CYCLE_ACTIVITY.STALLS_TOTAL", "skylake");
CORE_LIKE(skx, "skx", "Intel Skylake server (4/8 generic + 3 fixed)", 8,
	  "CYCLE_ACTIVITY.STALLS_TOTAL", "skylakex");
CORE_LIKE(clx, "clx", "Intel Cascade Lake (4/8 generic + 3 fixed)", 8,
	  "CYCLE_ACTIVITY.STALLS_TOTAL", "cascadelakex");

/* ICL..SPR: 8 generic counters either way, FIXED3 = slots, PERF_METRICS. */
#define SLOTS_LIKE(id, pmu, what, ilp, metrics, width, perf) \
	const struct arch_model model_##id = { \
		.name = pmu, .pmu_prefix = pmu, .pfm_force = pmu, .desc = what, \
		.tree = TREE_INTEL, .n_generic = 8, .n_generic_nosmt = 8, .n_fixed = 4, \
		.n_metrics = metrics, .pipeline_width = width, .slots_event = "TOPDOWN.SLOTS", \
		.cycles = "CPU_CLK_UNHALTED.THREAD", .dispatch_width = ilp, \
		.ilp_sweep = "UOPS_EXECUTED.THREAD", \
		.stall_event = "CYCLE_ACTIVITY.STALLS_TOTAL", .inst_event = "INST_RETIRED.ANY", \
		.tables = id##_tables, .perf_events = perf, \
	}
SLOTS_LIKE(icl, "icl", "Intel Ice Lake client (8 generic + 4 fixed, PERF_METRICS)", 10, 4, 5,
	   "icelake");
SLOTS_LIKE(icx, "icx", "Intel Ice Lake server (8 generic + 4 fixed, PERF_METRICS)", 10, 4, 5,
	   "icelakex");
SLOTS_LIKE(spr, "spr", "Intel Sapphire Rapids (8 generic + 4 fixed, PERF_METRICS L1+L2)",
	   12, 8, 6, "sapphirerapids");

/* Emerald Rapids and Granite Rapids: Sapphire Rapids' core PMU (8 generic +
 * 4 fixed counters with FIXED3 = slots, PERF_METRICS level 1 and 2: the
 * kernel drives all three with the same code, arch/x86/events/intel/core.c
 * intel_pmu_init "case INTEL_EMERALDRAPIDS_X" beside SAPPHIRERAPIDS_X, and
 * GRANITERAPIDS_X/_D with the Redwood Cove (glc-based) setup).  Their rows
 * are spr's, encoded under libpfm4 4.13's spr PMU (which takes EMR's CPUID
 * 0xCF as spr and has no GNR PMU) with arch/pfm-fix.c's corrections; perf's
 * emeraldrapids and graniterapids names win where perf has them, and
 * tests/unit/test-perf-events checks every row perf names against those tables
 * (Linux 6.12 x86/emeraldrapids v1.09, x86/graniterapids v1.02). */
#define SPR_LIKE(id, nm, what, perf) \
	const struct arch_model model_##id = { \
		.name = nm, .pmu_prefix = nm, .pfm_force = "spr", .desc = what, \
		.tree = TREE_INTEL, .n_generic = 8, .n_generic_nosmt = 8, .n_fixed = 4, \
		.n_metrics = 8, .pipeline_width = 6, .slots_event = "TOPDOWN.SLOTS", \
		.cycles = "CPU_CLK_UNHALTED.THREAD", .dispatch_width = 12, \
		.ilp_sweep = "UOPS_EXECUTED.THREAD", \
		.stall_event = "CYCLE_ACTIVITY.STALLS_TOTAL", .inst_event = "INST_RETIRED.ANY", \
		.tables = spr_tables, .perf_events = perf, \
	}
SPR_LIKE(emr, "emr", "Intel Emerald Rapids (8 generic + 4 fixed, PERF_METRICS L1+L2)",
	 "emeraldrapids");
SPR_LIKE(gnr, "gnr", "Intel Granite Rapids (8 generic + 4 fixed, PERF_METRICS L1+L2)",
	 "graniterapids");

/* The E-cores: Sierra Forest (Crestmont) and the hybrid parts' Gracemont
 * (Alder/Raptor Lake's cpu_atom PMU).  No PERF_METRICS: TopDown counts slots
 * on generic counters with the TOPDOWN_FE_BOUND, _BAD_SPECULATION, _BE_BOUND
 * and _RETIRING events (perf's srf-metrics.json: 6 slots a cycle; adl-metrics
 * cpu_atom: 5).  libpfm4 4.13 has neither PMU: the rows carry perf's names
 * and encode from perf's tables.  Every row: Linux 6.12 tools/perf/
 * pmu-events/arch/x86/sierraforest/pipeline.json (v1.04) resp.
 * alderlake/pipeline.json cpu_atom (v1.27), checked by tests/unit/test-perf-events.
 * Counters (counter.json, Intel SDM vol. 3B 20.6.x): SRF 8 generic + 3 fixed,
 * Gracemont 6 generic + 3 fixed; CPU_CLK_UNHALTED.CORE is FIXED1,
 * INST_RETIRED.ANY FIXED0. */
static const struct arch_event srf_events[] = {
	{ "CPU_CLK_UNHALTED.CORE", "CPU_CLK_UNHALTED.CORE",
	  X(0x3c, 0x00, 0, 0, 0, 0), ANY, 1, 2000003, "Fixed Counter: Counts the number of unhalted core clock cycles" },
	{ "CPU_CLK_UNHALTED.CORE_P", "CPU_CLK_UNHALTED.CORE_P",
	  X(0x3c, 0x00, 0, 0, 0, 0), ANY, NOFIX, 2000003, "Counts the number of unhalted core clock cycles [This event is alias to CPU_CLK_UNHALTED.THREAD_P]" },
	{ "INST_RETIRED.ANY", "INST_RETIRED.ANY",
	  X(0xc0, 0x00, 0, 0, 0, 0), ANY, 0, 2000003, "Fixed Counter: Counts the number of instructions retired" },
	{ "INST_RETIRED.ANY_P", "INST_RETIRED.ANY_P",
	  X(0xc0, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the number of instructions retired" },
	{ "TOPDOWN_FE_BOUND.ALL_P", "TOPDOWN_FE_BOUND.ALL_P",
	  X(0x71, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the number of retirement slots not consumed due to front end stalls [This event is alias t" },
	{ "TOPDOWN_FE_BOUND.FRONTEND_LATENCY", "TOPDOWN_FE_BOUND.FRONTEND_LATENCY",
	  X(0x71, 0x72, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the number of issue slots every cycle that were not delivered by the frontend due to laten" },
	{ "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH", "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH",
	  X(0x71, 0x8d, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the number of issue slots every cycle that were not delivered by the frontend due to front" },
	{ "TOPDOWN_BAD_SPECULATION.ALL_P", "TOPDOWN_BAD_SPECULATION.ALL_P",
	  X(0x73, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the number of issue slots that were not consumed by the backend because allocation is stal" },
	{ "TOPDOWN_BAD_SPECULATION.MISPREDICT", "TOPDOWN_BAD_SPECULATION.MISPREDICT",
	  X(0x73, 0x04, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the number of issue slots every cycle that were not consumed by the backend due to Branch" },
	{ "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS", "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS",
	  X(0x73, 0x03, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the total number of issue slots that were not consumed by the backend because allocation i" },
	{ "TOPDOWN_BE_BOUND.ALL_P", "TOPDOWN_BE_BOUND.ALL_P",
	  X(0x74, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the number of retirement slots not consumed due to backend stalls [This event is alias to" },
	{ "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS", "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS",
	  X(0x74, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the number of issue slots every cycle that were not consumed by the backend due to due to" },
	{ "TOPDOWN_RETIRING.ALL_P", "TOPDOWN_RETIRING.ALL_P",
	  X(0x72, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the number of consumed retirement slots. [This event is alias to TOPDOWN_RETIRING.ALL]" },
	{ "BR_INST_RETIRED.ALL_BRANCHES", "BR_INST_RETIRED.ALL_BRANCHES",
	  X(0xc4, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the total number of branch instructions retired for all branch types" },
	{ "BR_MISP_RETIRED.ALL_BRANCHES", "BR_MISP_RETIRED.ALL_BRANCHES",
	  X(0xc5, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the total number of mispredicted branch instructions retired for all branch types" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};

static const struct arch_event grt_events[] = {
	{ "CPU_CLK_UNHALTED.CORE", "CPU_CLK_UNHALTED.CORE",
	  X(0x3c, 0x00, 0, 0, 0, 0), ANY, 1, 2000003, "Counts the number of unhalted core clock cycles. (Fixed event)" },
	{ "CPU_CLK_UNHALTED.CORE_P", "CPU_CLK_UNHALTED.CORE_P",
	  X(0x3c, 0x00, 0, 0, 0, 0), ANY, NOFIX, 2000003, "Counts the number of unhalted core clock cycles" },
	{ "INST_RETIRED.ANY", "INST_RETIRED.ANY",
	  X(0xc0, 0x00, 0, 0, 0, 0), ANY, 0, 2000003, "Counts the total number of instructions retired. (Fixed event)" },
	{ "INST_RETIRED.ANY_P", "INST_RETIRED.ANY_P",
	  X(0xc0, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the total number of instructions retired" },
	{ "TOPDOWN_FE_BOUND.ALL", "TOPDOWN_FE_BOUND.ALL",
	  X(0x71, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the total number of issue slots every cycle that were not consumed by the backend due to f" },
	{ "TOPDOWN_FE_BOUND.FRONTEND_LATENCY", "TOPDOWN_FE_BOUND.FRONTEND_LATENCY",
	  X(0x71, 0x72, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the number of issue slots every cycle that were not delivered by the frontend due to a lat" },
	{ "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH", "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH",
	  X(0x71, 0x8d, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the number of issue slots every cycle that were not delivered by the frontend due to front" },
	{ "TOPDOWN_BAD_SPECULATION.ALL", "TOPDOWN_BAD_SPECULATION.ALL",
	  X(0x73, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the total number of issue slots that were not consumed by the backend because allocation i" },
	{ "TOPDOWN_BAD_SPECULATION.MISPREDICT", "TOPDOWN_BAD_SPECULATION.MISPREDICT",
	  X(0x73, 0x04, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the number of issue slots every cycle that were not consumed by the backend due to branch" },
	{ "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS", "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS",
	  X(0x73, 0x03, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the total number of issue slots that were not consumed by the backend because allocation i" },
	{ "TOPDOWN_BE_BOUND.ALL", "TOPDOWN_BE_BOUND.ALL",
	  X(0x74, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the total number of issue slots every cycle that were not consumed by the backend due to b" },
	{ "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS", "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS",
	  X(0x74, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the number of issue slots every cycle that were not consumed by the backend due to certain" },
	{ "TOPDOWN_RETIRING.ALL", "TOPDOWN_RETIRING.ALL",
	  X(0xc2, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the total number of consumed retirement slots" },
	{ "BR_INST_RETIRED.ALL_BRANCHES", "BR_INST_RETIRED.ALL_BRANCHES",
	  X(0xc4, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the total number of branch instructions retired for all branch types" },
	{ "BR_MISP_RETIRED.ALL_BRANCHES", "BR_MISP_RETIRED.ALL_BRANCHES",
	  X(0xc5, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "Counts the total number of mispredicted branch instructions retired for all branch types" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};

static const struct arch_event *const srf_tables[] = { srf_events, NULL };
static const struct arch_event *const grt_tables[] = { grt_events, NULL };

#define NO_ILP_ECORE "no ILP histogram on this E-core in cyctop's tables: its TopDown " \
	"events count slots, and no uops-executed sweep is set up for it"
#define ECORE(id, nm, what, gp, width, tabs, perf) \
	const struct arch_model model_##id = { \
		.name = nm, .pmu_prefix = nm, .pfm_force = NULL, .desc = what, \
		.tree = TREE_TOPDOWN, .n_generic = gp, .n_generic_nosmt = gp, .n_fixed = 3, \
		.pipeline_width = width, .cycles = "CPU_CLK_UNHALTED.CORE", \
		.no_ilp = NO_ILP_ECORE, .inst_event = "INST_RETIRED.ANY", .tables = tabs, \
		.perf_events = perf, \
	}
ECORE(srf, "srf", "Intel Sierra Forest E-cores (8 generic + 3 fixed, TopDown on 6 slots)", 8,
      6, srf_tables, "sierraforest");
ECORE(adl_grt, "adl_grt", "Intel Alder/Raptor Lake E-cores, Gracemont (cpu_atom; 6 generic + "
      "3 fixed, TopDown on 5 slots)", 6, 5, grt_tables, "alderlake_atom");
