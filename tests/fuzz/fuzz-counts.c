/* Fuzz target for the counts-file parser (arch/counts.c) and what is
 * computed from a counts set: event matching (counts_find under every
 * model), merging, and every metric tree (arch/tree*.c).
 *
 * With libFuzzer (make fuzz):
 *	clang -fsanitize=fuzzer,address,undefined -DCYCTOP_LIBFUZZER -I. \
 *		tests/fuzz/fuzz-counts.c arch/[a-z]*.c -lm
 *	./a.out -max_total_time=30 CORPUS-COPY
 * Without it (make check), tests/fuzz/fuzz-replay.c's main() replays every file in the
 * directories and files named on the command line: the seed corpus
 * tests/fuzz/corpus/counts/ (tests/fuzz/fuzz-counts.sh says what is in it) runs as a
 * plain test.
 *
 * The input is parsed as it is, not NUL-terminated, so a read past its end
 * is a finding; the invariants checked abort() when broken. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/counts.h"
#include "arch/model.h"
#include "arch/penalty.h"
#include "arch/tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

static volatile double sink;   /* keeps the reads */

/* An event lookup under a model canonicalizes every row of its tables, and
 * the trees look up each of their inputs: a few entries are enough. */
#define FIND_MAX 4
/* Every model resolves every entry anew (the counts' memo holds one model):
 * 34 models made the fuzzer run 150 inputs a second.  Each input is looked
 * up under every MODEL_STRIDE-th model from an offset its length picks, so
 * a run still covers them all. */
#define MODEL_STRIDE 4

static void check_entries(const struct counts *c)
{
	if (c->n > c->cap || (c->n && !c->v))
		abort();
	for (size_t i = 0; i < c->n; i++) {
		const struct count_entry *e = &c->v[i];
		if (strnlen(e->name, sizeof(e->name)) >= sizeof(e->name))
			abort();   /* a name is always terminated */
		sink += e->value + e->samples + e->period + e->coverage + e->not_counted;
	}
}

static void find_all(const struct counts *c, size_t first_model)
{
	const struct arch_model *m;

	for (size_t i = 0; i < c->n && i < FIND_MAX; i++) {
		const char *name = c->v[i].name;
		if (!counts_find(c, NULL, name))
			abort();   /* an entry is found under its own name */
		for (size_t k = first_model; (m = model_at(k)) != NULL; k += MODEL_STRIDE) {
			const struct count_entry *e = counts_find(c, m, name);
			if (e)
				sink += e->value;
			if (m->cycles && (e = counts_find(c, m, m->cycles)))
				sink += e->value;
		}
	}
}

/* One tree per input, picked by its length, and only over a counts set of
 * the size of a real one: a tree evaluation looks up each of its inputs in
 * every entry under its model (model_lookup canonicalizes every table row),
 * milliseconds a tree, which would leave the fuzzer a few runs a second. */
#define TREE_ENTRIES_MAX 32
static void eval_tree(const struct counts *c, enum arch_tree t)
{
	static struct tree_result r;
	const struct tree_def *def = tree_def_pick(t, NULL, c);
	struct penalties pen;

	if (!def)
		abort();
	penalties_default(&pen, t & 1);
	struct tree_ctx ctx = { tree_default_model(def), &pen, t & 2 ? 0 : 2.4e9, t & 4, 0 };
	tree_eval(def, c, &ctx, &r);
	sink += tree_inputs_present(&r);
	for (int i = 0; i < def->n_nodes; i++) {
		const struct node_value *v = &r.v[i];
		if (v->parent >= def->n_nodes || v->parent < -1)
			abort();
		sink += v->value + v->pct_parent + v->warn + v->depth;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct counts c, m;
	char err[512];

	counts_init(&c);
	err[0] = '\0';
	if (counts_parse(&c, (const char *)d, n, "fuzz.counts", err, sizeof(err)) < 0) {
		if (strnlen(err, sizeof(err)) >= sizeof(err) || strncmp(err, "fuzz.counts:", 12))
			abort();   /* every error names the file */
		counts_free(&c);
		return 0;
	}
	check_entries(&c);
	find_all(&c, n % MODEL_STRIDE);
	if (c.n <= TREE_ENTRIES_MAX)
		eval_tree(&c, (enum arch_tree)(n % TREE_COUNT));
	/* the same file twice: every event once, averaged over two sources */
	counts_init(&m);
	counts_merge(&m, &c);
	counts_merge(&m, &c);
	if (m.n != c.n)
		abort();
	check_entries(&m);
	counts_free(&m);
	counts_free(&c);
	return 0;
}
