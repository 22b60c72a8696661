/* The session's private parts, shared by its file family: session.c (the
 * core: records in time order, samples into the profile), session-space.c
 * (address spaces), session-stack.c (call stacks), session-asm.c (the asm
 * view's functions), session-live.c (the live source: fds, rings, attach,
 * -a, polling), session-file.c (perf.data files opened with -i),
 * session-pprof.c (pprof files) and session-record.c (perf.data files
 * written by cyctop record).
 * A source, sink or tap keeps its own state behind a void pointer: none
 * of them, nor the core, reads another's. */
#ifndef ENGINE_SESSION_PRIV_H
#define ENGINE_SESSION_PRIV_H

#include <dirent.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "lib/hashtab.h"
#include "arch/plan.h"
#include "engine/callgraph.h"
#include "engine/events.h"
#include "engine/mux.h"
#include "engine/profile.h"
#include "engine/record.h"
#include "engine/session.h"
#include "engine/side.h"
#include "engine/cgroup.h"
#include "engine/symbols.h"
#include "engine/target.h"
#include "engine/unwind.h"

#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		     PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)
#define MAX_TIDS 4096
#define MAP_REFRESH_NS 200000000ull
/* -g dwarf: the user registers perf samples on this architecture
 * (engine/unwind.h): every one the unwinder may read. */
#define CG_REGS_USER UNWIND_REGS_USER

static inline uint64_t session_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct space {
	pid_t pid;
	struct symtab *st;
	uint64_t last_refresh;
	struct unwinder *uw;     /* -g dwarf: made on the first stack; NULL */
	bool exited;             /* its process exited: freed when spaces run short */
	uint64_t exit_ns;        /* live: when its EXIT was read (now_ns) */
};

/* Where a session's records come from: the live rings (session-live.c), a
 * perf.data file (session-file.c) or a pprof profile (session-pprof.c).
 * The core (session.c) knows only these operations.  Each source keeps
 * its state in s->src_state (struct live_src, struct session_file, ...);
 * the live source's fds and rings are fields of struct session, since the
 * core finds events by their fds' ids, and the recording sink asks for
 * the attrs through the ops below. */
/* What a source tells of a record before it is queued. */
struct rec_stamp {
	uint64_t time;
	bool timed;   /* false: H carries no time (delivered as it comes) */
	int ev;       /* a sample's event, the session's number; -1: H is no
		       * sample, or a sample of none of the session's events */
};

struct session_source {
	bool recorded;  /* a file: no /proc to re-read, no time budget for stacks */
	/* H's time and, for a sample, its event (struct rec_stamp): asked
	 * once a record, the time-ordered queue keeping the event with it. */
	void (*stamp)(const struct session *s, const struct perf_event_header *h,
		      struct rec_stamp *st);
	/* Decodes H, numbered EV by stamp, with the format of its event, into
	 * R: deliver's s->decoded, which holds the last record this op
	 * decoded there (file_decode writes only what changes), or another. */
	int (*decode)(const struct session *s, const struct perf_event_header *h, int ev,
		      struct record *r);
	/* For the samples of event EV if it copies user stacks: their sample
	 * type and attr.sample_stack_user, for the session to queue only the
	 * bytes the kernel copied (record_stack_kept).  False otherwise; NULL:
	 * never. */
	bool (*stack_attr)(const struct session *s, int ev, uint64_t *sample_type,
			   uint32_t *stack_user);
	/* What sample SMP of event EV weighs in the profile, its period
	 * PERIOD (its own; a counter's read: what it counted since the last). */
	uint64_t (*weigh)(struct session *s, int ev, const struct rec_sample *smp,
			  uint64_t period);
	/* The attr event EV was recorded or opened with. */
	const struct perf_event_attr *(*attr)(const struct session *s, int ev);
	/* The attr of the internal reference (multiplexing without the
	 * user's cycles event: engine/mux.h) and its name in *NAME, for a
	 * recording of the fds whose event is MUX_REFERENCE.  NULL: none. */
	const struct perf_event_attr *(*ref_attr)(const struct session *s, const char **name);
	/* The build id of the kernel this source's samples come from, into ID
	 * (at most MAX bytes): its length, 0 when unknown.  NULL: the running
	 * kernel (a live watch). */
	size_t (*kernel_build_id)(const struct session *s, uint8_t *id, size_t max);
	/* For a source without that build id (perf record -o -: a pipe
	 * carries none): whether it was recorded on the running kernel (this
	 * host, this kernel release); false with a line in WHY.  NULL: never. */
	bool (*recorded_here)(const struct session *s, char *why, size_t whysz);
	/* Prepares a new address space (NULL: nothing to do). */
	void (*space_init)(struct session *s, struct space *sp);
	/* Waits for and takes in new records; true when the source has ended. */
	bool (*poll)(struct session *s, int timeout_ms);
	/* Brings the profile's counts up to date before a snapshot (NULL: they
	 * are set as the records come). */
	void (*counts)(struct session *s);
	/* Adds what the source knows to a new snapshot (NULL: nothing). */
	void (*snapshot)(struct session *s, struct snapshot *snap);
	void (*close)(struct session *s);
};

/* Where records go besides the profile (cyctop record's file); its state
 * is s->sink_state. */
struct session_sink {
	void (*write)(struct session *s, const struct perf_event_header *h);
	void (*flush)(struct session *s);   /* once per poll */
	void (*abort)(struct session *s);   /* on close: keep what is consistent */
};

/* Where symbolized samples go besides the profile (--format pprof keeps
 * them per address and thread: session_keep_threads).  STATE is
 * s->tap_state. */
struct session_tap {
	/* Sample SMP of event EV, its IP named SI, weighing N. */
	void (*sample)(void *state, int ev, const struct rec_sample *smp,
		       const struct sym_info *si, uint64_t n);
	/* Its stack: addresses IPS (the sampled IP first) and their FRAMES. */
	void (*stack)(void *state, int ev, const struct rec_sample *smp, const uint64_t *ips,
		      const struct cg_frame *frames, size_t nframes, uint64_t n);
	void (*free)(void *state);
};

/* Module paths remembered by their strings' addresses (session.c,
 * canon_index): enough for the libraries of a few busy processes. */
#define CANON_HINTS 64

/* Processes whose spaces space_find finds without hashing: the samples of
 * two busy processes on two CPUs alternate (one remembered space missed at
 * nearly every sample of such a file), a few more share a machine. */
#define SPACE_HINTS 16
struct space_hint {
	pid_t pid;
	int k;   /* its index in spaces */
};

struct session {
	struct target target;
	struct ev_list events;
	struct pfm_host *pfm;        /* this host's libpfm4 and PMU: the events encode through it */
	struct profile *prof;
	int ncpus;
	struct mux_fd *fds;      /* sorted by id once all are open */
	int nfds;
	size_t capfds;
	struct ring *rings;      /* per CPU */
	struct pollfd *pfds;     /* per CPU, then wake_fd */
	int wake_fd;             /* session_wake_on: -1 none */
	struct space *spaces;
	int nspaces;
	size_t capspaces;
	struct hashtab space_index;  /* pid -> index into spaces */
	/* the spaces recent samples found, by pid (space_find): each an index
	 * checked against its space's pid, so spaces that move (GROW, an
	 * eviction) leave a hint that misses, never a wrong one */
	struct space_hint space_hints[SPACE_HINTS];
	struct sym_naming naming;   /* how the spaces' functions are named */
	struct func_images *images; /* the spaces' function tables: made with the first
				     * space, or lent by the opener (images_lent) */
	bool images_lent;
	const struct session_source *src;
	void *src_state;         /* the source's own (session-live.c, -file.c, -pprof.c) */
	const struct session_sink *sink;  /* NULL: none */
	void *sink_state;        /* the sink's own (session-record.c) */
	const struct session_tap *tap;    /* NULL: none */
	void *tap_state;
	struct ordered *queue;   /* records in time order (engine/ordered.h) */
	struct record decoded;   /* the record deliver hands on: only the source's
				  * decode writes it (record_decode_head) */
	double t0, last_snap;
	bool hup;
	bool system_wide;        /* -a / -C: pid -1 on each CPU of cpu_on */
	DIR *cgroup_dir;         /* while -a opens: --cgroup's directory, each CPU's
				  * events opened for it (PERF_FLAG_PID_CGROUP) */
	bool *cpu_on;            /* [ncpus]; NULL: every CPU */
	struct cgroup_ids cgroup_ids; /* PERF_SAMPLE_CGROUP's ids -> names */
	uint64_t last_expire;    /* live: when exited spaces were last freed */
	uint64_t reaped_lost;    /* live -a: lost records when spaces were last reaped */
	bool user_only;          /* the kernel may not be watched: exclude_kernel */
	int *slots_fds;          /* the slots fd of each (thread, CPU) being opened */
	struct ksymtab *ksyms;   /* kallsyms, loaded at the first kernel sample */
	bool ksyms_tried;
	struct asm_cache *asmc;  /* functions opened in the asm view */
	/* the profile's addresses of a file several processes map: each
	 * module's first-seen load bias, by path (session.c, canonical_ip) */
	struct strpool canon_mods;
	uint64_t *canon_base;    /* [canon_mods.n] */
	size_t canon_alloc;
	struct {                 /* a recent module string -> its number */
		const char *module;
		uint32_t k;
	} canon_hints[CANON_HINTS];
	/* multiplexing (engine/mux.h) */
	struct plan *plan;
	struct side_counters *side;  /* counted beside the events (engine/side.h) */
	/* call stacks (-g): NULL when not collected */
	struct rec_format fmt;   /* live samples' format (SAMPLE_TYPE + stacks) */
	struct callgraph *cg;
	int max_stack;           /* fp: the kernel's perf_event_max_stack */
	uint64_t cg_batch_ns;    /* stack CPU time spent in the current batch */
	uint64_t stacks_skipped; /* samples added without their stack (budget) */
	uint64_t cg_ns, cg_stacks; /* stack CPU time and stacks in total (cost) */
	/* off-CPU time (engine/offcpu-session.c): NULL without off-cpu */
	struct offcpu *offcpu;
	int offcpu_ev;           /* the off-cpu event, -1 none */
	uint64_t offcpu_waits;   /* its samples: one a wait, weighing its ns */
	int switch_ev;           /* the event with the switch records (perf's
				  * context-switches -g --switch-events: its
				  * samples count as perf counts them, and give
				  * the wall time's reasons), -1 none */
};


struct space *space_find(struct session *s, pid_t pid);
struct space *space_get(struct session *s, pid_t pid);
/* Live: frees the spaces of processes that exited a while ago. */
void session_spaces_expire(struct session *s);
void session_spaces_reap(struct session *s);
/* The CPUs that are online (/sys), into ONLINE; all when it cannot say. */
void session_cpus_online(bool *online, int ncpus);
/* A sample outside every known mapping: re-reads /proc/PID/maps,
 * rate-limited. */
void session_space_refresh(struct space *sp);
/* A FORK: the child starts with its parent's mappings. */
void session_fork_space(struct session *s, pid_t pid, pid_t ppid);
/* The spaces' functions named as HOW says (NULL: as perf report), their
 * tables kept in LENT (outliving S) or, NULL, in S's own (made with the
 * first space).  Before any space is made. */
void session_spaces_naming(struct session *s, const struct sym_naming *how,
			   struct func_images *lent);
/* Frees every space (session_close). */
void session_spaces_free(struct session *s);
/* Takes record HDR in: to the sink, then into the time-ordered queue. */
void session_collect(const struct perf_event_header *hdr, void *arg);
/* Queues a copy of HDR in time order as ST stamps it (no sink:
 * session_collect's second half). */
void session_queue(struct session *s, const struct perf_event_header *hdr,
		   const struct rec_stamp *st);
/* A round of records ended (every ring drained once, a FINISHED_ROUND):
 * what is safe to order is symbolized and added. */
void session_round_end(struct session *s);
/* Everything queued is symbolized and added (the end of the records). */
void session_flush_records(struct session *s);
/* At a file's or stream's end: says how many records came out of time order. */
void session_late_notice(struct session *s);
/* The event of sample id ID, or -1. */
int session_event_of(const struct session *s, uint64_t id);
/* An id of event EV without an fd (files); sort once all are added. */
int session_add_id(struct session *s, int ev, uint64_t id);
/* Adds F (an fd opened live) to the session's fds. */
int session_push_fd(struct session *s, const struct mux_fd *f);
void session_sort_ids(struct session *s);
/* Appends one clause to the session's one-line notice. */
void session_add_notice(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Reads the kernel's symbols once (a live watch that cannot says so). */
void session_load_kernel_names(struct session *s);
/* The kernel function at IP, or [unknown] in [kernel.kallsyms]. */
void session_kernel_symbol(struct session *s, uint64_t ip, struct sym_info *si);

/* A walk of the kernel's part of a sample's call chain (the entries after
 * a PERF_CONTEXT_KERNEL marker, up to the next marker), innermost first:
 * { .smp = SMP }, then kernel_chain_next until false (engine/session-stack.c). */
struct kernel_chain {
	const struct rec_sample *smp;
	uint64_t i;
	bool in_kernel;
};
bool kernel_chain_next(struct kernel_chain *k, uint64_t *ip);
/* The first line of file PATH without its newline ("" when unreadable). */
void session_read_line(const char *path, char *buf, size_t sz);
/* Names threads TIDS of process PID from /proc (older than the watch). */
void session_name_threads(struct session *s, pid_t pid, const pid_t *tids, int n);
/* The canonical load bias of MODULE's addresses in the profile; false when
 * its addresses are its process's own (session.c, canonical_ip). */
bool session_canonical_base(struct session *s, const char *module, uint64_t *base);
/* The stack of sample SMP (of event EV, weighing N, whose IP is LEAF) into
 * the call graph, within the batch's time budget in a live watch
 * (session-stack.c). */
void session_add_stack(struct session *s, struct space *sp, int ev,
		       const struct rec_sample *smp, const struct sym_info *leaf, uint64_t n);
/* A fresh session reading from SRC, with nothing open (NULL when out of
 * memory). */
struct session *session_alloc(const struct session_source *src);
/* Collects the call stacks its samples carry (MODE: enum call_graph_mode,
 * REGS_USER + STACK_USER samples are unwound, CALLCHAIN ones read) into
 * s->cg, for every event; needs s->events.  Returns 0, -1 when out of
 * memory.  Files call it when an attr carries stacks. */
int session_enable_callgraph(struct session *s, int mode);

/* Sample SMP of event EV weighing N as it is (no source's weigh), its IP
 * a user address; with its stack if STACK (engine/offcpu-session.c). */
void session_add_weighed(struct session *s, int ev, const struct rec_sample *smp, uint64_t n,
			 bool stack);
/* Off-CPU time (engine/offcpu-session.c): with an off-cpu event, its
 * state and the call chain in the live format; 0, -1 out of memory. */
int session_offcpu_setup(struct session *s);
/* Whether A, named NAME, is perf record --off-cpu's event (offcpu-time). */
bool session_offcpu_perf_event(const struct perf_event_attr *a, const char *name);
/* After the opens: a notice when the switch-out stacks are refused. */
void session_offcpu_opened(struct session *s);
/* Record R (H, of event EV) for the off-CPU time: true when it is the
 * off-cpu event's sample or a switch record, taken in there. */
bool session_offcpu_record(struct session *s, const struct perf_event_header *h, int ev,
			   const struct record *r);
/* The wall time so far, NULL without off-cpu (struct snap_wall). */
struct snap_wall *session_offcpu_snapshot(const struct session *s);
/* SNAP's off-cpu event as its samples weigh: a sample a wait, its count
 * the nanoseconds off the CPU (not the switches its counter counted). */
void session_offcpu_totals(const struct session *s, struct snapshot *snap);

#endif
