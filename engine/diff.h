/* Before and after (cyctop diff, issue 29): rows of two sides matched by
 * key, each side one run or several, and for every row and event the delta
 * with a 95% interval that says whether it is more than noise.
 *
 * Pure: no system calls, no files; the command (tui/cmd-diff.c) fills the
 * observations from snapshots and counts files.
 *
 * The interval of the delta comes from one of two methods:
 * - sampling (one run a side): a count made of n samples of period P has
 *   variance about n*P^2 (the number of samples landing in a function is
 *   Poisson-like; for a fixed period, Var(n*P) = n*P^2).  The two sides are
 *   independent, so Var(delta) = Var(base) + Var(new), and the interval is
 *   delta +- 1.96 sd.  Each side counts one sample more than it has
 *   (n + 1 in place of n): the normal interval is too narrow on a handful
 *   of samples, and with the extra one, 5 samples against none is not
 *   significant and 6 against none is, as in the exact (binomial) test of
 *   two Poisson counts.  It covers sampling noise only, never run-to-run
 *   variation (a busier machine, another cache layout): that needs runs.
 * - runs (two or more runs a side): each side's mean over its runs, and
 *   Welch's t interval on the per-run counts (unequal variances, the
 *   Welch-Satterthwaite degrees of freedom), which includes both the
 *   sampling noise and the run-to-run spread.  A side's variance is at
 *   least one sample's, P^2: two or three runs can agree exactly by
 *   chance (a function sampled once in each), and a width of 0 would call
 *   any difference significant.
 * Nothing here rescales a side: whole runs of the same work compare
 * absolute counts (cycles, nanoseconds), which a faster program lowers;
 * the command gives time windows as rates (counts, variances and periods
 * over the side's CPU seconds: Var(c / T) = Var(c) / T^2). */
#ifndef ENGINE_DIFF_H
#define ENGINE_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/events.h"

/* z of a two-sided 95% interval */
#define DIFF_Z95 1.959963984540054

enum diff_method { DIFF_SAMPLING, DIFF_RUNS };

/* One row of one run: its key and, per event, its absolute count (samples
 * x period, or a counts file's value) and that count's sampling variance. */
struct diff_obs {
	const char *name;
	const char *module;      /* "" when the rows have no module (threads) */
	double count[EVENTS_MAX];
	double var[EVENTS_MAX];
};

/* One run of one side: its rows (a key met twice adds up), and the mean
 * period of a sample of each event (0: not sampled, a counts file). */
struct diff_run {
	size_t n;
	const struct diff_obs *obs;
	double period[EVENTS_MAX];
};

/* The comparison of one row for one event. */
struct diff_stat {
	double base, new_;       /* counts: the side's mean over its runs */
	double delta;            /* new - base */
	double delta_pct;        /* 100 * delta / base; NAN when base is 0 */
	double sd;               /* standard error of delta (0: no noise seen) */
	double df;               /* runs: Welch's degrees of freedom; INFINITY
				  * for sampling (the normal quantile) */
	double low, high;        /* the 95% interval of delta */
	bool significant;        /* the interval excludes 0 */
};

struct diff_row {
	const char *name;        /* the observations' strings (not copied) */
	const char *module;
	bool in_base, in_new;    /* seen with a count in some run of that side */
	struct diff_stat ev[EVENTS_MAX];
};

struct diff_table {
	enum diff_method method;
	int n_events;
	size_t n;
	struct diff_row *rows;   /* sorted by |delta| of event SORT_EV, largest first */
};

/* The rows of every key seen in either side, compared for the first
 * N_EVENTS events.  NB and NN runs a side: one each is the sampling method,
 * two or more each the runs method (a key missing from a run counts 0 there,
 * with no variance).  Returns 0, or -1: out of memory, or a mix (one run on
 * one side, several on the other: no interval is honest then) with a
 * message in ERR.  Free with diff_table_free. */
int diff_build(const struct diff_run *base, int nb, const struct diff_run *new_, int nn,
	       int n_events, int sort_ev, struct diff_table *out, char *err, size_t errsz);
void diff_table_free(struct diff_table *t);

/* The comparison of one number seen in NB base runs and NN new runs (their
 * counts B[], N[] and sampling variances VB[], VN[], either NULL for 0), by
 * METHOD, into *S.  Runs: VB and VN are each side's floor of variance (P^2,
 * see above); NULL: none. */
void diff_stat_compute(enum diff_method method, const double *b, const double *vb, int nb,
		       const double *n, const double *vn, int nn, struct diff_stat *s);

/* The 0.975 quantile of Student's t with DF degrees of freedom (DF >= 1;
 * not whole for Welch): a table for DF <= 30 interpolated in 1/DF, above
 * it the Cornish-Fisher expansion around the normal quantile (error below
 * 1e-4 there).  Between whole DF the interpolation errs wide, never
 * narrow: by 1.6% at 2.5 (3.6305 for 3.5747), 0.4% at 3.5, 0.05% at 5.5. */
double diff_t975(double df);

#endif
