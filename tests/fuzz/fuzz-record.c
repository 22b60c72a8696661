/* Fuzz target for the record decoder alone (engine/record.c), whatever
 * the format: fuzz-perfdata reaches it only through a valid perf.data
 * header and attr, this one feeds it any format and any record.
 *
 * With libFuzzer (make fuzz):
 *	clang -fsanitize=fuzzer,address,undefined -DCYCTOP_LIBFUZZER -I. \
 *		tests/fuzz/fuzz-record.c engine/record.c
 *	./a.out -max_total_time=60 CORPUS-COPY
 * Without it (make check), tests/fuzz/fuzz-replay.c's main() replays every file in the
 * directories and files named on the command line: the seed corpus
 * tests/fuzz/corpus/record/ (made by tests/fuzz/gen-record-corpus.py) runs
 * as a plain test.
 *
 * An input is FMT_BYTES of format, then one record:
 *	0   u64 sample_type, masked to the bits the decoder knows plus a few
 *	    it refuses (FUZZ_SAMPLE_TYPES)
 *	8   u64 regs_user (attr.sample_regs_user)
 *	16  u8  bit 0: sample_id_all, bit 1: branch_sample_type HW_INDEX
 *	17  u8  read_format (its low 5 bits)
 *	18  6 bytes: regs_intr (attr.sample_regs_intr)
 *	24  perf_event_header and body, any type
 * The record is copied to a heap buffer of exactly its size (hdr.size cut
 * to the input), decoded with record_decode_fmt and record_decode, and
 * every field decoded is read, so a sanitizer sees any read past it.  A
 * pointer outside the record, a register count other than the mask's, a
 * stack longer than its size field, a sample_type or regs_user the decoder
 * should have refused, abort(). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

#define FMT_BYTES 24
/* what the decoder reads, and bits it must refuse */
#define FUZZ_SAMPLE_TYPES (RECORD_SAMPLE_TYPES | PERF_SAMPLE_WEIGHT_STRUCT << 1 | 1ull << 63)

static volatile uint64_t sink;   /* keeps the reads */

/* [p, p + len) lies in the record's body, and is read */
static void touch_span(const struct perf_event_header *h, const void *p, uint64_t len)
{
	const unsigned char *b = p, *body = (const unsigned char *)(h + 1);
	const unsigned char *end = (const unsigned char *)h + h->size;

	if (b < body || b > end || len > (uint64_t)(end - b))
		abort();
	for (uint64_t i = 0; i < len; i++)
		sink += b[i];
}

static void touch_str(const struct perf_event_header *h, const char *s)
{
	touch_span(h, s, strlen(s) + 1);
}

/* STACK_USER: u64 size, the copy, u64 dyn_size; stack_size is dyn_size */
static void touch_stack(const struct perf_event_header *h, const struct rec_sample *s)
{
	uint64_t size;

	if (!s->stack) {
		if (s->stack_size)
			abort();
		return;
	}
	touch_span(h, s->stack - 8, 8);
	memcpy(&size, s->stack - 8, 8);
	if (s->stack_size > size)
		abort();
	touch_span(h, s->stack, size);
	touch_span(h, s->stack + size, 8);   /* dyn_size */
}

/* READ, RAW, BRANCH_STACK, REGS_INTR, AUX: in the record, as long as said */
static void touch_variable(const struct perf_event_header *h, const struct rec_format *f,
			   const struct rec_sample *s)
{
	if (s->read.values)
		touch_span(h, s->read.values, s->read.nr * record_read_stride(f->read_format) * 8);
	if (s->raw)
		touch_span(h, s->raw, s->raw_size);
	if (s->branches.entries)
		touch_span(h, s->branches.entries, s->branches.nr * 24);
	if (s->regs_intr.regs) {
		if (s->regs_intr.mask != f->regs_intr ||
		    s->regs_intr.n != (unsigned)__builtin_popcountll(f->regs_intr))
			abort();
		touch_span(h, s->regs_intr.regs, (uint64_t)s->regs_intr.n * 8);
	}
	if (s->aux)
		touch_span(h, s->aux, s->aux_size);
	sink += s->weight + s->data_src + s->transaction + s->phys_addr + s->cgroup;
	sink += s->data_page_size + s->code_page_size + s->cpumode + s->stream_id;
}

static void touch_sample(const struct perf_event_header *h, const struct rec_format *f,
			 const struct rec_sample *s)
{
	touch_variable(h, f, s);
	sink += s->id + s->ip + s->time + s->addr + s->period;
	sink += s->pid + s->tid + s->cpu + s->regs_user.abi + s->regs_user.mask;
	if (s->nr_ips)
		touch_span(h, s->ips, s->nr_ips * 8);
	if (s->regs_user.regs) {
		if (s->regs_user.abi == PERF_SAMPLE_REGS_ABI_NONE || s->regs_user.mask != f->regs_user ||
		    s->regs_user.n != (unsigned)__builtin_popcountll(f->regs_user))
			abort();
		touch_span(h, s->regs_user.regs, (uint64_t)s->regs_user.n * 8);
	} else if (s->regs_user.n || s->regs_user.mask) {
		abort();
	}
	touch_stack(h, s);
}

static void touch_other(const struct perf_event_header *h, const struct record *r)
{
	switch (r->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		sink += r->u.mmap.pid + r->u.mmap.tid + r->u.mmap.addr + r->u.mmap.len;
		sink += r->u.mmap.pgoff + r->u.mmap.prot + r->u.mmap.flags;
		touch_str(h, r->u.mmap.filename);
		break;
	case PERF_RECORD_COMM:
		if (r->u.comm.exec != !!(h->misc & PERF_RECORD_MISC_COMM_EXEC))
			abort();
		sink += r->u.comm.pid + r->u.comm.tid;
		touch_str(h, r->u.comm.comm);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		sink += r->u.task.pid + r->u.task.ppid + r->u.task.tid + r->u.task.ptid;
		sink += r->u.task.time;
		break;
	case PERF_RECORD_LOST:
		sink += r->u.lost.id + r->u.lost.lost;
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		if (r->u.throttle.unthrottle != (r->type == PERF_RECORD_UNTHROTTLE))
			abort();
		sink += r->u.throttle.time + r->u.throttle.id;
		break;
	}
}

/* what the decoder must refuse whatever the body */
static bool must_refuse(const struct perf_event_header *h, const struct rec_format *f)
{
	if (h->size < sizeof(*h))
		return true;
	if (h->type != PERF_RECORD_SAMPLE)
		return false;
	return (f->sample_type & ~(uint64_t)RECORD_SAMPLE_TYPES) ||
	       ((f->sample_type & PERF_SAMPLE_REGS_USER) && f->regs_user == 0) ||
	       ((f->sample_type & PERF_SAMPLE_REGS_INTR) && f->regs_intr == 0);
}

static void decode_one(const struct perf_event_header *h, const struct rec_format *f,
		       bool with_regs)
{
	struct record r;
	int rc = with_regs ? record_decode_fmt(h, f, &r)
			   : record_decode(h, f->sample_type, f->sample_id_all, &r);

	if (r.type != h->type || r.misc != h->misc || (rc == 0 && must_refuse(h, f)))
		abort();
	if (rc != 0)
		return;
	sink += r.sid_id;
	if (r.type == PERF_RECORD_SAMPLE)
		touch_sample(h, f, &r.u.sample);
	else
		touch_other(h, &r);
}

static void decode_all(const struct perf_event_header *h, const struct rec_format *f)
{
	struct rec_format none = *f;
	uint64_t id;

	decode_one(h, f, true);
	none.regs_user = 0;   /* record_decode: as if attr had none of these */
	none.regs_intr = 0;
	none.read_format = 0;
	none.branch_sample_type = 0;
	decode_one(h, &none, false);
	if (record_id(h, f->sample_type, f->sample_id_all, &id))
		sink += id;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	struct rec_format f;
	struct perf_event_header hdr, *copy;
	size_t len;

	if (n < FMT_BYTES + sizeof(hdr))
		return 0;
	/* an attr of the input's fields, its format as the readers make it
	 * (record_format_of: head_only too, so both decoding paths run) */
	memcpy(&a.sample_type, d, 8);
	a.sample_type &= FUZZ_SAMPLE_TYPES;
	memcpy(&a.sample_regs_user, d + 8, 8);
	a.sample_id_all = d[16] & 1;
	a.branch_sample_type = d[16] & 2 ? PERF_SAMPLE_BRANCH_HW_INDEX : 0;
	a.read_format = d[17] & 0x1f;
	memcpy(&a.sample_regs_intr, d + 18, 6);
	record_format_of(&a, &f);
	memcpy(&hdr, d + FMT_BYTES, sizeof(hdr));
	len = hdr.size < n - FMT_BYTES ? hdr.size : n - FMT_BYTES;
	/* a size below the header's still comes with a header to read */
	copy = malloc(len < sizeof(hdr) ? sizeof(hdr) : len);
	if (!copy)
		abort();
	memcpy(copy, d + FMT_BYTES, len < sizeof(hdr) ? sizeof(hdr) : len);
	copy->size = (uint16_t)len;
	decode_all(copy, &f);
	free(copy);
	return 0;
}
