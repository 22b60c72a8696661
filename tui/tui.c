/* The interactive loop: keys, refreshes, prompts; the views draw. */
#include "config.h"

#include <curses.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/counts-file.h"
#include "tui/cmd.h"
#include "tui/format.h"
#include "tui/top.h"
#include "tui/tui.h"
#include "tui/ui.h"
#include "tui/views.h"

/* The views, by id: tui.c calls a view through this table alone. */
static const struct view_ops *const views[VIEW_COUNT] = {
	[VIEW_HOTSPOTS] = &view_hotspots, [VIEW_PROCS] = &view_procs,
	[VIEW_TREE] = &view_tree, [VIEW_ILP] = &view_ilp, [VIEW_HELP] = &view_help,
	[VIEW_ASM] = &view_asm, [VIEW_CALLERS] = &view_callers, [VIEW_FLAME] = &view_flame,
};

void *tui_view_data(const struct tui *t, enum view_id id)
{
	return t->data[id];
}

/* The views' state, each made by its init: -1 when out of memory. */
static int init_views(struct tui *t, const struct tui_opts *o)
{
	for (int v = 0; v < VIEW_COUNT; v++)
		if (views[v]->init && !(t->data[v] = views[v]->init(t, o)))
			return -1;
	return 0;
}

static void free_views(struct tui *t)
{
	for (int v = 0; v < VIEW_COUNT; v++) {
		if (views[v]->free && t->data[v])
			views[v]->free(t->data[v]);
		t->data[v] = NULL;
	}
}

const struct arch_model *tui_tree_model(const struct tui *t, enum arch_tree tree)
{
	/* the wall tree carries the model's own under wall.on_cpu */
	if (tree_fits_model(tree, t->model) || (tree == TREE_WALL && t->model))
		return t->model;
	return tree_default_model(tree_def_pick(tree, NULL, &t->counts));
}

/* perf's #SMT_on for live counts: /sys/devices/system/cpu/smt/active (the
 * file perf reads, tools/perf/util/smt.c); counts files and recordings may
 * come from another machine, so they count as SMT off. */
static bool tree_smt(const struct tui *t)
{
	FILE *f;
	int on = 0;

	if (!t->sess || session_is_recorded(t->sess))
		return false;
	f = fopen("/sys/devices/system/cpu/smt/active", "r");
	if (!f)
		return false;
	if (fscanf(f, "%d", &on) != 1)
		on = 0;
	fclose(f);
	return on == 1;
}

/* Why an input is missing: this host cannot count it, or it was not collected. */
const char *tui_missing_reason(const struct tui *t, const char *event)
{
	if (!t->sess)
		return "not in the counts files";
	if (session_is_recorded(t->sess))
		return "not in the recorded session";
	/* a tree input may name alternatives: EVENT|EVENT... */
	char one[COUNT_NAME_MAX];
	for (const char *p = event; p && *p;) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);
		snprintf(one, sizeof(one), "%.*s", (int)len, p);
		if (t->model && model_lookup(t->model, one))
			return "not collected: add it with -e";
		p = bar ? bar + 1 : NULL;
	}
	return "not on this host's PMU";
}

/* Live: the tree reads the counting-mode totals of the snapshot's events. */
static void counts_from_snapshot(struct tui *t)
{
	counts_free(&t->counts);
	baseline_snapshot_counts(t->snap, &t->counts);
}

void tui_eval_tree_counts(const struct tui *t, const struct counts *c, struct tree_result *out)
{
	struct tree_ctx ctx = { .model = tui_tree_model(t, t->tree_id), .pen = &t->pen,
				.clock_hz = t->clock_hz, .smt = tree_smt(t) };

	tree_eval(tree_def_pick(t->tree_id, ctx.model, &t->counts), c, &ctx, out);
}

void tui_eval_tree(struct tui *t)
{
	tui_eval_tree_counts(t, &t->counts, &t->tres);
}

void tui_set_snapshot(struct tui *t, struct snapshot *s)
{
	snapshot_free(t->snap);
	t->snap = s;
	/* The new snapshot may reuse the freed address: the views rebuild
	 * what they built from the old one by its number. */
	t->snap_gen++;
	counts_from_snapshot(t);
	tui_eval_tree(t);
}

/* A thread or process filter changed: the views start over (their
 * selection names functions of another target). */
static void zoomed(struct tui *t)
{
	struct snapshot *s = session_snapshot(t->sess);

	if (s)
		tui_set_snapshot(t, s);
	for (int v = 0; v < VIEW_COUNT; v++)
		if (views[v]->zoomed)
			views[v]->zoomed(t);
}

void tui_zoom_thread(struct tui *t, uint32_t tid)
{
	session_set_thread_filter(t->sess, tid);
	zoomed(t);
}

void tui_zoom_process(struct tui *t, int64_t pid)
{
	if (!t->sess)
		return;
	session_set_thread_filter(t->sess, 0);
	session_set_process_filter(t->sess, pid);
	zoomed(t);
}

enum view_id tui_home(const struct tui *t)
{
	if (!t->sess)   /* counts files have no functions: their tree is home */
		return VIEW_TREE;
	return t->snap && t->snap->system_wide && t->snap->process < 0 ? VIEW_PROCS
								      : VIEW_HOTSPOTS;
}

const struct snap_func *tui_hot_selected(struct tui *t)
{
	return views[VIEW_HOTSPOTS]->selected(t);
}

static void take_snapshot(struct tui *t)
{
	struct snapshot *s = session_snapshot(t->sess);

	if (s)
		tui_set_snapshot(t, s);
}

static const char *const prompt_label[] = {
	[PROMPT_FILTER] = "filter:", [PROMPT_DELAY] = "delay (s):", [PROMPT_SEARCH] = "search:",
	[PROMPT_FLAME] = "search frames:", [PROMPT_FIND] = "find function:",
	[PROMPT_FLOOR] = "percent floor:",
};

/* What the prompt's text matches, after it. */
static const char *prompt_tail(const struct tui *t)
{
	if (t->prompt == PROMPT_FILTER && t->view == VIEW_PROCS)
		return "   (a command, user or pid)";
	if (t->prompt == PROMPT_FILTER)
		return "   (function names; m:TEXT module paths)";
	if (t->prompt == PROMPT_FLOOR)
		return "   (hide functions under this share, 0: none)";
	return "";
}

/* The launched command's output goes to a file: the status line's right
 * end names it when the key hints leave room (never over a prompt or a
 * message); the command's first output says it in a message too. */
static void draw_child_log(const struct tui *t, size_t used)
{
	char right[PATH_MAX + 16];

	if (!t->child_log)
		return;
	int n = snprintf(right, sizeof(right), "  output: %s", t->child_log);
	if (n > 0 && (size_t)n + used <= (size_t)COLS)
		ui_text(LINES - 1, COLS - n, n, right, true);
}

/* Once the command has written something: where it went. */
static void say_child_log(struct tui *t)
{
	struct stat st;

	if (!t->child_log || t->child_log_said || t->message[0] ||
	    stat(t->child_log, &st) < 0 || st.st_size == 0)
		return;
	t->child_log_said = true;
	snprintf(t->message, sizeof(t->message), "the command's output goes to %s "
		 "(--child-output FILE, null or tty)", t->child_log);
}

bool tui_refreshes(const struct tui *t)
{
	return t->sess && !session_is_recorded(t->sess) && !t->end.ended;
}

bool tui_has_window(const struct tui *t)
{
	return t->sess && !session_is_recorded(t->sess);
}

void tui_toggle_window(struct tui *t)
{
	if (tui_has_window(t))
		t->window = !t->window;
	else
		snprintf(t->message, sizeof(t->message), "w: a recording or counts file has no "
			 "live window (the last interval): it is shown whole");
}

/* A hint that does nothing here is not offered: a recording or counts file
 * has no refresh to pause and no live window, an ended program none to
 * pause. */
static bool hint_applies(const struct tui *t, const char *item, size_t len)
{
	if (len == 11 && strncmp(item, "space pause", len) == 0)
		return tui_refreshes(t);
	if (len == 8 && strncmp(item, "w window", len) == 0)
		return tui_has_window(t);
	if (len == 12 && strncmp(item, "Esc hotspots", len) == 0)
		return t->sess != NULL;   /* counts files have a tree, no hotspots */
	return true;
}

/* The hints of TEXT (items two spaces apart, the most important first)
 * that fit in W columns, whole: an item that does not fit ends the line,
 * never cut in its middle. */
static void fit_hints(const struct tui *t, const char *text, int w, char *out, size_t sz)
{
	size_t used = 0;

	out[0] = '\0';
	for (const char *p = text; *p;) {
		const char *sep = strstr(p, "  ");
		size_t len = sep ? (size_t)(sep - p) : strlen(p);
		size_t need = len + (used ? 2 : 0);
		if (len && hint_applies(t, p, len)) {
			if (used + need > (size_t)w || used + need >= sz)
				break;
			snprintf(out + used, sz - used, "%s%.*s", used ? "  " : "", (int)len, p);
			used += need;
		}
		for (p += len; *p == ' '; p++)
			;
	}
}

static void draw_status(struct tui *t)
{
	char line[700], hints[700];

	ui_set(EL_STATUS);
	if (t->prompt != PROMPT_NONE)
		snprintf(line, sizeof(line), "%s %s_%s", prompt_label[t->prompt], t->input,
			 prompt_tail(t));
	else if (t->message[0] && LINES >= 2) {
		/* a message takes the lines it needs, over the view's last rows */
		ui_wrapped(LINES - 1, t->message, LINES / 2 > 4 ? 4 : LINES / 2);
		ui_set(EL_DEFAULT);
		return;
	} else if (t->message[0])
		snprintf(line, sizeof(line), "%s", t->message);
	else {  /* [paused] first: the right end may name the command's output */
		const char *paused = t->paused ? "[paused]  " : "";
		const struct view_ops *ops = views[t->view];
		const char *text = ops->status ? ops->status(t) : NULL;
		fit_hints(t, text ? text : ops->hints, COLS - (int)strlen(paused), hints,
			  sizeof(hints));
		snprintf(line, sizeof(line), "%s%s", paused, hints);
	}
	ui_text(LINES - 1, 0, COLS, line, true);
	if (t->prompt == PROMPT_NONE)
		draw_child_log(t, strlen(line));
	ui_set(EL_DEFAULT);
}

static void draw(struct tui *t)
{
	erase();
	if (LINES >= 2 && COLS >= 10)
		views[t->view]->draw(t, 0, LINES - 1);
	if (LINES >= 1)
		draw_status(t);
	refresh();
}

void tui_prompt(struct tui *t, enum prompt p)
{
	t->prompt = p;
	t->input[0] = '\0';
	if (p == PROMPT_FILTER)
		memcpy(t->filter_before, t->filter, sizeof(t->filter));
}

/* The filter and the delay are shared; the view that opened any other
 * prompt takes its text. */
static void finish_prompt(struct tui *t)
{
	enum prompt p = t->prompt;

	t->prompt = PROMPT_NONE;
	if (p == PROMPT_FILTER) {
		snprintf(t->filter, sizeof(t->filter), "%s", t->input);
	} else if (p == PROMPT_DELAY) {
		if (cmd_parse_delay(t->input, &t->delay) < 0)
			snprintf(t->message, sizeof(t->message), "delay '%s' ignored: " DELAY_RANGE_TEXT,
				 t->input);
	} else if (views[t->view]->prompt) {
		views[t->view]->prompt(t, p, t->input);
	}
}

static void prompt_key(struct tui *t, int key)
{
	size_t n = strlen(t->input);

	if (key == 27) {  /* the filter as it was before the prompt */
		if (t->prompt == PROMPT_FILTER)
			memcpy(t->filter, t->filter_before, sizeof(t->filter));
		t->prompt = PROMPT_NONE;
		return;
	} else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
		finish_prompt(t);
	} else if (key == 21) { /* Ctrl-U, as in a shell */
		t->input[0] = '\0';
	} else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		if (n)
			t->input[n - 1] = '\0';
	} else if (key >= 32 && key < 127 && n + 1 < sizeof(t->input)) {
		t->input[n] = (char)key;
		t->input[n + 1] = '\0';
	}
	/* the filter narrows as it is typed (htop's F4) */
	if (t->prompt == PROMPT_FILTER)
		snprintf(t->filter, sizeof(t->filter), "%s", t->input);
}

static void cycle_theme(struct tui *t)
{
	char err[512];

	t->theme_idx = theme_names[t->theme_idx + 1] ? t->theme_idx + 1 : 0;
	if (theme_load(&t->theme, theme_names[t->theme_idx], err, sizeof(err)) < 0)
		snprintf(t->message, sizeof(t->message), "%s", err);
	else
		snprintf(t->message, sizeof(t->message), "theme %s", t->theme.name);
	ui_apply_theme(&t->theme);
}

void tui_switch_view(struct tui *t, enum view_id v)
{
	/* the help comes and goes without changing where Esc leads (it keeps
	 * its own way back) */
	if (t->view != v && v != VIEW_HELP && t->view != VIEW_HELP)
		t->prev = t->view;
	t->view = v;
}

bool tui_open_view(struct tui *t, enum view_id v, const char *name, const char *module)
{
	if (views[v]->open && !views[v]->open(t, name, module))
		return false;
	tui_switch_view(t, v);
	return true;
}

/* Keys every view shares; a view's own keys come first. */
static void global_key(struct tui *t, int key)
{
	if (views[t->view]->key(t, key))
		return;
	switch (key) {
	case 'q': t->quit = true; break;
	case 27: tui_switch_view(t, tui_home(t)); break;
	case '?': case 'h': case KEY_F(1): tui_open_view(t, VIEW_HELP, NULL, NULL); break;
	case 't': case KEY_F(5): tui_switch_view(t, VIEW_TREE); break;
	case 'i': tui_switch_view(t, VIEW_ILP); break;
	case 'T': cycle_theme(t); break;
	case ' ':
		if (tui_refreshes(t))
			t->paused = !t->paused;
		else
			snprintf(t->message, sizeof(t->message), "%s: nothing to pause",
				 t->end.ended ? "the program has ended"
					      : "a recording or counts file does not refresh");
		break;
	case 'd':
		if (t->sess)
			tui_prompt(t, PROMPT_DELAY);
		break;
	case 12: clearok(curscr, TRUE); break;  /* Ctrl-L: repaint the whole screen */
	case KEY_RESIZE: break;
	default: break;
	}
}

static void handle_key(struct tui *t, int key)
{
	if (key != ERR && key != KEY_RESIZE)
		t->message[0] = '\0';
	if (key == KEY_F(10) && t->prompt == PROMPT_NONE)
		t->quit = true;   /* htop's F10, from every view */
	else if (t->prompt != PROMPT_NONE)
		prompt_key(t, key);
	else
		global_key(t, key);
}

static int open_files(struct tui *t, const struct tui_opts *o)
{
	char err[512];

	if (counts_load_files(&t->counts, o->files, o->nfiles, err, sizeof(err)) < 0) {
		cmd_error("%s", err);
		return -1;
	}
	snprintf(t->source, sizeof(t->source), "%s%s", o->files[0], o->nfiles > 1 ? " ..." : "");
	/* the file's model: its best tree's, also under -A (the tree view
	 * names that model's variant or says it has none) */
	enum arch_tree asked = t->tree_id, best_tree = TREE_SW;
	int best = -1;
	for (int tr = 0; tr < TREE_COUNT; tr++) {
		t->tree_id = (enum arch_tree)tr;
		if (!tree_def_get(t->tree_id))
			continue;
		tui_eval_tree(t);
		if (tree_inputs_present(&t->tres) > best) {
			best = tree_inputs_present(&t->tres);
			best_tree = t->tree_id;
		}
	}
	t->tree_id = asked == TREE_NONE ? best_tree : asked;
	t->model = tui_tree_model(t, best_tree);
	tui_eval_tree(t);
	return 0;
}

static void init_state(struct tui *t, const struct tui_opts *o)
{
	char err[512];

	memset(t, 0, sizeof(*t));
	counts_init(&t->counts);
	t->sess = o->sess;
	t->child_log = o->child_log;
	t->delay = o->delay > 0 ? o->delay : 1.0;
	if (!getcwd(t->cwd, sizeof(t->cwd)))
		t->cwd[0] = '\0';
	t->tree_id = o->tree;
	t->view = t->prev = !o->sess ? VIEW_TREE
			    : session_is_system_wide(o->sess) ? VIEW_PROCS : VIEW_HOTSPOTS;
	penalties_default(&t->pen, 0);
	if (theme_load(&t->theme, o->theme, err, sizeof(err)) < 0) {
		cmd_error("%s (using the default theme)", err);
		snprintf(t->message, sizeof(t->message), "%s (using the default theme)", err);
	}
	for (int i = 0; theme_names[i]; i++)
		if (strcmp(theme_names[i], t->theme.name) == 0)
			t->theme_idx = i;
}

/* How long the loop may wait in session_poll: until the next snapshot
 * is due, at most a second.  A key ends the wait at once (session_wake_on),
 * as do the rings' watermarks and a multiplexing rotation. */
static int data_wait_ms(const struct tui *t, double next)
{
	double left = t->paused ? 1.0 : next - cmd_now_s();

	return left <= 0 ? 0 : left >= 1.0 ? 1000 : (int)(left * 1000) + 1;
}

/* Every key waiting, or the first within WAIT_MS; true if any came. */
static bool take_keys(struct tui *t, int wait_ms)
{
	bool any = false;

	timeout(wait_ms);
	for (int key; !t->quit && (key = getch()) != ERR; timeout(0)) {
		handle_key(t, key);
		any = true;
	}
	return any;
}

/* The last N lines of the file at PATH into OUT, one '\n' between them
 * (its last 4 KB are enough for a usage message); "" when unreadable. */
static void read_tail(const char *path, char *out, size_t sz, int n)
{
	char buf[4096];
	FILE *f = fopen(path, "r");
	size_t len = 0;

	out[0] = '\0';
	if (!f)
		return;
	if (fseek(f, 0, SEEK_END) == 0) {
		long end = ftell(f);
		if (end > (long)sizeof(buf) - 1)
			fseek(f, end - (long)sizeof(buf) + 1, SEEK_SET);
		else
			rewind(f);
		len = fread(buf, 1, sizeof(buf) - 1, f);
	}
	fclose(f);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		len--;
	buf[len] = '\0';
	char *start = buf + len;
	for (int lines = 0; start > buf && lines < n; start--)
		if (start[-1] == '\n' && ++lines == n)
			break;
	size_t keep = strlen(start);
	if (keep >= sz) {  /* the end of the last lines: the message itself */
		start += keep - (sz - 1);
		keep = sz - 1;
	}
	memcpy(out, start, keep);
	out[keep] = '\0';
}

/* The program ended (a live watch): the view stays on the final profile,
 * its header says how it ended; a failure shows the program's last output
 * lines (a usage message, a missing file) rather than the log's path. */
static void note_end(struct tui *t)
{
	if (t->end.ended || !t->snap)
		return;
	t->end.ended = true;
	t->end.after = t->snap->time;
	t->end.status = t->snap->exit_status;
	t->end.signal = t->snap->exit_signal;
	t->paused = false;
	if (t->child_log && t->end.status != 0) {
		read_tail(t->child_log, t->end.output, sizeof(t->end.output), TUI_OUTPUT_LINES);
		t->child_log_said = true;
	}
}

const char *tui_time_label(const struct tui *t, char *buf, size_t sz)
{
	char sig[32];

	if (!t->end.ended)
		snprintf(buf, sz, "%.1fs", t->snap ? t->snap->time : 0.0);
	else if (t->end.signal > 0)
		snprintf(buf, sz, "killed by %s after %.1f s",
			 fmt_signal(sig, sizeof(sig), t->end.signal), t->end.after);
	else if (t->end.status >= 0)
		snprintf(buf, sz, "exited (status %d) after %.1f s", t->end.status, t->end.after);
	else
		snprintf(buf, sz, "exited after %.1f s", t->end.after);
	return buf;
}

/* One wait a turn, for data and keys at once: the screen is drawn after a
 * key or a new snapshot and at no other time, so a watch left running
 * costs a poll per ring watermark and a draw per refresh.  A finished or
 * absent session leaves keys alone to wait for: the view stays on the
 * final profile until q (--quit-at-end: it ends with the program). */
static void run_loop(struct tui *t, bool quit_at_end)
{
	double next = cmd_now_s();
	bool ended = false, dirty = true;

	while (!t->quit && !ui_pending_signal()) {
		if (dirty)
			draw(t);
		dirty = false;
		if (t->sess && !ended) {
			ended = session_poll(t->sess, data_wait_ms(t, next));
			if (ended || (!t->paused && cmd_now_s() >= next)) {
				take_snapshot(t);
				next = cmd_now_s() + t->delay;
				dirty = true;
				if (ended && !session_is_recorded(t->sess))
					note_end(t);
				say_child_log(t);
			}
			if (ended && quit_at_end && !session_is_recorded(t->sess))
				break;
		}
		dirty |= take_keys(t, t->sess && !ended ? 0 : 100);
	}
}

/* The state before the first draw: the views', the files', the first
 * snapshot; -1 with a message when one cannot be had. */
static int start(struct tui *t, const struct tui_opts *o)
{
	init_state(t, o);
	if (init_views(t, o) < 0) {
		cmd_error("out of memory");
		return -1;
	}
	if (o->nfiles && open_files(t, o) < 0)
		return -1;
	if (o->baseline && tui_open_baseline(t, o->baseline) < 0)
		return -1;
	if (t->sess) {
		t->model = session_events(t->sess)->model;
		if (t->tree_id == TREE_NONE)
			t->tree_id = t->model->tree;
		take_snapshot(t);
	}
	return 0;
}

static int run_view(struct tui *t, const struct tui_opts *o)
{
	int rc = 0;

	ui_install_signals();
	if (ui_open(&t->theme) < 0) {
		cmd_error("the interactive view needs a terminal: use -b for batch output");
		rc = EXIT_USAGE;
	} else {
		if (t->sess)
			session_wake_on(t->sess, ui_input_fd());
		run_loop(t, o->quit_at_end);
		ui_close();
		if (t->sess)
			session_wake_on(t->sess, -1);
	}
	/* the view prints nothing (batch mode is for tables): the status is
	 * the program's when it ended */
	if (t->sess && rc == 0 && !session_is_recorded(t->sess)) {
		if (!t->end.ended)
			take_snapshot(t);
		if (t->snap)
			rc = cmd_watch_status(o->launched, t->snap->ended, t->snap->exit_status);
	}
	return rc;
}

/* The view's state lives on the heap: no stack frame of its size, no
 * state left over from a previous run. */
int tui_run(const struct tui_opts *o)
{
	struct tui *t = calloc(1, sizeof(*t));

	if (!t) {
		cmd_error("out of memory");
		return 1;
	}
	int rc = start(t, o) < 0 ? 1 : run_view(t, o);
	free_views(t);
	baseline_free(t->baseline);
	snapshot_free(t->snap);
	counts_free(&t->counts);
	free(t);
	return rc;
}
