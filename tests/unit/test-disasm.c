/* Tests of engine/disasm.c: hand-assembled x86-64 bytes through Zydis,
 * then a function of this test program itself, checked against objdump. */
#include "engine/disasm.h"
#include "engine/symbols.h"

#include <elf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#define START 0x401000u
/* Where the calls of the hand-assembled functions go. */
#define CALLEE 0x100u

/* off  bytes             asm                           memory */
static const uint8_t code[] = {
	0x55,                   /* 00 push rbp */
	0x48, 0x89, 0xe5,       /* 01 mov rbp, rsp */
	0x8b, 0x07,             /* 04 mov eax, [rdi]              load 4 */
	0x89, 0x07,             /* 06 mov [rdi], eax              store 4 */
	0x83, 0x07, 0x01,       /* 08 add dword ptr [rdi], 0x1    load 4, store 4 */
	0x48, 0x8d, 0x04, 0x07, /* 0b lea rax, [rdi+rax*1]        none */
	0xe8, 0xec, 0, 0, 0,    /* 0f call start+0x100 */
	0x48, 0x8b, 0x0e,       /* 14 mov rcx, [rsi]   loop head  load 8 */
	0x48, 0x83, 0xc6, 0x08, /* 17 add rsi, 0x8 */
	0x75, 0xf7,             /* 1b jne 0x14         loop tail */
	0xeb, 0x02,             /* 1d jmp 0x21 */
	0xff, 0xe0,             /* 1f jmp rax */
	0x5d,                   /* 21 pop rbp */
	0xc3,                   /* 22 ret */
};

struct want {
	unsigned off, size;
	enum flow_kind kind;
	unsigned load, store;
	const char *text;       /* "%T": the target's address in hex */
	int target;             /* offset of the target, -1 none */
};

static const struct want code_want[] = {
	{ 0x00, 1, FLOW_PLAIN, 0, 0, "push rbp", -1 },
	{ 0x01, 3, FLOW_PLAIN, 0, 0, "mov rbp, rsp", -1 },
	{ 0x04, 2, FLOW_PLAIN, 4, 0, "mov eax, dword ptr [rdi]", -1 },
	{ 0x06, 2, FLOW_PLAIN, 0, 4, "mov dword ptr [rdi], eax", -1 },
	{ 0x08, 3, FLOW_PLAIN, 4, 4, "add dword ptr [rdi], 0x1", -1 },
	{ 0x0b, 4, FLOW_PLAIN, 0, 0, "lea rax, [rdi+rax*1]", -1 },
	{ 0x0f, 5, FLOW_CALL, 0, 0, "call %T <callee>", CALLEE },
	{ 0x14, 3, FLOW_PLAIN, 8, 0, "mov rcx, qword ptr [rsi]", -1 },
	{ 0x17, 4, FLOW_PLAIN, 0, 0, "add rsi, 0x8", -1 },
	{ 0x1b, 2, FLOW_CJUMP, 0, 0, "jne %T <f+0x14>", 0x14 },
	{ 0x1d, 2, FLOW_JUMP, 0, 0, "jmp %T <f+0x21>", 0x21 },
	{ 0x1f, 2, FLOW_IJUMP, 0, 0, "jmp rax", -1 },
	{ 0x21, 1, FLOW_PLAIN, 0, 0, "pop rbp", -1 },
	{ 0x22, 1, FLOW_RET, 0, 0, "ret", -1 },
};

/* The same shape in AArch64 (aarch64-linux-gnu-as, words little-endian);
 * the texts objdump -d writes (binutils 2.40 and 2.44 alike; capstone 4
 * writes "#-0x10" and "cmp w0, #0x1", capstone 5 "mov w0, #1"), but for the
 * 0x a branch target keeps in the asm view ("bl 0x100 <f+0x100>", objdump
 * "bl 100 <f+0x100>"). */
static const uint8_t a64[] = {
	0xfd, 0x7b, 0xbf, 0xa9, /* 00 stp x29, x30, [sp, #-16]!   store 16 */
	0xfd, 0x03, 0x00, 0x91, /* 04 mov x29, sp */
	0x00, 0x00, 0x40, 0xf9, /* 08 ldr x0, [x0]                load 8 */
	0x20, 0x00, 0x00, 0xb9, /* 0c str w0, [x1]                store 4 */
	0x20, 0x00, 0x80, 0x52, /* 10 mov w0, #0x1 (movz) */
	0x3b, 0x00, 0x00, 0x94, /* 14 bl start+0x100 */
	0x1f, 0x04, 0x00, 0x71, /* 18 cmp w0, #0x1     loop head */
	0xe1, 0xff, 0xff, 0x54, /* 1c b.ne 0x18        loop tail */
	0x02, 0x00, 0x00, 0x14, /* 20 b 0x28 */
	0x20, 0x02, 0x1f, 0xd6, /* 24 br x17 */
	0xfd, 0x7b, 0xc1, 0xa8, /* 28 ldp x29, x30, [sp], #16     load 16 */
	0xc0, 0x03, 0x5f, 0xd6, /* 2c ret */
};

static const struct want a64_want[] = {
	{ 0x00, 4, FLOW_PLAIN, 0, 16, "stp x29, x30, [sp, #-16]!", -1 },
	{ 0x04, 4, FLOW_PLAIN, 0, 0, "mov x29, sp", -1 },
	{ 0x08, 4, FLOW_PLAIN, 8, 0, "ldr x0, [x0]", -1 },
	{ 0x0c, 4, FLOW_PLAIN, 0, 4, "str w0, [x1]", -1 },
	{ 0x10, 4, FLOW_PLAIN, 0, 0, "mov w0, #0x1", -1 },
	{ 0x14, 4, FLOW_CALL, 0, 0, "bl %T <callee>", CALLEE },
	{ 0x18, 4, FLOW_PLAIN, 0, 0, "cmp w0, #0x1", -1 },
	{ 0x1c, 4, FLOW_CJUMP, 0, 0, "b.ne %T <f+0x18>", 0x18 },
	{ 0x20, 4, FLOW_JUMP, 0, 0, "b %T <f+0x28>", 0x28 },
	{ 0x24, 4, FLOW_IJUMP, 0, 0, "br x17", -1 },
	{ 0x28, 4, FLOW_PLAIN, 16, 0, "ldp x29, x30, [sp], #16", -1 },
	{ 0x2c, 4, FLOW_RET, 0, 0, "ret", -1 },
};

/* Names START+CALLEE "callee" and the addresses before it "f+0x.." ("f" at
 * the start); nothing else. */
static bool namer(uint64_t addr, char *buf, size_t size, void *arg)
{
	uint64_t start = *(const uint64_t *)arg;

	if (addr == start + CALLEE) {
		snprintf(buf, size, "callee");
		return true;
	}
	if (addr < start || addr >= start + CALLEE)
		return false;
	if (addr == start)
		snprintf(buf, size, "f");
	else
		snprintf(buf, size, "f+0x%" PRIx64, addr - start);
	return true;
}

/* W's text with "%T" replaced by W's target as an ELF address (START -
 * BIAS on); without NAMED, the " <...>" suffix dropped. */
static void want_text(const struct want *w, uint64_t elf_start, bool named, char *buf,
		      size_t size)
{
	const char *t = strstr(w->text, "%T");

	if (!t) {
		snprintf(buf, size, "%s", w->text);
		return;
	}
	snprintf(buf, size, "%.*s0x%" PRIx64 "%s", (int)(t - w->text), w->text,
		 elf_start + (uint64_t)w->target, t + 2);
	if (!named && strstr(buf, " <"))
		*strstr(buf, " <") = '\0';
}

/* F decodes to the N instructions of W, from START (loaded with BIAS). */
static void check_insns(const struct asm_func *f, const struct want *w, size_t n, uint64_t start,
			uint64_t bias, bool named)
{
	char text[ASM_TEXT_MAX];

	assert_non_null(f);
	assert_int_equal(f->start, start);
	assert_int_equal(f->bias, bias);
	assert_int_equal(f->n, n);
	assert_int_equal(f->n_bad, 0);
	assert_false(f->truncated);
	for (size_t i = 0; i < f->n; i++) {
		const struct flow_insn *op = &f->insn[i].op;
		assert_int_equal(op->addr, start + w[i].off);
		assert_int_equal(op->size, w[i].size);
		assert_int_equal(op->kind, w[i].kind);
		assert_int_equal(op->target, w[i].target < 0 ? 0 : start + (uint64_t)w[i].target);
		assert_int_equal(op->load_bytes, w[i].load);
		assert_int_equal(op->store_bytes, w[i].store);
		want_text(&w[i], start - bias, named, text, sizeof(text));
		assert_string_equal(f->insn[i].text, text);
		assert_null(f->insn[i].file);
	}
}

static void check_code(const struct asm_func *f, uint64_t start, uint64_t bias, bool named)
{
	check_insns(f, code_want, sizeof(code_want) / sizeof(code_want[0]), start, bias, named);
	assert_int_equal(f->end, start + sizeof(code));
}

static void test_bytes(void **state)
{
	uint64_t start = START;
	struct asm_func *f = disasm_bytes(EM_X86_64, code, sizeof(code), start, 0, namer, &start);

	(void)state;
	check_code(f, start, 0, true);
	assert_null(f->name);
	asm_func_free(f);
}

static void test_bytes_elsewhere(void **state)
{
	/* Targets follow the runtime address; without a namer, no names. */
	uint64_t start = 0x7f1234560000u;
	struct asm_func *f = disasm_bytes(EM_X86_64, code, sizeof(code), start, 0, namer, &start);

	(void)state;
	check_code(f, start, 0, true);
	asm_func_free(f);
	f = disasm_bytes(EM_X86_64, code, sizeof(code), start, 0, NULL, NULL);
	check_code(f, start, 0, false);
	asm_func_free(f);
}

/* AArch64 by the ELF machine, whatever the host: kinds, targets, memory
 * bytes, objdump's mnemonics; the loop b.ne closes; a word capstone does not
 * decode and a tail shorter than a word. */
static void test_bytes_aarch64(void **state)
{
	uint64_t start = START, bias = 0x1000;
	struct asm_func *f = disasm_bytes(EM_AARCH64, a64, sizeof(a64), start, 0, namer, &start);
	uint8_t odd[] = { 0x20, 0x00, 0x80, 0x52, 0xff, 0xff, 0xff, 0xff, 0xc0, 0x03 };

	(void)state;
	check_insns(f, a64_want, sizeof(a64_want) / sizeof(a64_want[0]), start, 0, true);
	assert_int_equal(f->flow.n_loops, 1);
	assert_int_equal(f->insn[f->flow.loops[0].head].op.addr, start + 0x18);
	asm_func_free(f);
	f = disasm_bytes(EM_AARCH64, a64, sizeof(a64), start, bias, NULL, NULL);
	check_insns(f, a64_want, sizeof(a64_want) / sizeof(a64_want[0]), start, bias, false);
	asm_func_free(f);
	f = disasm_bytes(EM_AARCH64, odd, sizeof(odd), start, 0, NULL, NULL);
	assert_int_equal(f->n, 4);
	assert_string_equal(f->insn[1].text, ".inst 0xffffffff ; undefined");
	assert_int_equal(f->insn[1].op.kind, FLOW_BAD);
	assert_int_equal(f->insn[1].op.size, 4);
	assert_string_equal(f->insn[2].text, ".byte 0xc0");  /* 2 bytes left: no word */
	assert_int_equal(f->n_bad, 3);
	asm_func_free(f);
	assert_true(disasm_supported(EM_AARCH64));
	assert_false(disasm_supported(EM_RISCV));
	assert_null(disasm_bytes(EM_RISCV, a64, sizeof(a64), start, 0, NULL, NULL));
}

/* Operand spellings where capstone 4 and 5 differ from objdump and from
 * each other, each as objdump 2.40 and 2.44 print it (aarch64-linux-gnu-as
 * then objdump -d): decimal memory offsets, bit numbers, positions and
 * shift amounts; hex arithmetic, logical, move, compare and exception
 * immediates; a negative post-index offset; MOVN's value in the register's
 * width; cs for hs; fmov's "%.18e"; the GCS instructions and system
 * register glibc 2.41 uses. */
static const struct {
	uint32_t word;
	const char *text;
} a64_spelling[] = {
	{ 0xf9473400, "ldr x0, [x0, #3688]" },
	{ 0xf85e8780, "ldr x0, [x28], #-24" },
	{ 0x7a580324, "ccmp w25, w24, #0x4, eq" },
	{ 0x37680040, "tbnz w0, #13, 0x14" },
	{ 0x92800000, "mov x0, #0xffffffffffffffff" },
	{ 0x12800000, "mov w0, #0xffffffff" },
	{ 0x1a812013, "csel w19, w0, w1, cs" },
	{ 0x1e6e1001, "fmov d1, #1.000000000000000000e+00" },
	{ 0xd370f8b3, "ubfx x19, x5, #48, #15" },
	{ 0x914023e1, "add x1, sp, #0x8, lsl #12" },
	{ 0x4f000400, "movi v0.4s, #0x0" },
	{ 0xd4000001, "svc #0x0" },
	{ 0x4e209801, "cmeq v1.16b, v0.16b, #0" },
	{ 0xd503251f, "chkfeat x16" },
	{ 0xd52b773f, "gcspopm" },
	{ 0xd50b7744, "gcsss1 x4" },
	{ 0xd52b7762, "gcsss2 x2" },
	{ 0xd53b2522, "mrs x2, gcspr_el0" },
};

static void test_objdump_a64(void **state)
{
	uint8_t words[sizeof(a64_spelling) / sizeof(a64_spelling[0]) * 4];
	size_t n = sizeof(a64_spelling) / sizeof(a64_spelling[0]);
	struct asm_func *f;

	(void)state;
	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 4; b++)
			words[i * 4 + (size_t)b] = (uint8_t)(a64_spelling[i].word >> (8 * b));
	/* loaded at START: ELF address 0, as objdump -d t.o shows them */
	f = disasm_bytes(EM_AARCH64, words, sizeof(words), START, START, NULL, NULL);
	assert_non_null(f);
	assert_int_equal(f->n, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(f->insn[i].text, a64_spelling[i].text);
	asm_func_free(f);
}

static void test_bytes_biased(void **state)
{
	/* A PIE loaded at BIAS: addresses, targets and the namer's argument are
	 * runtime ones, the text shows ELF addresses as objdump does. */
	uint64_t bias = 0x555555554000u, start = bias + 0x1130;
	struct asm_func *f = disasm_bytes(EM_X86_64, code, sizeof(code), start, bias, namer, &start);

	(void)state;
	check_code(f, start, bias, true);
	assert_string_equal(f->insn[6].text, "call 0x1230 <callee>");
	assert_string_equal(f->insn[9].text, "jne 0x1144 <f+0x14>");
	asm_func_free(f);
}

static void test_bytes_flow(void **state)
{
	uint64_t start = START;
	struct asm_func *f = disasm_bytes(EM_X86_64, code, sizeof(code), start, 0, namer, &start);
	const struct flow *fl;

	(void)state;
	assert_non_null(f);
	assert_int_equal(f->n, sizeof(code_want) / sizeof(code_want[0]));
	fl = &f->flow;
	assert_int_equal(fl->n_insns, f->n);
	/* push..call | mov rcx..jne | jmp | jmp rax | pop, ret */
	assert_int_equal(fl->n_blocks, 5);
	assert_int_equal(fl->blocks[0].first, 0);
	assert_int_equal(fl->blocks[0].last, 6);
	assert_int_equal(fl->blocks[1].first, 7);
	assert_int_equal(fl->blocks[1].last, 9);
	assert_int_equal(fl->blocks[1].loop, 0);
	assert_int_equal(fl->blocks[2].first, 10);
	assert_int_equal(fl->blocks[2].last, 10);
	assert_int_equal(fl->blocks[3].first, 11);
	assert_int_equal(fl->blocks[3].last, 11);
	assert_int_equal(fl->blocks[4].first, 12);
	assert_int_equal(fl->blocks[4].last, 13);
	assert_int_equal(fl->blocks[4].loop, -1);
	assert_int_equal(fl->n_loops, 1);
	assert_int_equal(fl->loops[0].head, 7);
	assert_int_equal(fl->loops[0].tail, 9);
	assert_int_equal(fl->loops[0].n_insns, 3);
	assert_int_equal(fl->loops[0].load_bytes, 8);
	assert_int_equal(fl->loops[0].store_bytes, 0);
	for (size_t i = 0; i < f->n; i++)
		assert_int_equal(flow_is_back_edge(fl, i), i == 9);
	asm_func_free(f);
}

/* ---- EVEX (AVX-512) ----------------------------------------------------
 * Bytes from GNU as 2.40; the texts are objdump -d -M intel's with our
 * spelling (lowercase sizes, ", ", "0x" targets).  capstone 4.0.2 decoded
 * none of the EVEX ones. */
static const uint8_t evex[] = {
	0x62, 0xe1, 0xfe, 0x28, 0x6f, 0x0e,             /* 00 vmovdqu64 ymm17, [rsi] */
	0x62, 0xf3, 0x75, 0x20, 0x3e, 0x0f, 0x04,       /* 06 vpcmpub k1, ymm17, [rdi], 4 */
	0x62, 0xe1, 0x7f, 0x2a, 0x6f, 0x16,             /* 0d masked load */
	0x62, 0xf1, 0x7c, 0x49, 0x11, 0x0f,             /* 13 masked store */
	0x62, 0xf2, 0x7d, 0x4a, 0x92, 0x04, 0x97,       /* 19 gather */
	0x62, 0xf2, 0x7d, 0x49, 0xa2, 0x0c, 0x97,       /* 20 scatter */
	0x62, 0xf1, 0x7c, 0x58, 0x59, 0x06,             /* 27 broadcast operand */
	0x62, 0xe3, 0x75, 0x40, 0x25, 0x67, 0x01, 0xde, /* 2d vpternlogd, disp8*64 */
	0x62, 0xf2, 0x7d, 0x49, 0x8a, 0x0f,             /* 35 compressing store */
	0x62, 0xf3, 0x75, 0x48, 0x1f, 0x0f, 0x03,       /* 3b vpcmpd, predicate 3 */
	0x62, 0xf1, 0x74, 0x4a, 0xc2, 0xca, 0x11,       /* 42 vcmpps, predicate 0x11 */
	0xc5, 0xf8, 0x98, 0xca,                         /* 49 kortestw k1, k2 */
	0x75, 0xb7,                                     /* 4d jne 0x06: back-edge */
	0xc5, 0xfb, 0x93, 0xc1,                         /* 4f kmovd eax, k1 */
	0x85, 0xc0,                                     /* 53 test eax, eax */
	0x74, 0x0a,                                     /* 55 je 0x61 */
	0xe8, 0xa4, 0, 0, 0,                            /* 57 call start+0x100 */
	0xeb, 0x03,                                     /* 5c jmp 0x61 */
	0x3e, 0xff, 0xe0,                               /* 5e notrack jmp rax */
	0xc5, 0xf8, 0x77,                               /* 61 vzeroupper */
	0xc3,                                           /* 64 ret */
};

static const struct want evex_want[] = {
	{ 0x00, 6, FLOW_PLAIN, 32, 0, "vmovdqu64 ymm17, ymmword ptr [rsi]", -1 },
	{ 0x06, 7, FLOW_PLAIN, 32, 0, "vpcmpnequb k1, ymm17, ymmword ptr [rdi]", -1 },
	{ 0x0d, 6, FLOW_PLAIN, 32, 0, "vmovdqu8 ymm18{k2}, ymmword ptr [rsi]", -1 },
	{ 0x13, 6, FLOW_PLAIN, 0, 64, "vmovups zmmword ptr [rdi]{k1}, zmm1", -1 },
	/* 16 lanes of 4 bytes, though the operand names one */
	{ 0x19, 7, FLOW_PLAIN, 64, 0, "vgatherdps zmm0{k2}, dword ptr [rdi+zmm2*4]", -1 },
	{ 0x20, 7, FLOW_PLAIN, 0, 64, "vscatterdps dword ptr [rdi+zmm2*4]{k1}, zmm1", -1 },
	/* one element, broadcast */
	{ 0x27, 6, FLOW_PLAIN, 4, 0, "vmulps zmm0, zmm0, dword ptr [rsi]{1to16}", -1 },
	{ 0x2d, 8, FLOW_PLAIN, 64, 0, "vpternlogd zmm20, zmm17, zmmword ptr [rdi+0x40], 0xde", -1 },
	{ 0x35, 6, FLOW_PLAIN, 0, 64, "vcompressps zmmword ptr [rdi]{k1}, zmm1", -1 },
	/* objdump has no name for predicate 3 of vpcmpd */
	{ 0x3b, 7, FLOW_PLAIN, 64, 0, "vpcmpd k1, zmm1, zmmword ptr [rdi], 0x3", -1 },
	{ 0x42, 7, FLOW_PLAIN, 0, 0, "vcmplt_oqps k1{k2}, zmm1, zmm2", -1 },
	{ 0x49, 4, FLOW_PLAIN, 0, 0, "kortestw k1, k2", -1 },
	{ 0x4d, 2, FLOW_CJUMP, 0, 0, "jne %T <f+0x6>", 0x06 },
	{ 0x4f, 4, FLOW_PLAIN, 0, 0, "kmovd eax, k1", -1 },
	{ 0x53, 2, FLOW_PLAIN, 0, 0, "test eax, eax", -1 },
	{ 0x55, 2, FLOW_CJUMP, 0, 0, "je %T <f+0x61>", 0x61 },
	{ 0x57, 5, FLOW_CALL, 0, 0, "call %T <callee>", CALLEE },
	{ 0x5c, 2, FLOW_JUMP, 0, 0, "jmp %T <f+0x61>", 0x61 },
	{ 0x5e, 3, FLOW_IJUMP, 0, 0, "notrack jmp rax", -1 },
	{ 0x61, 3, FLOW_PLAIN, 0, 0, "vzeroupper", -1 },
	{ 0x64, 1, FLOW_RET, 0, 0, "ret", -1 },
};

#define N_EVEX (sizeof(evex_want) / sizeof(evex_want[0]))

static void test_evex(void **state)
{
	uint64_t start = START;
	struct asm_func *f = disasm_bytes(EM_X86_64, evex, sizeof(evex), start, 0, namer, &start);

	(void)state;
	check_insns(f, evex_want, N_EVEX, start, 0, true);
	assert_int_equal(f->end, start + sizeof(evex));
	asm_func_free(f);
	/* Elsewhere, and without names. */
	start = 0x7f0000001000u;
	f = disasm_bytes(EM_X86_64, evex, sizeof(evex), start, 0, NULL, NULL);
	check_insns(f, evex_want, N_EVEX, start, 0, false);
	asm_func_free(f);
}

static void test_evex_flow(void **state)
{
	/* A PIE: runtime targets, ELF addresses in the text. */
	uint64_t bias = 0x555555554000u, start = bias + 0x2000;
	struct asm_func *f = disasm_bytes(EM_X86_64, evex, sizeof(evex), start, bias, namer, &start);
	const struct flow *fl;

	(void)state;
	check_insns(f, evex_want, N_EVEX, start, bias, true);
	assert_string_equal(f->insn[12].text, "jne 0x2006 <f+0x6>");
	fl = &f->flow;
	/* vmovdqu64 | the loop, vpcmpnequb..jne | kmovd..je | call, jmp |
	 * jmp rax | vzeroupper, ret */
	assert_int_equal(fl->n_blocks, 6);
	assert_int_equal(fl->blocks[1].first, 1);
	assert_int_equal(fl->blocks[1].last, 12);
	assert_int_equal(fl->blocks[1].loop, 0);
	assert_int_equal(fl->blocks[3].first, 16);
	assert_int_equal(fl->blocks[3].last, 17);
	assert_int_equal(fl->n_loops, 1);
	assert_int_equal(fl->loops[0].head, 1);
	assert_int_equal(fl->loops[0].tail, 12);
	assert_int_equal(fl->loops[0].n_insns, 12);
	/* 32 + 32 + 64 + 4 + 64 + 64 loaded, 64 x 3 stored per iteration */
	assert_int_equal(fl->loops[0].load_bytes, 260);
	assert_int_equal(fl->loops[0].store_bytes, 192);
	for (size_t i = 0; i < f->n; i++)
		assert_int_equal(flow_is_back_edge(fl, i), i == 12);
	asm_func_free(f);
}

/* objdump's names: condition codes by relation, predicates folded into the
 * name, movabs, pushf, repz, the string forms' hidden memory; its memory
 * operands: [rip+disp]'s address in a comment, an encoded zero
 * displacement written, absolute addresses without brackets; xchg ax,ax,
 * the shift by an implicit 1 and unused prefixes as words, REX among them
 * (objdump -d -M intel on these bytes: "data16 data16 rex.W call",
 * "rex.WX add rax,rax", "rex ret"). */
static void test_objdump_names(void **state)
{
	static const uint8_t b[] = {
		0x77, 0x00,                               /* ja (Zydis: jnbe) */
		0x0f, 0x94, 0xc0,                         /* sete al (setz) */
		0x0f, 0x45, 0xc1,                         /* cmovne eax, ecx (cmovnz) */
		0x0f, 0xc2, 0xca, 0x04,                   /* cmpneqps (cmpps 4) */
		0xc5, 0xec, 0xc2, 0xcb, 0x1f,             /* vcmptrue_usps (32 predicates) */
		0x66, 0x0f, 0x3a, 0x44, 0xca, 0x11,       /* pclmulhqhqdq */
		0x48, 0xb8, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, /* movabs */
		0x9c,                                     /* pushf (pushfq) */
		0xf3, 0xa6,                               /* repz cmps (repe cmpsb) */
		0xf3, 0x48, 0xab,                         /* rep stos (stosq): 8 stored */
		0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00,       /* nop word ptr [rax+rax*1+0x0] */
		0xff, 0x15, 0x10, 0x00, 0x00, 0x00,       /* call [rip+0x10]: loads 8 */
		0x66, 0x90,                               /* xchg ax, ax (nop) */
		0x48, 0x8b, 0x45, 0x00,                   /* [rbp+0x0]: disp8 0 */
		0x8b, 0x05, 0, 0, 0, 0,                   /* [rip+0x0] */
		0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0, /* fs:0x28 */
		0x8b, 0x04, 0x25, 0x78, 0x56, 0x34, 0x12, /* ds:0x12345678 */
		0xd1, 0xe8,                               /* shr eax, 1 */
		0xc1, 0xe8, 0x01,                         /* shr eax, 0x1 */
		0x4a, 0x8d, 0x04, 0xc5, 0, 0, 0, 0,       /* [r8*8+0x0]: disp32 0 */
		0x62, 0xf2, 0x7d, 0x4a, 0x92, 0x44, 0x97, 0x00, /* VSIB, disp8 0 */
		0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0, /* padding, unused 66 2e */
		0x2e, 0x74, 0x00,                         /* je, "not taken" hint */
		0xf3, 0xc3,                               /* ret, unused f3 */
		0x66, 0x66, 0x48, 0xe8, 0, 0, 0, 0,       /* TLS GD: call __tls_get_addr */
		0x48, 0xff, 0xd0,                         /* call rax, W unused */
		0x66, 0x48, 0x01, 0xc0,                   /* add rax, rax: W overrides 66 */
		0x4a, 0x01, 0xc0,                         /* X without an index */
		0x40, 0xc3,                               /* REX without bits: unused */
		0x40, 0x88, 0xf0,                         /* mov al, sil: used */
		0x48, 0x90,                               /* nop, W unused */
		0x49, 0x90,                               /* xchg r8, rax: B used */
	};
	static const struct want w[] = {
		{ 0x00, 2, FLOW_CJUMP, 0, 0, "ja %T", 0x02 },
		{ 0x02, 3, FLOW_PLAIN, 0, 0, "sete al", -1 },
		{ 0x05, 3, FLOW_PLAIN, 0, 0, "cmovne eax, ecx", -1 },
		{ 0x08, 4, FLOW_PLAIN, 0, 0, "cmpneqps xmm1, xmm2", -1 },
		{ 0x0c, 5, FLOW_PLAIN, 0, 0, "vcmptrue_usps ymm1, ymm2, ymm3", -1 },
		{ 0x11, 6, FLOW_PLAIN, 0, 0, "pclmulhqhqdq xmm1, xmm2", -1 },
		{ 0x17, 10, FLOW_PLAIN, 0, 0, "movabs rax, 0x1122334455667788", -1 },
		{ 0x21, 1, FLOW_PLAIN, 0, 0, "pushf", -1 },
		{ 0x22, 2, FLOW_PLAIN, 2, 0, "repz cmps byte ptr ds:[rsi], byte ptr es:[rdi]", -1 },
		{ 0x24, 3, FLOW_PLAIN, 0, 8, "rep stos qword ptr es:[rdi], rax", -1 },
		{ 0x27, 6, FLOW_PLAIN, 0, 0, "nop word ptr [rax+rax*1+0x0]", -1 },
		{ 0x2d, 6, FLOW_CALL, 8, 0, "call qword ptr [rip+0x10] # 0x401043", -1 },
		{ 0x33, 2, FLOW_PLAIN, 0, 0, "xchg ax, ax", -1 },
		{ 0x35, 4, FLOW_PLAIN, 8, 0, "mov rax, qword ptr [rbp+0x0]", -1 },
		{ 0x39, 6, FLOW_PLAIN, 4, 0, "mov eax, dword ptr [rip+0x0] # 0x40103f", -1 },
		{ 0x3f, 9, FLOW_PLAIN, 8, 0, "mov rax, qword ptr fs:0x28", -1 },
		{ 0x48, 7, FLOW_PLAIN, 4, 0, "mov eax, dword ptr ds:0x12345678", -1 },
		{ 0x4f, 2, FLOW_PLAIN, 0, 0, "shr eax, 1", -1 },
		{ 0x51, 3, FLOW_PLAIN, 0, 0, "shr eax, 0x1", -1 },
		{ 0x54, 8, FLOW_PLAIN, 0, 0, "lea rax, [r8*8+0x0]", -1 },
		{ 0x5c, 8, FLOW_PLAIN, 64, 0, "vgatherdps zmm0{k2}, dword ptr [rdi+zmm2*4+0x0]", -1 },
		{ 0x64, 11, FLOW_PLAIN, 0, 0, "data16 cs nop word ptr [rax+rax*1+0x0]", -1 },
		{ 0x6f, 3, FLOW_CJUMP, 0, 0, "cs je %T", 0x72 },
		{ 0x72, 2, FLOW_RET, 0, 0, "repz ret", -1 },
		{ 0x74, 8, FLOW_CALL, 0, 0, "data16 data16 rex.W call %T", 0x7c },
		{ 0x7c, 3, FLOW_CALL, 0, 0, "rex.W call rax", -1 },
		{ 0x7f, 4, FLOW_PLAIN, 0, 0, "data16 add rax, rax", -1 },
		{ 0x83, 3, FLOW_PLAIN, 0, 0, "rex.WX add rax, rax", -1 },
		{ 0x86, 2, FLOW_RET, 0, 0, "rex ret", -1 },
		{ 0x88, 3, FLOW_PLAIN, 0, 0, "mov al, sil", -1 },
		{ 0x8b, 2, FLOW_PLAIN, 0, 0, "rex.W nop", -1 },
		{ 0x8d, 2, FLOW_PLAIN, 0, 0, "xchg r8, rax", -1 },
	};
	struct asm_func *f = disasm_bytes(EM_X86_64, b, sizeof(b), START, 0, NULL, NULL);
	uint64_t bias = 0x555555554000u, start = bias + 0x1000;

	(void)state;
	check_insns(f, w, sizeof(w) / sizeof(w[0]), START, 0, false);
	asm_func_free(f);
	/* In a PIE: the comment gives the ELF address, the name the runtime
	 * one's. */
	f = disasm_bytes(EM_X86_64, b, sizeof(b), start, bias, namer, &start);
	assert_non_null(f);
	assert_string_equal(f->insn[11].text, "call qword ptr [rip+0x10] # 0x1043 <f+0x43>");
	assert_string_equal(f->insn[0].text, "ja 0x1002 <f+0x2>");
	asm_func_free(f);
}

static void test_bad_bytes(void **state)
{
	/* 06 and d6 do not exist in 64-bit mode; 0f 04 does not either, and
	 * decoding resumes at its second byte: 04 90 is add al, 0x90.  A lone
	 * 0f at the end is cut short. */
	static const uint8_t bad[] = { 0x90, 0x06, 0xd6, 0x0f, 0x04, 0x90, 0xc3, 0x0f };
	static const struct want w[] = {
		{ 0, 1, FLOW_PLAIN, 0, 0, "nop", -1 },
		{ 1, 1, FLOW_BAD, 0, 0, ".byte 0x06", -1 },
		{ 2, 1, FLOW_BAD, 0, 0, ".byte 0xd6", -1 },
		{ 3, 1, FLOW_BAD, 0, 0, ".byte 0x0f", -1 },
		{ 4, 2, FLOW_PLAIN, 0, 0, "add al, 0x90", -1 },
		{ 6, 1, FLOW_RET, 0, 0, "ret", -1 },
		{ 7, 1, FLOW_BAD, 0, 0, ".byte 0x0f", -1 },
	};
	struct asm_func *f = disasm_bytes(EM_X86_64, bad, sizeof(bad), START, 0, NULL, NULL);

	(void)state;
	assert_non_null(f);
	assert_int_equal(f->n, sizeof(w) / sizeof(w[0]));
	assert_int_equal(f->n_bad, 4);
	for (size_t i = 0; i < f->n; i++) {
		assert_int_equal(f->insn[i].op.addr, START + w[i].off);
		assert_int_equal(f->insn[i].op.size, w[i].size);
		assert_int_equal(f->insn[i].op.kind, w[i].kind);
		assert_int_equal(f->insn[i].op.target, 0);
		assert_string_equal(f->insn[i].text, w[i].text);
	}
	/* The ret ends the first block. */
	assert_int_equal(f->flow.n_blocks, 2);
	assert_int_equal(f->flow.blocks[0].last, 5);
	assert_int_equal(f->flow.n_loops, 0);
	asm_func_free(f);
}

static void test_truncated_insn(void **state)
{
	/* mov rax, [rdi] without its last byte: two undecodable bytes. */
	static const uint8_t cut[] = { 0x90, 0x48, 0x8b };
	struct asm_func *f = disasm_bytes(EM_X86_64, cut, sizeof(cut), START, 0, NULL, NULL);

	(void)state;
	assert_non_null(f);
	assert_int_equal(f->n, 3);
	assert_int_equal(f->n_bad, 2);
	assert_string_equal(f->insn[1].text, ".byte 0x48");
	assert_string_equal(f->insn[2].text, ".byte 0x8b");
	assert_int_equal(f->insn[2].op.addr, START + 2);
	asm_func_free(f);
}

static void test_no_bytes(void **state)
{
	struct asm_func *f = disasm_bytes(EM_X86_64, code, 0, START, 0, NULL, NULL);

	(void)state;
	assert_non_null(f);
	assert_int_equal(f->n, 0);
	assert_int_equal(f->start, START);
	assert_int_equal(f->end, START);
	assert_int_equal(f->flow.n_blocks, 0);
	assert_int_equal(asm_find(f, START), -1);
	asm_func_free(f);
	asm_func_free(NULL);
}

static void test_find(void **state)
{
	uint64_t start = START;
	struct asm_func *f = disasm_bytes(EM_X86_64, code, sizeof(code), start, 0, namer, &start);

	(void)state;
	assert_non_null(f);
	assert_int_equal(asm_find(f, START), 0);
	assert_int_equal(asm_find(f, START + 0x0f), 6);  /* at the call */
	assert_int_equal(asm_find(f, START + 0x10), 6);  /* inside it */
	assert_int_equal(asm_find(f, START + 0x13), 6);  /* its last byte */
	assert_int_equal(asm_find(f, START + 0x14), 7);
	assert_int_equal(asm_find(f, START + 0x22), 13); /* ret */
	assert_int_equal(asm_find(f, START + 0x23), -1); /* after the end */
	assert_int_equal(asm_find(f, START + 0x1000), -1);
	assert_int_equal(asm_find(f, START - 1), -1);
	assert_int_equal(asm_find(f, 0), -1);
	assert_int_equal(asm_find(f, UINT64_MAX), -1);
	asm_func_free(f);
}

static void test_find_gap(void **state)
{
	/* Instructions need not be contiguous (a cut range): the gap is no
	 * instruction's. */
	struct asm_insn in[2] = {
		{ .op = { .addr = 0x10, .size = 2 } },
		{ .op = { .addr = 0x20, .size = 1 } },
	};
	struct asm_func f = { .n = 2, .insn = in, .start = 0x10, .end = 0x21 };

	(void)state;
	assert_int_equal(asm_find(&f, 0x11), 0);
	assert_int_equal(asm_find(&f, 0x12), -1);
	assert_int_equal(asm_find(&f, 0x1f), -1);
	assert_int_equal(asm_find(&f, 0x20), 1);
	assert_int_equal(asm_find(&f, 0x21), -1);
}

/* ---- a function of this program ------------------------------------- */

int disasm_target(int n);
static const int target_first_line = __LINE__ + 1;
__attribute__((noinline, noclone, used)) int disasm_target(int n)
{
	static volatile int data[64];
	int s = 0;

	for (int i = 0; i < n; i++)
		s += data[i & 63] * i;
	return s;
}
static const int target_last_line = __LINE__ - 1;

static int (*volatile target_ptr)(int) = disasm_target;

static uint64_t target_ip(void)
{
	return (uint64_t)(uintptr_t)target_ptr;
}

static int setup_self(void **state)
{
	struct symtab *st = symtab_new(NULL);

	if (!st || symtab_add_proc_maps(st, getpid()) != 0)
		return -1;
	*state = st;
	return 0;
}

static int teardown(void **state)
{
	symtab_free(*state);
	return 0;
}

/* One instruction as objdump prints it: its runtime address (the ELF one
 * moved by the load bias) and, for a branch within the function, its target
 * as our text shows it ("0x1190 <disasm_target+0x10>"). */
struct dump_insn {
	uint64_t addr;
	char branch[96];
};

struct dump {
	uint64_t bias;
	size_t n;
	struct dump_insn insn[1024];
};

/* "  2582:\tjle    25b0 <disasm_target+0x30>": the target, unless the name
 * is only a comment's (# a4c0 <data>). */
static void dump_branch(const char *line, char *buf, size_t size)
{
	const char *lt = strstr(line, " <disasm_target");
	const char *num = lt;

	buf[0] = '\0';
	if (!lt || strchr(line, '#'))
		return;
	while (num > line && num[-1] != ' ' && num[-1] != '\t')
		num--;
	snprintf(buf, size, "0x%.*s%.*s", (int)(lt - num), num,
		 (int)(strchr(lt, '>') + 1 - lt), lt);
}

static void dump_add(struct dump *d, const char *line, uint64_t elf_addr)
{
	struct dump_insn *in = &d->insn[d->n++];

	assert_true(d->n <= sizeof(d->insn) / sizeof(d->insn[0]));
	in->addr = elf_addr + d->bias;
	dump_branch(line, in->branch, sizeof(in->branch));
}

/* objdump's disassembly of disasm_target in this very executable. */
static void objdump_self(uint64_t runtime_start, struct dump *d)
{
	char cmd[128], line[512];
	FILE *p;
	uint64_t vaddr, a;
	bool in_fn = false;

	/* /proc/PID/exe: in the shell, /proc/self would be objdump itself. */
	snprintf(cmd, sizeof(cmd), "objdump -d --no-show-raw-insn --disassemble=disasm_target "
		 "/proc/%d/exe 2>/dev/null", (int)getpid());
	p = popen(cmd, "r");
	assert_non_null(p);
	d->n = 0;
	while (fgets(line, sizeof(line), p)) {
		if (strstr(line, "<disasm_target>:") &&
		    sscanf(line, "%" SCNx64, &vaddr) == 1) {
			d->bias = runtime_start - vaddr;
			in_fn = true;
		} else if (in_fn && line[0] == ' ' && strchr(line, '\t') &&
			   sscanf(line, " %" SCNx64 ":", &a) == 1) {
			dump_add(d, line, a);
		}
	}
	assert_int_equal(pclose(p), 0);
	assert_true(in_fn);
}

static void test_own_function(void **state)
{
	struct symtab *st = *state;
	char err[256] = "";
	uint64_t ip = target_ip();
	struct asm_func *f = disasm_function(st, ip + 1, ip + 1, err, sizeof(err));
	static struct dump d;
	size_t branches = 0;

	if (!f)
		fail_msg("disasm_function: %s", err);
	assert_string_equal(f->name, "disasm_target");
	assert_non_null(f->module);
	assert_int_equal(f->start, ip);
	assert_true(f->n > 0);
	assert_int_equal(f->insn[0].op.addr, ip);
	assert_true(f->insn[f->n - 1].op.addr + f->insn[f->n - 1].op.size <= f->end);
	assert_false(f->truncated);
	assert_int_equal(f->n_bad, 0);
	assert_true(f->flow.n_loops >= 1);

	objdump_self(ip, &d);
	assert_int_equal(f->bias, d.bias);
	assert_int_equal(f->n, d.n);
	for (size_t i = 0; i < f->n; i++) {
		assert_int_equal(f->insn[i].op.addr, d.insn[i].addr);
		if (!d.insn[i].branch[0])
			continue;
		if (!strstr(f->insn[i].text, d.insn[i].branch))
			fail_msg("0x%" PRIx64 ": '%s' lacks objdump's '%s'", f->insn[i].op.addr,
				 f->insn[i].text, d.insn[i].branch);
		branches++;
	}
	assert_true(branches > 0);
	asm_func_free(f);
}

static void test_own_function_names_and_lines(void **state)
{
	struct symtab *st = *state;
	char err[256] = "", name[64];
	uint64_t ip = target_ip();
	struct asm_func *f = disasm_function(st, ip, ip, err, sizeof(err));
	size_t branches = 0;

	if (!f)
		fail_msg("disasm_function: %s", err);
	/* Branches inside the function are named after it. */
	for (size_t i = 0; i < f->n; i++) {
		const struct flow_insn *op = &f->insn[i].op;
		if ((op->kind != FLOW_JUMP && op->kind != FLOW_CJUMP) || op->target <= ip ||
		    op->target >= f->end)
			continue;
		snprintf(name, sizeof(name), " <disasm_target+0x%" PRIx64 ">", op->target - ip);
		assert_non_null(strstr(f->insn[i].text, name));
		branches++;
	}
	assert_true(branches > 0);
	/* Source lines of this file, within the function. */
	assert_non_null(f->insn[0].file);
	assert_non_null(strstr(f->insn[0].file, "test-disasm.c"));
	for (size_t i = 0; i < f->n; i++) {
		if (!f->insn[i].file)
			continue;
		assert_true(f->insn[i].line >= target_first_line);
		assert_true(f->insn[i].line <= target_last_line);
	}
	asm_func_free(f);
}

static void test_unmapped(void **state)
{
	struct symtab *st = *state;
	char err[256] = "";

	assert_null(disasm_function(st, 0x10, 0x10, err, sizeof(err)));
	assert_non_null(strstr(err, "0x10"));
	assert_non_null(strstr(err, "not in any mapped module"));
}

static void test_anonymous_code(void **state)
{
	/* An executable mapping without a file: no bytes to decode. */
	struct symtab *st = symtab_new(NULL);
	long page = sysconf(_SC_PAGESIZE);
	char err[256] = "";
	uint64_t a = 0x10000000;

	(void)state;
	assert_non_null(st);
	assert_int_equal(symtab_add_map(st, "//anon", a, a + (uint64_t)page, 0), 0);
	assert_null(disasm_function(st, a + 16, a + 32, err, sizeof(err)));
	assert_non_null(strstr(err, "//anon"));
	assert_non_null(strstr(err, "no code bytes"));
	symtab_free(st);
}

static void test_cache(void **state)
{
	struct symtab *st = *state;
	struct asm_cache *c = asm_cache_new();
	char err[256] = "";
	uint64_t ip = target_ip();
	const struct asm_func *f1, *f2, *f3;

	assert_non_null(c);
	f1 = asm_cache_get(c, st, ip, ip, err, sizeof(err));
	assert_non_null(f1);
	f2 = asm_cache_get(c, st, ip, ip, err, sizeof(err));
	assert_ptr_equal(f1, f2);
	f3 = asm_cache_get(c, st, f1->insn[f1->n - 1].op.addr, ip, err, sizeof(err));
	assert_ptr_equal(f1, f3);
	assert_string_equal(f1->name, "disasm_target");
	err[0] = '\0';
	assert_null(asm_cache_get(c, st, 0x10, 0x10, err, sizeof(err)));
	assert_non_null(strstr(err, "not in any mapped module"));
	asm_cache_free(c);
	asm_cache_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_bytes_elsewhere),
		cmocka_unit_test(test_bytes_biased),
		cmocka_unit_test(test_bytes_flow),
		cmocka_unit_test(test_evex),
		cmocka_unit_test(test_evex_flow),
		cmocka_unit_test(test_objdump_names),
		cmocka_unit_test(test_bad_bytes),
		cmocka_unit_test(test_truncated_insn),
		cmocka_unit_test(test_no_bytes),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_find_gap),
		cmocka_unit_test_setup_teardown(test_own_function, setup_self, teardown),
		cmocka_unit_test_setup_teardown(test_own_function_names_and_lines, setup_self,
						teardown),
		cmocka_unit_test_setup_teardown(test_unmapped, setup_self, teardown),
		cmocka_unit_test(test_anonymous_code),
		cmocka_unit_test(test_bytes_aarch64),
		cmocka_unit_test(test_objdump_a64),
		cmocka_unit_test_setup_teardown(test_cache, setup_self, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
