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
#include "tree-helpers.h"

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

/* Other widths: 1 (bins C(1), C(2)-C(1)) and 8. */
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
	assert_true(ilp_from_sweep(w8, 8, &h));
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
	const double good[ILP_MAX_WIDTH + 2] = { 400, 500, 650, 800, 900, 960, 1000, 1000, 1000 };
	double s[ILP_MAX_WIDTH + 2];
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

/* The histogram of an example counts file under MODEL (by name) through
 * ilp_eval: bins, unit, width and mean as the tree's ilp.* nodes have them
 * (the same file through th_eval_example), and the hand-computed bins. */
static void check_example(const char *model_name, const char *file, const double *want,
			  int width, const char *unit)
{
	static struct penalties pen;
	const struct arch_model *m = model_find(model_name);
	struct counts c;
	struct ilp_hist h;
	struct tree_result r;
	char id[16], buf[64];

	assert_non_null(m);
	assert_true(ilp_has_sweep(m));
	penalties_default(&pen, 0);
	th_load_example(&c, file);
	struct tree_ctx ctx = { .model = m, .pen = &pen };
	assert_true(ilp_eval(&ctx, &c, &h));
	counts_free(&c);
	assert_int_equal(h.width, width);
	assert_string_equal(h.unit, unit);
	assert_true(ilp_unit(m, buf, sizeof(buf)));
	assert_string_equal(buf, unit);
	th_eval_example(&r, m->tree, m, file, false);
	double total = 0, uops = 0;
	for (int k = 0; k <= width; k++) {
		snprintf(id, sizeof(id), "ilp.%d", k);
		assert_near(h.bins[k], want[k]);
		assert_near(h.bins[k], tree_value(&r, id));
		total += want[k];
		uops += k * want[k];
	}
	assert_near(h.total, total);
	assert_near(h.total, tree_value(&r, "ilp"));
	assert_near(h.mean, uops / total);
	assert_near(h.mean, tree_value(&r, "ilp.mean"));
	assert_false(h.negative_bin);
	/* past the width, nothing */
	for (int k = width + 1; k <= ILP_MAX_WIDTH; k++)
		assert_near(h.bins[k], 0);
}

#define M 1e6
/* skl-handmade: stalls 300, UOPS_EXECUTED.THREAD:c=1..8 = 700 520 360 220
 * 110 50 20 5 (millions): bins 300, 180, 160, 140, 110, 60, 30, 15, 5. */
static void test_skl_example(void **state)
{
	const double want[] = { 300 * M, 180 * M, 160 * M, 140 * M, 110 * M,
				60 * M, 30 * M, 15 * M, 5 * M };
	(void)state;
	check_example("skl", "skl-handmade.counts", want, 8, "uops executed");
}

/* icl-ilp-handmade: stalls 250, c=1..10 = 750 600 450 320 200 120 60 25 8 2. */
static void test_icl_example(void **state)
{
	const double want[] = { 250 * M, 150 * M, 150 * M, 130 * M, 120 * M, 80 * M,
				60 * M, 35 * M, 17 * M, 6 * M, 2 * M };
	(void)state;
	check_example("icl", "icl-ilp-handmade.counts", want, 10, "uops executed");
}

/* spr-ilp-handmade: stalls 200, c=1..12 = 800 650 500 380 270 180 110 60 30
 * 12 4 1. */
static void test_spr_example(void **state)
{
	const double want[] = { 200 * M, 150 * M, 150 * M, 120 * M, 110 * M, 90 * M, 70 * M,
				50 * M, 30 * M, 18 * M, 8 * M, 3 * M, 1 * M };
	(void)state;
	check_example("spr", "spr-ilp-handmade.counts", want, 12, "uops executed");
}

/* zen4-handmade: ex_ret_ops:c=1:i=1 480, c=1..8 = 520 400 300 250 150 100
 * 50 30: bins 480, 120, 100, 50, 100, 50, 50, 20, 30 (retire side). */
static void test_zen4_example(void **state)
{
	const double want[] = { 480 * M, 120 * M, 100 * M, 50 * M, 100 * M,
				50 * M, 50 * M, 20 * M, 30 * M };
	(void)state;
	check_example("amd64_fam19h_zen4", "zen4-handmade.counts", want, 8, "ops retired");
}

/* core2-handmade: RS_UOPS_DISPATCHED:c=1..7:i=1, bins as the tree's. */
static void test_core2_example(void **state)
{
	const double want[] = { 420 * M, 140 * M, 140 * M, 150 * M, 100 * M, 40 * M, 10 * M };
	(void)state;
	check_example("core", "core2-handmade.counts", want, 6, "uops dispatched");
}

/* Every model with a sweep has it in its tree: ilp.0 .. ilp.W with W its
 * dispatch width, and a unit; the phrase names the sweep. */
static void test_every_model_with_a_sweep(void **state)
{
	const struct arch_model *m;
	char buf[128], want[128];
	int n = 0;

	(void)state;
	for (size_t i = 0; (m = model_at(i)) != NULL; i++) {
		if (!ilp_has_sweep(m)) {
			assert_false(ilp_sweep_text(m, buf, sizeof(buf)));
			assert_string_equal(buf, "");
			assert_false(ilp_unit(m, buf, sizeof(buf)));
			continue;
		}
		n++;
		assert_true(ilp_sweep_text(m, buf, sizeof(buf)));
		if (m->ilp_event)
			snprintf(want, sizeof(want), "%s:c=1..%d:i=1", m->ilp_event,
				 m->dispatch_width + 1);
		else
			snprintf(want, sizeof(want), "%s:c=1..%d", m->ilp_sweep, m->dispatch_width);
		assert_string_equal(buf, want);
		if (!ilp_unit(m, buf, sizeof(buf))) {
			fprintf(stderr, "model %s: a sweep but no ilp.* bins in its tree\n", m->name);
			fail();
		}
		const struct tree_def *def = tree_def_pick(m->tree, m, NULL);
		snprintf(want, sizeof(want), "ilp.%d", m->dispatch_width);
		assert_true(tree_node_index(def, want) >= 0);
		snprintf(want, sizeof(want), "ilp.%d", m->dispatch_width + 1);
		assert_true(tree_node_index(def, want) < 0);
	}
	/* core, nhm wsm snb ivb hsw bdw skl skx clx icl icx spr, zen1-4 */
	assert_true(n >= 17);
}

/* A bin not measured (a sweep step missing), no counts at all, a model
 * without a sweep: no histogram. */
static void test_eval_missing(void **state)
{
	static struct penalties pen;
	struct tree_ctx ctx = { .model = model_find("skl"), .pen = &pen };
	struct counts c;
	struct ilp_hist h;

	(void)state;
	penalties_default(&pen, 0);
	counts_init(&c);
	assert_false(ilp_eval(&ctx, &c, &h));
	counts_add(&c, "UOPS_EXECUTED.THREAD:c=1:i=1", 100, 0);
	for (int k = 1; k <= 8; k++) {
		char name[64];
		if (k == 5)
			continue;
		snprintf(name, sizeof(name), "UOPS_EXECUTED.THREAD:c=%d", k);
		counts_add(&c, name, 100.0 / k, 0);
	}
	assert_false(ilp_eval(&ctx, &c, &h));
	counts_add(&c, "UOPS_EXECUTED.THREAD:c=5", 20, 0);
	assert_true(ilp_eval(&ctx, &c, &h));
	assert_near(h.bins[4], 25 - 20);
	ctx.model = model_find("amd64_k8");
	assert_false(ilp_eval(&ctx, &c, &h));
	counts_free(&c);
}

/* Nehalem: the core-scope sweep UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=1..6
 * with the stalls of UOPS_EXECUTED.CORE_STALL_CYCLES: stalls 40, c=k =
 * 60 50 30 20 10 5: bins 40, 10, 20, 10, 10, 5, 5; mean 175 / 100. */
static void test_nhm_core_scope(void **state)
{
	static struct penalties pen;
	const double g[6] = { 60, 50, 30, 20, 10, 5 }, want[7] = { 40, 10, 20, 10, 10, 5, 5 };
	struct tree_ctx ctx = { .model = model_find("nhm"), .pen = &pen };
	struct counts c;
	struct ilp_hist h;
	char name[64];

	(void)state;
	penalties_default(&pen, 0);
	counts_init(&c);
	counts_add(&c, "UOPS_EXECUTED.CORE_STALL_CYCLES", 40, 0);
	for (int k = 1; k <= 6; k++) {
		snprintf(name, sizeof(name), "UOPS_EXECUTED.CORE_ACTIVE_CYCLES:c=%d", k);
		counts_add(&c, name, g[k - 1], 0);
	}
	assert_true(ilp_eval(&ctx, &c, &h));
	assert_int_equal(h.width, 6);
	for (int k = 0; k <= 6; k++)
		assert_near(h.bins[k], want[k]);
	assert_near(h.total, 100);
	assert_near(h.mean, 1.75);
	assert_string_equal(h.unit, "uops executed on the core");
	counts_free(&c);
}

/* --- Arm: the threshold sweep (FEAT_PMUv3_TH) ------------------------------ */

/* Linux's positions (drivers/perf/arm_pmuv3.c: threshold config1:5-16,
 * threshold_compare config1:3-4, threshold_count config1:2) and a
 * threshold_max of 255. */
static const struct arm_threshold linux_th = { true, 5, 16, 3, 4, 2, 2, 255 };

static void test_arm_threshold_encoding(void **state)
{
	const struct arch_model *v2 = model_find("arm_v2"), *n1 = model_find("arm_n1");
	uint64_t c1;

	(void)state;
	assert_string_equal(arm_ilp_event(v2), "OP_RETIRED");
	assert_string_equal(arm_ilp_event(n1), "INST_RETIRED");  /* N1 has no OP_RETIRED */
	assert_null(arm_ilp_event(model_find("core")));
	assert_int_equal(arm_ilp_width(v2, &linux_th, 0), 8);   /* the model's 8 slots */
	assert_int_equal(arm_ilp_width(v2, &linux_th, 6), 6);   /* the host's caps/slots */
	assert_int_equal(arm_ilp_width(n1, &linux_th, 0), 0);   /* no width known */
	assert_int_equal(arm_ilp_width(n1, &linux_th, 4), 4);
	for (unsigned n = 1; n <= 8; n++) {
		/* TH = N in bits 5-16, TC[2:1] = 2 (GE) in 3-4, TC[0] = 1 (count) in 2 */
		assert_true(arm_th_config1(&linux_th, n, &c1));
		assert_int_equal(c1, (uint64_t)n << 5 | 2 << 3 | 1 << 2);
	}
	assert_true(arm_th_config1(&linux_th, 1, &c1));
	assert_int_equal(c1, 0x34);
	assert_true(arm_th_config1(&linux_th, 255, &c1));
	assert_false(arm_th_config1(&linux_th, 0, &c1));
	assert_false(arm_th_config1(&linux_th, 256, &c1));   /* above threshold_max */

	/* other positions: the format files decide, not Linux's numbers */
	struct arm_threshold moved = { true, 40, 51, 20, 21, 0, 0, 4095 };
	assert_true(arm_th_config1(&moved, 3, &c1));
	assert_int_equal(c1, 3ULL << 40 | 2ULL << 20 | 1);
	assert_true(arm_th_config1(&moved, 4095, &c1));
	assert_false(arm_th_config1(&moved, 4096, &c1));

	/* a narrow threshold_max caps the width */
	struct arm_threshold narrow = linux_th;
	narrow.max = 3;
	assert_int_equal(arm_ilp_width(v2, &narrow, 0), 3);
	assert_false(arm_th_config1(&narrow, 4, &c1));
}

/* No sweep: no FEAT_PMUv3_TH (threshold_max 0: every PMU on a 6.8+ kernel
 * has the format files), an older kernel (no format), a compare field too
 * narrow for GE; the model's no_ilp line stays. */
static void test_arm_threshold_absent(void **state)
{
	const struct arch_model *v2 = model_find("arm_v2");
	struct arm_threshold none = linux_th, old = { 0 }, narrow_cmp = linux_th;
	uint64_t c1 = 0;

	(void)state;
	none.max = 0;
	narrow_cmp.cmp_hi = 3;  /* one bit: 2 does not fit */
	assert_false(arm_th_usable(NULL));
	assert_false(arm_th_usable(&none));
	assert_false(arm_th_usable(&old));
	assert_false(arm_th_usable(&narrow_cmp));
	assert_int_equal(arm_ilp_width(v2, &none, 0), 0);
	assert_int_equal(arm_ilp_width(v2, &old, 8), 0);
	assert_int_equal(arm_ilp_width(v2, NULL, 8), 0);
	assert_false(arm_th_config1(&none, 1, &c1));
	assert_false(arm_th_config1(&narrow_cmp, 1, &c1));
	assert_false(ilp_has_sweep(v2));
	assert_non_null(strstr(v2->no_ilp, "FEAT_PMUv3_TH"));
}

/* Hand-made counts through the arm tree: CPU_CYCLES 1000, OP_RETIRED:th=k
 * (cycles retiring >= k ops) 700 500 300 200 120 60 20 5 on a V2 (8 wide):
 * bins 300 200 200 100 80 60 40 15 5, mean (sum of the steps) 1905 / 1000.
 * A plain OP_RETIRED count beside them is not a step. */
static void test_arm_threshold_histogram(void **state)
{
	static struct penalties pen;
	const double th[8] = { 700, 500, 300, 200, 120, 60, 20, 5 };
	const double want[9] = { 300, 200, 200, 100, 80, 60, 40, 15, 5 };
	struct tree_ctx ctx = { .model = model_find("arm_v2"), .pen = &pen };
	struct counts c;
	struct ilp_hist h;
	char name[64];

	(void)state;
	penalties_default(&pen, 0);
	counts_init(&c);
	counts_add(&c, "OP_RETIRED", 1905, 0);
	counts_add(&c, "CPU_CYCLES", 1000, 0);
	assert_false(ilp_eval(&ctx, &c, &h));  /* no sweep counted: no histogram */
	for (int k = 1; k <= 8; k++) {
		snprintf(name, sizeof(name), "OP_RETIRED:th=%d", k);
		counts_add(&c, name, th[k - 1], 0);
	}
	assert_true(ilp_eval(&ctx, &c, &h));
	assert_int_equal(h.width, 8);
	for (int k = 0; k <= 8; k++)
		assert_near(h.bins[k], want[k]);
	assert_near(h.total, 1000);
	assert_near(h.mean, 1905.0 / 1000);
	assert_false(h.negative_bin);
	assert_string_equal(h.unit, "ops retired");
	counts_free(&c);

	/* N2 (5 slots): th=1..5 are the whole sweep, bins 6-8 are 0; without
	 * th=5 there is no histogram */
	ctx.model = model_find("arm_n2");
	counts_init(&c);
	counts_add(&c, "CPU_CYCLES", 1000, 0);
	for (int k = 1; k <= 4; k++) {
		snprintf(name, sizeof(name), "OP_RETIRED:th=%d", k);
		counts_add(&c, name, th[k - 1], 0);
	}
	assert_false(ilp_eval(&ctx, &c, &h));
	counts_add(&c, "op_retired:th=5", th[4], 0);  /* perf's lower-case alias */
	assert_true(ilp_eval(&ctx, &c, &h));
	assert_near(h.bins[4], 200 - 120);
	assert_near(h.bins[5], 120);
	assert_near(h.bins[6], 0);
	assert_near(h.bins[8], 0);
	assert_near(h.mean, (700 + 500 + 300 + 200 + 120) / 1000.0);
	counts_free(&c);

	/* N1: no OP_RETIRED, instructions; no width in the model, so the host's
	 * caps/slots (tree_ctx.slots) says where the sweep ends */
	ctx.model = model_find("arm_n1");
	counts_init(&c);
	counts_add(&c, "CPU_CYCLES", 1000, 0);
	for (int k = 1; k <= 4; k++) {
		snprintf(name, sizeof(name), "INST_RETIRED:th=%d", k);
		counts_add(&c, name, th[k - 1], 0);
	}
	assert_false(ilp_eval(&ctx, &c, &h));
	ctx.slots = 4;
	assert_true(ilp_eval(&ctx, &c, &h));
	assert_near(h.bins[0], 300);
	assert_near(h.bins[4], 200);
	assert_string_equal(h.unit, "instructions retired");
	counts_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_width6_histogram),
		cmocka_unit_test(test_arm_threshold_encoding),
		cmocka_unit_test(test_arm_threshold_absent),
		cmocka_unit_test(test_arm_threshold_histogram),
		cmocka_unit_test(test_other_widths),
		cmocka_unit_test(test_all_stalled),
		cmocka_unit_test(test_invalid_inputs),
		cmocka_unit_test(test_decreasing_sweep),
		cmocka_unit_test(test_step_names_core),
		cmocka_unit_test(test_step_names_other_models),
		cmocka_unit_test(test_skl_example),
		cmocka_unit_test(test_icl_example),
		cmocka_unit_test(test_spr_example),
		cmocka_unit_test(test_zen4_example),
		cmocka_unit_test(test_core2_example),
		cmocka_unit_test(test_every_model_with_a_sweep),
		cmocka_unit_test(test_eval_missing),
		cmocka_unit_test(test_nhm_core_scope),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
