/* The calibrated program the self-test watches: cyctop run as
 * "cyctop selftest --workload KIND:N" (a child of its own, so the counts
 * are of it alone).  The loops are assembly, so each iteration is a known
 * number of instructions and branches on every compiler:
 *   loop:N      N iterations of ST_LOOP_INSNS instructions, one branch
 *   split:N     rounds of st_loop_a (2 parts) and st_loop_b (1 part), N
 *               iterations in all: 2:1 by construction
 *   faults:N    N fresh pages touched: N page faults
 *   switches:N  N sleeps of 10 us: N context switches
 *   env         its environment on stdout, one variable a line
 * The program leaves with _exit, so that nothing after the loop (stdio,
 * atexit) adds to the counts. */
#include "engine/selftest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "engine/sys.h"

/* unsigned long st_loop(unsigned long n): n iterations of four
 * instructions and one branch; st_loop_a and st_loop_b are copies, two
 * functions to sample.  Entry, check and return are the fixed term the
 * zero-iteration run measures. */
unsigned long st_loop(unsigned long n);
unsigned long st_loop_a(unsigned long n);
unsigned long st_loop_b(unsigned long n);

#if defined(__x86_64__)
#define ST_LOOP_ASM(name)                                  \
	".globl " name "\n"                                \
	".type " name ", @function\n"                      \
	".p2align 6\n"                                     \
	name ":\n"                                         \
	"	xorl %eax, %eax\n"                         \
	"	testq %rdi, %rdi\n"                        \
	"	jz 2f\n"                                   \
	"1:	addq $1, %rax\n"                           \
	"	addq $3, %rdx\n"                           \
	"	subq $1, %rdi\n"                           \
	"	jnz 1b\n"                                  \
	"2:	ret\n"                                     \
	".size " name ", .-" name "\n"
#elif defined(__aarch64__)
#define ST_LOOP_ASM(name)                                  \
	".globl " name "\n"                                \
	".type " name ", %function\n"                      \
	".p2align 6\n"                                     \
	name ":\n"                                         \
	"	mov x1, #0\n"                              \
	"	cbz x0, 2f\n"                              \
	"1:	add x1, x1, #1\n"                          \
	"	add x2, x2, #3\n"                          \
	"	subs x0, x0, #1\n"                         \
	"	b.ne 1b\n"                                 \
	"2:	mov x0, x1\n"                              \
	"	ret\n"                                     \
	".size " name ", .-" name "\n"
#else
#error "the calibration loop is written for x86-64 and AArch64"
#endif

__asm__(".text\n" ST_LOOP_ASM("st_loop") ST_LOOP_ASM("st_loop_a") ST_LOOP_ASM("st_loop_b"));

/* Iterations a round: 20 M in a, 10 M in b, some 7 ms at a cycle an
 * iteration, 150 samples at 50 us.  A round of 300,000 lasted 75 us, near
 * one and a half periods: the sampling's phase drifted slowly through the
 * rounds and a run's share of st_loop_a came out 69.3% under load. */
#define SPLIT_ROUND 30000000UL

static void run_split(unsigned long n, bool even)
{
	unsigned long a = even ? SPLIT_ROUND / 2 : SPLIT_ROUND / 3 * 2;

	for (unsigned long done = 0; done < n; done += SPLIT_ROUND) {
		st_loop_a(a);
		st_loop_b(SPLIT_ROUND - a);
	}
}

/* Not instrumented by AddressSanitizer: its shadow of each page touched
 * would be faulted in too (2,243 faults for 2,000 pages in a sanitized
 * build), as workloads/faults.c says. */
#if defined(__has_attribute)
#if __has_attribute(no_sanitize_address)
__attribute__((no_sanitize_address))
#endif
#endif
static int run_faults(unsigned long n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = n * page;
	volatile char *p;

	if (!n)
		return 0;
	p = sys_mmap(len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	/* one fault a page, not one a huge page (THP "always") */
	madvise((void *)p, len, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < len; i += page)
		p[i] = 1;
	return 0;
}

static void run_switches(unsigned long n)
{
	/* 10 us: a timer that has not fired when the task sleeps (1 ns may
	 * have, and then the task does not switch) */
	struct timespec ts = { 0, 10000 };

	for (unsigned long i = 0; i < n; i++)
		nanosleep(&ts, NULL);
}

static void print_env(void)
{
	extern char **environ;

	for (char **e = environ; *e; e++)
		printf("%s\n", *e);
	fflush(stdout);
}

int selftest_workload(const char *spec)
{
	const char *colon = strchr(spec, ':');
	unsigned long n = 0;
	char *end = "";

	if (colon) {
		errno = 0;
		n = strtoul(colon + 1, &end, 10);
	}
	if (strcmp(spec, "env") == 0) {
		print_env();
		_exit(0);
	}
	if (!colon || !colon[1] || *end || errno) {
		fprintf(stderr, "cyctop: --workload '%s': want loop:N, split:N, faults:N, "
			"switches:N or env\n", spec);
		return 2;
	}
	size_t k = (size_t)(colon - spec);
	if (k == 4 && strncmp(spec, "loop", k) == 0)
		st_loop(n);
	else if (k == 5 && strncmp(spec, "split", k) == 0)
		run_split(n, getenv("CYCTOP_SELFTEST_EVEN") != NULL);
	else if (k == 6 && strncmp(spec, "faults", k) == 0)
		_exit(run_faults(n));
	else if (k == 8 && strncmp(spec, "switches", k) == 0)
		run_switches(n);
	else {
		fprintf(stderr, "cyctop: --workload '%s': no such workload (loop, split, faults, "
			"switches, env)\n", spec);
		return 2;
	}
	_exit(0);
}
