/* Basic blocks, loops and the stall/penalty correlation (see flow.h).
 *
 * Sources: loop iteration estimate and bus efficiency from the cache-line
 * article (seeds/003: "counting how many times the basic cycles are executed
 * and how many bytes of data they use each iteration ... divide the number
 * of bytes consumed ... by the total number of bytes transmitted"); the
 * correlation rule from the Core2 paper (seeds/000, "Estimating Penalties":
 * "If there are no stalled cycle counts in the vicinity of the event counts,
 * then modifying the code ... is unlikely to change the performance"). */
#include "arch/flow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LINE_BYTES 64.0  /* one bus transaction moves a cache line */

/* Index of the instruction starting at ADDR, or -1 (binary search: the
 * instructions are sorted by address). */
static long index_of(const struct flow_insn *insn, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (insn[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && insn[lo].addr == addr ? (long)lo : -1;
}

static bool is_direct_branch(const struct flow_insn *in)
{
	return (in->kind == FLOW_JUMP || in->kind == FLOW_CJUMP) && in->target;
}

static bool ends_block(const struct flow_insn *in)
{
	return in->kind == FLOW_JUMP || in->kind == FLOW_CJUMP || in->kind == FLOW_IJUMP ||
	       in->kind == FLOW_RET;
}

static void mark_leaders(const struct flow_insn *insn, size_t n, bool *leader)
{
	leader[0] = true;
	for (size_t i = 0; i < n; i++) {
		if (ends_block(&insn[i]) && i + 1 < n)
			leader[i + 1] = true;
		if (is_direct_branch(&insn[i])) {
			long t = index_of(insn, n, insn[i].target);
			if (t >= 0)
				leader[t] = true;
		}
	}
}

static int build_blocks(const struct flow_insn *insn, size_t n, struct flow *f)
{
	bool *leader = calloc(n, sizeof(*leader));
	size_t nb = 0;

	if (!leader)
		return -1;
	mark_leaders(insn, n, leader);
	for (size_t i = 0; i < n; i++)
		nb += leader[i];
	f->blocks = calloc(nb, sizeof(*f->blocks));
	if (!f->blocks) {
		free(leader);
		return -1;
	}
	for (size_t i = 0, b = 0; i < n; i++) {
		if (leader[i] && i > 0)
			b++;
		if (leader[i])
			f->blocks[b] = (struct flow_block){ .first = i, .loop = -1 };
		f->blocks[b].last = i;
		f->block_of[i] = b;
	}
	f->n_blocks = nb;
	free(leader);
	return 0;
}

/* ---- loops ---------------------------------------------------------- */

/* A direct branch to an earlier (or its own) instruction start. */
static bool branches_back(const struct flow_insn *insn, size_t n, size_t i)
{
	if (!is_direct_branch(&insn[i]) || insn[i].target > insn[i].addr)
		return false;
	return index_of(insn, n, insn[i].target) >= 0;
}

bool flow_is_back_edge(const struct flow *f, size_t i)
{
	return i < f->n_insns && f->back_edge && f->back_edge[i];
}

static int loop_cmp(const void *a, const void *b)
{
	const struct flow_loop *x = a, *y = b;

	if (x->head != y->head)
		return x->head < y->head ? -1 : 1;
	return x->tail > y->tail ? -1 : x->tail < y->tail;  /* outer first */
}

/* One loop per head: back-edges to the same head extend its tail. */
static size_t collect_loops(const struct flow_insn *insn, const struct flow *f,
			    struct flow_loop *loops)
{
	size_t nl = 0;

	for (size_t i = 0; i < f->n_insns; i++) {
		if (!f->back_edge[i])
			continue;
		size_t head = (size_t)index_of(insn, f->n_insns, insn[i].target);
		size_t k = 0;
		while (k < nl && loops[k].head != head)
			k++;
		if (k == nl)
			loops[nl++] = (struct flow_loop){ .head = head, .tail = i, .parent = -1 };
		else if (i > loops[k].tail)
			loops[k].tail = i;
	}
	qsort(loops, nl, sizeof(*loops), loop_cmp);
	return nl;
}

static void loop_measure(const struct flow_insn *insn, struct flow_loop *l)
{
	l->n_insns = l->tail - l->head + 1;
	for (size_t i = l->head; i <= l->tail; i++) {
		l->load_bytes += insn[i].load_bytes;
		l->store_bytes += insn[i].store_bytes;
	}
}

/* Sorted outer-first, so the enclosing loop of K is the nearest earlier
 * loop whose range covers K's. */
static void nest_loops(struct flow_loop *loops, size_t nl)
{
	for (size_t k = 0; k < nl; k++) {
		loops[k].depth = 1;
		for (size_t j = k; j-- > 0;) {
			if (loops[j].head <= loops[k].head && loops[j].tail >= loops[k].tail) {
				loops[k].parent = (int)j;
				loops[k].depth = loops[j].depth + 1;
				break;
			}
		}
	}
}

/* The innermost loop of a block: loops are outer-first, so the last match. */
static void assign_blocks(struct flow *f)
{
	for (size_t b = 0; b < f->n_blocks; b++)
		for (size_t k = 0; k < f->n_loops; k++)
			if (f->blocks[b].first >= f->loops[k].head &&
			    f->blocks[b].last <= f->loops[k].tail)
				f->blocks[b].loop = (int)k;
}

static int build_loops(const struct flow_insn *insn, struct flow *f)
{
	struct flow_loop *loops = calloc(f->n_insns, sizeof(*loops));

	if (!loops)
		return -1;
	for (size_t i = 0; i < f->n_insns; i++)
		f->back_edge[i] = branches_back(insn, f->n_insns, i);
	f->n_loops = collect_loops(insn, f, loops);
	f->loops = loops;
	for (size_t k = 0; k < f->n_loops; k++)
		loop_measure(insn, &f->loops[k]);
	nest_loops(f->loops, f->n_loops);
	assign_blocks(f);
	return 0;
}

int flow_build(const struct flow_insn *insn, size_t n, struct flow *out)
{
	memset(out, 0, sizeof(*out));
	out->n_insns = n;
	if (n == 0)
		return 0;
	out->block_of = calloc(n, sizeof(*out->block_of));
	out->back_edge = calloc(n, sizeof(*out->back_edge));
	if (!out->block_of || !out->back_edge || build_blocks(insn, n, out) < 0 ||
	    build_loops(insn, out) < 0) {
		flow_free(out);
		return -1;
	}
	return 0;
}

void flow_free(struct flow *f)
{
	free(f->block_of);
	free(f->back_edge);
	free(f->blocks);
	free(f->loops);
	memset(f, 0, sizeof(*f));
}

/* ---- estimates ------------------------------------------------------ */

double flow_sum(const double *per_insn, size_t first, size_t last)
{
	double s = 0;

	for (size_t i = first; i <= last; i++)
		s += per_insn[i];
	return s;
}

double flow_loop_iterations(const struct flow_loop *l, double retired_in_body)
{
	return l->n_insns ? retired_in_body / (double)l->n_insns : NAN;
}

double flow_bus_efficiency(const struct flow_loop *l, double iterations,
			   double bus_transactions)
{
	double used = (double)(l->load_bytes + l->store_bytes) * iterations;

	if (!(bus_transactions > 0) || isnan(iterations))
		return NAN;
	return used / (bus_transactions * LINE_BYTES);
}

enum flow_mark flow_classify(double penalty_cycles, double stall_cycles,
			     double function_penalty_cycles)
{
	/* Unknown stall cycles (NAN) can neither confirm nor hide a penalty. */
	if (!(penalty_cycles > 0) || !(function_penalty_cycles > 0) || isnan(stall_cycles) ||
	    penalty_cycles < FLOW_MIN_SHARE * function_penalty_cycles)
		return MARK_NONE;
	return stall_cycles < FLOW_HIDDEN_RATIO * penalty_cycles ? MARK_HIDDEN : MARK_STALLED;
}

const char *flow_mark_name(enum flow_mark m)
{
	switch (m) {
	case MARK_STALLED:
		return "stalled";
	case MARK_HIDDEN:
		return "hidden";
	default:
		return "";
	}
}
