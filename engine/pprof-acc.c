/* Samples per address, process and thread, kept beside the profile while
 * a session is to be written as pprof (engine/pprof.h): the profile keeps
 * per-address counts per process only, the pprof profile labels each
 * sample with its pid, tid and thread name. */
#include <stdlib.h>
#include <string.h>

#include "engine/pprof.h"

struct acc_row {
	uint64_t ip;
	uint32_t pid, tid;
	const char *name, *module;   /* interned here */
	uint64_t n[];                /* [n_events] */
};

struct pprof_acc {
	int n_events;
	bool full;                   /* out of memory or past the row cap */
	struct acc_row **rows;       /* open addressing on (ip, pid, tid) */
	size_t cap, n;
	char **strs;                 /* interned strings, open addressing */
	size_t scap, sn;
};

static uint64_t mix(uint64_t ip, uint64_t who)
{
	uint64_t h = (ip ^ 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ who ^ (h >> 29)) * 0x94d049bb133111ebull;
	return h ^ (h >> 32);
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

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
	for (size_t i = 0; i < a->cap; i++)
		free(a->rows[i]);
	for (size_t i = 0; i < a->scap; i++)
		free(a->strs[i]);
	free(a->rows);
	free(a->strs);
	free(a);
}

static bool strs_grow(struct pprof_acc *a)
{
	size_t cap = a->scap ? a->scap * 2 : 1024;
	char **t = calloc(cap, sizeof(*t));

	if (!t)
		return false;
	for (size_t i = 0; i < a->scap; i++)
		if (a->strs[i]) {
			size_t k = str_hash(a->strs[i]) & (cap - 1);
			while (t[k])
				k = (k + 1) & (cap - 1);
			t[k] = a->strs[i];
		}
	free(a->strs);
	a->strs = t;
	a->scap = cap;
	return true;
}

static const char *intern(struct pprof_acc *a, const char *s)
{
	if (2 * (a->sn + 1) > a->scap && !strs_grow(a))
		return NULL;
	size_t k = str_hash(s) & (a->scap - 1);
	for (; a->strs[k]; k = (k + 1) & (a->scap - 1))
		if (strcmp(a->strs[k], s) == 0)
			return a->strs[k];
	if (!(a->strs[k] = strdup(s)))
		return NULL;
	a->sn++;
	return a->strs[k];
}

static bool rows_grow(struct pprof_acc *a)
{
	size_t cap = a->cap ? a->cap * 2 : 4096;
	struct acc_row **t = calloc(cap, sizeof(*t));

	if (!t)
		return false;
	for (size_t i = 0; i < a->cap; i++) {
		struct acc_row *r = a->rows[i];
		if (!r)
			continue;
		size_t k = mix(r->ip, (uint64_t)r->pid << 32 | r->tid) & (cap - 1);
		while (t[k])
			k = (k + 1) & (cap - 1);
		t[k] = r;
	}
	free(a->rows);
	a->rows = t;
	a->cap = cap;
	return true;
}

/* The row of (IP, PID, TID), made when new; NULL when full. */
static struct acc_row *row_get(struct pprof_acc *a, uint64_t ip, uint32_t pid, uint32_t tid,
			       const char *name, const char *module)
{
	if (2 * (a->n + 1) > a->cap && (a->n >= PPROF_ACC_ROWS_MAX || !rows_grow(a)))
		return NULL;
	size_t k = mix(ip, (uint64_t)pid << 32 | tid) & (a->cap - 1);
	for (; a->rows[k]; k = (k + 1) & (a->cap - 1)) {
		struct acc_row *r = a->rows[k];
		if (r->ip == ip && r->pid == pid && r->tid == tid)
			return r;
	}
	struct acc_row *r = calloc(1, sizeof(*r) + (size_t)a->n_events * sizeof(uint64_t));
	if (!r || !(r->name = intern(a, name)) || !(r->module = intern(a, module))) {
		free(r);
		return NULL;
	}
	r->ip = ip;
	r->pid = pid;
	r->tid = tid;
	a->rows[k] = r;
	a->n++;
	return r;
}

void pprof_acc_add(struct pprof_acc *a, int ev, uint32_t pid, uint32_t tid, uint64_t ip,
		   const char *name, const char *module, uint64_t n)
{
	if (a->full || ev < 0 || ev >= a->n_events)
		return;
	struct acc_row *r = row_get(a, ip, pid, tid, name ? name : "[unknown]",
				    module ? module : "[unknown]");
	if (r)
		r->n[ev] += n;
	else
		a->full = true;   /* the writer then falls back to the profile */
}

bool pprof_acc_complete(const struct pprof_acc *a)
{
	return a && !a->full;
}

int pprof_acc_foreach(const struct pprof_acc *a, pprof_acc_fn fn, void *arg)
{
	for (size_t i = 0; i < a->cap; i++) {
		const struct acc_row *r = a->rows[i];
		int rc = r ? fn(arg, r->ip, r->pid, r->tid, r->name, r->module, r->n) : 0;
		if (rc)
			return rc;
	}
	return 0;
}
