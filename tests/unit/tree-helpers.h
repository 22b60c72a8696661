/* Shared by the tree tests: build a counts set, evaluate a tree, assert. */
#ifndef TESTS_TREE_HELPERS_H
#define TESTS_TREE_HELPERS_H

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "arch/tree.h"

/* A counts set from NAME,VALUE[,PERIOD] text, as in a counts file. */
static inline void th_counts(struct counts *c, const char *text)
{
	char err[256] = "";

	counts_init(c);
	if (counts_parse(c, text, strlen(text), "test", err, sizeof(err)) != 0) {
		fprintf(stderr, "counts: %s\n", err);
		fail();
	}
}

/* Evaluates TREE on TEXT with MODEL (NULL: the tree's default model). */
static inline void th_eval(struct tree_result *r, enum arch_tree tree, const char *model,
			   const char *text, double clock_hz, int server)
{
	static struct penalties pen;
	struct counts c;
	struct tree_ctx ctx;

	penalties_default(&pen, server);
	th_counts(&c, text);
	memset(&ctx, 0, sizeof(ctx));
	ctx.model = model ? model_find(model) : NULL;
	if (model)
		assert_non_null(ctx.model);
	const struct tree_def *def = tree_def_pick(tree, ctx.model, &c);
	if (!ctx.model)
		ctx.model = tree_default_model(def);
	ctx.pen = &pen;
	ctx.clock_hz = clock_hz;
	tree_eval(def, &c, &ctx, r);
	counts_free(&c);
}

/* A counts set from examples/NAME. */
static inline void th_load_example(struct counts *c, const char *name)
{
	char path[512], buf[16384], err[256] = "";
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", EXAMPLES, name);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	counts_init(c);
	if (counts_parse(c, buf, n, name, err, sizeof(err)) != 0) {
		fprintf(stderr, "counts: %s\n", err);
		fail();
	}
}

/* Evaluates TREE on examples/NAME with MODEL (NULL: the variant most of
 * whose events the file holds, and that variant's default model). */
static inline const struct tree_def *th_eval_example(struct tree_result *r, enum arch_tree tree,
						     const struct arch_model *model,
						     const char *name, bool smt)
{
	static struct penalties pen;
	struct counts c;

	penalties_default(&pen, 0);
	th_load_example(&c, name);
	const struct tree_def *def = tree_def_pick(tree, model, &c);
	struct tree_ctx ctx = { .model = model ? model : tree_default_model(def), .pen = &pen,
				.smt = smt };
	tree_eval(def, &c, &ctx, r);
	counts_free(&c);
	return def;
}

/* Node ID has value WANT within relative tolerance REL (or absolute 1e-12). */
#define th_assert_value(r, id, want, rel)                                                 \
	do {                                                                              \
		int i_ = tree_node_index((r)->def, (id));                                 \
		if (i_ < 0) {                                                             \
			fprintf(stderr, "no node %s\n", (id));                            \
			fail();                                                           \
		}                                                                         \
		if ((r)->v[i_].state != NODE_VALUE) {                                     \
			fprintf(stderr, "%s not measured\n", (id));                       \
			fail();                                                           \
		}                                                                         \
		double got_ = (r)->v[i_].value, want_ = (want);                          \
		if (fabs(got_ - want_) > (rel) * fabs(want_) + 1e-12) {                   \
			fprintf(stderr, "%s = %.10g, want %.10g\n", (id), got_, want_);  \
			fail();                                                           \
		}                                                                         \
	} while (0)

#define th_assert_missing(r, id)                                                          \
	do {                                                                              \
		int i_ = tree_node_index((r)->def, (id));                                 \
		assert_true(i_ >= 0);                                                     \
		assert_int_equal((r)->v[i_].state, NODE_MISSING);                         \
	} while (0)

static inline unsigned th_warn(const struct tree_result *r, const char *id)
{
	int i = tree_node_index(r->def, id);

	assert_true(i >= 0);
	return r->v[i].warn;
}

/* Whether input named NAME is among the missing inputs of node ID. */
static inline int th_missing_has(const struct tree_result *r, const char *id, const char *name)
{
	int i = tree_node_index(r->def, id);

	assert_true(i >= 0);
	for (int k = 1; k < r->def->n_inputs; k++) {
		const char *names = r->def->inputs[k].name;
		size_t len = strlen(name);
		if (!(r->v[i].missing & (1ull << k)) || !names)
			continue;
		/* the whole name, or one of its '|' alternatives */
		for (const char *p = names; p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL)
			if (strncmp(p, name, len) == 0 && (p[len] == '\0' || p[len] == '|'))
				return 1;
	}
	return 0;
}

#endif
