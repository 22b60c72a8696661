/* cyctop diff BASE NEW (issue 29): before and after, with the statistics to
 * trust it.  Sessions (perf.data, pprof) are compared per function (matched
 * by name and module basename: addresses move between builds; the launched
 * program is one module on both sides whatever its name), per module and
 * per thread (by command name); whole runs in counts, time windows in rates
 * per CPU second.  Counts files (and, with -A, the counts of sessions) per
 * node of a metric tree (tui/diff-tree.c).  The numbers and their intervals
 * come from engine/diff.h; this file reads the inputs, tui/diff-print.c
 * writes text, csv or json. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/hashtab.h"
#include "arch/tree.h"
#include "engine/counts-file.h"
#include "engine/diff.h"
#include "engine/disasm.h"
#include "engine/perfdata.h"
#include "engine/pprof.h"
#include "engine/record.h"
#include "engine/session.h"
#include "engine/session-meta.h"
#include "tui/cmd.h"
#include "tui/format.h"
#include "tui/json.h"
#include "tui/opt.h"
#include "tui/diff-cmd.h"
#include "tui/ui.h"


/* ---- reading sessions -------------------------------------------------- */

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	/* "[vdso]", "[kernel.kallsyms]" have no directory */
	return slash && path[0] != '[' ? slash + 1 : path;
}

/* What a perf.data file says beyond its snapshot, in one pass over its
 * records: the samples of each attr (in frequency mode a sample's period
 * varies and the session keeps only their sum, so the mean period, for the
 * variance n * P^2, is that sum over the number of samples); the launched
 * executable, the target's first executable file mapping (exec reports
 * the program before its dynamic linker, and a process's maps list a PIE
 * or a fixed-address program before its libraries); whether the target
 * ended in the recording (its EXIT record); cyctop's own metadata. */
struct file_scan {
	uint64_t samples[EVENTS_MAX];
	char main[256];             /* the target's first executable mapping */
	uint64_t main_time;         /* its time (sample_id_all; 0: none) */
	bool exited;
	bool meta, meta_exit;       /* cyctop's metadata; its exit line */
};

static void scan_meta(struct perfdata *pd, struct file_scan *fs)
{
	size_t len = 0;
	const void *blob = perfdata_blob(pd, &len);
	char *text = blob && len ? malloc(len + 1) : NULL;
	struct session_meta m;

	if (!text)
		return;
	memcpy(text, blob, len);
	text[len] = '\0';
	fs->meta = session_meta_parse(text, &m);
	fs->meta_exit = fs->meta && m.has_exit;
	free(text);
}

static void scan_record(struct perfdata *pd, const struct rec_format *fmt, uint32_t pid,
			const struct perf_event_header *h, struct file_scan *fs)
{
	struct record rec;

	if (h->type == PERF_RECORD_SAMPLE) {
		int a = perfdata_record_attr(pd, h);
		if (a >= 0 && a < EVENTS_MAX)
			fs->samples[a]++;
		return;
	}
	bool map = (h->type == PERF_RECORD_MMAP || h->type == PERF_RECORD_MMAP2) &&
		   !(h->misc & PERF_RECORD_MISC_MMAP_DATA);
	if ((!map && h->type != PERF_RECORD_EXIT) || record_decode_fmt(h, fmt, &rec) < 0)
		return;
	/* first in time, not in the file: a recording's rings are merged by
	 * time, but a record that came late (a reader starved on a loaded
	 * machine) is written after later ones: ld.so's mapping came before
	 * the program's once, and the base was named ld-linux-x86-64.so.2 */
	if (map && rec.u.mmap.pid == pid && (rec.u.mmap.prot & PROT_EXEC) &&
	    rec.u.mmap.filename[0] == '/' && (!fs->main[0] || rec.sid_time < fs->main_time)) {
		snprintf(fs->main, sizeof(fs->main), "%s", base_name(rec.u.mmap.filename));
		fs->main_time = rec.sid_time;
	} else if (h->type == PERF_RECORD_EXIT && rec.u.task.pid == pid && rec.u.task.tid == pid)
		fs->exited = true;
}

static void scan_file(const char *path, uint32_t pid, struct file_scan *fs)
{
	char err[256];
	struct perfdata *pd = perfdata_open(path, err, sizeof(err));
	const struct perf_event_header *h;
	struct rec_format fmt;
	uint64_t off;

	if (!pd)
		return;
	scan_meta(pd, fs);
	if (perfdata_nr_attrs(pd)) {
		record_format_of(perfdata_attr(pd, 0), &fmt);
		while (perfdata_next(pd, &h, &off, err, sizeof(err)) == 1)
			scan_record(pd, &fmt, pid, h, fs);
	}
	perfdata_close(pd);
}

/* Run R read, its binaries' function tables kept in IMAGES (every run's). */
static int open_run(struct run_in *r, const struct diff_opts *o, struct func_images *images)
{
	char err[512];
	struct session_file_opts in = o->in;

	in.path = r->path;
	in.images = images;
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
 * the values being counts).  And what the run was: a whole run of its
 * program or a time window, and which module is its program. */
static void run_periods(struct run_in *r, int n_events)
{
	struct file_scan fs = { 0 };
	int samples_ev = -1;

	if (session_is_perfdata(r->path))
		scan_file(r->path, (uint32_t)r->snap->pid, &fs);
	else
		for (int e = 0; e < r->snap->n_events && samples_ev < 0; e++)
			if (strncmp(r->snap->ev[e].name, "samples", 7) == 0)
				samples_ev = e;
	for (int e = 0; e < n_events; e++) {
		const struct snap_event *ev = &r->snap->ev[r->ev[e]];
		double cov = ev->coverage > 0 && ev->coverage < 1 ? ev->coverage : 1;
		r->total[e] = (double)ev->samples * (double)ev->sav / cov;
		r->nsamples[e] = ev->sav > 1 ? ev->samples : fs.samples[r->ev[e]];
		if (samples_ev >= 0)
			r->nsamples[e] = r->snap->ev[samples_ev].samples;
		r->period[e] = ev->sav > 1 ? (double)ev->sav
			     : r->nsamples[e] ? (double)ev->samples / (double)r->nsamples[e] : 1;
	}
	/* cyctop's recordings say how the watch ended (an exit status, or
	 * none: -d or ^C cut it); perf's have the target's EXIT when it ran to
	 * its end; a profile of every CPU, or a pprof one, is a time window */
	r->whole = !r->snap->system_wide && (fs.meta ? fs.meta_exit : fs.exited);
	r->seconds = r->snap->time;
	snprintf(r->main_buf, sizeof(r->main_buf), "%s",
		 fs.main[0] ? fs.main : snapshot_program(r->snap) ? snapshot_program(r->snap) : "");
	r->main_module = r->main_buf[0] ? r->main_buf : NULL;
	r->per = 1;
}

/* Whether compared event NAME counts CPU time in nanoseconds: the clocks,
 * and a pprof profile's "cpu" (Go's, and cyctop's --format pprof). */
static bool cpu_time_event(const char *name)
{
	static const char *const clocks[] = { "cpu-clock", "task-clock", "cpu/nanoseconds" };

	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		size_t n = strlen(clocks[i]);
		if (strncmp(name, clocks[i], n) == 0 && (!name[n] || name[n] == ':'))
			return true;
	}
	return false;
}

/* Counts of whole runs, rates of time windows: a window's counts grow
 * with its length, so two windows compare per second of CPU time (the
 * sampled clock's; else per second of the watch), as the view's B does.
 * Each run's counts, totals and periods are divided by its seconds. */
static int choose_compare(struct diff_ctx *d)
{
	struct side *sides[2] = { &d->base, &d->new_ };
	bool windows = false;

	for (int s = 0; s < 2; s++)
		for (int r = 0; r < sides[s]->n; r++)
			windows |= !sides[s]->runs[r].whole;
	d->rates = d->o->compare == DIFF_CMP_RATES ||
		   (d->o->compare == DIFF_CMP_AUTO && windows);
	d->per_ev = -1;
	for (int e = 0; e < d->n_events && d->per_ev < 0; e++)
		if (cpu_time_event(d->names[e]))
			d->per_ev = e;
	for (int s = 0; s < 2 && d->rates; s++)
		for (int r = 0; r < sides[s]->n; r++) {
			struct run_in *ri = &sides[s]->runs[r];
			ri->per = d->per_ev >= 0 ? ri->total[d->per_ev] / 1e9 : ri->seconds;
			if (!(ri->per > 0)) {
				cmd_error("diff: %s: no %s to make rates of (--compare counts)",
					  ri->path, d->per_ev >= 0 ? "CPU time" : "duration");
				return -1;
			}
			for (int e = 0; e < d->n_events; e++) {
				ri->total[e] /= ri->per;
				ri->period[e] /= ri->per;
			}
		}
	return 0;
}

/* The key of module PATH in run R: its basename, the program's own
 * (main_key) for the launched executable of either side, and a base
 * module --pair-module names as its new name. */
static const char *module_key(const struct diff_ctx *d, const struct run_in *r,
			      const char *path)
{
	const char *b = base_name(path);

	if (d->main_key && r->main_module && strcmp(b, r->main_module) == 0)
		return d->main_key;
	for (int i = 0; r->base && i < d->o->n_pairs; i++)
		if (strcmp(b, d->o->pairs[i].old) == 0)
			return d->o->pairs[i].new_;
	return b;
}

const char *diff_base_module(const struct diff_ctx *d, const char *key)
{
	const struct run_in *b = &d->base.runs[0];

	if (d->main_key && b->main_module && strcmp(key, d->main_key) == 0)
		return b->main_module;
	for (int i = 0; i < d->o->n_pairs; i++)
		if (strcmp(key, d->o->pairs[i].new_) == 0)
			return d->o->pairs[i].old;
	return key;
}

/* The program's key: the new side's executable, when every run has one
 * (two builds under two names, prog.old and prog, are one program). */
static void choose_main_key(struct diff_ctx *d)
{
	struct side *sides[2] = { &d->base, &d->new_ };

	d->main_key = d->new_.runs[0].main_module;
	for (int s = 0; s < 2; s++)
		for (int r = 0; r < sides[s]->n; r++)
			if (!sides[s]->runs[r].main_module)
				d->main_key = NULL;
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
		o->count[e] = (double)samples[r->ev[e]] * (double)ev->sav / cov / r->per;
		o->var[e] = o->count[e] * r->period[e] / cov;
	}
}

/* Thread COMM's key in run R: the program's main thread (its command
 * name, the executable's basename cut to 15 characters) as the program's. */
static const char *thread_key(const struct diff_ctx *d, const struct run_in *r,
			      const char *comm)
{
	if (d->main_key && r->main_module && strncmp(comm, r->main_module, 15) == 0 &&
	    (strlen(comm) == strlen(r->main_module) || strlen(comm) == 15))
		return d->main_key;
	return comm;
}

static int run_rows(const struct diff_ctx *d, struct run_in *r, int n_events)
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
						     .module = module_key(d, r, s->funcs[i].module) };
		observe(r, n_events, s->funcs[i].samples, &r->funcs[r->nf++]);
	}
	r->mods = r->funcs + r->nf;
	for (size_t i = 0; i < s->n_modules; i++) {
		r->mods[r->nm] = (struct diff_obs){ .name = module_key(d, r, s->modules[i].module),
						    .module = "" };
		observe(r, n_events, s->modules[i].samples, &r->mods[r->nm++]);
	}
	/* threads by command name: thread ids do not survive a rerun */
	r->threads = r->mods + r->nm;
	for (size_t i = 0; i < s->n_threads; i++) {
		const struct snap_thread *t = &s->threads[i];
		const char *comm = t->tid == PROFILE_TID_OTHER ? "[other threads]"
				   : t->comm[0] ? t->comm : "[unnamed]";
		r->threads[r->nt] = (struct diff_obs){ .name = thread_key(d, r, comm), .module = "" };
		observe(r, n_events, t->samples, &r->threads[r->nt++]);
	}
	return 0;
}

static int open_side(struct side *sd, const struct diff_opts *o, struct func_images *images)
{
	sd->runs = calloc((size_t)sd->n, sizeof(*sd->runs));
	if (!sd->runs) {
		cmd_error("out of memory");
		return -1;
	}
	for (int r = 0; r < sd->n; r++) {
		sd->runs[r].path = sd->paths[r];
		if (open_run(&sd->runs[r], o, images) < 0)
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

/* The module of function NAME whose key is KEY in run R, or NULL. */
static const char *run_module(const struct diff_ctx *d, const struct run_in *r,
			      const char *name, const char *key)
{
	for (size_t i = 0; i < r->snap->n_funcs; i++)
		if (strcmp(r->snap->funcs[i].name, name) == 0 &&
		    strcmp(module_key(d, r, r->snap->funcs[i].module), key) == 0)
			return r->snap->funcs[i].module;
	return NULL;
}

/* The samples of function ROW in run R, one observation per sampled
 * address named "file:line" (file's basename; "[no line]" without DWARF
 * lines): diff_build adds up those of one line.  Instruction addresses do
 * not survive a rebuild; lines mostly do. */
static int run_lines(const struct diff_ctx *d, struct run_in *r, int n_events,
		     const struct diff_row *row, struct strpool *pool, struct diff_run *out)
{
	char err[256], label[512];
	const char *module = run_module(d, r, row->name, row->module);

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

static int side_lines(const struct diff_ctx *d, const struct side *sd, const struct diff_row *row,
		      struct strpool *pool, struct diff_run *runs)
{
	for (int r = 0; r < sd->n; r++)
		if (run_lines(d, &sd->runs[r], d->n_events, row, pool, &runs[r]) < 0)
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
			 : side_lines(d, &d->base, row, &d->pool, rb) < 0 ||
			   side_lines(d, &d->new_, row, &d->pool, rn) < 0 ? -1
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

/* ---- the command ------------------------------------------------------- */

static const char diff_usage[] =
	"usage: cyctop diff [OPTIONS] BASE NEW\n"
	"       cyctop diff [OPTIONS] -b BASE... -- NEW...";

static const char diff_prose[] =
	"BASE and NEW: perf.data files (cyctop record's, perf record's), pprof\n"
	"profiles, or counts files (then the metric tree, node by node).  Rows\n"
	"are matched by function name and module basename (the launched program\n"
	"is one module on both sides), sorted by the absolute delta; whole runs\n"
	"compare counts, time windows rates per CPU second (the header says\n"
	"which).  A 95% interval of each delta comes from sampling (one\n"
	"run a side: a count of n samples at period P varies by about n*P^2) or\n"
	"from the runs' spread (-b, two or more a side: Welch's t).  '*' (csv,\n"
	"json: significant) marks an interval that excludes 0.  See cyctop-diff(1).";

static const char *const compare_words[] = { "auto", "counts", "rates", NULL };

/* --pair-module OLD=NEW, repeatable */
static int opt_pair(void *value, const char *arg)
{
	struct diff_opts *o = value;
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1] || strchr(eq + 1, '=')) {
		opt_error("--pair-module '%s': give OLD=NEW, two module names", arg);
		return -1;
	}
	if (o->n_pairs == DIFF_PAIRS_MAX) {
		opt_error("--pair-module: at most %d pairs", DIFF_PAIRS_MAX);
		return -1;
	}
	/* ARG lives as long as argv: OLD is cut into the pair's own copy */
	char *old = strndup(arg, (size_t)(eq - arg));
	if (!old) {
		opt_error("out of memory");
		return -1;
	}
	o->pairs[o->n_pairs++] = (struct diff_pair){ base_name(old), base_name(eq + 1) };
	o->pair_mem[o->n_pairs - 1] = old;
	return 0;
}

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
		OPT_ENUM(0, "compare", &o->compare, compare_words, "auto|counts|rates",
			 "counts (whole runs), or rates per second of CPU time\n"
			 "(time windows); auto: rates if either side is a window"),
		OPT_CALLBACK(0, "pair-module", o, opt_pair, "OLD=NEW",
			     "the base's module OLD is the new's NEW (basenames;\n"
			     "repeatable); the launched programs pair by themselves"),
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
	/* libc's table read once for every run that maps it */
	struct func_images *images = func_images_new(&o->in.naming);

	d.base = (struct side){ "base", o->base, o->nb, NULL };
	d.new_ = (struct side){ "new", o->new_, o->nn, NULL };
	if (o->nb != o->nn && (o->nb == 1 || o->nn == 1)) {
		cmd_error("diff: %d run(s) of the base against %d of the new: one a side, or two "
			  "or more a side", o->nb, o->nn);
		func_images_free(images);
		return 1;
	}
	ui_install_signals();
	if (!images) {
		cmd_error("out of memory");
		return 1;
	}
	if (open_side(&d.base, o, images) < 0 || open_side(&d.new_, o, images) < 0 ||
	    common_events(&d) < 0)
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
			sides[s]->runs[r].base = s == 0;
			run_periods(&sides[s]->runs[r], d.n_events);
		}
	choose_main_key(&d);
	if (choose_compare(&d) < 0)
		goto out;
	for (int s = 0; s < 2; s++)
		for (int r = 0; r < sides[s]->n; r++)
			if (run_rows(&d, &sides[s]->runs[r], d.n_events) < 0)
				goto out;
	if (build_tables(&d) < 0 || (o->lines && build_lines(&d) < 0))
		goto out;
	if (o->tree != TREE_NONE && diff_tree_build(o, &td) < 0)
		goto out;
	if (o->format == OUT_JSON) {
		diff_print_json(&d, &td);
	} else if (o->format == OUT_CSV) {
		diff_print_csv(&d);
		if (td.def)
			diff_tree_csv(&td);
	} else {
		diff_print_text(&d);
		if (td.def)
			diff_tree_text(&td);
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
	func_images_free(images);  /* after every run's session */
	return rc;
}

static int diff_run(struct diff_opts *o)
{
	struct tree_diff td;

	int kind = inputs_kind(o);
	if (kind < 0)
		return EXIT_USAGE;
	if (kind)
		return diff_sessions(o);
	if (o->nb != o->nn && (o->nb == 1 || o->nn == 1)) {
		cmd_error("diff: %d file(s) of the base against %d of the new: one a side, or two "
			  "or more a side", o->nb, o->nn);
		return EXIT_USAGE;
	}
	if (diff_tree_build(o, &td) < 0)
		return 1;
	diff_tree_only(o, &td);
	return 0;
}

static int cmd_diff_exec(int argc, char **argv)
{
	struct diff_opts o;

	int rc = parse_args(argc, argv, &o) < 0 ? EXIT_USAGE : diff_run(&o);
	for (int i = 0; i < o.n_pairs; i++)
		free(o.pair_mem[i]);
	return rc;
}

const struct cmd_entry cmd_diff_entry = {
	"diff",
	"diff [-l] [--format text|csv|json] [--sort EVENT] [-A TREE] BASE NEW | -b BASE... -- NEW...",
	cmd_diff_exec,
};

