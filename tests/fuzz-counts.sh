#!/bin/sh
# The counts-file fuzz target replays its seed corpus (a plain program here;
# build.sh's fuzz step runs it under libFuzzer).  tests/corpus/counts/ holds
# examples/*.counts as they are, plus small edge cases written by hand:
#   perf-stat.counts         perf stat -x, output: msec, <not counted>,
#                            <not supported>, a PMU event with commas, coverage
#   mixed-case-crlf.counts   CRLF lines, a name in two cases, spaces, a raw
#                            rHEX event, 1e308 with a coverage over 100 %,
#                            no final newline
#   bad-value.counts negative.counts period-zero.counts comment-only.counts
#                            the errors tests/cli-tree.sh checks
. "$SRCDIR/tests/lib.sh"

FUZZ=$(dirname "$CYCTOP")/tests/fuzz-counts
run "$FUZZ" "$SRCDIR/tests/corpus/counts"
expect_rc 0 "replay the corpus"
expect_out "fuzz-counts: replayed 11 inputs" "every seed"
# and each seed cut in half: an error or fewer counts, never a crash
for f in "$SRCDIR"/tests/corpus/counts/*.counts; do
	n=$(wc -c <"$f")
	head -c $((n / 2)) "$f" >"$TMP/half-$(basename "$f")"
done
run "$FUZZ" "$TMP"
expect_rc 0 "replay the halves"
done_ok
