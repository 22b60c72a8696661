/* cyctop diff's output for sessions: text (perf diff's columns first),
 * csv and json, from the tables tui/cmd-diff.c built (engine/diff.h). */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui/diff-cmd.h"
#include "tui/format.h"
#include "tui/json.h"

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
	/* a module paired across two names (functions, modules) */
	const char *mod = level == 0 ? row->module : level == 1 ? row->name : NULL;
	if (mod && row->in_base && strcmp(diff_base_module(d, mod), mod) != 0) {
		printf("  (base: ");
		fmt_put_escaped(stdout, diff_base_module(d, mod), 0);
		printf(")");
	}
	if (only_of(row))
		printf("  (%s only)", only_of(row));
	printf("\n");
}

/* Why the rows compare counts or rates (the text's header says it). */
static const char *compare_why(const struct diff_ctx *d)
{
	if (d->o->compare == DIFF_CMP_COUNTS)
		return "--compare counts";
	if (d->o->compare == DIFF_CMP_RATES)
		return "--compare rates";
	return d->rates ? "a side is a time window (-d, ^C, -p, -a or a pprof profile cut the watch), "
			  "whose counts grow with its length"
			: "both sides are whole runs of their program (absolute counts, which an "
			  "optimization lowers)";
}

static void text_side(const struct side *sd, const struct diff_ctx *d)
{
	printf("# %-4s:", sd->label);
	for (int r = 0; r < sd->n; r++) {
		printf(" ");
		fmt_put_escaped(stdout, sd->paths[r], 0);
	}
	printf("\n");
	for (int r = 0; r < sd->n; r++) {
		const struct run_in *ri = &sd->runs[r];
		printf("#        %s %.2f s", ri->whole ? "whole run," : "time window of", ri->seconds);
		if (ri->main_module) {
			printf(", program ");
			fmt_put_escaped(stdout, ri->main_module, 0);
		}
		if (d->rates)
			printf(", divided by %.3f %s", ri->per, d->per_ev >= 0 ? "CPU s" : "s");
		printf("\n");
	}
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

void diff_print_text(const struct diff_ctx *d)
{
	static const char *const levels[] = { "functions", "modules", "threads (by command)" };
	const struct diff_table *tables[3] = { &d->funcs, &d->mods, &d->threads };

	text_side(&d->base, d);
	text_side(&d->new_, d);
	if (d->rates && d->per_ev >= 0)
		printf("# compared: rates, per second of CPU time (%s): %s\n", d->names[d->per_ev],
		       compare_why(d));
	else if (d->rates)
		printf("# compared: rates, per second of the watch: %s\n", compare_why(d));
	else
		printf("# compared: counts: %s\n", compare_why(d));
	if (d->funcs.method == DIFF_RUNS)
		printf("# method: runs (Welch's t on %d and %d runs: the interval includes the "
		       "run-to-run spread)\n", d->base.n, d->new_.n);
	else
		printf("# method: sampling (one run a side: the interval covers sampling noise "
		       "only, not run-to-run variation; -b for runs)\n");
	printf("# %s are samples x period%s; * marks a delta whose 95%% interval excludes 0\n",
	       d->rates ? "rates" : "counts", d->rates ? " over the side's seconds" : "");
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
				text_row(d, &d->lines[i].rows[k], e, 3);
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

const char diff_csv_header[] =
	"level,name,module,event,base,new,delta,delta_percent,low,high,sd,significant,only,"
	"base_percent,new_percent,additive,line\n";

void diff_print_csv(const struct diff_ctx *d)
{
	static const char *const levels[] = { "function", "module", "thread" };
	const struct diff_table *tables[3] = { &d->funcs, &d->mods, &d->threads };

	printf("%s", diff_csv_header);
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
		/* functions and modules: the base's name of the module */
		const char *mod = module ? row->module : t == &d->mods ? row->name : NULL;
		if (mod) {
			json_key(j, "base_module");
			if (row->in_base)
				json_str(j, diff_base_module(d, mod));
			else
				json_null(j);
		}
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
	/* each file: a whole run or a window, its program, its divisor */
	json_key(j, "watches");
	json_array_begin(j);
	for (int r = 0; r < sd->n; r++) {
		json_object_begin(j);
		json_knum(j, "seconds", sd->runs[r].seconds);
		json_kbool(j, "whole_run", sd->runs[r].whole);
		json_key(j, "program");
		if (sd->runs[r].main_module)
			json_str(j, sd->runs[r].main_module);
		else
			json_null(j);
		json_knum(j, "divisor", sd->runs[r].per);
		json_end(j);
	}
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

void diff_print_json(const struct diff_ctx *d, const struct tree_diff *td)
{
	struct json j;

	json_init(&j, stdout);
	json_object_begin(&j);
	json_side(&j, &d->base, d);
	json_side(&j, &d->new_, d);
	json_kstr(&j, "method", method_name(d->funcs.method));
	json_kstr(&j, "compare", d->rates ? "rates" : "counts");
	json_key(&j, "rate_per");
	if (!d->rates)
		json_null(&j);
	else
		json_str(&j, d->per_ev >= 0 ? d->names[d->per_ev] : "second");
	json_key(&j, "total");
	json_object_begin(&j);
	json_events(&j, d, &d->total.rows[0]);
	json_end(&j);
	json_rows(&j, d, "functions", &d->funcs, "name", true);
	json_rows(&j, d, "modules", &d->mods, "module", false);
	json_rows(&j, d, "threads", &d->threads, "comm", false);
	diff_tree_json(&j, td);
	json_end(&j);
	putchar('\n');
}
