/* cyctop serve's metrics: counters that only grow, made from a session's
 * cumulative snapshots (the accumulator), and their exposition in the
 * Prometheus text format or OpenMetrics (a pure writer over an immutable
 * view, so that an HTTP thread can write while collection goes on). */
#ifndef ENGINE_METRICS_H
#define ENGINE_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/cgroup.h"
#include "engine/events.h"
#include "engine/profile.h"

#define METRICS_TOP_DEFAULT 10
#define METRICS_TOP_MAX 1000
/* Series past this many (cgroup, comm) pairs add to their cgroup's "other"
 * and, past METRICS_CGROUPS_MAX cgroups, to cgroup "other". */
#define METRICS_SERIES_MAX 1024
#define METRICS_CGROUPS_MAX 128
#define METRICS_NODES_MAX 64          /* gauges of one tree for one cgroup */
#define METRICS_OTHER "other"

/* One (cgroup, comm) pair's counts since serving began. */
struct metrics_series {
	char cgroup[CGROUP_NAME_MAX];
	char comm[PROFILE_COMM_MAX];
	double samples[EVENTS_MAX];   /* samples taken */
	double count[EVENTS_MAX];     /* events they estimate (samples x period) */
};

/* A gauge of the method's tree: node ID of TREE in UNIT, for CGROUP ("all"
 * the whole target). */
struct metrics_node {
	char cgroup[CGROUP_NAME_MAX];
	char id[64];
	char unit[16];
	double value;
};

/* What the exposition writes: an immutable copy (metrics_view). */
struct metrics_view {
	int n_events;
	struct {
		char name[EVENT_NAME_MAX];
		char unit[16];             /* "nanoseconds" or "events" */
	} ev[EVENTS_MAX];
	size_t n_series;
	struct metrics_series *series;
	uint64_t lost, throttled;
	char tree[16];                 /* the nodes' tree, "" none */
	size_t n_nodes;
	struct metrics_node *nodes;    /* the whole target's, then each cgroup's */
	double seconds;                /* since collection began */
};

/* Writes V in the Prometheus text exposition format (version 0.0.4), or
 * OpenMetrics 1.0 (OPENMETRICS: families without _total, "# EOF").
 * Returns 0, or -1 when OUT failed. */
int metrics_write(const struct metrics_view *v, bool openmetrics, FILE *out);
/* The Content-Type of each. */
const char *metrics_content_type(bool openmetrics);
void metrics_view_free(struct metrics_view *v);

/* --- the accumulator --------------------------------------------------- */

struct metrics;
/* The cgroup name of process PID (NULL: not known). */
typedef const char *(*metrics_cgroup_fn)(void *arg, uint32_t pid);
/* Series for the TOP_N processes with the most samples of the first event
 * since the previous update (by comm), the rest as comm "other". */
struct metrics *metrics_new(int top_n);
void metrics_free(struct metrics *m);
/* Adds what SNAP's processes (or, not system-wide, its target) sampled
 * since the previous update: the difference of their cumulative counts,
 * so that a counter never goes back when a process ends or a pid comes
 * round again.  CGROUP names each process's cgroup (NULL: none).  Returns
 * 0, -1 when out of memory. */
int metrics_update(struct metrics *m, const struct snapshot *snap, metrics_cgroup_fn cgroup,
		   void *arg);
/* The tree's gauges, replaced at each call: N at most METRICS_NODES_MAX for
 * each of the whole target and METRICS_CGROUPS_MAX cgroups (the rest are
 * left out).  Returns 0, -1 when out of memory (the old ones kept). */
int metrics_set_nodes(struct metrics *m, const char *tree, const struct metrics_node *nodes,
		      size_t n);
#define METRICS_NODES_ALL (METRICS_NODES_MAX * (1 + METRICS_CGROUPS_MAX))

/* A cgroup's events since serving began, summed over its series: what its
 * tree is evaluated on. */
struct metrics_cgroup {
	char name[CGROUP_NAME_MAX];
	double count[EVENTS_MAX];      /* as metrics_series' count */
};
/* The cgroups with the most of the first event's count, at most the
 * accumulator's TOP_N (bounded as the comm labels are), busiest first;
 * cgroup "other" (the cgroups past METRICS_CGROUPS_MAX) left out.  OUT has
 * room for METRICS_CGROUPS_MAX.  Returns how many. */
size_t metrics_top_cgroups(const struct metrics *m, struct metrics_cgroup *out);
/* An immutable copy for the writer; NULL when out of memory. */
struct metrics_view *metrics_view(const struct metrics *m);

#endif
