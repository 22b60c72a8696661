/* Decoding pprof profiles: gunzip (zlib), unpack (protobuf-c), then check
 * every reference so that the readers below never index out of range. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "lib/hashtab.h"
#include "engine/pprof.h"
#include "engine/profile.pb-c.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Function Function;
typedef Perftools__Profiles__Mapping Mapping;

/* An id and what it names, sorted by id for bsearch. */
struct id_ref {
	uint64_t id;
	size_t index;
};

/* protobuf-c's allocations within a budget: a few bytes of input can ask
 * for a message each (an empty repeated Sample is two bytes), so a hostile
 * file could otherwise exhaust memory.  Each block carries its size. */
struct budget {
	size_t left;
	bool exceeded;
};

struct pprof {
	Profile *msg;
	struct id_ref *locs, *funcs, *maps;
	struct budget budget;
	ProtobufCAllocator alloc;
};

static void *budget_alloc(void *data, size_t size)
{
	struct budget *b = data;
	size_t need = size + sizeof(max_align_t);

	if (need < size || need > b->left) {
		b->exceeded = true;
		return NULL;
	}
	max_align_t *p = malloc(need);
	if (!p)
		return NULL;
	*(size_t *)p = need;
	b->left -= need;
	return p + 1;
}

static void budget_free(void *data, void *ptr)
{
	struct budget *b = data;

	if (!ptr)
		return;
	max_align_t *p = (max_align_t *)ptr - 1;
	b->left += *(size_t *)p;
	free(p);
}

/* Inflates a gzip (or zlib) stream into *OUT. */
static int gunzip(const uint8_t *data, size_t len, uint8_t **out, size_t *outlen, char *err,
		  size_t errsz)
{
	z_stream z = { 0 };
	size_t alloc = 0, n = 0;
	uint8_t *buf = NULL;
	int rc = Z_OK;

	if (inflateInit2(&z, 15 + 32) != Z_OK) {
		snprintf(err, errsz, "out of memory (zlib)");
		return -1;
	}
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)len;
	while (rc == Z_OK) {
		/* the room inflate may fill: what is allocated, at most the bound */
		size_t room = alloc < PPROF_BYTES_MAX ? alloc : PPROF_BYTES_MAX;
		if (n == room && n == PPROF_BYTES_MAX) {
			snprintf(err, errsz, "decompresses to more than %u MB", PPROF_BYTES_MAX >> 20);
			goto fail;
		}
		if (n == room) {
			if (GROW(buf, n ? n + 1 : len * 4 + 4096, alloc) < 0) {
				snprintf(err, errsz, "out of memory");
				goto fail;
			}
			room = alloc < PPROF_BYTES_MAX ? alloc : PPROF_BYTES_MAX;
		}
		z.next_out = buf + n;
		z.avail_out = (uInt)(room - n);
		rc = inflate(&z, Z_NO_FLUSH);
		n = room - z.avail_out;
		if (rc == Z_BUF_ERROR && z.avail_out)   /* input used up before the end */
			break;
		if (rc == Z_BUF_ERROR)
			rc = Z_OK;
	}
	if (rc != Z_STREAM_END) {
		snprintf(err, errsz, "gzip stream %s at byte %lu of %zu",
			 rc == Z_DATA_ERROR ? "corrupt" : "truncated", z.total_in, len);
		goto fail;
	}
	inflateEnd(&z);
	*out = buf;
	*outlen = n;
	return 0;
fail:
	inflateEnd(&z);
	free(buf);
	return -1;
}

static int by_id(const void *a, const void *b)
{
	const struct id_ref *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The sorted ids of N items (ID(i)); -1 on a zero or repeated id. */
static struct id_ref *index_ids(size_t n, uint64_t (*id)(const Profile *, size_t),
				const Profile *m, const char *what, char *err, size_t errsz)
{
	struct id_ref *v = malloc((n ? n : 1) * sizeof(*v));

	if (!v) {
		snprintf(err, errsz, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = (struct id_ref){ id(m, i), i };
	qsort(v, n, sizeof(*v), by_id);
	for (size_t i = 0; i < n; i++)
		if (v[i].id == 0 || (i && v[i].id == v[i - 1].id)) {
			snprintf(err, errsz, "%s %zu: id %llu %s", what, v[i].index,
				 (unsigned long long)v[i].id, v[i].id ? "repeated" : "is 0");
			free(v);
			return NULL;
		}
	return v;
}

static uint64_t loc_id(const Profile *m, size_t i) { return m->location[i]->id; }
static uint64_t func_id(const Profile *m, size_t i) { return m->function[i]->id; }
static uint64_t map_id(const Profile *m, size_t i) { return m->mapping[i]->id; }

static const struct id_ref *find_id(const struct id_ref *v, size_t n, uint64_t id)
{
	struct id_ref key = { id, 0 };

	return n ? bsearch(&key, v, n, sizeof(key), by_id) : NULL;
}

static bool str_ok(const Profile *m, int64_t i)
{
	return i >= 0 && (uint64_t)i < m->n_string_table;
}

#define CHECK(cond, ...) do { if (!(cond)) { snprintf(err, errsz, __VA_ARGS__); return -1; } } while (0)

static int check_types(const Profile *m, char *err, size_t errsz)
{
	CHECK(m->n_string_table && m->string_table[0][0] == '\0',
	      "string_table[0] is not the empty string");
	CHECK(m->n_sample_type >= 1, "no sample_type");
	CHECK(m->n_sample_type <= PPROF_TYPES_MAX, "%zu sample types (at most %d)",
	      m->n_sample_type, PPROF_TYPES_MAX);
	for (size_t i = 0; i < m->n_sample_type; i++)
		CHECK(str_ok(m, m->sample_type[i]->type) && str_ok(m, m->sample_type[i]->unit),
		      "sample_type %zu: string index out of range", i);
	CHECK(!m->period_type || (str_ok(m, m->period_type->type) &&
				  str_ok(m, m->period_type->unit)),
	      "period_type: string index out of range");
	for (size_t i = 0; i < m->n_comment; i++)
		CHECK(str_ok(m, m->comment[i]), "comment %zu: string index out of range", i);
	CHECK(str_ok(m, m->drop_frames) && str_ok(m, m->keep_frames),
	      "drop_frames/keep_frames: string index out of range");
	return 0;
}

static int check_tables(const struct pprof *p, char *err, size_t errsz)
{
	const Profile *m = p->msg;

	for (size_t i = 0; i < m->n_function; i++) {
		const Function *f = m->function[i];
		CHECK(str_ok(m, f->name) && str_ok(m, f->system_name) && str_ok(m, f->filename),
		      "function %zu: string index out of range", i);
	}
	for (size_t i = 0; i < m->n_mapping; i++)
		CHECK(str_ok(m, m->mapping[i]->filename) && str_ok(m, m->mapping[i]->build_id),
		      "mapping %zu: string index out of range", i);
	for (size_t i = 0; i < m->n_location; i++) {
		const Location *l = m->location[i];
		CHECK(!l->mapping_id || find_id(p->maps, m->n_mapping, l->mapping_id),
		      "location %zu: no mapping %llu", i, (unsigned long long)l->mapping_id);
		for (size_t k = 0; k < l->n_line; k++)
			CHECK(!l->line[k]->function_id ||
			      find_id(p->funcs, m->n_function, l->line[k]->function_id),
			      "location %zu: no function %llu", i,
			      (unsigned long long)l->line[k]->function_id);
	}
	return 0;
}

static int check_samples(const struct pprof *p, char *err, size_t errsz)
{
	const Profile *m = p->msg;

	for (size_t i = 0; i < m->n_sample; i++) {
		const Perftools__Profiles__Sample *smp = m->sample[i];
		CHECK(smp->n_value == m->n_sample_type, "sample %zu: %zu values for %zu sample types",
		      i, smp->n_value, m->n_sample_type);
		for (size_t k = 0; k < smp->n_value; k++)
			CHECK(smp->value[k] >= 0, "sample %zu: negative value %lld (a diff profile?)",
			      i, (long long)smp->value[k]);
		for (size_t k = 0; k < smp->n_location_id; k++)
			CHECK(find_id(p->locs, m->n_location, smp->location_id[k]),
			      "sample %zu: no location %llu", i,
			      (unsigned long long)smp->location_id[k]);
		for (size_t k = 0; k < smp->n_label; k++)
			CHECK(str_ok(m, smp->label[k]->key) && str_ok(m, smp->label[k]->str) &&
			      str_ok(m, smp->label[k]->num_unit),
			      "sample %zu: label string index out of range", i);
	}
	return 0;
}

static int check(struct pprof *p, char *err, size_t errsz)
{
	const Profile *m = p->msg;

	if (check_types(m, err, errsz) < 0)
		return -1;
	if (!(p->locs = index_ids(m->n_location, loc_id, m, "location", err, errsz)) ||
	    !(p->funcs = index_ids(m->n_function, func_id, m, "function", err, errsz)) ||
	    !(p->maps = index_ids(m->n_mapping, map_id, m, "mapping", err, errsz)))
		return -1;
	return check_tables(p, err, errsz) < 0 ? -1 : check_samples(p, err, errsz);
}

struct pprof *pprof_parse(const uint8_t *data, size_t len, char *err, size_t errsz)
{
	uint8_t *raw = NULL;
	size_t rawlen = len;
	struct pprof *p = calloc(1, sizeof(*p));

	if (!p) {
		snprintf(err, errsz, "out of memory");
		return NULL;
	}
	if (len >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
		if (gunzip(data, len, &raw, &rawlen, err, errsz) < 0) {
			free(p);
			return NULL;
		}
		data = raw;
	}
	if (rawlen == 0 || (rawlen >= 8 && memcmp(data, "PERFILE2", 8) == 0)) {
		snprintf(err, errsz, rawlen ? "a gzipped perf.data, not a pprof profile: gunzip "
			 "it, then cyctop -i FILE" : "empty: no pprof profile");
		free(raw);
		free(p);
		return NULL;
	}
	p->budget = (struct budget){ PPROF_MEM_MAX, false };
	p->alloc = (ProtobufCAllocator){ budget_alloc, budget_free, &p->budget };
	p->msg = perftools__profiles__profile__unpack(&p->alloc, rawlen, data);
	free(raw);
	if (!p->msg) {
		snprintf(err, errsz, p->budget.exceeded
			 ? "its messages need more than %u MB (a hostile file?)"
			 : "not a profile.proto message (protobuf decoding failed)", PPROF_MEM_MAX >> 20);
		pprof_free(p);
		return NULL;
	}
	if (check(p, err, errsz) < 0) {
		pprof_free(p);
		return NULL;
	}
	return p;
}

void pprof_free(struct pprof *p)
{
	if (!p)
		return;
	if (p->msg)
		perftools__profiles__profile__free_unpacked(p->msg, &p->alloc);
	free(p->locs);
	free(p->funcs);
	free(p->maps);
	free(p);
}

size_t pprof_n_types(const struct pprof *p)
{
	return p->msg->n_sample_type;
}

void pprof_type_name(const struct pprof *p, size_t i, char *buf, size_t sz)
{
	const Profile *m = p->msg;

	snprintf(buf, sz, "%s/%s", m->string_table[m->sample_type[i]->type],
		 m->string_table[m->sample_type[i]->unit]);
}

/* As pprof: default_sample_type names a type, else the last one is shown. */
size_t pprof_default_type(const struct pprof *p)
{
	const Profile *m = p->msg;

	for (size_t i = 0; m->default_sample_type && i < m->n_sample_type; i++)
		if (m->sample_type[i]->type == m->default_sample_type)
			return i;
	return m->n_sample_type - 1;
}

size_t pprof_n_samples(const struct pprof *p)
{
	return p->msg->n_sample;
}

int64_t pprof_value(const struct pprof *p, size_t sample, size_t type)
{
	return p->msg->sample[sample]->value[type];
}

static const char *module_of(const struct pprof *p, const Location *l)
{
	const Profile *m = p->msg;
	const struct id_ref *r = l->mapping_id ? find_id(p->maps, m->n_mapping, l->mapping_id) : NULL;
	const char *file = r ? m->string_table[m->mapping[r->index]->filename] : "";

	return file[0] ? file : NULL;
}

/* Lines are innermost first (pprof: the last line is the caller). */
static size_t location_frames(const struct pprof *p, const Location *l, struct cg_frame *out,
			      size_t max)
{
	const Profile *m = p->msg;
	const char *module = module_of(p, l);
	size_t n = 0;

	if (!l->n_line && max)
		out[n++] = (struct cg_frame){ NULL, module };
	for (size_t k = 0; k < l->n_line && n < max; k++) {
		const struct id_ref *r = l->line[k]->function_id
			? find_id(p->funcs, m->n_function, l->line[k]->function_id) : NULL;
		const char *name = r ? m->string_table[m->function[r->index]->name] : "";
		out[n++] = (struct cg_frame){ name[0] ? name : NULL, module };
	}
	return n;
}

size_t pprof_frames(const struct pprof *p, size_t sample, struct cg_frame *frames, size_t max,
		    uint64_t *leaf_addr)
{
	const Profile *m = p->msg;
	const Perftools__Profiles__Sample *smp = m->sample[sample];
	size_t n = 0;

	*leaf_addr = 0;
	for (size_t k = 0; k < smp->n_location_id && n < max; k++) {
		const struct id_ref *r = find_id(p->locs, m->n_location, smp->location_id[k]);
		const Location *l = m->location[r->index];
		if (k == 0)
			*leaf_addr = l->address;
		n += location_frames(p, l, frames + n, max - n);
	}
	return n;
}

int64_t pprof_label_num(const struct pprof *p, size_t sample, const char *key)
{
	const Profile *m = p->msg;
	const Perftools__Profiles__Sample *smp = m->sample[sample];

	for (size_t k = 0; k < smp->n_label; k++)
		if (strcmp(m->string_table[smp->label[k]->key], key) == 0 && !smp->label[k]->str)
			return smp->label[k]->num;
	return -1;
}

size_t pprof_n_mappings(const struct pprof *p)
{
	return p->msg->n_mapping;
}

void pprof_mapping(const struct pprof *p, size_t i, struct pprof_mapping *out)
{
	const Mapping *m = p->msg->mapping[i];

	*out = (struct pprof_mapping){ m->memory_start, m->memory_limit, m->file_offset,
				       p->msg->string_table[m->filename],
				       p->msg->string_table[m->build_id] };
}

int64_t pprof_time_nanos(const struct pprof *p)
{
	return p->msg->time_nanos;
}

int64_t pprof_duration_nanos(const struct pprof *p)
{
	return p->msg->duration_nanos;
}
