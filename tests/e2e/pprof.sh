#!/bin/sh
# pprof export and import (issue 18), checked by Go's own reader:
# - a recorded session (cyctop record) written with --format pprof gives in
#   `go tool pprof -top` the flat shares of cyctop's JSON of that session
#   (within 0.5 point); with -g, `-top -cum` gives the JSON's children;
#   `-raw` shows every event as a sample type (samples and estimated counts);
# - a profile written by Go's runtime/pprof (a tiny program built here,
#   offline) opens with cyctop -i with the flat shares go tool pprof gives;
# - cyctop's own profile read back gives the JSON's shares again;
# - a truncated, corrupt or inconsistent .pb.gz: one line, exit 1.
. "$SRCDIR/tests/e2e/lib.sh"

command -v go >/dev/null 2>&1 || { echo "SKIP: no go (build.sh deps installs golang-go)"; exit 77; }
export GOCACHE="$TMP/gocache" GOPATH="$TMP/gopath" GOFLAGS= GO111MODULE=off GOPROXY=off
export HOME="$TMP"   # go tool pprof keeps a ~/pprof directory

# compare JSON PPROF-TOP COLUMN KEY: every function with a share of at least
# 1 % on either side differs by at most 0.5 point.  COLUMN: 2 flat%, 5 cum%;
# KEY: the JSON field ("percent" or "children") of the first event; with
# children, the JSON's functions and the callers of its first one.
compare() {
	python3 - "$@" <<'PY'
import json, sys
js, top, col, key = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
o = json.loads([l for l in open(js) if l.strip()][-1])
ev = o["events"][0]["name"]
want = {}
for f in o["functions"]:
    want[f["name"]] = want.get(f["name"], 0) + f[key][ev]
if key == "children":
    # the JSON lists sampled functions only: their callers' cumulative share
    # is what the callers view shows, the edge's share of the function's (the callers
    # of the hottest function call nothing else in these programs)
    f0 = o["functions"][0]
    for c in f0["callers"]:
        if c["name"] not in want:
            want[c["name"]] = c["percent"] * f0["children"][ev] / 100.0
got, seen = {}, False
for line in open(top):
    w = line.split()
    if len(w) >= 5 and w[0] == "flat" and w[1] == "flat%":
        seen = True
        continue
    if seen and len(w) >= 6 and w[col - 1].endswith("%"):
        got[" ".join(w[5:])] = float(w[col - 1][:-1])
names = set(want) if key == "children" else set(want) | set(got)
bad = [(n, want.get(n, 0), got.get(n, 0)) for n in names
       if max(want.get(n, 0), got.get(n, 0)) >= 1 and abs(want.get(n, 0) - got.get(n, 0)) > 0.5]
if not seen or not got:
    print("no pprof rows"); sys.exit(1)
for b in bad:
    print("%s: cyctop %.2f, pprof %.2f" % b)
sys.exit(1 if bad else 0)
PY
}

top_of() { # PPROF-FILE OUT [pprof options]
	_f=$1 _o=$2
	shift 2
	go tool pprof -top -nodecount=10000 -nodefraction=0 -edgefraction=0 "$@" "$_f" >"$_o" 2>"$TMP/go.err" ||
		fail "go tool pprof on $_f: $(cat "$TMP/go.err")"
}

# --- export: a recorded session, flat ---------------------------------------
run "$CYCTOP" record -e cpu-clock,page-faults -o "$TMP/mix.data" -- "$WORKLOADS/mix" 1
expect_rc 0 "cyctop record mix"
run "$CYCTOP" -i "$TMP/mix.data" -b --format json
expect_rc 0 "the session's JSON"
cp "$TMP/out" "$TMP/mix.json"
run "$CYCTOP" -i "$TMP/mix.data" -b --format pprof -o "$TMP/mix.pb.gz"
expect_rc 0 "the session's pprof"
[ -s "$TMP/mix.pb.gz" ] && [ ! -s "$TMP/out" ] || fail "-o: the profile in the file, nothing on stdout"
ok
top_of "$TMP/mix.pb.gz" "$TMP/mix.top"
compare "$TMP/mix.json" "$TMP/mix.top" 2 percent || fail "pprof -top flat shares are not the JSON's"
ok
grep -q "work_60" "$TMP/mix.top" || fail "work_60 not in pprof -top"
ok
# the main binary is the program's: pprof takes the first mapping for it
# (ld.so's or the kernel's came first, in the order sampled)
[ "$(head -n 1 "$TMP/mix.top")" = "File: mix" ] ||
	fail "pprof -top's main binary: '$(head -n 1 "$TMP/mix.top")', not 'File: mix'"
ok
# stdout when it is not a terminal gives the same profile, byte for byte
# (a session's profile is deterministic: its time is the file's)
"$CYCTOP" -i "$TMP/mix.data" -b --format pprof >"$TMP/stdout.pb.gz" || fail "pprof to stdout"
cmp -s "$TMP/mix.pb.gz" "$TMP/stdout.pb.gz" || fail "two exports of one session differ"
ok

# -raw: every event is a sample type, the first event's estimate the default
go tool pprof -raw "$TMP/mix.pb.gz" >"$TMP/mix.raw" 2>"$TMP/go.err" || fail "pprof -raw: $(cat "$TMP/go.err")"
grep -qx "samples/count cpu/nanoseconds\[dflt\] samples_page-faults/count page-faults/count" "$TMP/mix.raw" ||
	fail "pprof -raw sample types: $(grep -A1 '^Samples:' "$TMP/mix.raw")"
ok
for want in "PeriodType: cpu nanoseconds" "Period: 250000" "Comment: event cpu-clock: sav 250000" \
	"Comment: event page-faults" "Comment: pmu: " "pid:[" "tid:[" "thread_comm:[mix]"; do
	grep -qF -- "$want" "$TMP/mix.raw" || fail "pprof -raw lacks '$want'"
	ok
done
# a mapping with the binary's path and build id, a function with its file
sed -n '/^Mappings/,$p' "$TMP/mix.raw" | grep -q "workloads/mix [0-9a-f]\{40\}" ||
	fail "no mapping of mix with its build id: $(sed -n '/^Mappings/,$p' "$TMP/mix.raw")"
ok
grep -q "work_60 .*mix.c:[0-9]" "$TMP/mix.raw" || fail "no work_60 at mix.c:LINE in the locations"
ok
# the samples' sum is the session's: cpu-clock samples and estimated nanoseconds
python3 - "$TMP/mix.raw" "$TMP/mix.json" <<'PY' || fail "pprof -raw totals are not the session's"
import json, sys
o = json.loads([l for l in open(sys.argv[2]) if l.strip()][-1])
ev = o["events"][0]
tot, on = [0, 0, 0, 0], False
for line in open(sys.argv[1]):
    if line.startswith("Samples:"):
        on = True
        continue
    if line.startswith("Locations"):
        break
    w = line.split()
    if on and len(w) >= 4 and w[3].endswith(":") and w[0].isdigit():
        for i in range(4):
            tot[i] += int(w[i].rstrip(":"))
sys.exit(not (tot[0] == ev["samples"] and tot[1] == ev["samples"] * ev["sav"]))
PY
ok

# --- read back: cyctop -i its own profile ------------------------------------
run "$CYCTOP" -i "$TMP/mix.pb.gz" -b --format json
expect_rc 0 "cyctop -i mix.pb.gz"
expect_out '"name": "cpu/nanoseconds"' "the default type first"
python3 - "$TMP/mix.json" "$TMP/out" <<'PY' || fail "read back: shares differ"
import json, sys
a, b = (json.loads([l for l in open(p) if l.strip()][-1]) for p in sys.argv[1:3])
ea, eb = a["events"][0]["name"], b["events"][0]["name"]
pa = {f["name"]: f["percent"][ea] for f in a["functions"]}
pb = {f["name"]: f["percent"][eb] for f in b["functions"]}
sys.exit(any(abs(pa.get(n, 0) - pb.get(n, 0)) > 0.01 for n in set(pa) | set(pb)))
PY
ok

# a flat pprof profile written again gives it back
run "$CYCTOP" -i "$TMP/mix.pb.gz" -b --format pprof -o "$TMP/mix2.pb.gz"
expect_rc 0 "cyctop's flat profile written again"
top_of "$TMP/mix2.pb.gz" "$TMP/mix2.top"
compare "$TMP/mix.json" "$TMP/mix2.top" 2 percent || fail "flat profile written again: other shares"
ok

# --- export with call stacks: cumulative shares are the JSON's children ------
run "$CYCTOP" record -g -e cpu-clock -o "$TMP/callers.data" -- "$WORKLOADS/callers" 1
expect_rc 0 "cyctop record -g callers"
run "$CYCTOP" -i "$TMP/callers.data" -b --format json
expect_rc 0 "the -g session's JSON"
cp "$TMP/out" "$TMP/callers.json"
run "$CYCTOP" -i "$TMP/callers.data" -b --format pprof -o "$TMP/callers.pb.gz"
expect_rc 0 "the -g session's pprof"
top_of "$TMP/callers.pb.gz" "$TMP/callers.top"
compare "$TMP/callers.json" "$TMP/callers.top" 2 percent || fail "-g: flat shares"
ok
top_of "$TMP/callers.pb.gz" "$TMP/callers.cum" -cum
compare "$TMP/callers.json" "$TMP/callers.cum" 5 children || fail "-g: cum shares are not the children"
ok
grep -q "caller_a" "$TMP/callers.cum" && grep -q "main" "$TMP/callers.cum" || fail "-g: no callers in -cum"
ok
# stacks by address, every sample labelled with its thread
go tool pprof -raw "$TMP/callers.pb.gz" >"$TMP/callers.raw" 2>/dev/null || fail "-g: pprof -raw"
for want in "Comment: stacks: by address, per thread" "tid:[" "thread_comm:[callers]"; do
	grep -qF -- "$want" "$TMP/callers.raw" || fail "-g: pprof -raw lacks '$want'"
	ok
done
# every sample carries its whole stack: leaf_work's callers in -traces
go tool pprof -traces "$TMP/callers.pb.gz" 2>/dev/null | grep -A2 "leaf_work" | grep -q "caller_[ab]" ||
	fail "-g: stacks of leaf_work lack caller_a/caller_b"
ok
# the callers view's data on the profile read back: leaf_work's callers 2:1
run "$CYCTOP" -i "$TMP/callers.pb.gz" -b --format json
expect_rc 0 "cyctop -i callers.pb.gz"
expect_out '"children"' "read back with stacks: children"
expect_out '"name": "caller_a"' "read back: caller_a"

# --- import: a profile Go's runtime/pprof wrote --------------------------------
mkdir -p "$TMP/goprog"
cat >"$TMP/goprog/main.go" <<'EOF'
package main

import (
	"os"
	"runtime/pprof"
	"time"
)

var sink uint64

//go:noinline
func spin(d time.Duration) {
	x := sink
	for end := time.Now().Add(d); time.Now().Before(end); {
		for i := 0; i < 1000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	sink = x
}

//go:noinline
func heavy() { spin(600 * time.Millisecond) }

//go:noinline
func light() { spin(300 * time.Millisecond) }

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	pprof.StartCPUProfile(f)
	for i := 0; i < 3; i++ {
		heavy()
		light()
	}
	pprof.StopCPUProfile()
	f.Close()
}
EOF
(cd "$TMP/goprog" && go build -o prog main.go) >"$TMP/go.err" 2>&1 || fail "go build: $(cat "$TMP/go.err")"
"$TMP/goprog/prog" "$TMP/go.pb.gz" || fail "the Go program"
ok
top_of "$TMP/go.pb.gz" "$TMP/go.top"
run "$CYCTOP" -i "$TMP/go.pb.gz" -b --format json
expect_rc 0 "cyctop -i Go's profile"
cp "$TMP/out" "$TMP/go.json"
expect_out '"name": "cpu/nanoseconds"' "Go's default type first"
compare "$TMP/go.json" "$TMP/go.top" 2 percent || fail "Go's profile: flat shares are not pprof's"
ok
go tool pprof -top -cum -nodecount=10000 -nodefraction=0 "$TMP/go.pb.gz" >"$TMP/go.cum" 2>/dev/null
compare "$TMP/go.json" "$TMP/go.cum" 5 children || fail "Go's profile: cum shares are not pprof's"
ok
grep -q '"name": "main.heavy"' "$TMP/go.json" || fail "main.heavy not in cyctop's view of Go's profile"
ok
# the binary is here, the same build: the asm view's rows, per instruction
run "$CYCTOP" annotate main.spin -i "$TMP/go.pb.gz"
expect_rc 0 "cyctop annotate main.spin -i Go's profile"
want=$(json_last "$TMP/go.json" 'samples("main.spin", "samples/count")')
total=$(json_last "$TMP/go.json" 'event("samples/count")["samples"]')
expect_out "# samples/count: sav 1, $want samples here of $total" "annotate: main.spin's samples"
# cyctop's pprof of Go's profile is read by Go again
run "$CYCTOP" -i "$TMP/go.pb.gz" -b --format pprof -o "$TMP/go2.pb.gz"
expect_rc 0 "Go's profile written again"
top_of "$TMP/go2.pb.gz" "$TMP/go2.top"
compare "$TMP/go.json" "$TMP/go2.top" 2 percent || fail "Go's profile through cyctop: flat shares"
ok
# (a profile read back has no per-thread store: its call graph is written,
# a location per function; the cumulative shares stay)
grep -q "stacks: one location per function" "$TMP/go2.top" 2>/dev/null ||
	go tool pprof -raw "$TMP/go2.pb.gz" 2>/dev/null | grep -q "stacks: one location per function" ||
	fail "Go's profile through cyctop: not the call graph's paths"
ok
top_of "$TMP/go2.pb.gz" "$TMP/go2.cum" -cum
compare "$TMP/go.json" "$TMP/go2.cum" 5 children || fail "Go's profile through cyctop: cum shares"
ok

# --- import: pprof's own examples (golang-github-google-pprof-dev's testdata,
# legacy Java profiles with names, written as profile.proto by pprof itself):
# a CPU, a heap (inuse_space by default) and a contention profile
PT=/usr/share/gocode/src/github.com/google/pprof/profile/testdata
for f in java.cpu java.heap java.contention; do
	go tool pprof -proto -symbolize=none "$PT/$f" >"$TMP/$f.pb.gz" 2>"$TMP/go.err" ||
		fail "pprof -proto $f: $(cat "$TMP/go.err")"
	top_of "$TMP/$f.pb.gz" "$TMP/$f.top"
	run "$CYCTOP" -i "$TMP/$f.pb.gz" -b --format json
	expect_rc 0 "cyctop -i pprof's $f"
	cp "$TMP/out" "$TMP/$f.json"
	compare "$TMP/$f.json" "$TMP/$f.top" 2 percent || fail "pprof's $f: flat shares"
	ok
done
expect_true "$(json_last "$TMP/java.heap.json" 'o["events"][0]["name"] == "inuse_space/bytes"')" \
	"java.heap: pprof's default type (inuse_space) first"

# --- hostile input: one line naming the file, exit 1 -------------------------
n=$(wc -c <"$TMP/mix.pb.gz")
head -c $((n / 2)) "$TMP/mix.pb.gz" >"$TMP/cut.pb.gz"
printf '\037\213garbage' >"$TMP/garbage.pb.gz"
printf 'not a profile at all, just text' | gzip >"$TMP/text.pb.gz"
for f in cut garbage text; do
	run "$CYCTOP" -i "$TMP/$f.pb.gz" -b --format json
	expect_rc 1 "$f.pb.gz"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "$f.pb.gz: not one line: $(cat "$TMP/err")"
	expect_err "$TMP/$f.pb.gz: " "$f.pb.gz: names the file"
done
expect_err "not a profile.proto message" "text.pb.gz: says why"
# a gzipped perf.data is said to be one
gzip -c "$TMP/mix.data" >"$TMP/mix.data.gz"
run "$CYCTOP" -i "$TMP/mix.data.gz" -b --format json
expect_rc 1 "mix.data.gz"
expect_err "a gzipped perf.data, not a pprof profile" "mix.data.gz: says what it is"
: | gzip >"$TMP/empty.pb.gz"
run "$CYCTOP" -i "$TMP/empty.pb.gz" -b --format json
expect_rc 1 "empty.pb.gz"
expect_err "empty: no pprof profile" "empty.pb.gz: says why"
# 20M empty samples in 40 KB: each asks for a message; the decoder's memory
# budget refuses them instead of exhausting the machine
python3 -c 'import gzip, sys; gzip.open(sys.argv[1], "wb").write(b"\x12\x00" * 20000000)' \
	"$TMP/bomb.pb.gz"
run "$CYCTOP" -i "$TMP/bomb.pb.gz" -b --format json
expect_rc 1 "bomb.pb.gz"
expect_err "need more than 1024 MB" "bomb.pb.gz: the memory budget"
run "$CYCTOP" -i "$TMP/cut.pb.gz" -b --format json
expect_err "gzip stream truncated" "cut.pb.gz: says why"

# --- options -------------------------------------------------------------------
run "$CYCTOP" -b -o "$TMP/x" -- "$WORKLOADS/mix" 0.1
expect_rc 2 "-o without --format pprof"
expect_err "only --format pprof and flame write a file" "-o alone"
run "$CYCTOP" --format pprof -o "$TMP/x" -- "$WORKLOADS/mix" 0.1
expect_rc 2 "--format pprof without -b"
expect_err "add -b" "pprof is batch output"
run "$CYCTOP" -b --window --format pprof -o "$TMP/x" -- "$WORKLOADS/mix" 0.1
expect_rc 2 "--window with --format pprof"
expect_err "not --window" "pprof is cumulative"
run "$CYCTOP" -b --tid 1 --format pprof -o "$TMP/x" -- "$WORKLOADS/mix" 0.1
expect_rc 2 "--tid with --format pprof"
expect_err "-tagfocus=tid=N" "pprof has every thread"
run "$CYCTOP" -b --format pprof -o "$TMP/never.pb.gz" -e no-such-event -- "$WORKLOADS/mix" 0.1
expect_rc 1 "a watch that cannot start"
[ ! -e "$TMP/never.pb.gz" ] || fail "an empty profile was left behind"
ok
run "$CYCTOP" -b --format pprof -o "$TMP/no/such/dir/x.pb.gz" -- "$WORKLOADS/mix" 0.1
expect_rc 1 "-o into a missing directory"
expect_err "no/such/dir/x.pb.gz" "names the file"

# --- live: a launched command, straight to pprof --------------------------------
# two mix processes: each sample is labelled with its process and thread
run "$CYCTOP" -b --format pprof -o "$TMP/live.pb.gz" -e cpu-clock -- \
	sh -c "'$WORKLOADS/mix' 0.5 & '$WORKLOADS/mix' 0.5; wait"
expect_rc 0 "live --format pprof"
top_of "$TMP/live.pb.gz" "$TMP/live.top"
grep -q "work_60" "$TMP/live.top" || fail "live: work_60 not in pprof -top"
ok
go tool pprof -tags "$TMP/live.pb.gz" >"$TMP/live.tags" 2>/dev/null || fail "pprof -tags"
awk '/^ pid:/ { on = 1; next } /^ *$/ { on = 0 } on && $2 >= 40 { n++ } END { exit n != 2 }' \
	FS='[(%]+' "$TMP/live.tags" || fail "live: not two pids with half the samples each: $(cat "$TMP/live.tags")"
ok
grep -q "(.*): mix$" "$TMP/live.tags" || fail "live: no thread_comm mix: $(cat "$TMP/live.tags")"
ok
done_ok
