/* cyctop tree: the metric tree of counts files as text, csv or json. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/tree.h"
#include "engine/counts-file.h"
#include "tui/cmd.h"
#include "tui/opt.h"
#include "tui/format.h"
#include "tui/json.h"

struct tree_opts {
	enum arch_tree tree;
	const struct arch_model *model;
	double clock_hz;
	double slots;  /* --slots: perf's #slots on Arm, 0 = the model's default */
	const char *penalties;
	enum out_format format;
	bool smt;
	bool atom;  /* --pmu cpu_atom: the hybrid E-core rows */
	bool measured;  /* --measured: unmeasured subtrees folded into one line */
};

static const char *model_name(const struct arch_model *m)
{
	return m ? m->name : "none";
}

static void print_warnings(FILE *out, unsigned warn, const char *sep)
{
	for (unsigned bit = 1; bit <= WARN_OVERCOUNT; bit <<= 1)
		if (warn & bit)
			fprintf(out, "%s%s", sep, warn_text(bit));
}

/* --measured: node I's dark subtree and its dark siblings after it as one
 * line naming the events that would fill them.  Returns the next node. */
static int print_folded(const struct tree_result *r, int i)
{
	char miss[1024];
	uint64_t mask;
	bool no_clock;
	int rows, depth = r->v[i].depth;
	int k = tree_dark_run(r, i, &rows, &mask, &no_clock);

	/* a line, not a paragraph: the first three events and how many more */
	uint64_t first = 0;
	int more = 0;
	for (int b = 1; b < 64; b++)
		if (mask & (1ull << b)) {
			if (__builtin_popcountll(first) < 3)
				first |= 1ull << b;
			else
				more++;
		}
	printf("%*s(%d %s not measured: needs %s", 2 * depth, "", rows, rows == 1 ? "row" : "rows",
	       fmt_missing_mask(miss, sizeof(miss), r->def, first, no_clock && !more));
	if (more)
		printf(" and %d more event%s", more, more == 1 ? "" : "s");
	printf(")\n");
	return k;
}

/* The value and unit columns: a share (TopDown's fractions of slots) as a
 * percent, as toplev prints them; the rest in their unit. */
static void print_value(const struct tree_result *r, int i)
{
	char val[64];
	const struct tree_node_def *nd = &r->def->nodes[i];

	if (tree_is_share(r->def, i)) {
		snprintf(val, sizeof(val), "%.1f%%", 100.0 * r->v[i].value);
		printf(" %18s %-10s", val, "");
	} else {
		printf(" %18s %-10s", fmt_value(val, sizeof(val), r->v[i].value, nd->unit),
		       unit_name(nd->unit));
	}
}

static void print_row(const struct tree_result *r, int i, int idw, bool bottleneck)
{
	char miss[1024];
	const struct node_value *v = &r->v[i];
	const struct tree_node_def *nd = &r->def->nodes[i];
	int indent = 2 * v->depth;

	printf("%*s%-*s", indent, "", idw - indent, nd->id);
	if (v->state == NODE_HEADING) {
		printf("  %s\n", nd->label);
		return;
	}
	if (v->state == NODE_MISSING) {
		printf(" %18s  not measured: needs %s\n", "-", fmt_missing(miss, sizeof(miss), r, i));
		return;
	}
	print_value(r, i);
	double pct = isfinite(v->pct_parent) ? v->pct_parent
		     : tree_is_share(r->def, i) ? 100.0 * tree_parent_share(r, i) : NAN;
	if (isfinite(pct))
		printf(" %6.1f%%", pct);
	else
		printf("        ");
	printf("  %s", nd->label);
	if (v->warn) {
		printf("  [!");
		print_warnings(stdout, v->warn, " ");
		printf("]");
	}
	printf("%s\n", bottleneck ? "  <==" : "");
}

static void print_text(const struct tree_result *r, const struct tree_ctx *ctx,
		       bool measured_only)
{
	const struct tree_def *def = r->def;

	printf("%s  (model %s, penalties %s", def->title, model_name(ctx->model), ctx->pen->name);
	if (def->id == TREE_TOPDOWN)
		printf(", SMT %s", ctx->smt ? "on" : "off");
	if (ctx->clock_hz > 0)
		printf(", clock %.0f Hz", ctx->clock_hz);
	if (ctx->slots > 0)
		printf(", %g slots", ctx->slots);
	printf(")\n");
	int idw = 44;  /* the id column: the longest indented id, at least 44 */
	for (int i = 0; i < def->n_nodes; i++)
		if (2 * r->v[i].depth + (int)strlen(def->nodes[i].id) + 1 > idw)
			idw = 2 * r->v[i].depth + (int)strlen(def->nodes[i].id) + 1;
	/* toplev's mark: "<==" after the node the bottleneck path ends at */
	int path[TREE_MAX_NODES];
	int np = tree_bottleneck_path(r, path), bn = np ? path[np - 1] : -1;
	for (int i = 0; i < def->n_nodes; ) {
		if (measured_only && tree_dark(r, i)) {
			i = print_folded(r, i);
			continue;
		}
		print_row(r, i, idw, i == bn);
		i++;
	}
	/* the tree of a model without an ILP sweep says why it has no ilp rows
	 * (on Arm, unless the counts hold a threshold sweep: arch/tree-arm.c) */
	int ilp = tree_node_index(def, "ilp");
	if (ctx->model && ctx->model->no_ilp && def->id == ctx->model->tree &&
	    (ilp < 0 || r->v[ilp].state != NODE_VALUE))
		printf("(%s)\n", ctx->model->no_ilp);
}

static void print_csv(const struct tree_result *r)
{
	const struct tree_def *def = r->def;

	printf("id,value,unit\n");
	for (int i = 0; i < def->n_nodes; i++) {
		const struct node_value *v = &r->v[i];
		const struct tree_node_def *nd = &def->nodes[i];
		if (v->state == NODE_HEADING)
			continue;
		if (v->state == NODE_MISSING)
			printf("%s,not measured,%s\n", nd->id, unit_name(nd->unit));
		else
			printf("%s,%.15g,%s\n", nd->id, v->value, unit_name(nd->unit));
	}
}

static void json_missing(struct json *j, const struct tree_result *r, int i)
{
	json_key(j, "missing");
	json_array_begin(j);
	for (int k = 1; k < r->def->n_inputs && k < 64; k++)
		if (r->v[i].missing & (1ull << k))
			json_str(j, r->def->inputs[k].name);
	if (r->v[i].no_clock)
		json_str(j, "--clock-hz");
	json_end(j);
}

static void json_node(struct json *j, const struct tree_result *r, int i)
{
	const struct node_value *v = &r->v[i];
	const struct tree_node_def *nd = &r->def->nodes[i];

	json_object_begin(j);
	json_kstr(j, "id", nd->id);
	json_kstr(j, "label", nd->label);
	json_kstr(j, "unit", unit_name(nd->unit));
	json_knum(j, "value", v->state == NODE_VALUE ? v->value : NAN);
	json_knum(j, "percent_of_parent", v->pct_parent);
	json_kbool(j, "measured", v->state == NODE_VALUE);
	json_missing(j, r, i);
	json_key(j, "warnings");
	json_array_begin(j);
	for (unsigned bit = 1; bit <= WARN_OVERCOUNT; bit <<= 1)
		if (v->warn & bit)
			json_str(j, warn_text(bit));
	json_end(j);
	json_end(j);
}

static void print_json(const struct tree_result *r, const struct tree_ctx *ctx)
{
	struct json j;

	json_init(&j, stdout);
	json_object_begin(&j);
	json_kstr(&j, "tree", r->def->name);
	json_kstr(&j, "model", model_name(ctx->model));
	json_kbool(&j, "smt", ctx->smt);
	json_kstr(&j, "penalties", ctx->pen->name);
	json_knum(&j, "clock_hz", ctx->clock_hz > 0 ? ctx->clock_hz : NAN);
	json_key(&j, "nodes");
	json_lines_begin(&j);
	for (int i = 0; i < r->def->n_nodes; i++)
		json_node(&j, r, i);
	json_end(&j);
	json_end(&j);
	putchar('\n');
}

/* Warnings go to stderr too, so csv consumers see them without a 4th column. */
static void report_warnings(const struct tree_result *r)
{
	for (int i = 0; i < r->def->n_nodes; i++) {
		if (!r->v[i].warn)
			continue;
		fprintf(stderr, "cyctop: warning: %s:", r->def->nodes[i].id);
		print_warnings(stderr, r->v[i].warn, " ");
		fprintf(stderr, "\n");
	}
}

/* Without --arch: the hardware tree most of whose events the counts hold. */
int cmd_tree_guess(const struct counts *c, const struct tree_ctx *base)
{
	enum arch_tree best = TREE_NONE;
	int best_n = 0;
	struct tree_result r;

	for (int t = 0; t < TREE_COUNT; t++) {
		struct tree_ctx ctx = *base;
		if (!tree_def_get((enum arch_tree)t))
			continue;
		const struct tree_def *def = tree_def_pick((enum arch_tree)t, NULL, c);
		ctx.model = tree_default_model(def);
		tree_eval(def, c, &ctx, &r);
		int n = tree_inputs_present(&r);
		if (n > best_n) {
			best_n = n;
			best = (enum arch_tree)t;
		}
	}
	return best;
}

/* Without --model: DEF's default model, or the model of the tree most of
 * whose events C holds where DEF lists it too (the AMD paper's tree of a
 * Zen 4's file is Zen 4's, not K8's). */
static const struct arch_model *file_model(const struct counts *c, const struct tree_ctx *base,
					   const struct tree_def *def)
{
	int best = cmd_tree_guess(c, base);
	const struct arch_model *m = NULL;

	if (best != TREE_NONE)
		m = tree_default_model(tree_def_pick((enum arch_tree)best, NULL, c));
	for (const char *const *l = def->models; m && l && *l; l++)
		if (strcmp(*l, m->name) == 0)
			return m;
	return tree_default_model(def);
}

/* --pmu cpu_atom: C becomes its E-core rows (and the rows of no core PMU). */
static int select_atom(struct counts *c, const char *fname)
{
	struct counts atom;

	if (!counts_kept_apart(c)) {
		cmd_error("%s: no cpu_atom events (--pmu cpu_atom needs a hybrid machine's "
			  "perf stat output)", fname);
		counts_free(c);
		return -1;
	}
	if (counts_atom_rows(&atom, c) < 0) {
		cmd_error("out of memory");
		counts_free(c);
		return -1;
	}
	counts_free(c);
	*c = atom;
	return 0;
}

static const char tree_usage[] =
	"usage: cyctop tree [OPTIONS] COUNTS-FILE|FILE.data...";

static const char *const pmus[] = { "cpu_core", "cpu_atom", NULL };

/* --clock-hz: what a second of cycles is on the measured machine */
#define CLOCK_HZ_MAX 1e12
/* --slots: PMMIR_EL1.SLOTS is an 8-bit field */
#define SLOTS_MAX 255

/* Returns the index of the first file, or -1. */
static int parse_args(int argc, char **argv, struct tree_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->tree = TREE_NONE;
	int atom = 0, smt = 0, measured = 0;
	const struct opt opts[] = {
		OPT_ARCH(&o->tree, "core2, ia64, amd, intel, topdown, zen, arm or sw (default:\n"
			 "the model's, or the one the events belong to)"),
		OPT_MODEL(&o->model, "the model the counts were taken on"),
		OPT_SMT(&smt, "whether SMT was on (off by default)"),
		OPT_ENUM(0, "pmu", &atom, pmus, "cpu_core|cpu_atom",
			 "a hybrid machine's P-core (the default) or E-core rows"),
		OPT_DOUBLE(0, "slots", &o->slots, 1, SLOTS_MAX, "W",
			   "Arm TopDown's #slots (the PMU's caps/slots; default:\n"
			   "the model's)"),
		OPT_DOUBLE(0, "clock-hz", &o->clock_hz, 1, CLOCK_HZ_MAX, "HZ",
			   "the core clock, for the metrics in seconds"),
		OPT_STRING(0, "penalties", &o->penalties, "desktop|server|FILE",
			   "the stall penalties in cycles"),
		OPT_FLAG(0, "measured", &measured,
			 "text: the measured rows; each run of rows without a value\n"
			 "folded into one line naming the events that would fill it"),
		/* tree alone has -f for it */
		OPT_ENUM('f', "format", &o->format, opt_formats_text, "F", "text, csv or json"),
		OPT_END,
	};
	const struct opt_cmd cmd = { tree_usage, opts, NULL, false };

	int first = opt_parse(&cmd, argc, argv, 1);
	if (first < 0)
		return -1;
	o->smt = smt;
	o->atom = atom;
	o->measured = measured;
	if (first >= argc) {
		cmd_error("tree: no counts file given (usage: cyctop %s)", cmd_tree_entry.usage);
		return -1;
	}
	if (o->model && o->tree != TREE_NONE && !tree_fits_model(o->tree, o->model)) {
		bool no_slots = o->tree == TREE_TOPDOWN && o->model->encoding == ENC_ARMV8;
		cmd_error("model %s does not feed the %s tree%s", o->model->name, tree_name(o->tree),
			  no_slots ? " (its PMU has no slot events; perf has no TopDown for it "
			  "either: --arch arm)" : "");
		return -1;
	}
	return first;
}

static int cmd_tree_exec(int argc, char **argv)
{
	struct tree_opts o;
	struct penalties pen;
	struct counts c;
	char err[512];
	struct tree_result r;

	int first = parse_args(argc, argv, &o);
	if (first < 0)
		return EXIT_USAGE;
	if (penalties_load(&pen, o.penalties, err, sizeof(err)) < 0) {
		cmd_error("%s", err);
		return 1;
	}
	counts_init(&c);
	if (counts_load_files(&c, argv + first, argc - first, err, sizeof(err)) < 0) {
		cmd_error("%s", err);
		counts_free(&c);
		return 1;
	}
	size_t atom_rows = counts_kept_apart(&c);
	if (o.atom && select_atom(&c, argv[first]) < 0)
		return 1;
	struct tree_ctx ctx = { .model = o.model, .pen = &pen, .clock_hz = o.clock_hz,
				.slots = o.slots,
				.smt = o.smt };
	if (o.tree == TREE_NONE)
		o.tree = o.model ? o.model->tree : (enum arch_tree)cmd_tree_guess(&c, &ctx);
	if (o.tree == TREE_NONE) {
		cmd_error("%s: none of its events belongs to a known tree (give --arch)",
			  argv[first]);
		counts_free(&c);
		return 1;
	}
	const struct tree_def *def = tree_def_pick(o.tree, ctx.model, &c);
	if (!ctx.model)
		ctx.model = file_model(&c, &ctx, def);
	tree_eval(def, &c, &ctx, &r);
	if (o.format == OUT_TEXT)
		print_text(&r, &ctx, o.measured);
	else if (o.format == OUT_CSV)
		print_csv(&r);
	else
		print_json(&r, &ctx);
	report_warnings(&r);
	if (atom_rows && !o.atom)
		fprintf(stderr, "cyctop: note: %zu cpu_atom (E-core) events kept apart: the tree "
			"is computed on the cpu_core rows (--pmu cpu_atom for theirs)\n", atom_rows);
	counts_free(&c);
	return 0;
}

const struct cmd_entry cmd_tree_entry = {
	"tree",
	"tree [-A|--arch core2|ia64|amd|intel|topdown|zen|arm|sw] [--model PMU] [--smt on|off] "
	"[--pmu cpu_core|cpu_atom] [--slots W] [--clock-hz HZ] [--measured] [--penalties desktop|server|FILE] [--format text|csv|json] "
	"COUNTS-FILE|FILE.data...",
	cmd_tree_exec,
};
