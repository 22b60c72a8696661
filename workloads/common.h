/* Shared helpers for the cyctop workload programs (header-only). */
#ifndef CYCTOP_WORKLOADS_COMMON_H
#define CYCTOP_WORKLOADS_COMMON_H

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/*
 * KERNEL marks a function whose name must show up, as itself, in a
 * profile: never inlined, never cloned (no foo.constprop.0 / foo.isra.0 /
 * foo.part.0 symbols), never merged with an identical twin by GCC's
 * identical code folding. GCC spells all of that "noipa"; elsewhere
 * fall back to noinline.
 */
#if defined(__has_attribute)
#if __has_attribute(noipa)
#define KERNEL __attribute__((noipa))
#endif
#endif
#ifndef KERNEL
#define KERNEL __attribute__((noinline))
#endif

/* Seconds of CPU time consumed by the whole process so far. */
static inline double wl_cpu_seconds(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) {
		perror("clock_gettime(CLOCK_PROCESS_CPUTIME_ID)");
		exit(1);
	}
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Monotonic wall-clock seconds. */
static inline double wl_wall_seconds(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
		perror("clock_gettime(CLOCK_MONOTONIC)");
		exit(1);
	}
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Parse a finite, non-negative number of seconds (at most a year). */
static inline int wl_parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || !isfinite(v) ||
	    v < 0.0 || v > 366.0 * 86400.0)
		return -1;
	*out = v;
	return 0;
}

#endif
