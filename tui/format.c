#include "tui/format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *fmt_grouped(char *buf, size_t sz, double v)
{
	char digits[64];
	int neg = v < 0;
	int n = snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	size_t o = 0;

	if (n <= 0 || (size_t)n >= sizeof(digits) || sz < 2) {
		snprintf(buf, sz, "%.0f", v);
		return buf;
	}
	if (neg && o + 1 < sz)
		buf[o++] = '-';
	for (int i = 0; i < n && o + 1 < sz; i++) {
		if (i > 0 && (n - i) % 3 == 0 && o + 2 < sz)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

const char *fmt_value(char *buf, size_t sz, double v, enum arch_unit unit)
{
	if (!isfinite(v)) {
		snprintf(buf, sz, "-");
		return buf;
	}
	switch (unit) {
	case UNIT_CYCLES:
	case UNIT_COUNT:
		return fmt_grouped(buf, sz, v);
	case UNIT_UOPS_PER_CYCLE:
		snprintf(buf, sz, "%.3f", v);
		break;
	case UNIT_PERCENT:
	case UNIT_PER_SECOND:
		snprintf(buf, sz, "%.2f", v);
		break;
	default:
		snprintf(buf, sz, "%.4f", v);
		break;
	}
	return buf;
}

void fmt_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

void fmt_json_number(FILE *out, double v)
{
	char buf[32];

	if (!isfinite(v)) {
		fputs("null", out);
		return;
	}
	/* every digit of a count: %.15g when it reads back exactly, else %.17g */
	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, out);
}

const char *fmt_missing(char *buf, size_t sz, const struct tree_result *r, int i)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int k = 1; k < r->def->n_inputs && k < 64; k++) {
		if (!(r->v[i].missing & (1ull << k)))
			continue;
		int n = snprintf(buf + o, sz - o, "%s%s", o ? ", " : "", r->def->inputs[k].name);
		if (n < 0 || (size_t)n >= sz - o) {
			buf[o] = '\0';  /* whole names only */
			return buf;
		}
		o += (size_t)n;
	}
	if (r->v[i].no_clock) {
		int n = snprintf(buf + o, sz - o, "%s--clock-hz", o ? ", " : "");
		if (n < 0 || (size_t)n >= sz - o)
			buf[o] = '\0';
	}
	return buf;
}

int fmt_parse_output(const char *s, enum out_format *f)
{
	static const char *const names[] = { [OUT_TEXT] = "text", [OUT_CSV] = "csv",
					     [OUT_JSON] = "json", [OUT_FOLDED] = "folded" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(s, names[i]) == 0) {
			*f = (enum out_format)i;
			return 0;
		}
	}
	return -1;
}
