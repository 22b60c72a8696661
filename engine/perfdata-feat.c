/* perf.data feature sections: HEADER_BUILD_ID ... HEADER_GROUP_DESC and
 * cyctop's own, read from a file's sections or from pipe mode's
 * HEADER_FEATURE and HEADER_BUILD_ID records, and their accessors.
 * Features perf has and we do not need are only bounds-checked. */
#include "engine/perfdata-priv.h"
#include "lib/hashtab.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- feature cursor ------------------------------------------------------ */

struct fcur {
	struct perfdata *pd;
	const unsigned char *base;   /* offsets count from here: the file, or a record */
	const char *feat;
	uint64_t start, off, end;
	bool bad;
};

static int fc_fail(struct fcur *c, const char *what, uint64_t need)
{
	if (!c->bad)
		pd_fail(c->pd, "%s section at offset %" PRIu64 ": %s at offset %" PRIu64
			" (%" PRIu64 " bytes) runs past its end at offset %" PRIu64,
			c->feat, c->start, what, c->off, need, c->end);
	c->bad = true;
	return -1;
}

static uint64_t fc_left(const struct fcur *c)
{
	return c->bad ? 0 : c->end - c->off;
}

static const unsigned char *fc_take(struct fcur *c, const char *what, uint64_t n)
{
	const unsigned char *p;

	if (c->bad || n > c->end - c->off) {
		fc_fail(c, what, n);
		return NULL;
	}
	p = c->base + c->off;
	c->off += n;
	return p;
}

static uint64_t fc_peek64(const struct fcur *c)
{
	uint64_t v;

	memcpy(&v, c->base + c->off, 8);
	return v;
}

static uint32_t fc_u32(struct fcur *c, const char *what)
{
	const unsigned char *p = fc_take(c, what, 4);
	uint32_t v = 0;

	if (p)
		memcpy(&v, p, 4);
	return v;
}

static uint64_t fc_u64(struct fcur *c, const char *what)
{
	const unsigned char *p = fc_take(c, what, 8);
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, 8);
	return v;
}

/* a perf string: u32 length, then the bytes; the text ends at the first
 * NUL or at the length (perf does not insist on the NUL) */
static char *fc_string(struct fcur *c, const char *what)
{
	uint32_t len = fc_u32(c, what);
	const unsigned char *p = fc_take(c, what, len);
	char *s;

	if (!p)
		return NULL;
	s = strndup((const char *)p, len);
	if (!s) {
		pd_fail(c->pd, "out of memory");
		c->bad = true;
	}
	return s;
}

/* --- features ------------------------------------------------------------ */

static int feat_string(struct fcur *c, char **out)
{
	*out = fc_string(c, "string");
	return *out ? 0 : -1;
}

static int read_nrcpus(struct fcur *c)
{
	(void)fc_u32(c, "nr_cpus_available");
	c->pd->nr_cpus = fc_u32(c, "nr_cpus_online");
	return c->bad ? -1 : 0;
}

static int read_cmdline(struct fcur *c)
{
	struct perfdata *pd = c->pd;
	uint32_t n = fc_u32(c, "argument count");
	size_t total = 1;

	if (c->bad)
		return -1;
	if (n > fc_left(c) / 4)
		return fc_fail(c, "argument list", (uint64_t)n * 4);
	pd->argv = calloc((size_t)n + 1, sizeof(*pd->argv));
	if (!pd->argv)
		return pd_fail(pd, "out of memory");
	for (uint32_t i = 0; i < n; i++) {
		pd->argv[i] = fc_string(c, "argument");
		if (!pd->argv[i])
			return -1;
		pd->argc++;
		total += strlen(pd->argv[i]) + 1;
	}
	pd->cmdline = malloc(total);
	if (!pd->cmdline)
		return pd_fail(pd, "out of memory");
	pd->cmdline[0] = '\0';
	for (size_t i = 0, k = 0; i < pd->argc; i++) {
		size_t l = strlen(pd->argv[i]);
		if (i)
			pd->cmdline[k++] = ' ';
		memcpy(pd->cmdline + k, pd->argv[i], l + 1);
		k += l;
	}
	return 0;
}

static int read_build_ids(struct fcur *c)
{
	struct perfdata *pd = c->pd;
	size_t cap = 0;

	while (fc_left(c) > 0) {
		struct build_id_rec r;
		struct perfdata_build_id *b;
		uint64_t at = c->off;
		const unsigned char *p = fc_take(c, "build id record", sizeof(r));
		if (!p)
			return -1;
		memcpy(&r, p, sizeof(r));
		if (r.header.size < sizeof(r)) {
			c->off = at;
			return fc_fail(c, "build id record (size too small)", r.header.size);
		}
		p = fc_take(c, "build id file name", r.header.size - sizeof(r));
		if (!p)
			return -1;
		if (GROW(pd->bids, pd->nbids + 1, cap) < 0)
			return pd_fail(pd, "out of memory");
		b = &pd->bids[pd->nbids];
		memset(b, 0, sizeof(*b));
		b->path = strndup((const char *)p, r.header.size - sizeof(r));
		if (!b->path)
			return pd_fail(pd, "out of memory");
		pd->nbids++;
		b->pid = r.pid;
		b->kernel = (r.header.misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
			    PERF_RECORD_MISC_KERNEL;
		b->id_len = (r.header.misc & MISC_BUILD_ID_SIZE) && r.size <= sizeof(r.data) ?
			    r.size : sizeof(r.data);
		memcpy(b->id, r.data, sizeof(b->id));
	}
	return 0;
}

/* Names from HEADER_EVENT_DESC; an event is matched to an attr by its first
 * id, as perf does, or by position when it has none. */
static int read_event_desc(struct fcur *c)
{
	struct perfdata *pd = c->pd;
	uint32_t nre = fc_u32(c, "event count");
	uint32_t sz = fc_u32(c, "attr size");

	if (c->bad)
		return -1;
	if (sz < PERF_ATTR_SIZE_VER0)
		return pd_fail(pd, "%s section at offset %" PRIu64 ": attr size %" PRIu32
			       " is smaller than %d", c->feat, c->start, sz, PERF_ATTR_SIZE_VER0);
	if (nre > fc_left(c) / ((uint64_t)sz + 8))
		return fc_fail(c, "event list", (uint64_t)nre * (sz + 8));
	for (uint32_t i = 0; i < nre; i++) {
		uint32_t nids;
		char *name;
		int idx = -1;
		if (!fc_take(c, "attr", sz))
			return -1;
		nids = fc_u32(c, "id count");
		name = fc_string(c, "event name");
		if (!name)
			return -1;
		if (nids > fc_left(c) / 8) {
			free(name);
			return fc_fail(c, "ids", (uint64_t)nids * 8);
		}
		if (nids)
			idx = pd_id_lookup(pd, fc_peek64(c));
		else if (i < pd->nattrs)
			idx = (int)i;
		c->off += (uint64_t)nids * 8;
		if (idx >= 0 && !pd->attrs[idx].name)
			pd->attrs[idx].name = name;
		else
			free(name);
	}
	return 0;
}

static int read_group_desc(struct fcur *c)
{
	struct perfdata *pd = c->pd;
	uint32_t n = fc_u32(c, "group count");

	if (c->bad)
		return -1;
	if (n > fc_left(c) / 12)
		return fc_fail(c, "group list", (uint64_t)n * 12);
	pd->groups = calloc(n ? n : 1, sizeof(*pd->groups));
	if (!pd->groups)
		return pd_fail(pd, "out of memory");
	for (uint32_t i = 0; i < n; i++) {
		struct perfdata_group *g = &pd->groups[i];
		char *name = fc_string(c, "group name");
		if (!name)
			return -1;
		pd->ngroups++;
		if (strcmp(name, "{anon_group}") == 0) {
			free(name);
			name = NULL;
		}
		g->name = name;
		g->leader_idx = fc_u32(c, "leader index");
		g->nr_members = fc_u32(c, "member count");
	}
	return c->bad ? -1 : 0;
}

/* ours only if it starts with our magic: another tool may use the bit */
static int read_cyctop(struct fcur *c)
{
	struct perfdata *pd = c->pd;

	const unsigned char *blob;

	if (pd->pmu || fc_left(c) < 8 || memcmp(c->base + c->off, CYCTOP_MAGIC, 8) != 0)
		return 0;
	c->off += 8;
	pd->pmu = fc_string(c, "PMU name");
	pd->blob_len = fc_u64(c, "blob length");
	if (c->bad)
		return -1;
	blob = fc_take(c, "blob", pd->blob_len);
	if (!blob)
		return -1;
	/* a copy: a pipe's feature record does not stay */
	pd->blob = malloc(pd->blob_len ? pd->blob_len : 1);
	if (!pd->blob)
		return pd_fail(pd, "out of memory");
	memcpy(pd->blob, blob, pd->blob_len);
	return 0;
}

static const char *feat_name(unsigned int bit)
{
	switch (bit) {
	case FEAT_BUILD_ID: return "HEADER_BUILD_ID";
	case FEAT_HOSTNAME: return "HEADER_HOSTNAME";
	case FEAT_OSRELEASE: return "HEADER_OSRELEASE";
	case FEAT_ARCH: return "HEADER_ARCH";
	case FEAT_NRCPUS: return "HEADER_NRCPUS";
	case FEAT_CPUDESC: return "HEADER_CPUDESC";
	case FEAT_CPUID: return "HEADER_CPUID";
	case FEAT_CMDLINE: return "HEADER_CMDLINE";
	case FEAT_EVENT_DESC: return "HEADER_EVENT_DESC";
	case FEAT_GROUP_DESC: return "HEADER_GROUP_DESC";
	case PERFDATA_FEAT_CYCTOP: return "cyctop feature";
	default: return "feature";
	}
}

/* Features perf has and we do not need are only bounds-checked. */
/* Feature BIT's body: S in the file, or in BASE (a pipe's HEADER_FEATURE). */
int pd_read_feature_at(struct perfdata *pd, const unsigned char *base, unsigned int bit,
		       struct file_section s)
{
	struct fcur c = { pd, base, feat_name(bit), s.offset, s.offset, s.offset + s.size, false };

	switch (bit) {
	case FEAT_BUILD_ID: return read_build_ids(&c);
	case FEAT_HOSTNAME: return pd->hostname ? 0 : feat_string(&c, &pd->hostname);
	case FEAT_OSRELEASE: return pd->osrelease ? 0 : feat_string(&c, &pd->osrelease);
	case FEAT_ARCH: return pd->arch ? 0 : feat_string(&c, &pd->arch);
	case FEAT_CPUDESC: return pd->cpudesc ? 0 : feat_string(&c, &pd->cpudesc);
	case FEAT_CPUID: return pd->cpuid ? 0 : feat_string(&c, &pd->cpuid);
	case FEAT_NRCPUS: return read_nrcpus(&c);
	case FEAT_CMDLINE: return pd->argv ? 0 : read_cmdline(&c);
	case FEAT_EVENT_DESC: return read_event_desc(&c);
	case FEAT_GROUP_DESC: return pd->groups ? 0 : read_group_desc(&c);
	case PERFDATA_FEAT_CYCTOP: return read_cyctop(&c);
	default: return 0;
	}
}

static bool feat_set(const struct file_header *h, unsigned int bit)
{
	return bit < FEAT_BITS && (h->features[bit / 64] >> (bit % 64) & 1);
}

int pd_read_features(struct perfdata *pd)
{
	uint64_t n = 0, table = pd->data_end;

	for (unsigned int b = 0; b < FEAT_BITS; b++)
		n += feat_set(&pd->h, b);
	if (!n)
		return 0;
	if (pd_check_section(pd, "feature section table", (struct file_section){ table, n * 16 }))
		return -1;
	for (unsigned int b = 0; b < FEAT_BITS; b++) {
		struct file_section s;
		char what[64];
		if (!feat_set(&pd->h, b))
			continue;
		s.offset = get64(pd, table);
		s.size = get64(pd, table + 8);
		snprintf(what, sizeof(what), "%s section (bit %u)", feat_name(b), b);
		table += 16;
		/* perf 3.14 wrote an empty section for what it did not know
		 * (HEADER_CPUDESC on ARM); perf reads it as absent */
		if (s.size == 0 && pd_check_section(pd, what, s) == 0)
			continue;
		if (pd_check_section(pd, what, s) < 0 || pd_read_feature_at(pd, pd->buf, b, s) < 0)
			return -1;
	}
	return 0;
}

bool perfdata_has_feature(const struct perfdata *pd, unsigned int bit)
{
	return feat_set(&pd->h, bit);
}

const char *perfdata_hostname(const struct perfdata *pd)
{
	return pd->hostname;
}

const char *perfdata_osrelease(const struct perfdata *pd)
{
	return pd->osrelease;
}

const char *perfdata_arch(const struct perfdata *pd)
{
	return pd->arch;
}

const char *perfdata_cpudesc(const struct perfdata *pd)
{
	return pd->cpudesc;
}

const char *perfdata_cpuid(const struct perfdata *pd)
{
	return pd->cpuid;
}

uint32_t perfdata_nr_cpus(const struct perfdata *pd)
{
	return pd->nr_cpus;
}

const char *perfdata_cmdline(const struct perfdata *pd)
{
	return pd->cmdline;
}

const char *const *perfdata_cmdline_argv(const struct perfdata *pd, size_t *argc)
{
	*argc = pd->argc;
	return (const char *const *)pd->argv;
}

size_t perfdata_nr_build_ids(const struct perfdata *pd)
{
	return pd->nbids;
}

const struct perfdata_build_id *perfdata_build_id(const struct perfdata *pd, size_t i)
{
	return i < pd->nbids ? &pd->bids[i] : NULL;
}

size_t perfdata_nr_groups(const struct perfdata *pd)
{
	return pd->ngroups;
}

const struct perfdata_group *perfdata_group(const struct perfdata *pd, size_t i)
{
	return i < pd->ngroups ? &pd->groups[i] : NULL;
}

const char *perfdata_pmu(const struct perfdata *pd)
{
	return pd->pmu && pd->pmu[0] ? pd->pmu : NULL;
}

const void *perfdata_blob(const struct perfdata *pd, size_t *len)
{
	*len = pd->blob ? (size_t)pd->blob_len : 0;
	return pd->blob;
}
