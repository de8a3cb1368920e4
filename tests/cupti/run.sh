#!/usr/bin/env bash
# The CUPTI companion library (cupti/) in a CUDA program on the stand-ins (tests/cuda/fake_libcuda.c,
# fake_libcupti.c), through its test build's hooks: the semaphore read from a file, the probe
# functions' arguments written to one (cupti/test_hooks.c). No root, no BPF.
#   run.sh TEST_LIB PRODUCT_LIB BUILD   (BUILD: the folder of cuda/ and cupti-fake/)
set -u
cd "$(dirname "$0")/../.." || exit 1
SUITE="cupti"
. tests/lib.sh
LIB=$(realpath "$1")
PRODUCT=$2
B=$3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# start NAME [VAR=VALUE...]: the client (cupti-client run, or fork with MODE=fork) in the background,
# its calls, probe log, stdout and stderr in $T/NAME.*; waits for its "ready" line.
start() {
	local name=$1
	shift
	rm -f "$T/$name".* "$T/done" "$T/done.fork"
	env CUDA_INJECTION64_PATH="$LIB" LD_LIBRARY_PATH="${LDP-$B/cupti-fake:$B/cuda}" \
		GPUTOP_TEST_CUPTI_ASK="$T/ask" GPUTOP_TEST_CUPTI_LOG="$T/$name.log" FAKE_CUPTI_CALLS="$T/$name.calls" "$@" \
		"$B/cuda/cupti-client" "${MODE:-run}" "$T/done" >"$T/$name.out" 2>"$T/$name.err" &
	PID=$!
	for _ in $(seq 200); do grep -q '^ready' "$T/$name.out" 2>/dev/null && return; sleep 0.01; done
}
# finish_client: touches the done file and waits for the client, 5 s at most (then killed: RC 137);
# its exit status in RC, seconds in SECS.
finish_client() {
	local t0
	t0=$(date +%s.%N)
	touch "$T/done"
	for _ in $(seq 500); do kill -0 "$PID" 2>/dev/null || break; sleep 0.01; done
	kill -9 "$PID" 2>/dev/null
	wait "$PID"
	RC=$?
	SECS=$(echo "$(date +%s.%N) - $t0" | bc)
}
# until_in FILE PATTERN: waits up to 5 s for the pattern in the file.
until_in() {
	for _ in $(seq ${3:-500}); do grep -qE -- "$2" "$1" 2>/dev/null && return 0; sleep 0.01; done
	return 1
}
# expected K C: the stand-in's script of K kernels and C memcpys and memsets, as the probe's lines
# (computed here from the script's description, not from its code).
expected() {
	awk -v k="$1" -v c="$2" 'BEGIN {
		for (i = 0; i < k; i++) {
			s = 1000000 + i * 10000
			printf "rec kind=1 corr=%d start=%d end=%d queued=%d submitted=%d bytes=0 dev=%d ctx=%d stream=%d name=%d grid=%d,2,1 block=128,1,1\n",
				100 + i, s, s + 1000 + i, s - 500, s - 200, i % 2, 1 + i % 2, 7 + i % 3, 1 + i % 4, i + 1
		}
		for (j = 0; j < c; j++) {
			s = 2000000 + j * 1000
			printf "rec kind=2 corr=%d start=%d end=%d queued=0 submitted=0 bytes=%d dev=0 ctx=1 stream=7 name=0 grid=1,0,0 block=0,0,0\n",
				5000 + j, s, s + 300, 4096 * (j + 1)
		}
		for (j = 0; j < c; j++) {
			s = 3000000 + j * 1000
			printf "rec kind=3 corr=%d start=%d end=%d queued=0 submitted=0 bytes=%d dev=0 ctx=1 stream=7 name=0 grid=0,0,0 block=0,0,0\n",
				6000 + j, s, s + 100, 256 * (j + 1)
		}
	}'
}
long_name=$(printf 'k%.0s' $(seq 512))
names="name id=1 len=8 cut=0 kernel_a
name id=2 len=17 cut=0 ns::kernel_b(int)
name id=3 len=66 cut=0 void at::native::elementwise_kernel<128, 4>(int, at::native::Loop)
name id=4 len=512 cut=1 $long_name"
on_calls="cuptiSubscribe
cuptiActivityEnableLatencyTimestamps 1
cuptiActivityRegisterCallbacks
cuptiActivityEnable 10
cuptiActivityEnable 1
cuptiActivityEnable 2"
off_calls="cuptiActivityDisable 10
cuptiActivityDisable 1
cuptiActivityDisable 2
cuptiActivityFlushAll 1
cuptiUnsubscribe"
calls() { sed -n "s/^$2 //p" "$T/$1.calls" 2>/dev/null; }

echo "== dormant: no monitor asks"
echo 0 >"$T/ask"
start dormant FAKE_CUPTI_KERNELS=6
sleep 0.2 # its 100 launches done: what follows is the library's idle second
read -r ut0 st0 < <(awk '{ print $14, $15 }' "/proc/$PID/stat")
sleep 1
read -r ut st < <(awk '{ print $14, $15 }' "/proc/$PID/stat")
finish_client
check "dormant: the program ran and exited 0" test "$RC" = 0
check "dormant: libcupti never loaded, no CUPTI call" test ! -e "$T/dormant.calls"
check "dormant: the probe functions never called" test ! -e "$T/dormant.log"
check "dormant: nothing on stderr" test ! -s "$T/dormant.err"
# the second after its start alone (its loading and cuInit before it: 10 to 20 ms, in ticks of 10 ms)
cpu_ms=$(((ut + st - ut0 - st0) * 1000 / $(getconf CLK_TCK)))
echo "  (dormant client: ${cpu_ms} ms of CPU in 1 s idle, the poller at 10 Hz included)"
check "dormant: under 20 ms of CPU in a second" test "$cpu_ms" -lt 20

echo "== asked: every record, exact, in chunks"
echo 1 >"$T/ask"
start on FAKE_CUPTI_KERNELS=6 FAKE_CUPTI_COPIES=2 FAKE_CUPTI_DROPPED=3
until_in "$T/on.log" '^rec kind=3 corr=6001 '
finish_client
check "asked: the program exited 0" test "$RC" = 0
check "asked: kinds enabled, latency timestamps on" test "$(calls on "$PID" | grep -v "^load$" | head -n 6)" = "$on_calls"
check "asked: every record's values exact" test "$(grep '^rec' "$T/on.log")" = "$(expected 6 2)"
check "asked: each name once, before its first record, the 600-byte one cut at 512" \
	test "$(grep '^name' "$T/on.log")" = "$names"
check "asked: names before the records" test "$(grep -nm1 '^rec' "$T/on.log" | cut -d: -f1)" -gt 4
check "asked: CUPTI's 3 dropped records passed on, no library drop, a clock pair" \
	grep -q "^batch pid=$PID count=10 sent=0 cupti_dropped=3 library_dropped=0 clock=1$" "$T/on.log"
check "asked: the library says which libcupti it used" \
	grep -qx "gputop-cupti: GPU time from CUPTI $(realpath "$B/cupti-fake/libcupti.so")" "$T/on.err"
check "asked: status on, then off at exit" test "$(grep -c '^status' "$T/on.log")" = 2

echo "== many records: chunks of at most 16, several buffers, none lost"
# buffers sized by how soon CUPTI asks again: 16 KiB, then 4 times larger at once (a burst), up to
# 1 MiB; half as large after a pause of 2.5 s (before the sixth)
start many FAKE_CUPTI_KERNELS=20000 FAKE_CUPTI_COPIES=100 FAKE_CUPTI_SIZES="$T/many.sizes" FAKE_CUPTI_PAUSE_AT=6
until_in "$T/many.log" '^rec kind=3 corr=6099 ' 1000
finish_client
sizes=$(tr '\n' ' ' <"$T/many.sizes")
check "many: buffers of 16 KiB, 64 KiB, 256 KiB, 1 MiB, 1 MiB, then 512 KiB after the pause ($sizes)" \
	test "$(head -n 6 "$T/many.sizes" | tr '\n' ' ')" = "16384 65536 262144 1048576 1048576 524288 "
check "many: 20200 records, the script exact" test "$(grep '^rec' "$T/many.log")" = "$(expected 20000 100)"
check "many: no chunk above 16, each chunk's 'sent' the records before it" awk '
	/^batch/ { split($3, c, "="); split($4, s, "="); if (c[2] > 16 || s[2] != n) bad = 1; n += c[2] }
	END { exit bad || n != 20200 }' "$T/many.log"
check "many: four names sent once" test "$(grep -c '^name' "$T/many.log")" = 4

echo "== an unfinished record (no end): counted as the library's drop, not passed on"
start unfinished FAKE_CUPTI_KERNELS=6 FAKE_CUPTI_UNFINISHED=1
until_in "$T/unfinished.log" '^rec kind=1 corr=105 '
finish_client
check "unfinished: the other 5 exact" test "$(grep '^rec' "$T/unfinished.log")" = "$(expected 6 0 | sed 1d)"
check "unfinished: library_dropped=1" grep -q "^batch pid=$PID count=5 sent=0 cupti_dropped=0 library_dropped=1 " \
	"$T/unfinished.log"

echo "== the monitor stops and comes back"
echo 1 >"$T/ask"
start again FAKE_CUPTI_KERNELS=4 FAKE_CUPTI_ROTATE=1
until_in "$T/again.log" '^rec kind=1 corr=103 '
echo 0 >"$T/ask"
until_in "$T/again.calls" 'cuptiUnsubscribe'
check "stop: disabled, flushed, unsubscribed" test "$(calls again "$PID" | tail -n 5)" = "$off_calls"
echo 1 >"$T/ask"
until_in "$T/again.calls" 'cuptiSubscribe(.|\n)*cuptiSubscribe'
sleep 0.3
finish_client
check "restart: enabled again, records again with every name sent again" \
	test "$(grep -c '^name' "$T/again.log")/$(grep -c '^rec' "$T/again.log")" = 8/8
check "restart: the second round's batch counts on from the first" grep -q '^batch .* count=4 sent=4 ' "$T/again.log"
check "restart: each name sent again under the id it had, the names come in another order (rows are kept by id)" \
	test "$(grep '^name' "$T/again.log" | sort | uniq -c | awk '$1 == 2' | wc -l)" = 4

echo "== CUPTI missing"
GPUTOP_CUPTI_LIBRARY=$T/none LDP=$B/cuda start missing FAKE_CUPTI_KERNELS=4
until_in "$T/missing.log" 'state=3'
finish_client
check "missing (the path GPUTOP_CUPTI_LIBRARY names): the program exited 0" test "$RC" = 0
check "missing: said on stderr" grep -q "no libcupti found" "$T/missing.err"
check "missing: status 3 (missing) to the monitor, once" test "$(grep -c '^status .* state=3 ' "$T/missing.log")" = 1
if ldconfig -p | grep -q libcupti; then
	skip "missing, searched for: this machine has a libcupti in the library path"
else
	LDP=$B/cuda start nowhere FAKE_CUPTI_KERNELS=4
	until_in "$T/nowhere.log" 'state=3'
	finish_client
	check "missing, searched for: the program exited 0, said so" grep -q "no libcupti found" "$T/nowhere.err"
fi

echo "== the program's own libcupti: beside its CUDA runtime, in a PyTorch wheel"
mkdir -p "$T/toolkit/lib64" "$T/toolkit/extras/CUPTI/lib64" "$T/site/torch/lib" "$T/site/nvidia/cuda_cupti/lib"
cp "$B/cuda/libcuda.so.1" "$T/toolkit/lib64/libcudart.so.12" # any library, loaded under the runtime's name
cp "$B/cupti-fake/libcupti.so" "$T/toolkit/extras/CUPTI/lib64/libcupti.so.12"
cp "$B/cuda/libcuda.so.1" "$T/site/torch/lib/libtorch_cuda.so"
cp "$B/cupti-fake/libcupti.so" "$T/site/nvidia/cuda_cupti/lib/libcupti.so.12"
for where in toolkit/lib64/libcudart.so.12:toolkit/extras/CUPTI/lib64 site/torch/lib/libtorch_cuda.so:site/nvidia/cuda_cupti/lib; do
	LDP=$B/cuda start found LD_PRELOAD="$T/${where%%:*}" FAKE_CUPTI_KERNELS=4
	until_in "$T/found.log" '^rec kind=1 corr=103 '
	finish_client
	check "found beside ${where%%:*}: ${where#*:}/libcupti.so.12, said" \
		grep -qx "gputop-cupti: GPU time from CUPTI $(realpath "$T/${where#*:}/libcupti.so.12")" "$T/found.err"
done

echo "== CUPTI held by another profiler"
start busy FAKE_CUPTI_KERNELS=4 FAKE_CUPTI_BUSY=1
until_in "$T/busy.log" 'state=4'
finish_client
check "busy: the program exited 0" test "$RC" = 0
check "busy: cuptiSubscribe only, nothing enabled" test "$(calls busy "$PID" | tr '\n' ' ')" = "load cuptiSubscribe "
check "busy: said on stderr and to the monitor" grep -q "held by another profiler" "$T/busy.err"

echo "== fork: the child stays dormant"
MODE=fork start fork FAKE_CUPTI_KERNELS=4
until_in "$T/fork.log" '^rec kind=1 corr=103 ' # on when it forks
touch "$T/done.fork"
until_in "$T/fork.out" '^child'
finish_client
child=$(sed -n 's/^child //p' "$T/fork.out")
check "fork: parent and child exited 0" test "$RC" = 0
check "fork: the child ran" test -n "$child"
check "fork: no CUPTI call from the child" test -z "$(calls fork "$child")"
check "fork: no probe call from the child" test "$(grep -c "pid=$child" "$T/fork.log")" = 0
check "fork: the parent's 4 records, once" test "$(grep -c '^rec' "$T/fork.log")" = 4

echo "== exit with records still in CUPTI's buffer"
start held FAKE_CUPTI_KERNELS=6 FAKE_CUPTI_COPIES=2 FAKE_CUPTI_HOLD=1
until_in "$T/held.calls" 'cuptiActivityEnable 2'
sleep 0.3
check "held: no record before the exit" test "$(grep -c '^rec' "$T/held.log")" = 0
finish_client
check "held: the program exited 0" test "$RC" = 0
check "held: every record flushed at exit, exact" test "$(grep '^rec' "$T/held.log")" = "$(expected 6 2)"

echo "== records held in a buffer: asked for every second while the program runs"
start periodic FAKE_CUPTI_KERNELS=6 FAKE_CUPTI_HOLD=1
until_in "$T/periodic.log" '^rec kind=1 corr=105 '
check "periodic: the held records came before the exit" test "$(grep -c '^rec' "$T/periodic.log")" = 6
check "periodic: by an unforced flush (cuptiActivityFlushAll 0)" grep -q "^$PID cuptiActivityFlushAll 0$" "$T/periodic.calls"
finish_client

echo "== exit while CUPTI's flush hangs"
start hang FAKE_CUPTI_KERNELS=6 FAKE_CUPTI_HOLD=1 FAKE_CUPTI_FLUSH_HANG=1
until_in "$T/hang.calls" 'cuptiActivityEnable 2'
finish_client
echo "  (exit with a hanging flush: $SECS s)"
check "hang: the program exited 0" test "$RC" = 0
check "hang: within 1.5 s (the library waits 0.5 s)" test "$(echo "$SECS < 1.5" | bc)" = 1

echo "== the product build"
check "product: no test hook in the installed library" test -z "$(strings "$PRODUCT" | grep -E 'GPUTOP_TEST|hook_')"
check "product: the semaphores in .probes, the 4 probe functions and 2 semaphores exported" sh -c \
	"readelf -SW '$PRODUCT' | grep -q ' \.probes ' && test \"\$(nm -D --defined-only '$PRODUCT' | grep -o ' gputop_cupti_.*' | sort | tr -d '\n')\" = \
	' gputop_cupti_launch gputop_cupti_launch_semaphore gputop_cupti_name gputop_cupti_records gputop_cupti_semaphore gputop_cupti_status'"
finish
