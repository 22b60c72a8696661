/* ILP histogram from a CMASK sweep (Core2 paper, "Instruction Level
 * Parallelism"; slides: "subtract the N-1 value").
 *
 * Core2 form: C(k) = cycles in which fewer than k uops were dispatched
 * (cmask=k, inv=1).  Bin 0 = C(1); bin k = C(k+1) - C(k) for k = 1..width;
 * C(width+1) = every cycle, so it must agree with the total cycles.
 *
 * Every model with a sweep (model->ilp_event, or model->ilp_sweep's
 * "EVENT:c=k" cycles with at least k) has the bins as its tree's nodes
 * ilp.0 .. ilp.W: ilp_eval reads them there, so the ILP view and the tree
 * say the same for the same counts. */
#ifndef ARCH_ILP_H
#define ARCH_ILP_H

#include <stdbool.h>
#include <stddef.h>

#include "arch/model.h"
#include "arch/tree.h"

/* The widest sweep: Sapphire Rapids' 12 execution ports (tree-intel.c). */
#define ILP_MAX_WIDTH 12
#define ILP_UNIT_MAX 32

struct ilp_hist {
	int width;                       /* bins 0..width */
	double bins[ILP_MAX_WIDTH + 1];  /* cycles with exactly k uops */
	double total;                    /* every cycle of the sweep */
	double mean;                     /* uops per cycle */
	bool negative_bin;               /* a C(k+1) < C(k): noise or multiplexing */
	char unit[ILP_UNIT_MAX];         /* "uops dispatched", "uops executed", "ops
					  * retired" (ilp_eval; "" otherwise) */
};

/* SWEEP[k-1] = C(k) for k = 1..width+1.  Returns false if width is out of
 * range, a value is missing (NAN) or the total is not positive. */
bool ilp_from_sweep(const double *sweep, int width, struct ilp_hist *h);

/* The libpfm4/paper name of Core2-form sweep step K (1-based) for MODEL
 * into BUF (models with ilp_event only). */
bool ilp_step_name(const struct arch_model *model, int k, char *buf, unsigned long bufsz);

/* Whether MODEL has an ILP sweep (either form). */
bool ilp_has_sweep(const struct arch_model *model);

/* The sweep of MODEL in one phrase for titles and messages:
 * "RS_UOPS_DISPATCHED:c=1..7:i=1", "UOPS_EXECUTED.THREAD:c=1..8".  False
 * (BUF "") when the model has none. */
bool ilp_sweep_text(const struct arch_model *model, char *buf, size_t bufsz);

/* The unit of MODEL's bins, from its tree's labels: "uops dispatched"
 * (Core2), "uops executed" (Intel), "ops retired" (Zen).  False (BUF "")
 * when the model has no sweep in its tree. */
bool ilp_unit(const struct arch_model *model, char *buf, size_t bufsz);

/* The histogram of the tree of CTX's model over counts C: its nodes ilp.0
 * .. ilp.W (W the widest bin the tree has), the unit from their labels ("2
 * uops executed": "uops executed").  False when the model has no sweep, a
 * bin is not measured or the total is not positive. */
bool ilp_eval(const struct tree_ctx *ctx, const struct counts *c, struct ilp_hist *h);

/* The histogram of evaluated tree R (as ilp_eval). */
bool ilp_from_tree(const struct tree_result *r, struct ilp_hist *h);

#endif
