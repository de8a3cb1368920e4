#!/bin/sh
# Inside the VM (kernel option gputop.scenario=example): about 40 seconds of varied
# mock GPU work, recorded by gputop-bpf --record, for examples/ and the TUI tests.
# With gputop.scenario=example-trace: the same work, its first 12 s written by --trace
# (examples/mockgpu-7.3.pftrace), out in base64.
S=/bin/mockgpu-submit
if grep -q 'gputop.scenario=example-trace' /proc/cmdline; then
	OUTF=/tmp/example.pftrace
	gputop-bpf -b -J -d 0.5 --trace $OUTF --duration 12 -o /tmp/example.jsonl 2>/tmp/trace.err &
else
	OUTF=/tmp/example.jsonl
	gputop-bpf -b -J -d 0.5 --record $OUTF -o /dev/null &
fi
MON=$!
i=0 # attached once its first snapshot is out (loading every collector takes seconds under TCG)
while [ ! -s /tmp/example.jsonl ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
sleep 1
# A steady "game" on gfx with a ramp, a compute job with bursts, copies on sdma0.
( for r in 100 200 400 600 400 300 200 500 800 300; do
	$S gfx_0.0.0 $((r * 3)) 1500 --rate $r > /dev/null
done ) &
A=$!
( sleep 2; for i in 1 2 3 4 5 6 7 8; do
	$S comp_1.0.0 40 4000 --burst > /dev/null; sleep 2
done ) &
B=$!
( sleep 4; for i in 1 2 3 4 5 6; do
	$S sdma0 15 3000 --burst > /dev/null
	$S comp_1.0.0 3 1000 --dep gfx_0.0.0 --dep-us 30000 --gap-us 40000 > /dev/null
	sleep 3
done ) &
C=$!
# GPU memory and engine time (mockdrm, fdinfo): a process holding 1.2 MiB of buffers with
# a forked child, in a cgroup of our own; one running 20 ms jobs 30 ms apart, then another
# holding 20 files of 64 KiB each in each of 4 processes.
mkdir -p /sys/fs/cgroup
mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null
mkdir -p /sys/fs/cgroup/example
( sleep 2; sh -c 'echo $$ > /sys/fs/cgroup/example/cgroup.procs; exec drm-holder mockdrm 34 64 128 1024 32' > /dev/null ) &
F=$!
( sleep 5; drm-load run 20 30 25 > /dev/null ) &
G=$!
( sleep 12; drm-load many 4 20 15 > /dev/null ) &
H=$!
# A "game" flipping every vblank (a frame missed on purpose every 200), and a client
# waiting for vblank events for 5 s in the middle.
( sleep 1; vblank-client flip vkms 2000 200 > /dev/null ) &
D=$!
( sleep 12; vblank-client wait vkms 300 > /dev/null ) &
E=$!
wait $A
wait $B
wait $C
wait $D
wait $E
wait $F
wait $G
wait $H
sleep 2
kill -INT $MON
wait $MON
if [ "$OUTF" = /tmp/example.pftrace ]; then
	cat /tmp/trace.err
	echo "@@BEGIN example-trace-b64"
	base64 $OUTF
	echo "@@END example-trace-b64"
else
	echo "@@BEGIN example"
	cat /tmp/example.jsonl
	echo "@@END example"
fi
