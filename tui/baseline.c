/* The hotspots view against a baseline: see tui/baseline.h. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/counts-file.h"
#include "engine/disasm.h"
#include "engine/offcpu.h"
#include "lib/hashtab.h"
#include "engine/pprof.h"
#include "engine/session.h"
#include "tui/baseline.h"
#include "tui/cmd.h"
#include "tui/tui.h"
#include "tui/ui.h"

struct base_func {
	const char *name, *modbase;   /* interned */
	const char *module;           /* the first path seen (interned) */
	double count[EVENTS_MAX];     /* the baseline's events */
};

/* One source line of the function the asm view shows, in the baseline. */
struct base_line {
	const char *file;             /* basename, interned */
	int line;
	double count[EVENTS_MAX];
};

struct baseline {
	bool rates;                   /* marked live: compare rates per CPU second */
	double cpu_s;                 /* marked: CPU (or watch) seconds until the mark */
	int n_events;
	char names[EVENTS_MAX][EVENT_NAME_MAX];
	double per_sample[EVENTS_MAX];/* events one sample stands for */
	struct counts counts;         /* what the trees read */
	struct flame *fl;             /* its stacks, NULL without */
	struct session *sess;         /* recorded: kept for the asm view's lines */
	/* the lines of one function, the last the asm view asked for */
	const char *lines_of, *lines_mod;   /* interned; NULL: none yet */
	bool lines_ok;
	struct base_line *lines;
	size_t n_lines, lines_alloc;
	struct base_func *funcs;
	size_t n, alloc;
	struct hashtab index;
	struct strpool pool;
	const char *program;          /* its program's basename (interned), NULL */
	char label[320];
};

static const char *modbase_of(const char *module)
{
	const char *slash = strrchr(module, '/');

	return slash && module[0] != '[' ? slash + 1 : module;
}

/* The baseline's name for MODULE of NOW: the watched program is one module
 * on both sides whatever its name (prog.old against prog), as cyctop diff
 * pairs them; every other module by its basename. */
static const char *base_modbase(const struct baseline *b, const struct snapshot *now,
				const char *module)
{
	const char *mb = modbase_of(module), *prog;

	if (b->program && (prog = snapshot_program(now)) && strcmp(mb, prog) == 0)
		return b->program;
	return mb;
}

struct fkey {
	const char *name, *modbase;
};

static bool fkey_eq(const void *key, uint32_t idx, const void *ctx)
{
	const struct fkey *k = key;
	const struct baseline *b = ctx;

	return strcmp(b->funcs[idx].name, k->name) == 0 &&
	       strcmp(b->funcs[idx].modbase, k->modbase) == 0;
}

static uint64_t fkey_hash(const struct fkey *k)
{
	return hash_mix(hash_str(k->name) ^ hash_mix(hash_str(k->modbase)));
}

/* What one sample of event E of S stands for: SAV, scaled up by coverage. */
static double per_sample(const struct snapshot *s, int e)
{
	double cov = s->ev[e].coverage > 0 && s->ev[e].coverage < 1 ? s->ev[e].coverage : 1;

	return (double)s->ev[e].sav / cov;
}

/* Event E's count in a row of S. */
static double count_of(const struct snapshot *s, const uint64_t *samples, int e)
{
	return (double)samples[e] * per_sample(s, e);
}

/* Seconds of CPU of S: its sampled clock event (ns), else the watch's time. */
static double cpu_seconds(const struct snapshot *s)
{
	for (int e = 0; e < s->n_events; e++)
		if (strcmp(s->ev[e].name, "cpu-clock") == 0 || strcmp(s->ev[e].name, "task-clock") == 0)
			return (double)s->ev[e].samples * (double)s->ev[e].sav / 1e9;
	return s->time;
}

static int add_func(struct baseline *b, const struct snapshot *s, const struct snap_func *f)
{
	struct fkey k = { strpool_intern(&b->pool, f->name),
			  strpool_intern(&b->pool, modbase_of(f->module)) };
	if (!k.name || !k.modbase)
		return -1;
	uint64_t h = fkey_hash(&k);
	uint32_t i = hashtab_find(&b->index, h, &k, fkey_eq, b);
	if (i == HASHTAB_NONE) {
		if (GROW(b->funcs, b->n + 1, b->alloc) < 0 ||
		    hashtab_add(&b->index, h, (uint32_t)b->n) < 0)
			return -1;
		i = (uint32_t)b->n++;
		memset(&b->funcs[i], 0, sizeof(b->funcs[i]));
		b->funcs[i].name = k.name;
		b->funcs[i].modbase = k.modbase;
		if (!(b->funcs[i].module = strpool_intern(&b->pool, f->module)))
			return -1;
	}
	for (int e = 0; e < s->n_events; e++)
		b->funcs[i].count[e] += count_of(s, f->samples, e);
	return 0;
}

static struct baseline *from_snapshot(const struct snapshot *s)
{
	struct baseline *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	counts_init(&b->counts);
	b->n_events = s->n_events;
	for (int e = 0; e < s->n_events; e++) {
		snprintf(b->names[e], sizeof(b->names[e]), "%s", s->ev[e].name);
		b->per_sample[e] = per_sample(s, e);
	}
	baseline_snapshot_counts(s, &b->counts);
	if (s->cg && s->n_events > 0) {
		if (!(b->fl = flame_from_cg(s->cg, NULL))) {
			baseline_free(b);
			return NULL;
		}
		flame_scale_from(b->fl, s);
	}
	for (size_t i = 0; i < s->n_funcs; i++)
		if (add_func(b, s, &s->funcs[i]) < 0) {
			baseline_free(b);
			return NULL;
		}
	const char *prog = snapshot_program(s);
	b->program = prog ? strpool_intern(&b->pool, prog) : NULL;
	return b;
}

/* Counts files: the tree's counts only. */
static struct baseline *open_counts(const char *path, char *err, size_t errsz)
{
	struct baseline *b = calloc(1, sizeof(*b));
	char *paths[] = { (char *)path };

	if (!b) {
		snprintf(err, errsz, "--baseline %s: out of memory", path);
		return NULL;
	}
	counts_init(&b->counts);
	if (counts_load_files(&b->counts, paths, 1, err, errsz) < 0) {
		baseline_free(b);
		return NULL;
	}
	snprintf(b->label, sizeof(b->label), "baseline %s", path);
	return b;
}

struct baseline *baseline_open(const char *path, const struct sym_naming *how, char *err,
			       size_t errsz)
{
	struct session_file_opts o = { .path = path };
	bool pprof = session_is_pprof(path);

	if (how)
		o.naming = *how;
	if (!pprof && !session_is_perfdata(path))
		return open_counts(path, err, errsz);
	struct session *s = pprof ? session_open_pprof(path, err, errsz)
				  : session_open_file(&o, err, errsz);
	if (!s)
		return NULL;
	while (!ui_pending_signal() && !session_poll(s, 100))
		;
	struct snapshot *snap = session_snapshot(s);
	struct baseline *b = snap ? from_snapshot(snap) : NULL;
	if (!b) {
		snprintf(err, errsz, "--baseline %s: out of memory", path);
		session_close(s);
	} else {
		snprintf(b->label, sizeof(b->label), "baseline %s", path);
		b->sess = s;  /* the asm view reads its code and samples */
	}
	snapshot_free(snap);
	return b;
}

struct baseline *baseline_mark(const struct snapshot *s)
{
	struct baseline *b = from_snapshot(s);

	if (!b)
		return NULL;
	b->rates = true;
	b->cpu_s = cpu_seconds(s);
	snprintf(b->label, sizeof(b->label), "baseline marked at %.1f s (rates per %s second)",
		 s->time, cpu_seconds(s) != s->time ? "CPU" : "watch");
	return b;
}

void baseline_free(struct baseline *b)
{
	if (!b)
		return;
	free(b->funcs);
	free(b->lines);
	flame_free(b->fl);
	counts_free(&b->counts);
	session_close(b->sess);
	hashtab_free(&b->index);
	strpool_free(&b->pool);
	free(b);
}

static int base_event(const struct baseline *b, const char *name)
{
	for (int e = 0; e < b->n_events; e++)
		if (strcmp(b->names[e], name) == 0)
			return e;
	return -1;
}

/* A count in 9 columns with a sign and an SI suffix: "+69.0M". */
static void compact(char *buf, size_t sz, double v)
{
	static const char suffix[] = " kMGTPE";
	double a = fabs(v);
	int k = 0;

	while (a >= 999.5 && k < 6) {
		a /= 1000;
		k++;
	}
	if (k == 0)
		snprintf(buf, sz, "%+10.0f", v);
	else
		snprintf(buf, sz, "%+9.*f%c", a < 9.95 ? 2 : a < 99.5 ? 1 : 0, v < 0 ? -a : a,
			 suffix[k]);
}

void baseline_cell(const struct baseline *b, const struct snapshot *now,
		   const struct snap_func *f, int e, enum base_mode mode, char *buf, size_t sz)
{
	int be = base_event(b, now->ev[e].name);
	struct fkey k = { f->name, base_modbase(b, now, f->module) };
	uint32_t i = be < 0 ? HASHTAB_NONE : hashtab_find(&b->index, fkey_hash(&k), &k, fkey_eq, b);
	double then = i == HASHTAB_NONE ? 0 : b->funcs[i].count[be];
	double cur = count_of(now, f->samples, e);

	if (be < 0) {
		snprintf(buf, sz, "%10s", "-");
		return;
	}
	if (b->rates) {
		/* the rate since the mark against the rate until it */
		double since = cpu_seconds(now) - b->cpu_s;
		cur = since > 0 ? (cur - then) / since : 0;
		then = b->cpu_s > 0 ? then / b->cpu_s : 0;
	}
	baseline_delta_cell(cur, then, mode, buf, sz);
}

void baseline_delta_cell(double cur, double then, enum base_mode mode, char *buf, size_t sz)
{
	if (mode == BASE_DELTA_PCT) {
		if (then > 0)
			snprintf(buf, sz, "%+9.1f%%", 100 * (cur - then) / then);
		else
			snprintf(buf, sz, "%10s", cur > 0 ? "new" : "0");
	} else {
		compact(buf, sz, cur - then);
	}
}

void baseline_heading(const struct baseline *b, const struct snapshot *now, int e,
		      enum base_mode mode, char *buf, size_t sz)
{
	const char *name = now->ev[e].name;
	bool clock = strncmp(name, "cpu-clock", 9) == 0 || strncmp(name, "task-clock", 10) == 0;
	char unit[16] = "";

	if (mode != BASE_DELTA_PCT)
		snprintf(unit, sizeof(unit), " %s%s", clock ? "ns" : "events", b->rates ? "/s" : "");
	int room = BASELINE_HEADING_COLS - 3 - (int)strlen(unit);
	snprintf(buf, sz, "%s %.*s%s", mode == BASE_DELTA_PCT ? "d%" : "d", room > 1 ? room : 1,
		 name, unit);
}

const char *baseline_label(const struct baseline *b)
{
	return b->label;
}

/* ---- the tree ------------------------------------------------------------ */

/* The wall time's inputs: the batch JSON's "wall" fields, in ns. */
static void wall_counts(const struct snap_wall *w, struct counts *c)
{
	char name[64];

	counts_add(c, "wall.on_cpu_ns", (double)w->total.on_ns, 0);
	for (int r = 0; r < OFFCPU_REASONS; r++) {
		snprintf(name, sizeof(name), "wall.off_cpu.%s",
			 offcpu_reason_name((enum offcpu_reason)r));
		counts_add(c, name, (double)w->total.reason_ns[r], 0);
	}
}

void baseline_snapshot_counts(const struct snapshot *s, struct counts *c)
{
	counts_init(c);
	for (int e = 0; s && e < s->n_events; e++)
		if (s->ev[e].counted)
			counts_add(c, s->ev[e].name, s->ev[e].count, 0);
	/* the counters counted beside them (a host without a PMU: the
	 * software tree's) */
	for (int i = 0; s && i < s->n_side; i++)
		counts_add(c, s->side[i].name, s->side[i].count, 0);
	/* the OS time reference the trees accept, as perf stat names it */
	if (s)
		counts_add(c, "duration_time", s->time * 1e9, 0);
	if (s && s->wall)   /* the wall tree's (arch/tree-wall.c) */
		wall_counts(s->wall, c);
}

/* SRC's entries into DST (initialized), each value (minus SUB's entry of
 * the same name, when SUB) over DIV. */
static int copy_counts(struct counts *dst, const struct counts *src, const struct counts *sub,
		       double div)
{
	for (size_t i = 0; i < src->n; i++) {
		const struct count_entry *in = &src->v[i];
		double v = in->value;
		for (size_t k = 0; sub && k < sub->n; k++)
			if (strcmp(sub->v[k].name, in->name) == 0)
				v -= sub->v[k].value;
		struct count_entry *out = counts_add(dst, in->name, div > 0 ? v / div : 0, 0);
		if (!out)
			return -1;
		out->not_counted = in->not_counted;
	}
	return 0;
}

int baseline_tree_counts(const struct baseline *b, const struct snapshot *now,
			 const struct counts *now_c, struct counts *cur_c, struct counts *base_c)
{
	double since = b->rates ? cpu_seconds(now) - b->cpu_s : 1;

	counts_init(cur_c);
	counts_init(base_c);
	if (copy_counts(cur_c, now_c, b->rates ? &b->counts : NULL, b->rates ? since : 1) < 0 ||
	    copy_counts(base_c, &b->counts, NULL, b->rates ? b->cpu_s : 1) < 0) {
		counts_free(cur_c);
		counts_free(base_c);
		return -1;
	}
	return 0;
}

void baseline_node_cell(const struct node_value *cur, const struct node_value *base,
			enum arch_unit unit, enum base_mode mode, char *buf, size_t sz)
{
	if (cur->state != NODE_VALUE || base->state != NODE_VALUE) {
		snprintf(buf, sz, "%10s", "-");
		return;
	}
	double d = cur->value - base->value;
	if (mode == BASE_DELTA_PCT) {
		if (base->value != 0)
			snprintf(buf, sz, "%+9.1f%%", 100 * d / fabs(base->value));
		else
			snprintf(buf, sz, "%10s", d != 0 ? "new" : "0");
	} else if (unit == UNIT_CYCLES || unit == UNIT_COUNT || unit == UNIT_NONE) {
		compact(buf, sz, d);
	} else {
		snprintf(buf, sz, "%+10.3g", d);
	}
}

/* ---- the flame graph ------------------------------------------------------ */

bool baseline_flame(const struct baseline *b, const struct snapshot *now,
		    struct flame_base *out)
{
	if (!b || !b->fl)
		return false;
	*out = (struct flame_base){ b->fl, 1, 1 };
	if (b->rates) {
		double since = cpu_seconds(now) - b->cpu_s;
		out->k_now = since > 0 ? 1 / since : 0;
		out->k_base = out->k_now + (b->cpu_s > 0 ? 1 / b->cpu_s : 0);
	}
	return true;
}

/* ---- the asm view's source lines ------------------------------------------ */

static const char *file_base(const char *file)
{
	const char *slash = strrchr(file, '/');

	return slash ? slash + 1 : file;
}

/* The recorded baseline's function NAME in a module of basename MODBASE:
 * its samples per source line into B->lines. */
static int load_lines(struct baseline *b, const char *name, const char *modbase)
{
	struct fkey k = { name, modbase };
	uint32_t i = hashtab_find(&b->index, fkey_hash(&k), &k, fkey_eq, b);
	char err[256];

	b->n_lines = 0;
	b->lines_ok = false;
	if (i == HASHTAB_NONE)
		return 0;
	const struct asm_func *fn = session_asm(b->sess, name, b->funcs[i].module, err,
						sizeof(err));
	struct ip_counts *ipc = fn ? session_ip_counts(b->sess, fn) : NULL;
	if (!ipc)
		return 0;
	for (size_t j = 0; j < ipc->n; j++) {
		long at = asm_find(fn, ipc->ips[j].ip);
		if (at < 0 || !fn->insn[at].file)
			continue;
		const char *file = strpool_intern(&b->pool, file_base(fn->insn[at].file));
		size_t l = 0;
		while (l < b->n_lines && !(b->lines[l].file == file &&
					   b->lines[l].line == fn->insn[at].line))
			l++;
		if (!file || (l == b->n_lines && GROW(b->lines, b->n_lines + 1, b->lines_alloc) < 0)) {
			free(ipc);
			return -1;
		}
		if (l == b->n_lines) {
			memset(&b->lines[l], 0, sizeof(b->lines[l]));
			b->lines[l].file = file;
			b->lines[l].line = fn->insn[at].line;
			b->n_lines++;
		}
		for (int e = 0; e < b->n_events && e < ipc->n_events; e++)
			b->lines[l].count[e] += (double)ipc->ips[j].samples[e] * b->per_sample[e];
	}
	b->lines_ok = true;
	free(ipc);
	return 0;
}

bool baseline_line_count(struct baseline *b, const struct snapshot *now, const char *name,
			 const char *module, int ev, const char *file, int line, double *count)
{
	if (!b || !b->sess || b->rates || ev < 0 || ev >= now->n_events)
		return false;
	const char *iname = strpool_intern(&b->pool, name);
	const char *imod = strpool_intern(&b->pool, base_modbase(b, now, module));
	if (!iname || !imod)
		return false;
	if (iname != b->lines_of || imod != b->lines_mod) {
		b->lines_of = iname;
		b->lines_mod = imod;
		if (load_lines(b, iname, imod) < 0)
			b->lines_ok = false;
	}
	int be = base_event(b, now->ev[ev].name);
	if (!b->lines_ok || be < 0)
		return false;
	*count = 0;
	for (size_t l = 0; l < b->n_lines; l++)
		if (b->lines[l].line == line && strcmp(b->lines[l].file, file_base(file)) == 0)
			*count = b->lines[l].count[be];
	return true;
}

/* ---- the view's side ------------------------------------------------------ */

static const char *const mode_names[BASE_MODES] = { "absolute", "delta", "delta %" };

int tui_open_baseline(struct tui *t, const char *path)
{
	char err[512];

	t->baseline = baseline_open(path, t->sess ? session_naming(t->sess) : NULL, err,
				    sizeof(err));
	if (!t->baseline) {
		cmd_error("%s", err);
		return -1;
	}
	t->base_mode = BASE_DELTA;
	snprintf(t->message, sizeof(t->message), "%s: delta columns (D: absolute, delta, delta %%)",
		 baseline_label(t->baseline));
	return 0;
}

bool tui_baseline_key(struct tui *t, int key)
{
	if (key == 'D') {
		if (!t->baseline) {
			snprintf(t->message, sizeof(t->message),
				 "no baseline: --baseline FILE, or B in a live watch");
			return true;
		}
		t->base_mode = (t->base_mode + 1) % BASE_MODES;
		snprintf(t->message, sizeof(t->message), "%s: %s", baseline_label(t->baseline),
			 mode_names[t->base_mode]);
		return true;
	}
	if (key != 'B')
		return false;
	if (!t->snap || !t->sess || session_is_recorded(t->sess)) {
		snprintf(t->message, sizeof(t->message),
			 "B marks a live watch's profile (a recording: --baseline FILE)");
		return true;
	}
	struct baseline *b = baseline_mark(t->snap);
	if (!b) {
		snprintf(t->message, sizeof(t->message), "baseline: out of memory");
		return true;
	}
	baseline_free(t->baseline);
	t->baseline = b;
	t->base_mode = BASE_DELTA_PCT;
	snprintf(t->message, sizeof(t->message), "%s (D: absolute, delta, delta %%)",
		 baseline_label(b));
	return true;
}

bool tui_baseline_cell(const struct tui *t, const struct snap_func *f, int e, char *buf,
		       size_t sz)
{
	if (!t->baseline || t->base_mode == BASE_ABSOLUTE || t->window)
		return false;
	baseline_cell(t->baseline, t->snap, f, e, t->base_mode, buf, sz);
	return true;
}

bool tui_baseline_heading(const struct tui *t, int e, char *buf, size_t sz)
{
	if (!t->baseline || t->base_mode == BASE_ABSOLUTE || t->window)
		return false;
	baseline_heading(t->baseline, t->snap, e, t->base_mode, buf, sz);
	return true;
}

bool tui_baseline_shown(const struct tui *t)
{
	return t->baseline && t->base_mode != BASE_ABSOLUTE && !t->window;
}
