#!/usr/bin/env bash
# The stacks tables and the blocked weights on a PyTorch loop (tests/gpu/flame_workload.py,
# Python frames through python -X perf): (1) a recording (-J -o) with --stacks - (the tables
# only), whose last nvidia.stacks rows of the workload add up to its launches in
# nvidia.processes; (2) --stacks-weight syncs and sync-time files, whose lines add up to its
# syncs and sync time there, each line from _start through the Python frames to the sync (the
# DWARF unwind of its copied stack). Prints what it found; the recording is OUTDIR/stacks.jsonl. The
# workload lives 1.5 s past its one sync (before the stack copies were read as they come, a
# process was seen at the interval after its first sync: one gone by then had "?;[unknown]").
#   tests/gpu/stacks-tables.sh BINARY OUTDIR   (root, an NVIDIA GPU, PyTorch)
set -u
SUITE="stacks tables (GPU)"
. "$(dirname "$0")/../lib.sh"
BIN=$(readlink -f "$1")
OUT=$2
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
# run NAME ARGS...: the workload under a monitor with ARGS; its snapshots in OUT/NAME.jsonl
run() {
	local name=$1
	shift
	"$BIN" -b -J -d 1 "$@" -o "$OUT/$name.jsonl" 2>"$OUT/$name.err" &
	local mon=$!
	for _ in $(seq 100); do [ -s "$OUT/$name.jsonl" ] && break; sleep 0.1; done
	python3 -X perf "$HERE/flame_workload.py" 200 1.5 >"$OUT/$name.workload" 2>&1 &
	local wl=$!
	echo "$wl" >"$OUT/$name.pid"
	wait $wl
	sleep 1.5 # two snapshots after its last launch and sync, with its lingering
	kill -INT $mon
	wait $mon
	echo "$name: monitor exit $?: $(tail -2 "$OUT/$name.err" | tr '\n' ' ')"
}
run stacks --stacks -
run syncs --stacks "$OUT/syncs.folded" --stacks-weight syncs
run sync-time --stacks "$OUT/sync-time.folded" --stacks-weight sync-time
python3 - "$OUT" >"$OUT/compare.txt" <<'PY'
import json, sys
out = sys.argv[1]
def last(name, pid):
    rows, procs = [], None
    for line in open("%s/%s.jsonl" % (out, name)):
        t = json.loads(line).get("tables", {})
        r = [x for x in t.get("nvidia.stacks", []) if x["pid"] == pid]
        p = [x for x in t.get("nvidia.processes", []) if x["pid"] == pid]
        if r:
            rows = r
        if p:
            procs = p[0]
    return rows, procs
pid = int(open(out + "/stacks.pid").read())
rows, procs = last("stacks", pid)
print("stacks: %d rows, %d launches in them; nvidia.processes launches_total %s; sampled %r"
      % (len(rows), sum(r["count"] for r in rows), procs and procs["launches_total"],
         sorted({r["sampled"] for r in rows})))
for r in sorted(rows, key=lambda r: -r["count"])[:3]:
    print("  %6d %s ... %s | %s" % (r["count"], r["frames"][:60], r["frames"][-90:], r["leaf"][:60]))
for name, col in (("syncs", "syncs_total"), ("sync-time", "sync_ns_total")):
    pid = int(open("%s/%s.pid" % (out, name)).read())
    _, procs = last(name, pid)
    lines = [l.rsplit(" ", 1) for l in open("%s/%s.folded" % (out, name)) if l.startswith("python3;")]
    print("%s: %d lines for python3, %d in them; nvidia.processes %s %s"
          % (name, len(lines), sum(int(w) for _, w in lines), col, procs and procs[col]))
    for s, w in sorted(lines, key=lambda x: -int(x[1]))[:2]:
        print("  %s ... %s" % (w.strip(), s[-120:]))
PY
cat "$OUT/compare.txt"
read -r _ rows _ n _ _ _ _ _ total _ <<<"$(head -1 "$OUT/compare.txt" | tr -d ',;')"
[ "${rows:-0}" -gt 0 ] && [ "$n" = "$total" ] && pass "nvidia.stacks: the workload's rows add up to its launches ($n of $total)" ||
	fail "nvidia.stacks: the workload's rows add up to $n launches against $total"
for name in syncs sync-time; do
	l=$(grep "^$name:" "$OUT/compare.txt")
	got=$(sed 's/.* for python3, \([0-9]*\) in them.*/\1/' <<<"$l")
	want=$(awk '{ print $NF }' <<<"$l")
	[ "${got:-0}" -gt 0 ] && [ "$got" = "$want" ] && pass "$name: the workload's lines add up to nvidia.processes ($got)" ||
		fail "$name: the workload's lines add up to $got against $want"
done
# the sync's stack, copied at cuCtxSynchronize's entry and unwound with DWARF: from _start through
# the Python frames (-X perf) and libtorch to the runtime's call, every line of the workload
for name in syncs sync-time; do
	grep '^python3;' "$OUT/$name.folded" >"$OUT/$name.python3"
	[ -s "$OUT/$name.python3" ] && ! grep -qv '^python3;\(\[DWARF[^]]*\];\)\?_start;.*;py::main:[^;]*flame_workload.py;.*c10::cuda::device_synchronize();cudaDeviceSynchronize;' "$OUT/$name.python3" &&
		pass "$name: every line from _start through py::main to cudaDeviceSynchronize (DWARF)" ||
		fail "$name: a line short of _start, py::main or cudaDeviceSynchronize: $(cut -c1-300 "$OUT/$name.python3" | head -2)"
done
finish
