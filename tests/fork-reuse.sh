#!/bin/sh
# A FORK onto a pid whose process exited: a hand-made perf.data (written
# below) where process 100 runs workloads/mix and exits, process 200 runs
# workloads/callers and forks a new process 100, sampled at mix's main
# (not mapped in the new process) and at callers' main (its parent's
# mapping).  cyctop reads it as perf report does: the dead process's
# mappings are gone, the parent's are there.  (It kept the dead mappings:
# 68 % in mix's main, callers' main [unknown].)
. "$SRCDIR/tests/lib.sh"

command -v perf >/dev/null 2>&1 || { echo "SKIP: no perf"; exit 77; }
command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }
cat >"$TMP/mkfork.py" <<'PY'
import struct, subprocess, sys
# mk-fork.py OUT OLD NEW: a perf.data (cpu-clock, IP|TID|TIME) where process
# 100 runs OLD (mapped at 0x400000) and exits, process 200 runs NEW (mapped
# at 0x7f0000000000) and forks a new process 100, which is sampled at OLD's
# and NEW's main: the first address is no longer mapped.
out, old, new = sys.argv[1:4]
OLD_BASE, NEW_BASE = 0x400000, 0x7f0000000000

def sym(path, name):
    for line in subprocess.run(["nm", path], capture_output=True, text=True).stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[2] == name:
            return int(f[0], 16)
    sys.exit("%s: no %s" % (path, name))

def pad(b):
    b += b"\0"
    return b + b"\0" * (-len(b) % 8)

def rec(typ, body, pid, tid, time, misc=0):
    body += struct.pack("<IIQ", pid, tid, time)  # sample_id_all: TID, TIME
    return struct.pack("<IHH", typ, misc, 8 + len(body)) + body

def comm(pid, name, t):
    return rec(3, struct.pack("<II", pid, pid) + pad(name.encode()), pid, pid, t)

def mmap2(pid, base, path, t):
    size = (len(open(path, "rb").read()) + 4095) & ~4095
    body = struct.pack("<IIQQQIIQQII", pid, pid, base, size, 0, 0, 0, 0, 0, 5, 2)
    return rec(10, body + pad(path.encode()), pid, pid, t, misc=2)

def task(typ, pid, ppid, t):
    return rec(typ, struct.pack("<IIIIQ", pid, ppid, pid, ppid, t), pid, pid, t)

def sample(pid, ip, t):
    return struct.pack("<IHHQIIQ", 9, 2, 32, ip, pid, pid, t)

t = 1000
data = comm(100, "old", t) + mmap2(100, OLD_BASE, old, t + 1)
data += comm(200, "new", t + 2) + mmap2(200, NEW_BASE, new, t + 3)
old_main, new_main = OLD_BASE + sym(old, "main"), NEW_BASE + sym(new, "main")
t += 10
for _ in range(10):
    data += sample(100, old_main, t); t += 1
data += task(4, 100, 1, t); t += 1             # EXIT: process 100 is gone
data += task(7, 100, 200, t); t += 1           # FORK: a new 100, child of 200
for _ in range(5):
    data += sample(100, old_main, t); t += 1   # not mapped in the new 100
for _ in range(7):
    data += sample(100, new_main, t); t += 1   # its parent's program

attr = struct.pack("<IIQQQQQ", 1, 128, 0, 100000, 7, 0, (1 << 8) | (1 << 9) | (1 << 13) | (1 << 18) | (1 << 23))
attr += b"\0" * (128 - len(attr))
attr += struct.pack("<QQ", 0, 0)              # ids: none (one event)
HDR = 104
attrs_off, data_off = HDR, HDR + len(attr)
hdr = b"PERFILE2" + struct.pack("<QQ", HDR, len(attr))
hdr += struct.pack("<QQQQQQ", attrs_off, len(attr), data_off, len(data), 0, 0)
hdr += b"\0" * 32                             # no features
open(out, "wb").write(hdr + attr + data)
PY
python3 "$TMP/mkfork.py" "$TMP/fork.data" "$WORKLOADS/mix" "$WORKLOADS/callers" ||
	fail "writing the file"
perf report -i "$TMP/fork.data" --stdio --sort dso,sym 2>/dev/null |
	awk '$1 ~ /%$/ { sub("%", "", $1); print $1, $2, $4 }' >"$TMP/perf.txt"
[ "$(wc -l <"$TMP/perf.txt")" -eq 3 ] || fail "perf report: $(cat "$TMP/perf.txt")"
ok
run "$CYCTOP" -b -i "$TMP/fork.data" --format json
expect_rc 0 "cyctop -i"
# every perf row: the same share for (module, function); perf's per-address
# rows of unmapped code are cyctop's [unknown]
while read -r pct dso sym; do
	case $sym in 0x*) sym='[unknown]' ;; esac
	got=$(json_last "$TMP/out" "round(sum(f['percent']['cpu-clock'] for f in o['functions'] if f['name'] == '$sym' and f['module'].split('/')[-1] == '$dso'), 2)")
	[ "$got" = "$pct" ] || fail "$dso $sym: $got %, perf report $pct %"
	ok
done <"$TMP/perf.txt"
done_ok
