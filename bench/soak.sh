#!/usr/bin/env bash
# Soak benchmark (not a test; make soak): the metrics endpoint for SOAK_MINUTES (60) in the 7.3 VM
# (TCG) at a steady mock-GPU job rate, a new submitter process about every half second, scraped
# every second (bench/soak-vm.sh). Prints, per tenth of the run, the monitor's RSS, the scrape
# time (10 ms resolution: /proc/uptime) and the samples served; and the processes whose series
# outlived them by more than 3 s (must be none).
#   bench/soak.sh STATIC_GPUTOP DEFAULT_GPUTOP
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
BIN=$1 HTTP=$2 M=${SOAK_MINUTES:-60} K=${SOAK_KERNEL:-k7}
"$TOP/tests/vm/fetch.sh" >/dev/null
LOG=$TOP/tests/vm/cache/$K/soak.log
GPUTOP_HTTP=$HTTP VM_TIMEOUT=$((M * 60 + 900)) "$TOP/tests/vm/boot.sh" "$K" "$BIN" "$LOG" \
	gputop.scenario=soak soak.minutes="$M" >/dev/null
grep '^@@ soak\|^soak-load' "$LOG" || true
grep '^soak-heap ' "$LOG" | awk '{ h[NR] = $3 } END { if (NR) printf "malloc heap RSS: %s KiB at the start, %s at the middle, %s at the end\n", h[1], h[int((NR + 1) / 2)], h[NR] }'
grep '^soak-map ' "$LOG" | awk '{ k = $5; if ($2 == "first") a[k] += $3; else b[k] += $3; ks[k] = 1 }
	END { for (k in ks) if (b[k] - a[k] >= 256 || a[k] - b[k] >= 256)
		printf "mapping %s: RSS %d KiB after the first minute, %d at the end\n", k, a[k], b[k] }'
grep '^soak ' "$LOG" | awk -v M="$M" '
	{ t[NR] = $2; ms[NR] = $3; rss[NR] = $4; n[NR] = $5
	  for (i = 6; i <= NF; i++) { if (last[$i] == NR - 1) run[$i]++; else run[$i] = 1; last[$i] = NR
				      if (run[$i] > 3) lingering[$i] = 1 } }
	END {
		if (NR < 10) { print "soak: too few scrapes (" NR ")"; exit 1 }
		printf "%-8s %-14s %-16s %-12s\n", "part", "RSS KiB", "scrape ms p50/max", "samples"
		for (p = 0; p < 10; p++) {
			a = int(p * NR / 10) + 1; b = int((p + 1) * NR / 10)
			delete v; k = 0; mx = 0; rmin = 1e18; rmax = 0; smin = 1e18; smax = 0
			for (i = a; i <= b; i++) { v[++k] = ms[i]; if (ms[i] > mx) mx = ms[i]
				if (rss[i] < rmin) rmin = rss[i]; if (rss[i] > rmax) rmax = rss[i]
				if (n[i] < smin) smin = n[i]; if (n[i] > smax) smax = n[i] }
			for (i = 2; i <= k; i++) { x = v[i]; j = i - 1 # insertion sort (mawk has no asort)
				while (j > 0 && v[j] > x) { v[j + 1] = v[j]; j-- }
				v[j + 1] = x }
			printf "%-8s %-14s %-16s %-12s\n", (p * 10) "-" ((p + 1) * 10) "%", rmin "-" rmax,
				v[int((k + 1) / 2)] "/" mx, smin "-" smax
		}
		c = 0; for (p in lingering) c++
		printf "scrapes %d over %d min; processes whose series outlived them by > 3 s: %d\n", NR, M, c
		exit c > 0
	}'
