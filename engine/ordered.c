#include "engine/ordered.h"

#include "lib/hashtab.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_BYTES (256u * 1024u)
#define DEFAULT_MAX_BYTES (64u * 1024u * 1024u)
/* A file's round is a run per CPU's ring plus what the round before left:
 * up to this many runs are merged at once, in one pass. */
#define RUNS_MAX 16

struct chunk {
	struct chunk *next;
	size_t used, cap;
	size_t live;              /* records in it not yet delivered */
	unsigned char data[];
};

struct entry {
	uint64_t time, seq;       /* seq keeps arrival order among equal times */
	const struct perf_event_header *h;
	struct chunk *c;          /* the copy's; NULL: held in place */
	uint64_t end;             /* held: the release's SRC and END */
	uint32_t src;
	int ev;                   /* the caller's number for it, handed back */
};

struct ordered {
	ordered_deliver_fn deliver;
	ordered_release_fn release;
	void *arg;
	struct entry *e;
	size_t head, n, cap;      /* e[head, n) are queued: delivery moves head,
				   * not the rest (a file's rounds leave half) */
	struct entry *tmp;        /* the merge's other half */
	size_t tmp_cap;
	bool sorted;              /* e[] is in (time, seq) order */
	/* where each run in order after the first starts in e[] (appended
	 * older than the entry before); nruns past RUNS_MAX: too many to
	 * keep, found again by sort_entries */
	size_t run_at[RUNS_MAX];
	size_t nruns;
	struct chunk *cur;        /* being filled */
	struct chunk *spare;      /* one emptied chunk kept for reuse */
	size_t bytes, max_bytes;  /* record bytes queued; the bound */
	uint64_t seq;
	uint64_t round_max;       /* newest time pushed in this round */
	uint64_t prev_round_max;  /* ... in the round before */
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
	q->sorted = true;
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
	for (size_t i = q->head; i < q->n; i++)
		if (q->e[i].c && --q->e[i].c->live == 0 && q->e[i].c != q->cur)
			free(q->e[i].c);
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

static int by_time(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* X before Y, as by_time: inline, the merge's and append's every step. */
static inline bool before(const struct entry *x, const struct entry *y)
{
	return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

/* Delivers the first K entries (in order) and keeps the rest. */
static void deliver_first(struct ordered *q, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		struct entry e = q->e[q->head++];  /* taken first: the queue may move */
		q->deliver(e.h, e.ev, q->arg);
		if (e.time > q->last_flush)
			q->last_flush = e.time;
		q->bytes -= e.h->size;
		if (!e.c) {
			q->release(e.src, e.end, q->arg);
			continue;
		}
		chunk_release(q, e.c);
	}
	if (q->head == q->n)
		q->head = q->n = 0;
}

/* The end of the run in order that starts at I. */
static size_t run_end(const struct entry *e, size_t i, size_t n)
{
	while (i + 1 < n && by_time(&e[i], &e[i + 1]) < 0)
		i++;
	return i + 1;
}

/* Merges the runs [a, m) and [m, b) of SRC into DST at A. */
static void merge(const struct entry *src, struct entry *dst, size_t a, size_t m, size_t b)
{
	size_t i = a, j = m, k = a;

	while (i < m && j < b)
		dst[k++] = by_time(&src[i], &src[j]) < 0 ? src[i++] : src[j++];
	while (i < m)
		dst[k++] = src[i++];
	while (j < b)
		dst[k++] = src[j++];
}

/* Swaps the entries for the merge's copy of them, N from tmp[0]. */
static void take_merged(struct ordered *q, size_t n)
{
	struct entry *t = q->e;
	size_t c = q->cap;

	q->e = q->tmp, q->cap = q->tmp_cap;
	q->tmp = t, q->tmp_cap = c;
	q->head = 0, q->n = n;
}

/* Merges the runs append saw (run_at) into tmp in one pass: each entry
 * the first of the runs' heads (their order does not matter: entries
 * compare as by_time, never equal), a run dropped when it is done. */
static void merge_runs(struct ordered *q)
{
	const struct entry *at[RUNS_MAX + 1], *end[RUNS_MAX + 1];
	size_t k = q->nruns + 1, n = q->n - q->head, i = 0;

	at[0] = q->e + q->head;
	for (size_t r = 0; r < q->nruns; r++)
		end[r] = at[r + 1] = q->e + q->run_at[r];
	end[k - 1] = q->e + q->n;
	while (k > 2) {
		size_t best = 0;
		for (size_t r = 1; r < k; r++)
			if (before(at[r], at[best]))
				best = r;
		q->tmp[i++] = *at[best]++;
		if (at[best] == end[best]) {
			k--;
			at[best] = at[k];
			end[best] = end[k];
		}
	}
	while (k == 2) {   /* the last two: one compare a step */
		size_t b = before(at[1], at[0]);
		q->tmp[i++] = *at[b]++;
		if (at[b] == end[b]) {
			k = 1;
			at[0] = at[!b];
			end[0] = end[!b];
		}
	}
	while (at[0] < end[0])
		q->tmp[i++] = *at[0]++;
	take_merged(q, n);
}

/* The entries are a few runs already in order (each ring's records, each
 * round's): merged in one pass when append kept where they start, else
 * pairwise, bottom up: O(n log runs), where a general sort took a tenth
 * of reading a file. */
static void sort_entries(struct ordered *q)
{
	size_t runs, n = q->n - q->head;

	if (q->sorted)
		return;
	if (q->nruns <= RUNS_MAX) {
		merge_runs(q);
		q->sorted = true;
		q->nruns = 0;
		return;
	}
	do {  /* the first pass from e[head] to tmp[0] */
		const struct entry *src = q->e + q->head;
		runs = 0;
		for (size_t a = 0; a < n; runs++) {
			size_t m = run_end(src, a, n);
			size_t b = m < n ? run_end(src, m, n) : m;
			merge(src, q->tmp, a, m, b);
			a = b;
		}
		take_merged(q, n);
	} while (runs > 1);
	q->sorted = true;
	q->nruns = 0;
}

/* Delivers every entry with time <= LIMIT. */
static void deliver_upto(struct ordered *q, uint64_t limit)
{
	size_t k = 0;

	sort_entries(q);
	while (q->head + k < q->n && q->e[q->head + k].time <= limit)
		k++;
	deliver_first(q, k);
}

static void deliver_half(struct ordered *q)
{
	sort_entries(q);
	deliver_first(q, (q->n - q->head + 1) / 2);
}

/* Room for one more entry, and the merge's room for all of them: the
 * queued ones moved to the front when the delivered fill half the array
 * (each entry moved once for every entry delivered at most), else more. */
static bool grow_entries(struct ordered *q)
{
	if (q->n < q->cap && q->n < q->tmp_cap)
		return true;
	if (q->head && q->head >= q->cap / 2) {
		memmove(q->e, q->e + q->head, (q->n - q->head) * sizeof(*q->e));
		for (size_t r = 0; r < q->nruns && r < RUNS_MAX; r++)
			q->run_at[r] -= q->head;
		q->n -= q->head;
		q->head = 0;
	}
	return GROW(q->e, q->n + 1, q->cap) == 0 && GROW(q->tmp, q->n + 1, q->tmp_cap) == 0;
}

/* The entry appended last starts a run: the queue is no longer sorted. */
static void new_run(struct ordered *q)
{
	q->sorted = false;
	if (q->nruns < RUNS_MAX)
		q->run_at[q->nruns] = q->n;
	if (q->nruns <= RUNS_MAX)
		q->nruns++;
}

/* The next entry, stamped TIME and numbered EV (its record and owner the
 * caller's), or NULL when out of memory even after delivering the older
 * half. */
static inline struct entry *append(struct ordered *q, uint64_t time, int ev)
{
	/* the room checked here first: grow_entries is the rare case */
	if ((q->n >= q->cap || q->n >= q->tmp_cap) && !grow_entries(q)) {
		deliver_half(q);
		if (!grow_entries(q))
			return NULL;
	}
	if (time < q->last_flush)
		q->late++;
	struct entry *e = &q->e[q->n];
	e->time = time;
	e->ev = ev;
	e->seq = q->seq++;
	if (q->n > q->head && before(e, &q->e[q->n - 1]))
		new_run(q);
	q->n++;
	if (time > q->round_max)
		q->round_max = time;
	return e;
}

struct perf_event_header *ordered_reserve(struct ordered *q, size_t size, uint64_t time, int ev)
{
	struct chunk *c;
	struct entry *e;

	if (q->bytes + size > q->max_bytes && q->n > q->head)
		deliver_half(q);
	if (!(c = chunk_for(q, size))) {
		deliver_half(q);
		if (!(c = chunk_for(q, size)))
			return NULL;
	}
	if (!(e = append(q, time, ev)))
		return NULL;
	struct perf_event_header *h = chunk_take(c, size);
	e->c = c;
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

	if (!q->release)
		return false;
	/* the bound is on the window, wherever its records lie: a file's
	 * records held in its mapping are ordered as their copies were */
	if (q->bytes + h->size > q->max_bytes && q->n > q->head)
		deliver_half(q);
	if (!(e = append(q, time, ev)))
		return false;
	q->bytes += h->size;
	e->h = h;
	e->c = NULL;
	e->src = src;
	e->end = end;
	return true;
}

bool ordered_detach(struct ordered *q, uint32_t src)
{
	for (size_t i = q->head; i < q->n; i++) {
		struct entry *e = &q->e[i];
		struct chunk *c;
		if (e->c || e->src != src)
			continue;
		if (!(c = chunk_for(q, e->h->size)))
			return false;
		struct perf_event_header *h = chunk_take(c, e->h->size);
		memcpy(h, e->h, e->h->size);
		e->c = c;
		e->h = h;
		q->release(src, e->end, q->arg);
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
	deliver_upto(q, q->prev_round_max);
	q->prev_round_max = q->round_max;
}

void ordered_flush(struct ordered *q)
{
	sort_entries(q);
	deliver_first(q, q->n - q->head);
	q->prev_round_max = q->round_max;
}

uint64_t ordered_late(const struct ordered *q)
{
	return q->late;
}

size_t ordered_queued(const struct ordered *q)
{
	return q->n - q->head;
}
