/* Off-CPU time in a session: the `off-cpu` event's switch-out samples
 * (the software event context-switches, period 1, with its call chain)
 * held until the thread's switch-in record (PERF_RECORD_SWITCH, or
 * _CPU_WIDE with -a) gives the time it was away; each then counts in the
 * profile as one sample weighing those nanoseconds, at the innermost user
 * function of its stack, and in the wall time by the reason the kernel's
 * frames give (arch/offcpu.c).  The kernel writes the sample before the
 * switch-out record, in one call (kernel/events/core.c,
 * perf_event_task_sched_out: perf_sw_event_sched, then perf_event_switch);
 * a preempted thread's record carries PERF_RECORD_MISC_SWITCH_OUT_PREEMPT
 * (include/uapi/linux/perf_event.h, Linux 4.17). */
#include "engine/offcpu.h"
#include "engine/session-priv.h"

#include <string.h>

#include "engine/unwind.h"

/* The sample belongs to the switch out at most this far from it (they are
 * written microseconds apart, in one call). */
#define HOLD_SLACK_NS 1000000ull
/* Kernel frames looked at for the reason, innermost first. */
#define REASON_FRAMES 24
/* Call chain entries of a perf off-cpu sample's raw data kept (perf's BPF
 * keeps 127 and the marker). */
#define RAW_FRAMES 128

bool session_offcpu_perf_event(const struct perf_event_attr *a, const char *name)
{
	return a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_BPF_OUTPUT &&
	       (strcmp(name, "offcpu-time") == 0 || strcmp(name, "off-cpu") == 0);
}

int session_offcpu_setup(struct session *s)
{
	s->offcpu_ev = s->switch_ev = -1;
	for (int e = 0; e < s->events.n; e++) {
		const struct ev_spec *ev = &s->events.ev[e];
		if (ev->offcpu)
			s->offcpu_ev = s->switch_ev = e;
		else if (session_offcpu_perf_event(&ev->attr, ev->name))
			s->offcpu_ev = e;
		else if (s->switch_ev < 0 && ev->attr.context_switch)
			s->switch_ev = e;   /* a file's (perf record --switch-events) */
	}
	if (s->switch_ev < 0 && s->offcpu_ev < 0)
		return 0;
	if (!(s->offcpu = offcpu_new()))
		return -1;
	/* the switch-out stack, kernel and user, even without -g: every fd
	 * shares one format (the reference's counts carry none) */
	s->fmt.sample_type |= PERF_SAMPLE_CALLCHAIN;
	return 0;
}

void session_offcpu_opened(struct session *s)
{
	if (s->offcpu && s->user_only)
		session_add_notice(s, "off-cpu: no switch-out stacks (the context-switches event "
				   "samples in the kernel, refused at perf_event_paranoid 2 without "
				   "CAP_PERFMON): reasons runnable or other, functions [unknown]");
}

/* The kernel's frames of SMP's call chain, innermost first, named. */
static size_t kernel_names(struct session *s, const struct rec_sample *smp, const char **names)
{
	struct kernel_chain k = { .smp = smp };
	size_t n = 0;
	struct sym_info si;
	uint64_t ip;

	while (n < REASON_FRAMES && kernel_chain_next(&k, &ip)) {
		session_kernel_symbol(s, ip, &si);
		names[n++] = si.name;
	}
	return n;
}

/* SMP as a user-mode sample at the user IP where the thread entered the
 * kernel: the call chain's user part (its first entry that IP), or with
 * dwarf stacks (no user chain) the user registers' IP.  False for a
 * kernel thread. */
static bool user_part(const struct rec_sample *smp, struct rec_sample *u)
{
	*u = *smp;
	u->cpumode = PERF_RECORD_MISC_USER;
	u->nr_ips = 0;
	u->ips = NULL;
	for (uint64_t i = 0; i < smp->nr_ips; i++)
		if (smp->ips[i] == (uint64_t)PERF_CONTEXT_USER) {
			u->ips = smp->ips + i;
			u->nr_ips = smp->nr_ips - i;
			if (u->nr_ips > 1) {
				u->ip = u->ips[1];
				return true;
			}
		}
	return unwind_user_ip(smp, &u->ip);
}

/* The user function at U's IP, for the reason when the kernel's frames
 * are not there. */
static const char *user_name(struct session *s, const struct rec_sample *u)
{
	struct space *sp = space_get(s, (pid_t)u->pid);
	struct sym_info si;

	return sp && symtab_lookup(sp->st, u->ip, &si) ? si.name : NULL;
}

/* A wait of NS at U's user function (with U's stack if STACK): one
 * sample of the off-cpu event weighing NS.  Only the off-cpu event's
 * waits are samples (perf's context-switches count as perf counts them). */
static void add_wait(struct session *s, const struct rec_sample *u, uint64_t ns, bool stack)
{
	if (!ns || s->offcpu_ev < 0)
		return;
	/* one stack weighs a whole wait: never skipped for the batch's
	 * unwinding budget (session-stack.c), though its time counts in it */
	uint64_t spent = s->cg_batch_ns;
	s->cg_batch_ns = 0;
	session_add_weighed(s, s->offcpu_ev, u, ns, stack);
	s->offcpu_waits++;
	s->cg_batch_ns += spent;
}

/* Interval IV ended: its reason, and its sample weighing its time. */
static void charge(struct session *s, const struct offcpu_iv *iv)
{
	const struct perf_event_header *h = offcpu_held(s->offcpu, iv->tid,
						       iv->out_time > HOLD_SLACK_NS ?
						       iv->out_time - HOLD_SLACK_NS : 0);
	const char *kn[REASON_FRAMES], *un = NULL;
	struct rec_sample u = { .pid = iv->pid, .tid = iv->tid, .time = iv->out_time,
				.cpumode = PERF_RECORD_MISC_USER };
	struct record r;
	size_t nk = 0;
	bool stack = false;

	if (h && s->src->decode(s, h, s->switch_ev, &r) == 0 && r.type == PERF_RECORD_SAMPLE) {
		nk = kernel_names(s, &r.u.sample, kn);
		stack = user_part(&r.u.sample, &u);
		if (stack)
			un = user_name(s, &u);
	}
	offcpu_drop(s->offcpu, iv->tid);
	enum offcpu_reason why = offcpu_classify(iv->preempted, kn, nk, &un, un ? 1 : 0);
	offcpu_charge(s->offcpu, iv->pid, iv->tid, why, iv->ns);
	add_wait(s, &u, iv->ns, stack);
}

/* Whether the off-cpu event is perf record --off-cpu's: its samples are
 * the waits, not the switch records. */
static bool perf_waits(const struct session *s)
{
	return s->offcpu_ev >= 0 && s->offcpu_ev != s->switch_ev;
}

/* Newer perf (6.14's --off-cpu-thresh) writes a long wait as it ends, its
 * fields in the bpf-output's raw data (tools/perf/util/evsel.c,
 * __set_offcpu_sample): u32 pid, u32 tid, u64 period, u64 nr, nr call
 * chain entries (PERF_CONTEXT_USER first), u64 cgroup.  SMP's as such
 * into W, the chain copied into CHAIN (the raw data is 4-byte aligned). */
static bool raw_wait(const struct rec_sample *smp, struct rec_sample *w, uint64_t *chain)
{
	const unsigned char *p = smp->raw;
	uint32_t ids[2];
	uint64_t nr;

	if (!p || smp->raw_size < 32)
		return false;
	memcpy(&nr, p + 16, 8);
	if (nr > (smp->raw_size - 32) / 8)
		return false;
	*w = *smp;
	memcpy(ids, p, 8);
	memcpy(&w->period, p + 8, 8);
	w->pid = ids[0];
	w->tid = ids[1];
	w->nr_ips = nr < RAW_FRAMES ? nr : RAW_FRAMES;
	memcpy(chain, p + 24, w->nr_ips * 8);
	w->ips = chain;
	w->ip = w->nr_ips > 1 ? chain[1] : 0;
	return true;
}

/* perf record --off-cpu's sample (tools/perf/util/bpf_off_cpu.c,
 * off_cpu_write): a thread's time off the CPU summed per user stack by
 * BPF, its period the nanoseconds, its call chain PERF_CONTEXT_USER and
 * that stack, its IP the chain's first, its time made up (from 2^64 - 2^32:
 * after every record).  Without kernel frames the reason is the C
 * library function it blocked in; the wall time has no clock here. */
static void perf_wait(struct session *s, const struct rec_sample *smp)
{
	struct rec_sample u, w;
	uint64_t chain[RAW_FRAMES];
	const char *un = NULL;

	if (raw_wait(smp, &w, chain))
		smp = &w;
	bool stack = user_part(smp, &u);

	if (stack)
		un = user_name(s, &u);
	else
		u.ip = smp->ip;
	enum offcpu_reason why = offcpu_classify(false, NULL, 0, &un, un ? 1 : 0);
	offcpu_charge(s->offcpu, smp->pid, smp->tid, why, smp->period);
	add_wait(s, &u, smp->period, stack);
}

void session_offcpu_totals(const struct session *s, struct snapshot *snap)
{
	if (s->offcpu_ev < 0 || s->offcpu_ev >= snap->n_events)
		return;
	struct snap_event *ev = &snap->ev[s->offcpu_ev];
	ev->nsamples = s->offcpu_waits;
	ev->count = (double)ev->samples;
	ev->counted = true;
}

static void on_switch(struct session *s, const struct record *r)
{
	struct offcpu_iv iv;

	/* the idle task is never off the CPU for a reason */
	if (r->sid_tid == 0)
		return;
	/* with perf's off-cpu samples (perf record --off-cpu --switch-events)
	 * the intervals give the time on the CPU only: the samples have the
	 * time off it */
	if (offcpu_switch(s->offcpu, r->sid_pid, r->sid_tid, r->sid_time, r->u.sw.out,
			  r->u.sw.preempt, &iv) && !perf_waits(s))
		charge(s, &iv);
}

bool session_offcpu_record(struct session *s, const struct perf_event_header *h, int ev,
			   const struct record *r)
{
	if (r->type == PERF_RECORD_SWITCH || r->type == PERF_RECORD_SWITCH_CPU_WIDE) {
		on_switch(s, r);
		return true;
	}
	if (r->type != PERF_RECORD_SAMPLE) {
		offcpu_clock(s->offcpu, r->sid_time);
		return false;
	}
	if (ev >= 0 && ev == s->offcpu_ev && perf_waits(s)) {
		perf_wait(s, &r->u.sample);   /* its time is no clock's */
		return true;
	}
	offcpu_clock(s->offcpu, r->u.sample.time);
	if (ev != s->switch_ev || ev < 0)
		return false;
	offcpu_hold(s->offcpu, r->u.sample.pid, r->u.sample.tid, r->u.sample.time, h);
	/* off-cpu's sample counts when its thread is back; perf's
	 * context-switches sample counts now, as perf report counts it */
	return ev == s->offcpu_ev;
}

struct snap_wall *session_offcpu_snapshot(const struct session *s)
{
	return s->offcpu ? offcpu_snapshot(s->offcpu, -1) : NULL;
}
