/* tui/json: the writer's separators, nesting, layouts and escaping, and its
 * refusal of an unbalanced end (a program error: it aborts). */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "tui/json.h"

static char *buf;
static size_t len;

static FILE *mem(void)
{
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	return f;
}

static void expect(FILE *f, const char *want)
{
	fclose(f);
	assert_string_equal(buf, want);
	free(buf);
}

static void test_members(void **state)
{
	struct json j;
	FILE *f = mem();

	(void)state;
	json_init(&j, f);
	json_object_begin(&j);
	json_kstr(&j, "name", "work_60");
	json_ku64(&j, "samples", 18446744073709551615ull);
	json_knum(&j, "count", 2.5e9);
	json_knum(&j, "coverage", NAN);
	json_kbool(&j, "ended", false);
	json_key(&j, "percent");
	json_object_begin(&j);
	json_end(&j);
	json_key(&j, "list");
	json_array_begin(&j);
	json_int(&j, -3);
	json_null(&j);
	json_whole(&j, 1234.5);
	json_strf(&j, "0x%x", 0x401000);
	json_end(&j);
	json_end(&j);
	expect(f, "{\"name\": \"work_60\", \"samples\": 18446744073709551615, \"count\": 2500000000, "
		  "\"coverage\": null, \"ended\": false, \"percent\": {}, "
		  "\"list\": [-3, null, 1234, \"0x401000\"]}");
}

/* cyctop tree's layout: the nodes each on a line. */
static void test_lines(void **state)
{
	struct json j;
	FILE *f = mem();

	(void)state;
	json_init(&j, f);
	json_object_begin(&j);
	json_key(&j, "nodes");
	json_lines_begin(&j);
	for (int i = 0; i < 2; i++) {
		json_object_begin(&j);
		json_ku64(&j, "id", (uint64_t)i);
		json_key(&j, "missing");
		json_array_begin(&j);
		json_end(&j);
		json_end(&j);
	}
	json_end(&j);
	json_end(&j);
	expect(f, "{\"nodes\": [\n  {\"id\": 0, \"missing\": []},\n  {\"id\": 1, \"missing\": []}\n]}");
}

static void test_escaping(void **state)
{
	struct json j;
	FILE *f = mem();

	(void)state;
	json_init(&j, f);
	json_array_begin(&j);
	json_str(&j, "a\"b\\c\n\x1b]0;x\x07");
	json_end(&j);
	expect(f, "[\"a\\\"b\\\\c\\u000a\\u001b]0;x\\u0007\"]");
}

/* An end without a begin, or a value where a key is due, aborts. */
static void test_unbalanced_aborts(void **state)
{
	(void)state;
	for (int c = 0; c < 2; c++) {
		pid_t pid = fork();
		if (pid == 0) {
			struct json j;
			FILE *f = fopen("/dev/null", "w");
			json_init(&j, f);
			if (c == 0) {
				json_end(&j);
			} else {
				json_array_begin(&j);
				json_key(&j, "no keys in arrays");
			}
			_exit(0);
		}
		int status;
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_members),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_unbalanced_aborts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
