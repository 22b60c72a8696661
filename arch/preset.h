/* Event presets (-e @name): the papers' event sets with their sample-after
 * values.  Core2: SAV = cycles SAV / penalty, so the ratio of an event's
 * samples to the cycle samples is the ratio of its penalty cycles to the
 * total (seeds/000, "Analyzing an Application"). */
#ifndef ARCH_PRESET_H
#define ARCH_PRESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/model.h"

#define PRESET_MAX_EVENTS 24

struct preset_event {
	const char *name;  /* paper name, resolved through the model's table */
	uint32_t sav;      /* 0: the model row's recommended SAV */
};

struct preset {
	const char *name;
	enum arch_tree tree;  /* the model family it is for */
	const char *models;   /* the models it is for, space-separated; NULL: the whole family */
	const char *desc;
	const char *source;
	struct preset_event events[PRESET_MAX_EVENTS];
};

const struct preset *preset_find(const char *name);  /* with or without '@' */
/* NAME's preset for MODEL: several models have their own @ilp, @topdown...;
 * the first preset of that name when none is for MODEL (for the message). */
const struct preset *preset_find_for(const char *name, const struct arch_model *model);
/* Whether P is meant for MODEL. */
bool preset_for_model(const struct preset *p, const struct arch_model *model);
const struct preset *preset_at(size_t i);            /* NULL past the end */
size_t preset_size(const struct preset *p);

/* Resolves a preset for MODEL: the table row and SAV of each event.  Returns
 * the number of events, or -1 with a one-line reason in ERR. */
int preset_resolve(const struct preset *p, const struct arch_model *model,
		   const struct arch_event **rows, uint32_t *savs, char *err, size_t errsz);

#endif
