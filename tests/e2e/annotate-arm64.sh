#!/bin/sh
# The asm view's AArch64 decoder (capstone, engine/disasm-arm64.c) against
# aarch64-linux-gnu-objdump -d, on the x86 host: tests/e2e/disasm-dump reads
# the arm64 glibc (libc6:arm64, which ./build.sh arm64 installs) and nothing
# runs, so this also checks that an x86 cyctop decodes an arm64 program's
# code (cyctop -i perf.data --symfs).  Every instruction of libc's .text:
# the same addresses, sizes and whole texts (capstone 4 on Debian 12 and 5 on
# Debian 13 spell immediates otherwise: cyctop writes objdump's), after
# these normalizations and no others: names in <...> and objdump's "//"
# comments dropped, the asm view's 0x before a target address dropped,
# objdump 2.44's register range "{v1.16b-v2.16b}" as the list it is.
# Accepted, as what capstone lacks: a word objdump decodes and capstone
# does not (SVE, MTE, the LSE atomics, MOPS: cyctop shows
# ".inst 0x... ; undefined", as objdump for a word it does not know) and
# the system-register aliases capstone 4 leaves as "sys" (dc, ic, at,
# tlbi); those may be at most 0.5 % of the instructions (some 0.11 % here).
# The GCS instructions glibc 2.41 has (chkfeat, gcsss1...) are named as
# objdump 2.44 names them (engine/disasm-arm64.c's table), not accepted.
# Zero words objdump folds into "..." are skipped.  Then the calls through
# the PLT in arm64 libpfm: NAME@plt as objdump names the stubs.
. "$SRCDIR/tests/e2e/lib.sh"

DUMP="$(dirname "$CYCTOP")/tests/e2e/disasm-dump"
LIBC=/usr/lib/aarch64-linux-gnu/libc.so.6
OBJDUMP=aarch64-linux-gnu-objdump
[ -x "$DUMP" ] || fail "$DUMP not built (make check builds it)"
skip() {
	echo "SKIP: $*"
	exit 77
}
command -v "$OBJDUMP" >/dev/null 2>&1 || skip "no $OBJDUMP (./build.sh arm64 installs it)"
[ -r "$LIBC" ] || skip "no arm64 glibc $LIBC (./build.sh arm64 installs libc6:arm64)"
command -v python3 >/dev/null 2>&1 || skip "no python3"

text=$("$OBJDUMP" -hw "$LIBC" | awk '$2 == ".text" { print $4, $3 }')
[ -n "$text" ] || fail "$LIBC: no .text section"
set -- $text
start=$((0x$1))
end=$((0x$1 + 0x$2))
"$DUMP" "$LIBC" "$(printf '0x%x-0x%x' $start $end)" >"$TMP/ours" || fail "disasm-dump failed"
"$OBJDUMP" -d --no-show-raw-insn "$LIBC" >"$TMP/objdump" || fail "$OBJDUMP failed"

python3 - "$TMP/ours" "$TMP/objdump" <<'PY' || fail "decoding differs from objdump (above)"
import re, sys
LACKS = ".inst"                       # a word capstone does not decode
SYS_ALIASES = {"dc", "ic", "at", "tlbi"}
def regrange(m):
    """objdump's {v1.16b-v2.16b}: the registers from the first to the last
    (modulo 32), as the list capstone writes"""
    first, last, t = int(m.group(1)), int(m.group(3)), m.group(2)
    regs = range(first, last + 1 + (32 if last < first else 0))
    return "{" + ", ".join("v%d.%s" % (r % 32, t) for r in regs) + "}"
theirs = {}
for line in open(sys.argv[2]):
    m = re.match(r"\s+([0-9a-f]+):\s+(.*)$", line)
    if m:
        t = re.sub(r"\s*//.*$", "", m.group(2))
        t = re.sub(r"\s+", " ", re.sub(r"\s*<[^>]*>", "", t)).strip()
        theirs[int(m.group(1), 16)] = re.sub(r"\{v(\d+)\.(\w+)-v(\d+)\.\2\}", regrange, t)
n = lacking = 0
bad = []
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if len(f) < 7:
        continue
    addr, size = int(f[0], 16), int(f[1], 16)
    mine = re.sub(r" 0x([0-9a-f]+)$", r" \1", re.sub(r"\s*<[^>]*>", "", f[6]).strip())
    n += 1
    if addr not in theirs and (f[6].startswith(".inst 0x00000000") or f[6] == "udf #0"):
        continue                      # objdump's "..." for zero padding (udf #0 to capstone 5)
    if size != 4 or addr not in theirs:
        bad.append((hex(addr), size, mine, theirs.get(addr)))
    elif mine != theirs[addr]:
        mn, their_mn = mine.split(" ")[0], theirs[addr].split(" ")[0]
        if mn == LACKS or (mn == "sys" and their_mn in SYS_ALIASES):
            lacking += 1
        else:
            bad.append((hex(addr), mine, theirs[addr]))
print("%d instructions, %d objdump decodes and capstone does not, %d different"
      % (n, lacking, len(bad)))
for b in bad[:20]:
    print("  differs:", b)
sys.exit(1 if bad or n < 100000 or lacking > n * 0.005 else 0)
PY
ok

# PLT stubs named as objdump and perf name them (NAME@plt, from the GOT
# slot each stub's adrp/ldr loads and its JUMP_SLOT relocation): the calls
# through the PLT in arm64 libpfm's exported functions (the library is
# stripped: its dynamic symbols name them)
PFM=/usr/lib/aarch64-linux-gnu/libpfm.so.4
[ -r "$PFM" ] || skip "no arm64 libpfm $PFM (./build.sh arm64 installs libpfm4:arm64)"
"$OBJDUMP" -d "$PFM" >"$TMP/pfm.objdump" || fail "$OBJDUMP $PFM failed"
funcs=$(aarch64-linux-gnu-nm -D --defined-only "$PFM" | awk '$2 == "T" { print $3 }')
[ -n "$funcs" ] || fail "$PFM: no exported functions"
# shellcheck disable=SC2086
"$DUMP" "$PFM" $funcs >"$TMP/pfm.ours" || fail "disasm-dump $PFM failed"
python3 - "$TMP/pfm.ours" "$TMP/pfm.objdump" <<'PY' || fail "PLT names differ from objdump's (above)"
import re, sys
ours = {}
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    m = re.search(r"<([^>]+@plt)>", f[-1]) if len(f) >= 7 else None
    if m:
        ours[int(f[0], 16)] = m.group(1)
theirs = {}
for line in open(sys.argv[2]):
    m = re.match(r"\s+([0-9a-f]+):.*\sbl\s.*<([^>]+@plt)>", line)
    if m:
        theirs[int(m.group(1), 16)] = m.group(2)
bad = [(hex(a), n, theirs.get(a)) for a, n in ours.items() if theirs.get(a) != n]
print("%d calls through the PLT, %d named otherwise than objdump" % (len(ours), len(bad)))
for b in bad[:10]:
    print("  differs:", b)
sys.exit(1 if bad or len(ours) < 20 else 0)
PY
ok
done_ok
