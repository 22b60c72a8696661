/* The AArch64 decoder behind engine/disasm.c's seam: capstone (Zydis
 * decodes x86 only).  Linked on every host, so that an x86 cyctop shows an
 * arm64 perf.data's code (--symfs) and the other way round.
 *
 * Every instruction is 4 bytes, little-endian.  capstone's text is LLVM's
 * (the same aliases as objdump: mov, cmp, b.ne, ret); branch targets are
 * written as objdump writes them, the address then "<name+0xoff>"
 * (objdump omits the 0x; the asm view uses it on x86 too).  A word capstone
 * does not decode is shown as objdump shows it, ".inst 0x... ; undefined". */
#include "config.h"

#include "engine/disasm-priv.h"

#include <capstone/capstone.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define A64_INSN 4

/* The flow kind of a decoded instruction and its direct target (its
 * immediate operand, an ELF address), from capstone's instruction ids:
 * b, b.cond, cbz/cbnz, tbz/tbnz, bl are direct; br, blr, ret are not. */
static enum flow_kind kind_of(const cs_insn *in, uint64_t *target)
{
	const cs_arm64 *a = &in->detail->arm64;
	const cs_arm64_op *last = a->op_count ? &a->operands[a->op_count - 1] : NULL;
	bool imm = last && last->type == ARM64_OP_IMM;

	*target = 0;
	switch (in->id) {
	case ARM64_INS_B:
		if (imm)
			*target = (uint64_t)last->imm;
		return a->cc == ARM64_CC_INVALID || a->cc == ARM64_CC_AL ? FLOW_JUMP : FLOW_CJUMP;
	case ARM64_INS_CBZ: case ARM64_INS_CBNZ: case ARM64_INS_TBZ: case ARM64_INS_TBNZ:
		if (imm)
			*target = (uint64_t)last->imm;
		return FLOW_CJUMP;
	case ARM64_INS_BL:
		if (imm)
			*target = (uint64_t)last->imm;
		return FLOW_CALL;
	case ARM64_INS_BLR:
		return FLOW_CALL;
	case ARM64_INS_BR:
		return FLOW_IJUMP;
	case ARM64_INS_RET:
		return FLOW_RET;
	default:
		return FLOW_PLAIN;
	}
}

/* Bytes of one register operand: x/w general, b/h/s/d/q scalar SIMD and FP,
 * v (a vector: its arrangement, 16 bytes unless .8b/.4h/.2s/.1d). */
static unsigned reg_bytes(const char *name, const char *ops)
{
	switch (name[0]) {
	case 'x': return 8;
	case 'w': return 4;
	case 'b': return 1;
	case 'h': return 2;
	case 's': return strncmp(name, "sp", 2) == 0 ? 8 : 4;
	case 'd': return 8;
	case 'q': return 16;
	case 'v': {
		const char *dot = strchr(ops, '.');
		return dot && (dot[2] == 'b' || dot[2] == 'h' || dot[2] == 's' || dot[2] == 'd') &&
		       (dot[1] == '8' || dot[1] == '4' || dot[1] == '2' || dot[1] == '1') &&
		       (dot[1] - '0') * (dot[2] == 'b' ? 1 : dot[2] == 'h' ? 2 : dot[2] == 's' ? 4 : 8) == 8
			       ? 8 : 16;
	}
	default: return 0;
	}
}

/* Memory bytes per execution of a load or store (ld*, st*, and the
 * acquire/release and exclusive forms, which all start so): the width of
 * the first register, or of the b/h/w suffix (ldrb, strh, ldrsw), twice
 * for pairs (ldp, stp); prefetches (prfm) move nothing. */
static void memory_bytes(const cs_insn *in, uint16_t *load, uint16_t *store)
{
	const char *m = in->mnemonic;
	size_t ml = strlen(m);
	unsigned bytes;
	char c = ml ? m[ml - 1] : 0;

	*load = *store = 0;
	if (strncmp(m, "ld", 2) != 0 && strncmp(m, "st", 2) != 0)
		return;
	if (strncmp(m, "ld1", 3) == 0 || strncmp(m, "st1", 3) == 0 || strncmp(m, "ld2", 3) == 0 ||
	    strncmp(m, "st2", 3) == 0 || strncmp(m, "ld3", 3) == 0 || strncmp(m, "st3", 3) == 0 ||
	    strncmp(m, "ld4", 3) == 0 || strncmp(m, "st4", 3) == 0)
		bytes = reg_bytes(in->op_str[0] == '{' ? in->op_str + 1 : in->op_str, in->op_str) *
			(unsigned)(m[2] - '0');
	else if (c == 'b' && ml > 3)
		bytes = 1;
	else if (c == 'h' && ml > 3)
		bytes = 2;
	else if (strcmp(m, "ldrsw") == 0 || strcmp(m, "ldursw") == 0 || strcmp(m, "ldpsw") == 0)
		bytes = 4;
	else
		bytes = reg_bytes(in->op_str, in->op_str);
	if (strcmp(m, "ldp") == 0 || strcmp(m, "stp") == 0 || strcmp(m, "ldnp") == 0 ||
	    strcmp(m, "stnp") == 0 || strcmp(m, "ldpsw") == 0 || strcmp(m, "ldxp") == 0 ||
	    strcmp(m, "stxp") == 0 || strcmp(m, "ldaxp") == 0 || strcmp(m, "stlxp") == 0)
		bytes *= 2;
	if (m[0] == 'l')
		*load = (uint16_t)bytes;
	else
		*store = (uint16_t)bytes;
}

/* The mnemonic as objdump 2.40 prints it, where capstone 4 has only the
 * hint's number (the pointer authentication and BTI hints, Armv8.3/8.5). */
static const char *const hints[][2] = {
	{ "hint #0x19", "paciasp" }, { "hint #0x1d", "autiasp" },
	{ "hint #0x1b", "pacibsp" }, { "hint #0x1f", "autibsp" },
	{ "hint #0x22", "bti c" },   { "hint #0x24", "bti j" },
	{ "hint #0x26", "bti jc" },  { "hint #0x20", "bti" },
	{ "hint #0x14", "csdb" },    { "hint #0x7", "xpaclri" },
};

/* Mnemonics objdump spells otherwise: the condition codes' other names
 * (hs/lo are cs/cc), INS's preferred alias MOV (Arm ARM C6.2.183). */
static const char *const renamed[][2] = {
	{ "b.hs", "b.cs" }, { "b.lo", "b.cc" }, { "ins", "mov" },
};

/* Whether V (the register's width: 32 or 64 bits) is one MOVZ or MOVN
 * writes: a single nonzero 16-bit chunk, or the inverse of one. */
static bool move_wide(uint64_t v, bool w)
{
	uint64_t mask = w ? 0xffffffffu : ~0ull;

	for (int inv = 0; inv < 2; inv++, v = ~v & mask)
		for (unsigned sh = 0; sh < (w ? 32u : 64u); sh += 16)
			if ((v & ~(0xffffull << sh) & mask) == 0)
				return true;
	return false;
}

/* objdump's "mov Rd, #imm" for ORR Rd, ZR, #imm where MOVZ or MOVN could
 * not write the value (MOV (bitmask immediate), Arm ARM C6.2.190). */
static bool bitmask_mov(const cs_insn *ci, char *out, size_t size)
{
	const cs_arm64 *a = &ci->detail->arm64;
	bool w;
	uint64_t v;

	if (ci->id != ARM64_INS_ORR || a->op_count != 3 || a->operands[1].type != ARM64_OP_REG ||
	    (a->operands[1].reg != ARM64_REG_XZR && a->operands[1].reg != ARM64_REG_WZR) ||
	    a->operands[2].type != ARM64_OP_IMM)
		return false;
	w = a->operands[1].reg == ARM64_REG_WZR;
	v = (uint64_t)a->operands[2].imm & (w ? 0xffffffffu : ~0ull);
	if (move_wide(v, w))
		return false;
	snprintf(out, size, "mov %.*s, #0x%" PRIx64, (int)strcspn(ci->op_str, ","), ci->op_str, v);
	return true;
}

/* USHLL/SSHLL by 0 are objdump's UXTL/SXTL (Arm ARM C7.2.400, C7.2.334). */
static bool extend_long(const cs_insn *ci, char *out, size_t size)
{
	const char *m = ci->mnemonic, *last = strrchr(ci->op_str, ',');

	if ((strncmp(m, "ushll", 5) != 0 && strncmp(m, "sshll", 5) != 0) || !last ||
	    strcmp(last, ", #0") != 0)
		return false;
	snprintf(out, size, "%cxtl%s %.*s", m[0], m + 5, (int)(last - ci->op_str), ci->op_str);
	return true;
}

/* objdump's "mov" for the MOVZ and MOVN capstone 4 prints as such: MOV
 * (wide immediate) is their preferred disassembly unless the immediate is
 * 0 with a shift, or a 32-bit MOVN's is 0xffff (Arm ARM C6.2.191/192). */
static bool wide_mov(const cs_insn *ci, char *out, size_t size)
{
	const cs_arm64 *a = &ci->detail->arm64;
	bool movn = ci->id == ARM64_INS_MOVN;
	const char *reg;
	uint64_t imm, v;
	unsigned shift;

	if ((ci->id != ARM64_INS_MOVZ && !movn) || a->op_count != 2 ||
	    a->operands[0].type != ARM64_OP_REG || a->operands[1].type != ARM64_OP_IMM)
		return false;
	reg = ci->op_str;  /* "x3, #0x7f2d, lsl #16": the register up to the comma */
	imm = (uint64_t)a->operands[1].imm & 0xffff;
	shift = a->operands[1].shift.type == ARM64_SFT_LSL ? a->operands[1].shift.value : 0;
	if ((imm == 0 && shift != 0) || (movn && reg[0] == 'w' && imm == 0xffff))
		return false;
	v = imm << shift;
	if (movn)
		v = reg[0] == 'w' ? ~v & 0xffffffffu : ~v;
	snprintf(out, size, "mov %.*s, #0x%" PRIx64, (int)strcspn(reg, ","), reg, v);
	return true;
}

static void format_text(struct asm_insn *in, const cs_insn *ci, uint64_t target,
			uint64_t bias, asm_namer namer, void *arg)
{
	char full[sizeof(ci->mnemonic) + sizeof(ci->op_str) + 1], name[100];

	const char *m = ci->mnemonic;

	for (size_t i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++)
		if (strcmp(m, renamed[i][0]) == 0)
			m = renamed[i][1];
	if (!wide_mov(ci, full, sizeof(full)) && !bitmask_mov(ci, full, sizeof(full)) &&
	    !extend_long(ci, full, sizeof(full)))
		snprintf(full, sizeof(full), "%s%s%s", m, ci->op_str[0] ? " " : "", ci->op_str);
	for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]); i++)
		if (strcmp(full, hints[i][0]) == 0)
			snprintf(full, sizeof(full), "%s", hints[i][1]);
	if (target) {
		/* capstone writes the target as "#0x400594" last: objdump's form */
		char *hash = strrchr(full, '#');
		if (hash && strncmp(hash, "#0x", 3) == 0)
			memmove(hash, hash + 1, strlen(hash));
		disasm_name_of(target + bias, namer, arg, name, sizeof(name));
		if (snprintf(in->text, sizeof(in->text), "%s%s", full, name) < 0)
			in->text[0] = '\0';
		return;
	}
	/* An overlong text is cut (as on x86). */
	if (snprintf(in->text, sizeof(in->text), "%s", full) < 0)
		in->text[0] = '\0';
}

int disasm_aarch64(const uint8_t *code, size_t len, uint64_t start, uint64_t bias,
		   asm_namer namer, void *arg, struct insn_vec *iv)
{
	csh h;
	cs_insn *ci;
	uint64_t addr = start - bias;  /* the text shows ELF addresses, as objdump */
	size_t off = 0;
	int rc = 0;

	if (cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &h) != CS_ERR_OK)
		return -1;
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	if (!(ci = cs_malloc(h))) {
		cs_close(&h);
		return -1;
	}
	while (off < len) {
		const uint8_t *p = code + off;
		size_t left = len - off;
		uint64_t pc = addr + off, target;
		struct asm_insn *in = disasm_vec_push(iv);

		if (!in) {
			rc = -1;
			break;
		}
		if (left < A64_INSN || !cs_disasm_iter(h, &p, &left, &pc, ci)) {
			size_t n = len - off < A64_INSN ? 1 : A64_INSN;
			disasm_fill_bad(in, start + off, code + off, n);
			off += n;
			continue;
		}
		in->op.addr = start + off;
		in->op.size = A64_INSN;
		in->op.kind = (uint8_t)kind_of(ci, &target);
		in->op.target = target ? target + bias : 0;
		memory_bytes(ci, &in->op.load_bytes, &in->op.store_bytes);
		format_text(in, ci, target, bias, namer, arg);
		off += A64_INSN;
	}
	cs_free(ci, 1);
	cs_close(&h);
	return rc;
}
