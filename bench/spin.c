/* A fixed amount of work (not a fixed time): the overhead benchmark times
 * it bare, under cyctop and under perf.  spin ITERATIONS [THREADS]; prints
 * the time the work took on stderr. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static unsigned long iterations;

static void *spin(void *arg)
{
	volatile unsigned long x = 0;

	(void)arg;
	for (unsigned long i = 0; i < iterations; i++)
		x += i * i;
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 2 ? atoi(argv[2]) : 1;
	pthread_t t[64];

	if (argc < 2 || threads < 1 || threads > 64) {
		fprintf(stderr, "usage: spin ITERATIONS [THREADS]\n");
		return 2;
	}
	struct timespec a, b;

	iterations = strtoul(argv[1], NULL, 10);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, spin, NULL);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	/* its own time, whatever the watcher adds before or after */
	fprintf(stderr, "spin: %.3f s\n",
		(double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
