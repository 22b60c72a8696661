/* The zen tree (the master equation on Zen, dispatch basis; Zen 4's
 * no-retire split; the retired-ops ILP histogram) on the hand-made
 * examples/zen4-handmade.counts, values worked out by hand. */
#include "tests/unit/tree-helpers.h"

#define REL 1e-12

static void expect(const struct tree_result *r, const char *id, double want)
{
	th_assert_value(r, id, want, REL);
	assert_int_equal(th_warn(r, id), 0);
}

static void test_zen4_example(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval_example(&r, TREE_ZEN, NULL, "zen4-handmade.counts", false);
	/* S = C - dispatched:c=1 = 1e9 - 650e6; f = 1800e6 / 2100e6 */
	double s = 1e9 - 650e6, f = 1800e6 / 2100e6;
	expect(&r, "cycles", 1e9);
	expect(&r, "cycles.stalls", s);
	expect(&r, "cycles.retired", (1e9 - s) * f);
	expect(&r, "cycles.non_retired", (1e9 - s) * (1 - f));
	expect(&r, "no_retire", 480e6);
	expect(&r, "no_retire.empty", 100e6);
	expect(&r, "no_retire.load_not_complete", 200e6);
	expect(&r, "no_retire.not_complete_other", 320e6 - 200e6);
	expect(&r, "no_retire.other", 40e6);
	expect(&r, "no_retire.thread_not_selected", 20e6);
	static const double g[] = { 520e6, 400e6, 300e6, 250e6, 150e6, 100e6, 50e6, 30e6 };
	double sum = 480e6, ops = 0;
	expect(&r, "ilp.0", 480e6);
	for (int k = 1; k <= 8; k++) {
		char id[16];
		double bin = k < 8 ? g[k - 1] - g[k] : g[7];
		snprintf(id, sizeof(id), "ilp.%d", k);
		expect(&r, id, bin);
		sum += bin;
		ops += k * bin;
	}
	expect(&r, "ilp", 1e9);
	th_assert_value(&r, "ilp", sum, REL);
	/* sum k x bin = ops retired = ex_ret_ops: 1.8 per cycle */
	expect(&r, "ilp.mean", ops / sum);
	th_assert_value(&r, "ilp.mean", 1800e6 / 1e9, 1e-12);
}

/* Zen 5 (perf's amdzen5 names, 8 ops a cycle): the master equation's parts
 * add up to the cycles, the no-retire causes to the cycles retiring nothing,
 * the ILP bins to the cycles, and sum k x bin(k) to ex_ret_ops. */
static void test_zen5_example(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval_example(&r, TREE_ZEN, model_find("zen5"), "zen5-handmade.counts", false);
	/* S = C - dispatched:c=1 = 1e9 - 700e6; f = 2200e6 / 2600e6 */
	double s = 1e9 - 700e6, f = 2200e6 / 2600e6;
	expect(&r, "cycles", 1e9);
	expect(&r, "cycles.stalls", s);
	expect(&r, "cycles.retired", (1e9 - s) * f);
	expect(&r, "cycles.non_retired", (1e9 - s) * (1 - f));
	th_assert_value(&r, "cycles", s + (1e9 - s) * f + (1e9 - s) * (1 - f), REL);
	expect(&r, "no_retire", 400e6);
	expect(&r, "no_retire.empty", 80e6);
	expect(&r, "no_retire.load_not_complete", 170e6);
	expect(&r, "no_retire.not_complete_other", 270e6 - 170e6);
	expect(&r, "no_retire.other", 30e6);
	expect(&r, "no_retire.thread_not_selected", 20e6);
	th_assert_value(&r, "no_retire", 80e6 + 170e6 + 100e6 + 30e6 + 20e6, REL);
	static const double g[] = { 600e6, 480e6, 380e6, 290e6, 200e6, 120e6, 80e6, 50e6 };
	double sum = 400e6, ops = 0;
	expect(&r, "ilp.0", 400e6);
	for (int k = 1; k <= 8; k++) {
		char id[16];
		double bin = k < 8 ? g[k - 1] - g[k] : g[7];
		snprintf(id, sizeof(id), "ilp.%d", k);
		expect(&r, id, bin);
		sum += bin;
		ops += k * bin;
	}
	expect(&r, "ilp", 1e9);
	th_assert_value(&r, "ilp", sum, REL);
	th_assert_value(&r, "ilp.mean", ops / sum, REL);
	th_assert_value(&r, "ilp.mean", 2200e6 / 1e9, 1e-12);
}

/* Zen 2 names (ex_ret_cops, de_dis_uops_from_decoder); no ex_no_retire:
 * not measured, and bin 0 from the cycles minus c=1. */
static void test_zen2_names(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_ZEN, NULL,
		"ls_not_halted_cyc,1000\nex_ret_cops,900\nde_dis_uops_from_decoder,1000\n"
		"de_dis_uops_from_decoder:cmask=1,700\nex_ret_cops:cmask=1,600\n"
		"ex_ret_cops:cmask=2,200\n", 0, 0);
	expect(&r, "cycles.stalls", 300);
	expect(&r, "cycles.retired", 700 * 0.9);
	th_assert_missing(&r, "no_retire.empty");
	expect(&r, "ilp.0", 400);
	expect(&r, "ilp.1", 400);
	th_assert_missing(&r, "ilp.2");
}

/* Checks: the no-retire causes must add up to the cycles retiring nothing. */
static void test_no_retire_sum_checked(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_ZEN, NULL,
		"ls_not_halted_cyc,1000\nex_no_retire.all,500\nex_no_retire.empty,100\n"
		"ex_no_retire.not_complete,100\nex_no_retire.load_not_complete,50\n"
		"ex_no_retire.other,10\nex_no_retire.thread_not_selected,10\n", 0, 0);
	assert_true(th_warn(&r, "no_retire") & WARN_SUM);
}

/* The AMD paper's tree (Drongowski, seeds/004) on Zen 4's events where
 * they exist; the rest (L2 fills, bandwidth) stays not measured. */
static void test_amd_tree_on_zen(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval_example(&r, TREE_AMD, NULL, "zen4-handmade.counts", false);
	double inst = 1500e6;
	expect(&r, "ipc", inst / 1e9);
	expect(&r, "dc.request_rate", 900e6 / inst);
	expect(&r, "dc.miss_rate", 30e6 / inst);
	expect(&r, "dc.miss_ratio", 30e6 / 900e6);
	expect(&r, "ic.miss_ratio", 2e6 / 400e6);
	expect(&r, "l2.miss_rate", 5e6 / inst);
	/* L1 DTLB misses that hit the L2 DTLB: all - all_l2_miss */
	expect(&r, "dtlb.l1_miss_rate", 9e6 / inst);
	expect(&r, "dtlb.l2_miss_ratio", 3e6 / 9e6);
	expect(&r, "branch.mispred_ratio", 6e6 / 300e6);
	th_assert_missing(&r, "l2.miss_ratio");
	th_assert_missing(&r, "bandwidth.read");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zen4_example),
		cmocka_unit_test(test_zen5_example),
		cmocka_unit_test(test_zen2_names),
		cmocka_unit_test(test_no_retire_sum_checked),
		cmocka_unit_test(test_amd_tree_on_zen),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
