/* Test 8, software events (every host has them): cpu-clock and task-clock
 * of the calibration loop agree; page-faults of a program touching N
 * fresh pages are N more than its start-up's; context-switches of a
 * program sleeping N times are N more.  Bounds: a fault or switch of the
 * program's own beyond those (a preemption on a busy host, a page of
 * stack) is allowed 5% (faults) and 10% (switches) plus a few; one run
 * preempted more than the other, 2% plus a few fewer. */
#include "engine/selftest.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NOSAMPLE "1000000000000"
#define FAULT_PAGES 2000UL
#define SLEEPS 500UL
#define CLOCK_BOUND 0.05

/* The count of EVENT over WORK; -1 with one line in ERR. */
static double count_one(struct selftest_ctx *c, const char *event, const char *work, char *err,
			size_t errsz)
{
	char events[96];
	struct st_watch w = { .events = events, .work = work };

	snprintf(events, sizeof(events), "%s/" NOSAMPLE, event);
	struct snapshot *snap = st_watch_run(c, &w, err, errsz);
	if (!snap)
		return -1;
	double v = snap->ev[0].counted ? snap->ev[0].count : 0;
	snapshot_free(snap);
	return v;
}

/* EVENT's count over KIND:N less over KIND:0, in [0.98 N - 4, N (1 +
 * SLACK) + 8] (the run of KIND:0 may be preempted more often than the
 * other); false with why in O. */
static bool known_count(struct selftest_ctx *c, const char *event, const char *kind,
			unsigned long n, double slack, char *text, size_t textsz,
			struct st_outcome *o)
{
	char work[64], err[512];

	snprintf(work, sizeof(work), "%s:0", kind);
	double base = count_one(c, event, work, err, sizeof(err));
	snprintf(work, sizeof(work), "%s:%lu", kind, n);
	double with = base < 0 ? -1 : count_one(c, event, work, err, sizeof(err));
	if (with < 0) {
		st_set(o, ST_FAIL, "%s: %s", event, err);
		return false;
	}
	double d = with - base;
	snprintf(text, textsz, "%s %.0f for %lu", event, d, n);
	double lo = 0.98 * (double)n - 4, hi = (double)n * (1 + slack) + 8;
	if (d < lo || d > hi) {
		st_set(o, ST_FAIL, "%s: %.0f more for %s:%lu than for %s:0, want %.0f to %.0f",
		       event, d, kind, n, kind, lo, hi);
		return false;
	}
	return true;
}

void st_check_software(struct selftest_ctx *c, struct st_outcome *o)
{
	char err[512], work[64], faults[96], switches[96];

	if (st_loop_speed(c, err, sizeof(err)) < 0) {
		st_set(o, ST_FAIL, "%s", err);
		return;
	}
	/* both clocks of one run: CPU time differs run to run on a busy VM */
	snprintf(work, sizeof(work), "loop:%lu", st_iters_for(c, 0.1, 1000000));
	struct st_watch w = { .events = "cpu-clock/" NOSAMPLE ",task-clock/" NOSAMPLE,
			      .work = work };
	struct snapshot *snap = st_watch_run(c, &w, err, sizeof(err));
	if (!snap) {
		st_set(o, ST_FAIL, "%s", err);
		return;
	}
	double cpu = snap->ev[0].count, task = snap->ev[1].count;
	snapshot_free(snap);
	if (!(cpu > 0 && fabs(cpu - task) <= CLOCK_BOUND * task)) {
		st_set(o, ST_FAIL, "cpu-clock %.0f ns, task-clock %.0f ns of one run: not within "
		       "5%%", cpu, task);
		return;
	}
	if (!known_count(c, "page-faults", "faults", FAULT_PAGES, 0.05, faults, sizeof(faults), o) ||
	    !known_count(c, "context-switches", "switches", SLEEPS, 0.10, switches,
			 sizeof(switches), o))
		return;
	snprintf(o->measured, sizeof(o->measured), "cpu-clock %.3f s, task-clock %.3f s; %s; %s",
		 cpu / 1e9, task / 1e9, faults, switches);
	snprintf(o->expected, sizeof(o->expected), "clocks within 5%%; %lu faults (+5%%), %lu "
		 "switches (+10%%)", FAULT_PAGES, SLEEPS);
	st_set(o, ST_PASS, "%s", o->measured);
}
