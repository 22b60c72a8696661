/* A time-ordered queue of perf records, as perf's ordered_events: records
 * from every ring (or, in a file, from between FINISHED_ROUND markers) come
 * out in timestamp order, so a sample is never symbolized before the
 * mapping it lies in, and an exec's COMM never wipes mappings made after it,
 * whichever CPU's ring each was read from.
 *
 * Rounds bound the reordering window: when a round ends (every ring drained
 * once; a FINISHED_ROUND record), everything up to the newest time of the
 * round before is delivered.  That is safe: a record not yet read was
 * written after its ring was drained in this round, so after everything
 * read in the previous round (perf's util/session.c proof).  A queue past
 * its memory bound delivers its older half at once.  Records are copied in
 * (chunks of 256 KB, freed as their records leave), or held where they are
 * (a live ring's records, given back as they leave), and handed to the
 * consumer one by one as contiguous perf_event_header bytes, each with the
 * number the caller queued it with (the session's: its event, found once). */
#ifndef ENGINE_ORDERED_H
#define ENGINE_ORDERED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

typedef void (*ordered_deliver_fn)(const struct perf_event_header *h, int ev, void *arg);
/* A record queued in place (ordered_hold) was delivered: its owner may
 * reuse the room of the record from SRC ending at END (and of every record
 * of SRC queued before it). */
typedef void (*ordered_release_fn)(uint32_t src, uint64_t end, void *arg);

struct ordered;

/* A queue delivering to FN(h, ev, ARG), holding at most MAX_BYTES of records
 * (0: 64 MB).  NULL when out of memory. */
struct ordered *ordered_new(ordered_deliver_fn fn, void *arg, size_t max_bytes);
void ordered_free(struct ordered *q);

/* Where ordered_hold's records go back once delivered (ARG is the
 * deliver function's). */
void ordered_set_release(struct ordered *q, ordered_release_fn fn);

/* Queues H itself, stamped TIME and numbered EV, not a copy: H must stay
 * where it is until the queue has delivered it and called the release
 * function with SRC (below UINT32_MAX) and END.  Records of one SRC are
 * delivered in the order held when their times do not go back (the
 * caller's to see).  False when out of memory: nothing was queued. */
bool ordered_hold(struct ordered *q, const struct perf_event_header *h, uint64_t time, int ev,
		  uint32_t src, uint64_t end);

/* Copies the records held from SRC into the queue's own memory and
 * releases them, oldest first: SRC may reuse their room at once.  False when
 * out of memory (the rest stay held). */
bool ordered_detach(struct ordered *q, uint32_t src);

/* Queues a copy of H, stamped TIME and numbered EV.  Out of memory:
 * delivers the older half, then H itself unordered if there is still no
 * room. */
void ordered_push(struct ordered *q, const struct perf_event_header *h, uint64_t time, int ev);
/* Queues a record of SIZE bytes stamped TIME, numbered EV, and returns its
 * room, for the caller to fill before the next call; NULL when out of
 * memory even after delivering the older half. */
struct perf_event_header *ordered_reserve(struct ordered *q, size_t size, uint64_t time, int ev);

/* A round ended: delivers every record up to the newest time of the round
 * before this one. */
void ordered_round(struct ordered *q);

/* Delivers everything queued (the end of a file, of a watch). */
void ordered_flush(struct ordered *q);

/* Records that came older than what had already been delivered: delivered
 * late (out of order); as perf's nr_unordered_events. */
uint64_t ordered_late(const struct ordered *q);

/* Records queued now. */
size_t ordered_queued(const struct ordered *q);

#endif
