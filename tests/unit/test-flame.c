/* The flame graph's model and layout (tui/flame.c): paths merged by name
 * from a call graph snapshot, self and total per event, children sorted;
 * identity by path; widths in whole columns (2:1 within one column, the
 * sum of children never past the parent), narrow frames in a "+N" stub,
 * the zoom's ancestors full width; the metrics and their buckets. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/callgraph.h"
#include "tui/flame.h"

/* A stack root first ("main a leaf"), N samples of event EV. */
static void add(struct callgraph *cg, int ev, const char *path, uint64_t n)
{
	char buf[512], *names[64], *save = NULL;
	struct cg_frame fr[64];
	size_t k = 0;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
		names[k++] = t;
	for (size_t i = 0; i < k; i++) {
		fr[i].name = names[k - 1 - i];
		fr[i].module = "/bin/app";
	}
	assert_int_equal(callgraph_add(cg, ev, fr, k, false, n), 0);
}

/* The 2:1 callers workload's shape, with a second event that differs. */
static struct flame *callers(void)
{
	struct callgraph *cg = callgraph_new(2);

	add(cg, 0, "main caller_a leaf_work", 200);
	add(cg, 0, "main caller_b leaf_work", 100);
	add(cg, 0, "main", 10);
	add(cg, 1, "main caller_a leaf_work", 2);
	add(cg, 1, "main caller_b leaf_work", 50);
	struct cg_snapshot *s = callgraph_snapshot(cg);
	struct flame *f = flame_from_cg(s, NULL);
	cg_snapshot_free(s);
	callgraph_free(cg);
	assert_non_null(f);
	return f;
}

static int node(const struct flame *f, const char *path)
{
	char buf[256], *save = NULL;
	const char *p[16];
	int n = 0;
	bool exact;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
		p[n++] = t;
	int k = flame_find(f, p, n, &exact);
	assert_true(exact);
	return k;
}

/* A system-wide session's stacks start at their process's frame: zoomed
 * on one process (Enter in the processes view), the flame holds its
 * stacks only; unzoomed, every process's, without the process frames. */
static void test_process(void **state)
{
	struct callgraph *cg = callgraph_new(1);
	struct cg_frame a[] = { { "work", "/bin/a" }, { "main", "/bin/a" },
				{ "alpha", CG_PROCESS_MODULE } };
	struct cg_frame b[] = { { "spin", "/bin/b" }, { "main", "/bin/b" },
				{ "beta", CG_PROCESS_MODULE } };
	bool exact;

	(void)state;
	assert_int_equal(callgraph_add(cg, 0, a, 3, false, 30), 0);
	assert_int_equal(callgraph_add(cg, 0, b, 3, false, 12), 0);
	struct cg_snapshot *s = callgraph_snapshot(cg);
	struct flame *all = flame_from_cg(s, NULL), *alpha = flame_from_cg(s, "alpha");
	struct flame *none = flame_from_cg(s, "gamma");
	assert_non_null(all);
	assert_non_null(alpha);
	assert_non_null(none);
	assert_int_equal(flame_total(all, 0, 0), 42);
	assert_int_equal(flame_total(alpha, 0, 0), 30);
	assert_int_equal(flame_total(none, 0, 0), 0);
	const char *spin[] = { "main", "spin" }, *work[] = { "main", "work" };
	assert_true(flame_find(alpha, work, 2, &exact) > 0 && exact);
	flame_find(alpha, spin, 2, &exact);
	assert_false(exact);
	flame_free(all);
	flame_free(alpha);
	flame_free(none);
	cg_snapshot_free(s);
	callgraph_free(cg);
}

static void test_tree(void **state)
{
	(void)state;
	struct flame *f = callers();
	int m = node(f, "main"), a = node(f, "main caller_a"), b = node(f, "main caller_b");

	assert_int_equal(flame_total(f, 0, 0), 310);
	assert_int_equal(flame_total(f, m, 0), 310);
	assert_int_equal(flame_self(f, m, 0), 10);
	assert_int_equal(flame_total(f, a, 0), 200);
	assert_int_equal(flame_total(f, b, 1), 50);
	assert_int_equal(flame_self(f, node(f, "main caller_a leaf_work"), 1), 2);
	/* children by samples: caller_a first */
	assert_int_equal(f->nodes[m].first_child, a);
	assert_int_equal(f->nodes[a].next, b);
	/* identity */
	const char *p[8];
	assert_int_equal(flame_path(f, node(f, "main caller_b leaf_work"), p, 8), 3);
	assert_string_equal(p[1], "caller_b");
	bool exact;
	const char *gone[] = { "main", "caller_c" };
	assert_int_equal(flame_find(f, gone, 2, &exact), m);
	assert_false(exact);
	assert_true(flame_is_ancestor(f, m, b));
	assert_false(flame_is_ancestor(f, a, b));
	flame_free(f);
}

static void test_layout(void **state)
{
	(void)state;
	struct flame *f = callers();
	struct flame_layout l = { 0 };
	int a = node(f, "main caller_a"), b = node(f, "main caller_b");

	for (int w = 20; w <= 300; w += 7) {
		assert_int_equal(flame_layout(f, 0, w, 2, 100, &l), 0);
		const struct flame_box *ba = &l.box[flame_box_of(&l, a)];
		const struct flame_box *bb = &l.box[flame_box_of(&l, b)];
		/* 2:1 within a column; b right after a */
		assert_true(abs(ba->w - 2 * bb->w) <= 2);
		assert_int_equal(bb->x, ba->x + ba->w);
		assert_int_equal(l.rows, 4);
		for (size_t i = 0; i < l.n; i++) {
			const struct flame_box *c = &l.box[i];
			if (c->parent_box < 0)
				continue;
			const struct flame_box *p = &l.box[c->parent_box];
			assert_int_equal(c->row, p->row + 1);
			assert_true(c->x >= p->x && c->x + c->w <= p->x + p->w);
		}
	}
	/* zoomed into caller_b: its ancestors full width above it, it full width */
	assert_int_equal(flame_layout(f, b, 100, 2, 100, &l), 0);
	assert_int_equal(l.box[flame_box_of(&l, 0)].w, 100);
	assert_true(l.box[flame_box_of(&l, 0)].ancestor);
	assert_int_equal(l.box[flame_box_of(&l, b)].w, 100);
	assert_false(l.box[flame_box_of(&l, b)].ancestor);
	assert_int_equal(flame_box_of(&l, a), -1);
	assert_int_equal(l.rows, 4);
	/* too few rows: cut */
	assert_int_equal(flame_layout(f, 0, 100, 2, 2, &l), 0);
	assert_int_equal(l.rows, 2);
	flame_layout_free(&l);
	flame_free(f);
}

static void test_stub(void **state)
{
	(void)state;
	struct callgraph *cg = callgraph_new(1);
	char path[64];

	add(cg, 0, "main big", 1000);
	for (int i = 0; i < 20; i++) {
		snprintf(path, sizeof(path), "main small%02d", i);
		add(cg, 0, path, 5);
	}
	struct cg_snapshot *s = callgraph_snapshot(cg);
	struct flame *f = flame_from_cg(s, NULL);
	struct flame_layout l = { 0 };
	/* 1100 samples in 110 columns: 10 a column; small ones are half a column */
	assert_int_equal(flame_layout(f, 0, 110, 2, 10, &l), 0);
	int stubs = 0;
	for (size_t i = 0; i < l.n; i++)
		if (l.box[i].node < 0) {
			stubs++;
			assert_int_equal(l.box[i].stub, 20);
			assert_int_equal(l.box[i].stub_samples, 100);
			assert_int_equal(l.box[i].w, 10);
		}
	assert_int_equal(stubs, 1);
	/* 1100 samples in 11 columns: the stub is one column */
	assert_int_equal(flame_layout(f, 0, 11, 2, 10, &l), 0);
	assert_int_equal(l.n, 4);   /* all, main, big, the stub */
	flame_layout_free(&l);
	flame_free(f);
	cg_snapshot_free(s);
	callgraph_free(cg);
}

static void test_metrics(void **state)
{
	(void)state;
	const char *ev[] = { "cycles", "instructions", "cache-misses", "stalled-cycles-backend" };
	struct flame_metric m[16];
	int n = flame_metrics(ev, 4, NULL, m, 16);

	/* none, CPI x2, stalls x2, 3 others per 1000 x2 */
	assert_int_equal(n, 1 + 2 + 2 + 6);
	assert_int_equal(m[0].kind, FM_NONE);
	assert_string_equal(m[1].name, "CPI cycles/instructions (total)");
	assert_true(m[2].self);
	assert_string_equal(m[3].name, "stalled-cycles-backend/cycles (total)");
	assert_string_equal(m[5].name, "instructions per 1000 cycles (total)");
	/* one event: by name only */
	assert_int_equal(flame_metrics(ev, 1, NULL, m, 16), 1);

	struct flame *f = callers();
	const char *e2[] = { "cpu-clock", "page-faults" };
	n = flame_metrics(e2, 2, NULL, m, 16);
	assert_int_equal(n, 3);
	int a = node(f, "main caller_a"), b = node(f, "main caller_b");
	assert_true(fabs(flame_value(f, a, &m[1]) - 10.0) < 1e-9);
	assert_true(fabs(flame_value(f, b, &m[1]) - 500.0) < 1e-9);
	assert_true(isnan(flame_value(f, a, &m[2])));   /* no self samples */
	/* a metric counts events: samples times their period */
	flame_set_scale(f, 0, 1000);
	flame_set_scale(f, 1, 10);
	assert_true(fabs(flame_value(f, b, &m[1]) - 5.0) < 1e-9);
	flame_set_scale(f, 0, 1);
	flame_set_scale(f, 1, 1);
	assert_true(isnan(flame_value(f, a, &m[0])));
	/* buckets: ends apart, NAN and outside nowhere */
	assert_int_equal(flame_bucket(10, 10, 500), 0);
	assert_int_equal(flame_bucket(500, 10, 500), FLAME_BUCKETS - 1);
	assert_int_equal(flame_bucket(NAN, 10, 500), -1);
	assert_int_equal(flame_bucket(600, 10, 500), -1);
	assert_int_equal(flame_bucket(3, 3, 3), 0);
	assert_int_equal(flame_name_bucket("leaf_work"), flame_name_bucket("leaf_work"));
	flame_free(f);
}

/* A flame of two events (EV0, EV1 their names) from lines "path N0 N1". */
static struct flame *two(const char *ev0, const char *ev1, const char *const *lines, int n)
{
	struct callgraph *cg = callgraph_new(2);

	for (int i = 0; i < n; i++) {
		char path[256];
		unsigned long long a, b;
		assert_int_equal(sscanf(lines[i], "%255[^0-9] %llu %llu", path, &a, &b), 3);
		path[strlen(path) - 1] = '\0';
		if (a)
			add(cg, 0, path, a);
		if (b)
			add(cg, 1, path, b);
	}
	struct cg_snapshot *s = callgraph_snapshot(cg);
	struct flame *f = flame_from_cg(s, NULL);
	cg_snapshot_free(s);
	callgraph_free(cg);
	assert_non_null(f);
	assert_int_equal(flame_set_event(f, 0, ev0), 0);
	assert_int_equal(flame_set_event(f, 1, ev1), 0);
	return f;
}

static const struct flame_metric *find_metric(const struct flame_metric *m, int n,
					      const char *prefix)
{
	for (int i = 0; i < n; i++)
		if (strncmp(m[i].name, prefix, strlen(prefix)) == 0)
			return &m[i];
	fail_msg("no metric %s", prefix);
	return NULL;
}

/* tree-node-fraction: Core2's stall cycles, a part of its cycles, as a
 * share of the frame's cycles: 100 of 200 under caller_a, 75 of 100 under
 * caller_b, 175 of 300 in main; self: only the leaves have samples. */
static void test_tree_metric(void **state)
{
	(void)state;
	const char *ev[] = { "CPU_CLK_UNHALTED.CORE", "RS_UOPS_DISPATCHED.CYCLES_NONE" };
	const char *lines[] = { "main caller_a leaf_work 200 100", "main caller_b leaf_work 100 75" };
	static struct flame_metric m[96];
	int n = flame_metrics(ev, 2, NULL, m, 96);
	struct flame *f = two(ev[0], ev[1], lines, 2);

	const struct flame_metric *t =
		find_metric(m, n, "tree-node-fraction cycles.stalls / cycles [core2] (total)");
	const struct flame_metric *ts =
		find_metric(m, n, "tree-node-fraction cycles.stalls / cycles [core2] (self)");
	assert_int_equal(t->kind, FM_TREE);
	assert_true(fabs(flame_value(f, node(f, "main caller_a"), t) - 50.0) < 1e-9);
	assert_true(fabs(flame_value(f, node(f, "main caller_b"), t) - 75.0) < 1e-9);
	assert_true(fabs(flame_value(f, node(f, "main"), t) - 100.0 * 175 / 300) < 1e-9);
	assert_true(isnan(flame_value(f, node(f, "main caller_a"), ts)));
	assert_true(fabs(flame_value(f, node(f, "main caller_b leaf_work"), ts) - 75.0) < 1e-9);
	/* the counts a sample stands for: stalls sampled at twice the period */
	flame_set_scale(f, 1, 2);
	assert_true(fabs(flame_value(f, node(f, "main caller_a"), t) - 100.0) < 1e-9);
	/* without the stall event: no such metric */
	n = flame_metrics(ev, 1, NULL, m, 96);
	for (int i = 0; i < n; i++)
		assert_int_not_equal(m[i].kind, FM_TREE);
	flame_free(f);
}

/* baseline-delta: frames matched by path; absolute counts (samples x
 * scale), and a marked baseline's rates. */
static void test_delta_metric(void **state)
{
	(void)state;
	const char *ev[] = { "cycles", "instructions" };
	const char *old[] = { "main caller_a leaf_work 200 10", "main caller_b leaf_work 100 10",
			      "main gone 30 0" };
	const char *new_[] = { "main caller_a leaf_work 100 10", "main caller_b leaf_work 150 10",
			       "main caller_c 40 0" };
	struct flame *b = two(ev[0], ev[1], old, 3), *f = two(ev[0], ev[1], new_, 3);
	struct flame_base base = { b, 1, 1 };
	static struct flame_metric m[96];
	int n = flame_metrics(ev, 2, &base, m, 96);
	const struct flame_metric *d = find_metric(m, n, "baseline-delta cycles (total)");
	const struct flame_metric *ds = find_metric(m, n, "baseline-delta cycles (self)");
	const struct flame_metric *di = find_metric(m, n, "baseline-delta instructions (total)");

	assert_int_equal(d->kind, FM_DELTA);
	flame_set_scale(f, 0, 1000);
	flame_set_scale(b, 0, 1000);
	assert_true(fabs(flame_value(f, node(f, "main caller_a"), d) - -100000.0) < 1e-6);
	assert_true(fabs(flame_value(f, node(f, "main caller_b"), d) - 50000.0) < 1e-6);
	assert_true(fabs(flame_value(f, node(f, "main caller_c"), d) - 40000.0) < 1e-6);
	/* main: 290 now, 330 then; self: none either side */
	assert_true(fabs(flame_value(f, node(f, "main"), d) - -40000.0) < 1e-6);
	assert_true(fabs(flame_value(f, node(f, "main"), ds)) < 1e-6);
	assert_true(fabs(flame_value(f, node(f, "main caller_b leaf_work"), ds) - 50000.0) < 1e-6);
	assert_true(fabs(flame_value(f, node(f, "main caller_a"), di)) < 1e-6);
	/* rates: 10 s until the mark, 5 since: caller_b's 150 now, 100 then:
	 * 50 / 5 - 100 / 10 = 0 samples a second (x1000) */
	struct flame_metric r = *d;
	r.base = (struct flame_base){ b, 1 / 5.0, 1 / 5.0 + 1 / 10.0 };
	assert_true(fabs(flame_value(f, node(f, "main caller_b"), &r)) < 1e-6);
	assert_true(fabs(flame_value(f, node(f, "main caller_a"), &r) - (-100000.0 / 5 - 20000)) <
		    1e-6);
	/* no baseline, or no event of its name: none */
	assert_int_equal(flame_metrics(ev, 2, NULL, m, 96), n - 4);
	/* the delta's buckets: shrank 0..2, grew 3..5, none at 0 */
	assert_int_equal(flame_delta_bucket(-100, 100), 0);
	assert_int_equal(flame_delta_bucket(-40, 100), 1);
	assert_int_equal(flame_delta_bucket(-10, 100), 2);
	assert_int_equal(flame_delta_bucket(0, 100), -1);
	assert_int_equal(flame_delta_bucket(10, 100), 3);
	assert_int_equal(flame_delta_bucket(50, 100), 4);
	assert_int_equal(flame_delta_bucket(100, 100), 5);
	assert_int_equal(flame_delta_bucket(NAN, 100), -1);
	flame_free(f);
	flame_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_process),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_stub),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_tree_metric),
		cmocka_unit_test(test_delta_metric),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
