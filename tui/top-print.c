/* Batch output of the hotspot table: text, csv and the batch JSON contract;
 * with call stacks (-g) the children column, callers and callees, and the
 * folded stacks for flame graphs. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/callgraph.h"
#include "engine/offcpu.h"
#include "tui/baseline.h"
#include "tui/cmd.h"
#include "tui/flame-svg.h"
#include "tui/format.h"
#include "tui/json.h"
#include "tui/top.h"

static uint64_t row_samples(const struct snap_func *f, int ev, int window)
{
	return window ? f->window[ev] : f->samples[ev];
}

/* The call graph's events are the snapshot's. */
static bool has_cg(const struct snapshot *s, int ev)
{
	return s->cg && ev < cg_n_events(s->cg);
}

/* The samples of EV whose stack holds F (0 without stacks). */
static uint64_t children_of(const struct snapshot *s, const struct snap_func *f, int ev)
{
	uint64_t total = 0;

	if (has_cg(s, ev))
		cg_function(s->cg, f->name, f->module, ev, NULL, &total);
	return total;
}

/* A row with samples, or (cumulative: the call graph has no window) a pure
 * caller on the stacks, as perf report --children lists it. */
static int row_visible(const struct snapshot *s, const struct snap_func *f, int window)
{
	for (int e = 0; e < s->n_events; e++)
		if (row_samples(f, e, window))
			return 1;
	return !window && children_of(s, f, 0) != 0;
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

/* perf top's Children: the percent of EV's samples with a stack whose stack
 * holds the function (once per sample, however deep it recurses). */
static double children_pct(const struct snapshot *s, const struct snap_func *f, int ev)
{
	uint64_t n = has_cg(s, ev) ? cg_samples(s->cg, ev) : 0;

	return n ? 100.0 * (double)children_of(s, f, ev) / (double)n : 0;
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

/* Room for an event's name escaped. */
#define EV_TEXT_MAX (sizeof(((const struct snapshot *)0)->ev[0].name) * FMT_ESCAPE_MAX)

/* Event E's name escaped into BUF (EV_TEXT_MAX bytes), for the text outputs. */
static const char *ev_text(char *buf, const struct snapshot *s, int e)
{
	return fmt_escape(buf, EV_TEXT_MAX, s->ev[e].name);
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

	for (int e = 0; e < s->n_events; e++) {  /* a long name ends with ~ */
		char name[EV_TEXT_MAX], cell[EV_TEXT_MAX + 2];
		fmt_heading(cell, sizeof(cell), ev_text(name, s, e), "%", 12);
		fprintf(out, "%12s ", cell);
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
	char command[sizeof(s->command) * FMT_ESCAPE_MAX], target[sizeof(command) + 32];

	fmt_target(target, sizeof(target), s->pid, fmt_escape(command, sizeof(command), s->command),
		   s->system_wide);
	fprintf(out, "cyctop %.1fs  %s  PMU %s  lost %llu  throttled %llu%s", s->time, target, s->pmu,
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
		char count[40];
		uint64_t total;
		/* a window of a frequency-mode event has its samples' weight only */
		const char *what = fmt_event_total(ev, window, &total);

		if (ev->counted)  /* an integer in groups of three, as perf stat's */
			fmt_grouped(count, sizeof(count), ev->count);
		else
			snprintf(count, sizeof(count), "not counted");
		fputs("  ", out);
		fmt_put_escaped(out, ev->name, 24);
		fprintf(out, " sav %-10llu %s %-10llu count %-17s coverage %5.1f%%\n",
			(unsigned long long)ev->sav, what, (unsigned long long)total, count,
			100.0 * ev->coverage);
	}
	if (s->n_side > 0) {
		/* counted beside the events (engine/side.h), for the trees */
		fputs("  counted", out);
		for (int i = 0; i < s->n_side; i++)  /* whole numbers, never 1.2e+06 */
			fprintf(out, "  %s %.0f", s->side[i].name, s->side[i].count);
		fputs("\n", out);
	}
	if (s->system_wide)
		print_text_procs(out, s, window);
	/* a header cell is as wide as a row's "%12.2f ", its space included,
	 * so that long event names never run into each other */
	for (int e = 0; e < s->n_events; e++) {  /* a long name ends with ~ */
		char name[EV_TEXT_MAX], cell[EV_TEXT_MAX + 2];
		fmt_heading(cell, sizeof(cell), ev_text(name, s, e), "%", 12);
		fprintf(out, "%12s ", cell);
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
		char sig[32];

		if (s->exit_signal > 0)
			fprintf(out, "target %d killed by %s (status %d)\n", s->pid,
				fmt_signal(sig, sizeof(sig), s->exit_signal), s->exit_status);
		else if (s->exit_status >= 0)
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
		char name[EV_TEXT_MAX];
		for (int e = 0; e < s->n_events; e++) {
			ev_text(name, s, e);
			fprintf(out, ",%s:%s,%s:percent", name, fmt_event_unit(&s->ev[e]), name);
		}
		for (int e = 0; has_cg(s, e) && e < s->n_events; e++)
			fprintf(out, ",%s:children", ev_text(name, s, e));
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

/* "counted": {EVENT: count}, the counters beside the events (engine/side.h) */
static void json_side(struct json *j, const struct snapshot *s)
{
	if (s->n_side == 0)
		return;
	json_key(j, "counted");
	json_object_begin(j);
	for (int i = 0; i < s->n_side; i++)
		json_knum(j, s->side[i].name, s->side[i].count);
	json_end(j);
}

static void json_events(struct json *j, const struct snapshot *s, int window)
{
	json_key(j, "events");
	json_array_begin(j);
	for (int e = 0; e < s->n_events; e++) {
		const struct snap_event *ev = &s->ev[e];
		json_object_begin(j);
		json_kstr(j, "name", ev->name);
		json_ku64(j, "sav", ev->sav);
		json_ku64(j, "samples", window ? ev->window : fmt_event_samples(ev));
		json_kstr(j, "unit", fmt_event_unit(ev));
		if (window)
			json_ku64(j, "cumulative", ev->samples);
		json_knum(j, "count", ev->counted ? ev->count : NAN);
		json_knum(j, "coverage", ev->coverage);
		json_key(j, "group");
		if (ev->group == SNAP_EVERY_GROUP)
			json_null(j);  /* the reference, counted in every group */
		else
			json_int(j, ev->group);
		json_end(j);
	}
	json_end(j);
}

/* "KEY": {EVENT: N...} */
static void json_counts(struct json *j, const struct snapshot *s, const char *key,
			const uint64_t *n)
{
	json_key(j, key);
	json_object_begin(j);
	for (int e = 0; e < s->n_events; e++)
		json_ku64(j, s->ev[e].name, n[e]);
	json_end(j);
}

/* "samples": a row's counts: its window's with WINDOW, followed by its
 * "cumulative" ones (so that a script can check that the windows add up),
 * else its cumulative ones. */
static void json_samples(struct json *j, const struct snapshot *s, const uint64_t *samples,
			 const uint64_t *win, int window)
{
	json_counts(j, s, "samples", window ? win : samples);
	if (window)
		json_counts(j, s, "cumulative", samples);
}

static void json_pct(struct json *j, const char *key, uint64_t n, uint64_t total)
{
	json_key(j, key);
	json_fixed(j, 4, total ? 100.0 * (double)n / (double)total : 0.0);
}

/* json_samples, then "percent": {EVENT: P...} of the shown counts. */
static void json_shares(struct json *j, const struct snapshot *s, const uint64_t *samples,
			const uint64_t *win, int window)
{
	const uint64_t *n = window ? win : samples;

	json_samples(j, s, samples, win, window);
	json_key(j, "percent");
	json_object_begin(j);
	for (int e = 0; e < s->n_events; e++)
		json_pct(j, s->ev[e].name, n[e], window ? s->ev[e].window : s->ev[e].samples);
	json_end(j);
}

/* "KEY": [{"name", "module", "samples", "percent"}...]: the edges, percent
 * of the function's TOTAL samples. */
static void json_edges(struct json *j, const char *key, const struct cg_edge *e, size_t n,
		       uint64_t total)
{
	json_key(j, key);
	json_array_begin(j);
	for (size_t i = 0; i < n; i++) {
		json_object_begin(j);
		json_kstr(j, "name", e[i].name);
		json_kstr(j, "module", e[i].module);
		json_ku64(j, "samples", e[i].samples);
		json_pct(j, "percent", e[i].samples, total);
		json_end(j);
	}
	json_end(j);
}

/* With stacks: "children" per event, then the direct callers and callees
 * of the first event (cumulative, as the call graph is). */
static void json_calls(struct json *j, const struct snapshot *s, const struct snap_func *f)
{
	const struct cg_edge *e;
	uint64_t total;
	size_t n;

	json_key(j, "children");
	json_object_begin(j);
	for (int ev = 0; has_cg(s, ev) && ev < s->n_events; ev++) {
		json_key(j, s->ev[ev].name);
		json_fixed(j, 4, children_pct(s, f, ev));
	}
	json_end(j);
	cg_function(s->cg, f->name, f->module, 0, NULL, &total);
	n = cg_callers(s->cg, f->name, f->module, 0, &e);
	json_edges(j, "callers", e, n, total);
	n = cg_callees(s->cg, f->name, f->module, 0, &e);
	json_edges(j, "callees", e, n, total);
}

static void json_func(struct json *j, const struct snapshot *s, const struct snap_func *f,
		      int window)
{
	json_object_begin(j);
	json_kstr(j, "name", f->name);
	json_kstr(j, "module", f->module);
	if (s->system_wide && f->comm) {
		json_kstr(j, "comm", f->comm);
		json_ku64(j, s->process >= 0 ? "pid" : "nprocs", s->process >= 0 ? f->pid : f->nprocs);
	}
	json_shares(j, s, f->samples, f->window, window);
	if (has_cg(s, 0))
		json_calls(j, s, f);
	json_end(j);
}

/* "wall": {"elapsed_ns", "on_cpu_ns", "off_cpu_ns", "off_cpu": {REASON:
 * ns...}} of W (DESIGN.md: with off-cpu among the events). */
static void json_wall_row(struct json *j, const struct snap_wall_row *w)
{
	json_key(j, "wall");
	json_object_begin(j);
	json_ku64(j, "elapsed_ns", w->on_ns + w->off_ns);
	json_ku64(j, "on_cpu_ns", w->on_ns);
	json_ku64(j, "off_cpu_ns", w->off_ns);
	json_key(j, "off_cpu");
	json_object_begin(j);
	for (int r = 0; r < OFFCPU_REASONS; r++)
		json_ku64(j, offcpu_reason_name((enum offcpu_reason)r), w->reason_ns[r]);
	json_end(j);
	json_end(j);
}

/* Thread TID's "wall", when there is one. */
static void json_thread_wall(struct json *j, const struct snapshot *s, uint32_t tid)
{
	for (size_t i = 0; s->wall && i < s->wall->n; i++)
		if (s->wall->threads[i].tid == tid) {
			json_wall_row(j, &s->wall->threads[i]);
			return;
		}
}

/* Process PID's "wall": its threads' summed, when there are any. */
static void json_proc_wall(struct json *j, const struct snapshot *s, uint32_t pid)
{
	struct snap_wall_row sum = { .pid = pid };
	bool any = false;

	for (size_t i = 0; s->wall && i < s->wall->n; i++) {
		const struct snap_wall_row *w = &s->wall->threads[i];
		if (w->pid != pid)
			continue;
		any = true;
		sum.on_ns += w->on_ns;
		sum.off_ns += w->off_ns;
		for (int r = 0; r < OFFCPU_REASONS; r++)
			sum.reason_ns[r] += w->reason_ns[r];
	}
	if (any)
		json_wall_row(j, &sum);
}

/* A thread's or process's id: null for the row the ones past the limit share. */
static void json_id(struct json *j, const char *key, uint32_t id)
{
	json_key(j, key);
	if (id == PROFILE_TID_OTHER)
		json_null(j);
	else
		json_u64(j, id);
}

/* Every thread with samples (in the window with --window); the threads
 * past the per-thread limit share one row with a null tid. */
static void json_threads(struct json *j, const struct snapshot *s, int window)
{
	json_key(j, "threads");
	json_array_begin(j);
	for (size_t i = 0; i < s->n_threads; i++) {
		const struct snap_thread *th = &s->threads[i];
		const uint64_t *v = window ? th->window : th->samples;
		int any = 0;
		for (int e = 0; e < s->n_events; e++)
			any |= v[e] != 0;
		if (!any)
			continue;
		json_object_begin(j);
		json_id(j, "tid", th->tid);
		if (s->system_wide && th->tid != PROFILE_TID_OTHER)
			json_ku64(j, "pid", th->pid);
		json_kstr(j, "comm", th->comm);
		json_kbool(j, "ended", th->ended);
		json_shares(j, s, th->samples, th->window, window);
		json_thread_wall(j, s, th->tid);
		json_end(j);
	}
	json_end(j);
}

/* -a: every process with samples, sorted like the functions; the ones past
 * the limit share one row with a null pid. */
static void json_procs(struct json *j, const struct snapshot *s, int window)
{
	const struct snap_thread **order = ordered_procs(s, window);

	json_key(j, "processes");
	json_array_begin(j);
	for (size_t i = 0; order && i < s->n_procs; i++) {
		const struct snap_thread *p = order[i];
		if (!proc_visible(s, p, window))
			continue;
		json_object_begin(j);
		json_id(j, "pid", p->tid);
		json_kstr(j, "comm", p->comm);
		json_kstr(j, "user", p->user);
		json_kstr(j, "cgroup", p->cgroup);
		json_kbool(j, "ended", p->ended);
		json_shares(j, s, p->samples, p->window, window);
		json_proc_wall(j, s, p->tid);
		json_end(j);
	}
	free(order);
	json_end(j);
}

/* "groups", and the reference; with --mux runs, "runs" and "spread". */
static void json_mux(struct json *j, const struct snapshot *s)
{
	json_key(j, "groups");
	json_int(j, s->n_groups);
	if (s->slice_ms) {
		json_key(j, "slice_ms");
		json_int(j, s->slice_ms);
	}
	if (s->reference[0]) {
		json_key(j, "reference");
		json_object_begin(j);
		json_kstr(j, "name", s->reference);
		json_knum(j, "count", s->reference_count);
		json_end(j);
	}
	if (!s->runs_mode)
		return;
	json_key(j, "runs");
	json_array_begin(j);
	for (int k = 0; k < s->n_runs; k++) {
		json_object_begin(j);
		json_key(j, "group");
		json_int(j, s->runs[k].group);
		json_key(j, "run");
		json_int(j, s->runs[k].run);
		json_knum(j, "reference", s->runs[k].reference);
		json_end(j);
	}
	json_end(j);
	json_knum(j, "spread", s->spread);
}

/* "stacks": stacks collected, truncated (every event's, one each whatever
 * the sample weighs), samples past the node cap, and samples counted
 * without their stack. */
static void json_stacks(struct json *j, const struct snapshot *s)
{
	uint64_t n, trunc, over;

	stack_sums(s, &n, &trunc, &over);
	json_key(j, "stacks");
	json_object_begin(j);
	json_ku64(j, "samples", n);
	json_ku64(j, "truncated", trunc);
	json_ku64(j, "skipped", s->stacks_skipped);
	json_ku64(j, "overflow", over);
	json_end(j);
}

static void json_functions(struct json *j, const struct snapshot *s, int window)
{
	const struct snap_func **order = ordered(s, window);

	json_key(j, "functions");
	json_array_begin(j);
	for (size_t i = 0; order && i < s->n_funcs; i++)
		if (row_visible(s, order[i], window))
			json_func(j, s, order[i], window);
	free(order);
	json_end(j);
}

static void json_modules(struct json *j, const struct snapshot *s, int window)
{
	json_key(j, "modules");
	json_array_begin(j);
	for (size_t i = 0; i < s->n_modules; i++) {
		const struct snap_module *m = &s->modules[i];
		json_object_begin(j);
		json_kstr(j, "module", m->module);
		json_samples(j, s, m->samples, m->window, window);
		json_end(j);
	}
	json_end(j);
}

/* -a, --cgroup: the processes summed by cgroup (engine/cgroup.h's names),
 * sorted like the modules. */
static void json_cgroups(struct json *j, const struct snapshot *s, int window)
{
	json_key(j, "cgroups");
	json_array_begin(j);
	for (size_t i = 0; i < s->n_cgroups; i++) {
		const struct snap_cgroup *c = &s->cgroups[i];
		json_object_begin(j);
		json_kstr(j, "name", c->name);
		json_shares(j, s, c->samples, c->window, window);
		json_end(j);
	}
	json_end(j);
}

static void print_json(FILE *out, const struct snapshot *s, int window)
{
	struct json j;

	json_init(&j, out);
	json_object_begin(&j);
	json_key(&j, "time");
	json_fixed(&j, 3, s->time);
	json_key(&j, "target");
	json_object_begin(&j);
	json_key(&j, "pid");
	json_int(&j, s->pid);
	json_kstr(&j, "command", s->command);
	json_end(&j);
	json_events(&j, s, window);
	if (s->wall)
		json_wall_row(&j, &s->wall->total);
	json_side(&j, s);
	json_mux(&j, s);
	json_ku64(&j, "lost", s->lost);
	json_ku64(&j, "throttled", s->throttled);
	json_kbool(&j, "window", window);
	json_functions(&j, s, window);
	json_modules(&j, s, window);
	json_threads(&j, s, window);
	if (s->system_wide) {
		json_procs(&j, s, window);
		json_cgroups(&j, s, window);
	}
	if (s->process >= 0) {
		json_key(&j, "pid");
		json_int(&j, s->process);
	}
	if (s->cg)
		json_stacks(&j, s);
	if (s->thread)
		json_ku64(&j, "tid", s->thread);
	if (s->ended) {
		json_kbool(&j, "ended", true);
		json_key(&j, "exit_status");
		if (s->exit_status >= 0)
			json_int(&j, s->exit_status);
		else
			json_null(&j);
		if (s->exit_signal > 0) {
			char sig[32];

			json_kstr(&j, "exit_signal", fmt_signal(sig, sizeof(sig), s->exit_signal));
		}
	}
	json_end(&j);
	fputc('\n', out);
}

struct order_ctx {
	const struct snapshot *s;
	int window;
};

/* By the first event's samples (window or cumulative), then (the pure
 * callers among others) by children. */
static int by_first_event(const void *a, const void *b, void *ctx)
{
	const struct snap_func *x = *(const struct snap_func *const *)a;
	const struct snap_func *y = *(const struct snap_func *const *)b;
	const struct order_ctx *o = ctx;
	uint64_t nx = row_samples(x, 0, o->window), ny = row_samples(y, 0, o->window);

	if (nx != ny)
		return nx < ny ? 1 : -1;
	nx = children_of(o->s, x, 0);
	ny = children_of(o->s, y, 0);
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
	if (s->n_events > 0)
		qsort_r(order, s->n_funcs, sizeof(*order), by_first_event,
			&(struct order_ctx){ s, window });
	return order;
}

static int proc_by_first_event(const void *a, const void *b, void *window)
{
	const struct snap_thread *x = *(const struct snap_thread *const *)a;
	const struct snap_thread *y = *(const struct snap_thread *const *)b;
	int w = *(const int *)window;
	uint64_t nx = w ? x->window[0] : x->samples[0];
	uint64_t ny = w ? y->window[0] : y->samples[0];

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
	if (s->n_events > 0)
		qsort_r(order, s->n_procs, sizeof(*order), proc_by_first_event, &window);
	return order;
}

/* --format folded prints the stacks of the last snapshot once: a refresh
 * renders them into struct top_folded, and they are written when the
 * target has ended, else by top_print_finish() after the last refresh (-n,
 * a signal).  Watching without -g is refused when the options are parsed; a
 * recorded session without stacks gets one error and exit status
 * EXIT_USAGE. */
int top_print_finish(struct top_folded *folded)
{
	if (folded->text && !folded->done && folded->svg) {
		fwrite(folded->text, 1, folded->len, folded->out);
		fflush(folded->out);
	} else if (folded->text && !folded->done) {
		/* one stack a line: the names escaped, as in every text output */
		for (char *line = strtok(folded->text, "\n"); line; line = strtok(NULL, "\n")) {
			fmt_put_escaped(folded->out, line, 0);
			fputc('\n', folded->out);
		}
		fflush(folded->out);
	}
	free(folded->text);
	folded->text = NULL;
	folded->done = true;
	return folded->missing ? -1 : 0;
}

/* --format flame: the snapshot's stacks as an SVG; -2 when the metric is
 * unknown (said, and the watch's status says it: EXIT_USAGE), -1 out of
 * memory. */
static int write_svg(FILE *mem, const struct snapshot *s, struct top_folded *folded)
{
	const char *names[EVENTS_MAX];
	struct flame_metric m;
	char err[1024], title[512];

	for (int e = 0; e < s->n_events && e < EVENTS_MAX; e++)
		names[e] = s->ev[e].name;
	struct flame_base base;
	bool with_base = baseline_flame(folded->baseline, s, &base);
	if (flame_pick_metric(names, s->n_events, with_base ? &base : NULL, folded->metric, &m, err,
			      sizeof(err)) < 0) {
		cmd_error("%s", err);
		folded->missing = true;
		folded->done = true;
		return -2;
	}
	struct flame *f = flame_from_cg(s->cg, NULL);
	if (!f)
		return -1;
	flame_scale_from(f, s);
	snprintf(title, sizeof(title), "cyctop flame graph: %s of %s", s->ev[0].name,
		 s->command[0] ? s->command : "the session");
	int rc = flame_write_svg(mem, f, &m, title);
	flame_free(f);
	return rc;
}

/* Folded stacks weigh samples; off-cpu's (nanoseconds away) weigh
 * microseconds, as off-CPU flame graphs do. */
static uint64_t folded_unit(const struct snapshot *s)
{
	return s->n_events && strcmp(s->ev[0].name, "off-cpu") == 0 ? 1000 : 1;
}

static void print_folded(FILE *out, const struct snapshot *s, struct top_folded *folded)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	if (folded->done)
		return;
	if (!s->cg) {  /* a recorded session without stacks */
		cmd_error("--format %s: no call stacks in this session",
			  folded->svg ? "flame" : "folded");
		folded->missing = true;
		folded->done = true;
		return;
	}
	if (!(mem = open_memstream(&text, &len))) {
		cmd_error("--format folded: out of memory");
		return;
	}
	int rc = s->n_events == 0 ? 0
		 : folded->svg ? write_svg(mem, s, folded)
		 : cg_write_folded_div(s->cg, 0, folded_unit(s), mem);
	if (fclose(mem) != 0 || rc < 0) {
		if (rc != -2)
			cmd_error("--format %s: out of memory", folded->svg ? "flame" : "folded");
		free(text);
		return;
	}
	free(folded->text);
	if (!folded->out)   /* -o FILE opened it already */
		folded->out = out;
	folded->text = text;
	folded->len = len;
	if (s->ended)
		top_print_finish(folded);
}

void top_print(FILE *out, const struct snapshot *s, enum out_format fmt, int window,
	       int first, struct top_folded *folded)
{
	if (fmt == OUT_TEXT)
		print_text(out, s, window);
	else if (fmt == OUT_CSV)
		print_csv(out, s, window, first);
	else if (fmt == OUT_FOLDED || fmt == OUT_FLAME)
		print_folded(out, s, folded);
	else
		print_json(out, s, window);
	fflush(out);
}
