/* A flame graph's model: call paths merged by name into a tree (as
 * flamegraph.pl merges folded stacks) with every event's self and total
 * samples per frame, the metrics that colour frames, and the icicle's
 * layout in whole columns.  Pure: no curses, no I/O; the terminal view
 * (view-flame.c) and the SVG (flame-svg.c) draw what it computes, and
 * tests/unit/test-flame.c checks it. */
#ifndef TUI_FLAME_H
#define TUI_FLAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/hashtab.h"

struct tree_def;

#define FLAME_EVENTS_MAX 64
#define FLAME_ROOT_NAME "all"
/* Colour buckets of the scale (themes' flame0..flame5). */
#define FLAME_BUCKETS 6

struct flame_node {
	const char *name, *module;   /* interned in the flame's pool */
	int parent;                  /* -1 for the root */
	int first_child, next;       /* children sorted by total of event 0
				      * descending, then name; -1 ends */
	int depth;                   /* 0: the root "all" */
};

struct flame {
	int n_events;
	struct flame_node *nodes;    /* nodes[0] is the root "all" */
	size_t n, cap;
	uint64_t *counts;            /* 2 * n_events per node: self, total */
	size_t ccap;
	/* what one sample of each event stands for: its sample period (the
	 * events of a metric are counts, not samples), over the fraction of
	 * time it was counted; 1 until flame_set_scale */
	double scale[FLAME_EVENTS_MAX];
	/* the events' names (interned; NULL until flame_scale_from or
	 * flame_set_event): tree metrics read counts by name, a baseline's
	 * event is matched by name */
	const char *ev_name[FLAME_EVENTS_MAX];
	struct strpool names;        /* names and modules, interned */
	struct hashtab children;     /* (parent, interned name) -> node */
};

/* Samples of event EV in NODE alone (its paths end there) and in it and
 * below it. */
static inline uint64_t flame_self(const struct flame *f, int node, int ev)
{
	return f->counts[(size_t)node * 2 * (size_t)f->n_events + (size_t)ev];
}

static inline uint64_t flame_total(const struct flame *f, int node, int ev)
{
	return f->counts[(size_t)node * 2 * (size_t)f->n_events + (size_t)f->n_events +
			 (size_t)ev];
}

struct flame *flame_new(int n_events);
void flame_free(struct flame *f);
/* One call path, FRAMES root first (names and modules copied; a NULL name
 * is "[unknown]"), COUNTS[n_events] samples ending there.  0, -1 out of
 * memory. */
int flame_add_path(struct flame *f, const char *const *names, const char *const *modules,
		   size_t n, const uint64_t *counts);
/* After the last path: totals summed and children sorted. */
void flame_finish(struct flame *f);

struct cg_snapshot;
/* The flame graph of a call graph snapshot (the one place that reads it),
 * of the stacks of the processes of command PROCESS only where given (a
 * system-wide session zoomed on a process); NULL when out of memory. */
struct flame *flame_from_cg(const struct cg_snapshot *g, const char *process);

/* Event EV's samples stand for SCALE events each (its sample-after value,
 * or 1 where samples weigh their periods already, over its coverage). */
void flame_set_scale(struct flame *f, int ev, double scale);
/* Event EV's name (copied); -1 out of memory. */
int flame_set_event(struct flame *f, int ev, const char *name);
struct snapshot;
/* The scales and names of a snapshot's events (struct snap_event's sav,
 * coverage, name). */
void flame_scale_from(struct flame *f, const struct snapshot *s);

/* The child of node P named NAME, or -1. */
int flame_child(const struct flame *f, int p, const char *name);
/* Identity of a frame across rebuilds: its path of names from the root's
 * child down.  flame_path writes at most MAX names and returns the depth;
 * flame_find returns the node of the longest prefix of PATH that exists
 * (the root for none), and in *EXACT whether all of it did. */
int flame_path(const struct flame *f, int node, const char **out, int max);
int flame_find(const struct flame *f, const char *const *path, int n, bool *exact);
bool flame_is_ancestor(const struct flame *f, int anc, int node);

/* ---- metrics ---------------------------------------------------------- */

enum flame_metric_kind {
	FM_NONE,        /* coloured by name, as flamegraph.pl does */
	FM_PER_1000,    /* event a per 1000 of event b */
	FM_RATIO,       /* event a / event b: CPI, stall cycles over cycles */
	FM_TREE,        /* tree-node-fraction: a cycle-accounting tree node's
			 * share (%) of its tree's root, the tree evaluated on
			 * the frame's counts (each event's samples x scale) */
	FM_DELTA,       /* baseline-delta: event a's count in the frame minus
			 * the baseline's in the frame of the same path
			 * (grew > 0, shrank < 0) */
};

/* A baseline's flame graph for FM_DELTA: the value is
 * K_NOW * now - K_BASE * then, counts (samples x scale) of one event; 1
 * and 1 compare absolute counts; a baseline marked in a live watch
 * compares the rate since the mark, (now - then) / since, against the
 * rate until it, then / until: K_NOW = 1 / since, K_BASE = 1 / since +
 * 1 / until (tui/baseline.h). */
struct flame_base {
	const struct flame *fl;
	double k_now, k_base;
};

struct flame_metric {
	enum flame_metric_kind kind;
	int a, b;                   /* events; FM_DELTA: b is the baseline's */
	bool self;                  /* self samples, else total */
	const struct tree_def *tree;/* FM_TREE: the tree and its node */
	int tnode;
	struct flame_base base;     /* FM_DELTA */
	char name[160];
};

/* The metrics the events make possible (EVENTS[n] their names): "none",
 * then CPI (cycles / instructions) and stall cycles over cycles where both
 * are sampled, then each other event per 1000 of the first, then
 * "tree-node-fraction NODE / ROOT [TREE]" (a percentage) for every part of
 * a cycle-accounting tree the events give (its root measured in the same
 * unit: cycles, slots), then,
 * with a baseline BASE (may be NULL), "baseline-delta EVENT" for each
 * event the baseline has too; each total, then self.  Returns how many
 * were written (at most MAX). */
int flame_metrics(const char *const *events, int n, const struct flame_base *base,
		  struct flame_metric *out, int max);
/* The metric's value at NODE; NAN when the denominator has no samples
 * (FM_TREE: the node or its root not measured). */
double flame_value(const struct flame *f, int node, const struct flame_metric *m);
/* FM_DELTA: the bucket of a delta V on a scale of -MAX..MAX: 0..2 shrank
 * (0 the most), 3..5 grew (5 the most), -1 unchanged or NAN. */
int flame_delta_bucket(double v, double max);
/* A value's bucket 0..FLAME_BUCKETS-1 on the scale LO..HI (one bucket for
 * a value outside or NAN: -1). */
int flame_bucket(double v, double lo, double hi);
/* A name's bucket for FM_NONE: a stable hash, so a frame keeps its colour. */
int flame_name_bucket(const char *name);

/* ---- layout ----------------------------------------------------------- */

struct flame_box {
	int node;        /* -1: a stub of narrow frames merged */
	int parent_box;  /* -1 for the top row */
	int row;         /* 0: the top row (the root, or the zoom's first ancestor) */
	int x, w;        /* columns */
	int stub;        /* frames merged into the stub */
	uint64_t stub_samples;
	bool ancestor;   /* above the zoomed frame, drawn full width */
};

struct flame_layout {
	struct flame_box *box;
	size_t n, cap;
	int rows;
	uint64_t zoom_total;
};

/* Lays out the subtree of ZOOM (full width W) under its ancestors, to at
 * most MAX_ROWS rows; a frame narrower than MIN_W columns ends its
 * siblings (they are sorted by samples): it and the ones after it become
 * one stub box "+N" when the stub is at least one column wide.  Widths
 * are proportional to event 0's total: a box spans floor(start * W / T)
 * to floor(end * W / T).  0, -1 out of memory. */
int flame_layout(const struct flame *f, int zoom, int w, int min_w, int max_rows,
		 struct flame_layout *out);
void flame_layout_free(struct flame_layout *l);
/* The box of NODE, or -1. */
int flame_box_of(const struct flame_layout *l, int node);

#endif
