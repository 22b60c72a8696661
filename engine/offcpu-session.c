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

int session_offcpu_setup(struct session *s)
{
	s->offcpu_ev = s->switch_ev = -1;
	for (int e = 0; e < s->events.n; e++) {
		if (s->events.ev[e].offcpu)
			s->offcpu_ev = s->switch_ev = e;
		else if (s->switch_ev < 0 && s->events.ev[e].attr.context_switch)
			s->switch_ev = e;   /* a file's (perf record --switch-events) */
	}
	if (s->switch_ev < 0)
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
	bool in_kernel = false;
	size_t n = 0;
	struct sym_info si;

	for (uint64_t i = 0; i < smp->nr_ips && n < REASON_FRAMES; i++) {
		uint64_t ip = smp->ips[i];
		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			in_kernel = ip == (uint64_t)PERF_CONTEXT_KERNEL;
			continue;
		}
		if (!in_kernel)
			continue;
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
	offcpu_charge(s->offcpu, iv->tid, why, iv->ns);
	if (!iv->ns || s->offcpu_ev < 0)
		return;
	/* one stack weighs a whole wait: never skipped for the batch's
	 * unwinding budget (session-stack.c), though its time counts in it */
	uint64_t spent = s->cg_batch_ns;
	s->cg_batch_ns = 0;
	session_add_weighed(s, s->offcpu_ev, &u, iv->ns, stack);
	s->offcpu_waits++;
	s->cg_batch_ns += spent;
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
	if (offcpu_switch(s->offcpu, r->sid_pid, r->sid_tid, r->sid_time, r->u.sw.out,
			  r->u.sw.preempt, &iv))
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
