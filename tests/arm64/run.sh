# The commands of one guest boot (tests/arm64/guest.sh), for the boot named
# in $1 (neoverse-n1, cortex-a57, max: one CPU; neoverse-n1-smp2: two, for
# -a only; neoverse-n1-e2e: the end-to-end scripts of tests/e2e/;
# neoverse-n1-selftest: cyctop selftest).  Each
# command's stdout and stderr are printed between "@@OUT NAME@@" and "@@RC NAME N@@" lines; the host
# side (tests/arm64/checks.py) asserts on them.  Workloads are small: the
# guest runs about 1G instructions a second.
#
# Facts of QEMU 7.2's PMU that shape the commands (measured in this guest):
# - With -icount shift=0 cycles count instructions (IPC 1.00), exactly.
# - CPU_CYCLES overflows interrupt at every period (40M cycles at period
#   100000: 401 samples); INST_RETIRED's do not (some 10 samples over 40M
#   instructions at any period): sampling is checked on cycles:u.
# - An overflow interrupt moves the user-only counts a little (the
#   emulated PMU filters by exception level per translated block): exact
#   counts are compared on runs whose sampling periods are never reached.
# - perf's child has PERF_BUILDID_DIR and PREFIX in its environment and
#   perf's exec path first in PATH (tools/perf/perf.c, util/config.c):
#   every command here runs with that environment, else the dynamic
#   loader's and libc's start-up work differs by some instructions.
# - With two vCPUs QEMU interleaves them by host time: interrupts then land
#   at other points each run, and the user-only counts move by thousands
#   (measured on a loaded host); one vCPU keeps them reproducible, so only
#   -a runs on two.
# - arm_pmuv3 takes any raw event number (one the PMU lacks counts 0),
#   except CHAIN (0x1e), which it refuses on its own (EINVAL).
cpu=$1
SPIN=/bin/spin
ROUNDS=1000            # 1000 rounds of 10000 loop iterations: some 40M instructions
NOSAMPLE=1000000000    # a period no run reaches
export PATH=/usr/lib/perf-core:/bin PERF_BUILDID_DIR=/tmp/.debug PREFIX=/usr
# eight events of different names (a model names its raw codes back, so r08
# and instructions would be one column): the two QEMU counts, and six it
# accepts but never counts (refills, L1D accesses, front-end stalls: 0)
EIGHT="instructions:u/$NOSAMPLE,cycles:u/$NOSAMPLE,r01:u/$NOSAMPLE,r02:u/$NOSAMPLE"
EIGHT="$EIGHT,r03:u/$NOSAMPLE,r04:u/$NOSAMPLE,r05:u/$NOSAMPLE,r23:u/$NOSAMPLE"

run() { # NAME COMMAND...
	name=$1
	shift
	echo "@@OUT $name@@"
	timeout 120 "$@" 2>&1
	echo "@@RC $name $?@@"
}

# The end-to-end scripts of tests/e2e/ that tests/arm64/guest.sh put in /src
# (/e2e.list), in a boot of their own, run as make check runs them;
# CYCTOP_TEST_EVENT makes them sample the PMU's cycles where the x86 host
# samples cpu-clock (in this guest a cycle is a nanosecond of virtual time,
# so the periods carry over)
if [ "$cpu" = neoverse-n1-e2e ]; then
	for t in $(cat /e2e.list 2>/dev/null); do
		echo "@@OUT e2e-$t@@"
		t0=$(date +%s)
		CYCTOP=/bin/cyctop SRCDIR=/src WORKLOADS=/workloads CYCTOP_TEST_EVENT=cycles \
			timeout 900 sh "/src/tests/e2e/$t.sh" 2>&1
		rc=$?
		echo "e2e: $t ran $(($(date +%s) - t0)) s (virtual)"
		echo "@@RC e2e-$t $rc@@"
	done
	exit 0
fi

# neoverse-n1-selftest: cyctop selftest, whose counting, multiplexing and
# sampling tests must pass here (the PMU's counts are exact); then each
# check under the fault that must make it fail (CYCTOP_SELFTEST_FAULT:
# engine/selftest.h).  Some 2G instructions in all: a boot of its own
if [ "$cpu" = neoverse-n1-selftest ]; then
	echo "@@OUT selftest@@"
	timeout 500 cyctop selftest --format json --report /tmp/selftest.report 2>&1
	echo "@@RC selftest $?@@"
	run selftest-report cat /tmp/selftest.report
	for f in host:host scale:exact startup:perf counters:groups scale:mux split:sampling member:sampling \
		method:method scale:software; do
		echo "@@OUT selftest-fault-${f%%:*}-${f#*:}@@"
		CYCTOP_SELFTEST_FAULT="${f%%:*}" timeout 300 cyctop selftest --format json "${f#*:}" 2>&1
		echo "@@RC selftest-fault-${f%%:*}-${f#*:} $?@@"
	done
	exit 0
fi

if [ "$cpu" = neoverse-n1-smp2 ]; then
	# system-wide on two CPUs: cyctop -a starts (it reads the kernel's symbols
	# first), then one spin on each CPU; they end before cyctop does (an exit
	# while both CPUs spin takes the emulated kernel tens of seconds)
	cyctop -a -b --format json -n 1 -d 5 -e cycles/1000000 >/tmp/syswide.out 2>&1 &
	c=$!
	sleep 2
	$SPIN 30000 &
	p1=$!
	$SPIN 30000 &
	p2=$!
	wait $p1 $p2
	wait $c
	echo "syswide status $?" >>/tmp/syswide.out
	run syswide cat /tmp/syswide.out
	exit 0
fi

# what the kernel gives: PMUs, their types and cpus, the MIDR
run sysfs sh -c 'for d in /sys/bus/event_source/devices/*; do
	echo "$(basename $d) type=$(cat $d/type) cpus=$(cat $d/cpus 2>/dev/null)"
done; cat /sys/devices/system/cpu/cpu0/regs/identification/midr_el1'
# what the PMU's events take (format/) and its capabilities (caps/): a
# counter threshold (format/threshold, Linux 6.8+ on FEAT_PMUv3_TH) would
# make an ILP sweep
run pmu-format sh -c 'for d in /sys/bus/event_source/devices/armv*; do
	echo "$(basename $d) format: $(ls $d/format | tr "\n" " ")caps: $(ls $d/caps 2>/dev/null | tr "\n" " ")threshold_max: $(cat $d/caps/threshold_max 2>/dev/null || echo none)"
done'
run env sh -c 'perf stat -e dummy -o /dev/null -- /bin/busybox env | sort; echo ---; env | sort'

# exact counts: perf stat and cyctop (nothing sampled) on the same command
run perf-stat perf stat -x, -e instructions:u,cycles:u -- $SPIN $ROUNDS
run count cyctop -b --format json -e instructions:u/$NOSAMPLE,cycles:u/$NOSAMPLE -- $SPIN $ROUNDS
# sampling at SAV 100000, and the hotspots beside perf record's at that period
run sample cyctop -b --format json -e instructions:u/$NOSAMPLE,cycles:u/100000 -- $SPIN $ROUNDS
run perf-record perf record -q -o /tmp/perf.data -c 100000 -e cycles:u -- $SPIN $ROUNDS
run perf-report perf report -i /tmp/perf.data --stdio -q --sort sym
# the defaults on this host: hardware events, the header
run defaults-json cyctop -b --format json -- $SPIN $ROUNDS
run defaults-text cyctop -b -- $SPIN $ROUNDS
# an event the PMU lacks, a raw event the kernel rejects
run missing-hw cyctop -b -e branch-misses -- $SPIN 10
run missing-raw cyctop -b -e r1e:u -- $SPIN 10
# multiplexing: 8 events on the kernel's counters, in time slices and in runs
run perf-stat-4000 perf stat -x, -e instructions:u,cycles:u -- $SPIN 4000
run mux-time cyctop -b --format json --mux-slice 10 -e $EIGHT -- $SPIN 4000
run mux-runs cyctop -b --format json --mux runs -e $EIGHT -- $SPIN $ROUNDS
[ "$cpu" = neoverse-n1 ] || exit 0

# group reads and leader sampling: perf record's {a,b}:S read back by cyctop
run leader-record perf record -q -o /tmp/leader.data -c 100000 -e '{cycles:u,instructions:u}:S' -- $SPIN $ROUNDS
run leader-perf perf report -i /tmp/leader.data --stdio -q --sort sym
run leader-cyctop cyctop -b --format json -i /tmp/leader.data
# attach to a running process (spinning until killed)
$SPIN 0 &
pid=$!
run attach cyctop -b --format json -n 1 -d 0.3 -e cycles:u/100000 -p $pid
kill $pid
wait $pid
# cyctop record read back by perf report
run record cyctop record -o /tmp/cyctop.data -e cycles:u/100000 -- $SPIN $ROUNDS
run record-perf perf report -i /tmp/cyctop.data --stdio -q --sort sym
run record-cyctop cyctop -b --format json -i /tmp/cyctop.data
# the recording itself, for the x86 cyctop on the host (cross-architecture -i)
run record-base64 base64 /tmp/cyctop.data
# generic cycles without /SAV sample in frequency mode (4000 Hz, the kernel
# sets each period): the samples cyctop record says it wrote, perf report's
run record-freq cyctop record -o /tmp/freq.data -e cycles:u -- $SPIN $ROUNDS
run record-freq-perf perf report -i /tmp/freq.data --stdio -q -n --sort comm
# call stacks: frame pointers (spin) and dwarf (callers, built without
# them), each beside perf's stacks of the same command
run cg-fp cyctop -b --format folded --call-graph fp -e cycles:u/100000 -- $SPIN $ROUNDS
run perf-cg-fp sh -c "perf record -q -o /tmp/fp.data --call-graph fp -c 100000 -e cycles:u -- $SPIN $ROUNDS &&
	perf script --no-inline -i /tmp/fp.data -F ip,sym"
run cg-dwarf cyctop -b --format folded -g -e cycles:u/100000 -- /bin/callers 0.05
run perf-cg-dwarf sh -c 'perf record -q -o /tmp/dw.data --call-graph dwarf -c 100000 -e cycles:u -- /bin/callers 0.05 &&
	perf script --no-inline -i /tmp/dw.data -F ip,sym'
# the ILP view's reason, in batch: cyctop tree of a recording of the arm
# tree's events ends with the model's no_ilp line
run ilp-record cyctop record -o /tmp/arm.data -e @cycles -- $SPIN 100
run ilp-tree cyctop tree /tmp/arm.data
# the asm view's decoding, compared with objdump on the host
run annotate cyctop annotate spin_hot -e cycles:u/100000 -- $SPIN 100
run annotate-round cyctop annotate spin_round -e cycles:u/100000 -- $SPIN 100
