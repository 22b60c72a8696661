/* Test 7, the method's invariants on live counts: the presets that feed
 * the model's trees (cycles: the master equation; topdown: level 1;
 * ilp: the counter-threshold sweep) counted on the calibration loop, one
 * run per plan group (exact counts), and the tree evaluated on them as
 * the views do: no node may be flagged (parts that do not add up within
 * the tree's tolerance, a negative part: a sweep that is not monotonic,
 * a part above its parent, a node unequal to the one it must equal). */
#include "engine/selftest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/counts.h"
#include "arch/preset.h"
#include "arch/tree.h"
#include "engine/runs.h"

#define METHOD_ITERS 2000000UL
#define METHOD_WARNS (WARN_SUM | WARN_NEGATIVE | WARN_MISMATCH | WARN_EXCEEDS_PARENT)

static const char *const method_presets[] = { "cycles", "topdown", "ilp", NULL };

/* Counts preset P on the loop into C; -1 with one line in ERR. */
static int count_preset(struct selftest_ctx *c, const struct preset *p, struct counts *cnt,
			char *err, size_t errsz)
{
	char events[64], work[64];
	char *argv[] = { (char *)c->self, "selftest", "--workload", work, NULL };
	struct runs_opts ro = { .runs = 1 };

	snprintf(events, sizeof(events), "@%s", p->name);
	snprintf(work, sizeof(work), "loop:%lu", METHOD_ITERS);
	ro.s.argv = argv;
	ro.s.events = events;
	struct snapshot *snap = runs_execute(&ro, err, errsz);
	if (!snap)
		return -1;
	for (int e = 0; e < snap->n_events; e++) {
		double v = snap->ev[e].count;
		/* the fault: the preset's last event (a stall count) above its
		 * first (cycles), a part larger than its whole */
		if (e > 0 && e == snap->n_events - 1 && selftest_fault(c, "method"))
			v = 1.2 * snap->ev[0].count;
		if (snap->ev[e].counted)
			counts_add(cnt, snap->ev[e].name, v, 0);
	}
	snapshot_free(snap);
	return 0;
}

/* Evaluates P's tree on CNT; false with the flagged node in O. */
static bool tree_holds(struct selftest_ctx *c, const struct preset *p, const struct counts *cnt,
		       char *zero, size_t zerosz, struct st_outcome *o)
{
	struct penalties pen;
	struct tree_result *r = calloc(1, sizeof(*r));
	const struct tree_def *def = tree_def_pick(p->tree, c->model, cnt);
	bool ok = true;

	if (!r) {
		st_set(o, ST_FAIL, "out of memory");
		return false;
	}
	penalties_default(&pen, 0);
	struct tree_ctx ctx = { .model = c->model, .pen = &pen };
	tree_eval(def, cnt, &ctx, r);
	for (size_t i = 0; i < cnt->n; i++)
		if (cnt->v[i].value == 0 && !strstr(zero, cnt->v[i].name)) {
			size_t len = strlen(zero);
			snprintf(zero + len, zerosz - len, "%s%s", len ? ", " : "", cnt->v[i].name);
		}
	for (int i = 0; i < def->n_nodes && ok; i++)
		if (r->v[i].state == NODE_VALUE && (r->v[i].warn & METHOD_WARNS)) {
			unsigned bit = r->v[i].warn & METHOD_WARNS;
			st_set(o, ST_FAIL, "@%s, tree %s: %s = %g: %s", p->name, def->name,
			       def->nodes[i].id, r->v[i].value, warn_text(bit & -bit));
			ok = false;
		}
	free(r);
	return ok;
}

void st_check_method(struct selftest_ctx *c, struct st_outcome *o)
{
	char err[512], names[128] = "", zero[256] = "";
	int done = 0;

	if (!c->hardware) {
		st_set(o, ST_SKIP, "%s", ST_NO_PMU);
		return;
	}
	for (int i = 0; method_presets[i]; i++) {
		const struct preset *p = preset_find_for(method_presets[i], c->model);
		struct counts cnt;
		if (!p || !preset_for_model(p, c->model))
			continue;
		counts_init(&cnt);
		int rc = count_preset(c, p, &cnt, err, sizeof(err));
		bool ok = rc == 0 && tree_holds(c, p, &cnt, zero, sizeof(zero), o);
		counts_free(&cnt);
		if (rc < 0)
			st_set(o, ST_FAIL, "@%s: %s", p->name, err);
		if (!ok)
			return;
		size_t len = strlen(names);
		snprintf(names + len, sizeof(names) - len, "%s@%s", len ? " " : "", p->name);
		done++;
	}
	if (!done) {
		st_set(o, ST_SKIP, "no cycles, topdown or ilp preset for model %s", c->model->name);
		return;
	}
	snprintf(o->measured, sizeof(o->measured), "%s: no node flagged%s%s%s", names,
		 zero[0] ? " (counted 0, their parts not checked: " : "", zero, zero[0] ? ")" : "");
	snprintf(o->expected, sizeof(o->expected), "parts adding up within %.0f%%, sweeps "
		 "monotonic", 100 * TREE_TOLERANCE);
	st_set(o, ST_PASS, "%s", o->measured);
}
