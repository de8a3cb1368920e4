#!/bin/sh
# The scheduler collector's exactness runs, sourced by scenario.sh (and run.sh checks them):
# a storm, a mixed workload (twice: as is and with the primaries held), a late start.
# sched_exact DESIGN PREFIX: with --sched-design DESIGN ("" : the default), every section's
# name starting with PREFIX.
# A mixed workload: five concurrent submitters on three rings, bursts and cross-ring
# dependencies; every count must come out exact, per ring and per process. Run twice:
# as is, and with the queue and run primary programs held 100 us per event
# (GPUTOP_TEST_SPIN_NS, a test hook), so that other tasks nest into them (7.3 runs
# tracepoints preemptible) and their twins must rescue those events.
mixed() {
	local try=1
	mixed_run "$@"
	# A monitor whose snapshots stopped while the workload ran: its threads sleep in the
	# kernel with timeouts that do not fire (the stack is recorded; the same with a relative
	# ppoll sleep and with nohz=off; a TCG timer problem under this load, not understood):
	# said, with where its threads were, and run again, up to three times in all.
	while [ "$(wc -l < /tmp/$1.json)" -lt 6 ] && [ $try -lt 3 ]; do
		echo "@@ stalled $1: $(wc -l < /tmp/$1.json) snapshots; running it again"
		echo "stalled $1 $(wc -l < /tmp/$1.json)" >> /tmp/stalls.txt
		try=$((try + 1))
		mixed_run "$@"
	done
	for p in 1 2 3 4 5; do sed "s/^/M$p /" /tmp/m$p.txt; done > /tmp/$1-procs.txt
	section $1-procs /tmp/$1-procs.txt
	section $1 /tmp/$1.json
	section $1-err /tmp/$1.err
}
# The mixed workload's five submitters (/tmp/m1.txt ... m5.txt: their pids), to their end:
# gfx_0.0.0 740 jobs (M5's 40 of them the dependencies of its comp_1.0.0 jobs),
# comp_1.0.0 240, sdma0 150.
mixed_load() {
	$S gfx_0.0.0 400 200 --gap-us 100 > /tmp/m1.txt &
	M1=$!
	$S gfx_0.0.0 300 100 --burst > /tmp/m2.txt &
	M2=$!
	$S comp_1.0.0 200 300 --gap-us 200 > /tmp/m3.txt &
	M3=$!
	$S sdma0 150 100 --burst > /tmp/m4.txt &
	M4=$!
	$S comp_1.0.0 40 500 --dep gfx_0.0.0 --dep-us 2000 --gap-us 1000 > /tmp/m5.txt &
	M5=$!
	wait $M1 $M2 $M3 $M4 $M5
}
mixed_run() {
	env ${2:-} gputop-bpf $SD -b -J -d 0.5 > /tmp/$1.json 2> /tmp/$1.err &
	MON=$!
	ready /tmp/$1.json
	sleep 1 # a run has 6 snapshots or more unless the monitor stalled (mixed above)
	mixed_load
	sleep 1.5
	if [ "$(wc -l < /tmp/$1.json)" -lt 6 ]; then # stalled: where are its threads?
		for t in /proc/$MON/task/*; do
			echo "thread $(basename $t) $(cat $t/comm) state $(cut -d' ' -f3 $t/stat) wchan $(cat $t/wchan)"
			sed 's/^/    /' $t/stack 2>/dev/null
		done >> /tmp/stalls.txt
	fi
	kill -INT $MON
	wait $MON
	echo "exit=$?" >> /tmp/$1.err
}
# A 10 s capture (--trace, its default design: the streamed one) with the mixed workload in it;
# run.sh decodes its job slices (tests/perfetto/jobs.sh) against the workload's truth. The file
# comes out in base64. A monitor still running 30 s after the workload (stalled: mixed above)
# is stopped, and said.
trace_capture() {
	gputop-bpf --trace /tmp/capture.pftrace --duration 10 -b -J -d 0.5 > /tmp/capture.json \
		2> /tmp/capture.err &
	MON=$!
	ready /tmp/capture.json
	mixed_load
	i=0
	while kill -0 $MON 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	if kill -0 $MON 2>/dev/null; then
		echo "@@ capture: still running 30 s after the workload; stopped"
		kill -INT $MON
	fi
	wait $MON
	echo "exit=$?" >> /tmp/capture.err
	for p in 1 2 3 4 5; do sed "s/^/M$p /" /tmp/m$p.txt; done > /tmp/capture-procs.txt
	section capture-procs /tmp/capture-procs.txt
	section capture /tmp/capture.json
	section capture-err /tmp/capture.err
	base64 /tmp/capture.pftrace > /tmp/capture.b64
	section capture-b64 /tmp/capture.b64
}
# Captures of job storms into 1 MiB (--trace-max-mb 1), 20,000 jobs of 1 us on gfx_0.0.0 each:
# tstorm as fast as it can submit (thousands queued at once: past a ring's 1024 lanes), and
# tstorm-spaced 20 us apart (few at once: the size limit is what stops it). run.sh checks each
# file's size, and that the jobs written and those counted lost are the ring's completed jobs.
# trace_storm NAME [SUBMIT-OPTIONS]
trace_storm() {
	gputop-bpf --trace /tmp/$1.pftrace --trace-max-mb 1 -b -J -d 0.5 > /tmp/$1.json 2> /tmp/$1.err &
	MON=$!
	ready /tmp/$1.json
	$S gfx_0.0.0 20000 1 ${2:-} > /dev/null
	sleep 1.5
	kill -INT $MON
	wait $MON
	echo "exit=$?" >> /tmp/$1.err
	wc -c < /tmp/$1.pftrace > /tmp/$1-size.txt
	tail -1 /tmp/$1.json > /tmp/$1-last.json
	section $1-last /tmp/$1-last.json
	section $1-err /tmp/$1.err
	section $1-size /tmp/$1-size.txt
	base64 /tmp/$1.pftrace > /tmp/$1.b64
	section $1-b64 /tmp/$1.b64
}
sched_exact() {
	SD=${1:+--sched-design $1}
	P=$2
	t0=$(cut -d' ' -f1 /proc/uptime)
	# A job storm: one process, 100,000 jobs of 1 us on one ring, one ioctl each, as fast as it
	# can; the queue grows far deeper than the in-flight table (16384) holds.
	gputop-bpf $SD -b -J -d 0.5 > /tmp/${P}storm.json 2> /tmp/${P}storm.err &
	MON=$!
	ready /tmp/${P}storm.json
	$S gfx_0.0.0 100000 1 > /tmp/${P}storm-proc.txt
	sleep 1.5
	kill -INT $MON
	wait $MON
	echo "exit=$?" >> /tmp/${P}storm.err
	section ${P}storm-proc /tmp/${P}storm-proc.txt
	section ${P}storm-err /tmp/${P}storm.err
	section ${P}storm /tmp/${P}storm.json

	: > /tmp/stalls.txt
	mixed ${P}mixed
	mixed ${P}mixed-spin GPUTOP_TEST_SPIN_NS=100000
	section ${P}stalls /tmp/stalls.txt

	# Started late: 60 jobs of 50 ms queued at once on sdma0 (one on the hardware at a time),
	# and the monitor attached while most of them still wait: not behind the release of the last
	# monitor's probes (it held 7.3's monitor past the 3 s of jobs, which left no snapshot)
	reapers_gone
	$S sdma0 60 50000 --burst > /dev/null &
	L=$!
	sleep 0.3
	gputop-bpf $SD -b -J -d 0.5 > /tmp/${P}late.json 2> /dev/null &
	MON=$!
	wait $L
	ready /tmp/${P}late.json
	sleep 1
	kill -INT $MON
	wait $MON
	section ${P}late /tmp/${P}late.json
	echo "@@ sched-exact ${1:-map}: $(echo "$t0 $(cut -d' ' -f1 /proc/uptime)" | awk '{ printf "%.0f", $2 - $1 }') s"
}
