/* Time-slice multiplexing of planned event groups, in user space.
 *
 * The planner (arch/plan.h) packs the events into groups that fit the
 * counters.  With more than one group, exactly one group is enabled at a
 * time: every slice the current group's fds get PERF_EVENT_IOC_DISABLE and
 * the next group's PERF_EVENT_IOC_ENABLE (the ioctls reach the inherited
 * child events too).  The reference (the model's cycles event, cpu-clock on
 * the "perf" model) is never rotated: it counts all the time, on the counter
 * the planner kept for it in every group, and its enabled time is the
 * denominator of every coverage.
 *
 * Scaling (mux_scale): an event's COVERAGE is the time it really counted
 * (its running time) over the time the reference was enabled; its count is
 * estimated as value / coverage, and its per-function samples as
 * samples / coverage.  Without a reference (one group, nothing rotated) it is
 * the kernel's own running / enabled, as for any perf counter.
 *
 * The rotation state is plain data driven by a clock the caller passes in,
 * so tests run it against a fake kernel (sys_set_ops) and a fake clock. */
#ifndef ENGINE_MUX_H
#define ENGINE_MUX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/plan.h"
#include "engine/events.h"

#define MUX_ALWAYS (-1)     /* mux_fd.group of an fd that is never rotated */
#define MUX_REFERENCE (-1)  /* mux_fd.ev of the internal (counting-only) reference */
#define MUX_SLICE_MS_DEFAULT 100

struct mux_fd {
	int fd;
	int ev;        /* the session's event index, or MUX_REFERENCE */
	int group;     /* plan group, or MUX_ALWAYS */
	uint64_t id;   /* PERF_EVENT_IOC_ID */
	uint64_t last_read;  /* a recording's PERF_SAMPLE_READ: the value last read */
};

struct mux {
	int n_groups;          /* <= 1: nothing rotates */
	int current;           /* the group enabled now */
	uint64_t slice_ns;
	uint64_t next_ns;      /* when the next rotation is due */
	unsigned long rotations;
};

/* Plans the events of EVL (rows of its model, software events flagged) for
 * at most MAX_COUNTERS counters (0: the model's).  GROUP[e] receives each
 * event's group, or SNAP_EVERY_GROUP (-1) for the shared reference.
 * Returns the number of groups, or -1 with one line in ERR. */
int mux_plan(const struct ev_list *evl, int max_counters, struct plan *plan, int *group,
	     char *err, size_t errsz);

/* Starts the rotation at NOW_NS with group 0 enabled (the fds were opened
 * that way). */
void mux_start(struct mux *m, int n_groups, unsigned slice_ms, uint64_t now_ns);
/* Milliseconds until the next rotation (0: due now), or -1 if nothing
 * rotates. */
int mux_due_ms(const struct mux *m, uint64_t now_ns);
/* Rotates to the next group if a rotation is due at NOW_NS.  Returns 1 when
 * it rotated, 0 when nothing was due, -1 when an ioctl failed (errno). */
int mux_tick(struct mux *m, const struct mux_fd *fds, int nfds, uint64_t now_ns);

/* An event's value and times, summed over its fds. */
struct mux_totals {
	double value, enabled, running;
};

/* Reads every fd (read_format TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING | ID)
 * into EV[0..n_events) by fd event, the internal reference into *REF.  A
 * task's per-CPU fds all accrue enabled time while the task lives but run
 * only on their own CPU: the enabled sums are divided by NCPUS. */
void mux_read(const struct mux_fd *fds, int nfds, int ncpus, struct mux_totals *ev,
	      int n_events, struct mux_totals *ref);

struct mux_scaled {
	double count;     /* estimated over the whole time */
	double coverage;  /* fraction of the time counted, in [0, 1] */
	bool counted;     /* false: never ran, the count is unknown (not 0) */
};

/* T scaled against a reference enabled for REF_ENABLED (<= 0: no reference,
 * the kernel's running / enabled). */
struct mux_scaled mux_scale(const struct mux_totals *t, double ref_enabled);

#endif
