/* Per-function columns derived from sampled events, one set per tree: what
 * the hotspot table shows next to the raw event columns on hardware data
 * (e.g. the share of a function's cycles that are stalls). */
#ifndef ARCH_DERIVED_H
#define ARCH_DERIVED_H

#include <stddef.h>

#include "arch/model.h"

struct derived_col {
	enum arch_tree tree;
	const char *label;     /* column title, at most 9 characters */
	const char *num, *den; /* paper names of the two sampled events */
	double scale;          /* 100 for a percentage, 1 for a ratio */
	const char *source;
};

const struct derived_col *derived_at(size_t i);   /* NULL past the end */

/* VALUE = scale x num / den on normalized counts (samples x SAV); NAN when
 * the denominator is zero. */
double derived_value(const struct derived_col *c, double num, double den);

#endif
