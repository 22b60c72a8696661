#!/usr/bin/env python3
"""The assertions of the arm64 guest run (tests/arm64/guest.sh).

    checks.py WORKDIR BUILD_DIR CPU...

With $CYCTOP_HOST naming the host's (x86) cyctop, the guest's recording is
also annotated there (--symfs): the other architecture's decoder and
symbols, by the ELF's machine.

WORKDIR/CPU.log is the console of the boot of CPU (neoverse-n1,
cortex-a57, max): tests/arm64/run.sh printed each command's output between
"@@OUT NAME@@" and "@@RC NAME STATUS@@".  Prints one "PASS: name",
"FAIL: name (why)" or "SKIP: name (why)" line per check, then
"N passed, N failed"; exits 1 when a check failed.

Bounds, and why:
- Exact counts: perf stat is reproducible to the instruction in the guest
  (three runs, one count), and so is cyctop; the two differ by a constant
  19 instructions in 40M, the child's start-up (each tool hands the exec'd
  command a slightly different process state: argument and environment
  layout), not the counting.  EXACT_BOUND allows 64.
- Sampling: QEMU raises CPU_CYCLES' overflow interrupt at each period, so
  samples = count / SAV, plus or minus one (the last partial period).
- Shares of samples between two runs: sample IPs land on translated-block
  boundaries, moved by interrupts, so shares vary between runs like
  binomial draws: the difference of two shares p of N samples has sd
  sqrt(2 p (1 - p) / N); 5 sd allowed.  The same file read by perf report
  and by cyctop: equal to 0.01 points.
- Multiplexed estimates: within 2 % of the exact count (the issue's bound;
  the workload is uniform, so value / coverage is unbiased).
- cyctop selftest: its own bounds (cyctop-selftest(1)); every test but
  method must pass (method may skip: QEMU's stall events read 0), and each
  must fail under its fault (CYCTOP_SELFTEST_FAULT).
"""
import base64
import json
import math
import os
import re
import subprocess
import sys

EXACT_BOUND = 64
LABEL = {"neoverse-n1": "n1", "neoverse-n1-smp2": "n1-smp2", "cortex-a57": "a57",
         "max": "max", "neoverse-n1-e2e": "n1-e2e",
         "neoverse-n1-selftest": "n1-selftest"}
# the model each CPU's header names: libpfm4's for the first two, none for max
MODEL = {"neoverse-n1": "arm_n1", "cortex-a57": "arm_ac57", "max": None}

results = []
# the arm64 models' no_ilp line (arch/model-arm.c NO_ILP), as cyctop tree ends
NO_ILP = ("(no ILP histogram on this CPU: its PMU has no counter threshold "
          "(Armv8 before FEAT_PMUv3_TH))")


def report(name, ok, why=""):
    why = why if len(why) <= 400 else why[:400] + "..."
    if ok is None:
        results.append(("SKIP", name, why))
    else:
        results.append(("PASS" if ok else "FAIL", name, "" if ok else why))


def parse(path):
    """{name: (output, status)} of one boot's console, and whether it ended."""
    outs, cur, buf = {}, None, []
    ended = False
    with open(path, errors="replace") as f:
        for line in f:
            line = line.replace("\r", "").rstrip("\n")
            m = re.match(r"@@OUT (\S+)@@$", line)
            if m:
                cur, buf = m.group(1), []
                continue
            m = re.match(r"@@RC (\S+) (\d+)@@$", line)
            if m and cur == m.group(1):
                outs[cur] = ("\n".join(buf), int(m.group(2)))
                cur = None
                continue
            if line.startswith("@@GUEST-END"):
                ended = True
            if cur:
                buf.append(line)
    return outs, ended


def js(outs, name):
    """The JSON document a cyctop --format json command printed, or None."""
    text, _ = outs.get(name, ("", 1))
    for line in text.splitlines():
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                return None
    return None


def perf_stat(outs, name):
    """{event: count} of perf stat -x, output."""
    text, _ = outs.get(name, ("", 1))
    counts = {}
    for line in text.splitlines():
        f = line.split(",")
        if len(f) > 2 and f[0].isdigit():
            counts[f[2]] = int(f[0])
    return counts


def perf_report(outs, name):
    """[(symbol, percent)] of perf report --stdio -q --sort sym."""
    text, _ = outs.get(name, ("", 1))
    rows = []
    for line in text.splitlines():
        line = re.sub(r"\x1b\[[0-9;]*m", "", line)
        m = re.match(r"\s*([\d.]+)%(?:\s+[\d.]+%)?\s+\[[.k]\]\s+(\S+)", line)
        if m:
            rows.append((m.group(2), float(m.group(1))))
    return rows


def nosym(frame):
    """Code without a symbol: perf's [unknown], cyctop's function of the
    FDE that covers it ([libc.so.6+0x276d0]) or [unknown]: one name."""
    return "(no symbol)" if re.fullmatch(r"\[[^]]*\+0x[0-9a-f]+\]|\[unknown\]|0x[0-9a-f]+",
                                          frame) else frame


def counts(name):
    """Whether QEMU counts the event: instructions and cycles (and their
    arm names), not the others of the multiplexing list."""
    return name.split(":")[0].split("/")[0] in ("instructions", "cycles", "INST_RETIRED",
                                                 "CPU_CYCLES", "r08", "r11")


def cyctop_shares(doc, event):
    """[(function, percent)] of a cyctop JSON document, for EVENT."""
    rows = [(f["name"], f["percent"][event]) for f in doc.get("functions", [])
            if f["percent"].get(event, 0) > 0]
    return sorted(rows, key=lambda r: (-r[1], r[0]))


def event(doc, name):
    for e in doc.get("events", []):
        if e["name"] == name or e["name"] == name.split(":")[0]:
            return e
    return None


def within_sd(p1, p2, n, k=5):
    """Whether two shares (percent) of about N samples differ by <= k sd."""
    p = (p1 + p2) / 200.0
    sd = math.sqrt(2 * max(p * (1 - p), 0.01) / max(n, 1)) * 100
    return abs(p1 - p2) <= k * sd, k * sd


def perf_chains(outs, name):
    """The call chains (leaf first) of perf script -F ip,sym."""
    text, _ = outs.get(name, ("", 1))
    chains, cur = [], []
    for line in text.splitlines():
        m = re.match(r"\s+[0-9a-f]+ (\S+)", line)
        if m:
            cur.append(m.group(1))
        elif cur:
            chains.append(cur)
            cur = []
    if cur:
        chains.append(cur)
    return chains


def folded(outs, name):
    """{stack (root first, ';'-joined): samples} of cyctop --format folded."""
    text, _ = outs.get(name, ("", 1))
    stacks = {}
    for line in text.splitlines():
        m = re.match(r"(.+) (\d+)$", line)
        if m:
            stacks[m.group(1)] = stacks.get(m.group(1), 0) + int(m.group(2))
    return stacks


def objdump(elf, func):
    """[(address, mnemonic)] of aarch64-linux-gnu-objdump -d for FUNC."""
    try:
        out = subprocess.run(["aarch64-linux-gnu-objdump", "-d", "--no-show-raw-insn",
                              "--disassemble=" + func, elf], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    rows = []
    for line in out.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+(\S+)", line)
        if m:
            rows.append((int(m.group(1), 16), m.group(2)))
    return rows


def annotated(outs, name):
    """[(address, mnemonic)] of cyctop annotate's text."""
    text, _ = outs.get(name, ("", 1))
    rows = []
    for line in text.splitlines():
        # samples, stall and penalty ("-" where no event measures them)
        m = re.match(r"\s+\d+(?:\s+(?:\d+|-)){2}\s+(?:\S+\s+)?([0-9a-f]+):\s+(\S+)", line)
        if m:
            rows.append((int(m.group(1), 16), m.group(2)))
    return rows


# --- the checks of one boot --------------------------------------------------

def check_smp2(L, outs):
    """-a on two CPUs (per-CPU fds): both spins and their functions."""
    text = outs.get("syswide", ("", 1))[0]
    doc = js(outs, "syswide")
    spins = [p for p in doc.get("processes", []) if p["comm"] == "spin"] if doc else []
    hot = [f for f in doc["functions"] if f["name"] == "spin_hot"] if doc else []
    report("%s/syswide-smp2" % L, "syswide status 0" in text and
           len(spins) == 2 and bool(hot) and hot[0].get("nprocs") == 2,
           "spin processes %s, spin_hot %s" % (spins, hot))


def check_cross(L, outs, build, work):
    """The guest's cyctop record file read by the host's cyctop: annotate
    spin_hot from it (--symfs: the arm64 binaries), the same addresses and
    mnemonics as objdump, the recording's samples in them."""
    host = os.environ.get("CYCTOP_HOST")
    name = "%s/annotate-cross-arch" % L
    if not host or not os.access(host, os.X_OK):
        report(name, None, "no host cyctop (CYCTOP_HOST)")
        return
    text, rc = outs.get("record-base64", ("", 1))
    try:
        data = base64.b64decode("".join(text.split()), validate=True)
    except ValueError:
        data = b""
    if rc != 0 or not data:
        report(name, False, "no recording from the guest (status %d)" % rc)
        return
    symfs = os.path.join(work, "symfs")
    os.makedirs(os.path.join(symfs, "bin"), exist_ok=True)
    spin = os.path.join(build, "workloads", "spin")
    with open(spin, "rb") as f, open(os.path.join(symfs, "bin", "spin"), "wb") as g:
        g.write(f.read())
    path = os.path.join(work, "cyctop.data")
    with open(path, "wb") as f:
        f.write(data)
    r = subprocess.run([host, "annotate", "spin_hot", "-i", path, "--symfs", symfs],
                       capture_output=True, text=True)
    got = annotated({"x": (r.stdout, r.returncode)}, "x")
    want = objdump(spin, "spin_hot")
    head = re.search(r"# \S+: sav \d+, (\d+) samples here", r.stdout)
    ok = r.returncode == 0 and want and got == want and head and int(head.group(1)) > 0
    report(name, ok, "status %d, %d instructions (objdump %s), %r"
           % (r.returncode, len(got), len(want or []), (r.stderr or r.stdout)[-300:]))


def check_ilp_sweep(L, outs):
    """An ILP sweep needs a counter threshold: the kernel's PMU format has
    threshold (Linux 6.8+) on a core with FEAT_PMUv3_TH (PMUv3p8 and
    PMMIR_EL1.THWIDTH).  QEMU emulates none: -cpu max is PMUv3p5
    (target/arm/cpu64.c, ID_AA64DFR0.PMUVer = 6, QEMU 7.2 to 10), and
    Linux 6.1's armv8_pmuv3 has no threshold format: a SKIP that shows the
    guest's formats; a threshold here would contradict the arm64 models'
    no_ilp line (a FAIL: the sweep then needs its check)."""
    fmt = outs.get("pmu-format", ("", 1))[0].strip()
    # Linux 6.8+ lists the threshold format on every PMUv3; caps/threshold_max
    # is 0 where the core has no FEAT_PMUv3_TH (Documentation/arch/arm64/perf.rst)
    # (the kernel prints it in hex: 0x00000000)
    m = re.search(r"threshold_max: (0x[0-9a-fA-F]+|\d+)", fmt)
    th_max = int(m.group(1), 0) if m else 0
    if not fmt or th_max > 0:
        report("%s/ilp-sweep" % L, False,
               "the PMU offers a counter threshold (or no format was read): %r: "
               "the sweep (-e @ilp) needs its guest check" % fmt)
    else:
        report("%s/ilp-sweep" % L, None,
               "no counter threshold to sweep: the guest's PMU has %s (no threshold: Linux "
               "6.8+ on FEAT_PMUv3_TH), QEMU's Armv8 PMU is PMUv3p5 at most (-cpu max: "
               "ID_AA64DFR0.PMUVer 6), FEAT_PMUv3_TH needs PMUv3p8" % fmt)


def check_e2e(L, outs):
    """The end-to-end scripts of tests/e2e/ run in the guest (ARM64_E2E, as
    tests/arm64/guest.sh chose them): each one's exit status as make check
    reads it (0 PASS, 77 SKIP, else FAIL), its FAIL or SKIP line the
    reason, and each part it skipped (SKIP-PART) a SKIP of its own."""
    for t in os.environ.get("ARM64_E2E", "").split():
        name = "%s/e2e-%s" % (L, t)
        if "e2e-" + t not in outs:
            report(name, False, "the script did not finish in the guest")
            continue
        text, rc = outs["e2e-" + t]
        lines = text.splitlines()
        said = [l for l in lines if re.match(r"(FAIL|SKIP):", l)]
        if rc == 77:
            report(name, None, said[-1].split(":", 1)[1].strip() if said else "status 77")
        else:
            report(name, rc == 0, "status %d: %s" % (rc, " | ".join(said or lines[-3:])))
        for l in lines:
            m = re.match(r"SKIP-PART: \S+: (.*)", l)
            if m:
                report(name + " part", None, m.group(1))


def selftest_doc(outs, name):
    """The JSON document of a cyctop selftest --format json command, or None."""
    text, _ = outs.get(name, ("", 1))
    start = text.find("{")
    try:
        return json.loads(text[start:]) if start >= 0 else None
    except ValueError:
        return None


# cyctop selftest in the guest: which tests must pass (the PMU counts,
# multiplexes and samples exactly here), and the fault each must fail under
SELFTEST_PASS = ("host", "exact", "perf", "groups", "mux", "sampling", "software")
SELFTEST_FAULTS = (("host", "host"), ("scale", "exact"), ("startup", "perf"),
                   ("counters", "groups"), ("scale", "mux"), ("split", "sampling"),
                   ("member", "sampling"),
                   ("method", "method"), ("scale", "software"))


def check_selftest(L, outs):
    doc = selftest_doc(outs, "selftest")
    tests = {t["name"]: t for t in doc["tests"]} if doc else {}
    for name in SELFTEST_PASS:
        t = tests.get(name)
        report("%s/selftest-%s" % (L, name), t is not None and t["result"] == "pass",
               "%s: %s" % (t["result"], t["reason"]) if t else
               "no selftest JSON: %r" % outs.get("selftest", ("", 1))[0][-300:])
    # the method's trees: QEMU's stall events read 0, so a pass or a skip
    t = tests.get("method")
    report("%s/selftest-method" % L, t is not None and t["result"] in ("pass", "skip"),
           "%s: %s" % (t["result"], t["reason"]) if t else "no selftest JSON")
    report("%s/selftest-report" % L,
           "libpfm4" in outs.get("selftest-report", ("", 1))[0],
           "report: %r" % outs.get("selftest-report", ("", 1))[0][:300])
    for fault, name in SELFTEST_FAULTS:
        key = "selftest-fault-%s-%s" % (fault, name)
        d = selftest_doc(outs, key)
        t = d["tests"][0] if d and d.get("tests") else None
        report("%s/%s" % (L, key), t is not None and t["result"] == "fail"
               and outs[key][1] == 1,
               "%s (status %d): %s" % (t["result"], outs[key][1], t["reason"]) if t else
               "no JSON: %r" % outs.get(key, ("", 1))[0][-300:])


def check_boot(cpu, outs, build, work):
    L = LABEL.get(cpu, cpu)
    if cpu == "neoverse-n1-smp2":
        check_smp2(L, outs)
        return
    if cpu == "neoverse-n1-e2e":
        check_e2e(L, outs)
        return
    if cpu == "neoverse-n1-selftest":
        check_selftest(L, outs)
        return
    stat = perf_stat(outs, "perf-stat")
    exact = stat.get("instructions:u")

    # the PMU and the model in the header, hardware events by default
    text, rc = outs.get("defaults-text", ("", 1))
    header = text.splitlines()[0] if text else ""
    sysfs = outs.get("sysfs", ("", 1))[0]
    pmus = re.findall(r"^(armv[89]_\S+) type=", sysfs, re.M)
    m = re.search(r"PMU (\S+)(.*?)  lost", header)
    why = "header %r, kernel PMUs %s" % (header, pmus)
    ok = bool(m and pmus and m.group(1) == pmus[0])
    if ok and MODEL[cpu]:
        ok = m.group(2).strip() == MODEL[cpu]
    elif ok:
        # the MIDR the kernel shows, as implementer:part
        midr = re.findall(r"^0x([0-9a-f]+)$", sysfs, re.M)
        v = int(midr[-1], 16) if midr else 0
        ok = "(model unknown, MIDR 0x%02x:0x%03x)" % ((v >> 24) & 0xff, (v >> 4) & 0xfff) \
            in m.group(2)
    report("%s/header-pmu-model" % L, ok, why)
    doc = js(outs, "defaults-json")
    names = [e["name"] for e in doc["events"]] if doc else []
    report("%s/defaults-hardware" % L,
           rc == 0 and names == ["cycles"] and "cpu-clock" not in text
           and doc["events"][0]["count"] > 0,
           "events %s, status %d, output %r" % (names, rc, text[:200]))

    # exact counts, cyctop (nothing sampled) beside perf stat
    doc = js(outs, "count")
    if exact is None or doc is None:
        report("%s/count-exact" % L, False, "no perf stat count or no cyctop JSON")
    else:
        got = [event(doc, "instructions:u")["count"], event(doc, "cycles:u")["count"]]
        want = [exact, stat.get("cycles:u")]
        report("%s/count-exact" % L,
               all(abs(g - w) <= EXACT_BOUND for g, w in zip(got, want)),
               "cyctop %s, perf stat %s (bound %d)" % (got, want, EXACT_BOUND))

    # sampling at SAV 100000 and the hotspots beside perf record's
    doc = js(outs, "sample")
    cyc = event(doc, "cycles:u") if doc else None
    if not cyc:
        report("%s/sampling-sav" % L, False, "no cyctop JSON for the sampled run")
    else:
        want = cyc["count"] / 100000
        report("%s/sampling-sav" % L, abs(cyc["samples"] - want) <= 1,
               "%d samples for a count of %d at SAV 100000" % (cyc["samples"], cyc["count"]))
    rows = perf_report(outs, "perf-report")
    ours = cyctop_shares(doc, cyc["name"]) if cyc else []
    if not rows or not ours:
        report("%s/hotspots-perf-report" % L, False, "perf %s, cyctop %s" % (rows, ours))
    else:
        ok, bound = within_sd(rows[0][1], ours[0][1], cyc["samples"])
        report("%s/hotspots-perf-report" % L, rows[0][0] == ours[0][0] == "spin_hot" and ok,
               "perf report %s, cyctop %s (bound %.1f points)" % (rows[:2], ours[:2], bound))

    # an event the PMU lacks, a raw event the kernel never schedules
    for name, ev in (("missing-hw", "branch-misses"), ("missing-raw", "r1e")):
        text, rc = outs.get(name, ("", 0))
        lines = [l for l in text.splitlines() if l.startswith("cyctop:")]
        report("%s/%s" % (L, name), rc != 0 and len(lines) == 1 and ev in lines[0],
               "status %d, output %r" % (rc, text[-300:]))

    # multiplexing: the kernel's 6 counters, estimates, coverage; runs
    exact4 = perf_stat(outs, "perf-stat-4000").get("instructions:u")
    doc = js(outs, "mux-time")
    if not doc or not exact4:
        report("%s/mux-time" % L, False, "no cyctop JSON or no perf stat count")
        report("%s/counters-default" % L, False, "no cyctop JSON")
    else:
        report("%s/counters-default" % L, doc["groups"] == 2,
               "8 events in %d groups (6 counters: 2)" % doc["groups"])
        # the events in groups rotate (coverage in (0, 1)); the two that
        # count estimate the exact count within 2 %, the others stay 0; the
        # reference cyctop adds (group null) counts all along
        bad = [(e["name"], e["count"], e["coverage"]) for e in doc["events"]
               if e.get("group") is not None and
               (not (0 < e["coverage"] < 1) or
                (abs(e["count"] / exact4 - 1) > 0.02 if counts(e["name"]) else e["count"] != 0))]
        report("%s/mux-time" % L, not bad,
               "estimates not within 2%% of %d (0 for the uncounted) or coverage not in (0, 1): %s"
               % (exact4, bad))
    doc = js(outs, "mux-runs")
    if not doc or exact is None:
        report("%s/mux-runs" % L, False, "no cyctop JSON or no perf stat count")
    else:
        bad = [(e["name"], e["count"]) for e in doc["events"]
               if abs(e["count"] - (exact if counts(e["name"]) else 0)) > EXACT_BOUND or
               e["coverage"] != 1]
        report("%s/mux-runs" % L, doc["groups"] == 2 and not bad,
               "%d groups; counts not exact (%d, bound %d): %s" % (doc["groups"], exact,
                                                                EXACT_BOUND, bad))
    check_ilp_sweep(L, outs)
    if cpu != "neoverse-n1":
        return

    # group reads and leader sampling: perf record's {cycles,instructions}:S
    rows = perf_report(outs, "leader-perf")
    doc = js(outs, "leader-cyctop")
    ours = cyctop_shares(doc, "cycles:u") if doc else []
    report("%s/leader-sampling" % L,
           rows and [r[0] for r in rows] == [o[0] for o in ours]
           and all(abs(r[1] - o[1]) <= 0.01 for r, o in zip(rows, ours)),
           "perf report %s, cyctop %s" % (rows, ours))

    # attach, system-wide
    doc = js(outs, "attach")
    funcs = [f["name"] for f in doc["functions"]] if doc else []
    report("%s/attach-p" % L, doc is not None and funcs[:1] == ["spin_hot"],
           "functions %s, output %r" % (funcs[:3], outs.get("attach", ("", 0))[0][-200:]))
    # cyctop record read back by perf report: the same shares
    rows = perf_report(outs, "record-perf")
    doc = js(outs, "record-cyctop")
    cyc = (event(doc, "cycles:u") or event(doc, "cycles")) if doc else None
    ours = cyctop_shares(doc, cyc["name"]) if cyc else []
    report("%s/record-perf-report" % L,
           rows and [r[0] for r in rows] == [o[0] for o in ours]
           and all(abs(r[1] - o[1]) <= 0.01 for r, o in zip(rows, ours)),
           "perf report %s, cyctop %s" % (rows, ours))

    # frequency mode: the samples cyctop record counts are the file's
    # samples (perf report -n), not their periods summed
    said = re.search(r"cyctop record: (\d+) samples", outs.get("record-freq", ("", 1))[0])
    text = re.sub(r"\x1b\[[0-9;]*m", "", outs.get("record-freq-perf", ("", 1))[0])
    perf_n = sum(int(m.group(1)) for m in re.finditer(r"^\s*[\d.]+%\s+(\d+)\s", text, re.M))
    report("%s/record-freq-samples" % L,
           said is not None and perf_n > 0 and int(said.group(1)) == perf_n,
           "cyctop record said %s, perf report -n %d" % (said.group(1) if said else None, perf_n))

    # call stacks: frame pointers, dwarf through libunwind
    for name, perf_name, leaf in (("cg-fp", "perf-cg-fp", "spin_hot"),
                                  ("cg-dwarf", "perf-cg-dwarf", "leaf_work")):
        stacks = folded(outs, name)
        chains = [c for c in perf_chains(outs, perf_name) if c and c[0] == leaf]
        # the most common chain of LEAF, root first, each tool's
        ours = {}
        for st, n in stacks.items():
            if st.split(";")[-1] == leaf:
                k = ";".join(nosym(f) for f in st.split(";"))
                ours[k] = ours.get(k, 0) + n
        theirs = {}
        for c in chains:
            k = ";".join(nosym(f) for f in reversed(c))
            theirs[k] = theirs.get(k, 0) + 1
        top_ours = sorted(ours, key=ours.get, reverse=True)[:2]
        top_theirs = sorted(theirs, key=theirs.get, reverse=True)[:2]
        ok = bool(top_ours) and set(top_ours) == set(top_theirs)
        if ok and len(top_ours) == 2:   # the callers' split (caller_a 2 : caller_b 1)
            n_o, n_t = sum(ours.values()), sum(theirs.values())
            p_o = 100.0 * ours[top_theirs[0]] / n_o
            p_t = 100.0 * theirs[top_theirs[0]] / n_t
            ok, _ = within_sd(p_o, p_t, min(n_o, n_t))
        report("%s/callgraph-%s" % (L, name[3:]), ok,
               "cyctop %s, perf %s" % ({k: ours[k] for k in top_ours},
                                       {k: theirs[k] for k in top_theirs}))

    # the ILP view's line on a PMU without FEAT_PMUv3_TH, in batch: the tree
    # of a recording ends with the arm64 models' no_ilp reason (issue 23
    # section 2), which the ILP view shows
    text, rc = outs.get("ilp-tree", ("", 1))
    rec = outs.get("ilp-record", ("", 1))
    report("%s/ilp-line" % L, rec[1] == 0 and rc == 0 and NO_ILP in text.splitlines(),
           "record status %d, tree status %d, output %r" % (rec[1], rc, (text or rec[0])[-300:]))

    check_cross(L, outs, build, work)

    # the asm view decodes as objdump does (addresses and mnemonics)
    for name, func in (("annotate", "spin_hot"), ("annotate-round", "spin_round")):
        want = objdump(os.path.join(build, "workloads", "spin"), func)
        got = annotated(outs, name)
        if want is None:
            report("%s/%s-objdump" % (L, name), None, "no aarch64-linux-gnu-objdump")
            continue
        diff = [(hex(a), x, y) for (a, x), (b, y) in zip(want, got) if a != b or x != y]
        report("%s/%s-objdump" % (L, name), want and len(want) == len(got) and not diff,
               "%d instructions from objdump, %d from cyctop; differ: %s"
               % (len(want), len(got), diff[:4]))


def main():
    work, build, cpus = sys.argv[1], sys.argv[2], sys.argv[3:]
    for cpu in cpus:
        log = os.path.join(work, cpu + ".log")
        outs, ended = parse(log) if os.path.exists(log) else ({}, False)
        if not ended:
            tail = ""
            if os.path.exists(log):
                with open(log, errors="replace") as f:
                    tail = " | ".join(f.read().replace("\r", "").splitlines()[-3:])
            report("%s/boot" % LABEL.get(cpu, cpu), False, "the guest did not finish: " + tail)
            if cpu == "neoverse-n1-e2e":   # the scripts that finished
                check_e2e(LABEL[cpu], outs)
            continue
        report("%s/boot" % LABEL.get(cpu, cpu), True)
        check_boot(cpu, outs, build, work)
    for status, name, why in results:
        print("%s: %s%s" % (status, name, " (%s)" % why if why else ""))
    npass = sum(1 for r in results if r[0] == "PASS")
    nfail = sum(1 for r in results if r[0] == "FAIL")
    print("%d passed, %d failed" % (npass, nfail))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
