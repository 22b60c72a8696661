#include "engine/pfm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfmon/pfmlib_perf_event.h>

static bool initialized;
static char host_pmu[64];

static void find_core_pmu(void)
{
	pfm_pmu_info_t info;

	host_pmu[0] = '\0';
	for (int p = 0; p < PFM_PMU_MAX; p++) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info((pfm_pmu_t)p, &info) != PFM_SUCCESS || !info.is_present)
			continue;
		if (info.type == PFM_PMU_TYPE_CORE && strncmp(info.name, "perf", 4) != 0) {
			snprintf(host_pmu, sizeof(host_pmu), "%s", info.name);
			return;
		}
	}
}

int pfm_setup(const char *force, char *err, size_t errsz)
{
	if (initialized)
		pfm_terminate();
	if (force)
		setenv("LIBPFM_FORCE_PMU", force, 1);
	else
		unsetenv("LIBPFM_FORCE_PMU");
	int rc = pfm_initialize();
	initialized = rc == PFM_SUCCESS;
	if (!initialized) {
		snprintf(err, errsz, "libpfm4 initialization failed%s%s: %s",
			 force ? " for model " : "", force ? force : "", pfm_strerror(rc));
		return -1;
	}
	find_core_pmu();
	if (force && strcmp(host_pmu, force) != 0) {
		snprintf(err, errsz, "libpfm4 does not know the PMU model '%s'", force);
		return -1;
	}
	return 0;
}

int pfm_encode(const char *event, struct perf_event_attr *attr, char *fstr,
	       size_t fstrsz, char *err, size_t errsz)
{
	pfm_perf_encode_arg_t arg;
	char *fs = NULL;

	if (!initialized && pfm_setup(NULL, err, errsz) < 0)
		return -1;
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);  /* libpfm4 leaves it 0: later fields would be ignored */
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.attr = attr;
	arg.fstr = fstr ? &fs : NULL;
	int rc = pfm_get_os_event_encoding(event, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	attr->size = sizeof(*attr);
	if (rc != PFM_SUCCESS) {
		snprintf(err, errsz, "event '%s': %s (model %s)", event, pfm_strerror(rc),
			 host_pmu[0] ? host_pmu : "perf, no hardware PMU");
		return -1;
	}
	if (fstr) {
		snprintf(fstr, fstrsz, "%s", fs ? fs : event);
		free(fs);
	}
	return 0;
}

const char *pfm_host_pmu(void)
{
	return host_pmu[0] ? host_pmu : NULL;
}
