/*
 * callers [SECONDS]
 * callers recurse [SECONDS]
 * callers signal [SECONDS]
 * callers lib [SECONDS [PLUGIN_PATH]]
 *
 * A known call tree for the call-graph views (SECONDS defaults to 3.0).
 *
 * default: main -> caller_a -> leaf_work and main -> caller_b -> leaf_work.
 *   Each round of main's loop calls caller_a and caller_b once; caller_a
 *   calls leaf_work twice, caller_b once, with the same work per call, so
 *   leaf_work's callers split 2:1 (66.7 % / 33.3 %) and leaf_work has nearly
 *   all the samples.  Whole rounds, until SECONDS of process CPU time.
 * recurse: main -> recurse -> recurse ... (RECURSE_DEPTH frames) ->
 *   leaf_work, again and again until SECONDS of CPU time: stacks far deeper
 *   than an unwinder copies or walks.
 * signal: an ITIMER_REAL timer raises SIGALRM every millisecond while main
 *   sleeps in pause(); the handler on_alarm calls leaf_work, so the work's
 *   stacks go leaf_work <- on_alarm <- the signal trampoline
 *   (__restore_rt) <- pause <- main.  Until SECONDS of wall time.
 * lib: dlopen()s PLUGIN_PATH (default: libplugin.so next to this program)
 *   and main -> call_plugin -> plugin_work (in the library) until SECONDS of
 *   CPU time.
 *
 * Built with -fomit-frame-pointer, so that only DWARF unwinding recovers
 * the callers, and -fno-optimize-sibling-calls (plus a use of each result
 * after the call): a tail call would replace the caller's frame.  Prints
 * nothing; exits 2 on bad arguments, 1 on a failure.
 */
#include "common.h"

#include <dlfcn.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

unsigned long leaf_work(unsigned long iters);
unsigned long caller_a(unsigned long x);
unsigned long caller_b(unsigned long x);
unsigned long recurse(int depth, unsigned long x);
typedef unsigned long (*plugin_fn)(unsigned long);
unsigned long call_plugin(plugin_fn work, unsigned long iters);

/* Iterations per leaf_work call: some 0.3-1 ms. */
#define LEAF_ITERS 300000UL
#define RECURSE_DEPTH 2000
/* Work at the bottom of each recursion, in leaf_work calls: the descent
 * and the return are a small part of the time. */
#define RECURSE_CALLS 20
#define ALARM_USEC 1000
#define PLUGIN_ITERS 200000UL

static volatile unsigned long sink;
static volatile unsigned long alarm_sink;   /* written by the handler only */

/* The bulk of the work: a loop through a volatile, so neither folded nor
 * vectorized, and its cost is proportional to ITERS. */
KERNEL unsigned long leaf_work(unsigned long iters)
{
	volatile unsigned long acc = iters;

	for (unsigned long i = 0; i < iters; i++)
		acc = acc * 3 + i;
	return acc;
}

/* The "+ 1" after each call keeps the call a call, not a jump. */
KERNEL unsigned long caller_a(unsigned long x)
{
	x ^= leaf_work(LEAF_ITERS);
	x ^= leaf_work(LEAF_ITERS);
	return x + 1;
}

KERNEL unsigned long caller_b(unsigned long x)
{
	x ^= leaf_work(LEAF_ITERS);
	return x + 1;
}

KERNEL unsigned long recurse(int depth, unsigned long x)
{
	if (depth <= 1) {
		for (int i = 0; i < RECURSE_CALLS; i++)
			x ^= leaf_work(LEAF_ITERS);
		return x + 1;
	}
	/* xor: GCC turns "f() + c" into a loop with an accumulator */
	return recurse(depth - 1, x) ^ (unsigned long)depth;
}

KERNEL unsigned long call_plugin(plugin_fn work, unsigned long iters)
{
	unsigned long x = work(iters);

	return x + 1;
}

static void run_tree(double seconds)
{
	unsigned long x = 1;

	while (wl_cpu_seconds() < seconds) {
		x = caller_a(x);
		x = caller_b(x);
		sink = x;
	}
}

static void run_recurse(double seconds)
{
	unsigned long x = 1;

	while (wl_cpu_seconds() < seconds) {
		x = recurse(RECURSE_DEPTH, x);
		sink = x;
	}
}

KERNEL static void on_alarm(int sig)
{
	alarm_sink = leaf_work(LEAF_ITERS) + (unsigned long)sig;
}

static int run_signal(double seconds)
{
	struct sigaction sa;
	struct itimerval it = { { 0, ALARM_USEC }, { 0, ALARM_USEC } };
	const struct itimerval off = { { 0, 0 }, { 0, 0 } };
	double end = wl_wall_seconds() + seconds;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGALRM, &sa, NULL) != 0 || setitimer(ITIMER_REAL, &it, NULL) != 0) {
		perror("callers: SIGALRM timer");
		return 1;
	}
	/* a signal between the check and pause() only delays us one period */
	while (wl_wall_seconds() < end)
		pause();
	setitimer(ITIMER_REAL, &off, NULL);
	return 0;
}

/* libplugin.so beside /proc/self/exe (both are in pkglibexecdir, or in
 * the build tree's workloads/). */
static int default_plugin(char *path, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", path, size - 1);
	char *slash;

	if (n <= 0 || (size_t)n >= size - 1)
		return -1;
	path[n] = '\0';
	slash = strrchr(path, '/');
	if (!slash || (size_t)(slash - path) + sizeof("/libplugin.so") > size)
		return -1;
	strcpy(slash, "/libplugin.so");
	return 0;
}

static int run_lib(double seconds, const char *path)
{
	char buf[PATH_MAX];
	plugin_fn work;
	unsigned long x = 0;
	void *handle;

	if (!path) {
		if (default_plugin(buf, sizeof(buf)) != 0) {
			fprintf(stderr, "callers: cannot find libplugin.so beside /proc/self/exe\n");
			return 1;
		}
		path = buf;
	}
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		fprintf(stderr, "callers: dlopen: %s\n", dlerror());
		return 1;
	}
	work = (plugin_fn)dlsym(handle, "plugin_work");
	if (!work) {
		fprintf(stderr, "callers: dlsym(plugin_work): %s\n", dlerror());
		return 1;
	}
	while (wl_cpu_seconds() < seconds)
		x += call_plugin(work, PLUGIN_ITERS);
	sink = x;
	dlclose(handle);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: callers [SECONDS]\n"
			"       callers recurse|signal [SECONDS]\n"
			"       callers lib [SECONDS [PLUGIN_PATH]]\n"
			"(SECONDS: a non-negative number, default 3.0)\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *mode = "tree";
	double seconds = 3.0;
	int a = 1;

	if (argc > 1 && (strcmp(argv[1], "recurse") == 0 || strcmp(argv[1], "signal") == 0 ||
			 strcmp(argv[1], "lib") == 0))
		mode = argv[a++];
	if (argc > a && wl_parse_seconds(argv[a++], &seconds) != 0)
		return usage();
	const char *plugin = strcmp(mode, "lib") == 0 && argc > a ? argv[a++] : NULL;
	if (argc > a)
		return usage();

	if (strcmp(mode, "recurse") == 0)
		run_recurse(seconds);
	else if (strcmp(mode, "signal") == 0)
		return run_signal(seconds);
	else if (strcmp(mode, "lib") == 0)
		return run_lib(seconds, plugin);
	else
		run_tree(seconds);
	return 0;
}
