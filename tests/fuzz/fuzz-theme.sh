#!/bin/sh
# The theme-file fuzz target replays its seed corpus (a plain program here;
# make fuzz runs it under libFuzzer).  tests/fuzz/corpus/themes/ holds
# themes/*.theme as they are, plus two written by hand:
#   broken.theme   an unknown colour and a line without '=' (an error)
#   edge.theme     bright- colours, every attribute, no spaces around '=',
#                  an element with one colour only (an error)
. "$SRCDIR/tests/e2e/lib.sh"

replay_corpus theme "$SRCDIR/tests/fuzz/corpus/themes"
done_ok
