/* Model lookup and event-name canonicalization. */
#include "arch/model.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern const struct arch_model model_core2, model_amd64_k8, model_amd64_fam10h,
	model_ia64, model_perf;

static const struct arch_model *const all_models[] = {
	&model_core2, &model_amd64_k8, &model_amd64_fam10h, &model_ia64, &model_perf,
};

static const char *const tree_names[TREE_COUNT] = {
	"core2", "ia64", "amd", "sw", "intel", "topdown", "zen",
};

const char *tree_name(enum arch_tree tree)
{
	return tree >= 0 && tree < TREE_COUNT ? tree_names[tree] : "none";
}

enum arch_tree tree_from_name(const char *name)
{
	for (int t = 0; t < TREE_COUNT; t++)
		if (strcasecmp(name, tree_names[t]) == 0)
			return (enum arch_tree)t;
	return TREE_NONE;
}

const struct arch_model *model_at(size_t i)
{
	return i < sizeof(all_models) / sizeof(all_models[0]) ? all_models[i] : NULL;
}

/* Accepts our model names and any libpfm4 PMU name the model covers
 * (amd64_k8_revg, amd64_fam10h_barcelona...). */
const struct arch_model *model_find(const char *name)
{
	const struct arch_model *m;

	for (size_t i = 0; (m = model_at(i)) != NULL; i++) {
		if (strcasecmp(name, m->name) == 0)
			return m;
		/* whole words only: "core" covers core, not libpfm4's coreduo */
		size_t pl = strlen(m->pmu_prefix);
		if (strncasecmp(name, m->pmu_prefix, pl) == 0 &&
		    (name[pl] == '\0' || name[pl] == '_'))
			return m;
	}
	return NULL;
}

/* perf's cpuid strings: "GenuineIntel,FAMILY,MODEL,STEPPING" and
 * "AuthenticAMD,FAMILY,MODEL,STEPPING" (tools/perf/arch/x86/util/header.c).
 * Core2 is family 6, models 15 (Merom), 22 (Merom-L), 23 (Penryn) and 29
 * (Dunnington) (Intel SDM vol. 3B, table 19 "Core 2" event lists; libpfm4's
 * pfmlib_intel_core.c accepts the same models); AMD K8 is family 15 (0Fh),
 * Family 10h is 16. */
const struct arch_model *model_from_cpuid(const char *cpuid)
{
	static const int core2_models[] = { 15, 22, 23, 29 };
	char vendor[16];
	int family, model;

	if (!cpuid || sscanf(cpuid, "%15[^,],%d,%d", vendor, &family, &model) != 3)
		return NULL;
	if (!strcmp(vendor, "GenuineIntel") && family == 6)
		for (size_t i = 0; i < sizeof(core2_models) / sizeof(core2_models[0]); i++)
			if (model == core2_models[i])
				return model_find("core");
	if (!strcmp(vendor, "AuthenticAMD") && family == 15)
		return model_find("amd64_k8");
	if (!strcmp(vendor, "AuthenticAMD") && family == 16)
		return model_find("amd64_fam10h");
	return NULL;
}

const struct arch_model *model_for_tree(enum arch_tree tree)
{
	const struct arch_model *m;

	for (size_t i = 0; (m = model_at(i)) != NULL; i++)
		if (m->tree == tree)
			return m;
	return NULL;
}

void model_foreach(const struct arch_model *model, model_visit_fn fn, void *arg)
{
	for (const struct arch_event *const *t = model->tables; *t; t++)
		for (const struct arch_event *ev = *t; ev->name; ev++)
			fn(ev, arg);
}

bool event_fits_counter(const struct arch_event *ev, int idx)
{
	return ev->counters == 0 || (ev->counters & (1u << idx)) != 0;
}

/* --- canonical spelling ------------------------------------------------ */

#define CANON_MAX_PARTS 16

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void upcase(char *s)
{
	for (; *s; s++)
		*s = (char)toupper((unsigned char)*s);
}

/* Privilege and sampling modifiers do not change which event is counted. */
static bool is_plm_modifier(const char *key)
{
	static const char *const plm[] = { "U", "K", "H", "MG", "MH", "EXCL", "PRECISE",
		"PERIOD", "FREQ", "G", "P", "PP" };
	for (size_t i = 0; i < sizeof(plm) / sizeof(plm[0]); i++)
		if (strcmp(key, plm[i]) == 0)
			return true;
	return false;
}

static const char *modifier_key(const char *key)
{
	if (strcmp(key, "CMASK") == 0)
		return "C";
	if (strcmp(key, "INV") == 0)
		return "I";
	if (strcmp(key, "EDGE") == 0)
		return "E";
	return key;
}

bool event_canon(const char *name, char *out, size_t outsz)
{
	char buf[256], *parts[CANON_MAX_PARTS], *umasks[CANON_MAX_PARTS];
	long cmask = 0, inv = 0, edge = 0;
	int np = 0, nu = 0;

	if (!name || !*name || strlen(name) >= sizeof(buf))
		return false;
	strcpy(buf, name);
	upcase(buf);
	/* The papers write EVENT.UMASK[.UMASK]; libpfm4 writes EVENT:UMASK. */
	char *colon = strchr(buf, ':');
	for (char *p = buf; *p && (!colon || p < colon); p++)
		if (*p == '.')
			*p = ':';
	for (char *tok = strtok(buf, ":"); tok; tok = strtok(NULL, ":")) {
		if (np == CANON_MAX_PARTS)
			return false;
		parts[np++] = tok;
	}
	if (np == 0)
		return false;
	for (int i = 1; i < np; i++) {
		char *eq = strchr(parts[i], '=');
		if (!eq) {
			if (!is_plm_modifier(parts[i]))
				umasks[nu++] = parts[i];
			continue;
		}
		*eq = '\0';
		const char *key = modifier_key(parts[i]);
		char *end;
		long v = strtol(eq + 1, &end, 0);
		if (*end || end == eq + 1)
			return false;
		if (strcmp(key, "C") == 0)
			cmask = v;
		else if (strcmp(key, "I") == 0)
			inv = v;
		else if (strcmp(key, "E") == 0)
			edge = v;
		else if (!is_plm_modifier(key))
			return false;
	}
	qsort(umasks, (size_t)nu, sizeof(umasks[0]), cmp_str);
	size_t n = (size_t)snprintf(out, outsz, "%s", parts[0]);
	for (int i = 0; i < nu && n < outsz; i++)
		n += (size_t)snprintf(out + n, outsz - n, ":%s", umasks[i]);
	if (cmask && n < outsz)
		n += (size_t)snprintf(out + n, outsz - n, ":C=%ld", cmask);
	if (edge && n < outsz)
		n += (size_t)snprintf(out + n, outsz - n, ":E=1");
	if (inv && n < outsz)
		n += (size_t)snprintf(out + n, outsz - n, ":I=1");
	return n < outsz;
}

bool event_raw_decode(const char *name, struct arch_code *code)
{
	char *end;

	if (!name || (name[0] != 'r' && name[0] != 'R') || !isxdigit((unsigned char)name[1]))
		return false;
	errno = 0;
	unsigned long long v = strtoull(name + 1, &end, 16);
	if ((*end && *end != ':') || errno == ERANGE)
		return false;
	/* PERFEVTSEL layout; AMD keeps event select bits 11:8 in 35:32. */
	code->sel = (uint16_t)((v & 0xff) | ((v >> 24) & 0xf00));
	code->umask = (uint8_t)(v >> 8);
	code->edge = (v >> 18) & 1;
	code->inv = (v >> 23) & 1;
	code->cmask = (uint8_t)(v >> 24);
	return true;
}

static bool code_equal(const struct arch_code *a, const struct arch_code *b)
{
	return a->sel == b->sel && a->umask == b->umask && a->cmask == b->cmask &&
	       a->inv == b->inv && a->edge == b->edge;
}

/* Paper names may carry alternate spellings after '|'. */
static bool name_matches(const char *names, const char *want)
{
	size_t wl = strlen(want);

	for (const char *p = names; p && *p;) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);
		if (len == wl && strncasecmp(p, want, wl) == 0)
			return true;
		p = bar ? bar + 1 : NULL;
	}
	return false;
}

static bool canon_matches(const char *a, const char *canon_b)
{
	char ca[256];

	return a && event_canon(a, ca, sizeof(ca)) && strcmp(ca, canon_b) == 0;
}

static bool is_hw_model(const struct arch_model *model)
{
	return model->pfm_force != NULL;
}

const struct arch_event *model_lookup(const struct arch_model *model, const char *name)
{
	char canon[256];
	struct arch_code raw;
	const struct arch_event *const *t;
	const struct arch_event *ev;

	for (t = model->tables; *t; t++)
		for (ev = *t; ev->name; ev++)
			if (name_matches(ev->name, name))
				return ev;
	if (event_canon(name, canon, sizeof(canon)))
		for (t = model->tables; *t; t++)
			for (ev = *t; ev->name; ev++)
				if (canon_matches(ev->pfm, canon) || canon_matches(ev->name, canon))
					return ev;
	if (is_hw_model(model) && event_raw_decode(name, &raw))
		for (t = model->tables; *t; t++)
			for (ev = *t; ev->name; ev++)
				if (ev->pfm && code_equal(&ev->code, &raw))
					return ev;
	return NULL;
}
