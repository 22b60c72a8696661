/* The unwinder's state, shared by the files that keep it (engine/unwind.h
 * is the contract):
 *   unwind.c        libunwind's remote interface: the address space and its
 *                   accessors, the opener, the walk, unwind_sample
 *   unwind-files.c  the ELF files (an LRU of libelf maps, their PT_LOAD
 *                   segments and .eh_frame_hdr) and the regions where they
 *                   lie in the address space
 *   unwind-steps.c  the learnt step rules and their replay
 * Nothing outside these three includes this header. */
#ifndef ENGINE_UNWIND_PRIV_H
#define ENGINE_UNWIND_PRIV_H

#include "engine/unwind.h"

#include "engine/lib-load.h"
#include "lib/hashtab.h"

#include <asm/perf_regs.h>
#include <gelf.h>
#include <libunwind.h>

/* libunwind is built for the host: its registers, the ELF files whose
 * code they run (others are not unwound), the stack pointer's perf number. */
#if defined(__x86_64__)
#define UW_MACHINE EM_X86_64
#define PERF_REG_SP PERF_REG_X86_SP
#define PERF_REG_FP PERF_REG_X86_BP
#define PERF_REG_PC PERF_REG_X86_IP
#define UNW_FP UNW_X86_64_RBP   /* the frame pointer, libunwind's number */
#define UNW_SP UNW_X86_64_RSP
#define UNW_PC UNW_X86_64_RIP
#elif defined(__aarch64__)
#define UW_MACHINE EM_AARCH64
#define PERF_REG_SP PERF_REG_ARM64_SP
#define PERF_REG_FP PERF_REG_ARM64_X29
#define PERF_REG_PC PERF_REG_ARM64_PC
#define UNW_FP UNW_AARCH64_X29
#define UNW_SP UNW_AARCH64_SP
#define UNW_PC UNW_AARCH64_PC
#else
#error "engine/unwind-priv.h: no perf register mapping for this architecture"
#endif

#define UW_FILES 64
#define UW_REGIONS 64
#define UW_SEGS 16
#define UW_RULES_CACHE 4096   /* libunwind's rule cache, in IPs */

/* libunwind's entry points, loaded on first use (unwind.c's unwind_load).
 * The unw_ names are its headers' macros for the host's symbols
 * (unw_step: _Ux86_64_step), the members' names and dlsym's alike. */
struct uw_lib {
	struct lib_image image;
	LIB_FN(unw_create_addr_space);
	LIB_FN(unw_destroy_addr_space);
	LIB_FN(unw_set_caching_policy);
	LIB_FN(unw_set_cache_size);
	LIB_FN(unw_flush_cache);
	LIB_FN(unw_init_remote);
	LIB_FN(unw_step);
	LIB_FN(unw_get_reg);
	LIB_FN(unw_is_signal_frame);
	/* exported but declared in none of its headers (unwind.c) */
	int (*UNW_OBJ(dwarf_search_unwind_table))(unw_addr_space_t as, unw_word_t ip,
						  unw_dyn_info_t *di, unw_proc_info_t *pi,
						  int need_unwind_info, void *arg);
};

struct uw_seg {              /* a PT_LOAD segment */
	uint64_t vaddr, memsz, offset, filesz;
	bool exec;
};

struct uw_file {
	char *path;                  /* NULL: a free slot */
	uint64_t hash, stamp;        /* stamp: last use, for the LRU */
	Elf *elf;                    /* NULL: not a usable ELF (remembered) */
	const unsigned char *image;  /* the whole file, mapped by libelf */
	size_t size;
	unsigned char *copy;         /* the vDSO: our own malloc'd copy */
	struct uw_seg segs[UW_SEGS];
	unsigned nsegs;
	uint64_t lo, hi;             /* the vaddr extent of the segments */
	uint64_t hdr_vaddr, table_vaddr, fde_count;  /* fde_count 0: no table */
};

struct uw_region {
	uint64_t start, end, bias;   /* runtime [start, end) = vaddr + bias */
	struct uw_file *file;        /* NULL: a free slot */
};

/* How one frame is left, as libunwind steps it (learnt by probing it: see
 * step_learn), for the frame whose IP (as walk reports it) is IP. */
struct uw_step {
	uint64_t ip;
	uint64_t map_start, map_pgoff;  /* the mapping IP was in: another there, the rule goes */
	uint8_t kind;                /* STEP_* */
	uint8_t seen;                /* STEP_SEEN: in how many frames libunwind stepped */
	bool sigret;                 /* the code at IP + 1 is the sigreturn sequence */
	bool bp_saved;               /* the caller's RBP at CFA + bp_off, else RBP as is */
	int32_t cfa_off, ra_off, bp_off;
};

struct uw_steps {
	struct uw_step *rules;
	size_t n, alloc;
	struct hashtab index;        /* ip -> rules[] */
	bool on;                     /* replayed at all (uw_steps_wanted) */
};

struct unwinder {
	const struct uw_lib *lib;    /* libunwind, loaded: unwind-steps.c's way to it */
	unw_addr_space_t as;
	uint64_t page, clock;
	bool flush_pending;          /* libunwind's rules may name forgotten memory */
	unsigned region_next;        /* the victim when every region is taken */
	struct uw_steps steps;       /* learnt step rules (see "learnt steps") */
	int (*open)(void *arg, const char *path);  /* unwinder_set_opener; NULL: the path */
	void *open_arg;
	struct uw_file files[UW_FILES];
	struct uw_region regions[UW_REGIONS];
};

/* One unwind_sample call: the ARG of every accessor. */
struct uw_ctx {
	struct unwinder *u;
	const struct rec_sample *s;
	unwind_find_map_fn find;
	void *find_arg;
	uint64_t sp;
	struct uw_region *last;      /* the region of the last file read */
	bool noinfo;                 /* find_proc_info found no unwind info */
	/* a frame reached through the frame pointer (fp_step): its IP, SP
	 * and FP stand in for the sample's registers */
	bool fp_frame;
	uint64_t fp_ip, fp_sp, fp_fp;
};

/* ---- unwind-files.c ------------------------------------------------- */

/* Closes F (a free slot stays free) and forgets its regions: libunwind's
 * rules may name its memory, so they go at the next unwind. */
void uw_file_close(struct unwinder *u, struct uw_file *f);
/* Copies LEN bytes at VADDR of F's memory image (see unwind-files.c). */
bool uw_image_read(const struct uw_file *f, uint64_t vaddr, void *dst, size_t len);
/* The region of the file mapped at M, opening the file if needed; NULL
 * when it is no usable ELF of the host's. */
struct uw_region *uw_region_for_map(struct uw_ctx *c, const struct unwind_map *m);
/* The region holding ADDR (the last one read first), or NULL.  Inline:
 * libunwind reads every word it wants through access_mem, which asks here. */
static inline struct uw_region *uw_region_of(struct uw_ctx *c, uint64_t addr)
{
	struct uw_region *r = c->last;

	if (r && r->file && addr >= r->start && addr < r->end)
		return r;
	for (unsigned i = 0; i < UW_REGIONS; i++) {
		r = &c->u->regions[i];
		if (r->file && addr >= r->start && addr < r->end) {
			r->file->stamp = ++c->u->clock;   /* in use: not the LRU victim */
			return c->last = r;
		}
	}
	return NULL;
}

/* ---- unwind.c ------------------------------------------------------- */

/* libunwind's access_mem: the stack copy, else a known file's image. */
int uw_access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *val, int write,
		  void *arg);
/* Register R (perf's number) of sample S's user registers: the regs array
 * holds one u64 per set bit of the mask, in bit order.  Inline: the replay
 * asks with a constant R. */
static inline bool uw_sample_reg(const struct rec_sample *s, int r, uint64_t *val)
{
	uint64_t bit;
	unsigned idx;

	if (r < 0 || r > 63 || !(s->regs_user.mask & (bit = 1ULL << r)))
		return false;
	idx = (unsigned)__builtin_popcountll(s->regs_user.mask & (bit - 1));
	if (idx >= s->regs_user.n)
		return false;
	*val = s->regs_user.regs[idx];
	return true;
}

/* ---- unwind-steps.c ------------------------------------------------- */

/* Whether learnt steps are to be replayed (x86_64; CYCTOP_UNWIND_STEPS=0
 * in the environment: not).  Read once, by unwinder_new, into steps.on. */
bool uw_steps_wanted(void);
/* Forgets every learnt rule. */
void uw_steps_clear(struct uw_steps *t);
/* Counts the frames libunwind walked (IPS[0, N)) toward learning their
 * rules. */
void uw_steps_note(struct uw_steps *t, const uint64_t *ips, size_t n);
/* The sample's stack walked with learnt rules alone, into IPS from IPS[*N]
 * (the sample's IP there already), as libunwind would.  False when a frame
 * needs libunwind itself: then IPS and *N are to be discarded. */
bool uw_replay(struct uw_ctx *c, uint64_t *ips, size_t *n, size_t max, bool *truncated);

#endif
