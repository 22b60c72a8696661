/* Runs mode (the contract is in engine/runs.h). */
#include "engine/runs.h"

#include "lib/hashtab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POLL_MS 100

/* --- merging ------------------------------------------------------------- */

struct func_key {
	const char *name, *module;
};

static int key_cmp(const void *a, const void *b)
{
	const struct func_key *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->module, y->module);
}

/* The distinct (name, module) pairs of every run, sorted; *N receives their
 * number.  NULL when out of memory. */
static struct func_key *distinct_funcs(struct snapshot *const *snaps, int n_snaps, size_t *n)
{
	size_t total = 0, k = 0;

	for (int i = 0; i < n_snaps; i++)
		total += snaps[i]->n_funcs;
	struct func_key *keys = malloc((total + 1) * sizeof(*keys));
	if (!keys)
		return NULL;
	for (int i = 0; i < n_snaps; i++)
		for (size_t f = 0; f < snaps[i]->n_funcs; f++)
			keys[k++] = (struct func_key){ snaps[i]->funcs[f].name,
						       snaps[i]->funcs[f].module };
	qsort(keys, total, sizeof(*keys), key_cmp);
	*n = 0;
	for (size_t i = 0; i < total; i++)
		if (*n == 0 || key_cmp(&keys[*n - 1], &keys[i]) != 0)
			keys[(*n)++] = keys[i];
	return keys;
}

/* Whether event E's numbers come from run R. */
static bool run_measures(const struct snap_event *ev, const struct snap_run *r)
{
	return ev->group == SNAP_EVERY_GROUP || ev->group == r->group;
}

static uint64_t per_run(uint64_t sum, int runs)
{
	return runs ? (sum + (uint64_t)runs / 2) / (uint64_t)runs : 0;
}

/* Sums each event's function samples over the runs that measure it, then
 * divides by their number (RUNS_OF[e]). */
static void merge_funcs(struct snapshot *m, const struct func_key *keys,
			struct snapshot *const *snaps, const struct snap_run *runs, int n,
			const int *runs_of)
{
	for (int k = 0; k < n; k++) {
		const struct snapshot *s = snaps[k];
		for (size_t f = 0; f < s->n_funcs; f++) {
			struct func_key key = { s->funcs[f].name, s->funcs[f].module };
			const struct func_key *at = bsearch(&key, keys, m->n_funcs, sizeof(key),
							    key_cmp);
			struct snap_func *d = &m->funcs[at - keys];
			for (int e = 0; e < m->n_events; e++)
				if (run_measures(&s->ev[e], &runs[k]))
					d->samples[e] += s->funcs[f].samples[e];
		}
	}
	for (size_t f = 0; f < m->n_funcs; f++)
		for (int e = 0; e < m->n_events; e++) {
			m->funcs[f].samples[e] = per_run(m->funcs[f].samples[e], runs_of[e]);
			m->funcs[f].window[e] = m->funcs[f].samples[e];
		}
}

/* Event totals per run: samples and mean counts, exact (coverage 1) where
 * the event's group ran, not counted where it did not. */
static void merge_events(struct snapshot *m, struct snapshot *const *snaps,
			 const struct snap_run *runs, int n, int *runs_of)
{
	memcpy(m->ev, snaps[0]->ev, sizeof(m->ev));
	for (int e = 0; e < m->n_events; e++) {
		struct snap_event *d = &m->ev[e];
		uint64_t samples = 0;
		double count = 0;
		int counted = 0;
		runs_of[e] = 0;
		for (int k = 0; k < n; k++) {
			const struct snap_event *ev = &snaps[k]->ev[e];
			if (!run_measures(ev, &runs[k]))
				continue;
			runs_of[e]++;
			samples += ev->samples;
			if (ev->counted) {
				count += ev->count;
				counted++;
			}
		}
		d->samples = d->window = per_run(samples, runs_of[e]);
		d->counted = counted > 0;
		d->count = counted ? count / counted : 0;
		d->coverage = counted ? 1.0 : 0.0;
	}
}

/* Target, totals and the runs' references. */
static void merge_header(struct snapshot *m, struct snapshot *const *snaps,
			 const struct snap_run *runs, int n, int n_groups)
{
	const struct snapshot *last = snaps[n - 1];
	double refs[SNAP_MAX_RUNS], sum = 0;

	for (int k = 0; k < n; k++) {
		m->time += snaps[k]->time;
		m->lost += snaps[k]->lost;
		m->throttled += snaps[k]->throttled;
		m->undecodable += snaps[k]->undecodable;
		if (snaps[k]->exit_status != 0)
			m->exit_status = snaps[k]->exit_status;  /* a failed run shows */
		m->runs[k] = runs[k];
		m->runs[k].reference = refs[k] = snaps[k]->reference_count;
		sum += refs[k];
	}
	m->time /= n;  /* per run, like the counts and samples */
	m->window_seconds = m->time;
	m->pid = last->pid;
	memcpy(m->command, last->command, sizeof(m->command));
	m->ended = true;
	memcpy(m->pmu, last->pmu, sizeof(m->pmu));
	memcpy(m->notice, snaps[0]->notice, sizeof(m->notice));
	memcpy(m->reference, snaps[0]->reference, sizeof(m->reference));
	m->reference_count = sum / n;
	m->n_groups = n_groups;
	m->runs_mode = true;
	m->n_runs = n;
	m->spread = runs_spread(refs, n);
}

/* The merged rows own copies of the names (in STR), in the same order as
 * KEYS: one copy of each module, which its rows share (snapshot_finish
 * sums the modules by pointer).  -1 when out of memory. */
static int copy_names(struct snapshot *m, const struct func_key *keys, size_t n_keys, char *str)
{
	struct strpool seen = { 0 };   /* the distinct modules, by number */
	const char **copy = calloc(n_keys + 1, sizeof(*copy));

	for (size_t i = 0; copy && i < n_keys; i++) {
		int64_t k = strpool_id(&seen, keys[i].module);
		if (k < 0)
			break;
		m->funcs[i].name = strcpy(str, keys[i].name);
		str += strlen(str) + 1;
		if (!copy[k]) {
			copy[k] = strcpy(str, keys[i].module);
			str += strlen(str) + 1;
		}
		m->funcs[i].module = copy[k];
		m->n_funcs = i + 1;
	}
	free(copy);
	strpool_free(&seen);
	return m->n_funcs == n_keys ? 0 : -1;
}

struct snapshot *runs_merge(struct snapshot *const *snaps, const struct snap_run *runs, int n,
			    int n_groups)
{
	size_t n_keys, strbytes = 0;
	int runs_of[EVENTS_MAX];
	char *str;

	if (n < 1 || n > SNAP_MAX_RUNS)
		return NULL;
	struct func_key *keys = distinct_funcs(snaps, n, &n_keys);
	if (!keys)
		return NULL;
	for (size_t i = 0; i < n_keys; i++)
		strbytes += strlen(keys[i].name) + strlen(keys[i].module) + 2;
	struct snapshot *m = snapshot_new(snaps[0]->n_events, n_keys, strbytes, &str);
	if (!m || copy_names(m, keys, n_keys, str) < 0) {
		snapshot_free(m);
		free(keys);
		return NULL;
	}
	merge_events(m, snaps, runs, n, runs_of);
	merge_funcs(m, keys, snaps, runs, n, runs_of);
	free(keys);
	merge_header(m, snaps, runs, n, n_groups);
	return snapshot_finish(m) < 0 ? NULL : m;
}

double runs_spread(const double *values, int n)
{
	double lo = INFINITY, hi = -INFINITY, sum = 0;

	for (int i = 0; i < n; i++) {
		if (isnan(values[i]))
			return NAN;
		lo = fmin(lo, values[i]);
		hi = fmax(hi, values[i]);
		sum += values[i];
	}
	if (n < 1 || sum == 0)
		return NAN;
	return (hi - lo) / (sum / n);
}

/* --- running ------------------------------------------------------------- */

/* One run of the command with GROUP's events; *N_GROUPS gets the plan's
 * group count.  *STOPPED is set when a stop request cut the run short. */
static struct snapshot *one_run(const struct runs_opts *o, int group, int *n_groups,
				bool *stopped, char *err, size_t errsz)
{
	struct session_opts so = o->s;

	so.one_group = true;
	so.group = group;
	struct session *s = session_open(&so, err, errsz);
	if (!s)
		return NULL;
	*n_groups = session_groups(s);
	while (!session_poll(s, POLL_MS))
		if (o->stop && o->stop()) {
			*stopped = true;
			break;
		}
	struct snapshot *snap = session_snapshot(s);
	session_close(s);
	if (!snap)
		snprintf(err, errsz, "out of memory taking a snapshot");
	return snap;
}

static void free_all(struct snapshot **snaps, int n)
{
	for (int k = 0; k < n; k++)
		snapshot_free(snaps[k]);
}

struct snapshot *runs_execute(const struct runs_opts *o, char *err, size_t errsz)
{
	struct snapshot *snaps[SNAP_MAX_RUNS] = { NULL };
	struct snap_run runs[SNAP_MAX_RUNS] = { { 0, 0, 0 } };
	int n = 0, n_groups = 1;
	bool stopped = false;

	for (int g = 0; g < n_groups && !stopped; g++)
		for (int r = 0; r < o->runs && !stopped; r++) {
			if (n == SNAP_MAX_RUNS) {
				snprintf(err, errsz, "--runs %d x %d groups: more than %d runs",
					 o->runs, n_groups, SNAP_MAX_RUNS);
				free_all(snaps, n);
				return NULL;
			}
			snaps[n] = one_run(o, g, &n_groups, &stopped, err, errsz);
			if (!snaps[n]) {
				free_all(snaps, n);
				return NULL;
			}
			if (stopped) {  /* a cut-short run would bias means and spread */
				snapshot_free(snaps[n]);
				break;
			}
			runs[n++] = (struct snap_run){ g, r, NAN };
			if (n == 1 && (long)o->runs * n_groups > SNAP_MAX_RUNS) {
				snprintf(err, errsz, "--runs %d x %d groups: more than %d runs",
					 o->runs, n_groups, SNAP_MAX_RUNS);
				free_all(snaps, n);
				return NULL;
			}
		}
	if (n == 0) {
		snprintf(err, errsz, "stopped before the first run ended: nothing measured");
		return NULL;
	}
	struct snapshot *m = runs_merge(snaps, runs, n, n_groups);
	free_all(snaps, n);
	if (!m)
		snprintf(err, errsz, "out of memory merging the runs");
	return m;
}
