#include "engine/events.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arch/preset.h"
#include "engine/host.h"
#include "engine/pfm.h"

const struct arch_model *events_host_model(void)
{
	char err[256];
	const struct arch_model *m = NULL;

	if (pfm_setup(NULL, err, sizeof(err)) == 0 && pfm_host_pmu())
		m = model_find(pfm_host_pmu());
	if (!m)
		m = pfm_host_midr_model();  /* arm64: a core libpfm4 does not name */
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

uint64_t events_default_sav(const struct ev_spec *ev, const struct arch_model *model)
{
	const struct arch_event *row = model_lookup(model, ev->name);

	if (ev->attr.type == PERF_TYPE_SOFTWARE) {
		if (ev->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
		    ev->attr.config == PERF_COUNT_SW_TASK_CLOCK)
			return 1000000; /* ns: 1 kHz */
		return 1;
	}
	if (row && row->sav)
		return row->sav;
	return 2000000;
}

/* The hardware model whose table has NAME, if any. */
static const struct arch_model *hardware_owner(const char *name)
{
	const struct arch_model *m;

	for (size_t i = 0; (m = model_at(i)) != NULL; i++)
		if (m->pfm_force && model_lookup(m, name))
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

/* NAME's attr: perf's PMU syntax and rNNNN raw codes directly, everything
 * else through libpfm4 (and arch/pfm-fix.c) as PFM, the model row's string
 * when NAME is a row. */
static int encode_event(const char *name, const char *pfm, struct perf_event_attr *attr,
			char *err, size_t errsz)
{
	struct perf_pmu_event perf;
	uint32_t type = PERF_TYPE_RAW;
	char fstr[512];

	if (event_perf_syntax(name, &perf)) {
		if (!pmu_type(perf.pmu, &type, name, err, errsz))
			return -1;
		if (perf.has_event) {
			raw_attr(attr, type, event_code_config(&perf.code));
			return 0;
		}
		if (pfm == name)
			pfm = perf.name;
	} else if ((name[0] == 'r' || name[0] == 'R') && pfm == name &&
		   strspn(name + 1, "0123456789abcdefABCDEF") == strlen(name + 1) && name[1]) {
		raw_attr(attr, PERF_TYPE_RAW, strtoull(name + 1, NULL, 16));
		return 0;
	}
	if (pfm_encode(pfm, attr, fstr, sizeof(fstr), err, errsz) < 0 &&
	    !(pfm_host_hardware() && generic_hardware(pfm, attr)))
		return -1;
	if (type != PERF_TYPE_RAW && attr->type == PERF_TYPE_RAW)
		attr->type = type;  /* the hybrid PMU's own type */
	else if (type != PERF_TYPE_RAW && attr->type == PERF_TYPE_HARDWARE)
		attr->config |= (unsigned long long)type << 32;  /* PERF_PMU_TYPE_SHIFT */
	return 0;
}

/* arm64: raw codes go to the core PMU's own type (pfm_host_core_type). */
static int encode_event_host(const char *name, const char *pfm, struct perf_event_attr *attr,
			     char *err, size_t errsz)
{
	uint32_t type;

	if (encode_event(name, pfm, attr, err, errsz) < 0)
		return -1;
	if (attr->type == PERF_TYPE_RAW && pfm_host_core_type(&type))
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
	if (encode_event_host(asked, pfm, &ev->attr, perr, sizeof(perr)) < 0) {
		const struct arch_model *owner = hardware_owner(name);
		if (owner && !pfm_host_hardware() && !strstr(perr, "has no PMU '"))
			snprintf(err, errsz, "event '%s' is a hardware event of the %s model; this "
				 "host has no hardware PMU (software events only)", name, owner->name);
		else
			snprintf(err, errsz, "%s", perr);
		return -1;
	}
	apply_privilege(asked, &ev->attr);
	ev->software = ev->attr.type == PERF_TYPE_SOFTWARE;
	ev->sav = sav ? sav : events_default_sav(ev, out->model);
	out->n++;
	return 0;
}

static int add_preset(struct ev_list *out, const char *name, char *err, size_t errsz)
{
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

/* "cycles" on a host without a PMU counts cpu-clock instead, and says so. */
static const char *fallback(struct ev_list *out, const char *name)
{
	if (!pfm_host_hardware() && (strcasecmp(name, "cycles") == 0 ||
				strcasecmp(name, "cpu-cycles") == 0)) {
		snprintf(out->notice, sizeof(out->notice),
			 "no hardware PMU on this host: counting cpu-clock instead of %s", name);
		return "cpu-clock";
	}
	return name;
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

int events_parse(const char *list, const struct arch_model *model, struct ev_list *out,
		 char *err, size_t errsz)
{
	memset(out, 0, sizeof(*out));
	out->model = model;
	if (events_foreach(list, parse_item, out, err, errsz) < 0)
		return -1;
	if (out->n == 0) {
		snprintf(err, errsz, "empty event list");
		return -1;
	}
	return 0;
}
