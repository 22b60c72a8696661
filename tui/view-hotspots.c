/* Hotspots: a header with the target and events, a table of functions with
 * one column per event, sortable and filterable, zoomable into a module or
 * a thread.  With call stacks (-g) a children column (perf top's: the
 * samples whose stack holds the function) and c, the callers view. */
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "arch/derived.h"
#include "engine/callgraph.h"
#include "tui/cells.h"
#include "tui/format.h"
#include "tui/tui.h"
#include "tui/ui.h"

#define COMMCOL 17

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

static struct hot_view *hv(const struct tui *t)
{
	return tui_view_data(t, VIEW_HOTSPOTS);
}

static uint64_t cell(const struct tui *t, const struct snap_func *f, int e)
{
	return t->window ? f->window[e] : f->samples[e];
}

/* The children column: shown with call stacks of the first event, unless
 * C turned it off.  Its sort index comes after the name's and module's. */
static bool children_shown(const struct tui *t)
{
	return t->snap && t->snap->cg && t->snap->n_events > 0 &&
	       cg_n_events(t->snap->cg) > 0 && !hv(t)->hide_children;
}

static int sort_children_idx(const struct tui *t)
{
	return t->snap ? t->snap->n_events + 2 : 2;
}

/* The samples of the first event whose stack holds F (cumulative: the call
 * graph has no window). */
static uint64_t children_of(const struct tui *t, const struct snap_func *f)
{
	uint64_t total = 0;

	cg_function(t->snap->cg, f->name, f->module, 0, NULL, &total);
	return total;
}

static double children_pct(const struct tui *t, uint64_t total)
{
	uint64_t n = cg_samples(t->snap->cg, 0);

	return n ? 100.0 * (double)total / (double)n : 0;
}

static void pick_row(struct tui *t);

/* < > cycle through the columns as shown: events, children, function,
 * module.  The function seen selected stays selected wherever the new
 * order puts it (the top row's, before any move). */
static void cycle_sort(struct tui *t, int dir)
{
	int ne = t->snap ? t->snap->n_events : 0, order[EVENTS_MAX + 3], n = 0, at = 0;

	pick_row(t);

	for (int e = 0; e < ne; e++)
		order[n++] = e;
	if (children_shown(t))
		order[n++] = sort_children_idx(t);
	order[n++] = ne;
	order[n++] = ne + 1;
	for (int i = 0; i < n; i++)
		if (order[i] == hv(t)->sort)
			at = i;
	hv(t)->sort = order[(at + n + dir) % n];
}

/* What compare_rows reads (qsort_r's context). */
struct row_sort {
	const struct tui *t;
	const uint64_t *children;   /* per snapshot function, or NULL */
};

static int compare_rows_fwd(const void *a, const void *b, void *ctx)
{
	const struct row_sort *rs = ctx;
	const struct tui *t = rs->t;
	const struct snap_func *x = &t->snap->funcs[*(const int *)a];
	const struct snap_func *y = &t->snap->funcs[*(const int *)b];
	int ne = t->snap->n_events;

	if (hv(t)->sort < ne) {
		uint64_t nx = cell(t, x, hv(t)->sort), ny = cell(t, y, hv(t)->sort);
		if (nx != ny)
			return nx < ny ? 1 : -1;
	} else if (hv(t)->sort == ne + 2 && rs->children) {
		uint64_t nx = rs->children[x - t->snap->funcs];
		uint64_t ny = rs->children[y - t->snap->funcs];
		if (nx != ny)
			return nx < ny ? 1 : -1;
	} else if (hv(t)->sort == ne + 1) {
		int c = strcmp(x->module, y->module);
		if (c)
			return c;
	}
	return strcmp(x->name, y->name);
}

/* I reverses the order (htop's I) */
static int compare_rows(const void *a, const void *b, void *ctx)
{
	const struct row_sort *rs = ctx;
	int c = compare_rows_fwd(a, b, ctx);

	return rs->t->reverse ? -c : c;
}

/* The filter: a function's name holds it, or with "m:" its module's path. */
static bool filter_match(const struct tui *t, const struct snap_func *f)
{
	if (!t->filter[0])
		return true;
	if (strncmp(t->filter, "m:", 2) == 0)
		return strcasestr(f->module, t->filter + 2) != NULL;
	return strcasestr(f->name, t->filter) != NULL;
}

/* The percent floor (perf top's --percent-limit): a row stays when one of
 * its events' shares reaches it. */
static bool above_floor(const struct tui *t, const struct snap_func *f)
{
	if (hv(t)->floor_pct <= 0)
		return true;
	for (int e = 0; e < t->snap->n_events; e++)
		if (snapshot_percent(t->snap, f, e, t->window) >= hv(t)->floor_pct)
			return true;
	return false;
}

static bool row_shown(const struct tui *t, const struct snap_func *f)
{
	bool any = false;

	for (int e = 0; e < t->snap->n_events; e++)
		any |= cell(t, f, e) != 0;
	/* a pure caller (no samples of its own) with the children column, as
	 * perf report --children lists it; the call graph has no window */
	if (!any && !t->window && children_shown(t))
		any = children_of(t, f) != 0;
	return any && filter_match(t, f) && above_floor(t, f);
}

static bool rows_current(struct tui *t)
{
	return hv(t)->rows && hv(t)->key.gen == t->snap_gen && hv(t)->key.sort == hv(t)->sort &&
	       hv(t)->key.window == t->window && hv(t)->key.reverse == t->reverse &&
	       hv(t)->key.floor_pct == hv(t)->floor_pct &&
	       strcmp(hv(t)->key.filter, t->filter) == 0;
}

/* A sort by children: each function's, computed once rather than per
 * comparison (NULL otherwise, or when out of memory: then by name). */
static uint64_t *children_for_sort(const struct tui *t)
{
	uint64_t *children;

	if (hv(t)->sort != sort_children_idx(t) || !children_shown(t) ||
	    !(children = malloc((t->snap->n_funcs + 1) * sizeof(uint64_t))))
		return NULL;
	for (size_t i = 0; i < t->snap->n_funcs; i++)
		children[i] = children_of(t, &t->snap->funcs[i]);
	return children;
}

/* The selection follows a function (name, module), not a row: a refresh
 * or a sort reorders the rows between the user's look and the key.  Row
 * SEL is the one the user sees selected. */
static void pick_row(struct tui *t)
{
	if (!hv(t)->rows || hv(t)->br.sel < 0 || hv(t)->br.sel >= hv(t)->nrows)
		return;
	const struct snap_func *f = &t->snap->funcs[hv(t)->rows[hv(t)->br.sel]];
	if (hv(t)->pick.name && strcmp(hv(t)->pick.name, f->name) == 0 &&
	    strcmp(hv(t)->pick.module, f->module) == 0)
		return;
	char *name = strdup(f->name), *module = strdup(f->module);
	if (!name || !module) {  /* out of memory: the row, as before */
		free(name);
		free(module);
		return;
	}
	free(hv(t)->pick.name);
	free(hv(t)->pick.module);
	hv(t)->pick.name = name;
	hv(t)->pick.module = module;
}

/* After the rows were rebuilt: the selection on the picked function's row,
 * wherever it went (left where it was when the function is gone). */
static void find_pick(struct tui *t)
{
	for (int i = 0; hv(t)->pick.name && i < hv(t)->nrows; i++) {
		const struct snap_func *f = &t->snap->funcs[hv(t)->rows[i]];
		if (strcmp(f->name, hv(t)->pick.name) == 0 &&
		    strcmp(f->module, hv(t)->pick.module) == 0) {
			hv(t)->br.sel = i;
			return;
		}
	}
}

/* Forgets the pick: the next rows start at their top. */
static void unpick(struct tui *t)
{
	free(hv(t)->pick.name);
	free(hv(t)->pick.module);
	hv(t)->pick.name = hv(t)->pick.module = NULL;
	hv(t)->br.sel = hv(t)->br.top = 0;
}

/* Filtering and sorting happen when their inputs change, not per redraw. */
static void build_rows(struct tui *t)
{
	if (rows_current(t))
		return;
	hv(t)->key.gen = t->snap_gen;
	hv(t)->key.sort = hv(t)->sort;
	hv(t)->key.window = t->window;
	hv(t)->key.reverse = t->reverse;
	hv(t)->key.floor_pct = hv(t)->floor_pct;
	snprintf(hv(t)->key.filter, sizeof(hv(t)->key.filter), "%s", t->filter);
	free(hv(t)->rows);
	hv(t)->rows = NULL;
	hv(t)->nrows = 0;
	if (!t->snap || !(hv(t)->rows = malloc((t->snap->n_funcs + 1) * sizeof(int))))
		return;
	for (size_t i = 0; i < t->snap->n_funcs; i++)
		if (row_shown(t, &t->snap->funcs[i]))
			hv(t)->rows[hv(t)->nrows++] = (int)i;
	uint64_t *children = children_for_sort(t);
	struct row_sort rs = { t, children };
	qsort_r(hv(t)->rows, (size_t)hv(t)->nrows, sizeof(int), compare_rows, &rs);
	free(children);
	find_pick(t);
}

/* The function selected: the picked one, in the rows of the snapshot now
 * (rebuilt if it changed since the table was drawn); NULL when none. */
static const struct snap_func *hot_selected(struct tui *t)
{
	if (!t->snap)
		return NULL;
	build_rows(t);
	if (!hv(t)->rows || hv(t)->br.sel < 0 || hv(t)->br.sel >= hv(t)->nrows)
		return NULL;
	return &t->snap->funcs[hv(t)->rows[hv(t)->br.sel]];
}

/* "  thread TID (comm) P%" when the table is one thread's, else "". */
static void zoom_label(const struct tui *t, char *buf, size_t sz)
{
	const struct snapshot *s = t->snap;
	const struct snap_thread *th = snapshot_thread(s, s->thread);

	buf[0] = '\0';
	if (s->process >= 0 && !s->thread) {
		const struct snap_thread *pr = snapshot_process(s, (uint32_t)s->process);
		snprintf(buf, sz, "  process %lld (%s)", (long long)s->process,
			 pr ? pr->comm : "no samples");
		if (pr && s->n_events > 0)
			snprintf(buf + strlen(buf), sz - strlen(buf), " %.1f%%",
				 snapshot_thread_percent(s, pr, 0, t->window));
		return;
	}
	if (!s->thread)
		return;
	if (s->thread == PROFILE_TID_OTHER)
		snprintf(buf, sz, "  thread [other threads]");
	else
		snprintf(buf, sz, "  thread %u (%s)", s->thread, th ? th->comm : "no samples");
	if (th && s->n_events > 0)
		snprintf(buf + strlen(buf), sz - strlen(buf), " %.1f%%",
			 snapshot_thread_percent(s, th, 0, t->window));
}

/* A program that failed: its last output lines (its usage message, the
 * file it missed), under the header. */
static int draw_end_output(const struct tui *t, int y, int rows)
{
	char line[TUI_OUTPUT_MAX + 16];

	ui_set(EL_WARNING);
	for (const char *p = t->end.output; *p && y < rows - 2;) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		snprintf(line, sizeof(line), "  output: %.*s", len, p);
		ui_text(y++, 0, COLS, line, true);
		p = nl ? nl + 1 : p + len;
	}
	ui_set(EL_HEADER);
	return y;
}

static int draw_header(struct tui *t, int y, int rows)
{
	const struct snapshot *s = t->snap;
	char line[TUI_FILTER_MAX + 512], zoom[64], when[64]; /* the filter, whole */
	char target[sizeof(s->command) + 32];

	ui_set(EL_HEADER);
	zoom_label(t, zoom, sizeof(zoom));
	tui_time_label(t, when, sizeof(when));
	snprintf(line, sizeof(line), "cyctop  %s%s  %s  PMU %s  %s",
		 fmt_target(target, sizeof(target), s->pid, s->command, s->system_wide), zoom,
		 when, s->pmu, t->window ? "window" : "cumulative");
	ui_text(y++, 0, COLS, line, true);
	if (s->n_groups > 1 && y < rows - 2) {
		/* multiplexed: how, and against which reference */
		if (s->runs_mode)
			snprintf(line, sizeof(line), "  groups %d  runs %d  reference %s", s->n_groups,
				 s->n_runs, s->reference);
		else
			snprintf(line, sizeof(line), "  groups %d (slice %d ms)  reference %s",
				 s->n_groups, s->slice_ms, s->reference);
		ui_text(y++, 0, COLS, line, true);
	}
	for (int e = 0; e < s->n_events && y < rows - 2; e++) {
		const struct snap_event *ev = &s->ev[e];
		char grp[24] = "";
		if (s->n_groups > 1)
			snprintf(grp, sizeof(grp), ev->group < 0 ? "  every group" : "  group %d",
				 ev->group + 1);
		char rate[32];
		fmt_rate(rate, sizeof(rate), ev->name, ev->sav, ev->nsamples ? EVENTS_DEFAULT_FREQ : 0);
		snprintf(line, sizeof(line), "  %-22s %-13s samples %-9llu coverage %5.1f%%%s%s",
			 ev->name, rate, (unsigned long long)(t->window ? ev->window : ev->samples),
			 100.0 * ev->coverage, grp, ev->counted || s->n_groups <= 1 ? ""
			 : "  not counted");
		ui_text(y++, 0, COLS, line, true);
	}
	if (y < rows - 2) {
		char stacks[96] = "";
		if (s->cg && s->n_events > 0)
			snprintf(stacks, sizeof(stacks), "  stacks %llu  truncated %llu  skipped %llu",
				 (unsigned long long)cg_stacks(s->cg, 0),
				 (unsigned long long)cg_stacks_truncated(s->cg, 0),
				 (unsigned long long)s->stacks_skipped);
		ui_set(s->lost || s->throttled ? EL_WARNING : EL_HEADER);
		char floor[32] = "";
		if (hv(t)->floor_pct > 0)
			snprintf(floor, sizeof(floor), "  floor %g%%", hv(t)->floor_pct);
		snprintf(line, sizeof(line), "  lost %llu  throttled %llu%s  functions %d%s%s%s%s",
			 (unsigned long long)s->lost, (unsigned long long)s->throttled, stacks,
			 hv(t)->nrows, t->reverse ? "  reversed" : "", floor,
			 t->filter[0] ? "  filter: " : "", t->filter);
		ui_text(y++, 0, COLS, line, true);
	}
	return draw_end_output(t, y, rows);
}

/* Whether the function column starting at X has room for the [k]/[.]
 * marker and a name after it (many event columns leave little). */
static bool marker_room(int x)
{
	return COLS - x >= 30;
}

/* An event column's width: a baseline's delta heading needs more (its
 * name whole and the delta's unit). */
static int event_width(const struct tui *t)
{
	return tui_baseline_shown(t) ? BASELINE_HEADING_COLS + 1 : EVCOL;
}

static void draw_columns(struct tui *t, int y, const struct shown_col *dc, int nd)
{
	char buf[64];
	int x = 0, ne = t->snap->n_events, ev_w = event_width(t);

	ui_set(EL_COLUMN);
	ui_text(y, 0, COLS, "", true);
	for (int e = 0; e < ne && x + ev_w < COLS; e++, x += ev_w) {
		char delta[32];
		if (tui_baseline_heading(t, e, delta, sizeof(delta)))
			snprintf(buf, sizeof(buf), "%c%s", hv(t)->sort == e ? '>' : ' ', delta);
		else
			snprintf(buf, sizeof(buf), "%c%.9s%s", hv(t)->sort == e ? '>' : ' ',
				 t->snap->ev[e].name, t->show_samples ? "" : "%");
		ui_text(y, x, ev_w, buf, true);
	}
	if (children_shown(t) && x + EVCOL < COLS) {
		snprintf(buf, sizeof(buf), "%cchildren%s", hv(t)->sort == sort_children_idx(t) ? '>' : ' ',
			 t->show_samples ? "" : "%");
		ui_text(y, x, EVCOL, buf, true);
		x += EVCOL;
	}
	for (int d = 0; d < nd && x + EVCOL < COLS; d++, x += EVCOL) {
		snprintf(buf, sizeof(buf), "%10s", dc[d].col->label);  /* over its values */
		ui_text(y, x, EVCOL, buf, true);
	}
	if (t->snap->system_wide) {
		ui_text(y, x, COMMCOL, " COMMAND", true);
		x += COMMCOL;
	}
	snprintf(buf, sizeof(buf), "%c%sFUNCTION", hv(t)->sort == ne ? '>' : ' ',
		 marker_room(x) ? "    " : "");
	ui_text(y, x, 38, buf, true);
	snprintf(buf, sizeof(buf), "%cMODULE", hv(t)->sort == ne + 1 ? '>' : ' ');
	ui_text(y, x + 38, COLS - x - 38, buf, true);
}

static void draw_row(struct tui *t, int y, const struct snap_func *f, bool selected,
		     const struct shown_col *dc, int nd)
{
	char buf[64];
	int x = 0, ev_w = event_width(t);

	for (int e = 0; e < t->snap->n_events && x + ev_w < COLS; e++, x += ev_w) {
		double pct = snapshot_percent(t->snap, f, e, t->window);
		char delta[32];
		if (tui_baseline_cell(t, f, e, delta, sizeof(delta))) {  /* --baseline, B (D) */
			snprintf(buf, sizeof(buf), "%*s", ev_w - 1, delta);
			ui_set(selected ? EL_SELECTED : tui_heat(pct));
			ui_text(y, x, ev_w, buf, true);
		} else {
			tui_event_cell(t, y, x, ev_w, cell(t, f, e), pct, selected);
		}
	}
	if (children_shown(t) && x + EVCOL < COLS) {
		uint64_t total = children_of(t, f);
		tui_event_cell(t, y, x, EVCOL, total, children_pct(t, total), selected);
		x += EVCOL;
	}
	x = tui_derived_cells(t, y, x, f->samples, f->window, dc, nd, selected);
	if (t->snap->system_wide) {
		char comm[40];
		if (f->nprocs > 1)
			snprintf(comm, sizeof(comm), "%.11s +%u", f->comm ? f->comm : "", f->nprocs - 1);
		else
			snprintf(comm, sizeof(comm), "%s", f->comm ? f->comm : "");
		ui_cell(y, x, COMMCOL - 1, comm);
		x += COMMCOL;
	}
	char name[512];
	/* perf top's [k]/[.] before the name, when the name keeps room */
	snprintf(name, sizeof(name), "%s%s%s", marker_room(x) ? fmt_space_marker(f->module) : "",
		 marker_room(x) ? " " : "", f->name);
	ui_cell(y, x, 38, name);
	ui_cell(y, x + 38, COLS - x - 38, fmt_module_short(f->module));
}

/* Under the table: the selected function and its module's whole path
 * (the column holds its file name). */
static void draw_detail(struct tui *t, int y)
{
	const struct snap_func *f = hot_selected(t);
	char line[1200];

	if (!f)
		return;
	size_t n = strlen(t->cwd);
	const char *path = f->module;
	if (n > 1 && strncmp(path, t->cwd, n) == 0 && path[n] == '/')
		path += n + 1;   /* under the working directory: relative */
	snprintf(line, sizeof(line), "%s  in %s", f->name, path);
	ui_set(EL_HEADER);
	ui_text(y, 0, COLS, line, true);
}

/* The thread picker (H) lists the snapshot's threads in place of the
 * table (its state: hv(t)->picker); the selection follows a thread, not a row,
 * as refreshes reorder them. */

static int thread_index(const struct snapshot *s, uint32_t tid)
{
	for (size_t i = 0; i < s->n_threads; i++)
		if (s->threads[i].tid == tid)
			return (int)i;
	return 0;
}

/* Row I of the picker: thread I of the snapshot. */
static void draw_thread(void *ctx, int i, int y, bool selected)
{
	const struct tui *t = ctx;
	const struct snap_thread *th = &t->snap->threads[i];
	char line[160], tid[16], wall[32];
	double pct = t->snap->n_events ? snapshot_thread_percent(t->snap, th, 0, t->window) : 0;

	if (th->tid == PROFILE_TID_OTHER)
		snprintf(tid, sizeof(tid), "other");
	else
		snprintf(tid, sizeof(tid), "%u", th->tid);
	tui_wall_cells(t, -1, th->tid, wall, sizeof(wall));
	snprintf(line, sizeof(line), "%9.2f%%%s %8s  %-16s %s", pct, wall, tid, th->comm,
		 th->ended ? "ended" : "");
	ui_set(selected ? EL_SELECTED : pct >= 20 ? EL_HOT : pct >= 5 ? EL_WARM : EL_DEFAULT);
	ui_text(y, 0, COLS, line, true);
}

/* The table's rows are hv(t)->rows; each draws with the derived columns shown. */
struct hot_rows {
	struct tui *t;
	const struct shown_col *dc;
	int nd;
};

static void draw_hot_row(void *ctx, int i, int y, bool selected)
{
	const struct hot_rows *hot = ctx;
	struct tui *t = hot->t;

	draw_row(t, y, &t->snap->funcs[hv(t)->rows[i]], selected, hot->dc, hot->nd);
}

static void draw_picker(struct tui *t, int y, int rows)
{
	const struct snapshot *s = t->snap;
	char line[160];

	ui_set(EL_COLUMN);
	snprintf(line, sizeof(line), " %9.9s%%%s %8s  %-16s Enter: zoom  Esc H: back",
		 s->n_events ? s->ev[0].name : "", tui_wall_heading(t), "TID", "COMM");
	ui_text(y++, 0, COLS, line, true);
	hv(t)->picker.br.nr = (int)s->n_threads;
	hv(t)->picker.br.sel = thread_index(s, hv(t)->picker.tid);
	y = browser_draw(&hv(t)->picker.br, y, rows, draw_thread, t);
	if (s->n_threads == 0 && y < rows)
		ui_text(y, 0, COLS, "no thread has samples yet", true);
	ui_set(EL_DEFAULT);
}

static void draw_hotspots(struct tui *t, int y, int rows)
{
	if (!t->snap) {
		ui_text(y, 0, COLS, "waiting for the first samples...", true);
		return;
	}
	build_rows(t);
	y = draw_header(t, y, rows);
	if (y >= rows)
		return;
	if (hv(t)->picker.open) {
		draw_picker(t, y, rows);
		return;
	}
	struct shown_col dc[MAX_DERIVED];
	int nd = tui_derived_columns(t, dc);
	draw_columns(t, y++, dc, nd);
	struct hot_rows hot = { t, dc, nd };
	hv(t)->br.nr = hv(t)->nrows;
	/* the detail line takes the last row when the table has three */
	bool detail = rows - y >= 4 && hv(t)->nrows > 0;
	y = browser_draw(&hv(t)->br, y, detail ? rows - 1 : rows, draw_hot_row, &hot);
	/* what is shown selected (the clamp may have moved it); until the user
	 * moved, the selection stays on the top row, the hottest, rather than
	 * following the first refresh's top function down the table */
	if (hv(t)->pick.name)
		pick_row(t);
	if (detail)
		draw_detail(t, rows - 1);
	if (hv(t)->nrows == 0 && y < rows)
		ui_text(y, 0, COLS, t->filter[0] || hv(t)->floor_pct > 0
			? "no function matches the filter or the percent floor"
			: t->end.ended ? "no samples: the program ended before one was taken"
			: "no samples yet", true);
	ui_set(EL_DEFAULT);
}

/* H: pick a thread to zoom into; again (or Esc) while zoomed: every thread,
 * as m does for modules. */
static bool toggle_threads(struct tui *t)
{
	if (!t->sess || !t->snap) {
		snprintf(t->message, sizeof(t->message), "threads: only while watching a process");
	} else if (t->snap->thread) {
		tui_zoom_thread(t, 0);
	} else {
		hv(t)->picker.open = true;
		hv(t)->picker.tid = t->snap->n_threads ? t->snap->threads[0].tid : 0;
		hv(t)->picker.br.top = 0;
	}
	return true;
}

static bool key_picker(struct tui *t, int key)
{
	const struct snapshot *s = t->snap;

	if (browser_key(&hv(t)->picker.br, key)) {
		if (hv(t)->picker.br.sel < (int)s->n_threads)
			hv(t)->picker.tid = s->threads[hv(t)->picker.br.sel].tid;
		return true;
	}
	switch (key) {
	case '\n': case '\r': case KEY_ENTER:
		hv(t)->picker.open = false;
		if (s->n_threads)
			tui_zoom_thread(t, s->threads[thread_index(s, hv(t)->picker.tid)].tid);
		return true;
	case 27: case 'H':
		hv(t)->picker.open = false;
		return true;
	default:
		return false;
	}
}

static void hot_find(struct tui *t, const char *text)
{
	if (!t->snap || !text[0])
		return;
	build_rows(t);
	for (int k = 1; k <= hv(t)->nrows; k++) {
		int i = (hv(t)->br.sel + k) % hv(t)->nrows;
		if (strcasestr(t->snap->funcs[hv(t)->rows[i]].name, text)) {
			hv(t)->br.sel = i;
			browser_clamp(&hv(t)->br);
			pick_row(t);
			return;
		}
	}
	snprintf(t->message, sizeof(t->message), "find: no function shown holds '%s'", text);
}

/* The rows as shown, to OUT: a title, the events' columns, the function
 * with its space marker and its module's whole path. */
static void write_rows(struct tui *t, FILE *out)
{
	const struct snapshot *s = t->snap;
	char when[64], target[sizeof(s->command) + 32];

	fprintf(out, "# cyctop  %s  %s  %s%s%s\n# ",
		fmt_target(target, sizeof(target), s->pid, s->command, s->system_wide),
		tui_time_label(t, when, sizeof(when)), t->window ? "window" : "cumulative",
		t->filter[0] ? "  filter: " : "", t->filter);
	for (int e = 0; e < s->n_events; e++)
		fprintf(out, "%10.10s%% ", s->ev[e].name);
	fprintf(out, "    FUNCTION  MODULE\n");
	for (int i = 0; i < hv(t)->nrows; i++) {
		const struct snap_func *f = &s->funcs[hv(t)->rows[i]];
		fprintf(out, "  ");
		for (int e = 0; e < s->n_events; e++)
			fprintf(out, "%9.2f%% ", snapshot_percent(s, f, e, t->window));
		fprintf(out, "%s ", fmt_space_marker(f->module));
		fmt_put_escaped(out, f->name, 0);
		fprintf(out, "  ");
		fmt_put_escaped(out, f->module, 0);
		fprintf(out, "\n");
	}
}

static void hot_save(struct tui *t)
{
	char name[32];
	int fd = -1;

	if (!t->snap) {
		snprintf(t->message, sizeof(t->message), "P: nothing to write yet");
		return;
	}
	build_rows(t);
	for (int n = 0; fd < 0 && n < 1000; n++) {  /* the first free name */
		snprintf(name, sizeof(name), "cyctop.hist.%d", n);
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!out) {
		snprintf(t->message, sizeof(t->message), "P: cannot write %s: %s", name,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	write_rows(t, out);
	if (fclose(out) != 0)
		snprintf(t->message, sizeof(t->message), "P: writing %s: %s", name, strerror(errno));
	else
		snprintf(t->message, sizeof(t->message), "P: %d functions written to %s", hv(t)->nrows,
			 name);
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
	if (!t->snap || !t->snap->cg) {
		snprintf(t->message, sizeof(t->message),
			 "children: no call stacks: run with -g (or --call-graph dwarf|fp)");
		return true;
	}
	hv(t)->hide_children = !hv(t)->hide_children;
	if (hv(t)->hide_children && hv(t)->sort == sort_children_idx(t))
		hv(t)->sort = 0;
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
	if (hv(t)->picker.open && t->snap)
		return key_picker(t, key);
	if (t->snap)
		build_rows(t);  /* a move starts from the picked row */
	if (browser_key(&hv(t)->br, key)) {
		pick_row(t);
		return true;
	}
	if (tui_baseline_key(t, key))
		return true;
	switch (key) {
	case '<': case ',': cycle_sort(t, -1); return true;
	case '>': case '.': case KEY_F(6): cycle_sort(t, 1); return true;
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

/* The hints, the most important first (the status line shows those that
 * fit): with call stacks the flame graph and the callers come first. */
static const char *status_hotspots(struct tui *t)
{
	if (hv(t)->picker.open)
		return "Enter zoom  Esc H back  q quit  ? help";
	if (!t->snap || !t->snap->cg)
		return NULL;
	return "q quit  ? help  Enter asm  t tree  i ILP  f flame  c callers  / filter  < > sort  "
	       "m module  H threads  C children  space pause  w window  s samples  P save  "
	       "% floor  F3 search";
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
	.draw = draw_hotspots,
	.key = key_hotspots,
	.status = status_hotspots,
	.prompt = prompt_hotspots,
	.zoomed = unpick,
	.selected = shown_selected,
};
