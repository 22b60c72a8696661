#!/bin/sh
# Nothing lost to the call-stack caches (issue 26): the folded stacks and the
# batch JSON (functions, callers, callees) of fixed recordings, byte for byte
# as cyctop printed them before the caches (tests/data/cg-corpus/README).
# The recordings name this machine's libc and ld.so and its vDSO (kernel):
# on another system the expectations do not apply (SKIP-PART).  Then fresh dwarf
# recordings, read with and without the learnt unwind steps.
. "$SRCDIR/tests/e2e/lib.sh"

D="$SRCDIR/tests/data/cg-corpus"
# ENV: "kernel RELEASE", then "PATH BUILD-ID" of each shared library
same_system=yes
while read -r what id; do
	if [ "$what" = kernel ]; then
		have=$(uname -r)
	else
		have=$(readelf -n "$what" 2>/dev/null | sed -n 's/.*Build ID: //p')
	fi
	if [ "$have" != "$id" ]; then
		skip_part "the fixed recordings name $what $id, this system has ${have:-none}"
		same_system=no
		break
	fi
done <"$D/ENV"

if [ "$same_system" = yes ]; then
	mkdir "$TMP/symfs"
	cp "$D/callers" "$TMP/symfs/"
	for name in fp-callers dwarf-callers dwarf-recurse dwarf-signal; do
		gzip -dc "$D/$name.data.gz" >"$TMP/$name.data"
		for fmt in folded json; do
			run "$CYCTOP" -b -i "$TMP/$name.data" --symfs "$TMP/symfs" --format "$fmt"
			expect_rc 0 "$name --format $fmt"
			cmp -s "$TMP/out" "$D/$name.$fmt" ||
				fail "$name --format $fmt differs from $D/$name.$fmt: $(diff "$D/$name.$fmt" "$TMP/out" | head -20)"
			ok
		done
	done
fi

# Fresh recordings of this machine: the learnt unwind steps (engine/unwind-steps.c)
# give libunwind's stacks, byte for byte (CYCTOP_UNWIND_STEPS=0: libunwind
# steps every frame, as before them).
if command -v perf >/dev/null 2>&1; then
	for mode in plain recurse signal lib; do
		set -- "$WORKLOADS/callers" 0.3
		[ "$mode" = plain ] || set -- "$WORKLOADS/callers" "$mode" 0.3
		if ! perf record -q --call-graph dwarf -e cpu-clock -c 250000 -o "$TMP/$mode.data" \
			-- "$@" >/dev/null 2>&1; then
			skip_part "perf record --call-graph dwarf refused ($mode)"
			continue
		fi
		for fmt in folded json; do
			CYCTOP_UNWIND_STEPS=0 "$CYCTOP" -b -i "$TMP/$mode.data" --format "$fmt" >"$TMP/want" ||
				fail "$mode --format $fmt without learnt steps"
			run "$CYCTOP" -b -i "$TMP/$mode.data" --format "$fmt"
			expect_rc 0 "$mode --format $fmt"
			cmp -s "$TMP/out" "$TMP/want" ||
				fail "$mode --format $fmt: learnt steps differ from libunwind's: $(diff "$TMP/want" "$TMP/out" | head -20)"
			ok
		done
	done
else
	skip_part "no perf to record fresh sessions"
fi
[ "$CHECKS" -gt 0 ] || { echo "SKIP: neither the fixed recordings nor fresh ones could be read"; exit 77; }
done_ok
