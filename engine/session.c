#include "engine/session.h"
#include "engine/session-priv.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <math.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "arch/plan.h"
#include "engine/callgraph.h"
#include "engine/disasm.h"
#include "engine/mux.h"
#include "engine/ordered.h"
#include "engine/pprof.h"
#include "engine/pfm.h"
#include "engine/record.h"
#include "engine/ring.h"
#include "engine/symbols.h"
#include "engine/sys.h"
#include "engine/target.h"
#include "engine/unwind.h"

/* -g dwarf: the user registers perf samples on this architecture
 * (engine/unwind.h): every one the unwinder may read. */
#define CG_REGS_USER UNWIND_REGS_USER
/* Frames kept per stack; deeper stacks end truncated.  Like perf's default
 * (perf_event_max_stack, 127): each step costs libunwind about 0.5 us here
 * (two sigprocmask calls around its global cache's lock), so this also
 * bounds a deep recursion's stack to some 60 us. */
#define CG_FRAMES_MAX 128
/* The ring (data pages per CPU) with -g dwarf when -m was not given: each
 * sample carries the stack copy (8 KB by default), so the 64-page (256 KB)
 * default would hold only some 30 samples; 256 pages (1 MB per CPU) hold
 * 120, over 100 ms of a busy core at 1 kHz, and ride out a slow poll. */
#define CG_DWARF_RING_PAGES 256
/* The ring with -a when -m was not given: every task's records come
 * through one CPU's ring, a fork storm's FORK, COMM, MMAP2 and EXIT records
 * beside the samples; 256 pages (1 MB per CPU, perf record -a's default is
 * 512 KB to 4 MB) ride out a poll behind. */
#define SYSWIDE_RING_PAGES 256
/* The unwinder's time per batch (one session_poll).  At 1 kHz a busy core
 * gives 1000 stacks a second; at 5-40 us each (unwinding with warm caches
 * and symbolizing the frames) that is 5-40 ms of work per second, 0.5-4 %
 * of a CPU: keeping up is the normal case.  A poll's batch holds what came
 * since the previous one, some 100 samples (0.5-4 ms of work); 20 ms allows
 * a backlog 5 times the worst of that, yet a poll never keeps keys waiting
 * noticeably (the UI's tick is 100 ms).  Past it, the batch's remaining
 * samples count in the profile without their stack (stacks_skipped). */
#define CG_BATCH_BUDGET_NS 20000000ull
/* perf_event_max_stack when /proc does not say (the kernel's default). */
#define CG_MAX_STACK_DEFAULT 127

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* --- address spaces ----------------------------------------------------- */

/* Address spaces with symbols of their own.  Past this many processes (a
 * fork storm, a hostile file) the spaces of processes that exited are
 * freed; with none to free, a new process gets none (its samples count, in
 * [unknown]): never another process's mappings. */
#define MAX_SPACES 4096

static bool space_is(const void *key, uint32_t idx, const void *ctx)
{
	return ((const struct session *)ctx)->spaces[idx].pid == *(const pid_t *)key;
}

struct space *space_find(struct session *s, pid_t pid)
{
	uint32_t k = hashtab_find(&s->space_index, hash_mix((uint32_t)pid), &pid, space_is, s);

	return k == HASHTAB_NONE ? NULL : &s->spaces[k];
}

static int index_space(struct session *s, int k)
{
	return hashtab_add(&s->space_index, hash_mix((uint32_t)s->spaces[k].pid), (uint32_t)k);
}

static void space_free(struct space *sp)
{
	symtab_free(sp->st);
	unwinder_free(sp->uw);
}

/* Frees the spaces of processes that exited at or before BEFORE (now_ns;
 * UINT64_MAX: all; the target's is kept: the asm view looks there first)
 * and re-indexes the rest.  Every space pointer taken before is invalid
 * after. */
static void spaces_evict_exited(struct session *s, uint64_t before)
{
	int kept = 0;

	for (int k = 0; k < s->nspaces; k++) {
		if (s->spaces[k].exited && s->spaces[k].exit_ns <= before &&
		    (s->system_wide || s->spaces[k].pid != s->target.pid))
			space_free(&s->spaces[k]);
		else
			s->spaces[kept++] = s->spaces[k];
	}
	s->nspaces = kept;
	hashtab_clear(&s->space_index);
	for (int k = 0; k < kept; k++)
		index_space(s, k);  /* no memory needed: the table only shrank */
}

/* A process's records may still be on their way from other CPUs' rings a
 * moment after its EXIT: every ring is drained at each poll (at most 100 ms
 * apart, the UI's tick and batch mode's wait), and the time-ordered queue
 * lets a record through one round later (a process's samples were written
 * before its EXIT: they are delivered before it).  Half a second later,
 * five polls at least, its symbols are freed:
 * a busy machine makes hundreds of processes a second, each space holding
 * its mappings and libdwfl's view of its files (the function tables are
 * shared, engine/symbols.c). */
#define SPACE_GRACE_NS 500000000ull

/* Live: frees the spaces of processes that exited over SPACE_GRACE_NS ago
 * (checked four times as often). */
static void spaces_expire(struct session *s)
{
	uint64_t t = now_ns();

	if (t - s->last_expire < SPACE_GRACE_NS / 4)
		return;
	s->last_expire = t;
	for (int k = 0; k < s->nspaces; k++)
		if (s->spaces[k].exited && t - s->spaces[k].exit_ns > SPACE_GRACE_NS) {
			spaces_evict_exited(s, t - SPACE_GRACE_NS);
			/* what the freed spaces held goes back to the system, not
			 * only to malloc's free lists (peak RSS on a busy machine) */
			malloc_trim(0);
			return;
		}
}

/* The space of process PID, made if new.  It may move the spaces: a pointer
 * to another space taken before is invalid after. */
struct space *space_get(struct session *s, pid_t pid)
{
	struct space *sp = space_find(s, pid);

	if (sp)
		return sp;
	if (s->nspaces == MAX_SPACES)
		spaces_evict_exited(s, UINT64_MAX);
	if (s->nspaces == MAX_SPACES)
		return NULL;
	if (GROW(s->spaces, (size_t)s->nspaces + 1, s->capspaces) < 0)
		return NULL;
	sp = &s->spaces[s->nspaces];
	sp->pid = pid;
	sp->st = symtab_new();
	sp->last_refresh = 0;
	sp->uw = NULL;
	sp->exited = false;
	sp->exit_ns = 0;
	if (!sp->st || index_space(s, s->nspaces) < 0) {
		symtab_free(sp->st);
		return NULL;
	}
	if (s->src->space_init)
		s->src->space_init(s, sp);
	s->nspaces++;
	return sp;
}

/* A sample outside every known mapping: the mapping record may be in another
 * CPU's ring or predate the watch; re-read /proc/PID/maps, rate-limited. */
static void space_refresh(struct space *sp)
{
	uint64_t t = now_ns();

	if (t - sp->last_refresh < MAP_REFRESH_NS)
		return;
	sp->last_refresh = t;
	symtab_add_proc_maps(sp->st, sp->pid);
}

/* --- records ------------------------------------------------------------ */

static int by_id(const void *a, const void *b)
{
	const struct mux_fd *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Per sample: the fds are sorted by id once they are all open. */
static struct mux_fd *fd_of(const struct session *s, uint64_t id)
{
	struct mux_fd key = { .id = id };

	return bsearch(&key, s->fds, (size_t)s->nfds, sizeof(key), by_id);
}

int session_event_of(const struct session *s, uint64_t id)
{
	const struct mux_fd *f = fd_of(s, id);

	return f ? f->ev : -1;
}

/* --- call stacks -------------------------------------------------------- */

/* How the samples of event EV carry their stacks. */
static int stack_kind(const struct session *s, int ev)
{
	const struct perf_event_attr *a = s->src->attr(s, ev);
	const uint64_t regs_stack = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	if ((a->sample_type & regs_stack) == regs_stack && a->sample_regs_user)
		return CALL_GRAPH_DWARF;
	if (a->sample_type & PERF_SAMPLE_CALLCHAIN)
		return CALL_GRAPH_FP;
	return CALL_GRAPH_NONE;
}

/* The unwinder's view of an address space: its executable mappings.  The
 * answers stay valid for the next few calls (unwind.c uses each at once). */
struct find_ctx {
	struct symtab *st;
	struct unwind_map m[4];
	unsigned next;
};

static const struct unwind_map *find_map(void *arg, uint64_t addr)
{
	struct find_ctx *c = arg;
	struct symtab_map sm;
	struct unwind_map *m;

	if (!symtab_mapping(c->st, addr, &sm))
		return NULL;
	m = &c->m[c->next++ % 4];
	*m = (struct unwind_map){ sm.start, sm.end, sm.pgoff, sm.path };
	return m;
}

/* aarch64 -g fp: a function that has not stored its frame record (a leaf,
 * or a prologue) has its caller's return address in LR only, and the
 * kernel's frame-pointer walk goes from the sampled IP straight to the
 * caller's caller.  As perf does (tools/perf/util/arm64-frame-pointer-
 * unwind-support.c): the user registers come with the sample, one DWARF
 * step from the leaf (the unwinder, no stack needed while LR holds the
 * return address) gives its caller, inserted when the walk lacks it.  IPS
 * holds N entries (return addresses less 1); returns the new count. */
static size_t leaf_fixup(struct space *sp, const struct rec_sample *smp, uint64_t *ips,
			 size_t n, size_t max)
{
#if defined(__aarch64__)
	struct find_ctx c = { .st = sp->st };
	uint64_t two[2];
	bool truncated;

	if (n == 0 || n == max || smp->regs_abi == PERF_SAMPLE_REGS_ABI_NONE || !smp->n_regs ||
	    (!sp->uw && !(sp->uw = unwinder_new())) ||
	    unwind_sample(sp->uw, smp, find_map, &c, two, 2, &truncated) != 2 ||
	    (n > 1 && ips[1] == two[1]))
		return n;
	memmove(ips + 2, ips + 1, (n - 1) * sizeof(*ips));
	ips[1] = two[1];
	return n + 1;
#else
	(void)sp, (void)smp, (void)max;
	(void)ips;
	return n;
#endif
}

/* PERF_SAMPLE_CALLCHAIN holds the kernel's frame-pointer walk, a marker
 * (PERF_CONTEXT_*) before each part: the kernel's frames, then the user's
 * (perf's order).  The kernel part of a sample taken in the kernel into
 * IPS after the sampled IP (ips[0]): every entry past the sampled IP is a
 * return address, looked up at ip - 1 (inside the call), as user frames
 * are.  Returns the count, the sampled IP included; *KERNEL_WALKED says how
 * many entries the kernel wrote there (perf_event_max_stack counts them). */
static size_t kernel_stack(const struct rec_sample *smp, uint64_t *ips, size_t max,
			   uint64_t *kernel_walked)
{
	size_t n = 0;
	bool in_kernel = false;

	ips[n++] = smp->ip;
	*kernel_walked = 0;
	if (!record_cpumode_kernel(smp->cpumode))
		return n;
	for (uint64_t i = 0; i < smp->nr_ips; i++) {
		uint64_t ip = smp->ips[i];
		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			in_kernel = ip == (uint64_t)PERF_CONTEXT_KERNEL;
			continue;
		}
		if (!in_kernel)
			continue;
		if ((*kernel_walked)++ == 0 && ip == smp->ip)
			continue;  /* the sampled IP: ips[0] already */
		if (n < max && ip)
			ips[n++] = ip - 1;
	}
	return n;
}

/* PERF_SAMPLE_CALLCHAIN: the kernel's frames (kernel_stack: *NKERNEL of
 * them, the sampled IP included when the sample is the kernel's), then the
 * user's: the first is the sampled IP (of a sample taken in the kernel:
 * where user space entered it, kept as is), every later one a return
 * address, looked up at ip - 1.  The chain ends truncated at a user address
 * outside the known mappings (a frame pointer that is not one) or when the
 * kernel's perf_event_max_stack cut it. */
static size_t fp_stack(const struct session *s, struct space *sp,
		       const struct rec_sample *smp, uint64_t *ips, size_t max,
		       bool *truncated, size_t *nkernel)
{
	uint64_t user = 0, walked;
	size_t n = kernel_stack(smp, ips, max, &walked);
	bool in_user = true;
	struct symtab_map sm;

	*nkernel = record_cpumode_kernel(smp->cpumode) ? n : 0;
	*truncated = false;
	for (uint64_t i = 0; i < smp->nr_ips; i++) {
		uint64_t ip = smp->ips[i];
		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			in_user = ip == (uint64_t)PERF_CONTEXT_USER;
			continue;
		}
		if (!in_user)
			continue;
		if (user++ == 0) {  /* the sampled IP: frames[0] already */
			if (ip == smp->ip)
				continue;
		} else if (ip == 0) {
			break;  /* the outermost frame */
		} else {
			ip--;
		}
		if (n == max || !symtab_mapping(sp->st, ip, &sm)) {
			*truncated = true;
			return n;
		}
		ips[n++] = ip;
	}
	if (s->max_stack > 0 && user + walked >= (uint64_t)s->max_stack)
		*truncated = true;
	/* a user-mode sample's leaf: its caller may be in LR only (aarch64) */
	return *nkernel == 0 ? leaf_fixup(sp, smp, ips, n, max) : n;
}

/* REGS_USER + STACK_USER: unwound here (entries past the first are already
 * return addresses less 1, see unwind.h).  A sample taken in the kernel
 * keeps its user stack, as perf's does: the kernel's frames from the
 * callchain (*NKERNEL entries, the sampled IP first), then the user stack
 * unwound from the user registers and stack copy (the first entry where
 * user space entered the kernel); a kernel thread has none. */
static size_t dwarf_stack(struct space *sp, const struct rec_sample *smp, uint64_t *ips,
			  size_t max, bool *truncated, size_t *nkernel)
{
	struct find_ctx c = { .st = sp->st };
	struct rec_sample user;
	uint64_t walked;
	size_t n = 0;

	*nkernel = 0;
	*truncated = false;
	if (record_cpumode_kernel(smp->cpumode)) {
		n = *nkernel = kernel_stack(smp, ips, max, &walked);
		if (smp->regs_abi == PERF_SAMPLE_REGS_ABI_NONE)
			return n;  /* a kernel thread: no user part */
		user = *smp;
		if (n == max || !unwind_user_ip(smp, &user.ip)) {
			*truncated = true;
			return n;
		}
		smp = &user;
	}
	if (!sp->uw && !(sp->uw = unwinder_new())) {
		ips[n] = smp->ip;
		*truncated = true;
		return n + 1;
	}
	return n + unwind_sample(sp->uw, smp, find_map, &c, ips + n, max - n, truncated);
}

static void kernel_symbol(struct session *s, uint64_t ip, struct sym_info *si);

/* The stack of sample SMP (of event EV, weighing N, whose IP is LEAF) into
 * the call graph, within the batch's time budget in a live watch. */
static void add_stack(struct session *s, struct space *sp, int ev,
		      const struct rec_sample *smp, const struct sym_info *leaf, uint64_t n)
{
	uint64_t ips[CG_FRAMES_MAX];
	struct cg_frame frames[CG_FRAMES_MAX];
	struct sym_info si;
	bool truncated;
	size_t nips;
	int kind = stack_kind(s, ev);

	if (kind == CALL_GRAPH_NONE)
		return;
	if (!s->src->recorded && s->cg_batch_ns >= CG_BATCH_BUDGET_NS) {
		s->stacks_skipped++;
		return;
	}
	/* the time budget is the live watch's: a file is read whole */
	uint64_t t0 = s->src->recorded ? 0 : now_ns();
	size_t nkernel = 0;  /* ips[0, nkernel) are the kernel's */
	if (kind == CALL_GRAPH_DWARF)
		nips = dwarf_stack(sp, smp, ips, CG_FRAMES_MAX, &truncated, &nkernel);
	else
		nips = fp_stack(s, sp, smp, ips, CG_FRAMES_MAX, &truncated, &nkernel);
	frames[0] = (struct cg_frame){ leaf->name ? leaf->name : CG_UNKNOWN,
				       leaf->module ? leaf->module : CG_UNKNOWN };
	for (size_t i = 1; i < nips; i++) {
		if (i < nkernel)
			kernel_symbol(s, ips[i], &si);
		else if (!symtab_lookup(sp->st, ips[i], &si))
			si.name = NULL, si.module = NULL;
		frames[i] = (struct cg_frame){ si.name ? si.name : CG_UNKNOWN,
					       si.module ? si.module : CG_UNKNOWN };
	}
	nips = nips ? nips : 1;
	/* the whole machine's stacks start at their process, as perf script |
	 * stackcollapse-perf.pl starts them: flame graphs keep processes apart */
	const char *comm = s->system_wide ? profile_process_comm(s->prof, smp->pid) : NULL;
	size_t nframes = nips;
	if (comm && nframes < CG_FRAMES_MAX)
		frames[nframes++] = (struct cg_frame){ comm, CG_PROCESS_MODULE };
	callgraph_add(s->cg, ev, frames, nframes, truncated, n);
	if (s->pacc) {  /* --format pprof: the stack by address, per thread */
		ips[0] = smp->ip;
		pprof_acc_add_stack(s->pacc, ev, smp->pid, smp->tid, ips, frames, nips, n);
	}
	if (!s->src->recorded) {
		uint64_t dt = now_ns() - t0;
		s->cg_batch_ns += dt;
		s->cg_ns += dt;
	}
	s->cg_stacks++;
}

/* /proc/sys/kernel/perf_event_paranoid, or 2 (the kernel's default). */
static int paranoid_level(void)
{
	FILE *f = sys_fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

/* perf_event_max_stack: how many frames the kernel puts in a callchain. */
static int read_max_stack(void)
{
	FILE *f = sys_fopen("/proc/sys/kernel/perf_event_max_stack", "r");
	int v = 0;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v > 0 ? v : CG_MAX_STACK_DEFAULT;
}

int session_enable_callgraph(struct session *s, int mode)
{
	if (mode == CALL_GRAPH_NONE || s->cg)
		return 0;
	s->cg = callgraph_new(s->events.n);
	if (!s->cg)
		return -1;
	s->max_stack = read_max_stack();
	return 0;
}

int session_parse_call_graph(const char *spec, struct session_opts *o, char *err,
			     size_t errsz)
{
	if (strcmp(spec, "fp") == 0) {
		o->call_graph = CALL_GRAPH_FP;
		o->stack_size = 0;
		return 0;
	}
	if (strncmp(spec, "dwarf", 5) != 0 || (spec[5] != '\0' && spec[5] != ',')) {
		snprintf(err, errsz, "unknown --call-graph '%s' (dwarf, dwarf,SIZE or fp)", spec);
		return -1;
	}
	unsigned long v = CALL_GRAPH_STACK_DEFAULT;
	if (spec[5] == ',') {
		char *end;
		errno = 0;
		v = isdigit((unsigned char)spec[6]) ? strtoul(spec + 6, &end, 10) : 0;
		if (!isdigit((unsigned char)spec[6]) || errno || *end || v == 0 || v % 8 ||
		    v > CALL_GRAPH_STACK_MAX) {
			snprintf(err, errsz, "--call-graph '%s': the stack size is a multiple of 8 "
				 "bytes, 8 to %u", spec, CALL_GRAPH_STACK_MAX);
			return -1;
		}
	}
	o->call_graph = CALL_GRAPH_DWARF;
	o->stack_size = (uint32_t)v;
	return 0;
}

/* --- samples ------------------------------------------------------------ */

/* Whether a sample was taken in the kernel: its record's cpumode says, as
 * perf reads it, never the address (32-bit and ARM kernels live where
 * x86_64's user space does).  A sample without a cpumode is nobody's: perf
 * finds no map for it, and the user lookup finds none either. */
static bool kernel_sample(uint16_t misc)
{
	switch (misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL:
	case PERF_RECORD_MISC_GUEST_KERNEL:
	case PERF_RECORD_MISC_HYPERVISOR:
		return true;
	default:
		return false;
	}
}

/* The function and module at IP in SP (NULL: a process past the spaces'
 * cap); a miss live re-reads /proc/PID/maps (the mapping may predate the
 * watch), rate-limited. */
static void user_symbol(struct session *s, struct space *sp, uint64_t ip, struct sym_info *si)
{
	if (sp && symtab_lookup(sp->st, ip, si))
		return;
	if (sp && !s->src->recorded) {
		space_refresh(sp);
		if (symtab_lookup(sp->st, ip, si))
			return;
	}
	si->name = NULL;
	si->module = "[unknown]";
}

/* The kernel symbols of the source's kernel: the running one's for a live
 * watch; for a recording, those perf record cached for its kernel's build
 * id, else the running kernel's if it is that kernel; for a recording
 * without the build id (a pipe's), the running kernel's when it was
 * recorded here, as perf report names them (else *SAY: ERR says why);
 * else none. */
static struct ksymtab *load_kernel_symbols(const struct session *s, char *err, size_t errsz,
					   bool *say)
{
	uint8_t id[64];
	size_t len;

	*say = !s->src->recorded;
	if (!s->src->kernel_build_id)
		return ksymtab_load(NULL, NULL, err, errsz);
	if (!(len = s->src->kernel_build_id(s, id, sizeof(id)))) {
		*say = true;
		if (!s->src->recorded_here || !s->src->recorded_here(s, err, errsz))
			return NULL;  /* whose kernel: unknown, or another */
		return ksymtab_load(NULL, NULL, err, errsz);
	}
	struct ksymtab *k = ksymtab_load_cached(id, len, err, errsz);
	if (!k && (k = ksymtab_load(NULL, NULL, err, errsz)) && !ksymtab_matches(k, id, len)) {
		ksymtab_free(k);  /* recorded on another kernel */
		k = NULL;
	}
	return k;
}

/* Appends one clause to the session's one-line notice. */
static void add_notice(struct session *s, const char *fmt, ...)
{
	size_t len = strlen(s->events.notice);
	va_list ap;

	if (len && len + 2 < sizeof(s->events.notice)) {
		memcpy(s->events.notice + len, "; ", 3);
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(s->events.notice + len, sizeof(s->events.notice) - len, fmt, ap);
	va_end(ap);
}

/* Reads the kernel's symbols once.  A live watch that cannot read them
 * (kernel.kptr_restrict, no /proc) says so: its kernel samples stay
 * [unknown] in [kernel.kallsyms], as perf top's do then. */
static void load_kernel_names(struct session *s)
{
	char err[256] = "";
	bool say;

	s->ksyms_tried = true;
	s->ksyms = load_kernel_symbols(s, err, sizeof(err), &say);
	if (!s->ksyms && say && err[0])
		add_notice(s, "kernel functions unnamed: %s", err);
}

/* A kernel function from kallsyms, when there are the source kernel's;
 * else [unknown] in [kernel.kallsyms], as perf report without them. */
static void kernel_symbol(struct session *s, uint64_t ip, struct sym_info *si)
{
	if (!s->ksyms_tried)
		load_kernel_names(s);
	if (s->ksyms && ksymtab_lookup(s->ksyms, ip, si))
		return;
	si->name = NULL;
	si->module = "[kernel.kallsyms]";
}

/* The owner of process PID from /proc ("" when gone). */
static void read_user(pid_t pid, char *user, size_t sz)
{
	char path[64], line[256];
	unsigned uid;
	FILE *f;

	user[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (!(f = sys_fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %u", &uid) == 1) {
			struct passwd pw, *res = NULL;
			char buf[1024];
			if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) == 0 && res)
				snprintf(user, sz, "%s", pw.pw_name);
			else
				snprintf(user, sz, "%u", uid);
			break;
		}
	fclose(f);
}

static void read_line(const char *path, char *buf, size_t sz)
{
	FILE *f = sys_fopen(path, "r");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int)sz, f))
			buf[0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

static void name_threads(struct session *s, pid_t pid, const pid_t *tids, int n);

/* System-wide: a process older than the watch had its COMM record before
 * it: its name, owner and threads' names from /proc, as perf synthesizes
 * them.  The idle task (pid 0) is perf's "swapper". */
static void name_process(struct session *s, pid_t pid)
{
	char path[64], comm[PROFILE_COMM_MAX + 2], user[PROFILE_USER_MAX];
	pid_t tids[256];

	if (pid == 0) {
		profile_process_fill(s->prof, 0, "swapper", "root");
		profile_set_thread_name(s->prof, 0, "swapper");
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	read_line(path, comm, sizeof(comm));
	read_user(pid, user, sizeof(user));
	/* gone already: named as unknown, not read again */
	profile_process_fill(s->prof, (uint32_t)pid, comm[0] ? comm : "?", user[0] ? user : "?");
	int n = target_tids(pid, tids, 256);
	if (n > 0)
		name_threads(s, pid, tids, n);
}

/* A file several processes map (libc under make, g++'s driver and its
 * cc1plus) lies at another address in each.  The profile keeps a file's
 * samples at the addresses it had in the first process seen in it (its
 * canonical load bias): each sample's own mapping gives its address in
 * the file, so every process's samples of an instruction meet in one row,
 * as perf annotate adds them up by file address.  Code no file backs
 * ([JIT], [anon], the kernel) keeps its process's own addresses. */
static uint64_t canonical_ip(struct session *s, uint64_t ip, const struct sym_info *si)
{
	size_t n = s->canon_mods.n;
	int64_t k;

	if (!si->module || si->module[0] != '/' ||
	    GROW(s->canon_base, n + 1, s->canon_alloc) < 0 ||
	    (k = strpool_id(&s->canon_mods, si->module)) < 0)
		return ip;
	if ((size_t)k == n)
		s->canon_base[k] = si->module_base;
	return ip - si->module_base + s->canon_base[k];
}

/* The canonical load bias of MODULE's addresses in the profile; false when
 * its addresses are its process's own (see canonical_ip). */
static bool canonical_base(struct session *s, const char *module, uint64_t *base)
{
	int64_t k;

	if (!module || !strpool_find(&s->canon_mods, module) ||
	    (k = strpool_id(&s->canon_mods, module)) < 0)
		return false;
	*base = s->canon_base[k];
	return true;
}

/* Sample SMP of event EV, its IP named SI, into the profile and the stacks. */
static void add_sample(struct session *s, struct space *sp, int ev,
		       const struct rec_sample *smp, const struct sym_info *si)
{
	uint64_t n = s->src->weigh(s, ev, smp);

	profile_add_pid(s->prof, ev, smp->pid, smp->tid, canonical_ip(s, smp->ip, si), si->name,
			si->module, n);
	if (s->pacc)
		pprof_acc_add(s->pacc, ev, smp->pid, smp->tid, smp->ip, si->name, si->module, n);
	if (s->cg && sp)
		add_stack(s, sp, ev, smp, si, n);
}

/* A sample that reads counters (PERF_SAMPLE_READ: perf record -e
 * '{a,b}:S', the leader sampling for its group) is, for each counter it
 * read, a sample of that counter's event weighing what it counted since
 * its last read, and none where it counted nothing (perf's
 * deliver_sample_value, util/session.c).  Records come in time order, so
 * the last read of each id is the previous one. */
static void add_read_values(struct session *s, struct space *sp, const struct rec_sample *smp,
			    const struct sym_info *si)
{
	for (uint64_t i = 0; i < smp->read.nr; i++) {
		uint64_t value, id;
		record_read_value(&smp->read, i, &value, &id);
		struct mux_fd *f = fd_of(s, id);
		if (!f || f->ev < 0)
			continue;
		struct rec_sample one = *smp;
		one.id = id;
		/* a counter only grows: a smaller value (a hostile file, or
		 * inherited counters of several threads sharing an id) is
		 * ignored, where value - last would weigh near 2^64 and wrap
		 * the sums; the next read counts from the largest value seen,
		 * so an id's samples never weigh more than its last count */
		if (value <= f->last_read)
			continue;
		one.period = value - f->last_read;
		f->last_read = value;
		add_sample(s, sp, f->ev, &one, si);
	}
}

static void handle_sample(struct session *s, const struct rec_sample *smp, uint16_t misc)
{
	struct sym_info si;
	int ev = session_event_of(s, smp->id);

	if (ev < 0)
		return;
	struct space *sp = space_get(s, (pid_t)smp->pid);
	if (kernel_sample(misc))
		kernel_symbol(s, smp->ip, &si);
	else
		user_symbol(s, sp, smp->ip, &si);
	/* live: names from /proc; recorded: the idle task's only (perf's name) */
	if (s->system_wide && (!s->src->recorded || smp->pid == 0) &&
	    !profile_process_named(s->prof, smp->pid))
		name_process(s, (pid_t)smp->pid);
	if (s->src->attr(s, ev)->sample_type & PERF_SAMPLE_READ)
		add_read_values(s, sp, smp, &si);
	else
		add_sample(s, sp, ev, smp, &si);
}

/* A new process starts with its parent's mappings (records come in time
 * order: nothing of the child's can precede its FORK, but a file may hold a
 * process made before the recording: a live space is kept).  A pid whose
 * process exited is another process now: the dead one's mappings and
 * unwinder go, and the space lives again (not freed as exited).  The
 * child's space is made first: making it may move the parent's. */
static void fork_space(struct session *s, pid_t pid, pid_t ppid)
{
	struct space *child = space_find(s, pid);

	if (child && !child->exited)
		return;
	if (child) {
		symtab_clear(child->st);
		if (child->uw)
			unwinder_flush(child->uw);
		child->exited = false;
		child->exit_ns = 0;
	} else if (!(child = space_get(s, pid))) {
		return;
	}
	struct space *parent = space_find(s, ppid);
	if (parent)
		symtab_copy_maps(child->st, parent->st);
}

static void handle_task(struct session *s, const struct record *r)
{
	const struct rec_task *t = &r->u.task;

	if (r->type == PERF_RECORD_EXIT)
		profile_thread_exit(s->prof, t->tid, t->time);
	else
		profile_thread_fork(s->prof, t->tid, t->ptid, t->time);
	if (r->type == PERF_RECORD_EXIT && t->pid == t->tid) {
		struct space *sp = space_find(s, (pid_t)t->pid);
		if (sp) {
			sp->exited = true;
			sp->exit_ns = now_ns();
		}
		profile_process_exit(s->prof, t->pid, t->time);
	}
	if (r->type == PERF_RECORD_FORK && t->pid != t->ppid) {
		/* the child takes the parent's name and owner: know them now,
		 * while the parent surely lives */
		if (s->system_wide && !s->src->recorded && !profile_process_named(s->prof, t->ppid))
			name_process(s, (pid_t)t->ppid);
		profile_process_fork(s->prof, t->pid, t->ppid, t->time);
	}
	if (r->type == PERF_RECORD_FORK && t->pid != t->ppid)
		fork_space(s, (pid_t)t->pid, (pid_t)t->ppid);
}

static void handle_other(struct session *s, const struct record *r)
{
	struct space *sp;
	char jit[32];

	switch (r->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		/* the kernel's text (pid -1) is named from kallsyms, not mapped */
		if (!(r->u.mmap.prot & PROT_EXEC) ||
		    (r->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL)
			break;
		sp = space_get(s, (pid_t)r->u.mmap.pid);
		if (sp)
			symtab_add_map(sp->st,
				       symbols_map_name(r->u.mmap.filename, (pid_t)r->u.mmap.pid,
							jit, sizeof(jit)),
				       r->u.mmap.addr, r->u.mmap.addr + r->u.mmap.len,
				       r->u.mmap.pgoff);
		break;
	case PERF_RECORD_COMM:
		profile_set_thread_name(s->prof, r->u.comm.tid, r->u.comm.comm);
		/* a process is named as its main thread (ps, top) */
		if (r->u.comm.exec || r->u.comm.pid == r->u.comm.tid)
			profile_set_process(s->prof, r->u.comm.pid, r->u.comm.comm, NULL);
		if (!r->u.comm.exec)
			break;
		sp = space_get(s, (pid_t)r->u.comm.pid);
		if (sp)
			symtab_clear(sp->st);
		if (sp && sp->uw)  /* another program: other files at other places */
			unwinder_flush(sp->uw);
		if ((pid_t)r->u.comm.pid == s->target.pid)
			snprintf(s->target.comm, sizeof(s->target.comm), "%s", r->u.comm.comm);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		handle_task(s, r);
		break;
	case PERF_RECORD_LOST:
		profile_add_lost(s->prof, r->u.lost.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		/* samples the kernel could not write (perf report's "Total Lost
		 * Samples"); those a BPF filter dropped are not lost */
		if (!(r->misc & PERF_RECORD_MISC_LOST_SAMPLES_BPF))
			profile_add_lost(s->prof, r->u.lost.lost);
		break;
	case PERF_RECORD_THROTTLE:
		profile_add_throttle(s->prof);
		break;
	default:
		break;
	}
}

/* One record, in time order: decoded, symbolized, added. */
static void deliver(const struct perf_event_header *h, void *arg)
{
	struct session *s = arg;
	struct record r;

	if (s->src->decode(s, h, &r) < 0) {
		profile_add_undecodable(s->prof);
		return;
	}
	if (r.type == PERF_RECORD_SAMPLE)
		handle_sample(s, &r.u.sample, r.misc);
	else
		handle_other(s, &r);
}

void session_collect(const struct perf_event_header *hdr, void *arg)
{
	struct session *s = arg;
	uint64_t t;

	if (s->sink)
		s->sink->write(s, hdr);
	if (s->src->time(s, hdr, &t))
		ordered_push(s->queue, hdr, t);
	else
		deliver(hdr, s);  /* no timestamp: as it comes, as perf does */
}

void session_round_end(struct session *s)
{
	s->cg_batch_ns = 0;
	ordered_round(s->queue);
}

void session_flush_records(struct session *s)
{
	s->cg_batch_ns = 0;
	ordered_flush(s->queue);
}

/* --- opening ------------------------------------------------------------ */

/* How one fd is opened. */
struct fd_spec {
	const struct ev_spec *ev;
	int index;        /* the event index, or MUX_REFERENCE */
	int group;        /* mux_fd.group: rotated with this group, or MUX_ALWAYS */
	bool first;       /* owns the side-band records (mmap, comm, task) */
	bool counting;    /* counts only (a TopDown slots or metric event) */
	bool member;      /* in the kernel group of its (thread, CPU)'s slots fd */
};

/* Launched targets: the fds enabled from the start get enable_on_exec;
 * the groups that wait for their slice start disabled (in either mode). */
static void attr_setup(struct perf_event_attr *a, const struct fd_spec *fs,
		       const struct session *s)
{
	bool waits = fs->group > 0, launched = s->target.launched;

	*a = fs->ev->attr;
	a->size = sizeof(*a);
	/* the internal reference and TopDown count only; an event in frequency
	 * mode (engine/events.h: the default of generic cycles) keeps it */
	bool samples = fs->index != MUX_REFERENCE && !fs->counting;
	a->freq = samples && fs->ev->attr.freq;
	if (a->freq)
		a->sample_freq = fs->ev->attr.sample_freq;
	else
		a->sample_period = samples ? fs->ev->sav : 0;
	a->sample_type = SAMPLE_TYPE;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			 PERF_FORMAT_ID;
	/* a group member follows its leader: enabled with it, never on its own */
	a->disabled = !fs->member && (launched || waits);
	a->enable_on_exec = !fs->member && launched && !waits;
	a->inherit = !s->system_wide;  /* a CPU's every task: nothing to inherit */
	a->sample_id_all = 1;
	if (s->user_only)
		a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->wakeup_events = 0;
	a->watermark = 1;
	a->wakeup_watermark = 16 * 1024;
	/* stacks on sampling fds only: the internal reference counts.  Dwarf
	 * also asks for an (empty: no kernel samples, no user chain) callchain
	 * as perf record does: perf report shows stacks of such events only. */
	if (fs->index != MUX_REFERENCE && s->call_graph == CALL_GRAPH_DWARF) {
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
				  PERF_SAMPLE_STACK_USER;
		a->exclude_callchain_user = 1;
		a->sample_regs_user = CG_REGS_USER;
		a->sample_stack_user = s->stack_size;
	} else if (fs->index != MUX_REFERENCE && s->call_graph == CALL_GRAPH_FP) {
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
#if defined(__aarch64__)
		a->sample_type |= PERF_SAMPLE_REGS_USER;  /* leaf_fixup's registers */
		a->sample_regs_user = CG_REGS_USER;
#endif
	}
	/* the kernel's frames too, where its samples may be seen (a kernel
	 * callchain needs the same permission as kernel samples) */
	a->exclude_callchain_kernel = a->exclude_kernel;
	/* 8 KB samples would wake the reader every other sample: a quarter
	 * of the ring instead (the ring's first fd sets it) */
	if (s->call_graph == CALL_GRAPH_DWARF)
		a->wakeup_watermark = (uint32_t)(s->ring_pages * (size_t)sysconf(_SC_PAGESIZE) / 4);
	if (fs->first) {
		a->mmap = 1;
		a->mmap2 = 1;
		a->comm = 1;
		a->comm_exec = 1;
		a->task = 1;
		/* perf report unwinds a recorded session's stacks only through
		 * mapped memory: .eh_frame lies in a read-only, non-executable
		 * segment.  (Our unwinder reads the files; the engine keeps only
		 * the executable mappings.) */
		a->mmap_data = s->call_graph == CALL_GRAPH_DWARF;
	}
}

static int push_fd(struct session *s, const struct mux_fd *f)
{
	if (GROW(s->fds, (size_t)s->nfds + 1, s->capfds) < 0)
		return -1;
	s->fds[s->nfds++] = *f;
	return 0;
}

static int add_fd(struct session *s, int fd, const struct fd_spec *fs)
{
	uint64_t id = 0;

	if (sys_ioctl(fd, PERF_EVENT_IOC_ID, (unsigned long)&id) < 0)
		return -1;
	return push_fd(s, &(struct mux_fd){ .fd = fd, .ev = fs->index, .group = fs->group,
					    .id = id });
}

int session_add_id(struct session *s, int ev, uint64_t id)
{
	return push_fd(s, &(struct mux_fd){ .fd = -1, .ev = ev, .group = MUX_ALWAYS, .id = id });
}

void session_sort_ids(struct session *s)
{
	qsort(s->fds, (size_t)s->nfds, sizeof(*s->fds), by_id);
}

static void open_error(struct session *s, const struct ev_spec *ev, pid_t pid, int e,
		       char *err, size_t errsz)
{
	if ((e == EACCES || e == EPERM) && s->system_wide)
		snprintf(err, errsz, "system-wide watching (-a) not permitted: perf_event_paranoid "
			 "is %d; it needs perf_event_paranoid <= 0, or CAP_PERFMON (or "
			 "CAP_SYS_ADMIN)", paranoid_level());
	else if (e == ENODEV && s->system_wide)
		snprintf(err, errsz, "a CPU to watch is offline or does not exist: %s",
			 sys_perf_strerror(e));
	else if ((e == EACCES || e == EPERM) && !s->target.launched)
		snprintf(err, errsz, "cannot watch pid %d: %s", (int)pid, sys_perf_strerror(e));
	else if (e == ESRCH)
		snprintf(err, errsz, "pid %d: %s", (int)pid, sys_perf_strerror(e));
	else if (pfm_host_kernel_pmu() && (e == ENOENT || e == EINVAL || e == EOPNOTSUPP))
		/* a hardware PMU that lacks the event (QEMU's has no BR_MIS_PRED;
		 * arm_pmuv3 refuses CHAIN, 0x1e, on its own) */
		snprintf(err, errsz, "event '%s' (model %s): the kernel's PMU %s does not take it: %s",
			 ev->name, s->events.model->name, pfm_host_kernel_pmu(),
			 e == ENOENT ? "no such event on this PMU" : sys_perf_strerror(e));
	else
		snprintf(err, errsz, "event '%s' (model %s): %s", ev->name, s->events.model->name,
			 sys_perf_strerror(e));
}

/* Whether the open of A failed only because it counts the kernel, which this
 * user may not watch (perf_event_paranoid 2 without CAP_PERFMON): then the
 * session goes on in user space only, and says so once.  An event the user
 * asked the kernel of (":k") keeps its error. */
static bool kernel_refused(struct session *s, const struct perf_event_attr *a,
			   const struct ev_spec *ev, int e)
{
	if ((e != EACCES && e != EPERM) || a->exclude_kernel || s->user_only ||
	    (s->system_wide && paranoid_level() > 0) ||
	    strstr(ev->pfm, ":k") || strstr(ev->name, ":k"))
		return false;
	s->user_only = true;
	add_notice(s, "kernel samples not permitted (perf_event_paranoid %d; root or CAP_PERFMON "
		   "lifts it): user space only", paranoid_level());
	return true;
}

/* One fd per (event, thread, CPU); the first fd of a CPU owns that CPU's
 * ring, the others write into it (mmap fails with inherit and cpu=-1). */
static int open_one(struct session *s, const struct fd_spec *fs, pid_t pid, int cpu,
		    int *slots_fd, char *err, size_t errsz)
{
	struct perf_event_attr a;
	struct ring *rg = &s->rings[cpu];
	int group_fd = fs->member ? *slots_fd : -1;

	attr_setup(&a, fs, s);
	if (fs->index >= 0)
		s->opened_attr[fs->index] = a;
	else
		s->ref_attr = a;
	int fd = sys_perf_event_open(&a, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && kernel_refused(s, &a, fs->ev, errno)) {
		/* perf's fallback: what the user may see is user space */
		attr_setup(&a, fs, s);
		if (fs->index >= 0)
			s->opened_attr[fs->index] = a;
		else
			s->ref_attr = a;
		fd = sys_perf_event_open(&a, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0) {
		open_error(s, fs->ev, pid, errno, err, errsz);
		return -1;
	}
	if (add_fd(s, fd, fs) < 0) {
		sys_close(fd);
		snprintf(err, errsz, "perf ioctl ID: %s", strerror(errno));
		return -1;
	}
	if (fs->counting && !fs->member)
		*slots_fd = fd;  /* the leader of this (thread, CPU)'s metric events */
	if (!rg->base) {
		if (ring_open(rg, fd, s->ring_pages) < 0) {
			snprintf(err, errsz, "mmap of the sample ring: %s", strerror(errno));
			return -1;
		}
	} else if (sys_ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)rg->fd) < 0) {
		snprintf(err, errsz, "perf ioctl SET_OUTPUT: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int open_fd_spec(struct session *s, const struct fd_spec *fs, const pid_t *tids,
			int ntids, char *err, size_t errsz)
{
	for (int t = 0; t < ntids; t++)
		for (int c = 0; c < s->ncpus; c++)
			if ((!s->cpu_on || s->cpu_on[c]) &&
			    open_one(s, fs, tids[t], c, &s->slots_fds[t * s->ncpus + c], err,
				     errsz) < 0)
				return -1;
	return 0;
}

/* How event E is opened: TopDown's slots and metric events count only, the
 * metric events in their slots event's kernel group. */
static struct fd_spec event_fd_spec(struct session *s, int e, int group, bool first)
{
	const struct ev_spec *ev = &s->events.ev[e];
	bool metric = s->topdown && events_is_metric(ev);

	return (struct fd_spec){ ev, e, group, first,
				 metric || (s->topdown && events_is_slots(ev)), metric };
}

/* Slots, when TopDown's metric events are asked for: its index; -1 when
 * there is none to lead; -2 with one line in ERR when there is no slots
 * event, or several (whose group would the metric events join?). */
static int topdown_leader(const struct session *s, char *err, size_t errsz)
{
	int slots = -1, metric = -1, nslots = 0;

	for (int e = 0; e < s->events.n; e++) {
		if (events_is_metric(&s->events.ev[e]) && metric < 0)
			metric = e;
		if (events_is_slots(&s->events.ev[e]) && nslots++ == 0)
			slots = e;
	}
	if (metric < 0)
		return -1;
	if (nslots == 1)
		return slots;
	if (nslots == 0)
		snprintf(err, errsz, "event '%s' counts through a group led by slots: add slots "
			 "to the list (-e slots,%s...)", s->events.ev[metric].name,
			 s->events.ev[metric].name);
	else
		snprintf(err, errsz, "TopDown's metric events take one slots event, not %d", nslots);
	return -2;
}

/* The event opened first, which carries the side-band records: the first
 * one that samples; with only TopDown's, their leader. */
static int first_event(const struct session *s, int slots)
{
	for (int e = 0; e < s->events.n; e++)
		if (s->opened[e] && !events_is_metric(&s->events.ev[e]) &&
		    !(slots >= 0 && e == slots))
			return e;
	return slots;
}

/* The fd group of event E: rotated only in time-slice mode with groups. */
static int fd_group(const struct session *s, int e)
{
	return s->mux.n_groups > 1 && s->group[e] >= 0 ? s->group[e] : MUX_ALWAYS;
}

/* With a reference, it is opened first and carries the side-band records:
 * it is the one fd that is never disabled, so no mmap or comm is missed
 * while a group waits for its slice. */
static int open_events(struct session *s, const pid_t *tids, int ntids, char *err,
		       size_t errsz)
{
	int slots = topdown_leader(s, err, errsz);
	int first = s->with_ref ? s->ref_ev : first_event(s, slots);

	if (slots == -2)
		return -1;
	s->topdown = slots >= 0;
	free(s->slots_fds);
	if (!(s->slots_fds = calloc((size_t)ntids * (size_t)s->ncpus, sizeof(int)))) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	if (s->with_ref && s->ref_ev == MUX_REFERENCE) {
		struct fd_spec fs = { &s->ref_spec, MUX_REFERENCE, MUX_ALWAYS, true, false, false };
		if (open_fd_spec(s, &fs, tids, ntids, err, errsz) < 0)
			return -1;
	}
	if (first >= 0) {
		struct fd_spec fs = event_fd_spec(s, first, MUX_ALWAYS, true);
		if (open_fd_spec(s, &fs, tids, ntids, err, errsz) < 0)
			return -1;
	}
	/* slots before its group's metric events */
	if (slots >= 0 && slots != first && s->opened[slots]) {
		struct fd_spec fs = event_fd_spec(s, slots, fd_group(s, slots), false);
		if (open_fd_spec(s, &fs, tids, ntids, err, errsz) < 0)
			return -1;
	}
	for (int e = 0; e < s->events.n; e++) {
		struct fd_spec fs = event_fd_spec(s, e, fd_group(s, e), false);
		if (e == first || e == slots || !s->opened[e])
			continue;
		if (open_fd_spec(s, &fs, tids, ntids, err, errsz) < 0)
			return -1;
	}
	if (!s->side)
		s->side = side_open(&s->events, tids, ntids, s->cpu_on, s->ncpus, s->system_wide,
				    s->target.launched);
	return 0;
}

/* --- planning ----------------------------------------------------------- */

static int plan_events(struct session *s, int max_counters, char *err, size_t errsz)
{
	s->plan = malloc(sizeof(*s->plan));
	if (!s->plan) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	/* A hardware PMU the model has no inventory for (arm64, a core without
	 * tables): the kernel's counters per group, as if --counters said so */
	if (!max_counters && !s->events.model->n_generic && !s->events.model->n_fixed)
		max_counters = pfm_host_counters();
	return mux_plan(&s->events, max_counters, s->plan, s->group, err, errsz);
}

/* The reference when the user did not ask for it: the model's cycles event,
 * encoded like any event, counting only. */
static int encode_reference(struct session *s, char *err, size_t errsz)
{
	struct ev_list *tmp = calloc(1, sizeof(*tmp));
	int rc = -1;

	if (!tmp)
		snprintf(err, errsz, "out of memory");
	else if (events_parse(s->events.model->cycles, s->events.model, tmp, err, errsz) == 0) {
		s->ref_spec = tmp->ev[0];
		rc = 0;
	}
	free(tmp);
	return rc;
}

/* Which events open, and whether a reference runs beside them: time-slice
 * mode needs it with several groups (the coverages' denominator), runs mode
 * always (the runs are compared by it). */
static int setup_mux(struct session *s, const struct session_opts *o, char *err,
		     size_t errsz)
{
	int n_groups = s->plan->n_groups;

	if (o->one_group && (o->group < 0 || o->group >= n_groups)) {
		snprintf(err, errsz, "group %d: the plan has %d group%s", o->group + 1, n_groups,
			 n_groups == 1 ? "" : "s");
		return -1;
	}
	for (int e = 0; e < s->events.n; e++)
		s->opened[e] = !o->one_group || s->group[e] == SNAP_EVERY_GROUP ||
			       s->group[e] == o->group;
	s->with_ref = o->one_group || n_groups > 1;
	s->ref_ev = s->plan->reference >= 0 ? s->plan->reference : MUX_REFERENCE;
	if (s->with_ref && s->ref_ev == MUX_REFERENCE && encode_reference(s, err, errsz) < 0)
		return -1;
	mux_start(&s->mux, o->one_group ? 1 : n_groups, o->slice_ms, now_ns());
	profile_set_plan(s->prof, n_groups, s->group,
			 o->one_group ? 0 : (int)(o->slice_ms ? o->slice_ms : MUX_SLICE_MS_DEFAULT));
	return 0;
}

static int setup_rings(struct session *s, size_t pages)
{
	s->ring_pages = pages ? pages : 64;
	if (s->ring_pages & (s->ring_pages - 1))
		return -1;
	s->rings = calloc((size_t)s->ncpus, sizeof(*s->rings));
	s->pfds = calloc((size_t)s->ncpus, sizeof(*s->pfds));
	return s->rings && s->pfds ? 0 : -1;
}

/* Threads older than the watch had their COMM record before it: name them
 * from /proc, as perf synthesizes COMM records for them. */
static void name_threads(struct session *s, pid_t pid, const pid_t *tids, int n)
{
	char path[64], comm[PROFILE_COMM_MAX + 2];

	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tids[i]);
		FILE *f = sys_fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = '\0';
			profile_set_thread_name(s->prof, (uint32_t)tids[i], comm);
		}
		fclose(f);
	}
}

static int attach_threads(struct session *s, char *err, size_t errsz)
{
	pid_t *tids = malloc(MAX_TIDS * sizeof(*tids));
	int n;

	if (!tids) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	n = target_tids(s->target.pid, tids, MAX_TIDS);
	if (n <= 0) {
		snprintf(err, errsz, "no process with pid %d", (int)s->target.pid);
		free(tids);
		return -1;
	}
	int rc = open_events(s, tids, n, err, errsz);
	if (rc == 0)
		name_threads(s, s->target.pid, tids, n);
	free(tids);
	return rc;
}

struct session *session_alloc(const struct session_source *src)
{
	struct session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->src = src;
	if (!(s->queue = ordered_new(deliver, s, 0))) {
		free(s);
		return NULL;
	}
	s->target.go_fd = s->target.err_fd = -1;
	s->ncpus = (int)sys_ncpus();
	if (s->ncpus < 1)
		s->ncpus = 1;
	s->t0 = s->last_snap = (double)now_ns() / 1e9;
	return s;
}

static const struct session_source live_source;

/* -g: the samples' format, and a ring that holds several stack copies
 * (a record larger than the ring is lost whole). */
static int setup_call_graph(struct session *s, const struct session_opts *o, char *err,
			    size_t errsz)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	s->fmt = (struct rec_format){ .sample_type = SAMPLE_TYPE, .sample_id_all = true };
	s->call_graph = o->call_graph;
	s->stack_size = o->stack_size ? o->stack_size : CALL_GRAPH_STACK_DEFAULT;
	switch (o->call_graph) {
	case CALL_GRAPH_NONE:
		return 0;
	case CALL_GRAPH_FP:
		s->fmt.sample_type |= PERF_SAMPLE_CALLCHAIN;
#if defined(__aarch64__)
		s->fmt.sample_type |= PERF_SAMPLE_REGS_USER;  /* leaf_fixup's registers */
		s->fmt.regs_user = CG_REGS_USER;
#endif
		break;
	case CALL_GRAPH_DWARF:
		if (s->stack_size % 8 || s->stack_size > CALL_GRAPH_STACK_MAX) {
			snprintf(err, errsz, "stack size %u: a multiple of 8 bytes, 8 to %u",
				 s->stack_size, CALL_GRAPH_STACK_MAX);
			return -1;
		}
		s->fmt.sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
				      PERF_SAMPLE_STACK_USER;
		s->fmt.regs_user = CG_REGS_USER;
		/* the copy, the registers, the other fields: a few hundred bytes */
		size_t need = 2 * ((size_t)s->stack_size + 512), pages = 1;
		while (pages * page < need)
			pages *= 2;
		if (s->ring_pages * page < need) {
			snprintf(err, errsz, "a ring of %zu pages is too small for %u-byte stack "
				 "copies: use -m %zu or more", s->ring_pages, s->stack_size, pages);
			return -1;
		}
		break;
	default:
		snprintf(err, errsz, "call graph mode %d: not dwarf or fp", o->call_graph);
		return -1;
	}
	if (session_enable_callgraph(s, o->call_graph) < 0) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	return 0;
}

/* One CPU number of a list at *P, advancing it; -1 when none is there. */
static long cpu_number(const char **p)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -1;
	errno = 0;
	long v = strtol(*p, &end, 10);
	if (errno || v > 65535)
		return -1;
	*p = end;
	return v;
}

/* ON[c] for every CPU of LIST ("0-3,6", as perf and /sys write them); a CPU
 * at or past NCPUS makes it fail with BAD set to that number. */
static int cpu_list_mark(const char *list, bool *on, int ncpus, long *bad)
{
	const char *p = list;

	*bad = -1;
	do {
		long lo = cpu_number(&p), hi = lo;
		if (lo >= 0 && *p == '-') {
			p++;
			hi = cpu_number(&p);
		}
		if (lo < 0 || hi < lo || (*p && *p != ','))
			return -1;
		for (long c = lo; c <= hi; c++) {
			if (c >= ncpus) {
				*bad = c;
				return -1;
			}
			on[c] = true;
		}
	} while (*p++ == ',');
	return 0;
}

/* The CPUs that are online (/sys), into ONLINE; all when it cannot say. */
static void cpus_online(bool *online, int ncpus)
{
	char buf[1024];
	long bad;

	read_line("/sys/devices/system/cpu/online", buf, sizeof(buf));
	memset(online, 0, (size_t)ncpus * sizeof(*online));
	if (!buf[0] || cpu_list_mark(buf, online, ncpus, &bad) < 0)
		for (int c = 0; c < ncpus; c++)
			online[c] = true;
}

int session_parse_cpu_list(const char *list, bool *on, int ncpus, char *err, size_t errsz)
{
	bool *online = calloc((size_t)ncpus, sizeof(*online));
	long bad;
	int rc = -1;

	memset(on, 0, (size_t)ncpus * sizeof(*on));
	if (!online) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	cpus_online(online, ncpus);
	if (cpu_list_mark(list, on, ncpus, &bad) < 0 && bad < 0) {
		snprintf(err, errsz, "-C '%s': not a CPU list (like 0,2-3)", list);
	} else if (bad >= 0) {
		snprintf(err, errsz, "-C %s: there is no CPU %ld (this machine has %d: 0-%d)", list,
			 bad, ncpus, ncpus - 1);
	} else {
		rc = 0;
		for (int c = 0; c < ncpus && rc == 0; c++)
			if (on[c] && !online[c]) {
				snprintf(err, errsz, "-C %s: CPU %d is offline", list, c);
				rc = -1;
			}
	}
	free(online);
	return rc;
}

/* -a, -C: pid -1 on each CPU of the list (every online CPU without one). */
static int open_system_wide(struct session *s, const struct session_opts *o, char *err,
			    size_t errsz)
{
	pid_t all = -1;

	s->system_wide = true;
	s->cpu_on = calloc((size_t)s->ncpus, sizeof(*s->cpu_on));
	if (!s->cpu_on) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	if (o->cpus) {
		if (session_parse_cpu_list(o->cpus, s->cpu_on, s->ncpus, err, errsz) < 0)
			return -1;
	} else {
		cpus_online(s->cpu_on, s->ncpus);
	}
	profile_track_processes(s->prof);
	snprintf(s->target.comm, sizeof(s->target.comm), "%s",
		 o->cpus ? "CPUs " : "all CPUs");
	if (o->cpus)
		snprintf(s->target.comm + 5, sizeof(s->target.comm) - 5, "%s", o->cpus);
	return open_events(s, &all, 1, err, errsz);
}

struct session *session_open(const struct session_opts *o, char *err, size_t errsz)
{
	struct session *s = session_alloc(&live_source);
	size_t pages = o->ring_pages;

	if (!s) {
		snprintf(err, errsz, "out of memory");
		return NULL;
	}
	if (!pages && o->call_graph == CALL_GRAPH_DWARF)
		pages = CG_DWARF_RING_PAGES;
	else if (!pages && (o->all_cpus || o->cpus))
		pages = SYSWIDE_RING_PAGES;
	if (events_parse(o->events ? o->events : "cycles", events_host_model(), &s->events, err,
			 errsz) < 0 ||
	    setup_rings(s, pages) < 0 || setup_call_graph(s, o, err, errsz) < 0)
		goto fail;
	s->prof = profile_new(&s->events);
	if (!s->prof || plan_events(s, o->max_counters, err, errsz) < 0 ||
	    setup_mux(s, o, err, errsz) < 0)
		goto fail;
	if (o->all_cpus || o->cpus) {
		if (open_system_wide(s, o, err, errsz) < 0)
			goto fail;
	} else if (o->argv) {
		if (target_launch_io(&s->target, o->argv, &o->child_io, err, errsz) < 0)
			goto fail;
		pid_t pid = s->target.pid;
		if (open_events(s, &pid, 1, err, errsz) < 0)
			goto fail;
	} else {
		if (target_attach(&s->target, o->pid, err, errsz) < 0)
			goto fail;
		struct space *sp = space_get(s, s->target.pid);
		if (sp)
			symtab_add_proc_maps(sp->st, s->target.pid);
		if (attach_threads(s, err, errsz) < 0)
			goto fail;
	}
	session_sort_ids(s);
	/* system-wide, the kernel is much of what is seen: whether it can be
	 * named is said with the other notices, at the start */
	if (s->system_wide && !s->user_only)
		load_kernel_names(s);
	if (o->start_sink && o->start_sink(s, o, err, errsz) < 0)
		goto fail;
	for (int c = 0; c < s->ncpus; c++)
		s->pfds[c] = (struct pollfd){ s->rings[c].base ? s->rings[c].fd : -1, POLLIN, 0 };
	s->t0 = s->last_snap = (double)now_ns() / 1e9;
	if (o->argv && target_start(&s->target, err, errsz) < 0)
		goto fail;
	/* the first slice starts now: group 0 is counting since the exec */
	s->mux.next_ns = now_ns() + s->mux.slice_ns;
	return s;
fail:
	session_close(s);
	return NULL;
}

/* --- running ------------------------------------------------------------ */

/* Rotation happens here: a wait never outlasts the current slice.  The
 * caller polls at least once per slice (batch mode waits in here; the TUI
 * polls every input tick); a late rotation only shifts the slices, the
 * coverages are the kernel's own enabled and running times. */
static bool live_poll(struct session *s, int timeout_ms)
{
	int due = mux_due_ms(&s->mux, now_ns());
	int wait = due >= 0 && (timeout_ms < 0 || due < timeout_ms) ? due : timeout_ms;
	int n = sys_poll(s->pfds, (nfds_t)s->ncpus, wait);

	mux_tick(&s->mux, s->fds, s->nfds, now_ns());

	if (s->system_wide) {  /* nothing ends but the watch */
		for (int c = 0; c < s->ncpus; c++)
			ring_drain(&s->rings[c], session_collect, s);
		session_round_end(s);
		if (s->sink)
			s->sink->flush(s);
		spaces_expire(s);
		return false;
	}
	if (n < 0 && errno != EINTR)
		s->hup = true;
	for (int c = 0; c < s->ncpus; c++) {
		if (s->pfds[c].revents & (POLLHUP | POLLERR))
			s->hup = true;
		ring_drain(&s->rings[c], session_collect, s);
	}
	session_round_end(s);
	if (s->sink)
		s->sink->flush(s);
	if (target_poll_end(&s->target) || s->hup) {
		/* whatever the kernel wrote before the exit */
		for (int c = 0; c < s->ncpus; c++)
			ring_drain(&s->rings[c], session_collect, s);
		session_flush_records(s);
		return s->target.ended || (s->hup && target_poll_end(&s->target));
	}
	return false;
}

bool session_poll(struct session *s, int timeout_ms)
{
	return s->src->poll(s, timeout_ms);
}

int session_next_rotation_ms(const struct session *s)
{
	return mux_due_ms(&s->mux, now_ns());
}

/* The CPUs with fds: each event's enabled time is summed over them. */
static int cpus_opened(const struct session *s)
{
	int n = 0;

	for (int c = 0; c < s->ncpus; c++)
		n += s->rings[c].base != NULL;
	return n;
}

/* Counts scaled by coverage (engine/mux.h); events not opened (another
 * group's run) are not counted. */
static void read_counts(struct session *s)
{
	struct mux_totals t[EVENTS_MAX], ref;
	double ref_enabled = 0;

	mux_read(s->fds, s->nfds, cpus_opened(s), t, s->events.n, &ref);
	if (s->with_ref) {
		const struct mux_totals *r = s->ref_ev >= 0 ? &t[s->ref_ev] : &ref;
		struct mux_scaled rs = mux_scale(r, 0);
		ref_enabled = r->enabled;
		profile_set_reference(s->prof, s->ref_ev >= 0 ? s->events.ev[s->ref_ev].name
					      : s->ref_spec.name, rs.counted ? rs.count : NAN);
	}
	for (int e = 0; e < s->events.n; e++) {
		struct mux_scaled sc = { 0, 0, false };
		/* only a rotation makes the reference the denominator: a run of
		 * --mux runs rotates nothing, its counts are the kernel's own
		 * (exact where the event ran all the time) */
		if (s->opened[e])
			sc = mux_scale(&t[e], e == s->ref_ev || s->mux.n_groups <= 1 ? 0 : ref_enabled);
		profile_set_scaled(s->prof, e, sc.count, sc.coverage, sc.counted);
	}
}

struct snapshot *session_snapshot(struct session *s)
{
	double now = (double)now_ns() / 1e9;

	if (s->src->counts)
		s->src->counts(s);
	/* a JIT may have named more of its code since (live: the map grows) */
	for (int k = 0; !s->src->recorded && k < s->nspaces; k++)
		symtab_allow_jit_reread(s->spaces[k].st);
	struct cg_snapshot *cg = s->cg ? callgraph_snapshot(s->cg) : NULL;
	struct snapshot *snap = profile_snapshot_cg(s->prof, now - s->t0, now - s->last_snap, cg);
	s->last_snap = now;
	if (!snap) {
		cg_snapshot_free(cg);
		return NULL;
	}
	snap->pid = s->system_wide ? -1 : s->target.pid;
	snprintf(snap->command, sizeof(snap->command), "%s", s->target.comm);
	snap->ended = s->target.ended;
	snap->exit_status = s->target.status_known ? s->target.status : -1;
	pfm_host_describe(snap->pmu, sizeof(snap->pmu));
	snprintf(snap->notice, sizeof(snap->notice), "%s", s->events.notice);
	snap->cg = cg;
	snap->stacks_skipped = s->stacks_skipped;
	if (s->src->snapshot)
		s->src->snapshot(s, snap);
	return snap;
}

/* --- the live source: rings of the events opened here ------------------- */

static int live_decode(const struct session *s, const struct perf_event_header *h,
		       struct record *r)
{
	return record_decode_fmt(h, &s->fmt, r);
}

static bool live_time(const struct session *s, const struct perf_event_header *h,
		      uint64_t *t)
{
	return record_time(h, s->fmt.sample_type, s->fmt.sample_id_all, t);
}

/* A live sample is one sample, its period the SAV; in frequency mode the
 * kernel sets each period: the sample weighs it (its event's sav is 1). */
static uint64_t live_weigh(struct session *s, int ev, const struct rec_sample *smp)
{
	return s->opened_attr[ev].freq ? smp->period : 1;
}

static void live_snapshot(struct session *s, struct snapshot *snap)
{
	side_read(s->side, snap);
}

static const struct perf_event_attr *live_attr(const struct session *s, int ev)
{
	return &s->opened_attr[ev];
}

static const struct session_source live_source = {
	.recorded = false,
	.decode = live_decode,
	.time = live_time,
	.weigh = live_weigh,
	.attr = live_attr,
	.poll = live_poll,
	.counts = read_counts,
	.snapshot = live_snapshot,
};

int session_keep_threads(struct session *s)
{
	if (!s->pacc)
		s->pacc = pprof_acc_new(s->events.n);
	return s->pacc ? 0 : -1;
}

void session_set_thread_filter(struct session *s, uint32_t tid)
{
	profile_set_thread_filter(s->prof, tid);
}

bool session_is_system_wide(const struct session *s)
{
	return s->system_wide;
}

void session_set_process_filter(struct session *s, int64_t pid)
{
	profile_set_process_filter(s->prof, pid);
}

struct ip_counts *session_ip_counts(struct session *s, const struct asm_func *fn)
{
	struct ip_counts *c = profile_ip_counts(s->prof, fn->name, fn->module);
	uint64_t base;

	/* from the profile's addresses of the file to FN's (its space's) */
	if (c && canonical_base(s, fn->module, &base))
		for (size_t i = 0; i < c->n; i++)
			c->ips[i].ip += fn->bias - base;
	return c;
}

const struct ev_list *session_events(const struct session *s)
{
	return &s->events;
}

int session_groups(const struct session *s)
{
	return s->plan ? s->plan->n_groups : 1;
}

void session_close(struct session *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nfds; i++)
		if (s->fds[i].fd >= 0)
			sys_close(s->fds[i].fd);
	if (s->rings)
		for (int c = 0; c < s->ncpus; c++)
			ring_close(&s->rings[c]);
	target_finish(&s->target);
	if (s->sink)
		s->sink->abort(s);
	if (s->src->close)
		s->src->close(s);
	for (int i = 0; i < s->nspaces; i++)
		space_free(&s->spaces[i]);
	ordered_free(s->queue);
	free(s->slots_fds);
	side_close(s->side);
	ksymtab_free(s->ksyms);
	callgraph_free(s->cg);
	pprof_acc_free(s->pacc);
	free(s->spaces);
	hashtab_free(&s->space_index);
	free(s->fds);
	free(s->rings);
	free(s->pfds);
	free(s->cpu_on);
	asm_cache_free(s->asmc);
	strpool_free(&s->canon_mods);
	free(s->canon_base);
	profile_free(s->prof);
	free(s->plan);
	free(s);
}

/* --- asm ---------------------------------------------------------------- */

/* The address space where ADDR is NAME in MODULE: the target's first. */
static struct symtab *space_of(struct session *s, uint64_t addr, const char *name,
			       const char *module)
{
	struct space *first = space_find(s, s->target.pid);

	for (int k = -1; k < s->nspaces; k++) {
		struct space *sp = k < 0 ? first : &s->spaces[k];
		struct sym_info si;
		if (!sp || !symtab_lookup(sp->st, addr, &si) || !si.module ||
		    strcmp(si.module, module) != 0)
			continue;
		if ((!si.name && strcmp(name, "[unknown]") == 0) || (si.name && !strcmp(si.name, name)))
			return sp->st;
	}
	return NULL;
}

/* A function without samples: looked up by name. */
static const struct asm_func *asm_by_name(struct session *s, const char *name,
					  const char *module, char *err, size_t errsz)
{
	struct space *sp = space_find(s, s->target.pid);
	struct sym_info si;

	if (!sp && s->nspaces > 0)
		sp = &s->spaces[0];
	if (!sp || !symtab_find(sp->st, name, module, &si)) {
		snprintf(err, errsz, "function '%s' not found%s%s%s", name, module ? " in " : "",
			 module ? module : "",
			 s->src->recorded ? " (are the recorded binaries where the file says? --symfs DIR)"
				 : "");
		return NULL;
	}
	return asm_cache_get(s->asmc, sp->st, si.start, si.start, err, errsz);
}

/* A space that maps MODULE, where the profile's address ADDR of NAME's
 * file is ADDR + *DELTA (the first process seen in the file may have
 * exited: another maps it elsewhere); NULL if none. */
static struct symtab *space_mapping(struct session *s, uint64_t addr, const char *name,
				    const char *module, uint64_t *delta)
{
	struct space *first = space_find(s, s->target.pid);
	uint64_t base;

	*delta = 0;
	struct symtab *st = space_of(s, addr, name, module);
	if (st || !canonical_base(s, module, &base) || strcmp(name, "[unknown]") == 0)
		return st;
	for (int k = -1; k < s->nspaces; k++) {
		struct space *sp = k < 0 ? first : &s->spaces[k];
		struct sym_info si;
		if (!sp || !symtab_find(sp->st, name, module, &si) || !si.module ||
		    strcmp(si.module, module) != 0)
			continue;
		*delta = si.module_base - base;
		if (symtab_lookup(sp->st, addr + *delta, &si) && si.name && !strcmp(si.name, name))
			return sp->st;
	}
	return NULL;
}

const struct asm_func *session_asm(struct session *s, const char *name, const char *module,
				   char *err, size_t errsz)
{
	struct ip_counts *ipc = module ? profile_ip_counts(s->prof, name, module) : NULL;
	const struct asm_func *fn = NULL;
	struct symtab *st;
	uint64_t d;

	if (!s->asmc && !(s->asmc = asm_cache_new())) {
		snprintf(err, errsz, "out of memory");
		free(ipc);
		return NULL;
	}
	if (ipc && ipc->n > 0 && (st = space_mapping(s, ipc->ips[0].ip, name, module, &d)))
		fn = asm_cache_get(s->asmc, st, ipc->ips[0].ip + d, ipc->ips[ipc->n - 1].ip + d,
				   err, errsz);
	else if (strcmp(name, "[unknown]") == 0)
		snprintf(err, errsz, "no samples in unknown code of %s", module ? module : "?");
	else
		fn = asm_by_name(s, name, module, err, errsz);
	free(ipc);
	return fn;
}

const struct asm_func *session_asm_at(struct session *s, const struct asm_func *from,
				      uint64_t addr, char *err, size_t errsz)
{
	for (int k = 0; k < s->nspaces; k++) {
		struct sym_info si;
		if (symtab_lookup(s->spaces[k].st, from->start, &si) && si.module == from->module &&
		    symtab_lookup(s->spaces[k].st, addr, &si) && si.name)
			return asm_cache_get(s->asmc, s->spaces[k].st, addr, addr, err, errsz);
	}
	snprintf(err, errsz, "0x%" PRIx64 ": no function there", addr);
	return NULL;
}
