/* The hotspots view against a baseline: see tui/baseline.h. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hashtab.h"
#include "engine/pprof.h"
#include "engine/session.h"
#include "tui/baseline.h"
#include "tui/cmd.h"
#include "tui/tui.h"
#include "tui/ui.h"

struct base_func {
	const char *name, *modbase;   /* interned */
	double count[EVENTS_MAX];     /* the baseline's events */
};

struct baseline {
	bool rates;                   /* marked live: compare rates per CPU second */
	double cpu_s;                 /* marked: CPU (or watch) seconds until the mark */
	int n_events;
	char names[EVENTS_MAX][EVENT_NAME_MAX];
	struct base_func *funcs;
	size_t n, alloc;
	struct hashtab index;
	struct strpool pool;
	char label[320];
};

static const char *modbase_of(const char *module)
{
	const char *slash = strrchr(module, '/');

	return slash && module[0] != '[' ? slash + 1 : module;
}

struct fkey {
	const char *name, *modbase;
};

static bool fkey_eq(const void *key, uint32_t idx, const void *ctx)
{
	const struct fkey *k = key;
	const struct baseline *b = ctx;

	return strcmp(b->funcs[idx].name, k->name) == 0 &&
	       strcmp(b->funcs[idx].modbase, k->modbase) == 0;
}

static uint64_t fkey_hash(const struct fkey *k)
{
	return hash_mix(hash_str(k->name) ^ hash_mix(hash_str(k->modbase)));
}

/* Event E's count in a row of S: samples x SAV, scaled up by coverage. */
static double count_of(const struct snapshot *s, const uint64_t *samples, int e)
{
	double cov = s->ev[e].coverage > 0 && s->ev[e].coverage < 1 ? s->ev[e].coverage : 1;

	return (double)samples[e] * (double)s->ev[e].sav / cov;
}

/* Seconds of CPU of S: its sampled clock event (ns), else the watch's time. */
static double cpu_seconds(const struct snapshot *s)
{
	for (int e = 0; e < s->n_events; e++)
		if (strcmp(s->ev[e].name, "cpu-clock") == 0 || strcmp(s->ev[e].name, "task-clock") == 0)
			return (double)s->ev[e].samples * (double)s->ev[e].sav / 1e9;
	return s->time;
}

static int add_func(struct baseline *b, const struct snapshot *s, const struct snap_func *f)
{
	struct fkey k = { strpool_intern(&b->pool, f->name),
			  strpool_intern(&b->pool, modbase_of(f->module)) };
	if (!k.name || !k.modbase)
		return -1;
	uint64_t h = fkey_hash(&k);
	uint32_t i = hashtab_find(&b->index, h, &k, fkey_eq, b);
	if (i == HASHTAB_NONE) {
		if (GROW(b->funcs, b->n + 1, b->alloc) < 0 ||
		    hashtab_add(&b->index, h, (uint32_t)b->n) < 0)
			return -1;
		i = (uint32_t)b->n++;
		memset(&b->funcs[i], 0, sizeof(b->funcs[i]));
		b->funcs[i].name = k.name;
		b->funcs[i].modbase = k.modbase;
	}
	for (int e = 0; e < s->n_events; e++)
		b->funcs[i].count[e] += count_of(s, f->samples, e);
	return 0;
}

static struct baseline *from_snapshot(const struct snapshot *s)
{
	struct baseline *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->n_events = s->n_events;
	for (int e = 0; e < s->n_events; e++)
		snprintf(b->names[e], sizeof(b->names[e]), "%s", s->ev[e].name);
	for (size_t i = 0; i < s->n_funcs; i++)
		if (add_func(b, s, &s->funcs[i]) < 0) {
			baseline_free(b);
			return NULL;
		}
	return b;
}

struct baseline *baseline_open(const char *path, char *err, size_t errsz)
{
	struct session_file_opts o = { .path = path };
	struct session *s = session_is_pprof(path) ? session_open_pprof(path, err, errsz)
						   : session_open_file(&o, err, errsz);
	if (!s)
		return NULL;
	while (!ui_pending_signal() && !session_poll(s, 100))
		;
	struct snapshot *snap = session_snapshot(s);
	struct baseline *b = snap ? from_snapshot(snap) : NULL;
	if (!b)
		snprintf(err, errsz, "--baseline %s: out of memory", path);
	else
		snprintf(b->label, sizeof(b->label), "baseline %s", path);
	snapshot_free(snap);
	session_close(s);
	return b;
}

struct baseline *baseline_mark(const struct snapshot *s)
{
	struct baseline *b = from_snapshot(s);

	if (!b)
		return NULL;
	b->rates = true;
	b->cpu_s = cpu_seconds(s);
	snprintf(b->label, sizeof(b->label), "baseline marked at %.1f s (rates per %s second)",
		 s->time, cpu_seconds(s) != s->time ? "CPU" : "watch");
	return b;
}

void baseline_free(struct baseline *b)
{
	if (!b)
		return;
	free(b->funcs);
	hashtab_free(&b->index);
	strpool_free(&b->pool);
	free(b);
}

static int base_event(const struct baseline *b, const char *name)
{
	for (int e = 0; e < b->n_events; e++)
		if (strcmp(b->names[e], name) == 0)
			return e;
	return -1;
}

/* A count in 9 columns with a sign and an SI suffix: "+69.0M". */
static void compact(char *buf, size_t sz, double v)
{
	static const char suffix[] = " kMGTPE";
	double a = fabs(v);
	int k = 0;

	while (a >= 999.5 && k < 6) {
		a /= 1000;
		k++;
	}
	if (k == 0)
		snprintf(buf, sz, "%+10.0f", v);
	else
		snprintf(buf, sz, "%+9.*f%c", a < 9.95 ? 2 : a < 99.5 ? 1 : 0, v < 0 ? -a : a,
			 suffix[k]);
}

void baseline_cell(const struct baseline *b, const struct snapshot *now,
		   const struct snap_func *f, int e, enum base_mode mode, char *buf, size_t sz)
{
	int be = base_event(b, now->ev[e].name);
	struct fkey k = { f->name, modbase_of(f->module) };
	uint32_t i = be < 0 ? HASHTAB_NONE : hashtab_find(&b->index, fkey_hash(&k), &k, fkey_eq, b);
	double then = i == HASHTAB_NONE ? 0 : b->funcs[i].count[be];
	double cur = count_of(now, f->samples, e);

	if (be < 0) {
		snprintf(buf, sz, "%10s", "-");
		return;
	}
	if (b->rates) {
		/* the rate since the mark against the rate until it */
		double since = cpu_seconds(now) - b->cpu_s;
		cur = since > 0 ? (cur - then) / since : 0;
		then = b->cpu_s > 0 ? then / b->cpu_s : 0;
	}
	if (mode == BASE_DELTA_PCT) {
		if (then > 0)
			snprintf(buf, sz, "%+9.1f%%", 100 * (cur - then) / then);
		else
			snprintf(buf, sz, "%10s", cur > 0 ? "new" : "0");
	} else {
		compact(buf, sz, cur - then);
	}
}

void baseline_heading(const struct snapshot *now, int e, enum base_mode mode, char *buf,
		      size_t sz)
{
	snprintf(buf, sz, "%s%.8s", mode == BASE_DELTA_PCT ? "d%" : "d ", now->ev[e].name);
}

const char *baseline_label(const struct baseline *b)
{
	return b->label;
}

/* ---- the view's side ------------------------------------------------------ */

static const char *const mode_names[BASE_MODES] = { "absolute", "delta", "delta %" };

int tui_open_baseline(struct tui *t, const char *path)
{
	char err[512];

	t->baseline = baseline_open(path, err, sizeof(err));
	if (!t->baseline) {
		cmd_error("%s", err);
		return -1;
	}
	t->base_mode = BASE_DELTA;
	snprintf(t->message, sizeof(t->message), "%s: delta columns (D: absolute, delta, delta %%)",
		 baseline_label(t->baseline));
	return 0;
}

bool tui_baseline_key(struct tui *t, int key)
{
	if (key == 'D') {
		if (!t->baseline) {
			snprintf(t->message, sizeof(t->message),
				 "no baseline: --baseline FILE, or B in a live watch");
			return true;
		}
		t->base_mode = (t->base_mode + 1) % BASE_MODES;
		snprintf(t->message, sizeof(t->message), "%s: %s", baseline_label(t->baseline),
			 mode_names[t->base_mode]);
		return true;
	}
	if (key != 'B')
		return false;
	if (!t->snap || !t->sess || session_is_recorded(t->sess)) {
		snprintf(t->message, sizeof(t->message),
			 "B marks a live watch's profile (a recording: --baseline FILE)");
		return true;
	}
	struct baseline *b = baseline_mark(t->snap);
	if (!b) {
		snprintf(t->message, sizeof(t->message), "baseline: out of memory");
		return true;
	}
	baseline_free(t->baseline);
	t->baseline = b;
	t->base_mode = BASE_DELTA_PCT;
	snprintf(t->message, sizeof(t->message), "%s (D: absolute, delta, delta %%)",
		 baseline_label(b));
	return true;
}

bool tui_baseline_cell(const struct tui *t, const struct snap_func *f, int e, char *buf,
		       size_t sz)
{
	if (!t->baseline || t->base_mode == BASE_ABSOLUTE || t->window)
		return false;
	baseline_cell(t->baseline, t->snap, f, e, t->base_mode, buf, sz);
	return true;
}

bool tui_baseline_heading(const struct tui *t, int e, char *buf, size_t sz)
{
	if (!t->baseline || t->base_mode == BASE_ABSOLUTE || t->window)
		return false;
	baseline_heading(t->snap, e, t->base_mode, buf, sz);
	return true;
}
