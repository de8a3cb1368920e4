#!/bin/bash
# The symbolizing child's paths fuzzed: each target 2 jobs x 5M executions (10M), all at once
D=$(cd "$(dirname "$0")" && pwd); OUT=$1
export LD_LIBRARY_PATH=$D/lib
nproc > "$OUT/nproc"
for t in fuzz_elf fuzz_elf_funcs fuzz_unwind fuzz_cfi fuzz_perf_map fuzz_proc_maps fuzz_sym_wire; do
	mkdir -p "$OUT/$t" /tmp/corpus/$t
	cp -r "$D/seeds/${t#fuzz_}/." /tmp/corpus/$t/ 2>/dev/null
	( cd "$OUT/$t" && "$D/bin/$t" -jobs=2 -workers=2 -runs=5000000 -max_total_time=480 -timeout=25 \
		/tmp/corpus/$t > "$OUT/$t.log" 2>&1; echo "rc=$?" >> "$OUT/$t.log" ) &
done
wait
for t in fuzz_elf fuzz_elf_funcs fuzz_unwind fuzz_cfi fuzz_perf_map fuzz_proc_maps fuzz_sym_wire; do
	echo "== $t: $(tail -1 "$OUT/$t.log"); jobs' DONE lines:"
	grep -h -E "^#[0-9]+[[:space:]]+DONE" "$OUT/$t"/fuzz-*.log | sed 's/^/   /'
	grep -h -E "ERROR|SUMMARY|crash-|timeout-|leak-|oom-" "$OUT/$t"/fuzz-*.log | head -5 | sed 's/^/   /'
done
ls "$OUT"/*/crash-* "$OUT"/*/timeout-* "$OUT"/*/leak-* "$OUT"/*/oom-* 2>/dev/null
