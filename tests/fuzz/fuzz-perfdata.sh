#!/bin/sh
# The perf.data fuzz target replays its seed corpus (a plain program here;
# make fuzz runs it under libFuzzer).  The corpus,
# tests/fuzz/corpus/perfdata/, was made once and is kept as is:
#   writer-sample.data    perfdata-dump --write-sample (our writer; fixed bytes)
#   perf-mix.data         perf record -e cpu-clock -c 200000 -o perf-mix.data
#                         -- workloads/mix 0.1   (perf 6.1, Debian 12)
#   perf-copy.data        perfdata-dump --copy perf-mix.data perf-copy.data
#   perf-unfinished.data  perf-mix.data cut after its data section, data
#                         size set to 0 (an interrupted recording)
#   perf-pipe.data        perf record -e cpu-clock -c 200000 -o - -- workloads/mix 0.1
#                         >perf-pipe.data (pipe mode: a stream of records)
#   perf-z.data           perf record -z -e cpu-clock -c 200000 -o perf-z.data
#                         -- workloads/mix 0.1 (zstd-compressed records)
. "$SRCDIR/tests/e2e/lib.sh"

replay_corpus perfdata "$SRCDIR/tests/fuzz/corpus/perfdata"
done_ok
