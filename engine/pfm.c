/* libpfm4: event strings to perf_event_attr under the host's or a forced
 * model, the host's PMU (engine/pfm.h).  libpfm4 is loaded by the first
 * pfm_setup (engine/lib-load.c), not linked: its PMU tables' relocations
 * cost every start of cyctop some 4 ms of CPU, and reading a recording
 * asks libpfm4 nothing unless the file names no CPU (an old perf's). */
#include "config.h"

#include "engine/pfm.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfmon/pfmlib_perf_event.h>

#include "arch/model.h"
#include "arch/pfm-fix.h"
#include "engine/host.h"
#include "engine/lib-load.h"
#include "engine/sys.h"

/* The largest group the counter probe tries (pfm_host_counters). */
#define PROBE_MAX 32

/* libpfm4 4.13 keeps every PMU it ever activated active across
 * pfm_terminate()/pfm_initialize(): once a model was forced, a later forced
 * model or the unforced host still sees it (pfm_get_pmu_info says present)
 * and resolves event names against it.  Later snapshots (Debian 13's
 * 4.13.0+git99) start afresh at each pfm_initialize().  So libpfm4's view of
 * the host is probed once, unforced, before anything is forced; encodings
 * under a forced model are qualified with its PMU name; unforced encodings
 * that resolve to a PMU the host lacks are refused; and nothing relies on a
 * PMU staying active.  Where the user's LIBPFM_FORCE_PMU stands for the
 * CPUID (user_cpuid), the unforced initialization runs without it (so the
 * generic perf PMUs are there) but with LIBPFM_ENCODE_INACTIVE, and an
 * unqualified event libpfm4 does not find is tried on that PMU by name:
 * what 4.13's left-active PMU gave, on any snapshot.
 *
 * libpfm4 recognizes CPUs by CPUID, also where the kernel has no driver for
 * their PMU (a VM; a CPU newer than the kernel): the kernel decides whether
 * hardware events exist at all (engine/host.c), libpfm4 only names them.
 * A LIBPFM_FORCE_PMU set by the user stands for the CPUID libpfm4 sees (its
 * documented meaning), so the case can be tried on any machine. */
/* What libpfm4 itself holds is process-wide (pfm_initialize, its
 * environment variables, 4.13's PMUs left active), so what it detects of
 * this CPU is probed once a process, unforced, before anything is forced,
 * and it is initialized for one host at a time: ACTIVE, the host whose
 * pfm_setup ran last (an encoding for another host sets libpfm4 up for
 * that one first). */
static struct {
	struct lib_image image;  /* libpfm4 itself, loaded once, and its entry points */
	LIB_FN(pfm_initialize);
	LIB_FN(pfm_terminate);
	LIB_FN(pfm_get_pmu_info);
	LIB_FN(pfm_get_event_info);
	LIB_FN(pfm_get_os_event_encoding);
	LIB_FN(pfm_strerror);
	LIB_FN(pfm_get_version);
	bool probed, initialized;
	const struct pfm_host *active;
	bool has[PFM_PMU_MAX];  /* PMUs libpfm4 detected on this host */
	char core[64];          /* libpfm4's core PMU for this CPUID, "" if none */
	char user_cpuid[64];    /* the user's LIBPFM_FORCE_PMU, "" if unset */
} lib = { .image = { .soname = PFM_SONAME } };

/* 0, or -1 with the line that says libpfm4 cannot be loaded. */
static int load_libpfm(char *err, size_t errsz)
{
	const struct lib_sym sym[] = {
		LIB_SYM(lib, pfm_initialize),
		LIB_SYM(lib, pfm_terminate),
		LIB_SYM(lib, pfm_get_pmu_info),
		LIB_SYM(lib, pfm_get_event_info),
		LIB_SYM(lib, pfm_get_os_event_encoding),
		LIB_SYM(lib, pfm_strerror),
		LIB_SYM(lib, pfm_get_version),
	};

	return lib_load(&lib.image, sym, sizeof(sym) / sizeof(sym[0]), err, errsz);
}

/* What libpfm4 and the kernel tell of this host, made by its owner (the
 * session, the command: pfm_host_new) and passed to who encodes or asks. */
struct pfm_host {
	bool set_up, forced;          /* pfm_setup succeeded; with a forced model */
	bool opens[PFM_PMU_MAX];      /* libpfm4's PMUs the kernel can open */
	char core[64];                /* the host's core PMU, "" if none or no kernel PMU */
	char pmu[64];                 /* the active core PMU: forced or core */
	struct host_pmus kernel;      /* the kernel's core PMUs */
	int counters;                 /* pfm_host_counters' probe, -1 before it */
};
/* What a host nobody set up tells: no PMU (a recorded session's). */
static const struct pfm_host none = { .counters = -1 };

struct pfm_host *pfm_host_new(void)
{
	struct pfm_host *h = calloc(1, sizeof(*h));

	if (h)
		h->counters = -1;
	return h;
}

void pfm_host_free(struct pfm_host *h)
{
	if (h && lib.active == h)
		lib.active = NULL;
	free(h);
}

static bool pmu_info(int p, pfm_pmu_info_t *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return lib.pfm_get_pmu_info((pfm_pmu_t)p, info) == PFM_SUCCESS && info->is_present;
}

static void probe_libpfm(void)
{
	pfm_pmu_info_t info;
	const char *env = getenv("LIBPFM_FORCE_PMU");

	lib.probed = true;
	snprintf(lib.user_cpuid, sizeof(lib.user_cpuid), "%s", env ? env : "");
	if (lib.pfm_initialize() == PFM_SUCCESS) {
		for (int p = 0; p < PFM_PMU_MAX; p++) {
			if (!pmu_info(p, &info))
				continue;
			lib.has[p] = true;
			if (!lib.core[0] && info.type == PFM_PMU_TYPE_CORE &&
			    strncmp(info.name, "perf", 4) != 0)
				snprintf(lib.core, sizeof(lib.core), "%s", info.name);
		}
		lib.pfm_terminate();
	}
	unsetenv("LIBPFM_FORCE_PMU");
}

/* What can be opened: the kernel's generic PMUs always; libpfm4's hardware
 * PMUs only when the kernel has a core PMU. */
static void probe_kernel(struct pfm_host *h)
{
	pfm_pmu_info_t info;

	host_pmus_read(&h->kernel);
	for (int p = 0; p < PFM_PMU_MAX; p++)
		h->opens[p] = (pmu_info(p, &info) && info.type == PFM_PMU_TYPE_OS_GENERIC) ||
			(lib.has[p] && h->kernel.ncore > 0);
	snprintf(h->core, sizeof(h->core), "%s", h->kernel.ncore > 0 ? lib.core : "");
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

int pfm_setup(struct pfm_host *h, const char *force, char *err, size_t errsz)
{
	if (!h) {
		snprintf(err, errsz, "out of memory");  /* pfm_host_new's NULL */
		return -1;
	}
	if (load_libpfm(err, errsz) < 0)
		return -1;
	if (!lib.probed)
		probe_libpfm();
	if (lib.initialized)
		lib.pfm_terminate();
	if (force)
		setenv("LIBPFM_FORCE_PMU", force, 1);
	else
		unsetenv("LIBPFM_FORCE_PMU");
	if (!force && lib.user_cpuid[0])  /* the CPUID's PMU, by name, though not detected */
		setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	else if (lib.user_cpuid[0])
		unsetenv("LIBPFM_ENCODE_INACTIVE");
	int rc = lib.pfm_initialize();
	lib.initialized = rc == PFM_SUCCESS;
	lib.active = h;
	h->set_up = false;
	h->forced = force != NULL;
	h->pmu[0] = '\0';
	if (!lib.initialized) {
		snprintf(err, errsz, "libpfm4 initialization failed%s%s: %s",
			 force ? " for model " : "", force ? force : "", lib.pfm_strerror(rc));
		return -1;
	}
	if (force && !pmu_present(force)) {
		snprintf(err, errsz, "libpfm4 does not know the PMU model '%s'", force);
		lib.pfm_terminate();
		lib.initialized = false;
		return -1;
	}
	if (!force)
		probe_kernel(h);  /* after initializing: the generic PMUs' types are known */
	snprintf(h->pmu, sizeof(h->pmu), "%s", force ? force : h->core);
	h->set_up = true;
	return 0;
}

/* H's libpfm4: set up unforced on first use, or again for H's model where
 * another host's setup ran since. */
static int use_host(struct pfm_host *h, char *err, size_t errsz)
{
	char force[sizeof(h->pmu)];

	if (!h->set_up)
		return pfm_setup(h, NULL, err, errsz);
	if (lib.active == h)
		return 0;
	snprintf(force, sizeof(force), "%s", h->pmu);
	return pfm_setup(h, h->forced ? force : NULL, err, errsz);
}

/* The PMU an encoded event belongs to, -1 if unknown. */
static int event_pmu(int idx)
{
	pfm_event_info_t info;

	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	return lib.pfm_get_event_info(idx, PFM_OS_NONE, &info) == PFM_SUCCESS ? (int)info.pmu : -1;
}

/* arch/pfm-fix.c's value FIX, counted in user space as libpfm4's PFM_PLM3
 * would; GOT is what this libpfm4 gave ("0x200", "unknown"). */
static void encode_fixed(const struct pfm_host *h, const struct pfm_fix *fix, const char *got, struct perf_event_attr *attr,
			 char *fstr, size_t fstrsz)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_RAW;
	attr->config = fix->config;
	attr->config1 = pfm_fix_config1(fix);
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	if (fstr)
		snprintf(fstr, fstrsz, "%s::%s (cyctop correction: libpfm4 %s)", h->pmu,
			 fix->event, got);
}

static int encode_libpfm(struct pfm_host *h, const char *event, struct perf_event_attr *attr, char *fstr,
			 size_t fstrsz, char *err, size_t errsz);

/* A correction applies where this libpfm4 is wrong (or lacks the event) and
 * is a no-op where it is right: libpfm4 snapshots fix rows upstream (Debian
 * 13's 4.13.0+git99 has SPR's and ICL's TOPDOWN umasks right), and the
 * encoding is then libpfm4's own, as for any other event. */
int pfm_encode(struct pfm_host *h, const char *event, struct perf_event_attr *attr, char *fstr,
	       size_t fstrsz, char *err, size_t errsz)
{
	const struct pfm_fix *fix;
	char got[32] = "unknown", ignored[256];

	if (!h) {
		snprintf(err, errsz, "event '%s': no host to encode it for", event);
		return -1;
	}
	if (use_host(h, err, errsz) < 0)
		return -1;
	fix = pfm_fix_find(h->pmu[0] ? h->pmu : NULL, event);
	if (!fix)
		return encode_libpfm(h, event, attr, fstr, fstrsz, err, errsz);
	if (encode_libpfm(h, event, attr, fstr, fstrsz, ignored, sizeof(ignored)) == 0) {
		if (attr->type == PERF_TYPE_RAW && attr->config == fix->config)
			return 0;
		snprintf(got, sizeof(got), "0x%llx", (unsigned long long)attr->config);
	}
	encode_fixed(h, fix, got, attr, fstr, fstrsz);
	return 0;
}

static int encode_libpfm(struct pfm_host *h, const char *event, struct perf_event_attr *attr, char *fstr,
			 size_t fstrsz, char *err, size_t errsz)
{
	pfm_perf_encode_arg_t arg;
	char *fs = NULL, qualified[512];
	const char *ev = event;

	if (h->forced && !strstr(event, "::")) {
		if ((size_t)snprintf(qualified, sizeof(qualified), "%s::%s", h->pmu, event) >=
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
	/* user and kernel, as perf counts by default; ":u" or ":k" in EVENT
	 * override it (the session falls back to user space only where the
	 * kernel is not permitted) */
	int rc = lib.pfm_get_os_event_encoding(ev, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (rc == PFM_ERR_NOTFOUND && !h->forced && lib.user_cpuid[0] && !strstr(event, "::") &&
	    (size_t)snprintf(qualified, sizeof(qualified), "%.*s::%s",
			     (int)strcspn(lib.user_cpuid, ","), lib.user_cpuid, event) < sizeof(qualified))
		rc = lib.pfm_get_os_event_encoding(qualified, PFM_PLM0 | PFM_PLM3,
					       PFM_OS_PERF_EVENT_EXT, &arg);
	attr->size = sizeof(*attr);
	if (rc == PFM_SUCCESS && !h->forced) {
		int p = event_pmu(arg.idx);
		if (p >= 0 && p < PFM_PMU_MAX && lib.has[p] && !h->opens[p]) {
			free(fs);
			snprintf(err, errsz, "event '%s' is a hardware event of %s (libpfm4, by "
				 "CPUID), but the kernel has no PMU for it: software events only",
				 event, lib.core);
			return -1;
		}
		if (p < 0 || p >= PFM_PMU_MAX || !h->opens[p])
			rc = PFM_ERR_NOTFOUND;  /* a PMU left active by an earlier forced model */
	}
	if (rc != PFM_SUCCESS) {
		free(fs);
		snprintf(err, errsz, "event '%s': %s (libpfm4, model %s; cyctop list events)",
			 event, rc == PFM_ERR_NOTFOUND ? "unknown event" : lib.pfm_strerror(rc),
			 h->pmu[0] ? h->pmu : "perf, no hardware PMU");
		return -1;
	}
	if (fstr) {
		snprintf(fstr, fstrsz, "%s", fs ? fs : event);
		free(fs);
	}
	return 0;
}

const char *pfm_host_pmu(const struct pfm_host *h)
{
	h = h ? h : &none;
	return h->pmu[0] ? h->pmu : NULL;
}

bool pfm_host_hardware(const struct pfm_host *h)
{
	h = h ? h : &none;
	return h->forced || h->kernel.ncore > 0;
}

/* Whether the kernel's core PMU is an arm64 PMUv3 (armv8_*, armv9_*). */
static bool arm_core(const struct pfm_host *h)
{
	return h->kernel.ncore > 0 && strncmp(h->kernel.core[0].dev, "armv", 4) == 0;
}

const struct arch_model *pfm_host_midr_model(const struct pfm_host *h)
{
	h = h ? h : &none;
	return arm_core(h) && h->kernel.midr ?
		model_from_midr(h->kernel.implementer, h->kernel.part) : NULL;
}

const struct arm_threshold *pfm_host_threshold(const struct pfm_host *h)
{
	h = h ? h : &none;
	return h->forced || !arm_core(h) ? NULL : &h->kernel.core[0].threshold;
}

bool pfm_host_core_type(const struct pfm_host *h, uint32_t *type)
{
	h = h ? h : &none;
	if (h->forced || !arm_core(h))
		return false;
	*type = h->kernel.core[0].type;
	return true;
}

/* How many INST_RETIRED (0x08, an architected event every PMUv3 counts)
 * one group holds: the kernel validates a group against the PMU's counters
 * when it is opened (drivers/perf/arm_pmu.c validate_group: EINVAL when
 * they run out), so the largest group that opens is PMCR_EL0.N, the
 * general counters (the cycle counter takes only CPU_CYCLES).  A disabled
 * event is validated only with enable_on_exec (validate_event); the events
 * are closed before any exec, so nothing is enabled or counted. */
static int probe_counters(uint32_t type)
{
	struct perf_event_attr a;
	int fds[PROBE_MAX], n = 0;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = 0x08;
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	while (n < PROBE_MAX &&
	       (fds[n] = sys_perf_event_open(&a, 0, -1, n ? fds[0] : -1, 0)) >= 0)
		n++;
	for (int i = n; i-- > 0;)
		sys_close(fds[i]);
	return n < PROBE_MAX ? n : 0;
}

const char *pfm_host_kernel_pmu(const struct pfm_host *h)
{
	h = h ? h : &none;
	return h->kernel.ncore > 0 ? h->kernel.core[0].dev : NULL;
}

int pfm_host_counters(struct pfm_host *h)
{
	if (!h || h->forced || !arm_core(h))
		return 0;
	if (h->counters < 0)
		h->counters = probe_counters(h->kernel.core[0].type);
	return h->counters;
}

void pfm_host_describe(const struct pfm_host *h, char *out, size_t outsz)
{
	const struct arch_model *m;

	h = h ? h : &none;
	if (h->pmu[0] && arm_core(h) && !h->forced)
		/* arm64: the kernel's PMU and the model ("armv8_pmuv3_0 arm_n1") */
		snprintf(out, outsz, "%s %s", h->kernel.core[0].dev, h->pmu);
	else if (h->pmu[0])
		snprintf(out, outsz, "%s", h->pmu);
	else if (arm_core(h) && (m = pfm_host_midr_model(h)))
		snprintf(out, outsz, "%s %s", h->kernel.core[0].dev, m->name);
	else if (arm_core(h) && h->kernel.midr)
		/* short: the header's PMU field holds 63 characters */
		snprintf(out, outsz, "%s (model unknown, MIDR 0x%02x:0x%03x)", h->kernel.core[0].dev,
			 h->kernel.implementer, h->kernel.part);
	else if (arm_core(h))
		snprintf(out, outsz, "%s (model unknown)", h->kernel.core[0].dev);
	else if (h->kernel.ncore > 0)
		snprintf(out, outsz, "%s%s%s (generic events only)", h->kernel.core[0].dev,
			 h->kernel.core[0].pmu_name[0] ? " " : "", h->kernel.core[0].pmu_name);
	else
		snprintf(out, outsz, "none (software events only)");
}

/* The release is the name the soname links to (libpfm.so.4 ->
 * libpfm.so.4.13.0); the API version (pfm_get_version, 4.0 since 2010)
 * says little. */
void pfm_lib_version(char *out, size_t outsz)
{
	Dl_info info;
	char target[256];

	out[0] = '\0';
	if (load_libpfm(NULL, 0) < 0)
		return;
	int v = lib.pfm_get_version();
	snprintf(out, outsz, "API %d.%d", PFM_MAJ_VERSION(v), PFM_MIN_VERSION(v));
	if (!dladdr((void *)lib.pfm_get_version, &info) || !info.dli_fname)
		return;
	ssize_t n = sys_readlink(info.dli_fname, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	const char *ver = strstr(target, ".so.");
	if (ver)
		snprintf(out, outsz, "%s", ver + 4);
}
