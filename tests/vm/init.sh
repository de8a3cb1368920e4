#!/bin/sh
# /init of the test VM (busybox): mount, load the modules in order, run the
# scenario, power off. Results go to the serial console between @@BEGIN/@@END.
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
mount -t tracefs nodev /sys/kernel/tracing
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up # the metrics endpoint is scraped on loopback
# QEMU's TCG (there is no KVM here) can run an int3 the kernel has already patched away when a
# tracepoint's static key flips while another vCPU is inside the patched code: the syscall
# tracepoints, switched on and off at each monitor start and exit, crashed 7.3 ("Oops: int3"
# in trace_syscall_enter). A tracefs instance that never records holds them, and the dma_fence
# waits, enabled for the whole boot: the monitor's attach and detach then patch no code.
H=/sys/kernel/tracing/instances/hold
mkdir $H && echo 0 > $H/tracing_on
for e in syscalls/sys_enter_ioctl syscalls/sys_exit_ioctl dma_fence/dma_fence_wait_start dma_fence/dma_fence_wait_end; do
	echo 1 > $H/events/$e/enable || echo "@@ hold-failed $e"
done
dmesg -n 1
echo "@@ kernel $(uname -r)"
# A watchdog (gputop.watchdog=SECONDS, from run.sh by boot.sh): a scenario still running then is hung.
# Where every process sleeps and what the kernel logged go to the console, then power off,
# before the host's own timeout kills QEMU and the log with it says nothing.
wd=$(sed -n 's/.*gputop\.watchdog=\([0-9]*\).*/\1/p' /proc/cmdline)
if [ -n "$wd" ]; then
	(
		sleep "$wd"
		echo "@@ watchdog: the scenario still ran after $wd s"
		echo "@@BEGIN hung"
		echo w > /proc/sysrq-trigger 2>/dev/null # blocked tasks, to the kernel log
		dmesg | tail -40
		for p in /proc/[0-9]*; do
			cmd=$(tr '\0' ' ' < $p/cmdline 2>/dev/null | cut -c1-120)
			[ -n "$cmd" ] || continue # a kernel thread (proc files have no size: read, not -s)
			for t in $p/task/*; do
				echo "$(basename $p)/$(basename $t) $(cat $t/comm) state $(cut -d' ' -f3 $t/stat) wchan $(cat $t/wchan): $cmd"
				sed 's/^/    /' $t/stack 2>/dev/null
			done
		done
		echo "@@END hung"
		poweroff -f
	) &
fi
while read -r ko; do
	insmod "/lib/modules/$ko" 2>/tmp/insmod.err || echo "@@ insmod-failed $ko: $(cat /tmp/insmod.err)"
done </modules.order
if grep -q 'gputop.scenario=bench' /proc/cmdline; then
	sh /bench.sh
elif grep -q 'gputop.scenario=soak' /proc/cmdline; then
	sh /soak.sh
elif grep -qE 'gputop.scenario=example(-trace)?( |$)' /proc/cmdline; then
	sh /example.sh
else
	sh /scenario.sh
fi
echo "@@ done"
poweroff -f
