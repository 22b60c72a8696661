/* bench/asm-open PID FUNCTION: how long the asm view takes to open
 * FUNCTION of process PID (symbol lookup, code bytes, Zydis, flow
 * analysis, source lines), the first time and from the cache.  Prints
 * "instructions N first-open-ms X cached-open-ms Y". */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "engine/disasm.h"
#include "engine/symbols.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	struct symtab *st = symtab_new(NULL);
	struct asm_cache *c = asm_cache_new();
	struct sym_info si;
	const struct asm_func *fn;
	char err[512];
	double t0, t1, t2;

	if (argc != 3 || !st || !c || symtab_add_proc_maps(st, atoi(argv[1])) < 0) {
		fprintf(stderr, "usage: asm-open PID FUNCTION (a live process)\n");
		return 2;
	}
	t0 = now_ms();
	if (!symtab_find(st, argv[2], NULL, &si)) {
		fprintf(stderr, "asm-open: %s not found\n", argv[2]);
		return 1;
	}
	fn = asm_cache_get(c, st, si.start, si.start, err, sizeof(err));
	t1 = now_ms();
	if (!fn || asm_cache_get(c, st, si.start, si.start, err, sizeof(err)) != fn) {
		fprintf(stderr, "asm-open: %s\n", err);
		return 1;
	}
	t2 = now_ms();
	printf("instructions %zu first-open-ms %.2f cached-open-ms %.4f\n", fn->n, t1 - t0,
	       t2 - t1);
	asm_cache_free(c);
	symtab_free(st);
	return 0;
}
