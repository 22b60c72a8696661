/* Off-CPU time: the reasons' table (arch/offcpu.c), the per-thread
 * intervals and holds (engine/offcpu.c), and the decoder's SWITCH and
 * SWITCH_CPU_WIDE records (engine/record.c), built as the kernel lays them
 * out (include/uapi/linux/perf_event.h: SWITCH has no body, CPU_WIDE
 * {next_prev_pid, next_prev_tid}, then the sample_id_all trailer). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/tree-helpers.h"
#include "arch/offcpu.h"
#include "engine/offcpu.h"
#include "engine/record.h"

/* --- the table ------------------------------------------------------------ */

static enum offcpu_reason kreason(const char *f)
{
	enum offcpu_reason r = OFFCPU_REASONS;

	return offcpu_kernel_reason(f, &r) ? r : OFFCPU_REASONS;
}

static enum offcpu_reason ureason(const char *f)
{
	enum offcpu_reason r = OFFCPU_REASONS;

	return offcpu_user_reason(f, &r) ? r : OFFCPU_REASONS;
}

/* Every row: its own name gives its reason, on its own side only; a
 * prefix row also with more letters, an exact row not; a kernel row with a
 * clone suffix too. */
static void test_every_row(void **state)
{
	const char *f;
	enum offcpu_reason r;
	bool prefix, user;
	char longer[128];
	size_t i, seen[OFFCPU_REASONS] = { 0 };
	(void)state;

	for (i = 0; offcpu_table_row(i, &f, &r, &prefix, &user); i++) {
		assert_true((unsigned)r < OFFCPU_REASONS);
		assert_int_not_equal(r, OFFCPU_RUNNABLE);  /* runnable: the preempt bit only */
		seen[r]++;
		enum offcpu_reason got = user ? ureason(f) : kreason(f);
		/* an earlier row may claim the name first: it must agree */
		assert_int_equal(got, r);
		snprintf(longer, sizeof(longer), "%sxyz", f);
		if (prefix)
			assert_int_equal(user ? ureason(longer) : kreason(longer), r);
		if (!user) {
			snprintf(longer, sizeof(longer), "%s.isra.0", f);
			assert_int_equal(kreason(longer), r);
		}
	}
	assert_true(i > 50);
	for (int k = OFFCPU_SLEEP; k < OFFCPU_OTHER; k++)
		assert_true(seen[k] > 3);
}

/* The functions named in the brief, as this VM's 6.18 and bookworm's 6.1
 * name them. */
static void test_known_functions(void **state)
{
	static const struct { const char *f; enum offcpu_reason r; } k[] = {
		{ "do_nanosleep", OFFCPU_SLEEP }, { "hrtimer_nanosleep", OFFCPU_SLEEP },
		{ "schedule_hrtimeout_range_clock", OFFCPU_SLEEP },
		{ "futex_wait", OFFCPU_LOCK }, { "futex_wait_queue", OFFCPU_LOCK },
		{ "futex_wait_multiple", OFFCPU_LOCK }, { "__futex_wait", OFFCPU_LOCK },
		{ "rwsem_down_read_slowpath", OFFCPU_LOCK },
		{ "rwsem_down_write_slowpath", OFFCPU_LOCK },
		{ "__mutex_lock.constprop.0", OFFCPU_LOCK }, { "__mutex_lock_slowpath", OFFCPU_LOCK },
		{ "io_schedule", OFFCPU_IO }, { "io_schedule_timeout", OFFCPU_IO },
		{ "folio_wait_bit_common", OFFCPU_IO }, { "folio_wait_writeback", OFFCPU_IO },
		{ "blk_mq_get_tag", OFFCPU_IO }, { "jbd2_log_wait_commit", OFFCPU_IO },
		{ "ext4_sync_file", OFFCPU_IO }, { "do_fsync", OFFCPU_IO },
		{ "pipe_read", OFFCPU_WAIT }, { "anon_pipe_read", OFFCPU_WAIT },
		{ "pipe_write", OFFCPU_WAIT }, { "sk_wait_data", OFFCPU_WAIT },
		{ "do_poll", OFFCPU_WAIT }, { "do_sys_poll", OFFCPU_WAIT },
		{ "do_select", OFFCPU_WAIT }, { "ep_poll", OFFCPU_WAIT },
		{ "do_epoll_wait", OFFCPU_WAIT }, { "do_wait", OFFCPU_WAIT },
		{ "do_sigtimedwait.isra.0", OFFCPU_WAIT },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		assert_int_equal(kreason(k[i].f), k[i].r);
	/* not in the table, or a near miss of an exact row */
	assert_int_equal(kreason("schedule"), OFFCPU_REASONS);
	assert_int_equal(kreason("__schedule"), OFFCPU_REASONS);
	assert_int_equal(kreason("do_nanosleepy"), OFFCPU_REASONS);
	assert_int_equal(kreason("pipe_read_x"), OFFCPU_REASONS);
	assert_int_equal(kreason(""), OFFCPU_REASONS);
	assert_int_equal(kreason(NULL), OFFCPU_REASONS);
	/* user names are the C library's, never the kernel's table */
	assert_int_equal(ureason("do_nanosleep"), OFFCPU_REASONS);
	assert_int_equal(ureason("clock_nanosleep"), OFFCPU_SLEEP);
	assert_int_equal(ureason("__lll_lock_wait"), OFFCPU_LOCK);
	assert_int_equal(ureason("__lll_lock_wait_private"), OFFCPU_LOCK);
	assert_int_equal(ureason("fsync"), OFFCPU_IO);
	assert_int_equal(ureason("read"), OFFCPU_WAIT);
	assert_int_equal(ureason("wait4"), OFFCPU_WAIT);
	assert_int_equal(ureason("read_block"), OFFCPU_REASONS);
}

static void test_classify(void **state)
{
	const char *fsync_stack[] = { "schedule", "io_schedule", "folio_wait_bit_common",
				      "file_write_and_wait_range", "ext4_sync_file",
				      "__x64_sys_fsync" };
	const char *sleep_stack[] = { "schedule", "do_nanosleep", "hrtimer_nanosleep",
				      "__x64_sys_clock_nanosleep" };
	const char *mutex_stack[] = { "schedule", NULL, "futex_wait_queue", "__futex_wait",
				      "futex_wait", "__x64_sys_futex" };
	const char *pipe_stack[] = { "schedule", "anon_pipe_read", "vfs_read", "ksys_read" };
	const char *unknown[] = { "schedule", "worker_thread", "kthread" };
	const char *user_sleep = "clock_nanosleep", *user_lock = "__lll_lock_wait";
	(void)state;

	assert_int_equal(offcpu_classify(false, fsync_stack, 6, NULL, 0), OFFCPU_IO);
	assert_int_equal(offcpu_classify(false, sleep_stack, 4, NULL, 0), OFFCPU_SLEEP);
	assert_int_equal(offcpu_classify(false, mutex_stack, 6, NULL, 0), OFFCPU_LOCK);
	assert_int_equal(offcpu_classify(false, pipe_stack, 4, NULL, 0), OFFCPU_WAIT);
	assert_int_equal(offcpu_classify(false, unknown, 3, NULL, 0), OFFCPU_OTHER);
	/* preempted wins over any stack */
	assert_int_equal(offcpu_classify(true, sleep_stack, 4, NULL, 0), OFFCPU_RUNNABLE);
	/* the innermost frame the table knows decides: the syscall entry last */
	assert_int_equal(offcpu_classify(false, sleep_stack + 3, 1, NULL, 0), OFFCPU_SLEEP);
	/* no kernel frames (paranoid 2): the user's libc wrapper */
	assert_int_equal(offcpu_classify(false, NULL, 0, &user_sleep, 1), OFFCPU_SLEEP);
	assert_int_equal(offcpu_classify(false, NULL, 0, &user_lock, 1), OFFCPU_LOCK);
	/* the kernel's frames before the user's */
	assert_int_equal(offcpu_classify(false, pipe_stack, 4, &user_sleep, 1), OFFCPU_WAIT);
	assert_int_equal(offcpu_classify(false, unknown, 3, &user_sleep, 1), OFFCPU_SLEEP);
	assert_int_equal(offcpu_classify(false, NULL, 0, NULL, 0), OFFCPU_OTHER);
}

static void test_names(void **state)
{
	static const char *const want[] = { "runnable", "sleep", "lock", "io", "wait", "other" };
	(void)state;

	for (int r = 0; r < OFFCPU_REASONS; r++)
		assert_string_equal(offcpu_reason_name((enum offcpu_reason)r), want[r]);
	assert_string_equal(offcpu_reason_name(OFFCPU_REASONS), "other");
}

/* --- intervals ------------------------------------------------------------ */

static bool sw(struct offcpu *o, uint32_t tid, uint64_t t, bool out, bool preempt,
	       struct offcpu_iv *iv)
{
	return offcpu_switch(o, 100, tid, t, out, preempt, iv);
}

static void test_intervals(void **state)
{
	struct offcpu *o = offcpu_new();
	struct offcpu_iv iv;
	(void)state;

	assert_non_null(o);
	/* first seen coming in: nothing before counts */
	assert_false(sw(o, 101, 1000, false, false, &iv));
	assert_false(sw(o, 101, 1500, true, false, &iv));      /* on 500 */
	assert_true(sw(o, 101, 6500, false, false, &iv));      /* off 5000, blocked */
	assert_int_equal(iv.ns, 5000);
	assert_int_equal(iv.out_time, 1500);
	assert_int_equal(iv.tid, 101);
	assert_int_equal(iv.pid, 100);
	assert_false(iv.preempted);
	offcpu_charge(o, 100, 101, OFFCPU_SLEEP, iv.ns);
	assert_false(sw(o, 101, 7000, true, true, &iv));       /* on 500, preempted */
	assert_true(sw(o, 101, 7300, false, false, &iv));
	assert_int_equal(iv.ns, 300);
	assert_true(iv.preempted);
	offcpu_charge(o, 100, 101, OFFCPU_RUNNABLE, iv.ns);
	/* a lost record: two outs; the second restarts the interval */
	assert_false(sw(o, 101, 8000, true, false, &iv));
	assert_false(sw(o, 101, 8100, true, false, &iv));
	assert_true(sw(o, 101, 8600, false, false, &iv));
	assert_int_equal(iv.ns, 500);
	offcpu_charge(o, 100, 101, OFFCPU_LOCK, iv.ns);
	/* another thread, still off at the clock */
	assert_false(sw(o, 102, 2000, true, true, &iv));
	offcpu_clock(o, 9000);
	offcpu_clock(o, 100);   /* the clock never goes back */

	struct snap_wall *w = offcpu_snapshot(o, -1);
	assert_non_null(w);
	assert_int_equal(w->n, 2);
	const struct snap_wall_row *a = &w->threads[0], *b = &w->threads[1];
	assert_int_equal(a->tid, 101);
	/* on: 500 + 500 + 700 (8000 - 7300) + 400 (9000 - 8600, open) */
	assert_int_equal(a->on_ns, 2100);
	assert_int_equal(a->reason_ns[OFFCPU_SLEEP], 5000);
	assert_int_equal(a->reason_ns[OFFCPU_RUNNABLE], 300);
	assert_int_equal(a->reason_ns[OFFCPU_LOCK], 500);
	assert_int_equal(a->off_ns, 5800);
	/* 102: off since 2000, preempted: runnable up to the clock */
	assert_int_equal(b->on_ns, 0);
	assert_int_equal(b->reason_ns[OFFCPU_RUNNABLE], 7000);
	assert_int_equal(b->off_ns, 7000);
	assert_int_equal(w->total.on_ns, 2100);
	assert_int_equal(w->total.off_ns, 12800);
	assert_int_equal(w->total.reason_ns[OFFCPU_RUNNABLE], 7300);
	free(w);
	/* by process */
	assert_false(offcpu_switch(o, 200, 201, 9000, true, false, &iv));
	w = offcpu_snapshot(o, 200);
	assert_int_equal(w->n, 1);
	assert_int_equal(w->threads[0].tid, 201);
	free(w);
	offcpu_free(o);
}

static void test_hold(void **state)
{
	struct offcpu *o = offcpu_new();
	struct { struct perf_event_header h; uint64_t body[3]; } rec = {
		{ PERF_RECORD_SAMPLE, 0, sizeof(rec) }, { 1, 2, 3 } };
	const struct perf_event_header *h;
	(void)state;

	assert_null(offcpu_held(o, 7, 0));
	assert_int_equal(offcpu_hold(o, 1, 7, 5000, &rec.h), 0);
	rec.body[0] = 99;  /* a copy is held */
	h = offcpu_held(o, 7, 4000);
	assert_non_null(h);
	assert_int_equal(h->size, sizeof(rec));
	assert_int_equal(((const uint64_t *)(h + 1))[0], 1);
	assert_null(offcpu_held(o, 7, 5001));   /* older than asked */
	assert_null(offcpu_held(o, 8, 0));
	offcpu_drop(o, 7);
	assert_null(offcpu_held(o, 7, 0));
	assert_int_equal(offcpu_hold(o, 1, 7, 6000, &rec.h), 0);
	assert_non_null(offcpu_held(o, 7, 6000));
	offcpu_free(o);
	offcpu_free(NULL);
}

/* --- the decoder ---------------------------------------------------------- */

#define ST_TRAILER (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)

/* A SWITCH (CPU_WIDE: with NEXT_PREV) of pid 10 tid 11 at time 12345, id
 * 77, as a heap buffer of exactly its size. */
static struct perf_event_header *switch_rec(uint32_t type, uint16_t misc)
{
	uint64_t body[6];
	size_t n = 0;

	if (type == PERF_RECORD_SWITCH_CPU_WIDE)
		body[n++] = 20 | (uint64_t)21 << 32;
	body[n++] = 10 | (uint64_t)11 << 32;   /* TID */
	body[n++] = 12345;                       /* TIME */
	body[n++] = 77;                          /* IDENTIFIER */
	size_t size = sizeof(struct perf_event_header) + n * 8;
	struct perf_event_header *h = malloc(size);
	*h = (struct perf_event_header){ type, misc, (uint16_t)size };
	memcpy(h + 1, body, n * 8);
	return h;
}

static void test_decode_switch(void **state)
{
	struct record r;
	struct perf_event_header *h;
	(void)state;

	h = switch_rec(PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT |
					   PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	assert_int_equal(record_decode(h, ST_TRAILER, true, &r), 0);
	assert_int_equal(r.type, PERF_RECORD_SWITCH);
	assert_true(r.u.sw.out);
	assert_true(r.u.sw.preempt);
	assert_int_equal(r.sid_pid, 10);
	assert_int_equal(r.sid_tid, 11);
	assert_int_equal(r.sid_time, 12345);
	assert_int_equal(r.sid_id, 77);
	free(h);
	h = switch_rec(PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT);
	assert_int_equal(record_decode(h, ST_TRAILER, true, &r), 0);
	assert_true(r.u.sw.out);
	assert_false(r.u.sw.preempt);
	free(h);
	/* the preempt bit means nothing on a switch in */
	h = switch_rec(PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	assert_int_equal(record_decode(h, ST_TRAILER, true, &r), 0);
	assert_false(r.u.sw.out);
	assert_false(r.u.sw.preempt);
	free(h);
	h = switch_rec(PERF_RECORD_SWITCH_CPU_WIDE, PERF_RECORD_MISC_SWITCH_OUT);
	assert_int_equal(record_decode(h, ST_TRAILER, true, &r), 0);
	assert_true(r.u.sw.out);
	assert_int_equal(r.u.sw.next_prev_pid, 20);
	assert_int_equal(r.u.sw.next_prev_tid, 21);
	assert_int_equal(r.sid_tid, 11);
	assert_int_equal(r.sid_time, 12345);
	/* cut short: the body and the trailer cannot both fit */
	for (uint16_t size = sizeof(*h); size < h->size; size += 8) {
		struct perf_event_header *cut = malloc(size);
		memcpy(cut, h, size);
		cut->size = size;
		assert_int_equal(record_decode(cut, ST_TRAILER, true, &r), -1);
		free(cut);
	}
	free(h);
}

/* --- the wall tree (arch/tree-wall.c) -------------------------------------- */

static void test_wall_tree(void **state)
{
	static const char *const reasons[] = { "runnable", "sleep", "lock", "io", "wait", "other" };
	struct tree_result r;
	char id[64];
	(void)state;

	th_eval(&r, TREE_WALL, NULL,
		"wall.on_cpu_ns,1000000000\nwall.off_cpu.runnable,500000000\n"
		"wall.off_cpu.sleep,2000000000\nwall.off_cpu.lock,125000000\n"
		"wall.off_cpu.io,250000000\nwall.off_cpu.wait,75000000\n"
		"wall.off_cpu.other,50000000\n", 0, 0);
	assert_string_equal(r.def->name, "wall");
	assert_int_equal(tree_from_name("wall"), TREE_WALL);
	assert_string_equal(tree_name(TREE_WALL), "wall");
	th_assert_value(&r, "wall", 4.0, 1e-12);
	th_assert_value(&r, "wall.on_cpu", 1.0, 1e-12);
	th_assert_value(&r, "wall.off_cpu", 3.0, 1e-12);
	th_assert_value(&r, "wall.off_cpu.runnable", 0.5, 1e-12);
	th_assert_value(&r, "wall.off_cpu.sleep", 2.0, 1e-12);
	th_assert_value(&r, "wall.off_cpu.lock", 0.125, 1e-12);
	th_assert_value(&r, "wall.off_cpu.io", 0.25, 1e-12);
	th_assert_value(&r, "wall.off_cpu.wait", 0.075, 1e-12);
	th_assert_value(&r, "wall.off_cpu.other", 0.05, 1e-12);
	assert_int_equal(r.def->n_nodes, 9);
	/* the node ids are the reasons' names, in their order */
	for (int k = 0; k < OFFCPU_REASONS; k++) {
		snprintf(id, sizeof(id), "wall.off_cpu.%s", reasons[k]);
		assert_int_equal(tree_node_index(r.def, id), 3 + k);
		assert_int_equal(th_warn(&r, id), 0);
	}
	assert_int_equal(th_warn(&r, "wall"), 0);
	assert_int_equal(th_warn(&r, "wall.off_cpu"), 0);
	/* a reason missing: off the CPU and wall time not measured */
	th_eval(&r, TREE_WALL, NULL, "wall.on_cpu_ns,1000000000\nwall.off_cpu.sleep,5\n", 0, 0);
	assert_true(isnan(tree_value(&r, "wall.off_cpu")));
	assert_true(isnan(tree_value(&r, "wall")));
	th_assert_value(&r, "wall.on_cpu", 1.0, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_row),
		cmocka_unit_test(test_known_functions),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_intervals),
		cmocka_unit_test(test_hold),
		cmocka_unit_test(test_decode_switch),
		cmocka_unit_test(test_wall_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
