/* Help: every key. */
#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/browser.h"
#include "tui/tui.h"
#include "tui/ui.h"

static const char *const help_lines[] = {
	"cyctop keys",
	"",
	"  q F10           quit (a launched command is terminated, an attached one left running;",
	"                  after the program ended, cyctop exits with its status)",
	"  ? h F1          this help (Esc: back where it came from);  Esc  back to the hotspots;",
	"                  Ctrl-L  repaint the screen",
	"  Up Down j k     move;  PgUp PgDn  page;  Home End g G  first / last",
	"  < > , . F6      hotspots, processes: sort by the previous / next column",
	"  I               hotspots, processes: reverse the sort",
	"  / F4            hotspots: filter functions by name as you type; m:TEXT filters by",
	"                  module path (Enter keeps it, Esc restores the one before; an empty",
	"                  prompt clears it); the header's functions N counts the rows shown",
	"  F3              hotspots: find the next function whose name holds a text; asm view",
	"                  and flame graph: search",
	"  %               hotspots: percent floor, hide functions under a share of every",
	"                  event (0: none; --percent-limit)",
	"  P               hotspots: write the table shown to cyctop.hist.N in the working",
	"                  directory (as perf top's P); the status line names the file",
	"  m               hotspots: zoom into the selected function's module (again: all)",
	"  H               hotspots: pick a thread and zoom into it (again or Esc: all threads)",
	"  Enter           hotspots: the selected function's asm view",
	"  c               hotspots: the selected function's callers and callees (needs -g);",
	"                  -a processes: a row per cgroup (its unit or container id; again or",
	"                  Esc: per process); Enter: that cgroup's processes (filtered by it)",
	"  C               hotspots: the children column (samples whose stack holds the function)",
	"  f               hotspots: the flame graph of the call stacks (needs -g)",
	"  Enter f Esc     -a: a process's functions (Enter), every process's (f; in a",
	"                  process's functions without -g too), the processes again (Esc);",
	"                  < > / sort and filter the processes",
	"  space           pause / resume refreshing (collection goes on)",
	"  w               hotspots: live window (last interval) / cumulative",
	"  s               hotspots: samples / percent",
	"  D               absolute / delta / delta % against --baseline FILE or B: the hotspots'",
	"                  columns, the tree's delta column, the asm view's source lines",
	"  B               live: mark the profile as the baseline (rates per CPU second)",
	"  d               refresh interval in seconds (0.05 to 3600, as -d)",
	"  t F5            the metric tree; in it, the next tree: the host's first, then its",
	"                  others (topdown on a Skylake), then the first again",
	"  A               tree: pick any tree by name (a letter jumps, Enter shows it)",
	"  Enter + -       tree: fold / unfold the selected node",
	"  i               ILP histogram in the model's unit (uops dispatched, executed, ops",
	"                  retired per cycle): process, selected function; H: a thread",
	"  T               next theme (default, light, mono, high-contrast)",
	"callers view: Right + unfold   Left - fold   Enter unfold, or open that function's callers",
	"              c open the selected function's callers   E unfold all   Esc Backspace q back",
	"flame graph: arrows move   Enter zoom (a leaf: asm)   Backspace u zoom back   / F3 search",
	"             m colour metric (CPI, stalls/cycles, an event per 1000 of the first,",
	"             a tree node's share, the delta against the baseline; legend)",
	"asm view:  H hottest   Tab next hot   / F3 n search, next (empty /: the last search)",
	"           Enter follow a call or jump   Esc Backspace Left back, then to the hotspots",
	"           l source lines   s percent / samples / counts (named in the column row)",
	"           o percent of the function / of the total   columns: stall, penalty, mark",
	"           (stalled: penalty cycles with stalls; hidden: no stalls, hidden by OOO)",
	"",
	"Hotspots: [k] marks a kernel function, [.] a user one (as perf top); the module",
	"column holds the file's name, the line under the table the selected function's",
	"whole path.  When the program ends the view stays on its final profile, the header",
	"saying its status; q leaves (--quit-at-end: cyctop leaves with the program).",
	"Tree: values, units, percent of parent and a bar; '!' marks a flagged value; the",
	"bottleneck path (the largest part from 20% of its parent down) is highlighted;",
	"rows whose events are missing fold into one line naming them (Enter opens it).",
};

#define HELP_LINES ((int)(sizeof(help_lines) / sizeof(help_lines[0])))

/* The help wrapped to the screen's width: a line too long goes on under
 * its description column (a key line's) or its first words, cut between
 * words, never in one.  Narrower than the text is laid out for, a key's
 * description and a paragraph of prose are joined first and wrapped as
 * one (not each line on its own, which left a word or two a line). */
#define HELP_ROWS_MAX 256
#define HELP_TEXT_MAX 8192
#define HELP_KEY_COL 18  /* where a key line's description starts */

struct help_row {
	short indent;
	int off, len;  /* in struct help_view's text */
};

/* The help's state: its scroll, the view it was opened from (Esc goes back
 * there, as F1 and Esc do in htop), and the text laid out for the width
 * last drawn. */
struct help_view {
	struct browser b;  /* first: hp() */
	enum view_id from;
	char text[HELP_TEXT_MAX];
	struct help_row rows[HELP_ROWS_MAX];
};

/* Where a wrapped line of S goes on: a key line's description column; a
 * view's line of keys ("asm view:  H hottest", "           Enter follow")
 * under its keys; 2 on a narrow screen. */
static int help_indent(const char *s, int cols)
{
	int lead = (int)strspn(s, " "), in = lead;

	if (lead == 2)
		in = HELP_KEY_COL;
	else if (lead == 0 && strcspn(s, ":") < 16)
		in = (int)strcspn(s, ":") + 1 + (int)strspn(s + strcspn(s, ":") + 1, " ");
	else if (lead == 0)
		in = 4;
	return in * 3 > cols ? 2 : in;
}

/* Whether help line NEXT goes on from PREV: a key's description carried
 * to the next line, or a sentence of the prose at the end. */
static bool help_continues(const char *prev, const char *next)
{
	bool key = prev[0] == ' ' && prev[1] == ' ' && prev[2] != ' ';
	bool key_cont = strspn(prev, " ") == HELP_KEY_COL;
	size_t n = strlen(prev);

	size_t lead = strspn(prev, " ");

	if (strspn(next, " ") == HELP_KEY_COL && next[HELP_KEY_COL])
		return key || key_cont;
	if (lead > 2 && lead != HELP_KEY_COL && strspn(next, " ") == lead)
		return prev[n - 1] == ',';  /* a view's key described on two lines */
	return prev[0] && prev[0] != ' ' && next[0] && next[0] != ' ' && prev[n - 1] != '.';
}

static int help_width(void)
{
	int w = 0;

	for (int l = 1; l < HELP_LINES; l++)
		if ((int)strlen(help_lines[l]) > w)
			w = (int)strlen(help_lines[l]);
	return w;
}

/* Help line L, and when JOIN the lines that go on from it, into TEXT at
 * OFF (NUL-terminated, cut at the buffer's end); the index of the last
 * line taken. */
static int help_paragraph(struct help_view *h, int l, bool join, int off)
{
	size_t room = HELP_TEXT_MAX - (size_t)off;
	size_t n = (size_t)snprintf(h->text + off, room, "%s", help_lines[l]);

	while (join && l + 1 < HELP_LINES && help_continues(help_lines[l], help_lines[l + 1])) {
		l++;
		if (n < room)
			n += (size_t)snprintf(h->text + off + n, room - n, " %s",
					      help_lines[l] + strspn(help_lines[l], " "));
	}
	return l;
}

static int wrap_help(struct help_view *h, int cols)
{
	bool join = cols < help_width();
	int n = 0, len = 0;

	for (int l = 1; l < HELP_LINES && n < HELP_ROWS_MAX && len < HELP_TEXT_MAX - 1; l++) {
		int start = len;
		int last = help_paragraph(h, l, join, len);
		const char *s = h->text + start;
		int off = 0, indent = 0;

		len += (int)strlen(s) + 1;
		do {
			size_t cut = ui_wrap_len(s + off, cols - indent);
			h->rows[n++] = (struct help_row){ (short)indent, start + off, (int)cut };
			off += (int)cut;
			while (s[off] == ' ')
				off++;
			indent = s[0] != ' ' && last > l ? 0 : help_indent(s, cols);  /* prose: flush left */
		} while (s[off] && n < HELP_ROWS_MAX);
		l = last;
	}
	return n;
}

static void write_help_line(void *ctx, int row, int y, bool selected)
{
	const struct help_view *h = ctx;
	const struct help_row *r = &h->rows[row];
	char text[512];

	(void)selected;  /* a text scrolls: no line is highlighted */
	snprintf(text, sizeof(text), "%*s%.*s", r->indent, "", r->len, h->text + r->off);
	ui_text(y, 0, COLS, text, true);
}

static struct browser *hp(const struct tui *t)
{
	return tui_view_data(t, VIEW_HELP);
}

static bool open_help(struct tui *t, const char *name, const char *module)
{
	struct help_view *h = tui_view_data(t, VIEW_HELP);

	(void)name, (void)module;
	if (t->view != VIEW_HELP)
		h->from = t->view;
	return true;
}

static void draw_help(struct tui *t, int y, int rows)
{
	char line[PATH_MAX + 64];
	struct help_view *h = tui_view_data(t, VIEW_HELP);

	ui_set(EL_HEADER_VALUE);
	ui_text(y++, 0, COLS, help_lines[0], true);
	ui_set(EL_DEFAULT);
	/* where the launched command's output went: under the title, so that a
	 * short terminal still shows it above the keys */
	if (t->child_log && y < rows) {
		snprintf(line, sizeof(line), "The command's output (stdout, stderr): %s", t->child_log);
		ui_text(y++, 0, COLS, line, true);
	}
	h->b.nr = wrap_help(h, COLS);
	if (y < rows)
		browser_draw(&h->b, y, rows, write_help_line, h);
}

/* The browser moves a selection and scrolls to keep it shown: put it on
 * the edge the key moves past, so that every key scrolls the text. */
static bool key_help(struct tui *t, int key)
{
	struct browser *b = hp(t);

	if (key == 27) {  /* back where the help was asked for, not home */
		tui_switch_view(t, ((struct help_view *)b)->from);
		return true;
	}

	if (key == KEY_DOWN || key == 'j' || key == KEY_NPAGE)
		b->sel = b->top + b->height - 1;
	else if (key == KEY_UP || key == 'k' || key == KEY_PPAGE)
		b->sel = b->top;
	return browser_key(b, key);
}

static void *init_help(struct tui *t, const struct tui_opts *o)
{
	(void)t;
	(void)o;
	return calloc(1, sizeof(struct help_view));
}

const struct view_ops view_help = {
	.name = "help",
	.hints = "Up Down PgUp PgDn Home End scroll  Esc back  q quit",
	.init = init_help,
	.free = free,
	.open = open_help,
	.draw = draw_help,
	.key = key_help,
};
