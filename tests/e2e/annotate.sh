#!/bin/sh
# cyctop annotate (the asm view in batch) against objdump and perf annotate:
# addresses, mnemonics, source lines, sample attribution, loops, and the
# hard cases (stripped binary, shared library, end of .text, bad bytes).
. "$SRCDIR/tests/e2e/lib.sh"

MIX="$WORKLOADS/mix"
command -v objdump >/dev/null || fail "objdump (binutils) is needed"

# compare.py MODE ARGS: comparisons of cyctop's JSON with objdump/perf.
cat >"$TMP/compare.py" <<'PY'
import json, re, subprocess, sys

def objdump(binary, func=None, lines=False):
    """{address: (mnemonic, 'file:line' or None)} from objdump -d -M intel."""
    cmd = ["objdump", "-d", "-M", "intel", "--no-show-raw-insn"]
    if lines:
        cmd.append("-l")
    if func:
        cmd.append("--disassemble=" + func)
    out = subprocess.run(cmd + [binary], capture_output=True, text=True).stdout
    insns, where = {}, None
    for l in out.splitlines():
        m = re.match(r"^(/\S+):(\d+)", l)
        if m:
            where = "%s:%s" % (m.group(1), m.group(2))
            continue
        if re.match(r"^[0-9a-f]+ <", l):
            where = None
        m = re.match(r"\s+([0-9a-f]+):\t(.*)$", l)
        if m:
            insns[int(m.group(1), 16)] = (m.group(2).strip(), where)
    return insns

# Same instruction, other spelling: objdump writes the 2-byte nop as
# "xchg ax,ax" and undecodable bytes as "(bad)".
ALIASES = {("nop", "xchg"), (".byte", "(bad)")}

def mnemonic(text):
    return text.split()[0] if text else ""

def same(mine, theirs):
    a, b = mnemonic(mine), mnemonic(theirs)
    return a == b or (a, b) in ALIASES

def load(path):
    return json.load(open(path))

def in_function(o, ref):
    """objdump lists a symbol up to the next one (alignment padding too)."""
    end = int(o["end"], 16)
    return {a: v for a, v in ref.items() if a < end}

def cmd_insns(jpath, binary, func):
    """Every instruction's address and mnemonic match objdump's listing."""
    o = load(jpath)
    ref = in_function(o, objdump(binary, func))
    mine = [(int(i["address"], 16), i["text"]) for i in o["instructions"]]
    if [a for a, _ in mine] != sorted(ref):
        return "addresses differ: %s vs %s" % ([hex(a) for a, _ in mine][:8],
                                               [hex(a) for a in sorted(ref)][:8])
    bad = [(hex(a), t, ref[a][0]) for a, t in mine if not same(t, ref[a][0])]
    return "mnemonics differ: %s" % bad[:5] if bad else "ok"

def cmd_lines(jpath, binary, func):
    """Each instruction's file:line is the one objdump -dl gives it."""
    o, ref = load(jpath), objdump(binary, func, lines=True)
    bad = []
    for i in o["instructions"]:
        a = int(i["address"], 16)
        mine = "%s:%d" % (i["file"], i["line"]) if i["file"] else None
        if ref[a][1] is not None and mine != ref[a][1]:
            bad.append((hex(a), mine, ref[a][1]))
    n = sum(1 for i in o["instructions"] if i["file"])
    return "mismatched lines: %s" % bad[:5] if bad or n == 0 else "ok"

def cmd_subset(jpath, binary):
    """Every instruction listed starts an instruction of objdump's listing."""
    o, ref = load(jpath), objdump(binary)
    bad = [i["address"] for i in o["instructions"] if int(i["address"], 16) not in ref]
    return "not instruction starts: %s" % bad[:5] if bad or not o["instructions"] else "ok"

def perf_annotate(data, func):
    out = subprocess.run(["perf", "annotate", "-i", data, "--stdio", "-s", func],
                         capture_output=True, text=True).stdout
    pct = {}
    for l in out.splitlines():
        m = re.match(r"\s*([0-9.]+)\s*:\s+([0-9a-f]+):", l)
        if m:
            pct[int(m.group(2), 16)] = float(m.group(1))
    return pct

def cmd_perf(jpath, data, func, tol):
    """The hottest instruction is perf's, and every instruction's share of
    the function's samples is within TOL points of perf's on the same run."""
    o, ref = load(jpath), perf_annotate(data, func)
    ev = o["events"][0]["name"]
    total = sum(i["samples"][ev] for i in o["instructions"])
    if not ref or total == 0:
        return "no samples (perf %d, cyctop %d)" % (len(ref), total)
    mine = {int(i["address"], 16): 100.0 * i["samples"][ev] / total for i in o["instructions"]}
    if max(mine, key=mine.get) != max(ref, key=ref.get):
        return "hottest differs: %x vs perf %x" % (max(mine, key=mine.get), max(ref, key=ref.get))
    far = [(hex(a), round(p, 1), ref.get(a, 0)) for a, p in mine.items()
           if abs(p - ref.get(a, 0)) > float(tol)]
    return "shares differ: %s" % far if far else "ok"

def cmd_csv(cpath, jpath):
    """The CSV rows are the JSON instructions."""
    import csv
    rows = list(csv.DictReader(open(cpath)))
    o = load(jpath)
    want = [(i["address"], i["text"]) for i in o["instructions"]]
    got = [(r["address"], r["instruction"]) for r in rows]
    return "ok" if got == want else "csv %s vs json %s" % (got[:3], want[:3])

def cmd_loop(jpath, binary, func):
    """One loop per backward branch target, its tail the last such branch."""
    o = load(jpath)
    ref = in_function(o, objdump(binary, func))
    back = {}
    for a, (text, _) in sorted(ref.items()):
        m = re.match(r"j\w+\s+([0-9a-f]+) <", text)
        if m and int(m.group(1), 16) <= a:
            back[int(m.group(1), 16)] = a
    got = {int(l["head"], 16): int(l["tail"], 16) for l in o["loops"]}
    return "ok" if got == back and back else "loops %s, objdump back-edges %s" % (got, back)

def cmd_store(jpath, ev, pages):
    """All samples of EV sit on one storing instruction."""
    o = load(jpath)
    hot = max(o["instructions"], key=lambda i: i["samples"][ev])
    if hot["samples"][ev] != int(pages):
        return "%s samples at %s: %d, want %s" % (ev, hot["address"], hot["samples"][ev], pages)
    return "ok" if hot["store_bytes"] > 0 else "not a store: " + hot["text"]

print(globals()["cmd_" + sys.argv[1]](*sys.argv[2:]))
PY
compare() { python3 "$TMP/compare.py" "$@"; }
expect_ok() { # RESULT DESC
	[ "$1" = ok ] || fail "$2: $1"
	ok
}

# Addresses, mnemonics, lines and loops of a hot function, and the sample
# attribution of perf annotate on the same run: perf record follows cyctop
# into the workload, so both sample the one process.
perf record -q -e cpu-clock -o "$TMP/perf.data" -- \
	"$CYCTOP" annotate work_60 --format json -- "$MIX" 2 >"$TMP/w60.json" 2>"$TMP/err" ||
	fail "annotate under perf record: $(cat "$TMP/err")"
expect_ok "$(compare insns "$TMP/w60.json" "$MIX" work_60)" "work_60 vs objdump -d"
expect_ok "$(compare lines "$TMP/w60.json" "$MIX" work_60)" "work_60 vs objdump -dl"
expect_ok "$(compare loop "$TMP/w60.json" "$MIX" work_60)" "work_60 loop"
# About 1200 samples in work_60 for each tool: a share p has a binomial
# standard deviation of at most 1.5 points per tool, so 7 points is over
# three deviations of the difference.
expect_ok "$(compare perf "$TMP/w60.json" "$TMP/perf.data" work_60 7)" "work_60 vs perf annotate"

# Text and CSV carry the same rows.
run "$CYCTOP" annotate work_30 -l -- "$MIX" 0.3
expect_rc 0 "annotate text"
expect_out "work_30 in $MIX" "text header"
expect_out "mix.c:" "source lines interleaved"
run "$CYCTOP" annotate work_30 --format csv -- "$MIX" 0.3
expect_rc 0 "annotate csv"
head -1 "$TMP/out" | grep -q '^address,cpu-clock,cpu-clock:ns,stall,penalty,mark,block,loop,instruction,file,line$' ||
	fail "csv header: $(head -1 "$TMP/out")"
ok
cp "$TMP/out" "$TMP/w30.csv"
run "$CYCTOP" annotate work_30 --format json -- "$MIX" 0.3
cp "$TMP/out" "$TMP/w30.json"
expect_ok "$(compare csv "$TMP/w30.csv" "$TMP/w30.json")" "csv rows vs json"
expect_ok "$(compare insns "$TMP/w30.json" "$MIX" work_30)" "work_30 vs objdump -d"

# --child-output: the command's output apart from the JSON (a reader
# parses stdout), into a file or nowhere
for to in null "$TMP/child.txt"; do
	run "$CYCTOP" annotate work_30 --format json --child-output "$to" -- \
		sh -c 'echo child-noise; echo child-noise >&2; exec "$0" 0.1' "$MIX"
	expect_rc 0 "annotate --child-output $to"
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$TMP/out" ||
		fail "--child-output $to: stdout is not the JSON alone: $(head -c 300 "$TMP/out")"
	! grep -q child-noise "$TMP/err" || fail "--child-output $to: the command wrote on stderr"
	ok
done
[ "$(grep -c child-noise "$TMP/child.txt")" -eq 2 ] || fail "--child-output FILE: $(cat "$TMP/child.txt")"
ok

# Page faults land on the storing instruction of the touching loop.
PAGES=300
"$CYCTOP" annotate touch_pages -e cpu-clock,page-faults --format json -- \
	"$WORKLOADS/faults" $PAGES 0.2 >"$TMP/tp.json" 2>"$TMP/err" || fail "touch_pages"
expect_ok "$(compare store "$TMP/tp.json" page-faults $PAGES)" "page faults on the store"
expect_ok "$(compare insns "$TMP/tp.json" "$WORKLOADS/faults" touch_pages)" "touch_pages vs objdump"

# Bytes that do not decode show as .byte and decoding resynchronizes.
run "$CYCTOP" annotate odd_bytes --format json -- "$MIX" 0.1
expect_rc 0 "odd_bytes"
cp "$TMP/out" "$TMP/odd.json"
expect_true "$(python3 -c "
import json; o = json.load(open('$TMP/odd.json'))
print([i['text'] for i in o['instructions']] == ['.byte 0x06', '.byte 0xd6', 'nop', 'ret']
      and o['undecodable'] == 2)")" "odd_bytes rows: $(cat "$TMP/odd.json")"
expect_ok "$(compare insns "$TMP/odd.json" "$MIX" odd_bytes)" "odd_bytes vs objdump"

# The last function of .text (no samples: found by name).
LAST=$(nm -n --defined-only "$MIX" | awk '$2 ~ /^[tT]$/ { f = $3 } END { print f }')
run "$CYCTOP" annotate "$LAST" --format json -- "$MIX" 0.1
expect_rc 0 "annotate $LAST, the last function of .text"
cp "$TMP/out" "$TMP/last.json"
expect_ok "$(compare insns "$TMP/last.json" "$MIX" "$LAST")" "$LAST vs objdump"

# A name as perf prints it, with its symbol version (perf 6.12's
# "cfree@GLIBC_2.2.5", perf 6.1's "__libc_start_main@@GLIBC_2.34"): the
# function of that name without it, samples and all; "@plt" stays a name.
run "$CYCTOP" annotate "work_30@@VERS_1.0" --format json -- "$MIX" 0.3
expect_rc 0 "annotate work_30@@VERS_1.0"
expect_true "$(python3 -c "
import json; o = json.load(open('$TMP/out'))
print(o['function'] == 'work_30' and sum(e['samples'] for e in o['events']) > 0)")" \
	"work_30@@VERS_1.0 is work_30 with its samples"
run "$CYCTOP" annotate "$LAST@VERS_1.0" --format json -- "$MIX" 0.1
expect_rc 0 "annotate $LAST@VERS_1.0 (no samples: found by name)"
expect_ok "$(compare insns "$TMP/out" "$MIX" "$LAST")" "$LAST@VERS_1.0 vs objdump"
run "$CYCTOP" annotate "no_such_function@plt" -- "$MIX" 0.1
expect_rc 2 "unknown PLT stub"
expect_err "no function 'no_such_function@plt' in the profile" "a PLT stub's name is not versioned"

# A function in a shared library (dlopen()ed by the threads workload).
touch "$TMP/go"
run "$CYCTOP" annotate plugin_work --format json -- \
	"$WORKLOADS/threads" "$TMP/ready" "$TMP/go" "$WORKLOADS/libplugin.so" 0.5
expect_rc 0 "annotate plugin_work"
cp "$TMP/out" "$TMP/plugin.json"
expect_true "$(python3 -c "
import json; o = json.load(open('$TMP/plugin.json'))
print(o['module'].endswith('libplugin.so') and sum(e['samples'] for e in o['events']) > 0)")" \
	"plugin_work in libplugin.so with samples"
expect_ok "$(compare insns "$TMP/plugin.json" "$WORKLOADS/libplugin.so" plugin_work)" \
	"plugin_work vs objdump"

# A stripped binary: its functions are named by their FDEs,
# [mix-stripped+0xSTART] with START nm's address of the unstripped copy.
cp "$MIX" "$TMP/mix-stripped"
strip "$TMP/mix-stripped"
w60=$(printf '[mix-stripped+0x%x]' "0x$(nm "$MIX" | awk '$3 == "work_60" { print $1 }')")
run "$CYCTOP" annotate "$w60" --module mix-stripped --format json -- "$TMP/mix-stripped" 0.5
expect_rc 0 "annotate a stripped binary's $w60"
cp "$TMP/out" "$TMP/stripped.json"
expect_ok "$(compare subset "$TMP/stripped.json" "$TMP/mix-stripped")" "stripped vs objdump"

# Errors name the culprit.
run "$CYCTOP" annotate no_such_function -- "$MIX" 0.1
expect_rc 2 "unknown function"
expect_err "no function 'no_such_function' in the profile; the closest: " "unknown function message"
run "$CYCTOP" annotate work_60 --stall page-faults -- "$MIX" 0.1
expect_rc 2 "--stall not among the events"
expect_err "--stall 'page-faults' is not one of the events" "--stall message"
run "$CYCTOP" annotate -- "$MIX"
expect_rc 2 "no function"

done_ok
