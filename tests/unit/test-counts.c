/* Counts sets and counts files (arch/counts.c).
 *
 * Two input formats: ours, EVENT,VALUE or EVENT,SAMPLES,PERIOD (a sample
 * count becomes samples x period before any arithmetic: the AMD paper,
 * section 3, and the Core2 slides), and `perf stat -x,` output
 * (VALUE,UNIT,EVENT,RUNTIME,PERCENT,METRIC,METRIC_UNIT). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "arch/counts.h"
#include "arch/model.h"

#define FNAME "in.counts"

static void assert_near(double got, double want)
{
	if (fabs(got - want) > 1e-9 * fabs(want) + 1e-12) {
		fprintf(stderr, "got %.12g, want %.12g\n", got, want);
		fail();
	}
}

static void parse_ok_len(struct counts *c, const char *text, size_t len)
{
	char err[256] = "";

	counts_init(c);
	if (counts_parse(c, text, len, FNAME, err, sizeof(err)) != 0) {
		fprintf(stderr, "counts_parse: %s\n", err);
		fail();
	}
}

static void parse_ok(struct counts *c, const char *text)
{
	parse_ok_len(c, text, strlen(text));
}

/* Parsing fails with "FNAME:LINE: ..." containing WHAT. */
static void parse_fails_len(const char *text, size_t len, int line, const char *what)
{
	struct counts c;
	char err[256] = "", prefix[64];

	counts_init(&c);
	if (counts_parse(&c, text, len, FNAME, err, sizeof(err)) == 0) {
		fprintf(stderr, "accepted: %s\n", text);
		counts_free(&c);
		fail();
	}
	counts_free(&c);
	snprintf(prefix, sizeof(prefix), "%s:%d: ", FNAME, line);
	if (strncmp(err, prefix, strlen(prefix)) != 0 || !strstr(err, what)) {
		fprintf(stderr, "error '%s', want '%s...%s'\n", err, prefix, what);
		fail();
	}
}

static void parse_fails(const char *text, int line, const char *what)
{
	parse_fails_len(text, strlen(text), line, what);
}

static const struct count_entry *must_get(const struct counts *c, const char *name)
{
	const struct count_entry *e = counts_find(c, NULL, name);

	if (!e) {
		fprintf(stderr, "no entry %s\n", name);
		fail();
	}
	return e;
}

/* --- our format ---------------------------------------------------------- */

static void test_ours_counts_and_samples(void **state)
{
	struct counts c;

	(void)state;
	parse_ok(&c, "CPU_CLK_UNHALTED.CORE,1000000\n"
		     "INST_RETIRED.ANY_P,500,2000\n"
		     "MEM_LOAD_RETIRED.L2_LINE_MISS,3,10000\n");
	assert_int_equal(c.n, 3);
	const struct count_entry *e = must_get(&c, "CPU_CLK_UNHALTED.CORE");
	assert_near(e->value, 1e6);
	assert_near(e->samples, 0);
	assert_near(e->period, 0);
	assert_near(e->coverage, 1.0);
	assert_false(e->not_counted);
	assert_int_equal(e->sources, 1);
	e = must_get(&c, "INST_RETIRED.ANY_P");
	assert_near(e->value, 500.0 * 2000.0);
	assert_near(e->samples, 500);
	assert_near(e->period, 2000);
	e = must_get(&c, "MEM_LOAD_RETIRED.L2_LINE_MISS");
	assert_near(e->value, 30000);
	assert_near(e->samples, 3);
	assert_near(e->period, 10000);
	/* names are kept as written */
	assert_string_equal(c.v[1].name, "INST_RETIRED.ANY_P");
	counts_free(&c);
	assert_int_equal(c.n, 0);
	assert_null(c.v);
}

static void test_ours_layout(void **state)
{
	struct counts c;

	(void)state;
	parse_ok(&c, "# cyctop counts\n"
		     "\n"
		     "   \t\n"
		     "A,1   # trailing comment\n"
		     "  B ,  2  \n"
		     "\tC\t,\t3\t,\t10\t\n"
		     "#D,4\n"
		     "E,5.5e3\n"
		     "F,7");  /* no final newline */
	assert_int_equal(c.n, 5);
	assert_near(must_get(&c, "A")->value, 1);
	assert_near(must_get(&c, "B")->value, 2);
	assert_near(must_get(&c, "C")->value, 30);
	assert_near(must_get(&c, "C")->samples, 3);
	assert_near(must_get(&c, "E")->value, 5500);
	assert_near(must_get(&c, "F")->value, 7);
	assert_null(counts_find(&c, NULL, "D"));
	assert_string_equal(must_get(&c, "B")->name, "B");
	counts_free(&c);
}

static void test_ours_crlf(void **state)
{
	struct counts c;

	(void)state;
	parse_ok(&c, "# made on Windows\r\n\r\nA,1\r\nB,2,100\r\nC,3 # x\r\n");
	assert_int_equal(c.n, 3);
	assert_string_equal(c.v[0].name, "A");
	assert_near(must_get(&c, "A")->value, 1);
	assert_near(must_get(&c, "B")->value, 200);
	assert_near(must_get(&c, "B")->period, 100);
	assert_near(must_get(&c, "C")->value, 3);
	counts_free(&c);
}

static void test_ours_duplicates_summed(void **state)
{
	struct counts c;

	(void)state;
	parse_ok(&c, "A,1\nB,5\nA,2\na,4\n");
	assert_int_equal(c.n, 2);
	assert_near(must_get(&c, "A")->value, 7);
	assert_near(must_get(&c, "B")->value, 5);
	counts_free(&c);

	/* same period: samples and period stay meaningful */
	parse_ok(&c, "X,10,100\nX,5,100\n");
	assert_int_equal(c.n, 1);
	assert_near(c.v[0].value, 1500);
	assert_near(c.v[0].samples, 15);
	assert_near(c.v[0].period, 100);
	counts_free(&c);

	/* mixed periods: the normalized count is all that remains */
	parse_ok(&c, "X,10,100\nX,5,200\n");
	assert_near(c.v[0].value, 2000);
	assert_near(c.v[0].period, 0);
	counts_free(&c);
}

static void test_ours_perf_pmu_syntax(void **state)
{
	struct counts c;

	(void)state;
	parse_ok(&c, "cpu/event=0xa0,umask=0x00,cmask=1,inv=1/,4000\n"
		     "cpu/event=0x3c,umask=0x00/u,100,1000\n");
	assert_int_equal(c.n, 2);
	assert_near(must_get(&c, "cpu/event=0xa0,umask=0x00,cmask=1,inv=1/")->value, 4000);
	assert_near(must_get(&c, "cpu/event=0x3c,umask=0x00/u")->value, 100000);
	counts_free(&c);
}

/* --- perf stat -x, -------------------------------------------------------- */

static void test_perf_stat(void **state)
{
	struct counts c;

	(void)state;
	parse_ok(&c, "\n"
		     "# started on Mon Jan  1 00:00:00 2024\n"
		     "\n"
		     "1234567,,cycles,1000000,100.00,,\n"
		     "12.50,msec,task-clock,12500000,100.00,0.998,CPUs utilized\n"
		     "<not counted>,,instructions,0,0.00,,\n"
		     "<not supported>,,branches,0,100.00,,\n"
		     "1000,,cache-misses,500000,50.00,,\n"
		     "17,,context-switches,12500000,100.00,1.360,K/sec\n");
	assert_int_equal(c.n, 6);
	const struct count_entry *e = must_get(&c, "cycles");
	assert_near(e->value, 1234567);
	assert_near(e->coverage, 1.0);
	assert_false(e->not_counted);
	assert_near(e->period, 0);
	e = must_get(&c, "task-clock");
	assert_near(e->value, 12.5e6);  /* msec -> ns */
	e = must_get(&c, "instructions");
	assert_true(e->not_counted);
	assert_near(e->coverage, 0);
	assert_true(must_get(&c, "branches")->not_counted);
	e = must_get(&c, "cache-misses");
	assert_near(e->value, 1000);
	assert_near(e->coverage, 0.5);
	assert_near(must_get(&c, "context-switches")->value, 17);
	counts_free(&c);
}

static void test_perf_stat_pmu_syntax(void **state)
{
	struct counts c;

	(void)state;
	parse_ok(&c, "4000,,cpu/event=0xa0,umask=0x00,cmask=1,inv=1/u,2000000,75.00,,\r\n"
		     "9000,,cpu/event=0xa0,umask=0x00/,2000000,100.00,,\r\n");
	assert_int_equal(c.n, 2);
	const struct count_entry *e = must_get(&c, "cpu/event=0xa0,umask=0x00,cmask=1,inv=1/u");
	assert_near(e->value, 4000);
	assert_near(e->coverage, 0.75);
	assert_near(must_get(&c, "cpu/event=0xa0,umask=0x00/")->value, 9000);
	counts_free(&c);
}

/* Duplicates are summed within a file: a <not counted> line adds nothing and
 * does not hide a line that did count the event, in either order. */
static void test_perf_stat_not_counted_duplicate(void **state)
{
	struct counts c;

	(void)state;
	parse_ok(&c, "100,,instructions,1000,50.00,,\n<not counted>,,instructions,0,0.00,,\n");
	assert_int_equal(c.n, 1);
	assert_false(c.v[0].not_counted);
	assert_near(c.v[0].value, 100);
	counts_free(&c);
	parse_ok(&c, "<not counted>,,instructions,0,0.00,,\n100,,instructions,1000,50.00,,\n");
	assert_int_equal(c.n, 1);
	assert_false(c.v[0].not_counted);
	assert_near(c.v[0].value, 100);
	assert_near(c.v[0].coverage, 0.5);
	counts_free(&c);
	/* without a percentage field the counted line covers the whole run */
	parse_ok(&c, "<not counted>,,cycles\n100,,cycles\n");
	assert_false(c.v[0].not_counted);
	assert_near(c.v[0].coverage, 1.0);
	counts_free(&c);
	parse_ok(&c, "<not counted>,,instructions,0,0.00,,\n<not supported>,,instructions,0,0,,\n");
	assert_int_equal(c.n, 1);
	assert_true(c.v[0].not_counted);
	counts_free(&c);
}

/* Names are kept whole in both formats: too long is an error, not a cut. */
static void test_perf_stat_long_name(void **state)
{
	char name[COUNT_NAME_MAX + 20], text[sizeof(name) + 64];

	(void)state;
	memset(name, 'N', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(text, sizeof(text), "A,1\n5,,%s,1000,100.00,,\n", name);
	parse_fails(text, 2, "too long");
	snprintf(text, sizeof(text), "<not counted>,,%s,0,0.00,,\n", name);
	parse_fails(text, 1, "too long");
}

static void test_perf_stat_mixed_with_ours(void **state)
{
	struct counts c;

	(void)state;
	/* both kinds of line in one file, one event from each */
	parse_ok(&c, "1000,,cycles,1000000,100.00,,\nINST_RETIRED.ANY_P,20,50\ncycles,500\n");
	assert_int_equal(c.n, 2);
	assert_near(must_get(&c, "cycles")->value, 1500);
	assert_near(must_get(&c, "INST_RETIRED.ANY_P")->value, 1000);
	counts_free(&c);
}

/* --- errors ----------------------------------------------------------------- */

static void test_errors_values(void **state)
{
	(void)state;
	parse_fails("A,abc\n", 1, "not a number");
	parse_fails("A,1\n# comment\n\nB,12abc\n", 4, "not a number");
	parse_fails("A,\n", 1, "not a number");
	parse_fails("A,nan\n", 1, "not a number");
	parse_fails("A,inf\n", 1, "not a number");
	parse_fails("A,-5\n", 1, "negative");
	parse_fails("A,1\r\nB,-0.5\r\n", 2, "negative");
	parse_fails("-5,,cycles,1000,100.00,,\n", 1, "negative");
}

static void test_errors_period(void **state)
{
	(void)state;
	parse_fails("A,5,0\n", 1, "period");
	parse_fails("A,5,-100\n", 1, "period");
	parse_fails("A,1\nB,5,abc\n", 2, "period");
	parse_fails("A,5,\n", 1, "period");
}

static void test_errors_fields_and_names(void **state)
{
	char line[64];

	(void)state;
	parse_fails("A,1,2,3\n", 1, "EVENT,VALUE");
	parse_fails("A,1\nB\n", 2, "EVENT,VALUE");
	parse_fails("A,1,2,3,4,5,6,7,8,9,10,11,12,13,14\n", 1, "too many fields");
	parse_fails(",5\n", 1, "event name");
	parse_fails("  ,5,10\n", 1, "event name");
	parse_fails("5,,,1000,100.00,,\n", 1, "event name");
	/* a name longer than an entry holds */
	char name[COUNT_NAME_MAX + 20];
	memset(name, 'N', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	char text[sizeof(name) + 16];
	snprintf(text, sizeof(text), "%s,1\n", name);
	parse_fails(text, 1, "too long");
	/* a line longer than the parser takes */
	static char huge[3000];
	memset(huge, 'x', sizeof(huge) - 1);
	huge[sizeof(huge) - 1] = '\0';
	snprintf(line, sizeof(line), "A,1\n");
	char *t = malloc(strlen(line) + sizeof(huge) + 4);
	assert_non_null(t);
	sprintf(t, "%s%s,1\n", line, huge);
	parse_fails(t, 2, "too long");
	free(t);
}

static void test_errors_empty_and_binary(void **state)
{
	struct counts c;
	char err[256] = "";

	(void)state;
	static const char *const empties[] = { "", "\n\n", "# only a comment\n", "  \r\n\t\n" };
	for (size_t i = 0; i < sizeof(empties) / sizeof(empties[0]); i++) {
		counts_init(&c);
		err[0] = '\0';
		assert_int_equal(counts_parse(&c, empties[i], strlen(empties[i]), FNAME, err,
					      sizeof(err)), -1);
		assert_non_null(strstr(err, FNAME));
		assert_non_null(strstr(err, "no event counts"));
		counts_free(&c);
	}
	static const char bin[] = "A,1\nB\0,2\n";
	parse_fails_len(bin, sizeof(bin) - 1, 2, "binary");
	static const char bin2[] = "\x7f" "ELF\x02\x01\x01\0\0\0";
	parse_fails_len(bin2, sizeof(bin2) - 1, 1, "binary");
}

/* --- counts_add / counts_merge ------------------------------------------------- */

static void test_add(void **state)
{
	struct counts c;

	(void)state;
	counts_init(&c);
	/* grows past its first allocation */
	for (int i = 0; i < 100; i++) {
		char name[32];
		snprintf(name, sizeof(name), "E%d", i);
		assert_non_null(counts_add(&c, name, i, 0));
	}
	assert_int_equal(c.n, 100);
	assert_near(must_get(&c, "E99")->value, 99);
	struct count_entry *e = counts_add(&c, "E7", 2, 10);
	assert_near(e->value, 27);
	assert_int_equal(c.n, 100);
	counts_free(&c);
}

static void test_merge_averages(void **state)
{
	struct counts a, b, d;

	(void)state;
	parse_ok(&a, "CYC,100\nONLY_A,10\nS,10,1000\n");
	parse_ok(&b, "CYC,300\nONLY_B,7\nS,30,1000\n");
	counts_merge(&a, &b);
	assert_int_equal(a.n, 4);
	const struct count_entry *e = must_get(&a, "CYC");
	assert_near(e->value, 200);
	assert_int_equal(e->sources, 2);
	e = must_get(&a, "ONLY_A");
	assert_near(e->value, 10);
	assert_int_equal(e->sources, 1);
	e = must_get(&a, "ONLY_B");
	assert_near(e->value, 7);
	assert_int_equal(e->sources, 1);
	e = must_get(&a, "S");
	assert_near(e->value, 20000);
	assert_near(e->samples, 20);
	assert_near(e->period, 1000);

	/* a third file: the mean over the three */
	parse_ok(&d, "CYC,500\n");
	counts_merge(&a, &d);
	e = must_get(&a, "CYC");
	assert_near(e->value, 300);
	assert_int_equal(e->sources, 3);
	/* the merged-from sets are untouched */
	assert_near(must_get(&b, "CYC")->value, 300);
	counts_free(&a);
	counts_free(&b);
	counts_free(&d);
}

static void test_merge_not_counted_and_coverage(void **state)
{
	struct counts a, b;

	(void)state;
	parse_ok(&a, "<not counted>,,instructions,0,0.00,,\n1000,,cycles,100,50.00,,\n");
	parse_ok(&b, "400,,instructions,100,100.00,,\n<not counted>,,cycles,0,0.00,,\n"
		     "3000,,cycles2,100,100.00,,\n");
	counts_merge(&a, &b);
	/* a measurement replaces a <not counted> one... */
	const struct count_entry *e = must_get(&a, "instructions");
	assert_false(e->not_counted);
	assert_near(e->value, 400);
	assert_near(e->coverage, 1.0);
	/* ...and <not counted> does not drag a measurement down */
	e = must_get(&a, "cycles");
	assert_false(e->not_counted);
	assert_near(e->value, 1000);
	assert_near(e->coverage, 0.5);
	assert_int_equal(e->sources, 1);
	counts_free(&a);
	counts_free(&b);

	/* coverage is averaged with the values */
	parse_ok(&a, "1000,,cycles,100,50.00,,\n");
	parse_ok(&b, "3000,,cycles,100,100.00,,\n");
	counts_merge(&a, &b);
	assert_near(must_get(&a, "cycles")->value, 2000);
	assert_near(must_get(&a, "cycles")->coverage, 0.75);
	counts_free(&a);
	counts_free(&b);
}

/* --- counts_find ------------------------------------------------------------- */

static void test_find_by_model_rows(void **state)
{
	const struct arch_model *core = model_find("core"), *k8 = model_find("amd64_k8");
	struct counts c;

	(void)state;
	assert_non_null(core);
	assert_non_null(k8);
	/* written as libpfm4 strings, asked for by paper name */
	parse_ok(&c, "RS_UOPS_DISPATCHED:c=1:i=1,400\n"
		     "RS_UOPS_DISPATCHED:c=1,600\n"
		     "MEM_LOAD_RETIRED:L2_LINE_MISS,7\n");
	const struct count_entry *e = counts_find(&c, core, "RS_UOPS_DISPATCHED.CYCLES_NONE");
	assert_non_null(e);
	assert_near(e->value, 400);
	e = counts_find(&c, core, "RS_UOPS_DISPATCHED.CYCLES_ANY");
	assert_non_null(e);
	assert_near(e->value, 600);
	assert_near(counts_find(&c, core, "MEM_LOAD_RETIRED.L2_LINE_MISS")->value, 7);
	/* by raw code and by another spelling of the string */
	assert_near(counts_find(&c, core, "r18000a0")->value, 400);
	assert_near(counts_find(&c, core, "rs_uops_dispatched:inv=1:cmask=1:u")->value, 400);
	/* neither the stalls nor the dispatching cycles are the plain event */
	assert_null(counts_find(&c, core, "RS_UOPS_DISPATCHED"));
	assert_null(counts_find(&c, core, "RS_UOPS_DISPATCHED:cmask=2:inv=1"));
	counts_free(&c);

	/* written as paper names and raw codes, asked for otherwise */
	parse_ok(&c, "RS_UOPS_DISPATCH.CYCLES_NONE,11\nr2cb,12\nILD_STALLS,13\n");
	assert_near(counts_find(&c, core, "RS_UOPS_DISPATCHED:c=1:i=1")->value, 11);
	assert_near(counts_find(&c, core, "MEM_LOAD_RETIRED.L1D_LINE_MISS")->value, 12);
	assert_near(counts_find(&c, core, "MEM_LOAD_RETIRED:L1D_LINE_MISS")->value, 12);
	assert_near(counts_find(&c, core, "ILD_STALL")->value, 13);
	assert_null(counts_find(&c, core, "MEM_LOAD_RETIRED.L2_LINE_MISS"));
	counts_free(&c);

	/* AMD: the paper's abbreviation against libpfm4's names */
	parse_ok(&c, "DATA_CACHE_REFILLS:L2_SHARED:L2_EXCLUSIVE:L2_OWNED:L2_MODIFIED,50\n"
		     "RETIRED_INSTRUCTIONS,1000\n");
	assert_near(counts_find(&c, k8, "DC_refills_L2")->value, 50);
	assert_near(counts_find(&c, k8, "r1e42")->value, 50);
	assert_near(counts_find(&c, k8, "Ret_instructions")->value, 1000);
	assert_null(counts_find(&c, k8, "DC_refills_sys"));
	/* without a model only the spelling is compared */
	assert_null(counts_find(&c, NULL, "DC_refills_L2"));
	counts_free(&c);
}

static void test_find_by_canonical_string(void **state)
{
	const struct arch_model *perf = model_find("perf"), *core = model_find("core");
	struct counts c;

	(void)state;
	parse_ok(&c, "SOME_EVENT:UMB:UMA:c=2,5\nOTHER.X,6\ncpu-clock,7\n");
	/* no row in these models: the canonical spelling decides */
	assert_near(counts_find(&c, perf, "some_event:uma:umb:cmask=2")->value, 5);
	assert_near(counts_find(&c, NULL, "SOME_EVENT:UMA:UMB:C=2:u")->value, 5);
	assert_near(counts_find(&c, core, "some_event:umb:uma:c=2")->value, 5);
	assert_near(counts_find(&c, core, "OTHER:X")->value, 6);
	assert_null(counts_find(&c, perf, "SOME_EVENT:UMA:UMB"));
	assert_null(counts_find(&c, perf, "SOME_EVENT:UMA:c=2"));
	/* exact names, in any case */
	assert_near(counts_find(&c, perf, "CPU-CLOCK")->value, 7);
	assert_near(counts_find(&c, NULL, "cpu-clock")->value, 7);
	assert_null(counts_find(&c, perf, "task-clock"));
	counts_free(&c);
}

/* perf's names: the kernel's topdown aliases, the cpu// and cpu_core//
 * wrappers, NAME,term=v,flag terms; hybrid cpu_atom rows kept apart. */
static void test_find_perf_names(void **state)
{
	struct counts c;
	(void)state;

	parse_ok(&c, "100,,slots,1,100.00,,\n"
		     "40,,cpu_core/topdown-retiring/,1,100.00,,\n"
		     "7,,cpu_atom/topdown-retiring/,1,100.00,,\n"
		     "9,,cpu/INT_MISC.RECOVERY_CYCLES,cmask=1,edge/,1,100.00,,\n"
		     "11,,cpu_core/uops_decoded.dec0,cmask=1/u,1,100.00,,\n"
		     "13,,cpu_atom/cycles/,1,100.00,,\n"
		     "12,,cpu_core/cycles/,1,100.00,,\n");
	assert_near(counts_find(&c, NULL, "TOPDOWN.SLOTS")->value, 100);
	assert_near(counts_find(&c, NULL, "PERF_METRICS.RETIRING")->value, 40);
	assert_near(counts_find(&c, NULL, "topdown-retiring")->value, 40);
	assert_near(counts_find(&c, NULL, "INT_MISC.RECOVERY_CYCLES:c=1:e=1")->value, 9);
	assert_null(counts_find(&c, NULL, "INT_MISC.RECOVERY_CYCLES:c=1"));
	assert_near(counts_find(&c, NULL, "UOPS_DECODED.DEC0:cmask=1")->value, 11);
	assert_near(counts_find(&c, NULL, "cycles")->value, 12);
	assert_null(counts_find(&c, NULL, "PERF_METRICS.BACKEND_BOUND"));
	assert_int_equal(counts_kept_apart(&c), 2);
	assert_true(counts_other_core_type("cpu_atom/cycles/"));
	assert_false(counts_other_core_type("cpu_core/cycles/"));
	counts_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ours_counts_and_samples),
		cmocka_unit_test(test_ours_layout),
		cmocka_unit_test(test_ours_crlf),
		cmocka_unit_test(test_ours_duplicates_summed),
		cmocka_unit_test(test_ours_perf_pmu_syntax),
		cmocka_unit_test(test_perf_stat),
		cmocka_unit_test(test_perf_stat_pmu_syntax),
		cmocka_unit_test(test_perf_stat_not_counted_duplicate),
		cmocka_unit_test(test_perf_stat_long_name),
		cmocka_unit_test(test_perf_stat_mixed_with_ours),
		cmocka_unit_test(test_errors_values),
		cmocka_unit_test(test_errors_period),
		cmocka_unit_test(test_errors_fields_and_names),
		cmocka_unit_test(test_errors_empty_and_binary),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_merge_averages),
		cmocka_unit_test(test_merge_not_counted_and_coverage),
		cmocka_unit_test(test_find_by_model_rows),
		cmocka_unit_test(test_find_by_canonical_string),
		cmocka_unit_test(test_find_perf_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
