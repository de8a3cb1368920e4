#!/usr/bin/env bash
# The NVIDIA collector's NVML tables with no GPU: a stand-in libnvidia-ml.so.1
# (tests/cuda/fake_libnvml.c: two GPUs, the second in MIG mode with two MIG devices)
# found by the monitor's own dlopen of the soname through LD_LIBRARY_PATH, no test hook.
# Every value the stand-in answers must come out exactly, in every snapshot (utilisation: the
# mean of the GPU's samples, one each 200 ms; a process's, sampled once a second, read over at
# least the last second, so known at a refresh of 0.3 s too): the GPU
# rows, their MIG mode, the MIG devices with their memory, the processes' memory;
# and what the stand-in does not support is null, never 0. Its build without the MIG
# entry points (LIB_DIR/no-mig, an old driver's) leaves MIG mode null and lists no MIG device.
# Usage: tests/bpf/nvml.sh LIB_DIR BINARY...   (needs root; skips loudly without it)
set -u
SUITE="nvml tests"
. "$(dirname "$0")/../lib.sh"

needs_root_and_jq "NVML tests need root (the nvidia collector loads BPF programs; CI runs as root): run 'sudo make test-bpf'"
if [ ! -f "$1/libnvidia-ml.so.1" ] || [ ! -f "$1/no-mig/libnvidia-ml.so.1" ]; then
	fail "no stand-in $1/libnvidia-ml.so.1 or $1/no-mig/libnvidia-ml.so.1: run 'make test-bpf' (it builds them)"
	finish
	exit
fi
LIB=$(cd "$1" && pwd)
shift
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
mkdir -p "$TMP/lib" "$TMP/no-mig"
cp "$LIB/libnvidia-ml.so.1" "$TMP/lib/"
cp "$LIB/no-mig/libnvidia-ml.so.1" "$TMP/no-mig/"
chmod -R a+rX "$TMP"
SNAPS=3
MIB=1048576
GIB=1073741824

# The stand-in's values, as the tables must show them (mem_used_pct apart: a quotient).
GPU0=$(jq -n -c --argjson mib $MIB --argjson gib $GIB '{gpu: 0, name: "NVIDIA Fake A10 (gputop-bpf test)",
	bus_id: "00000000:17:00.0", minor: 1, mem_used_bytes: $gib, mem_total_bytes: (24 * $gib), util_pct: 35,
	mem_util_pct: 10, temp_c: 45, power_w: 123.456, power_cap_w: 150, gfx_mhz: 1695, sm_mhz: 1694,
	mem_mhz: 6251, fan_pct: 30, throttle: "power cap, thermal (software)",
	pcie_tx_bytes_per_s: 1024000, pcie_rx_bytes_per_s: 2048000, nvlink_tx_bytes_per_s: null,
	nvlink_rx_bytes_per_s: null, mig_mode: "unsupported"}')
# in MIG mode: no utilisation; an SXM board: no fan; no PCIe counters
GPU1=$(jq -n -c --argjson mib $MIB --argjson gib $GIB '{gpu: 1, name: "NVIDIA Fake H100 MIG (gputop-bpf test)",
	bus_id: "00000000:3B:00.0", minor: 0, mem_used_bytes: (4 * $gib), mem_total_bytes: (80 * $gib), util_pct: null,
	mem_util_pct: null, temp_c: 38, power_w: 98.765, power_cap_w: 700, gfx_mhz: 1980, sm_mhz: 1979,
	mem_mhz: 2619, fan_pct: null, throttle: "idle", pcie_tx_bytes_per_s: null,
	pcie_rx_bytes_per_s: null, mig_mode: "enabled"}')
# NVLink: 4 KiB sent and 2 KiB received per millisecond of the counters' own stamps (a first read before the
# first snapshot: known in every one)
NVLINK='[4096000, 2048000]'

MIGS=$(jq -n -c --argjson mib $MIB --argjson gib $GIB '[
	{gpu: 1, mig: 0, gpu_instance: 9, compute_instance: 0, sm_count: 16, mem_used_bytes: (1536 * $mib),
	 mem_total_bytes: (9728 * $mib), bus_id: "00000000:3B:00.0", uuid: "MIG-0a1b2c3d-4e5f-5a6b-8c7d-9e0f1a2b3c4d"},
	{gpu: 1, mig: 3, gpu_instance: 5, compute_instance: 1, sm_count: 32, mem_used_bytes: (3 * $gib),
	 mem_total_bytes: (19456 * $mib), bus_id: "00000000:3B:00.0", uuid: "MIG-5e6f7a8b-9c0d-5e1f-a2b3-c4d5e6f7a8b9"}]')
COMM1=$(cat /proc/1/comm)
PROCS=$(jq -n -c --argjson mib $MIB --arg comm "$COMM1" '[
	{gpu: 0, pid: 1, comm: $comm, mem_bytes: (256 * $mib), sm_pct: 25, mem_util_pct: 5, enc_pct: 0, dec_pct: 0},
	{gpu: 1, pid: 1, comm: $comm, mem_bytes: (512 * $mib), sm_pct: null, mem_util_pct: null, enc_pct: null,
	 dec_pct: null}]')

# exact NAME FILE JQ_PATH WANT: in every snapshot of FILE, the value at JQ_PATH is WANT (JSON).
exact() {
	local what=$1 file=$2 path=$3 want=$4
	if jq -e -s --argjson want "$want" "length == $SNAPS and all(.[]; $path == \$want)" "$file" >/dev/null; then
		pass "$what"
	else
		fail "$what"
		echo "       want: $want"
		echo "       got:  $(jq -c -s "last | $path" "$file")"
	fi
}

for bin in "$@"; do
	echo "== $bin"
	out=$TMP/mon
	LD_LIBRARY_PATH=$TMP/lib "$bin" -b -J -n $SNAPS -d 0.3 >"$out" 2>"$TMP/err"
	check "monitor exited 0 with the stand-in NVML" test $? = 0
	check "$SNAPS snapshots" test "$(wc -l <"$out")" = $SNAPS
	check "nvidia collector attached, with NVML" jq -e -s '.[-1].collectors[] | select(.name == "nvidia") | .state == "attached" and (.detail | test("NVML"))' "$out"
	check "its NVML entry attached" jq -e -s '.[-1].collectors[] | select(.name == "nvidia") | .tracepoints[] | select(.group == "nvml") | .state == "attached"' "$out"
	exact "nvidia.gpus: two rows" "$out" '.tables["nvidia.gpus"] | length' 2
	exact "GPU 0: every value exact, MIG mode unsupported" "$out" '.tables["nvidia.gpus"][0] | del(.mem_used_pct)' "$GPU0"
	exact "GPU 1: every value exact but NVLink, MIG mode enabled, what it lacks null" "$out" \
		'.tables["nvidia.gpus"][1] | del(.mem_used_pct, .nvlink_tx_bytes_per_s, .nvlink_rx_bytes_per_s)' "$GPU1"
	exact "GPU 1's NVLink TX and RX per second exact (GPU 0, no NVLink: null, not 0)" "$out" \
		'.tables["nvidia.gpus"][1] | [.nvlink_tx_bytes_per_s, .nvlink_rx_bytes_per_s]' "$NVLINK"
	check "mem_used_pct: used over total (GPU 0 1/24, GPU 1 4/80)" jq -e -s 'all(.[]; .tables["nvidia.gpus"] | (.[0].mem_used_pct - 100 / 24 | fabs) < 1e-9 and (.[1].mem_used_pct - 5 | fabs) < 1e-9)' "$out"
	exact "nvidia.mig: GPU 1's two MIG devices (indices 0 and 3), instances, SMs, memory to the byte, UUIDs" "$out" '.tables["nvidia.mig"]' "$MIGS"
	exact "nvidia.gpu_processes: each GPU's process with its memory; no utilisation in MIG mode" "$out" '.tables["nvidia.gpu_processes"]' "$PROCS"
	check "no error output" test ! -s "$TMP/err"
	[ -s "$TMP/err" ] && sed 's/^/       /' "$TMP/err" | head -20
	# an old driver's library: MIG mode unknown (null, not "disabled"), no MIG device, the rest alike
	# (no GPU samples: a process's since the last read, once a second: a refresh of 1.1 s holds one)
	LD_LIBRARY_PATH=$TMP/no-mig "$bin" -b -J -n $SNAPS -d 1.1 >"$TMP/old" 2>"$TMP/err"
	check "no MIG entry points: monitor exited 0, no error output" test $? = 0 -a ! -s "$TMP/err"
	# nor samples: utilisation over the last sample period, 1.2 times the mean
	exact "no MIG entry points nor samples: GPU 0 as before, its MIG mode null, its last period's use (42 %, 12 %)" \
		"$TMP/old" '.tables["nvidia.gpus"][0] | del(.mem_used_pct)' \
		"$(jq -c '.mig_mode = null | .util_pct = 42 | .mem_util_pct = 12' <<<"$GPU0")"
	exact "no MIG entry points: GPU 1 as before, its MIG mode null" "$TMP/old" \
		'.tables["nvidia.gpus"][1] | del(.mem_used_pct, .nvlink_tx_bytes_per_s, .nvlink_rx_bytes_per_s)' \
		"$(jq -c '.mig_mode = null' <<<"$GPU1")"
	exact "no MIG entry points: no MIG device" "$TMP/old" '.tables["nvidia.mig"]' '[]'
	exact "no GPU samples: GPU 0's process at the mean of its samples since the last read, SM 25 %, memory 5 %" \
		"$TMP/old" '.tables["nvidia.gpu_processes"][0] | [.sm_pct, .mem_util_pct]' '[25, 5]'
	LD_LIBRARY_PATH=$TMP/lib "$bin" -b -n 1 >"$TMP/text" 2>&1
	check "batch text: the MIG devices' table with its title" grep -q '^MIG devices (nvidia.mig)$' "$TMP/text"
	check "batch text: a MIG device's row (GPU 1, index 3, GI 5, CI 1, 32 SMs, 3.0GiB of 19.0GiB)" \
		grep -qE '^ +1 +3 +5 +1 +32 +3\.0GiB +19\.0GiB +00000000:3B:00\.0 +MIG-5e6f7a8b-' "$TMP/text"
	if ldconfig -p | grep -q 'libnvidia-ml\.so\.1 '; then
		skip "without the stand-in: this machine has its own libnvidia-ml.so.1"
	else
		"$bin" -b -J -n 1 >"$TMP/none" 2>/dev/null
		check "without the stand-in: no NVIDIA GPU and no MIG device" \
			jq -e '(.tables["nvidia.gpus"] // []) == [] and (.tables["nvidia.mig"] // []) == []' "$TMP/none"
	fi
done
finish
