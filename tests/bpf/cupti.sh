#!/usr/bin/env bash
# The CUPTI companion library's product build woken by a real monitor (root): the GPU time BPF
# program (bpf/cupti.bpf.c, through tests/bpf/cupti-probe.c) attaches its records uprobe with the
# library's semaphore as ref_ctr_offset; the kernel raises it in each process that maps the
# library, the library turns CUPTI's activity on, and the program's tables are exact against the
# stand-in libcupti's script (tests/cuda/fake_libcupti.c). Detached, the library flushes and
# gives CUPTI up.
# Then the same through gputop-bpf's gpu_time collector (nvidia.gpu_time, -J).
#   cupti.sh PROBE LIB BUILD GPUTOP   (BUILD: the folder of cuda/ and cupti-fake/; GPUTOP: the default or
#   the sanitizer build)
set -u
cd "$(dirname "$0")/../.." || exit 1
SUITE="cupti bpf"
. tests/lib.sh
needs_root_and_jq "the GPU time probes need root"
PROBE=$1
LIB=$(realpath "$2")
B=$3
GPUTOP=$4
T=$(mktemp -d)
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
PIDS=()
PROBES=()
cleanup() {
	exec 7>&- 8>&- 2>/dev/null
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	[ -n "${KEEP:-}" ] && echo "kept $T" || rm -rf "$T"
}
trap cleanup EXIT

# monitor FD NAME: a cupti-probe reading commands from FD (a FIFO), its output in $T/NAME.out.
monitor() {
	mkfifo "$T/$2.in"
	"$PROBE" "$LIB" <"$T/$2.in" >>"$T/$2.out" 2>&1 & # appending: dump empties the file
	PIDS+=($!)
	PROBES+=($!)
	eval "exec $1>\"$T/$2.in\""
	until_in "$T/$2.out" '^attached' || fail "$2: the probe did not attach: $(cat "$T/$2.out")"
}
# dump FD NAME: the monitor's tables, kernel lines without the pid, sorted, in $T/NAME.dump.
dump() {
	: >"$T/$2.out"
	echo dump >&"$1"
	until_in "$T/$2.out" '^end$'
	grep -a '^kernel' "$T/$2.out" | sed 's/ pid=[0-9]*//' | LC_ALL=C sort >"$T/$2.dump"
}
until_in() {
	for _ in $(seq 500); do grep -qE -- "$2" "$1" 2>/dev/null && return 0; sleep 0.01; done
	return 1
}
# client NAME VAR=VALUE...: the CUDA program with the product library; its calls in $T/NAME.calls.
client() {
	local name=$1
	shift
	env CUDA_INJECTION64_PATH="$LIB" LD_LIBRARY_PATH="$B/cupti-fake:$B/cuda" FAKE_CUPTI_CALLS="$T/$name.calls" \
		"$@" "$B/cuda/cupti-client" run "$T/$name.done" >"$T/$name.cout" 2>&1 &
	CPID=$!
	PIDS+=($CPID)
	until_in "$T/$name.cout" '^ready'
}
# expected K C: the tables the stand-in's script of K kernels, C memcpys and C memsets makes
# (computed from the script's description), as dump lines.
expected() {
	awk -v k="$1" -v c="$2" -v long="$(printf 'k%.0s' $(seq 512))" '
	function add(key, d, b, q) {
		n[key]++; t[key] += d; if (d > m[key]) m[key] = d; by[key] += b
		if (q) { qn[key]++; qt[key] += q; if (q > qm[key]) qm[key] = q }
	}
	BEGIN {
		split("kernel_a|ns::kernel_b(int)|void at::native::elementwise_kernel<128, 4>(int, at::native::Loop)", nm, "|")
		nm[4] = long
		for (i = 0; i < k; i++)
			add("dev=" i % 2 " kind=1 name=" nm[i % 4 + 1], 1000 + i, 0, 500)
		for (j = 0; j < c; j++) {
			add("dev=0 kind=2 name=", 300, 4096 * (j + 1), 0)
			add("dev=0 kind=3 name=", 100, 256 * (j + 1), 0)
		}
		for (key in n)
			printf "kernel %s count=%d total_ns=%d max_ns=%d bytes=%d queued=%d queue_total_ns=%d queue_max_ns=%d\n",
				key, n[key], t[key], m[key], by[key], qn[key], qt[key], qm[key]
	}' | LC_ALL=C sort
}
calls() { sed -n "s/^$2 //p" "$T/$1.calls" 2>/dev/null; }
# bg_monitor NAME [OPTION...]: gputop-bpf -J in the background (MPID), once it has written its first snapshot.
bg_monitor() {
	"$GPUTOP" -b -J -d 0.25 "${@:2}" >"$T/$1.json" 2>"$T/$1.err" &
	MPID=$!
	PIDS+=($MPID)
	first_snapshot "$T/$1.json"
}
# snapshots_more NAME N: waits for N more snapshots of the monitor (10 s at most).
snapshots_more() {
	local want=$(($(wc -l <"$T/$1.json") + $2))
	for _ in $(seq 200); do [ "$(wc -l <"$T/$1.json")" -ge "$want" ] && return; sleep 0.05; done
}


echo "== no monitor: the product library stays dormant"
client idle FAKE_CUPTI_KERNELS=6
sleep 0.5
check "idle: no libcupti loaded, no CUPTI call" test ! -e "$T/idle.calls"
touch "$T/idle.done"

echo "== a monitor before the program: woken at its start, every kernel exact"
monitor 7 m1
sem_off=$(sed -n 's/^attached semaphore_offset=//p' "$T/m1.out")
client first FAKE_CUPTI_KERNELS=2000 FAKE_CUPTI_COPIES=50 FAKE_CUPTI_DROPPED=3
until_in "$T/first.calls" 'cuptiActivityEnable 2'
sleep 0.5
dump 7 m1
check "first: the semaphore ($sem_off in the file) raised in the new process: CUPTI on" grep -q 'cuptiActivityEnable 10' "$T/first.calls"
check "first: per device, kind and kernel: count, total, max, bytes, queue times exact" \
	test "$(cat "$T/m1.dump")" = "$(expected 2000 50)"
check "first: 2100 records read, none missed, CUPTI's 3 drops, state on" \
	grep -aq "^proc pid=$CPID batches=[0-9]* records=2100 missed=0 cupti_dropped=3 library_dropped=0 state=1 abi=1$" "$T/m1.out"
check "first: no drop in the BPF program" grep -aqx 'drops kernels_full=0 names_full=0 procs_full=0 read=0' "$T/m1.out"
echo "  ($(grep -ac '^kernel' "$T/m1.out") rows; $(grep -a '^proc' "$T/m1.out"))"

echo "== a second monitor, then the first goes (the kernel counts probe points, not monitors: the semaphore stays 1)"
monitor 8 m2
sleep 0.3
echo detach >&7
sleep 0.4
check "two: one monitor left, CUPTI still on" test -z "$(calls first "$CPID" | grep cuptiActivityDisable)"
echo detach >&8
until_in "$T/first.calls" 'cuptiUnsubscribe'
check "none left: disabled, flushed, unsubscribed" \
	test "$(calls first "$CPID" | tail -n 5 | tr '\n' ' ')" = \
	"cuptiActivityDisable 10 cuptiActivityDisable 1 cuptiActivityDisable 2 cuptiActivityFlushAll 1 cuptiUnsubscribe "
touch "$T/first.done"

echo "== a program before the monitor: dormant, then woken"
client late FAKE_CUPTI_KERNELS=8
sleep 0.5
check "late: dormant before the monitor" test ! -e "$T/late.calls"
echo attach >&8
until_in "$T/late.calls" 'cuptiActivityEnable 2'
sleep 0.5
dump 8 m2
check "late: woken by the monitor's attach, its 8 kernels exact" test "$(grep -v '^$' "$T/m2.dump")" = "$(expected 8 0)"
check "late: its records, none missed" grep -aq "^proc pid=$CPID batches=[0-9]* records=8 missed=0 " "$T/m2.out"
touch "$T/late.done"

echo "== gputop-bpf's gpu_time collector: a running program found, woken, its table exact"
exec 8>&- 7>&-
wait "${PROBES[@]}" # their uprobes gone: the semaphore at 0
client top FAKE_CUPTI_KERNELS=2000 FAKE_CUPTI_COPIES=50 FAKE_CUPTI_DROPPED=3
sleep 0.3
check "top: dormant before the monitor" test ! -e "$T/top.calls"
bg_monitor top
until_in "$T/top.calls" 'cuptiActivityFlushAll 0' # on, and its records asked for
snapshots_more top 2
kill -INT "$MPID"
wait "$MPID"
check "top: the monitor exited 0 at SIGINT" test "$?" = 0
until_in "$T/top.calls" 'cuptiUnsubscribe'
check "top: the monitor gone, the library flushed and gave CUPTI up" \
	test "$(calls top "$CPID" | tail -n 2 | tr '\n' ' ')" = "cuptiActivityFlushAll 1 cuptiUnsubscribe "
tail -n 1 "$T/top.json" | jq -r --argjson pid "$CPID" '.tables["nvidia.gpu_time"][] | select(.pid == $pid) |
	"kernel dev=\(.cuda_device) kind=\({kernel: 1, memcpy: 2, memset: 3}[.kind]) name=\(.kernel | sub("\\.\\.\\.\\[cut\\]$"; ""))" +
	" count=\(.count_total) total_ns=\(.gpu_ns_total) max_ns=\(.max_ns) bytes=\(.bytes_total)" +
	" queued=\(if .queue_mean_ns then .count_total else 0 end)" +
	" queue_total_ns=\(if .queue_mean_ns then .queue_mean_ns * .count_total | round else 0 end)" +
	" queue_max_ns=\(.queue_max_ns // 0)"' | LC_ALL=C sort >"$T/top.rows"
check "top: nvidia.gpu_time: per device, kind and kernel, every count, time, max, byte and queue time exact" \
	test "$(cat "$T/top.rows")" = "$(expected 2000 50)"
check "top: each row's mean the total over the count" jq -e -s --argjson pid "$CPID" \
	'last | [.tables["nvidia.gpu_time"][] | select(.pid == $pid)] | length == 6 and
	all((.mean_ns * .count_total - .gpu_ns_total) | fabs < 0.01)' "$T/top.json"
# kernel row j (i % 4 == j) ran 1000 + i ns for its 500 i: p50 its mean, p99 its mean + 978 ns, each within
# the histogram's 12.5 %; copies (300 ns) and sets (100 ns) all alike, and every queue time 500 ns: exact
check "top: p50 and p99 of GPU times within 12.5 % of the exact, the constant ones' and the queue times' exact" \
	jq -e -s --argjson pid "$CPID" 'last | [.tables["nvidia.gpu_time"][] | select(.pid == $pid)] | length == 6 and
	all(if .kind == "kernel" then ((.p50_ns - .mean_ns) | fabs) <= 0.125 * .mean_ns and
		((.p99_ns - .mean_ns - 978) | fabs) <= 0.125 * (.mean_ns + 978) and .p99_ns > .p50_ns and
		.queue_p50_ns == 500 and .queue_p99_ns == 500
	else .p50_ns == .mean_ns and .p99_ns == .mean_ns and .queue_p50_ns == null end)' "$T/top.json"
echo "  (p50/p99 of kernel rows: $(tail -n 1 "$T/top.json" | jq -r --argjson pid "$CPID" '[.tables["nvidia.gpu_time"][] |
	select(.pid == $pid and .kind == "kernel") | "\(.mean_ns)/\(.p50_ns | round)/\(.p99_ns | round)"] | join(" ")') ns: mean/p50/p99)"
check "top: the long name marked cut" grep -q '"kernel":"k*\.\.\.\[cut\]"' "$T/top.json"
check "top: CUPTI's 3 drops in the collector's, none of its own" test "$(tail -n 1 "$T/top.json" | jq -c \
	'.collectors[] | select(.name == "gpu_time") | .drops')" = \
	'{"gpu_time_rows_full":0,"gpu_time_names_full":0,"gpu_time_processes_full":0,"gpu_time_unreadable":0,"gpu_time_busy_full":0,"gpu_time_histograms_full":0,"gpu_time_capture_full":0,"gpu_time_cupti_dropped":3,"gpu_time_library_dropped":0,"gpu_time_missed":0,"gpu_time_capture_unplaced":0}'
# nvidia.gpu_busy: per device, the kernels' and copies' time; device 1's kernels never overlap (busy = their
# time); on device 0 the 100 copies and sets come after the kernels but began before the last: disordered,
# each added whole
busy_want() {
	awk -v k="$1" -v c="$2" 'BEGIN { for (i = 0; i < k; i++) kn[i % 2] += 1000 + i
		printf "dev=0 kernel=%d copy=%d busy=%d disordered=%d\n", kn[0], 400 * c, kn[0] + 400 * c, 2 * c
		printf "dev=1 kernel=%d copy=0 busy=%d disordered=0\n", kn[1], kn[1] }'
}
busy_rows() {
	tail -n 1 "$T/$1.json" | jq -r --argjson pid "$CPID" '.tables["nvidia.gpu_busy"][] | select(.pid == $pid) |
		"dev=\(.cuda_device) kernel=\(.kernel_ns_total) copy=\(.copy_ns_total) busy=\(.busy_ns_total) disordered=\(.disordered_total)"' |
		LC_ALL=C sort
}
check "top: nvidia.gpu_busy: per device, kernel and copy time exact, the disordered copies counted ($(busy_rows top | tr '\n' ' '))" \
	test "$(busy_rows top)" = "$(busy_want 2000 50)"
touch "$T/top.done"

echo "== overlapping kernels: a device's busy time is their union"
# kernel i runs 25,000 + i ns from 1,000,000 + 10,000 i on device i % 2: each overlaps its device's next.
# The program starts after the monitor's first snapshot, so its records come after the read that
# primes the counters (records before it are in no interval: a loaded machine's slow start lost them)
PORT=$((20000 + $$ % 20000))
bg_monitor overlap --listen "127.0.0.1:$PORT"
client overlap FAKE_CUPTI_KERNELS=40 FAKE_CUPTI_KERNEL_NS=25000 FAKE_CUPTI_HOLD=1
until_in "$T/overlap.calls" 'cuptiActivityFlushAll 0'
for _ in $(seq 100); do grep -q '"kernel_ns_total":500380' "$T/overlap.json" && break; sleep 0.05; done
snapshots_more overlap 1
curl -s "http://127.0.0.1:$PORT/metrics" >"$T/overlap.metrics"
kill -INT "$MPID"
wait "$MPID"
check "overlap: the monitor exited 0" test "$?" = 0
check "overlap: each device busy from its first kernel's start to its last's end, the overlaps once ($(busy_rows overlap | tr '\n' ' '))" \
	test "$(busy_rows overlap)" = "$(printf 'dev=0 kernel=500380 copy=0 busy=405038 disordered=0\ndev=1 kernel=500400 copy=0 busy=405039 disordered=0')"
shares=$(jq -c -s '[.[].tables["nvidia.gpu_busy"][]? | select(.kernel_share_pct != null) |
	"\(.pid == '"$CPID"'):\(.cuda_device):\(.kernel_share_pct)"]' "$T/overlap.json")
check "overlap: its kernels' share of each device's kernel time 100 % where it ran this interval (this:device:share $shares)" \
	jq -e -s --argjson pid "$CPID" '[.[].tables["nvidia.gpu_busy"][]? | select(.pid == $pid and .kernel_share_pct != null) |
	.kernel_share_pct] | length > 0 and all(. == 100)' "$T/overlap.json"
kernel_s=$(grep -E "^gputop_nvidia_gpu_busy_kernel_seconds_total\{[^}]*pid=\"$CPID\"" "$T/overlap.metrics" |
	grep -oE 'cuda_device="[0-9]+".* [0-9.e+-]+$' | sed -E 's/cuda_device="([0-9]+)".* /\1 /' | LC_ALL=C sort | tr '\n' ' ')
check "overlap: the metrics' per-process kernel seconds per device, no kernel name in a label ($kernel_s)" \
	bash -c "test '$kernel_s' = '0 0.00050038 1 0.0005004 ' && ! grep -q 'gpu_busy.*kernel=' '$T/overlap.metrics'"
touch "$T/overlap.done"

echo "== gputop-bpf first, the program after: found by the monitor's rescan"
bg_monitor after
client after FAKE_CUPTI_KERNELS=8
until_in "$T/after.calls" 'cuptiActivityFlushAll 0' # on, and its records asked for
for _ in $(seq 200); do grep -q "\"pid\":$CPID," "$T/after.json" && break; sleep 0.05; done # a loaded machine: later
snapshots_more after 2
kill -INT "$MPID"
wait "$MPID"
check "after: the monitor exited 0" test "$?" = 0
check "after: woken by the monitor's rescan, its 8 kernels in nvidia.gpu_time" jq -e -s --argjson pid "$CPID" \
	'last | [.tables["nvidia.gpu_time"][] | select(.pid == $pid) | .count_total] | add == 8' "$T/after.json"
touch "$T/after.done"

echo "== a program that exits while watched: its last records flushed at exit, shown once, then gone"
bg_monitor exit
client gone FAKE_CUPTI_KERNELS=8 FAKE_CUPTI_HOLD=1
until_in "$T/gone.calls" 'cuptiActivityEnable 2'
touch "$T/gone.done" # exits at once: the held buffer goes out only in its exit's flush
wait "$CPID"
snapshots_more exit 3
kill -INT "$MPID"
wait "$MPID"
check "exit: the monitor exited 0" test "$?" = 0
check "exit: one snapshot after the exit shows its 8 kernels" jq -e -s --argjson pid "$CPID" \
	'map([.tables["nvidia.gpu_time"][] | select(.pid == $pid) | .count_total] | add) | map(select(. == 8)) | length == 1' \
	"$T/exit.json"
check "exit: the last snapshot has none of its rows" jq -e -s --argjson pid "$CPID" \
	'last | [.tables["nvidia.gpu_time"][] | select(.pid == $pid)] | length == 0' "$T/exit.json"
echo "== --stacks-weight gpu-time: each kernel's GPU time on the CPU stack that launched it (joined by correlation id)"
# tests/cuda/cuda-client.c's 2 processes launch 40 i times from each of 4 call chains (process i); the
# stand-in CUPTI gives launch function w's kernels (w + 1) * 1000 ns and 300 ns queued -> start. The
# program runs first (dormant), the monitor with --stacks wakes its activity and launch callbacks.
J=$T/join
mkdir -p "$J"
env CUDA_INJECTION64_PATH="$LIB" LD_LIBRARY_PATH="$B/cupti-fake:$B/cuda" FAKE_CUPTI_CALLS="$J/calls" \
	FAKE_CUDA_SYNC_US=100 "$B/cuda/cuda-client" 2 "$J/gate" "$J/done" >"$J/client" 2>"$J/client.err" &
CPID=$!
PIDS+=($CPID)
sleep 0.3
"$GPUTOP" -b -J -d 0.25 --stacks "$J/gpu.folded" --stacks-weight gpu-time --trace "$J/t.pftrace" >"$T/join.json" \
	2>"$J/err" &
MPID=$!
PIDS+=($MPID)
first_snapshot "$T/join.json"
for _ in $(seq 300); do [ "$(grep -c 'cuptiEnableCallback 1 1 478' "$J/calls" 2>/dev/null)" = 2 ] && break; sleep 0.02; done
check "join: both processes' launch callbacks enabled by the monitor's launch probe" \
	test "$(grep -c 'cuptiEnableCallback 1 1 \(307\|442\|652\|653\|477\|478\)$' "$J/calls")" = 12
touch "$J/gate"
for _ in $(seq 200); do [ "$(wc -l <"$J/client")" -ge 2 ] && break; sleep 0.05; done
touch "$J/done"
wait "$CPID" # their exits flush the records still in CUPTI's buffers
check "join: the clients exited 0" test "$?" = 0
snapshots_more join 2
kill -INT "$MPID"
wait "$MPID"
check "join: the monitor exited 0" test "$?" = 0
JROOT="cuda-client;_start;__libc_start_main@GLIBC_2.2.5;__libc_start_call_main;main;child"
for chain in "phase_a;cuLaunchKernel;kernel_a\(\) 120000" "phase_a;cuLaunchKernel_ptsz;ns::kernel_b\(int\) 240000" \
	"phase_b;cuLaunchKernelEx;ns::kernel_b\(int\) 360000" "phase_b;cuLaunchKernelEx_ptsz;\[kernel 0x0\] 480000"; do
	check "join: the folded file's line $JROOT;$chain ns (120 launches of (w + 1) us each)" \
		grep -qE "^$JROOT;$chain\$" "$J/gpu.folded"
done
check "join: 4 lines in all, 1,200,000 ns of GPU time ($(awk '{ s += $NF } END { print s }' "$J/gpu.folded"))" \
	test "$(wc -l <"$J/gpu.folded") $(awk '{ s += $NF } END { print s }' "$J/gpu.folded")" = "4 1200000"
check "join: -J's last nvidia.stacks rows: each key's GPU time and queued -> start (300 ns a kernel) with its launches" \
	jq -e -s '[.[-1].tables["nvidia.stacks"][] | select(.comm == "cuda-client")] | length == 8 and
	(map(.gpu_time_ns) | add) == 1200000 and all(.queue_wait_ns == 300 * .count) and
	all(.gpu_time_ns == .count * 1000 * (if (.frames | test("Ex_ptsz$")) then 4 elif (.frames | test("Ex$")) then 3
		elif (.frames | test("_ptsz$")) then 2 else 1 end))' "$T/join.json"
check "join: no kernel without its stack, nothing lost ($(jq -s -c '.[-1].collectors[] | select(.name == "nvidia") | .drops |
	with_entries(select(.key | startswith("gpu_time")))' "$T/join.json"))" \
	jq -e -s '.[-1].collectors[] | select(.name == "nvidia") | .drops | with_entries(select(.key | startswith("gpu_time"))) |
	length == 5 and all(.[]; . == 0)' "$T/join.json"
check "join: nvidia.gpu_time names the C++ kernel demangled: launched_3(), 120 of them" jq -e -s \
	'map([.tables["nvidia.gpu_time"][] | select(.kernel == "launched_3()") | .count_total] | add // 0) | max == 120' \
	"$T/join.json"
check "join: the end line says the weight in ns" grep -qE "^gputop-bpf: stacks '.*': 4 stacks, weight gpu-time 1200000 ns" "$J/err"
echo "== --trace: each kernel a slice on its CUDA device's stream, on the CPU's clock"
# The stand-in's clock is CLOCK_REALTIME; each kernel starts 20 us after its launch on it, or 1 us
# after its device's last one ends: on the trace's clock (the wall clock, as CLOCK_MONOTONIC moved
# to it) no earlier than its launch, and within 2 ms of it on this idle machine.
if command -v protoc >/dev/null; then
	tests/perfetto/kernels.sh "$J/t.pftrace" >"$J/kernels" 2>"$J/kernels.err"
	check "trace: 480 kernel slices, each its launch function's (w + 1) us, queued 300 ns before ($(grep -c '^kernel' "$J/kernels"))" \
		test "$(awk -F'\t' '$1 == "kernel" && $7 == 300 && $6 == 1000 * ($4 == "launched_0" ? 1 : $4 == "launched_1" ? 2 : \
			$4 == "launched_2" ? 3 : $4 == "launched_3()" ? 4 : 0)' "$J/kernels" | wc -l)" = 480
	check "trace: named as launched (C++ names demangled), on the tracks 'GPU cuda0' and 'GPU cuda1' > 'cuda-client PID stream 7'" \
		test "$(awk -F'\t' '$1 == "kernel" { print $2 "/" ($3 ~ /^cuda-client [0-9]+ stream 7$/) "/" $4 }' "$J/kernels" |
			sort | uniq -c | sed 's/^ *//' | tr '\n' ' ')" = \
		"120 GPU cuda0/1/launched_0 120 GPU cuda0/1/launched_1 120 GPU cuda1/1/launched_2 120 GPU cuda1/1/launched_3() "
	# a flow from each launch whose correlation id came (all but each process's first: its id comes
	# after its instant was written) to its kernel's slice, which starts 20 us after it on the stand-in's
	# clock, or later behind its device's last kernel: on the trace's, none before 19 us (the clocks'
	# bound and more), half within 100 us (the launch call's own time; a busy machine delays some)
	awk -F'\t' 'NR == FNR { if ($1 == "launch") at[$6] = $5; next } $1 == "kernel" && $9 in at {
		print substr($5, length($5) - 11) - substr(at[$9], length(at[$9]) - 11) }' "$J/kernels" "$J/kernels" |
		sort -n >"$J/flows"
	check "trace: 478 flows from launches to their kernels' slices, starting 19 us after them or later, half within 100 us ($(head -1 "$J/flows"), $(awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }' "$J/flows"), $(tail -1 "$J/flows") ns: min, p50, max)" \
		test "$(grep -c '^launch' "$J/kernels")/$(wc -l <"$J/flows")/$(awk '$1 >= 19000' "$J/flows" | wc -l)/$(awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] <= 100000 }' "$J/flows")" = 478/478/478/1
	check "trace: the end line says how many and the clock's bound" \
		grep -qE "^gputop-bpf: trace '.*': 480 CUDA kernels and copies written, their GPU times placed on the CPU's clock within [0-9]+ ns" "$J/err"
else
	skip "trace: protoc is missing (make deps installs protobuf-compiler)"
fi
finish
