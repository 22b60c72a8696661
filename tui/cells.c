/* The cells the hotspots', processes' and cgroups' rows share: events'
 * counts or percents, the active tree's derived columns, the wall seconds. */
#include <curses.h>
#include <math.h>
#include <stdio.h>

#include "arch/derived.h"
#include "engine/offcpu.h"
#include "tui/cells.h"
#include "tui/tui.h"
#include "tui/ui.h"

static int event_index(const struct snapshot *s, const struct arch_model *m, const char *name)
{
	const struct arch_event *want = model_lookup(m, name);

	for (int e = 0; want && e < s->n_events; e++)
		if (model_lookup(m, s->ev[e].name) == want)
			return e;
	return -1;
}

/* The active tree's derived columns whose two events were sampled. */
int tui_derived_columns(const struct tui *t, struct shown_col *out)
{
	const struct arch_model *m = tui_tree_model(t, t->tree_id);
	const struct derived_col *c;
	int n = 0;

	for (size_t i = 0; (c = derived_at(i)) != NULL && n < MAX_DERIVED; i++) {
		if (c->tree != t->tree_id)
			continue;
		int a = event_index(t->snap, m, c->num), b = event_index(t->snap, m, c->den);
		if (a >= 0 && b >= 0)
			out[n++] = (struct shown_col){ c, a, b };
	}
	return n;
}

double tui_derived_value(const struct tui *t, const uint64_t *samples, const uint64_t *window,
			 const struct shown_col *sc)
{
	const struct snap_event *ev = t->snap->ev;
	const uint64_t *n = t->window ? window : samples;
	/* Estimated counts: samples x SAV over the time each event's group was
	 * counted (coverage), so events of different groups compare. */
	double num = (double)n[sc->num] * (double)ev[sc->num].sav / ev[sc->num].coverage;
	double den = (double)n[sc->den] * (double)ev[sc->den].sav / ev[sc->den].coverage;

	if (!ev[sc->num].counted || !ev[sc->den].counted)
		return NAN;

	return derived_value(sc->col, num, den);
}

enum theme_el tui_heat(double pct)
{
	return pct >= 20 ? EL_HOT : pct >= 5 ? EL_WARM : EL_DEFAULT;
}

void tui_event_cell(const struct tui *t, int y, int x, int width, uint64_t count, double pct,
		    bool selected)
{
	char buf[32];

	if (t->show_samples)
		snprintf(buf, sizeof(buf), "%10llu", (unsigned long long)count);
	else
		snprintf(buf, sizeof(buf), "%9.2f%%", pct);
	ui_set(selected ? EL_SELECTED : tui_heat(pct));
	ui_text(y, x, width, buf, true);
}

int tui_derived_cells(const struct tui *t, int y, int x, const uint64_t *samples,
		      const uint64_t *window, const struct shown_col *dc, int nd, bool selected)
{
	char buf[32];

	ui_set(selected ? EL_SELECTED : EL_DEFAULT);
	for (int d = 0; d < nd && x + EVCOL < COLS; d++, x += EVCOL) {
		double v = tui_derived_value(t, samples, window, &dc[d]);
		if (isnan(v))
			snprintf(buf, sizeof(buf), "%10s", "-");
		else
			snprintf(buf, sizeof(buf), "%10.2f", v);
		ui_text(y, x, EVCOL, buf, true);
	}
	return x;
}

/* With off-cpu among the events, two columns of EVCOL: the seconds on and
 * off the CPU (cumulative: the wall time has no window) of process PID's
 * threads, or of thread TID (-1: all of PID's).  "" without off-cpu. */
void tui_wall_cells(const struct tui *t, int64_t pid, int64_t tid, char *buf, size_t n)
{
	struct snap_wall_row w;

	if (!t->snap || !t->snap->wall)
		buf[0] = '\0';
	else if (pid == PROFILE_TID_OTHER || tid == PROFILE_TID_OTHER ||
		 !snap_wall_sum(t->snap->wall, pid, tid, &w))
		snprintf(buf, n, "%11s%11s", "-", "-");
	else
		snprintf(buf, n, " %9.3fs %9.3fs", w.on_ns / 1e9, w.off_ns / 1e9);
}

/* Their heading, as wide ("" without off-cpu). */
const char *tui_wall_heading(const struct tui *t)
{
	return t->snap && t->snap->wall ? "     on-cpu    off-cpu" : "";
}

