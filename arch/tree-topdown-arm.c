/* TopDown level 1 on Arm Neoverse exactly as perf computes it, under the
 * topdown tree's ids (arch/tree-topdown.c), as fractions of the slots (perf
 * prints the same formulas times 100, "percent of slots").
 *
 * Sources (torvalds/linux, tools/perf/pmu-events/arch/arm64/):
 *   sbsa.json: the arch-standard metrics a core's metrics.json names by
 *     "ArchStdEvent" and may override, since v6.6 (James Clark, "Update
 *     scale units and descriptions of common topdown metrics"):
 *       frontend_bound  = 100 * (stall_slot_frontend / (#slots * cpu_cycles))
 *       bad_speculation = 100 * ((1 - op_retired / op_spec) *
 *                                (1 - stall_slot / (#slots * cpu_cycles)))
 *       retiring        = 100 * ((op_retired / op_spec) *
 *                                (1 - stall_slot / (#slots * cpu_cycles)))
 *       backend_bound   = 100 * (stall_slot_backend / (#slots * cpu_cycles))
 *   arm/neoverse-n2-v2/metrics.json (N2 and V2; Arm telemetry-solution data,
 *     v6.6 "Update N2-r0p3 and V2 metrics and events using Arm telemetry
 *     repo", formulas unchanged by v6.13 "Update N2/V2 events from source"):
 *       backend_bound   = 100 * (STALL_SLOT_BACKEND / (CPU_CYCLES * #slots) -
 *                                BR_MIS_PRED * 3 / CPU_CYCLES)
 *       bad_speculation = 100 * ((1 - OP_RETIRED / OP_SPEC) *
 *                                (1 - STALL_SLOT / (CPU_CYCLES * #slots)) +
 *                                BR_MIS_PRED * 4 / CPU_CYCLES)
 *       frontend_bound  = 100 * (STALL_SLOT_FRONTEND / (CPU_CYCLES * #slots) -
 *                                BR_MIS_PRED / CPU_CYCLES)
 *       retiring        = sbsa.json's
 *     (N2 before r0p3 counted one extra slot a cycle in STALL_SLOT and
 *     STALL_SLOT_FRONTEND; perf's v6.3-v6.5 formulas subtracted CPU_CYCLES
 *     there, v6.6 kept them in neoverse-n2r0p0/: not modelled here.)
 *   arm/neoverse-v1/metrics.json (V1, the same telemetry data):
 *       frontend_bound  = 100 * (STALL_SLOT_FRONTEND / (CPU_CYCLES * 8) -
 *                                BR_MIS_PRED * 4 / CPU_CYCLES)
 *       bad_speculation = 100 * ((1 - OP_RETIRED / OP_SPEC) *
 *                                (1 - STALL_SLOT / (CPU_CYCLES * 8)) +
 *                                BR_MIS_PRED * 4 / CPU_CYCLES)
 *       backend_bound, retiring = sbsa.json's
 * The four add up to 1 when STALL_SLOT = STALL_SLOT_FRONTEND +
 * STALL_SLOT_BACKEND (and, on V1, #slots = 8).
 *
 * #slots is perf's perf_pmu__cpu_slots_per_cycle(): the core PMU's
 * caps/slots (PMMIR_EL1.SLOTS), NaN when the kernel has none, which leaves
 * perf's metrics empty.  Here the host's value comes in tree_ctx.slots and
 * the model's pipeline_width stands in when there is none (a recording read
 * on another machine).  Neoverse N1 and the Cortex-A cores have no slot
 * events and perf no TopDown metrics for them (neoverse-n1/metrics.json
 * names none): no definition here, so the topdown tree does not fit them.
 * perf has no level 2 for these cores. */
#include <math.h>

#include "arch/tree.h"

enum {
	I_NONE,
	I_CYC, I_SSF, I_SSB, I_SS, I_OPR, I_OPS, I_BRMP,
	I_W,  /* derived: #slots */
	I_COUNT
};

static const struct tree_input_def inputs[I_COUNT] = {
	[I_CYC] = { "CPU_CYCLES|cycles", false },
	[I_SSF] = { "STALL_SLOT_FRONTEND", false },
	[I_SSB] = { "STALL_SLOT_BACKEND", false },
	[I_SS] = { "STALL_SLOT", false },
	[I_OPR] = { "OP_RETIRED", false },
	[I_OPS] = { "OP_SPEC", false },
	[I_BRMP] = { "BR_MIS_PRED", false },
	[I_W] = { "#slots (the PMU's caps/slots, PMMIR_EL1.SLOTS; else the model's default)",
		  true },
};

static void derive(double *in, const struct tree_ctx *ctx)
{
	if (ctx->slots > 0)
		in[I_W] = ctx->slots;
	else if (ctx->model && ctx->model->pipeline_width > 0)
		in[I_W] = ctx->model->pipeline_width;
	else
		in[I_W] = NAN;
}

#define FN(name) static double name(const double *in, const struct tree_ctx *c)
#define C in[I_CYC]
#define SLOTS (in[I_W] * C)
/* the share of slots that issued something: 1 - stall_slot / (#slots * cycles) */
#define ISSUED(w) (1 - in[I_SS] / ((w) * C))

static double whole(const double *in, const struct tree_ctx *c) { (void)in; (void)c; return 1.0; }
FN(f_slots) { (void)c; return SLOTS; }

/* sbsa.json */
FN(sbsa_be) { (void)c; return in[I_SSB] / SLOTS; }
FN(sbsa_ret) { (void)c; return in[I_OPR] / in[I_OPS] * ISSUED(in[I_W]); }

/* neoverse-n2-v2/metrics.json */
FN(n2_fe) { (void)c; return in[I_SSF] / SLOTS - in[I_BRMP] / C; }
FN(n2_bad) { (void)c; return (1 - in[I_OPR] / in[I_OPS]) * ISSUED(in[I_W]) + 4 * in[I_BRMP] / C; }
FN(n2_be) { (void)c; return in[I_SSB] / SLOTS - 3 * in[I_BRMP] / C; }

/* neoverse-v1/metrics.json: 8 written in, not #slots */
FN(v1_fe) { (void)c; return in[I_SSF] / (8 * C) - 4 * in[I_BRMP] / C; }
FN(v1_bad) { (void)c; return (1 - in[I_OPR] / in[I_OPS]) * ISSUED(8) + 4 * in[I_BRMP] / C; }

#define PX (TN_PART | TN_EXACT)
#define NODE(id, label, flags, fn, src, ...) \
	{ id, label, UNIT_RATIO, flags, { __VA_ARGS__ }, fn, NULL, src }
#define RET_IN I_OPR, I_OPS, I_SS, I_CYC, I_W

#define N2 "perf neoverse-n2-v2/metrics.json (v6.6) "
#define SBSA "perf sbsa.json (v6.6) "
static const struct tree_node_def n2_nodes[] = {
	{ "slots", "Slots (#slots per cycle)", UNIT_COUNT, 0, { I_CYC, I_W }, f_slots, NULL,
	  N2 "#slots * CPU_CYCLES" },
	NODE("topdown", "All slots (level 1 adds up to 1)", TN_EXACT, whole, N2 "TopdownL1",
	     I_CYC, I_W),
	NODE("topdown.frontend_bound", "Frontend bound", PX, n2_fe, N2 "frontend_bound",
	     I_SSF, I_BRMP, I_CYC, I_W),
	NODE("topdown.bad_speculation", "Bad speculation", PX, n2_bad, N2 "bad_speculation",
	     RET_IN, I_BRMP),
	NODE("topdown.backend_bound", "Backend bound", PX, n2_be, N2 "backend_bound", I_SSB,
	     I_BRMP, I_CYC, I_W),
	NODE("topdown.retiring", "Retiring", PX | TN_USEFUL, sbsa_ret, SBSA "retiring", RET_IN),
};

#define V1 "perf neoverse-v1/metrics.json "
static const struct tree_node_def v1_nodes[] = {
	{ "slots", "Slots (#slots per cycle)", UNIT_COUNT, 0, { I_CYC, I_W }, f_slots, NULL,
	  V1 "#slots * CPU_CYCLES" },
	NODE("topdown", "All slots (level 1 adds up to 1)", TN_EXACT, whole, V1 "TopdownL1",
	     I_CYC, I_W),
	NODE("topdown.frontend_bound", "Frontend bound", PX, v1_fe, V1 "frontend_bound",
	     I_SSF, I_BRMP, I_CYC),
	NODE("topdown.bad_speculation", "Bad speculation", PX, v1_bad, V1 "bad_speculation",
	     I_OPR, I_OPS, I_SS, I_BRMP, I_CYC),
	NODE("topdown.backend_bound", "Backend bound", PX, sbsa_be, SBSA "backend_bound", I_SSB,
	     I_CYC, I_W),
	NODE("topdown.retiring", "Retiring", PX | TN_USEFUL, sbsa_ret, SBSA "retiring", RET_IN),
};

/* V2 first: without --model a file is taken for the commoner V2 (8 slots) */
static const char *const n2_models[] = { "arm_v2", "arm_n2", NULL };
static const char *const v1_models[] = { "arm_v1", NULL };

#define N(a) ((int)(sizeof(a) / sizeof(a[0])))

const struct tree_def tree_topdown_arm_n2 = {
	TREE_TOPDOWN, "topdown", "TopDown level 1 (perf, Neoverse N2/V2)", inputs, I_COUNT,
	n2_nodes, N(n2_nodes), derive, n2_models,
};

const struct tree_def tree_topdown_arm_v1 = {
	TREE_TOPDOWN, "topdown", "TopDown level 1 (perf, Neoverse V1)", inputs, I_COUNT,
	v1_nodes, N(v1_nodes), derive, v1_models,
};
