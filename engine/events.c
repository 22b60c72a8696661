#include "engine/events.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arch/preset.h"
#include "engine/host.h"
#include "engine/pfm.h"
#include "engine/sys.h"

/* The host's CPU as perf's cpuid string ("GenuineIntel,6,173,1",
 * "AuthenticAMD,26,2,0": tools/perf/arch/x86/util/header.c) from
 * /proc/cpuinfo's first processor; false where it has none (not x86). */
static bool host_cpuid(char *out, size_t outsz)
{
	char *line = NULL, vendor[32] = "";
	size_t cap = 0;
	int family = -1, model = -1, stepping = -1;
	FILE *f = sys_fopen("/proc/cpuinfo", "r");

	while (f && getline(&line, &cap, f) > 0) {
		char *v = strchr(line, ':');
		if (line[0] == '\n' && vendor[0])
			break;  /* the end of the first processor's block */
		if (!v)
			continue;
		v += 1 + strspn(v + 1, " \t");
		if (strncmp(line, "vendor_id", 9) == 0)
			snprintf(vendor, sizeof(vendor), "%.*s", (int)strcspn(v, "\n"), v);
		else if (strncmp(line, "cpu family", 10) == 0)
			family = atoi(v);
		else if (strncmp(line, "model", 5) == 0 && strncmp(line, "model name", 10) != 0)
			model = atoi(v);
		else if (strncmp(line, "stepping", 8) == 0)
			stepping = atoi(v);
	}
	free(line);
	if (f)
		fclose(f);
	if (!vendor[0] || family < 0 || model < 0)
		return false;
	snprintf(out, outsz, "%s,%d,%d,%d", vendor, family, model, stepping < 0 ? 0 : stepping);
	return true;
}

/* The host's model: libpfm4's name for the CPU (LIBPFM_FORCE_PMU as its
 * documented stand-in for the CPUID), made specific by the CPUID where one
 * libpfm4 PMU covers several models (Emerald Rapids is libpfm4 4.13's spr);
 * with a kernel core PMU and no libpfm4 PMU, the CPUID's model
 * (model_from_cpuid: Zen 5, Granite Rapids, Sierra Forest), encoded under
 * its libpfm4 PMU where it has one; else "perf". */
const struct arch_model *events_host_model(struct pfm_host *host)
{
	char err[256], cpuid[96];
	const struct arch_model *m = NULL, *c = NULL;

	if (pfm_setup(host, NULL, err, sizeof(err)) != 0)
		return model_find("perf");
	if (pfm_host_hardware(host) && host_cpuid(cpuid, sizeof(cpuid)))
		c = model_from_cpuid(cpuid);
	const char *pmu = pfm_host_pmu(host);
	if (pmu) {
		if (c && c->pfm_force && strcmp(c->pfm_force, pmu) == 0)
			return c;
		m = model_find(pmu);
	} else if (c && (!c->pfm_force || pfm_setup(host, c->pfm_force, err, sizeof(err)) == 0)) {
		return c;
	}
	if (!m)
		m = pfm_host_midr_model(host);  /* arm64: a core libpfm4 does not name */
	return m ? m : model_find("perf");
}

#if defined(__x86_64__)
/* A raw code of the core PMU: PERF_TYPE_RAW or a sysfs type (cpu_core). */
static bool core_raw(const struct ev_spec *ev)
{
	return ev->attr.type == PERF_TYPE_RAW || ev->attr.type > PERF_TYPE_BREAKPOINT;
}
#endif

/* TOPDOWN.SLOTS and the PERF_METRICS pseudo-events are Intel's (an arm64
 * raw code 0x0400 or 0x8000 is another event). */
bool events_is_slots(const struct ev_spec *ev)
{
#if defined(__x86_64__)
	return core_raw(ev) && (ev->attr.config & 0xffff) == 0x0400;
#else
	(void)ev;
	return false;
#endif
}

bool events_is_metric(const struct ev_spec *ev)
{
#if defined(__x86_64__)
	uint64_t umask = (ev->attr.config >> 8) & 0xff;

	return core_raw(ev) && (ev->attr.config & 0xff) == 0 && umask >= 0x80 && umask <= 0x87;
#else
	(void)ev;
	return false;
#endif
}

static bool software_clock(const struct ev_spec *ev)
{
	return ev->attr.type == PERF_TYPE_SOFTWARE &&
	       (ev->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
		ev->attr.config == PERF_COUNT_SW_TASK_CLOCK);
}

/* The generic cycles (perf's "cycles", PERF_COUNT_HW_CPU_CYCLES), not a
 * model's cycle event named as its table names it. */
static bool generic_cycles(const struct ev_spec *ev)
{
	size_t len = strcspn(ev->asked, ":");

	return (ev->attr.type == PERF_TYPE_HARDWARE &&
		(ev->attr.config & 0xffffffffull) == PERF_COUNT_HW_CPU_CYCLES) ||
	       (len == 6 && strncasecmp(ev->asked, "cycles", len) == 0) ||
	       (len == 10 && strncasecmp(ev->asked, "cpu-cycles", len) == 0);
}

bool events_default_freq(const struct ev_spec *ev, const struct arch_model *model)
{
	const struct arch_event *row = model_lookup(model, ev->name);

	return !software_clock(ev) && generic_cycles(ev) && !(row && row->sav);
}

uint64_t events_default_sav(const struct ev_spec *ev, const struct arch_model *model)
{
	const struct arch_event *row = model_lookup(model, ev->name);

	if (software_clock(ev))
		/* perf's -F 4000 on a clock: the kernel turns the frequency into
		 * the fixed period NSEC_PER_SEC / freq (perf_swevent_init_hrtimer) */
		return 1000000000ull / EVENTS_DEFAULT_FREQ;
	if (ev->attr.type == PERF_TYPE_SOFTWARE)
		return 1;
	if (row && row->sav)
		return row->sav;
	if (events_default_freq(ev, model))
		return 1;  /* each sample weighs its own period */
	return 2000000;
}

/* The hardware model whose table has NAME, if any. */
static const struct arch_model *hardware_owner(const char *name)
{
	const struct arch_model *m;

	for (size_t i = 0; (m = model_at(i)) != NULL; i++)
		if (model_is_hardware(m) && model_lookup(m, name))
			return m;
	return NULL;
}

/* attr.type of perf's PMU name: "cpu" is the core PMU (PERF_TYPE_RAW); the
 * hybrid cpu_core/cpu_atom PMUs have the dynamic type the kernel gives them
 * in sysfs (engine/host.c). */
static bool pmu_type(const char *pmu, uint32_t *type, const char *event, char *err,
		     size_t errsz)
{
	struct host_pmus h;

	if (strcmp(pmu, "cpu") == 0) {
		*type = PERF_TYPE_RAW;
		return true;
	}
	host_pmus_read(&h);
	for (int i = 0; i < h.ncore; i++)
		if (strcmp(h.core[i].dev, pmu) == 0) {
			*type = h.core[i].type;
			return true;
		}
	snprintf(err, errsz, "event '%s': the kernel has no PMU '%s' (%s has %s)", event, pmu,
		 HOST_PMU_DIR, h.ncore ? h.core[0].dev : "no core PMU");
	return false;
}

/* A raw PERFEVTSEL value counted in user space, as libpfm4's PFM_PLM3. */
static void raw_attr(struct perf_event_attr *attr, uint32_t type, unsigned long long config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/* The kernel's generic hardware events (include/uapi/linux/perf_event.h
 * PERF_COUNT_HW_*), for a forced model, whose libpfm4 has no "perf" PMU. */
static bool generic_hardware(const char *name, struct perf_event_attr *attr)
{
	static const struct { const char *name; unsigned long long config; } hw[] = {
		{ "cycles", PERF_COUNT_HW_CPU_CYCLES }, { "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES },
		{ "instructions", PERF_COUNT_HW_INSTRUCTIONS },
		{ "cache-references", PERF_COUNT_HW_CACHE_REFERENCES },
		{ "cache-misses", PERF_COUNT_HW_CACHE_MISSES },
		{ "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ "branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ "branch-misses", PERF_COUNT_HW_BRANCH_MISSES },
		{ "ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES },
	};

	for (size_t i = 0; i < sizeof(hw) / sizeof(hw[0]); i++)
		if (strcasecmp(name, hw[i].name) == 0) {
			raw_attr(attr, PERF_TYPE_HARDWARE, hw[i].config);
			return true;
		}
	return false;
}

/* The raw config of perf's PMU syntax with event= or config= under MODEL. */
static unsigned long long perf_syntax_config(const struct arch_model *model,
					     const struct perf_pmu_event *perf)
{
	if (model && model->encoding == ENC_ARMV8)
		return perf->has_config ? perf->config : perf->code.sel;
	return event_code_config(&perf->code);
}

/* A model whose events cyctop encodes itself, without a libpfm4 PMU: Arm
 * (libpfm4 has no arm tables on other hosts) and the x86 CPUs libpfm4 4.13
 * does not know (Zen 5, Granite Rapids ...), from perf's tables. */
static bool own_encoding(const struct arch_model *model)
{
	return model && !model->pfm_force && model_is_hardware(model);
}

/* perf's event NAME (or PFM, the row's string) on MODEL, encoded from perf's
 * table (arch/perf-events.h): perf's encoding wins where libpfm4 knows the
 * event too.  Counted in user and kernel space, as pfm_encode does. */
static bool encode_perf(const struct arch_model *model, const char *name, const char *pfm,
			uint32_t type, struct perf_event_attr *attr)
{
	struct arch_code code;
	uint64_t config1;

	if (!model_perf_code(model, name, &code, &config1, NULL) &&
	    (pfm == name || !model_perf_code(model, pfm, &code, &config1, NULL)))
		return false;
	raw_attr(attr, type, model_code_config(model, &code));
	attr->config1 = config1;
	attr->exclude_kernel = 0;
	return true;
}

/* Arm "EVENT:th=N" (cyctop's spelling; perf's is
 * PMU/event,threshold=N,threshold_compare=2,threshold_count/): EVENT, a row
 * of MODEL, counted in the cycles in which it adds N or more, through the
 * host core PMU's counter threshold (FEAT_PMUv3_TH, Linux 6.8+; arch/ilp.h)
 * at the config1 positions its format files give.  1: encoded, 0: not this
 * spelling, -1: one line in ERR (no threshold on this PMU, N too large). */
static int encode_arm_threshold(const struct arch_model *model, const char *pfm,
				struct perf_event_attr *attr, char *err, size_t errsz)
{
	const char *mod = strrchr(pfm, ':');
	char base[EVENT_NAME_MAX], *end;
	const struct arch_event *row;
	struct host_pmus h;
	uint64_t config1;

	if (!mod || strncasecmp(mod, ":th=", 4) != 0 || (size_t)(mod - pfm) >= sizeof(base))
		return 0;
	snprintf(base, sizeof(base), "%.*s", (int)(mod - pfm), pfm);
	unsigned long n = strtoul(mod + 4, &end, 10);
	if (*end || end == mod + 4 || !(row = model_lookup(model, base)) || !row->pfm)
		return 0;
	host_pmus_read(&h);
	const struct arm_threshold *th = h.ncore ? &h.core[0].threshold : NULL;
	if (!arm_th_usable(th)) {
		snprintf(err, errsz, "event '%.64s': no counter threshold on %.31s "
			 "(FEAT_PMUv3_TH; Linux 6.8+ format/threshold, caps/threshold_max)",
			 pfm, h.ncore ? h.core[0].dev : "this host (no core PMU)");
		return -1;
	}
	if (n > UINT32_MAX || !arm_th_config1(th, (unsigned)n, &config1)) {
		snprintf(err, errsz, "event '%.64s': threshold %lu is outside 1..%u (%.31s "
			 "caps/threshold_max)", pfm, n, th->max, h.core[0].dev);
		return -1;
	}
	raw_attr(attr, PERF_TYPE_RAW, model_code_config(model, &row->code));
	attr->config1 = config1;
	return 1;
}

/* NAME's attr: perf's PMU syntax and rNNNN raw codes directly, a row of an
 * Arm model from its table (libpfm4 has no arm tables on other hosts),
 * everything else through libpfm4 (and arch/pfm-fix.c) as PFM, the model
 * row's string when NAME is a row. */
static int encode_event(struct pfm_host *host, const struct arch_model *model, const char *name,
			const char *pfm, struct perf_event_attr *attr, char *err, size_t errsz)
{
	struct perf_pmu_event perf;
	uint32_t type = PERF_TYPE_RAW;
	char fstr[512];
	const struct arch_event *row;

	if (event_perf_syntax(name, &perf)) {
		if (!pmu_type(perf.pmu, &type, name, err, errsz))
			return -1;
		bool arm = model && model->encoding == ENC_ARMV8;
		if (perf.has_event && !arm && perf.code.sel > 0xfff) {
			snprintf(err, errsz, "event '%s': event select 0x%x is wider than x86's 12 "
				 "bits", name, perf.code.sel);
			return -1;
		}
		if (perf.has_event) {
			raw_attr(attr, type, perf_syntax_config(model, &perf));
			return 0;
		}
		if (pfm == name)
			pfm = perf.name;
	} else if ((name[0] == 'r' || name[0] == 'R') && pfm == name &&
		   strspn(name + 1, "0123456789abcdefABCDEF") == strlen(name + 1) && name[1]) {
		raw_attr(attr, PERF_TYPE_RAW, strtoull(name + 1, NULL, 16));
		return 0;
	}
	int th = model && model->encoding == ENC_ARMV8 ?
			 encode_arm_threshold(model, pfm, attr, err, errsz) : 0;
	if (th)
		return th < 0 ? -1 : 0;
	if (model && model->encoding == ENC_ARMV8 && (row = model_lookup(model, pfm)) &&
	    row->pfm) {
		raw_attr(attr, type, model_code_config(model, &row->code));
		return 0;
	}
	if (encode_perf(model, name, pfm, type, attr))
		return 0;
	if (pfm_encode(host, pfm, attr, fstr, sizeof(fstr), err, errsz) < 0 &&
	    !(pfm_host_hardware(host) && generic_hardware(pfm, attr))) {
		if (own_encoding(model) && model->encoding != ENC_ARMV8)
			snprintf(err, errsz, "event '%s': unknown event (perf's %s events, model "
				 "%s; cyctop list events --model %s)", name, model->perf_events,
				 model->name, model->name);
		return -1;
	}
	if (type != PERF_TYPE_RAW && attr->type == PERF_TYPE_RAW)
		attr->type = type;  /* the hybrid PMU's own type */
	else if (type != PERF_TYPE_RAW && attr->type == PERF_TYPE_HARDWARE)
		attr->config |= (unsigned long long)type << 32;  /* PERF_PMU_TYPE_SHIFT */
	return 0;
}

/* arm64: raw codes go to the core PMU's own type (pfm_host_core_type). */
static int encode_event_host(struct pfm_host *host, const struct arch_model *model,
			     const char *name, const char *pfm, struct perf_event_attr *attr,
			     char *err, size_t errsz)
{
	uint32_t type;

	if (encode_event(host, model, name, pfm, attr, err, errsz) < 0)
		return -1;
	if (attr->type == PERF_TYPE_RAW && pfm_host_core_type(host, &type))
		attr->type = type;
	return 0;
}

/* The privilege levels asked for after EVENT (":u", ":k", ":u:k", ":u=1",
 * ":upp"): an event found in a model's table is encoded from the table's
 * string, which has none of them.  As perf: naming some levels excludes
 * the others (tools/perf/util/parse-events.c); naming none keeps what the
 * encoding says. */
static void apply_privilege(const char *asked, struct perf_event_attr *attr)
{
	bool u = false, k = false, h = false;
	const char *p = strchr(asked, ':');

	while (p) {
		const char *tok = p + 1;
		size_t len = strcspn(tok, ":");
		if (len == 3 && tok[1] == '=' && tok[2] == '1')
			len = 1;  /* libpfm4's u=1, k=1 */
		if (len && strspn(tok, "ukhp") >= len && strcspn(tok, "ukh") < len) {
			for (size_t i = 0; i < len; i++) {
				u |= tok[i] == 'u';
				k |= tok[i] == 'k';
				h |= tok[i] == 'h';
			}
		}
		p = strchr(tok, ':');
	}
	if (!u && !k && !h)
		return;
	attr->exclude_user = !u;
	attr->exclude_kernel = !k;
	attr->exclude_hv = !h;
}

static int add_event(struct ev_list *out, const char *asked, const char *name,
		     const char *pfm, uint64_t sav, char *err, size_t errsz)
{
	struct ev_spec *ev;
	char perr[256];

	for (int i = 0; i < out->n; i++)
		if (strcmp(out->ev[i].pfm, pfm) == 0 && strcmp(out->ev[i].name, name) == 0)
			return 0; /* a preset and an explicit event may overlap */
	if (out->n == EVENTS_MAX) {
		snprintf(err, errsz, "too many events (at most %d)", EVENTS_MAX);
		return -1;
	}
	ev = &out->ev[out->n];
	memset(ev, 0, sizeof(*ev));
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	snprintf(ev->asked, sizeof(ev->asked), "%s", asked);
	snprintf(ev->pfm, sizeof(ev->pfm), "%s", pfm);
	if (encode_event_host(out->host, out->model, asked, pfm, &ev->attr, perr, sizeof(perr)) < 0) {
		const struct arch_model *owner = hardware_owner(name);
		if (owner && !pfm_host_hardware(out->host) && !strstr(perr, "has no PMU '"))
			snprintf(err, errsz, "event '%s' is a hardware event of the %s model; this "
				 "host has no hardware PMU (software events only)", name, owner->name);
		else
			snprintf(err, errsz, "%s", perr);
		return -1;
	}
	apply_privilege(asked, &ev->attr);
	ev->software = ev->attr.type == PERF_TYPE_SOFTWARE;
	ev->sav = sav ? sav : events_default_sav(ev, out->model);
	if (!sav && events_default_freq(ev, out->model)) {
		/* perf record's and perf top's default: -F 4000 */
		ev->attr.freq = 1;
		ev->attr.sample_freq = EVENTS_DEFAULT_FREQ;
	}
	out->n++;
	return 0;
}

/* @ilp on Arm: the sweep is the host's (arch/ilp.h), CPU_CYCLES and
 * EVENT:th=1..W, W the model's width (its pipeline_width; all of the arm
 * tree's steps where the tables give none), or one line why there is none. */
static int add_arm_ilp(struct ev_list *out, char *err, size_t errsz)
{
	const struct arch_model *m = out->model;
	struct host_pmus h;
	char name[EVENT_NAME_MAX];

	host_pmus_read(&h);
	const struct arm_threshold *th = h.ncore ? &h.core[0].threshold : NULL;
	int w = arm_ilp_width(m, th, m->pipeline_width > 0 ? 0 : ARM_ILP_STEPS);
	if (w < 1) {
		snprintf(err, errsz, "preset @ilp: %s (model %s, PMU %s)", m->no_ilp, m->name,
			 h.ncore ? h.core[0].dev : "none");
		return -1;
	}
	if (add_event(out, m->cycles, m->cycles, m->cycles, 0, err, errsz) < 0)
		return -1;
	for (int k = 1; k <= w; k++) {
		snprintf(name, sizeof(name), "%s:th=%d", arm_ilp_event(m), k);
		if (add_event(out, name, name, name, 0, err, errsz) < 0)
			return -1;
	}
	return 0;
}

static int add_preset(struct ev_list *out, const char *name, char *err, size_t errsz)
{
	if (out->model && out->model->encoding == ENC_ARMV8 && out->model->no_ilp &&
	    strcasecmp(name, "@ilp") == 0)
		return add_arm_ilp(out, err, errsz);

	const struct preset *p = preset_find_for(name, out->model);
	const struct arch_event *rows[PRESET_MAX_EVENTS];
	uint32_t savs[PRESET_MAX_EVENTS];

	if (!p) {
		snprintf(err, errsz, "unknown preset '%s' (cyctop list presets)", name);
		return -1;
	}
	int n = preset_resolve(p, out->model, rows, savs, err, errsz);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		char primary[EVENT_NAME_MAX];
		snprintf(primary, sizeof(primary), "%s", rows[i]->name);
		primary[strcspn(primary, "|")] = '\0';
		if (!rows[i]->pfm) {
			snprintf(err, errsz, "preset %s: %s cannot be counted on this host", name,
				 primary);
			return -1;
		}
		if (add_event(out, primary, primary, rows[i]->pfm, savs[i], err, errsz) < 0)
			return -1;
	}
	return 0;
}

/* "cycles" on a host without a PMU counts cpu-clock instead, and says so
 * (not under an Arm model, which names a PMU as a forced x86 model does). */
static const char *fallback(struct ev_list *out, const char *name)
{
	if (!out->exact && !pfm_host_hardware(out->host) && !own_encoding(out->model) && (strcasecmp(name, "cycles") == 0 ||
				strcasecmp(name, "cpu-cycles") == 0)) {
		snprintf(out->notice, sizeof(out->notice),
			 "no hardware PMU on this host: counting cpu-clock instead of %s", name);
		return "cpu-clock";
	}
	return name;
}

/* Whether NAME is perf's name of another event than ROW on MODEL (spr's
 * table aliases CYCLE_ACTIVITY.STALLS_L1D_MISS to MEMORY_ACTIVITY's row;
 * perf's sapphirerapids JSON has an event of that name): perf's name wins. */
static bool perf_other_event(const struct arch_model *model, const char *name,
			     const struct arch_event *row)
{
	struct arch_code code;

	return model_perf_code(model, name, &code, NULL, NULL) &&
	       model_code_config(model, &code) != model_code_config(model, &row->code);
}

/* off-cpu: the software event context-switches sampled at every switch
 * (period 1), each sample weighing the nanoseconds its thread was away
 * (engine/offcpu-session.c). */
static int add_offcpu(struct ev_list *out, uint64_t sav, char *err, size_t errsz)
{
	if (sav) {
		snprintf(err, errsz, "event 'off-cpu' takes no /SAV (every switch is sampled)");
		return -1;
	}
	if (add_event(out, "context-switches", "off-cpu", "context-switches", 1, err, errsz) < 0)
		return -1;
	snprintf(out->ev[out->n - 1].asked, sizeof(out->ev[0].asked), "off-cpu");
	out->ev[out->n - 1].offcpu = true;
	return 0;
}

static int parse_one(struct ev_list *out, char *item, char *err, size_t errsz)
{
	uint64_t sav = 0;
	char *slash = strrchr(item, '/');

	/* EVENT/SAV; perf's PMU/.../ syntax has its slash last too, so only a
	 * number after the last slash is a SAV. */
	if (slash && slash[1] && strspn(slash + 1, "0123456789") == strlen(slash + 1)) {
		if (slash == item) {
			snprintf(err, errsz, "event '%s': no event name before the /SAV", item);
			return -1;
		}
		errno = 0;
		sav = strtoull(slash + 1, NULL, 10);
		if (errno || sav == 0) {
			snprintf(err, errsz, "event '%s': the sample-after value must be > 0", item);
			return -1;
		}
		*slash = '\0';
	}
	if (!*item) {
		snprintf(err, errsz, "empty event name in the event list");
		return -1;
	}
	if (strcasecmp(item, "off-cpu") == 0)
		return add_offcpu(out, sav, err, errsz);
	if (item[0] == '@') {
		if (sav) {
			snprintf(err, errsz, "preset '%s' takes no /SAV (its SAVs are the paper's)",
				 item);
			return -1;
		}
		return add_preset(out, item, err, errsz);
	}
	const char *name = fallback(out, item);
	const struct arch_event *row = model_lookup(out->model, name);
	if (row && perf_other_event(out->model, name, row))
		row = NULL;  /* perf's event by that name, under its own name */
	struct perf_pmu_event perf;
	char primary[EVENT_NAME_MAX];
	if (row && event_perf_syntax(name, &perf) && strcmp(perf.pmu, "cpu") != 0)
		/* hybrid: cpu_core and cpu_atom counts stay apart */
		snprintf(primary, sizeof(primary), "%s/%.*s/", perf.pmu,
			 (int)strcspn(row->name, "|"), row->name);
	else
		snprintf(primary, sizeof(primary), "%.*s", (int)strcspn(row ? row->name : name, "|"),
			 row ? row->name : name);
	if (row && !row->pfm) {
		snprintf(err, errsz, "event '%s' has no encoding on this host", item);
		return -1;
	}
	return add_event(out, name, primary, row ? row->pfm : name, sav, err, errsz);
}

/* Where item P ends: at the next comma, except inside perf's PMU syntax
 * (cpu/event=0xb1,umask=0x1/), whose closing slash comes first.  An item
 * EVENT/SAV has digits only after its slash. */
static char *item_end(char *p)
{
	char *comma = strchr(p, ',');
	char *slash = strchr(p, '/');

	if (!slash || (comma && comma < slash))
		return comma;
	size_t digits = strspn(slash + 1, "0123456789");
	if (digits && (slash[1 + digits] == ',' || slash[1 + digits] == '\0'))
		return comma;
	char *close = strchr(slash + 1, '/');
	return close ? strchr(close, ',') : comma;
}

int events_foreach(const char *list, events_item_fn fn, void *arg, char *err, size_t errsz)
{
	char buf[2048];

	if (!list || !*list) {
		snprintf(err, errsz, "empty event list");
		return -1;
	}
	if (strlen(list) >= sizeof(buf)) {
		snprintf(err, errsz, "event list too long");
		return -1;
	}
	strcpy(buf, list);
	/* not strtok: "a,,b" has an empty item, a typo to report */
	for (char *item = buf, *next; item; item = next) {
		next = item_end(item);
		if (next)
			*next++ = '\0';
		while (isspace((unsigned char)*item))
			item++;
		if (!*item) {
			snprintf(err, errsz, "empty event name in the event list '%s'", list);
			return -1;
		}
		if (fn(item, arg, err, errsz) < 0)
			return -1;
	}
	return 0;
}

static int parse_item(char *item, void *arg, char *err, size_t errsz)
{
	return parse_one(arg, item, err, errsz);
}

static int parse_list(const char *list, const struct arch_model *model, struct pfm_host *host,
		      bool exact, struct ev_list *out, char *err, size_t errsz)
{
	memset(out, 0, sizeof(*out));
	out->model = model;
	out->host = host;
	out->exact = exact;
	if (events_foreach(list, parse_item, out, err, errsz) < 0)
		return -1;
	if (out->n == 0) {
		snprintf(err, errsz, "empty event list");
		return -1;
	}
	return 0;
}

int events_parse(const char *list, const struct arch_model *model, struct pfm_host *host,
		 struct ev_list *out, char *err, size_t errsz)
{
	return parse_list(list, model, host, false, out, err, errsz);
}

int events_encode(const char *list, const struct arch_model *model, struct pfm_host *host,
		  struct ev_list *out, char *err, size_t errsz)
{
	return parse_list(list, model, host, true, out, err, errsz);
}
