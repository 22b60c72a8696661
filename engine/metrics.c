/* cyctop serve's metrics (engine/metrics.h): the accumulator that turns
 * cumulative snapshots into counters per (cgroup, comm), and the writer of
 * the Prometheus text format and OpenMetrics. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/metrics.h"
#include "lib/hashtab.h"

/* --- the writer ---------------------------------------------------------- */

const char *metrics_content_type(bool openmetrics)
{
	return openmetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
			   : "text/plain; version=0.0.4; charset=utf-8";
}

/* A label value: backslash, double quote and newline escaped, as both
 * formats want; other control bytes (a hostile comm) as '?'. */
static void put_value(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\\' || c == '"')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else
			fputc(c < 0x20 || c == 0x7f ? '?' : c, out);
	}
}

/* "# HELP" and "# TYPE" of family NAME (counters: NAME_total in the text
 * format, NAME in OpenMetrics, whose samples carry the _total). */
static void family(FILE *out, bool om, const char *name, const char *type, const char *help)
{
	const char *suffix = !om && strcmp(type, "counter") == 0 ? "_total" : "";

	fprintf(out, "# HELP %s%s %s\n", name, suffix, help);
	fprintf(out, "# TYPE %s%s %s\n", name, suffix, type);
}

static void number(FILE *out, double v)
{
	if (isnan(v))
		fputs(" NaN\n", out);
	else if (isinf(v))
		fputs(v > 0 ? " +Inf\n" : " -Inf\n", out);
	else
		fprintf(out, " %.17g\n", v);
}

static void series_line(FILE *out, const char *name, const char *event,
			const struct metrics_series *s, double v)
{
	fprintf(out, "%s{event=\"", name);
	put_value(out, event);
	fputs("\",cgroup=\"", out);
	put_value(out, s->cgroup);
	fputs("\",comm=\"", out);
	put_value(out, s->comm);
	fputs("\"}", out);
	number(out, v);
}

static void write_events(const struct metrics_view *v, bool om, FILE *out)
{
	family(out, om, "cyctop_events", "counter",
	       "Events the samples estimate, per event, cgroup and command: cpu-clock and "
	       "task-clock in nanoseconds, every other event in events (samples times the "
	       "sampling period, scaled by the event's coverage).");
	for (size_t i = 0; i < v->n_series; i++)
		for (int e = 0; e < v->n_events; e++)
			series_line(out, "cyctop_events_total", v->ev[e].name, &v->series[i],
				    v->series[i].count[e]);
	family(out, om, "cyctop_samples", "counter",
	       "Samples taken, per event, cgroup and command (each weighs its period).");
	for (size_t i = 0; i < v->n_series; i++)
		for (int e = 0; e < v->n_events; e++)
			series_line(out, "cyctop_samples_total", v->ev[e].name, &v->series[i],
				    v->series[i].samples[e]);
}

static void write_nodes(const struct metrics_view *v, FILE *out)
{
	for (size_t i = 0; i < v->n_nodes; i++) {
		const struct metrics_node *n = &v->nodes[i];
		fputs("cyctop_tree_node{tree=\"", out);
		put_value(out, v->tree);
		fputs("\",node=\"", out);
		put_value(out, n->id);
		fputs("\",unit=\"", out);
		put_value(out, n->unit);
		fputs("\",cgroup=\"", out);
		put_value(out, n->cgroup);
		fputs("\"}", out);
		number(out, n->value);
	}
}

int metrics_write(const struct metrics_view *v, bool om, FILE *out)
{
	write_events(v, om, out);
	family(out, om, "cyctop_lost_samples", "counter",
	       "Samples the kernel dropped because a ring buffer was full (samples).");
	fprintf(out, "cyctop_lost_samples_total %llu\n", (unsigned long long)v->lost);
	family(out, om, "cyctop_throttled", "counter",
	       "Times the kernel throttled sampling (perf_event_max_sample_rate).");
	fprintf(out, "cyctop_throttled_total %llu\n", (unsigned long long)v->throttled);
	if (v->n_nodes) {
		family(out, om, "cyctop_tree_node", "gauge",
		       "A node of the host method's metric tree over the whole collection, in "
		       "the unit its label names (cyctop tree's ids and units): cgroup=\"all\" "
		       "the whole target's counts, else the busiest cgroups' (as many as the "
		       "comm labels), from the events their samples estimate.");
		write_nodes(v, out);
	}
	family(out, om, "cyctop_collection_seconds", "gauge",
	       "Seconds since cyctop serve began collecting (seconds).");
	fputs("cyctop_collection_seconds", out);
	number(out, v->seconds);
	if (om)
		fputs("# EOF\n", out);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

void metrics_view_free(struct metrics_view *v)
{
	if (v) {
		free(v->series);
		free(v->nodes);
	}
	free(v);
}

/* --- the accumulator ------------------------------------------------------ */

struct pid_row {
	uint32_t pid;
	double last[EVENTS_MAX];     /* the cumulative samples seen last */
};

struct metrics {
	int top_n;
	bool named;                  /* events named from the first snapshot */
	struct metrics_view v;       /* series grow here */
	size_t series_cap;
	struct hashtab series_index; /* hash(cgroup, comm) -> series */
	size_t n_cgroups;
	struct pid_row *pids;
	size_t npids, pids_cap;
	struct hashtab pid_index;
	size_t nodes_cap;
};

struct metrics *metrics_new(int top_n)
{
	struct metrics *m = calloc(1, sizeof(*m));

	if (m)
		m->top_n = top_n > 0 ? top_n : METRICS_TOP_DEFAULT;
	return m;
}

void metrics_free(struct metrics *m)
{
	if (!m)
		return;
	free(m->v.series);
	free(m->v.nodes);
	hashtab_free(&m->series_index);
	free(m->pids);
	hashtab_free(&m->pid_index);
	free(m);
}

struct series_key {
	const char *cgroup, *comm;
};

static bool series_eq(const void *key, uint32_t idx, const void *ctx)
{
	const struct series_key *k = key;
	const struct metrics_series *s = &((const struct metrics *)ctx)->v.series[idx];

	return strcmp(s->cgroup, k->cgroup) == 0 && strcmp(s->comm, k->comm) == 0;
}

static uint64_t series_hash(const char *cgroup, const char *comm)
{
	return hash_mix(hash_str(cgroup) ^ hash_mix(hash_str(comm)));
}

static bool cgroup_known(const struct metrics *m, const char *cgroup)
{
	for (size_t i = 0; i < m->v.n_series; i++)
		if (strcmp(m->v.series[i].cgroup, cgroup) == 0)
			return true;
	return false;
}

/* The series of (CGROUP, COMM), made when new within the bounds; else the
 * cgroup's "other", else ("other", "other").  NULL when out of memory. */
static struct metrics_series *series_get(struct metrics *m, const char *cgroup,
					 const char *comm)
{
	struct series_key k = { cgroup, comm };
	uint64_t h = series_hash(cgroup, comm);
	uint32_t i = hashtab_find(&m->series_index, h, &k, series_eq, m);

	if (i != HASHTAB_NONE)
		return &m->v.series[i];
	bool new_cgroup = !cgroup_known(m, cgroup);
	if (new_cgroup && m->n_cgroups >= METRICS_CGROUPS_MAX &&
	    strcmp(cgroup, METRICS_OTHER) != 0)
		return series_get(m, METRICS_OTHER, METRICS_OTHER);
	if (m->v.n_series >= METRICS_SERIES_MAX - METRICS_CGROUPS_MAX &&
	    strcmp(comm, METRICS_OTHER) != 0)
		return series_get(m, cgroup, METRICS_OTHER);
	if (GROW(m->v.series, m->v.n_series + 1, m->series_cap) < 0 ||
	    hashtab_add(&m->series_index, h, (uint32_t)m->v.n_series) < 0)
		return NULL;
	struct metrics_series *s = &m->v.series[m->v.n_series++];
	memset(s, 0, sizeof(*s));
	snprintf(s->cgroup, sizeof(s->cgroup), "%s", cgroup);
	snprintf(s->comm, sizeof(s->comm), "%s", comm);
	m->n_cgroups += new_cgroup;
	return s;
}

static bool pid_eq(const void *key, uint32_t idx, const void *ctx)
{
	return ((const struct metrics *)ctx)->pids[idx].pid == *(const uint32_t *)key;
}

static struct pid_row *pid_get(struct metrics *m, uint32_t pid)
{
	uint64_t h = hash_mix(pid);
	uint32_t i = hashtab_find(&m->pid_index, h, &pid, pid_eq, m);

	if (i != HASHTAB_NONE)
		return &m->pids[i];
	if (GROW(m->pids, m->npids + 1, m->pids_cap) < 0 ||
	    hashtab_add(&m->pid_index, h, (uint32_t)m->npids) < 0)
		return NULL;
	struct pid_row *r = &m->pids[m->npids++];
	memset(r, 0, sizeof(*r));
	r->pid = pid;
	return r;
}

/* A process as the update sees it: the snapshot's row, or the target. */
struct proc_ref {
	uint32_t pid;
	const char *comm;
	const uint64_t *samples;
	double delta0;               /* the first event's samples since the last update */
	size_t row;                  /* in pids (which may move as it grows) */
};

static int by_delta(const void *a, const void *b)
{
	double x = ((const struct proc_ref *)a)->delta0;
	double y = ((const struct proc_ref *)b)->delta0;

	return x < y ? 1 : x > y ? -1 : 0;
}

static void name_events(struct metrics *m, const struct snapshot *snap)
{
	m->v.n_events = snap->n_events;
	for (int e = 0; e < snap->n_events; e++) {
		const char *n = snap->ev[e].name;
		bool ns = strcmp(n, "cpu-clock") == 0 || strcmp(n, "task-clock") == 0;
		snprintf(m->v.ev[e].name, sizeof(m->v.ev[e].name), "%s", n);
		snprintf(m->v.ev[e].unit, sizeof(m->v.ev[e].unit), ns ? "nanoseconds" : "events");
	}
	m->named = true;
}

/* Adds DELTA samples of event E (in the snapshot's unit) to series S. */
static void add_delta(struct metrics_series *s, const struct snap_event *ev, int e, double delta)
{
	double cov = ev->coverage > 0 ? ev->coverage : 1;

	if (ev->nsamples && ev->samples) {
		/* frequency mode: samples sum periods */
		s->count[e] += delta / cov;
		s->samples[e] += delta * (double)ev->nsamples / (double)ev->samples;
	} else {
		s->count[e] += delta * (double)ev->sav / cov;
		s->samples[e] += delta;
	}
}

static int update_procs(struct metrics *m, const struct snapshot *snap, struct proc_ref *p,
			size_t n, metrics_cgroup_fn cgroup, void *arg)
{
	for (size_t i = 0; i < n; i++) {
		struct pid_row *r = pid_get(m, p[i].pid);
		if (!r)
			return -1;
		p[i].row = (size_t)(r - m->pids);
		p[i].delta0 = (double)p[i].samples[0] - r->last[0];
	}
	qsort(p, n, sizeof(*p), by_delta);
	for (size_t i = 0; i < n; i++) {
		struct pid_row *r = &m->pids[p[i].row];
		const char *cg = p[i].pid == PROFILE_TID_OTHER ? METRICS_OTHER
				 : cgroup ? cgroup(arg, p[i].pid) : NULL;
		bool top = i < (size_t)m->top_n && p[i].pid != PROFILE_TID_OTHER && p[i].comm[0];
		struct metrics_series *s = series_get(m, cg ? cg : "unknown",
						      top ? p[i].comm : METRICS_OTHER);
		if (!s)
			return -1;
		for (int e = 0; e < snap->n_events; e++) {
			double cur = (double)p[i].samples[e];
			/* a row's counts never shrink; a new life adds to them */
			double d = cur >= r->last[e] ? cur - r->last[e] : cur;
			r->last[e] = cur;
			if (d > 0)
				add_delta(s, &snap->ev[e], e, d);
		}
	}
	return 0;
}

int metrics_update(struct metrics *m, const struct snapshot *snap, metrics_cgroup_fn cgroup,
		   void *arg)
{
	if (!m->named)
		name_events(m, snap);
	if (snap->n_events != m->v.n_events || snap->n_events < 1)
		return 0;
	m->v.lost = snap->lost;
	m->v.throttled = snap->throttled;
	m->v.seconds = snap->time;
	uint64_t totals[EVENTS_MAX];
	struct proc_ref one = { snap->pid > 0 ? (uint32_t)snap->pid : 0, snap->command, totals,
				0, 0 };
	if (!snap->system_wide) {
		for (int e = 0; e < snap->n_events; e++)
			totals[e] = snap->ev[e].samples;
		return update_procs(m, snap, &one, 1, cgroup, arg);
	}
	struct proc_ref *p = calloc(snap->n_procs ? snap->n_procs : 1, sizeof(*p));
	if (!p)
		return -1;
	for (size_t i = 0; i < snap->n_procs; i++)
		p[i] = (struct proc_ref){ snap->procs[i].pid, snap->procs[i].comm,
					  snap->procs[i].samples, 0, 0 };
	int rc = update_procs(m, snap, p, snap->n_procs, cgroup, arg);
	free(p);
	return rc;
}

int metrics_set_nodes(struct metrics *m, const char *tree, const struct metrics_node *nodes,
		      size_t n)
{
	if (n > METRICS_NODES_ALL)
		n = METRICS_NODES_ALL;
	if (GROW(m->v.nodes, n ? n : 1, m->nodes_cap) < 0)
		return -1;
	snprintf(m->v.tree, sizeof(m->v.tree), "%s", tree);
	memcpy(m->v.nodes, nodes, n * sizeof(*nodes));
	m->v.n_nodes = n;
	return 0;
}

static int by_count(const void *a, const void *b)
{
	double x = ((const struct metrics_cgroup *)a)->count[0];
	double y = ((const struct metrics_cgroup *)b)->count[0];

	return x < y ? 1 : x > y ? -1 : strcmp(((const struct metrics_cgroup *)a)->name,
					       ((const struct metrics_cgroup *)b)->name);
}

/* The cgroups are few (METRICS_CGROUPS_MAX), their series at most
 * METRICS_SERIES_MAX: a linear search over the cgroups found so far. */
size_t metrics_top_cgroups(const struct metrics *m, struct metrics_cgroup *out)
{
	size_t n = 0;

	for (size_t i = 0; i < m->v.n_series; i++) {
		const struct metrics_series *s = &m->v.series[i];
		size_t j = 0;
		if (strcmp(s->cgroup, METRICS_OTHER) == 0)
			continue;
		while (j < n && strcmp(out[j].name, s->cgroup) != 0)
			j++;
		if (j == n) {
			if (n == METRICS_CGROUPS_MAX)
				continue;
			memset(&out[n], 0, sizeof(out[n]));
			snprintf(out[n].name, sizeof(out[n].name), "%s", s->cgroup);
			n++;
		}
		for (int e = 0; e < m->v.n_events; e++)
			out[j].count[e] += s->count[e];
	}
	qsort(out, n, sizeof(*out), by_count);
	return n < (size_t)m->top_n ? n : (size_t)m->top_n;
}

struct metrics_view *metrics_view(const struct metrics *m)
{
	struct metrics_view *v = malloc(sizeof(*v));

	if (!v)
		return NULL;
	*v = m->v;
	v->series = malloc((m->v.n_series ? m->v.n_series : 1) * sizeof(*v->series));
	v->nodes = malloc((m->v.n_nodes ? m->v.n_nodes : 1) * sizeof(*v->nodes));
	if (!v->series || !v->nodes) {
		metrics_view_free(v);
		return NULL;
	}
	memcpy(v->series, m->v.series, m->v.n_series * sizeof(*v->series));
	if (m->v.n_nodes)
		memcpy(v->nodes, m->v.nodes, m->v.n_nodes * sizeof(*v->nodes));
	return v;
}
