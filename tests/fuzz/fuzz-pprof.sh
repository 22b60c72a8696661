#!/bin/sh
# The pprof reader's fuzz target replays its seed corpus (a plain program
# here; make fuzz runs it under libFuzzer).  The corpus,
# tests/fuzz/corpus/pprof/, was made once and is kept as is:
#   cyctop-mix.pb.gz        cyctop record -e cpu-clock,page-faults -- workloads/mix
#                           0.3, then cyctop -i -b --format pprof (per address)
#   cyctop-callers-g.pb.gz  the same of cyctop record -g -- workloads/callers 0.3
#                           (call stacks, one location per function)
#   go-cpu.pb.gz            Go 1.19's runtime/pprof CPU profile of the program
#                           in tests/e2e/pprof.sh (inlined frames, labels-free)
#   go-cpu-raw.pb           the same, not gzipped
#   go-cpu-cut.pb.gz        the same cut at three quarters (a truncated gzip)
. "$SRCDIR/tests/e2e/lib.sh"

C="$SRCDIR/tests/fuzz/corpus/pprof"
replay_corpus pprof "$C"
# the seeds are what they say: the whole ones open, the cut one is refused
for f in cyctop-mix.pb.gz cyctop-callers-g.pb.gz go-cpu.pb.gz; do
	run "$CYCTOP" -i "$C/$f" -b --format json
	expect_rc 0 "$f opens"
done
expect_out '"children"' "go-cpu.pb.gz has stacks"
run "$CYCTOP" -i "$C/go-cpu-cut.pb.gz" -b --format json
expect_rc 1 "go-cpu-cut.pb.gz is refused"
expect_err "gzip stream truncated" "go-cpu-cut.pb.gz: why"
done_ok
