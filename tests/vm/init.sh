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
dmesg -n 1
echo "@@ kernel $(uname -r)"
while read -r ko; do
	insmod "/lib/modules/$ko" 2>/tmp/insmod.err || echo "@@ insmod-failed $ko: $(cat /tmp/insmod.err)"
done </modules.order
if grep -q 'gputop.scenario=bench' /proc/cmdline; then
	sh /bench.sh
elif grep -q 'gputop.scenario=example' /proc/cmdline; then
	sh /example.sh
else
	sh /scenario.sh
fi
echo "@@ done"
poweroff -f
