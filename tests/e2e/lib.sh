# Shared by the end-to-end shell tests.  $CYCTOP and $SRCDIR come from make.
set -u
: "${CYCTOP:?run through make check}"
: "${SRCDIR:?run through make check}"
EX="$SRCDIR/examples"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cyctop-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
CHECKS=0
SKIPPED_PARTS=0

KEEP=""

fail() {
	printf 'FAIL: %s\n' "$*" >&2
	keep_files
	exit 1
}

# keep_on_fail FILE...: on a failure, FILEs (a recording that no second
# run reproduces) are copied beside the test's log, into
# tests/e2e/kept/NAME/ of the build, and the log says where
keep_on_fail() {
	KEEP="$KEEP $*"
}

keep_files() {
	[ -n "$KEEP" ] || return 0
	_kdir="$(dirname "$CYCTOP")/tests/e2e/kept/$(basename "$0" .sh)"
	mkdir -p "$_kdir" && cp $KEEP "$_kdir"/ 2>/dev/null &&
		printf 'kept for a second look: %s\n' "$_kdir" >&2
}

ok() {
	CHECKS=$((CHECKS + 1))
}

# run CMD...: stdout in $TMP/out, stderr in $TMP/err, status in $RC
run() {
	RC=0
	"$@" >"$TMP/out" 2>"$TMP/err" || RC=$?
}

expect_rc() { # WANT DESC
	[ "$RC" -eq "$1" ] || fail "$2: exit $RC, want $1; stderr: $(cat "$TMP/err")"
	ok
}

expect_out() { # FIXED-STRING DESC
	grep -qF -- "$1" "$TMP/out" || fail "$2: '$1' not in output: $(head -c 2000 "$TMP/out")"
	ok
}

expect_err() { # FIXED-STRING DESC
	grep -qF -- "$1" "$TMP/err" || fail "$2: '$1' not in stderr: $(cat "$TMP/err")"
	ok
}

# csv_value ID: the value column of row ID in $TMP/out
csv_value() {
	awk -F, -v id="$1" '$1 == id { print $2 }' "$TMP/out"
}

# expect_near ID WANT REL: |value - WANT| <= REL * |WANT|
expect_near() {
	got=$(csv_value "$1")
	[ -n "$got" ] || fail "no row $1"
	awk -v g="$got" -v w="$2" -v r="$3" 'BEGIN {
		d = g - w; if (d < 0) d = -d; a = w < 0 ? -w : w;
		exit !(d <= r * a + 1e-12) }' || fail "$1 = $got, want $2 (rel $3)"
	ok
}

# host_has_pmu: the kernel drives a core PMU (x86 cpu, cpu_core/cpu_atom,
# arm64 armv8_*): then cyctop's default event is cycles, else cpu-clock.
host_has_pmu() {
	for _d in /sys/bus/event_source/devices/cpu /sys/bus/event_source/devices/cpu_core \
		/sys/bus/event_source/devices/armv8_*; do
		[ -e "$_d" ] && return 0
	done
	return 1
}
if host_has_pmu; then DEFAULT_EVENT=cycles; else DEFAULT_EVENT=cpu-clock; fi

# The event a script samples where any event would do: cpu-clock (software:
# every host counts it), or CYCTOP_TEST_EVENT, which the arm64 guest sets to
# cycles (its PMU's, through the kernel's armv8_pmuv3 driver; a cycle there
# is a nanosecond of virtual time, so cpu-clock's periods carry over).
# json_last's expressions name it TEST_EVENT.
TEST_EVENT=${CYCTOP_TEST_EVENT:-cpu-clock}
CYCTOP_TEST_EVENT=$TEST_EVENT
export CYCTOP_TEST_EVENT

# skip_part REASON: a part of this test did not run; the test goes on.  The
# line is counted by build.sh's summary (a silent skip would read as a pass).
skip_part() {
	SKIPPED_PARTS=$((SKIPPED_PARTS + 1))
	printf 'SKIP-PART: %s: %s\n' "$(basename "$0")" "$*"
}

done_ok() {
	if [ "$SKIPPED_PARTS" -gt 0 ]; then
		printf 'PASS: %s (%d checks, %d parts skipped)\n' "$(basename "$0")" "$CHECKS" "$SKIPPED_PARTS"
	else
		printf 'PASS: %s (%d checks)\n' "$(basename "$0")" "$CHECKS"
	fi
	exit 0
}

# wait_for COND-COMMAND TIMEOUT-SECONDS DESC: poll, never a bare sleep
wait_for() {
	_t=0
	while ! eval "$1"; do
		_t=$((_t + 1))
		if [ "$_t" -gt $(($2 * 20)) ]; then
			command -v screen_dump >/dev/null 2>&1 && screen_dump >&2
			fail "timed out waiting for: $3"
		fi
		sleep 0.05
	done
}

# jq-like helpers on cyctop's batch JSON (one object per line), via python3
json_last() { # FILE PYTHON-EXPRESSION over o (the last object)
	python3 - "$1" "$2" <<'PY'
import json, os, sys
TEST_EVENT = os.environ["CYCTOP_TEST_EVENT"]
lines = [l for l in open(sys.argv[1]) if l.strip()]
o = json.loads(lines[-1])
def pct(name, ev):
    return sum(f["percent"].get(ev, 0) for f in o["functions"] if f["name"] == name)
def samples(name, ev):
    return sum(f["samples"].get(ev, 0) for f in o["functions"] if f["name"] == name)
def event(ev):
    return [e for e in o["events"] if e["name"] == ev][0]
print(eval(sys.argv[2]))
PY
}

# perf report's percentage of SYMBOL in perf.data FILE (0 if absent)
perf_pct() { # FILE SYMBOL
	perf report -i "$1" --stdio --sort symbol 2>/dev/null |
		awk -v s="$2" '$1 ~ /%$/ && $3 == s { sub("%", "", $1); print $1; f = 1 } END { if (!f) print 0 }'
}

# expect_true PYTHON-BOOL-RESULT DESC
expect_true() {
	[ "$1" = "True" ] || fail "$2"
	ok
}

# replay_corpus NAME DIR: the fuzz target tests/fuzz/fuzz-NAME (a plain program
# under make check) replays every file of its seed corpus DIR, then each
# seed cut in half: errors at most, never a crash.
replay_corpus() {
	_fuzz=$(dirname "$CYCTOP")/tests/fuzz/fuzz-$1
	run "$_fuzz" "$2"
	expect_rc 0 "replay the corpus"
	expect_out "fuzz-$1: replayed $(ls "$2" | wc -l) inputs" "every seed"
	mkdir "$TMP/half-$1"
	for _f in "$2"/*; do
		_n=$(wc -c <"$_f")
		head -c $((_n / 2)) "$_f" >"$TMP/half-$1/$(basename "$_f")"
	done
	run "$_fuzz" "$TMP/half-$1"
	expect_rc 0 "replay the halves"
}

# cgroup_v2_root: V2, the cgroup2 mount, or SKIP (not root, no mount).
cgroup_v2_root() {
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: making a cgroup needs root"; exit 77; }
	V2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
	[ -n "$V2" ] || { echo "SKIP: no cgroup v2 mount"; exit 77; }
}

# make_cgroups DIR...: the cgroups under $V2, or SKIP
make_cgroups() {
	mkdir "$@" || { echo "SKIP: cannot make a cgroup under $V2"; exit 77; }
}

# in_cgroup DIR PROGRAM ARGS...: PROGRAM in cgroup DIR, in the background
# (its pid in $!), its output thrown away
in_cgroup() {
	_cg=$1
	shift
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$_cg" "$@" >/dev/null 2>&1 &
}

# offcpu_or_skip: OFFCPU, workloads/offcpu, with perf here and switch-out
# stacks allowed (root or perf_event_paranoid <= 1), or SKIP
offcpu_or_skip() {
	OFFCPU="$WORKLOADS/offcpu"
	[ -x "$OFFCPU" ] || { echo "SKIP: no $OFFCPU"; exit 77; }
	command -v perf >/dev/null 2>&1 || { echo "SKIP: no perf"; exit 77; }
	if [ "$(id -u)" -ne 0 ] && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 1 ]; then
		echo "SKIP: switch-out stacks need perf_event_paranoid <= 1 or root"
		exit 77
	fi
}

# callers_fp_recording: workloads/callers built here with frame pointers
# (the installed one omits them for the DWARF tests) as $TMP/callfp, and
# a second of it recorded by perf record -g into $TMP/fp.data; or SKIP
callers_fp_recording() {
	command -v perf >/dev/null 2>&1 || { echo "SKIP: no perf"; exit 77; }
	command -v cc >/dev/null 2>&1 || { echo "SKIP: no C compiler"; exit 77; }
	cc -O2 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls \
		-fno-inline-functions-called-once -I"$SRCDIR" -o "$TMP/callfp" \
		"$SRCDIR/workloads/callers.c" || fail "building callers with frame pointers"
	perf record -q -g -e cpu-clock -o "$TMP/fp.data" -- "$TMP/callfp" 1 >/dev/null 2>&1 ||
		{ echo "SKIP: perf record -g -e cpu-clock failed"; exit 77; }
}
