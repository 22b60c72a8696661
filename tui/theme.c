#include "tui/theme.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "arch/lines.h"
#include "engine/counts-file.h"

const char *const theme_names[] = { "default", "light", "mono", "high-contrast", NULL };

static const char *const el_names[EL_COUNT] = {
	"default", "header", "header_value", "column", "selected", "hot", "warm", "bar",
	"bottleneck", "warning", "missing", "status", "flame0", "flame1", "flame2", "flame3",
	"flame4", "flame5",
};

const char *theme_element_name(enum theme_el el)
{
	return el < EL_COUNT ? el_names[el] : "?";
}

/* curses colour numbers: 0 black 1 red 2 green 3 yellow 4 blue 5 magenta
 * 6 cyan 7 white; +8 bright. */
static const char *const colours[] = { "black", "red", "green", "yellow", "blue", "magenta",
				      "cyan", "white" };

void theme_default(struct theme *t)
{
	static const struct theme_spec def[EL_COUNT] = {
		[EL_DEFAULT] = { -1, -1, 0 },
		[EL_HEADER] = { 6, -1, 0 },
		[EL_HEADER_VALUE] = { 6, -1, THEME_BOLD },
		[EL_COLUMN] = { 0, 2, 0 },
		[EL_SELECTED] = { 0, 6, 0 },
		[EL_HOT] = { 1, -1, THEME_BOLD },
		[EL_WARM] = { 3, -1, 0 },
		[EL_BAR] = { 2, -1, 0 },
		[EL_BOTTLENECK] = { 1, -1, THEME_BOLD },
		[EL_WARNING] = { 3, -1, THEME_BOLD },
		[EL_MISSING] = { 4, -1, THEME_BOLD },
		[EL_STATUS] = { 0, 6, 0 },
		/* cool to hot: blue, cyan, green, yellow, magenta, red */
		[EL_FLAME0] = { 0, 4, 0 },
		[EL_FLAME1] = { 0, 6, 0 },
		[EL_FLAME2] = { 0, 2, 0 },
		[EL_FLAME3] = { 0, 3, 0 },
		[EL_FLAME4] = { 0, 5, 0 },
		[EL_FLAME5] = { 7, 1, THEME_BOLD },
	};
	snprintf(t->name, sizeof(t->name), "default");
	memcpy(t->el, def, sizeof(def));
}

static int parse_colour(const char *s, short *out)
{
	int bright = 0;

	if (strcmp(s, "default") == 0) {
		*out = -1;
		return 0;
	}
	if (strncmp(s, "bright-", 7) == 0) {
		bright = 8;
		s += 7;
	}
	for (int i = 0; i < 8; i++)
		if (strcmp(s, colours[i]) == 0) {
			*out = (short)(i + bright);
			return 0;
		}
	return -1;
}

static int parse_attr(const char *s, unsigned *attrs)
{
	static const struct { const char *name; unsigned bit; } tab[] = {
		{ "bold", THEME_BOLD }, { "underline", THEME_UNDERLINE },
		{ "reverse", THEME_REVERSE }, { "dim", THEME_DIM }, { "normal", 0 },
	};
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (strcmp(s, tab[i].name) == 0) {
			*attrs |= tab[i].bit;
			return 0;
		}
	return -1;
}

/* ELEMENT = FG BG [ATTR...] */
static int parse_line(struct theme *t, char *line, const char *fname, int ln, char *err,
		      size_t errsz)
{
	char *eq = strchr(line, '=');
	int el = -1;

	if (!eq) {
		snprintf(err, errsz, "%s:%d: expected ELEMENT = FG BG [ATTRIBUTES]", fname, ln);
		return -1;
	}
	*eq = '\0';
	char *name = lines_trim(line);
	for (int i = 0; i < EL_COUNT; i++)
		if (strcmp(name, el_names[i]) == 0)
			el = i;
	if (el < 0) {
		snprintf(err, errsz, "%s:%d: unknown element '%.40s'", fname, ln, name);
		return -1;
	}
	struct theme_spec sp = { -1, -1, 0 };
	int k = 0;
	char *save = NULL;
	for (char *w = strtok_r(eq + 1, " \t", &save); w; w = strtok_r(NULL, " \t", &save), k++) {
		int bad = k == 0 ? parse_colour(w, &sp.fg)
			: k == 1 ? parse_colour(w, &sp.bg) : parse_attr(w, &sp.attrs);
		if (bad) {
			snprintf(err, errsz, "%s:%d: unknown %s '%.40s'", fname, ln,
				 k < 2 ? "colour" : "attribute", w);
			return -1;
		}
	}
	if (k < 2) {
		snprintf(err, errsz, "%s:%d: %s needs a foreground and a background colour",
			 fname, ln, name);
		return -1;
	}
	t->el[el] = sp;
	return 0;
}

int theme_parse(struct theme *t, const char *buf, size_t len, const char *fname, char *err,
		size_t errsz)
{
	char line[256];
	struct line_reader lr;

	lines_init(&lr, buf, len);
	while (lines_next(&lr, line, sizeof(line), true)) {
		if (lr.too_long) {
			snprintf(err, errsz, "%s:%d: line too long", fname, lr.number);
			return -1;
		}
		char *s = lines_trim(line);
		if (*s && parse_line(t, s, fname, lr.number, err, errsz) < 0)
			return -1;
	}
	return 0;
}

static int try_dir(char *path, size_t sz, const char *dir, const char *sub, const char *name)
{
	if (!dir || !*dir)
		return -1;
	snprintf(path, sz, "%s%s/%s.theme", dir, sub, name);
	return access(path, R_OK);
}

/* The source tree's themes when this cyctop is the one in its build tree
 * (build/cyctop after the README's quick start), else NULL: an installed
 * cyctop never reads a build tree. */
static const char *build_tree_themes(void)
{
	char self[PATH_MAX], build[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0 || !realpath(BUILDDIR, build))
		return NULL;
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return strcmp(self, build) == 0 ? SRCTHEMESDIR : NULL;
}

static int find_theme(const char *name, char *path, size_t sz)
{
	char home[512];
	const char *h = getenv("HOME");

	if (strchr(name, '/')) {
		snprintf(path, sz, "%s", name);
		return 0;
	}
	snprintf(home, sizeof(home), "%s/.config", h ? h : "");
	if (try_dir(path, sz, getenv("XDG_CONFIG_HOME"), "/cyctop/themes", name) == 0 ||
	    (h && try_dir(path, sz, home, "/cyctop/themes", name) == 0) ||
	    try_dir(path, sz, getenv("CYCTOP_THEMES"), "", name) == 0 ||
	    try_dir(path, sz, THEMESDIR, "", name) == 0 ||
	    try_dir(path, sz, build_tree_themes(), "", name) == 0)
		return 0;
	return -1;
}

int theme_load(struct theme *t, const char *name, char *err, size_t errsz)
{
	char path[1024];
	size_t len;

	theme_default(t);
	if (!name || strcmp(name, "default") == 0)
		return 0;
	if (find_theme(name, path, sizeof(path)) < 0) {
		snprintf(err, errsz, "theme '%s' not found (searched $XDG_CONFIG_HOME/cyctop/themes, "
			 "~/.config/cyctop/themes, $CYCTOP_THEMES, %s%s%s)", name, THEMESDIR,
			 build_tree_themes() ? ", " : "",
			 build_tree_themes() ? build_tree_themes() : "");
		return -1;
	}
	char *buf = file_slurp(path, &len, err, errsz);
	if (!buf)
		return -1;
	int rc = theme_parse(t, buf, len, path, err, errsz);
	free(buf);
	if (rc < 0) {
		theme_default(t);
		return -1;
	}
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	snprintf(t->name, sizeof(t->name), "%.*s", (int)strcspn(base, "."), base);
	return 0;
}
