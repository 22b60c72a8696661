/* The Arm trees: the master equation (arch/tree-arm.c) and TopDown level 1
 * as perf computes it on Neoverse (arch/tree-topdown-arm.c), on the
 * hand-made examples/neoverse-{n1,v2}-handmade.counts, every node against
 * perf's formulas worked out here by hand:
 *   neoverse-n2-v2/metrics.json (N2, V2)
 *     frontend_bound  = SSF / (C * #slots) - BR_MIS_PRED / C
 *     bad_speculation = (1 - OP_RETIRED / OP_SPEC) * (1 - SS / (C * #slots))
 *                       + 4 * BR_MIS_PRED / C
 *     backend_bound   = SSB / (C * #slots) - 3 * BR_MIS_PRED / C
 *     retiring        = sbsa.json: OP_RETIRED / OP_SPEC * (1 - SS / (#slots * C))
 *   neoverse-v1/metrics.json (V1): frontend_bound and bad_speculation with 8
 *     written in for #slots, the rest sbsa.json's
 * (perf prints them times 100; the tree keeps fractions). */
#include "tests/unit/tree-helpers.h"

#define REL 1e-12

static void expect(const struct tree_result *r, const char *id, double want)
{
	th_assert_value(r, id, want, REL);
	assert_int_equal(th_warn(r, id), 0);
}

/* Evaluates TREE on TEXT with MODEL and #slots SLOTS (0: the model's). */
static void eval_slots(struct tree_result *r, enum arch_tree tree, const char *model,
		       const char *text, double slots)
{
	struct counts c;
	struct tree_ctx ctx = { .model = model_find(model), .slots = slots };

	assert_non_null(ctx.model);
	th_counts(&c, text);
	tree_eval(tree_def_pick(tree, ctx.model, &c), &c, &ctx, r);
	counts_free(&c);
}

static void test_n1_example(void **state)
{
	struct tree_result r;
	(void)state;

	const struct tree_def *def = th_eval_example(&r, TREE_ARM, model_find("arm_n1"),
						     "neoverse-n1-handmade.counts", false);
	assert_int_equal(def->id, TREE_ARM);
	/* C = 1e9; S = STALL_FRONTEND + STALL_BACKEND = 150e6 + 350e6;
	 * f = INST_RETIRED / INST_SPEC = 1400e6 / 1750e6 */
	double c = 1e9, s = 150e6 + 350e6, f = 1400e6 / 1750e6;
	expect(&r, "cycles", c);
	expect(&r, "cycles.retired", (c - s) * f);
	expect(&r, "cycles.non_retired", (c - s) * (1 - f));
	expect(&r, "cycles.stalls", s);
	expect(&r, "cycles.stalls.frontend", 150e6);
	expect(&r, "cycles.stalls.backend", 350e6);
	/* N1 has no memory-bound stall event: all of the back end is unaccounted */
	expect(&r, "cycles.stalls.backend.unaccounted", 350e6);
	expect(&r, "ipc", 1.4);
	expect(&r, "retired_fraction", 0.8);
	/* the master equation's parts add up */
	th_assert_value(&r, "cycles", tree_value(&r, "cycles.retired") +
			tree_value(&r, "cycles.non_retired") + tree_value(&r, "cycles.stalls"), REL);
	/* every node has a value but the ILP histogram's: N1 has no counter
	 * threshold (FEAT_PMUv3_TH), the file no INST_RETIRED:th=k sweep */
	for (int i = 0; i < def->n_nodes; i++)
		assert_int_equal(r.v[i].state,
				 strncmp(def->nodes[i].id, "ilp", 3) ? NODE_VALUE : NODE_MISSING);
	/* perf has no TopDown for N1 (no slot events): the tree does not fit it */
	assert_false(tree_fits_model(TREE_TOPDOWN, model_find("arm_n1")));
	assert_true(tree_fits_model(TREE_ARM, model_find("arm_n1")));
	/* without a model, the variant whose events the file holds, and its model */
	def = th_eval_example(&r, TREE_ARM, NULL, "neoverse-n1-handmade.counts", false);
	assert_string_equal(def->models[0], "arm_n1");
	expect(&r, "cycles.retired", (c - s) * f);
}

static void test_v2_example_arm(void **state)
{
	struct tree_result r;
	(void)state;

	const struct tree_def *def = th_eval_example(&r, TREE_ARM, NULL,
						     "neoverse-v2-handmade.counts", false);
	assert_string_equal(def->models[0], "arm_v2");
	/* S = 120e6 + 280e6; f = OP_RETIRED / OP_SPEC = 2400e6 / 3000e6 */
	double c = 1e9, s = 120e6 + 280e6, f = 2400e6 / 3000e6;
	expect(&r, "cycles", c);
	expect(&r, "cycles.retired", (c - s) * f);
	expect(&r, "cycles.non_retired", (c - s) * (1 - f));
	expect(&r, "cycles.stalls", s);
	expect(&r, "cycles.stalls.frontend", 120e6);
	expect(&r, "cycles.stalls.backend", 280e6);
	expect(&r, "cycles.stalls.backend.memory", 160e6);
	expect(&r, "cycles.stalls.backend.unaccounted", 280e6 - 160e6);
	expect(&r, "stall", 400e6);  /* STALL = the stalls: no mismatch */
	expect(&r, "ipc", 2.0);
	expect(&r, "retired_fraction", 0.8);
	th_assert_value(&r, "cycles", tree_value(&r, "cycles.retired") +
			tree_value(&r, "cycles.non_retired") + tree_value(&r, "cycles.stalls"), REL);
	th_assert_value(&r, "cycles.stalls.backend",
			tree_value(&r, "cycles.stalls.backend.memory") +
			tree_value(&r, "cycles.stalls.backend.unaccounted"), REL);
	for (int i = 0; i < def->n_nodes; i++)
		assert_int_equal(r.v[i].state,
				 strncmp(def->nodes[i].id, "ilp", 3) ? NODE_VALUE : NODE_MISSING);
}

static void test_v2_example_topdown(void **state)
{
	struct tree_result r;
	(void)state;

	const struct tree_def *def = th_eval_example(&r, TREE_TOPDOWN, model_find("arm_v2"),
						     "neoverse-v2-handmade.counts", false);
	/* V2's default #slots: 8 */
	double c = 1e9, w = 8, ssf = 1600e6, ssb = 2400e6, ss = 4000e6, br = 10e6;
	double f = 2400e6 / 3000e6;
	expect(&r, "slots", w * c);
	expect(&r, "topdown", 1);
	expect(&r, "topdown.frontend_bound", ssf / (c * w) - br / c);
	expect(&r, "topdown.bad_speculation", (1 - f) * (1 - ss / (c * w)) + 4 * br / c);
	expect(&r, "topdown.backend_bound", ssb / (c * w) - 3 * br / c);
	expect(&r, "topdown.retiring", f * (1 - ss / (w * c)));
	/* the figures: 0.19, 0.14, 0.27, 0.40 */
	th_assert_value(&r, "topdown.frontend_bound", 0.19, 1e-12);
	th_assert_value(&r, "topdown.bad_speculation", 0.14, 1e-12);
	th_assert_value(&r, "topdown.backend_bound", 0.27, 1e-12);
	th_assert_value(&r, "topdown.retiring", 0.40, 1e-12);
	/* level 1 adds up to 1 (STALL_SLOT = the front- and back-end slots) */
	double sum = 0;
	for (int i = 0; i < def->n_nodes; i++) {
		assert_int_equal(r.v[i].state, NODE_VALUE);
		if (r.v[i].depth == 1)
			sum += r.v[i].value;
	}
	assert_true(fabs(sum - 1) < 1e-12);
	assert_true(tree_fits_model(TREE_TOPDOWN, model_find("arm_v2")));
	/* without a model: the N2/V2 formulas with V2's 8 slots */
	def = th_eval_example(&r, TREE_TOPDOWN, NULL, "neoverse-v2-handmade.counts", false);
	assert_string_equal(def->models[0], "arm_v2");
	expect(&r, "slots", 8 * c);
	expect(&r, "topdown.retiring", 0.40);
}

/* #slots: the host's caps/slots (tree_ctx.slots) wins over the model's
 * default, which stands in when the kernel has none (N2: 5). */
static const char n2_counts[] =
	"CPU_CYCLES,1000\nSTALL_SLOT_FRONTEND,1200\nSTALL_SLOT_BACKEND,1800\n"
	"STALL_SLOT,3000\nOP_RETIRED,1500\nOP_SPEC,2000\nBR_MIS_PRED,10\n";

static void test_n2_slots(void **state)
{
	struct tree_result r;
	(void)state;

	for (int k = 0; k < 2; k++) {
		double w = k == 0 ? 5 : 8;  /* the default, then a caps/slots of 8 */
		eval_slots(&r, TREE_TOPDOWN, "arm_n2", n2_counts, k == 0 ? 0 : 8);
		expect(&r, "slots", w * 1000);
		th_assert_value(&r, "topdown.frontend_bound", 1200 / (1000 * w) - 10.0 / 1000, REL);
		th_assert_value(&r, "topdown.bad_speculation",
				(1 - 0.75) * (1 - 3000 / (1000 * w)) + 4 * 10.0 / 1000, REL);
		th_assert_value(&r, "topdown.backend_bound", 1800 / (1000 * w) - 3 * 10.0 / 1000,
				REL);
		th_assert_value(&r, "topdown.retiring", 0.75 * (1 - 3000 / (1000 * w)), REL);
		/* these parts add up to 1 at any width */
		assert_int_equal(th_warn(&r, "topdown"), 0);
	}
	/* no caps/slots and no default (a model without slot events): not
	 * measured, as perf's NaN #slots */
	struct counts c;
	struct tree_ctx ctx = { .model = model_find("arm_n1") };
	th_counts(&c, n2_counts);
	tree_eval(tree_def_pick(TREE_TOPDOWN, model_find("arm_n2"), &c), &c, &ctx, &r);
	counts_free(&c);
	th_assert_missing(&r, "slots");
	th_assert_missing(&r, "topdown.frontend_bound");
	assert_true(th_missing_has(&r, "topdown.retiring", "#slots (the PMU's caps/slots, "
				   "PMMIR_EL1.SLOTS; else the model's default)"));
}

/* V1: 8 written into frontend_bound and bad_speculation, #slots in the
 * sbsa.json backend_bound and retiring: they add up only at 8 slots. */
static void test_v1_formulas(void **state)
{
	struct tree_result r;
	(void)state;

	eval_slots(&r, TREE_TOPDOWN, "arm_v1", n2_counts, 0);
	assert_string_equal(r.def->models[0], "arm_v1");
	double c = 1000, br = 10, f = 0.75;
	expect(&r, "slots", 8 * c);
	expect(&r, "topdown.frontend_bound", 1200 / (c * 8) - 4 * br / c);
	expect(&r, "topdown.bad_speculation", (1 - f) * (1 - 3000 / (c * 8)) + 4 * br / c);
	expect(&r, "topdown.backend_bound", 1800 / (8 * c));
	expect(&r, "topdown.retiring", f * (1 - 3000 / (8 * c)));
	assert_int_equal(th_warn(&r, "topdown"), 0);
	/* a caps/slots of 6 moves only the #slots terms: no longer 1 */
	eval_slots(&r, TREE_TOPDOWN, "arm_v1", n2_counts, 6);
	th_assert_value(&r, "topdown.frontend_bound", 1200 / (c * 8) - 4 * br / c, REL);
	th_assert_value(&r, "topdown.backend_bound", 1800 / (6 * c), REL);
	th_assert_value(&r, "topdown.retiring", f * (1 - 3000 / (6 * c)), REL);
	double sum = tree_value(&r, "topdown.frontend_bound") +
		     tree_value(&r, "topdown.bad_speculation") +
		     tree_value(&r, "topdown.backend_bound") + tree_value(&r, "topdown.retiring");
	th_assert_value(&r, "topdown", 1, 0);
	/* 1 plus what the #slots terms moved: backend_bound up, retiring down */
	double moved = 1800 / (6 * c) - 1800 / (8 * c) - f * (3000 / (6 * c) - 3000 / (8 * c));
	assert_true(fabs(sum - (1 + moved)) < 1e-12);
	assert_true(fabs(sum - 1) > 0.01);
}

/* A57/A72 count no stall cycles: cycles, IPC and f only; the rest names
 * what it needs. */
static void test_cortex_a57_no_stalls(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_ARM, "arm_ac57", "CPU_CYCLES,1000\nINST_RETIRED,900\nINST_SPEC,1000\n",
		0, 0);
	expect(&r, "cycles", 1000);
	expect(&r, "ipc", 0.9);
	expect(&r, "retired_fraction", 0.9);
	th_assert_missing(&r, "cycles.retired");
	th_assert_missing(&r, "cycles.stalls");
	assert_true(th_missing_has(&r, "cycles.stalls.frontend", "STALL_FRONTEND"));
	assert_false(tree_fits_model(TREE_TOPDOWN, model_find("arm_ac57")));
}

/* Checks: STALL must equal the front- and back-end stalls; the memory stalls
 * cannot exceed the back-end stalls. */
static void test_checks(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_ARM, "arm_n2",
		"CPU_CYCLES,1000\nSTALL_FRONTEND,100\nSTALL_BACKEND,200\nSTALL,400\n"
		"STALL_BACKEND_MEM,250\nOP_RETIRED,80\nOP_SPEC,100\n", 0, 0);
	assert_true(th_warn(&r, "stall") & WARN_MISMATCH);
	assert_true(th_warn(&r, "cycles.stalls.backend.memory") & WARN_EXCEEDS_PARENT);
	assert_true(th_warn(&r, "cycles.stalls.backend.unaccounted") & WARN_NEGATIVE);
	/* topdown: STALL_SLOT not the sum of its parts is flagged */
	th_eval(&r, TREE_TOPDOWN, "arm_v2",
		"CPU_CYCLES,1000\nSTALL_SLOT_FRONTEND,1000\nSTALL_SLOT_BACKEND,1000\n"
		"STALL_SLOT,4000\nOP_RETIRED,80\nOP_SPEC,100\nBR_MIS_PRED,0\n", 0, 0);
	assert_true(th_warn(&r, "topdown") & WARN_SUM);
}

/* perf stat's spellings: lower case, the PMU wrapper, raw codes. */
static void test_perf_spellings(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_ARM, "arm_v2",
		"armv8_pmuv3_0/cpu_cycles/,1000\nr3a,800\nop_spec,1000\n"
		"armv8_pmuv3_0/event=0x23/,100\nstall_backend,200\nr4005,50\n", 0, 0);
	expect(&r, "cycles", 1000);
	expect(&r, "cycles.retired", 700 * 0.8);
	expect(&r, "cycles.stalls.frontend", 100);
	expect(&r, "cycles.stalls.backend.memory", 50);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_n1_example),
		cmocka_unit_test(test_v2_example_arm),
		cmocka_unit_test(test_v2_example_topdown),
		cmocka_unit_test(test_n2_slots),
		cmocka_unit_test(test_v1_formulas),
		cmocka_unit_test(test_cortex_a57_no_stalls),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_perf_spellings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
