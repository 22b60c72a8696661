/* Hotspots: a header with the target and events, a table of functions with
 * one column per event, sortable and filterable, zoomable into a module or
 * a thread.  With call stacks (-g) a children column (perf top's: the
 * samples whose stack holds the function) and c, the callers view. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/tui.h"
#include "tui/ui.h"
#include "tui/view-hotspots.h"

/* H: pick a thread to zoom into; again (or Esc) while zoomed: every thread,
 * as m does for modules. */
static bool toggle_threads(struct tui *t)
{
	struct hot_view *h = hv(t);

	if (!t->sess || !t->snap) {
		snprintf(t->message, sizeof(t->message), "threads: only while watching a process");
	} else if (t->snap->thread) {
		tui_zoom_thread(t, 0);
	} else {
		h->picker.open = true;
		h->picker.tid = t->snap->n_threads ? t->snap->threads[0].tid : 0;
		h->picker.br.top = 0;
	}
	return true;
}

static bool key_picker(struct tui *t, int key)
{
	struct hot_view *h = hv(t);
	const struct snapshot *s = t->snap;

	if (browser_key(&h->picker.br, key)) {
		if (h->picker.br.sel < (int)s->n_threads)
			h->picker.tid = s->threads[h->picker.br.sel].tid;
		return true;
	}
	switch (key) {
	case '\n': case '\r': case KEY_ENTER:
		h->picker.open = false;
		if (s->n_threads)
			tui_zoom_thread(t, s->threads[hot_thread_index(s, h->picker.tid)].tid);
		return true;
	case 27: case 'H':
		h->picker.open = false;
		return true;
	default:
		return false;
	}
}

/* c: the selected function's callers and callees; without stacks, how to
 * get them. */
static bool open_callers(struct tui *t)
{
	if (!t->snap || !t->snap->cg) {
		snprintf(t->message, sizeof(t->message),
			 "callers: no call stacks: run with -g (or --call-graph dwarf|fp)");
		return true;
	}
	const struct snap_func *f = hot_selected(t);
	if (!f)
		return true;
	tui_open_view(t, VIEW_CALLERS, f->name, f->module);
	return true;
}

/* C: the children column off / on; a sort by it goes back to the first
 * event's. */
static bool toggle_children(struct tui *t)
{
	struct hot_view *h = hv(t);

	if (!t->snap || !t->snap->cg) {
		snprintf(t->message, sizeof(t->message),
			 "children: no call stacks: run with -g (or --call-graph dwarf|fp)");
		return true;
	}
	h->hide_children = !h->hide_children;
	if (h->hide_children && h->sort == hot_sort_children_idx(t))
		h->sort = 0;
	return true;
}

/* f: the flame graph; -a without call stacks: every process's functions,
 * as f in the processes view. */
static bool flame_key(struct tui *t)
{
	if (t->snap && t->snap->system_wide && !t->snap->cg && t->snap->process >= 0) {
		t->filter[0] = '\0';
		tui_zoom_process(t, -1);
		snprintf(t->message, sizeof(t->message), "f: every process's functions (the "
			 "flame graph needs call stacks: -g)");
		return true;
	}
	tui_open_view(t, VIEW_FLAME, NULL, NULL);
	return true;
}

static bool key_hotspots(struct tui *t, int key)
{
	struct hot_view *h = hv(t);

	if (h->picker.open && t->snap)
		return key_picker(t, key);
	if (t->snap)
		hot_build_rows(t);  /* a move starts from the picked row */
	if (browser_key(&h->br, key)) {
		hot_pick_row(t);
		return true;
	}
	if (tui_baseline_key(t, key))
		return true;
	switch (key) {
	case '<': case ',': hot_cycle_sort(t, -1); return true;
	case '>': case '.': case KEY_F(6): hot_cycle_sort(t, 1); return true;
	case 'I': t->reverse = !t->reverse; return true;
	case 'c': return open_callers(t);
	case 'C': return toggle_children(t);
	case 'f':
		return flame_key(t);
	case 'P': hot_save(t); return true;
	case '%': tui_prompt(t, PROMPT_FLOOR); return true;
	case KEY_F(3): tui_prompt(t, PROMPT_FIND); return true;
	case 'w': tui_toggle_window(t); return true;
	case 's': t->show_samples = !t->show_samples; return true;
	case 'm': {
		/* zoom into the selected function's module; again: every module
		 * (the selection stays on the function) */
		const struct snap_func *f = hot_selected(t);
		if (t->filter[0])
			t->filter[0] = '\0';
		else if (f)
			snprintf(t->filter, sizeof(t->filter), "m:%s", f->module);
		return true;
	}
	case 'H':
		return toggle_threads(t);
	case 27:
		/* zoomed into a thread: back to every thread; -a: back to the
		 * processes; else the global Esc */
		if (t->snap && t->snap->thread)
			return toggle_threads(t);
		if (t->snap && t->snap->system_wide) {
			tui_zoom_process(t, -1);
			tui_switch_view(t, VIEW_PROCS);
			return true;
		}
		return false;
	case '/': case KEY_F(4):
		tui_prompt(t, PROMPT_FILTER);
		return true;
	case '\n': case '\r': case KEY_ENTER: {
		const struct snap_func *f = hot_selected(t);
		if (f)
			tui_open_view(t, VIEW_ASM, f->name, f->module);
		return true;
	}
	default:
		return false;
	}
}

#define HOT_CG_HINTS \
	"q quit  ? help  Enter asm  t tree  i ILP  f flame  c callers  / filter  < > sort  " \
	"m module  H threads  C children  space pause  w window  s samples  P save  " \
	"% floor  F3 search"

/* The hints, the most important first (the status line shows those that
 * fit): with call stacks the flame graph and the callers come first.
 * Zoomed, a note first: the call graph is the whole session's (its stacks
 * carry no thread), so the pure callers have no rows there. */
static const char *status_hotspots(struct tui *t)
{
	if (hv(t)->picker.open)
		return "Enter zoom  Esc H back  q quit  ? help";
	if (!t->snap || !t->snap->cg)
		return NULL;
	if (t->snap->thread)
		return "callers-only rows: not per thread  " HOT_CG_HINTS;
	if (t->snap->process >= 0)
		return "callers-only rows: not per process  " HOT_CG_HINTS;
	return HOT_CG_HINTS;
}

/* --percent-limit's range, and the floor prompt's */
static void set_floor(struct tui *t, const char *text)
{
	char *end;
	double v = strtod(text, &end);

	if (end == text || *end || !(v >= 0 && v <= 100))
		snprintf(t->message, sizeof(t->message), "percent floor '%s' ignored: 0 to 100",
			 text);
	else
		hv(t)->floor_pct = v;
}

static void prompt_hotspots(struct tui *t, enum prompt p, const char *text)
{
	if (p == PROMPT_FIND)
		hot_find(t, text);
	else if (p == PROMPT_FLOOR)
		set_floor(t, text);
}

/* Another view's question: the function selected once the table was
 * shown (the ILP view's function line), NULL before. */
static const struct snap_func *shown_selected(struct tui *t)
{
	return hv(t)->rows ? hot_selected(t) : NULL;
}

static void *init_hotspots(struct tui *t, const struct tui_opts *o)
{
	struct hot_view *h = calloc(1, sizeof(*h));

	(void)t;
	if (h)
		h->floor_pct = o->percent_limit;
	return h;
}

static void free_hotspots(void *data)
{
	struct hot_view *h = data;

	free(h->rows);
	free(h->pick.name);
	free(h->pick.module);
	free(h);
}

const struct view_ops view_hotspots = {
	.name = "hotspots",
	.hints = "q quit  ? help  Enter asm  t tree  i ILP  / filter  < > sort  m module  H threads  "
		 "space pause  w window  s samples  P save  % floor  F3 search",
	.init = init_hotspots,
	.free = free_hotspots,
	.draw = hot_draw,
	.key = key_hotspots,
	.status = status_hotspots,
	.prompt = prompt_hotspots,
	.zoomed = hot_unpick,
	.selected = shown_selected,
};
