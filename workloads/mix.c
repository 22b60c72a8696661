/*
 * mix [SECONDS]
 *
 * Splits CPU time 60/30/10 % between work_60, work_30 and work_10. The
 * three functions run the same inner loop for the same number of
 * iterations per call; each round of the main loop calls them 6, 3 and 1
 * times. Whole rounds only, so the ratio holds whatever SECONDS is.
 * Runs whole rounds, at least one, until the process has used SECONDS
 * (default 3.0) of CPU time: a start that takes all of SECONDS (valgrind)
 * still measures one round.
 * Prints nothing.
 */
#include "common.h"

#include <stdint.h>

unsigned long work_60(unsigned long seed, unsigned long iters);
unsigned long work_30(unsigned long seed, unsigned long iters);
unsigned long work_10(unsigned long seed, unsigned long iters);

/* Iterations per call: about 0.1-0.3 ms on a current core. */
#define ITERS_PER_CALL 200000UL

static volatile unsigned long sink;

/*
 * The shared inner loop: a serial multiply/xor-shift chain (unsigned, so
 * wrap-around is defined). No closed form, no vectorization; cost is
 * strictly proportional to iters.
 */
#define MIX_LOOP(x, iters)                                              \
	do {                                                            \
		for (unsigned long i_ = 0; i_ < (iters); i_++) {         \
			(x) = (x) * 6364136223846793005UL +              \
			      1442695040888963407UL;                     \
			(x) ^= (x) >> 29;                                \
		}                                                       \
	} while (0)

KERNEL unsigned long work_60(unsigned long seed, unsigned long iters)
{
	unsigned long x = seed;

	MIX_LOOP(x, iters);
	return x;
}

KERNEL unsigned long work_30(unsigned long seed, unsigned long iters)
{
	unsigned long x = seed;

	MIX_LOOP(x, iters);
	return x;
}

KERNEL unsigned long work_10(unsigned long seed, unsigned long iters)
{
	unsigned long x = seed;

	MIX_LOOP(x, iters);
	return x;
}

/* Never called: bytes no x86-64 decoder accepts (0x06 push es and 0xd6 salc
 * are invalid in 64-bit mode) inside a function symbol, for the asm view's
 * resynchronization (tests/e2e/annotate.sh). */
__asm__(".text\n"
	".globl odd_bytes\n"
	".type odd_bytes, @function\n"
	"odd_bytes:\n"
	"\t.byte 0x06, 0xd6, 0x90, 0xc3\n"
	".size odd_bytes, . - odd_bytes\n");

int main(int argc, char **argv)
{
	double seconds = 3.0;
	unsigned long x = 1;

	if (argc > 2 || (argc == 2 && wl_parse_seconds(argv[1], &seconds) != 0)) {
		fprintf(stderr, "usage: mix [SECONDS]  (non-negative number, default 3.0)\n");
		return 2;
	}

	do {
		for (int i = 0; i < 6; i++)
			x = work_60(x, ITERS_PER_CALL);
		for (int i = 0; i < 3; i++)
			x = work_30(x, ITERS_PER_CALL);
		x = work_10(x, ITERS_PER_CALL);
		sink = x;
	} while (wl_cpu_seconds() < seconds);
	return 0;
}
