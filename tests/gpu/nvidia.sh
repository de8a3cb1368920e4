#!/usr/bin/env bash
# The NVIDIA collector on a real NVIDIA GPU with PyTorch (the device machine of DESIGN.md):
# per process launches within 1 % of a known loop, device memory within 10 % of PyTorch's
# reserved memory (and back near zero after it frees), time blocked in synchronisation
# within 20 % of what the workload measures, ioctls counted for its PID, NVML's memory,
# and the slowdown of a launch-bound loop under the monitor (< 10 %).
# Usage: tests/gpu/nvidia.sh BINARY [OUTDIR]   (root; skips loudly without a GPU or PyTorch)
# OUTDIR keeps the evidence: the monitor's JSON, the workload's lines, evidence.json.
set -u
SUITE="nvidia gpu tests"
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
BIN=$(readlink -f "$1")
OUT=${2:-$(mktemp -d)}
mkdir -p "$OUT"
PY=${PYTHON:-python3}
N=20000
SYNCS=50

if [ "$(id -u)" != 0 ]; then skip "needs root"; finish; exit; fi
if [ ! -e /dev/nvidiactl ]; then skip "no NVIDIA GPU here (/dev/nvidiactl missing)"; finish; exit; fi
if ! "$PY" -c 'import torch, sys; sys.exit(not torch.cuda.is_available())' 2>/dev/null; then
	skip "no PyTorch with CUDA for $PY"; finish; exit
fi
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null

"$BIN" --list >"$OUT/list.txt" 2>&1
check "--list: nvidia attached" grep -q '^nvidia: attached' "$OUT/list.txt"
for fn in cuLaunchKernel cuLaunchKernelEx cuMemAlloc_v2 cuMemFree_v2 cuCtxSynchronize; do
	check "--list: libcuda:$fn attached" grep -qE "^  attached +libcuda:$fn " "$OUT/list.txt"
done
check "--list: ioctl tracepoints attached" grep -qE '^  attached +syscalls:sys_enter_ioctl' "$OUT/list.txt"
check "--list: nvidia:nvidia_dev_xid attached" grep -qE '^  attached +nvidia:nvidia_dev_xid' "$OUT/list.txt"

# The last complete snapshot's row of process $1 (the line being written may be partial).
row() {
	tail -n 2 "$OUT/monitor.jsonl" | head -n 1 |
		jq -c --argjson pid "$1" '.tables["nvidia.processes"][] | select(.pid == $pid)'
}

"$BIN" -b -J -d 0.5 --record "$OUT/recording.jsonl" --stacks "$OUT/stacks.folded" >"$OUT/monitor.jsonl" 2>"$OUT/monitor.err" &
MON=$!
for _ in $(seq 100); do [ -s "$OUT/monitor.jsonl" ] && break; sleep 0.1; done
# the calls collector's gate closes while no other process has a GPU file open (two censuses 5
# ticks apart); the interface and the workload below open it again by their first open, and
# their ioctls must still agree in both collectors (below)
for _ in $(seq 150); do tail -n 2 "$OUT/monitor.jsonl" | head -n 1 | grep -q 'idle: no GPU file open' && break; sleep 0.1; done
echo "       calls collector before the workload: $(tail -n 2 "$OUT/monitor.jsonl" | head -n 1 | jq -r '.collectors[] | select(.name == "calls") | .detail')"
# the interface too, live beside the batch monitor: its Overview is read at the allocated step
TUI=
if command -v tmux >/dev/null; then
	TUI="tmux -S $OUT/tmux.sock"
	$TUI -f /dev/null new-session -d -s t -x 160 -y 40 "$BIN -d 0.5"
fi
"$PY" "$HERE/torch_workload.py" "$OUT/gate" $N $SYNCS >"$OUT/workload.jsonl" 2>"$OUT/workload.err" &
WL=$!
PID=
for step in ready launched allocated freed synced; do
	for _ in $(seq 600); do grep -q "\"step\": \"$step\"" "$OUT/workload.jsonl" && break; sleep 0.1; done
	PID=$(head -n 1 "$OUT/workload.jsonl" | jq .pid)
	sleep 1.2 # two snapshots after the step
	row "$PID" >"$OUT/snap.$step.json"
	if [ $step = allocated ]; then # NVML's view beside nvidia-smi's, the same moment
		tail -n 2 "$OUT/monitor.jsonl" | head -n 1 >"$OUT/snap.nvml.json"
		nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits >"$OUT/smi.apps.csv" 2>&1
		[ -n "$TUI" ] && $TUI capture-pane -p -t t >"$OUT/overview-live.txt"
		nvidia-smi --query-gpu=index,memory.used,temperature.gpu,power.draw,enforced.power.limit,clocks.gr,clocks.sm,clocks.mem \
			--format=csv,noheader,nounits >"$OUT/smi.gpu.csv" 2>&1
	fi
	touch "$OUT/gate.$step"
done
wait $WL
check "workload exited 0" test $? -eq 0
# then the GPU busy half the time (0.25 s of matrix products, 0.25 s idle) for 4 s: NVML's samples
# over each interval must read about half, in percent (not a share of one, nor per mille)
"$PY" "$HERE/duty_workload.py" 4 >"$OUT/duty.json" 2>"$OUT/duty.err"
check "duty workload exited 0" test $? -eq 0
sleep 1
kill -INT $MON
wait $MON
check "monitor exited 0" test $? -eq 0
# --stacks: every launch of the python3 processes under one of their stacks; frames of PyTorch's own
py_launched=$(jq -s '[.[].tables["nvidia.processes"][]? | select(.comm == "python3")] | group_by(.pid) | map(max_by(.launches_total).launches_total) | add // 0' "$OUT/monitor.jsonl")
py_stacked=$(awk '/^python3;/ { s += $NF } END { print s + 0 }' "$OUT/stacks.folded" 2>/dev/null)
echo "       --stacks: $(wc -l <"$OUT/stacks.folded" 2>/dev/null) lines; python3 launches $py_launched counted, $py_stacked in the stacks; the heaviest:"
sort -t' ' -k2 -n -r "$OUT/stacks.folded" 2>/dev/null | awk '{ print $NF, $0 }' | sort -rn | head -3 | cut -c1-400 | sed 's/^/         /'
check "--stacks: the python3 processes' launches all in the stacks file ($py_launched)" test "$py_launched" -gt 0 -a "$py_stacked" = "$py_launched"
check "--stacks: the workload's $N additions under PyTorch's own frames (at::native::add_kernel ... cuLaunchKernel)" \
	awk -v n=$N '/^python3;.*at::native::add_kernel.*;cuLaunchKernel;/ { s += $NF } END { exit !(s >= n) }' "$OUT/stacks.folded"
[ -n "$TUI" ] && $TUI kill-server 2>/dev/null

w() { grep "\"step\": \"$1\"" "$OUT/workload.jsonl" | jq "$2"; }
s() { jq "$2" "$OUT/snap.$1.json"; }
launched=$(( $(s launched .launches_total) - $(s ready .launches_total) ))
mem_alloc=$(s allocated .mem_bytes); res_alloc=$(w allocated .reserved)
mem_freed=$(s freed .mem_bytes); res_freed=$(w freed .reserved)
sync_mon=$(( $(s synced .sync_ns_total) - $(s freed .sync_ns_total) )); sync_wl=$(w synced .sync_ns)
ioctls=$(s synced .ioctls_total)
echo "       pid $PID: launches $launched counted for $N made"
echo "       device memory: $mem_alloc counted, PyTorch reserved $res_alloc; after freeing $mem_freed vs $res_freed"
echo "       synchronisation: ${sync_mon} ns counted, ${sync_wl} ns measured by the workload over $SYNCS calls"
echo "       ioctls: $ioctls"
check "launches within 1 % of $N ($launched)" awk -v a="$launched" -v b=$N 'BEGIN { exit !(a >= b * 0.99 && a <= b * 1.01) }'
check "device memory within 10 % of reserved ($mem_alloc vs $res_alloc)" awk -v a="$mem_alloc" -v b="$res_alloc" 'BEGIN { exit !(b > 0 && a >= b * 0.9 && a <= b * 1.1) }'
check "after freeing, within 10 % of the peak of what PyTorch still reserves ($mem_freed vs $res_freed)" \
	awk -v a="$mem_freed" -v b="$res_freed" -v p="$res_alloc" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= p * 0.1) }'
check "the workload's waits about 2 ms each, the probes' own cost small beside them ($sync_wl ns over $SYNCS)" \
	awk -v a="$sync_wl" -v n=$SYNCS 'BEGIN { exit !(a >= n * 1000000) }'
check "sync time within 20 % ($sync_mon vs $sync_wl)" awk -v a="$sync_mon" -v b="$sync_wl" 'BEGIN { exit !(b > 0 && a >= b * 0.8 && a <= b * 1.2) }'
check "ioctls counted for the workload's PID ($ioctls)" test "$ioctls" -gt 0
# its GPU kernels: every launch under one of them (named or not), and the names PyTorch asked for
kern=$(jq -s -c --argjson pid "$PID" '[.[] | select([.tables["nvidia.kernels"][]? | select(.pid == $pid)] | length > 0)] | last |
	{launches: ([.tables["nvidia.processes"][] | select(.pid == $pid) | .launches_total][0]),
	 kernels: [.tables["nvidia.kernels"][] | select(.pid == $pid) | {kernel, launches_total}]}' "$OUT/monitor.jsonl")
echo "       the workload's kernels: $(jq -c '.kernels | sort_by(-.launches_total) | .[:4]' <<<"$kern")"
check "kernels: the workload's launches all under its kernels ($(jq .launches <<<"$kern") in all)" \
	jq -e '.launches > 0 and ([.kernels[].launches_total] | add) == .launches' <<<"$kern"
check "kernels: named as PyTorch asked for them (an at:: kernel among those launched)" \
	jq -e '[.kernels[] | select(.launches_total > 0 and (.kernel | test("^at::|^void at::|at::native")))] | length > 0' <<<"$kern"
# one count of ioctls in both collectors: the nvidia collector's per process and the calls
# collector's per command, summed over NVIDIA's devices; the monitor's own (NVML's) counted by
# neither: they are the monitor's cost, not GPU work, and its open files would hold the calls
# collector's gate open
agree='[.tables as $t | $t["nvidia.processes"][]? | select(.pid == $pid) | .ioctls_total as $nv |
	([$t["calls.ioctls"][]? | select(.pid == $pid and .driver == "nvidia") | .calls_total] | add // 0) as $calls |
	{nv: $nv, calls: $calls}]'
mon_pid=$(jq -s '.[-1].tables["self.process"][0].pid // empty' "$OUT/monitor.jsonl")
check "ioctls: the monitor's own ($mon_pid) in neither nvidia.processes nor calls.ioctls" \
	jq -e -s --argjson pid "${mon_pid:-0}" '$pid > 0 and ([.[] | (.tables["nvidia.processes"][]?, .tables["calls.ioctls"][]?) | select(.pid == $pid)] | length == 0)' "$OUT/monitor.jsonl"
# the last snapshot with its calls rows (a process gone is shown once more, then left out)
last_agree=$(jq -s -c --argjson pid "$PID" "[.[] | select([.tables[\"calls.ioctls\"][]? | select(.pid == \$pid)] | length > 0)] | last | $agree" "$OUT/monitor.jsonl")
check "ioctls: the workload's ($PID) once it exited, the same in both ($last_agree)" \
	jq -e -n --argjson a "$last_agree" '$a | length == 1 and .[0].nv == .[0].calls and .[0].nv > 0'
if grep -qE '^  attached +nvml:' "$OUT/list.txt"; then
	check "NVML: every GPU with its memory total" jq -e -s '.[-1].tables["nvidia.gpus"] | length > 0 and all(.mem_total_bytes > 0)' "$OUT/monitor.jsonl"
	# against nvidia-smi at the same moment: within the sampling difference
	IFS=', ' read -r _ smi_mem smi_temp smi_power smi_cap smi_gr smi_sm smi_mem_clk <"$OUT/smi.gpu.csv"
	g='.tables["nvidia.gpus"][0]'
	echo "       nvidia-smi: memory ${smi_mem} MiB, ${smi_temp} C, ${smi_power} W of ${smi_cap} W, clocks ${smi_gr}/${smi_sm}/${smi_mem_clk} MHz"
	echo "       monitor:    $(jq -c "$g | {mem_used_bytes, temp_c, power_w, power_cap_w, gfx_mhz, sm_mhz, mem_mhz, fan_pct, throttle, pcie_tx_bytes_per_s, pcie_rx_bytes_per_s}" "$OUT/snap.nvml.json")"
	within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b != "" && d <= t) }'; }
	smi_mig=$(nvidia-smi --query-gpu=mig.mode.current --format=csv,noheader 2>/dev/null | head -1 | tr 'A-Z' 'a-z')
	case "$smi_mig" in enabled | disabled) ;; *) smi_mig=unsupported ;; esac
	check "NVML: MIG mode as nvidia-smi says ($smi_mig), and MIG devices only when enabled" \
		jq -e --arg m "$smi_mig" "($g.mig_mode == \$m) and ((.tables[\"nvidia.mig\"] // [] | length > 0) == (\$m == \"enabled\"))" "$OUT/snap.nvml.json"
	check "NVML: memory used within 2 % of nvidia-smi's" within "$(jq "$g.mem_used_bytes / 1048576" "$OUT/snap.nvml.json")" "$smi_mem" "$(awk -v m="$smi_mem" 'BEGIN { print m * 0.02 + 64 }')"
	check "NVML: temperature within 3 C of nvidia-smi's" within "$(jq "$g.temp_c" "$OUT/snap.nvml.json")" "$smi_temp" 3
	check "NVML: enforced power limit as nvidia-smi's (W)" within "$(jq "$g.power_cap_w" "$OUT/snap.nvml.json")" "$smi_cap" 1
	check "NVML: power draw within 30 % of nvidia-smi's" within "$(jq "$g.power_w" "$OUT/snap.nvml.json")" "$smi_power" "$(awk -v p="$smi_power" 'BEGIN { print p * 0.3 }')"
	check "NVML: memory clock within 5 % of nvidia-smi's" within "$(jq "$g.mem_mhz" "$OUT/snap.nvml.json")" "$smi_mem_clk" "$(awk -v c="$smi_mem_clk" 'BEGIN { print c * 0.05 }')"
	check "NVML: graphics and SM clocks within 25 % of nvidia-smi's" bash -c "
		awk -v a=$(jq "$g.gfx_mhz" "$OUT/snap.nvml.json") -v b=$smi_gr 'BEGIN { exit !(a >= b * 0.75 && a <= b * 1.25) }' &&
		awk -v a=$(jq "$g.sm_mhz" "$OUT/snap.nvml.json") -v b=$smi_sm 'BEGIN { exit !(a >= b * 0.75 && a <= b * 1.25) }'"
	check "NVML: why the clocks are held is said (a reason or none)" jq -e "$g.throttle | type == \"string\" and length > 0" "$OUT/snap.nvml.json"
	# the intervals wholly inside the duty workload: the GPU's utilisation and the workload's SM % about half
	duty=$(jq -s -c --slurpfile d "$OUT/duty.json" '$d[0] as $w | [.[] | select(.timestamp - .interval_s >= $w.start and .timestamp <= $w.end) |
		{util: .tables["nvidia.gpus"][0].util_pct, sm: ([.tables["nvidia.gpu_processes"][]? | select(.pid == $w.pid) | .sm_pct][0])}]' "$OUT/monitor.jsonl")
	echo "       duty workload ($(jq -c . "$OUT/duty.json")): per interval $duty"
	check "NVML: the GPU busy half the time reads 25-75 % utilisation, the mean over the intervals inside it" \
		jq -e -n --argjson d "$duty" '($d | length) >= 4 and ([$d[].util] | add / length) as $m | $m >= 25 and $m <= 75'
	check "NVML: ... and its process's SM % known in each of those intervals (sampled once a second, refresh 0.5 s), 25-75 %" \
		jq -e -n --argjson d "$duty" '($d | length) >= 4 and ([$d[].sm] | all(. != null) and (add / length) as $m | $m >= 25 and $m <= 75)'
	# utilisation over each interval from the driver's samples: a percentage, above 0 while the workload ran
	jq -s -c '[.[] | .tables["nvidia.gpus"][0].util_pct]' "$OUT/monitor.jsonl" | sed 's/^/       GPU util_pct per snapshot: /'
	jq -s -c --argjson pid "$PID" '[.[] | [.tables["nvidia.gpu_processes"][]? | select(.pid == $pid) | .sm_pct][0]]' \
		"$OUT/monitor.jsonl" | sed 's/^/       the workload'"'"'s sm_pct per snapshot: /'
	check "NVML: GPU utilisation in every snapshot a percentage, above 0 in some while the workload ran" \
		jq -e -s '[.[] | .tables["nvidia.gpus"][0].util_pct] | all(type == "number" and . >= 0 and . <= 100) and any(. > 0)' "$OUT/monitor.jsonl"
	check "NVML: the workload's SM % a percentage wherever known, above 0 in some snapshot" \
		jq -e -s --argjson pid "$PID" '[.[] | .tables["nvidia.gpu_processes"][]? | select(.pid == $pid) | .sm_pct | select(. != null)] |
			length > 0 and all(. >= 0 and . <= 100) and any(. > 0)' "$OUT/monitor.jsonl"
	smi_app=$(awk -F', ' -v p="$PID" '$1 == p { print $2 }' "$OUT/smi.apps.csv")
	app=$(jq -c --argjson pid "$PID" '.tables["nvidia.gpu_processes"][] | select(.pid == $pid)' "$OUT/snap.nvml.json")
	echo "       the workload on the GPU: nvidia-smi ${smi_app} MiB; monitor $app"
	check "NVML: the workload's row on its GPU, with its command name" jq -e -n --argjson r "${app:-null}" '$r.comm | test("python")'
	check "NVML: its memory within 10 % of nvidia-smi's used_memory (${smi_app} MiB)" \
		within "$(jq -n --argjson r "${app:-null}" '$r.mem_bytes / 1048576')" "$smi_app" "$(awk -v m="${smi_app:-0}" 'BEGIN { print m * 0.1 }')"
	merged=$(jq -c --argjson pid "$PID" '.tables["gpu.processes"][] | select(.pid == $pid)' "$OUT/snap.nvml.json")
	echo "       one process table: $merged"
	check "one process table: the workload on nvidia0, seen by NVML and the CUDA calls, its GPU % known" \
		jq -e -n --argjson r "${merged:-null}" '$r.gpus == "nvidia0" and ($r.sources | test("nvml") and test("cuda")) and ($r.gpu_pct | type == "number")'
	check "one process table: its memory NVML's, within 10 % of nvidia-smi's used_memory (${smi_app} MiB)" \
		within "$(jq -n --argjson r "${merged:-null}" '$r.mem_bytes / 1048576')" "$smi_app" "$(awk -v m="${smi_app:-0}" 'BEGIN { print m * 0.1 }')"
	if [ -n "$TUI" ]; then
		gib=$(jq -n --argjson r "${merged:-null}" '$r.mem_bytes / 1073741824 * 10 | round / 10')
		check "the interface, live: the Overview lists the workload ($PID) on nvidia0 with its memory (~${gib}GiB) and GPU %" \
			grep -qE "^ +$PID python[0-9.]* +nvidia0 +[0-9.]+ +[0-9.]+(GiB|MiB) " "$OUT/overview-live.txt"
	else
		skip "the interface, live: no tmux on this machine"
	fi
else
	skip "NVML: not loaded by this build ($(grep -A0 'nvml:' "$OUT/list.txt" | sed 's/^ *//'))"
fi

# Cost, alternating rounds without and with the monitor (attached before the round starts):
# a launch-bound loop (one process, 20,000 tiny kernels per round) and the cost of one probed
# call (cuLaunchKernel with no context: it returns at once). The machine is noisy (rates vary
# by 20 % from round to round without any monitor), so each round with the monitor is compared
# with the mean of the rounds around it, and the median of those ratios is the figure.
ROUNDS=13
taskset -c 1 "$PY" "$HERE/launch_loop.py" "$OUT/loop" $ROUNDS >"$OUT/loop.jsonl" 2>"$OUT/loop.err" &
LOOP=$!
for k in $(seq $ROUNDS); do
	m=
	if [ $((k % 2)) = 0 ]; then
		taskset -c 3 "$BIN" -b -J -d 1 >"$OUT/loop.mon.$k" 2>&1 &
		m=$!
		# its first snapshot: attached (a start waits out an earlier monitor's release of its
		# uprobes, ~13 s on the H200: round 2 came 10 s after the monitor above and had none)
		for _ in $(seq 600); do grep -q '^{' "$OUT/loop.mon.$k" && break; sleep 0.1; done
	fi
	touch "$OUT/loop.$k"
	for _ in $(seq 600); do [ "$(wc -l <"$OUT/loop.jsonl")" -ge "$k" ] && break; sleep 0.1; done
	taskset -c 1 "$PY" "$HERE/probe_cost.py" | jq -c --argjson k "$k" '. + {round: $k}' >>"$OUT/probe.jsonl"
	[ -n "$m" ] && sleep 2.2 && kill -INT $m && wait $m # the probe's process in a snapshot once gone
done
wait $LOOP
MEDIAN='def median: sort | if length % 2 == 0 then (.[length / 2 - 1] + .[length / 2]) / 2 else .[length / 2 | floor] end;'
# ratios FILE FIELD: the median over the monitored rounds of this / mean(neighbours)
ratios() {
	jq -s --arg f "$2" "$MEDIAN"' sort_by(.round) | map(.[$f]) as $v |
		[range(1; length - 1; 2) | ($v[.] / (($v[. - 1] + $v[. + 1]) / 2))] | median' "$1"
}
loop_ratio=$(ratios "$OUT/loop.jsonl" launches_per_s)
slow=$(awk -v r="$loop_ratio" 'BEGIN { printf "%.1f", (1 - r) * 100 }')
off=$(jq -s "$MEDIAN"' map(select(.round % 2 == 1) | .launches_per_s) | median' "$OUT/loop.jsonl")
on=$(jq -s "$MEDIAN"' map(select(.round % 2 == 0) | .launches_per_s) | median' "$OUT/loop.jsonl")
probe_off=$(jq -s "$MEDIAN"' map(select(.round % 2 == 1) | .ns_per_call) | median' "$OUT/probe.jsonl")
probe_on=$(jq -s "$MEDIAN"' map(select(.round % 2 == 0) | .ns_per_call) | median' "$OUT/probe.jsonl")
echo "       launch-bound loop, launches/s by round (odd: alone, even: monitored): $(jq -s -c 'map(.launches_per_s | floor)' "$OUT/loop.jsonl")"
echo "       medians $off alone, $on monitored; against their neighbours the monitored rounds are $slow % slower"
echo "       one probed call: $probe_off ns alone, $probe_on ns monitored (medians): the uprobe costs $(awk -v a="$probe_off" -v b="$probe_on" 'BEGIN { printf "%.0f", b - a }') ns"
check "launch-bound loop slowed by less than 10 % ($slow %)" awk -v s="$slow" 'BEGIN { exit !(s < 10) }'
# fired: each monitored round's monitor counted every call of its probe process (the time alone
# cannot tell: a probe's ~100 ns is within the rounds' noise, -100 to +142 ns measured)
fired=0 monitored=0 rounds=
while read -r line; do
	k=$(jq .round <<<"$line") pid=$(jq .pid <<<"$line") calls=$(jq .calls <<<"$line")
	[ $((k % 2)) = 0 ] || continue
	monitored=$((monitored + 1))
	got=$(jq -s --argjson pid "$pid" '[.[].tables["nvidia.processes"][]? | select(.pid == $pid) | .launches_total] | max // 0' <(grep '^{' "$OUT/loop.mon.$k") 2>/dev/null)
	[ "$got" = "$calls" ] && fired=$((fired + 1))
	rounds="$rounds round $k: $got of $calls;"
done <"$OUT/probe.jsonl"
echo "       the probe process's calls counted by the monitor:$rounds"
check "the probe fired in the monitored rounds: every call of the probe process counted ($fired of $monitored rounds)" \
	test "$monitored" -gt 0 -a "$fired" = "$monitored"

jq -n --arg cmd "tests/gpu/nvidia.sh $1 OUTDIR" --argjson pid "${PID:-0}" --argjson n $N \
	--argjson launched "$launched" --argjson mem "$mem_alloc" --argjson reserved "$res_alloc" \
	--argjson mem_freed "$mem_freed" --argjson reserved_freed "$res_freed" \
	--argjson sync_mon "$sync_mon" --argjson sync_wl "$sync_wl" --argjson ioctls "$ioctls" \
	--argjson off "$off" --argjson on "$on" --arg slow "$slow" \
	--argjson probe_off "$probe_off" --argjson probe_on "$probe_on" \
	--arg device "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)" \
	--arg kernel "$(uname -r)" --arg torch "$("$PY" -c 'import torch; print(torch.__version__)')" \
	--argjson passed "$PASS" --argjson failed "$FAIL" \
	'{command: $cmd, device: $device, kernel: $kernel, torch: $torch, pid: $pid,
	  launches: {made: $n, counted: $launched}, device_memory: {counted: $mem, torch_reserved: $reserved,
	  counted_after_free: $mem_freed, torch_reserved_after_free: $reserved_freed},
	  sync_ns: {counted: $sync_mon, measured: $sync_wl}, ioctls: $ioctls,
	  launch_loop_per_s: {alone_median: $off, monitored_median: $on, slowdown_pct_vs_neighbours: ($slow | tonumber)},
	  probed_call_ns: {alone: $probe_off, monitored: $probe_on},
	  checks: {passed: $passed, failed: $failed}}' >"$OUT/evidence.json"
finish
