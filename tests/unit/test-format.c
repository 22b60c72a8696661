/* Number and text formatting (tui/format.c): grouped integers, values per
 * unit, JSON strings and numbers, the "not measured: needs ..." list, the
 * --format names. */
#include <float.h>
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
#include "arch/penalty.h"
#include "arch/tree.h"
#include "engine/profile.h"
#include "tui/format.h"

static void assert_grouped(double v, const char *want)
{
	char buf[64];

	assert_string_equal(fmt_grouped(buf, sizeof(buf), v), want);
}

/* What a FILE-writing formatter prints, as a string. */
struct capture {
	char *text;
	size_t len;
	FILE *f;
};

static FILE *cap_open(struct capture *c)
{
	c->text = NULL;
	c->len = 0;
	c->f = open_memstream(&c->text, &c->len);
	assert_non_null(c->f);
	return c->f;
}

static void cap_check(struct capture *c, const char *want)
{
	fclose(c->f);
	assert_string_equal(c->text, want);
	free(c->text);
}

static void json_string_is(const char *in, const char *want)
{
	struct capture c;

	fmt_json_string(cap_open(&c), in);
	cap_check(&c, want);
}

static void json_number_is(double v, const char *want)
{
	struct capture c;

	fmt_json_number(cap_open(&c), v);
	cap_check(&c, want);
}

/* --- fmt_grouped ------------------------------------------------------------ */

static void test_grouped(void **state)
{
	(void)state;
	assert_grouped(0, "0");
	assert_grouped(7, "7");
	assert_grouped(999, "999");
	assert_grouped(1000, "1,000");
	assert_grouped(12345, "12,345");
	assert_grouped(123456, "123,456");
	assert_grouped(1234567, "1,234,567");
	assert_grouped(1000000, "1,000,000");
	assert_grouped(-1, "-1");
	assert_grouped(-999, "-999");
	assert_grouped(-1000, "-1,000");
	assert_grouped(-1234567, "-1,234,567");
	/* rounded to an integer first, then grouped */
	assert_grouped(1234567.89, "1,234,568");
	assert_grouped(999.6, "1,000");
	assert_grouped(-999.6, "-1,000");
	/* huge */
	assert_grouped(1e18, "1,000,000,000,000,000,000");
	assert_grouped(1e21, "1,000,000,000,000,000,000,000");
	assert_grouped(9007199254740992.0, "9,007,199,254,740,992");
	assert_grouped(-9007199254740992.0, "-9,007,199,254,740,992");
}

static void test_grouped_small_buffer(void **state)
{
	char buf[8];

	(void)state;
	/* always terminated, never past the buffer */
	memset(buf, 'Z', sizeof(buf));
	fmt_grouped(buf, sizeof(buf), 1234567890);
	assert_true(memchr(buf, '\0', sizeof(buf)) != NULL);
	assert_true(strlen(buf) < sizeof(buf));
	memset(buf, 'Z', sizeof(buf));
	fmt_grouped(buf, 2, 1234);
	assert_int_equal(buf[1], '\0');
	assert_int_equal(buf[2], 'Z');
}

/* --- fmt_value ---------------------------------------------------------------- */

static void assert_value(double v, enum arch_unit unit, const char *want)
{
	char buf[64];

	assert_string_equal(fmt_value(buf, sizeof(buf), v, unit), want);
}

static void test_value_units(void **state)
{
	(void)state;
	assert_value(1234567, UNIT_CYCLES, "1,234,567");
	assert_value(1234567.4, UNIT_CYCLES, "1,234,567");
	assert_value(-4200, UNIT_CYCLES, "-4,200");
	assert_value(987654321, UNIT_COUNT, "987,654,321");
	assert_value(1.23456, UNIT_RATIO, "1.2346");
	assert_value(0.5, UNIT_RATIO, "0.5000");
	assert_value(2.0, UNIT_RATIO, "2.0000");
	assert_value(1.79, UNIT_UOPS_PER_CYCLE, "1.790");
	assert_value(2.34567, UNIT_UOPS_PER_CYCLE, "2.346");
	assert_value(12.345, UNIT_PERCENT, "12.35");
	assert_value(1500.5, UNIT_PER_SECOND, "1500.50");
	assert_value(0.25, UNIT_SECONDS, "0.2500");
}

static void test_value_not_finite(void **state)
{
	(void)state;
	static const enum arch_unit units[] = {
		UNIT_NONE, UNIT_CYCLES, UNIT_RATIO, UNIT_PERCENT, UNIT_MBPS, UNIT_SECONDS,
		UNIT_UOPS_PER_CYCLE, UNIT_COUNT, UNIT_PER_SECOND, UNIT_MFLOPS,
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		assert_value(NAN, units[i], "-");
		assert_value(INFINITY, units[i], "-");
		assert_value(-INFINITY, units[i], "-");
	}
}

/* --- JSON ------------------------------------------------------------------ */

static void test_json_string(void **state)
{
	(void)state;
	json_string_is("", "\"\"");
	json_string_is("plain text", "\"plain text\"");
	/* UTF-8 passes; a character cut short (a 15-byte comm), stray and
	 * overlong bytes and surrogates become U+FFFD, one per byte */
	json_string_is("caf\xc3\xa9", "\"caf\xc3\xa9\"");
	json_string_is("\xe2\x82\xac\xf0\x9f\x98\x80", "\"\xe2\x82\xac\xf0\x9f\x98\x80\"");
	json_string_is("\xc3\xa9\xc3", "\"\xc3\xa9\\ufffd\"");
	json_string_is("a\x80" "b", "\"a\\ufffd" "b\"");
	json_string_is("\xc0\xaf", "\"\\ufffd\\ufffd\"");
	json_string_is("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
	json_string_is("\xf5\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	json_string_is("\xe2\x82", "\"\\ufffd\\ufffd\"");
	json_string_is("say \"hi\"", "\"say \\\"hi\\\"\"");
	json_string_is("C:\\path\\x", "\"C:\\\\path\\\\x\"");
	json_string_is("a\nb", "\"a\\u000ab\"");
	json_string_is("tab\there\r", "\"tab\\u0009here\\u000d\"");
	json_string_is("\x01\x1f", "\"\\u0001\\u001f\"");
	/* not control characters: DEL and UTF-8 pass through */
	json_string_is("\x7f", "\"\x7f\"");
	json_string_is("caf\xc3\xa9 \xe2\x86\x92", "\"caf\xc3\xa9 \xe2\x86\x92\"");
	/* perf's PMU syntax and libpfm4 strings stay as they are */
	json_string_is("cpu/event=0xa0,umask=0x00/u", "\"cpu/event=0xa0,umask=0x00/u\"");
}

static void test_json_number(void **state)
{
	(void)state;
	json_number_is(0, "0");
	json_number_is(1.5, "1.5");
	json_number_is(-2, "-2");
	json_number_is(0.1, "0.1");
	json_number_is(1234567, "1234567");
	json_number_is(NAN, "null");
	json_number_is(INFINITY, "null");
	json_number_is(-INFINITY, "null");
}

/* Event counts are integers of up to 16 digits: JSON must not round them. */
static void test_json_number_round_trips(void **state)
{
	static const double values[] = {
		12345678901.0,        /* 11 digits: a few seconds of cycles */
		3200000000123.0,
		9007199254740992.0,   /* 2^53 */
		1.0 / 3.0, 2.0 / 3.0, 1e-7, 123.456789012345, DBL_MAX, DBL_MIN, -0.1,
	};

	(void)state;
	json_number_is(12345678901.0, "12345678901");
	json_number_is(9007199254740992.0, "9007199254740992");
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		struct capture c;
		fmt_json_number(cap_open(&c), values[i]);
		fclose(c.f);
		char *end;
		double back = strtod(c.text, &end);
		if (*end || back != values[i]) {
			fprintf(stderr, "%.17g printed as %s\n", values[i], c.text);
			fail();
		}
		/* a JSON number: no inf/nan words, no hex */
		assert_null(strpbrk(c.text, "xXnNiI"));
		free(c.text);
	}
}

/* --- fmt_missing --------------------------------------------------------------- */

static void core2_result(struct tree_result *r, const char *text, double clock_hz)
{
	static struct penalties pen;
	struct counts c;
	struct tree_ctx ctx;
	char err[256] = "";

	counts_init(&c);
	if (counts_parse(&c, text, strlen(text), "test", err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		fail();
	}
	penalties_default(&pen, 0);
	ctx.model = model_find("core");
	assert_non_null(ctx.model);
	ctx.pen = &pen;
	ctx.clock_hz = clock_hz;
	tree_eval(tree_def_get(TREE_CORE2), &c, &ctx, r);
	counts_free(&c);
}

static int node(const struct tree_result *r, const char *id)
{
	int i = tree_node_index(r->def, id);

	assert_true(i >= 0);
	return i;
}

static void assert_missing(const struct tree_result *r, const char *id, const char *want)
{
	char buf[1024];
	int i = node(r, id);

	assert_int_equal(r->v[i].state, NODE_MISSING);
	assert_string_equal(fmt_missing(buf, sizeof(buf), r, i), want);
}

static void test_missing_inputs(void **state)
{
	static struct tree_result r;
	char buf[1024];

	(void)state;
	core2_result(&r, "CPU_CLK_UNHALTED.CORE,1000000\nINST_RETIRED.ANY_P,500000\n", 0);
	/* measured: nothing missing */
	int cpi = node(&r, "cpi");
	assert_int_equal(r.v[cpi].state, NODE_VALUE);
	assert_string_equal(fmt_missing(buf, sizeof(buf), &r, cpi), "");

	assert_missing(&r, "cycles.stalls", "RS_UOPS_DISPATCHED.CYCLES_NONE");
	assert_missing(&r, "cycles.stalls.l2_hit",
		       "MEM_LOAD_RETIRED.L1D_LINE_MISS, MEM_LOAD_RETIRED.L2_LINE_MISS");
	assert_missing(&r, "fsb.utilization", "BUS_DRDY_CLOCKS.ALL_AGENTS, CPU_CLK_UNHALTED.BUS");
	/* an input and the clock */
	assert_missing(&r, "fsb.bandwidth", "BUS_TRANS_BURST.ALL_AGENTS, --clock-hz");
	/* derived inputs are named by what they need */
	assert_missing(&r, "uop_dispatch_rate",
		       "RS_UOPS_DISPATCHED, RS_UOPS_DISPATCHED.CYCLES_ANY (or "
		       "CPU_CLK_UNHALTED.CORE with RS_UOPS_DISPATCHED.CYCLES_NONE)");
}

static void test_missing_clock_only(void **state)
{
	static struct tree_result r;

	(void)state;
	core2_result(&r, "CPU_CLK_UNHALTED.CORE,1000000\nBUS_TRANS_BURST.ALL_AGENTS,1000\n", 0);
	assert_missing(&r, "fsb.bandwidth", "--clock-hz");
	/* with the clock it is measured */
	core2_result(&r, "CPU_CLK_UNHALTED.CORE,1000000\nBUS_TRANS_BURST.ALL_AGENTS,1000\n", 2e9);
	int i = node(&r, "fsb.bandwidth");
	assert_int_equal(r.v[i].state, NODE_VALUE);
	char buf[64];
	assert_string_equal(fmt_missing(buf, sizeof(buf), &r, i), "");
	/* 64 x 1000 x 2e9 / 1e6 cycles / 1e6 = 128 MB/s */
	assert_true(fabs(r.v[i].value - 128.0) < 1e-9);
	/* nothing at all: both inputs, then the clock */
	core2_result(&r, "INST_RETIRED.ANY_P,1\n", 0);
	assert_missing(&r, "fsb.bandwidth",
		       "CPU_CLK_UNHALTED.CORE, BUS_TRANS_BURST.ALL_AGENTS, --clock-hz");
}

/* A short buffer holds whole names only, never a cut one. */
static void test_missing_small_buffer(void **state)
{
	static struct tree_result r;
	static const char *const whole[] = {
		"", "CPU_CLK_UNHALTED.CORE", "BUS_TRANS_BURST.ALL_AGENTS", "--clock-hz",
	};

	(void)state;
	core2_result(&r, "INST_RETIRED.ANY_P,1\n", 0);
	int i = node(&r, "fsb.bandwidth");
	for (size_t sz = 1; sz <= 64; sz++) {
		char *buf = malloc(sz + 1);
		assert_non_null(buf);
		buf[sz] = 'Z';
		fmt_missing(buf, sz, &r, i);
		assert_int_equal(buf[sz], 'Z');
		assert_true(strlen(buf) < sz);
		char *save = NULL, *copy = strdup(buf);
		assert_non_null(copy);
		for (char *item = strtok_r(copy, ",", &save); item;
		     item = strtok_r(NULL, ",", &save)) {
			while (*item == ' ')
				item++;
			bool ok = false;
			for (size_t k = 0; k < sizeof(whole) / sizeof(whole[0]); k++)
				ok |= strcmp(item, whole[k]) == 0;
			if (!ok) {
				fprintf(stderr, "size %zu: cut name '%s' in '%s'\n", sz, item, buf);
				fail();
			}
		}
		free(copy);
		free(buf);
	}
}

/* --format: the four names, exactly; anything else leaves *F alone. */
static void test_parse_output(void **state)
{
	static const char *const bad[] = { "", "Folded", "fold", "folded ", "json,", "jsonl",
					    "TEXT", "csv\n" };
	enum out_format f;

	(void)state;
	assert_int_equal(fmt_parse_output("text", &f), 0);
	assert_int_equal(f, OUT_TEXT);
	assert_int_equal(fmt_parse_output("csv", &f), 0);
	assert_int_equal(f, OUT_CSV);
	assert_int_equal(fmt_parse_output("json", &f), 0);
	assert_int_equal(f, OUT_JSON);
	assert_int_equal(fmt_parse_output("folded", &f), 0);
	assert_int_equal(f, OUT_FOLDED);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f = OUT_CSV;
		assert_int_equal(fmt_parse_output(bad[i], &f), -1);
		assert_int_equal(f, OUT_CSV);
	}
}

/* Control bytes, C1, DEL, bad UTF-8 and backslashes are escaped; UTF-8 stays. */
static void test_escape(void **state)
{
	(void)state;
	char buf[128];

	assert_string_equal(fmt_escape(buf, sizeof(buf), "plain_name"), "plain_name");
	assert_string_equal(fmt_escape(buf, sizeof(buf), "\033]0;pwned\007"), "\\x1b]0;pwned\\x07");
	assert_string_equal(fmt_escape(buf, sizeof(buf), "a\tb\nc\rd\x7f"), "a\\tb\\nc\\rd\\x7f");
	assert_string_equal(fmt_escape(buf, sizeof(buf), "back\\slash"), "back\\\\slash");
	/* U+009B (CSI) is a control; U+00E9 and U+20AC are text */
	assert_string_equal(fmt_escape(buf, sizeof(buf), "\xc2\x9b\xc3\xa9\xe2\x82\xac"),
			    "\\xc2\\x9b\xc3\xa9\xe2\x82\xac");
	/* a comm cut inside a character, a stray byte */
	assert_string_equal(fmt_escape(buf, sizeof(buf), "ab\xe2\x82"), "ab\\xe2\\x82");
	assert_string_equal(fmt_escape(buf, sizeof(buf), "\xff"), "\\xff");
}

/* A small buffer keeps whole escapes only. */
static void test_escape_cut(void **state)
{
	(void)state;
	char buf[6];

	assert_string_equal(fmt_escape(buf, sizeof(buf), "ab\033cd"), "ab");
	assert_string_equal(fmt_escape(buf, sizeof(buf), "\033x"), "\\x1bx");
	assert_string_equal(fmt_escape(buf, 1, "abc"), "");
}

static void test_put_escaped_and_csv(void **state)
{
	(void)state;
	struct capture c;

	fmt_put_escaped(cap_open(&c), "a\007", 8);
	cap_check(&c, "a\\x07   ");
	fmt_put_escaped(cap_open(&c), "longer than", 4);
	cap_check(&c, "longer than");
	fmt_csv_field(cap_open(&c), "say \"hi\"\033");
	cap_check(&c, "\"say \"\"hi\"\"\\x1b\"");
}

/* perf top's [k]/[.] and the module column's short names */
static void test_markers_and_short_modules(void **state)
{
	(void)state;
	assert_string_equal(fmt_space_marker("[kernel.kallsyms]"), "[k]");
	assert_string_equal(fmt_space_marker("[ext4]"), "[k]");
	assert_string_equal(fmt_space_marker("/usr/lib/libc.so.6"), "[.]");
	assert_string_equal(fmt_space_marker("[vdso]"), "[.]");
	assert_string_equal(fmt_space_marker("[anon:jit]"), "[.]");
	assert_string_equal(fmt_module_short("/usr/lib/x86_64-linux-gnu/libc.so.6"), "libc.so.6");
	assert_string_equal(fmt_module_short("mix"), "mix");
	assert_string_equal(fmt_module_short("[kernel.kallsyms]"), "[kernel.kallsyms]");
	assert_string_equal(fmt_module_short("/dir/"), "/dir/");
	char buf[32];
	assert_string_equal(fmt_rate(buf, sizeof(buf), "cpu-clock", 250000, 0), "4000 Hz");
	assert_string_equal(fmt_rate(buf, sizeof(buf), "task-clock:u", 1000000, 0), "1000 Hz");
	assert_string_equal(fmt_rate(buf, sizeof(buf), "cycles", 1, 4000), "4000 Hz");
	assert_string_equal(fmt_rate(buf, sizeof(buf), "page-faults", 1, 0), "sav 1");
}

/* A frequency-mode event's figures: the samples counted, the sums' unit;
 * a heading cut ends with ~, never silently. */
static void test_event_samples_and_headings(void **state)
{
	(void)state;
	struct snap_event ev = { .name = "cpu-clock:ppp", .samples = 992750000, .nsamples = 3971 };
	char buf[64];
	uint64_t n;

	assert_int_equal(fmt_event_samples(&ev), 3971);
	assert_string_equal(fmt_event_unit(&ev), "ns");
	assert_string_equal(fmt_event_total(&ev, false, &n), "samples");
	assert_int_equal(n, 3971);
	assert_string_equal(fmt_heading(buf, sizeof(buf), ev.name, "%", 12), "cpu-clock:~%");
	assert_string_equal(fmt_event_heading(buf, sizeof(buf), &ev, '>', false, 11), ">cpu-cloc~%");
	assert_string_equal(fmt_event_heading(buf, sizeof(buf), &ev, ' ', true, 11), " cpu-cl~:ns");
	snprintf(ev.name, sizeof(ev.name), "cycles");
	assert_string_equal(fmt_event_unit(&ev), "events");
	assert_string_equal(fmt_event_heading(buf, sizeof(buf), &ev, ' ', false, 11), " cycles%");
	ev.nsamples = 0;  /* period mode: the figures are the samples */
	assert_int_equal(fmt_event_samples(&ev), 992750000);
	assert_string_equal(fmt_event_unit(&ev), "samples");
	assert_string_equal(fmt_event_heading(buf, sizeof(buf), &ev, ' ', true, 11), " cycles");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_output),
		cmocka_unit_test(test_grouped),
		cmocka_unit_test(test_grouped_small_buffer),
		cmocka_unit_test(test_value_units),
		cmocka_unit_test(test_value_not_finite),
		cmocka_unit_test(test_json_string),
		cmocka_unit_test(test_json_number),
		cmocka_unit_test(test_json_number_round_trips),
		cmocka_unit_test(test_missing_inputs),
		cmocka_unit_test(test_missing_clock_only),
		cmocka_unit_test(test_missing_small_buffer),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_markers_and_short_modules),
		cmocka_unit_test(test_escape_cut),
		cmocka_unit_test(test_put_escaped_and_csv),
		cmocka_unit_test(test_event_samples_and_headings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
