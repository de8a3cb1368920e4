#!/usr/bin/env bash
# Quitting is quick with uprobes attached: the monitor ends within a second of SIGINT, of
# --list's end and of a pipe's reader, while the ~50 uprobes on a libcuda (here the stand-in's),
# whose release the kernel serialises at about 0.2 s each, are released after it by a child
# named gputop-bpf-exit that ends by itself (collectors/kit/link_reaper.h).
# Usage: tests/bpf/exit.sh CUDA_DIR BINARY   (root; skips loudly without)
set -u
SUITE="exit tests"
. "$(dirname "$0")/../lib.sh"
CUDA=$1 BIN=$2
needs_root_and_jq "uprobes need root (CI runs as root): run 'sudo make test-bpf'"
TMP=$(mktemp -d)
trap 'kill $MON 2>/dev/null; rm -rf "$TMP"' EXIT
MON=
ms() { echo $(($(date +%s%N) / 1000000)); }
exit_children() { ps -eo pid=,comm= | awk '$2 == "gputop-bpf-exit" { print $1 }' | sort; }
exit_children >"$TMP/before"

"$BIN" -b -J -d 0.2 --libcuda "$CUDA/libcuda.so.1" >"$TMP/mon.jsonl" 2>"$TMP/mon.err" &
MON=$!
for _ in $(seq 100); do [ -s "$TMP/mon.jsonl" ] && break; sleep 0.1; done
uprobes=$(head -1 "$TMP/mon.jsonl" | jq '[.collectors[] | select(.name == "nvidia") | .tracepoints[] |
	select(.group == "libcuda" and .state == "attached")] | length')
check "the stand-in libcuda's functions have uprobes ($uprobes)" test "${uprobes:-0}" -ge 20
t0=$(ms)
kill -INT $MON
wait $MON
rc=$? t=$(($(ms) - t0))
MON=
echo "       SIGINT to exit: $t ms"
check "SIGINT: exited 0 within 2 s with $uprobes uprobes attached ($t ms)" test $rc = 0 -a $t -lt 2000

t0=$(ms)
"$BIN" --list --libcuda "$CUDA/libcuda.so.1" | cat >"$TMP/list.txt"
t=$(($(ms) - t0))
echo "       --list through a pipe: $t ms"
check "--list, read through a pipe, ended within 2 s ($t ms): the child holds no pipe" test $t -lt 2000
check "--list names the uprobes attached" grep -q 'attached *libcuda:cuLaunchKernel ' "$TMP/list.txt"

exit_children >"$TMP/after"
mapfile -t kids < <(comm -13 "$TMP/before" "$TMP/after")
check "the uprobes' release was left to gputop-bpf-exit children (${#kids[@]})" test ${#kids[@]} -ge 1
for _ in $(seq 1200); do
	alive=0
	for k in "${kids[@]}"; do kill -0 "$k" 2>/dev/null && alive=$((alive + 1)); done
	[ $alive = 0 ] && break
	sleep 0.1
done
check "the children ended by themselves within 120 s ($alive left)" test $alive = 0
finish
