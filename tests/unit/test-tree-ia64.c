/* The IA-64 back-end bubble tree (Levinthal, Black Belt Itanium part 2,
 * seeds/001): BACK_END_BUBBLE.ALL splits exactly into five prioritized
 * components, the flush part into XPN + BRU, the EXE part into overlapping
 * GRALL/FRALL/GRGR; the residual shows mismeasurement. */
#include "tests/unit/tree-helpers.h"

#define REL 1e-9

enum {
	E_CYCLES, E_BEB, E_FLUSH, E_XPN, E_BRU, E_L1D, E_EXE, E_GRALL, E_FRALL, E_GRGR,
	E_RSE, E_FE, E_N
};

static const char *const names[E_N] = {
	[E_CYCLES] = "CPU_CYCLES",
	[E_BEB] = "BACK_END_BUBBLE.ALL",
	[E_FLUSH] = "BE_FLUSH_BUBBLE.ALL",
	[E_XPN] = "BE_FLUSH_BUBBLE.XPN",
	[E_BRU] = "BE_FLUSH_BUBBLE.BRU",
	[E_L1D] = "BE_L1D_FPU_BUBBLE.ALL",
	[E_EXE] = "BE_EXE_BUBBLE.ALL",
	[E_GRALL] = "BE_EXE_BUBBLE.GRALL",
	[E_FRALL] = "BE_EXE_BUBBLE.FRALL",
	[E_GRGR] = "BE_EXE_BUBBLE.GRGR",
	[E_RSE] = "BE_RSE_BUBBLE.ALL",
	[E_FE] = "BACK_END_BUBBLE.FE",
};

/* A consistent measurement: the five components add up to 400,000 stall
 * cycles out of 1,000,000; XPN + BRU = flush; GRALL + FRALL overlap (>EXE). */
static const double base[E_N] = {
	[E_CYCLES] = 1000000,
	[E_BEB] = 400000,
	[E_FLUSH] = 50000,
	[E_XPN] = 10000,
	[E_BRU] = 40000,
	[E_L1D] = 120000,
	[E_EXE] = 150000,
	[E_GRALL] = 100000,
	[E_FRALL] = 70000,
	[E_GRGR] = 5000,
	[E_RSE] = 20000,
	[E_FE] = 60000,
};

/* Counts text from VALS, leaving out event SKIP (-1: none). */
static void build(char *buf, size_t sz, const double *vals, int skip)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int e = 0; e < E_N; e++) {
		if (e == skip)
			continue;
		n += (size_t)snprintf(buf + n, sz - n, "%s,%.0f\n", names[e], vals[e]);
		assert_true(n < sz);
	}
}

static void eval_vals(struct tree_result *r, const double *vals, int skip)
{
	char buf[1024];

	build(buf, sizeof(buf), vals, skip);
	th_eval(r, TREE_IA64, NULL, buf, 0, 0);
}

static double pct_of(const struct tree_result *r, const char *id)
{
	int i = tree_node_index(r->def, id);

	assert_true(i >= 0);
	return r->v[i].pct_parent;
}

static void assert_pct(const struct tree_result *r, const char *id, double want)
{
	double got = pct_of(r, id);

	if (!(fabs(got - want) <= 1e-9 * fabs(want) + 1e-12)) {
		fprintf(stderr, "%s: %.10g%% of parent, want %.10g%%\n", id, got, want);
		fail();
	}
}

/* Every node, hand-computed, no warnings. */
static void test_consistent_every_node(void **state)
{
	static const char *const ids[] = {
		"cycles", "cycles.unstalled", "cycles.stalls", "cycles.stalls.flush",
		"cycles.stalls.flush.xpn", "cycles.stalls.flush.bru", "cycles.stalls.l1d_fpu",
		"cycles.stalls.exe", "cycles.stalls.exe.grall", "cycles.stalls.exe.frall",
		"cycles.stalls.exe.grgr", "cycles.stalls.rse", "cycles.stalls.fe",
		"cycles.stalls.residual",
	};
	struct tree_result r;
	(void)state;

	eval_vals(&r, base, -1);
	th_assert_value(&r, "cycles", 1000000, REL);
	th_assert_value(&r, "cycles.unstalled", 600000, REL);  /* CPU_CYCLES - BEB.ALL */
	th_assert_value(&r, "cycles.stalls", 400000, REL);
	th_assert_value(&r, "cycles.stalls.flush", 50000, REL);
	th_assert_value(&r, "cycles.stalls.flush.xpn", 10000, REL);
	th_assert_value(&r, "cycles.stalls.flush.bru", 40000, REL);
	th_assert_value(&r, "cycles.stalls.l1d_fpu", 120000, REL);
	th_assert_value(&r, "cycles.stalls.exe", 150000, REL);
	th_assert_value(&r, "cycles.stalls.exe.grall", 100000, REL);
	th_assert_value(&r, "cycles.stalls.exe.frall", 70000, REL);
	th_assert_value(&r, "cycles.stalls.exe.grgr", 5000, REL);
	th_assert_value(&r, "cycles.stalls.rse", 20000, REL);
	th_assert_value(&r, "cycles.stalls.fe", 60000, REL);
	th_assert_value(&r, "cycles.stalls.residual", 0, REL);
	/* every node of the tree is listed above and none is flagged */
	assert_int_equal(r.def->n_nodes, (int)(sizeof(ids) / sizeof(ids[0])));
	for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
		assert_int_equal(r.v[tree_node_index(r.def, ids[k])].state, NODE_VALUE);
		if (th_warn(&r, ids[k]) != 0) {
			fprintf(stderr, "%s flagged %#x\n", ids[k], th_warn(&r, ids[k]));
			fail();
		}
	}
	assert_int_equal(tree_inputs_present(&r), E_N);
}

/* The tree's shape: parents and depths follow the dotted ids. */
static void test_structure(void **state)
{
	struct tree_result r;
	(void)state;

	eval_vals(&r, base, -1);
	assert_int_equal(r.v[tree_node_index(r.def, "cycles")].parent, -1);
	assert_int_equal(r.v[tree_node_index(r.def, "cycles.stalls.residual")].parent,
			 tree_node_index(r.def, "cycles.stalls"));
	assert_int_equal(r.v[tree_node_index(r.def, "cycles.stalls.exe.grgr")].parent,
			 tree_node_index(r.def, "cycles.stalls.exe"));
	assert_int_equal(r.v[tree_node_index(r.def, "cycles.stalls.flush.xpn")].depth, 3);
}

/* Percent of parent for every cycle node. */
static void test_percent_of_parent(void **state)
{
	struct tree_result r;
	(void)state;

	eval_vals(&r, base, -1);
	assert_true(isnan(pct_of(&r, "cycles")));  /* the root has no parent */
	assert_pct(&r, "cycles.unstalled", 60.0);
	assert_pct(&r, "cycles.stalls", 40.0);
	assert_pct(&r, "cycles.stalls.flush", 12.5);
	assert_pct(&r, "cycles.stalls.flush.xpn", 20.0);
	assert_pct(&r, "cycles.stalls.flush.bru", 80.0);
	assert_pct(&r, "cycles.stalls.l1d_fpu", 30.0);
	assert_pct(&r, "cycles.stalls.exe", 37.5);
	assert_pct(&r, "cycles.stalls.exe.grall", 100.0 * 100000 / 150000);
	assert_pct(&r, "cycles.stalls.exe.frall", 100.0 * 70000 / 150000);
	assert_pct(&r, "cycles.stalls.exe.grgr", 100.0 * 5000 / 150000);
	assert_pct(&r, "cycles.stalls.rse", 5.0);
	assert_pct(&r, "cycles.stalls.fe", 15.0);
	assert_pct(&r, "cycles.stalls.residual", 0.0);

	/* no percentage of a parent that was not measured */
	eval_vals(&r, base, E_CYCLES);
	assert_true(isnan(pct_of(&r, "cycles.stalls")));
	assert_pct(&r, "cycles.stalls.fe", 15.0);
}

/* Samples x SAV are normalized before the arithmetic. */
static void test_samples_and_aliases(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_IA64, "ia64",
		"CPU_OP_CYCLES_ALL,500,2000000\n"          /* alternate name of CPU_CYCLES */
		"back_end_bubble.all,200,2000000\n"        /* lower case */
		"BE_FLUSH_BUBBLE:ALL,25,2000000\n"         /* colon for the sub-event */
		"BE_L1D_FPU_BUBBLE.ALL,60,2000000\n"
		"BE_EXE_BUBBLE.ALL,75,2000000\n"
		"BE_RSE_BUBBLE.ALL,10,2000000\n"
		"BACK_END_BUBBLE.FE,60000000\n", 0, 0);      /* a plain count */
	th_assert_value(&r, "cycles", 1e9, REL);
	th_assert_value(&r, "cycles.unstalled", 6e8, REL);
	th_assert_value(&r, "cycles.stalls.flush", 5e7, REL);
	th_assert_value(&r, "cycles.stalls.residual", 0, REL);
	assert_int_equal(th_warn(&r, "cycles.stalls.residual"), 0);
}

/* Parts that do not add up: the residual is flagged either way, within
 * tolerance it is not. */
static void test_residual_mismatch(void **state)
{
	double v[E_N];
	struct tree_result r;
	(void)state;

	memcpy(v, base, sizeof(v));
	v[E_FE] = 100000;  /* components 440,000 > 400,000 */
	eval_vals(&r, v, -1);
	th_assert_value(&r, "cycles.stalls.residual", -40000, REL);
	assert_true(th_warn(&r, "cycles.stalls.residual") & WARN_MISMATCH);
	/* signed: a negative residual is a mismatch, not "negative" */
	assert_false(th_warn(&r, "cycles.stalls.residual") & WARN_NEGATIVE);
	assert_int_equal(th_warn(&r, "cycles.stalls.fe"), 0);

	v[E_FE] = 20000;   /* components 360,000 < 400,000 */
	eval_vals(&r, v, -1);
	th_assert_value(&r, "cycles.stalls.residual", 40000, REL);
	assert_true(th_warn(&r, "cycles.stalls.residual") & WARN_MISMATCH);

	v[E_FE] = 70000;   /* off by 10,000 = 2.5%: sampling noise */
	eval_vals(&r, v, -1);
	th_assert_value(&r, "cycles.stalls.residual", -10000, REL);
	assert_int_equal(th_warn(&r, "cycles.stalls.residual"), 0);

	/* overlapping EXE sub-events do not enter the residual */
	memcpy(v, base, sizeof(v));
	v[E_GRALL] = 140000;
	v[E_FRALL] = 140000;
	eval_vals(&r, v, -1);
	th_assert_value(&r, "cycles.stalls.residual", 0, REL);
	assert_int_equal(th_warn(&r, "cycles.stalls.residual"), 0);
	assert_int_equal(th_warn(&r, "cycles.stalls.exe"), 0);
}

/* BE_FLUSH_BUBBLE.ALL = XPN + BRU exactly; off by more than 5% is flagged. */
static void test_flush_sum(void **state)
{
	double v[E_N];
	struct tree_result r;
	(void)state;

	memcpy(v, base, sizeof(v));
	v[E_BRU] = 50000;  /* 60,000 vs 50,000 */
	eval_vals(&r, v, -1);
	assert_true(th_warn(&r, "cycles.stalls.flush") & WARN_SUM);
	assert_int_equal(th_warn(&r, "cycles.stalls.flush.bru"), 0);

	v[E_BRU] = 20000;  /* 30,000 vs 50,000 */
	eval_vals(&r, v, -1);
	assert_true(th_warn(&r, "cycles.stalls.flush") & WARN_SUM);

	v[E_BRU] = 41000;  /* 51,000 vs 50,000: 2% */
	eval_vals(&r, v, -1);
	assert_int_equal(th_warn(&r, "cycles.stalls.flush"), 0);

	v[E_BRU] = 20000;  /* a part not measured: nothing to check */
	eval_vals(&r, v, E_BRU);
	th_assert_missing(&r, "cycles.stalls.flush.bru");
	assert_int_equal(th_warn(&r, "cycles.stalls.flush"), 0);
	th_assert_value(&r, "cycles.stalls.flush", 50000, REL);
}

/* A component larger than its parent is flagged. */
static void test_exceeds_parent(void **state)
{
	double v[E_N];
	struct tree_result r;
	(void)state;

	memcpy(v, base, sizeof(v));
	v[E_GRALL] = 200000;  /* > BE_EXE_BUBBLE.ALL 150,000 */
	eval_vals(&r, v, -1);
	assert_true(th_warn(&r, "cycles.stalls.exe.grall") & WARN_EXCEEDS_PARENT);
	assert_int_equal(th_warn(&r, "cycles.stalls.exe.frall"), 0);

	memcpy(v, base, sizeof(v));
	v[E_XPN] = 60000;     /* > BE_FLUSH_BUBBLE.ALL 50,000 */
	eval_vals(&r, v, -1);
	assert_true(th_warn(&r, "cycles.stalls.flush.xpn") & WARN_EXCEEDS_PARENT);

	memcpy(v, base, sizeof(v));
	v[E_L1D] = 450000;    /* > BACK_END_BUBBLE.ALL 400,000 */
	eval_vals(&r, v, -1);
	assert_true(th_warn(&r, "cycles.stalls.l1d_fpu") & WARN_EXCEEDS_PARENT);
	assert_true(th_warn(&r, "cycles.stalls.residual") & WARN_MISMATCH);

	memcpy(v, base, sizeof(v));
	v[E_GRALL] = 155000;  /* 3% above: within tolerance */
	eval_vals(&r, v, -1);
	assert_int_equal(th_warn(&r, "cycles.stalls.exe.grall"), 0);
}

/* BACK_END_BUBBLE.ALL > CPU_CYCLES: negative unstalled cycles. */
static void test_negative_unstalled(void **state)
{
	double v[E_N];
	struct tree_result r;
	(void)state;

	memcpy(v, base, sizeof(v));
	v[E_CYCLES] = 300000;
	eval_vals(&r, v, -1);
	th_assert_value(&r, "cycles.unstalled", -100000, REL);
	assert_true(th_warn(&r, "cycles.unstalled") & WARN_NEGATIVE);
	assert_true(th_warn(&r, "cycles.stalls") & WARN_EXCEEDS_PARENT);
	assert_int_equal(th_warn(&r, "cycles"), 0);
}

/* The residual needs all five components (and the total). */
static void test_residual_needs_all_components(void **state)
{
	static const int five[] = { E_FLUSH, E_L1D, E_EXE, E_RSE, E_FE };
	struct tree_result r;
	(void)state;

	for (size_t k = 0; k < sizeof(five) / sizeof(five[0]); k++) {
		eval_vals(&r, base, five[k]);
		th_assert_missing(&r, "cycles.stalls.residual");
		assert_true(isnan(tree_value(&r, "cycles.stalls.residual")));
		if (!th_missing_has(&r, "cycles.stalls.residual", names[five[k]])) {
			fprintf(stderr, "residual does not name %s\n", names[five[k]]);
			fail();
		}
		/* the other components still show */
		th_assert_value(&r, "cycles.stalls", 400000, REL);
	}
	eval_vals(&r, base, E_BEB);
	th_assert_missing(&r, "cycles.stalls");
	th_assert_missing(&r, "cycles.stalls.residual");
	assert_true(th_missing_has(&r, "cycles.stalls.residual", "BACK_END_BUBBLE.ALL"));
	/* the sub-events are not needed for the residual */
	eval_vals(&r, base, E_GRALL);
	th_assert_value(&r, "cycles.stalls.residual", 0, REL);
	eval_vals(&r, base, E_XPN);
	th_assert_value(&r, "cycles.stalls.residual", 0, REL);
}

/* Missing inputs are not measured, never 0. */
static void test_missing_inputs(void **state)
{
	struct tree_result r;
	(void)state;

	eval_vals(&r, base, E_CYCLES);
	th_assert_missing(&r, "cycles");
	th_assert_missing(&r, "cycles.unstalled");
	assert_true(th_missing_has(&r, "cycles.unstalled", "CPU_CYCLES"));
	assert_false(th_missing_has(&r, "cycles.unstalled", "BACK_END_BUBBLE.ALL"));
	th_assert_value(&r, "cycles.stalls", 400000, REL);

	eval_vals(&r, base, E_BEB);
	th_assert_missing(&r, "cycles.unstalled");
	assert_true(th_missing_has(&r, "cycles.unstalled", "BACK_END_BUBBLE.ALL"));

	th_eval(&r, TREE_IA64, NULL, "IA64_INST_RETIRED,1000\n", 0, 0);
	for (int i = 0; i < r.def->n_nodes; i++) {
		assert_int_equal(r.v[i].state, NODE_MISSING);
		assert_true(r.v[i].missing != 0);
		assert_true(isnan(tree_value(&r, r.def->nodes[i].id)));
	}
	assert_int_equal(tree_inputs_present(&r), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_consistent_every_node),
		cmocka_unit_test(test_structure),
		cmocka_unit_test(test_percent_of_parent),
		cmocka_unit_test(test_samples_and_aliases),
		cmocka_unit_test(test_residual_mismatch),
		cmocka_unit_test(test_flush_sum),
		cmocka_unit_test(test_exceeds_parent),
		cmocka_unit_test(test_negative_unstalled),
		cmocka_unit_test(test_residual_needs_all_components),
		cmocka_unit_test(test_missing_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
