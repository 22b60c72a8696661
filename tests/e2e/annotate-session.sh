#!/bin/sh
# The asm view's must-shows through hand-made Core2 sessions (our machines
# have no PMU; tests/e2e/mk-session writes what perf record would):
#  1. stall vs penalty cycles: L2-miss samples in two blocks of work_60, stall
#     samples in only one of them; the view marks the first "stalled" and the
#     other "hidden".
#  2. loop iterations from INST_RETIRED.ANY_P: a real measurement of mix's
#     work_60 under callgrind (every instruction executed, counted per
#     address), turned into samples at SAV 9973; the loop found and its
#     iterations equal to the known trip count x calls within SAV rounding.
#     Skipped (77) without valgrind, after part 1 has passed.
. "$SRCDIR/tests/e2e/lib.sh"

MIX="$WORKLOADS/mix"
MK="$(dirname "$CYCTOP")/tests/e2e/mk-session"
CPUID="GenuineIntel,6,23,10"
FN=work_60

# py FILE EXPR: EXPR (python, over o = the JSON object of FILE) printed
py() {
	python3 - "$1" "$2" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
def addr(x):
    return int(x, 16)
def block_of(a):
    return [b for b in o["blocks"] if addr(b["first"]) <= a <= addr(b["last"])][0]
def insn(a):
    return [i for i in o["instructions"] if addr(i["address"]) == a][0]
def event(name):
    return [e for e in o["events"] if e["name"] == name][0]
print(eval(sys.argv[2]))
PY
}

# --- 0. the function's blocks, from cyctop's own decoding of a probe ------
printf 'CPU_CLK_UNHALTED.CORE,1000000\n' >"$TMP/probe.counts"
run "$MK" "$TMP/probe.data" core "$CPUID" "$TMP/probe.counts" "$MIX" $FN:1
expect_rc 0 "mk-session probe"
run "$CYCTOP" annotate $FN -i "$TMP/probe.data" --format json
expect_rc 0 "annotate the probe"
cp "$TMP/out" "$TMP/probe.json"
# cycles alone: no stall event, no event with a penalty: text says "-", not 0
run "$CYCTOP" annotate $FN -i "$TMP/probe.data" --format text
expect_rc 0 "annotate the probe, text"
awk '/^ *[0-9]+ .*[0-9a-f]+:  / { n++; if ($2 != "-" || $3 != "-") bad++ }
	END { exit !(n > 0 && !bad) }' "$TMP/out" ||
	fail "stall and penalty of a cycles-only session not '-': $(cat "$TMP/out")"
ok
# A: the loop's head block (its first two instructions); B: the first block
# outside any loop.  Offsets from the function's start.
offs=$(py "$TMP/probe.json" '" ".join("0x%x" % (v - addr(o["start"])) for v in [
    addr(o["loops"][0]["head"]),
    [addr(i["address"]) for i in o["instructions"] if addr(i["address"]) > addr(o["loops"][0]["head"])][0],
    addr([b for b in o["blocks"] if b["loop"] < 0][0]["first"]),
    addr(o["instructions"][1]["address"])])') || fail "probe: no loop or no block outside it"
set -- $offs
A1=$1 A2=$2 B=$3 SECOND=$4
[ "$(py "$TMP/probe.json" "block_of(addr(o['start']) + $A1) is block_of(addr(o['start']) + $A2) and block_of(addr(o['start']) + $A1) is not block_of(addr(o['start']) + $B)")" = True ] ||
	fail "probe: A ($A1, $A2) and B ($B) are not two blocks"
ok

# mk-session places samples at instruction starts only
printf 'CPU_CLK_UNHALTED.CORE,%s+0x%x,1\n' $FN $((SECOND - 1)) >"$TMP/mid.samples"
if [ $((SECOND)) -gt 1 ]; then
	run "$MK" -s "$TMP/mid.samples" "$TMP/mid.data" core "$CPUID" "$TMP/probe.counts" "$MIX"
	[ "$RC" -ne 0 ] || fail "mk-session accepted $FN+$(printf 0x%x $((SECOND - 1))), mid-instruction"
	expect_err "not an instruction start" "mk-session says why"
fi

# --- 1. stalled vs hidden -----------------------------------------------------
# SAVs: L2 misses 10,000 (the paper's), stall cycles 100,000.  Block A: 10
# L2 misses = 10 x 10,000 x 165 = 16.5 M penalty cycles (desktop) and 165
# stall samples = 16.5 M stall cycles: they coincide.  Block B: 20 L2 misses
# = 33 M penalty cycles, no stall cycle: the out-of-order engine hid them.
# CPU_CLK_UNHALTED.CORE keeps the spread by weight (at the function start).
cat >"$TMP/stall.counts" <<EOF
CPU_CLK_UNHALTED.CORE,1000000000
RS_UOPS_DISPATCHED.CYCLES_NONE,165,100000
MEM_LOAD_RETIRED.L2_LINE_MISS,30,10000
EOF
cat >"$TMP/stall.samples" <<EOF
# EVENT,FUNCTION+0xOFF,COUNT
RS_UOPS_DISPATCHED.CYCLES_NONE,$FN+$A1,100
RS_UOPS_DISPATCHED.CYCLES_NONE,$FN+$A2,65
MEM_LOAD_RETIRED.L2_LINE_MISS,$FN+$A1,6
MEM_LOAD_RETIRED.L2_LINE_MISS,$FN+$A2,4
MEM_LOAD_RETIRED.L2_LINE_MISS,$FN+$B,20
EOF
run "$MK" -s "$TMP/stall.samples" "$TMP/stall.data" core "$CPUID" "$TMP/stall.counts" "$MIX" $FN:1
expect_rc 0 "mk-session -s"
run "$CYCTOP" annotate $FN -i "$TMP/stall.data" --format json
expect_rc 0 "annotate the stall session"
cp "$TMP/out" "$TMP/stall.json"
S=$(py "$TMP/stall.json" "addr(o['start'])")
L2=MEM_LOAD_RETIRED.L2_LINE_MISS
ST=RS_UOPS_DISPATCHED.CYCLES_NONE
expect_true "$(py "$TMP/stall.json" "event('$L2')['sav'] == 10000 and event('$ST')['sav'] == 100000 and event('$ST')['stall'] and event('$L2')['penalty'] == 165")" \
	"SAVs from the attrs; the stall column and the L2-miss penalty"
expect_true "$(py "$TMP/stall.json" "insn($S + $A1)['samples']['$ST'] == 100 and insn($S + $A2)['samples']['$L2'] == 4 and insn($S + $B)['samples']['$L2'] == 20 and insn($S)['samples']['CPU_CLK_UNHALTED.CORE'] == event('CPU_CLK_UNHALTED.CORE')['samples'] > 0")" \
	"samples at the chosen instructions; the others spread as before"
# the paper's desktop L2-miss penalty, 165 cycles (arch/penalty.c): 16.5 M
# and 33 M penalty cycles, numbers from the paper, not from cyctop's output
expect_true "$(py "$TMP/stall.json" "block_of($S + $A1)['stall'] == 165 * 100000 and block_of($S + $A1)['penalty'] == 16500000 and block_of($S + $A1)['mark'] == 'stalled'")" \
	"block A: penalty cycles = stall cycles, marked stalled"
expect_true "$(py "$TMP/stall.json" "block_of($S + $B)['stall'] == 0 and block_of($S + $B)['penalty'] == 33000000 and block_of($S + $B)['mark'] == 'hidden'")" \
	"block B: penalty cycles without stalls, marked hidden"
expect_true "$(py "$TMP/stall.json" "insn($S + $A1)['mark'] == insn($S + $A2)['mark'] == 'stalled' and insn($S + $B)['mark'] == 'hidden' and all(i['mark'] == '' for i in o['instructions'] if i['penalty'] == 0)")" \
	"instruction marks: on the instructions with penalty cycles only"
A_STALL=$(py "$TMP/stall.json" "'%.0f stall / %.0f penalty' % (block_of($S + $A1)['stall'], block_of($S + $A1)['penalty'])")
B_STALL=$(py "$TMP/stall.json" "'%.0f stall / %.0f penalty' % (block_of($S + $B)['stall'], block_of($S + $B)['penalty'])")
# the text rows show both marks at those addresses
run "$CYCTOP" annotate $FN -i "$TMP/stall.data" --format text
expect_rc 0 "annotate text"
for m in "$A1 stalled" "$A2 stalled" "$B hidden"; do
	a=$(printf '%x' $((S + ${m% *})))
	awk -v a="$a:" -v m="${m#* }" '$0 ~ " " m " +" a " " { f = 1 } END { exit !f }' "$TMP/out" ||
		fail "text: no '${m#* }' row at $a: $(cat "$TMP/out")"
	ok
done

# --- 2. loop iterations from a callgrind measurement ----------------------------
# the workloads are never sanitized (workloads/local.mk): valgrind runs
# them in either build
if ! command -v valgrind >/dev/null 2>&1; then
	echo "SKIP: no valgrind; part 1 passed ($CHECKS checks), loop iterations not checked" >&2
	exit 77
fi
ITERS=$(sed -n 's/^#define ITERS_PER_CALL \([0-9]*\)UL.*/\1/p' "$SRCDIR/workloads/mix.c")
[ -n "$ITERS" ] || fail "ITERS_PER_CALL not found in workloads/mix.c"
# mix runs whole rounds until the process used SECONDS of CPU time, at
# least one: valgrind's own start takes ~0.2 s of it (more on a loaded
# machine, where CI once saw no round at all before mix ran at least one).
run valgrind --tool=callgrind --dump-instr=yes --compress-pos=no --compress-strings=no \
	--callgrind-out-file="$TMP/cg.out" "$MIX" 0.6
expect_rc 0 "valgrind --tool=callgrind mix"
nm -S "$MIX" | awk -v f=$FN '$4 == f { print "0x" $1, "0x" $2 }' >"$TMP/nm"
read -r NM_START NM_SIZE <"$TMP/nm" || fail "nm: no $FN in $MIX"
SAV=9973
# Ir per instruction of FN (callgrind repeats an address once per basic
# block it ends up in: summed), as offsets from the function's start, then
# samples = round(Ir / SAV).  Prints "calls loop_head_ir" on stdout.
python3 - "$TMP/cg.out" $FN "$NM_START" "$NM_SIZE" $SAV "$TMP/iters.samples" "$TMP/iters.counts" >"$TMP/cg.sum" <<'PY' ||
import sys
path, fn, start, size, sav, out_s, out_c = sys.argv[1:]
start, size, sav = int(start, 16), int(size, 16), int(sav)
ir, calls, cur, cfn, skip = {}, 0, None, None, False
for line in open(path):
    line = line.rstrip("\n")
    if skip:                      # the inclusive cost line of a call
        skip = False
        continue
    if line.startswith("fn="):
        cur = line[3:]
    elif line.startswith("cfn="):
        cfn = line[4:]
    elif line.startswith("calls="):
        skip = True
        if cfn == fn:
            calls += int(line[6:].split()[0])
    elif cur == fn and line.startswith("0x"):
        f = line.split()
        a = int(f[0], 16)
        ir[a] = ir.get(a, 0) + int(f[2])
if not ir:
    sys.exit("callgrind: no cost in " + fn)
# PIE: callgrind gives the ELF address or the runtime one; the entry runs
# on every call, so the lowest address is the function's start.
base = min(ir)
if not start <= base < start + size:
    if (base - start) % 4096:
        sys.exit("callgrind: %#x is not %s (%#x) moved by whole pages" % (base, fn, start))
offs = {a - base: n for a, n in ir.items()}
if max(offs) >= size:
    sys.exit("callgrind: cost past the end of " + fn)
total = 0
with open(out_s, "w") as f:
    for off in sorted(offs):
        n = (offs[off] + sav // 2) // sav
        if n:
            f.write("INST_RETIRED.ANY_P,%s+%#x,%d\n" % (fn, off, n))
            total += n
open(out_c, "w").write("INST_RETIRED.ANY_P,%d,%d\n" % (total, sav))
print(calls, offs.get(0, 0), " ".join("%#x:%d" % (o, offs[o]) for o in sorted(offs)))
PY
	fail "callgrind output: $(cat "$TMP/cg.sum")"
read -r CALLS ENTRY_IR IR_BY_OFF <"$TMP/cg.sum"
[ "$CALLS" -gt 0 ] && [ "$CALLS" = "$ENTRY_IR" ] ||
	fail "callgrind: $CALLS calls of $FN, its entry ran $ENTRY_IR times"
ok
KNOWN=$((ITERS * CALLS))
# the loop, independently of cyctop: objdump's one backward branch in FN
# ("HEAD TAIL INSTRUCTIONS-FROM-HEAD-TO-TAIL")
objdump -d --no-show-raw-insn "$MIX" | python3 -c '
import re, sys
fn, insns, edges = sys.argv[1], [], []
inside = False
for line in sys.stdin:
    if re.match(r"^[0-9a-f]+ <%s>:$" % re.escape(fn), line.strip()):
        inside = True
        continue
    if inside and not line.strip():
        break
    m = re.match(r"^\s*([0-9a-f]+):\s+(.*)$", line) if inside else None
    if not m:
        continue
    a = int(m.group(1), 16)
    insns.append(a)
    j = re.search(r"\s([0-9a-f]+) <%s\+0x[0-9a-f]+>$" % re.escape(fn), m.group(2))
    if j and m.group(2).startswith("j") and int(j.group(1), 16) <= a:
        edges.append((int(j.group(1), 16), a))
for h, t in edges:
    print("%#x %#x %d" % (h, t, sum(h <= a <= t for a in insns)))
' $FN >"$TMP/backedge"
[ "$(wc -l <"$TMP/backedge")" -eq 1 ] || fail "objdump: not one back-edge in $FN: $(cat "$TMP/backedge")"
read -r HEAD TAIL NBODY <"$TMP/backedge"
# valgrind agrees the head ran the trip count x calls times
echo " $IR_BY_OFF " | grep -q " $(printf '0x%x' $((HEAD - NM_START))):$KNOWN " ||
	fail "callgrind: the loop head did not run $ITERS x $CALLS times: $IR_BY_OFF"
ok

run "$MK" -s "$TMP/iters.samples" "$TMP/iters.data" core "$CPUID" "$TMP/iters.counts" "$MIX"
expect_rc 0 "mk-session from callgrind's counts"
run "$CYCTOP" annotate $FN -i "$TMP/iters.data" --format json
expect_rc 0 "annotate the callgrind session"
cp "$TMP/out" "$TMP/iters.json"
expect_true "$(py "$TMP/iters.json" "len(o['loops']) == 1 and addr(o['loops'][0]['head']) == $HEAD and addr(o['loops'][0]['tail']) == $TAIL and o['loops'][0]['instructions'] == $NBODY and o['loops'][0]['depth'] == 1")" \
	"one loop, objdump's back-edge $HEAD..$TAIL, $NBODY instructions"
EST=$(py "$TMP/iters.json" "'%.1f' % o['loops'][0]['iterations']")
# Tolerance: each instruction's samples are its Ir rounded to whole SAVs, off
# by at most SAV/2 events; the body's n instructions each ran exactly the
# trip count, so the estimate (their sum x SAV / n) is off by at most SAV/2
# iterations (plus float slack), whatever the number of calls.
awk -v e="$EST" -v k="$KNOWN" -v s=$SAV 'BEGIN { d = e - k; if (d < 0) d = -d; exit !(d <= s / 2 + 0.01) }' ||
	fail "loop iterations: cyctop $EST, known $ITERS x $CALLS = $KNOWN (tolerance $SAV/2)"
ok
echo "annotate-session: block A $A_STALL ($(py "$TMP/stall.json" "block_of($S + $A1)['mark']")), block B $B_STALL ($(py "$TMP/stall.json" "block_of($S + $B)['mark']")); loop $HEAD..$TAIL: $EST iterations estimated, $KNOWN known ($ITERS x $CALLS calls), SAV $SAV" >&2

done_ok
