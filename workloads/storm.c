/*
 * storm SECONDS [PLUGIN_PATH]
 *
 * A thread storm: for SECONDS of wall time (and at least MIN_THREADS
 * threads), the main thread starts BATCH short-lived threads at a time,
 * each running storm_work for a few milliseconds of CPU (longer than
 * cpu-clock's default 1 ms period: an inherited counter starts its period
 * afresh in every new thread, so threads shorter than it are never
 * sampled), and joins them.
 * With PLUGIN_PATH, while each batch runs the main thread CYCLES times
 * dlopen()s the library, calls its plugin_work once and dlclose()s it
 * again, so the library is mapped and unmapped hundreds of times.  Prints
 * the number of threads started and of dlopen/dlclose cycles to stderr
 * (stdout stays clean for cyctop's batch output), exits 0.
 */
#include "common.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#define BATCH 16
#define MIN_THREADS 400
#define THREAD_ITERS 1000000UL
#define PLUGIN_ITERS 100000UL
#define CYCLES 8

void *storm_work(void *arg);

typedef unsigned long (*plugin_fn)(unsigned long);

static volatile unsigned long sink;

KERNEL void *storm_work(void *arg)
{
	unsigned long x = (unsigned long)(uintptr_t)arg | 1;

	for (unsigned long i = 0; i < THREAD_ITERS; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		x ^= x >> 31;
	}
	sink = x;
	return NULL;
}

static unsigned long plugin_cycle(const char *path)
{
	void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	plugin_fn work;
	unsigned long x;

	if (handle == NULL) {
		fprintf(stderr, "storm: dlopen: %s\n", dlerror());
		exit(1);
	}
	work = (plugin_fn)dlsym(handle, "plugin_work");
	if (work == NULL) {
		fprintf(stderr, "storm: dlsym(plugin_work): %s\n", dlerror());
		exit(1);
	}
	x = work(PLUGIN_ITERS);
	if (dlclose(handle) != 0) {
		fprintf(stderr, "storm: dlclose: %s\n", dlerror());
		exit(1);
	}
	return x;
}

int main(int argc, char **argv)
{
	pthread_t tid[BATCH];
	double seconds, end;
	unsigned long started = 0, cycles = 0, x = 0;
	int err;

	if (argc < 2 || argc > 3 || wl_parse_seconds(argv[1], &seconds) != 0 ||
	    (argc == 3 && argv[2][0] == '\0')) {
		fprintf(stderr, "usage: storm SECONDS [PLUGIN_PATH]  (SECONDS >= 0)\n");
		return 2;
	}

	end = wl_wall_seconds() + seconds;
	while (wl_wall_seconds() < end || started < MIN_THREADS) {
		for (int i = 0; i < BATCH; i++) {
			err = pthread_create(&tid[i], NULL, storm_work,
					     (void *)(uintptr_t)(started + (unsigned long)i));
			if (err != 0) {
				fprintf(stderr, "storm: pthread_create: %s\n", strerror(err));
				return 1;
			}
		}
		for (int i = 0; argc == 3 && i < CYCLES; i++) {
			x += plugin_cycle(argv[2]);
			cycles++;
		}
		for (int i = 0; i < BATCH; i++) {
			err = pthread_join(tid[i], NULL);
			if (err != 0) {
				fprintf(stderr, "storm: pthread_join: %s\n", strerror(err));
				return 1;
			}
		}
		started += BATCH;
	}
	sink = x;
	fprintf(stderr, "storm: %lu threads, %lu dlopen cycles\n", started, cycles);
	return 0;
}
