#!/bin/sh
# --stacks of the scheduler's jobs, sourced by scenario.sh (run.sh checks them): stack-submit
# (tests/vm/stack-submit.c, frame pointers) submits A jobs of 2 ms from main -> phase_a ->
# submit_a -> ioctl on gfx_0.0.0, then B jobs of 5 ms from main -> phase_b -> submit_b ->
# ioctl on comp_1.0.0, one job an ioctl; the monitor writes the folded stacks weighted by
# jobs, by GPU time, and as an SVG by queue wait; its last snapshot's drm_sched.stacks too; the
# first also a --trace whose job slices carry their stacks as Perfetto callstacks. Then the same from
# stack-drm (built -O2 -fomit-frame-pointer against Debian's libdrm: submit_X -> drmIoctl -> ioctl, DWARF).
# Last, by calls, the calls collector watching /dev/mockgpu's misc major (10) too
# (GPUTOP_TEST_CALLS_MAJOR): its submit and wait ioctls ("nvidia 0x01", "nvidia 0x02" there) and
# the fence waits of its waits (one in phase A, one a ring in phase B: two); then the same
# from stack-drm (the calls' stacks unwound with DWARF from their copies).
# stacks_run NAME WEIGHT FILE [TRACE [SUBMITTER]]: one monitor, one submitter; its file, stderr,
# snapshots (and the trace, base64) out.
stacks_run() {
	env ${STACKS_ENV:-} gputop-bpf --stacks "$3" ${2:+--stacks-weight $2} ${4:+--trace $4} -b -J -d 0.5 > /tmp/$1.json \
		2> /tmp/$1.err &
	MON=$!
	ready /tmp/$1.json
	${5:-stack-submit} 40 2000 25 5000 > /tmp/$1-proc.txt
	sleep 1.2
	kill -INT $MON
	wait $MON
	echo "exit=$?" >> /tmp/$1.err
	section $1-proc /tmp/$1-proc.txt
	section $1 "$3"
	section $1-err /tmp/$1.err
	tail -n 1 /tmp/$1.json > /tmp/$1-last.json # drm_sched.stacks as the last interval had it
	section $1-last /tmp/$1-last.json
	# the process rows of each snapshot (the submitter's is gone once it has exited)
	grep -o '"drm_sched.processes":\[[^]]*\]' /tmp/$1.json | sed 's/^/{/; s/$/}/' > /tmp/$1-procs.json
	section $1-procs /tmp/$1-procs.json
	if [ -n "${4:-}" ]; then
		base64 "$4" > /tmp/$1-trace.b64
		section $1-trace-b64 /tmp/$1-trace.b64
	fi
}
stacks_run stacks "" /tmp/stacks.folded /tmp/stacks.pftrace
stacks_run stacks-gpu gpu-time /tmp/stacks-gpu.folded
stacks_run stacks-svg queue-wait /tmp/stacks-svg.svg
stacks_run stacks-drm "" /tmp/stacks-drm.folded "" stack-drm
stacks_run stacks-drm-gpu gpu-time /tmp/stacks-drm-gpu.folded "" stack-drm
STACKS_ENV=GPUTOP_TEST_CALLS_MAJOR=10 stacks_run stacks-calls calls /tmp/stacks-calls.folded
STACKS_ENV=GPUTOP_TEST_CALLS_MAJOR=10 stacks_run stacks-drm-calls calls /tmp/stacks-drm-calls.folded "" stack-drm
