/* A session: the target, its events, where the records come from (a live
 * watch, a perf.data or pprof file), the profile they make. */
#ifndef ENGINE_SESSION_H
#define ENGINE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/events.h"
#include "engine/profile.h"
#include "engine/symbols.h"
#include "engine/target.h"

struct session;

struct session_opts {
	char *const *argv;     /* launch this command ... */
	pid_t pid;             /* ... or attach to this process */
	const char *events;    /* -e list; NULL: "cycles" (cpu-clock without a PMU) */
	size_t ring_pages;     /* data pages per CPU ring (a power of two); 0: 64 */
	int max_counters;      /* --counters: the planner's cap; 0: the model's inventory */
	unsigned slice_ms;     /* --mux-slice: time-slice length; 0: MUX_SLICE_MS_DEFAULT */
	const char *record;    /* cyctop record: write every record to this perf.data */
	char *const *cmdline;  /* the command line recorded in it */
	/* Plugs in where records go besides the profile, once every fd is open
	 * and before the target starts (session_record_start for `record`);
	 * NULL: nowhere.  Returns 0, or -1 with one line in ERR. */
	int (*start_sink)(struct session *s, const struct session_opts *o, char *err,
			  size_t errsz);
	bool one_group;        /* runs mode: open only plan group GROUP (and the
				* reference), exact counts, nothing rotated */
	int group;
	int call_graph;        /* -g, --call-graph: enum call_graph_mode */
	uint32_t stack_size;   /* dwarf: user stack bytes copied per sample, a
				* multiple of 8, <= CALL_GRAPH_STACK_MAX; 0: default */
	struct target_io child_io; /* where a launched command's output goes */
	bool all_cpus;         /* -a: every process on every CPU (no argv, no pid) */
	const char *cpus;      /* -C LIST: these CPUs only ("0,2-3"; implies all_cpus) */
	const char *cgroup;    /* the processes of this cgroup v2 directory only, on
				* every CPU (perf -G: PERF_FLAG_PID_CGROUP) */
	struct sym_naming naming; /* --no-demangle, --demangle-params */
};

/* Parses a CPU list ("0-3,6") into ON[0..NCPUS-1].  Returns 0, or -1 with
 * one line in ERR naming the part that is wrong or names no CPU here. */
int session_parse_cpu_list(const char *list, bool *on, int ncpus, char *err, size_t errsz);

/* Call stacks of samples (engine/callgraph.h, snapshot->cg). */
enum call_graph_mode {
	CALL_GRAPH_NONE = 0,
	CALL_GRAPH_DWARF,      /* user registers + a copy of the user stack, unwound
				* here with the binaries' .eh_frame (engine/unwind.h) */
	CALL_GRAPH_FP,         /* the kernel walks frame pointers (PERF_SAMPLE_CALLCHAIN):
				* cheap, but wrong without frame pointers */
};
/* 8 KB holds the stacks of most programs' hot paths (perf's default is
 * 8192 too); each sample then carries about 8.3 KB. */
#define CALL_GRAPH_STACK_DEFAULT 8192u
/* The kernel's cap: the whole record must fit its u16 size. */
#define CALL_GRAPH_STACK_MAX 65528u
/* Parses perf's --call-graph syntax: "dwarf", "dwarf,SIZE" (stack bytes) or
 * "fp" into O's call_graph and stack_size.  Returns 0, or -1 with one line
 * in ERR. */
int session_parse_call_graph(const char *spec, struct session_opts *o, char *err,
			     size_t errsz);


/* Opens everything and starts the target.  NULL with one line in ERR. */
struct session *session_open(const struct session_opts *o, char *err, size_t errsz);
/* A recorded session: a perf.data file read whole, with binaries found
 * under SYMFS or by build id, and raw events named through MODEL (NULL: the
 * file's, else the host's).  NULL with one line in ERR (the file and the
 * offset of what is wrong). */
struct session_file_opts {
	const char *path;
	const char *symfs;
	const char *model;
	bool keep_threads;     /* session_keep_threads before the file is read */
	bool processes;        /* -a: rows per process (a system-wide recording) */
	struct sym_naming naming; /* --no-demangle, --demangle-params */
	/* The function tables of the binaries, shared with other sessions
	 * (cyctop diff's runs: each reads libc's once) and outliving them,
	 * named as they were made (naming unused); NULL: the session's own. */
	struct func_images *images;
};
struct session *session_open_file(const struct session_file_opts *o, char *err, size_t errsz);
/* --format pprof: from now on every sample's address is also kept per
 * process and thread (engine/pprof.h), for the profile's labels.  Returns
 * 0, -1 when out of memory. */
int session_keep_threads(struct session *s);
/* Whether PATH begins like a perf.data file (so -i takes it as a session,
 * not as a counts file). */
bool session_is_perfdata(const char *path);
/* Whether S watches (or was opened as) every process: -a. */
bool session_is_system_wide(const struct session *s);
/* How S names functions (--no-demangle, --demangle-params). */
const struct sym_naming *session_naming(const struct session *s);
/* Whether S was read from a file (it never ends: it has ended already). */
bool session_is_recorded(const struct session *s);
/* cyctop record: writes every record into O->record (a perf.data file):
 * the session_opts start_sink of a recording. */
int session_record_start(struct session *s, const struct session_opts *o, char *err,
			 size_t errsz);
/* cyctop record: finishes the file (attrs, build ids, metadata).  Returns
 * 0, or -1 with one line in ERR.  session_close without it keeps what was
 * written as far as it is consistent. */
int session_record_finish(struct session *s, char *err, size_t errsz);
/* Whether writing the file failed (the watch may stop: nothing more is kept). */
bool session_record_failed(const struct session *s);
/* Records written and lost so far. */
void session_record_stats(const struct session *s, uint64_t *records, uint64_t *bytes);

/* Waits up to TIMEOUT_MS for data, then processes what the rings hold.
 * Returns true once the target has ended and the rings are drained. */
bool session_poll(struct session *s, int timeout_ms);
/* session_poll's wait also ends when FD (the terminal the view reads keys
 * from) is readable, so a view can wait for data and keys at once; -1:
 * no such fd. */
void session_wake_on(struct session *s, int fd);
/* An immutable snapshot; the live window restarts. */
struct snapshot *session_snapshot(struct session *s);
const struct ev_list *session_events(const struct session *s);
/* The number of groups the planner made of the session's events. */
int session_groups(const struct session *s);
/* Snapshots taken from now on show the functions of thread TID only
 * (a tid of the snapshot's threads, PROFILE_TID_OTHER included); 0: of
 * every thread. */
void session_set_thread_filter(struct session *s, uint32_t tid);
/* System-wide: snapshots taken from now on show the functions of process
 * PID only; -1: of every process. */
void session_set_process_filter(struct session *s, int64_t pid);
struct asm_func;
/* Per-address samples of function FN (from session_asm), at FN's
 * addresses: every process's samples of the file it lies in (an immutable
 * copy; free()). */
struct ip_counts *session_ip_counts(struct session *s, const struct asm_func *fn);
/* The instructions of function NAME in MODULE (decoded once, cached until
 * session_close).  NULL with a reason in ERR. */
const struct asm_func *session_asm(struct session *s, const char *name, const char *module,
				   char *err, size_t errsz);
/* The function at ADDR in the address space of FROM (a call's callee). */
const struct asm_func *session_asm_at(struct session *s, const struct asm_func *from,
				      uint64_t addr, char *err, size_t errsz);

/* For the writers (engine/pprof-write.c, session-record.c): what they read
 * of a session, without its private parts. */
struct pprof_acc;
struct symtab;
struct symtab_map;
/* The samples by address and thread session_keep_threads asked for; NULL
 * when not asked. */
const struct pprof_acc *session_pprof_acc(const struct session *s);
/* cyctop serve: the samples kept since session_keep_threads or the last
 * call, handed over (pprof_acc_free them); an empty store goes on.  NULL
 * when none are kept or out of memory. */
struct pprof_acc *session_pprof_take(struct session *s);
const struct profile *session_profile(const struct session *s);
/* Calls FN for every module with a build id that the session's processes
 * map (a symtab_build_id_fn, engine/symbols.h). */
void session_foreach_build_id(struct session *s,
			      void (*fn)(void *arg, const char *path, const uint8_t *id,
					 size_t len),
			      void *arg);
/* The symtab of a process whose mapping of ADDR (into *M) is MODULE: the
 * target's first; NULL if none. */
struct symtab *session_symtab_mapping(struct session *s, uint64_t addr, const char *module,
				      struct symtab_map *m);
/* Stops watching: a launched command is terminated, an attached process left
 * running; everything is closed. */
void session_close(struct session *s);

#endif
