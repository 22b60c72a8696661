/* Writing a session's snapshot as a gzipped pprof profile (engine/pprof.h
 * says what becomes a sample and a location).  The messages are protobuf-c's
 * generated structs, allocated from one arena and packed by protobuf-c. */
#include <stdalign.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "engine/pprof.h"
#include "engine/pprof-table.h"
#include "engine/profile.pb-c.h"
#include "engine/session.h"
#include "engine/symbols.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;

/* --- an arena, and the shared tables (engine/pprof-table.h) ------------- */

struct block {
	struct block *next;
	size_t used, cap;
	alignas(16) unsigned char data[];
};

/* A growable array of message pointers. */
struct vec {
	void **v;
	size_t n, cap;
};

struct writer {
	struct session *s;
	const struct snapshot *snap;
	const struct cg_snapshot *cg;
	const struct pprof_write_opts *o;
	int ne;
	bool oom;
	bool by_address;            /* -g stacks written by address (pprof_acc) */
	struct block *arena;
	struct str_table strings;   /* the profile's string_table */
	struct vec funcs, maps, locs, samples;
	struct pair_map func_ids;   /* (name, module) string ids -> function id */
	struct pair_map map_ids;    /* (module, 0) -> mapping id */
	struct pair_map loc_ids;    /* (address, module) or (name, module) -> location id */
	struct pair_map hot_ip;     /* -g: (name, module) -> the function's hottest address */
	struct pair_map hot_n;      /* and its samples (+1) */
	struct pair_map build_ids;  /* (module, 0) -> build id string id */
	struct pair_map threads;    /* (pid << 32 | tid, 0) -> its struct labels */
	struct pair_map stacked;    /* (leaf ip, pid << 32 | tid) -> its stacks' samples */
	Label pid_label;
	Label *labels[1];
};

static void *arena_alloc(struct writer *w, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	struct block *b = w->arena;
	if (!b || b->cap - b->used < size) {
		size_t cap = size > (1u << 20) ? size : (1u << 20);
		b = malloc(sizeof(*b) + cap);
		if (!b) {
			w->oom = true;
			return NULL;
		}
		b->next = w->arena;
		b->used = 0;
		b->cap = cap;
		w->arena = b;
	}
	void *p = b->data + b->used;
	b->used += size;
	memset(p, 0, size);
	return p;
}

static bool vec_push(struct writer *w, struct vec *v, void *item)
{
	if (!item)
		return false;
	if (GROW(v->v, v->n + 1, v->cap) < 0) {
		w->oom = true;
		return false;
	}
	v->v[v->n++] = item;
	return true;
}

/* The value slot of (A, B) in M, made when new; NULL when out of memory. */
static uint64_t *slot_of(struct writer *w, struct pair_map *m, uint64_t a, uint64_t b)
{
	uint64_t *v = pair_slot(m, a, b);

	if (!v)
		w->oom = true;
	return v;
}

/* The string table index of S (0, the empty string, for NULL or out of
 * memory). */
static int64_t str_id(struct writer *w, const char *s)
{
	int64_t id = s ? str_table_id(&w->strings, s) : 0;

	if (id < 0)
		w->oom = true;
	return id < 0 ? 0 : id;
}

/* --- symbols ------------------------------------------------------------- */

static void note_build_id(void *arg, const char *path, const uint8_t *id, size_t len)
{
	struct writer *w = arg;
	char hex[2 * 64 + 1];

	if (len > 64)
		len = 64;
	for (size_t i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	hex[2 * len] = '\0';
	uint64_t *v = slot_of(w, &w->build_ids, (uint64_t)str_id(w, path), 0);
	if (v && !*v)
		*v = (uint64_t)str_id(w, hex);
}

/* --- functions, mappings, locations -------------------------------------- */

static uint64_t function_id(struct writer *w, const char *name, const char *module,
			    struct symtab *st, uint64_t addr)
{
	int64_t n = str_id(w, name), mod = str_id(w, module);
	uint64_t *id = slot_of(w, &w->func_ids, (uint64_t)n, (uint64_t)mod);
	Function *f = id && !*id ? arena_alloc(w, sizeof(*f)) : NULL;

	if (!id || *id || !f)
		return id ? *id : 0;
	perftools__profiles__function__init(f);
	f->id = w->funcs.n + 1;
	f->name = f->system_name = n;
	struct sym_info si;
	const char *file;
	int line;
	if (st && !w->o->no_lines && symtab_lookup(st, addr, &si) && si.start &&
	    symtab_srcline(st, si.start, &file, &line)) {
		f->filename = str_id(w, file);
		f->start_line = line;
	}
	if (!vec_push(w, &w->funcs, f))
		return 0;
	return *id = f->id;
}

static uint64_t mapping_id(struct writer *w, const char *module, const struct symtab_map *sm)
{
	int64_t mod = str_id(w, module);
	uint64_t *id = slot_of(w, &w->map_ids, (uint64_t)mod, 0);
	Mapping *m = id && !*id ? arena_alloc(w, sizeof(*m)) : NULL;

	if (!id || *id || !m)
		return id ? *id : 0;
	perftools__profiles__mapping__init(m);
	m->id = w->maps.n + 1;
	m->filename = mod;
	if (sm) {
		m->memory_start = sm->start;
		m->memory_limit = sm->end;
		m->file_offset = sm->pgoff;
	}
	m->build_id = (int64_t)pair_find(&w->build_ids, (uint64_t)mod, 0);
	m->has_functions = m->has_filenames = m->has_line_numbers = true;
	if (!vec_push(w, &w->maps, m))
		return 0;
	return *id = m->id;
}

/* The location of ADDR in function NAME of MODULE, keyed by (KA, KB). */
static uint64_t location_id(struct writer *w, uint64_t ka, uint64_t kb, uint64_t addr,
			    const char *name, const char *module)
{
	uint64_t *id = slot_of(w, &w->loc_ids, ka, kb);
	Location *l = id && !*id ? arena_alloc(w, sizeof(*l)) : NULL;
	Line *line = l ? arena_alloc(w, sizeof(*line)) : NULL;
	Line **lines = line ? arena_alloc(w, sizeof(*lines)) : NULL;

	if (!id || *id || !lines)
		return id ? *id : 0;
	struct symtab_map sm;
	struct symtab *st = addr ? session_symtab_mapping(w->s, addr, module, &sm) : NULL;
	perftools__profiles__location__init(l);
	perftools__profiles__line__init(line);
	l->id = w->locs.n + 1;
	l->address = addr;
	l->mapping_id = mapping_id(w, module, st ? &sm : NULL);
	line->function_id = function_id(w, name, module, st, addr);
	const char *file;
	int ln;
	if (st && !w->o->no_lines && symtab_srcline(st, addr, &file, &ln))
		line->line = ln;
	lines[0] = line;
	l->line = lines;
	l->n_line = 1;
	if (!vec_push(w, &w->locs, l))
		return 0;
	return *id = l->id;
}

/* --- samples ---------------------------------------------------------------- */

static bool any_sample(const uint64_t *n, int ne)
{
	for (int e = 0; e < ne; e++)
		if (n[e])
			return true;
	return false;
}

/* A sample over locations LOCS (N, leaf first) with SAMPLES[ev] each event,
 * labelled LABELS (N_LABELS; NULL: the target's pid). */
static void add_sample_labelled(struct writer *w, const uint64_t *locs, size_t n,
				const uint64_t *samples, Label **labels, size_t n_labels)
{
	Sample *smp = arena_alloc(w, sizeof(*smp));
	uint64_t *ids = arena_alloc(w, n * sizeof(*ids));
	int64_t *values = arena_alloc(w, 2 * (size_t)w->ne * sizeof(*values));

	if (!smp || !ids || !values)
		return;
	perftools__profiles__sample__init(smp);
	memcpy(ids, locs, n * sizeof(*ids));
	for (int e = 0; e < w->ne; e++) {
		const struct snap_event *ev = &w->snap->ev[e];
		double scale = (double)ev->sav / (ev->coverage > 0 ? ev->coverage : 1);
		values[2 * e] = (int64_t)samples[e];
		values[2 * e + 1] = (int64_t)((double)samples[e] * scale + 0.5);
	}
	smp->location_id = ids;
	smp->n_location_id = n;
	smp->value = values;
	smp->n_value = 2 * (size_t)w->ne;
	if (labels) {
		smp->label = labels;
		smp->n_label = n_labels;
	} else if (w->snap->pid > 0) {
		smp->label = w->labels;
		smp->n_label = 1;
	}
	vec_push(w, &w->samples, smp);
}

static void add_sample(struct writer *w, const uint64_t *locs, size_t n, const uint64_t *samples)
{
	add_sample_labelled(w, locs, n, samples, NULL, 0);
}

static Label *label(struct writer *w, const char *key, const char *str, int64_t num)
{
	Label *l = arena_alloc(w, sizeof(*l));

	if (l) {
		perftools__profiles__label__init(l);
		l->key = str_id(w, key);
		l->str = str ? str_id(w, str) : 0;
		l->num = str ? 0 : num;
	}
	return l;
}

/* Without stacks, threads known: one sample per address and thread,
 * labelled pid, tid and thread_comm (perf_data_converter's keys). */
struct labels {
	Label *v[5];
	size_t n;
};

/* A thread's labels: pid, tid and thread_comm (perf_data_converter's
 * keys), with cyctop serve's cgroup also comm (the process's) and cgroup,
 * made once per thread.  NULL when out of memory. */
static const struct labels *thread_labels(struct writer *w, uint32_t pid, uint32_t tid)
{
	uint64_t *slot = slot_of(w, &w->threads, (uint64_t)pid << 32 | tid, 0);
	struct labels *l = slot && !*slot ? arena_alloc(w, sizeof(*l)) : NULL;

	if (!slot || *slot)
		return slot ? (const struct labels *)(uintptr_t)*slot : NULL;
	if (!l)
		return NULL;
	const struct snap_thread *t = snapshot_thread(w->snap, tid);
	l->v[l->n++] = label(w, "pid", NULL, pid);
	l->v[l->n++] = label(w, "tid", NULL, tid);
	if (t && t->comm[0])
		l->v[l->n++] = label(w, "thread_comm", t->comm, 0);
	const struct snap_thread *proc = w->o->cgroup ? snapshot_process(w->snap, pid) : NULL;
	const char *cg = w->o->cgroup ? w->o->cgroup(w->o->cgroup_arg, pid) : NULL;
	const char *comm = proc ? proc->comm : (int64_t)pid == w->snap->pid ? w->snap->command : "";
	if (w->o->cgroup && comm[0])
		l->v[l->n++] = label(w, "comm", comm, 0);
	if (cg)
		l->v[l->n++] = label(w, "cgroup", cg, 0);
	*slot = (uint64_t)(uintptr_t)l;
	return l;
}

/* -g, threads known: what the stacks of (IP, PID, TID) as leaf counted. */
static uint64_t *stacked(struct writer *w, uint64_t ip, uint32_t pid, uint32_t tid, bool make)
{
	uint64_t key = (uint64_t)pid << 32 | tid;
	uint64_t *slot = make ? slot_of(w, &w->stacked, ip, key) : NULL;
	uint64_t found = make ? (slot ? *slot : 0) : pair_find(&w->stacked, ip, key);

	if (found || !make)
		return (uint64_t *)(uintptr_t)found;
	uint64_t *n = slot ? arena_alloc(w, (size_t)w->ne * sizeof(*n)) : NULL;
	if (n)
		*slot = (uint64_t)(uintptr_t)n;
	return n;
}

/* Threads known: one sample per address and thread; with -g what its
 * stacks did not count (samples taken without one). */
static int thread_ip(void *arg, uint64_t ip, uint32_t pid, uint32_t tid, const char *name,
		     const char *module, const uint64_t *samples)
{
	struct writer *w = arg;
	const uint64_t *done = w->cg ? stacked(w, ip, pid, tid, false) : NULL;
	uint64_t rest[EVENTS_MAX];

	for (int e = 0; e < w->ne; e++)
		rest[e] = done ? (samples[e] > done[e] ? samples[e] - done[e] : 0) : samples[e];
	if (!any_sample(rest, w->ne))
		return 0;
	const struct labels *l = thread_labels(w, pid, tid);
	uint64_t loc = location_id(w, ip, (uint64_t)str_id(w, module), ip, name, module);
	if (l && loc)
		add_sample_labelled(w, &loc, 1, rest, (Label **)l->v, l->n);
	return w->oom ? -1 : 0;
}

/* -g, threads known: one sample per stack and thread, a location per
 * address (return addresses above the leaf). */
static int thread_stack(void *arg, uint32_t pid, uint32_t tid, const uint64_t *ips,
			const char *const *names, const char *const *modules, size_t n,
			const uint64_t *samples)
{
	struct writer *w = arg;
	uint64_t locs[PPROF_ACC_STACK_MAX];
	const struct labels *l = thread_labels(w, pid, tid);
	uint64_t *done = stacked(w, ips[0], pid, tid, true);

	if (!l || !done)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!(locs[i] = location_id(w, ips[i], (uint64_t)str_id(w, modules[i]), ips[i],
					    names[i], modules[i])))
			return -1;
	for (int e = 0; e < w->ne; e++)
		done[e] += samples[e];
	add_sample_labelled(w, locs, n, samples, (Label **)l->v, l->n);
	return w->oom ? -1 : 0;
}


/* Without stacks: one sample per address. */
static int flat_ip(void *arg, uint64_t ip, const char *name, const char *module,
		   const uint64_t *samples)
{
	struct writer *w = arg;
	uint64_t loc;

	if (!any_sample(samples, w->ne))
		return 0;
	/* one location per (address, function): an address reused by another
	 * program (an exec, -a) is another location */
	loc = location_id(w, ip, (uint64_t)str_id(w, module) << 32 | (uint64_t)str_id(w, name),
			  ip, name, module);
	if (loc)
		add_sample(w, &loc, 1, samples);
	return w->oom ? -1 : 0;
}

/* -g: remembers each function's hottest address, its location's address. */
static int hottest_ip(void *arg, uint64_t ip, const char *name, const char *module,
		      const uint64_t *samples)
{
	struct writer *w = arg;
	uint64_t n = (uint64_t)str_id(w, name), mod = (uint64_t)str_id(w, module);
	uint64_t *best = slot_of(w, &w->hot_n, n, mod);
	uint64_t *addr = best ? slot_of(w, &w->hot_ip, n, mod) : NULL;

	if (!addr)
		return -1;
	if (*best <= samples[0]) {
		*best = samples[0] + 1;
		*addr = ip + 1;
	}
	return 0;
}

/* -g: one location per function, at its hottest address. */
static uint64_t function_location(struct writer *w, const char *name, const char *module)
{
	name = name ? name : CG_UNKNOWN;
	module = module ? module : CG_UNKNOWN;
	uint64_t n = (uint64_t)str_id(w, name), mod = (uint64_t)str_id(w, module);
	uint64_t addr = pair_find(&w->hot_ip, n, mod);   /* 0: never a leaf */

	return location_id(w, n, mod, addr ? addr - 1 : 0, name, module);
}

static int stack_path(void *arg, const struct cg_frame *frames, size_t n, const uint64_t *counts)
{
	struct writer *w = arg;
	uint64_t *locs = malloc(n * sizeof(*locs));

	if (!locs)
		return -1;
	for (size_t i = 0; i < n; i++)
		locs[i] = function_location(w, frames[i].name, frames[i].module);
	add_sample(w, locs, n, counts);
	free(locs);
	return w->oom ? -1 : 0;
}

/* -g: what the profile counted without a stack (the unwinder's budget),
 * as one-frame samples, so that flat shares stay the profile's. */
static void stackless_rest(struct writer *w)
{
	for (size_t i = 0; i < w->snap->n_funcs && !w->oom; i++) {
		const struct snap_func *f = &w->snap->funcs[i];
		uint64_t rest[EVENTS_MAX] = { 0 };
		for (int e = 0; e < w->ne; e++) {
			uint64_t self = 0;
			cg_function(w->cg, f->name, f->module, e, &self, NULL);
			rest[e] = f->samples[e] > self ? f->samples[e] - self : 0;
		}
		if (!any_sample(rest, w->ne))
			continue;
		uint64_t loc = function_location(w, f->name, f->module);
		if (loc)
			add_sample(w, &loc, 1, rest);
	}
}

/* --- the profile ------------------------------------------------------------ */

/* The type of event EV's estimated counts: clocks count nanoseconds, and
 * off-cpu's samples weigh the nanoseconds their thread was away. */
static void estimate_type(const struct snap_event *ev, const char **type, const char **unit)
{
	bool cpu = strcmp(ev->name, "cpu-clock") == 0, task = strcmp(ev->name, "task-clock") == 0;
	bool off = strcmp(ev->name, "off-cpu") == 0;

	*type = cpu ? "cpu" : ev->name;
	*unit = cpu || task || off ? "nanoseconds" : "count";
}

static ValueType *value_type(struct writer *w, const char *type, const char *unit)
{
	ValueType *v = arena_alloc(w, sizeof(*v));

	if (v) {
		perftools__profiles__value_type__init(v);
		v->type = str_id(w, type);
		v->unit = str_id(w, unit);
	}
	return v;
}

/* Per event: its samples ("samples" for the first, "samples_EVENT" for the
 * others, so that every type name is unique) and its estimated count. */
static ValueType **sample_types(struct writer *w, Profile *p)
{
	ValueType **v = arena_alloc(w, 2 * (size_t)w->ne * sizeof(*v));

	for (int e = 0; v && e < w->ne; e++) {
		const struct snap_event *ev = &w->snap->ev[e];
		char name[EVENT_NAME_MAX + 16];
		const char *type, *unit;
		snprintf(name, sizeof(name), e ? "samples_%s" : "samples", ev->name);
		estimate_type(ev, &type, &unit);
		v[2 * e] = value_type(w, name, "count");
		v[2 * e + 1] = value_type(w, type, unit);
		if (e == 0) {
			p->period_type = value_type(w, type, unit);
			p->period = (int64_t)ev->sav;
			p->default_sample_type = v[1] ? v[1]->type : 0;
		}
	}
	return v;
}

static void comment(struct writer *w, struct vec *c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void comment(struct writer *w, struct vec *c, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	int64_t *id = arena_alloc(w, sizeof(*id));
	if (id && (*id = str_id(w, line)))
		vec_push(w, c, id);
}

static void comments(struct writer *w, const struct pprof_write_opts *o, Profile *p)
{
	const struct snapshot *snap = w->snap;
	struct vec c = { 0 };

	comment(w, &c, "cyctop profile of %s (pid %d)", snap->command, snap->pid);
	if (o->host)
		comment(w, &c, "host: %s", o->host);
	comment(w, &c, "pmu: %s", snap->pmu);
	for (int e = 0; e < w->ne; e++)
		comment(w, &c, "event %s: sav %llu, %llu samples, coverage %.4f",
			snap->ev[e].name, (unsigned long long)snap->ev[e].sav,
			(unsigned long long)snap->ev[e].samples, snap->ev[e].coverage);
	if (snap->lost || snap->throttled)
		comment(w, &c, "lost %llu samples, throttled %llu times",
			(unsigned long long)snap->lost, (unsigned long long)snap->throttled);
	if (w->cg)
		comment(w, &c, w->by_address ? "stacks: by address, per thread"
			: "stacks: one location per function (the hottest address)");
	p->comment = arena_alloc(w, (c.n ? c.n : 1) * sizeof(*p->comment));
	for (size_t i = 0; p->comment && i < c.n; i++)
		p->comment[i] = *(int64_t *)c.v[i];
	p->n_comment = p->comment ? c.n : 0;
	free(c.v);
}

/* Whether mapping file PATH is the program COMMAND ran: its file name
 * begins with the command's (the kernel's comm keeps 15 bytes of it). */
static bool is_program(const char *path, const char *command)
{
	const char *base = strrchr(path, '/');
	size_t n = strcspn(command, " ");
	char word[64];
	const char *prog;

	snprintf(word, sizeof(word), "%.*s", (int)n, command);
	prog = strrchr(word, '/') ? strrchr(word, '/') + 1 : word;
	n = strlen(prog) < 15 ? strlen(prog) : 15;
	return path[0] == '/' && n > 0 && strncmp(base ? base + 1 : path, prog, n) == 0;
}

/* The program's mapping first: pprof takes the first mapping for the
 * main binary ("File:" in go tool pprof -top), and perf_data_converter
 * writes the executable's first, where ours came in the order sampled
 * (ld.so's, whose code runs first).  The ids follow the order. */
static void program_mapping_first(struct writer *w)
{
	size_t k = 0;
	Mapping **m = (Mapping **)w->maps.v;

	while (k < w->maps.n && !is_program(w->strings.pool.strs[m[k]->filename],
					    w->snap->command))
		k++;
	if (k == 0 || k == w->maps.n)
		return;
	Mapping *prog = m[k];
	memmove(m + 1, m, k * sizeof(*m));
	m[0] = prog;
	for (size_t i = 0; i <= k; i++)
		m[i]->id = i + 1;
	for (size_t i = 0; i < w->locs.n; i++) {
		Location *l = w->locs.v[i];
		if (l->mapping_id == k + 1)
			l->mapping_id = 1;
		else if (l->mapping_id && l->mapping_id <= k)
			l->mapping_id++;
	}
}

static int build(struct writer *w, const struct pprof_write_opts *o, Profile *p)
{
	str_id(w, "");   /* index 0, as pprof wants it */
	session_foreach_build_id(w->s, note_build_id, w);
	perftools__profiles__label__init(&w->pid_label);
	w->pid_label.key = str_id(w, "pid");
	w->pid_label.num = w->snap->pid;
	w->labels[0] = &w->pid_label;
	p->sample_type = sample_types(w, p);
	p->n_sample_type = p->sample_type ? 2 * (size_t)w->ne : 0;
	const struct pprof_acc *acc = o->acc ? o->acc : session_pprof_acc(w->s);
	/* a window's store is the profile even when empty */
	if (o->acc || (pprof_acc_complete(acc) && (!w->cg || pprof_acc_stacks(acc)))) {
		w->by_address = w->cg != NULL;
		if (w->cg && pprof_acc_foreach_stack(acc, thread_stack, w) != 0)
			w->oom = true;
		else if (pprof_acc_foreach(acc, thread_ip, w) != 0)
			w->oom = true;
	} else if (!w->cg) {
		profile_foreach_ip(session_profile(w->s), flat_ip, w);
	} else if (profile_foreach_ip(session_profile(w->s), hottest_ip, w) == 0 &&
		   cg_foreach_path(w->cg, stack_path, w) == 0) {
		stackless_rest(w);
	} else {
		w->oom = true;
	}
	program_mapping_first(w);
	comments(w, o, p);
	p->time_nanos = o->start_ns;
	p->duration_nanos = o->duration_ns ? o->duration_ns : (int64_t)(w->snap->time * 1e9);
	p->sample = (Sample **)w->samples.v;
	p->n_sample = w->samples.n;
	p->location = (Location **)w->locs.v;
	p->n_location = w->locs.n;
	p->function = (Function **)w->funcs.v;
	p->n_function = w->funcs.n;
	p->mapping = (Mapping **)w->maps.v;
	p->n_mapping = w->maps.n;
	p->string_table = w->strings.pool.strs;
	p->n_string_table = w->strings.pool.n;
	return w->oom ? -1 : 0;
}

/* Gzips LEN bytes of DATA to OUT. */
static int gzip_to(const uint8_t *data, size_t len, FILE *out)
{
	z_stream z = { 0 };
	unsigned char buf[1 << 16];
	int rc;

	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)len;
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		rc = deflate(&z, Z_FINISH);
		size_t n = sizeof(buf) - z.avail_out;
		if (rc == Z_STREAM_ERROR || fwrite(buf, 1, n, out) != n) {
			deflateEnd(&z);
			return -1;
		}
	} while (rc != Z_STREAM_END);
	deflateEnd(&z);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

static void writer_free(struct writer *w)
{
	while (w->arena) {
		struct block *b = w->arena;
		w->arena = b->next;
		free(b);
	}
	str_table_free(&w->strings);
	free(w->funcs.v);
	free(w->maps.v);
	free(w->locs.v);
	free(w->samples.v);
	pair_map_free(&w->func_ids);
	pair_map_free(&w->map_ids);
	pair_map_free(&w->loc_ids);
	pair_map_free(&w->hot_ip);
	pair_map_free(&w->hot_n);
	pair_map_free(&w->build_ids);
	pair_map_free(&w->threads);
	pair_map_free(&w->stacked);
}

int pprof_write(struct session *s, const struct snapshot *snap,
		const struct pprof_write_opts *o, FILE *out, char *err, size_t errsz)
{
	struct writer w = { .s = s, .snap = snap, .cg = snap->cg, .o = o, .ne = snap->n_events };
	Profile p;
	int rc = -1;

	perftools__profiles__profile__init(&p);
	if (build(&w, o, &p) < 0) {
		snprintf(err, errsz, "out of memory building the pprof profile");
	} else if (p.n_string_table > INT32_MAX) {
		snprintf(err, errsz, "too many strings for a pprof profile");
	} else {
		size_t len = perftools__profiles__profile__get_packed_size(&p);
		uint8_t *buf = malloc(len ? len : 1);
		if (!buf)
			snprintf(err, errsz, "out of memory packing the pprof profile");
		else if (perftools__profiles__profile__pack(&p, buf), gzip_to(buf, len, out) < 0)
			snprintf(err, errsz, "writing the pprof profile failed");
		else
			rc = 0;
		free(buf);
	}
	writer_free(&w);
	return rc;
}
