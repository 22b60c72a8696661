#include "engine/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct func_row {
	const char *name, *module;   /* interned */
	uint64_t samples[EVENTS_MAX];
	uint64_t window[EVENTS_MAX];
};

struct ip_row {
	uint64_t ip;
	const struct func_row *fn;
	uint64_t n[];               /* [n_events] */
};

struct strpool {
	char **slot;
	size_t cap, n;
};

struct profile {
	int n_events;
	struct snap_event ev[EVENTS_MAX];
	struct strpool pool;
	struct func_row **rows;      /* open addressing on (name, module) pointers */
	size_t cap, n;
	struct ip_row **ips;         /* open addressing on the address */
	size_t ipcap, nips;
	uint64_t lost, throttled, undecodable;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static uint64_t hash_ptrs(const void *a, const void *b)
{
	uint64_t h = (uint64_t)(uintptr_t)a * 0x9e3779b97f4a7c15ull;

	return (h ^ (uint64_t)(uintptr_t)b) * 0xff51afd7ed558ccdull;
}

static int pool_grow(struct strpool *sp)
{
	size_t cap = sp->cap ? sp->cap * 2 : 256;
	char **slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -1;
	for (size_t i = 0; i < sp->cap; i++) {
		if (!sp->slot[i])
			continue;
		size_t j = hash_str(sp->slot[i]) & (cap - 1);
		while (slot[j])
			j = (j + 1) & (cap - 1);
		slot[j] = sp->slot[i];
	}
	free(sp->slot);
	sp->slot = slot;
	sp->cap = cap;
	return 0;
}

/* Strings outlive the symbol tables they came from (exec, dlclose). */
static const char *intern(struct strpool *sp, const char *s)
{
	if ((sp->n + 1) * 2 > sp->cap && pool_grow(sp) < 0)
		return "[out of memory]";
	size_t j = hash_str(s) & (sp->cap - 1);
	while (sp->slot[j]) {
		if (strcmp(sp->slot[j], s) == 0)
			return sp->slot[j];
		j = (j + 1) & (sp->cap - 1);
	}
	sp->slot[j] = strdup(s);
	if (!sp->slot[j])
		return "[out of memory]";
	sp->n++;
	return sp->slot[j];
}

struct profile *profile_new(const struct ev_list *events)
{
	struct profile *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->n_events = events->n;
	for (int i = 0; i < events->n; i++) {
		snprintf(p->ev[i].name, sizeof(p->ev[i].name), "%s", events->ev[i].name);
		p->ev[i].sav = events->ev[i].sav;
		p->ev[i].coverage = 1.0;
	}
	return p;
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->cap; i++)
		free(p->rows[i]);
	free(p->rows);
	for (size_t i = 0; i < p->ipcap; i++)
		free(p->ips[i]);
	free(p->ips);
	for (size_t i = 0; i < p->pool.cap; i++)
		free(p->pool.slot[i]);
	free(p->pool.slot);
	free(p);
}

static int rows_grow(struct profile *p)
{
	size_t cap = p->cap ? p->cap * 2 : 256;
	struct func_row **rows = calloc(cap, sizeof(*rows));

	if (!rows)
		return -1;
	for (size_t i = 0; i < p->cap; i++) {
		struct func_row *r = p->rows[i];
		if (!r)
			continue;
		size_t j = hash_ptrs(r->name, r->module) & (cap - 1);
		while (rows[j])
			j = (j + 1) & (cap - 1);
		rows[j] = r;
	}
	free(p->rows);
	p->rows = rows;
	p->cap = cap;
	return 0;
}

static struct func_row *row_get(struct profile *p, const char *name, const char *module)
{
	if ((p->n + 1) * 2 > p->cap && rows_grow(p) < 0)
		return NULL;
	name = intern(&p->pool, name);
	module = intern(&p->pool, module);
	size_t j = hash_ptrs(name, module) & (p->cap - 1);
	while (p->rows[j]) {
		if (p->rows[j]->name == name && p->rows[j]->module == module)
			return p->rows[j];
		j = (j + 1) & (p->cap - 1);
	}
	struct func_row *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->name = name;
	r->module = module;
	p->rows[j] = r;
	p->n++;
	return r;
}

static uint64_t hash_ip(uint64_t ip)
{
	return (ip ^ (ip >> 29)) * 0xbf58476d1ce4e5b9ull;
}

static int ips_grow(struct profile *p)
{
	size_t cap = p->ipcap ? p->ipcap * 2 : 1024;
	struct ip_row **v = calloc(cap, sizeof(*v));

	if (!v)
		return -1;
	for (size_t i = 0; i < p->ipcap; i++) {
		if (!p->ips[i])
			continue;
		size_t j = hash_ip(p->ips[i]->ip) & (cap - 1);
		while (v[j])
			j = (j + 1) & (cap - 1);
		v[j] = p->ips[i];
	}
	free(p->ips);
	p->ips = v;
	p->ipcap = cap;
	return 0;
}

/* An address belongs to the function it was first symbolized in. */
static struct ip_row *ip_get(struct profile *p, uint64_t ip, const struct func_row *fn)
{
	if ((p->nips + 1) * 2 > p->ipcap && ips_grow(p) < 0)
		return NULL;
	size_t j = hash_ip(ip) & (p->ipcap - 1);
	while (p->ips[j]) {
		if (p->ips[j]->ip == ip)
			return p->ips[j];
		j = (j + 1) & (p->ipcap - 1);
	}
	struct ip_row *r = calloc(1, sizeof(*r) + (size_t)p->n_events * sizeof(uint64_t));
	if (!r)
		return NULL;
	r->ip = ip;
	r->fn = fn;
	p->ips[j] = r;
	p->nips++;
	return r;
}

void profile_add(struct profile *p, int ev, uint64_t ip, const char *name, const char *module,
		 uint64_t n)
{
	if (ev < 0 || ev >= p->n_events)
		return;
	struct func_row *r = row_get(p, name ? name : "[unknown]", module ? module : "[unknown]");
	if (!r)
		return;
	struct ip_row *ir = ip_get(p, ip, r);
	if (ir)
		ir->n[ev] += n;
	r->samples[ev] += n;
	r->window[ev] += n;
	p->ev[ev].samples += n;
	p->ev[ev].window += n;
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

/* Module totals, summed from the function rows (one extra allocation,
 * freed with the snapshot through s->modules). */
static int add_modules(struct snapshot *s)
{
	size_t ne = (size_t)s->n_events, n = 0;
	struct snap_module *m = calloc(s->n_funcs + 1, sizeof(*m) + 2 * ne * sizeof(uint64_t));

	if (!m)
		return -1;
	uint64_t *counters = (uint64_t *)(m + s->n_funcs + 1);
	for (size_t i = 0; i < s->n_funcs; i++) {
		const struct snap_func *f = &s->funcs[i];
		size_t j = 0;
		while (j < n && strcmp(m[j].module, f->module) != 0)
			j++;
		if (j == n) {
			m[n].module = f->module;
			m[n].samples = counters + 2 * ne * n;
			m[n].window = m[n].samples + ne;
			n++;
		}
		for (size_t e = 0; e < ne; e++) {
			m[j].samples[e] += f->samples[e];
			m[j].window[e] += f->window[e];
		}
	}
	if (ne > 0)
		qsort(m, n, sizeof(*m), module_desc);
	s->modules = m;
	s->n_modules = n;
	return 0;
}

/* One allocation holds the rows, their counters and the strings, so a
 * snapshot is freed (and shared) as a unit. */
struct snapshot *profile_snapshot(struct profile *p, double now, double window_seconds)
{
	size_t strbytes = 0, ne = (size_t)p->n_events;

	for (size_t i = 0; i < p->cap; i++)
		if (p->rows[i])
			strbytes += strlen(p->rows[i]->name) + strlen(p->rows[i]->module) + 2;
	size_t size = sizeof(struct snapshot) + p->n * sizeof(struct snap_func) +
		      p->n * 2 * ne * sizeof(uint64_t) + strbytes;
	struct snapshot *s = calloc(1, size);
	if (!s)
		return NULL;
	s->time = now;
	s->window_seconds = window_seconds;
	s->n_events = p->n_events;
	memcpy(s->ev, p->ev, sizeof(s->ev));
	s->lost = p->lost;
	s->throttled = p->throttled;
	s->undecodable = p->undecodable;
	s->funcs = (struct snap_func *)(s + 1);
	uint64_t *counters = (uint64_t *)(s->funcs + p->n);
	char *str = (char *)(counters + p->n * 2 * ne);
	size_t k = 0;
	for (size_t i = 0; i < p->cap; i++) {
		struct func_row *r = p->rows[i];
		if (!r)
			continue;
		struct snap_func *f = &s->funcs[k++];
		f->samples = counters;
		f->window = counters + ne;
		counters += 2 * ne;
		memcpy(f->samples, r->samples, ne * sizeof(uint64_t));
		memcpy(f->window, r->window, ne * sizeof(uint64_t));
		memset(r->window, 0, sizeof(r->window));
		f->name = strcpy(str, r->name);
		str += strlen(r->name) + 1;
		f->module = strcpy(str, r->module);
		str += strlen(r->module) + 1;
	}
	s->n_funcs = k;
	if (ne > 0)
		qsort(s->funcs, k, sizeof(s->funcs[0]), first_event_desc);
	if (add_modules(s) < 0) {
		free(s);
		return NULL;
	}
	for (int e = 0; e < p->n_events; e++)
		p->ev[e].window = 0;
	return s;
}

void snapshot_free(struct snapshot *s)
{
	if (s)
		free(s->modules);
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
	const struct func_row *fn = NULL;

	for (size_t i = 0; i < p->cap && !fn; i++)
		if (p->rows[i] && strcmp(p->rows[i]->name, name) == 0 &&
		    strcmp(p->rows[i]->module, module) == 0)
			fn = p->rows[i];
	for (size_t i = 0; fn && i < p->ipcap; i++)
		n += p->ips[i] && p->ips[i]->fn == fn;
	struct ip_counts *c = calloc(1, sizeof(*c) + n * (sizeof(struct snap_ip) +
							  ne * sizeof(uint64_t)));
	if (!c)
		return NULL;
	c->n_events = p->n_events;
	c->ips = (struct snap_ip *)(c + 1);
	uint64_t *counters = (uint64_t *)(c->ips + n);
	for (size_t i = 0; fn && i < p->ipcap; i++) {
		const struct ip_row *r = p->ips[i];
		if (!r || r->fn != fn)
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

double snapshot_percent(const struct snapshot *s, const struct snap_func *f, int ev,
			bool window)
{
	uint64_t total = window ? s->ev[ev].window : s->ev[ev].samples;
	uint64_t n = window ? f->window[ev] : f->samples[ev];

	return total ? 100.0 * (double)n / (double)total : 0.0;
}
