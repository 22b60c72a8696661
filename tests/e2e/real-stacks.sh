#!/bin/sh
# The asm view and the call stacks on programs from Debian packages, each
# recorded by perf and read by perf and by cyctop from the same file:
#  1. annotate of a libc function in a multi-process recording (two g++
#     compiling at once: two cc1plus map libc at other addresses): every
#     sample on its instruction, per address equal to perf annotate -n's.
#  2. kernel frames (--call-graph fp) of a syscall-heavy program (dd reading
#     a file: _copy_to_iter under copy_page_to_iter, filemap_read, vfs_read,
#     do_syscall_64): every kernel function's children share and direct
#     callers equal those of perf report's stacks within 1 point.
#  3. the user stack under the kernel's frames (--call-graph dwarf): perl
#     reading a file line by line, read() called by PerlIOUnix_read below
#     the kernel's frames; every function's children share and callers
#     within 1 point of perf report --no-inline's.
#  4. pipe mode (perf record -o - | cyctop -i -): the stream carries no
#     kernel build id; recorded here (host and kernel release), its kernel
#     samples are named from the running kernel's kallsyms, each kernel
#     function's share as perf report's on the same stream; recorded on
#     another kernel release, one line says why they stay unnamed.
#  5. a frequency-mode recording (perf record -F): the header's and JSON's
#     samples are perf report's sample count, the count its Event count.
#  6. node --perf-basic-prof (fp): a JS function run by Array.prototype.map,
#     its callers through V8's builtins (Builtins_ArrayMap) from the JIT's
#     /tmp/perf-PID.map, within 1 point of perf report's.
# Each part needs its programs (else one SKIP line for it); with none run
# the test is skipped (77).
. "$SRCDIR/tests/e2e/lib.sh"

command -v perf >/dev/null 2>&1 || { echo "SKIP: perf is not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
RAN=0

cat >"$TMP/big.cc" <<'EOF'
#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>
std::map<std::string, std::vector<int>> m;
int f()
{
	std::unordered_map<int, std::string> u;
	std::set<double> s;
	std::ostringstream o;
	o << 1;
	for (auto &p : m)
		std::sort(p.second.begin(), p.second.end());
	return (int)u.size() + (int)s.size();
}
EOF

# compare_stacks FOLDED JSON WHICH: perf report's stacks (-g folded, counts,
# leaf first) against cyctop's batch JSON (children and callers): for each
# function WHICH names ("kernel": every kernel function, "all", or one
# name) with at least 1% children in perf, the children share and each
# caller's share (of the function's total) within 1 point; JSON a file
# ending in .folded: cyctop's --format folded, for function WHICH.  SLACK
# (default 0) samples more per caller: two unwinders of user stacks part
# now and then (perf's libdw stops at asm_exc_page_fault where libunwind
# goes on to the faulting Perl_sv_gets: one sample of 28, 3.6 points).
# Prints "checked N functions" or what differs.
compare_stacks() {
	python3 - "$1" "$2" "$3" 1 1 "${4:-0}" <<'PY'
import json, sys, collections
folded, js, which, tol, minpct = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
slack = int(sys.argv[6])
import re
def nosym(name):
    """Code without a symbol: perf prints its address (0x55840afb45a4),
    cyctop the function its FDE covers ([dash+0x4580], [vdso+0x780]) or
    [unknown]: one name for both, so the shares compare."""
    if re.fullmatch(r"0x[0-9a-f]+|\[unknown\]|\[.+\+0x[0-9a-f]+\]", name):
        return "(no symbol)"
    # perf 6.1 names a PLT's entries by their order in .rela.plt, which
    # libc's IRELATIVE entries upset: its __tunable_get_val@plt (objdump's
    # name) is "@plt" there; a stub is compared as a stub
    if name.endswith("@plt"):
        return "(plt stub)"
    # perf 6.1 keeps a .symtab name's version (__libc_start_main@@GLIBC_2.34)
    # where cyctop shows the name, and of glibc's aliases at one address it
    # may pick the internal one (__GI___execve for execve): differences of
    # naming, not of stacks, compared here by the public name
    name = re.sub(r"@@?[A-Za-z0-9_.]+$", "", name)
    # two functions of one name in one file: cyctop tells them apart by
    # their parameters or address (f(long), helper [0x5e840]), perf 6.1
    # prints the name twice; compared by the name
    name = re.sub(r" \[0x[0-9a-f]+\]$", "", name)
    if not name.endswith("operator()"):
        name = re.sub(r"\((?:[^()]|\([^()]*\))*\)( const)?( \[clone [^]]+\])*$", "", name)
    return re.sub(r"^__GI_+", "", name)
paths = []
for l in open(folded, errors="replace"):
    l = l.strip()
    if not l or l.startswith("#") or "%" in l.split(" ")[0]:
        continue
    n, _, p = l.partition(" ")
    if n.isdigit():
        paths.append((int(n), [nosym(x) for x in p.split(";")]))
total = sum(n for n, _ in paths)

def shares(paths, F):
    """F's children share and its callers' shares of its total, from paths
    leaf first, by cyctop-formats(5)'s rule: a caller counts once a stack
    that has it adjacent to F, at any of F's frames.  Kernel stacks recur
    so: an interrupt taken in __raw_callee_save_pvm_irq_enable, under
    do_syscall_64, runs it again, under _raw_spin_unlock_irqrestore (perf
    report names the innermost frame's caller only)."""
    tot, callers = 0, collections.Counter()
    for n, p in paths:
        if F in p:
            tot += n
            for c in {p[i + 1] for i in range(len(p) - 1) if p[i] == F}:
                callers[c] += n
    return tot, {c: 100.0 * k / tot for c, k in callers.items()}

if js.endswith(".folded"):
    # cyctop --format folded (root first, the count last): function WHICH
    ours = []
    for l in open(js):
        p, _, n = l.rstrip("\n").rpartition(" ")
        ours.append((int(n), [nosym(x) for x in p.split(";")[::-1]]))
    otot = sum(n for n, _ in ours)
    pt, pc = shares(paths, which)
    ot, oc = shares(ours, which)
    pct, opct = 100.0 * pt / total, 100.0 * ot / otot
    bad = ["%s children %.2f, perf %.2f" % (which, opct, pct)] if abs(pct - opct) > tol else []
    bad += ["%s called by %s %.2f%%, perf %.2f%%" % (which, c, oc.get(c, 0), pc.get(c, 0))
            for c in set(pc) | set(oc) if max(pc.get(c, 0), oc.get(c, 0)) >= 1
            and abs(pc.get(c, 0) - oc.get(c, 0)) > tol]
    print("; ".join(bad) if bad else "checked 1 functions" if pct >= minpct else "nothing checked")
    sys.exit(0)
o = json.loads([l for l in open(js) if l.strip()][-1])
ev = o["events"][0]["name"]
# perf's folded stacks name a frame without its module: one name of two
# modules (perl's _start and ld.so's, never on one stack) is one row there
byname = collections.OrderedDict()
for f in o["functions"]:
    kernel = f["module"].startswith("[") and f["module"] not in ("[unknown]", "[vdso]") and not f["module"].startswith("[JIT")
    if which == "kernel" and not kernel:
        continue
    if which not in ("kernel", "all") and f["name"] != which:
        continue
    tot, oc = byname.setdefault(f["name"], [0.0, collections.Counter()])
    byname[f["name"]][0] = tot + f["children"][ev]
    for c in f.get("callers", []):
        oc[nosym(c["name"])] += c["percent"] * f["children"][ev] / 100.0
bad, checked = [], 0
for F, (ours, oc) in byname.items():
    tot, callers = shares(paths, F)
    pc = 100.0 * tot / total if total else 0
    if pc < minpct:
        continue
    checked += 1
    oc = {c: 100.0 * v / ours for c, v in oc.items()} if ours else {}
    if abs(ours - pc) > tol:
        bad.append("%s children %.2f, perf %.2f" % (F, ours, pc))
    # a caller without a symbol is where the two unwinders part most (perf's
    # libdw, cyctop's libunwind and its frame-pointer fallback): F's total
    # is compared above, its named callers here
    # execve's samples straddle the exec: their user stack is the old
    # image's, their mappings already the new one's, and cyctop names them
    # apart from perf (about 1 % here; left for the ordering of exec's
    # records, noted in the issue)
    some = 100.0 * slack / tot if tot else 0
    for c in (set(oc) | set(callers)) - {"(no symbol)", "execve"}:
        pp = callers.get(c, 0)
        if max(pp, oc.get(c, 0)) >= 1 and abs(pp - oc.get(c, 0)) > max(tol, some + 1e-9):
            bad.append("%s called by %s %.2f%%, perf %.2f%%" % (F, c, oc.get(c, 0), pp))
print("checked %d functions" % checked if not bad and checked else "; ".join(bad[:12]) or "nothing checked")
PY
}

# perf's stacks of FILE for compare_stacks, into FILE.folded
perf_folded() {
	perf report -i "$1" --stdio --no-children --sort sym \
		-g folded,0,0,callee,function,count >"$1.folded" 2>/dev/null
}

# --- 1. annotate in a multi-process recording -------------------------------
part_annotate() {
	command -v g++ >/dev/null 2>&1 || { skip_part "part 1: g++ is not installed"; return; }
	# a fixed period: perf annotate -n counts samples, cyctop its samples
	run perf record -q -e cpu-clock -c 250000 -o "$TMP/gxx.data" -- sh -c \
		"cd $TMP && g++ -O2 -c big.cc -o a.o & cd $TMP && g++ -O2 -c big.cc -o b.o; wait"
	expect_rc 0 "perf record two g++"
	# the libc functions sampled in 2 processes, the most samples first
	fns=$(perf report -i "$TMP/gxx.data" --stdio -q --sort pid,sym,dso -t '|' 2>/dev/null |
		python3 -c '
import sys, collections
n, pids = collections.Counter(), collections.defaultdict(set)
for l in sys.stdin:
    f = [x.strip() for x in l.split("|")]
    if len(f) == 4 and f[3] == "libc.so.6" and f[2].startswith("[.] "):
        name = f[2][4:]
        n[name] += float(f[0].rstrip("%")); pids[name].add(f[1])
best = [k for k, _ in n.most_common() if len(pids[k]) > 1]
print("\n".join(best[:8]))')
	[ -n "$fns" ] || fail "part 1: no libc function sampled in two processes"
	# the first of them perf annotate shows: perf 6.12 (Debian 13) dies of
	# SIGSEGV on some (_int_malloc, malloc, __libc_calloc) in this recording
	fn="" crashed=""
	for f in $fns; do
		perf annotate -i "$TMP/gxx.data" --stdio -n -s "$f" >"$TMP/gxx.annotate" 2>/dev/null &&
			grep -q '([0-9]* samples' "$TMP/gxx.annotate" && { fn=$f; break; }
		crashed="$crashed $f"
	done
	[ -n "$fn" ] || { skip_part "part 1: perf annotate shows none of$crashed"; return; }
	run "$CYCTOP" annotate "$fn" -i "$TMP/gxx.data" --module libc.so.6 --format json
	expect_rc 0 "part 1: cyctop annotate $fn"
	res=$(python3 - "$TMP/gxx.annotate" "$TMP/out" <<'PY'
import json, re, sys
perf, total = {}, None
for l in open(sys.argv[1], errors="replace"):
    m = re.search(r"\((\d+) samples", l)
    if m and total is None:
        total = int(m.group(1))
    m = re.match(r"\s*(\d+)\s+:\s+([0-9a-f]+):", l)
    if m and int(m.group(1)):
        perf[int(m.group(2), 16)] = int(m.group(1))
o = json.load(open(sys.argv[2]))
ours = {int(i["address"], 16): i["samples"]["cpu-clock"] for i in o["instructions"]
        if i["samples"]["cpu-clock"]}
got = o["events"][0]["samples"]
if total is None or got != total or o["outside"] or ours != perf:
    print("perf %s samples, cyctop %d (outside %d); addresses differing: %s" % (
        total, got, o["outside"],
        sorted((hex(a), perf.get(a), ours.get(a)) for a in set(perf) | set(ours)
               if perf.get(a) != ours.get(a))[:10]))
else:
    print("ok %d" % got)
PY
)
	case $res in
	ok*) ok ;;
	*) fail "part 1: annotate $fn: $res" ;;
	esac
	echo "part 1: $fn: ${res#ok } samples at perf annotate's addresses${crashed:+ (perf annotate failed on$crashed)}"
	RAN=$((RAN + 1))
}

# --- 2. kernel frames under fp ----------------------------------------------
# Whether this user reads the kernel's symbols (else kernel frames stay
# [unknown] in both tools: nothing to compare).
kallsyms_readable() {
	[ -r /proc/kallsyms ] && awk 'NR == 1 { exit $1 ~ /^0+$/ }' /proc/kallsyms
}

part_kernel_fp() {
	kallsyms_readable || { skip_part "part 2: /proc/kallsyms hides addresses (kptr_restrict, not root)"; return; }
	command -v dd >/dev/null 2>&1 || { skip_part "part 2: dd is not installed"; return; }
	head -c 32000000 /dev/zero >"$TMP/zero.bin"
	# every 100 us: a function checked (1% of the samples at least) has
	# 150 and more.  (A caller one sample apart from perf, seen now and
	# then, was an interrupt nested in __raw_callee_save_pvm_irq_enable:
	# the comparison now counts callers by cyctop-formats(5)'s rule.)
	run perf record -q -e cpu-clock -c 100000 --call-graph fp -o "$TMP/dd.data" -- sh -c \
		"for i in 1 2 3 4 5 6 7 8 9 10; do dd if=$TMP/zero.bin of=/dev/null bs=64k 2>/dev/null; done"
	[ "$RC" -eq 0 ] || { skip_part "part 2: perf record --call-graph fp: $(head -1 "$TMP/err")"; return; }
	rm -f "$TMP/zero.bin"
	perf_folded "$TMP/dd.data"
	grep -q '^[0-9]* _copy_to_iter;copy_page_to_iter;' "$TMP/dd.data.folded" ||
		{ skip_part "part 2: perf shows no _copy_to_iter under copy_page_to_iter"; return; }
	keep_on_fail "$TMP/dd.data" "$TMP/dd.data.folded"
	run "$CYCTOP" -b -i "$TMP/dd.data" --format json -n 1
	expect_rc 0 "part 2: cyctop -i dd.data"
	res=$(compare_stacks "$TMP/dd.data.folded" "$TMP/out" kernel)
	case $res in
	checked*) ok ;;
	*) fail "part 2: kernel stacks: $res" ;;
	esac
	echo "part 2: dd under fp: kernel functions' children and callers as perf's ($res)"
	KEEP=""
	RAN=$((RAN + 1))
}

# --- 3. the user stack under the kernel's frames (dwarf) --------------------
part_dwarf_kernel() {
	kallsyms_readable || { skip_part "part 3: /proc/kallsyms hides addresses (kptr_restrict, not root)"; return; }
	command -v perl >/dev/null 2>&1 || { skip_part "part 3: perl is not installed"; return; }
	head -c 12000000 /dev/urandom | base64 -w 76 >"$TMP/lines.txt"
	run perf record -q -e cpu-clock -c 250000 --call-graph dwarf -o "$TMP/perl.data" -- perl -e \
		'for (1..8) { open(my $f, "<", $ARGV[0]) or die; while (<$f>) {} close $f }' "$TMP/lines.txt"
	[ "$RC" -eq 0 ] || { skip_part "part 3: perf record --call-graph dwarf: $(head -1 "$TMP/err")"; return; }
	rm -f "$TMP/lines.txt"
	# perf's inlined frames ("__GI___libc_read (inlined)") are not ours
	perf report -i "$TMP/perl.data" --no-inline --stdio --no-children --sort sym \
		-g folded,0,0,callee,function,count >"$TMP/perl.folded" 2>/dev/null
	grep -q ';read;PerlIOUnix_read;' "$TMP/perl.folded" ||
		{ skip_part "part 3: perf shows no read under PerlIOUnix_read"; return; }
	run "$CYCTOP" -b -i "$TMP/perl.data" --format json -n 1
	expect_rc 0 "part 3: cyctop -i perl.data"
	cp "$TMP/out" "$TMP/perl.json"
	# one caller sample in a hundred has differed from perf's, now and then
	keep_on_fail "$TMP/perl.data" "$TMP/perl.folded" "$TMP/perl.json"
	# read's callers from the folded stacks: the JSON lists only functions
	# with samples of their own, and read may have none
	run "$CYCTOP" -b -i "$TMP/perl.data" --format folded
	expect_rc 0 "part 3: cyctop -i perl.data --format folded"
	cp "$TMP/out" "$TMP/perl.cyctop.folded"
	res=$(compare_stacks "$TMP/perl.folded" "$TMP/perl.cyctop.folded" read)
	case $res in
	"checked 1 functions") ok ;;
	*) fail "part 3: the callers of read: $res" ;;
	esac
	res=$(compare_stacks "$TMP/perl.folded" "$TMP/perl.json" all 1)
	case $res in
	checked*) ok ;;
	*) fail "part 3: dwarf stacks: $res" ;;
	esac
	echo "part 3: perl under dwarf: read's callers and every function's as perf's ($res)"
	KEEP=""
	RAN=$((RAN + 1))
}

# --- 4. pipe mode: kernel names from the running kernel ----------------------
part_pipe_kernel() {
	# the stream is read as it comes: a table a second, the last one whole
	kallsyms_readable || { skip_part "part 4: /proc/kallsyms hides addresses (kptr_restrict, not root)"; return; }
	head -c 32000000 /dev/zero >"$TMP/zero.bin"
	RC=0
	perf record -q -e cpu-clock -c 250000 -o - -- \
		dd if="$TMP/zero.bin" of=/dev/null bs=64k 2>/dev/null |
		tee "$TMP/pipe.data" | "$CYCTOP" -b -i - --format json >"$TMP/out" 2>"$TMP/err" || RC=$?
	expect_rc 0 "part 4: perf record -o - | cyctop -i -"
	rm -f "$TMP/zero.bin"
	perf report -i "$TMP/pipe.data" --stdio --no-children --sort sym -q 2>/dev/null >"$TMP/pipe.perf"
	grep -q '\[k\] _copy_to_iter' "$TMP/pipe.perf" ||
		{ skip_part "part 4: perf report names no _copy_to_iter in the stream"; return; }
	res=$(python3 - "$TMP/pipe.perf" "$TMP/out" <<'PY'
import json, sys
perf = {}
for l in open(sys.argv[1], errors="replace"):
    f = l.split()
    if len(f) == 3 and f[1] == "[k]":
        perf[f[2]] = float(f[0].rstrip("%"))
o = json.loads([l for l in open(sys.argv[2]) if l.strip()][-1])
ours = {f["name"]: f["percent"]["cpu-clock"] for f in o["functions"]
        if f["module"] == "[kernel.kallsyms]"}
bad = ["%s: cyctop %.2f, perf %.2f" % (k, ours.get(k, 0), perf.get(k, 0))
       for k in set(perf) | set(ours) if max(perf.get(k, 0), ours.get(k, 0)) >= 1
       and abs(perf.get(k, 0) - ours.get(k, 0)) > 0.011]
print("; ".join(bad) if bad else "ok %d" % len([k for k in perf if perf[k] >= 1]))
PY
)
	case $res in
	ok*) ok ;;
	*) fail "part 4: kernel functions of the stream: $res" ;;
	esac
	# the same stream as if recorded on another kernel release
	rel=$(uname -r)
	python3 - "$TMP/pipe.data" "$TMP/other.data" "$rel" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
r = sys.argv[3].encode()
o = r[:-1] + (b"0" if r[-1:] != b"0" else b"1")
open(sys.argv[2], "wb").write(d.replace(r, o))
PY
	run sh -c "\"$CYCTOP\" -b -i - --format json -n 1 <\"$TMP/other.data\""
	expect_rc 0 "part 4: another kernel's stream"
	expect_err "kernel functions unnamed: recorded on" "part 4: another kernel's stream"
	[ "$(grep -c 'kernel functions unnamed' "$TMP/err")" -eq 1 ] || fail "part 4: not one line: $(cat "$TMP/err")"
	ok
	echo "part 4: pipe mode: ${res#ok } kernel functions of 1% or more as perf report's"
	RAN=$((RAN + 1))
}

# --- 5. frequency mode: samples as samples, the count as the count ----------
part_freq() {
	run perf record -q -e cpu-clock -F 4000 -o "$TMP/freq.data" -- sh -c \
		'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done'
	expect_rc 0 "part 5: perf record -F"
	n=$(perf report -i "$TMP/freq.data" --stdio -q -n --sort comm 2>/dev/null |
		awk '{ n += $2 } END { print n + 0 }')
	count=$(perf report -i "$TMP/freq.data" --stdio 2>/dev/null |
		awk '/^# Event count/ { print $NF }')
	run "$CYCTOP" -b -i "$TMP/freq.data" --format json -n 1
	expect_rc 0 "part 5: cyctop -i freq.data"
	expect_true "$(json_last "$TMP/out" "(o['events'][0]['samples'], int(o['events'][0]['count'])) == ($n, $count)")" \
		"part 5: JSON samples/count $(json_last "$TMP/out" "(o['events'][0]['samples'], o['events'][0]['count'])"), perf $n/$count"
	run "$CYCTOP" -b -i "$TMP/freq.data" -n 1
	expect_rc 0 "part 5: cyctop -i freq.data (text)"
	expect_out " samples $n " "part 5: the text header's samples"
	echo "part 5: frequency mode: $n samples, count $count, as perf report's"
	RAN=$((RAN + 1))
}

# --- 6. a JIT's callers through its builtins: node ----------------------------
part_node() {
	command -v node >/dev/null 2>&1 || { skip_part "part 6: node is not installed"; return; }
	# work() runs under Array.prototype.map, a V8 builtin: its callers are
	# Builtins_ArrayMap (fp: V8 keeps frame pointers in its JIT code)
	cat >"$TMP/map.js" <<'EOF_JS'
function work(x) { let s = 0; for (let i = 0; i < 3000; i++) s += Math.sqrt(i * x); return s; }
function run() { const a = Array.from({ length: 100 }, (_, i) => i); let t = 0; for (let k = 0; k < 3000; k++) t += a.map(work)[7]; return t; }
console.log(run());
EOF_JS
	# in $TMP: V8 writes its isolate-*-v8.log into the working directory
	run sh -c 'cd "$1" && exec perf record -q -e cpu-clock -c 250000 -g -o node.data -- \
		node --perf-basic-prof map.js' sh "$TMP"
	[ "$RC" -eq 0 ] || { skip_part "part 6: perf record node: $(head -1 "$TMP/err")"; return; }
	perf_folded "$TMP/node.data"
	run "$CYCTOP" -b -i "$TMP/node.data" --format folded
	expect_rc 0 "part 6: cyctop -i node.data"
	cp "$TMP/out" "$TMP/node.cyctop.folded"
	pid=$(perf report -i "$TMP/node.data" --stdio -q -g none --sort pid 2>/dev/null |
		sed -n 's/.* \([0-9][0-9]*\):node *$/\1/p' | head -1)
	[ -n "$pid" ] && rm -f "/tmp/perf-$pid.map"  # node's map, read by both above
	# the JIT names work as it compiled it (JS:*work optimised, JS:~work not)
	work=$(grep -o 'JS:[*~^+]\{0,1\}work [^;]*' "$TMP/node.data.folded" | sort | uniq -c | sort -rn |
		sed -n '1s/^ *[0-9]* //p')
	[ -n "$work" ] || { fail "part 6: perf names no JS work frame: $(head -3 "$TMP/node.data.folded")"; return; }
	grep -qF "$work;Builtins_ArrayMap;" "$TMP/node.data.folded" ||
		fail "part 6: perf shows no Builtins_ArrayMap under $work"
	res=$(compare_stacks "$TMP/node.data.folded" "$TMP/node.cyctop.folded" "$work")
	case $res in
	"checked 1 functions") ok ;;
	*) fail "part 6: the callers of $work: $res" ;;
	esac
	echo "part 6: node: $work's callers through Builtins_ArrayMap as perf's ($res)"
	RAN=$((RAN + 1))
}

part_annotate
part_kernel_fp
part_dwarf_kernel
part_pipe_kernel
part_freq
part_node
[ "$RAN" -gt 0 ] || { echo "SKIP: no part could run"; exit 77; }
done_ok
