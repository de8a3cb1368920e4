#!/usr/bin/env bash
# The interface's c key, live as root under tmux: stacks of CUDA launches started without --stacks.
# The stand-in libcuda's client (tests/cuda/cuda-client.c) waits at a gate; c is pressed, the status
# line says what started (launch stacks) and what cannot (the scheduler's job stacks, and how to
# have them); the gate opens. The interface's recording (--record) then has, in its last snapshot,
# nvidia.stacks rows of every launch, 4 chains per client, and none in the snapshots before c.
# Usage: tests/bpf/stacks-key.sh CUDA_DIR BINARY   (needs root, tmux and jq; skips loudly without)
set -u
SUITE="stacks key (live)"
. "$(dirname "$0")/../lib.sh"
CUDA=$(realpath "$1")
BIN=$(realpath "$2")
needs_root_and_jq "the live stacks key needs root (CI runs as root): run 'sudo make test-bpf'"
if ! command -v tmux >/dev/null; then
	skip "tmux is missing: the live c key is not tested ('make deps')"
	finish
	exit
fi
PROCS=3
D=$(mktemp -d)
T="tmux -S $D/t.sock"
trap '$T kill-server 2>/dev/null; pkill -f "$D/" 2>/dev/null; rm -rf "$D"' EXIT
mkdir -p "$D/lib" "$D/bin"
cp "$CUDA/libcuda.so.1" "$D/lib/" && cp "$CUDA/cuda-client" "$D/bin/" && chmod -R a+rX "$D"
$T -f /dev/null new-session -d -s t -x 200 -y 40 \
	"cd $D && env HOME=$D TERM=xterm-256color LANG=C.UTF-8 $BIN -d 0.5 --libcuda $D/lib/libcuda.so.1 --record $D/rec.jsonl; echo \$? >$D/exit; sleep 60"
wait_for 'Overview' 30 >/dev/null
env LD_LIBRARY_PATH="$D/lib" FAKE_CUDA_SYNC_US=2000 "$D/bin/cuda-client" $PROCS "$D/gate" "$D/done" >"$D/client" &
cpid=$!
sleep 1.5 # the clients' processes seen (they wait at the gate)
$T send-keys -t t c
said=$(wait_for 'c: CUDA launch stacks on .*' 5)
check "c: the status line says launch stacks started, and how to have job stacks ($said)" \
	grep -qE 'c: CUDA launch stacks on \(nvidia.stacks; frame pointers: --stacks adds DWARF\); job stacks need --stacks - at the start' <<<"$said"
sleep 1.2 # the next reads: the BPF side takes stacks from then on
touch "$D/gate"
for _ in $(seq 100); do [ "$(wc -l <"$D/client")" -ge $PROCS ] && break; sleep 0.1; done
sleep 1.5 # two snapshots with every client done
touch "$D/done"
wait $cpid
$T send-keys -t t c
again=$(wait_for 'c: CUDA launch stacks are on already.*' 5)
check "c again: says they are on already ($again)" test -n "$again"
$T send-keys -t t q
for _ in $(seq 300); do [ -s "$D/exit" ] && break; sleep 0.1; done
check "q: exits 0 ($(cat "$D/exit" 2>/dev/null || screen | tail -3))" test "$(cat "$D/exit" 2>/dev/null)" = 0
launched=$(jq -s '[.[].launches] | add' "$D/client")
last=$(jq -c -s '[.[] | select((.tables["nvidia.stacks"] // []) | length > 0)] | last | .tables["nvidia.stacks"]' "$D/rec.jsonl")
check "recording: nvidia.stacks rows of every launch after c ($launched), 4 per client, nothing sampled" \
	jq -e --argjson n "$launched" --argjson rows $((4 * PROCS)) \
	'length == $rows and ([.[].count] | add) == $n and all(.[]; .sampled == "" and .source == "launch")' <<<"$last"
check "recording: every row's frames run main;child;phase_(a|b);cuLaunchKernel*" \
	jq -e 'all(.[]; .frames | test(";main;child;phase_[ab];cuLaunchKernel[A-Za-z_]*$"))' <<<"$last"
check "recording: no nvidia.stacks rows in the first snapshot (before c)" \
	jq -e -s '(.[0].tables["nvidia.stacks"] // []) | length == 0' "$D/rec.jsonl"
# with --stacks the key says they are on from the start
$T kill-server 2>/dev/null
rm -f "$D/exit"
$T -f /dev/null new-session -d -s t -x 200 -y 40 \
	"cd $D && env HOME=$D TERM=xterm-256color LANG=C.UTF-8 $BIN -d 0.5 --stacks -; echo \$? >$D/exit; sleep 60"
wait_for 'Overview' 30 >/dev/null
$T send-keys -t t c
given=$(wait_for 'c: stacks are on already \(--stacks\).*' 5)
check "c with --stacks: says they are on already ($given)" test -n "$given"
$T send-keys -t t q
for _ in $(seq 300); do [ -s "$D/exit" ] && break; sleep 0.1; done
check "q: exits 0 ($(cat "$D/exit" 2>/dev/null || screen | tail -3))" test "$(cat "$D/exit" 2>/dev/null)" = 0
finish
