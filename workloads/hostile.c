/*
 * hostile [SECONDS] [chatty]
 *
 * A workload whose names would drive a terminal if printed raw: the hot
 * function's symbol holds ESC [2J (clear screen), BEL, CR, a C1 CSI
 * (U+009B) and a byte that is not UTF-8; the process renames itself
 * ESC ]0;pwned BEL (an xterm title change) and its second thread
 * ESC [2Jthr BEL.  Both threads spin in the hot function until the process
 * has used SECONDS (default 3.0) of CPU time.  With "chatty", the main
 * thread also writes lines to stdout and stderr as it runs (with escapes
 * in them), as a noisy build would.
 */
#include "common.h"

#include <pthread.h>
#include <string.h>
#include <sys/prctl.h>

/* The quotes make the assembler accept any byte but NUL in the name. */
unsigned long hostile_spin(unsigned long seed, unsigned long iters)
	__asm__("\"evil\033[2J\007bel\r\302\233\377name\"");

KERNEL unsigned long hostile_spin(unsigned long seed, unsigned long iters)
{
	unsigned long x = seed;

	for (unsigned long i = 0; i < iters; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		x ^= x >> 29;
	}
	return x;
}

static double seconds = 3.0;
static volatile unsigned long sink;

static void spin_until_done(int chatty)
{
	unsigned long round = 0;

	while (wl_cpu_seconds() < seconds) {
		sink += hostile_spin(sink, 200000);
		if (chatty && ++round % 20 == 0) {
			printf("chatty line %lu \033[7mreverse\033[0m\r\n", round);
			fprintf(stderr, "chatty error %lu\n", round);
			fflush(stdout);
		}
	}
}

static void *thread_main(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "\033[2Jthr\007", 0, 0, 0);
	spin_until_done(0);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th;
	int chatty = argc > 2 && strcmp(argv[2], "chatty") == 0;

	if (argc > 3 || (argc > 1 && wl_parse_seconds(argv[1], &seconds) != 0) ||
	    (argc > 2 && !chatty)) {
		fprintf(stderr, "usage: hostile [SECONDS] [chatty]\n");
		return 2;
	}
	prctl(PR_SET_NAME, "\033]0;pwned\007", 0, 0, 0);
	if (pthread_create(&th, NULL, thread_main, NULL) != 0) {
		perror("pthread_create");
		return 1;
	}
	spin_until_done(chatty);
	pthread_join(th, NULL);
	return 0;
}
