#!/usr/bin/env bash
# The NVIDIA collector's CUDA and ioctl counts on the running kernel, with no GPU: a
# stand-in libcuda.so.1 (tests/cuda/fake_libcuda.c) and a client that calls it known
# numbers of times from several processes (tests/cuda/cuda-client.c). Per process the
# counts must be exact and the memory totals exact to the byte, with the library found
# each way the collector finds one: a running process's maps, --libcuda, the loader cache.
# The stand-in has two devices: per process and CUDA device (nvidia.process_gpus) every
# count is exact too, the calls made in no known context under "unknown"; with the
# stand-in NVML (CUDA_DIR/../nvml, when built) each device is placed on its NVML GPU.
# --stacks: the call chains of launches exact, from a client with frame pointers and from the same
# client and stand-in built -O2 -fomit-frame-pointer (CUDA_DIR/../cuda-nofp: the DWARF unwind);
# those of its ioctls (--stacks-weight calls, blocked) and CUDA syncs (syncs, sync-time) exact,
# their time equal to calls.ioctls' and nvidia.processes'.
# Usage: tests/bpf/cuda.sh CUDA_DIR BINARY...   (needs root; skips loudly without it)
set -u
SUITE="cuda tests"
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)

if [ "$(id -u)" != 0 ]; then
	skip "CUDA uprobe tests need root (CI runs as root): run 'sudo make test-bpf'"
	finish
	exit
fi
CUDA=$(cd "$1" && pwd)
shift
PROCS=3
SYNC_US=2000
TMP=$(mktemp -d)
LDCONF=/etc/ld.so.conf.d/zz-gputop-bpf-test.conf
cleanup() {
	[ -e "$LDCONF" ] && rm -f "$LDCONF" && ldconfig
	pkill -f "$TMP/" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# ioctls on /dev/null (char major 1) count as if on an NVIDIA device (man page, ENVIRONMENT)
export GPUTOP_TEST_IOCTL_MAJOR=1

# run NAME BINARY CLIENT_ENV FIRST [MONITOR_ARGS...]: one monitored run of the client. FIRST:
# client (it runs before the monitor starts), monitor (after), late (after, with a library the
# monitor finds in its periodic search of the processes' maps: the gate waits for that).
run() {
	local name=$1 bin=$2 cenv=$3 first=$4 dir=$TMP/$1 cpid mpid n
	shift 4
	mkdir -p "$dir"
	rm -f "$dir/gate" "$dir/done" # the last binary's run of the same name left them
	start_client() {
		env $cenv FAKE_CUDA_SYNC_US=$SYNC_US "$CLIENT" $PROCS "$dir/gate" "$dir/done" >"$dir/client" &
		cpid=$!
	}
	[ "$first" = client ] && start_client && sleep 0.5
	env $MON_ENV "$bin" -b -J -d 0.5 "$@" >"$dir/mon" 2>"$dir/err" &
	mpid=$!
	first_snapshot "$dir/mon"
	[ "$first" = monitor ] && start_client
	if [ "$first" = late ]; then # a library no one had mapped when the monitor started
		start_client
		for _ in $(seq 150); do
			tail -n 2 "$dir/mon" | head -n 1 | grep -q '"detail":"libcuda from process' && break
			sleep 0.1
		done
	fi
	sleep 0.3
	touch "$dir/gate"
	for _ in $(seq 100); do
		n=$(wc -l <"$dir/client"); [ "$n" -ge $PROCS ] && break; sleep 0.1
	done
	sleep 1.2 # two snapshots with every client alive and done
	touch "$dir/done"
	wait $cpid
	echo "$?" >"$dir/client.rc"
	sleep 1.6 # the exits seen, the rows shown once more, then gone
	kill -INT $mpid
	wait $mpid
	echo "$?" >"$dir/mon.rc"
}

# verify_gpus NAME CLIENT_FIRST PID LINE: the process's rows per CUDA device against the client's
# counts per device: devices 0 and 1 and unknown (calls in no context), and no other row. The
# blocks from before the gate: allocated in no context (unknown) when the monitor came first.
verify_gpus() {
	local name=$1 first=$2 pid=$3 line=$4 dir=$TMP/$1 gpus dev want got k
	gpus=$(jq -c '.gpus' <<<"$line")
	[ "$first" = monitor ] && gpus=$(jq -c '.unknown |= (.allocs += 3 | .alloc_bytes += 3145728 | .frees += 3 | .freed_bytes += 3145728)' <<<"$gpus")
	jq -c -s --argjson pid "$pid" '[.[].tables["nvidia.process_gpus"][]? | select(.pid == $pid)] |
		group_by(.cuda_device) | map(last) | map({key: .cuda_device, value: .}) | from_entries' "$dir/mon" >"$dir/gpus.$pid"
	check "$name: pid $pid: rows for CUDA devices 0, 1 and unknown, no other" 		jq -e '(keys | sort) == ["0", "1", "unknown"]' "$dir/gpus.$pid"
	for dev in 0 1 unknown; do
		want=$(jq -c --arg d $dev '.[$d] | {launches, graph_launches, allocs, alloc_bytes, frees, freed_bytes, syncs}' <<<"$gpus")
		got=$(jq -c --arg d $dev '.[$d] | {launches: .launches_total, graph_launches: .graph_launches_total,
			allocs: .allocs_total, alloc_bytes: .alloc_bytes_total, frees: .frees_total,
			freed_bytes: .freed_bytes_total, syncs: .syncs_total}' "$dir/gpus.$pid")
		check "$name: pid $pid: CUDA device $dev: every count exact ($want)" test "$got" = "$want"
		[ "$got" = "$want" ] || echo "       got: $got"
		check "$name: pid $pid: CUDA device $dev: mem_bytes = allocated - freed there, to the byte" 			jq -e --arg d $dev --argjson c "$gpus" '.[$d].mem_bytes == $c[$d].alloc_bytes - $c[$d].freed_bytes' "$dir/gpus.$pid"
		check "$name: pid $pid: CUDA device $dev: sync time between the sleeps inside the calls and the client's clock" 			jq -e --arg d $dev --argjson c "$gpus" --argjson us $SYNC_US 			'.[$d].sync_ns_total <= $c[$d].sync_ns * 1.001 and .[$d].sync_ns_total >= $c[$d].syncs * $us * 1000' "$dir/gpus.$pid"
	done
	# the bus ids it asked for; NVML's index and spelling of them with the stand-in NVML (device 0 is
	# its GPU 1: CUDA's order is not NVML's), none without it
	for dev in 0 1; do
		k=$(jq -r --arg d $dev '.bus[$d]' <<<"$line")
		if [ -n "$MON_ENV" ]; then
			want=$(jq -n -c --arg b "$k" '{gpu: (if $b == "0000:3B:00.0" then 1 else 0 end),
				bus_id: ("0000" + $b), gpu_from: "cuDeviceGetPCIBusId"}')
		else
			want=$(jq -n -c --arg b "$k" '{gpu: null, bus_id: $b, gpu_from: "cuDeviceGetPCIBusId"}')
		fi
		got=$(jq -c --arg d $dev '.[$d] | {gpu, bus_id, gpu_from}' "$dir/gpus.$pid")
		check "$name: pid $pid: CUDA device $dev is $want" test "$got" = "$want"
	done
	check "$name: pid $pid: the unknown device is on no known GPU" 		jq -e '.unknown | .gpu == null and .bus_id == null and .gpu_from == null' "$dir/gpus.$pid"
	check "$name: pid $pid: its devices' launches, allocations, syncs add up to the process's" 		jq -e -s '.[0] as $g | .[1] | .launches_total == ([$g[].launches_total] | add) and
			.alloc_bytes_total == ([$g[].alloc_bytes_total] | add) and .syncs_total == ([$g[].syncs_total] | add)' 		"$dir/gpus.$pid" "$dir/row.$pid"
	check "$name: pid $pid: its device rows gone from the last snapshot after it exited" 		jq -e -s --argjson pid "$pid" '[.[-1].tables["nvidia.process_gpus"][] | select(.pid == $pid)] | length == 0' "$dir/mon"
}

# verify NAME CLIENT_FIRST: the monitor's per-process totals against what each client counted.
# Its 3 blocks of 1 MiB from before the gate were allocated before the monitor started when
# the client came first (their frees are then unknown), and after it otherwise.
verify() {
	local name=$1 first=$2 dir=$TMP/$1 pid line
	check "$name: client ran ($PROCS processes)" test "$(cat "$dir/client.rc")" = 0 -a "$(wc -l <"$dir/client")" -eq $PROCS
	check "$name: monitor exited 0" test "$(cat "$dir/mon.rc")" = 0
	check "$name: nvidia collector attached" jq -e -s '.[-1].collectors[] | select(.name == "nvidia") | .state == "attached"' "$dir/mon"
	echo "       $name: $(jq -r -s '.[-1].collectors[] | select(.name == "nvidia") | .detail' "$dir/mon")"
	while read -r line; do
		pid=$(jq .pid <<<"$line")
		[ "$first" = monitor ] && line=$(jq -c '.allocs += 3 | .alloc_bytes += 3145728 | .frees += 3 | .freed_bytes += 3145728 | .unknown_frees = 0' <<<"$line")
		# the last snapshot that has the process: every counter is cumulative
		jq -c -s --argjson pid "$pid" '[.[].tables["nvidia.processes"][]? | select(.pid == $pid)] | last' "$dir/mon" >"$dir/row.$pid"
		echo "       pid $pid: client $(jq -c '{launches, allocs, alloc_bytes, freed_bytes, syncs, ioctls}' <<<"$line")"
		echo "       pid $pid: counted $(jq -c '{launches: .launches_total, allocs: .allocs_total, alloc_bytes: .alloc_bytes_total, freed_bytes: .freed_bytes_total, syncs: .syncs_total, ioctls: .ioctls_total, mem: .mem_bytes}' "$dir/row.$pid")"
		for k in launches graph_launches allocs alloc_bytes frees freed_bytes unknown_frees failed_allocs syncs ioctls; do
			check "$name: pid $pid: ${k}_total exact ($(jq ".$k" <<<"$line"))" \
				jq -e --argjson c "$line" ".${k}_total == \$c.$k" "$dir/row.$pid"
		done
		# its kernels: 40 i launches each way (launches = 160 i), ns::kernel_b(int) by two handles
		i=$(( $(jq .launches <<<"$line") / 160 ))
		kern=$(jq -c -s --argjson pid "$pid" '[.[].tables["nvidia.kernels"][]? | select(.pid == $pid)] | group_by(.kernel) |
			map(last | {kernel, handles, launches_total}) | sort_by(.kernel)' "$dir/mon")
		want=$(jq -n -c --argjson i "$i" '[{kernel: "[kernel 0x0]", handles: 1, launches_total: (40 * $i)},
			{kernel: "kernel_a()", handles: 1, launches_total: (40 * $i)},
			{kernel: "ns::kernel_b(int)", handles: 2, launches_total: (80 * $i)}]')
		check "$name: pid $pid: its kernels by name, each launch counted ($want)" test "$kern" = "$want"
		[ "$kern" = "$want" ] || echo "       got: $kern"
		check "$name: pid $pid: mem_bytes = allocated - freed, to the byte" \
			jq -e --argjson c "$line" '.mem_bytes == $c.alloc_bytes - $c.freed_bytes' "$dir/row.$pid"
		# at least the stand-in's sleeps inside the calls, at most the client's clock around them
		# (a bound that holds on a loaded machine, where 90 % of the client's did not)
		check "$name: pid $pid: time blocked in sync between the sleeps inside the calls and the client's clock" \
			jq -e --argjson c "$line" --argjson us $SYNC_US '.sync_ns_total <= $c.sync_ns * 1.001 and .sync_ns_total >= $c.syncs * $us * 1000' "$dir/row.$pid"
		# never under the sleep inside the calls, never over the longest sync the client timed (by
		# the histograms' 12.5 %): on a busy machine wake-ups after the sleep come late, and an
		# interval's few syncs take 4 ms on average, so the stand-in's 2 ms bounds only from below
		check "$name: pid $pid: sync p50 between the stand-in's ${SYNC_US} us and the client's longest sync ($(jq '.sync_max_ns / 1000 | floor' <<<"$line") us)" \
			jq -e -s --argjson pid "$pid" --argjson us $SYNC_US --argjson c "$line" \
			'[.[].tables["nvidia.processes"][]? | select(.pid == $pid) | .sync_p50_ns | numbers] | length > 0 and
			all(. >= $us * 1000 * 0.95 and . <= $c.sync_max_ns * 1.13)' "$dir/mon"
		check "$name: pid $pid: gone from the last snapshot after it exited" \
			jq -e -s --argjson pid "$pid" '[.[-1].tables["nvidia.processes"][] | select(.pid == $pid)] | length == 0' "$dir/mon"
		verify_gpus "$name" "$first" "$pid" "$(jq -c '.' <<<"$line")"
	done <"$dir/client"
	check "$name: nothing lost ($(jq -s -c '.[-1].collectors[] | select(.name == "nvidia") | .drops | del(.nested_calls_not_counted) | with_entries(select(.value != 0))' "$dir/mon"))" \
		jq -e -s '.[-1].collectors[] | select(.name == "nvidia") | .drops | del(.nested_calls_not_counted) | all(.[]; . == 0)' "$dir/mon"
}

# check_stacks WHAT CLIENT_OUT FOLDED: the folded stacks of one run against the clients' launches:
# per chain 40 i launches of client i, the clients' lines of one text summed into one (a client
# whose launches were sampled has its own line, under its "[DWARF: ...]" frame), no text twice.
STACK_ROOT="cuda-client;(\[DWARF: [0-9]+ of [0-9]+ launches unwound\];)?_start;__libc_start_main@GLIBC_2.2.5;__libc_start_call_main;main;child"
check_stacks() {
	local what=$1 client=$2 folded=$3 chain launched got want=$((40 * PROCS * (PROCS + 1) / 2))
	sed 's/^/       /' "$folded" | head -4
	for chain in "phase_a;cuLaunchKernel;kernel_a\(\)" "phase_a;cuLaunchKernel_ptsz;ns::kernel_b\(int\)" \
		"phase_b;cuLaunchKernelEx;ns::kernel_b\(int\)" "phase_b;cuLaunchKernelEx_ptsz;\[kernel 0x0\]"; do
		got=$(RE="^$STACK_ROOT;$chain [0-9]+\$" awk '$0 ~ ENVIRON["RE"] { s += $NF } END { print s + 0 }' "$folded")
		check "--stacks ($what): cuda-client;_start;...;main;child;$chain: $want (40 i each client: $got)" \
			test "$got" = "$want"
	done
	launched=$(jq -s '[.[].launches] | add' "$client")
	check "--stacks ($what): every line one of the 4 chains, none twice, their weights $launched in all (every launch)" \
		env RE="^$STACK_ROOT;phase_[ab];cuLaunchKernel" awk -v want="$launched" \
		'{ k = $0; sub(/ [0-9]+$/, "", k); if (seen[k]++ || $0 !~ ENVIRON["RE"]) bad++; s += $NF } END { exit !(!bad && s == want) }' "$folded"
	stack_rows "$(dirname "$client")/mon" >"$folded.rows"
	check "--stacks ($what): -J's last nvidia.stacks rows are the folded file's lines and counts" \
		cmp <(folded_sum "$folded") <(folded_sum "$folded.rows")
}

# stack_rows JSON [TABLE [COLUMN]]: the last snapshot's rows of TABLE (nvidia.stacks) as the folded
# lines they stand for, weighed by COLUMN (count).
stack_rows() {
	jq -r -s --arg t "${2:-nvidia.stacks}" --arg w "${3:-count}" '.[-1].tables[$t][] | "\(.comm);" +
		(if .sampled != "" then "[\(.sampled)];" else "" end) + "\(.frames);\(.leaf) \(.[$w])"' "$1"
}

# rows_are_lines WHAT JSON TABLE COLUMN FOLDED: the clients' ($IOC) rows of TABLE in -J's last
# snapshot are FOLDED's lines of them (on both sides the lines of one text summed: the table keeps
# one row a process and text, the file's lines name no process).
rows_are_lines() {
	check "$1: -J's last $3 rows of the clients are the file's lines, by $4" \
		cmp <(grep "^$IOC;" "$5" | folded_sum) <(stack_rows "$2" "$3" "$4" | grep "^$IOC;" | folded_sum)
}

# check_call_chains WHAT FOLDED CLIENT_OUT: the clients' ioctls on /dev/null (NVIDIA's here), by
# call chain: "IOC;...;main;child;ioctl;<kernel frames>;nvidia 0x1b" lines (the clients' of one text
# summed into one) of their 25 i ioctls each, every call of the clients in one (IOC: the client copied under a name of this run's, as
# any process's /dev/null ioctls are counted here). Every frame from _start: the user stack unwound
# with DWARF from a copy (one sampled says so in a frame under the command), as a frame-pointer walk
# could not (libc's start code and its ioctl wrapper are built without them; here the client too).
IOC=ioc-$$
CALL_CHAIN="$IOC;(\[DWARF: [0-9]+ of [0-9]+ calls unwound\];)?_start;__libc_start_main@GLIBC_2.2.5;__libc_start_call_main;main;child;ioctl(;[^;]+_\[k\])+;nvidia 0x1b"
check_call_chains() {
	local what=$1 folded=$2 client=$3 want got
	grep "^$IOC;" "$folded" | sed 's/^/       /' | head -2
	want=$(jq -s '[.[].ioctls] | add' "$client")
	got=$(RE="^$CALL_CHAIN [0-9]+\$" awk -v r="$IOC;" 'index($0, r) == 1 { k = $0; sub(/ [0-9]+$/, "", k)
		if ($0 !~ ENVIRON["RE"] || seen[k]++) bad++; s += $NF } END { print s + 0, bad + 0 }' "$folded")
	check "--stacks-weight calls ($what): every $IOC line $IOC;...;main;child;ioctl;...;nvidia 0x1b, none twice, $want calls in all (25 i a client: $got)" \
		test "$got" = "$want 0"
}

# check_call_stacks: --stacks-weight calls and blocked (check_call_chains); blocked: the lines' ns
# add up exactly to the clients' calls.ioctls time (ns_total).
check_call_stacks() {
	local dir=$TMP/calls want got
	check_call_chains "frame pointers" "$TMP/calls.folded" "$dir/client"
	check "--stacks-weight calls, blocked: both monitors exited 0" \
		test "$(cat "$dir/mon.rc" "$TMP/blocked/mon.rc" | tr -d '\n')" = 00
	rows_are_lines "--stacks-weight calls" "$dir/mon" calls.stacks count "$TMP/calls.folded"
	rows_are_lines "--stacks-weight blocked" "$TMP/blocked/mon" calls.stacks blocked_ns "$TMP/blocked.folded"
	check "--stacks-weight calls: the end line says 0 calls not kept" \
		grep -qE "^gputop-bpf: stacks '.*': [0-9]+ stacks, weight calls [0-9]+, 0 calls not kept$" "$dir/err"
	dir=$TMP/blocked
	want=$(jq -s --slurpfile c "$dir/client" '[$c[].pid] as $p | [.[].tables["calls.ioctls"][]? |
		select(.pid as $x | any($p[]; . == $x))] | group_by(.pid) | map(max_by(.calls_total).ns_total) | add' "$dir/mon")
	got=$(awk -v r="$IOC;" 'index($0, r) == 1 { s += $NF } END { print s + 0 }' "$TMP/blocked.folded")
	check "--stacks-weight blocked: the $IOC lines' ns = the clients' calls.ioctls ns_total ($want, got $got)" \
		test "$got" = "$want"
	check "--stacks-weight blocked: a time: the end line says ns" \
		grep -qE "^gputop-bpf: stacks '.*': [0-9]+ stacks, weight blocked [0-9]+ ns, 0 calls not kept$" "$dir/err"
}

# check_sync_chains WHAT FOLDED CLIENT_OUT: the clients' CUDA syncs by the stack taken at each
# cu*Synchronize's entry (the function the leaf), unwound with DWARF from a copy: every line of the
# clients "IOC;__GI___clone3;start_thread;sync_thread_N;syncs;cuXSynchronize" (libc's thread start
# has no frame pointers); per thread and function the syncs exact (thread 0: 3 i of the three in
# turn; thread 1: i, then 2 i).
# check_sync_stacks: --stacks-weight syncs and sync-time (check_sync_chains); sync-time: the lines'
# ns equal to the clients' nvidia.processes sync_ns_total, and between the stand-in's sleeps
# (SYNC_US each) and the clients' own clocks around the calls (+0.1 %).
check_sync_chains() {
	local what=$1 folded=$2 client=$3 want got
	grep "^$IOC;" "$folded" | sed 's/^/       /' | head -2
	check "--stacks-weight syncs ($what): every client line is IOC;__GI___clone3;start_thread;sync_thread_N;syncs;cu*Synchronize" \
		awk -v r="$IOC;" 'index($0, r) == 1 { n++; if ($0 !~ /^[^;]+;(\[DWARF: [0-9]+ of [0-9]+ syncs unwound\];)?__GI___clone3;start_thread;sync_thread_[01];syncs;cu(Ctx|Stream|Event)Synchronize [0-9]+$/) bad++ }
			END { exit !(n > 0 && !bad) }' "$folded"
	want=$(awk -v procs=$PROCS 'BEGIN { split("Ctx Stream Event", f, " ")
		for (i = 1; i <= procs; i++) {
			for (k = 0; k < 3 * i; k++) n["0 " f[k % 3 + 1]]++
			for (k = 0; k < i; k++) n["1 " f[k % 3 + 1]]++
			for (k = 0; k < 2 * i; k++) n["1 " f[k % 3 + 1]]++
		}
		for (t = 0; t < 2; t++) for (j = 1; j <= 3; j++) printf "%s ", n[t " " f[j]] + 0 }')
	got=$(awk -v r="$IOC;" 'index($0, r) == 1 && match($0, /sync_thread_[01];syncs;cu[A-Za-z]*Synchronize/) {
			split(substr($0, RSTART, RLENGTH), p, ";"); sub(/^sync_thread_/, "", p[1]); sub(/^cu/, "", p[3])
			sub(/Synchronize$/, "", p[3]); n[p[1] " " p[3]] += $NF }
		END { split("Ctx Stream Event", f, " "); for (t = 0; t < 2; t++) for (j = 1; j <= 3; j++) printf "%s ", n[t " " f[j]] + 0 }' \
		"$folded")
	check "--stacks-weight syncs ($what): threads 0, 1 x cuCtx, cuStream, cuEventSynchronize: $want exact ($got)" \
		test "$got" = "$want"
	want=$(jq -s '[.[].syncs] | add' "$client")
	got=$(awk -v r="$IOC;" 'index($0, r) == 1 { s += $NF } END { print s + 0 }' "$folded")
	check "--stacks-weight syncs ($what): $want syncs in all, as the clients made ($got)" test "$got" = "$want"
}

check_sync_stacks() {
	local dir=$TMP/syncs want got
	check_sync_chains "frame pointers" "$TMP/syncs.folded" "$dir/client"
	rows_are_lines "--stacks-weight syncs" "$dir/mon" nvidia.stacks count "$TMP/syncs.folded"
	rows_are_lines "--stacks-weight sync-time" "$TMP/sync-time/mon" nvidia.stacks blocked_ns "$TMP/sync-time.folded"
	dir=$TMP/sync-time
	got=$(awk -v r="$IOC;" 'index($0, r) == 1 { s += $NF } END { print s + 0 }' "$TMP/sync-time.folded")
	want=$(jq -s --slurpfile c "$dir/client" '[$c[].pid] as $p | [.[].tables["nvidia.processes"][]? |
		select(.pid as $x | any($p[]; . == $x))] | group_by(.pid) | map(max_by(.syncs_total).sync_ns_total) | add' "$dir/mon")
	check "--stacks-weight sync-time: the lines' ns = the clients' nvidia.processes sync_ns_total ($want, got $got)" \
		test "$got" = "$want"
	check "--stacks-weight sync-time: between the stand-in's sleeps and the clients' clocks ($got ns)" \
		jq -e -s --argjson got "$got" --argjson us $SYNC_US \
		'$got >= ([.[].syncs] | add) * $us * 1000 and $got <= ([.[].sync_ns] | add) * 1.001' "$dir/client"
	check "--stacks-weight syncs, sync-time: both monitors exited 0, 0 syncs not kept" \
		bash -c "test \"\$(cat '$TMP/syncs/mon.rc' '$dir/mon.rc' | tr -d '\n')\" = 00 &&
			grep -qE ', 0 syncs not kept$' '$TMP/syncs/err' && grep -qE ' ns, 0 syncs not kept$' '$dir/err'"
}

# verify_trace: the trace run's capture against each client's own counts (skipped without protoc).
verify_trace() {
	local dir=$TMP/trace line pid i got want
	if ! command -v protoc >/dev/null; then
		skip "trace: protoc is missing: the capture is not decoded ('make deps')"
		return
	fi
	"$HERE/../perfetto/calls.sh" "$TMP/trace.pftrace" | LC_ALL=C sort >"$dir/calls"
	check "trace: the monitor said what it wrote, no CUDA call lost" grep -qE \
		"^gputop-bpf: trace .*, [0-9]+ CUDA launches, [0-9]+ CUDA syncs written, [0-9]+ bytes$" "$dir/err"
	check "trace: nothing said lost or not written" bash -c "! grep -qE 'lost|not written' '$dir/err'"
	while read -r line; do
		pid=$(jq .pid <<<"$line")
		i=$(($(jq .launches <<<"$line") / 160))
		got=$(awk -F'\t' -v p="$pid" '$1 == "launch" && $2 == p { print ($3 == p ? "main" : $3), $4, $6, $7 }' \
			"$dir/calls" | LC_ALL=C sort | tr '\n' '|')
		want="main cuda-client [kernel 0x0] $((40 * i))|main cuda-client graph launch $(jq .graph_launches <<<"$line")|"
		want="${want}main cuda-client kernel_a() $((40 * i))|main cuda-client ns::kernel_b(int) $((80 * i))|"
		check "trace: pid $pid: launch instants on its main thread, by kernel name, each exact ($want)" \
			test "$got" = "$want"
		got=$(awk -F'\t' -v p="$pid" '$1 == "sync" && $2 == p && $3 != p { n++; s += $7; if ($7 != 3 * '"$i"') odd++ }
			END { print n + 0, s + 0, odd + 0 }' "$dir/calls")
		check "trace: pid $pid: sync slices on 2 other threads, $((3 * i)) each, $(jq .syncs <<<"$line") in all ($got)" \
			test "$got" = "2 $(jq .syncs <<<"$line") 0"
	done <"$dir/client"
}

# verify_trace_stacks WHAT CLIENT_OUT TRACE: a --trace with --stacks: every launch instant
# carries its call chain as a Perfetto callstack (decoded by perfetto/stacks.sh), root first,
# the clients' four chains, 40 launches a chain per client (40 i), none lost.
verify_trace_stacks() {
	local what=$1 client=$2 trace=$3 n got want root
	root="_start;__libc_start_main@GLIBC_2.2.5;__libc_start_call_main;main;child"
	if ! command -v protoc >/dev/null; then
		skip "trace stacks ($what): protoc is missing: the capture is not decoded ('make deps')"
		return
	fi
	n=$(jq -s '[.[].launches] | add / 4' "$client")
	got=$("$HERE/../perfetto/stacks.sh" "$trace" | awk -F'\t' 'NF == 4 { print $2 " @ " $4 }' |
		LC_ALL=C sort | uniq -c | sed 's/^ *//' | tr '\n' '|')
	want="$n [kernel 0x0] @ $root;phase_b;cuLaunchKernelEx_ptsz|$n kernel_a() @ $root;phase_a;cuLaunchKernel|"
	want="$want$n ns::kernel_b(int) @ $root;phase_a;cuLaunchKernel_ptsz|$n ns::kernel_b(int) @ $root;phase_b;cuLaunchKernelEx|"
	echo "       trace stacks ($what): ${got:0:300}"
	check "trace stacks ($what): each launch instant's callstack its chain, root first, $n a chain" \
		test "$got" = "$want"
	check "trace stacks ($what): no launch without its stack (no note)" \
		bash -c "! grep -a -q 'without their stacks' '$trace'"
}

# check_short_lived BINARY: a process that makes its calls and launches and exits within one
# interval (-d 4), 1 s after its last ioctl: its first stack copy wakes the monitor's reader
# at once, which reads its mappings while it lives; its stacks are named from _start (the
# no-frame-pointer client: DWARF), not "?;[unknown]" as a read at the next interval would leave
# them. (One gone within a scheduling delay of its first call may still be missed: with 200 ms
# a CI run on 2 cores once had no line of the client at all.)
check_short_lived() {
	local bin=$1 dir=$TMP/short what mon chain
	for what in calls launches; do
		mkdir -p "$dir/$what" && touch "$dir/$what/gate" "$dir/$what/done"
		env GPUTOP_TEST_CALLS_MAJOR=1 "$bin" -b -J -d 4 --libcuda "$TMP/nofp/lib/libcuda.so.1" \
			--stacks "$dir/$what.folded" $([ $what = calls ] && echo --stacks-weight calls) \
			>"$dir/$what/mon" 2>"$dir/$what/err" &
		mon=$!
		first_snapshot "$dir/$what/mon"
		env LD_LIBRARY_PATH="$TMP/nofp/lib" FAKE_CUDA_SYNC_US=$SYNC_US CUDA_CLIENT_LINGER_MS=1000 "$TMP/nofp/bin/$IOC" 1 \
			"$dir/$what/gate" "$dir/$what/done" >"$dir/$what/client"
		sleep 0.3 # the client gone, the next interval 2 s away
		kill -INT $mon
		wait $mon
	done
	grep "^$IOC;" "$dir/calls.folded" | sed 's/^/       /' | head -1
	check "short-lived process: its 25 ioctls' line named from _start ($IOC;_start;...;main;child;ioctl;...)" \
		grep -qxE "$CALL_CHAIN 25" "$dir/calls.folded"
	chain="$IOC;(\[DWARF: [0-9]+ of [0-9]+ launches unwound\];)?_start;__libc_start_main@GLIBC_2.2.5;__libc_start_call_main;main;child;phase_a;cuLaunchKernel;kernel_a\(\) 40"
	grep "^$IOC;.*kernel_a" "$dir/launches.folded" | sed 's/^/       /'
	check "short-lived process: its 40 kernel_a() launches' line named from _start" \
		grep -qxE "$chain" "$dir/launches.folded"
}

# check_long_names BINARY: kernels of long names (cuda-client long): two of 300 bytes sharing their
# first 296 (past the 255 bytes a short cell keeps) are two rows of nvidia.kernels, each name whole;
# two of 5,000 sharing their first 4,996 (past BPF's 4,095-byte copy) are two rows too, each cut
# and marked "...[cut, kernel 0xHANDLE]" within a cell's 4,095 bytes; each kernel's launches exact.
check_long_names() {
	local bin=$1 dir=$TMP/long mon cpid want got
	mkdir -p "$dir" && rm -f "$dir/gate" "$dir/done"
	"$bin" -b -J -d 0.5 --libcuda "$TMP/given/libcuda.so.1" >"$dir/mon" 2>"$dir/err" &
	mon=$!
	first_snapshot "$dir/mon"
	LD_LIBRARY_PATH="$TMP/given" "$CLIENT" long "$dir/gate" "$dir/done" >"$dir/client" &
	cpid=$!
	sleep 0.3
	touch "$dir/gate"
	for _ in $(seq 100); do [ -s "$dir/client" ] && break; sleep 0.1; done
	sleep 1.2 # two snapshots with the kernels launched
	kill -INT $mon
	wait $mon
	check "long kernel names: the monitor exited 0" test $? = 0
	touch "$dir/done"
	wait $cpid
	want=$(jq -c '.handles as $h | def x(n): [range(n) | "x"] | join("");
		def cut(h): "...[cut, kernel \(h)]" as $m | ("_Z5000k" + x(4995)) as $n | $n[0:4095 - ($m | length)] + $m;
		[{kernel: ("k" + x(295) + "_one()"), handles: 1, launches_total: 5},
		 {kernel: ("k" + x(295) + "_two()"), handles: 1, launches_total: 6},
		 {kernel: cut($h[2]), handles: 1, launches_total: 7}, {kernel: cut($h[3]), handles: 1, launches_total: 8}]' "$dir/client")
	got=$(jq -c -s --slurpfile c "$dir/client" '[.[].tables["nvidia.kernels"][]? | select(.pid == $c[0].pid)] |
		group_by(.kernel) | map(last | {kernel, handles, launches_total}) | sort_by(.launches_total)' "$dir/mon")
	check "long kernel names: 4 rows, the 300-byte names whole, the 5,000-byte ones cut and marked with their handles, launches 5 6 7 8" \
		test "$got" = "$want"
	[ "$got" = "$want" ] || echo "       got: $(jq -c 'map(.kernel |= (.[0:40] + " ... " + .[-40:] + " (\(length) bytes)"))' <<<"$got")"
	check "long kernel names: 302, 302, 4095, 4095 bytes (the cut ones a cell's whole), no name lost ($(jq -c 'map(.kernel | length)' <<<"$got"))" \
		bash -c "jq -e 'map(.kernel | length) == [302, 302, 4095, 4095]' <<<'$got' >/dev/null &&
			jq -e -s '.[-1].collectors[] | select(.name == \"nvidia\") | .drops.kernel_name_unread == 0 and .drops.kernel_name_table_full == 0' '$dir/mon'"
}

CLIENT=$TMP/bin/cuda-client
NOFP=$(cd "$CUDA/.." && pwd)/cuda-nofp
MON_ENV=
mkdir -p "$TMP/bin" "$TMP/lib" "$TMP/given" "$TMP/nofp/bin" "$TMP/nofp/lib"
cp "$CUDA/cuda-client" "$TMP/bin/"
cp "$CUDA/cuda-client" "$TMP/bin/ioc-$$"
cp "$CUDA/libcuda.so.1" "$TMP/lib/"
cp "$CUDA/libcuda.so.1" "$TMP/given/"
[ -x "$NOFP/cuda-client" ] && cp "$NOFP/cuda-client" "$TMP/nofp/bin/" && cp "$NOFP/cuda-client" "$TMP/nofp/bin/ioc-$$" &&
	cp "$NOFP/libcuda.so.1" "$TMP/nofp/lib/"
chmod -R a+rX "$TMP"

for bin in "$@"; do
	echo "== $bin"
	# 1. off the loader's path: found in the running clients' maps
	run maps "$bin" "LD_LIBRARY_PATH=$TMP/lib" client
	verify maps client
	check "maps: found through a process's maps" \
		jq -e -s '.[-1].collectors[] | select(.name == "nvidia") | .detail | test("libcuda from process [0-9]+")' "$TMP/maps/mon"
	# 1b. a process started after the monitor, with a library of its own: found within 10 s
	mkdir -p "$TMP/late" && cp "$CUDA/libcuda.so.1" "$TMP/late/"
	run late "$bin" "LD_LIBRARY_PATH=$TMP/late" late
	verify late client
	check "late: picked up from the new process's maps" \
		jq -e -s '.[-1].collectors[] | select(.name == "nvidia") | .detail | test("libcuda from process [0-9]+")' "$TMP/late/mon"
	# 2. named with --libcuda (process maps are not searched then); clients start after the monitor
	# with the stand-in NVML where built: CUDA devices placed on its GPUs by their bus ids
	if [ -f "$CUDA/../nvml/libnvidia-ml.so.1" ]; then
		mkdir -p "$TMP/nvml" && cp "$CUDA/../nvml/libnvidia-ml.so.1" "$TMP/nvml/" && chmod -R a+rX "$TMP/nvml"
		MON_ENV="LD_LIBRARY_PATH=$TMP/nvml"
	else
		echo "       (no stand-in NVML in $CUDA/../nvml: the CUDA devices' NVML GPUs stay unknown in every run)"
	fi
	run given "$bin" "LD_LIBRARY_PATH=$TMP/given" monitor --libcuda "$TMP/given/libcuda.so.1" --stacks "$TMP/given.folded" \
		--record "$TMP/given.rec"
	verify given monitor
	MON_ENV=
	check "given: the --libcuda file" \
		jq -e -s '.[-1].collectors[] | select(.name == "nvidia") | .detail | test("libcuda from --libcuda")' "$TMP/given/mon"
	# --stacks: each client's launches by call chain, every frame from _start to the kernel and each
	# chain's count exact (the DWARF unwind of the copied stacks; a client whose launches outran the
	# sampling budget says so in a frame under its name, its counts shared out by key: still exact)
	check_stacks "frame pointers" "$TMP/given/client" "$TMP/given.folded"
	# the recording of that run replays the same rows (-b -J: as fast as they are read)
	"$bin" --replay "$TMP/given.rec" -b -J >"$TMP/given.replay" 2>"$TMP/given.replay.err"
	check "--record with --stacks: the replay's last nvidia.stacks rows are the recorded ones" \
		bash -c "cmp <(jq -S -s '.[-1].tables[\"nvidia.stacks\"]' '$TMP/given.rec') \
			<(jq -S -s '.[-1].tables[\"nvidia.stacks\"]' '$TMP/given.replay') &&
			jq -e -s '.[-1].tables[\"nvidia.stacks\"] | length == $((4 * PROCS))' '$TMP/given.replay'"
	# the same client and stand-in libcuda built -O2 -fomit-frame-pointer: the same chains
	if [ -x "$NOFP/cuda-client" ]; then
		CLIENT=$TMP/nofp/bin/cuda-client
		run nofp "$bin" "LD_LIBRARY_PATH=$TMP/nofp/lib" monitor --libcuda "$TMP/nofp/lib/libcuda.so.1" \
			--stacks "$TMP/nofp.folded"
		CLIENT=$TMP/bin/cuda-client
		check_stacks "no frame pointers" "$TMP/nofp/client" "$TMP/nofp.folded"
	else
		fail "--stacks: no client built without frame pointers in $NOFP (make $NOFP/cuda-client)"
	fi
	# --stacks-weight calls, blocked: the clients' ioctls by call chain (the calls collector's);
	# syncs, sync-time: their CUDA syncs (the NVIDIA collector's)
	CLIENT=$TMP/bin/$IOC MON_ENV=GPUTOP_TEST_CALLS_MAJOR=1
	run calls "$bin" "LD_LIBRARY_PATH=$TMP/given" monitor --libcuda "$TMP/given/libcuda.so.1" \
		--stacks "$TMP/calls.folded" --stacks-weight calls
	run blocked "$bin" "LD_LIBRARY_PATH=$TMP/given" monitor --libcuda "$TMP/given/libcuda.so.1" \
		--stacks "$TMP/blocked.folded" --stacks-weight blocked
	run syncs "$bin" "LD_LIBRARY_PATH=$TMP/given" monitor --libcuda "$TMP/given/libcuda.so.1" \
		--stacks "$TMP/syncs.folded" --stacks-weight syncs
	run sync-time "$bin" "LD_LIBRARY_PATH=$TMP/given" monitor --libcuda "$TMP/given/libcuda.so.1" \
		--stacks "$TMP/sync-time.folded" --stacks-weight sync-time
	CLIENT=$TMP/bin/cuda-client MON_ENV=
	check_call_stacks
	check_sync_stacks
	# the same, client and stand-in built -O2 -fomit-frame-pointer: the chains by the DWARF unwind
	if [ -x "$NOFP/cuda-client" ]; then
		CLIENT=$TMP/nofp/bin/$IOC MON_ENV=GPUTOP_TEST_CALLS_MAJOR=1
		run calls-nofp "$bin" "LD_LIBRARY_PATH=$TMP/nofp/lib" monitor --libcuda "$TMP/nofp/lib/libcuda.so.1" \
			--stacks "$TMP/calls-nofp.folded" --stacks-weight calls
		run syncs-nofp "$bin" "LD_LIBRARY_PATH=$TMP/nofp/lib" monitor --libcuda "$TMP/nofp/lib/libcuda.so.1" \
			--stacks "$TMP/syncs-nofp.folded" --stacks-weight syncs
		CLIENT=$TMP/bin/cuda-client MON_ENV=
		check_call_chains "no frame pointers" "$TMP/calls-nofp.folded" "$TMP/calls-nofp/client"
		check_sync_chains "no frame pointers" "$TMP/syncs-nofp.folded" "$TMP/syncs-nofp/client"
		check_short_lived "$bin"
	fi
	# --stacks FILE.svg: the same stacks drawn as a flame graph (well-formed XML, every launch)
	run svg "$bin" "LD_LIBRARY_PATH=$TMP/given" monitor --libcuda "$TMP/given/libcuda.so.1" --stacks "$TMP/given.svg"
	launched=$(jq -s '[.[].launches] | add' "$TMP/svg/client")
	check "--stacks FILE.svg: a well-formed SVG titled with every launch ($launched in all)" \
		bash -c "xmllint --noout '$TMP/given.svg' && grep -qF 'GPU work by CPU call stack: CUDA launches and scheduler jobs ($launched in all)' '$TMP/given.svg'"
	check "--stacks FILE.svg: boxes for both phases and a chain's kernel" \
		bash -c "grep -q '<title>phase_a (' '$TMP/given.svg' && grep -q '<title>phase_b (' '$TMP/given.svg' && grep -q '<title>ns::kernel_b(int) (' '$TMP/given.svg'"
	check_long_names "$bin"
	# --trace: per client, each launch an instant on its main thread's track named by its kernel
	# (40 i kernel_a(), 80 i ns::kernel_b(int), 40 i unnamed, its graph launches), each sync a
	# slice on its two sync threads' "CUDA syncs" (3 i each); decoded by protoc (perfetto/calls.sh)
	run trace "$bin" "LD_LIBRARY_PATH=$TMP/given" monitor --libcuda "$TMP/given/libcuda.so.1" \
		--trace "$TMP/trace.pftrace" --stacks -
	verify_trace
	# --stacks -: the tables only, every launch in them, no file said to be written
	launched=$(jq -s '[.[].launches] | add' "$TMP/trace/client")
	check "--stacks -: nvidia.stacks rows of every launch ($launched), no stacks file" \
		bash -c "jq -e -s '[.[-1].tables[\"nvidia.stacks\"][].count] | add == $launched' '$TMP/trace/mon' &&
			! grep -q 'stacks' '$TMP/trace/err'"
	# without --stacks: no rows and no work (the table is empty in every snapshot)
	check "without --stacks: no nvidia.stacks rows" \
		jq -e -s 'all(.[]; (.tables["nvidia.stacks"] // []) | length == 0)' "$TMP/maps/mon"

	# --trace with --stacks: the launch instants carry their chains (frame pointers; DWARF)
	run tracestacks "$bin" "LD_LIBRARY_PATH=$TMP/given" monitor --libcuda "$TMP/given/libcuda.so.1" \
		--stacks "$TMP/ts.folded" --trace "$TMP/ts.pftrace"
	verify_trace_stacks "frame pointers" "$TMP/tracestacks/client" "$TMP/ts.pftrace"
	if [ -x "$NOFP/cuda-client" ]; then
		CLIENT=$TMP/nofp/bin/cuda-client
		run tracenofp "$bin" "LD_LIBRARY_PATH=$TMP/nofp/lib" monitor --libcuda "$TMP/nofp/lib/libcuda.so.1" \
			--stacks "$TMP/tsnofp.folded" --trace "$TMP/tsnofp.pftrace"
		CLIENT=$TMP/bin/cuda-client
		verify_trace_stacks "no frame pointers" "$TMP/tracenofp/client" "$TMP/tsnofp.pftrace"
	fi
	# a process gone before the monitor's next read keeps its name (BPF keeps its comm): a copy of
	# stty makes one ioctl on /dev/null (counted as NVIDIA's here) and exits at once
	cp "$(command -v stty)" "$TMP/brief-stty"
	"$bin" -b -J -d 0.5 -n 4 >"$TMP/brief.json" 2>"$TMP/brief.err" &
	bpid=$!
	first_snapshot "$TMP/brief.json"
	"$TMP/brief-stty" -F /dev/null >/dev/null 2>&1
	wait $bpid
	check "a process that exited before the read is named (brief-stty, not ?)" \
		jq -e -s '[.[] | .tables["nvidia.processes"][]? | select(.comm == "brief-stty" and .ioctls_total >= 1)] | length > 0' "$TMP/brief.json"
	# 3. in the loader cache, clients started after the monitor with no LD_LIBRARY_PATH
	echo "$TMP/lib" >"$LDCONF" && ldconfig
	if ldconfig -p | grep -q "libcuda.so.1 .*=> $TMP/lib/libcuda.so.1"; then
		run cache "$bin" "" monitor
		verify cache monitor
		check "cache: found through the loader cache" \
			jq -e -s '.[-1].collectors[] | select(.name == "nvidia") | .detail | test("libcuda from loader cache")' "$TMP/cache/mon"
	else
		fail "cache: ldconfig did not take $TMP/lib into the loader cache"
	fi
	rm -f "$LDCONF" && ldconfig
	rm -rf "$TMP/maps" "$TMP/given" "$TMP/svg" "$TMP/cache" "$TMP/late" "$TMP/trace" "$TMP/tracestacks" "$TMP/tracenofp" "$TMP/calls" "$TMP/blocked" "$TMP/syncs" "$TMP/sync-time" "$TMP/nofp/gate" "$TMP/nofp/done"
	mkdir -p "$TMP/given" && cp "$CUDA/libcuda.so.1" "$TMP/given/"
	"$bin" --list --libcuda /etc/passwd >"$TMP/list" 2>&1
	check "--libcuda on a file that is not a library: the collector failed, saying why" \
		grep -A1 '^nvidia: failed' "$TMP/list"
	check "--libcuda ...: the reason names the file" grep -q 'reason: /etc/passwd: not a 64-bit shared library' "$TMP/list"
done
finish
