/* Samples per address, process and thread, kept beside the profile while
 * a session is to be written as pprof (engine/pprof.h): the profile keeps
 * per-address counts per process only, the pprof profile labels each
 * sample with its pid, tid and thread name. */
#include <stdlib.h>
#include <string.h>

#include "engine/pprof.h"
#include "engine/pprof-table.h"

struct acc_row {
	uint64_t ip;
	uint32_t pid, tid;
	uint32_t name, module;       /* in the string table */
	uint64_t n[];                /* [n_events] */
};

struct acc_stack;

struct pprof_acc {
	int n_events;
	bool full;                   /* out of memory or past a cap */
	struct pair_map index;       /* (ip, pid << 32 | tid) -> row + 1 */
	struct acc_row **rows;
	size_t n, cap;
	struct pair_map stack_index; /* (hash, k) -> stack + 1 */
	struct acc_stack **stacks;
	size_t nstacks, capstacks, nframes;
	struct str_table strings;
};

static void free_stacks(struct pprof_acc *a);

struct pprof_acc *pprof_acc_new(int n_events)
{
	struct pprof_acc *a = calloc(1, sizeof(*a));

	if (a)
		a->n_events = n_events;
	return a;
}

void pprof_acc_free(struct pprof_acc *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->n; i++)
		free(a->rows[i]);
	free(a->rows);
	pair_map_free(&a->index);
	free_stacks(a);
	str_table_free(&a->strings);
	free(a);
}

static struct acc_row *row_new(struct pprof_acc *a, uint64_t ip, uint32_t pid, uint32_t tid,
			       const char *name, const char *module)
{
	int64_t n = str_table_id(&a->strings, name), m = str_table_id(&a->strings, module);

	if (n < 0 || m < 0 || a->n >= PPROF_ACC_ROWS_MAX)
		return NULL;
	if (GROW(a->rows, a->n + 1, a->cap) < 0)
		return NULL;
	struct acc_row *r = calloc(1, sizeof(*r) + (size_t)a->n_events * sizeof(uint64_t));
	if (r) {
		*r = (struct acc_row){ ip, pid, tid, (uint32_t)n, (uint32_t)m };
		a->rows[a->n++] = r;
	}
	return r;
}

void pprof_acc_add(struct pprof_acc *a, int ev, uint32_t pid, uint32_t tid, uint64_t ip,
		   const char *name, const char *module, uint64_t n)
{
	if (a->full || ev < 0 || ev >= a->n_events)
		return;
	uint64_t *slot = pair_slot(&a->index, ip, (uint64_t)pid << 32 | tid);
	struct acc_row *r = !slot ? NULL : *slot ? a->rows[*slot - 1]
			  : row_new(a, ip, pid, tid, name ? name : "[unknown]",
				    module ? module : "[unknown]");
	if (!r) {
		a->full = true;   /* the writer then falls back to the profile */
		return;
	}
	if (!*slot)
		*slot = a->n;     /* the row just made, + 1 */
	r->n[ev] += n;
}

bool pprof_acc_complete(const struct pprof_acc *a)
{
	return a && !a->full && a->n > 0;
}

int pprof_acc_foreach(const struct pprof_acc *a, pprof_acc_fn fn, void *arg)
{
	for (size_t i = 0; i < a->n; i++) {
		const struct acc_row *r = a->rows[i];
		int rc = fn(arg, r->ip, r->pid, r->tid, a->strings.pool.strs[r->name],
			    a->strings.pool.strs[r->module], r->n);
		if (rc)
			return rc;
	}
	return 0;
}

/* --- call stacks per process and thread -------------------------------- */

struct acc_frame {
	uint64_t ip;
	uint32_t name, module;       /* in the string table */
};

struct acc_stack {
	uint64_t hash;
	uint32_t pid, tid;
	size_t n;
	struct acc_frame *f;         /* leaf first */
	uint64_t cnt[];              /* [n_events] */
};

static uint64_t frames_hash(uint32_t pid, uint32_t tid, const struct acc_frame *f, size_t n)
{
	uint64_t h = hash_mix((uint64_t)pid << 32 | tid);

	for (size_t i = 0; i < n; i++)
		h = hash_mix(h ^ hash_mix(f[i].ip ^ ((uint64_t)f[i].name << 32 | f[i].module)));
	return h;
}

static bool same_stack(const struct acc_stack *s, uint64_t hash, uint32_t pid, uint32_t tid,
		       const struct acc_frame *f, size_t n)
{
	return s->hash == hash && s->pid == pid && s->tid == tid && s->n == n &&
	       memcmp(s->f, f, n * sizeof(*f)) == 0;
}

static struct acc_stack *stack_new(struct pprof_acc *a, uint64_t hash, uint32_t pid,
				   uint32_t tid, const struct acc_frame *f, size_t n)
{
	if (GROW(a->stacks, a->nstacks + 1, a->capstacks) < 0)
		return NULL;
	struct acc_stack *s = calloc(1, sizeof(*s) + (size_t)a->n_events * sizeof(uint64_t));
	struct acc_frame *copy = s ? malloc(n * sizeof(*copy)) : NULL;
	if (!copy) {
		free(s);
		return NULL;
	}
	memcpy(copy, f, n * sizeof(*copy));
	*s = (struct acc_stack){ hash, pid, tid, n, copy };
	a->stacks[a->nstacks++] = s;
	a->nframes += n;
	return s;
}

/* The row of this stack, made when new; NULL when full.  Rows are found by
 * (hash, k): a different stack with the same hash takes the next k. */
static struct acc_stack *stack_get(struct pprof_acc *a, uint32_t pid, uint32_t tid,
				   const struct acc_frame *f, size_t n)
{
	uint64_t hash = frames_hash(pid, tid, f, n);

	for (uint64_t k = 0; k < 16; k++) {
		uint64_t *slot = pair_slot(&a->stack_index, hash, k);
		if (!slot)
			return NULL;
		if (*slot && same_stack(a->stacks[*slot - 1], hash, pid, tid, f, n))
			return a->stacks[*slot - 1];
		if (*slot)
			continue;
		if (a->nframes + n > PPROF_ACC_FRAMES_MAX || a->nstacks >= PPROF_ACC_ROWS_MAX)
			return NULL;
		struct acc_stack *s = stack_new(a, hash, pid, tid, f, n);
		if (s)
			*slot = a->nstacks;
		return s;
	}
	return NULL;
}

void pprof_acc_add_stack(struct pprof_acc *a, int ev, uint32_t pid, uint32_t tid,
			 const uint64_t *ips, const struct cg_frame *frames, size_t n, uint64_t w)
{
	struct acc_frame f[PPROF_ACC_STACK_MAX];

	if (a->full || ev < 0 || ev >= a->n_events || n == 0)
		return;
	if (n > PPROF_ACC_STACK_MAX)
		n = PPROF_ACC_STACK_MAX;
	for (size_t i = 0; i < n; i++) {
		int64_t name = str_table_id(&a->strings, frames[i].name ? frames[i].name : CG_UNKNOWN);
		int64_t mod = str_table_id(&a->strings,
					   frames[i].module ? frames[i].module : CG_UNKNOWN);
		if (name < 0 || mod < 0) {
			a->full = true;
			return;
		}
		f[i] = (struct acc_frame){ ips[i], (uint32_t)name, (uint32_t)mod };
	}
	struct acc_stack *s = stack_get(a, pid, tid, f, n);
	if (s)
		s->cnt[ev] += w;
	else
		a->full = true;
}

size_t pprof_acc_stacks(const struct pprof_acc *a)
{
	return a ? a->nstacks : 0;
}

int pprof_acc_foreach_stack(const struct pprof_acc *a, pprof_acc_stack_fn fn, void *arg)
{
	const char *names[PPROF_ACC_STACK_MAX], *modules[PPROF_ACC_STACK_MAX];
	uint64_t ips[PPROF_ACC_STACK_MAX];

	for (size_t i = 0; i < a->nstacks; i++) {
		const struct acc_stack *s = a->stacks[i];
		for (size_t k = 0; k < s->n; k++) {
			ips[k] = s->f[k].ip;
			names[k] = a->strings.pool.strs[s->f[k].name];
			modules[k] = a->strings.pool.strs[s->f[k].module];
		}
		int rc = fn(arg, s->pid, s->tid, ips, names, modules, s->n, s->cnt);
		if (rc)
			return rc;
	}
	return 0;
}

static void free_stacks(struct pprof_acc *a)
{
	for (size_t i = 0; i < a->nstacks; i++) {
		free(a->stacks[i]->f);
		free(a->stacks[i]);
	}
	free(a->stacks);
	pair_map_free(&a->stack_index);
}

/* --- merging (cyctop serve: a window's segments, engine/pprof.h) -------- */

struct merge_ctx {
	struct pprof_acc *dst;
	struct cg_frame f[PPROF_ACC_STACK_MAX];
};

static int merge_row(void *arg, uint64_t ip, uint32_t pid, uint32_t tid, const char *name,
		     const char *module, const uint64_t *samples)
{
	struct merge_ctx *m = arg;

	for (int e = 0; e < m->dst->n_events; e++)
		if (samples[e])
			pprof_acc_add(m->dst, e, pid, tid, ip, name, module, samples[e]);
	return 0;
}

static int merge_stack(void *arg, uint32_t pid, uint32_t tid, const uint64_t *ips,
		       const char *const *names, const char *const *modules, size_t n,
		       const uint64_t *samples)
{
	struct merge_ctx *m = arg;

	for (size_t i = 0; i < n; i++)
		m->f[i] = (struct cg_frame){ names[i], modules[i] };
	for (int e = 0; e < m->dst->n_events; e++)
		if (samples[e])
			pprof_acc_add_stack(m->dst, e, pid, tid, ips, m->f, n, samples[e]);
	return 0;
}

void pprof_acc_merge(struct pprof_acc *dst, const struct pprof_acc *src)
{
	struct merge_ctx *m = malloc(sizeof(*m));

	if (!m || src->full || src->n_events != dst->n_events) {
		dst->full = true;
		free(m);
		return;
	}
	m->dst = dst;
	pprof_acc_foreach_stack(src, merge_stack, m);
	pprof_acc_foreach(src, merge_row, m);
	free(m);
}
