/* The option parser every command uses: a table in, getopt_long inside. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch/model.h"
#include "arch/tree.h"
#include "engine/session.h"
#include "engine/symbols.h"
#include "tui/format.h"
#include "tui/opt.h"

#define HELP_COLUMN 24
#define LONG_ONLY 0x100  /* getopt's value for table row i without a letter: 0x100 + i */

const char *const opt_off_on[] = { "off", "on", NULL };
const char *const opt_formats_text[] = { "text", "csv", "json", NULL };
const char *const opt_formats_batch[] = { "text", "csv", "json", "folded", "pprof", "flame",
					  NULL };

/* -h/--help, implied in every table */
static const struct opt help_opt = { .short_name = 'h', .long_name = "help",
				     .kind = OPTK_FLAG, .help = "print this help" };

void opt_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_error(stderr, fmt, ap);
	va_end(ap);
}

static size_t count(const struct opt *opts)
{
	size_t n = 0;

	while (opts[n].kind != OPTK_END)
		n++;
	return n;
}

/* "--long", or "-s" for a short-only option: how messages name it */
static const char *opt_name(const struct opt *o, char *buf, size_t sz)
{
	if (o->long_name)
		snprintf(buf, sz, "--%s", o->long_name);
	else
		snprintf(buf, sz, "-%c", o->short_name);
	return buf;
}

/* V into *P, as wide as the variable is (the table's range fits it) */
static void store(void *p, size_t size, long long v)
{
	switch (size) {
	case 1: *(int8_t *)p = (int8_t)v; break;
	case 2: *(int16_t *)p = (int16_t)v; break;
	case 4: *(int32_t *)p = (int32_t)v; break;
	default: *(int64_t *)p = (int64_t)v; break;
	}
}

static int parse_int(const struct opt *o, const char *arg, const char *name)
{
	char *end;

	errno = 0;
	long long v = strtoll(arg, &end, 10);
	bool ok = !errno && end != arg && !*end && v >= o->min && v <= o->max;
	if (ok && o->kind == OPTK_POW2 && (v <= 0 || (v & (v - 1))))
		ok = false;
	if (!ok) {
		opt_error("%s '%s': want %s from %lld to %lld", name, arg,
			  o->kind == OPTK_POW2 ? "a power of two" : "a whole number", o->min, o->max);
		return -1;
	}
	store(o->value, o->size, v);
	return 0;
}

static int parse_double(const struct opt *o, const char *arg, const char *name)
{
	char *end;

	errno = 0;
	double v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v >= o->lo && v <= o->hi)) {
		opt_error("%s '%s': want a number from %g to %g", name, arg, o->lo, o->hi);
		return -1;
	}
	*(double *)o->value = v;
	return 0;
}

static int parse_enum(const struct opt *o, const char *arg, const char *name)
{
	char list[512] = "";
	size_t n = 0;

	for (; o->words[n]; n++)
		if (strcmp(arg, o->words[n]) == 0) {
			store(o->value, o->size, (long long)n);
			return 0;
		}
	/* "a, b or c" */
	for (size_t i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", o->words[i],
			 i + 2 < n ? ", " : i + 1 < n ? " or " : "");
	opt_error("%s '%s': want %s", name, arg, list);
	return -1;
}

/* One option with its argument (NULL when it takes none). */
static int apply(const struct opt *o, const char *arg)
{
	char name[80];

	opt_name(o, name, sizeof(name));
	switch (o->kind) {
	case OPTK_FLAG: store(o->value, o->size, 1); return 0;
	case OPTK_STRING: *(const char **)o->value = arg; return 0;
	case OPTK_INT:
	case OPTK_POW2: return parse_int(o, arg, name);
	case OPTK_DOUBLE: return parse_double(o, arg, name);
	case OPTK_ENUM: return parse_enum(o, arg, name);
	case OPTK_CALLBACK: return o->fn(o->value, arg);
	default: abort();
	}
}

static bool same_name(const struct opt *a, const struct opt *b)
{
	return (a->short_name && a->short_name == b->short_name) ||
	       (a->long_name && b->long_name && strcmp(a->long_name, b->long_name) == 0);
}

/* Into ERR: which name A and B share ("-x" before "--long"). */
static void shared_name(const struct opt *a, const struct opt *b, char *err, size_t errsz)
{
	if (a->short_name && a->short_name == b->short_name)
		snprintf(err, errsz, "-%c twice in one table", a->short_name);
	else
		snprintf(err, errsz, "--%s twice in one table", a->long_name);
}

int opt_check(const struct opt *opts, char *err, size_t errsz)
{
	size_t n = count(opts);

	for (size_t i = 0; i <= n; i++) {  /* row n: the implied -h/--help */
		const struct opt *a = i < n ? &opts[i] : &help_opt;
		if (!a->short_name && !a->long_name) {
			snprintf(err, errsz, "option %zu has no name", i);
			return -1;
		}
		for (size_t j = 0; j < i; j++) {
			if (same_name(&opts[j], a)) {
				shared_name(a, &opts[j], err, errsz);
				return -1;
			}
		}
	}
	return 0;
}

/* getopt_long's two tables from ours; row N is -h/--help. */
static void getopt_tables(const struct opt_cmd *c, size_t n, struct option *lo, char *so)
{
	size_t k = 0;

	if (c->in_order)
		*so++ = '+';
	*so++ = ':';  /* a missing value returns ':', apart from an unknown option */
	for (size_t i = 0; i <= n; i++) {
		const struct opt *o = i < n ? &c->opts[i] : &help_opt;
		int val = o->short_name ? o->short_name : LONG_ONLY + (int)i;
		if (o->short_name) {
			*so++ = (char)o->short_name;
			if (o->argh)
				*so++ = ':';
		}
		if (o->long_name)
			lo[k++] = (struct option){ o->long_name,
						   o->argh ? required_argument : no_argument, NULL,
						   val };
	}
	*so = '\0';
	lo[k] = (struct option){ NULL, 0, NULL, 0 };
}

static const struct opt *find(const struct opt_cmd *c, size_t n, int ch)
{
	if (ch >= LONG_ONLY && ch < LONG_ONLY + (int)n)
		return &c->opts[ch - LONG_ONLY];
	for (size_t i = 0; i < n; i++)
		if (c->opts[i].short_name == ch)
			return &c->opts[i];
	return ch == 'h' ? &help_opt : NULL;
}

/* ---- what a mistyped option gets: one line, and a guess ---------------- */

/* The optimal-string-alignment distance between A and B (an insertion, a
 * deletion, a substitution or two letters swapped cost 1 each, as git's
 * "did you mean"), at most 63 letters each; larger words cost their length. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[64][64];

	if (la >= 64 || lb >= 64)
		return la > lb ? la : lb;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
			size_t m = sub < del ? sub : del;
			m = m < ins ? m : ins;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < m)
				m = d[i - 2][j - 2] + 1;
			d[i][j] = m;
		}
	return d[la][lb];
}

const char *opt_closest(const char *word, const char *const *names, size_t n)
{
	size_t best = SIZE_MAX, len = strlen(word);
	const char *pick = NULL;

	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(word, names[i]);
		if (d < best) {
			best = d;
			pick = names[i];
		}
	}
	/* close: one or two edits, and fewer than half the word */
	return pick && best <= 2 && 2 * best < len ? pick : NULL;
}

/* "cyctop" or "cyctop record": the command a usage line names */
static void command_name(const struct opt_cmd *c, char *buf, size_t sz)
{
	const char *u = c->usage;

	if (strncmp(u, "usage: ", 7) == 0)
		u += 7;
	size_t n = strcspn(u, " \n");
	const char *sub = u + n;
	if (*sub == ' ' && sub[1] >= 'a' && sub[1] <= 'z')
		n += 1 + strspn(sub + 1, "abcdefghijklmnopqrstuvwxyz");
	snprintf(buf, sz, "%.*s", (int)n, u);
}

/* The long name closest to TYPED ("fromat" from "--fromat=json"). */
static const char *closest_long(const struct opt_cmd *c, size_t n, const char *typed)
{
	const char *names[128];
	char word[64];
	size_t k = 0;

	snprintf(word, sizeof(word), "%.*s", (int)strcspn(typed, "="), typed);
	for (size_t i = 0; i <= n && k < 128; i++) {
		const struct opt *o = i < n ? &c->opts[i] : &help_opt;
		if (o->long_name)
			names[k++] = o->long_name;
	}
	return opt_closest(word, names, k);
}

/* Into BUF: "--a or --b" when TYPED begins two long names or more. */
static bool ambiguous(const struct opt_cmd *c, size_t n, const char *typed, char *buf,
		      size_t sz)
{
	size_t len = strcspn(typed, "="), hits = 0, o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len; i++) {
		const char *l = c->opts[i].long_name;
		if (l && strncmp(l, typed, len) == 0 && o < sz)
			o += (size_t)snprintf(buf + o, sz - o, "%s--%s", hits++ ? " or " : "", l);
	}
	return hits > 1;
}

/* getopt's complaint (its own messages are off) as one line: the option,
 * a guess when a long name is close, and where the rest is. */
static void bad_option(const struct opt_cmd *c, size_t n, int ch, const char *arg)
{
	const struct opt *o = optopt ? find(c, n, optopt) : NULL;
	char cmd[64], name[80], guess[96] = "";

	command_name(c, cmd, sizeof(cmd));
	if (o && ch == ':') {
		opt_error("option '%s' needs a value: %s (see %s --help)",
			  arg && strncmp(arg, "--", 2) == 0 ? opt_name(o, name, sizeof(name))
			  : (snprintf(name, sizeof(name), "-%c", o->short_name), name),
			  o->argh, cmd);
	} else if (o && arg && strncmp(arg, "--", 2) == 0) {
		opt_error("option '%s' takes no value (see %s --help)",
			  opt_name(o, name, sizeof(name)), cmd);
	} else if (optopt) {
		opt_error("unknown option '-%c' (see %s --help)", optopt, cmd);
	} else {
		const char *typed = arg && strncmp(arg, "--", 2) == 0 ? arg + 2 : "";
		const char *g = closest_long(c, n, typed);
		char which[512];
		if (ambiguous(c, n, typed, which, sizeof(which))) {
			opt_error("option '--%.*s' is ambiguous: %s? (see %s --help)",
				  (int)strcspn(typed, "="), typed, which, cmd);
			return;
		}
		if (g)
			snprintf(guess, sizeof(guess), ": did you mean --%s?", g);
		opt_error("unknown option '--%.*s'%s (see %s --help)", (int)strcspn(typed, "="),
			  typed, guess, cmd);
	}
}

/* The getopt loop over V[0..VC); returns optind or -1. */
static int run_getopt(const struct opt_cmd *c, int vc, char **v)
{
	size_t n = count(c->opts);
	struct option *lo = calloc(n + 2, sizeof(*lo));
	char *so = calloc(3 * n + 10, 1);
	int ch, rc = 0;

	if (!lo || !so)
		abort();
	getopt_tables(c, n, lo, so);
	optind = 0;  /* a full restart: glibc reads '+' again only then */
	opterr = 0;
	while (rc == 0 && (ch = getopt_long(vc, v, so, lo, NULL)) != -1) {
		const struct opt *o = ch == '?' || ch == ':' ? NULL : find(c, n, ch);
		if (o == &help_opt) {
			opt_help(stdout, c);
			exit(fflush(stdout) == 0 ? 0 : 1);
		}
		if (!o) {
			bad_option(c, n, ch, optind > 0 && optind <= vc ? v[optind - 1] : NULL);
			rc = -1;
		} else {
			rc = apply(o, o->argh ? optarg : NULL);
		}
	}
	free(lo);
	free(so);
	return rc < 0 ? -1 : optind;
}

int opt_parse(const struct opt_cmd *c, int argc, char **argv, int first)
{
	char err[160];

	if (opt_check(c->opts, err, sizeof(err)) < 0) {
		opt_error("option table: %s", err);
		abort();
	}
	/* getopt reads from index 1 (0 names the program in its messages):
	 * a copy starting at FIRST, whose order (getopt permutes) goes back */
	int vc = argc - first + 1;
	char **v = malloc((size_t)(vc + 1) * sizeof(*v));
	if (!v)
		abort();
	v[0] = argv[0];
	memcpy(v + 1, argv + first, (size_t)(vc - 1) * sizeof(*v));
	v[vc] = NULL;
	int ind = run_getopt(c, vc, v);
	memcpy(argv + first, v + 1, (size_t)(vc - 1) * sizeof(*v));
	free(v);
	return ind < 0 ? -1 : ind - 1 + first;
}

static void help_row(FILE *f, const struct opt *o)
{
	char left[128];
	int len;

	if (o->short_name && o->long_name)
		len = snprintf(left, sizeof(left), "  -%c, --%s", o->short_name, o->long_name);
	else if (o->long_name)
		len = snprintf(left, sizeof(left), "      --%s", o->long_name);
	else
		len = snprintf(left, sizeof(left), "  -%c", o->short_name);
	if (o->argh)
		len += snprintf(left + len, sizeof(left) - (size_t)len, " %s", o->argh);
	fputs(left, f);
	if (len >= HELP_COLUMN)  /* no room for a gap: help on the next line */
		fprintf(f, "\n%*s", HELP_COLUMN, "");
	else
		fprintf(f, "%*s", HELP_COLUMN - len, "");
	for (const char *h = o->help; *h; h++) {
		fputc(*h, f);
		if (*h == '\n')
			fprintf(f, "%*s", HELP_COLUMN, "");
	}
	fputc('\n', f);
}

void opt_help_rows(FILE *f, const struct opt *opts)
{
	for (const struct opt *o = opts; o->kind != OPTK_END; o++)
		help_row(f, o);
}

void opt_help(FILE *f, const struct opt_cmd *c)
{
	fprintf(f, "%s\n", c->usage);
	opt_help_rows(f, c->opts);
	help_row(f, &help_opt);
	if (c->prose)
		fputs(c->prose, f);
}

/* ---- the shared callbacks ---------------------------------------------- */

/* -g keeps a mode --call-graph gave */
int opt_call_graph_g(void *value, const char *arg)
{
	struct session_opts *s = value;

	(void)arg;
	if (!s->call_graph)
		s->call_graph = CALL_GRAPH_DWARF;
	return 0;
}

int opt_call_graph(void *value, const char *arg)
{
	char err[160];

	if (session_parse_call_graph(arg, value, err, sizeof(err)) < 0) {
		opt_error("%s", err);
		return -1;
	}
	return 0;
}

int opt_model(void *value, const char *arg)
{
	const struct arch_model **m = value;

	*m = model_find(arg);
	if (!*m) {
		opt_error("unknown model '%s' (cyctop list models)", arg);
		return -1;
	}
	return 0;
}

int opt_arch(void *value, const char *arg)
{
	enum arch_tree *t = value;

	*t = tree_from_name(arg);
	if (*t == TREE_NONE) {
		opt_error("unknown --arch '%s' (core2, ia64, amd, intel, topdown, zen, arm or sw)", arg);
		return -1;
	}
	return 0;
}

int opt_no_demangle(void *value, const char *arg)
{
	(void)arg;
	((struct sym_naming *)value)->mangled = true;
	return 0;
}

int opt_demangle_params(void *value, const char *arg)
{
	(void)arg;
	((struct sym_naming *)value)->params = true;
	return 0;
}
