/* The software tree: what the kernel's software events say on a host
 * without a hardware PMU (CPU time, utilization, faults, switches). */
#include "tests/unit/tree-helpers.h"

#define REL 1e-9

static double pct_of(const struct tree_result *r, const char *id)
{
	int i = tree_node_index(r->def, id);

	assert_true(i >= 0);
	return r->v[i].pct_parent;
}

/* Every node, hand-computed. */
static void test_every_node(void **state)
{
	static const char *const ids[] = {
		"cpu_seconds", "seconds", "utilization", "page_faults", "page_faults.minor",
		"page_faults.major", "page_faults.rate", "context_switches",
		"context_switches.rate", "cpu_migrations",
	};
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_SW, NULL,
		"task-clock,2500000000\nduration_time,2000000000\npage-faults,1000\n"
		"minor-faults,990\nmajor-faults,10\ncontext-switches,250\ncpu-migrations,7\n",
		0, 0);
	th_assert_value(&r, "cpu_seconds", 2.5, REL);
	th_assert_value(&r, "seconds", 2.0, REL);
	th_assert_value(&r, "utilization", 1.25, REL);
	th_assert_value(&r, "page_faults", 1000, REL);
	th_assert_value(&r, "page_faults.minor", 990, REL);
	th_assert_value(&r, "page_faults.major", 10, REL);
	th_assert_value(&r, "page_faults.rate", 400, REL);        /* 1000 / 2.5 s */
	th_assert_value(&r, "context_switches", 250, REL);
	th_assert_value(&r, "context_switches.rate", 100, REL);   /* 250 / 2.5 s */
	th_assert_value(&r, "cpu_migrations", 7, REL);
	assert_int_equal(r.def->n_nodes, (int)(sizeof(ids) / sizeof(ids[0])));
	for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++)
		assert_int_equal(th_warn(&r, ids[k]), 0);
	/* parts of the fault count as percent of it */
	assert_true(fabs(pct_of(&r, "page_faults.minor") - 99.0) < 1e-9);
	assert_true(fabs(pct_of(&r, "page_faults.major") - 1.0) < 1e-9);
	/* a rate is not a part: no percentage */
	assert_true(isnan(pct_of(&r, "page_faults.rate")));
}

/* cpu_seconds from task-clock, falling back to cpu-clock. */
static void test_cpu_seconds_source(void **state)
{
	struct tree_result r;
	(void)state;

	/* both: task-clock wins */
	th_eval(&r, TREE_SW, NULL, "cpu-clock,4000000000\ntask-clock,3000000000\n"
		"duration_time,2000000000\ncontext-switches,300\n", 0, 0);
	th_assert_value(&r, "cpu_seconds", 3.0, REL);
	th_assert_value(&r, "utilization", 1.5, REL);
	th_assert_value(&r, "context_switches.rate", 100, REL);
	/* cpu-clock alone */
	th_eval(&r, TREE_SW, NULL, "cpu-clock,4000000000\nduration_time,2000000000\n"
		"context-switches,300\n", 0, 0);
	th_assert_value(&r, "cpu_seconds", 4.0, REL);
	th_assert_value(&r, "utilization", 2.0, REL);
	th_assert_value(&r, "context_switches.rate", 75, REL);
	/* task-clock not counted by perf: cpu-clock */
	th_eval(&r, TREE_SW, NULL,
		"<not counted>,msec,task-clock,0,0.00,,\n4000.00,msec,cpu-clock,4000000000,100.00,,\n",
		0, 0);
	th_assert_value(&r, "cpu_seconds", 4.0, REL);
}

/* perf stat -x, prints the clocks in msec and duration_time in ns. */
static void test_perf_stat_units(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_SW, NULL,
		"2500.00,msec,task-clock,2500000000,100.00,1.250,CPUs utilized\n"
		"2000000000,ns,duration_time,2000000000,100.00,,\n"
		"1000,,page-faults,2500000000,100.00,400.000,/sec\n"
		"250,,context-switches,2500000000,100.00,100.000,/sec\n", 0, 0);
	th_assert_value(&r, "cpu_seconds", 2.5, REL);
	th_assert_value(&r, "seconds", 2.0, REL);
	th_assert_value(&r, "utilization", 1.25, REL);
	th_assert_value(&r, "page_faults.rate", 400, REL);
	th_assert_value(&r, "context_switches.rate", 100, REL);
}

/* Minor + major must add up to page-faults (within 5%). */
static void test_fault_parts_sum(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_SW, NULL, "page-faults,1000\nminor-faults,500\nmajor-faults,10\n",
		0, 0);
	assert_true(th_warn(&r, "page_faults") & WARN_SUM);
	th_eval(&r, TREE_SW, NULL, "page-faults,1000\nminor-faults,1100\nmajor-faults,10\n",
		0, 0);
	assert_true(th_warn(&r, "page_faults") & WARN_SUM);
	assert_true(th_warn(&r, "page_faults.minor") & WARN_EXCEEDS_PARENT);
	/* 970 vs 1000 = 3%: counting noise */
	th_eval(&r, TREE_SW, NULL, "page-faults,1000\nminor-faults,960\nmajor-faults,10\n",
		0, 0);
	assert_int_equal(th_warn(&r, "page_faults"), 0);
	/* a part not measured: nothing to check, the other still shows */
	th_eval(&r, TREE_SW, NULL, "page-faults,1000\nminor-faults,500\n", 0, 0);
	assert_int_equal(th_warn(&r, "page_faults"), 0);
	th_assert_missing(&r, "page_faults.major");
	assert_true(th_missing_has(&r, "page_faults.major", "major-faults"));
	th_assert_value(&r, "page_faults.minor", 500, REL);
}

/* perf's short names of the same events. */
static void test_aliases(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_SW, NULL, "task-clock,1000000000\nfaults,40\ncs,20\nmigrations,3\n",
		0, 0);
	th_assert_value(&r, "page_faults", 40, REL);
	th_assert_value(&r, "page_faults.rate", 40, REL);
	th_assert_value(&r, "context_switches", 20, REL);
	th_assert_value(&r, "cpu_migrations", 3, REL);
}

/* Missing inputs are not measured, never 0, and say what they lack. */
static void test_missing_inputs(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_SW, NULL, "page-faults,1000\ncontext-switches,250\n", 0, 0);
	th_assert_missing(&r, "cpu_seconds");
	assert_true(th_missing_has(&r, "cpu_seconds", "task-clock (or cpu-clock)"));
	th_assert_missing(&r, "page_faults.rate");
	assert_true(th_missing_has(&r, "page_faults.rate", "task-clock (or cpu-clock)"));
	assert_false(th_missing_has(&r, "page_faults.rate", "page-faults"));
	th_assert_missing(&r, "context_switches.rate");
	th_assert_missing(&r, "utilization");
	th_assert_missing(&r, "seconds");
	assert_true(th_missing_has(&r, "seconds", "duration_time"));
	th_assert_value(&r, "page_faults", 1000, REL);
	th_assert_value(&r, "context_switches", 250, REL);

	/* CPU time without wall time: no utilization */
	th_eval(&r, TREE_SW, NULL, "task-clock,1000000000\n", 0, 0);
	th_assert_value(&r, "cpu_seconds", 1.0, REL);
	th_assert_missing(&r, "utilization");
	assert_true(th_missing_has(&r, "utilization", "duration_time"));
	assert_false(th_missing_has(&r, "utilization", "task-clock (or cpu-clock)"));

	/* nothing the tree uses */
	th_eval(&r, TREE_SW, NULL, "instructions,1000\n", 0, 0);
	for (int i = 0; i < r.def->n_nodes; i++) {
		assert_int_equal(r.v[i].state, NODE_MISSING);
		assert_true(r.v[i].missing != 0);
		assert_true(isnan(tree_value(&r, r.def->nodes[i].id)));
	}
	assert_int_equal(tree_inputs_present(&r), 0);

	/* zero CPU time or wall time: rates are not measured */
	th_eval(&r, TREE_SW, NULL, "task-clock,0\nduration_time,0\npage-faults,10\n", 0, 0);
	th_assert_value(&r, "cpu_seconds", 0, REL);
	th_assert_missing(&r, "page_faults.rate");
	th_assert_missing(&r, "utilization");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_node),
		cmocka_unit_test(test_cpu_seconds_source),
		cmocka_unit_test(test_perf_stat_units),
		cmocka_unit_test(test_fault_parts_sum),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_missing_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
