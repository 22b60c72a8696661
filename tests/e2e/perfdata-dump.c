/* perfdata-dump: a test tool for engine/perfdata-*.c (not installed).
 *
 *   perfdata-dump FILE             attrs, features and records by type
 *   perfdata-dump --copy IN OUT    rewrite IN with our writer (same attrs,
 *                                  ids, names, records and features, plus
 *                                  cyctop's section): perf must read OUT
 *                                  exactly as it reads IN
 *   perfdata-dump --write-sample OUT
 *                                  a small synthetic file, always the same
 *                                  bytes (the fuzz corpus seed)
 *
 * Used by tests/e2e/perfdata-perf.sh.  Exit 1 with one line on stderr on error. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/perfdata.h"
#include "engine/record.h"

static int dump(const char *path)
{
	char err[512];
	struct perfdata *pd = perfdata_open(path, err, sizeof(err));
	const struct perf_event_header *rec;
	uint64_t off, bytype[128] = { 0 }, other = 0, nrec = 0, undecoded = 0;
	uint64_t *per_attr;
	size_t n, len;
	int rc;

	if (!pd) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	printf("data: offset %" PRIu64 " size %" PRIu64 "%s\n", perfdata_data_offset(pd),
	       perfdata_data_size(pd), perfdata_unfinished(pd) ? " (unfinished)" : "");
	for (size_t i = 0; i < perfdata_nr_attrs(pd); i++) {
		const struct perf_event_attr *a = perfdata_attr(pd, i);
		const char *name = perfdata_attr_name(pd, i);
		perfdata_attr_ids(pd, i, &n);
		printf("attr %zu: type %u config %#llx sample_type %#llx sample_id_all %u "
		       "ids %zu name %s\n", i, a->type, (unsigned long long)a->config,
		       (unsigned long long)a->sample_type, (unsigned)a->sample_id_all, n,
		       name ? name : "(none)");
	}
	printf("hostname: %s\n", perfdata_hostname(pd) ? perfdata_hostname(pd) : "(none)");
	printf("osrelease: %s\n", perfdata_osrelease(pd) ? perfdata_osrelease(pd) : "(none)");
	printf("arch: %s\n", perfdata_arch(pd) ? perfdata_arch(pd) : "(none)");
	printf("cpudesc: %s\n", perfdata_cpudesc(pd) ? perfdata_cpudesc(pd) : "(none)");
	printf("cpuid: %s\n", perfdata_cpuid(pd) ? perfdata_cpuid(pd) : "(none)");
	printf("nr_cpus: %" PRIu32 "\n", perfdata_nr_cpus(pd));
	printf("cmdline: %s\n", perfdata_cmdline(pd) ? perfdata_cmdline(pd) : "(none)");
	printf("pmu: %s\n", perfdata_pmu(pd) ? perfdata_pmu(pd) : "(none)");
	perfdata_blob(pd, &len);
	printf("blob: %zu bytes\n", len);
	for (size_t i = 0; i < perfdata_nr_build_ids(pd); i++) {
		const struct perfdata_build_id *b = perfdata_build_id(pd, i);
		printf("build id: pid %" PRId32 " %s ", b->pid, b->kernel ? "kernel" : "user");
		for (size_t k = 0; k < b->id_len; k++)
			printf("%02x", b->id[k]);
		printf(" %s\n", b->path);
	}
	for (size_t i = 0; i < perfdata_nr_groups(pd); i++) {
		const struct perfdata_group *g = perfdata_group(pd, i);
		printf("group: %s leader %" PRIu32 " members %" PRIu32 "\n",
		       g->name ? g->name : "{anon_group}", g->leader_idx, g->nr_members);
	}

	per_attr = calloc(perfdata_nr_attrs(pd) + 1, sizeof(*per_attr));
	if (!per_attr)
		return 1;
	while ((rc = perfdata_next(pd, &rec, &off, err, sizeof(err))) == 1) {
		int idx = perfdata_record_attr(pd, rec);
		struct record r;
		nrec++;
		if (rec->type < 128)
			bytype[rec->type]++;
		else
			other++;
		if (rec->type != PERF_RECORD_SAMPLE)
			continue;
		if (idx < 0) {
			undecoded++;
			continue;
		}
		per_attr[idx]++;
		if (record_decode(rec, perfdata_attr(pd, (size_t)idx)->sample_type,
				  perfdata_attr(pd, (size_t)idx)->sample_id_all, &r) < 0)
			undecoded++;
	}
	printf("records: %" PRIu64 "\n", nrec);
	for (int t = 0; t < 128; t++)
		if (bytype[t])
			printf("type %d: %" PRIu64 "\n", t, bytype[t]);
	if (other)
		printf("type >= 128: %" PRIu64 "\n", other);
	for (size_t i = 0; i < perfdata_nr_attrs(pd); i++)
		printf("samples of attr %zu: %" PRIu64 "\n", i, per_attr[i]);
	printf("undecoded samples: %" PRIu64 "\n", undecoded);
	free(per_attr);
	perfdata_close(pd);
	if (rc < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	return 0;
}

static const char BLOB[] = "tree=core2\nmux=time\ncoverage.cpu-clock=1\n";

static int copy(const char *in, const char *out)
{
	char err[512];
	struct perfdata *pd = perfdata_open(in, err, sizeof(err));
	struct perfdata_writer *w;
	struct perfdata_meta m = { 0 };
	const struct perf_event_header *rec;
	uint64_t off;
	size_t argc;
	int rc;

	if (!pd) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	w = perfdata_create(out, err, sizeof(err));
	if (!w) {
		fprintf(stderr, "%s\n", err);
		perfdata_close(pd);
		return 1;
	}
	for (size_t i = 0; i < perfdata_nr_attrs(pd); i++) {
		size_t n;
		const uint64_t *ids = perfdata_attr_ids(pd, i, &n);
		if (perfdata_add_attr(w, perfdata_attr(pd, i), ids, n,
				      perfdata_attr_name(pd, i)) < 0) {
			perror("perfdata_add_attr");
			return 1;
		}
	}
	while ((rc = perfdata_next(pd, &rec, &off, err, sizeof(err))) == 1)
		if (perfdata_write(w, rec) < 0) {
			perror("perfdata_write");
			return 1;
		}
	if (rc < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	m.cmdline = perfdata_cmdline_argv(pd, &argc);
	m.cpudesc = perfdata_cpudesc(pd);
	m.cpuid = perfdata_cpuid(pd);
	m.pmu = "perf";
	m.nr_cpus = perfdata_nr_cpus(pd);
	m.hostname = perfdata_hostname(pd);
	m.osrelease = perfdata_osrelease(pd);
	m.arch = perfdata_arch(pd);
	m.nr_build_ids = perfdata_nr_build_ids(pd);
	m.build_ids = m.nr_build_ids ? perfdata_build_id(pd, 0) : NULL;
	m.nr_groups = perfdata_nr_groups(pd);
	m.groups = m.nr_groups ? perfdata_group(pd, 0) : NULL;
	m.blob = BLOB;
	m.blob_len = sizeof(BLOB) - 1;
	rc = perfdata_finish(w, &m, err, sizeof(err));
	perfdata_close(pd);
	if (rc < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	return 0;
}

/* --- --write-sample ------------------------------------------------------ */

#define SAMPLE_PID 4242
#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		     PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)
#define TEXT 0x400000ULL
#define KTEXT 0xffffffff81000000ULL

struct rb {
	union {
		struct perf_event_header h;
		unsigned char b[512];
	} u;
};

static void put(struct rb *r, const void *p, size_t n)
{
	memcpy(r->u.b + r->u.h.size, p, n);
	r->u.h.size = (uint16_t)(r->u.h.size + n);
}

static void put64(struct rb *r, uint64_t v)
{
	put(r, &v, 8);
}

static void put2x32(struct rb *r, uint32_t a, uint32_t b)
{
	put(r, &a, 4);
	put(r, &b, 4);
}

static void start(struct rb *r, uint32_t type, uint16_t misc)
{
	memset(r, 0, sizeof(*r));
	r->u.h.type = type;
	r->u.h.misc = misc;
	r->u.h.size = sizeof(r->u.h);
}

static void put_str(struct rb *r, const char *s)
{
	size_t n = strlen(s) + 1, pad = (8 - n % 8) % 8;
	static const char zero[8];

	put(r, s, n);
	put(r, zero, pad);
}

/* sample_id_all trailer for SAMPLE_TYPE: TID, TIME, IDENTIFIER */
static void trailer(struct rb *r, uint64_t time, uint64_t id)
{
	put2x32(r, SAMPLE_PID, SAMPLE_PID);
	put64(r, time);
	put64(r, id);
}

static int emit(struct perfdata_writer *w, struct rb *r)
{
	return perfdata_write(w, &r->u.h);
}

static int write_sample(const char *out)
{
	static const uint64_t ids0[] = { 101, 102 }, ids1[] = { 201, 202 };
	static const char *const argv[] = { "cyctop", "record", "-e", "cpu-clock,task-clock",
					    "--", "sample", NULL };
	static const struct perfdata_build_id bids[] = {
		{ -1, false, "/nonexistent/cyctop-sample", { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5,
		  6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 }, 20 },
	};
	static const struct perfdata_group groups[] = { { NULL, 0, 2 } };
	struct perf_event_attr a = { 0 };
	struct perfdata_meta m = { 0 };
	struct perfdata_writer *w;
	struct rb r;
	char err[512];
	int rc = 0;

	w = perfdata_create(out, err, sizeof(err));
	if (!w) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 1000000;
	a.sample_type = SAMPLE_TYPE;
	a.read_format = PERF_FORMAT_ID;
	a.disabled = 1;
	a.mmap = a.comm = a.task = a.sample_id_all = a.mmap2 = a.comm_exec = 1;
	rc |= perfdata_add_attr(w, &a, ids0, 2, "cpu-clock") < 0;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.disabled = 0;
	a.mmap = a.comm = a.task = a.mmap2 = a.comm_exec = 0;
	rc |= perfdata_add_attr(w, &a, ids1, 2, "task-clock") < 0;

	/* the kernel map, as perf synthesizes it (without one perf report
	 * warns that kernel samples cannot be resolved) */
	start(&r, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
	put2x32(&r, UINT32_MAX, 0);
	put64(&r, KTEXT);
	put64(&r, 0x1000000);
	put64(&r, KTEXT);
	put_str(&r, "[kernel.kallsyms]_text");
	put2x32(&r, UINT32_MAX, 0);
	put64(&r, 0);
	put64(&r, 101);
	rc |= emit(w, &r);
	start(&r, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	put2x32(&r, SAMPLE_PID, SAMPLE_PID);
	put_str(&r, "sample");
	trailer(&r, 1000, 101);
	rc |= emit(w, &r);
	start(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	put2x32(&r, SAMPLE_PID, SAMPLE_PID);
	put64(&r, TEXT);
	put64(&r, 0x10000);
	put64(&r, 0);
	put2x32(&r, 8, 1);   /* maj, min */
	put64(&r, 12345);    /* ino */
	put64(&r, 0);        /* ino_generation */
	put2x32(&r, 5, 2);   /* PROT_READ|PROT_EXEC, MAP_PRIVATE */
	put_str(&r, "/nonexistent/cyctop-sample");
	trailer(&r, 1001, 101);
	rc |= emit(w, &r);
	for (int i = 0; i < 40; i++) {
		start(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(&r, i % 2 ? 201 + i % 4 / 2 : 101 + i % 4 / 2);   /* identifier */
		put64(&r, TEXT + 0x100 + (uint64_t)(i % 5) * 0x40);      /* ip */
		put2x32(&r, SAMPLE_PID, SAMPLE_PID);
		put64(&r, 2000 + (uint64_t)i * 1000);                    /* time */
		put64(&r, 1000000);                                       /* period */
		rc |= emit(w, &r);
		if (i % 10 == 9) {
			start(&r, 68, 0);   /* PERF_RECORD_FINISHED_ROUND */
			rc |= emit(w, &r);
		}
	}
	start(&r, PERF_RECORD_EXIT, 0);
	put2x32(&r, SAMPLE_PID, 1);
	put2x32(&r, SAMPLE_PID, 1);
	put64(&r, 50000);
	trailer(&r, 50000, 101);
	rc |= emit(w, &r);
	if (rc) {
		perror("perfdata-dump");
		perfdata_abort(w);
		return 1;
	}
	/* fixed values: the same bytes on every machine */
	m.cmdline = argv;
	m.cpudesc = "Synthetic CPU @ 1.00GHz";
	m.pmu = "perf";
	m.nr_cpus = 2;
	m.hostname = "cyctop-sample";
	m.osrelease = "6.1.0";
	m.arch = "x86_64";
	m.build_ids = bids;
	m.nr_build_ids = 1;
	m.groups = groups;
	m.nr_groups = 1;
	m.blob = BLOB;
	m.blob_len = sizeof(BLOB) - 1;
	if (perfdata_finish(w, &m, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && argv[1][0] != '-')
		return dump(argv[1]);
	if (argc == 4 && strcmp(argv[1], "--copy") == 0)
		return copy(argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "--write-sample") == 0)
		return write_sample(argv[2]);
	fprintf(stderr, "usage: perfdata-dump FILE | --copy IN OUT | --write-sample OUT\n");
	return 2;
}
