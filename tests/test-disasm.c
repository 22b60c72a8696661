/* Tests of engine/disasm.c: hand-assembled x86-64 bytes through Zydis,
 * then a function of this test program itself, checked against objdump. */
#include "engine/disasm.h"
#include "engine/symbols.h"

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

/* off  bytes             asm                           memory */
static const uint8_t code[] = {
	0x55,                   /* 00 push rbp */
	0x48, 0x89, 0xe5,       /* 01 mov rbp, rsp */
	0x8b, 0x07,             /* 04 mov eax, [rdi]              load 4 */
	0x89, 0x07,             /* 06 mov [rdi], eax              store 4 */
	0x83, 0x07, 0x01,       /* 08 add dword ptr [rdi], 0x1    load 4, store 4 */
	0x48, 0x8d, 0x04, 0x07, /* 0b lea rax, [rdi+rax*1]        none */
	0xe8, 0x2c, 0, 0, 0,    /* 0f call start+0x40 */
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
	{ 0x0f, 5, FLOW_CALL, 0, 0, "call %T <callee>", 0x40 },
	{ 0x14, 3, FLOW_PLAIN, 8, 0, "mov rcx, qword ptr [rsi]", -1 },
	{ 0x17, 4, FLOW_PLAIN, 0, 0, "add rsi, 0x8", -1 },
	{ 0x1b, 2, FLOW_CJUMP, 0, 0, "jne %T <f+0x14>", 0x14 },
	{ 0x1d, 2, FLOW_JUMP, 0, 0, "jmp %T <f+0x21>", 0x21 },
	{ 0x1f, 2, FLOW_IJUMP, 0, 0, "jmp rax", -1 },
	{ 0x21, 1, FLOW_PLAIN, 0, 0, "pop rbp", -1 },
	{ 0x22, 1, FLOW_RET, 0, 0, "ret", -1 },
};

/* Names the bytes' own addresses "f+0x.." ("f" at the start) and START+0x40
 * "callee"; nothing else. */
static bool namer(uint64_t addr, char *buf, size_t size, void *arg)
{
	uint64_t start = *(const uint64_t *)arg;

	if (addr == start + 0x40) {
		snprintf(buf, size, "callee");
		return true;
	}
	if (addr < start || addr >= start + sizeof(code))
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

static void check_code(const struct asm_func *f, uint64_t start, uint64_t bias, bool named)
{
	char text[ASM_TEXT_MAX];

	assert_non_null(f);
	assert_int_equal(f->start, start);
	assert_int_equal(f->end, start + sizeof(code));
	assert_int_equal(f->bias, bias);
	assert_int_equal(f->n, sizeof(code_want) / sizeof(code_want[0]));
	assert_int_equal(f->n_bad, 0);
	assert_false(f->truncated);
	for (size_t i = 0; i < f->n; i++) {
		const struct want *w = &code_want[i];
		const struct flow_insn *op = &f->insn[i].op;
		assert_int_equal(op->addr, start + w->off);
		assert_int_equal(op->size, w->size);
		assert_int_equal(op->kind, w->kind);
		assert_int_equal(op->target, w->target < 0 ? 0 : start + (uint64_t)w->target);
		assert_int_equal(op->load_bytes, w->load);
		assert_int_equal(op->store_bytes, w->store);
		want_text(w, start - bias, named, text, sizeof(text));
		assert_string_equal(f->insn[i].text, text);
		assert_null(f->insn[i].file);
	}
}

static void test_bytes(void **state)
{
	uint64_t start = START;
	struct asm_func *f = disasm_bytes(code, sizeof(code), start, 0, namer, &start);

	(void)state;
	check_code(f, start, 0, true);
	assert_null(f->name);
	asm_func_free(f);
}

static void test_bytes_elsewhere(void **state)
{
	/* Targets follow the runtime address; without a namer, no names. */
	uint64_t start = 0x7f1234560000u;
	struct asm_func *f = disasm_bytes(code, sizeof(code), start, 0, namer, &start);

	(void)state;
	check_code(f, start, 0, true);
	asm_func_free(f);
	f = disasm_bytes(code, sizeof(code), start, 0, NULL, NULL);
	check_code(f, start, 0, false);
	asm_func_free(f);
}

static void test_bytes_biased(void **state)
{
	/* A PIE loaded at BIAS: addresses, targets and the namer's argument are
	 * runtime ones, the text shows ELF addresses as objdump does. */
	uint64_t bias = 0x555555554000u, start = bias + 0x1130;
	struct asm_func *f = disasm_bytes(code, sizeof(code), start, bias, namer, &start);

	(void)state;
	check_code(f, start, bias, true);
	assert_string_equal(f->insn[6].text, "call 0x1170 <callee>");
	assert_string_equal(f->insn[9].text, "jne 0x1144 <f+0x14>");
	asm_func_free(f);
}

static void test_bytes_flow(void **state)
{
	uint64_t start = START;
	struct asm_func *f = disasm_bytes(code, sizeof(code), start, 0, namer, &start);
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
	struct asm_func *f = disasm_bytes(bad, sizeof(bad), START, 0, NULL, NULL);

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
	struct asm_func *f = disasm_bytes(cut, sizeof(cut), START, 0, NULL, NULL);

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
	struct asm_func *f = disasm_bytes(code, 0, START, 0, NULL, NULL);

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
	struct asm_func *f = disasm_bytes(code, sizeof(code), start, 0, namer, &start);

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
	struct symtab *st = symtab_new();

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
	struct symtab *st = symtab_new();
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
		cmocka_unit_test_setup_teardown(test_cache, setup_self, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
