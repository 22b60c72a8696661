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
  mk-perfdata.py late-map OUT BIN LIB
      process 300 (alpha) maps LIB at time 3 and BIN at time 2, BIN's
      MMAP2 written after LIB's (a record that came late to the writer),
      then 20 samples in BIN's work_60: in time order BIN is mapped first,
      the program.
  mk-perfdata.py offcpu OUT BIN LIBC
      what perf 6.1's perf record --off-cpu writes (tools/perf/util/
      bpf_off_cpu.c): cpu-clock (perf's fallback from cycles) and
      offcpu-time (a software bpf-output event, sample_type IDENTIFIER|IP|
      TID|TIME|PERIOD|CALLCHAIN, named in HEADER_EVENT_DESC).  Process 300
      (alpha, threads 300 and 301, BIN at 0x400000, LIBC at LIBC_BASE)
      sampled 40 times in work_60; then, after every other record (perf's
      made-up times from 2^64 - 2^32), one offcpu-time sample per thread
      and user stack, its period the nanoseconds away, its call chain
      PERF_CONTEXT_USER and the user stack: 300 in clock_nanosleep <-
      work_30 30 ms, 301 in read <- work_10 12 ms, 301 in
      pthread_mutex_lock <- work_60 6 ms, 300 in work_60 2 ms (no C
      library function: reason other).
  mk-perfdata.py offcpu-raw OUT BIN LIBC
      the same waits as newer perf (6.14, --off-cpu-thresh) writes them
      as they end: offcpu-time samples with PERF_SAMPLE_RAW, at times
      after the cpu-clock samples, each with its fields in the raw data
      (u32 pid, u32 tid, u64 period, u64 nr, the call chain, u64 cgroup;
      tools/perf/util/evsel.c, __set_offcpu_sample), the sample's own
      period 1.
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


def dsym(path, name):
    """NAME's address in shared library PATH's dynamic symbols."""
    for line in subprocess.run(["nm", "-D", path], capture_output=True, text=True).stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[2].split("@")[0] == name:
            return int(f[0], 16)
    sys.exit("%s: no %s" % (path, name))


LIBC_BASE = 0x7f1000000000
PERF_CONTEXT_USER = 0xfffffffffffffe00
OFFCPU_TIMESTAMP = 0xffffffff00000000  # bpf_off_cpu.c: after every record


def offcpu(out, binary, libc, raw=False):
    ip, tid, time, callchain, period, identifier = 1, 2, 4, 0x20, 0x100, 0x10000
    if raw:
        callchain = 0x400  # PERF_SAMPLE_RAW in its place
    base_type = identifier | ip | tid | time | period
    # inherit mmap comm freq task sample_id_all exclude_guest mmap2 comm_exec
    track = (1 << 1) | (1 << 8) | (1 << 9) | (1 << 10) | (1 << 13) | (1 << 18) | \
        (1 << 20) | (1 << 23) | (1 << 24)
    attrs = [  # type, config, sample_freq, sample_type, flags, name, id
        (1, 0, 4000, base_type, track, "cpu-clock", 1),
        # bpf-output (PERF_COUNT_SW_BPF_OUTPUT), freq 1 at period 1
        (1, 10, 1, base_type | callchain,
         (1 << 1) | (1 << 10) | (1 << 18) | (1 << 20), "offcpu-time", 2),
    ]

    def attr(a):
        b = struct.pack("<IIQQQQQ", a[0], 128, a[1], a[2], a[3], 4, a[4])
        return b + b"\0" * (128 - len(b))

    def rec_id(typ, body, pid, t, misc=0):  # sample_id_all: TID, TIME, IDENTIFIER
        body += struct.pack("<IIQQ", pid, pid, t, 1)
        return struct.pack("<IHH", typ, misc, 8 + len(body)) + body

    def clock_sample(pid, at, t):
        return struct.pack("<IHHQQIIQQ", 9, 2, 48, 1, at, pid, pid, t, 250000)

    def off_sample(pid, thread, stack, ns, t):
        if raw:
            data = struct.pack("<IIQQQ", pid, thread, ns, len(stack) + 1, PERF_CONTEXT_USER)
            data += b"".join(struct.pack("<Q", x) for x in stack) + struct.pack("<Q", 0)
            data += b"\0" * 4  # u32 size and the data end on 8 bytes
            body = struct.pack("<QQIIQQI", 2, 0, pid, pid, t, 1, len(data)) + data
            return struct.pack("<IHH", 9, 2, 8 + len(body)) + body
        body = struct.pack("<QQIIQQQQ", 2, stack[0], pid, thread, t, ns, len(stack) + 1,
                           PERF_CONTEXT_USER)
        body += b"".join(struct.pack("<Q", x) for x in stack)
        return struct.pack("<IHH", 9, 2, 8 + len(body)) + body

    def map2(pid, base, path, t):
        size = (len(open(path, "rb").read()) + 4095) & ~4095
        body = struct.pack("<IIQQQIIQQII", pid, pid, base, size, 0, 0, 0, 0, 0, 5, 2)
        return rec_id(10, body + pad(path.encode()), pid, t, misc=2)

    at = lambda fn: OLD_BASE + sym(binary, fn) + 4
    lc = lambda fn: LIBC_BASE + dsym(libc, fn) + 4
    data = rec_id(3, struct.pack("<II", 300, 300) + pad(b"alpha"), 300, 1)
    data += rec_id(3, struct.pack("<II", 300, 301) + pad(b"alpha"), 300, 2)
    data += map2(300, OLD_BASE, binary, 3) + map2(300, LIBC_BASE, libc, 4)
    for t in range(10, 50):
        data += clock_sample(300, at("work_60"), t * 1000)
    t = 60000 if raw else OFFCPU_TIMESTAMP
    for thread, stack, ns in ((300, [lc("clock_nanosleep"), at("work_30")], 30000000),
                              (301, [lc("read"), at("work_10")], 12000000),
                              (301, [lc("pthread_mutex_lock"), at("work_60")], 6000000),
                              (300, [at("work_60")], 2000000)):
        data += off_sample(300, thread, stack, ns, t)
        t += 1
    # the ids, the attrs (each with its ids' section), the data, the
    # features' sections and HEADER_EVENT_DESC (feature 12)
    hdr_size, entry = 104, 128 + 16
    ids_at = hdr_size
    attrs_at = ids_at + 8 * len(attrs)
    data_at = attrs_at + entry * len(attrs)
    body = b"".join(struct.pack("<Q", a[6]) for a in attrs)
    for i, a in enumerate(attrs):
        body += attr(a) + struct.pack("<QQ", ids_at + 8 * i, 8)
    desc = struct.pack("<II", len(attrs), 128)
    for a in attrs:
        name = a[5].encode() + b"\0"
        name += b"\0" * (-len(name) % 64)
        desc += attr(a) + struct.pack("<II", 1, len(name)) + name + struct.pack("<Q", a[6])
    feat_at = data_at + len(data)
    feats = struct.pack("<QQ", feat_at + 16, len(desc)) + desc
    hdr = b"PERFILE2" + struct.pack("<QQ", hdr_size, entry)
    hdr += struct.pack("<QQQQQQ", attrs_at, entry * len(attrs), data_at, len(data), 0, 0)
    hdr += struct.pack("<Q", 1 << 12) + b"\0" * 24
    open(out, "wb").write(hdr + body + data + feats)


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


def late_map(out, binary, lib):
    ip = OLD_BASE + sym(binary, "work_60")
    data = comm(300, "alpha", 1) + mmap2(300, NEW_BASE, lib, 3) + mmap2(300, OLD_BASE, binary, 2)
    for t in range(10, 30):
        data += sample(300, ip, t)
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
    {"fork": fork, "procs": procs, "stream": stream, "late": late, "late-map": late_map,
     "offcpu": offcpu, "offcpu-raw": lambda *a: offcpu(*a, raw=True)}[sys.argv[1]](*sys.argv[2:])
