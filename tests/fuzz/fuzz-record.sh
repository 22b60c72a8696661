#!/bin/sh
# The record-decoder fuzz target replays its seed corpus (a plain program
# here; make fuzz runs it under libFuzzer).  tests/fuzz/corpus/record/
# is written by tests/fuzz/gen-record-corpus.py (fixed bytes):
#   sample-*.rec   SAMPLEs: a live session's sample_type, every fixed field,
#                  CALLCHAIN, --call-graph dwarf (REGS_USER + STACK_USER),
#                  registers with abi NONE, no IP with WEIGHT|DATA_SRC last,
#                  READ (one counter, a group), RAW, BRANCH_STACK with hw_idx,
#                  WEIGHT_STRUCT .. AUX; refused: REGS_USER without a mask
#   mmap mmap2 mmap2-build-id comm-exec fork exit lost throttle unthrottle
#   switch         the other records with sample_id_all trailers (lost: every
#                  trailer field; fork: ID alone); switch is skipped
#   cut-*.rec      truncated or malformed: a RAW size breaking alignment, a
#                  branch count past the record, a callchain without nr or with fewer
#                  ips, registers or a stack cut, dyn_size above size, a COMM
#                  without NUL or cut in its padding, a header size past the
#                  input or below a header
# Together they take every branch of engine/record.c.
# crash-* files, if any, are inputs a finding left as regression seeds.
. "$SRCDIR/tests/e2e/lib.sh"

CORPUS="$SRCDIR/tests/fuzz/corpus/record"
replay_corpus record "$CORPUS"
# the seeds are what gen-record-corpus.py writes
if command -v python3 >/dev/null 2>&1; then
	mkdir "$TMP/gen"
	python3 "$SRCDIR/tests/fuzz/gen-record-corpus.py" "$TMP/gen" || fail "gen-record-corpus.py"
	for f in "$TMP"/gen/*.rec; do
		cmp -s "$f" "$CORPUS/$(basename "$f")" || fail "$(basename "$f") is not what gen-record-corpus.py writes"
		ok
	done
fi
done_ok
