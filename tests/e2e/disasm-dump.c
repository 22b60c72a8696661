/* disasm-dump: engine/disasm.c on an ELF file, without running it (a test
 * tool, not installed).
 *
 *   disasm-dump FILE FUNCTION...     each function's instructions
 *   disasm-dump FILE 0xADDR          the function at ADDR (names that share
 *                                    an address are one function)
 *   disasm-dump FILE 0xSTART-0xEND   the bytes of [START, END), no names
 *
 * The file's executable segments are mapped at their ELF addresses, so the
 * addresses printed are objdump's.  One line per instruction, tab-separated:
 *   ADDRESS SIZE KIND TARGET LOAD STORE TEXT
 * (hex addresses without 0x, TARGET "-" when none; KIND plain, jump, cjump,
 * ijump, call, ret or bad), each function under a line
 *   function NAME START END UNDECODABLE
 * Used by tests/e2e/annotate-evex.sh to compare with objdump on code the host
 * may not run (AVX-512).  Exit 1 with one line on stderr on error. */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/disasm.h"
#include "engine/symbols.h"

#define PAGE_MASK 0xfffULL

static const char *const kind_name[] = {
	[FLOW_PLAIN] = "plain", [FLOW_JUMP] = "jump", [FLOW_CJUMP] = "cjump",
	[FLOW_IJUMP] = "ijump", [FLOW_CALL] = "call", [FLOW_RET] = "ret", [FLOW_BAD] = "bad",
};

/* Maps every executable PT_LOAD of PATH at its own addresses. */
static int map_file(struct symtab *st, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = -1;
	Elf *elf;
	size_t n;

	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_getphdrnum(elf, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr ph;
			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
			    !(ph.p_flags & PF_X))
				continue;
			rc = symtab_add_map(st, path, ph.p_vaddr & ~PAGE_MASK,
					    (ph.p_vaddr + ph.p_memsz + PAGE_MASK) & ~PAGE_MASK,
					    ph.p_offset & ~PAGE_MASK);
			if (rc < 0)
				break;
		}
	}
	elf_end(elf);
	close(fd);
	return rc;
}

static void print_insns(const struct asm_func *f)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct asm_insn *in = &f->insn[i];
		char target[32] = "-";
		if (in->op.target)
			snprintf(target, sizeof(target), "%" PRIx64, in->op.target - f->bias);
		printf("%" PRIx64 "\t%u\t%s\t%s\t%u\t%u\t%s\n", in->op.addr - f->bias, in->op.size,
		       kind_name[in->op.kind], target, in->op.load_bytes, in->op.store_bytes,
		       in->text);
	}
}

static int dump_function(struct symtab *st, const char *file, const char *name, uint64_t addr)
{
	struct sym_info si;
	struct asm_func *f;
	char err[256];

	if (name && !symtab_find(st, name, NULL, &si)) {
		fprintf(stderr, "disasm-dump: %s: no function %s\n", file, name);
		return 1;
	}
	if (name)
		addr = si.start;
	f = disasm_function(st, addr, addr, err, sizeof(err));
	if (!f) {
		fprintf(stderr, "disasm-dump: %s: %s\n", name ? name : file, err);
		return 1;
	}
	printf("function %s %" PRIx64 " %" PRIx64 " %zu\n", f->name, f->start - f->bias,
	       f->end - f->bias, f->n_bad);
	print_insns(f);
	asm_func_free(f);
	return 0;
}

static int dump_range(struct symtab *st, const char *file, uint64_t start, uint64_t end)
{
	size_t avail;
	const uint8_t *code = symtab_code(st, start, &avail);
	struct asm_func *f;

	if (!code || end <= start || end - start > avail) {
		fprintf(stderr, "disasm-dump: %s: no code bytes at 0x%" PRIx64 "-0x%" PRIx64 "\n",
			file, start, end);
		return 1;
	}
	f = disasm_bytes(symtab_machine(st, start), code, end - start, start, 0, NULL, NULL);
	if (!f) {
		fprintf(stderr, "disasm-dump: out of memory\n");
		return 1;
	}
	print_insns(f);
	asm_func_free(f);
	return 0;
}

int main(int argc, char **argv)
{
	struct symtab *st;
	uint64_t start, end;
	char *path;
	int rc = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: disasm-dump FILE (FUNCTION | 0xADDR | 0xSTART-0xEND)...\n");
		return 2;
	}
	/* symtab opens absolute paths only (as /proc/PID/maps gives them). */
	path = realpath(argv[1], NULL);
	st = symtab_new(NULL);
	if (!path || !st || map_file(st, path) < 0) {
		fprintf(stderr, "disasm-dump: %s: no executable segment to read\n", argv[1]);
		symtab_free(st);
		free(path);
		return 1;
	}
	for (int i = 2; i < argc && rc == 0; i++) {
		int n = sscanf(argv[i], "0x%" SCNx64 "-0x%" SCNx64, &start, &end);
		if (n == 2)
			rc = dump_range(st, path, start, end);
		else
			rc = dump_function(st, path, n == 1 ? NULL : argv[i], start);
	}
	symtab_free(st);
	free(path);
	return rc;
}
