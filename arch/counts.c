/* Counts sets and the counts-file parser. */
#include "arch/counts.h"
#include "lib/hashtab.h"

#include "arch/lines.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_FIELDS 12
#define LINE_MAX_LEN 1024

void counts_init(struct counts *c)
{
	memset(c, 0, sizeof(*c));
}

static void memo_free(struct counts_memo *m);
static void memo_stale(struct counts *c);

static void memo_drop(struct counts *c)
{
	memo_free(c->memo);
	c->memo = NULL;
}

void counts_free(struct counts *c)
{
	free(c->v);
	memo_drop(c);
	counts_init(c);
}

static struct count_entry *find_exact(struct counts *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcasecmp(c->v[i].name, name) == 0)
			return &c->v[i];
	return NULL;
}

static struct count_entry *append(struct counts *c, const char *name)
{
	memo_stale(c);
	if (GROW(c->v, c->n + 1, c->cap) < 0)
		return NULL;
	struct count_entry *e = &c->v[c->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->coverage = 1.0;
	e->sources = 1;
	return e;
}

struct count_entry *counts_add(struct counts *c, const char *name, double value,
			       double period)
{
	struct count_entry *e = find_exact(c, name);
	double count = period > 0 ? value * period : value;

	if (!e) {
		e = append(c, name);
		if (!e)
			return NULL;
		e->period = period;
	} else if (e->period != period) {
		e->period = 0; /* mixed periods: only the normalized count stays meaningful */
	}
	e->value += count;
	if (period > 0)
		e->samples += value;
	return e;
}

/* --- parsing ----------------------------------------------------------- */

/* Splits on commas, except inside perf's PMU/.../ event syntax. */
static int split_fields(char *line, char **f)
{
	int n = 0;
	bool in_pmu = false;

	f[n++] = line;
	for (char *p = line; *p; p++) {
		if (*p == '/')
			in_pmu = !in_pmu;
		else if (*p == ',' && !in_pmu) {
			if (n == MAX_FIELDS)
				return -1;
			*p = '\0';
			f[n++] = p + 1;
		}
	}
	return n;
}

static bool parse_number(const char *s, double *out)
{
	char *end;

	if (!*s)
		return false;
	double v = strtod(s, &end);
	if (*lines_trim(end) || !isfinite(v))
		return false;
	*out = v;
	return true;
}

static int fail(char *err, size_t errsz, const char *fname, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int fail(char *err, size_t errsz, const char *fname, int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(err, errsz, "%s:%d: %s", fname, line, msg);
	return -1;
}

static bool looks_like_perf_stat(char **f, int n)
{
	double v;

	return n >= 3 && (f[0][0] == '<' || parse_number(f[0], &v));
}

/* perf stat -x, : VALUE,UNIT,EVENT,RUNTIME,PERCENT,... (already scaled). */
static int parse_perf_stat(struct counts *c, char **f, int n, const char *fname, int ln,
			   char *err, size_t errsz)
{
	const char *name = lines_trim(f[2]);
	double v = 0, pct;

	if (!*name)
		return fail(err, errsz, fname, ln, "no event name in perf stat line");
	if (strlen(name) >= COUNT_NAME_MAX)
		return fail(err, errsz, fname, ln, "event name too long");
	if (f[0][0] == '<') {
		/* adds nothing to a duplicate that did count */
		if (find_exact(c, name))
			return 0;
		struct count_entry *e = append(c, name);
		if (!e)
			return fail(err, errsz, fname, ln, "out of memory");
		e->not_counted = true;
		e->coverage = 0;
		return 0;
	}
	parse_number(f[0], &v);
	if (v < 0)
		return fail(err, errsz, fname, ln, "negative count for %s", name);
	/* perf prints clocks in msec; the kernel counts them in ns. */
	if (strcmp(lines_trim(f[1]), "msec") == 0)
		v *= 1e6;
	struct count_entry *e = counts_add(c, name, v, 0);
	if (!e)
		return fail(err, errsz, fname, ln, "out of memory");
	if (e->not_counted) {  /* a <not counted> duplicate before this line */
		e->not_counted = false;
		e->coverage = 1.0;
	}
	if (n >= 5 && parse_number(f[4], &pct) && pct >= 0 && pct <= 100)
		e->coverage = pct / 100.0;
	return 0;
}

/* Ours: EVENT,VALUE[,PERIOD]. */
static int parse_ours(struct counts *c, char **f, int n, const char *fname, int ln,
		      char *err, size_t errsz)
{
	const char *name = lines_trim(f[0]);
	double v, period = 0;

	if (n < 2 || n > 3)
		return fail(err, errsz, fname, ln,
			    "expected EVENT,VALUE[,PERIOD], got '%s'", name);
	if (!*name)
		return fail(err, errsz, fname, ln, "missing event name");
	if (strlen(name) >= COUNT_NAME_MAX)
		return fail(err, errsz, fname, ln, "event name too long");
	if (!parse_number(lines_trim(f[1]), &v))
		return fail(err, errsz, fname, ln, "value '%s' is not a number", lines_trim(f[1]));
	if (v < 0)
		return fail(err, errsz, fname, ln, "negative count for %s", name);
	if (n == 3 && (!parse_number(lines_trim(f[2]), &period) || period <= 0))
		return fail(err, errsz, fname, ln, "period '%s' is not a positive number",
			    lines_trim(f[2]));
	if (!counts_add(c, name, v, period))
		return fail(err, errsz, fname, ln, "out of memory");
	return 0;
}

int counts_parse(struct counts *c, const char *buf, size_t len, const char *fname,
		 char *err, size_t errsz)
{
	char line[LINE_MAX_LEN], *f[MAX_FIELDS];
	struct line_reader lr;
	size_t before = c->n;

	lines_init(&lr, buf, len);
	if (memchr(buf, '\0', len)) {
		/* report the line holding the first NUL byte */
		const char *nul = memchr(buf, '\0', len);
		int ln = 1;
		for (const char *p = buf; p < nul; p++)
			ln += *p == '\n';
		return fail(err, errsz, fname, ln, "binary data");
	}
	while (lines_next(&lr, line, sizeof(line), true)) {
		int ln = lr.number;
		if (lr.too_long)
			return fail(err, errsz, fname, ln, "line too long");
		char *s = lines_trim(line);
		if (!*s)
			continue;
		int n = split_fields(s, f);
		if (n < 0)
			return fail(err, errsz, fname, ln, "too many fields");
		int rc = looks_like_perf_stat(f, n)
			 ? parse_perf_stat(c, f, n, fname, ln, err, errsz)
			 : parse_ours(c, f, n, fname, ln, err, errsz);
		if (rc < 0)
			return rc;
	}
	if (c->n == before) {
		snprintf(err, errsz, "%s: no event counts in file", fname);
		return -1;
	}
	return 0;
}

void counts_merge(struct counts *dst, const struct counts *src)
{
	for (size_t i = 0; i < src->n; i++) {
		const struct count_entry *s = &src->v[i];
		struct count_entry *d = find_exact(dst, s->name);
		if (!d) {
			d = append(dst, s->name);
			if (!d)
				return;
			*d = *s;
			continue;
		}
		if (s->not_counted)
			continue;
		if (d->not_counted) {
			*d = *s;
			continue;
		}
		/* running mean over the files that measured it */
		double k = d->sources;
		d->value = (d->value * k + s->value) / (k + 1);
		d->samples = (d->samples * k + s->samples) / (k + 1);
		d->coverage = (d->coverage * k + s->coverage) / (k + 1);
		if (d->period != s->period)
			d->period = 0;
		d->sources++;
	}
}

/* --- perf's event names ------------------------------------------------ */

/* The kernel's sysfs aliases of the PERF_METRICS events (arch/x86/events/
 * intel/core.c, EVENT_ATTR_STR slots and topdown-*: event 0x00, umask 0x04
 * and 0x80..0x87), as intel/perfmon names the same encodings. */
static const char *const perf_aliases[][2] = {
	{ "slots", "TOPDOWN.SLOTS" },
	{ "topdown-retiring", "PERF_METRICS.RETIRING" },
	{ "topdown-bad-spec", "PERF_METRICS.BAD_SPECULATION" },
	{ "topdown-fe-bound", "PERF_METRICS.FRONTEND_BOUND" },
	{ "topdown-be-bound", "PERF_METRICS.BACKEND_BOUND" },
	{ "topdown-heavy-ops", "PERF_METRICS.HEAVY_OPERATIONS" },
	{ "topdown-br-mispredict", "PERF_METRICS.BRANCH_MISPREDICTS" },
	{ "topdown-fetch-lat", "PERF_METRICS.FETCH_LATENCY" },
	{ "topdown-mem-bound", "PERF_METRICS.MEMORY_BOUND" },
};

static bool starts_with(const char *s, const char *prefix)
{
	return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

bool counts_other_core_type(const char *name)
{
	return starts_with(name, "cpu_atom/");
}

/* One perf term (event=0xb1, umask=1, cmask=1, inv, edge) into CODE. */
static bool apply_term(struct arch_code *code, const char *key, const char *val)
{
	char *end;
	unsigned long v = val ? strtoul(val, &end, 0) : 1;

	if (val && (*end || end == val))
		return false;
	if (!strcasecmp(key, "event"))
		code->sel = (uint16_t)v;
	else if (!strcasecmp(key, "umask"))
		code->umask = (uint8_t)v;
	else if (!strcasecmp(key, "cmask") || !strcasecmp(key, "c"))
		code->cmask = (uint8_t)v;
	else if (!strcasecmp(key, "inv") || !strcasecmp(key, "i"))
		code->inv = v != 0;
	else if (!strcasecmp(key, "edge") || !strcasecmp(key, "e"))
		code->edge = v != 0;
	else
		return strcasecmp(key, "name") == 0 || strcasecmp(key, "period") == 0;
	return true;
}

/* Applies TERMS (separated by SEP) to CODE; false on a term we do not know. */
static bool apply_terms(struct arch_code *code, char *terms, const char *sep)
{
	char *save = NULL;

	for (char *t = strtok_r(terms, sep, &save); t; t = strtok_r(NULL, sep, &save)) {
		char *eq = strchr(t, '=');
		if (eq)
			*eq++ = '\0';
		if (!apply_term(code, t, eq) && !(!eq && strlen(t) <= 2))
			return false;  /* one- or two-letter flags: u, k, uk */
	}
	return true;
}

/* Strips perf's PMU wrapper: "cpu/X/mods", "cpu_core/X/mods" and an Arm core
 * PMU's "armv8_pmuv3_0/X/" become X. */
static const char *unwrap_pmu(const char *name, char *buf, size_t bufsz)
{
	const char *slash = strchr(name, '/'), *last = strrchr(name, '/');
	size_t len;

	/* Arm core PMUs: armv8_pmuv3_0/cpu_cycles/, armv8_neoverse_n1/r11/ */
	if (!slash || last == slash || !(starts_with(name, "cpu/") || starts_with(name, "cpu_core/") ||
					 starts_with(name, "armv8_")))
		return name;
	len = (size_t)(last - slash - 1);
	if (len >= bufsz)
		return name;
	memcpy(buf, slash + 1, len);
	buf[len] = '\0';
	return buf;
}

/* NAME as a model row or a paper would spell it: the PMU wrapper dropped,
 * "uops_executed.thread,cmask=1,inv" as "uops_executed.thread:c=1:i=1",
 * the kernel's topdown aliases as perfmon names. */
static const char *perf_spelling(const char *name, char *buf, size_t bufsz)
{
	char inner[COUNT_NAME_MAX];
	const char *in = unwrap_pmu(name, inner, sizeof(inner));

	for (size_t i = 0; i < sizeof(perf_aliases) / sizeof(perf_aliases[0]); i++)
		if (!strcasecmp(in, perf_aliases[i][0]))
			return perf_aliases[i][1];
	if (in == name || strchr(in, '=') == NULL || strchr(in, ',') == NULL ||
	    strchr(in, '=') < strchr(in, ','))
		return in == name ? name : (snprintf(buf, bufsz, "%s", in), buf);
	/* EVENT,term=v,...: the event's name then its modifiers */
	size_t n = 0;
	char terms[COUNT_NAME_MAX], *save = NULL;
	snprintf(terms, sizeof(terms), "%s", in);
	for (char *t = strtok_r(terms, ",", &save); t && n < bufsz;
	     t = strtok_r(NULL, ",", &save))
		n += (size_t)snprintf(buf + n, bufsz - n, "%s%s%s", n ? ":" : "", t,
				      n && !strchr(t, '=') ? "=1" : "");  /* inv, edge */
	return buf;
}

static bool is_hw_model(const struct arch_model *model)
{
	return model_is_hardware(model);
}

/* The vendor encoding NAME denotes under MODEL: perf's cpu/event=..,umask=../
 * terms, a raw rHEX, a model row, or a row with :c= :i= :e= modifiers. */
static bool event_code(struct model_index *ix, const struct arch_model *model, const char *name,
		       struct arch_code *code)
{
	char inner[COUNT_NAME_MAX], base[COUNT_NAME_MAX];
	const char *in = unwrap_pmu(name, inner, sizeof(inner));
	const struct arch_event *ev;

	memset(code, 0, sizeof(*code));
	if (starts_with(in, "event=")) {
		snprintf(base, sizeof(base), "%s", in);
		return apply_terms(code, base, ",");
	}
	if (!is_hw_model(model))
		return false;
	if (model_raw_decode(model, name, code))
		return true;
	if ((ev = model_index_lookup(ix, model, name)) != NULL && ev->pfm) {
		*code = ev->code;
		return true;
	}
	snprintf(base, sizeof(base), "%s", name);
	char *colon = strchr(base, ':');
	if (!colon)
		return false;
	*colon = '\0';
	if ((ev = model_index_lookup(ix, model, base)) == NULL || !ev->pfm)
		return false;
	*code = ev->code;
	return apply_terms(code, colon + 1, ":");
}

static bool code_equal(const struct arch_code *a, const struct arch_code *b)
{
	return a->sel == b->sel && a->umask == b->umask && a->cmask == b->cmask &&
	       a->inv == b->inv && a->edge == b->edge;
}

/* What a name denotes under a model: its perf spelling, the model's row,
 * its encoding, its canonical string (computed once per name, not per
 * comparison: model_lookup walks every row). */
struct resolved {
	char spelled_buf[COUNT_NAME_MAX];
	const char *spelled;
	const struct arch_event *row;
	bool has_code;
	struct arch_code code;
	bool has_canon;
	char canon[256];
};

static void resolve(struct model_index *ix, const struct arch_model *model, const char *name,
		    struct resolved *r)
{
	r->spelled = perf_spelling(name, r->spelled_buf, sizeof(r->spelled_buf));
	r->row = model ? model_index_lookup(ix, model, r->spelled) : NULL;
	r->has_code = event_code(ix, model, r->spelled, &r->code);
	r->has_canon = event_canon(r->spelled, r->canon, sizeof(r->canon));
}

/* Two rows of a model are two events even when they share an encoding (the
 * paper's DRAM_accesses and DRAM_accesses_0); encodings decide only when a
 * name is not a row: perf's cpu/event=../ terms, rHEX, a row with :c= :i=. */
static bool same_resolved(const struct resolved *a, const struct resolved *b)
{
	if (strcasecmp(a->spelled, b->spelled) == 0)
		return true;
	if (a->row && b->row)
		return a->row == b->row;
	if (a->has_code && b->has_code)
		return code_equal(&a->code, &b->code);
	if (a->row || b->row)
		return false;
	return a->has_canon && b->has_canon && strcmp(a->canon, b->canon) == 0;
}

struct counts_memo {
	const struct arch_model *model;
	struct model_index *ix;  /* the models' rows by spelling: kept across rebuilds */
	size_t n;
	struct resolved r[];
};

static void memo_free(struct counts_memo *m)
{
	if (m)
		model_index_free(m->ix);
	free(m);
}

/* The entries changed: their resolutions are redone, the index is kept
 * (it is the model's, not the entries'). */
static void memo_stale(struct counts *c)
{
	if (c->memo)
		c->memo->n = SIZE_MAX;
}

/* The entries of C resolved under MODEL, from the memo when it is for the
 * same model and entries (NULL when out of memory: resolve per call). */
static const struct resolved *entries_resolved(const struct counts *c,
					       const struct arch_model *model)
{
	/* the memo is a cache, not part of the counts' value */
	struct counts *mc = (struct counts *)c;

	if (mc->memo && mc->memo->model == model && mc->memo->n == c->n)
		return mc->memo->r;
	struct model_index *ix = mc->memo ? mc->memo->ix : model_index_new();
	free(mc->memo);
	mc->memo = malloc(sizeof(*mc->memo) + c->n * sizeof(struct resolved));
	if (!mc->memo) {
		model_index_free(ix);
		return NULL;
	}
	mc->memo->model = model;
	mc->memo->ix = ix;  /* NULL when out of memory: model_lookup's walk */
	mc->memo->n = c->n;
	for (size_t i = 0; i < c->n; i++)
		resolve(ix, model, c->v[i].name, &mc->memo->r[i]);
	return mc->memo->r;
}

/* Entries of the hybrid E-core PMU (cpu_atom) are kept apart: the trees are
 * computed on the P-core (cpu_core) rows, never on a sum of both.  Asked
 * for by its own name, an E-core entry is found all the same. */
const struct count_entry *counts_find(const struct counts *c,
				      const struct arch_model *model, const char *name)
{
	struct resolved q, e;
	const struct resolved *memo = NULL;
	bool q_done = false;

	for (size_t i = 0; i < c->n; i++) {
		const char *en = c->v[i].name;
		if (strcasecmp(en, name) == 0)
			return &c->v[i];
		if (counts_other_core_type(en))
			continue;
		if (!q_done) {
			memo = entries_resolved(c, model);
			resolve(memo ? c->memo->ix : NULL, model, name, &q);
			q_done = true;
		}
		if (!memo)
			resolve(NULL, model, en, &e);
		if (same_resolved(memo ? &memo[i] : &e, &q))
			return &c->v[i];
	}
	return NULL;
}

int counts_atom_rows(struct counts *dst, const struct counts *src)
{
	char inner[COUNT_NAME_MAX];

	counts_init(dst);
	for (size_t i = 0; i < src->n; i++) {
		const struct count_entry *e = &src->v[i];
		const char *name = e->name;
		if (counts_other_core_type(name)) {
			const char *slash = strchr(name, '/'), *last = strrchr(name, '/');
			size_t len = last > slash ? (size_t)(last - slash - 1) : 0;
			if (!len || len >= sizeof(inner))
				continue;
			memcpy(inner, slash + 1, len);
			inner[len] = '\0';
			name = inner;
		} else if (starts_with(name, "cpu_core/") || starts_with(name, "cpu/")) {
			continue;  /* a P-core event */
		}
		struct count_entry *d = append(dst, name);
		if (!d)
			return -1;
		snprintf(d->name, sizeof(d->name), "%s", name);
		d->value = e->value;
		d->samples = e->samples;
		d->period = e->period;
		d->coverage = e->coverage;
		d->not_counted = e->not_counted;
		d->sources = e->sources;
	}
	return 0;
}

size_t counts_kept_apart(const struct counts *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n; i++)
		n += counts_other_core_type(c->v[i].name);
	return n;
}
