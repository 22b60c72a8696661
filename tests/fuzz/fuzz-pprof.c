/* Fuzz target for the pprof reader (engine/pprof-read.c): gunzip, protobuf
 * unpacking (protobuf-c) and the checks of every index and id.
 *
 * With libFuzzer (make fuzz):
 *	clang -fsanitize=fuzzer,address,undefined -DCYCTOP_LIBFUZZER -I. -Ibuild \
 *		tests/fuzz/fuzz-pprof.c engine/pprof-read.c build/engine/profile.pb-c.c \
 *		engine/callgraph.c engine/callgraph-snapshot.c -lprotobuf-c -lz
 *	./a.out -max_total_time=60 CORPUS-COPY
 * Without it (make check), tests/fuzz/fuzz-replay.c's main() replays the seed
 * corpus tests/fuzz/corpus/pprof/ (tests/fuzz/fuzz-pprof.sh says how it was made).
 *
 * Each input that parses is read as session-pprof.c reads it: every sample
 * type's name, every sample's values, labels and frames (into a call graph,
 * so that every name and module string is read). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/callgraph.h"
#include "engine/pprof.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

static volatile uint64_t sink;   /* keeps the reads */

static void read_samples(const struct pprof *p, struct callgraph *cg, struct cg_frame *frames)
{
	for (size_t i = 0; i < pprof_n_samples(p); i++) {
		uint64_t addr;
		size_t nf = pprof_frames(p, i, frames, PPROF_FRAMES_MAX, &addr);
		sink += addr + (uint64_t)pprof_label_num(p, i, "pid") +
			(uint64_t)pprof_label_num(p, i, "tid");
		for (size_t t = 0; t < pprof_n_types(p); t++) {
			int64_t v = pprof_value(p, i, t);
			if (v < 0)
				abort();   /* the reader refuses negative values */
			if (nf && t < CG_EVENTS_MAX)
				callgraph_add(cg, (int)t, frames, nf, false, (uint64_t)v);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	char err[400];
	struct pprof *p = pprof_parse(d, n, err, sizeof(err));

	if (!p) {
		if (!err[0] || strchr(err, '\n'))
			abort();   /* one line, always */
		return 0;
	}
	char name[512];
	size_t nt = pprof_n_types(p);
	if (nt < 1 || nt > PPROF_TYPES_MAX || pprof_default_type(p) >= nt)
		abort();
	for (size_t t = 0; t < nt; t++) {
		pprof_type_name(p, t, name, sizeof(name));
		sink += strlen(name);
	}
	sink += (uint64_t)pprof_time_nanos(p) + (uint64_t)pprof_duration_nanos(p);
	struct callgraph *cg = callgraph_new((int)(nt < CG_EVENTS_MAX ? nt : CG_EVENTS_MAX));
	struct cg_frame *frames = malloc(PPROF_FRAMES_MAX * sizeof(*frames));
	if (cg && frames)
		read_samples(p, cg, frames);
	struct cg_snapshot *s = cg ? callgraph_snapshot(cg) : NULL;
	cg_snapshot_free(s);
	callgraph_free(cg);
	free(frames);
	pprof_free(p);
	return 0;
}
