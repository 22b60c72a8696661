/*
 * diffwork [MILLIONS]
 *
 * The before/after workload of cyctop diff (tests/e2e/diff.sh): three kernels,
 * work_a, work_b and work_half, each MILLIONS million steps of a
 * dependent multiply-add chain (default 60), called in 20 rounds.  Built
 * twice from this file: workloads/diffwork (the base) and, with -DHALF,
 * workloads/half/diffwork (the new build), where work_half does half its
 * steps and the two others are unchanged.  Same basename, so functions
 * match by (name, module basename) across the two builds, as they do
 * across a rebuild.  The work is a fixed amount, not a time: halving one
 * kernel lowers the program's total.  Prints the checksum; exits 2 on bad
 * arguments.
 */
#include "common.h"

#include <stdint.h>

#ifdef HALF
#define HALF_SHARE 2
#else
#define HALF_SHARE 1
#endif

#define ROUNDS 20

static KERNEL uint64_t work_a(uint64_t x, uint64_t steps)
{
	for (uint64_t i = 0; i < steps; i++)
		x = x * 2862933555777941757ull + 3037000493ull;
	return x;
}

static KERNEL uint64_t work_b(uint64_t x, uint64_t steps)
{
	for (uint64_t i = 0; i < steps; i++)
		x = x * 3202034522624059733ull + 4354685564936845319ull;
	return x;
}

static KERNEL uint64_t work_half(uint64_t x, uint64_t steps)
{
	for (uint64_t i = 0; i < steps / HALF_SHARE; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

int main(int argc, char **argv)
{
	double millions = 60;
	char *end;

	if (argc > 2 || (argc == 2 && ((millions = strtod(argv[1], &end)) <= 0 || *end ||
				       millions > 1e6))) {
		fprintf(stderr, "usage: diffwork [MILLIONS]\n");
		return 2;
	}
	uint64_t steps = (uint64_t)(millions * 1e6 / ROUNDS), x = 1;
	for (int r = 0; r < ROUNDS; r++) {
		x = work_a(x, steps);
		x = work_b(x, steps);
		x = work_half(x, steps);
	}
	printf("%llu\n", (unsigned long long)x);
	return 0;
}
