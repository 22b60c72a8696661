/* The live source: the events opened here (one fd per event, thread and
 * CPU; -a and -C: every task of a CPU), their rings, the multiplexing
 * plan's rotation, polling.  session_open makes a session on it; the core
 * (session.c) knows it by its source ops only. */
#include "engine/session.h"
#include "engine/session-priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch/plan.h"
#include "engine/cgroup.h"
#include "engine/mux.h"
#include "engine/ordered.h"
#include "engine/pfm.h"
#include "engine/record.h"
#include "engine/ring.h"
#include "engine/sys.h"
#include "engine/target.h"
#include "engine/unwind.h"

/* The ring (data pages per CPU) with -g dwarf when -m was not given: each
 * sample carries the stack copy (8 KB by default), so the 64-page (256 KB)
 * default would hold only some 30 samples; 512 pages (2 MB per CPU) hold
 * 250, 60 ms of a busy core at 4 kHz.  The reader wakes at a quarter and
 * keeps a wake-up's worth in place (live_take): at a wake half the ring is
 * free for a watcher that runs late, 15 ms at 4 kHz (perf top's 512 KB
 * ring wakes at its half: 8 ms).  A user other than root may lock only
 * perf_event_mlock_kb (516 KB) a CPU and ulimit -l (8 MB) beyond: half
 * that, 1 MB a CPU as before, opens on up to 16 CPUs. */
#define CG_DWARF_RING_PAGES 512
#define CG_DWARF_RING_PAGES_USER 256
/* Root on a host of up to 4 CPUs: 4 MiB a CPU (16 MiB at most).  A loaded
 * 2-core VM (load 22, a build linking beside) once kept the reader from
 * its turn past the 2 MiB ring's 64 ms: 149 of 3,000 samples lost. */
#define CG_DWARF_RING_PAGES_FEW 1024
#define CG_DWARF_FEW_CPUS 4
/* off-cpu's switch-out samples with -g dwarf and no SIZE given: a 2 KB
 * stack copy, not 8 KB.  A thread blocks in a system call's wrapper, its
 * stack above it what its callers use: workloads/offcpu's stacks unwind
 * whole to _start or clone3 from 1 KB.  Every switch is a sample: a pipe
 * ping-pong's 8 KB copies outran a loaded 2-core VM's reader (figures in
 * the commit that set this). */
#define OFFCPU_STACK_USER 2048u
/* The ring with -a when -m was not given: every task's records come
 * through one CPU's ring, a fork storm's FORK, COMM, MMAP2 and EXIT records
 * beside the samples; 256 pages (1 MB per CPU, perf record -a's default is
 * 512 KB to 4 MB) ride out a poll behind. */
#define SYSWIDE_RING_PAGES 256

/* The live source's own state (the session's src_state): how the events
 * were opened and what multiplexing them takes.  The core finds events by
 * their fds' ids (struct session's fds); the recording sink asks for the
 * attrs through the source's ops. */
struct live_src {
	bool topdown;            /* metric events: slots and they count in kernel groups */
	size_t ring_pages;
	/* multiplexing (engine/mux.h) */
	int group[EVENTS_MAX];   /* plan group of each event, or SNAP_EVERY_GROUP */
	bool opened[EVENTS_MAX]; /* runs mode opens one group's events only */
	bool with_ref;           /* the reference counts all the time */
	int ref_ev;              /* the user's reference event, or MUX_REFERENCE */
	struct ev_spec ref_spec; /* the internal reference (counting only) */
	struct mux mux;
	struct perf_event_attr opened_attr[EVENTS_MAX]; /* as opened, for the file */
	uint64_t freq_samples[EVENTS_MAX]; /* live samples of events in frequency mode */
	struct perf_event_attr ref_attr;  /* the internal reference's, likewise */
	/* call stacks (-g) */
	int call_graph;          /* enum call_graph_mode of the attrs */
	uint32_t stack_size;     /* dwarf: attr.sample_stack_user */
	uint32_t offcpu_stack_size; /* the off-cpu event's */
};

static struct live_src *live_of(const struct session *s)
{
	return s->src_state;
}

/* off-cpu samples every switch and adds two switch records to each: a
 * pipe ping-pong at 20,000 switches a second lost 3,117 records of its
 * 3 s on the 64-page default (load 15), none on 256 pages or more; it
 * takes the -g dwarf ring. */
static bool offcpu_wanted(const struct session *s)
{
	for (int i = 0; i < s->events.n; i++)
		if (s->events.ev[i].offcpu)
			return true;
	return false;
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
/* The user stack copy of event EV's samples (NULL: the session's). */
static uint32_t stack_user_of(const struct session *s, const struct ev_spec *ev)
{
	const struct live_src *ls = live_of(s);

	return ev && ev->offcpu ? ls->offcpu_stack_size : ls->stack_size;
}

static void attr_setup(struct perf_event_attr *a, const struct fd_spec *fs,
		       const struct session *s)
{
	struct live_src *ls = live_of(s);
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
	a->sample_type = SAMPLE_TYPE | (s->fmt.sample_type & PERF_SAMPLE_CGROUP);
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
	if (fs->index != MUX_REFERENCE && ls->call_graph == CALL_GRAPH_DWARF) {
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
				  PERF_SAMPLE_STACK_USER;
		a->exclude_callchain_user = 1;
		a->sample_regs_user = CG_REGS_USER;
		a->sample_stack_user = stack_user_of(s, fs->index >= 0 ? fs->ev : NULL);
	} else if (fs->index != MUX_REFERENCE && ls->call_graph == CALL_GRAPH_FP) {
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
#if defined(__aarch64__)
		a->sample_type |= PERF_SAMPLE_REGS_USER;  /* leaf_fixup's registers */
		a->sample_regs_user = CG_REGS_USER;
#endif
	}
	/* off-cpu: the switch records, and every fd the live format's chain */
	if (fs->index != MUX_REFERENCE && (s->fmt.sample_type & PERF_SAMPLE_CALLCHAIN))
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	a->context_switch = fs->index >= 0 && fs->ev->offcpu;
	/* the kernel's frames too, where its samples may be seen (a kernel
	 * callchain needs the same permission as kernel samples) */
	a->exclude_callchain_kernel = a->exclude_kernel;
	/* 8 KB samples would wake the reader every other sample: a quarter
	 * of the ring instead (the ring's first fd sets it) */
	if (ls->call_graph == CALL_GRAPH_DWARF)
		a->wakeup_watermark = (uint32_t)(ls->ring_pages * (size_t)sysconf(_SC_PAGESIZE) / 4);
	if (fs->first) {
		a->mmap = 1;
		a->mmap2 = 1;
		a->comm = 1;
		a->comm_exec = 1;
		a->task = 1;
		a->cgroup = (s->fmt.sample_type & PERF_SAMPLE_CGROUP) != 0;  /* new cgroups' paths */
		/* perf report unwinds a recorded session's stacks only through
		 * mapped memory: .eh_frame lies in a read-only, non-executable
		 * segment.  (Our unwinder reads the files; the engine keeps only
		 * the executable mappings.) */
		a->mmap_data = ls->call_graph == CALL_GRAPH_DWARF;
	}
}

static int add_fd(struct session *s, int fd, const struct fd_spec *fs)
{
	uint64_t id = 0;

	if (sys_ioctl(fd, PERF_EVENT_IOC_ID, (unsigned long)&id) < 0)
		return -1;
	return session_push_fd(s, &(struct mux_fd){ .fd = fd, .ev = fs->index, .group = fs->group,
					    .id = id });
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
	else if (pfm_host_kernel_pmu(s->events.host) && (e == ENOENT || e == EINVAL || e == EOPNOTSUPP))
		/* a hardware PMU that lacks the event (QEMU's has no BR_MIS_PRED;
		 * arm_pmuv3 refuses CHAIN, 0x1e, on its own) */
		snprintf(err, errsz, "event '%s' (model %s): the kernel's PMU %s does not take it: %s",
			 ev->name, s->events.model->name, pfm_host_kernel_pmu(s->events.host),
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
	session_add_notice(s, "kernel samples not permitted (perf_event_paranoid %d; root or CAP_PERFMON "
		   "lifts it): user space only", paranoid_level());
	return true;
}

/* One fd per (event, thread, CPU); the first fd of a CPU owns that CPU's
 * ring, the others write into it (mmap fails with inherit and cpu=-1). */
static int open_one(struct session *s, const struct fd_spec *fs, pid_t pid, int cpu,
		    int *slots_fd, char *err, size_t errsz)
{
	struct live_src *ls = live_of(s);
	struct perf_event_attr a;
	struct ring *rg = &s->rings[cpu];
	int group_fd = fs->member ? *slots_fd : -1;

	attr_setup(&a, fs, s);
	if (fs->index >= 0)
		ls->opened_attr[fs->index] = a;
	else
		ls->ref_attr = a;
	unsigned long flags = PERF_FLAG_FD_CLOEXEC;
	if (s->cgroup_dir && pid == -1) {   /* perf -G: the cgroup's tasks on CPU */
		pid = dirfd(s->cgroup_dir);
		flags |= PERF_FLAG_PID_CGROUP;
	}
	int fd = sys_perf_event_open(&a, pid, cpu, group_fd, flags);
	if (fd < 0 && kernel_refused(s, &a, fs->ev, errno)) {
		/* perf's fallback: what the user may see is user space */
		attr_setup(&a, fs, s);
		if (fs->index >= 0)
			ls->opened_attr[fs->index] = a;
		else
			ls->ref_attr = a;
		fd = sys_perf_event_open(&a, pid, cpu, group_fd, flags);
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
		if (ring_open(rg, fd, ls->ring_pages) < 0) {
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
	struct live_src *ls = live_of(s);
	const struct ev_spec *ev = &s->events.ev[e];
	bool metric = ls->topdown && events_is_metric(ev);

	return (struct fd_spec){ ev, e, group, first,
				 metric || (ls->topdown && events_is_slots(ev)), metric };
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
		if (live_of(s)->opened[e] && !events_is_metric(&s->events.ev[e]) &&
		    !(slots >= 0 && e == slots))
			return e;
	return slots;
}

/* The fd group of event E: rotated only in time-slice mode with groups. */
static int fd_group(const struct session *s, int e)
{
	struct live_src *ls = live_of(s);

	return ls->mux.n_groups > 1 && ls->group[e] >= 0 ? ls->group[e] : MUX_ALWAYS;
}

/* With a reference, it is opened first and carries the side-band records:
 * it is the one fd that is never disabled, so no mmap or comm is missed
 * while a group waits for its slice. */
static int open_events(struct session *s, const pid_t *tids, int ntids, char *err,
		       size_t errsz)
{
	struct live_src *ls = live_of(s);
	int slots = topdown_leader(s, err, errsz);
	int first = ls->with_ref ? ls->ref_ev : first_event(s, slots);

	if (slots == -2)
		return -1;
	ls->topdown = slots >= 0;
	free(s->slots_fds);
	if (!(s->slots_fds = calloc((size_t)ntids * (size_t)s->ncpus, sizeof(int)))) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	if (ls->with_ref && ls->ref_ev == MUX_REFERENCE) {
		struct fd_spec fs = { &ls->ref_spec, MUX_REFERENCE, MUX_ALWAYS, true, false, false };
		if (open_fd_spec(s, &fs, tids, ntids, err, errsz) < 0)
			return -1;
	}
	if (first >= 0) {
		struct fd_spec fs = event_fd_spec(s, first, MUX_ALWAYS, true);
		if (open_fd_spec(s, &fs, tids, ntids, err, errsz) < 0)
			return -1;
	}
	/* slots before its group's metric events */
	if (slots >= 0 && slots != first && ls->opened[slots]) {
		struct fd_spec fs = event_fd_spec(s, slots, fd_group(s, slots), false);
		if (open_fd_spec(s, &fs, tids, ntids, err, errsz) < 0)
			return -1;
	}
	for (int e = 0; e < s->events.n; e++) {
		struct fd_spec fs = event_fd_spec(s, e, fd_group(s, e), false);
		if (e == first || e == slots || !ls->opened[e])
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
		max_counters = pfm_host_counters(s->events.host);
	return mux_plan(&s->events, max_counters, s->plan, live_of(s)->group, err, errsz);
}

/* The reference when the user did not ask for it: the model's cycles event,
 * encoded like any event, counting only. */
static int encode_reference(struct session *s, char *err, size_t errsz)
{
	struct ev_list *tmp = calloc(1, sizeof(*tmp));
	int rc = -1;

	if (!tmp)
		snprintf(err, errsz, "out of memory");
	else if (events_parse(s->events.model->cycles, s->events.model, s->events.host, tmp, err, errsz) == 0) {
		live_of(s)->ref_spec = tmp->ev[0];
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
	struct live_src *ls = live_of(s);
	int n_groups = s->plan->n_groups;

	if (o->one_group && (o->group < 0 || o->group >= n_groups)) {
		snprintf(err, errsz, "group %d: the plan has %d group%s", o->group + 1, n_groups,
			 n_groups == 1 ? "" : "s");
		return -1;
	}
	for (int e = 0; e < s->events.n; e++)
		ls->opened[e] = !o->one_group || ls->group[e] == SNAP_EVERY_GROUP ||
			       ls->group[e] == o->group;
	ls->with_ref = o->one_group || n_groups > 1;
	ls->ref_ev = s->plan->reference >= 0 ? s->plan->reference : MUX_REFERENCE;
	if (ls->with_ref && ls->ref_ev == MUX_REFERENCE && encode_reference(s, err, errsz) < 0)
		return -1;
	mux_start(&ls->mux, o->one_group ? 1 : n_groups, o->slice_ms, session_now_ns());
	profile_set_plan(s->prof, n_groups, ls->group,
			 o->one_group ? 0 : (int)(o->slice_ms ? o->slice_ms : MUX_SLICE_MS_DEFAULT));
	return 0;
}

static int setup_rings(struct session *s, size_t pages)
{
	struct live_src *ls = live_of(s);

	ls->ring_pages = pages ? pages : 64;
	if (ls->ring_pages & (ls->ring_pages - 1))
		return -1;
	s->rings = calloc((size_t)s->ncpus, sizeof(*s->rings));
	s->pfds = calloc((size_t)s->ncpus + 1, sizeof(*s->pfds));
	return s->rings && s->pfds ? 0 : -1;
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
		session_name_threads(s, s->target.pid, tids, n);
	free(tids);
	return rc;
}

static const struct session_source live_source;

/* -g: the samples' format, and a ring that holds several stack copies
 * (a record larger than the ring is lost whole). */
static int setup_call_graph(struct session *s, const struct session_opts *o, char *err,
			    size_t errsz)
{
	struct live_src *ls = live_of(s);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	s->fmt = (struct rec_format){ .sample_type = SAMPLE_TYPE, .sample_id_all = true };
	/* system-wide: each sample's cgroup (not with dwarf stacks: the stack
	 * copy must stay the sample's last field to be cut, engine/record.h) */
	if ((o->all_cpus || o->cpus || o->cgroup) && o->call_graph != CALL_GRAPH_DWARF &&
	    cgroup_sample_supported())
		s->fmt.sample_type |= PERF_SAMPLE_CGROUP;
	ls->call_graph = o->call_graph;
	ls->stack_size = o->stack_size ? o->stack_size : CALL_GRAPH_STACK_DEFAULT;
	ls->offcpu_stack_size = o->stack_size ? o->stack_size : OFFCPU_STACK_USER;
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
		if (ls->stack_size % 8 || ls->stack_size > CALL_GRAPH_STACK_MAX) {
			snprintf(err, errsz, "stack size %u: a multiple of 8 bytes, 8 to %u",
				 ls->stack_size, CALL_GRAPH_STACK_MAX);
			return -1;
		}
		if (unwind_load(err, errsz) < 0)   /* libunwind: a line naming it */
			return -1;
		s->fmt.sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
				      PERF_SAMPLE_STACK_USER;
		s->fmt.regs_user = CG_REGS_USER;
		/* the copy, the registers, the other fields: a few hundred bytes */
		size_t need = 2 * ((size_t)ls->stack_size + 512), pages = 1;
		while (pages * page < need)
			pages *= 2;
		if (ls->ring_pages * page < need) {
			snprintf(err, errsz, "a ring of %zu pages is too small for %u-byte stack "
				 "copies: use -m %zu or more", ls->ring_pages, ls->stack_size, pages);
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

/* --cgroup: the header's name, the directory's path under the cgroup v2
 * root as /proc/PID/cgroup gives it (the mount point is no news). */
static void name_cgroup(struct session *s, const char *dir)
{
	char root[CGROUP_PATH_MAX];
	size_t n = 0;

	if (cgroup_v2_root(root, sizeof(root)) == 0 && strncmp(dir, root, strlen(root)) == 0 &&
	    (dir[strlen(root)] == '/' || !dir[strlen(root)]))
		n = strlen(root);
	snprintf(s->target.comm, sizeof(s->target.comm), "cgroup %s", dir[n] ? dir + n : "/");
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
		session_cpus_online(s->cpu_on, s->ncpus);
	}
	profile_track_processes(s->prof);
	snprintf(s->target.comm, sizeof(s->target.comm), "%s",
		 o->cpus ? "CPUs " : "all CPUs");
	if (o->cpus)
		snprintf(s->target.comm + 5, sizeof(s->target.comm) - 5, "%s", o->cpus);
	if (o->cgroup && !(s->cgroup_dir = sys_opendir(o->cgroup))) {
		snprintf(err, errsz, "cgroup %s: %s", o->cgroup, strerror(errno));
		return -1;
	}
	if (o->cgroup)
		name_cgroup(s, o->cgroup);
	int rc = open_events(s, &all, 1, err, errsz);
	if (s->cgroup_dir)
		closedir(s->cgroup_dir);
	s->cgroup_dir = NULL;
	return rc;
}

/* Records wait in their ring until the time-ordered queue delivers them:
 * a sample's copy of the user stack (4-8 KB with dwarf stacks) is then read
 * only where the unwinder looks, never copied whole (a quarter of a dwarf
 * watch's CPU was that copy).  The ring's room comes back as they leave, a
 * round later.  A ring's records are held only while their times do not go
 * back, so that the queue delivers, and gives back, in the ring's order; a
 * record that wraps the ring's end, or comes older, is copied as before. */
struct ring_take {
	struct session *s;
	uint32_t cpu;
};

static bool live_take(const struct perf_event_header *h, uint64_t end, bool in_place, void *arg)
{
	const struct ring_take *k = arg;
	struct session *s = k->s;
	struct ring *r = &s->rings[k->cpu];
	struct rec_stamp st;

	if (s->sink)
		s->sink->write(s, h);
	s->src->stamp(s, h, &st);
	if (in_place && st.timed && !(r->held && st.time < r->held_time) &&
	    ordered_hold(s->queue, h, st.time, st.ev, k->cpu, end)) {
		r->held_time = st.time;
		return true;
	}
	session_queue(s, h, &st);
	return false;
}

static void live_release(uint32_t cpu, uint64_t end, void *arg)
{
	struct session *s = arg;

	ring_release(&s->rings[cpu], end);
}

static void drain_rings(struct session *s)
{
	for (int c = 0; c < s->ncpus; c++)
		ring_read(&s->rings[c], live_take, &(struct ring_take){ s, (uint32_t)c });
}

/* After a round: a ring that holds more than 3/8 of its room (the watcher
 * came late: more than a wake-up's quarter was read) has its records
 * copied out and the room given back, so that a late turn never leaves the
 * kernel less room than an ordinary one. */
static void round_end(struct session *s)
{
	session_round_end(s);
	for (int c = 0; c < s->ncpus; c++)
		if (ring_held_bytes(&s->rings[c]) > s->rings[c].data_size / 8 * 3)
			ordered_detach(s->queue, (uint32_t)c);
}

struct session *session_open(const struct session_opts *o, char *err, size_t errsz)
{
	struct session *s = session_alloc(&live_source);
	size_t pages = o->ring_pages;

	if (!s || !(s->src_state = calloc(1, sizeof(struct live_src)))) {
		snprintf(err, errsz, "out of memory");
		session_close(s);
		return NULL;
	}
	ordered_set_release(s->queue, live_release);
	session_spaces_naming(s, &o->naming, NULL);
	if (events_parse(o->events ? o->events : "cycles", events_host_model(s->pfm), s->pfm,
			 &s->events, err, errsz) < 0)
		goto fail;
	if (!pages && (o->call_graph == CALL_GRAPH_DWARF || offcpu_wanted(s)))
		pages = sys_geteuid() != 0 ? CG_DWARF_RING_PAGES_USER
			: s->ncpus <= CG_DWARF_FEW_CPUS ? CG_DWARF_RING_PAGES_FEW
			: CG_DWARF_RING_PAGES;
	else if (!pages && (o->all_cpus || o->cpus || o->cgroup))
		pages = SYSWIDE_RING_PAGES;
	if (setup_rings(s, pages) < 0 || setup_call_graph(s, o, err, errsz) < 0)
		goto fail;
	if (session_offcpu_setup(s) < 0) {
		snprintf(err, errsz, "out of memory");
		goto fail;
	}
	s->prof = profile_new(&s->events);
	if (!s->prof || plan_events(s, o->max_counters, err, errsz) < 0 ||
	    setup_mux(s, o, err, errsz) < 0)
		goto fail;
	/* the kernel's names before any ring fills: reading kallsyms takes
	 * 0.2 s, a second on a loaded VM, and a reader stopped for it on the
	 * first kernel sample lost a dwarf watch's samples (its 2 MB ring is
	 * 64 ms of a busy CPU's) */
	if (sys_geteuid() == 0 || paranoid_level() <= 1)
		session_load_kernel_names(s);
	if (o->all_cpus || o->cpus || o->cgroup) {
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
	session_offcpu_opened(s);
	if (o->start_sink && o->start_sink(s, o, err, errsz) < 0)
		goto fail;
	for (int c = 0; c < s->ncpus; c++)
		s->pfds[c] = (struct pollfd){ s->rings[c].base ? s->rings[c].fd : -1, POLLIN, 0 };
	s->t0 = s->last_snap = (double)session_now_ns() / 1e9;
	if (o->argv && target_start(&s->target, err, errsz) < 0)
		goto fail;
	/* the first slice starts now: group 0 is counting since the exec */
	live_of(s)->mux.next_ns = session_now_ns() + live_of(s)->mux.slice_ns;
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
	struct live_src *ls = live_of(s);
	int due = mux_due_ms(&ls->mux, session_now_ns());
	int wait = due >= 0 && (timeout_ms < 0 || due < timeout_ms) ? due : timeout_ms;
	s->pfds[s->ncpus] = (struct pollfd){ s->wake_fd, POLLIN, 0 };
	int n = sys_poll(s->pfds, (nfds_t)s->ncpus + 1, wait);

	mux_tick(&ls->mux, s->fds, s->nfds, session_now_ns());

	if (s->system_wide) {  /* nothing ends but the watch */
		drain_rings(s);
		round_end(s);
		if (s->sink)
			s->sink->flush(s);
		session_spaces_reap(s);
		session_spaces_expire(s);
		return false;
	}
	if (n < 0 && errno != EINTR)
		s->hup = true;
	for (int c = 0; c < s->ncpus; c++)
		if (s->pfds[c].revents & (POLLHUP | POLLERR))
			s->hup = true;
	drain_rings(s);
	round_end(s);
	if (s->sink)
		s->sink->flush(s);
	if (target_poll_end(&s->target, s->hup) || s->hup) {
		/* whatever the kernel wrote before the exit */
		drain_rings(s);
		session_flush_records(s);
		return s->target.ended || (s->hup && target_poll_end(&s->target, true));
	}
	return false;
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
	struct live_src *ls = live_of(s);
	struct mux_totals t[EVENTS_MAX], ref;
	double ref_enabled = 0;

	mux_read(s->fds, s->nfds, cpus_opened(s), t, s->events.n, &ref);
	if (ls->with_ref) {
		const struct mux_totals *r = ls->ref_ev >= 0 ? &t[ls->ref_ev] : &ref;
		struct mux_scaled rs = mux_scale(r, 0);
		ref_enabled = r->enabled;
		profile_set_reference(s->prof, ls->ref_ev >= 0 ? s->events.ev[ls->ref_ev].name
					      : ls->ref_spec.name, rs.counted ? rs.count : NAN);
	}
	for (int e = 0; e < s->events.n; e++) {
		struct mux_scaled sc = { 0, 0, false };
		/* only a rotation makes the reference the denominator: a run of
		 * --mux runs rotates nothing, its counts are the kernel's own
		 * (exact where the event ran all the time) */
		if (ls->opened[e])
			sc = mux_scale(&t[e], e == ls->ref_ev || ls->mux.n_groups <= 1 ? 0 : ref_enabled);
		profile_set_scaled(s->prof, e, sc.count, sc.coverage, sc.counted);
	}
}

/* --- the live source: rings of the events opened here ------------------- */

static int live_decode(const struct session *s, const struct perf_event_header *h, int ev,
		       struct record *r)
{
	(void)ev;  /* every fd has the same format */
	return record_decode_fmt(h, &s->fmt, r);
}

/* A sample's event is its id's fd's (a lone event's samples may carry no
 * id: 0). */
static void live_stamp(const struct session *s, const struct perf_event_header *h,
		       struct rec_stamp *st)
{
	uint64_t id = 0;

	st->ev = -1;
	if (h->type == PERF_RECORD_SAMPLE) {
		record_id(h, s->fmt.sample_type, s->fmt.sample_id_all, &id);
		st->ev = session_event_of(s, id);
	}
	st->timed = record_time(h, s->fmt.sample_type, s->fmt.sample_id_all, &st->time);
}

static bool live_stack_attr(const struct session *s, int ev, uint64_t *sample_type,
			    uint32_t *stack_user)
{
	struct live_src *ls = live_of(s);

	*sample_type = s->fmt.sample_type;  /* every sampling fd's */
	*stack_user = stack_user_of(s, ev >= 0 && ev < s->events.n ? &s->events.ev[ev] : NULL);
	return ls->call_graph == CALL_GRAPH_DWARF;
}

/* A live sample is one sample, its period the SAV; in frequency mode the
 * kernel sets each period: the sample weighs it (its event's sav is 1),
 * and how many samples there were is counted apart. */
static uint64_t live_weigh(struct session *s, int ev, const struct rec_sample *smp,
			   uint64_t period)
{
	struct live_src *ls = live_of(s);

	(void)smp;
	if (!ls->opened_attr[ev].freq)
		return 1;
	ls->freq_samples[ev]++;
	return period;
}

static void live_snapshot(struct session *s, struct snapshot *snap)
{
	struct live_src *ls = live_of(s);

	side_read(s->side, snap);
	for (int e = 0; e < snap->n_events && e < s->events.n; e++)
		if (ls->opened_attr[e].freq)
			snap->ev[e].nsamples = ls->freq_samples[e];
}

static const struct perf_event_attr *live_attr(const struct session *s, int ev)
{
	return &live_of(s)->opened_attr[ev];
}

/* The internal reference counts beside every group when the plan has
 * several and the user did not ask for the model's cycles event. */
static const struct perf_event_attr *live_ref_attr(const struct session *s, const char **name)
{
	struct live_src *ls = live_of(s);

	*name = ls->ref_spec.name;
	return &ls->ref_attr;
}

static void live_close(struct session *s)
{
	free(s->src_state);
	s->src_state = NULL;
}

static const struct session_source live_source = {
	.recorded = false,
	.stamp = live_stamp,
	.decode = live_decode,
	.stack_attr = live_stack_attr,
	.weigh = live_weigh,
	.attr = live_attr,
	.ref_attr = live_ref_attr,
	.poll = live_poll,
	.counts = read_counts,
	.snapshot = live_snapshot,
	.close = live_close,
};

