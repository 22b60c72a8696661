/* The call graph: sampled call stacks aggregated in a path trie, per event.
 * Consumers see immutable snapshots: per-function self and total ("children"
 * in perf top's words) samples, direct caller and callee edges, the caller
 * tree of a function, and folded stacks for flame graphs.
 *
 * A function is a (name, module) pair compared by string equality; the
 * strings are copied in, once: snapshots share them.  Memory is bounded by a cap on trie nodes (distinct
 * call paths): a sample whose path would need a node past the cap is counted
 * under the function CG_OVERFLOW_NAME at the root instead, and in
 * cg_overflow(), so no sample is ever dropped silently. */
#ifndef ENGINE_CALLGRAPH_H
#define ENGINE_CALLGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CG_EVENTS_MAX 64
#define CG_UNKNOWN "[unknown]"
#define CG_OVERFLOW_NAME "[truncated: too many paths]"
/* The module of a frame that names a process (its command), not a
 * function: the outermost frame of a system-wide session's stacks.  It
 * heads the folded lines, as the command heads perf script |
 * stackcollapse-perf.pl's, and is nobody's caller: callers, callees,
 * caller trees and cg_foreach_path's paths leave it out. */
#define CG_PROCESS_MODULE "[process]"
#define CG_OVERFLOW_MODULE "[cyctop]"
/* The default node cap: this many nodes, or fewer so that the trie's nodes,
 * counts and index stay within CG_BYTES_MAX (many events). */
#define CG_NODES_MAX_DEFAULT 1000000
#define CG_BYTES_MAX (64u << 20)

struct cg_frame {
	const char *name;        /* NULL: CG_UNKNOWN */
	const char *module;      /* NULL: CG_UNKNOWN */
};

struct callgraph;
struct cg_snapshot;

/* A call graph for N_EVENTS events (1..CG_EVENTS_MAX); NULL on a bad count
 * or out of memory. */
struct callgraph *callgraph_new(int n_events);
void callgraph_free(struct callgraph *cg);
/* At most MAX trie nodes (distinct paths, root excluded) from now on;
 * nodes already there stay. */
void callgraph_set_max_nodes(struct callgraph *cg, size_t max);

/* One sample of event EV with WEIGHT: FRAMES leaf first (frames[0] is the
 * sampled function), N >= 1 of them.  TRUNCATED: the stack ended early (the
 * unwinder gave up); it is counted in cg_truncated() and the path recorded
 * as far as it goes.  Returns 0; -1 on bad arguments (nothing counted) or
 * when out of memory (the sample is then counted as an overflow). */
int callgraph_add(struct callgraph *cg, int ev, const struct cg_frame *frames, size_t n,
		  bool truncated, uint64_t weight);

/* An immutable snapshot with everything below precomputed: O(nodes x
 * events) plus sorting the edges.  It shares the graph's functions and
 * call paths, which never change once added, and copies only the counts;
 * it stays valid while the graph takes more samples and after the graph is
 * freed.  NULL when out of memory.  Queries on one snapshot may run in
 * several threads at once, also while the graph's owner adds samples. */
struct cg_snapshot *callgraph_snapshot(const struct callgraph *cg);
void cg_snapshot_free(struct cg_snapshot *s);

int cg_n_events(const struct cg_snapshot *s);
/* Samples of EV with a stack (overflows included), those whose stack was
 * truncated, and those counted as CG_OVERFLOW_NAME past the node cap. */
uint64_t cg_samples(const struct cg_snapshot *s, int ev);
uint64_t cg_truncated(const struct cg_snapshot *s, int ev);
uint64_t cg_overflow(const struct cg_snapshot *s, int ev);
/* Stacks of EV collected, and those truncated, one each whatever its sample
 * weighs (a frequency-mode file's samples weigh their periods). */
uint64_t cg_stacks(const struct cg_snapshot *s, int ev);
uint64_t cg_stacks_truncated(const struct cg_snapshot *s, int ev);
/* Trie nodes (distinct call paths) held, and distinct functions. */
size_t cg_nodes(const struct cg_snapshot *s);
size_t cg_functions(const struct cg_snapshot *s);

/* Function I (0 <= I < cg_functions(S)), in no particular order: its name
 * and module, pointing into the snapshot. */
void cg_function_at(const struct cg_snapshot *s, size_t i, const char **name,
		    const char **module);

/* Self (the function is frames[0]) and total (the stack contains it, once per
 * sample however often it recurses) samples of EV.  False, with zeros, when
 * the function was never seen.  SELF and TOTAL may be NULL. */
bool cg_function(const struct cg_snapshot *s, const char *name, const char *module, int ev,
		 uint64_t *self, uint64_t *total);

struct cg_edge {
	const char *name, *module;   /* the caller (cg_callers) or the callee */
	uint64_t samples;            /* samples of EV with the pair adjacent, once each */
};

/* The direct callers (callees) of a function: edges with samples of EV,
 * sorted by samples descending, then name, then module.  Returns their
 * count; *OUT points into the snapshot (NULL when there are none).  A
 * caller's share is samples / the function's total. */
size_t cg_callers(const struct cg_snapshot *s, const char *name, const char *module, int ev,
		  const struct cg_edge **out);
size_t cg_callees(const struct cg_snapshot *s, const char *name, const char *module, int ev,
		  const struct cg_edge **out);

/* One row of a caller tree. */
struct cg_row {
	int depth;                   /* 0: the function itself; d: d frames above it */
	const char *name, *module;   /* point into the snapshot */
	uint64_t samples;
	bool more;                   /* it has callers (rows at depth + 1, or past max_depth) */
};

/* The caller tree of a function for EV (perf report -G, inverted): row 0 is
 * the function with its total samples; a row's children are the functions
 * that called it on those samples' stacks, counted from the function's
 * innermost frame (the one nearest the leaf) toward the root.  Rows go
 * depth first, each level sorted by samples descending, then name, then
 * module; depth at most MAX_DEPTH.  At most MAX_ROWS rows are written to
 * ROWS; returns how many rows the tree has (like snprintf), 0 when the
 * function has no samples of EV or memory ran out.  A view folds a row by
 * skipping the deeper rows that follow it. */
size_t cg_caller_tree(const struct cg_snapshot *s, const char *name, const char *module, int ev,
		      int max_depth, struct cg_row *rows, size_t max_rows);

/* Folded stacks for flame graphs: "root;...;leaf COUNT\n" per distinct path
 * of names (modules dropped, CG_UNKNOWN kept, paths equal by name merged)
 * with samples of EV, sorted bytewise.  A ';' in a name is written as ':'
 * and control characters as '?', so the lines stay parseable.  Returns 0,
 * or -1 on a write error or out of memory. */
int cg_write_folded(const struct cg_snapshot *s, int ev, FILE *out);
/* The same with each line's count over DIV, rounded, lines of 0 left out
 * (off-cpu's nanoseconds as microseconds). */
int cg_write_folded_div(const struct cg_snapshot *s, int ev, uint64_t div, FILE *out);

/* Calls FN for every distinct call path with samples: FRAMES leaf first
 * (N of them, pointing into the snapshot) and COUNTS, the samples of each
 * event ending there ([n_events]).  Stops at and returns FN's first
 * non-zero return; -1 when out of memory; else 0. */
typedef int (*cg_path_fn)(void *arg, const struct cg_frame *frames, size_t n,
			  const uint64_t *counts);
int cg_foreach_path(const struct cg_snapshot *s, cg_path_fn fn, void *arg);
/* The same, of the paths under the process frame named PROCESS only (a
 * system-wide session's command; every path when NULL). */
int cg_foreach_path_of(const struct cg_snapshot *s, const char *process, cg_path_fn fn,
		       void *arg);

#endif
