/* The time-ordered record queue (engine/ordered.c): records pushed in ring
 * order come out in time order, rounds deliver only what is safe, equal
 * times keep their arrival order, the memory bound delivers the older half,
 * late records are counted, and the copies handed out are whole, each
 * with the number it was queued with. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/ordered.h"

/* A test record: the header, its time and a tag, padded to SIZE bytes. */
struct rec {
	struct perf_event_header h;
	uint64_t time, tag;
	unsigned char pad[4000];
};

struct got {
	uint64_t time[4096], tag[4096];
	size_t n;
	bool torn;                   /* a copy torn, or handed another's number */
};

static void collect(const struct perf_event_header *h, int ev, void *arg)
{
	struct got *g = arg;
	const struct rec *r = (const void *)h;

	/* the padding repeats the tag: a torn copy would show */
	for (size_t i = 0; i + sizeof(*h) + 16 < h->size; i++)
		if (r->pad[i] != (unsigned char)r->tag)
			g->torn = true;
	if (ev != (int)r->tag)  /* each record is queued numbered by its tag */
		g->torn = true;
	g->time[g->n] = r->time;
	g->tag[g->n++] = r->tag;
}

/* R: a record of SIZE bytes stamped TIME, its padding the tag. */
static void make(struct rec *r, uint64_t time, uint64_t tag, uint16_t size)
{
	memset(r, 0, sizeof(*r));
	r->h.type = PERF_RECORD_SAMPLE;
	r->h.size = size;
	r->time = time;
	r->tag = tag;
	memset(r->pad, (int)(unsigned char)tag, sizeof(r->pad));
}

static void push(struct ordered *q, uint64_t time, uint64_t tag, uint16_t size)
{
	struct rec r;

	make(&r, time, tag, size);
	ordered_push(q, &r.h, time, (int)tag);
}

static void test_rounds(void **state)
{
	struct got g = { .n = 0 };
	struct ordered *q = ordered_new(collect, &g, 0);

	(void)state;
	/* round 1: CPU 0's ring (10, 30), then CPU 1's (20, 25) */
	push(q, 10, 1, 40);
	push(q, 30, 2, 40);
	push(q, 20, 3, 40);
	push(q, 25, 4, 40);
	ordered_round(q);
	assert_int_equal(g.n, 0);  /* nothing is safe after the first round */
	/* round 2: a record at 27 from CPU 0, written after its ring was read */
	push(q, 27, 5, 40);
	push(q, 40, 6, 40);
	ordered_round(q);  /* up to 30, the first round's newest */
	assert_int_equal(g.n, 5);
	uint64_t want[] = { 10, 20, 25, 27, 30 };
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(g.time[i], want[i]);
	assert_int_equal(ordered_queued(q), 1);
	ordered_flush(q);
	assert_int_equal(g.n, 6);
	assert_int_equal(g.time[5], 40);
	assert_int_equal(ordered_late(q), 0);
	assert_false(g.torn);
	ordered_free(q);
}

/* Rounds that each leave a round queued, for many rounds: the delivered
 * entries' room is taken back (the queued moved to the front when no merge
 * moved them) and the records come out whole and in time order, from one
 * ring (in order) or two (merged). */
static void many_rounds(int rings)
{
	static struct got g;
	struct ordered *q = ordered_new(collect, &g, 0);
	size_t pushed = 0;

	g.n = 0;
	for (uint64_t r = 0; r < 40; r++) {
		for (int ring = 0; ring < rings; ring++)
			for (uint64_t i = 0; i < 100 / (uint64_t)rings; i++, pushed++)
				push(q, r * 100 + (uint64_t)rings * i + (uint64_t)ring + 1,
				     pushed % 200, 40);
		ordered_round(q);
		assert_int_equal(ordered_queued(q), pushed - g.n);
		assert_int_equal(g.n, 100 * r);
	}
	ordered_flush(q);
	assert_int_equal(g.n, pushed);
	for (size_t i = 0; i < g.n; i++)
		assert_int_equal(g.time[i], i + 1);
	assert_int_equal(ordered_late(q), 0);
	assert_false(g.torn);
	ordered_free(q);
}

static void test_many_rounds(void **state)
{
	(void)state;
	many_rounds(1);
	many_rounds(2);
	many_rounds(5);    /* runs merged at once */
	many_rounds(10);
	many_rounds(25);   /* more runs than merged at once: pairwise */
}

/* Equal times in several runs come out in the order they came, whether
 * the runs are merged at once or pairwise. */
static void test_equal_times_across_runs(void **state)
{
	(void)state;
	for (uint64_t rings = 2; rings <= 30; rings += 7) {
		struct got g = { .n = 0 };
		struct ordered *q = ordered_new(collect, &g, 0);
		for (uint64_t ring = 0; ring < rings; ring++)
			for (uint64_t t = 0; t < 8; t++)
				push(q, t / 2, ring * 8 + t, 32);
		ordered_flush(q);
		assert_int_equal(g.n, rings * 8);
		for (size_t i = 0, t = 0; t < 4; t++)
			for (uint64_t ring = 0; ring < rings; ring++, i += 2) {
				assert_int_equal(g.tag[i], ring * 8 + 2 * t);
				assert_int_equal(g.tag[i + 1], ring * 8 + 2 * t + 1);
			}
		ordered_free(q);
	}
}

static void test_equal_times_keep_order(void **state)
{
	struct got g = { .n = 0 };
	struct ordered *q = ordered_new(collect, &g, 0);

	(void)state;
	for (uint64_t i = 0; i < 100; i++)
		push(q, 7, i, 32);
	push(q, 3, 100, 32);
	ordered_flush(q);
	assert_int_equal(g.n, 101);
	assert_int_equal(g.tag[0], 100);
	for (uint64_t i = 1; i < 101; i++)
		assert_int_equal(g.tag[i], i - 1);
	ordered_free(q);
}

static void test_late_record(void **state)
{
	struct got g = { .n = 0 };
	struct ordered *q = ordered_new(collect, &g, 0);

	(void)state;
	push(q, 100, 1, 32);
	ordered_round(q);
	push(q, 200, 2, 32);
	ordered_round(q);          /* delivers 100 */
	assert_int_equal(g.n, 1);
	push(q, 50, 3, 32);        /* older than what was delivered */
	assert_int_equal(ordered_late(q), 1);
	ordered_flush(q);
	assert_int_equal(g.n, 3);  /* late, but not lost */
	assert_int_equal(g.tag[1], 3);
	ordered_free(q);
}

/* Past the bound the older half goes, in order; chunks are reused and big
 * records get their own. */
static void test_memory_bound(void **state)
{
	struct got g = { .n = 0 };
	struct ordered *q = ordered_new(collect, &g, 64 * 1024);

	(void)state;
	srand(1);
	uint64_t t = 1000;
	for (uint64_t i = 0; i < 3000; i++) {
		uint16_t size = (uint16_t)(32 + 8 * (rand() % 500));  /* 32 .. 4024 bytes */
		push(q, t + (uint64_t)(rand() % 50), i, size);
		t += 10;
		assert_true(ordered_queued(q) * 32 <= 64 * 1024 + 4096);
	}
	ordered_flush(q);
	assert_int_equal(g.n, 3000);
	assert_false(g.torn);
	/* out of order only where a record came after its time had been delivered */
	size_t inversions = 0;
	for (size_t i = 1; i < g.n; i++)
		inversions += g.time[i] < g.time[i - 1];
	assert_true(inversions <= ordered_late(q));
	ordered_free(q);
}

/* Four rings on one clock, drained one after another in each round (the
 * live poll): a record lands in its ring at its time and is read at the next
 * drain of that ring.  Whatever the interleaving, the output is sorted and
 * nothing is late: the rounds' invariant holds for such rings. */
static void test_rings_on_one_clock(void **state)
{
	struct got g = { .n = 0 };
	struct ordered *q = ordered_new(collect, &g, 0);
	uint64_t times[4][400], pushed[4] = { 0 }, count[4];

	(void)state;
	srand(2);
	for (int c = 0; c < 4; c++) {  /* each ring's records, in its own time order */
		count[c] = 100 + (uint64_t)(rand() % 300);
		uint64_t t = (uint64_t)(rand() % 50);
		for (uint64_t k = 0; k < count[c]; k++)
			times[c][k] = t += 1 + (uint64_t)(rand() % 40);
	}
	for (uint64_t now = 0; now < 20000; now += 97) {
		for (int c = 0; c < 4; c++) {
			uint64_t drain = now + (uint64_t)c * 23;  /* rings read in turn */
			while (pushed[c] < count[c] && times[c][pushed[c]] <= drain) {
				push(q, times[c][pushed[c]], (uint64_t)c, 48);
				pushed[c]++;
			}
		}
		ordered_round(q);
	}
	ordered_flush(q);
	assert_int_equal(g.n, count[0] + count[1] + count[2] + count[3]);
	for (size_t i = 1; i < g.n; i++)
		assert_true(g.time[i] >= g.time[i - 1]);
	assert_int_equal(ordered_late(q), 0);
	ordered_free(q);
}

/* Records held in place (a ring's): delivered in time order among the
 * copies, released once delivered, in each source's order; detached ones
 * are copies, released at once. */
struct released {
	uint32_t src[64];
	uint64_t end[64];
	size_t n;
};

static struct released rel;

static void on_release(uint32_t src, uint64_t end, void *arg)
{
	(void)arg;
	rel.src[rel.n] = src;
	rel.end[rel.n++] = end;
}

static void test_held_records(void **state)
{
	struct got g = { .n = 0 };
	struct ordered *q = ordered_new(collect, &g, 0);
	static struct rec held[4];

	(void)state;
	memset(&rel, 0, sizeof(rel));
	assert_false(ordered_hold(q, &held[0].h, 1, 0, 0, 0));  /* no release: refused */
	ordered_set_release(q, on_release);
	make(&held[0], 10, 1, 64);
	make(&held[1], 30, 2, 64);
	make(&held[2], 20, 3, 64);
	assert_true(ordered_hold(q, &held[0].h, 10, 1, 0, 100));
	assert_true(ordered_hold(q, &held[1].h, 30, 2, 0, 200));
	assert_true(ordered_hold(q, &held[2].h, 20, 3, 1, 300));
	push(q, 15, 4, 64);
	ordered_round(q);                  /* the first round: nothing safe yet */
	assert_int_equal(g.n, 0);
	ordered_round(q);
	assert_int_equal(g.n, 4);
	assert_int_equal(g.tag[0], 1);
	assert_int_equal(g.tag[1], 4);
	assert_int_equal(g.tag[2], 3);
	assert_int_equal(g.tag[3], 2);
	assert_int_equal(rel.n, 3);        /* the held ones only, as delivered */
	assert_int_equal(rel.end[0], 100);
	assert_int_equal(rel.src[1], 1);
	assert_int_equal(rel.end[1], 300);
	assert_int_equal(rel.end[2], 200);
	assert_false(g.torn);
	ordered_free(q);
}

static void test_detach(void **state)
{
	struct got g = { .n = 0 };
	struct ordered *q = ordered_new(collect, &g, 0);
	static struct rec held[3];

	(void)state;
	memset(&rel, 0, sizeof(rel));
	ordered_set_release(q, on_release);
	make(&held[0], 10, 1, 200);
	make(&held[1], 20, 2, 200);
	make(&held[2], 15, 3, 200);
	assert_true(ordered_hold(q, &held[0].h, 10, 1, 0, 100));
	assert_true(ordered_hold(q, &held[1].h, 20, 2, 0, 200));
	assert_true(ordered_hold(q, &held[2].h, 15, 3, 1, 300));
	assert_true(ordered_detach(q, 0));
	assert_int_equal(rel.n, 2);        /* source 0's, oldest first, at once */
	assert_int_equal(rel.end[0], 100);
	assert_int_equal(rel.end[1], 200);
	memset(held, 0xee, 2 * sizeof(held[0]));  /* the ring reuses the room */
	ordered_flush(q);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.tag[0], 1);     /* the copies, whole */
	assert_int_equal(g.tag[1], 3);
	assert_int_equal(g.tag[2], 2);
	assert_false(g.torn);
	assert_int_equal(rel.n, 3);        /* source 1's, when delivered */
	assert_int_equal(rel.end[2], 300);
	ordered_free(q);
}

/* A model of the queue, for long random mixes of every path at once:
 * the queued records in arrival order, each delivery the stable sort of
 * them by time (up to a time, or the older half past the bound).  Enough
 * records for the entries' room to be taken back many times, runs left
 * queued across rounds, rings that make more runs a round than are
 * merged at once, equal times, records held from three sources and
 * detached, the memory bound, and with no rounds a record far ahead that
 * stays while the rest after it comes and goes (moved together). */
#define MODEL_MAX 12000

struct small_rec {
	struct perf_event_header h;
	uint64_t time, tag;
	unsigned char pad[24];
};

static struct {
	struct small_rec rec[MODEL_MAX];   /* record TAG; held ones stay here */
	uint64_t time[MODEL_MAX];
	uint16_t size[MODEL_MAX];
	uint32_t src[MODEL_MAX];           /* held from 0-2, else 3 */
	bool gone[MODEL_MAX];
	size_t q[MODEL_MAX], nq, bytes;    /* queued tags, in arrival order */
	uint64_t round_max, prev_round_max, last_flush, late, held_time[3];
	uint64_t want[MODEL_MAX], got[MODEL_MAX];
	size_t nwant, ngot;
	uint64_t released[3];              /* each source's last end, plus one */
	bool torn, misreleased;
} m;

static void model_collect(const struct perf_event_header *h, int ev, void *arg)
{
	const struct small_rec *r = (const void *)h;

	(void)arg;
	for (size_t i = 0; i + sizeof(*h) + 16 < h->size; i++)
		if (r->pad[i] != (unsigned char)r->tag)
			m.torn = true;
	if (ev != (int)r->tag || m.ngot == MODEL_MAX)
		m.torn = true;
	else
		m.got[m.ngot++] = r->tag;
}

/* Held records are released in the order held: each source's ends rise. */
static void model_release(uint32_t src, uint64_t end, void *arg)
{
	(void)arg;
	if (src >= 3 || end + 1 <= m.released[src])
		m.misreleased = true;
	else
		m.released[src] = end + 1;
}

static int by_model_time(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (m.time[x] != m.time[y])
		return m.time[x] < m.time[y] ? -1 : 1;
	return x < y ? -1 : x > y;  /* tags are the arrival order */
}

/* The model delivers up to K records, oldest first, while not past LIMIT. */
static void model_deliver(size_t k, uint64_t limit)
{
	static size_t sorted[MODEL_MAX];
	size_t keep = 0;

	memcpy(sorted, m.q, m.nq * sizeof(*sorted));
	qsort(sorted, m.nq, sizeof(*sorted), by_model_time);
	for (size_t d = 0; d < k && d < m.nq && m.time[sorted[d]] <= limit; d++) {
		size_t t = sorted[d];
		m.want[m.nwant++] = t;
		m.bytes -= m.size[t];
		if (m.time[t] > m.last_flush)
			m.last_flush = m.time[t];
		m.gone[t] = true;
	}
	for (size_t i = 0; i < m.nq; i++)
		if (!m.gone[m.q[i]])
			m.q[keep++] = m.q[i];
	m.nq = keep;
}

/* Queues record TAG at TIME, held from SRC (0-2: when its times do not go
 * back, as a live ring's) or copied (3). */
static void model_queue(struct ordered *q, size_t max_bytes, size_t tag, uint64_t time,
			uint32_t src)
{
	struct small_rec *r = &m.rec[tag];

	memset(r, (int)(unsigned char)tag, sizeof(*r));
	r->h.type = PERF_RECORD_SAMPLE;
	r->h.misc = 0;
	r->h.size = (uint16_t)(32 + 8 * (tag % 3));
	r->time = time;
	r->tag = tag;
	if (src < 3 && time < m.held_time[src])
		src = 3;
	m.time[tag] = time;
	m.size[tag] = r->h.size;
	m.src[tag] = src;
	if (m.bytes + r->h.size > max_bytes && m.nq)
		model_deliver((m.nq + 1) / 2, UINT64_MAX);
	m.late += time < m.last_flush;
	m.q[m.nq++] = tag;
	m.bytes += r->h.size;
	if (time > m.round_max)
		m.round_max = time;
	if (src == 3) {
		ordered_push(q, &r->h, time, (int)tag);
		return;
	}
	m.held_time[src] = time;
	assert_true(ordered_hold(q, &r->h, time, (int)tag, src, tag));
}

/* Source SRC's held records are copied out: their room is scribbled on. */
static void model_detach(struct ordered *q, uint32_t src)
{
	assert_true(ordered_detach(q, src));
	for (size_t i = 0; i < m.nq; i++)
		if (m.src[m.q[i]] == src) {
			memset(&m.rec[m.q[i]], 0xee, sizeof(m.rec[0]));
			m.src[m.q[i]] = 3;
		}
}

static void model_run(unsigned seed, int rings, uint64_t tie, size_t max_bytes, bool far)
{
	struct ordered *q = ordered_new(model_collect, NULL, max_bytes);
	size_t tag = 0;
	uint64_t now = 1000;

	memset(&m, 0, sizeof(m));
	srand(seed);
	ordered_set_release(q, model_release);
	if (far)
		model_queue(q, max_bytes ? max_bytes : SIZE_MAX, tag++, UINT64_MAX / 2, 3);
	while (tag + 600 < MODEL_MAX) {
		/* a round: each ring's records in its time order, ring after ring */
		size_t per = 1 + (size_t)rand() % (600 / (size_t)rings);
		for (int ring = 0; ring < rings; ring++) {
			uint64_t t = now + (uint64_t)(rand() % 300);
			for (size_t i = 0; i < per; i++, t += 1 + (uint64_t)(rand() % 7))
				model_queue(q, max_bytes ? max_bytes : SIZE_MAX, tag++, t / tie,
					    ring < 3 ? (uint32_t)ring : 3);
		}
		now += 250;
		if (rand() % 6 == 0)
			model_detach(q, (uint32_t)(rand() % 3));
		if (far) {
			/* no rounds (a pipe of old perf's): the bound alone */
		} else if (rand() % 40 == 0) {
			ordered_flush(q);
			model_deliver(SIZE_MAX, UINT64_MAX);
		} else {
			ordered_round(q);
			model_deliver(SIZE_MAX, m.prev_round_max);
		}
		m.prev_round_max = m.round_max;
		assert_int_equal(ordered_queued(q), m.nq);
		assert_int_equal(m.ngot, m.nwant);
	}
	ordered_flush(q);
	model_deliver(SIZE_MAX, UINT64_MAX);
	assert_int_equal(m.ngot, tag);
	assert_int_equal(m.nwant, tag);
	assert_memory_equal(m.got, m.want, tag * sizeof(m.got[0]));
	assert_int_equal(ordered_late(q), m.late);
	assert_false(m.torn);
	assert_false(m.misreleased);
	ordered_free(q);
}

static void test_model(void **state)
{
	(void)state;
	model_run(1, 2, 1, 0, false);      /* a file of two CPUs */
	model_run(2, 25, 1, 0, false);     /* more runs a round than merged at once */
	model_run(3, 40, 8, 0, false);     /* ... with equal times */
	model_run(4, 5, 8, 4096, false);   /* the bound delivers the older half */
	model_run(5, 3, 1, 4096, true);    /* no rounds, one record far ahead */
	model_run(107, 20, 4, 2048, true); /* ... with many runs, equal times */
}

/* Freed with records queued, in several segments, copied and held: every
 * chunk and segment goes (the sanitizers' leak check sees it). */
static void test_free_queued(void **state)
{
	static struct rec held;
	struct got g = { .n = 0 };
	struct ordered *q = ordered_new(collect, &g, 0);

	(void)state;
	ordered_set_release(q, on_release);
	make(&held, 5, 1, 64);
	for (uint64_t i = 0; i < 3000; i++)
		push(q, 3000 - i, 2, 48);  /* each a run of its own, merged */
	assert_true(ordered_hold(q, &held.h, 5, 1, 0, 100));
	assert_int_equal(ordered_queued(q), 3001);
	assert_int_equal(g.n, 0);
	ordered_free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_many_rounds),
		cmocka_unit_test(test_equal_times_keep_order),
		cmocka_unit_test(test_equal_times_across_runs),
		cmocka_unit_test(test_late_record),
		cmocka_unit_test(test_memory_bound),
		cmocka_unit_test(test_rings_on_one_clock),
		cmocka_unit_test(test_held_records),
		cmocka_unit_test(test_detach),
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_free_queued),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
