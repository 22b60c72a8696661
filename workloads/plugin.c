/*
 * libplugin.so: loaded at run time by the "threads" workload with
 * dlopen(), so its code appears in the process after a profiler attached.
 */
#include "common.h"

unsigned long plugin_work(unsigned long iters);

__attribute__((visibility("default"))) KERNEL
unsigned long plugin_work(unsigned long iters)
{
	unsigned long x = iters | 1;

	for (unsigned long i = 0; i < iters; i++) {
		x = x * 2862933555777941757UL + 3037000493UL;
		x ^= x >> 31;
	}
	return x;
}
