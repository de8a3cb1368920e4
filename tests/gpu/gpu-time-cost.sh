#!/usr/bin/env bash
# The CUPTI library's cost on a launch-bound loop, within one process (tests/gpu/launch_loop.py, ROUNDS
# rounds of 3 x 20,000 adds, best pass per round), so that the spread between processes does not hide it:
#  1. the library's test build (FLOOR_LIB), asked through its file in even rounds: CUPTI's floor (the
#     activity kinds on, records read and handed to probe functions nothing probes) against dormant;
#  2. the product library (LIB) with gputop-bpf running in even rounds: on against dormant.
# SKIP_FLOOR=1: the second part only. MONARGS: more options for the monitor (word-split): "--stacks -" measures launch stacks and the GPU
# time join (CUPTI's launch callbacks, a second uprobe a launch) on top.
# Usage: [PIN=CPU] [ROUNDS=N] [MONARGS=...] tests/gpu/gpu-time-cost.sh BINARY LIB FLOOR_LIB OUTDIR   (root, a
# GPU, PyTorch; not in make test)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=$(readlink -f "$1") LIB=$(readlink -f "$2") FLOOR=$(readlink -f "$3") OUT=$4
PY=${PYTHON:-python3}
ROUNDS=${ROUNDS:-10}
# PIN=CPU or FIRST-LAST: the loop on those CPUs alone (taskset), the monitor on the others: the host moves it less
MONCPUS=
in_pin() { [ "$1" -ge "${PIN%-*}" ] && [ "$1" -le "${PIN#*-}" ]; }
if [ -n "${PIN:-}" ]; then
	MONCPUS=$(for c in $(seq 0 $(($(nproc) - 1))); do in_pin "$c" || printf '%s,' "$c"; done | sed 's/,$//')
	echo "the loop on CPUs $PIN, the monitor on $MONCPUS"
fi
py() { if [ -n "$MONCPUS" ]; then taskset -c "$PIN" "$PY" "$@"; else "$PY" "$@"; fi; }
monitor() { if [ -n "$MONCPUS" ]; then taskset -c "$MONCPUS" "$BIN" "$@"; else "$BIN" "$@"; fi; }
mkdir -p "$OUT"
[ -e /dev/nvidiactl ] || { echo "SKIP: no NVIDIA GPU"; exit 0; }

if [ -z "${SKIP_FLOOR:-}" ]; then
	echo "== floor against dormant, one process"
	rm -f "$OUT"/f.* && echo 0 >"$OUT/ask"
	CUDA_INJECTION64_PATH=$FLOOR GPUTOP_TEST_CUPTI_ASK=$OUT/ask py "$HERE/launch_loop.py" "$OUT/f" "$ROUNDS" \
		>"$OUT/floor.jsonl" 2>"$OUT/floor.err" &
	W=$!
	for k in $(seq "$ROUNDS"); do
		echo $(((k + 1) % 2)) >"$OUT/ask" # even rounds asked
		sleep 0.5 # the library's poll (100 ms), and CUPTI's start
		touch "$OUT/f.$k"
		until [ "$(wc -l <"$OUT/floor.jsonl")" -ge "$k" ] || ! kill -0 $W 2>/dev/null; do sleep 0.05; done
	done
	wait $W
else
	: >"$OUT/floor.jsonl" >"$OUT/floor.err"
fi

echo "== gputop-bpf on against dormant, one process"
rm -f "$OUT"/o.*
CUDA_INJECTION64_PATH=$LIB py "$HERE/launch_loop.py" "$OUT/o" "$ROUNDS" >"$OUT/on.jsonl" 2>"$OUT/on.err" &
W=$!
M=
for k in $(seq "$ROUNDS"); do
	if [ $((k % 2)) = 0 ]; then
		# shellcheck disable=SC2086 # MONARGS: options, word-split
		monitor -b -J -d 1 ${MONARGS:-} >"$OUT/mon.$k" 2>"$OUT/mon.$k.err" &
		M=$!
		until [ -s "$OUT/mon.$k" ]; do sleep 0.05; done
		sleep 1.5 # its rescan (4 intervals at most... found at its start here), the library's poll
	fi
	touch "$OUT/o.$k"
	until [ "$(wc -l <"$OUT/on.jsonl")" -ge "$k" ] || ! kill -0 $W 2>/dev/null; do sleep 0.05; done
	if [ -n "$M" ]; then kill -INT $M; wait $M; M=; sleep 0.5; fi
done
wait $W
"$PY" - "$OUT/floor.jsonl" "$OUT/on.jsonl" <<'PYEOF' | tee "$OUT/summary.txt"
import json, statistics, sys
for name, path in (("floor", sys.argv[1]), ("on", sys.argv[2])):
    r = [json.loads(l)["launches_per_s"] for l in open(path)]
    if not r:
        continue
    dormant, asked = r[0::2], r[1::2]
    pairs = [a / d for d, a in zip(dormant, asked)]
    print(name, "dormant k/s", [round(x / 1e3, 1) for x in dormant], "asked k/s", [round(x / 1e3, 1) for x in asked])
    print(name, "asked/dormant per pair", [round(x, 3) for x in pairs], "median", round(statistics.median(pairs), 3))
PYEOF
cat "$OUT/floor.err" "$OUT/on.err"
