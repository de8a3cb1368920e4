#!/usr/bin/env bash
# --trace at the default refresh (-d 1) of a PyTorch launch loop as fast as the GPU's driver takes
# it (about 130,000 launches/s on an H100): a 10 s capture (--duration 10) while the loop runs
# 20 s; the monitor's stderr (what it wrote, anything lost before the writer or refused by it, the
# launches after its end), the loop's own count and rate, and the launches decoded from the file
# (tests/perfetto/calls.sh, with protoc). Not a test: the figures for the lead's comparison, in
# OUTDIR/summary.txt: written + left out after the end should be the loop's launches within the
# capture, with nothing lost.
# LOOPS loops run side by side (each its own process and CUDA context; on one GPU an H200 takes about
# 110,000 launches/s from one), their counts summed.
# RATE paces each loop to that many launches/s (0: as fast as it goes). TRACE_ARGS in the environment
# are added to the monitor's (--trace-max-mb 256 ...).
#   tests/gpu/trace-rate.sh BINARY OUTDIR [REFRESH_S] [LOOPS] [RATE]   (root, an NVIDIA GPU, PyTorch)
set -u
BIN=$(readlink -f "$1")
OUT=$2
D=${3:-1}
LOOPS=${4:-1}
RATE=${5:-0}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
# the loop: warmed up, then launches for SECONDS from GATE; prints its count and rate
cat >"$OUT/loop.py" <<'EOF'
import json, os, sys, time
import torch
gate, seconds, rate = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
x = torch.zeros(16, device="cuda")
for _ in range(2000):
    x.add_(1)
torch.cuda.synchronize()
while not os.path.exists(gate):
    time.sleep(0.01)
n, t0 = 0, time.perf_counter()
while time.perf_counter() - t0 < seconds:
    for _ in range(1000):
        x.add_(1)
    n += 1000
    ahead = n / rate - (time.perf_counter() - t0) if rate else 0
    if ahead > 0:
        time.sleep(ahead)
torch.cuda.synchronize()
t = time.perf_counter() - t0
print(json.dumps({"launches": n, "seconds": t, "launches_per_s": n / t}), flush=True)
EOF
PIDS=()
for i in $(seq "$LOOPS"); do
	python3 "$OUT/loop.py" "$OUT/gate" 20 "$RATE" >"$OUT/loop$i.json" 2>"$OUT/loop$i.err" &
	PIDS+=($!)
done
sleep 5 # CUDA up, the loop waiting at its gate
touch "$OUT/gate"
sleep 1 # the loop at full speed before the monitor starts
# shellcheck disable=SC2086 # TRACE_ARGS: words
"$BIN" -b -J -d "$D" ${TRACE_ARGS:-} --duration 10 --trace "$OUT/rate.pftrace" -o "$OUT/monitor.jsonl" 2>"$OUT/monitor.err"
echo "monitor exit $?" >>"$OUT/monitor.err"
wait "${PIDS[@]}"
{
	for i in $(seq "$LOOPS"); do echo "loop $i: $(cat "$OUT/loop$i.json")"; done
	python3 -c 'import json, sys
r = [json.load(open(f)) for f in sys.argv[1:]]
print("loops: %d launches, %.0f launches/s together" % (sum(x["launches"] for x in r), sum(x["launches_per_s"] for x in r)))' "$OUT"/loop*.json
	cat "$OUT/monitor.err"
	ls -l "$OUT/rate.pftrace"
	if command -v protoc >/dev/null; then
		echo "launch instants decoded: $("$HERE/../perfetto/calls.sh" "$OUT/rate.pftrace" |
			awk -F'\t' '$1 == "launch" { n += $NF } END { print n + 0 }')"
	fi
} | tee "$OUT/summary.txt"
