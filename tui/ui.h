/* The curses screen: setup, restore on every exit path, colours from the
 * theme, and drawing helpers that degrade to ASCII without a UTF-8 locale. */
#ifndef TUI_UI_H
#define TUI_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tui/theme.h"

/* The screen is the controlling terminal (/dev/tty), whatever stdin and
 * stdout are.  0, or -1 when there is none. */
int ui_open(const struct theme *t);
void ui_close(void);                  /* idempotent; safe from atexit */
int ui_input_fd(void);                /* the terminal keys come from; -1 closed */
/* The controlling terminal opened for reading and writing, or NULL. */
FILE *ui_open_tty(void);
bool ui_have_tty(void);
void ui_apply_theme(const struct theme *t);
bool ui_utf8(void);
void ui_set(enum theme_el el);        /* attribute for what follows */
/* Text at (Y, X) clipped to W columns, padded with spaces when PAD. */
void ui_text(int y, int x, int w, const char *s, bool pad);
/* S on the lines ending at row BOTTOM, wrapped at spaces (a message is
 * never cut mid-word), at most MAX_LINES; returns the lines used. */
int ui_wrapped(int bottom, const char *s, int max_lines);
/* The bytes of S (escaped text) that fill the next line of W columns:
 * whole words when a space allows, else W characters. */
size_t ui_wrap_len(const char *s, int w);
/* A header line: S across the screen; too long, it ends after its last
 * whole field (fields are two spaces apart) with an ellipsis, never in
 * the middle of one (a single field too long is cut at the edge). */
void ui_header(int y, const char *s);
/* A table cell: S in W columns, the last one blank so that cells never
 * run into each other; a text too long ends with an ellipsis. */
void ui_cell(int y, int x, int w, const char *s);
/* A path in a cell: whole when it fits, else its file name. */
void ui_path(int y, int x, int w, const char *path);
/* A horizontal bar of FRACTION (0..1) of W cells. */
void ui_bar(int y, int x, int w, double fraction);
/* Catches the signals that end cyctop (INT, TERM, HUP; PIPE ignored) so
 * every loop can stop cleanly, restoring the terminal; batch mode too. */
void ui_install_signals(void);
int ui_pending_signal(void);

#endif
