/* What engine/disasm.c shares with its decoders, one per architecture
 * (engine/disasm-x86.c: Zydis; engine/disasm-arm64.c: capstone).  Each
 * appends the instructions of LEN bytes of code that run at START (an ELF
 * loaded with BIAS) to IV: addresses, sizes, flow kinds, branch targets and
 * memory bytes at runtime addresses, the text with ELF addresses as objdump
 * prints it.  Bytes that do not decode become FLOW_BAD entries and decoding
 * resumes after them.  0, or -1 out of memory (or no decoder). */
#ifndef ENGINE_DISASM_PRIV_H
#define ENGINE_DISASM_PRIV_H

#include "engine/disasm.h"

struct insn_vec {
	struct asm_insn *v;
	size_t n, cap;
};

/* A zeroed instruction at the end of IV, or NULL out of memory. */
struct asm_insn *disasm_vec_push(struct insn_vec *iv);
/* " <name>" of runtime address ADDR (the namer's), or "". */
void disasm_name_of(uint64_t addr, asm_namer namer, void *arg, char *buf, size_t size);
/* N bytes at runtime address ADDR that did not decode, as objdump shows
 * them: ".byte 0xNN", or for a 4-byte AArch64 word ".inst 0xNNNNNNNN". */
void disasm_fill_bad(struct asm_insn *in, uint64_t addr, const uint8_t *bytes, size_t n);

int disasm_x86_64(const uint8_t *code, size_t len, uint64_t start, uint64_t bias,
		  asm_namer namer, void *arg, struct insn_vec *iv);
/* Whether Zydis is loaded (the first call loads it: engine/lib-load.c),
 * and its file name, "libZydis.so.4.0", for an error. */
bool disasm_x86_64_loaded(void);
const char *disasm_x86_64_soname(void);
int disasm_aarch64(const uint8_t *code, size_t len, uint64_t start, uint64_t bias,
		   asm_namer namer, void *arg, struct insn_vec *iv);

#endif
