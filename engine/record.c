#include "engine/record.h"

#include <string.h>
#include <sys/mman.h>

struct cursor {
	const unsigned char *p, *end;
	bool bad;
};

static uint64_t take64(struct cursor *c)
{
	uint64_t v = 0;

	if (c->end - c->p < 8) {
		c->bad = true;
		return 0;
	}
	memcpy(&v, c->p, 8);
	c->p += 8;
	return v;
}

static void take2x32(struct cursor *c, uint32_t *a, uint32_t *b)
{
	uint64_t v = take64(c);

	*a = (uint32_t)v;   /* little-endian pair, as the kernel writes it */
	*b = (uint32_t)(v >> 32);
}

/* A NUL-terminated string padded to 8 bytes, followed by the trailer. */
static const char *take_string(struct cursor *c)
{
	const char *s = (const char *)c->p;
	const unsigned char *nul = memchr(c->p, '\0', (size_t)(c->end - c->p));

	if (!nul) {
		c->bad = true;
		return "";
	}
	size_t len = (size_t)(nul - c->p) + 1;
	len = (len + 7) & ~(size_t)7;
	if ((size_t)(c->end - c->p) < len) {
		/* the padding is cut: accept the string, nothing may follow */
		c->p = c->end;
		return s;
	}
	c->p += len;
	return s;
}

/* REGS_USER: u64 abi, then one u64 per set bit of the mask unless abi is
 * NONE (include/uapi/linux/perf_event.h, PERF_RECORD_SAMPLE). */
static void decode_regs_user(struct cursor *c, uint64_t mask, struct rec_sample *s)
{
	unsigned n = (unsigned)__builtin_popcountll(mask);

	s->regs_abi = take64(c);
	if (c->bad || s->regs_abi == PERF_SAMPLE_REGS_ABI_NONE)
		return;
	if (n > (size_t)(c->end - c->p) / 8) {
		c->bad = true;
		return;
	}
	s->regs = (const uint64_t *)(const void *)c->p;
	s->n_regs = n;
	s->regs_mask = mask;
	c->p += (size_t)n * 8;
}

/* STACK_USER: u64 size, size bytes, then u64 dyn_size (the bytes actually
 * copied, <= size) unless size is 0. */
static void decode_stack_user(struct cursor *c, struct rec_sample *s)
{
	uint64_t size = take64(c), dyn;

	if (c->bad || size == 0)
		return;
	if (size > (uint64_t)(c->end - c->p)) {
		c->bad = true;
		return;
	}
	s->stack = c->p;
	c->p += size;
	dyn = take64(c);
	if (dyn > size) {
		c->bad = true;
		return;
	}
	s->stack_size = dyn;
}

static int decode_sample(struct cursor *c, const struct rec_format *f, struct rec_sample *s)
{
	uint64_t st = f->sample_type;

	memset(s, 0, sizeof(*s));
	if (st & PERF_SAMPLE_IDENTIFIER)
		s->id = take64(c);
	if (st & PERF_SAMPLE_IP)
		s->ip = take64(c);
	if (st & PERF_SAMPLE_TID)
		take2x32(c, &s->pid, &s->tid);
	if (st & PERF_SAMPLE_TIME)
		s->time = take64(c);
	if (st & PERF_SAMPLE_ADDR)
		s->addr = take64(c);
	if (st & PERF_SAMPLE_ID)
		s->id = take64(c);
	if (st & PERF_SAMPLE_STREAM_ID)
		(void)take64(c);
	if (st & PERF_SAMPLE_CPU) {
		uint32_t res;
		take2x32(c, &s->cpu, &res);
	}
	if (st & PERF_SAMPLE_PERIOD)
		s->period = take64(c);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		s->nr_ips = take64(c);
		if (c->bad || s->nr_ips > (uint64_t)(c->end - c->p) / 8)
			return -1;
		s->ips = (const uint64_t *)(const void *)c->p;
		c->p += s->nr_ips * 8;
	}
	if (st & PERF_SAMPLE_REGS_USER)
		decode_regs_user(c, f->regs_user, s);
	if (st & PERF_SAMPLE_STACK_USER)
		decode_stack_user(c, s);
	if (c->bad) {
		s->regs = NULL;   /* no pointer into a record we refuse */
		s->stack = NULL;
	}
	return c->bad ? -1 : 0;
}

/* sample_id_all trailer for our sample_type: TID, TIME, ID, STREAM_ID, CPU,
 * IDENTIFIER (in that order). */
static void decode_trailer(struct cursor *c, uint64_t st, struct record *r)
{
	uint32_t a, b;

	if (st & PERF_SAMPLE_TID)
		take2x32(c, &a, &b);
	if (st & PERF_SAMPLE_TIME)
		(void)take64(c);
	if (st & PERF_SAMPLE_ID)
		r->sid_id = take64(c);
	if (st & PERF_SAMPLE_STREAM_ID)
		(void)take64(c);
	if (st & PERF_SAMPLE_CPU)
		take2x32(c, &a, &b);
	if (st & PERF_SAMPLE_IDENTIFIER)
		r->sid_id = take64(c);
}

static void decode_mmap(struct cursor *c, uint32_t type, struct rec_mmap *m)
{
	take2x32(c, &m->pid, &m->tid);
	m->addr = take64(c);
	m->len = take64(c);
	m->pgoff = take64(c);
	m->prot = PROT_EXEC;
	m->flags = 0;
	if (type == PERF_RECORD_MMAP2) {
		(void)take64(c); /* maj, min */
		(void)take64(c); /* ino */
		(void)take64(c); /* ino_generation */
		take2x32(c, &m->prot, &m->flags);
	}
	m->filename = take_string(c);
}

int record_decode_fmt(const struct perf_event_header *hdr, const struct rec_format *f,
		      struct record *out)
{
	uint64_t st = f->sample_type;
	struct cursor c = { (const unsigned char *)(hdr + 1),
			    (const unsigned char *)hdr + hdr->size, false };

	memset(out, 0, sizeof(*out));
	out->type = hdr->type;
	out->misc = hdr->misc;
	if (hdr->size < sizeof(*hdr))
		return -1;
	switch (hdr->type) {
	case PERF_RECORD_SAMPLE:
		if (st & ~(uint64_t)RECORD_SAMPLE_TYPES)
			return -1;
		if ((st & PERF_SAMPLE_REGS_USER) && f->regs_user == 0)
			return -1;
		return decode_sample(&c, f, &out->u.sample);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		decode_mmap(&c, hdr->type, &out->u.mmap);
		break;
	case PERF_RECORD_COMM:
		take2x32(&c, &out->u.comm.pid, &out->u.comm.tid);
		out->u.comm.comm = take_string(&c);
		out->u.comm.exec = (hdr->misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		take2x32(&c, &out->u.task.pid, &out->u.task.ppid);
		take2x32(&c, &out->u.task.tid, &out->u.task.ptid);
		out->u.task.time = take64(&c);
		break;
	case PERF_RECORD_LOST:
		out->u.lost.id = take64(&c);
		out->u.lost.lost = take64(&c);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		out->u.throttle.time = take64(&c);
		out->u.throttle.id = take64(&c);
		(void)take64(&c); /* stream_id */
		out->u.throttle.unthrottle = hdr->type == PERF_RECORD_UNTHROTTLE;
		break;
	default:
		return 0; /* known to exist, not needed: skipped by size */
	}
	if (f->sample_id_all && !c.bad)
		decode_trailer(&c, st, out);
	return c.bad ? -1 : 0;
}

int record_decode(const struct perf_event_header *hdr, uint64_t st, bool sample_id_all,
		  struct record *out)
{
	const struct rec_format f = { st, 0, sample_id_all };

	return record_decode_fmt(hdr, &f, out);
}

uint64_t record_peek_id(const struct perf_event_header *hdr, uint64_t st, bool sample_id_all)
{
	uint64_t id = 0;

	if (!(st & PERF_SAMPLE_IDENTIFIER) || hdr->size < sizeof(*hdr) + 8)
		return 0;
	if (hdr->type == PERF_RECORD_SAMPLE)
		memcpy(&id, hdr + 1, 8);
	else if (sample_id_all)
		memcpy(&id, (const unsigned char *)hdr + hdr->size - 8, 8);
	return id;
}

/* Bytes of the sample_id_all trailer for SAMPLE_TYPE. */
static size_t trailer_size(uint64_t st)
{
	static const uint64_t fields[] = { PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
					   PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
					   PERF_SAMPLE_IDENTIFIER };
	size_t n = 0;

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		n += (st & fields[i]) ? 8 : 0;
	return n;
}

bool record_time(const struct perf_event_header *hdr, uint64_t st, bool sample_id_all,
		 uint64_t *time)
{
	size_t off;

	if (!(st & PERF_SAMPLE_TIME))
		return false;
	if (hdr->type == PERF_RECORD_SAMPLE) {
		/* IDENTIFIER, IP, TID come before TIME */
		off = sizeof(*hdr) + 8 * (!!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_IP) +
					  !!(st & PERF_SAMPLE_TID));
	} else {
		size_t tsz = trailer_size(st);
		if (!sample_id_all || hdr->type >= PERF_RECORD_MAX || tsz > hdr->size ||
		    hdr->size - tsz < sizeof(*hdr))
			return false;
		off = hdr->size - tsz + 8 * !!(st & PERF_SAMPLE_TID);
	}
	if (off + 8 > hdr->size)
		return false;
	memcpy(time, (const unsigned char *)hdr + off, 8);
	return true;
}
