/* Semantic colour elements and theme files (themes/NAME.theme). */
#ifndef TUI_THEME_H
#define TUI_THEME_H

#include <stddef.h>

enum theme_el {
	EL_DEFAULT,
	EL_HEADER,       /* the header lines */
	EL_HEADER_VALUE, /* numbers in the header */
	EL_COLUMN,       /* column titles */
	EL_SELECTED,     /* the selected row */
	EL_HOT,          /* a large share */
	EL_WARM,         /* a medium share */
	EL_BAR,          /* bars of trees and histograms */
	EL_BOTTLENECK,   /* the largest child path of a tree */
	EL_WARNING,      /* flagged values, lost samples */
	EL_MISSING,      /* "not measured" */
	EL_STATUS,       /* the status line with key hints */
	/* the flame graph's colour scale, low to high (view-flame.c) */
	EL_FLAME0, EL_FLAME1, EL_FLAME2, EL_FLAME3, EL_FLAME4, EL_FLAME5,
	EL_COUNT
};

struct theme_spec {
	short fg, bg;    /* curses colour numbers, -1 = terminal default */
	unsigned attrs;  /* THEME_BOLD ... */
};

#define THEME_BOLD 1u
#define THEME_UNDERLINE 2u
#define THEME_REVERSE 4u
#define THEME_DIM 8u

struct theme {
	char name[64];
	struct theme_spec el[EL_COUNT];
};

/* The built-in default (also what a broken file falls back to). */
void theme_default(struct theme *t);
/* Parses a theme file's text over the defaults; "FILE:LINE: what" in ERR. */
int theme_parse(struct theme *t, const char *buf, size_t len, const char *fname, char *err,
		size_t errsz);
/* Finds NAME (a path, or a name looked up in $XDG_CONFIG_HOME/cyctop/themes,
 * ~/.config/cyctop/themes, $CYCTOP_THEMES and the installed themes dir) and
 * loads it.  On error T holds the default theme and ERR says why. */
int theme_load(struct theme *t, const char *name, char *err, size_t errsz);
/* The names of the bundled themes, in the order the theme key cycles them. */
extern const char *const theme_names[];
const char *theme_element_name(enum theme_el el);

#endif
