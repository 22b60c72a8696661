#!/bin/sh
# A pprof profile in the views under tmux: cyctop -i on Go's CPU profile of
# the seed corpus (tests/fuzz/fuzz-pprof.sh says how it was made) shows main.spin
# on top of the hotspots with its children column, c opens its callers
# view with main.heavy and main.light (2:1), q goes back, q quits.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

start 120 40
type_line "'$CYCTOP' -i '$SRCDIR/tests/fuzz/corpus/pprof/go-cpu.pb.gz'; echo EXIT-\$?"
wait_screen "PMU pprof profile" "the header names a pprof profile"
wait_screen "cpu/nano~%" "the default type (cpu/nanoseconds) is the first column, its cut marked"
wait_screen "children%" "stacks: the children column"
wait_for 'screen | grep -Eq "^>? *[0-9.]+% .* main\.spin "' 10 "main.spin's row"
ok
T send-keys -t main c
wait_screen "callers and callees of main.spin" "callers view of main.spin"
wait_screen "+ main.heavy" "main.heavy calls main.spin"
wait_screen "+ main.light" "main.light calls main.spin"
heavy=$(screen | awk '$3 == "+" && $4 == "main.heavy" { sub("%", "", $1); print $1 }')
light=$(screen | awk '$3 == "+" && $4 == "main.light" { sub("%", "", $1); print $1 }')
# the file's exact split, as `go tool pprof -peek 'main\.spin$'` prints it
# for the same file: main.heavy 1.69s 66.02 %, main.light 0.87s 33.98 %
[ "$heavy" = 66.02 ] && [ "$light" = 33.98 ] ||
	{ screen_dump >&2; fail "main.heavy $heavy%, main.light $light%: pprof says 66.02 and 33.98"; }
ok
T send-keys -t main q
wait_screen "c callers" "q: back to the hotspots"
T send-keys -t main q
wait_screen "EXIT-0" "q quits with status 0"
done_ok
