#include "tui/browser.h"

#include <curses.h>

void browser_clamp(struct browser *b)
{
	if (b->height < 1)
		b->height = 1;
	if (b->shown > 0 && b->height > b->shown)
		b->top -= b->height - b->shown;
	b->shown = b->height;
	if (b->sel >= b->nr)
		b->sel = b->nr - 1;
	if (b->sel < 0)
		b->sel = 0;
	if (b->top > b->sel)
		b->top = b->sel;
	if (b->sel >= b->top + b->height)
		b->top = b->sel - b->height + 1;
	if (b->top > b->nr - b->height)
		b->top = b->nr - b->height;
	if (b->top < 0)
		b->top = 0;
}

bool browser_key(struct browser *b, int key)
{
	switch (key) {
	case KEY_UP: case 'k': b->sel--; break;
	case KEY_DOWN: case 'j': b->sel++; break;
	case KEY_PPAGE: b->sel -= b->height; break;
	case KEY_NPAGE: b->sel += b->height; break;
	case KEY_HOME: case 'g': b->sel = 0; break;
	case KEY_END: case 'G': b->sel = b->nr - 1; break;
	default: return false;
	}
	browser_clamp(b);
	return true;
}

int browser_draw(struct browser *b, int y, int bottom, browser_write_fn *write, void *ctx)
{
	b->height = bottom - y;
	browser_clamp(b);
	/* bounded by BOTTOM too: the clamp keeps a height of 1 even when a
	 * view's header left no line for the rows */
	for (int row = b->top; row < b->nr && y < bottom; row++, y++)
		write(ctx, row, y, row == b->sel);
	return y;
}
