/* Corrections to libpfm4 4.13's encodings: events it encodes wrongly for a
 * model, and events a model's tables need that it lacks.  engine/pfm.c
 * applies them when it encodes for that model; every row cites the source
 * of the right value. */
#ifndef ARCH_PFM_FIX_H
#define ARCH_PFM_FIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pfm_fix {
	const char *pmu;      /* libpfm4 PMU name (exact): spr, icl, skl... */
	const char *event;    /* the libpfm4 string as the model tables write it */
	uint64_t config;      /* the right attr.config (PERF_TYPE_RAW) */
	const char *libpfm;   /* what libpfm4 4.13 does: "0x200", "unknown" */
	const char *source;   /* where the right value comes from */
};

/* The correction for EVENT (any case, unit-mask order, modifier spelling,
 * with or without "pmu::") on libpfm4 PMU PMU, or NULL. */
const struct pfm_fix *pfm_fix_find(const char *pmu, const char *event);
const struct pfm_fix *pfm_fix_at(size_t i);  /* NULL past the end */

/* The attr.config1 of correction FIX: the MSR value the right encoding has
 * (perf's frontend=, config1:0-23), 0 if none. */
uint64_t pfm_fix_config1(const struct pfm_fix *fix);

#endif
