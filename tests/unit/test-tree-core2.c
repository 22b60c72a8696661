/* The Core2 cycle-accounting tree (arch/tree-core2.c) against hand-computed
 * values.  Method: Levinthal, "Cycle Accounting Analysis on Intel Core2
 * Processors" (seeds/000) and the VTune course slides (seeds/002).
 *
 * The reference data set used below (all values are normalized counts):
 *
 *   CPU_CLK_UNHALTED.CORE            1,000,000   cycles
 *   RS_UOPS_DISPATCHED.CYCLES_NONE     400,000   stalls, eq. 2 (= C(1) of the sweep)
 *   RS_UOPS_DISPATCHED               1,500,000   dispatched uops
 *   UOPS_RETIRED.ANY                 1,000,000
 *   UOPS_RETIRED.FUSED                 200,000   retired_uops_executed = 1,200,000
 *   INST_RETIRED.ANY_P                 800,000
 *   MEM_LOAD_RETIRED.L1D_LINE_MISS      10,000
 *   MEM_LOAD_RETIRED.L2_LINE_MISS        1,000
 *   MEM_LOAD_RETIRED.DTLB_MISS           2,000
 *   PAGE_WALKS.CYCLES                   30,000   (only in some tests)
 *   LOAD_BLOCK.STA                       1,000
 *   LOAD_BLOCK.OVERLAP_STORE             1,000
 *   LOAD_BLOCK.UNTIL_RETIRE                500
 *   ILD_STALL                              500
 *   FP_ASSIST                               50
 *   IDLE_DURING_DIV                      7,000   (cycles)
 *   RESOURCE_STALLS.BR_MISS_CLEAR       11,000   (cycles)
 */
#include "tests/unit/tree-helpers.h"

#define REL 1e-9

#define MASTER                                        \
	"CPU_CLK_UNHALTED.CORE,1000000\n"             \
	"RS_UOPS_DISPATCHED.CYCLES_NONE,400000\n"     \
	"RS_UOPS_DISPATCHED,1500000\n"                \
	"UOPS_RETIRED.ANY,1000000\n"                  \
	"UOPS_RETIRED.FUSED,200000\n"

#define STALL_EVENTS                                  \
	"MEM_LOAD_RETIRED.L1D_LINE_MISS,10000\n"      \
	"MEM_LOAD_RETIRED.L2_LINE_MISS,1000\n"        \
	"MEM_LOAD_RETIRED.DTLB_MISS,2000\n"           \
	"LOAD_BLOCK.STA,1000\n"                       \
	"LOAD_BLOCK.OVERLAP_STORE,1000\n"             \
	"LOAD_BLOCK.UNTIL_RETIRE,500\n"               \
	"ILD_STALL,500\n"                             \
	"FP_ASSIST,50\n"                              \
	"IDLE_DURING_DIV,7000\n"                      \
	"RESOURCE_STALLS.BR_MISS_CLEAR,11000\n"

/* C(k) = RS_UOPS_DISPATCHED:cmask=k:inv=1, cycles with fewer than k uops
 * dispatched; C(1) is RS_UOPS_DISPATCHED.CYCLES_NONE (400,000, in MASTER). */
#define SWEEP_2_7                                     \
	"RS_UOPS_DISPATCHED:cmask=2:inv=1,500000\n"   \
	"RS_UOPS_DISPATCHED:cmask=3:inv=1,650000\n"   \
	"RS_UOPS_DISPATCHED:cmask=4:inv=1,800000\n"   \
	"RS_UOPS_DISPATCHED:cmask=5:inv=1,900000\n"   \
	"RS_UOPS_DISPATCHED:cmask=6:inv=1,960000\n"   \
	"RS_UOPS_DISPATCHED:cmask=7:inv=1,1000000\n"

static const char *const stall_parts[] = {
	"cycles.stalls.l2_hit", "cycles.stalls.l2_miss", "cycles.stalls.dtlb_miss",
	"cycles.stalls.load_block_sta", "cycles.stalls.load_block_overlap_store",
	"cycles.stalls.load_block_until_retire", "cycles.stalls.ild_stall",
	"cycles.stalls.fp_assist", "cycles.stalls.div", "cycles.stalls.br_miss_clear",
};
#define N_STALL_PARTS (sizeof(stall_parts) / sizeof(stall_parts[0]))

static double pct(const struct tree_result *r, const char *id)
{
	int i = tree_node_index(r->def, id);

	assert_true(i >= 0);
	return r->v[i].pct_parent;
}

static enum node_state state(const struct tree_result *r, const char *id)
{
	int i = tree_node_index(r->def, id);

	assert_true(i >= 0);
	return r->v[i].state;
}

/* Name of the derived input (cycles dispatching uops). */
static const char *derived_input_name(const struct tree_result *r)
{
	for (int k = 1; k < r->def->n_inputs; k++)
		if (r->def->inputs[k].derived)
			return r->def->inputs[k].name;
	fail();
	return NULL;
}

/* Master equation with RS_UOPS_DISPATCHED.CYCLES_ANY (= RS_UOPS_DISPATCHED:C=1)
 * measured: 625,000.
 *   uop_dispatch_rate = 1,500,000 / 625,000                 = 2.4
 *   retired           = 1,200,000 / 2.4                     = 500,000
 *   non_retired (eq.3)= (1,500,000 - 1,200,000) / 2.4       = 125,000
 *   stalls (eq. 2)    = 400,000
 * The three need not add up to cycles here (1,025,000): the paper calls the
 * decomposition an approximation, and the measured C=1 count wins.
 * Slides: (1 - 1,200,000/1,500,000) x 625,000 / 1,000,000 = 0.2 x 0.625
 *         = 0.125 = non_retired / cycles. */
static void test_master_equation_measured(void **state_)
{
	struct tree_result r;

	(void)state_;
	th_eval(&r, TREE_CORE2, NULL, MASTER "RS_UOPS_DISPATCHED.CYCLES_ANY,625000\n", 0, 0);
	th_assert_value(&r, "cycles", 1000000, REL);
	th_assert_value(&r, "uop_dispatch_rate", 2.4, REL);
	th_assert_value(&r, "cycles.retired", 500000, REL);
	th_assert_value(&r, "cycles.non_retired", 125000, REL);
	th_assert_value(&r, "cycles.stalls", 400000, REL);

	double slides = (1.0 - (1000000.0 + 200000.0) / 1500000.0) * 625000.0 / 1000000.0;
	assert_true(fabs(slides - 0.125) < 1e-12);
	assert_true(fabs(tree_value(&r, "cycles.non_retired") / tree_value(&r, "cycles") -
			 slides) < 1e-12);
	/* percent of the parent (cycles) */
	assert_true(fabs(pct(&r, "cycles.retired") - 50.0) < 1e-9);
	assert_true(fabs(pct(&r, "cycles.non_retired") - 12.5) < 1e-9);
	assert_true(fabs(pct(&r, "cycles.stalls") - 40.0) < 1e-9);
	assert_true(isnan(pct(&r, "cycles")));            /* a root */
	assert_true(isnan(pct(&r, "uop_dispatch_rate"))); /* a root, not cycles */
	assert_int_equal(th_warn(&r, "cycles.retired"), 0);
	assert_int_equal(th_warn(&r, "cycles.non_retired"), 0);
}

/* The same libpfm4 spelling for the measured C=1 count. */
static void test_master_equation_measured_pfm_name(void **state_)
{
	struct tree_result r;

	(void)state_;
	th_eval(&r, TREE_CORE2, NULL, MASTER "RS_UOPS_DISPATCHED:c=1,625000\n", 0, 0);
	th_assert_value(&r, "uop_dispatch_rate", 2.4, REL);
	th_assert_value(&r, "cycles.retired", 500000, REL);
	th_assert_value(&r, "cycles.non_retired", 125000, REL);
	/* the plain C=1 count is not taken for stalls (C=1:I=1) */
	th_assert_value(&r, "cycles.stalls", 400000, REL);
}

/* Master equation with C=1 derived: CPU_CLK_UNHALTED.CORE ~ C=1 + C=1:I=1, so
 *   C=1               = 1,000,000 - 400,000                 = 600,000
 *   uop_dispatch_rate = 1,500,000 / 600,000                 = 2.5
 *   retired           = 1,200,000 / 2.5                     = 480,000
 *   non_retired       = 300,000 / 2.5                       = 120,000
 *   retired + non_retired + stalls = 480,000 + 120,000 + 400,000 = cycles (eq. 1)
 * Slides: (1 - 1.2M/1.5M) x 600,000 / 1,000,000 = 0.12 = 120,000 / 1,000,000. */
static void test_master_equation_derived(void **state_)
{
	struct tree_result r;

	(void)state_;
	th_eval(&r, TREE_CORE2, NULL, MASTER, 0, 0);
	th_assert_value(&r, "uop_dispatch_rate", 2.5, REL);
	th_assert_value(&r, "cycles.retired", 480000, REL);
	th_assert_value(&r, "cycles.non_retired", 120000, REL);
	th_assert_value(&r, "cycles.stalls", 400000, REL);

	double sum = tree_value(&r, "cycles.retired") + tree_value(&r, "cycles.non_retired") +
		     tree_value(&r, "cycles.stalls");
	assert_true(fabs(sum - tree_value(&r, "cycles")) < 1e-6);

	double slides = (1.0 - (1000000.0 + 200000.0) / 1500000.0) * 600000.0 / 1000000.0;
	assert_true(fabs(slides - 0.12) < 1e-12);
	assert_true(fabs(tree_value(&r, "cycles.non_retired") / tree_value(&r, "cycles") -
			 slides) < 1e-12);
	assert_true(fabs(pct(&r, "cycles.retired") - 48.0) < 1e-9);
	/* no stall events: the whole of the stalls is unaccounted */
	th_assert_value(&r, "cycles.stalls.unaccounted", 400000, REL);
	for (size_t i = 0; i < N_STALL_PARTS; i++)
		th_assert_missing(&r, stall_parts[i]);
}

/* Without C=1 and without stalls the dispatch rate cannot be had: the
 * retired / non-retired split and the rate are not measured, never 0. */
static void test_master_equation_missing(void **state_)
{
	struct tree_result r;

	(void)state_;
	th_eval(&r, TREE_CORE2, NULL,
		"CPU_CLK_UNHALTED.CORE,1000000\n"
		"RS_UOPS_DISPATCHED,1500000\n"
		"UOPS_RETIRED.ANY,1000000\n", 0, 0);
	th_assert_value(&r, "cycles", 1000000, REL);
	th_assert_missing(&r, "cycles.retired");
	th_assert_missing(&r, "cycles.non_retired");
	th_assert_missing(&r, "cycles.stalls");
	th_assert_missing(&r, "cycles.stalls.unaccounted");
	th_assert_missing(&r, "uop_dispatch_rate");
	assert_true(isnan(tree_value(&r, "cycles.retired")));
	assert_true(th_missing_has(&r, "cycles.retired", "UOPS_RETIRED.FUSED"));
	assert_false(th_missing_has(&r, "cycles.retired", "UOPS_RETIRED.ANY"));
	assert_true(th_missing_has(&r, "cycles.non_retired", derived_input_name(&r)));
	assert_true(th_missing_has(&r, "uop_dispatch_rate", derived_input_name(&r)));
	assert_false(th_missing_has(&r, "uop_dispatch_rate", "RS_UOPS_DISPATCHED"));
	assert_true(th_missing_has(&r, "cycles.stalls", "RS_UOPS_DISPATCHED.CYCLES_NONE"));
	assert_int_equal(tree_inputs_present(&r), 3);
}

/* Every stall component with the desktop penalties (paper's table):
 *   l2_hit    (10,000 - 1,000) x 12          = 108,000
 *   l2_miss   1,000 x 165                    = 165,000
 *   dtlb_miss 2,000 x 4 + 30,000 walk cycles =  38,000 (PAGE_WALKS.CYCLES refinement)
 *   load_block_sta           1,000 x 5       =   5,000
 *   load_block_overlap_store 1,000 x 6       =   6,000
 *   load_block_until_retire    500 x 20      =  10,000
 *   ild_stall                  500 x 6       =   3,000
 *   fp_assist                   50 x 200     =  10,000
 *   div           IDLE_DURING_DIV (cycles)   =   7,000
 *   br_miss_clear (cycles)                   =  11,000
 *   sum                                      = 363,000
 *   unaccounted = 400,000 - 363,000          =  37,000 */
static void test_stalls_desktop(void **state_)
{
	struct tree_result r;

	(void)state_;
	th_eval(&r, TREE_CORE2, NULL,
		MASTER STALL_EVENTS "PAGE_WALKS.CYCLES,30000\n", 0, 0);
	th_assert_value(&r, "cycles.stalls.l2_hit", 108000, REL);
	th_assert_value(&r, "cycles.stalls.l2_miss", 165000, REL);
	th_assert_value(&r, "cycles.stalls.dtlb_miss", 38000, REL);
	th_assert_value(&r, "cycles.stalls.load_block_sta", 5000, REL);
	th_assert_value(&r, "cycles.stalls.load_block_overlap_store", 6000, REL);
	th_assert_value(&r, "cycles.stalls.load_block_until_retire", 10000, REL);
	th_assert_value(&r, "cycles.stalls.ild_stall", 3000, REL);
	th_assert_value(&r, "cycles.stalls.fp_assist", 10000, REL);
	th_assert_value(&r, "cycles.stalls.div", 7000, REL);
	th_assert_value(&r, "cycles.stalls.br_miss_clear", 11000, REL);
	th_assert_value(&r, "cycles.stalls.unaccounted", 37000, REL);
	/* percent of the parent (stalls): 165,000 / 400,000 */
	assert_true(fabs(pct(&r, "cycles.stalls.l2_miss") - 41.25) < 1e-9);
	assert_true(fabs(pct(&r, "cycles.stalls.unaccounted") - 9.25) < 1e-9);
	/* a consistent data set: nothing flagged anywhere */
	for (int i = 0; i < r.def->n_nodes; i++) {
		if (r.v[i].warn)
			fprintf(stderr, "%s flagged %#x\n", r.def->nodes[i].id, r.v[i].warn);
		assert_int_equal(r.v[i].warn, 0);
	}
}

/* Without PAGE_WALKS.CYCLES the DTLB penalty is the flat ~10: 2,000 x 10. */
static void test_dtlb_flat_penalty(void **state_)
{
	struct tree_result r;

	(void)state_;
	th_eval(&r, TREE_CORE2, NULL, MASTER STALL_EVENTS, 0, 0);
	th_assert_value(&r, "cycles.stalls.dtlb_miss", 20000, REL);
	/* 363,000 - 38,000 + 20,000 = 345,000; 400,000 - 345,000 */
	th_assert_value(&r, "cycles.stalls.unaccounted", 55000, REL);
	assert_int_equal(th_warn(&r, "cycles.stalls.unaccounted"), 0);
}

/* Server penalties: L2 miss ~300, the rest unchanged.
 *   l2_miss 1,000 x 300 = 300,000; sum = 363,000 - 165,000 + 300,000 = 498,000
 *   unaccounted = 400,000 - 498,000 = -98,000: the penalties over-count, which
 *   the paper says can happen, so WARN_OVERCOUNT and not WARN_NEGATIVE. */
static void test_stalls_server_overcount(void **state_)
{
	struct tree_result r;

	(void)state_;
	th_eval(&r, TREE_CORE2, NULL,
		MASTER STALL_EVENTS "PAGE_WALKS.CYCLES,30000\n", 0, 1);
	th_assert_value(&r, "cycles.stalls.l2_miss", 300000, REL);
	th_assert_value(&r, "cycles.stalls.l2_hit", 108000, REL);
	th_assert_value(&r, "cycles.stalls.dtlb_miss", 38000, REL);
	th_assert_value(&r, "cycles.stalls.fp_assist", 10000, REL);
	th_assert_value(&r, "cycles.stalls.unaccounted", -98000, REL);
	unsigned w = th_warn(&r, "cycles.stalls.unaccounted");
	assert_true(w & WARN_OVERCOUNT);
	assert_false(w & WARN_NEGATIVE);
	assert_false(w & WARN_EXCEEDS_PARENT);
	assert_int_equal(th_warn(&r, "cycles.stalls.l2_miss"), 0);
	assert_true(fabs(pct(&r, "cycles.stalls.unaccounted") + 24.5) < 1e-9);
}

/* Components whose events are missing are left out of the sum, not counted
 * as 0 and not shown as 0:
 *   l2_miss 1,000 x 165 = 165,000, fp_assist 50 x 200 = 10,000,
 *   br_miss_clear 11,000; unaccounted = 400,000 - 186,000 = 214,000. */
static void test_missing_components_left_out(void **state_)
{
	struct tree_result r;

	(void)state_;
	th_eval(&r, TREE_CORE2, NULL,
		"CPU_CLK_UNHALTED.CORE,1000000\n"
		"RS_UOPS_DISPATCHED.CYCLES_NONE,400000\n"
		"MEM_LOAD_RETIRED.L2_LINE_MISS,1000\n"
		"FP_ASSIST,50\n"
		"RESOURCE_STALLS.BR_MISS_CLEAR,11000\n"
		"PAGE_WALKS.CYCLES,30000\n", 0, 0);
	th_assert_value(&r, "cycles.stalls.l2_miss", 165000, REL);
	th_assert_value(&r, "cycles.stalls.fp_assist", 10000, REL);
	th_assert_value(&r, "cycles.stalls.br_miss_clear", 11000, REL);
	th_assert_missing(&r, "cycles.stalls.l2_hit");
	/* PAGE_WALKS.CYCLES alone does not make a DTLB component */
	th_assert_missing(&r, "cycles.stalls.dtlb_miss");
	th_assert_missing(&r, "cycles.stalls.load_block_sta");
	th_assert_missing(&r, "cycles.stalls.load_block_overlap_store");
	th_assert_missing(&r, "cycles.stalls.load_block_until_retire");
	th_assert_missing(&r, "cycles.stalls.ild_stall");
	th_assert_missing(&r, "cycles.stalls.div");
	assert_true(th_missing_has(&r, "cycles.stalls.l2_hit", "MEM_LOAD_RETIRED.L1D_LINE_MISS"));
	assert_false(th_missing_has(&r, "cycles.stalls.l2_hit", "MEM_LOAD_RETIRED.L2_LINE_MISS"));
	assert_true(th_missing_has(&r, "cycles.stalls.dtlb_miss", "MEM_LOAD_RETIRED.DTLB_MISS"));
	assert_true(th_missing_has(&r, "cycles.stalls.div", "IDLE_DURING_DIV"));
	assert_true(isnan(tree_value(&r, "cycles.stalls.l2_hit")));
	assert_true(isnan(pct(&r, "cycles.stalls.l2_hit")));
	th_assert_value(&r, "cycles.stalls.unaccounted", 214000, REL);
	assert_int_equal(th_warn(&r, "cycles.stalls.unaccounted"), 0);
	/* ... and without the stalls themselves there is no remainder */
	th_eval(&r, TREE_CORE2, NULL,
		"CPU_CLK_UNHALTED.CORE,1000000\nMEM_LOAD_RETIRED.L2_LINE_MISS,1000\n", 0, 0);
	th_assert_value(&r, "cycles.stalls.l2_miss", 165000, REL);
	th_assert_missing(&r, "cycles.stalls");
	th_assert_missing(&r, "cycles.stalls.unaccounted");
	/* the L2 hit component needs both line-miss events */
	th_eval(&r, TREE_CORE2, NULL,
		"RS_UOPS_DISPATCHED.CYCLES_NONE,400000\n"
		"MEM_LOAD_RETIRED.L1D_LINE_MISS,10000\n", 0, 0);
	th_assert_missing(&r, "cycles.stalls.l2_hit");
	assert_true(th_missing_has(&r, "cycles.stalls.l2_hit", "MEM_LOAD_RETIRED.L2_LINE_MISS"));
	th_assert_value(&r, "cycles.stalls.unaccounted", 400000, REL);
}

/* A component above its parent: 3,000 x 165 = 495,000 > 400,000 stalls
 * (more than the 5% tolerance) -> WARN_EXCEEDS_PARENT; the remainder
 * 400,000 - 495,000 = -95,000 over-counts. */
static void test_component_exceeds_stalls(void **state_)
{
	struct tree_result r;

	(void)state_;
	th_eval(&r, TREE_CORE2, NULL,
		"CPU_CLK_UNHALTED.CORE,1000000\n"
		"RS_UOPS_DISPATCHED.CYCLES_NONE,400000\n"
		"MEM_LOAD_RETIRED.L2_LINE_MISS,3000\n", 0, 0);
	th_assert_value(&r, "cycles.stalls.l2_miss", 495000, REL);
	assert_true(th_warn(&r, "cycles.stalls.l2_miss") & WARN_EXCEEDS_PARENT);
	assert_false(th_warn(&r, "cycles.stalls.l2_miss") & WARN_NEGATIVE);
	th_assert_value(&r, "cycles.stalls.unaccounted", -95000, REL);
	assert_true(th_warn(&r, "cycles.stalls.unaccounted") & WARN_OVERCOUNT);
	/* within the tolerance (2,500 x 165 = 412,500 <= 420,000): not flagged */
	th_eval(&r, TREE_CORE2, NULL,
		"CPU_CLK_UNHALTED.CORE,1000000\n"
		"RS_UOPS_DISPATCHED.CYCLES_NONE,400000\n"
		"MEM_LOAD_RETIRED.L2_LINE_MISS,2500\n", 0, 0);
	th_assert_value(&r, "cycles.stalls.l2_miss", 412500, REL);
	assert_false(th_warn(&r, "cycles.stalls.l2_miss") & WARN_EXCEEDS_PARENT);
}

/* cpi = 1,000,000 / 800,000 = 1.25
 * fsb.utilization = BUS_DRDY_CLOCKS.ALL_AGENTS / CPU_CLK_UNHALTED.BUS
 *                 = 30,000 / 120,000 = 0.25
 * fsb.bandwidth = 64 x 50,000 x 2.4e9 / 1,000,000 / 1e6
 *               = 3,200,000 bytes x 2,400 per second / 1e6 = 7,680 MB/s */
static void test_cpi_and_fsb(void **state_)
{
	struct tree_result r;
	const char *text =
		"CPU_CLK_UNHALTED.CORE,1000000\n"
		"INST_RETIRED.ANY_P,800000\n"
		"BUS_DRDY_CLOCKS.ALL_AGENTS,30000\n"
		"CPU_CLK_UNHALTED.BUS,120000\n"
		"BUS_TRANS_BURST.ALL_AGENTS,50000\n";

	(void)state_;
	th_eval(&r, TREE_CORE2, NULL, text, 2.4e9, 0);
	th_assert_value(&r, "cpi", 1.25, REL);
	assert_int_equal(state(&r, "fsb"), NODE_HEADING);
	th_assert_value(&r, "fsb.utilization", 0.25, REL);
	th_assert_value(&r, "fsb.bandwidth", 7680, REL);
	assert_true(isnan(pct(&r, "fsb.bandwidth")));
	int i = tree_node_index(r.def, "fsb.bandwidth");
	assert_false(r.v[i].no_clock);

	/* without --clock-hz the bandwidth is not measured, and says why */
	th_eval(&r, TREE_CORE2, NULL, text, 0, 0);
	th_assert_missing(&r, "fsb.bandwidth");
	assert_true(r.v[i].no_clock);
	assert_int_equal(r.v[i].missing, 0);
	th_assert_value(&r, "fsb.utilization", 0.25, REL);
	th_assert_value(&r, "cpi", 1.25, REL);

	/* without INST_RETIRED no cpi; without the bus clock no utilization */
	th_eval(&r, TREE_CORE2, NULL, "CPU_CLK_UNHALTED.CORE,1000000\n", 2.4e9, 0);
	th_assert_missing(&r, "cpi");
	assert_true(th_missing_has(&r, "cpi", "INST_RETIRED.ANY_P"));
	th_assert_missing(&r, "fsb.utilization");
	th_assert_missing(&r, "fsb.bandwidth");
	assert_true(th_missing_has(&r, "fsb.bandwidth", "BUS_TRANS_BURST.ALL_AGENTS"));
}

/* The ILP sweep C(1..7) = 400,000 500,000 650,000 800,000 900,000 960,000
 * 1,000,000:
 *   bin 0 = C(1) = 400,000; bin k = C(k+1) - C(k):
 *   100,000 150,000 150,000 100,000 60,000 40,000 (sum 1,000,000 = C(7))
 *   mean = (1x100,000 + 2x150,000 + 3x150,000 + 4x100,000 + 5x60,000
 *           + 6x40,000) / 1,000,000 = 1,790,000 / 1,000,000 = 1.79 */
static void test_ilp_sweep(void **state_)
{
	struct tree_result r;
	static const double bins[7] = { 400000, 100000, 150000, 150000, 100000, 60000, 40000 };

	(void)state_;
	th_eval(&r, TREE_CORE2, NULL, MASTER SWEEP_2_7, 0, 0);
	th_assert_value(&r, "ilp", 1000000, REL);
	for (int k = 0; k < 7; k++) {
		char id[16];
		snprintf(id, sizeof(id), "ilp.%d", k);
		th_assert_value(&r, id, bins[k], REL);
		assert_true(fabs(pct(&r, id) - bins[k] / 1e4) < 1e-9);
		assert_int_equal(th_warn(&r, id), 0);
	}
	th_assert_value(&r, "ilp.mean", 1.79, REL);
	assert_int_equal(th_warn(&r, "ilp"), 0);
	assert_true(isnan(pct(&r, "ilp.mean")));

	/* a step missing: no histogram, but C(7) alone still gives the total */
	th_eval(&r, TREE_CORE2, NULL,
		MASTER "RS_UOPS_DISPATCHED:cmask=2:inv=1,500000\n"
		"RS_UOPS_DISPATCHED:cmask=7:inv=1,1000000\n", 0, 0);
	th_assert_value(&r, "ilp", 1000000, REL);
	th_assert_missing(&r, "ilp.0");
	th_assert_missing(&r, "ilp.3");
	th_assert_missing(&r, "ilp.mean");
	assert_true(th_missing_has(&r, "ilp.3", "RS_UOPS_DISPATCHED:cmask=4:inv=1"));
	assert_true(th_missing_has(&r, "ilp.mean", "RS_UOPS_DISPATCHED:cmask=4:inv=1"));
	assert_true(th_missing_has(&r, "ilp.0", "RS_UOPS_DISPATCHED:cmask=6:inv=1"));
	assert_false(th_missing_has(&r, "ilp.0", "RS_UOPS_DISPATCHED:cmask=2:inv=1"));

	/* a sweep of no cycles at all has no histogram (not bins of 0) */
	th_eval(&r, TREE_CORE2, NULL,
		"RS_UOPS_DISPATCHED.CYCLES_NONE,0\n"
		"RS_UOPS_DISPATCHED:cmask=2:inv=1,0\n"
		"RS_UOPS_DISPATCHED:cmask=3:inv=1,0\n"
		"RS_UOPS_DISPATCHED:cmask=4:inv=1,0\n"
		"RS_UOPS_DISPATCHED:cmask=5:inv=1,0\n"
		"RS_UOPS_DISPATCHED:cmask=6:inv=1,0\n"
		"RS_UOPS_DISPATCHED:cmask=7:inv=1,0\n", 0, 0);
	th_assert_value(&r, "ilp", 0, REL);
	for (int k = 0; k < 7; k++) {
		char id[16];
		snprintf(id, sizeof(id), "ilp.%d", k);
		th_assert_missing(&r, id);
	}
	th_assert_missing(&r, "ilp.mean");
}

/* ilp (C(7), every cycle) must equal CPU_CLK_UNHALTED.CORE within 5%:
 * 1,000,000 vs 1,060,000 differs by 5.7% -> WARN_MISMATCH;
 * 1,000,000 vs 1,040,000 differs by 3.8% -> not flagged. */
static void test_ilp_cycles_mismatch(void **state_)
{
	struct tree_result r;

	(void)state_;
	th_eval(&r, TREE_CORE2, NULL,
		"CPU_CLK_UNHALTED.CORE,1060000\n"
		"RS_UOPS_DISPATCHED.CYCLES_NONE,400000\n" SWEEP_2_7, 0, 0);
	th_assert_value(&r, "ilp", 1000000, REL);
	assert_true(th_warn(&r, "ilp") & WARN_MISMATCH);
	assert_int_equal(th_warn(&r, "cycles"), 0);

	th_eval(&r, TREE_CORE2, NULL,
		"CPU_CLK_UNHALTED.CORE,1040000\n"
		"RS_UOPS_DISPATCHED.CYCLES_NONE,400000\n" SWEEP_2_7, 0, 0);
	assert_false(th_warn(&r, "ilp") & WARN_MISMATCH);

	/* below as well: 1,000,000 vs 940,000 is 6.4% */
	th_eval(&r, TREE_CORE2, NULL,
		"CPU_CLK_UNHALTED.CORE,940000\n"
		"RS_UOPS_DISPATCHED.CYCLES_NONE,400000\n" SWEEP_2_7, 0, 0);
	assert_true(th_warn(&r, "ilp") & WARN_MISMATCH);
}

/* A decreasing sweep, C(3) = 480,000 < C(2) = 500,000 (noise or
 * multiplexing): bin 2 = -20,000 is flagged negative; bin 3 = 800,000 -
 * 480,000 = 320,000. */
static void test_ilp_decreasing_sweep(void **state_)
{
	struct tree_result r;

	(void)state_;
	th_eval(&r, TREE_CORE2, NULL,
		"CPU_CLK_UNHALTED.CORE,1000000\n"
		"RS_UOPS_DISPATCHED.CYCLES_NONE,400000\n"
		"RS_UOPS_DISPATCHED:cmask=2:inv=1,500000\n"
		"RS_UOPS_DISPATCHED:cmask=3:inv=1,480000\n"
		"RS_UOPS_DISPATCHED:cmask=4:inv=1,800000\n"
		"RS_UOPS_DISPATCHED:cmask=5:inv=1,900000\n"
		"RS_UOPS_DISPATCHED:cmask=6:inv=1,960000\n"
		"RS_UOPS_DISPATCHED:cmask=7:inv=1,1000000\n", 0, 0);
	th_assert_value(&r, "ilp.2", -20000, REL);
	assert_true(th_warn(&r, "ilp.2") & WARN_NEGATIVE);
	th_assert_value(&r, "ilp.3", 320000, REL);
	assert_false(th_warn(&r, "ilp.3") & WARN_NEGATIVE);
	assert_false(th_warn(&r, "ilp.1") & WARN_NEGATIVE);
	/* mean = (100,000 - 40,000 + 960,000 + 400,000 + 300,000 + 240,000) / 1e6 */
	th_assert_value(&r, "ilp.mean", 1.96, REL);
}

/* Sample counts with periods are normalized (samples x period) first:
 *   cycles  500 x 2,000,000 = 1e9; stalls 200 x 2,000,000 = 4e8
 *   L2_LINE_MISS 100 x 10,000 = 1e6 -> x 165 = 1.65e8 (41.25% of stalls)
 *   FP_ASSIST 20 x 10,000 = 2e5 -> x 200 = 4e7
 *   unaccounted = 4e8 - 1.65e8 - 4e7 = 1.95e8
 * With SAV = cycles SAV / penalty the sample ratio is the cycle ratio:
 * FP_ASSIST 20 samples / 200 stall samples = 4e7 / 4e8. */
static void test_sample_counts_normalized(void **state_)
{
	struct tree_result r;

	(void)state_;
	th_eval(&r, TREE_CORE2, NULL,
		"CPU_CLK_UNHALTED.CORE,500,2000000\n"
		"RS_UOPS_DISPATCHED.CYCLES_NONE,200,2000000\n"
		"MEM_LOAD_RETIRED.L2_LINE_MISS,100,10000\n"
		"FP_ASSIST,20,10000\n", 0, 0);
	th_assert_value(&r, "cycles", 1e9, REL);
	th_assert_value(&r, "cycles.stalls", 4e8, REL);
	th_assert_value(&r, "cycles.stalls.l2_miss", 1.65e8, REL);
	th_assert_value(&r, "cycles.stalls.fp_assist", 4e7, REL);
	th_assert_value(&r, "cycles.stalls.unaccounted", 1.95e8, REL);
	assert_true(fabs(pct(&r, "cycles.stalls.fp_assist") - 100.0 * 20 / 200) < 1e-9);
	assert_true(fabs(pct(&r, "cycles.stalls") - 40.0) < 1e-9);
}

/* RS_UOPS_DISPATCHED with cmask=1, inv=1 under every spelling resolves to the
 * stalls input, and not to RS_UOPS_DISPATCHED or its C=1 count. */
static void test_stall_event_spellings(void **state_)
{
	static const char *const names[] = {
		"RS_UOPS_DISPATCHED.CYCLES_NONE",   /* paper / VTune name */
		"RS_UOPS_DISPATCH.CYCLES_NONE",     /* the slides' spelling */
		"RS_UOPS_DISPATCHED:c=1:i=1",       /* libpfm4 */
		"rs_uops_dispatched:i=1:c=1",       /* libpfm4, any case and order */
		"RS_UOPS_DISPATCHED:cmask=1:inv=1", /* the paper's sweep spelling */
		"r18000a0",                         /* perf raw: cmask 1, inv, 0xa0 */
		"r1d100a0",                         /* + usr, int, en bits */
	};
	struct tree_result r;
	char text[256];

	(void)state_;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(text, sizeof(text),
			 "CPU_CLK_UNHALTED.CORE,1000000\n%s,400000\n"
			 "MEM_LOAD_RETIRED.L2_LINE_MISS,1000\n", names[i]);
		th_eval(&r, TREE_CORE2, NULL, text, 0, 0);
		if (state(&r, "cycles.stalls") != NODE_VALUE)
			fprintf(stderr, "%s not resolved to stalls\n", names[i]);
		th_assert_value(&r, "cycles.stalls", 400000, REL);
		th_assert_value(&r, "cycles.stalls.unaccounted", 235000, REL);
		th_assert_missing(&r, "uop_dispatch_rate"); /* not RS_UOPS_DISPATCHED */
		assert_true(th_missing_has(&r, "uop_dispatch_rate", "RS_UOPS_DISPATCHED"));
		th_assert_missing(&r, "ilp.0");
		assert_int_equal(tree_inputs_present(&r), 3);
	}
}

/* The whole sweep under mixed libpfm4, paper and raw spellings gives the
 * same histogram as test_ilp_sweep. */
static void test_ilp_sweep_spellings(void **state_)
{
	struct tree_result r;

	(void)state_;
	th_eval(&r, TREE_CORE2, NULL,
		"CPU_CLK_UNHALTED:CORE_P,1000000\n"
		"r1d100a0,400000\n"
		"RS_UOPS_DISPATCHED:c=2:i=1,500000\n"
		"rs_uops_dispatched:i=1:c=3,650000\n"
		"r48000a0,800000\n"
		"RS_UOPS_DISPATCHED:cmask=5:inv=1,900000\n"
		"r6d100a0,960000\n"
		"RS_UOPS_DISPATCHED:C=7:I=1,1000000\n", 0, 0);
	th_assert_value(&r, "cycles", 1000000, REL);
	th_assert_value(&r, "ilp.0", 400000, REL);
	th_assert_value(&r, "ilp.1", 100000, REL);
	th_assert_value(&r, "ilp.2", 150000, REL);
	th_assert_value(&r, "ilp.3", 150000, REL);
	th_assert_value(&r, "ilp.4", 100000, REL);
	th_assert_value(&r, "ilp.5", 60000, REL);
	th_assert_value(&r, "ilp.6", 40000, REL);
	th_assert_value(&r, "ilp.mean", 1.79, REL);
	assert_int_equal(th_warn(&r, "ilp"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_master_equation_measured),
		cmocka_unit_test(test_master_equation_measured_pfm_name),
		cmocka_unit_test(test_master_equation_derived),
		cmocka_unit_test(test_master_equation_missing),
		cmocka_unit_test(test_stalls_desktop),
		cmocka_unit_test(test_dtlb_flat_penalty),
		cmocka_unit_test(test_stalls_server_overcount),
		cmocka_unit_test(test_missing_components_left_out),
		cmocka_unit_test(test_component_exceeds_stalls),
		cmocka_unit_test(test_cpi_and_fsb),
		cmocka_unit_test(test_ilp_sweep),
		cmocka_unit_test(test_ilp_cycles_mismatch),
		cmocka_unit_test(test_ilp_decreasing_sweep),
		cmocka_unit_test(test_sample_counts_normalized),
		cmocka_unit_test(test_stall_event_spellings),
		cmocka_unit_test(test_ilp_sweep_spellings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
