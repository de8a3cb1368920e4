#!/usr/bin/env bash
# BPF tests on the running kernel: every program whose tracepoint exists loads and
# attaches, missing ones are reported with a reason, batch JSON is well-formed, the
# IRQ collector's counts agree with /proc/interrupts, and the errors are right.
# Usage: tests/bpf/run.sh BINARY...   (needs root; skips loudly without it)
set -u
SUITE="bpf tests"
. "$(dirname "$0")/../lib.sh"

needs_root_and_jq "BPF tests need root (CI runs as root): run 'sudo make test-bpf'"
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
TRACEFS=/sys/kernel/tracing
[ -d $TRACEFS/events ] || TRACEFS=/sys/kernel/debug/tracing
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

irq_snapshot() { # "irq total" per line, from /proc/interrupts
	awk 'NR > 1 && $1 ~ /^[0-9]+:$/ { s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; sub(":", "", $1); print $1, s }' /proc/interrupts
}

test_list() {
	local bin=$1 out=$TMP/list
	check "--list exits 0" to "$out" "$bin" --list
	check "--list: no tracepoint failed to attach" bash -c "! grep -q '^  failed' $out"
	check "--list: irq collector attached" grep -q '^irq: attached' "$out"
	check "--list: irq_handler_entry attached" grep -q 'attached  irq:irq_handler_entry' "$out"
	if [ -e $TRACEFS/events/gpu_scheduler ]; then
		check "--list: drm_sched attached (gpu_scheduler exists here)" grep -q '^drm_sched: attached' "$out"
		for ev in $TRACEFS/events/gpu_scheduler/*/; do
			ev=$(basename "$ev")
			grep -q "gpu_scheduler:$ev" "$out" || continue
			check "--list: gpu_scheduler:$ev attached or its twin generation" \
				grep -qE "^  (attached|available) +gpu_scheduler:$ev" "$out"
		done
	else
		check "--list: drm_sched unavailable without gpu_scheduler" grep -q '^drm_sched: unavailable' "$out"
		check "--list: drm_sched says why" grep -q 'reason: no gpu_scheduler tracepoints' "$out"
		check "--list: drm_sched says how to fix" grep -q 'fix: .*amdgpu' "$out"
		check "--list: every scheduler tracepoint listed missing" \
			test "$(grep -c '^  missing   gpu_scheduler:' "$out")" -eq 9
	fi
	if [ -d "$TRACEFS/events/drm" ]; then
		check "--list: display attached to drm:drm_vblank_event" \
			grep -qE '^  attached +drm:drm_vblank_event$' "$out"
	else
		check "--list: display unavailable without the drm module, with reason and fix" \
			bash -c "grep -q '^display: unavailable' '$out' && grep -q 'reason: no drm tracepoints' '$out' && grep -q 'fix: *load your display driver' '$out'"
		check "--list: the three vblank tracepoints listed missing" \
			test "$(grep -c '^  missing   drm:drm_vblank_event' "$out")" -eq 3
	fi
	# no GPU driver has registered a character major: no ioctl program runs on this machine's ioctls
	if ! grep -qE '^ *[0-9]+ (drm|nvidia)' /proc/devices; then
		check "--list: no GPU device: the ioctl tracepoints wait for one, the fence waits attached" \
			bash -c "grep -A5 '^calls: attached' '$out' | grep -c '^  available syscalls:sys_e[a-z]*_ioctl  - attached once a GPU driver registers a device' | grep -qx 2 && test \$(grep -A5 '^calls: attached' '$out' | grep -c '^  attached  dma_fence:') -eq 2"
		check "--programs: no GPU device: no program on the ioctl tracepoints" \
			bash -c "'$bin' -b -J -n 2 -d 0.3 --programs | jq -e -s '.[-1].tables[\"self.programs\"] | length > 0 and ([.[] | select(.tracepoint | test(\"ioctl\"))] | length == 0)'"
	else
		skip "a GPU driver is registered here: the no-GPU ioctl checks need a machine without one"
	fi
}

test_json() {
	local bin=$1 out=$TMP/json
	check "-b -n 2 -J exits 0" to "$out" "$bin" -b -n 2 -J -d 0.3
	check "-J: two lines" test "$(wc -l <"$out")" -eq 2
	check "-J: each line is one JSON object" jq -e -s 'length == 2 and all(type == "object")' "$out"
	check "-J: seq 1 then 2" jq -e -s 'map(.seq) == [1, 2]' "$out"
	check "-J: interval close to the delay" jq -e -s 'all(.interval_s > 0.2 and .interval_s < 0.6)' "$out"
	check "-J: every collector has a state" \
		jq -e -s --argjson n "$("$bin" --version | sed -n '/^collectors:/,$p' | grep -c '^  ')" \
			'all(.collectors | length == $n and all(.state | IN("attached","unavailable","failed")))' "$out"
	check "-J: unavailable collectors carry a reason" \
		jq -e -s 'all(.collectors[] | select(.state != "attached") | .reason | length > 0)' "$out"
	if [ ! -e $TRACEFS/events/gpu_scheduler ]; then
		check "-J: drm_sched unavailable with its reason" \
			jq -e -s 'all(.collectors[] | select(.name == "drm_sched") | .state == "unavailable" and (.reason | test("gpu_sched")))' "$out"
	fi
	check "-J: tables an object, format 3" \
		jq -e -s 'all((.tables|type) == "object" and .format == 3)' "$out"
	check "-o FILE writes the snapshots" "$bin" -b -n 1 -J -d 0.2 -o "$TMP/o.json"
	check "-o FILE: one JSON line" jq -e -s 'length == 1' "$TMP/o.json"
	check "text mode names the collectors" bash -c "'$bin' -b -n 1 -d 0.2 | grep -q '^  drm_sched '"
}

# Drive disk interrupts (synchronous direct writes), then compare the collector's totals with /proc/interrupts.
test_irq_counts() {
	local bin=$1 out=$TMP/irq before=$TMP/before after=$TMP/after line busiest
	irq_snapshot >"$before"
	"$bin" -b -J -n 3 -d 1 --all-irqs >"$out" &
	local pid=$!
	( end=$((SECONDS + 4)); while [ $SECONDS -lt $end ]; do
		dd if=/dev/zero of="$TMP/load" bs=4k count=1 oflag=direct,sync conv=notrunc 2>/dev/null
		done ) &
	local load=$!
	wait $pid
	local rc=$?
	kill $load 2>/dev/null; wait $load 2>/dev/null
	irq_snapshot >"$after"
	check "--all-irqs run exits 0" test $rc -eq 0
	busiest=$(join "$before" "$after" | awk '{ print $1, $3 - $2 }' | sort -k2 -n -r | head -1)
	line=${busiest%% *}
	local delta=${busiest##* }
	if [ -z "$line" ] || [ "$delta" -lt 20 ]; then
		skip "IRQ counts: no interrupt line fired 20 times in the window (busiest: '$busiest')"
		return
	fi
	local seen
	seen=$(jq -s --argjson irq "$line" '[.[-1].tables["irq.lines"][] | select(.irq == $irq) | .total] | first // 0' "$out")
	echo "       irq $line: /proc/interrupts +$delta over the run, gputop-bpf counted $seen"
	check "IRQ $line: counted no more than /proc/interrupts ($seen <= $delta)" test "$seen" -le "$delta"
	check "IRQ $line: counted at least 70% of /proc/interrupts ($seen vs $delta)" test $((seen * 10)) -ge $((delta * 7))
	check "IRQ $line: rate reported" jq -e -s --argjson irq "$line" \
		'[.[1:][].tables["irq.lines"][] | select(.irq == $irq) | .per_s] | add > 0' "$out"
	check "IRQ: GPU lines only by default" bash -c \
		"'$bin' -b -J -n 1 -d 0.2 | jq -e 'all(.tables[\"irq.lines\"][]; .gpu)' >/dev/null"
}

# Our own cost (run under disk load by test_irq_counts): per program from the kernel's BPF
# statistics, and the monitor's CPU and memory; the statistics setting is restored on exit.
test_self_cost() {
	local bin=$1 out=$TMP/irq stats_before=$2 P='.tables["self.programs"][] | select(.program == "irq_entry")'
	check "self.programs: irq_entry ran, at least once per interrupt counted" \
		jq -e -s "(.[-1] | $P | .events_total) as \$n | \$n > 0 and \$n >= (.[-1].tables[\"irq.lines\"] | map(.total) | add)" "$out"
	# the counters are read once before the first interval: the rates add up to what came after that read
	check "self.programs: the per-second rates add up to the total's growth, exactly; the first counts its interval only" \
		jq -e -s "([.[1:][] | .interval_s as \$iv | $P | .events_per_s * \$iv] | add) as \$s | ((.[-1] | $P | .events_total) - (.[0] | $P | .events_total)) as \$t | (\$s - \$t | fabs) < 0.5 and (.[0] | .interval_s as \$iv | $P | .events_per_s * \$iv <= .events_total + 0.5)" "$out"
	check "self.programs: time per event measured (0 < ns < 1 ms)" \
		jq -e -s "[.[] | $P | .ns_per_event | numbers] | length > 0 and all(. > 0 and . < 1e6)" "$out"
	check "self.process: resident memory (> 1 MiB) and CPU % from the first snapshot (read once before it)" \
		jq -e -s 'all(.[].tables["self.process"][0]; .rss_bytes > 1048576 and (.cpu_pct | type) == "number")' "$out"
	check "--list: the self collector says the BPF statistics are on" \
		bash -c "'$bin' --list | grep -A1 '^self: attached' | grep -q 'BPF run-time statistics on'"
	check "kernel.bpf_stats_enabled is back to what it was ($stats_before)" \
		test "$(cat /proc/sys/kernel/bpf_stats_enabled)" = "$stats_before"
}

test_errors() {
	local bin=$1 rc
	"$bin" -d -1 >/dev/null 2>"$TMP/err"; rc=$?
	check "-d -1: exit 2" test $rc -eq 2
	check "-d -1: names the value" grep -q "invalid delay '-1'" "$TMP/err"
	"$bin" -n abc >/dev/null 2>"$TMP/err"; rc=$?
	check "-n abc: exit 2 with message" bash -c "[ $rc -eq 2 ] && grep -q \"invalid iteration count 'abc'\" $TMP/err"
	if command -v setpriv >/dev/null; then
		cp "$bin" "$TMP/unpriv" && chmod 755 "$TMP" "$TMP/unpriv"
		# An unprivileged start: what needs no privilege runs; the rest says what it needs, once each.
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			"$TMP/unpriv" -b -n 1 -J >"$TMP/unpriv.json" 2>"$TMP/err"; rc=$?
		check "not root: starts anyway (exit 0)" test $rc -eq 0
		check "not root: one line on stderr naming the capabilities and sudo" \
			bash -c "[ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q 'CAP_BPF, CAP_PERFMON, CAP_DAC_READ_SEARCH and CAP_SYS_ADMIN.*sudo' '$TMP/err'"
		check "not root: sensors and self attached, devices and memory where there is a DRM device, nothing else" \
			jq -e '[.collectors[] | select(.state == "attached") | .name] | (index("sensors") and index("self")) and all(IN("devices", "memory", "self", "sensors"))' "$TMP/unpriv.json"
		# (one whose kernel modules are not loaded says that instead: root would not make it run)
		check "not root: every BPF collector unavailable with the capabilities and the setcap fix, or its module not loaded" \
			jq -e '[.collectors[] | select(.name | IN("drm_sched", "irq", "calls", "display", "amdgpu", "intel", "nvidia", "gpu_time"))] | length == 8 and all(.state == "unavailable" and (((.reason | test("needs root or CAP_BPF, CAP_PERFMON, CAP_DAC_READ_SEARCH and CAP_SYS_ADMIN")) and (.fix | test("setcap cap_bpf,cap_perfmon,cap_dac_read_search,cap_sys_admin[+]ep"))) or ((.reason | test("module is not loaded$|^neither .* is loaded$")) and (.fix | test("then run .sudo gputop-bpf.")))))' "$TMP/unpriv.json"
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			"$TMP/unpriv" --list >"$TMP/unpriv.list" 2>&1; rc=$?
		check "not root: --list runs (exit 0) and says per collector what it lacks" \
			bash -c "[ $rc -eq 0 ] && grep -q '^sensors: attached' '$TMP/unpriv.list' && [ \$(grep -cE 'reason: (it needs root or CAP_BPF|.* is not loaded$|neither .* is loaded$)' '$TMP/unpriv.list') -eq 8 ]"
		check "not root, --sysfs on the fixture tree: the sensors read as for root" \
			bash -c "tests/fixtures/sysfs/make-trees.sh '$TMP/utrees' && chmod -R a+rX '$TMP/utrees' &&
				setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all '$TMP/unpriv' -b -J -n 1 --sysfs '$TMP/utrees/mixed' 2>/dev/null |
				jq -e '.tables[\"sensors.gpus\"] | length == 4 and (map(select(.dev == \"card0\"))[0].temp_c == 45)'"
	else
		skip "not-root error: setpriv (util-linux) missing"
	fi
	"$bin" -b -d 0.2 >/dev/null 2>&1 &
	local pid=$!
	sleep 1.2
	kill -INT $pid
	wait $pid; rc=$?
	check "SIGINT: clean exit 0" test $rc -eq 0
}

# --sysfs on the fixture trees: the sensors and the sysfs memory totals through the whole
# pipeline (collector -> JSON, batch text, metrics), each value what the files say.
test_sysfs_fixtures() {
	local bin=$1 trees=$TMP/trees out=$TMP/sysfs.json port=19467 pid
	check "fixture trees written" tests/fixtures/sysfs/make-trees.sh "$trees"
	check "--sysfs mixed: -J -n 2 exits 0" to "$out" "$bin" -b -J -n 2 -d 0.3 --sysfs "$trees/mixed"
	local row='.tables["sensors.gpus"][] | select(.dev == "card0")'
	check "--sysfs: the devices are the tree's four cards" \
		jq -e -s 'all(.devices | map(.name) == ["card0", "card1", "card2", "card3"])' "$out"
	check "--sysfs: amdgpu temperatures in degrees (millidegrees in the files)" \
		jq -e -s "all($row | .temp_c == 45 and .temp_hotspot_c == 52 and .temp_mem_c == 60)" "$out"
	check "--sysfs: amdgpu power and cap in watts, clocks in MHz, fan, busy" \
		jq -e -s "all($row | .power_w == 123 and .power_cap_w == 250 and .gfx_mhz == 1850 and .mem_mhz == 1000 and .fan_rpm == 1200 and .busy_pct == 42 and .mem_busy_pct == 7)" "$out"
	check "--sysfs: i915 clock; xe clock, cap and temperatures" \
		jq -e -s 'all(.tables["sensors.gpus"] | (map(select(.dev == "card1"))[0].gfx_mhz == 1300) and (map(select(.dev == "card2"))[0] | .gfx_mhz == 2100 and .power_cap_w == 190 and .temp_c == 55 and .temp_mem_c == 61))' "$out"
	check "--sysfs: idle and energy-made power known from the first snapshot (the counters read once before it): 0, they stand still" \
		jq -e -s 'all(.[].tables["sensors.gpus"][] | select(.dev == "card2"); .idle_pct == 0 and .power_w == 0)' "$out"
	check "--sysfs: the ROCm process on card0's GPU from the KFD tree (VRAM, CUs, queues, its PCI address)" \
		jq -e -s 'all(.tables["kfd.processes"] | length == 1 and (.[0] | .pid == 4242 and .dev == "0000:03:00.0" and .vram_bytes == 1073741824 and .cu_occupancy == 12 and .queues == 2))' "$out"
	check "--sysfs: amdgpu VRAM used / size from the tree" \
		jq -e -s 'all(.tables["memory.devices"][] | select(.dev == "0000:03:00.0" and .region == "vram") | .used_bytes == 2147483648 and .size_bytes == 17163091968)' "$out"
	check "--sysfs: batch text shows the sensors table" \
		bash -c "'$bin' -b -n 1 --sysfs '$trees/mixed' | grep -E '^card0 +amdgpu +0000:03:00.0 +42.0 +7.0 +- +45 +52 +60 +123.0 +250.0 +1850 +1000 +1200' >/dev/null"
	"$bin" -d 0.3 --listen "127.0.0.1:$port" --sysfs "$trees/mixed" </dev/null >/dev/null &
	pid=$!
	for _ in $(seq 50); do curl -s "http://127.0.0.1:$port/metrics" >"$TMP/m.txt" 2>/dev/null && grep -q sensors "$TMP/m.txt" && break; sleep 0.2; done
	kill -INT $pid; wait $pid
	check "--sysfs: metrics in base units (celsius, watts, hertz)" bash -c "
		grep -qx 'gputop_sensors_gpus_temp_celsius{device=\"card0\"} 45' '$TMP/m.txt' &&
		grep -qx 'gputop_sensors_gpus_power_watts{device=\"card0\"} 123' '$TMP/m.txt' &&
		grep -qx 'gputop_sensors_gpus_gfx_hertz{device=\"card0\"} 1850000000' '$TMP/m.txt' &&
		grep -qx 'gputop_sensors_gpus_fan_rpm{device=\"card0\"} 1200' '$TMP/m.txt'"
	check "--sysfs hostile: runs, its nonsense unknown" to "$out" "$bin" -b -J -n 2 -d 0.2 --sysfs "$trees/hostile"
	check "--sysfs hostile: three cards, no temperature or power believed" \
		jq -e -s 'all(.tables["sensors.gpus"] | length == 3 and all(.temp_c == null and .power_w == null and .busy_pct == null))' "$out"
	check "--sysfs on a file: refused, exit 2 or 1 with the reason" \
		bash -c "! '$bin' -b -n 1 --sysfs /etc/passwd 2>&1 | grep -q . || '$bin' -b -n 1 --sysfs /etc/passwd 2>&1 | grep -q 'not a directory'"
}

# The scheduler's streamed design (--sched-design stream): the same collector, the same
# tracepoints attached or listed missing; where gpu_scheduler exists it attaches and drains.
test_sched_stream() {
	local bin=$1 map=$TMP/list-map out=$TMP/list-stream
	"$bin" --list 2>/dev/null | sed -n '/^drm_sched: /,/^[a-z_]*: /p' | sed '$d' | grep -v '^  detail' >"$map"
	check "--sched-design stream --list exits 0" to "$out" "$bin" --sched-design stream --list
	check "--sched-design stream: drm_sched listed as with the map design (state, tracepoints)" \
		bash -c "sed -n '/^drm_sched: /,/^[a-z_]*: /p' '$out' | sed '\$d' | grep -v '^  detail' | diff -q - '$map'"
	check "--sched-design stream: batch JSON, exit 0" to "$TMP/stream.json" "$bin" --sched-design stream -b -J -n 2 -d 0.2
	if [ -e $TRACEFS/events/gpu_scheduler ]; then
		check "--sched-design stream: the streamed design attached" \
			jq -e -s '.[-1].collectors[] | select(.name == "drm_sched") | .state == "attached" and (.detail | test("streamed"))' "$TMP/stream.json"
	else
		check "--sched-design stream: drm_sched unavailable here, as with maps" \
			jq -e -s '.[-1].collectors[] | select(.name == "drm_sched") | .state == "unavailable"' "$TMP/stream.json"
	fi
	check "--sched-design other: refused, exit 2" bash -c "'$bin' --sched-design both -b -n 1 >/dev/null 2>&1; [ \$? = 2 ]"
}

STATS_BEFORE=$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null || echo none)
for bin in "$@"; do
	echo "== $bin"
	test_list "$bin"
	test_sched_stream "$bin"
	test_json "$bin"
	test_irq_counts "$bin"
	test_self_cost "$bin" "$STATS_BEFORE"
	test_errors "$bin"
	test_sysfs_fixtures "$bin"
done
finish
