/* The profile's snapshots: immutable copies for the tui (engine/profile.h),
 * the function rows sorted, module totals summed by interned pointer,
 * zoomed tables from the cells, the threads and processes, and the
 * per-address counts of one function.  A snapshot's names point into the
 * profile's interned strings, on which it holds a reference. */
#include "engine/profile-priv.h"

#include "engine/callgraph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A row's window into DST: empty when a snapshot was taken since it last
 * counted (its epoch is past: profile.c's window_of restarts it lazily). */
static void copy_window(const struct profile *p, uint64_t *dst, const uint64_t *n,
			uint32_t epoch)
{
	size_t ne = (size_t)p->n_events;

	if (epoch == p->epoch)
		memcpy(dst, n + ne, ne * sizeof(*dst));
	else
		memset(dst, 0, ne * sizeof(*dst));
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
		s->names = profile_names_ref(p->names);
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
	const struct thread_row *pr = profile_table_find(&p->procs, pid);

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
	return !profile_row_find(p, *name, *module);
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
	memcpy(d->cgroup, t->cgroup, sizeof(d->cgroup));
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

static int cgroup_desc(const void *a, const void *b)
{
	const struct snap_cgroup *x = a, *y = b;

	if (x->samples[0] != y->samples[0])
		return x->samples[0] < y->samples[0] ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* The processes' samples summed by cgroup name (processes of no known
 * cgroup left out), as add_modules sums functions by module.  One
 * allocation, freed through s->cgroups; names point into s->procs. */
static int add_cgroups(struct snapshot *s)
{
	size_t ne = (size_t)s->n_events, n = 0;
	struct snap_cgroup *c = calloc(s->n_procs + 1, sizeof(*c) + 2 * ne * sizeof(uint64_t));

	if (!c)
		return -1;
	uint64_t *counters = (uint64_t *)(c + s->n_procs + 1);
	for (size_t i = 0; i < s->n_procs; i++) {
		const struct snap_thread *pr = &s->procs[i];
		size_t j = 0;
		if (!pr->cgroup[0])
			continue;
		while (j < n && strcmp(c[j].name, pr->cgroup) != 0)
			j++;   /* a few cgroups: a scan */
		if (j == n) {
			c[n].name = pr->cgroup;
			c[n].samples = counters + 2 * ne * n;
			c[n].window = c[n].samples + ne;
			n++;
		}
		for (size_t e = 0; e < ne; e++) {
			c[j].samples[e] += pr->samples[e];
			c[j].window[e] += pr->window[e];
		}
	}
	if (ne > 0)
		qsort(c, n, sizeof(*c), cgroup_desc);
	s->cgroups = c;
	s->n_cgroups = n;
	return 0;
}

static int add_threads(const struct profile *p, struct snapshot *s)
{
	s->threads = copy_table(p, &p->threads, &s->n_threads);
	if (s->threads && p->by_process) {
		s->procs = copy_table(p, &p->procs, &s->n_procs);
		for (size_t i = 0; s->procs && i < s->n_procs; i++)
			s->procs[i].pid = s->procs[i].tid;
		if (s->procs && add_cgroups(s) < 0)
			return -1;
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
		s = zoomed_funcs(p, p->filter, profile_table_find(&p->threads, p->filter));
	else if (p->by_process && p->pfilter >= 0)
		s = zoomed_funcs(p, PROC_KEY(p->pfilter), profile_table_find(&p->procs, (uint32_t)p->pfilter));
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
		profile_names_unref(s->names);
		free(s->modules);
		free(s->threads);
		free(s->procs);
		free(s->cgroups);
		free(s->wall);
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
	const struct func_row *fn = profile_row_find(p, name, module);

	for (size_t i = 0; fn && i < p->nips; i++)
		n += p->ips[i]->fn == fn;
	struct ip_counts *c = calloc(1, sizeof(*c) + n * (sizeof(struct snap_ip) +
							  2 * ne * sizeof(uint64_t)));
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
		d->hits = counters + ne;
		counters += 2 * ne;
		memcpy(d->samples, r->n, 2 * ne * sizeof(uint64_t));
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

/* "[vdso]", "[kernel.kallsyms]" have no directory */
static const char *module_base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && path[0] != '[' ? slash + 1 : path;
}

const char *snapshot_program(const struct snapshot *s)
{
	const char *found = NULL;

	for (size_t i = 0; i < s->n_modules; i++) {
		const char *b = module_base(s->modules[i].module);
		if (b[0] == '[' || strstr(b, ".so") || strchr(b, '/'))
			continue;
		if (found && strcmp(found, b) != 0)
			return NULL;
		found = b;
	}
	return found;
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
