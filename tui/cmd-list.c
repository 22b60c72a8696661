/* cyctop list: models, events (with libpfm4 encodings), presets, trees,
 * metrics, and the group plan of an event list. */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arch/plan.h"
#include "arch/perf-events.h"
#include "arch/preset.h"
#include "arch/tree.h"
#include "engine/events.h"
#include "engine/pfm.h"
#include "tui/cmd.h"
#include "tui/opt.h"

struct list_opts {
	const struct arch_model *model;
	enum arch_tree tree;
	const char *pattern;
	const char *events;   /* -e LIST, for groups */
	int counters;         /* --counters N, 0 = the inventory */
	int smt;              /* --smt: 1 on (the default), 0 off */
	struct pfm_host *pfm; /* the host's libpfm4, this command's */
};

/* PATTERN matches as a case-insensitive substring or shell glob. */
static int matches(const char *pattern, const char *s)
{
	if (!pattern)
		return 1;
	if (strcasestr(s, pattern))
		return 1;
	/* a glob matches a name whole: each of "cycles|cpu-cycles" */
	for (const char *p = s; *p; p += strcspn(p, "|"), p += *p == '|') {
		char alias[EVENT_NAME_MAX];
		snprintf(alias, sizeof(alias), "%.*s", (int)strcspn(p, "|"), p);
		if (fnmatch(pattern, alias, FNM_CASEFOLD) == 0)
			return 1;
	}
	return 0;
}

static const struct arch_model *host_model(struct pfm_host *h)
{
	char err[256];
	const struct arch_model *m = NULL;

	if (pfm_setup(h, NULL, err, sizeof(err)) == 0 && pfm_host_pmu(h))
		m = model_find(pfm_host_pmu(h));
	return m ? m : model_find("perf");
}

static int list_models(const struct list_opts *o)
{
	const struct arch_model *m, *host = host_model(o->pfm);

	printf("%-17s %-7s %-5s %-7s %-22s %s\n", "MODEL", "GENERIC", "FIXED", "TREE",
	       "LIBPFM4 PMU", "DESCRIPTION");
	for (size_t i = 0; (m = model_at(i)) != NULL; i++) {
		char generic[16];
		if (!matches(o->pattern, m->name) || (o->model && m != o->model))
			continue;
		/* SMT on / off where they differ (4/8 on SNB..CLX) */
		if (m->n_generic_nosmt && m->n_generic_nosmt != m->n_generic)
			snprintf(generic, sizeof(generic), "%d/%d", m->n_generic, m->n_generic_nosmt);
		else
			snprintf(generic, sizeof(generic), "%d", m->n_generic);
		printf("%-17s %-7s %-5d %-7s %-22s %s%s\n", m->name, generic, m->n_fixed,
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
	if (ev->fixed >= 0 && !event_fits_counter(ev, 0))
		printf(" %-10s FIXED%d", "-", ev->fixed);  /* fixed-only (slots) */
	else if (ev->fixed >= 0)
		printf(" %-10s FIXED%d", where, ev->fixed);
	else
		printf(" %-10s %-6s", where, "");
}

struct event_walk {
	const struct arch_model *model;
	struct pfm_host *pfm;
	const char *pattern;
	int shown;
	struct ev_list *l;  /* events_encode's scratch */
};

/* " -> type=T config=C [config1=C1]": the attr of NAME as cyctop encode
 * gives it (engine/events.c's one encoder); 0, or -1 when none. */
static int print_attr(struct event_walk *w, const char *name)
{
	char err[512];

	if (events_encode(name, w->model, w->pfm, w->l, err, sizeof(err)) < 0 || w->l->n != 1)
		return -1;
	const struct perf_event_attr *a = &w->l->ev[0].attr;
	printf(" -> type=%u config=0x%llx", a->type, (unsigned long long)a->config);
	if (a->config1)
		printf(" config1=0x%llx", (unsigned long long)a->config1);
	return 0;
}

static void print_event(const struct arch_event *ev, void *arg)
{
	struct event_walk *w = arg;
	char primary[EVENT_NAME_MAX];

	if (!matches(w->pattern, ev->name) && !(ev->pfm && matches(w->pattern, ev->pfm)))
		return;
	w->shown++;
	printf("%-40s", ev->name);
	snprintf(primary, sizeof(primary), "%.*s", (int)strcspn(ev->name, "|"), ev->name);
	if (w->model->tree == TREE_SW) {
		/* the kernel's generic events: no counter fields */
	} else if (w->model->pfm_force || w->model->encoding != ENC_ARMV8) {
		printf(" sel=0x%02x umask=0x%02x cmask=%u inv=%d", ev->code.sel, ev->code.umask,
		       ev->code.cmask, ev->code.inv);
		if (event_is_metric(w->model, ev))
			printf(" %-10s %-6s", "-", "METRIC");  /* read through slots' group */
		else
			print_constraint(ev, w->model);
	} else if (w->model->encoding == ENC_ARMV8) {
		printf(" event=0x%04x", ev->code.sel);
		print_constraint(ev, w->model);
	}
	if (ev->pfm && w->model->pfm_force && w->model->encoding != ENC_ARMV8)
		printf(" %s", ev->pfm);  /* libpfm4's string, which it encodes */
	if (ev->pfm && print_attr(w, primary) < 0)
		printf("%s -> not encodable here", w->model->pfm_force ? "" : " ");
	if (ev->sav)
		printf(" sav=%u", ev->sav);
	printf("\n");
}

/* perf's core events of M (arch/perf-events.h), by perf's name, with the
 * attr they encode to and perf's one-line description. */
static int list_perf_events(const struct arch_model *m, const char *pattern)
{
	const struct perf_events_table *t = model_perf_table(m);
	int shown = 0;

	for (size_t i = 0; t && i < t->n; i++) {
		const struct perf_event_row *r = &t->rows[i];
		struct arch_code code;
		uint64_t config1 = 0;
		if (!matches(pattern, perf_event_name(r)) ||
		    !model_perf_code(m, perf_event_name(r), &code, &config1, NULL))
			continue;
		if (shown++ == 0)
			printf("# perf's events (%s, %s)\n", t->source, perf_events_source);
		printf("%-40s -> type=%u config=0x%llx", perf_event_name(r), PERF_TYPE_RAW,
		       model_code_config(m, &code));
		if (config1)
			printf(" config1=0x%llx", (unsigned long long)config1);
		printf("  %s%s\n", r->flags & PERF_EV_DEPRECATED ? "(deprecated) " : "",
		       perf_event_desc(r));
	}
	return shown;
}

static int list_events(const struct list_opts *o)
{
	const struct arch_model *m = o->model ? o->model : host_model(o->pfm);
	char err[512];
	struct event_walk w = { m, o->pfm, o->pattern, 0, calloc(1, sizeof(struct ev_list)) };
	int rc = 0;

	if (!w.l) {
		cmd_error("out of memory");
		return 1;
	}
	if (pfm_setup(o->pfm, m->pfm_force, err, sizeof(err)) < 0) {
		cmd_error("%s", err);
		free(w.l);
		return 1;
	}
	printf("# model %s: %s\n", m->name, m->desc);
	model_foreach(m, print_event, &w);
	w.shown += list_perf_events(m, o->pattern);
	/* A pattern that is no row may be a libpfm4 string: show its encoding. */
	if (w.shown == 0 && o->pattern) {
		if (events_encode(o->pattern, m, o->pfm, w.l, err, sizeof(err)) < 0) {
			cmd_error("%s", err);
			rc = 1;
		} else {
			printf("%s", o->pattern);
			print_attr(&w, o->pattern);
			printf("\n");
		}
	}
	free(w.l);
	return rc;
}

static int list_presets(const struct list_opts *o)
{
	const struct preset *p;

	for (size_t i = 0; (p = preset_at(i)) != NULL; i++) {
		if (!matches(o->pattern, p->name))
			continue;
		if (o->tree != TREE_NONE && p->tree != o->tree)
			continue;
		if (o->model && !preset_for_model(p, o->model))
			continue;
		printf("@%-18s %-7s %s  [%s]\n", p->name, tree_name(p->tree), p->desc, p->source);
		if (p->models && !o->model)
			printf("    models: %s\n", p->models);
		for (size_t k = 0; k < preset_size(p); k++) {
			if (p->events[k].sav)
				printf("    %-40s sav %u\n", p->events[k].name, p->events[k].sav);
			else
				printf("    %-40s sav from the model table\n", p->events[k].name);
		}
	}
	return 0;
}

/* One line per definition: a tree with formulas per CPU generation (intel,
 * topdown) lists each variant with the models it is for. */
static int list_trees(const struct list_opts *o)
{
	const struct tree_def *d;

	for (size_t i = 0; (d = tree_def_at(i)) != NULL; i++) {
		if (!matches(o->pattern, d->name))
			continue;
		const struct arch_model *m = tree_default_model(d);
		printf("%-7s %-56s %2d metrics, model", d->name, d->title, d->n_nodes);
		if (!d->models)
			printf(" %s", m ? m->name : "none");
		for (const char *const *v = d->models; v && *v; v++)
			printf(" %s", *v);
		printf("\n");
	}
	return 0;
}

static int list_metrics(const struct list_opts *o)
{
	for (int t = 0; t < TREE_COUNT; t++) {
		/* with --model, the variant of the tree for that model */
		const struct tree_def *d = o->model ? tree_def_pick((enum arch_tree)t, o->model, NULL)
					       : tree_def_get((enum arch_tree)t);
		if (!d || (o->tree != TREE_NONE && o->tree != t))
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

/* --- list groups: the planner's groups for -e LIST ------------------------ */

struct group_requests {
	int n;
	struct plan_request req[PLAN_MAX_EVENTS];
	char names[PLAN_MAX_EVENTS][EVENT_NAME_MAX];
	char notice[1024];
};

static void add_request(struct group_requests *g, const struct arch_model *m,
			const char *name, bool software)
{
	snprintf(g->names[g->n], sizeof(g->names[0]), "%.*s", (int)strcspn(name, "|"), name);
	g->req[g->n].name = g->names[g->n];
	g->req[g->n].row = model_lookup(m, g->names[g->n]);
	g->req[g->n].software = software;
	g->n++;
}

/* Events libpfm4 can encode (engine/events.c: presets, paper names, /SAV). */
static int pfm_requests(const char *list, const struct arch_model *m, struct pfm_host *pfm,
			struct group_requests *g, char *err, size_t errsz)
{
	struct ev_list *evl = calloc(1, sizeof(*evl));  /* 20 KB */
	int rc = -1;

	if (!evl)
		snprintf(err, errsz, "out of memory");
	else if (pfm_setup(pfm, m->pfm_force, err, errsz) == 0 &&
		 events_parse(list, m, pfm, evl, err, errsz) == 0) {
		for (int i = 0; i < evl->n; i++)
			add_request(g, m, evl->ev[i].name, evl->ev[i].software);
		snprintf(g->notice, sizeof(g->notice), "%s", evl->notice);
		rc = 0;
	}
	free(evl);
	return rc;
}

static int add_table_item(struct group_requests *g, const struct arch_model *m, char *item,
			  char *err, size_t errsz)
{
	const struct arch_event *rows[PRESET_MAX_EVENTS];
	uint32_t savs[PRESET_MAX_EVENTS];
	char *slash = strrchr(item, '/');
	int n = 1;

	if (slash && slash[1] && strspn(slash + 1, "0123456789") == strlen(slash + 1))
		*slash = '\0';  /* EVENT/SAV: the SAV does not change the plan */
	if (item[0] == '@') {
		const struct preset *p = preset_find_for(item, m);
		if (!p) {
			snprintf(err, errsz, "unknown preset '%s' (cyctop list presets)", item);
			return -1;
		}
		if ((n = preset_resolve(p, m, rows, savs, err, errsz)) < 0)
			return -1;
	} else if (!(rows[0] = model_lookup(m, item))) {
		snprintf(err, errsz, "event '%s' is not an event of the %s model (cyctop list "
			 "events --model %s)", item, m->name, m->name);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		int k = 0;
		while (k < g->n && g->req[k].row != rows[i])
			k++;
		if (k < g->n)
			continue;  /* a preset and an explicit event may overlap */
		if (g->n == PLAN_MAX_EVENTS) {
			snprintf(err, errsz, "too many events (at most %d)", PLAN_MAX_EVENTS);
			return -1;
		}
		add_request(g, m, rows[i]->name, false);
	}
	return 0;
}

struct table_ctx {
	struct group_requests *g;
	const struct arch_model *m;
};

static int table_item(char *item, void *arg, char *err, size_t errsz)
{
	struct table_ctx *c = arg;

	return add_table_item(c->g, c->m, item, err, errsz);
}

/* Models libpfm4 lacks (IA-64): the events of our table, by name. */
static int table_requests(const char *list, const struct arch_model *m,
			  struct group_requests *g, char *err, size_t errsz)
{
	struct table_ctx c = { g, m };

	return events_foreach(list, table_item, &c, err, errsz);
}

static bool model_in_libpfm(const struct arch_model *m)
{
	/* and the x86 models encoded from perf's tables alone (Zen 5, the
	 * E-cores): events_parse takes every spelling for them too */
	return m->pfm_force || m->tree == TREE_SW ||
	       (m->perf_events && m->encoding != ENC_ARMV8);
}

static void print_inventory(const struct arch_model *m, int counters, int smt)
{
	printf("# model %s: %s\n", m->name, m->desc);
	if (m->n_generic_nosmt)
		printf("# %d generic counters per thread (SMT %s; --smt on|off)\n", m->n_generic,
		       smt ? "on" : "off");
	if (m->n_generic + m->n_fixed == 0 && counters)
		printf("# at most %d event%s per group beside %s (--counters %d)\n", counters,
		       counters == 1 ? "" : "s", m->cycles, counters);
	else if (m->n_generic + m->n_fixed == 0)
		printf("# no counter inventory: every event fits one group\n");
	else if (counters && counters < m->n_generic)
		printf("# %d of %d generic counters per group (--counters %d), %d fixed\n",
		       counters, m->n_generic, counters, m->n_fixed);
}

static void print_group(const struct plan *pl, const struct group_requests *g, int k)
{
	const struct plan_group *grp = &pl->groups[k];
	char ctr[16];

	printf("group %d:\n", k + 1);
	for (int i = 0; i < grp->n; i++) {
		const struct plan_slot *s = &grp->slots[i];
		const char *name = s->event == PLAN_ADDED ? pl->reference_name : g->names[s->event];
		printf("  %-7s %s%s\n", plan_counter_name(s, ctr, sizeof(ctr)), name,
		       i == 0 && grp->ref > 0 ? "  (group leader: the PERF_METRICS events read "
		       "through it)" : i != grp->ref ? "" : s->event == PLAN_ADDED ? "  (reference)"
		       : pl->n_groups > 1 ? "  (reference, shared)" : "  (reference)");
	}
}

static void print_partners(const struct plan *pl, const struct group_requests *g)
{
	for (int s = 0; s < pl->n_partners; s++) {
		const struct plan_partners *ps = &pl->partners[s];
		printf("# partners %s:", ps->together ? "together" : "apart");
		for (int k = 0; k < ps->n; k++)
			printf("%s%s", k ? " + " : " ", g->names[ps->ev[k]]);
		printf(" [%s]\n", ps->formula);
	}
}

/* MODEL as the planner sees it with SMT off, in COPY: a thread has the
 * core's generic counters (SNB..CLX: 8 instead of 4). */
static const struct arch_model *smt_off(const struct arch_model *m, struct arch_model *copy)
{
	*copy = *m;
	if (m->n_generic_nosmt)
		copy->n_generic = m->n_generic_nosmt;
	return copy;
}

/* The requests and the plan (some 60 KB) live on the stack: a command's
 * frame, called once. */
static int list_groups(const struct list_opts *o)
{
	const struct arch_model *m = o->model ? o->model : host_model(o->pfm);
	struct arch_model copy;

	if (!o->smt)
		m = smt_off(m, &copy);
	struct group_requests g;
	struct plan pl;
	char err[512];
	int rc;

	if (!o->events) {
		cmd_error("list groups: which events? (-e LIST)");
		return EXIT_USAGE;
	}
	memset(&g, 0, sizeof(g));
	memset(&pl, 0, sizeof(pl));
	rc = model_in_libpfm(m) ? pfm_requests(o->events, m, o->pfm, &g, err, sizeof(err))
				: table_requests(o->events, m, &g, err, sizeof(err));
	if (rc < 0 || plan_build(m, g.req, g.n, o->counters, &pl, err, sizeof(err)) < 0) {
		cmd_error("%s", err);
		return 1;
	}
	print_inventory(m, o->counters, o->smt);
	if (g.notice[0])
		printf("# %s\n", g.notice);
	for (int k = 0; k < pl.n_groups; k++)
		print_group(&pl, &g, k);
	if (pl.groups[0].ref < 0)
		printf("# one group, no room for the reference %s: nothing is multiplexed\n",
		       pl.reference_name);
	print_partners(&pl, &g);
	if (!pl.optimal)
		printf("# the search budget ran out: fewer groups may exist\n");
	printf("%d event%s in %d group%s on %s (%d collection%s)\n", g.n, g.n == 1 ? "" : "s",
	       pl.n_groups, pl.n_groups == 1 ? "" : "s", m->name, pl.n_groups,
	       pl.n_groups == 1 ? "" : "s");
	return 0;
}

static const struct list_kind {
	const char *kind;
	int (*fn)(const struct list_opts *);
} kinds[] = {
	{ "models", list_models }, { "events", list_events }, { "presets", list_presets },
	{ "trees", list_trees }, { "metrics", list_metrics }, { "groups", list_groups },
};

#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))

static const struct list_kind *find_kind(const char *name)
{
	for (size_t i = 0; i < N_KINDS; i++)
		if (strcmp(name, kinds[i].kind) == 0)
			return &kinds[i];
	return NULL;
}

/* A kind NAME is a typo of, if close (a pattern is what else it is). */
static const char *closest_kind(const char *name)
{
	const char *names[N_KINDS];

	for (size_t i = 0; i < N_KINDS; i++)
		names[i] = kinds[i].kind;
	return opt_closest(name, names, N_KINDS);
}

static const char list_usage[] =
	"usage: cyctop list [models|events|presets|trees|metrics|groups] [OPTIONS] [PATTERN]\n"
	"       cyctop list PATTERN   (the events whose names match, as perf list PATTERN)";

static const char list_prose[] =
	"PATTERN picks names by a case-insensitive substring or a shell glob; a first\n"
	"word that is no kind is the pattern of events.  --model picks that model's\n"
	"row in models.  Each encoding is cyctop encode's (the attr cyctop opens).\n"
	"events lists the model's table, then every core event Linux perf knows for\n"
	"the model, by perf's name, with its encoding and perf's one-line description.\n";

static int cmd_list_exec(int argc, char **argv)
{
	struct list_opts o = { NULL, TREE_NONE, NULL, NULL, 0, 1, NULL };
	const struct opt opts[] = {
		OPT_MODEL(&o.model, "the model to list (default: the host's)"),
		OPT_ARCH(&o.tree, "presets, metrics: only this tree's"),
		OPT_EVENTS(&o.events, "groups: the events to plan into counter groups"),
		OPT_COUNTERS(&o.counters, "groups: plan for at most N counters"),
		OPT_SMT(&o.smt, "groups: the counters with SMT on (the default) or off"),
		OPT_END,
	};
	const struct opt_cmd cmd = { list_usage, opts, list_prose, false };
	const char *kind = "events";

	int first = opt_parse(&cmd, argc, argv, 1);
	if (first < 0)
		return EXIT_USAGE;
	if (first < argc)
		kind = argv[first++];
	if (!find_kind(kind)) {
		/* perf list PATTERN: the events whose names match */
		const char *g = closest_kind(kind);
		if (g) {
			cmd_error("list: unknown kind '%s': did you mean '%s'? (see cyctop list "
				  "--help)", kind, g);
			return EXIT_USAGE;
		}
		o.pattern = kind;
		kind = "events";
	} else if (first < argc) {
		o.pattern = argv[first++];
	}
	if (first < argc) {
		cmd_error("list: unexpected argument '%s'", argv[first]);
		return EXIT_USAGE;
	}
	if (strcmp(kind, "groups") == 0 && o.pattern) {
		cmd_error("list groups: unexpected argument '%s' (events go in -e LIST)",
			  o.pattern);
		return EXIT_USAGE;
	}
	if (strcmp(kind, "groups") != 0 && (o.events || o.counters || !o.smt)) {
		cmd_error("list %s: -e, --counters and --smt are for 'cyctop list groups'", kind);
		return EXIT_USAGE;
	}
	if (!(o.pfm = pfm_host_new())) {
		cmd_error("out of memory");
		return 1;
	}
	int rc = find_kind(kind)->fn(&o);
	pfm_host_free(o.pfm);
	return rc;
}

const struct cmd_entry cmd_list_entry = {
	"list",
	"list [models|events|presets|trees|metrics|groups] [--model PMU] [-A|--arch TREE] "
	"[-e LIST] [--counters N] [--smt on|off] [PATTERN]",
	cmd_list_exec,
};
