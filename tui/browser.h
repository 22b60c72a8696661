/* A generic list browser (perf's ui_browser): a selection, a scroll offset
 * and the keys that move them; every list view draws through it. */
#ifndef TUI_BROWSER_H
#define TUI_BROWSER_H

#include <stdbool.h>

struct browser {
	int nr;       /* rows */
	int top;      /* first row shown */
	int sel;      /* selected row */
	int height;   /* rows on screen, set by the view before drawing */
	int shown;    /* the height of the last clamp (a resize is a change) */
};

/* Handles up/down/PgUp/PgDn/Home/End; true when KEY was one of them. */
bool browser_key(struct browser *b, int key);
/* Keeps SEL and TOP valid after NR or HEIGHT changed; when the screen
 * grows the rows above come back into view (a shrink and a grow back give
 * the list as it was). */
void browser_clamp(struct browser *b);

/* Writes list row ROW on screen line Y (perf's ui_browser->write). */
typedef void browser_write_fn(void *ctx, int row, int y, bool selected);

/* Draws the rows that fit between lines Y and BOTTOM (exclusive): the
 * height is set from them and the browser clamped first, then WRITE is
 * called for each visible row, top first.  Returns the line below the last
 * row written. */
int browser_draw(struct browser *b, int y, int bottom, browser_write_fn *write, void *ctx);

#endif
