/*
 * jit [SECONDS [late]]
 *
 * Runs code it wrote itself, as a JIT compiler's output runs: a spin loop
 * copied into anonymous executable memory, called until the process has
 * used SECONDS (default 1.0) of CPU time.  Before it starts it names the
 * code as JIT runtimes do for perf (tools/perf/Documentation/
 * jit-interface.txt): "START SIZE jit_spin" in /tmp/perf-PID.map, which
 * it leaves behind, as they do (perf report reads it after the run), and
 * it prints its pid so that the caller can remove it.  x86-64 only.
 *
 * The code keeps a frame pointer, as V8's does, and has no unwind info
 * (no JIT here registers any): a dwarf unwinder finds its caller (main)
 * through the frame pointer only.  With "late", it spins in jit_spin for
 * the first half of the time, then compiles a second function, jit_late,
 * appends it to the map (the file only grows, as a runtime's) and spins
 * there for the rest: a watch must read the map again to name it.
 */
#include "common.h"

#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* push rbp; mov rbp, rsp; mov ecx, edi; 1: dec ecx; jnz 1b; pop rbp; ret */
static const unsigned char spin_code[] = { 0x55, 0x48, 0x89, 0xe5, 0x89, 0xf9,
					   0xff, 0xc9, 0x75, 0xfc, 0x5d, 0xc3 };
/* where jit_late goes in the code page */
#define LATE_OFFSET 64

/* Appends "START SIZE NAME" to /tmp/perf-PID.map (MODE "w": a new map). */
static int write_perf_map(const char *mode, const void *code, size_t size, const char *name)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	if (!(f = fopen(path, mode)))
		return -1;
	fprintf(f, "%lx %zx %s\n", (unsigned long)code, size, name);
	return fclose(f);
}

int main(int argc, char **argv)
{
	double seconds = 1.0;
	unsigned char *code;
	bool late = argc > 2 && strcmp(argv[2], "late") == 0;

	if ((argc > 1 && wl_parse_seconds(argv[1], &seconds) != 0) || (argc > 2 && !late)) {
		fprintf(stderr, "usage: jit [SECONDS [late]]\n");
		return 2;
	}
	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (code == MAP_FAILED) {
		perror("jit: mmap");
		return 1;
	}
	memcpy(code, spin_code, sizeof(spin_code));
	if (write_perf_map("w", code, sizeof(spin_code), "jit_spin") != 0) {
		perror("jit: /tmp/perf-PID.map");
		return 1;
	}
	printf("%d\n", (int)getpid());
	fflush(stdout);
	void (*spin)(unsigned) = (void (*)(unsigned))code;
	while (wl_cpu_seconds() < (late ? seconds / 2 : seconds))
		spin(1000000);
	if (!late)
		return 0;
	memcpy(code + LATE_OFFSET, spin_code, sizeof(spin_code));
	if (write_perf_map("a", code + LATE_OFFSET, sizeof(spin_code), "jit_late") != 0) {
		perror("jit: /tmp/perf-PID.map");
		return 1;
	}
	spin = (void (*)(unsigned))(code + LATE_OFFSET);
	while (wl_cpu_seconds() < seconds)
		spin(1000000);
	return 0;
}
