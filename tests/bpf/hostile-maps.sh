#!/usr/bin/env bash
# A user's mappings cannot hang the monitor or make it follow their links: a process maps the
# stand-in libcuda from a folder named "a<newline>b", which /proc/PID/maps prints as "a\012b";
# the folder really named "a\012b" holds a FIFO called libcuda.so.1, then a symlink to a root-only
# file. The monitor (no --libcuda, so it searches every process's mappings) must finish its
# snapshots, find the library the process really mapped (through the mapping itself), and
# exit at once (issue 41: it blocked in open(2) on the FIFO for good, deaf to SIGINT).
# Usage: tests/bpf/hostile-maps.sh CUDA_DIR BINARY   (root; skips loudly without)
set -u
SUITE="hostile maps tests"
. "$(dirname "$0")/../lib.sh"
CUDA=$1 BIN=$2
needs_root_and_jq "the mappings of every process are searched as root (CI runs as root): run 'sudo make test-bpf'"
TMP=$(mktemp -d)
HOLDER=
trap 'kill $HOLDER 2>/dev/null; rm -rf "$TMP"' EXIT
nl=$'\n'
mkdir -p "$TMP/a${nl}b" "$TMP/a\\012b" "$TMP/secret"
cp "$CUDA/libcuda.so.1" "$TMP/a${nl}b/libcuda.so.1"
echo "root only" >"$TMP/secret/file"
chmod 700 "$TMP/secret"
# the holder launches a (stand-in) kernel every 10 ms: counted only if the monitor probed its very file
python3 -c '
import ctypes, sys, time
lib = ctypes.CDLL(sys.argv[1])
print("mapped", flush=True)
for _ in range(6000):
    lib.cuLaunchKernel(None, 1, 1, 1, 1, 1, 1, 0, None, None, None)
    time.sleep(0.01)' "$TMP/a${nl}b/libcuda.so.1" >"$TMP/holder.out" &
HOLDER=$!
for _ in $(seq 50); do grep -q mapped "$TMP/holder.out" && break; sleep 0.1; done
check "the holder maps the library; maps prints its path escaped" grep -qF 'a\012b/libcuda.so.1' /proc/$HOLDER/maps

for kind in fifo link; do
	rm -f "$TMP/a\\012b/libcuda.so.1"
	if [ $kind = fifo ]; then mkfifo "$TMP/a\\012b/libcuda.so.1"; else ln -s "$TMP/secret/file" "$TMP/a\\012b/libcuda.so.1"; fi
	timeout -s KILL 30 "$BIN" -b -J -n 3 -d 0.3 >"$TMP/$kind.jsonl" 2>"$TMP/$kind.err"
	rc=$?
	check "$kind at the escaped path: the monitor ended by itself, exit 0 (rc $rc; 137: killed hung)" test $rc = 0
	check "$kind: 3 snapshots" test "$(wc -l <"$TMP/$kind.jsonl")" = 3
	launches=$(tail -1 "$TMP/$kind.jsonl" | jq --argjson p $HOLDER '[.tables["nvidia.processes"][] |
		select(.pid == $p) | .launches_total] | add // 0')
	check "$kind: the holder's launches counted: its library found and probed ($launches)" test "$launches" -gt 0
done
finish
