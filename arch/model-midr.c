/* model_from_midr (arch/model.h): a placeholder that knows no arm64 core,
 * so the host detection (engine/host.c, engine/pfm.c) builds before the
 * arm64 model tables land; they replace it with the MIDR -> model table. */
#include "arch/model.h"

const struct arch_model *model_from_midr(unsigned implementer, unsigned part)
{
	(void)implementer;
	(void)part;
	return NULL;
}
