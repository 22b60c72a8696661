/* Tests 4 and 5: the group planner and multiplexing against the kernel.
 * Test 4 plans every preset meant for the host's model and watches each
 * plan group alone (runs mode's path): every event of a group must count
 * the whole time it is enabled (running = enabled), or the planner put
 * more into a group than the PMU schedules together (perf's silent
 * "<not counted>" or scaled counts).  Test 5 counts the calibration loop
 * with more event groups than a time slice holds (--counters 1): the
 * estimate of instructions within 2% of its count alone, and each
 * coverage the kernel's own time running over the reference's time
 * enabled, read through the seam. */
#include "engine/selftest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/preset.h"
#include "engine/events.h"
#include "engine/mux.h"
#include "engine/sys.h"

#define NOSAMPLE "1000000000000"
#define GROUP_ITERS 1000000UL
#define MUX_BOUND 0.02
#define COVERAGE_BOUND 1e-3

/* The number of groups EVENTS is planned into; -1 with one line in ERR. */
static int preset_groups(struct selftest_ctx *c, const char *events, char *err, size_t errsz)
{
	struct ev_list *evl = calloc(1, sizeof(*evl));
	struct plan *plan = calloc(1, sizeof(*plan));
	int group[EVENTS_MAX], n = -1;

	if (!evl || !plan)
		snprintf(err, errsz, "out of memory");
	else if (events_parse(events, c->model, c->pfm, evl, err, errsz) == 0)
		n = mux_plan(evl, 0, plan, group, err, errsz);
	free(evl);
	free(plan);
	return n;
}

/* Watches group G of EVENTS alone: every event of it must have run the
 * whole time.  False with why in O. */
static bool group_whole(struct selftest_ctx *c, const char *events, int g,
			struct st_outcome *o)
{
	char err[512], work[64];
	struct st_watch w = { .events = events, .work = work, .one_group = true, .group = g };

	snprintf(work, sizeof(work), "loop:%lu", GROUP_ITERS);
	struct snapshot *snap = st_watch_run(c, &w, err, sizeof(err));
	if (!snap) {
		st_set(o, ST_FAIL, "%s, group %d: %s", events, g + 1, err);
		return false;
	}
	bool ok = true;
	for (int e = 0; e < snap->n_events && ok; e++) {
		const struct snap_event *ev = &snap->ev[e];
		if (ev->group != g && ev->group != SNAP_EVERY_GROUP)
			continue;
		if (!ev->counted || ev->coverage < 1 - 1e-6) {
			st_set(o, ST_FAIL, "%s, group %d of %d: %s ran %.1f%% of its time "
			       "(the PMU did not schedule the group whole)", events, g + 1,
			       snap->n_groups, ev->name, 100 * (ev->counted ? ev->coverage : 0));
			ok = false;
		}
	}
	snapshot_free(snap);
	return ok;
}

/* Plans EVENTS and watches each of its groups alone; NAMES gets
 * "LABEL:GROUPS".  False with why in O. */
static bool set_whole(struct selftest_ctx *c, const char *events, const char *label,
		      char *names, size_t namesz, int *groups, struct st_outcome *o)
{
	char err[512];
	int n = preset_groups(c, events, err, sizeof(err));

	if (n < 0) {
		st_set(o, ST_FAIL, "%s: %s", events, err);
		return false;
	}
	for (int g = 0; g < n; g++)
		if (!group_whole(c, events, g, o))
			return false;
	*groups += n;
	size_t len = strlen(names);
	snprintf(names + len, namesz - len, "%s%s:%d", len ? " " : "", label, n);
	return true;
}

/* Beside the presets, more events than the PMU has counters, which the
 * planner must split: on arm64, raw events QEMU and every PMUv3 take. */
#if defined(__aarch64__)
#define MORE_EVENTS "instructions:u,r01:u,r02:u,r03:u,r04:u,r05:u,r23:u,r24:u"
#endif

/* The counters fault: all but one generic counter of every CPU held by
 * pinned CPU-wide events (as the NMI watchdog holds one), so that a group
 * of two generic events no longer fits.  The fds into HELD (-1 ended);
 * false with why in ERR (CPU-wide events need perf_event_paranoid <= 0). */
#define HELD_MAX 256
static bool hold_counters(const struct selftest_ctx *c, int *held, char *err, size_t errsz)
{
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE, .size = sizeof(a),
				     .config = PERF_COUNT_HW_INSTRUCTIONS, .pinned = 1 };
	long ncpus = sys_ncpus();
	int n = 0;

	for (long cpu = 0; cpu < ncpus; cpu++)
		for (int k = 0; k + 1 < c->host.counters && n + 1 < HELD_MAX; k++) {
			int fd = sys_perf_event_open(&a, -1, (int)cpu, -1, PERF_FLAG_FD_CLOEXEC);
			if (fd < 0) {
				snprintf(err, errsz, "fault counters: a CPU-wide event does not open "
					 "(perf_event_paranoid %d)", c->host.paranoid);
				held[n] = -1;
				return false;
			}
			held[n++] = fd;
		}
	held[n] = -1;
	return true;
}

static void release_counters(int *held)
{
	for (int i = 0; held[i] >= 0; i++)
		sys_close(held[i]);
	held[0] = -1;
}

static void check_sets(struct selftest_ctx *c, struct st_outcome *o)
{
	const struct preset *p;
	char events[80], names[256] = "";
	int sets = 0, groups = 0;

	for (size_t i = 0; (p = preset_at(i)) != NULL; i++) {
		if (!preset_for_model(p, c->model) || strstr(names, p->name))
			continue;
		snprintf(events, sizeof(events), "@%s", p->name);
		if (!set_whole(c, events, p->name, names, sizeof(names), &groups, o))
			return;
		sets++;
	}
#ifdef MORE_EVENTS
	if (!set_whole(c, MORE_EVENTS, "8 events", names, sizeof(names), &groups, o))
		return;
	sets++;
#endif
	if (!sets) {
		st_set(o, ST_SKIP, "no preset is meant for model %s", c->model->name);
		return;
	}
	snprintf(o->measured, sizeof(o->measured), "%d groups of %d event sets (%s)", groups,
		 sets, names);
	snprintf(o->expected, sizeof(o->expected), "every event of a group running all its time");
	st_set(o, ST_PASS, "%s scheduled whole", o->measured);
}

void st_check_groups(struct selftest_ctx *c, struct st_outcome *o)
{
	int held[HELD_MAX] = { -1 };
	char err[256];

	if (!c->hardware) {
		st_set(o, ST_SKIP, "%s", ST_NO_PMU);
		return;
	}
	if (selftest_fault(c, "counters") && !hold_counters(c, held, err, sizeof(err))) {
		release_counters(held);
		st_set(o, ST_FAIL, "%s", err);
		return;
	}
	check_sets(c, o);
	release_counters(held);
}

/* --- test 5 ---------------------------------------------------------------- */

/* The kernel's coverage of the event of attr TYPE/CONFIG: its time running
 * over the reference's (the event enabled longest) time enabled, per fd. */
static double kernel_coverage(uint32_t type, uint64_t config)
{
	const struct st_kernel_times *t = st_kernel_times();
	double ref = 0, running = -1;

	for (int i = 0; i < t->n; i++) {
		if (t->ev[i].fds && t->ev[i].enabled / t->ev[i].fds > ref)
			ref = t->ev[i].enabled / t->ev[i].fds;
		if (t->ev[i].type == type && t->ev[i].config == config)
			running = t->ev[i].running;
	}
	return running >= 0 && ref > 0 ? running / ref : NAN;
}

/* instructions and a second event on more generic counters than one
 * slice has (--counters 1): perf's branches on x86, a raw Armv8 event
 * elsewhere (QEMU takes it, and counts 0).  Instructions with the
 * kernel's (user space only where perf_event_paranoid forbids them): a
 * program's start-up spends much of its time in the kernel (page faults),
 * where instructions:u stands still while its slice runs, and a rate that
 * is not uniform over the task's time biases the estimate; all
 * instructions retire at a steadier rate. */
static const char *mux_events(void)
{
#if defined(__aarch64__)
	return "instructions/" NOSAMPLE ",r01:u/" NOSAMPLE;
#else
	return "instructions/" NOSAMPLE ",branches:u/" NOSAMPLE;
#endif
}

static bool coverages_match(const struct snapshot *snap, const struct ev_list *evl,
			    struct st_outcome *o)
{
	for (int e = 0; e < snap->n_events; e++) {
		double k = kernel_coverage(evl->ev[e].attr.type, evl->ev[e].attr.config);
		if (!(fabs(snap->ev[e].coverage - k) <= COVERAGE_BOUND)) {
			st_set(o, ST_FAIL, "%s: cyctop's coverage %.4f, the kernel's time running "
			       "over the reference's enabled %.4f", snap->ev[e].name,
			       snap->ev[e].coverage, k);
			return false;
		}
	}
	return true;
}

/* Test 5 without a PMU: cyctop's own time slicing of software events
 * (the kernel never multiplexes those; cyctop rotates the groups with
 * PERF_EVENT_IOC_DISABLE/ENABLE as on a PMU).  cpu-clock, the "perf"
 * model's reference, counts all the time in every group; task-clock and
 * page-faults take turns (--counters 1).  task-clock's estimate (value
 * over coverage) within 2% of cpu-clock's count of the same run (a
 * task's two clocks: 78.10 and 77.88 ms in one run here; separate runs of
 * the loop differ by tens of percent on a loaded VM), its coverage below
 * 0.9 (it was rotated out), and each coverage the kernel's. */
static void mux_software(struct selftest_ctx *c, struct st_outcome *o, struct ev_list *evl)
{
	char err[512], work[64];
	struct st_watch w = { .events = "cpu-clock/" NOSAMPLE ",task-clock/" NOSAMPLE
			      ",page-faults/" NOSAMPLE, .work = work, .max_counters = 1,
			      .slice_ms = 5 };
	struct snapshot *snap = NULL;

	if (st_loop_speed(c, err, sizeof(err)) < 0 ||
	    events_parse(w.events, c->model, c->pfm, evl, err, sizeof(err)) < 0 ||
	    (snprintf(work, sizeof(work), "loop:%lu", st_iters_for(c, 0.2, 10000000)),
	     !(snap = st_watch_run(c, &w, err, sizeof(err))))) {
		st_set(o, ST_FAIL, "%s", err);
		return;
	}
	double want = snap->ev[0].count, got = snap->ev[1].count, cov = snap->ev[1].coverage;
	snprintf(o->measured, sizeof(o->measured), "task-clock %.0f ns estimated (coverage "
		 "%.3f, %d groups), cpu-clock %.0f ns counted throughout", got, cov,
		 snap->n_groups, want);
	snprintf(o->expected, sizeof(o->expected), "within 2%%; coverage below 0.9; coverages "
		 "the kernel's");
	if (snap->n_groups < 2 || !(cov < 0.9))
		st_set(o, ST_FAIL, "%s: %d groups, task-clock's coverage %.3f (nothing rotated)",
		       w.events, snap->n_groups, cov);
	else if (!(fabs(got - want) <= MUX_BOUND * want))
		st_set(o, ST_FAIL, "task-clock estimated %.0f ns from coverage %.3f, cpu-clock "
		       "counted %.0f ns (%+.2f%%)", got, cov, want, 100 * (got - want) / want);
	else if (coverages_match(snap, evl, o))
		st_set(o, ST_PASS, "software events: %s", o->measured);
	snapshot_free(snap);
}

void st_check_mux(struct selftest_ctx *c, struct st_outcome *o)
{
	char err[512], work[64];
	struct ev_list *evl = calloc(1, sizeof(*evl));
	struct st_watch alone = { .events = "instructions/" NOSAMPLE, .work = work };
	struct st_watch mux = { .events = mux_events(), .work = work, .max_counters = 1,
				.slice_ms = 5 };
	struct snapshot *exact = NULL, *snap = NULL;

	if (!evl) {
		st_set(o, ST_FAIL, "out of memory");
		return;
	}
	if (!c->hardware) {
		mux_software(c, o, evl);
		goto out;
	}
	if (st_loop_speed(c, err, sizeof(err)) < 0 ||
	    events_parse(mux.events, c->model, c->pfm, evl, err, sizeof(err)) < 0) {
		st_set(o, ST_FAIL, "%s", err);
		goto out;
	}
	/* 40 slices of 5 ms: a uniform loop's estimate is unbiased however the
	 * slices fall */
	snprintf(work, sizeof(work), "loop:%lu", st_iters_for(c, 0.2, 10000000));
	if (!(exact = st_watch_run(c, &alone, err, sizeof(err))) ||
	    !(snap = st_watch_run(c, &mux, err, sizeof(err)))) {
		st_set(o, exact ? ST_FAIL : ST_SKIP, "%s", err);
		goto out;
	}
	double want = exact->ev[0].count, got = snap->ev[0].count;
	snprintf(o->measured, sizeof(o->measured), "%s %.0f estimated (coverage "
		 "%.3f, %d groups), %.0f counted alone", snap->ev[0].name, got,
		 snap->ev[0].coverage, snap->n_groups, want);
	snprintf(o->expected, sizeof(o->expected), "within 2%%; coverages the kernel's");
	if (snap->n_groups < 2)
		st_set(o, ST_FAIL, "%s: %d group (nothing multiplexed)", mux.events, snap->n_groups);
	else if (!(fabs(got - want) <= MUX_BOUND * want))
		st_set(o, ST_FAIL, "%s estimated %.0f from coverage %.3f, counted alone %.0f "
		       "(%+.2f%%)", snap->ev[0].name, got, snap->ev[0].coverage, want,
		       100 * (got - want) / want);
	else if (coverages_match(snap, evl, o))
		st_set(o, ST_PASS, "%s", o->measured);
out:
	snapshot_free(exact);
	snapshot_free(snap);
	free(evl);
}
