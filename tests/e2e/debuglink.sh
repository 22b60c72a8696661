#!/bin/sh
# Separate debuginfo found by .gnu_debuglink, as libdwfl's standard search
# finds it (beside the binary, in its .debug directory, under
# /usr/lib/debug), without asking debuginfod: a stripped workloads/mix
# whose debug file lies beside it is profiled with its function names; a
# debug file of another build under that name is not taken.
. "$SRCDIR/tests/e2e/lib.sh"

command -v objcopy >/dev/null 2>&1 || { echo "SKIP: no objcopy"; exit 77; }
MIX="$WORKLOADS/mix"
mkdir "$TMP/bin" "$TMP/bin/.debug"
objcopy --only-keep-debug "$MIX" "$TMP/bin/mix.debug" || fail "objcopy --only-keep-debug"
objcopy --strip-all --add-gnu-debuglink="$TMP/bin/mix.debug" "$MIX" "$TMP/bin/mix" ||
	fail "objcopy --strip-all"
[ -z "$(nm "$TMP/bin/mix" 2>/dev/null | grep work_60)" ] || fail "mix not stripped"

# share_of FUNCTION: its share of cpu-clock in a watch of the stripped mix
share_of() {
	run "$CYCTOP" -b -e cpu-clock --format json -- "$TMP/bin/mix" 0.3
	expect_rc 0 "cyctop -- stripped mix"
	json_last "$TMP/out" "pct('$1', 'cpu-clock')"
}
for where in . .debug; do
	[ "$where" = . ] || mv "$TMP/bin/mix.debug" "$TMP/bin/.debug/mix.debug"
	got=$(share_of work_60)
	awk -v g="$got" 'BEGIN { exit !(g > 30) }' || fail "debug file in $where: work_60 $got %"
	ok
done

# another build's debug file under the same name: not this binary's.  Taken
# wrongly, it would name mix's code with callers' functions (leaf_work,
# caller_a, main...): the module's code keeps the names a stripped binary
# has, [mix+0xSTART] by its FDEs (or 0xADDR where none covers), none of
# callers'.
rm -f "$TMP/bin/.debug/mix.debug"
objcopy --only-keep-debug "$WORKLOADS/callers" "$TMP/bin/mix.debug" || fail "objcopy callers"
run "$CYCTOP" -b -e cpu-clock --format json -- "$TMP/bin/mix" 0.3
expect_rc 0 "cyctop -- stripped mix, another build's debug file"
expect_true "$(json_last "$TMP/out" "all(__import__('re').fullmatch(r'\\[mix\\+0x[0-9a-f]+\\]|0x[0-9a-f]{16}', f['name']) for f in o['functions'] if f['module'].endswith('/bin/mix')) and sum(f['percent']['cpu-clock'] for f in o['functions'] if f['module'].endswith('/bin/mix')) > 90")" \
	"another build's debug file was taken: $(tail -1 "$TMP/out" | head -c 600)"
done_ok
