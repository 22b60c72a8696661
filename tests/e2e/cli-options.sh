#!/bin/sh
# One option parser (tui/opt.c) for every command: each --help is written
# from its command's table and pinned here (tests/e2e/help/*.txt; after a
# deliberate change, regenerate them with CYCTOP_REGEN_HELP=1 and review
# the diff), and the options several commands share refuse the same bad
# value with the same line and exit status 2 in each.
. "$SRCDIR/tests/e2e/lib.sh"
HELP="$SRCDIR/tests/e2e/help"

# help NAME ARGS...: the help goes to stdout, exit 0, as pinned
help() {
	name=$1
	shift
	run "$CYCTOP" "$@" --help
	expect_rc 0 "$name --help"
	[ -s "$TMP/err" ] && fail "$name --help wrote to stderr: $(cat "$TMP/err")"
	if [ -n "${CYCTOP_REGEN_HELP:-}" ]; then
		# writing the expectation is not checking it: said as a skip
		cp "$TMP/out" "$HELP/$name.txt"
		skip_part "$name --help regenerated into tests/e2e/help/$name.txt, not compared"
		return
	fi
	diff -u "$HELP/$name.txt" "$TMP/out" >&2 || fail "$name --help differs from $name.txt"
	ok
}
help top -b
help demo demo
help record record
help annotate annotate
help list list
help tree tree
help encode encode
help diff diff
help selftest selftest
help serve serve

# same WANT ARGS...: exit 2 and exactly the line WANT on stderr, nothing else
same() {
	want=$1
	shift
	run "$CYCTOP" "$@"
	expect_rc 2 "$*"
	[ "$(cat "$TMP/err")" = "$want" ] || fail "$*: stderr '$(cat "$TMP/err")', want '$want'"
	[ -s "$TMP/out" ] && fail "$*: wrote to stdout"
	ok
}
# the pid wrapped to 1 in annotate, was "invalid" in the watch and "out of
# range [1, 2.14748e+09]" in record
pid="cyctop: --pid '4294967297': want a whole number from 1 to 2147483647"
same "$pid" -b -p 4294967297
same "$pid" record -o "$TMP/x.data" -p 4294967297
same "$pid" annotate main -p 4294967297
pid0="cyctop: --pid '0': want a whole number from 1 to 2147483647"
same "$pid0" -b -p 0
same "$pid0" record -o "$TMP/x.data" -p 0
same "$pid0" annotate main -p 0
counters="cyctop: --counters '0': want a whole number from 1 to 64"
same "$counters" -b --counters 0 -- true
same "$counters" record -o "$TMP/x.data" --counters 0 -- true
same "$counters" list groups -e cycles --counters 0
pages="cyctop: --mmap-pages '96': want a power of two from 1 to 1048576"
same "$pages" -b -m 96 -- true
same "$pages" record -o "$TMP/x.data" -m 96 -- true
slice="cyctop: --mux-slice '0': want a whole number from 1 to 10000"
same "$slice" -b --mux-slice 0 -- true
same "$slice" record -o "$TMP/x.data" --mux-slice 0 -- true
delay="cyctop: --delay '0': want a number from 0.05 to 3600"
same "$delay" -b -d 0 -- true
same "$delay" demo -d 0
duration="cyctop: --duration '0': want a number from 0.01 to 86400"
same "$duration" record -o "$TMP/x.data" -d 0 -- true
same "$duration" annotate main -d 0 -- true
smt="cyctop: --smt 'maybe': want off or on"
same "$smt" list groups -e cycles --smt maybe
same "$smt" tree --smt maybe "$EX/core2-handmade.counts"
format="cyctop: --format 'xml': want text, csv or json"
same "$format" annotate main --format xml -- true
same "$format" tree --format xml "$EX/core2-handmade.counts"
same "cyctop: --format 'xml': want text or json" selftest --format xml
model="cyctop: unknown model 'nonesuch' (cyctop list models)"
same "$model" list --model nonesuch
same "$model" tree --model nonesuch "$EX/core2-handmade.counts"
same "$model" encode --model nonesuch cycles
# the call-graph mode's one message, from the watch and from record
run "$CYCTOP" -b --call-graph lbr -- true
cg=$(cat "$TMP/err")
expect_rc 2 "watch --call-graph lbr"
same "$cg" record -o "$TMP/x.data" --call-graph lbr -- true

# a mistyped option: one line naming it, a guess when a name is close, and
# where the rest is (git's manner), from every command's table
same "cyctop: unknown option '--bogus' (see cyctop list --help)" list --bogus
same "cyctop: unknown option '--modle': did you mean --model? (see cyctop list --help)" \
	list --modle zen4
same "cyctop: unknown option '--ouptut': did you mean --output? (see cyctop record --help)" \
	record --ouptut x.data -- true
same "cyctop: option '-o' needs a value: FILE (see cyctop record --help)" record -o
same "cyctop: option '--window' takes no value (see cyctop --help)" -b --window=3 -- true

done_ok
