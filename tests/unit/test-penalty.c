/* Core2 stall penalties (arch/penalty.c).  Levinthal (seeds/000), "Example
 * issues and penalties": L2 hit ~12, L2 miss ~165 desktop / ~300 server,
 * L1 DTLB miss ~10 (or DTLB_MISS x 4 + PAGE_WALKS.CYCLES), LOAD_BLOCKS.STA
 * ~5, LOAD_BLOCKS.OVERLAP_STORE ~6, LOAD_BLOCKS.UNTIL_RETIRE ~20,
 * ILD_STALL 6; FP_ASSIST ~200 ("Divides, Sqrts and FP SW Assists"). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "arch/penalty.h"

static const double desktop[PEN_COUNT] = {
	[PEN_L2_HIT] = 12,
	[PEN_L2_MISS] = 165,
	[PEN_DTLB_MISS] = 10,
	[PEN_DTLB_WALK] = 4,
	[PEN_LOAD_BLOCK_STA] = 5,
	[PEN_LOAD_BLOCK_OVERLAP_STORE] = 6,
	[PEN_LOAD_BLOCK_UNTIL_RETIRE] = 20,
	[PEN_ILD_STALL] = 6,
	[PEN_FP_ASSIST] = 200,
};

static void assert_values(const struct penalties *p, const double *want)
{
	for (int i = 0; i < PEN_COUNT; i++) {
		if (p->cycles[i] != want[i])
			fprintf(stderr, "%s = %g, want %g\n", penalty_key((enum penalty_id)i),
				p->cycles[i], want[i]);
		assert_true(p->cycles[i] == want[i]);
	}
}

static int parse(struct penalties *p, const char *text, char *err, size_t errsz)
{
	return penalties_parse(p, text, strlen(text), "pen.csv", err, errsz);
}

static void test_default_desktop(void **state)
{
	struct penalties p;

	(void)state;
	memset(&p, 0xff, sizeof(p));
	penalties_default(&p, 0);
	assert_values(&p, desktop);
	assert_string_equal(p.name, "desktop");
}

/* Server: only the L2 miss differs (~300). */
static void test_default_server(void **state)
{
	struct penalties p;
	double server[PEN_COUNT];

	(void)state;
	memcpy(server, desktop, sizeof(server));
	server[PEN_L2_MISS] = 300;
	penalties_default(&p, 1);
	assert_values(&p, server);
	assert_string_equal(p.name, "server");
	/* back to desktop */
	penalties_default(&p, 0);
	assert_values(&p, desktop);
}

/* Keys and the events they weigh. */
static void test_keys_and_events(void **state)
{
	static const struct { enum penalty_id id; const char *key, *event; } rows[] = {
		{ PEN_L2_HIT, "l2_hit", "MEM_LOAD_RETIRED.L1D_LINE_MISS" },
		{ PEN_L2_MISS, "l2_miss", "MEM_LOAD_RETIRED.L2_LINE_MISS" },
		{ PEN_DTLB_MISS, "dtlb_miss", "MEM_LOAD_RETIRED.DTLB_MISS" },
		{ PEN_DTLB_WALK, "dtlb_walk", "MEM_LOAD_RETIRED.DTLB_MISS" },
		{ PEN_LOAD_BLOCK_STA, "load_block_sta", "LOAD_BLOCK.STA" },
		{ PEN_LOAD_BLOCK_OVERLAP_STORE, "load_block_overlap_store",
		  "LOAD_BLOCK.OVERLAP_STORE" },
		{ PEN_LOAD_BLOCK_UNTIL_RETIRE, "load_block_until_retire",
		  "LOAD_BLOCK.UNTIL_RETIRE" },
		{ PEN_ILD_STALL, "ild_stall", "ILD_STALL" },
		{ PEN_FP_ASSIST, "fp_assist", "FP_ASSIST" },
	};

	(void)state;
	assert_int_equal(sizeof(rows) / sizeof(rows[0]), PEN_COUNT);
	for (size_t i = 0; i < PEN_COUNT; i++) {
		assert_string_equal(penalty_key(rows[i].id), rows[i].key);
		assert_string_equal(penalty_event(rows[i].id), rows[i].event);
	}
	assert_string_equal(penalty_key(PEN_COUNT), "?");
	assert_string_equal(penalty_event(PEN_COUNT), "?");
}

/* A file overrides some keys over the defaults already present; comments,
 * blank lines, spaces, any key case and a missing final newline are fine. */
static void test_parse_overrides(void **state)
{
	struct penalties p;
	char err[256] = "";
	double want[PEN_COUNT];
	const char *text =
		"# measured on our box\n"
		"\n"
		"l2_miss,250\n"
		"   \n"
		"  DTLB_MISS , 12.5   # with a comment\n"
		"\t# indented comment\n"
		"fp_assist,0\n"
		"ild_stall,3";

	(void)state;
	penalties_default(&p, 0);
	assert_int_equal(parse(&p, text, err, sizeof(err)), 0);
	memcpy(want, desktop, sizeof(want));
	want[PEN_L2_MISS] = 250;
	want[PEN_DTLB_MISS] = 12.5;
	want[PEN_FP_ASSIST] = 0;
	want[PEN_ILD_STALL] = 3;
	assert_values(&p, want);
	assert_string_equal(p.name, "pen.csv");

	/* over the server defaults, an untouched l2_miss stays 300 */
	penalties_default(&p, 1);
	assert_int_equal(parse(&p, "l2_hit,14\r\n", err, sizeof(err)), 0);
	assert_true(p.cycles[PEN_L2_MISS] == 300);
	assert_true(p.cycles[PEN_L2_HIT] == 14);

	/* a file of comments only changes nothing */
	penalties_default(&p, 0);
	assert_int_equal(parse(&p, "# nothing\n\n", err, sizeof(err)), 0);
	assert_values(&p, desktop);
	/* the last of two lines for one key wins */
	assert_int_equal(parse(&p, "l2_miss,170\nl2_miss,180\n", err, sizeof(err)), 0);
	assert_true(p.cycles[PEN_L2_MISS] == 180);
}

static void expect_error(const char *text, const char *where, const char *what)
{
	struct penalties p;
	char err[256] = "";

	penalties_default(&p, 0);
	assert_int_equal(parse(&p, text, err, sizeof(err)), -1);
	if (strncmp(err, where, strlen(where)) != 0 || (what && !strstr(err, what)))
		fprintf(stderr, "error '%s', want '%s' ... '%s'\n", err, where, what ? what : "");
	assert_int_equal(strncmp(err, where, strlen(where)), 0);
	if (what)
		assert_non_null(strstr(err, what));
	assert_null(strchr(err, '\n'));
}

/* Errors name FILE:LINE (comment and blank lines count as lines). */
static void test_parse_errors(void **state)
{
	(void)state;
	expect_error("# header\n\nl3_miss,40\n", "pen.csv:3:", "unknown penalty 'l3_miss'");
	expect_error("l2_miss,200\nl2_miss 200\n", "pen.csv:2:", "KEY,CYCLES");
	expect_error("l2_miss,-5\n", "pen.csv:1:", "l2_miss");
	expect_error("# a\nfp_assist,lots\n", "pen.csv:2:", "fp_assist");
	expect_error("l2_hit,12cycles\n", "pen.csv:1:", "l2_hit");
	expect_error("l2_hit,\n", "pen.csv:1:", "l2_hit");
	expect_error("l2_hit,nan\n", "pen.csv:1:", "l2_hit");
	expect_error("l2_hit,inf\n", "pen.csv:1:", "l2_hit");
	expect_error(",12\n", "pen.csv:1:", NULL);
	expect_error("l2_hit,12,13\n", "pen.csv:1:", "l2_hit");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_desktop),
		cmocka_unit_test(test_default_server),
		cmocka_unit_test(test_keys_and_events),
		cmocka_unit_test(test_parse_overrides),
		cmocka_unit_test(test_parse_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
