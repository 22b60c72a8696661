/* engine/diff: t quantiles, Welch's interval, the sampling interval with
 * its n + 1 correction, and rows matched by key across runs, on numbers
 * worked out by hand. */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/diff.h"

static void near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.9g, want %.9g (+- %g)", got, want, tol);
}

/* Whole df: the table; large df: Cornish-Fisher against the exact values
 * (R's qt(0.975, df)); between whole df: wider than exact, never narrower. */
static void test_t975(void **state)
{
	(void)state;
	near(diff_t975(1), 12.7062, 1e-4);
	near(diff_t975(2), 4.3027, 1e-4);
	near(diff_t975(30), 2.0423, 1e-4);
	near(diff_t975(45), 2.014103, 1e-4);
	near(diff_t975(100), 1.983972, 1e-4);
	near(diff_t975(INFINITY), 1.959964, 1e-6);
	near(diff_t975(0.5), 12.7062, 1e-4);   /* below 1: as 1 */
	double t25 = diff_t975(2.5);           /* exact 3.574655 */
	assert_true(t25 >= 3.5746 && t25 < 3.5747 * 1.02);
	for (double df = 1; df < 200; df += 0.25)
		assert_true(diff_t975(df + 0.25) < diff_t975(df));
}

/* Welch on {10, 12, 14} against {20, 22, 27}: means 12 and 23, variances 4
 * and 13, se^2 = 4/3 + 13/3, df = (17/3)^2 / ((4/3)^2/2 + (13/3)^2/2). */
static void test_welch(void **state)
{
	double b[] = { 10, 12, 14 }, n[] = { 20, 22, 27 };
	struct diff_stat s;

	(void)state;
	diff_stat_compute(DIFF_RUNS, b, NULL, 3, n, NULL, 3, &s);
	near(s.base, 12, 1e-12);
	near(s.new_, 23, 1e-12);
	near(s.delta, 11, 1e-12);
	near(s.delta_pct, 100.0 * 11 / 12, 1e-9);
	near(s.sd, sqrt(17.0 / 3), 1e-12);
	double df = (17.0 / 3) * (17.0 / 3) / ((16.0 / 9) / 2 + (169.0 / 9) / 2);
	near(s.df, df, 1e-9);
	near(s.low, 11 - diff_t975(df) * sqrt(17.0 / 3), 1e-9);
	near(s.high, 11 + diff_t975(df) * sqrt(17.0 / 3), 1e-9);
	assert_true(s.significant);
	/* equal runs: the floor (one sample, P^2 = 4) keeps the width */
	double e1[] = { 2, 2, 2 }, e0[] = { 0, 0, 0 }, fl[] = { 4, 4, 4 };
	diff_stat_compute(DIFF_RUNS, e1, fl, 3, e0, fl, 3, &s);
	near(s.sd, sqrt(4.0 / 3 + 4.0 / 3), 1e-12);
	assert_false(s.significant);
	diff_stat_compute(DIFF_RUNS, e1, NULL, 3, e0, NULL, 3, &s);
	assert_true(isinf(s.df));  /* no noise at all: width 0 */
	assert_true(s.significant);
}

static struct diff_obs obs(const char *name, const char *module, double samples, double period)
{
	struct diff_obs o = { .name = name, .module = module };

	o.count[0] = samples * period;
	o.var[0] = samples * period * period;
	return o;
}

/* Rows by (name, module): a key of one side only, a key met twice in a run
 * (summed), the order by |delta|, and the n + 1 correction: 5 samples
 * against none is not significant, 6 is (exact binomial: p = 0.0625, 0.031). */
static void test_build_sampling(void **state)
{
	const double P = 1000;
	struct diff_obs b[] = { obs("f", "a.so", 100, P), obs("g", "a.so", 5, P),
				obs("h", "a.so", 6, P), obs("f", "b.so", 7, P),
				obs("t", "", 3, P), obs("t", "", 4, P) };
	struct diff_obs n[] = { obs("f", "a.so", 50, P), obs("f", "b.so", 7, P),
				obs("k", "a.so", 2, P) };
	struct diff_run rb = { 6, b, { P } }, rn = { 3, n, { P } };
	struct diff_table t;
	char err[200];

	(void)state;
	assert_int_equal(diff_build(&rb, 1, &rn, 1, 1, 0, &t, err, sizeof(err)), 0);
	assert_int_equal(t.method, DIFF_SAMPLING);
	assert_int_equal(t.n, 6);
	/* |delta|: f a.so 50, t 7, h 6, g 5, k 2, f b.so 0 */
	const char *order[] = { "f", "t", "h", "g", "k", "f" };
	for (size_t i = 0; i < t.n; i++)
		assert_string_equal(t.rows[i].name, order[i]);
	assert_string_equal(t.rows[5].module, "b.so");
	const struct diff_stat *f = &t.rows[0].ev[0];
	near(f->delta, -50 * P, 1e-9);
	near(f->sd, sqrt(101 + 51) * P, 1e-6);
	near(f->low, -50 * P - DIFF_Z95 * f->sd, 1e-6);
	assert_true(f->significant);
	assert_true(t.rows[0].in_base && t.rows[0].in_new);
	near(t.rows[1].ev[0].base, 7 * P, 1e-9);  /* "t" twice: 3 + 4 */
	assert_true(t.rows[2].ev[0].significant);  /* h: 6 against none */
	assert_false(t.rows[3].ev[0].significant); /* g: 5 against none */
	assert_true(t.rows[3].in_base && !t.rows[3].in_new);
	assert_true(!t.rows[4].in_base && t.rows[4].in_new);
	assert_true(isnan(t.rows[4].ev[0].delta_pct));
	assert_false(t.rows[5].ev[0].significant);
	diff_table_free(&t);
	/* one run against two: refused */
	struct diff_run two[2] = { rn, rn };
	assert_int_equal(diff_build(&rb, 1, two, 2, 1, 0, &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "1 run(s) of the base against 2"));
}

/* Runs: a key missing from a run counts 0 there. */
static void test_build_runs(void **state)
{
	struct diff_obs b1[] = { obs("f", "m", 10, 1) }, b2[] = { obs("f", "m", 12, 1) };
	struct diff_obs n1[] = { obs("f", "m", 20, 1) }, n2[] = { obs("g", "m", 1, 1) };
	struct diff_run rb[2] = { { 1, b1, { 1 } }, { 1, b2, { 1 } } };
	struct diff_run rn[2] = { { 1, n1, { 1 } }, { 1, n2, { 1 } } };
	struct diff_table t;
	char err[200];

	(void)state;
	assert_int_equal(diff_build(rb, 2, rn, 2, 1, 0, &t, err, sizeof(err)), 0);
	assert_int_equal(t.method, DIFF_RUNS);
	assert_string_equal(t.rows[0].name, "f");
	near(t.rows[0].ev[0].base, 11, 1e-12);
	near(t.rows[0].ev[0].new_, 10, 1e-12);  /* (20 + 0) / 2 */
	near(t.rows[0].ev[0].sd, sqrt(2.0 / 2 + 200.0 / 2), 1e-12);
	diff_table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t975),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_build_sampling),
		cmocka_unit_test(test_build_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
