/* The hotspots view's own state and the functions its files share
 * (view-hotspots.c: keys and ops; -rows.c: the rows, their order and the
 * selection; -draw.c: the screen).  No other file includes it. */
#ifndef TUI_VIEW_HOTSPOTS_H
#define TUI_VIEW_HOTSPOTS_H

#include <stdbool.h>
#include <stdint.h>

#include "tui/tui.h"

/* The view's state: the rows shown, how they are sorted and narrowed, and
 * the function and the thread the selections follow. */
struct hot_view {
	struct browser br;           /* the table */
	struct {                     /* the selection follows a function */
		char *name, *module;     /* copies (the snapshot's strings go with it);
					  * NULL until a row was shown selected */
	} pick;
	struct {                     /* the thread picker (H) */
		bool open;
		struct browser br;
		uint32_t tid;            /* the selection follows a thread */
	} picker;
	int sort;                    /* < n_events: event; == n_events: name; +1: module;
				      * +2: children (call stacks) */
	double floor_pct;            /* %, --percent-limit: rows under it hidden */
	bool hide_children;          /* C: the children column off (with -g) */
	int *rows;                   /* snapshot functions after filter and sort */
	int nrows;
	struct {                     /* what rows were built from: rebuilt on change only */
		unsigned gen;            /* the snapshot's number (t->snap_gen) */
		int sort;
		bool window, reverse;
		double floor_pct;
		char filter[TUI_FILTER_MAX];
	} key;
};

static inline struct hot_view *hv(const struct tui *t)
{
	return tui_view_data(t, VIEW_HOTSPOTS);
}

/* A function's samples of event E, as shown (window or cumulative). */
uint64_t hot_cell(const struct tui *t, const struct snap_func *f, int e);
/* The children column: shown with call stacks of the first event, unless
 * C turned it off; its sort index; a function's and its share. */
bool hot_children_shown(const struct tui *t);
int hot_sort_children_idx(const struct tui *t);
uint64_t hot_children_of(const struct tui *t, const struct snap_func *f);
double hot_children_pct(const struct tui *t, uint64_t total);
/* The rows after filter, floor and sort, rebuilt when an input changed. */
void hot_build_rows(struct tui *t);
/* The function on the row shown selected becomes the one followed. */
void hot_pick_row(struct tui *t);
/* Forgets the pick: the next rows start at their top. */
void hot_unpick(struct tui *t);
/* < > (DIR -1, 1): the next sort column as shown. */
void hot_cycle_sort(struct tui *t, int dir);
/* The function selected, in the rows of the snapshot now; NULL when none. */
const struct snap_func *hot_selected(struct tui *t);
/* F3: selects the next row whose function's name holds TEXT. */
void hot_find(struct tui *t, const char *text);
/* P: writes the rows shown to a fresh cyctop.hist.N, as perf top's P. */
void hot_save(struct tui *t);
/* The snapshot's index of thread TID, 0 when gone. */
int hot_thread_index(const struct snapshot *s, uint32_t tid);
void hot_draw(struct tui *t, int y, int rows);

#endif
