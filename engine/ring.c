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

size_t ring_drain(struct ring *r, ring_record_fn fn, void *arg)
{
	struct perf_event_mmap_page *meta = r->base;
	unsigned char *data = (unsigned char *)r->base + r->page;
	size_t n = 0, mask = r->data_size - 1;

	if (!meta)
		return 0;
	/* acquire: records written before data_head are visible after this load */
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;
	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header hdr;
		size_t off = (size_t)(tail & mask);
		size_t first = r->data_size - off;
		if (first >= sizeof(hdr)) {
			memcpy(&hdr, data + off, sizeof(hdr));
		} else {
			memcpy(&hdr, data + off, first);
			memcpy((unsigned char *)&hdr + first, data, sizeof(hdr) - first);
		}
		if (hdr.size < sizeof(hdr) || tail + hdr.size > head)
			break; /* corrupt or incomplete: stop, the kernel will catch up */
		const struct perf_event_header *rec;
		if (off + hdr.size <= r->data_size) {
			rec = (const void *)(data + off);
		} else {
			memcpy(r->scratch, data + off, first);
			memcpy(r->scratch + first, data, hdr.size - first);
			rec = (const void *)r->scratch;
		}
		fn(rec, arg);
		tail += hdr.size;
		n++;
	}
	/* release: the kernel may overwrite only after we are done reading */
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
	return n;
}
