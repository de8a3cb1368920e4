#!/bin/sh
# The workload inside the VM, and what it reports. Known truth, for check.sh:
#   P1: 50 jobs x 2 ms on gfx_0.0.0, 1 ms apart      P2: 30 jobs x 1 ms on comp_1.0.0
#   P3: a burst of 20 jobs x 3 ms on sdma0 (1 job on the hardware at a time)
#   P4: 5 jobs x 1 ms on comp_1.0.0, each depending on a 100 ms job it puts on gfx_0.0.0,
#       150 ms apart (>= 6.17 counts a wait only while the dependency is unsignalled)
S=/bin/mockgpu-submit
section() { echo "@@BEGIN $1"; cat "$2"; echo "@@END $1"; }
# ready FILE: waits (60 s at most) for a background monitor's first snapshot in FILE: from then
# on it is attached. (Loading every collector takes seconds under TCG: fixed sleeps were short.)
ready() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
}
# reapers_gone: until no earlier monitor's probes are still being released (its gputop-bpf-exit
# child; a new monitor's attach waits for that, seconds under TCG), 60 s at most.
reapers_gone() {
	i=0
	while grep -qsx gputop-bpf-exit /proc/[0-9]*/comm && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
}
# unhold FILE PID: ends a drm-holder (parent and child, named in its first line of FILE).
unhold() {
	read -r _ parent _ child _ < "$1"
	kill "$parent" "$child" 2>/dev/null
	wait "$2" 2>/dev/null
}

ls /sys/kernel/tracing/events > /tmp/groups.txt
section groups /tmp/groups.txt
t0=$(cut -d' ' -f1 /proc/uptime)
gputop-bpf --list > /tmp/list.txt 2>&1
t1=$(cut -d' ' -f1 /proc/uptime)
echo "$t0 $t1" | awk '{ printf "%.2f\n", $2 - $1 }' > /tmp/startup.txt
section list /tmp/list.txt
section startup /tmp/startup.txt
if grep -q ': failed' /tmp/list.txt; then # libbpf's own account of the failure
	gputop-bpf --list -v > /tmp/list-verbose.txt 2>&1
	section list-verbose /tmp/list-verbose.txt
fi

# What attaches for a non-root user with the README's capabilities, and with CAP_SYS_ADMIN too
# (util-linux's setpriv, by its path: busybox's sh would run its own applet of that name).
for set in +bpf,+perfmon,+dac_read_search +bpf,+perfmon,+dac_read_search,+sys_admin \
	"$(cat /unit-caps)"; do
	echo "== $set"
	/bin/setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=$set --ambient-caps=$set \
		--bounding-set=-all,$set gputop-bpf --list 2>&1 | grep -E '^[a-z_]+: |^  reason'
done > /tmp/caps.txt
section caps /tmp/caps.txt

gputop-bpf -b -J -d 0.5 > /tmp/monitor.json 2> /tmp/monitor.err &
MON=$!
ready /tmp/monitor.json
$S gfx_0.0.0 50 2000 --gap-us 1000 > /tmp/p1.txt &
A=$!
$S comp_1.0.0 30 1000 --gap-us 1500 > /tmp/p2.txt &
B=$!
wait $A
wait $B
$S sdma0 20 3000 --burst > /tmp/p3.txt
$S comp_1.0.0 5 1000 --dep gfx_0.0.0 --dep-us 100000 --gap-us 150000 > /tmp/p4.txt
sleep 1.5
kill -INT $MON
wait $MON
echo "exit=$?" >> /tmp/monitor.err
for p in 1 2 3 4; do sed "s/^/P$p /" /tmp/p$p.txt; done > /tmp/procs.txt
section procs /tmp/procs.txt
section monitor /tmp/monitor.json
section monitor-err /tmp/monitor.err

# The metrics endpoint on live data (a build with it, with libmicrohttpd and its libraries;
# make test-vm gives the sanitizer build: a sanitizer report ends it with a non-zero status):
# 40 jobs on gfx_0.0.0 between two scrapes from inside the VM, one more while they run.
if [ -x /bin/gputop-bpf-http ]; then
	gputop-bpf-http --listen 127.0.0.1:9464 -d 0.5 </dev/null >/dev/null 2>/tmp/exporter.err &
	EXP=$!
	i=0
	until wget -q -O /tmp/exp0.txt http://127.0.0.1:9464/metrics 2>/dev/null || [ $i -ge 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	$S gfx_0.0.0 40 2000 --gap-us 50000 > /tmp/exp-proc.txt &
	J=$!
	sleep 1
	wget -q -O /tmp/exp-mid.txt http://127.0.0.1:9464/metrics
	wait $J
	sleep 2
	wget -q -O /tmp/exp1.txt http://127.0.0.1:9464/metrics
	wget -q --header 'Accept: application/openmetrics-text;version=1.0.0' -O /tmp/exp2.txt \
		http://127.0.0.1:9464/metrics
	wget -q -O /dev/null http://127.0.0.1:9464/nope 2> /tmp/nope.err
	echo "nope=$? $(cat /tmp/nope.err)" >> /tmp/exporter.err
	kill -INT $EXP
	wait $EXP
	echo "exit=$?" >> /tmp/exporter.err
	section exp0 /tmp/exp0.txt
	section exp-mid /tmp/exp-mid.txt
	section exp1 /tmp/exp1.txt
	section exp2 /tmp/exp2.txt
	section exp-proc /tmp/exp-proc.txt
	section exporter-err /tmp/exporter.err
fi

# The scheduler's exactness runs (sched-exact.sh): storm, mixed, late start; with each design.
. /sched-exact.sh
sched_exact "" ""
sched_exact stream stream-
trace_capture
trace_storm tstorm
trace_storm tstorm-spaced "--gap-us 20"
. /stacks.sh # --stacks: a submitter's known call chains (stacks.sh)

# NVIDIA collector without NVIDIA hardware (test hooks: the man page's ENVIRONMENT): uprobes
# on a stand-in libcuda.so.1 with a client of known calls (2 processes), ioctls on /dev/null
# counted as an NVIDIA device's, and the driver-function probes put on version_proc_show
# (/proc/version's show), called 777 times; by kprobe, then by fentry.
nv() {
	env GPUTOP_TEST_IOCTL_MAJOR=1 GPUTOP_TEST_NV_DRIVER_FNS=version_proc_show \
		GPUTOP_TEST_NV_DRIVER_VIA=$2 gputop-bpf -b -J -d 0.5 \
		--libcuda $3/libcuda.so.1 > /tmp/$1.json 2> /tmp/$1.err &
	MON=$!
	# everything attached: the first snapshot is out (loading BTF for fentry is slow under TCG)
	for i in $(seq 300); do [ -s /tmp/$1.json ] && break; sleep 0.1; done
	rm -f /tmp/gate /tmp/done
	LD_LIBRARY_PATH=$3 FAKE_CUDA_SYNC_US=2000 cuda-client 2 /tmp/gate /tmp/done > /tmp/$1-client.txt &
	C=$!
	sleep 0.3
	touch /tmp/gate
	reread /proc/version 777 > /tmp/$1-reads.txt
	for i in $(seq 100); do [ "$(wc -l < /tmp/$1-client.txt)" -ge 2 ] && break; sleep 0.1; done
	sleep 1.2
	touch /tmp/done
	wait $C
	sleep 1.2
	kill -INT $MON
	wait $MON
	echo "exit=$?" >> /tmp/$1.err
	section $1-client /tmp/$1-client.txt
	section $1-reads /tmp/$1-reads.txt
	section $1 /tmp/$1.json
	section $1-err /tmp/$1.err
}
# The second run's CUDA counts are printed, not checked (run.sh): on 7.3, uprobes put again on
# a file whose uprobes the previous monitor removed moments before missed a return now and
# then (counted as call_return_missed); a copy of the library on tmpfs instead locked 6.1 up.
nv nvidia kprobe /usr/lib/x86_64-linux-gnu
nv nvidia-fentry fentry /usr/lib/x86_64-linux-gnu

# Memory: one vgem file held by a process (twice, through dup) and its forked child, in a
# cgroup of our own, while the memory collector walks every process's DRM files (run.sh says
# what is checked and why).
mkdir -p /sys/fs/cgroup
mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null
mkdir -p /sys/fs/cgroup/gputop-test
# (sh -c: its $$ is the holder's own PID; a subshell's $$ would be this script's)
sh -c 'echo $$ > /sys/fs/cgroup/gputop-test/cgroup.procs; exec drm-holder vgem 120' > /tmp/holder.txt 2>&1 &
H=$!
sleep 0.5
gputop-bpf -b -J -n 3 -d 0.5 > /tmp/memory.json 2> /tmp/memory.err
echo "exit=$?" >> /tmp/memory.err
unhold /tmp/holder.txt $H
cat /proc/$$/cgroup > /tmp/memory-cgroup.txt 2>&1
section memory-holder /tmp/holder.txt
section memory /tmp/memory.json
section memory-err /tmp/memory.err
# The same with mockdrm (tests/kmod/mockdrm.c), whose fdinfo reports its buffers (drm-total-
# through the DRM core on 7.x, drm-memory-system by the driver on 6.1): 64 + 128 + 1024 KiB
# kept, 32 KiB created and destroyed.
sh -c 'echo $$ > /sys/fs/cgroup/gputop-test/cgroup.procs; exec drm-holder mockdrm 120 64 128 1024 32' > /tmp/holder2.txt 2>&1 &
H=$!
sleep 0.5
gputop-bpf -b -J -n 3 -d 0.5 > /tmp/memory2.json 2> /tmp/memory2.err
echo "exit=$?" >> /tmp/memory2.err
unhold /tmp/holder2.txt $H
section memory2-holder /tmp/holder2.txt
section memory2 /tmp/memory2.json
section memory2-err /tmp/memory2.err
# One process seen both ways: it holds mockdrm buffers (fdinfo: 256 + 512 KiB kept) and submits
# mockgpu jobs (the scheduler: 100 jobs/s for 10 s): the Overview's process table merges them by PID.
# The monitor first: its start (seconds under TCG, more on a busy host) must not outlast the jobs.
gputop-bpf -b -J -n 8 -d 0.5 > /tmp/merge.json 2> /tmp/merge.err &
MON=$!
for _ in $(seq 600); do [ -s /tmp/merge.json ] && break; sleep 0.1; done
drm-holder mockdrm 30 256 512 32 -- $S gfx_0.0.0 1000 1000 --rate 100 > /tmp/merge-holder.txt 2>&1 &
H=$!
wait $MON
unhold /tmp/merge-holder.txt $H
section merge-holder /tmp/merge-holder.txt
section merge /tmp/merge.json
# Unprivileged (uid 65534, no capability at all): it starts with what needs no privilege. A
# mockdrm holder of root's (64 KiB) and one of its own (128 KiB): only its own client is listed.
chmod 0666 /dev/dri/card* 2>/dev/null
drm-holder mockdrm 60 64 32 > /tmp/holder-root.txt 2>&1 &
HR=$!
/bin/setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all drm-holder mockdrm 60 128 32 \
	> /tmp/holder-nobody.txt 2>&1 &
HN=$!
sleep 0.5
/bin/setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all gputop-bpf -b -J -n 2 -d 0.5 \
	> /tmp/unpriv.json 2> /tmp/unpriv.err
echo "exit=$?" >> /tmp/unpriv.err
unhold /tmp/holder-root.txt $HR
unhold /tmp/holder-nobody.txt $HN
section unpriv-root-holder /tmp/holder-root.txt
section unpriv-holder /tmp/holder-nobody.txt
section unpriv /tmp/unpriv.json
section unpriv-err /tmp/unpriv.err
# Engine time: mockdrm jobs of 20 ms, 20 ms apart, for 4 s (drm-engine-render in its fdinfo),
# sampled every 0.5 s; the client says how long its job ioctls took. Each job's ioctl waits
# on the job's fence (fence waits); then 1,000 GET_CAP and 1,000 refused job ioctls (ioctls).
# Captured too (--trace): run.sh decodes its calls (tests/perfetto/calls.sh).
gputop-bpf -b -J -d 0.5 --trace /tmp/engine.pftrace > /tmp/engine.json 2> /tmp/engine.err &
MON=$!
ready /tmp/engine.json
# No GPU file is open now: the calls collector closes its gate (two censuses of every process's
# files, 5 ticks apart); the clients' first open opens it again (run.sh checks both).
for i in $(seq 300); do tail -n 1 /tmp/engine.json | grep -q 'idle: no GPU file open' && break; sleep 0.1; done
drm-load run 20 20 4 > /tmp/engine-load.txt 2>&1
drm-load ioctls 1000 > /tmp/ioctl-load.txt 2>&1
sleep 1
kill -INT $MON
wait $MON
echo "exit=$?" >> /tmp/engine.err
section engine-load /tmp/engine-load.txt
section ioctl-load /tmp/ioctl-load.txt
section engine /tmp/engine.json
section engine-err /tmp/engine.err
base64 /tmp/engine.pftrace > /tmp/engine.b64
section engine-b64 /tmp/engine.b64
# Many clients: 50 processes holding 20 mockdrm files each (1,000 clients of 64 KiB) while
# the monitor refreshes every second; its own CPU is in self.process.
drm-load many 50 20 25 > /tmp/many-load.txt 2>&1 &
L=$!
sleep 3
gputop-bpf -b -J -n 6 -d 1 > /tmp/many.json 2> /tmp/many.err
echo "exit=$?" >> /tmp/many.err
wait $L
echo "load_exit=$?" >> /tmp/many-load.txt
section many-load /tmp/many-load.txt
section many /tmp/many.json
section many-err /tmp/many.err

# Unload while jobs are in flight: 30 x 10 ms queued on sdma0, the client gone at once.
$S --hold sdma0 30 10000 --burst > /dev/null
rmmod mockgpu
echo "rmmod_exit=$?" > /tmp/unload.txt
grep -c '^mockgpu ' /proc/modules >> /tmp/unload.txt
section unload /tmp/unload.txt

# Display: a client flips every vblank, skipping one on purpose after every 20th
# flip; then another waits for 60 vblanks with events (queued, then delivered).
# Captured too (--trace): run.sh decodes its instants (tests/perfetto/display.sh).
gputop-bpf -b -J -d 0.5 --trace /tmp/display.pftrace > /tmp/display.json 2> /tmp/display.err &
MON=$!
ready /tmp/display.json
vblank-client flip vkms 300 20 > /tmp/display-flip.txt 2>&1
vblank-client wait vkms 60 > /tmp/display-wait.txt 2>&1
sleep 1.5
kill -INT $MON
wait $MON
echo "exit=$?" >> /tmp/display.err
section display-flip /tmp/display-flip.txt
section display-wait /tmp/display-wait.txt
section display-monitor /tmp/display.json
section display-err /tmp/display.err
base64 /tmp/display.pftrace > /tmp/display.b64
section display-b64 /tmp/display.b64

# vkms page flips with events: the vblank tracepoints must fire.
T=/sys/kernel/tracing
for e in drm_vblank_event drm_vblank_event_queued drm_vblank_event_delivered; do
	echo 1 > $T/events/drm/$e/enable 2>/dev/null
done
conn=$(modetest -M vkms -c 2>/dev/null | awk '$3 == "connected" { print $1; exit }')
timeout -s INT 3 modetest -M vkms -s "${conn:-0}:1024x768" -v > /tmp/modetest.txt 2>&1
echo 0 > $T/tracing_on
for e in drm_vblank_event drm_vblank_event_queued drm_vblank_event_delivered; do
	echo "$e $(grep -c " $e:" $T/trace)"
done > /tmp/vblank.txt
echo "connector ${conn:-none}" >> /tmp/vblank.txt
section vblank /tmp/vblank.txt

# Modules loaded and removed under a running monitor: amdgpu, loaded after it started, is
# picked up; mockgpu's rings go with mockgpu; a module it watches (amdgpu) cannot be removed
# while it runs (its BPF links hold a reference), and can once it has exited.
rmmod amdgpu
echo "pre_rmmod=$?" > /tmp/hotplug.txt
gputop-bpf -b -J -d 0.5 > /tmp/hotplug.json 2> /tmp/hotplug.err &
MON=$!
ready /tmp/hotplug.json
insmod /lib/modules/amdgpu.ko
echo "insmod_amdgpu=$? at=$(wc -l < /tmp/hotplug.json)" >> /tmp/hotplug.txt
insmod /lib/modules/mockgpu.ko
echo "insmod_mockgpu=$?" >> /tmp/hotplug.txt
$S gfx_0.0.0 10 1000 > /tmp/hotplug-proc.txt
sleep 1.5
rmmod mockgpu
echo "rmmod_mockgpu=$? at=$(wc -l < /tmp/hotplug.json)" >> /tmp/hotplug.txt
sleep 3
rmmod amdgpu 2> /tmp/rmmod.err
echo "rmmod_watched=$? listed=$(grep -c '^amdgpu ' /proc/modules) $(cat /tmp/rmmod.err)" >> /tmp/hotplug.txt
kill -INT $MON
wait $MON
echo "exit=$?" >> /tmp/hotplug.err
sleep 1
rmmod amdgpu
echo "rmmod_after=$? listed=$(grep -c '^amdgpu ' /proc/modules)" >> /tmp/hotplug.txt
section hotplug /tmp/hotplug.txt
section hotplug-proc /tmp/hotplug-proc.txt
section hotplug-monitor /tmp/hotplug.json
section hotplug-err /tmp/hotplug.err

dmesg > /tmp/dmesg.txt
section dmesg /tmp/dmesg.txt
