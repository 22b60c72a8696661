/* cyctop annotate FUNCTION: the asm view in batch, per-instruction rows with
 * per-event samples, stall and penalty cycles, marks, blocks and loops. */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/annotate.h"
#include "engine/pprof.h"
#include "engine/session.h"
#include "engine/source.h"
#include "engine/symbols.h"
#include "tui/child-output.h"
#include "tui/cmd.h"
#include "tui/format.h"
#include "tui/json.h"
#include "tui/opt.h"
#include "tui/ui.h"

struct annotate_opts {
	struct session_opts s;
	const char *function;
	const char *module;      /* suffix of the module path, or NULL */
	const char *stall;
	double duration;         /* attach: seconds to watch; 0 until the end */
	enum out_format format;
	bool source;
	bool every;              /* --every: each function FUNCTION names */
	struct session_file_opts in; /* -i perf.data */
	const char *child_output;    /* --child-output: FILE, null, tty; NULL: cyctop's */
};

static const char annotate_usage[] =
	"usage: cyctop annotate FUNCTION [OPTIONS] (-p PID | -i FILE | -- COMMAND [ARGS...])";

static int parse_target(int argc, char **argv, int first, struct annotate_opts *o)
{
	if (first < argc && !o->function)
		o->function = argv[first++];
	if (!o->function) {
		cmd_error("annotate: which function? (cyctop annotate FUNCTION -- COMMAND)");
		return -1;
	}
	if (first < argc)
		o->s.argv = argv + first;
	if (!!o->s.argv + !!o->s.pid + !!o->in.path != 1) {
		cmd_error("annotate: give one of -p PID, -i FILE or -- COMMAND");
		return -1;
	}
	if (o->child_output && !o->s.argv) {
		cmd_error("--child-output %s: only a launched command (-- COMMAND) has output to "
			  "send", o->child_output);
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct annotate_opts *o)
{
	memset(o, 0, sizeof(*o));
	const struct opt opts[] = {
		OPT_EVENTS(&o->s.events, "events (as for cyctop; default cycles or cpu-clock)"),
		OPT_PID(&o->s.pid, "attach to a running process"),
		OPT_STRING('i', "input", &o->in.path, "FILE", "a recorded session (perf.data)"),
		OPT_SYMFS(&o->in.symfs, "-i: look for the recorded binaries under DIR"),
		OPT_MODEL_NAME(&o->in.model, "-i: name raw events with this model's tables"),
		OPT_DURATION(&o->duration,
			     "stop watching after SECS (default: when the target ends)"),
		OPT_STRING(0, "module", &o->module, "PATH",
			   "the module holding FUNCTION (a path, its end or a soname)"),
		OPT_NO_DEMANGLE(&o->s.naming, "C++ and Rust functions by their ELF (mangled) names"),
		OPT_DEMANGLE_PARAMS(&o->s.naming,
				    "C++ names with their parameters, as perf 6.4 and later"),
		OPT_STRING(0, "stall", &o->stall, "EVENT",
			   "the stall-cycle column (default: the model's)"),
		OPT_FORMAT(&o->format, opt_formats_text, "text, csv or json"),
		OPT_FLAG('l', "lines", &o->source, "text: interleave source lines"),
		OPT_FLAG(0, "every", &o->every,
			 "each function FUNCTION names (overloads, static functions\n"
			 "or JIT code of one name), one after another"),
		OPT_STRING(0, "child-output", &o->child_output, "F",
			   "where a launched command's stdout and stderr go: FILE,\n"
			   "null or tty (default: cyctop's own; with --format json or\n"
			   "csv, both to cyctop's stderr)"),
		OPT_END,
	};
	const struct opt_cmd cmd = { annotate_usage, opts, NULL, true };
	int first = 1;

	/* The function comes first: "cyctop annotate work_60 -- ./mix". */
	if (argc > 1 && argv[1][0] != '-') {
		o->function = argv[1];
		first = 2;
	}
	first = opt_parse(&cmd, argc, argv, first);
	if (first < 0)
		return -1;
	o->in.naming = o->s.naming;
	return parse_target(argc, argv, first, o);
}

/* ---- output -------------------------------------------------------- */

/* Room for one escaped string: a printer's, reused by each printf. */
struct esc_buf {
	char s[8192 * FMT_ESCAPE_MAX];
};

/* S escaped for the text outputs (names, paths, source lines) into B; the
 * result lives until B's next use (each printf takes one). */
static const char *esc(struct esc_buf *b, const char *s)
{
	return fmt_escape(b->s, sizeof(b->s), s);
}

static void print_text_head(const struct annotation *a, const struct ev_list *evs,
			    struct esc_buf *eb)
{
	const struct asm_func *fn = a->fn;

	printf("# %s in ", esc(eb, fn->name));
	printf("%s [%#" PRIx64 ", %#" PRIx64 ") %zu instructions, %zu blocks, %zu loops\n",
	       esc(eb, fn->module ? fn->module : "?"), fn->start - fn->bias, fn->end - fn->bias,
	       fn->n, fn->flow.n_blocks, fn->flow.n_loops);
	for (int e = 0; e < a->n_events; e++) {
		const char *unit = annot_unit(evs, e);
		printf("# %s: sav %" PRIu64 ", %" PRIu64 " samples here of %" PRIu64,
		       esc(eb, evs->ev[e].name), a->sav[e], annotation_func_hits(a, e),
		       annotation_total_hits(a, e));
		printf(" (%.0f %s here of %.0f)%s%s\n", annotation_period(a, a->func_samples[e], e),
		       unit, annotation_period(a, a->total_samples[e], e),
		       e == a->stall_ev ? " (stall cycles)" : "",
		       a->penalty[e] > 0 ? " (weighted by its penalty)" : "");
	}
	if (a->outside)
		printf("# %" PRIu64 " samples at no instruction start (a stale mapping?) left out\n",
		       a->outside);
	for (int e = 0; e < a->n_events; e++)
		printf("%10.10s ", esc(eb, evs->ev[e].name));
	printf("%12s %12s %-7s %10s  %s\n", "stall", "penalty", "mark", "address", "instruction");
}

static void print_loops_text(const struct annotation *a)
{
	const struct flow *f = &a->fn->flow;

	for (size_t k = 0; k < f->n_loops; k++) {
		const struct flow_loop *l = &f->loops[k];
		printf("# loop %zu: %#" PRIx64 "..%#" PRIx64 " depth %d, %zu instructions, "
		       "%u bytes loaded and %u stored per iteration",
		       k, a->fn->insn[l->head].op.addr - a->fn->bias,
		       a->fn->insn[l->tail].op.addr - a->fn->bias, l->depth, l->n_insns,
		       l->load_bytes, l->store_bytes);
		if (!isnan(a->loop_iters[k]))
			printf(", ~%.0f iterations", a->loop_iters[k]);
		if (!isnan(a->loop_bus_eff[k]))
			printf(", bus efficiency %.1f%%", 100 * a->loop_bus_eff[k]);
		printf("\n");
	}
}

/* Whether an event among -e is weighted by a penalty (the penalty column
 * has values). */
static bool any_penalty(const struct annotation *a)
{
	for (int e = 0; e < a->n_events; e++)
		if (a->penalty[e] > 0)
			return true;
	return false;
}

/* A stall or penalty cell: "-" where no event measures it (software
 * events, a model without a stall event), not a 0 that reads as none. */
static void print_cycles(double v, bool measured)
{
	if (measured)
		printf("%12.0f ", v);
	else
		printf("%12s ", "-");
}

static void print_text(const struct annotation *a, const struct ev_list *evs, bool source)
{
	const struct asm_func *fn = a->fn;
	struct src_cache *src = source ? src_cache_new() : NULL;
	struct esc_buf escaped, *eb = &escaped;

	print_text_head(a, evs, eb);
	for (size_t i = 0; i < fn->n; i++) {
		const struct asm_insn *in = &fn->insn[i];
		if (src && asm_line_starts(fn, i)) {
			const char *line = src_cache_line(src, in->file, in->line);
			printf("%s:%d  ", esc(eb, in->file), in->line);
			printf("%s\n", esc(eb, line ? line : ""));
		}
		for (int e = 0; e < a->n_events; e++)
			printf("%10" PRIu64 " ", annotation_hits(a, i, e));
		print_cycles(a->stall_cycles[i], a->stall_ev >= 0);
		print_cycles(a->penalty_cycles[i], any_penalty(a));
		printf("%-7s %10" PRIx64 ":  %s\n", flow_mark_name(annotation_mark(a, i)),
		       in->op.addr - fn->bias, esc(eb, in->text));
	}
	print_loops_text(a);
	src_cache_free(src);
}

static void print_csv(const struct annotation *a, const struct ev_list *evs)
{
	const struct asm_func *fn = a->fn;
	struct esc_buf escaped, *eb = &escaped;

	printf("address");
	for (int e = 0; e < a->n_events; e++) {
		printf(",%s", esc(eb, evs->ev[e].name));
		printf(",%s:%s", esc(eb, evs->ev[e].name), annot_unit(evs, e));
	}
	printf(",stall,penalty,mark,block,loop,instruction,file,line\n");
	for (size_t i = 0; i < fn->n; i++) {
		const struct asm_insn *in = &fn->insn[i];
		size_t b = fn->flow.block_of ? fn->flow.block_of[i] : 0;
		printf("0x%" PRIx64, in->op.addr - fn->bias);
		for (int e = 0; e < a->n_events; e++)
			printf(",%" PRIu64 ",%.0f", annotation_hits(a, i, e),
			       annotation_period(a, annotation_samples(a, i, e), e));
		printf(",%.0f,%.0f,%s,%zu,%d,", a->stall_cycles[i], a->penalty_cycles[i],
		       flow_mark_name(annotation_mark(a, i)), b,
		       fn->flow.blocks ? fn->flow.blocks[b].loop : -1);
		fmt_csv_field(stdout, in->text);
		putchar(',');
		fmt_csv_field(stdout, in->file ? in->file : "");
		printf(",%d\n", in->file ? in->line : 0);
	}
}

static void json_samples(struct json *j, const struct annotation *a,
			 const struct ev_list *evs, size_t i)
{
	json_key(j, "samples");
	json_object_begin(j);
	for (int e = 0; e < a->n_events; e++)
		json_ku64(j, evs->ev[e].name, annotation_hits(a, i, e));
	json_end(j);
	json_key(j, "period");
	json_object_begin(j);
	for (int e = 0; e < a->n_events; e++) {
		json_key(j, evs->ev[e].name);
		json_whole(j, annotation_period(a, annotation_samples(a, i, e), e));
	}
	json_end(j);
}

static void json_events(struct json *j, const struct annotation *a, const struct ev_list *evs)
{
	json_key(j, "events");
	json_array_begin(j);
	for (int e = 0; e < a->n_events; e++) {
		json_object_begin(j);
		json_kstr(j, "name", evs->ev[e].name);
		json_ku64(j, "sav", a->sav[e]);
		json_ku64(j, "samples", annotation_func_hits(a, e));
		json_ku64(j, "total", annotation_total_hits(a, e));
		json_kstr(j, "unit", annot_unit(evs, e));
		json_key(j, "period");
		json_whole(j, annotation_period(a, a->func_samples[e], e));
		json_key(j, "total_period");
		json_whole(j, annotation_period(a, a->total_samples[e], e));
		json_kbool(j, "stall", e == a->stall_ev);
		json_knum(j, "penalty", a->penalty[e]);
		json_end(j);
	}
	json_end(j);
}

/* An address as the ELF file has it, as objdump prints it. */
static void json_addr(struct json *j, const char *key, uint64_t addr)
{
	json_key(j, key);
	json_strf(j, "0x%" PRIx64, addr);
}

static void json_insn(struct json *j, const struct annotation *a, const struct ev_list *evs,
		      size_t i)
{
	const struct asm_func *fn = a->fn;
	const struct asm_insn *in = &fn->insn[i];

	json_object_begin(j);
	json_addr(j, "address", in->op.addr - fn->bias);
	json_kstr(j, "text", in->text);
	json_samples(j, a, evs, i);
	json_key(j, "stall");
	json_whole(j, a->stall_cycles[i]);
	json_key(j, "penalty");
	json_whole(j, a->penalty_cycles[i]);
	json_kstr(j, "mark", flow_mark_name(annotation_mark(a, i)));
	json_ku64(j, "block", fn->flow.block_of ? fn->flow.block_of[i] : 0);
	json_ku64(j, "load_bytes", in->op.load_bytes);
	json_ku64(j, "store_bytes", in->op.store_bytes);
	json_kstr(j, "file", in->file ? in->file : "");
	json_key(j, "line");
	json_int(j, in->file ? in->line : 0);
	json_end(j);
}

static void json_blocks(struct json *j, const struct annotation *a)
{
	const struct flow *f = &a->fn->flow;

	json_key(j, "blocks");
	json_array_begin(j);
	for (size_t b = 0; b < f->n_blocks; b++) {
		const struct flow_block *blk = &f->blocks[b];
		json_object_begin(j);
		json_addr(j, "first", a->fn->insn[blk->first].op.addr - a->fn->bias);
		json_addr(j, "last", a->fn->insn[blk->last].op.addr - a->fn->bias);
		json_key(j, "loop");
		json_int(j, blk->loop);
		json_key(j, "stall");
		json_whole(j, flow_sum(a->stall_cycles, blk->first, blk->last));
		json_key(j, "penalty");
		json_whole(j, flow_sum(a->penalty_cycles, blk->first, blk->last));
		json_kstr(j, "mark", flow_mark_name((enum flow_mark)a->block_mark[b]));
		json_end(j);
	}
	json_end(j);
}

static void json_loops(struct json *j, const struct annotation *a)
{
	const struct flow *f = &a->fn->flow;

	json_key(j, "loops");
	json_array_begin(j);
	for (size_t k = 0; k < f->n_loops; k++) {
		const struct flow_loop *l = &f->loops[k];
		json_object_begin(j);
		json_addr(j, "head", a->fn->insn[l->head].op.addr - a->fn->bias);
		json_addr(j, "tail", a->fn->insn[l->tail].op.addr - a->fn->bias);
		json_key(j, "depth");
		json_int(j, l->depth);
		json_key(j, "parent");
		json_int(j, l->parent);
		json_ku64(j, "instructions", l->n_insns);
		json_ku64(j, "load_bytes", l->load_bytes);
		json_ku64(j, "store_bytes", l->store_bytes);
		json_knum(j, "iterations", a->loop_iters[k]);
		json_knum(j, "bus_efficiency", a->loop_bus_eff[k]);
		json_end(j);
	}
	json_end(j);
}

static void print_json(const struct annotation *a, const struct ev_list *evs)
{
	const struct asm_func *fn = a->fn;
	struct json j;

	json_init(&j, stdout);
	json_object_begin(&j);
	json_kstr(&j, "function", fn->name);
	json_kstr(&j, "module", fn->module ? fn->module : "");
	json_addr(&j, "start", fn->start - fn->bias);
	json_addr(&j, "end", fn->end - fn->bias);
	json_ku64(&j, "undecodable", fn->n_bad);
	json_ku64(&j, "outside", a->outside);
	json_events(&j, a, evs);
	json_key(&j, "instructions");
	json_array_begin(&j);
	for (size_t i = 0; i < fn->n; i++)
		json_insn(&j, a, evs, i);
	json_end(&j);
	json_blocks(&j, a);
	json_loops(&j, a);
	json_end(&j);
	putchar('\n');
}

/* ---- run ----------------------------------------------------------- */

static void watch_until_done(struct session *s, double duration)
{
	double stop = duration > 0 ? cmd_now_s() + duration : 0;

	while (!ui_pending_signal() && !session_poll(s, 100))
		if (stop && cmd_now_s() >= stop)
			break;
	session_poll(s, 0);
}

/* NAME without the symbol version perf prints after it (perf 6.12:
 * "cfree@GLIBC_2.2.5", perf 6.1 "__libc_start_main@@GLIBC_2.34"): cyctop
 * names the symbol without it.  False when NAME has none; "@plt" (a PLT
 * stub's name, objdump's and perf's) is no version. */
static bool unversioned(const char *name, char *out, size_t size)
{
	const char *at = strchr(name, '@');
	const char *ver = at ? at + 1 + (at[1] == '@') : NULL;

	if (!at || at == name || !*ver || strcmp(at, "@plt") == 0 ||
	    ver[strspn(ver, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.")])
		return false;
	snprintf(out, size, "%.*s", (int)(at - name), name);
	return true;
}

/* ---- which function ------------------------------------------------- */

#define MAX_MATCHES 64

/* The rows of the snapshot FUNCTION names: the one of that name, or the
 * functions told apart from others of the name (engine/elf-funcs.c:
 * "f(long)" and "f(double)", "helper [0x1139]", "f(long) [clone .cold]"),
 * in modules WANT matches, hottest first.  Their count (at most MAX). */
static size_t matches(const struct snapshot *snap, const char *name, const char *want,
		      const struct snap_func **out, size_t max)
{
	size_t n = 0, len = strlen(name);

	for (size_t i = 0; i < snap->n_funcs; i++)
		if (strcmp(snap->funcs[i].name, name) == 0 &&
		    symbols_module_matches(snap->funcs[i].module, want)) {
			out[0] = &snap->funcs[i];
			return 1;
		}
	for (size_t i = 0; i < snap->n_funcs && n < max; i++) {
		const char *f = snap->funcs[i].name;
		if (strncmp(f, name, len) == 0 && (f[len] == '(' || f[len] == ' ') &&
		    symbols_module_matches(snap->funcs[i].module, want))
			out[n++] = &snap->funcs[i];
	}
	return n;
}

/* Edit distance of A and B (Levenshtein), both cut to 63 bytes. */
static unsigned distance(const char *a, const char *b)
{
	unsigned row[64], la = (unsigned)strnlen(a, 63), lb = (unsigned)strnlen(b, 63);

	for (unsigned j = 0; j <= lb; j++)
		row[j] = j;
	for (unsigned i = 1; i <= la; i++) {
		unsigned diag = row[0];
		row[0] = i;
		for (unsigned j = 1; j <= lb; j++) {
			unsigned up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

/* How close row name F is to NAME: 0 when one holds the other (case
 * aside), else 1 + the edit distance from F without the parameters or
 * address that tell it apart ("work::spin" of "work::spin(long)"). */
static unsigned closeness(const char *f, const char *name)
{
	char base[64];

	if (strcasestr(f, name) || strcasestr(name, f))
		return 0;
	snprintf(base, sizeof(base), "%.*s", (int)(f[0] ? strcspn(f + 1, "( ") + 1 : 0), f);
	return 1 + distance(base, name);
}

/* NAME is no function of the recording (WHAT: or of the watch's
 * profile), nor a symbol of its binaries: one line saying so, with the
 * three closest names among its functions (substrings first, then by
 * edit distance, the hotter first among equals). */
static void not_recorded(const struct snapshot *snap, const char *name, const char *what)
{
	const char *best[3] = { NULL, NULL, NULL };
	unsigned score[3] = { UINT_MAX, UINT_MAX, UINT_MAX };
	char list[1024] = "";
	const char *sep = "";  /* before each name but the first */
	size_t len = 0;

	for (size_t i = 0; i < snap->n_funcs; i++) {
		const char *f = snap->funcs[i].name;
		unsigned c = closeness(f, name);
		int k = 3;
		for (int j = 0; j < 3; j++)
			if (best[j] && strcmp(best[j], f) == 0)
				c = UINT_MAX;  /* one name in two modules */
		while (k > 0 && c < score[k - 1])
			k--;
		if (k == 3)
			continue;
		memmove(best + k + 1, best + k, (size_t)(2 - k) * sizeof(*best));
		memmove(score + k + 1, score + k, (size_t)(2 - k) * sizeof(*score));
		best[k] = f;
		score[k] = c;
	}
	for (int j = 0; j < 3 && best[j] && len < sizeof(list); j++) {
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s'%s'", sep, best[j]);
		sep = ", ";
	}
	if (len)
		cmd_error("annotate: no function '%s' in the %s; the closest: %s", name, what,
			  list);
	else
		cmd_error("annotate: no function '%s' in the %s: it has no samples", name, what);
}

/* FUNCTION names N > 1 functions: which ones, with their modules and
 * addresses (as the text output's head gives them), on stderr. */
static void list_matches(struct session *s, const char *name, const struct snap_func **m,
			 size_t n, const struct snapshot *snap)
{
	struct esc_buf eb;
	char err[512];

	cmd_error("annotate: '%s' names %zu functions of the recording; give one of these "
		  "(or --every):", name, n);
	for (size_t i = 0; i < n; i++) {
		const struct asm_func *fn = session_asm(s, m[i]->name, m[i]->module, err,
							sizeof(err));
		fprintf(stderr, "  %s", esc(&eb, m[i]->name));
		fprintf(stderr, "  %s", esc(&eb, m[i]->module));
		if (fn)
			fprintf(stderr, "  %#" PRIx64, fn->start - fn->bias);
		fprintf(stderr, "  %.2f%%\n", snapshot_percent(snap, m[i], 0, false));
	}
}

/* ---- annotate ------------------------------------------------------- */

/* Function NAME of MODULE annotated in FORMAT; 0, or 1 with a line. */
static int annotate_one(struct session *s, const struct snapshot *snap, const char *name,
			const char *module, const struct annotate_opts *o)
{
	const struct ev_list *evs = session_events(s);
	uint64_t totals[EVENTS_MAX] = { 0 };
	double coverage[EVENTS_MAX] = { 0 };
	struct annot_opts ao = { o->stall, NULL, coverage };
	char err[512];
	int rc = 1;

	const struct asm_func *fn = session_asm(s, name, module, err, sizeof(err));
	struct ip_counts *ipc = fn && fn->module ? session_ip_counts(s, fn) : NULL;
	for (int e = 0; e < snap->n_events; e++) {
		totals[e] = snap->ev[e].samples;
		coverage[e] = snap->ev[e].coverage;
	}
	struct annotation *a = fn ? annotation_new(fn, ipc, totals, evs, &ao) : NULL;
	for (int e = 0; a && e < snap->n_events; e++)  /* samples that weigh periods */
		if (snap->ev[e].nsamples) {
			a->weighs[e] = true;
			a->total_hits[e] = snap->ev[e].nsamples;
		}
	if (!fn)
		cmd_error("annotate: %s", err);
	else if (!a)
		cmd_error("annotate: out of memory");
	else if (o->format == OUT_JSON)
		print_json(a, evs), rc = 0;
	else if (o->format == OUT_CSV)
		print_csv(a, evs), rc = 0;
	else
		print_text(a, evs, o->source), rc = 0;
	annotation_free(a);
	free(ipc);
	return rc;
}

/* The functions O's FUNCTION names, annotated: the one of that name, the
 * one it names among others told apart, or with --every each of them;
 * a function without samples by its symbol.  0, 1 on an error, 2 when
 * the name is no function or names more than one. */
static int annotate_named(struct session *s, const struct snapshot *snap,
			  const struct annotate_opts *o)
{
	const struct snap_func *m[MAX_MATCHES];
	const char *name = o->function;
	char plain[256], err[512];
	size_t n = matches(snap, name, o->module, m, MAX_MATCHES);

	if (n == 0 && unversioned(name, plain, sizeof(plain)))  /* as perf names it */
		n = matches(snap, name = plain, o->module, m, MAX_MATCHES);
	if (n > 1 && !o->every) {
		list_matches(s, name, m, n, snap);
		return EXIT_USAGE;
	}
	if (n > 1)
		cmd_error("annotate: '%s' names %zu functions of the recording: each follows "
			  "(--every)", name, n);
	for (size_t i = 0; i < n; i++)
		if (annotate_one(s, snap, m[i]->name, m[i]->module, o) != 0)
			return 1;
	if (n > 0)
		return 0;
	/* no samples: a function of the binaries by its symbol */
	name = o->function;
	if (session_asm(s, name, o->module, err, sizeof(err)) ||
	    (unversioned(name, plain, sizeof(plain)) &&
	     session_asm(s, name = plain, o->module, err, sizeof(err))))
		return annotate_one(s, snap, name, o->module, o);
	not_recorded(snap, o->function, o->in.path ? "recording" : "profile");
	return EXIT_USAGE;
}

static int annotate_session(struct session *s, const struct annotate_opts *o)
{
	struct snapshot *snap = session_snapshot(s);
	int rc;

	if (!snap)
		return 1;
	rc = annotate_named(s, snap, o);
	if (rc == 0)  /* a launched command's status is cyctop's, as for a watch */
		rc = cmd_watch_status(o->s.argv != NULL && !o->in.path, snap->ended,
				      snap->exit_status);
	snapshot_free(snap);
	return rc;
}

static int annotate_main(int argc, char **argv)
{
	struct annotate_opts o;
	char err[512];
	struct session *s;
	int rc;

	if (parse_args(argc, argv, &o) < 0)
		return EXIT_USAGE;
	ui_install_signals();
	/* the command's output apart from the rows (JSON a reader parses) */
	struct child_output out = { -1, -1, false, "" };
	if (o.s.argv && child_output_open(&out, o.child_output, false,
						   o.format != OUT_TEXT, &o.s.child_io) < 0)
		return 1;
	s = !o.in.path ? session_open(&o.s, err, sizeof(err))
	    : session_is_pprof(o.in.path) ? session_open_pprof(o.in.path, err, sizeof(err))
	    : session_open_file(&o.in, err, sizeof(err));
	if (!s) {
		cmd_error("%s", err);
		child_output_close(&out);
		return 1;
	}
	if (session_events(s)->notice[0])
		cmd_error("%s", session_events(s)->notice);
	if (o.stall && annot_event_index(session_events(s), o.stall) < 0) {
		cmd_error("--stall '%s' is not one of the events (-e)", o.stall);
		session_close(s);
		child_output_close(&out);
		return EXIT_USAGE;
	}
	watch_until_done(s, o.duration);
	rc = annotate_session(s, &o);
	session_close(s);
	child_output_close(&out);
	return rc;
}

const struct cmd_entry cmd_annotate_entry = {
	"annotate",
	"annotate FUNCTION [-e LIST] [--format text|csv|json] (-p PID | -i FILE | -- COMMAND)",
	annotate_main,
};
