#!/bin/sh
# Journey: a newcomer's typos and wrong commands, on the real binary, as
# git and perf answer them: one line on stderr naming the culprit (a guess
# where one is close, the --help to read), exit 2, nothing on stdout; and
# perf's habits taken as perf takes them: cyctop report FILE, cyctop help
# COMMAND, cyctop record without -o (perf.data, the older one kept as
# perf.data.old), cyctop list PATTERN, encode's and list's one encoding.
. "$SRCDIR/tests/e2e/lib.sh"

cd "$TMP" || fail "cd $TMP"
cp "$WORKLOADS/spin" "$TMP/prog" || fail "copy spin"

# said WANT-LINE ARGS...: exit 2, exactly WANT-LINE on stderr, stdout empty
said() {
	want=$1
	shift
	run "$CYCTOP" "$@"
	[ "$RC" -eq 2 ] || fail "cyctop $*: exit $RC, want 2; stderr: $(cat "$TMP/err")"
	[ "$(cat "$TMP/err")" = "$want" ] ||
		fail "cyctop $*: stderr
$(cat "$TMP/err")
want
$want"
	[ -s "$TMP/out" ] && fail "cyctop $*: wrote to stdout: $(head -c 300 "$TMP/out")"
	ok
}

# options: one line each, not the 66-line table
said "cyctop: unknown option '--fromat': did you mean --format? (see cyctop --help)" \
	--fromat json -- ./prog
said "cyctop: unknown option '-x' (see cyctop --help)" -x
said "cyctop: option '-p' needs a value: PID (see cyctop --help)" -p
said "cyctop: option '-i' needs a value: FILE... (see cyctop --help)" -b -i
said "cyctop: unknown option '--evnets': did you mean --events? (see cyctop record --help)" \
	record --evnets cpu-clock -- ./prog

# a program where a command goes: how to watch it; it is not run
said "cyctop: ./prog is a program: to watch it, cyctop -- ./prog" ./prog
said "cyctop: ./prog is a program: to watch it, cyctop -- ./prog 10" ./prog 10
# one in the current directory, named as the shell would not find it
said "cyctop: prog is a program: to watch it, cyctop -- ./prog 10" prog 10
said "cyctop: unknown command 'recrod': did you mean 'record'? (see cyctop --help)" recrod

# -i DIRECTORY, as the user typed it
mkdir "$TMP/dir"
said "cyctop: -i $TMP/dir: is a directory (want a perf.data file, a pprof profile or counts files)" \
	-i "$TMP/dir"
said "cyctop: -i $TMP/dir: is a directory (want a perf.data file, a pprof profile or counts files)" \
	-b -i "$TMP/dir"

# help: cyctop help COMMAND is COMMAND --help; cyctop --help shows the
# options people use first, one line each
run "$CYCTOP" record --help
cp "$TMP/out" "$TMP/record-help"
run "$CYCTOP" help record
expect_rc 0 "cyctop help record"
cmp -s "$TMP/out" "$TMP/record-help" || fail "cyctop help record is not cyctop record --help"
ok
run "$CYCTOP" --help
expect_rc 0 "cyctop --help"
for o in "-e, --events LIST" "-g  " "-b, --batch" "-d, --delay SECS" "-p, --pid PID" \
	"-a, --all-cpus" "-i, --input FILE"; do
	[ "$(grep -cF -- "  $o" "$TMP/out")" -eq 1 ] || fail "cyctop --help: no one line for '$o'"
done
ok

# record without -o: perf.data in the current directory; again: the first
# becomes perf.data.old
run "$CYCTOP" record -e cpu-clock -- ./prog 2000
expect_rc 0 "record without -o"
expect_err "written to perf.data" "record says where"
[ -s perf.data ] || fail "record without -o wrote no perf.data"
cp perf.data first.data
run "$CYCTOP" record -e cpu-clock -- ./prog 1000
expect_rc 0 "record again"
cmp -s perf.data.old first.data || fail "the first recording is not perf.data.old"
cmp -s perf.data first.data && fail "the second recording did not replace perf.data"
ok

# cyctop report [FILE] is cyctop -i FILE (perf.data by default)
run "$CYCTOP" -b -n 1 -i perf.data.old
expect_rc 0 "-i perf.data.old"
cp "$TMP/out" "$TMP/want"
run "$CYCTOP" report perf.data.old -b -n 1
expect_rc 0 "report FILE"
cmp -s "$TMP/out" "$TMP/want" || fail "report FILE differs from -i FILE: $(diff "$TMP/want" "$TMP/out")"
run "$CYCTOP" report -b -n 1 -i perf.data.old
cmp -s "$TMP/out" "$TMP/want" || fail "report -i FILE differs from -i FILE"
run "$CYCTOP" report -b -n 1
expect_rc 0 "report (perf.data)"
expect_out "PMU perf (recorded)" "report opens perf.data"
# counts as perf stat prints them: whole numbers in groups of three
grep -Eq "^  cpu-clock .* count [0-9]{1,3}(,[0-9]{3})+ +coverage" "$TMP/out" ||
	fail "batch text count not a grouped integer: $(grep ' count ' "$TMP/out")"
ok

# encode cycles: the attr perf opens (type 0, config 0), and on a host
# without a PMU a line saying it cannot be counted here
run "$CYCTOP" encode cycles
expect_rc 0 "encode cycles"
[ "$(cat "$TMP/out")" = "event,type,config,config1
cycles,0,0x0,0x0" ] || fail "encode cycles: $(cat "$TMP/out")"
if host_has_pmu; then
	[ -s "$TMP/err" ] && fail "encode cycles on a PMU: $(cat "$TMP/err")"
else
	[ "$(cat "$TMP/err")" = "cyctop: event 'cycles': this host has no hardware PMU: it cannot count it (a watch counts cpu-clock instead)" ] ||
		fail "encode cycles without a PMU: stderr '$(cat "$TMP/err")'"
fi
ok

# list PATTERN, and list's encodings are encode's
for ev in cpu-clock page-faults context-switches; do
	run "$CYCTOP" list --model perf "$ev"
	expect_rc 0 "list $ev"
	got=$(awk -v e="$ev" '$1 == e || index($1, e "|") == 1 { print $NF, $(NF - 1) }' "$TMP/out")
	run "$CYCTOP" encode --model perf "$ev"
	want=$(awk -F, 'NR == 2 { print "config=" $3, "type=" $2 }' "$TMP/out")
	[ -n "$got" ] && [ "$got" = "$want" ] || fail "list $ev says '$got', encode '$want'"
done
ok
run "$CYCTOP" list cpu-clock
expect_out "cpu-clock" "list PATTERN"
grep -q "type=4" "$TMP/out" && fail "list cpu-clock: a software event as type 4: $(cat "$TMP/out")"
ok

done_ok
