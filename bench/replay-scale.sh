#!/usr/bin/env bash
# Replay at scale (not a test): a recording of R rings and P processes, made from the example
# recordings' rows: each process on one ring, one DRM client, one NVIDIA GPU (of R / 100, also the
# DRM devices) and one KFD device, with a row in every table a derived table reads (the scheduler's,
# fdinfo's, NVML's, the CUDA uprobes', the calls collector's, the KFD's), one in ten named by the calls
# collector alone. Timed: the reader and the derived tables alone per snapshot (read_bench, built beside
# BINARY: make build/default/read_bench), the replay in batch (time per snapshot: reading, deriving
# and printing) and on a pseudo-terminal (key to screen while it plays: bench/replay-keys.py).
#   bench/replay-scale.sh BINARY [RINGS] [PROCS] [SNAPSHOTS]      (python3, GNU time; make bench-replay)
# REPLAY_SCALE_TIME: a GNU time other than /usr/bin/time (-f "%e %M": seconds and peak RSS in KiB).
set -eu
BIN=$1 R=${2:-5000} P=${3:-50000} N=${4:-20}
[ "$N" -ge 5 ] || { echo "replay-scale.sh: at least 5 snapshots" >&2; exit 2; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
python3 "$(dirname "$0")/replay-scale.py" "$R" "$P" "$N" "$D/big.jsonl"
echo "recording: $(wc -c <"$D/big.jsonl") bytes, $N snapshots of $R rings and $P processes"
if [ -x "$(dirname "$BIN")/read_bench" ]; then
	"$(dirname "$BIN")/read_bench" "$D/big.jsonl"
else
	echo "reader: not measured ($(dirname "$BIN")/read_bench not built)"
fi
# The first snapshots grow the heap (two or three are alive at once: shown, read ahead, freed):
# timed apart from the steady state after them. Each time is the median of three runs.
took() { # took N FORMAT: seconds to replay N snapshots in batch, median of three; peak RSS of the last
	for _ in 1 2 3; do "${REPLAY_SCALE_TIME:-/usr/bin/time}" -f "%e %M" "$BIN" --replay "$D/big.jsonl" -b $2 -n "$1" 2>&1 >/dev/null; done |
		sort -n | sed -n 2p
}
for fmt in "" -J; do
	t1=$(took 1 "$fmt") t4=$(took 4 "$fmt") tn=$(took "$N" "$fmt")
	echo "batch ${fmt:-text}: first snapshot ${t1% *}s; 2-4: $(awk -v a="${t4% *}" -v o="${t1% *}" 'BEGIN { printf "%.0f", (a - o) / 3 * 1000 }') ms each; 5-$N: $(awk -v a="${tn% *}" -v o="${t4% *}" -v n="$N" 'BEGIN { printf "%.0f", (a - o) / (n - 4) * 1000 }') ms each; peak RSS ${tn#* } KiB"
done
if [ "$N" -ge 20 ]; then
	"$(dirname "$0")/replay-keys.py" "$BIN" "$D/big.jsonl"
else
	echo "keys: not measured (10 s of playing needs 20 snapshots, not $N)"
fi
