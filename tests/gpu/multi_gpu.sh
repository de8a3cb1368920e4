#!/usr/bin/env bash
# The NVIDIA collector on a host with two (or more) NVIDIA GPUs and PyTorch (issue 29): per
# process and CUDA device (nvidia.process_gpus), for
#  1. one process with tensors on cuda:0 and cuda:1 (tests/gpu/multi_gpu_workload.py): launches
#     within 1 % of each device's known loop, device memory within 10 % of
#     torch.cuda.memory_reserved(device), synchronisation time seen on both devices (and within
#     20 % of what the workload measures on each), each device placed on the NVML GPU whose bus id
#     libcuda gave the process (cuDeviceGetPCIBusId), as nvidia-smi numbers that bus;
#  2. where torch.distributed has NCCL and torchrun is there: two processes
#     (torchrun --nproc_per_node=2, tests/gpu/ddp_workload.py), rank r on cuda:r: its launches
#     within 1 % of its loop on its device, NCCL's all-reduces seen as sync time on both GPUs,
#     the two ranks on two different GPUs where their GPU is known.
# The monitor records the whole run (-b -J -d 0.5, --record).
# Usage: tests/gpu/multi_gpu.sh BINARY OUTDIR   (root; skips loudly without 2 GPUs or PyTorch)
# OUTDIR keeps the evidence: the monitor's JSON and recording, the workloads' lines, the
# snapshots at each step, nvidia-smi's GPUs, evidence.json.
set -u
SUITE="multi-GPU tests"
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
BIN=$(readlink -f "$1")
OUT=${2:-$(mktemp -d)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
PY=${PYTHON:-python3}
N0=20000 # launches on cuda:0
N1=30000 # on cuda:1: another number, so that a swap of the devices shows
SYNCS=50
DDP_N=20000
DDP_K=20

needs_root_and_jq "needs root (BPF programs, uprobes on libcuda)"
if [ ! -e /dev/nvidiactl ]; then skip "no NVIDIA GPU here (/dev/nvidiactl missing)"; finish; exit; fi
if ! "$PY" -c 'import torch, sys; sys.exit(not torch.cuda.is_available())' 2>/dev/null; then
	skip "no PyTorch with CUDA for $PY"; finish; exit
fi
NGPUS=$("$PY" -c 'import torch; print(torch.cuda.device_count())')
if [ "$NGPUS" -lt 2 ]; then skip "fewer than 2 CUDA devices ($NGPUS)"; finish; exit; fi
: >"$OUT/per_device.txt"
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
nvidia-smi --query-gpu=index,pci.bus_id,name --format=csv,noheader >"$OUT/smi.gpus.csv" 2>&1
echo "       GPUs (nvidia-smi): $(tr '\n' ';' <"$OUT/smi.gpus.csv")"

"$BIN" --list >"$OUT/list.txt" 2>&1
check "--list: nvidia attached" grep -q '^nvidia: attached' "$OUT/list.txt"
for fn in cuLaunchKernel cuCtxSetCurrent cuDevicePrimaryCtxRetain cuCtxPushCurrent_v2 cuCtxPopCurrent_v2 \
	cuCtxGetDevice cuDeviceGetPCIBusId cuCtxSynchronize cuMemAlloc_v2; do
	check "--list: libcuda:$fn attached" grep -qE "^  attached +libcuda:$fn " "$OUT/list.txt"
done

"$BIN" -b -J -d 0.5 --record "$OUT/recording.jsonl" >"$OUT/monitor.jsonl" 2>"$OUT/monitor.err" &
MON=$!
for _ in $(seq 100); do [ -s "$OUT/monitor.jsonl" ] && break; sleep 0.1; done
sleep 1

# gpus PID: the last complete snapshot's nvidia.process_gpus rows of process PID, by cuda_device
gpus() {
	tail -n 2 "$OUT/monitor.jsonl" | head -n 1 | jq -c --argjson pid "$1" \
		'[.tables["nvidia.process_gpus"][]? | select(.pid == $pid)] | map({key: .cuda_device, value: .}) | from_entries'
}
# nvml_index BUS: nvidia-smi's index of the GPU at PCI address BUS (domain width and case aside)
nvml_index() {
	local want
	want=$(tr 'a-z' 'A-Z' <<<"${1#*:}")
	awk -F', ' -v b="$want" '{ x = toupper($2); sub(/^[0-9A-F]*:/, "", x); if (x == b) print $1 }' "$OUT/smi.gpus.csv"
}
within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { exit !(b > 0 && a >= b * (1 - t) && a <= b * (1 + t)) }'; }

# ---- 1. one process on both GPUs ----
"$PY" "$HERE/multi_gpu_workload.py" "$OUT/gate" $N0 $N1 $SYNCS >"$OUT/workload.jsonl" 2>"$OUT/workload.err" &
WL=$!
PID=
for step in ready launched allocated freed synced; do
	for _ in $(seq 900); do grep -q "\"step\": \"$step\"" "$OUT/workload.jsonl" && break; sleep 0.1; done
	PID=$(head -n 1 "$OUT/workload.jsonl" | jq .pid)
	sleep 1.2 # two snapshots after the step
	gpus "$PID" >"$OUT/snap.$step.json"
	[ $step = allocated ] && tail -n 2 "$OUT/monitor.jsonl" | head -n 1 >"$OUT/snap.nvml.json"
	touch "$OUT/gate.$step"
done
wait $WL
check "workload exited 0" test $? -eq 0

w() { grep "\"step\": \"$1\"" "$OUT/workload.jsonl" | jq -r "$2"; }
s() { jq -r "$2 // 0" "$OUT/snap.$1.json"; }
for d in 0 1; do
	n=$(w launched ".n[\"$d\"]")
	launched=$(( $(s launched ".[\"$d\"].launches_total") - $(s ready ".[\"$d\"].launches_total") ))
	mem=$(s allocated ".[\"$d\"].mem_bytes")
	reserved=$(w allocated ".reserved[\"$d\"]")
	sync_mon=$(( $(s synced ".[\"$d\"].sync_ns_total") - $(s freed ".[\"$d\"].sync_ns_total") ))
	sync_wl=$(w synced ".sync_ns[\"$d\"]")
	bus=$(w ready ".bus[\"$d\"]")
	smi=$(nvml_index "$bus")
	echo "       cuda:$d: launches $launched counted for $n made; memory $mem counted, PyTorch reserved $reserved;" \
		"sync ${sync_mon} ns counted, ${sync_wl} ns measured; bus $bus (nvidia-smi GPU ${smi:-?});" \
		"row $(jq -c --arg d $d '.[$d] | {gpu, bus_id, gpu_from}' "$OUT/snap.synced.json")"
	check "cuda:$d: launches within 1 % of $n ($launched)" within "$launched" "$n" 0.01
	check "cuda:$d: device memory within 10 % of torch.cuda.memory_reserved($d) ($mem vs $reserved)" \
		within "$mem" "$reserved" 0.10
	check "cuda:$d: sync time seen ($sync_mon ns)" test "$sync_mon" -gt 0
	check "cuda:$d: sync time within 20 % of the workload's ($sync_mon vs $sync_wl)" within "$sync_mon" "$sync_wl" 0.20
	check "cuda:$d: placed on NVML's GPU ${smi:-?} (bus $bus), from cuDeviceGetPCIBusId" \
		jq -e --arg d $d --argjson g "${smi:-null}" '.[$d] | .gpu == $g and .gpu_from == "cuDeviceGetPCIBusId"' "$OUT/snap.synced.json"
	ioc=$(jq -c --arg d $d '.[$d] | {ioctls_total, nvml_mem_bytes, mem_bytes}' "$OUT/snap.allocated.json")
	echo "       cuda:$d at the allocated step: $ioc"
	check "cuda:$d: its ioctls on that GPU's own device file counted (calls joined by the GPU's minor)" \
		jq -e '.ioctls_total > 0' <<<"$ioc"
	check "cuda:$d: NVML's memory of it on that GPU beside the uprobes', at least theirs (a context's own added)" \
		jq -e '.nvml_mem_bytes != null and .nvml_mem_bytes >= .mem_bytes' <<<"$ioc"
	echo "$d $launched $n $mem $reserved $sync_mon $sync_wl ${smi:-null}" >>"$OUT/per_device.txt"
done
# NVLink per GPU: known exactly where nvidia-smi lists an active link of that GPU, unknown elsewhere
nvidia-smi nvlink -s >"$OUT/smi.nvlink.txt" 2>&1
links() { awk -v g="GPU $1:" 'index($0, g) == 1 { on = 1; next } /^GPU / { on = 0 } on && /Link [0-9]+: [0-9.]+ GB\/s/ { n++ } END { print n + 0 }' "$OUT/smi.nvlink.txt"; }
for g in 0 1; do
	nl=$(tail -n 2 "$OUT/monitor.jsonl" | head -n 1 | jq -c --argjson g $g '.tables["nvidia.gpus"][] | select(.gpu == $g) | {gpu, minor, nvlink_tx_bytes_per_s, nvlink_rx_bytes_per_s}')
	echo "       GPU $g: active NVLinks per nvidia-smi: $(links $g); the monitor: $nl"
	check "GPU $g: NVLink throughput known exactly where nvidia-smi lists an active link ($(links $g))" \
		jq -e --argjson n "$(links $g)" 'if $n > 0 then .nvlink_tx_bytes_per_s != null else .nvlink_tx_bytes_per_s == null end' <<<"$nl"
	check "GPU $g: its minor number known" jq -e '.minor != null' <<<"$nl"
done
unk=$(( $(s launched '.unknown.launches_total') - $(s ready '.unknown.launches_total') ))
check "none of the loops' launches under an unknown device ($unk)" test "$unk" -lt $(( (N0 + N1) / 100 ))
check "the two devices on two different GPUs" \
	jq -e '.["0"].gpu != null and .["1"].gpu != null and .["0"].gpu != .["1"].gpu' "$OUT/snap.synced.json"

# ---- 2. two processes with NCCL ----
DDP=no
TORCHRUN=$(command -v torchrun || true)
if [ -z "$TORCHRUN" ] || ! "$PY" -c 'import torch.distributed as d, sys; sys.exit(not (d.is_available() and d.is_nccl_available()))' 2>/dev/null; then
	skip "DDP: no torchrun, or torch.distributed without NCCL"
else
	DDP=yes
	"$TORCHRUN" --standalone --nproc_per_node=2 "$HERE/ddp_workload.py" "$OUT/ddp.gate" "$OUT/ddp" $DDP_N $DDP_K \
		>"$OUT/ddp.out" 2>"$OUT/ddp.err" &
	TR=$!
	for step in ready launched reduced; do
		for _ in $(seq 1200); do
			[ "$(cat "$OUT"/ddp.rank*.jsonl 2>/dev/null | grep -c "\"step\": \"$step\"")" -ge 2 ] && break
			sleep 0.1
		done
		sleep 1.2
		for r in 0 1; do
			p=$(head -n 1 "$OUT/ddp.rank$r.jsonl" 2>/dev/null | jq .pid)
			gpus "${p:-0}" >"$OUT/ddp.snap.$step.rank$r.json"
		done
		touch "$OUT/ddp.gate.$step"
	done
	wait $TR
	check "DDP: torchrun exited 0" test $? -eq 0
	for r in 0 1; do
		f=$OUT/ddp.snap
		launched=$(( $(jq ".[\"$r\"].launches_total // 0" "$f.launched.rank$r.json") - $(jq ".[\"$r\"].launches_total // 0" "$f.ready.rank$r.json") ))
		sync_mon=$(( $(jq ".[\"$r\"].sync_ns_total // 0" "$f.reduced.rank$r.json") - $(jq ".[\"$r\"].sync_ns_total // 0" "$f.launched.rank$r.json") ))
		sync_wl=$(grep '"step": "reduced"' "$OUT/ddp.rank$r.jsonl" | jq .sync_ns)
		echo "       DDP rank $r (cuda:$r): launches $launched counted for $DDP_N; NCCL sync ${sync_mon} ns counted," \
			"${sync_wl} ns measured; rows $(jq -c 'map_values({launches_total, mem_bytes, sync_ns_total, gpu, gpu_from})' "$f.reduced.rank$r.json")"
		check "DDP rank $r: launches on cuda:$r within 1 % of $DDP_N ($launched)" within "$launched" $DDP_N 0.01
		check "DDP rank $r: NCCL's all-reduces seen as sync time on cuda:$r ($sync_mon ns)" test "$sync_mon" -gt 0
		echo "ddp $r $launched $DDP_N $sync_mon ${sync_wl:-0}" >>"$OUT/per_device.txt"
	done
	g0=$(jq '.["0"].gpu' "$OUT/ddp.snap.reduced.rank0.json")
	g1=$(jq '.["1"].gpu' "$OUT/ddp.snap.reduced.rank1.json")
	if [ "$g0" != null ] && [ "$g1" != null ]; then
		check "DDP: the two ranks on two different GPUs ($g0, $g1)" test "$g0" != "$g1"
	else
		skip "DDP: a rank's GPU unknown (NCCL did not ask cuDeviceGetPCIBusId while the monitor ran): $g0, $g1"
	fi
	# NCCL's all-reduces go over NVLink where the GPUs have it: traffic seen on both, tx as rx
	nvl=$(jq -s -c '[.[] | .tables["nvidia.gpus"][]? | select(.nvlink_tx_bytes_per_s != null)] | group_by(.gpu) | map({gpu: .[0].gpu, max_tx: (map(.nvlink_tx_bytes_per_s) | max), max_rx: (map(.nvlink_rx_bytes_per_s) | max)})' "$OUT/monitor.jsonl")
	if [ "$(links 0)" -gt 0 ] && [ "$(links 1)" -gt 0 ]; then
		check "DDP: NVLink traffic on both GPUs while NCCL ran ($nvl)" \
			jq -e 'length == 2 and all(.max_tx > 0 and .max_rx > 0)' <<<"$nvl"
	else
		skip "DDP: the GPUs have no active NVLink (nvidia-smi nvlink -s): $nvl"
	fi
fi

sleep 1
kill -INT $MON
wait $MON
check "monitor exited 0" test $? -eq 0
check "nothing lost (the nvidia collector's drops, nested calls aside)" \
	jq -e -s '.[-1].collectors[] | select(.name == "nvidia") | .drops | del(.nested_calls_not_counted) | all(.[]; . == 0)' "$OUT/monitor.jsonl"
jq -s -c '.[-1].collectors[] | select(.name == "nvidia") | .drops' "$OUT/monitor.jsonl" | sed 's/^/       drops: /'

jq -n --arg cmd "tests/gpu/multi_gpu.sh $1 OUTDIR" --argjson pid "${PID:-0}" --arg ddp "$DDP" \
	--rawfile per "$OUT/per_device.txt" --rawfile smi "$OUT/smi.gpus.csv" \
	--arg driver "$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)" \
	--arg kernel "$(uname -r)" --arg torch "$("$PY" -c 'import torch; print(torch.__version__)')" \
	--argjson passed "$PASS" --argjson failed "$FAIL" --argjson skipped "$SKIP" \
	'{command: $cmd, driver: $driver, kernel: $kernel, torch: $torch, gpus: ($smi | rtrimstr("\n") | split("\n")),
	  one_process: {pid: $pid, per_device: [$per | split("\n")[] | select(test("^[0-9]")) | split(" ") |
		map(tonumber? // null) |
		{cuda_device: .[0], launches: {counted: .[1], made: .[2]}, mem_bytes: {counted: .[3], torch_reserved: .[4]},
		 sync_ns: {counted: .[5], measured: .[6]}, nvml_gpu: .[7]}]},
	  ddp: {ran: $ddp, ranks: [$per | split("\n")[] | select(startswith("ddp ")) | split(" ") |
		.[1:] | map(tonumber? // null) |
		{rank: .[0], launches: {counted: .[1], made: .[2]}, sync_ns: {counted: .[3], measured: .[4]}}]},
	  checks: {passed: $passed, failed: $failed, skipped: $skipped}}' >"$OUT/evidence.json"
finish
