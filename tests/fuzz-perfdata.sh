#!/bin/sh
# The perf.data fuzz target replays its seed corpus (a plain program here;
# build.sh's fuzz step runs it under libFuzzer).  The corpus,
# tests/corpus/perfdata/, was made once and is kept as is:
#   writer-sample.data    perfdata-dump --write-sample (our writer; fixed bytes)
#   perf-mix.data         perf record -e cpu-clock -c 200000 -o perf-mix.data
#                         -- workloads/mix 0.1   (perf 6.1, Debian 12)
#   perf-copy.data        perfdata-dump --copy perf-mix.data perf-copy.data
#   perf-unfinished.data  perf-mix.data cut after its data section, data
#                         size set to 0 (an interrupted recording)
. "$SRCDIR/tests/lib.sh"

FUZZ=$(dirname "$CYCTOP")/tests/fuzz-perfdata
run "$FUZZ" "$SRCDIR/tests/corpus/perfdata"
expect_rc 0 "replay the corpus"
expect_out "fuzz-perfdata: replayed 4 inputs" "every seed"
# and each seed cut in half: a reader error, never a crash
for f in "$SRCDIR"/tests/corpus/perfdata/*.data; do
	n=$(wc -c <"$f")
	head -c $((n / 2)) "$f" >"$TMP/half-$(basename "$f")"
done
run "$FUZZ" "$TMP"
expect_rc 0 "replay the halves"
done_ok
