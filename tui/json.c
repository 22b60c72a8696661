#include "tui/json.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>

#include "tui/format.h"

void json_init(struct json *j, FILE *out)
{
	*j = (struct json){ .out = out };
}

/* Before a value or a key: the separator its container wants. */
static void item(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth == 0)
		return;
	int d = j->depth - 1;
	if (j->need_comma[d])
		fputc(',', j->out);
	if (j->lines[d])
		fputs("\n  ", j->out);
	else if (j->need_comma[d])
		fputc(' ', j->out);
	j->need_comma[d] = true;
}

static void begin(struct json *j, char open, char close, bool lines)
{
	item(j);
	if (j->depth == JSON_MAX_DEPTH)
		abort();
	fputc(open, j->out);
	j->close[j->depth] = close;
	j->need_comma[j->depth] = false;
	j->lines[j->depth] = lines;
	j->depth++;
}

void json_object_begin(struct json *j) { begin(j, '{', '}', false); }
void json_array_begin(struct json *j) { begin(j, '[', ']', false); }
void json_lines_begin(struct json *j) { begin(j, '[', ']', true); }

void json_end(struct json *j)
{
	if (j->depth == 0 || j->after_key)
		abort();
	j->depth--;
	if (j->lines[j->depth])
		fputc('\n', j->out);
	fputc(j->close[j->depth], j->out);
}

void json_key(struct json *j, const char *key)
{
	if (j->depth == 0 || j->close[j->depth - 1] != '}' || j->after_key)
		abort();
	item(j);
	fmt_json_string(j->out, key);
	fputs(": ", j->out);
	j->after_key = true;
}

void json_str(struct json *j, const char *s)
{
	item(j);
	fmt_json_string(j->out, s);
}

void json_strf(struct json *j, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_str(j, buf);
}

void json_u64(struct json *j, uint64_t v)
{
	item(j);
	fprintf(j->out, "%" PRIu64, v);
}

void json_int(struct json *j, long long v)
{
	item(j);
	fprintf(j->out, "%lld", v);
}

void json_num(struct json *j, double v)
{
	item(j);
	fmt_json_number(j->out, v);
}

void json_whole(struct json *j, double v)
{
	item(j);
	fprintf(j->out, "%.0f", v);
}

void json_fixed(struct json *j, int decimals, double v)
{
	item(j);
	fprintf(j->out, "%.*f", decimals, v);
}

void json_bool(struct json *j, bool v)
{
	item(j);
	fputs(v ? "true" : "false", j->out);
}

void json_null(struct json *j)
{
	item(j);
	fputs("null", j->out);
}

void json_kstr(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_str(j, s);
}

void json_ku64(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_u64(j, v);
}

void json_knum(struct json *j, const char *key, double v)
{
	json_key(j, key);
	json_num(j, v);
}

void json_kbool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}
