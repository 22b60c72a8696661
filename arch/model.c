/* Model lookup and event-name canonicalization. */
#include "arch/model.h"
#include "arch/tree.h"

#include "lib/hashtab.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern const struct arch_model model_core2, model_amd64_k8, model_amd64_fam10h,
	model_ia64, model_perf, model_nhm, model_wsm, model_snb, model_ivb, model_hsw,
	model_bdw, model_skl, model_skx, model_clx, model_icl, model_icx, model_spr,
	model_zen1, model_zen2, model_zen3, model_zen4, model_arm_n1, model_arm_n2, model_arm_v1,
	model_arm_v2, model_arm_ac53, model_arm_ac57, model_arm_ac72, model_arm_ac76,
	model_zen5, model_emr, model_gnr, model_srf, model_adl_grt;

/* Within a tree the first model is its default (model_for_tree): Skylake for
 * the intel tree (every term of it has a direct event), Zen 4 for zen,
 * Neoverse V2 for arm. */
static const struct arch_model *const all_models[] = {
	&model_core2, &model_amd64_k8, &model_amd64_fam10h, &model_ia64, &model_perf,
	&model_skl, &model_nhm, &model_wsm, &model_snb, &model_ivb, &model_hsw, &model_bdw,
	&model_skx, &model_clx, &model_icl, &model_icx, &model_spr, &model_emr, &model_gnr,
	&model_srf, &model_adl_grt,
	&model_zen4, &model_zen1, &model_zen2, &model_zen3, &model_zen5,
	&model_arm_v2, &model_arm_n2, &model_arm_v1, &model_arm_n1, &model_arm_ac76,
	&model_arm_ac72, &model_arm_ac57, &model_arm_ac53,
};

/* Tree names come from the trees' table (arch/tree.c): a tree added there
 * is named, listed and picked everywhere without a second table. */
const char *tree_name(enum arch_tree tree)
{
	const struct tree_def *def = tree >= 0 && tree < TREE_COUNT ? tree_def_get(tree) : NULL;

	return def ? def->name : "none";
}

enum arch_tree tree_from_name(const char *name)
{
	const struct tree_def *def;

	for (size_t i = 0; (def = tree_def_at(i)) != NULL; i++)
		if (strcasecmp(name, def->name) == 0)
			return def->id;
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
		/* "zen4" for amd64_fam19h_zen4 */
		size_t nl = strlen(name), ml = strlen(m->name);
		if (nl > 3 && nl < ml && m->name[ml - nl - 1] == '_' &&
		    strncasecmp(name, "zen", 3) == 0 && strcasecmp(m->name + ml - nl, name) == 0)
			return m;
	}
	return NULL;
}

/* perf's cpuid strings: "GenuineIntel,FAMILY,MODEL,STEPPING" and
 * "AuthenticAMD,FAMILY,MODEL,STEPPING" (tools/perf/arch/x86/util/header.c).
 * Core2 is family 6, models 15 (Merom), 22 (Merom-L), 23 (Penryn) and 29
 * (Dunnington) (Intel SDM vol. 3B, table 19 "Core 2" event lists; libpfm4's
 * pfmlib_intel_core.c accepts the same models); AMD K8 is family 15 (0Fh),
 * Family 10h is 16.  The later Intel models are the ones libpfm4 4.13's
 * pfmlib_intel_{nhm,wsm,snb,ivb,hsw,bdw,skl,icl,spr}.c list for each PMU
 * (Kaby/Coffee/Comet Lake are skl; Tiger/Rocket Lake icl; model 85 is skx before stepping 5, clx from it, as libpfm4's skx/clx
 * split it); Zen by family and model range as pfmlib_amd64.c does (17h:
 * models below 0x30 Zen 1, from 0x30 Zen 2; 19h: 0x10-0x1f, 0x60-0x7f and
 * 0xa0-0xaf Zen 4, the rest Zen 3).  The CPUs after those, which libpfm4
 * 4.13 does not know, as perf's x86/mapfile.csv (Linux 6.12) names them:
 * Emerald Rapids GenuineIntel-6-CF, Granite Rapids 6-A[DE], Sierra Forest
 * 6-AF, Zen 5 AuthenticAMD-26 (family 1Ah). */
struct cpu_model_row {
	int model;
	const char *name;
};

static const struct cpu_model_row intel_models[] = {
	{ 15, "core" }, { 22, "core" }, { 23, "core" }, { 29, "core" },
	{ 26, "nhm" }, { 30, "nhm" }, { 31, "nhm" }, { 46, "nhm" },
	{ 37, "wsm" }, { 44, "wsm" }, { 47, "wsm" },
	{ 42, "snb" }, { 45, "snb" }, { 58, "ivb" }, { 62, "ivb" },
	{ 60, "hsw" }, { 63, "hsw" }, { 69, "hsw" }, { 70, "hsw" },
	{ 61, "bdw" }, { 71, "bdw" }, { 79, "bdw" }, { 86, "bdw" },
	{ 78, "skl" }, { 94, "skl" }, { 142, "skl" }, { 158, "skl" }, { 165, "skl" },
	{ 166, "skl" }, { 85, "skx" },
	{ 125, "icl" }, { 126, "icl" }, { 140, "icl" }, { 141, "icl" }, { 167, "icl" },
	{ 106, "icx" }, { 108, "icx" }, { 143, "spr" }, { 207, "emr" },
	{ 173, "gnr" }, { 174, "gnr" }, { 175, "srf" },
};

static const struct arch_model *amd_zen(int family, int model)
{
	if (family == 0x17)
		return model_find(model < 0x30 ? "amd64_fam17h_zen1" : "amd64_fam17h_zen2");
	if (family == 0x1a)
		return model_find("amd64_fam1ah_zen5");
	if (family == 0x19) {
		bool zen4 = (model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0x7f) ||
			    (model >= 0xa0 && model <= 0xaf);
		return model_find(zen4 ? "amd64_fam19h_zen4" : "amd64_fam19h_zen3");
	}
	return NULL;
}

/* Arm cores by MIDR_EL1 implementer and part number (Linux
 * arch/arm64/include/asm/cputype.h: ARM_CPU_IMP_ARM 0x41,
 * ARM_CPU_PART_CORTEX_A53 0xD03, _A57 0xD07, _A72 0xD08, _A76 0xD0B,
 * _NEOVERSE_N1 0xD0C, _NEOVERSE_V1 0xD40, _NEOVERSE_N2 0xD49,
 * _NEOVERSE_V2 0xD4F); the same parts perf's arch/arm64/mapfile.csv maps to
 * cortex-a53, cortex-a57-a72, cortex-a76-n1, neoverse-n1, neoverse-v1 and
 * neoverse-n2-v2. */
static const struct { unsigned implementer, part; const char *name; } midr_models[] = {
	{ 0x41, 0xd03, "arm_ac53" }, { 0x41, 0xd07, "arm_ac57" }, { 0x41, 0xd08, "arm_ac72" },
	{ 0x41, 0xd0b, "arm_ac76" }, { 0x41, 0xd0c, "arm_n1" }, { 0x41, 0xd40, "arm_v1" },
	{ 0x41, 0xd49, "arm_n2" }, { 0x41, 0xd4f, "arm_v2" },
};

const struct arch_model *model_from_midr(unsigned implementer, unsigned part)
{
	for (size_t i = 0; i < sizeof(midr_models) / sizeof(midr_models[0]); i++)
		if (midr_models[i].implementer == implementer && midr_models[i].part == part)
			return model_find(midr_models[i].name);
	return NULL;
}

/* perf's arm64 cpuid is MIDR_EL1 as "0x%016lx" (tools/perf/arch/arm64/util/
 * header.c, _get_cpuid; the form of pmu-events/arch/arm64/mapfile.csv):
 * implementer bits 31:24, part number 15:4. */
static const struct arch_model *model_from_midr_string(const char *cpuid)
{
	char *end;

	if (strncasecmp(cpuid, "0x", 2) != 0 || !isxdigit((unsigned char)cpuid[2]))
		return NULL;
	errno = 0;
	unsigned long long midr = strtoull(cpuid + 2, &end, 16);
	if (*end || errno)
		return NULL;
	return model_from_midr((unsigned)(midr >> 24) & 0xff, (unsigned)(midr >> 4) & 0xfff);
}

const struct arch_model *model_from_cpuid(const char *cpuid)
{
	char vendor[16];
	int family, model, stepping = 0;

	if (cpuid && strncasecmp(cpuid, "0x", 2) == 0)
		return model_from_midr_string(cpuid);
	if (!cpuid || sscanf(cpuid, "%15[^,],%d,%d,%d", vendor, &family, &model, &stepping) < 3)
		return NULL;
	if (!strcmp(vendor, "GenuineIntel") && family == 6) {
		if (model == 85 && stepping >= 5)
			return model_find("clx");
		for (size_t i = 0; i < sizeof(intel_models) / sizeof(intel_models[0]); i++)
			if (model == intel_models[i].model)
				return model_find(intel_models[i].name);
	}
	if (!strcmp(vendor, "AuthenticAMD") && family == 15)
		return model_find("amd64_k8");
	if (!strcmp(vendor, "AuthenticAMD") && family == 16)
		return model_find("amd64_fam10h");
	if (!strcmp(vendor, "AuthenticAMD"))
		return amd_zen(family, model);
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
	/* Event code 0x00 with a fixed counter is a fixed-only pseudo-encoding
	 * (TOPDOWN.SLOTS 0x0400: core.c FIXED_EVENT_CONSTRAINT(0x0400, 3)). */
	if (ev->fixed >= 0 && ev->code.sel == 0 && ev->pfm)
		return false;
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
	char *save = NULL;
	/* strtok_r: callers may be walking their own strtok lists */
	for (char *tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
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
	code->any = (v >> 21) & 1;
	return true;
}

unsigned long long event_code_config(const struct arch_code *c)
{
	return (unsigned long long)(c->sel & 0xff) | (unsigned long long)c->umask << 8 |
	       (unsigned long long)c->edge << 18 | (unsigned long long)c->any << 21 |
	       (unsigned long long)c->inv << 23 | (unsigned long long)c->cmask << 24 |
	       (unsigned long long)(c->sel >> 8) << 32;
}

static bool is_arm(const struct arch_model *model)
{
	return model && model->encoding == ENC_ARMV8;
}

/* Arm: "r<hex>" is the event number, at most 16 bits (the kernel's armv8
 * PMU format "event=config:0-15", drivers/perf/arm_pmuv3.c). */
bool model_raw_decode(const struct arch_model *model, const char *name, struct arch_code *code)
{
	char *end;

	if (!is_arm(model))
		return event_raw_decode(name, code);
	if (!name || (name[0] != 'r' && name[0] != 'R') || !isxdigit((unsigned char)name[1]))
		return false;
	errno = 0;
	unsigned long long v = strtoull(name + 1, &end, 16);
	if ((*end && *end != ':') || errno == ERANGE || v > 0xffff)
		return false;
	memset(code, 0, sizeof(*code));
	code->sel = (uint16_t)v;
	return true;
}

unsigned long long model_code_config(const struct arch_model *model, const struct arch_code *c)
{
	return is_arm(model) ? c->sel : event_code_config(c);
}

/* --- perf's PMU syntax: cpu/event=0xb1,umask=0x1,cmask=1,inv/ ------------ */

static bool parse_num(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;

	if (!*s)
		return false;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return !*end && errno == 0 && *out <= max;
}

/* One term "key=value" or "key" (a flag, or the event name if first). */
static bool perf_term(char *term, bool first, struct perf_pmu_event *out)
{
	char *eq = strchr(term, '=');
	unsigned long long v = 1;
	struct arch_code raw;

	if (eq)
		*eq++ = '\0';
	if (eq && !parse_num(eq, ~0ULL, &v) && strcasecmp(term, "name") != 0)
		return false;
	/* 12 bits on x86, 16 on Arm; a number no row has finds none */
	if (!strcasecmp(term, "event") && v <= 0xffff)
		out->code.sel = (uint16_t)v, out->has_event = true;
	else if (!strcasecmp(term, "umask") && v <= 0xff)
		out->code.umask = (uint8_t)v;
	else if ((!strcasecmp(term, "cmask") || !strcasecmp(term, "c")) && v <= 0xff)
		out->code.cmask = (uint8_t)v;
	else if (!strcasecmp(term, "inv") || !strcasecmp(term, "i"))
		out->code.inv = v != 0;
	else if (!strcasecmp(term, "edge") || !strcasecmp(term, "e"))
		out->code.edge = v != 0;
	else if (!strcasecmp(term, "any") || !strcasecmp(term, "t"))
		out->code.any = v != 0;
	else if (!strcasecmp(term, "config")) {
		char hex[24];
		snprintf(hex, sizeof(hex), "r%llx", v);
		if (!event_raw_decode(hex, &raw))
			return false;
		out->code = raw;
		out->has_event = true;
		out->has_config = true;
		out->config = v;
	} else if (!strcasecmp(term, "name") || !strcasecmp(term, "period") ||
		   !strcasecmp(term, "freq"))
		;  /* perf's naming and sampling terms: not the event */
	else if (first && !eq && !out->name[0])
		snprintf(out->name, sizeof(out->name), "%s", term);
	else
		return false;
	return true;
}

bool event_perf_syntax(const char *name, struct perf_pmu_event *out)
{
	char buf[256];
	const char *slash = name ? strchr(name, '/') : NULL;
	size_t len;

	memset(out, 0, sizeof(*out));
	if (!slash || slash == name || (size_t)(slash - name) >= sizeof(out->pmu))
		return false;
	len = strlen(name);
	/* perf allows modifiers after the closing slash (cpu/.../u): ignored */
	const char *close = strrchr(name, '/');
	if (close == slash || len >= sizeof(buf))
		return false;
	memcpy(out->pmu, name, (size_t)(slash - name));
	memcpy(buf, slash + 1, (size_t)(close - slash - 1));
	buf[close - slash - 1] = '\0';
	bool first = true;
	for (char *t = buf, *next; t; t = next, first = false) {
		next = strchr(t, ',');
		if (next)
			*next++ = '\0';
		if (!*t || !perf_term(t, first, out))
			return false;
	}
	return out->has_event || out->name[0];
}

bool event_is_metric(const struct arch_model *model, const struct arch_event *ev)
{
	/* topdown-* are the kernel's pseudo-encodings event 0x00, umask 0x80..0x87
	 * (arch/x86/events/intel/core.c EVENT_ATTR_STR(topdown-retiring,
	 * "event=0x00,umask=0x80") ...). */
	return model->n_metrics > 0 && ev->pfm && ev->code.sel == 0 &&
	       ev->code.umask >= 0x80 && ev->code.umask < 0x80 + model->n_metrics;
}

static bool code_equal(const struct arch_code *a, const struct arch_code *b)
{
	return a->sel == b->sel && a->umask == b->umask && a->cmask == b->cmask &&
	       a->inv == b->inv && a->edge == b->edge && a->any == b->any;
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

/* Per model, every canonical spelling of its rows (libpfm4 string first,
 * then the names), each to the first row that has it: built once by the
 * index's owner, so a lookup is one probe, not a canonicalization of every
 * row. */
struct canon_index {
	const struct arch_model *model;
	struct hashtab index;  /* canonical spellings */
	struct hashtab names;  /* the tables' names as spelled, lower case */
	const char **keys;
	const struct arch_event **rows;
	size_t n, keys_alloc, rows_alloc;
};

/* What model_index_lookup keeps (arch/ keeps nothing): the canonical forms
 * of the tables' strings (the tables are static data, so a string's
 * address keys them) and each model's canon_index. */
struct model_index {
	struct hashtab index;
	const char **src, **canon;
	size_t n, src_alloc, canon_alloc;
	struct strpool pool;
	struct canon_index *models;
	size_t n_models, models_alloc;
};

struct model_index *model_index_new(void)
{
	return calloc(1, sizeof(struct model_index));
}

void model_index_free(struct model_index *ix)
{
	if (!ix)
		return;
	for (size_t i = 0; i < ix->n_models; i++) {
		hashtab_free(&ix->models[i].index);
		hashtab_free(&ix->models[i].names);
		free(ix->models[i].keys);
		free(ix->models[i].rows);
	}
	free(ix->models);
	hashtab_free(&ix->index);
	free(ix->src);
	free(ix->canon);
	strpool_free(&ix->pool);
	free(ix);
}

static bool same_src(const void *key, uint32_t idx, const void *ctx)
{
	return ((const struct model_index *)ctx)->src[idx] == key;
}

/* The canonical forms of the '|' spellings of table string A, each ended by
 * a newline ("" for one that does not fit), computed once per string into
 * IX.  NULL when out of memory. */
static const char *canon_list(struct model_index *ix, const char *a)
{
	uint64_t h = hash_mix((uintptr_t)a);
	uint32_t i = hashtab_find(&ix->index, h, a, same_src, ix);
	char list[1024], one[256], ca[256];
	size_t used = 0;

	if (i != HASHTAB_NONE)
		return ix->canon[i];
	list[0] = '\0';
	for (const char *p = a; p && *p;) {
		size_t len = strcspn(p, "|");
		ca[0] = '\0';
		if (len < sizeof(one)) {
			memcpy(one, p, len);
			one[len] = '\0';
			if (!event_canon(one, ca, sizeof(ca)))
				ca[0] = '\0';
		}
		int w = snprintf(list + used, sizeof(list) - used, "%s\n", ca);
		if (w < 0 || (size_t)w >= sizeof(list) - used)
			return NULL;  /* a longer list than any table has: not memoized */
		used += (size_t)w;
		p = p[len] ? p + len + 1 : NULL;
	}
	const char *c = strpool_intern(&ix->pool, list);
	if (!c || GROW(ix->src, ix->n + 1, ix->src_alloc) < 0 ||
	    GROW(ix->canon, ix->n + 1, ix->canon_alloc) < 0 ||
	    hashtab_add(&ix->index, h, (uint32_t)ix->n) < 0)
		return NULL;
	ix->src[ix->n] = a;
	ix->canon[ix->n++] = c;
	return c;
}

/* Whether spelling P (LEN bytes) cannot have the canonical form whose
 * event part is CANON_B's first HEAD bytes: event_canon upper-cases the
 * part before the first '.' or ':' (after any leading '.') and keeps it
 * first, so a differing part rules it out without canonicalizing.  A
 * leading ':' is left to event_canon. */
static bool other_event(const char *p, size_t len, const char *canon_b, size_t head)
{
	size_t skip = strspn(p, ".");

	if (skip >= len || p[0] == ':')
		return false;
	size_t part = strcspn(p + skip, ".:|");
	return part != head || strncasecmp(p + skip, canon_b, head) != 0;
}

/* Whether one of the '|' spellings of A has the canonical form CANON_B. */
static bool canon_matches(const char *a, const char *canon_b)
{
	char one[256], ca[256];
	size_t head = strcspn(canon_b, ":");

	for (const char *p = a; p && *p;) {
		size_t len = strcspn(p, "|");
		if (len < sizeof(one) && !other_event(p, len, canon_b, head)) {
			memcpy(one, p, len);
			one[len] = '\0';
			if (event_canon(one, ca, sizeof(ca)) && strcmp(ca, canon_b) == 0)
				return true;
		}
		p = p[len] ? p + len + 1 : NULL;
	}
	return false;
}

bool model_is_hardware(const struct arch_model *model)
{
	return model && (model->pfm_force != NULL || model->encoding == ENC_ARMV8 ||
			 model->perf_events != NULL);
}

static bool is_hw_model(const struct arch_model *model)
{
	return model_is_hardware(model);
}

static const struct arch_event *lookup_code(const struct arch_model *model,
					   const struct arch_code *code)
{
	for (const struct arch_event *const *t = model->tables; *t; t++)
		for (const struct arch_event *ev = *t; ev->name; ev++)
			if (ev->pfm && code_equal(&ev->code, code))
				return ev;
	return NULL;
}

/* BASE's code with the modifiers of MODS (cmask, inv, edge, any). */
static struct arch_code with_modifiers(const struct arch_code *base,
				       const struct perf_pmu_event *mods)
{
	struct arch_code c = *base;

	if (mods->code.cmask)
		c.cmask = mods->code.cmask;
	c.inv |= mods->code.inv;
	c.edge |= mods->code.edge;
	c.any |= mods->code.any;
	return c;
}

static bool has_modifiers(const struct perf_pmu_event *e)
{
	return e->code.cmask || e->code.inv || e->code.edge || e->code.any;
}

/* toplev's (pmu-tools) modifier spelling: c1, i1, e1, amt1 (AnyThread). */
static bool toplev_modifier(const char *t, char *kv, size_t kvsz)
{
	static const char *const keys[] = { "amt", "c", "i", "e" };

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		size_t n = strlen(keys[k]);
		if (strncasecmp(t, keys[k], n) == 0 && t[n] && strspn(t + n, "0123456789") ==
		    strlen(t + n)) {
			snprintf(kv, kvsz, "%s=%s", k == 0 ? "any" : keys[k], t + n);
			return true;
		}
	}
	return false;
}

/* "NAME:c=1:i=1": the row of NAME with those modifiers, by its code (the
 * perfmon names carry no modifiers; "UOPS_EXECUTED.THREAD:c=1:i=1" is the
 * stall row, whatever libpfm4 string it has). */
static const struct arch_event *lookup_modified(struct model_index *ix,
						const struct arch_model *model, const char *name)
{
	struct perf_pmu_event mods;
	char base[160], terms[160];
	const char *colon = strchr(name, ':');

	if (!colon || (size_t)(colon - name) >= sizeof(base) || strlen(colon) >= sizeof(terms))
		return NULL;
	snprintf(base, sizeof(base), "%.*s", (int)(colon - name), name);
	memset(&mods, 0, sizeof(mods));
	snprintf(terms, sizeof(terms), "%s", colon + 1);
	for (char *t = terms, *next; t; t = next) {
		char kv[32];
		next = strchr(t, ':');
		if (next)
			*next++ = '\0';
		if (!strchr(t, '=') && toplev_modifier(t, kv, sizeof(kv)))
			t = kv;
		if (!strchr(t, '=') || !perf_term(t, false, &mods))
			return NULL;
	}
	const struct arch_event *row = model_index_lookup(ix, model, base);
	if (!row || !row->pfm)
		return NULL;
	struct arch_code c = with_modifiers(&row->code, &mods);
	return lookup_code(model, &c);
}

static const struct arch_event *lookup_perf_syntax(struct model_index *ix,
						   const struct arch_model *model,
						   const struct perf_pmu_event *e)
{
	if (e->has_event && is_arm(model)) {
		unsigned long long v = e->has_config ? e->config : e->code.sel;
		struct arch_code c = { .sel = (uint16_t)v };
		return v <= 0xffff ? lookup_code(model, &c) : NULL;
	}
	if (e->has_event)
		return is_hw_model(model) ? lookup_code(model, &e->code) : NULL;
	const struct arch_event *row = model_index_lookup(ix, model, e->name);
	if (!row || !has_modifiers(e))
		return row;
	if (!row->pfm)
		return NULL;
	struct arch_code c = with_modifiers(&row->code, e);
	return lookup_code(model, &c);
}

static bool same_key(const void *key, uint32_t idx, const void *ctx)
{
	return strcmp(((const struct canon_index *)ctx)->keys[idx], key) == 0;
}

/* KEY (LEN bytes) into TAB of CI for row EV, unless an earlier row has it. */
static int index_key(struct model_index *ix, struct canon_index *ci, struct hashtab *tab,
		     const char *key, size_t len, const struct arch_event *ev)
{
	char one[256];

	if (!len || len >= sizeof(one))
		return 0;
	memcpy(one, key, len);
	one[len] = '\0';
	uint64_t h = hash_str(one);
	if (hashtab_find(tab, h, one, same_key, ci) != HASHTAB_NONE)
		return 0;  /* an earlier row has it */
	const char *interned = strpool_intern(&ix->pool, one);
	if (!interned || GROW(ci->keys, ci->n + 1, ci->keys_alloc) < 0 ||
	    GROW(ci->rows, ci->n + 1, ci->rows_alloc) < 0 || hashtab_add(tab, h, (uint32_t)ci->n) < 0)
		return -1;
	ci->keys[ci->n] = interned;
	ci->rows[ci->n++] = ev;
	return 0;
}

static int index_spellings(struct model_index *ix, struct canon_index *ci, const char *list,
			   const struct arch_event *ev)
{
	for (const char *p = list; p && *p; p = strchr(p, '\n') + 1)
		if (index_key(ix, ci, &ci->index, p, strcspn(p, "\n"), ev) < 0)
			return -1;
	return 0;
}

/* S lower-cased into OUT (room for SZ), false when it does not fit. */
static bool lower_into(const char *s, size_t len, char *out, size_t sz)
{
	if (len >= sz)
		return false;
	for (size_t i = 0; i < len; i++)
		out[i] = (char)tolower((unsigned char)s[i]);
	out[len] = '\0';
	return true;
}

/* Row EV's name string as model_lookup's first pass matches it: each '|'
 * spelling and the whole string, case-insensitive. */
static int index_names(struct model_index *ix, struct canon_index *ci, const char *names,
		       const struct arch_event *ev)
{
	char low[256];

	for (const char *p = names; p && *p;) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);
		if (lower_into(p, len, low, sizeof(low)) &&
		    index_key(ix, ci, &ci->names, low, len, ev) < 0)
			return -1;
		p = bar ? bar + 1 : NULL;
	}
	if (strchr(names, '|') && lower_into(names, strlen(names), low, sizeof(low)))
		return index_key(ix, ci, &ci->names, low, strlen(low), ev);
	return 0;
}

/* MODEL's canon_index in IX, built on first use; NULL without IX or when
 * out of memory (the slow way, this time). */
static struct canon_index *canon_index_of(struct model_index *ix, const struct arch_model *model)
{
	if (!ix)
		return NULL;
	for (size_t i = 0; i < ix->n_models; i++)
		if (ix->models[i].model == model)
			return ix->models[i].n ? &ix->models[i] : NULL;
	if (GROW(ix->models, ix->n_models + 1, ix->models_alloc) < 0)
		return NULL;
	struct canon_index *ci = &ix->models[ix->n_models++];
	memset(ci, 0, sizeof(*ci));
	ci->model = model;
	for (const struct arch_event *const *t = model->tables; *t; t++)
		for (const struct arch_event *ev = *t; ev->name; ev++) {
			const char *lp = ev->pfm ? canon_list(ix, ev->pfm) : "";
			const char *ln = canon_list(ix, ev->name);
			if (!lp || !ln || index_names(ix, ci, ev->name, ev) < 0 ||
			    index_spellings(ix, ci, lp, ev) < 0 ||
			    index_spellings(ix, ci, ln, ev) < 0) {
				ci->n = 0;  /* out of memory: the slow way, from now on */
				return NULL;
			}
		}
	return ci;
}

/* The first row of MODEL one of whose spellings has the canonical form CANON. */
static const struct arch_event *lookup_canon(struct model_index *ix,
					     const struct arch_model *model, const char *canon)
{
	const struct canon_index *ci = canon_index_of(ix, model);

	if (ci) {
		uint32_t i = hashtab_find(&ci->index, hash_str(canon), canon, same_key, ci);
		return i == HASHTAB_NONE ? NULL : ci->rows[i];
	}
	for (const struct arch_event *const *t = model->tables; *t; t++)
		for (const struct arch_event *ev = *t; ev->name; ev++)
			if (canon_matches(ev->pfm, canon) || canon_matches(ev->name, canon))
				return ev;
	return NULL;
}

/* The first row of MODEL one of whose names is NAME, in any case. */
static const struct arch_event *lookup_name(struct model_index *ix,
					    const struct arch_model *model, const char *name)
{
	const struct canon_index *ci = canon_index_of(ix, model);
	char low[256];

	if (ci && lower_into(name, strlen(name), low, sizeof(low))) {
		uint32_t i = hashtab_find(&ci->names, hash_str(low), low, same_key, ci);
		return i == HASHTAB_NONE ? NULL : ci->rows[i];
	}
	for (const struct arch_event *const *t = model->tables; *t; t++)
		for (const struct arch_event *ev = *t; ev->name; ev++)
			if (name_matches(ev->name, name) || strcasecmp(ev->name, name) == 0)
				return ev;
	return NULL;
}

const struct arch_event *model_lookup(const struct arch_model *model, const char *name)
{
	return model_index_lookup(NULL, model, name);
}

const struct arch_event *model_index_lookup(struct model_index *ix, const struct arch_model *model,
					    const char *name)
{
	char canon[256];
	struct arch_code raw;
	struct perf_pmu_event perf;
	const struct arch_event *ev;

	/* libpfm4's qualified "skl::EVENT" names this model's EVENT */
	const char *sep = strstr(name, "::");
	if (sep && is_hw_model(model) && model_find(name) == NULL) {
		char pmu[64];
		snprintf(pmu, sizeof(pmu), "%.*s", (int)(sep - name), name);
		if (model_find(pmu) != model)
			return NULL;
		name = sep + 2;
	}
	if ((ev = lookup_name(ix, model, name)) != NULL)
		return ev;
	if (event_perf_syntax(name, &perf))
		return lookup_perf_syntax(ix, model, &perf);
	if (event_canon(name, canon, sizeof(canon)) && (ev = lookup_canon(ix, model, canon)))
		return ev;
	if (is_hw_model(model) && model_raw_decode(model, name, &raw))
		return lookup_code(model, &raw);
	return is_hw_model(model) ? lookup_modified(ix, model, name) : NULL;
}
