/* perf mmap ring buffers: 1 metadata page + 2^n data pages. */
#ifndef ENGINE_RING_H
#define ENGINE_RING_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct ring {
	int fd;
	void *base;           /* metadata page, then the data pages */
	size_t map_len;
	size_t data_size;     /* bytes, a power of two */
	size_t page;          /* the page size: the data follow one page */
	unsigned char *scratch;  /* a record that wraps is copied here (the
				  * largest record: 64 KiB, or the ring if less) */
};

typedef void (*ring_record_fn)(const struct perf_event_header *hdr, void *arg);

/* Maps DATA_PAGES (a power of two) pages of FD's ring.  -1 on error. */
int ring_open(struct ring *r, int fd, size_t data_pages);
void ring_close(struct ring *r);
/* Hands every complete record to FN (each once; a wrapped record arrives
 * contiguous) and releases the space.  Returns the number of records. */
size_t ring_drain(struct ring *r, ring_record_fn fn, void *arg);

#endif
