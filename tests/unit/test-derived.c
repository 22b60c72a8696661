#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "arch/derived.h"

/* Every column's events exist in the model of its tree, and the titles fit
 * the table's event column. */
static void test_columns_resolve(void **state)
{
	const struct derived_col *c;
	int n = 0;

	(void)state;
	for (size_t i = 0; (c = derived_at(i)) != NULL; i++, n++) {
		const struct arch_model *m = model_for_tree(c->tree);
		assert_non_null(m);
		assert_non_null(model_lookup(m, c->num));
		assert_non_null(model_lookup(m, c->den));
		assert_true(strlen(c->label) <= 9);
		assert_true(c->scale > 0);
	}
	assert_int_equal(n, 5);
}

/* Normalized counts: 300 stall samples and 1000 cycle samples at the same
 * SAV are 30 % stalls; a zero denominator is not measured. */
static void test_values(void **state)
{
	const struct derived_col *stall = derived_at(0), *cpi = derived_at(1);

	(void)state;
	assert_string_equal(stall->label, "stall%");
	assert_true(fabs(derived_value(stall, 300 * 2e6, 1000 * 2e6) - 30.0) < 1e-12);
	assert_true(fabs(derived_value(cpi, 1000 * 2e6, 800 * 2e6) - 1.25) < 1e-12);
	assert_true(isnan(derived_value(stall, 5, 0)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns_resolve),
		cmocka_unit_test(test_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
