/* The hotspots' screen: the header (target, events, counters), the
 * columns, the rows with their event, children and derived cells, the
 * selected function's detail line and the thread picker (H). */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "arch/derived.h"
#include "engine/callgraph.h"
#include "tui/cells.h"
#include "tui/format.h"
#include "tui/tui.h"
#include "tui/ui.h"
#include "tui/view-hotspots.h"

#define COMMCOL 17

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
	struct hot_view *h = hv(t);
	const struct snapshot *s = t->snap;
	char line[TUI_FILTER_MAX + 512], zoom[64], when[64]; /* the filter, whole */
	char target[sizeof(s->command) + 32];

	ui_set(EL_HEADER);
	zoom_label(t, zoom, sizeof(zoom));
	tui_time_label(t, when, sizeof(when));
	snprintf(line, sizeof(line), "cyctop  %s%s  %s  PMU %s  %s",
		 fmt_target(target, sizeof(target), s->pid, s->command, s->system_wide), zoom,
		 when, s->pmu, t->window ? "window" : "cumulative");
	ui_header(y++, line);
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
		uint64_t n;
		const char *what = fmt_event_total(ev, t->window, &n);
		snprintf(line, sizeof(line), "  %-22s %-13s %s %-9llu coverage %5.1f%%%s%s",
			 ev->name, rate, what, (unsigned long long)n,
			 100.0 * ev->coverage, grp, ev->counted || s->n_groups <= 1 ? ""
			 : "  not counted");
		ui_header(y++, line);
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
		if (h->floor_pct > 0)
			snprintf(floor, sizeof(floor), "  floor %g%%", h->floor_pct);
		snprintf(line, sizeof(line), "  lost %llu  throttled %llu%s  functions %d%s%s%s%s",
			 (unsigned long long)s->lost, (unsigned long long)s->throttled, stacks,
			 h->nrows, t->reverse ? "  reversed" : "", floor,
			 t->filter[0] ? "  filter: " : "", t->filter);
		ui_header(y++, line);
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
	struct hot_view *h = hv(t);
	char buf[64];
	int x = 0, ne = t->snap->n_events, ev_w = event_width(t);

	ui_set(EL_COLUMN);
	ui_text(y, 0, COLS, "", true);
	for (int e = 0; e < ne && x + ev_w < COLS; e++, x += ev_w) {
		char delta[32];
		if (tui_baseline_heading(t, e, delta, sizeof(delta)))
			snprintf(buf, sizeof(buf), "%c%s", h->sort == e ? '>' : ' ', delta);
		else
			fmt_event_heading(buf, sizeof(buf), &t->snap->ev[e], h->sort == e ? '>' : ' ',
					  t->show_samples, ev_w);
		ui_text(y, x, ev_w, buf, true);
	}
	if (hot_children_shown(t) && x + EVCOL < COLS) {
		snprintf(buf, sizeof(buf), "%cchildren%s", h->sort == hot_sort_children_idx(t) ? '>' : ' ',
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
	snprintf(buf, sizeof(buf), "%c%sFUNCTION", h->sort == ne ? '>' : ' ',
		 marker_room(x) ? "    " : "");
	ui_text(y, x, 38, buf, true);
	snprintf(buf, sizeof(buf), "%cMODULE", h->sort == ne + 1 ? '>' : ' ');
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
			tui_event_cell(t, y, x, ev_w, hot_cell(t, f, e), pct, selected);
		}
	}
	if (hot_children_shown(t) && x + EVCOL < COLS) {
		uint64_t total = hot_children_of(t, f);
		tui_event_cell(t, y, x, EVCOL, total, hot_children_pct(t, total), selected);
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
 * table (its state: struct hot_view's picker); the selection follows a
 * thread, not a row, as refreshes reorder them. */

int hot_thread_index(const struct snapshot *s, uint32_t tid)
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

/* The table's rows are the view's rows; each draws with the derived
 * columns shown. */
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
	struct hot_view *h = hv(t);
	const struct snapshot *s = t->snap;
	char line[160];

	ui_set(EL_COLUMN);
	snprintf(line, sizeof(line), " %9.9s%%%s %8s  %-16s Enter: zoom  Esc H: back",
		 s->n_events ? s->ev[0].name : "", tui_wall_heading(t), "TID", "COMM");
	ui_text(y++, 0, COLS, line, true);
	h->picker.br.nr = (int)s->n_threads;
	h->picker.br.sel = hot_thread_index(s, h->picker.tid);
	y = browser_draw(&h->picker.br, y, rows, draw_thread, t);
	if (s->n_threads == 0 && y < rows)
		ui_text(y, 0, COLS, "no thread has samples yet", true);
	ui_set(EL_DEFAULT);
}

void hot_draw(struct tui *t, int y, int rows)
{
	struct hot_view *h = hv(t);

	if (!t->snap) {
		ui_text(y, 0, COLS, "waiting for the first samples...", true);
		return;
	}
	hot_build_rows(t);
	y = draw_header(t, y, rows);
	if (y >= rows)
		return;
	if (h->picker.open) {
		draw_picker(t, y, rows);
		return;
	}
	struct shown_col dc[MAX_DERIVED];
	int nd = tui_derived_columns(t, dc);
	draw_columns(t, y++, dc, nd);
	struct hot_rows hot = { t, dc, nd };
	h->br.nr = h->nrows;
	/* the detail line takes the last row when the table has three */
	bool detail = rows - y >= 4 && h->nrows > 0;
	y = browser_draw(&h->br, y, detail ? rows - 1 : rows, draw_hot_row, &hot);
	/* what is shown selected (the clamp may have moved it); until the user
	 * moved, the selection stays on the top row, the hottest, rather than
	 * following the first refresh's top function down the table */
	if (h->pick.name)
		hot_pick_row(t);
	if (detail)
		draw_detail(t, rows - 1);
	if (h->nrows == 0 && y < rows)
		ui_text(y, 0, COLS, t->filter[0] || h->floor_pct > 0
			? "no function matches the filter or the percent floor"
			: t->end.ended ? "no samples: the program ended before one was taken"
			: "no samples yet", true);
	ui_set(EL_DEFAULT);
}
