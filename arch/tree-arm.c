/* The Core2 master equation on Armv8 cores (Neoverse, Cortex-A):
 *
 *   C = (C - S) x f + (C - S) x (1 - f) + S
 *
 *   C = CPU_CYCLES
 *   S = STALL_FRONTEND + STALL_BACKEND: the cycles in which no operation was
 *       issued, because the front end had none or the back end took none
 *       (the Arm architecture's definitions, perf's
 *       common-and-microarch.json "No operation issued because of the
 *       frontend" / "... due to the backend"; STALL, where the core has it,
 *       counts them together and is checked against the sum)
 *   f = the share of the issued work that retires: OP_RETIRED / OP_SPEC
 *       where the core counts micro-operations (V1, N2, V2; perf's
 *       neoverse-n2-v2 retired_rate), else INST_RETIRED / INST_SPEC (N1,
 *       A76, A57, A72)
 *
 * The back-end stalls split by the memory-bound event the core has:
 * STALL_BACKEND_MEM (0x4005, "backend stalled because there is a pending
 * demand load request in progress in the last level core cache": V1, N2,
 * V2), the rest being what no event of the core attributes
 * ("unaccounted").  N1 and A76 have no such event: all of their back-end
 * stalls are unaccounted.  A57, A72 and A53 count no stall cycles at all
 * (perf's cortex-a57-a72 and cortex-a53 files list no STALL_* event): only
 * the cycles, IPC and f are measured there.
 *
 * The ILP histogram where the PMU has a counter threshold (FEAT_PMUv3_TH,
 * Linux 6.8+; arch/ilp.h): "OP_RETIRED:th=k" (INST_RETIRED:th=k on the
 * cores without OP_RETIRED) is OP_RETIRED counted with threshold=k,
 * threshold_compare=GE and threshold_count, the cycles retiring at least k;
 * bin 0 = CPU_CYCLES - th=1, bin k = th=k - th=k+1, the top bin th=W.  The
 * bins go to WIDTH; above the core's width (ctx->slots, else the model's
 * pipeline_width) no cycle retires more, so unmeasured steps there are 0.
 *
 * Names are perf's (arm64 JSON, upper case; the lower-case sysfs aliases
 * match too). */
#include <math.h>

#include "arch/ilp.h"
#include "arch/tree.h"

#define WIDTH ARM_ILP_STEPS

enum {
	I_NONE,
	I_CYC, I_INST, I_RET, I_SPEC, I_SFE, I_SBE, I_SMEM, I_STALL,
	I_S,  /* derived: STALL_FRONTEND + STALL_BACKEND */
	I_R1, /* I_R1 + k - 1: the retired event with threshold >= k */
	I_RET_SUM = I_R1 + WIDTH,  /* derived: sum of the steps, sum k x bin(k) */
	I_COUNT
};

#define R(k) in[I_R1 + (k) - 1]
#define TH(ev, k) [I_R1 + (k) - 1] = { ev ":th=" #k, false }
#define SWEEP(ev) TH(ev, 1), TH(ev, 2), TH(ev, 3), TH(ev, 4), TH(ev, 5), TH(ev, 6), \
	TH(ev, 7), TH(ev, 8), [I_RET_SUM] = { ev ":th=1..8", true }

/* V1, N2, V2: micro-operations */
static const struct tree_input_def op_inputs[I_COUNT] = {
	[I_CYC] = { "CPU_CYCLES|cycles", false },
	[I_INST] = { "INST_RETIRED|instructions", false },
	[I_RET] = { "OP_RETIRED", false },
	[I_SPEC] = { "OP_SPEC", false },
	[I_SFE] = { "STALL_FRONTEND", false },
	[I_SBE] = { "STALL_BACKEND", false },
	[I_SMEM] = { "STALL_BACKEND_MEM", false },
	[I_STALL] = { "STALL", false },
	[I_S] = { "STALL_FRONTEND + STALL_BACKEND", true },
	SWEEP("OP_RETIRED"),
};

/* N1, A76, A57, A72, A53: instructions */
static const struct tree_input_def inst_inputs[I_COUNT] = {
	[I_CYC] = { "CPU_CYCLES|cycles", false },
	[I_INST] = { "INST_RETIRED|instructions", false },
	[I_RET] = { "INST_RETIRED|instructions", false },
	[I_SPEC] = { "INST_SPEC", false },
	[I_SFE] = { "STALL_FRONTEND", false },
	[I_SBE] = { "STALL_BACKEND", false },
	[I_S] = { "STALL_FRONTEND + STALL_BACKEND", true },
	SWEEP("INST_RETIRED"),
};

static void derive(double *in, const struct tree_ctx *ctx)
{
	int width = ctx->slots > 0 ? (int)ctx->slots : ctx->model ? ctx->model->pipeline_width : 0;
	double sum = 0;

	in[I_S] = in[I_SFE] + in[I_SBE];
	for (int k = 1; k <= WIDTH; k++) {
		if (width > 0 && k > width && isnan(R(k)))
			R(k) = 0;  /* no cycle retires more than the core's width */
		sum += R(k);
	}
	in[I_RET_SUM] = sum;
}

#define FN(name) static double name(const double *in, const struct tree_ctx *c)

static double fraction(const double *in) { return in[I_RET] / in[I_SPEC]; }
static double issuing(const double *in) { return in[I_CYC] - in[I_S]; }
FN(f_cycles) { (void)c; return in[I_CYC]; }
FN(f_retired) { (void)c; return issuing(in) * fraction(in); }
FN(f_non_retired) { (void)c; return issuing(in) * (1 - fraction(in)); }
FN(f_stalls) { (void)c; return in[I_S]; }
FN(f_frontend) { (void)c; return in[I_SFE]; }
FN(f_backend) { (void)c; return in[I_SBE]; }
FN(f_memory) { (void)c; return in[I_SMEM]; }
FN(f_stall) { (void)c; return in[I_STALL]; }
FN(f_ipc) { (void)c; return in[I_INST] / in[I_CYC]; }
FN(f_fraction) { (void)c; return fraction(in); }

#define SRC "Core2 cycle accounting (seeds/000) on Armv8"
#define P TN_PART
#define PX (TN_PART | TN_EXACT)
#define CY(id, label, flags, fn, src, ...) \
	{ id, label, UNIT_CYCLES, flags, { __VA_ARGS__ }, fn, NULL, src }
#define RETIRED(what) \
	CY("cycles.retired", "Retired (issuing work that retires)", P | TN_USEFUL, f_retired, \
	   SRC ", (C - S) x " what, I_CYC, I_S, I_RET, I_SPEC)
#define NON_RETIRED(what) \
	CY("cycles.non_retired", "Non-retired (work thrown away)", P, f_non_retired, \
	   SRC ", (C - S) x (1 - " what ")", I_CYC, I_S, I_RET, I_SPEC)
#define STALLS \
	CY("cycles.stalls", "Stalls (no operation issued)", PX, f_stalls, \
	   SRC ", STALL_FRONTEND + STALL_BACKEND", I_S), \
	CY("cycles.stalls.frontend", "Front end had nothing to issue", P, f_frontend, \
	   "Arm STALL_FRONTEND (0x23)", I_SFE), \
	CY("cycles.stalls.backend", "Back end took nothing", PX, f_backend, \
	   "Arm STALL_BACKEND (0x24)", I_SBE)
/* every cycle falls in one bin: none retired (C - th=1), or th=1 */
FN(f_bin0) { (void)c; return in[I_CYC] - R(1); }
FN(f_ilp_mean) { (void)c; return in[I_RET_SUM] / in[I_CYC]; }
#define BIN(k) FN(f_bin##k) { (void)c; return R(k) - R((k) + 1); }
BIN(1) BIN(2) BIN(3) BIN(4) BIN(5) BIN(6) BIN(7)
FN(f_bin8) { (void)c; return R(8); }

#define TSRC "Core2 ILP histogram (seeds/000) on the Arm counter threshold (FEAT_PMUv3_TH)"
#define MID(ev, what, k) CY("ilp." #k, #k " " what, P, f_bin##k, \
			    TSRC ", " ev ":th=" #k " - :th=" #k "+1", I_R1 + (k) - 1, I_R1 + (k))
#define ILP(ev, what) \
	{ "ilp", "Cycles in the ILP sweep", UNIT_CYCLES, TN_EXACT, { I_CYC, I_R1 }, f_cycles, \
	  "cycles", TSRC ", bins add up to CPU_CYCLES" }, \
	CY("ilp.0", "0 " what, P, f_bin0, TSRC ", CPU_CYCLES - " ev ":th=1", I_CYC, I_R1), \
	MID(ev, what, 1), MID(ev, what, 2), MID(ev, what, 3), MID(ev, what, 4), \
	MID(ev, what, 5), MID(ev, what, 6), MID(ev, what, 7), \
	CY("ilp.8", "8 " what " (the most per cycle)", P, f_bin8, TSRC ", " ev ":th=8", \
	   I_R1 + 7), \
	{ "ilp.mean", "Mean " what " per cycle", UNIT_UOPS_PER_CYCLE, 0, \
	  { I_RET_SUM, I_CYC }, f_ilp_mean, NULL, TSRC ", sum k x bin(k) / CPU_CYCLES" }
#define IPC \
	{ "ipc", "Instructions per cycle", UNIT_RATIO, 0, { I_INST, I_CYC }, f_ipc, NULL, \
	  "perf arm64 metrics ipc = INST_RETIRED / CPU_CYCLES" }

static const struct tree_node_def op_nodes[] = {
	CY("cycles", "Total cycles", TN_EXACT, f_cycles, SRC ", CPU_CYCLES", I_CYC),
	RETIRED("OP_RETIRED / OP_SPEC"),
	NON_RETIRED("OP_RETIRED / OP_SPEC"),
	STALLS,
	CY("cycles.stalls.backend.memory", "Waiting on a load missing the last core cache", P,
	   f_memory, "Arm STALL_BACKEND_MEM (0x4005)", I_SMEM),
	CY("cycles.stalls.backend.unaccounted", "Other back-end stalls (no event attributes "
	   "them)", P | TN_REMAINDER, NULL, SRC ", STALL_BACKEND - STALL_BACKEND_MEM"),
	{ "stall", "STALL: cycles no operation was sent (= the stalls)", UNIT_CYCLES, 0,
	  { I_STALL }, f_stall, "cycles.stalls", "Arm STALL (0x3C)" },
	IPC,
	{ "retired_fraction", "Share of the issued micro-operations that retire", UNIT_RATIO, 0,
	  { I_RET, I_SPEC }, f_fraction, NULL,
	  "perf neoverse-n2-v2 retired_rate = OP_RETIRED / OP_SPEC" },
	ILP("OP_RETIRED", "ops retired"),
};

static const struct tree_node_def inst_nodes[] = {
	CY("cycles", "Total cycles", TN_EXACT, f_cycles, SRC ", CPU_CYCLES", I_CYC),
	RETIRED("INST_RETIRED / INST_SPEC"),
	NON_RETIRED("INST_RETIRED / INST_SPEC"),
	STALLS,
	CY("cycles.stalls.backend.unaccounted", "All back-end stalls (no event of this core "
	   "splits them)", P | TN_REMAINDER, NULL, SRC ", STALL_BACKEND"),
	IPC,
	{ "retired_fraction", "Share of the issued operations that retire", UNIT_RATIO, 0,
	  { I_RET, I_SPEC }, f_fraction, NULL, SRC ", INST_RETIRED / INST_SPEC" },
	ILP("INST_RETIRED", "instructions retired"),
};

static const char *const op_models[] = { "arm_v2", "arm_n2", "arm_v1", NULL };
static const char *const inst_models[] = {
	"arm_n1", "arm_ac76", "arm_ac72", "arm_ac57", "arm_ac53", NULL,
};

#define N(a) ((int)(sizeof(a) / sizeof(a[0])))

const struct tree_def tree_arm_op = {
	TREE_ARM, "arm", "Core2 cycle accounting on Arm, micro-ops (V1, N2, V2)",
	op_inputs, I_COUNT, op_nodes, N(op_nodes), derive, op_models,
};

const struct tree_def tree_arm_inst = {
	TREE_ARM, "arm", "Core2 cycle accounting on Arm, instructions (N1, A7x, A5x)",
	inst_inputs, I_COUNT, inst_nodes, N(inst_nodes), derive, inst_models,
};
