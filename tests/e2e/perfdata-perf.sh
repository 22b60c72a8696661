#!/bin/sh
# perf.data both ways with the installed perf: our reader on perf record's
# file, perf report/script on files from our writer (a synthetic one, and
# perf's own recording rewritten record by record, which must report the
# same), and an unfinished recording (data size 0).
. "$SRCDIR/tests/e2e/lib.sh"

PDUMP=$(dirname "$CYCTOP")/tests/e2e/perfdata-dump

# dump_has FILE LINE: perfdata-dump FILE prints LINE
dump_has() {
	grep -qxF -- "$2" "$TMP/$1.dump" || fail "$1: no line '$2' in: $(cat "$TMP/$1.dump")"
	ok
}

# dump_num FILE PREFIX: the number after "PREFIX: " in the dump
dump_num() {
	awk -v p="$2: " 'index($0, p) == 1 { print substr($0, length(p) + 1) + 0 }' "$TMP/$1.dump"
}

dump() { # NAME
	run "$PDUMP" "$TMP/$1.data"
	expect_rc 0 "perfdata-dump $1"
	cp "$TMP/out" "$TMP/$1.dump"
}

# perf reads FILE without a complaint: exit 0, nothing about the file
perf_clean() { # NAME; the outputs go to NAME.report, NAME.header, NAME.script
	for what in report header script; do
		case $what in
		report) cmd="report --stdio" ;;
		header) cmd="report --header-only" ;;
		script) cmd="script" ;;
		esac
		# shellcheck disable=SC2086
		run perf $cmd -i "$TMP/$1.data"
		expect_rc 0 "perf $cmd -i $1.data"
		cp "$TMP/out" "$TMP/$1.$what"
		if grep -qiE 'warning|failed|incompatible|error|unknown|not supported|invalid' "$TMP/err"; then
			fail "perf $cmd -i $1.data: $(cat "$TMP/err")"
		fi
		ok
	done
}

# --- our writer, fixed bytes: two events in a group, 40 samples ----------
run "$PDUMP" --write-sample "$TMP/s.data"
expect_rc 0 "write sample"
dump s
dump_has s "attr 0: type 1 config 0 sample_type 0x10107 sample_id_all 1 ids 2 name cpu-clock"
dump_has s "attr 1: type 1 config 0x1 sample_type 0x10107 sample_id_all 1 ids 2 name task-clock"
dump_has s "hostname: cyctop-sample"
dump_has s "cmdline: cyctop record -e cpu-clock,task-clock -- sample"
dump_has s "pmu: perf"
dump_has s "blob: 41 bytes"
dump_has s "group: {anon_group} leader 0 members 2"
dump_has s "build id: pid -1 user deadbeef0102030405060708090a0b0c0d0e0f10 /nonexistent/cyctop-sample"
dump_has s "type 9: 40"
dump_has s "samples of attr 0: 20"
dump_has s "samples of attr 1: 20"
dump_has s "undecoded samples: 0"

if ! command -v perf >/dev/null 2>&1; then
	echo "SKIP: perf is not installed (our side passed: $CHECKS checks)"
	exit 77
fi

perf_clean s
grep -qF "# hostname : cyctop-sample" "$TMP/s.header" || fail "header: $(cat "$TMP/s.header")"
ok
grep -qF "# event : name = task-clock" "$TMP/s.header" || fail "event desc not read by perf"
ok
grep -qF "# group: {cpu-clock,task-clock}" "$TMP/s.header" || fail "group desc not read by perf"
ok
grep -qF "# Samples: 40  of events 'anon group { cpu-clock, task-clock }'" "$TMP/s.report" ||
	fail "perf report: $(cat "$TMP/s.report")"
ok
[ "$(grep -c 'cyctop-sample' "$TMP/s.script")" -eq 40 ] || fail "perf script: $(cat "$TMP/s.script")"
ok

# --- perf's file, read by us ------------------------------------------------
run perf record -q -e cpu-clock -o "$TMP/p.data" -- "$WORKLOADS/mix" 0.3
if [ "$RC" -ne 0 ]; then
	echo "SKIP: perf record failed: $(cat "$TMP/err")"
	exit 77
fi
dump p
grep -qE '^attr 0: type 1 config 0 sample_type 0x107 sample_id_all 1 ids [1-9][0-9]* name cpu-clock$' \
	"$TMP/p.dump" || fail "attr: $(cat "$TMP/p.dump")"
ok
dump_has p "hostname: $(uname -n)"
dump_has p "arch: $(uname -m)"
dump_has p "undecoded samples: 0"
grep -q '^cmdline: .*perf record -q -e cpu-clock' "$TMP/p.dump" || fail "cmdline: $(cat "$TMP/p.dump")"
ok
grep -q '^build id: pid -1 ' "$TMP/p.dump" || fail "no build ids: $(cat "$TMP/p.dump")"
ok
n=$(dump_num p "type 9")
[ "${n:-0}" -gt 100 ] || fail "only ${n:-0} samples in perf's file"
ok
run perf script -F ip -i "$TMP/p.data"
expect_rc 0 "perf script p.data"
[ "$(grep -c . "$TMP/out")" -eq "$n" ] || fail "perf script: $(grep -c . "$TMP/out") samples, we read $n"
ok

# --- perf's records through our writer: perf sees the same ------------------
run "$PDUMP" --copy "$TMP/p.data" "$TMP/c.data"
expect_rc 0 "copy"
dump c
dump_has c "pmu: perf"
grep -v -e '^data:' -e '^pmu:' -e '^blob:' "$TMP/p.dump" >"$TMP/p.cmp"
grep -v -e '^data:' -e '^pmu:' -e '^blob:' "$TMP/c.dump" >"$TMP/c.cmp"
cmp -s "$TMP/p.cmp" "$TMP/c.cmp" || fail "the copy reads differently: $(diff "$TMP/p.cmp" "$TMP/c.cmp")"
ok
for cmd in "report --stdio" "script"; do
	# shellcheck disable=SC2086
	perf $cmd -i "$TMP/p.data" >"$TMP/p.out" 2>"$TMP/p.err"
	# shellcheck disable=SC2086
	run perf $cmd -i "$TMP/c.data"
	expect_rc 0 "perf $cmd -i c.data"
	grep -v '^#' "$TMP/p.out" >"$TMP/p.cmp"
	grep -v '^#' "$TMP/out" >"$TMP/c.cmp"
	cmp -s "$TMP/p.cmp" "$TMP/c.cmp" ||
		fail "perf $cmd differs on the copy: $(diff "$TMP/p.cmp" "$TMP/c.cmp" | head -n 20)"
	ok
	sed "s|$TMP/p.data|FILE|g" "$TMP/p.err" >"$TMP/p.cmp"
	sed "s|$TMP/c.data|FILE|g" "$TMP/err" >"$TMP/c.cmp"
	cmp -s "$TMP/p.cmp" "$TMP/c.cmp" || fail "perf $cmd says more on the copy: $(cat "$TMP/err")"
	ok
done
run perf report --header-only -i "$TMP/c.data"
expect_rc 0 "perf report --header-only c.data"
expect_out "# event : name = cpu-clock" "event desc in the copy"
expect_out "# cmdline : $(sed -n 's/^cmdline: //p' "$TMP/p.dump")" "cmdline in the copy"
cpuid=$(sed -n 's/^cpuid: //p' "$TMP/p.dump")
[ "$cpuid" = "(none)" ] || expect_out "# cpuid : $cpuid" "cpuid in the copy"
grep -qiE 'warning|failed|unknown' "$TMP/err" && fail "header-only: $(cat "$TMP/err")"
ok

# --- an unfinished recording: data size 0, nothing after the data -----------
python3 - "$TMP/p.data" "$TMP/u.data" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
off, size = struct.unpack_from("<QQ", b, 40)
u = bytearray(b[:off + size])
struct.pack_into("<Q", u, 48, 0)
open(sys.argv[2], "wb").write(u)
PY
dump u
grep -q '^data: offset .* (unfinished)$' "$TMP/u.dump" || fail "not unfinished: $(cat "$TMP/u.dump")"
ok
dump_has u "type 9: $n"
dump_has u "hostname: (none)"

done_ok
