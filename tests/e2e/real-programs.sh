#!/bin/sh
# Real programs from Debian packages, recorded by perf and read by both
# perf report and cyctop: the functions named in one must be named alike
# in the other, with the same share within 1 point (both read the same
# samples, so only naming can make them differ).  Programs: a C++ one
# (clang++ compiling: libLLVM's and libclang-cpp's demangled names), PLT-
# heavy ones (sort: memcmp@plt; sqlite3; bzip2), and a shell script that
# forks and execs; C++ names with or without parameters as the installed
# perf writes them (--demangle-params).  A program that is not installed is
# skipped with a line; with none at all the test is skipped (77).  Code
# without a symbol (Debian's stripped libraries) is perf's rows per address,
# cyctop's rows per FDE function ([libLLVM-14.so.1+0x101a234]): compared by
# range.
. "$SRCDIR/tests/e2e/lib.sh"

command -v perf >/dev/null 2>&1 || { echo "SKIP: perf is not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }

LIMIT=0.5    # rows of at least LIMIT percent (and every NAME@plt) are compared
TOLERANCE=1  # percentage points
SEP=$(printf '\037')
RAN=0

# C++ names as the perf installed writes them: perf 6.4 and later demangle
# with abi::__cxa_demangle, which writes the parameters, unless built with
# libbfd (then bfd_demangle, parameters only with -v), as perf up to 6.3
# always does (libiberty without DMGL_PARAMS): cyctop's --demangle-params.
PARAMS=""
set -- $(perf version 2>/dev/null | sed -n 's/^perf version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
if [ "${1:-0}" -gt 6 ] || { [ "${1:-0}" -eq 6 ] && [ "${2:-0}" -ge 4 ]; }; then
	perf version --build-options 2>/dev/null | grep -Eiq 'libbfd: *\[ *on' ||
		PARAMS=--demangle-params
fi
echo "perf $(perf version 2>/dev/null | awk '{print $3}'): cyctop ${PARAMS:-without --demangle-params}"

# Input data, made once: 8 MB of base64 in 666667 short lines (sort in a
# UTF-8 locale calls strcoll, __errno_location and memcmp through its PLT
# for each comparison: about 1.4% of some 1600 samples, so the stubs
# always have samples; in the C locale, a minimal root's, only memcmp's
# 0.2%, two samples a run and none in one run of four: the sort below
# sets its locale) and an SQL script that builds and queries a table.
head -c 6000000 /dev/urandom | base64 -w 12 >"$TMP/lines.txt"
python3 - "$TMP/work.sql" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("create table t(a integer, b text);\nbegin;\n")
    for i in range(200000):
        f.write("insert into t values(%d, '%x');\n" % ((i * 7919) % 100003, i * 2654435761 % 2**32))
    f.write("commit;\ncreate index ta on t(a);\n")
    f.write("select count(*), sum(length(b)) from t where b like '%ab%';\n")
    f.write("select a, count(*) from t group by a order by 2 desc limit 3;\n")
PY
cat >"$TMP/big.cc" <<'EOF'
#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>
template <int N> struct F { static int v() { return F<N - 1>::v() + N; } };
template <> struct F<0> { static int v() { return 0; } };
int g()
{
	std::map<std::string, std::vector<int>> m;
	std::ostringstream os;
	os << F<400>::v();
	m[os.str()].push_back(1);
	std::vector<int> v(m.size());
	std::sort(v.begin(), v.end());
	return (int)m.size();
}
EOF

# compare NAME [plt]: perf report and cyctop on $TMP/NAME.data; with
# "plt", perf must name PLT stubs there (NAME@plt) for cyctop to match
compare() {
	name=$1 need_plt=${2:-}
	run perf report -i "$TMP/$name.data" --stdio --sort sym,dso -q -t "$SEP"
	expect_rc 0 "$name: perf report"
	cp "$TMP/out" "$TMP/$name.perf"
	run "$CYCTOP" -b -i "$TMP/$name.data" --format json -n 1 $PARAMS
	expect_rc 0 "$name: cyctop -b -i"
	cp "$TMP/out" "$TMP/$name.json"
	python3 - "$name" "$TMP/$name.perf" "$TMP/$name.json" "$SEP" "$LIMIT" "$TOLERANCE" \
		"$need_plt" <<'PY' ||
import json, os, re, subprocess, sys
name, perf_file, json_file, sep, limit, tol, need_plt = sys.argv[1:8]
limit, tol = float(limit), float(tol)
PLT = re.compile(r"@plt$")

# perf: "PCT%<sep>[x] SYMBOL<sep>DSO", columns padded with spaces; rows of
# code without a symbol are "0xADDR" (the file's address), kept apart
perf, perf_addr, kernel = {}, {}, 0.0
for line in open(perf_file, errors="replace"):
    f = line.rstrip("\n").split(sep)
    if len(f) != 3 or not f[0].strip().endswith("%"):
        continue
    pct, sym, dso = float(f[0].strip()[:-1]), f[1].rstrip(), f[2].strip()
    if sym.startswith("[k]"):  # named from kallsyms by both, or by neither
        kernel += pct
    sym = sym[4:]
    if re.fullmatch(r"0x[0-9a-f]+", sym):
        perf_addr.setdefault(dso, []).append((int(sym, 16), pct))
        continue
    sym = re.sub(r"@@?[A-Za-z0-9_.]+$", "", sym) if not PLT.search(sym) else sym
    perf[(sym, dso)] = perf.get((sym, dso), 0.0) + pct

o = json.loads(open(json_file).readline())
ev = o["events"][0]["name"]
# perf 6.1 calls a PLT stub of an IRELATIVE slot (libc's own ifuncs)
# "@plt"; objdump and cyctop "*ABS*+0xADDR@plt".
cyc, paths = {}, {}
for fn in o["functions"]:
    key = (re.sub(r"^\*ABS\*\+0x[0-9a-f]+@plt$", "@plt", fn["name"]),
           os.path.basename(fn["module"]))
    paths[key[1]] = fn["module"]
    cyc[key] = cyc.get(key, 0.0) + fn["percent"][ev]
# Two functions of one name in one file are two rows in both, perf's named
# alike, cyctop's told apart by their parameters ("f(long)", "f(double)")
# or address ("helper [0x1139]"): summed under perf's name here, as perf's
# rows are.
by_dso = {}
for sym, dso in perf:
    by_dso.setdefault(dso, []).append(sym)
for key in [k for k in cyc if k not in perf]:
    name, dso = key
    base = [p for p in by_dso.get(dso, []) if name.startswith(p) and name[len(p):][:1] in "( "]
    if base:
        to = (max(base, key=len), dso)
        cyc[to] = cyc.get(to, 0.0) + cyc.pop(key)
total = sum(m["samples"][ev] for m in o["modules"]) or 1
ckernel = sum(m["samples"][ev] for m in o["modules"]
              if m["module"] == "[kernel.kallsyms]") * 100.0 / total

def sh(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout
    except OSError:
        return ""

class Plt:
    """objdump's PLT stubs of a file: labels, section ranges, and whether
    perf 6.1's naming (PLT entry i+1 gets .rela.plt entry i) agrees."""
    def __init__(self, path):
        out = sh("objdump", "-d", "-j", ".plt", "-j", ".plt.sec", "-j", ".plt.got", path)
        self.labels, self.ranges, got = [], [], {}
        for part in re.split(r"^Disassembly of section ", out, flags=re.M)[1:]:
            sec = part.split(":", 1)[0]
            labels, slots = [], []
            for a, n, body in re.findall(r"^([0-9a-f]+) <(.*)>:\n((?:.+\n?)*)", part, re.M):
                labels.append((int(a, 16), n))
                g = re.search(r"jmp\s+\*[^#\n]*#\s*([0-9a-f]+)", body)
                if not n.endswith("-0x10"):  # PLT0
                    slots.append(int(g.group(1), 16) if g else None)
            got[sec] = slots
            self.labels += labels
            if labels:
                self.ranges.append((labels[0][0], labels[-1][0] + 16))
        self.labels.sort()
        rel = sh("readelf", "-rW", path).split("Relocation section '.rela.plt'")
        relas = [int(x, 16) for x in re.findall(r"^([0-9a-f]{8,})\s", rel[1], re.M)] \
            if len(rel) > 1 else []
        entries = got.get(".plt.sec", got.get(".plt"))
        self.perf_agrees = entries == relas

    def stub(self, name):
        for i, (a, n) in enumerate(self.labels):
            if n == name:
                return a, self.labels[i + 1][0] if i + 1 < len(self.labels) else a + 16
        return None

    def holds(self, addr):
        return any(lo <= addr < hi for lo, hi in self.ranges)

plts = {}
def plt_of(dso):
    if dso not in plts:
        plts[dso] = Plt(paths[dso]) if dso in paths else None
    return plts[dso]

bad, rows = [], []
def check(sym, dso, p, c, why=None):
    rows.append((sym, dso, p, c))
    if why:
        bad.append(why)

# 1. perf's functions in cyctop, and NAME@plt where perf names stubs as
#    objdump does; perf 6.1 names lazy-binding stubs _init (the label
#    before them), and in a file whose .rela.plt is not in PLT order
#    (libc) it names stubs after the wrong relocations: there the stubs
#    are compared in total (3.).
plt_dsos = set()
for (sym, dso), p in sorted(perf.items(), key=lambda kv: -kv[1]):
    if PLT.search(sym) or sym == "_init":
        plt_dsos.add(dso)
        pl = plt_of(dso)
        if sym == "_init" or not pl or not pl.perf_agrees:
            continue
    elif p < limit:
        continue
    c = cyc.get((sym, dso))
    check(sym, dso, p, c, None if c is not None and abs(c - p) <= tol else
          "perf's %s (%s) %.2f%%: cyctop %s" % (sym, dso, p,
          "has no such row" if c is None else "%.2f%%" % c))

# 2. cyctop's functions in perf; a NAME@plt perf leaves unnamed (.plt.got
#    stubs) must be objdump's <NAME@plt>, holding perf's address rows' share;
#    code without a symbol, [DSO+0xSTART] (the function its FDE covers),
#    holds perf's address rows from START to the next such function; code
#    no FDE covers either, 0xADDR (16 digits), perf's row of that address.
FDE = re.compile(r"^\[(.+)\+0x([0-9a-f]+)\]$")
ADDR = re.compile(r"0x[0-9a-f]{16}")
fde_starts = {}
for (sym, dso) in cyc:
    m = FDE.match(sym)
    if m:
        fde_starts.setdefault(dso, []).append(int(m.group(2), 16))
for (sym, dso), c in sorted(cyc.items(), key=lambda kv: -kv[1]):
    if PLT.search(sym):
        plt_dsos.add(dso)
    if c < limit or sym == "[unknown]" or (sym, dso) in perf:
        continue
    if ADDR.fullmatch(sym):  # code no FDE covers: perf's row of that address
        p = sum(x for a, x in perf_addr.get(dso, []) if a == int(sym, 16))
        check(sym, dso, p, c, None if abs(p - c) <= tol else
              "cyctop's %s (%s) %.2f%%: perf's row of that address %.2f%%" % (sym, dso, c, p))
        continue
    m = FDE.match(sym)
    if m:
        lo = int(m.group(2), 16)
        hi = min([a for a in fde_starts[dso] if a > lo] or [1 << 64])
        p = sum(x for a, x in perf_addr.get(dso, []) if lo <= a < hi)
        check(sym, dso, p, c, None if abs(p - c) <= tol else
              "cyctop's %s (%s) %.2f%%: perf's addresses in it %.2f%%" % (sym, dso, c, p))
        continue
    pl = plt_of(dso) if PLT.search(sym) else None
    if not pl:
        check(sym, dso, None, c, "cyctop's %s (%s) %.2f%%: not in perf report" % (sym, dso, c))
        continue
    if not pl.perf_agrees:
        continue
    span = pl.stub(sym if not sym == "@plt" else "")
    p = sum(x for a, x in perf_addr.get(dso, []) if span and span[0] <= a < span[1])
    check(sym, dso, None, c, None if span and abs(p - c) <= tol else
          "cyctop's %s (%s) %.2f%%: objdump %s" % (sym, dso, c,
          "has no such stub" if not span else "range holds %.2f%% in perf" % p))

# 3. Each file's PLT time in total: perf's stub rows, its _init, and its
#    address rows inside the PLT sections against cyctop's NAME@plt rows.
for dso in sorted(plt_dsos):
    pl = plt_of(dso)
    p = sum(x for (sym, d), x in perf.items() if d == dso and (PLT.search(sym) or sym == "_init"))
    p += sum(x for a, x in perf_addr.get(dso, []) if pl and pl.holds(a))
    c = sum(x for (sym, d), x in cyc.items() if d == dso and PLT.search(sym))
    check("[PLT stubs in all]", dso, p, c, None if abs(p - c) <= tol else
          "%s: PLT stubs %.2f%% in perf, %.2f%% in cyctop" % (dso, p, c))

if need_plt and not any(PLT.search(r[0]) and r[2] is not None for r in rows):
    bad.append("perf report names no PLT stub: nothing to compare them with")
if abs(kernel - ckernel) > tol:
    bad.append("kernel: perf %.2f%%, cyctop %.2f%%" % (kernel, ckernel))

print("%s: %d rows compared (functions of %.1f%% or more, PLT stubs); kernel perf %.2f%% "
      "cyctop %.2f%%" % (name, sum(1 for r in rows if r[2] is not None), limit, kernel, ckernel))
for sym, dso, p, c in rows:
    print("  %-44.44s %-20.20s perf %6s  cyctop %6s" % (sym, dso,
          "addr" if p is None else "%.2f" % p, "-" if c is None else "%.2f" % c))
if bad:
    print("\n".join("FAIL: %s: %s" % (name, b) for b in bad), file=sys.stderr)
    sys.exit(1)
PY
	fail "$name: cyctop and perf report disagree (above)"
	ok
}

# record NAME[:plt] PROGRAM ARGS...: perf record of ARGS into
# $TMP/NAME.data, compared; skipped (one line) when PROGRAM is not installed
record() {
	name=${1%:plt} prog=$2 plt=
	[ "$1" = "$name" ] || plt=plt
	shift 2
	if ! command -v "$prog" >/dev/null 2>&1; then
		echo "skip $name: $prog is not installed"
		return 0
	fi
	run perf record -q -e cpu-clock -o "$TMP/$name.data" -- "$@"
	expect_rc 0 "$name: perf record $*"
	compare "$name" $plt
	RAN=$((RAN + 1))
}

cd "$TMP" || fail "cd $TMP"
record cxx clang++ clang++ -O2 -c big.cc -o big.o
record sort:plt sort env LC_ALL=C.UTF-8 sort lines.txt -o sorted.txt
record sqlite3 sqlite3 sqlite3 "$TMP/db.sqlite" ".read work.sql"
record bzip2 bzip2 bzip2 -k -f -9 lines.txt
# A shell that forks (a pipeline, a subshell) and at the end execs.
record shell sort sh -c 'for i in 1 2; do sort -r lines.txt | tail -n 1 >/dev/null; done;
	(bzip2 -c lines.txt >/dev/null); exec sort -u lines.txt -o sorted2.txt'

[ "$RAN" -gt 0 ] || { echo "SKIP: none of the programs is installed"; exit 77; }
done_ok
