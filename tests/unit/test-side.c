/* The counters beside the events (engine/side.c) on a host without a PMU,
 * through a fake kernel behind the sys seam: which counters, how each is
 * opened (counting only, inherited, enabled at exec), how their totals
 * are read and scaled, and that a counter that cannot be opened is left
 * out whole. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/events.h"
#include "engine/pfm.h"
#include "engine/side.h"
#include "fake-sysfs.h"

/* The host libpfm4 encodes for (engine/pfm.h): this process's, made in main. */
static struct pfm_host *pfmh;

#define FAKE_FD0 1000
#define MAX_OPENS 64

static const struct arch_model *host;
static struct sys_ops ops;
static struct {
	struct perf_event_attr attr;
	pid_t pid;
	int cpu;
	bool closed;
} opened[MAX_OPENS];
static int nopens;
static uint64_t refuse_config = UINT64_MAX;  /* opens of this config fail ... */
static int refuse_after = 0;                  /* ... after this many succeeded */
static int refused_so_far;
static bool kernel_refused;                   /* EACCES unless exclude_kernel */

static int fake_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		     unsigned long flags)
{
	(void)group_fd, (void)flags;
	if (kernel_refused && !attr->exclude_kernel) {
		errno = EACCES;
		return -1;
	}
	if (attr->config == refuse_config && refused_so_far++ >= refuse_after) {
		errno = EMFILE;
		return -1;
	}
	if (nopens == MAX_OPENS) {
		errno = EMFILE;
		return -1;
	}
	opened[nopens].attr = *attr;
	opened[nopens].pid = pid;
	opened[nopens].cpu = cpu;
	opened[nopens].closed = false;
	return FAKE_FD0 + nopens++;
}

/* fd k counted 100 (k + 1) events over 200 ns enabled, 100 running */
static ssize_t fake_read(int fd, void *buf, size_t n)
{
	uint64_t v[3] = { 100 * (uint64_t)(fd - FAKE_FD0 + 1), 200, 100 };

	if (fd < FAKE_FD0 || fd >= FAKE_FD0 + nopens || n < sizeof(v))
		return sys_real_ops()->read(fd, buf, n);
	memcpy(buf, v, sizeof(v));
	return sizeof(v);
}

static int fake_close(int fd)
{
	if (fd < FAKE_FD0 || fd >= FAKE_FD0 + nopens)
		return sys_real_ops()->close(fd);
	assert_false(opened[fd - FAKE_FD0].closed);
	opened[fd - FAKE_FD0].closed = true;
	return 0;
}

static int group_setup(void **state)
{
	char err[256];

	(void)state;
	fake_sysfs_install(fake_sysfs_make(NULL, NULL));
	if (pfm_setup(pfmh, NULL, err, sizeof(err)) != 0) {
		fprintf(stderr, "pfm_setup: %s\n", err);
		return -1;
	}
	host = events_host_model(pfmh);
	return host && !pfm_host_hardware(pfmh) ? 0 : -1;
}

static int fake_kernel(void **state)
{
	(void)state;
	ops = fake_sysfs_ops;
	ops.perf_event_open = fake_open;
	ops.read = fake_read;
	ops.close = fake_close;
	sys_set_ops(&ops);
	nopens = 0;
	refuse_config = UINT64_MAX;
	refuse_after = 0;
	refused_so_far = 0;
	kernel_refused = false;
	return 0;
}

static int real_kernel(void **state)
{
	(void)state;
	sys_set_ops(&fake_sysfs_ops);
	return 0;
}

static void parse(const char *list, struct ev_list *l)
{
	char err[256] = "";

	if (events_parse(list, host, pfmh, l, err, sizeof(err)) != 0) {
		fprintf(stderr, "events_parse(\"%s\"): %s\n", list, err);
		fail();
	}
}

static int all_closed(void)
{
	for (int i = 0; i < nopens; i++)
		if (!opened[i].closed)
			return 0;
	return 1;
}

/* The software tree's counters that sampling cpu-clock does not give,
 * those already among the events left out. */
static void test_specs(void **state)
{
	static const char *const want[] = { "page-faults", "minor-faults", "major-faults",
					    "context-switches", "cpu-migrations" };
	struct ev_spec specs[SNAP_SIDE_MAX];
	struct ev_list l;

	(void)state;
	parse("cpu-clock", &l);
	assert_int_equal(side_specs(&l, specs, SNAP_SIDE_MAX), 5);
	for (int i = 0; i < 5; i++) {
		assert_string_equal(specs[i].name, want[i]);
		assert_int_equal(specs[i].attr.type, PERF_TYPE_SOFTWARE);
	}
	parse("cpu-clock,page-faults,context-switches", &l);
	assert_int_equal(side_specs(&l, specs, SNAP_SIDE_MAX), 3);
	assert_string_equal(specs[0].name, "minor-faults");
	assert_string_equal(specs[1].name, "major-faults");
	assert_string_equal(specs[2].name, "cpu-migrations");
	/* MAX bounds them */
	parse("cpu-clock", &l);
	assert_int_equal(side_specs(&l, specs, 2), 2);
}

/* A launched command: one fd per counter and thread on every CPU (cpu -1),
 * counting only, inherited, disabled until the exec enables it; the totals
 * scaled by enabled / running, summed over the threads. */
static void test_launched(void **state)
{
	const pid_t tids[2] = { 42, 43 };
	struct snapshot *snap = calloc(1, sizeof(*snap));
	struct ev_list l;

	(void)state;
	assert_non_null(snap);
	parse("cpu-clock", &l);
	struct side_counters *sc = side_open(&l, tids, 2, NULL, 2, false, true);
	assert_non_null(sc);
	assert_int_equal(nopens, 10);
	for (int i = 0; i < nopens; i++) {
		const struct perf_event_attr *a = &opened[i].attr;
		assert_int_equal(opened[i].pid, tids[i % 2]);
		assert_int_equal(opened[i].cpu, -1);
		assert_int_equal(a->type, PERF_TYPE_SOFTWARE);
		assert_int_equal(a->sample_period, 0);
		assert_false(a->freq);
		assert_int_equal(a->sample_type, 0);
		assert_int_equal(a->read_format, PERF_FORMAT_TOTAL_TIME_ENABLED |
						 PERF_FORMAT_TOTAL_TIME_RUNNING);
		assert_true(a->inherit);
		assert_true(a->disabled);
		assert_true(a->enable_on_exec);
	}
	assert_int_equal(opened[0].attr.config, PERF_COUNT_SW_PAGE_FAULTS);
	assert_int_equal(opened[6].attr.config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	side_read(sc, snap);
	assert_int_equal(snap->n_side, 5);
	/* counter i: fds 2i and 2i + 1, counting 100 (2i + 1) and 100 (2i + 2),
	 * each x 2 (enabled 200 / running 100) */
	for (int i = 0; i < 5; i++)
		assert_true(fabs(snap->side[i].count - 2.0 * 100 * (4 * i + 3)) < 1e-9);
	assert_string_equal(snap->side[3].name, "context-switches");
	side_close(sc);
	assert_true(all_closed());
	free(snap);
}

/* System-wide: pid -1 on each CPU watched, nothing to inherit, counting
 * from the start. */
static void test_system_wide(void **state)
{
	const bool cpu_on[3] = { true, false, true };
	const pid_t all = -1;
	struct ev_list l;

	(void)state;
	parse("cpu-clock", &l);
	struct side_counters *sc = side_open(&l, &all, 1, cpu_on, 3, true, false);
	assert_non_null(sc);
	assert_int_equal(nopens, 10);
	for (int i = 0; i < nopens; i++) {
		assert_int_equal(opened[i].pid, -1);
		assert_int_equal(opened[i].cpu, i % 2 ? 2 : 0);
		assert_false(opened[i].attr.inherit);
		assert_false(opened[i].attr.disabled);
		assert_false(opened[i].attr.enable_on_exec);
	}
	side_close(sc);
	assert_true(all_closed());
}

/* A counter refused on its second thread (out of file descriptors): its
 * first fd is closed again, it is left out, the others stay. */
static void test_counter_left_out(void **state)
{
	const pid_t tids[2] = { 42, 43 };
	struct snapshot *snap = calloc(1, sizeof(*snap));
	struct ev_list l;

	(void)state;
	assert_non_null(snap);
	refuse_config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	refuse_after = 1;
	parse("cpu-clock", &l);
	struct side_counters *sc = side_open(&l, tids, 2, NULL, 2, false, true);
	assert_non_null(sc);
	int live = 0;
	for (int i = 0; i < nopens; i++) {
		if (opened[i].attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES)
			assert_true(opened[i].closed);
		live += !opened[i].closed;
	}
	assert_int_equal(live, 8);
	side_read(sc, snap);
	assert_int_equal(snap->n_side, 4);
	for (int i = 0; i < snap->n_side; i++)
		assert_string_not_equal(snap->side[i].name, "context-switches");
	side_close(sc);
	assert_true(all_closed());
	free(snap);
}

/* The kernel refused (perf_event_paranoid 2): user space only, as perf. */
static void test_user_space_fallback(void **state)
{
	const pid_t tid = 42;
	struct ev_list l;

	(void)state;
	kernel_refused = true;
	parse("cpu-clock", &l);
	struct side_counters *sc = side_open(&l, &tid, 1, NULL, 2, false, false);
	assert_non_null(sc);
	assert_int_equal(nopens, 5);
	for (int i = 0; i < nopens; i++)
		assert_true(opened[i].attr.exclude_kernel);
	side_close(sc);
}

/* Nothing opens: no side counters at all (NULL), nothing left open; reading
 * none leaves the snapshot without them. */
static void test_none(void **state)
{
	const pid_t tid = 42;
	struct snapshot *snap = calloc(1, sizeof(*snap));
	struct ev_list l;

	(void)state;
	assert_non_null(snap);
	parse("cpu-clock", &l);
	nopens = MAX_OPENS;  /* the fake kernel is out of file descriptors */
	assert_null(side_open(&l, &tid, 1, NULL, 2, false, true));
	side_read(NULL, snap);
	assert_int_equal(snap->n_side, 0);
	side_close(NULL);
	free(snap);
}

int main(void)
{
	pfmh = pfm_host_new();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_specs, fake_kernel, real_kernel),
		cmocka_unit_test_setup_teardown(test_launched, fake_kernel, real_kernel),
		cmocka_unit_test_setup_teardown(test_system_wide, fake_kernel, real_kernel),
		cmocka_unit_test_setup_teardown(test_counter_left_out, fake_kernel, real_kernel),
		cmocka_unit_test_setup_teardown(test_user_space_fallback, fake_kernel,
						real_kernel),
		cmocka_unit_test_setup_teardown(test_none, fake_kernel, real_kernel),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
