/* The pprof reader (engine/pprof-read.c) on messages built here with
 * protobuf-c's generated structs: a well-formed profile is read back
 * (types, default type, values, labels, frames leaf first with inlined
 * lines expanded, mappings), gzipped or not; then each inconsistency the
 * reader checks is refused with its own line. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <cmocka.h>

#include "engine/pprof.h"
#include "engine/profile.pb-c.h"

typedef Perftools__Profiles__Profile Profile;

/* A small profile: strings, two sample types (default "cpu"), a mapping,
 * two functions, two locations (the leaf's has an inlined line), two
 * samples, one with a stack and pid/tid labels.  Everything lives in
 * static storage; tests break one field, pack, and put it back. */
static char *strings[] = { "", "samples", "count", "cpu", "nanoseconds", "leaf", "caller",
			   "/bin/app", "abcd", "pid", "tid", "inlined" };
enum { S_SAMPLES = 1, S_COUNT, S_CPU, S_NS, S_LEAF, S_CALLER, S_APP, S_BID, S_PID, S_TID,
       S_INLINED };

static Perftools__Profiles__ValueType vt[2], period_type;
static Perftools__Profiles__ValueType *vts[2] = { &vt[0], &vt[1] };
static Perftools__Profiles__Mapping map;
static Perftools__Profiles__Mapping *maps[1] = { &map };
static Perftools__Profiles__Function fn[3];
static Perftools__Profiles__Function *fns[3] = { &fn[0], &fn[1], &fn[2] };
static Perftools__Profiles__Line lines[3];
static Perftools__Profiles__Line *leaf_lines[2] = { &lines[0], &lines[1] };
static Perftools__Profiles__Line *caller_lines[1] = { &lines[2] };
static Perftools__Profiles__Location loc[2];
static Perftools__Profiles__Location *locs[2] = { &loc[0], &loc[1] };
static Perftools__Profiles__Label lab[2];
static Perftools__Profiles__Label *label_ptrs[2] = { &lab[0], &lab[1] };
static uint64_t stack_ids[2] = { 10, 20 }, leaf_ids[1] = { 10 };
static int64_t values0[2] = { 3, 30000000 }, values1[2] = { 1, 10000000 };
static Perftools__Profiles__Sample smp[2];
static Perftools__Profiles__Sample *smps[2] = { &smp[0], &smp[1] };
static Profile prof;

static void build(void)
{
	perftools__profiles__profile__init(&prof);
	for (int i = 0; i < 2; i++) {
		perftools__profiles__value_type__init(&vt[i]);
		perftools__profiles__location__init(&loc[i]);
		perftools__profiles__sample__init(&smp[i]);
		perftools__profiles__label__init(&lab[i]);
	}
	for (int i = 0; i < 3; i++) {
		perftools__profiles__function__init(&fn[i]);
		perftools__profiles__line__init(&lines[i]);
	}
	perftools__profiles__value_type__init(&period_type);
	perftools__profiles__mapping__init(&map);
	vt[0].type = S_SAMPLES, vt[0].unit = S_COUNT;
	vt[1].type = S_CPU, vt[1].unit = S_NS;
	period_type.type = S_CPU;
	period_type.unit = S_NS;
	map.id = 7;
	map.memory_start = 0x1000;
	map.memory_limit = 0x2000;
	map.filename = S_APP;
	map.build_id = S_BID;
	fn[0].id = 100, fn[0].name = S_LEAF;
	fn[1].id = 200, fn[1].name = S_CALLER;
	fn[2].id = 300, fn[2].name = S_INLINED;
	lines[0].function_id = 300;   /* innermost: inlined into leaf */
	lines[1].function_id = 100;
	lines[2].function_id = 200;
	loc[0].id = 10, loc[0].mapping_id = 7, loc[0].address = 0x1234;
	loc[0].n_line = 2, loc[0].line = leaf_lines;
	loc[1].id = 20, loc[1].mapping_id = 7, loc[1].address = 0x1500;
	loc[1].n_line = 1, loc[1].line = caller_lines;
	lab[0].key = S_PID, lab[0].num = 42;
	lab[1].key = S_TID, lab[1].num = 43;
	smp[0].n_location_id = 2, smp[0].location_id = stack_ids;
	smp[0].n_value = 2, smp[0].value = values0;
	smp[0].n_label = 2, smp[0].label = label_ptrs;
	smp[1].n_location_id = 1, smp[1].location_id = leaf_ids;
	smp[1].n_value = 2, smp[1].value = values1;
	prof.n_sample_type = 2, prof.sample_type = vts;
	prof.n_sample = 2, prof.sample = smps;
	prof.n_mapping = 1, prof.mapping = maps;
	prof.n_location = 2, prof.location = locs;
	prof.n_function = 3, prof.function = fns;
	prof.n_string_table = sizeof(strings) / sizeof(strings[0]), prof.string_table = strings;
	prof.period_type = &period_type;
	prof.period = 10000000;
	prof.duration_nanos = 2000000000;
}

static uint8_t *pack(size_t *len)
{
	*len = perftools__profiles__profile__get_packed_size(&prof);
	uint8_t *buf = malloc(*len + 1);
	assert_non_null(buf);
	perftools__profiles__profile__pack(&prof, buf);
	return buf;
}

static uint8_t *gzip_buf(const uint8_t *in, size_t len, size_t *outlen)
{
	z_stream z = { 0 };
	uLong cap = compressBound(len) + 64;
	uint8_t *out = malloc(cap);

	assert_non_null(out);
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	*outlen = cap - z.avail_out;
	deflateEnd(&z);
	return out;
}

/* The reader's verdict on the current message: NULL and ERR, or a profile. */
static struct pprof *parse(char *err, size_t errsz)
{
	size_t len;
	uint8_t *buf = pack(&len);
	struct pprof *p = pprof_parse(buf, len, err, errsz);

	free(buf);
	return p;
}

static void test_read_back(void **state)
{
	char err[256] = "", name[64];
	struct cg_frame fr[8];
	uint64_t addr;
	size_t len, gzlen;

	(void)state;
	build();
	prof.default_sample_type = S_SAMPLES;
	uint8_t *raw = pack(&len), *gz = gzip_buf(raw, len, &gzlen);
	struct pprof *p = pprof_parse(gz, gzlen, err, sizeof(err));
	assert_non_null(p);
	assert_int_equal(pprof_n_types(p), 2);
	pprof_type_name(p, 1, name, sizeof(name));
	assert_string_equal(name, "cpu/nanoseconds");
	assert_int_equal(pprof_default_type(p), 0);   /* default_sample_type names it */
	assert_int_equal(pprof_n_samples(p), 2);
	assert_int_equal(pprof_value(p, 0, 1), 30000000);
	assert_int_equal(pprof_label_num(p, 0, "pid"), 42);
	assert_int_equal(pprof_label_num(p, 0, "tid"), 43);
	assert_int_equal(pprof_label_num(p, 1, "pid"), -1);
	/* leaf first: the inlined function, the function it is inlined in, the caller */
	assert_int_equal(pprof_frames(p, 0, fr, 8, &addr), 3);
	assert_int_equal(addr, 0x1234);
	assert_string_equal(fr[0].name, "inlined");
	assert_string_equal(fr[1].name, "leaf");
	assert_string_equal(fr[2].name, "caller");
	assert_string_equal(fr[2].module, "/bin/app");
	/* at most MAX frames: the innermost */
	assert_int_equal(pprof_frames(p, 0, fr, 2, &addr), 2);
	assert_string_equal(fr[1].name, "leaf");
	struct pprof_mapping m;
	assert_int_equal(pprof_n_mappings(p), 1);
	pprof_mapping(p, 0, &m);
	assert_int_equal(m.start, 0x1000);
	assert_string_equal(m.build_id, "abcd");
	assert_int_equal(pprof_duration_nanos(p), 2000000000);
	pprof_free(p);
	/* not gzipped: the same; without default_sample_type the last type is shown */
	prof.default_sample_type = 0;
	free(raw);
	raw = pack(&len);
	p = pprof_parse(raw, len, err, sizeof(err));
	assert_non_null(p);
	assert_int_equal(pprof_default_type(p), 1);
	pprof_free(p);
	free(raw);
	free(gz);
}

/* Breaks the message with BREAK, expects the reader to refuse it with WANT
 * in its line, then builds it anew. */
#define REFUSED(brk, want)                                                     \
	do {                                                                   \
		char err_[256] = "";                                           \
		build();                                                       \
		brk;                                                           \
		struct pprof *p_ = parse(err_, sizeof(err_));                  \
		if (p_)                                                        \
			fail_msg("accepted: %s", #brk);                        \
		if (!strstr(err_, want) || strchr(err_, '\n'))                 \
			fail_msg("%s: '%s', want '%s'", #brk, err_, want);     \
	} while (0)

static void test_refused(void **state)
{
	char *no_empty[] = { "x" };
	static uint64_t missing_loc[1] = { 99 };
	static int64_t one_value[1] = { 1 }, negative[2] = { 1, -5 };

	(void)state;
	REFUSED(prof.string_table = no_empty; prof.n_string_table = 1, "string_table[0]");
	REFUSED(prof.n_sample_type = 0, "no sample_type");
	REFUSED(vt[1].unit = 1000, "sample_type 1: string index");
	REFUSED(period_type.type = -1, "period_type");
	REFUSED(fn[1].name = 1000, "function 1: string index");
	REFUSED(map.build_id = 1000, "mapping 0: string index");
	REFUSED(loc[1].mapping_id = 8, "location 1: no mapping 8");
	REFUSED(lines[2].function_id = 999, "location 1: no function 999");
	REFUSED(loc[1].id = 10, "id 10 repeated");
	REFUSED(fn[0].id = 0, "is 0");
	REFUSED(smp[1].location_id = missing_loc, "sample 1: no location 99");
	REFUSED(smp[0].n_value = 1; smp[0].value = one_value, "sample 0: 1 values for 2");
	REFUSED(smp[1].value = negative, "sample 1: negative value -5");
	REFUSED(lab[1].key = 1000, "sample 0: label string index");
}

static void test_bad_bytes(void **state)
{
	char err[256];
	static const uint8_t junk[] = { 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t cut_gzip[] = { 0x1f, 0x8b, 0x08, 0x00 };
	size_t len, gzlen;

	(void)state;
	assert_null(pprof_parse(junk, sizeof(junk), err, sizeof(err)));
	assert_non_null(strstr(err, "protobuf decoding failed"));
	assert_null(pprof_parse(cut_gzip, sizeof(cut_gzip), err, sizeof(err)));
	assert_non_null(strstr(err, "gzip stream"));
	/* a whole profile cut anywhere in its gzip stream */
	build();
	uint8_t *raw = pack(&len), *gz = gzip_buf(raw, len, &gzlen);
	for (size_t cut = 2; cut < gzlen; cut++) {
		struct pprof *p = pprof_parse(gz, cut, err, sizeof(err));
		if (p)
			fail_msg("cut at %zu of %zu accepted", cut, gzlen);
		assert_null(strchr(err, '\n'));
	}
	free(raw);
	free(gz);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_back),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_bad_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
