#!/bin/sh
# Inside the VM (kernel option gputop.scenario=bench): steady job rates through the
# mock GPU, with gputop-bpf watching and bpf_cost measuring every program.
S=/bin/mockgpu-submit
SECONDS_PER_RATE=5
section() { echo "@@BEGIN $1"; cat "$2"; echo "@@END $1"; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

for rate in ${BENCH_RATES:-2000 10000 50000 100000}; do
	rm -f /tmp/mon.json
	gputop-bpf -b -J -d 1 -o /tmp/mon.json 2>/dev/null &
	MON=$!
	bpf_cost $((SECONDS_PER_RATE + 2)) > /tmp/cost.txt &
	COST=$!
	# Measure from the first snapshot on: loading the BPF programs is start-up, not steady state.
	while [ ! -s /tmp/mon.json ]; do sleep 0.1; done
	c0=$(cpu_ticks $MON)
	t0=$(cut -d' ' -f1 /proc/uptime)
	$S gfx_0.0.0 $((rate * SECONDS_PER_RATE)) 0 --rate $rate > /tmp/submit.txt
	t1=$(cut -d' ' -f1 /proc/uptime)
	c1=$(cpu_ticks $MON)
	rss=$(awk '/^VmRSS/ { print $2 }' /proc/$MON/status)
	hwm=$(awk '/^VmHWM/ { print $2 }' /proc/$MON/status)
	wait $COST
	kill -INT $MON
	wait $MON
	{
		echo "rate $rate"
		cat /tmp/submit.txt
		echo "wall_s $t0 $t1"
		echo "monitor_cpu_ticks $((c1 - c0)) hz $(getconf CLK_TCK 2>/dev/null || echo 100)"
		echo "monitor_rss_kb $rss hwm_kb $hwm"
		cat /tmp/cost.txt
	} > /tmp/bench.txt
	section "bench-$rate" /tmp/bench.txt
	section "monitor-$rate" /tmp/mon.json
done
