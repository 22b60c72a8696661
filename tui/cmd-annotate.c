/* cyctop annotate FUNCTION: the asm view in batch, per-instruction rows with
 * per-event samples, stall and penalty cycles, marks, blocks and loops. */
#include <getopt.h>
#include <inttypes.h>
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
#include "tui/cmd.h"
#include "tui/format.h"
#include "tui/ui.h"

struct annotate_opts {
	struct session_opts s;
	const char *function;
	const char *module;      /* suffix of the module path, or NULL */
	const char *stall;
	double duration;         /* attach: seconds to watch; 0 until the end */
	enum out_format format;
	bool source;
	struct session_file_opts in; /* -i perf.data */
};

static const char usage_text[] =
	"usage: cyctop annotate FUNCTION [OPTIONS] (-p PID | -i FILE | -- COMMAND [ARGS...])\n"
	"  -e, --events LIST     events (as for cyctop; default cycles or cpu-clock)\n"
	"  -p, --pid PID         attach to a running process\n"
	"  -i, --input FILE      a recorded session (perf.data)\n"
	"      --symfs DIR       -i: look for the recorded binaries under DIR\n"
	"      --model PMU       -i: name raw events with this model's tables\n"
	"  -d, --duration SECS   stop watching after SECS (default: when the target ends)\n"
	"      --module PATH     the module holding FUNCTION (a path, its end or a soname)\n"
	"      --no-demangle     C++ and Rust functions by their ELF (mangled) names\n"
	"      --stall EVENT     the stall-cycle column (default: the model's)\n"
	"      --format F        text, csv or json\n"
	"  -l, --lines           text: interleave source lines\n";

static int parse_target(int argc, char **argv, struct annotate_opts *o)
{
	if (optind < argc && !o->function)
		o->function = argv[optind++];
	if (!o->function) {
		cmd_error("annotate: which function? (cyctop annotate FUNCTION -- COMMAND)");
		return -1;
	}
	if (optind < argc)
		o->s.argv = argv + optind;
	if (!!o->s.argv + !!o->s.pid + !!o->in.path != 1) {
		cmd_error("annotate: give one of -p PID, -i FILE or -- COMMAND");
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct annotate_opts *o)
{
	static const struct option longopts[] = {
		{ "events", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'p' },
		{ "duration", required_argument, NULL, 'd' },
		{ "module", required_argument, NULL, 'M' },
		{ "stall", required_argument, NULL, 'S' },
		{ "format", required_argument, NULL, 'f' },
		{ "lines", no_argument, NULL, 'l' },
		{ "input", required_argument, NULL, 'i' },
		{ "symfs", required_argument, NULL, 'Y' },
		{ "model", required_argument, NULL, 'P' },
		{ "no-demangle", no_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int ch;

	memset(o, 0, sizeof(*o));
	optind = 1;
	/* The function comes first: "cyctop annotate work_60 -- ./mix". */
	if (argc > 1 && argv[1][0] != '-') {
		o->function = argv[1];
		optind = 2;
	}
	while ((ch = getopt_long(argc, argv, "+e:p:d:i:lh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'e': o->s.events = optarg; break;
		case 'M': o->module = optarg; break;
		case 'S': o->stall = optarg; break;
		case 'l': o->source = true; break;
		case 'i': o->in.path = optarg; break;
		case 'Y': o->in.symfs = optarg; break;
		case 'P': o->in.model = optarg; break;
		case 'D': symbols_set_demangle(false); break;
		case 'p':
			o->s.pid = (pid_t)strtol(optarg, &end, 10);
			if (*end || o->s.pid <= 0) {
				cmd_error("invalid pid '%s'", optarg);
				return -1;
			}
			break;
		case 'd':
			o->duration = strtod(optarg, &end);
			if (*end || !(o->duration > 0) || o->duration > 86400) {
				cmd_error("--duration '%s' is not a number of seconds", optarg);
				return -1;
			}
			break;
		case 'f':
			if (fmt_parse_output(optarg, &o->format) < 0 || o->format >= OUT_FOLDED) {
				cmd_error("unknown --format '%s' (text, csv or json)", optarg);
				return -1;
			}
			break;
		case 'h': fputs(usage_text, stdout); exit(0);
		default: fputs(usage_text, stderr); return -1;
		}
	}
	return parse_target(argc, argv, o);
}

/* ---- output -------------------------------------------------------- */

/* S escaped for the text outputs (names, paths, source lines); the
 * result lives until the next call (each printf takes one). */
static const char *esc(const char *s)
{
	static char buf[8192 * FMT_ESCAPE_MAX];

	return fmt_escape(buf, sizeof(buf), s);
}

static void print_text_head(const struct annotation *a, const struct ev_list *evs)
{
	const struct asm_func *fn = a->fn;

	printf("# %s in ", esc(fn->name));
	printf("%s [%#" PRIx64 ", %#" PRIx64 ") %zu instructions, %zu blocks, %zu loops\n",
	       esc(fn->module ? fn->module : "?"), fn->start - fn->bias, fn->end - fn->bias,
	       fn->n, fn->flow.n_blocks, fn->flow.n_loops);
	for (int e = 0; e < a->n_events; e++)
		printf("# %s: sav %" PRIu64 ", %" PRIu64 " samples here of %" PRIu64 "%s%s\n",
		       esc(evs->ev[e].name), a->sav[e], a->func_samples[e], a->total_samples[e],
		       e == a->stall_ev ? " (stall cycles)" : "",
		       a->penalty[e] > 0 ? " (weighted by its penalty)" : "");
	if (a->outside)
		printf("# %" PRIu64 " samples at no instruction start (a stale mapping?) left out\n",
		       a->outside);
	for (int e = 0; e < a->n_events; e++)
		printf("%10.10s ", esc(evs->ev[e].name));
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

static void print_text(const struct annotation *a, const struct ev_list *evs, bool source)
{
	const struct asm_func *fn = a->fn;
	struct src_cache *src = source ? src_cache_new() : NULL;

	print_text_head(a, evs);
	for (size_t i = 0; i < fn->n; i++) {
		const struct asm_insn *in = &fn->insn[i];
		if (src && asm_line_starts(fn, i)) {
			const char *line = src_cache_line(src, in->file, in->line);
			printf("%s:%d  ", esc(in->file), in->line);
			printf("%s\n", esc(line ? line : ""));
		}
		for (int e = 0; e < a->n_events; e++)
			printf("%10" PRIu64 " ", annotation_samples(a, i, e));
		printf("%12.0f %12.0f %-7s %10" PRIx64 ":  %s\n", a->stall_cycles[i],
		       a->penalty_cycles[i], flow_mark_name(annotation_mark(a, i)),
		       in->op.addr - fn->bias, esc(in->text));
	}
	print_loops_text(a);
	src_cache_free(src);
}

static void print_csv(const struct annotation *a, const struct ev_list *evs)
{
	const struct asm_func *fn = a->fn;

	printf("address");
	for (int e = 0; e < a->n_events; e++)
		printf(",%s", esc(evs->ev[e].name));
	printf(",stall,penalty,mark,block,loop,instruction,file,line\n");
	for (size_t i = 0; i < fn->n; i++) {
		const struct asm_insn *in = &fn->insn[i];
		size_t b = fn->flow.block_of ? fn->flow.block_of[i] : 0;
		printf("0x%" PRIx64, in->op.addr - fn->bias);
		for (int e = 0; e < a->n_events; e++)
			printf(",%" PRIu64, annotation_samples(a, i, e));
		printf(",%.0f,%.0f,%s,%zu,%d,", a->stall_cycles[i], a->penalty_cycles[i],
		       flow_mark_name(annotation_mark(a, i)), b,
		       fn->flow.blocks ? fn->flow.blocks[b].loop : -1);
		fmt_csv_field(stdout, in->text);
		putchar(',');
		fmt_csv_field(stdout, in->file ? in->file : "");
		printf(",%d\n", in->file ? in->line : 0);
	}
}

static void json_samples(const struct annotation *a, const struct ev_list *evs, size_t i)
{
	printf("\"samples\": {");
	for (int e = 0; e < a->n_events; e++) {
		printf("%s", e ? ", " : "");
		fmt_json_string(stdout, evs->ev[e].name);
		printf(": %" PRIu64, annotation_samples(a, i, e));
	}
	printf("}");
}

static void json_events(const struct annotation *a, const struct ev_list *evs)
{
	printf("\"events\": [");
	for (int e = 0; e < a->n_events; e++) {
		printf("%s{\"name\": ", e ? ", " : "");
		fmt_json_string(stdout, evs->ev[e].name);
		printf(", \"sav\": %" PRIu64 ", \"samples\": %" PRIu64 ", \"total\": %" PRIu64
		       ", \"stall\": %s, \"penalty\": ", a->sav[e], a->func_samples[e],
		       a->total_samples[e], e == a->stall_ev ? "true" : "false");
		fmt_json_number(stdout, a->penalty[e]);
		printf("}");
	}
	printf("]");
}

static void json_insns(const struct annotation *a, const struct ev_list *evs)
{
	const struct asm_func *fn = a->fn;

	printf("\"instructions\": [");
	for (size_t i = 0; i < fn->n; i++) {
		const struct asm_insn *in = &fn->insn[i];
		printf("%s{\"address\": \"0x%" PRIx64 "\", \"text\": ", i ? ", " : "",
		       in->op.addr - fn->bias);
		fmt_json_string(stdout, in->text);
		printf(", ");
		json_samples(a, evs, i);
		printf(", \"stall\": %.0f, \"penalty\": %.0f, \"mark\": \"%s\", \"block\": %zu",
		       a->stall_cycles[i], a->penalty_cycles[i], flow_mark_name(annotation_mark(a, i)),
		       fn->flow.block_of ? fn->flow.block_of[i] : 0);
		printf(", \"load_bytes\": %u, \"store_bytes\": %u", in->op.load_bytes,
		       in->op.store_bytes);
		printf(", \"file\": ");
		fmt_json_string(stdout, in->file ? in->file : "");
		printf(", \"line\": %d}", in->file ? in->line : 0);
	}
	printf("]");
}

static void json_blocks(const struct annotation *a)
{
	const struct flow *f = &a->fn->flow;

	printf("\"blocks\": [");
	for (size_t b = 0; b < f->n_blocks; b++) {
		const struct flow_block *blk = &f->blocks[b];
		printf("%s{\"first\": \"0x%" PRIx64 "\", \"last\": \"0x%" PRIx64 "\", \"loop\": %d, "
		       "\"stall\": %.0f, \"penalty\": %.0f, \"mark\": \"%s\"}", b ? ", " : "",
		       a->fn->insn[blk->first].op.addr - a->fn->bias,
		       a->fn->insn[blk->last].op.addr - a->fn->bias, blk->loop,
		       flow_sum(a->stall_cycles, blk->first, blk->last),
		       flow_sum(a->penalty_cycles, blk->first, blk->last),
		       flow_mark_name((enum flow_mark)a->block_mark[b]));
	}
	printf("]");
}

static void json_loops(const struct annotation *a)
{
	const struct flow *f = &a->fn->flow;

	printf("\"loops\": [");
	for (size_t k = 0; k < f->n_loops; k++) {
		const struct flow_loop *l = &f->loops[k];
		printf("%s{\"head\": \"0x%" PRIx64 "\", \"tail\": \"0x%" PRIx64 "\", \"depth\": %d, "
		       "\"parent\": %d, \"instructions\": %zu, \"load_bytes\": %u, "
		       "\"store_bytes\": %u, \"iterations\": ", k ? ", " : "",
		       a->fn->insn[l->head].op.addr - a->fn->bias,
		       a->fn->insn[l->tail].op.addr - a->fn->bias, l->depth, l->parent, l->n_insns,
		       l->load_bytes, l->store_bytes);
		fmt_json_number(stdout, a->loop_iters[k]);
		printf(", \"bus_efficiency\": ");
		fmt_json_number(stdout, a->loop_bus_eff[k]);
		printf("}");
	}
	printf("]");
}

static void print_json(const struct annotation *a, const struct ev_list *evs)
{
	const struct asm_func *fn = a->fn;

	printf("{\"function\": ");
	fmt_json_string(stdout, fn->name);
	printf(", \"module\": ");
	fmt_json_string(stdout, fn->module ? fn->module : "");
	printf(", \"start\": \"0x%" PRIx64 "\", \"end\": \"0x%" PRIx64 "\", \"undecodable\": %zu, "
	       "\"outside\": %" PRIu64 ", ", fn->start - fn->bias, fn->end - fn->bias, fn->n_bad,
	       a->outside);
	json_events(a, evs);
	printf(", ");
	json_insns(a, evs);
	printf(", ");
	json_blocks(a);
	printf(", ");
	json_loops(a);
	printf("}\n");
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

/* The module of the hottest function of that name (the module WANT names,
 * when given: see symbols_module_matches); WANT itself when no sampled
 * function matches. */
static const char *module_of(const struct snapshot *snap, const char *name, const char *want)
{
	for (size_t i = 0; i < snap->n_funcs; i++)
		if (strcmp(snap->funcs[i].name, name) == 0 &&
		    symbols_module_matches(snap->funcs[i].module, want))
			return snap->funcs[i].module;
	return want;
}

static int annotate_session(struct session *s, const struct annotate_opts *o)
{
	struct snapshot *snap = session_snapshot(s);
	const struct ev_list *evs = session_events(s);
	uint64_t totals[EVENTS_MAX] = { 0 };
	double coverage[EVENTS_MAX] = { 0 };
	struct annot_opts ao = { o->stall, NULL, coverage };
	char err[512];
	int rc = 1;

	if (!snap)
		return 1;
	const char *module = module_of(snap, o->function, o->module);
	const struct asm_func *fn = session_asm(s, o->function, module, err, sizeof(err));
	struct ip_counts *ipc = fn && fn->module ? session_ip_counts(s, fn->name, fn->module) : NULL;
	for (int e = 0; e < snap->n_events; e++) {
		totals[e] = snap->ev[e].samples;
		coverage[e] = snap->ev[e].coverage;
	}
	struct annotation *a = fn ? annotation_new(fn, ipc, totals, evs, &ao) : NULL;
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
	if (rc == 0)  /* a launched command's status is cyctop's, as for a watch */
		rc = cmd_watch_status(o->s.argv != NULL && !o->in.path, snap->ended,
				      snap->exit_status);
	annotation_free(a);
	free(ipc);
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
	s = !o.in.path ? session_open(&o.s, err, sizeof(err))
	    : session_is_pprof(o.in.path) ? session_open_pprof(o.in.path, err, sizeof(err))
	    : session_open_file(&o.in, err, sizeof(err));
	if (!s) {
		cmd_error("%s", err);
		return 1;
	}
	if (session_events(s)->notice[0])
		cmd_error("%s", session_events(s)->notice);
	if (o.stall && annot_event_index(session_events(s), o.stall) < 0) {
		cmd_error("--stall '%s' is not one of the events (-e)", o.stall);
		session_close(s);
		return EXIT_USAGE;
	}
	watch_until_done(s, o.duration);
	rc = annotate_session(s, &o);
	session_close(s);
	return rc;
}

const struct cmd_entry cmd_annotate_entry = {
	"annotate",
	"annotate FUNCTION [-e LIST] [--format text|csv|json] (-p PID | -i FILE | -- COMMAND)",
	annotate_main,
};
