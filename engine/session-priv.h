/* The session's private parts, shared by its file family: session.c (live
 * watching), session-file.c (perf.data files opened with -i) and
 * session-record.c (perf.data files written by cyctop record). */
#ifndef ENGINE_SESSION_PRIV_H
#define ENGINE_SESSION_PRIV_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "arch/hashtab.h"
#include "arch/plan.h"
#include "engine/events.h"
#include "engine/mux.h"
#include "engine/profile.h"
#include "engine/record.h"
#include "engine/session.h"
#include "engine/side.h"
#include "engine/symbols.h"
#include "engine/target.h"

#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		     PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)
#define MAX_TIDS 4096
#define MAP_REFRESH_NS 200000000ull

struct space {
	pid_t pid;
	struct symtab *st;
	uint64_t last_refresh;
	struct unwinder *uw;     /* -g dwarf: made on the first stack; NULL */
	bool exited;             /* its process exited: freed when spaces run short */
	uint64_t exit_ns;        /* live: when its EXIT was read (now_ns) */
};

/* Where a session's records come from: the live rings (session.c) or a
 * perf.data file (session-file.c).  The core (session.c) knows only these
 * operations; the file and recording modules plug into it. */
struct session_source {
	bool recorded;  /* a file: no /proc to re-read, no time budget for stacks */
	/* Decodes H with the format of the event it belongs to. */
	int (*decode)(const struct session *s, const struct perf_event_header *h,
		      struct record *r);
	/* The record's timestamp; false when it carries none. */
	bool (*time)(const struct session *s, const struct perf_event_header *h, uint64_t *t);
	/* What sample SMP of event EV weighs in the profile. */
	uint64_t (*weigh)(struct session *s, int ev, const struct rec_sample *smp);
	/* The attr event EV was recorded or opened with. */
	const struct perf_event_attr *(*attr)(const struct session *s, int ev);
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

/* Where records go besides the profile (cyctop record's file). */
struct session_sink {
	void (*write)(struct session *s, const struct perf_event_header *h);
	void (*flush)(struct session *s);   /* once per poll */
	void (*abort)(struct session *s);   /* on close: keep what is consistent */
};

struct session {
	struct target target;
	struct ev_list events;
	struct profile *prof;
	int ncpus;
	struct mux_fd *fds;      /* sorted by id once all are open */
	int nfds;
	size_t capfds;
	struct ring *rings;      /* per CPU */
	struct pollfd *pfds;
	struct space *spaces;
	int nspaces;
	size_t capspaces;
	struct hashtab space_index;  /* pid -> index into spaces */
	const struct session_source *src;
	const struct session_sink *sink;  /* NULL: none */
	struct ordered *queue;   /* records in time order (engine/ordered.h) */
	double t0, last_snap;
	bool hup;
	bool system_wide;        /* -a / -C: pid -1 on each CPU of cpu_on */
	bool *cpu_on;            /* [ncpus]; NULL: every CPU */
	uint64_t last_expire;    /* live: when exited spaces were last freed */
	bool user_only;          /* the kernel may not be watched: exclude_kernel */
	bool topdown;            /* metric events: slots and they count in kernel groups */
	int *slots_fds;          /* the slots fd of each (thread, CPU) being opened */
	struct ksymtab *ksyms;   /* kallsyms, loaded at the first kernel sample */
	bool ksyms_tried;
	size_t ring_pages;
	struct asm_cache *asmc;  /* functions opened in the asm view */
	/* the profile's addresses of a file several processes map: each
	 * module's first-seen load bias, by path (session.c, canonical_ip) */
	struct strpool canon_mods;
	uint64_t *canon_base;    /* [canon_mods.n] */
	size_t canon_alloc;
	/* multiplexing (engine/mux.h) */
	struct plan *plan;
	int group[EVENTS_MAX];   /* plan group of each event, or SNAP_EVERY_GROUP */
	bool opened[EVENTS_MAX]; /* runs mode opens one group's events only */
	bool with_ref;           /* the reference counts all the time */
	int ref_ev;              /* the user's reference event, or MUX_REFERENCE */
	struct ev_spec ref_spec; /* the internal reference (counting only) */
	struct mux mux;
	struct session_file *file;   /* opened from a perf.data file (session-file.c) */
	struct session_rec *rec;     /* writing a perf.data file (session-record.c) */
	struct session_pprof_src *pprof; /* opened from a pprof profile (session-pprof.c) */
	struct pprof_acc *pacc;  /* --format pprof: samples per address and thread */
	struct perf_event_attr opened_attr[EVENTS_MAX]; /* as opened, for the file */
	struct side_counters *side;  /* counted beside the events (engine/side.h) */
	struct perf_event_attr ref_attr;  /* the internal reference's, likewise */
	/* call stacks (-g): NULL when not collected */
	struct rec_format fmt;   /* live samples' format (SAMPLE_TYPE + stacks) */
	int call_graph;          /* live: enum call_graph_mode of the attrs */
	uint32_t stack_size;     /* live dwarf: attr.sample_stack_user */
	struct callgraph *cg;
	int max_stack;           /* fp: the kernel's perf_event_max_stack */
	uint64_t cg_batch_ns;    /* stack time spent in the current batch */
	uint64_t stacks_skipped; /* samples added without their stack (budget) */
	uint64_t cg_ns, cg_stacks; /* stack time and stacks in total (cost) */
};


struct space *space_find(struct session *s, pid_t pid);
struct space *space_get(struct session *s, pid_t pid);
/* Takes record HDR in: to the sink, then into the time-ordered queue. */
void session_collect(const struct perf_event_header *hdr, void *arg);
/* A round of records ended (every ring drained once, a FINISHED_ROUND):
 * what is safe to order is symbolized and added. */
void session_round_end(struct session *s);
/* Everything queued is symbolized and added (the end of the records). */
void session_flush_records(struct session *s);
/* The event of sample id ID, or -1. */
int session_event_of(const struct session *s, uint64_t id);
/* An id of event EV without an fd (files); sort once all are added. */
int session_add_id(struct session *s, int ev, uint64_t id);
void session_sort_ids(struct session *s);
/* A fresh session reading from SRC, with nothing open (NULL when out of
 * memory). */
struct session *session_alloc(const struct session_source *src);
/* Collects the call stacks its samples carry (MODE: enum call_graph_mode,
 * REGS_USER + STACK_USER samples are unwound, CALLCHAIN ones read) into
 * s->cg, for every event; needs s->events.  Returns 0, -1 when out of
 * memory.  Files call it when an attr carries stacks. */
int session_enable_callgraph(struct session *s, int mode);

#endif
