#!/bin/sh
# Inside the VM (kernel option gputop.scenario=bench). Two parts:
#  1. throughput: one process submits BENCH_JOBS jobs of 1 us to gfx_0.0.0, one per
#     ioctl, as fast as it can, and waits for them (the VM's maximum job rate): with
#     no tracer, with gputop-bpf (batch JSON, 1 s refresh) in each scheduler design
#     (maps, --sched-design stream, and --stacks: stream with stacks) and, where the kernel has
#     the events it names, with the seed's drm_scheduler.bt under bpftrace; rounds
#     interleaved (kernel options bench.jobs, bench.rounds);
#  2. cost: steady job rates with gputop-bpf watching (each design in turn, then the
#     streamed one with --stacks: frame pointers and stack copies for DWARF) and bpf_cost
#     measuring every program beside empty programs on the same tracepoints (bench.rates=A,B).
# bench.designs=map,stream,stacks,seed: the tracers both parts run ("none" always; seed: the
# bpftrace script, throughput only).
S=/bin/mockgpu-submit
# opt NAME DEFAULT: kernel option bench.NAME=VALUE (commas for spaces), set by bench/run.sh
opt() { v=$(tr ' ' '\n' < /proc/cmdline | sed -n "s/^bench\.$1=//p" | tr ',' ' '); echo "${v:-$2}"; }
JOBS=$(opt jobs 20000)
ROUNDS=$(opt rounds 3)
RATES=$(opt rates "2000 20000")
DESIGNS=" $(opt designs "map stream stacks seed") "
SECONDS_PER_RATE=5
# runs DESIGN: whether bench.designs names it
runs() { case $DESIGNS in *" $1 "*) return 0 ;; esac; return 1; }
section() { echo "@@BEGIN $1"; cat "$2"; echo "@@END $1"; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
now() { cut -d' ' -f1 /proc/uptime; }
# stop PID: SIGINT, then SIGKILL if it has not exited in 30 s (bpftrace under TCG once hung on exit)
stop() {
	kill -INT "$1"
	i=0
	while [ -d "/proc/$1" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	[ -d "/proc/$1" ] && { echo "@@ bench: $1 ignored SIGINT for 30 s: killed"; kill -KILL "$1"; }
	wait "$1"
}
wait_nonempty() { i=0; while [ ! -s "$1" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done; }

# storm TRACER [PID]: one timed round; the tracer's CPU ticks over it when PID is given.
storm() {
	c0=0 c1=0
	[ -n "${2:-}" ] && c0=$(cpu_ticks "$2")
	el=$($S gfx_0.0.0 "$JOBS" 1 --time | sed -n 's/^elapsed_s=//p')
	[ -n "${2:-}" ] && c1=$(cpu_ticks "$2")
	echo "storm $1 jobs $JOBS seconds $el tracer_ticks $((c1 - c0))" | tee -a /tmp/throughput.txt
}

: > /tmp/throughput.txt
seed=no
if ! runs seed; then
	seed=skipped
elif command -v bpftrace > /dev/null && [ -d /sys/kernel/tracing/events/gpu_scheduler/drm_run_job ]; then
	seed=yes
fi
echo "seed_script $seed hz $(getconf CLK_TCK 2>/dev/null || echo 100)" >> /tmp/throughput.txt
$S gfx_0.0.0 2000 1 > /dev/null # warm-up
for round in $(seq "$ROUNDS"); do
	echo "@@ bench: round $round of $ROUNDS"
	storm none
	if runs map; then
		rm -f /tmp/mon.json
		gputop-bpf -b -J -d 1 -o /tmp/mon.json 2> /dev/null &
		MON=$!
		wait_nonempty /tmp/mon.json
		storm gputop-bpf $MON
		stop $MON
	fi
	if runs stream; then
		rm -f /tmp/mon.json
		gputop-bpf --sched-design stream -b -J -d 1 -o /tmp/mon.json 2> /dev/null &
		MON=$!
		wait_nonempty /tmp/mon.json
		storm gputop-stream $MON
		stop $MON
		echo "stream_lost $(tail -n 1 /tmp/mon.json | tr ',{}' '\n\n\n' | grep -E 'ring_buffer_full|recursion_lost|job_table_evicted' | tr -d '" ' | tr '\n' ' ')" >> /tmp/throughput.txt
	fi
	if runs stacks; then
		rm -f /tmp/mon.json
		gputop-bpf --stacks /tmp/bench.folded -b -J -d 1 -o /tmp/mon.json 2> /dev/null &
		MON=$!
		wait_nonempty /tmp/mon.json
		storm gputop-stacks $MON
		stop $MON
	fi
	if [ $seed = yes ]; then
		bpftrace /bench/seed-drm_scheduler.bt > /tmp/bt.out 2> /tmp/bt.err &
		BT=$!
		wait_nonempty /tmp/bt.out # BEGIN has printed: the probes are attached
		echo "@@ bench: bpftrace attached"
		storm seed-bpftrace $BT
		stop $BT
		echo "seed_lines $(wc -l < /tmp/bt.out)" >> /tmp/throughput.txt
	fi
done
[ $seed = yes ] && [ -s /tmp/bt.err ] && { echo "seed_stderr:"; head -5 /tmp/bt.err; } >> /tmp/throughput.txt
section throughput /tmp/throughput.txt

# cost RATE DESIGN: the monitor in that scheduler design (map, stream; stacks: stream with
# --stacks) at a steady job rate.
cost() {
	rate=$1
	echo "@@ bench: cost at $rate jobs/s, $2 design"
	rm -f /tmp/mon.json
	if [ "$2" = stacks ]; then
		gputop-bpf --stacks /tmp/bench.folded -b -J -d 1 -o /tmp/mon.json 2>/tmp/mon.err &
	else
		gputop-bpf --sched-design $2 -b -J -d 1 -o /tmp/mon.json 2>/dev/null &
	fi
	MON=$!
	bpf_cost $((SECONDS_PER_RATE + 2)) --primitives > /tmp/cost.txt &
	COST=$!
	# Measure from the first snapshot on: loading the BPF programs is start-up, not steady state.
	wait_nonempty /tmp/mon.json
	c0=$(cpu_ticks $MON)
	us0=$(awk '{ print $14, $15 }' /proc/$MON/stat)
	t0=$(now)
	$S gfx_0.0.0 $((rate * SECONDS_PER_RATE)) 0 --rate $rate > /tmp/submit.txt
	t1=$(now)
	c1=$(cpu_ticks $MON)
	us1=$(awk '{ print $14, $15 }' /proc/$MON/stat)
	rss=$(awk '/^VmRSS/ { print $2 }' /proc/$MON/status)
	hwm=$(awk '/^VmHWM/ { print $2 }' /proc/$MON/status)
	wait $COST
	kill -INT $MON
	wait $MON
	{
		echo "rate $rate"
		echo "design $2"
		cat /tmp/submit.txt
		echo "wall_s $t0 $t1"
		echo "monitor_cpu_ticks $((c1 - c0)) hz $(getconf CLK_TCK 2>/dev/null || echo 100)"
		echo "monitor_user_sys_ticks $us0 $us1"
		echo "monitor_rss_kb $rss hwm_kb $hwm"
		echo "monitor_drops $(tail -n 1 /tmp/mon.json | tr ',{}' '\n\n\n' | grep -E 'ring_buffer_full|recursion_lost|job_table_evicted|evicted' | tr -d '" ' | tr '\n' ' ')"
		echo "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
		cat /tmp/cost.txt
	} > /tmp/bench.txt
	[ "$2" = stacks ] && grep '^gputop-bpf: stacks' /tmp/mon.err >> /tmp/bench.txt
	[ "$2" = map ] && section "bench-$rate" /tmp/bench.txt || section "bench-$2-$rate" /tmp/bench.txt
}
for rate in $RATES; do
	for design in map stream stacks; do
		runs $design && cost $rate $design
	done
done
