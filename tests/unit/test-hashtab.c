/* lib/hashtab: the one hash table (slots indexing the caller's array), the
 * string pool and the growth rule, against a plain array searched by hand. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/hashtab.h"

static bool u64_eq(const void *key, uint32_t idx, const void *ctx)
{
	const uint64_t *keys = ctx;

	return keys[idx] == *(const uint64_t *)key;
}

/* 100,000 keys with colliding low bits: every one found at its index, none
 * that was not added, across many grows. */
static void test_table_against_array(void **state)
{
	enum { N = 100000 };
	uint64_t *keys = malloc(N * sizeof(*keys));
	struct hashtab t = { 0 };

	(void)state;
	assert_non_null(keys);
	for (uint32_t i = 0; i < N; i++) {
		keys[i] = (uint64_t)i << 20;  /* the same low 20 bits */
		assert_int_equal(hashtab_find(&t, hash_mix(keys[i]), &keys[i], u64_eq, keys),
				 HASHTAB_NONE);
		assert_int_equal(hashtab_add(&t, hash_mix(keys[i]), i), 0);
	}
	assert_int_equal(t.n, N);
	assert_true(t.cap >= 2 * N && (t.cap & (t.cap - 1)) == 0);
	for (uint32_t i = 0; i < N; i++)
		assert_int_equal(hashtab_find(&t, hash_mix(keys[i]), &keys[i], u64_eq, keys), i);
	uint64_t absent = 12345;
	assert_int_equal(hashtab_find(&t, hash_mix(absent), &absent, u64_eq, keys), HASHTAB_NONE);
	hashtab_clear(&t);
	assert_int_equal(t.n, 0);
	assert_int_equal(hashtab_find(&t, hash_mix(keys[7]), &keys[7], u64_eq, keys), HASHTAB_NONE);
	assert_int_equal(hashtab_add(&t, hash_mix(keys[7]), 7), 0);
	assert_int_equal(hashtab_find(&t, hash_mix(keys[7]), &keys[7], u64_eq, keys), 7);
	hashtab_free(&t);
	free(keys);
}

/* Equal 32-bit hashes: the comparison decides. */
static void test_same_hash(void **state)
{
	uint64_t keys[3] = { 1, 2, 3 };
	struct hashtab t = { 0 };

	(void)state;
	for (uint32_t i = 0; i < 3; i++)
		assert_int_equal(hashtab_add(&t, 0xabcdef, i), 0);
	for (uint32_t i = 0; i < 3; i++)
		assert_int_equal(hashtab_find(&t, 0xabcdef, &keys[i], u64_eq, keys), i);
	assert_int_equal(hashtab_add(&t, 1, HASHTAB_NONE), -1);
	hashtab_free(&t);
	hashtab_free(&t);  /* twice: harmless */
}

static void test_hashes(void **state)
{
	(void)state;
	/* FNV-1a 64's published test vectors */
	assert_true(hash_str("") == 0xcbf29ce484222325ull);
	assert_true(hash_str("a") == 0xaf63dc4c8601ec8cull);
	assert_true(hash_str("foobar") == 0x85944171f73967e8ull);
	assert_true(hash_bytes("ab\0c", 4) != hash_bytes("ab\0d", 4));
	assert_true(hash_mix(1) != hash_mix(2));
	assert_true(hash_mix(0) == 0);
}

static void test_strpool(void **state)
{
	struct strpool p = { 0 };
	char buf[32], big[100000];

	(void)state;
	const char *a = strpool_intern(&p, "work_60");
	snprintf(buf, sizeof(buf), "work_%d", 60);
	assert_ptr_equal(strpool_intern(&p, buf), a);   /* equal strings: one copy */
	assert_ptr_not_equal(a, buf);
	assert_ptr_equal(strpool_find(&p, "work_60"), a);
	assert_null(strpool_find(&p, "work_30"));
	for (int i = 0; i < 20000; i++) {
		snprintf(buf, sizeof(buf), "fn%d", i);
		const char *s = strpool_intern(&p, buf);
		assert_string_equal(s, buf);
	}
	assert_ptr_equal(strpool_find(&p, "work_60"), a);  /* stable across grows */
	assert_string_equal(strpool_find(&p, "fn19999"), "fn19999");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	const char *b = strpool_intern(&p, big);        /* larger than a block */
	assert_non_null(b);
	assert_ptr_equal(strpool_intern(&p, big), b);
	assert_ptr_equal(strpool_intern(&p, ""), strpool_intern(&p, ""));
	strpool_free(&p);
}

static void test_grow(void **state)
{
	int *v = NULL;
	size_t alloc = 0;

	(void)state;
	assert_int_equal(GROW(v, 1, alloc), 0);
	assert_int_equal(alloc, 16);
	assert_int_equal(GROW(v, 16, alloc), 0);
	assert_int_equal(alloc, 16);   /* fits: unchanged */
	assert_int_equal(GROW(v, 17, alloc), 0);
	assert_int_equal(alloc, 32);
	assert_int_equal(GROW(v, 1000, alloc), 0);
	assert_int_equal(alloc, 1024);
	for (int i = 0; i < 1000; i++)
		v[i] = i;
	int *keep = v;
	assert_int_equal(GROW(v, SIZE_MAX / 2, alloc), -1);  /* overflows: unchanged */
	assert_ptr_equal(v, keep);
	assert_int_equal(alloc, 1024);
	assert_int_equal(v[999], 999);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_against_array),
		cmocka_unit_test(test_same_hash),
		cmocka_unit_test(test_hashes),
		cmocka_unit_test(test_strpool),
		cmocka_unit_test(test_grow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
