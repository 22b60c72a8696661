#include "arch/lines.h"

#include <ctype.h>
#include <string.h>

void lines_init(struct line_reader *r, const char *buf, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->buf = buf;
	r->len = len;
}

bool lines_next(struct line_reader *r, char *line, size_t sz, bool strip_comment)
{
	if (r->pos >= r->len)
		return false;
	const char *start = r->buf + r->pos;
	const char *nl = memchr(start, '\n', r->len - r->pos);
	size_t l = nl ? (size_t)(nl - start) : r->len - r->pos;

	r->number++;
	r->pos += l + (nl ? 1 : 0);
	r->too_long = l >= sz;
	if (r->too_long)
		l = sz - 1;
	memcpy(line, start, l);
	line[l] = '\0';
	if (strip_comment) {
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
	}
	return true;
}

char *lines_trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}
