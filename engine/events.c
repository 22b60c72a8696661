#include "engine/events.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arch/preset.h"
#include "engine/pfm.h"

const struct arch_model *events_host_model(void)
{
	char err[256];
	const struct arch_model *m = NULL;

	if (pfm_setup(NULL, err, sizeof(err)) == 0 && pfm_host_pmu())
		m = model_find(pfm_host_pmu());
	return m ? m : model_find("perf");
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

static int add_event(struct ev_list *out, const char *name, const char *pfm, uint64_t sav,
		     char *err, size_t errsz)
{
	struct ev_spec *ev;
	char fstr[512], perr[256];

	for (int i = 0; i < out->n; i++)
		if (strcmp(out->ev[i].pfm, pfm) == 0)
			return 0; /* a preset and an explicit event may overlap */
	if (out->n == EVENTS_MAX) {
		snprintf(err, errsz, "too many events (at most %d)", EVENTS_MAX);
		return -1;
	}
	ev = &out->ev[out->n];
	memset(ev, 0, sizeof(*ev));
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	snprintf(ev->pfm, sizeof(ev->pfm), "%s", pfm);
	if (pfm_encode(pfm, &ev->attr, fstr, sizeof(fstr), perr, sizeof(perr)) < 0) {
		const struct arch_model *owner = hardware_owner(name);
		if (owner && !pfm_host_hardware())
			snprintf(err, errsz, "event '%s' is a hardware event of the %s model; this "
				 "host has no hardware PMU (software events only)", name, owner->name);
		else
			snprintf(err, errsz, "%s", perr);
		return -1;
	}
	ev->software = ev->attr.type == PERF_TYPE_SOFTWARE;
	ev->sav = sav ? sav : events_default_sav(ev, out->model);
	out->n++;
	return 0;
}

static int add_preset(struct ev_list *out, const char *name, char *err, size_t errsz)
{
	const struct preset *p = preset_find(name);
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
		if (add_event(out, primary, rows[i]->pfm, savs[i], err, errsz) < 0)
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
	char primary[EVENT_NAME_MAX];
	snprintf(primary, sizeof(primary), "%s", row ? row->name : name);
	primary[strcspn(primary, "|")] = '\0';
	if (row && !row->pfm) {
		snprintf(err, errsz, "event '%s' has no encoding on this host", item);
		return -1;
	}
	return add_event(out, primary, row ? row->pfm : name, sav, err, errsz);
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
		next = strchr(item, ',');
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
