/* The asm view's data: one function's instructions with their per-event
 * samples, the stall cycles next to the penalty cycles of the
 * architectural events, block and loop figures.  Built from an asm_func
 * and the function's per-address samples; immutable once built. */
#ifndef ENGINE_ANNOTATE_H
#define ENGINE_ANNOTATE_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/penalty.h"
#include "engine/disasm.h"
#include "engine/events.h"
#include "engine/profile.h"

struct annot_opts {
	const char *stall_event;     /* the user's stall reference; NULL: the model's */
	const struct penalties *pen; /* NULL: the Core2 desktop figures */
	const double *coverage;      /* [n_events] multiplexing coverage; NULL: all 1 */
};

struct annotation {
	const struct asm_func *fn;   /* not owned */
	int n_events;
	uint64_t sav[EVENTS_MAX];
	double per_sample[EVENTS_MAX];      /* events one sample stands for: SAV / coverage */
	uint64_t *samples;           /* [fn->n * n_events] */
	uint64_t func_samples[EVENTS_MAX];  /* inside fn */
	uint64_t total_samples[EVENTS_MAX]; /* whole profile */
	uint64_t outside;            /* samples of the function at no instruction start */
	/* How many samples, each once, where samples (above) holds what they
	 * weigh: the same unless a sample weighs its period (frequency mode),
	 * as perf annotate's "N samples" beside its period percentages. */
	uint64_t *hits;              /* [fn->n * n_events] */
	uint64_t func_hits[EVENTS_MAX];
	uint64_t total_hits[EVENTS_MAX];  /* the whole profile's (snap_event.nsamples) */
	/* Whether event E's samples weigh their periods (snap_event.nsamples
	 * not 0: the caller says so and sets total_hits): then hits count
	 * them; else samples do (a pprof's values, a fixed period). */
	bool weighs[EVENTS_MAX];
	int stall_ev;                /* column of stall cycles, -1 none */
	int inst_ev, bus_ev;         /* retired instructions, bus lines; -1 none */
	double penalty[EVENTS_MAX];  /* cycles per event occurrence, 0: not weighted */
	bool has_penalties;          /* some column is weighted */
	double *stall_cycles;        /* [n] samples x SAV of the stall event */
	double *penalty_cycles;      /* [n] sum of samples x SAV x penalty */
	double func_penalty;
	uint8_t *block_mark;         /* [n_blocks] enum flow_mark */
	double *loop_iters;          /* [n_loops], NAN without retired instructions */
	double *loop_bus_eff;        /* [n_loops], NAN without bus transactions */
	int hottest;                 /* instruction with most first-event samples, -1 */
};

/* IPC holds FN's samples (it may be NULL: no samples); TOTALS the whole
 * profile's per-event samples (or NULL).  NULL when out of memory. */
struct annotation *annotation_new(const struct asm_func *fn, const struct ip_counts *ipc,
				  const uint64_t *totals, const struct ev_list *evs,
				  const struct annot_opts *o);
void annotation_free(struct annotation *a);

/* The column of event NAME (any alias of the model's row), or -1. */
int annot_event_index(const struct ev_list *evs, const char *name);

static inline uint64_t annotation_samples(const struct annotation *a, size_t i, int ev)
{
	return a->samples[i * (size_t)a->n_events + (size_t)ev];
}

/* How many samples of EV instruction I has, each once. */
static inline uint64_t annotation_hits(const struct annotation *a, size_t i, int ev)
{
	return a->weighs[ev] ? a->hits[i * (size_t)a->n_events + (size_t)ev]
			     : annotation_samples(a, i, ev);
}

/* The same for the function and for the whole profile. */
static inline uint64_t annotation_func_hits(const struct annotation *a, int ev)
{
	return a->weighs[ev] ? a->func_hits[ev] : a->func_samples[ev];
}

static inline uint64_t annotation_total_hits(const struct annotation *a, int ev)
{
	return a->weighs[ev] ? a->total_hits[ev] : a->total_samples[ev];
}

/* What SAMPLES of event EV stand for, in its unit (annot_unit): samples x
 * SAV, the sum of the samples' periods. */
static inline double annotation_period(const struct annotation *a, uint64_t samples, int ev)
{
	return (double)samples * (double)a->sav[ev];
}

/* The unit of event E's periods: "ns" for the clocks (cpu-clock,
 * task-clock), "events" otherwise. */
const char *annot_unit(const struct ev_list *evs, int e);

/* The mark of instruction I: its block's, where it has penalty cycles. */
enum flow_mark annotation_mark(const struct annotation *a, size_t i);

/* The next instruction after FROM (wrapping) whose samples of EV reach
 * MIN_SHARE of the function's; -1 if none. */
long annotation_next_hot(const struct annotation *a, long from, int ev, double min_share);

#endif
