/* Number and text formatting shared by the CLI outputs and the views.
 * Pure functions: tested in tests/unit/test-format.c. */
#ifndef TUI_FORMAT_H
#define TUI_FORMAT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arch/tree.h"

/* The --format of the text outputs.  OUT_FOLDED (folded call stacks for
 * flame graphs) and OUT_PPROF (one gzipped pprof profile at the end) are the
 * watch's batch mode's only. */
enum out_format { OUT_TEXT, OUT_CSV, OUT_JSON, OUT_FOLDED, OUT_PPROF, OUT_FLAME };

/* "text", "csv", "json", "folded" or "pprof" into *F; -1 for anything else. */
int fmt_parse_output(const char *s, enum out_format *f);

/* A value in its unit for people: cycles and counts as integers with
 * thousands separators, ratios with 4 decimals, etc. */
const char *fmt_value(char *buf, size_t sz, double v, enum arch_unit unit);
/* 1234567 -> "1,234,567" */
const char *fmt_grouped(char *buf, size_t sz, double v);
/* Text outputs (batch text and csv, annotate, the final table, error
 * messages, the views) never pass a terminal a control byte: names come
 * from the kernel, from binaries and from the user, and a process named
 * "\x1b]0;x\x07" would retitle the terminal.  Tab, newline and CR become
 * \t \n \r; other C0 and C1 controls, DEL and bytes that are not UTF-8
 * become \xHH; a backslash becomes \\ (so the escapes cannot be forged);
 * well-formed UTF-8 stays.  FMT_ESCAPE_MAX is the longest expansion of one
 * input byte. */
#define FMT_ESCAPE_MAX 4
/* S escaped into BUF (cut at a whole character when it does not fit);
 * returns BUF. */
const char *fmt_escape(char *buf, size_t sz, const char *s);
/* S escaped on OUT, padded with spaces to WIDTH bytes (as printf's %-*s). */
void fmt_put_escaped(FILE *out, const char *s, int width);
/* "cyctop: MESSAGE" and a newline on OUT, the message escaped: errors quote
 * what users and programs named (commands, files, symbols, values). */
void fmt_error(FILE *out, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* A quoted csv field of S escaped (quotes doubled, as RFC 4180). */
void fmt_csv_field(FILE *out, const char *s);
/* A JSON string literal of S (quotes included). */
void fmt_json_string(FILE *out, const char *s);
/* A JSON number, or null for NAN/inf. */
void fmt_json_number(FILE *out, double v);
/* Comma-separated names of the inputs missing for node I. */
const char *fmt_missing(char *buf, size_t sz, const struct tree_result *r, int i);
/* The same for the inputs of MISSING (bit k: input k of DEF), and
 * --clock-hz when NO_CLOCK: a folded run of rows names them once. */
const char *fmt_missing_mask(char *buf, size_t sz, const struct tree_def *def, uint64_t missing,
			     bool no_clock);
/* perf top's marker of a function's module: "[k]" for the kernel and its
 * modules ("[kernel.kallsyms]", "[ext4]"), "[.]" for user space (files,
 * "[vdso]", "[anon]", "[heap]", "[jit]"...). */
const char *fmt_space_marker(const char *module);
/* The module's short name: a path's file name ("libc.so.6"); "[vdso]" and
 * other bracketed names as they are. */
const char *fmt_module_short(const char *module);
/* The watched target for a header: "pid PID (COMMAND)", or COMMAND alone
 * when system-wide ("all CPUs", "CPUs 0-3"); COMMAND as it is. */
const char *fmt_target(char *buf, size_t sz, int pid, const char *command, bool system_wide);
/* A signal's name as kill -l and the kernel's headers spell it
 * ("SIGKILL"), or "signal N" for one without a name. */
const char *fmt_signal(char *buf, size_t sz, int sig);
/* How often an event samples, as perf top says it: "4000 Hz" for the
 * clocks (their SAV is a period in ns) and frequency mode (FREQ_HZ, 0:
 * not), else "sav N" (every N events). */
const char *fmt_rate(char *buf, size_t sz, const char *event, uint64_t sav, unsigned freq_hz);

struct snap_event;
/* An event's samples as headers give them: how many there are, also when
 * each weighs its period (frequency mode: the rows' figures are the
 * periods' sums, in fmt_event_unit's unit). */
uint64_t fmt_event_samples(const struct snap_event *ev);
/* What the rows' figures of EV are: "samples", or when each sample weighs
 * its period (nsamples: frequency mode) the periods' unit, "ns" for the
 * clocks and "events" otherwise. */
const char *fmt_event_unit(const struct snap_event *ev);
/* The event's figure of a header, cumulative or WINDOW, in *VALUE, and its
 * label: "samples" (how many), or the unit of a window's weighed sum. */
const char *fmt_event_total(const struct snap_event *ev, bool window, uint64_t *value);
/* A column heading of at most WIDTH bytes: NAME then SUFFIX ("%", ":ns"),
 * NAME cut and ended with '~' when both do not fit (never cut silently);
 * returns BUF. */
const char *fmt_heading(char *buf, size_t sz, const char *name, const char *suffix, int width);
/* An event column's heading in a view, WIDTH bytes at most: MARK ('>' the
 * sort, else ' '), the name, then "%" for shares or, with SAMPLES (s: the
 * figures), the periods' unit when the samples weigh them (":ns"). */
const char *fmt_event_heading(char *buf, size_t sz, const struct snap_event *ev, char mark,
			      bool samples, int width);

#endif
