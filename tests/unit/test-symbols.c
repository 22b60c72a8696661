/* Tests of engine/symbols.c on this test process itself and the system's
 * libraries: no fixture binaries, so nothing depends on how they were built. */
#include "engine/symbols.h"
#include "engine/sys.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

/* The function the tests symbolize.  Not static and noclone so that its
 * symbol keeps this exact name at -O2. */
int symtest_target(int x);
static const int target_first_line = __LINE__ + 1;
__attribute__((noinline, noclone)) int symtest_target(int x)
{
	volatile int acc = x;

	for (int i = 0; i < x; i++)
		acc += i * 3 + (acc >> 2);
	return acc;
}
static const int target_last_line = __LINE__ - 1;

/* Through a volatile pointer: the address the code really runs at. */
static int (*volatile target_ptr)(int) = symtest_target;

static uint64_t target_ip(void)
{
	return (uint64_t)(uintptr_t)target_ptr;
}

static const char *self_exe(void)
{
	static char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	assert_true(n > 0);
	path[n] = '\0';
	return path;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* This process's mapping that contains ADDR, from /proc/self/maps. */
static void self_mapping(uint64_t addr, uint64_t *start, uint64_t *end, uint64_t *pgoff)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	bool found = false;

	assert_non_null(f);
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64, start, end, pgoff) == 3)
			found = *start <= addr && addr < *end;
	}
	fclose(f);
	assert_true(found);
}

static int setup_self(void **state)
{
	struct symtab *st = symtab_new(NULL);

	if (!st || symtab_add_proc_maps(st, getpid()) != 0)
		return -1;
	*state = st;
	return 0;
}

static int setup_empty(void **state)
{
	*state = symtab_new(NULL);
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	symtab_free(*state);
	return 0;
}

static void test_own_function(void **state)
{
	struct symtab *st = *state;
	struct sym_info si, mid;
	uint64_t ip = target_ip();

	assert_true(symtab_lookup(st, ip, &si));
	assert_non_null(si.name);
	assert_string_equal(si.name, "symtest_target");
	assert_non_null(si.module);
	assert_string_equal(si.module, self_exe());
	assert_true(si.size > 0);
	assert_true(si.start <= ip && ip < si.start + si.size);
	assert_int_equal(si.start, ip);

	/* An address in the middle of the function. */
	assert_true(symtab_lookup(st, si.start + si.size / 2, &mid));
	assert_non_null(mid.name);
	assert_string_equal(mid.name, "symtest_target");
	assert_int_equal(mid.start, si.start);
	assert_int_equal(mid.size, si.size);
	/* Bias: the module's vaddr 0 lies at or below the function. */
	assert_true(si.module_base <= si.start);
}

static void test_libc_function(void **state)
{
	struct symtab *st = *state;
	struct sym_info si;
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	void *fn;

	assert_non_null(libc);
	fn = dlsym(libc, "getpid");  /* libc's own, not a sanitizer interceptor */
	assert_non_null(fn);
	assert_true(symtab_lookup(st, (uint64_t)(uintptr_t)fn, &si));
	assert_non_null(si.module);
	assert_non_null(strstr(base_name(si.module), "libc"));
	assert_non_null(si.name);
	/* perf's choice: the global __getpid over the weak getpid (with
	 * libc6-dbg also over the locals __GI_getpid and __GI___getpid). */
	assert_string_equal(si.name, "__getpid");
	assert_int_equal(si.start, (uint64_t)(uintptr_t)fn);
	dlclose(libc);
}

/* Whether the ELF file at PATH has a .symtab section of its own. */
static bool file_has_symtab(const char *path)
{
	int fd = open(path, O_RDONLY);
	Elf *elf;
	Elf_Scn *scn = NULL;
	bool found = false;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	while (!found && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		found = gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB;
	}
	elf_end(elf);
	close(fd);
	return found;
}

/* libcmocka is shipped stripped (.dynsym only) and has no debug package
 * installed: the exported name must still come out. */
/* Whether this process maps a file whose path contains WHAT. */
static bool self_maps_has(const char *what)
{
	char line[512];
	bool found = false;
	FILE *f = fopen("/proc/self/maps", "re");

	assert_non_null(f);
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, what) != NULL;
	fclose(f);
	return found;
}

static void test_stripped_library(void **state)
{
	struct symtab *st = *state;
	struct sym_info si;
	void *lib = dlopen("libcmocka.so.0", RTLD_NOW | RTLD_NOLOAD);
	void *fn;

	assert_non_null(lib);
	fn = dlsym(lib, "_cmocka_run_group_tests");
	assert_non_null(fn);
	assert_true(symtab_lookup(st, (uint64_t)(uintptr_t)fn, &si));
	assert_non_null(si.module);
	assert_non_null(strstr(base_name(si.module), "libcmocka"));
	if (file_has_symtab(si.module))
		print_message("note: %s has a .symtab here; .dynsym fallback not exercised\n",
			      si.module);
	assert_non_null(si.name);
	assert_string_equal(si.name, "_cmocka_run_group_tests");
	assert_int_equal(si.start, (uint64_t)(uintptr_t)fn);
	dlclose(lib);
	/* looking for its debuginfo (there is none) loaded no debuginfod client
	 * and its network libraries, no server being named */
	const char *urls = getenv("DEBUGINFOD_URLS");
	if (!urls || !urls[0])
		assert_false(self_maps_has("libdebuginfod"));
}

/* glibc's handle of the vDSO; NULL (test skipped) only when the process
 * has none, as under valgrind. */
static void *open_vdso(void)
{
	void *vdso;

	if (getauxval(AT_SYSINFO_EHDR) == 0)
		return NULL;
	vdso = dlopen("linux-vdso.so.1", RTLD_NOW | RTLD_NOLOAD);
	assert_non_null(vdso);
	return vdso;
}

static void test_vdso(void **state)
{
	struct symtab *st = *state;
	struct sym_info si;
	void *vdso = open_vdso();
	void *fn;

	if (!vdso) {
		print_message("skipped: this process has no vDSO (valgrind?)\n");
		skip();
	}
	fn = dlvsym(vdso, "__vdso_clock_gettime", "LINUX_2.6");
	assert_non_null(fn);
	assert_true(symtab_lookup(st, (uint64_t)(uintptr_t)fn, &si));
	assert_non_null(si.module);
	assert_string_equal(si.module, "[vdso]");
	assert_non_null(si.name);
	assert_non_null(strstr(si.name, "clock_gettime"));
	assert_int_equal(si.start, (uint64_t)(uintptr_t)fn);
	assert_true(si.size > 0);
	dlclose(vdso);
}

static void test_anonymous(void **state)
{
	struct symtab *st = *state;
	struct sym_info si;
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)page, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	uint64_t a = (uint64_t)(uintptr_t)p;

	assert_true(p != MAP_FAILED);
	assert_int_equal(symtab_add_map(st, "//anon", a, a + (uint64_t)page, 0), 0);
	assert_true(symtab_lookup(st, a + 16, &si));
	assert_null(si.name);
	assert_string_equal(si.module, "//anon");
	assert_false(symtab_srcline(st, a + 16, &(const char *){ NULL }, &(int){ 0 }));

	/* Outside any mapping. */
	assert_false(symtab_lookup(st, a + (uint64_t)page, &si));
	assert_null(si.module);
	assert_null(si.name);
	assert_false(symtab_lookup(st, a - 1, &si));
	munmap(p, (size_t)page);
}

/* perf's names for executable memory no file backs (util/map.c
 * is_anon_memory, is_no_dso_memory; util/dsos.c dso__set_basename) */
static void test_jit_names(void **state)
{
	static const struct {
		const char *path, *want;
	} cases[] = {
		{ "//anon", "[JIT] tid 42" },       { "", "[JIT] tid 42" },
		{ "/dev/zero (deleted)", "[JIT] tid 42" }, { "/anon_hugepage", "[JIT] tid 42" },
		{ "[stack]", "[JIT] tid 42" },      { "[heap]", "[JIT] tid 42" },
		{ "/SYSV00000000 (deleted)", "[JIT] tid 42" },
		{ "/usr/lib/libc.so.6", "/usr/lib/libc.so.6" }, { "[vdso]", "[vdso]" },
		{ "/memfd:x (deleted)", "/memfd:x (deleted)" }, { "[anon:x]", "[anon:x]" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(symbols_map_name(cases[i].path, 42, buf, sizeof(buf)),
				    cases[i].want);
	/* no process to name it by: the path as it is */
	assert_string_equal(symbols_map_name("//anon", 0, buf, sizeof(buf)), "//anon");
}

/* /tmp/perf-PID.map names the code of the JIT mapping of PID: "START SIZE
 * NAME" lines (hex, 0x or not), the later of two at one address, lines
 * that are not entries skipped; no map: no name. */
static void test_perf_map(void **state)
{
	struct symtab *st = *state;
	struct sym_info si;
	char path[64], jit[32];
	const char *name = symbols_map_name("//anon", getpid(), jit, sizeof(jit));
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	assert_non_null(f = fopen(path, "w"));
	fputs("1000 100 LazyCompile:*first a.js:1\n"
	      "garbage\n"
	      "0x1100 0x80 second\n"
	      "1100 80 second_recompiled\n"
	      "1200 0 empty\n"
	      "1300 40\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(symtab_add_map(st, name, 0x1000, 0x2000, 0), 0);
	assert_int_equal(symtab_add_map(st, name, 0x3000, 0x4000, 0), 0);
	assert_true(symtab_lookup(st, 0x10ff, &si));
	unlink(path);  /* read once, when the first address was looked up */
	assert_string_equal(si.module, name);
	assert_string_equal(si.name, "LazyCompile:*first a.js:1");
	assert_int_equal(si.start, 0x1000);
	assert_int_equal(si.size, 0x100);
	assert_true(symtab_lookup(st, 0x1150, &si));
	assert_string_equal(si.name, "second_recompiled");
	assert_true(symtab_lookup(st, 0x1200, &si));
	assert_null(si.name);
	assert_true(symtab_lookup(st, 0x3000, &si));
	assert_null(si.name);
	assert_string_equal(si.module, name);
}

/* Two JIT code objects of one name (a function compiled again after a
 * deoptimization) are two functions: each is named by its address, as
 * perf report keeps them apart; a name of one object stays as it is. */
static void test_perf_map_same_name(void **state)
{
	struct symtab *st = *state;
	struct sym_info si;
	char path[64], jit[32];
	const char *name = symbols_map_name("//anon", getpid(), jit, sizeof(jit));
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	assert_non_null(f = fopen(path, "w"));
	fputs("1000 100 JS:*hash a.js:3\n"
	      "1100 80 JS:~other a.js:9\n"
	      "1200 80 JS:*hash a.js:3\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(symtab_add_map(st, name, 0x1000, 0x2000, 0), 0);
	assert_true(symtab_lookup(st, 0x1010, &si));
	unlink(path);
	assert_string_equal(si.name, "JS:*hash a.js:3 [0x1000]");
	assert_true(symtab_lookup(st, 0x1210, &si));
	assert_string_equal(si.name, "JS:*hash a.js:3 [0x1200]");
	assert_int_equal(si.start, 0x1200);
	assert_true(symtab_lookup(st, 0x1110, &si));
	assert_string_equal(si.name, "JS:~other a.js:9");
}

/* NAME at IP of ST, or NULL (the lookup itself must find the mapping). */
static const char *jit_name(struct symtab *st, uint64_t ip)
{
	struct sym_info si;

	assert_true(symtab_lookup(st, ip, &si));
	return si.name;
}

/* Appends LINE to the perf map at PATH. */
static void map_append(const char *path, const char *line)
{
	FILE *f = fopen(path, "a");

	assert_non_null(f);
	fputs(line, f);
	assert_int_equal(fclose(f), 0);
}

/* A JIT's map grows as it compiles: an address the map did not name (or
 * no map yet) reads it again when it grew, once per
 * symtab_allow_jit_reread (a live watch's refresh); names handed out
 * before stay valid. */
static void test_perf_map_grows(void **state)
{
	struct symtab *st = *state;
	char path[64], jit[32];
	const char *name = symbols_map_name("//anon", getpid(), jit, sizeof(jit));

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	unlink(path);
	assert_int_equal(symtab_add_map(st, name, 0x1000, 0x2000, 0), 0);
	assert_int_equal(symtab_add_map(st, name, 0x5000, 0x6000, 0), 0);
	assert_null(jit_name(st, 0x1050));   /* no map yet */
	map_append(path, "1000 100 first\n");
	assert_null(jit_name(st, 0x1050));   /* not allowed to look again yet */
	symtab_allow_jit_reread(st);
	const char *first = jit_name(st, 0x1050);
	assert_non_null(first);
	assert_string_equal(first, "first");
	assert_null(jit_name(st, 0x1850));
	map_append(path, "1800 100 late\n5000 10 other_mapping\n");
	assert_null(jit_name(st, 0x1850));
	symtab_allow_jit_reread(st);
	assert_string_equal(jit_name(st, 0x1850), "late");
	assert_string_equal(jit_name(st, 0x5005), "other_mapping");
	assert_string_equal(first, "first");  /* the old table's name */
	assert_string_equal(jit_name(st, 0x1050), "first");
	/* one read per allowance: an unnamed address takes it */
	symtab_allow_jit_reread(st);
	assert_null(jit_name(st, 0x1f00));
	map_append(path, "1a00 10 later\n");
	assert_null(jit_name(st, 0x1a05));
	symtab_allow_jit_reread(st);
	assert_string_equal(jit_name(st, 0x1a05), "later");
	unlink(path);
}

static void expect_nameless(struct symtab *st, uint64_t ip, const char *module)
{
	struct sym_info si;

	assert_true(symtab_lookup(st, ip, &si));
	assert_non_null(si.module);
	assert_string_equal(si.module, module);
	assert_null(si.name);
}

/* Code of an ELF no symbol and no FDE covers: no function, named by its
 * address in the file (FILEADDR) as perf report names it, one interned
 * name per address. */
static void expect_address(struct symtab *st, uint64_t ip, const char *module, uint64_t fileaddr)
{
	struct sym_info si, again;
	char want[32];

	snprintf(want, sizeof(want), "0x%016" PRIx64, fileaddr);
	assert_true(symtab_lookup(st, ip, &si));
	assert_non_null(si.module);
	assert_string_equal(si.module, module);
	assert_true(si.address);
	assert_non_null(si.name);
	assert_string_equal(si.name, want);
	assert_int_equal(si.start, ip);
	assert_int_equal(si.size, 0);
	assert_true(symtab_lookup(st, ip, &again));
	assert_ptr_equal(again.name, si.name);
}

static void test_pseudo_mappings(void **state)
{
	struct symtab *st = *state;
	const char *names[] = { "[heap]", "[stack]", "[anon:jit]", "/memfd:jit (deleted)",
				"anon_inode:[perf_event]" };
	uint64_t a = 0x100000;

	assert_int_equal(symtab_add_map(st, "", a, a + 0x1000, 0), 0);
	expect_nameless(st, a, "[anon]");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		a += 0x10000;
		assert_int_equal(symtab_add_map(st, names[i], a, a + 0x1000, 0), 0);
		expect_nameless(st, a + 0x800, names[i]);
	}
}

/* The symbols of the synthetic ELF, as vaddrs (its PT_LOAD maps file
 * offset 0 at vaddr 0).  Locals come first, as in any symbol table. */
static const struct {
	const char *name;
	uint64_t value, size;
	int bind, type;
	bool undef;
} synth[] = {
	{ "gamma", 0x1200, 0, STB_LOCAL, STT_FUNC, false },       /* size 0: to resolver */
	{ "alpha", 0x1000, 0, STB_WEAK, STT_FUNC, false },
	{ "__alpha", 0x1000, 0, STB_GLOBAL, STT_FUNC, false },    /* non-weak: chosen */
	/* perf's alias rules, one per address */
	{ "write", 0x1400, 0x10, STB_WEAK, STT_FUNC, false },
	{ "__libc_write", 0x1400, 0x10, STB_LOCAL, STT_FUNC, false },
	{ "__GI___libc_write", 0x1400, 0x10, STB_LOCAL, STT_FUNC, false }, /* longer */
	{ "tie_two", 0x1420, 0x10, STB_LOCAL, STT_FUNC, false },  /* first of a tie */
	{ "tie_one", 0x1420, 0x10, STB_LOCAL, STT_FUNC, false },
	{ "_IO_new_file_write", 0x1440, 0x10, STB_LOCAL, STT_FUNC, false },
	{ "_IO_file_write@@GLIBC_2.2.5", 0x1440, 0x10, STB_GLOBAL, STT_FUNC, false },
	{ "label", 0x1460, 0, STB_GLOBAL, STT_FUNC, false },
	{ "__sized", 0x1460, 0x10, STB_LOCAL, STT_FUNC, false },  /* a size beats all */
	/* C++, Rust legacy and Rust v0 names */
	{ "_ZNK2ns3BoxIlE4spinEl.isra.0", 0x1480, 0x10, STB_LOCAL, STT_FUNC, false },
	{ "_ZN4core3fmt5write17h0123456789abcdefE", 0x14a0, 0x10, STB_GLOBAL, STT_FUNC, false },
	{ "_RNvCs1234_7mycrate4main", 0x14c0, 0x10, STB_GLOBAL, STT_FUNC, false },
	{ "_Znot_mangled", 0x14e0, 0x10, STB_GLOBAL, STT_FUNC, false },
	{ "beta", 0x1100, 0x10, STB_GLOBAL, STT_FUNC, false },
	{ "table", 0x1180, 0x40, STB_GLOBAL, STT_OBJECT, false }, /* not a function */
	{ "resolver", 0x1300, 0x20, STB_GLOBAL, STT_GNU_IFUNC, false },
	{ "imported", 0, 0, STB_GLOBAL, STT_FUNC, true },         /* undefined: ignored */
	{ "omega", 0x1800, 0, STB_GLOBAL, STT_FUNC, false },      /* size 0: to the end */
};
#define NSYNTH (sizeof(synth) / sizeof(synth[0]))

/* An ET_DYN header with one R+X PT_LOAD: file offset 0 at vaddr 0. */
static Elf *begin_elf(int fd, unsigned shstrndx)
{
	GElf_Ehdr eh;
	GElf_Phdr ph = { .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_filesz = 0x2000,
			 .p_memsz = 0x2000, .p_align = 0x1000 };
	Elf *elf;

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_WRITE, NULL);
	assert_non_null(elf);
	assert_non_null(gelf_newehdr(elf, ELFCLASS64));
	assert_non_null(gelf_getehdr(elf, &eh));
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_type = ET_DYN;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_shstrndx = shstrndx;
	assert_true(gelf_update_ehdr(elf, &eh));
	assert_non_null(gelf_newphdr(elf, 1));
	assert_true(gelf_update_phdr(elf, 0, &ph));
	return elf;
}

static void add_section(Elf *elf, GElf_Shdr *sh, void *buf, size_t size, Elf_Type type)
{
	Elf_Scn *scn = elf_newscn(elf);
	Elf_Data *d;

	assert_non_null(scn);
	d = elf_newdata(scn);
	assert_non_null(d);
	d->d_buf = buf;
	d->d_size = size;
	d->d_type = type;
	d->d_align = type == ELF_T_SYM ? 8 : 1;
	d->d_version = EV_CURRENT;
	assert_true(gelf_update_shdr(scn, sh));
}

/* Sections 1 to 4: .text, .symtab, .strtab, .shstrtab. */
static void write_symbols(Elf *elf)
{
	static char text[0x1000];
	static char shstr[] = "\0.text\0.symtab\0.strtab\0.shstrtab";
	char strtab[1024] = "";
	size_t strsz = 1;
	GElf_Sym syms[NSYNTH + 1];
	GElf_Shdr sh_text = { .sh_name = 1, .sh_type = SHT_PROGBITS, .sh_addr = 0x1000,
			      .sh_flags = SHF_ALLOC | SHF_EXECINSTR, .sh_addralign = 1 };
	GElf_Shdr sh_sym = { .sh_name = 7, .sh_type = SHT_SYMTAB, .sh_link = 3, .sh_info = 2,
			     .sh_entsize = sizeof(GElf_Sym), .sh_addralign = 8 };
	GElf_Shdr sh_str = { .sh_name = 15, .sh_type = SHT_STRTAB, .sh_addralign = 1 };
	GElf_Shdr sh_shstr = { .sh_name = 23, .sh_type = SHT_STRTAB, .sh_addralign = 1 };

	memset(syms, 0, sizeof(syms));
	for (size_t i = 0; i < NSYNTH; i++) {
		syms[i + 1] = (GElf_Sym){ .st_name = (GElf_Word)strsz,
					  .st_info = GELF_ST_INFO(synth[i].bind, synth[i].type),
					  .st_shndx = synth[i].undef ? SHN_UNDEF : 1,
					  .st_value = synth[i].value, .st_size = synth[i].size };
		assert_true(strsz + strlen(synth[i].name) < sizeof(strtab));
		strcpy(strtab + strsz, synth[i].name);
		strsz += strlen(synth[i].name) + 1;
	}
	add_section(elf, &sh_text, text, sizeof(text), ELF_T_BYTE);
	add_section(elf, &sh_sym, syms, sizeof(syms), ELF_T_SYM);
	add_section(elf, &sh_str, strtab, strsz, ELF_T_BYTE);
	add_section(elf, &sh_shstr, shstr, sizeof(shstr), ELF_T_BYTE);
	assert_true(elf_update(elf, ELF_C_WRITE) > 0);
}

enum temp_kind { TEMP_TEXT, TEMP_BARE_ELF, TEMP_SYM_ELF };

/* A temporary file: text, an ELF without any symbol table, or the ELF of
 * synth[]. */
static void make_temp(char *path, enum temp_kind kind)
{
	int fd;
	Elf *elf;

	strcpy(path, "/tmp/cyctop-symtest-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	if (kind == TEMP_TEXT) {
		assert_int_equal(write(fd, "not an ELF file\n", 16), 16);
	} else {
		elf = begin_elf(fd, kind == TEMP_SYM_ELF ? 4 : 0);
		if (kind == TEMP_SYM_ELF)
			write_symbols(elf);
		else
			assert_true(elf_update(elf, ELF_C_WRITE) > 0);
		elf_end(elf);
	}
	close(fd);
}

static void expect_func(struct symtab *st, uint64_t ip, const char *name, uint64_t start,
			uint64_t size)
{
	struct sym_info si;

	assert_true(symtab_lookup(st, ip, &si));
	assert_non_null(si.name);
	assert_string_equal(si.name, name);
	assert_int_equal(si.start, start);
	assert_int_equal(si.size, size);
}

/* The function table on a known symbol table: aliases, size-0 symbols,
 * gaps, non-functions, undefined symbols, IFUNCs. */
static void test_synthetic_symbols(void **state)
{
	struct symtab *st = *state;
	char path[64];
	uint64_t a = 0x300000;
	struct sym_info si;

	make_temp(path, TEMP_SYM_ELF);
	assert_int_equal(symtab_add_map(st, path, a, a + 0x2000, 0), 0);
	expect_func(st, a + 0x1000, "__alpha", a + 0x1000, 0x100);
	expect_func(st, a + 0x10ff, "__alpha", a + 0x1000, 0x100);
	expect_func(st, a + 0x1108, "beta", a + 0x1100, 0x10);
	expect_address(st, a + 0x1110, path, 0x1110);
	expect_address(st, a + 0x1180, path, 0x1180);
	expect_func(st, a + 0x1250, "gamma", a + 0x1200, 0x100);
	expect_func(st, a + 0x1310, "resolver", a + 0x1300, 0x20);
	expect_address(st, a + 0x1340, path, 0x1340);
	expect_func(st, a + 0x1408, "__GI___libc_write", a + 0x1400, 0x10);
	expect_func(st, a + 0x1420, "tie_two", a + 0x1420, 0x10);
	expect_func(st, a + 0x1440, "_IO_file_write", a + 0x1440, 0x10);
	expect_func(st, a + 0x1460, "__sized", a + 0x1460, 0x10);
	expect_func(st, a + 0x1480, "ns::Box<long>::spin", a + 0x1480, 0x10);
	expect_func(st, a + 0x14a0, "core::fmt::write", a + 0x14a0, 0x10);
	expect_func(st, a + 0x14c0, "mycrate::main", a + 0x14c0, 0x10);
	expect_func(st, a + 0x14e0, "_Znot_mangled", a + 0x14e0, 0x10);
	expect_func(st, a + 0x1fff, "omega", a + 0x1800, 0x800);
	expect_address(st, a + 0x800, path, 0x800);
	assert_true(symtab_lookup(st, a + 0x1000, &si));
	assert_int_equal(si.module_base, a);
	/* such code found by its name (the asm view of a row without samples) */
	assert_true(symtab_find(st, "0x0000000000001110", path, &si));
	assert_true(si.address);
	assert_int_equal(si.start, a + 0x1110);
	assert_false(symtab_find(st, "0x0000000000001108", NULL, &si));  /* beta's */
	assert_false(symtab_find(st, "0x0000000000009000", NULL, &si));  /* unmapped */
	assert_false(symtab_find(st, "0x1110", NULL, &si));              /* not perf's */
	assert_false(symtab_find(st, "0x0000000000001110", "/other", &si));
	unlink(path);
}

/* A symtab whose functions are named as HOW says, its tables in *FI. */
static struct symtab *named_symtab(const struct sym_naming *how, struct func_images **fi)
{
	struct symtab *st;

	*fi = func_images_new(how);
	assert_non_null(*fi);
	st = symtab_new(*fi);
	assert_non_null(st);
	return st;
}

/* --no-demangle: the ELF names, still without version suffixes. */
static void test_no_demangle(void **state)
{
	struct sym_naming how = { .mangled = true };
	struct func_images *fi;
	struct symtab *st = named_symtab(&how, &fi);
	char path[64];
	uint64_t a = 0x300000;

	(void)state;
	make_temp(path, TEMP_SYM_ELF);
	assert_int_equal(symtab_add_map(st, path, a, a + 0x2000, 0), 0);
	expect_func(st, a + 0x1480, "_ZNK2ns3BoxIlE4spinEl.isra.0", a + 0x1480, 0x10);
	expect_func(st, a + 0x14c0, "_RNvCs1234_7mycrate4main", a + 0x14c0, 0x10);
	expect_func(st, a + 0x1440, "_IO_file_write", a + 0x1440, 0x10);
	symtab_free(st);
	func_images_free(fi);
	unlink(path);
}

/* --demangle-params: the parameters, qualifiers and clone suffix, as perf
 * 6.4 and later (abi::__cxa_demangle) write them. */
static void test_demangle_params(void **state)
{
	struct sym_naming how = { .params = true };
	struct func_images *fi;
	struct symtab *st = named_symtab(&how, &fi);
	char path[64];
	uint64_t a = 0x300000;

	(void)state;
	make_temp(path, TEMP_SYM_ELF);
	assert_int_equal(symtab_add_map(st, path, a, a + 0x2000, 0), 0);
	expect_func(st, a + 0x1480, "ns::Box<long>::spin(long) const [clone .isra.0]", a + 0x1480,
		    0x10);
	expect_func(st, a + 0x1440, "_IO_file_write", a + 0x1440, 0x10);
	symtab_free(st);
	func_images_free(fi);
	unlink(path);
}

/* Symtabs made with one func_images read a binary (with a build id) once:
 * both name its function with the image's one string, each at its own
 * bias; a symtab with tables of its own reads it again.  The tables
 * outlive the symtab that read them. */
static void test_images_shared(void **state)
{
	struct func_images *fi = func_images_new(NULL);
	struct symtab *a = symtab_new(fi), *b = symtab_new(fi), *own = symtab_new(NULL);
	uint64_t start, end, pgoff, ip = target_ip(), fake = 0x10000000000ULL;
	struct sym_info sa, sb, so;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(own);
	self_mapping(ip, &start, &end, &pgoff);
	assert_int_equal(symtab_add_map(a, self_exe(), start, end, pgoff), 0);
	assert_int_equal(symtab_add_map(b, self_exe(), fake, fake + (end - start), pgoff), 0);
	assert_int_equal(symtab_add_map(own, self_exe(), start, end, pgoff), 0);
	assert_true(symtab_lookup(a, ip, &sa));
	symtab_free(a);
	assert_true(symtab_lookup(b, ip - start + fake, &sb));
	assert_true(symtab_lookup(own, ip, &so));
	assert_string_equal(sb.name, "symtest_target");
	assert_int_equal(sb.start, ip - start + fake);
	assert_ptr_equal(sa.name, sb.name);
	assert_string_equal(so.name, "symtest_target");
	assert_ptr_not_equal(so.name, sb.name);
	symtab_free(b);
	symtab_free(own);
	func_images_free(fi);
}

/* A file's build id is read before any symtab exists (a pprof session's
 * first question): libelf is initialized by the reader itself.  Debian's
 * gcc links every program with --build-id. */
static void test_build_id_first(void **state)
{
	uint8_t id[64];
	int fd = open(self_exe(), O_RDONLY | O_CLOEXEC);

	(void)state;
	assert_true(fd >= 0);
	assert_true(symbols_file_build_id(fd, id, sizeof(id)) > 0);
	close(fd);
}

static void test_bad_files(void **state)
{
	struct symtab *st = *state;
	const char *paths[] = { "/nonexistent/cyctop/libnothing.so", "/usr/lib/libgone.so (deleted)",
				"/tmp", "/dev/null", "/dev/zero (deleted)" };
	char text[64], bare[64];
	uint64_t a = 0x200000;

	make_temp(text, TEMP_TEXT);
	make_temp(bare, TEMP_BARE_ELF);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++, a += 0x10000) {
		assert_int_equal(symtab_add_map(st, paths[i], a, a + 0x1000, 0), 0);
		expect_nameless(st, a + 8, paths[i]);
	}
	assert_int_equal(symtab_add_map(st, text, a, a + 0x1000, 0), 0);
	expect_nameless(st, a + 8, text);
	a += 0x10000;
	assert_int_equal(symtab_add_map(st, bare, a, a + 0x1000, 0), 0);
	expect_address(st, a + 8, bare, 8);  /* an ELF without symbols: perf's 0x... */
	assert_false(symtab_srcline(st, a + 8, &(const char *){ NULL }, &(int){ 0 }));
	/* Our own binary at an offset none of its segments covers. */
	a += 0x10000;
	assert_int_equal(symtab_add_map(st, self_exe(), a, a + 0x1000, 0x40000000), 0);
	expect_nameless(st, a + 8, self_exe());
	unlink(text);
	unlink(bare);
}

static void test_srcline(void **state)
{
	struct symtab *st = *state;
	const char *file = NULL;
	int line = 0;
	struct sym_info si;

	assert_true(symtab_srcline(st, target_ip(), &file, &line));
	assert_non_null(file);
	assert_string_equal(base_name(file), "test-symbols.c");
	assert_in_range(line, target_first_line, target_last_line);

	/* Somewhere inside: still this function's lines. */
	assert_true(symtab_lookup(st, target_ip(), &si));
	assert_true(symtab_srcline(st, si.start + si.size / 2, &file, &line));
	assert_string_equal(base_name(file), "test-symbols.c");
	assert_in_range(line, target_first_line, target_last_line);
}

/* Both lookups give the same function (or none). */
static bool same_function(const struct sym_info *a, const struct sym_info *b)
{
	if (!a->name || !b->name)
		return a->name == b->name;
	return strcmp(a->name, b->name) == 0 && a->start == b->start && a->size == b->size;
}

/* The test binary mapped again at another address: the bias follows the
 * mapping start, and the part of a mapping split by a later one keeps it. */
static void test_bias_and_split(void **state)
{
	struct symtab *ref = *state, *cut = symtab_new(NULL);
	uint64_t start, end, pgoff, ip = target_ip(), fake = 0x10000000000ULL;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), hole = fake + page, delta;
	struct sym_info a, b;
	int named_after_hole = 0;

	self_mapping(ip, &start, &end, &pgoff);
	assert_true(end - start >= 3 * page);
	delta = fake - start;
	assert_int_equal(symtab_add_map(ref, self_exe(), fake, fake + (end - start), pgoff), 0);
	assert_true(symtab_lookup(ref, ip + delta, &a));
	assert_string_equal(a.module, self_exe());
	assert_non_null(a.name);
	assert_string_equal(a.name, "symtest_target");
	assert_int_equal(a.start, ip + delta);

	assert_non_null(cut);
	assert_int_equal(symtab_add_map(cut, self_exe(), fake, fake + (end - start), pgoff), 0);
	assert_int_equal(symtab_add_map(cut, "//anon", hole, hole + page, 0), 0);
	for (uint64_t x = fake; x < fake + (end - start); x += 16) {
		assert_true(symtab_lookup(ref, x, &a));
		assert_true(symtab_lookup(cut, x, &b));
		if (x >= hole && x < hole + page) {
			assert_string_equal(b.module, "//anon");
			continue;
		}
		assert_string_equal(b.module, self_exe());
		assert_true(same_function(&a, &b));
		named_after_hole += x >= hole + page && b.name != NULL;
	}
	assert_true(named_after_hole > 0);
	symtab_free(cut);
}

static void test_overlap(void **state)
{
	struct symtab *st = *state;
	struct sym_info si;

	assert_int_equal(symtab_add_map(st, "/a", 0x10000, 0x13000, 0), 0);
	assert_int_equal(symtab_add_map(st, "/b", 0x11000, 0x12000, 0), 0);
	expect_nameless(st, 0x10800, "/a");
	expect_nameless(st, 0x11800, "/b");
	expect_nameless(st, 0x12800, "/a");
	assert_false(symtab_lookup(st, 0x13000, &si));
	assert_int_equal(symtab_add_map(st, "/c", 0xf000, 0x14000, 0), 0);
	expect_nameless(st, 0xf000, "/c");
	expect_nameless(st, 0x11800, "/c");
	expect_nameless(st, 0x13fff, "/c");
	assert_false(symtab_lookup(st, 0x14000, &si));
	assert_int_equal(symtab_add_map(st, "/d", 0x20000, 0x20000, 0), -1);
	assert_int_equal(symtab_add_proc_maps(st, -1), -1);
}

static void test_copy_clear(void **state)
{
	struct symtab *st = *state, *child = symtab_new(NULL);
	struct sym_info before, copied, after;

	assert_non_null(child);
	assert_true(symtab_lookup(st, target_ip(), &before));
	assert_int_equal(symtab_copy_maps(child, st), 0);
	assert_true(symtab_lookup(child, target_ip(), &copied));
	assert_string_equal(copied.name, before.name);
	assert_string_equal(copied.module, before.module);
	assert_int_equal(copied.start, before.start);
	assert_int_equal(copied.size, before.size);

	symtab_clear(st);
	assert_false(symtab_lookup(st, target_ip(), &after));
	/* Strings returned before the clear stay valid. */
	assert_string_equal(before.name, "symtest_target");
	assert_string_equal(before.module, self_exe());
	/* The copy is independent of the source. */
	assert_true(symtab_lookup(child, target_ip(), &copied));
	assert_string_equal(copied.name, "symtest_target");
	symtab_free(child);

	/* Exec: new mappings after the clear work again. */
	assert_int_equal(symtab_add_proc_maps(st, getpid()), 0);
	assert_true(symtab_lookup(st, target_ip(), &after));
	assert_string_equal(after.name, "symtest_target");
}

static void test_cache(void **state)
{
	struct symtab *st = *state;
	struct sym_info a, b;
	const char *f1, *f2;
	int l1, l2;

	assert_true(symtab_lookup(st, target_ip() + 1, &a));
	assert_true(symtab_lookup(st, target_ip() + 1, &b));
	assert_ptr_equal(a.name, b.name);
	assert_ptr_equal(a.module, b.module);
	assert_int_equal(a.start, b.start);
	assert_true(symtab_srcline(st, target_ip(), &f1, &l1));
	assert_true(symtab_srcline(st, target_ip(), &f2, &l2));
	assert_ptr_equal(f1, f2);
	assert_int_equal(l1, l2);
}

/* Every IP of the test binary's text asked twice: the cache grows through
 * the first pass and answers the second as a fresh lookup would. */
static void test_cache_growth(void **state)
{
	struct symtab *st = *state, *fresh = symtab_new(NULL);
	uint64_t start, end, pgoff, step = 4;
	struct sym_info a, b;
	const char *f1, *f2;
	int l1, l2, named = 0;

	assert_non_null(fresh);
	assert_int_equal(symtab_add_proc_maps(fresh, getpid()), 0);
	self_mapping(target_ip(), &start, &end, &pgoff);
	assert_true(symtab_srcline(st, target_ip(), &f1, &l1));
	for (uint64_t x = start; x < end; x += step)
		assert_true(symtab_lookup(st, x, &a));
	for (uint64_t x = end - step; x >= start && x < end; x -= step) {
		assert_true(symtab_lookup(st, x, &a));
		assert_true(symtab_lookup(fresh, x, &b));
		assert_true(same_function(&a, &b));
		named += a.name != NULL;
	}
	assert_true(named > 0);
	assert_true(symtab_srcline(st, target_ip(), &f2, &l2));
	assert_ptr_equal(f1, f2);
	assert_int_equal(l1, l2);
	symtab_free(fresh);
}

/* Many mappings, added from the highest down (each one inserted first),
 * then each middle page punched by another: all found where they are. */
static void test_many_mappings(void **state)
{
	enum { N = 300 };
	struct symtab *st = *state;
	char name[32];

	for (int i = N - 1; i >= 0; i--) {
		snprintf(name, sizeof(name), "/m%d", i);
		assert_int_equal(symtab_add_map(st, name, 0x100000 + 0x4000 * (uint64_t)i,
						0x100000 + 0x4000 * (uint64_t)i + 0x3000, 0), 0);
	}
	for (int i = 0; i < N; i += 2)
		assert_int_equal(symtab_add_map(st, "/hole", 0x101000 + 0x4000 * (uint64_t)i,
						0x102000 + 0x4000 * (uint64_t)i, 0), 0);
	for (int i = 0; i < N; i++) {
		uint64_t base = 0x100000 + 0x4000 * (uint64_t)i;
		snprintf(name, sizeof(name), "/m%d", i);
		expect_nameless(st, base, name);
		expect_nameless(st, base + 0x1800, i % 2 ? name : "/hole");
		expect_nameless(st, base + 0x2fff, name);
	}
}

/* ---- PLT stubs, on binaries built here ---------------------------- */

static const char plt_prog[] =
	"#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
	"int main(int argc, char **argv) {\n"
	"  int (*volatile p)(const char *) = puts;\n"  /* through the GOT, no stub */
	"  char b[32]; snprintf(b, sizeof(b), \"%d\", argc);\n"
	"  return (int)strlen(b) + atoi(argv[0]) + p(b);\n}\n";

/* Builds plt_prog with the compiler flags FLAGS into OUT; false (the test
 * skips) without a C compiler or objdump. */
static bool build_plt_prog(const char *flags, char *out)
{
	char src[64], cmd[512];
	int fd;

	if (system("cc --version >/dev/null 2>&1 && objdump --version >/dev/null 2>&1") != 0)
		return false;
	strcpy(src, "/tmp/cyctop-plt-XXXXXX.c");
	fd = mkstemps(src, 2);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, plt_prog, sizeof(plt_prog) - 1), (ssize_t)sizeof(plt_prog) - 1);
	close(fd);
	snprintf(out, 64, "%.*s", (int)strlen(src) - 2, src);
	snprintf(cmd, sizeof(cmd), "cc -O1 %s -o %s %s", flags, out, src);
	assert_int_equal(system(cmd), 0);
	unlink(src);
	return true;
}

/* Whether the ELF at PATH has a section called NAME. */
static bool has_section(const char *path, const char *name)
{
	int fd = open(path, O_RDONLY);
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	bool found = false;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
	while (!found && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *n = gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
		found = n && strcmp(n, name) == 0;
	}
	elf_end(elf);
	close(fd);
	return found;
}

/* Every "ADDR <NAME@plt>:" label of objdump -d on PATH must be NAME@plt
 * starting at ADDR in ST (PATH mapped with bias BASE); returns how many. */
static int check_objdump_plt(struct symtab *st, const char *path, uint64_t base)
{
	char cmd[256], line[512], name[256];
	unsigned long long addr;
	int n = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "objdump -d %s", path);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		struct sym_info si;
		size_t len;
		/* "<strlen@plt-0x10>:" is PLT0, labelled from its neighbour */
		if (sscanf(line, "%llx <%255[^>]>:", &addr, name) != 2 ||
		    (len = strlen(name)) < 4 || strcmp(name + len - 4, "@plt") != 0)
			continue;
		assert_true(symtab_lookup(st, base + addr, &si));
		assert_non_null(si.name);
		assert_string_equal(si.name, name);
		assert_int_equal(si.start, base + addr);
		n++;
	}
	assert_int_equal(pclose(f), 0);
	return n;
}

/* The PLT's first entry (PLT0) belongs to no function: not to _init, the
 * size-0 label of .init before it. */
static void check_plt0(struct symtab *st, const char *path, uint64_t base)
{
	char cmd[256];
	unsigned long long addr;
	struct sym_info si;
	FILE *f;

	snprintf(cmd, sizeof(cmd),
		 "objdump -h %s | awk '$2 == \".plt\" { print $4 }'", path);
	f = popen(cmd, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%llx", &addr), 1);
	pclose(f);
	assert_true(symtab_lookup(st, base + addr, &si));
	assert_true(si.address);  /* named by its address, as perf names it */
	assert_int_equal(si.start, base + addr);
}

static void expect_plt_names(const char *flags, const char *section, int min_stubs)
{
	struct symtab *st = symtab_new(NULL);
	char exe[64];
	uint64_t base = 0x500000;

	assert_non_null(st);
	if (!build_plt_prog(flags, exe)) {
		print_message("skipped: cc could not build the PLT program\n");
		symtab_free(st);
		skip();
	}
	assert_true(has_section(exe, section));
	assert_int_equal(symtab_add_map(st, exe, base, base + 0x10000, 0), 0);
	assert_true(check_objdump_plt(st, exe, base) >= min_stubs);
	check_plt0(st, exe, base);
	symtab_free(st);
	unlink(exe);
}

/* Lazy binding: .plt entries for strlen, snprintf and strtol (atoi
 * inlined), .plt.got for __cxa_finalize (a GLOB_DAT slot). */
static void test_plt_classic(void **state)
{
	(void)state;
	expect_plt_names("", ".plt.got", 4);
}

/* IBT: the stubs called are in .plt.sec; .plt holds only the lazy entries,
 * which objdump leaves unnamed. */
static void test_plt_sec(void **state)
{
	(void)state;
	expect_plt_names("-fcf-protection=full -Wl,-z,ibtplt", ".plt.sec", 4);
}

/* ---- modules by soname ---------------------------------------------- */

static void test_module_matches(void **state)
{
	struct symtab *st = *state;
	struct sym_info si;
	void *lib = dlopen("libcmocka.so.0", RTLD_NOW | RTLD_NOLOAD);
	const char *path;

	assert_non_null(lib);
	assert_true(symtab_lookup(st, (uint64_t)(uintptr_t)dlsym(lib, "_cmocka_run_group_tests"),
				  &si));
	path = si.module;
	assert_true(symbols_module_matches(path, NULL));
	assert_true(symbols_module_matches(path, path));
	assert_true(symbols_module_matches(path, base_name(path)));
	assert_true(symbols_module_matches(path, "libcmocka.so.0"));  /* DT_SONAME */
	assert_false(symbols_module_matches(path, "libcmocka.so.1"));
	assert_false(symbols_module_matches(path, "cmocka"));
	/* Recorded paths that are not here: the soname convention. */
	assert_true(symbols_module_matches("/gone/liblzma.so.5.4.1", "liblzma.so.5"));
	assert_false(symbols_module_matches("/gone/liblzma.so.50.1", "liblzma.so.5"));
	assert_false(symbols_module_matches("/gone/liblzma.so.5.4.1", "lzma.so.5"));
	assert_false(symbols_module_matches(NULL, "liblzma.so.5"));
	/* symtab_find takes the soname too. */
	assert_true(symtab_find(st, "_cmocka_run_group_tests", "libcmocka.so.0", &si));
	assert_string_equal(si.module, path);
	assert_false(symtab_find(st, "_cmocka_run_group_tests", "libc.so.6", &si));
	dlclose(lib);
}

/* ---- kernel symbols ------------------------------------------------- */

static const char kallsyms_fixture[] =
	"0000000000000000 A fixed_percpu_data\n"       /* absolute: skipped */
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T startup_64\n"              /* aliases: the last, as perf */
	"ffffffff81000100 t __do_sys_getpid\n"
	"ffffffff81000100 T __x64_sys_getpid\n"
	"ffffffff81000100 W sys_getpid\n"              /* the last, weak or not */
	"ffffffff81000200 W weak_only\n"
	"ffffffff81000300 T schedule\n"
	"ffffffff81000400 D jiffies\n"                 /* data: ends schedule */
	"ffffffff81000500 t last_text\n"
	"ffffffffc0001000 t e1000_clean\t[e1000]\n"
	"ffffffffc0001080 T e1000_xmit\t[e1000]\n"
	"ffffffffc0001040 \0 nul_type\n"               /* hostile: skipped */
	"ffffffffc0001040 T\n"                         /* no name: skipped */
	"garbage line\n";

static char *write_fixture(const void *data, size_t n)
{
	static char path[64];
	int fd;

	strcpy(path, "/tmp/cyctop-kfix-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, n), (ssize_t)n);
	close(fd);
	return path;
}

static void expect_ksym(struct ksymtab *k, uint64_t addr, const char *name,
			uint64_t start, uint64_t size, const char *module)
{
	struct sym_info si;

	assert_true(ksymtab_lookup(k, addr, &si));
	assert_string_equal(si.name, name);
	assert_int_equal(si.start, start);
	assert_int_equal(si.size, size);
	assert_string_equal(si.module, module);
}

/* A notes file: an unrelated note, then the GNU build id 01 02 .. 14. */
static size_t make_notes(uint8_t *buf)
{
	Elf64_Nhdr other = { 6, 4, 1 }, gnu = { 4, 20, NT_GNU_BUILD_ID };
	size_t n = 0;

	memcpy(buf + n, &other, sizeof(other));
	n += sizeof(other);
	memcpy(buf + n, "Linux\0\0\0" "\x01\x02\x03\x04", 12);
	n += 12;
	memcpy(buf + n, &gnu, sizeof(gnu));
	n += sizeof(gnu);
	memcpy(buf + n, "GNU", 4);
	n += 4;
	for (int i = 1; i <= 20; i++)
		buf[n++] = (uint8_t)i;
	return n;
}

static void test_kallsyms_fixture(void **state)
{
	char ksyms[64], notes[64], err[256];
	uint8_t nbuf[128], id[20];
	struct ksymtab *k;
	struct sym_info si;

	(void)state;
	strcpy(ksyms, write_fixture(kallsyms_fixture, sizeof(kallsyms_fixture) - 1));
	strcpy(notes, write_fixture(nbuf, make_notes(nbuf)));
	k = ksymtab_load(ksyms, notes, err, sizeof(err));
	assert_non_null(k);
	expect_ksym(k, 0xffffffff81000000, "startup_64", 0xffffffff81000000, 0x100,
		    "[kernel.kallsyms]");
	expect_ksym(k, 0xffffffff810001ff, "sys_getpid", 0xffffffff81000100, 0x100,
		    "[kernel.kallsyms]");
	expect_ksym(k, 0xffffffff81000200, "weak_only", 0xffffffff81000200, 0x100,
		    "[kernel.kallsyms]");
	expect_ksym(k, 0xffffffff810003ff, "schedule", 0xffffffff81000300, 0x100,
		    "[kernel.kallsyms]");
	assert_false(ksymtab_lookup(k, 0xffffffff81000400, &si));  /* in data */
	assert_null(si.name);
	expect_ksym(k, 0xffffffffc0001010, "e1000_clean", 0xffffffffc0001000, 0x80, "[e1000]");
	/* The last symbol: to the end of the page after its own. */
	expect_ksym(k, 0xffffffffc0002fff, "e1000_xmit", 0xffffffffc0001080, 0x1f80, "[e1000]");
	assert_false(ksymtab_lookup(k, 0xffffffffc0003000, &si));
	assert_false(ksymtab_lookup(k, 0xffffffff80000000, &si));
	for (int i = 0; i < 20; i++)
		id[i] = (uint8_t)(i + 1);
	assert_int_equal(symbols_kernel_build_id(notes, nbuf, sizeof(nbuf)), 20);
	assert_memory_equal(nbuf, id, 20);
	assert_true(ksymtab_matches(k, id, 20));
	id[19] ^= 1;
	assert_false(ksymtab_matches(k, id, 20));
	assert_false(ksymtab_matches(k, id, 19));
	ksymtab_free(k);
	unlink(ksyms);
	unlink(notes);
}

/* The same table from lines out of address order (a module's before the
 * kernel's, a data symbol first): sorted then, with the same aliases
 * chosen (the last of each address in the file). */
static const char kallsyms_unsorted[] =
	"ffffffffc0001080 T e1000_xmit\t[e1000]\n"
	"ffffffff81000400 D jiffies\n"
	"ffffffff81000300 T schedule\n"
	"ffffffffc0001000 t e1000_clean\t[e1000]\n"
	"ffffffff81000100 t __do_sys_getpid\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 T __x64_sys_getpid\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81000200 W weak_only\n"
	"ffffffff81000100 W sys_getpid\n"
	"ffffffff81000500 t last_text";               /* no newline at the end */

static void test_kallsyms_unsorted(void **state)
{
	char ksyms[64], err[256];
	struct ksymtab *k;
	struct sym_info si;

	(void)state;
	strcpy(ksyms, write_fixture(kallsyms_unsorted, sizeof(kallsyms_unsorted) - 1));
	k = ksymtab_load(ksyms, "/nonexistent", err, sizeof(err));
	assert_non_null(k);
	expect_ksym(k, 0xffffffff81000000, "startup_64", 0xffffffff81000000, 0x100,
		    "[kernel.kallsyms]");
	expect_ksym(k, 0xffffffff810001ff, "sys_getpid", 0xffffffff81000100, 0x100,
		    "[kernel.kallsyms]");
	expect_ksym(k, 0xffffffff810003ff, "schedule", 0xffffffff81000300, 0x100,
		    "[kernel.kallsyms]");
	assert_false(ksymtab_lookup(k, 0xffffffff81000400, &si));  /* in data */
	expect_ksym(k, 0xffffffff81000500, "last_text", 0xffffffff81000500, 0x3f000b00,
		    "[kernel.kallsyms]");
	expect_ksym(k, 0xffffffffc0001010, "e1000_clean", 0xffffffffc0001000, 0x80, "[e1000]");
	expect_ksym(k, 0xffffffffc0002fff, "e1000_xmit", 0xffffffffc0001080, 0x1f80, "[e1000]");
	ksymtab_free(k);
	unlink(ksyms);
}

/* /proc/kallsyms cannot be mapped: it is read 64 KB at a time, lines
 * cut across the parts.  A 500 KB table read so (through a FILE with no
 * descriptor, as the seam's fopen of a stream gives) and mapped from a
 * file names every address alike. */
static char *big_table;
static size_t big_len;

static FILE *stream_fopen(const char *path, const char *mode)
{
	(void)path;
	return fmemopen(big_table, big_len, mode);
}

static void test_kallsyms_chunks(void **state)
{
	enum { N = 12000 };
	char path[64], err[256];
	struct sys_ops ops = *sys_real_ops();
	struct ksymtab *mapped, *read;
	struct sym_info a, b;
	size_t cap = (size_t)N * 64;

	(void)state;
	big_table = malloc(cap);
	assert_non_null(big_table);
	big_len = 0;
	for (int i = 0; i < N; i++)  /* names of growing length: lines of all sizes */
		big_len += (size_t)snprintf(big_table + big_len, cap - big_len,
					    "%016llx %c fn_%0*d%s\n",
					    0xffffffff81000000ull + 0x40ull * (unsigned)i,
					    i % 7 == 3 ? 'd' : 't', 1 + i % 23, i,
					    i >= N - 100 ? "\t[mod]" : "");
	strcpy(path, write_fixture(big_table, big_len));
	mapped = ksymtab_load(path, "/nonexistent", err, sizeof(err));
	assert_non_null(mapped);
	ops.fopen = stream_fopen;
	sys_set_ops(&ops);
	read = ksymtab_load("/proc/kallsyms", "/nonexistent", err, sizeof(err));
	sys_set_ops(NULL);
	assert_non_null(read);
	for (int i = 0; i < N; i++) {
		uint64_t addr = 0xffffffff81000000ull + 0x40ull * (unsigned)i + 0x3f;
		bool in_a = ksymtab_lookup(mapped, addr, &a), in_b = ksymtab_lookup(read, addr, &b);
		assert_int_equal(in_a, i % 7 != 3);  /* a data symbol names nothing */
		assert_int_equal(in_b, in_a);
		if (!in_a)
			continue;
		char want[64];
		snprintf(want, sizeof(want), "fn_%0*d", 1 + i % 23, i);
		assert_string_equal(a.name, want);
		assert_string_equal(b.name, want);
		assert_int_equal(a.start, b.start);
		assert_int_equal(a.size, b.size);
		assert_string_equal(a.module, i >= N - 100 ? "[mod]" : "[kernel.kallsyms]");
		assert_string_equal(b.module, a.module);
	}
	ksymtab_free(mapped);
	ksymtab_free(read);
	unlink(path);
	free(big_table);
}

/* perf record's build-id cache: HOME/.debug/[kernel.kallsyms]/HEX/kallsyms
 * names the kernel of build id HEX, whatever kernel runs here. */
static void test_kallsyms_cached(void **state)
{
	char home[64] = "/tmp/cyctop-khome-XXXXXX", dir[256], path[300], err[256];
	const char *old_home = getenv("HOME");
	uint8_t id[20];
	struct ksymtab *k;

	(void)state;
	assert_non_null(mkdtemp(home));
	for (int i = 0; i < 20; i++)
		id[i] = (uint8_t)(0xa0 + i);
	snprintf(dir, sizeof(dir), "%s/.debug", home);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/.debug/[kernel.kallsyms]", home);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/.debug/[kernel.kallsyms]/"
		 "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3", home);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(kallsyms_fixture, f);
	fclose(f);
	setenv("HOME", home, 1);
	k = ksymtab_load_cached(id, 20, err, sizeof(err));
	assert_non_null(k);
	expect_ksym(k, 0xffffffff810003ff, "schedule", 0xffffffff81000300, 0x100,
		    "[kernel.kallsyms]");
	assert_true(ksymtab_matches(k, id, 20));   /* the cache's id, not this kernel's */
	ksymtab_free(k);
	id[0] ^= 1;  /* another kernel: not cached */
	assert_null(ksymtab_load_cached(id, 20, err, sizeof(err)));
	assert_null(ksymtab_load_cached(id, 0, err, sizeof(err)));
	if (old_home)
		setenv("HOME", old_home, 1);
	unlink(path);
	rmdir(dir);
	snprintf(dir, sizeof(dir), "%s/.debug/[kernel.kallsyms]", home);
	rmdir(dir);
	snprintf(dir, sizeof(dir), "%s/.debug", home);
	rmdir(dir);
	rmdir(home);
}

/* A table of many symbols, listed out of order: all read (the array grows
 * as it fills), sorted, each ending where the next begins. */
static void test_kallsyms_many(void **state)
{
	enum { N = 5000 };
	static char text[N * 48];
	char path[64], notes[64], err[256], name[32];
	uint8_t nbuf[128];
	size_t len = 0;

	(void)state;
	for (int i = N - 1; i >= 0; i--)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%016llx T ksym_%d\n",
					0xffffffff81000000ull + 0x40ull * (unsigned)i, i);
	strcpy(path, write_fixture(text, len));
	strcpy(notes, write_fixture(nbuf, make_notes(nbuf)));
	struct ksymtab *k = ksymtab_load(path, notes, err, sizeof(err));
	assert_non_null(k);
	for (int i = 0; i < N; i++) {
		uint64_t start = 0xffffffff81000000ull + 0x40ull * (unsigned)i;
		snprintf(name, sizeof(name), "ksym_%d", i);
		uint64_t end = i + 1 < N ? start + 0x40 : (start | 0xfff) + 1 + 0x1000;
		expect_ksym(k, start + 0x3f, name, start, end - start, "[kernel.kallsyms]");
	}
	ksymtab_free(k);
	unlink(path);
	unlink(notes);
}

/* A sorted table is kept as text and each function named when first
 * looked up; the same lines with one address going down are parsed whole
 * and sorted.  Both must name every address alike: runs of aliases at one
 * address (functions of every kind, data before and after them, data
 * alone), modules, absolute and hostile lines, upper-case and short
 * addresses, a name or module too long. */
static size_t kept_line(char *out, size_t room, unsigned i, unsigned j, unsigned r)
{
	static const char kinds[] = "tTWwdDrbBA";
	uint64_t addr = 0xffffffff81000000ull + 0x40ull * i;
	char mod[400] = "";

	if (r % 13 == 5)
		snprintf(mod, sizeof(mod), "\t[mod%u]", r % 3);
	else if (r % 101 == 7)  /* a module name too long: skipped */
		snprintf(mod, sizeof(mod), "\t[%0300u]", r);
	switch (r % 37) {
	case 3:
		return (size_t)snprintf(out, room, "%016llX %c s_%u_%u%s\n",
					(unsigned long long)addr, kinds[r % 10], i, j, mod);
	case 4:
		return (size_t)snprintf(out, room, "%016llx T\n", (unsigned long long)addr);
	case 5:
		return (size_t)snprintf(out, room, "0000000000000000 A abs_%u\n", i);
	case 6:
		return (size_t)snprintf(out, room, "%016llx ? odd_%u\n", (unsigned long long)addr, i);
	default:
		return (size_t)snprintf(out, room, "%llx %c s_%u_%u%s\n", (unsigned long long)addr,
					kinds[r % 10], i, j, mod);
	}
}

static void test_kallsyms_kept_text(void **state)
{
	enum { N = 3000, LINE = 512 };
	char *text = malloc((size_t)N * 4 * LINE), *down = malloc((size_t)N * 4 * LINE);
	char kept[64], parsed[64], err[256], last[LINE];
	size_t len = 0, last_len;
	unsigned r = 1;
	struct sym_info a, b;

	(void)state;
	assert_non_null(text);
	assert_non_null(down);
	for (unsigned i = 0; i < N; i++) {
		if (i % 17 == 9)
			continue;  /* a gap: the one before ends where the next begins */
		unsigned run = 1 + (i * 7 + 3) % 4;
		for (unsigned j = 0; j < run; j++) {
			r = r * 1103515245u + 12345u;
			len += kept_line(text + len, LINE, i, j, (r >> 8) % 4096);
		}
		/* 16 bytes, a space and a type, but no address (its last digit
		 * a g, between this address and the next): no symbol */
		if (i % 23 == 11)
			len += (size_t)snprintf(text + len, LINE, "%015llxg T junk_%u\n",
						(0xffffffff81000000ull + 0x40ull * i) >> 4, i);
	}
	/* the last line a function alone at its address, moved to the front */
	last_len = (size_t)snprintf(last, sizeof(last), "ffffffff82000000 t the_end\n");
	memcpy(text + len, last, last_len + 1);
	memcpy(down, last, last_len);
	memcpy(down + last_len, text, len);
	strcpy(kept, write_fixture(text, len + last_len));
	strcpy(parsed, write_fixture(down, len + last_len));
	struct ksymtab *k = ksymtab_load(kept, "/nonexistent", err, sizeof(err));
	struct ksymtab *p = ksymtab_load(parsed, "/nonexistent", err, sizeof(err));
	assert_non_null(k);
	assert_non_null(p);
	unsigned named = 0;
	for (int pass = 0; pass < 2; pass++)  /* the second from the names kept */
		for (uint64_t addr = 0xffffffff80fff000ull; addr < 0xffffffff82003000ull;
		     addr += addr < 0xffffffff81000000ull + 0x40ull * N ? 0x1f : 0x3ff) {
			bool in_k = ksymtab_lookup(k, addr, &a), in_p = ksymtab_lookup(p, addr, &b);
			assert_int_equal(in_k, in_p);
			if (!in_k)
				continue;
			named += pass == 0;
			assert_string_equal(a.name, b.name);
			assert_int_equal(a.start, b.start);
			assert_int_equal(a.size, b.size);
			assert_string_equal(a.module, b.module);
		}
	assert_true(named > N);
	expect_ksym(k, 0xffffffff82001fff, "the_end", 0xffffffff82000000, 0x2000,
		    "[kernel.kallsyms]");
	ksymtab_free(k);
	ksymtab_free(p);
	unlink(kept);
	unlink(parsed);
	free(text);
	free(down);
}

/* A sorted table searched in place: short and upper-case addresses, lines
 * that look like symbols' and are none (16 bytes that are not all digits,
 * a UTF-8 start, no name, a type no reader keeps), and a last line
 * without a newline whose name is one letter.  Parsed whole (the last
 * line moved to the front), it names every address alike. */
static const char kallsyms_edges[] =
	"1000 t low_a\n"
	"2000 T low_b\n"
	"0000000000003000 d low_data\n"
	"0000000000003000 A abs_at_data\n"
	"FFFFFFFF81000000 T Upper\n"
	"ffffffff8100004g T junk_g\n"
	"\xc3\xa9" "ffffffff8100004 T utf8\n"
	"ffffffff81000080 t lower\n"
	"ffffffff810000c0 T \n"
	"ffffffff810000c0 ? odd\n"
	"ffffffff81000100 t x";

static void expect_edges(struct ksymtab *k)
{
	struct sym_info si;

	assert_false(ksymtab_lookup(k, 0xfff, &si));
	expect_ksym(k, 0x1000, "low_a", 0x1000, 0x1000, "[kernel.kallsyms]");
	expect_ksym(k, 0x2fff, "low_b", 0x2000, 0x1000, "[kernel.kallsyms]");
	assert_false(ksymtab_lookup(k, 0x3000, &si));
	expect_ksym(k, 0xffffffff8100007f, "Upper", 0xffffffff81000000, 0x80, "[kernel.kallsyms]");
	expect_ksym(k, 0xffffffff810000ff, "lower", 0xffffffff81000080, 0x80, "[kernel.kallsyms]");
	expect_ksym(k, 0xffffffff81001fff, "x", 0xffffffff81000100, 0x1f00, "[kernel.kallsyms]");
	assert_false(ksymtab_lookup(k, 0xffffffff81002000, &si));
	assert_false(ksymtab_lookup(k, UINT64_MAX, &si));
}

static void test_kallsyms_edges(void **state)
{
	const size_t n = sizeof(kallsyms_edges) - 1, last = strlen("ffffffff81000100 t x");
	char kept[64], parsed[64], err[256], down[sizeof(kallsyms_edges) + 1];

	(void)state;
	memcpy(down, kallsyms_edges + n - last, last);
	down[last] = '\n';
	memcpy(down + last + 1, kallsyms_edges, n - last);
	strcpy(kept, write_fixture(kallsyms_edges, n));
	strcpy(parsed, write_fixture(down, n + 1));
	struct ksymtab *k = ksymtab_load(kept, "/nonexistent", err, sizeof(err));
	struct ksymtab *p = ksymtab_load(parsed, "/nonexistent", err, sizeof(err));
	assert_non_null(k);
	assert_non_null(p);
	expect_edges(k);
	expect_edges(p);
	expect_edges(k);  /* from the names kept */
	ksymtab_free(k);
	ksymtab_free(p);
	unlink(kept);
	unlink(parsed);
}

/* This kernel's table, when its addresses are readable: searched in place
 * (its addresses never go down without modules) and parsed whole (its
 * last line moved to the front), both name every symbol's first, second
 * and last byte alike. */
static char *read_whole(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t room = 1 << 20, got;
	char *buf = malloc(room);

	assert_non_null(f);
	assert_non_null(buf);
	*len = 0;
	while ((got = fread(buf + *len, 1, room - *len, f)) > 0)
		if ((*len += got) == room)
			assert_non_null(buf = realloc(buf, room *= 2));
	fclose(f);
	return buf;
}

static void compare_at(struct ksymtab *k, struct ksymtab *p, uint64_t addr)
{
	struct sym_info a, b;
	bool in_k = ksymtab_lookup(k, addr, &a), in_p = ksymtab_lookup(p, addr, &b);

	assert_int_equal(in_k, in_p);
	if (!in_k)
		return;
	assert_string_equal(a.name, b.name);
	assert_int_equal(a.start, b.start);
	assert_int_equal(a.size, b.size);
	assert_string_equal(a.module, b.module);
}

static void test_kallsyms_real(void **state)
{
	char kept[64], parsed[64], err[256];
	size_t len, last;
	char *text = read_whole("/proc/kallsyms", &len), *down;
	unsigned long long addr;

	(void)state;
	if (len < 2 || strncmp(text, "0000000000000000", 16) == 0) {
		free(text);
		print_message("skipped: /proc/kallsyms hides its addresses\n");
		skip();
	}
	for (last = len - 1; last > 0 && text[last - 1] != '\n'; last--)
		;
	assert_non_null(down = malloc(len));
	memcpy(down, text + last, len - last);
	memcpy(down + len - last, text, last);
	strcpy(kept, write_fixture(text, len));
	strcpy(parsed, write_fixture(down, len));
	struct ksymtab *k = ksymtab_load(kept, "/nonexistent", err, sizeof(err));
	struct ksymtab *p = ksymtab_load(parsed, "/nonexistent", err, sizeof(err));
	assert_non_null(k);
	assert_non_null(p);
	for (const char *line = text; line < text + len; line = strchr(line, '\n') + 1) {
		char *digits_end;
		/* strtoull, not sscanf: sscanf measures the whole rest of the text */
		addr = strtoull(line, &digits_end, 16);
		if (digits_end > line) {
			compare_at(k, p, addr);
			compare_at(k, p, addr + 1);
			compare_at(k, p, addr - 1);
		}
		if (!strchr(line, '\n'))
			break;
	}
	compare_at(k, p, UINT64_MAX);
	ksymtab_free(k);
	ksymtab_free(p);
	unlink(kept);
	unlink(parsed);
	free(text);
	free(down);
}

/* The order check: a text whose symbol lines' addresses never go down is
 * kept (its mapping stays until ksymtab_free), any other is parsed whole
 * (the mapping dropped at once), and both name every address as the
 * parsed text does.  Each case is read twice: followed by 75 bytes of
 * higher lines (compared by their first 16 bytes as they are) and
 * without them (the last 64 bytes, parsed line by line); both end with a
 * data line at the top, which the reference (parsed: a copy of that line
 * put first) has twice. */
static int order_unmaps;

static int order_munmap(void *p, size_t len)
{
	order_unmaps++;
	return munmap(p, len);
}

/* TEXT loaded through a seam that counts unmaps: whether it was kept. */
static struct ksymtab *order_load(const char *text, bool *kept)
{
	struct sys_ops ops = *sys_real_ops();
	char path[64], err[256];
	struct ksymtab *k;

	strcpy(path, write_fixture(text, strlen(text)));
	ops.munmap = order_munmap;
	sys_set_ops(&ops);
	order_unmaps = 0;
	k = ksymtab_load(path, "/nonexistent", err, sizeof(err));
	sys_set_ops(NULL);
	unlink(path);
	assert_non_null(k);
	*kept = order_unmaps == 0;
	return k;
}

#define ORDER_PAD "fffffffff0000000 t pad_a\nfffffffff0000100 t pad_b\nfffffffff0000200 t pad_c\n"
#define ORDER_TOP "ffffffffff000000 d pad_top"

static void order_case(const char *lines, bool pad, const char *tail, bool want_kept)
{
	char text[2048], ref[sizeof(text) + sizeof(ORDER_TOP)];
	bool kept, ref_kept;

	snprintf(text, sizeof(text), "%s%s" ORDER_TOP "%s", lines, pad ? ORDER_PAD : "", tail);
	snprintf(ref, sizeof(ref), ORDER_TOP "\n%s", text);
	struct ksymtab *k = order_load(text, &kept), *p = order_load(ref, &ref_kept);
	if (kept != want_kept)
		fail_msg("%s %s:\n%s", want_kept ? "parsed" : "kept", pad ? "padded" : "", text);
	assert_false(ref_kept);
	for (const char *line = text; *line; line++) {
		char *digits_end;
		uint64_t addr = strtoull(line, &digits_end, 16);
		if (digits_end > line)
			for (uint64_t d = 0; d < 4; d++) {
				compare_at(k, p, addr + d * 0x3f);
				compare_at(k, p, addr - d);
			}
		if (!(line = strchr(line, '\n')))
			break;
	}
	compare_at(k, p, 0);
	compare_at(k, p, UINT64_MAX);
	ksymtab_free(k);
	ksymtab_free(p);
}

/* LINES kept or parsed as WANT_KEPT says, wherever they stand: before
 * higher lines or among the last 64 bytes, the text ending with a newline
 * or not, or with a line going down after it. */
static void order_cases(const char *lines, bool want_kept)
{
	for (int pad = 0; pad < 2; pad++) {
		order_case(lines, pad, "\n", want_kept);
		order_case(lines, pad, "", want_kept);
		order_case(lines, pad, "\nffffffff80000000 t low_last", false);
	}
}

static void test_kallsyms_order(void **state)
{
	(void)state;
	/* sorted: aliases, data, weak, absolute and odd types kept in place */
	order_cases("0000000000000000 A fixed_percpu_data\n"
		    "ffffffff81000000 T _stext\nffffffff81000000 T startup_64\n"
		    "ffffffff81000100 t a\nffffffff81000100 W a_weak\n"
		    "ffffffff81000200 d data\nffffffff81000300 r ro\nffffffff81000380 ? odd\n"
		    "ffffffff81000400 t b\nffffffff81000500 T c\n", true);
	/* equal addresses: names going down */
	order_cases("ffffffff81000000 t zz\nffffffff81000000 t yy\nffffffff81000000 T b\n"
		    "ffffffff81000000 T a\nffffffff81000000 d d\n", true);
	/* one going down: at the start, in the middle, at the end */
	order_cases("ffffffff81000100 t a\nffffffff81000000 t b\nffffffff81000200 t c\n"
		    "ffffffff81000300 t d\n", false);
	order_cases("ffffffff81000000 t a\nffffffff81000100 t b\nffffffff81000200 t c\n"
		    "ffffffff810001ff t c_alias\nffffffff81000300 t d\nffffffff81000400 t e\n",
		    false);
	order_cases("ffffffff81000000 t a\nffffffff81000100 t b\nffffffff81000200 t c\n"
		    "ffffffff81000300 t d\nffffffff810002ff t d_low\n", false);
	order_cases("ffffffff81000000 t a\nffffffff81000100 t b\nffffffff81000101 t b2\n"
		    "ffffffff81000100 t b_after\n", false);
	/* no symbol lines, going down or not: short, blank, garbage, no
	 * name, 17 digits, a type no reader keeps, a tab, UTF-8 */
	order_cases("ffffffff81000000 t a\n\n \nx\ngarbage line\nffffffff\n"
		    "ffffffff81000040 T\n0000000000000000 A abs_low\n"
		    "0ffffffff81000000 t seventeen\nffffffff80000000 ? odd_low\n"
		    "ffffffff\t80000000 t tab\n\xc3\xa9" "ffffffff8000000 t utf8\n"
		    "ffffffff81000100 t b\n"
		    "ffffffff8100004g T junk_g\nffffffff81000200 T c\n", true);
	/* one that is no symbol line but reads higher: the next ones go down */
	order_cases("ffffffff81000000 t a\nzzzzzzzzzzzzzzzz t junk\n"
		    "ffffffff81000100 t b\n", false);
	order_cases("ffffffff81000000 t a\n\x7f" "fffffff81000000 t del\n"
		    "ffffffff81000100 t b\n", false);
	/* a 32-bit kernel's 8 digits, each parsed: equal addresses whose
	 * bytes go down are kept; one address going down is not */
	order_cases("c1000000 T startup_32\nc1000000 T _stext\nc1000010 t zzz\n"
		    "c1000010 t aaa\nc1000020 d data\nc1000030 T f\n", true);
	order_cases("c1000000 T startup_32\nc1000020 t b\nc1000010 t a\n", false);
	/* shorter addresses among 16 digits, above 32 bits and with letters */
	order_cases("0000000100000000 t a\n200000000 t b\n00000002000000a0 t c\n2000000a8 t d\n"
		    "2000000b0 t e\n", true);
	order_cases("200000000 t b\n100000010 t a\n", false);
	/* modules: in order, then one going down */
	order_cases("ffffffff81000000 T _stext\nffffffffc0001000 t e1000_clean\t[e1000]\n"
		    "ffffffffc0001080 T e1000_xmit\t[e1000]\n"
		    "ffffffffc0002000 t ixgbe_poll\t[ixgbe]\n", true);
	order_cases("ffffffff81000000 T _stext\nffffffffc0002000 t ixgbe_poll\t[ixgbe]\n"
		    "ffffffffc0001000 t e1000_clean\t[e1000]\n", false);
	/* bytes in order, addresses not: shorter addresses, and upper case
	 * (the first 16 bytes compared as they are would pass) */
	order_cases("10 t aaaaaaaaaaaaaaaa\n2 t bbbbbbbbbbbbbbbbbb\n", false);
	order_cases("1000000000000000 t long16\n200000000000000 t short15\n", false);
	order_cases("000000000000000B t upper_b\n000000000000000a t lower_a\n", false);
	order_cases("000000000000000A t upper_a\n000000000000000b t lower_b\n"
		    "000000000000000C t upper_c\n", true);
}

/* kernel.kptr_restrict: every address 0, so no symbol table, whatever
 * lines that are no symbols' follow; an empty file or one of no symbol
 * line has none; a missing file says which. */
static void test_kallsyms_hidden(void **state)
{
	static const char hidden[] = "0000000000000000 T _stext\n0000000000000000 T schedule\n"
				     "0000000000000000 t e1000_clean\t[e1000]\n"
				     "ffffffff8100004g T junk\n";
	static const char *const none[] = { "", "garbage\n", "ffffffff8100004g T junk\n",
					    "ffffffff81000000 T\nffffffff81000000 A abs\n",
					    "ffffffff81000000 T " };
	char path[64], err[256];

	(void)state;
	strcpy(path, write_fixture(hidden, sizeof(hidden) - 1));
	assert_null(ksymtab_load(path, "/nonexistent", err, sizeof(err)));
	assert_non_null(strstr(err, "kptr_restrict"));
	assert_non_null(strstr(err, path));
	unlink(path);
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		strcpy(path, write_fixture(none[i], strlen(none[i])));
		assert_null(ksymtab_load(path, "/nonexistent", err, sizeof(err)));
		assert_non_null(strstr(err, "no symbols"));
		unlink(path);
	}
	assert_null(ksymtab_load("/nonexistent/kallsyms", NULL, err, sizeof(err)));
	assert_string_equal(err, "/nonexistent/kallsyms: No such file or directory");
	assert_int_equal(symbols_kernel_build_id("/nonexistent", (uint8_t[20]){ 0 }, 20), 0);
}

/* The running kernel, when its addresses are readable (root, kptr_restrict
 * below 2): the address kallsyms gives for schedule names schedule. */
static void test_kallsyms_live(void **state)
{
	char err[256], line[512], name[256], type;
	unsigned long long addr, sched = 0;
	struct ksymtab *k = ksymtab_load(NULL, NULL, err, sizeof(err));
	struct sym_info si;
	uint8_t id[64];
	FILE *f;

	(void)state;
	if (!k) {
		print_message("skipped: %s\n", err);
		skip();
	}
	f = fopen("/proc/kallsyms", "r");
	assert_non_null(f);
	while (!sched && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 &&
		    strcmp(name, "schedule") == 0)
			sched = addr;
	fclose(f);
	assert_true(sched != 0);
	assert_true(ksymtab_lookup(k, sched + 1, &si));
	assert_string_equal(si.name, "schedule");
	assert_string_equal(si.module, "[kernel.kallsyms]");
	size_t n = symbols_kernel_build_id(NULL, id, sizeof(id));
	if (n > 0)
		assert_true(ksymtab_matches(k, id, n));
	ksymtab_free(k);
}

static int count_fds(void)
{
	int n = 0;

	for (int fd = 0; fd < 1024; fd++)
		n += fcntl(fd, F_GETFD) != -1;
	return n;
}

/* ASan does not see descriptors: every ELF, debuginfo and vDSO memfd
 * descriptor must be closed by symtab_free. */
static void test_no_fd_leak(void **state)
{
	int before = count_fds();
	struct symtab *st = symtab_new(NULL);
	struct sym_info si;
	void *vdso = open_vdso();
	const char *file;
	int line;

	uint64_t start, end, pgoff, hole, page = (uint64_t)sysconf(_SC_PAGESIZE);

	(void)state;
	assert_non_null(st);
	assert_int_equal(symtab_add_proc_maps(st, getpid()), 0);
	/* Two pieces of one mapping share a module: the second piece's
	 * descriptor is closed at once. */
	self_mapping(target_ip(), &start, &end, &pgoff);
	/* The hole must not cover symtest_target (its page depends on the
	 * code before it: ASan builds differ). */
	hole = target_ip() - start >= page && target_ip() - start < 2 * page ? start + 2 * page
									   : start + page;
	assert_true(hole + page <= end);
	assert_int_equal(symtab_add_map(st, "//anon", hole, hole + page, 0), 0);
	assert_true(symtab_lookup(st, start, &si));
	assert_true(symtab_lookup(st, end - 1, &si));
	assert_true(symtab_lookup(st, target_ip(), &si));
	assert_true(symtab_srcline(st, target_ip(), &file, &line));
	assert_true(symtab_lookup(st, (uint64_t)(uintptr_t)dlsym(RTLD_DEFAULT, "getppid"), &si));
	if (vdso) {
		assert_true(symtab_lookup(st, (uint64_t)(uintptr_t)dlsym(vdso, "__vdso_time"), &si));
		assert_non_null(si.name);
		dlclose(vdso);
	}
	assert_true(count_fds() > before);
	symtab_free(st);
	assert_int_equal(count_fds(), before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_id_first),  /* first: before any symtab_new */
		cmocka_unit_test_setup_teardown(test_own_function, setup_self, teardown),
		cmocka_unit_test_setup_teardown(test_libc_function, setup_self, teardown),
		cmocka_unit_test_setup_teardown(test_stripped_library, setup_self, teardown),
		cmocka_unit_test_setup_teardown(test_vdso, setup_self, teardown),
		cmocka_unit_test_setup_teardown(test_anonymous, setup_empty, teardown),
		cmocka_unit_test(test_jit_names),
		cmocka_unit_test_setup_teardown(test_perf_map, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_perf_map_grows, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_perf_map_same_name, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_pseudo_mappings, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_bad_files, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_synthetic_symbols, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_no_demangle, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_demangle_params, setup_empty, teardown),
		cmocka_unit_test(test_images_shared),
		cmocka_unit_test(test_plt_classic),
		cmocka_unit_test(test_plt_sec),
		cmocka_unit_test_setup_teardown(test_module_matches, setup_self, teardown),
		cmocka_unit_test(test_kallsyms_fixture),
		cmocka_unit_test(test_kallsyms_unsorted),
		cmocka_unit_test(test_kallsyms_chunks),
		cmocka_unit_test(test_kallsyms_cached),
		cmocka_unit_test(test_kallsyms_hidden),
		cmocka_unit_test(test_kallsyms_many),
		cmocka_unit_test(test_kallsyms_kept_text),
		cmocka_unit_test(test_kallsyms_edges),
		cmocka_unit_test(test_kallsyms_order),
		cmocka_unit_test(test_kallsyms_real),
		cmocka_unit_test(test_kallsyms_live),
		cmocka_unit_test_setup_teardown(test_srcline, setup_self, teardown),
		cmocka_unit_test_setup_teardown(test_bias_and_split, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_overlap, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_copy_clear, setup_self, teardown),
		cmocka_unit_test_setup_teardown(test_cache, setup_self, teardown),
		cmocka_unit_test_setup_teardown(test_cache_growth, setup_self, teardown),
		cmocka_unit_test_setup_teardown(test_many_mappings, setup_empty, teardown),
		cmocka_unit_test(test_no_fd_leak),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
