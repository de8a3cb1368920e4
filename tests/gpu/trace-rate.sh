#!/usr/bin/env bash
# --trace at the default refresh (-d 1) of a PyTorch launch loop as fast as the GPU's driver takes
# it (about 130,000 launches/s on an H100): a 10 s capture (--duration 10) while the loop runs
# 20 s; the monitor's stderr (what it wrote, anything lost before the writer or refused by it, the
# launches after its end), the loop's own count and rate, and the launches decoded from the file
# (tests/perfetto/calls.sh, with protoc). Not a test: the figures for the lead's comparison, in
# OUTDIR/summary.txt: written + left out after the end should be the loop's launches within the
# capture, with nothing lost.
#   tests/gpu/trace-rate.sh BINARY OUTDIR [REFRESH_S]   (root, an NVIDIA GPU, PyTorch)
set -u
BIN=$(readlink -f "$1")
OUT=$2
D=${3:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
# the loop: warmed up, then launches for SECONDS from GATE; prints its count and rate
cat >"$OUT/loop.py" <<'EOF'
import json, os, sys, time
import torch
gate, seconds = sys.argv[1], float(sys.argv[2])
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
torch.cuda.synchronize()
t = time.perf_counter() - t0
print(json.dumps({"launches": n, "seconds": t, "launches_per_s": n / t}), flush=True)
EOF
python3 "$OUT/loop.py" "$OUT/gate" 20 >"$OUT/loop.json" 2>"$OUT/loop.err" &
LOOP=$!
sleep 5 # CUDA up, the loop waiting at its gate
touch "$OUT/gate"
sleep 1 # the loop at full speed before the monitor starts
"$BIN" -b -J -d "$D" --duration 10 --trace "$OUT/rate.pftrace" -o "$OUT/monitor.jsonl" 2>"$OUT/monitor.err"
echo "monitor exit $?" >>"$OUT/monitor.err"
wait $LOOP
{
	echo "loop: $(cat "$OUT/loop.json")"
	cat "$OUT/monitor.err"
	ls -l "$OUT/rate.pftrace"
	if command -v protoc >/dev/null; then
		echo "launch instants decoded: $("$HERE/../perfetto/calls.sh" "$OUT/rate.pftrace" |
			awk -F'\t' '$1 == "launch" { n += $NF } END { print n + 0 }')"
	fi
} | tee "$OUT/summary.txt"
