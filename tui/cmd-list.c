/* cyctop list: models, events (with libpfm4 encodings), presets, trees,
 * metrics. */
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arch/preset.h"
#include "arch/tree.h"
#include "engine/pfm.h"
#include "tui/cmd.h"

struct list_opts {
	const struct arch_model *model;
	enum arch_tree tree;
	const char *pattern;
};

/* PATTERN matches as a case-insensitive substring or shell glob. */
static int matches(const char *pattern, const char *s)
{
	if (!pattern)
		return 1;
	if (strcasestr(s, pattern))
		return 1;
	return fnmatch(pattern, s, FNM_CASEFOLD) == 0;
}

static const struct arch_model *host_model(void)
{
	char err[256];
	const struct arch_model *m = NULL;

	if (pfm_setup(NULL, err, sizeof(err)) == 0 && pfm_host_pmu())
		m = model_find(pfm_host_pmu());
	return m ? m : model_find("perf");
}

static int list_models(const struct list_opts *o)
{
	const struct arch_model *m, *host = host_model();

	printf("%-14s %-7s %-5s %-6s %-24s %s\n", "MODEL", "GENERIC", "FIXED", "TREE",
	       "LIBPFM4 PMU", "DESCRIPTION");
	for (size_t i = 0; (m = model_at(i)) != NULL; i++) {
		if (!matches(o->pattern, m->name))
			continue;
		printf("%-14s %-7d %-5d %-6s %-24s %s%s\n", m->name, m->n_generic, m->n_fixed,
		       tree_name(m->tree), m->pfm_force ? m->pfm_force : "-", m->desc,
		       m == host ? " (this host)" : "");
	}
	return 0;
}

static void print_constraint(const struct arch_event *ev, const struct arch_model *m)
{
	char where[32] = "any";

	if (ev->counters) {
		size_t o = 0;
		for (int c = 0; c < 8; c++)
			if (ev->counters & (1u << c))
				o += (size_t)snprintf(where + o, sizeof(where) - o, "%sPMC%d",
						      o ? "," : "", c);
	} else if (m->n_generic == 0) {
		snprintf(where, sizeof(where), "-");
	}
	if (ev->fixed >= 0)
		printf(" %-10s FIXED%d", where, ev->fixed);
	else
		printf(" %-10s %-6s", where, "");
}

struct event_walk {
	const struct arch_model *model;
	const char *pattern;
	int shown;
};

static void print_event(const struct arch_event *ev, void *arg)
{
	struct event_walk *w = arg;
	struct perf_event_attr attr;
	char err[256];

	if (!matches(w->pattern, ev->name) && !(ev->pfm && matches(w->pattern, ev->pfm)))
		return;
	w->shown++;
	printf("%-40s", ev->name);
	if (w->model->pfm_force) {
		printf(" sel=0x%02x umask=0x%02x cmask=%u inv=%d", ev->code.sel, ev->code.umask,
		       ev->code.cmask, ev->code.inv);
		print_constraint(ev, w->model);
	}
	if (ev->pfm && pfm_encode(ev->pfm, &attr, NULL, 0, err, sizeof(err)) == 0)
		printf(" %s -> type=%u config=0x%llx", ev->pfm, attr.type,
		       (unsigned long long)attr.config);
	else if (ev->pfm)
		printf(" %s -> not encodable here", ev->pfm);
	if (ev->sav)
		printf(" sav=%u", ev->sav);
	printf("\n");
}

static int list_events(const struct list_opts *o)
{
	const struct arch_model *m = o->model ? o->model : host_model();
	char err[256], fstr[512];
	struct event_walk w = { m, o->pattern, 0 };
	struct perf_event_attr attr;

	if (pfm_setup(m->pfm_force, err, sizeof(err)) < 0) {
		cmd_error("%s", err);
		return 1;
	}
	printf("# model %s: %s\n", m->name, m->desc);
	model_foreach(m, print_event, &w);
	/* A pattern that is no row may be a libpfm4 string: show its encoding. */
	if (w.shown == 0 && o->pattern) {
		if (pfm_encode(o->pattern, &attr, fstr, sizeof(fstr), err, sizeof(err)) < 0) {
			cmd_error("%s", err);
			return 1;
		}
		printf("%s -> type=%u config=0x%llx (%s)\n", o->pattern, attr.type,
		       (unsigned long long)attr.config, fstr);
	}
	return 0;
}

static int list_presets(const struct list_opts *o)
{
	const struct preset *p;

	for (size_t i = 0; (p = preset_at(i)) != NULL; i++) {
		if (!matches(o->pattern, p->name))
			continue;
		if (o->tree != TREE_NONE && p->tree != o->tree)
			continue;
		printf("@%-18s %-6s %s  [%s]\n", p->name, tree_name(p->tree), p->desc, p->source);
		for (size_t k = 0; k < preset_size(p); k++) {
			if (p->events[k].sav)
				printf("    %-40s sav %u\n", p->events[k].name, p->events[k].sav);
			else
				printf("    %-40s sav from the model table\n", p->events[k].name);
		}
	}
	return 0;
}

static int list_trees(const struct list_opts *o)
{
	for (int t = 0; t < TREE_COUNT; t++) {
		const struct tree_def *d = tree_def_get((enum arch_tree)t);
		if (!matches(o->pattern, d->name))
			continue;
		printf("%-6s %-40s model %s, %d metrics\n", d->name, d->title,
		       model_for_tree((enum arch_tree)t)->name, d->n_nodes);
	}
	return 0;
}

static int list_metrics(const struct list_opts *o)
{
	for (int t = 0; t < TREE_COUNT; t++) {
		const struct tree_def *d = tree_def_get((enum arch_tree)t);
		if (o->tree != TREE_NONE && o->tree != t)
			continue;
		for (int i = 0; i < d->n_nodes; i++) {
			const struct tree_node_def *nd = &d->nodes[i];
			if (nd->flags & TN_GROUP || !matches(o->pattern, nd->id))
				continue;
			printf("%-6s %-38s %-11s %s\n", d->name, nd->id, unit_name(nd->unit),
			       nd->source);
		}
	}
	return 0;
}

static const struct {
	const char *kind;
	int (*fn)(const struct list_opts *);
} kinds[] = {
	{ "models", list_models }, { "events", list_events }, { "presets", list_presets },
	{ "trees", list_trees }, { "metrics", list_metrics },
};

static int cmd_list_exec(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "arch", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct list_opts o = { NULL, TREE_NONE, NULL };
	const char *kind = "events";
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "m:a:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'm':
			o.model = model_find(optarg);
			if (!o.model) {
				cmd_error("unknown model '%s' (cyctop list models)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'a':
			o.tree = tree_from_name(optarg);
			if (o.tree == TREE_NONE) {
				cmd_error("unknown --arch '%s' (core2, ia64, amd or sw)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			printf("usage: cyctop %s\n", cmd_list_entry.usage);
			return 0;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		kind = argv[optind++];
	if (optind < argc)
		o.pattern = argv[optind++];
	if (optind < argc) {
		cmd_error("list: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kind, kinds[i].kind) == 0)
			return kinds[i].fn(&o);
	cmd_error("list: unknown kind '%s' (models, events, presets, trees, metrics)", kind);
	return EXIT_USAGE;
}

const struct cmd_entry cmd_list_entry = {
	"list",
	"list [models|events|presets|trees|metrics] [--model PMU] [--arch TREE] [PATTERN]",
	cmd_list_exec,
};
