/* The hotspots' rows: which functions are shown (filter, percent floor),
 * their order (an event, the children, the name or the module; I reversed)
 * and the function the selection follows across refreshes; P writes them
 * out as shown. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "engine/callgraph.h"
#include "tui/format.h"
#include "tui/tui.h"
#include "tui/view-hotspots.h"

uint64_t hot_cell(const struct tui *t, const struct snap_func *f, int e)
{
	return t->window ? f->window[e] : f->samples[e];
}

/* The children column: shown with call stacks of the first event, unless
 * C turned it off.  Its sort index comes after the name's and module's. */
bool hot_children_shown(const struct tui *t)
{
	return t->snap && t->snap->cg && t->snap->n_events > 0 &&
	       cg_n_events(t->snap->cg) > 0 && !hv(t)->hide_children;
}

int hot_sort_children_idx(const struct tui *t)
{
	return t->snap ? t->snap->n_events + 2 : 2;
}

/* The samples of the first event whose stack holds F (cumulative: the call
 * graph has no window). */
uint64_t hot_children_of(const struct tui *t, const struct snap_func *f)
{
	uint64_t total = 0;

	cg_function(t->snap->cg, f->name, f->module, 0, NULL, &total);
	return total;
}

double hot_children_pct(const struct tui *t, uint64_t total)
{
	uint64_t n = cg_samples(t->snap->cg, 0);

	return n ? 100.0 * (double)total / (double)n : 0;
}

/* < > cycle through the columns as shown: events, children, function,
 * module.  The function seen selected stays selected wherever the new
 * order puts it (the top row's, before any move). */
void hot_cycle_sort(struct tui *t, int dir)
{
	struct hot_view *h = hv(t);
	int ne = t->snap ? t->snap->n_events : 0, order[EVENTS_MAX + 3], n = 0, at = 0;

	hot_pick_row(t);

	for (int e = 0; e < ne; e++)
		order[n++] = e;
	if (hot_children_shown(t))
		order[n++] = hot_sort_children_idx(t);
	order[n++] = ne;
	order[n++] = ne + 1;
	for (int i = 0; i < n; i++)
		if (order[i] == h->sort)
			at = i;
	h->sort = order[(at + n + dir) % n];
}

/* What compare_rows reads (qsort_r's context). */
struct row_sort {
	const struct tui *t;
	int sort;                   /* the view's */
	const uint64_t *children;   /* per snapshot function, or NULL */
};

static int compare_rows_fwd(const void *a, const void *b, void *ctx)
{
	const struct row_sort *rs = ctx;
	const struct tui *t = rs->t;
	const struct snap_func *x = &t->snap->funcs[*(const int *)a];
	const struct snap_func *y = &t->snap->funcs[*(const int *)b];
	int ne = t->snap->n_events, sort = rs->sort;

	if (sort < ne) {
		uint64_t nx = hot_cell(t, x, sort), ny = hot_cell(t, y, sort);
		if (nx != ny)
			return nx < ny ? 1 : -1;
	} else if (sort == ne + 2 && rs->children) {
		uint64_t nx = rs->children[x - t->snap->funcs];
		uint64_t ny = rs->children[y - t->snap->funcs];
		if (nx != ny)
			return nx < ny ? 1 : -1;
	} else if (sort == ne + 1) {
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
	const struct hot_view *h = hv(t);

	if (h->floor_pct <= 0)
		return true;
	for (int e = 0; e < t->snap->n_events; e++)
		if (snapshot_percent(t->snap, f, e, t->window) >= h->floor_pct)
			return true;
	return false;
}

static bool row_shown(const struct tui *t, const struct snap_func *f)
{
	bool any = false;

	for (int e = 0; e < t->snap->n_events; e++)
		any |= hot_cell(t, f, e) != 0;
	/* a pure caller (no samples of its own) with the children column, as
	 * perf report --children lists it; the call graph has no window */
	if (!any && !t->window && hot_children_shown(t))
		any = hot_children_of(t, f) != 0;
	return any && filter_match(t, f) && above_floor(t, f);
}

static bool rows_current(struct tui *t)
{
	struct hot_view *h = hv(t);

	return h->rows && h->key.gen == t->snap_gen && h->key.sort == h->sort &&
	       h->key.window == t->window && h->key.reverse == t->reverse &&
	       h->key.floor_pct == h->floor_pct &&
	       strcmp(h->key.filter, t->filter) == 0;
}

/* A sort by children: each function's, computed once rather than per
 * comparison (NULL otherwise, or when out of memory: then by name). */
static uint64_t *children_for_sort(const struct tui *t)
{
	uint64_t *children;

	if (hv(t)->sort != hot_sort_children_idx(t) || !hot_children_shown(t) ||
	    !(children = malloc((t->snap->n_funcs + 1) * sizeof(uint64_t))))
		return NULL;
	for (size_t i = 0; i < t->snap->n_funcs; i++)
		children[i] = hot_children_of(t, &t->snap->funcs[i]);
	return children;
}

/* The selection follows a function (name, module), not a row: a refresh
 * or a sort reorders the rows between the user's look and the key.  Row
 * SEL is the one the user sees selected. */
void hot_pick_row(struct tui *t)
{
	struct hot_view *h = hv(t);

	if (!h->rows || h->br.sel < 0 || h->br.sel >= h->nrows)
		return;
	const struct snap_func *f = &t->snap->funcs[h->rows[h->br.sel]];
	if (h->pick.name && strcmp(h->pick.name, f->name) == 0 &&
	    strcmp(h->pick.module, f->module) == 0)
		return;
	char *name = strdup(f->name), *module = strdup(f->module);
	if (!name || !module) {  /* out of memory: the row, as before */
		free(name);
		free(module);
		return;
	}
	free(h->pick.name);
	free(h->pick.module);
	h->pick.name = name;
	h->pick.module = module;
}

/* After the rows were rebuilt: the selection on the picked function's row,
 * wherever it went (left where it was when the function is gone). */
static void find_pick(struct tui *t)
{
	struct hot_view *h = hv(t);

	for (int i = 0; h->pick.name && i < h->nrows; i++) {
		const struct snap_func *f = &t->snap->funcs[h->rows[i]];
		if (strcmp(f->name, h->pick.name) == 0 &&
		    strcmp(f->module, h->pick.module) == 0) {
			h->br.sel = i;
			return;
		}
	}
}

/* Forgets the pick: the next rows start at their top. */
void hot_unpick(struct tui *t)
{
	struct hot_view *h = hv(t);

	free(h->pick.name);
	free(h->pick.module);
	h->pick.name = h->pick.module = NULL;
	h->br.sel = h->br.top = 0;
}

/* Filtering and sorting happen when their inputs change, not per redraw. */
void hot_build_rows(struct tui *t)
{
	struct hot_view *h = hv(t);

	if (rows_current(t))
		return;
	h->key.gen = t->snap_gen;
	h->key.sort = h->sort;
	h->key.window = t->window;
	h->key.reverse = t->reverse;
	h->key.floor_pct = h->floor_pct;
	snprintf(h->key.filter, sizeof(h->key.filter), "%s", t->filter);
	free(h->rows);
	h->rows = NULL;
	h->nrows = 0;
	if (!t->snap || !(h->rows = malloc((t->snap->n_funcs + 1) * sizeof(int))))
		return;
	for (size_t i = 0; i < t->snap->n_funcs; i++)
		if (row_shown(t, &t->snap->funcs[i]))
			h->rows[h->nrows++] = (int)i;
	uint64_t *children = children_for_sort(t);
	struct row_sort rs = { t, h->sort, children };
	qsort_r(h->rows, (size_t)h->nrows, sizeof(int), compare_rows, &rs);
	free(children);
	find_pick(t);
}

/* The function selected: the picked one, in the rows of the snapshot now
 * (rebuilt if it changed since the table was drawn); NULL when none. */
const struct snap_func *hot_selected(struct tui *t)
{
	struct hot_view *h = hv(t);

	if (!t->snap)
		return NULL;
	hot_build_rows(t);
	if (!h->rows || h->br.sel < 0 || h->br.sel >= h->nrows)
		return NULL;
	return &t->snap->funcs[h->rows[h->br.sel]];
}

void hot_find(struct tui *t, const char *text)
{
	struct hot_view *h = hv(t);

	if (!t->snap || !text[0])
		return;
	hot_build_rows(t);
	for (int k = 1; k <= h->nrows; k++) {
		int i = (h->br.sel + k) % h->nrows;
		if (strcasestr(t->snap->funcs[h->rows[i]].name, text)) {
			h->br.sel = i;
			browser_clamp(&h->br);
			hot_pick_row(t);
			return;
		}
	}
	snprintf(t->message, sizeof(t->message), "find: no function shown holds '%s'", text);
}

/* The rows as shown, to OUT: a title, the events' columns (and the
 * children's when shown), the function with its space marker and its
 * module's whole path. */
static void write_rows(struct tui *t, FILE *out)
{
	struct hot_view *h = hv(t);
	const struct snapshot *s = t->snap;
	char when[64], target[sizeof(s->command) + 32];

	fprintf(out, "# cyctop  %s  %s  %s%s%s\n# ",
		fmt_target(target, sizeof(target), s->pid, s->command, s->system_wide),
		tui_time_label(t, when, sizeof(when)), t->window ? "window" : "cumulative",
		t->filter[0] ? "  filter: " : "", t->filter);
	bool children = hot_children_shown(t);

	for (int e = 0; e < s->n_events; e++)
		fprintf(out, "%10.10s%% ", s->ev[e].name);
	if (children)
		fprintf(out, " children%% ");
	fprintf(out, "    FUNCTION  MODULE\n");
	for (int i = 0; i < h->nrows; i++) {
		const struct snap_func *f = &s->funcs[h->rows[i]];
		fprintf(out, "  ");
		for (int e = 0; e < s->n_events; e++)
			fprintf(out, "%9.2f%% ", snapshot_percent(s, f, e, t->window));
		if (children)
			fprintf(out, "%9.2f%% ", hot_children_pct(t, hot_children_of(t, f)));
		fprintf(out, "%s ", fmt_space_marker(f->module));
		fmt_put_escaped(out, f->name, 0);
		fprintf(out, "  ");
		fmt_put_escaped(out, f->module, 0);
		fprintf(out, "\n");
	}
}

void hot_save(struct tui *t)
{
	char name[32];
	int fd = -1;

	if (!t->snap) {
		snprintf(t->message, sizeof(t->message), "P: nothing to write yet");
		return;
	}
	hot_build_rows(t);
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
