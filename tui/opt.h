/* One table-driven option parser for every command (after git's
 * parse-options and tmux's args_parse): a command declares what it takes,
 * opt_parse reads argv with it, opt_help writes --help from it, so the same
 * bad value gets the same one-line message and exit status everywhere. */
#ifndef TUI_OPT_H
#define TUI_OPT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tui/cmd.h"

enum opt_kind {
	OPTK_END,
	OPTK_FLAG,     /* no argument: stores 1 */
	OPTK_STRING,   /* const char *: the argument itself */
	OPTK_INT,      /* a whole number in [min, max] */
	OPTK_DOUBLE,   /* a number in [lo, hi] */
	OPTK_POW2,     /* a power of two in [min, max] */
	OPTK_ENUM,     /* one of words[]: stores its index */
	OPTK_CALLBACK, /* fn(value, arg); arg is NULL when argh is */
};

/* Returns 0, or -1 having said why (opt_error). */
typedef int opt_fn(void *value, const char *arg);

struct opt {
	int short_name;          /* a letter, or 0: long only */
	const char *long_name;   /* NULL: short only */
	enum opt_kind kind;
	void *value;
	size_t size;             /* sizeof(*value): FLAG, INT, POW2, ENUM store that wide */
	long long min, max;      /* INT, POW2 */
	double lo, hi;           /* DOUBLE */
	const char *argh;        /* the argument's name in --help; NULL: takes none */
	const char *help;        /* may hold '\n': more lines, indented */
	const char *const *words; /* ENUM: NULL-terminated */
	opt_fn *fn;              /* CALLBACK */
};

struct opt_cmd {
	const char *usage;  /* the usage line(s), without the final newline */
	const struct opt *opts; /* ended by OPT_END */
	const char *prose;  /* printed after the options, or NULL */
	bool in_order;      /* stop at the first non-option or "--" (getopt's '+') */
};

#define OPT_END { .kind = OPTK_END }
#define OPT_FLAG(s, l, p, h) \
	{ .short_name = s, .long_name = l, .kind = OPTK_FLAG, .value = p, .size = sizeof(*(p)), \
	  .help = h }
#define OPT_STRING(s, l, p, a, h) \
	{ .short_name = s, .long_name = l, .kind = OPTK_STRING, .value = (void *)(p), .argh = a, \
	  .help = h }
#define OPT_INT(s, l, p, mn, mx, a, h) \
	{ .short_name = s, .long_name = l, .kind = OPTK_INT, .value = p, .size = sizeof(*(p)), \
	  .min = mn, .max = mx, .argh = a, .help = h }
#define OPT_DOUBLE(s, l, p, l_, h_, a, h) \
	{ .short_name = s, .long_name = l, .kind = OPTK_DOUBLE, .value = p, .lo = l_, .hi = h_, \
	  .argh = a, .help = h }
#define OPT_POW2(s, l, p, mn, mx, a, h) \
	{ .short_name = s, .long_name = l, .kind = OPTK_POW2, .value = p, .size = sizeof(*(p)), \
	  .min = mn, .max = mx, .argh = a, .help = h }
#define OPT_ENUM(s, l, p, w, a, h) \
	{ .short_name = s, .long_name = l, .kind = OPTK_ENUM, .value = p, .size = sizeof(*(p)), \
	  .words = w, .argh = a, .help = h }
#define OPT_CALLBACK(s, l, p, f, a, h) \
	{ .short_name = s, .long_name = l, .kind = OPTK_CALLBACK, .value = (void *)(p), .fn = f, \
	  .argh = a, .help = h }

/* ---- what several commands take: one name, kind and range each ------- */

#define OPT_PID(p, h) OPT_INT('p', "pid", p, 1, INT_MAX, "PID", h)
#define OPT_EVENTS(p, h) OPT_STRING('e', "events", p, "LIST", h)
/* the refresh interval: cmd_parse_delay's range, as the view's d prompt */
#define OPT_DELAY(p, h) OPT_DOUBLE('d', "delay", p, DELAY_MIN_S, DELAY_MAX_S, "SECS", h)
#define OPT_DURATION(p, h) OPT_DOUBLE('d', "duration", p, 0.01, 86400.0, "SECS", h)
#define OPT_MMAP_PAGES(p, h) OPT_POW2('m', "mmap-pages", p, 1, 1 << 20, "N", h)
#define OPT_COUNTERS(p, h) OPT_INT(0, "counters", p, 1, 64, "N", h)
#define OPT_MUX_SLICE(p, h) OPT_INT(0, "mux-slice", p, 1, 10000, "MS", h)
/* -g and --call-graph MODE, into a struct session_opts */
#define OPT_G(p, h) OPT_CALLBACK('g', NULL, p, opt_call_graph_g, NULL, h)
#define OPT_CALL_GRAPH(p, h) OPT_CALLBACK(0, "call-graph", p, opt_call_graph, "MODE", h)
#define OPT_SYMFS(p, h) OPT_STRING(0, "symfs", p, "DIR", h)
/* --model PMU of -i perf.data: a name the session resolves */
#define OPT_MODEL_NAME(p, h) OPT_STRING(0, "model", p, "PMU", h)
/* --model PMU checked now, into a const struct arch_model * */
#define OPT_MODEL(p, h) OPT_CALLBACK('m', "model", p, opt_model, "PMU", h)
/* -A/--arch TREE into an enum arch_tree (-a is --all-cpus, as perf's) */
#define OPT_ARCH(p, h) OPT_CALLBACK('A', "arch", p, opt_arch, "TREE", h)
/* --format F into an enum out_format; W: the formats the command writes */
#define OPT_FORMAT(p, w, h) OPT_ENUM(0, "format", p, w, "F", h)
/* --no-demangle and --demangle-params into a struct sym_naming */
#define OPT_NO_DEMANGLE(p, h) OPT_CALLBACK(0, "no-demangle", p, opt_no_demangle, NULL, h)
#define OPT_DEMANGLE_PARAMS(p, h) \
	OPT_CALLBACK(0, "demangle-params", p, opt_demangle_params, NULL, h)
#define OPT_SMT(p, h) OPT_ENUM(0, "smt", p, opt_off_on, "on|off", h)

extern const char *const opt_off_on[];        /* off, on: --smt's 0 and 1 */
extern const char *const opt_formats_text[];  /* text, csv, json */
extern const char *const opt_formats_batch[]; /* and folded, pprof */

opt_fn opt_call_graph_g, opt_call_graph, opt_model, opt_arch, opt_no_demangle;
opt_fn opt_demangle_params;

/* ---- the parser -------------------------------------------------------- */

/* Parses ARGV[FIRST..] with C's table, storing each option's value.
 * -h/--help print opt_help to stdout and exit 0.  Returns the index of the
 * first operand, or -1 after one line on stderr (a bad value, an unknown
 * option with a guess, a missing value); the command exits EXIT_USAGE.
 * A table that fails opt_check aborts: that is a program error. */
int opt_parse(const struct opt_cmd *c, int argc, char **argv, int first);

/* 0 when no two options (with the implied -h/--help) share a short or a
 * long name; else -1 with the name in ERR. */
int opt_check(const struct opt *opts, char *err, size_t errsz);

/* The usage line, one row per option (names padded to a column, help
 * lines indented under it), then the prose. */
void opt_help(FILE *f, const struct opt_cmd *c);

/* Of NAMES[0..N), the one closest to WORD by edit distance (two letters
 * swapped count one edit, as git's "did you mean"), when it is close: at
 * most two edits and fewer than half WORD's letters; else NULL. */
const char *opt_closest(const char *word, const char *const *names, size_t n);

/* OPTS' rows alone, as opt_help writes them (cyctop --help's summary). */
void opt_help_rows(FILE *f, const struct opt *opts);

/* "cyctop: <message>" on stderr. */
void opt_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
