/*
 * threads READY_FILE GO_FILE PLUGIN_PATH [SECONDS]
 *
 * 1. main_spin burns a little CPU in the main thread;
 * 2. READY_FILE is created (atomically, containing the pid);
 * 3. the main thread polls for GO_FILE, sleeping 10 ms between checks
 *    (giving up with exit 1 after 5 minutes);
 * 4. two threads start running thread_work, PLUGIN_PATH is dlopen()ed and
 *    the main thread calls its plugin_work in a loop for SECONDS (default
 *    2.0) of wall time; then the threads are stopped and joined, the
 *    plugin dlclose()d, and the program exits 0.
 *
 * A test attaches after READY_FILE appears and then creates GO_FILE, so
 * the two threads and the library only appear after the attach.
 */
#include "common.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NTHREADS 2
#define PRE_READY_SPIN 0.05 /* seconds of CPU in main_spin before READY */
#define GO_TIMEOUT 300.0    /* seconds to wait for GO_FILE */
#define PLUGIN_ITERS 200000UL

unsigned long main_spin(double seconds);
void *thread_work(void *arg);

typedef unsigned long (*plugin_fn)(unsigned long);

static atomic_int stop_flag;
static volatile unsigned long sink;

KERNEL unsigned long main_spin(double seconds)
{
	double end = wl_cpu_seconds() + seconds;
	unsigned long x = 7;

	while (wl_cpu_seconds() < end) {
		for (unsigned long i = 0; i < 100000; i++) {
			x = x * 6364136223846793005UL + 1442695040888963407UL;
			x ^= x >> 29;
		}
	}
	return x;
}

KERNEL void *thread_work(void *arg)
{
	unsigned long x = (unsigned long)(uintptr_t)arg | 1;

	while (!atomic_load_explicit(&stop_flag, memory_order_relaxed)) {
		for (unsigned long i = 0; i < 100000; i++) {
			x = x * 6364136223846793005UL + 1442695040888963407UL;
			x ^= x >> 33;
		}
	}
	sink = x;
	return NULL;
}

static int file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* Create path with the pid as content; appears complete (via rename). */
static void write_ready(const char *path)
{
	size_t n = strlen(path) + sizeof(".tmp");
	char *tmp = malloc(n);
	char buf[32];
	int fd, len;

	if (tmp == NULL) {
		fprintf(stderr, "threads: out of memory\n");
		exit(1);
	}
	snprintf(tmp, n, "%s.tmp", path);
	len = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, buf, (size_t)len) != len || close(fd) != 0 ||
	    rename(tmp, path) != 0) {
		fprintf(stderr, "threads: cannot create %s: %s\n", path, strerror(errno));
		exit(1);
	}
	free(tmp);
}

static void wait_for_go(const char *path)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	double deadline = wl_wall_seconds() + GO_TIMEOUT;

	while (!file_exists(path)) {
		if (wl_wall_seconds() > deadline) {
			fprintf(stderr, "threads: %s did not appear within %.0f s\n", path, GO_TIMEOUT);
			exit(1);
		}
		nanosleep(&tick, NULL);
	}
}

int main(int argc, char **argv)
{
	pthread_t tid[NTHREADS];
	double seconds = 2.0, end;
	unsigned long x = 0;
	plugin_fn work;
	void *handle;
	int err;

	if (argc < 4 || argc > 5 || argv[1][0] == '\0' || argv[2][0] == '\0' ||
	    argv[3][0] == '\0' || (argc == 5 && wl_parse_seconds(argv[4], &seconds) != 0)) {
		fprintf(stderr, "usage: threads READY_FILE GO_FILE PLUGIN_PATH [SECONDS]  (SECONDS >= 0, default 2.0)\n");
		return 2;
	}

	sink = main_spin(PRE_READY_SPIN);
	write_ready(argv[1]);
	wait_for_go(argv[2]);

	for (int i = 0; i < NTHREADS; i++) {
		err = pthread_create(&tid[i], NULL, thread_work, (void *)(uintptr_t)(i + 1));
		if (err != 0) {
			fprintf(stderr, "threads: pthread_create: %s\n", strerror(err));
			return 1;
		}
	}

	handle = dlopen(argv[3], RTLD_NOW | RTLD_LOCAL);
	if (handle == NULL) {
		fprintf(stderr, "threads: dlopen: %s\n", dlerror());
		return 1;
	}
	work = (plugin_fn)dlsym(handle, "plugin_work");
	if (work == NULL) {
		fprintf(stderr, "threads: dlsym(plugin_work): %s\n", dlerror());
		return 1;
	}

	end = wl_wall_seconds() + seconds;
	while (wl_wall_seconds() < end)
		x += work(PLUGIN_ITERS);
	sink = x;

	atomic_store(&stop_flag, 1);
	for (int i = 0; i < NTHREADS; i++) {
		err = pthread_join(tid[i], NULL);
		if (err != 0) {
			fprintf(stderr, "threads: pthread_join: %s\n", strerror(err));
			return 1;
		}
	}
	if (dlclose(handle) != 0) {
		fprintf(stderr, "threads: dlclose: %s\n", dlerror());
		return 1;
	}
	return 0;
}
