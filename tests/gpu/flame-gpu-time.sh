#!/usr/bin/env bash
# The README's GPU-time flame graph, and the join checked on a real GPU: an unmodified PyTorch
# training loop (tests/gpu/train_loop.py; Python frames through its perf map, python -X perf) run
# with the CUPTI companion library (CUDA_INJECTION64_PATH, installed where make install puts it)
# under gputop-bpf --stacks FILE --stacks-weight gpu-time, recorded (--record). Checked: the folded
# file's GPU time equals nvidia.gpu_time's kernel time of the process (every kernel joined), no join
# drop; the recording replayed gives the same lines and draws the SVG.
#   tests/gpu/flame-gpu-time.sh BINARY LIB OUTDIR [STEPS]   (root, an NVIDIA GPU, PyTorch)
set -u
BIN=$(readlink -f "$1")
OUT=$3
STEPS=${4:-300}
HERE=$(cd "$(dirname "$0")" && pwd)
PASS=0 FAIL=0
check() {
	local what=$1
	shift
	if "$@"; then PASS=$((PASS + 1)); echo "  ok   $what"; else FAIL=$((FAIL + 1)); echo "  FAIL $what"; fi
}
mkdir -p "$OUT" /usr/local/lib/gputop-bpf
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
LIB=/usr/local/lib/gputop-bpf/libgputop-cupti.so
cp "$2" "$LIB"
"$BIN" -b -J -d 0.5 --stacks "$OUT/gpu.folded" --stacks-weight gpu-time --record "$OUT/rec.jsonl" \
	>"$OUT/mon.jsonl" 2>"$OUT/mon.err" &
MON=$!
for _ in $(seq 100); do [ -s "$OUT/mon.jsonl" ] && break; sleep 0.1; done
sleep 1
CUDA_INJECTION64_PATH=$LIB python3 -X perf "$HERE/train_loop.py" "$STEPS" >"$OUT/train.txt" 2>&1 &
PID=$!
wait $PID
echo "workload: exit $?, $(cat "$OUT/train.txt" | tr '\n' ' ')"
sleep 1.5
kill -INT $MON
wait $MON
check "the monitor exited 0" test "$?" = 0
cat "$OUT/mon.err"
folded=$(awk '{ s += $NF } END { printf "%d", s }' "$OUT/gpu.folded")
table=$(jq -s --argjson pid "$PID" '[.[] | [.tables["nvidia.gpu_time"][]? | select(.pid == $pid and .kind == "kernel") |
	.gpu_ns_total] | add // 0] | max' "$OUT/mon.jsonl")
drops=$(jq -s -c '.[-1].collectors[] | select(.name == "nvidia") | .drops | with_entries(select(.key | startswith("gpu_time")))' \
	"$OUT/mon.jsonl")
echo "folded: $(wc -l <"$OUT/gpu.folded") lines, $folded ns; nvidia.gpu_time kernels of $PID: $table ns; join drops $drops"
check "every kernel's GPU time on a launch stack: the folded file's sum = nvidia.gpu_time's kernel time" \
	test "$folded" = "$table"
check "no join drop" jq -e -n --argjson d "$drops" '$d | length == 5 and all(.[]; . == 0)'
for fam in gemm softmax gammabeta elementwise; do
	l=$(awk -v f="$fam" 'BEGIN { IGNORECASE = 1 } { k = $0; sub(/ [0-9]+$/, "", k); n = split(k, fr, ";");
		if (tolower(fr[n]) ~ f) s += $NF } END { printf "%d", s }' "$OUT/gpu.folded")
	t=$(jq -s --argjson pid "$PID" --arg f "$fam" '[.[] | [.tables["nvidia.gpu_time"][]? | select(.pid == $pid and
		.kind == "kernel" and (.kernel | ascii_downcase | contains($f))) | .gpu_ns_total] | add // 0] | max' "$OUT/mon.jsonl")
	echo "  kernels named *$fam*: $l ns on stacks, $t ns in nvidia.gpu_time"
done
"$BIN" --replay "$OUT/rec.jsonl" --stacks "$OUT/replay.folded" --stacks-weight gpu-time -b >/dev/null 2>"$OUT/replay.err"
check "the recording replayed: the same folded lines" cmp <(sort "$OUT/gpu.folded") <(sort "$OUT/replay.folded")
"$BIN" --replay "$OUT/rec.jsonl" --stacks "$OUT/flame-gpu-time.svg" --stacks-weight gpu-time -b >/dev/null 2>>"$OUT/replay.err"
check "the SVG drawn from the recording" grep -q '</svg>' "$OUT/flame-gpu-time.svg"
echo "top stacks by GPU time:"
sort -t' ' -k2 -n -r "$OUT/gpu.folded" | awk '{ print $NF, $0 }' | sort -n -r | head -5 | cut -c1-400
echo "flame-gpu-time: $PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
