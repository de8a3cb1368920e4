#!/usr/bin/env bash
# Benchmark (not a test), in the QEMU VMs (TCG) of the test rig, for each kernel:
#  - the maximum job rate (one submitter, 1-us jobs, one per ioctl) with no tracer,
#    with gputop-bpf (maps, streamed, streamed with --stacks), and with the seed's
#    drm_scheduler.bt under bpftrace (kernels <= 6.16: the events it names); the
#    ratios to the untraced rate;
#  - each gputop-bpf scheduler event's cost per event (its program and twins, from
#    kernel.bpf_stats_enabled) beside an empty program on the same tracepoint, and
#    the monitor's own CPU and memory, at steady job rates.
#   bench/run.sh STATIC_GPUTOP BPF_COST   (make bench)
# Environment: BENCH_KERNELS="k61 k7", BENCH_JOBS=20000, BENCH_ROUNDS=3, BENCH_RATES=2000,20000,
# BENCH_DESIGNS=map,stream,stacks,seed (the tracers run; e.g. stream,stacks: --stacks' rows and
# the same design without it)
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
BIN=$1 COST=$2
BPFTRACE=$(command -v bpftrace || true)
[ -n "$BPFTRACE" ] || echo "bench: bpftrace is not installed (apt-get install bpftrace): no seed-script comparison" >&2
"$TOP/tests/vm/fetch.sh" >/dev/null

for K in ${BENCH_KERNELS:-k61 k7}; do
	LOG=$TOP/tests/vm/cache/$K/bench.log
	EXTRA_BINS="$COST $BPFTRACE" "$TOP/tests/vm/boot.sh" "$K" "$BIN" "$LOG" gputop.scenario=bench \
		bench.jobs="${BENCH_JOBS:-20000}" bench.rounds="${BENCH_ROUNDS:-3}" bench.rates="${BENCH_RATES:-2000,20000}" \
		bench.designs="${BENCH_DESIGNS:-map,stream,stacks,seed}" >/dev/null
	section() { sed -n "/^@@BEGIN $1\$/,/^@@END $1\$/p" "$LOG" | sed '1d;$d'; }
	echo "== $(grep -m1 '^@@ kernel' "$LOG" | cut -d' ' -f3), QEMU TCG (software emulation), 2 vCPUs"

	echo "Maximum job rate: one process, 1-us jobs, one per ioctl ($(section throughput | awk '/^storm/ { print $4; exit }') per round)"
	printf '%-15s | %-26s | %-9s | %-12s\n' "tracer" "jobs/s, each round" "vs none" "tracer CPU%"
	section throughput | awk '
		/^seed_script/ { seed = $2; hz = $4 }
		/^storm/ { r = $6; n[$2]++; s[$2] += $4 / r; each[$2] = each[$2] sprintf("%.0f ", $4 / r)
			   t[$2] += $8; w[$2] += r }
		END {
			split("none gputop-bpf gputop-stream gputop-stacks seed-bpftrace", order, " ")
			for (i = 1; i <= 5; i++) {
				k = order[i]
				if (!n[k]) { if (k ~ /^gputop-st/) continue; if (k == "seed-bpftrace") printf "%-15s | %s\n", k, (seed == "yes" ? "no result" : seed == "skipped" ? "not run: not in BENCH_DESIGNS" : "not run: this kernel lacks the events the script names (<= 6.16)"); continue }
				printf "%-15s | %-26s | %-9s | %-12s\n", k, each[k],
					sprintf("%.2f", (s[k] / n[k]) / (s["none"] / n["none"])),
					k == "none" ? "-" : sprintf("%.1f", 100 * t[k] / hz / w[k])
			}
		}'
	section throughput | grep -A5 '^seed_stderr' || true
	# nonzero NAME:COUNT pairs of a "key a:1 b:0 ..." line, or 0
	nonzero() { awk '{ out = ""; for (i = 2; i <= NF; i++) { split($i, kv, ":"); if (kv[2] != 0) out = out " " $i } print out == "" ? " 0" : out }'; }
	echo "gputop-stream losses, each round:$(section throughput | grep '^stream_lost' | nonzero | tr '\n' ';')"

	echo "Cost per event, ns (kernel BPF statistics): ours = the event's program and its two twins"
	printf '%-6s %-9s %-9s | %-20s | %-20s | %-20s | %-14s %-10s %-7s %s\n' "design" "target/s" "achieved" "queue: ours/empty" "run: ours/empty" "done: ours/empty" "mon CPU% us/sy" "mon us/job" "RSS MiB" "losses"
	for sec in $(grep -o '^@@BEGIN bench-[a-z0-9-]*' "$LOG" | cut -d' ' -f2); do
		b=$(section "$sec")
		rate=${sec##*-}
		design=map
		[ "${sec#bench-stream}" != "$sec" ] && design=stream
		[ "${sec#bench-stacks}" != "$sec" ] && design=stacks
		# ev PREFIX EMPTY: "ours / empty = ratio", ours summed over the program and its twins
		ev() {
			awk -v p="$1" -v e="$2" '
				$1 == p || $1 == p "2" || $1 == p "3" { ours += $4; f = 1 }
				$1 == e { empty = $4 }
				END { if (!f || !empty) { print "-"; exit } printf "%.0f / %.0f = %.1fx", ours, empty, ours / empty }' <<<"$b"
		}
		achieved=$(awk '/^submitted=/ { split($1, a, "="); split($2, s, "="); printf "%.0f", a[2] / s[2] }' <<<"$b")
		cpu=$(awk '/^monitor_cpu_ticks/ { t = $2; hz = $4 } /^monitor_user_sys_ticks/ { u = $4 - $2; k = $5 - $3 }
			/^wall_s/ { w = $3 - $2 } END { printf "%.2f %.1f/%.1f", 100 * t / hz / w, 100 * u / hz / w, 100 * k / hz / w }' <<<"$b")
		# the monitor's CPU per job submitted over the same window (clock ticks: 10 ms each)
		per_job=$(awk '/^submitted=/ { split($1, a, "="); n = a[2] } /^monitor_cpu_ticks/ { t = $2; hz = $4 }
			END { if (n && hz) printf "%.1f", 1e6 * t / hz / n; else print "-" }' <<<"$b")
		rss=$(awk '/^monitor_rss_kb/ { printf "%.1f", $2 / 1024 }' <<<"$b")
		lost=$(grep '^monitor_drops' <<<"$b" | nonzero)
		printf '%-6s %-9s %-9s | %-20s | %-20s | %-20s | %-14s %-10s %-7s %s\n' "$design" "$rate" "$achieved" \
			"$(ev sched_queue empty_queue)" "$(ev sched_run empty_run)" "$(ev sched_done empty_done)" "$cpu" "$per_job" "$rss" "$lost"
		# --stacks: the monitor's end lines (stacks written; copies unwound and their CPU time), per job
		[ $design = stacks ] && awk '/^submitted=/ { split($1, a, "="); n = a[2] }
			/^gputop-bpf: stacks/ { sub(/^gputop-bpf: stacks [^:]*: /, ""); line = line (line == "" ? "" : "; ") $0
				if (match($0, /unwound in [0-9.]+ ms/)) ms = substr($0, RSTART + 11, RLENGTH - 14) }
			END { if (line == "") { print "       --stacks: no end line (the monitor failed?)"; exit }
				printf "       --stacks: %s%s\n", line, (ms != "" && n ? sprintf("; unwinding %.2f us per job", 1e3 * ms / n) : "") }' <<<"$b"
	done
done
