/* What the running kernel says about the host's PMUs.  The kernel is the
 * truth for what can be opened: libpfm4 names CPUs by CPUID even where the
 * kernel has no driver for their PMU (a VM, a CPU newer than the kernel). */
#ifndef ENGINE_HOST_H
#define ENGINE_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/ilp.h"

#define HOST_PMU_DIR "/sys/bus/event_source/devices"
/* arm64: MIDR_EL1 of CPU 0 (Linux 4.7+, Documentation/arch/arm64/cpu-feature-registers.rst),
 * else /proc/cpuinfo's "CPU implementer" and "CPU part" lines. */
#define HOST_MIDR_FILE "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1"
#define HOST_CPUINFO "/proc/cpuinfo"
/* Intel hybrid: 2; arm64 DynamIQ: up to 3 clusters of different cores. */
#define HOST_MAX_CORE_PMUS 4

struct host_core_pmu {
	/* x86: cpu, cpu_core or cpu_atom; arm64 (drivers/perf/arm_pmuv3.c):
	 * armv8_pmuv3_0 (ACPI, DT without a core name), armv8_pmuv3,
	 * armv8_cortex_a72, armv8_neoverse_n1, armv9_neoverse_v2... */
	char dev[32];
	uint32_t type;       /* attr.type for its events (arm64: dynamic, from sysfs) */
	char pmu_name[32];   /* caps/pmu_name ("skylake"), "" when absent */
	char cpus[64];       /* cpus ("0-3"; arm64 and hybrid x86), "" when absent */
	uint32_t slots;      /* arm64 caps/slots (PMMIR_EL1.SLOTS: TopDown's slots per cycle), 0: absent */
	/* arm64 (Linux 6.8+): format/threshold, threshold_compare,
	 * threshold_count and caps/threshold_max (arch/ilp.h); .format false
	 * on older kernels and other PMUs */
	struct arm_threshold threshold;
};

struct host_pmus {
	int ncore;           /* 0: no hardware PMU (software events only) */
	struct host_core_pmu core[HOST_MAX_CORE_PMUS];
	/* arm64: CPU 0's MIDR_EL1 implementer (0x41 Arm) and part number
	 * (0xd0c Neoverse N1); midr false when neither source says. */
	bool midr;
	uint32_t implementer, part;
};

/* Reads the core PMUs under HOST_PMU_DIR and, where the host has one, the
 * MIDR (through the sys seam, so tests can give a fake sysfs).  A missing
 * directory means no core PMU. */
void host_pmus_read(struct host_pmus *out);

/* One format file's text, "config1:5-16\n" or "config1:2": the bits of
 * attr.config1 it names into *LO and *HI.  False for another config word or
 * a malformed range. */
bool host_parse_config1_format(const char *text, uint8_t *lo, uint8_t *hi);

/* Whether DEV (a directory of HOST_PMU_DIR) is a core PMU's name. */
bool host_is_core_pmu(const char *dev);

/* The implementer and part of MIDR_EL1 as the kernel prints it
 * ("0x00000000410fd0c0\n"), or false. */
bool host_parse_midr(const char *text, uint32_t *implementer, uint32_t *part);
/* One /proc/cpuinfo line: "CPU implementer\t: 0x41" sets *IMPLEMENTER,
 * "CPU part\t: 0xd0c" sets *PART; returns which it set (1, 2) or 0. */
int host_parse_cpuinfo_line(const char *line, uint32_t *implementer, uint32_t *part);

#endif
