#include "arch/derived.h"

#include <math.h>

static const struct derived_col cols[] = {
	{ TREE_CORE2, "stall%", "RS_UOPS_DISPATCHED.CYCLES_NONE", "CPU_CLK_UNHALTED.CORE", 100,
	  "Core2 paper eq. 2: stalls / cycles" },
	{ TREE_CORE2, "CPI", "CPU_CLK_UNHALTED.CORE", "INST_RETIRED.ANY_P", 1,
	  "Core2 slides: CPU_CLK_UNHALTED.CORE / INST_RETIRED.ANY" },
	{ TREE_IA64, "stall%", "BACK_END_BUBBLE.ALL", "CPU_CYCLES", 100,
	  "IA-64 part 2: BACK_END_BUBBLE.ALL / CPU_CYCLES" },
	{ TREE_AMD, "IPC", "Ret_instructions", "CPU_clocks", 1,
	  "AMD 4.2.1: Ret_instructions / CPU_clocks" },
	{ TREE_AMD, "DCmiss/in", "DC_misses", "Ret_instructions", 1,
	  "AMD 4.3.1: DC_misses / Ret_instructions" },
};

const struct derived_col *derived_at(size_t i)
{
	return i < sizeof(cols) / sizeof(cols[0]) ? &cols[i] : NULL;
}

double derived_value(const struct derived_col *c, double num, double den)
{
	return den > 0 ? c->scale * num / den : NAN;
}
