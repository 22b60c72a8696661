/* cyctop's metadata in perf.data files: round trip, foreign and hostile
 * text, bounds. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "engine/session-meta.h"

static void test_round_trip(void **state)
{
	struct session_meta m = { .duration = 2.5, .has_exit = true, .exit_status = 3,
				  .n_groups = 4, .slice_ms = 100, .reference_count = 1.5e9,
				  .n_events = 2 };
	struct session_meta back;
	char buf[4096];

	(void)state;
	strcpy(m.model, "core");
	strcpy(m.tree, "core2");
	strcpy(m.command, "mix");
	strcpy(m.reference, "CPU_CLK_UNHALTED.CORE");
	m.ev[0] = (struct meta_event){ true, 0, true, 0.25, 123456789.0 };
	m.ev[1] = (struct meta_event){ true, -1, false, 0, 0 };
	m.internal_reference = true;
	m.system_wide = true;
	assert_true(session_meta_format(&m, buf, sizeof(buf)) > 0);
	assert_true(session_meta_parse(buf, &back));
	assert_string_equal(back.model, "core");
	assert_string_equal(back.tree, "core2");
	assert_string_equal(back.command, "mix");
	assert_true(back.duration == 2.5);
	assert_true(back.has_exit);
	assert_int_equal(back.exit_status, 3);
	assert_int_equal(back.n_groups, 4);
	assert_int_equal(back.slice_ms, 100);
	assert_string_equal(back.reference, "CPU_CLK_UNHALTED.CORE");
	assert_true(back.reference_count == 1.5e9);
	assert_int_equal(back.n_events, 2);
	assert_true(back.ev[0].present && back.ev[0].counted);
	assert_true(back.ev[0].coverage == 0.25 && back.ev[0].count == 123456789.0);
	assert_true(back.ev[1].present && !back.ev[1].counted);
	assert_int_equal(back.ev[1].group, -1);
	assert_true(back.internal_reference);
	assert_true(back.system_wide);
}

static void test_short_buffer(void **state)
{
	struct session_meta m = { .n_events = 0 };
	char buf[8];

	(void)state;
	assert_int_equal(session_meta_format(&m, buf, sizeof(buf)), -1);
	assert_int_equal(session_meta_format(&m, buf, 0), -1);
}

static void test_foreign(void **state)
{
	struct session_meta m;

	(void)state;
	assert_false(session_meta_parse(NULL, &m));
	assert_false(session_meta_parse("", &m));
	assert_false(session_meta_parse("model core\n", &m));  /* no magic */
	assert_int_equal(m.model[0], '\0');
	assert_true(isnan(m.reference_count));
}

static void test_hostile(void **state)
{
	struct session_meta m;
	char big[600];

	(void)state;
	/* out-of-range indexes, non-numbers, NaN, overlong fields, no newline */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	char text[2048];
	snprintf(text, sizeof(text),
		 META_MAGIC "\nevent 99 group 0 counted 1 coverage 1 count 5\n"
		 "event -1 group 0 counted 1 coverage 1 count 5\n"
		 "event 0 group 0 counted 1 coverage nan count 5\n"
		 "event 1 group x\nduration -4\ngroups 9999 slice_ms 1\nmodel %s\ncommand %s\n"
		 "unknown key\nevent 2 group 1 counted 1 coverage 0.5 count 10", big, big);
	assert_true(session_meta_parse(text, &m));
	assert_int_equal(m.n_events, 3);
	assert_false(m.ev[0].present);
	assert_false(m.ev[1].present);
	assert_true(m.ev[2].present && m.ev[2].count == 10);
	assert_true(m.duration == 0);
	assert_int_equal(m.n_groups, 0);
	assert_int_equal(strlen(m.model), sizeof(m.model) - 1);
	assert_int_equal(strlen(m.command), sizeof(m.command) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_short_buffer),
		cmocka_unit_test(test_foreign),
		cmocka_unit_test(test_hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
