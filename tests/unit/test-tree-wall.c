/* The wall tree joined to the host method's tree: wall.on_cpu carries the
 * cycle accounting of the counts' model (a hardware model forced, as on a
 * host with a PMU; the software tree on one without), the host's values
 * unchanged, the wall's own nodes and reasons as before. */
#include <stdlib.h>

#include "tests/unit/tree-helpers.h"

#define WALL "wall.on_cpu_ns,1500000000\nwall.off_cpu.runnable,100000000\n" \
	     "wall.off_cpu.sleep,300000000\nwall.off_cpu.lock,50000000\n" \
	     "wall.off_cpu.io,20000000\nwall.off_cpu.wait,25000000\nwall.off_cpu.other,5000000\n"

/* examples/NAME with the wall rows after it. */
static char *example_and_wall(const char *name)
{
	char path[512];
	static char buf[32768];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", EXAMPLES, name);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - sizeof(WALL) - 1, f);
	fclose(f);
	memcpy(buf + n, "\n" WALL, sizeof(WALL) + 1);
	return buf;
}

static void eval_with(struct tree_result *r, const struct tree_def *def, const char *model,
		      const char *text)
{
	static struct penalties pen;
	struct counts c;
	struct tree_ctx ctx = { .pen = &pen };

	penalties_default(&pen, 0);
	th_counts(&c, text);
	ctx.model = model_find(model);
	assert_non_null(ctx.model);
	tree_eval(def ? def : tree_def_get(TREE_WALL), &c, &ctx, r);
	counts_free(&c);
}

/* The wall's own figures, whatever hangs under on_cpu. */
static void assert_wall(const struct tree_result *r)
{
	th_assert_value(r, "wall", 2.0, 1e-12);
	th_assert_value(r, "wall.on_cpu", 1.5, 1e-12);
	th_assert_value(r, "wall.off_cpu", 0.5, 1e-12);
	th_assert_value(r, "wall.off_cpu.sleep", 0.3, 1e-12);
	assert_int_equal(r->v[tree_node_index(r->def, "wall.off_cpu.sleep")].parent,
			 tree_node_index(r->def, "wall.off_cpu"));
	assert_int_equal(th_warn(r, "wall"), 0);
	assert_int_equal(th_warn(r, "wall.off_cpu"), 0);
}

/* Every node of HOST's result is under wall.on_cpu with its value, state
 * and warnings, its parent the same node prefixed (a root: on_cpu). */
static void assert_joined(const struct tree_result *r, const struct tree_result *h)
{
	int on = tree_node_index(r->def, "wall.on_cpu"), values = 0;
	char id[128];

	assert_int_equal(r->def->n_nodes, tree_def_get(TREE_WALL)->n_nodes + h->def->n_nodes);
	for (int k = 0; k < h->def->n_nodes; k++) {
		snprintf(id, sizeof(id), "wall.on_cpu.%s", h->def->nodes[k].id);
		int i = tree_node_index(r->def, id);
		assert_true(i > on);
		assert_int_equal(r->v[i].state, h->v[k].state);
		assert_int_equal(r->v[i].warn, h->v[k].warn);
		assert_int_equal(r->v[i].depth, h->v[k].depth + 2);
		if (h->v[k].state == NODE_VALUE) {
			assert_true(r->v[i].value == h->v[k].value);
			values++;
		}
		if (h->v[k].parent < 0) {
			assert_int_equal(r->v[i].parent, on);
		} else {
			snprintf(id, sizeof(id), "wall.on_cpu.%s", h->def->nodes[h->v[k].parent].id);
			assert_int_equal(r->v[i].parent, tree_node_index(r->def, id));
		}
	}
	assert_true(values > 0);
}

/* A Skylake's counts (forced model skl): its cycle accounting under on_cpu. */
static void test_hardware_model(void **state)
{
	struct tree_result r, h;
	const char *text = example_and_wall("skl-handmade.counts");
	struct counts c;
	(void)state;

	eval_with(&r, NULL, "skl", text);
	assert_wall(&r);
	th_counts(&c, text);
	const struct tree_def *host = tree_def_pick(model_find("skl")->tree, model_find("skl"), &c);
	counts_free(&c);
	eval_with(&h, host, "skl", text);
	assert_joined(&r, &h);
	/* the Core 2 master equation's total: the unhalted cycles */
	th_assert_value(&r, "wall.on_cpu.cycles", 1e9, 1e-12);
}

/* No PMU: the software tree under on_cpu (its CPU seconds, switches). */
static void test_software_tree(void **state)
{
	struct tree_result r, h;
	const char *text = "task-clock,1500000000\nduration_time,2000000000\n"
			   "context-switches,300\n" WALL;
	(void)state;

	eval_with(&r, NULL, "perf", text);
	assert_wall(&r);
	eval_with(&h, tree_def_get(TREE_SW), "perf", text);
	assert_joined(&r, &h);
	th_assert_value(&r, "wall.on_cpu.cpu_seconds", 1.5, 1e-12);
	th_assert_value(&r, "wall.on_cpu.context_switches", 300, 1e-12);
}

/* Nothing of the host's tree counted: the wall tree alone, as before. */
static void test_nothing_to_join(void **state)
{
	struct tree_result r;
	(void)state;

	eval_with(&r, NULL, "skl", WALL);
	assert_true(r.def == tree_def_get(TREE_WALL));
	assert_wall(&r);
}

/* The input rows of HOST (the first spelling of each, value 1000) after
 * the wall's into TEXT. */
static void host_rows(const struct tree_def *host, char *text, size_t sz)
{
	size_t used = (size_t)snprintf(text, sz, "%s", WALL);

	for (int k = 1; k < host->n_inputs && used < sz; k++)
		if (host->inputs[k].name && !host->inputs[k].derived)
			used += (size_t)snprintf(text + used, sz - used, "%.*s,1000\n",
						 (int)strcspn(host->inputs[k].name, "|"),
						 host->inputs[k].name);
}

/* Every tree definition (variants too) hangs under wall.on_cpu, given its
 * model and its inputs, and the joined definition is each result's own:
 * two results of one host tree hold equal definitions, neither shared
 * (arch/ keeps no cache; main's was one a host tree, shared by all). */
static void test_every_host_joins(void **state)
{
	const struct tree_def *d;
	struct tree_result *r = malloc(sizeof(*r)), *r2 = malloc(sizeof(*r2));
	static char text[16384];
	int joined = 0;

	(void)state;
	assert_non_null(r);
	assert_non_null(r2);
	for (size_t i = 0; (d = tree_def_at(i)) != NULL; i++) {
		const struct arch_model *m = d->models ? model_find(d->models[0])
						       : tree_default_model(d);
		if (!m || m->tree != d->id ||
		    tree_def_get(TREE_WALL)->n_nodes + d->n_nodes > TREE_MAX_NODES)
			continue;
		host_rows(d, text, sizeof(text));
		eval_with(r, NULL, m->name, text);
		eval_with(r2, NULL, m->name, text);
		if (r->def == tree_def_get(TREE_WALL) ||
		    strncmp(r->def->nodes[2].id, "wall.on_cpu.", 12) != 0) {
			fprintf(stderr, "model %s: tree %s is not joined\n", m->name, d->name);
			fail();
		}
		assert_true(r->def != r2->def);
		assert_int_equal(r->def->n_nodes, r2->def->n_nodes);
		for (int k = 0; k < r->def->n_nodes; k++)
			assert_string_equal(r->def->nodes[k].id, r2->def->nodes[k].id);
		joined++;
	}
	assert_true(joined >= 10);
	free(r2);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hardware_model),
		cmocka_unit_test(test_software_tree),
		cmocka_unit_test(test_nothing_to_join),
		cmocka_unit_test(test_every_host_joins),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
