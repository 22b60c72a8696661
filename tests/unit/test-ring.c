/* The mmap ring reader (engine/ring.c) on a fake ring.
 *
 * The seam's mmap hands out a buffer of ours (1 metadata page + N data
 * pages); the test plays the kernel: it writes records at data_head (masked,
 * wrapping at the end of the data area) and publishes the new data_head.
 * The reader must deliver every complete record once, contiguous, and leave
 * data_tail at the consumed position. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine/ring.h"
#include "engine/sys.h"

#define DATA_PAGES 2
#define FAKE_FD 42

static struct sys_ops fake_ops;
static unsigned char *fake_map;   /* what the fake mmap returns */
static size_t fake_map_len, page;
static int mmap_calls, munmap_calls;
static size_t mmap_len_seen, munmap_len_seen;
static int mmap_fd_seen;
static void *munmap_ptr_seen;
static bool mmap_fails;

static bool big_mmap;             /* hand out address space of any size */

static void *fake_mmap(size_t len, int prot, int flags, int fd, off_t off)
{
	(void)prot;
	(void)flags;
	(void)off;
	mmap_calls++;
	mmap_len_seen = len;
	mmap_fd_seen = fd;
	if (big_mmap)  /* pages cost memory only once touched */
		return mmap(NULL, len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mmap_fails || len != fake_map_len)
		return MAP_FAILED;
	return fake_map;
}

static int fake_munmap(void *p, size_t len)
{
	munmap_calls++;
	munmap_ptr_seen = p;
	munmap_len_seen = len;
	return 0; /* the test owns the buffer */
}

static int setup(void **state)
{
	(void)state;
	page = (size_t)sysconf(_SC_PAGESIZE);
	fake_map_len = (DATA_PAGES + 1) * page;
	fake_map = aligned_alloc(page, fake_map_len);
	if (!fake_map)
		return -1;
	memset(fake_map, 0, fake_map_len);
	mmap_calls = munmap_calls = 0;
	mmap_fails = false;
	fake_ops = *sys_real_ops();
	fake_ops.mmap = fake_mmap;
	fake_ops.munmap = fake_munmap;
	sys_set_ops(&fake_ops);
	alarm(10); /* a reader that loops forever fails instead of hanging */
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	alarm(0);
	sys_set_ops(NULL);
	free(fake_map);
	fake_map = NULL;
	return 0;
}

static struct perf_event_mmap_page *meta(void)
{
	return (struct perf_event_mmap_page *)(void *)fake_map;
}

static size_t data_size(void)
{
	return DATA_PAGES * page;
}

/* Positions are free-running counters, as in the kernel. */
static void set_positions(uint64_t pos)
{
	meta()->data_head = pos;
	meta()->data_tail = pos;
}

/* Writes LEN bytes at position POS of the data area, wrapping. */
static void kernel_write(uint64_t pos, const void *src, size_t len)
{
	unsigned char *data = fake_map + page;
	const unsigned char *s = src;

	for (size_t i = 0; i < len; i++)
		data[(pos + i) & (data_size() - 1)] = s[i];
}

/* A record of SIZE bytes (a multiple of 8): header, then bytes seeded by TAG. */
static void make_record(unsigned char *buf, uint16_t size, uint32_t type, unsigned tag)
{
	struct perf_event_header h = { type, 0, size };

	memcpy(buf, &h, sizeof(h));
	for (size_t i = sizeof(h); i < size; i++)
		buf[i] = (unsigned char)(tag * 31 + i);
}

/* The kernel appends a record at data_head and publishes it. */
static void kernel_append(uint16_t size, uint32_t type, unsigned tag)
{
	unsigned char buf[4096];
	uint64_t head = meta()->data_head;

	assert_true(size <= sizeof(buf));
	make_record(buf, size, type, tag);
	kernel_write(head, buf, size);
	__atomic_store_n(&meta()->data_head, head + size, __ATOMIC_RELEASE);
}

struct got {
	int n;
	struct {
		uint16_t size;
		uint32_t type;
		unsigned char bytes[4096];
	} rec[16];
};

static void collect(const struct perf_event_header *hdr, void *arg)
{
	struct got *g = arg;

	assert_true(g->n < 16);
	assert_true(hdr->size >= sizeof(*hdr) && hdr->size <= sizeof(g->rec[0].bytes));
	g->rec[g->n].size = hdr->size;
	g->rec[g->n].type = hdr->type;
	memcpy(g->rec[g->n].bytes, hdr, hdr->size);  /* the whole record must be readable */
	g->n++;
}

/* Record I of G is the record the kernel wrote with SIZE, TYPE and TAG. */
static void check_record(const struct got *g, int i, uint16_t size, uint32_t type, unsigned tag)
{
	unsigned char want[4096];

	assert_true(i < g->n);
	make_record(want, size, type, tag);
	assert_int_equal(g->rec[i].size, size);
	assert_int_equal(g->rec[i].type, type);
	assert_memory_equal(g->rec[i].bytes, want, size);
}

static void open_ring(struct ring *r)
{
	assert_int_equal(ring_open(r, FAKE_FD, DATA_PAGES), 0);
	assert_ptr_equal(r->base, fake_map);
	assert_int_equal(r->data_size, data_size());
	assert_int_equal(mmap_calls, 1);
	assert_int_equal(mmap_len_seen, fake_map_len);
	assert_int_equal(mmap_fd_seen, FAKE_FD);
}

static void test_open_close(void **state)
{
	struct ring r;

	(void)state;
	open_ring(&r);
	ring_close(&r);
	assert_int_equal(munmap_calls, 1);
	assert_ptr_equal(munmap_ptr_seen, fake_map);
	assert_int_equal(munmap_len_seen, fake_map_len);
	assert_null(r.base);
	ring_close(&r);  /* twice is harmless */
	assert_int_equal(munmap_calls, 1);
}

static void test_open_fails(void **state)
{
	struct ring r;

	(void)state;
	mmap_fails = true;
	assert_int_equal(ring_open(&r, FAKE_FD, DATA_PAGES), -1);
	assert_null(r.base);
	assert_int_equal(ring_drain(&r, collect, NULL), 0);
	ring_close(&r);
	assert_int_equal(munmap_calls, 0);
}

static void test_empty(void **state)
{
	struct ring r;
	struct got g = { 0 };

	(void)state;
	open_ring(&r);
	set_positions(1000);
	assert_int_equal(ring_drain(&r, collect, &g), 0);
	assert_int_equal(g.n, 0);
	assert_int_equal(meta()->data_tail, 1000);
	ring_close(&r);
}

static void test_several_records(void **state)
{
	struct ring r;
	struct got g = { 0 };

	(void)state;
	open_ring(&r);
	set_positions(0);
	kernel_append(48, PERF_RECORD_SAMPLE, 1);
	kernel_append(8, PERF_RECORD_THROTTLE, 2);
	kernel_append(112, PERF_RECORD_MMAP2, 3);
	kernel_append(24, PERF_RECORD_COMM, 4);
	assert_int_equal(ring_drain(&r, collect, &g), 4);
	check_record(&g, 0, 48, PERF_RECORD_SAMPLE, 1);
	check_record(&g, 1, 8, PERF_RECORD_THROTTLE, 2);
	check_record(&g, 2, 112, PERF_RECORD_MMAP2, 3);
	check_record(&g, 3, 24, PERF_RECORD_COMM, 4);
	assert_int_equal(meta()->data_tail, 48 + 8 + 112 + 24);
	assert_int_equal(meta()->data_tail, meta()->data_head);

	/* nothing new: nothing delivered twice */
	memset(&g, 0, sizeof(g));
	assert_int_equal(ring_drain(&r, collect, &g), 0);
	assert_int_equal(g.n, 0);

	/* more records later */
	kernel_append(16, PERF_RECORD_LOST, 5);
	assert_int_equal(ring_drain(&r, collect, &g), 1);
	check_record(&g, 0, 16, PERF_RECORD_LOST, 5);
	assert_int_equal(meta()->data_tail, 48 + 8 + 112 + 24 + 16);
	ring_close(&r);
}

/* A record crossing the end of the data area, split in the body or right
 * after the header, or starting exactly at the end; positions past many
 * wraps.  (The kernel keeps records 8-byte aligned, so a header never
 * splits.) */
static void test_wrap(void **state)
{
	static const size_t before_end[] = { 16, 8, 40, 24, 48, 0 };
	struct ring r;

	(void)state;
	open_ring(&r);
	for (size_t i = 0; i < sizeof(before_end) / sizeof(before_end[0]); i++) {
		struct got g = { 0 };
		uint64_t start = (uint64_t)(3 + i) * data_size() - before_end[i];

		/* garbage everywhere first: only the written record may show */
		memset(fake_map + page, 0xee, data_size());
		set_positions(start);
		kernel_append(48, PERF_RECORD_SAMPLE, 10 + (unsigned)i);
		kernel_append(32, PERF_RECORD_COMM, 20 + (unsigned)i);
		assert_int_equal(ring_drain(&r, collect, &g), 2);
		check_record(&g, 0, 48, PERF_RECORD_SAMPLE, 10 + (unsigned)i);
		check_record(&g, 1, 32, PERF_RECORD_COMM, 20 + (unsigned)i);
		assert_int_equal(meta()->data_tail, start + 80);
	}
	ring_close(&r);
}

/* Two records of half the data area each, starting mid-ring: together they
 * fill the whole ring, the second one wraps. */
static void test_wrap_full_ring(void **state)
{
	struct ring r;
	struct got *g = calloc(1, sizeof(*g));
	size_t n = 0;

	(void)state;
	assert_non_null(g);
	open_ring(&r);
	set_positions(data_size() / 2 + 8);
	/* 4096-byte records are the largest collect() keeps */
	uint16_t size = (uint16_t)(data_size() / 2);
	kernel_append(size, PERF_RECORD_SAMPLE, 7);
	kernel_append(size, PERF_RECORD_SAMPLE, 8);
	n = ring_drain(&r, collect, g);
	assert_int_equal(n, 2);
	check_record(g, 0, size, PERF_RECORD_SAMPLE, 7);
	check_record(g, 1, size, PERF_RECORD_SAMPLE, 8);
	assert_int_equal(meta()->data_tail, data_size() / 2 + 8 + data_size());
	ring_close(&r);
	free(g);
}

/* The largest record (a u16 size, 8-byte aligned) wrapping at the end of
 * the data area arrives whole, as the kernel wrote it. */
#define BIG_RECORD 65528

#if !defined(__SANITIZE_ADDRESS__)
static void check_big(const struct perf_event_header *hdr, void *arg)
{
	int *n = arg;
	const unsigned char *b = (const void *)hdr;

	(*n)++;
	if (hdr->size != BIG_RECORD || hdr->type != PERF_RECORD_SAMPLE)
		_exit(3);
	for (size_t i = sizeof(*hdr); i < BIG_RECORD; i++)
		if (b[i] != (unsigned char)(5 * 31 + i))
			_exit(4);
}
#endif

/* -m at its maximum (2^20 pages: 4 GiB a CPU) under an address-space limit
 * that holds the ring and little more: the copy of a wrapped record needs
 * the largest record, not the ring (the reader asked for 4 GiB more, and
 * every -m above the limit's room failed).  In a child, which the limit
 * binds alone; not under AddressSanitizer, whose shadow needs terabytes. */
static void test_max_ring_memory_limit(void **state)
{
#if defined(__SANITIZE_ADDRESS__)
	(void)state;
	skip();
#else
	const size_t pages = (size_t)1 << 20;
	long vsz_pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	(void)state;
	if (!f || fscanf(f, "%ld", &vsz_pages) != 1) {
		if (f)
			fclose(f);
		skip();
	}
	fclose(f);
	big_mmap = true;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct ring r;
		struct rlimit lim;
		size_t room = (size_t)vsz_pages * page + (pages + 1) * page + ((size_t)256 << 20);
		lim.rlim_cur = lim.rlim_max = room;
		if (setrlimit(RLIMIT_AS, &lim) < 0)
			_exit(5);
		if (ring_open(&r, FAKE_FD, pages) < 0)
			_exit(1);
		struct perf_event_mmap_page *m = r.base;
		unsigned char *data = (unsigned char *)r.base + page;
		uint64_t start = 2 * (uint64_t)r.data_size - 4096;
		unsigned char *rec = malloc(BIG_RECORD);
		if (!rec)
			_exit(6);
		make_record(rec, BIG_RECORD, PERF_RECORD_SAMPLE, 5);
		for (size_t i = 0; i < BIG_RECORD; i++)
			data[(start + i) & (r.data_size - 1)] = rec[i];
		m->data_tail = start;
		__atomic_store_n(&m->data_head, start + BIG_RECORD, __ATOMIC_RELEASE);
		int n = 0;
		if (ring_drain(&r, check_big, &n) != 1 || n != 1 || m->data_tail != start + BIG_RECORD)
			_exit(2);
		_exit(0);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	big_mmap = false;
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
#endif
}

/* The kernel has published only part of a record: the complete ones arrive,
 * the tail stops before the incomplete one, which arrives once finished. */
static void test_incomplete_record(void **state)
{
	struct ring r;
	struct got g = { 0 };
	unsigned char buf[64];

	(void)state;
	open_ring(&r);
	set_positions(4096 - 40);
	kernel_append(40, PERF_RECORD_SAMPLE, 1);
	uint64_t partial = meta()->data_head;
	make_record(buf, 64, PERF_RECORD_MMAP2, 2);
	kernel_write(partial, buf, 64);
	/* head covers only 24 of the 64 bytes */
	__atomic_store_n(&meta()->data_head, partial + 24, __ATOMIC_RELEASE);
	assert_int_equal(ring_drain(&r, collect, &g), 1);
	check_record(&g, 0, 40, PERF_RECORD_SAMPLE, 1);
	assert_int_equal(meta()->data_tail, partial);

	/* again: still nothing, still there */
	assert_int_equal(ring_drain(&r, collect, &g), 0);
	assert_int_equal(g.n, 1);
	assert_int_equal(meta()->data_tail, partial);

	/* only the header so far, then a head that is short by one byte */
	__atomic_store_n(&meta()->data_head, partial + 8, __ATOMIC_RELEASE);
	assert_int_equal(ring_drain(&r, collect, &g), 0);
	__atomic_store_n(&meta()->data_head, partial + 63, __ATOMIC_RELEASE);
	assert_int_equal(ring_drain(&r, collect, &g), 0);
	assert_int_equal(meta()->data_tail, partial);

	/* the kernel catches up */
	__atomic_store_n(&meta()->data_head, partial + 64, __ATOMIC_RELEASE);
	assert_int_equal(ring_drain(&r, collect, &g), 1);
	check_record(&g, 1, 64, PERF_RECORD_MMAP2, 2);
	assert_int_equal(meta()->data_tail, partial + 64);
	ring_close(&r);
}

/* Fewer than 8 bytes published: not even a header. */
static void test_partial_header(void **state)
{
	struct ring r;
	struct got g = { 0 };
	unsigned char buf[16];

	(void)state;
	open_ring(&r);
	set_positions(100);
	make_record(buf, 16, PERF_RECORD_SAMPLE, 3);
	kernel_write(100, buf, 16);
	__atomic_store_n(&meta()->data_head, 104, __ATOMIC_RELEASE);
	assert_int_equal(ring_drain(&r, collect, &g), 0);
	assert_int_equal(meta()->data_tail, 100);
	__atomic_store_n(&meta()->data_head, 116, __ATOMIC_RELEASE);
	assert_int_equal(ring_drain(&r, collect, &g), 1);
	check_record(&g, 0, 16, PERF_RECORD_SAMPLE, 3);
	ring_close(&r);
}

/* A header whose size is below 8 (0 would never advance): stop there. */
static void test_corrupt_size(void **state)
{
	static const uint16_t bad[] = { 0, 1, 4, 7 };
	struct ring r;

	(void)state;
	open_ring(&r);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct got g = { 0 };
		struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, bad[i] };

		set_positions(200);
		kernel_append(24, PERF_RECORD_COMM, 1);
		uint64_t at = meta()->data_head;
		kernel_write(at, &h, sizeof(h));
		kernel_write(at + 8, "\0\0\0\0\0\0\0\0", 8);
		__atomic_store_n(&meta()->data_head, at + 64, __ATOMIC_RELEASE);
		assert_int_equal(ring_drain(&r, collect, &g), 1);
		check_record(&g, 0, 24, PERF_RECORD_COMM, 1);
		assert_int_equal(meta()->data_tail, at);
		/* and again: no progress, no loop */
		assert_int_equal(ring_drain(&r, collect, &g), 0);
		assert_int_equal(meta()->data_tail, at);
	}
	ring_close(&r);
}

/* ring_read's holding: a record kept in place keeps its room (and that of
 * every record after it) from the kernel until ring_release; the records
 * after the last one held go back with it. */
struct holder {
	int n, hold_upto;       /* hold the first HOLD_UPTO records handed */
	uint64_t end[16];
	bool in_place[16];
};

static bool hold_some(const struct perf_event_header *h, uint64_t end, bool in_place, void *arg)
{
	struct holder *k = arg;

	(void)h;
	assert_true(k->n < 16);
	k->end[k->n] = end;
	k->in_place[k->n] = in_place;
	return k->n++ < k->hold_upto;
}

static void test_hold_release(void **state)
{
	struct ring r;
	struct holder k = { .hold_upto = 2 };

	(void)state;
	open_ring(&r);
	set_positions(1000);
	kernel_append(48, PERF_RECORD_SAMPLE, 1);
	kernel_append(64, PERF_RECORD_SAMPLE, 2);
	kernel_append(24, PERF_RECORD_COMM, 3);
	assert_int_equal(ring_read(&r, hold_some, &k), 3);
	assert_int_equal(k.end[0], 1048);
	assert_int_equal(k.end[1], 1112);
	assert_int_equal(k.end[2], 1136);
	assert_int_equal(meta()->data_tail, 1000);   /* the first one held */
	assert_int_equal(ring_held_bytes(&r), 136);
	/* nothing new: nothing handed twice, the tail stays */
	assert_int_equal(ring_read(&r, hold_some, &k), 0);
	assert_int_equal(meta()->data_tail, 1000);
	ring_release(&r, k.end[0]);
	assert_int_equal(meta()->data_tail, 1048);
	ring_release(&r, k.end[1]);                  /* the last: the COMM too */
	assert_int_equal(meta()->data_tail, 1136);
	assert_int_equal(ring_held_bytes(&r), 0);
	ring_release(&r, 1000);                      /* nothing held: ignored */
	assert_int_equal(meta()->data_tail, 1136);
	ring_close(&r);
}

/* A record that wraps is handed from scratch: it cannot be held, and its
 * room goes back with the read. */
static void test_wrapped_not_held(void **state)
{
	struct ring r;
	struct holder k = { .hold_upto = 16 };

	(void)state;
	open_ring(&r);
	set_positions(data_size() - 16);
	kernel_append(48, PERF_RECORD_SAMPLE, 1);
	assert_int_equal(ring_read(&r, hold_some, &k), 1);
	assert_false(k.in_place[0]);
	assert_int_equal(meta()->data_tail, data_size() + 32);
	assert_int_equal(ring_held_bytes(&r), 0);
	ring_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_open_close, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hold_release, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrapped_not_held, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_several_records, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrap_full_ring, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max_ring_memory_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_incomplete_record, setup, teardown),
		cmocka_unit_test_setup_teardown(test_partial_header, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_size, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
