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
	struct flame *f = flame_from_cg(s);
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
	struct flame *f = flame_from_cg(s);
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
	int n = flame_metrics(ev, 4, m, 16);

	/* none, CPI x2, stalls x2, 3 others per 1000 x2 */
	assert_int_equal(n, 1 + 2 + 2 + 6);
	assert_int_equal(m[0].kind, FM_NONE);
	assert_string_equal(m[1].name, "CPI cycles/instructions (total)");
	assert_true(m[2].self);
	assert_string_equal(m[3].name, "stalled-cycles-backend/cycles (total)");
	assert_string_equal(m[5].name, "instructions per 1000 cycles (total)");
	/* one event: by name only */
	assert_int_equal(flame_metrics(ev, 1, m, 16), 1);

	struct flame *f = callers();
	const char *e2[] = { "cpu-clock", "page-faults" };
	n = flame_metrics(e2, 2, m, 16);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_stub),
		cmocka_unit_test(test_metrics),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
