#include "arch/ilp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

bool ilp_from_sweep(const double *sweep, int width, struct ilp_hist *h)
{
	memset(h, 0, sizeof(*h));
	if (width < 1 || width > ILP_MAX_WIDTH)
		return false;
	for (int k = 0; k <= width; k++)
		if (isnan(sweep[k]) || sweep[k] < 0)
			return false;
	h->width = width;
	h->total = sweep[width];
	if (!(h->total > 0))
		return false;
	h->bins[0] = sweep[0];
	double uops = 0;
	for (int k = 1; k <= width; k++) {
		h->bins[k] = sweep[k] - sweep[k - 1];
		if (h->bins[k] < 0)
			h->negative_bin = true;
		uops += k * h->bins[k];
	}
	h->mean = uops / h->total;
	return true;
}

bool ilp_step_name(const struct arch_model *model, int k, char *buf, unsigned long bufsz)
{
	if (!model->ilp_event || k < 1 || k > model->dispatch_width + 1)
		return false;
	return snprintf(buf, bufsz, "%s:c=%d:i=1", model->ilp_event, k) < (int)bufsz;
}
