/*
 * avx512 [vector|strings] [SECONDS]
 *
 * Built with -mavx512f: EVEX code for the asm view and its tests
 * (tests/e2e/annotate-evex.sh compares its bytes with objdump whatever the
 * host; it runs only on a CPU with AVX-512F and says so otherwise).
 *
 *   vector (default)  the AVX-512 kernels below (masked loads and stores,
 *                     gather, scatter, compares into masks, compressing
 *                     store, ternary logic, broadcast); avx_scale_bcast
 *                     takes about half of the time
 *   strings           memcmp and strcmp of long equal buffers, half the
 *                     calls each: glibc runs them in __memcmp_evex_movbe
 *                     and __strcmp_evex on AVX-512 hosts
 *
 * Runs until the process has used SECONDS (default 3.0) of CPU time.
 * Prints nothing.
 */
#include "common.h"

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define N 4096        /* floats per array: 16 KiB, in L1 */
#define TAIL 13       /* odd length: the last chunk is a masked one */
#define STR_LEN 3000  /* bytes compared per memcmp / strcmp call */

float avx_saxpy_tail(float *y, const float *x, float a, size_t n);
float avx_gather_sum(const float *table, const int *idx, size_t n);
void avx_scatter(float *table, const int *idx, const float *v, size_t n);
size_t avx_compress_below(float *out, const float *in, size_t n, float limit);
long avx_find_unequal(const int *a, const int *b, size_t n);
void avx_ternlog(int *dst, const int *a, const int *b, size_t n);
float avx_scale_bcast(const float *x, const float *scale, size_t n);

static float xs[N] __attribute__((aligned(64)));
static float ys[N] __attribute__((aligned(64)));
static float outs[N] __attribute__((aligned(64)));
static int idx[N] __attribute__((aligned(64)));
static int ia[N] __attribute__((aligned(64)));
static int ib[N] __attribute__((aligned(64)));
static char sa[STR_LEN + 1], sb[STR_LEN + 1];
static volatile float fsink;
static volatile long lsink;

/* The mask of the lanes left in a chunk of 16 (all of them but at the end). */
static inline __mmask16 lanes(size_t i, size_t n)
{
	return n - i >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - i)) - 1);
}

/* y = a x + y with masked loads and stores for the tail; returns y[0]. */
KERNEL float avx_saxpy_tail(float *y, const float *x, float a, size_t n)
{
	__m512 va = _mm512_set1_ps(a);

	for (size_t i = 0; i < n; i += 16) {
		__mmask16 m = lanes(i, n);
		__m512 vx = _mm512_maskz_loadu_ps(m, x + i);
		__m512 vy = _mm512_maskz_loadu_ps(m, y + i);
		_mm512_mask_storeu_ps(y + i, m, _mm512_fmadd_ps(va, vx, vy));
	}
	return y[0];
}

/* Sum of table[idx[i]]: 16 gathered loads per iteration. */
KERNEL float avx_gather_sum(const float *table, const int *idx_, size_t n)
{
	__m512 sum = _mm512_setzero_ps();

	for (size_t i = 0; i + 16 <= n; i += 16) {
		__m512i vi = _mm512_loadu_si512(idx_ + i);
		sum = _mm512_add_ps(sum, _mm512_i32gather_ps(vi, table, 4));
	}
	return _mm512_reduce_add_ps(sum);
}

/* table[idx[i]] = v[i]: 16 scattered stores per iteration. */
KERNEL void avx_scatter(float *table, const int *idx_, const float *v, size_t n)
{
	for (size_t i = 0; i + 16 <= n; i += 16) {
		__m512i vi = _mm512_loadu_si512(idx_ + i);
		_mm512_i32scatter_ps(table, vi, _mm512_loadu_ps(v + i), 4);
	}
}

/* Copies the elements below LIMIT (a compare into a mask register, then a
 * compressing store); returns how many. */
KERNEL size_t avx_compress_below(float *out, const float *in, size_t n, float limit)
{
	__m512 vl = _mm512_set1_ps(limit);
	size_t k = 0;

	for (size_t i = 0; i + 16 <= n; i += 16) {
		__m512 v = _mm512_loadu_ps(in + i);
		__mmask16 m = _mm512_cmp_ps_mask(v, vl, _CMP_LT_OQ);
		_mm512_mask_compressstoreu_ps(out + k, m, v);
		k += (size_t)__builtin_popcount(m);
	}
	return k;
}

/* Index of the first a[i] != b[i] or a[i] > b[i] unsigned, or -1: integer
 * compares into masks, a branch on kortest. */
KERNEL long avx_find_unequal(const int *a, const int *b, size_t n)
{
	for (size_t i = 0; i + 16 <= n; i += 16) {
		__m512i va = _mm512_loadu_si512(a + i), vb = _mm512_loadu_si512(b + i);
		__mmask16 ne = _mm512_cmpneq_epi32_mask(va, vb);
		__mmask16 gt = _mm512_cmpgt_epu32_mask(va, vb);
		if (!_mm512_kortestz(ne, gt))
			return (long)i + __builtin_ctz((unsigned)(ne | gt));
	}
	return -1;
}

/* dst = a ^ b ^ dst in one ternary-logic instruction per 16 ints. */
KERNEL void avx_ternlog(int *dst, const int *a, const int *b, size_t n)
{
	for (size_t i = 0; i + 16 <= n; i += 16) {
		__m512i d = _mm512_loadu_si512(dst + i);
		d = _mm512_ternarylogic_epi32(d, _mm512_loadu_si512(a + i),
					      _mm512_loadu_si512(b + i), 0x96);
		_mm512_storeu_si512(dst + i, d);
	}
}

/* The product of x[0..15] and every scale[j], lane by lane: each scale
 * a broadcast memory operand ({1to16}) of the multiply. */
KERNEL float avx_scale_bcast(const float *x, const float *scale, size_t n)
{
	__m512 prod = _mm512_loadu_ps(x);

	for (size_t j = 0; j < n; j++)
		prod = _mm512_mul_ps(prod, _mm512_set1_ps(scale[j]));
	return _mm512_reduce_add_ps(prod);
}

static void fill(void)
{
	for (int i = 0; i < N; i++) {
		xs[i] = (float)(i % 97) / 97.0f;
		ys[i] = 1.0f;
		idx[i] = (i * 37) % N;
		ia[i] = ib[i] = i;
	}
	memset(sa, 'x', STR_LEN);
	memset(sb, 'x', STR_LEN);
}

static void run_vector(void)
{
	fsink = avx_saxpy_tail(ys, xs, 0.5f, N - TAIL);
	fsink = avx_saxpy_tail(ys, xs, -0.5f, N - TAIL);
	fsink = avx_gather_sum(ys, idx, N);
	avx_scatter(outs, idx, xs, N);
	lsink = (long)avx_compress_below(outs, xs, N, 0.5f);
	lsink = avx_find_unequal(ia, ib, N);
	avx_ternlog(ia, ib, ib, N);
	fsink = avx_scale_bcast(xs, ys, N);
}

/* The results are used whole: GCC would turn memcmp() == 0 into a call of
 * __memcmpeq. */
static void run_strings(void)
{
	const char *volatile a = sa, *volatile b = sb;
	long r = 0;

	for (int i = 0; i < 64; i++) {
		r += memcmp(a, b, STR_LEN);
		r += strcmp(a, b);
	}
	lsink = r;
}

/* Built without AVX-512 (the rest of the file is built with it): on a CPU
 * without AVX-512F the check below runs first and says why it stops.  fputs,
 * not fprintf: _FORTIFY_SOURCE (Debian's package build) makes fprintf an
 * always_inline wrapper, which cannot be inlined across the target change. */
__attribute__((target("no-avx512f"))) int main(int argc, char **argv)
{
	double seconds = 3.0;
	int strings = 0;

	/* First: everything else here was built for AVX-512 (AVX at least). */
	if (!__builtin_cpu_supports("avx512f")) {
		fputs("avx512: this CPU has no AVX-512F\n", stderr);
		return 3;
	}
	if (argc > 1 && (strcmp(argv[1], "vector") == 0 || strcmp(argv[1], "strings") == 0)) {
		strings = strcmp(argv[1], "strings") == 0;
		argc--, argv++;
	}
	if (argc > 2 || (argc == 2 && wl_parse_seconds(argv[1], &seconds) != 0)) {
		fputs("usage: avx512 [vector|strings] [SECONDS]  (default 3.0)\n", stderr);
		return 2;
	}
	fill();
	while (wl_cpu_seconds() < seconds) {
		if (strings)
			run_strings();
		else
			run_vector();
	}
	return 0;
}
