#!/usr/bin/env bash
# Quitting is quick with uprobes attached: the monitor ends within a second of SIGINT, of
# --list's end and of a pipe's reader, while the ~50 uprobes on a libcuda (here the stand-in's)
# and the core kernel's tracepoints, whose release the kernel serialises at 0.1-0.2 s each, are
# released after it by a child named gputop-bpf-exit that ends by itself
# (collectors/kit/link_reaper.h). The machine's other monitors' releases hold the same lock.
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
first_snapshot "$TMP/mon.jsonl"
uprobes=$(head -1 "$TMP/mon.jsonl" | jq '[.collectors[] | select(.name == "nvidia") | .tracepoints[] |
	select(.group == "libcuda" and .state == "attached")] | length')
check "the stand-in libcuda's functions have uprobes ($uprobes)" test "${uprobes:-0}" -ge 20
t0=$(ms)
kill -INT $MON
wait $MON
rc=$? t=$(($(ms) - t0))
MON=
echo "       SIGINT to exit: $t ms"
check "SIGINT: exited 0 within 3 s with $uprobes uprobes attached ($t ms; 7 s and more before)" test $rc = 0 -a $t -lt 3000

# the next start waits for that release (the kernel's lock is one for all): not timed here
wait_children() {
	exit_children >"$TMP/now"
	mapfile -t kids < <(comm -13 "$TMP/before" "$TMP/now")
	for _ in $(seq 1200); do
		alive=0
		for k in "${kids[@]}"; do kill -0 "$k" 2>/dev/null && alive=$((alive + 1)); done
		[ $alive = 0 ] && return
		sleep 0.1
	done
}
check "SIGINT: the release was left to a gputop-bpf-exit child" test "$(comm -13 "$TMP/before" <(exit_children) | wc -l)" -ge 1
script -qec "'$BIN' -b -n 1 -d 0.1 >/dev/null" /dev/null >"$TMP/next.err" # at a terminal, as a person
check "a start while it runs says at a terminal that it waits for the kernel's release" \
	grep -q "still being released by the kernel (gputop-bpf-exit, pid" "$TMP/next.err"
wait_children
check "SIGINT: its child ended by itself within 120 s ($alive left)" test $alive = 0
t0=$(ms)
"$BIN" --list --libcuda "$CUDA/libcuda.so.1" | cat >"$TMP/list.txt"
t=$(($(ms) - t0))
echo "       --list through a pipe: $t ms"
check "--list, read through a pipe, ended within 3 s ($t ms): the child holds no pipe" test $t -lt 3000
check "--list names the uprobes attached" grep -q 'attached *libcuda:cuLaunchKernel ' "$TMP/list.txt"

check "--list: the release was left to a gputop-bpf-exit child" test "$(comm -13 "$TMP/before" <(exit_children) | wc -l)" -ge 1
wait_children
check "--list: its child ended by itself within 120 s ($alive left)" test $alive = 0
finish
