/* The session's core: records in time order (engine/ordered.h), each
 * sample symbolized in its process's address space (session-space.c) and
 * added to the profile; where records come from is a source (session-live.c:
 * the rings of events opened here; session-file.c, session-pprof.c: files),
 * where else they go a sink (session-record.c).  Call stacks are
 * session-stack.c's, the asm view's functions session-asm.c's.  Callers: tui/ through
 * engine/session.h; the sources and sinks through engine/session-priv.h. */
#include "engine/session.h"
#include "engine/session-priv.h"

#include <inttypes.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "engine/callgraph.h"
#include "engine/disasm.h"
#include "engine/offcpu.h"
#include "engine/ordered.h"
#include "engine/pprof.h"
#include "engine/pfm.h"
#include "engine/record.h"
#include "engine/ring.h"
#include "engine/symbols.h"
#include "engine/sys.h"
#include "engine/target.h"
#include "engine/unwind.h"

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
 * watch), rate-limited.  Inline: once a sample. */
static inline void user_symbol(struct session *s, struct space *sp, uint64_t ip,
			       struct sym_info *si)
{
	if (sp && symtab_lookup(sp->st, ip, si))
		return;
	if (sp && !s->src->recorded) {
		session_space_refresh(sp);
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
void session_add_notice(struct session *s, const char *fmt, ...)
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
void session_load_kernel_names(struct session *s)
{
	char err[256] = "";
	bool say;

	s->ksyms_tried = true;
	s->ksyms = load_kernel_symbols(s, err, sizeof(err), &say);
	if (!s->ksyms && say && err[0])
		session_add_notice(s, "kernel functions unnamed: %s", err);
}

/* A kernel function from kallsyms, when there are the source kernel's;
 * else [unknown] in [kernel.kallsyms], as perf report without them. */
void session_kernel_symbol(struct session *s, uint64_t ip, struct sym_info *si)
{
	if (!s->ksyms_tried)
		session_load_kernel_names(s);
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

void session_read_line(const char *path, char *buf, size_t sz)
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


/* Process PID's cgroup from /proc (a live watch), its id learnt for the
 * samples that carry it.  Returns its name, or NULL when not known. */
static const char *proc_cgroup(struct session *s, pid_t pid, uint64_t want)
{
	char path[CGROUP_PATH_MAX];

	if (s->src->recorded || cgroup_of_pid(pid, path, sizeof(path)) < 0)
		return NULL;
	uint64_t id = cgroup_id_of_path(path);
	if (id && cgroup_ids_add(&s->cgroup_ids, id, path) == 0 && (!want || id == want))
		return cgroup_ids_name(&s->cgroup_ids, id);
	return NULL;
}

/* A sample's cgroup (PERF_SAMPLE_CGROUP): the name of its id, from the
 * kernel's CGROUP records or /proc at first sight of the id. */
static void sample_cgroup(struct session *s, const struct rec_sample *smp)
{
	const char *name = cgroup_ids_name(&s->cgroup_ids, smp->cgroup);

	if (!name)
		name = proc_cgroup(s, (pid_t)smp->pid, smp->cgroup);
	if (name)
		profile_set_process_cgroup(s->prof, smp->pid, name);
}

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
	session_read_line(path, comm, sizeof(comm));
	read_user(pid, user, sizeof(user));
	/* gone already: named as unknown, not read again */
	profile_process_fill(s->prof, (uint32_t)pid, comm[0] ? comm : "?", user[0] ? user : "?");
	const char *cg = proc_cgroup(s, pid, 0);
	if (cg)
		profile_set_process_cgroup(s->prof, (uint32_t)pid, cg);
	int n = target_tids(pid, tids, 256);
	if (n > 0)
		session_name_threads(s, pid, tids, n);
}

/* canon_index's miss, out of line: the hint's path inline in a sample's. */
static __attribute__((noinline)) int64_t canon_add(struct session *s, const struct sym_info *si,
						   size_t slot)
{
	size_t n = s->canon_mods.n;
	int64_t k;

	if (GROW(s->canon_base, n + 1, s->canon_alloc) < 0 ||
	    (k = strpool_id(&s->canon_mods, si->module)) < 0)
		return -1;
	if ((size_t)k == n)
		s->canon_base[k] = si->module_base;
	s->canon_hints[slot].module = si->module;
	s->canon_hints[slot].k = (uint32_t)k;
	return k;
}

/* The number of SI's module path among canon_mods, its base recorded when
 * new; -1 when out of memory.  The symbol tables' strings are stable while
 * their module lives, so most samples find the number in the hints without
 * hashing the path (as the profile finds its rows, profile.c row_cached); a
 * hit is two pointers compared: the hints are emptied when spaces are freed
 * (spaces_evict_exited), before a freed string's address can come round. */
static inline int64_t canon_index(struct session *s, const struct sym_info *si)
{
	size_t slot = hash_mix((uintptr_t)si->module) % CANON_HINTS;

	if (s->canon_hints[slot].module == si->module)
		return s->canon_hints[slot].k;
	return canon_add(s, si, slot);
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
	int64_t k;

	if (!si->module || si->module[0] != '/' || (k = canon_index(s, si)) < 0)
		return ip;
	return ip - si->module_base + s->canon_base[k];
}

/* The canonical load bias of MODULE's addresses in the profile; false when
 * its addresses are its process's own (see canonical_ip). */
bool session_canonical_base(struct session *s, const char *module, uint64_t *base)
{
	int64_t k;

	if (!module || !strpool_find(&s->canon_mods, module) ||
	    (k = strpool_id(&s->canon_mods, module)) < 0)
		return false;
	*base = s->canon_base[k];
	return true;
}

/* SMP of event EV weighing N, with its stack if STACK (inline: once a
 * sample, its call's frame and seven arguments were a third of it). */
static inline void add_weighed(struct session *s, struct space *sp, int ev,
			       const struct rec_sample *smp, uint64_t n,
			       const struct sym_info *si, bool stack)
{
	profile_add_pid(s->prof, ev, smp->pid, smp->tid, canonical_ip(s, smp->ip, si), si->name,
			si->module, n);
	if (s->tap)
		s->tap->sample(s->tap_state, ev, smp, si, n);
	if (s->cg && sp && stack)
		session_add_stack(s, sp, ev, smp, si, n);
}

/* System-wide, process PID's name and owner when it has none yet: live
 * from /proc; recorded, the idle task's only (perf's name). */
static inline void name_if_new(struct session *s, uint32_t pid)
{
	if (s->system_wide && (!s->src->recorded || pid == 0) &&
	    !profile_process_named(s->prof, pid))
		name_process(s, (pid_t)pid);
}

/* Sample SMP of event EV, its IP named SI, into the profile and the
 * stacks, its period PERIOD (its own, or a counter's read: add_read_values
 * passes each counter's without copying the sample). */
static void add_sample(struct session *s, struct space *sp, int ev, const struct rec_sample *smp,
		       uint64_t period, const struct sym_info *si)
{
	add_weighed(s, sp, ev, smp, s->src->weigh(s, ev, smp, period), si, true);
}

void session_add_weighed(struct session *s, int ev, const struct rec_sample *smp, uint64_t n,
			 bool stack)
{
	struct space *sp = space_get(s, (pid_t)smp->pid);
	struct sym_info si;

	user_symbol(s, sp, smp->ip, &si);
	name_if_new(s, smp->pid);
	add_weighed(s, sp, ev, smp, n, &si, stack);
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
		/* a counter only grows: a smaller value (a hostile file, or
		 * inherited counters of several threads sharing an id) is
		 * ignored, where value - last would weigh near 2^64 and wrap
		 * the sums; the next read counts from the largest value seen,
		 * so an id's samples never weigh more than its last count */
		if (value <= f->last_read)
			continue;
		uint64_t counted = value - f->last_read;
		f->last_read = value;
		add_sample(s, sp, f->ev, smp, counted, si);
	}
}

/* Sample SMP of event EV (the source's stamp found it). */
static void handle_sample(struct session *s, int ev, const struct rec_sample *smp, uint16_t misc)
{
	struct sym_info si;

	if (ev < 0)
		return;
	struct space *sp = space_get(s, (pid_t)smp->pid);
	if (kernel_sample(misc))
		session_kernel_symbol(s, smp->ip, &si);
	else
		user_symbol(s, sp, smp->ip, &si);
	name_if_new(s, smp->pid);
	if (smp->cgroup)
		sample_cgroup(s, smp);
	if (s->src->attr(s, ev)->sample_type & PERF_SAMPLE_READ)
		add_read_values(s, sp, smp, &si);
	else
		add_sample(s, sp, ev, smp, smp->period, &si);
}

static void handle_task(struct session *s, const struct record *r)
{
	const struct rec_task *t = &r->u.task;

	if (r->type == PERF_RECORD_EXIT)
		profile_thread_exit(s->prof, t->tid);
	else
		profile_thread_fork(s->prof, t->tid, t->ptid);
	if (r->type == PERF_RECORD_EXIT && t->pid == t->tid) {
		struct space *sp = space_find(s, (pid_t)t->pid);
		if (sp) {
			sp->exited = true;
			sp->exit_ns = session_now_ns();
		}
		profile_process_exit(s->prof, t->pid);
	}
	if (r->type == PERF_RECORD_FORK && t->pid != t->ppid) {
		/* the child takes the parent's name and owner: know them now,
		 * while the parent surely lives */
		if (s->system_wide && !s->src->recorded && !profile_process_named(s->prof, t->ppid))
			name_process(s, (pid_t)t->ppid);
		profile_process_fork(s->prof, t->pid, t->ppid);
	}
	if (r->type == PERF_RECORD_FORK && t->pid != t->ppid)
		session_fork_space(s, (pid_t)t->pid, (pid_t)t->ppid);
}

/* Records but samples: out of line, deliver's path for samples kept small. */
static __attribute__((noinline)) void handle_other(struct session *s, const struct record *r)
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
	case PERF_RECORD_CGROUP:
		if (cgroup_ids_add(&s->cgroup_ids, r->u.cgroup.id, r->u.cgroup.path) < 0)
			profile_add_undecodable(s->prof);
		break;
	default:
		break;
	}
}

/* One record, in time order, with the event its stamp found: decoded,
 * symbolized, added. */
static void deliver(const struct perf_event_header *h, int ev, void *arg)
{
	struct session *s = arg;
	struct record *r = &s->decoded;

	if (s->src->decode(s, h, ev, r) < 0) {
		profile_add_undecodable(s->prof);
		return;
	}
	if (s->offcpu && session_offcpu_record(s, h, ev, r))
		return;
	if (r->type == PERF_RECORD_SAMPLE)
		handle_sample(s, ev, &r->u.sample, r->misc);
	else
		handle_other(s, r);
}

/* A sample's copy of the user stack is 8 KB whatever the thread's depth;
 * of a process's main thread the kernel copies some 4 KB (the stack's top
 * is near).  Only those bytes are queued: half the copying, and half the
 * queue's memory, of a watch with dwarf stacks.  True if H was queued. */
static bool queue_stack_cut(struct session *s, const struct perf_event_header *h,
			    const struct rec_stamp *st)
{
	uint64_t type;
	uint32_t stack_user;
	size_t kept, at;
	struct perf_event_header *copy;

	if (h->type != PERF_RECORD_SAMPLE || st->ev < 0 || !s->src->stack_attr ||
	    !s->src->stack_attr(s, st->ev, &type, &stack_user) ||
	    (kept = record_stack_kept(h, type, stack_user, &at)) == h->size ||
	    !(copy = ordered_reserve(s->queue, kept, st->time, st->ev)))
		return false;
	record_stack_cut(copy, h, at, kept);
	return true;
}

void session_collect(const struct perf_event_header *hdr, void *arg)
{
	struct session *s = arg;
	struct rec_stamp st;

	if (s->sink)
		s->sink->write(s, hdr);
	s->src->stamp(s, hdr, &st);
	session_queue(s, hdr, &st);
}

void session_queue(struct session *s, const struct perf_event_header *hdr,
		   const struct rec_stamp *st)
{
	if (!st->timed)
		deliver(hdr, st->ev, s);  /* no timestamp: as it comes, as perf does */
	else if (!queue_stack_cut(s, hdr, st))
		ordered_push(s->queue, hdr, st->time, st->ev);
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

/* Records that came older than what the queue had already delivered were
 * added late, out of time order: said once, at the end, as perf report's
 * "N out of order events recorded" warning. */
void session_late_notice(struct session *s)
{
	uint64_t late = ordered_late(s->queue);

	if (late)
		session_add_notice(s, "%" PRIu64 " record%s out of time order (added late, as perf "
				   "report's out of order events)", late, late == 1 ? "" : "s");
}

/* --- fds and ids ------------------------------------------------------- */

int session_push_fd(struct session *s, const struct mux_fd *f)
{
	if (GROW(s->fds, (size_t)s->nfds + 1, s->capfds) < 0)
		return -1;
	s->fds[s->nfds++] = *f;
	return 0;
}

int session_add_id(struct session *s, int ev, uint64_t id)
{
	return session_push_fd(s, &(struct mux_fd){ .fd = -1, .ev = ev, .group = MUX_ALWAYS,
						     .id = id });
}

void session_sort_ids(struct session *s)
{
	qsort(s->fds, (size_t)s->nfds, sizeof(*s->fds), by_id);
}

/* Threads older than the watch had their COMM record before it: name them
 * from /proc, as perf synthesizes COMM records for them. */
void session_name_threads(struct session *s, pid_t pid, const pid_t *tids, int n)
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

struct session *session_alloc(const struct session_source *src)
{
	struct session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->src = src;
	if (!(s->pfm = pfm_host_new()) || !(s->queue = ordered_new(deliver, s, 0))) {
		pfm_host_free(s->pfm);
		free(s);
		return NULL;
	}
	s->target.go_fd = s->target.err_fd = s->wake_fd = -1;
	s->ncpus = (int)sys_ncpus();
	if (s->ncpus < 1)
		s->ncpus = 1;
	s->t0 = s->last_snap = (double)session_now_ns() / 1e9;
	return s;
}

/* --- running ------------------------------------------------------------ */

void session_wake_on(struct session *s, int fd)
{
	s->wake_fd = fd;
}

bool session_poll(struct session *s, int timeout_ms)
{
	return s->src->poll(s, timeout_ms);
}

struct snapshot *session_snapshot(struct session *s)
{
	double now = (double)session_now_ns() / 1e9;

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
	snap->exit_signal = s->target.status_known ? s->target.term_signal : 0;
	pfm_host_describe(s->pfm, snap->pmu, sizeof(snap->pmu));
	snprintf(snap->notice, sizeof(snap->notice), "%s", s->events.notice);
	snap->cg = cg;
	snap->stacks_skipped = s->stacks_skipped;
	snap->wall = session_offcpu_snapshot(s);
	if (s->src->snapshot)
		s->src->snapshot(s, snap);
	session_offcpu_totals(s, snap);
	return snap;
}

/* --- the pprof tap: samples per address and thread ---------------------- */

static void pprof_tap_sample(void *state, int ev, const struct rec_sample *smp,
			     const struct sym_info *si, uint64_t n)
{
	pprof_acc_add(state, ev, smp->pid, smp->tid, smp->ip, si->name, si->module, n);
}

static void pprof_tap_stack(void *state, int ev, const struct rec_sample *smp,
			    const uint64_t *ips, const struct cg_frame *frames, size_t nframes,
			    uint64_t n)
{
	pprof_acc_add_stack(state, ev, smp->pid, smp->tid, ips, frames, nframes, n);
}

static void pprof_tap_free(void *state)
{
	pprof_acc_free(state);
}

static const struct session_tap pprof_tap = {
	.sample = pprof_tap_sample,
	.stack = pprof_tap_stack,
	.free = pprof_tap_free,
};

int session_keep_threads(struct session *s)
{
	if (s->tap)
		return 0;
	if (!(s->tap_state = pprof_acc_new(s->events.n)))
		return -1;
	s->tap = &pprof_tap;
	return 0;
}

const struct pprof_acc *session_pprof_acc(const struct session *s)
{
	return s->tap == &pprof_tap ? s->tap_state : NULL;
}

struct pprof_acc *session_pprof_take(struct session *s)
{
	struct pprof_acc *fresh = s->tap == &pprof_tap ? pprof_acc_new(s->events.n) : NULL;
	struct pprof_acc *old = fresh ? s->tap_state : NULL;

	if (fresh)
		s->tap_state = fresh;
	return old;
}

/* --- accessors (the writers' walks of the spaces: session-space.c) ------ */

const struct profile *session_profile(const struct session *s)
{
	return s->prof;
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
	session_spaces_free(s);
	ordered_free(s->queue);
	free(s->slots_fds);
	side_close(s->side);
	ksymtab_free(s->ksyms);
	callgraph_free(s->cg);
	pfm_host_free(s->pfm);
	if (s->tap)
		s->tap->free(s->tap_state);
	free(s->fds);
	free(s->rings);
	free(s->pfds);
	free(s->cpu_on);
	cgroup_ids_free(&s->cgroup_ids);
	asm_cache_free(s->asmc);
	strpool_free(&s->canon_mods);
	free(s->canon_base);
	profile_free(s->prof);
	offcpu_free(s->offcpu);
	free(s->plan);
	free(s);
}
