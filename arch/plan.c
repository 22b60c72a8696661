/* The group planner (the contract is in arch/plan.h).
 *
 * Algorithm:
 * 1. Each event gets the set of counters it may use (its fixed counter, the
 *    generic counters its row allows under the cap) or none (software).  A
 *    group fits when a bipartite matching (Kuhn's augmenting paths) gives
 *    every hardware member its own counter and the counter-less members stay
 *    within the cap; no first-fit counter choice can miss a valid assignment.
 * 2. If everything fits one group, that is the plan.  Otherwise every group
 *    carries the reference, and the group count is searched upward from a
 *    lower bound (Hall: the events confined to a counter subset M need |M|
 *    counters per group, less the reference's when it is confined to M too)
 *    by exhaustive backtracking: most constrained first, a new group only as
 *    the next empty one, within a node budget.  First-fit decreasing (with
 *    the matching) gives the upper bound and the fallback.
 * 3. Formula partners (the table in arch/plan-partners.c) are merged, in
 *    table order, into clusters that fit one group; the plan keeps the
 *    longest prefix of those merges that still packs into the minimal count:
 *    fewer groups first, partners second.
 * Inputs are small (at most PLAN_MAX_EVENTS events, 16 counters), so every
 * step is exact in practice; the budget only bounds pathological inputs. */
#include "arch/plan.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "arch/ilp.h"

#define MAX_HW_COUNTERS 16     /* generic (uint8_t mask: 8) + fixed */
#define MAX_HALL_COUNTERS 12   /* subsets enumerated for the lower bound */
#define SEARCH_BUDGET 50000L   /* backtracking nodes per search */
#define NO_LIMIT INT_MAX

/* --- the planner's view of the events ------------------------------------ */

struct ev_info {
	unsigned allowed;  /* generic k = bit k, fixed k = bit n_generic + k */
	bool no_counter;   /* software, or a model without an inventory */
	bool metric;       /* PERF_METRICS: no counter, in the slots event's group */
};

struct planner {
	const struct arch_model *model;
	const struct plan_request *req;
	int n;
	int n_generic, n_fixed;
	bool inventory;       /* the model has counters */
	int slot_cap;         /* counter-less events per group, NO_LIMIT if none */
	int cap;              /* --counters as asked, 0 = none */
	int ref;              /* request index of the user's reference, or PLAN_ADDED */
	int slots;            /* request index of the PERF_METRICS leader, or -1 */
	const struct arch_event *ref_row;
	struct ev_info ref_info;
	bool with_ref;        /* the groups carry the reference */
	struct ev_info info[PLAN_MAX_EVENTS];
};

struct packing {
	int n_groups;
	int size[PLAN_MAX_EVENTS];
	int ev[PLAN_MAX_EVENTS][PLAN_MAX_EVENTS];
};

struct item {
	int n;
	int ev[PLAN_MAX_EVENTS];
};

static int popcount(unsigned v)
{
	return __builtin_popcount(v);
}

static void primary_name(const char *name, char *buf, size_t bufsz)
{
	snprintf(buf, bufsz, "%.*s", (int)strcspn(name, "|"), name);
}

static void request_name(const struct plan_request *r, char *buf, size_t bufsz)
{
	primary_name(r->name ? r->name : r->row ? r->row->name : "?", buf, bufsz);
}

static struct ev_info info_of(const struct planner *p, const struct arch_event *row,
			      bool software)
{
	struct ev_info in = { 0, false, false };

	if (row && p->inventory && event_is_metric(p->model, row)) {
		in.no_counter = in.metric = true;
		return in;
	}
	if (software || !p->inventory) {
		in.no_counter = true;
		return in;
	}
	for (int k = 0; k < p->n_generic; k++)
		if (!row || event_fits_counter(row, k))
			in.allowed |= 1u << k;
	if (row && row->fixed >= 0 && row->fixed < p->n_fixed)
		in.allowed |= 1u << (p->n_generic + row->fixed);
	return in;
}

/* Software events on a model with counters take no room: not packed. */
static bool is_free(const struct planner *p, int e)
{
	return p->inventory && p->info[e].no_counter && !p->info[e].metric;
}

static bool is_reference(const struct planner *p, const struct plan_request *r)
{
	if (p->ref_row && r->row)
		return r->row == p->ref_row;
	return r->name && strcasecmp(r->name, p->model->cycles) == 0;
}

/* --- does a group fit? --------------------------------------------------- */

struct matching {
	unsigned allowed[MAX_HW_COUNTERS];
	int n_counters;
	int order[MAX_HW_COUNTERS];  /* preference: fixed counters, then PMC0.. */
	int owner[MAX_HW_COUNTERS];
	unsigned seen;
};

/* Kuhn's augmenting path from member E.  A free counter is taken before any
 * holder is moved, so assignments stay in preference order when they can. */
static bool augment(struct matching *m, int e)
{
	for (int k = 0; k < m->n_counters; k++) {
		int c = m->order[k];
		if ((m->allowed[e] & (1u << c)) && m->owner[c] < 0) {
			m->owner[c] = e;
			return true;
		}
	}
	for (int k = 0; k < m->n_counters; k++) {
		int c = m->order[k];
		unsigned bit = 1u << c;
		if (!(m->allowed[e] & bit) || (m->seen & bit))
			continue;
		m->seen |= bit;
		if (augment(m, m->owner[c])) {
			m->owner[c] = e;
			return true;
		}
	}
	return false;
}

/* Matching order: fewest usable counters first (stable), so a constrained
 * event gets its counter without moving the others. */
static void order_members(const struct matching *m, int n, int *order)
{
	for (int i = 0; i < n; i++) {
		int j = i;
		for (; j > 0 && popcount(m->allowed[order[j - 1]]) > popcount(m->allowed[i]); j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
}

/* Whether the reference (if the groups carry it) and events EVS fit one
 * group.  COUNTER, if not NULL, receives the counter bit index of the
 * reference in [0] and of EVS[i] in [1 + i], -1 for none. */
static bool group_fits(const struct planner *p, const int *evs, int n, int *counter)
{
	struct matching m = { .n_counters = p->n_generic + p->n_fixed };
	int who[MAX_HW_COUNTERS];  /* matching member -> 0 (reference) or 1 + i */
	int nhw = 0, slots = 0, metrics = 0;
	bool leader = false;

	/* PERF_METRICS events count through the slots event of their group
	 * (kernel: the metric events' group leader must be slots), at most
	 * n_metrics of them */
	for (int i = 0; i < n; i++) {
		metrics += p->info[evs[i]].metric;
		leader |= evs[i] == p->slots;
	}
	if (metrics && (!leader || metrics > p->model->n_metrics))
		return false;

	if (p->with_ref && !p->ref_info.no_counter) {
		who[nhw] = 0;
		m.allowed[nhw++] = p->ref_info.allowed;
	}
	for (int i = 0; i < n; i++) {
		if (p->info[evs[i]].no_counter) {
			slots += !is_free(p, evs[i]) && !p->info[evs[i]].metric;
			continue;
		}
		if (nhw == m.n_counters)
			return false;
		who[nhw] = 1 + i;
		m.allowed[nhw++] = p->info[evs[i]].allowed;
	}
	if (slots > p->slot_cap)
		return false;
	for (int k = 0; k < m.n_counters; k++) {
		m.order[k] = (k + p->n_generic) % m.n_counters;
		m.owner[k] = -1;
	}
	int members[MAX_HW_COUNTERS];
	order_members(&m, nhw, members);
	for (int i = 0; i < nhw; i++) {
		m.seen = 0;
		if (!augment(&m, members[i]))
			return false;
	}
	if (counter) {
		for (int i = 0; i <= n; i++)
			counter[i] = -1;
		for (int c = 0; c < m.n_counters; c++)
			if (m.owner[c] >= 0)
				counter[who[m.owner[c]]] = c;
	}
	return true;
}

static bool fits_with(const struct planner *p, const struct packing *pk, int g,
		      const struct item *it)
{
	int evs[2 * PLAN_MAX_EVENTS];
	int n = pk->size[g];

	memcpy(evs, pk->ev[g], (size_t)n * sizeof(int));
	memcpy(evs + n, it->ev, (size_t)it->n * sizeof(int));
	return group_fits(p, evs, n + it->n, NULL);
}

static void put(struct packing *pk, int g, const struct item *it)
{
	if (g == pk->n_groups)
		pk->size[pk->n_groups++] = 0;
	memcpy(pk->ev[g] + pk->size[g], it->ev, (size_t)it->n * sizeof(int));
	pk->size[g] += it->n;
}

static void take_back(struct packing *pk, int g, const struct item *it)
{
	pk->size[g] -= it->n;
	if (pk->size[g] == 0 && g == pk->n_groups - 1)
		pk->n_groups--;
}

/* --- packing ------------------------------------------------------------- */

/* How little room an item leaves: negative slack sorts first. */
static int item_slack(const struct planner *p, const struct item *it)
{
	unsigned allowed = 0;
	int slots = 0;

	for (int i = 0; i < it->n; i++) {
		allowed |= p->info[it->ev[i]].allowed;
		slots += p->info[it->ev[i]].no_counter;
	}
	if (slots)
		return p->slot_cap == NO_LIMIT ? PLAN_MAX_EVENTS : p->slot_cap - slots;
	return popcount(allowed) - it->n;
}

/* Most constrained first: least slack, then biggest, then request order. */
static void sort_items(const struct planner *p, struct item *items, int n)
{
	for (int i = 1; i < n; i++) {
		struct item cur = items[i];
		int cs = item_slack(p, &cur), j = i - 1;
		for (; j >= 0; j--) {
			int s = item_slack(p, &items[j]);
			if (s < cs || (s == cs && (items[j].n > cur.n ||
				       (items[j].n == cur.n && items[j].ev[0] < cur.ev[0]))))
				break;
			items[j + 1] = items[j];
		}
		items[j + 1] = cur;
	}
}

static int first_fit(const struct planner *p, const struct item *items, int n,
		     struct packing *pk)
{
	pk->n_groups = 0;
	for (int i = 0; i < n; i++) {
		int g = 0;
		while (g < pk->n_groups && !fits_with(p, pk, g, &items[i]))
			g++;
		put(pk, g, &items[i]);
	}
	return pk->n_groups;
}

struct search {
	const struct planner *p;
	const struct item *items;
	int n_items;
	int limit;          /* groups allowed */
	long budget;
	bool exhausted;
	struct packing pk;
};

static bool backtrack(struct search *s, int i)
{
	if (i == s->n_items)
		return true;
	if (s->budget-- <= 0) {
		s->exhausted = true;
		return false;
	}
	int tries = s->pk.n_groups < s->limit ? s->pk.n_groups + 1 : s->limit;
	for (int g = 0; g < tries && !s->exhausted; g++) {
		if (!fits_with(s->p, &s->pk, g, &s->items[i]))
			continue;
		put(&s->pk, g, &s->items[i]);
		if (backtrack(s, i + 1))
			return true;
		take_back(&s->pk, g, &s->items[i]);
	}
	return false;
}

/* Packs ITEMS into at most LIMIT groups.  Returns 1 on success, 0 if
 * impossible, -1 if the budget ran out. */
static int pack_within(const struct planner *p, const struct item *items, int n, int limit,
		       struct packing *out)
{
	struct search s;

	memset(&s, 0, sizeof(s));
	s.p = p;
	s.items = items;
	s.n_items = n;
	s.limit = limit;
	s.budget = SEARCH_BUDGET;
	if (backtrack(&s, 0)) {
		*out = s.pk;
		return 1;
	}
	return s.exhausted ? -1 : 0;
}

/* Hall's condition per counter subset M: the events that can only use M
 * need |M| counters per group, less one if the reference is confined to M. */
static int lower_bound(const struct planner *p, const int *evs, int n)
{
	int total = p->n_generic + p->n_fixed, slots = 0, lb = 1;

	for (int i = 0; i < n; i++)
		slots += p->info[evs[i]].no_counter;
	if (slots && p->slot_cap != NO_LIMIT)
		lb = (slots + p->slot_cap - 1) / p->slot_cap;
	if (total > MAX_HALL_COUNTERS)
		return lb;
	for (unsigned m = 1; m < (1u << total); m++) {
		int cnt = 0;
		int room = popcount(m) - (!p->ref_info.no_counter && !(p->ref_info.allowed & ~m));
		for (int i = 0; i < n; i++)
			cnt += !p->info[evs[i]].no_counter && !(p->info[evs[i]].allowed & ~m);
		if (cnt && room > 0 && (cnt + room - 1) / room > lb)
			lb = (cnt + room - 1) / room;
	}
	return lb;
}

/* The metric events join the item of the slots event: one group or none. */
static int bind_metrics(const struct planner *p, struct item *items, int n)
{
	int home = -1;

	for (int i = 0; i < n && home < 0; i++)
		for (int k = 0; k < items[i].n; k++)
			if (items[i].ev[k] == p->slots)
				home = i;
	if (home < 0)
		return n;
	for (int i = 0; i < n; i++) {
		for (int k = 0; i != home && k < items[i].n;) {
			if (!p->info[items[i].ev[k]].metric) {
				k++;
				continue;
			}
			items[home].ev[items[home].n++] = items[i].ev[k];
			items[i].ev[k] = items[i].ev[--items[i].n];
		}
	}
	int m = 0;
	for (int i = 0; i < n; i++)
		if (items[i].n)
			items[m++] = items[i];
	return m;
}

/* The fewest groups for EVS as single items.  Sets *OPTIMAL when proven. */
static int minimal_packing(const struct planner *p, const int *evs, int n,
			   struct packing *best, bool *optimal)
{
	struct item items[PLAN_MAX_EVENTS];
	int lb = lower_bound(p, evs, n);

	for (int i = 0; i < n; i++) {
		items[i].n = 1;
		items[i].ev[0] = evs[i];
	}
	n = bind_metrics(p, items, n);
	sort_items(p, items, n);
	int ub = first_fit(p, items, n, best);
	*optimal = true;
	for (int g = lb; g < ub; g++) {
		int rc = pack_within(p, items, n, g, best);
		if (rc == 1)
			return g;
		if (rc < 0)
			*optimal = false;
	}
	return ub;
}

/* --- formula partners ---------------------------------------------------- */

struct edge {
	int a, b;
};

/* The request that row NAME of the model denotes, among the packed events. */
static int find_request(const struct planner *p, const char *name)
{
	const struct arch_event *row = model_lookup(p->model, name);

	if (!row)
		return -1;
	for (int i = 0; i < p->n; i++)
		if (p->req[i].row == row && i != p->ref && !is_free(p, i))
			return i;
	return -1;
}

static void add_partner_set(struct plan *out, const int *ev, int n, const char *formula)
{
	if (n < 2 || out->n_partners == PLAN_MAX_PARTNER_SETS)
		return;
	struct plan_partners *ps = &out->partners[out->n_partners++];
	ps->n = n;
	memcpy(ps->ev, ev, (size_t)n * sizeof(int));
	ps->formula = formula;
}

/* The request named NAME (any case), -1 if none: Arm's threshold steps are
 * no rows of the model, the events engine/events.c encodes from the host. */
static int find_named(const struct planner *p, const char *name)
{
	for (int i = 0; i < p->n; i++)
		if (p->req[i].name && strcasecmp(p->req[i].name, name) == 0 && i != p->ref &&
		    !is_free(p, i))
			return i;
	return -1;
}

/* The partner sets present in the request, table rows first, then the
 * model's CMASK sweep steps pairwise. */
static void collect_partners(const struct planner *p, struct plan *out)
{
	const struct plan_partner_def *d;
	int ev[PLAN_MAX_PARTNERS];

	for (size_t i = 0; (d = plan_partner_def_at(i)) != NULL; i++) {
		int n = 0;
		if (d->tree != p->model->tree)
			continue;
		for (int k = 0; k < PLAN_MAX_PARTNERS && d->events[k]; k++)
			if ((ev[n] = find_request(p, d->events[k])) >= 0)
				n++;
		add_partner_set(out, ev, n, d->formula);
	}
	for (int k = 1; p->model->ilp_sweep && k < p->model->dispatch_width; k++) {
		char lo[128], hi[128];
		snprintf(lo, sizeof(lo), "%s:c=%d", p->model->ilp_sweep, k);
		snprintf(hi, sizeof(hi), "%s:c=%d", p->model->ilp_sweep, k + 1);
		ev[0] = find_request(p, lo);
		ev[1] = find_request(p, hi);
		if (ev[0] >= 0 && ev[1] >= 0)
			add_partner_set(out, ev, 2, plan_ilp_sweep_formula);
	}
	for (int k = 1; arm_ilp_event(p->model) && k < ARM_ILP_STEPS; k++) {
		char lo[128], hi[128];
		snprintf(lo, sizeof(lo), "%s:th=%d", arm_ilp_event(p->model), k);
		snprintf(hi, sizeof(hi), "%s:th=%d", arm_ilp_event(p->model), k + 1);
		ev[0] = find_named(p, lo);
		ev[1] = find_named(p, hi);
		if (ev[0] >= 0 && ev[1] >= 0)
			add_partner_set(out, ev, 2, plan_arm_th_formula);
	}
	for (int k = 1; k <= p->model->dispatch_width; k++) {
		char lo[128], hi[128];
		if (!ilp_step_name(p->model, k, lo, sizeof(lo)) ||
		    !ilp_step_name(p->model, k + 1, hi, sizeof(hi)))
			break;
		ev[0] = find_request(p, lo);
		ev[1] = find_request(p, hi);
		if (ev[0] >= 0 && ev[1] >= 0)
			add_partner_set(out, ev, 2, plan_ilp_formula);
	}
}

/* Hub-to-member edges of every partner set, in priority order. */
static int partner_edges(const struct plan *out, struct edge *edges)
{
	int n = 0;

	for (int s = 0; s < out->n_partners; s++) {
		const struct plan_partners *ps = &out->partners[s];
		for (int k = 1; k < ps->n; k++)
			edges[n++] = (struct edge){ ps->ev[0], ps->ev[k] };
	}
	return n;
}

static void relabel(int *cluster, int n, int from, int to)
{
	for (int i = 0; i < n; i++)
		if (cluster[i] == from)
			cluster[i] = to;
}

/* Cluster label of each request after merging EDGES[0..n_edges). */
static void merge_edges(const struct planner *p, const struct edge *edges, int n_edges,
			int *cluster)
{
	for (int i = 0; i < p->n; i++)
		cluster[i] = i;
	for (int e = 0; e < n_edges; e++)
		relabel(cluster, p->n, cluster[edges[e].b], cluster[edges[e].a]);
}

static int cluster_members(const struct planner *p, const int *cluster, int label,
			   int extra, int *out)
{
	int n = 0;

	for (int i = 0; i < p->n; i++)
		if (cluster[i] == label || (extra >= 0 && cluster[i] == extra))
			out[n++] = i;
	return n;
}

/* The edges whose merge still fits one group, in order. */
static int fitting_edges(const struct planner *p, const struct edge *edges, int n_edges,
			 struct edge *kept)
{
	int cluster[PLAN_MAX_EVENTS], members[PLAN_MAX_EVENTS], n_kept = 0;

	merge_edges(p, NULL, 0, cluster);
	for (int e = 0; e < n_edges; e++) {
		int a = cluster[edges[e].a], b = cluster[edges[e].b];
		if (a == b)
			continue;
		if (!group_fits(p, members, cluster_members(p, cluster, a, b, members), NULL))
			continue;
		relabel(cluster, p->n, b, a);
		kept[n_kept++] = edges[e];
	}
	return n_kept;
}

static int cluster_items(const struct planner *p, const int *evs, int n, const int *cluster,
			 struct item *items)
{
	int n_items = 0;

	for (int i = 0; i < n; i++) {
		int j = 0;
		while (j < n_items && cluster[items[j].ev[0]] != cluster[evs[i]])
			j++;
		if (j == n_items)
			items[n_items++].n = 0;
		items[j].ev[items[j].n++] = evs[i];
	}
	return n_items;
}

/* The packing into GROUPS groups that keeps the most leading partner merges
 * together; BEST (without partners) if none does. */
static void keep_partners(const struct planner *p, const int *evs, int n,
			  const struct plan *out, int groups, struct packing *best)
{
	struct item items[PLAN_MAX_EVENTS];
	struct packing pk;
	struct edge edges[PLAN_MAX_PARTNER_SETS * PLAN_MAX_PARTNERS];
	struct edge kept[PLAN_MAX_PARTNER_SETS * PLAN_MAX_PARTNERS];
	int cluster[PLAN_MAX_EVENTS];

	int n_kept = fitting_edges(p, edges, partner_edges(out, edges), kept);
	for (int k = n_kept; k > 0; k--) {
		merge_edges(p, kept, k, cluster);
		int n_items = bind_metrics(p, items, cluster_items(p, evs, n, cluster, items));
		sort_items(p, items, n_items);
		if (first_fit(p, items, n_items, &pk) <= groups ||
		    pack_within(p, items, n_items, groups, &pk) == 1) {
			*best = pk;
			return;
		}
	}
}

/* --- errors --------------------------------------------------------------- */

static void describe_counters(const struct arch_event *row, char *buf, size_t bufsz)
{
	size_t o = 0;

	if (!row) {
		snprintf(buf, bufsz, "a generic counter");
		return;
	}
	buf[0] = '\0';
	for (int k = 0; k < 8; k++)
		if (row->counters & (1u << k))
			o += (size_t)snprintf(buf + o, bufsz - o, "%sPMC%d", o ? " or " : "", k);
	if (row->fixed >= 0 && o < bufsz)
		snprintf(buf + o, bufsz - o, "%sFIXED%d", o ? " or " : "", row->fixed);
}

static void cap_note(const struct planner *p, char *buf, size_t bufsz)
{
	if (p->cap)
		snprintf(buf, bufsz, " (--counters %d)", p->cap);
	else
		snprintf(buf, bufsz, " on the %s model", p->model->name);
}

/* An event no counter can take, whatever the grouping. */
static bool check_alone(const struct planner *p, int e, char *err, size_t errsz)
{
	char name[128], where[96];

	if (p->info[e].no_counter || p->info[e].allowed)
		return true;
	request_name(&p->req[e], name, sizeof(name));
	describe_counters(p->req[e].row, where, sizeof(where));
	if (p->cap)
		snprintf(err, errsz, "event '%s' can only count on %s, which --counters %d leaves "
			 "out", name, where, p->cap);
	else
		snprintf(err, errsz, "event '%s' can only count on %s, which the %s model does "
			 "not have", name, where, p->model->name);
	return false;
}

/* A PERF_METRICS event needs the slots event, its group leader. */
static bool check_metric(const struct planner *p, int e, char *err, size_t errsz)
{
	char name[128];
	int metrics = 0;

	if (!p->info[e].metric)
		return true;
	request_name(&p->req[e], name, sizeof(name));
	if (p->slots < 0) {
		snprintf(err, errsz, "event '%s' is a PERF_METRICS event: it needs %s (slots), its "
			 "group leader, in the list", name, p->model->slots_event);
		return false;
	}
	for (int i = 0; i < p->n; i++)
		metrics += p->info[i].metric;
	if (metrics > p->model->n_metrics) {
		snprintf(err, errsz, "event '%s': the %s model has %d PERF_METRICS events, %d asked",
			 name, p->model->name, p->model->n_metrics, metrics);
		return false;
	}
	return true;
}

/* An event that does not fit beside the reference, when groups need it. */
static bool check_beside_reference(const struct planner *p, int e, char *err, size_t errsz)
{
	char name[128], note[64];

	if (group_fits(p, &e, 1, NULL))
		return true;
	request_name(&p->req[e], name, sizeof(name));
	cap_note(p, note, sizeof(note));
	snprintf(err, errsz, "event '%s' does not fit in a group beside the reference %s: "
		 "%d generic counter%s per group%s", name, p->model->cycles, p->n_generic,
		 p->n_generic == 1 ? "" : "s", note);
	return false;
}

/* --- assembling the plan -------------------------------------------------- */

static enum plan_counter counter_kind(const struct planner *p, int bit)
{
	if (bit < 0)
		return PLAN_NO_COUNTER;
	return bit < p->n_generic ? PLAN_GENERIC : PLAN_FIXED;
}

static int counter_index(const struct planner *p, int bit)
{
	if (bit < 0)
		return -1;
	return bit < p->n_generic ? bit : bit - p->n_generic;
}

static struct plan_slot slot_of(const struct planner *p, int event, int bit)
{
	return (struct plan_slot){ event, counter_kind(p, bit), counter_index(p, bit) };
}

static void sort_ints(int *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			int t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

/* Group G of the plan from member list EVS (sorted), reference first. */
static void fill_group(const struct planner *p, int g, const int *evs, int n, struct plan *out)
{
	struct plan_group *grp = &out->groups[g];
	int counter[PLAN_MAX_EVENTS + 1];

	group_fits(p, evs, n, counter);
	grp->n = 0;
	grp->ref = -1;
	/* the slots event leads its group (the kernel's rule for PERF_METRICS) */
	for (int i = 0; i < n; i++)
		if (evs[i] == p->slots && p->model->n_metrics)
			grp->slots[grp->n++] = slot_of(p, evs[i], counter[1 + i]);
	if (p->with_ref) {
		grp->ref = grp->n;
		grp->slots[grp->n++] = slot_of(p, p->ref, counter[0]);
	}
	for (int i = 0; i < n; i++) {
		if (evs[i] == p->slots && p->model->n_metrics)
			continue;
		grp->slots[grp->n++] = slot_of(p, evs[i], counter[1 + i]);
	}
	for (int i = 0; i < n; i++)
		out->event_group[evs[i]] = g;
}

/* Groups in the order of their first event; the free events join the first. */
static void assemble(const struct planner *p, struct packing *pk, const int *free_evs,
		     int n_free, struct plan *out)
{
	int order[PLAN_MAX_EVENTS];

	if (pk->n_groups == 0)
		pk->size[pk->n_groups++] = 0;
	for (int g = 0; g < pk->n_groups; g++) {
		sort_ints(pk->ev[g], pk->size[g]);
		order[g] = g;
	}
	for (int i = 1; i < pk->n_groups; i++)
		for (int j = i; j > 0 && pk->ev[order[j - 1]][0] > pk->ev[order[j]][0]; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	int *first = pk->ev[order[0]];
	memcpy(first + pk->size[order[0]], free_evs, (size_t)n_free * sizeof(int));
	pk->size[order[0]] += n_free;
	sort_ints(first, pk->size[order[0]]);
	for (int g = 0; g < pk->n_groups; g++)
		fill_group(p, g, pk->ev[order[g]], pk->size[order[g]], out);
	out->n_groups = pk->n_groups;
	if (p->with_ref && p->ref >= 0)
		out->event_group[p->ref] = PLAN_EVERY_GROUP;
}

static void mark_partners(struct plan *out)
{
	for (int s = 0; s < out->n_partners; s++) {
		struct plan_partners *ps = &out->partners[s];
		ps->together = true;
		for (int k = 1; k < ps->n; k++)
			if (out->event_group[ps->ev[k]] != out->event_group[ps->ev[0]])
				ps->together = false;
	}
}

/* --- the planner ---------------------------------------------------------- */

static bool setup(struct planner *p, const struct arch_model *model,
		  const struct plan_request *req, int n, int max_counters, char *err,
		  size_t errsz)
{
	memset(p, 0, sizeof(*p));
	if (n <= 0 || n > PLAN_MAX_EVENTS) {
		snprintf(err, errsz, n <= 0 ? "no events to plan" :
			 "too many events to plan (at most %d)", PLAN_MAX_EVENTS);
		return false;
	}
	if (max_counters < 0) {
		snprintf(err, errsz, "--counters must be at least 1, not %d", max_counters);
		return false;
	}
	p->model = model;
	p->req = req;
	p->n = n;
	p->cap = max_counters;
	p->inventory = model->n_generic + model->n_fixed > 0;
	p->n_generic = model->n_generic;
	if (max_counters && max_counters < p->n_generic)
		p->n_generic = max_counters;
	p->n_fixed = model->n_fixed;
	if (p->n_generic + p->n_fixed > MAX_HW_COUNTERS) {
		snprintf(err, errsz, "the %s model has more counters than the planner handles",
			 model->name);
		return false;
	}
	p->slot_cap = !p->inventory && max_counters ? max_counters : NO_LIMIT;
	p->ref_row = model_lookup(model, model->cycles);
	p->ref_info = info_of(p, p->ref_row, false);
	p->ref = PLAN_ADDED;
	p->slots = -1;
	const struct arch_event *slots_row =
		model->slots_event ? model_lookup(model, model->slots_event) : NULL;
	for (int i = 0; i < n; i++) {
		p->info[i] = info_of(p, req[i].row, req[i].software);
		if (slots_row && req[i].row == slots_row && p->slots < 0)
			p->slots = i;
		if (p->ref == PLAN_ADDED && is_reference(p, &req[i]))
			p->ref = i;
	}
	return true;
}

/* Packed events (not the reference, not free) and free events. */
static int split_events(const struct planner *p, int *packed, int *free_evs, int *n_free)
{
	int n = 0;

	*n_free = 0;
	for (int i = 0; i < p->n; i++) {
		if (i == p->ref)
			continue;
		if (is_free(p, i))
			free_evs[(*n_free)++] = i;
		else
			packed[n++] = i;
	}
	return n;
}

/* One group, with the reference if it fits (always when the user asked for
 * it, since it is then one of the events). */
static bool single_group(struct planner *p, const int *evs, int n, struct packing *pk)
{
	p->with_ref = true;
	if (!group_fits(p, evs, n, NULL)) {
		p->with_ref = false;
		if (p->ref != PLAN_ADDED || !group_fits(p, evs, n, NULL)) {
			p->with_ref = true;
			return false;
		}
	}
	pk->n_groups = n > 0;
	pk->size[0] = n;
	memcpy(pk->ev[0], evs, (size_t)n * sizeof(int));
	return true;
}

static bool several_groups(const struct planner *p, const int *evs, int n, struct plan *out,
			   struct packing *pk, char *err, size_t errsz)
{
	char note[64];

	if (!group_fits(p, NULL, 0, NULL)) {
		cap_note(p, note, sizeof(note));
		snprintf(err, errsz, "the reference %s fits no counter%s", p->model->cycles, note);
		return false;
	}
	for (int i = 0; i < n; i++)
		if (!p->info[evs[i]].metric && !check_beside_reference(p, evs[i], err, errsz))
			return false;
	int groups = minimal_packing(p, evs, n, pk, &out->optimal);
	keep_partners(p, evs, n, out, groups, pk);
	return true;
}

int plan_build(const struct arch_model *model, const struct plan_request *req, int n,
	       int max_counters, struct plan *out, char *err, size_t errsz)
{
	struct planner p;
	struct packing pk;
	int packed[PLAN_MAX_EVENTS], free_evs[PLAN_MAX_EVENTS], n_free;

	memset(out, 0, sizeof(*out));
	if (!setup(&p, model, req, n, max_counters, err, errsz))
		return -1;
	for (int i = 0; i < n; i++)
		if (!check_alone(&p, i, err, errsz) || !check_metric(&p, i, err, errsz))
			return -1;
	int n_packed = split_events(&p, packed, free_evs, &n_free);
	out->model = model;
	out->n_events = n;
	out->max_counters = max_counters;
	out->n_generic = p.n_generic;
	out->reference = p.ref;
	out->reference_name = model->cycles;
	collect_partners(&p, out);
	if (single_group(&p, packed, n_packed, &pk))
		out->optimal = true;
	else if (!several_groups(&p, packed, n_packed, out, &pk, err, errsz))
		return -1;
	assemble(&p, &pk, free_evs, n_free, out);
	mark_partners(out);
	return out->n_groups;
}

const char *plan_counter_name(const struct plan_slot *slot, char *buf, size_t bufsz)
{
	if (slot->kind == PLAN_GENERIC)
		snprintf(buf, bufsz, "PMC%d", slot->counter);
	else if (slot->kind == PLAN_FIXED)
		snprintf(buf, bufsz, "FIXED%d", slot->counter);
	else
		snprintf(buf, bufsz, "-");
	return buf;
}
