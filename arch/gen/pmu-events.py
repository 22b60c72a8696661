#!/usr/bin/env python3
"""Generates arch/perf-events.c: the core events of Linux perf's pmu-events
JSON for the models cyctop has, by perf's names, with their encodings.

usage: arch/gen/pmu-events.py PERF_ARCH_DIR VERSION > arch/perf-events.c
       arch/gen/pmu-events.py --sample PERF_ARCH_DIR VERSION > tests/perf-events-sample.inc

PERF_ARCH_DIR is tools/perf/pmu-events/arch of a Linux source tree (the
build needs neither it nor Python: the output is committed).  VERSION says
which tree (e.g. "Linux 6.12.117, Debian linux-source-6.12 6.12.117-1~deb12u1").

Encodings are computed as perf's jevents.py and the kernel's PMU formats do:
  - event = EventCode (the first of a list), ExtSel << 8; x86 format
    "event=config:0-7" (Intel), "event=config:0-7,32-35" (AMD,
    arch/x86/events/amd/core.c): select bits 11:8 go to config bits 35:32;
  - umask config:8-15, edge :18, any :21, inv :23, cmask :24-31;
  - MSRIndex 0x3F6 ldlat=, 0x1A6/0x1A7 offcore_rsp=, 0x3F7 frontend=: the
    MSRValue goes to config1 (arch/x86/events/intel/core.c formats
    "ldlat=config1:0-15", "offcore_rsp=config1:0-63", "frontend=config1:0-23");
  - jevents.py's fixed real_event(): inst_retired.any event=0xc0,
    cpu_clk_unhalted.ref event=0x0,umask=0x03, cpu_clk_unhalted.thread and
    .core event=0x3c;
  - Arm: ArchStdEvent resolved through arm64/common-and-microarch.json;
    config = the event number ("event=config:0-15").
Only core events: no uncore units, no metrics.  Hybrid parts' cpu_core and
cpu_atom events are separate tables.  Python 3 standard library only.
"""
import glob
import json
import os
import sys

# table name -> (perf directory, Unit to keep or None, encoding)
TABLES = [
    ("nehalemep", "x86/nehalemep", None, "intel"),
    ("westmereep-sp", "x86/westmereep-sp", None, "intel"),
    ("sandybridge", "x86/sandybridge", None, "intel"),
    ("ivybridge", "x86/ivybridge", None, "intel"),
    ("haswell", "x86/haswell", None, "intel"),
    ("broadwell", "x86/broadwell", None, "intel"),
    ("skylake", "x86/skylake", None, "intel"),
    ("skylakex", "x86/skylakex", None, "intel"),
    ("cascadelakex", "x86/cascadelakex", None, "intel"),
    ("icelake", "x86/icelake", None, "intel"),
    ("icelakex", "x86/icelakex", None, "intel"),
    ("sapphirerapids", "x86/sapphirerapids", None, "intel"),
    ("emeraldrapids", "x86/emeraldrapids", None, "intel"),
    ("graniterapids", "x86/graniterapids", None, "intel"),
    ("sierraforest", "x86/sierraforest", None, "intel"),
    ("alderlake_atom", "x86/alderlake", "cpu_atom", "intel"),
    ("alderlake_core", "x86/alderlake", "cpu_core", "intel"),
    ("amdzen1", "x86/amdzen1", None, "amd"),
    ("amdzen2", "x86/amdzen2", None, "amd"),
    ("amdzen3", "x86/amdzen3", None, "amd"),
    ("amdzen4", "x86/amdzen4", None, "amd"),
    ("amdzen5", "x86/amdzen5", None, "amd"),
    ("neoverse-n1", "arm64/arm/neoverse-n1", None, "arm"),
    ("neoverse-v1", "arm64/arm/neoverse-v1", None, "arm"),
    ("neoverse-n2-v2", "arm64/arm/neoverse-n2-v2", None, "arm"),
    ("cortex-a53", "arm64/arm/cortex-a53", None, "arm"),
    ("cortex-a57-a72", "arm64/arm/cortex-a57-a72", None, "arm"),
    ("cortex-a76", "arm64/arm/cortex-a76", None, "arm"),
]

FIXED = {  # jevents.py real_event()
    "inst_retired.any": (0xC0, 0),
    "inst_retired.any_p": (0xC0, 0),
    "cpu_clk_unhalted.ref": (0x00, 0x03),
    "cpu_clk_unhalted.thread": (0x3C, 0),
    "cpu_clk_unhalted.core": (0x3C, 0),
    "cpu_clk_unhalted.thread_any": (0x3C, 0),
}
MSR_KIND = {0x3F6: 1, 0x1A6: 2, 0x1A7: 2, 0x3F7: 3}  # ldlat, offcore_rsp, frontend
FLAG_INV, FLAG_EDGE, FLAG_ANY, FLAG_DEPRECATED = 1, 2, 4, 8


def num(v):
    return int(str(v).split(",", 1)[0], 0)


def one_line(s, limit=100):
    s = " ".join((s or "").split())
    if len(s) > limit:
        s = s[: limit - 3].rstrip() + "..."
    return s


def load(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    return data if isinstance(data, list) else []


def arm_std(arch):
    std = {}
    for e in load(os.path.join(arch, "arm64/common-and-microarch.json")):
        if "EventName" in e:
            std[e["EventName"].upper()] = e
    return std


def mapfile_versions(arch):
    ver = {}
    with open(os.path.join(arch, "x86/mapfile.csv"), encoding="utf-8") as f:
        for line in f:
            p = line.strip().split(",")
            if len(p) >= 4 and p[3] == "core":
                ver[p[2]] = (p[0], p[1])
    return ver


def events(arch, directory, unit, enc, std):
    rows = {}
    files = sorted(glob.glob(os.path.join(arch, directory, "*.json")))
    for path in files:
        base = os.path.basename(path)
        if base.startswith("uncore") or "metric" in base or base in (
                "data-fabric.json", "l3-cache.json", "memory-controller.json"):
            continue
        for e in load(path):
            if "EventName" not in e and "ArchStdEvent" not in e:
                continue
            if enc == "arm" and "ArchStdEvent" in e:
                s = std.get(e["ArchStdEvent"].upper(), {})
                e = dict(s, **e)
                e.setdefault("EventName", e["ArchStdEvent"])
            if e.get("Unit") != unit:
                continue
            if enc == "arm" and "EventCode" not in e:
                continue  # an ArchStdEvent the common file lacks
            # x86 without EventCode: perf's event=0 (fixed-counter pseudo
            # encodings such as TOPDOWN.SLOTS, CPU_CLK_UNHALTED.REF_TSC)
            name = e["EventName"]
            rows[name.lower()] = encode(e, enc, base)
    return rows


def encode(e, enc, base):
    name = e["EventName"]
    sel = num(e.get("EventCode", "0"))
    if "ExtSel" in e:
        sel |= num(e["ExtSel"]) << 8
    umask = num(e.get("UMask", "0")) & 0xFF
    if name.lower() in FIXED:
        sel, umask = FIXED[name.lower()]
    flags = 0
    if num(e.get("Invert", "0")):
        flags |= FLAG_INV
    if num(e.get("EdgeDetect", "0")):
        flags |= FLAG_EDGE
    if num(e.get("AnyThread", "0")):
        flags |= FLAG_ANY
    if e.get("Deprecated") == "1":
        flags |= FLAG_DEPRECATED
    msr, msrval = 0, 0
    if e.get("MSRIndex") and num(e["MSRIndex"]) in MSR_KIND:
        msr, msrval = MSR_KIND[num(e["MSRIndex"])], num(e.get("MSRValue", "0"))
    desc = e.get("BriefDescription") or e.get("PublicDescription") or ""
    return {
        "name": name, "sel": sel, "umask": umask, "cmask": num(e.get("CounterMask", "0")),
        "flags": flags, "msr": msr, "msrval": msrval, "desc": one_line(desc), "file": base,
        "enc": enc,
    }


def config(r):
    """attr.config and config1 as the kernel's format strings make them."""
    if r["enc"] == "arm":
        return r["sel"], 0
    c = (r["sel"] & 0xFF) | r["umask"] << 8 | r["cmask"] << 24
    c |= (r["flags"] & FLAG_EDGE and 1) << 18 | (r["flags"] & FLAG_ANY and 1) << 21
    c |= (r["flags"] & FLAG_INV and 1) << 23
    c |= (r["sel"] >> 8) << 32
    return c, r["msrval"] if r["msr"] else 0


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Pool:
    """One string pool, each string once (names recur across models)."""

    def __init__(self):
        self.off, self.parts, self.size = {}, [], 0

    def add(self, s):
        if s not in self.off:
            self.off[s] = self.size
            self.parts.append(s)
            self.size += len(s.encode()) + 1
        return self.off[s]


def generate(arch, version):
    std = arm_std(arch)
    vers = mapfile_versions(arch)
    pool, extras = Pool(), [0]
    out = []
    tables = []
    for tname, directory, unit, enc in TABLES:
        rows = events(arch, directory, unit, enc, std)
        leaf = directory.split("/")[-1]
        v = vers.get(leaf, ("", ""))
        tables.append((tname, directory, unit, enc, v, sorted(rows.items())))
    out.append("/* Generated by arch/gen/pmu-events.py: do not edit.\n *")
    out.append(" * Source: Linux perf tools/perf/pmu-events/arch (%s)." % version)
    out.append(" * Core events of these directories (x86 versions from x86/mapfile.csv):")
    for tname, directory, unit, enc, v, rows in tables:
        ver = " %s (%s)" % (v[1], v[0]) if v[0] else ""
        out.append(" *   %-16s %s%s%s, %d events" % (
            tname, directory, "/" + unit if unit else "", ver, len(rows)))
    out.append(" */")
    out.append('#include "arch/perf-events.h"\n')
    out.append("const char perf_events_source[] = %s;\n" % c_str(
        "Linux perf pmu-events, " + version))
    body = []
    for tname, directory, unit, enc, v, rows in tables:
        ident = tname.replace("-", "_")
        body.append("static const struct perf_event_row rows_%s[] = {" % ident)
        for low, r in rows:
            x = 0
            if r["msr"]:
                extras.append(r["msrval"])
                x = len(extras) - 1
            body.append("{%d,%d,0x%x,0x%x,%d,%d,%d,%d}," % (
                pool.add(r["name"]), pool.add(r["desc"]), r["sel"], r["umask"], r["cmask"],
                r["flags"], r["msr"], x))
        body.append("};\n")
    out.append("const char perf_events_pool[] =")
    line = ""
    for s in pool.parts:  # each literal ends at its \0: no octal run-on
        lit = c_str(s)[:-1] + '\\0"'
        if line and len(line) + len(lit) > 100:
            out.append(line)
            line = ""
        line += ("\t" if not line else " ") + lit
    out.append(line)
    out.append("\t;\n")
    out.append("const uint64_t perf_events_msrval[] = {")
    for i in range(0, len(extras), 6):
        out.append("\t" + " ".join("0x%x," % v for v in extras[i:i + 6]))
    out.append("};\n")
    out.extend(body)
    out.append("const struct perf_events_table perf_events_tables[] = {")
    for tname, directory, unit, enc, v, rows in tables:
        ident = tname.replace("-", "_")
        src = "%s%s %s" % (directory, "/" + unit if unit else "", v[1])
        out.append("\t{ %s, %s, %s, rows_%s, sizeof(rows_%s) / sizeof(rows_%s[0]) }," % (
            c_str(tname), c_str(src.strip()), "true" if enc == "amd" else "false", ident,
            ident, ident))
    out.append("\t{ NULL, NULL, false, NULL, 0 },")
    out.append("};")
    return "\n".join(out) + "\n"


# The test sample: per table every event of a special kind (select > 0xff,
# CounterMask, Invert, EdgeDetect, AnyThread, an MSR value), up to 8 of each,
# and every n-th other event, at least 24; with the config and config1 perf
# computes (config() above, from the JSON fields).
def sample(arch, version):
    std = arm_std(arch)
    vers = mapfile_versions(arch)
    out = ["/* Generated by arch/gen/pmu-events.py --sample: do not edit.",
           " * Expected encodings of a sample of perf's core events per table, from",
           " * Linux perf tools/perf/pmu-events/arch (%s): table, event," % version,
           " * config, config1, JSON file. */"]
    for tname, directory, unit, enc, in TABLES:
        rows = sorted(events(arch, directory, unit, enc, std).items())
        leaf = directory.split("/")[-1]
        picked = []
        kinds = [lambda r: r["sel"] > 0xFF, lambda r: r["cmask"], lambda r: r["flags"] & FLAG_INV,
                 lambda r: r["flags"] & FLAG_EDGE, lambda r: r["flags"] & FLAG_ANY,
                 lambda r: r["msr"]]
        for k in kinds:
            picked += [low for low, r in rows if k(r)][:8]
        step = max(1, len(rows) // 24)
        picked += [low for low, r in rows[::step]]
        seen = set()
        d = dict(rows)
        for low in picked:
            if low in seen:
                continue
            seen.add(low)
            r = d[low]
            c, c1 = config(r)
            out.append('{ "%s", "%s", 0x%xull, 0x%xull, "%s/%s %s" },' % (
                tname, r["name"], c, c1, directory, r["file"], vers.get(leaf, ("", ""))[1]))
    return "\n".join(out) + "\n"


def main():
    args = sys.argv[1:]
    want_sample = args[:1] == ["--sample"]
    if want_sample:
        args = args[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    sys.stdout.write((sample if want_sample else generate)(args[0], args[1]))


if __name__ == "__main__":
    main()
