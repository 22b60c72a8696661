/* The record decoder (engine/record.c).
 *
 * Records are built byte by byte as the kernel lays them out
 * (include/uapi/linux/perf_event.h, enum perf_event_type): the header, the
 * fields, strings padded to 8 bytes, then the sample_id_all trailer (TID,
 * TIME, ID, STREAM_ID, CPU, IDENTIFIER).  Every record is decoded from a heap
 * buffer of exactly hdr->size bytes so that a sanitizer build catches any
 * read past the end; every truncation of every valid record must fail. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "engine/record.h"

#define ST_BASIC (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		  PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)
/* what the engine uses for non-sample records' trailers */
#define ST_TRAILER (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)

struct rb {
	unsigned char buf[1024];
	size_t n;
	uint32_t type;
	uint16_t misc;
};

static void rb_start(struct rb *b, uint32_t type, uint16_t misc)
{
	memset(b, 0, sizeof(*b));
	b->type = type;
	b->misc = misc;
	b->n = sizeof(struct perf_event_header);
}

static void put_bytes(struct rb *b, const void *p, size_t len)
{
	assert_true(b->n + len <= sizeof(b->buf));
	memcpy(b->buf + b->n, p, len);
	b->n += len;
}

static void put64(struct rb *b, uint64_t v)
{
	put_bytes(b, &v, 8);
}

static void put32x2(struct rb *b, uint32_t lo, uint32_t hi)
{
	put_bytes(b, &lo, 4);
	put_bytes(b, &hi, 4);
}

/* NUL-terminated, zero-padded to a multiple of 8, as the kernel does */
static void put_str(struct rb *b, const char *s)
{
	size_t len = strlen(s) + 1, padded = (len + 7) & ~(size_t)7;

	put_bytes(b, s, len);
	while (len++ < padded)
		b->buf[b->n++] = 0;
}

/* TID, TIME, IDENTIFIER: the trailer for ST_TRAILER */
static void put_trailer(struct rb *b, uint32_t pid, uint32_t tid, uint64_t time, uint64_t id)
{
	put32x2(b, pid, tid);
	put64(b, time);
	put64(b, id);
}

/* A heap copy of exactly hdr->size bytes. */
static struct perf_event_header *rb_finish(struct rb *b)
{
	struct perf_event_header *h = malloc(b->n);

	assert_non_null(h);
	assert_true(b->n <= UINT16_MAX);
	memcpy(h, b->buf, b->n);
	h->type = b->type;
	h->misc = b->misc;
	h->size = (uint16_t)b->n;
	return h;
}

static void decode_ok(const struct perf_event_header *h, uint64_t st, bool sid,
		      struct record *r)
{
	if (record_decode(h, st, sid, r) != 0) {
		fprintf(stderr, "record type %u size %u rejected\n", h->type, h->size);
		fail();
	}
	assert_int_equal(r->type, h->type);
	assert_int_equal(r->misc, h->misc);
}

/* record_id's answer, 0 when it has none. */
static uint64_t id_of(const struct perf_event_header *h, uint64_t st, bool sid)
{
	uint64_t id;

	return record_id(h, st, sid, &id) ? id : 0;
}

/* Every prefix of H from a bare header to size-1 bytes, in a buffer of
 * exactly that size, is malformed: -1, and no read past the end. */
static void check_truncations_fmt(const struct perf_event_header *h, const struct rec_format *f)
{
	for (size_t sz = sizeof(*h); sz < h->size; sz++) {
		struct perf_event_header *t = malloc(sz);
		struct record r;
		uint64_t id;

		assert_non_null(t);
		memcpy(t, h, sz);
		t->size = (uint16_t)sz;
		if (record_decode_fmt(t, f, &r) != -1) {
			fprintf(stderr, "record type %u truncated to %zu of %u bytes accepted\n",
				h->type, sz, h->size);
			free(t);
			fail();
		}
		/* must not read past the end either */
		(void)record_id(t, f->sample_type, f->sample_id_all, &id);
		free(t);
	}
}

static void check_truncations(const struct perf_event_header *h, uint64_t st, bool sid)
{
	const struct rec_format f = { .sample_type = st, .regs_user = 0, .sample_id_all = sid };

	check_truncations_fmt(h, &f);
}

static void test_sample_basic(void **state)
{
	struct rb b;
	struct record r;

	(void)state;
	rb_start(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put64(&b, 0x1111);                 /* IDENTIFIER */
	put64(&b, 0x401234);               /* IP */
	put32x2(&b, 4242, 4243);           /* pid, tid */
	put64(&b, 987654321);              /* TIME */
	put64(&b, 1000000);                /* PERIOD */
	struct perf_event_header *h = rb_finish(&b);
	assert_int_equal(h->size, 48);

	decode_ok(h, ST_BASIC, true, &r);
	assert_int_equal(r.u.sample.id, 0x1111);
	assert_int_equal(r.u.sample.ip, 0x401234);
	assert_int_equal(r.u.sample.pid, 4242);
	assert_int_equal(r.u.sample.tid, 4243);
	assert_int_equal(r.u.sample.time, 987654321);
	assert_int_equal(r.u.sample.period, 1000000);
	assert_int_equal(r.u.sample.nr_ips, 0);
	assert_null(r.u.sample.ips);
	assert_int_equal(r.sid_id, 0); /* no trailer on samples */
	check_truncations(h, ST_BASIC, true);
	check_truncations(h, ST_BASIC, false);
	free(h);
}

static void test_sample_all_fields(void **state)
{
	const uint64_t st = ST_BASIC | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
			    PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN;
	struct rb b;
	struct record r;

	(void)state;
	rb_start(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put64(&b, 77);                     /* IDENTIFIER */
	put64(&b, 0x7f0000001000);         /* IP */
	put32x2(&b, 100, 101);             /* pid, tid */
	put64(&b, 5);                      /* TIME */
	put64(&b, 0xdeadbeef0);            /* ADDR */
	put64(&b, 77);                     /* ID (same as IDENTIFIER) */
	put64(&b, 78);                     /* STREAM_ID */
	put32x2(&b, 1, 0);                 /* cpu, res */
	put64(&b, 250);                    /* PERIOD */
	put64(&b, 3);                      /* callchain nr */
	put64(&b, PERF_CONTEXT_USER);
	put64(&b, 0x7f0000001000);
	put64(&b, 0x7f0000002000);
	struct perf_event_header *h = rb_finish(&b);

	decode_ok(h, st, true, &r);
	assert_int_equal(r.u.sample.id, 77);
	assert_int_equal(r.u.sample.ip, 0x7f0000001000);
	assert_int_equal(r.u.sample.pid, 100);
	assert_int_equal(r.u.sample.tid, 101);
	assert_int_equal(r.u.sample.time, 5);
	assert_int_equal(r.u.sample.addr, 0xdeadbeef0);
	assert_int_equal(r.u.sample.cpu, 1);
	assert_int_equal(r.u.sample.period, 250);
	assert_int_equal(r.u.sample.nr_ips, 3);
	assert_non_null(r.u.sample.ips);
	/* points into the record */
	assert_true((const unsigned char *)r.u.sample.ips > (const unsigned char *)h);
	assert_true((const unsigned char *)(r.u.sample.ips + 3) <=
		    (const unsigned char *)h + h->size);
	assert_int_equal(r.u.sample.ips[0], PERF_CONTEXT_USER);
	assert_int_equal(r.u.sample.ips[1], 0x7f0000001000);
	assert_int_equal(r.u.sample.ips[2], 0x7f0000002000);
	check_truncations(h, st, true);
	free(h);
}

/* Each optional field alone after IP moves the later ones: the decoder must
 * honour the layout order for every subset. */
static void test_sample_variants(void **state)
{
	static const uint64_t extra[] = { PERF_SAMPLE_ADDR, PERF_SAMPLE_ID,
					  PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
					  PERF_SAMPLE_CALLCHAIN };

	(void)state;
	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		uint64_t st = ST_BASIC | extra[i];
		struct rb b;
		struct record r;

		rb_start(&b, PERF_RECORD_SAMPLE, 0);
		put64(&b, 9);                      /* IDENTIFIER */
		put64(&b, 0x1000 + i);             /* IP */
		put32x2(&b, 10, 11);
		put64(&b, 12);                     /* TIME */
		if (st & PERF_SAMPLE_ADDR)
			put64(&b, 0xabc);
		if (st & PERF_SAMPLE_ID)
			put64(&b, 9);
		if (st & PERF_SAMPLE_STREAM_ID)
			put64(&b, 0x5555);
		if (st & PERF_SAMPLE_CPU)
			put32x2(&b, 3, 0);
		put64(&b, 13);                     /* PERIOD */
		if (st & PERF_SAMPLE_CALLCHAIN) {
			put64(&b, 1);
			put64(&b, 0x1000 + i);
		}
		struct perf_event_header *h = rb_finish(&b);
		decode_ok(h, st, true, &r);
		assert_int_equal(r.u.sample.id, 9);
		assert_int_equal(r.u.sample.ip, 0x1000 + i);
		assert_int_equal(r.u.sample.pid, 10);
		assert_int_equal(r.u.sample.tid, 11);
		assert_int_equal(r.u.sample.time, 12);
		assert_int_equal(r.u.sample.period, 13);
		assert_int_equal(r.u.sample.addr, (st & PERF_SAMPLE_ADDR) ? 0xabc : 0);
		assert_int_equal(r.u.sample.cpu, (st & PERF_SAMPLE_CPU) ? 3 : 0);
		assert_int_equal(r.u.sample.nr_ips, (st & PERF_SAMPLE_CALLCHAIN) ? 1 : 0);
		if (st & PERF_SAMPLE_CALLCHAIN)
			assert_int_equal(r.u.sample.ips[0], 0x1000 + i);
		check_truncations(h, st, true);
		free(h);
	}
}

static void test_sample_callchain_too_long(void **state)
{
	const uint64_t st = ST_BASIC | PERF_SAMPLE_CALLCHAIN;
	static const uint64_t nrs[] = { 3, 1000, UINT64_MAX, UINT64_MAX / 8 + 1 };
	struct record r;

	(void)state;
	for (size_t i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
		struct rb b;

		rb_start(&b, PERF_RECORD_SAMPLE, 0);
		put64(&b, 1);
		put64(&b, 2);
		put32x2(&b, 3, 4);
		put64(&b, 5);
		put64(&b, 6);
		put64(&b, nrs[i]);        /* claims more entries than follow */
		put64(&b, 0x1000);
		put64(&b, 0x2000);
		struct perf_event_header *h = rb_finish(&b);
		assert_int_equal(record_decode(h, st, true, &r), -1);
		free(h);
	}
}

static void test_sample_unsupported_type(void **state)
{
	struct rb b;
	struct record r;

	(void)state;
	rb_start(&b, PERF_RECORD_SAMPLE, 0);
	put64(&b, 1);
	put64(&b, 2);
	put32x2(&b, 3, 4);
	put64(&b, 5);
	put64(&b, 6);
	put64(&b, 0);   /* room for anything */
	put64(&b, 0);
	struct perf_event_header *h = rb_finish(&b);
	/* a bit beyond the last field the decoder knows: its length is unknown */
	assert_int_equal(record_decode(h, ST_BASIC | PERF_SAMPLE_WEIGHT_STRUCT << 1, true, &r),
			 -1);
	assert_int_equal(record_decode(h, ST_BASIC | 1ULL << 63, true, &r), -1);
	/* REGS_USER / REGS_INTR are understood, but not without the attr's mask */
	assert_int_equal(record_decode(h, ST_BASIC | PERF_SAMPLE_REGS_USER, true, &r), -1);
	assert_int_equal(record_decode(h, ST_BASIC | PERF_SAMPLE_REGS_INTR, true, &r), -1);
	/* the same record is fine without the bit */
	assert_int_equal(record_decode(h, ST_BASIC, true, &r), 0);
	assert_int_equal(r.u.sample.ip, 2);
	assert_int_equal(r.u.sample.period, 6);
	free(h);
}

/* ---- every other sample field (perf_event.h order) -------------------- */

#define ST_EVERY ((uint64_t)PERF_SAMPLE_WEIGHT_STRUCT * 2 - 1 - PERF_SAMPLE_WEIGHT)
#define RF_GROUP (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | \
		  PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | PERF_FORMAT_LOST)

/* A sample with every field the kernel has, each holding a value of its own. */
static struct perf_event_header *every_field_sample(bool hw_index)
{
	struct rb b;

	rb_start(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
	put64(&b, 77);                         /* IDENTIFIER */
	put64(&b, 0xffffffff81000010);         /* IP */
	put32x2(&b, 100, 101);                 /* pid, tid */
	put64(&b, 5);                          /* TIME */
	put64(&b, 0xadd0);                     /* ADDR */
	put64(&b, 77);                         /* ID */
	put64(&b, 78);                         /* STREAM_ID */
	put32x2(&b, 3, 0);                     /* cpu, res */
	put64(&b, 250);                        /* PERIOD */
	put64(&b, 2);                          /* READ, a group: nr */
	put64(&b, 1000);                       /* time_enabled */
	put64(&b, 900);                        /* time_running */
	put64(&b, 11), put64(&b, 77), put64(&b, 0);   /* value, id, lost */
	put64(&b, 22), put64(&b, 79), put64(&b, 1);
	put64(&b, 1);                          /* CALLCHAIN nr */
	put64(&b, PERF_CONTEXT_KERNEL);
	uint32_t raw_size = 12;                /* RAW: 4 + 12 bytes */
	put_bytes(&b, &raw_size, 4);
	put_bytes(&b, "raw-payload!", 12);
	put64(&b, 2);                          /* BRANCH_STACK nr */
	if (hw_index)
		put64(&b, 7);                  /* hw_idx */
	put64(&b, 0x1000), put64(&b, 0x2000), put64(&b, 1);   /* from, to, flags */
	put64(&b, 0x3000), put64(&b, 0x4000), put64(&b, 2);
	put64(&b, PERF_SAMPLE_REGS_ABI_64);    /* REGS_USER, mask 0x3 */
	put64(&b, 0xa1), put64(&b, 0xa2);
	put64(&b, 16);                         /* STACK_USER size */
	put64(&b, 0x5151), put64(&b, 0x5252);
	put64(&b, 8);                          /* dyn_size */
	put64(&b, 0x0003000200000001ULL);      /* WEIGHT_STRUCT: var1 1, var2 2, var3 3 */
	put64(&b, 0xda7a);                     /* DATA_SRC */
	put64(&b, 0x7a);                       /* TRANSACTION */
	put64(&b, PERF_SAMPLE_REGS_ABI_64);    /* REGS_INTR, mask 0x7 */
	put64(&b, 0xb1), put64(&b, 0xb2), put64(&b, 0xb3);
	put64(&b, 0x9000);                     /* PHYS_ADDR */
	put64(&b, 42);                         /* CGROUP */
	put64(&b, 4096);                       /* DATA_PAGE_SIZE */
	put64(&b, 2 << 20);                    /* CODE_PAGE_SIZE */
	put64(&b, 8);                          /* AUX size, last (kernel/events/core.c */
	put64(&b, 0xa0a0);                     /* perf_output_sample; not in the uapi comment) */
	return rb_finish(&b);
}

static struct rec_format every_field_format(bool hw_index)
{
	struct rec_format f = { .sample_type = ST_EVERY, .regs_user = 0x3, .sample_id_all = true,
				.read_format = RF_GROUP, .regs_intr = 0x7 };

	if (hw_index)
		f.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	return f;
}

static void check_every_field(const struct perf_event_header *h, bool hw_index)
{
	const struct rec_format f = every_field_format(hw_index);
	const struct rec_sample *s;
	struct record r;
	uint64_t v, id;

	assert_int_equal(record_decode_fmt(h, &f, &r), 0);
	s = &r.u.sample;
	assert_int_equal(s->ip, 0xffffffff81000010);
	assert_int_equal(s->stream_id, 78);
	assert_int_equal(s->cpu, 3);
	assert_int_equal(s->period, 250);
	assert_int_equal(s->cpumode, PERF_RECORD_MISC_KERNEL);
	assert_int_equal(s->read.nr, 2);
	assert_int_equal(s->read.time_enabled, 1000);
	assert_int_equal(s->read.time_running, 900);
	record_read_value(&s->read, 1, &v, &id);
	assert_int_equal(v, 22);
	assert_int_equal(id, 79);
	assert_int_equal(s->nr_ips, 1);
	assert_int_equal(s->ips[0], PERF_CONTEXT_KERNEL);
	assert_int_equal(s->raw_size, 12);
	assert_memory_equal(s->raw, "raw-payload!", 12);
	assert_int_equal(s->branches.nr, 2);
	assert_int_equal(s->branches.hw_idx, hw_index ? 7 : UINT64_MAX);
	assert_int_equal(s->branches.entries[3], 0x3000);
	assert_int_equal(s->branches.entries[5], 2);
	assert_int_equal(s->regs_user.n, 2);
	assert_int_equal(s->regs_user.regs[1], 0xa2);
	assert_int_equal(s->stack_size, 8);
	assert_int_equal(s->weight & 0xffffffff, 1);
	assert_int_equal(s->weight >> 48, 3);
	assert_int_equal(s->data_src, 0xda7a);
	assert_int_equal(s->transaction, 0x7a);
	assert_int_equal(s->regs_intr.abi, PERF_SAMPLE_REGS_ABI_64);
	assert_int_equal(s->regs_intr.n, 3);
	assert_int_equal(s->regs_intr.mask, 0x7);
	assert_int_equal(s->regs_intr.regs[2], 0xb3);
	assert_int_equal(s->phys_addr, 0x9000);
	assert_int_equal(s->aux_size, 8);
	assert_int_equal(*(const uint64_t *)s->aux, 0xa0a0);
	assert_int_equal(s->cgroup, 42);
	assert_int_equal(s->data_page_size, 4096);
	assert_int_equal(s->code_page_size, 2 << 20);
	check_truncations_fmt(h, &f);
}

static void test_sample_every_field(void **state)
{
	(void)state;
	for (int hw = 0; hw < 2; hw++) {
		struct perf_event_header *h = every_field_sample(hw);
		struct rec_format f = every_field_format(hw);
		struct record r;
		check_every_field(h, hw);
		/* hw_index read or not is the attr's: the other layout misreads,
		 * and ends elsewhere than the record */
		f.branch_sample_type ^= PERF_SAMPLE_BRANCH_HW_INDEX;
		assert_int_equal(record_decode_fmt(h, &f, &r), -1);
		/* a register mask one register short leaves a u64 over */
		f = every_field_format(hw);
		f.regs_intr = 0x3;
		assert_int_equal(record_decode_fmt(h, &f, &r), -1);
		free(h);
	}
}

/* WEIGHT alone is the same u64 as WEIGHT_STRUCT; its sample with only the
 * fixed fields and the tail decodes with nothing else set. */
static void test_sample_weight_tail(void **state)
{
	const struct rec_format f = { .sample_type = ST_BASIC | PERF_SAMPLE_WEIGHT |
				      PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR };
	struct rb b;
	struct record r;

	(void)state;
	rb_start(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put64(&b, 1), put64(&b, 0x401000), put32x2(&b, 3, 4), put64(&b, 5), put64(&b, 6);
	put64(&b, 300);     /* WEIGHT */
	put64(&b, 0x1234);  /* DATA_SRC */
	put64(&b, 0x8000);  /* PHYS_ADDR */
	struct perf_event_header *h = rb_finish(&b);
	assert_int_equal(record_decode_fmt(h, &f, &r), 0);
	assert_int_equal(r.u.sample.weight, 300);
	assert_int_equal(r.u.sample.data_src, 0x1234);
	assert_int_equal(r.u.sample.phys_addr, 0x8000);
	assert_int_equal(r.u.sample.cpumode, PERF_RECORD_MISC_USER);
	assert_null(r.u.sample.raw);
	check_truncations_fmt(h, &f);
	free(h);
}

/* LOST_SAMPLES: {lost, sample_id}, the event named by the trailer's id
 * (perf.data.lost_samples-4.4 has two). */
static void test_lost_samples(void **state)
{
	struct rb b;
	struct record r;

	(void)state;
	rb_start(&b, PERF_RECORD_LOST_SAMPLES, 0);
	put64(&b, 3);
	put_trailer(&b, 10, 11, 12, 289);
	struct perf_event_header *h = rb_finish(&b);
	assert_int_equal(record_decode(h, ST_TRAILER, true, &r), 0);
	assert_int_equal(r.type, PERF_RECORD_LOST_SAMPLES);
	assert_int_equal(r.u.lost.lost, 3);
	assert_int_equal(r.u.lost.id, 289);
	assert_int_equal(r.sid_time, 12);
	free(h);
}

/* READ of a lone counter: value, enabled, running, id, lost. */
static void test_sample_read_single(void **state)
{
	const uint64_t rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			    PERF_FORMAT_ID | PERF_FORMAT_LOST;
	const struct rec_format f = { .sample_type = ST_BASIC | PERF_SAMPLE_READ,
				      .read_format = rf };
	struct rb b;
	struct record r;
	uint64_t v, id;

	(void)state;
	rb_start(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put64(&b, 1), put64(&b, 0x401000), put32x2(&b, 3, 4), put64(&b, 5), put64(&b, 6);
	put64(&b, 123), put64(&b, 10), put64(&b, 9), put64(&b, 55), put64(&b, 0);
	struct perf_event_header *h = rb_finish(&b);
	assert_int_equal(record_decode_fmt(h, &f, &r), 0);
	assert_int_equal(r.u.sample.read.nr, 1);
	assert_int_equal(r.u.sample.read.time_enabled, 10);
	assert_int_equal(r.u.sample.read.time_running, 9);
	record_read_value(&r.u.sample.read, 0, &v, &id);
	assert_int_equal(v, 123);
	assert_int_equal(id, 55);
	check_truncations_fmt(h, &f);
	free(h);
}

/* A group READ whose nr does not fit, a RAW size that breaks the 8-byte
 * alignment, an AUX size not a multiple of 8: refused. */
static void test_sample_bad_lengths(void **state)
{
	struct rb b;
	struct record r;
	const struct rec_format fr = { .sample_type = PERF_SAMPLE_READ,
				       .read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID };
	const struct rec_format fw = { .sample_type = PERF_SAMPLE_RAW };
	const struct rec_format fa = { .sample_type = PERF_SAMPLE_AUX };
	uint32_t odd = 6;

	(void)state;
	rb_start(&b, PERF_RECORD_SAMPLE, 0);
	put64(&b, 1ULL << 60);   /* nr */
	put64(&b, 1), put64(&b, 2);
	struct perf_event_header *h = rb_finish(&b);
	assert_int_equal(record_decode_fmt(h, &fr, &r), -1);
	free(h);
	rb_start(&b, PERF_RECORD_SAMPLE, 0);
	put_bytes(&b, &odd, 4);
	put_bytes(&b, "abcdef..", 8);   /* 4 + 6 is not a multiple of 8 */
	h = rb_finish(&b);
	assert_int_equal(record_decode_fmt(h, &fw, &r), -1);
	free(h);
	rb_start(&b, PERF_RECORD_SAMPLE, 0);
	put64(&b, 4), put64(&b, 0);
	h = rb_finish(&b);
	assert_int_equal(record_decode_fmt(h, &fa, &r), -1);
	free(h);
}

/* Kernel or user is the header's cpumode, whatever the address. */
static void test_cpumode(void **state)
{
	static const uint16_t modes[] = {
		PERF_RECORD_MISC_CPUMODE_UNKNOWN, PERF_RECORD_MISC_KERNEL, PERF_RECORD_MISC_USER,
		PERF_RECORD_MISC_HYPERVISOR, PERF_RECORD_MISC_GUEST_KERNEL,
		PERF_RECORD_MISC_GUEST_USER,
	};
	struct record r;

	(void)state;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		struct rb b;
		rb_start(&b, PERF_RECORD_SAMPLE, modes[i] | PERF_RECORD_MISC_EXACT_IP);
		put64(&b, 0xc0100000);   /* an i686 kernel address, a user one on x86_64 */
		struct perf_event_header *h = rb_finish(&b);
		assert_int_equal(record_decode(h, PERF_SAMPLE_IP, false, &r), 0);
		assert_int_equal(r.u.sample.cpumode, modes[i]);
		assert_int_equal(r.cpumode, modes[i]);
		assert_int_equal(record_cpumode_kernel(r.u.sample.cpumode),
				 modes[i] == PERF_RECORD_MISC_KERNEL ||
					 modes[i] == PERF_RECORD_MISC_GUEST_KERNEL);
		free(h);
	}
}

/* Records not decoded (SWITCH, ITRACE_START, AUX...) still give their
 * sample_id_all trailer: it is the record's last bytes. */
static void test_trailer_of_skipped_type(void **state)
{
	const uint64_t st = ST_TRAILER | PERF_SAMPLE_CPU;
	struct rb b;
	struct record r;

	(void)state;
	rb_start(&b, PERF_RECORD_ITRACE_START, 0);
	put32x2(&b, 10, 11);     /* ITRACE_START: pid, tid */
	put32x2(&b, 10, 11);     /* trailer: TID, TIME, CPU, IDENTIFIER */
	put64(&b, 999);
	put32x2(&b, 1, 0);
	put64(&b, 77);
	struct perf_event_header *h = rb_finish(&b);
	decode_ok(h, st, true, &r);
	assert_int_equal(r.sid_pid, 10);
	assert_int_equal(r.sid_tid, 11);
	assert_int_equal(r.sid_time, 999);
	assert_int_equal(r.sid_cpu, 1);
	assert_int_equal(r.sid_id, 77);
	free(h);
}

/* record_format_of takes what the decoder needs from an attr. */
static void test_format_of_attr(void **state)
{
	struct perf_event_attr a;
	struct rec_format f;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.sample_type = ST_EVERY;
	a.sample_regs_user = 0x3;
	a.sample_regs_intr = 0x7;
	a.read_format = RF_GROUP;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
	a.sample_id_all = 1;
	record_format_of(&a, &f);
	assert_int_equal(f.sample_type, ST_EVERY);
	assert_int_equal(f.regs_user, 0x3);
	assert_int_equal(f.regs_intr, 0x7);
	assert_int_equal(f.read_format, RF_GROUP);
	assert_int_equal(f.branch_sample_type, PERF_SAMPLE_BRANCH_HW_INDEX);
	assert_true(f.sample_id_all);
	struct perf_event_header *h = every_field_sample(true);
	struct record r;
	assert_int_equal(record_decode_fmt(h, &f, &r), 0);
	free(h);
}

/* ---- REGS_USER and STACK_USER ---------------------------------------- */

#define ST_UNWIND (ST_BASIC | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | \
		   PERF_SAMPLE_STACK_USER)
#define REGS_MASK 0xff0fffULL   /* x86_64 AX..GS, R8..R15: 20 registers */

/* The fixed part of an ST_UNWIND sample, with a one-entry callchain. */
static void put_unwind_head(struct rb *b)
{
	rb_start(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put64(b, 0x51);                    /* IDENTIFIER */
	put64(b, 0x401000);                /* IP */
	put32x2(b, 20, 21);                /* pid, tid */
	put64(b, 22);                      /* TIME */
	put64(b, 23);                      /* PERIOD */
	put64(b, 1);                       /* callchain nr */
	put64(b, 0x401000);
}

/* A stack of SIZE bytes of which DYN are valid; byte i is i & 0xff. */
static void put_stack(struct rb *b, uint64_t size, uint64_t dyn)
{
	put64(b, size);
	for (uint64_t i = 0; i < size; i++)
		put_bytes(b, &(unsigned char){ (unsigned char)i }, 1);
	put64(b, dyn);
}

static bool inside(const struct perf_event_header *h, const void *p, size_t len)
{
	const unsigned char *c = p, *base = (const unsigned char *)h;

	return c > base && c + len <= base + h->size;
}

static void test_sample_regs_stack(void **state)
{
	const struct rec_format f = { .sample_type = ST_UNWIND, .regs_user = REGS_MASK, .sample_id_all = true };
	struct rb b;
	struct record r;

	(void)state;
	put_unwind_head(&b);
	put64(&b, PERF_SAMPLE_REGS_ABI_64);
	for (uint64_t i = 0; i < 20; i++)
		put64(&b, 0x1000 + i);
	put_stack(&b, 64, 40);
	struct perf_event_header *h = rb_finish(&b);

	assert_int_equal(record_decode_fmt(h, &f, &r), 0);
	const struct rec_sample *s = &r.u.sample;
	assert_int_equal(s->ip, 0x401000);
	assert_int_equal(s->period, 23);
	assert_int_equal(s->nr_ips, 1);
	assert_int_equal(s->regs_user.abi, PERF_SAMPLE_REGS_ABI_64);
	assert_int_equal(s->regs_user.mask, REGS_MASK);
	assert_int_equal(s->regs_user.n, 20);
	assert_true(inside(h, s->regs_user.regs, 20 * 8));
	for (unsigned i = 0; i < 20; i++)
		assert_int_equal(s->regs_user.regs[i], 0x1000 + i);
	assert_int_equal(s->stack_size, 40);
	assert_true(inside(h, s->stack, 64));
	for (unsigned i = 0; i < 64; i++)
		assert_int_equal(s->stack[i], i);
	check_truncations_fmt(h, &f);

	/* the same record without the register mask cannot be decoded */
	assert_int_equal(record_decode(h, ST_UNWIND, true, &r), -1);
	/* a smaller mask moves the stack: what follows is no longer valid */
	const struct rec_format f8 = { .sample_type = ST_UNWIND, .regs_user = 0xff, .sample_id_all = true };
	assert_int_equal(record_decode_fmt(h, &f8, &r), -1);
	free(h);
}

/* STACK_USER alone, and a stack whose dyn_size is 0 or the full size. */
static void test_sample_stack_only(void **state)
{
	const struct rec_format f = { .sample_type = ST_BASIC | PERF_SAMPLE_STACK_USER, .regs_user = 0, .sample_id_all = false };
	static const uint64_t dyns[] = { 0, 8, 32 };

	(void)state;
	for (size_t i = 0; i < sizeof(dyns) / sizeof(dyns[0]); i++) {
		struct rb b;
		struct record r;

		rb_start(&b, PERF_RECORD_SAMPLE, 0);
		put64(&b, 1);
		put64(&b, 2);
		put32x2(&b, 3, 4);
		put64(&b, 5);
		put64(&b, 6);
		put_stack(&b, 32, dyns[i]);
		struct perf_event_header *h = rb_finish(&b);
		assert_int_equal(record_decode_fmt(h, &f, &r), 0);
		assert_non_null(r.u.sample.stack);
		assert_int_equal(r.u.sample.stack_size, dyns[i]);
		assert_null(r.u.sample.regs_user.regs);
		assert_int_equal(r.u.sample.regs_user.n, 0);
		check_truncations_fmt(h, &f);
		free(h);
	}
}

/* dyn_size beyond the copied size, or a size beyond the record: refused. */
static void test_sample_stack_bad_sizes(void **state)
{
	const struct rec_format f = { .sample_type = ST_UNWIND, .regs_user = REGS_MASK, .sample_id_all = true };
	static const struct { uint64_t size, dyn; size_t put; } cases[] = {
		{ 64, 65, 64 }, { 64, UINT64_MAX, 64 },       /* dyn_size > size */
		{ 72, 8, 64 }, { UINT64_MAX, 8, 64 },         /* size > what follows */
		{ UINT64_MAX - 7, 8, 64 }, { 1ULL << 63, 0, 64 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rb b;
		struct record r;

		put_unwind_head(&b);
		put64(&b, PERF_SAMPLE_REGS_ABI_64);
		for (int k = 0; k < 20; k++)
			put64(&b, 0);
		put64(&b, cases[i].size);
		for (size_t k = 0; k < cases[i].put; k++)
			put_bytes(&b, "", 1);
		put64(&b, cases[i].dyn);
		struct perf_event_header *h = rb_finish(&b);
		if (record_decode_fmt(h, &f, &r) != -1) {
			fprintf(stderr, "stack size %#llx dyn_size %#llx accepted\n",
				(unsigned long long)cases[i].size,
				(unsigned long long)cases[i].dyn);
			fail();
		}
		free(h);
	}
}

/* record_stack_kept/record_stack_cut: a sample whose kernel copied DYN of
 * a 64-byte stack, with TAIL (DATA_SRC and WEIGHT: u64s after STACK_USER,
 * as perf record -d writes) or not, is queued with its stack cut to DYN
 * rounded up (8 bytes at least: a size of 0 has no dyn_size after it),
 * and decodes to the same sample. */
static void check_stack_cut(uint64_t dyn, bool tail)
{
	uint64_t type = ST_UNWIND | (tail ? PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT : 0);
	const struct rec_format f = { .sample_type = type, .regs_user = REGS_MASK, .sample_id_all = true };
	struct rb b;
	struct record r, rc;
	size_t at = 0;

	put_unwind_head(&b);
	put64(&b, PERF_SAMPLE_REGS_ABI_64);
	for (uint64_t i = 0; i < 20; i++)
		put64(&b, 0x1000 + i);
	put_stack(&b, 64, dyn);
	if (tail) {
		put64(&b, 0x77);   /* WEIGHT */
		put64(&b, 0x88);   /* DATA_SRC */
	}
	struct perf_event_header *h = rb_finish(&b);
	size_t kept = record_stack_kept(h, type, 64, &at);
	assert_int_equal(kept, h->size - (64 - (dyn ? (dyn + 7) & ~7ull : 8)));
	unsigned char *cut = malloc(kept);
	assert_non_null(cut);
	record_stack_cut(cut, h, at, kept);
	assert_int_equal(((struct perf_event_header *)cut)->size, kept);
	assert_int_equal(record_decode_fmt(h, &f, &r), 0);
	assert_int_equal(record_decode_fmt((struct perf_event_header *)cut, &f, &rc), 0);
	assert_int_equal(rc.u.sample.stack_size, dyn);
	assert_memory_equal(rc.u.sample.stack, r.u.sample.stack, dyn);
	assert_memory_equal(rc.u.sample.regs_user.regs, r.u.sample.regs_user.regs, 20 * 8);
	assert_int_equal(rc.u.sample.ip, r.u.sample.ip);
	assert_int_equal(rc.u.sample.time, r.u.sample.time);
	assert_int_equal(rc.u.sample.weight, r.u.sample.weight);
	assert_int_equal(rc.u.sample.data_src, r.u.sample.data_src);
	if (tail)
		assert_int_equal(rc.u.sample.data_src, 0x88);
	free(cut);
	free(h);
}

static void test_stack_cut(void **state)
{
	(void)state;
	for (uint64_t dyn = 0; dyn <= 64; dyn += 4) {
		check_stack_cut(dyn, false);
		check_stack_cut(dyn, true);
	}
}

/* What cannot be vouched for is kept whole: another record, another
 * stack size than the attr's (the kernel cut it near 64 KB), a field of its
 * own length after the stack (REGS_INTR), a kernel thread's empty stack. */
static void test_stack_kept_whole(void **state)
{
	struct rb b;
	size_t at;

	(void)state;
	put_unwind_head(&b);
	put64(&b, PERF_SAMPLE_REGS_ABI_64);
	for (int i = 0; i < 20; i++)
		put64(&b, 0);
	put_stack(&b, 64, 8);
	struct perf_event_header *h = rb_finish(&b);
	assert_int_not_equal(record_stack_kept(h, ST_UNWIND, 64, &at), h->size);
	assert_int_equal(record_stack_kept(h, ST_UNWIND, 128, &at), h->size);
	assert_int_equal(record_stack_kept(h, ST_UNWIND, 0, &at), h->size);
	assert_int_equal(record_stack_kept(h, ST_UNWIND | PERF_SAMPLE_REGS_INTR, 64, &at), h->size);
	assert_int_equal(record_stack_kept(h, ST_UNWIND & ~(uint64_t)PERF_SAMPLE_STACK_USER, 64, &at),
			 h->size);
	h->type = PERF_RECORD_MMAP;
	assert_int_equal(record_stack_kept(h, ST_UNWIND, 64, &at), h->size);
	free(h);

	put_unwind_head(&b);               /* a kernel thread: abi NONE, size 0 */
	put64(&b, PERF_SAMPLE_REGS_ABI_NONE);
	put64(&b, 0);
	h = rb_finish(&b);
	assert_int_equal(record_stack_kept(h, ST_UNWIND, 64, &at), h->size);
	free(h);
}

/* abi NONE (no user context): no registers follow, and the kernel writes a
 * stack size of 0 with no data and no dyn_size. */
static void test_sample_regs_abi_none(void **state)
{
	const struct rec_format f = { .sample_type = ST_UNWIND, .regs_user = REGS_MASK, .sample_id_all = true };
	struct rb b;
	struct record r;

	(void)state;
	put_unwind_head(&b);
	put64(&b, PERF_SAMPLE_REGS_ABI_NONE);
	put64(&b, 0);                      /* stack size 0 */
	struct perf_event_header *h = rb_finish(&b);
	assert_int_equal(record_decode_fmt(h, &f, &r), 0);
	assert_int_equal(r.u.sample.regs_user.abi, PERF_SAMPLE_REGS_ABI_NONE);
	assert_null(r.u.sample.regs_user.regs);
	assert_int_equal(r.u.sample.regs_user.n, 0);
	assert_int_equal(r.u.sample.regs_user.mask, 0);
	assert_null(r.u.sample.stack);
	assert_int_equal(r.u.sample.stack_size, 0);
	check_truncations_fmt(h, &f);
	free(h);

	/* an ABI with registers where only abi NONE's bytes follow: refused */
	put_unwind_head(&b);
	put64(&b, PERF_SAMPLE_REGS_ABI_64);
	put64(&b, 0);
	h = rb_finish(&b);
	assert_int_equal(record_decode_fmt(h, &f, &r), -1);
	free(h);
}

static struct perf_event_header *make_mmap2(const char *file, bool trailer)
{
	struct rb b;

	rb_start(&b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	put32x2(&b, 500, 501);             /* pid, tid */
	put64(&b, 0x555555554000);         /* addr */
	put64(&b, 0x21000);                /* len */
	put64(&b, 0x3000);                 /* pgoff */
	put32x2(&b, 8, 1);                 /* maj, min */
	put64(&b, 123456);                 /* ino */
	put64(&b, 7);                      /* ino_generation */
	put32x2(&b, PROT_READ | PROT_EXEC, MAP_PRIVATE);
	put_str(&b, file);
	if (trailer)
		put_trailer(&b, 500, 501, 999, 0x42);
	return rb_finish(&b);
}

static void test_mmap2(void **state)
{
	/* filename lengths 1..17 cover every padding amount */
	const char *files[] = { "/usr/lib/x86_64-linux-gnu/libc.so.6", "/bin/ls", "/a/b/c/d",
				"[vdso]", "/tmp/x", "a", "/0123456789abcdef" };
	struct record r;

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct perf_event_header *h = make_mmap2(files[i], true);
		assert_int_equal(h->size % 8, 0);
		decode_ok(h, ST_TRAILER, true, &r);
		assert_int_equal(r.u.mmap.pid, 500);
		assert_int_equal(r.u.mmap.tid, 501);
		assert_int_equal(r.u.mmap.addr, 0x555555554000);
		assert_int_equal(r.u.mmap.len, 0x21000);
		assert_int_equal(r.u.mmap.pgoff, 0x3000);
		assert_int_equal(r.u.mmap.prot, PROT_READ | PROT_EXEC);
		assert_int_equal(r.u.mmap.flags, MAP_PRIVATE);
		assert_string_equal(r.u.mmap.filename, files[i]);
		assert_int_equal(r.sid_id, 0x42);
		assert_int_equal(id_of(h, ST_TRAILER, true), 0x42);
		check_truncations(h, ST_TRAILER, true);
		free(h);

		/* without sample_id_all: no trailer, no id */
		h = make_mmap2(files[i], false);
		decode_ok(h, ST_TRAILER, false, &r);
		assert_string_equal(r.u.mmap.filename, files[i]);
		assert_int_equal(r.sid_id, 0);
		assert_int_equal(id_of(h, ST_TRAILER, false), 0);
		free(h);
	}
}

/* A full trailer with every field: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER. */
static void test_mmap2_full_trailer(void **state)
{
	const uint64_t st = ST_BASIC | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU;
	struct rb b;
	struct record r;

	(void)state;
	rb_start(&b, PERF_RECORD_MMAP2, 0);
	put32x2(&b, 1, 2);
	put64(&b, 0x1000);
	put64(&b, 0x2000);
	put64(&b, 0);
	put32x2(&b, 0, 0);
	put64(&b, 0);
	put64(&b, 0);
	put32x2(&b, PROT_EXEC, 0);
	put_str(&b, "/lib/ld.so");
	put32x2(&b, 1, 2);      /* TID */
	put64(&b, 3);           /* TIME */
	put64(&b, 0x99);        /* ID */
	put64(&b, 0x98);        /* STREAM_ID */
	put32x2(&b, 1, 0);      /* CPU */
	put64(&b, 0x99);        /* IDENTIFIER */
	struct perf_event_header *h = rb_finish(&b);
	decode_ok(h, st, true, &r);
	assert_string_equal(r.u.mmap.filename, "/lib/ld.so");
	assert_int_equal(r.sid_id, 0x99);
	assert_int_equal(id_of(h, st, true), 0x99);
	check_truncations(h, st, true);
	free(h);
}

/* A trailer with ID but no IDENTIFIER: the id comes from ID. */
static void test_trailer_id_only(void **state)
{
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID;
	struct rb b;
	struct record r;

	(void)state;
	rb_start(&b, PERF_RECORD_COMM, 0);
	put32x2(&b, 1, 2);
	put_str(&b, "comm");
	put32x2(&b, 1, 2);      /* TID */
	put64(&b, 3);           /* TIME */
	put64(&b, 0x77);        /* ID */
	struct perf_event_header *h = rb_finish(&b);
	decode_ok(h, st, true, &r);
	assert_string_equal(r.u.comm.comm, "comm");
	assert_int_equal(r.sid_id, 0x77);
	assert_int_equal(id_of(h, st, true), 0x77);  /* ID: perf's is_pos */
	check_truncations(h, st, true);
	free(h);
}

static void test_mmap_old(void **state)
{
	struct rb b;
	struct record r;

	(void)state;
	rb_start(&b, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
	put32x2(&b, 600, 601);
	put64(&b, 0x400000);
	put64(&b, 0x1000);
	put64(&b, 0);
	put_str(&b, "/usr/bin/old");
	put_trailer(&b, 600, 601, 1, 0x43);
	struct perf_event_header *h = rb_finish(&b);
	decode_ok(h, ST_TRAILER, true, &r);
	assert_int_equal(r.u.mmap.pid, 600);
	assert_int_equal(r.u.mmap.tid, 601);
	assert_int_equal(r.u.mmap.addr, 0x400000);
	assert_int_equal(r.u.mmap.len, 0x1000);
	assert_int_equal(r.u.mmap.pgoff, 0);
	assert_int_equal(r.u.mmap.prot, PROT_EXEC);
	assert_int_equal(r.u.mmap.flags, 0);
	assert_string_equal(r.u.mmap.filename, "/usr/bin/old");
	assert_int_equal(r.sid_id, 0x43);
	check_truncations(h, ST_TRAILER, true);
	free(h);
}

static void test_filename_without_nul(void **state)
{
	struct rb b;
	struct record r;

	(void)state;
	rb_start(&b, PERF_RECORD_MMAP2, 0);
	put32x2(&b, 1, 1);
	put64(&b, 0x1000);
	put64(&b, 0x1000);
	put64(&b, 0);
	put32x2(&b, 0, 0);
	put64(&b, 0);
	put64(&b, 0);
	put32x2(&b, PROT_EXEC, 0);
	put_bytes(&b, "/abcdefghijklmno", 16);   /* no NUL up to the end */
	struct perf_event_header *h = rb_finish(&b);
	assert_int_equal(record_decode(h, ST_TRAILER, false, &r), -1);
	free(h);

	rb_start(&b, PERF_RECORD_COMM, 0);
	put32x2(&b, 1, 1);
	put_bytes(&b, "abcdefgh", 8);
	h = rb_finish(&b);
	assert_int_equal(record_decode(h, ST_TRAILER, false, &r), -1);
	free(h);
}

static void test_comm(void **state)
{
	struct rb b;
	struct record r;

	(void)state;
	for (int exec = 0; exec < 2; exec++) {
		rb_start(&b, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
		put32x2(&b, 700, 701);
		put_str(&b, "worker-thread");
		put_trailer(&b, 700, 701, 55, 0x44);
		struct perf_event_header *h = rb_finish(&b);
		decode_ok(h, ST_TRAILER, true, &r);
		assert_int_equal(r.u.comm.pid, 700);
		assert_int_equal(r.u.comm.tid, 701);
		assert_string_equal(r.u.comm.comm, "worker-thread");
		assert_int_equal(r.u.comm.exec, exec != 0);
		assert_int_equal(r.sid_id, 0x44);
		assert_int_equal(id_of(h, ST_TRAILER, true), 0x44);
		check_truncations(h, ST_TRAILER, true);
		free(h);
	}
}

/* PERF_RECORD_CGROUP: {id, path}, then the trailer. */
static void test_cgroup(void **state)
{
	struct rb b;
	struct record r;

	(void)state;
	rb_start(&b, PERF_RECORD_CGROUP, 0);
	put64(&b, 0x1234);
	put_str(&b, "/system.slice/cron.service");
	put_trailer(&b, 0, 0, 9, 0x45);
	struct perf_event_header *h = rb_finish(&b);
	decode_ok(h, ST_TRAILER, true, &r);
	assert_int_equal(r.u.cgroup.id, 0x1234);
	assert_string_equal(r.u.cgroup.path, "/system.slice/cron.service");
	assert_int_equal(r.sid_id, 0x45);
	check_truncations(h, ST_TRAILER, true);
	free(h);
}

static void test_fork_exit(void **state)
{
	static const uint32_t types[] = { PERF_RECORD_FORK, PERF_RECORD_EXIT };
	struct rb b;
	struct record r;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		rb_start(&b, types[i], 0);
		put32x2(&b, 800, 1);       /* pid, ppid */
		put32x2(&b, 802, 801);     /* tid, ptid */
		put64(&b, 123456789);
		put_trailer(&b, 800, 802, 123456789, 0x45 + i);
		struct perf_event_header *h = rb_finish(&b);
		decode_ok(h, ST_TRAILER, true, &r);
		assert_int_equal(r.u.task.pid, 800);
		assert_int_equal(r.u.task.ppid, 1);
		assert_int_equal(r.u.task.tid, 802);
		assert_int_equal(r.u.task.ptid, 801);
		assert_int_equal(r.u.task.time, 123456789);
		assert_int_equal(r.sid_id, 0x45 + i);
		check_truncations(h, ST_TRAILER, true);
		free(h);

		/* without sample_id_all the record ends after time */
		rb_start(&b, types[i], 0);
		put32x2(&b, 800, 1);
		put32x2(&b, 802, 801);
		put64(&b, 123456789);
		h = rb_finish(&b);
		decode_ok(h, ST_TRAILER, false, &r);
		assert_int_equal(r.u.task.time, 123456789);
		assert_int_equal(r.sid_id, 0);
		check_truncations(h, ST_TRAILER, false);
		free(h);
	}
}

static void test_lost(void **state)
{
	struct rb b;
	struct record r;

	(void)state;
	rb_start(&b, PERF_RECORD_LOST, 0);
	put64(&b, 0x46);       /* id */
	put64(&b, 1234);       /* lost */
	put_trailer(&b, 1, 1, 2, 0x46);
	struct perf_event_header *h = rb_finish(&b);
	decode_ok(h, ST_TRAILER, true, &r);
	assert_int_equal(r.u.lost.id, 0x46);
	assert_int_equal(r.u.lost.lost, 1234);
	assert_int_equal(r.sid_id, 0x46);
	check_truncations(h, ST_TRAILER, true);
	free(h);
}

static void test_throttle(void **state)
{
	static const uint32_t types[] = { PERF_RECORD_THROTTLE, PERF_RECORD_UNTHROTTLE };
	struct rb b;
	struct record r;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		rb_start(&b, types[i], 0);
		put64(&b, 31337);      /* time */
		put64(&b, 0x47);       /* id */
		put64(&b, 0x48);       /* stream_id */
		put_trailer(&b, 1, 1, 31337, 0x47);
		struct perf_event_header *h = rb_finish(&b);
		decode_ok(h, ST_TRAILER, true, &r);
		assert_int_equal(r.u.throttle.time, 31337);
		assert_int_equal(r.u.throttle.id, 0x47);
		assert_int_equal(r.u.throttle.unthrottle, i == 1);
		assert_int_equal(r.sid_id, 0x47);
		check_truncations(h, ST_TRAILER, true);
		free(h);
	}
}

static void test_unknown_type_skipped(void **state)
{
	static const uint32_t types[] = { PERF_RECORD_ITRACE_START, PERF_RECORD_KSYMBOL, 200, 0xffff };
	struct record r;

	(void)state;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct rb b;
		rb_start(&b, types[i], 0);
		put64(&b, 1);
		put64(&b, 2);
		struct perf_event_header *h = rb_finish(&b);
		assert_int_equal(record_decode(h, ST_TRAILER, true, &r), 0);
		assert_int_equal(r.type, types[i]);
		free(h);
	}
}

static void test_header_too_small(void **state)
{
	struct perf_event_header *h = calloc(1, sizeof(*h));
	struct record r;

	(void)state;
	assert_non_null(h);
	for (uint16_t sz = 0; sz < sizeof(*h); sz++) {
		h->type = PERF_RECORD_SAMPLE;
		h->size = sz;
		assert_int_equal(record_decode(h, ST_BASIC, true, &r), -1);
		h->type = PERF_RECORD_MMAP2;
		assert_int_equal(record_decode(h, ST_TRAILER, true, &r), -1);
		assert_int_equal(id_of(h, ST_TRAILER, true), 0);
	}
	free(h);
}

static void test_record_id(void **state)
{
	struct rb b;

	(void)state;
	/* SAMPLE: the first u64 */
	rb_start(&b, PERF_RECORD_SAMPLE, 0);
	put64(&b, 0xaaaa);
	put64(&b, 0x1);
	put32x2(&b, 1, 1);
	put64(&b, 0xbbbb);
	put64(&b, 0xcccc);
	struct perf_event_header *h = rb_finish(&b);
	assert_int_equal(id_of(h, ST_BASIC, true), 0xaaaa);
	assert_int_equal(id_of(h, ST_BASIC, false), 0xaaaa);
	/* without IDENTIFIER and ID there is none: 0 */
	assert_int_equal(id_of(h, ST_BASIC & ~(uint64_t)PERF_SAMPLE_IDENTIFIER, true), 0);
	/* ID after IP, TID, TIME (perf's id_pos) */
	assert_int_equal(id_of(h, (ST_BASIC & ~(uint64_t)PERF_SAMPLE_IDENTIFIER) | PERF_SAMPLE_ID,
			       true), 0xbbbb);
	free(h);

	/* other records: the last u64, only with sample_id_all */
	rb_start(&b, PERF_RECORD_COMM, 0);
	put32x2(&b, 1, 1);
	put_str(&b, "x");
	put_trailer(&b, 1, 1, 0xdddd, 0xeeee);
	h = rb_finish(&b);
	assert_int_equal(id_of(h, ST_TRAILER, true), 0xeeee);
	assert_int_equal(id_of(h, ST_TRAILER, false), 0);
	h->type = 68;   /* perf's own (FINISHED_ROUND's number): no trailer */
	assert_int_equal(id_of(h, ST_TRAILER, true), 0);
	free(h);

	/* a bare header has no id */
	h = calloc(1, sizeof(*h));
	assert_non_null(h);
	h->type = PERF_RECORD_SAMPLE;
	h->size = sizeof(*h);
	assert_int_equal(id_of(h, ST_BASIC, true), 0);
	h->type = PERF_RECORD_COMM;
	assert_int_equal(id_of(h, ST_TRAILER, true), 0);
	free(h);
}

/* The head fields' bits, in the kernel's order (the head_only formats). */
static const uint64_t head_bits[] = {
	PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
	PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
	PERF_SAMPLE_PERIOD, PERF_SAMPLE_CALLCHAIN,
};
#define NHEAD (sizeof(head_bits) / sizeof(head_bits[0]))

/* A sample of ST, each field a value of its own, a chain of NR (of which
 * HAVE are there). */
static struct perf_event_header *head_sample(uint64_t st, uint64_t nr, uint64_t have)
{
	struct rb b;

	rb_start(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	for (size_t i = 0; i + 1 < NHEAD; i++)
		if (st & head_bits[i])
			put64(&b, 0x1000000100ull * (i + 1) + i);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		put64(&b, nr);
		for (uint64_t k = 0; k < have; k++)
			put64(&b, 0x400000 + k);
	}
	return rb_finish(&b);
}

/* Decodes H (and every prefix of it) with the layout record_format_of
 * made and field by field (a format made by hand): the same records. */
static void check_layout(const struct perf_event_header *h, uint64_t st)
{
	struct perf_event_attr a = { .sample_type = st, .sample_id_all = 1 };
	struct rec_format laid, plain = { .sample_type = st, .sample_id_all = true };

	record_format_of(&a, &laid);
	plain.head_only = laid.head_only;
	for (size_t sz = sizeof(*h); sz <= h->size; sz++) {
		struct perf_event_header *t = malloc(sz);
		struct record x, y;
		uint64_t tx = 1, ty = 2;
		assert_non_null(t);
		memcpy(t, h, sz);
		t->size = (uint16_t)sz;
		memset(&x, 0x5a, sizeof(x));
		memset(&y, 0x5a, sizeof(y));   /* padding alike */
		assert_int_equal(record_decode_fmt(t, &laid, &x), record_decode_fmt(t, &plain, &y));
		assert_memory_equal(&x.u.sample, &y.u.sample, sizeof(x.u.sample));
		assert_int_equal(record_time_fmt(t, &laid, &tx), record_time(t, st, true, &ty));
		assert_true(tx == ty || tx == 1);
		free(t);
	}
}

/* The sample_type of mask M over head_bits[]: bit i of M takes head_bits[i]. */
static uint64_t head_type(uint64_t m)
{
	uint64_t st = 0;

	for (size_t i = 0; i < NHEAD; i++)
		if (m & (1u << i))
			st |= head_bits[i];
	return st;
}

static void test_sample_layout(void **state)
{
	(void)state;
	for (uint64_t m = 0; m < (1u << NHEAD); m++) {
		uint64_t st = head_type(m);
		struct perf_event_header *h = head_sample(st, 3, 3);
		check_layout(h, st);
		free(h);
		if (st & PERF_SAMPLE_CALLCHAIN) {   /* a chain longer than its record */
			h = head_sample(st, 4, 3);
			check_layout(h, st);
			free(h);
		}
	}
}

/* A COMM of pid 1, tid 2, "comm", followed by six words a trailer of any
 * sample_id_all layout reads (0x7700..0x7705). */
static struct perf_event_header *comm_with_trailer(void)
{
	struct rb b;

	rb_start(&b, PERF_RECORD_COMM, 0);
	put32x2(&b, 1, 2);
	put_str(&b, "comm");
	for (int k = 0; k < 6; k++)
		put64(&b, 0x7700 + (uint64_t)k);
	return rb_finish(&b);
}

/* Records of one head_only format decoded in turn into one record by
 * record_decode_head (a COMM, whole samples, a chain longer than its
 * record, a cut head): each as record_decode_fmt decodes it afresh. */
static void test_decode_head(void **state)
{
	const size_t mode = offsetof(struct rec_sample, cpumode) + 1;
	const size_t chain = offsetof(struct rec_sample, nr_ips);
	struct record x;

	(void)state;
	for (uint64_t m = 0; m < (1u << NHEAD); m++) {
		uint64_t st = head_type(m);
		struct perf_event_attr a = { .sample_type = st, .sample_id_all = 1 };
		struct perf_event_header *h[5];
		struct rec_format f;
		record_format_of(&a, &f);
		h[0] = comm_with_trailer();
		h[1] = head_sample(st, 3, 3);
		h[2] = head_sample(st, 4, 3);
		h[3] = head_sample(st, 3, 3);
		h[3]->size = sizeof(*h[3]) + 8 * (h[3]->size > sizeof(*h[3]) + 8);
		h[4] = head_sample(st, 2, 2);
		memset(&x, 0, sizeof(x));
		for (int i = 0; i < 5; i++) {
			struct record y;
			memset(&y, 0x5a, sizeof(y));
			assert_int_equal(record_decode_head(h[i], &f, &x), record_decode_fmt(h[i], &f, &y));
			assert_int_equal(x.type, y.type);
			assert_int_equal(x.misc, y.misc);
			assert_int_equal(x.cpumode, y.cpumode);
			if (x.type != PERF_RECORD_SAMPLE)
				continue;
			assert_memory_equal(&x.u.sample, &y.u.sample, mode);
			assert_memory_equal((char *)&x.u.sample + chain, (char *)&y.u.sample + chain,
					    sizeof(x.u.sample) - chain);
		}
		for (int i = 0; i < 5; i++)
			free(h[i]);
	}
}

/* Another record's time from its trailer: as record_time, whatever the
 * trailer's fields, with and without sample_id_all. */
static void test_trailer_time_layout(void **state)
{
	(void)state;
	for (uint64_t m = 0; m < (1u << NHEAD); m++) {
		uint64_t st = head_type(m);
		for (int sid = 0; sid < 2; sid++) {
			struct perf_event_attr a = { .sample_type = st, .sample_id_all = sid };
			struct rec_format f;
			record_format_of(&a, &f);
			struct perf_event_header *h = comm_with_trailer();
			for (uint16_t sz = sizeof(*h); sz <= h->size; sz++) {
				uint64_t tx = 1, ty = 2;
				h->size = sz;
				assert_int_equal(record_time_fmt(h, &f, &tx),
						 record_time(h, st, sid, &ty));
				assert_true(tx == ty || tx == 1);
			}
			free(h);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample_basic),
		cmocka_unit_test(test_sample_layout),
		cmocka_unit_test(test_decode_head),
		cmocka_unit_test(test_trailer_time_layout),
		cmocka_unit_test(test_sample_all_fields),
		cmocka_unit_test(test_sample_variants),
		cmocka_unit_test(test_sample_callchain_too_long),
		cmocka_unit_test(test_sample_unsupported_type),
		cmocka_unit_test(test_sample_every_field),
		cmocka_unit_test(test_sample_weight_tail),
		cmocka_unit_test(test_sample_read_single),
		cmocka_unit_test(test_lost_samples),
		cmocka_unit_test(test_sample_bad_lengths),
		cmocka_unit_test(test_cpumode),
		cmocka_unit_test(test_trailer_of_skipped_type),
		cmocka_unit_test(test_format_of_attr),
		cmocka_unit_test(test_sample_regs_stack),
		cmocka_unit_test(test_sample_stack_only),
		cmocka_unit_test(test_sample_stack_bad_sizes),
		cmocka_unit_test(test_stack_cut),
		cmocka_unit_test(test_stack_kept_whole),
		cmocka_unit_test(test_sample_regs_abi_none),
		cmocka_unit_test(test_mmap2),
		cmocka_unit_test(test_mmap2_full_trailer),
		cmocka_unit_test(test_trailer_id_only),
		cmocka_unit_test(test_mmap_old),
		cmocka_unit_test(test_filename_without_nul),
		cmocka_unit_test(test_comm),
		cmocka_unit_test(test_cgroup),
		cmocka_unit_test(test_fork_exit),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_throttle),
		cmocka_unit_test(test_unknown_type_skipped),
		cmocka_unit_test(test_header_too_small),
		cmocka_unit_test(test_record_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
