/* Reading a text buffer line by line into a bounded copy: shared by every
 * parser of small text files (counts, penalties, themes). */
#ifndef ARCH_LINES_H
#define ARCH_LINES_H

#include <stdbool.h>
#include <stddef.h>

struct line_reader {
	const char *buf;
	size_t len, pos;
	int number;       /* 1-based number of the line last read */
	bool too_long;    /* the line last read did not fit */
};

void lines_init(struct line_reader *r, const char *buf, size_t len);
/* Copies the next line (without its newline, '#' comments cut when
 * STRIP_COMMENT) into LINE.  False at the end of the buffer. */
bool lines_next(struct line_reader *r, char *line, size_t sz, bool strip_comment);

/* S without leading and trailing white space (trailing cut in place). */
char *lines_trim(char *s);

#endif
