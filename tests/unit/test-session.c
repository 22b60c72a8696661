/* The session against a kernel that refuses: perf_event_open failing with
 * EACCES (perf_event_paranoid, another user's process) or EMFILE gives one
 * line naming the pid or the event and the reason, and leaves no child.
 * And against a kernel that records what it is asked: TopDown's events
 * opened as an Ice Lake's kernel takes them (slots leading a counting group
 * of the metric events). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine/session.h"
#include "engine/session-priv.h"
#include "engine/sys.h"
#include "fake-sysfs.h"

static int refuse_errno;
static int opens;

static int refusing_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			 unsigned long flags)
{
	(void)attr, (void)pid, (void)cpu, (void)group_fd, (void)flags;
	opens++;
	errno = refuse_errno;
	return -1;
}

static struct sys_ops ops;

static void refuse(int e)
{
	ops = *sys_real_ops();
	ops.perf_event_open = refusing_open;
	refuse_errno = e;
	opens = 0;
	sys_set_ops(&ops);
}

static void no_child_left(void)
{
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static void test_attach_eacces(void **state)
{
	struct session_opts o = { .pid = getpid(), .events = "cpu-clock" };
	char err[512] = "";

	(void)state;
	refuse(EACCES);
	assert_null(session_open(&o, err, sizeof(err)));
	sys_set_ops(NULL);
	assert_true(opens >= 1);
	char want[64];
	snprintf(want, sizeof(want), "cannot watch pid %d: ", (int)getpid());
	assert_non_null(strstr(err, want));
	assert_non_null(strstr(err, "perf_event_paranoid"));
	assert_null(strchr(err, '\n'));
}

static void test_launch_eacces(void **state)
{
	char *argv[] = { "/bin/sleep", "30", NULL };
	struct session_opts o = { .argv = argv, .events = "cpu-clock" };
	char err[512] = "";

	(void)state;
	refuse(EACCES);
	assert_null(session_open(&o, err, sizeof(err)));
	sys_set_ops(NULL);
	assert_non_null(strstr(err, "cpu-clock"));
	no_child_left();  /* the launched command never ran, and was reaped */
}

static void test_launch_emfile(void **state)
{
	char *argv[] = { "/bin/sleep", "30", NULL };
	struct session_opts o = { .argv = argv, .events = "cpu-clock,page-faults" };
	char err[512] = "";

	(void)state;
	refuse(EMFILE);
	assert_null(session_open(&o, err, sizeof(err)));
	sys_set_ops(NULL);
	assert_non_null(strstr(err, "cpu-clock"));
	assert_non_null(strcasestr(err, "too many open files"));
	no_child_left();
}

/* --- a kernel that records the opens ------------------------------------ */

struct opened {
	struct perf_event_attr attr;
	int fd, group_fd, cpu;
};
static struct opened rec[256];
static int nrec;

static int recording_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			  unsigned long flags)
{
	(void)pid, (void)flags;
	if (nrec == 256) {
		errno = EMFILE;
		return -1;
	}
	int fd = eventfd(0, EFD_CLOEXEC);  /* a real fd to close, nothing more */
	rec[nrec++] = (struct opened){ *attr, fd, group_fd, cpu };
	return fd;
}

static int recording_ioctl(int fd, unsigned long req, unsigned long arg)
{
	if (req == PERF_EVENT_IOC_ID)
		*(uint64_t *)arg = (uint64_t)fd;
	return 0;
}

static size_t mmap_len;           /* the last ring's */

static void *recording_mmap(size_t len, int prot, int flags, int fd, off_t off)
{
	void *p = NULL;

	(void)prot, (void)flags, (void)fd, (void)off;
	mmap_len = len;
	return posix_memalign(&p, 4096, len) == 0 ? memset(p, 0, len) : NULL;
}

static int recording_munmap(void *p, size_t len)
{
	(void)len;
	free(p);
	return 0;
}

/* An Ice Lake (libpfm4's CPUID view, set in main) whose kernel has its PMU. */
static void record_opens(void)
{
	fake_sysfs_install(fake_sysfs_make("cpu", "icelake\n"));
	ops = fake_sysfs_ops;
	ops.perf_event_open = recording_open;
	ops.ioctl = recording_ioctl;
	ops.mmap = recording_mmap;
	ops.munmap = recording_munmap;
	sys_set_ops(&ops);
	nrec = 0;
}

static const struct opened *opened_as(uint64_t config, int cpu)
{
	for (int i = 0; i < nrec; i++)
		if (rec[i].attr.type == PERF_TYPE_RAW && rec[i].attr.config == config &&
		    rec[i].cpu == cpu)
			return &rec[i];
	return NULL;
}

static void test_topdown_group(void **state)
{
	struct session_opts o = { .pid = getpid(),
				  .events = "cycles,topdown-retiring,slots,topdown-be-bound" };
	char err[512] = "";

	(void)state;
	record_opens();
	struct session *s = session_open(&o, err, sizeof(err));
	if (!s) {
		sys_set_ops(NULL);
		fail_msg("session_open: %s", err);
	}
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	for (int c = 0; c < ncpus; c++) {
		const struct opened *slots = opened_as(0x400, c);
		const struct opened *ret = opened_as(0x8000, c), *be = opened_as(0x8300, c);
		assert_non_null(slots);
		assert_non_null(ret);
		assert_non_null(be);
		/* slots leads, counting; the metric events are its group's, counting */
		assert_int_equal(slots->group_fd, -1);
		assert_int_equal(slots->attr.sample_period, 0);
		assert_int_equal(ret->group_fd, slots->fd);
		assert_int_equal(be->group_fd, slots->fd);
		assert_int_equal(ret->attr.sample_period, 0);
		assert_int_equal(ret->attr.disabled, 0);
		assert_true(slots < ret && slots < be);  /* the leader first */
	}
	/* cycles samples, and opens first: it carries the side-band records */
	assert_int_equal(rec[0].attr.type, PERF_TYPE_HARDWARE);
	assert_true(rec[0].attr.sample_period > 0);
	assert_int_equal(rec[0].attr.mmap, 1);
	session_close(s);  /* its rings were the fake's memory */
	sys_set_ops(NULL);
	fake_sysfs_install(NULL);
}

/* kallsyms as kernel.kptr_restrict shows it to this user: every address 0 */
static FILE *hidden_kallsyms_fopen(const char *path, const char *mode)
{
	static char hidden[] = "0000000000000000 T _stext\n0000000000000000 T schedule\n";

	if (strcmp(path, "/proc/kallsyms") == 0)
		return fmemopen(hidden, strlen(hidden), mode);
	return fake_sysfs_ops.fopen(path, mode);
}

/* Watching the machine, the kernel is much of what is seen: when its
 * functions cannot be named, the session says so at the start, in its
 * one-line notice (the processes view's header, the batch's stderr). */
static void test_syswide_kallsyms_hidden(void **state)
{
	struct session_opts o = { .all_cpus = true, .events = "cpu-clock" };
	char err[512] = "";

	(void)state;
	record_opens();
	ops.fopen = hidden_kallsyms_fopen;
	struct session *s = session_open(&o, err, sizeof(err));
	if (!s) {
		sys_set_ops(NULL);
		fake_sysfs_install(NULL);
		fail_msg("session_open: %s", err);
	}
	char notice[1024];
	snprintf(notice, sizeof(notice), "%s", session_events(s)->notice);
	session_close(s);
	sys_set_ops(NULL);
	fake_sysfs_install(NULL);
	if (!strstr(notice, "kernel functions unnamed: /proc/kallsyms: addresses hidden "
			    "(kernel.kptr_restrict)"))
		fail_msg("notice: '%s'", notice);
	assert_null(strchr(notice, '\n'));
}

/* -a on a busy machine: a ring that overflowed may have lost a process's
 * EXIT.  After lost records the spaces are asked of the kernel: a process
 * gone ends (its space and its row), one alive stays; without lost records
 * nothing is asked. */
static void test_syswide_reap_after_lost(void **state)
{
	struct session_opts o = { .all_cpus = true, .events = "cpu-clock" };
	char err[512] = "";
	pid_t gone = 4194304 + 7;  /* over pid_max's largest value: no such process */

	(void)state;
	record_opens();
	struct session *s = session_open(&o, err, sizeof(err));
	if (!s) {
		sys_set_ops(NULL);
		fake_sysfs_install(NULL);
		fail_msg("session_open: %s", err);
	}
	assert_non_null(space_get(s, gone));
	assert_non_null(space_get(s, getpid()));
	profile_process_fork(s->prof, (uint32_t)gone, 1);
	session_spaces_reap(s);
	bool early = space_find(s, gone)->exited;
	profile_add_lost(s->prof, 3);
	session_spaces_reap(s);
	bool gone_ended = space_find(s, gone)->exited, me_ended = space_find(s, getpid())->exited;
	session_close(s);
	sys_set_ops(NULL);
	fake_sysfs_install(NULL);
	assert_false(early);
	assert_true(gone_ended);
	assert_false(me_ended);
}

/* The unwinder's budget per batch is the watcher's own CPU time: a stack
 * that cost 25 ms of it (over the 20 ms budget) leaves the rest of the
 * batch without stacks, counted as skipped, and the next batch starts
 * afresh.  Time others ran while the watcher waited is not its work: on a
 * loaded machine the wall clock spent the budget in a few stacks. */
static uint64_t fake_cpu_ns;

static uint64_t slow_thread_cpu_ns(void)
{
	return fake_cpu_ns += 25000000;
}

static void test_stack_budget_cpu_time(void **state)
{
	struct session_opts o = { .all_cpus = true, .events = "cpu-clock",
				  .call_graph = CALL_GRAPH_FP };
	char err[512] = "";
	const uint64_t chain[] = { (uint64_t)PERF_CONTEXT_USER, 0x1000 };
	struct rec_sample smp = { .ip = 0x1000, .pid = (uint32_t)getpid(),
				  .tid = (uint32_t)getpid(), .cpumode = PERF_RECORD_MISC_USER,
				  .nr_ips = 2, .ips = chain };
	const struct sym_info leaf = { .name = "leaf", .module = "a.out" };

	(void)state;
	record_opens();
	ops.thread_cpu_ns = slow_thread_cpu_ns;
	struct session *s = session_open(&o, err, sizeof(err));
	if (!s) {
		sys_set_ops(NULL);
		fake_sysfs_install(NULL);
		fail_msg("session_open: %s", err);
	}
	struct space *sp = space_get(s, getpid());
	session_add_stack(s, sp, 0, &smp, &leaf, 1);
	session_add_stack(s, sp, 0, &smp, &leaf, 1);
	uint64_t stacks = s->cg_stacks, skipped = s->stacks_skipped;
	session_round_end(s);
	session_add_stack(s, sp, 0, &smp, &leaf, 1);
	uint64_t stacks_after = s->cg_stacks;
	session_close(s);
	sys_set_ops(NULL);
	fake_sysfs_install(NULL);
	assert_int_equal(stacks, 1);
	assert_int_equal(skipped, 1);
	assert_int_equal(stacks_after, 2);
}

static void test_topdown_without_slots(void **state)
{
	struct session_opts o = { .pid = getpid(), .events = "cycles,topdown-retiring" };
	char err[512] = "";

	(void)state;
	record_opens();
	assert_null(session_open(&o, err, sizeof(err)));
	sys_set_ops(NULL);
	fake_sysfs_install(NULL);
	if (!strstr(err, "RETIRING") || !strstr(err, "slots"))
		fail_msg("%s", err);
	assert_null(strchr(err, '\n'));
}

/* A kernel that refuses what samples the kernel (perf_event_paranoid 2
 * for a user without CAP_PERFMON), recording the rest. */
static int user_only_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			  unsigned long flags)
{
	if (!attr->exclude_kernel) {
		errno = EACCES;
		return -1;
	}
	return recording_open(attr, pid, cpu, group_fd, flags);
}

/* off-cpu opens as the context-switches software event sampled at every
 * switch, with the kernel's switch records and a call chain, beside
 * cpu-clock (which takes the chain too: one format for every fd); where
 * kernel samples are refused, one clause of the notice says what is
 * missing. */
static void test_offcpu_attrs(void **state)
{
	struct session_opts o = { .pid = getpid(), .events = "cpu-clock,off-cpu" };
	char err[512] = "", notice[1024];
	int cs = 0, clock = 0;

	(void)state;
	for (int refuse_kernel = 0; refuse_kernel < 2; refuse_kernel++) {
		record_opens();
		if (refuse_kernel)
			ops.perf_event_open = user_only_open;
		struct session *s = session_open(&o, err, sizeof(err));
		if (!s) {
			sys_set_ops(NULL);
			fake_sysfs_install(NULL);
			fail_msg("session_open: %s", err);
		}
		snprintf(notice, sizeof(notice), "%s", session_events(s)->notice);
		for (int i = 0; i < nrec; i++) {
			const struct perf_event_attr *a = &rec[i].attr;
			assert_int_equal(a->type, PERF_TYPE_SOFTWARE);
			assert_true(a->sample_type & PERF_SAMPLE_CALLCHAIN);
			if (a->config == PERF_COUNT_SW_CONTEXT_SWITCHES) {
				cs++;
				assert_int_equal(a->sample_period, 1);
				assert_int_equal(a->context_switch, 1);
				assert_int_equal(a->exclude_kernel, refuse_kernel);
				assert_int_equal(a->exclude_callchain_kernel, refuse_kernel);
			} else {
				clock++;
				assert_int_equal(a->config, PERF_COUNT_SW_CPU_CLOCK);
				assert_int_equal(a->context_switch, 0);
			}
		}
		session_close(s);
		sys_set_ops(NULL);
		fake_sysfs_install(NULL);
		assert_int_equal(strstr(notice, "off-cpu: no switch-out stacks") != NULL,
				 refuse_kernel);
		assert_null(strchr(notice, '\n'));
	}
	assert_true(cs > 0);
	assert_true(clock > 0);
}

static uid_t fake_euid;
static long fake_ncpus;

static uid_t fake_geteuid(void)
{
	return fake_euid;
}

static long fake_ncpus_fn(void)
{
	return fake_ncpus;
}

/* The dwarf ring with -m not given: 4 MB a CPU for root on up to 4 CPUs,
 * 2 MB on more (root's locked memory has no limit); 1 MB for another
 * user, whose rings must fit in perf_event_mlock_kb and ulimit -l.  And -m
 * is taken as given. */
static void test_dwarf_ring_size(void **state)
{
	const struct { uid_t euid; long ncpus; size_t pages, want; } cases[] = {
		{ 0, 2, 0, 1024 }, { 0, 4, 0, 1024 }, { 0, 8, 0, 512 }, { 1000, 2, 0, 256 },
		{ 0, 2, 128, 128 }, { 1000, 2, 1024, 1024 },
	};
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct session_opts o = { .pid = getpid(), .events = "cpu-clock",
					  .ring_pages = cases[i].pages };
		char err[512] = "";
		assert_int_equal(session_parse_call_graph("dwarf", &o, err, sizeof(err)), 0);
		record_opens();
		ops.geteuid = fake_geteuid;
		ops.ncpus = fake_ncpus_fn;
		fake_euid = cases[i].euid;
		fake_ncpus = cases[i].ncpus;
		mmap_len = 0;
		struct session *s = session_open(&o, err, sizeof(err));
		if (!s) {
			sys_set_ops(NULL);
			fake_sysfs_install(NULL);
			fail_msg("session_open: %s", err);
		}
		session_close(s);
		sys_set_ops(NULL);
		fake_sysfs_install(NULL);
		assert_int_equal(mmap_len, (cases[i].want + 1) * page);
	}
}

/* off-cpu without -g or -m takes the dwarf ring too: a sample and two
 * switch records at every switch lost 3,117 records of a 3 s pipe
 * ping-pong on the 64-page default.  -m is taken as given. */
static void test_offcpu_ring_size(void **state)
{
	const struct { uid_t euid; size_t pages, want; } cases[] = {
		{ 0, 0, 1024 }, { 1000, 0, 256 }, { 0, 64, 64 },
	};
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct session_opts o = { .pid = getpid(), .events = "cpu-clock,off-cpu",
					  .ring_pages = cases[i].pages };
		char err[512] = "";
		record_opens();
		ops.geteuid = fake_geteuid;
		ops.ncpus = fake_ncpus_fn;
		fake_euid = cases[i].euid;
		fake_ncpus = 2;
		mmap_len = 0;
		struct session *s = session_open(&o, err, sizeof(err));
		if (!s) {
			sys_set_ops(NULL);
			fake_sysfs_install(NULL);
			fail_msg("session_open: %s", err);
		}
		session_close(s);
		sys_set_ops(NULL);
		fake_sysfs_install(NULL);
		assert_int_equal(mmap_len, (cases[i].want + 1) * page);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attach_eacces),
		cmocka_unit_test(test_launch_eacces),
		cmocka_unit_test(test_launch_emfile),
		cmocka_unit_test(test_topdown_group),
		cmocka_unit_test(test_dwarf_ring_size),
		cmocka_unit_test(test_syswide_kallsyms_hidden),
		cmocka_unit_test(test_syswide_reap_after_lost),
		cmocka_unit_test(test_stack_budget_cpu_time),
		cmocka_unit_test(test_topdown_without_slots),
		cmocka_unit_test(test_offcpu_attrs),
		cmocka_unit_test(test_offcpu_ring_size),
	};
	setenv("LIBPFM_FORCE_PMU", "icl", 1);  /* the CPUID libpfm4 sees */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
