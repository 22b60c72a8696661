/* Test 3 on a host without a PMU: cyctop and perf stat -x, count the same
 * software events of the same calibrated programs, each run with the
 * environment perf's child has: page-faults of faults:2000, context-
 * switches of switches:500, task-clock of the loop.  Not user-only
 * counts, so within 2% of perf's (the bound), and more where a
 * count is random run to run:
 *   page-faults  the pages touched and the start-up's: the same every run
 *                (2,635 and 2,637 in perf's runs here), 2%;
 *   context-switches  the 500 sleeps and some preemptions, which come at
 *                random (a Poisson count: sd the square root of its mean):
 *                2% plus 4 sd of the difference of two such counts;
 *   task-clock   the loop's CPU time, which a loaded VM stretches at random
 *                (41 to 60 ms for one loop in perf's runs here): the
 *                medians of three runs each, taken in turn, within 2% plus
 *                the larger of the two tools' own ranges.
 * The scale fault reads 11% more than counted: page-faults catch it. */
#include "engine/selftest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOSAMPLE "1000000000000"
#define SW_BOUND 0.02      /* counts not user-only */
#define CLOCK_RUNS 3

struct sw_case {
	const char *event;
	const char *kind;        /* the workload */
	unsigned long n;         /* 0: the loop for 0.1 s */
	double perf_unit;        /* perf prints task-clock in msec, cyctop counts ns */
};

static const struct sw_case cases[] = {
	{ "page-faults", "faults", 2000, 1 },
	{ "context-switches", "switches", 500, 1 },
	{ "task-clock", "loop", 0, 1e6 },
};

struct perf_text {
	char out[16384];    /* the program's stdout: its environment for "env" */
	char stat[4096];
};

/* One run of WORK by each: perf's count into *P, cyctop's into *CY. */
static int count_both(struct selftest_ctx *c, const struct sw_case *k, const char *work,
		      char *const *envp, struct perf_text *t, double *p, double *cy, char *err,
		      size_t errsz)
{
	char events[96];
	struct st_watch w = { .events = events, .work = work, .envp = envp };

	if (st_perf_stat(c, k->event, work, NULL, 0, t->stat, sizeof(t->stat), err, errsz) < 0)
		return -1;
	if ((*p = st_perf_count(t->stat, k->event)) < 0) {
		snprintf(err, errsz, "perf stat did not count %s", k->event);
		return -1;
	}
	*p *= k->perf_unit;
	snprintf(events, sizeof(events), "%s/" NOSAMPLE, k->event);
	struct snapshot *snap = st_watch_run(c, &w, err, errsz);
	if (!snap)
		return -1;
	*cy = snap->ev[0].counted ? snap->ev[0].count : -1;
	snapshot_free(snap);
	return 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of V[0..n) (sorted here) and its range. */
static double median(double *v, int n, double *range)
{
	qsort(v, (size_t)n, sizeof(*v), by_value);
	*range = v[n - 1] - v[0];
	return v[n / 2];
}

/* Case K: cyctop's count against perf's, its figures appended to TEXT.
 * False with why in O. */
static bool check_case(struct selftest_ctx *c, const struct sw_case *k, char *const *envp,
		       struct perf_text *t, char *text, size_t textsz, struct st_outcome *o)
{
	char work[64], err[512];
	double p[CLOCK_RUNS], cy[CLOCK_RUNS], p_range = 0, cy_range = 0;
	int runs = k->n ? 1 : CLOCK_RUNS;

	snprintf(work, sizeof(work), "%s:%lu", k->kind, k->n ? k->n
		 : st_iters_for(c, 0.1, 1000000));
	for (int i = 0; i < runs; i++)
		if (count_both(c, k, work, envp, t, &p[i], &cy[i], err, sizeof(err)) < 0) {
			st_set(o, ST_FAIL, "%s: %s", k->event, err);
			return false;
		}
	double pm = median(p, runs, &p_range), cm = median(cy, runs, &cy_range);
	double bound = SW_BOUND * pm;
	if (k->n && strcmp(k->event, "context-switches") == 0)
		bound += 4 * sqrt(2 * fmax(pm - (double)k->n, 1));
	else if (!k->n)
		bound += fmax(p_range, cy_range);
	size_t len = strlen(text);
	snprintf(text + len, textsz - len, "%s%s cyctop %.0f perf %.0f (within %.0f)",
		 len ? "; " : "", k->event, cm, pm, bound);
	if (cm < 0 || fabs(cm - pm) > bound) {
		st_set(o, ST_FAIL, "%s of %s: cyctop counts %.0f, perf stat %.0f (%+.2f%%, want "
		       "within %.0f)", k->event, work, cm, pm, 100 * (cm - pm) / pm, bound);
		return false;
	}
	return true;
}

void st_check_perf_software(struct selftest_ctx *c, struct st_outcome *o)
{
	struct perf_text *t = calloc(1, sizeof(*t));
	char err[512];
	char **envp = NULL;

	if (!t) {
		st_set(o, ST_FAIL, "out of memory");
		return;
	}
	if (!c->host.perf[0]) {
		st_set(o, ST_SKIP, "perf is not installed (perf --version did not run)");
		goto out;
	}
	if (st_loop_speed(c, err, sizeof(err)) < 0 ||
	    st_perf_stat(c, "task-clock", "env", t->out, sizeof(t->out), t->stat,
			 sizeof(t->stat), err, sizeof(err)) < 0) {
		st_set(o, ST_FAIL, "%s", err);
		goto out;
	}
	if (!(envp = st_perf_env(c, t->out))) {
		st_set(o, ST_FAIL, "out of memory");
		goto out;
	}
	o->measured[0] = '\0';
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (!check_case(c, &cases[i], envp, t, o->measured, sizeof(o->measured), o))
			goto out;
	snprintf(o->expected, sizeof(o->expected), "within 2%%, plus the preemptions' 4 sd "
		 "(switches), plus the runs' range (task-clock, medians of %d)", CLOCK_RUNS);
	st_set(o, ST_PASS, "software events: %s (%s)", o->measured, c->host.perf);
out:
	free(envp);
	free(t);
}
