/* cyctop diff's parts (tui/cmd-diff.c the command and its inputs,
 * tui/diff-print.c the text, csv and json of sessions, tui/diff-tree.c
 * counts files on a metric tree): what they share.  Private to them. */
#ifndef TUI_DIFF_CMD_H
#define TUI_DIFF_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/hashtab.h"
#include "arch/tree.h"
#include "engine/diff.h"
#include "engine/session.h"
#include "tui/format.h"

/* --pair-module OLD=NEW: the base's module OLD is the new's NEW (basenames) */
#define DIFF_PAIRS_MAX 16
struct diff_pair {
	const char *old, *new_;
};

/* --compare: what the rows compare (auto: counts of whole runs, rates of
 * time windows) */
enum diff_compare { DIFF_CMP_AUTO, DIFF_CMP_COUNTS, DIFF_CMP_RATES };

struct diff_opts {
	bool runs;                  /* -b: several runs a side, "--" between */
	bool lines;                 /* -l: source lines of the top functions */
	enum out_format format;
	struct session_file_opts in;  /* --symfs, --model */
	const char *sort;           /* --sort EVENT */
	enum arch_tree tree;        /* -A */
	const struct arch_model *model;  /* --tree-model */
	const char *penalties;
	double clock_hz;
	char **base, **new_;
	int nb, nn;
	int compare;                /* enum diff_compare */
	struct diff_pair pairs[DIFF_PAIRS_MAX];
	char *pair_mem[DIFF_PAIRS_MAX];  /* the OLD names' copies */
	int n_pairs;
};

/* One input file read as a session: its snapshot and its rows. */
struct run_in {
	const char *path;
	struct session *s;
	struct snapshot *snap;
	int ev[EVENTS_MAX];         /* the compared event e is this run's ev[e] */
	double period[EVENTS_MAX];  /* mean period of a sample of compared event e */
	uint64_t nsamples[EVENTS_MAX]; /* samples of compared event e (0: not known) */
	double total[EVENTS_MAX];   /* count (or rate) of compared event e */
	struct diff_obs *funcs, *mods, *threads, *all;
	size_t nf, nm, nt;
	bool base;                  /* a run of the base side */
	const char *main_module;    /* the launched executable's basename, or NULL */
	char main_buf[256];
	bool whole;                 /* the target's whole run: it ended in the recording */
	double seconds;             /* the watch's length (wall clock) */
	double per;                 /* rates: what a count is divided by (CPU
				     * seconds, else seconds); counts: 1 */
};

struct side {
	const char *label;          /* "base", "new" */
	char **paths;
	int n;
	struct run_in *runs;
};

struct diff_ctx {
	const struct diff_opts *o;
	struct side base, new_;
	int n_events;
	char names[EVENTS_MAX][EVENT_NAME_MAX];  /* the compared events */
	int sort_ev;
	struct diff_table funcs, mods, threads, total;
	/* -l: the source lines of funcs.rows[0 .. n_lines - 1] */
	size_t n_lines;
	struct diff_table *lines;
	struct strpool pool;        /* the lines' "file:line" names */
	bool rates;                 /* rows compare rates (time windows), not counts */
	int per_ev;                 /* rates: the compared event of CPU time that
				     * divides (ns), -1: the seconds of the watch */
	const char *main_key;       /* the launched executable's key on both sides */
};

/* The base's name of module KEY (a pairing's OLD), else KEY. */
const char *diff_base_module(const struct diff_ctx *d, const char *key);

/* -l: the functions given source lines, the first rows by |delta| (each
 * needs its code decoded in every run) */
#define LINES_TOP 20

/* Every node of one tree evaluated on each run's counts, compared. */
struct tree_diff {
	const struct tree_def *def;
	enum diff_method method;
	bool interval;              /* false: one file a side, no noise known */
	struct diff_stat st[TREE_MAX_NODES];
	bool measured[TREE_MAX_NODES];
	bool additive[TREE_MAX_NODES]; /* its parts' deltas add up to its delta */
	double parts_delta[TREE_MAX_NODES]; /* the sum of its parts' deltas (additive) */
	int parent[TREE_MAX_NODES], depth[TREE_MAX_NODES];
};

struct json;

/* tui/diff-print.c: sessions' tables, with the tree of -A (TD->def set) */
void diff_print_text(const struct diff_ctx *d);
void diff_print_csv(const struct diff_ctx *d);
void diff_print_json(const struct diff_ctx *d, const struct tree_diff *td);
/* One header for every csv row: tree rows put the node's id in name, its
 * parent's in module, its unit in event, and fill "additive". */
extern const char diff_csv_header[];

/* tui/diff-tree.c: every node of a tree on the counts of each side's files */
int diff_tree_build(const struct diff_opts *o, struct tree_diff *td);
void diff_tree_text(const struct tree_diff *td);
void diff_tree_csv(const struct tree_diff *td);
void diff_tree_json(struct json *j, const struct tree_diff *td);
/* Counts files only: the tree and nothing else. */
void diff_tree_only(const struct diff_opts *o, const struct tree_diff *td);

#endif
