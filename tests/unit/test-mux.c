/* Multiplexing (engine/mux.c) against a fake kernel, and the runs-mode merge
 * (engine/runs.c).
 *
 * The hand-made session: the Core2 ILP sweep (@ilp: CPU_CLK_UNHALTED.CORE and
 * RS_UOPS_DISPATCHED:c=k:i=1, k = 1..7), encoded for the forced "core" model
 * and planned into 4 groups on its 2 generic counters, "executed" by a fake
 * kernel behind the sys seam: per-CPU fds of one task that migrates between
 * 2 CPUs and sleeps now and then, each fd counting at its event's constant
 * rate while enabled and on its CPU, with the kernel's enabled/running times.
 * The fake honours PERF_EVENT_IOC_ENABLE/DISABLE and checks that no two
 * groups ever count at once.  The scaled counts fed to the ILP computation
 * give the histogram of tests/unit/test-ilp.c (C(1..7) = 400 500 650 800 900 960
 * 1000 per unit of time: bins 400 100 150 150 100 60 40, mean 1.79). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <cmocka.h>

#include "arch/ilp.h"
#include "engine/events.h"
#include "engine/mux.h"
#include "engine/pfm.h"
#include "engine/profile.h"
#include "engine/runs.h"
#include "engine/sys.h"

/* The host libpfm4 encodes for (engine/pfm.h): this process's, made in main. */
static struct pfm_host *pfmh;

#define NCPUS 2
#define FAKE_FD0 1000
#define MAX_FAKE (EVENTS_MAX * NCPUS + NCPUS)
#define TICK_NS 1000000ull  /* the fake advances 1 ms at a time */

static void assert_near(double got, double want, double rel)
{
	if (fabs(got - want) > rel * fabs(want) + 1e-9) {
		fprintf(stderr, "got %.12g, want %.12g\n", got, want);
		fail();
	}
}

/* --- the fake kernel ------------------------------------------------------ */

struct fake_fd {
	int cpu;
	int group;          /* to check the rotation: MUX_ALWAYS or a plan group */
	double rate;        /* per ms while it runs */
	bool enabled;
	uint64_t value, enabled_ns, running_ns;
};

static struct fake_fd fake[MAX_FAKE];
static int n_fake;
static int ioctl_errors;

static struct fake_fd *fake_of(int fd)
{
	return fd >= FAKE_FD0 && fd < FAKE_FD0 + n_fake ? &fake[fd - FAKE_FD0] : NULL;
}

/* No two rotated groups are ever enabled together. */
static bool one_group_enabled(void)
{
	int g = -1;

	for (int i = 0; i < n_fake; i++) {
		if (!fake[i].enabled || fake[i].group == MUX_ALWAYS)
			continue;
		if (g >= 0 && fake[i].group != g)
			return false;
		g = fake[i].group;
	}
	return true;
}

static int fake_ioctl(int fd, unsigned long req, unsigned long arg)
{
	struct fake_fd *f = fake_of(fd);

	(void)arg;
	if (!f || (req != PERF_EVENT_IOC_ENABLE && req != PERF_EVENT_IOC_DISABLE)) {
		ioctl_errors++;
		errno = EINVAL;
		return -1;
	}
	f->enabled = req == PERF_EVENT_IOC_ENABLE;
	if (!one_group_enabled())
		ioctl_errors++;
	return 0;
}

static void fake_tick(int cpu);

/* Set: every read takes a ms of the task's time on CPU 0 (a read pass
 * preempted on a busy host), after the value is read. */
static bool read_takes_time;

static ssize_t fake_read(int fd, void *buf, size_t n)
{
	struct fake_fd *f = fake_of(fd);
	uint64_t v[4];

	if (!f || n < sizeof(v)) {
		errno = EBADF;
		return -1;
	}
	v[0] = f->value;
	v[1] = f->enabled_ns;
	v[2] = f->running_ns;
	v[3] = (uint64_t)fd;  /* the id */
	memcpy(buf, v, sizeof(v));
	if (read_takes_time)
		fake_tick(0);
	return (ssize_t)sizeof(v);
}

/* One ms of the task: on CPU CPU, or asleep (cpu < 0). */
static void fake_tick(int cpu)
{
	if (cpu < 0)
		return;  /* a sleeping task's events accrue no time at all */
	for (int i = 0; i < n_fake; i++) {
		struct fake_fd *f = &fake[i];
		if (!f->enabled)
			continue;
		f->enabled_ns += TICK_NS;
		if (f->cpu != cpu)
			continue;
		f->running_ns += TICK_NS;
		f->value += (uint64_t)f->rate;
	}
}

/* The task's schedule: it migrates every 3 ms and sleeps in 2 ms of every 7,
 * which is not a multiple of any slice, so the groups' coverages differ. */
static int task_cpu(uint64_t ms)
{
	return ms % 7 < 2 ? -1 : (int)(ms / 3 % NCPUS);
}

/* --- the hand-made session ------------------------------------------------ */

/* C(k) per ms of the test-ilp sweep; the cycles reference runs at C(7). */
static const double sweep_rate[7] = { 400, 500, 650, 800, 900, 960, 1000 };

static struct ev_list evl;
static struct plan plan;
static int group[EVENTS_MAX];
static struct mux_fd fds[MAX_FAKE];

/* The cmask of an encoded event (PERFEVTSEL bits 24..31): step k of the
 * sweep, or 0 for CPU_CLK_UNHALTED.CORE. */
static int cmask_of(const struct ev_spec *ev)
{
	return (int)((ev->attr.config >> 24) & 0xff);
}

static double rate_of(const struct ev_spec *ev)
{
	int k = cmask_of(ev);

	assert_true(k >= 0 && k <= 7);
	return k ? sweep_rate[k - 1] : sweep_rate[6];  /* the cycles: every cycle */
}

/* The sweep index (0..6) of event E, -1 for the reference. */
static int sweep_index(const struct ev_spec *ev)
{
	return cmask_of(ev) - 1;
}

static int setup_core(void **state)
{
	char err[256];

	(void)state;
	if (pfm_setup(pfmh, "core", err, sizeof(err)) != 0) {
		fprintf(stderr, "pfm_setup(core): %s\n", err);
		return -1;
	}
	return 0;
}

static int teardown_core(void **state)
{
	char err[256];

	(void)state;
	sys_set_ops(NULL);
	return pfm_setup(pfmh, NULL, err, sizeof(err)) == 0 ? 0 : -1;
}

/* Opens LIST like the session does: one fd per event and CPU, the rotated
 * groups after group 0 disabled; an internal reference when the list lacks
 * it.  Returns the number of groups. */
static int open_session(const char *list)
{
	const struct arch_model *core = model_find("core");
	char err[256];

	assert_non_null(core);
	memset(&evl, 0, sizeof(evl));
	if (events_parse(list, core, pfmh, &evl, err, sizeof(err)) != 0) {
		fprintf(stderr, "events_parse: %s\n", err);
		fail();
	}
	int n_groups = mux_plan(&evl, 0, &plan, group, err, sizeof(err));
	assert_true(n_groups > 1);
	n_fake = 0;
	ioctl_errors = 0;
	for (int e = -1; e < evl.n; e++) {
		if (e < 0 && plan.reference >= 0)
			continue;  /* the user's own reference is one of the events */
		int g = e < 0 || group[e] == SNAP_EVERY_GROUP ? MUX_ALWAYS : group[e];
		for (int c = 0; c < NCPUS; c++) {
			int fd = FAKE_FD0 + n_fake;
			fake[n_fake] = (struct fake_fd){ c, g, e < 0 ? sweep_rate[6] : rate_of(&evl.ev[e]),
							 g == MUX_ALWAYS || g == 0, 0, 0, 0 };
			fds[n_fake++] = (struct mux_fd){ .fd = fd, .ev = e < 0 ? MUX_REFERENCE : e,
							 .group = g, .id = (uint64_t)fd };
		}
	}
	return n_groups;
}

static const struct sys_ops *fake_ops(void)
{
	static struct sys_ops ops;

	ops = *sys_real_ops();
	ops.ioctl = fake_ioctl;
	ops.read = fake_read;
	return &ops;
}

/* Runs the fake task for MS ms with SLICE_MS slices; returns the task time
 * (ms on a CPU). */
static double execute(struct mux *m, int n_groups, unsigned slice_ms, uint64_t ms)
{
	double task_ms = 0;

	mux_start(m, n_groups, slice_ms, 0);
	for (uint64_t t = 0; t < ms; t++) {
		int cpu = task_cpu(t);
		fake_tick(cpu);
		task_ms += cpu >= 0;
		mux_tick(m, fds, n_fake, (t + 1) * TICK_NS);
	}
	return task_ms;
}

/* The scaled sweep C(1..7) and the cycles of the hand-made session. */
static void scaled_sweep(double *sweep, double *cycles, double *coverage_sum, double *raw)
{
	struct mux_totals t[EVENTS_MAX], ref;
	double covered[PLAN_MAX_EVENTS] = { 0 };

	mux_read(fds, n_fake, NCPUS, t, evl.n, &ref);
	const struct mux_totals *r = plan.reference >= 0 ? &t[plan.reference] : &ref;
	*cycles = mux_scale(r, 0).count;
	for (int e = 0; e < evl.n; e++) {
		int k = sweep_index(&evl.ev[e]);
		struct mux_scaled sc = mux_scale(&t[e], e == plan.reference ? 0 : r->enabled);
		assert_true(sc.counted);
		if (group[e] >= 0)
			covered[group[e]] = sc.coverage;
		if (k >= 0) {
			sweep[k] = sc.count;
			raw[k] = t[e].value;
		}
	}
	*coverage_sum = 0;
	for (int g = 0; g < plan.n_groups; g++)
		*coverage_sum += covered[g];
}

static void check_histogram(const double *sweep, double unit)
{
	const double bins[7] = { 400, 100, 150, 150, 100, 60, 40 };
	struct ilp_hist h;

	assert_true(ilp_from_sweep(sweep, 6, &h));
	for (int k = 0; k <= 6; k++)
		assert_near(h.bins[k] / unit, bins[k], 1e-9);
	assert_near(h.total / unit, 1000, 1e-9);
	assert_near(h.mean, 1.79, 1e-9);
	assert_false(h.negative_bin);
}

static void run_ilp(const char *list, unsigned slice_ms)
{
	struct mux m;
	double sweep[7], raw[7], cycles, coverage_sum;

	int n_groups = open_session(list);
	assert_int_equal(n_groups, 4);  /* 7 sweep steps on 2 generic counters */
	sys_set_ops(fake_ops());
	double task_ms = execute(&m, n_groups, slice_ms, 10000);
	scaled_sweep(sweep, &cycles, &coverage_sum, raw);
	sys_set_ops(NULL);

	assert_int_equal(ioctl_errors, 0);
	assert_true(m.rotations >= 10000 / slice_ms - 1);
	/* the reference counted all the task's time; the groups shared it */
	assert_near(cycles, 1000 * task_ms, 1e-12);
	assert_near(coverage_sum, 1, 1e-12);
	check_histogram(sweep, task_ms);
	/* the unscaled values do not give it: the coverages differ */
	struct ilp_hist h;
	bool raw_ok = ilp_from_sweep(raw, 6, &h) && !h.negative_bin &&
		      fabs(h.mean - 1.79) < 1e-3;
	assert_false(raw_ok);
}

/* @ilp carries CPU_CLK_UNHALTED.CORE: the user's reference, shared. */
static void test_ilp_preset(void **state)
{
	(void)state;
	run_ilp("@ilp", 10);
	assert_true(plan.reference >= 0);
}

/* The bare sweep: the reference is added, counting only. */
static void test_ilp_sweep_added_reference(void **state)
{
	(void)state;
	run_ilp("RS_UOPS_DISPATCHED:c=1:i=1,RS_UOPS_DISPATCHED:c=2:i=1,"
		"RS_UOPS_DISPATCHED:c=3:i=1,RS_UOPS_DISPATCHED:c=4:i=1,"
		"RS_UOPS_DISPATCHED:c=5:i=1,RS_UOPS_DISPATCHED:c=6:i=1,"
		"RS_UOPS_DISPATCHED:c=7:i=1", 7);
	assert_int_equal(plan.reference, PLAN_ADDED);
}

/* A read pass that takes time: the groups are read before the reference,
 * so no group's coverage is over its share of the whole (read after the
 * reference, a group ran longer than the time it is divided by). */
static void test_reference_read_last(void **state)
{
	struct mux m;
	double sweep[7], raw[7], cycles, coverage_sum;

	(void)state;
	int n_groups = open_session("@ilp");
	sys_set_ops(fake_ops());
	(void)execute(&m, n_groups, 10, 1000);
	read_takes_time = true;
	scaled_sweep(sweep, &cycles, &coverage_sum, raw);
	read_takes_time = false;
	sys_set_ops(NULL);
	assert_true(coverage_sum <= 1 + 1e-12);
	assert_true(coverage_sum > 0.9);
}

/* --- rotation and scaling ------------------------------------------------- */

static void test_due_and_late_ticks(void **state)
{
	struct mux m;
	struct mux_fd none[1] = { { .fd = FAKE_FD0, .ev = 0, .group = MUX_ALWAYS } };

	(void)state;
	mux_start(&m, 1, 50, 0);
	assert_int_equal(mux_due_ms(&m, 0), -1);  /* one group: never rotates */
	assert_int_equal(mux_tick(&m, none, 1, 1000000000ull), 0);
	mux_start(&m, 3, 0, 0);
	assert_int_equal(m.slice_ns, MUX_SLICE_MS_DEFAULT * 1000000ull);
	assert_int_equal(mux_due_ms(&m, 0), MUX_SLICE_MS_DEFAULT);
	assert_int_equal(mux_due_ms(&m, 99500000ull), 1);  /* rounded up */
	assert_int_equal(mux_tick(&m, none, 1, 99999999ull), 0);
	assert_int_equal(mux_tick(&m, none, 1, 350000000ull), 1);  /* late */
	assert_int_equal(m.current, 1);
	/* the next slice is a whole one from the late tick */
	assert_int_equal(mux_due_ms(&m, 350000000ull), MUX_SLICE_MS_DEFAULT);
	assert_int_equal(mux_tick(&m, none, 1, 450000000ull), 1);
	assert_int_equal(mux_tick(&m, none, 1, 550000000ull), 1);
	assert_int_equal(m.current, 0);  /* round robin */
}

static void test_scale(void **state)
{
	struct mux_totals t = { 300, 800, 400 };
	struct mux_scaled s;

	(void)state;
	/* no reference: the kernel's running / enabled */
	s = mux_scale(&t, 0);
	assert_true(s.counted);
	assert_near(s.coverage, 0.5, 1e-12);
	assert_near(s.count, 600, 1e-12);
	/* a reference enabled 1600: counted a quarter of the time */
	s = mux_scale(&t, 1600);
	assert_near(s.coverage, 0.25, 1e-12);
	assert_near(s.count, 1200, 1e-12);
	/* never ran: not counted, not 0 */
	t = (struct mux_totals){ 0, 0, 0 };
	s = mux_scale(&t, 1600);
	assert_false(s.counted);
	assert_near(s.coverage, 0, 0);
}

/* --- runs mode merge ------------------------------------------------------ */

static struct snapshot *run_snapshot(const struct ev_list *l, int g, uint64_t work,
				     double reference, const int *groups)
{
	struct profile *p = profile_new(l);

	profile_set_plan(p, 2, groups, 0);
	for (int e = 0; e < l->n; e++) {
		bool mine = groups[e] == SNAP_EVERY_GROUP || groups[e] == g;
		if (!mine) {
			profile_set_scaled(p, e, 0, 0, false);
			continue;
		}
		profile_add(p, e, 7, 0x1000, "work", "/bin/w", work * (uint64_t)(e + 1));
		profile_add(p, e, 7, 0x2000, "other", "/bin/w", 1);
		profile_set_scaled(p, e, 10.0 * (double)work, 1, true);
	}
	profile_set_reference(p, "cpu-clock", reference);
	struct snapshot *s = profile_snapshot(p, 1.0, 1.0);
	profile_free(p);
	return s;
}

/* Two groups, two runs each: each event's numbers are the mean of its own
 * group's runs; the shared reference's of all four. */
static void test_merge(void **state)
{
	struct ev_list l;
	char err[256];
	const int groups[3] = { SNAP_EVERY_GROUP, 0, 1 };
	struct snapshot *snaps[4];
	struct snap_run runs[4];
	const uint64_t work[4] = { 100, 300, 1000, 2000 };
	const double refs[4] = { 100, 102, 98, 100 };

	(void)state;
	assert_int_equal(events_parse("cpu-clock,page-faults,context-switches",
				      model_find("perf"), pfmh, &l, err, sizeof(err)), 0);
	for (int k = 0; k < 4; k++) {
		snaps[k] = run_snapshot(&l, k / 2, work[k], refs[k], groups);
		assert_non_null(snaps[k]);
		runs[k] = (struct snap_run){ k / 2, k % 2, NAN };
	}
	struct snapshot *m = runs_merge(snaps, runs, 4, 2);
	assert_non_null(m);
	assert_true(m->runs_mode);
	assert_int_equal(m->n_groups, 2);
	assert_int_equal(m->n_runs, 4);
	/* reference: (102 - 98) / 100 */
	assert_near(m->spread, 0.04, 1e-12);
	assert_near(m->runs[1].reference, 102, 0);
	assert_int_equal(m->runs[3].group, 1);
	assert_string_equal(m->funcs[0].name, "work");
	/* cpu-clock (every run): (100 + 300 + 1000 + 2000) / 4 = 850 */
	assert_int_equal(m->funcs[0].samples[0], 850);
	/* page-faults (group 0): 2 x (100 + 300) / 2 = 400; other: 1 */
	assert_int_equal(m->funcs[0].samples[1], 400);
	assert_int_equal(m->ev[1].samples, 401);
	/* context-switches (group 1): 3 x (1000 + 2000) / 2 = 4500 */
	assert_int_equal(m->funcs[0].samples[2], 4500);
	assert_near(m->ev[2].count, 15000, 1e-12);
	assert_near(m->ev[1].count, 2000, 1e-12);
	for (int e = 0; e < 3; e++) {
		assert_true(m->ev[e].counted);
		assert_near(m->ev[e].coverage, 1, 0);
	}
	assert_int_equal(m->n_modules, 1);
	snapshot_free(m);

	/* only group 0 ran (stopped early): group 1 is not counted */
	m = runs_merge(snaps, runs, 2, 2);
	assert_non_null(m);
	assert_false(m->ev[2].counted);
	assert_near(m->ev[2].coverage, 0, 0);
	assert_int_equal(m->funcs[0].samples[2], 0);
	snapshot_free(m);
	for (int k = 0; k < 4; k++)
		snapshot_free(snaps[k]);
}

static void test_spread(void **state)
{
	const double v[3] = { 90, 100, 110 };
	const double bad[2] = { 1, NAN };
	const double zero[2] = { 0, 0 };

	(void)state;
	assert_near(runs_spread(v, 3), 0.2, 1e-12);
	assert_true(runs_spread(v, 3) > RUNS_UNSTABLE);
	assert_near(runs_spread(v + 1, 1), 0, 0);
	assert_true(isnan(runs_spread(bad, 2)));
	assert_true(isnan(runs_spread(zero, 2)));
}

int main(void)
{
	pfmh = pfm_host_new();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ilp_preset, setup_core, teardown_core),
		cmocka_unit_test_setup_teardown(test_ilp_sweep_added_reference, setup_core,
						teardown_core),
		cmocka_unit_test_setup_teardown(test_reference_read_last, setup_core, teardown_core),
		cmocka_unit_test(test_due_and_late_ticks),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_spread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
