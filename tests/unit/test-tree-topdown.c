/* The topdown tree against perf's formulas, on hand-made `perf stat -x,`
 * files (the *-handmade.counts files under examples/).  Every expected
 * value is worked out here from the formula text of the JSON file cited,
 * with the file's
 * numbers, independently of arch/tree-topdown.c:
 *   skl  tools/perf/pmu-events/arch/x86/skylake/skl-metrics.json (Linux v6.9)
 *   icl  .../icelake/icl-metrics.json (v6.7/v6.8-era tree, @6b93f350)
 *   spr  .../sapphirerapids/spr-metrics.json (v6.18, @26f4b26f)
 *   zen4 .../amdzen4/pipeline.json (v6.2, @037dd130)
 *   zen5 .../amdzen5/pipeline.json (Linux 6.12, mapfile.csv v1)
 *   gnr  intel/perfmon GNR/metrics/graniterapids_metrics.json v1.3 (TMA 5.2,
 *        @6dadedf3), the source of perf's gnr-metrics.json
 *   srf  .../sierraforest/srf-metrics.json (Linux 6.12, mapfile.csv v1.04) */
#include <strings.h>

#include "tests/unit/tree-helpers.h"

#define REL 1e-12

static void expect(const struct tree_result *r, const char *id, double want)
{
	th_assert_value(r, id, want, REL);
	assert_int_equal(th_warn(r, id), 0);
}

static void assert_title(const struct tree_def *def, const char *word)
{
	if (!strstr(def->title, word)) {
		fprintf(stderr, "picked '%s', want %s\n", def->title, word);
		fail();
	}
}

/* skl-metrics.json, SMT off (#SMT_on = 0, #core_wide = 1):
 * tma_info_core_core_clks = tma_info_thread_clks = CPU_CLK_UNHALTED.THREAD. */
static void test_skl_smt_off(void **state)
{
	struct tree_result r;
	(void)state;

	assert_title(th_eval_example(&r, TREE_TOPDOWN, NULL, "skl-handmade.counts", false),
		     "Skylake");
	double slots = 4 * 1e9;
	double fe = 800e6 / slots;
	double bad = (2600e6 - 2400e6 + 4 * 20e6) / slots;
	double be = 1 - fe - (2600e6 + 4 * 20e6) / slots;
	double ret = 2400e6 / slots;
	double lat = 4 * 120e6 / slots;
	double br = 5e6 / (5e6 + 0.5e6) * bad;
	double mem = (180e6 + 40e6) / (300e6 + (150e6 + ret * 120e6) + 40e6) * be;
	double heavy = (2400e6 + 200e6 - 2300e6) / slots;

	expect(&r, "slots", slots);
	expect(&r, "topdown", 1);
	expect(&r, "topdown.frontend_bound", fe);
	expect(&r, "topdown.frontend_bound.fetch_latency", lat);
	expect(&r, "topdown.frontend_bound.fetch_bandwidth", fe - lat);
	expect(&r, "topdown.bad_speculation", bad);
	expect(&r, "topdown.bad_speculation.branch_mispredicts", br);
	expect(&r, "topdown.bad_speculation.machine_clears", bad - br);
	expect(&r, "topdown.backend_bound", be);
	expect(&r, "topdown.backend_bound.memory_bound", mem);
	expect(&r, "topdown.backend_bound.core_bound", be - mem);
	expect(&r, "topdown.retiring", ret);
	expect(&r, "topdown.retiring.heavy_operations", heavy);
	expect(&r, "topdown.retiring.light_operations", ret - heavy);
	/* the numbers written out, as a check on the arithmetic above */
	th_assert_value(&r, "topdown.frontend_bound", 0.20, 1e-12);
	th_assert_value(&r, "topdown.bad_speculation", 0.07, 1e-12);
	th_assert_value(&r, "topdown.backend_bound", 0.13, 1e-12);
	th_assert_value(&r, "topdown.retiring", 0.60, 1e-12);
}

/* SMT on, counted per thread (#core_wide < 1): core clocks =
 * CPU_CLK_UNHALTED.THREAD / 2 * (1 + ONE_THREAD_ACTIVE / REF_XCLK), and
 * recovery = INT_MISC.RECOVERY_CYCLES_ANY / 2. */
static void test_skl_smt_on(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval_example(&r, TREE_TOPDOWN, NULL, "skl-handmade.counts", true);
	double slots = 4 * (1e9 / 2 * (1 + 300e6 / 400e6));
	double fe = 800e6 / slots;
	double bad = (2600e6 - 2400e6 + 4 * (36e6 / 2)) / slots;
	double be = 1 - fe - (2600e6 + 4 * (36e6 / 2)) / slots;

	expect(&r, "slots", 3.5e9);
	expect(&r, "topdown.frontend_bound", fe);
	expect(&r, "topdown.bad_speculation", bad);
	expect(&r, "topdown.backend_bound", be);
	expect(&r, "topdown.retiring", 2400e6 / slots);
}

/* SMT on without the events it needs: not measured, and says which. */
static void test_skl_smt_on_missing(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_TOPDOWN, NULL,
		"CPU_CLK_UNHALTED.THREAD,100\nIDQ_UOPS_NOT_DELIVERED.CORE,40\n", 0, 0);
	assert_title(r.def, "Skylake");
	th_assert_value(&r, "topdown.frontend_bound", 0.1, 1e-12);  /* SMT off */
	th_assert_missing(&r, "topdown.retiring");
	assert_true(th_missing_has(&r, "topdown.retiring", "UOPS_RETIRED.RETIRE_SLOTS"));
}

/* icl-metrics.json: the PERF_METRICS events normalized by their sum. */
static void test_icl(void **state)
{
	struct tree_result r;
	(void)state;

	assert_title(th_eval_example(&r, TREE_TOPDOWN, NULL, "icl-topdown-handmade.counts",
				     false), "Ice Lake");
	double slots = 5e9, sum = 1100e6 + 400e6 + 1500e6 + 2000e6;
	double fe = 1100e6 / sum - 50e6 / slots;
	double be = 2000e6 / sum + 5 * 4e6 / slots;
	double ret = 1500e6 / sum + 0 * slots;
	double bad = fmax(1 - (fe + be + ret), 0);
	double lat = (5 * 150e6 - 50e6) / slots;
	double br = 3e6 / (3e6 + 1e6) * bad;
	double mem = (250e6 + 50e6) / (350e6 + (100e6 + ret * 80e6) + 50e6) * be;
	double ms = ret * slots / 1800e6 * 60e6 / slots;
	double heavy = ms + ret * (600e6 - 450e6) / 900e6;

	expect(&r, "slots", slots);
	expect(&r, "topdown.frontend_bound", fe);
	expect(&r, "topdown.frontend_bound.fetch_latency", lat);
	expect(&r, "topdown.frontend_bound.fetch_bandwidth", fmax(0, fe - lat));
	expect(&r, "topdown.bad_speculation", bad);
	expect(&r, "topdown.bad_speculation.branch_mispredicts", br);
	expect(&r, "topdown.bad_speculation.machine_clears", fmax(0, bad - br));
	expect(&r, "topdown.backend_bound", be);
	expect(&r, "topdown.backend_bound.memory_bound", mem);
	expect(&r, "topdown.backend_bound.core_bound", fmax(0, be - mem));
	expect(&r, "topdown.retiring", ret);
	expect(&r, "topdown.retiring.heavy_operations", heavy);
	expect(&r, "topdown.retiring.light_operations", fmax(0, ret - heavy));
	th_assert_value(&r, "topdown.frontend_bound", 0.21, 1e-12);
	th_assert_value(&r, "topdown.backend_bound", 0.404, 1e-12);
	th_assert_value(&r, "topdown.bad_speculation", 0.086, 1e-12);
	th_assert_value(&r, "topdown.retiring.heavy_operations", 0.06, 1e-12);
}

/* When perf's max(.., 0) clamps bad speculation, level 1 no longer adds up
 * to 1: flagged, not hidden. */
static void test_icl_clamp_flagged(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_TOPDOWN, NULL,
		"slots,1000\ntopdown-retiring,400\ntopdown-bad-spec,0\ntopdown-fe-bound,300\n"
		"topdown-be-bound,300\nint_misc.uop_dropping,0\nINT_MISC.CLEARS_COUNT,40\n", 0, 0);
	assert_title(r.def, "Ice Lake");
	/* backend = 0.3 + 5 * 40 / 1000 = 0.5; 0.3 + 0.5 + 0.4 > 1 */
	th_assert_value(&r, "topdown.backend_bound", 0.5, 1e-12);
	th_assert_value(&r, "topdown.bad_speculation", 0, 0);
	assert_true(th_warn(&r, "topdown") & WARN_SUM);
}

/* spr-metrics.json on a hybrid file: the cpu_core rows, the cpu_atom rows
 * kept apart. */
static void test_spr_hybrid(void **state)
{
	struct tree_result r;
	struct counts c;
	(void)state;

	assert_title(th_eval_example(&r, TREE_TOPDOWN, NULL, "spr-hybrid-handmade.counts",
				     false), "Sapphire Rapids");
	double slots = 6e9, sum = 1200e6 + 300e6 + 2400e6 + 2100e6;
	double fe = 1200e6 / sum - 60e6 / slots;
	double be = 2100e6 / sum, ret = 2400e6 / sum;
	double bad = fmax(1 - (fe + be + ret), 0);
	double lat = 700e6 / sum - 60e6 / slots;
	double br = 250e6 / sum, mem = 1500e6 / sum, heavy = 600e6 / sum;

	expect(&r, "slots", slots);
	expect(&r, "topdown.frontend_bound", fe);
	expect(&r, "topdown.frontend_bound.fetch_latency", lat);
	expect(&r, "topdown.frontend_bound.fetch_bandwidth", fmax(0, fe - lat));
	expect(&r, "topdown.bad_speculation", bad);
	expect(&r, "topdown.bad_speculation.branch_mispredicts", br);
	expect(&r, "topdown.bad_speculation.machine_clears", fmax(0, bad - br));
	expect(&r, "topdown.backend_bound", be);
	expect(&r, "topdown.backend_bound.memory_bound", mem);
	expect(&r, "topdown.backend_bound.core_bound", fmax(0, be - mem));
	expect(&r, "topdown.retiring", ret);
	expect(&r, "topdown.retiring.heavy_operations", heavy);
	expect(&r, "topdown.retiring.light_operations", fmax(0, ret - heavy));
	th_load_example(&c, "spr-hybrid-handmade.counts");
	assert_int_equal(counts_kept_apart(&c), 5);
	assert_true(fabs(counts_find(&c, NULL, "TOPDOWN.SLOTS")->value - 6e9) < 1);
	assert_true(fabs(counts_find(&c, NULL, "cycles")->value - 1e9) < 1);
	counts_free(&c);
}

/* The same file's E-core rows: Gracemont level 1 (adl-metrics.json): FE, BE and retiring slots over 5 x CPU_CLK_UNHALTED.CORE,
 * bad speculation the rest. */
static void test_grt_atom_rows(void **state)
{
	struct tree_result r;
	struct counts c, atom;
	struct penalties pen;
	(void)state;

	th_load_example(&c, "spr-hybrid-handmade.counts");
	assert_int_equal(counts_atom_rows(&atom, &c), 0);
	assert_int_equal(atom.n, 5);
	assert_true(fabs(counts_find(&atom, NULL, "cycles")->value - 400e6) < 1);
	penalties_default(&pen, 0);
	const struct tree_def *def = tree_def_pick(TREE_TOPDOWN, NULL, &atom);
	assert_title(def, "Gracemont");
	struct tree_ctx ctx = { .model = tree_default_model(def), .pen = &pen };
	tree_eval(def, &atom, &ctx, &r);
	double slots = 5 * 400e6;
	expect(&r, "slots", slots);
	expect(&r, "topdown.frontend_bound", 600e6 / slots);
	expect(&r, "topdown.backend_bound", 500e6 / slots);
	expect(&r, "topdown.retiring", 700e6 / slots);
	expect(&r, "topdown.bad_speculation", (slots - (600e6 + 500e6 + 700e6)) / slots);
	expect(&r, "topdown", 1);
	counts_free(&atom);
	counts_free(&c);
}

/* The Gracemont E-core's level 2 (perf's adl-metrics.json cpu_atom, Linux
 * 6.12): each node its slot event over 5 x CPU_CLK_UNHALTED.CORE; resource
 * bound = backend - core bound. */
static void test_grt_level2(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_TOPDOWN, "adl_grt",
		"CPU_CLK_UNHALTED.CORE,1000\nTOPDOWN_FE_BOUND.ALL,1500\n"
		"TOPDOWN_BE_BOUND.ALL,1200\nTOPDOWN_RETIRING.ALL,1900\n"
		"TOPDOWN_FE_BOUND.FRONTEND_LATENCY,1000\nTOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH,500\n"
		"TOPDOWN_BAD_SPECULATION.MISPREDICT,300\nTOPDOWN_BAD_SPECULATION.MACHINE_CLEARS,100\n"
		"TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS,200\n", 0, 0);
	assert_title(r.def, "Gracemont");
	double slots = 5 * 1000.0;
	expect(&r, "topdown.bad_speculation", (slots - (1500 + 1200 + 1900)) / slots);
	expect(&r, "topdown.frontend_bound.fetch_latency", 1000 / slots);
	expect(&r, "topdown.frontend_bound.fetch_bandwidth", 500 / slots);
	expect(&r, "topdown.bad_speculation.branch_mispredicts", 300 / slots);
	expect(&r, "topdown.bad_speculation.machine_clears", 100 / slots);
	expect(&r, "topdown.backend_bound.core_bound", 200 / slots);
	expect(&r, "topdown.backend_bound.resource_bound", (1200 - 200) / slots);
}

/* amdzen4/pipeline.json: fractions of total_dispatch_slots = 6 x cycles. */
static void test_zen4(void **state)
{
	struct tree_result r;
	(void)state;

	assert_title(th_eval_example(&r, TREE_TOPDOWN, NULL, "zen4-handmade.counts", false),
		     "Zen 4");
	double total = 6 * 1e9;
	double bad = (2100e6 - 1800e6) / total, be = 2400e6 / total, ret = 1800e6 / total;

	expect(&r, "slots", total);
	expect(&r, "topdown.frontend_bound", 1200e6 / total);
	expect(&r, "topdown.frontend_bound.fetch_latency", 6 * 100e6 / total);
	expect(&r, "topdown.frontend_bound.fetch_bandwidth", (1200e6 - 6 * 100e6) / total);
	expect(&r, "topdown.bad_speculation", bad);
	expect(&r, "topdown.bad_speculation.branch_mispredicts", bad * 6e6 / (6e6 + 2e6));
	expect(&r, "topdown.bad_speculation.machine_clears", bad * 2e6 / (6e6 + 2e6));
	expect(&r, "topdown.backend_bound", be);
	expect(&r, "topdown.backend_bound.memory_bound", be * (200e6 / 320e6));
	expect(&r, "topdown.backend_bound.core_bound", be * (1 - 200e6 / 320e6));
	expect(&r, "topdown.retiring", ret);
	expect(&r, "topdown.retiring.heavy_operations", ret * (90e6 / 1800e6));
	expect(&r, "topdown.retiring.light_operations", ret * (1 - 90e6 / 1800e6));
	expect(&r, "topdown.smt_contention", 300e6 / total);
}

/* amdzen5/pipeline.json: fractions of total_dispatch_slots = 8 x cycles; the
 * front-end latency term at cmask 0x8; restarts by bp_redirects.resync. */
static void test_zen5(void **state)
{
	struct tree_result r;
	(void)state;

	assert_title(th_eval_example(&r, TREE_TOPDOWN, NULL, "zen5-handmade.counts", false),
		     "Zen 5");
	double total = 8 * 1e9;
	double fe = 1500e6 / total, bad = (2600e6 - 2200e6) / total, be = 3700e6 / total;
	double ret = 2200e6 / total, smt = 200e6 / total;

	expect(&r, "slots", total);
	expect(&r, "topdown.frontend_bound", fe);
	expect(&r, "topdown.frontend_bound.fetch_latency", 8 * 120e6 / total);
	expect(&r, "topdown.frontend_bound.fetch_bandwidth", (1500e6 - 8 * 120e6) / total);
	expect(&r, "topdown.bad_speculation", bad);
	expect(&r, "topdown.bad_speculation.branch_mispredicts", bad * 7e6 / (7e6 + 3e6));
	expect(&r, "topdown.bad_speculation.machine_clears", bad * 3e6 / (7e6 + 3e6));
	expect(&r, "topdown.backend_bound", be);
	expect(&r, "topdown.backend_bound.memory_bound", be * (170e6 / 270e6));
	expect(&r, "topdown.backend_bound.core_bound", be * (1 - 170e6 / 270e6));
	expect(&r, "topdown.retiring", ret);
	expect(&r, "topdown.retiring.heavy_operations", ret * (110e6 / 2200e6));
	expect(&r, "topdown.retiring.light_operations", ret * (1 - 110e6 / 2200e6));
	expect(&r, "topdown.smt_contention", smt);
	/* level 1 and SMT contention share out the slots */
	assert_true(fabs(fe + bad + be + ret + smt - 1) < 1e-12);
	/* the Zen 4 file keeps Zen 4's formulas (6 slots) */
	th_eval_example(&r, TREE_TOPDOWN, NULL, "zen4-handmade.counts", false);
	assert_title(r.def, "Zen 4");
}

/* Granite Rapids (graniterapids_metrics.json v1.3 == spr's text): slots and
 * the PERF_METRICS, under the gnr model. */
static void test_gnr(void **state)
{
	struct tree_result r;
	(void)state;

	const struct tree_def *def = th_eval_example(&r, TREE_TOPDOWN, model_find("gnr"),
						     "gnr-handmade.counts", false);
	assert_title(def, "Granite Rapids");
	double slots = 6e9, sum = 1050e6 + 450e6 + 2700e6 + 1800e6;
	/* Frontend_Bound = a / (a + b + c + d) - e / f */
	double fe = 1050e6 / sum - 48e6 / slots;
	/* Backend_Bound = a / (b + c + d + a); Retiring = a / (b + c + a + d) */
	double be = 1800e6 / sum, ret = 2700e6 / sum;
	/* Bad_Speculation = max(1 - (Frontend_Bound + Backend_Bound + Retiring), 0) */
	double bad = fmax(1 - (fe + be + ret), 0);
	/* Fetch_Latency = a / (b + c + d + e) - f / g */
	double lat = 640e6 / sum - 48e6 / slots;
	double br = 380e6 / sum, mem = 1100e6 / sum, heavy = 500e6 / sum;

	expect(&r, "slots", slots);
	expect(&r, "topdown.frontend_bound", fe);
	expect(&r, "topdown.frontend_bound.fetch_latency", lat);
	expect(&r, "topdown.frontend_bound.fetch_bandwidth", fmax(0, fe - lat));
	expect(&r, "topdown.bad_speculation", bad);
	expect(&r, "topdown.bad_speculation.branch_mispredicts", br);
	expect(&r, "topdown.bad_speculation.machine_clears", fmax(0, bad - br));
	expect(&r, "topdown.backend_bound", be);
	expect(&r, "topdown.backend_bound.memory_bound", mem);
	expect(&r, "topdown.backend_bound.core_bound", fmax(0, be - mem));
	expect(&r, "topdown.retiring", ret);
	expect(&r, "topdown.retiring.heavy_operations", heavy);
	expect(&r, "topdown.retiring.light_operations", fmax(0, ret - heavy));
	expect(&r, "topdown", 1);
	/* Emerald Rapids takes the same definition */
	assert_ptr_equal(tree_def_pick(TREE_TOPDOWN, model_find("emr"), NULL), def);
}

/* srf-metrics.json: each node its own slot event over 6 x
 * CPU_CLK_UNHALTED.CORE; tma_resource_bound = backend - core bound. */
static void test_srf(void **state)
{
	struct tree_result r;
	(void)state;

	assert_title(th_eval_example(&r, TREE_TOPDOWN, NULL, "srf-handmade.counts", false),
		     "Sierra Forest");
	double slots = 6 * 1e9;

	expect(&r, "slots", slots);
	expect(&r, "topdown", 1);
	expect(&r, "topdown.frontend_bound", 1500e6 / slots);
	expect(&r, "topdown.frontend_bound.fetch_latency", 900e6 / slots);
	expect(&r, "topdown.frontend_bound.fetch_bandwidth", 600e6 / slots);
	expect(&r, "topdown.bad_speculation", 500e6 / slots);
	expect(&r, "topdown.bad_speculation.branch_mispredicts", 350e6 / slots);
	expect(&r, "topdown.bad_speculation.machine_clears", 150e6 / slots);
	expect(&r, "topdown.backend_bound", 2200e6 / slots);
	expect(&r, "topdown.backend_bound.core_bound", 700e6 / slots);
	expect(&r, "topdown.backend_bound.resource_bound", (2200e6 - 700e6) / slots);
	expect(&r, "topdown.retiring", 1800e6 / slots);
	assert_ptr_equal(tree_def_pick(TREE_TOPDOWN, model_find("srf"), NULL), r.def);
}

/* perf's d_ratio is 0 on a zero denominator (a plain division is NaN). */
static void test_zen4_d_ratio_zero(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_TOPDOWN, NULL,
		"ls_not_halted_cyc,0\nde_no_dispatch_per_slot.no_ops_from_frontend,0\n"
		"de_no_dispatch_per_slot.backend_stalls,0\nex_ret_ops,0\nde_src_op_disp.all,0\n", 0, 0);
	assert_title(r.def, "Zen 4");
	th_assert_value(&r, "topdown.frontend_bound", 0, 0);
	th_assert_value(&r, "topdown.retiring", 0, 0);
}

/* Every variant carries the contract ids. */
static void test_contract_ids(void **state)
{
	static const char *const ids[] = {
		"slots", "topdown.frontend_bound", "topdown.frontend_bound.fetch_latency",
		"topdown.frontend_bound.fetch_bandwidth", "topdown.bad_speculation",
		"topdown.bad_speculation.branch_mispredicts",
		"topdown.bad_speculation.machine_clears", "topdown.backend_bound",
		"topdown.backend_bound.memory_bound", "topdown.backend_bound.core_bound",
		"topdown.retiring", "topdown.retiring.heavy_operations",
		"topdown.retiring.light_operations",
	};
	static const char *const files[] = {
		"skl-handmade.counts", "icl-topdown-handmade.counts",
		"spr-hybrid-handmade.counts", "gnr-handmade.counts", "zen4-handmade.counts",
		"zen5-handmade.counts",
	};
	struct tree_result r;
	(void)state;

	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		th_eval_example(&r, TREE_TOPDOWN, NULL, files[f], false);
		for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
			assert_true(tree_node_index(r.def, ids[i]) >= 0);
	}
	assert_true(tree_node_index(r.def, "topdown.smt_contention") >= 0);
}

/* The path a node's id names, "a > b > c", from tree_bottleneck_path. */
static void assert_path(const struct tree_result *r, const char *want)
{
	int path[TREE_MAX_NODES], n = tree_bottleneck_path(r, path);
	char got[512] = "";

	for (int k = 0; k < n; k++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", k ? " > " : "",
			 r->def->nodes[path[k]].id);
	if (strcmp(got, want) != 0)
		fail_msg("bottleneck path '%s', want '%s'", got, want);
}

/* toplev's rule (TREE_BN_*): skl's frontend (0.20 of the slots, the only
 * part from 20%; retiring's 0.60 is under 70%), then its fetch latency
 * (60% of it, against 40%); Zen 4's backend (0.40), then memory (62.5%).
 * The fractions of slots are shares, written as percents. */
static void test_bottleneck(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval_example(&r, TREE_TOPDOWN, NULL, "skl-handmade.counts", false);
	assert_path(&r, "topdown > topdown.frontend_bound > topdown.frontend_bound.fetch_latency");
	assert_true(tree_is_share(r.def, tree_node_index(r.def, "topdown")));
	assert_true(tree_is_share(r.def, tree_node_index(r.def, "topdown.backend_bound.memory_bound")));
	assert_false(tree_is_share(r.def, tree_node_index(r.def, "slots")));
	double share = tree_parent_share(&r, tree_node_index(r.def,
						  "topdown.frontend_bound.fetch_latency"));
	assert_true(fabs(share - 0.6) < 1e-12);
	th_eval_example(&r, TREE_TOPDOWN, NULL, "zen4-handmade.counts", false);
	assert_path(&r, "topdown > topdown.backend_bound > topdown.backend_bound.memory_bound");
	/* the Skylake's intel tree: stalls (30%), memory (60%), then L1 and
	 * DRAM at 33.3% each: ambiguous, the path ends at memory */
	th_eval_example(&r, TREE_INTEL, NULL, "skl-handmade.counts", false);
	assert_path(&r, "cycles > cycles.stalls > cycles.stalls.memory");
	assert_false(tree_is_share(r.def, tree_node_index(r.def, "cycles.stalls")));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skl_smt_off),
		cmocka_unit_test(test_bottleneck),
		cmocka_unit_test(test_skl_smt_on),
		cmocka_unit_test(test_skl_smt_on_missing),
		cmocka_unit_test(test_icl),
		cmocka_unit_test(test_icl_clamp_flagged),
		cmocka_unit_test(test_spr_hybrid),
		cmocka_unit_test(test_grt_atom_rows),
		cmocka_unit_test(test_grt_level2),
		cmocka_unit_test(test_zen4),
		cmocka_unit_test(test_zen4_d_ratio_zero),
		cmocka_unit_test(test_zen5),
		cmocka_unit_test(test_gnr),
		cmocka_unit_test(test_srf),
		cmocka_unit_test(test_contract_ids),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
