/* tui/opt: each kind, the bounds (a pid that wrapped to 1 before, 0 where
 * the least is 1), powers of two, words, the duplicate-name self-check,
 * operands and "--", and the --help it writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include <cmocka.h>

#include "tui/opt.h"

static char msg[4096];

/* What the last parse_said wrote on stderr (opt_error's lines). */
static const char *said(void)
{
	return msg;
}

/* opt_parse with stderr (fd 2) on a temporary file for the call only (so
 * that cmocka's own messages still show), its lines kept for said(). */
static int parse_said(const struct opt_cmd *cmd, int argc, char **argv)
{
	FILE *f = tmpfile();
	int saved = dup(STDERR_FILENO);

	assert_non_null(f);
	assert_true(saved >= 0);
	fflush(stderr);
	assert_true(dup2(fileno(f), STDERR_FILENO) >= 0);
	int rc = opt_parse(cmd, argc, argv, 1);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(f);
	size_t n = fread(msg, 1, sizeof(msg) - 1, f);
	msg[n] = '\0';
	fclose(f);
	return rc;
}

struct vals {
	bool flag;
	const char *str;
	pid_t pid;
	int counters;
	size_t pages;
	double secs;
	int smt;
	long long big;
};

static int parse(struct vals *v, bool in_order, int argc, ...)
{
	const struct opt opts[] = {
		OPT_FLAG('b', "batch", &v->flag, "a flag"),
		OPT_STRING('e', "events", &v->str, "LIST", "a string"),
		OPT_PID(&v->pid, "a pid"),
		OPT_COUNTERS(&v->counters, "counters"),
		OPT_MMAP_PAGES(&v->pages, "pages"),
		OPT_DELAY(&v->secs, "seconds"),
		OPT_SMT(&v->smt, "words"),
		OPT_INT(0, "big", &v->big, -5, 5, "N", "a long long"),
		OPT_END,
	};
	const struct opt_cmd cmd = { "usage: t", opts, NULL, in_order };
	char *argv[16] = { "t" };
	va_list ap;

	va_start(ap, argc);
	for (int i = 1; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	memset(v, 0, sizeof(*v));
	return parse_said(&cmd, argc, argv);
}

static void test_kinds(void **state)
{
	struct vals v;

	(void)state;
	assert_int_equal(parse(&v, true, 14, "-b", "-e", "cycles", "--pid", "42", "--counters",
			       "3", "-m", "256", "-d", "0.5", "--smt", "off"), 14);
	assert_true(v.flag);
	assert_string_equal(v.str, "cycles");
	assert_int_equal(v.pid, 42);
	assert_int_equal(v.counters, 3);
	assert_int_equal(v.pages, 256);
	assert_true(v.secs == 0.5);
	assert_int_equal(v.smt, 0);
	assert_int_equal(parse(&v, true, 3, "--smt", "on"), 3);
	assert_int_equal(v.smt, 1);
	assert_int_equal(parse(&v, true, 3, "--big", "-5"), 3);
	assert_int_equal(v.big, -5);
	assert_string_equal(said(), "");
}

static void test_bounds(void **state)
{
	struct vals v;

	(void)state;
	/* (pid_t)strtol wrapped this to 1 */
	assert_int_equal(parse(&v, true, 3, "-p", "4294967297"), -1);
	assert_string_equal(said(),
			    "cyctop: --pid '4294967297': want a whole number from 1 to 2147483647\n");
	assert_int_equal(v.pid, 0);
	assert_int_equal(parse(&v, true, 3, "-p", "0"), -1);
	assert_int_equal(parse(&v, true, 3, "-p", "2147483647"), 3);
	assert_int_equal(v.pid, 2147483647);
	assert_int_equal(parse(&v, true, 3, "-p", "12x"), -1);
	assert_int_equal(parse(&v, true, 3, "-p", ""), -1);
	assert_int_equal(parse(&v, true, 3, "--counters", "0"), -1);
	assert_string_equal(said(), "cyctop: --counters '0': want a whole number from 1 to 64\n");
	assert_int_equal(parse(&v, true, 3, "--counters", "65"), -1);
	assert_int_equal(parse(&v, true, 3, "--counters", "64"), 3);
	assert_int_equal(parse(&v, true, 3, "--big", "6"), -1);
	assert_int_equal(parse(&v, true, 3, "--big", "99999999999999999999"), -1);
	assert_int_equal(parse(&v, true, 3, "-d", "0.04"), -1);
	assert_string_equal(said(), "cyctop: --delay '0.04': want a number from 0.05 to 3600\n");
	assert_int_equal(parse(&v, true, 3, "-d", "nan"), -1);
	assert_int_equal(parse(&v, true, 3, "-d", "3600"), 3);
}

static void test_pow2(void **state)
{
	struct vals v;

	(void)state;
	assert_int_equal(parse(&v, true, 3, "-m", "1"), 3);
	assert_int_equal(v.pages, 1);
	assert_int_equal(parse(&v, true, 3, "--mmap-pages", "1048576"), 3);
	assert_int_equal(v.pages, 1048576);
	assert_int_equal(parse(&v, true, 3, "-m", "96"), -1);
	assert_string_equal(said(),
			    "cyctop: --mmap-pages '96': want a power of two from 1 to 1048576\n");
	assert_int_equal(parse(&v, true, 3, "-m", "0"), -1);
	assert_int_equal(parse(&v, true, 3, "-m", "2097152"), -1);
	assert_int_equal(parse(&v, true, 3, "-m", "-4"), -1);
}

static void test_enum(void **state)
{
	struct vals v;

	(void)state;
	assert_int_equal(parse(&v, true, 3, "--smt", "maybe"), -1);
	assert_string_equal(said(), "cyctop: --smt 'maybe': want off or on\n");
	assert_int_equal(parse(&v, true, 3, "--smt", "On"), -1);
}

static void test_operands(void **state)
{
	struct vals v;

	(void)state;
	/* in order: the first operand ends the options, as "--" does */
	assert_int_equal(parse(&v, true, 5, "-b", "ls", "-e", "x"), 2);
	assert_null(v.str);
	assert_int_equal(parse(&v, true, 5, "-b", "--", "ls", "-l"), 3);
	/* permuted: options after operands still count, operands move last */
	char *argv[] = { "t", "file", "-b", "-e", "x", "more", NULL };
	const struct opt opts[] = { OPT_FLAG('b', NULL, &v.flag, "f"),
				    OPT_STRING('e', NULL, &v.str, "E", "s"), OPT_END };
	const struct opt_cmd cmd = { "usage: t", opts, NULL, false };
	memset(&v, 0, sizeof(v));
	assert_int_equal(opt_parse(&cmd, 6, argv, 1), 4);
	assert_true(v.flag);
	assert_string_equal(v.str, "x");
	assert_string_equal(argv[4], "file");
	assert_string_equal(argv[5], "more");
	/* parsing from a later index (annotate's FUNCTION comes first) */
	char *argv2[] = { "annotate", "main", "-b", "--", "cmd", NULL };
	memset(&v, 0, sizeof(v));
	const struct opt_cmd cmd2 = { "usage: t", opts, NULL, true };
	assert_int_equal(opt_parse(&cmd2, 5, argv2, 2), 4);
	assert_true(v.flag);
	assert_string_equal(argv2[1], "main");
	/* an unknown option or a missing argument is an error */
	assert_int_equal(parse(&v, true, 2, "--nonesuch"), -1);
	assert_int_equal(parse(&v, true, 2, "-e"), -1);
}

/* A mistyped option: one line, a guess when a long name is close (as
 * git's "did you mean"), the command's --help named; never the table. */
static void test_typos(void **state)
{
	struct vals v;
	static const char *const names[] = { "format", "events", "pid", "delay" };

	(void)state;
	assert_string_equal(opt_closest("fromat", names, 4), "format");  /* a swap: one */
	assert_string_equal(opt_closest("evnts", names, 4), "events");
	assert_string_equal(opt_closest("dealy", names, 4), "delay");
	assert_null(opt_closest("x", names, 4));
	assert_null(opt_closest("bogus", names, 4));
	assert_int_equal(parse(&v, true, 2, "--evnets"), -1);
	assert_string_equal(said(), "cyctop: unknown option '--evnets': did you mean --events? "
				    "(see t --help)\n");
	assert_int_equal(parse(&v, true, 3, "--evnets=x", "y"), -1);
	assert_string_equal(said(), "cyctop: unknown option '--evnets': did you mean --events? "
				    "(see t --help)\n");
	assert_int_equal(parse(&v, true, 2, "-x"), -1);
	assert_string_equal(said(), "cyctop: unknown option '-x' (see t --help)\n");
	assert_int_equal(parse(&v, true, 2, "-bx"), -1);
	assert_string_equal(said(), "cyctop: unknown option '-x' (see t --help)\n");
	assert_int_equal(parse(&v, true, 2, "-p"), -1);
	assert_string_equal(said(), "cyctop: option '-p' needs a value: PID (see t --help)\n");
	assert_int_equal(parse(&v, true, 2, "--pid"), -1);
	assert_string_equal(said(), "cyctop: option '--pid' needs a value: PID (see t --help)\n");
	assert_int_equal(parse(&v, true, 2, "--batch=1"), -1);
	assert_string_equal(said(), "cyctop: option '--batch' takes no value (see t --help)\n");
	assert_int_equal(parse(&v, true, 2, "--b"), -1);  /* --batch or --big */
	assert_string_equal(said(), "cyctop: option '--b' is ambiguous: --batch or --big? "
				    "(see t --help)\n");
}

static void test_check(void **state)
{
	int a = 0, b = 0;
	char err[160];

	(void)state;
	const struct opt good[] = { OPT_FLAG('a', "all", &a, "x"), OPT_FLAG('b', NULL, &b, "y"),
				    OPT_FLAG(0, "bee", &b, "z"), OPT_END };
	assert_int_equal(opt_check(good, err, sizeof(err)), 0);
	const struct opt two_short[] = { OPT_FLAG('a', "all", &a, "x"),
					 OPT_FLAG('a', "any", &b, "y"), OPT_END };
	assert_int_equal(opt_check(two_short, err, sizeof(err)), -1);
	assert_string_equal(err, "-a twice in one table");
	const struct opt two_long[] = { OPT_FLAG('a', "all", &a, "x"),
					OPT_FLAG(0, "all", &b, "y"), OPT_END };
	assert_int_equal(opt_check(two_long, err, sizeof(err)), -1);
	assert_string_equal(err, "--all twice in one table");
	/* -h/--help are every command's */
	const struct opt help[] = { OPT_FLAG(0, "help", &a, "x"), OPT_END };
	assert_int_equal(opt_check(help, err, sizeof(err)), -1);
	assert_string_equal(err, "--help twice in one table");
	const struct opt h[] = { OPT_FLAG('h', "human", &a, "x"), OPT_END };
	assert_int_equal(opt_check(h, err, sizeof(err)), -1);
	assert_string_equal(err, "-h twice in one table");
}

static void test_help(void **state)
{
	bool f = false;
	const char *s = NULL;
	long n = 0;
	char *out = NULL;
	size_t len = 0;

	(void)state;
	const struct opt opts[] = {
		OPT_FLAG('b', "batch", &f, "print tables"),
		OPT_STRING(0, "child-output", &s, "F", "where output goes:\nFILE, null or tty"),
		OPT_INT(0, "a-rather-long-name", &n, 1, 2, "ARGUMENT", "on the next line"),
		OPT_FLAG('g', NULL, &f, "stacks"),
		OPT_END,
	};
	const struct opt_cmd cmd = { "usage: cyctop t [OPTIONS]", opts, "And prose.\n", true };
	FILE *m = open_memstream(&out, &len);
	assert_non_null(m);
	opt_help(m, &cmd);
	fclose(m);
	assert_string_equal(out, "usage: cyctop t [OPTIONS]\n"
				 "  -b, --batch           print tables\n"
				 "      --child-output F  where output goes:\n"
				 "                        FILE, null or tty\n"
				 "      --a-rather-long-name ARGUMENT\n"
				 "                        on the next line\n"
				 "  -g                    stacks\n"
				 "  -h, --help            print this help\n"
				 "And prose.\n");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),    cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_pow2),     cmocka_unit_test(test_enum),
		cmocka_unit_test(test_operands), cmocka_unit_test(test_check),
		cmocka_unit_test(test_help),     cmocka_unit_test(test_typos),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
