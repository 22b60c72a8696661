/* DWARF unwinding of sampled user stacks with libunwind (see unwind.h).
 *
 * Method: libunwind's remote interface (libunwind(3), unw_create_addr_space(3),
 * unw_init_remote(3), unw_step(3)), used as perf's dwarf mode uses it
 * (tools/perf/util/unwind-libunwind-local.c):
 *  - find_proc_info: the IP's mapping, its ELF file, and the binary search
 *    table of the file's .eh_frame_hdr handed to libunwind as a remote table
 *    (UNW_INFO_FORMAT_REMOTE_TABLE) that it searches through access_mem;
 *  - access_mem: the stack copy for [SP, SP + dyn_size), else the image of
 *    a known file (eh_frame, code, data) at the address less its load bias;
 *  - access_reg: libunwind's registers (x86_64 or aarch64, the host's)
 *    from perf's packed sample registers.
 * With UNW_CACHE_GLOBAL libunwind keeps the register rules of each IP it
 * has seen, but takes a signal-blocking lock for them on every step; so
 * each IP's rule is learnt from libunwind once and replayed when it is a
 * plain one (engine/unwind-steps.c), and a warm unwind costs a few stack
 * reads per frame without a system call.
 *
 * Layout (engine/unwind-priv.h): this file is libunwind's remote
 * interface, the unwinder object and the walk; unwind-files.c the ELF files
 * and the regions where they lie (struct uw_file, struct uw_region);
 * unwind-steps.c the learnt steps.
 *
 * .debug_frame: libunwind 1.6.2 as built for x86_64 exports no
 * dwarf_find_debug_frame, and its UNW_INFO_FORMAT_TABLE path wants a private
 * struct (unw_debug_frame_list) in local memory; code with .debug_frame but
 * no .eh_frame (rare: -fno-asynchronous-unwind-tables) ends the stack, as
 * "no unwind info", truncated.
 *
 * libunwind (libunwind-ARCH.so.8 and libunwind.so.8) is loaded when the
 * first unwinder is made (engine/lib-load.c), not when cyctop starts: only
 * dwarf stacks (and aarch64's leaf fixup) use it. */
#include "config.h"

#include "engine/unwind-priv.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The library image, one a process, kept loaded (unwinders come and go). */
static struct uw_lib lib = { .image = { .soname = UNWIND_SONAME } };

int unwind_load(char *err, size_t errsz)
{
	const struct lib_sym sym[] = {
		LIB_SYM(lib, unw_create_addr_space),
		LIB_SYM(lib, unw_destroy_addr_space),
		LIB_SYM(lib, unw_set_caching_policy),
		LIB_SYM(lib, unw_set_cache_size),
		LIB_SYM(lib, unw_flush_cache),
		LIB_SYM(lib, unw_init_remote),
		LIB_SYM(lib, unw_step),
		LIB_SYM(lib, unw_get_reg),
		LIB_SYM(lib, unw_is_signal_frame),
		LIB_SYM(lib, UNW_OBJ(dwarf_search_unwind_table)),
	};

	return lib_load(&lib.image, sym, sizeof(sym) / sizeof(sym[0]), err, errsz);
}

/* ---- libunwind accessors -------------------------------------------- */

static int find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi,
			  int need_unwind_info, void *arg)
{
	struct uw_ctx *c = arg;
	const struct unwind_map *m = c->find(c->find_arg, ip);
	struct uw_region *r = m ? uw_region_for_map(c, m) : NULL;
	unw_dyn_info_t di;
	int ret;

	if (!r || r->file->fde_count == 0) {
		c->noinfo = true;
		return -UNW_ENOINFO;
	}
	memset(&di, 0, sizeof(di));
	di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
	di.start_ip = m->start;
	di.end_ip = m->end;
	di.u.rti.segbase = r->file->hdr_vaddr + r->bias;
	di.u.rti.table_data = r->file->table_vaddr + r->bias;
	di.u.rti.table_len = r->file->fde_count * 8 / sizeof(unw_word_t);
	ret = lib.UNW_OBJ(dwarf_search_unwind_table)(as, ip, &di, pi, need_unwind_info, c);
	if (ret < 0)
		c->noinfo = true;  /* else libunwind guesses from the frame pointer */
	return ret;
}

/* libunwind frees the unwind info of remote tables itself (put_unwind_info
 * in src/dwarf/Gparser.c). */
static void put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
}

static int get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *addr, void *arg)
{
	return -UNW_ENOINFO;   /* no dynamically registered unwind info */
}

int uw_access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *val, int write,
		      void *arg)
{
	struct uw_ctx *c = arg;
	const struct rec_sample *s = c->s;
	struct uw_region *r;
	const struct unwind_map *m;

	if (write)
		return -UNW_EINVAL;
	if (s->stack && addr >= c->sp && s->stack_size >= sizeof(*val) &&
	    addr - c->sp <= s->stack_size - sizeof(*val)) {
		memcpy(val, s->stack + (addr - c->sp), sizeof(*val));
		return 0;
	}
	r = uw_region_of(c, addr);
	if (!r && (m = c->find(c->find_arg, addr)))
		r = uw_region_for_map(c, m);
	if (r && uw_image_read(r->file, addr - r->bias, val, sizeof(*val)))
		return 0;
	return -UNW_EINVAL;   /* e.g. the stack beyond the copy */
}

#if defined(__x86_64__)
/* libunwind's x86_64 register numbers to perf's (asm/perf_regs.h). */
static int perf_reg(unw_regnum_t reg)
{
	static const int8_t map[] = {
		[UNW_X86_64_RAX] = PERF_REG_X86_AX, [UNW_X86_64_RDX] = PERF_REG_X86_DX,
		[UNW_X86_64_RCX] = PERF_REG_X86_CX, [UNW_X86_64_RBX] = PERF_REG_X86_BX,
		[UNW_X86_64_RSI] = PERF_REG_X86_SI, [UNW_X86_64_RDI] = PERF_REG_X86_DI,
		[UNW_X86_64_RBP] = PERF_REG_X86_BP, [UNW_X86_64_RSP] = PERF_REG_X86_SP,
		[UNW_X86_64_R8] = PERF_REG_X86_R8,   [UNW_X86_64_R9] = PERF_REG_X86_R9,
		[UNW_X86_64_R10] = PERF_REG_X86_R10, [UNW_X86_64_R11] = PERF_REG_X86_R11,
		[UNW_X86_64_R12] = PERF_REG_X86_R12, [UNW_X86_64_R13] = PERF_REG_X86_R13,
		[UNW_X86_64_R14] = PERF_REG_X86_R14, [UNW_X86_64_R15] = PERF_REG_X86_R15,
		[UNW_X86_64_RIP] = PERF_REG_X86_IP,
	};

	return reg >= 0 && (size_t)reg < sizeof(map) ? map[reg] : -1;
}
#elif defined(__aarch64__)
/* libunwind's aarch64 register numbers to perf's (asm/perf_regs.h): both
 * follow the DWARF numbering, X0..X30, SP, PC (libunwind-aarch64.h). */
static int perf_reg(unw_regnum_t reg)
{
	static const int8_t map[] = {
		[UNW_AARCH64_X0] = PERF_REG_ARM64_X0,   [UNW_AARCH64_X1] = PERF_REG_ARM64_X1,
		[UNW_AARCH64_X2] = PERF_REG_ARM64_X2,   [UNW_AARCH64_X3] = PERF_REG_ARM64_X3,
		[UNW_AARCH64_X4] = PERF_REG_ARM64_X4,   [UNW_AARCH64_X5] = PERF_REG_ARM64_X5,
		[UNW_AARCH64_X6] = PERF_REG_ARM64_X6,   [UNW_AARCH64_X7] = PERF_REG_ARM64_X7,
		[UNW_AARCH64_X8] = PERF_REG_ARM64_X8,   [UNW_AARCH64_X9] = PERF_REG_ARM64_X9,
		[UNW_AARCH64_X10] = PERF_REG_ARM64_X10, [UNW_AARCH64_X11] = PERF_REG_ARM64_X11,
		[UNW_AARCH64_X12] = PERF_REG_ARM64_X12, [UNW_AARCH64_X13] = PERF_REG_ARM64_X13,
		[UNW_AARCH64_X14] = PERF_REG_ARM64_X14, [UNW_AARCH64_X15] = PERF_REG_ARM64_X15,
		[UNW_AARCH64_X16] = PERF_REG_ARM64_X16, [UNW_AARCH64_X17] = PERF_REG_ARM64_X17,
		[UNW_AARCH64_X18] = PERF_REG_ARM64_X18, [UNW_AARCH64_X19] = PERF_REG_ARM64_X19,
		[UNW_AARCH64_X20] = PERF_REG_ARM64_X20, [UNW_AARCH64_X21] = PERF_REG_ARM64_X21,
		[UNW_AARCH64_X22] = PERF_REG_ARM64_X22, [UNW_AARCH64_X23] = PERF_REG_ARM64_X23,
		[UNW_AARCH64_X24] = PERF_REG_ARM64_X24, [UNW_AARCH64_X25] = PERF_REG_ARM64_X25,
		[UNW_AARCH64_X26] = PERF_REG_ARM64_X26, [UNW_AARCH64_X27] = PERF_REG_ARM64_X27,
		[UNW_AARCH64_X28] = PERF_REG_ARM64_X28, [UNW_AARCH64_X29] = PERF_REG_ARM64_X29,
		[UNW_AARCH64_X30] = PERF_REG_ARM64_LR,  [UNW_AARCH64_SP] = PERF_REG_ARM64_SP,
		[UNW_AARCH64_PC] = PERF_REG_ARM64_PC,
	};

	return reg >= 0 && (size_t)reg < sizeof(map) ? map[reg] : -1;
}
#endif

/* Register REG of a frame fp_step reached (x86_64: its IP, SP and FP; the
 * others are the sample's, as perf's unwinder leaves them). */
static bool fp_frame_reg(const struct uw_ctx *c, unw_regnum_t reg, unw_word_t *val)
{
	if (!c->fp_frame)
		return false;
	switch (reg) {
	case UNW_PC: *val = c->fp_ip; return true;
	case UNW_SP: *val = c->fp_sp; return true;
	case UNW_FP: *val = c->fp_fp; return true;
	default: return false;
	}
}

static int access_reg(unw_addr_space_t as, unw_regnum_t reg, unw_word_t *val, int write,
		      void *arg)
{
	const struct uw_ctx *c = arg;
	uint64_t v;

	if (write)
		return -UNW_EREADONLYREG;
	if (fp_frame_reg(c, reg, val))
		return 0;
	if (!uw_sample_reg(c->s, perf_reg(reg), &v))
		return -UNW_EBADREG;
	*val = v;
	return 0;
}

static int access_fpreg(unw_addr_space_t as, unw_regnum_t reg, unw_fpreg_t *val, int write,
			void *arg)
{
	return -UNW_EINVAL;   /* not sampled */
}

static int resume(unw_addr_space_t as, unw_cursor_t *cu, void *arg)
{
	return -UNW_EINVAL;
}

static int get_proc_name(unw_addr_space_t as, unw_word_t addr, char *buf, size_t len,
			 unw_word_t *offp, void *arg)
{
	return -UNW_EINVAL;   /* symbols are engine/symbols.c's business */
}

static unw_accessors_t accessors = {
	.find_proc_info = find_proc_info,
	.put_unwind_info = put_unwind_info,
	.get_dyn_info_list_addr = get_dyn_info_list_addr,
	.access_mem = uw_access_mem,
	.access_reg = access_reg,
	.access_fpreg = access_fpreg,
	.resume = resume,
	.get_proc_name = get_proc_name,
};

/* ---- the unwinder --------------------------------------------------- */

void unwinder_set_opener(struct unwinder *u, int (*open)(void *arg, const char *path),
			 void *arg)
{
	u->open = open;
	u->open_arg = arg;
}

struct unwinder *unwinder_new(void)
{
	struct unwinder *u;

	if (unwind_load(NULL, 0) < 0 || elf_version(EV_CURRENT) == EV_NONE ||
	    !(u = calloc(1, sizeof(*u))))
		return NULL;
	u->lib = &lib;
	u->page = (uint64_t)sysconf(_SC_PAGESIZE);
	u->steps.on = uw_steps_wanted();
	u->as = lib.unw_create_addr_space(&accessors, 0);
	if (!u->as) {
		free(u);
		return NULL;
	}
	lib.unw_set_caching_policy(u->as, UNW_CACHE_GLOBAL);
	/* libunwind's default, 128 IPs, is too few for a program's hot code;
	 * a failure (libunwind built with __thread) keeps it. */
	(void)lib.unw_set_cache_size(u->as, UW_RULES_CACHE, 0);
	return u;
}

void unwinder_free(struct unwinder *u)
{
	if (!u)
		return;
	for (unsigned i = 0; i < UW_FILES; i++)
		uw_file_close(u, &u->files[i]);
	lib.unw_destroy_addr_space(u->as);
	free(u->steps.rules);
	hashtab_free(&u->steps.index);
	free(u);
}

void unwinder_flush(struct unwinder *u)
{
	for (unsigned i = 0; i < UW_FILES; i++)
		uw_file_close(u, &u->files[i]);
	lib.unw_flush_cache(u->as, 0, 0);
	uw_steps_clear(&u->steps);
	u->flush_pending = false;
}

void unwinder_flush_path(struct unwinder *u, const char *path)
{
	uint64_t h = hash_str(path);

	for (unsigned i = 0; i < UW_FILES; i++) {
		struct uw_file *f = &u->files[i];
		if (f->path && f->hash == h && strcmp(f->path, path) == 0)
			uw_file_close(u, f);
	}
	/* the rules are cached by IP alone: which belong to PATH is unknown */
	lib.unw_flush_cache(u->as, 0, 0);
	uw_steps_clear(&u->steps);
	u->flush_pending = false;
}

/* The IP of the frame CU stands on, as the symbolizer wants it (unwind.h). */
static uint64_t frame_ip(unw_cursor_t *cu)
{
	unw_word_t ip = 0;

	lib.unw_get_reg(cu, UNW_REG_IP, &ip);
	/* After a step, unw_is_signal_frame says whether the frame stepped from
	 * was a signal trampoline (x86_64/Gos-linux.c; aarch64/Gis_signal_frame.c
	 * matches the vDSO's __kernel_rt_sigreturn, mov x8, #139; svc #0): then
	 * IP is where the signal interrupted, not a return address. */
	if (ip != 0 && lib.unw_is_signal_frame(cu) <= 0)
		ip--;
	return ip;
}

/* Register REG (x86_64: RBP, RSP) of the frame CU stands on; 0 unknown. */
static uint64_t frame_reg(unw_cursor_t *cu, unw_regnum_t reg)
{
	unw_word_t v = 0;

	return lib.unw_get_reg(cu, reg, &v) < 0 ? 0 : v;
}

/* Code no CFI covers (JIT code, hand-written assembly) is left through its
 * frame pointer FP, as perf's unwinder falls back: the caller's FP saved at
 * [FP], the return address at [FP + 8], the caller's SP FP + 16; the cursor
 * starts again there (libunwind's own guess takes a leaf's [SP] when the
 * saved FP looks odd to it).  Only when FP is plausible: at or above the
 * frame's SP (stacks grow down) and both words inside the stack copy, and
 * the return address in a known mapping; else the stack ends, truncated.
 * *IP: the return address less 1, as the walk gives them. */
static bool fp_step(struct uw_ctx *c, unw_cursor_t *cu, uint64_t fp, uint64_t sp, uint64_t *ip)
{
	const struct rec_sample *s = c->s;
	uint64_t saved, ret;

	if (!s->stack || fp < sp || fp < c->sp || s->stack_size < 16 ||
	    fp - c->sp > s->stack_size - 16)
		return false;
	memcpy(&saved, s->stack + (fp - c->sp), sizeof(saved));
	memcpy(&ret, s->stack + (fp - c->sp) + 8, sizeof(ret));
	if (ret == 0 || !c->find(c->find_arg, ret - 1))
		return false;
	c->fp_frame = true;
	c->fp_ip = ret;
	c->fp_sp = fp + 16;
	c->fp_fp = saved;
	if (lib.unw_init_remote(cu, c->u->as, c) < 0)
		return false;
	*ip = ret - 1;
	return true;
}

/* Steps up from the frame in CU, appending to IPS[*N] until MAX.  True
 * when the stack ended at its natural end. */
static bool walk(struct uw_ctx *c, unw_cursor_t *cu, uint64_t *ips, size_t *n, size_t max)
{
	while (*n < max) {
		int ret;
		uint64_t ip;
		uint64_t fp = frame_reg(cu, UNW_FP), sp = frame_reg(cu, UNW_SP);

		c->noinfo = false;
		ret = lib.unw_step(cu);
		if (c->noinfo) {
			if (!fp_step(c, cu, fp, sp, &ip))
				return false;
		} else if (ret < 0) {
			return false;
		} else if (ret == 0) {
			return true;      /* undefined return address: the outermost frame */
		} else {
			ip = frame_ip(cu);
		}
		if (ip == 0)
			return true;      /* a zero return address also ends chains */
		if (!c->find(c->find_arg, ip))
			return false;
		ips[(*n)++] = ip;
	}
	return false;
}

bool unwind_user_ip(const struct rec_sample *s, uint64_t *ip)
{
	return s->regs_user.abi == PERF_SAMPLE_REGS_ABI_64 && uw_sample_reg(s, PERF_REG_PC, ip);
}

size_t unwind_sample(struct unwinder *u, const struct rec_sample *s, unwind_find_map_fn find,
		     void *arg, uint64_t *ips, size_t max, bool *truncated)
{
	struct uw_ctx c = { .u = u, .s = s, .find = find, .find_arg = arg };
	unw_cursor_t cu;
	size_t n = 0;

	*truncated = true;
	if (max == 0)
		return 0;
	ips[n++] = s->ip;
	if (u->flush_pending) {   /* from a previous unwind: never inside a step */
		lib.unw_flush_cache(u->as, 0, 0);
		uw_steps_clear(&u->steps);
		u->flush_pending = false;
	}
	if (s->regs_user.abi != PERF_SAMPLE_REGS_ABI_64 || !uw_sample_reg(s, PERF_REG_SP, &c.sp) ||
	    !find(arg, s->ip))
		return n;
	if (u->steps.on && uw_replay(&c, ips, &n, max, truncated))
		return n;
	n = 1;
	if (lib.unw_init_remote(&cu, u->as, &c) < 0)
		return n;
	*truncated = !walk(&c, &cu, ips, &n, max);
	if (u->steps.on)
		uw_steps_note(&u->steps, ips, n);
	return n;
}
