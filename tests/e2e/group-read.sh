#!/bin/sh
# A group read whose value goes down (a hostile file; inherited counters of
# several threads sharing an id): perf record '{cpu-clock,page-faults}:S'
# of workloads/mix, the leader's value in one sample set to 1, below the
# one before.  cyctop ignores that read, where value - last weighed nearly
# 2^64 and wrapped the sums: the leader's count is its largest value, as on
# the file before the patch (perf report's count there), and the JSON's
# samples add up.
. "$SRCDIR/tests/e2e/lib.sh"

command -v perf >/dev/null 2>&1 || { echo "SKIP: no perf"; exit 77; }
perf record -q -e '{cpu-clock,page-faults}:S' -o "$TMP/lead.data" -- "$WORKLOADS/mix" 0.2 \
	>/dev/null 2>&1 || { echo "SKIP: perf record of a leader-sampled group failed"; exit 77; }
perf evlist -v -i "$TMP/lead.data" 2>/dev/null | grep -q 'sample_type: IP|TID|TIME|READ|ID|PERIOD, read_format: ID|GROUP|LOST' ||
	{ echo "SKIP: this perf writes another sample layout: $(perf evlist -v -i "$TMP/lead.data")"; exit 77; }
cat >"$TMP/patch.py" <<'PY'
import struct, sys
# patch-read.py IN OUT: a leader-sampling file ('{a,b}:S', sample_type
# IP|TID|TIME|READ|ID|PERIOD, read_format ID|GROUP|LOST) with the leader's
# value in the middle sample set below the one before; prints the leader's
# count for a reader that ignores a decreasing read (time order).
src, dst = sys.argv[1], sys.argv[2]
b = bytearray(open(src, "rb").read())
assert b[:8] == b"PERFILE2"
data_off, data_size = struct.unpack_from("<QQ", b, 40)
recs, off = [], data_off
while off < data_off + data_size:
    typ, misc, size = struct.unpack_from("<IHH", b, off)
    if size == 0:
        break
    if typ == 9:
        ip, pid, tid, time, sid, period, nr = struct.unpack_from("<QIIQQQQ", b, off + 8)
        vals = []
        for i in range(nr):
            v, vid, lost = struct.unpack_from("<QQQ", b, off + 8 + 48 + 24 * i)
            vals.append((off + 8 + 48 + 24 * i, v, vid))
        recs.append((time, vals))
    off += size
recs.sort(key=lambda r: r[0])
assert len(recs) >= 20, len(recs)
mid = len(recs) // 2
pos, v, vid = recs[mid][1][0]
prev = recs[mid - 1][1][0][1]
assert prev > 1
struct.pack_into("<Q", b, pos, 1)
recs[mid][1][0] = (pos, 1, vid)
last, total = {}, {}
for _, vals in recs:
    for _, v, vid in vals:
        if v > last.get(vid, 0):
            total[vid] = total.get(vid, 0) + v - last.get(vid, 0)
            last[vid] = v
open(dst, "wb").write(b)
# the leader's count: every id it has (one per thread: an ASan build's
# LeakSanitizer thread inherits the counters too)
print(sum(total.get(vid, 0) for vid in {vals[0][2] for _, vals in recs}))
PY
want=$(python3 "$TMP/patch.py" "$TMP/lead.data" "$TMP/bad.data") || fail "patching the file"
perf_count=$(perf report -i "$TMP/lead.data" --stdio --no-group 2>/dev/null |
	awk '/^# Samples: .* of events? .cpu-clock./ { e = 1 } e && /^# Event count/ { print $NF; exit }')
[ "$want" = "$perf_count" ] || fail "the unpatched leader's count: $want, perf report $perf_count"
ok
run "$CYCTOP" -b -i "$TMP/bad.data" --format json
expect_rc 0 "cyctop -i the patched file"
expect_true "$(json_last "$TMP/out" "round(event('cpu-clock')['count']) == $want")" \
	"the leader's count: $(json_last "$TMP/out" "event('cpu-clock')['count']"), want $want"
# the rows weigh each read's delta: they add up to the count; the event's
# samples are the sample records, the ignored one aside
perf_samples() { # FILE EVENT: perf report's Samples of EVENT in FILE
	perf report -i "$1" --stdio --no-group 2>/dev/null |
		awk -v e="'$2'" '/^# Samples: / && $NF == e { print $3; exit }'
}
n=$(perf_samples "$TMP/lead.data" cpu-clock)
expect_true "$(json_last "$TMP/out" "sum(f['samples']['cpu-clock'] for f in o['functions']) == round(event('cpu-clock')['count']) == $want and event('cpu-clock')['samples'] == $n - 1")" \
	"functions' samples add up to the count, $n - 1 samples: $(json_last "$TMP/out" "event('cpu-clock')")"

# the file as perf wrote it: each member's samples are the reads where it
# moved (perf's deliver_sample_value skips a zero delta), its count the sum
run "$CYCTOP" -b -i "$TMP/lead.data" --format json
expect_rc 0 "cyctop -i the leader-sampling file"
for ev in cpu-clock page-faults; do
	n=$(perf_samples "$TMP/lead.data" $ev)
	c=$(perf report -i "$TMP/lead.data" --stdio --no-group 2>/dev/null |
		awk -v e="'$ev'" '/^# Samples: / { on = $NF == e } on && /^# Event count/ { print $NF; exit }')
	expect_true "$(json_last "$TMP/out" "event('$ev')['samples'] == $n and round(event('$ev')['count']) == $c")" \
		"$ev: perf report's $n samples, count $c: $(json_last "$TMP/out" "event('$ev')")"
done
done_ok
