#include "tui/ui.h"

#include <curses.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "tui/format.h"

static bool active;
static SCREEN *screen;
static FILE *tty;
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
	if (!(tty = ui_open_tty()))
		return -1;
	/* the view draws on the terminal itself, so that stdout can be a file
	 * (cyctop -- CMD > out.txt) that receives the final table */
	if (!(screen = newterm(NULL, tty, tty))) {
		fclose(tty);
		tty = NULL;
		return -1;
	}
	set_term(screen);
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
	delscreen(screen);
	screen = NULL;
	fclose(tty);
	tty = NULL;
}

int ui_input_fd(void)
{
	return tty ? fileno(tty) : -1;
}

FILE *ui_open_tty(void)
{
	int fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
	FILE *f = fd >= 0 ? fdopen(fd, "r+") : NULL;

	if (fd >= 0 && !f)
		close(fd);
	return f;
}

bool ui_have_tty(void)
{
	FILE *f = ui_open_tty();

	if (f)
		fclose(f);
	return f != NULL;
}

static bool is_cont(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

void ui_set(enum theme_el el)
{
	attrset(el_attr[el]);
}

/* Text already escaped (UTF-8, one column a character): at most LEN bytes. */
static void put_escaped(int y, int x, int w, const char *s, size_t len, bool pad)
{
	int n = 0;

	if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
		return;
	if (x + w > COLS)
		w = COLS - x;
	move(y, x);
	for (size_t i = 0; i < len && s[i] && (n < w || is_cont(s[i])); i++) {
		n += !is_cont(s[i]);
		addch((chtype)(unsigned char)s[i]);
	}
	while (pad && n++ < w)
		addch(' ');
}

void ui_text(int y, int x, int w, const char *s, bool pad)
{
	char esc[2048];

	/* the same escapes as the text outputs: a name never drives the terminal */
	put_escaped(y, x, w, fmt_escape(esc, sizeof(esc), s), sizeof(esc), pad);
}

/* The byte length of the next line of S in W columns: whole words when a
 * space allows, else W characters. */
size_t ui_wrap_len(const char *s, int w)
{
	size_t i = 0, cut = 0;
	int n = 0;

	while (s[i]) {
		if (!is_cont(s[i]) && n++ == w)
			return cut ? cut : i;
		if (s[i] == ' ')
			cut = i;
		i++;
	}
	return i;
}

int ui_wrapped(int bottom, const char *s, int max_lines)
{
	char esc[2048];
	const char *line[8];
	size_t len[8];
	int n = 0;

	if (max_lines > 8)
		max_lines = 8;
	for (s = fmt_escape(esc, sizeof(esc), s); *s && n < max_lines; n++) {
		len[n] = ui_wrap_len(s, COLS);
		line[n] = s;
		s += len[n];
		while (*s == ' ')
			s++;
	}
	for (int k = 0; k < n; k++)
		put_escaped(bottom - n + 1 + k, 0, COLS, line[k], len[k], true);
	return n;
}

/* The columns of the first LEN bytes of escaped text E. */
static int text_cols_n(const char *e, size_t len)
{
	int n = 0;

	for (size_t i = 0; i < len && e[i]; i++)
		n += !is_cont(e[i]);
	return n;
}

/* The columns of S once escaped (one a character). */
static int text_cols(const char *s)
{
	char esc[2048];
	int n = 0;

	for (s = fmt_escape(esc, sizeof(esc), s); *s; s++)
		n += !is_cont(*s);
	return n;
}

void ui_header(int y, const char *s)
{
	char esc[2048];
	const char *e = fmt_escape(esc, sizeof(esc), s);
	size_t keep = 0, i;
	int n = 0;

	if (COLS < 2 || text_cols(s) <= COLS) {
		put_escaped(y, 0, COLS, e, sizeof(esc), true);
		return;
	}
	/* the last field's end (two spaces follow it) before the mark's column */
	for (i = 0; e[i] && (is_cont(e[i]) || ++n < COLS); i++)
		if (e[i] == ' ' && e[i + 1] == ' ' && i > 0 && e[i - 1] != ' ')
			keep = i;
	put_escaped(y, 0, COLS, e, keep ? keep : i, true);
	put_escaped(y, keep ? (int)text_cols_n(e, keep) + 1 : COLS - 1, 1, utf8 ? "\u2026" : "~",
		    4, false);
}

void ui_cell(int y, int x, int w, const char *s)
{
	if (w < 2) {
		ui_text(y, x, w, "", true);
		return;
	}
	if (text_cols(s) <= w - 1) {
		ui_text(y, x, w, s, true);
		return;
	}
	ui_text(y, x, w - 2, s, true);
	ui_text(y, x + w - 2, 2, utf8 ? "\u2026 " : "~ ", true);
}

void ui_path(int y, int x, int w, const char *path)
{
	const char *base = strrchr(path, '/');

	if (text_cols(path) <= w - 1 || !base || !base[1])
		ui_cell(y, x, w, path);
	else
		ui_cell(y, x, w, base + 1);
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
