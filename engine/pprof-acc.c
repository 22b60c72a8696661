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

struct pprof_acc {
	int n_events;
	bool full;                   /* out of memory or past the row cap */
	struct pair_map index;       /* (ip, pid << 32 | tid) -> row + 1 */
	struct acc_row **rows;
	size_t n, cap;
	struct str_table strings;
};

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
	str_table_free(&a->strings);
	free(a);
}

static struct acc_row *row_new(struct pprof_acc *a, uint64_t ip, uint32_t pid, uint32_t tid,
			       const char *name, const char *module)
{
	int64_t n = str_table_id(&a->strings, name), m = str_table_id(&a->strings, module);

	if (n < 0 || m < 0 || a->n >= PPROF_ACC_ROWS_MAX)
		return NULL;
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 1024;
		struct acc_row **v = realloc(a->rows, cap * sizeof(*v));
		if (!v)
			return NULL;
		a->rows = v;
		a->cap = cap;
	}
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
	return a && !a->full;
}

int pprof_acc_foreach(const struct pprof_acc *a, pprof_acc_fn fn, void *arg)
{
	for (size_t i = 0; i < a->n; i++) {
		const struct acc_row *r = a->rows[i];
		int rc = fn(arg, r->ip, r->pid, r->tid, a->strings.v[r->name],
			    a->strings.v[r->module], r->n);
		if (rc)
			return rc;
	}
	return 0;
}
