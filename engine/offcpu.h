/* Off-CPU time: each thread's intervals on and off the CPU from the
 * kernel's context-switch records (PERF_RECORD_SWITCH, _CPU_WIDE), the
 * switch-out sample held until the thread comes back (its weight, the time
 * it was away, is known only then), and the wall time per thread by
 * reason (arch/offcpu.h).  No system calls: the session feeds it records
 * in time order (engine/offcpu-session.c). */
#ifndef ENGINE_OFFCPU_H
#define ENGINE_OFFCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "arch/offcpu.h"

/* One thread's (or a sum's) wall time, nanoseconds. */
struct snap_wall_row {
	uint32_t pid, tid;
	uint64_t on_ns;                    /* between a switch in and out */
	uint64_t off_ns;                   /* between a switch out and in */
	uint64_t reason_ns[OFFCPU_REASONS]; /* off_ns by reason */
};

/* The wall time of a snapshot: the sum of its threads' (elapsed = on +
 * off, thread time watched since each thread's first switch), and each
 * thread's.  One allocation: free() it. */
struct snap_wall {
	struct snap_wall_row total;
	size_t n;
	struct snap_wall_row threads[];
};

struct offcpu;

struct offcpu *offcpu_new(void);
void offcpu_free(struct offcpu *o);

/* An off-CPU interval that ended: thread TID of PID was away NS from
 * time OUT_TIME, PREEMPTED (still runnable) or blocked. */
struct offcpu_iv {
	uint32_t pid, tid;
	uint64_t out_time, ns;
	bool preempted;
};

/* A switch of thread TID (process PID) at TIME: OUT (PREEMPT: it was still
 * runnable) or in.  True with IV filled when a switch in ends an interval
 * off the CPU; the caller then charges it (offcpu_charge). */
bool offcpu_switch(struct offcpu *o, uint32_t pid, uint32_t tid, uint64_t time, bool out,
		   bool preempt, struct offcpu_iv *iv);
/* Adds NS off the CPU to thread TID's (of process PID) reason R: an
 * interval's, or perf record --off-cpu's sum for a stack. */
void offcpu_charge(struct offcpu *o, uint32_t pid, uint32_t tid, enum offcpu_reason r,
		   uint64_t ns);
/* The latest record time seen: open intervals are counted up to it. */
void offcpu_clock(struct offcpu *o, uint64_t time);

/* Holds a copy of record H (thread TID's switch-out sample, at TIME);
 * a hold replaces the previous one.  0, or -1 when out of memory. */
int offcpu_hold(struct offcpu *o, uint32_t pid, uint32_t tid, uint64_t time,
		const struct perf_event_header *h);
/* Thread TID's held record taken at or after SINCE (NULL: none); it stays
 * held until offcpu_drop. */
const struct perf_event_header *offcpu_held(const struct offcpu *o, uint32_t tid,
					    uint64_t since);
void offcpu_drop(struct offcpu *o, uint32_t tid);

/* The wall time so far, per thread (those of process PID only; -1: all),
 * open intervals up to the clock; NULL when out of memory or no thread. */
struct snap_wall *offcpu_snapshot(const struct offcpu *o, int64_t pid);

/* The wall time of thread TID (-1: of every thread of process PID; -1:
 * of any process) summed into *SUM; false when W has no such thread. */
bool snap_wall_sum(const struct snap_wall *w, int64_t pid, int64_t tid,
		   struct snap_wall_row *sum);

#endif
