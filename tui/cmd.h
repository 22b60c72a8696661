/* Subcommands, one file each (cmd-*.c), dispatched by name from cyctop.c;
 * what they share (errors, the clock, a watch's exit status, the delay) is
 * tui/cmd.c's. */
#ifndef TUI_CMD_H
#define TUI_CMD_H

#include <stdbool.h>

#define EXIT_USAGE 2

struct cmd_entry {
	const char *name;
	const char *usage;
	int (*exec)(int argc, char **argv);
};

extern const struct cmd_entry cmd_tree_entry;
extern const struct cmd_entry cmd_list_entry;
extern const struct cmd_entry cmd_annotate_entry;
extern const struct cmd_entry cmd_record_entry;
extern const struct cmd_entry cmd_encode_entry;
extern const struct cmd_entry cmd_diff_entry;
extern const struct cmd_entry cmd_selftest_entry;
extern const struct cmd_entry cmd_serve_entry;

/* cyctop tree without --arch: the hardware tree (an enum arch_tree) most of
 * whose events counts C holds, TREE_NONE when none (tui/cmd-tree.c). */
struct counts;
struct tree_ctx;
int cmd_tree_guess(const struct counts *c, const struct tree_ctx *ctx);

/* Seconds on the monotonic clock (refresh and duration timing). */
double cmd_now_s(void);

/* 128 + SIGPIPE: what a shell reports for a writer whose reader left
 * (yes | head -1); batch output ends with it, quietly. */
#define EXIT_BROKEN_PIPE 141

/* cyctop's exit status at the end of a watch, as perf record, time and
 * strace give it: 128 + N when signal N stopped cyctop; else the launched
 * command's status when it ended by itself (128 + N when a signal killed
 * it; EXIT_STATUS < 0: not known); else 0 (q, -n, an attached process). */
int cmd_watch_status(bool launched, bool ended, int exit_status);

/* The refresh interval, the same for -d and the view's d prompt. */
#define DELAY_MIN_S 0.05
#define DELAY_MAX_S 3600.0
/* S as a delay in [DELAY_MIN_S, DELAY_MAX_S] seconds into *OUT; -1 else. */
int cmd_parse_delay(const char *s, double *out);
/* What cmd_parse_delay takes, for the d prompt: the words -d/--delay's
 * message has (tui/opt.c, a number option's range). */
#define DELAY_RANGE_TEXT "want a number from 0.05 to 3600"

/* "cyctop: <message>" on stderr, one line. */
void cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
