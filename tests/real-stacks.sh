#!/bin/sh
# The asm view and the call stacks on programs from Debian packages, each
# recorded by perf and read by perf and by cyctop from the same file:
#  1. annotate of a libc function in a multi-process recording (two g++
#     compiling at once: two cc1plus map libc at other addresses): every
#     sample on its instruction, per address equal to perf annotate -n's.
# Each part needs its programs (else one SKIP line for it); with none run
# the test is skipped (77).
. "$SRCDIR/tests/lib.sh"

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

# --- 1. annotate in a multi-process recording -------------------------------
part_annotate() {
	command -v g++ >/dev/null 2>&1 || { echo "SKIP part 1: g++ is not installed"; return; }
	# a fixed period: perf annotate -n counts samples, cyctop its samples
	run perf record -q -e cpu-clock -c 250000 -o "$TMP/gxx.data" -- sh -c \
		"cd $TMP && g++ -O2 -c big.cc -o a.o & cd $TMP && g++ -O2 -c big.cc -o b.o; wait"
	expect_rc 0 "perf record two g++"
	# the libc function with the most samples among those of 2 processes
	fn=$(perf report -i "$TMP/gxx.data" --stdio -q --sort pid,sym,dso -t '|' 2>/dev/null |
		python3 -c '
import sys, collections
n, pids = collections.Counter(), collections.defaultdict(set)
for l in sys.stdin:
    f = [x.strip() for x in l.split("|")]
    if len(f) == 4 and f[3] == "libc.so.6" and f[2].startswith("[.] "):
        name = f[2][4:]
        n[name] += float(f[0].rstrip("%")); pids[name].add(f[1])
best = [k for k, _ in n.most_common() if len(pids[k]) > 1]
print(best[0] if best else "")')
	[ -n "$fn" ] || fail "part 1: no libc function sampled in two processes"
	perf annotate -i "$TMP/gxx.data" --stdio -n -s "$fn" >"$TMP/gxx.annotate" 2>/dev/null
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
	echo "part 1: $fn: ${res#ok } samples at perf annotate's addresses"
	RAN=$((RAN + 1))
}

part_annotate
[ "$RAN" -gt 0 ] || { echo "SKIP: no part could run"; exit 77; }
done_ok
