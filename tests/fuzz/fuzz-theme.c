/* Fuzz target for the theme-file parser (tui/theme.c's theme_parse, which
 * needs no curses: it fills a struct theme that tui.c hands to curses).
 *
 * With libFuzzer (make fuzz):
 *	clang -fsanitize=fuzzer,address,undefined -DCYCTOP_LIBFUZZER -I. \
 *		-DTHEMESDIR='"themes"' tests/fuzz/fuzz-theme.c tui/theme.c arch/lines.c
 *	./a.out -max_total_time=30 CORPUS-COPY
 * Without it (make check), tests/fuzz/fuzz-replay.c's main() replays every file in the
 * directories and files named on the command line: the seed corpus
 * tests/fuzz/corpus/themes/ (tests/fuzz/fuzz-theme.sh says what is in it) runs as a
 * plain test.
 *
 * The input is parsed as it is, not NUL-terminated, so a read past its end
 * is a finding; a colour or attribute out of range, or a broken file that
 * changed the theme's name, abort(). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
