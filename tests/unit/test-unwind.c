/* The sample unwinder (engine/unwind.c) on real stacks of this process.
 *
 * fn_a -> fn_b -> fn_c are built without frame pointers (Makefile.am), so
 * only .eh_frame can unwind them.  fn_c captures its registers and copies
 * the stack above its SP as the kernel would for PERF_SAMPLE_REGS_USER and
 * PERF_SAMPLE_STACK_USER (tests/unit/unwind-capture.h); the frames are then
 * unwound from that copy and named with engine/symbols.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine/symbols.h"
#include "engine/unwind.h"
#include "engine/unwind-priv.h"   /* steps.on */
#include "tests/unit/unwind-capture.h"

#define MAX_FRAMES 128

static struct uw_capture *cap;   /* where fn_c and compare_capture capture */
static struct uw_maps maps;
static struct symtab *syms;

static __attribute__((noinline, noclone)) int fn_c(int x)
{
	UW_CAPTURE(cap);
	uw_capture_finish(cap, UW_STACK_MAX);
	return x + (int)(cap->sample.stack_size & 1);
}

static __attribute__((noinline, noclone)) int fn_b(int x)
{
	return fn_c(x * 3) * 2;  /* work after the call: no tail call */
}

static __attribute__((noinline, noclone)) int fn_a(int x)
{
	return fn_b(x + 5) - 1;
}

static const char *name_of(uint64_t ip)
{
	struct sym_info si;

	return symtab_lookup(syms, ip, &si) && si.name ? si.name : "?";
}

static int setup(void **state)
{
	(void)state;
	cap = calloc(1, sizeof(*cap));
	syms = symtab_new(NULL);
	uw_maps_load(&maps);
	if (!cap || !syms || maps.n == 0 || symtab_add_proc_maps(syms, getpid()) < 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	uw_maps_free(&maps);
	symtab_free(syms);
	free(cap);
	return 0;
}

static size_t unwind(struct unwinder *u, const struct rec_sample *s, uint64_t *ips, size_t max,
		     bool *truncated)
{
	return unwind_sample(u, s, uw_maps_find, &maps, ips, max, truncated);
}

static void print_frames(const char *what, const uint64_t *ips, size_t n, bool truncated)
{
	fprintf(stderr, "%s: %zu frames%s\n", what, n, truncated ? ", truncated" : "");
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "  #%zu %#" PRIx64 " %s\n", i, ips[i], name_of(ips[i]));
}

/* Every entry after the first lies in a mapping (no garbage frames). */
static void assert_mapped(const uint64_t *ips, size_t n)
{
	for (size_t i = 1; i < n; i++)
		assert_non_null(uw_maps_find(&maps, ips[i]));
}

static bool has_frame(const uint64_t *ips, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(name_of(ips[i]), name) == 0)
			return true;
	return false;
}

/* c, b, a, the test, ... main, down to the natural end of the stack. */
static void test_chain(void **state)
{
	struct unwinder *u = unwinder_new();
	uint64_t ips[MAX_FRAMES], again[MAX_FRAMES];
	bool truncated, trunc2;
	size_t n, n2;

	(void)state;
	assert_non_null(u);
	assert_true(fn_a(1) > 0);
	n = unwind(u, &cap->sample, ips, MAX_FRAMES, &truncated);
	print_frames("chain", ips, n, truncated);
	assert_true(n >= 5);
	assert_int_equal(ips[0], cap->sample.ip);
	assert_string_equal(name_of(ips[0]), "fn_c");
	assert_string_equal(name_of(ips[1]), "fn_b");
	assert_string_equal(name_of(ips[2]), "fn_a");
	assert_string_equal(name_of(ips[3]), "test_chain");
	assert_true(has_frame(ips, n, "main"));
	assert_false(truncated);   /* the whole stack was copied: up to _start */
	assert_mapped(ips, n);

	/* warm caches, and after a flush: the same stack */
	for (int round = 0; round < 3; round++) {
		if (round == 2)
			unwinder_flush(u);
		n2 = unwind(u, &cap->sample, again, MAX_FRAMES, &trunc2);
		assert_int_equal(n2, n);
		assert_memory_equal(again, ips, n * sizeof(ips[0]));
		assert_int_equal(trunc2, truncated);
	}
	unwinder_flush_path(u, maps.m[0].path);
	n2 = unwind(u, &cap->sample, again, MAX_FRAMES, &trunc2);
	assert_int_equal(n2, n);
	assert_memory_equal(again, ips, n * sizeof(ips[0]));
	unwinder_free(u);
}

/* A copy too small for the whole stack: a correct prefix, truncated. */
static void test_small_stack(void **state)
{
	static const uint64_t sizes[] = { 0, 8, 64, 256, 1024 };
	struct unwinder *u = unwinder_new();
	uint64_t full[MAX_FRAMES], ips[MAX_FRAMES];
	bool truncated;
	size_t nfull, n;

	(void)state;
	assert_non_null(u);
	fn_a(2);
	nfull = unwind(u, &cap->sample, full, MAX_FRAMES, &truncated);
	assert_false(truncated);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct rec_sample s = cap->sample;
		s.stack_size = sizes[i];
		n = unwind(u, &s, ips, MAX_FRAMES, &truncated);
		if (sizes[i] == 64)
			print_frames("64-byte stack", ips, n, truncated);
		assert_true(truncated);
		assert_in_range(n, 1, nfull - 1);
		assert_memory_equal(ips, full, n * sizeof(ips[0]));
		assert_mapped(ips, n);
	}
	unwinder_free(u);
}

/* A stack of garbage: the first return address is no code.  One frame. */
static void test_garbage_stack(void **state)
{
	struct unwinder *u = unwinder_new();
	uint8_t *junk = malloc(4096);
	uint64_t ips[MAX_FRAMES];
	bool truncated;
	size_t n;

	(void)state;
	assert_non_null(u);
	assert_non_null(junk);
	fn_a(3);
	memset(junk, 0xab, 4096);
	struct rec_sample s = cap->sample;
	s.stack = junk;
	s.stack_size = 4096;
	n = unwind(u, &s, ips, MAX_FRAMES, &truncated);
	assert_true(truncated);
	assert_int_equal(n, 1);
	assert_int_equal(ips[0], s.ip);
	free(junk);
	unwinder_free(u);
}

/* An IP in no mapping: that IP alone. */
static void test_ip_unmapped(void **state)
{
	struct unwinder *u = unwinder_new();
	uint64_t ips[MAX_FRAMES], regs[PERF_REG_X86_64_MAX];
	bool truncated = false;
	size_t n;

	(void)state;
	assert_non_null(u);
	fn_a(4);
	struct rec_sample s = cap->sample;
	memcpy(regs, cap->packed, sizeof(regs));
	regs[PERF_REG_X86_IP] = 0x10;  /* IP's packed index is its number: bits 0..8 all set */
	s.regs_user.regs = regs;
	s.ip = 0x10;
	assert_null(uw_maps_find(&maps, 0x10));
	n = unwind(u, &s, ips, MAX_FRAMES, &truncated);
	assert_int_equal(n, 1);
	assert_int_equal(ips[0], 0x10);
	assert_true(truncated);
	unwinder_free(u);
}

/* No registers (abi NONE), or no SP among them: the IP alone. */
static void test_no_regs(void **state)
{
	struct unwinder *u = unwinder_new();
	uint64_t ips[MAX_FRAMES];
	bool truncated = false;

	(void)state;
	assert_non_null(u);
	fn_a(5);
	struct rec_sample s = cap->sample;
	s.regs_user.abi = PERF_SAMPLE_REGS_ABI_NONE;
	s.regs_user.regs = NULL;
	s.regs_user.n = 0;
	s.regs_user.mask = 0;
	assert_int_equal(unwind(u, &s, ips, MAX_FRAMES, &truncated), 1);
	assert_true(truncated);

	s = cap->sample;
	s.regs_user.mask = 0x7f;   /* AX..BP: no SP */
	s.regs_user.n = 7;
	truncated = false;
	assert_int_equal(unwind(u, &s, ips, MAX_FRAMES, &truncated), 1);
	assert_true(truncated);
	assert_int_equal(unwind(u, &cap->sample, ips, 0, &truncated), 0);
	unwinder_free(u);
}

/* MAX frames reached before the end: truncated, a prefix. */
static void test_max_frames(void **state)
{
	struct unwinder *u = unwinder_new();
	uint64_t full[MAX_FRAMES], ips[MAX_FRAMES];
	bool truncated;
	size_t nfull;

	(void)state;
	assert_non_null(u);
	fn_a(6);
	nfull = unwind(u, &cap->sample, full, MAX_FRAMES, &truncated);
	for (size_t max = 1; max < nfull; max++) {
		assert_int_equal(unwind(u, &cap->sample, ips, max, &truncated), max);
		assert_true(truncated);
		assert_memory_equal(ips, full, max * sizeof(ips[0]));
	}
	unwinder_free(u);
}

/* Through a library: a qsort comparator's stack crosses libc.so's frames
 * (libasan.so's, whose qsort interceptor sorts in a sanitizer build), found
 * through the library's own .eh_frame_hdr at its load bias. */
static int compare_capture(const void *x, const void *y)
{
	static bool done;
	int a = *(const int *)x, b = *(const int *)y;

	if (!done) {
		done = true;
		UW_CAPTURE(cap);
		uw_capture_finish(cap, UW_STACK_MAX);
	}
	return (a > b) - (a < b);
}

static void test_through_libc(void **state)
{
	struct unwinder *u = unwinder_new();
	int v[] = { 3, 1, 2 };
	uint64_t ips[MAX_FRAMES];
	bool truncated, in_lib = false;
	char exe[4096];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t n, i;

	(void)state;
	assert_non_null(u);
	assert_true(len > 0);
	exe[len] = '\0';
	qsort(v, 3, sizeof(v[0]), compare_capture);
	n = unwind(u, &cap->sample, ips, MAX_FRAMES, &truncated);
	print_frames("qsort", ips, n, truncated);
	assert_string_equal(name_of(ips[0]), "compare_capture");
	for (i = 1; i < n && strcmp(name_of(ips[i]), "test_through_libc") != 0; i++) {
		const struct unwind_map *m = uw_maps_find(&maps, ips[i]);
		assert_non_null(m);
		in_lib |= strcmp(m->path, exe) != 0;
	}
	assert_true(in_lib);
	assert_true(i < n);   /* test_through_libc was reached */
	assert_false(truncated);
	assert_mapped(ips, n);
	unwinder_free(u);
}

/* A sample at the first instruction of a vDSO function that fn_c called:
 * the return address pushed on top of fn_c's stack.  The vDSO is no file:
 * its unwind info comes from our own copy of the image. */
static void test_vdso_frame(void **state)
{
	struct unwinder *u = unwinder_new();
	uint64_t full[MAX_FRAMES], ips[MAX_FRAMES], regs[PERF_REG_X86_64_MAX];
	uint8_t *stack = malloc(UW_STACK_MAX + 8);
	struct sym_info si;
	bool truncated;
	size_t nfull, n;

	(void)state;
	assert_non_null(u);
	assert_non_null(stack);
	if (!getauxval(AT_SYSINFO_EHDR)) {   /* e.g. under valgrind */
		print_message("skipped: this process has no vDSO (valgrind?)\n");
		free(stack);
		unwinder_free(u);
		skip();
	}
	assert_true(symtab_find(syms, "clock_gettime", "[vdso]", &si) ||
		    symtab_find(syms, "__vdso_clock_gettime", "[vdso]", &si));
	fn_a(7);
	nfull = unwind(u, &cap->sample, full, MAX_FRAMES, &truncated);
	struct rec_sample s = cap->sample;
	memcpy(stack, &s.ip, 8);          /* the return address: fn_c's IP */
	memcpy(stack + 8, s.stack, s.stack_size);
	memcpy(regs, s.regs_user.regs, sizeof(regs));
	regs[PERF_REG_X86_SP] -= 8;       /* SP's and IP's packed indexes are their numbers */
	regs[PERF_REG_X86_IP] = si.start;
	s.regs_user.regs = regs;
	s.ip = si.start;
	s.stack = stack;
	s.stack_size += 8;
	n = unwind(u, &s, ips, MAX_FRAMES, &truncated);
	print_frames("vdso", ips, n, truncated);
	assert_int_equal(n, nfull + 1);
	assert_false(truncated);
	assert_int_equal(ips[0], si.start);
	/* fn_c's IP came back as a return address: less 1, still in fn_c */
	assert_int_equal(ips[1], full[0] - 1);
	assert_string_equal(name_of(ips[1]), "fn_c");
	assert_memory_equal(ips + 2, full + 1, (nfull - 1) * sizeof(ips[0]));
	free(stack);
	unwinder_free(u);
}

/* CYCTOP_UNWIND_STEPS is read by each unwinder when it is made, not
 * memoized for the process: an unwinder made after it changed follows it. */
static void test_steps_switch_per_unwinder(void **state)
{
	struct unwinder *on, *off;

	(void)state;
	unsetenv("CYCTOP_UNWIND_STEPS");
	on = unwinder_new();
	setenv("CYCTOP_UNWIND_STEPS", "0", 1);
	off = unwinder_new();
	unsetenv("CYCTOP_UNWIND_STEPS");
	assert_non_null(on);
	assert_non_null(off);
	assert_int_equal(on->steps.on, UW_MACHINE == EM_X86_64);
	assert_false(off->steps.on);
	unwinder_free(off);
	unwinder_free(on);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_small_stack),
		cmocka_unit_test(test_garbage_stack),
		cmocka_unit_test(test_ip_unmapped),
		cmocka_unit_test(test_no_regs),
		cmocka_unit_test(test_max_frames),
		cmocka_unit_test(test_through_libc),
		cmocka_unit_test(test_vdso_frame),
		cmocka_unit_test(test_steps_switch_per_unwinder),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
