/* The Core2 cycle-accounting tree.
 * Levinthal, "Cycle Accounting Analysis on Intel Core2 Processors"
 * (seeds/000): master equation (1), stalls (2), non-retired cycles (3),
 * stall decomposition by count x penalty with a signed "unaccounted"
 * remainder, FSB utilization and bandwidth, the ILP sweep.  The VTune slides
 * (seeds/002) give the same non-retired formula as a fraction. */
#include <math.h>

#include "arch/ilp.h"
#include "arch/tree.h"

enum {
	I_NONE,
	I_CYCLES, I_STALLS, I_DISPATCH, I_DISPATCH_ANY, I_UOPS_ANY, I_UOPS_FUSED,
	I_INST, I_L1D_LINE, I_L2_LINE, I_DTLB, I_WALK_CYCLES, I_LB_STA, I_LB_OVERLAP,
	I_LB_UNTIL_RETIRE, I_ILD, I_FP_ASSIST, I_BR_MISS_CLEAR, I_IDLE_DIV,
	I_DRDY_ALL, I_CLK_BUS, I_BURST_ALL,
	I_LT2, I_LT3, I_LT4, I_LT5, I_LT6, I_LT7,
	I_DISPATCH_CYCLES, /* derived */
	I_COUNT
};

static const struct tree_input_def inputs[I_COUNT] = {
	[I_CYCLES] = { "CPU_CLK_UNHALTED.CORE", false },
	[I_STALLS] = { "RS_UOPS_DISPATCHED.CYCLES_NONE", false },
	[I_DISPATCH] = { "RS_UOPS_DISPATCHED", false },
	[I_DISPATCH_ANY] = { "RS_UOPS_DISPATCHED.CYCLES_ANY", false },
	[I_UOPS_ANY] = { "UOPS_RETIRED.ANY", false },
	[I_UOPS_FUSED] = { "UOPS_RETIRED.FUSED", false },
	[I_INST] = { "INST_RETIRED.ANY_P", false },
	[I_L1D_LINE] = { "MEM_LOAD_RETIRED.L1D_LINE_MISS", false },
	[I_L2_LINE] = { "MEM_LOAD_RETIRED.L2_LINE_MISS", false },
	[I_DTLB] = { "MEM_LOAD_RETIRED.DTLB_MISS", false },
	[I_WALK_CYCLES] = { "PAGE_WALKS.CYCLES", false },
	[I_LB_STA] = { "LOAD_BLOCK.STA", false },
	[I_LB_OVERLAP] = { "LOAD_BLOCK.OVERLAP_STORE", false },
	[I_LB_UNTIL_RETIRE] = { "LOAD_BLOCK.UNTIL_RETIRE", false },
	[I_ILD] = { "ILD_STALL", false },
	[I_FP_ASSIST] = { "FP_ASSIST", false },
	[I_BR_MISS_CLEAR] = { "RESOURCE_STALLS.BR_MISS_CLEAR", false },
	[I_IDLE_DIV] = { "IDLE_DURING_DIV", false },
	[I_DRDY_ALL] = { "BUS_DRDY_CLOCKS.ALL_AGENTS", false },
	[I_CLK_BUS] = { "CPU_CLK_UNHALTED.BUS", false },
	[I_BURST_ALL] = { "BUS_TRANS_BURST.ALL_AGENTS", false },
	[I_LT2] = { "RS_UOPS_DISPATCHED:cmask=2:inv=1", false },
	[I_LT3] = { "RS_UOPS_DISPATCHED:cmask=3:inv=1", false },
	[I_LT4] = { "RS_UOPS_DISPATCHED:cmask=4:inv=1", false },
	[I_LT5] = { "RS_UOPS_DISPATCHED:cmask=5:inv=1", false },
	[I_LT6] = { "RS_UOPS_DISPATCHED:cmask=6:inv=1", false },
	[I_LT7] = { "RS_UOPS_DISPATCHED:cmask=7:inv=1", false },
	[I_DISPATCH_CYCLES] = { "RS_UOPS_DISPATCHED.CYCLES_ANY (or CPU_CLK_UNHALTED.CORE "
				"with RS_UOPS_DISPATCHED.CYCLES_NONE)", true },
};

/* Cycles dispatching uops: measured with cmask=1, or total minus stalls
 * (the paper: CPU_CLK_UNHALTED.CORE ~ C=1 + C=1:I=1). */
static void derive(double *in, const struct tree_ctx *ctx)
{
	(void)ctx;
	if (!isnan(in[I_DISPATCH_ANY]))
		in[I_DISPATCH_CYCLES] = in[I_DISPATCH_ANY];
	else if (!isnan(in[I_CYCLES]) && !isnan(in[I_STALLS]))
		in[I_DISPATCH_CYCLES] = in[I_CYCLES] - in[I_STALLS];
}

static double pen(const struct tree_ctx *ctx, enum penalty_id id)
{
	return ctx->pen->cycles[id];
}

static double f_cycles(const double *in, const struct tree_ctx *c) { (void)c; return in[I_CYCLES]; }
static double f_stalls(const double *in, const struct tree_ctx *c) { (void)c; return in[I_STALLS]; }

/* uop_dispatch_rate = RS_UOPS_DISPATCHED / RS_UOPS_DISPATCHED:C=1 */
static double f_dispatch_rate(const double *in, const struct tree_ctx *c)
{
	(void)c;
	return in[I_DISPATCH] / in[I_DISPATCH_CYCLES];
}

static double retired_uops(const double *in)
{
	return in[I_UOPS_ANY] + in[I_UOPS_FUSED];
}

/* Retired: retired uops over the dispatch rate (components proportional to
 * their uops). */
static double f_retired(const double *in, const struct tree_ctx *c)
{
	return retired_uops(in) / f_dispatch_rate(in, c);
}

/* eq. 3: (RS_UOPS_DISPATCHED - retired_uops_executed) / uop_dispatch_rate */
static double f_non_retired(const double *in, const struct tree_ctx *c)
{
	return (in[I_DISPATCH] - retired_uops(in)) / f_dispatch_rate(in, c);
}

static double f_l2_hit(const double *in, const struct tree_ctx *c)
{
	return (in[I_L1D_LINE] - in[I_L2_LINE]) * pen(c, PEN_L2_HIT);
}

static double f_l2_miss(const double *in, const struct tree_ctx *c)
{
	return in[I_L2_LINE] * pen(c, PEN_L2_MISS);
}

/* With PAGE_WALKS.CYCLES: DTLB_MISS x 4 + PAGE_WALKS.CYCLES, else x 10. */
static double f_dtlb(const double *in, const struct tree_ctx *c)
{
	if (!isnan(in[I_WALK_CYCLES]))
		return in[I_DTLB] * pen(c, PEN_DTLB_WALK) + in[I_WALK_CYCLES];
	return in[I_DTLB] * pen(c, PEN_DTLB_MISS);
}

static double f_lb_sta(const double *in, const struct tree_ctx *c)
{
	return in[I_LB_STA] * pen(c, PEN_LOAD_BLOCK_STA);
}

static double f_lb_overlap(const double *in, const struct tree_ctx *c)
{
	return in[I_LB_OVERLAP] * pen(c, PEN_LOAD_BLOCK_OVERLAP_STORE);
}

static double f_lb_until_retire(const double *in, const struct tree_ctx *c)
{
	return in[I_LB_UNTIL_RETIRE] * pen(c, PEN_LOAD_BLOCK_UNTIL_RETIRE);
}

static double f_ild(const double *in, const struct tree_ctx *c)
{
	return in[I_ILD] * pen(c, PEN_ILD_STALL);
}

static double f_fp_assist(const double *in, const struct tree_ctx *c)
{
	return in[I_FP_ASSIST] * pen(c, PEN_FP_ASSIST);
}

/* Already in cycles. */
static double f_br_miss_clear(const double *in, const struct tree_ctx *c) { (void)c; return in[I_BR_MISS_CLEAR]; }
static double f_div(const double *in, const struct tree_ctx *c) { (void)c; return in[I_IDLE_DIV]; }

static double f_cpi(const double *in, const struct tree_ctx *c)
{
	(void)c;
	return in[I_CYCLES] / in[I_INST];
}

/* BUS_DRDY_CLOCKS.ALL_AGENTS / CPU_CLK_UNHALTED.BUS */
static double f_fsb_util(const double *in, const struct tree_ctx *c)
{
	(void)c;
	return in[I_DRDY_ALL] / in[I_CLK_BUS];
}

/* 64 x BUS_TRANS_BURST.ALL_AGENTS x freq / CPU_CLK_UNHALTED.CORE, in MB/s */
static double f_fsb_bw(const double *in, const struct tree_ctx *c)
{
	return 64.0 * in[I_BURST_ALL] * c->clock_hz / in[I_CYCLES] / 1e6;
}

static bool sweep(const double *in, struct ilp_hist *h)
{
	const double s[7] = { in[I_STALLS], in[I_LT2], in[I_LT3], in[I_LT4],
			      in[I_LT5], in[I_LT6], in[I_LT7] };
	return ilp_from_sweep(s, 6, h);
}

static double ilp_bin(const double *in, int k)
{
	struct ilp_hist h;

	return sweep(in, &h) ? h.bins[k] : NAN;
}

static double f_ilp_total(const double *in, const struct tree_ctx *c) { (void)c; return in[I_LT7]; }
static double f_ilp0(const double *in, const struct tree_ctx *c) { (void)c; return ilp_bin(in, 0); }
static double f_ilp1(const double *in, const struct tree_ctx *c) { (void)c; return ilp_bin(in, 1); }
static double f_ilp2(const double *in, const struct tree_ctx *c) { (void)c; return ilp_bin(in, 2); }
static double f_ilp3(const double *in, const struct tree_ctx *c) { (void)c; return ilp_bin(in, 3); }
static double f_ilp4(const double *in, const struct tree_ctx *c) { (void)c; return ilp_bin(in, 4); }
static double f_ilp5(const double *in, const struct tree_ctx *c) { (void)c; return ilp_bin(in, 5); }
static double f_ilp6(const double *in, const struct tree_ctx *c) { (void)c; return ilp_bin(in, 6); }

static double f_ilp_mean(const double *in, const struct tree_ctx *c)
{
	struct ilp_hist h;

	(void)c;
	return sweep(in, &h) ? h.mean : NAN;
}

#define RATE_IN I_DISPATCH, I_DISPATCH_CYCLES
#define SWEEP_IN I_STALLS, I_LT2, I_LT3, I_LT4, I_LT5, I_LT6, I_LT7
#define PART TN_PART
#define SRC "Core2 cycle accounting"

static const struct tree_node_def nodes[] = {
	{ "cycles", "Total cycles", UNIT_CYCLES, 0, { I_CYCLES }, f_cycles, NULL,
	  SRC ", CPU_CLK_UNHALTED.CORE, eq. 1" },
	{ "cycles.retired", "Retired (dispatching retiring uops)", UNIT_CYCLES, PART | TN_USEFUL,
	  { I_UOPS_ANY, I_UOPS_FUSED, RATE_IN }, f_retired, NULL,
	  SRC ", (UOPS_RETIRED.ANY + FUSED) / uop_dispatch_rate" },
	{ "cycles.non_retired", "Non-retired (speculative uops)", UNIT_CYCLES, PART,
	  { I_UOPS_ANY, I_UOPS_FUSED, RATE_IN }, f_non_retired, NULL, SRC ", eq. 3" },
	{ "cycles.stalls", "Stalls (no uop dispatched)", UNIT_CYCLES, PART, { I_STALLS },
	  f_stalls, NULL, SRC ", eq. 2: RS_UOPS_DISPATCHED.CYCLES_NONE" },
	{ "cycles.stalls.l2_hit", "L2 hit (L1D line miss)", UNIT_CYCLES, PART,
	  { I_L1D_LINE, I_L2_LINE }, f_l2_hit, NULL,
	  SRC ", (L1D_LINE_MISS - L2_LINE_MISS) x ~12" },
	{ "cycles.stalls.l2_miss", "L2 miss", UNIT_CYCLES, PART, { I_L2_LINE }, f_l2_miss,
	  NULL, SRC ", L2_LINE_MISS x ~165 desktop / ~300 server" },
	{ "cycles.stalls.dtlb_miss", "L1 DTLB miss", UNIT_CYCLES, PART, { I_DTLB }, f_dtlb,
	  NULL, SRC ", DTLB_MISS x 10, or x 4 + PAGE_WALKS.CYCLES" },
	{ "cycles.stalls.load_block_sta", "Load blocked by store, unknown address",
	  UNIT_CYCLES, PART, { I_LB_STA }, f_lb_sta, NULL, SRC ", LOAD_BLOCK.STA x ~5" },
	{ "cycles.stalls.load_block_overlap_store", "Load blocked by overlapping store",
	  UNIT_CYCLES, PART, { I_LB_OVERLAP }, f_lb_overlap, NULL,
	  SRC ", LOAD_BLOCK.OVERLAP_STORE x ~6" },
	{ "cycles.stalls.load_block_until_retire", "Load split across lines", UNIT_CYCLES,
	  PART, { I_LB_UNTIL_RETIRE }, f_lb_until_retire, NULL,
	  SRC ", LOAD_BLOCK.UNTIL_RETIRE x ~20" },
	{ "cycles.stalls.ild_stall", "Length-changing prefix", UNIT_CYCLES, PART, { I_ILD },
	  f_ild, NULL, SRC ", ILD_STALL x 6" },
	{ "cycles.stalls.fp_assist", "FP software assist", UNIT_CYCLES, PART,
	  { I_FP_ASSIST }, f_fp_assist, NULL, SRC ", FP_ASSIST x ~200" },
	{ "cycles.stalls.div", "Idle during divide", UNIT_CYCLES, PART, { I_IDLE_DIV }, f_div,
	  NULL, SRC ", IDLE_DURING_DIV (cycles)" },
	{ "cycles.stalls.br_miss_clear", "Branch mispredict flush", UNIT_CYCLES, PART,
	  { I_BR_MISS_CLEAR }, f_br_miss_clear, NULL,
	  SRC ", RESOURCE_STALLS.BR_MISS_CLEAR (cycles)" },
	{ "cycles.stalls.unaccounted", "Unaccounted (FE, dependency chains, FSB)",
	  UNIT_CYCLES, PART | TN_REMAINDER | TN_SIGNED, { 0 }, NULL, NULL,
	  SRC ", Stalls - sum(P_i x N_i)" },
	{ "uop_dispatch_rate", "Uops per dispatching cycle", UNIT_UOPS_PER_CYCLE, 0,
	  { RATE_IN }, f_dispatch_rate, NULL,
	  SRC ", RS_UOPS_DISPATCHED / RS_UOPS_DISPATCHED:C=1" },
	{ "cpi", "Cycles per instruction", UNIT_RATIO, 0, { I_CYCLES, I_INST }, f_cpi, NULL,
	  "VTune slides, CPU_CLK_UNHALTED.CORE / INST_RETIRED.ANY" },
	{ "fsb", "Front-side bus", UNIT_NONE, TN_GROUP, { 0 }, NULL, NULL, SRC },
	{ "fsb.utilization", "Bus cycles moving data", UNIT_RATIO, 0,
	  { I_DRDY_ALL, I_CLK_BUS }, f_fsb_util, NULL,
	  SRC ", BUS_DRDY_CLOCKS.ALL_AGENTS / CPU_CLK_UNHALTED.BUS" },
	{ "fsb.bandwidth", "Bandwidth from cache lines", UNIT_MBPS, TN_CLOCK,
	  { I_BURST_ALL, I_CYCLES }, f_fsb_bw, NULL,
	  SRC ", 64 x BUS_TRANS_BURST.ALL_AGENTS x freq / CPU_CLK_UNHALTED.CORE" },
	{ "ilp", "Cycles in the ILP sweep", UNIT_CYCLES, 0, { I_LT7 }, f_ilp_total, "cycles",
	  SRC ", RS_UOPS_DISPATCHED:cmask=7:inv=1 counts every cycle" },
	{ "ilp.0", "0 uops dispatched", UNIT_CYCLES, PART, { SWEEP_IN }, f_ilp0, NULL,
	  SRC ", C(1)" },
	{ "ilp.1", "1 uop dispatched", UNIT_CYCLES, PART, { SWEEP_IN }, f_ilp1, NULL, SRC ", C(2) - C(1)" },
	{ "ilp.2", "2 uops dispatched", UNIT_CYCLES, PART, { SWEEP_IN }, f_ilp2, NULL, SRC ", C(3) - C(2)" },
	{ "ilp.3", "3 uops dispatched", UNIT_CYCLES, PART, { SWEEP_IN }, f_ilp3, NULL, SRC ", C(4) - C(3)" },
	{ "ilp.4", "4 uops dispatched", UNIT_CYCLES, PART, { SWEEP_IN }, f_ilp4, NULL, SRC ", C(5) - C(4)" },
	{ "ilp.5", "5 uops dispatched", UNIT_CYCLES, PART, { SWEEP_IN }, f_ilp5, NULL, SRC ", C(6) - C(5)" },
	{ "ilp.6", "6 uops dispatched", UNIT_CYCLES, PART, { SWEEP_IN }, f_ilp6, NULL, SRC ", C(7) - C(6)" },
	{ "ilp.mean", "Mean uops per cycle", UNIT_UOPS_PER_CYCLE, 0, { SWEEP_IN }, f_ilp_mean,
	  NULL, SRC ", sum k x bin(k) / C(7)" },
};

/* the CPU of the paper only (no models: a tree for every host) */
static const char *const models[] = { "core", NULL };

const struct tree_def tree_core2 = {
	.id = TREE_CORE2,
	.name = "core2",
	.title = "Core2 cycle accounting",
	.inputs = inputs,
	.n_inputs = I_COUNT,
	.nodes = nodes,
	.n_nodes = (int)(sizeof(nodes) / sizeof(nodes[0])),
	.derive = derive,
	.models = models,
};
