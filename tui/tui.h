/* The interactive views: state shared by the views, one ops table per view. */
#ifndef TUI_TUI_H
#define TUI_TUI_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/counts.h"
#include "arch/tree.h"
#include "engine/session.h"
#include "tui/browser.h"
#include "tui/theme.h"

struct tui;

struct view_ops {
	const char *name;
	const char *hints;                       /* status line */
	void (*draw)(struct tui *t, int y, int rows);
	bool (*key)(struct tui *t, int key);     /* true when handled */
};

extern const struct view_ops view_hotspots, view_tree, view_ilp, view_help;

enum prompt { PROMPT_NONE, PROMPT_FILTER, PROMPT_DELAY };

struct tui {
	struct session *sess;        /* live watch, or NULL for counts files */
	struct snapshot *snap;       /* what the hotspot view shows */
	struct counts counts;        /* the tree's input: files, or the live totals */
	char source[256];
	const struct arch_model *model;
	const struct view_ops *view, *prev;
	struct browser hot, tree;
	int sort;                    /* < n_events: event; == n_events: name; +1: module */
	bool window, paused, show_samples;
	char filter[64];
	double delay;
	enum arch_tree tree_id;
	struct tree_result tres;
	uint64_t folded[2];          /* tree nodes collapsed */
	struct penalties pen;
	double clock_hz;
	struct theme theme;
	int theme_idx;
	char message[600];
	bool quit;
	int *rows;                   /* hotspot rows after filter and sort */
	int nrows;
	struct {                     /* what rows were built from: rebuilt on change only */
		const struct snapshot *snap;
		int sort;
		bool window;
		char filter[64];
	} rows_key;
	enum prompt prompt;
	char input[64];
};

struct tui_opts {
	struct session *sess;
	char *const *files;          /* counts files for -i */
	int nfiles;
	enum arch_tree tree;
	double delay;
	const char *theme;
};

/* Runs the views until q, a signal or the target's end.  Returns the exit
 * code; a live watch prints its final table to stdout after the screen is
 * restored. */
int tui_run(const struct tui_opts *o);

/* Shared by the views. */
void tui_eval_tree(struct tui *t);
const struct arch_model *tui_tree_model(const struct tui *t, enum arch_tree tree);
const char *tui_missing_reason(const struct tui *t, const char *event);

#endif
