#include "tui/format.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/profile.h"

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

const char *fmt_space_marker(const char *module)
{
	static const char *const user[] = { "[vdso]", "[vsyscall]", "[anon", "[heap]", "[stack]",
					    "[unknown]", "[jit", "[uprobes]", "[vvar]", "//anon",
					    NULL };

	if (!module || module[0] != '[')
		return "[.]";
	for (int i = 0; user[i]; i++)
		if (strncmp(module, user[i], strlen(user[i])) == 0)
			return "[.]";
	return "[k]";
}

const char *fmt_module_short(const char *module)
{
	const char *slash = module ? strrchr(module, '/') : NULL;

	if (!module || module[0] == '[' || !slash || !slash[1])
		return module ? module : "";
	return slash + 1;
}

const char *fmt_rate(char *buf, size_t sz, const char *event, uint64_t sav, unsigned freq_hz)
{
	bool clock = strncmp(event, "cpu-clock", 9) == 0 || strncmp(event, "task-clock", 10) == 0;

	if (strncmp(event, "off-cpu", 7) == 0)
		snprintf(buf, sz, "each wait");  /* a sample a wait, weighing its ns */
	else if (freq_hz)
		snprintf(buf, sz, "%u Hz", freq_hz);
	else if (clock && sav > 0)
		snprintf(buf, sz, "%.0f Hz", 1e9 / (double)sav);
	else
		snprintf(buf, sz, "sav %llu", (unsigned long long)sav);
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

/* The length of the well-formed UTF-8 sequence at S (RFC 3629: no overlong
 * forms, no surrogates, nothing past U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;

	if (n == 0 || c > 0xf4)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

/* One character of S escaped into OUT (NUL-terminated); *USED is how many
 * bytes of S it took. */
static size_t escape_unit(const unsigned char *s, char out[16], size_t *used)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = *s >= 0x80 ? utf8_len(s) : 1;

	/* C1 controls (U+0080..U+009F) act as ESC sequences on some terminals */
	if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0)
		n = 0;
	*used = n ? n : 1;
	if (n > 1) {
		memcpy(out, s, n);
		out[n] = '\0';
		return n;
	}
	if (n == 1 && *s >= 0x20 && *s < 0x7f && *s != '\\') {
		out[0] = (char)*s;
		out[1] = '\0';
		return 1;
	}
	out[0] = '\\';
	switch (*s) {
	case '\\': out[1] = '\\'; out[2] = '\0'; return 2;
	case '\t': out[1] = 't'; out[2] = '\0'; return 2;
	case '\n': out[1] = 'n'; out[2] = '\0'; return 2;
	case '\r': out[1] = 'r'; out[2] = '\0'; return 2;
	default: break;
	}
	out[1] = 'x';
	out[2] = hex[*s >> 4];
	out[3] = hex[*s & 15];
	out[4] = '\0';
	return 4;
}

const char *fmt_escape(char *buf, size_t sz, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, used;
	char unit[16];

	if (!sz)
		return buf;
	while (*p) {
		size_t k = escape_unit(p, unit, &used);
		if (o + k >= sz)
			break;
		memcpy(buf + o, unit, k);
		o += k;
		p += used;
	}
	buf[o] = '\0';
	return buf;
}

void fmt_put_escaped(FILE *out, const char *s, int width)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t used;
	long n = 0;
	char unit[16];

	while (*p) {
		n += (long)escape_unit(p, unit, &used);
		fputs(unit, out);
		p += used;
	}
	for (; n < width; n++)
		fputc(' ', out);
}

void fmt_error(FILE *out, const char *fmt, va_list ap)
{
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fputs("cyctop: ", out);
	fmt_put_escaped(out, msg, 0);
	fputc('\n', out);
}

void fmt_csv_field(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t used;
	char unit[16];

	fputc('"', out);
	while (*p) {
		escape_unit(p, unit, &used);
		if (*p == '"')
			fputc('"', out);
		fputs(unit, out);
		p += used;
	}
	fputc('"', out);
}

/* Names come from the kernel and from files: a comm cut at 15 bytes may
 * end inside a character, so bytes that are not UTF-8 become U+FFFD and
 * the line stays JSON. */
void fmt_json_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (*p) {
		/* plain ASCII in one write: a table of thousands of names a second
		 * (-a) spent a tenth of its time in per-character writes */
		const unsigned char *run = p;
		while (*p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
			p++;
		if (p > run)
			fwrite(run, 1, (size_t)(p - run), out);
		if (!*p)
			break;
		size_t n = *p >= 0x80 ? utf8_len(p) : 1;
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else if (n == 0)
			fputs("\\ufffd", out);
		else
			fwrite(p, 1, n, out);
		p += n ? n : 1;
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

const char *fmt_missing_mask(char *buf, size_t sz, const struct tree_def *def, uint64_t missing,
			     bool no_clock)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int k = 1; k < def->n_inputs && k < 64; k++) {
		if (!(missing & (1ull << k)))
			continue;
		int n = snprintf(buf + o, sz - o, "%s%s", o ? ", " : "", def->inputs[k].name);
		if (n < 0 || (size_t)n >= sz - o) {
			buf[o] = '\0';  /* whole names only */
			return buf;
		}
		o += (size_t)n;
	}
	if (no_clock) {
		int n = snprintf(buf + o, sz - o, "%s--clock-hz", o ? ", " : "");
		if (n < 0 || (size_t)n >= sz - o)
			buf[o] = '\0';
	}
	return buf;
}

const char *fmt_missing(char *buf, size_t sz, const struct tree_result *r, int i)
{
	return fmt_missing_mask(buf, sz, r->def, r->v[i].missing, r->v[i].no_clock);
}

int fmt_parse_output(const char *s, enum out_format *f)
{
	static const char *const names[] = { [OUT_TEXT] = "text", [OUT_CSV] = "csv",
					     [OUT_JSON] = "json", [OUT_FOLDED] = "folded",
					     [OUT_PPROF] = "pprof", [OUT_FLAME] = "flame" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(s, names[i]) == 0) {
			*f = (enum out_format)i;
			return 0;
		}
	}
	return -1;
}

const char *fmt_target(char *buf, size_t sz, int pid, const char *command, bool system_wide)
{
	if (system_wide)
		snprintf(buf, sz, "%s", command);
	else
		snprintf(buf, sz, "pid %d (%s)", pid, command);
	return buf;
}

const char *fmt_signal(char *buf, size_t sz, int sig)
{
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, sz, "SIG%s", abbrev);
	else
		snprintf(buf, sz, "signal %d", sig);
	return buf;
}

uint64_t fmt_event_samples(const struct snap_event *ev)
{
	return ev->nsamples ? ev->nsamples : ev->samples;
}

const char *fmt_event_unit(const struct snap_event *ev)
{
	size_t n = strcspn(ev->name, ":/");

	if (!ev->nsamples)
		return "samples";
	return (n == 9 && !strncmp(ev->name, "cpu-clock", n)) ||
		       (n == 10 && !strncmp(ev->name, "task-clock", n)) ||
		       (n == 7 && !strncmp(ev->name, "off-cpu", n))
		       ? "ns"
		       : "events";
}

/* A window has no count of its samples, only their weighed sum. */
const char *fmt_event_total(const struct snap_event *ev, bool window, uint64_t *value)
{
	*value = window ? ev->window : fmt_event_samples(ev);
	return window ? fmt_event_unit(ev) : "samples";
}

const char *fmt_heading(char *buf, size_t sz, const char *name, const char *suffix, int width)
{
	int room = width - (int)strlen(suffix);

	if (room < 1)
		room = 1;
	if ((int)strlen(name) <= room)
		snprintf(buf, sz, "%s%s", name, suffix);
	else
		snprintf(buf, sz, "%.*s~%s", room - 1, name, suffix);
	return buf;
}

const char *fmt_event_heading(char *buf, size_t sz, const struct snap_event *ev, char mark,
			      bool samples, int width)
{
	const char *unit = fmt_event_unit(ev);
	char suffix[16], cut[sizeof(ev->name) + sizeof(suffix)];

	if (!samples)
		snprintf(suffix, sizeof(suffix), "%%");
	else if (strcmp(unit, "samples") == 0)
		suffix[0] = '\0';
	else
		snprintf(suffix, sizeof(suffix), ":%s", unit);
	snprintf(buf, sz, "%c%s", mark, fmt_heading(cut, sizeof(cut), ev->name, suffix, width - 1));
	return buf;
}
