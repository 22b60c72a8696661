/* cyctop diff BASE NEW (issue 29): before and after, with the statistics to
 * trust it.  Sessions (perf.data, pprof) are compared per function (matched
 * by name and module basename: addresses move between builds), per module
 * and per thread (by command name); counts files (and, with -A, the counts
 * of sessions) per node of a metric tree.  The numbers and their intervals
 * come from engine/diff.h; this file reads the inputs and writes text, csv
 * or json. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hashtab.h"
#include "arch/tree.h"
#include "engine/counts-file.h"
#include "engine/diff.h"
#include "engine/disasm.h"
#include "engine/perfdata.h"
#include "engine/pprof.h"
#include "engine/session.h"
#include "tui/cmd.h"
#include "tui/format.h"
#include "tui/json.h"
#include "tui/opt.h"
#include "tui/ui.h"

struct diff_opts {
	bool runs;                  /* -b: several runs a side, "--" between */
	bool lines;                 /* -l: source lines of the top functions */
	enum out_format format;
	struct session_file_opts in;  /* --symfs, --model */
	const char *sort;           /* --sort EVENT */
	enum arch_tree tree;        /* -A */
	const struct arch_model *model;  /* --tree-model */
	const char *penalties;
	double clock_hz;
	char **base, **new_;
	int nb, nn;
};

/* One input file read as a session: its snapshot and its rows. */
struct run_in {
	const char *path;
	struct session *s;
	struct snapshot *snap;
	int ev[EVENTS_MAX];         /* the compared event e is this run's ev[e] */
	double period[EVENTS_MAX];  /* mean period of a sample of compared event e */
	uint64_t nsamples[EVENTS_MAX]; /* samples of compared event e (0: not known) */
	double total[EVENTS_MAX];   /* absolute count of compared event e */
	struct diff_obs *funcs, *mods, *threads, *all;
	size_t nf, nm, nt;
};

struct side {
	const char *label;          /* "base", "new" */
	char **paths;
	int n;
	struct run_in *runs;
};

struct diff_ctx {
	const struct diff_opts *o;
	struct side base, new_;
	int n_events;
	char names[EVENTS_MAX][EVENT_NAME_MAX];  /* the compared events */
	int sort_ev;
	struct diff_table funcs, mods, threads, total;
	/* -l: the source lines of funcs.rows[0 .. n_lines - 1] */
	size_t n_lines;
	struct diff_table *lines;
	struct strpool pool;        /* the lines' "file:line" names */
};

/* -l: the functions given source lines, the first rows by |delta| (each
 * needs its code decoded in every run) */
#define LINES_TOP 20

/* ---- reading sessions -------------------------------------------------- */

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	/* "[vdso]", "[kernel.kallsyms]" have no directory */
	return slash && path[0] != '[' ? slash + 1 : path;
}

/* Samples per attr of a perf.data file: in frequency mode a sample's
 * period varies and the session keeps only their sum, so the mean period
 * (for the variance n * P^2) is that sum over the number of samples. */
static void count_samples(const char *path, uint64_t *n, size_t max)
{
	char err[256];
	struct perfdata *pd = perfdata_open(path, err, sizeof(err));
	const struct perf_event_header *h;
	uint64_t off;

	if (!pd)
		return;
	while (perfdata_next(pd, &h, &off, err, sizeof(err)) == 1) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		int a = perfdata_record_attr(pd, h);
		if (a >= 0 && (size_t)a < max)
			n[a]++;
	}
	perfdata_close(pd);
}

static int open_run(struct run_in *r, const struct diff_opts *o)
{
	char err[512];
	struct session_file_opts in = o->in;

	in.path = r->path;
	r->s = session_is_pprof(r->path) ? session_open_pprof(r->path, err, sizeof(err))
					 : session_open_file(&in, err, sizeof(err));
	if (!r->s) {
		cmd_error("%s", err);
		return -1;
	}
	while (!ui_pending_signal() && !session_poll(r->s, 100))
		;
	session_poll(r->s, 0);
	r->snap = session_snapshot(r->s);
	if (!r->snap) {
		cmd_error("%s: out of memory", r->path);
		return -1;
	}
	return 0;
}

static int event_index(const struct snapshot *snap, const char *name)
{
	for (int e = 0; e < snap->n_events; e++)
		if (strcmp(snap->ev[e].name, name) == 0)
			return e;
	return -1;
}

/* The events of the first base run that every run of both sides has. */
static int common_events(struct diff_ctx *d)
{
	const struct snapshot *first = d->base.runs[0].snap;
	struct side *sides[2] = { &d->base, &d->new_ };

	d->n_events = 0;
	for (int e = 0; e < first->n_events; e++) {
		bool everywhere = true;
		for (int s = 0; s < 2 && everywhere; s++)
			for (int r = 0; r < sides[s]->n && everywhere; r++)
				everywhere = event_index(sides[s]->runs[r].snap, first->ev[e].name) >= 0;
		if (!everywhere)
			continue;
		snprintf(d->names[d->n_events], EVENT_NAME_MAX, "%s", first->ev[e].name);
		for (int s = 0; s < 2; s++)
			for (int r = 0; r < sides[s]->n; r++) {
				struct run_in *ri = &sides[s]->runs[r];
				ri->ev[d->n_events] = event_index(ri->snap, first->ev[e].name);
			}
		d->n_events++;
	}
	if (!d->n_events) {
		cmd_error("diff: %s and %s have no event in common", d->base.paths[0],
			  d->new_.paths[0]);
		return -1;
	}
	return 0;
}

/* What one sample of each compared event weighs on average.  A fixed
 * period is the event's SAV; frequency-mode (perf record -F) and pprof
 * values weigh what they carry: their sum over the number of samples
 * (perf.data: counted in the file; pprof: its "samples" value type, else 1,
 * the values being counts). */
static void run_periods(struct run_in *r, int n_events)
{
	uint64_t per_attr[EVENTS_MAX] = { 0 };
	int samples_ev = -1;

	if (session_is_perfdata(r->path))
		count_samples(r->path, per_attr, EVENTS_MAX);
	else
		for (int e = 0; e < r->snap->n_events && samples_ev < 0; e++)
			if (strncmp(r->snap->ev[e].name, "samples", 7) == 0)
				samples_ev = e;
	for (int e = 0; e < n_events; e++) {
		const struct snap_event *ev = &r->snap->ev[r->ev[e]];
		double cov = ev->coverage > 0 && ev->coverage < 1 ? ev->coverage : 1;
		r->total[e] = (double)ev->samples * (double)ev->sav / cov;
		r->nsamples[e] = ev->sav > 1 ? ev->samples : per_attr[r->ev[e]];
		if (samples_ev >= 0)
			r->nsamples[e] = r->snap->ev[samples_ev].samples;
		r->period[e] = ev->sav > 1 ? (double)ev->sav
			     : r->nsamples[e] ? (double)ev->samples / (double)r->nsamples[e] : 1;
	}
}

/* Row SAMPLES[] (this run's events) as an observation of the compared
 * events: count = samples x SAV (scaled up by the coverage when the event
 * was multiplexed), variance = count x mean period (n P^2, over the
 * coverage twice). */
static void observe(const struct run_in *r, int n_events, const uint64_t *samples,
		    struct diff_obs *o)
{
	for (int e = 0; e < n_events; e++) {
		const struct snap_event *ev = &r->snap->ev[r->ev[e]];
		double cov = ev->coverage > 0 && ev->coverage < 1 ? ev->coverage : 1;
		o->count[e] = (double)samples[r->ev[e]] * (double)ev->sav / cov;
		o->var[e] = o->count[e] * r->period[e] / cov;
	}
}

static int run_rows(struct run_in *r, int n_events)
{
	const struct snapshot *s = r->snap;
	size_t n = s->n_funcs + s->n_modules + s->n_threads;

	r->all = calloc(n ? n : 1, sizeof(*r->all));
	if (!r->all) {
		cmd_error("out of memory");
		return -1;
	}
	r->funcs = r->all;
	for (size_t i = 0; i < s->n_funcs; i++) {
		r->funcs[r->nf] = (struct diff_obs){ .name = s->funcs[i].name,
						     .module = base_name(s->funcs[i].module) };
		observe(r, n_events, s->funcs[i].samples, &r->funcs[r->nf++]);
	}
	r->mods = r->funcs + r->nf;
	for (size_t i = 0; i < s->n_modules; i++) {
		r->mods[r->nm] = (struct diff_obs){ .name = base_name(s->modules[i].module), .module = "" };
		observe(r, n_events, s->modules[i].samples, &r->mods[r->nm++]);
	}
	/* threads by command name: thread ids do not survive a rerun */
	r->threads = r->mods + r->nm;
	for (size_t i = 0; i < s->n_threads; i++) {
		const struct snap_thread *t = &s->threads[i];
		const char *comm = t->tid == PROFILE_TID_OTHER ? "[other threads]"
				   : t->comm[0] ? t->comm : "[unnamed]";
		r->threads[r->nt] = (struct diff_obs){ .name = comm, .module = "" };
		observe(r, n_events, t->samples, &r->threads[r->nt++]);
	}
	return 0;
}

static int open_side(struct side *sd, const struct diff_opts *o)
{
	sd->runs = calloc((size_t)sd->n, sizeof(*sd->runs));
	if (!sd->runs) {
		cmd_error("out of memory");
		return -1;
	}
	for (int r = 0; r < sd->n; r++) {
		sd->runs[r].path = sd->paths[r];
		if (open_run(&sd->runs[r], o) < 0)
			return -1;
	}
	return 0;
}

static void close_side(struct side *sd)
{
	for (int r = 0; sd->runs && r < sd->n; r++) {
		free(sd->runs[r].all);
		snapshot_free(sd->runs[r].snap);
		session_close(sd->runs[r].s);
	}
	free(sd->runs);
}

/* LEVEL's runs of side SD (0 functions, 1 modules, 2 threads, 3 total). */
static struct diff_run *level_runs(const struct side *sd, int level, struct diff_obs *totals,
				   int n_events)
{
	struct diff_run *runs = calloc((size_t)sd->n, sizeof(*runs));

	for (int r = 0; runs && r < sd->n; r++) {
		const struct run_in *ri = &sd->runs[r];
		for (int e = 0; e < n_events; e++)
			runs[r].period[e] = ri->period[e];
		if (level == 0)
			runs[r].n = ri->nf, runs[r].obs = ri->funcs;
		else if (level == 1)
			runs[r].n = ri->nm, runs[r].obs = ri->mods;
		else if (level == 2)
			runs[r].n = ri->nt, runs[r].obs = ri->threads;
		else
			runs[r].n = 1, runs[r].obs = &totals[r];
	}
	return runs;
}

static void fill_totals(const struct side *sd, int n_events, struct diff_obs *totals)
{
	for (int r = 0; r < sd->n; r++) {
		totals[r] = (struct diff_obs){ .name = "[total]", .module = "" };
		for (int e = 0; e < n_events; e++) {
			totals[r].count[e] = sd->runs[r].total[e];
			totals[r].var[e] = sd->runs[r].total[e] * sd->runs[r].period[e];
		}
	}
}

static int build_tables(struct diff_ctx *d)
{
	struct diff_table *tables[4] = { &d->funcs, &d->mods, &d->threads, &d->total };
	struct diff_obs *tb = calloc((size_t)d->base.n, sizeof(*tb));
	struct diff_obs *tn = calloc((size_t)d->new_.n, sizeof(*tn));
	char err[256];
	int rc = 0;

	if (!tb || !tn)
		rc = -1;
	else {
		fill_totals(&d->base, d->n_events, tb);
		fill_totals(&d->new_, d->n_events, tn);
	}
	for (int l = 0; l < 4 && rc == 0; l++) {
		struct diff_run *rb = level_runs(&d->base, l, tb, d->n_events);
		struct diff_run *rn = level_runs(&d->new_, l, tn, d->n_events);
		if (!rb || !rn || diff_build(rb, d->base.n, rn, d->new_.n, d->n_events, d->sort_ev,
					     tables[l], err, sizeof(err)) < 0) {
			cmd_error("diff: %s", rb && rn ? err : "out of memory");
			rc = -1;
		}
		free(rb);
		free(rn);
	}
	free(tb);
	free(tn);
	return rc;
}

/* ---- source lines (-l) ------------------------------------------------- */

/* The module of function NAME whose basename is MODBASE in run R, or NULL. */
static const char *run_module(const struct run_in *r, const char *name, const char *modbase)
{
	for (size_t i = 0; i < r->snap->n_funcs; i++)
		if (strcmp(r->snap->funcs[i].name, name) == 0 &&
		    strcmp(base_name(r->snap->funcs[i].module), modbase) == 0)
			return r->snap->funcs[i].module;
	return NULL;
}

/* The samples of function ROW in run R, one observation per sampled
 * address named "file:line" (file's basename; "[no line]" without DWARF
 * lines): diff_build adds up those of one line.  Instruction addresses do
 * not survive a rebuild; lines mostly do. */
static int run_lines(struct run_in *r, int n_events, const struct diff_row *row,
		     struct strpool *pool, struct diff_run *out)
{
	char err[256], label[512];
	const char *module = run_module(r, row->name, row->module);

	*out = (struct diff_run){ 0 };
	for (int e = 0; e < n_events; e++)
		out->period[e] = r->period[e];
	const struct asm_func *fn = module ? session_asm(r->s, row->name, module, err,
							 sizeof(err)) : NULL;
	struct ip_counts *ipc = fn ? session_ip_counts(r->s, fn) : NULL;
	if (!ipc)
		return 0;  /* no code or no samples here: no lines, said by the row */
	struct diff_obs *obs = calloc(ipc->n ? ipc->n : 1, sizeof(*obs));
	if (!obs) {
		free(ipc);
		return -1;
	}
	for (size_t i = 0; i < ipc->n; i++) {
		long k = asm_find(fn, ipc->ips[i].ip);
		if (k >= 0 && fn->insn[k].file)
			snprintf(label, sizeof(label), "%s:%d", base_name(fn->insn[k].file),
				 fn->insn[k].line);
		else
			snprintf(label, sizeof(label), "[no line]");
		obs[i].name = strpool_intern(pool, label);
		obs[i].module = "";
		if (!obs[i].name) {
			free(obs);
			free(ipc);
			return -1;
		}
		observe(r, n_events, ipc->ips[i].samples, &obs[i]);
	}
	out->n = ipc->n;
	out->obs = obs;
	free(ipc);
	return 0;
}

static int side_lines(const struct side *sd, int n_events, const struct diff_row *row,
		      struct strpool *pool, struct diff_run *runs)
{
	for (int r = 0; r < sd->n; r++)
		if (run_lines(&sd->runs[r], n_events, row, pool, &runs[r]) < 0)
			return -1;
	return 0;
}

static void free_runs(struct diff_run *runs, int n)
{
	for (int r = 0; runs && r < n; r++)
		free((void *)runs[r].obs);
	free(runs);
}

static int build_lines(struct diff_ctx *d)
{
	char err[256];

	d->n_lines = d->funcs.n < LINES_TOP ? d->funcs.n : LINES_TOP;
	d->lines = calloc(d->n_lines ? d->n_lines : 1, sizeof(*d->lines));
	if (!d->lines)
		goto oom;
	for (size_t i = 0; i < d->n_lines; i++) {
		const struct diff_row *row = &d->funcs.rows[i];
		struct diff_run *rb = calloc((size_t)d->base.n, sizeof(*rb));
		struct diff_run *rn = calloc((size_t)d->new_.n, sizeof(*rn));
		int rc = !rb || !rn ? -1
			 : side_lines(&d->base, d->n_events, row, &d->pool, rb) < 0 ||
			   side_lines(&d->new_, d->n_events, row, &d->pool, rn) < 0 ? -1
			 : diff_build(rb, d->base.n, rn, d->new_.n, d->n_events, d->sort_ev,
				      &d->lines[i], err, sizeof(err));
		free_runs(rb, d->base.n);
		free_runs(rn, d->new_.n);
		if (rc < 0)
			goto oom;
	}
	return 0;
oom:
	cmd_error("diff: out of memory");
	return -1;
}

/* ---- writing ----------------------------------------------------------- */

static const char *method_name(enum diff_method m)
{
	return m == DIFF_RUNS ? "runs" : "sampling";
}

static double side_mean_total(const struct side *sd, int e)
{
	double s = 0;

	for (int r = 0; r < sd->n; r++)
		s += sd->runs[r].total[e];
	return s / sd->n;
}

/* perf diff's Baseline: the row's share of the base's total (percent). */
static double share(double count, double total)
{
	return total > 0 ? 100 * count / total : NAN;
}

static const char *only_of(const struct diff_row *row)
{
	return !row->in_new ? "base" : !row->in_base ? "new" : NULL;
}

static void text_row(const struct diff_ctx *d, const struct diff_row *row, int e, int level)
{
	const struct diff_stat *st = &row->ev[e];
	double tb = side_mean_total(&d->base, e), tn = side_mean_total(&d->new_, e);
	char pct[32];

	if (st->base == 0 && st->new_ == 0)
		return;
	if (isfinite(st->delta_pct))
		snprintf(pct, sizeof(pct), "%+.1f%%", st->delta_pct);
	else
		snprintf(pct, sizeof(pct), "new");
	printf("%8.2f%% %+8.2f%% %16.0f %16.0f %+16.0f %8s  [%+.0f, %+.0f] %-3s ",
	       share(st->base, tb), share(st->new_, tn) - share(st->base, tb), st->base, st->new_,
	       st->delta, pct, st->low, st->high, st->significant ? "*" : "");
	fmt_put_escaped(stdout, row->name, 0);
	if (level == 0) {
		printf("  ");
		fmt_put_escaped(stdout, row->module, 0);
	}
	if (only_of(row))
		printf("  (%s only)", only_of(row));
	printf("\n");
}

static void text_side(const struct side *sd, const struct diff_ctx *d)
{
	printf("# %-4s:", sd->label);
	for (int r = 0; r < sd->n; r++) {
		printf(" ");
		fmt_put_escaped(stdout, sd->paths[r], 0);
	}
	printf("\n");
	for (int e = 0; e < d->n_events; e++) {
		printf("#        %s: total %.0f", d->names[e], side_mean_total(sd, e));
		if (sd->n == 1 && sd->runs[0].nsamples[e])
			printf(" (%" PRIu64 " samples, mean period %.0f)", sd->runs[0].nsamples[e],
			       sd->runs[0].period[e]);
		else if (sd->n > 1)
			printf(" (mean of %d runs)", sd->n);
		printf("\n");
	}
}

static void print_text(const struct diff_ctx *d)
{
	static const char *const levels[] = { "functions", "modules", "threads (by command)" };
	const struct diff_table *tables[3] = { &d->funcs, &d->mods, &d->threads };

	text_side(&d->base, d);
	text_side(&d->new_, d);
	if (d->funcs.method == DIFF_RUNS)
		printf("# method: runs (Welch's t on %d and %d runs: the interval includes the "
		       "run-to-run spread)\n", d->base.n, d->new_.n);
	else
		printf("# method: sampling (one run a side: the interval covers sampling noise "
		       "only, not run-to-run variation; -b for runs)\n");
	printf("# counts are samples x period; * marks a delta whose 95%% interval excludes 0\n");
	for (int e = 0; e < d->n_events; e++) {
		const struct diff_stat *t = &d->total.rows[0].ev[e];
		printf("\n# event %s: total %+.0f (%+.1f%%), 95%% interval [%+.0f, %+.0f]%s\n",
		       d->names[e], t->delta, t->delta_pct, t->low, t->high,
		       t->significant ? " *" : "");
		for (int l = 0; l < 3; l++) {
			printf("\n# %s\n# %8s %9s %16s %16s %16s %8s  %s\n", levels[l], "Baseline",
			       "Delta", "Base", "New", "Delta", "Delta%",
			       l == 0 ? "[95% interval] Sig Symbol  Shared Object"
				      : "[95% interval] Sig Name");
			for (size_t i = 0; i < tables[l]->n; i++)
				text_row(d, &tables[l]->rows[i], e, l);
		}
		if (d->n_lines)
			printf("\n# source lines of the %zu functions with the largest |delta| "
			       "(-l)\n", d->n_lines);
		for (size_t i = 0; i < d->n_lines; i++) {
			printf("## ");
			fmt_put_escaped(stdout, d->funcs.rows[i].name, 0);
			printf("  ");
			fmt_put_escaped(stdout, d->funcs.rows[i].module, 0);
			printf("%s\n", d->lines[i].n ? "" : "  (no code or no line table)");
			for (size_t k = 0; k < d->lines[i].n; k++)
				text_row(d, &d->lines[i].rows[k], e, 1);
		}
	}
}

/* Row ROW of level LEVEL; a source line's (FN non-NULL) carries its
 * function's name and module and the line in the last column. */
static void csv_row(const struct diff_ctx *d, const char *level, const struct diff_row *row,
		    const struct diff_row *fn)
{
	for (int e = 0; e < d->n_events; e++) {
		const struct diff_stat *st = &row->ev[e];
		if (st->base == 0 && st->new_ == 0)
			continue;
		printf("%s,", level);
		fmt_csv_field(stdout, fn ? fn->name : row->name);
		putchar(',');
		fmt_csv_field(stdout, fn ? fn->module : row->module);
		putchar(',');
		fmt_csv_field(stdout, d->names[e]);
		printf(",%.15g,%.15g,%.15g,", st->base, st->new_, st->delta);
		if (isfinite(st->delta_pct))
			printf("%.6g", st->delta_pct);
		printf(",%.15g,%.15g,%.15g,%s,%s,%.6g,%.6g,,", st->low, st->high, st->sd,
		       st->significant ? "yes" : "no", only_of(row) ? only_of(row) : "",
		       share(st->base, side_mean_total(&d->base, e)),
		       share(st->new_, side_mean_total(&d->new_, e)));
		if (fn)
			fmt_csv_field(stdout, row->name);
		putchar('\n');
	}
}

/* One header for every row: tree rows put the node's id in name, its
 * parent's in module, its unit in event, and fill "additive". */
static const char csv_header[] =
	"level,name,module,event,base,new,delta,delta_percent,low,high,sd,significant,only,"
	"base_percent,new_percent,additive,line\n";
#define csv_header_tree csv_header

static void print_csv(const struct diff_ctx *d)
{
	static const char *const levels[] = { "function", "module", "thread" };
	const struct diff_table *tables[3] = { &d->funcs, &d->mods, &d->threads };

	printf("%s", csv_header);
	csv_row(d, "total", &d->total.rows[0], NULL);
	for (int l = 0; l < 3; l++)
		for (size_t i = 0; i < tables[l]->n; i++)
			csv_row(d, levels[l], &tables[l]->rows[i], NULL);
	for (size_t i = 0; i < d->n_lines; i++)
		for (size_t k = 0; k < d->lines[i].n; k++)
			csv_row(d, "line", &d->lines[i].rows[k], &d->funcs.rows[i]);
}

static void json_stat(struct json *j, const struct diff_stat *st, double tb, double tn)
{
	json_object_begin(j);
	json_knum(j, "base", st->base);
	json_knum(j, "new", st->new_);
	json_knum(j, "delta", st->delta);
	json_knum(j, "delta_percent", st->delta_pct);
	json_knum(j, "low", st->low);
	json_knum(j, "high", st->high);
	json_kbool(j, "significant", st->significant);
	json_knum(j, "sd", st->sd);
	json_knum(j, "df", st->df);
	json_knum(j, "base_percent", share(st->base, tb));
	json_knum(j, "new_percent", share(st->new_, tn));
	json_end(j);
}

static void json_events(struct json *j, const struct diff_ctx *d, const struct diff_row *row)
{
	json_key(j, "events");
	json_object_begin(j);
	for (int e = 0; e < d->n_events; e++) {
		json_key(j, d->names[e]);
		json_stat(j, &row->ev[e], side_mean_total(&d->base, e),
			  side_mean_total(&d->new_, e));
	}
	json_end(j);
}

static void json_rows(struct json *j, const struct diff_ctx *d, const char *key,
		      const struct diff_table *t, const char *name_key, bool module);

/* -l: the source lines of function row I, as its "lines" member */
static void json_lines(struct json *j, const struct diff_ctx *d, const struct diff_table *t,
		       size_t i)
{
	if (t != &d->funcs || i >= d->n_lines)
		return;
	json_key(j, "lines");
	json_array_begin(j);
	for (size_t k = 0; k < d->lines[i].n; k++) {
		const struct diff_row *row = &d->lines[i].rows[k];
		json_object_begin(j);
		json_kstr(j, "line", row->name);
		json_key(j, "only");
		if (only_of(row))
			json_str(j, only_of(row));
		else
			json_null(j);
		json_events(j, d, row);
		json_end(j);
	}
	json_end(j);
}

static void json_rows(struct json *j, const struct diff_ctx *d, const char *key,
		      const struct diff_table *t, const char *name_key, bool module)
{
	json_key(j, key);
	json_lines_begin(j);
	for (size_t i = 0; i < t->n; i++) {
		const struct diff_row *row = &t->rows[i];
		json_object_begin(j);
		json_kstr(j, name_key, row->name);
		if (module)
			json_kstr(j, "module", row->module);
		json_key(j, "only");
		if (only_of(row))
			json_str(j, only_of(row));
		else
			json_null(j);
		json_events(j, d, row);
		json_lines(j, d, t, i);
		json_end(j);
	}
	json_end(j);
}

static void json_side(struct json *j, const struct side *sd, const struct diff_ctx *d)
{
	json_key(j, sd->label);
	json_object_begin(j);
	json_key(j, "files");
	json_array_begin(j);
	for (int r = 0; r < sd->n; r++)
		json_str(j, sd->paths[r]);
	json_end(j);
	json_key(j, "events");
	json_object_begin(j);
	for (int e = 0; e < d->n_events; e++) {
		json_key(j, d->names[e]);
		json_object_begin(j);
		json_knum(j, "total", side_mean_total(sd, e));
		json_key(j, "runs");
		json_array_begin(j);
		for (int r = 0; r < sd->n; r++) {
			json_object_begin(j);
			json_knum(j, "total", sd->runs[r].total[e]);
			json_ku64(j, "samples", sd->runs[r].nsamples[e]);
			json_knum(j, "period", sd->runs[r].period[e]);
			json_end(j);
		}
		json_end(j);
		json_end(j);
	}
	json_end(j);
	json_end(j);
}

struct tree_diff;
static void json_tree(struct json *j, const struct tree_diff *td);

static void print_json(const struct diff_ctx *d, const struct tree_diff *td)
{
	struct json j;

	json_init(&j, stdout);
	json_object_begin(&j);
	json_side(&j, &d->base, d);
	json_side(&j, &d->new_, d);
	json_kstr(&j, "method", method_name(d->funcs.method));
	json_key(&j, "total");
	json_object_begin(&j);
	json_events(&j, d, &d->total.rows[0]);
	json_end(&j);
	json_rows(&j, d, "functions", &d->funcs, "name", true);
	json_rows(&j, d, "modules", &d->mods, "module", false);
	json_rows(&j, d, "threads", &d->threads, "comm", false);
	json_tree(&j, td);
	json_end(&j);
	putchar('\n');
}

/* ---- trees of counts --------------------------------------------------- */

/* Every node of one tree evaluated on each run's counts, compared. */
struct tree_diff {
	const struct tree_def *def;
	enum diff_method method;
	bool interval;              /* false: one file a side, no noise known */
	struct diff_stat st[TREE_MAX_NODES];
	bool measured[TREE_MAX_NODES];
	bool additive[TREE_MAX_NODES]; /* its parts' deltas add up to its delta */
	double parts_delta[TREE_MAX_NODES]; /* the sum of its parts' deltas (additive) */
	int parent[TREE_MAX_NODES], depth[TREE_MAX_NODES];
};

/* Units that are amounts: a sum of parts is meaningful (ratios, rates and
 * percentages are not). */
static bool amount_unit(enum arch_unit u)
{
	return u == UNIT_CYCLES || u == UNIT_COUNT || u == UNIT_SECONDS || u == UNIT_NONE;
}

/* Whether node I's TN_PART children (amounts in its unit) add up to it in
 * every file: V[run][node] over the NV runs of both sides, each part
 * measured in all of them or in none (a remainder node takes up what was
 * not measured).  Then, by linearity, their deltas add up to its delta. */
static bool parts_add_up(const struct tree_def *def, const struct tree_result *shape, int i,
			 double (*v)[TREE_MAX_NODES], int nv)
{
	bool any = false;

	if (!amount_unit(def->nodes[i].unit))
		return false;
	for (int k = 0; k < def->n_nodes; k++) {
		if (shape->v[k].parent != i || !(def->nodes[k].flags & TN_PART))
			continue;
		if (def->nodes[k].unit != def->nodes[i].unit)
			return false;
		for (int r = 1; r < nv; r++)
			if (isfinite(v[r][k]) != isfinite(v[0][k]))
				return false;
		any |= isfinite(v[0][k]);
	}
	for (int r = 0; any && r < nv; r++) {
		double sum = 0;
		for (int k = 0; k < def->n_nodes; k++)
			if (shape->v[k].parent == i && (def->nodes[k].flags & TN_PART) &&
			    isfinite(v[r][k]))
				sum += v[r][k];
		if (!isfinite(v[r][i]) || fabs(sum - v[r][i]) > 1e-9 * fmax(1, fabs(v[r][i])))
			return false;
	}
	return any;
}

static int load_counts(struct counts *c, char *path)
{
	char err[512];

	counts_init(c);
	if (counts_load_files(c, &path, 1, err, sizeof(err)) < 0) {
		cmd_error("%s", err);
		return -1;
	}
	return 0;
}

static enum arch_tree pick_tree(const struct diff_opts *o, const struct counts *c,
				const struct tree_ctx *ctx)
{
	if (o->tree != TREE_NONE)
		return o->tree;
	if (o->model)
		return o->model->tree;
	return (enum arch_tree)cmd_tree_guess(c, ctx);
}

/* The values of every node in each of a side's N files into V[run][node]
 * (NAN: not measured). */
static int side_tree(char **paths, int n, const struct tree_def **def, struct tree_ctx *ctx,
		     const struct diff_opts *o, double (*v)[TREE_MAX_NODES],
		     struct tree_result *last)
{
	for (int r = 0; r < n; r++) {
		struct counts c;
		if (load_counts(&c, paths[r]) < 0)
			return -1;
		if (!*def) {
			enum arch_tree t = pick_tree(o, &c, ctx);
			if (t == TREE_NONE) {
				cmd_error("%s: none of its events belongs to a known tree (give -A)",
					  paths[r]);
				counts_free(&c);
				return -1;
			}
			*def = tree_def_pick(t, ctx->model, &c);
			if (!ctx->model)
				ctx->model = tree_default_model(*def);
		}
		tree_eval(*def, &c, ctx, last);
		for (int i = 0; i < (*def)->n_nodes; i++)
			v[r][i] = last->v[i].state == NODE_VALUE ? last->v[i].value : NAN;
		counts_free(&c);
	}
	return 0;
}

/* build_tree's working values, on the heap (2 x 256 runs x 96 nodes of
 * doubles: 384 KB): every node's value in each file, the base's runs then
 * the new's (one array for parts_add_up), and the last file's result,
 * which gives the tree's shape. */
struct tree_work {
	double v[2 * SNAP_MAX_RUNS][TREE_MAX_NODES];
	struct tree_result r;
};

/* Each node's statistics across the sides, and which nodes add up. */
static void compare_tree(const struct diff_opts *o, struct tree_diff *td, struct tree_work *w)
{
	td->method = o->nb > 1 ? DIFF_RUNS : DIFF_SAMPLING;
	td->interval = o->nb > 1;
	for (int i = 0; i < td->def->n_nodes; i++) {
		double b[SNAP_MAX_RUNS], n[SNAP_MAX_RUNS];
		bool ok = true;
		for (int k = 0; k < o->nb; k++)
			ok &= isfinite(b[k] = w->v[k][i]);
		for (int k = 0; k < o->nn; k++)
			ok &= isfinite(n[k] = w->v[o->nb + k][i]);
		td->measured[i] = ok;
		if (!ok)
			continue;
		/* one file a side: counts carry no measure of their noise */
		diff_stat_compute(td->method, b, NULL, o->nb, n, NULL, o->nn, &td->st[i]);
		if (!td->interval) {
			td->st[i].low = td->st[i].high = td->st[i].sd = NAN;
			td->st[i].significant = false;
		}
	}
	/* the last result gives the tree's shape (parents, depths) */
	for (int i = 0; i < td->def->n_nodes; i++) {
		td->parent[i] = w->r.v[i].parent;
		td->depth[i] = w->r.v[i].depth;
		td->additive[i] = td->measured[i] &&
				  parts_add_up(td->def, &w->r, i, w->v, o->nb + o->nn);
		for (int k = 0; k < td->def->n_nodes && td->additive[i]; k++)
			if (w->r.v[k].parent == i && (td->def->nodes[k].flags & TN_PART) &&
			    td->measured[k])
				td->parts_delta[i] += td->st[k].delta;
	}
}

static int eval_sides(const struct diff_opts *o, struct tree_diff *td, struct tree_work *w)
{
	struct penalties pen;
	char err[512];

	if (o->nb > SNAP_MAX_RUNS || o->nn > SNAP_MAX_RUNS) {
		cmd_error("diff: at most %d files a side", SNAP_MAX_RUNS);
		return -1;
	}
	if (penalties_load(&pen, o->penalties, err, sizeof(err)) < 0) {
		cmd_error("%s", err);
		return -1;
	}
	struct tree_ctx ctx = { .model = o->model, .pen = &pen, .clock_hz = o->clock_hz };
	if (side_tree(o->base, o->nb, &td->def, &ctx, o, w->v, &w->r) < 0 ||
	    side_tree(o->new_, o->nn, &td->def, &ctx, o, w->v + o->nb, &w->r) < 0)
		return -1;
	return 0;
}

static int build_tree(const struct diff_opts *o, struct tree_diff *td)
{
	struct tree_work *w = calloc(1, sizeof(*w));

	memset(td, 0, sizeof(*td));
	if (!w) {
		cmd_error("diff: out of memory");
		return -1;
	}
	int rc = eval_sides(o, td, w);
	if (rc == 0)
		compare_tree(o, td, w);
	free(w);
	return rc;
}

static const char *tree_method(const struct tree_diff *td)
{
	return td->interval ? "runs" : "none";
}

static void print_tree_text(const struct tree_diff *td)
{
	const struct tree_def *def = td->def;
	char val[64];

	printf("\n# tree %s: every node side by side, in its unit; ", def->title);
	if (td->interval)
		printf("95%% intervals from the runs (Welch)\n");
	else
		printf("no interval (one counts file a side carries no measure of its noise: -b "
		       "with two or more a side)\n");
	printf("# '= parts' marks a node whose parts add up to it in every file, so their deltas "
	       "add up to its delta (amounts; ratios do not add)\n");
	printf("# %-42s %18s %18s %18s %8s\n", "id", "base", "new", "delta", "delta%");
	for (int i = 0; i < def->n_nodes; i++) {
		const struct diff_stat *st = &td->st[i];
		int ind = 2 * td->depth[i];
		printf("  %*s%-*s", ind, "", 42 - ind, def->nodes[i].id);
		if (def->nodes[i].flags & TN_GROUP) {
			printf(" %s\n", def->nodes[i].label);
			continue;
		}
		if (!td->measured[i]) {
			printf(" %18s  not measured (on one side or both)\n", "-");
			continue;
		}
		printf(" %18s", fmt_value(val, sizeof(val), st->base, def->nodes[i].unit));
		printf(" %18s", fmt_value(val, sizeof(val), st->new_, def->nodes[i].unit));
		printf(" %18.6g", st->delta);
		if (isfinite(st->delta_pct))
			printf(" %+7.1f%%", st->delta_pct);
		else
			printf(" %8s", "");
		if (td->interval)
			printf("  [%+.6g, %+.6g]%s", st->low, st->high, st->significant ? " *" : "");
		printf("  %s %s%s\n", unit_name(def->nodes[i].unit), def->nodes[i].label,
		       td->additive[i] ? "  (= parts)" : "");
	}
}

static void print_tree_csv(const struct tree_diff *td)
{
	const struct tree_def *def = td->def;

	for (int i = 0; i < def->n_nodes; i++) {
		const struct diff_stat *st = &td->st[i];
		if (!td->measured[i])
			continue;
		printf("tree,");
		fmt_csv_field(stdout, def->nodes[i].id);
		putchar(',');
		fmt_csv_field(stdout, td->parent[i] >= 0 ? def->nodes[td->parent[i]].id : "");
		putchar(',');
		fmt_csv_field(stdout, unit_name(def->nodes[i].unit));
		printf(",%.15g,%.15g,%.15g,", st->base, st->new_, st->delta);
		if (isfinite(st->delta_pct))
			printf("%.6g", st->delta_pct);
		if (td->interval)
			printf(",%.15g,%.15g,%.15g,%s", st->low, st->high, st->sd,
			       st->significant ? "yes" : "no");
		else
			printf(",,,,");
		printf(",,,,%s,\n", td->additive[i] ? "yes" : "no");
	}
}

static void json_tree(struct json *j, const struct tree_diff *td)
{
	json_key(j, "tree");
	json_lines_begin(j);
	for (int i = 0; td && td->def && i < td->def->n_nodes; i++) {
		const struct tree_node_def *nd = &td->def->nodes[i];
		const struct diff_stat *st = &td->st[i];
		if (nd->flags & TN_GROUP)
			continue;
		json_object_begin(j);
		json_kstr(j, "id", nd->id);
		json_key(j, "parent");
		if (td->parent[i] >= 0)
			json_str(j, td->def->nodes[td->parent[i]].id);
		else
			json_null(j);
		json_kstr(j, "label", nd->label);
		json_kstr(j, "unit", unit_name(nd->unit));
		json_kbool(j, "measured", td->measured[i]);
		bool m = td->measured[i];
		json_knum(j, "base", m ? st->base : NAN);
		json_knum(j, "new", m ? st->new_ : NAN);
		json_knum(j, "delta", m ? st->delta : NAN);
		json_knum(j, "delta_percent", m ? st->delta_pct : NAN);
		json_knum(j, "low", m ? st->low : NAN);
		json_knum(j, "high", m ? st->high : NAN);
		json_key(j, "significant");
		if (m && td->interval)
			json_bool(j, st->significant);
		else
			json_null(j);
		json_kbool(j, "additive", td->additive[i]);
		json_knum(j, "parts_delta", td->additive[i] ? td->parts_delta[i] : NAN);
		json_end(j);
	}
	json_end(j);
}

/* Counts files only: the tree and nothing else. */
static void print_tree_only(const struct diff_opts *o, const struct tree_diff *td)
{
	if (o->format == OUT_CSV) {
		printf("%s", csv_header_tree);
		print_tree_csv(td);
	} else if (o->format == OUT_TEXT) {
		printf("# base:");
		for (int r = 0; r < o->nb; r++)
			printf(" %s", o->base[r]);
		printf("\n# new: ");
		for (int r = 0; r < o->nn; r++)
			printf(" %s", o->new_[r]);
		printf("\n");
		print_tree_text(td);
	} else {
		struct json j;
		json_init(&j, stdout);
		json_object_begin(&j);
		for (int s = 0; s < 2; s++) {
			json_key(&j, s ? "new" : "base");
			json_object_begin(&j);
			json_key(&j, "files");
			json_array_begin(&j);
			for (int r = 0; r < (s ? o->nn : o->nb); r++)
				json_str(&j, s ? o->new_[r] : o->base[r]);
			json_end(&j);
			json_key(&j, "events");
			json_object_begin(&j);
			json_end(&j);
			json_end(&j);
		}
		json_kstr(&j, "method", tree_method(td));
		json_kstr(&j, "tree_name", td->def->name);
		json_key(&j, "functions");
		json_array_begin(&j);
		json_end(&j);
		json_tree(&j, td);
		json_end(&j);
		putchar('\n');
	}
}

/* ---- the command ------------------------------------------------------- */

static const char diff_usage[] =
	"usage: cyctop diff [OPTIONS] BASE NEW\n"
	"       cyctop diff [OPTIONS] -b BASE... -- NEW...";

static const char diff_prose[] =
	"BASE and NEW: perf.data files (cyctop record's, perf record's), pprof\n"
	"profiles, or counts files (then the metric tree, node by node).  Rows\n"
	"are matched by function name and module basename, sorted by the\n"
	"absolute delta; a 95% interval of each delta comes from sampling (one\n"
	"run a side: a count of n samples at period P varies by about n*P^2) or\n"
	"from the runs' spread (-b, two or more a side: Welch's t).  '*' (csv,\n"
	"json: significant) marks an interval that excludes 0.  See cyctop-diff(1).";

/* Splits ARGV at "--" (-b: the runs of each side) before the options are
 * parsed, so that getopt's own "--" handling cannot hide the boundary. */
static int parse_args(int argc, char **argv, struct diff_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->tree = TREE_NONE;
	const struct opt opts[] = {
		OPT_FLAG('b', "runs", &o->runs,
			 "several runs a side: BASE... -- NEW... (two or more each:\n"
			 "the interval from their spread, Welch's t)"),
		OPT_ENUM('f', "format", &o->format, opt_formats_text, "F", "text, csv or json"),
		OPT_FLAG('l', "lines", &o->lines,
			 "source lines (file:line) of the 20 functions with the largest\n"
			 "|delta|, as a second level"),
		OPT_STRING('s', "sort", &o->sort, "EVENT",
			   "order rows by this event's |delta| (default: the first)"),
		OPT_SYMFS(&o->in.symfs, "look for the recorded binaries under DIR first"),
		OPT_MODEL_NAME(&o->in.model, "name raw events with this model's tables"),
		OPT_ARCH(&o->tree, "the tree of counts files (default: the one their events\n"
			 "belong to); for sessions, also compare their counts on it"),
		OPT_STRING(0, "penalties", &o->penalties, "desktop|server|FILE",
			   "the trees' stall penalties in cycles"),
		OPT_DOUBLE(0, "clock-hz", &o->clock_hz, 1, 1e12, "HZ",
			   "the core clock, for the trees' metrics in seconds"),
		OPT_END,
	};
	const struct opt_cmd cmd = { diff_usage, opts, diff_prose, false };
	int dd = -1;

	for (int i = 1; i < argc && dd < 0; i++)
		if (strcmp(argv[i], "--") == 0)
			dd = i;
	int first = opt_parse(&cmd, dd < 0 ? argc : dd, argv, 1);
	if (first < 0)
		return -1;
	if (!o->runs && dd >= 0) {
		cmd_error("diff: '--' separates the runs of each side: give -b");
		return -1;
	}
	if (o->runs) {
		if (dd < 0) {
			cmd_error("diff: -b needs BASE... -- NEW...");
			return -1;
		}
		o->base = argv + first;
		o->nb = dd - first;
		o->new_ = argv + dd + 1;
		o->nn = argc - dd - 1;
	} else {
		o->base = argv + first;
		o->nb = argc - first >= 1 ? 1 : 0;
		o->new_ = argv + first + 1;
		o->nn = argc - first >= 2 ? 1 : 0;
		if (argc - first > 2) {
			cmd_error("diff: two files, BASE and NEW (several runs a side: -b BASE... "
				  "-- NEW...)");
			return -1;
		}
	}
	if (o->nb < 1 || o->nn < 1) {
		cmd_error("diff: no %s file given (usage: cyctop %s)", o->nb < 1 ? "base" : "new",
			  cmd_diff_entry.usage);
		return -1;
	}
	return 0;
}

static bool is_session(const char *path)
{
	return session_is_perfdata(path) || session_is_pprof(path);
}

/* Every file a session, or every one a counts file: 1, 0; -1 for a mix. */
static int inputs_kind(const struct diff_opts *o)
{
	int sessions = 0;

	for (int i = 0; i < o->nb; i++)
		sessions += is_session(o->base[i]);
	for (int i = 0; i < o->nn; i++)
		sessions += is_session(o->new_[i]);
	if (sessions && sessions != o->nb + o->nn) {
		cmd_error("diff: give sessions (perf.data, pprof) or counts files, not both");
		return -1;
	}
	return sessions > 0;
}

static int diff_sessions(const struct diff_opts *o)
{
	struct diff_ctx d = { .o = o };
	struct tree_diff td = { 0 };
	int rc = 1;

	d.base = (struct side){ "base", o->base, o->nb, NULL };
	d.new_ = (struct side){ "new", o->new_, o->nn, NULL };
	if (o->nb != o->nn && (o->nb == 1 || o->nn == 1)) {
		cmd_error("diff: %d run(s) of the base against %d of the new: one a side, or two "
			  "or more a side", o->nb, o->nn);
		return 1;
	}
	ui_install_signals();
	if (open_side(&d.base, o) < 0 || open_side(&d.new_, o) < 0 || common_events(&d) < 0)
		goto out;
	d.sort_ev = 0;
	if (o->sort) {
		for (d.sort_ev = 0; d.sort_ev < d.n_events; d.sort_ev++)
			if (strcmp(d.names[d.sort_ev], o->sort) == 0)
				break;
		if (d.sort_ev == d.n_events) {
			cmd_error("diff: --sort '%s' is not an event of both sides", o->sort);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	struct side *sides[2] = { &d.base, &d.new_ };
	for (int s = 0; s < 2; s++)
		for (int r = 0; r < sides[s]->n; r++) {
			run_periods(&sides[s]->runs[r], d.n_events);
			if (run_rows(&sides[s]->runs[r], d.n_events) < 0)
				goto out;
		}
	if (build_tables(&d) < 0 || (o->lines && build_lines(&d) < 0))
		goto out;
	if (o->tree != TREE_NONE && build_tree(o, &td) < 0)
		goto out;
	if (o->format == OUT_JSON) {
		print_json(&d, &td);
	} else if (o->format == OUT_CSV) {
		print_csv(&d);
		if (td.def)
			print_tree_csv(&td);
	} else {
		print_text(&d);
		if (td.def)
			print_tree_text(&td);
	}
	rc = 0;
out:
	diff_table_free(&d.funcs);
	diff_table_free(&d.mods);
	diff_table_free(&d.threads);
	diff_table_free(&d.total);
	for (size_t i = 0; i < d.n_lines; i++)
		diff_table_free(&d.lines[i]);
	free(d.lines);
	strpool_free(&d.pool);
	close_side(&d.base);
	close_side(&d.new_);
	return rc;
}

static int cmd_diff_exec(int argc, char **argv)
{
	struct diff_opts o;
	struct tree_diff td;

	if (parse_args(argc, argv, &o) < 0)
		return EXIT_USAGE;
	int kind = inputs_kind(&o);
	if (kind < 0)
		return EXIT_USAGE;
	if (kind)
		return diff_sessions(&o);
	if (o.nb != o.nn && (o.nb == 1 || o.nn == 1)) {
		cmd_error("diff: %d file(s) of the base against %d of the new: one a side, or two "
			  "or more a side", o.nb, o.nn);
		return EXIT_USAGE;
	}
	if (build_tree(&o, &td) < 0)
		return 1;
	print_tree_only(&o, &td);
	return 0;
}

const struct cmd_entry cmd_diff_entry = {
	"diff",
	"diff [-l] [--format text|csv|json] [--sort EVENT] [-A TREE] BASE NEW | -b BASE... -- NEW...",
	cmd_diff_exec,
};
