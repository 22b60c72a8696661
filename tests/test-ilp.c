/* ILP histogram from the CMASK sweep (arch/ilp.c).  Core2 paper (seeds/000),
 * "Instruction Level Parallelism": RS_UOPS_DISPATCHED:cmask=k:inv=1 for
 * k = 1..7; the differences of sequential values are the frequencies of each
 * uop count (slides, seeds/002: "subtract the N-1 value"). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "arch/ilp.h"
#include "arch/model.h"

static void assert_near(double got, double want)
{
	if (fabs(got - want) > 1e-9 * fabs(want) + 1e-12) {
		fprintf(stderr, "got %.12g, want %.12g\n", got, want);
		fail();
	}
}

/* Width 6 (Core2: up to 6 uops dispatched per cycle), C(1..7) =
 *   400 500 650 800 900 960 1000
 * bins: 400, 100, 150, 150, 100, 60, 40; total C(7) = 1000;
 * mean = (100 + 300 + 450 + 400 + 300 + 240) / 1000 = 1.79. */
static void test_width6_histogram(void **state)
{
	const double sweep[7] = { 400, 500, 650, 800, 900, 960, 1000 };
	const double bins[7] = { 400, 100, 150, 150, 100, 60, 40 };
	struct ilp_hist h;

	(void)state;
	assert_true(ilp_from_sweep(sweep, 6, &h));
	assert_int_equal(h.width, 6);
	double sum = 0;
	for (int k = 0; k <= 6; k++) {
		assert_near(h.bins[k], bins[k]);
		sum += h.bins[k];
	}
	assert_near(sum, 1000);
	assert_near(h.total, 1000);
	assert_near(h.mean, 1.79);
	assert_false(h.negative_bin);
	/* bins past the width stay empty */
	assert_near(h.bins[7], 0);
	assert_near(h.bins[8], 0);
}

/* Other widths: 1 (bins C(1), C(2)-C(1)) and the maximum 8. */
static void test_other_widths(void **state)
{
	const double w1[2] = { 30, 100 };
	const double w8[9] = { 10, 20, 30, 40, 50, 60, 70, 80, 90 };
	struct ilp_hist h;

	(void)state;
	assert_true(ilp_from_sweep(w1, 1, &h));
	assert_near(h.bins[0], 30);
	assert_near(h.bins[1], 70);
	assert_near(h.total, 100);
	assert_near(h.mean, 0.7);

	/* every bin 10: mean = 10 x (1+...+8) / 90 = 4 */
	assert_true(ilp_from_sweep(w8, ILP_MAX_WIDTH, &h));
	for (int k = 0; k <= 8; k++)
		assert_near(h.bins[k], 10);
	assert_near(h.mean, 4);
}

/* All cycles stalled: C(k) = total for every k, mean 0 (a valid sweep). */
static void test_all_stalled(void **state)
{
	const double sweep[7] = { 500, 500, 500, 500, 500, 500, 500 };
	struct ilp_hist h;

	(void)state;
	assert_true(ilp_from_sweep(sweep, 6, &h));
	assert_near(h.bins[0], 500);
	for (int k = 1; k <= 6; k++)
		assert_near(h.bins[k], 0);
	assert_near(h.mean, 0);
	assert_false(h.negative_bin);
}

static void test_invalid_inputs(void **state)
{
	const double good[9] = { 400, 500, 650, 800, 900, 960, 1000, 1000, 1000 };
	double s[9];
	struct ilp_hist h;

	(void)state;
	/* a missing step (NAN), anywhere including the total */
	for (int k = 0; k <= 6; k++) {
		memcpy(s, good, sizeof(s));
		s[k] = NAN;
		assert_false(ilp_from_sweep(s, 6, &h));
	}
	/* a negative count */
	memcpy(s, good, sizeof(s));
	s[0] = -1;
	assert_false(ilp_from_sweep(s, 6, &h));
	memcpy(s, good, sizeof(s));
	s[3] = -800;
	assert_false(ilp_from_sweep(s, 6, &h));
	/* width out of range */
	assert_false(ilp_from_sweep(good, 0, &h));
	assert_false(ilp_from_sweep(good, -1, &h));
	assert_false(ilp_from_sweep(good, ILP_MAX_WIDTH + 1, &h));
	/* zero total: no cycles */
	const double zero[7] = { 0, 0, 0, 0, 0, 0, 0 };
	assert_false(ilp_from_sweep(zero, 6, &h));
}

/* C(3) = 480 < C(2) = 500: bin 2 = -20, flagged; the rest are still the
 * differences: bin 3 = 800 - 480 = 320;
 * mean = (100 - 40 + 960 + 400 + 300 + 240) / 1000 = 1.96. */
static void test_decreasing_sweep(void **state)
{
	const double sweep[7] = { 400, 500, 480, 800, 900, 960, 1000 };
	struct ilp_hist h;

	(void)state;
	assert_true(ilp_from_sweep(sweep, 6, &h));
	assert_true(h.negative_bin);
	assert_near(h.bins[2], -20);
	assert_near(h.bins[3], 320);
	assert_near(h.mean, 1.96);
	/* the last step decreasing is caught too */
	const double tail[7] = { 400, 500, 650, 800, 900, 1010, 1000 };
	assert_true(ilp_from_sweep(tail, 6, &h));
	assert_true(h.negative_bin);
	assert_near(h.bins[6], -10);
}

/* Step names for the core model: RS_UOPS_DISPATCHED:c=k:i=1, k = 1..7
 * (dispatch width 6 + 1), each resolving to the model row with cmask k and
 * inv set; k = 0 and k = 8 are refused. */
static void test_step_names_core(void **state)
{
	const struct arch_model *core = model_find("core");
	char buf[64], want[64];

	(void)state;
	assert_non_null(core);
	for (int k = 1; k <= 7; k++) {
		assert_true(ilp_step_name(core, k, buf, sizeof(buf)));
		snprintf(want, sizeof(want), "RS_UOPS_DISPATCHED:c=%d:i=1", k);
		assert_string_equal(buf, want);
		const struct arch_event *ev = model_lookup(core, buf);
		assert_non_null(ev);
		assert_int_equal(ev->code.sel, 0xa0);
		assert_int_equal(ev->code.cmask, k);
		assert_true(ev->code.inv);
	}
	/* step 1 is the stall event of eq. 2 */
	assert_true(ilp_step_name(core, 1, buf, sizeof(buf)));
	assert_ptr_equal(model_lookup(core, buf),
			 model_lookup(core, "RS_UOPS_DISPATCHED.CYCLES_NONE"));
	assert_false(ilp_step_name(core, 0, buf, sizeof(buf)));
	assert_false(ilp_step_name(core, 8, buf, sizeof(buf)));
	assert_false(ilp_step_name(core, -1, buf, sizeof(buf)));
	/* a buffer too small is refused rather than truncated silently */
	assert_false(ilp_step_name(core, 1, buf, 10));
}

/* Models without a swept dispatch event have no steps. */
static void test_step_names_other_models(void **state)
{
	static const char *const names[] = { "amd64_k8", "amd64_fam10h", "ia64", "perf" };
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct arch_model *m = model_find(names[i]);
		assert_non_null(m);
		assert_null(m->ilp_event);
		for (int k = 0; k <= 8; k++)
			assert_false(ilp_step_name(m, k, buf, sizeof(buf)));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_width6_histogram),
		cmocka_unit_test(test_other_widths),
		cmocka_unit_test(test_all_stalled),
		cmocka_unit_test(test_invalid_inputs),
		cmocka_unit_test(test_decreasing_sweep),
		cmocka_unit_test(test_step_names_core),
		cmocka_unit_test(test_step_names_other_models),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
