/* The x86-64 decoder behind engine/disasm.c's seam: Zydis.
 *
 * Zydis, not capstone: capstone 4.0.2 (Debian 12) does not decode EVEX
 * (AVX-512) nor mask-register instructions, which glibc's *_evex string
 * functions run on every AVX-512 host.  Zydis decodes every instruction
 * objdump 2.40 does there; its Intel text is brought to objdump's
 * mnemonics and operand forms below (cyctop(1), THE ASM VIEW, lists what differs).
 *
 * Zydis is loaded when x86-64 code is first decoded (engine/lib-load.c),
 * not when cyctop starts: its tables' 2,527 relative relocations went to
 * every start, and only annotate and the asm view decode. */
#include "config.h"

#include "engine/disasm-priv.h"

#ifdef HAVE_ZYDIS
#include <Zydis/Zydis.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/lib-load.h"

/* The Zydis image (ZYDIS_SONAME, configure's) and the calls made of it. */
static struct {
	struct lib_image image;
	LIB_FN(ZydisDecoderInit);
	LIB_FN(ZydisDecoderDecodeFull);
	LIB_FN(ZydisFormatterInit);
	LIB_FN(ZydisFormatterSetProperty);
	LIB_FN(ZydisFormatterSetHook);
	LIB_FN(ZydisFormatterFormatInstruction);
	LIB_FN(ZydisCalcAbsoluteAddress);
	LIB_FN(ZydisMnemonicGetString);
	LIB_FN(ZydisRegisterGetClass);
	LIB_FN(ZydisRegisterGetString);
} lib = { .image = { .soname = ZYDIS_SONAME } };

bool disasm_x86_64_loaded(void)
{
	const struct lib_sym sym[] = {
		LIB_SYM(lib, ZydisDecoderInit),
		LIB_SYM(lib, ZydisDecoderDecodeFull),
		LIB_SYM(lib, ZydisFormatterInit),
		LIB_SYM(lib, ZydisFormatterSetProperty),
		LIB_SYM(lib, ZydisFormatterSetHook),
		LIB_SYM(lib, ZydisFormatterFormatInstruction),
		LIB_SYM(lib, ZydisCalcAbsoluteAddress),
		LIB_SYM(lib, ZydisMnemonicGetString),
		LIB_SYM(lib, ZydisRegisterGetClass),
		LIB_SYM(lib, ZydisRegisterGetString),
	};

	/* kept loaded: the asm cache decodes again */
	return lib_load(&lib.image, sym, sizeof(sym) / sizeof(sym[0]), NULL, 0) == 0;
}

const char *disasm_x86_64_soname(void)
{
	return ZYDIS_SONAME;
}

/* Room for Zydis's text before it is cut to ASM_TEXT_MAX with the name. */
#define RAW_TEXT_MAX 256

struct decoder {
	ZydisDecoder dec;
	ZydisFormatter fmt;
	ZydisFormatterFunc print_size;  /* Zydis's own, which print_size_hook wraps */
};

/* One decoded instruction at its ELF address (objdump's numbers). */
struct decoded {
	ZydisDecodedInstruction in;
	ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
	uint64_t addr;
	const uint8_t *bytes;        /* its in.length bytes */
	const ZydisDecoder *dec;     /* what decoded it (to try it without a prefix) */
};

/* FORCE_SIZE writes the size of an address-only operand too from Zydis 4.1
 * on ("lea rax, qword ptr [rdi+rax*1]"), not in 4.0: objdump (2.40, 2.44)
 * never does, so neither do we, whichever Zydis.  The user data is the
 * decoder's print_size (format_text passes it). */
static ZyanStatus print_size_hook(const ZydisFormatter *f, ZydisFormatterBuffer *b,
				  ZydisFormatterContext *c)
{
	const ZydisFormatterFunc *zydis = c->user_data;

	if (c->operand->type == ZYDIS_OPERAND_TYPE_MEMORY &&
	    c->operand->mem.type == ZYDIS_MEMOP_TYPE_AGEN)
		return ZYAN_STATUS_SUCCESS;
	return (*zydis)(f, b, c);
}

/* objdump's look where Zydis has a switch for it: every memory operand with
 * its size (but an address-only one's), lowercase hex, unpadded numbers,
 * [rip+disp] as written. */
static bool decoder_init(struct decoder *d)
{
	static const struct {
		ZydisFormatterProperty prop;
		ZyanUPointer value;
	} props[] = {
		{ ZYDIS_FORMATTER_PROP_FORCE_SIZE, ZYAN_TRUE },
		{ ZYDIS_FORMATTER_PROP_FORCE_RELATIVE_RIPREL, ZYAN_TRUE },
		{ ZYDIS_FORMATTER_PROP_HEX_UPPERCASE, ZYAN_FALSE },
		{ ZYDIS_FORMATTER_PROP_ADDR_PADDING_ABSOLUTE, ZYDIS_PADDING_DISABLED },
		{ ZYDIS_FORMATTER_PROP_IMM_PADDING, ZYDIS_PADDING_DISABLED },
		{ ZYDIS_FORMATTER_PROP_DISP_PADDING, ZYDIS_PADDING_DISABLED },
	};

	if (ZYAN_FAILED(lib.ZydisDecoderInit(&d->dec, ZYDIS_MACHINE_MODE_LONG_64,
					     ZYDIS_STACK_WIDTH_64)) ||
	    ZYAN_FAILED(lib.ZydisFormatterInit(&d->fmt, ZYDIS_FORMATTER_STYLE_INTEL)))
		return false;
	for (size_t i = 0; i < sizeof(props) / sizeof(props[0]); i++)
		if (ZYAN_FAILED(lib.ZydisFormatterSetProperty(&d->fmt, props[i].prop,
							      props[i].value)))
			return false;
	d->print_size = print_size_hook;
	return ZYAN_SUCCESS(lib.ZydisFormatterSetHook(&d->fmt, ZYDIS_FORMATTER_FUNC_PRINT_TYPECAST,
						      (const void **)&d->print_size));
}

static bool decode(const struct decoder *dc, const uint8_t *p, size_t left, uint64_t addr,
		   struct decoded *d)
{
	d->addr = addr;
	d->bytes = p;
	d->dec = &dc->dec;
	return ZYAN_SUCCESS(lib.ZydisDecoderDecodeFull(&dc->dec, p, left, &d->in, d->op));
}

static bool is_branch(const struct decoded *d)
{
	switch (d->in.meta.category) {
	case ZYDIS_CATEGORY_CALL:
	case ZYDIS_CATEGORY_COND_BR:   /* jcc, jrcxz, loop, xbegin */
	case ZYDIS_CATEGORY_UNCOND_BR:
		return true;
	default:
		return false;
	}
}

/* The ELF address a direct branch or call goes to, 0 for an indirect one. */
static uint64_t imm_target(const struct decoded *d)
{
	ZyanU64 abs;

	if (!is_branch(d))
		return 0;
	for (uint8_t i = 0; i < d->in.operand_count_visible; i++) {
		const ZydisDecodedOperand *op = &d->op[i];
		if (op->type == ZYDIS_OPERAND_TYPE_IMMEDIATE && op->imm.is_relative &&
		    ZYAN_SUCCESS(lib.ZydisCalcAbsoluteAddress(&d->in, op, d->addr, &abs)))
			return abs;
	}
	return 0;
}

static enum flow_kind kind_of(const struct decoded *d, uint64_t target)
{
	switch (d->in.meta.category) {
	case ZYDIS_CATEGORY_CALL:
		return FLOW_CALL;
	case ZYDIS_CATEGORY_RET:
		return FLOW_RET;
	case ZYDIS_CATEGORY_UNCOND_BR:
		return target ? FLOW_JUMP : FLOW_IJUMP;
	case ZYDIS_CATEGORY_COND_BR:
		return target ? FLOW_CJUMP : FLOW_IJUMP;
	default:
		return FLOW_PLAIN;
	}
}

/* Bits of the first vector register operand: the data of a gather or
 * scatter, whose VSIB operand Zydis sizes as one element. */
static unsigned vector_bits(const struct decoded *d)
{
	for (uint8_t i = 0; i < d->in.operand_count_visible; i++) {
		const ZydisDecodedOperand *op = &d->op[i];
		if (op->type != ZYDIS_OPERAND_TYPE_REGISTER)
			continue;
		switch (lib.ZydisRegisterGetClass(op->reg.value)) {
		case ZYDIS_REGCLASS_XMM:
		case ZYDIS_REGCLASS_YMM:
		case ZYDIS_REGCLASS_ZMM:
			return op->size;
		default:
			break;
		}
	}
	return 0;
}

/* The memory operands objdump's text shows: the explicit ones, and a
 * string instruction's (movs, stos...) that Zydis keeps hidden; not the
 * stack slot of a push, call or ret, nor lea's address, nor an MIB operand
 * (MPX; AMX tile loads and stores, whose size the tile configuration sets
 * at run time). */
static bool touches_memory(const struct decoded *d, const ZydisDecodedOperand *op)
{
	if (op->type != ZYDIS_OPERAND_TYPE_MEMORY)
		return false;
	if (op->mem.type != ZYDIS_MEMOP_TYPE_MEM && op->mem.type != ZYDIS_MEMOP_TYPE_VSIB)
		return false;
	return op->visibility != ZYDIS_OPERAND_VISIBILITY_HIDDEN ||
	       d->in.meta.category == ZYDIS_CATEGORY_STRINGOP;
}

/* Bytes read and written through memory operands per execution (a masked
 * or conditional access counts whole, a broadcast one element); NOPs name
 * memory without touching it. */
static void memory_bytes(const struct decoded *d, uint16_t *load, uint16_t *store)
{
	*load = *store = 0;
	if (d->in.meta.category == ZYDIS_CATEGORY_NOP ||
	    d->in.meta.category == ZYDIS_CATEGORY_WIDENOP)
		return;
	for (uint8_t i = 0; i < d->in.operand_count; i++) {
		const ZydisDecodedOperand *op = &d->op[i];
		unsigned bits;
		if (!touches_memory(d, op))
			continue;
		bits = op->mem.type == ZYDIS_MEMOP_TYPE_VSIB ? vector_bits(d) : op->size;
		if (op->actions & ZYDIS_OPERAND_ACTION_MASK_READ)
			*load = (uint16_t)(*load + bits / 8);
		if (op->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE)
			*store = (uint16_t)(*store + bits / 8);
	}
}

/* ---- objdump's spelling ----------------------------------------------- */

/* Condition suffixes Zydis names by the flags tested, objdump by the
 * relation (jnbe / ja). */
static const char *const cc_alias[][2] = {
	{ "nbe", "a" }, { "nb", "ae" }, { "z", "e" }, { "nz", "ne" }, { "nle", "g" }, { "nl", "ge" },
};

/* Comparison predicates objdump folds into the mnemonic (cmpltps for
 * cmpps with 1): 8 for SSE, 32 for VEX and EVEX. */
static const char *const cmp_pred[32] = {
	"eq", "lt", "le", "unord", "neq", "nlt", "nle", "ord",
	"eq_uq", "nge", "ngt", "false", "neq_oq", "ge", "gt", "true",
	"eq_os", "lt_oq", "le_oq", "unord_s", "neq_us", "nlt_uq", "nle_uq", "ord_s",
	"eq_us", "nge_uq", "ngt_uq", "false_os", "neq_os", "ge_oq", "gt_oq", "true_us",
};

static bool in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return true;
	return false;
}

/* The immediate ending the operands (a predicate), or -1. */
static long last_imm(const struct decoded *d)
{
	const ZydisDecodedOperand *op;

	if (!d->in.operand_count_visible)
		return -1;
	op = &d->op[d->in.operand_count_visible - 1];
	return op->type == ZYDIS_OPERAND_TYPE_IMMEDIATE ? (long)(op->imm.value.u & 0xff) : -1;
}

static bool cc_name(const char *m, char *out, size_t size)
{
	static const char *const heads[] = { "j", "set", "cmov" };

	for (size_t h = 0; h < sizeof(heads) / sizeof(heads[0]); h++) {
		size_t n = strlen(heads[h]);
		if (strncmp(m, heads[h], n) != 0)
			continue;
		for (size_t i = 0; i < sizeof(cc_alias) / sizeof(cc_alias[0]); i++)
			if (strcmp(m + n, cc_alias[i][0]) == 0) {
				snprintf(out, size, "%s%s", heads[h], cc_alias[i][1]);
				return true;
			}
	}
	return false;
}

/* cmpps/vcmpps xmm, xmm, imm -> cmpXXps: the predicate becomes the name. */
static bool cmp_name(const char *m, long imm, char *out, size_t size)
{
	static const char *const sse[] = { "cmpps", "cmppd", "cmpss", "cmpsd", NULL };
	static const char *const avx[] = { "vcmpps", "vcmppd", "vcmpss", "vcmpsd", "vcmpph",
					   "vcmpsh", NULL };
	static const char *const vpcmp[] = { "b", "w", "d", "q", "ub", "uw", "ud", "uq", NULL };
	static const char *const clmul[] = { "lqlq", "hqlq", "lqhq", "hqhq" };
	size_t n = strlen(m);

	if (imm < 0)
		return false;
	if ((in_list(m, sse) && imm < 8) || (in_list(m, avx) && imm < 32)) {
		snprintf(out, size, "%.*s%s%s", (int)(n - 2), m, cmp_pred[imm], m + n - 2);
		return true;
	}
	/* EVEX integer compares: 3 and 7 have no alias. */
	if (strncmp(m, "vpcmp", 5) == 0 && in_list(m + 5, vpcmp) && imm < 8 && imm != 3 &&
	    imm != 7) {
		snprintf(out, size, "vpcmp%s%s", cmp_pred[imm], m + 5);
		return true;
	}
	if ((strcmp(m, "pclmulqdq") == 0 || strcmp(m, "vpclmulqdq") == 0) && (imm & ~0x11) == 0) {
		snprintf(out, size, "%.*s%sdq", (int)(n - 3), m, clmul[(imm & 1) | (imm >> 3)]);
		return true;
	}
	return false;
}

/* Other names objdump gives: the 64-bit mode's default flag pushes and
 * interrupt return without their size suffix. */
static const char *const renamed[][2] = {
	{ "pushfq", "pushf" }, { "popfq", "popf" }, { "iretd", "iret" },
};

static bool plain_name(const char *m, char *out, size_t size)
{
	for (size_t i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++)
		if (strcmp(m, renamed[i][0]) == 0) {
			snprintf(out, size, "%s", renamed[i][1]);
			return true;
		}
	return false;
}

/* mov with a 64-bit immediate or absolute address is objdump's movabs. */
static bool movabs_name(const struct decoded *d, const char *m, char *out, size_t size)
{
	if (strcmp(m, "mov") != 0 || (d->in.raw.imm[0].size != 64 && d->in.raw.disp.size != 64))
		return false;
	snprintf(out, size, "movabs");
	return true;
}

static bool word_end(char c)
{
	return c == '\0' || c == ' ' || c == ',';
}

/* Replaces the first word FROM at or after offset AT of TEXT (the
 * mnemonic, after any prefixes; a register) by TO.  Returns the offset
 * after TO, 0 when there is no such word. */
static size_t replace_word_at(char *text, size_t size, size_t at, const char *from,
			      const char *to)
{
	size_t n = strlen(from);
	char *p = text + at, rest[RAW_TEXT_MAX];

	while ((p = strstr(p, from)) != NULL) {
		if ((p == text || p[-1] == ' ' || p[-1] == ',') && word_end(p[n]))
			break;
		p += n;
	}
	if (!p)
		return 0;
	snprintf(rest, sizeof(rest), "%s", p + n);
	snprintf(p, size - (size_t)(p - text), "%s%s", to, rest);
	return (size_t)(p - text) + strlen(to);
}

static void replace_word(char *text, size_t size, const char *from, const char *to)
{
	replace_word_at(text, size, 0, from, to);
}

/* Cuts the text's last operand (", 0x11"). */
static void drop_last_operand(char *text)
{
	char *comma = strrchr(text, ',');

	if (comma)
		*comma = '\0';
}

/* "zmm1 {k1} {z}" -> "zmm1{k1}{z}", as objdump writes decorators. */
static void join_decorators(char *text)
{
	char *w = text;

	for (const char *r = text; *r; r++)
		if (!(r[0] == ' ' && r[1] == '{'))
			*w++ = *r;
	*w = '\0';
}

/* Inserts S at offset AT of TEXT (SIZE bytes), if it fits. */
static void insert_at(char *text, size_t size, size_t at, const char *s)
{
	size_t n = strlen(s), len = strlen(text);

	if (len + n + 1 > size)
		return;
	memmove(text + at + n, text + at, len - at + 1);
	memcpy(text + at, s, n);
}

static void delete_at(char *text, size_t at)
{
	memmove(text + at, text + at + 1, strlen(text + at + 1) + 1);
}

/* objdump's memory operands: an encoded zero displacement is written
 * ("[rbp+0x0]"), an absolute address has no brackets ("fs:0x28",
 * "ds:0x601040").  The operands' brackets come in operand order. */
static void objdump_memory(const struct decoded *d, char *text, size_t size)
{
	size_t from = 0;

	for (uint8_t i = 0; i < d->in.operand_count_visible; i++) {
		const ZydisDecodedOperandMem *mem = &d->op[i].mem;
		char *open, *close;
		size_t o, c;
		if (d->op[i].type != ZYDIS_OPERAND_TYPE_MEMORY)
			continue;
		open = strchr(text + from, '[');
		close = open ? strchr(open, ']') : NULL;
		if (!close)
			return;
		o = (size_t)(open - text);
		c = (size_t)(close - text);
		if (mem->base == ZYDIS_REGISTER_NONE && mem->index == ZYDIS_REGISTER_NONE) {
			delete_at(text, c);
			if (o > 0 && text[o - 1] == ':') {
				delete_at(text, o);
				c--;
			} else {
				text[o] = ':';
				insert_at(text, size, o, "ds");
				c += 2;
			}
		} else if (mem->disp.has_displacement && mem->disp.value == 0) {
			insert_at(text, size, c, "+0x0");
			c += 5;
		} else {
			c++;
		}
		from = c < strlen(text) ? c : strlen(text);
	}
}

/* objdump's names for two encodings Zydis calls otherwise: 66 90 is
 * "xchg ax,ax", a shift or rotate by the implicit 1 (d0, d1) is by "1". */
static void objdump_forms(const struct decoded *d, char *text, size_t size)
{
	size_t len = strlen(text);

	if (d->in.meta.category == ZYDIS_CATEGORY_NOP && d->in.mnemonic == ZYDIS_MNEMONIC_NOP &&
	    d->in.operand_width == 16) {
		snprintf(text, size, "xchg ax, ax");
		return;
	}
	if (last_imm(d) == 1 && d->in.raw.imm[0].size == 0 && len >= 5 &&
	    strcmp(text + len - 5, ", 0x1") == 0) {
		delete_at(text, len - 3);  /* the "0x" */
		delete_at(text, len - 3);
	}
}

/* x87 registers as objdump writes them: the one the ModRM byte selects
 * "st(1)", the fixed top of the stack "st" ("fmulp st(1),st"). */
static void objdump_x87(const struct decoded *d, char *text, size_t size)
{
	size_t at = 0;

	for (uint8_t i = 0; i < d->in.operand_count_visible; i++) {
		const ZydisDecodedOperand *op = &d->op[i];
		const char *name;
		char to[16];
		if (op->type != ZYDIS_OPERAND_TYPE_REGISTER ||
		    lib.ZydisRegisterGetClass(op->reg.value) != ZYDIS_REGCLASS_X87)
			continue;
		name = lib.ZydisRegisterGetString(op->reg.value);  /* "st1" */
		if (!name || strlen(name) != 3)
			return;
		if (op->encoding == ZYDIS_OPERAND_ENCODING_MODRM_RM)
			snprintf(to, sizeof(to), "st(%c)", name[2]);
		else
			snprintf(to, sizeof(to), "st");
		at = replace_word_at(text, size, at, name, to);
		if (!at)
			return;
	}
}

static const char *prefix_word(uint8_t byte)
{
	switch (byte) {
	case 0x66: return "data16";
	case 0x67: return "addr32";
	case 0x2e: return "cs";
	case 0x3e: return "ds";
	case 0x26: return "es";
	case 0x36: return "ss";
	case 0x64: return "fs";
	case 0x65: return "gs";
	case 0xf0: return "lock";
	case 0xf2: return "repnz";
	case 0xf3: return "repz";
	default: return NULL;  /* REX: rex_word */
	}
}

/* Whether BYTES (N of them) decode to D's instruction: the same mnemonic
 * and visible operands, each of the same size (a relative branch's offset
 * is its own, so a byte less before it changes nothing; an operand size
 * without operands, nop's, is no use objdump sees). */
static bool same_insn(const struct decoded *d, const uint8_t *bytes, size_t n)
{
	ZydisDecodedInstruction in;
	ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];

	if (ZYAN_FAILED(lib.ZydisDecoderDecodeFull(d->dec, bytes, n, &in, op)) ||
	    in.length != n || in.mnemonic != d->in.mnemonic ||
	    in.operand_count_visible != d->in.operand_count_visible)
		return false;
	for (uint8_t i = 0; i < in.operand_count_visible; i++) {
		const ZydisDecodedOperand *a = &op[i], *b = &d->op[i];
		if (a->type != b->type || a->size != b->size)
			return false;
		if ((a->type == ZYDIS_OPERAND_TYPE_REGISTER && a->reg.value != b->reg.value) ||
		    (a->type == ZYDIS_OPERAND_TYPE_IMMEDIATE && a->imm.value.u != b->imm.value.u) ||
		    (a->type == ZYDIS_OPERAND_TYPE_MEMORY &&
		     (a->mem.base != b->mem.base || a->mem.index != b->mem.index ||
		      a->mem.scale != b->mem.scale || a->mem.segment != b->mem.segment ||
		      a->mem.disp.value != b->mem.disp.value)))
			return false;
	}
	return true;
}

/* D's bytes with the one at AT left out (DROP) or with AT's byte MASK
 * cleared: the same instruction?  (A prefix objdump calls unused.) */
static bool same_without(const struct decoded *d, size_t at, bool drop, uint8_t mask)
{
	uint8_t b[ZYDIS_MAX_INSTRUCTION_LENGTH];
	size_t n = d->in.length;

	if (n > sizeof(b) || at >= n)
		return false;
	memcpy(b, d->bytes, n);
	if (!drop) {
		b[at] = (uint8_t)(b[at] & ~mask);
		return same_insn(d, b, n);
	}
	memmove(b + at, b + at + 1, n - at - 1);
	return same_insn(d, b, n - 1);
}

/* objdump's word for the REX prefix at AT ("rex.W", "rex.WRXB", "rex")
 * when it writes one: when the decoder ignored it (IGNORED), or a bit it
 * sets (with none set, the prefix itself) changes nothing (binutils
 * i386-dis.c prints the REX prefix unless every bit of it is used), e.g.
 * "rex.W call" (a near call's operand size is 64 bits whatever W says),
 * "rex.WX add rax,rax" (X without an index). */
static bool rex_word(const struct decoded *d, size_t at, bool ignored, char *out, size_t size)
{
	static const struct { uint8_t bit; char name; } bits[] = {
		{ 8, 'W' }, { 4, 'R' }, { 2, 'X' }, { 1, 'B' },
	};
	uint8_t rex = d->bytes[at];
	bool unused = ignored || ((rex & 15) == 0 && same_without(d, at, true, 0));
	size_t n = (size_t)snprintf(out, size, "rex");

	for (size_t i = 0; i < 4 && !unused; i++)
		unused = (rex & bits[i].bit) && same_without(d, at, false, bits[i].bit);
	if (!unused)
		return false;
	if (rex & 15)
		out[n++] = '.';
	for (size_t i = 0; i < 4 && n + 1 < size; i++)
		if (rex & bits[i].bit)
			out[n++] = bits[i].name;
	out[n] = '\0';
	return true;
}

/* The prefixes an instruction does not use, which objdump writes as words
 * before it ("data16 cs nop" in padding, "repz ret"), and the branch hints
 * ("cs je").  A 0x66 REX.W overrides is one too, and the REX prefix where
 * rex_word says: the general-dynamic TLS sequence's "data16 data16 rex.W
 * call __tls_get_addr@plt" (binutils i386-dis.c prints the data prefix
 * unless the operand size used it). */
static void objdump_prefix_words(const struct decoded *d, char *text, size_t size)
{
	char words[64] = "", rex[16];
	size_t n = 0;
	bool rex_w = d->in.attributes & ZYDIS_ATTRIB_HAS_REX && d->in.raw.rex.W;

	for (uint8_t i = 0; i < d->in.raw.prefix_count; i++) {
		uint8_t byte = d->in.raw.prefixes[i].value;
		ZydisPrefixType type = d->in.raw.prefixes[i].type;
		const char *w = prefix_word(byte);
		bool hint = d->in.meta.category == ZYDIS_CATEGORY_COND_BR &&
			    (byte == 0x2e || byte == 0x3e);
		bool is_rex = (byte & 0xf0) == 0x40;  /* prefix I is byte I */
		if (is_rex)
			w = rex_word(d, i, type == ZYDIS_PREFIX_TYPE_IGNORED, rex, sizeof(rex)) ? rex
												   : NULL;
		else if (byte == 0x66 && type == ZYDIS_PREFIX_TYPE_EFFECTIVE && rex_w &&
			 same_without(d, i, true, 0))
			type = ZYDIS_PREFIX_TYPE_IGNORED;  /* REX.W overrides it */
		if (!w || (!is_rex && type != ZYDIS_PREFIX_TYPE_IGNORED && !hint))
			continue;
		if (n + strlen(w) + 2 > sizeof(words))
			break;
		n += (size_t)snprintf(words + n, sizeof(words) - n, "%s ", w);
	}
	insert_at(text, size, 0, words);
}

/* One operand of a string instruction as objdump writes it: a register,
 * or memory with its size and segment always ("DWORD PTR es:[rdi]"). */
static size_t string_operand(const ZydisDecodedOperand *op, char *out, size_t size)
{
	static const char *const sizes[] = { "byte", "word", "dword", "qword" };
	const char *seg = lib.ZydisRegisterGetString(op->mem.segment);
	const char *base = lib.ZydisRegisterGetString(op->mem.base);
	unsigned k = op->size == 8 ? 0 : op->size == 16 ? 1 : op->size == 32 ? 2 : 3;

	if (op->type == ZYDIS_OPERAND_TYPE_REGISTER)
		return (size_t)snprintf(out, size, "%s", lib.ZydisRegisterGetString(op->reg.value));
	return (size_t)snprintf(out, size, "%s ptr %s:[%s]", sizes[k], seg ? seg : "ds",
				base ? base : "?");
}

/* objdump writes a string instruction (movs, stos, lods, scas, cmps, ins,
 * outs) by its bare name and its two operands, which Zydis keeps hidden
 * and folds into a size suffix: "rep stos dword ptr es:[rdi], eax" for
 * Zydis's "rep stosd".  The first two operands Zydis decodes are the
 * Intel ones, in the manual's order. */
static void objdump_string_op(const struct decoded *d, const char *m, char *text, size_t size)
{
	char to[96];
	size_t n;

	if ((d->in.meta.category != ZYDIS_CATEGORY_STRINGOP &&
	     d->in.meta.category != ZYDIS_CATEGORY_IOSTRINGOP) ||
	    d->in.operand_count < 2 || strlen(m) < 4)
		return;
	n = (size_t)snprintf(to, sizeof(to), "%.*s ", (int)(strlen(m) - 1), m);
	n += string_operand(&d->op[0], to + n, sizeof(to) - n);
	if (n + 2 < sizeof(to))
		n += (size_t)snprintf(to + n, sizeof(to) - n, ", ");
	if (n < sizeof(to))
		string_operand(&d->op[1], to + n, sizeof(to) - n);
	replace_word(text, size, m, to);
}

/* Zydis's Intel text as objdump writes it: decorators joined, memory
 * operands, xchg ax,ax, x87 registers, unused prefixes; objdump's mnemonics (condition
 * codes, compare predicates and pclmul selectors folded into the name, the
 * immediate then going; movabs, pushf, repz/repnz, retf; string
 * instructions with their operands); a wide nop
 * without its register operand. */
static void objdump_spelling(const struct decoded *d, char *text, size_t size)
{
	const char *m = lib.ZydisMnemonicGetString(d->in.mnemonic);
	long imm = last_imm(d);
	char alias[32];

	join_decorators(text);
	objdump_memory(d, text, size);
	objdump_forms(d, text, size);
	objdump_x87(d, text, size);
	objdump_prefix_words(d, text, size);
	if (!m)
		return;
	if (d->in.meta.category == ZYDIS_CATEGORY_WIDENOP && d->in.operand_count_visible == 2)
		drop_last_operand(text);
	if (cmp_name(m, imm, alias, sizeof(alias))) {
		drop_last_operand(text);
		replace_word(text, size, m, alias);
	} else if (cc_name(m, alias, sizeof(alias)) || movabs_name(d, m, alias, sizeof(alias)) ||
		   plain_name(m, alias, sizeof(alias))) {
		replace_word(text, size, m, alias);
	}
	objdump_string_op(d, m, text, size);
	replace_word(text, size, "repe", "repz");
	replace_word(text, size, "repne", "repnz");
	if (d->in.meta.category == ZYDIS_CATEGORY_RET)
		replace_word(text, size, "ret far", "retf");
}

/* The ELF address a [rip+disp] operand names, or 0. */
static uint64_t rip_address(const struct decoded *d)
{
	ZyanU64 abs;

	for (uint8_t i = 0; i < d->in.operand_count_visible; i++)
		if (d->op[i].type == ZYDIS_OPERAND_TYPE_MEMORY &&
		    d->op[i].mem.base == ZYDIS_REGISTER_RIP &&
		    ZYAN_SUCCESS(lib.ZydisCalcAbsoluteAddress(&d->in, &d->op[i], d->addr, &abs)))
			return abs;
	return 0;
}

/* The text, a branch's target named as objdump does ("jne 0x1190
 * <f+0x10>"), a [rip+disp] operand's address in a comment ("# 0x4010
 * <name>"). */
static void format_text(struct asm_insn *in, const struct decoder *dc, const struct decoded *d,
			uint64_t bias, asm_namer namer, void *arg)
{
	char raw[RAW_TEXT_MAX], name[100], comment[128] = "";
	uint64_t rip = rip_address(d);
	ZydisFormatterFunc print_size = dc->print_size;

	if (ZYAN_FAILED(lib.ZydisFormatterFormatInstruction(&dc->fmt, &d->in, d->op,
							    d->in.operand_count_visible, raw,
							    sizeof(raw), d->addr, &print_size)))
		snprintf(raw, sizeof(raw), "%s", lib.ZydisMnemonicGetString(d->in.mnemonic));
	objdump_spelling(d, raw, sizeof(raw));
	if (rip) {
		disasm_name_of(rip + bias, namer, arg, name, sizeof(name));
		snprintf(comment, sizeof(comment), " # 0x%" PRIx64 "%s", rip, name);
	}
	disasm_name_of(in->op.target, namer, arg, name, sizeof(name));
	/* An overlong text is cut (the longest EVEX forms fit). */
	if (snprintf(in->text, sizeof(in->text), "%s%s%s", raw, name, comment) < 0)
		in->text[0] = '\0';
}

static void fill_insn(struct asm_insn *in, const struct decoder *dc, const struct decoded *d,
		      uint64_t bias, asm_namer namer, void *arg)
{
	uint64_t target = imm_target(d);

	in->op.addr = d->addr + bias;
	in->op.size = d->in.length;
	in->op.target = target ? target + bias : 0;
	in->op.kind = (uint8_t)kind_of(d, in->op.target);
	memory_bytes(d, &in->op.load_bytes, &in->op.store_bytes);
	format_text(in, dc, d, bias, namer, arg);
}

int disasm_x86_64(const uint8_t *code, size_t len, uint64_t start, uint64_t bias,
		  asm_namer namer, void *arg, struct insn_vec *iv)
{
	struct decoder dc;
	struct decoded d;
	uint64_t addr = start - bias;  /* the text shows ELF addresses, as objdump */
	size_t off = 0;

	if (!disasm_x86_64_loaded() || !decoder_init(&dc))
		return -1;
	while (off < len) {
		struct asm_insn *in = disasm_vec_push(iv);
		if (!in)
			return -1;
		if (decode(&dc, code + off, len - off, addr + off, &d)) {
			fill_insn(in, &dc, &d, bias, namer, arg);
			off += d.in.length;
			continue;
		}
		/* Resynchronize one byte further on. */
		disasm_fill_bad(in, start + off, code + off, 1);
		off++;
	}
	return 0;
}
#endif
