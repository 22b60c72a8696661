/* bench/unwind [DEPTH [ITERATIONS]]: stacks unwound per second.
 *
 * One sample of our own stack, DEPTH frames of a recursion (built without
 * frame pointers) above main and libc's start, captured as
 * PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER would give it
 * (tests/unit/unwind-capture.h), is unwound ITERATIONS times with the caches warm
 * (libunwind's rules by IP, the open ELF files), then with every cache
 * flushed before each unwind (cold: files opened, .eh_frame_hdr and FDEs
 * parsed again).  Prints "frames N warm-stacks-per-s X us-per-stack Y
 * cold-stacks-per-s Z us-per-stack W". */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "engine/unwind.h"
#include "tests/unit/unwind-capture.h"

#define MAX_FRAMES 256

static struct uw_capture *cap;

static __attribute__((noinline, noclone)) int deep(int d)
{
	int r;

	if (d == 0) {
		UW_CAPTURE(cap);
		uw_capture_finish(cap, UW_STACK_MAX);
		return 1;
	}
	r = deep(d - 1);
	__asm__ volatile("" : "+r"(r));  /* no tail recursion: one frame per level */
	return r + 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Stacks per second over N unwinds; FLUSH empties every cache first. */
static double rate(struct unwinder *u, struct uw_maps *maps, long n, bool flush, size_t *frames)
{
	uint64_t ips[MAX_FRAMES];
	bool truncated;
	double t0 = now_s();

	for (long i = 0; i < n; i++) {
		if (flush)
			unwinder_flush(u);
		*frames = unwind_sample(u, &cap->sample, uw_maps_find, maps, ips, MAX_FRAMES,
					&truncated);
	}
	return (double)n / (now_s() - t0);
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 16;
	long iters = argc > 2 ? atol(argv[2]) : 200000;
	struct uw_maps *maps = calloc(1, sizeof(*maps));
	struct unwinder *u = unwinder_new();
	size_t frames = 0, cold_frames = 0;
	double warm, cold;

	cap = calloc(1, sizeof(*cap));
	if (depth < 0 || iters <= 0 || !maps || !u || !cap) {
		fprintf(stderr, "usage: unwind [DEPTH [ITERATIONS]]\n");
		return 2;
	}
	deep(depth);
	uw_maps_load(maps);
	rate(u, maps, 1, false, &frames);          /* warm the caches */
	warm = rate(u, maps, iters, false, &frames);
	cold = rate(u, maps, iters / 100 + 1, true, &cold_frames);
	if (frames < (size_t)depth || cold_frames != frames) {
		fprintf(stderr, "unwind: %zu frames warm, %zu cold, for depth %d\n", frames,
			cold_frames, depth);
		return 1;
	}
	printf("frames %zu warm-stacks-per-s %.0f us-per-stack %.2f "
	       "cold-stacks-per-s %.0f us-per-stack %.1f\n",
	       frames, warm, 1e6 / warm, cold, 1e6 / cold);
	unwinder_free(u);
	uw_maps_free(maps);
	free(maps);
	free(cap);
	return 0;
}
