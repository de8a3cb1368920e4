#!/usr/bin/env bash
# --trace of live CUDA launches through the stand-in libcuda (tests/cuda/fake_libcuda.c), as fast as
# this machine makes them (bench/launch_loop.c, built as CUDA_DIR/launch-loop):
#  rate:  at a slow refresh (-d 5), far more launches an interval than the capture's ring buffer
#         holds (2 MiB: about 21,800): every launch written, none lost, no "not written" line (the
#         buffer is drained as it fills, not at the ticks);
#  end:   --duration with a slow NVML read (the stand-in NVML, FAKE_NVML_READ_US) between the
#         nvidia collector's tick and the tick's end: the launches up to the end written (the last
#         within 10 ms of the last counter sample, none after it), those after it counted as left out;
#  empty: nothing to record (a replay whose recording has no table a trace takes): no file left,
#         exit 1, said so.
# Usage: tests/bpf/trace.sh CUDA_DIR BINARY   (root; skips loudly without it, or without protoc)
set -u
SUITE="trace tests"
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
needs_root_and_jq "--trace of live CUDA launches needs root (uprobes): run 'sudo make test-bpf'"
CUDA=$(cd "$1" && pwd)
BIN=$(readlink -f "$2")
RING_RECORDS=21800 # the nvidia collector's capture ring buffer, 2 MiB of 96-byte records
RATE_D=5 # seconds between ticks: at 4,800 launches/s and more, more than RING_RECORDS between two
TMP=$(mktemp -d)
LOOP=
cleanup() {
	[ -n "$LOOP" ] && kill "$LOOP" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
cp "$CUDA/libcuda.so.1" "$CUDA/launch-loop" "$TMP/"
[ -f "$CUDA/../nvml/libnvidia-ml.so.1" ] && mkdir -p "$TMP/nvml" && cp "$CUDA/../nvml/libnvidia-ml.so.1" "$TMP/nvml/"
chmod -R a+rX "$TMP"

# monitor DIR ENV ARGS...: the monitor in the background (its pid in MON), until its first snapshot
monitor() {
	local dir=$1 menv=$2
	shift 2
	mkdir -p "$dir"
	env $menv "$BIN" -b -J -o "$dir/mon" --libcuda "$TMP/libcuda.so.1" "$@" 2>"$dir/err" &
	MON=$!
	first_snapshot "$dir/mon"
}

# loop DIR N: N launches as fast as they go (in the background: LOOP), from now
loop() {
	LD_LIBRARY_PATH=$TMP "$TMP/launch-loop" "$2" "$1/gate" >"$1/ns" &
	LOOP=$!
	touch "$1/gate"
}

trace_rate() {
	local dir=$TMP/rate n=300000 rate
	monitor "$dir" "" -d $RATE_D --trace "$dir/t.pftrace"
	loop "$dir" $n
	wait $LOOP
	LOOP=
	sleep 0.3
	kill -INT $MON
	wait $MON
	rate=$(awk '{ printf "%.0f", 1e9 / $1 }' "$dir/ns")
	echo "       -d $RATE_D: $n launches at $rate launches/s ($(cat "$dir/ns") ns each)"
	sed 's/^/       /' "$dir/err"
	if [ $((rate * RATE_D)) -le $RING_RECORDS ]; then
		skip "rate: $rate launches/s fills no ring buffer in a $RATE_D s interval here (a loaded machine?)"
		return
	fi
	check "rate: every launch written at -d $RATE_D ($n at $rate/s), said so" \
		grep -qE "^gputop-bpf: trace '.*': .*, $n CUDA launches, 0 CUDA syncs written, [0-9]+ bytes$" "$dir/err"
	check "rate: nothing said lost or not written" bash -c "! grep -qE 'lost|not written' '$dir/err'"
}

# last_times TRACE: "LAST_COUNTER_NS LAST_LAUNCH_NS", the packets' timestamps (wall clock)
last_times() {
	(. "$HERE/../perfetto/decode.sh" && decode "$1" | flat) | awk -F'\t' '
	$2 == "timestamp" { ts[$1] = $3 }
	$2 == "track_descriptor.uuid" { tu = $3 }
	$2 == "track_descriptor.thread.tid" { thread[tu] = 1 }
	$2 == "track_event.type" { type[$1] = $3 }
	$2 == "track_event.track_uuid" { track[$1] = $3 }
	END { # nanoseconds compared as text (of one length): past the exact integers of a double
		for (p in type) {
			if (type[p] == "TYPE_COUNTER" && ts[p] "" > c "") c = ts[p]
			if (type[p] == "TYPE_INSTANT" && track[p] in thread && ts[p] "" > l "") l = ts[p]
		}
		print c, l
	}'
}

trace_end() {
	local dir=$TMP/end times gap cut
	if [ ! -f "$TMP/nvml/libnvidia-ml.so.1" ]; then
		skip "end: no stand-in NVML in $CUDA/../nvml (make test-bpf builds it): no counters to end on"
		return
	fi
	if ! command -v protoc >/dev/null; then
		skip "end: protoc is missing: the trace is not decoded ('make deps')"
		return
	fi
	monitor "$dir" "LD_LIBRARY_PATH=$TMP/nvml FAKE_NVML_READ_US=50000" -d 0.5 --duration 2 --trace "$dir/t.pftrace"
	loop "$dir" 100000000000 # until killed
	wait $MON
	kill $LOOP
	LOOP=
	sed 's/^/       /' "$dir/err"
	read -r end last <<<"$(last_times "$dir/t.pftrace")"
	gap=$(((end - last) / 1000000))
	echo "       the last counter sample (the end) at $end ns, the last launch $gap ms before it"
	check "end: no launch after the end (the last counter sample)" test "$last" -le "$end"
	check "end: the launches up to the end written: the last within 10 ms of it ($gap ms)" test "$gap" -lt 10
	cut=$(sed -n "s/^gputop-bpf: trace '.*': \([0-9]*\) events after its end (--duration) left out$/\1/p" "$dir/err")
	check "end: the launches after the end counted as left out (${cut:-none})" test "${cut:-0}" -gt 0
	# read while the loop launched at full rate: a snapshot's three tables count the same launches
	local sums
	sums=$(jq -s -c '[.[] | (.tables["nvidia.process_gpus"] // []) as $g | (.tables["nvidia.kernels"] // []) as $k |
		.tables["nvidia.processes"][]? | .pid as $p |
		[.launches_total, ([$g[] | select(.pid == $p) | .launches_total] | add), ([$k[] | select(.pid == $p) | .launches_total] | add)]]' "$dir/mon")
	check "end: each snapshot's launches per process equal in nvidia.processes, process_gpus and kernels ($sums)" \
		jq -e 'length >= 3 and ([.[][0]] | unique | length) >= 3 and all(.[]; .[0] == .[1] and .[0] == .[2])' <<<"$sums"
}

trace_empty() {
	local dir=$TMP/empty rc
	mkdir -p "$dir"
	printf '%s\n' "$(jq -c '.tables = {}' <(head -n 1 "$HERE/../../examples/mockgpu-7.3.jsonl"))" >"$dir/rec.jsonl"
	"$BIN" --replay "$dir/rec.jsonl" --trace "$dir/t.pftrace" 2>"$dir/err"
	rc=$?
	sed 's/^/       /' "$dir/err"
	check "empty: exit 1 ($rc)" test "$rc" = 1
	check "empty: no file left" test ! -e "$dir/t.pftrace"
	check "empty: said so" grep -q "^gputop-bpf: trace '.*': nothing to record" "$dir/err"
}

trace_rate
trace_end
trace_empty
finish
