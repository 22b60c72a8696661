/* Number and text formatting shared by the CLI outputs and the views.
 * Pure functions: tested in tests/test-format.c. */
#ifndef TUI_FORMAT_H
#define TUI_FORMAT_H

#include <stddef.h>
#include <stdio.h>

#include "arch/tree.h"

/* The --format of the text outputs.  OUT_FOLDED (folded call stacks for
 * flame graphs) is the watch's batch mode's only (cyctop -b -g). */
enum out_format { OUT_TEXT, OUT_CSV, OUT_JSON, OUT_FOLDED };

/* "text", "csv", "json" or "folded" into *F; -1 for anything else. */
int fmt_parse_output(const char *s, enum out_format *f);

/* A value in its unit for people: cycles and counts as integers with
 * thousands separators, ratios with 4 decimals, etc. */
const char *fmt_value(char *buf, size_t sz, double v, enum arch_unit unit);
/* 1234567 -> "1,234,567" */
const char *fmt_grouped(char *buf, size_t sz, double v);
/* A JSON string literal of S (quotes included). */
void fmt_json_string(FILE *out, const char *s);
/* A JSON number, or null for NAN/inf. */
void fmt_json_number(FILE *out, double v);
/* Comma-separated names of the inputs missing for node I. */
const char *fmt_missing(char *buf, size_t sz, const struct tree_result *r, int i);

#endif
