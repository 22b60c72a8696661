/* A small JSON writer (after git's json-writer.h): a nesting stack and a
 * need-comma bit per level, so no caller writes a separator, and the
 * escaping of tui/format.c.  Output keeps cyctop's layout: ", " between
 * members, ": " after keys, and containers opened with json_lines_begin
 * put each item on a line of its own.  An unbalanced json_end aborts: a
 * program error, never input. */
#ifndef TUI_JSON_H
#define TUI_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *out;
	int depth;                         /* open containers */
	char close[JSON_MAX_DEPTH];        /* '}' or ']' */
	bool need_comma[JSON_MAX_DEPTH];
	bool lines[JSON_MAX_DEPTH];        /* "\n  " before each item, "\n" before the end */
	bool after_key;                    /* the next value is a key's */
};

void json_init(struct json *j, FILE *out);
void json_object_begin(struct json *j);
void json_array_begin(struct json *j);
/* An array whose items stand on lines of their own. */
void json_lines_begin(struct json *j);
void json_end(struct json *j);
void json_key(struct json *j, const char *key);

void json_str(struct json *j, const char *s);
/* A string made with printf's FMT (addresses as "0x..."). */
void json_strf(struct json *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void json_u64(struct json *j, uint64_t v);
void json_int(struct json *j, long long v);
/* A number as fmt_json_number writes it: NaN and infinities are null. */
void json_num(struct json *j, double v);
/* A number rounded to a whole one ("%.0f": cycles estimated from samples). */
void json_whole(struct json *j, double v);
/* A number with DECIMALS digits after the point (percentages, times). */
void json_fixed(struct json *j, int decimals, double v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);

/* Shorthands: a member KEY with its value. */
void json_kstr(struct json *j, const char *key, const char *s);
void json_ku64(struct json *j, const char *key, uint64_t v);
void json_knum(struct json *j, const char *key, double v);
void json_kbool(struct json *j, const char *key, bool v);

#endif
