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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
