/* The ILP histogram: cycles by the number of uops (ops) each one dispatched,
 * executed or retired, from the model's sweep (arch/ilp.h), in the model's
 * own unit: for the whole process, for a thread (H cycles through them) and
 * for the selected function, each when its sweep events were sampled. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/ilp.h"
#include "engine/pfm.h"
#include "tui/format.h"
#include "tui/tui.h"
#include "tui/ui.h"

static struct tree_ctx ilp_ctx(const struct tui *t, const struct arch_model *m)
{
	return (struct tree_ctx){ .model = m, .pen = &t->pen, .clock_hz = t->clock_hz };
}

/* The model whose sweep the view shows: the source's, else the model the
 * tree view would take for the counts (a counts file read on a host of
 * another model: `cyctop tree -A TREE` of it), else the source's again (to
 * say what is missing). */
static const struct arch_model *ilp_model(const struct tui *t)
{
	struct ilp_hist h;

	if (ilp_has_sweep(t->model))
		return t->model;
	for (int tr = 0; tr < TREE_COUNT; tr++) {
		if (!tree_def_get((enum arch_tree)tr))
			continue;
		const struct arch_model *m =
			tree_default_model(tree_def_pick((enum arch_tree)tr, NULL, &t->counts));
		struct tree_ctx ctx = ilp_ctx(t, m);
		if ((ilp_has_sweep(m) || arm_ilp_event(m)) && m->tree == tr &&
		    ilp_eval(&ctx, &t->counts, &h))
			return m;
	}
	return t->model;
}

/* Sampled events as counts: samples x SAV / coverage each (multiplexed
 * events ran part of the time: the estimate of a full-time counter). */
static void counts_of_samples(const struct snapshot *s, const uint64_t *samples,
			      struct counts *c)
{
	counts_init(c);
	for (int e = 0; e < s->n_events; e++)
		if (s->ev[e].counted && s->ev[e].sav && s->ev[e].coverage > 0)
			counts_add(c, s->ev[e].name,
				   (double)samples[e] * (double)s->ev[e].sav / s->ev[e].coverage,
				   0);
}

static bool hist_of_samples(const struct tui *t, const struct arch_model *m,
			    const uint64_t *samples, struct ilp_hist *h)
{
	struct tree_ctx ctx = ilp_ctx(t, m);
	struct counts c;

	counts_of_samples(t->snap, samples, &c);
	bool ok = ilp_eval(&ctx, &c, h);
	counts_free(&c);
	return ok;
}

/* The first word of the unit: "uops", "ops". */
static void unit_word(const struct ilp_hist *h, char *buf, size_t sz)
{
	snprintf(buf, sz, "%.*s", (int)strcspn(h->unit, " "), h->unit[0] ? h->unit : "uops");
}

static int draw_hist(const struct ilp_hist *h, int y, int rows)
{
	char line[256], val[64], word[ILP_UNIT_MAX];

	unit_word(h, word, sizeof(word));
	for (int k = 0; k <= h->width && y < rows; k++, y++) {
		double pct = h->total > 0 ? 100.0 * h->bins[k] / h->total : 0;
		snprintf(line, sizeof(line), "%2d %-4s %18s cycles %6.1f%%", k, word,
			 fmt_grouped(val, sizeof(val), h->bins[k]), pct);
		ui_set(h->bins[k] < 0 ? EL_WARNING : EL_DEFAULT);
		ui_text(y, 0, COLS, line, true);
		ui_set(EL_BAR);
		if (COLS > 50)
			ui_bar(y, 44, COLS - 45, pct / 100.0);
	}
	if (y < rows) {
		snprintf(line, sizeof(line), "mean %.3f %s/cycle over %s cycles%s", h->mean, word,
			 fmt_grouped(val, sizeof(val), h->total),
			 h->negative_bin ? "  (a negative bin: noise or multiplexing)" : "");
		ui_set(EL_HEADER_VALUE);
		ui_text(y++, 0, COLS, line, true);
	}
	return y;
}

static int draw_line(int y, int rows, enum theme_el el, const char *text)
{
	if (y < rows) {
		ui_set(el);
		ui_text(y++, 0, COLS, text, true);
	}
	return y;
}

/* A live watch on a host whose model has no hardware tables (no PMU). */
static bool host_without_pmu(const struct tui *t)
{
	return t->sess && !session_is_recorded(t->sess) && !model_is_hardware(t->model);
}

/* A live session on an Arm host whose PMU has a counter threshold: its
 * sweep (-e @ilp) gives the histogram the model's no_ilp line denies. */
static bool live_threshold(const struct tui *t)
{
	return t->sess && !session_is_recorded(t->sess) && arm_th_usable(pfm_host_threshold(session_events(t->sess)->host));
}

/* Why there is no histogram, in one line. */
static void no_data_line(const struct tui *t, const struct arch_model *m, char *line, size_t sz)
{
	char sweep[128];

	if (host_without_pmu(t))
		snprintf(line, sz, "this host has no hardware counters: cyctop -i a counts file or "
			 "recording of -e @ilp from a machine with a PMU");
	else if (arm_ilp_event(m) && live_threshold(t))
		snprintf(line, sz, "no ILP data: needs the sweep %s:th=1..N (-e @ilp; this host's "
			 "PMU has a counter threshold)", arm_ilp_event(m));
	else if (!ilp_has_sweep(m) && m && m->no_ilp)
		snprintf(line, sz, "%s (model %s)", m->no_ilp, m->name);
	else if (!ilp_has_sweep(m))
		snprintf(line, sz, "no ILP histogram: model %s has no sweep (cyctop list models)",
			 m ? m->name : "?");
	else {
		ilp_sweep_text(m, sweep, sizeof(sweep));
		snprintf(line, sz, "no ILP data: needs the sweep %s (-e @ilp); %s", sweep,
			 !t->sess ? "the counts files have not all of it"
				  : "this session has not all of it");
	}
}

static void title_line(const struct tui *t, const struct arch_model *m, const char *unit,
		       char *line, size_t sz)
{
	char sweep[128];

	if (!ilp_has_sweep(m) || host_without_pmu(t)) {
		snprintf(line, sz, "ILP histogram (model %s)", m ? m->name : "?");
		return;
	}
	ilp_sweep_text(m, sweep, sizeof(sweep));
	snprintf(line, sz, "ILP: cycles by %s (%s, model %s)", unit, sweep, m->name);
}

/* The view's state: the thread it shows (H), 0: none. */
struct ilp_view {
	uint32_t tid;
};

static struct ilp_view *iv(const struct tui *t)
{
	return tui_view_data(t, VIEW_ILP);
}

/* The thread the view shows, or NULL: its tid among the snapshot's. */
static const struct snap_thread *shown_thread(const struct tui *t)
{
	for (size_t i = 0; iv(t)->tid && t->snap && i < t->snap->n_threads; i++)
		if (t->snap->threads[i].tid == iv(t)->tid)
			return &t->snap->threads[i];
	return NULL;
}

static void draw_ilp(struct tui *t, int y, int rows)
{
	const struct arch_model *m = ilp_model(t);
	struct tree_ctx ctx = ilp_ctx(t, m);
	struct ilp_hist h;
	char line[512];
	char unit[ILP_UNIT_MAX];
	bool whole = ilp_eval(&ctx, &t->counts, &h);

	ilp_unit(m, unit, sizeof(unit));
	title_line(t, m, unit, line, sizeof(line));
	y = draw_line(y, rows, EL_HEADER, line);
	if (whole) {
		y = draw_line(y, rows, EL_HEADER, "whole process");
		y = draw_hist(&h, y, rows) + 1;
	} else {
		no_data_line(t, m, line, sizeof(line));
		y = draw_line(y, rows, EL_MISSING, line);
	}
	const struct snap_thread *th = shown_thread(t);
	if (th && y < rows) {
		snprintf(line, sizeof(line), "thread %u (%s)", th->tid,
			 th->comm[0] ? th->comm : "?");
		y = draw_line(y, rows, EL_HEADER, line);
		if (hist_of_samples(t, m, th->samples, &h))
			y = draw_hist(&h, y, rows) + 1;
		else
			y = draw_line(y, rows, EL_MISSING,
				      "no histogram: the thread's sweep events were not sampled");
	}
	const struct snap_func *fn = y < rows ? tui_hot_selected(t) : NULL;
	if (fn) {
		if (hist_of_samples(t, m, fn->samples, &h)) {
			snprintf(line, sizeof(line), "function %s", fn->name);
			y = draw_line(y, rows, EL_HEADER, line);
			draw_hist(&h, y, rows);
		}
	}
	ui_set(EL_DEFAULT);
}

/* H: the next thread of the snapshot (after the last, the process alone). */
static void next_thread(struct tui *t)
{
	const struct snapshot *s = t->snap;
	size_t i = 0;

	if (!s || !s->n_threads) {
		snprintf(t->message, sizeof(t->message), "no threads with samples");
		return;
	}
	if (iv(t)->tid) {
		while (i < s->n_threads && s->threads[i].tid != iv(t)->tid)
			i++;
		i++;
	}
	iv(t)->tid = i < s->n_threads ? s->threads[i].tid : 0;
}

static bool key_ilp(struct tui *t, int key)
{
	if (key == 'H') {
		next_thread(t);
		return true;
	}
	return false;
}

static void *init_ilp(struct tui *t, const struct tui_opts *o)
{
	(void)t;
	(void)o;
	return calloc(1, sizeof(struct ilp_view));
}

const struct view_ops view_ilp = {
	.name = "ilp",
	.hints = "q quit  ? help  t tree  H next thread  Esc hotspots  T theme",
	.init = init_ilp,
	.free = free,
	.draw = draw_ilp,
	.key = key_ilp,
};
