#!/usr/bin/env bash
# The metrics endpoint, end to end:
#   run.sh RECORDING GPUTOP [GPUTOP...]
# Each binary serves RECORDING replayed (--listen, no terminal: the endpoint alone) and
# answers bad requests (unknown path, wrong method, huge headers, slow clients) with
# HTTP errors while still serving. With the first binary, promtool checks the output and
# a real Prometheus server (Debian's package) scrapes it: its HTTP API must return the
# recording's values (a counter, a gauge, a collector's state, a histogram quantile).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
SUITE=exporter
REC=$1
shift
TMP=$(mktemp -d)
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

LAST=$(tail -1 "$REC")
LAST_SEQ=$(jq -r .seq <<<"$LAST")

# A port nobody listens on (Prometheus' own; ours come from --listen ...:0).
free_port() {
	local p
	for p in $(seq $((20000 + RANDOM % 20000)) 65000); do
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
	done
}

# start BIN: serves the recording; sets ADDR (host:port) once it listens.
start() {
	local bin=$1 i
	"$bin" --replay "$REC" --listen 127.0.0.1:0 -d 0.05 </dev/null >"$TMP/stdout" 2>"$TMP/stderr" &
	PIDS+=($!)
	SERVER=$!
	ADDR=
	for i in $(seq 100); do
		ADDR=$(grep -o 'http://[^/]*' "$TMP/stderr" | head -1 | sed 's|http://||')
		[ -n "$ADDR" ] && break
		sleep 0.1
	done
}

# value FILE FAMILY{LABELS}: the sample's value in an exposition ("" when absent).
value() {
	grep -F "$2 " "$1" | grep -v "^#" | head -1 | awk '{print $NF}'
}

# Waits until the endpoint serves the recording's last snapshot.
wait_last() {
	local i
	for i in $(seq 150); do
		curl -s "http://$ADDR/metrics" >"$TMP/m.txt" 2>/dev/null
		[ "$(value "$TMP/m.txt" gputop_snapshots_total)" = "$LAST_SEQ" ] && return 0
		sleep 0.1
	done
	return 1
}

status_of() { # status_of CURL_ARGS...: the HTTP status
	curl -s -o /dev/null -w '%{http_code}' --max-time 15 "$@"
}

bad_requests() {
	local bin=$1 code before t0 t1 i slow=() scrapes
	code=$(status_of "http://$ADDR/nope")
	[ "$code" = 404 ] && pass "$bin: unknown path: 404" || fail "$bin: unknown path: $code"
	code=$(status_of -X POST -d x=1 "http://$ADDR/metrics")
	[ "$code" = 405 ] && pass "$bin: POST: 405" || fail "$bin: POST: $code"
	code=$(status_of -I "http://$ADDR/metrics")
	[ "$code" = 200 ] && pass "$bin: HEAD: 200" || fail "$bin: HEAD: $code"
	code=$(status_of "http://$ADDR/")
	[ "$code" = 200 ] && grep -q 'href="/metrics"' <(curl -s "http://$ADDR/") &&
		pass "$bin: / links to /metrics" || fail "$bin: /: $code"
	head -c 65536 /dev/zero | tr '\0' a >"$TMP/huge"
	code=$(status_of -H "X-Huge: $(cat "$TMP/huge")" "http://$ADDR/metrics")
	case $code in
	4??) pass "$bin: 64 KiB header: $code" ;;
	*) fail "$bin: 64 KiB header: $code (expected a 4xx)" ;;
	esac
	# slow clients: connections that send half a request and stall
	for i in 1 2 3 4 5 6 7 8; do
		(exec 3<>"/dev/tcp/${ADDR%:*}/${ADDR##*:}" && printf 'GET /metrics HTTP/1.1\r\nHost: x\r\n' >&3 && sleep 30) &
		slow+=($!)
	done
	sleep 0.5
	t0=$(date +%s%N)
	code=$(status_of "http://$ADDR/metrics")
	t1=$(date +%s%N)
	[ "$code" = 200 ] && [ $(((t1 - t0) / 1000000)) -lt 1000 ] &&
		pass "$bin: a scrape while 8 clients stall: 200 in $(((t1 - t0) / 1000000)) ms" ||
		fail "$bin: a scrape while 8 clients stall: $code in $(((t1 - t0) / 1000000)) ms"
	# 20 scrapes at once: every one whole
	scrapes=()
	for i in $(seq 20); do
		curl -s --max-time 15 "http://$ADDR/metrics" >"$TMP/c$i" &
		scrapes+=($!)
	done
	wait "${scrapes[@]}"
	before=$(wc -c <"$TMP/m.txt")
	i=0
	for f in "$TMP"/c*; do cmp -s "$f" "$TMP/m.txt" && i=$((i + 1)); done
	[ "$i" = 20 ] && pass "$bin: 20 scrapes at once: 20 whole pages ($before bytes)" ||
		fail "$bin: 20 scrapes at once: $i of 20 whole"
	kill "${slow[@]}" 2>/dev/null
	wait "${slow[@]}" 2>/dev/null
	kill -0 "$SERVER" 2>/dev/null && [ "$(status_of "http://$ADDR/metrics")" = 200 ] &&
		pass "$bin: still serving after the bad requests" || fail "$bin: the server did not survive"
}

prometheus_checks() {
	local pport cfg i q got want lo hi
	if ! command -v prometheus >/dev/null || ! command -v promtool >/dev/null; then
		fail "prometheus and promtool are not installed: run 'make deps'"
		return
	fi
	if promtool check metrics <"$TMP/m.txt" >"$TMP/lint" 2>&1; then
		pass "promtool check metrics: clean ($(grep -vc '^#' "$TMP/m.txt") samples)"
	else
		fail "promtool check metrics: $(head -3 "$TMP/lint")"
	fi
	curl -s -H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;q=0.5' \
		-D "$TMP/om.hdr" "http://$ADDR/metrics" >"$TMP/om.txt"
	grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$TMP/om.hdr" &&
		[ "$(tail -1 "$TMP/om.txt")" = "# EOF" ] &&
		pass "OpenMetrics when asked for: its content type, ends in # EOF" ||
		fail "OpenMetrics negotiation: $(grep -i content-type "$TMP/om.hdr")"
	pport=$(free_port)
	cfg=$TMP/prometheus.yml
	cat >"$cfg" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: gputop
    static_configs:
      - targets: ['$ADDR']
EOF
	prometheus --config.file="$cfg" --storage.tsdb.path="$TMP/tsdb" \
		--web.listen-address="127.0.0.1:$pport" --log.level=warn >"$TMP/prometheus.log" 2>&1 &
	PIDS+=($!)
	q() { # q PROMQL: the first result's value
		curl -sG --max-time 5 "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1" |
			jq -r '.data.result[0].value[1] // empty' 2>/dev/null
	}
	for i in $(seq 300); do
		[ "$(q 'gputop_snapshots_total{job="gputop"}')" = "$LAST_SEQ" ] && break
		sleep 0.1
	done
	got=$(q 'up{job="gputop"}')
	[ "$got" = 1 ] && pass "prometheus scraped gputop-bpf (up = 1)" ||
		{ fail "prometheus: up = '$got' ($(tail -3 "$TMP/prometheus.log"))"; return; }
	# a counter
	want=$(jq -r '.tables["drm_sched.rings"][] | select(.name=="gfx_0.0.0") | .completed_total' <<<"$LAST")
	got=$(q 'gputop_drm_sched_rings_completed_total{ring="gfx_0.0.0"}')
	[ -n "$want" ] && [ "$got" = "$want" ] && pass "counter: gfx_0.0.0 completed_total $got, as recorded" ||
		fail "counter: gfx_0.0.0 completed_total: prometheus '$got', recording '$want'"
	# a gauge, in base units
	want=$(jq -r '.tables["display.crtcs"][0].refresh_hz' <<<"$LAST")
	got=$(q 'gputop_display_crtcs_refresh_hertz{crtc="0"}')
	awk -v a="$got" -v b="$want" 'BEGIN { exit !(b > 0 && (a - b) / b < 1e-12 && (b - a) / b < 1e-12) }' &&
		pass "gauge: CRTC 0 refresh $got Hz, as recorded" ||
		fail "gauge: CRTC 0 refresh: prometheus '$got', recording '$want'"
	# a collector's state
	want=$(jq -r '.collectors[] | select(.name=="drm_sched") | .state' <<<"$LAST")
	got=$(q 'gputop_collector_state{collector="drm_sched",state="'"$want"'"}')
	[ "$got" = 1 ] && pass "collector state: drm_sched $want" || fail "collector state: drm_sched '$want': $got"
	# a histogram quantile: inside the power-of-two bucket the recording's slots put the median in
	read -r lo hi < <(jq -r '.tables["drm_sched.rings"][] | select(.name=="gfx_0.0.0") | .exec_hist_total as $h |
		($h | map(.[1]) | add) as $n |
		[range(10; 41) | pow(2; .) as $le | {le: $le, below: ([$h[] | select(.[0] < $le) | .[1]] | add // 0)}] |
		[.[] | select(.below >= $n / 2)][0].le | "\(. / 2 / 1e9) \(. / 1e9)"' <<<"$LAST")
	got=$(q 'histogram_quantile(0.5, gputop_drm_sched_rings_exec_seconds_bucket{ring="gfx_0.0.0"})')
	want=$(jq -r '.tables["drm_sched.rings"][] | select(.name=="gfx_0.0.0") | .exec_ns_total.p50 / 1e9' <<<"$LAST")
	awk -v g="$got" -v w="$want" -v lo="$lo" -v hi="$hi" \
		'BEGIN { exit !(g != "" && g >= lo && g <= hi && w >= lo && w <= hi) }' &&
		pass "histogram_quantile(0.5, exec) = $got s, in [$lo, $hi] with the recorded p50 $want s" ||
		fail "histogram_quantile(0.5, exec) = '$got', expected in [$lo, $hi] (recorded p50 $want)"
	got=$(q 'gputop_drm_sched_rings_exec_seconds_count{ring="gfx_0.0.0"}')
	want=$(jq -r '.tables["drm_sched.rings"][] | select(.name=="gfx_0.0.0") | .exec_ns_total.count' <<<"$LAST")
	[ "$got" = "$want" ] && pass "histogram count: $got, as recorded" ||
		fail "histogram count: prometheus '$got', recording '$want'"
}

# --web-config: TLS and basic authentication in exporter-toolkit's format, with a certificate of
# our own and a bcrypt hash from htpasswd (the tool exporter-toolkit's documentation names).
make_secrets() {
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TMP/server.key" -out "$TMP/server.crt" \
		-days 2 -subj /CN=localhost -addext 'subjectAltName=IP:127.0.0.1' 2>/dev/null
	HASH=$(htpasswd -nbBC 10 "" 's3cr3t pass' | tr -d ':\n')
	cat >"$TMP/web.yml" <<EOF
# exporter-toolkit's web config: paths relative to this file
tls_server_config:
  cert_file: server.crt
  key_file: server.key
basic_auth_users:
  prometheus: $HASH
EOF
}

# start_with SCHEME BIN [ARGS]: serves the recording with ARGS; sets ADDR once it listens.
start_with() {
	local scheme=$1 bin=$2 i
	shift 2
	"$bin" --replay "$REC" --listen 127.0.0.1:0 -d 0.05 "$@" </dev/null >"$TMP/stdout" 2>"$TMP/stderr" &
	PIDS+=($!)
	SERVER=$!
	ADDR=
	for i in $(seq 100); do
		ADDR=$(grep -o "$scheme://[^/]*" "$TMP/stderr" | head -1 | sed "s|$scheme://||")
		[ -n "$ADDR" ] && break
		sleep 0.1
	done
}

stop_server() { # stop_server WHAT: SIGINT, exit 0, no sanitizer report
	local code
	kill -INT "$SERVER"
	wait "$SERVER"
	code=$?
	[ "$code" = 0 ] && pass "$1: SIGINT: exit 0" || fail "$1: SIGINT: exit $code"
	grep -q 'runtime error\|AddressSanitizer' "$TMP/stderr" &&
		fail "$1: sanitizer: $(grep -m1 'runtime error\|Sanitizer' "$TMP/stderr")"
}

# Prometheus over TLS with basic auth: the recording's counter comes back through its API.
prometheus_tls() {
	local pport cfg got want i
	printf 's3cr3t pass' >"$TMP/password"
	pport=$(free_port)
	cfg=$TMP/prometheus-tls.yml
	cat >"$cfg" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: gputop-tls
    scheme: https
    tls_config:
      ca_file: $TMP/server.crt
    basic_auth:
      username: prometheus
      password_file: $TMP/password
    static_configs:
      - targets: ['$ADDR']
EOF
	prometheus --config.file="$cfg" --storage.tsdb.path="$TMP/tsdb-tls" \
		--web.listen-address="127.0.0.1:$pport" --log.level=warn >"$TMP/prometheus-tls.log" 2>&1 &
	PIDS+=($!)
	want=$(jq -r '.tables["drm_sched.rings"][] | select(.name=="gfx_0.0.0") | .completed_total' <<<"$LAST")
	for i in $(seq 300); do
		got=$(curl -sG --max-time 5 "http://127.0.0.1:$pport/api/v1/query" \
			--data-urlencode 'query=gputop_drm_sched_rings_completed_total{job="gputop-tls",ring="gfx_0.0.0"}' |
			jq -r '.data.result[0].value[1] // empty' 2>/dev/null)
		[ -n "$got" ] && [ "$got" = "$want" ] && break
		sleep 0.1
	done
	[ -n "$got" ] && [ "$got" = "$want" ] &&
		pass "prometheus scraped over TLS with basic auth: completed_total $got, as recorded" ||
		fail "prometheus over TLS: '$got' for '$want' ($(tail -3 "$TMP/prometheus-tls.log"))"
}

# secured_checks BIN FIRST: who gets in, over what.
secured_checks() {
	local bin=$1 code code2 i ok="prometheus:s3cr3t pass" ca=(--cacert "$TMP/server.crt")
	start_with https "$bin" --web-config "$TMP/web.yml"
	[ -n "$ADDR" ] && pass "web-config: announces https://$ADDR/metrics" ||
		{ fail "web-config: no https address: $(head -3 "$TMP/stderr")"; return; }
	code=$(status_of "${ca[@]}" "https://$ADDR/metrics")
	[ "$code" = 401 ] && pass "web-config: no user: 401" || fail "web-config: no user: $code"
	curl -s -D "$TMP/401.hdr" -o /dev/null "${ca[@]}" "https://$ADDR/"
	grep -qi '^www-authenticate: basic realm="gputop-bpf"' "$TMP/401.hdr" &&
		pass "web-config: / asks for Basic authentication too (realm gputop-bpf)" ||
		fail "web-config: no WWW-Authenticate: $(head -3 "$TMP/401.hdr")"
	code=$(status_of "${ca[@]}" -u 'prometheus:wrong' "https://$ADDR/metrics")
	[ "$code" = 401 ] && pass "web-config: wrong password: 401" || fail "web-config: wrong password: $code"
	code=$(status_of "${ca[@]}" -u 'nobody:s3cr3t pass' "https://$ADDR/metrics")
	[ "$code" = 401 ] && pass "web-config: unknown user: 401" || fail "web-config: unknown user: $code"
	for i in $(seq 150); do
		curl -s "${ca[@]}" -u "$ok" "https://$ADDR/metrics" >"$TMP/s.txt"
		[ "$(value "$TMP/s.txt" gputop_snapshots_total)" = "$LAST_SEQ" ] && break
		sleep 0.1
	done
	[ "$(value "$TMP/s.txt" gputop_snapshots_total)" = "$LAST_SEQ" ] &&
		pass "web-config: the right password over TLS: the recording's last snapshot" ||
		fail "web-config: right password: $(head -c 200 "$TMP/s.txt")"
	code=$(curl -s -o "$TMP/plain" -w '%{http_code}' --max-time 5 "http://$ADDR/metrics")
	[ "$code" = 000 ] && ! grep -qs gputop "$TMP/plain" &&
		pass "web-config: plain HTTP to the TLS port: refused (no HTTP answer)" ||
		fail "web-config: plain HTTP answered $code"
	code=$(status_of "${ca[@]}" --tlsv1.3 -u "$ok" "https://$ADDR/metrics")
	code2=$(status_of "${ca[@]}" --tls-max 1.1 -u "$ok" "https://$ADDR/metrics")
	[ "$code" = 200 ] && [ "$code2" = 000 ] && pass "web-config: TLS 1.3 served, TLS 1.1 refused" ||
		fail "web-config: TLS 1.3 gave $code, TLS 1.1 gave $code2"
	[ "$2" = 1 ] && prometheus_tls
	stop_server "$bin: web-config"
}

# Bad web configs: exit 1 before serving, naming the file and what is wrong.
bad_web_configs() {
	local bin=$1 code
	bad() { # bad WHAT EXPECTED_TEXT: the config in $TMP/bad.yml is refused so
		"$bin" --replay "$REC" --listen 127.0.0.1:0 --web-config "$TMP/bad.yml" </dev/null \
			>/dev/null 2>"$TMP/bad.err"
		code=$?
		[ "$code" = 1 ] && grep -q -- "$2" "$TMP/bad.err" &&
			pass "web-config: $1: exit 1, '$(cat "$TMP/bad.err")'" ||
			fail "web-config: $1: exit $code, '$(cat "$TMP/bad.err")'"
	}
	printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_ca_file: ca.crt\n' >"$TMP/bad.yml"
	bad "a key it does not implement" "'client_ca_file' is not supported"
	printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: missing.key\n' >"$TMP/bad.yml"
	bad "a key file that is not there" "cannot read '$TMP/missing.key'"
	printf 'basic_auth_users:\n  prometheus: plaintext\n' >"$TMP/bad.yml"
	bad "a password that is no bcrypt hash" "needs a bcrypt hash"
	printf 'tls_server_config: [1, 2\n' >"$TMP/bad.yml"
	bad "not YAML" "not YAML"
	printf 'tls_server_config:\n  cert_file: server.key\n  key_file: server.crt\n' >"$TMP/bad.yml"
	bad "certificate and key swapped" "did not start"
	"$bin" --replay "$REC" --web-config "$TMP/web.yml" </dev/null >/dev/null 2>"$TMP/bad.err"
	code=$?
	[ "$code" = 2 ] && grep -q 'give --listen too' "$TMP/bad.err" && pass "--web-config without --listen: exit 2" ||
		fail "--web-config without --listen: exit $code, '$(cat "$TMP/bad.err")'"
}

# --metrics-private: no recorded process is this user's here, so no comm or container label at all.
private_checks() {
	local bin=$1
	grep -q 'comm="' "$TMP/m.txt" && pass "without --metrics-private: comm labels ($(grep -c 'comm="' "$TMP/m.txt") samples)" ||
		fail "without --metrics-private: no comm label"
	start_with http "$bin" --metrics-private
	wait_last || { fail "--metrics-private: never served seq $LAST_SEQ"; return; }
	! grep -q 'comm="\|container="' "$TMP/m.txt" && grep -q 'pid="' "$TMP/m.txt" &&
		pass "--metrics-private: other users' comm and container labels left out, pids kept" ||
		fail "--metrics-private: $(grep -m1 'comm="\|container="' "$TMP/m.txt")"
	promtool check metrics <"$TMP/m.txt" >/dev/null 2>&1 && pass "--metrics-private: promtool clean" ||
		fail "--metrics-private: promtool: $(promtool check metrics <"$TMP/m.txt" 2>&1 | head -2)"
	stop_server "$bin: --metrics-private"
}

if command -v openssl >/dev/null && command -v htpasswd >/dev/null; then
	make_secrets
else
	fail "openssl and htpasswd (apache2-utils) are needed for the TLS checks: run 'make deps'"
fi

first=1
for bin in "$@"; do
	echo "== $bin"
	start "$bin"
	if [ -z "$ADDR" ]; then
		fail "$bin: no address announced: $(head -3 "$TMP/stderr")"
		continue
	fi
	if wait_last; then
		pass "$bin: serves the recording's last snapshot (seq $LAST_SEQ) at $ADDR"
	else
		fail "$bin: never served seq $LAST_SEQ"
		continue
	fi
	[ "$first" = 1 ] && prometheus_checks
	bad_requests "$bin"
	stop_server "$bin"
	private_checks "$bin"
	if [ -f "$TMP/web.yml" ]; then
		secured_checks "$bin" "$first"
		bad_web_configs "$bin"
	fi
	first=0
done
# a port already taken: a clear error naming the fix, before anything else
start "$1"
taken=$ADDR
"$1" --replay "$REC" --listen "$taken" </dev/null >/dev/null 2>"$TMP/err2"
code=$?
[ "$code" = 1 ] && grep -q 'port is in use' "$TMP/err2" && pass "a port in use: exit 1, '$(cat "$TMP/err2")'" ||
	fail "a port in use: exit $code, '$(cat "$TMP/err2")'"
# a bad value is a bad command line: exit 2 and the --help line, as every usage error
for spec in 127.0.0.1:99999 99999 abc ""; do
	"$1" --replay "$REC" --listen "$spec" </dev/null >/dev/null 2>"$TMP/err3"
	code=$?
	[ "$code" = 2 ] && grep -q 'expected \[ADDRESS:\]PORT' "$TMP/err3" && grep -q "^Try 'gputop-bpf --help'" "$TMP/err3" &&
		pass "a bad --listen '$spec': exit 2 with the --help line" ||
		fail "a bad --listen '$spec': exit $code, '$(cat "$TMP/err3")'"
done
finish
