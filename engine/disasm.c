/* Disassembly of one function (see disasm.h): the decoder of the code's
 * architecture, by the ELF's e_machine (disasm-priv.h), then blocks and
 * loops, branch targets' names and source lines, and the cache. */
#include "config.h"

#include "engine/capstone-load.h"
#include "engine/disasm-priv.h"
#include "lib/hashtab.h"

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/symbols.h"

/* The longest instruction: a sampled range of unknown code is extended by
 * that much so its last instruction decodes whole (x86: 15 bytes; AArch64:
 * 4). */
#define MAX_INSN 15
/* Unknown (symbol-less) code is shown over at most this many bytes. */
#define UNKNOWN_MAX (64 * 1024)

struct asm_insn *disasm_vec_push(struct insn_vec *iv)
{
	if (GROW(iv->v, iv->n + 1, iv->cap) < 0)
		return NULL;
	memset(&iv->v[iv->n], 0, sizeof(iv->v[0]));
	return &iv->v[iv->n++];
}

void disasm_name_of(uint64_t addr, asm_namer namer, void *arg, char *buf, size_t size)
{
	char sym[96];

	buf[0] = '\0';
	if (addr && namer && namer(addr, sym, sizeof(sym), arg))
		snprintf(buf, size, " <%.*s>", (int)sizeof(sym), sym);
}

void disasm_fill_bad(struct asm_insn *in, uint64_t addr, const uint8_t *bytes, size_t n)
{
	in->op.addr = addr;
	in->op.size = (uint8_t)n;
	in->op.kind = FLOW_BAD;
	if (n == 4)  /* objdump -d on AArch64: ".inst\t0x00000000 ; undefined" */
		snprintf(in->text, sizeof(in->text), ".inst 0x%08" PRIx32 " ; undefined",
			 (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 |
			 (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24);
	else
		snprintf(in->text, sizeof(in->text), ".byte 0x%02x", bytes[0]);
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

struct asm_func *disasm_bytes(uint16_t machine, const uint8_t *code, size_t len,
			      uint64_t start, uint64_t bias, asm_namer namer, void *arg)
{
	struct insn_vec iv = { 0 };
	int rc;

	switch (machine) {
#ifdef HAVE_ZYDIS
	case EM_X86_64:
		rc = disasm_x86_64(code, len, start, bias, namer, arg, &iv);
		break;
#endif
	case EM_AARCH64:
		rc = disasm_aarch64(code, len, start, bias, namer, arg, &iv);
		break;
	default:
		rc = -1;
		break;
	}
	if (rc < 0) {
		free(iv.v);
		return NULL;
	}
	return func_from(&iv, start, start + len, bias);
}

bool disasm_supported(uint16_t machine)
{
	switch (machine) {
#ifdef HAVE_ZYDIS
	case EM_X86_64:
		return disasm_x86_64_loaded();
#endif
	case EM_AARCH64:
		return capstone_api() != NULL;
	default:
		return false;
	}
}

/* Why this cyctop lacks the decoder of a machine it knows, or "". */
static const char *decoder_missing(uint16_t machine, char *buf, size_t size)
{
#ifdef HAVE_ZYDIS
	if (machine == EM_X86_64) {
		snprintf(buf, size, " (%s cannot be loaded)", disasm_x86_64_soname());
		return buf;
	}
#else
	if (machine == EM_X86_64)
		return " (built without Zydis)";
#endif
	if (machine != EM_AARCH64)
		return "";
	snprintf(buf, size, " (%s cannot be loaded)", capstone_soname());
	return buf;
}

/* The name of an ELF machine, for the error of one no decoder reads. */
static const char *machine_name(uint16_t machine)
{
	switch (machine) {
	case EM_X86_64: return "x86-64";
	case EM_AARCH64: return "AArch64";
	case EM_386: return "i386";
	case EM_ARM: return "ARM (32-bit)";
	case EM_RISCV: return "RISC-V";
	case EM_PPC64: return "POWER";
	case EM_S390: return "s390";
	default: return NULL;
	}
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

	if (!symtab_lookup(arg, addr, &si) || !si.name || si.address)
		return false;  /* an address's own name says nothing more */
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
 * covers ADDR (stripped code; an address named by itself: its instruction). */
static bool code_range(struct symtab *st, uint64_t addr, uint64_t last, struct sym_info *si,
		       uint64_t *start, uint64_t *len)
{
	if (!symtab_lookup(st, addr, si))
		return false;
	if (si->name && !si->address) {
		*start = si->start;
		*len = si->size;
	} else {
		*start = addr;
		uint64_t span = last >= addr ? last - addr : 0;
		*len = (span < UNKNOWN_MAX ? span : UNKNOWN_MAX) + MAX_INSN;
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
	uint16_t machine;

	if (!code_range(st, addr, last, &si, &start, &len)) {
		snprintf(err, errsz, "0x%" PRIx64 ": not in any mapped module", addr);
		return NULL;
	}
	code = symtab_code(st, start, &avail);
	machine = symtab_machine(st, start);
	if (code && !disasm_supported(machine)) {
		const char *mn = machine_name(machine);
		char why[64];
		if (mn)
			snprintf(err, errsz, "%s: %s code, which this cyctop does not decode%s",
				 si.module ? si.module : "?", mn,
				 decoder_missing(machine, why, sizeof(why)));
		else
			snprintf(err, errsz, "%s: code of ELF machine %u, which cyctop does not decode",
				 si.module ? si.module : "?", machine);
		return NULL;
	}
	if (!code) {
		snprintf(err, errsz, "%s: no code bytes for 0x%" PRIx64 " (not a file-backed ELF)",
			 si.module ? si.module : "?", start);
		return NULL;
	}
	f = disasm_bytes(machine, code, len < avail ? len : avail, start, si.module_base, name_target, st);
	if (!f) {
		snprintf(err, errsz, "out of memory disassembling 0x%" PRIx64, start);
		return NULL;
	}
	f->truncated = len > avail && si.name && !si.address;
	if (!si.name || si.address)
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
	if (GROW(c->v, c->n + 1, c->cap) < 0)
		return -1;
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
