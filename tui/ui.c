#include "tui/ui.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "tui/format.h"

static bool active;
static bool utf8;
static attr_t el_attr[EL_COUNT];
static volatile sig_atomic_t pending;

static void on_signal(int sig)
{
	pending = sig;
}

void ui_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int ui_pending_signal(void)
{
	return pending;
}

bool ui_utf8(void)
{
	return utf8;
}

void ui_apply_theme(const struct theme *t)
{
	bool colour = has_colors();

	for (int i = 0; i < EL_COUNT; i++) {
		const struct theme_spec *sp = &t->el[i];
		attr_t a = A_NORMAL;
		if (sp->attrs & THEME_BOLD)
			a |= A_BOLD;
		if (sp->attrs & THEME_UNDERLINE)
			a |= A_UNDERLINE;
		if (sp->attrs & THEME_REVERSE)
			a |= A_REVERSE;
		if (sp->attrs & THEME_DIM)
			a |= A_DIM;
		if (colour && (sp->fg >= 0 || sp->bg >= 0) && sp->fg < COLORS && sp->bg < COLORS) {
			init_pair((short)(i + 1), sp->fg, sp->bg);
			a |= COLOR_PAIR(i + 1);
		} else if (!colour && (i == EL_SELECTED || i == EL_COLUMN || i == EL_STATUS)) {
			a |= A_REVERSE; /* a selection must show on a mono terminal too */
		}
		el_attr[i] = a;
	}
}

int ui_open(const struct theme *t)
{
	setlocale(LC_ALL, "");
	utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return -1;
	if (!initscr())
		return -1;
	active = true;
	atexit(ui_close);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	if (has_colors()) {
		start_color();
		use_default_colors();
	}
	ui_apply_theme(t);
	return 0;
}

void ui_close(void)
{
	if (!active)
		return;
	active = false;
	curs_set(1);
	endwin();
}

void ui_set(enum theme_el el)
{
	attrset(el_attr[el]);
}

void ui_text(int y, int x, int w, const char *s, bool pad)
{
	char esc[2048];
	int n = 0;

	if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
		return;
	if (x + w > COLS)
		w = COLS - x;
	move(y, x);
	/* the same escapes as the text outputs: a name never drives the terminal */
	for (s = fmt_escape(esc, sizeof(esc), s); *s && n < w; s++, n++)
		addch((chtype)(unsigned char)*s);
	while (pad && n++ < w)
		addch(' ');
}

void ui_bar(int y, int x, int w, double fraction)
{
	static const wchar_t *const eighths[] = { L"", L"\u258f", L"\u258e", L"\u258d",
						  L"\u258c", L"\u258b", L"\u258a", L"\u2589" };
	if (fraction < 0)
		fraction = 0;
	if (fraction > 1)
		fraction = 1;
	if (x + w > COLS)
		w = COLS - x;
	if (w <= 0)
		return;
	int units = (int)(fraction * w * 8 + 0.5), full = units / 8;
	move(y, x);
	for (int i = 0; i < full; i++) {
		if (utf8)
			addwstr(L"\u2588");
		else
			addch('#');
	}
	if (full < w && units % 8) {
		if (utf8)
			addwstr(eighths[units % 8]);
		else if (units % 8 >= 4)
			addch('#');
	}
}
