"""Hand-made perf.data files for the tests (one cpu-clock event, sample_type
IP|TID|TIME, sample_id_all, no header features), each a situation perf
report reads a known way:

  mk-perfdata.py fork OUT OLD NEW
      process 100 runs OLD (mapped at 0x400000) and exits; process 200 runs
      NEW (at 0x7f0000000000) and forks a new process 100, which is sampled
      at OLD's main (no longer mapped there) and at NEW's (its parent's).
  mk-perfdata.py procs OUT BIN
      processes alpha (300: 40 samples in BIN's work_60, 25 in work_30),
      beta (400: 15 in work_10) and the idle task (0: 20 unmapped): rows
      that sort differently by samples, pid, command and name.
  mk-perfdata.py stream BIN
      pipe mode on stdout, written in pieces with pauses (the reader finds
      the pipe dry between them): process 300's COMM and a FINISHED_ROUND,
      then one round of samples in BIN's work_60 at times 10, 20 (each
      after a pause) and 30, with BIN's MMAP2 (time 5) read last.  In time
      order every sample is in work_60.
  mk-perfdata.py late OUT BIN
      process 300 (alpha) sampled in BIN's work_60 at times 10..29 in two
      rounds (FINISHED_ROUND after each), then once more at time 5: older
      than what the first round's end delivered, one record out of time
      order (perf report: "1 out of order events recorded").
"""
import struct, subprocess, sys, time

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


def write(out, data):
    attr = attr_bytes() + struct.pack("<QQ", 0, 0)  # ids: none (one event)
    hdr_size = 104
    hdr = b"PERFILE2" + struct.pack("<QQ", hdr_size, len(attr))
    hdr += struct.pack("<QQQQQQ", hdr_size, len(attr), hdr_size + len(attr), len(data), 0, 0)
    hdr += b"\0" * 32  # no features
    open(out, "wb").write(hdr + attr + data)


def fork(out, old, new):
    t = 1000
    data = comm(100, "old", t) + mmap2(100, OLD_BASE, old, t + 1)
    data += comm(200, "new", t + 2) + mmap2(200, NEW_BASE, new, t + 3)
    old_main, new_main = OLD_BASE + sym(old, "main"), NEW_BASE + sym(new, "main")
    t += 10
    for _ in range(10):
        data += sample(100, old_main, t); t += 1
    data += task(4, 100, 1, t); t += 1           # EXIT: process 100 is gone
    data += task(7, 100, 200, t); t += 1         # FORK: a new 100, child of 200
    for _ in range(5):
        data += sample(100, old_main, t); t += 1  # not mapped in the new 100
    for _ in range(7):
        data += sample(100, new_main, t); t += 1  # its parent's program
    write(out, data)


def procs(out, binary):
    t = 1000
    data = comm(0, "swapper", t) + comm(300, "alpha", t + 1) + comm(400, "beta", t + 2)
    data += mmap2(300, OLD_BASE, binary, t + 3) + mmap2(400, OLD_BASE, binary, t + 4)
    t += 10
    for pid, fn, n in ((300, "work_60", 40), (300, "work_30", 25), (400, "work_10", 15),
                       (0, None, 20)):
        ip = OLD_BASE + sym(binary, fn) if fn else 0x1000
        for _ in range(n):
            data += sample(pid, ip, t); t += 1
    write(out, data)


def late(out, binary):
    round_end = struct.pack("<IHH", 68, 0, 8)
    ip = OLD_BASE + sym(binary, "work_60")
    data = comm(300, "alpha", 1) + mmap2(300, OLD_BASE, binary, 2)
    for t0 in (10, 20):
        for t in range(t0, t0 + 10):
            data += sample(300, ip, t)
        data += round_end
    data += sample(300, ip, 5) + round_end
    write(out, data)


def attr_bytes():
    # mmap comm task sid_all exclude_guest (perf record's default: the
    # event is named cpu-clock, not cpu-clock:HG) mmap2
    flags = (1 << 8) | (1 << 9) | (1 << 13) | (1 << 18) | (1 << 20) | (1 << 23)
    attr = struct.pack("<IIQQQQQ", 1, 128, 0, 100000, 7, 0, flags)
    return attr + b"\0" * (128 - len(attr))


def stream(binary):
    out = sys.stdout.buffer
    round_end = struct.pack("<IHH", 68, 0, 8)
    ip = OLD_BASE + sym(binary, "work_60")
    header_attr = attr_bytes()  # no ids: one event
    pieces = [
        b"PERFILE2" + struct.pack("<Q", 16)
        + struct.pack("<IHH", 64, 0, 8 + len(header_attr)) + header_attr
        + comm(300, "alpha", 1) + round_end,
        sample(300, ip, 10),
        sample(300, ip, 20),
        mmap2(300, OLD_BASE, binary, 5) + sample(300, ip, 30) + round_end,
    ]
    for i, p in enumerate(pieces):
        if i > 1:
            time.sleep(0.5)  # the pipe runs dry: the reader polls it empty
        out.write(p)
        out.flush()


if __name__ == "__main__":
    {"fork": fork, "procs": procs, "stream": stream, "late": late}[sys.argv[1]](*sys.argv[2:])
