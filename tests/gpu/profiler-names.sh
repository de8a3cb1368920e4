#!/usr/bin/env bash
# GPU kernel names and launches per name: the monitor's nvidia.kernels against torch.profiler
# (CUPTI) for the same PyTorch loop (tests/gpu/profiler_names.py). Every name the profiler saw
# must be the monitor's (kept whole up to 4095 bytes; one cut there ends "...[cut, kernel 0x...]" and
# matches the profiler's that starts with its kept part, its handles' rows summed), with the same
# launches.
#   tests/gpu/profiler-names.sh BINARY OUTDIR   (root, an NVIDIA GPU, PyTorch)
set -u
SUITE="profiler names"
. "$(dirname "$0")/../lib.sh"
BIN=$(readlink -f "$1")
OUT=$2
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
"$BIN" -b -J -d 0.5 -o "$OUT/monitor.jsonl" 2>"$OUT/monitor.err" &
MON=$!
for _ in $(seq 100); do [ -s "$OUT/monitor.jsonl" ] && break; sleep 0.1; done
(cd "$HERE" && python3 profiler_names.py 100 "$OUT/profiler.json") >"$OUT/workload.txt" 2>&1
kill -INT $MON
wait $MON
PID=$(head -1 "$OUT/workload.txt")
python3 - "$OUT/monitor.jsonl" "$OUT/profiler.json" "$PID" >"$OUT/compare.txt" <<'PY'
import json, re, sys
mon, prof, pid = sys.argv[1], json.load(open(sys.argv[2])), int(sys.argv[3])
CUT = re.compile(r"\.\.\.\[cut, kernel 0x[0-9a-f]+\]$")  # a name past 4095 bytes, cut: its kept part


def kept(k):
    return CUT.sub("", k)


def same(k, name):
    return k == name or (CUT.search(k) is not None and name.startswith(kept(k)))

seen = {}
for line in open(mon):
    for r in json.loads(line).get("tables", {}).get("nvidia.kernels", []):
        if r["pid"] == pid:
            seen[r["kernel"]] = max(seen.get(r["kernel"], 0), r["launches_total"])
bound = max((len(k.encode()) for k in seen), default=0)
print("monitor: %d names, %d launches; profiler: %d names, %d launches; longest monitor name %d bytes"
      % (len(seen), sum(seen.values()), len(prof), sum(prof.values()), bound))
for name, n in sorted(prof.items()):
    match = [k for k in seen if same(k, name)]
    got = sum(seen[k] for k in match)
    print("%s %d %d %s" % ("same" if match and got == n else "DIFF", n, got, name[:160]))
for k in seen:
    if not any(same(k, n) for n in prof):
        print("EXTRA %d %s" % (seen[k], k[:160]))
PY
cat "$OUT/compare.txt"
head -1 "$OUT/compare.txt" | grep -q "profiler: [1-9]" && pass "torch.profiler saw kernels" ||
	fail "torch.profiler saw no kernels ($(tail -3 "$OUT/workload.txt"))"
d=$(grep -c '^DIFF' "$OUT/compare.txt")
[ "$d" -eq 0 ] && pass "every profiler kernel name is the monitor's, launches equal" ||
	fail "$d profiler kernels differ in name or launches from the monitor's"
e=$(grep -c '^EXTRA' "$OUT/compare.txt")
[ "$e" -eq 0 ] && pass "the monitor names no kernel the profiler did not see" ||
	fail "the monitor names $e kernels the profiler did not see"
finish
