/*
 * faults PAGES [SPIN_SECONDS [spread]]
 *
 * main: spin(half), touch_pages(PAGES), spin(half), where half is
 * SPIN_SECONDS / 2 (SPIN_SECONDS defaults to 1.0) of process CPU time;
 * then says on stderr the CPU time each took ("faults: spin S s,
 * touch_pages T s of CPU").
 * With "spread", touch_pages instead touches its pages at an even pace over
 * SPIN_SECONDS of process CPU time (pace() burns the time between two
 * pages), so the faults are spread over the whole run instead of a burst:
 * what a multiplexed, time-sliced page-fault count needs to be estimated
 * well (tests/e2e/live-mux.sh).
 *
 * touch_pages maps PAGES fresh anonymous private pages (no MAP_POPULATE,
 * transparent huge pages disabled for the mapping) and stores one byte to
 * each page, so exactly PAGES minor page faults are taken by the store
 * instruction inside touch_pages.
 */
#include "common.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

unsigned long touch_pages(size_t pages, size_t page_size, double seconds);
unsigned long spin(double seconds);

static volatile unsigned long sink;

unsigned long pace(double until);

/* Burns process CPU time until UNTIL (wl_cpu_seconds); takes no faults. */
KERNEL unsigned long pace(double until)
{
	unsigned long x = 1;

	while (wl_cpu_seconds() < until)
		for (int i = 0; i < 1000; i++)
			x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

/* SECONDS > 0: the I-th page is touched at I / PAGES x SECONDS of CPU time
 * from the start. */
KERNEL unsigned long touch_pages(size_t pages, size_t page_size, double seconds)
{
	size_t len = pages * page_size;
	double start = wl_cpu_seconds();
	volatile unsigned char *p;
	void *map;

	if (pages == 0)
		return 0;
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		perror("faults: mmap");
		exit(1);
	}
	/* Best effort: fails harmlessly on kernels without THP. */
	(void)madvise(map, len, MADV_NOHUGEPAGE);

	p = map;
	for (size_t i = 0, off = 0; off < len; i++, off += page_size) {
		if (seconds > 0)
			sink = pace(start + seconds * (double)i / (double)pages);
		p[off] = 1; /* the one faulting store per page */
	}

	if (munmap(map, len) != 0) {
		perror("faults: munmap");
		exit(1);
	}
	return pages;
}

KERNEL unsigned long spin(double seconds)
{
	double end = wl_cpu_seconds() + seconds;
	unsigned long x = 1;

	while (wl_cpu_seconds() < end) {
		for (unsigned long i = 0; i < 100000; i++) {
			x = x * 6364136223846793005UL + 1442695040888963407UL;
			x ^= x >> 29;
		}
	}
	return x;
}

static void usage(void)
{
	fprintf(stderr, "usage: faults PAGES [SPIN_SECONDS [spread]]  (PAGES >= 0 integer, SPIN_SECONDS >= 0, default 1.0)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	double seconds = 1.0;
	unsigned long long pages;
	long page_size;
	char *end;

	bool spread = argc == 4 && strcmp(argv[3], "spread") == 0;

	if (argc < 2 || argc > 4 || (argc == 4 && !spread))
		usage();
	if (argv[1][0] < '0' || argv[1][0] > '9')
		usage(); /* strtoull would accept "-1", " 1", "+1" */
	errno = 0;
	pages = strtoull(argv[1], &end, 10);
	if (*end != '\0' || errno != 0)
		usage();
	if (argc >= 3 && wl_parse_seconds(argv[2], &seconds) != 0)
		usage();

	page_size = sysconf(_SC_PAGESIZE);
	if (page_size <= 0) {
		perror("faults: sysconf(_SC_PAGESIZE)");
		return 1;
	}
	if (pages > SIZE_MAX / (size_t)page_size) {
		fprintf(stderr, "faults: PAGES too large\n");
		return 2;
	}

	if (spread && pages > 0) {
		sink = touch_pages((size_t)pages, (size_t)page_size, seconds);
		return 0;
	}
	double t0 = wl_cpu_seconds();
	sink = spin(seconds / 2);
	double t1 = wl_cpu_seconds();
	sink = touch_pages((size_t)pages, (size_t)page_size, 0);
	double t2 = wl_cpu_seconds();
	sink = spin(seconds / 2);
	double t3 = wl_cpu_seconds();
	/* what the faults cost depends on the machine's load: said, so that a
	 * test knows the share spin's samples should have */
	fprintf(stderr, "faults: spin %.6f s, touch_pages %.6f s of CPU\n",
		(t1 - t0) + (t3 - t2), t2 - t1);
	return 0;
}
