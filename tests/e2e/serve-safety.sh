#!/bin/sh
# cyctop serve's safety (issue 42), on loopback only:
# - without --listen it listens on 127.0.0.1 only (ss -ltn);
# - only GET and HEAD: POST, PUT and DELETE get 405 with Allow;
# - --auth-token-file: no token and a wrong one 401, the right one 200;
# - a request header past the size bound is refused;
# - a slow client (half a request, then nothing) does not stall
#   collection, and is cut off within the idle bound;
# - 1,000 scrapes while workloads/storm runs: RSS flat after warm-up
#   (within 2 MB from the 200th to the 1000th) and no fd growth;
# - TLS with --tls-cert/--tls-key (a self-signed pair made here);
# - a bad --listen (no port, a port in use) is one line before the session
#   opens: a command that cannot run is never tried.
. "$SRCDIR/tests/e2e/lib.sh"

command -v curl >/dev/null 2>&1 || { echo "SKIP: no curl"; exit 77; }
export no_proxy='*' NO_PROXY='*'
SV_PID=
cleanup() {
	[ -n "$SV_PID" ] && kill "$SV_PID" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

# start ARGS...: cyctop serve ARGS in the background; $PORT, $URL
start() {
	"$CYCTOP" serve "$@" >"$TMP/sv.out" 2>"$TMP/sv.err" &
	SV_PID=$!
	wait_for "grep -q 'listening on .*:[1-9][0-9]*$' '$TMP/sv.err' || ! kill -0 $SV_PID" 30 "cyctop serve listening"
	kill -0 "$SV_PID" 2>/dev/null || fail "cyctop serve $*: $(cat "$TMP/sv.err")"
	PORT=$(sed -n 's/^cyctop serve: listening on .*:\([0-9]*\)$/\1/p' "$TMP/sv.err")
	URL="${SCHEME:-http}://127.0.0.1:$PORT"
}
stop() {
	kill -TERM "$SV_PID"
	wait "$SV_PID" 2>/dev/null
	SV_PID=
}
code() { # CURL-ARGS...: the status
	curl -s -m 10 -o /dev/null -w '%{http_code}' "$@"
}

# --- the default address: loopback ------------------------------------------
if ss -ltn | grep -q ':9464 '; then
	skip_part "port 9464 is taken: the default address is not checked"
else
	start -- "$WORKLOADS/mix" 600
	ss -ltn | grep -q '127.0.0.1:9464 ' || fail "ss -ltn: not 127.0.0.1:9464: $(ss -ltn)"
	ss -ltn | grep -qE '(0.0.0.0|\*|\[::\]):9464 ' && fail "listening beyond loopback"
	ok
	stop
fi

# --- methods, size ----------------------------------------------------------
start --listen 127.0.0.1:0 -- "$WORKLOADS/mix" 600

# --- a bad --listen: refused before the session (no command tried) ---------
# the command does not exist: had the session opened first, its error
# would be the one reported
run "$CYCTOP" serve --listen 127.0.0.1:notaport -- "$TMP/no-such-command"
expect_rc 1 "--listen without a numeric port"
expect_err "--listen 127.0.0.1:notaport" "names the address"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "one line: $(cat "$TMP/err")"
grep -q no-such-command "$TMP/err" && fail "the command was tried first: $(cat "$TMP/err")"
ok
run "$CYCTOP" serve --listen "127.0.0.1:$PORT" -- "$TMP/no-such-command"
expect_rc 1 "--listen on a port in use"
expect_err "--listen 127.0.0.1:$PORT: cannot listen there" "says the port is taken"
grep -q no-such-command "$TMP/err" && fail "the command was tried first: $(cat "$TMP/err")"
ok
for m in POST PUT DELETE; do
	[ "$(code -X $m "$URL/metrics")" = 405 ] || fail "$m /metrics: not 405"
done
curl -s -m 10 -D "$TMP/h" -o /dev/null -X POST -d x=1 "$URL/metrics"
grep -qi '^allow: GET, HEAD' "$TMP/h" || fail "405 without Allow: $(cat "$TMP/h")"
[ "$(code -I "$URL/healthz")" = 200 ] || fail "HEAD /healthz"
[ "$(code "$URL/nothing")" = 404 ] || fail "GET /nothing: not 404"
ok
big=$(python3 -c 'print("x" * 40000)')
c=$(code -H "X-Big: $big" "$URL/healthz")
[ "$c" != 200 ] || fail "a 40 KB header was served"
ok

# --- a slow client ----------------------------------------------------------
collected() {
	curl -sf -m 10 "$URL/metrics" | sed -n 's/^cyctop_collection_seconds //p'
}
wait_for "[ -n \"\$(collected)\" ]" 30 "metrics"
python3 - "$PORT" >"$TMP/slow" 2>&1 <<'PY' &
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")   # half a request
t0 = time.time()
s.settimeout(40)
try:
    data = s.recv(100)
except socket.timeout:
    data = None
print("closed after %.1f s" % (time.time() - t0) if data is not None else "never closed")
PY
SLOW_PID=$!
c1=$(collected)
# each try reads the metric again (a single quote would keep $(...) from
# the eval: the wait could never end)
wait_for "v=\$(collected); [ -n \"\$v\" ] && awk -v v=\"\$v\" -v c='$c1' 'BEGIN { exit !(v > c + 2) }'" \
	30 "collection going on beside a slow client"
ok
wait "$SLOW_PID"
grep -q '^closed after' "$TMP/slow" || fail "the slow client: $(cat "$TMP/slow")"
ok
stop

# --- a token ----------------------------------------------------------------
printf 's3cret\n' >"$TMP/token"
start --listen 127.0.0.1:0 --auth-token-file "$TMP/token" -- "$WORKLOADS/mix" 600
[ "$(code "$URL/healthz")" = 401 ] || fail "no token: not 401"
[ "$(code -H 'Authorization: Bearer wrong' "$URL/healthz")" = 401 ] || fail "wrong token"
[ "$(code -H 'Authorization: Bearer s3cret' "$URL/healthz")" = 200 ] || fail "right token"
ok
stop
printf '\n' >"$TMP/empty"
run "$CYCTOP" serve --auth-token-file "$TMP/empty" -- true
expect_rc 1 "an empty token file"
run "$CYCTOP" serve --tls-cert "$TMP/token" -- true
expect_rc 2 "--tls-cert without --tls-key"

# --- 1,000 scrapes while the storm runs ---------------------------------------
start --listen 127.0.0.1:0 -- "$WORKLOADS/storm" 600
wait_for "curl -sf -m 5 '$URL/metrics' | grep -q 'comm=\"storm\"'" 60 "storm in /metrics"
# under AddressSanitizer RSS holds its quarantine of freed blocks (256 MB):
# the fds are checked there, the leaks by LeakSanitizer at the exit
ASAN=$(ldd "$CYCTOP" 2>/dev/null | grep -c libasan || true)
python3 - "$PORT" "$SV_PID" "$ASAN" <<'PY' >"$TMP/scrapes" || fail "1,000 scrapes: $(cat "$TMP/scrapes")"
import http.client, os, sys, time
port, pid, asan = int(sys.argv[1]), sys.argv[2], sys.argv[3] != "0"
def rss():
    for l in open("/proc/%s/status" % pid):
        if l.startswith("VmRSS:"):
            return int(l.split()[1])
def fds():
    return len(os.listdir("/proc/%s/fd" % pid))
t0 = time.time()
marks = {}
for i in range(1, 1001):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request("GET", "/metrics")
    r = c.getresponse()
    r.read()
    c.close()
    if r.status != 200:
        sys.exit("scrape %d: %d" % (i, r.status))
    if i in (200, 1000):
        marks[i] = (rss(), fds())
    if time.time() - t0 > 300:
        sys.exit("1,000 scrapes took more than 300 s")
(r1, f1), (r2, f2) = marks[200], marks[1000]
print("RSS %d -> %d kB, fds %d -> %d, %.1f s" % (r1, r2, f1, f2, time.time() - t0))
# the storm's threads come and go: the session's tables may grow a little;
# the scrapes' buffers must not
sys.exit(0 if (asan or r2 - r1 <= 2048) and f2 <= f1 + 2 else 1)
PY
cat "$TMP/scrapes"
ok
stop

# --- TLS --------------------------------------------------------------------
if command -v openssl >/dev/null 2>&1; then
	openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 \
		-keyout "$TMP/key.pem" -out "$TMP/cert.pem" >/dev/null 2>&1 ||
		fail "openssl req"
	SCHEME=https start --listen 127.0.0.1:0 --tls-cert "$TMP/cert.pem" \
		--tls-key "$TMP/key.pem" -- "$WORKLOADS/mix" 600
	[ "$(code --cacert "$TMP/cert.pem" "$URL/healthz")" = 200 ] || fail "HTTPS /healthz"
	[ "$(code "http://127.0.0.1:$PORT/healthz")" != 200 ] || fail "plain HTTP on a TLS port"
	ok
	stop
else
	skip_part "no openssl: TLS not checked"
fi
done_ok
