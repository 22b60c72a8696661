#include "engine/ring.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine/sys.h"

/* A record's size is a u16 (perf_event_header): one that wraps fits here. */
#define RECORD_MAX ((size_t)UINT16_MAX)

int ring_open(struct ring *r, int fd, size_t data_pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->page = page;
	r->data_size = data_pages * page;
	r->map_len = r->data_size + page;
	r->base = sys_mmap(r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		return -1;
	}
	r->read = ((struct perf_event_mmap_page *)r->base)->data_tail;
	/* the largest record, not the ring: 4 GiB a CPU at -m's maximum */
	r->scratch = malloc(r->data_size < RECORD_MAX ? r->data_size : RECORD_MAX);
	if (!r->scratch) {
		ring_close(r);
		return -1;
	}
	return 0;
}

void ring_close(struct ring *r)
{
	if (r->base)
		sys_munmap(r->base, r->map_len);
	free(r->scratch);
	r->base = NULL;
	r->scratch = NULL;
}

/* Gives the kernel the space up to END: release, as the kernel may write
 * there only once we are done reading it. */
static void set_tail(struct ring *r, uint64_t end)
{
	struct perf_event_mmap_page *meta = r->base;

	__atomic_store_n(&meta->data_tail, end, __ATOMIC_RELEASE);
}

size_t ring_read(struct ring *r, ring_read_fn fn, void *arg)
{
	struct perf_event_mmap_page *meta = r->base;
	unsigned char *data = (unsigned char *)r->base + r->page;
	size_t n = 0, mask = r->data_size - 1;

	if (!meta)
		return 0;
	/* acquire: records written before data_head are visible after this load */
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	if (!r->held)  /* everything handed went back: on from the tail */
		r->read = meta->data_tail;
	uint64_t pos = r->read;
	while (pos + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header hdr;
		size_t off = (size_t)(pos & mask);
		size_t first = r->data_size - off;
		if (first >= sizeof(hdr)) {
			memcpy(&hdr, data + off, sizeof(hdr));
		} else {
			memcpy(&hdr, data + off, first);
			memcpy((unsigned char *)&hdr + first, data, sizeof(hdr) - first);
		}
		if (hdr.size < sizeof(hdr) || hdr.size > r->data_size || pos + hdr.size > head)
			break; /* corrupt or incomplete: stop, the kernel will catch up */
		const struct perf_event_header *rec;
		bool in_place = off + hdr.size <= r->data_size;
		if (in_place) {
			rec = (const void *)(data + off);
		} else {
			memcpy(r->scratch, data + off, first);
			memcpy(r->scratch + first, data, hdr.size - first);
			rec = (const void *)r->scratch;
		}
		pos += hdr.size;
		if (fn(rec, pos, in_place, arg) && in_place)
			r->held++;
		n++;
	}
	r->read = pos;
	if (!r->held)
		set_tail(r, pos);
	return n;
}

size_t ring_held_bytes(const struct ring *r)
{
	const struct perf_event_mmap_page *meta = r->base;

	return meta && r->held ? (size_t)(r->read - meta->data_tail) : 0;
}

void ring_release(struct ring *r, uint64_t end)
{
	if (!r->base || !r->held)
		return;
	/* the last one held: what came after it was not kept */
	set_tail(r, --r->held ? end : r->read);
}

/* ring_drain's FN, called through ring_read */
struct drain_call {
	ring_record_fn fn;
	void *arg;
};

static bool drain_one(const struct perf_event_header *h, uint64_t end, bool in_place, void *arg)
{
	const struct drain_call *c = arg;

	(void)end;
	(void)in_place;
	c->fn(h, c->arg);
	return false;
}

size_t ring_drain(struct ring *r, ring_record_fn fn, void *arg)
{
	struct drain_call c = { fn, arg };

	return ring_read(r, drain_one, &c);
}
