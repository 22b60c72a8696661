/* The curses screen: setup, restore on every exit path, colours from the
 * theme, and drawing helpers that degrade to ASCII without a UTF-8 locale. */
#ifndef TUI_UI_H
#define TUI_UI_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/theme.h"

int ui_open(const struct theme *t);   /* 0, or -1 when there is no terminal */
void ui_close(void);                  /* idempotent; safe from atexit */
void ui_apply_theme(const struct theme *t);
bool ui_utf8(void);
void ui_set(enum theme_el el);        /* attribute for what follows */
/* Text at (Y, X) clipped to W columns, padded with spaces when PAD. */
void ui_text(int y, int x, int w, const char *s, bool pad);
/* A horizontal bar of FRACTION (0..1) of W cells. */
void ui_bar(int y, int x, int w, double fraction);
/* Catches the signals that end cyctop (INT, TERM, HUP; PIPE ignored) so
 * every loop can stop cleanly, restoring the terminal; batch mode too. */
void ui_install_signals(void);
int ui_pending_signal(void);

#endif
