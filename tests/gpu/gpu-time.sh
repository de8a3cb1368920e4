#!/usr/bin/env bash
# The CUPTI companion library and the gpu_time collector on a real NVIDIA GPU with PyTorch (the
# device machine; not in make test): the program's own libcupti found, dormant without a monitor
# (nothing on stderr), woken by gputop-bpf, nvidia.gpu_time's counts of known kernels exact (and per name
# equal to torch.profiler's for one loop), the quantiles of spins and the launch-to-start time behind them, and a
# launch-bound loop's rate without the library, with it dormant and with the monitor on, in
# interleaved rounds; with FLOOR_LIB (the library's TEST_HOOKS=1 build) also CUPTI's floor: the same
# activity kinds enabled, the records read and passed to probe functions no monitor probes.
# Usage: tests/gpu/gpu-time.sh BINARY LIB OUTDIR   (root; skips loudly without a GPU or PyTorch)
set -u
SUITE="gpu time on the GPU"
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
BIN=$(readlink -f "$1")
LIB=$(readlink -f "$2")
OUT=$3
mkdir -p "$OUT"
PY=${PYTHON:-python3}
N=5000 S=20 CYCLES=1000000 ROUNDS=${ROUNDS:-3}
if [ "$(id -u)" != 0 ]; then skip "needs root"; finish; exit; fi
if [ ! -e /dev/nvidiactl ]; then skip "no NVIDIA GPU here (/dev/nvidiactl missing)"; finish; exit; fi
if ! "$PY" -c 'import torch, sys; sys.exit(not torch.cuda.is_available())' 2>/dev/null; then
	skip "no PyTorch with CUDA for $PY"; finish; exit
fi
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
"$PY" -c 'import torch; print("torch", torch.__version__, torch.version.cuda)'
find / -xdev -name 'libcupti.so*' 2>/dev/null | head -5
waitfor() { for _ in $(seq "$3"); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }

echo "== dormant: the library loaded, no monitor"
CUDA_INJECTION64_PATH=$LIB "$PY" "$HERE/gpu_time_workload.py" - $N $S $CYCLES >"$OUT/dormant.out" 2>"$OUT/dormant.err"
check "dormant: the workload ran (exit 0)" test $? = 0
check "dormant: the library said nothing (no CUPTI loaded by it)" test ! -s "$OUT/dormant.err"

echo "== woken by gputop-bpf: nvidia.gpu_time"
"$BIN" -b -J -d 0.5 >"$OUT/monitor.jsonl" 2>"$OUT/monitor.err" &
M=$!
sleep 1
rm -f "$OUT/gate" "$OUT/gate.done"
CUDA_INJECTION64_PATH=$LIB "$PY" "$HERE/gpu_time_workload.py" "$OUT/gate" $N $S $CYCLES >"$OUT/on.out" 2>"$OUT/on.err" &
W=$!
waitfor "$OUT/on.err" 'GPU time from CUPTI' 150
check "on: the library woke and said which libcupti: $(head -c 200 "$OUT/on.err")" grep -q 'GPU time from CUPTI' "$OUT/on.err"
touch "$OUT/gate"
waitfor "$OUT/on.out" '"pid"' 600
sleep 3 # the library's flush each second, then the monitor's reads
kill -INT $M
wait $M
check "on: the monitor exited 0" test $? = 0
touch "$OUT/gate.done"
wait $W
check "on: the workload ran (exit 0)" test $? = 0
"$PY" - "$OUT/monitor.jsonl" "$OUT/on.out" >"$OUT/rows.txt" <<'PYEOF'
import json, sys
snaps = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
w = [json.loads(l) for l in open(sys.argv[2])][-1]
rows = [r for r in snaps[-1]["tables"].get("nvidia.gpu_time", []) if r["pid"] == w["pid"]]
for r in sorted(rows, key=lambda r: -r["gpu_ns_total"]):
    print(r["kind"], r["cuda_device"], r["count_total"], r["gpu_ns_total"], r["mean_ns"], r.get("p50_ns"),
          r.get("p99_ns"), r["max_ns"], r["queue_mean_ns"], r.get("queue_p50_ns"), r.get("queue_p99_ns"),
          r["queue_max_ns"], r["kernel"][:100])
adds = sum(r["count_total"] for r in rows if "add" in r["kernel"].lower() and r["kind"] == "kernel")
spins = [r for r in rows if "spin_kernel" in r["kernel"]]
print("ADDS", adds, "want", w["adds"])
print("SPINS", sum(r["count_total"] for r in spins), "want", w["spins"],
      "mean_ns", spins[0]["mean_ns"] if spins else None, "wall_per_spin_ns", 1e9 * w["spin_wall_s"] / w["first_spins"])
# spins of one length: their p50 and p99 within 2 % or 5 us of their mean, and none past the max
sp = spins[0] if spins else None
print("SPIN_QUANTILES", sp is not None and all(abs(sp[q] - sp["mean_ns"]) <= max(5000, 0.02 * sp["mean_ns"])
                                               for q in ("p50_ns", "p99_ns")) and sp["p99_ns"] <= sp["max_ns"],
      "p50", sp and sp.get("p50_ns"), "p99", sp and sp.get("p99_ns"), "mean", sp and sp["mean_ns"])
# an exp queued behind two spins waits for what is left of them: their GPU time less the time from the
# first spin's launch to its own (the workload's clock, its median round: the first loads the exp's module);
# p50 within 5 % of that, and none waited longer than the two spins
exps = [r for r in rows if "exp" in r["kernel"] and r["kind"] == "kernel"]
e = exps[0] if len(exps) == 1 else None
gap = sorted(w["lat_launch_gaps_s"])[len(w["lat_launch_gaps_s"]) // 2]
left = 2 * sp["mean_ns"] - 1e9 * gap if sp else 0
print("LATENCY", e is not None and e["count_total"] == w["lat_rounds"] and e["queue_p50_ns"] is not None and
      abs(e["queue_p50_ns"] - left) <= 0.05 * left and e["queue_max_ns"] <= 2 * sp["max_ns"],
      "exp count", e and e["count_total"], "queue mean", e and e["queue_mean_ns"], "p50", e and e["queue_p50_ns"],
      "p99", e and e["queue_p99_ns"], "max", e and e["queue_max_ns"], "left of two spins", round(left),
      "launch gaps us", [round(1e6 * g) for g in w["lat_launch_gaps_s"]])
print("DROPS", [c["drops"] for c in snaps[-1]["collectors"] if c["name"] == "gpu_time"])
busy = [r for r in snaps[-1]["tables"].get("nvidia.gpu_busy", []) if r["pid"] == w["pid"]]
kern = sum(r["gpu_ns_total"] for r in rows if r["kind"] == "kernel")
print("BUSY", [(r["cuda_device"], r["kernel_ns_total"], r["copy_ns_total"], r["busy_ns_total"], r["disordered_total"])
               for r in busy], "kernels_in_gpu_time", kern)
print("KERNEL_NS_SAME", sum(r["kernel_ns_total"] for r in busy) == kern and len(busy) > 0)
PYEOF
cat "$OUT/rows.txt"
check "on: the adds counted exactly ($N)" grep -q "^ADDS $N want $N$" "$OUT/rows.txt"
check "on: the spins counted exactly ($S and 20 more)" grep -q "^SPINS $((S + 20)) want $((S + 20)) " "$OUT/rows.txt"
check "on: the spins' p50 and p99 within 2 % or 5 us of their mean ($(grep '^SPIN_Q' "$OUT/rows.txt"))" \
	grep -q "^SPIN_QUANTILES True " "$OUT/rows.txt"
check "on: an exp queued behind two spins: its launch-to-start p50 within 5 % of what was left of them ($(grep '^LATENCY' "$OUT/rows.txt"))" \
	grep -q "^LATENCY True " "$OUT/rows.txt"
check "on: nvidia.gpu_busy's kernel time the sum of nvidia.gpu_time's kernels ($(grep '^BUSY' "$OUT/rows.txt"))" \
	grep -qx "KERNEL_NS_SAME True" "$OUT/rows.txt"

echo "== a CUDA graph: its kernels counted as kernels"
"$BIN" -b -J -d 0.5 >"$OUT/graph.jsonl" 2>"$OUT/graph.err" &
M=$!
sleep 1
rm -f "$OUT/ggate" "$OUT/ggate.done"
CUDA_INJECTION64_PATH=$LIB "$PY" "$HERE/graph_workload.py" "$OUT/ggate" 50 100 >"$OUT/graph.out" 2>"$OUT/graph.cerr" &
W=$!
waitfor "$OUT/graph.cerr" 'GPU time from CUPTI' 150
waitfor "$OUT/graph.out" 'ready' 600
sleep 0.5 # the library's thread sees the semaphore within 100 ms and enables CUPTI
touch "$OUT/ggate"
waitfor "$OUT/graph.out" '"pid"' 600
sleep 3 # the library's flush each second, then the monitor's reads
kill -INT $M
wait $M
touch "$OUT/ggate.done"
wait $W
"$PY" - "$OUT/graph.jsonl" "$OUT/graph.out" >"$OUT/graph.txt" <<'PYEOF'
import json, sys
snaps = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
w = [json.loads(l) for l in open(sys.argv[2])][-1]
rows = [r for r in snaps[-1]["tables"].get("nvidia.gpu_time", []) if r["pid"] == w["pid"]]
adds = sum(r["count_total"] for r in rows if "add" in r["kernel"].lower() and r["kind"] == "kernel")
want = w["graph_adds"] * w["replays"] + w["warmup_adds"]
print("GRAPH_ADDS", adds, "want", want, "(%d replays of %d, %d outside)" % (w["replays"], w["graph_adds"], w["warmup_adds"]))
PYEOF
cat "$OUT/graph.txt"
check "graph: every replayed kernel counted in nvidia.gpu_time ($(head -1 "$OUT/graph.txt"))" \
	awk '$1 == "GRAPH_ADDS" && $2 == $4 { ok = 1 } END { exit !ok }' "$OUT/graph.txt"

echo "== kernels per name: torch.profiler's against nvidia.gpu_time's (the same loop, one after the other)"
"$PY" "$HERE/profiler_loop.py" profiler 20 >"$OUT/prof.json" 2>"$OUT/prof.err"
check "profiler: the loop ran under torch.profiler (exit 0)" test $? = 0
"$BIN" -b -J -d 0.5 >"$OUT/pl.jsonl" 2>"$OUT/pl.err" &
M=$!
sleep 1
rm -f "$OUT/pgate" "$OUT/pgate.done"
CUDA_INJECTION64_PATH=$LIB "$PY" "$HERE/profiler_loop.py" plain 20 "$OUT/pgate" >"$OUT/plain.out" 2>"$OUT/plain.err" &
W=$!
waitfor "$OUT/plain.err" 'GPU time from CUPTI' 150
waitfor "$OUT/plain.out" 'ready' 600
sleep 0.5
touch "$OUT/pgate"
waitfor "$OUT/plain.out" '"pid"' 600
sleep 3 # the library's flush each second, then the monitor's reads
kill -INT $M
wait $M
touch "$OUT/pgate.done"
wait $W
"$PY" - "$OUT/pl.jsonl" "$OUT/plain.out" "$OUT/prof.json" >"$OUT/per-name.txt" <<'PYEOF'
import collections, json, shutil, subprocess, sys
snaps = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
w = [json.loads(l) for l in open(sys.argv[2])][-1]
prof = json.loads(open(sys.argv[3]).read().strip().splitlines()[-1])["profiler"]
rows = [r for r in snaps[-1]["tables"].get("nvidia.gpu_time", []) if r["pid"] == w["pid"] and r["kind"] == "kernel"]
names = [r["kernel"] for r in rows]
if shutil.which("c++filt"):  # CUPTI's names are mangled, the profiler's demangled
    names = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout.split("\n")[:len(rows)]
ours = collections.Counter()
for n, r in zip(names, rows):
    ours[n] += r["count_total"]
print("TOTAL ours %d profiler %d; names ours %d profiler %d; demangler %s" % (sum(ours.values()), sum(prof.values()),
      len(ours), len(prof), shutil.which("c++filt")))
print("COUNTS_SAME", sorted(ours.values()) == sorted(prof.values()))
print("NAMES_SAME", dict(ours) == dict(prof))
for n in sorted(set(ours) | set(prof)):
    if ours.get(n) != prof.get(n):
        print("DIFF ours %s profiler %s %s" % (ours.get(n), prof.get(n), n[:160]))
for n, c in sorted(ours.items(), key=lambda kv: -kv[1])[:40]:
    print("ROW %d %s" % (c, n[:160]))
PYEOF
head -4 "$OUT/per-name.txt"
check "per name: each kernel's count in nvidia.gpu_time equals torch.profiler's ($(head -1 "$OUT/per-name.txt"))" \
	grep -qx "NAMES_SAME True" "$OUT/per-name.txt"

echo "== busy time: a GPU busy half the time (duty_workload.py), against its own clock and NVML's SM %"
"$BIN" -b -J -d 0.5 >"$OUT/busy.jsonl" 2>"$OUT/busy.err" &
M=$!
sleep 1
rm -f "$OUT/dgate"
CUDA_INJECTION64_PATH=$LIB "$PY" "$HERE/duty_workload.py" 6 "$OUT/dgate" >"$OUT/duty.json" 2>"$OUT/duty.err" &
W=$!
waitfor "$OUT/duty.err" 'GPU time from CUPTI' 300
sleep 0.5 # CUPTI enabled within 100 ms of that
touch "$OUT/dgate"
wait $W
sleep 2.5 # its last records (flushed at its exit), then the monitor's reads
kill -INT $M
wait $M
"$PY" - "$OUT/busy.jsonl" "$OUT/duty.json" >"$OUT/busy.txt" <<'PYEOF'
import json, sys
snaps = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
d = json.loads(open(sys.argv[2]).read().strip().splitlines()[-1])
rows = [r for s in snaps for r in s["tables"].get("nvidia.gpu_busy", []) if r["pid"] == d["pid"]]
last = max(rows, key=lambda r: r["busy_ns_total"]) if rows else None
wall = d["end"] - d["start"]
sm = [r["sm_pct"] for s in snaps if d["start"] <= s["timestamp"] <= d["end"] + 0.5
      for r in s["tables"].get("nvidia.gpu_processes", []) if r.get("pid") == d["pid"] and r.get("sm_pct") is not None]
pct = [r["busy_pct"] for s in snaps if d["start"] + 1 <= s["timestamp"] <= d["end"]
       for r in s["tables"].get("nvidia.gpu_busy", []) if r["pid"] == d["pid"] and r.get("busy_pct") is not None]
share = last["busy_ns_total"] / 1e9 / wall if last else -1
print("WALL_S %.3f ITS_BUSY_SHARE %.3f" % (wall, d["busy_share"]))
print("GPU_BUSY_SHARE %.3f kernel_s %.3f busy_s %.3f disordered %d" % (share, last["kernel_ns_total"] / 1e9,
      last["busy_ns_total"] / 1e9, last["disordered_total"]) if last else "GPU_BUSY_SHARE none")
print("BUSY_PCT_MEAN %.1f over %d snapshots; NVML_SM_PCT_MEAN %s over %d" % (sum(pct) / len(pct) if pct else -1, len(pct),
      "%.1f" % (sum(sm) / len(sm)) if sm else "none", len(sm)))
k = [r for s in snaps for r in s["tables"].get("nvidia.gpu_time", []) if r["pid"] == d["pid"] and r["kind"] == "kernel"]
gemm = max(k, key=lambda r: r["gpu_ns_total"]) if k else None
print("PRODUCT count %s want %d; mean_ns %s, by events %.0f" % (gemm["count_total"] if gemm else None, d["products"],
      "%.0f" % gemm["mean_ns"] if gemm else None, d["event_mean_ns"]))
print("DURATION", gemm is not None and gemm["count_total"] == d["products"] and
      abs(gemm["mean_ns"] - d["event_mean_ns"]) <= max(5000, 0.02 * d["event_mean_ns"]))
print("UNION", last is not None and last["busy_ns_total"] == last["kernel_ns_total"] + last["copy_ns_total"] and
      last["disordered_total"] == 0)
PYEOF
cat "$OUT/busy.txt"
check "busy: the products counted and their mean GPU time within 2 % or 5 us of CUDA events' ($(grep '^PRODUCT' "$OUT/busy.txt"))" \
	grep -qx "DURATION True" "$OUT/busy.txt"
check "busy: one stream, in order: its busy time its kernels' and copies' time, none disordered ($(grep '^GPU_BUSY' "$OUT/busy.txt"))" \
	grep -qx "UNION True" "$OUT/busy.txt"

echo "== cost: launches per second, interleaved rounds (none, library dormant, library and monitor on)"
# PIN=CPU or FIRST-LAST: each loop on those CPUs alone (the host moves a pinned loop less), the monitor on the others
loop_py() { if [ -n "${PIN:-}" ]; then taskset -c "$PIN" "$PY" "$@"; else "$PY" "$@"; fi; }
in_pin() { [ "$1" -ge "${PIN%-*}" ] && [ "$1" -le "${PIN#*-}" ]; }
OTHERS=$([ -n "${PIN:-}" ] && for c in $(seq 0 $(($(nproc) - 1))); do in_pin "$c" || printf '%s,' "$c"; done | sed 's/,$//')
cost_monitor() { if [ -n "${PIN:-}" ]; then taskset -c "$OTHERS" "$BIN" "$@"; else "$BIN" "$@"; fi; }
for r in $(seq "$ROUNDS"); do
	for mode in none dormant ${FLOOR_LIB:+floor} on; do
		rm -f "$OUT/cg.1" "$OUT/c.err"
		M=
		if [ "$mode" = on ]; then # the monitor only for these: it wakes every library it finds
			cost_monitor -b -J -d 1 >/dev/null 2>&1 &
			M=$!
		fi
		if [ "$mode" = none ]; then
			loop_py "$HERE/launch_loop.py" "$OUT/cg" 1 >"$OUT/c.out" 2>"$OUT/c.err" &
		elif [ "$mode" = floor ]; then # the test build, asked through its file: no uprobe anywhere
			echo 1 >"$OUT/ask"
			CUDA_INJECTION64_PATH=$(readlink -f "$FLOOR_LIB") GPUTOP_TEST_CUPTI_ASK=$OUT/ask \
				loop_py "$HERE/launch_loop.py" "$OUT/cg" 1 >"$OUT/c.out" 2>"$OUT/c.err" &
		else
			CUDA_INJECTION64_PATH=$LIB loop_py "$HERE/launch_loop.py" "$OUT/cg" 1 >"$OUT/c.out" 2>"$OUT/c.err" &
		fi
		W=$!
		case $mode in on | floor) waitfor "$OUT/c.err" 'GPU time from CUPTI' 150 ;; esac
		touch "$OUT/cg.1"
		wait $W
		[ -n "$M" ] && kill -INT $M && wait $M
		echo "round $r $mode $(cat "$OUT/c.out") $(head -c 120 "$OUT/c.err")" | tee -a "$OUT/cost.txt"
	done
done
finish
