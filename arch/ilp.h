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
#include <stdint.h>

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

/* --- Arm: the sweep from the PMU's counter threshold (FEAT_PMUv3_TH) -------
 *
 * Armv8.8/9.3 PMUs with FEAT_PMUv3_TH compare an event's increment in each
 * cycle with a threshold (PMEVTYPER<n>_EL0.TH, .TC).  Linux 6.8+
 * (drivers/perf/arm_pmuv3.c, James Clark's "arm64: perf: Add support for
 * event counting threshold"; Documentation/arch/arm64/perf.rst, "Event
 * Counting Threshold") gives three format fields in attr.config1:
 *   threshold          "config1:5-16"  TH, 0 = no threshold
 *   threshold_compare  "config1:3-4"   TC[2:1]: 0 not-equal, 1 equal,
 *                                      2 greater-or-equal, 3 less-than
 *   threshold_count    "config1:2"     TC[0]: add 1 in a cycle that passes
 *                                      instead of the event's increment
 * and caps/threshold_max = 2^PMMIR_EL1.THWIDTH - 1, 0 where the PMU has no
 * FEAT_PMUv3_TH (the format files exist on every 6.8+ kernel; KVM guests
 * read 0).  So OP_RETIRED with threshold=N, threshold_compare=2 (GE) and
 * threshold_count=1 counts the cycles that retire at least N ops: Core2's
 * "cycles with >= k" sweep without a cmask.  Without threshold_count the
 * counter would add the ops of those cycles, not 1. */

#define ARM_TH_COMPARE_GE 2  /* perf.rst: 2 = Greater-than-or-equal */
/* The arm tree's sweep steps th=1..8 (the widest core of the tables, V1
 * and V2: 8 slots); a narrower core's steps above its width are 0. */
#define ARM_ILP_STEPS 8

/* Where the host's core PMU takes the threshold fields (its format files,
 * read by engine/host.c) and how large a threshold it takes. */
struct arm_threshold {
	bool format;             /* format/threshold, _compare and _count all parsed */
	uint8_t th_lo, th_hi;    /* config1 bits of threshold (inclusive) */
	uint8_t cmp_lo, cmp_hi;  /* ... of threshold_compare */
	uint8_t cnt_lo, cnt_hi;  /* ... of threshold_count */
	uint32_t max;            /* caps/threshold_max; 0: no FEAT_PMUv3_TH */
};

/* Whether TH (NULL: none known) can count a sweep: the format fields fit in
 * config1 and the PMU takes a threshold of at least 1. */
bool arm_th_usable(const struct arm_threshold *th);

/* The event an Arm MODEL's sweep thresholds: OP_RETIRED where the model
 * counts micro-operations (V1, N2, V2), else INST_RETIRED; NULL for a model
 * that is not Arm's. */
const char *arm_ilp_event(const struct arch_model *model);

/* The widest bin of MODEL's sweep on a PMU with TH: SLOTS (the host's
 * caps/slots, PMMIR_EL1.SLOTS; 0: none) or else the model's
 * pipeline_width, capped by TH's threshold_max and ILP_MAX_WIDTH.  0 when
 * there is no sweep (TH unusable, or no width known). */
int arm_ilp_width(const struct arch_model *model, const struct arm_threshold *th, int slots);

/* attr.config1 for "cycles with at least N": threshold=N,
 * threshold_compare=GE, threshold_count=1 at TH's positions.  False when N
 * is 0, above threshold_max or does not fit its field. */
bool arm_th_config1(const struct arm_threshold *th, unsigned n, uint64_t *config1);

#endif
