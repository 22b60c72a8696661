/* Per-instruction samples, stall and penalty cycles (see annotate.h). */
#include "engine/annotate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Events are told apart by their model row, so any alias the user typed
 * (paper name, libpfm4 string, raw code) matches the model's reference. */
static bool same_event(const struct arch_model *m, const struct ev_spec *ev, const char *name)
{
	const struct arch_event *a, *b;

	if (!name)
		return false;
	if (strcasecmp(ev->name, name) == 0 || strcasecmp(ev->pfm, name) == 0)
		return true;
	a = m ? model_lookup(m, ev->name) : NULL;
	b = m ? model_lookup(m, name) : NULL;
	return a && a == b;
}

int annot_event_index(const struct ev_list *evs, const char *name)
{
	for (int e = 0; e < evs->n; e++)
		if (same_event(evs->model, &evs->ev[e], name))
			return e;
	return -1;
}

/* Core2 penalties (arch/penalty.c) weigh the events they name; the first
 * matching penalty wins (DTLB misses: the miss, not the walk). */
static double penalty_of(const struct ev_list *evs, int e, const struct penalties *pen)
{
	const struct arch_model *m = evs->model;

	/* a model with its own penalties (Nehalem's loads by source) */
	for (const struct model_penalty *mp = m ? m->penalties : NULL; mp && mp->event; mp++)
		if (same_event(m, &evs->ev[e], mp->event))
			return mp->cycles;
	if (m && m->penalties)
		return 0;
	for (int id = 0; id < PEN_COUNT; id++)
		if (same_event(evs->model, &evs->ev[e], penalty_event((enum penalty_id)id)))
			return pen->cycles[id];
	return 0;
}

static void pick_columns(struct annotation *a, const struct ev_list *evs,
			 const struct annot_opts *o)
{
	const struct arch_model *m = evs->model;
	struct penalties def;
	const struct penalties *pen = o && o->pen ? o->pen : &def;

	penalties_default(&def, 0);
	a->stall_ev = annot_event_index(evs, o && o->stall_event ? o->stall_event :
				 m ? m->stall_event : NULL);
	a->inst_ev = annot_event_index(evs, m ? m->inst_event : NULL);
	a->bus_ev = annot_event_index(evs, m ? m->bus_event : NULL);
	for (int e = 0; e < evs->n; e++) {
		double cov = o && o->coverage && o->coverage[e] > 0 ? o->coverage[e] : 1;
		a->sav[e] = evs->ev[e].sav ? evs->ev[e].sav : 1;
		/* Multiplexed events sampled part of the time: scale them up so
		 * events of different groups compare (engine/mux.h). */
		a->per_sample[e] = (double)a->sav[e] / cov;
		a->penalty[e] = e == a->stall_ev ? 0 : penalty_of(evs, e, pen);
		a->has_penalties |= a->penalty[e] > 0;
	}
}

/* Samples at each instruction start; samples elsewhere (mid-instruction
 * addresses: a stale mapping) are counted as outside. */
static void place_samples(struct annotation *a, const struct ip_counts *ipc)
{
	for (size_t k = 0; ipc && k < ipc->n; k++) {
		const struct snap_ip *ip = &ipc->ips[k];
		long i = asm_find(a->fn, ip->ip);
		bool exact = i >= 0 && a->fn->insn[i].op.addr == ip->ip;
		for (int e = 0; e < a->n_events && e < ipc->n_events; e++) {
			uint64_t hits = ip->hits ? ip->hits[e] : ip->samples[e];
			size_t at = (size_t)i * (size_t)a->n_events + (size_t)e;
			if (exact) {
				a->samples[at] += ip->samples[e];
				a->hits[at] += hits;
			} else {
				a->outside += ip->samples[e];
			}
			a->func_samples[e] += exact ? ip->samples[e] : 0;
			a->func_hits[e] += exact ? hits : 0;
		}
	}
}

static void compute_cycles(struct annotation *a)
{
	size_t n = a->fn->n;

	for (size_t i = 0; i < n; i++) {
		if (a->stall_ev >= 0)
			a->stall_cycles[i] = (double)annotation_samples(a, i, a->stall_ev) *
					     a->per_sample[a->stall_ev];
		for (int e = 0; e < a->n_events; e++)
			a->penalty_cycles[i] += (double)annotation_samples(a, i, e) *
						a->per_sample[e] * a->penalty[e];
		a->func_penalty += a->penalty_cycles[i];
	}
}

static void mark_blocks(struct annotation *a)
{
	const struct flow *f = &a->fn->flow;

	for (size_t b = 0; b < f->n_blocks; b++) {
		double pen = flow_sum(a->penalty_cycles, f->blocks[b].first, f->blocks[b].last);
		double stall = flow_sum(a->stall_cycles, f->blocks[b].first, f->blocks[b].last);
		a->block_mark[b] = a->stall_ev < 0 ? MARK_NONE :
				   (uint8_t)flow_classify(pen, stall, a->func_penalty);
	}
}

static double event_sum(const struct annotation *a, int ev, size_t first, size_t last)
{
	double s = 0;

	for (size_t i = first; i <= last; i++)
		s += (double)annotation_samples(a, i, ev);
	return s * a->per_sample[ev];
}

static void estimate_loops(struct annotation *a)
{
	const struct flow *f = &a->fn->flow;

	for (size_t k = 0; k < f->n_loops; k++) {
		const struct flow_loop *l = &f->loops[k];
		a->loop_iters[k] = a->inst_ev < 0 ? NAN :
			flow_loop_iterations(l, event_sum(a, a->inst_ev, l->head, l->tail));
		a->loop_bus_eff[k] = a->bus_ev < 0 ? NAN :
			flow_bus_efficiency(l, a->loop_iters[k],
					    event_sum(a, a->bus_ev, l->head, l->tail));
	}
}

static void find_hottest(struct annotation *a)
{
	uint64_t best = 0;

	a->hottest = -1;
	for (size_t i = 0; a->n_events > 0 && i < a->fn->n; i++) {
		if (annotation_samples(a, i, 0) > best) {
			best = annotation_samples(a, i, 0);
			a->hottest = (int)i;
		}
	}
}

static bool alloc_arrays(struct annotation *a)
{
	size_t n = a->fn->n ? a->fn->n : 1;
	size_t nb = a->fn->flow.n_blocks ? a->fn->flow.n_blocks : 1;
	size_t nl = a->fn->flow.n_loops ? a->fn->flow.n_loops : 1;

	a->samples = calloc(n * (size_t)(a->n_events ? a->n_events : 1), sizeof(*a->samples));
	a->hits = calloc(n * (size_t)(a->n_events ? a->n_events : 1), sizeof(*a->hits));
	a->stall_cycles = calloc(n, sizeof(double));
	a->penalty_cycles = calloc(n, sizeof(double));
	a->block_mark = calloc(nb, 1);
	a->loop_iters = calloc(nl, sizeof(double));
	a->loop_bus_eff = calloc(nl, sizeof(double));
	return a->samples && a->hits && a->stall_cycles && a->penalty_cycles && a->block_mark &&
	       a->loop_iters && a->loop_bus_eff;
}

struct annotation *annotation_new(const struct asm_func *fn, const struct ip_counts *ipc,
				  const uint64_t *totals, const struct ev_list *evs,
				  const struct annot_opts *o)
{
	struct annotation *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->fn = fn;
	a->n_events = evs->n;
	if (!alloc_arrays(a)) {
		annotation_free(a);
		return NULL;
	}
	pick_columns(a, evs, o);
	place_samples(a, ipc);
	for (int e = 0; e < a->n_events; e++) {
		a->total_samples[e] = totals ? totals[e] : a->func_samples[e];
		a->total_hits[e] = a->total_samples[e];
	}
	compute_cycles(a);
	mark_blocks(a);
	estimate_loops(a);
	find_hottest(a);
	return a;
}

void annotation_free(struct annotation *a)
{
	if (!a)
		return;
	free(a->samples);
	free(a->hits);
	free(a->stall_cycles);
	free(a->penalty_cycles);
	free(a->block_mark);
	free(a->loop_iters);
	free(a->loop_bus_eff);
	free(a);
}

enum flow_mark annotation_mark(const struct annotation *a, size_t i)
{
	const struct flow *f = &a->fn->flow;

	if (i >= a->fn->n || !f->block_of || !(a->penalty_cycles[i] > 0))
		return MARK_NONE;
	return (enum flow_mark)a->block_mark[f->block_of[i]];
}

long annotation_next_hot(const struct annotation *a, long from, int ev, double min_share)
{
	size_t n = a->fn->n;
	double need;

	if (n == 0 || ev < 0 || ev >= a->n_events || a->func_samples[ev] == 0)
		return -1;
	need = min_share * (double)a->func_samples[ev];
	for (size_t k = 1; k <= n; k++) {
		size_t i = ((size_t)(from < 0 ? -1 : from) + k) % n;
		uint64_t s = annotation_samples(a, i, ev);
		if (s > 0 && (double)s >= need)
			return (long)i;
	}
	return -1;
}

const char *annot_unit(const struct ev_list *evs, int e)
{
	const struct perf_event_attr *at = &evs->ev[e].attr;

	const char *slash = strrchr(evs->ev[e].name, '/');

	/* a pprof's sample types are "TYPE/UNIT": cpu/nanoseconds */
	if (slash && strcmp(slash, "/nanoseconds") == 0)
		return "ns";
	return at->type == PERF_TYPE_SOFTWARE && (at->config == PERF_COUNT_SW_CPU_CLOCK ||
						  at->config == PERF_COUNT_SW_TASK_CLOCK)
		       ? "ns"
		       : "events";
}
