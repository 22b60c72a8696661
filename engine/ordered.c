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

struct chunk {
	struct chunk *next;
	size_t used, cap;
	size_t live;              /* records in it not yet delivered */
	unsigned char data[];
};

/* 32 bytes, written once when queued and read once when delivered: the
 * queue's time went to its memory traffic (a 48-byte entry, copied by a
 * merge before delivery, was read and written four times). */
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

/* Queued entries e[at, end), in (time, arrival) order. */
struct run {
	size_t at, end;
};

struct ordered {
	ordered_deliver_fn deliver;
	ordered_release_fn release;
	void *arg;
	struct entry *e;          /* e[0, n) appended, in arrival order */
	size_t n, cap;
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
			struct chunk *c = q->e[i].u.c;
			if (q->e[i].src == SRC_COPY && --c->live == 0 && c != q->cur)
				free(c);
		}
	free(q->cur);
	free(q->spare);
	free(q->e);
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
	uint64_t t = q->e[q->run[0].at].time;

	for (size_t r = 1; r < q->nruns; r++)
		if (q->e[q->run[r].at].time < t) {
			best = r;
			t = q->e[q->run[r].at].time;
		}
	return best;
}

static void drop_run(struct ordered *q, size_t r)
{
	q->nruns--;
	memmove(&q->run[r], &q->run[r + 1], (q->nruns - r) * sizeof(q->run[0]));
}

/* Delivers up to K entries in order, while their time is at most LIMIT:
 * straight from the runs, each entry read once, the rest left where it
 * is. */
static void deliver_some(struct ordered *q, size_t k, uint64_t limit)
{
	for (; k && q->nruns; k--) {
		size_t r = first_run(q);
		struct entry e = q->e[q->run[r].at];  /* taken first: the queue may move */

		if (e.time > limit)
			break;
		if (++q->run[r].at == q->run[r].end)
			drop_run(q, r);
		q->queued--;
		deliver_one(q, &e);
	}
	if (!q->nruns)
		q->n = 0;
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
	while (i < a->end && j < b->end)
		q->tmp[k++] = q->e[j].time < q->e[i].time ? q->e[j++] : q->e[i++];
	memcpy(q->tmp + k, q->e + i, (a->end - i) * sizeof(*q->e));
	k += a->end - i;
	memcpy(q->tmp + k, q->e + j, (b->end - j) * sizeof(*q->e));
	memcpy(q->e + a->at, q->tmp, n * sizeof(*q->e));
	a->end = a->at + n;
	drop_run(q, r + 1);
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

/* Moves the queued entries to the front, the runs with them. */
static void compact(struct ordered *q)
{
	size_t to = 0;

	for (size_t r = 0; r < q->nruns; r++) {
		size_t len = q->run[r].end - q->run[r].at;
		memmove(q->e + to, q->e + q->run[r].at, len * sizeof(*q->e));
		q->run[r].at = to;
		q->run[r].end = to += len;
	}
	q->n = to;
}

/* Room for one more entry: the queued moved to the front, and the array
 * doubled when they fill more than half of it (each entry moved once
 * for every entry appended at most). */
static bool grow_entries(struct ordered *q)
{
	if (q->queued < q->n)
		compact(q);
	if (q->n < q->cap / 2)
		return true;
	return GROW(q->e, q->cap + 1, q->cap) == 0 || q->n < q->cap;
}

/* The next entry, stamped TIME and numbered EV (its record and owner the
 * caller's), or NULL when out of memory even after delivering the older
 * half.  It goes at the end of the last run when not older than its last
 * entry, else starts a run. */
static inline struct entry *append(struct ordered *q, uint64_t time, int ev)
{
	/* the room checked here first: grow_entries is the rare case */
	if (q->n == q->cap && !grow_entries(q)) {
		deliver_half(q);
		if (!grow_entries(q))
			return NULL;
	}
	if (!q->nruns || q->run[q->nruns - 1].end != q->n || time < q->e[q->n - 1].time) {
		if (q->nruns == RUNS_MAX)
			fewer_runs(q);
		q->run[q->nruns++].at = q->n;
	}
	if (time < q->last_flush)
		q->late++;
	struct entry *e = &q->e[q->n++];
	q->run[q->nruns - 1].end = q->n;
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
			struct entry *e = &q->e[i];
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
