/* The events of a session: parsed from -e (libpfm4 strings, paper names,
 * @presets, EVENT/SAV), encoded through libpfm4, with the host's fallbacks. */
#ifndef ENGINE_EVENTS_H
#define ENGINE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "arch/model.h"

#define EVENTS_MAX 32
#define EVENT_NAME_MAX 160

struct ev_spec {
	char name[EVENT_NAME_MAX];   /* what the user asked for (paper name if known) */
	char asked[EVENT_NAME_MAX];  /* the spelling in the list (a preset's row name) */
	char pfm[EVENT_NAME_MAX];    /* the libpfm4 string encoded */
	uint64_t sav;                /* sample-after value (period) */
	struct perf_event_attr attr; /* encoded, without sampling settings */
	bool software;
	bool offcpu;                 /* off-cpu: context-switches, weighed in ns off the CPU */
};

struct pfm_host;

struct ev_list {
	struct ev_spec ev[EVENTS_MAX];
	int n;
	const struct arch_model *model;  /* the host's model ("perf" without a PMU) */
	struct pfm_host *host;           /* what encodes them (engine/pfm.h): its owner's */
	char notice[1024];               /* one line for the user (its notices joined by "; "), or empty */
	bool exact;                      /* events_encode: no cpu-clock for cycles */
};

/* The host's model: its core PMU per libpfm4, or "perf" when it has none
 * (HOST set up for it). */
const struct arch_model *events_host_model(struct pfm_host *host);

/* Parses LIST ("cycles,page-faults/1", "@big4", ...) for MODEL into OUT,
 * encoded through HOST (which OUT keeps).  Returns 0, or -1 with one line
 * naming the culprit in ERR. */
int events_parse(const char *list, const struct arch_model *model, struct pfm_host *host,
		 struct ev_list *out, char *err, size_t errsz);

/* As events_parse, but each event as asked: cycles stays the hardware
 * event (type 0, config 0) on a host without a PMU, where a watch counts
 * cpu-clock instead.  The attrs cyctop encode and cyctop list show. */
int events_encode(const char *list, const struct arch_model *model, struct pfm_host *host,
		  struct ev_list *out, char *err, size_t errsz);

/* Calls FN on each item of the comma-separated LIST (commas inside perf's
 * PMU syntax "cpu/event=0xb1,umask=0x1/" belong to the item) (a writable copy, item
 * trimmed on the left); an empty item is an error.  Returns 0, or -1 with
 * ERR set by FN or here. */
typedef int (*events_item_fn)(char *item, void *arg, char *err, size_t errsz);
int events_foreach(const char *list, events_item_fn fn, void *arg, char *err, size_t errsz);

/* Intel's TopDown through PERF_METRICS (Ice Lake on): the slots event
 * (event 0x00, umask 0x04) and the metric events (event 0x00, umask
 * 0x80..0x87: topdown-retiring, -bad-spec, -fe-bound, -be-bound and level
 * 2's).  The kernel takes metric events only in a group led by slots, and
 * neither samples (arch/x86/events/intel/core.c, is_metric_event,
 * is_slots_event). */
bool events_is_slots(const struct ev_spec *ev);
bool events_is_metric(const struct ev_spec *ev);

/* Sampling without a SAV given does what perf record and perf top do by
 * default (-F 4000): 4000 samples a second, so that a program's own period
 * cannot alias with a slow fixed one.  On the software clocks the kernel
 * turns that frequency into a fixed period of 250 us; the generic cycles
 * (no model row with a SAV) sample in frequency mode (attr.freq, the kernel
 * sets each period, each sample weighs its own).  Hardware events keep the
 * fixed SAVs of the papers' method: given with /SAV or from the model's
 * table (2,000,000 when it has none). */
#define EVENTS_DEFAULT_FREQ 4000

/* The default SAV of an event without one: 250 us for the clocks (4 kHz),
 * every event for rare software events, the model table's value, 1 (a
 * weight per period) for generic cycles in frequency mode, or 2,000,000
 * for hardware. */
uint64_t events_default_sav(const struct ev_spec *ev, const struct arch_model *model);
/* Whether EV, given without a SAV, samples in frequency mode. */
bool events_default_freq(const struct ev_spec *ev, const struct arch_model *model);

#endif
