#!/bin/sh
# The asm view on AVX-512 (EVEX) code, against objdump -d -M intel and perf
# annotate: glibc's *_evex and *avx512* functions and the avx512 workload (built with
# -mavx512f) are decoded whatever the host (tests/e2e/disasm-dump reads the
# files, nothing runs); with AVX-512F on the host, cyctop annotate on
# __memcmp_evex_movbe, __strcmp_evex and avx_scale_bcast live too.
#
# Per instruction: address, length, mnemonic, class (plain, jump, cjump,
# ijump, call, ret), direct target and the whole text.  Mnemonics are
# compared after these normalizations, and no others:
#   - the mnemonic is the first word that is no prefix (rep, repz, repnz,
#     lock, bnd, notrack, data16, addr32, cs, ds, es, ss, fs, gs, rex*);
#   - objdump's "(bad)" is our ".byte".
# Texts (string instructions' too: "rep stos dword ptr es:[rdi], eax") are
# compared after these:
#   - names in <...> (the last thing in a text; a C++ name holds <>) dropped,
#     case and runs of blanks folded, our ", " is
#     objdump's ",", our "0x" before a branch target and after "#" dropped;
#   - objdump's "[rip+0xffffffffffffff56]" is our "[rip-0xaa]";
#   - our "dword ptr [rsi]{1to16}" is objdump's "dword bcst [rsi]".
. "$SRCDIR/tests/e2e/lib.sh"

DUMP="$(dirname "$CYCTOP")/tests/e2e/disasm-dump"
AVX="$WORKLOADS/avx512"
command -v objdump >/dev/null || fail "objdump (binutils) is needed"
[ -x "$DUMP" ] || fail "$DUMP not built (make check builds it)"

cat >"$TMP/cmp.py" <<'PY'
import json, re, subprocess, sys

PREFIXES = {"rep", "repz", "repnz", "repe", "repne", "lock", "bnd", "notrack", "data16",
            "addr32", "cs", "ds", "es", "ss", "fs", "gs"}
CJUMPS = re.compile(r"^(j(?!mp)\w+|loop\w*|xbegin)$")

def mnemonic(text):
    for w in text.split():
        if w not in PREFIXES and not w.startswith("rex"):
            return w
    return ""

def same_mnemonic(mine, theirs):
    return mine == theirs or (mine, theirs) == (".byte", "(bad)")

def text_of_theirs(t):
    t = re.sub(r"\s+", " ", re.sub(r"\s*<.*$", "", t).lower()).strip()
    return re.sub(r"\[rip\+0x(f[0-9a-f]{15})\]",
                  lambda m: "[rip-%#x]" % (2 ** 64 - int(m.group(1), 16)), t)

def text_of_mine(t, kind):
    t = re.sub(r"\s+", " ", re.sub(r"\s*<.*$", "", t).replace(", ", ",").lower()).strip()
    t = re.sub(r"(\w+) ptr ([^,]*?\[[^\]]*\])\{1to\d+\}", r"\1 bcst \2", t)
    t = t.replace("# 0x", "# ")
    return re.sub(r" 0x([0-9a-f]+)$", r" \1", t) if kind in ("jump", "cjump", "call") else t

def objdump(binary, start, end):
    """{address: [length, text]} of objdump -d -M intel over [start, end)."""
    out = subprocess.run(["objdump", "-d", "-M", "intel", "--start-address=%#x" % start,
                          "--stop-address=%#x" % end, binary],
                         capture_output=True, text=True, check=True).stdout
    insns, last = {}, None
    for l in out.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*(?:\t(.*))?$", l)
        if not m:
            continue
        nbytes = len(m.group(2).split())
        if m.group(3) is None:   # the bytes of a long instruction, continued
            insns[last][0] += nbytes
        else:
            last = int(m.group(1), 16)
            insns[last] = [nbytes, m.group(3).strip()]
    return insns

def objdump_class(text):
    """Class and direct target of an instruction as objdump prints it."""
    m = mnemonic(text)
    target = re.search(r"\s([0-9a-f]+) <", text)
    target = int(target.group(1), 16) if target and m != "nop" and "#" not in text else None
    if m in ("ret", "retf", "retfq", "iret", "iretq"):
        return "ret", None
    if m == "call":
        return "call", target
    if m == "jmp":
        return ("jump" if target else "ijump"), target
    if CJUMPS.match(m):
        return "cjump", target
    return "plain", None

def compare(mine, ref):
    """Differences between MINE [(addr, length, kind, target, text)] (None
    where unknown) and objdump's REF."""
    bad = []
    if [a for a, *_ in mine] != sorted(ref):
        missing = sorted(set(ref) - {a for a, *_ in mine})[:5]
        extra = sorted({a for a, *_ in mine} - set(ref))[:5]
        bad.append("addresses: objdump only %s, ours only %s" %
                   ([hex(a) for a in missing], [hex(a) for a in extra]))
    for a, length, kind, target, text in mine:
        if a not in ref:
            continue
        n, theirs = ref[a]
        why = []
        if length is not None and length != n:
            why.append("length %d vs %d" % (length, n))
        if not same_mnemonic(mnemonic(text), mnemonic(theirs)):
            why.append("mnemonic")
        k, t = objdump_class(theirs)
        if kind is not None and kind != k:
            why.append("class %s vs %s" % (kind, k))
        if text_of_mine(text, kind or k) != text_of_theirs(theirs):
            why.append("text")
        if target is not None and t is not None and target != t:
            why.append("target %x vs %x" % (target, t))
        if why:
            bad.append("%x: '%s' vs '%s' (%s)" % (a, text, theirs, ", ".join(why)))
    return bad

def cmd_dump(binary, dump_path):
    """Every function of disasm-dump's output against objdump."""
    funcs, cur = [], None
    for l in open(dump_path):
        f = l.rstrip("\n").split("\t")
        if l.startswith("function "):
            w = l.split()       # a C++ name has blanks: the numbers are last
            name, start, end, n_bad = " ".join(w[1:-3]), w[-3], w[-2], w[-1]
            cur = (name, int(start, 16), int(end, 16), int(n_bad), [])
            funcs.append(cur)
        else:
            cur[4].append((int(f[0], 16), int(f[1]), f[2],
                           None if f[3] == "-" else int(f[3], 16), f[6]))
    total = differ = undecodable = 0
    for name, start, end, n_bad, insns in funcs:
        bad = compare(insns, objdump(binary, start, end))
        total += len(insns)
        differ += len(bad)
        undecodable += n_bad
        for b in bad[:5]:
            print("  %s: %s" % (name, b), file=sys.stderr)
    print("%d functions, %d instructions: %d differ from objdump, %d bytes undecodable" %
          (len(funcs), total, differ, undecodable), file=sys.stderr)
    return "ok" if funcs and total and not differ and not undecodable else \
        "%d of %d instructions differ, %d bytes undecodable" % (differ, total, undecodable)

def cmd_json(jpath, binary):
    """cyctop annotate's rows against objdump: addresses, lengths, mnemonics,
    targets; no bytes left undecoded, no samples left out."""
    o = json.load(open(jpath))
    rows = o["instructions"]
    mine = []
    for i, r in enumerate(rows):
        a = int(r["address"], 16)
        nxt = int(rows[i + 1]["address"], 16) if i + 1 < len(rows) else int(o["end"], 16)
        t = re.search(r" 0x([0-9a-f]+) <", r["text"])
        mine.append((a, nxt - a, None, int(t.group(1), 16) if t else None, r["text"]))
    bad = compare(mine, objdump(binary, int(o["start"], 16), int(o["end"], 16)))
    if o["undecodable"] or o["outside"]:
        bad.append("undecodable %d, outside %d" % (o["undecodable"], o["outside"]))
    return "ok" if rows and not bad else "; ".join(bad[:5])

def perf_annotate(data, func):
    out = subprocess.run(["perf", "annotate", "-i", data, "--stdio", "-s", func],
                         capture_output=True, text=True).stdout
    pct = {}
    for l in out.splitlines():
        m = re.match(r"\s*([0-9.]+)\s*:\s+([0-9a-f]+):", l)
        if m:
            pct[int(m.group(2), 16)] = float(m.group(1))
    return pct

def cmd_perf(jpath, data, func):
    """perf annotate's instructions with samples are ours, and each
    instruction's share of the function is perf's within 5 standard
    deviations of the difference of two samplings of N samples (N at least
    300): 100 sqrt(2 p (1 - p) / N) points for a share p."""
    o, ref = json.load(open(jpath)), perf_annotate(data, func)
    ev = o["events"][0]["name"]
    total = sum(i["samples"][ev] for i in o["instructions"])
    if not ref or total < 300:
        return "too few samples (perf %d rows, cyctop %d)" % (len(ref), total)
    mine = {int(i["address"], 16): 100.0 * i["samples"][ev] / total for i in o["instructions"]}
    lost = [hex(a) for a, p in ref.items() if p > 0 and a not in mine]
    if lost:
        return "perf's sampled instructions %s are not ours" % lost[:5]
    hot = max(ref, key=ref.get)
    def bound(a):
        # p kept one sample from 0 and from 1: a share of 100 % in one
        # tool still has the other's sampling error
        p = min(max(mine.get(a, 0), ref.get(a, 0), 100.0 / total) / 100, 1 - 1.0 / total)
        return 5 * 100 * (2 * p * (1 - p) / total) ** 0.5
    far = [(hex(a), round(mine.get(a, 0), 1), ref.get(a, 0), round(bound(a), 1))
           for a in set(mine) | set(ref) if abs(mine.get(a, 0) - ref.get(a, 0)) > bound(a)]
    print("%s: %d samples, perf's hottest %x: %.1f %% (perf %.1f %%)" %
          (func, total, hot, mine[hot], ref[hot]), file=sys.stderr)
    return "shares differ: %s" % far[:5] if far else "ok"

print(globals()["cmd_" + sys.argv[1]](*sys.argv[2:]))
PY
compare() { python3 "$TMP/cmp.py" "$@"; }
expect_ok() { # RESULT DESC
	[ "$1" = ok ] || fail "$2: $1"
	ok
}

# --- decoded whatever the host ------------------------------------------

# The workload's every function (its kernels and the C runtime's).
KERNELS="avx_saxpy_tail avx_gather_sum avx_scatter avx_compress_below avx_find_unequal
avx_ternlog avx_scale_bcast"
ALL=$(nm --defined-only "$AVX" | awk '$2 ~ /^[tT]$/ { print "0x" $1 }' | sort -u)
# shellcheck disable=SC2086
"$DUMP" "$AVX" $ALL >"$TMP/avx.dump" 2>"$TMP/err" || fail "disasm-dump avx512: $(cat "$TMP/err")"
expect_ok "$(compare dump "$AVX" "$TMP/avx.dump")" "avx512 workload vs objdump"
for k in $KERNELS; do
	grep -q "^function $k " "$TMP/avx.dump" || fail "avx512: no function $k"
done
ok
# The EVEX forms the kernels exist for, in objdump's spelling.
for want in 'vgatherdps zmm' 'vscatterdps dword ptr' 'vcmplt_oqps k' 'vcompressps zmmword ptr' \
	'vpcmpneqd k' 'vpcmpnleud k' 'kortestw k' 'vpternlogd zmm' '{1to16}' '{k1}{z}, zmmword ptr' ']{k1}, zmm'; do
	grep -qF "$want" "$TMP/avx.dump" || fail "avx512: no '$want' in $(cat "$TMP/avx.dump")"
done
ok

# glibc's *_evex and *avx512* functions: local symbols, from libc6-dbg's
# separate file.
LIBC=$(ldd "$AVX" | awk '$1 ~ /^libc\.so/ { print $3 }')
LIBC=$(readlink -f "$LIBC")
ID=$(readelf -n "$LIBC" | awk '/Build ID/ { print $3 }')
DEBUG=/usr/lib/debug/.build-id/$(echo "$ID" | cut -c1-2)/$(echo "$ID" | cut -c3-).debug
EVEX=""
if [ -n "$ID" ] && [ -f "$DEBUG" ]; then
	EVEX=$(nm --defined-only "$DEBUG" |
		awk '$2 ~ /^[tT]$/ && $3 ~ /_evex|avx512/ { print "0x" $1 }' | sort -u)
fi
if [ -z "$EVEX" ]; then
	skip_part "glibc's EVEX functions: no symbols for $LIBC (install libc6-dbg)"
else
	# shellcheck disable=SC2086
	"$DUMP" "$LIBC" $EVEX >"$TMP/libc.dump" 2>"$TMP/err" ||
		fail "disasm-dump libc: $(cat "$TMP/err")"
	for f in __memcmp_evex_movbe __strcmp_evex; do
		grep -q "^function $f " "$TMP/libc.dump" || fail "libc: no function $f"
	done
	expect_ok "$(compare dump "$LIBC" "$TMP/libc.dump")" "glibc's EVEX functions vs objdump"
fi

# Prefix words: objdump writes a prefix an instruction does not use as a
# word before it, REX ones too ("rex.W call rax"), and the general-dynamic
# TLS sequence's "data16 data16 rex.W call __tls_get_addr@plt" (issue 32).
# The functions holding such words (up to 60 a library) in the Debian
# libraries at hand (the compilers' and perl's: libstdc++, libgomp, libasan,
# libperl, libpython3), compared whole.
PFX=0
for lib in /usr/lib/x86_64-linux-gnu/libstdc++.so.6 /usr/lib/x86_64-linux-gnu/libgomp.so.1 \
	/usr/lib/x86_64-linux-gnu/libasan.so.? /usr/lib/x86_64-linux-gnu/libperl.so.5.?? \
	/usr/lib/x86_64-linux-gnu/libpython3.*.so.1.0; do
	[ -r "$lib" ] || continue
	# functions with a REX word (not the padding's "data16 cs nop" after one)
	funcs=$(objdump -d -M intel --no-show-raw-insn "$lib" | awk '
		/^[0-9a-f]+ <.*>:$/ { f = "0x" $1; next }
		/\t(data16 )*rex[.A-Z]* / && f { print f; f = "" }' | head -n 60)
	[ -n "$funcs" ] || continue
	# shellcheck disable=SC2086
	"$DUMP" "$lib" $funcs >"$TMP/pfx.dump" 2>"$TMP/err" || fail "disasm-dump $lib: $(cat "$TMP/err")"
	expect_ok "$(compare dump "$lib" "$TMP/pfx.dump")" "$(basename "$lib")'s prefix words vs objdump"
	PFX=$((PFX + $(grep -cE '	(data16 )*rex[.A-Z]* ' "$TMP/pfx.dump")))
done
[ "$PFX" -gt 0 ] || skip_part "prefix words: no REX word in libstdc++, libgomp, libasan, libperl, libpython3"
echo "prefix words: $PFX instructions with a REX word, as objdump's"

# String instructions: objdump writes them by their bare names with both
# operands ("rep stos DWORD PTR es:[rdi],eax", "repz cmps BYTE PTR
# ds:[rsi],BYTE PTR es:[rdi]"), Zydis by a size suffix ("rep stosd"): the
# functions holding one (up to 60 a file) in libc, libstdc++, sqlite3's
# library and perl's, compared whole.
STR=0
for lib in "$LIBC" /usr/lib/x86_64-linux-gnu/libstdc++.so.6 \
	/usr/lib/x86_64-linux-gnu/libsqlite3.so.0 /usr/lib/x86_64-linux-gnu/libperl.so.5.??; do
	[ -r "$lib" ] || continue
	funcs=$(objdump -d -M intel --no-show-raw-insn "$lib" | awk '
		/^[0-9a-f]+ <.*>:$/ { f = "0x" $1; next }
		/\t(rep[nz]* )?(stos|movs|lods|scas|cmps) / && f { print f; f = "" }' | head -n 60)
	[ -n "$funcs" ] || continue
	# shellcheck disable=SC2086
	"$DUMP" "$lib" $funcs >"$TMP/str.dump" 2>"$TMP/err" || fail "disasm-dump $lib: $(cat "$TMP/err")"
	expect_ok "$(compare dump "$lib" "$TMP/str.dump")" "$(basename "$lib")'s string instructions vs objdump"
	STR=$((STR + $(grep -cE '	(rep[nz]* )?(stos|movs|lods|scas|cmps) ' "$TMP/str.dump")))
done
[ "$STR" -gt 0 ] || fail "string instructions: none in libc, libstdc++, libsqlite3, libperl"
echo "string instructions: $STR, as objdump writes them"

# --- live, where the CPU runs AVX-512 -----------------------------------

if ! grep -qw avx512f /proc/cpuinfo; then
	skip_part "live annotate of EVEX code: no avx512f in /proc/cpuinfo"
	run "$AVX" 0.1
	expect_rc 3 "avx512 without AVX-512F"
	expect_err "no AVX-512F" "avx512 says why"
	done_ok
fi

# annotate_live FUNC MODULE BINARY ARGS...: cyctop annotate under perf
# record on one run, then compared with objdump and perf annotate.  At
# 4 kHz, about 3,000 samples in the function for each tool on an idle
# machine (a loaded one gives the programs less CPU in their 1.5-3 s; under
# 300 fails): each instruction's share p may differ from perf's by 5
# standard deviations of the difference, 100 sqrt(2 p (1 - p) / N) points
# (6.5 points for p = 1/2 and N = 3,000; 20 at N = 300).
annotate_live() {
	fn=$1 mod=$2 bin=$3
	shift 3
	perf record -q -e cpu-clock -o "$TMP/$fn.data" -- \
		"$CYCTOP" annotate "$fn" -e cpu-clock/250000 --module "$mod" --format json -- "$AVX" "$@" \
		>"$TMP/$fn.json" 2>"$TMP/err" || fail "annotate $fn: $(cat "$TMP/err")"
	expect_ok "$(compare json "$TMP/$fn.json" "$bin")" "annotate $fn vs objdump"
	expect_ok "$(compare perf "$TMP/$fn.json" "$TMP/$fn.data" "$fn")" \
		"annotate $fn vs perf annotate"
}

if [ -n "$EVEX" ]; then
	# memcmp and strcmp take about 40 % each of "avx512 strings".
	annotate_live __memcmp_evex_movbe libc.so.6 "$LIBC" strings 3
	annotate_live __strcmp_evex libc.so.6 "$LIBC" strings 3
fi
# avx_scale_bcast takes about half of "avx512 vector".
annotate_live avx_scale_bcast avx512 "$AVX" vector 1.5

done_ok
