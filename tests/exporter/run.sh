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
	first=0
	bad_requests "$bin"
	kill -INT "$SERVER"
	wait "$SERVER"
	code=$?
	[ "$code" = 0 ] && pass "$bin: SIGINT: exit 0" || fail "$bin: SIGINT: exit $code"
	grep -q 'runtime error\|AddressSanitizer' "$TMP/stderr" && fail "$bin: sanitizer: $(grep -m1 'runtime error\|Sanitizer' "$TMP/stderr")"
done
# a port already taken: a clear error naming the fix, before anything else
start "$1"
taken=$ADDR
"$1" --replay "$REC" --listen "$taken" </dev/null >/dev/null 2>"$TMP/err2"
code=$?
[ "$code" = 1 ] && grep -q 'port is in use' "$TMP/err2" && pass "a port in use: exit 1, '$(cat "$TMP/err2")'" ||
	fail "a port in use: exit $code, '$(cat "$TMP/err2")'"
"$1" --replay "$REC" --listen 127.0.0.1:99999 </dev/null >/dev/null 2>"$TMP/err3"
code=$?
[ "$code" = 1 ] && grep -q 'expected \[ADDRESS:\]PORT' "$TMP/err3" && pass "a bad --listen: exit 1" ||
	fail "a bad --listen: exit $code, '$(cat "$TMP/err3")'"
finish
