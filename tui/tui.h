/* The interactive views: the state they share, their ops, tui.c's services. */
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
struct tui_opts;

/* The views, each with its ops in one table (tui.c); a view names another
 * by its id, never by its ops or its state. */
enum view_id { VIEW_HOTSPOTS, VIEW_PROCS, VIEW_TREE, VIEW_ILP, VIEW_HELP, VIEW_ASM,
	       VIEW_CALLERS, VIEW_FLAME, VIEW_COUNT };

enum prompt { PROMPT_NONE, PROMPT_FILTER, PROMPT_DELAY, PROMPT_SEARCH, PROMPT_FLAME,
	      PROMPT_FIND, PROMPT_FLOOR };

/* A view as a set of operations on its private state (as tmux's window
 * modes): tui.c reaches a view through these alone; the view reaches its
 * state through tui_view_data and the shared state through struct tui.
 * Every op but draw and key may be NULL. */
struct view_ops {
	const char *name;
	const char *hints;                       /* status line */
	/* the view's state, made once before the first draw (NULL: out of
	 * memory) and freed at the end */
	void *(*init)(struct tui *t, const struct tui_opts *o);
	void (*free)(void *data);
	/* shows the function NAME in MODULE (NULLs: the view as it is);
	 * false with a message when it cannot */
	bool (*open)(struct tui *t, const char *name, const char *module);
	void (*draw)(struct tui *t, int y, int rows);
	bool (*key)(struct tui *t, int key);     /* true when handled */
	const char *(*status)(struct tui *t);    /* status line instead of hints, or NULL */
	/* the prompt P this view opened was entered with TEXT */
	void (*prompt)(struct tui *t, enum prompt p, const char *text);
	/* the profile now shows another process or thread: start over */
	void (*zoomed)(struct tui *t);
	/* the function the view has selected, or NULL */
	const struct snap_func *(*selected)(struct tui *t);
};

struct tui {
	struct session *sess;        /* live watch, or NULL for counts files */
	struct snapshot *snap;       /* what the views show */
	unsigned snap_gen;           /* counts tui_set_snapshot calls: a view's
				      * state built from an older one is rebuilt */
	struct counts counts;        /* the tree's input: files, or the live totals */
	char source[256];
	char cwd[PATH_MAX];          /* paths under it show relative (the detail line) */
	const struct arch_model *model;
	enum view_id view, prev;
	void *data[VIEW_COUNT];      /* each view's own state (tui_view_data) */
	/* shared by the hotspots and the processes views: the filter a
	 * prompt edits, I and s (one each, as they go between them) */
	char filter[TUI_FILTER_MAX];  /* typed (a name; m:TEXT a module), or m's
				       * module path (whole, after m:) */
	char filter_before[TUI_FILTER_MAX]; /* Esc in the filter prompt restores it */
	bool reverse;                /* I: the sort reversed (hotspots, processes) */
	bool show_samples;           /* s: counts instead of percents */
	bool window, paused;
	double delay;
	/* the active tree: the tree view's, the ILP view's and the derived
	 * columns' (tui/cells.h) */
	enum arch_tree tree_id;
	struct tree_result tres;
	struct penalties pen;
	double clock_hz;
	struct theme theme;
	int theme_idx;
	char message[600];
	bool quit;
	enum prompt prompt;
	char input[64];
	const char *child_log;       /* the launched command's output file, or NULL */
	bool child_log_said;         /* its first output was announced */
	struct {                     /* a live watch whose program ended: the view stays */
		bool ended;
		double after;            /* the snapshot's time at the end (s) */
		int status;              /* shell-style; -1 unknown (attached) */
		int signal;              /* the signal that ended it; 0: none */
		char output[TUI_OUTPUT_MAX]; /* failed: its output's last lines */
	} end;
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

/* The state of view ID (its ops' init made it), or NULL. */
void *tui_view_data(const struct tui *t, enum view_id id);
/* Shows view V; the view left is the one to go back to (t->prev). */
void tui_switch_view(struct tui *t, enum view_id v);
/* Opens view V on NAME in MODULE (its open op) and shows it: false, with
 * a message, when it cannot (no call stacks, no function there). */
bool tui_open_view(struct tui *t, enum view_id v, const char *name, const char *module);
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
/* The hotspots' selected function (it follows the function across
 * refreshes and sorts), NULL when none or before their table was shown. */
const struct snap_func *tui_hot_selected(struct tui *t);
/* -a: the view to go back to: the processes, or a zoomed process's functions. */
enum view_id tui_home(const struct tui *t);
/* Shows the functions of process PID (-1: of every process). */
void tui_zoom_process(struct tui *t, int64_t pid);
/* The engine filters thread TID (0: every thread); a fresh snapshot shows
 * it at once rather than at the next refresh (even when paused). */
void tui_zoom_thread(struct tui *t, uint32_t tid);
/* "exited (status N) after T s" once a live watch's program ended, else
 * "T.Ts" (the snapshot's time): the header's time. */
const char *tui_time_label(const struct tui *t, char *buf, size_t sz);
/* A live watch still refreshing (space pauses it); a live watch, ended or
 * not (w: its last interval); a recording or counts file is neither. */
bool tui_refreshes(const struct tui *t);
bool tui_has_window(const struct tui *t);
/* w: the live window / the cumulative profile, or why not. */
void tui_toggle_window(struct tui *t);

#endif
