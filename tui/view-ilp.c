/* The ILP histogram: cycles with 0..W uops dispatched, from the CMASK sweep,
 * for the whole process and for the selected function when it was sampled. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arch/ilp.h"
#include "tui/format.h"
#include "tui/tui.h"
#include "tui/ui.h"

static const struct arch_model *ilp_model(const struct tui *t)
{
	return t->model && t->model->ilp_event ? t->model : model_find("core");
}

static bool sweep_from_counts(const struct tui *t, const struct arch_model *m, double *sw)
{
	char name[128];

	for (int k = 1; k <= m->dispatch_width + 1; k++) {
		const struct count_entry *e;
		if (!ilp_step_name(m, k, name, sizeof(name)) ||
		    !(e = counts_find(&t->counts, m, name)) || e->not_counted)
			return false;
		sw[k - 1] = e->value;
	}
	return true;
}

/* Sampled sweep events give a per-function histogram: samples x SAV. */
static bool sweep_from_function(const struct tui *t, const struct arch_model *m, double *sw,
				const struct snap_func **fn)
{
	char name[128];

	if (!t->snap || t->hot.sel >= t->nrows || !t->rows)
		return false;
	*fn = &t->snap->funcs[t->rows[t->hot.sel]];
	for (int k = 1; k <= m->dispatch_width + 1; k++) {
		int found = -1;
		if (!ilp_step_name(m, k, name, sizeof(name)))
			return false;
		const struct arch_event *row = model_lookup(m, name);
		for (int e = 0; row && e < t->snap->n_events; e++)
			if (model_lookup(m, t->snap->ev[e].name) == row)
				found = e;
		if (found < 0 || !t->snap->ev[found].counted)
			return false;
		/* Multiplexed steps ran part of the time each: samples / coverage
		 * estimate what a full-time counter would have sampled. */
		sw[k - 1] = (double)(*fn)->samples[found] * (double)t->snap->ev[found].sav /
			    t->snap->ev[found].coverage;
	}
	return true;
}

static int draw_hist(const struct ilp_hist *h, int y, int rows)
{
	char line[256], val[64];

	for (int k = 0; k <= h->width && y < rows; k++, y++) {
		double pct = h->total > 0 ? 100.0 * h->bins[k] / h->total : 0;
		snprintf(line, sizeof(line), "%d uops %18s cycles %6.1f%%", k,
			 fmt_grouped(val, sizeof(val), h->bins[k]), pct);
		ui_set(h->bins[k] < 0 ? EL_WARNING : EL_DEFAULT);
		ui_text(y, 0, COLS, line, true);
		ui_set(EL_BAR);
		if (COLS > 50)
			ui_bar(y, 44, COLS - 45, pct / 100.0);
	}
	if (y < rows) {
		snprintf(line, sizeof(line), "mean %.3f uops/cycle over %s cycles%s", h->mean,
			 fmt_grouped(val, sizeof(val), h->total),
			 h->negative_bin ? "  (a negative bin: noise or multiplexing)" : "");
		ui_set(EL_HEADER_VALUE);
		ui_text(y++, 0, COLS, line, true);
	}
	return y;
}

static void draw_ilp(struct tui *t, int y, int rows)
{
	const struct arch_model *m = ilp_model(t);
	double sw[ILP_MAX_WIDTH + 1];
	struct ilp_hist h;
	const struct snap_func *fn = NULL;
	char line[512];

	ui_set(EL_HEADER);
	snprintf(line, sizeof(line), "ILP: cycles by uops dispatched (%s:c=1..%d:i=1, model %s)",
		 m->ilp_event, m->dispatch_width + 1, m->name);
	ui_text(y++, 0, COLS, line, true);
	if (sweep_from_counts(t, m, sw) && ilp_from_sweep(sw, m->dispatch_width, &h)) {
		ui_text(y++, 0, COLS, "whole process", true);
		y = draw_hist(&h, y, rows) + 1;
	} else if (y < rows) {
		snprintf(line, sizeof(line), "no ILP data: needs the sweep %s:c=1..%d:i=1 (-e @ilp); "
			 "this source has %s", m->ilp_event, m->dispatch_width + 1,
			 t->sess ? "no such events (host model has none)" : "not all of them");
		ui_set(EL_MISSING);
		ui_text(y++, 0, COLS, line, true);
	}
	if (y < rows && sweep_from_function(t, m, sw, &fn) &&
	    ilp_from_sweep(sw, m->dispatch_width, &h)) {
		snprintf(line, sizeof(line), "function %s", fn->name);
		ui_set(EL_HEADER);
		ui_text(y++, 0, COLS, line, true);
		draw_hist(&h, y, rows);
	}
	ui_set(EL_DEFAULT);
}

static bool key_ilp(struct tui *t, int key)
{
	(void)t;
	(void)key;
	return false;
}

const struct view_ops view_ilp = {
	"ilp",
	"q quit  ? help  t tree  Esc hotspots  T theme",
	draw_ilp,
	key_ilp,
	NULL,
};
