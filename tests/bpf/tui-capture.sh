#!/usr/bin/env bash
# The interface's T capture, live as root under tmux: the status line says what it captures and
# where, shows the seconds taken while it runs, then what it wrote; the file is there, of the size
# said, and protoc decodes it (its counter samples as many as said). --sysfs on the fixture trees
# (tests/fixtures/sysfs/make-trees.sh) gives the sensors' counters something to sample. Then T on a
# replay with nothing to record: no file left, the status line says so. A CUDA program with the CUPTI
# library (the stand-ins of BUILD: tests/cuda/cupti-client.c, fake_libcupti.c) runs meanwhile: the
# library's launch callbacks are on during the capture (the launches' flows, docs/gpu-time.md) and off
# again after it.
# Usage: tests/bpf/tui-capture.sh BINARY BUILD   (needs root, tmux and protoc; skips loudly without)
set -u
SUITE="tui capture (live)"
. "$(dirname "$0")/../lib.sh"
BIN=$(realpath "$1")
B=$(realpath "$2")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
needs_root_and_jq "the live capture needs root (CI runs as root): run 'sudo make test-bpf'"
for tool in tmux protoc; do
	if ! command -v $tool >/dev/null; then
		skip "$tool is missing: the live T capture is not tested ('make deps')"
		finish
		exit
	fi
done
. "$ROOT/tests/perfetto/decode.sh"
D=$(mktemp -d)
T="tmux -S $D/t.sock"
CPID=
trap '$T kill-server 2>/dev/null; [ -n "$CPID" ] && kill $CPID 2>/dev/null; rm -rf "$D"' EXIT
"$ROOT/tests/fixtures/sysfs/make-trees.sh" "$D/trees" >/dev/null
env CUDA_INJECTION64_PATH="$B/cupti/libgputop-cupti.so" LD_LIBRARY_PATH="$B/cupti-fake:$B/cuda" FAKE_CUPTI_CALLS="$D/calls" \
	"$B/cuda/cupti-client" run "$D/done" >"$D/client" 2>&1 &
CPID=$!
for _ in $(seq 100); do grep -q '^ready' "$D/client" 2>/dev/null && break; sleep 0.05; done
mkdir "$D/cap"
$T -f /dev/null new-session -d -s t -x 160 -y 40 \
	"cd $D/cap && env HOME=$D TERM=xterm-256color LANG=C.UTF-8 $BIN -d 0.5 --sysfs $D/trees/mixed; echo \$? >$D/exit; sleep 60"
wait_for 'sensors|Overview' 30 >/dev/null
$T send-keys -t t T
start=$(wait_for 'capturing 10 s of [^|]* to gputop-bpf-[0-9-]*\.pftrace' 5)
check "T: the status line says what it captures, and to which file ($start)" \
	grep -q "of counters, display events and GPU calls (jobs: --sched-design stream) to" <<<"$start"
progress=$(wait_for 'capturing to gputop-bpf-[0-9-]*\.pftrace: [1-9][0-9.]* of 10 s, [0-9]+ samples, [0-9]+ jobs, [0-9]+ display events' 10)
check "T: while it runs, the seconds taken so far ($progress)" test -n "$progress"
said=$(wait_for 'capture written: gputop-bpf-[0-9-]*\.pftrace: [0-9]+ samples, [0-9]+ jobs, [0-9]+ display events, [0-9]+ bytes' 20)
check "T: then what it wrote ($said)" test -n "$said"
cap=$D/cap/$(sed -n 's/^capture written: \([^:]*\):.*/\1/p' <<<"$said")
samples=$(sed -n 's/.*pftrace: \([0-9]*\) samples.*/\1/p' <<<"$said")
check "T: the file it named is there, of the size it said ($(stat -c %s "$cap" 2>/dev/null) bytes)" \
	test -f "$cap" -a "$(stat -c %s "$cap" 2>/dev/null)" = "$(sed -n 's/.* \([0-9]*\) bytes.*/\1/p' <<<"$said")"
check "T: protoc decodes it; ${samples:-?} counter samples, as many as said, more than none" \
	test "$(decode "$cap" | grep -c 'type: TYPE_COUNTER')" = "${samples:-x}" -a "${samples:-0}" -gt 0
check "T: the file belongs to the user who ran it (root here)" test "$(stat -c %u "$cap" 2>/dev/null)" = 0
launch_cb() { grep -c "cuptiEnableCallback $1 1 \(307\|442\|652\|653\|477\|478\)\$" "$D/calls" 2>/dev/null; }
for _ in $(seq 50); do [ "$(launch_cb 0)" = 6 ] && break; sleep 0.1; done
check "T: the CUPTI library's 6 launch callbacks on during the capture, off after it ($(launch_cb 1) on, $(launch_cb 0) off)" \
	test "$(launch_cb 1)/$(launch_cb 0)" = 6/6
$T send-keys -t t q
for _ in $(seq 300); do [ -s "$D/exit" ] && break; sleep 0.1; done
check "q: exits 0 ($(cat "$D/exit" 2>/dev/null || screen | tail -3))" test "$(cat "$D/exit" 2>/dev/null)" = 0
touch "$D/done"
wait $CPID
check "the CUDA program exited 0" test $? = 0
CPID=
# T with nothing to record (a replay of snapshots without tables): no file left, said so
$T kill-server 2>/dev/null
mkdir "$D/empty"
jq -c '.tables = {}' "$ROOT/examples/mockgpu-7.3.jsonl" >"$D/empty.jsonl"
$T -f /dev/null new-session -d -s t -x 160 -y 40 \
	"cd $D/empty && env HOME=$D TERM=xterm-256color LANG=C.UTF-8 $BIN --replay $D/empty.jsonl; sleep 60"
wait_for 'REPLAY' 10 >/dev/null
$T send-keys -t t T
said=$(wait_for 'capture: nothing to record in 10 s[^|]*: no file written' 30)
check "T, nothing to record: said so ($said)" test -n "$said"
check "T, nothing to record: no file left ($(ls "$D/empty"))" test -z "$(ls "$D/empty")"
finish
