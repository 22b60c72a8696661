/*
 * offcpu MODE [SECONDS]
 *
 * Waits of a known kind, each measured by the program itself
 * (CLOCK_MONOTONIC read around the blocking call) for the off-CPU tests
 * (tests/e2e/offcpu.sh).  MODE:
 *   sleep     spin 5 ms (spin_work), sleep 5 ms (sleep_wait: nanosleep)
 *   mutex     one thread holds a mutex 8 ms at a time (hold_work), another
 *             waits for it (lock_wait: pthread_mutex_lock; both threads'
 *             waits are counted)
 *   pipe      a child writes a byte every 5 ms; the parent reads them
 *             (pipe_wait: read), then waits for the child (waitpid)
 *   fsync     writes 4 KB to offcpu-fsync.tmp in the current directory and
 *             fsyncs it (fsync_wait: fsync), again and again
 *   runnable  four threads pinned to one CPU spin (run_spin); each gap of
 *             10 us or more between two clock reads is time it was kept
 *             off the CPU
 *   pingpong  a byte back and forth with a child over two pipes; calls is
 *             the round trips (the cost of watching switches)
 * for SECONDS of wall time (default 2).  At the end it prints one line to
 * stderr: "offcpu MODE waited_ns=N calls=N": the time its blocking calls
 * took (runnable: the gaps) and how many there were.  Exits 2 on bad
 * arguments, 1 on a failure.
 */

#include "common.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static _Atomic uint64_t waited_ns, calls;
static double seconds = 2.0;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void count(uint64_t t0)
{
	atomic_fetch_add(&waited_ns, now_ns() - t0);
	atomic_fetch_add(&calls, 1);
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* Spins for MS milliseconds of wall time. */
KERNEL static void spin_work(double ms)
{
	uint64_t end = now_ns() + (uint64_t)(ms * 1e6);

	while (now_ns() < end)
		;
}

KERNEL static void sleep_wait(void)
{
	struct timespec ts = { 0, 5000000 };
	uint64_t t0 = now_ns();

	nanosleep(&ts, NULL);
	count(t0);
}

static void run_sleep(void)
{
	double end = wl_wall_seconds() + seconds;

	while (wl_wall_seconds() < end) {
		spin_work(5);
		sleep_wait();
	}
}

static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool stop, held;

static void nap(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

KERNEL static void lock_wait(void)
{
	uint64_t t0 = now_ns();

	pthread_mutex_lock(&mtx);
	count(t0);
}

/* Holds the mutex 8 ms, then lets it go for a millisecond (asleep: the
 * waiter takes it then). */
KERNEL static void hold_work(void)
{
	lock_wait();
	atomic_store(&held, true);
	spin_work(8);
	atomic_store(&held, false);
	pthread_mutex_unlock(&mtx);
	nap(1000000);
}

static void *holder(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop))
		hold_work();
	return NULL;
}

/* The waiter asks for the mutex once the holder has it (napping until
 * then: sleep, not lock), and lets it go at once. */
static void run_mutex(void)
{
	pthread_t t;
	double end = wl_wall_seconds() + seconds;

	if (pthread_create(&t, NULL, holder, NULL))
		die("pthread_create");
	while (wl_wall_seconds() < end) {
		while (!atomic_load(&held))
			nap(200000);
		lock_wait();
		pthread_mutex_unlock(&mtx);
	}
	atomic_store(&stop, true);
	pthread_join(t, NULL);
}

KERNEL static ssize_t pipe_wait(int fd, char *c)
{
	uint64_t t0 = now_ns();
	ssize_t n = read(fd, c, 1);

	count(t0);
	return n;
}

static void run_pipe(void)
{
	int fds[2];
	char c;
	pid_t pid;

	if (pipe(fds) < 0)
		die("pipe");
	if ((pid = fork()) < 0)
		die("fork");
	if (pid == 0) {
		struct timespec ts = { 0, 5000000 };
		double end = wl_wall_seconds() + seconds;
		close(fds[0]);
		while (wl_wall_seconds() < end) {
			nanosleep(&ts, NULL);
			if (write(fds[1], "x", 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	close(fds[1]);
	while (pipe_wait(fds[0], &c) == 1)
		;
	uint64_t t0 = now_ns();
	int st;
	if (waitpid(pid, &st, 0) < 0)
		die("waitpid");
	count(t0);
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* fsync also runs on the CPU (the journal, the bios it submits: a fifth
 * to a quarter of its time on this VM): only
 * its time off the CPU is a wait, its thread's CPU time taken out. */
KERNEL static void fsync_wait(int fd)
{
	uint64_t t0 = now_ns(), c0 = thread_cpu_ns();

	if (fsync(fd) < 0)
		die("fsync");
	count(t0 + (thread_cpu_ns() - c0));
}

static void run_fsync(void)
{
	char buf[4096];
	const char *path = "offcpu-fsync.tmp";
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	double end = wl_wall_seconds() + seconds;

	if (fd < 0)
		die(path);
	memset(buf, 'f', sizeof(buf));
	for (int i = 0; wl_wall_seconds() < end; i++) {
		/* a new block each time, rewritten from the start now and then */
		if (pwrite(fd, buf, sizeof(buf), (off_t)(i % 256) * 4096) != sizeof(buf))
			die("pwrite");
		fsync_wait(fd);
	}
	close(fd);
	unlink(path);
}

/* A byte back and forth between two processes over two pipes: two
 * context switches a round trip (bench/run's switch-heavy target). */
static void run_pingpong(void)
{
	int ab[2], ba[2];
	char c = 'x';
	pid_t pid;

	if (pipe(ab) < 0 || pipe(ba) < 0)
		die("pipe");
	if ((pid = fork()) < 0)
		die("fork");
	if (pid == 0) {
		close(ab[1]);   /* its read ends when the parent closes its end */
		close(ba[0]);
		while (read(ab[0], &c, 1) == 1 && write(ba[1], &c, 1) == 1)
			;
		_exit(0);
	}
	close(ab[0]);
	close(ba[1]);
	double end = wl_wall_seconds() + seconds;
	while (wl_wall_seconds() < end) {
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			die("ping");
		atomic_fetch_add(&calls, 1);
	}
	close(ab[1]);
	waitpid(pid, NULL, 0);
}

static int one_cpu;

KERNEL static void *run_spin(void *arg)
{
	cpu_set_t set;
	uint64_t gaps = 0, n = 0, last, end;

	(void)arg;
	CPU_ZERO(&set);
	CPU_SET(one_cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		die("sched_setaffinity");
	last = now_ns();
	end = last + (uint64_t)(seconds * 1e9);
	while (last < end) {
		/* a microsecond of work between two reads: a preemption lands
		 * here, not in the vDSO's clock_gettime (whose frames the
		 * unwinder may not step out of) */
		for (volatile int i = 0; i < 1000; i++)
			;
		uint64_t t = now_ns();
		if (t - last >= 10000) {
			gaps += t - last;
			n++;
		}
		last = t;
	}
	atomic_fetch_add(&waited_ns, gaps);
	atomic_fetch_add(&calls, n);
	return NULL;
}

static void run_runnable(void)
{
	pthread_t t[4];

	one_cpu = sched_getcpu() < 0 ? 0 : sched_getcpu();
	for (int i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, run_spin, NULL))
			die("pthread_create");
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
}

int main(int argc, char **argv)
{
	static const struct { const char *name; void (*run)(void); } modes[] = {
		{ "sleep", run_sleep }, { "mutex", run_mutex }, { "pipe", run_pipe },
		{ "fsync", run_fsync }, { "runnable", run_runnable }, { "pingpong", run_pingpong },
	};

	if (argc < 2 || argc > 3 || (argc == 3 && wl_parse_seconds(argv[2], &seconds) < 0)) {
		fprintf(stderr, "usage: offcpu sleep|mutex|pipe|fsync|runnable|pingpong [SECONDS]\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(argv[1], modes[i].name) == 0) {
			modes[i].run();
			fprintf(stderr, "offcpu %s waited_ns=%llu calls=%llu\n", argv[1],
				(unsigned long long)atomic_load(&waited_ns),
				(unsigned long long)atomic_load(&calls));
			return 0;
		}
	fprintf(stderr, "offcpu: unknown mode '%s'\n", argv[1]);
	return 2;
}
