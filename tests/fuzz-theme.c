/* Fuzz target for the theme-file parser (tui/theme.c's theme_parse, which
 * needs no curses: it fills a struct theme that tui.c hands to curses).
 *
 * With libFuzzer (build.sh's fuzz step):
 *	clang -fsanitize=fuzzer,address,undefined -DCYCTOP_LIBFUZZER -I. \
 *		-DTHEMESDIR='"themes"' tests/fuzz-theme.c tui/theme.c arch/lines.c
 *	./a.out -max_total_time=30 CORPUS-COPY
 * Without it (make check), main() below replays every file in the
 * directories and files named on the command line: the seed corpus
 * tests/corpus/themes/ (tests/fuzz-theme.sh says what is in it) runs as a
 * plain test.
 *
 * The input is parsed as it is, not NUL-terminated, so a read past its end
 * is a finding; a colour or attribute out of range, or a broken file that
 * changed the theme's name, abort(). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tui/theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

#ifdef CYCTOP_LIBFUZZER
/* theme_load reads files through engine/counts-file.c, which brings the
 * whole engine along; the target never calls it. */
#include "engine/counts-file.h"
char *file_slurp(const char *path, size_t *len, char *err, size_t errsz)
{
	(void)path;
	(void)len;
	snprintf(err, errsz, "no files in the fuzz target");
	return NULL;
}
#endif

static volatile unsigned sink;   /* keeps the reads */

#define ALL_ATTRS (THEME_BOLD | THEME_UNDERLINE | THEME_REVERSE | THEME_DIM)

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct theme t;
	char err[512];

	theme_default(&t);
	err[0] = '\0';
	if (theme_parse(&t, (const char *)d, n, "fuzz.theme", err, sizeof(err)) < 0) {
		if (strnlen(err, sizeof(err)) >= sizeof(err) || strncmp(err, "fuzz.theme:", 11))
			abort();   /* every error names the file and line */
	}
	if (strcmp(t.name, "default") != 0)
		abort();   /* the name comes from theme_load, never from the text */
	for (int i = 0; i < EL_COUNT; i++) {
		const struct theme_spec *s = &t.el[i];
		if (s->fg < -1 || s->fg > 15 || s->bg < -1 || s->bg > 15 || (s->attrs & ~ALL_ATTRS))
			abort();   /* curses gets colour numbers it knows */
		sink += (unsigned)s->fg + (unsigned)s->bg + s->attrs;
		sink += (unsigned)strlen(theme_element_name((enum theme_el)i));
	}
	return 0;
}

#ifndef CYCTOP_LIBFUZZER
static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	for (;;) {
		if (n == cap) {
			unsigned char *p = realloc(buf, cap = cap ? cap * 2 : 65536);
			if (!p)
				abort();
			buf = p;
		}
		size_t k = fread(buf + n, 1, cap - n, f);
		if (k == 0)
			break;
		n += k;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int replay(const char *path, int *count)
{
	struct stat st;
	DIR *dir;
	struct dirent *e;
	int rc = 0;

	if (stat(path, &st) < 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return replay_file(path);
	}
	dir = opendir(path);
	if (!dir) {
		perror(path);
		return -1;
	}
	while ((e = readdir(dir))) {
		char sub[4096];
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (stat(sub, &st) == 0 && S_ISREG(st.st_mode)) {
			(*count)++;
			rc |= replay_file(sub);
		}
	}
	closedir(dir);
	return rc;
}

int main(int argc, char **argv)
{
	int count = 0, rc = 0;

	for (int i = 1; i < argc; i++)
		rc |= replay(argv[i], &count);
	printf("fuzz-theme: replayed %d inputs\n", count);
	return rc || count == 0 ? 1 : 0;
}
#endif
