#!/bin/sh
# Sessions as perf.data: cyctop record read by perf report, perf record read
# by cyctop -i (same functions and shares), hand-made Core2 and AMD files with
# raw events named back through the model tables, missing binaries, --symfs,
# and one-line errors for bad files.
. "$SRCDIR/tests/e2e/lib.sh"

MIX="$WORKLOADS/mix"
FAULTS="$WORKLOADS/faults"
MK="$(dirname "$CYCTOP")/tests/e2e/mk-session"

# perf_shares FILE: "event dso function percent" lines of perf report on
# FILE (its Overhead column: samples weighed by their periods), then
# "event dso * percent" for each module from perf's own module rows (a sum
# of rounded function rows drifts: 30 one-sample rows of 0.0251 % print 0.03)
perf_shares() {
	for sort in dso,sym dso; do
		perf report -i "$1" --stdio -n --sort $sort --percent-limit 0 2>/dev/null | python3 -c '
import re, sys
ev = None
for line in sys.stdin:
    m = re.match(r"# Samples: .* of event .(.*).$", line.strip())
    if m:
        ev = re.sub(r":u$", "", m.group(1))
        continue
    f = line.split()
    if ev and len(f) >= 5 and f[0].endswith("%") and f[3].startswith("["):
        print(ev, f[2], f[4], f[0][:-1])
    elif ev and len(f) == 3 and f[0].endswith("%") and sys.argv[1] == "dso":
        print(ev, f[2], "*", f[0][:-1])
' $sort
	done
}

# compare_shares PERF-SHARES-FILE CYCTOP-JSON BINARY: every module's share,
# and every function of BINARY (the workload's own code), are perf report's:
# the same file read twice, so within perf's rounding to 0.01 and the sum
# of cyctop's rows rounded to 0.0001.  (Inside libc and ld.so the two
# tools may name an address by different aliases: modules compare there.)
# The PLT's stubs compare in total: perf 6.1 names some of them after
# .rela.plt's order, and a stub it names none of lies in _init's row (_init
# has no size: perf stretches it to its next symbol); cyctop names each as
# objdump does (real-programs.sh compares the names where perf's are
# right), and the PLT's header, which neither names, by its address.  A
# rare sample there, in a lazy binding, once failed here.
compare_shares() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, os, re, subprocess, sys
plt = []  # .init and the PLT sections, [start, end): their span
try:
    sections = subprocess.run(["readelf", "-SW", sys.argv[3]], capture_output=True,
                              text=True).stdout
except FileNotFoundError:  # the arm64 guest has no binutils: names only
    sections = ""
for line in sections.splitlines():
    m = re.search(r"\] (\.init|\.plt\S*) +\S+ +([0-9a-f]+) [0-9a-f]+ ([0-9a-f]+)", line)
    if m:
        plt.append((int(m.group(2), 16), int(m.group(2), 16) + int(m.group(3), 16)))
def key(fn):
    a = int(fn, 16) if re.fullmatch(r"0x[0-9a-f]+", fn) else -1
    if fn == "_init" or fn.endswith("@plt") or (plt and min(plt)[0] <= a < max(plt)[1]):
        return "[PLT stubs and _init]"
    return fn
perf_fn, perf_dso, nrows = {}, {}, {}
for line in open(sys.argv[1]):
    ev, dso, fn, pct = line.split()
    if fn == "*":
        perf_dso[(ev, dso)] = float(pct)
    elif dso == os.path.basename(sys.argv[3]):
        perf_fn[(ev, key(fn))] = perf_fn.get((ev, key(fn)), 0) + float(pct)
        nrows[(ev, key(fn))] = nrows.get((ev, key(fn)), 0) + 1
o = json.loads([l for l in open(sys.argv[2]) if l.strip()][-1])
def cy_fn(ev, fn):
    return sum(f["percent"].get(ev, 0) for f in o["functions"]
               if key(f["name"]) == fn and f["module"] == sys.argv[3])
def cy_rows(ev, dso):
    return [f["percent"].get(ev, 0) for f in o["functions"]
            if os.path.basename(f["module"]) == dso]
bad = []
for (ev, fn), p in perf_fn.items():
    if abs(cy_fn(ev, fn) - p) > 0.0051 * nrows[(ev, fn)]:  # each perf row rounded
        bad.append("%s %s: perf %.2f cyctop %.4f" % (ev, fn, p, cy_fn(ev, fn)))
for (ev, dso), p in perf_dso.items():
    rows = cy_rows(ev, dso)
    if abs(sum(rows) - p) > 0.0051 + 0.00005 * len(rows):
        bad.append("%s %s: perf %.2f cyctop %.4f" % (ev, dso, p, sum(rows)))
if not perf_fn or not perf_dso:
    bad.append("perf report printed nothing of " + sys.argv[3])
print("; ".join(bad) if bad else "same")
PY
}

# --- cyctop record, then perf report and cyctop -i on the same file --------
run "$CYCTOP" record -o "$TMP/rec.data" -e "$TEST_EVENT",page-faults -- "$MIX" 2
expect_rc 0 "cyctop record"
expect_err "written to $TMP/rec.data" "record says where"
run perf report -i "$TMP/rec.data" --stdio --sort sym
expect_rc 0 "perf report reads cyctop's file"
grep -qi "warning\|error\|incompatible" "$TMP/err" && fail "perf report complained: $(cat "$TMP/err")"
# rounds as perf record ends them (readers deliver up to each, not queue
# the whole file): a FINISHED_ROUND after every poll's records, 2 s of them
rounds=$(perf report -D -i "$TMP/rec.data" 2>/dev/null | grep -c 'PERF_RECORD_FINISHED_ROUND')
[ "$rounds" -ge 2 ] || fail "cyctop record wrote $rounds FINISHED_ROUND records"
ok
perf_shares "$TMP/rec.data" >"$TMP/rec.perf"
grep -q "^$TEST_EVENT mix work_60 " "$TMP/rec.perf" || fail "perf report: no work_60 in $(cat "$TMP/rec.perf")"
run "$CYCTOP" -b -i "$TMP/rec.data" --format json
expect_rc 0 "cyctop -i its own file"
cp "$TMP/out" "$TMP/rec.json"
r=$(compare_shares "$TMP/rec.perf" "$TMP/rec.json" "$MIX")
[ "$r" = same ] || fail "cyctop record file: $r"
ok
# multiplexed: the internal reference's fds carry the side-band records, so
# its attr is in the file too (perf needs it), and cyctop skips it
# (software events take counters on the software model, a host without a
# PMU; where there is one they take none, and --counters 1 leaves them one
# group: nothing multiplexed to record)
if host_has_pmu; then
	skip_part "a multiplexed recording of software events: this host has a PMU, on which they take no counter"
else
	run "$CYCTOP" record --counters 1 -e page-faults,task-clock -o "$TMP/mux.data" -- "$MIX" 1
	expect_rc 0 "cyctop record --counters 1"
	run perf report -i "$TMP/mux.data" --stdio --sort sym
	expect_rc 0 "perf report reads a multiplexed recording"
	grep -qi "failed\|warning\|error" "$TMP/err" && fail "perf report on the multiplexed file: $(cat "$TMP/err")"
	run "$CYCTOP" -b -i "$TMP/mux.data" --format json
	expect_rc 0 "cyctop -i a multiplexed recording"
	expect_true "$(json_last "$TMP/out" "[e['name'] for e in o['events']] == ['page-faults', 'task-clock'] and o['groups'] == 2")" \
		"the user's events only, and the plan: $(json_last "$TMP/out" "[e['name'] for e in o['events']], o.get('groups')")"
fi
# the file keeps the watch's totals and command
expect_true "$(json_last "$TMP/rec.json" "o['target']['command'] == 'mix' and event(TEST_EVENT)['count'] > 1e9")" \
	"command and $TEST_EVENT count recorded"
# the asm view's data: annotate works on the file
run "$CYCTOP" annotate work_60 -i "$TMP/rec.data" --format csv
expect_rc 0 "annotate -i"
expect_out "work_60" "annotate -i names the function"

# --- perf record, then cyctop -i: the same shares as perf report ----------
if perf record -q -e "$TEST_EVENT",page-faults -o "$TMP/perf.data" -- "$FAULTS" 300 >/dev/null 2>&1 &&
	perf record -q -e "$TEST_EVENT" -o "$TMP/mix.data" -- "$MIX" 2 >/dev/null 2>&1; then
	for f in perf:$FAULTS mix:$MIX; do
		bin=${f#*:} f=${f%%:*}
		perf_shares "$TMP/$f.data" >"$TMP/$f.perf"
		run "$CYCTOP" -b -i "$TMP/$f.data" --format json
		expect_rc 0 "cyctop -i perf record's $f file"
		r=$(compare_shares "$TMP/$f.perf" "$TMP/out" "$bin")
		[ "$r" = same ] || fail "perf record $f file: $r"
		ok
	done
	# the weighing changes no figure read: the headers count the samples
	# and name the sums' unit, so stderr stays quiet about it
	! grep -qF "samples weighed by their periods" "$TMP/err" ||
		fail "freq mode said on stderr: $(cat "$TMP/err")"
	ok
	# a missing binary: its samples stay, in [unknown] of their module.  Each
	# case has its own HOME, so perf's build-id cache (~/.debug) is its own.
	mkdir -p "$TMP/symfs" "$TMP/home-gone" "$TMP/home-cached"
	cp "$MIX" "$TMP/mix-gone"
	cp "$MIX" "$TMP/mix-cached"
	HOME="$TMP/home-gone" perf record -q -N -e "$TEST_EVENT" -o "$TMP/gone.data" -- \
		"$TMP/mix-gone" 1 >/dev/null 2>&1 || fail "perf record mix-gone"
	HOME="$TMP/home-cached" perf record -q -e "$TEST_EVENT" -o "$TMP/cached.data" -- \
		"$TMP/mix-cached" 1 >/dev/null 2>&1 || fail "perf record mix-cached"
	mv "$TMP/mix-gone" "$TMP/symfs/"
	rm "$TMP/mix-cached"
	HOME="$TMP/home-gone" run "$CYCTOP" -b -i "$TMP/gone.data" --format json
	expect_rc 0 "a missing binary is not a failure"
	expect_true "$(json_last "$TMP/out" "any(f['name'] == '[unknown]' and f['module'].endswith('mix-gone') and f['percent'][TEST_EVENT] > 90 for f in o['functions'])")" \
		"missing binary: [unknown] in its module"
	HOME="$TMP/home-gone" run "$CYCTOP" -b -i "$TMP/gone.data" --symfs "$TMP/symfs" --format json
	expect_rc 0 "--symfs"
	expect_true "$(json_last "$TMP/out" "pct('work_60', TEST_EVENT) > 40")" "--symfs finds the binary"
	HOME="$TMP/home-cached" run "$CYCTOP" -b -i "$TMP/cached.data" --format json
	expect_rc 0 "a binary in perf's build-id cache"
	expect_true "$(json_last "$TMP/out" "pct('work_60', TEST_EVENT) > 40")" \
		"found by its build id in ~/.debug"
else
	skip_part "perf record unavailable here: perf's files not checked"
fi

# --- hand-made Core2 file: raw codes named back, tree and ILP filled -------
run "$MK" -c CPU_CLK_UNHALTED.BUS -c BUS_DRDY_CLOCKS.ALL_AGENTS "$TMP/core2-handmade.data" core \
	"GenuineIntel,6,23,10" "$EX/core2-handmade.counts" "$MIX" work_60:6 work_30:3 work_10:1
expect_rc 0 "mk-session core2"
run "$CYCTOP" -b -i "$TMP/core2-handmade.data" --format json
expect_rc 0 "cyctop -i core2-handmade.data"
cp "$TMP/out" "$TMP/core2.json"
expect_true "$(json_last "$TMP/core2.json" "event('RS_UOPS_DISPATCHED.CYCLES_NONE')['count'] == 420000000 and event('CPU_CLK_UNHALTED.BUS')['count'] == 125000000")" \
	"raw codes named by the Core2 tables; sampled and counted totals exact"
expect_true "$(json_last "$TMP/core2.json" "abs(pct('work_60', 'CPU_CLK_UNHALTED.CORE') - 60) < 0.5")" \
	"hand-made samples land in work_60"
# the tree of the file, computed by hand from the counts it was made from
# (the Core2 paper's equations, desktop penalties):
#   stalls S = RS_UOPS_DISPATCHED.CYCLES_NONE = 420 M; E = 1000 M - S = 580 M
#   retired = E x (UOPS_RETIRED.ANY + .FUSED) / RS_UOPS_DISPATCHED
#           = 580 M x 1250 / 1450 = 500 M; non-retired = E - 500 M = 80 M
#   l2_miss = 150 x 10,000 x 165 = 247.5 M; l2_hit = (6 M - 1.5 M) x 12 = 54 M
#   dtlb = 0.4 M x 10 = 4 M; br_miss_clear 20 M; unaccounted = the rest 94.5 M
#   ilp.k = (c>=k+1 inv) - (c>=k inv): 420 140 140 150 100 40 10 M
run "$CYCTOP" tree --arch core2 --format csv "$TMP/core2-handmade.data"
expect_rc 0 "cyctop tree on a session"
for row in cycles,1000000000 cycles.stalls,420000000 cycles.retired,500000000 \
	cycles.non_retired,80000000 cycles.stalls.l2_miss,247500000 \
	cycles.stalls.l2_hit,54000000 cycles.stalls.dtlb_miss,4000000 \
	cycles.stalls.br_miss_clear,20000000 cycles.stalls.unaccounted,94500000 \
	ilp.0,420000000 ilp.1,140000000 ilp.2,140000000 ilp.3,150000000 \
	ilp.4,100000000 ilp.5,40000000 ilp.6,10000000 uop_dispatch_rate,2.5 cpi,1.25; do
	expect_near "${row%,*}" "${row#*,}" 1e-9
done

# --- hand-made AMD file: the AMD tree ------------------------------------
run "$MK" "$TMP/amd-handmade.data" amd64_k8 "AuthenticAMD,15,65,2" "$EX/amd-matmul-dc.counts" \
	"$MIX" work_60:1
expect_rc 0 "mk-session amd"
run "$CYCTOP" tree --arch amd --format csv "$EX/amd-matmul-dc.counts"
cp "$TMP/out" "$TMP/amd-counts.csv"
run "$CYCTOP" tree --arch amd --format csv "$TMP/amd-handmade.data"
expect_rc 0 "cyctop tree on an AMD session"
diff "$TMP/amd-counts.csv" "$TMP/out" >/dev/null || fail "amd tree differs: $(diff "$TMP/amd-counts.csv" "$TMP/out" | head)"
ok
expect_out "dc.miss_ratio," "AMD tree filled"

# --- bad files: one line with the offset, non-zero exit -------------------
printf 'PERFILE2' >"$TMP/short.data"
run "$CYCTOP" -b -i "$TMP/short.data"
[ "$RC" -ne 0 ] || fail "a truncated header was accepted"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "truncated header: not one line: $(cat "$TMP/err")"
expect_err "short.data" "error names the file"
size=$(stat -c %s "$TMP/rec.data")
head -c $((size / 2)) "$TMP/rec.data" >"$TMP/half.data"
run "$CYCTOP" -b -i "$TMP/half.data"
[ "$RC" -ne 0 ] || fail "a file cut in half was accepted"
expect_err "offset" "the error gives the offset"
run "$CYCTOP" -b -i "$TMP/nonexistent.data"
[ "$RC" -ne 0 ] || fail "a missing file was accepted"

# The vDSO of a recording: perf keeps it in its build-id cache
# (~/.debug/[vdso]/ID/vdso); its functions are named from there, as perf
# report names them.  A HOME of its own: this recording's cache only.
cat >"$TMP/vdso.c" <<'C'
#include <time.h>
int main(void)
{
	struct timespec t;
	long n = 0;
	for (long i = 0; i < 5000000; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		n += t.tv_nsec;
	}
	return n == 42;
}
C
if cc -O2 -o "$TMP/vdso" "$TMP/vdso.c" && mkdir -p "$TMP/home-vdso" &&
	HOME="$TMP/home-vdso" perf record -q -e "$TEST_EVENT" -o "$TMP/vdso.data" -- "$TMP/vdso" \
		>/dev/null 2>&1; then
	p=$(HOME="$TMP/home-vdso" perf report -i "$TMP/vdso.data" --stdio --sort dso,sym -q 2>/dev/null |
		awk '$2 == "[vdso]" && $4 ~ /^__vdso_clock_gettime/ { sub("%", "", $1); print $1 }')
	run env HOME="$TMP/home-vdso" "$CYCTOP" -b -i "$TMP/vdso.data" --format json
	expect_rc 0 "cyctop -i with a vDSO"
	c=$(json_last "$TMP/out" 'sum(f["percent"][TEST_EVENT] for f in o["functions"] if f["name"] == "__vdso_clock_gettime" and f["module"] == "[vdso]")')
	[ -n "$p" ] || fail "perf report names no __vdso_clock_gettime"
	awk -v p="$p" -v c="$c" 'BEGIN { d = p - c; exit !(d < 0.05 && d > -0.05) }' ||
		fail "__vdso_clock_gettime: perf $p%, cyctop $c%"
	ok
else
	skip_part "the vDSO case: cc or perf record failed"
fi

done_ok
