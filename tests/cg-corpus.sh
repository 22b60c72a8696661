#!/bin/sh
# Nothing lost to the call-stack caches (issue 26): the folded stacks and the
# batch JSON (functions, callers, callees) of fixed recordings, byte for byte
# as cyctop printed them before the caches (tests/data/cg-corpus/README).
# The recordings name this machine's libc and ld.so and its vDSO (kernel):
# on another system the expectations do not apply (SKIP).
. "$SRCDIR/tests/lib.sh"

D="$SRCDIR/tests/data/cg-corpus"
# ENV: "kernel RELEASE", then "PATH BUILD-ID" of each shared library
while read -r what id; do
	if [ "$what" = kernel ]; then
		[ "$(uname -r)" = "$id" ] || { echo "SKIP: recorded on kernel $id, this is $(uname -r) (its vDSO differs)"; exit 77; }
		continue
	fi
	have=$(readelf -n "$what" 2>/dev/null | sed -n 's/.*Build ID: //p')
	[ "$have" = "$id" ] || { echo "SKIP: $what is not the recorded one (build id ${have:-none}, want $id)"; exit 77; }
done <"$D/ENV"

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
done_ok
