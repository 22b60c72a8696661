/* Runs mode (--mux runs): the command runs once per plan group (N times
 * each with --runs N), one after the other, each run counting only its
 * group's events and the reference, so every count is exact (coverage 1).
 * The runs' reference counts are compared to flag an unstable workload, and
 * the runs merge into one snapshot.
 *
 * Merging (runs_merge, pure): an event's numbers come only from the runs of
 * its own group (the shared reference: from every run) and are reported per
 * run: samples per function and per event are the sum over those runs
 * divided by their number (rounded to the nearest sample), counts the mean.
 * Percentages are then shares of one average run.  Per-thread rows are per
 * run (each run is a new process) and are not merged. */
#ifndef ENGINE_RUNS_H
#define ENGINE_RUNS_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/profile.h"
#include "engine/session.h"

#define RUNS_UNSTABLE 0.05  /* a spread of the reference above this flags the workload */

struct runs_opts {
	struct session_opts s;  /* the command, events, --counters */
	int runs;               /* runs per group, >= 1 */
	bool (*stop)(void);     /* true: stop early (a signal); the runs done are merged */
};

/* Runs everything and returns the merged snapshot, or NULL with one line in
 * ERR. */
struct snapshot *runs_execute(const struct runs_opts *o, char *err, size_t errsz);

/* Merges the N snapshots SNAPS of runs RUNS[k] (their group and run index;
 * the reference is taken from each snapshot) of a plan of N_GROUPS groups.
 * Every snapshot has the same events.  NULL when out of memory. */
struct snapshot *runs_merge(struct snapshot *const *snaps, const struct snap_run *runs, int n,
			    int n_groups);

/* (max - min) / mean of the N values; NAN if any is NAN or the mean is 0. */
double runs_spread(const double *values, int n);

#endif
