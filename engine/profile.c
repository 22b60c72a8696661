/* The profile's tables as samples arrive (see engine/profile-priv.h for
 * the files beside it): each sample finds its function row by the symbol
 * table's string pointers (a hint, else the interned strings' index), adds
 * to it, to its address row and to its thread's and process's rows and
 * cells.  The session calls in here for every sample: the hot path. */
#include "engine/profile-priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bounds of the per-thread data.  A (function, thread) cell of one event
 * takes 40 bytes, its pointer and two index slots (64 in all), malloc adds
 * its own: CELL_BYTES_MAX (not counting malloc's part) keeps some 520,000
 * of them. */
#define THREADS_MAX_DEFAULT 32768
#define CELL_BYTES_MAX (32u << 20)
#define OTHER_THREADS "[other threads]"
#define OTHER_PROCS "[other processes]"

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

struct profile_names *profile_names_ref(struct profile_names *n)
{
	if (n)
		n->refs++;
	return n;
}

void profile_names_unref(struct profile_names *n)
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
	profile_names_unref(p->names);
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

struct func_row *profile_row_find(const struct profile *p, const char *name, const char *module)
{
	const struct strpool *pool = &p->names->pool;
	struct row_key k = { strpool_find(pool, name), strpool_find(pool, module) };
	uint32_t i;

	if (!k.name || !k.module)
		return NULL;
	i = hashtab_find(&p->row_index, hash_ptrs(k.name, k.module), &k, row_is, p);
	return i == HASHTAB_NONE ? NULL : p->rows[i];
}

/* The row a sample's NAME and MODULE strings found last time, so most
 * samples find their row without hashing either string.  They are the
 * symbol tables' own, whose addresses and contents stay while their table
 * lives; the session says when one is freed (profile_symbols_freed empties
 * the hints before an address can come round with other text), so a hit
 * is two pointer compares. */
static struct func_row *row_cached(struct profile *p, const char *name, const char *module,
				   size_t *slot)
{
	const struct row_hint *h;

	*slot = hash_ptrs(name, module) % ROW_HINTS;
	h = &p->hints[*slot];
	return h->name == name && h->module == module ? h->row : NULL;
}

void profile_symbols_freed(struct profile *p)
{
	if (p) {
		memset(p->hints, 0, sizeof(p->hints));
		memset(p->memo, 0, sizeof(p->memo));
		memset(p->ip_hints, 0, sizeof(p->ip_hints));
	}
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
	    !(r = calloc(1, sizeof(*r) + 2 * (size_t)p->n_events * sizeof(uint64_t))))
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

struct thread_row *profile_table_find(const struct row_table *tab, uint32_t id)
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

struct thread_row *profile_table_get(const struct profile *p, struct row_table *tab,
				     uint32_t id)
{
	struct thread_row *t = profile_table_find(tab, id);

	if (t)
		return t;
	if (id == PROFILE_TID_OTHER || tab->n >= tab->max)
		return table_other(p, tab);
	return table_add(p, tab, id);
}

static struct thread_row *thread_get(struct profile *p, uint32_t tid)
{
	return profile_table_get(p, &p->threads, tid);
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

static inline void count_in(struct profile *p, uint64_t *n, uint32_t *epoch, int ev, uint64_t k)
{
	n[ev] += k;
	window_of(p, n, epoch)[ev] += k;
}

/* The function row *R and address row *IR (NULL: none kept) of a sample
 * at IP in NAME of MODULE, from the hints when they have them; false
 * when out of memory. */
static bool ip_rows(struct profile *p, uint64_t ip, const char *name, const char *module,
		    struct func_row **r, struct ip_row **ir)
{
	/* each process has strings of its own: the same address of one file
	 * in two processes takes two slots */
	struct ip_hint *h = &p->ip_hints[hash_mix(ip ^ (uintptr_t)module) % IP_HINTS];

	if (h->row && h->ip == ip && h->name == name && h->module == module) {
		*r = h->row;
		*ir = h->ip_row;
		return true;
	}
	*r = row_get(p, name ? name : "[unknown]", module ? module : "[unknown]");
	if (!*r)
		return false;
	*ir = ip_get(p, ip, *r);
	if (*ir)   /* none refused kept: memory may come back */
		*h = (struct ip_hint){ ip, name, module, *r, *ir };
	return true;
}

/* The memo of TID's samples, made anew when its slot held another
 * thread's; out of memory (no row for the thread), SPARE emptied. */
static struct tid_memo *memo_of(struct profile *p, uint32_t tid, struct tid_memo *spare)
{
	struct tid_memo *m = &p->memo[tid % TID_MEMOS];
	struct thread_row *t;

	if (m->thread && m->tid == tid)
		return m;
	if (!(t = thread_get(p, tid))) {
		*spare = (struct tid_memo){ .tid = tid };
		return spare;
	}
	*m = (struct tid_memo){ .tid = tid, .thread = t };
	return m;
}

static void add_to_thread(struct profile *p, struct tid_memo *m, struct func_row *fn,
			  uint32_t pid, int ev, uint64_t n)
{
	struct thread_row *t = m->thread;
	struct cell *c = m->cell;

	if (!t)
		return;
	t->pid = pid;
	count_in(p, t->n, &t->epoch, ev, n);
	if (!c || c->fn != fn)
		c = m->cell = cell_get(p, fn, t->tid);
	if (c)
		count_in(p, c->n, &c->epoch, ev, n);
}

static void add_to_process(struct profile *p, struct tid_memo *m, struct func_row *fn,
			   uint32_t pid, int ev, uint64_t n)
{
	struct thread_row *pr = m->proc;
	struct cell *c = m->pcell;

	if (!pr || m->pid != pid) {
		pr = m->proc = profile_table_get(p, &p->procs, pid);
		m->pid = pid;
		c = m->pcell = NULL;
	}
	if (!pr)
		return;
	count_in(p, pr->n, &pr->epoch, ev, n);
	if (!c || c->fn != fn)
		c = m->pcell = cell_get(p, fn, PROC_KEY(pr->tid));
	if (c)
		count_in(p, c->n, &c->epoch, ev, n);
}

void profile_add_pid(struct profile *p, int ev, uint32_t pid, uint32_t tid, uint64_t ip,
		     const char *name, const char *module, uint64_t n)
{
	struct tid_memo spare, *m;
	struct func_row *r;
	struct ip_row *ir;

	if (ev < 0 || ev >= p->n_events)
		return;
	m = memo_of(p, tid, &spare);
	r = m->row;
	ir = m->ip_row;
	if (!r || ip != m->ip || name != m->name || module != m->module) {
		if (!ip_rows(p, ip, name, module, &r, &ir))
			return;
		m->row = ir ? r : NULL;   /* none refused kept: memory may come back */
		m->ip_row = ir;
		m->ip = ip;
		m->name = name;
		m->module = module;
	}
	if (ir) {
		ir->n[ev] += n;
		ir->n[p->n_events + ev]++;
	}
	r->n[ev] += n;
	r->n[p->n_events + ev] += n;
	p->ev[ev].samples += n;
	p->ev[ev].window += n;
	add_to_thread(p, m, r, pid, ev, n);
	if (p->by_process)
		add_to_process(p, m, r, pid, ev, n);
}

void profile_add(struct profile *p, int ev, uint32_t tid, uint64_t ip, const char *name,
		 const char *module, uint64_t n)
{
	profile_add_pid(p, ev, tid, tid, ip, name, module, n);
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

void profile_add_lost(struct profile *p, uint64_t lost) { p->lost += lost; }
uint64_t profile_lost_records(const struct profile *p) { return p->lost; }
void profile_add_throttle(struct profile *p) { p->throttled++; }
void profile_add_undecodable(struct profile *p) { p->undecodable++; }

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
