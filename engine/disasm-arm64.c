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
	{ "hint #0x14", "csdb" },
};

static void format_text(struct asm_insn *in, const cs_insn *ci, uint64_t target,
			uint64_t bias, asm_namer namer, void *arg)
{
	char full[sizeof(ci->mnemonic) + sizeof(ci->op_str) + 1], name[100];

	snprintf(full, sizeof(full), "%s%s%s", ci->mnemonic, ci->op_str[0] ? " " : "", ci->op_str);
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
