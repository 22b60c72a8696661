/* Call stacks (-g): a sample's stack, from the kernel's callchain (fp) or
 * unwound from the user registers and stack copy (dwarf), symbolized into
 * the call graph (engine/callgraph.h).  The session core (session.c) calls
 * session_add_stack for each sample of an event that carries stacks. */
#include "engine/session.h"
#include "engine/session-priv.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/callgraph.h"
#include "engine/record.h"
#include "engine/symbols.h"
#include "engine/sys.h"
#include "engine/unwind.h"

/* Frames kept per stack; deeper stacks end truncated.  Like perf's default
 * (perf_event_max_stack, 127): each step costs libunwind about 0.5 us here
 * (two sigprocmask calls around its global cache's lock), so this also
 * bounds a deep recursion's stack to some 60 us. */
#define CG_FRAMES_MAX 128
/* The unwinder's CPU time per batch (one session_poll).  At 1 kHz a busy core
 * gives 1000 stacks a second; at 5-40 us each (unwinding with warm caches
 * and symbolizing the frames) that is 5-40 ms of work per second, 0.5-4 %
 * of a CPU: keeping up is the normal case.  A poll's batch holds what came
 * since the previous one, some 100 samples (0.5-4 ms of work); 20 ms allows
 * a backlog 5 times the worst of that, yet a poll never keeps keys waiting
 * noticeably (the UI's tick is 100 ms).  Past it, the batch's remaining
 * samples count in the profile without their stack (stacks_skipped).
 * The watcher's thread CPU time, not the wall clock's: on a loaded machine
 * a preempted unwind once spent the budget in a few stacks, and a second's
 * -a -g watch kept 3 of its thousands of stacks. */
#define CG_BATCH_BUDGET_NS 20000000ull
/* perf_event_max_stack when /proc does not say (the kernel's default). */
#define CG_MAX_STACK_DEFAULT 127

/* --- call stacks -------------------------------------------------------- */

/* How the samples of event EV carry their stacks. */
static int stack_kind(const struct session *s, int ev)
{
	const struct perf_event_attr *a = s->src->attr(s, ev);
	const uint64_t regs_stack = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	if ((a->sample_type & regs_stack) == regs_stack && a->sample_regs_user)
		return CALL_GRAPH_DWARF;
	/* newer perf's off-cpu samples: the chain in the raw data
	 * (engine/offcpu-session.c) */
	if ((a->sample_type & PERF_SAMPLE_CALLCHAIN) || (ev >= 0 && ev == s->offcpu_ev))
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

/* The space's unwinder, made on first use: it opens the binaries where
 * the space's symbols come from (a recording's under --symfs or by build
 * id, as perf's unwinding does), not the recorded paths as they are. */
static int open_as_symbols(void *st, const char *path)
{
	return symtab_open_module(st, path);
}

static struct unwinder *space_unwinder(struct space *sp)
{
	if (!sp->uw && (sp->uw = unwinder_new()) != NULL)
		unwinder_set_opener(sp->uw, open_as_symbols, sp->st);
	return sp->uw;
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

	if (n == 0 || n == max || smp->regs_user.abi == PERF_SAMPLE_REGS_ABI_NONE ||
	    !smp->regs_user.n || !space_unwinder(sp) ||
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

bool kernel_chain_next(struct kernel_chain *k, uint64_t *ip)
{
	while (k->i < k->smp->nr_ips) {
		uint64_t e = k->smp->ips[k->i++];
		if (e >= (uint64_t)PERF_CONTEXT_MAX)
			k->in_kernel = e == (uint64_t)PERF_CONTEXT_KERNEL;
		else if (k->in_kernel) {
			*ip = e;
			return true;
		}
	}
	return false;
}

/* PERF_SAMPLE_CALLCHAIN holds the kernel's frame-pointer walk, a marker
 * (PERF_CONTEXT_*) before each part: the kernel's frames, then the user's
 * (perf's order).  The kernel part of a sample taken in the kernel into
 * IPS after the sampled IP (ips[0]), each entry looked up as it is, as
 * perf does: past an interrupt frame the kernel's unwinder gives the
 * interrupted IP itself, which may be a function's first byte (ip - 1 named
 * __pfx_fdget_pos, the padding before it, where perf said fdget_pos); a
 * return address is after its call, inside the caller but for a call that
 * does not return.  Returns the count, the sampled IP included;
 * *KERNEL_WALKED says how many entries the kernel wrote there
 * (perf_event_max_stack counts them). */
static size_t kernel_stack(const struct rec_sample *smp, uint64_t *ips, size_t max,
			   uint64_t *kernel_walked)
{
	size_t n = 0;
	struct kernel_chain k = { .smp = smp };
	uint64_t ip;

	ips[n++] = smp->ip;
	*kernel_walked = 0;
	if (!record_cpumode_kernel(smp->cpumode))
		return n;
	while (kernel_chain_next(&k, &ip)) {
		if ((*kernel_walked)++ == 0 && ip == smp->ip)
			continue;  /* the sampled IP: ips[0] already */
		if (n < max && ip)
			ips[n++] = ip;
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
		if (smp->regs_user.abi == PERF_SAMPLE_REGS_ABI_NONE)
			return n;  /* a kernel thread: no user part */
		user = *smp;
		if (n == max || !unwind_user_ip(smp, &user.ip)) {
			*truncated = true;
			return n;
		}
		smp = &user;
	}
	if (!space_unwinder(sp)) {
		ips[n] = smp->ip;
		*truncated = true;
		return n + 1;
	}
	return n + unwind_sample(sp->uw, smp, find_map, &c, ips + n, max - n, truncated);
}

/* The stack of sample SMP (of event EV, weighing N, whose IP is LEAF) into
 * the call graph, within the batch's time budget in a live watch. */
void session_add_stack(struct session *s, struct space *sp, int ev,
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
	uint64_t t0 = s->src->recorded ? 0 : sys_thread_cpu_ns();
	size_t nkernel = 0;  /* ips[0, nkernel) are the kernel's */
	if (kind == CALL_GRAPH_DWARF)
		nips = dwarf_stack(sp, smp, ips, CG_FRAMES_MAX, &truncated, &nkernel);
	else
		nips = fp_stack(s, sp, smp, ips, CG_FRAMES_MAX, &truncated, &nkernel);
	frames[0] = (struct cg_frame){ leaf->name ? leaf->name : CG_UNKNOWN,
				       leaf->module ? leaf->module : CG_UNKNOWN };
	for (size_t i = 1; i < nips; i++) {
		if (i < nkernel)
			session_kernel_symbol(s, ips[i], &si);
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
	if (s->tap) {  /* --format pprof: the stack by address, per thread */
		ips[0] = smp->ip;
		s->tap->stack(s->tap_state, ev, smp, ips, frames, nips, n);
	}
	if (!s->src->recorded) {
		uint64_t dt = sys_thread_cpu_ns() - t0;
		s->cg_batch_ns += dt;
		s->cg_ns += dt;
	}
	s->cg_stacks++;
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
	unsigned long v = 0;  /* the default: off-cpu's differs (session-live.c) */
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

