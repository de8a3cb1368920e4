#!/usr/bin/env bash
# GPU time's cost, on a launch-bound loop (tests/gpu/launch_loop.py, rounds of 3 x 20,000 adds) or the
# training loop (WORK=train: tests/gpu/train_cost.py, rounds of 3 x 40 steps), best pass per round, odd
# and even rounds interleaved within one process, so that the spread between processes does not hide it:
#  profiler: without the library, even rounds under torch.profiler (CUDA activity);
#  floor:    the library's test build (FLOOR_LIB) asked through its file in even rounds: CUPTI's floor
#            (the activity kinds on, records read and handed to probe functions nothing probes);
#  on:       the product library (LIB) with gputop-bpf running in even rounds (MONARGS: more options);
# and, across processes (one round each, PAIRS pairs): without the library against with it, dormant.
# PARTS: which (default "dormant profiler floor on"). Prints per part each round's rate and the ratio
# of each even round to the odd one before it, and their median.
# Usage: [PIN=FIRST-LAST] [ROUNDS=N] [PAIRS=N] [WORK=train] [PARTS=...] [MONARGS=...]
#        tests/gpu/gpu-time-cost.sh BINARY LIB FLOOR_LIB OUTDIR   (root, a GPU, PyTorch; not in make test)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=$(readlink -f "$1") LIB=$(readlink -f "$2") FLOOR=$(readlink -f "$3") OUT=$4
PY=${PYTHON:-python3}
ROUNDS=${ROUNDS:-10}
PAIRS=${PAIRS:-3}
PARTS=${PARTS:-dormant profiler floor on}
LOOP=$HERE/launch_loop.py
[ "${WORK:-}" = train ] && LOOP=$HERE/train_cost.py
# PIN=FIRST-LAST: the loop on those CPUs alone (taskset), the monitor on the others: the host moves it less
MONCPUS=
in_pin() { [ "$1" -ge "${PIN%-*}" ] && [ "$1" -le "${PIN#*-}" ]; }
if [ -n "${PIN:-}" ]; then
	MONCPUS=$(for c in $(seq 0 $(($(nproc) - 1))); do in_pin "$c" || printf '%s,' "$c"; done | sed 's/,$//')
	echo "the loop on CPUs $PIN, the monitor on $MONCPUS"
fi
PINNED=()
[ -n "$MONCPUS" ] && PINNED=(taskset -c "$PIN")
# (exec: run with &, the monitor itself is $!, and gets the SIGINT that stops it)
monitor() { if [ -n "$MONCPUS" ]; then exec taskset -c "$MONCPUS" "$BIN" "$@"; else exec "$BIN" "$@"; fi; }
mkdir -p "$OUT"
[ -e /dev/nvidiactl ] || { echo "SKIP: no NVIDIA GPU"; exit 0; }

# rounds NAME EVEN_ON EVEN_OFF [VAR=VALUE...]: the loop in one process (with VAR=VALUE), ROUNDS rounds,
# EVEN_ON run (a command) before each even round and EVEN_OFF after it; its lines in OUT/NAME.jsonl.
rounds() {
	local name=$1 on=$2 off=$3 w k
	shift 3
	rm -f "$OUT/$name".g.*
	env "$@" ${PINNED[@]+"${PINNED[@]}"} "$PY" "$LOOP" "$OUT/$name.g" "$ROUNDS" >"$OUT/$name.jsonl" \
		2>"$OUT/$name.err" &
	w=$!
	for k in $(seq "$ROUNDS"); do
		[ $((k % 2)) = 0 ] && $on
		touch "$OUT/$name.g.$k"
		local t=$SECONDS
		until [ "$(wc -l <"$OUT/$name.jsonl")" -ge "$k" ] || ! kill -0 $w 2>/dev/null; do
			sleep 0.05
			[ $((SECONDS - t)) -lt "${STUCK_S:-60}" ] && continue
			stuck "$name round $k" $w
			kill -9 $w
			break
		done
		[ $((k % 2)) = 0 ] && $off
	done
	wait $w
}
# stuck WHAT PID: a round that does not end: its threads' states and stacks, to OUT/stuck.txt
stuck() {
	echo "STUCK: $1 (pid $2): its threads' states and stacks in stuck.txt"
	{
		echo "== $1"
		for t in /proc/$2/task/*; do
			echo "-- $(cat "$t/comm") $(awk '{ print $3 }' "$t/stat") $(cat "$t/wchan")"
			cat "$t/stack" 2>/dev/null | head -8
		done
		command -v gdb >/dev/null && timeout 60 gdb -p "$2" -batch -ex 'thread apply all bt 30' 2>&1 | grep -v '^\[' | head -300
		command -v py-spy >/dev/null && timeout 30 py-spy dump --native --pid "$2" 2>&1 | head -200
	} >>"$OUT/stuck.txt"
}
nothing() { :; }
ask() { echo 1 >"$OUT/ask"; sleep 0.5; } # the library's poll (100 ms), and CUPTI's start
unask() { echo 0 >"$OUT/ask"; }
M=
mon_start() {
	local t0=$SECONDS
	# shellcheck disable=SC2086 # MONARGS: options, word-split
	monitor -b -J -d 1 ${MONARGS:-} >"$OUT/mon.jsonl" 2>"$OUT/mon.err" &
	M=$!
	until [ -s "$OUT/mon.jsonl" ]; do sleep 0.05; done
	sleep 1.5 # its rescan, the library's poll
	echo "  a monitor started in $((SECONDS - t0)) s"
}
mon_stop() {
	local t0=$SECONDS
	kill -INT $M
	wait $M
	echo "  it stopped in $((SECONDS - t0)) s (exit $?)"
	M=
	sleep 0.5
}

for part in $PARTS; do
	echo "== $part"
	case $part in
	profiler) rounds profiler nothing nothing PROFILE_EVEN=1 ;;
	floor) unask && rounds floor ask unask CUDA_INJECTION64_PATH="$FLOOR" GPUTOP_TEST_CUPTI_ASK="$OUT/ask" ;;
	on) rounds on mon_start mon_stop CUDA_INJECTION64_PATH="$LIB" ;;
	dormant)
		: >"$OUT/dormant.jsonl"
		for _ in $(seq "$PAIRS"); do
			for lib in "" "$LIB"; do
				rm -f "$OUT"/d.g.*
				touch "$OUT/d.g.1"
				env ${lib:+CUDA_INJECTION64_PATH=$lib} ${PINNED[@]+"${PINNED[@]}"} "$PY" "$LOOP" "$OUT/d.g" 1 \
					>>"$OUT/dormant.jsonl" 2>>"$OUT/dormant.err"
			done
		done
		;;
	esac
	"$PY" - "$OUT/$part.jsonl" "$part" <<'PYEOF' | tee -a "$OUT/summary.txt"
import json, statistics, sys
r = [json.loads(l)["launches_per_s"] for l in open(sys.argv[1])]
odd, even = r[0::2], r[1::2]
pairs = [e / o for o, e in zip(odd, even)]
what = {"dormant": ("without the library", "with it, dormant"), "profiler": ("plain", "torch.profiler"),
        "floor": ("dormant", "floor (CUPTI on, records discarded)"), "on": ("dormant", "gputop-bpf on")}[sys.argv[2]]
print(sys.argv[2], what[0], "per s", [round(x) for x in odd], "|", what[1], [round(x) for x in even])
if pairs:
    print(sys.argv[2], "ratio per pair", [round(x, 3) for x in pairs], "median", round(statistics.median(pairs), 3))
PYEOF
done
cat "$OUT"/*.err 2>/dev/null | grep -v '^gputop-cupti: GPU time from' | head -20
