#!/bin/sh
# cyctop serve (issue 42) read by the real clients, on loopback only:
# - promtool check metrics on the text exposition; OpenMetrics by Accept
#   (which prometheus asks for first when it scrapes);
# - Debian's prometheus, started here with a scrape config aimed at cyctop
#   serve (1 s), gives up == 1 after a few scrapes, and a rate of the
#   workload's cpu-clock equal to what cyctop -b measures of the same
#   process over the same seconds;
# - go tool pprof -top on /debug/pprof/profile?seconds=2 names mix's
#   work_60/30/10 with the shares cyctop -b gives over the same seconds
#   (2 points, or 5 sd of the two estimates' difference), comm and cgroup
#   labels on its samples;
# - the tree's gauges per cgroup: mix's cgroup (mix alone in the target)
#   has a utilization node equal to the whole target's, within sampling;
# - doc/prometheus.yml passes promtool check config;
# - SIGTERM: exit 143, the launched workload gone.
. "$SRCDIR/tests/e2e/lib.sh"

for t in prometheus promtool go curl; do
	command -v $t >/dev/null 2>&1 || { echo "SKIP: no $t (build.sh installs it)"; exit 77; }
done
export GOCACHE="$TMP/gocache" GOPATH="$TMP/gopath" GOFLAGS= GO111MODULE=off GOPROXY=off
export HOME="$TMP" no_proxy='*' NO_PROXY='*'
SV_PID= PROM_PID= MIX_PID=
cleanup() {
	[ -n "$SV_PID" ] && kill "$SV_PID" 2>/dev/null
	[ -n "$PROM_PID" ] && kill "$PROM_PID" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

promtool check config "$SRCDIR/doc/prometheus.yml" >"$TMP/cfg" 2>&1 ||
	fail "promtool check config doc/prometheus.yml: $(cat "$TMP/cfg")"
ok

# -d 0.25: the counters are brought up to date four times a second
"$CYCTOP" serve --listen 127.0.0.1:0 -d 0.25 -- "$WORKLOADS/mix" 3600 \
	>"$TMP/sv.out" 2>"$TMP/sv.err" &
SV_PID=$!
wait_for "grep -q 'listening on .*:[1-9][0-9]*$' '$TMP/sv.err'" 30 "cyctop serve listening"
PORT=$(sed -n 's/^cyctop serve: listening on .*:\([0-9]*\)$/\1/p' "$TMP/sv.err")
URL="http://127.0.0.1:$PORT"
ss -ltn | grep -q "127.0.0.1:$PORT " || fail "ss -ltn: nothing on 127.0.0.1:$PORT"
ok
wait_for "curl -sf -m 5 '$URL/metrics' | grep -q 'comm=\"mix\"'" 60 "a mix series in /metrics"
MIX_PID=$(pgrep -P "$SV_PID" mix | head -1)
[ -n "$MIX_PID" ] || fail "no mix under cyctop serve"

# promtool on both formats
curl -sf -m 10 "$URL/metrics" >"$TMP/m.txt" || fail "GET /metrics"
promtool check metrics <"$TMP/m.txt" >"$TMP/pc" 2>&1 || fail "promtool check metrics: $(cat "$TMP/pc")"
grep -q '^# HELP cyctop_events_total .*nanoseconds' "$TMP/m.txt" || fail "no unit in the HELP"
ok
curl -sf -m 10 -H 'Accept: application/openmetrics-text; version=1.0.0' \
	-D "$TMP/h" "$URL/metrics" >"$TMP/m.om" || fail "GET /metrics (OpenMetrics)"
grep -qi '^content-type: application/openmetrics-text' "$TMP/h" || fail "OpenMetrics content type"
tail -1 "$TMP/m.om" | grep -qx '# EOF' || fail "OpenMetrics: no # EOF"
grep -q '^# TYPE cyctop_events counter$' "$TMP/m.om" || fail "OpenMetrics: family cyctop_events"
# (promtool lints the text format only; prometheus below asks for
# OpenMetrics first in its Accept header and parses it: up == 1)
ok
curl -sf -m 5 "$URL/healthz" | grep -qx ok || fail "/healthz"
curl -sf -m 5 "$URL/" | grep -q 'method sw' || fail "/ names no method"
ok

# --- Prometheus -------------------------------------------------------------
PPORT=$(free_port)
cat >"$TMP/prom.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: cyctop
    static_configs:
      - targets: ['127.0.0.1:$PORT']
EOF
prometheus --config.file="$TMP/prom.yml" --storage.tsdb.path="$TMP/tsdb" \
	--web.listen-address="127.0.0.1:$PPORT" >"$TMP/prom.log" 2>&1 &
PROM_PID=$!
PURL="http://127.0.0.1:$PPORT"
wait_for "curl -sf -m 2 '$PURL/-/ready' >/dev/null" 60 "prometheus ready"
# query EXPR: the first result's value, "" when none
query() {
	curl -sf -m 5 --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"} \
		"$PURL/api/v1/query" | python3 -c '
import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if r else "")'
}
wait_for "[ \"\$(query 'count_over_time(up{job=\"cyctop\"}[1m])')\" -ge 5 ] 2>/dev/null" 60 \
	"five scrapes"
[ "$(query 'up{job="cyctop"}')" = 1 ] || fail "prometheus: up != 1 ($(query 'up'))"
ok

# cyctop -b on the same process over 10 s, each object's wall time noted
"$CYCTOP" -b --format json -d 10 -n 2 -p "$MIX_PID" 2>"$TMP/b.err" | python3 -c '
import sys, time
for line in sys.stdin:
    print("%.3f %s" % (time.time(), line.strip()), flush=True)' >"$TMP/batch"
[ "$(wc -l <"$TMP/batch")" -eq 2 ] || fail "cyctop -b: $(cat "$TMP/b.err")"
read -r T1 J1 <<EOF
$(sed -n 1p "$TMP/batch")
EOF
read -r T2 J2 <<EOF
$(sed -n 2p "$TMP/batch")
EOF
# let prometheus scrape past T2, then ask for the increase over [T1, T2]
wait_for "python3 -c 'import time,sys; sys.exit(time.time() < $T2 + 2.5)'" 10 "a scrape past T2"
W=$(python3 -c "print(round($T2 - $T1))")
PROM=$(query "increase(cyctop_events_total{comm=\"mix\",event=\"cpu-clock\"}[${W}s])" "$T2")
[ -n "$PROM" ] || fail "prometheus: no increase of mix's cpu-clock"
python3 - "$PROM" "$J1" "$J2" "$T1" "$T2" <<'PY' || fail "prometheus rate vs cyctop -b"
import json, math, sys
prom = float(sys.argv[1]); a, b = json.loads(sys.argv[2]), json.loads(sys.argv[3])
t1, t2 = float(sys.argv[4]), float(sys.argv[5])
ev = b["events"][0]
n = ev["samples"] - a["events"][0]["samples"]
want = n * ev["sav"]
# both count the same process's cpu-clock over the same seconds; the
# serve's counters move in steps of 0.25 s and prometheus scrapes each
# second, so the interval's edges differ by up to a scrape (1 s of the
# process's rate: want / 10 at most), plus 5 sd of the sample count
tol = want * 1.0 / (t2 - t1) + 5 * math.sqrt(max(n, 1)) * ev["sav"]
print("prometheus increase %.4g ns, cyctop -b %.4g ns (%d samples), tolerance %.3g"
      % (prom, want, n, tol))
sys.exit(0 if abs(prom - want) <= tol and n > 100 else 1)
PY
ok

# --- the tree per cgroup: mix's cgroup, where mix is alone, as the whole --------
# the utilization node (CPU seconds over elapsed seconds) of the cgroup the
# mix series are labelled with, from the samples, against cgroup="all"
# from the counted cpu-clock, in one scrape: 5 sd of the sample count, plus
# the samples' lag behind the counters (a poll round and the time-ordered
# queue's hold: 0.5 s of mix's CPU at most)
CG=$(curl -sf -m 5 "$URL/metrics" |
	sed -n 's/^cyctop_samples_total{event="cpu-clock",cgroup="\([^"]*\)",comm="mix"}.*/\1/p')
[ -n "$CG" ] || fail "no cgroup label on mix's series"
NOW=$(python3 -c 'import time; print(time.time() - 1)')
U_ALL=$(query 'cyctop_tree_node{node="utilization",cgroup="all"}' "$NOW")
U_CG=$(query "cyctop_tree_node{node=\"utilization\",cgroup=\"$CG\"}" "$NOW")
SECS=$(query 'cyctop_tree_node{node="seconds",cgroup="all"}' "$NOW")
N=$(query "sum(cyctop_samples_total{event=\"cpu-clock\",cgroup=\"$CG\"})" "$NOW")
E=$(query "sum(cyctop_events_total{event=\"cpu-clock\",cgroup=\"$CG\"})" "$NOW")
[ -n "$U_CG" ] || fail "prometheus: no tree node of cgroup $CG"
python3 - "$U_ALL" "$U_CG" "$SECS" "$N" "$E" "$CG" <<'PY' || fail "the cgroup's tree vs the whole"
import math, sys
u_all, u_cg, secs, n, e = map(float, sys.argv[1:6])
period = e / n
tol = 5 * math.sqrt(n) * period / 1e9 / secs + u_all * 0.5 / secs
print("utilization: all %.4f, cgroup %s %.4f (%d samples over %.1f s), tolerance %.4f"
      % (u_all, sys.argv[6], u_cg, n, secs, tol))
sys.exit(0 if abs(u_all - u_cg) <= tol and n > 100 else 1)
PY
ok

# --- go tool pprof ---------------------------------------------------------
"$CYCTOP" -b --format json -d 3 -n 1 -p "$MIX_PID" >"$TMP/b2.json" 2>"$TMP/b2.err" &
B_PID=$!
go tool pprof -sample_index=samples -top "$URL/debug/pprof/profile?seconds=2" \
	>"$TMP/top" 2>"$TMP/top.err" || fail "go tool pprof: $(cat "$TMP/top.err")"
wait "$B_PID" || fail "cyctop -b: $(cat "$TMP/b2.err")"
python3 - "$TMP/top" "$TMP/b2.json" <<'PY' || fail "pprof shares vs cyctop -b"
import json, math, re, sys
top = open(sys.argv[1]).read()
m = re.search(r"of ([0-9.]+) total", top)
n1 = float(m.group(1))
got = {}
for line in top.splitlines():
    w = line.split()
    if len(w) >= 6 and w[1].endswith("%") and w[-1].startswith("work_"):
        got[w[-1]] = float(w[1][:-1])
o = json.loads(open(sys.argv[2]).read().splitlines()[-1])
ev = o["events"][0]["name"]
n2 = o["events"][0]["samples"]
want = {f["name"]: f["percent"][ev] for f in o["functions"]}
bad = []
for fn in ("work_60", "work_30", "work_10"):
    g, w = got.get(fn, 0.0), want.get(fn, 0.0)
    p = w / 100
    sd = 100 * math.sqrt(p * (1 - p) * (1 / max(n1, 1) + 1 / max(n2, 1)))
    print("%s pprof %.2f%% cyctop -b %.2f%% (sd %.2f; %d and %d samples)" % (fn, g, w, sd, n1, n2))
    if not (abs(g - w) <= max(2.0, 5 * sd)) or g == 0:
        bad.append(fn)
sys.exit(1 if bad else 0)
PY
ok
curl -sf -m 20 "$URL/debug/pprof/profile?seconds=1" >"$TMP/p.pb.gz" || fail "GET profile"
go tool pprof -raw "$TMP/p.pb.gz" >"$TMP/raw" 2>&1 || fail "go tool pprof -raw: $(cat "$TMP/raw")"
grep -q 'comm:\[mix\]' "$TMP/raw" || fail "no comm label: $(head -40 "$TMP/raw")"
grep -q 'cgroup:\[' "$TMP/raw" || fail "no cgroup label"
grep -q "pid:\[$MIX_PID\]" "$TMP/raw" || fail "no pid label"
ok
code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "$URL/debug/pprof/profile?seconds=0")
[ "$code" = 400 ] || fail "seconds=0: $code, want 400"
ok

# --- SIGTERM: a clean exit, the workload gone --------------------------------
kill -TERM "$SV_PID"
RC=0
wait "$SV_PID" || RC=$?
SV_PID=
[ "$RC" -eq 143 ] || fail "cyctop serve after SIGTERM: exit $RC, want 143; $(cat "$TMP/sv.err")"
wait_for "! kill -0 $MIX_PID 2>/dev/null" 10 "mix gone"
ok
done_ok
