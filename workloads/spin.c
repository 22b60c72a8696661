/*
 * spin [N]
 *
 * A known, deterministic amount of work for counts that must be exact
 * (tests/arm64/guest.sh: under QEMU with -icount every count is): N rounds
 * (default 1000) of main -> spin_round -> spin_hot (3 * SPIN_ITERS loop
 * iterations) and spin_cold (SPIN_ITERS iterations of the same loop), so
 * spin_hot has 3/4 of the instructions and spin_cold 1/4, the same every
 * run; N = 0 spins until killed (for -p and -a).  Built with frame
 * pointers, for -g fp.  Prints nothing; exits 2 on bad arguments.
 */
#include "common.h"

#define SPIN_ITERS 2500UL

unsigned long spin_hot(unsigned long x);
unsigned long spin_cold(unsigned long x);
unsigned long spin_round(unsigned long x);

static volatile unsigned long sink;

/* One loop, the same in both kernels: a multiply-add chain per iteration. */
#define SPIN_LOOP(x, n)                                                 \
	for (unsigned long i_ = 0; i_ < (n); i_++)                      \
		(x) = (x) * 6364136223846793005UL + i_

KERNEL unsigned long spin_hot(unsigned long x)
{
	SPIN_LOOP(x, 3 * SPIN_ITERS);
	return x;
}

KERNEL unsigned long spin_cold(unsigned long x)
{
	SPIN_LOOP(x, SPIN_ITERS);
	return x;
}

KERNEL unsigned long spin_round(unsigned long x)
{
	x = spin_hot(x);
	return spin_cold(x) + 1;  /* not a tail call: spin_round stays on the stack */
}

int main(int argc, char **argv)
{
	unsigned long rounds = 1000, x = 1;
	char *end = "";

	if (argc == 2)
		rounds = strtoul(argv[1], &end, 10);
	if (argc > 2 || (argc == 2 && (!argv[1][0] || *end))) {
		fprintf(stderr, "usage: spin [ROUNDS]  (0: until killed; default 1000)\n");
		return 2;
	}
	for (unsigned long r = 0; rounds == 0 || r < rounds; r++)
		x = spin_round(x);
	sink = x;
	return 0;
}
