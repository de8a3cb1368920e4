#!/usr/bin/env bash
# Benchmark (not a test): in the 7.x VM, steady job rates through the mock GPU;
# per-event cost of each gputop-bpf program beside an empty program on the same
# tracepoint (kernel.bpf_stats_enabled), and gputop-bpf's own CPU and memory.
#   bench/run.sh STATIC_GPUTOP BPF_COST   (make bench)
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
BIN=$1 COST=$2
K=${BENCH_KERNEL:-k7}
LOG=$TOP/tests/vm/cache/$K/bench.log
"$TOP/tests/vm/fetch.sh" >/dev/null
EXTRA_BINS=$COST "$TOP/tests/vm/boot.sh" "$K" "$BIN" "$LOG" gputop.scenario=bench >/dev/null

section() { sed -n "/^@@BEGIN $1\$/,/^@@END $1\$/p" "$LOG" | sed '1d;$d'; }
# cost NAME...: ns/event of the first program listed whose name starts with NAME
cost() { for n in "$@"; do awk -v n="$n" 'index($1, n) == 1 { printf "%.0f", $4; f = 1; exit } END { if (!f) exit 1 }' && return; done < <(section "bench-$rate") ; echo "-"; }

echo "gputop-bpf benchmark: $(grep -m1 '^@@ kernel' "$LOG" | cut -d' ' -f3), QEMU TCG (software emulation), 2 vCPUs"
printf '%-9s %-9s | %-13s | %-13s | %-13s | %-9s %-8s\n' "target/s" "jobs/s" "queue ns/ev" "run ns/ev" "done ns/ev" "mon CPU%" "RSS MiB"
printf '%-9s %-9s | %-13s | %-13s | %-13s | %-9s %-8s\n' "" "achieved" "ours (empty)" "ours (empty)" "ours (empty)" "" ""
for rate in $(grep -o '^@@BEGIN bench-[0-9]*' "$LOG" | cut -d- -f2); do
	b=$(section "bench-$rate")
	achieved=$(awk '/^submitted=/ { split($1, a, "="); split($2, s, "="); printf "%.0f", a[2] / s[2] }' <<<"$b")
	cpu=$(awk '/^monitor_cpu_ticks/ { t = $2; hz = $4 } /^wall_s/ { w = $3 - $2 } END { printf "%.2f", 100 * t / hz / w }' <<<"$b")
	rss=$(awk '/^monitor_rss_kb/ { printf "%.1f", $2 / 1024 }' <<<"$b")
	q=$(cost sched_job_queue)
	r=$(cost sched_job_run)
	d=$(cost sched_job_done)
	printf '%-9s %-9s | %-13s | %-13s | %-13s | %-9s %-8s\n' "$rate" "$achieved" \
		"$q ($(cost empty_queue))" "$r ($(cost empty_run))" "$d ($(cost empty_done))" "$cpu" "$rss"
done
