#include "engine/profile.h"

#include "lib/hashtab.h"
#include "engine/callgraph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct func_row {
	const char *name, *module;   /* interned */
	/* system-wide: the process with the most samples of the first event here
	 * (found at each snapshot), and how many processes have any */
	uint64_t top_n;
	uint32_t top_pid, nprocs;
	uint64_t n[];               /* samples[n_events], then window[n_events]: sized
				     * by the session's events, not EVENTS_MAX */
};

struct ip_row {
	uint64_t ip;
	const struct func_row *fn;
	uint64_t n[];               /* [n_events] */
};

/* A thread's (or, in the process table, a process's) samples.  Its window
 * restarts lazily (see window_of). */
struct thread_row {
	uint32_t tid;               /* the process table: the pid */
	uint32_t epoch;
	bool ended;
	char comm[PROFILE_COMM_MAX];
	char user[PROFILE_USER_MAX]; /* processes: the owner's name, "" unknown */
	uint32_t pid;               /* threads: the process of its latest sample */
	uint64_t n[];               /* samples[n_events], then window[n_events] */
};

/* Threads and processes, in the order they came, found by id through
 * INDEX; past MAX rows every new id lands in the one shared OTHER row. */
struct row_table {
	struct thread_row **v;
	size_t n, alloc, max;
	struct hashtab index;        /* id -> v */
	struct thread_row *other;
	const char *other_name;
};

/* The samples of one function in one thread (or one process: PROC_KEY):
 * what a zoom shows. */
struct cell {
	struct func_row *fn;
	uint64_t key;
	uint32_t epoch;
	uint64_t n[];               /* samples[n_events], then window[n_events] */
};
#define PROC_KEY(pid) ((1ull << 32) | (uint64_t)(pid))

/* A recent (name, module) -> row lookup (row_get). */
struct row_hint {
	const char *name, *module;   /* the caller's pointers */
	struct func_row *row;
};
#define ROW_HINTS 512

/* The profile's interned strings (function names, module paths), shared
 * with the snapshots whose rows point into them: freed with the last of
 * them (a snapshot outlives its session in runs mode, engine/runs.c, and
 * while the tui shows it).  Strings are only added, never changed, and
 * keep their address (lib/hashtab.h): a snapshot's stay as they were. */
struct profile_names {
	struct strpool pool;
	unsigned refs;
};

struct profile {
	int n_events;
	struct snap_event ev[EVENTS_MAX];
	struct profile_names *names;
	/* The tables hold pointers, in the order the records came (what the
	 * loops over them visit), and an index each: a record keeps its
	 * address for the profile's life (the hints, the cells and the last_*
	 * shortcuts point at them). */
	struct func_row **rows;
	size_t n, rows_alloc;
	struct hashtab row_index;    /* (name, module) pointers -> rows */
	struct ip_row **ips;
	size_t nips, ips_alloc;
	struct hashtab ip_index;     /* (function, address) -> ips */
	size_t max_ips;              /* 0: no bound */
	struct row_hint hints[ROW_HINTS];
	struct row_table threads;
	struct row_table procs;      /* filled only when by_process */
	bool by_process;             /* system-wide: rows per process too */
	struct cell **cells;
	size_t ncells, cells_alloc, max_cells;
	struct hashtab cell_index;   /* (function, key) -> cells */
	struct thread_row *last_thread; /* samples come in runs of one thread */
	struct cell *last_cell, *last_pcell;
	uint32_t epoch;              /* snapshots taken: older windows are empty */
	uint32_t filter;             /* the thread snapshots show; 0: all */
	int64_t pfilter;             /* the process snapshots show; -1: all */
	uint64_t lost, throttled, undecodable;
	int n_groups, slice_ms;      /* the plan (profile_set_plan) */
	char reference[EVENT_NAME_MAX];
	double reference_count;
};

/* Bounds of the per-thread data.  A (function, thread) cell of one event
 * takes 40 bytes, its pointer and two index slots (64 in all), malloc adds
 * its own: CELL_BYTES_MAX (not counting malloc's part) keeps some 520,000
 * of them. */
#define THREADS_MAX_DEFAULT 32768
#define CELL_BYTES_MAX (32u << 20)
#define OTHER_THREADS "[other threads]"
#define OTHER_PROCS "[other processes]"
#define OTHER_FUNCS "[other functions]"
#define OTHER_FUNCS_MODULE "[per-thread table full]"

static uint64_t hash_ptrs(const void *a, const void *b)
{
	return hash_mix(hash_mix((uintptr_t)a) ^ (uintptr_t)b);
}

/* Strings outlive the symbol tables they came from (exec, dlclose).  Out
 * of memory, a name reads so rather than being lost. */
static const char *intern(struct strpool *sp, const char *s)
{
	const char *c = strpool_intern(sp, s);

	return c ? c : "[out of memory]";
}

static struct profile_names *names_ref(struct profile_names *n)
{
	if (n)
		n->refs++;
	return n;
}

static void names_unref(struct profile_names *n)
{
	if (n && --n->refs == 0) {
		strpool_free(&n->pool);
		free(n);
	}
}

struct profile *profile_new(const struct ev_list *events)
{
	struct profile *p = calloc(1, sizeof(*p));

	if (!p || !(p->names = calloc(1, sizeof(*p->names)))) {
		free(p);
		return NULL;
	}
	p->names->refs = 1;
	p->n_events = events->n;
	for (int i = 0; i < events->n; i++) {
		snprintf(p->ev[i].name, sizeof(p->ev[i].name), "%s", events->ev[i].name);
		p->ev[i].sav = events->ev[i].sav;
		p->ev[i].coverage = 1.0;
	}
	p->n_groups = 1;
	p->reference_count = NAN;
	p->threads.max = THREADS_MAX_DEFAULT;
	p->threads.other_name = OTHER_THREADS;
	p->procs.max = THREADS_MAX_DEFAULT;
	p->procs.other_name = OTHER_PROCS;
	p->pfilter = -1;
	p->max_cells = CELL_BYTES_MAX / (sizeof(struct cell) + 2 * (size_t)p->n_events *
					 sizeof(uint64_t) + sizeof(struct cell *) +
					 2 * sizeof(struct hashtab_slot));
	return p;
}

static void table_free(struct row_table *tab);

void profile_free(struct profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->rows[i]);
	free(p->rows);
	hashtab_free(&p->row_index);
	for (size_t i = 0; i < p->nips; i++)
		free(p->ips[i]);
	free(p->ips);
	hashtab_free(&p->ip_index);
	table_free(&p->threads);
	table_free(&p->procs);
	for (size_t i = 0; i < p->ncells; i++)
		free(p->cells[i]);
	free(p->cells);
	hashtab_free(&p->cell_index);
	names_unref(p->names);
	free(p);
}

/* A function's key: its interned name and module, compared by address. */
struct row_key {
	const char *name, *module;
};

static bool row_is(const void *key, uint32_t idx, const void *ctx)
{
	const struct row_key *k = key;
	const struct func_row *r = ((const struct profile *)ctx)->rows[idx];

	return r->name == k->name && r->module == k->module;
}

/* A new row, or NULL when out of memory (nothing then changed but the
 * array's room). */
static struct func_row *row_add(struct profile *p, const struct row_key *k, uint64_t h)
{
	struct func_row *r;

	if (GROW(p->rows, p->n + 1, p->rows_alloc) < 0 ||
	    !(r = calloc(1, sizeof(*r) + 2 * (size_t)p->n_events * sizeof(uint64_t))))
		return NULL;
	if (hashtab_add(&p->row_index, h, (uint32_t)p->n) < 0) {
		free(r);
		return NULL;
	}
	r->name = k->name;
	r->module = k->module;
	p->rows[p->n++] = r;
	return r;
}

static struct func_row *row_find_or_add(struct profile *p, const char *name,
					 const char *module)
{
	struct row_key k = { intern(&p->names->pool, name), intern(&p->names->pool, module) };
	uint64_t h = hash_ptrs(k.name, k.module);
	uint32_t i = hashtab_find(&p->row_index, h, &k, row_is, p);

	return i != HASHTAB_NONE ? p->rows[i] : row_add(p, &k, h);
}

/* The row of NAME in MODULE, NULL when there is none (nothing is
 * interned: strings never seen cannot name a row). */
static struct func_row *row_find(const struct profile *p, const char *name, const char *module)
{
	const struct strpool *pool = &p->names->pool;
	struct row_key k = { strpool_find(pool, name), strpool_find(pool, module) };
	uint32_t i;

	if (!k.name || !k.module)
		return NULL;
	i = hashtab_find(&p->row_index, hash_ptrs(k.name, k.module), &k, row_is, p);
	return i == HASHTAB_NONE ? NULL : p->rows[i];
}

/* The row a sample's NAME and MODULE strings found last time.  They are
 * the symbol tables' own (stable while their module lives), so most samples
 * find their row here without hashing either string; a hit is checked by
 * content, as freed strings' addresses come round again. */
static struct func_row *row_cached(struct profile *p, const char *name, const char *module,
				   size_t *slot)
{
	const struct row_hint *h;

	*slot = hash_ptrs(name, module) % ROW_HINTS;
	h = &p->hints[*slot];
	if (h->row && h->name == name && h->module == module &&
	    strcmp(h->row->name, name) == 0 && strcmp(h->row->module, module) == 0)
		return h->row;
	return NULL;
}

static struct func_row *row_get(struct profile *p, const char *name, const char *module)
{
	size_t slot;
	struct func_row *r = row_cached(p, name, module, &slot);

	if (r)
		return r;
	if ((r = row_find_or_add(p, name, module)) != NULL)
		p->hints[slot] = (struct row_hint){ name, module, r };
	return r;
}

/* Address rows are keyed by (function, address): after an exec, or under
 * -a where processes share addresses, one address is code of several
 * functions, and each keeps its own samples there. */
struct ip_key {
	uint64_t ip;
	const struct func_row *fn;
};

static uint64_t hash_ip(uint64_t ip, const struct func_row *fn)
{
	return hash_mix(ip ^ hash_mix((uintptr_t)fn));
}

static bool ip_is(const void *key, uint32_t idx, const void *ctx)
{
	const struct ip_key *k = key;
	const struct ip_row *r = ((const struct profile *)ctx)->ips[idx];

	return r->ip == k->ip && r->fn == k->fn;
}

static struct ip_row *ip_find(const struct profile *p, uint64_t ip, const struct func_row *fn)
{
	struct ip_key k = { ip, fn };
	uint32_t i = hashtab_find(&p->ip_index, hash_ip(ip, fn), &k, ip_is, p);

	return i == HASHTAB_NONE ? NULL : p->ips[i];
}

static struct ip_row *ip_add(struct profile *p, uint64_t ip, const struct func_row *fn)
{
	struct ip_row *r;

	if (GROW(p->ips, p->nips + 1, p->ips_alloc) < 0 ||
	    !(r = calloc(1, sizeof(*r) + (size_t)p->n_events * sizeof(uint64_t))))
		return NULL;
	if (hashtab_add(&p->ip_index, hash_ip(ip, fn), (uint32_t)p->nips) < 0) {
		free(r);
		return NULL;
	}
	r->ip = ip;
	r->fn = fn;
	p->ips[p->nips++] = r;
	return r;
}

/* Address IP of function FN.  NULL when out of memory or past max_ips (the
 * function still counts it). */
static struct ip_row *ip_get(struct profile *p, uint64_t ip, const struct func_row *fn)
{
	struct ip_row *r = ip_find(p, ip, fn);

	if (r || (p->max_ips && p->nips >= p->max_ips))
		return r;
	return ip_add(p, ip, fn);
}

/* Windows restart lazily: a snapshot bumps p->epoch instead of visiting
 * every per-thread row, and a row's window counts only while its epoch is
 * current.  N holds samples[n_events] then window[n_events]. */
static uint64_t *window_of(const struct profile *p, uint64_t *n, uint32_t *epoch)
{
	size_t ne = (size_t)p->n_events;

	if (*epoch != p->epoch) {
		memset(n + ne, 0, ne * sizeof(*n));
		*epoch = p->epoch;
	}
	return n + ne;
}

static void copy_window(const struct profile *p, uint64_t *dst, const uint64_t *n,
			uint32_t epoch)
{
	size_t ne = (size_t)p->n_events;

	if (epoch == p->epoch)
		memcpy(dst, n + ne, ne * sizeof(*dst));
	else
		memset(dst, 0, ne * sizeof(*dst));
}

static struct thread_row *thread_new(const struct profile *p, uint32_t tid)
{
	struct thread_row *t = calloc(1, sizeof(*t) + 2 * (size_t)p->n_events * sizeof(uint64_t));

	if (t) {
		t->tid = tid;
		t->epoch = p->epoch;
	}
	return t;
}

static void table_free(struct row_table *tab)
{
	for (size_t i = 0; i < tab->n; i++)
		free(tab->v[i]);
	free(tab->v);
	hashtab_free(&tab->index);
	free(tab->other);
}

static bool row_has_id(const void *key, uint32_t idx, const void *ctx)
{
	return ((const struct row_table *)ctx)->v[idx]->tid == *(const uint32_t *)key;
}

static struct thread_row *table_find(const struct row_table *tab, uint32_t id)
{
	if (id == PROFILE_TID_OTHER)
		return tab->other;
	uint32_t i = hashtab_find(&tab->index, hash_mix(id), &id, row_has_id, tab);
	return i == HASHTAB_NONE ? NULL : tab->v[i];
}

/* A new row of TAB, or NULL when out of memory. */
static struct thread_row *table_add(const struct profile *p, struct row_table *tab, uint32_t id)
{
	struct thread_row *t;

	if (GROW(tab->v, tab->n + 1, tab->alloc) < 0 || !(t = thread_new(p, id)))
		return NULL;
	if (hashtab_add(&tab->index, hash_mix(id), (uint32_t)tab->n) < 0) {
		free(t);
		return NULL;
	}
	tab->v[tab->n++] = t;
	return t;
}

/* Past max rows, every new id lands in the one shared row. */
static struct thread_row *table_other(const struct profile *p, struct row_table *tab)
{
	if (!tab->other && (tab->other = thread_new(p, PROFILE_TID_OTHER)) != NULL)
		snprintf(tab->other->comm, sizeof(tab->other->comm), "%s", tab->other_name);
	return tab->other;
}

static struct thread_row *table_get(const struct profile *p, struct row_table *tab, uint32_t id)
{
	struct thread_row *t = table_find(tab, id);

	if (t)
		return t;
	if (id == PROFILE_TID_OTHER || tab->n >= tab->max)
		return table_other(p, tab);
	return table_add(p, tab, id);
}

static struct thread_row *thread_find(const struct profile *p, uint32_t tid)
{
	return table_find(&p->threads, tid);
}

static struct thread_row *thread_get(struct profile *p, uint32_t tid)
{
	return table_get(p, &p->threads, tid);
}

static uint64_t hash_cell(const struct func_row *fn, uint64_t key)
{
	return hash_ptrs(fn, (const void *)(uintptr_t)key);
}

struct cell_key {
	const struct func_row *fn;
	uint64_t key;
};

static bool cell_is(const void *key, uint32_t idx, const void *ctx)
{
	const struct cell_key *k = key;
	const struct cell *c = ((const struct profile *)ctx)->cells[idx];

	return c->fn == k->fn && c->key == k->key;
}

static struct cell *cell_add(struct profile *p, struct func_row *fn, uint64_t key, uint64_t h)
{
	struct cell *c;

	if (GROW(p->cells, p->ncells + 1, p->cells_alloc) < 0 ||
	    !(c = calloc(1, sizeof(*c) + 2 * (size_t)p->n_events * sizeof(uint64_t))))
		return NULL;
	if (hashtab_add(&p->cell_index, h, (uint32_t)p->ncells) < 0) {
		free(c);
		return NULL;
	}
	c->fn = fn;
	c->key = key;
	c->epoch = p->epoch;
	p->cells[p->ncells++] = c;
	return c;
}

/* NULL when out of memory or past max_cells: the thread's (process's) own
 * row still counts the sample, the zoomed table shows it as OTHER_FUNCS. */
static struct cell *cell_get(struct profile *p, struct func_row *fn, uint64_t key)
{
	struct cell_key k = { fn, key };
	uint64_t h = hash_cell(fn, key);
	uint32_t i = hashtab_find(&p->cell_index, h, &k, cell_is, p);

	if (i != HASHTAB_NONE)
		return p->cells[i];
	return p->ncells < p->max_cells ? cell_add(p, fn, key, h) : NULL;
}

static void count_in(struct profile *p, uint64_t *n, uint32_t *epoch, int ev, uint64_t k)
{
	n[ev] += k;
	window_of(p, n, epoch)[ev] += k;
}

static void add_to_thread(struct profile *p, struct func_row *fn, uint32_t pid, uint32_t tid,
			  int ev, uint64_t n)
{
	struct thread_row *t = p->last_thread;
	struct cell *c = p->last_cell;

	if (!t || t->tid != tid)
		t = p->last_thread = thread_get(p, tid);
	if (!t)
		return;
	t->pid = pid;
	count_in(p, t->n, &t->epoch, ev, n);
	if (!c || c->fn != fn || c->key != t->tid)
		c = p->last_cell = cell_get(p, fn, t->tid);
	if (c)
		count_in(p, c->n, &c->epoch, ev, n);
}

static void add_to_process(struct profile *p, struct func_row *fn, uint32_t pid, int ev,
			   uint64_t n)
{
	struct thread_row *pr = table_get(p, &p->procs, pid);
	struct cell *c = p->last_pcell;

	if (!pr)
		return;
	count_in(p, pr->n, &pr->epoch, ev, n);
	if (!c || c->fn != fn || c->key != PROC_KEY(pr->tid))
		c = p->last_pcell = cell_get(p, fn, PROC_KEY(pr->tid));
	if (c)
		count_in(p, c->n, &c->epoch, ev, n);
}

void profile_add_pid(struct profile *p, int ev, uint32_t pid, uint32_t tid, uint64_t ip,
		     const char *name, const char *module, uint64_t n)
{
	if (ev < 0 || ev >= p->n_events)
		return;
	struct func_row *r = row_get(p, name ? name : "[unknown]", module ? module : "[unknown]");
	if (!r)
		return;
	struct ip_row *ir = ip_get(p, ip, r);
	if (ir)
		ir->n[ev] += n;
	r->n[ev] += n;
	r->n[p->n_events + ev] += n;
	p->ev[ev].samples += n;
	p->ev[ev].window += n;
	add_to_thread(p, r, pid, tid, ev, n);
	if (p->by_process)
		add_to_process(p, r, pid, ev, n);
}

void profile_add(struct profile *p, int ev, uint32_t tid, uint64_t ip, const char *name,
		 const char *module, uint64_t n)
{
	profile_add_pid(p, ev, tid, tid, ip, name, module, n);
}

static void row_set_name(struct thread_row *t, const char *comm)
{
	snprintf(t->comm, sizeof(t->comm), "%s", comm ? comm : "");
}

void profile_set_thread_name(struct profile *p, uint32_t tid, const char *comm)
{
	struct thread_row *t = thread_get(p, tid);

	if (t && t != p->threads.other)
		row_set_name(t, comm);
}

/* A new thread (process) takes its parent's name and owner.  Records come in
 * time order (engine/ordered.h), so nothing of the child's precedes its
 * FORK; a row that ended before is an id that came round again: a new life
 * (its samples add to the old ones). */
static void table_fork(struct profile *p, struct row_table *tab, uint32_t tid,
		       uint32_t parent_tid)
{
	struct thread_row *t = table_get(p, tab, tid);
	const struct thread_row *parent = table_find(tab, parent_tid);  /* after: may grow */

	if (!t || t == tab->other)
		return;
	bool new_life = t->ended;  /* the id came round again */
	t->ended = false;
	if (!parent || parent == t || parent == tab->other)
		return;
	if (!t->user[0] || new_life)
		memcpy(t->user, parent->user, sizeof(t->user));
	if ((!t->comm[0] || new_life) && parent->comm[0])
		memcpy(t->comm, parent->comm, sizeof(t->comm));
}

void profile_thread_fork(struct profile *p, uint32_t tid, uint32_t parent_tid)
{
	table_fork(p, &p->threads, tid, parent_tid);
}

/* The row is made if need be (a thread known by its EXIT alone is listed
 * ended when it has samples). */
static void table_exit(struct profile *p, struct row_table *tab, uint32_t tid)
{
	struct thread_row *t = tid == PROFILE_TID_OTHER ? NULL : table_get(p, tab, tid);

	if (t && t != tab->other)
		t->ended = true;
}

void profile_thread_exit(struct profile *p, uint32_t tid)
{
	table_exit(p, &p->threads, tid);
}

/* System-wide, every process's code lies at addresses of its own (ASLR): a
 * storm of short processes brings new addresses without end.  Past this
 * many the per-address counts (the asm view's) stop growing; the
 * functions' counts stay exact.  About 18 MB with one event (the rows, their
 * pointers and index). */
#define IPS_MAX_SYSTEM_WIDE (1u << 18)

void profile_track_processes(struct profile *p)
{
	p->by_process = true;
	p->max_ips = IPS_MAX_SYSTEM_WIDE;
}

bool profile_process_named(const struct profile *p, uint32_t pid)
{
	const struct thread_row *t = table_find(&p->procs, pid);

	return t && ((t->comm[0] && t->user[0]) || t == p->procs.other);
}

const char *profile_process_comm(const struct profile *p, uint32_t pid)
{
	const struct thread_row *t = p->by_process ? table_find(&p->procs, pid) : NULL;

	return t && t->comm[0] ? t->comm : NULL;
}

void profile_process_fill(struct profile *p, uint32_t pid, const char *comm, const char *user)
{
	struct thread_row *t = p->by_process ? table_get(p, &p->procs, pid) : NULL;

	if (!t || t == p->procs.other)
		return;
	if (!t->user[0])
		snprintf(t->user, sizeof(t->user), "%s", user);
	if (!t->comm[0])
		row_set_name(t, comm);
}

void profile_set_process(struct profile *p, uint32_t pid, const char *comm, const char *user)
{
	struct thread_row *t = p->by_process ? table_get(p, &p->procs, pid) : NULL;

	if (!t || t == p->procs.other)
		return;
	if (user)
		snprintf(t->user, sizeof(t->user), "%s", user);
	if (comm)
		row_set_name(t, comm);
}

void profile_process_fork(struct profile *p, uint32_t pid, uint32_t ppid)
{
	if (p->by_process)
		table_fork(p, &p->procs, pid, ppid);
}

void profile_process_exit(struct profile *p, uint32_t pid)
{
	if (p->by_process)
		table_exit(p, &p->procs, pid);
}

void profile_set_process_filter(struct profile *p, int64_t pid)
{
	p->pfilter = pid;
}

void profile_set_thread_filter(struct profile *p, uint32_t tid)
{
	p->filter = tid;
}

void profile_set_limits(struct profile *p, size_t max_threads, size_t max_cells)
{
	if (max_threads)
		p->threads.max = p->procs.max = max_threads;
	if (max_cells)
		p->max_cells = max_cells;
}

void profile_add_lost(struct profile *p, uint64_t lost) { p->lost += lost; }
void profile_add_throttle(struct profile *p) { p->throttled++; }
void profile_add_undecodable(struct profile *p) { p->undecodable++; }

void profile_set_count(struct profile *p, int ev, double value, double enabled, double running)
{
	if (ev < 0 || ev >= p->n_events)
		return;
	struct snap_event *e = &p->ev[ev];
	e->counted = running > 0;
	e->coverage = enabled > 0 ? running / enabled : 0;
	/* a multiplexed counter ran part of the time: scale to the whole */
	e->count = running > 0 ? value * (enabled / running) : 0;
}

void profile_set_plan(struct profile *p, int n_groups, const int *event_group, int slice_ms)
{
	p->n_groups = n_groups;
	p->slice_ms = slice_ms;
	for (int e = 0; e < p->n_events; e++)
		p->ev[e].group = event_group[e];
}

void profile_set_scaled(struct profile *p, int ev, double count, double coverage,
			bool counted)
{
	if (ev < 0 || ev >= p->n_events)
		return;
	p->ev[ev].count = counted ? count : 0;
	p->ev[ev].coverage = coverage;
	p->ev[ev].counted = counted;
}

void profile_set_reference(struct profile *p, const char *name, double count)
{
	snprintf(p->reference, sizeof(p->reference), "%s", name);
	p->reference_count = count;
}

static int first_event_desc(const void *a, const void *b)
{
	const struct snap_func *x = a, *y = b;

	if (x->samples[0] != y->samples[0])
		return x->samples[0] < y->samples[0] ? 1 : -1;
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->module, y->module);
}

static int module_desc(const void *a, const void *b)
{
	const struct snap_module *x = a, *y = b;

	if (x->samples[0] != y->samples[0])
		return x->samples[0] < y->samples[0] ? 1 : -1;
	return strcmp(x->module, y->module);
}

static bool func_sampled(const struct snap_func *f, size_t ne)
{
	for (size_t e = 0; e < ne; e++)
		if (f->samples[e])
			return true;
	return false;
}

static bool module_is(const void *key, uint32_t idx, const void *ctx)
{
	return ((const struct snap_module *)ctx)[idx].module == key;
}

/* The row of MODULE among the N rows of M (COUNTERS their counters),
 * found by pointer through INDEX or added; NULL when out of memory. */
static struct snap_module *module_row(struct snap_module *m, size_t *n, struct hashtab *index,
				      const char *module, uint64_t *counters, size_t ne)
{
	uint64_t h = hash_mix((uintptr_t)module);
	uint32_t j = hashtab_find(index, h, module, module_is, m);

	if (j != HASHTAB_NONE)
		return &m[j];
	if (hashtab_add(index, h, (uint32_t)*n) < 0)
		return NULL;
	m[*n].module = module;
	m[*n].samples = counters + 2 * ne * *n;
	m[*n].window = m[*n].samples + ne;
	return &m[(*n)++];
}

/* Module totals, summed from the function rows by module pointer: the
 * rows of one module share one (the profile's are interned, runs_merge
 * copies each module once), so this is one pass, not a scan of the modules
 * a row.  One extra allocation, freed with the snapshot through
 * s->modules. */
static int add_modules(struct snapshot *s)
{
	size_t ne = (size_t)s->n_events, n = 0;
	struct snap_module *m = calloc(s->n_funcs + 1, sizeof(*m) + 2 * ne * sizeof(uint64_t));
	struct hashtab index = { 0 };

	if (!m)
		return -1;
	uint64_t *counters = (uint64_t *)(m + s->n_funcs + 1);
	for (size_t i = 0; i < s->n_funcs; i++) {
		const struct snap_func *f = &s->funcs[i];
		if (!func_sampled(f, ne))
			continue;  /* a pure caller (add_callers) */
		struct snap_module *row = module_row(m, &n, &index, f->module, counters, ne);
		if (!row) {
			hashtab_free(&index);
			free(m);
			return -1;
		}
		for (size_t e = 0; e < ne; e++) {
			row->samples[e] += f->samples[e];
			row->window[e] += f->window[e];
		}
	}
	hashtab_free(&index);
	if (ne > 0)
		qsort(m, n, sizeof(*m), module_desc);
	s->modules = m;
	s->n_modules = n;
	return 0;
}

/* One allocation holds the snapshot, N function rows, their counters and
 * STRBYTES of strings, so a snapshot is freed (and shared) as a unit. */
struct snapshot *snapshot_new(int n_events, size_t n, size_t strbytes, char **str)
{
	size_t ne = (size_t)n_events;
	struct snapshot *s = calloc(1, sizeof(*s) + n * sizeof(struct snap_func) +
					n * 2 * ne * sizeof(uint64_t) + strbytes);

	if (!s)
		return NULL;
	s->funcs = (struct snap_func *)(s + 1);
	uint64_t *counters = (uint64_t *)(s->funcs + n);
	for (size_t i = 0; i < n; i++) {
		s->funcs[i].samples = counters + 2 * ne * i;
		s->funcs[i].window = s->funcs[i].samples + ne;
	}
	*str = (char *)(counters + n * 2 * ne);
	s->n_events = n_events;
	s->n_groups = 1;
	s->reference_count = NAN;
	s->spread = NAN;
	s->process = -1;
	return s;
}

/* A snapshot of P's rows: they point at P's names, which it holds. */
static struct snapshot *snapshot_alloc(const struct profile *p, size_t n, size_t strbytes,
				       char **str)
{
	struct snapshot *s = snapshot_new(p->n_events, n, strbytes, str);

	if (s)
		s->names = names_ref(p->names);
	return s;
}

static const char *copy_str(char **str, const char *src)
{
	size_t n = strlen(src) + 1;
	char *d = memcpy(*str, src, n);

	*str += n;
	return d;
}

/* System-wide: each function's top process (most samples of the first
 * event) and its number of processes, from the process cells. */
static void find_top_processes(const struct profile *p)
{
	for (size_t i = 0; i < p->n; i++)
		p->rows[i]->top_n = 0, p->rows[i]->nprocs = 0, p->rows[i]->top_pid = 0;
	for (size_t i = 0; i < p->ncells; i++) {
		const struct cell *c = p->cells[i];
		if (!(c->key >> 32))
			continue;
		struct func_row *fn = c->fn;
		fn->nprocs++;
		if (fn->nprocs == 1 || c->n[0] > fn->top_n ||
		    (c->n[0] == fn->top_n && (uint32_t)c->key < fn->top_pid)) {
			fn->top_n = c->n[0];
			fn->top_pid = (uint32_t)c->key;
		}
	}
}

/* F's command: the process PID's name ("" when not known). */
static void set_func_process(const struct profile *p, struct snap_func *f, uint32_t pid,
			     uint32_t nprocs, char **str)
{
	const struct thread_row *pr = table_find(&p->procs, pid);

	f->comm = copy_str(str, pr ? pr->comm : "");
	f->pid = pid;
	f->nprocs = nprocs;
}

/* Whether function I of the call graph CG has no row here: a pure caller
 * (main, __libc_start_call_main), never sampled itself.  The frames naming
 * a process and the node cap's overflow are no functions. */
static bool caller_only(const struct profile *p, const struct cg_snapshot *cg, size_t i,
			const char **name, const char **module)
{
	cg_function_at(cg, i, name, module);
	if (strcmp(*module, CG_PROCESS_MODULE) == 0 || strcmp(*module, CG_OVERFLOW_MODULE) == 0)
		return false;
	return !row_find(p, *name, *module);
}

/* perf report --children lists every function on a stack: the pure
 * callers get rows of their own with no samples (their children share is
 * the call graph's), after the sampled ones. */
static void add_callers(const struct profile *p, struct snapshot *s,
			const struct cg_snapshot *cg, char **str)
{
	const char *name, *module;

	for (size_t i = 0; cg && i < cg_functions(cg); i++) {
		if (!caller_only(p, cg, i, &name, &module))
			continue;
		struct snap_func *f = &s->funcs[s->n_funcs++];
		f->name = copy_str(str, name);
		f->module = copy_str(str, module);
	}
}

static struct snapshot *process_funcs(const struct profile *p, const struct cg_snapshot *cg)
{
	size_t strbytes = 0, ne = (size_t)p->n_events, callers = 0;
	const char *name, *module;
	char *str;

	if (p->by_process && p->n_events > 0)
		find_top_processes(p);
	if (p->by_process)
		strbytes += p->n * PROFILE_COMM_MAX;
	for (size_t i = 0; cg && i < cg_functions(cg); i++)
		if (caller_only(p, cg, i, &name, &module)) {
			callers++;
			strbytes += strlen(name) + strlen(module) + 2;
		}
	struct snapshot *s = snapshot_alloc(p, p->n + callers, strbytes, &str);
	if (!s)
		return NULL;
	for (size_t i = 0; i < p->n; i++) {
		const struct func_row *r = p->rows[i];
		struct snap_func *f = &s->funcs[i];
		memcpy(f->samples, r->n, ne * sizeof(uint64_t));
		memcpy(f->window, r->n + ne, ne * sizeof(uint64_t));
		f->name = r->name;  /* interned: the snapshot holds the names */
		f->module = r->module;
		if (p->by_process && r->nprocs)
			set_func_process(p, f, r->top_pid, r->nprocs, &str);
	}
	s->n_funcs = p->n;
	add_callers(p, s, cg, &str);
	return s;
}

/* The samples of row T that no cell holds (past max_cells), as one row. */
static void add_untracked_row(const struct profile *p, struct snapshot *s,
			      const struct thread_row *t)
{
	size_t ne = (size_t)p->n_events;
	struct snap_func *rest = &s->funcs[s->n_funcs];
	bool any = false;

	copy_window(p, rest->window, t->n, t->epoch);
	for (size_t e = 0; e < ne; e++) {
		rest->samples[e] = t->n[e];
		for (size_t i = 0; i < s->n_funcs; i++) {
			rest->samples[e] -= s->funcs[i].samples[e];
			rest->window[e] -= s->funcs[i].window[e];
		}
		any |= rest->samples[e] != 0;
	}
	if (!any)
		return;
	rest->name = OTHER_FUNCS;
	rest->module = OTHER_FUNCS_MODULE;
	s->n_funcs++;
}

/* The functions of one thread (KEY a tid) or one process (PROC_KEY), whose
 * row is T: a scan of the cells, paid only when zoomed. */
static struct snapshot *zoomed_funcs(const struct profile *p, uint64_t key,
				     const struct thread_row *t)
{
	size_t n = 0, ne = (size_t)p->n_events;
	bool proc = key >> 32;
	char *str;

	for (size_t i = 0; i < p->ncells; i++)
		n += p->cells[i]->key == key;
	struct snapshot *s = snapshot_alloc(p, n + 1, proc ? n * PROFILE_COMM_MAX : 0, &str);
	if (!s)
		return NULL;
	for (size_t i = 0; i < p->ncells; i++) {
		const struct cell *c = p->cells[i];
		if (c->key != key)
			continue;
		struct snap_func *f = &s->funcs[s->n_funcs++];
		memcpy(f->samples, c->n, ne * sizeof(uint64_t));
		copy_window(p, f->window, c->n, c->epoch);
		f->name = c->fn->name;  /* interned: the snapshot holds the names */
		f->module = c->fn->module;
		if (proc)
			set_func_process(p, f, (uint32_t)key, 1, &str);
	}
	if (t)
		add_untracked_row(p, s, t);
	return s;
}

static bool thread_sampled(const struct profile *p, const struct thread_row *t)
{
	for (int e = 0; e < p->n_events; e++)
		if (t->n[e])
			return true;
	return false;
}

static int thread_desc(const void *a, const void *b)
{
	const struct snap_thread *x = a, *y = b;

	if (x->samples[0] != y->samples[0])
		return x->samples[0] < y->samples[0] ? 1 : -1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static void copy_thread(const struct profile *p, struct snap_thread *d,
			const struct thread_row *t, uint64_t *counters)
{
	size_t ne = (size_t)p->n_events;

	d->tid = t->tid;
	d->pid = t->pid;
	memcpy(d->comm, t->comm, sizeof(d->comm));
	memcpy(d->user, t->user, sizeof(d->user));
	d->ended = t->ended;
	d->samples = counters;
	d->window = counters + ne;
	memcpy(d->samples, t->n, ne * sizeof(uint64_t));
	copy_window(p, d->window, t->n, t->epoch);
}

/* Whether row T of TAB goes into the snapshot: it has samples, and with a
 * process zoom the threads are that process's. */
static bool row_shown(const struct profile *p, const struct row_table *tab,
		      const struct thread_row *t)
{
	if (!t || !thread_sampled(p, t))
		return false;
	return tab != &p->threads || !p->by_process || p->pfilter < 0 ||
	       t->pid == (uint32_t)p->pfilter;
}

/* The rows of TAB to show, sorted (one allocation, freed with the
 * snapshot); NULL when out of memory. */
static struct snap_thread *copy_table(const struct profile *p, const struct row_table *tab,
				      size_t *count)
{
	size_t ne = (size_t)p->n_events, n = 0;

	for (size_t i = 0; i < tab->n; i++)
		n += row_shown(p, tab, tab->v[i]);
	n += row_shown(p, tab, tab->other);
	struct snap_thread *v = calloc(n + 1, sizeof(*v) + 2 * ne * sizeof(uint64_t));
	if (!v)
		return NULL;
	uint64_t *counters = (uint64_t *)(v + n + 1);
	*count = 0;
	for (size_t i = 0; i <= tab->n; i++) {
		const struct thread_row *t = i < tab->n ? tab->v[i] : tab->other;
		if (!row_shown(p, tab, t))
			continue;
		copy_thread(p, &v[(*count)++], t, counters);
		counters += 2 * ne;
	}
	if (ne > 0)
		qsort(v, *count, sizeof(*v), thread_desc);
	return v;
}

static int add_threads(const struct profile *p, struct snapshot *s)
{
	s->threads = copy_table(p, &p->threads, &s->n_threads);
	if (s->threads && p->by_process) {
		s->procs = copy_table(p, &p->procs, &s->n_procs);
		for (size_t i = 0; s->procs && i < s->n_procs; i++)
			s->procs[i].pid = s->procs[i].tid;
	}
	return s->threads && (!p->by_process || s->procs) ? 0 : -1;
}

/* Only once the snapshot is complete: a failed one loses no window. */
static void restart_windows(struct profile *p)
{
	for (size_t i = 0; i < p->n; i++)
		memset(p->rows[i]->n + p->n_events, 0, (size_t)p->n_events * sizeof(uint64_t));
	for (int e = 0; e < p->n_events; e++)
		p->ev[e].window = 0;
	p->epoch++;
}

struct snapshot *profile_snapshot(struct profile *p, double now, double window_seconds)
{
	return profile_snapshot_cg(p, now, window_seconds, NULL);
}

struct snapshot *profile_snapshot_cg(struct profile *p, double now, double window_seconds,
				     const struct cg_snapshot *cg)
{
	struct snapshot *s;

	if (p->filter)
		s = zoomed_funcs(p, p->filter, thread_find(p, p->filter));
	else if (p->by_process && p->pfilter >= 0)
		s = zoomed_funcs(p, PROC_KEY(p->pfilter), table_find(&p->procs, (uint32_t)p->pfilter));
	else
		s = process_funcs(p, cg);

	if (!s)
		return NULL;
	s->time = now;
	s->window_seconds = window_seconds;
	s->n_events = p->n_events;
	memcpy(s->ev, p->ev, sizeof(s->ev));
	s->lost = p->lost;
	s->throttled = p->throttled;
	s->undecodable = p->undecodable;
	s->thread = p->filter;
	s->system_wide = p->by_process;
	s->process = p->by_process ? p->pfilter : -1;
	s->n_groups = p->n_groups;
	s->slice_ms = p->n_groups > 1 ? p->slice_ms : 0;
	memcpy(s->reference, p->reference, sizeof(s->reference));
	s->reference_count = p->reference_count;
	if (s->n_events > 0)
		qsort(s->funcs, s->n_funcs, sizeof(s->funcs[0]), first_event_desc);
	if (add_modules(s) < 0 || add_threads(p, s) < 0) {
		snapshot_free(s);
		return NULL;
	}
	restart_windows(p);
	return s;
}

int snapshot_finish(struct snapshot *s)
{
	if (s->n_events > 0)
		qsort(s->funcs, s->n_funcs, sizeof(s->funcs[0]), first_event_desc);
	s->threads = calloc(1, sizeof(*s->threads));
	if (!s->threads || add_modules(s) < 0) {
		snapshot_free(s);
		return -1;
	}
	return 0;
}

void snapshot_free(struct snapshot *s)
{
	if (s) {
		cg_snapshot_free(s->cg);
		names_unref(s->names);
		free(s->modules);
		free(s->threads);
		free(s->procs);
	}
	free(s);
}

static int ip_asc(const void *a, const void *b)
{
	const struct snap_ip *x = a, *y = b;

	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

struct ip_counts *profile_ip_counts(struct profile *p, const char *name, const char *module)
{
	size_t ne = (size_t)p->n_events, n = 0;
	const struct func_row *fn = row_find(p, name, module);

	for (size_t i = 0; fn && i < p->nips; i++)
		n += p->ips[i]->fn == fn;
	struct ip_counts *c = calloc(1, sizeof(*c) + n * (sizeof(struct snap_ip) +
							  ne * sizeof(uint64_t)));
	if (!c)
		return NULL;
	c->n_events = p->n_events;
	c->ips = (struct snap_ip *)(c + 1);
	uint64_t *counters = (uint64_t *)(c->ips + n);
	for (size_t i = 0; fn && i < p->nips; i++) {
		const struct ip_row *r = p->ips[i];
		if (r->fn != fn)
			continue;
		struct snap_ip *d = &c->ips[c->n++];
		d->ip = r->ip;
		d->samples = counters;
		counters += ne;
		memcpy(d->samples, r->n, ne * sizeof(uint64_t));
	}
	qsort(c->ips, c->n, sizeof(*c->ips), ip_asc);
	return c;
}

int profile_foreach_ip(const struct profile *p, profile_ip_fn fn, void *arg)
{
	for (size_t i = 0; i < p->nips; i++) {
		const struct ip_row *r = p->ips[i];
		int rc = fn(arg, r->ip, r->fn->name, r->fn->module, r->n);
		if (rc)
			return rc;
	}
	return 0;
}

double snapshot_percent(const struct snapshot *s, const struct snap_func *f, int ev,
			bool window)
{
	uint64_t total = window ? s->ev[ev].window : s->ev[ev].samples;
	uint64_t n = window ? f->window[ev] : f->samples[ev];

	return total ? 100.0 * (double)n / (double)total : 0.0;
}

double snapshot_thread_percent(const struct snapshot *s, const struct snap_thread *t, int ev,
			       bool window)
{
	uint64_t total = window ? s->ev[ev].window : s->ev[ev].samples;
	uint64_t n = window ? t->window[ev] : t->samples[ev];

	return total ? 100.0 * (double)n / (double)total : 0.0;
}

const struct snap_thread *snapshot_process(const struct snapshot *s, uint32_t pid)
{
	for (size_t i = 0; i < s->n_procs; i++)
		if (s->procs[i].tid == pid)
			return &s->procs[i];
	return NULL;
}

const struct snap_thread *snapshot_thread(const struct snapshot *s, uint32_t tid)
{
	for (size_t i = 0; i < s->n_threads; i++)
		if (s->threads[i].tid == tid)
			return &s->threads[i];
	return NULL;
}
