/* The Core2 master equation on AMD Zen 1-4, dispatch basis
 * (../shared/MODERN-PMU.md section 1.1, "AMD Zen"), Zen 4's no-retire split
 * by cause and the ILP histogram of retired ops.
 *
 *   C   = ls_not_halted_cyc
 *   S_d = C - ops dispatched:c=1 (de_src_op_disp.all Zen 3/4, event 0xAA;
 *         de_dis_uops_from_decoder Zen 2; uops_dispatched Zen 1)
 *   f   = ex_ret_ops / ops dispatched (ex_ret_cops on Zen 2, same code 0xC1)
 *   C   = (C - S_d) x f + (C - S_d) x (1 - f) + S_d
 *
 * Zen 4 splits the cycles retiring nothing without penalties:
 * ex_no_retire.{empty, not_complete, other, thread_not_selected} (event
 * 0xD6, their OR is ex_no_retire.all = ex_ret_ops:c=1:i=1), the memory part
 * of not_complete being ex_no_retire.load_not_complete, the split perf's
 * backend_bound_memory uses (amdzen4/pipeline.json).  Names are perf's
 * amdzen JSON names (tools/perf/pmu-events/arch/x86/amdzen{1,2,3,4}/).
 * The retire width is 8 (amdzen2 ex_ret_cops: "0 to 8"), so the histogram
 * sweeps ex_ret_ops:c=1..8: bin 0 = no op retired, bin k = c=k minus
 * c=k+1, bin 8 = c=8. */
#include <math.h>

#include "arch/tree.h"

#define WIDTH 8

enum {
	I_NONE,
	I_CYCLES, I_DISP, I_DISP_C1, I_DISP_STALLS, I_RET_OPS, I_NORET_MEASURED,
	I_EMPTY, I_NC, I_LOAD_NC, I_OTHER, I_NOT_SELECTED,
	I_R1, /* I_R1 + k - 1 = ex_ret_ops:cmask=k */
	I_STALLS = I_R1 + WIDTH, I_NORET, I_RET_SUM,
	I_COUNT
};

#define R(k) in[I_R1 + (k) - 1]
#define RET(k) { "ex_ret_ops:cmask=" #k "|ex_ret_cops:cmask=" #k, false }
#define DISP_NAMES(mod) "de_src_op_disp.all" mod "|de_dis_uops_from_decoder" mod \
	"|uops_dispatched" mod

static const struct tree_input_def inputs[I_COUNT] = {
	[I_CYCLES] = { "ls_not_halted_cyc|cycles", false },
	[I_DISP] = { DISP_NAMES(""), false },
	[I_DISP_C1] = { DISP_NAMES(":cmask=1"), false },
	[I_DISP_STALLS] = { DISP_NAMES(":cmask=1:inv=1"), false },
	[I_RET_OPS] = { "ex_ret_ops|ex_ret_cops", false },
	[I_NORET_MEASURED] = { "ex_ret_ops:cmask=1:inv=1|ex_ret_cops:cmask=1:inv=1|"
			       "ex_no_retire.all", false },
	[I_EMPTY] = { "ex_no_retire.empty", false },
	[I_NC] = { "ex_no_retire.not_complete", false },
	[I_LOAD_NC] = { "ex_no_retire.load_not_complete", false },
	[I_OTHER] = { "ex_no_retire.other", false },
	[I_NOT_SELECTED] = { "ex_no_retire.thread_not_selected", false },
	[I_R1] = RET(1), [I_R1 + 1] = RET(2), [I_R1 + 2] = RET(3), [I_R1 + 3] = RET(4),
	[I_R1 + 4] = RET(5), [I_R1 + 5] = RET(6), [I_R1 + 6] = RET(7), [I_R1 + 7] = RET(8),
	[I_STALLS] = { "ops dispatched:cmask=1:inv=1 (or ls_not_halted_cyc and "
		       "de_src_op_disp.all:cmask=1)", true },
	[I_NORET] = { "ex_ret_ops:cmask=1:inv=1 (or ls_not_halted_cyc and ex_ret_ops:cmask=1)",
		      true },
	[I_RET_SUM] = { "ex_ret_ops:cmask=1..8", true },
};

static double first(double a, double b)
{
	return isnan(a) ? b : a;
}

static void derive(double *in, const struct tree_ctx *ctx)
{
	double sum = 0;

	(void)ctx;
	in[I_STALLS] = first(in[I_DISP_STALLS], in[I_CYCLES] - in[I_DISP_C1]);
	in[I_NORET] = first(in[I_NORET_MEASURED], in[I_CYCLES] - R(1));
	for (int k = 1; k <= WIDTH; k++)
		sum += R(k);
	in[I_RET_SUM] = sum;
}

#define FN(name) static double name(const double *in, const struct tree_ctx *c)

FN(f_cycles) { (void)c; return in[I_CYCLES]; }
FN(f_stalls) { (void)c; return in[I_STALLS]; }
static double dispatching(const double *in) { return in[I_CYCLES] - in[I_STALLS]; }
static double retired_fraction(const double *in) { return in[I_RET_OPS] / in[I_DISP]; }
FN(f_retired) { (void)c; return dispatching(in) * retired_fraction(in); }
FN(f_non_retired) { (void)c; return dispatching(in) * (1 - retired_fraction(in)); }
FN(f_noret) { (void)c; return in[I_NORET]; }
FN(f_empty) { (void)c; return in[I_EMPTY]; }
FN(f_load_nc) { (void)c; return in[I_LOAD_NC]; }
FN(f_nc_other) { (void)c; return in[I_NC] - in[I_LOAD_NC]; }
FN(f_other) { (void)c; return in[I_OTHER]; }
FN(f_not_selected) { (void)c; return in[I_NOT_SELECTED]; }
/* every cycle falls in one bin: no op retired, or c=1 */
FN(f_ilp_total) { (void)c; return in[I_NORET] + R(1); }
FN(f_ilp_mean) { (void)c; return in[I_RET_SUM] / (in[I_NORET] + R(1)); }

#define BIN(k) FN(f_bin##k) { (void)c; return R(k) - R((k) + 1); }
BIN(1) BIN(2) BIN(3) BIN(4) BIN(5) BIN(6) BIN(7)
FN(f_bin8) { (void)c; return R(8); }

#define SRC "Core2 cycle accounting (seeds/000) on MODERN-PMU.md 1.1, AMD Zen"
#define NR "amdzen4 ex_no_retire (event 0xD6)"
#define P TN_PART
#define CY(id, label, flags, fn, src, ...) \
	{ id, label, UNIT_CYCLES, flags, { __VA_ARGS__ }, fn, NULL, src }
#define MID(k) CY("ilp." #k, #k " ops retired", P, f_bin##k, \
		  SRC ", ex_ret_ops:c=" #k " - :c=" #k "+1", I_R1 + (k) - 1, I_R1 + (k))

static const struct tree_node_def nodes[] = {
	CY("cycles", "Total cycles", TN_EXACT, f_cycles, SRC ", ls_not_halted_cyc", I_CYCLES),
	CY("cycles.retired", "Retired (dispatching ops that retire)", P | TN_USEFUL, f_retired,
	   SRC ", (C - S) x ex_ret_ops / ops dispatched", I_CYCLES, I_STALLS, I_RET_OPS, I_DISP),
	CY("cycles.non_retired", "Non-retired (ops thrown away)", P, f_non_retired,
	   SRC ", (C - S) x (1 - ex_ret_ops / ops dispatched)", I_CYCLES, I_STALLS, I_RET_OPS,
	   I_DISP),
	CY("cycles.stalls", "Stalls (no op dispatched)", P, f_stalls,
	   SRC ", C - de_src_op_disp.all:c=1", I_STALLS),
	CY("no_retire", "Cycles retiring nothing", TN_EXACT, f_noret,
	   NR ", ex_ret_ops:c=1:i=1 = ex_no_retire.all", I_NORET),
	CY("no_retire.empty", "ROB empty (front end, refill after a flush)", P, f_empty,
	   NR ", ex_no_retire.empty", I_EMPTY),
	CY("no_retire.load_not_complete", "Oldest op waits on a load", P, f_load_nc,
	   NR ", ex_no_retire.load_not_complete", I_LOAD_NC),
	CY("no_retire.not_complete_other", "Oldest op not complete, not a load", P, f_nc_other,
	   NR ", ex_no_retire.not_complete - load_not_complete", I_NC, I_LOAD_NC),
	CY("no_retire.other", "Other", P, f_other, NR ", ex_no_retire.other", I_OTHER),
	CY("no_retire.thread_not_selected", "The other SMT thread retired", P, f_not_selected,
	   NR ", ex_no_retire.thread_not_selected", I_NOT_SELECTED),
	{ "ilp", "Cycles in the ILP sweep", UNIT_CYCLES, TN_EXACT, { I_NORET, I_R1 },
	  f_ilp_total, "cycles", SRC ", bins add up to the cycles" },
	CY("ilp.0", "0 ops retired", P, f_noret, SRC ", ex_ret_ops:c=1:i=1", I_NORET),
	MID(1), MID(2), MID(3), MID(4), MID(5), MID(6), MID(7),
	CY("ilp.8", "8 ops retired (the most per cycle)", P, f_bin8, SRC ", ex_ret_ops:c=8",
	   I_R1 + 7),
	{ "ilp.mean", "Mean ops retired per cycle", UNIT_UOPS_PER_CYCLE, 0,
	  { I_RET_SUM, I_NORET, I_R1 }, f_ilp_mean, NULL, SRC ", sum k x bin(k) / sum bin(k)" },
};

static const char *const models[] = {
	"amd64_fam19h_zen4", "amd64_fam19h_zen3", "amd64_fam17h_zen2", "amd64_fam17h_zen1",
	"amd64_fam1ah_zen5", NULL,
};

const struct tree_def tree_zen = {
	TREE_ZEN, "zen", "Core2 cycle accounting on AMD Zen", inputs, I_COUNT, nodes,
	(int)(sizeof(nodes) / sizeof(nodes[0])), derive, models,
};
