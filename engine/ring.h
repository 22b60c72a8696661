/* perf mmap ring buffers: 1 metadata page + 2^n data pages. */
#ifndef ENGINE_RING_H
#define ENGINE_RING_H

#include <stdbool.h>
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
	uint64_t read;        /* handed up to here; data_tail <= read */
	size_t held;          /* records handed in place and not yet released */
	uint64_t held_time;   /* the caller's: the newest time it holds */
};

typedef void (*ring_record_fn)(const struct perf_event_header *hdr, void *arg);
/* A record handed by ring_read: IN_PLACE when HDR points into the ring
 * (else into scratch, valid until the next record); END is the ring
 * position just past it.  True if the caller keeps HDR in place, to give
 * its space back with ring_release(END) once done with it. */
typedef bool (*ring_read_fn)(const struct perf_event_header *hdr, uint64_t end, bool in_place,
			     void *arg);

/* Maps DATA_PAGES (a power of two) pages of FD's ring.  -1 on error. */
int ring_open(struct ring *r, int fd, size_t data_pages);
void ring_close(struct ring *r);
/* Hands every complete record to FN (each once; a wrapped record arrives
 * contiguous) and releases the space.  Returns the number of records. */
size_t ring_drain(struct ring *r, ring_record_fn fn, void *arg);
/* Hands every complete record not handed yet to FN, each once.  The space
 * of the records FN does not keep goes back to the kernel at once, unless a
 * record before them is still held; a held record's goes back with
 * ring_release.  Returns the number of records. */
size_t ring_read(struct ring *r, ring_read_fn fn, void *arg);
/* Bytes of records held (handed in place, not yet released). */
size_t ring_held_bytes(const struct ring *r);
/* The caller is done with the held record ending at END, and with every
 * record it holds before it: the kernel may write there again. */
void ring_release(struct ring *r, uint64_t end);

#endif
