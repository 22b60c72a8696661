#include "engine/pfm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfmon/pfmlib_perf_event.h>

/* libpfm4 4.13 keeps every PMU it ever activated active across
 * pfm_terminate()/pfm_initialize(): once a model was forced, a later forced
 * model or the unforced host still sees it (pfm_get_pmu_info says present)
 * and resolves event names against it.  So the host is probed once, unforced,
 * before anything is forced; encodings under a forced model are qualified
 * with its PMU name; unforced encodings that resolve to a PMU the host lacks
 * are refused. */
static bool initialized, probed, forced;
static bool host_has[PFM_PMU_MAX];  /* PMUs libpfm4 detected on this host */
static char host_core[64];          /* the host's core PMU, "" if none */
static char host_pmu[64];           /* the active core PMU: forced or host_core */

static bool pmu_info(int p, pfm_pmu_info_t *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return pfm_get_pmu_info((pfm_pmu_t)p, info) == PFM_SUCCESS && info->is_present;
}

static void probe_host(void)
{
	pfm_pmu_info_t info;

	probed = true;
	unsetenv("LIBPFM_FORCE_PMU");
	if (pfm_initialize() != PFM_SUCCESS)
		return;
	for (int p = 0; p < PFM_PMU_MAX; p++) {
		if (!pmu_info(p, &info))
			continue;
		host_has[p] = true;
		if (!host_core[0] && info.type == PFM_PMU_TYPE_CORE &&
		    strncmp(info.name, "perf", 4) != 0)
			snprintf(host_core, sizeof(host_core), "%s", info.name);
	}
	pfm_terminate();
}

/* Whether libpfm4 now has a PMU named exactly NAME. */
static bool pmu_present(const char *name)
{
	pfm_pmu_info_t info;

	for (int p = 0; p < PFM_PMU_MAX; p++)
		if (pmu_info(p, &info) && strcmp(info.name, name) == 0)
			return true;
	return false;
}

int pfm_setup(const char *force, char *err, size_t errsz)
{
	if (!probed)
		probe_host();
	if (initialized)
		pfm_terminate();
	if (force)
		setenv("LIBPFM_FORCE_PMU", force, 1);
	else
		unsetenv("LIBPFM_FORCE_PMU");
	int rc = pfm_initialize();
	initialized = rc == PFM_SUCCESS;
	forced = force != NULL;
	host_pmu[0] = '\0';
	if (!initialized) {
		snprintf(err, errsz, "libpfm4 initialization failed%s%s: %s",
			 force ? " for model " : "", force ? force : "", pfm_strerror(rc));
		return -1;
	}
	if (force && !pmu_present(force)) {
		snprintf(err, errsz, "libpfm4 does not know the PMU model '%s'", force);
		pfm_terminate();
		initialized = false;
		return -1;
	}
	snprintf(host_pmu, sizeof(host_pmu), "%s", force ? force : host_core);
	return 0;
}

/* The PMU an encoded event belongs to, -1 if unknown. */
static int event_pmu(int idx)
{
	pfm_event_info_t info;

	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	return pfm_get_event_info(idx, PFM_OS_NONE, &info) == PFM_SUCCESS ? (int)info.pmu : -1;
}

int pfm_encode(const char *event, struct perf_event_attr *attr, char *fstr,
	       size_t fstrsz, char *err, size_t errsz)
{
	pfm_perf_encode_arg_t arg;
	char *fs = NULL, qualified[512];
	const char *ev = event;

	if (!initialized && pfm_setup(NULL, err, errsz) < 0)
		return -1;
	if (forced && !strstr(event, "::")) {
		if ((size_t)snprintf(qualified, sizeof(qualified), "%s::%s", host_pmu, event) >=
		    sizeof(qualified)) {
			snprintf(err, errsz, "event '%s': too long", event);
			return -1;
		}
		ev = qualified;
	}
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);  /* libpfm4 leaves it 0: later fields would be ignored */
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.attr = attr;
	arg.fstr = fstr ? &fs : NULL;
	int rc = pfm_get_os_event_encoding(ev, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	attr->size = sizeof(*attr);
	if (rc == PFM_SUCCESS && !forced) {
		int p = event_pmu(arg.idx);
		if (p < 0 || p >= PFM_PMU_MAX || !host_has[p])
			rc = PFM_ERR_NOTFOUND;  /* a PMU left active by an earlier forced model */
	}
	if (rc != PFM_SUCCESS) {
		free(fs);
		snprintf(err, errsz, "event '%s': %s (libpfm4, model %s; cyctop list events)",
			 event, rc == PFM_ERR_NOTFOUND ? "unknown event" : pfm_strerror(rc),
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
