#!/usr/bin/env bash
# Replay at scale (not a test): a recording of R rings and P processes (each on one ring),
# made from the example recording's rows: the reader alone per snapshot (read_bench, built beside
# BINARY: make build/default/read_bench), replayed in batch (time per snapshot: reading and
# printing) and on a pseudo-terminal (key to screen while it plays: bench/replay-keys.py).
#   bench/replay-scale.sh BINARY [RINGS] [PROCS]      (python3)
set -eu
BIN=$1 R=${2:-5000} P=${3:-50000}
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
python3 - "$R" "$P" "$D/big.jsonl" <<'PY'
import json, sys
R, P, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
names = ("drm_sched.rings", "drm_sched.processes", "drm_sched.process_rings")
for line in open("examples/mockgpu-7.3.jsonl"):  # the first snapshot with a row of each
    s = json.loads(line)
    t = s["tables"]
    if all(t.get(n) for n in names):
        break
ring, proc, pr = t["drm_sched.rings"][0], t["drm_sched.processes"][0], t["drm_sched.process_rings"][0]
t["drm_sched.rings"] = [dict(ring, name=f"ring{i}", dev=f"0000:{i // 100:02x}:00.0") for i in range(R)]
t["drm_sched.processes"] = [dict(proc, pid=1000 + i, comm=f"proc{i}") for i in range(P)]
t["drm_sched.process_rings"] = [dict(pr, pid=1000 + i, name=f"ring{i % R}",
                                     dev=f"0000:{(i % R) // 100:02x}:00.0") for i in range(P)]
with open(out, "w") as f:
    for k in range(20):  # 10 s of playing at -d 0.5, for the keys
        s["seq"] = k + 1
        f.write(json.dumps(s, separators=(",", ":")) + "\n")
PY
echo "recording: $(wc -c <"$D/big.jsonl") bytes, 20 snapshots of $R rings and $P processes"
if [ -x "$(dirname "$BIN")/read_bench" ]; then
	"$(dirname "$BIN")/read_bench" "$D/big.jsonl"
else
	echo "reader: not measured ($(dirname "$BIN")/read_bench not built)"
fi
# The first snapshots grow the heap (two or three are alive at once: shown, read ahead, freed):
# timed apart from the steady state after them. Each time is the median of three runs.
took() { # took N FORMAT: seconds to replay N snapshots in batch, median of three; peak RSS of the last
	for _ in 1 2 3; do /usr/bin/time -f "%e %M" "$BIN" --replay "$D/big.jsonl" -b $2 -n "$1" 2>&1 >/dev/null; done |
		sort -n | sed -n 2p
}
for fmt in "" -J; do
	t1=$(took 1 "$fmt") t4=$(took 4 "$fmt") t20=$(took 20 "$fmt")
	echo "batch ${fmt:-text}: first snapshot ${t1% *}s; 2-4: $(awk -v a="${t4% *}" -v o="${t1% *}" 'BEGIN { printf "%.0f", (a - o) / 3 * 1000 }') ms each; 5-20: $(awk -v a="${t20% *}" -v o="${t4% *}" 'BEGIN { printf "%.0f", (a - o) / 16 * 1000 }') ms each; peak RSS ${t20#* } KiB"
done
"$(dirname "$0")/replay-keys.py" "$BIN" "$D/big.jsonl"
