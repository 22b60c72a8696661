/* Fuzz target for the perf.data reader (engine/perfdata-*.c) and the record
 * decoder (engine/record.c).
 *
 * With libFuzzer (make fuzz):
 *	clang -fsanitize=fuzzer,address,undefined -DCYCTOP_LIBFUZZER -I. \
 *		tests/fuzz/fuzz-perfdata.c engine/perfdata-*.c engine/record.c \
 *		arch/hashtab.c -lzstd
 *	./a.out -max_total_time=60 CORPUS-COPY
 * Without it (make check), tests/fuzz/fuzz-replay.c's main() replays every file in the
 * directories and files named on the command line: the seed corpus
 * tests/fuzz/corpus/perfdata/ (tests/fuzz/fuzz-perfdata.sh says how it was made)
 * runs as a plain test.
 *
 * Each input is opened with perfdata_open_mem, every accessor is read, and
 * every record is copied to a heap buffer of exactly its size and decoded
 * with the attr it belongs to, so a sanitizer sees any read past it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/perfdata.h"
#include "engine/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

static volatile uint64_t sink;   /* keeps the reads */

static void touch_str(const char *s)
{
	if (s)
		sink += strlen(s);
}

static void touch_features(const struct perfdata *pd)
{
	size_t len, argc;
	const unsigned char *blob = perfdata_blob(pd, &len);
	const char *const *argv = perfdata_cmdline_argv(pd, &argc);

	for (size_t i = 0; i < len; i++)
		sink += blob[i];
	for (size_t i = 0; i < argc; i++)
		touch_str(argv[i]);
	touch_str(perfdata_hostname(pd));
	touch_str(perfdata_osrelease(pd));
	touch_str(perfdata_arch(pd));
	touch_str(perfdata_cpudesc(pd));
	touch_str(perfdata_cpuid(pd));
	touch_str(perfdata_cmdline(pd));
	touch_str(perfdata_pmu(pd));
	sink += perfdata_nr_cpus(pd) + perfdata_unfinished(pd) + perfdata_sample_id_all(pd);
	sink += perfdata_data_offset(pd) + perfdata_data_size(pd);
	for (unsigned int b = 0; b < 256; b++)
		sink += perfdata_has_feature(pd, b);
	for (size_t i = 0; i < perfdata_nr_build_ids(pd); i++) {
		const struct perfdata_build_id *b = perfdata_build_id(pd, i);
		touch_str(b->path);
		for (size_t k = 0; k < b->id_len; k++)
			sink += b->id[k];
	}
	for (size_t i = 0; i < perfdata_nr_groups(pd); i++) {
		const struct perfdata_group *g = perfdata_group(pd, i);
		touch_str(g->name);
		sink += g->leader_idx + g->nr_members;
	}
}

static void touch_attrs(const struct perfdata *pd)
{
	for (size_t i = 0; i < perfdata_nr_attrs(pd); i++) {
		size_t nids;
		const uint64_t *ids = perfdata_attr_ids(pd, i, &nids);
		sink += perfdata_attr(pd, i)->sample_type;
		touch_str(perfdata_attr_name(pd, i));
		for (size_t j = 0; j < nids; j++)
			if (perfdata_attr_of_id(pd, ids[j]) < 0)
				abort();   /* every id of an attr maps to an attr */
	}
}

static void touch_record(const struct record *r)
{
	switch (r->type) {
	case PERF_RECORD_SAMPLE:
		for (uint64_t i = 0; i < r->u.sample.nr_ips; i++)
			sink += r->u.sample.ips[i];
		for (unsigned i = 0; i < r->u.sample.regs_user.n; i++)
			sink += r->u.sample.regs_user.regs[i];
		for (uint64_t i = 0; i < r->u.sample.stack_size; i++)
			sink += r->u.sample.stack[i];
		sink += r->u.sample.ip + r->u.sample.tid;
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		touch_str(r->u.mmap.filename);
		break;
	case PERF_RECORD_COMM:
		touch_str(r->u.comm.comm);
		break;
	default:
		sink += r->sid_id;
	}
}

static void walk_records(struct perfdata *pd)
{
	const struct perf_event_header *rec;
	uint64_t off;
	char err[256];

	while (perfdata_next(pd, &rec, &off, err, sizeof(err)) == 1) {
		struct perf_event_header *copy = malloc(rec->size);
		int idx;
		uint64_t id;
		struct record r;
		if (!copy)
			abort();
		memcpy(copy, rec, rec->size);
		idx = perfdata_record_attr(pd, copy);
		if (idx >= 0) {
			const struct perf_event_attr *a = perfdata_attr(pd, (size_t)idx);
			struct rec_format f;
			record_format_of(a, &f);
			if (record_decode_fmt(copy, &f, &r) == 0)
				touch_record(&r);
			if (record_id(copy, a->sample_type, a->sample_id_all, &id))
				sink += id;
		}
		free(copy);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	char err[256];
	struct perfdata *pd = perfdata_open_mem(d, n, err, sizeof(err));

	if (!pd)
		return 0;
	touch_attrs(pd);
	touch_features(pd);
	walk_records(pd);
	perfdata_rewind(pd);
	walk_records(pd);
	perfdata_close(pd);
	return 0;
}
