/* The interactive views: state shared by the views, one ops table per view. */
#ifndef TUI_TUI_H
#define TUI_TUI_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "arch/counts.h"
#include "arch/tree.h"
#include "engine/annotate.h"
#include "engine/session.h"
#include "tui/baseline.h"
#include "tui/browser.h"
#include "tui/theme.h"

/* A filter holds a module's whole path, as long as a path can be (PATH_MAX) */
#define TUI_FILTER_MAX 4096
/* The last lines of a failed program's output the view shows */
#define TUI_OUTPUT_MAX 512
#define TUI_OUTPUT_LINES 3

struct tui;
struct flame_view;

struct view_ops {
	const char *name;
	const char *hints;                       /* status line */
	void (*draw)(struct tui *t, int y, int rows);
	bool (*key)(struct tui *t, int key);     /* true when handled */
	const char *(*status)(struct tui *t);    /* status line instead of hints, or NULL */
};

extern const struct view_ops view_hotspots, view_tree, view_ilp, view_help, view_asm;
extern const struct view_ops view_callers;
extern const struct view_ops view_procs;      /* -a: one row per process */
extern const struct view_ops view_flame;      /* f: the flame graph (view-flame.c) */

/* A derived column of the active tree (IPC, CPI, stall%...) whose two
 * events were sampled: which snapshot events feed it. */
struct derived_col;
#define MAX_DERIVED 4
struct shown_col {
	const struct derived_col *col;
	int num, den;
};

enum prompt { PROMPT_NONE, PROMPT_FILTER, PROMPT_DELAY, PROMPT_SEARCH, PROMPT_FLAME,
	      PROMPT_FIND, PROMPT_FLOOR };

enum asm_unit { ASM_PERCENT, ASM_SAMPLES, ASM_COUNTS };

/* The asm view's state: the open function and the way back to callers. */
struct asm_view {
	const struct asm_func *fn;   /* owned by the session's cache */
	struct annotation *ann;
	const struct snapshot *built_from;
	char name[256], module[512];
	struct browser br;
	int *rows, nrows;            /* instruction, block and source rows */
	bool source, of_total;
	enum asm_unit unit;
	char search[64];
	char status[700];
	struct {
		const struct asm_func *fn;
		long sel;
		char name[256], module[512];
	} stack[16];
	int depth;
};

/* The callers view's state (view-callers.c). */
#define CALLERS_BACK_MAX 32     /* functions to go back to */

struct fn_id {                  /* a function, as the callers view names it */
	char *name, *module;
};

struct callers_view {
	struct fn_id fn;              /* the function shown */
	struct {
		struct fn_id fn;
		uint64_t sel;         /* its selected line's key */
	} back[CALLERS_BACK_MAX];
	int depth;
	/* built from snapshot number built_gen of t->snap */
	unsigned built_gen;
	bool built;
	struct cg_row *rows;          /* the caller tree, depth first */
	size_t nrows, cap, all_rows;
	const struct cg_edge *callees;
	size_t ncallees;
	uint64_t self, total, stacks, truncated;
	/* the lines shown, their keys (a row's call path, a callee's name) */
	int *line;
	uint64_t *key;
	int nlines;
	size_t lcap, kcap;           /* room in line[] and key[] */
	/* expansion: a row is expanded when (all || it is the function itself)
	 * differs from whether its path is in toggled */
	bool all;
	uint64_t *toggled;
	size_t ntoggled, tcap;
	uint64_t sel_key;             /* the selected line, across rebuilds */
	struct browser br;
};

struct tui {
	struct session *sess;        /* live watch, or NULL for counts files */
	struct snapshot *snap;       /* what the hotspot view shows */
	struct counts counts;        /* the tree's input: files, or the live totals */
	char source[256];
	char cwd[PATH_MAX];          /* paths under it show relative (the detail line) */
	const struct arch_model *model;
	const struct view_ops *view, *prev;
	struct browser hot, tree;
	struct browser help;         /* the help text's scroll (its selection unshown) */
	struct {                     /* the hotspots' selection follows a function */
		char *name, *module;     /* copies (the snapshot's strings go with it);
					  * NULL until a row was shown selected */
	} hot_pick;
	struct {                     /* the hotspots view's thread picker (H) */
		bool open;
		struct browser br;
		uint32_t tid;            /* the selection follows a thread */
	} picker;
	int sort;                    /* < n_events: event; == n_events: name; +1: module;
				      * +2: children (call stacks) */
	bool window, paused, show_samples;
	bool reverse;                /* I: the sort reversed (hotspots, processes) */
	double floor_pct;            /* %, --percent-limit: rows under it hidden */
	bool hide_children;          /* C: the children column off (with -g) */
	unsigned snap_gen;           /* counts tui_set_snapshot calls */
	char filter[TUI_FILTER_MAX];  /* typed (a name; m:TEXT a module), or m's
				       * module path (whole, after m:) */
	char filter_before[TUI_FILTER_MAX]; /* Esc in the filter prompt restores it */
	double delay;
	enum arch_tree tree_id;
	struct tree_result tres;
	uint64_t folded[2];          /* tree nodes collapsed */
	uint64_t opened[2];          /* tree runs of unmeasured nodes unfolded */
	struct {                     /* the tree view's tree picker (A) */
		bool open;
		struct browser br;
	} tree_pick;
	struct penalties pen;
	double clock_hz;
	struct theme theme;
	int theme_idx;
	char message[600];
	uint32_t ilp_tid;            /* the ILP view's thread (H), 0: none */
	bool quit;
	int *rows;                   /* hotspot rows after filter and sort */
	int nrows;
	struct {                     /* what rows were built from: rebuilt on change only */
		const struct snapshot *snap;
		int sort;
		bool window, reverse;
		double floor_pct;
		char filter[TUI_FILTER_MAX];
	} rows_key;
	enum prompt prompt;
	char input[64];
	struct asm_view asmv;
	struct callers_view callers;
	struct flame_view *flame;    /* the flame graph's state (view-flame.c), or NULL */
	const char *stall_event;     /* --stall: the asm view's stall reference */
	struct src_cache *src;       /* source files shown in the asm view */
	const char *child_log;       /* the launched command's output file, or NULL */
	bool child_log_said;         /* its first output was announced */
	struct {                     /* a live watch whose program ended: the view stays */
		bool ended;
		double after;            /* the snapshot's time at the end (s) */
		int status;              /* shell-style; -1 unknown (attached) */
		char output[TUI_OUTPUT_MAX]; /* failed: its output's last lines */
	} end;
	struct {                     /* the processes view (-a) */
		struct browser br;
		uint32_t pid;            /* the selection follows a process */
		bool picked;             /* pid is a row shown selected (else none yet:
					  * pid 0 is the idle task's) */
		int sort;                /* < n_events: event; +0 pid; +1 user; +2 command */
		bool by_cgroup;          /* c: a row per cgroup (snapshot->cgroups) */
	} procs;
	struct baseline *baseline;   /* --baseline FILE or B (tui/baseline.h), or NULL */
	enum base_mode base_mode;    /* D: the event columns absolute, delta, delta % */
};

struct tui_opts {
	struct session *sess;
	char *const *files;          /* counts files for -i */
	int nfiles;
	enum arch_tree tree;
	double delay;
	const char *theme;
	const char *stall_event;
	bool launched;               /* the watch launched its command */
	bool quit_at_end;            /* --quit-at-end: the view ends with the program */
	const char *child_log;       /* where its output goes (a file), or NULL */
	const char *baseline;        /* --baseline FILE: the hotspots' deltas against it */
	double percent_limit;        /* --percent-limit: the hotspots' floor */
};

/* Runs the views until q or a signal (or, with quit_at_end, the target's
 * end: else the view stays on the final profile).  Returns the exit code
 * (a watch's: cmd_watch_status); nothing goes to stdout. */
int tui_run(const struct tui_opts *o);

/* One event's cell at column X of row Y, WIDTH wide: the count or its
 * percent (s), coloured by how hot it is; the hotspots', processes' and
 * cgroups' rows. */
void tui_event_cell(const struct tui *t, int y, int x, int width, uint64_t count, double pct,
		    bool selected);
/* The derived columns' cells from column X; returns the column after. */
int tui_derived_cells(const struct tui *t, int y, int x, const uint64_t *samples,
		      const uint64_t *window, const struct shown_col *dc, int nd, bool selected);
/* Shared by the views. */
void tui_switch_view(struct tui *t, const struct view_ops *v);
/* Opens prompt P on the status line, empty (as less, vim and htop do). */
void tui_prompt(struct tui *t, enum prompt p);
void tui_eval_tree(struct tui *t);
/* The tree tui_eval_tree evaluates (the same definition and context) on
 * other counts C: a baseline's. */
void tui_eval_tree_counts(const struct tui *t, const struct counts *c, struct tree_result *out);
const struct arch_model *tui_tree_model(const struct tui *t, enum arch_tree tree);
const char *tui_missing_reason(const struct tui *t, const char *event);
/* Replaces the shown snapshot (freeing the old one). */
void tui_set_snapshot(struct tui *t, struct snapshot *s);
/* The callers view of a function (c): true, or false with a message when
 * the snapshot has no call stacks. */
bool tui_open_callers(struct tui *t, const char *name, const char *module);
void tui_close_callers(struct tui *t);   /* frees its state, at the end */
/* The hotspots' selected function (it follows the function across
 * refreshes and sorts), NULL when none; tui_hot_unpick starts the
 * selection over at the top row. */
const struct snap_func *tui_hot_selected(struct tui *t);
void tui_hot_unpick(struct tui *t);
/* The flame graph (f): true, or false with a message when the snapshot has
 * no call stacks; its search (/) and its state freed at the end. */
bool tui_open_flame(struct tui *t);
void tui_flame_search(struct tui *t, const char *text);
void tui_close_flame(struct tui *t);
/* Opens the asm view's data for a function; false with a message. */
bool tui_open_asm(struct tui *t, const char *name, const char *module);
/* The derived columns of the active tree whose inputs the snapshot has. */
int tui_derived_columns(const struct tui *t, struct shown_col *out);
/* Column SC over a row's counts (window or cumulative as shown); NAN when
 * an input was never counted. */
double tui_derived_value(const struct tui *t, const uint64_t *samples, const uint64_t *window,
			 const struct shown_col *sc);
/* -a: the view to go back to: the processes, or a zoomed process's functions. */
const struct view_ops *tui_home(const struct tui *t);
/* With off-cpu: the on- and off-CPU seconds of process PID's threads or
 * of thread TID (-1: all of them), two columns into BUF; their heading. */
void tui_wall_cells(const struct tui *t, int64_t pid, int64_t tid, char *buf, size_t n);
const char *tui_wall_heading(const struct tui *t);
/* Shows the functions of process PID (-1: of every process). */
void tui_zoom_process(struct tui *t, int64_t pid);
/* "exited (status N) after T s" once a live watch's program ended, else
 * "T.Ts" (the snapshot's time): the header's time. */
const char *tui_time_label(const struct tui *t, char *buf, size_t sz);
/* A live watch still refreshing (space pauses it); a live watch, ended or
 * not (w: its last interval); a recording or counts file is neither. */
bool tui_refreshes(const struct tui *t);
bool tui_has_window(const struct tui *t);
/* w: the live window / the cumulative profile, or why not. */
void tui_toggle_window(struct tui *t);
/* F3: selects the next hotspot row whose function's name holds TEXT. */
void tui_hot_find(struct tui *t, const char *text);
/* P: writes the hotspot rows shown (filter, floor and sort as shown) to a
 * fresh cyctop.hist.N in the working directory, as perf top's P does. */
void tui_hot_save(struct tui *t);
/* Searches TEXT in the asm view; "" repeats the last search (as less). */
void tui_asm_search(struct tui *t, const char *text);

#endif
