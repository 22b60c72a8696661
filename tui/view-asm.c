/* The asm view: one function's instructions with one column per event,
 * stall cycles next to penalty cycles, block and loop header rows, source
 * lines on a toggle, jump arrows for the selected branch. */
#include <curses.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/source.h"
#include "tui/format.h"
#include "tui/tui.h"
#include "tui/ui.h"

#define EVCOL 10
#define CYCOL 10

enum asm_unit { ASM_PERCENT, ASM_SAMPLES, ASM_COUNTS };

/* The view's state: the open function and the way back to callers. */
struct asm_view {
	const struct asm_func *fn;   /* owned by the session's cache */
	struct annotation *ann;
	unsigned built_gen;          /* ann is of snapshot built_gen (t->snap_gen) */
	bool built;
	char name[256], module[512];
	struct browser br;
	int *rows, nrows;            /* instruction, block and source rows */
	bool source, of_total;
	enum asm_unit unit;
	char search[64];
	char status[700];
	struct {
		const struct asm_func *fn;
		long sel;
		char name[256], module[512];
	} stack[16];
	int depth;
	const char *stall_event;     /* --stall: the stall reference */
	struct src_cache *src;       /* source files shown */
};

static struct asm_view *av(const struct tui *t)
{
	return tui_view_data(t, VIEW_ASM);
}

/* Row kinds: an instruction, a block header, a source line. */
enum { ROW_INSN, ROW_BLOCK, ROW_SOURCE };

static int row_kind(int r) { return r & 3; }
static size_t row_insn(int r) { return (size_t)(r >> 2); }
static int make_row(size_t i, int kind) { return (int)(i << 2) | kind; }

static void build_rows(struct asm_view *v)
{
	const struct asm_func *fn = v->fn;
	size_t cap = fn->n * 3 + 1;

	free(v->rows);
	v->nrows = 0;
	v->rows = malloc(cap * sizeof(int));
	if (!v->rows)
		return;
	for (size_t i = 0; i < fn->n; i++) {
		const struct flow *f = &fn->flow;
		if (f->block_of && f->blocks[f->block_of[i]].first == i)
			v->rows[v->nrows++] = make_row(i, ROW_BLOCK);
		if (v->source && asm_line_starts(fn, i))
			v->rows[v->nrows++] = make_row(i, ROW_SOURCE);
		v->rows[v->nrows++] = make_row(i, ROW_INSN);
	}
	v->br.nr = v->nrows;
}

static int row_of_insn(const struct asm_view *v, size_t i)
{
	for (int r = 0; r < v->nrows; r++)
		if (row_kind(v->rows[r]) == ROW_INSN && row_insn(v->rows[r]) == i)
			return r;
	return 0;
}

static void select_insn(struct asm_view *v, long i)
{
	if (i < 0)
		return;
	v->br.sel = row_of_insn(v, (size_t)i);
	if (v->br.sel < v->br.top || v->br.sel >= v->br.top + v->br.height)
		v->br.top = v->br.sel - v->br.height / 3;
	browser_clamp(&v->br);
}

static long selected_insn(const struct asm_view *v)
{
	if (!v->rows || v->br.sel >= v->nrows)
		return -1;
	for (int r = v->br.sel; r < v->nrows; r++)  /* header rows: their instruction */
		if (row_kind(v->rows[r]) == ROW_INSN)
			return (long)row_insn(v->rows[r]);
	return -1;
}

/* ---- data ---------------------------------------------------------- */

static void annotate_now(struct tui *t)
{
	struct asm_view *v = av(t);
	struct ip_counts *ipc = v->fn && v->fn->module ? session_ip_counts(t->sess, v->fn) : NULL;
	uint64_t totals[EVENTS_MAX] = { 0 };
	double coverage[EVENTS_MAX] = { 0 };
	struct annot_opts o = { v->stall_event, &t->pen, coverage };

	for (int e = 0; t->snap && e < t->snap->n_events; e++) {
		totals[e] = t->snap->ev[e].samples;
		coverage[e] = t->snap->ev[e].coverage;
	}
	annotation_free(v->ann);
	v->ann = annotation_new(v->fn, ipc, totals, session_events(t->sess), &o);
	v->built = true;
	v->built_gen = t->snap_gen;
	free(ipc);
}

/* Opens FN (already decoded) for NAME in MODULE. */
static void open_fn(struct tui *t, const struct asm_func *fn, const char *name,
		    const char *module)
{
	struct asm_view *v = av(t);

	v->fn = fn;
	snprintf(v->name, sizeof(v->name), "%s", name);
	snprintf(v->module, sizeof(v->module), "%s", module);
	v->br = (struct browser){ 0 };
	v->br.height = 10;
	if (tui_baseline_shown(t))  /* the deltas are the source lines' */
		v->source = true;
	build_rows(v);
	annotate_now(t);
	if (v->ann)
		select_insn(v, v->ann->hottest);
}

static bool open_asm(struct tui *t, const char *name, const char *module)
{
	char err[512];
	const struct asm_func *fn;

	if (!t->sess) {
		snprintf(t->message, sizeof(t->message), "no live session: nothing to annotate");
		return false;
	}
	fn = session_asm(t->sess, name, module, err, sizeof(err));
	if (!fn) {
		snprintf(t->message, sizeof(t->message), "%s", err);
		return false;
	}
	av(t)->depth = 0;
	open_fn(t, fn, name, module);
	return true;
}

/* Enter on a call: the callee's asm; Esc comes back here. */
static void follow_call(struct tui *t, const struct asm_insn *in)
{
	struct asm_view *v = av(t);
	char err[512];
	const struct asm_func *fn;

	if (in->op.kind != FLOW_CALL && in->op.kind != FLOW_JUMP)
		return;
	if (!in->op.target || (in->op.target >= v->fn->start && in->op.target < v->fn->end)) {
		if (in->op.target)
			select_insn(v, asm_find(v->fn, in->op.target));
		return;
	}
	fn = session_asm_at(t->sess, v->fn, in->op.target, err, sizeof(err));
	if (!fn || (size_t)v->depth >= sizeof(v->stack) / sizeof(v->stack[0])) {
		snprintf(t->message, sizeof(t->message), "%s", fn ? "call chain too deep" : err);
		return;
	}
	v->stack[v->depth].fn = v->fn;
	v->stack[v->depth].sel = selected_insn(v);
	snprintf(v->stack[v->depth].name, sizeof(v->stack[0].name), "%s", v->name);
	snprintf(v->stack[v->depth].module, sizeof(v->stack[0].module), "%s", v->module);
	v->depth++;
	open_fn(t, fn, fn->name, fn->module ? fn->module : v->module);
}

static bool go_back(struct tui *t)
{
	struct asm_view *v = av(t);

	if (v->depth == 0)
		return false;
	v->depth--;
	open_fn(t, v->stack[v->depth].fn, v->stack[v->depth].name, v->stack[v->depth].module);
	select_insn(v, v->stack[v->depth].sel);
	return true;
}

/* ---- cells --------------------------------------------------------- */

static void event_cell(const struct tui *t, const struct annotation *a, size_t i, int e,
		       char *buf, size_t sz)
{
	uint64_t n = annotation_samples(a, i, e);
	uint64_t of = av(t)->of_total ? a->total_samples[e] : a->func_samples[e];

	if (n == 0)
		snprintf(buf, sz, "%*s", EVCOL - 1, "");
	else if (av(t)->unit == ASM_SAMPLES)
		snprintf(buf, sz, "%*" PRIu64, EVCOL - 1, n);
	else if (av(t)->unit == ASM_COUNTS)
		snprintf(buf, sz, "%*.3g", EVCOL - 1, (double)n * a->per_sample[e]);
	else
		snprintf(buf, sz, "%*.2f%%", EVCOL - 2, of ? 100.0 * (double)n / (double)of : 0);
}

static void cycles_cell(double v, char *buf, size_t sz)
{
	if (v > 0)
		snprintf(buf, sz, "%*.3g", CYCOL - 1, v);
	else
		snprintf(buf, sz, "%*s", CYCOL - 1, "");
}

static bool stall_columns(const struct annotation *a)
{
	return a->stall_ev >= 0 || a->has_penalties;
}

static int column_width(const struct annotation *a)
{
	return a->n_events * EVCOL + (stall_columns(a) ? 2 * CYCOL + 7 : 0);
}

/* The arrow column of the selected branch: its target and the rows between. */
static const char *arrow(const struct asm_view *v, size_t i)
{
	long s = selected_insn(v);
	const struct asm_insn *b;
	long target;

	if (s < 0)
		return "  ";
	b = &v->fn->insn[s];
	if (!b->op.target || (target = asm_find(v->fn, b->op.target)) < 0 ||
	    (b->op.kind != FLOW_JUMP && b->op.kind != FLOW_CJUMP))
		return "  ";
	if ((long)i == target)
		return ui_utf8() ? "\u25b6 " : "> ";
	if ((long)i == s)
		return ui_utf8() ? "\u2518 " : "' ";
	if (((long)i > target && (long)i < s) || ((long)i < target && (long)i > s))
		return ui_utf8() ? "\u2502 " : "| ";
	return "  ";
}

/* ---- drawing ------------------------------------------------------- */

static void draw_insn(struct tui *t, int y, size_t i, bool selected)
{
	const struct asm_view *v = av(t);
	const struct annotation *a = v->ann;
	const struct asm_insn *in = &v->fn->insn[i];
	char buf[256];
	int x = 0;
	enum flow_mark mark = annotation_mark(a, i);

	for (int e = 0; e < a->n_events; e++, x += EVCOL) {
		uint64_t n = annotation_samples(a, i, e);
		double share = a->func_samples[e] ? (double)n / (double)a->func_samples[e] : 0;
		event_cell(t, a, i, e, buf, sizeof(buf));
		ui_set(selected ? EL_SELECTED : share >= 0.2 ? EL_HOT : share >= 0.05 ? EL_WARM :
		       EL_DEFAULT);
		ui_text(y, x, EVCOL, buf, true);
	}
	ui_set(selected ? EL_SELECTED : EL_DEFAULT);
	if (stall_columns(a)) {
		cycles_cell(a->stall_cycles[i], buf, sizeof(buf));
		ui_text(y, x, CYCOL, buf, true);
		cycles_cell(a->penalty_cycles[i], buf, sizeof(buf));
		ui_text(y, x + CYCOL, CYCOL, buf, true);
		ui_set(selected ? EL_SELECTED : mark == MARK_STALLED ? EL_BOTTLENECK :
		       mark == MARK_HIDDEN ? EL_MISSING : EL_DEFAULT);
		ui_text(y, x + 2 * CYCOL, 7, flow_mark_name(mark), true);
		ui_set(selected ? EL_SELECTED : EL_DEFAULT);
		x += 2 * CYCOL + 7;
	}
	snprintf(buf, sizeof(buf), "%s%s%12" PRIx64 ":  %s", arrow(v, i),
		 flow_is_back_edge(&v->fn->flow, i) ? (ui_utf8() ? "\u21ba" : "@") : " ",
		 in->op.addr - v->fn->bias, in->text);
	ui_text(y, x, COLS - x, buf, true);
}

/* " ns" or " events" after a sum of event E's samples that weigh their
 * periods (frequency mode); "" after a count of samples. */
static const char *weighed_unit(const struct tui *t, int e)
{
	if (!t->snap || e >= t->snap->n_events || !t->snap->ev[e].nsamples)
		return "";
	return strcmp(fmt_event_unit(&t->snap->ev[e]), "ns") == 0 ? " ns" : " events";
}

static void draw_block(struct tui *t, int y, size_t i)
{
	const struct asm_view *v = av(t);
	const struct annotation *a = v->ann;
	const struct flow *f = &v->fn->flow;
	size_t b = f->block_of[i];
	const struct flow_block *blk = &f->blocks[b];
	char line[512], val[64];
	int n = snprintf(line, sizeof(line), "-- block %zu", b);

	for (int e = 0; e < a->n_events && n < (int)sizeof(line); e++) {
		uint64_t s = 0;
		for (size_t k = blk->first; k <= blk->last; k++)
			s += annotation_samples(a, k, e);
		char name[16];  /* a long name ends with ~ */
		fmt_heading(name, sizeof(name), session_events(t->sess)->ev[e].name, "", 12);
		n += snprintf(line + n, sizeof(line) - (size_t)n, "  %s %" PRIu64 "%s", name, s,
			      weighed_unit(t, e));
	}
	if (stall_columns(a) && n < (int)sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n, "  stall %s  penalty %s  %s",
			      fmt_grouped(val, 32, flow_sum(a->stall_cycles, blk->first, blk->last)),
			      fmt_grouped(val + 32, 32,
					  flow_sum(a->penalty_cycles, blk->first, blk->last)),
			      flow_mark_name((enum flow_mark)a->block_mark[b]));
	for (size_t k = 0; k < f->n_loops && n < (int)sizeof(line); k++) {
		const struct flow_loop *l = &f->loops[k];
		if (l->head != i)
			continue;
		n += snprintf(line + n, sizeof(line) - (size_t)n,
			      "  | loop (depth %d): %zu insns, %u+%u bytes/iter", l->depth, l->n_insns,
			      l->load_bytes, l->store_bytes);
		if (!isnan(a->loop_iters[k]) && n < (int)sizeof(line))
			n += snprintf(line + n, sizeof(line) - (size_t)n, ", ~%s iterations",
				      fmt_grouped(val, sizeof(val), a->loop_iters[k]));
		if (!isnan(a->loop_bus_eff[k]) && n < (int)sizeof(line))
			n += snprintf(line + n, sizeof(line) - (size_t)n, ", bus efficiency %.0f%%",
				      100 * a->loop_bus_eff[k]);
	}
	ui_set(EL_COLUMN);
	ui_text(y, 0, COLS, line, true);
}

static bool same_line(const struct asm_insn *a, const struct asm_insn *b)
{
	const char *fa = strrchr(a->file, '/'), *fb = strrchr(b->file, '/');

	return a->line == b->line && strcmp(fa ? fa + 1 : a->file, fb ? fb + 1 : b->file) == 0;
}

/* With a baseline shown (D): the delta of source line I's samples of
 * event E against the baseline's at the same file:line (instruction
 * addresses do not survive a rebuild; lines mostly do), into BUF; "-"
 * where the baseline cannot say (marked live, counts files, no code). */
static void line_delta(struct tui *t, size_t i, int e, char *buf, size_t sz)
{
	const struct asm_view *v = av(t);
	const struct asm_insn *in = &v->fn->insn[i];
	double then, now = 0;

	if (!baseline_line_count(t->baseline, t->snap, v->name, v->module, e, in->file, in->line,
				 &then)) {
		snprintf(buf, sz, "%*s", EVCOL - 1, "-");
		return;
	}
	for (size_t k = 0; k < v->fn->n; k++)
		if (v->fn->insn[k].file && same_line(&v->fn->insn[k], in))
			now += (double)annotation_samples(v->ann, k, e) * v->ann->per_sample[e];
	baseline_delta_cell(now, then, t->base_mode, buf, sz);
}

static void draw_source(struct tui *t, int y, size_t i)
{
	const struct asm_insn *in = &av(t)->fn->insn[i];
	char line[1024];
	const char *base = strrchr(in->file, '/');
	const char *text = src_cache_line(av(t)->src, in->file, in->line);
	int x = 0;

	ui_set(EL_HEADER_VALUE);
	if (tui_baseline_shown(t)) {  /* the line's delta in the event columns */
		for (int e = 0; e < av(t)->ann->n_events; e++, x += EVCOL) {
			char cell[64];
			line_delta(t, i, e, cell, sizeof(cell));
			const char *c = cell;  /* a column's last cell is a space */
			while (*c == ' ' && strlen(c) > EVCOL - 1)
				c++;
			ui_text(y, x, EVCOL, c, true);
		}
	}
	snprintf(line, sizeof(line), "%*s%s:%d  %s", column_width(av(t)->ann) - x, "",
		 base ? base + 1 : in->file, in->line, text ? text : "");
	ui_text(y, x, COLS - x, line, true);
}

/* What the event cells show, as s and o chose it. */
static const char *cells_name(const struct tui *t, const struct asm_view *v)
{
	/* frequency mode: each sample weighs its period, the cells sum them */
	const char *unit = t->snap && t->snap->n_events ? fmt_event_unit(&t->snap->ev[0])
							: "samples";
	bool weighed = strcmp(unit, "samples") != 0;

	if (v->unit == ASM_SAMPLES)
		return !weighed ? "samples" : strcmp(unit, "ns") == 0 ? "periods summed: ns"
								     : "periods summed: events";
	if (v->unit == ASM_COUNTS)
		return !weighed ? "counts: samples x SAV" : "counts: periods summed";
	return v->of_total ? "% of total" : "% of function";
}

static int draw_asm_header(struct tui *t, int y)
{
	const struct asm_view *v = av(t);
	const struct annotation *a = v->ann;
	const struct ev_list *evs = session_events(t->sess);
	char line[1200];
	int x = 0;

	ui_set(EL_HEADER);
	snprintf(line, sizeof(line), "%s  %s  [%#" PRIx64 ", %#" PRIx64 ")  %zu insns%s%s%s",
		 v->name, v->module, v->fn->start - v->fn->bias, v->fn->end - v->fn->bias, v->fn->n,
		 v->fn->n_bad ? "  (undecodable bytes shown as .byte)" : "",
		 v->fn->truncated ? "  (truncated)" : "",
		 t->snap && t->snap->thread ? "  (samples of all threads)" : "");
	ui_header(y++, line);
	ui_set(EL_COLUMN);
	ui_text(y, 0, COLS, "", true);
	for (int e = 0; e < a->n_events; e++, x += EVCOL) {
		char cut[sizeof(evs->ev[e].name) + 2];  /* a long name ends with ~ */
		fmt_heading(cut, sizeof(cut), evs->ev[e].name, "", EVCOL - 1);
		snprintf(line, sizeof(line), " %s", cut);
		ui_text(y, x, EVCOL, line, true);
	}
	if (stall_columns(a)) {
		ui_text(y, x, CYCOL, a->stall_ev >= 0 ? "   stall" : "   (none)", true);
		ui_text(y, x + CYCOL, CYCOL, " penalty", true);
		ui_text(y, x + 2 * CYCOL, 7, "mark", true);
		x += 2 * CYCOL + 7;
	}
	snprintf(line, sizeof(line), "    address:  instruction    [%s]%s", cells_name(t, v),
		 !tui_baseline_shown(t) ? "" : t->base_mode == BASE_DELTA_PCT
		 ? "  [source lines: delta % of counts against the baseline]"
		 : "  [source lines: delta of counts against the baseline]");
	ui_text(y, x, COLS - x, line, true);
	return y + 1;
}

/* A row of the listing: a block's heading, a source line or an instruction. */
static void draw_row(void *ctx, int r, int y, bool selected)
{
	struct tui *t = ctx;
	size_t i = row_insn(av(t)->rows[r]);

	if (row_kind(av(t)->rows[r]) == ROW_BLOCK)
		draw_block(t, y, i);
	else if (row_kind(av(t)->rows[r]) == ROW_SOURCE)
		draw_source(t, y, i);
	else
		draw_insn(t, y, i, selected);
}

static void draw_asm(struct tui *t, int y, int rows)
{
	struct asm_view *v = av(t);

	if (!v->fn || !v->rows) {
		ui_text(y, 0, COLS, "no function open: Enter on a hotspot row", true);
		return;
	}
	if (!v->built || v->built_gen != t->snap_gen)  /* live: the new samples of this function */
		annotate_now(t);
	if (!v->ann) {
		ui_text(y, 0, COLS, "out of memory", true);
		return;
	}
	y = draw_asm_header(t, y);
	browser_draw(&v->br, y, rows, draw_row, t);
	ui_set(EL_DEFAULT);
}

/* ---- keys ---------------------------------------------------------- */

static void search_next(struct tui *t)
{
	struct asm_view *v = av(t);
	long from = selected_insn(v);

	for (size_t k = 1; v->search[0] && k <= v->fn->n; k++) {
		size_t i = ((size_t)(from < 0 ? 0 : from) + k) % v->fn->n;
		char addr[32];
		snprintf(addr, sizeof(addr), "%" PRIx64, v->fn->insn[i].op.addr - v->fn->bias);
		if (strcasestr(v->fn->insn[i].text, v->search) || strcasestr(addr, v->search)) {
			select_insn(v, (long)i);
			return;
		}
	}
	snprintf(t->message, sizeof(t->message), "'%s' not found", v->search);
}

static void asm_search(struct tui *t, const char *text)
{
	if (text[0])
		snprintf(av(t)->search, sizeof(av(t)->search), "%s", text);
	if (av(t)->fn)
		search_next(t);
}

static bool key_asm(struct tui *t, int key)
{
	struct asm_view *v = av(t);
	long sel;

	if (!v->fn || !v->ann)
		return false;
	if (browser_key(&v->br, key))
		return true;
	sel = selected_insn(v);
	switch (key) {
	case 'H': select_insn(v, v->ann->hottest); return true;
	case '\t': select_insn(v, annotation_next_hot(v->ann, sel, 0, 0.01)); return true;
	case 's': v->unit = (v->unit + 1) % 3; return true;
	case 'o': v->of_total = !v->of_total; return true;
	case 'l':
		v->source = !v->source;
		build_rows(v);
		select_insn(v, sel);
		return true;
	case '/': case KEY_F(3):
		tui_prompt(t, PROMPT_SEARCH);
		return true;
	case 'n': search_next(t); return true;
	case '\n': case '\r': case KEY_ENTER:
		if (sel >= 0)
			follow_call(t, &v->fn->insn[sel]);
		return true;
	case 27: case KEY_BACKSPACE: case KEY_LEFT: case 127: case 8:
		/* back to the caller's asm, and from the first one to the hotspots */
		if (!go_back(t))
			tui_switch_view(t, t->prev == VIEW_FLAME ? VIEW_FLAME : VIEW_HOTSPOTS);
		return true;
	case 'D':
		if (t->baseline && !v->source) {  /* the deltas are the source lines' */
			v->source = true;
			build_rows(v);
			select_insn(v, sel);
		}
		return tui_baseline_key(t, key);
	default:
		return false;
	}
}

static const char asm_hints[] = "Esc back  H hottest  Tab next hot  / search  n next  "
				"Enter call  l lines  s samples  o of-total  D delta";

static const char *status_asm(struct tui *t)
{
	struct asm_view *v = av(t);
	long sel = selected_insn(v);
	const struct asm_insn *in = sel >= 0 ? &v->fn->insn[sel] : NULL;

	if (!in)
		return NULL;
	if (in->file)
		snprintf(v->status, sizeof(v->status), "%s:%d  |  %s", in->file, in->line,
			 asm_hints);
	else
		snprintf(v->status, sizeof(v->status), "no line info  |  %s", asm_hints);
	return v->status;
}

static void prompt_asm(struct tui *t, enum prompt p, const char *text)
{
	if (p == PROMPT_SEARCH)
		asm_search(t, text);
}

static void *init_asm(struct tui *t, const struct tui_opts *o)
{
	struct asm_view *v = calloc(1, sizeof(*v));

	(void)t;
	if (!v)
		return NULL;
	v->stall_event = o->stall_event;
	v->src = src_cache_new();
	return v;
}

static void free_asm(void *data)
{
	struct asm_view *v = data;

	annotation_free(v->ann);
	src_cache_free(v->src);
	free(v->rows);
	free(v);
}

const struct view_ops view_asm = {
	.name = "asm",
	.hints = asm_hints,
	.init = init_asm,
	.free = free_asm,
	.open = open_asm,
	.draw = draw_asm,
	.key = key_asm,
	.status = status_asm,
	.prompt = prompt_asm,
};
