#!/usr/bin/env python3
"""Writes the seed corpus of tests/fuzz/fuzz-record.c: python3 tests/fuzz/gen-record-corpus.py
[DIR] (default: tests/fuzz/corpus/record/).  Fixed bytes, so the same files every run;
tests/fuzz/fuzz-record.sh checks that the committed seeds are what this writes.

A seed is tests/fuzz/fuzz-record.c's format (u64 sample_type, u64 regs_user,
u8 flags: bit 0 sample_id_all, bit 1 branch HW_INDEX; u8 read_format,
6 bytes regs_intr) then one record: a
perf_event_header and its body as the kernel writes it
(include/uapi/linux/perf_event.h)."""
import os
import struct
import sys

# include/uapi/linux/perf_event.h
IP, TID, TIME, ADDR, READ, CALLCHAIN, ID, CPU, PERIOD, STREAM_ID, RAW = (
    1 << b for b in range(11))
BRANCH_STACK, REGS_USER, STACK_USER, WEIGHT, DATA_SRC, IDENTIFIER = (
    1 << b for b in range(11, 17))
TRANSACTION, REGS_INTR, PHYS_ADDR, AUX, CGROUP, DATA_PAGE_SIZE, CODE_PAGE_SIZE = (
    1 << b for b in range(17, 24))
WEIGHT_STRUCT = 1 << 24
FMT_TIMES, FMT_ID, FMT_GROUP, FMT_LOST = 3, 4, 8, 16   # read_format bits
MMAP, LOST, COMM, EXIT, THROTTLE, UNTHROTTLE, FORK = 1, 2, 3, 4, 5, 6, 7
SAMPLE, MMAP2, SWITCH = 9, 10, 14
MISC_USER, MISC_COMM_EXEC, MISC_MMAP_BUILD_ID = 2, 1 << 13, 1 << 14
ABI_NONE, ABI_64 = 0, 2
CONTEXT_USER = 2 ** 64 - 512

# what a live session asks for (engine/session-priv.h SAMPLE_TYPE), and
# the registers of --call-graph dwarf (engine/session.c CG_REGS_USER)
SESSION = IDENTIFIER | IP | TID | TIME | PERIOD
CG_REGS = 0xff0fff
PID, TIDV, T0, SID = 4242, 4243, 1000000123456, 77


def u64(*v):
    return struct.pack("<%dQ" % len(v), *v)


def u32(*v):
    return struct.pack("<%dI" % len(v), *v)


def cstr(s):
    b = s.encode() + b"\0"
    return b + b"\0" * (-len(b) % 8)


def seed(st, body, rtype=SAMPLE, misc=MISC_USER, regs=0, sid_all=1, size=None,
         hw_index=0, rf=0, intr=0):
    """format + header + body; SIZE overrides the header's size"""
    fmt = struct.pack("<QQBB", st, regs, sid_all | hw_index << 1, rf) + intr.to_bytes(6, "little")
    size = 8 + len(body) if size is None else size
    return fmt + struct.pack("<IHH", rtype, misc, size) + body


def trailer():
    """sample_id_all for SESSION: TID, TIME, IDENTIFIER"""
    return u32(PID, TIDV) + u64(T0, SID)


ALL_FIXED = IDENTIFIER | IP | TID | TIME | ADDR | ID | STREAM_ID | CPU | PERIOD


def trailer_all():
    """sample_id_all for ALL_FIXED: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER"""
    return u32(PID, TIDV) + u64(T0, SID, SID + 1) + u32(3, 0) + u64(SID)


def seeds():
    ip = 0x401136
    s = {}
    s["sample-session"] = seed(SESSION, u64(SID, ip) + u32(PID, TIDV) + u64(T0, 200000))
    s["sample-all-fixed"] = seed(
        ALL_FIXED,
        u64(SID, ip) + u32(PID, TIDV) + u64(T0, 0x7ffd0000, SID, SID + 1)
        + u32(3, 0) + u64(100003))
    s["sample-callchain"] = seed(
        SESSION | CALLCHAIN, u64(SID, ip) + u32(PID, TIDV) + u64(T0, 200000)
        + u64(4, CONTEXT_USER, ip, 0x401200, 0x7f0000012345))
    regs = [0x1000 + 8 * i for i in range(bin(CG_REGS).count("1"))]
    stack = bytes(range(64))
    s["sample-dwarf"] = seed(
        SESSION | CALLCHAIN | REGS_USER | STACK_USER,
        u64(SID, ip) + u32(PID, TIDV) + u64(T0, 200000) + u64(0)
        + u64(ABI_64, *regs) + u64(len(stack)) + stack + u64(48), regs=CG_REGS)
    s["sample-regs-abi-none"] = seed(
        SESSION | REGS_USER | STACK_USER,
        u64(SID, ip) + u32(PID, TIDV) + u64(T0, 200000) + u64(ABI_NONE) + u64(0),
        regs=CG_REGS)
    s["sample-regs-no-mask"] = seed(   # refused: no register count
        IP | REGS_USER, u64(ip) + u64(ABI_64, 1, 2, 3), regs=0)
    s["sample-tail"] = seed(           # no IP; WEIGHT, DATA_SRC: last, not read
        TID | PERIOD | WEIGHT | DATA_SRC, u32(PID, TIDV) + u64(1000, 35, 0x68100142))
    s["sample-read"] = seed(           # READ without a format: the value alone
        IP | TID | READ, u64(ip) + u32(PID, TIDV) + u64(123456, SID))
    s["sample-read-group"] = seed(     # READ group without its format: misread, refused
        IP | TID | READ, u64(ip) + u32(PID, TIDV) + u64(2, 111, SID, 222, SID + 1))
    s["sample-read-group-fmt"] = seed(   # nr, enabled, running, {value, id, lost}...
        IP | TID | READ, u64(ip) + u32(PID, TIDV) + u64(2, 1000, 900, 111, SID, 0, 222, SID + 1, 0),
        rf=FMT_GROUP | FMT_TIMES | FMT_ID | FMT_LOST)
    s["sample-read-one-fmt"] = seed(     # value, enabled, running, id
        IP | READ, u64(ip) + u64(5, 1000, 900, SID), rf=FMT_TIMES | FMT_ID)
    s["sample-raw-branch"] = seed(       # RAW (4 + 12 bytes), BRANCH_STACK with hw_idx
        IP | RAW | BRANCH_STACK, u64(ip) + u32(12) + b"sched_switch" + u64(2, 7)
        + u64(0x1000, 0x2000, 1, 0x3000, 0x4000, 2), hw_index=1)
    s["sample-every-tail"] = seed(       # WEIGHT_STRUCT .. AUX, kernel's order
        IP | WEIGHT_STRUCT | DATA_SRC | TRANSACTION | REGS_INTR | PHYS_ADDR | CGROUP
        | DATA_PAGE_SIZE | CODE_PAGE_SIZE | AUX,
        u64(ip, 0x0003000200000001, 0x68100142, 0x7a, ABI_64, 0xb1, 0xb2, 0x9000, 42,
            4096, 2 << 20, 8, 0xa0a0), misc=1, intr=0x5)
    s["cut-raw-odd"] = seed(IP | RAW, u64(ip) + u32(6) + b"abcdef..")   # 4 + 6: misaligned
    s["cut-branch-nr"] = seed(IP | BRANCH_STACK, u64(ip) + u64(1 << 40, 0, 0, 0))
    s["mmap"] = seed(SESSION, u32(PID, TIDV) + u64(0x400000, 0x1000, 0)
                     + cstr("/usr/bin/true") + trailer(), MMAP)
    s["mmap2"] = seed(
        SESSION, u32(PID, TIDV) + u64(0x7f0000000000, 0x1b000, 0x28000)
        + u32(8, 1) + u64(1234567, 0) + u32(5, 2)
        + cstr("/usr/lib/x86_64-linux-gnu/libc.so.6") + trailer(), MMAP2)
    s["mmap2-build-id"] = seed(
        SESSION, u32(PID, TIDV) + u64(0x7f0000100000, 0x2000, 0)
        + bytes([20, 0, 0, 0]) + bytes(range(0xa0, 0xb4)) + u32(5, 2)
        + cstr("/lib/ld.so") + trailer(), MMAP2, misc=MISC_USER | MISC_MMAP_BUILD_ID)
    s["comm-exec"] = seed(SESSION, u32(PID, TIDV) + cstr("mix") + trailer(), COMM,
                          misc=MISC_COMM_EXEC)
    s["fork"] = seed(IP | ID | PERIOD,   # a trailer of ID alone
                     u32(PID + 1, PID, PID + 1, TIDV) + u64(T0) + u64(SID), FORK)
    s["exit"] = seed(SESSION, u32(PID, PID, TIDV, TIDV) + u64(T0 + 5) + trailer(), EXIT)
    s["lost"] = seed(ALL_FIXED, u64(SID, 17) + trailer_all(), LOST)   # every trailer field
    s["throttle"] = seed(SESSION, u64(T0, SID, SID) + trailer(), THROTTLE)
    s["unthrottle"] = seed(SESSION, u64(T0, SID, SID) + trailer(), UNTHROTTLE)
    s["switch"] = seed(SESSION, trailer(), SWITCH)   # known, skipped
    # truncated and malformed
    s["cut-callchain"] = seed(       # 100 ips announced, 2 there
        IP | CALLCHAIN, u64(ip) + u64(100, ip, ip + 4))
    s["cut-callchain-nr"] = seed(IP | CALLCHAIN, u64(ip))         # no nr
    s["cut-regs-abi"] = seed(        # no abi, no stack size
        IP | REGS_USER | STACK_USER, u64(ip), regs=CG_REGS)
    s["cut-regs"] = seed(            # 3 of 20 registers
        IP | REGS_USER, u64(ip) + u64(ABI_64, 1, 2, 3), regs=CG_REGS)
    s["cut-stack"] = seed(           # stack of 4096 bytes, 16 there
        IP | STACK_USER, u64(ip) + u64(4096) + bytes(16))
    s["cut-dyn-size"] = seed(        # dyn_size above size
        IP | STACK_USER, u64(ip) + u64(16) + bytes(16) + u64(17))
    s["cut-comm-nul"] = seed(SESSION, u32(PID, TIDV) + b"no-terminator", COMM)
    s["cut-comm-pad"] = seed(SESSION, u32(PID, TIDV) + b"abc\0", COMM, sid_all=0)
    s["cut-size-over"] = seed(       # header says more than the input holds
        SESSION, u64(SID, ip) + u32(PID, TIDV), size=512)
    s["cut-size-under"] = seed(SESSION, u64(SID, ip), size=4)   # below a header
    return s


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "corpus", "record")
    for name, data in sorted(seeds().items()):
        with open(os.path.join(out, name + ".rec"), "wb") as f:
            f.write(data)


main()
