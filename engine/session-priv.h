/* The session's private parts, shared by its file family: session.c (live
 * watching), session-file.c (perf.data files opened with -i) and
 * session-record.c (perf.data files written by cyctop record). */
#ifndef ENGINE_SESSION_PRIV_H
#define ENGINE_SESSION_PRIV_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "arch/plan.h"
#include "engine/events.h"
#include "engine/mux.h"
#include "engine/profile.h"
#include "engine/record.h"
#include "engine/session.h"
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
};

struct recbuf {
	unsigned char *data;
	size_t len, cap;
};

struct session {
	struct target target;
	struct ev_list events;
	struct profile *prof;
	int ncpus;
	struct mux_fd *fds;      /* sorted by id once all are open */
	int nfds, capfds;
	struct ring *rings;      /* per CPU */
	struct pollfd *pfds;
	struct space *spaces;
	int nspaces, capspaces;
	int *space_index;        /* pid hash: index + 1 into spaces, 0 empty */
	size_t space_index_cap;  /* a power of two, at least twice nspaces */
	struct recbuf batch;
	double t0, last_snap;
	bool hup;
	size_t ring_pages;
	struct asm_cache *asmc;  /* functions opened in the asm view */
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
	struct perf_event_attr opened_attr[EVENTS_MAX]; /* as opened, for the file */
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

/* Where x86_64 kernel addresses begin (samples of files from perf record). */
#define KERNEL_START 0xffff800000000000ull

struct space *space_find(struct session *s, pid_t pid);
struct space *space_get(struct session *s, pid_t pid);
/* Symbolizes and adds the records gathered in s->batch (mapping and task
 * records first, then samples), then empties it. */
void session_process_batch(struct session *s);
/* Appends record HDR to s->batch. */
void session_collect(const struct perf_event_header *hdr, void *arg);
/* The event of sample id ID, or -1. */
int session_event_of(const struct session *s, uint64_t id);
/* An id of event EV without an fd (files); sort once all are added. */
int session_add_id(struct session *s, int ev, uint64_t id);
void session_sort_ids(struct session *s);
/* A fresh session with nothing open (NULL when out of memory). */
struct session *session_alloc(void);
/* Collects the call stacks its samples carry (MODE: enum call_graph_mode,
 * REGS_USER + STACK_USER samples are unwound, CALLCHAIN ones read) into
 * s->cg, for every event; needs s->events.  Returns 0, -1 when out of
 * memory.  Files call it when an attr carries stacks. */
int session_enable_callgraph(struct session *s, int mode);

/* session-file.c */
int session_file_decode(const struct session *s, const struct perf_event_header *h,
			struct record *r);
/* Accounts sample SMP of event EV; returns what it weighs in the profile. */
uint64_t session_file_sample(struct session *s, int ev, const struct rec_sample *smp);
void session_file_close(struct session *s);
/* A new address space of a file session finds binaries as the file says. */
void session_file_space(struct session *s, struct space *sp);
void session_file_snapshot(struct session *s, struct snapshot *snap);

/* session-record.c: every record the rings deliver is also written. */
int session_rec_start(struct session *s, const struct session_opts *o, char *err,
		      size_t errsz);
void session_rec_write(struct session *s, const struct perf_event_header *h);
void session_rec_flush(struct session *s);
void session_rec_abort(struct session *s);

#endif
