#!/bin/sh
# The counts-file fuzz target replays its seed corpus (a plain program here;
# make fuzz runs it under libFuzzer).  tests/fuzz/corpus/counts/ holds
# examples/*.counts as they are, plus small edge cases written by hand:
#   perf-stat.counts         perf stat -x, output: msec, <not counted>,
#                            <not supported>, a PMU event with commas, coverage
#   mixed-case-crlf.counts   CRLF lines, a name in two cases, spaces, a raw
#                            rHEX event, 1e308 with a coverage over 100 %,
#                            no final newline
#   bad-value.counts negative.counts period-zero.counts comment-only.counts
#                            the errors tests/e2e/cli-tree.sh checks
#   fuzz-slow-lookup.counts  libFuzzer's timeout before model_lookup indexed
#                            every spelling (9171fe2): a PMU event per line
. "$SRCDIR/tests/e2e/lib.sh"

replay_corpus counts "$SRCDIR/tests/fuzz/corpus/counts"
done_ok
