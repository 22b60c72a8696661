/*
 * faults PAGES [SPIN_SECONDS]
 *
 * main: spin(half), touch_pages(PAGES), spin(half), where half is
 * SPIN_SECONDS / 2 (SPIN_SECONDS defaults to 1.0) of process CPU time.
 *
 * touch_pages maps PAGES fresh anonymous private pages (no MAP_POPULATE,
 * transparent huge pages disabled for the mapping) and stores one byte to
 * each page, so exactly PAGES minor page faults are taken by the store
 * instruction inside touch_pages. It is not instrumented by
 * AddressSanitizer: a shadow-memory check would add faults on the shadow
 * pages to the same function.
 */
#include "common.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

unsigned long touch_pages(size_t pages, size_t page_size);
unsigned long spin(double seconds);

#if defined(__has_attribute)
#if __has_attribute(no_sanitize_address)
#define NO_ASAN __attribute__((no_sanitize_address))
#endif
#endif
#ifndef NO_ASAN
#define NO_ASAN
#endif

static volatile unsigned long sink;

KERNEL NO_ASAN unsigned long touch_pages(size_t pages, size_t page_size)
{
	size_t len = pages * page_size;
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
	for (size_t off = 0; off < len; off += page_size)
		p[off] = 1; /* the one faulting store per page */

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
	fprintf(stderr, "usage: faults PAGES [SPIN_SECONDS]  (PAGES >= 0 integer, SPIN_SECONDS >= 0, default 1.0)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	double seconds = 1.0;
	unsigned long long pages;
	long page_size;
	char *end;

	if (argc < 2 || argc > 3)
		usage();
	if (argv[1][0] < '0' || argv[1][0] > '9')
		usage(); /* strtoull would accept "-1", " 1", "+1" */
	errno = 0;
	pages = strtoull(argv[1], &end, 10);
	if (*end != '\0' || errno != 0)
		usage();
	if (argc == 3 && wl_parse_seconds(argv[2], &seconds) != 0)
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

	sink = spin(seconds / 2);
	sink = touch_pages((size_t)pages, (size_t)page_size);
	sink = spin(seconds / 2);
	return 0;
}
