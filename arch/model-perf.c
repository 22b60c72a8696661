/* perf's event names on a model: its generated table of perf's core events
 * (arch/perf-events.h), with the modifiers perf and libpfm4 write. */
#include "arch/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arch/perf-events.h"

const struct perf_events_table *model_perf_table(const struct arch_model *model)
{
	return model ? perf_events_table(model->perf_events) : NULL;
}

/* One modifier "c=6", "cmask=0x6", "i=1", "inv", "e", "edge=1", "t=1",
 * "any"; privilege and sampling ones (u, k, uk, p, pp, period=) change no
 * code.  False for anything else. */
static bool apply_term(const char *t, struct arch_code *c)
{
	char key[16];
	const char *eq = strchr(t, '=');
	size_t kl = eq ? (size_t)(eq - t) : strlen(t);
	char *end;
	unsigned long v = 1;

	if (kl == 0 || kl >= sizeof(key))
		return false;
	memcpy(key, t, kl);
	key[kl] = '\0';
	if (eq) {
		v = strtoul(eq + 1, &end, 0);
		if (end == eq + 1 || *end)
			return false;
	}
	if ((!strcasecmp(key, "c") || !strcasecmp(key, "cmask")) && eq && v <= 0xff)
		c->cmask = (uint8_t)v;
	else if (!strcasecmp(key, "i") || !strcasecmp(key, "inv"))
		c->inv = v != 0;
	else if (!strcasecmp(key, "e") || !strcasecmp(key, "edge"))
		c->edge = v != 0;
	else if (!strcasecmp(key, "t") || !strcasecmp(key, "any"))
		c->any = v != 0;
	else if (!strcasecmp(key, "period") || !strcasecmp(key, "freq") ||
		 !strcasecmp(key, "name") || (!eq && strspn(key, "ukhpPGH") == kl) ||
		 ((!strcasecmp(key, "u") || !strcasecmp(key, "k")) && eq))
		;
	else
		return false;
	return true;
}

static void row_code(const struct arch_model *model, const struct perf_event_row *r,
		     struct arch_code *c)
{
	memset(c, 0, sizeof(*c));
	c->sel = r->sel;
	if (model->encoding == ENC_ARMV8)
		return;
	c->umask = r->umask;
	c->cmask = r->cmask;
	c->inv = r->flags & PERF_EV_INV;
	c->edge = r->flags & PERF_EV_EDGE;
	c->any = r->flags & PERF_EV_ANY;
}

bool model_perf_code(const struct arch_model *model, const char *name, struct arch_code *code,
		     uint64_t *config1, const char **perf_name)
{
	const struct perf_events_table *t = model_perf_table(model);
	char buf[256];
	const struct perf_event_row *r;
	struct perf_pmu_event perf;

	if (!t || !name || strlen(name) >= sizeof(buf))
		return false;
	if (strchr(name, '/')) {
		/* cpu/NAME,cmask=6,inv/ (cpu_core/, cpu_atom/ for hybrid parts) */
		if (!event_perf_syntax(name, &perf) || perf.has_event ||
		    !(r = perf_events_find(t, perf.name)))
			return false;
		row_code(model, r, code);
		if (perf.code.cmask)
			code->cmask = perf.code.cmask;
		code->inv |= perf.code.inv;
		code->edge |= perf.code.edge;
		code->any |= perf.code.any;
	} else {
		/* NAME[:c=1:i=1...] as libpfm4 and cyctop's tables write modifiers */
		strcpy(buf, name);
		char *mods = strchr(buf, ':');
		if (mods)
			*mods++ = '\0';
		if (!(r = perf_events_find(t, buf)))
			return false;
		row_code(model, r, code);
		for (char *m = mods, *next; m; m = next) {
			next = strchr(m, ':');
			if (next)
				*next++ = '\0';
			if (!apply_term(m, code))
				return false;
		}
	}
	if (model->encoding == ENC_ARMV8 && (code->cmask || code->inv || code->edge))
		return false;  /* PMUv3 before FEAT_PMUv3_TH has no threshold */
	if (config1)
		*config1 = perf_event_config1(r);
	if (perf_name)
		*perf_name = perf_event_name(r);
	return true;
}
