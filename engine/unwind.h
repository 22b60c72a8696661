/* Call stacks of samples: DWARF unwinding of a copied user stack.
 *
 * A sample with PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER carries the
 * user registers and a copy of the stack from SP upwards.  libunwind steps
 * through it as perf's dwarf mode does (tools/perf/util/unwind-libunwind-local.c):
 * a remote address space whose accessors read registers from the sample,
 * memory from the stack copy or the mapped ELF files, and unwind tables from
 * each file's .eh_frame_hdr.  x86_64 and aarch64 (the host's, as libunwind
 * is built for it): UNWIND_REGS_USER is perf's register mask for it.
 *
 * One unwinder per address space (process): libunwind caches register rules
 * by IP, the unwinder caches files and their load biases by address and
 * the step rules it learnt from libunwind by IP (checked against the
 * mapping each time), so call unwinder_flush when the address space
 * changes (exec, munmap).  Not thread-safe: one thread per unwinder.
 * CYCTOP_UNWIND_STEPS=0 in the environment has libunwind step every frame
 * (the stacks are the same: tests/e2e/cg-corpus.sh). */
#ifndef ENGINE_UNWIND_H
#define ENGINE_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/record.h"

/* -g dwarf: the user registers to sample (attr.sample_regs_user), every one
 * the unwinder may read: perf's PERF_REGS_MASK of the host's architecture
 * (tools/perf/arch/{x86,arm64}/include/perf_regs.h). */
#if defined(__x86_64__)
/* PERF_REG_X86_AX .. SS and R8 .. R15 */
#define UNWIND_REGS_USER 0xff0fffull
#elif defined(__aarch64__)
/* PERF_REG_ARM64_X0 .. X29, LR, SP, PC (bits 0-32) */
#define UNWIND_REGS_USER 0x1ffffffffull
#endif

/* An executable file mapping: [start, end) maps PATH from file offset pgoff.
 * "[vdso]" stands for the kernel's vDSO (our own copy of it is read). */
struct unwind_map {
	uint64_t start, end, pgoff;
	const char *path;
};

/* The executable mapping containing ADDR, or NULL.  Called often: keep it
 * fast (a binary search). */
typedef const struct unwind_map *(*unwind_find_map_fn)(void *arg, uint64_t addr);

struct unwinder;

/* Loads libunwind (the host's libunwind-ARCH.so.8) on the first call and
 * keeps it; every later call answers as the first did.  0, or -1 with one
 * line in ERR naming the library (engine/lib-load.h).  A session that
 * unwinds calls it first, for that line; unwinder_new loads it too. */
int unwind_load(char *err, size_t errsz);

/* An address space with the global caching policy; NULL when out of memory
 * or without libunwind (unwind_load). */
struct unwinder *unwinder_new(void);
void unwinder_free(struct unwinder *u);
/* Recorded sessions: OPEN(ARG, PATH) gives a descriptor of the binary
 * recorded as PATH (under --symfs, by build id: where the symbols are read
 * from), or -1; without it the unwinder opens PATH itself. */
void unwinder_set_opener(struct unwinder *u, int (*open)(void *arg, const char *path),
			 void *arg);

/* The call stack of sample S into IPS (at most MAX entries), leaf first:
 * ips[0] is the sample's IP, every later entry is a return address minus 1
 * (so that it lies inside the call instruction: look every entry up as is,
 * for the function and the source line), except the frame a signal
 * interrupted, whose exact IP is kept.  Returns the count.  *TRUNCATED says
 * the stack ended early (no registers or stack copy, the copy too small, no
 * unwind info, an IP outside the mappings FIND knows, MAX reached) rather
 * than at its natural end (the outermost frame: _start, a thread's clone).
 * A frame no .eh_frame_hdr covers (.debug_frame only, JIT code) is left
 * through its frame pointer when that points into the stack copy (perf's
 * unwinder falls back so); else the stack ends there, truncated.  Every
 * entry lies in a mapping FIND knows, except ips[0]. */
size_t unwind_sample(struct unwinder *u, const struct rec_sample *s, unwind_find_map_fn find,
		     void *arg, uint64_t *ips, size_t max, bool *truncated);

/* The user IP in S's user registers (REGS_USER): of a sample taken in the
 * kernel, where user space entered it, the start of the user stack under
 * the kernel's frames (unwind_sample on a copy of S with that IP).  False
 * without user registers (a kernel thread's sample). */
bool unwind_user_ip(const struct rec_sample *s, uint64_t *ip);

/* Forget every cached file, load bias and unwind rule (exec, munmap). */
void unwinder_flush(struct unwinder *u);

/* Forget the file PATH (replaced on disk, unmapped), and the unwind rules. */
void unwinder_flush_path(struct unwinder *u, const char *path);

#endif
