#include "engine/ordered.h"

#include "lib/hashtab.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_BYTES (256u * 1024u)
#define DEFAULT_MAX_BYTES (64u * 1024u * 1024u)
/* A file's round is a run per CPU's ring, and the round before leaves
 * one more each: past this many runs queued, the two shortest neighbours
 * are merged into one (the delivery compares every run's first entry). */
#define RUNS_MAX 16
/* The src of an entry whose record is a copy in a chunk: not held. */
#define SRC_COPY UINT32_MAX
/* Entries come in segments of 32 KB, kept for reuse, never moved: in
 * perf's cpu-clock profile most of the queue's time went to the first
 * writes to a grown array's fresh pages and to reading its entries again
 * after realloc had moved its pages (mremap). */
#define SEG_SHIFT 10
#define SEG_ENTRIES ((size_t)1 << SEG_SHIFT)

struct chunk {
	struct chunk *next;
	size_t used, cap;
	size_t live;              /* records in it not yet delivered */
	unsigned char data[];
};

/* 32 bytes, written once when queued and read once when delivered (a
 * 48-byte entry was copied to a second array by a merge before). */
struct entry {
	uint64_t time;
	const struct perf_event_header *h;
	union {
		struct chunk *c;  /* a copy's chunk (src SRC_COPY) */
		uint64_t end;     /* held: the release's END */
	} u;
	uint32_t src;             /* held: the release's SRC */
	int ev;                   /* the caller's number for it, handed back */
};

/* Queued entries at positions [at, end), in (time, arrival) order. */
struct run {
	size_t at, end;
	uint64_t head;            /* the time at AT: the delivery compares them */
};

struct ordered {
	ordered_deliver_fn deliver;
	ordered_release_fn release;
	void *arg;
	/* Positions [0, n) were appended, in arrival order; position p is
	 * entry p % SEG_ENTRIES of segment p / SEG_ENTRIES, seg[that -
	 * seg_first] (those wholly delivered go back to the pool). */
	struct entry **seg;
	size_t seg_first, nseg, seg_cap;
	struct entry *pool;       /* segments for reuse, linked through their first */
	struct entry *tail;       /* position n's segment */
	size_t n;
	bool open;                /* the last run ends at n ... */
	uint64_t tail_time;       /* ... and this is its newest time */
	/* The queued entries: runs in arrival order (every entry of a run
	 * came before every entry of the next), none empty, merged as they
	 * are delivered; between them the entries delivered.  Equal times
	 * go in the order of their runs, so no entry needs a sequence. */
	struct run run[RUNS_MAX];
	size_t nruns;
	size_t queued;
	struct entry *tmp;        /* two runs being merged into one */
	size_t tmp_cap;
	struct chunk *cur;        /* being filled */
	struct chunk *spare;      /* one emptied chunk kept for reuse */
	size_t bytes, max_bytes;  /* record bytes queued; the bound */
	uint64_t round_max;       /* newest time pushed */
	uint64_t prev_round_max;  /* ... when the round before ended */
	uint64_t last_flush;      /* newest time delivered */
	uint64_t late;
};

struct ordered *ordered_new(ordered_deliver_fn fn, void *arg, size_t max_bytes)
{
	struct ordered *q = calloc(1, sizeof(*q));

	if (!q)
		return NULL;
	q->deliver = fn;
	q->arg = arg;
	q->max_bytes = max_bytes ? max_bytes : DEFAULT_MAX_BYTES;
	return q;
}

/* The entry at position P. */
static inline struct entry *at(const struct ordered *q, size_t p)
{
	return &q->seg[(p >> SEG_SHIFT) - q->seg_first][p & (SEG_ENTRIES - 1)];
}

static void seg_put(struct ordered *q, struct entry *sg)
{
	memcpy(sg, &q->pool, sizeof(q->pool));
	q->pool = sg;
}

/* A segment from the pool (NULL when empty: ordered_free's end), or a new one. */
static struct entry *seg_get(struct ordered *q)
{
	struct entry *sg = q->pool;

	if (!sg)
		return malloc(SEG_ENTRIES * sizeof(*sg));
	memcpy(&q->pool, sg, sizeof(q->pool));
	return sg;
}

static void chunk_release(struct ordered *q, struct chunk *c)
{
	if (--c->live || c == q->cur)
		return;
	if (!q->spare && c->cap == CHUNK_BYTES) {
		c->used = 0;
		q->spare = c;
	} else {
		free(c);
	}
}

void ordered_free(struct ordered *q)
{
	if (!q)
		return;
	for (size_t r = 0; r < q->nruns; r++)
		for (size_t i = q->run[r].at; i < q->run[r].end; i++) {
			struct entry *e = at(q, i);
			if (e->src == SRC_COPY && --e->u.c->live == 0 && e->u.c != q->cur)
				free(e->u.c);
		}
	while (q->nseg)
		seg_put(q, q->seg[--q->nseg]);
	while (q->pool)
		free(seg_get(q));
	free(q->cur);
	free(q->spare);
	free(q->seg);
	free(q->tmp);
	free(q);
}

/* Room for SIZE bytes in the current chunk, or a new one. */
static struct chunk *chunk_for(struct ordered *q, size_t size)
{
	struct chunk *c = q->cur;

	if (c && c->cap - c->used >= size)
		return c;
	if (c && c->live == 0)
		free(c);  /* everything it held was delivered */
	q->cur = NULL;
	if (size <= CHUNK_BYTES && q->spare) {
		c = q->spare;
		q->spare = NULL;
	} else {
		size_t cap = size > CHUNK_BYTES ? size : CHUNK_BYTES;
		if (!(c = malloc(sizeof(*c) + cap)))
			return NULL;
		c->cap = cap;
	}
	c->next = NULL;
	c->used = 0;
	c->live = 0;
	q->cur = c;
	return c;
}

/* SIZE bytes of C (chunk_for's), for a record that will live there. */
static struct perf_event_header *chunk_take(struct chunk *c, size_t size)
{
	struct perf_event_header *h = (struct perf_event_header *)(c->data + c->used);

	c->used += (size + 7u) & ~(size_t)7u;
	if (c->used > c->cap)
		c->used = c->cap;
	c->live++;
	return h;
}

static void deliver_one(struct ordered *q, const struct entry *e)
{
	q->deliver(e->h, e->ev, q->arg);
	if (e->time > q->last_flush)
		q->last_flush = e->time;
	q->bytes -= e->h->size;
	if (e->src == SRC_COPY)
		chunk_release(q, e->u.c);
	else
		q->release(e->src, e->u.end, q->arg);
}

/* The run whose first entry comes first: the oldest, of equal times the
 * first run (it came first). */
static inline size_t first_run(const struct ordered *q)
{
	size_t best = 0;

	for (size_t r = 1; r < q->nruns; r++)
		if (q->run[r].head < q->run[best].head)
			best = r;
	return best;
}

/* The last run's newest time, after its entries moved (a merge, a
 * compaction): an entry after it continues the run when not older. */
static void last_moved(struct ordered *q)
{
	q->open = q->nruns && q->run[q->nruns - 1].end == q->n;
	if (q->open)
		q->tail_time = at(q, q->n - 1)->time;
}

static void drop_run(struct ordered *q, size_t r)
{
	q->nruns--;
	memmove(&q->run[r], &q->run[r + 1], (q->nruns - r) * sizeof(q->run[0]));
	if (r == q->nruns)
		q->open = false;
}

/* Delivers up to K entries in order, while their time is at most LIMIT:
 * straight from the runs, each entry read once, the rest left where it
 * is. */
static void deliver_some(struct ordered *q, size_t k, uint64_t limit)
{
	for (; k && q->nruns; k--) {
		size_t r = first_run(q);
		struct run *run = &q->run[r];

		if (run->head > limit)
			break;
		const struct entry *p = at(q, run->at);
		struct entry e = *p;  /* taken first: the queue may move */
		if (++run->at == run->end)
			drop_run(q, r);
		else
			run->head = run->at & (SEG_ENTRIES - 1) ? p[1].time : at(q, run->at)->time;
		q->queued--;
		deliver_one(q, &e);
	}
}

static void deliver_half(struct ordered *q)
{
	deliver_some(q, (q->queued + 1) / 2, UINT64_MAX);
}

/* Merges run R and the next into one where R starts, through tmp: R's
 * entries first among equal times (they came first).  False when out of
 * memory. */
static bool merge_pair(struct ordered *q, size_t r)
{
	struct run *a = &q->run[r], *b = &q->run[r + 1];
	size_t i = a->at, j = b->at, k = 0;
	size_t n = (a->end - a->at) + (b->end - b->at);

	if (GROW(q->tmp, n, q->tmp_cap) < 0)
		return false;
	while (i < a->end && j < b->end) {
		const struct entry *x = at(q, i), *y = at(q, j);
		if (y->time < x->time)
			q->tmp[k++] = *y, j++;
		else
			q->tmp[k++] = *x, i++;
	}
	while (i < a->end)
		q->tmp[k++] = *at(q, i++);
	while (j < b->end)
		q->tmp[k++] = *at(q, j++);
	for (k = 0; k < n; k++)
		*at(q, a->at + k) = q->tmp[k];
	a->end = a->at + n;
	a->head = q->tmp[0].time;
	drop_run(q, r + 1);
	last_moved(q);
	return true;
}

/* Room for one more run: the two neighbours of fewest entries merged (so
 * that many rings' runs merge as a binary counter does: each entry
 * log(runs) times), or with no memory for that, the older half delivered
 * until some run is done. */
static void fewer_runs(struct ordered *q)
{
	while (q->nruns == RUNS_MAX) {
		size_t best = 0, len = SIZE_MAX;
		for (size_t r = 0; r + 1 < q->nruns; r++) {
			size_t l = q->run[r].end - q->run[r].at + q->run[r + 1].end - q->run[r + 1].at;
			if (l <= len) {
				best = r;
				len = l;
			}
		}
		if (!merge_pair(q, best))
			deliver_half(q);
	}
}

/* Gives the segments before the first queued entry's back to the pool. */
static void release_front(struct ordered *q)
{
	size_t first = (q->nruns ? q->run[0].at : q->n) >> SEG_SHIFT;
	size_t k = first - q->seg_first;

	if (k > q->nseg)
		k = q->nseg;
	if (k) {
		for (size_t i = 0; i < k; i++)
			seg_put(q, q->seg[i]);
		memmove(q->seg, q->seg + k, (q->nseg - k) * sizeof(*q->seg));
	}
	q->nseg -= k;
	q->seg_first = q->nseg ? q->seg_first + k : first;
}

/* Moves the queued entries together, down to the first one: one entry
 * whose time lies far ahead would keep every segment after it. */
static void compact(struct ordered *q)
{
	size_t to = q->run[0].at;

	for (size_t r = 0; r < q->nruns; r++) {
		size_t len = q->run[r].end - q->run[r].at;
		if (q->run[r].at != to)
			for (size_t i = 0; i < len; i++)
				*at(q, to + i) = *at(q, q->run[r].at + i);
		q->run[r].at = to;
		q->run[r].end = to += len;
	}
	q->n = to;
	last_moved(q);
	while (q->nseg > (to >> SEG_SHIFT) - q->seg_first + 1)
		seg_put(q, q->seg[--q->nseg]);
}

/* A segment for position n: the delivered ones given back first, the
 * queued moved together when the delivered between them take four times
 * their room (each moved once for every three appended at most). */
static bool seg_room(struct ordered *q)
{
	struct entry *sg;

	release_front(q);
	if (q->nruns && q->n - q->run[0].at > 4 * q->queued + SEG_ENTRIES)
		compact(q);
	if ((q->n >> SEG_SHIFT) - q->seg_first >= q->nseg) {
		if (GROW(q->seg, q->nseg + 1, q->seg_cap) < 0 || !(sg = seg_get(q)))
			return false;
		q->seg[q->nseg++] = sg;
	}
	q->tail = q->seg[(q->n >> SEG_SHIFT) - q->seg_first];
	return true;
}

/* The rare part of append: a segment for position n, once a segment;
 * a new run, for an entry older than the last run's newest.  False when
 * out of memory even after delivering the older half. */
static bool append_room(struct ordered *q, uint64_t time)
{
	if (!(q->n & (SEG_ENTRIES - 1)) && !seg_room(q)) {
		deliver_half(q);
		if (!seg_room(q))
			return false;
	}
	if (q->open && time >= q->tail_time)
		return true;
	if (q->nruns == RUNS_MAX)
		fewer_runs(q);
	q->run[q->nruns].at = q->n;
	q->run[q->nruns++].head = time;
	return true;
}

/* The next entry, stamped TIME and numbered EV (its record and owner the
 * caller's), or NULL when out of memory even after delivering the older
 * half.  It goes at the end of the last run when not older than its
 * newest, else starts a run. */
static inline struct entry *append(struct ordered *q, uint64_t time, int ev)
{
	if ((!(q->n & (SEG_ENTRIES - 1)) || !q->open || time < q->tail_time) &&
	    !append_room(q, time))
		return NULL;
	if (time < q->last_flush)
		q->late++;
	struct entry *e = &q->tail[q->n++ & (SEG_ENTRIES - 1)];
	q->run[q->nruns - 1].end = q->n;
	q->open = true;
	q->tail_time = time;
	q->queued++;
	e->time = time;
	e->ev = ev;
	if (time > q->round_max)
		q->round_max = time;
	return e;
}

struct perf_event_header *ordered_reserve(struct ordered *q, size_t size, uint64_t time, int ev)
{
	struct chunk *c;
	struct entry *e;

	if (q->bytes + size > q->max_bytes && q->queued)
		deliver_half(q);
	if (!(c = chunk_for(q, size))) {
		deliver_half(q);
		if (!(c = chunk_for(q, size)))
			return NULL;
	}
	if (!(e = append(q, time, ev)))
		return NULL;
	struct perf_event_header *h = chunk_take(c, size);
	e->u.c = c;
	e->src = SRC_COPY;
	e->h = h;
	q->bytes += size;
	return h;
}

void ordered_set_release(struct ordered *q, ordered_release_fn fn)
{
	q->release = fn;
}

bool ordered_hold(struct ordered *q, const struct perf_event_header *h, uint64_t time, int ev,
		  uint32_t src, uint64_t end)
{
	struct entry *e;

	if (!q->release || src == SRC_COPY)
		return false;
	/* the bound is on the window, wherever its records lie: a file's
	 * records held in its mapping are ordered as their copies were */
	if (q->bytes + h->size > q->max_bytes && q->queued)
		deliver_half(q);
	if (!(e = append(q, time, ev)))
		return false;
	q->bytes += h->size;
	e->h = h;
	e->src = src;
	e->u.end = end;
	return true;
}

/* The held records of SRC in the runs' order: of one source that is the
 * order held (runs come in arrival order, and a merge of two keeps the
 * order of one source's records, whose times do not go back). */
bool ordered_detach(struct ordered *q, uint32_t src)
{
	for (size_t r = 0; r < q->nruns; r++)
		for (size_t i = q->run[r].at; i < q->run[r].end; i++) {
			struct entry *e = at(q, i);
			struct chunk *c;
			if (e->src != src || src == SRC_COPY)
				continue;
			if (!(c = chunk_for(q, e->h->size)))
				return false;
			struct perf_event_header *h = chunk_take(c, e->h->size);
			uint64_t end = e->u.end;
			memcpy(h, e->h, e->h->size);
			e->h = h;
			e->src = SRC_COPY;
			e->u.c = c;
			q->release(src, end, q->arg);
		}
	return true;
}

void ordered_push(struct ordered *q, const struct perf_event_header *h, uint64_t time, int ev)
{
	struct perf_event_header *copy = ordered_reserve(q, h->size, time, ev);

	if (copy)
		memcpy(copy, h, h->size);
	else
		q->deliver(h, ev, q->arg);  /* no memory at all: unordered */
}

void ordered_round(struct ordered *q)
{
	deliver_some(q, SIZE_MAX, q->prev_round_max);
	q->prev_round_max = q->round_max;
}

void ordered_flush(struct ordered *q)
{
	deliver_some(q, SIZE_MAX, UINT64_MAX);
	q->prev_round_max = q->round_max;
}

uint64_t ordered_late(const struct ordered *q)
{
	return q->late;
}

size_t ordered_queued(const struct ordered *q)
{
	return q->queued;
}
