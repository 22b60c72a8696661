/* libpfm4: event strings to perf_event_attr, forced models for hosts that
 * lack them, and the host's PMU.  libpfm4 is loaded by the first
 * pfm_setup (or pfm_encode, pfm_lib_version): nothing else here calls it. */
#ifndef ENGINE_PFM_H
#define ENGINE_PFM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* The host as libpfm4 and the kernel tell it, made by its owner (the
 * session, the command) and passed to who encodes events or asks about the
 * PMU.  Nothing is probed before pfm_setup; a NULL or never set up host
 * tells of none (software events only), and pfm_setup and pfm_encode
 * refuse a NULL one (-1).  NULL when out of memory. */
struct pfm_host;
struct pfm_host *pfm_host_new(void);
void pfm_host_free(struct pfm_host *h);

/* (Re)initializes libpfm4 for H, forcing PMU FORCE when not NULL (the
 * LIBPFM_FORCE_PMU mechanism), and reads the kernel's PMUs when unforced.
 * Returns 0, or -1 with a reason in ERR. */
int pfm_setup(struct pfm_host *h, const char *force, char *err, size_t errsz);

/* Encodes EVENT (a libpfm4 string, period= etc. allowed) for user space into
 * ATTR, under H's model (set up unforced if it was not).  FSTR, if not NULL,
 * receives libpfm4's fully qualified string. */
int pfm_encode(struct pfm_host *h, const char *event, struct perf_event_attr *attr, char *fstr,
	       size_t fstrsz, char *err, size_t errsz);

/* The active core PMU's libpfm4 name: the forced model, else the host's when
 * the kernel has a core PMU and libpfm4 knows the CPU; NULL otherwise. */
const char *pfm_host_pmu(const struct pfm_host *h);

/* Whether hardware events can be opened: the kernel has a core PMU (sysfs),
 * or a model is forced (encodings only).  False on a VM without a PMU, even
 * where libpfm4 recognizes the CPUID. */
bool pfm_host_hardware(const struct pfm_host *h);

/* The host's PMU for a header: "skl", "cpu skylake (generic events only)"
 * (a kernel PMU libpfm4 does not know), on arm64 the kernel's PMU and the
 * model ("armv8_pmuv3_0 arm_n1", "armv8_pmuv3_0 (model unknown, MIDR
 * 0x41:0xd0f)": generic events only),
 * "none (software events only)". */
void pfm_host_describe(const struct pfm_host *h, char *out, size_t outsz);

/* arm64: the model of the host's MIDR (model_from_midr) where libpfm4 does
 * not name the core; NULL elsewhere. */
struct arch_model;
const struct arch_model *pfm_host_midr_model(const struct pfm_host *h);

/* arm64: the attr.type raw events of the host's core PMU go to (its
 * dynamic sysfs type: the kernel takes PERF_TYPE_RAW too, but only the
 * PMU's own type keeps a big.LITTLE machine's events on that PMU's CPUs).
 * False on x86 (PERF_TYPE_RAW, or the hybrid PMU a name asked for) and
 * under a forced model. */
bool pfm_host_core_type(const struct pfm_host *h, uint32_t *type);

struct arm_threshold;
/* arm64: the host core PMU's counter threshold (arch/ilp.h; Linux 6.8+),
 * NULL on other hosts, with a forced model, or before pfm_setup. */
const struct arm_threshold *pfm_host_threshold(const struct pfm_host *h);

/* The kernel's (first) core PMU: "cpu", "cpu_core", "armv8_pmuv3_0"...;
 * NULL without one. */
const char *pfm_host_kernel_pmu(const struct pfm_host *h);

/* arm64: the general counters of the host's core PMU, as the kernel tells
 * by the largest event group it accepts (6 on Neoverse and Cortex-A cores,
 * PMCR_EL0.N): the planner's cap where the model has no counter inventory
 * (a core cyctop has no tables for).  Probed once.  0 on x86, under a
 * forced model, or when the probe opens nothing. */
int pfm_host_counters(struct pfm_host *h);

/* libpfm4's release ("4.13.0"), else its API version ("API 4.0"), in OUT;
 * "" where it cannot be loaded. */
void pfm_lib_version(char *out, size_t outsz);

#endif
