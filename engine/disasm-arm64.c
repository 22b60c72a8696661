/* The AArch64 decoder behind engine/disasm.c's seam: capstone (Zydis
 * decodes x86 only).  On every host, so that an x86 cyctop shows an arm64
 * perf.data's code (--symfs) and the other way round; loaded on first use
 * (engine/capstone-load.c).
 *
 * Every instruction is 4 bytes, little-endian.  capstone's text is LLVM's
 * (the same aliases as objdump: mov, cmp, b.ne, ret), rewritten where
 * objdump (binutils, the reference users compare with) writes otherwise:
 * aliases, each immediate in objdump's radix (capstone 4 and 5 write
 * values up to 9 in decimal, larger in hex, and differ in their aliases),
 * the GCS instructions.  Branch, adr and adrp targets are written as
 * objdump writes them, the address then "<name+0xoff>" for a branch
 * (objdump omits the 0x; the asm view uses it on x86 too).  A word capstone
 * does not decode is shown as objdump shows it, ".inst 0x... ; undefined". */
#include "config.h"

#include "engine/capstone-load.h"
#include "engine/disasm-priv.h"

#include <capstone/capstone.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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

/* The Guarded Control Stack instructions (FEAT_GCS, Armv9.4; Arm ARM
 * DDI 0487, C6.2 GCSPUSHM, GCSPOPM, GCSSS1, GCSSS2, GCSPUSHX, GCSPOPCX,
 * GCSPOPX: aliases of SYS/SYSL #3 or #0, C7, C7, #op2) and CHKFEAT X16
 * (FEAT_CHK: HINT #40), which glibc 2.41 (Debian 13) uses: they execute as
 * SYS and NOP where GCS is absent, so capstone 4 and 5 print them as such;
 * objdump 2.44 names them.  By the instruction word (Rt in bits 0-4); each
 * row checked against objdump 2.44's output.  RT: 0 no operand, 1 Xt,
 * 2 Xt but none when it is XZR (objdump's "gcspopm"). */
static const struct {
	uint32_t value, mask;
	const char *name;
	int rt;
} gcs[] = {
	{ 0xd50b7700, 0xffffffe0, "gcspushm", 1 }, { 0xd52b7720, 0xffffffe0, "gcspopm", 2 },
	{ 0xd50b7740, 0xffffffe0, "gcsss1", 1 },   { 0xd52b7760, 0xffffffe0, "gcsss2", 1 },
	{ 0xd508779f, 0xffffffff, "gcspushx", 0 }, { 0xd50877bf, 0xffffffff, "gcspopcx", 0 },
	{ 0xd50877df, 0xffffffff, "gcspopx", 0 },  { 0xd503251f, 0xffffffff, "chkfeat x16", 0 },
};

/* System registers capstone 4 and 5 give only by number (MRS/MSR's
 * s<op0>_<op1>_c<n>_c<m>_<op2>), as objdump 2.44 names them: GCSPR_EL0
 * (FEAT_GCS), POR_EL0 (FEAT_S1POE): their register descriptions in the
 * Arm ARM (DDI 0487) give these encodings; checked against objdump 2.44. */
static const char *const sysregs[][2] = {
	{ "s3_3_c2_c5_1", "gcspr_el0" }, { "s3_3_c10_c2_4", "por_el0" },
};

static bool gcs_name(const cs_insn *ci, char *out, size_t size)
{
	uint32_t word = (uint32_t)ci->bytes[0] | (uint32_t)ci->bytes[1] << 8 |
			(uint32_t)ci->bytes[2] << 16 | (uint32_t)ci->bytes[3] << 24;
	unsigned rt = word & 31;

	for (size_t i = 0; i < sizeof(gcs) / sizeof(gcs[0]); i++) {
		if ((word & gcs[i].mask) != gcs[i].value)
			continue;
		if (gcs[i].rt == 0 || (gcs[i].rt == 2 && rt == 31))
			snprintf(out, size, "%s", gcs[i].name);
		else if (rt == 31)
			snprintf(out, size, "%s xzr", gcs[i].name);
		else
			snprintf(out, size, "%s x%u", gcs[i].name, rt);
		return true;
	}
	return false;
}

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

/* Mnemonics whose immediates objdump writes in decimal: shift amounts,
 * bitfield positions and widths, bit numbers, element indices, fixed-point
 * fraction bits, compares with zero (binutils aarch64-dis.c print_operand:
 * AARCH64_OPND_IMM, WIDTH, BIT_NUM, IDX, IMM_VLSL/VLSR, SHLL_IMM, FBITS,
 * IMM0, UNDEFINED print "#%d"; AIMM, LIMM, IMM_MOV, HALF, NZCV, CCMP_IMM,
 * EXCEPTION, SIMD_IMM print "#0x%x"; the arm64 glibc's every text agrees,
 * tests/e2e/annotate-arm64.sh).  Sorted for bsearch. */
static const char *const decimal_mn[] = {
	"asr", "bfc", "bfi", "bfm", "bfxil", "cmeq", "cmge", "cmgt", "cmle", "cmlt", "ext",
	"extr", "fcvtzs", "fcvtzu", "lsl", "lsr", "ror", "rshrn", "rshrn2", "sbfiz", "sbfm",
	"sbfx", "scvtf", "shl", "shll", "shll2", "shrn", "shrn2", "sli", "sqrshrn", "sqrshrn2",
	"sqrshrun", "sqrshrun2", "sqshl", "sqshlu", "sqshrn", "sqshrn2", "sqshrun", "sqshrun2",
	"sri", "srshr", "srsra", "sshll", "sshll2", "sshr", "ssra", "sxtl", "tbnz", "tbz",
	"ubfiz", "ubfm", "ubfx", "ucvtf", "udf", "uqrshrn", "uqrshrn2", "uqshl", "uqshrn",
	"uqshrn2", "urshr", "ursra", "ushll", "ushll2", "ushr", "usra", "uxtl",
};

/* Operand words after which an immediate is an amount, which objdump
 * writes in decimal ("lsl #12", "sxtw #2", "msl #8"). */
static const char *const amount_words[] = {
	"asr", "lsl", "lsr", "msl", "ror", "sxtb", "sxth", "sxtw", "sxtx", "uxtb", "uxth",
	"uxtw", "uxtx",
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool in_list(const char *word, size_t len, const char *const *list, size_t n)
{
	char w[16];
	const char *key = w;

	if (len == 0 || len >= sizeof(w))
		return false;
	memcpy(w, word, len);
	w[len] = '\0';
	return bsearch(&key, list, n, sizeof(*list), cmp_str) != NULL;
}

/* Whether the immediate at TEXT[AT] (its '#') is one objdump writes in
 * decimal: a memory offset (in brackets, or a post-index one after
 * them), an amount after a shift or extend word, or an operand of a
 * DECIMAL_MN mnemonic (of MLEN characters at TEXT). */
static bool decimal_imm(const char *text, size_t at, size_t mlen)
{
	int depth = 0;
	size_t w;

	for (size_t i = 0; i < at; i++)
		depth += text[i] == '[' ? 1 : text[i] == ']' ? -1 : 0;
	if (depth > 0 || (at >= 3 && strncmp(text + at - 3, "], ", 3) == 0))
		return true;
	for (w = at; w > 0 && text[w - 1] == ' '; w--)
		;
	size_t end = w;
	while (w > 0 && text[w - 1] >= 'a' && text[w - 1] <= 'z')
		w--;
	if (in_list(text + w, end - w, amount_words, sizeof(amount_words) / sizeof(*amount_words)))
		return true;
	return in_list(text, mlen, decimal_mn, sizeof(decimal_mn) / sizeof(*decimal_mn));
}

/* Immediates in objdump's radix (capstone writes values up to 9 in
 * decimal, larger ones in hex, in both capstone 4 and 5): decimal where
 * decimal_imm says, else hex, a negative one as its two's complement in the
 * width of the first register (objdump's "mov w0, #0xffffffff"); fmov's
 * floating-point immediate as objdump's "#%.18e".  A target's "#0x..."
 * (branches, adr, adrp) is left for format_text. */
static void objdump_immediates(char *text, size_t size)
{
	char out[ASM_TEXT_MAX * 2];
	size_t mlen = strcspn(text, " "), o = 0;
	bool w = text[mlen] == ' ' && text[mlen + 1] == 'w';
	bool fmov = mlen == 4 && strncmp(text, "fmov", 4) == 0;

	for (size_t i = 0; text[i] && o + 32 < sizeof(out);) {
		char *end;
		/* SME's "za[w15, 0xa]" (capstone 5): objdump's index is decimal */
		if (strncmp(text + i, ", 0x", 4) == 0 && decimal_imm(text, i, 0) &&
		    (text[i + 4 + strspn(text + i + 4, "0123456789abcdef")] == ']')) {
			o += (size_t)snprintf(out + o, sizeof(out) - o, ", %llu",
					      strtoull(text + i + 2, &end, 16));
			i = (size_t)(end - text);
			continue;
		}
		if (text[i] != '#' ||
		    !((text[i + 1] >= '0' && text[i + 1] <= '9') || text[i + 1] == '-')) {
			out[o++] = text[i++];
			continue;
		}
		const char *num = text + i + 1;
		if (strcspn(num, ".") < strcspn(num, ", ")) {  /* floating point */
			double d = strtod(num, &end);
			if (!fmov) {  /* fcmp's "#0.0" is objdump's too */
				out[o++] = text[i++];
				continue;
			}
			o += (size_t)snprintf(out + o, sizeof(out) - o, "#%.18e", d);
			i = (size_t)(end - text);
			continue;
		}
		bool neg = *num == '-';
		uint64_t v = strtoull(num + neg, &end, 0);
		if (end == num + neg) {
			out[o++] = text[i++];
			continue;
		}
		if (decimal_imm(text, i, mlen))
			/* capstone 4 writes a negative post-index offset as its
			 * 64-bit two's complement: signed here */
			o += (size_t)snprintf(out + o, sizeof(out) - o, "#%" PRId64,
					      neg ? -(int64_t)v : (int64_t)v);
		else {
			if (neg)
				v = w ? (uint32_t)-v : -v;
			o += (size_t)snprintf(out + o, sizeof(out) - o, "#0x%" PRIx64, v);
		}
		i = (size_t)(end - text);
	}
	out[o] = '\0';
	snprintf(text, size, "%s", out);
}

/* The address ADR or ADRP computes (capstone's last operand), or 0. */
static uint64_t address_of(const cs_insn *ci)
{
	const cs_arm64 *a = &ci->detail->arm64;

	if ((ci->id != ARM64_INS_ADR && ci->id != ARM64_INS_ADRP) || a->op_count != 2 ||
	    a->operands[1].type != ARM64_OP_IMM)
		return 0;
	return (uint64_t)a->operands[1].imm;
}

/* Condition codes' other names in a last operand (csel, cset, cinc, ccmp):
 * objdump writes cs/cc where capstone writes hs/lo. */
static void objdump_condition(char *text, size_t size)
{
	size_t n = strlen(text);

	if (n > 4 && (strcmp(text + n - 4, ", hs") == 0 || strcmp(text + n - 4, ", lo") == 0))
		snprintf(text + n - 2, size - (n - 2), "%s", text[n - 2] == 'h' ? "cs" : "cc");
}

static void format_text(struct asm_insn *in, const cs_insn *ci, uint64_t target,
			uint64_t bias, asm_namer namer, void *arg)
{
	char full[ASM_TEXT_MAX * 2], name[ASM_TEXT_MAX];
	const char *m = ci->mnemonic;
	uint64_t address = target ? target : address_of(ci);

	for (size_t i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++)
		if (strcmp(m, renamed[i][0]) == 0)
			m = renamed[i][1];
	if (!wide_mov(ci, full, sizeof(full)) && !bitmask_mov(ci, full, sizeof(full)) &&
	    !extend_long(ci, full, sizeof(full)) && !gcs_name(ci, full, sizeof(full)))
		snprintf(full, sizeof(full), "%s%s%s", m, ci->op_str[0] ? " " : "", ci->op_str);
	for (size_t i = 0; i < sizeof(sysregs) / sizeof(sysregs[0]); i++) {
		char *r = strstr(full, sysregs[i][0]);
		size_t n = strlen(sysregs[i][0]);
		char rest[sizeof(full)];
		if (r && (r[n] == '\0' || r[n] == ',')) {
			snprintf(rest, sizeof(rest), "%s", r + n);
			snprintf(r, sizeof(full) - (size_t)(r - full), "%s%s", sysregs[i][1], rest);
		}
	}
	/* capstone writes a target as "#0x400594" last: objdump's is the
	 * address without '#' (the asm view keeps the 0x, as on x86), then
	 * a branch's <name> */
	char *hash = address ? strrchr(full, '#') : NULL;
	if (hash && strncmp(hash, "#0x", 3) == 0)
		*hash = '\0';
	else
		hash = NULL;
	objdump_immediates(full, sizeof(full));
	objdump_condition(full, sizeof(full));
	for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]); i++)
		if (strcmp(full, hints[i][0]) == 0)
			snprintf(full, sizeof(full), "%s", hints[i][1]);
	name[0] = '\0';
	if (hash)
		snprintf(name, sizeof(name), "0x%" PRIx64, address);
	if (target)
		disasm_name_of(target + bias, namer, arg, name + strlen(name), sizeof(name) - strlen(name));
	/* An overlong text is cut (as on x86). */
	if (snprintf(in->text, sizeof(in->text), "%s%s", full, name) < 0)
		in->text[0] = '\0';
}

int disasm_aarch64(const uint8_t *code, size_t len, uint64_t start, uint64_t bias,
		   asm_namer namer, void *arg, struct insn_vec *iv)
{
	const struct capstone_api *cs = capstone_api();
	csh h;
	cs_insn *ci;
	uint64_t addr = start - bias;  /* the text shows ELF addresses, as objdump */
	size_t off = 0;
	int rc = 0;

	if (!cs || cs->open(CS_ARCH_ARM64, CS_MODE_ARM, &h) != CS_ERR_OK)
		return -1;
	cs->option(h, CS_OPT_DETAIL, CS_OPT_ON);
	if (!(ci = cs->malloc(h))) {
		cs->close(&h);
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
		if (left < A64_INSN || !cs->disasm_iter(h, &p, &left, &pc, ci)) {
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
	cs->free(ci, 1);
	cs->close(&h);
	return rc;
}
