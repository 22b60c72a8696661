/* Callers and callees of one function (c on a hotspot row; needs -g): a
 * header with its self and total shares, its callers as an expandable
 * caller tree (perf report -G: each level the functions that called the
 * one above it on those samples' stacks), then its direct callees.
 * Percentages are of the function's total samples (the samples whose stack
 * holds it) of the first event.  The state is struct callers_view, the
 * view's own; the tree is rebuilt from each new snapshot, and what is
 * expanded or selected follows call paths, not row numbers. */
#include <curses.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hashtab.h"
#include "engine/callgraph.h"
#include "tui/format.h"
#include "tui/tui.h"
#include "tui/ui.h"

#define TREE_DEPTH 128          /* caller levels: as deep as the stacks kept */
#define TREE_ROWS_MAX 200000    /* rows of one tree kept (depth first) */
#define PCTCOL 10
#define NCOL 11

/* A line: a caller tree row (>= 0), the callees' heading, or callee k. */
#define LINE_CALLEES (-1)
#define LINE_CALLEE(k) (-2 - (int)(k))

#define CALLERS_BACK_MAX 32     /* functions to go back to */

struct fn_id {                  /* a function, as the view names it */
	char *name, *module;
};

/* The view's state. */
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
	const char *unit;             /* the figures': "samples", "ns" (unit_of) */
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

static struct callers_view *cvw(const struct tui *t)
{
	return tui_view_data(t, VIEW_CALLERS);
}


/* ---- keys of lines: the call path hashed (lib/hashtab.h) ---------------- */

/* Each part mixed in whole: ("ab", "c") and ("a", "bc") differ. */
static uint64_t path_key(uint64_t parent, const char *name, const char *module)
{
	return hash_mix(hash_mix(parent ^ hash_str(name)) ^ hash_str(module));
}

#define ROOT_KEY 0xcbf29ce484222325ull
#define CALLEE_KEY 0x84222325cbf29ce4ull

static bool toggled(const struct callers_view *cv, uint64_t key)
{
	for (size_t i = 0; i < cv->ntoggled; i++)
		if (cv->toggled[i] == key)
			return true;
	return false;
}

static bool expanded(const struct callers_view *cv, uint64_t key, int depth)
{
	return (cv->all || depth == 0) != toggled(cv, key);
}

static void toggle(struct callers_view *cv, uint64_t key)
{
	for (size_t i = 0; i < cv->ntoggled; i++)
		if (cv->toggled[i] == key) {
			cv->toggled[i] = cv->toggled[--cv->ntoggled];
			return;
		}
	if (GROW(cv->toggled, cv->ntoggled + 1, cv->tcap) < 0)
		return;
	cv->toggled[cv->ntoggled++] = key;
}

/* ---- building --------------------------------------------------------- */

static bool add_line(struct callers_view *cv, int line, uint64_t key)
{
	if (GROW(cv->line, (size_t)cv->nlines + 1, cv->lcap) < 0 ||
	    GROW(cv->key, (size_t)cv->nlines + 1, cv->kcap) < 0)
		return false;
	cv->line[cv->nlines] = line;
	cv->key[cv->nlines++] = key;
	return true;
}

/* The caller tree's rows of the function (all of them, up to the cap). */
static void build_tree(struct callers_view *cv, const struct cg_snapshot *g)
{
	size_t n = cg_caller_tree(g, cv->fn.name, cv->fn.module, 0, TREE_DEPTH, cv->rows, cv->cap);

	if (n > cv->cap) {
		size_t cap = n < TREE_ROWS_MAX ? n : TREE_ROWS_MAX;
		struct cg_row *r = realloc(cv->rows, cap * sizeof(*r));
		if (r) {
			cv->rows = r;
			cv->cap = cap;
			n = cg_caller_tree(g, cv->fn.name, cv->fn.module, 0, TREE_DEPTH, cv->rows,
					   cv->cap);
		}
	}
	cv->all_rows = n;
	cv->nrows = n < cv->cap ? n : cv->cap;
}

/* The lines shown: the rows not under a folded one, then the callees. */
static void build_lines(struct callers_view *cv)
{
	uint64_t keys[TREE_DEPTH + 2];
	int skip = TREE_DEPTH + 1;

	cv->nlines = 0;
	for (size_t i = 0; i < cv->nrows; i++) {
		const struct cg_row *r = &cv->rows[i];
		int d = r->depth < 0 ? 0 : r->depth > TREE_DEPTH ? TREE_DEPTH : r->depth;
		if (d > skip)
			continue;
		skip = TREE_DEPTH + 1;
		keys[d] = path_key(d ? keys[d - 1] : ROOT_KEY, r->name, r->module);
		if (!add_line(cv, (int)i, keys[d]))
			return;
		if (!r->more || !expanded(cv, keys[d], d))
			skip = d;
	}
	if (!add_line(cv, LINE_CALLEES, CALLEE_KEY))
		return;
	for (size_t k = 0; k < cv->ncallees; k++)
		if (!add_line(cv, LINE_CALLEE(k), path_key(CALLEE_KEY, cv->callees[k].name,
						       cv->callees[k].module)))
			return;
}

/* Keeps the selection on the same line (by key) as lines come and go. */
static void select_key(struct callers_view *cv)
{
	for (int i = 0; i < cv->nlines; i++)
		if (cv->key[i] == cv->sel_key) {
			cv->br.sel = i;
			break;
		}
	cv->br.nr = cv->nlines;
	browser_clamp(&cv->br);
	if (cv->br.sel < cv->nlines)
		cv->sel_key = cv->key[cv->br.sel];
}

static void relayout(struct callers_view *cv)
{
	build_lines(cv);
	select_key(cv);
}

/* Everything taken from the snapshot points into it: rebuilt for each. */
static void ensure_built(struct tui *t)
{
	struct callers_view *cv = cvw(t);
	const struct cg_snapshot *g = t->snap ? t->snap->cg : NULL;

	if (cv->built && cv->built_gen == t->snap_gen)
		return;
	cv->built = true;
	cv->built_gen = t->snap_gen;
	cv->nrows = cv->all_rows = cv->ncallees = 0;
	cv->callees = NULL;
	cv->self = cv->total = cv->stacks = cv->truncated = 0;
	if (g && cv->fn.name && t->snap->n_events > 0) {
		cg_function(g, cv->fn.name, cv->fn.module, 0, &cv->self, &cv->total);
		cv->stacks = cg_samples(g, 0);
		cv->truncated = cg_stacks_truncated(g, 0);  /* a count, as "stacks" */
		build_tree(cv, g);
		cv->ncallees = cg_callees(g, cv->fn.name, cv->fn.module, 0, &cv->callees);
	}
	relayout(cv);
}

/* ---- opening and going back ------------------------------------------- */

static void fn_free(struct fn_id *f)
{
	free(f->name);
	free(f->module);
	f->name = f->module = NULL;
}

static bool fn_set(struct fn_id *f, const char *name, const char *module)
{
	char *n = strdup(name), *m = strdup(module);

	if (!n || !m) {
		free(n);
		free(m);
		return false;
	}
	fn_free(f);
	f->name = n;
	f->module = m;
	return true;
}

/* Shows NAME in MODULE, expanded one level, its first line selected. */
static bool show(struct tui *t, const char *name, const char *module, uint64_t sel)
{
	struct callers_view *cv = cvw(t);

	if (!fn_set(&cv->fn, name, module)) {
		snprintf(t->message, sizeof(t->message), "callers: out of memory");
		return false;
	}
	cv->all = false;
	cv->ntoggled = 0;
	cv->br.sel = cv->br.top = 0;
	cv->sel_key = sel;
	cv->built = false;
	ensure_built(t);
	return true;
}

static bool open_callers(struct tui *t, const char *name, const char *module)
{
	struct callers_view *cv = cvw(t);

	if (!t->snap || !t->snap->cg) {
		snprintf(t->message, sizeof(t->message),
			 "callers: no call stacks: run with -g (or --call-graph dwarf|fp)");
		return false;
	}
	while (cv->depth > 0)
		fn_free(&cv->back[--cv->depth].fn);
	return show(t, name, module, 0);
}

/* Enter or c on a line of another function: its callers, with the way
 * back. */
static void follow(struct tui *t, const char *name, const char *module)
{
	struct callers_view *cv = cvw(t);

	if (strcmp(name, cv->fn.name) == 0 && strcmp(module, cv->fn.module) == 0)
		return;
	if (cv->depth == CALLERS_BACK_MAX) {
		snprintf(t->message, sizeof(t->message), "callers: %d functions deep: go back first",
			 CALLERS_BACK_MAX);
		return;
	}
	if (!fn_set(&cv->back[cv->depth].fn, cv->fn.name, cv->fn.module))
		return;
	cv->back[cv->depth++].sel = cv->sel_key;
	if (!show(t, name, module, 0)) {
		fn_free(&cv->back[--cv->depth].fn);
	}
}

static void go_back(struct tui *t)
{
	struct callers_view *cv = cvw(t);

	if (cv->depth == 0) {
		tui_switch_view(t, VIEW_HOTSPOTS);
		return;
	}
	cv->depth--;
	show(t, cv->back[cv->depth].fn.name, cv->back[cv->depth].fn.module,
	     cv->back[cv->depth].sel);
	fn_free(&cv->back[cv->depth].fn);
}

static void free_callers(void *data)
{
	struct callers_view *cv = data;

	while (cv->depth > 0)
		fn_free(&cv->back[--cv->depth].fn);
	fn_free(&cv->fn);
	free(cv->rows);
	free(cv->line);
	free(cv->key);
	free(cv->toggled);
	free(cv);
}

/* ---- drawing ---------------------------------------------------------- */

static double pct_of(uint64_t n, uint64_t of)
{
	return of ? 100.0 * (double)n / (double)of : 0;
}

static enum theme_el heat(double pct)
{
	return pct >= 20 ? EL_HOT : pct >= 5 ? EL_WARM : EL_DEFAULT;
}

/* The first event's figures: "samples", or their unit when each sample
 * weighs its period (frequency mode). */
static const char *unit_of(const struct tui *t)
{
	return fmt_event_unit(&t->snap->ev[0]);
}

/* "N samples", or the periods' sum and how many samples ("992750000 ns
 * (3971 samples)") when each weighs its period. */
static void stacks_of(const struct tui *t, char *buf, size_t sz)
{
	const struct callers_view *cv = cvw(t);
	const char *unit = unit_of(t);

	if (strcmp(unit, "samples") == 0)
		snprintf(buf, sz, "%llu samples", (unsigned long long)cv->stacks);
	else
		snprintf(buf, sz, "%llu %s (%llu samples)", (unsigned long long)cv->stacks, unit,
			 (unsigned long long)cg_stacks(t->snap->cg, 0));
}

static int draw_header(struct tui *t, int y, int rows)
{
	const struct callers_view *cv = cvw(t);
	const struct snapshot *s = t->snap;
	char line[1024];

	ui_set(EL_HEADER);
	snprintf(line, sizeof(line), "callers and callees of %s  %s", cv->fn.name, cv->fn.module);
	ui_header(y++, line);
	if (y < rows) {
		char of[96];
		stacks_of(t, of, sizeof(of));
		snprintf(line, sizeof(line),
			 "  %s: self %.2f%%  total %.2f%% of %s with a stack  "
			 "truncated %llu  skipped %llu%s", s->ev[0].name,
			 pct_of(cv->self, cv->stacks), pct_of(cv->total, cv->stacks),
			 of, (unsigned long long)cv->truncated,
			 (unsigned long long)s->stacks_skipped, cv->depth ? "  (Esc: back)" : "");
		ui_set(EL_HEADER_VALUE);
		ui_text(y++, 0, COLS, line, true);
	}
	if (y < rows) {
		snprintf(line, sizeof(line), "%*s%*s  CALLERS (percent of the function's total)%s",
			 PCTCOL, "percent", NCOL, unit_of(t),
			 cv->all_rows > cv->nrows ? "  (tree cut: too many paths)" : "");
		ui_set(EL_COLUMN);
		ui_text(y++, 0, COLS, line, true);
	}
	return y;
}

/* "- " expanded, "+ " folded, "  " no callers known. */
static void draw_tree_row(const struct callers_view *cv, int y, const struct cg_row *r,
			  uint64_t key, bool selected)
{
	char head[64], text[1024];
	double pct = pct_of(r->samples, cv->total);
	int indent = 2 * (r->depth < 60 ? r->depth : 60);

	snprintf(head, sizeof(head), "%*.2f%% %*llu  ", PCTCOL - 1, pct, NCOL - 1,
		 (unsigned long long)r->samples);
	snprintf(text, sizeof(text), "%*s%s%s  %s", indent, "",
		 !r->more ? "  " : expanded(cv, key, r->depth) ? "- " : "+ ", r->name, r->module);
	ui_set(selected ? EL_SELECTED : heat(pct));
	ui_text(y, 0, PCTCOL + NCOL + 2, head, true);
	ui_set(selected ? EL_SELECTED : r->depth == 0 ? EL_HEADER_VALUE : EL_DEFAULT);
	ui_text(y, PCTCOL + NCOL + 2, COLS - PCTCOL - NCOL - 2, text, true);
}

static void draw_callee(const struct callers_view *cv, int y, const struct cg_edge *e,
			bool selected)
{
	char head[64];
	double pct = pct_of(e->samples, cv->total);

	snprintf(head, sizeof(head), "%*.2f%% %*llu  ", PCTCOL - 1, pct, NCOL - 1,
		 (unsigned long long)e->samples);
	ui_set(selected ? EL_SELECTED : heat(pct));
	ui_text(y, 0, PCTCOL + NCOL + 2, head, true);
	ui_set(selected ? EL_SELECTED : EL_DEFAULT);
	char text[1024];
	snprintf(text, sizeof(text), "%s  %s", e->name, e->module);
	ui_text(y, PCTCOL + NCOL + 2, COLS - PCTCOL - NCOL - 2, text, true);
}

/* Line I of the browser: a caller tree row, the callees' heading or a
 * callee. */
static void draw_line(void *ctx, int i, int y, bool selected)
{
	const struct callers_view *cv = ctx;
	char text[128];
	int l = cv->line[i];

	if (l >= 0) {
		draw_tree_row(cv, y, &cv->rows[l], cv->key[i], selected);
	} else if (l == LINE_CALLEES) {
		snprintf(text, sizeof(text), "%*s%*s  CALLEES%s", PCTCOL, "percent", NCOL, cv->unit,
			 cv->ncallees ? "" : ": none (all its samples are its own)");
		ui_set(selected ? EL_SELECTED : EL_COLUMN);
		ui_text(y, 0, COLS, text, true);
	} else {
		draw_callee(cv, y, &cv->callees[LINE_CALLEE(0) - l], selected);
	}
}

static void draw_callers(struct tui *t, int y, int rows)
{
	struct callers_view *cv = cvw(t);

	if (!t->snap || !t->snap->cg || t->snap->n_events == 0 || !cv->fn.name) {
		ui_set(EL_MISSING);
		ui_text(y, 0, COLS, "no call stacks: run with -g (or --call-graph dwarf|fp)", true);
		ui_set(EL_DEFAULT);
		return;
	}
	ensure_built(t);
	y = draw_header(t, y, rows);
	if (y >= rows)
		return;
	if (cv->nrows == 0) {
		ui_set(EL_MISSING);
		ui_text(y++, 0, COLS, "no sample with a stack holds this function yet", true);
	}
	cv->br.nr = cv->nlines;
	cv->unit = unit_of(t);
	browser_draw(&cv->br, y, rows, draw_line, cv);
	ui_set(EL_DEFAULT);
}

/* ---- keys ------------------------------------------------------------- */

/* The selected line's tree row, or NULL. */
static const struct cg_row *sel_row(const struct callers_view *cv)
{
	if (cv->br.sel < 0 || cv->br.sel >= cv->nlines || cv->line[cv->br.sel] < 0)
		return NULL;
	return &cv->rows[cv->line[cv->br.sel]];
}

static const struct cg_edge *sel_callee(const struct callers_view *cv)
{
	if (cv->br.sel < 0 || cv->br.sel >= cv->nlines || cv->line[cv->br.sel] > LINE_CALLEE(0))
		return NULL;
	return &cv->callees[LINE_CALLEE(0) - cv->line[cv->br.sel]];
}

/* Right (OPEN): unfold the selected row; Left: fold it, or when it is
 * folded already select the row it hangs under. */
static void fold(struct callers_view *cv, bool open)
{
	const struct cg_row *r = sel_row(cv);
	uint64_t key = cv->key[cv->br.sel];

	if (!r)
		return;
	if (r->more && expanded(cv, key, r->depth) != open) {
		toggle(cv, key);
		relayout(cv);
		return;
	}
	if (open || r->depth == 0)
		return;
	for (int i = cv->br.sel - 1; i >= 0; i--)  /* the row one level nearer */
		if (cv->line[i] >= 0 && cv->rows[cv->line[i]].depth == r->depth - 1) {
			cv->br.sel = i;
			cv->sel_key = cv->key[i];
			browser_clamp(&cv->br);
			return;
		}
}

static void enter(struct tui *t)
{
	struct callers_view *cv = cvw(t);
	const struct cg_row *r = sel_row(cv);
	const struct cg_edge *e = sel_callee(cv);

	if (r && r->more) {
		toggle(cv, cv->key[cv->br.sel]);
		relayout(cv);
	} else if (r) {
		follow(t, r->name, r->module);
	} else if (e) {
		follow(t, e->name, e->module);
	}
}

/* c: the selected line's function's own callers view. */
static void callers_of_selected(struct tui *t)
{
	const struct cg_row *r = sel_row(cvw(t));
	const struct cg_edge *e = sel_callee(cvw(t));

	if (r)
		follow(t, r->name, r->module);
	else if (e)
		follow(t, e->name, e->module);
}

static bool key_callers(struct tui *t, int key)
{
	struct callers_view *cv = cvw(t);

	if (!t->snap || !t->snap->cg || !cv->fn.name) {
		if (key == 27 || key == 'q' || key == KEY_BACKSPACE || key == 127 || key == 8) {
			tui_switch_view(t, VIEW_HOTSPOTS);
			return true;
		}
		return false;
	}
	ensure_built(t);
	if (browser_key(&cv->br, key)) {
		if (cv->br.sel < cv->nlines)
			cv->sel_key = cv->key[cv->br.sel];
		return true;
	}
	switch (key) {
	case KEY_RIGHT: case '+': fold(cv, true); return true;
	case KEY_LEFT: case '-': fold(cv, false); return true;
	case '\n': case '\r': case KEY_ENTER: enter(t); return true;
	case 'c': callers_of_selected(t); return true;
	case 'E':
		cv->all = !cv->all;
		cv->ntoggled = 0;
		relayout(cv);
		return true;
	case 27: case 'q': case KEY_BACKSPACE: case 127: case 8:
		go_back(t);
		return true;
	default:
		return false;
	}
}

static void *init_callers(struct tui *t, const struct tui_opts *o)
{
	(void)t;
	(void)o;
	return calloc(1, sizeof(struct callers_view));
}

const struct view_ops view_callers = {
	.name = "callers",
	.hints = "Esc q back  Right Left unfold / fold  Enter unfold or open  c callers of the "
		 "selected  E unfold all",
	.init = init_callers,
	.free = free_callers,
	.open = open_callers,
	.draw = draw_callers,
	.key = key_callers,
};
