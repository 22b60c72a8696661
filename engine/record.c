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

static uint32_t take32(struct cursor *c)
{
	uint32_t v = 0;

	if (c->end - c->p < 4) {
		c->bad = true;
		return 0;
	}
	memcpy(&v, c->p, 4);
	c->p += 4;
	return v;
}

/* N u64s in place: a pointer into the record, or NULL (and bad) if they do
 * not fit.  The record is 8-aligned and every field before is a multiple
 * of 8 bytes (RAW is checked), so the pointer is aligned. */
static const uint64_t *take_array(struct cursor *c, uint64_t n)
{
	const uint64_t *p = (const uint64_t *)(const void *)c->p;

	if (c->bad || n > (uint64_t)(c->end - c->p) / 8) {
		c->bad = true;
		return NULL;
	}
	c->p += n * 8;
	return p;
}

/* REGS_USER, REGS_INTR: u64 abi, then one u64 per set bit of the mask
 * unless abi is NONE (include/uapi/linux/perf_event.h, PERF_RECORD_SAMPLE). */
static void decode_regs(struct cursor *c, uint64_t mask, struct rec_regs *r)
{
	unsigned n = (unsigned)__builtin_popcountll(mask);

	r->abi = take64(c);
	if (c->bad || r->abi == PERF_SAMPLE_REGS_ABI_NONE)
		return;
	r->regs = take_array(c, n);
	if (!r->regs)
		return;
	r->n = n;
	r->mask = mask;
}

/* STACK_USER: u64 size, size bytes, then u64 dyn_size (the bytes actually
 * copied, <= size) unless size is 0. */
static void decode_stack_user(struct cursor *c, struct rec_sample *s)
{
	uint64_t size = take64(c), dyn;

	if (c->bad || size == 0)
		return;
	if (size > (uint64_t)(c->end - c->p) || size % 8) {
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

/* The SAMPLE fields the kernel writes after STACK_USER, in perf_event.h's
 * order: one u64 each, but REGS_INTR and AUX (of their own lengths). */
#define AFTER_STACK_USER_U64 (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | \
			      PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR | \
			      PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE | \
			      PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_WEIGHT_STRUCT)
#define AFTER_STACK_USER_SIZED (PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_AUX)

size_t record_stack_kept(const struct perf_event_header *h, uint64_t sample_type,
			 uint32_t stack_user, size_t *at)
{
	/* the kernel rounds the size up to u64s (perf_sample_ustack_size) */
	uint64_t size = ((uint64_t)stack_user + 7) & ~(uint64_t)7, at_size, dyn;
	size_t tail = 8 * (size_t)__builtin_popcountll(sample_type & AFTER_STACK_USER_U64);
	const unsigned char *end = (const unsigned char *)h + h->size - tail;

	if (h->type != PERF_RECORD_SAMPLE || !(sample_type & PERF_SAMPLE_STACK_USER) ||
	    (sample_type & AFTER_STACK_USER_SIZED) || !size || h->size % 8 ||
	    h->size < sizeof(*h) + size + 16 + tail)
		return h->size;
	memcpy(&dyn, end - 8, 8);
	memcpy(&at_size, end - 16 - size, 8);
	/* a size the kernel cut (a record near 64 KB), or none (a kernel
	 * thread: size 0, no dyn_size) does not match: kept whole */
	if (at_size != size || dyn > size)
		return h->size;
	*at = (size_t)(end - 16 - size - (const unsigned char *)h);
	/* a size of 0 would drop dyn_size from the layout: 8 bytes at least */
	return h->size - (size_t)(size - (dyn ? (dyn + 7) & ~(uint64_t)7 : 8));
}

void record_stack_cut(void *dst, const struct perf_event_header *h, size_t at, size_t kept)
{
	const unsigned char *src = (const unsigned char *)h;
	unsigned char *d = dst;
	uint64_t size, kept_size;

	memcpy(&size, src + at, 8);
	kept_size = size - (h->size - kept);  /* dyn_size rounded up, 8 at least */
	memcpy(d, src, at);
	memcpy(d + at, &kept_size, 8);
	memcpy(d + at + 8, src + at + 8, kept_size);
	/* dyn_size and the fields after it */
	memcpy(d + at + 8 + kept_size, src + at + 8 + size, h->size - (at + 8 + size));
	((struct perf_event_header *)dst)->size = (uint16_t)kept;
}

unsigned record_read_stride(uint64_t rf)
{
	return 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
}

void record_read_value(const struct rec_read *r, uint64_t i, uint64_t *value, uint64_t *id)
{
	const uint64_t *e = r->values + i * record_read_stride(r->format);
	unsigned times = !!(r->format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(r->format & PERF_FORMAT_TOTAL_TIME_RUNNING);

	*value = e[0];
	*id = 0;
	if (r->format & PERF_FORMAT_ID)   /* a lone counter's times come before its id */
		*id = r->format & PERF_FORMAT_GROUP ? e[1] : e[1 + times];
}

/* READ: {value, enabled, running, id, lost} for one counter; for a group
 * {nr, enabled, running, nr x {value, id, lost}} (perf_event.h read_format). */
static void decode_read(struct cursor *c, uint64_t rf, struct rec_read *r)
{
	bool group = rf & PERF_FORMAT_GROUP;
	const uint64_t *first = (const uint64_t *)(const void *)c->p;

	r->format = rf;
	r->nr = group ? take64(c) : 1;
	if (!group)
		(void)take64(c);   /* value */
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		r->time_enabled = take64(c);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		r->time_running = take64(c);
	if (!group) {
		r->values = first;
		(void)take_array(c, record_read_stride(rf) - 1);   /* id, lost */
		return;
	}
	if (c->bad || r->nr > (uint64_t)(c->end - c->p) / 8) {
		c->bad = true;
		return;
	}
	r->values = take_array(c, r->nr * record_read_stride(rf));
}

/* RAW: u32 size, then size bytes; the kernel pads so that the two end on
 * an 8-byte boundary, and perf steps over 4 + size. */
static void decode_raw(struct cursor *c, struct rec_sample *s)
{
	uint32_t size = take32(c);

	if (c->bad || (4 + (uint64_t)size) % 8 || size > (uint64_t)(c->end - c->p)) {
		c->bad = true;
		return;
	}
	s->raw = c->p;
	s->raw_size = size;
	c->p += size;
}

/* BRANCH_STACK: u64 nr, u64 hw_idx if the attr asked for it, then nr
 * {from, to, flags}. */
static void decode_branches(struct cursor *c, uint64_t bst, struct rec_branches *b)
{
	b->nr = take64(c);
	b->hw_idx = bst & PERF_SAMPLE_BRANCH_HW_INDEX ? take64(c) : UINT64_MAX;
	if (c->bad || b->nr > (uint64_t)(c->end - c->p) / 24) {
		c->bad = true;
		return;
	}
	b->entries = take_array(c, b->nr * 3);
}

/* AUX: u64 size, then size bytes (a multiple of 8). */
static void decode_aux(struct cursor *c, struct rec_sample *s)
{
	s->aux_size = take64(c);
	if (c->bad || s->aux_size % 8) {
		c->bad = true;
		return;
	}
	s->aux = take_array(c, s->aux_size / 8);
}

/* The fields up to PERIOD: fixed sizes. */
static void decode_sample_head(struct cursor *c, uint64_t st, struct rec_sample *s)
{
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
		s->stream_id = take64(c);
	if (st & PERF_SAMPLE_CPU) {
		uint32_t res;
		take2x32(c, &s->cpu, &res);
	}
	if (st & PERF_SAMPLE_PERIOD)
		s->period = take64(c);
}

/* The fields after STACK_USER, in the kernel's order (kernel/events/core.c
 * perf_output_sample: CGROUP after PHYS_ADDR and AUX last, which the uapi
 * header's comment leaves out). */
static void decode_sample_tail(struct cursor *c, const struct rec_format *f,
			       struct rec_sample *s)
{
	uint64_t st = f->sample_type;

	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		s->weight = take64(c);
	if (st & PERF_SAMPLE_DATA_SRC)
		s->data_src = take64(c);
	if (st & PERF_SAMPLE_TRANSACTION)
		s->transaction = take64(c);
	if (st & PERF_SAMPLE_REGS_INTR)
		decode_regs(c, f->regs_intr, &s->regs_intr);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		s->phys_addr = take64(c);
	if (st & PERF_SAMPLE_CGROUP)
		s->cgroup = take64(c);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = take64(c);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = take64(c);
	if (st & PERF_SAMPLE_AUX)
		decode_aux(c, s);
}

static int decode_sample(struct cursor *c, const struct rec_format *f, struct rec_sample *s)
{
	uint64_t st = f->sample_type;

	decode_sample_head(c, st, s);
	if (st & PERF_SAMPLE_READ)
		decode_read(c, f->read_format, &s->read);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		s->nr_ips = take64(c);
		s->ips = take_array(c, s->nr_ips);
	}
	if (st & PERF_SAMPLE_RAW)
		decode_raw(c, s);
	if (st & PERF_SAMPLE_BRANCH_STACK)
		decode_branches(c, f->branch_sample_type, &s->branches);
	if (st & PERF_SAMPLE_REGS_USER)
		decode_regs(c, f->regs_user, &s->regs_user);
	if (st & PERF_SAMPLE_STACK_USER)
		decode_stack_user(c, s);
	decode_sample_tail(c, f, s);
	if (c->bad) {   /* no pointer into a record we refuse */
		uint8_t mode = s->cpumode;
		memset(s, 0, sizeof(*s));
		s->cpumode = mode;
	}
	return c->bad ? -1 : 0;
}

/* The SAMPLE fields of formats decoded by decode_sample_short: those
 * before READ in struct rec_sample, which sets them all. */
#define HEAD_ONLY_TYPES (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
			 PERF_SAMPLE_CALLCHAIN)
_Static_assert(offsetof(struct rec_sample, read) == 80 && sizeof(struct rec_sample) == 312,
	       "decode_sample_short sets the fields before READ one by one");
_Static_assert(offsetof(struct rec_sample, tid) == offsetof(struct rec_sample, pid) + 4 &&
	       offsetof(struct rec_sample, nr_ips) > offsetof(struct rec_sample, cpumode),
	       "decode_sample_fixed copies TID's pair whole and keeps cpumode");

/* decode_sample of a HEAD_ONLY_TYPES format: the fields past the call
 * chain zeroed in one stroke, the others set one by one.  Zeroing the
 * whole struct record (360 bytes) and testing every field's bit was two
 * thirds of decoding such a sample. */
static int decode_sample_short(struct cursor *c, uint64_t st, struct rec_sample *s)
{
	memset(&s->read, 0, sizeof(*s) - offsetof(struct rec_sample, read));
	s->id = s->ip = s->time = s->addr = s->period = s->stream_id = 0;
	s->pid = s->tid = s->cpu = 0;
	s->nr_ips = 0;
	s->ips = NULL;
	decode_sample_head(c, st, s);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		s->nr_ips = take64(c);
		s->ips = take_array(c, s->nr_ips);
	}
	if (c->bad) {   /* no pointer into a record we refuse */
		uint8_t mode = s->cpumode;
		memset(s, 0, sizeof(*s));
		s->cpumode = mode;
	}
	return c->bad ? -1 : 0;
}

/* decode_sample_short of a record holding every field of F's layout: the
 * format's own fields copied from their offsets (F->head), the others
 * zeroed, no bit tested nor bound checked but the chain's.  Reading all ten
 * fields of the head, present or not, was half of decoding a sample.
 * TAIL_ZERO: S's fields from READ on are zero already (record_decode_head),
 * not written again. */
static inline int decode_sample_fixed(const struct perf_event_header *hdr,
				      const struct rec_format *f, struct rec_sample *s,
				      bool tail_zero)
{
	const unsigned char *b = (const unsigned char *)hdr;
	size_t end = tail_zero ? offsetof(struct rec_sample, read) : sizeof(*s);

	memset(s, 0, offsetof(struct rec_sample, cpumode));
	memset(&s->nr_ips, 0, end - offsetof(struct rec_sample, nr_ips));
	for (unsigned i = 0; i < f->nhead; i++)
		memcpy((unsigned char *)s + f->head[i].to, b + f->head[i].from, 8);
	if (f->at.cpu)
		memcpy(&s->cpu, b + f->at.cpu, sizeof(s->cpu));
	if (!f->at.chain)
		return 0;
	memcpy(&s->nr_ips, b + f->at.chain, 8);
	if (s->nr_ips > (uint64_t)(hdr->size - f->at.end) / 8) {
		uint8_t mode = s->cpumode;   /* no pointer into a record we refuse */
		memset(s, 0, sizeof(*s));
		s->cpumode = mode;
		return -1;
	}
	s->ips = (const uint64_t *)(const void *)(b + f->at.end);
	return 0;
}

/* The bytes of the sample_id_all trailer for ST. */
static unsigned trailer_size(uint64_t st)
{
	return 8 * (!!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
		    !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
		    !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_IDENTIFIER));
}

/* sample_id_all trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER (in
 * that order), the record's last bytes whatever its type. */
static void decode_trailer(const struct perf_event_header *hdr, uint64_t st,
			   struct cursor *body, struct record *r)
{
	unsigned n = trailer_size(st);
	uint32_t res;
	struct cursor c = { (const unsigned char *)hdr + hdr->size - n,
			    (const unsigned char *)hdr + hdr->size, false };

	/* the trailer must follow the fields decoded (BODY), or at least the
	 * header of a record whose fields are not */
	if (hdr->size < sizeof(*hdr) + n || (body && body->p > c.p)) {
		if (body)
			body->bad = true;
		return;
	}
	if (st & PERF_SAMPLE_TID)
		take2x32(&c, &r->sid_pid, &r->sid_tid);
	if (st & PERF_SAMPLE_TIME)
		r->sid_time = take64(&c);
	if (st & PERF_SAMPLE_ID)
		r->sid_id = take64(&c);
	if (st & PERF_SAMPLE_STREAM_ID)
		(void)take64(&c);
	if (st & PERF_SAMPLE_CPU)
		take2x32(&c, &r->sid_cpu, &res);
	if (st & PERF_SAMPLE_IDENTIFIER)
		r->sid_id = take64(&c);
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

/* The record's own fields but the body's: a SAMPLE's, no trailer. */
static void sample_start(const struct perf_event_header *hdr, struct record *out)
{
	out->type = hdr->type;
	out->misc = hdr->misc;
	out->cpumode = hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	out->sid_id = out->sid_time = 0;
	out->sid_pid = out->sid_tid = out->sid_cpu = 0;
	out->u.sample.cpumode = out->cpumode;
}

/* record_decode_fmt but a SAMPLE of F's layout: a function of its own,
 * so that the layout's path saves none of the registers it needs. */
static __attribute__((noinline)) int decode_general(const struct perf_event_header *hdr,
						    const struct rec_format *f,
						    struct record *out)
{
	uint64_t st = f->sample_type;
	struct cursor c = { (const unsigned char *)(hdr + 1),
			    (const unsigned char *)hdr + hdr->size, false };

	if (f->head_only && hdr->type == PERF_RECORD_SAMPLE && hdr->size >= sizeof(*hdr)) {
		sample_start(hdr, out);
		return decode_sample_short(&c, st, &out->u.sample);
	}
	memset(out, 0, sizeof(*out));
	out->type = hdr->type;
	out->misc = hdr->misc;
	out->cpumode = hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (hdr->size < sizeof(*hdr))
		return -1;
	switch (hdr->type) {
	case PERF_RECORD_SAMPLE:
		if (st & ~(uint64_t)RECORD_SAMPLE_TYPES)
			return -1;
		if (((st & PERF_SAMPLE_REGS_USER) && f->regs_user == 0) ||
		    ((st & PERF_SAMPLE_REGS_INTR) && f->regs_intr == 0))
			return -1;
		out->u.sample.cpumode = out->cpumode;
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
	case PERF_RECORD_LOST_SAMPLES:
		/* {lost, sample_id}: the event is the trailer's id (below) */
		out->u.lost.id = 0;
		out->u.lost.lost = take64(&c);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		out->u.throttle.time = take64(&c);
		out->u.throttle.id = take64(&c);
		(void)take64(&c); /* stream_id */
		out->u.throttle.unthrottle = hdr->type == PERF_RECORD_UNTHROTTLE;
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		take2x32(&c, &out->u.sw.next_prev_pid, &out->u.sw.next_prev_tid);
		/* fall through */
	case PERF_RECORD_SWITCH:
		out->u.sw.out = hdr->misc & PERF_RECORD_MISC_SWITCH_OUT;
		out->u.sw.preempt = out->u.sw.out &&
				    (hdr->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
		break;
	case PERF_RECORD_CGROUP:
		out->u.cgroup.id = take64(&c);
		out->u.cgroup.path = take_string(&c);
		break;
	default:
		/* not needed: stepped over by its size; perf's own records
		 * (>= PERF_RECORD_USER_TYPE_START) have no trailer */
		if (f->sample_id_all && hdr->type < 64)
			decode_trailer(hdr, st, NULL, out);
		return 0;
	}
	if (f->sample_id_all && !c.bad)
		decode_trailer(hdr, st, &c, out);
	if (hdr->type == PERF_RECORD_LOST_SAMPLES)
		out->u.lost.id = out->sid_id;
	return c.bad ? -1 : 0;
}

int record_decode_fmt(const struct perf_event_header *hdr, const struct rec_format *f,
		      struct record *out)
{
	if (f->at.end && hdr->type == PERF_RECORD_SAMPLE && hdr->size >= f->at.end) {
		sample_start(hdr, out);
		return decode_sample_fixed(hdr, f, &out->u.sample, false);
	}
	return decode_general(hdr, f, out);
}

int record_decode_head(const struct perf_event_header *hdr, const struct rec_format *f,
		       struct record *out)
{
	if (f->at.end && hdr->type == PERF_RECORD_SAMPLE && hdr->size >= f->at.end) {
		sample_start(hdr, out);
		return decode_sample_fixed(hdr, f, &out->u.sample, true);
	}
	return decode_general(hdr, f, out);
}

int record_decode(const struct perf_event_header *hdr, uint64_t st, bool sample_id_all,
		  struct record *out)
{
	const struct rec_format f = { .sample_type = st, .sample_id_all = sample_id_all };

	return record_decode_fmt(hdr, &f, out);
}

/* The offset of the next field of BIT of ST at *OFF (0 when ST lacks it). */
static uint8_t field_at(uint64_t st, uint64_t bit, unsigned *off)
{
	unsigned at = st & bit ? *off : 0;

	*off += st & bit ? 8 : 0;
	return (uint8_t)at;
}

/* The next u64 field of F's head, BIT of its sample_type, at *OFF: copied
 * to byte TO of struct rec_sample (decode_sample_fixed). */
static uint8_t head_field(struct rec_format *f, uint64_t bit, size_t to, unsigned *off)
{
	uint8_t at = field_at(f->sample_type, bit, off);

	if (at)
		f->head[f->nhead++] = (struct rec_field_copy){ at, (uint8_t)to };
	return at;
}

/* The fixed offsets of F's SAMPLE fields up to PERIOD (decode_sample_head's
 * order: an ID after IDENTIFIER is the one kept), of a head_only format's
 * chain count, and of the trailer's TIME. */
static void format_layout(struct rec_format *f)
{
	uint64_t st = f->sample_type;
	unsigned off = sizeof(struct perf_event_header);

	f->nhead = 0;
	head_field(f, PERF_SAMPLE_IDENTIFIER, offsetof(struct rec_sample, id), &off);
	head_field(f, PERF_SAMPLE_IP, offsetof(struct rec_sample, ip), &off);
	head_field(f, PERF_SAMPLE_TID, offsetof(struct rec_sample, pid), &off);
	f->at.time = head_field(f, PERF_SAMPLE_TIME, offsetof(struct rec_sample, time), &off);
	head_field(f, PERF_SAMPLE_ADDR, offsetof(struct rec_sample, addr), &off);
	head_field(f, PERF_SAMPLE_ID, offsetof(struct rec_sample, id), &off);
	head_field(f, PERF_SAMPLE_STREAM_ID, offsetof(struct rec_sample, stream_id), &off);
	f->at.cpu = field_at(st, PERF_SAMPLE_CPU, &off);
	head_field(f, PERF_SAMPLE_PERIOD, offsetof(struct rec_sample, period), &off);
	f->at.chain = field_at(st, PERF_SAMPLE_CALLCHAIN, &off);
	f->at.end = f->head_only ? (uint8_t)off : 0;
	f->at.sid_size = (uint8_t)trailer_size(st);
	f->at.sid_time = st & PERF_SAMPLE_TIME ? (uint8_t)(f->at.sid_size -
							   8 * !!(st & PERF_SAMPLE_TID)) : 0;
}

void record_format_of(const struct perf_event_attr *a, struct rec_format *f)
{
	*f = (struct rec_format){
		.sample_type = a->sample_type,
		.regs_user = a->sample_regs_user,
		.sample_id_all = a->sample_id_all,
		.read_format = a->read_format,
		.branch_sample_type = a->branch_sample_type,
		.regs_intr = a->sample_regs_intr,
		.head_only = !(a->sample_type & ~(uint64_t)HEAD_ONLY_TYPES),
	};
	format_layout(f);
}

bool record_cpumode_kernel(uint8_t cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
}

/* perf's evsel id_pos: the u64 index of the id in a SAMPLE's body */
static int sample_id_pos(uint64_t st)
{
	int idx = 0;

	if (st & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	idx += !!(st & PERF_SAMPLE_IP);
	idx += !!(st & PERF_SAMPLE_TID);
	idx += !!(st & PERF_SAMPLE_TIME);
	idx += !!(st & PERF_SAMPLE_ADDR);
	return idx;
}

/* perf's evsel is_pos: the id's u64 position counted from a record's end */
static int trailer_id_pos(uint64_t st)
{
	int idx = 1;

	if (st & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	idx += !!(st & PERF_SAMPLE_CPU);
	idx += !!(st & PERF_SAMPLE_STREAM_ID);
	return idx;
}

bool record_id(const struct perf_event_header *hdr, uint64_t st, bool sample_id_all,
	       uint64_t *id)
{
	uint64_t body = hdr->size >= sizeof(*hdr) ? hdr->size - sizeof(*hdr) : 0;
	const unsigned char *p = (const unsigned char *)(hdr + 1);
	int pos;

	if (hdr->type >= 64)   /* PERF_RECORD_USER_TYPE_START: perf's own, no id */
		return false;
	if (hdr->type == PERF_RECORD_SAMPLE) {
		pos = sample_id_pos(st);
		if (pos < 0 || body < (uint64_t)(pos + 1) * 8)
			return false;
		memcpy(id, p + pos * 8, 8);
		return true;
	}
	if (!sample_id_all)
		return false;
	pos = trailer_id_pos(st);
	if (pos < 0 || body < (uint64_t)pos * 8)
		return false;
	memcpy(id, p + body - (uint64_t)pos * 8, 8);
	return true;
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
