/* One function's instructions: the decoder of the code's architecture (the
 * ELF's e_machine: Zydis for x86-64, capstone for AArch64) decodes only
 * that function's bytes (never objdump), branch and call targets get
 * symbolic names, and each instruction carries its DWARF source line.  The result is immutable and
 * cached by its owner (the session), so reopening a function is free. */
#ifndef ENGINE_DISASM_H
#define ENGINE_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/flow.h"

struct symtab;

#define ASM_TEXT_MAX 128

struct asm_insn {
	struct flow_insn op;      /* address, size, kind, target, memory bytes */
	char text[ASM_TEXT_MAX];  /* "mnemonic operands <func+0xoff>" */
	const char *file;         /* source file (owned by the symtab) or NULL */
	int line;
};

struct asm_func {
	char *name;
	const char *module;
	uint64_t start, end;      /* runtime addresses, [start, end) */
	uint64_t bias;            /* runtime minus ELF address (objdump's numbers) */
	size_t n;
	struct asm_insn *insn;
	struct flow flow;         /* basic blocks and loops */
	size_t n_bad;             /* bytes that did not decode */
	bool truncated;           /* the function's bytes ended before its size */
};

/* Names ADDR for a branch target ("func+0x1c"), or returns false. */
typedef bool (*asm_namer)(uint64_t addr, char *buf, size_t size, void *arg);

/* Decodes LEN bytes of code for ELF machine MACHINE (EM_X86_64,
 * EM_AARCH64) that run at START, from an ELF loaded with BIAS (the text
 * shows ELF addresses, START - BIAS on, as objdump does; the instructions'
 * addresses and targets are runtime ones).  Bytes that do not decode become
 * ".byte 0xNN" (x86) or ".inst 0xNNNNNNNN ; undefined" (AArch64) and decoding
 * resumes after them.  NULL when out of memory or MACHINE has no decoder. */
struct asm_func *disasm_bytes(uint16_t machine, const uint8_t *code, size_t len,
			      uint64_t start, uint64_t bias, asm_namer namer, void *arg);

/* Whether this build decodes code of ELF machine MACHINE. */
bool disasm_supported(uint16_t machine);

/* The function of ST that contains ADDR (or, when no symbol covers ADDR,
 * the range [ADDR, LAST] of sampled code, LAST included), with names and
 * source lines.  NULL with a reason in ERR. */
struct asm_func *disasm_function(struct symtab *st, uint64_t addr, uint64_t last,
				 char *err, size_t errsz);

void asm_func_free(struct asm_func *f);

/* Decoded functions kept for reuse, keyed by symtab and start address.
 * Entries live until the cache is freed: views hold on to them. */
struct asm_cache;

struct asm_cache *asm_cache_new(void);
void asm_cache_free(struct asm_cache *c);
/* disasm_function through the cache. */
const struct asm_func *asm_cache_get(struct asm_cache *c, struct symtab *st, uint64_t addr,
				     uint64_t last, char *err, size_t errsz);

/* Whether instruction I starts another source line than the one before
 * (where interleaved source lines are printed). */
bool asm_line_starts(const struct asm_func *f, size_t i);

/* Index of the instruction at or containing ADDR, or -1. */
long asm_find(const struct asm_func *f, uint64_t addr);

#endif
