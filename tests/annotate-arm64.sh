#!/bin/sh
# The asm view's AArch64 decoder (capstone, engine/disasm-arm64.c) against
# aarch64-linux-gnu-objdump -d, on the x86 host: tests/disasm-dump reads
# the arm64 glibc (libc6:arm64, which ./build.sh arm64 installs) and nothing
# runs, so this also checks that an x86 cyctop decodes an arm64 program's
# code (cyctop -i perf.data --symfs).  Every instruction of libc's .text:
# the same addresses, sizes and mnemonics, but where capstone 4.0.2 (Debian
# 12) lacks the extension objdump 2.40 decodes (SVE, MTE, the LSE atomics,
# MOPS: cyctop shows ".inst 0x... ; undefined" for those words) and the
# system-register aliases capstone 4 leaves as "sys" (dc, ic, at, tlbi).
# Those may be at most 0.5 % of the instructions (some 0.11 % here).  Zero
# words objdump folds into "..." are skipped.  Then the calls through the
# PLT in arm64 libpfm: NAME@plt as objdump names the stubs.
. "$SRCDIR/tests/lib.sh"

DUMP="$(dirname "$CYCTOP")/tests/disasm-dump"
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
LACKS = ".inst"                       # a word capstone 4 does not decode
SYS_ALIASES = {"dc", "ic", "at", "tlbi"}
theirs = {}
for line in open(sys.argv[2]):
    m = re.match(r"\s+([0-9a-f]+):\s+(\S+)", line)
    if m:
        theirs[int(m.group(1), 16)] = m.group(2)
n = lacking = 0
bad = []
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if len(f) < 7:
        continue
    addr, size, mn = int(f[0], 16), int(f[1], 16), f[6].split(" ")[0]
    n += 1
    if addr not in theirs and f[6].startswith(".inst 0x00000000"):
        continue                      # objdump's "..." for zero padding
    if size != 4 or addr not in theirs:
        bad.append((hex(addr), size, mn, theirs.get(addr)))
    elif mn != theirs[addr]:
        if mn == LACKS or (mn == "sys" and theirs[addr] in SYS_ALIASES):
            lacking += 1
        else:
            bad.append((hex(addr), mn, theirs[addr]))
print("%d instructions, %d objdump decodes and capstone 4 does not, %d different"
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
