/*
 * jit [SECONDS]
 *
 * Runs code it wrote itself, as a JIT compiler's output runs: a spin loop
 * copied into anonymous executable memory, called until the process has
 * used SECONDS (default 1.0) of CPU time.  Before it starts it names the
 * code as JIT runtimes do for perf (tools/perf/Documentation/
 * jit-interface.txt): "START SIZE jit_spin" in /tmp/perf-PID.map, which
 * it leaves behind, as they do (perf report reads it after the run), and
 * it prints its pid so that the caller can remove it.  x86-64 only.
 */
#include "common.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* mov ecx, edi; 1: dec ecx; jnz 1b; ret */
static const unsigned char spin_code[] = { 0x89, 0xf9, 0xff, 0xc9, 0x75, 0xfc, 0xc3 };

static int write_perf_map(const void *code, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	if (!(f = fopen(path, "w")))
		return -1;
	fprintf(f, "%lx %zx jit_spin\n", (unsigned long)code, size);
	return fclose(f);
}

int main(int argc, char **argv)
{
	double seconds = 1.0;
	void *code;

	if (argc > 1 && wl_parse_seconds(argv[1], &seconds) != 0) {
		fprintf(stderr, "jit: bad SECONDS: %s\n", argv[1]);
		return 2;
	}
	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (code == MAP_FAILED) {
		perror("jit: mmap");
		return 1;
	}
	memcpy(code, spin_code, sizeof(spin_code));
	if (write_perf_map(code, sizeof(spin_code)) != 0) {
		perror("jit: /tmp/perf-PID.map");
		return 1;
	}
	printf("%d\n", (int)getpid());
	fflush(stdout);
	void (*spin)(unsigned) = (void (*)(unsigned))code;
	while (wl_cpu_seconds() < seconds)
		spin(1000000);
	return 0;
}
