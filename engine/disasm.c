/* Disassembly of one function with capstone (see disasm.h). */
#include "engine/disasm.h"

#include <capstone/capstone.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/symbols.h"

/* x86 instructions are at most 15 bytes: a sampled range is extended by
 * that much so its last instruction decodes whole. */
#define X86_MAX_INSN 15
/* Unknown (symbol-less) code is shown over at most this many bytes. */
#define UNKNOWN_MAX (64 * 1024)

struct insn_vec {
	struct asm_insn *v;
	size_t n, cap;
};

static struct asm_insn *vec_push(struct insn_vec *iv)
{
	if (iv->n == iv->cap) {
		size_t cap = iv->cap ? iv->cap * 2 : 256;
		struct asm_insn *v = realloc(iv->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		iv->v = v;
		iv->cap = cap;
	}
	memset(&iv->v[iv->n], 0, sizeof(iv->v[0]));
	return &iv->v[iv->n++];
}

static bool in_group(const cs_insn *ci, uint8_t group)
{
	for (uint8_t i = 0; i < ci->detail->groups_count; i++)
		if (ci->detail->groups[i] == group)
			return true;
	return false;
}

static uint64_t imm_target(const cs_insn *ci)
{
	const cs_x86 *x = &ci->detail->x86;

	return x->op_count == 1 && x->operands[0].type == X86_OP_IMM ?
	       (uint64_t)x->operands[0].imm : 0;
}

static enum flow_kind kind_of(const cs_insn *ci, uint64_t target)
{
	if (in_group(ci, CS_GRP_CALL))
		return FLOW_CALL;
	if (in_group(ci, CS_GRP_RET))
		return FLOW_RET;
	if (!in_group(ci, CS_GRP_JUMP))
		return FLOW_PLAIN;
	if (!target)
		return FLOW_IJUMP;
	return ci->id == X86_INS_JMP ? FLOW_JUMP : FLOW_CJUMP;
}

/* Bytes read and written through memory operands; LEA and NOP name memory
 * without touching it. */
static void memory_bytes(const cs_insn *ci, uint16_t *load, uint16_t *store)
{
	const cs_x86 *x = &ci->detail->x86;

	*load = *store = 0;
	if (ci->id == X86_INS_LEA || ci->id == X86_INS_NOP)
		return;
	for (uint8_t i = 0; i < x->op_count; i++) {
		if (x->operands[i].type != X86_OP_MEM)
			continue;
		if (x->operands[i].access & CS_AC_READ)
			*load += x->operands[i].size;
		if (x->operands[i].access & CS_AC_WRITE)
			*store += x->operands[i].size;
	}
}

static void format_text(struct asm_insn *in, const cs_insn *ci, asm_namer namer, void *arg)
{
	char sym[96];
	int n = snprintf(in->text, sizeof(in->text), "%s%s%s", ci->mnemonic,
			 ci->op_str[0] ? " " : "", ci->op_str);

	if (in->op.target && namer && n > 0 && (size_t)n < sizeof(in->text) &&
	    namer(in->op.target, sym, sizeof(sym), arg))
		snprintf(in->text + n, sizeof(in->text) - (size_t)n, " <%s>", sym);
}

static void fill_insn(struct asm_insn *in, const cs_insn *ci, uint64_t bias, asm_namer namer,
		      void *arg)
{
	uint64_t target = in_group(ci, CS_GRP_JUMP) || in_group(ci, CS_GRP_CALL) ? imm_target(ci) : 0;

	in->op.addr = ci->address + bias;
	in->op.size = (uint8_t)ci->size;
	in->op.target = target ? target + bias : 0;
	in->op.kind = (uint8_t)kind_of(ci, in->op.target);
	memory_bytes(ci, &in->op.load_bytes, &in->op.store_bytes);
	format_text(in, ci, namer, arg);
}

static void fill_bad(struct asm_insn *in, uint64_t addr, uint8_t byte)
{
	in->op.addr = addr;
	in->op.size = 1;
	in->op.kind = FLOW_BAD;
	snprintf(in->text, sizeof(in->text), ".byte 0x%02x", byte);
}

/* Blocks and loops work on the instructions' flow parts. */
static int analyse(struct asm_func *f)
{
	struct flow_insn *ops = malloc((f->n ? f->n : 1) * sizeof(*ops));
	int rc;

	if (!ops)
		return -1;
	f->n_bad = 0;
	for (size_t i = 0; i < f->n; i++) {
		ops[i] = f->insn[i].op;
		f->n_bad += ops[i].kind == FLOW_BAD;
	}
	flow_free(&f->flow);
	rc = flow_build(ops, f->n, &f->flow);
	free(ops);
	return rc;
}

static struct asm_func *func_from(struct insn_vec *iv, uint64_t start, uint64_t end,
				  uint64_t bias)
{
	struct asm_func *f = calloc(1, sizeof(*f));

	if (!f) {
		free(iv->v);
		return NULL;
	}
	f->insn = iv->v;
	f->n = iv->n;
	f->start = start;
	f->end = end;
	f->bias = bias;
	if (analyse(f) < 0) {
		asm_func_free(f);
		return NULL;
	}
	return f;
}

struct asm_func *disasm_bytes(const uint8_t *code, size_t len, uint64_t start, uint64_t bias,
			      asm_namer namer, void *arg)
{
	struct insn_vec iv = { 0 };
	csh h;
	cs_insn *ci;
	uint64_t addr = start - bias;  /* capstone prints ELF addresses, as objdump */
	const uint8_t *p = code;
	size_t left = len;

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
		return NULL;
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	ci = cs_malloc(h);
	while (ci && left > 0) {
		struct asm_insn *in = vec_push(&iv);
		if (!in)
			goto fail;
		if (cs_disasm_iter(h, &p, &left, &addr, ci)) {
			fill_insn(in, ci, bias, namer, arg);
			continue;
		}
		/* Resynchronize one byte further on. */
		fill_bad(in, addr + bias, *p);
		p++, left--, addr++;
	}
	if (!ci)
		goto fail;
	cs_free(ci, 1);
	cs_close(&h);
	return func_from(&iv, start, start + len, bias);
fail:
	if (ci)
		cs_free(ci, 1);
	cs_close(&h);
	free(iv.v);
	return NULL;
}

void asm_func_free(struct asm_func *f)
{
	if (!f)
		return;
	free(f->name);
	free(f->insn);
	flow_free(&f->flow);
	free(f);
}

bool asm_line_starts(const struct asm_func *f, size_t i)
{
	const struct asm_insn *in = &f->insn[i], *prev = i ? &f->insn[i - 1] : NULL;

	if (!in->file)
		return false;
	return !prev || !prev->file || in->line != prev->line || strcmp(in->file, prev->file) != 0;
}

long asm_find(const struct asm_func *f, uint64_t addr)
{
	size_t lo = 0, hi = f->n;

	while (lo < hi) {  /* last instruction starting at or before addr */
		size_t mid = lo + (hi - lo) / 2;
		if (f->insn[mid].op.addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	lo--;
	return addr < f->insn[lo].op.addr + f->insn[lo].op.size ? (long)lo : -1;
}

/* ---- functions of a symtab ----------------------------------------- */

static bool name_target(uint64_t addr, char *buf, size_t size, void *arg)
{
	struct sym_info si;

	if (!symtab_lookup(arg, addr, &si) || !si.name)
		return false;
	if (addr == si.start)
		snprintf(buf, size, "%s", si.name);
	else
		snprintf(buf, size, "%s+0x%" PRIx64, si.name, addr - si.start);
	return true;
}

static void add_lines(struct symtab *st, struct asm_func *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (!symtab_srcline(st, f->insn[i].op.addr, &f->insn[i].file, &f->insn[i].line))
			f->insn[i].file = NULL;
}

/* The range to decode: the symbol's, or the sampled range when no symbol
 * covers ADDR (stripped code). */
static bool code_range(struct symtab *st, uint64_t addr, uint64_t last, struct sym_info *si,
		       uint64_t *start, uint64_t *len)
{
	if (!symtab_lookup(st, addr, si))
		return false;
	if (si->name) {
		*start = si->start;
		*len = si->size;
	} else {
		*start = addr;
		uint64_t span = last >= addr ? last - addr : 0;
		*len = (span < UNKNOWN_MAX ? span : UNKNOWN_MAX) + X86_MAX_INSN;
	}
	return true;
}

/* Without a symbol the padding past LAST is cut after LAST's instruction. */
static void cut_after(struct asm_func *f, uint64_t last)
{
	long i = asm_find(f, last);

	if (i >= 0 && (size_t)i + 1 < f->n) {
		f->n = (size_t)i + 1;
		f->end = f->insn[i].op.addr + f->insn[i].op.size;
		analyse(f);  /* on failure the flow stays empty */
	}
}

struct asm_func *disasm_function(struct symtab *st, uint64_t addr, uint64_t last,
				 char *err, size_t errsz)
{
	struct sym_info si;
	uint64_t start, len;
	size_t avail;
	const uint8_t *code;
	struct asm_func *f;

	if (!code_range(st, addr, last, &si, &start, &len)) {
		snprintf(err, errsz, "0x%" PRIx64 ": not in any mapped module", addr);
		return NULL;
	}
	code = symtab_code(st, start, &avail);
	if (!code) {
		snprintf(err, errsz, "%s: no code bytes for 0x%" PRIx64 " (not a file-backed ELF)",
			 si.module ? si.module : "?", start);
		return NULL;
	}
	f = disasm_bytes(code, len < avail ? len : avail, start, si.module_base, name_target, st);
	if (!f) {
		snprintf(err, errsz, "out of memory disassembling 0x%" PRIx64, start);
		return NULL;
	}
	f->truncated = len > avail && si.name;
	if (!si.name)
		cut_after(f, last);
	f->name = strdup(si.name ? si.name : "[unknown]");
	f->module = si.module;
	add_lines(st, f);
	return f;
}

/* ---- cache ---------------------------------------------------------- */

struct asm_cache_entry {
	struct symtab *st;
	uint64_t start, end;
	struct asm_func *fn;
};

struct asm_cache {
	struct asm_cache_entry *v;
	size_t n, cap;
};

struct asm_cache *asm_cache_new(void)
{
	return calloc(1, sizeof(struct asm_cache));
}

void asm_cache_free(struct asm_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		asm_func_free(c->v[i].fn);
	free(c->v);
	free(c);
}

static struct asm_func *cache_find(struct asm_cache *c, struct symtab *st, uint64_t addr)
{
	for (size_t i = c->n; i-- > 0;)  /* newest first: regrown ranges */
		if (c->v[i].st == st && addr >= c->v[i].start && addr < c->v[i].end)
			return c->v[i].fn;
	return NULL;
}

static int cache_add(struct asm_cache *c, struct symtab *st, struct asm_func *fn)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		struct asm_cache_entry *v = realloc(c->v, cap * sizeof(*v));
		if (!v)
			return -1;
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n++] = (struct asm_cache_entry){ st, fn->start, fn->end, fn };
	return 0;
}

const struct asm_func *asm_cache_get(struct asm_cache *c, struct symtab *st, uint64_t addr,
				     uint64_t last, char *err, size_t errsz)
{
	struct asm_func *fn = cache_find(c, st, addr);

	/* A sampled range of unknown code may have grown: decode it again. */
	if (fn && (strcmp(fn->name, "[unknown]") != 0 || last < fn->end))
		return fn;
	fn = disasm_function(st, addr, last, err, errsz);
	if (fn && cache_add(c, st, fn) < 0) {
		asm_func_free(fn);
		snprintf(err, errsz, "out of memory");
		return NULL;
	}
	return fn;
}
