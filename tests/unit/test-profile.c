/* The profile (engine/profile.c): aggregation per (function, module),
 * windows, immutable snapshots that own their strings. */
#include <malloc.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/profile.h"

static void assert_near(double got, double want)
{
	if (fabs(got - want) > 1e-9 * fabs(want) + 1e-12) {
		fprintf(stderr, "got %.12g, want %.12g\n", got, want);
		fail();
	}
}

/* A distinct address per (name, module), as symbolization would give. */
static uint64_t ip_of(const char *name, const char *module)
{
	uint64_t h = 1469598103934665603ull;

	for (const char *s = name ? name : ""; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	for (const char *s = module ? module : ""; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* Samples of one thread unless a test is about threads. */
#define TID_MAIN 100

static void add_in(struct profile *p, uint32_t tid, int ev, const char *name,
		   const char *module, uint64_t n)
{
	profile_add(p, ev, tid, ip_of(name, module), name, module, n);
}

static void add(struct profile *p, int ev, const char *name, const char *module, uint64_t n)
{
	add_in(p, TID_MAIN, ev, name, module, n);
}

static struct profile *new_profile(void)
{
	struct ev_list l;
	struct profile *p;

	memset(&l, 0, sizeof(l));
	l.n = 2;
	snprintf(l.ev[0].name, sizeof(l.ev[0].name), "cpu-clock");
	l.ev[0].sav = 1000000;
	l.ev[0].software = true;
	snprintf(l.ev[1].name, sizeof(l.ev[1].name), "page-faults");
	l.ev[1].sav = 1;
	l.ev[1].software = true;
	p = profile_new(&l);
	assert_non_null(p);
	return p;
}

static const struct snap_func *find(const struct snapshot *s, const char *name,
				    const char *module)
{
	for (size_t i = 0; i < s->n_funcs; i++)
		if (strcmp(s->funcs[i].name, name) == 0 && strcmp(s->funcs[i].module, module) == 0)
			return &s->funcs[i];
	return NULL;
}

static const struct snap_func *must_find(const struct snapshot *s, const char *name,
					 const char *module)
{
	const struct snap_func *f = find(s, name, module);

	if (!f) {
		fprintf(stderr, "no row %s in %s\n", name, module);
		fail();
	}
	return f;
}

static void test_events_copied(void **state)
{
	struct profile *p = new_profile();
	struct snapshot *s;

	(void)state;
	s = profile_snapshot(p, 1.5, 0.5);
	assert_non_null(s);
	assert_int_equal(s->n_events, 2);
	assert_string_equal(s->ev[0].name, "cpu-clock");
	assert_int_equal(s->ev[0].sav, 1000000);
	assert_string_equal(s->ev[1].name, "page-faults");
	assert_int_equal(s->ev[1].sav, 1);
	assert_near(s->time, 1.5);
	assert_near(s->window_seconds, 0.5);
	assert_int_equal(s->n_funcs, 0);
	assert_int_equal(s->ev[0].samples, 0);
	assert_near(s->ev[0].coverage, 1.0);
	snapshot_free(s);
	profile_free(p);
}

static void test_sorted_by_first_event(void **state)
{
	struct profile *p = new_profile();
	struct snapshot *s;

	(void)state;
	add(p, 0, "middle", "/bin/app", 5);
	add(p, 0, "hot", "/bin/app", 3);
	add(p, 0, "hot", "/bin/app", 7);          /* 10 */
	add(p, 0, "memcpy", "/lib/libc.so.6", 5); /* ties with middle */
	add(p, 0, "cold", "/lib/libm.so.6", 1);
	/* the second event does not influence the order */
	add(p, 1, "cold", "/lib/libm.so.6", 1000);
	add(p, 1, "faulty", "/bin/app", 50);      /* 0 samples of event 0 */
	s = profile_snapshot(p, 1, 1);
	assert_int_equal(s->n_funcs, 5);
	assert_string_equal(s->funcs[0].name, "hot");
	assert_string_equal(s->funcs[1].name, "memcpy");  /* tie at 5: by name */
	assert_string_equal(s->funcs[2].name, "middle");
	assert_string_equal(s->funcs[3].name, "cold");
	assert_string_equal(s->funcs[4].name, "faulty");
	assert_string_equal(s->funcs[0].module, "/bin/app");
	assert_string_equal(s->funcs[1].module, "/lib/libc.so.6");
	assert_int_equal(s->funcs[0].samples[0], 10);
	assert_int_equal(s->funcs[3].samples[0], 1);
	assert_int_equal(s->funcs[3].samples[1], 1000);
	assert_int_equal(s->funcs[4].samples[0], 0);
	assert_int_equal(s->funcs[4].samples[1], 50);
	assert_int_equal(s->ev[0].samples, 21);
	assert_int_equal(s->ev[1].samples, 1050);
	/* non-increasing order throughout */
	for (size_t i = 1; i < s->n_funcs; i++)
		assert_true(s->funcs[i - 1].samples[0] >= s->funcs[i].samples[0]);
	snapshot_free(s);
	profile_free(p);
}

static void test_windows(void **state)
{
	struct profile *p = new_profile();
	struct snapshot *s1, *s2, *s3;

	(void)state;
	add(p, 0, "a", "m", 4);
	add(p, 0, "b", "m", 1);
	add(p, 1, "a", "m", 2);
	s1 = profile_snapshot(p, 1, 1);
	assert_int_equal(s1->ev[0].samples, 5);
	assert_int_equal(s1->ev[0].window, 5);
	assert_int_equal(s1->ev[1].window, 2);
	assert_int_equal(must_find(s1, "a", "m")->window[0], 4);
	assert_int_equal(must_find(s1, "a", "m")->window[1], 2);

	add(p, 0, "b", "m", 6);
	s2 = profile_snapshot(p, 2, 1);
	assert_int_equal(s2->ev[0].samples, 11);   /* cumulative keeps growing */
	assert_int_equal(s2->ev[0].window, 6);     /* the window restarted */
	assert_int_equal(s2->ev[1].samples, 2);
	assert_int_equal(s2->ev[1].window, 0);
	const struct snap_func *a = must_find(s2, "a", "m"), *b = must_find(s2, "b", "m");
	assert_int_equal(a->samples[0], 4);
	assert_int_equal(a->window[0], 0);
	assert_int_equal(a->window[1], 0);
	assert_int_equal(b->samples[0], 7);
	assert_int_equal(b->window[0], 6);
	assert_string_equal(s2->funcs[0].name, "b");  /* now the hottest */

	/* an empty window */
	s3 = profile_snapshot(p, 3, 1);
	assert_int_equal(s3->ev[0].samples, 11);
	assert_int_equal(s3->ev[0].window, 0);
	for (size_t i = 0; i < s3->n_funcs; i++) {
		assert_int_equal(s3->funcs[i].window[0], 0);
		assert_int_equal(s3->funcs[i].window[1], 0);
	}
	assert_near(snapshot_percent(s3, must_find(s3, "b", "m"), 0, true), 0.0);

	/* earlier snapshots are unchanged (immutable copies) */
	assert_int_equal(s1->ev[0].samples, 5);
	assert_int_equal(must_find(s1, "b", "m")->samples[0], 1);
	assert_int_equal(must_find(s1, "b", "m")->window[0], 1);
	snapshot_free(s1);
	snapshot_free(s2);
	snapshot_free(s3);
	profile_free(p);
}

static void test_percent(void **state)
{
	struct profile *p = new_profile();
	struct snapshot *s;

	(void)state;
	add(p, 0, "a", "m", 3);
	add(p, 0, "b", "m", 1);
	s = profile_snapshot(p, 1, 1);
	snapshot_free(s);
	add(p, 0, "b", "m", 3);
	add(p, 1, "a", "m", 2);
	s = profile_snapshot(p, 2, 1);
	const struct snap_func *a = must_find(s, "a", "m"), *b = must_find(s, "b", "m");
	assert_near(snapshot_percent(s, a, 0, false), 100.0 * 3 / 7);
	assert_near(snapshot_percent(s, b, 0, false), 100.0 * 4 / 7);
	assert_near(snapshot_percent(s, a, 0, true), 0.0);
	assert_near(snapshot_percent(s, b, 0, true), 100.0);
	assert_near(snapshot_percent(s, a, 1, false), 100.0);
	assert_near(snapshot_percent(s, b, 1, false), 0.0);
	assert_near(snapshot_percent(s, a, 1, true), 100.0);
	snapshot_free(s);
	profile_free(p);
}

static void test_same_name_two_modules(void **state)
{
	struct profile *p = new_profile();
	struct snapshot *s;

	(void)state;
	add(p, 0, "init", "/bin/app", 2);
	add(p, 0, "init", "/lib/libfoo.so", 3);
	add(p, 0, "init", "/bin/app", 1);
	s = profile_snapshot(p, 1, 1);
	assert_int_equal(s->n_funcs, 2);
	assert_int_equal(must_find(s, "init", "/bin/app")->samples[0], 3);
	assert_int_equal(must_find(s, "init", "/lib/libfoo.so")->samples[0], 3);
	/* equal counts and names: ordered by module */
	assert_string_equal(s->funcs[0].module, "/bin/app");
	assert_string_equal(s->funcs[1].module, "/lib/libfoo.so");
	snapshot_free(s);
	profile_free(p);

	/* many modules with one function name: rows collide in the table */
	enum { NMOD = 600 };
	char mod[32];
	p = new_profile();
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < NMOD; i++) {
			snprintf(mod, sizeof(mod), "/lib/lib%d.so", i);
			profile_symbols_freed(p);  /* MOD's old text is gone */
			add(p, 0, "init", mod, (uint64_t)i + 1);
		}
	s = profile_snapshot(p, 1, 1);
	assert_int_equal(s->n_funcs, NMOD);
	assert_int_equal(s->n_modules, NMOD);
	for (int i = 0; i < NMOD; i++) {
		snprintf(mod, sizeof(mod), "/lib/lib%d.so", i);
		assert_int_equal(must_find(s, "init", mod)->samples[0], 2 * ((uint64_t)i + 1));
	}
	snapshot_free(s);
	profile_free(p);
}

static void test_unknown_names(void **state)
{
	struct profile *p = new_profile();
	struct snapshot *s;

	(void)state;
	add(p, 0, NULL, "/bin/app", 2);
	add(p, 0, "[unknown]", "/bin/app", 1);  /* the same row */
	add(p, 0, "f", NULL, 4);
	s = profile_snapshot(p, 1, 1);
	assert_int_equal(s->n_funcs, 2);
	assert_int_equal(must_find(s, "[unknown]", "/bin/app")->samples[0], 3);
	assert_int_equal(must_find(s, "f", "[unknown]")->samples[0], 4);
	snapshot_free(s);
	profile_free(p);
}

static void test_bad_event_index_ignored(void **state)
{
	struct profile *p = new_profile();
	struct snapshot *s;

	(void)state;
	add(p, 2, "x", "m", 1);
	add(p, -1, "x", "m", 1);
	add(p, EVENTS_MAX, "x", "m", 1);
	profile_set_scaled(p, 2, 1, 1, true);
	profile_set_scaled(p, -1, 1, 1, true);
	s = profile_snapshot(p, 1, 1);
	assert_int_equal(s->n_funcs, 0);
	assert_int_equal(s->ev[0].samples + s->ev[1].samples, 0);
	assert_false(s->ev[2].counted);
	snapshot_free(s);
	profile_free(p);
}

/* The snapshot holds its strings: it outlives the profile and the callers'
 * buffers. */
static void test_strings_owned(void **state)
{
	struct profile *p = new_profile();
	struct snapshot *s;
	char name[64], module[64];

	(void)state;
	snprintf(name, sizeof(name), "transient_symbol");
	snprintf(module, sizeof(module), "/tmp/dlopened.so");
	add(p, 0, name, module, 9);
	memset(name, 'X', sizeof(name) - 1);
	memset(module, 'Y', sizeof(module) - 1);
	profile_symbols_freed(p);  /* as the session says when a table goes */
	/* the profile interned its own copy: a new buffer with the same text
	 * lands in the same row */
	snprintf(name, sizeof(name), "transient_symbol");
	snprintf(module, sizeof(module), "/tmp/dlopened.so");
	add(p, 0, name, module, 1);
	memset(name, 'Z', sizeof(name) - 1);
	memset(module, 'Z', sizeof(module) - 1);
	profile_symbols_freed(p);
	s = profile_snapshot(p, 1, 1);
	/* snapshots point at the profile's interned names, not copies... */
	profile_set_thread_filter(p, TID_MAIN);
	struct snapshot *zoomed = profile_snapshot(p, 2, 1);
	assert_non_null(zoomed);
	assert_int_equal(zoomed->n_funcs, 1);
	assert_ptr_equal(zoomed->funcs[0].name, s->funcs[0].name);
	assert_ptr_equal(zoomed->funcs[0].module, s->funcs[0].module);
	/* ...which each of them holds: they outlive the profile (runs mode
	 * merges the snapshots of closed sessions), in any order */
	profile_free(p);
	snapshot_free(zoomed);
	assert_int_equal(s->n_funcs, 1);
	assert_string_equal(s->funcs[0].name, "transient_symbol");
	assert_string_equal(s->funcs[0].module, "/tmp/dlopened.so");
	assert_int_equal(s->funcs[0].samples[0], 10);
	snapshot_free(s);
}

/* A sample's row is found by its strings' addresses (the symbol tables'
 * own) without reading them: when a table is freed the session says so,
 * and an address that comes round with other text names its own row. */
static void test_symbols_freed(void **state)
{
	struct profile *p = new_profile();
	struct snapshot *s;
	char name[32] = "old_func", module[32] = "/lib/old.so";

	(void)state;
	add(p, 0, name, module, 3);
	add(p, 0, name, module, 4);
	profile_symbols_freed(p);
	snprintf(name, sizeof(name), "new_func");
	snprintf(module, sizeof(module), "/lib/new.so");
	add(p, 0, name, module, 5);
	profile_symbols_freed(NULL);  /* no profile yet: nothing to forget */
	s = profile_snapshot(p, 1, 1);
	assert_int_equal(s->n_funcs, 2);
	assert_int_equal(must_find(s, "old_func", "/lib/old.so")->samples[0], 7);
	assert_int_equal(must_find(s, "new_func", "/lib/new.so")->samples[0], 5);
	assert_int_equal(s->n_modules, 2);
	snapshot_free(s);
	profile_free(p);
}

static void test_counters(void **state)
{
	struct profile *p = new_profile();
	struct snapshot *s;

	(void)state;
	profile_add_lost(p, 5);
	profile_add_lost(p, 7);
	profile_add_throttle(p);
	profile_add_throttle(p);
	profile_add_throttle(p);
	profile_add_undecodable(p);
	s = profile_snapshot(p, 1, 1);
	assert_int_equal(s->lost, 12);
	assert_int_equal(s->throttled, 3);
	assert_int_equal(s->undecodable, 1);
	snapshot_free(s);
	profile_add_lost(p, 1);
	s = profile_snapshot(p, 2, 1);
	assert_int_equal(s->lost, 13);   /* cumulative */
	assert_int_equal(s->throttled, 3);
	snapshot_free(s);
	profile_free(p);
}

static void test_set_scaled(void **state)
{
	struct profile *p = new_profile();
	struct snapshot *s;

	(void)state;
	profile_set_scaled(p, 0, 4000, 0.25, true);   /* ran a quarter of the time */
	profile_set_scaled(p, 1, 42, 1.0, true);      /* never multiplexed */
	s = profile_snapshot(p, 1, 1);
	assert_near(s->ev[0].count, 4000);
	assert_near(s->ev[0].coverage, 0.25);
	assert_true(s->ev[0].counted);
	assert_near(s->ev[1].count, 42);
	assert_near(s->ev[1].coverage, 1.0);
	assert_true(s->ev[1].counted);
	snapshot_free(s);

	profile_set_scaled(p, 0, 17, 0, false);       /* enabled, never ran */
	s = profile_snapshot(p, 2, 1);
	assert_false(s->ev[0].counted);
	assert_near(s->ev[0].count, 0);
	assert_near(s->ev[0].coverage, 0);
	snapshot_free(s);
	profile_free(p);
}

/* Module totals: sums of their functions, sorted like the functions. */
static void test_modules(void **state)
{
	struct profile *p = new_profile();
	struct snapshot *s;

	(void)state;
	add(p, 0, "main", "/bin/app", 2);
	add(p, 0, "loop", "/bin/app", 3);
	add(p, 0, "memcpy", "/lib/libc.so.6", 10);
	add(p, 1, "memcpy", "/lib/libc.so.6", 4);
	add(p, 0, "sin", "/lib/libm.so.6", 5);
	add(p, 0, "cos", "/lib/libm.so.6", 0);
	s = profile_snapshot(p, 1, 1);
	assert_int_equal(s->n_modules, 3);
	assert_string_equal(s->modules[0].module, "/lib/libc.so.6");
	assert_int_equal(s->modules[0].samples[0], 10);
	assert_int_equal(s->modules[0].samples[1], 4);
	/* 5 and 5: by name */
	assert_string_equal(s->modules[1].module, "/bin/app");
	assert_int_equal(s->modules[1].samples[0], 5);
	assert_int_equal(s->modules[1].window[0], 5);
	assert_string_equal(s->modules[2].module, "/lib/libm.so.6");
	assert_int_equal(s->modules[2].samples[0], 5);
	snapshot_free(s);

	add(p, 0, "loop", "/bin/app", 20);
	s = profile_snapshot(p, 2, 1);
	profile_free(p);   /* the snapshot stands alone */
	assert_string_equal(s->modules[0].module, "/bin/app");
	assert_int_equal(s->modules[0].samples[0], 25);
	assert_int_equal(s->modules[0].window[0], 20);
	assert_int_equal(s->modules[1].window[0], 0);
	snapshot_free(s);
}

/* Per-address samples of one function, sorted by address. */
static void test_ip_counts(void **state)
{
	struct profile *p = new_profile();
	struct ip_counts *c;

	(void)state;
	profile_add(p, 0, TID_MAIN, 0x1010, "f", "/bin/app", 2);
	profile_add(p, 0, TID_MAIN, 0x1000, "f", "/bin/app", 1);
	profile_add(p, 0, TID_MAIN, 0x1010, "f", "/bin/app", 3);
	profile_add(p, 1, TID_MAIN, 0x1000, "f", "/bin/app", 7);
	profile_add(p, 0, TID_MAIN, 0x2000, "g", "/bin/app", 9);
	profile_add(p, 0, TID_MAIN, 0x1004, "f", "/lib/other.so", 9);  /* same name, other module */
	c = profile_ip_counts(p, "f", "/bin/app");
	assert_non_null(c);
	assert_int_equal(c->n_events, 2);
	assert_int_equal(c->n, 2);
	assert_int_equal(c->ips[0].ip, 0x1000);
	assert_int_equal(c->ips[0].samples[0], 1);
	assert_int_equal(c->ips[0].samples[1], 7);
	assert_int_equal(c->ips[1].ip, 0x1010);
	assert_int_equal(c->ips[1].samples[0], 5);
	assert_int_equal(c->ips[1].samples[1], 0);
	free(c);

	c = profile_ip_counts(p, "nosuch", "/bin/app");
	assert_non_null(c);
	assert_int_equal(c->n, 0);
	free(c);
	/* both strings known, but never as a pair */
	c = profile_ip_counts(p, "g", "/lib/other.so");
	assert_non_null(c);
	assert_int_equal(c->n, 0);
	free(c);
	profile_free(p);
}

/* After an exec (or under -a, processes sharing addresses) one address is
 * code of two functions: each keeps its own samples there, in the asm view
 * (profile_ip_counts) and the flat pprof export (profile_foreach_ip). */
static int ip_owner(void *arg, uint64_t ip, const char *name, const char *module,
		    const uint64_t *samples)
{
	uint64_t *n = arg;

	(void)module;
	if (ip == 0x1000)
		n[strcmp(name, "old_main") == 0 ? 0 : 1] += samples[0];
	return 0;
}

static void test_ip_reused(void **state)
{
	struct profile *p = new_profile();
	struct ip_counts *c;
	uint64_t n[2] = { 0 };

	(void)state;
	profile_add(p, 0, TID_MAIN, 0x1000, "old_main", "/bin/before", 3);
	/* the exec: the same address now in another program */
	profile_add(p, 0, TID_MAIN, 0x1000, "new_main", "/bin/after", 5);
	c = profile_ip_counts(p, "new_main", "/bin/after");
	assert_non_null(c);
	assert_int_equal(c->n, 1);
	assert_int_equal(c->ips[0].ip, 0x1000);
	assert_int_equal(c->ips[0].samples[0], 5);
	free(c);
	c = profile_ip_counts(p, "old_main", "/bin/before");
	assert_non_null(c);
	assert_int_equal(c->n, 1);
	assert_int_equal(c->ips[0].samples[0], 3);
	free(c);
	assert_int_equal(profile_foreach_ip(p, ip_owner, n), 0);
	assert_int_equal(n[0], 3);
	assert_int_equal(n[1], 5);
	profile_free(p);
}

/* A function row is sized by the session's events: with one event,
 * 100,000 functions (each with its address row, thread cell, indexes and
 * name: some 280 bytes) take under 400 bytes apiece of the heap, where
 * rows of EVENTS_MAX slots took 770 (512 bytes of counts alone).
 * mallinfo2's bytes in use: not under AddressSanitizer, whose allocator
 * glibc does not see. */
static void test_row_size(void **state)
{
#if defined(__SANITIZE_ADDRESS__)
	(void)state;
	skip();
#else
	enum { N = 100000 };
	struct ev_list l;
	static char names[N][8];  /* each its own address, as a symbol table's */

	(void)state;
	memset(&l, 0, sizeof(l));
	l.n = 1;
	snprintf(l.ev[0].name, sizeof(l.ev[0].name), "cpu-clock");
	l.ev[0].sav = 1;
	size_t before = mallinfo2().uordblks;
	struct profile *p = profile_new(&l);
	assert_non_null(p);
	for (int i = 0; i < N; i++) {
		snprintf(names[i], sizeof(names[i]), "f%d", i);
		profile_add(p, 0, TID_MAIN, 0x1000 + (uint64_t)i, names[i], "/bin/app", 1);
	}
	size_t used = mallinfo2().uordblks - before;
	if (used > (size_t)N * 400) {
		fprintf(stderr, "%zu bytes for %d functions\n", used, N);
		fail();
	}
	struct snapshot *s = profile_snapshot(p, 1, 1);
	assert_non_null(s);
	assert_int_equal(s->n_funcs, N);  /* the rows measured are all there */
	snapshot_free(s);
	profile_free(p);
#endif
}

/* Enough rows and strings to grow both hash tables several times. */
static void test_many_functions(void **state)
{
	enum { N = 5000 };
	struct profile *p = new_profile();
	struct snapshot *s;
	static const char *const mods[] = { "/bin/big", "/lib/a.so", "/lib/b.so" };
	char name[32];
	uint64_t total = 0;

	(void)state;
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < N; i++) {
			snprintf(name, sizeof(name), "func_%d", i);
			profile_symbols_freed(p);  /* NAME's old text is gone */
			add(p, 0, name, mods[i % 3], (uint64_t)i + 1);
			add(p, 1, name, mods[i % 3], 1);
			total += (uint64_t)i + 1;
		}
	s = profile_snapshot(p, 1, 1);
	assert_int_equal(s->n_funcs, N);
	assert_int_equal(s->ev[0].samples, total);
	assert_int_equal(s->ev[1].samples, 2 * N);
	static bool seen[N];
	memset(seen, 0, sizeof(seen));
	for (size_t k = 0; k < s->n_funcs; k++) {
		const struct snap_func *f = &s->funcs[k];
		int i;
		assert_int_equal(sscanf(f->name, "func_%d", &i), 1);
		assert_true(i >= 0 && i < N);
		assert_false(seen[i]);
		seen[i] = true;
		assert_string_equal(f->module, mods[i % 3]);
		assert_int_equal(f->samples[0], 2 * ((uint64_t)i + 1));
		assert_int_equal(f->samples[1], 2);
		assert_int_equal(f->window[0], 2 * ((uint64_t)i + 1));
	}
	/* descending: func_4999 first */
	assert_string_equal(s->funcs[0].name, "func_4999");
	assert_string_equal(s->funcs[N - 1].name, "func_0");
	snapshot_free(s);
	profile_free(p);
}

static const struct snap_thread *must_thread(const struct snapshot *s, uint32_t tid)
{
	const struct snap_thread *t = snapshot_thread(s, tid);

	if (!t) {
		fprintf(stderr, "no thread %u\n", tid);
		fail();
	}
	return t;
}

/* Per-thread samples: sorted like functions, summing to the event totals,
 * with their own windows. */
static void test_thread_counts(void **state)
{
	enum { NT = 300 };
	struct profile *p = new_profile();
	struct snapshot *s1, *s2;

	(void)state;
	add_in(p, 101, 0, "work", "/bin/app", 7);
	add_in(p, 100, 0, "main", "/bin/app", 3);
	add_in(p, 100, 0, "work", "/bin/app", 5);
	add_in(p, 102, 0, "work", "/bin/app", 7);   /* ties with 101: by tid */
	add_in(p, 103, 1, "fault", "/bin/app", 5);  /* only the second event */
	s1 = profile_snapshot(p, 1, 1);
	assert_int_equal(s1->n_threads, 4);
	assert_int_equal(s1->threads[0].tid, 100);
	assert_int_equal(s1->threads[1].tid, 101);
	assert_int_equal(s1->threads[2].tid, 102);
	assert_int_equal(s1->threads[3].tid, 103);
	assert_int_equal(must_thread(s1, 100)->samples[0], 8);
	assert_int_equal(must_thread(s1, 100)->window[0], 8);
	assert_int_equal(must_thread(s1, 103)->samples[0], 0);
	assert_int_equal(must_thread(s1, 103)->samples[1], 5);
	assert_null(snapshot_thread(s1, 104));
	assert_near(snapshot_thread_percent(s1, must_thread(s1, 101), 0, false), 100.0 * 7 / 22);
	assert_near(snapshot_thread_percent(s1, must_thread(s1, 103), 1, false), 100.0);
	/* the functions are still the process's: no thread split */
	assert_int_equal(s1->thread, 0);
	assert_int_equal(must_find(s1, "work", "/bin/app")->samples[0], 19);

	add_in(p, 100, 0, "main", "/bin/app", 2);
	for (uint32_t t = 1000; t < 1000 + NT; t++)
		add_in(p, t, 0, "spawned", "/bin/app", 1);
	s2 = profile_snapshot(p, 2, 1);
	assert_int_equal(s2->n_threads, 4 + NT);
	assert_int_equal(must_thread(s2, 100)->samples[0], 10);
	assert_int_equal(must_thread(s2, 100)->window[0], 2);
	assert_int_equal(must_thread(s2, 101)->window[0], 0);
	uint64_t sum = 0, wsum = 0;
	for (size_t i = 0; i < s2->n_threads; i++) {
		sum += s2->threads[i].samples[0];
		wsum += s2->threads[i].window[0];
		if (i > 0)
			assert_true(s2->threads[i - 1].samples[0] >= s2->threads[i].samples[0]);
	}
	assert_int_equal(sum, s2->ev[0].samples);
	assert_int_equal(wsum, s2->ev[0].window);
	assert_int_equal(must_thread(s2, 1000 + NT - 1)->samples[0], 1);
	/* the earlier snapshot is unchanged */
	assert_int_equal(s1->n_threads, 4);
	assert_int_equal(must_thread(s1, 100)->samples[0], 8);
	snapshot_free(s1);
	snapshot_free(s2);
	profile_free(p);
}

/* Names from COMM, inherited on fork, ends from EXIT. */
static void test_thread_names(void **state)
{
	struct profile *p = new_profile();
	struct snapshot *s1, *s2;

	(void)state;
	profile_set_thread_name(p, 100, "app");
	profile_thread_fork(p, 101, 100);
	profile_thread_fork(p, 102, 101);
	profile_set_thread_name(p, 102, "worker-with-a-long-name");  /* the kernel cuts at 15 */
	profile_thread_fork(p, 103, 999);      /* parent unknown: no name */
	profile_thread_exit(p, 101);
	profile_thread_exit(p, 555);           /* never sampled: not listed */
	for (uint32_t t = 100; t <= 103; t++)
		add_in(p, t, 0, "f", "/bin/app", t - 99);
	profile_set_thread_name(p, 104, "idle");   /* named, never sampled */
	s1 = profile_snapshot(p, 1, 1);
	assert_int_equal(s1->n_threads, 4);        /* neither 104 nor 555 */
	assert_string_equal(must_thread(s1, 100)->comm, "app");
	assert_string_equal(must_thread(s1, 101)->comm, "app");
	assert_string_equal(must_thread(s1, 102)->comm, "worker-with-a-l");
	assert_string_equal(must_thread(s1, 103)->comm, "");
	assert_false(must_thread(s1, 100)->ended);
	assert_true(must_thread(s1, 101)->ended);

	/* exec renames; a reused tid lives again under its new parent's name */
	profile_set_thread_name(p, 100, "exec'd");
	profile_thread_fork(p, 101, 102);
	s2 = profile_snapshot(p, 2, 1);
	assert_string_equal(must_thread(s2, 100)->comm, "exec'd");
	assert_string_equal(must_thread(s2, 101)->comm, "worker-with-a-l");
	assert_false(must_thread(s2, 101)->ended);
	assert_int_equal(must_thread(s2, 101)->samples[0], 2);
	/* the earlier snapshot kept its names */
	assert_string_equal(must_thread(s1, 100)->comm, "app");
	assert_true(must_thread(s1, 101)->ended);
	snapshot_free(s1);
	snapshot_free(s2);
	profile_free(p);
}

/* Records come in time order (engine/ordered.h): a child takes the name
 * its parent has at its FORK; a later exec renames that thread alone; an
 * id that ended and comes round again is a new life, under its new
 * parent's name; an EXIT ends. */
static void test_thread_lives(void **state)
{
	struct profile *p = new_profile();
	struct snapshot *s;

	(void)state;
	profile_thread_fork(p, 201, 200);        /* parent unnamed: none to take */
	profile_set_thread_name(p, 200, "app");
	profile_thread_fork(p, 202, 200);        /* ... named now: taken */
	profile_set_thread_name(p, 202, "exec'd");  /* its exec: itself only */
	profile_thread_fork(p, 203, 202);        /* the exec'd name goes on */
	profile_set_thread_name(p, 300, "other");
	profile_thread_fork(p, 401, 200);
	profile_thread_exit(p, 401);
	profile_thread_fork(p, 401, 300);        /* the id again: a new life */
	profile_thread_fork(p, 402, 200);
	profile_thread_exit(p, 402);
	for (uint32_t t = 200; t <= 203; t++)
		add_in(p, t, 0, "f", "/bin/app", 1);
	add_in(p, 401, 0, "f", "/bin/app", 1);
	add_in(p, 402, 0, "f", "/bin/app", 1);
	s = profile_snapshot(p, 1, 1);
	assert_string_equal(must_thread(s, 201)->comm, "");
	assert_string_equal(must_thread(s, 202)->comm, "exec'd");
	assert_string_equal(must_thread(s, 200)->comm, "app");
	assert_string_equal(must_thread(s, 203)->comm, "exec'd");
	assert_false(must_thread(s, 401)->ended);
	assert_string_equal(must_thread(s, 401)->comm, "other");
	assert_true(must_thread(s, 402)->ended);
	assert_string_equal(must_thread(s, 402)->comm, "app");
	snapshot_free(s);
	profile_free(p);
}

/* A thread filter: that thread's functions, modules and windows; totals,
 * threads and percentages stay the process's. */
static void test_thread_filter(void **state)
{
	struct profile *p = new_profile();
	struct snapshot *s;

	(void)state;
	add_in(p, 100, 0, "main_loop", "/bin/app", 5);
	add_in(p, 100, 0, "memcpy", "/lib/libc.so.6", 2);
	add_in(p, 101, 0, "worker", "/bin/app", 7);
	add_in(p, 101, 0, "memcpy", "/lib/libc.so.6", 3);
	add_in(p, 101, 1, "worker", "/bin/app", 4);
	profile_set_thread_filter(p, 101);
	s = profile_snapshot(p, 1, 1);
	assert_int_equal(s->thread, 101);
	assert_int_equal(s->n_funcs, 2);
	assert_null(find(s, "main_loop", "/bin/app"));
	assert_string_equal(s->funcs[0].name, "worker");
	assert_int_equal(s->funcs[0].samples[0], 7);
	assert_int_equal(s->funcs[0].samples[1], 4);
	assert_int_equal(s->funcs[0].window[0], 7);
	assert_int_equal(must_find(s, "memcpy", "/lib/libc.so.6")->samples[0], 3);
	assert_int_equal(s->ev[0].samples, 17);
	assert_near(snapshot_percent(s, &s->funcs[0], 0, false), 100.0 * 7 / 17);
	assert_int_equal(s->n_modules, 2);
	assert_string_equal(s->modules[0].module, "/bin/app");
	assert_int_equal(s->modules[0].samples[0], 7);
	assert_int_equal(s->n_threads, 2);
	snapshot_free(s);

	/* the filtered snapshot restarted every window, not only the thread's */
	add_in(p, 100, 0, "main_loop", "/bin/app", 4);
	profile_set_thread_filter(p, 0);
	s = profile_snapshot(p, 2, 1);
	assert_int_equal(s->thread, 0);
	assert_int_equal(s->n_funcs, 3);
	assert_int_equal(must_find(s, "main_loop", "/bin/app")->samples[0], 9);
	assert_int_equal(must_find(s, "main_loop", "/bin/app")->window[0], 4);
	assert_int_equal(must_find(s, "memcpy", "/lib/libc.so.6")->samples[0], 5);
	assert_int_equal(must_find(s, "memcpy", "/lib/libc.so.6")->window[0], 0);
	assert_int_equal(must_thread(s, 100)->window[0], 4);
	snapshot_free(s);

	add_in(p, 101, 0, "worker", "/bin/app", 1);
	profile_set_thread_filter(p, 100);
	s = profile_snapshot(p, 3, 1);
	assert_int_equal(s->n_funcs, 2);
	assert_int_equal(must_find(s, "main_loop", "/bin/app")->samples[0], 9);
	assert_int_equal(must_find(s, "main_loop", "/bin/app")->window[0], 0);
	assert_int_equal(must_find(s, "memcpy", "/lib/libc.so.6")->samples[0], 2);
	assert_null(find(s, "worker", "/bin/app"));
	assert_int_equal(s->ev[0].window, 1);
	snapshot_free(s);

	/* a thread without samples: an empty table, the threads still there */
	profile_set_thread_filter(p, 999);
	s = profile_snapshot(p, 4, 1);
	assert_int_equal(s->thread, 999);
	assert_int_equal(s->n_funcs, 0);
	assert_int_equal(s->n_modules, 0);
	assert_int_equal(s->n_threads, 2);
	snapshot_free(s);
	profile_free(p);
}

/* Past the bounds: the extra threads share one row, a thread's extra
 * functions one row of its zoom; every sample is still counted. */
static void test_thread_limits(void **state)
{
	struct profile *p = new_profile();
	struct snapshot *s;

	(void)state;
	profile_set_limits(p, 2, 3);
	add_in(p, 1, 0, "f1", "/bin/app", 1);
	add_in(p, 1, 0, "f2", "/bin/app", 2);
	add_in(p, 2, 0, "f1", "/bin/app", 4);      /* the third and last cell */
	add_in(p, 2, 0, "f2", "/bin/app", 8);
	add_in(p, 2, 1, "f3", "/lib/x.so", 16);
	add_in(p, 3, 0, "f1", "/bin/app", 32);     /* past two threads */
	add_in(p, 4, 0, "f1", "/bin/app", 64);
	profile_set_thread_name(p, 4, "late");     /* no row of its own to name */
	s = profile_snapshot(p, 1, 1);
	assert_int_equal(s->n_threads, 3);
	assert_int_equal(s->threads[0].tid, PROFILE_TID_OTHER);
	assert_string_equal(s->threads[0].comm, "[other threads]");
	assert_int_equal(s->threads[0].samples[0], 96);
	assert_int_equal(must_thread(s, 2)->samples[0], 12);
	assert_int_equal(must_thread(s, 2)->samples[1], 16);
	assert_int_equal(must_thread(s, 1)->samples[0] + must_thread(s, 2)->samples[0] +
			 s->threads[0].samples[0], s->ev[0].samples);
	assert_int_equal(must_find(s, "f1", "/bin/app")->samples[0], 101);
	snapshot_free(s);

	profile_set_thread_filter(p, 2);
	add_in(p, 2, 0, "f2", "/bin/app", 1);
	s = profile_snapshot(p, 2, 1);
	assert_int_equal(s->n_funcs, 2);
	assert_int_equal(must_find(s, "f1", "/bin/app")->samples[0], 4);
	const struct snap_func *rest = must_find(s, "[other functions]", "[per-thread table full]");
	assert_int_equal(rest->samples[0], 9);
	assert_int_equal(rest->samples[1], 16);
	assert_int_equal(rest->window[0], 1);
	assert_int_equal(rest->window[1], 0);
	snapshot_free(s);

	/* a thread whose functions all fit has no such row */
	profile_set_thread_filter(p, 1);
	s = profile_snapshot(p, 3, 1);
	assert_int_equal(s->n_funcs, 2);
	assert_null(find(s, "[other functions]", "[per-thread table full]"));
	snapshot_free(s);

	profile_set_thread_filter(p, PROFILE_TID_OTHER);
	s = profile_snapshot(p, 4, 1);
	assert_int_equal(s->n_funcs, 1);
	assert_int_equal(must_find(s, "[other functions]", "[per-thread table full]")->samples[0],
			 96);
	snapshot_free(s);
	profile_free(p);
}


/* System-wide: a row per process (named, owned, ended), each function's top
 * process and count, a process zoom with its own threads only, and a forked
 * process taking its parent's name and owner. */
static void test_processes(void **state)
{
	(void)state;
	struct profile *p = new_profile();
	profile_track_processes(p);
	profile_set_process(p, 10, "shell", "alice");
	profile_process_fork(p, 20, 10);       /* a child, not exec'd yet */
	profile_set_process(p, 30, "db", "bob");
	profile_add_pid(p, 0, 10, 10, 0x1000, "f", "/bin/x", 2);
	profile_add_pid(p, 0, 20, 21, 0x1000, "f", "/bin/x", 5);   /* thread 21 of 20 */
	profile_add_pid(p, 0, 30, 30, 0x2000, "g", "/bin/db", 3);
	profile_process_exit(p, 20);
	assert_true(profile_process_named(p, 20));
	assert_false(profile_process_named(p, 40));

	struct snapshot *s = profile_snapshot(p, 1, 1);
	assert_non_null(s);
	assert_true(s->system_wide);
	assert_int_equal(s->process, -1);
	assert_int_equal(s->n_procs, 3);
	assert_int_equal(s->procs[0].tid, 20);     /* sorted by samples */
	assert_string_equal(s->procs[0].comm, "shell");
	assert_string_equal(s->procs[0].user, "alice");
	assert_true(s->procs[0].ended);
	assert_false(snapshot_process(s, 30)->ended);
	const struct snap_func *f = find(s, "f", "/bin/x");
	assert_non_null(f);
	assert_int_equal(f->nprocs, 2);
	assert_int_equal(f->pid, 20);              /* 5 samples against 2 */
	assert_string_equal(f->comm, "shell");
	snapshot_free(s);

	profile_set_process_filter(p, 20);
	s = profile_snapshot(p, 2, 1);
	assert_int_equal(s->process, 20);
	assert_int_equal(s->n_funcs, 1);
	assert_int_equal(s->funcs[0].samples[0], 5);
	assert_int_equal(s->funcs[0].pid, 20);
	assert_int_equal(s->n_threads, 1);         /* the process's threads only */
	assert_int_equal(s->threads[0].tid, 21);
	assert_int_equal(s->threads[0].pid, 20);
	assert_int_equal(s->ev[0].samples, 10);    /* totals stay the system's */
	snapshot_free(s);
	profile_free(p);
}

/* Growth of the thread, cell and address tables: every thread and every
 * (function, thread) pair keeps its own counts as the tables grow. */
static void test_many_threads(void **state)
{
	enum { THREADS = 3000, FUNCS = 3 };
	struct profile *p = new_profile();
	static const char *const names[FUNCS] = { "f0", "f1", "f2" };
	struct snapshot *s;

	(void)state;
	for (uint32_t t = 1; t <= THREADS; t++)
		for (int f = 0; f < FUNCS; f++)
			profile_add(p, 0, t, 0x1000 * t + (uint64_t)f, names[f], "/bin/app",
				    t + (uint64_t)f);
	s = profile_snapshot(p, 1, 1);
	assert_int_equal(s->n_threads, THREADS);
	for (uint32_t t = 1; t <= THREADS; t++)
		assert_int_equal(must_thread(s, t)->samples[0], 3 * t + 3);
	snapshot_free(s);
	for (uint32_t t = 1; t <= THREADS; t += 499) {
		profile_set_thread_filter(p, t);
		s = profile_snapshot(p, 2, 1);
		assert_int_equal(s->n_funcs, FUNCS);
		for (int f = 0; f < FUNCS; f++)
			assert_int_equal(must_find(s, names[f], "/bin/app")->samples[0],
					 t + (uint64_t)f);
		snapshot_free(s);
	}
	struct ip_counts *c = profile_ip_counts(p, "f1", "/bin/app");
	assert_non_null(c);
	assert_int_equal(c->n, THREADS);
	for (size_t i = 0; i < c->n; i++) {
		assert_int_equal(c->ips[i].ip, 0x1000 * (i + 1) + 1);   /* by address */
		assert_int_equal(c->ips[i].samples[0], i + 2);
	}
	free(c);
	profile_free(p);
}

/* The default bound, 32768 threads: the next ones share the OTHER row. */
static void test_default_thread_limit(void **state)
{
	enum { MAX = 32768 };
	struct profile *p = new_profile();

	(void)state;
	for (uint32_t t = 1; t <= MAX + 3; t++)
		add_in(p, t, 0, "f", "/bin/app", 1);
	profile_thread_fork(p, MAX + 10, 1);   /* no row for it either */
	struct snapshot *s = profile_snapshot(p, 1, 1);
	assert_int_equal(s->n_threads, MAX + 1);
	assert_int_equal(s->threads[0].tid, PROFILE_TID_OTHER);   /* the most samples */
	assert_int_equal(must_thread(s, PROFILE_TID_OTHER)->samples[0], 3);
	assert_int_equal(must_thread(s, MAX)->samples[0], 1);
	assert_null(snapshot_thread(s, MAX + 1));
	assert_null(snapshot_thread(s, MAX + 10));
	assert_int_equal(s->ev[0].samples, MAX + 3);
	snapshot_free(s);
	profile_free(p);
}

static int count_ip(void *arg, uint64_t ip, const char *name, const char *module,
		    const uint64_t *samples)
{
	uint64_t *n = arg;

	(void)name, (void)module;
	n[0]++;
	n[1] += samples[0];
	n[2] += ip == 7 ? samples[0] : 0;
	return 0;
}

/* System-wide, past 2^18 addresses the new ones are not counted per
 * address (the function still counts them); the known ones still are. */
static void test_ip_limit(void **state)
{
	enum { MAX = 1 << 18 };
	struct profile *p = new_profile();
	uint64_t n[3] = { 0 };

	(void)state;
	profile_track_processes(p);
	for (uint64_t ip = 0; ip < MAX + 100; ip++)
		profile_add_pid(p, 0, 1, 1, ip, "f", "/bin/app", 1);
	profile_add_pid(p, 0, 1, 1, 7, "f", "/bin/app", 5);
	assert_int_equal(profile_foreach_ip(p, count_ip, n), 0);
	assert_int_equal(n[0], MAX);
	assert_int_equal(n[1], MAX + 5);
	assert_int_equal(n[2], 6);
	struct snapshot *s = profile_snapshot(p, 1, 1);
	assert_int_equal(must_find(s, "f", "/bin/app")->samples[0], MAX + 105);
	snapshot_free(s);
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events_copied),
		cmocka_unit_test(test_sorted_by_first_event),
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_percent),
		cmocka_unit_test(test_same_name_two_modules),
		cmocka_unit_test(test_unknown_names),
		cmocka_unit_test(test_bad_event_index_ignored),
		cmocka_unit_test(test_strings_owned),
		cmocka_unit_test(test_symbols_freed),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_set_scaled),
		cmocka_unit_test(test_modules),
		cmocka_unit_test(test_ip_counts),
		cmocka_unit_test(test_many_functions),
		cmocka_unit_test(test_thread_counts),
		cmocka_unit_test(test_thread_names),
		cmocka_unit_test(test_thread_lives),
		cmocka_unit_test(test_thread_filter),
		cmocka_unit_test(test_thread_limits),
		cmocka_unit_test(test_processes),
		cmocka_unit_test(test_many_threads),
		cmocka_unit_test(test_default_thread_limit),
		cmocka_unit_test(test_ip_limit),
		cmocka_unit_test(test_ip_reused),
		cmocka_unit_test(test_row_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
