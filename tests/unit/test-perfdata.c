/* The perf.data writer and reader (engine/perfdata-*.c).
 *
 * Files come from our writer, and are also built byte by byte in perf's own
 * layout (header, ids, attrs, data, feature table, feature bodies: see
 * tools/perf/util/header.c, perf_session__do_write_header).  Every file is
 * read from a heap buffer of exactly its size (perfdata_open_mem copies
 * it), so a sanitizer build catches any read past the end.  Every
 * truncation and every corrupted size or offset must give an error naming
 * an offset, never a crash; a cut data section of an unfinished file gives
 * the whole records before the cut, then its end (the writer was killed). */
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <cmocka.h>
#include <zstd.h>

#include "engine/perfdata.h"
#include "engine/record.h"

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_PERIOD)
#define FINISHED_ROUND 68

static char tmpdir[256];

/* --- byte images ---------------------------------------------------------- */

struct img {
	unsigned char *b;
	size_t n, cap;
};

static void img_put(struct img *m, const void *p, size_t n)
{
	if (m->n + n > m->cap) {
		m->cap = (m->n + n) * 2 + 64;
		m->b = realloc(m->b, m->cap);
		assert_non_null(m->b);
	}
	if (p)
		memcpy(m->b + m->n, p, n);
	else
		memset(m->b + m->n, 0, n);
	m->n += n;
}

static void img_u32(struct img *m, uint32_t v)
{
	img_put(m, &v, 4);
}

static void img_u64(struct img *m, uint64_t v)
{
	img_put(m, &v, 8);
}

static void set64(unsigned char *b, size_t off, uint64_t v)
{
	memcpy(b + off, &v, 8);
}

static uint64_t get64(const unsigned char *b, size_t off)
{
	uint64_t v;

	memcpy(&v, b + off, 8);
	return v;
}

static unsigned char *read_all(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b;
	long len;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_true(len > 0);
	rewind(f);
	b = malloc((size_t)len);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return b;
}

static void tmp_path(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", tmpdir, name);
}

/* --- records ----------------------------------------------------------------- */

struct rec {
	union {
		struct perf_event_header h;
		uint64_t align;
		unsigned char b[256];
	} u;
};

static void rec_start(struct rec *r, uint32_t type, uint16_t misc)
{
	memset(r, 0, sizeof(*r));
	r->u.h.type = type;
	r->u.h.misc = misc;
	r->u.h.size = sizeof(r->u.h);
}

static void rec_put(struct rec *r, const void *p, size_t n)
{
	assert_true(r->u.h.size + n <= sizeof(r->u.b));
	memcpy(r->u.b + r->u.h.size, p, n);
	r->u.h.size = (uint16_t)(r->u.h.size + n);
}

static void rec_u64(struct rec *r, uint64_t v)
{
	rec_put(r, &v, 8);
}

static void rec_2x32(struct rec *r, uint32_t a, uint32_t b)
{
	rec_put(r, &a, 4);
	rec_put(r, &b, 4);
}

static void sample(struct rec *r, uint64_t id, uint64_t ip)
{
	rec_start(r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	rec_u64(r, id);
	rec_u64(r, ip);
	rec_2x32(r, 77, 78);
	rec_u64(r, 1000 + ip);
	rec_u64(r, 4000);
}

static void comm(struct rec *r, uint64_t id)
{
	static const char name[16] = "work";

	rec_start(r, PERF_RECORD_COMM, 0);
	rec_2x32(r, 77, 78);
	rec_put(r, name, 8);
	rec_2x32(r, 77, 78);   /* trailer: TID, TIME, IDENTIFIER */
	rec_u64(r, 5);
	rec_u64(r, id);
}

/* The records both kinds of file carry; an odd-sized one (type 100, 12
 * bytes) leaves the next one misaligned. */
static size_t make_records(struct rec *r, const uint64_t *ids)
{
	size_t n = 0;

	comm(&r[n++], ids[0]);
	sample(&r[n++], ids[0], 0x1000);
	sample(&r[n++], ids[2], 0x2000);
	sample(&r[n++], ids[1], 0x3000);
	rec_start(&r[n++], FINISHED_ROUND, 0);
	rec_start(&r[n], 100, 0);
	rec_2x32(&r[n++], 0xabcd, 0);
	r[n - 1].u.h.size = 12;
	sample(&r[n++], ids[2], 0x4000);
	return n;
}

static struct perf_event_attr make_attr(uint64_t config)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = config;
	a.sample_period = 4000;
	a.sample_type = ST;
	a.sample_id_all = 1;
	return a;
}

/* --- a file from our writer ------------------------------------------------- */

static const uint64_t IDS[] = { 11, 12, 21 };
static const char BLOB[] = "tree=core2\n\0binary\xff\n";
static const char *const ARGV[] = { "cyctop", "record", "-e", "cpu-clock", NULL };

static const struct perfdata_build_id BIDS[] = {
	{ -1, true, "[kernel.kallsyms]", { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	  16, 17, 18, 19, 20 }, 20 },
	{ 1234, false, "/usr/lib/libfoo.so.1", { 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 1, 2, 3, 4,
	  5, 6, 7, 8, 9, 10 }, 16 },
};

static const struct perfdata_group GROUPS[] = { { "{cyc}", 0, 2 } };

static void write_file(const char *path, struct rec *recs, size_t *nrec)
{
	char err[256];
	struct perfdata_writer *w = perfdata_create(path, err, sizeof(err));
	struct perf_event_attr a0 = make_attr(PERF_COUNT_SW_CPU_CLOCK);
	struct perf_event_attr a1 = make_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct perfdata_meta m = { 0 };

	assert_non_null(w);
	a0.size = 0;   /* as libpfm leaves it: the writer sets it */
	assert_int_equal(perfdata_add_attr(w, &a0, IDS, 1, "cpu-clock"), 0);
	assert_int_equal(perfdata_add_attr(w, &a1, IDS + 2, 1, "task-clock"), 1);
	assert_int_equal(perfdata_add_ids(w, 0, IDS + 1, 1), 0);
	*nrec = make_records(recs, IDS);
	for (size_t i = 0; i < *nrec; i++)
		assert_int_equal(perfdata_write(w, &recs[i].u.h), 0);
	m.cmdline = ARGV;
	m.cpudesc = "Intel(R) Core(TM)2 Duo CPU";
	m.cpuid = "GenuineIntel,6,15,11";
	m.pmu = "core";
	m.nr_cpus = 4;
	m.hostname = "host1";
	m.osrelease = "6.1.0-test";
	m.arch = "x86_64";
	m.build_ids = BIDS;
	m.nr_build_ids = 2;
	m.groups = GROUPS;
	m.nr_groups = 1;
	m.blob = BLOB;
	m.blob_len = sizeof(BLOB) - 1;
	assert_int_equal(perfdata_finish(w, &m, err, sizeof(err)), 0);
}

static unsigned char *writer_image(size_t *n)
{
	char path[512];
	struct rec recs[16];
	size_t nrec;
	unsigned char *b;

	tmp_path(path, sizeof(path), "w.data");
	write_file(path, recs, &nrec);
	b = read_all(path, n);
	unlink(path);
	return b;
}

/* Reads every record and touches every accessor: a hostile file must not
 * crash any of them.  Returns the number of records. */
static size_t walk(struct perfdata *pd, int *last_rc, char *err, size_t errsz)
{
	const struct perf_event_header *rec;
	uint64_t off;
	size_t n = 0, len;
	int rc;

	for (size_t i = 0; i < perfdata_nr_attrs(pd); i++) {
		size_t nids;
		const uint64_t *ids = perfdata_attr_ids(pd, i, &nids);
		assert_non_null(perfdata_attr(pd, i));
		for (size_t j = 0; j < nids; j++)
			assert_true(perfdata_attr_of_id(pd, ids[j]) >= 0);
		if (perfdata_attr_name(pd, i))
			(void)strlen(perfdata_attr_name(pd, i));
	}
	for (size_t i = 0; i < perfdata_nr_build_ids(pd); i++)
		(void)strlen(perfdata_build_id(pd, i)->path);
	for (size_t i = 0; i < perfdata_nr_groups(pd); i++)
		(void)perfdata_group(pd, i)->nr_members;
	(void)perfdata_blob(pd, &len);
	while ((rc = perfdata_next(pd, &rec, &off, err, errsz)) == 1) {
		int idx = perfdata_record_attr(pd, rec);
		struct record r;
		assert_int_equal((uintptr_t)rec % 8, 0);
		if (idx >= 0)
			(void)record_decode(rec, perfdata_attr(pd, (size_t)idx)->sample_type,
					    perfdata_attr(pd, (size_t)idx)->sample_id_all, &r);
		n++;
	}
	*last_rc = rc;
	return n;
}

static void test_round_trip(void **state)
{
	char path[512], err[256];
	struct rec recs[16];
	size_t nrec, n, argc;
	struct perfdata *pd;
	const struct perf_event_header *rec;
	const uint64_t *ids;
	const char *const *argv;
	const void *blob;
	uint64_t off, want_off = 104;

	tmp_path(path, sizeof(path), "rt.data");
	write_file(path, recs, &nrec);
	pd = perfdata_open(path, err, sizeof(err));
	assert_non_null(pd);

	assert_int_equal(perfdata_nr_attrs(pd), 2);
	assert_int_equal(perfdata_attr(pd, 0)->config, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(perfdata_attr(pd, 0)->size, sizeof(struct perf_event_attr));
	assert_int_equal(perfdata_attr(pd, 1)->config, PERF_COUNT_SW_TASK_CLOCK);
	assert_int_equal(perfdata_attr(pd, 1)->sample_type, ST);
	assert_null(perfdata_attr(pd, 2));
	ids = perfdata_attr_ids(pd, 0, &n);
	assert_int_equal(n, 2);
	assert_int_equal(ids[0], 11);
	assert_int_equal(ids[1], 12);
	ids = perfdata_attr_ids(pd, 1, &n);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], 21);
	assert_string_equal(perfdata_attr_name(pd, 0), "cpu-clock");
	assert_string_equal(perfdata_attr_name(pd, 1), "task-clock");
	assert_int_equal(perfdata_attr_of_id(pd, 12), 0);
	assert_int_equal(perfdata_attr_of_id(pd, 21), 1);
	assert_int_equal(perfdata_attr_of_id(pd, 99), -1);
	assert_true(perfdata_sample_id_all(pd));

	assert_string_equal(perfdata_hostname(pd), "host1");
	assert_string_equal(perfdata_osrelease(pd), "6.1.0-test");
	assert_string_equal(perfdata_arch(pd), "x86_64");
	assert_string_equal(perfdata_cpudesc(pd), "Intel(R) Core(TM)2 Duo CPU");
	assert_string_equal(perfdata_cpuid(pd), "GenuineIntel,6,15,11");
	assert_int_equal(perfdata_nr_cpus(pd), 4);
	assert_string_equal(perfdata_cmdline(pd), "cyctop record -e cpu-clock");
	argv = perfdata_cmdline_argv(pd, &argc);
	assert_int_equal(argc, 4);
	assert_string_equal(argv[3], "cpu-clock");
	assert_null(argv[4]);
	assert_string_equal(perfdata_pmu(pd), "core");
	blob = perfdata_blob(pd, &n);
	assert_int_equal(n, sizeof(BLOB) - 1);
	assert_memory_equal(blob, BLOB, n);
	assert_true(perfdata_has_feature(pd, PERFDATA_FEAT_CYCTOP));
	assert_true(perfdata_has_feature(pd, 12));   /* HEADER_EVENT_DESC */
	assert_false(perfdata_has_feature(pd, 1));   /* HEADER_TRACING_DATA */

	assert_int_equal(perfdata_nr_build_ids(pd), 2);
	for (size_t i = 0; i < 2; i++) {
		const struct perfdata_build_id *b = perfdata_build_id(pd, i);
		assert_int_equal(b->pid, BIDS[i].pid);
		assert_int_equal(b->kernel, BIDS[i].kernel);
		assert_string_equal(b->path, BIDS[i].path);
		assert_int_equal(b->id_len, BIDS[i].id_len);
		assert_memory_equal(b->id, BIDS[i].id, b->id_len);
	}
	assert_int_equal(perfdata_nr_groups(pd), 1);
	assert_string_equal(perfdata_group(pd, 0)->name, "{cyc}");
	assert_int_equal(perfdata_group(pd, 0)->leader_idx, 0);
	assert_int_equal(perfdata_group(pd, 0)->nr_members, 2);

	assert_false(perfdata_unfinished(pd));
	assert_int_equal(perfdata_data_offset(pd), 104);
	for (int pass = 0; pass < 2; pass++) {
		want_off = 104;
		for (size_t i = 0; i < nrec; i++) {
			assert_int_equal(perfdata_next(pd, &rec, &off, err, sizeof(err)), 1);
			assert_int_equal(off, want_off);
			assert_int_equal((uintptr_t)rec % 8, 0);
			assert_int_equal(rec->size, recs[i].u.h.size);
			assert_memory_equal(rec, recs[i].u.b, rec->size);
			want_off += rec->size;
		}
		assert_int_equal(perfdata_next(pd, &rec, &off, err, sizeof(err)), 0);
		assert_int_equal(perfdata_data_size(pd), want_off - 104);
		perfdata_rewind(pd);
	}

	/* records map to their attrs and decode */
	for (size_t i = 0; perfdata_next(pd, &rec, &off, err, sizeof(err)) == 1; i++) {
		struct record r;
		int idx = perfdata_record_attr(pd, rec);
		if (rec->type == PERF_RECORD_SAMPLE) {
			assert_true(idx >= 0);
			assert_int_equal(record_decode(rec, perfdata_attr(pd, (size_t)idx)->sample_type,
						       true, &r), 0);
			assert_int_equal(perfdata_attr_of_id(pd, r.u.sample.id), idx);
			assert_int_equal(r.u.sample.tid, 78);
		} else if (rec->type == PERF_RECORD_COMM) {
			assert_int_equal(idx, 0);
		} else {
			assert_int_equal(idx, -1);   /* perf's own types carry no id */
		}
	}
	perfdata_close(pd);
	unlink(path);
}

/* No meta, no records: uname and sysconf fill in, one FINISHED_ROUND keeps
 * the data size above 0. */
static void test_defaults(void **state)
{
	char path[512], err[256];
	struct perfdata_writer *w;
	struct perfdata *pd;
	struct perf_event_attr a = make_attr(0);
	const struct perf_event_header *rec;
	struct utsname u;
	uint64_t off;
	size_t n;

	tmp_path(path, sizeof(path), "def.data");
	w = perfdata_create(path, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(perfdata_add_attr(w, &a, NULL, 0, NULL), 0);
	assert_int_equal(perfdata_finish(w, NULL, err, sizeof(err)), 0);
	pd = perfdata_open(path, err, sizeof(err));
	assert_non_null(pd);
	assert_int_equal(uname(&u), 0);
	assert_string_equal(perfdata_hostname(pd), u.nodename);
	assert_string_equal(perfdata_osrelease(pd), u.release);
	assert_string_equal(perfdata_arch(pd), u.machine);
	assert_int_equal(perfdata_nr_cpus(pd), sysconf(_SC_NPROCESSORS_ONLN));
	assert_null(perfdata_cpudesc(pd));
	assert_null(perfdata_cpuid(pd));
	assert_null(perfdata_pmu(pd));
	assert_string_equal(perfdata_cmdline(pd), "");
	assert_non_null(perfdata_attr_name(pd, 0));   /* a made-up name */
	assert_int_equal(perfdata_nr_build_ids(pd), 0);
	assert_int_equal(perfdata_nr_groups(pd), 0);
	perfdata_blob(pd, &n);
	assert_int_equal(n, 0);
	assert_false(perfdata_unfinished(pd));
	assert_int_equal(perfdata_next(pd, &rec, &off, err, sizeof(err)), 1);
	assert_int_equal(rec->type, FINISHED_ROUND);
	assert_int_equal(perfdata_next(pd, &rec, &off, err, sizeof(err)), 0);
	perfdata_close(pd);
	unlink(path);
}

/* Every cut of a file from our writer (attrs come last) is refused. */
static void test_truncated_writer_file(void **state)
{
	size_t len;
	unsigned char *b = writer_image(&len);
	char err[256];

	for (size_t cut = 0; cut < len; cut++) {
		struct perfdata *pd;
		err[0] = '\0';
		pd = perfdata_open_mem(b, cut, err, sizeof(err));
		if (pd)
			fail_msg("a file cut at %zu of %zu opened", cut, len);
		assert_true(strncmp(err, "perf.data: ", 11) == 0);
	}
	free(b);
}

/* B (LEN bytes) is an interrupted recording of RECS, its records last:
 * with data size 0, each cut inside them reads the whole records before
 * the cut, then ends, the cut bytes counted. */
static void check_cut_tail(unsigned char *b, size_t len, const struct rec *recs, size_t nrec)
{
	size_t end[17], data;
	char err[256];
	int rc;

	end[0] = 0;
	for (size_t i = 0; i < nrec; i++)
		end[i + 1] = end[i] + recs[i].u.h.size;
	data = len - end[nrec];
	set64(b, 48, 0);
	for (size_t cut = data; cut <= len; cut++) {
		size_t whole = 0;
		while (whole < nrec && data + end[whole + 1] <= cut)
			whole++;
		struct perfdata *pd = perfdata_open_mem(b, cut, err, sizeof(err));
		assert_non_null(pd);
		assert_true(perfdata_unfinished(pd) && perfdata_interrupted(pd));
		assert_int_equal(walk(pd, &rc, err, sizeof(err)), whole);
		assert_int_equal(rc, 0);
		assert_int_equal(perfdata_cut_bytes(pd), cut - data - end[whole]);
		perfdata_close(pd);
	}
}

/* A writer that began (attrs up front), flushed after each record and was
 * then killed: its file reads whole, as an interrupted recording (no
 * features).  Killed before a flush updated the header (data size 0), every
 * cut inside the data ends at the last whole record.  One that finishes
 * after begin reads like any other file, its records after the early attrs. */
static void test_begin(void **state)
{
	char path[512], err[256];
	struct rec recs[16];
	size_t nrec = make_records(recs, IDS), len;
	struct perf_event_attr a0 = make_attr(PERF_COUNT_SW_CPU_CLOCK);
	unsigned char *b;
	int rc;

	for (int finish = 0; finish < 2; finish++) {
		struct perfdata_writer *w;
		tmp_path(path, sizeof(path), "begin.data");
		w = perfdata_create(path, err, sizeof(err));
		assert_non_null(w);
		assert_int_equal(perfdata_add_attr(w, &a0, IDS, 3, "cpu-clock"), 0);
		assert_int_equal(perfdata_begin(w), 0);
		assert_int_equal(perfdata_begin(w), -1);   /* once, before the data */
		for (size_t i = 0; i < nrec; i++) {
			assert_int_equal(perfdata_write(w, &recs[i].u.h), 0);
			assert_int_equal(perfdata_flush(w), 0);
		}
		if (finish)
			assert_int_equal(perfdata_finish(w, NULL, err, sizeof(err)), 0);
		else
			perfdata_abort(w);   /* what SIGKILL leaves */
		b = read_all(path, &len);
		unlink(path);
		struct perfdata *pd = perfdata_open_mem(b, len, err, sizeof(err));
		assert_non_null(pd);
		assert_false(perfdata_unfinished(pd));
		assert_int_equal(perfdata_interrupted(pd), !finish);
		assert_int_equal(perfdata_nr_attrs(pd), 1);
		assert_int_equal(perfdata_attr(pd, 0)->config, PERF_COUNT_SW_CPU_CLOCK);
		assert_int_equal(perfdata_attr_of_id(pd, IDS[2]), 0);
		assert_true(perfdata_data_offset(pd) > 104);
		assert_int_equal(walk(pd, &rc, err, sizeof(err)), nrec);
		assert_int_equal(rc, 0);
		perfdata_close(pd);
		if (!finish)
			check_cut_tail(b, len, recs, nrec);
		free(b);
	}
}

/* --- perf's own layout, by hand ----------------------------------------------- */

struct layout {
	size_t attr_bytes;    /* perf_event_attr bytes per attr on disk */
	bool unfinished;      /* data size 0 and no features */
	size_t data_off;
	size_t rec_end[16];   /* file offset after each record */
	size_t nrec;
};

/* header | ids | attrs | data | feature table | HOSTNAME */
static struct img perf_layout(struct layout *l)
{
	struct img m = { 0 };
	struct rec recs[16];
	struct perf_event_attr a[2] = { make_attr(PERF_COUNT_SW_CPU_CLOCK),
					make_attr(PERF_COUNT_SW_TASK_CLOCK) };
	size_t ids_off = 104, attrs_off = ids_off + 24, asz = l->attr_bytes + 16;
	unsigned char junk[64];
	size_t data_size = 0;

	memset(junk, 0xaa, sizeof(junk));
	img_put(&m, NULL, 104);
	img_u64(&m, IDS[0]);
	img_u64(&m, IDS[1]);
	img_u64(&m, IDS[2]);
	for (int i = 0; i < 2; i++) {
		size_t k = l->attr_bytes < sizeof(a[i]) ? l->attr_bytes : sizeof(a[i]);
		a[i].size = (uint32_t)l->attr_bytes;
		img_put(&m, &a[i], k);
		img_put(&m, junk, l->attr_bytes - k);   /* fields of a newer perf */
		img_u64(&m, i ? ids_off + 16 : ids_off);
		img_u64(&m, i ? 8 : 16);
	}
	l->data_off = m.n;
	l->nrec = make_records(recs, IDS);
	for (size_t i = 0; i < l->nrec; i++) {
		img_put(&m, recs[i].u.b, recs[i].u.h.size);
		l->rec_end[i] = m.n;
		data_size += recs[i].u.h.size;
	}
	if (!l->unfinished) {
		size_t feat = m.n + 16;
		img_u64(&m, feat);
		img_u64(&m, 4 + 64);
		img_u32(&m, 64);
		img_put(&m, "perf-host", 10);
		img_put(&m, NULL, 54);
	}
	memcpy(m.b, "PERFILE2", 8);
	set64(m.b, 8, 104);
	set64(m.b, 16, asz);
	set64(m.b, 24, attrs_off);
	set64(m.b, 32, 2 * asz);
	set64(m.b, 40, l->data_off);
	set64(m.b, 48, l->unfinished ? 0 : data_size);
	if (!l->unfinished)
		set64(m.b, 72, 1ULL << 3);   /* HEADER_HOSTNAME */
	return m;
}

static void check_perf_layout(size_t attr_bytes)
{
	struct layout l = { .attr_bytes = attr_bytes };
	struct img m = perf_layout(&l);
	char err[256];
	struct perfdata *pd = perfdata_open_mem(m.b, m.n, err, sizeof(err));
	size_t n;
	int rc;

	if (!pd)
		fail_msg("%s", err);
	assert_int_equal(perfdata_nr_attrs(pd), 2);
	assert_int_equal(perfdata_attr(pd, 1)->config, PERF_COUNT_SW_TASK_CLOCK);
	assert_int_equal(perfdata_attr(pd, 1)->sample_type, ST);
	assert_int_equal(perfdata_attr(pd, 1)->sample_id_all, 1);
	assert_int_equal(perfdata_attr_of_id(pd, 21), 1);
	perfdata_attr_ids(pd, 0, &n);
	assert_int_equal(n, 2);
	assert_null(perfdata_attr_name(pd, 0));
	assert_string_equal(perfdata_hostname(pd), "perf-host");
	assert_null(perfdata_pmu(pd));
	assert_int_equal(walk(pd, &rc, err, sizeof(err)), l.nrec);
	assert_int_equal(rc, 0);
	perfdata_close(pd);
	free(m.b);
}

static void test_perf_layout(void **state)
{
	check_perf_layout(sizeof(struct perf_event_attr));
}

/* perf_event_attr grew over the years: VER0 is 64 bytes; a newer perf's
 * longer attr is cut, its ids still found after it. */
static void test_attr_sizes(void **state)
{
	struct layout l = { .attr_bytes = PERF_ATTR_SIZE_VER0 };
	struct img m;
	char err[256];
	struct perfdata *pd;

	check_perf_layout(PERF_ATTR_SIZE_VER0);
	check_perf_layout(sizeof(struct perf_event_attr) + 24);
	/* what VER0 lacks (bp_addr onwards) reads as 0 */
	m = perf_layout(&l);
	pd = perfdata_open_mem(m.b, m.n, err, sizeof(err));
	assert_non_null(pd);
	assert_int_equal(perfdata_attr(pd, 0)->bp_addr, 0);
	assert_int_equal(perfdata_attr(pd, 0)->branch_sample_type, 0);
	perfdata_close(pd);
	free(m.b);
}

/* Every cut of a finished perf-layout file is refused; an unfinished file
 * (data size 0: records to the end of the file) cut inside its data gives
 * the whole records before the cut, then its end, the cut bytes counted. */
static void test_truncated_perf_layout(void **state)
{
	for (int unfinished = 0; unfinished < 2; unfinished++) {
		struct layout l = { .attr_bytes = sizeof(struct perf_event_attr),
				    .unfinished = unfinished };
		struct img m = perf_layout(&l);
		for (size_t cut = 0; cut < m.n + unfinished; cut++) {
			char err[256] = "";
			unsigned char *b = malloc(cut ? cut : 1);
			struct perfdata *pd;
			size_t want = 0, got, last_end = l.data_off;
			int rc;

			memcpy(b, m.b, cut);
			pd = perfdata_open_mem(b, cut, err, sizeof(err));
			free(b);
			if (!unfinished || cut < l.data_off) {
				if (pd)
					fail_msg("cut at %zu of %zu opened", cut, m.n);
				assert_non_null(strstr(err, "perf.data: "));
				continue;
			}
			if (!pd)
				fail_msg("cut at %zu: %s", cut, err);
			assert_true(perfdata_unfinished(pd));
			for (size_t i = 0; i < l.nrec; i++)
				if (l.rec_end[i] <= cut) {
					want++;
					last_end = l.rec_end[i];
				}
			got = walk(pd, &rc, err, sizeof(err));
			assert_int_equal(got, want);
			assert_int_equal(rc, 0);
			assert_int_equal(perfdata_cut_bytes(pd), cut - last_end);
			/* the end stays the end */
			{
				const struct perf_event_header *rec;
				uint64_t off;
				assert_int_equal(perfdata_next(pd, &rec, &off, err, sizeof(err)), 0);
			}
			perfdata_close(pd);
		}
		free(m.b);
	}
}

/* --- corruption ------------------------------------------------------------------ */

static void expect_refused(const unsigned char *b, size_t n, const char *what)
{
	char err[256] = "";
	struct perfdata *pd = perfdata_open_mem(b, n, err, sizeof(err));

	if (pd)
		fail_msg("%s: opened", what);
	if (!strstr(err, "offset"))
		fail_msg("%s: no offset in \"%s\"", what, err);
}

/* the offset of feature BIT's section entry in the table */
static size_t feat_entry(const unsigned char *b, unsigned int bit)
{
	size_t table = get64(b, 40) + get64(b, 48), k = 0;

	for (unsigned int i = 0; i < bit; i++)
		k += get64(b, 72 + i / 64 * 8) >> (i % 64) & 1;
	return table + k * 16;
}

static void test_corrupt_sizes(void **state)
{
	size_t len;
	unsigned char *b = writer_image(&len);
	unsigned char *c = malloc(len);
	const uint64_t bad[] = { UINT64_MAX, UINT64_MAX - 7, 1ULL << 63, (uint64_t)len + 1,
				 UINT64_MAX - 103 };
	/* header fields: attr_size, attrs {offset, size}, data {offset, size} */
	const size_t fields[] = { 16, 24, 32, 40, 48 };
	size_t attrs = (size_t)get64(b, 24), asz = (size_t)get64(b, 16);
	char what[128];

	assert_non_null(c);
	for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++)
		for (size_t v = 0; v < sizeof(bad) / sizeof(bad[0]); v++) {
			memcpy(c, b, len);
			set64(c, fields[f], bad[v]);
			snprintf(what, sizeof(what), "header field %zu = %#llx", fields[f],
				 (unsigned long long)bad[v]);
			expect_refused(c, len, what);
		}
	/* attr_size 0 and too small */
	memcpy(c, b, len);
	set64(c, 16, 0);
	expect_refused(c, len, "attr_size 0");
	/* each attr's ids section; a misaligned one */
	for (size_t i = 0; i < 2; i++)
		for (size_t v = 0; v < sizeof(bad) / sizeof(bad[0]); v++)
			for (size_t k = 0; k < 2; k++) {
				memcpy(c, b, len);
				set64(c, attrs + i * asz + asz - 16 + k * 8, bad[v]);
				snprintf(what, sizeof(what), "attr %zu ids field %zu", i, k);
				expect_refused(c, len, what);
			}
	memcpy(c, b, len);
	set64(c, attrs + asz - 16, get64(b, attrs + asz - 16) + 4);
	expect_refused(c, len, "misaligned ids");
	/* ids sections overlapping into more ids than the file holds */
	memcpy(c, b, len);
	set64(c, attrs + asz - 16, 0);
	set64(c, attrs + asz - 8, len / 8 * 8);
	set64(c, attrs + 2 * asz - 16, 0);
	set64(c, attrs + 2 * asz - 8, len / 8 * 8);
	expect_refused(c, len, "overlapping ids");
	/* every feature section entry */
	for (unsigned int bit = 0; bit < 256; bit++) {
		size_t e;
		if (!(get64(b, 72 + bit / 64 * 8) >> (bit % 64) & 1))
			continue;
		e = feat_entry(b, bit);
		for (size_t v = 0; v < sizeof(bad) / sizeof(bad[0]); v++)
			for (size_t k = 0; k < 2; k++) {
				memcpy(c, b, len);
				set64(c, e + k * 8, bad[v]);
				snprintf(what, sizeof(what), "feature %u field %zu", bit, k);
				expect_refused(c, len, what);
			}
	}
	/* all 256 feature bits: the table runs past the end */
	memcpy(c, b, len);
	memset(c + 72, 0xff, 32);
	expect_refused(c, len, "all feature bits");
	free(c);
	free(b);
}

/* Counts and lengths inside the feature sections. */
static void test_corrupt_features(void **state)
{
	size_t len;
	unsigned char *b = writer_image(&len);
	unsigned char *c = malloc(len);
	const uint32_t bad[] = { UINT32_MAX, 0x80000000u, 0x10000u, 1000 };
	/* {feature bit, offset of a u32 count or length in its body} */
	const unsigned int where[][2] = {
		{ 3, 0 },       /* HOSTNAME string length */
		{ 11, 0 },      /* CMDLINE argument count */
		{ 11, 4 },      /* its first string's length */
		{ 12, 0 },      /* EVENT_DESC event count */
		{ 12, 4 },      /* its attr size */
		{ 12, 8 + sizeof(struct perf_event_attr) },       /* first nr_ids */
		{ 12, 8 + sizeof(struct perf_event_attr) + 4 },   /* first name length */
		{ 17, 0 },      /* GROUP_DESC count */
		{ 255, 8 },     /* cyctop: PMU name length */
	};

	assert_non_null(c);
	for (size_t w = 0; w < sizeof(where) / sizeof(where[0]); w++)
		for (size_t v = 0; v < sizeof(bad) / sizeof(bad[0]); v++) {
			size_t body = (size_t)get64(b, feat_entry(b, where[w][0]));
			char what[64];
			memcpy(c, b, len);
			memcpy(c + body + where[w][1], &bad[v], 4);
			snprintf(what, sizeof(what), "feature %u +%u = %#x", where[w][0],
				 where[w][1], bad[v]);
			expect_refused(c, len, what);
		}
	/* a build id record with size below its header, then a huge one */
	for (uint16_t size = 0; size < 36; size += 7) {
		size_t body = (size_t)get64(b, feat_entry(b, 2));
		memcpy(c, b, len);
		memcpy(c + body + 6, &size, 2);
		expect_refused(c, len, "small build id record");
	}
	{
		size_t body = (size_t)get64(b, feat_entry(b, 2));
		uint16_t size = UINT16_MAX;
		memcpy(c, b, len);
		memcpy(c + body + 6, &size, 2);
		expect_refused(c, len, "huge build id record");
	}
	/* the blob length */
	{
		size_t body = (size_t)get64(b, feat_entry(b, 255));
		uint32_t slen;
		memcpy(&slen, b + body + 8, 4);
		memcpy(c, b, len);
		set64(c, body + 12 + slen, UINT64_MAX);
		expect_refused(c, len, "blob length");
	}
	free(c);
	free(b);
}

/* A refusal is one line that says something. */
static void assert_one_line(const char *err)
{
	assert_true(err[0] != '\0');
	assert_null(strchr(err, '\n'));
}

/* Every byte of the file flipped in turn: open it or refuse it with one
 * line, never crash; what opens reads to the end (0) or to an error (-1,
 * with its line).  Some flips must be refused (the magic, the header
 * size), and a flip of nothing leaves the file whole. */
static void test_byte_flips(void **state)
{
	size_t len, refused = 0;
	unsigned char *b = writer_image(&len);
	const unsigned char masks[] = { 0xff, 0x80, 0x01 };

	for (size_t i = 0; i < len; i++)
		for (size_t k = 0; k < sizeof(masks); k++) {
			char err[256] = "";
			struct perfdata *pd;
			int rc;
			b[i] ^= masks[k];
			pd = perfdata_open_mem(b, len, err, sizeof(err));
			if (pd) {
				walk(pd, &rc, err, sizeof(err));
				assert_true(rc == 0 || rc == -1);
				if (rc == -1)
					assert_one_line(err);
				perfdata_close(pd);
			} else {
				assert_one_line(err);
				refused++;
			}
			b[i] ^= masks[k];
		}
	assert_true(refused >= 8 * sizeof(masks));  /* at least the magic's 8 bytes */
	{
		char err[256] = "";
		int rc;
		struct perfdata *pd = perfdata_open_mem(b, len, err, sizeof(err));
		assert_non_null(pd);
		walk(pd, &rc, err, sizeof(err));
		assert_int_equal(rc, 0);
		perfdata_close(pd);
	}
	free(b);
}

static void expect_error(const unsigned char *b, size_t n, const char *msg)
{
	char err[256] = "";
	struct perfdata *pd = perfdata_open_mem(b, n, err, sizeof(err));

	assert_null(pd);
	if (!strstr(err, msg))
		fail_msg("\"%s\" not in \"%s\"", msg, err);
}

static void test_magic_and_header(void **state)
{
	size_t len;
	unsigned char *b = writer_image(&len);
	unsigned char *c = malloc(len);
	struct perfdata *pd;
	char err[256];

	assert_non_null(c);
	memcpy(c, b, len);
	for (int i = 0; i < 8; i++)
		c[i] = b[7 - i];
	expect_error(c, len, "big-endian/other-endian perf.data not supported");
	memcpy(c, "PERFFILE", 8);
	expect_error(c, len, "PERFFILE");
	memcpy(c, "ELF\x7f\0\0\0\0", 8);
	expect_error(c, len, "not a perf.data file");
	memcpy(c, b, len);
	set64(c, 8, 16);
	expect_error(c, len, "record at offset 16");   /* pipe mode: records follow */
	set64(c, 8, 200);
	expect_error(c, len, "header size 200 at offset 8");
	expect_error(b, 15, "too short");
	expect_error(b, 0, "too short");
	expect_error(b, 100, "header at offset 0 (104 bytes) runs past the end of the file (size 100)");
	/* attrs not a whole number of attrs */
	memcpy(c, b, len);
	set64(c, 32, get64(b, 32) - 8);
	expect_error(c, len, "whole number");
	/* a 72-byte header (before the feature bitmap): no features read */
	memcpy(c, b, len);
	set64(c, 8, 72);
	pd = perfdata_open_mem(c, len, err, sizeof(err));
	assert_non_null(pd);
	assert_null(perfdata_hostname(pd));
	assert_false(perfdata_has_feature(pd, 3));
	perfdata_close(pd);
	free(c);
	free(b);
}

/* --- ids at perf's positions ------------------------------------------------------- */

/* Without IDENTIFIER, a SAMPLE's ID sits after IP, TID, TIME, ADDR and a
 * trailer's is counted from the end past CPU and STREAM_ID (perf's
 * evsel id_pos / is_pos). */
static void test_record_attr_id_pos(void **state)
{
	char path[512], err[256];
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	struct perf_event_attr a = make_attr(0);
	uint64_t ids0 = 500, ids1 = 600, off;
	struct perfdata_writer *w;
	struct perfdata *pd;
	const struct perf_event_header *rec;
	struct rec r;
	int want[4] = { 1, 0, 1, -1 }, k = 0;

	a.sample_type = st;
	tmp_path(path, sizeof(path), "idpos.data");
	w = perfdata_create(path, err, sizeof(err));
	assert_non_null(w);
	perfdata_add_attr(w, &a, &ids0, 1, "a");
	perfdata_add_attr(w, &a, &ids1, 1, "b");
	rec_start(&r, PERF_RECORD_SAMPLE, 0);
	rec_u64(&r, 0x1000);       /* ip */
	rec_2x32(&r, 1, 2);        /* tid */
	rec_u64(&r, 3);            /* time */
	rec_u64(&r, 600);          /* id */
	rec_2x32(&r, 0, 0);        /* cpu */
	rec_u64(&r, 1);            /* period */
	assert_int_equal(perfdata_write(w, &r.u.h), 0);
	rec_start(&r, PERF_RECORD_EXIT, 0);
	rec_2x32(&r, 1, 1);
	rec_2x32(&r, 2, 2);
	rec_u64(&r, 9);
	rec_2x32(&r, 1, 2);        /* trailer: TID, TIME, ID, CPU */
	rec_u64(&r, 9);
	rec_u64(&r, 500);
	rec_2x32(&r, 0, 0);
	assert_int_equal(perfdata_write(w, &r.u.h), 0);
	rec_start(&r, PERF_RECORD_LOST, 0);
	rec_u64(&r, 600);
	rec_u64(&r, 5);
	rec_2x32(&r, 1, 2);
	rec_u64(&r, 9);
	rec_u64(&r, 600);
	rec_2x32(&r, 0, 0);
	assert_int_equal(perfdata_write(w, &r.u.h), 0);
	rec_start(&r, PERF_RECORD_SAMPLE, 0);   /* too short for its id */
	rec_u64(&r, 0x1000);
	assert_int_equal(perfdata_write(w, &r.u.h), 0);
	assert_int_equal(perfdata_finish(w, NULL, err, sizeof(err)), 0);

	pd = perfdata_open(path, err, sizeof(err));
	assert_non_null(pd);
	while (perfdata_next(pd, &rec, &off, err, sizeof(err)) == 1)
		assert_int_equal(perfdata_record_attr(pd, rec), want[k++]);
	assert_int_equal(k, 4);
	perfdata_close(pd);
	unlink(path);
}

/* --- file errors ------------------------------------------------------------------- */

static void test_file_errors(void **state)
{
	char path[512], err[256];
	struct perf_event_header small = { PERF_RECORD_SAMPLE, 0, 4 };
	struct perfdata_writer *w;
	FILE *f;

	tmp_path(path, sizeof(path), "missing.data");
	assert_null(perfdata_open(path, err, sizeof(err)));
	assert_non_null(strstr(err, "missing.data: "));
	assert_null(perfdata_open(tmpdir, err, sizeof(err)));   /* --threads' DIR/data */
	assert_non_null(strstr(err, "/data: No such file or directory"));
	assert_null(perfdata_open("/dev/null", err, sizeof(err)));
	assert_non_null(strstr(err, "not a regular file"));
	tmp_path(path, sizeof(path), "empty.data");
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_null(perfdata_open(path, err, sizeof(err)));
	assert_non_null(strstr(err, "empty.data: 0 bytes: too short"));
	unlink(path);

	tmp_path(path, sizeof(path), "no/such/dir.data");
	assert_null(perfdata_create(path, err, sizeof(err)));
	assert_non_null(strstr(err, "dir.data: "));

	tmp_path(path, sizeof(path), "abort.data");
	w = perfdata_create(path, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(perfdata_write(w, &small), -1);
	assert_int_equal(perfdata_add_ids(w, 3, NULL, 0), -1);
	perfdata_abort(w);
	/* what an interrupted recording leaves: a placeholder header, data
	 * size 0, no attrs; it opens as unfinished */
	{
		struct perfdata *pd = perfdata_open(path, err, sizeof(err));
		const struct perf_event_header *rec;
		uint64_t off;
		assert_non_null(pd);
		assert_true(perfdata_unfinished(pd));
		assert_int_equal(perfdata_nr_attrs(pd), 0);
		assert_int_equal(perfdata_next(pd, &rec, &off, err, sizeof(err)), 0);
		perfdata_close(pd);
	}
	unlink(path);
}

/* --- pipe mode, payloads, compressed records ----------------------------- */

/* A record into M: header, then BODY (N bytes). */
static void img_rec(struct img *m, uint32_t type, const void *body, size_t n)
{
	struct perf_event_header h = { type, 0, (uint16_t)(sizeof(h) + n) };

	img_put(m, &h, sizeof(h));
	img_put(m, body, n);
}

/* HEADER_ATTR: an attr of config CONFIG, then its ids. */
static void img_attr(struct img *m, uint64_t config, const uint64_t *ids, size_t nids)
{
	struct perf_event_attr a = make_attr(config);
	unsigned char body[sizeof(a) + 64];

	assert_true(nids <= 8);
	a.size = sizeof(a);
	memcpy(body, &a, sizeof(a));
	memcpy(body + sizeof(a), ids, nids * 8);
	img_rec(m, REC_HEADER_ATTR, body, sizeof(a) + nids * 8);
}

/* HEADER_FEATURE of HEADER_HOSTNAME: bit 3, a perf string. */
static void img_hostname(struct img *m, const char *name)
{
	struct img f = { 0 };
	uint32_t len = 64;

	img_u64(&f, 3);
	img_u32(&f, len);
	img_put(&f, NULL, len);
	memcpy(f.b + 12, name, strlen(name));
	img_rec(m, REC_HEADER_FEATURE, f.b, f.n);
	free(f.b);
}

/* The records of make_records (comm, samples, a round, an odd-sized one). */
static void img_records(struct img *m, const uint64_t *ids)
{
	struct rec r[16];
	size_t n = make_records(r, ids);

	for (size_t i = 0; i < n; i++)
		img_put(m, r[i].u.b, r[i].u.h.size);
}

/* An AUXTRACE record with SIZE payload bytes after it, and a TRACING_DATA
 * with 5 (padded to 8). */
static void img_payloads(struct img *m, uint64_t size)
{
	uint64_t aux[5] = { size, 0, 0, 0, 0 };
	uint32_t td[2] = { 5, 0 };

	img_rec(m, REC_AUXTRACE, aux, sizeof(aux));
	img_put(m, NULL, size);
	img_rec(m, REC_HEADER_TRACING_DATA, td, sizeof(td));
	img_put(m, "trace\0\0\0", 8);
}

/* The pipe stream the tests read: 16-byte header, attr 0 (ids 11 12), the
 * hostname, make_records, payloads, attr 1 (id 13) and its sample. */
static struct img pipe_image(void)
{
	static const uint64_t ids0[] = { 11, 12 }, ids1[] = { 13 };
	static const uint64_t rec_ids[] = { 11, 12, 11 };
	struct img m = { 0 };
	struct rec r;

	img_u64(&m, 0x32454c4946524550ULL);
	img_u64(&m, 16);
	img_attr(&m, 0, ids0, 2);
	img_hostname(&m, "pipe-host");
	img_records(&m, rec_ids);
	img_payloads(&m, 24);
	img_attr(&m, 1, ids1, 1);
	sample(&r, 13, 0x5000);
	img_put(&m, r.u.b, r.u.h.size);
	return m;
}

/* Reads a pipe_image stream: attr 0 and the hostname at open, attr 1 when
 * its record passes; every record of make_records, the payloads stepped
 * over. */
static void check_pipe(struct perfdata *pd)
{
	const struct perf_event_header *rec;
	uint32_t types[32];
	size_t n = 0;
	uint64_t off;
	char err[256];
	int rc;

	assert_true(perfdata_is_pipe(pd));
	assert_int_equal(perfdata_nr_attrs(pd), 1);
	assert_string_equal(perfdata_hostname(pd), "pipe-host");
	assert_int_equal(perfdata_attr_of_id(pd, 12), 0);
	while ((rc = perfdata_next(pd, &rec, &off, err, sizeof(err))) == 1) {
		assert_true(n < 32);
		assert_int_equal((uintptr_t)rec % 8, 0);
		types[n++] = rec->type;
		if (rec->type == PERF_RECORD_SAMPLE && get64((const void *)rec, 8) == 13) {
			assert_int_equal(perfdata_nr_attrs(pd), 2);
			assert_int_equal(perfdata_record_attr(pd, rec), 1);
		}
	}
	assert_int_equal(rc, 0);
	/* COMM, 3 samples, round, type 100, sample, AUXTRACE, TRACING_DATA,
	 * HEADER_ATTR, sample */
	assert_int_equal(n, 11);
	assert_int_equal(types[0], PERF_RECORD_COMM);
	assert_int_equal(types[7], REC_AUXTRACE);
	assert_int_equal(types[8], REC_HEADER_TRACING_DATA);
	assert_int_equal(types[9], REC_HEADER_ATTR);
	assert_int_equal(types[10], PERF_RECORD_SAMPLE);
	assert_int_equal(perfdata_cut_bytes(pd), 0);
}

static void test_pipe_mem_and_file(void **state)
{
	struct img m = pipe_image();
	char err[256], path[512];
	struct perfdata *pd;
	FILE *f;

	(void)state;
	pd = perfdata_open_mem(m.b, m.n, err, sizeof(err));
	assert_non_null(pd);
	check_pipe(pd);
	perfdata_close(pd);
	tmp_path(path, sizeof(path), "pipe.data");   /* perf record -o - >FILE */
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(m.b, 1, m.n, f), m.n);
	fclose(f);
	pd = perfdata_open(path, err, sizeof(err));
	assert_non_null(pd);
	check_pipe(pd);
	perfdata_close(pd);
	unlink(path);
	/* cut in its last record: read to there, the rest counted */
	pd = perfdata_open_mem(m.b, m.n - 3, err, sizeof(err));
	assert_non_null(pd);
	const struct perf_event_header *rec;
	uint64_t off;
	int rc;
	while ((rc = perfdata_next(pd, &rec, &off, err, sizeof(err))) == 1)
		;
	assert_int_equal(rc, 0);
	assert_int_equal(perfdata_cut_bytes(pd), 48 - 3);
	perfdata_close(pd);
	free(m.b);
}

/* A non-blocking pipe: open waits for the first kernel record, then
 * perfdata_next says 2 until a whole record is there. */
static void test_pipe_fd_nonblocking(void **state)
{
	struct img m = pipe_image();
	const struct perf_event_header *rec;
	char err[256];
	size_t first, sent;
	uint64_t off;
	int fds[2];

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(fcntl(fds[0], F_SETFL, O_NONBLOCK), 0);
	/* up to the COMM (after the attr and the feature), and 5 bytes more */
	first = 16 + (8 + sizeof(struct perf_event_attr) + 16) + (8 + 8 + 4 + 64) + 48;
	sent = first + 5;
	assert_int_equal(write(fds[1], m.b, sent), (ssize_t)sent);
	struct perfdata *pd = perfdata_open_fd(fds[0], "pipe", err, sizeof(err));
	assert_non_null(pd);
	perfdata_stream_nowait(pd, true);
	assert_int_equal(perfdata_next(pd, &rec, &off, err, sizeof(err)), 1);
	assert_int_equal(rec->type, PERF_RECORD_COMM);
	assert_int_equal(off, first - 48);
	assert_int_equal(perfdata_next(pd, &rec, &off, err, sizeof(err)), 2);
	assert_int_equal(perfdata_next(pd, &rec, &off, err, sizeof(err)), 2);
	assert_int_equal(write(fds[1], m.b + sent, m.n - sent), (ssize_t)(m.n - sent));
	close(fds[1]);
	perfdata_stream_nowait(pd, false);   /* waits: the end comes as 0 */
	size_t n = 1;
	int rc;
	while ((rc = perfdata_next(pd, &rec, &off, err, sizeof(err))) == 1)
		n++;
	assert_int_equal(rc, 0);
	assert_int_equal(n, 11);
	assert_int_equal(perfdata_nr_attrs(pd), 2);
	perfdata_close(pd);
	close(fds[0]);   /* the fd stays the caller's */
	free(m.b);
}

/* HEADER_ATTR too short for its attr, a payload past the end of a file's
 * data section: one error naming the offset. */
static void test_pipe_errors(void **state)
{
	struct img m = { 0 };
	char err[256];
	uint32_t small[4] = { 0, 200, 0, 0 };   /* attr.size 200 in a 16-byte body */

	(void)state;
	img_u64(&m, 0x32454c4946524550ULL);
	img_u64(&m, 16);
	img_rec(&m, REC_HEADER_ATTR, small, sizeof(small));
	assert_null(perfdata_open_mem(m.b, m.n, err, sizeof(err)));
	assert_non_null(strstr(err, "HEADER_ATTR record at offset 16"));
	m.n = 16;
	uint64_t aux[5] = { 1u << 20, 0, 0, 0, 0 };
	img_rec(&m, REC_AUXTRACE, aux, sizeof(aux));
	struct perfdata *pd = perfdata_open_mem(m.b, m.n, err, sizeof(err));
	assert_null(pd);
	assert_non_null(strstr(err, "payload"));
	free(m.b);
}

/* perf record -z: records in zstd frames, a record split over two
 * COMPRESSED records; a corrupt frame is an error naming its offset. */
static void test_compressed(void **state)
{
	static const uint64_t ids0[] = { 11, 12 };
	static const uint64_t rec_ids[] = { 11, 12, 11 };
	struct img recs = { 0 }, m = { 0 };
	const struct perf_event_header *rec;
	char err[256];
	uint64_t off;
	size_t n = 0;
	int rc;

	(void)state;
	img_records(&recs, rec_ids);
	size_t half = 60;   /* inside the second record */
	size_t cap = ZSTD_compressBound(recs.n);
	unsigned char *z1 = malloc(cap), *z2 = malloc(cap);
	assert_non_null(z1);
	assert_non_null(z2);
	size_t n1 = ZSTD_compress(z1, cap, recs.b, half, 3);
	size_t n2 = ZSTD_compress(z2, cap, recs.b + half, recs.n - half, 3);
	assert_false(ZSTD_isError(n1) || ZSTD_isError(n2));
	img_u64(&m, 0x32454c4946524550ULL);
	img_u64(&m, 16);
	img_attr(&m, 0, ids0, 2);
	img_rec(&m, REC_COMPRESSED, z1, n1);   /* perf does not pad them to 8 bytes */
	img_rec(&m, REC_COMPRESSED, z2, n2);
	struct perfdata *pd = perfdata_open_mem(m.b, m.n, err, sizeof(err));
	assert_non_null(pd);
	while ((rc = perfdata_next(pd, &rec, &off, err, sizeof(err))) == 1) {
		assert_int_equal((uintptr_t)rec % 8, 0);
		assert_true(rec->type != REC_COMPRESSED);
		n++;
	}
	if (rc != 0)
		fail_msg("%s", err);
	assert_int_equal(n, 7);   /* make_records */
	perfdata_close(pd);
	/* a corrupt frame */
	m.b[m.n - 16] ^= 0xff, m.b[m.n - 20] ^= 0xff;
	pd = perfdata_open_mem(m.b, m.n, err, sizeof(err));
	assert_non_null(pd);
	while ((rc = perfdata_next(pd, &rec, &off, err, sizeof(err))) == 1)
		;
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "compressed record at offset"));
	perfdata_close(pd);
	free(z1);
	free(z2);
	free(recs.b);
	free(m.b);
}

static void write_bytes(const char *path, const void *b, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	fclose(f);
}

/* perf record --threads: DIR/data, then DIR/data.N by N (0, 2, 10), a
 * part cut in its last record read to there, other names ignored. */
static void test_directory(void **state)
{
	char dir[512], path[600], err[256];
	struct img part = { 0 };
	struct rec recs[16], r;
	size_t nrec;
	const struct perf_event_header *rec;
	uint64_t off, ips[16];
	size_t n = 0;
	int rc;

	(void)state;
	tmp_path(dir, sizeof(dir), "threads.data");
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(path, sizeof(path), "%s/data", dir);
	write_file(path, recs, &nrec);
	for (int i = 0; i < 3; i++) {
		static const char *const names[] = { "data.10", "data.0", "data.2" };
		static const uint64_t part_ips[] = { 0x10, 0x2, 0xa };
		part.n = 0;
		sample(&r, IDS[0], part_ips[i]);
		img_put(&part, r.u.b, r.u.h.size);
		if (i == 2)
			img_put(&part, r.u.b, 20);   /* data.2 ends 20 bytes into a record */
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		write_bytes(path, part.b, part.n);
	}
	snprintf(path, sizeof(path), "%s/data.old", dir);
	write_bytes(path, "junk", 4);
	struct perfdata *pd = perfdata_open(dir, err, sizeof(err));
	if (!pd)
		fail_msg("%s", err);
	for (int pass = 0; pass < 2; pass++) {   /* and again after a rewind */
		n = 0;
		while ((rc = perfdata_next(pd, &rec, &off, err, sizeof(err))) == 1) {
			assert_true(n < 16);
			ips[n++] = rec->type == PERF_RECORD_SAMPLE ? get64((const void *)rec, 16) : 0;
		}
		assert_int_equal(rc, 0);
		assert_int_equal(n, nrec + 3);
		assert_int_equal(ips[nrec], 0x2);        /* data.0 */
		assert_int_equal(ips[nrec + 1], 0xa);    /* data.2 */
		assert_int_equal(ips[nrec + 2], 0x10);   /* data.10 */
		assert_int_equal(perfdata_cut_bytes(pd), 20);
		perfdata_rewind(pd);
	}
	assert_string_equal(perfdata_hostname(pd), "host1");
	perfdata_close(pd);
	static const char *const all[] = { "data", "data.0", "data.2", "data.10", "data.old" };
	for (size_t i = 0; i < 5; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, all[i]);
		unlink(path);
	}
	rmdir(dir);
	free(part.b);
}

static int setup(void **state)
{
	snprintf(tmpdir, sizeof(tmpdir), "%s/cyctop-pd.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	return rmdir(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_truncated_writer_file),
		cmocka_unit_test(test_begin),
		cmocka_unit_test(test_perf_layout),
		cmocka_unit_test(test_attr_sizes),
		cmocka_unit_test(test_truncated_perf_layout),
		cmocka_unit_test(test_corrupt_sizes),
		cmocka_unit_test(test_corrupt_features),
		cmocka_unit_test(test_byte_flips),
		cmocka_unit_test(test_magic_and_header),
		cmocka_unit_test(test_record_attr_id_pos),
		cmocka_unit_test(test_file_errors),
		cmocka_unit_test(test_pipe_mem_and_file),
		cmocka_unit_test(test_pipe_fd_nonblocking),
		cmocka_unit_test(test_pipe_errors),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_directory),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
