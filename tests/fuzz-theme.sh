#!/bin/sh
# The theme-file fuzz target replays its seed corpus (a plain program here;
# build.sh's fuzz step runs it under libFuzzer).  tests/corpus/themes/ holds
# themes/*.theme as they are, plus two written by hand:
#   broken.theme   an unknown colour and a line without '=' (an error)
#   edge.theme     bright- colours, every attribute, no spaces around '=',
#                  an element with one colour only (an error)
. "$SRCDIR/tests/lib.sh"

FUZZ=$(dirname "$CYCTOP")/tests/fuzz-theme
run "$FUZZ" "$SRCDIR/tests/corpus/themes"
expect_rc 0 "replay the corpus"
expect_out "fuzz-theme: replayed 6 inputs" "every seed"
# and each seed cut in half: an error or fewer colours, never a crash
for f in "$SRCDIR"/tests/corpus/themes/*.theme; do
	n=$(wc -c <"$f")
	head -c $((n / 2)) "$f" >"$TMP/half-$(basename "$f")"
done
run "$FUZZ" "$TMP"
expect_rc 0 "replay the halves"
done_ok
