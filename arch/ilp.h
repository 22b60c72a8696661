/* ILP histogram from a CMASK sweep (Core2 paper, "Instruction Level
 * Parallelism"; slides: "subtract the N-1 value").
 *
 * C(k) = cycles in which fewer than k uops were dispatched (cmask=k, inv=1).
 * Bin 0 = C(1); bin k = C(k+1) - C(k) for k = 1..width; C(width+1) = every
 * cycle, so it must agree with the total cycles. */
#ifndef ARCH_ILP_H
#define ARCH_ILP_H

#include <stdbool.h>

#include "arch/model.h"

#define ILP_MAX_WIDTH 8

struct ilp_hist {
	int width;                       /* bins 0..width */
	double bins[ILP_MAX_WIDTH + 1];  /* cycles with exactly k uops */
	double total;                    /* C(width+1) */
	double mean;                     /* uops per cycle */
	bool negative_bin;               /* a C(k+1) < C(k): noise or multiplexing */
};

/* SWEEP[k-1] = C(k) for k = 1..width+1.  Returns false if width is out of
 * range, a value is missing (NAN) or the total is not positive. */
bool ilp_from_sweep(const double *sweep, int width, struct ilp_hist *h);

/* The libpfm4/paper name of sweep step K (1-based) for MODEL into BUF. */
bool ilp_step_name(const struct arch_model *model, int k, char *buf, unsigned long bufsz);

#endif
