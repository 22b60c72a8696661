/* What the running kernel says about the host's PMUs.  The kernel is the
 * truth for what can be opened: libpfm4 names CPUs by CPUID even where the
 * kernel has no driver for their PMU (a VM, a CPU newer than the kernel). */
#ifndef ENGINE_HOST_H
#define ENGINE_HOST_H

#include <stdbool.h>
#include <stdint.h>

#define HOST_PMU_DIR "/sys/bus/event_source/devices"
#define HOST_MAX_CORE_PMUS 2

struct host_core_pmu {
	char dev[16];        /* cpu, cpu_core or cpu_atom */
	uint32_t type;       /* attr.type for its events */
	char pmu_name[32];   /* caps/pmu_name ("skylake"), "" when absent */
};

struct host_pmus {
	int ncore;           /* 0: no hardware PMU (software events only) */
	struct host_core_pmu core[HOST_MAX_CORE_PMUS];
};

/* Reads the core PMUs under HOST_PMU_DIR (through the sys seam, so tests can
 * give a fake sysfs).  A missing directory means no core PMU. */
void host_pmus_read(struct host_pmus *out);

#endif
