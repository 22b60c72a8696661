/* Source line cache (see source.h). */
#include "engine/source.h"
#include "lib/hashtab.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Source files larger than this are not shown (generated code). */
#define SRC_MAX_BYTES (16u << 20)

struct src_file {
	char *path;
	char *text;       /* NULL: unreadable (remembered, not retried) */
	char **lines;
	int nlines;
	struct src_file *next;
};

struct src_cache {
	struct src_file *files;
};

struct src_cache *src_cache_new(void)
{
	return calloc(1, sizeof(struct src_cache));
}

void src_cache_free(struct src_cache *c)
{
	if (!c)
		return;
	for (struct src_file *f = c->files, *next; f; f = next) {
		next = f->next;
		free(f->path);
		free(f->text);
		free(f->lines);
		free(f);
	}
	free(c);
}

/* Regular files only: a path from DWARF could name a FIFO or a device,
 * and opening those could block or act. */
static FILE *open_regular_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat sb;
	FILE *fp;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) || !(fp = fdopen(fd, "r"))) {
		close(fd);
		return NULL;
	}
	return fp;
}

static char *read_text(const char *path)
{
	FILE *fp = open_regular_file(path);
	char *buf = NULL;
	long n;

	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && n <= (long)SRC_MAX_BYTES &&
	    fseek(fp, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1))) {
		size_t got = fread(buf, 1, (size_t)n, fp);
		buf[got] = '\0';
	}
	fclose(fp);
	return buf;
}

/* Splits the text in place into lines. */
static void split_lines(struct src_file *f)
{
	size_t cap = 0;

	for (char *p = f->text; p && *p;) {
		char *nl = strchr(p, '\n');
		if (GROW(f->lines, (size_t)f->nlines + 1, cap) < 0)
			return;
		f->lines[f->nlines++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
}

static struct src_file *load(struct src_cache *c, const char *path)
{
	struct src_file *f = calloc(1, sizeof(*f));

	if (!f || !(f->path = strdup(path))) {
		free(f);
		return NULL;
	}
	f->text = read_text(path);
	split_lines(f);
	f->next = c->files;
	c->files = f;
	return f;
}

const char *src_cache_line(struct src_cache *c, const char *file, int line)
{
	struct src_file *f;

	if (!c || !file)
		return NULL;
	for (f = c->files; f; f = f->next)
		if (strcmp(f->path, file) == 0)
			break;
	if (!f && !(f = load(c, file)))
		return NULL;
	return line >= 1 && line <= f->nlines ? f->lines[line - 1] : NULL;
}
