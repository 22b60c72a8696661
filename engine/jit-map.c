/* JIT code: perf's names for memory no file backs and the functions a
 * runtime lists in /tmp/perf-PID.map (see engine/symbols-priv.h). */
#include "engine/symbols-priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Memory no file backs, as perf tells it (tools/perf/util/map.c
 * is_anon_memory, is_no_dso_memory); "" is /proc/PID/maps' anonymous. */
static bool is_fileless(const char *path)
{
	return !path[0] || strcmp(path, "//anon") == 0 || strncmp(path, "/dev/zero", 9) == 0 ||
	       strncmp(path, "/anon_hugepage", 14) == 0 || strncmp(path, "[stack", 6) == 0 ||
	       strncmp(path, "/SYSV", 5) == 0 || strcmp(path, "[heap]") == 0;
}

const char *symbols_map_name(const char *path, long pid, char *buf, size_t size)
{
	/* perf names such code /tmp/perf-PID.map and shows it "[JIT] tid PID"
	 * (util/dsos.c dso__set_basename): the same name here */
	if (!is_fileless(path) || pid <= 0)
		return path;
	snprintf(buf, size, "[JIT] tid %ld", pid);
	return buf;
}

/* One "START SIZE NAME" line of a perf map (tools/perf/Documentation/
 * jit-interface.txt), hexadecimal without 0x or with it. */
static bool parse_perf_map_line(struct strpool *pool, char *line, struct func_sym *f)
{
	char *end;
	uint64_t start = strtoull(line, &end, 16), size;

	if (end == line || *end != ' ')
		return false;
	line = end + 1;
	size = strtoull(line, &end, 16);
	if (end == line || *end != ' ' || size == 0 || start + size < start)
		return false;
	end[strcspn(end, "\n")] = '\0';
	*f = (struct func_sym){ .start = start, .end = start + size, .bind = STB_GLOBAL,
				.kind = FUNC_NAMED };
	return (f->name = strpool_intern(pool, end + 1)) != NULL;
}

/* perf reads a map only from its owner or root (util/symbol.c
 * dso__load_perf_map, unless forced): someone else's /tmp file could
 * otherwise rename our functions. */
static FILE *open_perf_map(long pid)
{
	char path[64];
	struct stat sb;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%ld.map", pid);
	if (!(f = fopen(path, "re")))
		return NULL;
	if (fstat(fileno(f), &sb) < 0 || !S_ISREG(sb.st_mode) ||
	    (sb.st_uid != geteuid() && sb.st_uid != 0)) {
		fclose(f);
		return NULL;
	}
	return f;
}

static struct func_image *perf_map_image(const struct func_images *fi, const char *name, FILE *f)
{
	struct func_image *img = calloc(1, sizeof(*img));
	struct func_sym *syms = NULL;
	char *line = NULL;
	size_t cap = 0, room = 0, n = 0;
	struct stat sb;

	if (!img || !(img->path = strdup(name))) {
		free(img);
		return NULL;
	}
	if (fstat(fileno(f), &sb) == 0)
		img->map_bytes = (uint64_t)sb.st_size;
	while (getline(&line, &cap, f) > 0) {
		if (GROW(syms, n + 1, room) < 0)
			break;
		if (parse_perf_map_line(&img->names, line, &syms[n])) {
			/* a runtime writes a function again when it recompiles
			 * it: of two at one address the later wins a tie */
			syms[n].idx = UINT32_MAX - (uint32_t)n;
			n++;
		}
	}
	free(line);
	finish_funcs(fi, img, syms, n, 0, 0);
	free(syms);
	return img;
}

/* The module of a JIT mapping (named by symbols_map_name) whose process
 * wrote a perf map; NULL when it wrote none. */
struct module *module_from_perf_map(struct symtab *st, const char *name)
{
	long pid;
	struct module *mod = find_module(st, name, 0);
	struct func_image *img;
	FILE *f;

	if (mod || sscanf(name, "[JIT] tid %ld", &pid) != 1 || !(f = open_perf_map(pid)))
		return mod;
	img = perf_map_image(st->images, name, f);
	fclose(f);
	if (!img || !(mod = module_from_image(st, name, 0, img))) {
		image_free(img);
		return NULL;
	}
	mod->own = img;
	mod->report_failed = true;  /* no ELF to give lines or code */
	return mod;
}

void symtab_allow_jit_reread(struct symtab *st)
{
	st->jit_reread = true;
}

/* The map of JIT mapping M read again, when it grew: a runtime appends a
 * line per function it compiles.  The table it replaces stays (names
 * handed out point into it).  True when M's functions changed. */
bool jit_map_reread(struct symtab *st, struct mapping *m)
{
	struct func_image *img;
	struct module *mod = m->mod;
	struct stat sb;
	long pid;
	FILE *f;

	if (strncmp(m->name, "[JIT] tid ", 10) != 0 || sscanf(m->name, "[JIT] tid %ld", &pid) != 1)
		return false;
	st->jit_reread = false;
	if (!mod) {  /* no map when first looked up: every mapping of it gets it */
		if (!(mod = module_from_perf_map(st, m->name)))
			return false;
		for (size_t i = 0; i < st->nmaps; i++)
			if (st->maps[i].name == m->name)
				st->maps[i].mod = mod;
		return true;
	}
	if (!mod->own || !(f = open_perf_map(pid)))
		return false;
	img = fstat(fileno(f), &sb) == 0 && (uint64_t)sb.st_size != mod->own->map_bytes ?
		      perf_map_image(st->images, m->name, f) : NULL;
	fclose(f);
	if (!img)
		return false;
	img->next = mod->own;
	mod->own = img;
	mod->img = img;
	mod->funcs = img->funcs;
	mod->nfuncs = img->n;
	mod->cache_n = 0;  /* the addresses it missed may be named now */
	hashtab_clear(&mod->cache_index);
	return true;
}
