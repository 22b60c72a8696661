/* A sample of our own stack, as PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER
 * would give it, for tests/unit/test-unwind.c and bench/unwind.c.
 *
 * UW_CAPTURE stores the registers in perf's x86_64 layout (asm/perf_regs.h)
 * at the point where it stands; uw_capture_finish, called right after from
 * the same function, copies the stack from the captured SP upwards (as the
 * kernel does: bounded by the stack mapping's end) and builds the sample.
 * The frames above the captured SP do not change until that function
 * returns, so the copy is the stack as it was at the capture. */
#ifndef TESTS_UNWIND_CAPTURE_H
#define TESTS_UNWIND_CAPTURE_H

#include <asm/perf_regs.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/record.h"
#include "engine/unwind.h"

#define UW_REGS_MASK 0xff0fffULL   /* AX..SS, R8..R15: 20 registers, as perf uses */
#define UW_STACK_MAX 65528         /* the kernel's largest sample_stack_user */

struct uw_capture {
	uint64_t regs[PERF_REG_X86_64_MAX];   /* by perf register number */
	uint64_t packed[PERF_REG_X86_64_MAX]; /* in mask bit order, as in a sample */
	uint8_t stack[UW_STACK_MAX];
	struct rec_sample sample;
};

/* FLAGS, CS, SS, DS..GS stay 0: unwinding does not need them.  IP is the
 * instruction after the LEA, still inside the capturing function. */
#define UW_CAPTURE(cap)                                                         \
	__asm__ volatile("movq %%rax, 0x00(%0)\n\t"                             \
			 "movq %%rbx, 0x08(%0)\n\t"                             \
			 "movq %%rcx, 0x10(%0)\n\t"                             \
			 "movq %%rdx, 0x18(%0)\n\t"                             \
			 "movq %%rsi, 0x20(%0)\n\t"                             \
			 "movq %%rdi, 0x28(%0)\n\t"                             \
			 "movq %%rbp, 0x30(%0)\n\t"                             \
			 "movq %%rsp, 0x38(%0)\n\t"                             \
			 "movq %%r8, 0x80(%0)\n\t"                              \
			 "movq %%r9, 0x88(%0)\n\t"                              \
			 "movq %%r10, 0x90(%0)\n\t"                             \
			 "movq %%r11, 0x98(%0)\n\t"                             \
			 "movq %%r12, 0xa0(%0)\n\t"                             \
			 "movq %%r13, 0xa8(%0)\n\t"                             \
			 "movq %%r14, 0xb0(%0)\n\t"                             \
			 "movq %%r15, 0xb8(%0)\n\t"                             \
			 "leaq 0(%%rip), %%rax\n\t"                             \
			 "movq %%rax, 0x40(%0)"                                 \
			 : : "r"((cap)->regs) : "rax", "memory")

/* The end of our mapping holding ADDR (the stack), 0 if none. */
static inline uint64_t uw_mapping_end(uint64_t addr)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[4096];
	uint64_t start, end, found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) == 2 && addr >= start &&
		    addr < end)
			found = end;
	fclose(f);
	return found;
}

/* A plain copy that sanitizers do not see: the stack holds ASan redzones
 * between the frames, which are fine to read here. */
static inline void uw_copy_raw(void *dst, const void *src, size_t n)
{
	__asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

/* Copies at most MAX bytes of stack and fills cap->sample. */
static inline void uw_capture_finish(struct uw_capture *cap, size_t max)
{
	uint64_t sp = cap->regs[PERF_REG_X86_SP], end = uw_mapping_end(sp);
	size_t n = end > sp ? (size_t)(end - sp) : 0;
	unsigned k = 0;

	if (n > max)
		n = max;
	if (n > sizeof(cap->stack))
		n = sizeof(cap->stack);
	uw_copy_raw(cap->stack, (const void *)(uintptr_t)sp, n);
	for (int r = 0; r < PERF_REG_X86_64_MAX; r++)
		if (UW_REGS_MASK & (1ULL << r))
			cap->packed[k++] = cap->regs[r];
	memset(&cap->sample, 0, sizeof(cap->sample));
	cap->sample.ip = cap->regs[PERF_REG_X86_IP];
	cap->sample.regs_user.abi = PERF_SAMPLE_REGS_ABI_64;
	cap->sample.regs_user.regs = cap->packed;
	cap->sample.regs_user.n = k;
	cap->sample.regs_user.mask = UW_REGS_MASK;
	cap->sample.stack = cap->stack;
	cap->sample.stack_size = n;
}

/* The executable mappings of /proc/self/maps, for unwind_sample's FIND. */
#define UW_MAPS_MAX 1024

struct uw_maps {
	size_t n;
	struct unwind_map m[UW_MAPS_MAX];
	char *paths[UW_MAPS_MAX];
};

static inline void uw_maps_load(struct uw_maps *mp)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[4096];

	mp->n = 0;
	while (f && mp->n < UW_MAPS_MAX && fgets(line, sizeof(line), f)) {
		struct unwind_map *m = &mp->m[mp->n];
		char perms[5];
		int at = -1;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %4s %" SCNx64 " %*s %*u %n", &m->start,
			   &m->end, perms, &m->pgoff, &at) < 4 || at < 0 || perms[2] != 'x')
			continue;
		line[strcspn(line, "\n")] = '\0';
		mp->paths[mp->n] = strdup(line + at);
		m->path = mp->paths[mp->n];
		if (m->path)
			mp->n++;
	}
	if (f)
		fclose(f);
}

static inline void uw_maps_free(struct uw_maps *mp)
{
	for (size_t i = 0; i < mp->n; i++)
		free(mp->paths[i]);
	mp->n = 0;
}

/* Binary search: /proc/PID/maps lists mappings by address. */
static inline const struct unwind_map *uw_maps_find(void *arg, uint64_t addr)
{
	const struct uw_maps *mp = arg;
	size_t lo = 0, hi = mp->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (addr < mp->m[mid].start)
			hi = mid;
		else if (addr >= mp->m[mid].end)
			lo = mid + 1;
		else
			return &mp->m[mid];
	}
	return NULL;
}

#endif
