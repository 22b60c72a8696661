/* Subcommands, one file each (cmd-*.c), dispatched by name from cyctop.c. */
#ifndef TUI_CMD_H
#define TUI_CMD_H

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

/* Seconds on the monotonic clock (refresh and duration timing). */
double cmd_now_s(void);

/* "cyctop: <message>" on stderr, one line. */
void cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
