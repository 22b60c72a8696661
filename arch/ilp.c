#include "arch/ilp.h"

#include <math.h>
#include <stdint.h>
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

bool ilp_has_sweep(const struct arch_model *model)
{
	return model && (model->ilp_event || model->ilp_sweep) && model->dispatch_width > 0;
}

bool ilp_sweep_text(const struct arch_model *model, char *buf, size_t bufsz)
{
	int n = -1;

	if (bufsz)
		buf[0] = '\0';
	if (!ilp_has_sweep(model))
		return false;
	if (model->ilp_event)
		n = snprintf(buf, bufsz, "%s:c=1..%d:i=1", model->ilp_event,
			     model->dispatch_width + 1);
	else
		n = snprintf(buf, bufsz, "%s:c=1..%d", model->ilp_sweep, model->dispatch_width);
	return n > 0 && (size_t)n < bufsz;
}

/* The node of bin K ("ilp.K") in DEF, -1 if none. */
static int bin_node(const struct tree_def *def, int k)
{
	char id[16];

	snprintf(id, sizeof(id), "ilp.%d", k);
	return tree_node_index(def, id);
}

/* "2 uops executed" -> "uops executed": the unit the tree names its bins in
 * (bin 2's label: bin 1's may be singular, the top bin's says more). */
static void bin_unit(const struct tree_def *def, int width, char *buf, size_t bufsz)
{
	int i = bin_node(def, width >= 2 ? 2 : 1);
	const char *label = i >= 0 ? def->nodes[i].label : "";
	const char *sp = strchr(label, ' ');
	const char *end;

	buf[0] = '\0';
	if (!sp)
		return;
	sp++;
	end = strchr(sp, '(');
	size_t len = end ? (size_t)(end - sp) : strlen(sp);
	while (len && sp[len - 1] == ' ')
		len--;
	snprintf(buf, bufsz, "%.*s", (int)len, sp);
}

bool ilp_unit(const struct arch_model *model, char *buf, size_t bufsz)
{
	const struct tree_def *def;
	int width = 0;

	if (bufsz)
		buf[0] = '\0';
	if (!ilp_has_sweep(model) || !(def = tree_def_pick(model->tree, model, NULL)))
		return false;
	while (width < ILP_MAX_WIDTH && bin_node(def, width + 1) >= 0)
		width++;
	if (width < 1)
		return false;
	bin_unit(def, width, buf, bufsz);
	return buf[0] != '\0';
}

bool ilp_from_tree(const struct tree_result *r, struct ilp_hist *h)
{
	int width = 0;
	double uops = 0;

	memset(h, 0, sizeof(*h));
	if (!r->def || bin_node(r->def, 0) < 0)
		return false;
	while (width < ILP_MAX_WIDTH && bin_node(r->def, width + 1) >= 0)
		width++;
	if (width < 1)
		return false;
	for (int k = 0; k <= width; k++) {
		int i = bin_node(r->def, k);
		if (r->v[i].state != NODE_VALUE || isnan(r->v[i].value))
			return false;
		h->bins[k] = r->v[i].value;
		h->negative_bin |= h->bins[k] < 0;
		h->total += h->bins[k];
		uops += k * h->bins[k];
	}
	if (!(h->total > 0))
		return false;
	h->width = width;
	h->mean = uops / h->total;
	bin_unit(r->def, width, h->unit, sizeof(h->unit));
	return true;
}

bool ilp_eval(const struct tree_ctx *ctx, const struct counts *c, struct ilp_hist *h)
{
	memset(h, 0, sizeof(*h));
	/* Arm: the sweep is the host's (a PMU with a counter threshold), so
	 * the counts decide: a histogram where they hold OP_RETIRED:th=k */
	if (!ilp_has_sweep(ctx->model) && !arm_ilp_event(ctx->model))
		return false;
	const struct tree_def *def = tree_def_pick(ctx->model->tree, ctx->model, c);
	if (!def)
		return false;
	struct tree_result r;
	tree_eval(def, c, ctx, &r);
	return ilp_from_tree(&r, h);
}

/* --- Arm: the threshold sweep (FEAT_PMUv3_TH; ilp.h) ----------------------- */

/* Whether config1 bits LO..HI exist and hold V. */
static bool field_fits(uint8_t lo, uint8_t hi, uint64_t v)
{
	if (lo > hi || hi > 63)
		return false;
	unsigned bits = (unsigned)(hi - lo) + 1;
	return bits >= 64 || v < (1ULL << bits);
}

bool arm_th_usable(const struct arm_threshold *th)
{
	return th && th->format && th->max >= 1 && field_fits(th->th_lo, th->th_hi, 1) &&
	       field_fits(th->cmp_lo, th->cmp_hi, ARM_TH_COMPARE_GE) &&
	       field_fits(th->cnt_lo, th->cnt_hi, 1);
}

const char *arm_ilp_event(const struct arch_model *model)
{
	if (!model || model->encoding != ENC_ARMV8)
		return NULL;
	return model_lookup(model, "OP_RETIRED") ? "OP_RETIRED" : "INST_RETIRED";
}

int arm_ilp_width(const struct arch_model *model, const struct arm_threshold *th, int slots)
{
	if (!arm_ilp_event(model) || !arm_th_usable(th))
		return 0;
	long w = slots > 0 ? slots : model->pipeline_width;
	if (w > (long)th->max)
		w = (long)th->max;
	if (w > ILP_MAX_WIDTH)
		w = ILP_MAX_WIDTH;
	return w > 0 ? (int)w : 0;
}

bool arm_th_config1(const struct arm_threshold *th, unsigned n, uint64_t *config1)
{
	if (!arm_th_usable(th) || n < 1 || n > th->max || !field_fits(th->th_lo, th->th_hi, n))
		return false;
	*config1 = (uint64_t)n << th->th_lo | (uint64_t)ARM_TH_COMPARE_GE << th->cmp_lo |
		   1ULL << th->cnt_lo;
	return true;
}
