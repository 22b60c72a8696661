/* The profile's tables, shared by the files that keep them (engine/profile.h
 * is the contract):
 *   profile.c           the tables as samples arrive: function rows and
 *                       their hints, address rows, per-thread and
 *                       per-process rows and cells, the session's totals
 *   profile-tasks.c     threads and processes: names, forks, exits, zooms
 *   profile-snapshot.c  the immutable copies for the tui: sorting, module
 *                       totals, zoomed tables, per-address counts
 * Nothing outside these three includes this header. */
#ifndef ENGINE_PROFILE_PRIV_H
#define ENGINE_PROFILE_PRIV_H

#include "engine/profile.h"

#include "lib/hashtab.h"

struct func_row {
	const char *name, *module;   /* interned */
	/* system-wide: the process with the most samples of the first event here
	 * (found at each snapshot), and how many processes have any */
	uint64_t top_n;
	uint32_t top_pid, nprocs;
	uint64_t n[];               /* samples[n_events], then window[n_events]: sized
				     * by the session's events, not EVENTS_MAX */
};

struct ip_row {
	uint64_t ip;
	const struct func_row *fn;
	uint64_t n[];               /* what the samples weigh[n_events], then how many
				     * samples[n_events] (a sample weighing its period
				     * counts once: perf annotate's "N samples") */
};

/* A thread's (or, in the process table, a process's) samples.  Its window
 * restarts lazily (see window_of). */
struct thread_row {
	uint32_t tid;               /* the process table: the pid */
	uint32_t epoch;
	bool ended;
	char comm[PROFILE_COMM_MAX];
	char user[PROFILE_USER_MAX]; /* processes: the owner's name, "" unknown */
	char cgroup[CGROUP_NAME_MAX]; /* processes: its cgroup's name, "" unknown */
	uint32_t pid;               /* threads: the process of its latest sample */
	uint64_t n[];               /* samples[n_events], then window[n_events] */
};

/* Threads and processes, in the order they came, found by id through
 * INDEX; past MAX rows every new id lands in the one shared OTHER row. */
struct row_table {
	struct thread_row **v;
	size_t n, alloc, max;
	struct hashtab index;        /* id -> v */
	struct thread_row *other;
	const char *other_name;
};

/* The samples of one function in one thread (or one process: PROC_KEY):
 * what a zoom shows. */
struct cell {
	struct func_row *fn;
	uint64_t key;
	uint32_t epoch;
	uint64_t n[];               /* samples[n_events], then window[n_events] */
};
#define PROC_KEY(pid) ((1ull << 32) | (uint64_t)(pid))

/* A recent (name, module) -> row lookup (row_get): the caller's string
 * addresses, valid until profile_symbols_freed. */
struct row_hint {
	const char *name, *module;   /* the caller's pointers */
	struct func_row *row;
};
#define ROW_HINTS 512

/* The rows a thread's last sample found, by its tid's slot: a loop's
 * samples repeat its address and function (29% of a busy mix's), and
 * its thread's and process's rows and cells always.  Every pointer is a
 * lookup's result kept (rows live as long as the profile); NAME and
 * MODULE are the caller's, as the hints' (emptied with them by
 * profile_symbols_freed).  THREAD NULL: the slot is empty. */
struct tid_memo {
	uint32_t tid, pid;
	struct thread_row *thread, *proc;
	struct cell *cell, *pcell;
	uint64_t ip;
	const char *name, *module;
	struct func_row *row;         /* NULL: the address's rows not known */
	struct ip_row *ip_row;
};
#define TID_MEMOS 64

/* A recent (address, name, module) -> rows lookup: a sample's address
 * found without hashing its function's strings nor the address; the
 * caller's pointers, as the hints'.  ROW NULL: the slot is empty. */
struct ip_hint {
	uint64_t ip;
	const char *name, *module;
	struct func_row *row;
	struct ip_row *ip_row;
};
#define IP_HINTS 512

/* The profile's interned strings (function names, module paths), shared
 * with the snapshots whose rows point into them: freed with the last of
 * them (a snapshot outlives its session in runs mode, engine/runs.c, and
 * while the tui shows it).  Strings are only added, never changed, and
 * keep their address (lib/hashtab.h): a snapshot's stay as they were. */
struct profile_names {
	struct strpool pool;
	unsigned refs;
};

struct profile {
	int n_events;
	struct snap_event ev[EVENTS_MAX];
	struct profile_names *names;
	/* The tables hold pointers, in the order the records came (what the
	 * loops over them visit), and an index each: a record keeps its
	 * address for the profile's life (the hints, the cells and the last_*
	 * shortcuts point at them). */
	struct func_row **rows;
	size_t n, rows_alloc;
	struct hashtab row_index;    /* (name, module) pointers -> rows */
	struct ip_row **ips;
	size_t nips, ips_alloc;
	struct hashtab ip_index;     /* (function, address) -> ips */
	size_t max_ips;              /* 0: no bound */
	struct row_hint hints[ROW_HINTS];
	struct row_table threads;
	struct row_table procs;      /* filled only when by_process */
	bool by_process;             /* system-wide: rows per process too */
	struct cell **cells;
	size_t ncells, cells_alloc, max_cells;
	struct hashtab cell_index;   /* (function, key) -> cells */
	/* each thread's last sample (samples of two busy threads interleave:
	 * one memo for all missed at nearly every sample) */
	struct tid_memo memo[TID_MEMOS];
	struct ip_hint ip_hints[IP_HINTS];
	uint32_t epoch;              /* snapshots taken: older windows are empty */
	uint32_t filter;             /* the thread snapshots show; 0: all */
	int64_t pfilter;             /* the process snapshots show; -1: all */
	uint64_t lost, throttled, undecodable;
	int n_groups, slice_ms;      /* the plan (profile_set_plan) */
	char reference[EVENT_NAME_MAX];
	double reference_count;
};

/* A zoomed table's one row for the functions its thread (process) has
 * past max_cells (cell_get). */
#define OTHER_FUNCS "[other functions]"
#define OTHER_FUNCS_MODULE "[per-thread table full]"

/* A reference on N (NULL passes through), and its release: the last frees
 * the strings. */
struct profile_names *profile_names_ref(struct profile_names *n);
void profile_names_unref(struct profile_names *n);
/* The row of NAME in MODULE, NULL when there is none (nothing is
 * interned: strings never seen cannot name a row). */
struct func_row *profile_row_find(const struct profile *p, const char *name,
				  const char *module);
/* Row ID of TAB (PROFILE_TID_OTHER: the shared row), or NULL. */
struct thread_row *profile_table_find(const struct row_table *tab, uint32_t id);
/* Row ID of TAB, made if new (past TAB's max: the shared row); NULL when
 * out of memory. */
struct thread_row *profile_table_get(const struct profile *p, struct row_table *tab,
				     uint32_t id);

#endif
