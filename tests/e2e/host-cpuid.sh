#!/bin/sh
# A host whose CPUID libpfm4 recognizes but whose kernel has no PMU (a VM on
# an Ice Lake class CPU: "no PMU driver, software events only").  libpfm4's
# LIBPFM_FORCE_PMU stands for the CPUID it sees; the kernel is this machine's.
# cyctop must believe the kernel: the one-line notice, cpu-clock for cycles,
# PMU none in the header, every command working on software events.
. "$SRCDIR/tests/e2e/lib.sh"

if [ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ]; then
	echo "SKIP: this kernel has a hardware PMU: the case is a kernel without one"
	exit 77
fi
LIBPFM_FORCE_PMU=icl
export LIBPFM_FORCE_PMU

run "$CYCTOP" -b -n 1 -- sleep 1
expect_rc 0 "cyctop -b -n 1 -- sleep 1"
expect_err "no hardware PMU on this host: counting cpu-clock instead of cycles" "notice"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "more than one line on stderr: $(cat "$TMP/err")"
ok
expect_out "PMU none (software events only)" "header"
expect_out "cpu-clock" "cpu-clock counted"

run "$CYCTOP" -b --format json -e cycles,page-faults -- "$WORKLOADS/faults" 200
expect_rc 0 "two events"
expect_true "$(json_last "$TMP/out" 'event("cpu-clock")["samples"] > 0 and event("page-faults")["samples"] >= 200')" \
	"cpu-clock and page-faults counted"

# icl's own events: one line saying why, exit 1
run "$CYCTOP" -b -n 1 -e INST_RETIRED:ANY_P -- true
expect_rc 1 "a hardware event of the CPUID's model"
grep -qE "no hardware PMU|kernel has no PMU" "$TMP/err" || fail "reason not named: $(cat "$TMP/err")"
ok

# recording and reading back; annotate on a software event
run "$CYCTOP" record -o "$TMP/s.data" -- "$WORKLOADS/mix" 1
expect_rc 0 "record"
run "$CYCTOP" -b -n 1 -i "$TMP/s.data"
expect_rc 0 "read the recording"
expect_out "work_60" "functions of the recording"
run "$CYCTOP" list models
expect_rc 0 "list models"
expect_out "perf" "perf model listed"
done_ok
