#!/usr/bin/env bash
# Builds what one cached kernel's VM needs and boots it under QEMU (TCG):
#   boot.sh k61|k7 STATIC_GPUTOP LOG [KERNEL_OPTION...]
# LOG receives the serial console, carriage returns removed. tsc=reliable: under load the
# clocksource watchdog finds TCG's TSC skewed and switches to HPET mid-run (seen: a clock
# read then costs 3 us, sched_clock's code is patched live and once oopsed on an int3,
# and a monitor's poller stopped ticking); real machines keep the TSC.
set -euo pipefail
VM=$(cd "$(dirname "$0")" && pwd)
K=$1 BIN=$2 LOG=$3
shift 3
DIR=$VM/cache/$K
kernel=$(find "$DIR/root" -name 'vmlinuz*' -type f | head -1)
"$VM/build-modules.sh" "$K"
"$VM/initramfs.sh" "$K" "$BIN" "$DIR/initrd.gz"
# VM_WATCHDOG=SECONDS (tests/vm/run.sh): the guest reports a scenario still running then as hung,
# with where its processes sleep, and powers off (init.sh); the host's timeout comes after it.
rc=0
timeout "${VM_TIMEOUT:-900}" qemu-system-x86_64 -M q35 -accel tcg -cpu max -smp 2 -m 2048 \
	-kernel "$kernel" -initrd "$DIR/initrd.gz" \
	-append "console=ttyS0 quiet loglevel=1 panic=-1 tsc=reliable ${VM_WATCHDOG:+gputop.watchdog=$VM_WATCHDOG} $*" \
	-display none -monitor none -serial "file:$DIR/serial.log" -no-reboot || rc=$?
tr -d '\r' <"$DIR/serial.log" >"$LOG"
exit $rc
