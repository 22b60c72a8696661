/*
 * cyctop-demo [NAME] [SECONDS]
 *
 * Small kernels from the papers cyctop is built on, each a separate
 * non-inlined function so that it shows up under its own name:
 *
 *   matmul-classic   matmul_classic   textbook i-j-k double matrix multiply
 *                                     (N = 512: column walk of B, 4 KiB
 *                                     stride, cache and DTLB misses)
 *   matmul-improved  matmul_improved  the same with loop order i-k-j
 *   pointer-chase    chase            dependent loads around a randomly
 *                                     permuted ring of 64-byte nodes (32 MiB)
 *   gather           gather_plain     a[i] = b[idx[i]], random idx, b 32 MiB
 *   gather-prefetch  gather_prefetch  the same with a software prefetch
 *                                     16 iterations ahead
 *   exp-loop         exp_loop         a[i] = exp(b[i]) (ILP; time mostly in
 *                                     libm's exp called from exp_loop)
 *   all              (default)        each of the above in turn for
 *                                     SECONDS/6 of CPU time; with SECONDS 0
 *                                     (the default for all) forever, 2 s each
 *
 * For a single NAME, SECONDS defaults to 5; 0 means run until killed.
 * SECONDS is process CPU time spent in the kernel, data set-up excluded.
 * If CYCTOP_DEMO_VERBOSE is set, one line per kernel start goes to stderr.
 */
#include "common.h"

#include <stdint.h>
#include <string.h>

void matmul_classic(size_t row0, size_t rows);
void matmul_improved(size_t row0, size_t rows);
void *chase(void *start, unsigned long steps);
void gather_plain(double *restrict a, const double *restrict b,
		  const uint32_t *restrict idx, size_t n);
void gather_prefetch(double *restrict a, const double *restrict b,
		     const uint32_t *restrict idx, size_t n);
void exp_loop(double *restrict a, const double *restrict b, size_t n);

#define MM_N 512                        /* 3 x 2 MiB matrices */
#define MM_ROWS 8                       /* rows per kernel call */
#define CHASE_NODES (512UL * 1024)      /* x 64 B = 32 MiB ring */
#define CHASE_STEPS (256UL * 1024)      /* dependent loads per call */
#define GATHER_SRC (4UL * 1024 * 1024)  /* b: 4 Mi doubles = 32 MiB */
#define GATHER_N (1024UL * 1024)        /* gathers per call */
#define PREFETCH_DIST 16
#define EXP_N (16UL * 1024)             /* 2 x 128 KiB, cache resident */
#define ALL_FOREVER_SLICE 2.0           /* s per kernel for "all" with 0 */

struct node {
	struct node *next;
	char pad[64 - sizeof(struct node *)];
};

static volatile double dsink;
static volatile uintptr_t psink;

static double *mm_a, *mm_b, *mm_c;
static struct node *ring;
static void *chase_pos;
static double *g_a, *g_b;
static uint32_t *g_idx;
static double *e_a, *e_b;

/* ---- kernels --------------------------------------------------------- */

KERNEL void matmul_classic(size_t row0, size_t rows)
{
	const size_t n = MM_N;

	for (size_t i = row0; i < row0 + rows; i++)
		for (size_t j = 0; j < n; j++) {
			double sum = 0.0;

			for (size_t k = 0; k < n; k++)
				sum += mm_a[i * n + k] * mm_b[k * n + j];
			mm_c[i * n + j] = sum;
		}
}

KERNEL void matmul_improved(size_t row0, size_t rows)
{
	const size_t n = MM_N;

	for (size_t i = row0; i < row0 + rows; i++) {
		for (size_t j = 0; j < n; j++)
			mm_c[i * n + j] = 0.0;
		for (size_t k = 0; k < n; k++) {
			double aik = mm_a[i * n + k];

			for (size_t j = 0; j < n; j++)
				mm_c[i * n + j] += aik * mm_b[k * n + j];
		}
	}
}

KERNEL void *chase(void *start, unsigned long steps)
{
	struct node *p = start;

	while (steps--)
		p = p->next;
	return p;
}

KERNEL void gather_plain(double *restrict a, const double *restrict b,
			 const uint32_t *restrict idx, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = b[idx[i]];
}

/* idx has n + PREFETCH_DIST valid entries, so idx[i + 16] is in bounds. */
KERNEL void gather_prefetch(double *restrict a, const double *restrict b,
			    const uint32_t *restrict idx, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		__builtin_prefetch(&b[idx[i + PREFETCH_DIST]]);
		a[i] = b[idx[i]];
	}
}

KERNEL void exp_loop(double *restrict a, const double *restrict b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = exp(b[i]);
}

/* ---- set-up (once per kernel, outside the timed part) ---------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void *xmalloc(size_t size)
{
	void *p = malloc(size);

	if (p == NULL) {
		fprintf(stderr, "cyctop-demo: out of memory\n");
		exit(1);
	}
	return p;
}

static void setup_matmul(void)
{
	const size_t nn = (size_t)MM_N * MM_N;

	if (mm_a != NULL)
		return;
	mm_a = xmalloc(nn * sizeof(double));
	mm_b = xmalloc(nn * sizeof(double));
	mm_c = xmalloc(nn * sizeof(double));
	for (size_t i = 0; i < nn; i++) {
		mm_a[i] = (double)(i % 7) * 0.25;
		mm_b[i] = (double)(i % 5) * 0.5;
		mm_c[i] = 0.0;
	}
}

static void setup_chase(void)
{
	uint32_t *perm;

	if (ring != NULL)
		return;
	ring = xmalloc(CHASE_NODES * sizeof(*ring));
	perm = xmalloc(CHASE_NODES * sizeof(*perm));
	for (uint32_t i = 0; i < CHASE_NODES; i++)
		perm[i] = i;
	/* Sattolo's algorithm: a random cyclic permutation, one ring. */
	for (size_t i = CHASE_NODES - 1; i > 0; i--) {
		size_t j = (size_t)(rng_next() % i);
		uint32_t t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (size_t i = 0; i < CHASE_NODES; i++) {
		ring[i].next = &ring[perm[i]];
		memset(ring[i].pad, 0, sizeof(ring[i].pad));
	}
	free(perm);
	chase_pos = &ring[0];
}

static void setup_gather(void)
{
	if (g_b != NULL)
		return;
	g_b = xmalloc(GATHER_SRC * sizeof(double));
	g_a = xmalloc(GATHER_N * sizeof(double));
	g_idx = xmalloc((GATHER_N + PREFETCH_DIST) * sizeof(uint32_t));
	for (size_t i = 0; i < GATHER_SRC; i++)
		g_b[i] = (double)i;
	for (size_t i = 0; i < GATHER_N; i++)
		g_a[i] = 0.0;
	for (size_t i = 0; i < GATHER_N + PREFETCH_DIST; i++)
		g_idx[i] = (uint32_t)(rng_next() % GATHER_SRC);
}

static void setup_exp(void)
{
	if (e_b != NULL)
		return;
	e_a = xmalloc(EXP_N * sizeof(double));
	e_b = xmalloc(EXP_N * sizeof(double));
	for (size_t i = 0; i < EXP_N; i++) {
		e_b[i] = -1.0 + 2.0 * (double)i / (double)EXP_N;
		e_a[i] = 0.0;
	}
}

static void cleanup(void)
{
	free(mm_a);
	free(mm_b);
	free(mm_c);
	free(ring);
	free(g_a);
	free(g_b);
	free(g_idx);
	free(e_a);
	free(e_b);
}

/* ---- one call of each kernel, a few ms of work ----------------------- */

static size_t mm_row;

static void step_matmul_classic(void)
{
	matmul_classic(mm_row, MM_ROWS);
	mm_row = (mm_row + MM_ROWS) % MM_N;
	dsink = mm_c[mm_row * MM_N];
}

static void step_matmul_improved(void)
{
	matmul_improved(mm_row, MM_ROWS);
	mm_row = (mm_row + MM_ROWS) % MM_N;
	dsink = mm_c[mm_row * MM_N];
}

static void step_chase(void)
{
	chase_pos = chase(chase_pos, CHASE_STEPS);
	psink = (uintptr_t)chase_pos;
}

static void step_gather_plain(void)
{
	gather_plain(g_a, g_b, g_idx, GATHER_N);
	dsink = g_a[GATHER_N / 2];
}

static void step_gather_prefetch(void)
{
	gather_prefetch(g_a, g_b, g_idx, GATHER_N);
	dsink = g_a[GATHER_N / 2];
}

static void step_exp(void)
{
	exp_loop(e_a, e_b, EXP_N);
	dsink = e_a[EXP_N / 3];
}

static const struct demo {
	const char *name;
	void (*setup)(void);
	void (*step)(void);
} demos[] = {
	{ "matmul-classic", setup_matmul, step_matmul_classic },
	{ "matmul-improved", setup_matmul, step_matmul_improved },
	{ "pointer-chase", setup_chase, step_chase },
	{ "gather", setup_gather, step_gather_plain },
	{ "gather-prefetch", setup_gather, step_gather_prefetch },
	{ "exp-loop", setup_exp, step_exp },
};
#define NDEMOS (sizeof(demos) / sizeof(demos[0]))

/* Run one kernel for seconds of CPU time (0 = forever). */
static void run(const struct demo *d, double seconds, int verbose)
{
	double end;

	d->setup();
	if (verbose) {
		if (seconds > 0)
			fprintf(stderr, "cyctop-demo: %s for %.2f s of CPU time\n", d->name, seconds);
		else
			fprintf(stderr, "cyctop-demo: %s until killed\n", d->name);
	}
	end = wl_cpu_seconds() + seconds;
	do
		d->step();
	while (seconds == 0 || wl_cpu_seconds() < end);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: cyctop-demo [NAME] [SECONDS]  (NAME: all (default), matmul-classic, matmul-improved, pointer-chase, gather, gather-prefetch, exp-loop; SECONDS >= 0, 0 = until killed)\n");
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "all";
	const struct demo *d = NULL;
	double seconds;
	int verbose = getenv("CYCTOP_DEMO_VERBOSE") != NULL;

	if (argc == 2 && (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0)) {
		usage(stdout);
		return 0;
	}
	if (argc > 3)
		goto bad;
	if (strcmp(name, "all") != 0) {
		for (size_t i = 0; i < NDEMOS; i++)
			if (strcmp(name, demos[i].name) == 0)
				d = &demos[i];
		if (d == NULL)
			goto bad;
	}
	seconds = d != NULL ? 5.0 : 0.0;
	if (argc == 3 && wl_parse_seconds(argv[2], &seconds) != 0)
		goto bad;

	if (d != NULL) {
		run(d, seconds, verbose);
	} else if (seconds > 0) {
		for (size_t i = 0; i < NDEMOS; i++)
			run(&demos[i], seconds / NDEMOS, verbose);
	} else {
		for (;;)
			for (size_t i = 0; i < NDEMOS; i++)
				run(&demos[i], ALL_FOREVER_SLICE, verbose);
	}
	cleanup();
	return 0;

bad:
	usage(stderr);
	return 2;
}
