/* Processes (-a): one row per process with samples, as top and tiptop show
 * them: a column per event, the active tree's derived columns, pid, user,
 * command.  Enter opens the process's functions (the hotspots view zoomed
 * to it), sorted and filtered as the hotspots are. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arch/derived.h"
#include "tui/cells.h"
#include "tui/format.h"
#include "tui/tui.h"
#include "tui/ui.h"

/* The view's state: the process (or cgroup) the selection follows, the
 * sort and the grouping. */
struct procs_view {
	struct browser br;
	uint32_t pid;                /* the selection follows a process */
	bool picked;                 /* pid is a row shown selected (else none yet:
				      * pid 0 is the idle task's) */
	int sort;                    /* < n_events: event; +0 pid; +1 user; +2 command */
	bool by_cgroup;              /* c: a row per cgroup (snapshot->cgroups) */
};

static struct procs_view *pv(const struct tui *t)
{
	return tui_view_data(t, VIEW_PROCS);
}

static uint64_t cell(const struct tui *t, const struct snap_thread *p, int e)
{
	return t->window ? p->window[e] : p->samples[e];
}

/* Sort keys: the events, then pid, user and command. */
static int compare_procs(const void *a, const void *b, void *ctx)
{
	const struct tui *t = ctx;
	const struct snap_thread *x = *(const struct snap_thread *const *)a;
	const struct snap_thread *y = *(const struct snap_thread *const *)b;
	int ne = t->snap->n_events, k = pv(t)->sort, c = 0;

	if (k < ne && cell(t, x, k) != cell(t, y, k))
		c = cell(t, x, k) < cell(t, y, k) ? 1 : -1;
	else if (k == ne + 1)
		c = strcmp(x->user, y->user);
	else if (k == ne + 2)
		c = strcmp(x->comm, y->comm);
	c = c ? c : x->tid < y->tid ? -1 : x->tid > y->tid;
	return t->reverse ? -c : c;   /* I */
}

static bool proc_shown(const struct tui *t, const struct snap_thread *p)
{
	char pid[16];
	bool any = false;

	for (int e = 0; e < t->snap->n_events; e++)
		any |= cell(t, p, e) != 0;
	snprintf(pid, sizeof(pid), "%u", p->tid);
	return any && (!t->filter[0] || strcasestr(p->comm, t->filter) ||
		       strcasestr(p->user, t->filter) || strcmp(pid, t->filter) == 0 ||
		       strcasestr(p->cgroup, t->filter));
}

/* The rows shown, filtered and sorted (NULL when out of memory). */
static const struct snap_thread **proc_rows(const struct tui *t, int *n)
{
	const struct snap_thread **v = malloc((t->snap->n_procs + 1) * sizeof(*v));

	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < t->snap->n_procs; i++)
		if (proc_shown(t, &t->snap->procs[i]))
			v[(*n)++] = &t->snap->procs[i];
	qsort_r(v, (size_t)*n, sizeof(*v), compare_procs, (void *)t);
	return v;
}

/* --- grouped by cgroup (c) ------------------------------------------------ */

static uint64_t cg_cell(const struct tui *t, const struct snap_cgroup *c, int e)
{
	return t->window ? c->window[e] : c->samples[e];
}

/* The cgroups with samples shown (in the snapshot's order, the first
 * event's), their names matching the filter; NULL when out of memory. */
static const struct snap_cgroup **cgroup_rows(const struct tui *t, int *n)
{
	const struct snapshot *s = t->snap;
	const struct snap_cgroup **v = malloc((s->n_cgroups + 1) * sizeof(*v));

	*n = 0;
	for (size_t i = 0; v && i < s->n_cgroups; i++) {
		bool any = false;
		for (int e = 0; e < s->n_events; e++)
			any |= cg_cell(t, &s->cgroups[i], e) != 0;
		if (any && (!t->filter[0] || strcasestr(s->cgroups[i].name, t->filter)))
			v[(*n)++] = &s->cgroups[i];
	}
	return v;
}

static void draw_cgroup(struct tui *t, int y, const struct snap_cgroup *c, bool selected,
			const struct shown_col *dc, int nd)
{
	const struct snapshot *s = t->snap;
	int x = 0;

	for (int e = 0; e < s->n_events && x + EVCOL < COLS; e++, x += EVCOL) {
		uint64_t all = t->window ? s->ev[e].window : s->ev[e].samples;
		double pct = all ? 100.0 * (double)cg_cell(t, c, e) / (double)all : 0;
		tui_event_cell(t, y, x, EVCOL, cg_cell(t, c, e), pct, selected);
	}
	x = tui_derived_cells(t, y, x, c->samples, c->window, dc, nd, selected);
	ui_cell(y, x, COLS - x, c->name);
}

static int draw_procs_header(struct tui *t, int y, int rows, int nrows)
{
	const struct snapshot *s = t->snap;
	char line[TUI_FILTER_MAX + 1536]; /* the filter, the notice (1 KB), the counters */

	ui_set(EL_HEADER);
	snprintf(line, sizeof(line), "cyctop  %s  processes  %.1fs  PMU %s  %s", s->command,
		 s->time, s->pmu, t->window ? "window" : "cumulative");
	ui_header(y++, line);
	for (int e = 0; e < s->n_events && y < rows - 2; e++) {
		char rate[32];
		fmt_rate(rate, sizeof(rate), s->ev[e].name, s->ev[e].sav,
			 s->ev[e].nsamples ? EVENTS_DEFAULT_FREQ : 0);
		uint64_t n;
		const char *what = fmt_event_total(&s->ev[e], t->window, &n);
		snprintf(line, sizeof(line), "  %-22s %-13s %s %-9llu coverage %5.1f%%",
			 s->ev[e].name, rate, what, (unsigned long long)n,
			 100.0 * s->ev[e].coverage);
		ui_header(y++, line);
	}
	if (y < rows - 2) {
		ui_set(s->lost || s->throttled ? EL_WARNING : EL_HEADER);
		snprintf(line, sizeof(line), "  lost %llu  throttled %llu  %s %d%s%s%s%s",
			 (unsigned long long)s->lost, (unsigned long long)s->throttled,
			 pv(t)->by_cgroup ? "cgroups" : "processes", nrows,
			 t->filter[0] ? "  filter: " : "", t->filter, s->notice[0] ? "  " : "",
			 s->notice);
		ui_header(y++, line);
	}
	return y;
}

static void draw_procs_columns(struct tui *t, int y, const struct shown_col *dc, int nd)
{
	struct procs_view *st = pv(t);
	char buf[64];
	int x = 0, ne = t->snap->n_events, k = st->sort;

	ui_set(EL_COLUMN);
	ui_text(y, 0, COLS, "", true);
	for (int e = 0; e < ne && x + EVCOL < COLS; e++, x += EVCOL) {
		fmt_event_heading(buf, sizeof(buf), &t->snap->ev[e], k == e ? '>' : ' ',
				  t->show_samples, EVCOL);
		ui_text(y, x, EVCOL, buf, true);
	}
	for (int d = 0; d < nd && x + EVCOL < COLS; d++, x += EVCOL) {
		snprintf(buf, sizeof(buf), "%10s", dc[d].col->label);
		ui_text(y, x, EVCOL, buf, true);
	}
	if (t->snap->wall && !st->by_cgroup && x + 2 * EVCOL < COLS) {
		ui_text(y, x, 2 * EVCOL, tui_wall_heading(t), true);
		x += 2 * EVCOL;
	}
	if (st->by_cgroup)
		snprintf(buf, sizeof(buf), " CGROUP");
	else
		snprintf(buf, sizeof(buf), "%c    PID %cUSER       %cCOMMAND", k == ne ? '>' : ' ',
			 k == ne + 1 ? '>' : ' ', k == ne + 2 ? '>' : ' ');
	ui_text(y, x, COLS - x, buf, true);
}

static void draw_proc(struct tui *t, int y, const struct snap_thread *p, bool selected,
		      const struct shown_col *dc, int nd)
{
	char buf[96];
	int x = 0;

	for (int e = 0; e < t->snap->n_events && x + EVCOL < COLS; e++, x += EVCOL)
		tui_event_cell(t, y, x, EVCOL, cell(t, p, e),
			       snapshot_thread_percent(t->snap, p, e, t->window), selected);
	x = tui_derived_cells(t, y, x, p->samples, p->window, dc, nd, selected);
	if (t->snap->wall && x + 2 * EVCOL < COLS) {
		tui_wall_cells(t, p->tid, -1, buf, sizeof(buf));
		ui_text(y, x, 2 * EVCOL, buf, true);
		x += 2 * EVCOL;
	}
	if (p->tid == PROFILE_TID_OTHER)
		snprintf(buf, sizeof(buf), " %7s ", "-");
	else
		snprintf(buf, sizeof(buf), " %7u ", p->tid);
	ui_text(y, x, 9, buf, true);
	ui_cell(y, x + 9, 11, p->user[0] ? p->user : "?");
	snprintf(buf, sizeof(buf), "%s%s", p->comm, p->ended ? "  (ended)" : "");
	ui_cell(y, x + 21, COLS - x - 21, buf);
}

/* The selection on the picked process's row among V (N rows), wherever it
 * went; left where it was when the process is gone or none was picked. */
static void sync_selection(struct tui *t, const struct snap_thread **v, int n)
{
	struct procs_view *st = pv(t);

	for (int i = 0; v && st->picked && i < n; i++)
		if (v[i]->tid == st->pid) {
			st->br.sel = i;
			return;
		}
}

/* The browser's rows are the filtered and sorted processes, v[]. */
struct proc_rows {
	struct tui *t;
	const struct snap_thread **v;
	const struct shown_col *dc;
	int nd;
};

static void draw_proc_row(void *ctx, int i, int y, bool selected)
{
	const struct proc_rows *p = ctx;

	draw_proc(p->t, y, p->v[i], selected, p->dc, p->nd);
}

struct cgroup_rows {
	struct tui *t;
	const struct snap_cgroup **v;
	const struct shown_col *dc;
	int nd;
};

static void draw_cgroup_row(void *ctx, int i, int y, bool selected)
{
	const struct cgroup_rows *c = ctx;

	draw_cgroup(c->t, y, c->v[i], selected, c->dc, c->nd);
}

/* c: the same columns, a row per cgroup. */
static void draw_cgroups(struct tui *t, int y, int rows)
{
	struct procs_view *st = pv(t);
	int n;
	const struct snap_cgroup **v = cgroup_rows(t, &n);

	y = draw_procs_header(t, y, rows, n);
	if (y < rows) {
		struct shown_col dc[MAX_DERIVED];
		int nd = tui_derived_columns(t, dc);
		draw_procs_columns(t, y++, dc, nd);
		struct cgroup_rows shown = { t, v, dc, nd };
		st->br.nr = n;
		y = browser_draw(&st->br, y, rows, draw_cgroup_row, &shown);
		if (n == 0 && y < rows)
			ui_text(y, 0, COLS, t->filter[0] ? "no cgroup matches the filter"
					   : "no cgroup known yet", true);
	}
	ui_set(EL_DEFAULT);
	free(v);
}

/* Enter on a cgroup: its processes (the filter set to its name). */
static void open_cgroup(struct tui *t)
{
	struct procs_view *st = pv(t);
	int n;
	const struct snap_cgroup **v = cgroup_rows(t, &n);

	if (v && st->br.sel < n) {
		snprintf(t->filter, sizeof(t->filter), "%s", v[st->br.sel]->name);
		st->by_cgroup = false;
		st->br.sel = 0;
		st->picked = false;
	}
	free(v);
}

static void draw_procs(struct tui *t, int y, int rows)
{
	struct procs_view *st = pv(t);
	int n;

	if (!t->snap) {
		ui_text(y, 0, COLS, "waiting for the first samples...", true);
		return;
	}
	if (st->by_cgroup) {
		draw_cgroups(t, y, rows);
		return;
	}
	const struct snap_thread **v = proc_rows(t, &n);
	y = draw_procs_header(t, y, rows, n);
	if (y >= rows) {
		free(v);
		return;
	}
	struct shown_col dc[MAX_DERIVED];
	int nd = tui_derived_columns(t, dc);
	draw_procs_columns(t, y++, dc, nd);
	struct proc_rows shown = { t, v, dc, nd };
	st->br.nr = n;
	sync_selection(t, v, n);
	y = browser_draw(&st->br, y, rows, draw_proc_row, &shown);
	/* the process shown selected is the one Enter opens */
	if (v && st->br.sel < n) {
		st->pid = v[st->br.sel]->tid;
		st->picked = true;
	}
	if (n == 0 && y < rows)
		ui_text(y, 0, COLS, t->filter[0] ? "no process matches the filter" : "no samples yet",
			true);
	ui_set(EL_DEFAULT);
	free(v);
}

/* The selection follows a process (refreshes reorder the rows): after a
 * move, the process on the row moved to. */
static void follow_selection(struct tui *t)
{
	struct procs_view *st = pv(t);
	int n;
	const struct snap_thread **v = t->snap ? proc_rows(t, &n) : NULL;

	if (v && st->br.sel < n) {
		st->pid = v[st->br.sel]->tid;
		st->picked = true;
	}
	free(v);
}

static void cycle_proc_sort(struct tui *t, int dir)
{
	struct procs_view *st = pv(t);
	int n = (t->snap ? t->snap->n_events : 0) + 3;

	st->sort = (st->sort + n + dir) % n;
}

static bool key_cgroups(struct tui *t, int key)
{
	struct procs_view *st = pv(t);

	if (browser_key(&st->br, key))
		return true;
	switch (key) {
	case 'c': st->by_cgroup = false; return true;
	case 'w': tui_toggle_window(t); return true;
	case 's': t->show_samples = !t->show_samples; return true;
	case '/': case KEY_F(4): tui_prompt(t, PROMPT_FILTER); return true;
	case 27:
		if (t->filter[0])
			t->filter[0] = '\0';
		else
			st->by_cgroup = false;
		return true;
	case '\n': case '\r': case KEY_ENTER: open_cgroup(t); return true;
	default: return false;
	}
}

static bool key_procs(struct tui *t, int key)
{
	struct procs_view *st = pv(t);

	if (st->by_cgroup)
		return key_cgroups(t, key);
	if (t->snap && st->picked) {  /* a move starts from the process's row now */
		int n;
		const struct snap_thread **v = proc_rows(t, &n);
		sync_selection(t, v, n);
		free(v);
	}
	if (browser_key(&st->br, key)) {
		follow_selection(t);
		return true;
	}
	switch (key) {
	case '<': case ',': cycle_proc_sort(t, -1); return true;
	case '>': case '.': case KEY_F(6): cycle_proc_sort(t, 1); return true;
	case 'I': t->reverse = !t->reverse; return true;
	case 'c':  /* a row per cgroup */
		st->by_cgroup = true;
		st->br.sel = 0;
		return true;
	case 'w': tui_toggle_window(t); return true;
	case 's': t->show_samples = !t->show_samples; return true;
	case '/': case KEY_F(4): tui_prompt(t, PROMPT_FILTER); return true;
	case 'f':  /* every process's functions, as perf top -a */
		t->filter[0] = '\0';
		tui_switch_view(t, VIEW_HOTSPOTS);
		return true;
	case 27:
		if (t->filter[0])
			t->filter[0] = '\0';
		return true;
	case '\n': case '\r': case KEY_ENTER:
		/* the process shown selected, wherever a refresh put its row */
		if (st->picked && t->snap && snapshot_process(t->snap, st->pid)) {
			t->filter[0] = '\0';
			tui_zoom_process(t, st->pid);
			tui_switch_view(t, VIEW_HOTSPOTS);
		}
		return true;
	default:
		return false;
	}
}

static void *init_procs(struct tui *t, const struct tui_opts *o)
{
	(void)t;
	(void)o;
	return calloc(1, sizeof(struct procs_view));
}

const struct view_ops view_procs = {
	.name = "processes",
	.hints = "q quit  ? help  Enter functions  f all functions  c cgroups  t tree  / filter  "
		 "< > sort  space pause  w window  s samples",
	.init = init_procs,
	.free = free,
	.draw = draw_procs,
	.key = key_procs,
};
