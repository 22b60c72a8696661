/* The flame graph (f in the hotspots view; needs -g): an icicle, the roots
 * at the top, each frame as wide as the first event's samples in it and
 * below it (tui/flame.h lays it out), coloured by a metric the events make
 * possible (m cycles, the legend line maps the colours to values).  Arrows
 * move between frames, Enter zooms (on a leaf: its asm view), Backspace
 * zooms out, / highlights matching frames and sums their share.  The zoom
 * and the selection are paths of names, so they survive each new
 * snapshot (a live watch rebuilds the graph from every one). */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/flame.h"
#include "tui/format.h"
#include "tui/tui.h"
#include "tui/ui.h"

#define PATH_DEPTH 256     /* frames of a path kept as identity */
#define METRICS_MAX 96
#define MIN_W 2            /* a frame narrower than this joins a "+N" stub */
#define HEAD_LINES 2       /* title, legend */
#define FOOT_LINES 1       /* the selected frame */
#define ZOOM_BACK_MAX 32
#define ZSEP '\x1f'          /* joins a path's names in the zoom history */

struct flame_view {
	struct flame *fl;
	unsigned built_gen;
	bool built;
	struct flame_layout lay;
	int lay_w, lay_zoom;
	/* identity: paths of names (copies) */
	char *zoom_path[PATH_DEPTH], *sel_path[PATH_DEPTH];
	int zoom_n, sel_n;
	int zoom, sel;             /* nodes of fl */
	/* the zooms to go back to (Backspace), as paths joined by ZSEP */
	char *hist[ZOOM_BACK_MAX];
	int nhist;
	struct flame_metric metrics[METRICS_MAX];
	int nmetrics, metric;
	char metric_name[160];     /* the chosen metric kept across rebuilds by name */
	double lo, hi;             /* the scale over the frames shown */
	double *val;               /* the metric's value per node, when HAVE */
	unsigned char *have;
	char search[64];
	int top;                   /* first icicle row shown */
	char status[700];
};

static struct flame_view *fv_of(const struct tui *t)
{
	return tui_view_data(t, VIEW_FLAME);
}

/* ---- identity ---------------------------------------------------------- */

static void path_free(char **p, int *n)
{
	for (int i = 0; i < *n; i++)
		free(p[i]);
	*n = 0;
}

static void path_set(const struct flame *fl, int node, char **p, int *n)
{
	const char *names[PATH_DEPTH];
	int d = flame_path(fl, node, names, PATH_DEPTH);

	path_free(p, n);
	for (int i = 0; i < d; i++) {
		if (!(p[i] = strdup(names[i])))
			break;
		*n = i + 1;
	}
}

static int path_find(const struct flame *fl, char *const *p, int n)
{
	bool exact;

	return flame_find(fl, (const char *const *)p, n, &exact);
}

static void select_node(struct flame_view *v, int node)
{
	v->sel = node;
	path_set(v->fl, node, v->sel_path, &v->sel_n);
}

static void zoom_node(struct flame_view *v, int node)
{
	v->zoom = node;
	path_set(v->fl, node, v->zoom_path, &v->zoom_n);
	v->top = 0;
}

/* ---- building ---------------------------------------------------------- */

static void pick_metric(const struct tui *t, struct flame_view *v, const struct snapshot *s)
{
	const char *names[EVENTS_MAX];
	int n = s->n_events < EVENTS_MAX ? s->n_events : EVENTS_MAX;

	for (int e = 0; e < n; e++)
		names[e] = s->ev[e].name;
	struct flame_base base;
	bool with_base = baseline_flame(t->baseline, s, &base);
	v->nmetrics = flame_metrics(names, n, with_base ? &base : NULL, v->metrics, METRICS_MAX);
	v->metric = 0;
	for (int i = 0; i < v->nmetrics; i++)
		if (strcmp(v->metrics[i].name, v->metric_name) == 0)
			v->metric = i;
	/* by default the first metric the counters give, else by name */
	if (!v->metric_name[0] && v->nmetrics > 1)
		v->metric = 1;
	snprintf(v->metric_name, sizeof(v->metric_name), "%s", v->metrics[v->metric].name);
}

static void ensure_built(struct tui *t, struct flame_view *v)
{
	const struct cg_snapshot *g = t->snap ? t->snap->cg : NULL;

	if (v->built && v->built_gen == t->snap_gen)
		return;
	flame_free(v->fl);
	/* -a zoomed on a process (Enter in the processes view): its stacks */
	const struct snap_thread *zoom = t->snap && t->snap->system_wide && t->snap->process >= 0
		? snapshot_process(t->snap, (uint32_t)t->snap->process) : NULL;
	v->fl = g ? flame_from_cg(g, zoom && zoom->comm[0] ? zoom->comm : NULL) : NULL;
	if (v->fl)
		flame_scale_from(v->fl, t->snap);
	v->built = true;
	v->built_gen = t->snap_gen;
	v->lay_w = -1;
	if (!v->fl)
		return;
	pick_metric(t, v, t->snap);
	free(v->val);
	free(v->have);
	v->val = malloc(v->fl->n * sizeof(*v->val));
	v->have = calloc(v->fl->n, 1);
	v->zoom = path_find(v->fl, v->zoom_path, v->zoom_n);
	v->sel = path_find(v->fl, v->sel_path, v->sel_n);
	if (!flame_is_ancestor(v->fl, v->zoom, v->sel) &&
	    !flame_is_ancestor(v->fl, v->sel, v->zoom))
		v->sel = v->zoom;
}

static const struct flame_metric *metric(const struct flame_view *v)
{
	return &v->metrics[v->metric];
}

/* The metric's value at NODE, computed once a build and metric (a tree
 * metric evaluates the tree on the frame's counts). */
static double value(const struct flame_view *v, int node)
{
	if (!v->val || !v->have)
		return flame_value(v->fl, node, metric(v));
	if (!v->have[node]) {
		v->val[node] = flame_value(v->fl, node, metric(v));
		v->have[node] = 1;
	}
	return v->val[node];
}

static void forget_values(struct flame_view *v)
{
	if (v->have)
		memset(v->have, 0, v->fl->n);
}

/* The scale: the metric's range over the frames laid out. */
static void scale(struct flame_view *v)
{
	v->lo = INFINITY;
	v->hi = -INFINITY;
	for (size_t i = 0; i < v->lay.n; i++) {
		if (v->lay.box[i].node < 0)
			continue;
		double x = value(v, v->lay.box[i].node);
		if (isnan(x))
			continue;
		v->lo = x < v->lo ? x : v->lo;
		v->hi = x > v->hi ? x : v->hi;
	}
	if (metric(v)->kind == FM_DELTA && v->hi >= v->lo) {  /* centred on 0 */
		v->hi = fmax(fabs(v->lo), fabs(v->hi));
		v->lo = -v->hi;
	}
}

static void ensure_layout(struct flame_view *v, int w, int rows)
{
	if (v->lay_w == w && v->lay_zoom == v->zoom)
		return;
	if (flame_layout(v->fl, v->zoom, w, MIN_W, rows, &v->lay) < 0)
		v->lay.n = 0;
	v->lay_w = w;
	v->lay_zoom = v->zoom;
	scale(v);
}

/* ---- drawing ----------------------------------------------------------- */

static double pct(uint64_t n, uint64_t of)
{
	return of ? 100.0 * (double)n / (double)of : 0;
}

static bool matches(const struct flame_view *v, int node)
{
	return v->search[0] && node >= 0 && strstr(v->fl->nodes[node].name, v->search);
}

/* The samples of the frames matching the search, each counted once: a
 * match below a match is inside it already. */
static uint64_t match_samples(const struct flame_view *v, int node)
{
	uint64_t n = 0;

	if (matches(v, node))
		return flame_total(v->fl, node, 0);
	for (int c = v->fl->nodes[node].first_child; c >= 0; c = v->fl->nodes[c].next)
		n += match_samples(v, c);
	return n;
}

/* Monochrome: the bucket as shading, from light to full. */
static bool mono(const struct tui *t)
{
	return t->theme.el[EL_FLAME0].fg < 0 && t->theme.el[EL_FLAME0].bg < 0 &&
	       t->theme.el[EL_FLAME5].fg < 0 && t->theme.el[EL_FLAME5].bg < 0;
}

static const char *shade(int bucket)
{
	static const char *const u[] = { " ", "\u2591", "\u2591", "\u2592", "\u2592", "\u2593" };
	static const char *const a[] = { " ", ".", ".", ":", ":", "#" };

	if (bucket < 0)
		return " ";
	return ui_utf8() ? u[bucket] : a[bucket];
}

static int bucket_of(const struct flame_view *v, int node)
{
	if (node < 0)
		return -1;
	if (metric(v)->kind == FM_NONE)
		return flame_name_bucket(v->fl->nodes[node].name);
	if (metric(v)->kind == FM_DELTA)
		return flame_delta_bucket(value(v, node), v->hi);
	return flame_bucket(value(v, node), v->lo, v->hi);
}

static void draw_box(struct tui *t, struct flame_view *v, const struct flame_box *b, int y)
{
	char text[1024], cell[4096];
	int bucket = bucket_of(v, b->node);
	bool sel = b->node >= 0 && b->node == v->sel;

	if (b->node < 0)
		snprintf(text, sizeof(text), "+%d", b->stub);
	else
		snprintf(text, sizeof(text), "%s", v->fl->nodes[b->node].name);
	/* the border, the name clipped to the cell, the rest filled */
	/* a stub: "+N" clipped, no border (a one-column stub still says "+") */
	size_t len = b->node < 0 ? 0 : (size_t)snprintf(cell, sizeof(cell), "%s",
							ui_utf8() ? "\u258f" : "|");
	int cols = b->node < 0 ? 0 : 1;
	for (const char *p = text; *p && cols < b->w && len + 8 < sizeof(cell); p++) {
		cell[len++] = *p;
		cols += (*p & 0xc0) != 0x80;
	}
	const char *fill = mono(t) && !sel ? shade(bucket) : " ";
	for (; cols < b->w && len + 8 < sizeof(cell); cols++)
		len += (size_t)snprintf(cell + len, sizeof(cell) - len, "%s", fill);
	cell[len] = '\0';
	bool match = matches(v, b->node);
	ui_set(match ? EL_WARNING : bucket < 0 ? EL_MISSING : (enum theme_el)(EL_FLAME0 + bucket));
	/* the selection keeps the frame's colour, reversed: the colour still
	 * says the value, and no theme colour can hide it.  A match is the
	 * warning colour reversed (a background, as flamegraph.pl's magenta),
	 * and selected, not reversed. */
	if (sel != match)
		attron(A_REVERSE);
	if (sel)
		attron(A_BOLD);
	if (b->ancestor && !sel)   /* above the zoom: faded, as flamegraph.pl's */
		attron(A_DIM);
	/* ui_text escapes control characters only: the border and shades pass */
	ui_text(y, b->x, b->w, cell, true);
}

static void draw_legend(struct tui *t, struct flame_view *v, int y)
{
	const struct flame_metric *m = metric(v);
	bool delta = m->kind == FM_DELTA, scaled = m->kind != FM_NONE && v->hi >= v->lo;
	char line[512], cell[FLAME_BUCKETS][64], tail[64];
	int x, cw[FLAME_BUCKETS], scale_w = 0;

	/* the scale's cells first: a delta's buckets start at -max, a third
	 * of max each (0 itself has no colour) */
	for (int b = 0; scaled && b < FLAME_BUCKETS; b++) {
		double a = delta ? v->hi * (b - 3) / 3.0
			   : v->lo + (v->hi - v->lo) * b / FLAME_BUCKETS;
		int n = snprintf(cell[b], sizeof(cell[b]), delta ? "%s%+.2g%s " : "%s%.3g%s ",
				 mono(t) ? shade(b) : " ", a, mono(t) ? shade(b) : " ");
		cw[b] = n - (mono(t) && ui_utf8() ? 4 : 0);
		scale_w += cw[b];
	}
	snprintf(tail, sizeof(tail), delta ? " to %+.2g" : " to %.3g", v->hi);
	scale_w += scaled ? (int)strlen(tail) : m->kind != FM_NONE ? 22 : 0;
	/* the scale keeps its room: the name is cut first */
	x = snprintf(line, sizeof(line), "colour: %s", m->name);
	if (x > COLS - scale_w - 2 && COLS - scale_w - 2 > 12) {
		x = COLS - scale_w - 2;
		snprintf(line + x - 3, sizeof(line) - (size_t)x + 3, "...");
	}
	x += 2;
	ui_set(EL_HEADER_VALUE);
	ui_text(y, 0, COLS, line, true);
	if (!scaled) {
		if (m->kind != FM_NONE)
			ui_text(y, x, COLS - x, "(no frame has a value)", true);
		return;
	}
	for (int b = 0; b < FLAME_BUCKETS && x < COLS; b++) {
		ui_set((enum theme_el)(EL_FLAME0 + b));
		ui_text(y, x, COLS - x, cell[b], false);
		x += cw[b];
	}
	ui_set(EL_HEADER_VALUE);
	if (x < COLS)
		ui_text(y, x, COLS - x, tail, true);
}

static void draw_foot(struct tui *t, struct flame_view *v, int y)
{
	const struct flame *fl = v->fl;
	char line[1024];
	int n = v->sel;
	uint64_t s = flame_total(fl, n, 0), all = flame_total(fl, 0, 0);
	double val = value(v, n);
	/* the value in numbers too (a monochrome terminal shades only); the
	 * module last, the first thing cut */
	int len = snprintf(line, sizeof(line), "%s  %llu samples  %.2f%% of all  "
			   "%.2f%% of the zoom  self %llu", fl->nodes[n].name,
			   (unsigned long long)s, pct(s, all), pct(s, flame_total(fl, v->zoom, 0)),
			   (unsigned long long)flame_self(fl, n, 0));
	if (metric(v)->kind != FM_NONE && len >= 0 && (size_t)len < sizeof(line))
		len += snprintf(line + len, sizeof(line) - (size_t)len, isnan(val) ? "  colour n/a"
				: metric(v)->kind == FM_DELTA ? "  colour %+.4g" : "  colour %.4g", val);
	if (v->search[0] && len >= 0 && (size_t)len < sizeof(line))
		len += snprintf(line + len, sizeof(line) - (size_t)len, "  /%s: %.2f%%", v->search,
				pct(match_samples(v, 0), all));
	if (len >= 0 && (size_t)len < sizeof(line))
		snprintf(line + len, sizeof(line) - (size_t)len, "  %s", fl->nodes[n].module);
	ui_set(EL_HEADER_VALUE);
	ui_text(y, 0, COLS, line, true);
}

static void draw_flame(struct tui *t, int y, int rows)
{
	struct flame_view *v = fv_of(t);
	char line[512];

	if (!v || !t->snap || !t->snap->cg || t->snap->n_events == 0) {
		ui_set(EL_MISSING);
		ui_text(y, 0, COLS, "no call stacks: run with -g (or --call-graph dwarf|fp)", true);
		ui_set(EL_DEFAULT);
		return;
	}
	ensure_built(t, v);
	if (!v->fl || flame_total(v->fl, 0, 0) == 0) {
		ui_set(EL_MISSING);
		ui_text(y, 0, COLS, v->fl ? "no sample with a stack yet" : "flame: out of memory",
			true);
		ui_set(EL_DEFAULT);
		return;
	}
	ensure_layout(v, COLS, PATH_DEPTH);
	/* frequency mode: the widths are the periods' sums, in their unit */
	snprintf(line, sizeof(line), "flame graph of %s: %llu %s with a stack%s%s",
		 t->snap->ev[0].name, (unsigned long long)flame_total(v->fl, 0, 0),
		 fmt_event_unit(&t->snap->ev[0]),
		 v->zoom ? "  zoomed: " : "", v->zoom ? v->fl->nodes[v->zoom].name : "");
	ui_set(EL_HEADER);
	ui_header(y, line);
	if (y + 1 < rows)
		draw_legend(t, v, y + 1);
	int top = y + HEAD_LINES, height = rows - top - FOOT_LINES;
	if (height < 1)
		return;
	/* the selected frame's row stays on screen */
	int srow = flame_box_of(&v->lay, v->sel);
	srow = srow >= 0 ? v->lay.box[srow].row : 0;
	if (srow < v->top)
		v->top = srow;
	if (srow >= v->top + height)
		v->top = srow - height + 1;
	for (size_t i = 0; i < v->lay.n; i++) {
		const struct flame_box *b = &v->lay.box[i];
		if (b->row >= v->top && b->row < v->top + height && b->w >= 1)
			draw_box(t, v, b, top + b->row - v->top);
	}
	draw_foot(t, v, rows - 1);
	ui_set(EL_DEFAULT);
}

/* ---- keys -------------------------------------------------------------- */

/* Left / right: the neighbour frame on the same row. */
static void move_side(struct flame_view *v, int dir)
{
	int b = flame_box_of(&v->lay, v->sel), best = -1;

	if (b < 0)
		return;
	const struct flame_box *s = &v->lay.box[b];
	for (size_t i = 0; i < v->lay.n; i++) {
		const struct flame_box *o = &v->lay.box[i];
		if (o->row != s->row || o->node < 0 || (int)i == b || (o->x - s->x) * dir <= 0)
			continue;
		if (best < 0 || abs(o->x - s->x) < abs(v->lay.box[best].x - s->x))
			best = (int)i;
	}
	if (best >= 0)
		select_node(v, v->lay.box[best].node);
}

static void move_down(struct flame_view *v)
{
	int b = flame_box_of(&v->lay, v->sel);

	for (size_t i = 0; b >= 0 && i < v->lay.n; i++)
		if (v->lay.box[i].parent_box == b && v->lay.box[i].node >= 0) {
			select_node(v, v->lay.box[i].node);
			return;
		}
}

static void move_up(struct flame_view *v)
{
	if (v->sel > 0)
		select_node(v, v->fl->nodes[v->sel].parent);
}

/* Remembers the zoom shown, for Backspace (the oldest one forgotten when
 * the history is full). */
static void push_zoom(struct flame_view *v)
{
	size_t len = 1;
	for (int i = 0; i < v->zoom_n; i++)
		len += strlen(v->zoom_path[i]) + 1;
	char *j = malloc(len), *p = j;
	if (!j)
		return;
	*p = '\0';
	for (int i = 0; i < v->zoom_n; i++)
		p += sprintf(p, "%s%s", i ? "\x1f" : "", v->zoom_path[i]);
	if (v->nhist == ZOOM_BACK_MAX) {
		free(v->hist[0]);
		memmove(v->hist, v->hist + 1, (ZOOM_BACK_MAX - 1) * sizeof(v->hist[0]));
		v->nhist--;
	}
	v->hist[v->nhist++] = j;
}

static void enter(struct tui *t, struct flame_view *v)
{
	const struct flame_node *n = &v->fl->nodes[v->sel];

	if (v->sel > 0 && n->first_child < 0) {   /* a leaf: its instructions */
		tui_open_view(t, VIEW_ASM, n->name, n->module);
		return;
	}
	if (v->sel == v->zoom)
		return;
	push_zoom(v);
	zoom_node(v, v->sel);
}

/* The zoom shown before, or the parent of the zoom when there is none
 * (a zoom kept from a view opened earlier); at the root: the hotspots. */
static void zoom_out(struct tui *t, struct flame_view *v)
{
	int from = v->zoom, to;

	if (v->nhist > 0) {
		char *joined = v->hist[--v->nhist], *names[PATH_DEPTH];
		int n = 0;
		for (char *p = joined; *p && n < PATH_DEPTH;) {
			names[n++] = p;
			char *end = strchr(p, ZSEP);
			if (!end)
				break;
			*end = '\0';
			p = end + 1;
		}
		to = path_find(v->fl, names, n);
		free(joined);
	} else if (v->zoom == 0) {
		tui_switch_view(t, VIEW_HOTSPOTS);
		return;
	} else {
		to = v->fl->nodes[v->zoom].parent;
	}
	zoom_node(v, to);
	if (!flame_is_ancestor(v->fl, v->zoom, v->sel))
		select_node(v, from);
}


static void cycle_metric(struct tui *t, struct flame_view *v)
{
	v->metric = (v->metric + 1) % (v->nmetrics ? v->nmetrics : 1);
	snprintf(v->metric_name, sizeof(v->metric_name), "%s", metric(v)->name);
	forget_values(v);
	scale(v);
	snprintf(t->message, sizeof(t->message), "colour: %s%s", metric(v)->name,
		 v->nmetrics < 2 ? " (sample a second event, e.g. -e cycles -e cache-misses, "
				   "for a metric)" : "");
}

static bool key_flame(struct tui *t, int key)
{
	struct flame_view *v = fv_of(t);

	if (!v || !t->snap || !t->snap->cg || (ensure_built(t, v), !v->fl)) {
		if (key == 27 || key == 'q' || key == KEY_BACKSPACE || key == 127 || key == 8) {
			tui_switch_view(t, VIEW_HOTSPOTS);
			return true;
		}
		return false;
	}
	ensure_layout(v, COLS, PATH_DEPTH);
	switch (key) {
	case KEY_LEFT: move_side(v, -1); return true;
	case KEY_RIGHT: move_side(v, 1); return true;
	case KEY_UP: move_up(v); return true;
	case KEY_DOWN: move_down(v); return true;
	case KEY_HOME: select_node(v, v->zoom); return true;
	case '\n': case '\r': case KEY_ENTER: enter(t, v); return true;
	case KEY_BACKSPACE: case 127: case 8: case 'u': zoom_out(t, v); return true;
	case 'm': cycle_metric(t, v); return true;
	case 'B': case 'D':   /* a baseline for baseline-delta (from the next refresh) */
		return tui_baseline_key(t, key);
	case '/': case KEY_F(3): tui_prompt(t, PROMPT_FLAME); return true;
	case 'q': case 27: tui_switch_view(t, VIEW_HOTSPOTS); return true;
	default: return false;
	}
}

static void prompt_flame(struct tui *t, enum prompt p, const char *text)
{
	struct flame_view *v = fv_of(t);

	if (p == PROMPT_FLAME)
		snprintf(v->search, sizeof(v->search), "%s", text);
}

/* The graph of the snapshot as it is (NAME and MODULE unused). */
static bool open_flame(struct tui *t, const char *name, const char *module)
{
	(void)name;
	(void)module;
	if (!t->snap || !t->snap->cg) {
		snprintf(t->message, sizeof(t->message),
			 "flame: no call stacks: run with -g (or --call-graph dwarf|fp)");
		return false;
	}
	return true;
}

static void *init_flame(struct tui *t, const struct tui_opts *o)
{
	(void)t;
	(void)o;
	return calloc(1, sizeof(struct flame_view));
}

static void free_flame(void *data)
{
	struct flame_view *v = data;

	flame_free(v->fl);
	free(v->val);
	free(v->have);
	flame_layout_free(&v->lay);
	path_free(v->zoom_path, &v->zoom_n);
	path_free(v->sel_path, &v->sel_n);
	while (v->nhist > 0)
		free(v->hist[--v->nhist]);
	free(v);
}

const struct view_ops view_flame = {
	.name = "flame",
	.hints = "q back  arrows move  Enter zoom (a leaf: asm)  Backspace zoom out  / search  "
		 "m colour metric",
	.init = init_flame,
	.free = free_flame,
	.open = open_flame,
	.draw = draw_flame,
	.key = key_flame,
	.prompt = prompt_flame,
};
