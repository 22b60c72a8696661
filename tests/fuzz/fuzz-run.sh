#!/bin/sh
# One libFuzzer run: tests/fuzz/fuzz-run.sh NAME BINARY CORPUS_DIR, from a copy of
# the seed corpus for FUZZ_SECONDS (default 30).  Prints one line,
# "fuzz: NAME: N runs, N exec/s, no finding" or "fuzz: NAME: FINDING (input
# and log in DIR)" after the log's last lines, and exits 0 or 1.  Called by
# `make fuzz` (Makefile.am builds BINARY with clang -fsanitize=fuzzer).
set -u
name=$1 bin=$2 corpus=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/cyctop-fuzz-$name.XXXXXX")
mkdir "$dir/corpus"
cp "$corpus"/* "$dir/corpus/"
if "$bin" -max_total_time="${FUZZ_SECONDS:-30}" -timeout=10 -print_final_stats=1 \
	-artifact_prefix="$dir/" "$dir/corpus" >"$dir/fuzz.log" 2>&1; then
	echo "fuzz: $name: $(awk '/^stat::number_of_executed_units/ { r = $2 }
		/^stat::average_exec_per_sec/ { e = $2 }
		END { printf "%s runs, %s exec/s, no finding", r, e }' "$dir/fuzz.log")"
	rm -rf "$dir"
	exit 0
fi
tail -n 60 "$dir/fuzz.log"
echo "fuzz: $name: FINDING (input and log in $dir)"
exit 1
