/* The profile: per-event sample counts per function and module, totals,
 * a live window (since the last snapshot) and the cumulative view.
 * Consumers only ever see snapshots, which are immutable copies; their
 * function and module names point into the profile's interned strings,
 * which each snapshot holds a reference on (valid after profile_free). */
#ifndef ENGINE_PROFILE_H
#define ENGINE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/cgroup.h"
#include "engine/events.h"

#define PROFILE_COMM_MAX 16      /* the kernel's TASK_COMM_LEN */
#define PROFILE_TID_OTHER UINT32_MAX  /* also the pid of "[other processes]" */
#define PROFILE_USER_MAX 32

struct profile;
struct profile_names;

struct snap_event {
	char name[EVENT_NAME_MAX];
	uint64_t sav;
	uint64_t samples;        /* cumulative */
	uint64_t window;         /* since the previous snapshot */
	uint64_t nsamples;       /* an event sampled in frequency mode (live or
				  * recorded), whose samples weigh their periods
				  * (samples sums them): how many samples there
				  * are; 0 otherwise */
	double count;            /* counting-mode total, scaled by enabled/running */
	double coverage;         /* fraction of the time counted (engine/mux.h), 1 when
				  * never multiplexed; estimated samples = samples /
				  * coverage */
	bool counted;            /* false: never ran (coverage 0): count unknown, not 0 */
	int group;               /* plan group (0-based); SNAP_EVERY_GROUP: the shared
				  * reference */
};

#define SNAP_EVERY_GROUP (-1)
#define SNAP_SIDE_MAX 8
#define SNAP_MAX_RUNS 256

/* One run of the command in runs mode (--mux runs). */
struct snap_run {
	int group;               /* the plan group it measured */
	int run;                 /* 0..runs-1 */
	double reference;        /* its reference count (NAN: not measured) */
};

struct snap_func {
	const char *name;        /* "[unknown]" when no symbol */
	const char *module;      /* path, "[vdso]", "[anon]", "[unknown]" */
	uint64_t *samples;       /* [n_events] cumulative */
	uint64_t *window;        /* [n_events] */
	/* system-wide (snapshot->system_wide): the command of the process with
	 * the most samples here (of the zoomed process when zoomed), and how
	 * many processes have samples here; NULL and 0 otherwise */
	const char *comm;
	uint32_t pid;            /* that process */
	uint32_t nprocs;
};

struct snap_module {
	const char *module;
	uint64_t *samples;       /* [n_events] cumulative */
	uint64_t *window;        /* [n_events] */
};

/* System-wide: the processes' samples summed by their cgroup's name. */
struct snap_cgroup {
	const char *name;        /* engine/cgroup.h's cgroup_name */
	uint64_t *samples;       /* [n_events] cumulative */
	uint64_t *window;        /* [n_events] */
};

/* A thread of the target (or of a child process), once it has samples. */
struct snap_thread {
	uint32_t tid;            /* PROFILE_TID_OTHER: the threads past the limit */
	char comm[PROFILE_COMM_MAX]; /* "" until a COMM record (or a parent) named it */
	bool ended;              /* an EXIT record was seen */
	uint64_t *samples;       /* [n_events] cumulative */
	uint64_t *window;        /* [n_events] */
	uint32_t pid;            /* threads: its process; processes: the pid again */
	char user[PROFILE_USER_MAX]; /* processes: the owner, "" unknown */
	char cgroup[CGROUP_NAME_MAX]; /* processes: its cgroup's name, "" unknown */
};

/* Samples at one instruction address (for the asm view). */
struct snap_ip {
	uint64_t ip;
	uint64_t *samples;       /* [n_events] cumulative, as the rows' samples (what
				  * they weigh when each weighs its period) */
	uint64_t *hits;          /* [n_events] how many samples, each once; NULL:
				  * samples */
};

struct ip_counts {           /* immutable, one allocation */
	int n_events;
	size_t n;
	struct snap_ip *ips;     /* sorted by address */
};

struct snapshot {
	double time;             /* seconds since the watch started */
	double window_seconds;
	int n_events;
	struct snap_event ev[EVENTS_MAX];
	uint32_t thread;         /* funcs and modules of this thread only; 0: all */
	size_t n_funcs;
	struct snap_func *funcs; /* sorted by the first event's cumulative samples */
	size_t n_modules;
	struct snap_module *modules; /* sorted like funcs */
	size_t n_threads;
	struct snap_thread *threads; /* every thread with samples, sorted like funcs */
	/* System-wide (-a): every process with samples, sorted like funcs (tid
	 * is the pid, PROFILE_TID_OTHER the processes past the limit). */
	bool system_wide;
	int64_t process;         /* funcs and modules of this process only; -1: all */
	size_t n_procs;
	struct snap_thread *procs;
	size_t n_cgroups;        /* the procs summed by cgroup, sorted like funcs */
	struct snap_cgroup *cgroups;
	uint64_t lost, throttled, undecodable;
	int pid;
	char command[64];
	bool ended;
	int exit_status;         /* valid when ended: shell-style (128+sig on a signal) */
	int exit_signal;         /* valid when ended: the signal that ended it; 0: none */
	char pmu[64];
	char notice[1024];
	/* Multiplexing: the plan's groups; time slices, or one run per group. */
	int n_groups;            /* 1: nothing multiplexed */
	int slice_ms;            /* time-slice mode with n_groups > 1 */
	bool runs_mode;          /* --mux runs: merged from n_runs runs */
	char reference[EVENT_NAME_MAX]; /* the reference event, "" if none counted */
	double reference_count;  /* its count (NAN: not counted) */
	int n_runs;
	struct snap_run runs[SNAP_MAX_RUNS];
	double spread;           /* (max - min) / mean of the runs' references */
	/* Call stacks (-g, engine/callgraph.h): NULL when not collected.  Owned
	 * by the snapshot. */
	struct cg_snapshot *cg;
	/* Counted beside the events, never sampled (engine/side.h): the
	 * software tree's counters on a host without a PMU.  Live only. */
	int n_side;
	struct {
		char name[EVENT_NAME_MAX];
		double count;
	} side[SNAP_SIDE_MAX];
	bool recorded;           /* read from a perf.data file (cyctop -i) */
	/* The profile's interned strings that funcs' names and modules point
	 * into (engine/profile.c), held by the snapshot: NULL when it owns
	 * copies (snapshot_new). */
	struct profile_names *names;
	uint64_t stacks_skipped; /* samples counted without their stack (the
				  * unwinder's time budget was spent) */
	/* With off-cpu among the events: the wall time, on and off the CPU by
	 * reason, in total and per thread (engine/offcpu.h); owned, else NULL. */
	struct snap_wall *wall;
};

struct profile *profile_new(const struct ev_list *events);
void profile_free(struct profile *p);

/* Adds N samples of event EV taken in thread TID at address IP of function
 * NAME in MODULE (strings are interned here).  The profile remembers which
 * row the addresses NAME and MODULE found: the text at them must stay as
 * it is until profile_symbols_freed (a symbol table's strings do while the
 * table lives; a string literal always). */
void profile_add(struct profile *p, int ev, uint32_t tid, uint64_t ip, const char *name,
		 const char *module, uint64_t n);
/* Strings passed to profile_add may be freed from now on (a symbol table
 * went): their addresses name no row any more.  P may be NULL. */
void profile_symbols_freed(struct profile *p);
/* Thread life: a COMM record names TID, a new thread inherits its parent's
 * name (as clone() does), an EXIT record ends it.  Records come in time
 * order (engine/ordered.h): a FORK of a tid that ended is a reused tid, a
 * new life. */
void profile_set_thread_name(struct profile *p, uint32_t tid, const char *comm);
void profile_thread_fork(struct profile *p, uint32_t tid, uint32_t parent_tid);
void profile_thread_exit(struct profile *p, uint32_t tid);
/* Snapshots taken from now on show the functions of thread TID only
 * (0: of every thread); totals, threads and percentages stay the process's. */
void profile_set_thread_filter(struct profile *p, uint32_t tid);
/* System-wide: samples count per process too (profile_add_pid), and
 * snapshots carry the processes. */
void profile_track_processes(struct profile *p);
/* Adds a sample as profile_add does, taken in process PID. */
void profile_add_pid(struct profile *p, int ev, uint32_t pid, uint32_t tid, uint64_t ip,
		     const char *name, const char *module, uint64_t n);
/* Process life, as the threads': a name and owner (NULL: kept), a FORK
 * (the child takes its parent's name and owner), an EXIT. */
void profile_set_process(struct profile *p, uint32_t pid, const char *comm, const char *user);
/* The name of process PID's cgroup (engine/cgroup.h), as its latest sample
 * or /proc gave it: the snapshot's cgroups rows sum processes by it. */
void profile_set_process_cgroup(struct profile *p, uint32_t pid, const char *name);
void profile_process_fork(struct profile *p, uint32_t pid, uint32_t ppid);
void profile_process_exit(struct profile *p, uint32_t pid);
/* Whether process PID has a name and an owner. */
bool profile_process_named(const struct profile *p, uint32_t pid);
/* The command of process PID (tracked processes only), NULL when not known;
 * valid until the next change to the profile. */
const char *profile_process_comm(const struct profile *p, uint32_t pid);
/* Gives process PID the name and owner it lacks (from /proc, live). */
void profile_process_fill(struct profile *p, uint32_t pid, const char *comm, const char *user);
/* Snapshots taken from now on show the functions of process PID only (-1:
 * of every process); totals and percentages stay the system's. */
void profile_set_process_filter(struct profile *p, int64_t pid);
/* Memory bounds of the per-thread data (0 keeps a bound as it is): the
 * threads past MAX_THREADS share one PROFILE_TID_OTHER row; past MAX_CELLS
 * (function, thread) pairs, a thread's new functions show as one
 * "[other functions]" row when it is zoomed.  Sample totals stay exact. */
void profile_set_limits(struct profile *p, size_t max_threads, size_t max_cells);
void profile_add_lost(struct profile *p, uint64_t lost);
/* The records lost so far (LOST and LOST_SAMPLES). */
uint64_t profile_lost_records(const struct profile *p);
void profile_add_throttle(struct profile *p);
void profile_add_undecodable(struct profile *p);

/* The plan: N_GROUPS groups, event EV in EVENT_GROUP[EV] (or
 * SNAP_EVERY_GROUP), rotated every SLICE_MS (0: not time-sliced). */
void profile_set_plan(struct profile *p, int n_groups, const int *event_group, int slice_ms);
/* The count of event EV already scaled (engine/mux.h): its estimate over the
 * whole time, the fraction of the time counted, and whether it ever ran. */
void profile_set_scaled(struct profile *p, int ev, double count, double coverage,
			bool counted);
/* The reference's name and count for the snapshots (NAN: not counted). */
void profile_set_reference(struct profile *p, const char *name, double count);

/* An immutable copy (the names shared, see struct snapshot); the window
 * restarts. */
struct snapshot *profile_snapshot(struct profile *p, double now, double window_seconds);
/* The same with the call graph CG (may be NULL): the functions on its
 * stacks that have no samples of their own (main, the pure callers) get
 * rows with zero samples, as perf report --children lists them (not when
 * zoomed into a thread or process).  CG is not kept. */
struct cg_snapshot;
struct snapshot *profile_snapshot_cg(struct profile *p, double now, double window_seconds,
				     const struct cg_snapshot *cg);
void snapshot_free(struct snapshot *s);
/* An empty snapshot for N_EVENTS events with room for N_FUNCS function rows
 * and STRBYTES of strings (*STR points to them), for snapshots made from
 * other snapshots (engine/runs.c); complete it with snapshot_finish. */
struct snapshot *snapshot_new(int n_events, size_t n_funcs, size_t strbytes, char **str);
/* Sorts the function rows and adds the module totals (no thread rows),
 * summed by module pointer: rows of one module must share one.  Returns
 * -1 (and frees S) when out of memory. */
int snapshot_finish(struct snapshot *s);

/* The per-address samples of function NAME in MODULE, as an immutable copy;
 * NULL when out of memory.  Freed with free(). */
struct ip_counts *profile_ip_counts(struct profile *p, const char *name, const char *module);

/* Calls FN for every sampled address: its function, module and samples
 * per event ([n_events]), in the order they were first sampled (pprof
 * export).  Stops at and returns FN's first non-zero return, else 0. */
typedef int (*profile_ip_fn)(void *arg, uint64_t ip, const char *name, const char *module,
			     const uint64_t *samples);
int profile_foreach_ip(const struct profile *p, profile_ip_fn fn, void *arg);

/* Percent of event EV's samples in row F (cumulative or window). */
double snapshot_percent(const struct snapshot *s, const struct snap_func *f, int ev,
			bool window);
/* The same for a thread. */
double snapshot_thread_percent(const struct snapshot *s, const struct snap_thread *t, int ev,
			       bool window);
/* Thread TID of the snapshot, or NULL. */
const struct snap_thread *snapshot_thread(const struct snapshot *s, uint32_t tid);
/* Process PID of the snapshot, or NULL. */
const struct snap_thread *snapshot_process(const struct snapshot *s, uint32_t pid);
/* The basename of the one module of S that is a program (neither the
 * kernel's nor a library): the watched program's; NULL when there are
 * none or several. */
const char *snapshot_program(const struct snapshot *s);

#endif
