/* The call graph (engine/callgraph.c, engine/callgraph-snapshot.c): self
 * and total under recursion, caller and callee edges, the caller tree,
 * folded stacks, truncated stacks, the node cap, several events, immutable
 * snapshots that share the graph's store; and a random cross-check against
 * a brute-force count over the samples. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/callgraph.h"

#define MOD "/bin/app"
#define LIB "/lib/libc.so.6"

/* A stack written root first, as people read it: "main a leaf" (module
 * MOD, or "name@module"); added leaf first as the engine wants it. */
static int add_path(struct callgraph *cg, int ev, const char *path, bool truncated,
		    uint64_t weight)
{
	char buf[512], *names[64], *save = NULL;
	struct cg_frame fr[64];
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
		names[n++] = t;
	for (size_t i = 0; i < n; i++) {
		char *name = names[n - 1 - i], *at = strchr(name, '@');
		if (at)
			*at = '\0';
		fr[i].name = name;
		fr[i].module = at ? at + 1 : MOD;
	}
	return callgraph_add(cg, ev, fr, n, truncated, weight);
}

static void add(struct callgraph *cg, int ev, const char *path, uint64_t weight)
{
	assert_int_equal(add_path(cg, ev, path, false, weight), 0);
}

static void expect_fn(const struct cg_snapshot *s, const char *name, int ev, uint64_t self,
		      uint64_t total)
{
	uint64_t sf = 99, tot = 99;

	assert_true(cg_function(s, name, MOD, ev, &sf, &tot));
	if (sf != self || tot != total) {
		fprintf(stderr, "%s ev %d: self %llu total %llu, want %llu %llu\n", name, ev,
			(unsigned long long)sf, (unsigned long long)tot,
			(unsigned long long)self, (unsigned long long)total);
		fail();
	}
}

/* Edges as "name:samples name:samples", in order. */
static void expect_edges(size_t n, const struct cg_edge *e, const char *want)
{
	char got[512] = "";
	size_t len = 0;

	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%s:%llu", i ? " " : "",
					e[i].name, (unsigned long long)e[i].samples);
	if (strcmp(got, want) != 0) {
		fprintf(stderr, "edges \"%s\", want \"%s\"\n", got, want);
		fail();
	}
}

static void expect_callers(const struct cg_snapshot *s, const char *name, int ev,
			   const char *want)
{
	const struct cg_edge *e;
	size_t n = cg_callers(s, name, MOD, ev, &e);

	expect_edges(n, e, want);
}

static void expect_callees(const struct cg_snapshot *s, const char *name, int ev,
			   const char *want)
{
	const struct cg_edge *e;
	size_t n = cg_callees(s, name, MOD, ev, &e);

	expect_edges(n, e, want);
}

/* Folded output of EV, compared with WANT exactly. */
static void expect_folded(const struct cg_snapshot *s, int ev, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(cg_write_folded(s, ev, f), 0);
	fclose(f);
	if (strcmp(buf, want) != 0) {
		fprintf(stderr, "folded:\n%s--- want:\n%s---\n", buf, want);
		fail();
	}
	free(buf);
}

/* Caller tree rows as "depth:name:samples[+]" lines ('+': more). */
static void expect_tree(const struct cg_snapshot *s, const char *name, int ev, int max_depth,
			size_t max_rows, size_t want_n, const char *want)
{
	struct cg_row rows[64];
	char got[2048] = "";
	size_t len = 0;
	size_t n = cg_caller_tree(s, name, MOD, ev, max_depth, rows, max_rows);

	assert_int_equal(n, want_n);
	for (size_t i = 0; i < n && i < max_rows; i++)
		len += (size_t)snprintf(got + len, sizeof(got) - len, "%d:%s:%llu%s\n",
					rows[i].depth, rows[i].name,
					(unsigned long long)rows[i].samples, rows[i].more ? "+" : "");
	if (strcmp(got, want) != 0) {
		fprintf(stderr, "tree:\n%s--- want:\n%s---\n", got, want);
		fail();
	}
}

/* ---- the basics --------------------------------------------------------- */

static void test_new_bad(void **state)
{
	(void)state;
	assert_null(callgraph_new(0));
	assert_null(callgraph_new(-1));
	assert_null(callgraph_new(CG_EVENTS_MAX + 1));
	callgraph_free(NULL);
	cg_snapshot_free(NULL);
}

static void test_empty(void **state)
{
	struct callgraph *cg = callgraph_new(2);
	const struct cg_edge *e = (const struct cg_edge *)1;
	struct cg_row row;
	uint64_t self = 1, total = 1;

	(void)state;
	assert_non_null(cg);
	struct cg_snapshot *s = callgraph_snapshot(cg);
	assert_non_null(s);
	assert_int_equal(cg_n_events(s), 2);
	assert_int_equal(cg_samples(s, 0), 0);
	assert_int_equal(cg_truncated(s, 1), 0);
	assert_int_equal(cg_overflow(s, 0), 0);
	assert_int_equal(cg_nodes(s), 0);
	assert_false(cg_function(s, "main", MOD, 0, &self, &total));
	assert_int_equal(self, 0);
	assert_int_equal(total, 0);
	assert_int_equal(cg_callers(s, "main", MOD, 0, &e), 0);
	assert_null(e);
	assert_int_equal(cg_callees(s, "main", MOD, 0, &e), 0);
	assert_int_equal(cg_caller_tree(s, "main", MOD, 0, 10, &row, 1), 0);
	expect_folded(s, 0, "");
	expect_folded(s, 1, "");
	/* out-of-range events are empty, not a crash */
	assert_int_equal(cg_samples(s, 2), 0);
	assert_int_equal(cg_samples(s, -1), 0);
	assert_false(cg_function(s, "main", MOD, 5, NULL, NULL));
	assert_int_equal(cg_write_folded(s, 2, stdout), -1);
	cg_snapshot_free(s);
	callgraph_free(cg);
}

static void test_add_bad(void **state)
{
	struct callgraph *cg = callgraph_new(1);
	struct cg_frame f = { "main", MOD };

	(void)state;
	assert_int_equal(callgraph_add(cg, 1, &f, 1, false, 1), -1);
	assert_int_equal(callgraph_add(cg, -1, &f, 1, false, 1), -1);
	assert_int_equal(callgraph_add(cg, 0, &f, 0, false, 1), -1);
	assert_int_equal(callgraph_add(cg, 0, NULL, 1, false, 1), -1);
	assert_int_equal(callgraph_add(NULL, 0, &f, 1, false, 1), -1);
	struct cg_snapshot *s = callgraph_snapshot(cg);
	assert_int_equal(cg_samples(s, 0), 0);   /* nothing was counted */
	assert_int_equal(cg_nodes(s), 0);
	cg_snapshot_free(s);
	callgraph_free(cg);
}

/* leaf_work called from caller_a and caller_b, 2:1. */
static void test_two_callers(void **state)
{
	struct callgraph *cg = callgraph_new(1);
	const struct cg_edge *e;

	(void)state;
	for (int i = 0; i < 100; i++) {
		add(cg, 0, "main caller_a leaf_work", 1);
		add(cg, 0, "main caller_a leaf_work", 1);
		add(cg, 0, "main caller_b leaf_work", 1);
	}
	add(cg, 0, "main caller_a", 3);   /* caller_a's own time */
	struct cg_snapshot *s = callgraph_snapshot(cg);
	assert_int_equal(cg_samples(s, 0), 303);
	/* 301 stacks: the last one weighs 3 (a frequency-mode sample's period) */
	assert_int_equal(cg_stacks(s, 0), 301);
	assert_int_equal(cg_stacks_truncated(s, 0), 0);
	assert_int_equal(cg_nodes(s), 5);
	assert_int_equal(cg_functions(s), 4 + 1);  /* + the overflow function */
	expect_fn(s, "leaf_work", 0, 300, 300);
	expect_fn(s, "caller_a", 0, 3, 203);
	expect_fn(s, "caller_b", 0, 0, 100);
	expect_fn(s, "main", 0, 0, 303);
	size_t n = cg_callers(s, "leaf_work", MOD, 0, &e);
	assert_int_equal(n, 2);
	assert_string_equal(e[0].name, "caller_a");
	assert_string_equal(e[0].module, MOD);
	assert_string_equal(e[1].name, "caller_b");
	uint64_t total;
	assert_true(cg_function(s, "leaf_work", MOD, 0, NULL, &total));
	double pa = 100.0 * (double)e[0].samples / (double)total;
	double pb = 100.0 * (double)e[1].samples / (double)total;
	assert_true(pa > 66.66 && pa < 66.67);
	assert_true(pb > 33.33 && pb < 33.34);
	expect_callers(s, "caller_a", 0, "main:203");
	expect_callers(s, "main", 0, "");
	/* a function of another module is another function */
	assert_false(cg_function(s, "leaf_work", LIB, 0, NULL, NULL));
	assert_int_equal(cg_callers(s, "leaf_work", LIB, 0, &e), 0);
	cg_snapshot_free(s);
	callgraph_free(cg);
}

static void test_callees(void **state)
{
	struct callgraph *cg = callgraph_new(1);

	(void)state;
	add(cg, 0, "main caller_a leaf_work", 20);
	add(cg, 0, "main caller_b leaf_work", 10);
	add(cg, 0, "main caller_b memcpy@" LIB, 5);
	add(cg, 0, "main caller_c", 10);
	add(cg, 0, "main", 7);
	struct cg_snapshot *s = callgraph_snapshot(cg);
	expect_callees(s, "main", 0, "caller_a:20 caller_b:15 caller_c:10");
	expect_callees(s, "caller_b", 0, "leaf_work:10 memcpy:5");
	expect_callees(s, "leaf_work", 0, "");
	const struct cg_edge *e;
	assert_int_equal(cg_callees(s, "caller_b", MOD, 0, &e), 2);
	assert_string_equal(e[1].module, LIB);
	expect_callers(s, "memcpy", 0, "");   /* memcpy is in LIB, not MOD */
	assert_int_equal(cg_callers(s, "memcpy", LIB, 0, &e), 1);
	assert_string_equal(e[0].name, "caller_b");
	expect_fn(s, "main", 0, 7, 52);
	cg_snapshot_free(s);
	callgraph_free(cg);
}

/* Equal samples: by name, then by module. */
static void test_edge_ties(void **state)
{
	struct callgraph *cg = callgraph_new(1);
	const struct cg_edge *e;

	(void)state;
	add(cg, 0, "main zeta", 4);
	add(cg, 0, "main alpha@/z", 4);
	add(cg, 0, "main alpha@/a", 4);
	add(cg, 0, "main beta", 4);
	struct cg_snapshot *s = callgraph_snapshot(cg);
	assert_int_equal(cg_callees(s, "main", MOD, 0, &e), 4);
	assert_string_equal(e[0].name, "alpha");
	assert_string_equal(e[0].module, "/a");
	assert_string_equal(e[1].name, "alpha");
	assert_string_equal(e[1].module, "/z");
	assert_string_equal(e[2].name, "beta");
	assert_string_equal(e[3].name, "zeta");
	cg_snapshot_free(s);
	callgraph_free(cg);
}

/* f -> f -> f: the total counts each sample once, and so do the edges. */
static void test_recursion(void **state)
{
	struct callgraph *cg = callgraph_new(1);

	(void)state;
	add(cg, 0, "main f f f", 10);
	add(cg, 0, "main f", 5);
	add(cg, 0, "main f f g", 3);
	add(cg, 0, "main f g f g", 2);    /* mutual: f->g and g->f twice each */
	struct cg_snapshot *s = callgraph_snapshot(cg);
	expect_fn(s, "f", 0, 15, 20);
	expect_fn(s, "g", 0, 5, 5);
	expect_fn(s, "main", 0, 0, 20);
	expect_callers(s, "f", 0, "main:20 f:13 g:2");
	expect_callees(s, "f", 0, "f:13 g:5");
	expect_callers(s, "g", 0, "f:5");
	expect_callees(s, "g", 0, "f:2");
	/* the caller tree starts at the innermost f */
	expect_tree(s, "f", 0, 10, 64, 9,
		    "0:f:20+\n"
		    "1:f:13+\n"
		    "2:f:10+\n"
		    "3:main:10\n"
		    "2:main:3\n"
		    "1:main:5\n"
		    "1:g:2+\n"
		    "2:f:2+\n"
		    "3:main:2\n");
	cg_snapshot_free(s);
	callgraph_free(cg);
}

/* A very deep recursion counts once, and costs no more than its depth. */
static void test_deep_recursion(void **state)
{
	struct callgraph *cg = callgraph_new(1);
	struct cg_frame fr[2001];

	(void)state;
	for (size_t i = 0; i < 2000; i++)
		fr[i] = (struct cg_frame){ "recurse", MOD };
	fr[2000] = (struct cg_frame){ "main", MOD };
	assert_int_equal(callgraph_add(cg, 0, fr, 2001, true, 4), 0);
	fr[0] = (struct cg_frame){ "leaf_work", MOD };
	assert_int_equal(callgraph_add(cg, 0, fr, 2001, false, 6), 0);
	struct cg_snapshot *s = callgraph_snapshot(cg);
	assert_int_equal(cg_nodes(s), 2002);   /* main, 2000 recurse, leaf_work */
	expect_fn(s, "recurse", 0, 4, 10);
	expect_fn(s, "leaf_work", 0, 6, 6);
	expect_callers(s, "recurse", 0, "main:10 recurse:10");
	expect_callers(s, "leaf_work", 0, "recurse:6");
	assert_int_equal(cg_truncated(s, 0), 4);
	struct cg_row rows[4];
	/* depth 1 is recurse, and so on up to 1998; main is at 2000 */
	assert_int_equal(cg_caller_tree(s, "leaf_work", MOD, 0, 5000, rows, 4), 2001);
	assert_int_equal(rows[3].depth, 3);
	assert_string_equal(rows[3].name, "recurse");
	assert_int_equal(cg_caller_tree(s, "leaf_work", MOD, 0, 2, rows, 4), 3);
	assert_true(rows[2].more);
	cg_snapshot_free(s);
	callgraph_free(cg);
}

/* ---- truncated stacks, unknown frames, folded stacks --------------------- */

static void test_truncated(void **state)
{
	struct callgraph *cg = callgraph_new(2);

	(void)state;
	add(cg, 0, "main a leaf", 5);
	assert_int_equal(add_path(cg, 0, "a leaf", true, 3), 0);   /* main lost */
	assert_int_equal(add_path(cg, 1, "leaf", true, 2), 0);
	struct cg_snapshot *s = callgraph_snapshot(cg);
	assert_int_equal(cg_samples(s, 0), 8);
	assert_int_equal(cg_truncated(s, 0), 3);
	assert_int_equal(cg_samples(s, 1), 2);
	assert_int_equal(cg_truncated(s, 1), 2);
	/* stacks are counted one each, whatever they weigh */
	assert_int_equal(cg_stacks(s, 0), 2);
	assert_int_equal(cg_stacks_truncated(s, 0), 1);
	assert_int_equal(cg_stacks_truncated(s, 1), 1);
	/* recorded as far as it goes: a second root, a */
	expect_fn(s, "leaf", 0, 8, 8);
	expect_fn(s, "a", 0, 0, 8);
	expect_fn(s, "main", 0, 0, 5);
	expect_callers(s, "a", 0, "main:5");
	expect_callers(s, "leaf", 0, "a:8");
	expect_folded(s, 0, "a;leaf 3\nmain;a;leaf 5\n");
	expect_folded(s, 1, "leaf 2\n");
	cg_snapshot_free(s);
	callgraph_free(cg);
}

static void test_unknown_frames(void **state)
{
	struct callgraph *cg = callgraph_new(1);
	struct cg_frame fr[3] = { { NULL, NULL }, { NULL, "/lib/x.so" }, { "main", MOD } };

	(void)state;
	assert_int_equal(callgraph_add(cg, 0, fr, 3, false, 2), 0);
	struct cg_snapshot *s = callgraph_snapshot(cg);
	uint64_t self, total;
	assert_true(cg_function(s, CG_UNKNOWN, CG_UNKNOWN, 0, &self, &total));
	assert_int_equal(self, 2);
	assert_true(cg_function(s, NULL, "/lib/x.so", 0, &self, &total));
	assert_int_equal(self, 0);
	assert_int_equal(total, 2);
	expect_folded(s, 0, "main;[unknown];[unknown] 2\n");
	cg_snapshot_free(s);
	callgraph_free(cg);
}

static void test_folded(void **state)
{
	struct callgraph *cg = callgraph_new(2);

	(void)state;
	add(cg, 0, "main b", 1);
	add(cg, 0, "main a leaf", 7);
	add(cg, 0, "main", 2);
	add(cg, 0, "main a", 4);
	add(cg, 0, "_start main a leaf", 1);
	add(cg, 0, "main a leaf@/other", 5);     /* same names: one line */
	add(cg, 0, "main semi;colon ctl\x01x", 1);
	add(cg, 1, "main b", 9);
	struct cg_snapshot *s = callgraph_snapshot(cg);
	expect_folded(s, 0,
		      "_start;main;a;leaf 1\n"
		      "main 2\n"
		      "main;a 4\n"
		      "main;a;leaf 12\n"
		      "main;b 1\n"
		      "main;semi:colon;ctl?x 1\n");
	expect_folded(s, 1, "main;b 9\n");
	cg_snapshot_free(s);
	callgraph_free(cg);
}

static int no_process_frame(void *arg, const struct cg_frame *frames, size_t n,
			    const uint64_t *counts)
{
	size_t *paths = arg;

	for (size_t i = 0; i < n; i++)
		assert_string_not_equal(frames[i].module, CG_PROCESS_MODULE);
	assert_string_equal(frames[n - 1].name, "main");
	assert_true(counts[0] > 0);
	(*paths)++;
	return 0;
}

/* A system-wide session's stacks start at a frame naming the process: it
 * heads the folded lines (stackcollapse-perf.pl's command field) and is
 * nobody's caller. */
static void test_process_frames(void **state)
{
	struct callgraph *cg = callgraph_new(1);
	const struct cg_edge *e;
	struct cg_row rows[8];
	uint64_t self, total;
	size_t paths = 0;

	(void)state;
	add(cg, 0, "sh@[process] main a", 3);
	add(cg, 0, "ls@[process] main a", 1);
	add(cg, 0, "ls@[process] main", 2);
	struct cg_snapshot *s = callgraph_snapshot(cg);
	expect_folded(s, 0, "ls;main 2\nls;main;a 1\nsh;main;a 3\n");
	assert_int_equal(cg_callers(s, "main", MOD, 0, &e), 0);
	assert_int_equal(cg_callers(s, "a", MOD, 0, &e), 1);
	assert_string_equal(e[0].name, "main");
	assert_int_equal(e[0].samples, 4);
	assert_int_equal(cg_callees(s, "main", MOD, 0, &e), 1);
	assert_true(cg_function(s, "main", MOD, 0, &self, &total));
	assert_int_equal(self, 2);
	assert_int_equal(total, 6);
	assert_int_equal(cg_caller_tree(s, "main", MOD, 0, 8, rows, 8), 1);
	assert_false(rows[0].more);
	assert_int_equal(cg_caller_tree(s, "a", MOD, 0, 8, rows, 8), 2);
	assert_string_equal(rows[1].name, "main");
	assert_false(rows[1].more);
	assert_int_equal(cg_foreach_path(s, no_process_frame, &paths), 0);
	assert_int_equal(paths, 3);
	cg_snapshot_free(s);
	callgraph_free(cg);
}

static void test_folded_write_error(void **state)
{
	struct callgraph *cg = callgraph_new(1);
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	if (!f) {
		print_message("skipped: cannot open /dev/full\n");
		skip();
	}
	add(cg, 0, "main a", 1);
	struct cg_snapshot *s = callgraph_snapshot(cg);
	assert_int_equal(cg_write_folded(s, 0, f), -1);
	fclose(f);
	cg_snapshot_free(s);
	callgraph_free(cg);
}

/* ---- the caller tree ------------------------------------------------------ */

static struct cg_snapshot *tree_fixture(struct callgraph **cgp)
{
	struct callgraph *cg = callgraph_new(1);

	add(cg, 0, "main caller_a leaf_work", 20);
	add(cg, 0, "main caller_b leaf_work", 10);
	add(cg, 0, "main worker caller_b leaf_work", 6);
	add(cg, 0, "start_thread worker caller_b leaf_work", 4);
	add(cg, 0, "main caller_b", 50);          /* not leaf_work's */
	add(cg, 0, "main leaf_work", 10);
	*cgp = cg;
	return callgraph_snapshot(cg);
}

static void test_caller_tree(void **state)
{
	struct callgraph *cg;
	struct cg_snapshot *s = tree_fixture(&cg);

	(void)state;
	expect_tree(s, "leaf_work", 0, 10, 64, 9,
		    "0:leaf_work:50+\n"
		    "1:caller_a:20+\n"
		    "2:main:20\n"
		    "1:caller_b:20+\n"
		    "2:main:10\n"
		    "2:worker:10+\n"
		    "3:main:6\n"
		    "3:start_thread:4\n"
		    "1:main:10\n");
	cg_snapshot_free(s);
	callgraph_free(cg);
}

static void test_caller_tree_limits(void **state)
{
	struct callgraph *cg;
	struct cg_snapshot *s = tree_fixture(&cg);
	struct cg_row rows[3];

	(void)state;
	/* depth 1 only: "more" says there are callers further up */
	expect_tree(s, "leaf_work", 0, 1, 64, 4,
		    "0:leaf_work:50+\n"
		    "1:caller_a:20+\n"
		    "1:caller_b:20+\n"
		    "1:main:10\n");
	expect_tree(s, "leaf_work", 0, 0, 64, 1, "0:leaf_work:50+\n");
	expect_tree(s, "leaf_work", 0, -3, 64, 1, "0:leaf_work:50+\n");
	/* three rows asked, the count of all of them returned */
	expect_tree(s, "leaf_work", 0, 10, 3, 9,
		    "0:leaf_work:50+\n"
		    "1:caller_a:20+\n"
		    "2:main:20\n");
	assert_int_equal(cg_caller_tree(s, "leaf_work", MOD, 0, 10, NULL, 0), 9);
	/* a root function: itself only, no callers */
	expect_tree(s, "main", 0, 10, 64, 1, "0:main:96\n");
	/* caller_b: its own samples as well as leaf_work's */
	expect_tree(s, "caller_b", 0, 10, 64, 5,
		    "0:caller_b:70+\n"
		    "1:main:60\n"
		    "1:worker:10+\n"
		    "2:main:6\n"
		    "2:start_thread:4\n");
	assert_int_equal(cg_caller_tree(s, "nobody", MOD, 0, 10, rows, 3), 0);
	assert_int_equal(cg_caller_tree(s, "leaf_work", MOD, 1, 10, rows, 3), 0);
	cg_snapshot_free(s);
	callgraph_free(cg);
}

/* ---- events, the cap, snapshots ---------------------------------------- */

static void test_events_independent(void **state)
{
	struct callgraph *cg = callgraph_new(3);

	(void)state;
	add(cg, 0, "main a leaf", 10);
	add(cg, 1, "main b leaf", 4);
	add(cg, 1, "main a", 1);
	assert_int_equal(add_path(cg, 2, "b", true, 7), 0);
	struct cg_snapshot *s = callgraph_snapshot(cg);
	assert_int_equal(cg_samples(s, 0), 10);
	assert_int_equal(cg_samples(s, 1), 5);
	assert_int_equal(cg_samples(s, 2), 7);
	assert_int_equal(cg_truncated(s, 0), 0);
	assert_int_equal(cg_truncated(s, 2), 7);
	expect_fn(s, "leaf", 0, 10, 10);
	expect_fn(s, "leaf", 1, 4, 4);
	expect_fn(s, "leaf", 2, 0, 0);
	expect_fn(s, "a", 1, 1, 1);
	expect_fn(s, "b", 2, 7, 7);
	expect_callers(s, "leaf", 0, "a:10");
	expect_callers(s, "leaf", 1, "b:4");
	expect_callers(s, "leaf", 2, "");
	expect_callees(s, "main", 1, "b:4 a:1");
	expect_callees(s, "main", 2, "");
	expect_folded(s, 2, "b 7\n");
	expect_tree(s, "leaf", 1, 10, 64, 3, "0:leaf:4+\n1:b:4+\n2:main:4\n");
	cg_snapshot_free(s);
	callgraph_free(cg);
}

static void test_node_cap(void **state)
{
	struct callgraph *cg = callgraph_new(2);

	(void)state;
	callgraph_set_max_nodes(cg, 4);
	add(cg, 0, "main a leaf", 1);              /* 3 nodes */
	add(cg, 0, "main b", 1);                    /* 4 */
	add(cg, 0, "main b leaf", 2);               /* a fifth: over */
	add(cg, 1, "main c", 3);                    /* over */
	add(cg, 0, "main a leaf", 5);               /* known paths still count */
	add(cg, 0, "main a", 1);
	assert_int_equal(add_path(cg, 0, "x y z", true, 1), 0);  /* over, truncated */
	struct cg_snapshot *s = callgraph_snapshot(cg);
	assert_int_equal(cg_nodes(s), 4);
	assert_int_equal(cg_samples(s, 0), 11);
	assert_int_equal(cg_overflow(s, 0), 3);
	assert_int_equal(cg_samples(s, 1), 3);
	assert_int_equal(cg_overflow(s, 1), 3);
	assert_int_equal(cg_truncated(s, 0), 1);
	uint64_t self, total;
	assert_true(cg_function(s, CG_OVERFLOW_NAME, CG_OVERFLOW_MODULE, 0, &self, &total));
	assert_int_equal(self, 3);
	assert_int_equal(total, 3);
	assert_false(cg_function(s, "c", MOD, 1, NULL, NULL));  /* never made */
	expect_fn(s, "main", 0, 0, 8);
	expect_folded(s, 0, "[truncated: too many paths] 3\nmain;a 1\nmain;a;leaf 6\nmain;b 1\n");
	expect_folded(s, 1, "[truncated: too many paths] 3\n");
	/* a higher cap lets new paths in again */
	callgraph_set_max_nodes(cg, 100);
	add(cg, 1, "main c", 1);
	struct cg_snapshot *s2 = callgraph_snapshot(cg);
	assert_int_equal(cg_nodes(s2), 5);
	assert_int_equal(cg_overflow(s2, 1), 3);
	expect_fn(s2, "c", 1, 1, 1);
	cg_snapshot_free(s2);
	cg_snapshot_free(s);
	callgraph_free(cg);
}

static void test_snapshot_immutable(void **state)
{
	struct callgraph *cg = callgraph_new(1);
	const struct cg_edge *e;
	struct cg_row rows[8];

	(void)state;
	add(cg, 0, "main a leaf", 2);
	add(cg, 0, "main b leaf", 1);
	struct cg_snapshot *s = callgraph_snapshot(cg);
	assert_int_equal(cg_callers(s, "leaf", MOD, 0, &e), 2);
	const char *name = e[0].name;
	/* more samples, new functions and paths: enough to regrow every table */
	for (int i = 0; i < 3000; i++) {
		char path[64];
		snprintf(path, sizeof(path), "main f%d leaf", i);
		add(cg, 0, path, 1);
	}
	add(cg, 0, "main a leaf", 100);
	assert_int_equal(cg_samples(s, 0), 3);
	assert_int_equal(cg_nodes(s), 5);
	expect_fn(s, "leaf", 0, 3, 3);
	assert_false(cg_function(s, "f7", MOD, 0, NULL, NULL));
	expect_callers(s, "leaf", 0, "a:2 b:1");
	assert_ptr_equal(e[0].name, name);
	expect_folded(s, 0, "main;a;leaf 2\nmain;b;leaf 1\n");
	assert_int_equal(cg_caller_tree(s, "leaf", MOD, 0, 8, rows, 8), 5);
	/* the snapshot outlives the graph */
	struct cg_snapshot *s2 = callgraph_snapshot(cg);
	callgraph_free(cg);
	expect_callers(s, "leaf", 0, "a:2 b:1");
	expect_fn(s2, "leaf", 0, 3103, 3103);
	assert_int_equal(cg_callers(s2, "leaf", MOD, 0, &e), 3002);
	assert_string_equal(e[0].name, "a");
	assert_int_equal(e[0].samples, 102);
	assert_string_equal(e[2].name, "f0");       /* ties by name: f0 f1 f10 ... */
	assert_string_equal(e[3].name, "f1");
	assert_string_equal(e[4].name, "f10");
	cg_snapshot_free(s2);
	cg_snapshot_free(s);
}

/* Snapshots share the graph's functions and nodes instead of copying them:
 * a snapshot still reads its own values after the graph has added
 * functions and nodes past the chunks it covers (new chunks, a moved
 * chunk directory, slots of a chunk it covers written after it) and after
 * the graph is freed, and two snapshots hand out the same strings. */
static void test_snapshot_shares_store(void **state)
{
	struct callgraph *cg = callgraph_new(1);
	const char *name, *module, *name2, *module2;

	(void)state;
	add(cg, 0, "main a leaf", 2);
	add(cg, 0, "main b leaf", 1);
	add(cg, 0, "main b@" LIB, 4);
	struct cg_snapshot *s = callgraph_snapshot(cg);
	size_t nf = cg_functions(s);
	/* 4,000 new functions and 8,000 new nodes: past every first chunk */
	for (int i = 0; i < 4000; i++) {
		char path[64];
		snprintf(path, sizeof(path), "main g%d h%d@%s", i, i, i % 2 ? LIB : MOD);
		add(cg, 0, path, 1);
	}
	add(cg, 0, "main a leaf", 100);
	struct cg_snapshot *s2 = callgraph_snapshot(cg);
	callgraph_free(cg);
	assert_int_equal(cg_nodes(s), 6);
	assert_int_equal(cg_functions(s), nf);
	assert_int_equal(cg_samples(s, 0), 7);
	expect_fn(s, "leaf", 0, 3, 3);
	expect_fn(s, "main", 0, 0, 7);
	assert_false(cg_function(s, "g7", MOD, 0, NULL, NULL));
	expect_callers(s, "leaf", 0, "a:2 b:1");
	expect_callees(s, "main", 0, "b:4 a:2 b:1");
	expect_folded(s, 0, "main;a;leaf 2\nmain;b 4\nmain;b;leaf 1\n");
	expect_tree(s, "leaf", 0, 8, 8, 5, "0:leaf:3+\n1:a:2+\n2:main:2\n1:b:1+\n2:main:1\n");
	/* the strings are the graph's, once: both snapshots point at them */
	for (size_t i = 0; i < nf; i++) {
		cg_function_at(s, i, &name, &module);
		cg_function_at(s2, i, &name2, &module2);
		assert_ptr_equal(name, name2);
		assert_ptr_equal(module, module2);
	}
	cg_snapshot_free(s);
	/* the last holder keeps the store */
	assert_int_equal(cg_nodes(s2), 6 + 8000);
	assert_int_equal(cg_functions(s2), nf + 8000);
	expect_fn(s2, "leaf", 0, 103, 103);
	uint64_t self, total;
	assert_true(cg_function(s2, "h3999", LIB, 0, &self, &total));
	assert_int_equal(self, 1);
	assert_true(cg_function(s2, "g3998", MOD, 0, NULL, &total));
	assert_int_equal(total, 1);
	cg_snapshot_free(s2);
}

/* ---- a random cross-check -------------------------------------------------- */

#define R_FUNCS 6
#define R_SAMPLES 3000
#define R_DEPTH 9
#define R_EVENTS 2

struct rsample {
	int ev, n, f[R_DEPTH];   /* leaf first */
	uint64_t w;
};

static const char *rname(int f)
{
	static const char *const names[R_FUNCS] = { "f0", "f1", "f2", "f3", "f4", "f5" };

	return names[f];
}

/* What the snapshot should say, counted sample by sample. */
static void brute(const struct rsample *rs, int ev, uint64_t *self, uint64_t *total,
		  uint64_t edge[R_FUNCS][R_FUNCS])
{
	memset(self, 0, R_FUNCS * sizeof(*self));
	memset(total, 0, R_FUNCS * sizeof(*total));
	memset(edge, 0, R_FUNCS * R_FUNCS * sizeof(uint64_t));
	for (int i = 0; i < R_SAMPLES; i++) {
		const struct rsample *r = &rs[i];
		bool in[R_FUNCS] = { false }, pair[R_FUNCS][R_FUNCS];
		if (r->ev != ev)
			continue;
		memset(pair, 0, sizeof(pair));
		self[r->f[0]] += r->w;
		for (int k = 0; k < r->n; k++) {
			in[r->f[k]] = true;
			if (k + 1 < r->n)
				pair[r->f[k + 1]][r->f[k]] = true;   /* caller, callee */
		}
		for (int f = 0; f < R_FUNCS; f++) {
			total[f] += in[f] ? r->w : 0;
			for (int g = 0; g < R_FUNCS; g++)
				edge[f][g] += pair[f][g] ? r->w : 0;
		}
	}
}

static uint64_t edge_in(const struct cg_edge *e, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(e[i].name, name) == 0)
			return e[i].samples;
	return 0;
}

static void check_random(const struct cg_snapshot *s, const struct rsample *rs, int ev)
{
	uint64_t self[R_FUNCS], total[R_FUNCS], edge[R_FUNCS][R_FUNCS];
	const struct cg_edge *e;

	brute(rs, ev, self, total, edge);
	for (int f = 0; f < R_FUNCS; f++) {
		uint64_t sf, tot;
		cg_function(s, rname(f), MOD, ev, &sf, &tot);
		assert_int_equal(sf, self[f]);
		assert_int_equal(tot, total[f]);
		size_t n = cg_callers(s, rname(f), MOD, ev, &e);
		for (size_t i = 1; i < n; i++)
			assert_true(e[i - 1].samples >= e[i].samples);
		for (int g = 0; g < R_FUNCS; g++)
			assert_int_equal(edge_in(e, n, rname(g)), edge[g][f]);
		n = cg_callees(s, rname(f), MOD, ev, &e);
		for (int g = 0; g < R_FUNCS; g++)
			assert_int_equal(edge_in(e, n, rname(g)), edge[f][g]);
		/* the caller tree's root is the total, and each level's rows add
		 * up to no more than their parent */
		struct cg_row rows[4];
		size_t nr = cg_caller_tree(s, rname(f), MOD, ev, 1, rows, 4);
		if (total[f]) {
			assert_true(nr >= 1);
			assert_int_equal(rows[0].samples, total[f]);
		} else {
			assert_int_equal(nr, 0);
		}
	}
}

static void test_random(void **state)
{
	struct callgraph *cg = callgraph_new(R_EVENTS);
	struct rsample *rs = calloc(R_SAMPLES, sizeof(*rs));
	unsigned seed = 12345;

	(void)state;
	for (int i = 0; i < R_SAMPLES; i++) {
		struct rsample *r = &rs[i];
		struct cg_frame fr[R_DEPTH];
		r->ev = rand_r(&seed) % R_EVENTS;
		r->n = 1 + rand_r(&seed) % R_DEPTH;
		r->w = 1 + (uint64_t)(rand_r(&seed) % 3);
		for (int k = 0; k < r->n; k++) {
			/* few functions, so recursion and repeats are common */
			r->f[k] = rand_r(&seed) % R_FUNCS;
			fr[k] = (struct cg_frame){ rname(r->f[k]), MOD };
		}
		assert_int_equal(callgraph_add(cg, r->ev, fr, (size_t)r->n, false, r->w), 0);
	}
	struct cg_snapshot *s = callgraph_snapshot(cg);
	for (int ev = 0; ev < R_EVENTS; ev++)
		check_random(s, rs, ev);
	cg_snapshot_free(s);
	callgraph_free(cg);
	free(rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_bad),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_add_bad),
		cmocka_unit_test(test_two_callers),
		cmocka_unit_test(test_callees),
		cmocka_unit_test(test_edge_ties),
		cmocka_unit_test(test_recursion),
		cmocka_unit_test(test_deep_recursion),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_unknown_frames),
		cmocka_unit_test(test_folded),
		cmocka_unit_test(test_process_frames),
		cmocka_unit_test(test_folded_write_error),
		cmocka_unit_test(test_caller_tree),
		cmocka_unit_test(test_caller_tree_limits),
		cmocka_unit_test(test_events_independent),
		cmocka_unit_test(test_node_cap),
		cmocka_unit_test(test_snapshot_immutable),
		cmocka_unit_test(test_snapshot_shares_store),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
