/* The intel tree (the Core2 master equation on SNB..SPR) on hand-made
 * counts: examples/skl-handmade.counts (perf stat -x, with perf's names),
 * the 12-port variant, raw cpu/event=../ terms resolved through a model,
 * and the checks (parts add up, ILP bins sum to cycles, no negatives). */
#include "tests/unit/tree-helpers.h"

#define REL 1e-12

static void expect(const struct tree_result *r, const char *id, double want)
{
	th_assert_value(r, id, want, REL);
	assert_int_equal(th_warn(r, id), 0);
}

static void test_skl_example(void **state)
{
	struct tree_result r;
	(void)state;

	const struct tree_def *def = th_eval_example(&r, TREE_INTEL, NULL,
						     "skl-handmade.counts", false);
	assert_non_null(strstr(def->title, "8 ports"));
	/* C = 1e9, S = 300e6, E = 700e6, f = 2400e6 / 2600e6 */
	double e = 1e9 - 300e6, f = 2400e6 / 2600e6;
	expect(&r, "cycles", 1e9);
	expect(&r, "cycles.retired", e * f);
	expect(&r, "cycles.non_retired", e * (1 - f));
	expect(&r, "cycles.stalls", 300e6);
	expect(&r, "cycles.stalls.memory", 180e6);
	expect(&r, "cycles.stalls.memory.l1", 180e6 - 120e6);
	expect(&r, "cycles.stalls.memory.l2", 120e6 - 90e6);
	expect(&r, "cycles.stalls.memory.l3", 90e6 - 60e6);
	expect(&r, "cycles.stalls.memory.dram", 60e6);
	expect(&r, "cycles.stalls.core", 300e6 - 180e6);
	expect(&r, "store_bound", 40e6);
	expect(&r, "recovery", 20e6);
	/* bins: S, then c=k minus c=k+1, the last c=8 */
	static const double g[] = { 700e6, 520e6, 360e6, 220e6, 110e6, 50e6, 20e6, 5e6 };
	double sum = 300e6, uops = 0;
	expect(&r, "ilp.0", 300e6);
	for (int k = 1; k <= 8; k++) {
		char id[16];
		double bin = k < 8 ? g[k - 1] - g[k] : g[7];
		snprintf(id, sizeof(id), "ilp.%d", k);
		expect(&r, id, bin);
		sum += bin;
		uops += k * bin;
	}
	expect(&r, "ilp", 1e9);
	th_assert_value(&r, "ilp", sum, REL);
	expect(&r, "ilp.mean", uops / sum);
	th_assert_value(&r, "ilp.mean", 1.985, 1e-12);
	assert_int_equal(tree_node_index(r.def, "ilp.9"), -1);
}

/* Sapphire Rapids: 12 ports, MEMORY_ACTIVITY and EXE_ACTIVITY.BOUND_ON_LOADS
 * as spr-metrics.json uses them. */
static void test_spr_12_ports(void **state)
{
	struct tree_result r;
	char text[2048];
	size_t n = 0;
	(void)state;

	n += (size_t)snprintf(text + n, sizeof(text) - n,
		"cycles,1200\nuops_executed.stalls,120\nuops_issued.any,3000\n"
		"uops_retired.slots,2700\nexe_activity.bound_on_loads,100\n"
		"memory_activity.stalls_l1d_miss,70\nmemory_activity.stalls_l2_miss,50\n"
		"memory_activity.stalls_l3_miss,20\ncycle_activity.stalls_total,120\n");
	for (int k = 1; k <= 12; k++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "cpu/uops_executed.thread,cmask=%d/,%d\n", k, 1160 - 80 * k);
	th_eval(&r, TREE_INTEL, NULL, text, 0, 0);
	assert_non_null(strstr(r.def->title, "12 ports"));
	expect(&r, "cycles.stalls", 120);
	expect(&r, "cycles.retired", 1080.0 * 2700 / 3000);
	expect(&r, "cycles.stalls.memory.l1", 30);
	expect(&r, "cycles.stalls.memory.dram", 20);
	expect(&r, "cycles.stalls.core", 20);
	for (int k = 1; k < 12; k++) {
		char id[16];
		snprintf(id, sizeof(id), "ilp.%d", k);
		expect(&r, id, 80);
	}
	expect(&r, "ilp.12", 1160 - 80 * 12);
	expect(&r, "ilp", 1200);
}

/* perf's raw spelling resolves through the model's rows: a small model of
 * our own with UOPS_EXECUTED.THREAD (0xB1, umask 1) and the cycles. */
static const struct arch_event mini_rows[] = {
	{ "CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED:THREAD_P", { .sel = 0x3c }, 0, 1, 0, "" },
	{ "UOPS_EXECUTED.THREAD", "UOPS_EXECUTED:THREAD", { .sel = 0xb1, .umask = 1 }, 0, -1, 0,
	  "" },
	{ NULL, NULL, { 0 }, 0, 0, 0, NULL },
};
static const struct arch_event *const mini_tables[] = { mini_rows, NULL };
static const struct arch_model mini = {
	.name = "mini", .pmu_prefix = "mini", .pfm_force = "skl", .desc = "test",
	.tree = TREE_INTEL, .cycles = "CPU_CLK_UNHALTED.THREAD", .tables = mini_tables,
};

static void test_raw_terms_through_model(void **state)
{
	struct tree_result r;
	struct counts c;
	struct penalties pen;
	(void)state;

	th_counts(&c, "1000,,cpu/event=0x3c/,1,100.00,,\n"
		      "250,,cpu/event=0xb1,umask=0x1,cmask=1,inv/,1,100.00,,\n"
		      "750,,cpu/event=0xb1,umask=0x01,cmask=0x1/,1,100.00,,\n"
		      "100,,r60001b1,1,100.00,,\n");
	penalties_default(&pen, 0);
	struct tree_ctx ctx = { .model = &mini, .pen = &pen };
	assert_true(fabs(counts_find(&c, &mini, "UOPS_EXECUTED.THREAD:cmask=1:inv=1")->value - 250)
		    < 1e-9);
	assert_true(fabs(counts_find(&c, &mini, "UOPS_EXECUTED.THREAD:c=6")->value - 100) < 1e-9);
	assert_null(counts_find(&c, &mini, "UOPS_EXECUTED.THREAD:cmask=2"));
	tree_eval(tree_def_pick(TREE_INTEL, &mini, &c), &c, &ctx, &r);
	th_assert_value(&r, "cycles", 1000, REL);
	th_assert_value(&r, "cycles.stalls", 250, REL);
	th_assert_value(&r, "ilp", 1000, REL);
	counts_free(&c);
}

/* The checks: a stall split that does not add up, bins that do not sum to
 * the cycles, a negative bin. */
static void test_checks(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_INTEL, NULL,
		"CPU_CLK_UNHALTED.THREAD,1000\nUOPS_EXECUTED.THREAD:cmask=1:inv=1,300\n"
		"CYCLE_ACTIVITY.STALLS_TOTAL,200\nCYCLE_ACTIVITY.STALLS_MEM_ANY,100\n"
		"UOPS_EXECUTED.THREAD:cmask=1,600\nUOPS_EXECUTED.THREAD:cmask=2,650\n", 0, 0);
	/* memory 100 + core (200 - 100) = 200 != 300 */
	assert_true(th_warn(&r, "cycles.stalls") & WARN_SUM);
	/* 300 + 600 = 900, not 1000 */
	assert_true(th_warn(&r, "ilp") & WARN_MISMATCH);
	assert_true(th_warn(&r, "ilp.1") & WARN_NEGATIVE);
	th_assert_missing(&r, "cycles.retired");
	assert_true(th_missing_has(&r, "cycles.retired", "UOPS_ISSUED.ANY"));
}

/* Nehalem/Westmere: loads x latency (Levinthal's Core i7 guide: L2 10, L3
 * 40, other core 75, DRAM 60 ns), the remainder signed and flagged when the
 * latencies over-count. */
static void test_nhm_penalties(void **state)
{
	struct tree_result r;
	static const char text[] =
		"cpu_clk_unhalted.thread,1000000\nuops_executed.core_stall_cycles,400000\n"
		"uops_issued.any,2000000\nuops_retired.retire_slots,1800000\n"
		"mem_load_retired.l2_hit,10000\nmem_load_retired.llc_unshared_hit,2000\n"
		"mem_load_retired.other_core_l2_hit_hitm,100\nmem_load_retired.llc_miss,1000\n";
	(void)state;

	th_eval(&r, TREE_INTEL, NULL, text, 0, 0);
	assert_non_null(strstr(r.def->title, "Nehalem"));
	expect(&r, "cycles.retired", 600000.0 * 1800000 / 2000000);
	expect(&r, "cycles.stalls.memory.l2", 10000 * 10.0);
	expect(&r, "cycles.stalls.memory.l3", 2000 * 40.0 + 100 * 75.0);
	expect(&r, "cycles.stalls.memory.dram", 1000 * 180.0);
	expect(&r, "cycles.stalls.core", 400000 - (100000 + 87500 + 180000.0));
	th_eval(&r, TREE_INTEL, NULL, text, 2.66e9, 0);
	expect(&r, "cycles.stalls.memory.dram", 1000 * 60e-9 * 2.66e9);
	th_eval(&r, TREE_INTEL, NULL,
		"cpu_clk_unhalted.thread,1000000\nuops_executed.core_stall_cycles,100000\n"
		"mem_load_retired.l2_hit,0\nmem_load_retired.llc_unshared_hit,0\n"
		"mem_load_retired.other_core_l2_hit_hitm,0\nmem_load_retired.llc_miss,1000\n", 0, 0);
	assert_true(th_warn(&r, "cycles.stalls.core") & WARN_OVERCOUNT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skl_example),
		cmocka_unit_test(test_spr_12_ports),
		cmocka_unit_test(test_raw_terms_through_model),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_nhm_penalties),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
