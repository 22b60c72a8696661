/* Batch output of the hotspot table: text, csv and the batch JSON contract;
 * with call stacks (-g) the children column, callers and callees, and the
 * folded stacks for flame graphs. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/callgraph.h"
#include "tui/cmd.h"
#include "tui/format.h"
#include "tui/top.h"

static uint64_t row_samples(const struct snap_func *f, int ev, int window)
{
	return window ? f->window[ev] : f->samples[ev];
}

static int row_visible(const struct snapshot *s, const struct snap_func *f, int window)
{
	for (int e = 0; e < s->n_events; e++)
		if (row_samples(f, e, window))
			return 1;
	return 0;
}

/* The rows in the order shown: by the first event, cumulative or window. */
static const struct snap_func **ordered(const struct snapshot *s, int window);

/* The processes in the order shown, as the functions (NULL when out of
 * memory; free it). */
static const struct snap_thread **ordered_procs(const struct snapshot *s, int window);

static bool proc_visible(const struct snapshot *s, const struct snap_thread *p, int window)
{
	for (int e = 0; e < s->n_events; e++)
		if ((window ? p->window : p->samples)[e])
			return true;
	return false;
}

/* The call graph's events are the snapshot's. */
static bool has_cg(const struct snapshot *s, int ev)
{
	return s->cg && ev < cg_n_events(s->cg);
}

/* perf top's Children: the percent of EV's samples with a stack whose stack
 * holds the function (once per sample, however deep it recurses). */
static double children_pct(const struct snapshot *s, const struct snap_func *f, int ev)
{
	uint64_t total, n = has_cg(s, ev) ? cg_samples(s->cg, ev) : 0;

	if (!n)
		return 0;
	cg_function(s->cg, f->name, f->module, ev, NULL, &total);
	return 100.0 * (double)total / (double)n;
}

/* Stacks of every event: with a stack, truncated, past the node cap. */
static void stack_sums(const struct snapshot *s, uint64_t *samples, uint64_t *truncated,
		       uint64_t *overflow)
{
	*samples = *truncated = *overflow = 0;
	for (int e = 0; has_cg(s, e) && e < s->n_events; e++) {
		*samples += cg_stacks(s->cg, e);
		*truncated += cg_stacks_truncated(s->cg, e);
		*overflow += cg_overflow(s->cg, e);
	}
}

/* Event E's name escaped, for the text outputs (a static buffer: one
 * use per call). */
static const char *ev_text(const struct snapshot *s, int e)
{
	static char buf[2][sizeof(s->ev[e].name) * FMT_ESCAPE_MAX];
	static int k;

	k = !k;
	return fmt_escape(buf[k], sizeof(buf[k]), s->ev[e].name);
}

/* One line about the groups when there are several. */
static void print_text_mux(FILE *out, const struct snapshot *s)
{
	char ref[sizeof(s->reference) * FMT_ESCAPE_MAX];

	if (s->n_groups <= 1)
		return;
	fmt_escape(ref, sizeof(ref), s->reference);
	if (s->runs_mode)
		fprintf(out, "  groups %d, %d runs, reference %s spread %.2f%%\n", s->n_groups,
			s->n_runs, ref, 100.0 * s->spread);
	else
		fprintf(out, "  groups %d (slice %d ms), reference %s\n", s->n_groups, s->slice_ms,
			ref);
}

/* -a: one row per process with samples, before the functions. */
static void print_text_procs(FILE *out, const struct snapshot *s, int window)
{
	const struct snap_thread **order = ordered_procs(s, window);

	for (int e = 0; e < s->n_events; e++) {
		char name[12 * FMT_ESCAPE_MAX];
		fprintf(out, "%11.11s%% ", fmt_escape(name, sizeof(name), s->ev[e].name));
	}
	fprintf(out, "  %7s %-12s %s\n", "PID", "USER", "COMMAND");
	for (size_t i = 0; order && i < s->n_procs; i++) {
		const struct snap_thread *p = order[i];
		if (!proc_visible(s, p, window))
			continue;
		for (int e = 0; e < s->n_events; e++)
			fprintf(out, "%12.2f ", snapshot_thread_percent(s, p, e, window));
		if (p->tid == PROFILE_TID_OTHER)
			fprintf(out, "  %7s ", "-");
		else
			fprintf(out, "  %7u ", p->tid);
		fmt_put_escaped(out, p->user[0] ? p->user : "?", 12);
		fputc(' ', out);
		fmt_put_escaped(out, p->comm, 0);
		fprintf(out, "%s\n", p->ended ? " (ended)" : "");
	}
	free(order);
	fputc('\n', out);
}

/* The function's command column: its top process, "+N" more. */
static void print_text_command(FILE *out, const struct snap_func *f)
{
	char more[16] = "";

	if (f->nprocs > 1)
		snprintf(more, sizeof(more), " +%u", f->nprocs - 1);
	fputs("  ", out);
	size_t w = 16 - strlen(more);
	fmt_put_escaped(out, f->comm ? f->comm : "", (int)w);
	fprintf(out, "%s", more);
}

static void print_text(FILE *out, const struct snapshot *s, int window)
{
	char command[sizeof(s->command) * FMT_ESCAPE_MAX];

	fprintf(out, "cyctop %.1fs  pid %d (%s)  PMU %s  lost %llu  throttled %llu%s",
		s->time, s->pid, fmt_escape(command, sizeof(command), s->command), s->pmu,
		(unsigned long long)s->lost,
		(unsigned long long)s->throttled, window ? "  [window]" : "");
	if (s->thread)
		fprintf(out, "  [thread %u]", s->thread);
	if (s->process >= 0)
		fprintf(out, "  [process %lld]", (long long)s->process);
	fprintf(out, "\n");
	print_text_mux(out, s);
	if (s->cg) {
		uint64_t n, trunc, over;
		stack_sums(s, &n, &trunc, &over);
		fprintf(out, "  stacks %llu  truncated %llu  skipped %llu%s\n",
			(unsigned long long)n, (unsigned long long)trunc,
			(unsigned long long)s->stacks_skipped,
			over ? "  (past the path limit: some under " CG_OVERFLOW_NAME ")" : "");
	}
	for (int e = 0; e < s->n_events; e++) {
		const struct snap_event *ev = &s->ev[e];
		char count[32];
		if (ev->counted)
			snprintf(count, sizeof(count), "%.6g", ev->count);
		else
			snprintf(count, sizeof(count), "not counted");
		fputs("  ", out);
		fmt_put_escaped(out, ev->name, 24);
		fprintf(out, " sav %-10llu samples %-10llu count %-14s coverage %5.1f%%\n",
			(unsigned long long)ev->sav,
			(unsigned long long)(window ? ev->window : ev->samples), count,
			100.0 * ev->coverage);
	}
	if (s->system_wide)
		print_text_procs(out, s, window);
	/* a header cell is as wide as a row's "%12.2f ", its space included,
	 * so that long event names never run into each other */
	for (int e = 0; e < s->n_events; e++) {
		char name[12 * FMT_ESCAPE_MAX];
		fprintf(out, "%11.11s%% ", fmt_escape(name, sizeof(name), s->ev[e].name));
	}
	if (has_cg(s, 0))
		fprintf(out, "%11s%% ", "children");
	if (s->system_wide)
		fprintf(out, "  %-16s", "COMMAND");
	fprintf(out, "  %-32s %s\n", "FUNCTION", "MODULE");
	const struct snap_func **order = ordered(s, window);
	for (size_t i = 0; order && i < s->n_funcs; i++) {
		const struct snap_func *f = order[i];
		if (!row_visible(s, f, window))
			continue;
		for (int e = 0; e < s->n_events; e++)
			fprintf(out, "%12.2f ", snapshot_percent(s, f, e, window));
		if (has_cg(s, 0))
			fprintf(out, "%12.2f ", children_pct(s, f, 0));
		if (s->system_wide)
			print_text_command(out, f);
		fputs("  ", out);
		fmt_put_escaped(out, f->name, 32);
		fputc(' ', out);
		fmt_put_escaped(out, f->module, 0);
		fputc('\n', out);
	}
	free(order);
	if (s->ended) {
		if (s->exit_status >= 0)
			fprintf(out, "target %d exited with status %d\n", s->pid, s->exit_status);
		else if (s->recorded)
			fprintf(out, "recorded target %d (exit status not recorded)\n", s->pid);
		else
			fprintf(out, "target %d exited (status unknown: not our child)\n", s->pid);
	}
	fprintf(out, "\n");
}

static void print_csv(FILE *out, const struct snapshot *s, int window, int first)
{
	if (first) {
		fprintf(out, "time,function,module%s", s->system_wide ? ",command,pid" : "");
		for (int e = 0; e < s->n_events; e++)
			fprintf(out, ",%s:samples,%s:percent", ev_text(s, e), ev_text(s, e));
		for (int e = 0; has_cg(s, e) && e < s->n_events; e++)
			fprintf(out, ",%s:children", ev_text(s, e));
		fprintf(out, "\n");
	}
	const struct snap_func **order = ordered(s, window);
	for (size_t i = 0; order && i < s->n_funcs; i++) {
		const struct snap_func *f = order[i];
		if (!row_visible(s, f, window))
			continue;
		/* names with commas or quotes are quoted, csv-style */
		fprintf(out, "%.3f,", s->time);
		fmt_csv_field(out, f->name);
		fputc(',', out);
		fmt_csv_field(out, f->module);
		if (s->system_wide) {
			fputc(',', out);
			fmt_csv_field(out, f->comm ? f->comm : "");
			fprintf(out, ",%u", f->pid);
		}
		for (int e = 0; e < s->n_events; e++)
			fprintf(out, ",%llu,%.4f", (unsigned long long)row_samples(f, e, window),
				snapshot_percent(s, f, e, window));
		for (int e = 0; has_cg(s, e) && e < s->n_events; e++)
			fprintf(out, ",%.4f", children_pct(s, f, e));
		fprintf(out, "\n");
	}
	free(order);
}

static void print_json_events(FILE *out, const struct snapshot *s, int window)
{
	fprintf(out, "\"events\": [");
	for (int e = 0; e < s->n_events; e++) {
		const struct snap_event *ev = &s->ev[e];
		fprintf(out, "%s{\"name\": ", e ? ", " : "");
		fmt_json_string(out, ev->name);
		fprintf(out, ", \"sav\": %llu, \"samples\": %llu, ", (unsigned long long)ev->sav,
			(unsigned long long)(window ? ev->window : ev->samples));
		if (window)
			fprintf(out, "\"cumulative\": %llu, ", (unsigned long long)ev->samples);
		fprintf(out, "\"count\": ");
		fmt_json_number(out, ev->counted ? ev->count : NAN);
		fprintf(out, ", \"coverage\": ");
		fmt_json_number(out, ev->coverage);
		/* null: the reference, counted in every group */
		if (ev->group == SNAP_EVERY_GROUP)
			fprintf(out, ", \"group\": null}");
		else
			fprintf(out, ", \"group\": %d}", ev->group);
	}
	fprintf(out, "]");
}

/* "KEY": {EVENT: N...} */
static void print_json_counts(FILE *out, const struct snapshot *s, const char *key,
			      const uint64_t *n)
{
	fprintf(out, "\"%s\": {", key);
	for (int e = 0; e < s->n_events; e++) {
		fprintf(out, "%s", e ? ", " : "");
		fmt_json_string(out, s->ev[e].name);
		fprintf(out, ": %llu", (unsigned long long)n[e]);
	}
	fprintf(out, "}");
}

/* "samples": a row's counts: its window's with WINDOW, followed by its
 * "cumulative" ones (so that a script can check that the windows add up),
 * else its cumulative ones. */
static void print_json_samples(FILE *out, const struct snapshot *s, const uint64_t *samples,
			       const uint64_t *win, int window)
{
	print_json_counts(out, s, "samples", window ? win : samples);
	if (window) {
		fprintf(out, ", ");
		print_json_counts(out, s, "cumulative", samples);
	}
}

/* print_json_samples, then "percent": {EVENT: P...} of the shown counts. */
static void print_json_shares(FILE *out, const struct snapshot *s, const uint64_t *samples,
			      const uint64_t *win, int window)
{
	const uint64_t *n = window ? win : samples;

	print_json_samples(out, s, samples, win, window);
	fprintf(out, ", \"percent\": {");
	for (int e = 0; e < s->n_events; e++) {
		uint64_t total = window ? s->ev[e].window : s->ev[e].samples;
		fprintf(out, "%s", e ? ", " : "");
		fmt_json_string(out, s->ev[e].name);
		fprintf(out, ": %.4f", total ? 100.0 * (double)n[e] / (double)total : 0.0);
	}
	fprintf(out, "}");
}

/* "KEY": [{"name", "module", "samples", "percent"}...]: the edges, percent
 * of the function's TOTAL samples. */
static void print_json_edges(FILE *out, const char *key, const struct cg_edge *e, size_t n,
			     uint64_t total)
{
	fprintf(out, ", \"%s\": [", key);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s{\"name\": ", i ? ", " : "");
		fmt_json_string(out, e[i].name);
		fprintf(out, ", \"module\": ");
		fmt_json_string(out, e[i].module);
		fprintf(out, ", \"samples\": %llu, \"percent\": %.4f}",
			(unsigned long long)e[i].samples,
			total ? 100.0 * (double)e[i].samples / (double)total : 0.0);
	}
	fprintf(out, "]");
}

/* With stacks: "children" per event, then the direct callers and callees
 * of the first event (cumulative, as the call graph is). */
static void print_json_calls(FILE *out, const struct snapshot *s, const struct snap_func *f)
{
	const struct cg_edge *e;
	uint64_t total;
	size_t n;

	fprintf(out, ", \"children\": {");
	for (int ev = 0; has_cg(s, ev) && ev < s->n_events; ev++) {
		fprintf(out, "%s", ev ? ", " : "");
		fmt_json_string(out, s->ev[ev].name);
		fprintf(out, ": %.4f", children_pct(s, f, ev));
	}
	fprintf(out, "}");
	cg_function(s->cg, f->name, f->module, 0, NULL, &total);
	n = cg_callers(s->cg, f->name, f->module, 0, &e);
	print_json_edges(out, "callers", e, n, total);
	n = cg_callees(s->cg, f->name, f->module, 0, &e);
	print_json_edges(out, "callees", e, n, total);
}

static void print_json_func(FILE *out, const struct snapshot *s, const struct snap_func *f,
			    int window)
{
	fprintf(out, "{\"name\": ");
	fmt_json_string(out, f->name);
	fprintf(out, ", \"module\": ");
	fmt_json_string(out, f->module);
	if (s->system_wide && f->comm) {
		fprintf(out, ", \"comm\": ");
		fmt_json_string(out, f->comm);
		if (s->process >= 0)
			fprintf(out, ", \"pid\": %u", f->pid);
		else
			fprintf(out, ", \"nprocs\": %u", f->nprocs);
	}
	fprintf(out, ", ");
	print_json_shares(out, s, f->samples, f->window, window);
	if (has_cg(s, 0))
		print_json_calls(out, s, f);
	fprintf(out, "}");
}

/* Every thread with samples (in the window with --window); the threads
 * past the per-thread limit share one row with a null tid. */
static void print_json_threads(FILE *out, const struct snapshot *s, int window)
{
	int n = 0;

	fprintf(out, ", \"threads\": [");
	for (size_t i = 0; i < s->n_threads; i++) {
		const struct snap_thread *th = &s->threads[i];
		const uint64_t *v = window ? th->window : th->samples;
		int any = 0;
		for (int e = 0; e < s->n_events; e++)
			any |= v[e] != 0;
		if (!any)
			continue;
		fprintf(out, "%s{\"tid\": ", n++ ? ", " : "");
		if (th->tid == PROFILE_TID_OTHER)
			fprintf(out, "null");
		else
			fprintf(out, "%u", th->tid);
		if (s->system_wide && th->tid != PROFILE_TID_OTHER)
			fprintf(out, ", \"pid\": %u", th->pid);
		fprintf(out, ", \"comm\": ");
		fmt_json_string(out, th->comm);
		fprintf(out, ", \"ended\": %s, ", th->ended ? "true" : "false");
		print_json_shares(out, s, th->samples, th->window, window);
		fprintf(out, "}");
	}
	fprintf(out, "]");
}

/* -a: every process with samples, sorted like the functions; the ones past
 * the limit share one row with a null pid. */
static void print_json_procs(FILE *out, const struct snapshot *s, int window)
{
	const struct snap_thread **order = ordered_procs(s, window);
	int n = 0;

	fprintf(out, ", \"processes\": [");
	for (size_t i = 0; order && i < s->n_procs; i++) {
		const struct snap_thread *p = order[i];
		if (!proc_visible(s, p, window))
			continue;
		fprintf(out, "%s{\"pid\": ", n++ ? ", " : "");
		if (p->tid == PROFILE_TID_OTHER)
			fprintf(out, "null");
		else
			fprintf(out, "%u", p->tid);
		fprintf(out, ", \"comm\": ");
		fmt_json_string(out, p->comm);
		fprintf(out, ", \"user\": ");
		fmt_json_string(out, p->user);
		fprintf(out, ", \"ended\": %s, ", p->ended ? "true" : "false");
		print_json_shares(out, s, p->samples, p->window, window);
		fprintf(out, "}");
	}
	free(order);
	fprintf(out, "]");
}

/* "groups", and the reference; with --mux runs, "runs" and "spread". */
static void print_json_mux(FILE *out, const struct snapshot *s)
{
	fprintf(out, ", \"groups\": %d", s->n_groups);
	if (s->slice_ms)
		fprintf(out, ", \"slice_ms\": %d", s->slice_ms);
	if (s->reference[0]) {
		fprintf(out, ", \"reference\": {\"name\": ");
		fmt_json_string(out, s->reference);
		fprintf(out, ", \"count\": ");
		fmt_json_number(out, s->reference_count);
		fprintf(out, "}");
	}
	if (!s->runs_mode)
		return;
	fprintf(out, ", \"runs\": [");
	for (int k = 0; k < s->n_runs; k++) {
		fprintf(out, "%s{\"group\": %d, \"run\": %d, \"reference\": ", k ? ", " : "",
			s->runs[k].group, s->runs[k].run);
		fmt_json_number(out, s->runs[k].reference);
		fprintf(out, "}");
	}
	fprintf(out, "], \"spread\": ");
	fmt_json_number(out, s->spread);
}

/* "stacks": stacks collected, truncated (every event's, one each whatever
 * the sample weighs), samples past the node cap, and samples counted
 * without their stack. */
static void print_json_stacks(FILE *out, const struct snapshot *s)
{
	uint64_t n, trunc, over;

	stack_sums(s, &n, &trunc, &over);
	fprintf(out, ", \"stacks\": {\"samples\": %llu, \"truncated\": %llu, \"skipped\": %llu, "
		"\"overflow\": %llu}", (unsigned long long)n, (unsigned long long)trunc,
		(unsigned long long)s->stacks_skipped, (unsigned long long)over);
}

static void print_json(FILE *out, const struct snapshot *s, int window)
{
	int n = 0;

	fprintf(out, "{\"time\": %.3f, \"target\": {\"pid\": %d, \"command\": ", s->time, s->pid);
	fmt_json_string(out, s->command);
	fprintf(out, "}, ");
	print_json_events(out, s, window);
	print_json_mux(out, s);
	fprintf(out, ", \"lost\": %llu, \"throttled\": %llu, \"window\": %s, \"functions\": [",
		(unsigned long long)s->lost, (unsigned long long)s->throttled,
		window ? "true" : "false");
	const struct snap_func **order = ordered(s, window);
	for (size_t i = 0; order && i < s->n_funcs; i++) {
		if (!row_visible(s, order[i], window))
			continue;
		fprintf(out, "%s", n++ ? ", " : "");
		print_json_func(out, s, order[i], window);
	}
	free(order);
	fprintf(out, "], \"modules\": [");
	for (size_t i = 0; i < s->n_modules; i++) {
		const struct snap_module *m = &s->modules[i];
		fprintf(out, "%s{\"module\": ", i ? ", " : "");
		fmt_json_string(out, m->module);
		fprintf(out, ", ");
		print_json_samples(out, s, m->samples, m->window, window);
		fprintf(out, "}");
	}
	fprintf(out, "]");
	print_json_threads(out, s, window);
	if (s->system_wide)
		print_json_procs(out, s, window);
	if (s->process >= 0)
		fprintf(out, ", \"pid\": %lld", (long long)s->process);
	if (s->cg)
		print_json_stacks(out, s);
	if (s->thread)
		fprintf(out, ", \"tid\": %u", s->thread);
	if (s->ended) {
		fprintf(out, ", \"ended\": true, \"exit_status\": ");
		if (s->exit_status >= 0)
			fprintf(out, "%d", s->exit_status);
		else
			fprintf(out, "null");
	}
	fprintf(out, "}\n");
}

static int sort_window;

static int by_first_event(const void *a, const void *b)
{
	const struct snap_func *x = *(const struct snap_func *const *)a;
	const struct snap_func *y = *(const struct snap_func *const *)b;
	uint64_t nx = row_samples(x, 0, sort_window), ny = row_samples(y, 0, sort_window);

	if (nx != ny)
		return nx < ny ? 1 : -1;
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->module, y->module);
}

static const struct snap_func **ordered(const struct snapshot *s, int window)
{
	const struct snap_func **order = malloc((s->n_funcs + 1) * sizeof(*order));

	if (!order)
		return NULL;
	for (size_t i = 0; i < s->n_funcs; i++)
		order[i] = &s->funcs[i];
	sort_window = window;
	if (s->n_events > 0)
		qsort(order, s->n_funcs, sizeof(*order), by_first_event);
	return order;
}

static int proc_by_first_event(const void *a, const void *b)
{
	const struct snap_thread *x = *(const struct snap_thread *const *)a;
	const struct snap_thread *y = *(const struct snap_thread *const *)b;
	uint64_t nx = sort_window ? x->window[0] : x->samples[0];
	uint64_t ny = sort_window ? y->window[0] : y->samples[0];

	if (nx != ny)
		return nx < ny ? 1 : -1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static const struct snap_thread **ordered_procs(const struct snapshot *s, int window)
{
	const struct snap_thread **order = malloc((s->n_procs + 1) * sizeof(*order));

	if (!order)
		return NULL;
	for (size_t i = 0; i < s->n_procs; i++)
		order[i] = &s->procs[i];
	sort_window = window;
	if (s->n_events > 0)
		qsort(order, s->n_procs, sizeof(*order), proc_by_first_event);
	return order;
}

/* --format folded prints the stacks of the last snapshot once: a refresh
 * renders them here, and they are written when the target has ended, else
 * by top_print_finish() after the last refresh (-n, a signal).  Watching
 * without -g is refused when the options are parsed; a recorded session
 * without stacks gets one error and exit status EXIT_USAGE. */
static struct {
	FILE *out;
	char *text;
	size_t len;
	bool done, missing;
} folded;

int top_print_finish(void)
{
	if (folded.text && !folded.done) {
		/* one stack a line: the names escaped, as in every text output */
		for (char *line = strtok(folded.text, "\n"); line; line = strtok(NULL, "\n")) {
			fmt_put_escaped(folded.out, line, 0);
			fputc('\n', folded.out);
		}
		fflush(folded.out);
	}
	free(folded.text);
	folded.text = NULL;
	folded.done = true;
	return folded.missing ? -1 : 0;
}

static void print_folded(FILE *out, const struct snapshot *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	if (folded.done)
		return;
	if (!s->cg) {  /* a recorded session without stacks */
		cmd_error("--format folded: no call stacks in this session");
		folded.missing = true;
		folded.done = true;
		return;
	}
	if (!(mem = open_memstream(&text, &len))) {
		cmd_error("--format folded: out of memory");
		return;
	}
	int rc = s->n_events > 0 ? cg_write_folded(s->cg, 0, mem) : 0;
	if (fclose(mem) != 0 || rc < 0) {
		cmd_error("--format folded: out of memory");
		free(text);
		return;
	}
	free(folded.text);
	folded.out = out;
	folded.text = text;
	folded.len = len;
	if (s->ended)
		top_print_finish();
}

void top_print(FILE *out, const struct snapshot *s, enum out_format fmt, int window,
	       int first)
{
	if (fmt == OUT_TEXT)
		print_text(out, s, window);
	else if (fmt == OUT_CSV)
		print_csv(out, s, window, first);
	else if (fmt == OUT_FOLDED)
		print_folded(out, s);
	else
		print_json(out, s, window);
	fflush(out);
}
